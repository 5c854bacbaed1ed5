package job

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// lockName is the file whose lock makes one run the only writer of a results
// directory.
const lockName = ".skampi.lock"

// dirLock is a held lock on a results directory; the kernel releases it when the
// process ends, however it ends, so a crashed run never blocks the next one.
type dirLock struct{ f *os.File }

// lockDir takes the directory's lock, or says who holds it: two runs appending to one
// file (or a --resume while an orphaned job still runs) would interleave records.
func lockDir(dir string) (*dirLock, error) {
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		owner, _ := io.ReadAll(io.LimitReader(f, 512))
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s is being written by another skampi run (%s); wait for it to end, or use another -o",
				dir, strings.TrimSpace(report.Printable(string(owner))))
		}
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	host, _ := os.Hostname()
	f.Truncate(0)
	fmt.Fprintf(f, "process %d on %s since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	return &dirLock{f}, nil
}

// release gives the lock up (the process ending does too).
func (l *dirLock) release() {
	if l != nil && l.f != nil {
		l.f.Close()
		l.f = nil
	}
}

// checkOutDir finds, before any process starts, what would stop a run from writing
// dir: not a directory, not writable, a result file that is not a regular file, or
// another run writing it. It creates dir.
func checkOutDir(dir string) error {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return fmt.Errorf("-o %s: not a directory", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-o %s: %w", dir, err)
	}
	for _, name := range resultFiles {
		if st, err := os.Lstat(filepath.Join(dir, name)); err == nil && !st.Mode().IsRegular() {
			return fmt.Errorf("-o %s: %s is not a regular file (%s): skampi writes only regular files", dir, name, st.Mode().Type())
		}
	}
	l, err := lockDir(dir) // also proves the directory writable
	if err != nil {
		return err
	}
	l.release()
	return nil
}

// resultFiles are what a run appends to in its directory.
var resultFiles = []string{"results.jsonl", "results.csv", "results.sko"}

// openRegular opens a result file for appending, never following a link nor blocking
// on (or writing into) a FIFO or device.
func openRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening results: %w", err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("opening results: %s is not a regular file: skampi writes only regular files", path)
	}
	return f, nil
}

// checkResume refuses to resume a directory that holds results of another suite (the
// same measurement names with other settings would be taken as measured), or that is
// not a result file at all, unless forced.
func checkResume(plan *inputs.Plan, dir string, force bool) error {
	st, err := loadState(dir)
	if err != nil {
		return fmt.Errorf("--resume: %v: not resuming into it", err)
	}
	return st.resumable(plan, dir, force)
}

// resumable is checkResume on a state already read.
func (st *state) resumable(plan *inputs.Plan, dir string, force bool) error {
	path := filepath.Join(dir, "results.jsonl")
	if len(st.res.Runs) == 0 {
		if info, err := os.Stat(path); err == nil && info.Size() > 0 {
			return fmt.Errorf("--resume: %s holds no skampi run (%d problem(s), first: %s): not resuming into it",
				path, len(st.res.Problems), firstProblem(st.res))
		}
		return nil
	}
	for i := len(st.res.Runs) - 1; i >= 0; i-- {
		r := st.res.Runs[i]
		if r.SuiteSHA256 == "" {
			continue
		}
		if r.SuiteSHA256 != plan.SHA256 && !force {
			return fmt.Errorf("--resume: %s holds suite %q (sha256 %.12s), this suite %q is different (sha256 %.12s): "+
				"resuming would take its points for this suite's; use another -o, or --force", path,
				report.Printable(r.Suite), r.SuiteSHA256, plan.Name, plan.SHA256)
		}
		if r.Smoke != plan.Smoked {
			return fmt.Errorf("--resume: %s holds a %s, this one is %s: its points are not what this run would measure; use another -o",
				path, smokeWord(r.Smoke, "smoke run (--smoke)", "measuring run"), smokeWord(plan.Smoked, "a smoke run", "not"))
		}
		break
	}
	return nil
}

func smokeWord(smoke bool, yes, no string) string {
	if smoke {
		return yes
	}
	return no
}

func firstProblem(res *report.Results) string {
	if len(res.Problems) == 0 {
		return "none"
	}
	return res.Problems[0].String()
}

// durable makes every record of the canonical file reach the disk before the next
// point starts: whatever ends the job, what was measured is on disk, not in a cache.
type durable struct {
	report.Sink
	f *os.File
}

func (d durable) Run(r *record.Run) error     { return d.synced(d.Sink.Run(r)) }
func (d durable) Point(p *record.Point) error { return d.synced(d.Sink.Point(p)) }
func (d durable) Fault(f *record.Fault) error { return d.synced(d.Sink.Fault(f)) }
func (d durable) Step(s *record.Step) error {
	if ss, ok := d.Sink.(report.StepSink); ok {
		return d.synced(ss.Step(s))
	}
	return nil
}

// synced syncs the file after a record was written to it.
func (d durable) synced(err error) error {
	if err != nil {
		return err
	}
	return d.f.Sync()
}
