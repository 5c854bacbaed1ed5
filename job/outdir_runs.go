package job

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/report"
)

// checkFresh refuses a new run into a directory that already holds results unless
// --append asks for another run beside them: appending silently mixed two runs in one
// file, and a reader could not tell a second run from a resumed one.
func checkFresh(dir string, appendRun bool) error {
	st, err := loadState(dir)
	if err != nil {
		return fmt.Errorf("-o %s: %v", dir, err)
	}
	n := len(st.res.Runs)
	if n == 0 {
		if info, err := os.Stat(filepath.Join(dir, "results.jsonl")); err == nil && info.Size() > 0 {
			return &ExitError{Code: 2, Err: fmt.Errorf("-o %s: results.jsonl holds no skampi run (first problem: %s): choose another -o",
				dir, firstProblem(st.res))}
		}
		return nil
	}
	if appendRun {
		return nil
	}
	last := st.res.Runs[n-1].RunID
	points := 0
	for i := range st.res.Points {
		if st.res.Points[i].RunID == last {
			points++
		}
	}
	runs := ""
	if n > 1 {
		runs = fmt.Sprintf(" (after %d earlier run(s))", n-1)
	}
	return &ExitError{Code: 2, Err: fmt.Errorf("%s already holds run %s (%d points)%s: --resume continues it, --append adds another run beside it, or choose another -o",
		dir, report.Printable(last), points, runs)}
}

// suiteCopyName is the copy of the suite text a results directory keeps.
const suiteCopyName = "suite.toml"

// keepSuite writes the suite text that runs into dir: suite.toml for the directory's
// first suite; a run of another text (--append or --resume --force with a changed
// suite) keeps its own beside it as suite.RUNID.toml, so no run loses the text that
// made it. Each copy's sha256 is its run header's suite_sha256.
func keepSuite(dir string, plan *inputs.Plan, runID string) error {
	if dir == "" || len(plan.Text) == 0 {
		return nil
	}
	path := filepath.Join(dir, suiteCopyName)
	old, err := os.ReadFile(path)
	switch {
	case err == nil && bytes.Equal(old, plan.Text):
		return nil
	case err == nil:
		path = filepath.Join(dir, "suite."+safeName(runID)+".toml")
	case !os.IsNotExist(err):
		return fmt.Errorf("keeping the suite: %w", err)
	}
	f, err := openRegular(path)
	if err != nil {
		return fmt.Errorf("keeping the suite: %w", err)
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return fmt.Errorf("keeping the suite: %w", err)
	}
	_, err = f.Write(plan.Text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("keeping the suite: %w", err)
	}
	return nil
}

// safeName keeps a run id usable as part of a file name.
func safeName(id string) string {
	b := []byte(id)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}
