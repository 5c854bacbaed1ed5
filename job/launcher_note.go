package job

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/skampi/skampi/internal/launch"
)

// launcherFile, in -o DIR while skampi's mpirun runs, names it: the host, its process
// id and its temporary directory. A skampi killed outright (SIGKILL, with its mpirun
// killed before it could clean up) leaves it; the next run into the directory (--resume)
// then removes the session directory that mpirun left (launch.RemoveSession) once that
// process is gone. Only what skampi's own launcher left is removed this way.
const launcherFile = ".skampi.launcher"

// noteLauncher writes launcherFile for the started launcher.
func noteLauncher(dir string, cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	host, _ := os.Hostname()
	tmp := os.TempDir()
	for _, kv := range cmd.Env {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok && v != "" {
			tmp = v
		}
	}
	os.WriteFile(filepath.Join(dir, launcherFile), []byte(launcherLine(host, cmd.Process.Pid, tmp)), 0o644)
}

// removeDeadLauncher removes what the launcher launcherFile names left, when that
// launcher ran on this host and is gone, and the file with it.
func removeDeadLauncher(dir string) {
	path := filepath.Join(dir, launcherFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	host, pid, tmp, ok := parseLauncher(string(b))
	me, _ := os.Hostname()
	if !ok || host != me {
		return // another host's: its session directory is there
	}
	if err := syscall.Kill(pid, 0); err == nil || !errors.Is(err, syscall.ESRCH) {
		return // still running (or not ours to ask): nothing to remove yet
	}
	launch.RemoveSession(pid, []string{"TMPDIR=" + tmp})
	os.Remove(path)
}

// parseLauncher reads launcherFile's one line: host pid tmpdir.
func parseLauncher(s string) (host string, pid int, tmp string, ok bool) {
	f := strings.SplitN(strings.TrimSpace(s), " ", 3)
	if len(f) != 3 {
		return "", 0, "", false
	}
	pid, err := strconv.Atoi(f[1])
	if err != nil || pid <= 0 {
		return "", 0, "", false
	}
	return f[0], pid, f[2], true
}

// launcherLine is launcherFile's line for a launcher.
func launcherLine(host string, pid int, tmp string) string {
	return fmt.Sprintf("%s %d %s\n", host, pid, tmp)
}
