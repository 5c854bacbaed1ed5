package job

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A launcher that a killed skampi left behind had its session directory removed by the
// next run into the results directory, once it is gone; one on another host, or still
// running, is left alone.
func TestRemoveDeadLauncher(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	for _, c := range []struct {
		host    string
		pid     int
		removed bool
	}{
		{host, dead.Process.Pid, true},
		{"elsewhere", dead.Process.Pid, false},
		{host, os.Getpid(), false},
	} {
		out, tmp := t.TempDir(), t.TempDir()
		session := filepath.Join(tmp, fmt.Sprintf("ompi.%s.%d", host, os.Getuid()), fmt.Sprintf("pid.%d", c.pid))
		if err := os.MkdirAll(filepath.Join(session, "1", "0"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, launcherFile), []byte(launcherLine(c.host, c.pid, tmp)), 0o644); err != nil {
			t.Fatal(err)
		}
		removeDeadLauncher(out)
		_, serr := os.Stat(session)
		_, ferr := os.Stat(filepath.Join(out, launcherFile))
		if gone := serr != nil && ferr != nil; gone != c.removed {
			t.Errorf("%s pid %d: session %v, note %v; want removed %v", c.host, c.pid, serr, ferr, c.removed)
		}
	}
}
