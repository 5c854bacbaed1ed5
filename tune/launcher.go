package tune

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/launch"
)

// LogName is the file in a launch's directory that holds its skampi's output: where a
// failed launch says what went wrong.
const LogName = "skampi.out"

// launcherPrefix splits a launch command (--launcher) into its words; "" is none.
func launcherPrefix(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	words, err := launchWords(s)
	if err != nil {
		return nil, err
	}
	if _, err := exec.LookPath(words[0]); err != nil {
		return nil, &UsageError{Msg: fmt.Sprintf("--launcher: %s: %v", words[0], err)}
	}
	return words, nil
}

// launchArgs is the command of one launch: skampi launching itself on l.NP processes,
// or the user's launch command ({np} replaced, else -np N appended) running skampi.
func launchArgs(prefix []string, bin string, l inputs.Launch, suite, dir string, resume bool) []string {
	args := []string{"-i", suite, "-o", dir}
	if resume {
		args = append(args, "--resume")
	}
	np := strconv.Itoa(l.NP)
	if len(prefix) == 0 {
		return append([]string{bin, "--np", np}, args...)
	}
	var out []string
	has := false
	for _, w := range prefix {
		has = has || strings.Contains(w, "{np}")
		out = append(out, strings.ReplaceAll(w, "{np}", np))
	}
	if !has {
		out = append(out, "-np", np)
	}
	return append(append(out, bin), args...)
}

// execLauncher runs the library's skampi for a launch, its output into the launch's
// directory (LogName), the combination's variables over the environment; through the
// user's launch command when prefix has one.
func execLauncher(bins map[string]string, prefix []string) Launcher {
	return func(l inputs.Launch, suite, dir string, resume bool) (int, error) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return 0, err
		}
		argv := launchArgs(prefix, bins[l.Library], l, suite, dir, resume)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = withEnv(os.Environ(), l.Env())
		log, err := os.OpenFile(filepath.Join(dir, LogName), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return 0, err
		}
		defer log.Close()
		cmd.Stdout, cmd.Stderr = log, log
		err = cmd.Run()
		var xe *exec.ExitError
		if errors.As(err, &xe) {
			return xe.ExitCode(), nil
		}
		return 0, err
	}
}

// withEnv sets vars (NAME=VALUE) over env, without the variables of a launcher that
// started this process (a tune run inside mpirun must not pass them on).
func withEnv(env, vars []string) []string {
	set := map[string]bool{}
	for _, kv := range vars {
		k, _, _ := strings.Cut(kv, "=")
		set[k] = true
	}
	var out []string
	for _, kv := range launch.WithoutLauncher(env) {
		if k, _, _ := strings.Cut(kv, "="); !set[k] {
			out = append(out, kv)
		}
	}
	return append(out, vars...)
}
