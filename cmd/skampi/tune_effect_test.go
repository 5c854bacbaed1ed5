//go:build mpi

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A sweep of the shared-memory BTL's eager limit while the BTLs are forced to self and
// tcp measures only noise: the verdict says first that the parameter was not in effect,
// from what the runs' headers say ran, and recommends keeping the baseline. The same
// limit swept with vader open is judged as usual and is said to be in effect.
func TestTuneNotInEffect(t *testing.T) {
	file := filepath.Join(t.TempDir(), "t.toml")
	const sweep = `repeats = 2
[settings]
min_repetitions = 4
max_repetitions = 8
[[measurement]]
name = "pp"
op = "Pingpong_Send_Recv"
sizes = [1024, 8192]
[mca]
btl_vader_eager_limit = [4096, 16384]
`
	os.WriteFile(file, []byte(sweep+"btl = [\"self,tcp\"]\n"), 0o644)
	code, stdout, stderr := skampi(t, nil, "tune", "-i", file, "-o", filepath.Join(t.TempDir(), "sweep"))
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"btl_vader_eager_limit: not in effect: btl vader was not open in any run (btl: self, tcp)",
		"recommendation: keep btl_vader_eager_limit=4096: no swept parameter was in effect",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the verdict lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Index(stdout, "not in effect") > strings.Index(stdout, "pp (Pingpong_Send_Recv)") {
		t.Errorf("not said first:\n%s", stdout)
	}

	os.WriteFile(file, []byte(sweep), 0o644)
	code, stdout, stderr = skampi(t, nil, "tune", "-i", file, "-o", filepath.Join(t.TempDir(), "sweep"))
	if code != 0 || strings.Contains(stdout, "not in effect") {
		t.Errorf("vader open: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
