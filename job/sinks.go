package job

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// withETA is the table's options with the time left on every point line: each
// point's cap (max_time_per_point), by its index.
func withETA(opt report.TableOptions, points []inputs.Point) report.TableOptions {
	caps := make([]time.Duration, len(points))
	for i := range points {
		caps[i] = points[i].Settings().MaxTime
	}
	opt.ETA = &report.ETA{Caps: caps, Now: time.Now}
	return opt
}

// openSinks sets up the terminal table and, with a directory, the three result files,
// appended to when they exist so no earlier run is lost. A results.csv with the columns
// of another skampi is set aside first (asideCSV), saying so on stderr.
func openSinks(dir string, stdout, stderr io.Writer, opt report.TableOptions) (*report.Locked, []*os.File, error) {
	table := report.NewTableWith(stdout, opt)
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
	aside, err := asideCSV(filepath.Join(dir, "results.csv"))
	if err != nil {
		return nil, files, err
	}
	if aside != "" {
		fmt.Fprintf(stderr, "skampi: %s has the columns of another skampi version: kept as %s, and results.csv starts again with the current columns\n",
			filepath.Join(dir, "results.csv"), aside)
	}
	cf, fresh, err := open("results.csv")
	if err != nil {
		return nil, files, err
	}
	if err := endLine(cf); err != nil {
		return nil, files, err
	}
	sf, _, err := open("results.sko")
	if err != nil {
		return nil, files, err
	}
	// JSONL first: it is the canonical record and must be written (and on disk) before
	// anything else. A record that breaks the schema is said at once, not first when the
	// file is read.
	j := report.NewJSONL(jf)
	j.Broken = func(what string, problems []string) {
		for _, p := range problems {
			fmt.Fprintf(stderr, "skampi: %s: %s breaks the schema: %s; written as measured (skampi validate lists it)\n",
				jf.Name(), what, report.Printable(p))
		}
	}
	return report.NewLocked(report.Multi{durable{j, jf}, report.NewCSV(cf, fresh), report.NewSKO(sf), table}), files, nil
}

// asideCSV moves a results.csv whose header is not report.CSVHeader (an older skampi's
// columns) to results.<first 8 hex digits of its header's sha256>.csv, never over an
// existing file, so that no row lands under the wrong column; it returns the new name,
// "" when the file is missing, empty or has the current header.
func asideCSV(path string) (string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("opening results: %w", err)
	}
	// A header longer than the buffer is not ours, and its start names it well enough.
	b, err := bufio.NewReaderSize(f, 64<<10).ReadSlice('\n')
	f.Close()
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	line := strings.TrimRight(string(b), "\r\n")
	if len(b) == 0 || report.HasCSVHeader(line) {
		return "", nil
	}
	sum := sha256.Sum256([]byte(line))
	base := filepath.Join(filepath.Dir(path), "results."+hex.EncodeToString(sum[:])[:8])
	for i := 0; ; i++ {
		to := base + ".csv"
		if i > 0 {
			to = fmt.Sprintf("%s-%d.csv", base, i)
		}
		// A hard link fails on an existing name, where a rename would replace it.
		err := os.Link(path, to)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("keeping %s with its older columns: %w", path, err)
		}
		if err := os.Remove(path); err != nil {
			return "", fmt.Errorf("keeping %s with its older columns: %w", path, err)
		}
		return to, nil
	}
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

func (t *tally) Step(s *record.Step) error {
	if ss, ok := t.Sink.(report.StepSink); ok {
		return ss.Step(s)
	}
	return nil
}
