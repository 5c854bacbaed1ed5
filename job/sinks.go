package job

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// openSinks sets up the terminal table and, with a directory, the three result files,
// appended to when they exist so no earlier run is lost.
func openSinks(dir string, stdout io.Writer) (*report.Locked, []*os.File, error) {
	table := report.NewTable(stdout)
	if dir == "" {
		return report.NewLocked(table), nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("creating output directory: %w", err)
	}
	var files []*os.File
	open := func(name string) (*os.File, bool, error) {
		f, err := openRegular(filepath.Join(dir, name))
		if err != nil {
			return nil, false, err
		}
		files = append(files, f)
		st, err := f.Stat()
		return f, err == nil && st.Size() == 0, err
	}
	jf, _, err := open("results.jsonl")
	if err != nil {
		return nil, files, err
	}
	if err := endLine(jf); err != nil {
		return nil, files, err
	}
	cf, fresh, err := open("results.csv")
	if err != nil {
		return nil, files, err
	}
	sf, _, err := open("results.sko")
	if err != nil {
		return nil, files, err
	}
	// JSONL first: it is the canonical record and must be written (and on disk) before
	// anything else.
	return report.NewLocked(report.Multi{durable{report.NewJSONL(jf), jf}, report.NewCSV(cf, fresh), report.NewSKO(sf), table}), files, nil
}

// endLine makes sure an append starts on a new line: a record torn by a crash of the
// machine stays on a line of its own, where readers report and skip it.
func endLine(f *os.File) error {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	last := make([]byte, 1)
	r, err := os.Open(f.Name())
	if err != nil {
		return err
	}
	defer r.Close()
	if _, err := r.ReadAt(last, st.Size()-1); err != nil && err != io.EOF {
		return err
	}
	if last[0] != '\n' {
		_, err = f.Write([]byte("\n"))
	}
	return err
}

// tally counts the corrupt-data faults of a run as they are written: the run's exit
// status says a received byte differed from what was sent (ExitCorrupt).
type tally struct {
	report.Sink
	corrupt int
}

func (t *tally) Fault(f *record.Fault) error {
	if f.Fault == record.FaultCorrupt {
		t.corrupt++
	}
	return t.Sink.Fault(f)
}
