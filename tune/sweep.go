package tune

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/report"
)

// Launcher runs one launch of a sweep: skampi on suite, results into dir (resuming
// what is there when resume is set), with the combination's environment and process
// count. It returns skampi's exit status.
type Launcher func(l inputs.Launch, suite, dir string, resume bool) (int, error)

// manifest is DIR/sweep.json: which tune file, and which text of its suite, a sweep
// directory belongs to, so that a resume never mixes two sweeps.
type manifest struct {
	Tune         string   `json:"tune"`
	TuneSource   string   `json:"tune_source"`
	TuneSHA256   string   `json:"tune_sha256"`
	Suite        string   `json:"suite,omitempty"` // the suite file read, or "builtin:NAME"
	SuiteSHA256  string   `json:"suite_sha256,omitempty"`
	Combinations []string `json:"combinations"`
	Started      string   `json:"started"`
}

// UsageError is a sweep directory that does not suit the flags given (a sweep there
// without --resume, another tune file's there): the command line's mistake.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usage(format string, args ...any) error { return &UsageError{fmt.Sprintf(format, args...)} }

// Options of a sweep.
type Options struct {
	Dir    string
	Resume bool // continue a sweep in Dir (the same tune file)
	Force  bool // with Resume: even if Dir holds another tune file's sweep
	Out    io.Writer
	// Command is the command line a launch runs, to name it when it fails (nil: the
	// launcher does not say).
	Command func(l inputs.Launch, suite, dir string, resume bool) []string
}

// Sweep runs every launch of t's schedule that Dir does not hold complete yet, in the
// schedule's interleaved order; the caller holds Lock(o.Dir). A launch that fails (a
// hang the run recorded, a crash, a launcher that started nothing) is reported and the
// sweep goes on: its points are missing from the verdict, which says so, and the
// failures are listed at the end. When nothing at all is measured, the sweep is an
// error naming the first failure; it stops once every combination has failed once.
func Sweep(t *inputs.Tune, o Options, launch Launcher) error {
	if err := prepareDir(t, o); err != nil {
		return err
	}
	sched := t.Schedule()
	round := len(sched) / t.Repeats
	var failed []failure
	measured, launched := false, 0
	for i, l := range sched {
		dir := filepath.Join(o.Dir, l.Dir())
		done, have := Complete(dir)
		if done {
			measured = true
			fmt.Fprintf(o.Out, "tune: [%d/%d] %s, repeat %d: already measured\n", i+1, len(sched), l.Describe(), l.Repeat)
			continue
		}
		if !measured && launched == round {
			return noneMeasured(failed, len(sched))
		}
		suite := filepath.Join(o.Dir, l.Name, "suite.toml")
		if err := writeSuite(t, l.Combination, suite); err != nil {
			return err
		}
		fmt.Fprintf(o.Out, "tune: [%d/%d] %s, repeat %d\n", i+1, len(sched), l.Describe(), l.Repeat)
		start := time.Now()
		code, err := launch(l, suite, dir, have)
		if err != nil {
			return fmt.Errorf("%s: %w", l.Name, err)
		}
		launched++
		points := measuredPoints(dir)
		measured = measured || points > 0
		if code == 0 && points > 0 {
			continue
		}
		f := failure{launch: l, code: code, dir: dir}
		if o.Command != nil {
			f.command = o.Command(l, suite, dir, have)
		}
		failed = append(failed, f)
		took := time.Since(start).Round(time.Second)
		if code != 0 {
			fmt.Fprintf(o.Out, "tune: %s, repeat %d: the launch ended with status %d after %v (its output: %s); its missing points are left out of the verdict\n",
				l.Name, l.Repeat, code, took, filepath.Join(dir, LogName))
		} else {
			fmt.Fprintf(o.Out, "tune: %s, repeat %d: the launch ended with status 0 after %v but measured nothing (its output: %s)\n",
				l.Name, l.Repeat, took, filepath.Join(dir, LogName))
		}
	}
	switch {
	case !measured && len(failed) > 0:
		return noneMeasured(failed, len(sched))
	case len(failed) > 0:
		fmt.Fprintln(o.Out, summary(failed, launched))
	}
	return nil
}

// prepareDir creates the sweep directory or, resuming, checks it is this tune's.
func prepareDir(t *inputs.Tune, o Options) error {
	path := filepath.Join(o.Dir, "sweep.json")
	_, err := os.Stat(path)
	switch {
	case err == nil && !o.Resume:
		return usage("%s already holds a sweep: --resume continues it, or choose another -o", o.Dir)
	case err == nil:
		return CheckDir(t, o.Dir, o.Force)
	case !errors.Is(err, os.ErrNotExist):
		return err
	case o.Resume:
		return usage("--resume: %s holds no sweep to continue", o.Dir)
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return err
	}
	var names []string
	for _, c := range t.Combinations() {
		names = append(names, c.Name)
	}
	m := manifest{Tune: t.Name, TuneSource: t.Source, TuneSHA256: t.SHA256, Suite: t.SuiteSource, SuiteSHA256: t.SuiteSHA256,
		Combinations: names, Started: time.Now().UTC().Format(time.RFC3339)}
	b, _ := json.MarshalIndent(m, "", "  ")
	return report.WriteFile(path, func(w io.Writer) error { _, err := w.Write(append(b, '\n')); return err })
}

// CheckDir says whether dir holds a sweep of t: of the same tune file and the same
// text of its suite (a suite file edited since would mix two suites' results in one
// verdict). force accepts another's.
func CheckDir(t *inputs.Tune, dir string, force bool) error {
	path := filepath.Join(dir, "sweep.json")
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return usage("%s holds no sweep (no sweep.json): run one there first", dir)
	}
	if err != nil {
		return err
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("%s: not a sweep's manifest: %v", path, err)
	}
	if force {
		return nil
	}
	switch {
	case m.TuneSHA256 != t.SHA256:
		return usage("%s holds a sweep of %s (sha256 %.12s), not of %s (%.12s): --force to take it anyway",
			dir, report.Printable(m.Tune), m.TuneSHA256, report.Printable(t.Name), t.SHA256)
	case m.SuiteSHA256 != t.SuiteSHA256 && m.SuiteSHA256 == "":
		return usage("%s holds a sweep that records no hash of its suite %s, so its results may be of another text of it: --force to take them anyway",
			dir, report.Printable(t.SuiteSource))
	case m.SuiteSHA256 != t.SuiteSHA256:
		return usage("the suite %s has changed since the sweep in %s started (sha256 %.12s, now %.12s): its complete launches measured the old text; another -o starts afresh, --force takes them anyway",
			report.Printable(t.SuiteSource), dir, m.SuiteSHA256, t.SuiteSHA256)
	}
	return nil
}

// writeSuite writes the combination's suite (the same text every time: a resume of
// its runs finds the same suite hash).
func writeSuite(t *inputs.Tune, c inputs.Combination, path string) error {
	text, err := t.SuiteText(c)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	head := fmt.Sprintf("# %s: combination %s\n# %s\n", t.Name, c.Name, c.Describe())
	return report.WriteFile(path, func(w io.Writer) error {
		_, err := io.WriteString(w, head+string(text))
		return err
	})
}

// Complete reports whether a launch directory holds every point its run header
// announced (measured or recorded as a fault); have says it holds anything (a
// resume, not a fresh start).
func Complete(dir string) (done, have bool) {
	res, err := loadLaunch(dir)
	if err != nil || len(res.Runs) == 0 {
		_, statErr := os.Stat(filepath.Join(dir, "results.jsonl"))
		return false, statErr == nil
	}
	want := res.Runs[0].Points
	keys := map[string]bool{}
	for _, p := range res.Points {
		keys[fmt.Sprint(p.Key())] = true
	}
	for _, f := range res.Faults {
		if f.Fault != "interrupted" {
			keys[fmt.Sprint(f.Key())] = true
		}
	}
	return want > 0 && len(keys) >= want, true
}

// measuredPoints is how many points a launch directory holds: none after a launch
// that failed before measuring, or that started no skampi at all.
func measuredPoints(dir string) int {
	res, err := loadLaunch(dir)
	if err != nil {
		return 0
	}
	return len(res.Points)
}

func loadLaunch(dir string) (*report.Results, error) {
	return report.LoadAll(report.ParseSources([]string{filepath.Join(dir, "results.jsonl")}), nil)
}
