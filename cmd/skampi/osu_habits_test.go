package main

import (
	"strings"
	"testing"
)

// OSU's habits on skampi run: -d (GPU buffers) is refused in one line, -T maps to
// datatype (shown by --print-suite), -f and -z are known flags.
func TestRunOSUHabits(t *testing.T) {
	code, _, stderr := runCLI("run", "Pingpong_Send_Recv", "-d", "cuda")
	if code != 2 || !strings.Contains(stderr, "-d cuda: GPU (device) buffers are not supported by this build") {
		t.Errorf("-d cuda: exit %d\n%s", code, stderr)
	}
	code, out, stderr := runCLI("run", "Allreduce", "-T", "mpi_int", "-f", "-z", "--print-suite")
	if code != 0 || !strings.Contains(out, `datatype = "int"  # -T mpi_int (OSU's data type)`) || !strings.Contains(out, "--full --percentiles -T mpi_int") {
		t.Errorf("-T -f -z: exit %d\n%s%s", code, out, stderr)
	}
}

// A built-in suite is a starting point: --print-suite with -i alone prints its TOML,
// which parses as the built-in does.
func TestRunPrintBuiltinSuite(t *testing.T) {
	code, out, stderr := runCLI("run", "-i", "pt2pt", "--print-suite")
	if code != 0 || !strings.Contains(out, "[[measurement]]") {
		t.Fatalf("exit %d\n%s%s", code, out, stderr)
	}
	if code, _, stderr := runCLI("run", "-i", "no-such-suite", "--print-suite"); code == 0 || !strings.Contains(stderr, "is neither a built-in suite") {
		t.Errorf("unknown suite: exit %d\n%s", code, stderr)
	}
}
