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

// An OSU benchmark name runs as its skampi line, said on stderr in one line; a flag
// given wins over the benchmark's setting.
func TestRunOSUBenchmarkName(t *testing.T) {
	code, out, stderr := runCLI("run", "osu_bw", "--print-suite")
	if code != 0 || !strings.Contains(out, "window = 64  # osu_bw's default") || !strings.Contains(out, `op = "Bandwidth_Isend_Irecv"`) ||
		!strings.Contains(stderr, "note: osu_bw is skampi run Bandwidth_Isend_Irecv --window 64 (") {
		t.Errorf("osu_bw: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = runCLI("run", "osu_bw", "-W", "16", "--print-suite")
	if code != 0 || !strings.Contains(out, "window = 16") || strings.Contains(stderr, "--window 64") {
		t.Errorf("osu_bw -W 16: exit %d\n%s%s", code, out, stderr)
	}
	code, _, stderr = runCLI("run", "osu_hello")
	if code != 2 || !strings.Contains(stderr, "skampi startup") {
		t.Errorf("osu_hello: exit %d\n%s", code, stderr)
	}
}
