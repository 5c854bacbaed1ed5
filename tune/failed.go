package tune

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/report"
)

// failure is a launch that ended with a status other than 0, or measured nothing:
// a launcher that starts no skampi (`--launcher true`) ends well and leaves nothing.
type failure struct {
	launch  inputs.Launch
	code    int
	command []string // argv, nil when the launcher does not say
	dir     string
}

// Tail of a failed launch's output shown in the error: the reason (an MPI_Init
// banner, skampi's one line) is at its end.
const (
	tailLines = 12
	tailBytes = 4096
)

// short is the launch and how it ended, for a list of failures.
func (f failure) short() string {
	how := "status " + strconv.Itoa(f.code)
	if f.code == 0 {
		how = "status 0, nothing measured"
	}
	return fmt.Sprintf("%s repeat %d (%s)", f.launch.Name, f.launch.Repeat, how)
}

// ended is how the launch ended, in words.
func (f failure) ended() string {
	if f.code == 0 {
		return fmt.Sprintf("ended with status 0 but measured nothing (no point in %s)", filepath.Join(f.dir, "results.jsonl"))
	}
	return fmt.Sprintf("ended with status %d", f.code)
}

// detail is everything a user needs to see why the launch failed: how it ended, the
// command that ran it (with the combination's variables, as a shell would take it),
// and the end of its output.
func (f failure) detail() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s repeat %d %s", f.launch.Name, f.launch.Repeat, f.ended())
	if f.command != nil {
		fmt.Fprintf(&b, "\n  command: %s", shellLine(f.launch.Env(), f.command))
	}
	log := filepath.Join(f.dir, LogName)
	tail, err := fileTail(log)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(&b, "\n  output: none (no %s)", log)
	case err != nil:
		fmt.Fprintf(&b, "\n  output: %s: %v", log, err)
	case len(bytes.TrimSpace(tail)) == 0:
		fmt.Fprintf(&b, "\n  output (%s): nothing", log)
	default:
		fmt.Fprintf(&b, "\n  output (%s) ends:", log)
		for _, line := range strings.Split(strings.TrimRight(string(tail), "\n"), "\n") {
			b.WriteString("\n    " + report.Printable(line))
		}
	}
	return b.String()
}

// fileTail is the last tailLines lines of a file, within its last tailBytes.
func fileTail(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	from := max(0, st.Size()-tailBytes)
	buf, err := io.ReadAll(io.NewSectionReader(f, from, st.Size()-from))
	if err != nil {
		return nil, err
	}
	buf = bytes.TrimRight(buf, "\n")
	lines := bytes.Split(buf, []byte("\n"))
	if from > 0 && len(lines) > 1 {
		lines = lines[1:] // the first is cut
	}
	lines = lines[max(0, len(lines)-tailLines):]
	return bytes.Join(lines, []byte("\n")), nil
}

// shellLine is the command as a line sh would run the same way: the variables
// (NAME=VALUE) set before it, then argv.
func shellLine(env, argv []string) string {
	var words []string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		words = append(words, k+"="+quoteWord(v))
	}
	for _, w := range argv {
		words = append(words, quoteWord(w))
	}
	return strings.Join(words, " ")
}

func quoteWord(w string) string {
	q, err := syntax.Quote(w, syntax.LangPOSIX)
	if err != nil { // a byte no POSIX quote holds
		return strconv.Quote(w)
	}
	return q
}

// noneMeasured is the error of a sweep in which no launch measured anything: the
// first failure in full, which is usually every launch's reason.
func noneMeasured(fs []failure, total int) error {
	how := fmt.Sprintf("all %d launches failed", len(fs))
	if len(fs) < total {
		how = fmt.Sprintf("the first %d launches, one of every combination, failed, so the sweep stopped short of its %d", len(fs), total)
	}
	return fmt.Errorf("tune: no launch measured anything: %s; the first, %s", how, fs[0].detail())
}

// summary lists the failed launches of a sweep that measured something.
func summary(fs []failure, total int) string {
	const shown = 10
	var names []string
	for i, f := range fs {
		if i == shown {
			names = append(names, fmt.Sprintf("and %d more", len(fs)-shown))
			break
		}
		names = append(names, f.short())
	}
	return fmt.Sprintf("tune: %d of %d launches failed: %s; the verdict is of what the others measured, the first failure in full:\n%s",
		len(fs), total, strings.Join(names, ", "), fs[0].detail())
}
