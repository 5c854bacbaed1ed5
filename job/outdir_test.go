package job

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
)

// One writer per results directory: a second run is refused with the first one named;
// the lock goes with the process that held it.
func TestOneWriterPerDirectory(t *testing.T) {
	dir := t.TempDir()
	l, err := lockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = lockDir(dir)
	if err == nil || !strings.Contains(err.Error(), "is being written by another skampi run (process "+strconv.Itoa(os.Getpid())+" on ") {
		t.Errorf("second writer: %v", err)
	}
	if err := checkOutDir(dir); err == nil {
		t.Error("checkOutDir passed a directory another run writes")
	}
	l.release()
	if err := checkOutDir(dir); err != nil {
		t.Errorf("after release: %v", err)
	}
}

// What would stop a run from writing its directory is found before any process starts,
// and no result file is ever a link, a FIFO or a device.
func TestOutDirProblems(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o644)
	if err := checkOutDir(file); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a file: %v", err)
	}
	fifoDir := filepath.Join(base, "fifo")
	os.Mkdir(fifoDir, 0o755)
	if err := syscall.Mkfifo(filepath.Join(fifoDir, "results.jsonl"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkOutDir(fifoDir); err == nil || !strings.Contains(err.Error(), "results.jsonl is not a regular file") {
		t.Errorf("a FIFO: %v", err)
	}
	if _, err := openRegular(filepath.Join(fifoDir, "results.jsonl")); err == nil {
		t.Error("opened a FIFO for results") // and did not block
	}
	linkDir := filepath.Join(base, "link")
	os.Mkdir(linkDir, 0o755)
	os.Symlink("/dev/null", filepath.Join(linkDir, "results.csv"))
	if err := checkOutDir(linkDir); err == nil || !strings.Contains(err.Error(), "results.csv is not a regular file") {
		t.Errorf("a link: %v", err)
	}
	if _, err := openRegular(filepath.Join(linkDir, "results.csv")); err == nil {
		t.Error("followed a link")
	}
}

// --resume refuses another suite's results (unless forced) and a file of garbage.
func TestCheckResume(t *testing.T) {
	dir := t.TempDir()
	a, _ := inputs.Parse("a.toml", []byte("[[measurement]]\nname = \"pp\"\nop = \"Pingpong_Send_Recv\"\nsizes = [1]\n"))
	b, _ := inputs.Parse("b.toml", []byte("[[measurement]]\nname = \"pp\"\nop = \"Pingpong_Send_Recv\"\nsizes = [1]\nmax_repetitions = 9\n"))
	if err := checkResume(a, dir, false); err != nil {
		t.Errorf("empty directory: %v", err)
	}
	run := `{"kind":"run","run_id":"r1","skampi_version":"x","nprocs":2,"suite":"a","suite_sha256":"` + a.SHA256 + `","start_time":"2026-11-01T00:00:00Z"}` + "\n"
	os.WriteFile(filepath.Join(dir, "results.jsonl"), []byte(run), 0o644)
	if err := checkResume(a, dir, false); err != nil {
		t.Errorf("the same suite: %v", err)
	}
	if err := checkResume(b, dir, false); err == nil || !strings.Contains(err.Error(), `holds suite "a"`) || !strings.Contains(err.Error(), "--force") {
		t.Errorf("another suite: %v", err)
	}
	if err := checkResume(b, dir, true); err != nil {
		t.Errorf("forced: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "results.jsonl"), []byte("\x00\x01garbage\nmore garbage\n"), 0o644)
	if err := checkResume(a, dir, true); err == nil || !strings.Contains(err.Error(), "not resuming into it") {
		t.Errorf("garbage: %v", err)
	}
}

// Every record of the canonical file is synced before the next point starts: a file
// that cannot be synced (/dev/null) makes the write fail, so the sync is there.
func TestDurableRecords(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if err := null.Sync(); err == nil {
		t.Skip("this system syncs /dev/null")
	}
	got := &countSink{}
	d := durable{Sink: got, f: null}
	for _, write := range []func() error{
		func() error { return d.Run(&record.Run{}) },
		func() error { return d.Point(&record.Point{}) },
		func() error { return d.Fault(&record.Fault{}) },
	} {
		before := got.n
		if err := write(); err == nil || got.n != before+1 {
			t.Errorf("write through a durable sink: err %v, %d records", err, got.n-before)
		}
	}
}

// countSink counts the records it is given.
type countSink struct{ n int }

func (c *countSink) Run(*record.Run) error     { c.n++; return nil }
func (c *countSink) Point(*record.Point) error { c.n++; return nil }
func (c *countSink) Fault(*record.Fault) error { c.n++; return nil }
func (c *countSink) Close() error              { return nil }
