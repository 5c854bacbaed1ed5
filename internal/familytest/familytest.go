// Package familytest runs the built skampi for a family's tests (families/NAME): the
// binary of SKAMPI_BIN, else one built for the test, under mpirun, its results read
// back with the validating reader (ReadResults, cmd/skampi's tests' too). Only tests
// import it.
package familytest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/skampi/skampi/report"
)

var (
	buildOnce sync.Once
	built     string
	buildErr  error
	buildOut  []byte
)

// binary is SKAMPI_BIN, or skampi built once for this test binary, with its tags
// (buildTags).
func binary(t *testing.T) string {
	t.Helper()
	if b := os.Getenv("SKAMPI_BIN"); b != "" {
		return b
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "skampi-family-test")
		if err != nil {
			buildErr = err
			return
		}
		built = filepath.Join(dir, "skampi")
		buildOut, buildErr = exec.Command("go", "build", "-tags", buildTags, "-o", built, "github.com/skampi/skampi/cmd/skampi").CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("building skampi: %v\n%s", buildErr, buildOut)
	}
	return built
}

// Run runs `skampi run ARGS -o DIR` on np processes (Open MPI's mpirun, oversubscribed
// where np exceeds the cores) and returns its results; the run failing, taking more
// than 3 minutes, writing a file that breaks the schema, or recording a fault fails
// the test.
func Run(t *testing.T, np int, args ...string) *report.Results {
	t.Helper()
	return launch(t, np, append([]string{"run"}, args...))
}

// RunSuite runs the suite text (`skampi -i SUITE -o DIR`) as Run runs operations.
func RunSuite(t *testing.T, np int, text string) *report.Results {
	t.Helper()
	suite := filepath.Join(t.TempDir(), "suite.toml")
	if err := os.WriteFile(suite, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return launch(t, np, []string{"-i", suite})
}

// launch runs skampi ARGS -o DIR under mpirun and reads its results back.
func launch(t *testing.T, np int, args []string) *report.Results {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "out")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	argv := append([]string{"--oversubscribe", "-np", strconv.Itoa(np), binary(t)}, args...)
	cmd := exec.CommandContext(ctx, "mpirun", append(argv, "-o", dir)...)
	cmd.Env = append(os.Environ(), "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
	cmd.WaitDelay = 10 * time.Second
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("skampi %v at np %d: %v\n%s", args, np, err, out)
	}
	res := ReadResults(t, dir)
	for _, fl := range res.Faults {
		t.Errorf("fault %s: %s at %d B, %d processes: %s", fl.Fault, fl.Op, fl.MsgBytes, fl.NProcs, fl.Detail)
	}
	return res
}

// ReadResults reads dir/results.jsonl with the validating reader; any schema error
// fails the test (warnings, such as a torn last line, do not).
func ReadResults(t *testing.T, dir string) *report.Results {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := report.Read(f, "results.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Errors() {
		t.Errorf("result file: %s", p)
	}
	return res
}
