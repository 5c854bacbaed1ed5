package report

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Only a regular file is replaced: a symbolic link, a FIFO, a directory or a device is
// refused and left alone.
func TestWriteFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(target, link)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	refused := map[string]string{link: "a symbolic link", fifo: "a FIFO", dir: "a directory"}
	// A device node of its own, like /dev/null (1, 3), when allowed to make one (root).
	dev := filepath.Join(dir, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		refused[dev] = "a device"
		defer func() {
			if fi, err := os.Lstat(dev); err != nil || fi.Mode()&os.ModeDevice == 0 {
				t.Errorf("the device was replaced: %v %v", fi, err)
			}
		}()
	} else {
		t.Logf("no device node: %v", err)
	}
	write := func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }
	for name, want := range refused {
		err := WriteFile(name, write)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the link's target was written: %q", b)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", fi, err)
	}
	// A regular file is replaced whole; a new one is created; no temporary file stays.
	for _, name := range []string{target, filepath.Join(dir, "new")} {
		if err := WriteFile(name, write); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(name); string(b) != "new" {
			t.Errorf("%s: %q", name, b)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2+len(refused)-1 { // target, new, and the refused but dir
		t.Errorf("%d entries: %v", len(entries), entries)
	}
}
