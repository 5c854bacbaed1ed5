package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Open MPI's launchers keep a session directory in the temporary directory for as long
// as they run and remove it when they end, unless they are killed outright (SIGKILL):
// then it stays, named after the launcher's process. skampi, which started that
// launcher, removes it (RemoveSession).

// SessionDirs are the session directories of the launcher with process id pid, in the
// temporary directory of env (TMPDIR, else /tmp), for user uid on host: Open MPI 4's
// ompi.HOST.UID/pid.PID (with its parent, removed only when empty) and PRRTE's
// prterun.HOST.PID.UID (Open MPI 5).
func SessionDirs(pid, uid int, host string, env []string) (dirs []string, parents []string) {
	tmp := toMap(env)["TMPDIR"]
	if tmp == "" {
		tmp = "/tmp"
	}
	for _, h := range hostNames(host) {
		parent := filepath.Join(tmp, fmt.Sprintf("ompi.%s.%d", h, uid))
		dirs = append(dirs, filepath.Join(parent, fmt.Sprintf("pid.%d", pid)),
			filepath.Join(tmp, fmt.Sprintf("prterun.%s.%d.%d", h, pid, uid)))
		parents = append(parents, parent)
	}
	return dirs, parents
}

// hostNames: the name as given and, for a qualified one, its first label (the launchers
// name the directory after either, by version).
func hostNames(host string) []string {
	if short, _, ok := strings.Cut(host, "."); ok && short != "" {
		return []string{host, short}
	}
	return []string{host}
}

// RemoveSession removes what a launcher killed outright left (SessionDirs): only
// directories of that exact name, never a symbolic link.
func RemoveSession(pid int, env []string) {
	host, err := os.Hostname()
	if err != nil || pid <= 0 {
		return
	}
	dirs, parents := SessionDirs(pid, os.Getuid(), host, env)
	for _, d := range dirs {
		if fi, err := os.Lstat(d); err == nil && fi.IsDir() {
			os.RemoveAll(d)
		}
	}
	for _, p := range parents {
		os.Remove(p) // only when empty: other jobs' sessions stay
	}
}
