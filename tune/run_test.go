package tune

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

// A launch gets the combination's variables over this process's environment, without
// the variables of a launcher that started this one.
func TestWithEnv(t *testing.T) {
	got := withEnv([]string{"HOME=/root", "OMPI_COMM_WORLD_RANK=0", "PMIX_RANK=0", "SKAMPI_TUNE_TEST=old", "SLURM_JOB_ID=7"},
		[]string{"SKAMPI_TUNE_TEST=a"})
	if want := []string{"HOME=/root", "SLURM_JOB_ID=7", "SKAMPI_TUNE_TEST=a"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Flags that contradict each other, or a directory that cannot hold a sweep, are the
// command line's mistake, said before anything is read or launched.
func TestRunUsageErrors(t *testing.T) {
	var out bytes.Buffer
	missing := filepath.Join(t.TempDir(), "none")
	for _, o := range []RunOptions{
		{File: "nonexistent.toml", Dir: t.TempDir(), Resume: true, VerdictOnly: true},
		{File: "nonexistent.toml", Dir: t.TempDir(), Force: true},
	} {
		o.Stdout, o.Stderr = &out, &out
		var ue *UsageError
		if err := Run(o); !errors.As(err, &ue) {
			t.Errorf("%+v: %v, want a usage error", o, err)
		}
	}
	// The library this binary was not built against, with no binary beside it.
	if _, err := (RunOptions{Build: "openmpi", MPICHBin: missing}).binary("mpich"); err == nil {
		t.Error("a missing --mpich-bin was taken")
	}
	if out.Len() != 0 {
		t.Errorf("printed %q", out.String())
	}
}
