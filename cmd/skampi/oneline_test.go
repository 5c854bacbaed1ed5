package main

import (
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
)

// The one-line form prints the suite it makes, which parses into the points asked for.
func TestRunPrintSuite(t *testing.T) {
	code, stdout, stderr := runCLI("run", "Bandwidth_Isend_Irecv", "Bcast", "--sizes", "1B:4MiB", "--step", "*4",
		"--method", "barrier,ack", "--max-repetitions", "auto", "--procs", "2,all", "--check-data", "--window", "16", "--print-suite")
	if code != 0 || stderr != "" {
		t.Fatalf("code %d stderr %q", code, stderr)
	}
	for _, want := range []string{
		"# skampi ", "max_repetitions = \"auto\"\n", "procs = [2, \"all\"]\n", "check_data = true\n", "window = 16\n",
		"sizes = { from = \"1B\", to = \"4MiB\", step = \"*4\" }\n", "method = [\"barrier\", \"ack\"]\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	if strings.Count(stdout, "method = ") != 1 { // Bandwidth_Isend_Irecv has no timing methods
		t.Errorf("methods given to an op without them:\n%s", stdout)
	}
	plan, err := inputs.Parse("printed", []byte(stdout))
	if err != nil {
		t.Fatal(err)
	}
	pts, err := plan.Expand(inputs.Job{NProcs: 4})
	if err != nil {
		t.Fatal(err)
	}
	// Bandwidth: 12 sizes; Bcast: 12 sizes x 2 methods x procs 2 and 4.
	if len(pts.Points) != 12+12*2*2 || !plan.Settings.CheckData || plan.Settings.Window != 16 {
		t.Errorf("%d points, settings %+v", len(pts.Points), plan.Settings)
	}
}

// Mistakes in the one-line form name the flag, once each, and exit 2 before anything
// starts; so does mixing it with -i or naming nothing.
func TestRunOneLineMistakes(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"Pingpong_Send_Recv", "--sizes", "1B:4XB"}, `skampi run: --sizes: size "4XB": unknown unit "XB" (use B, KiB, MiB, GiB or TiB)` + "\n"},
		{[]string{"Bcast", "Allreduce", "--method", "barier"}, `skampi: run: --method: "barier" is not a timing method of any operation named (Bcast: "barrier", "sync", "rounds", "ack", "osu"; Allreduce: "osu")` + "\n"},
		{[]string{"Put", "--method", "lock_shared"}, `skampi run: --method: Put has no method "lock_shared" any more: it is now called "lock" (MPI_Win_lock shared per epoch, OSU's -s lock)` + "\n"},
		{[]string{"Put_Pingpong", "--method", "lock_all"}, `skampi run: --method: Put_Pingpong has no method "lock_all" any more: it is now called "lock_all_flush" (lock_all held through the point, put and flush)` + "\n"},
		{[]string{"Pingpong_Send_Recv", "Bcast", "--window", "foo"}, "skampi run: --window: must be an integer, got a string\n"},
		{[]string{"Pingpong_Sedn_Recv"}, "skampi run: unknown operation \"Pingpong_Sedn_Recv\" (did you mean \"Pingpong_Send_Recv\"?); `skampi list` shows them all\n"},
		{[]string{"Bcast", "--sizes", "1,8", "--step", "*2"}, `skampi: run: --step "*2" applies to a range of sizes (--sizes FROM:TO), not to the list "1,8"` + "\n"},
		{[]string{"Bcast", "-i", "quick"}, "skampi: run: -i SUITE or operations, not both (with -i SUITE alone, --sizes, --method and the settings' flags override the suite's)\n"},
		{[]string{"-i", "coll", "--window", "4"}, `skampi: run -i coll: --window: no measurement of builtin:coll uses it (window applies to operations with messages in flight (bandwidth, one-sided and OpenSHMEM puts and gets) and IMB-IO's writes under method = "imb")` + "\n"},
		{nil, "skampi: run: name operations (skampi run Pingpong_Send_Recv --sizes 1B:4MiB) or a suite (-i SUITE)\n"},
	}
	for _, c := range cases {
		code, stdout, stderr := runCLI(append([]string{"run"}, c.args...)...)
		if code != 2 || stdout != "" || stderr != c.want+runHelp {
			t.Errorf("%v: code %d, stdout %q, stderr %q, want %q", c.args, code, stdout, stderr, c.want+runHelp)
		}
	}
}

// OSU's options as aliases: -i with operations is OSU's iteration count (an integer),
// otherwise the suite; the printed suite shows each mapping and the command as OSU's
// options; an option and its setting together are refused.
func TestRunOSUAliases(t *testing.T) {
	code, stdout, stderr := runCLI("run", "Pingpong_Send_Recv", "-m", "1:4KiB", "-i", "1000", "-x", "100", "-W", "8", "-c", "--print-suite")
	if code == 0 {
		t.Errorf("-W on a ping-pong applies to nothing, yet accepted:\n%s", stdout)
	}
	code, stdout, stderr = runCLI("run", "Bandwidth_Isend_Irecv", "-m", "1:4KiB", "-i", "1000", "-x", "100", "-W", "8", "-c", "--print-suite")
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	for _, want := range []string{
		"# skampi run Bandwidth_Isend_Irecv -i 1000 -m 1:4KiB -x 100 -c -W 8\n",
		"iterations = 1000  # -i 1000 (OSU)",
		"warmup = 1  # -x 100 (OSU)",
		"window = 8  # -W 8 (OSU's window size)\n",
		"check_data = true  # -c (OSU's validation)",
		`sizes = { from = "1", to = "4KiB", step = "*2" }  # -m 1:4KiB (OSU)`,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"Bcast", "-i", "quick"}, "skampi: run: -i SUITE or operations, not both"},
		{[]string{"Bcast", "-i", "5", "--osu-iterations", "6"}, "skampi: run: -i 5 and --osu-iterations 6: both are OSU's iteration count"},
		{[]string{"Bcast", "-i", "5", "--iterations", "6"}, "skampi: run: -i and --iterations: both set iterations, give one of them"},
		{[]string{"Bcast", "-m", "64", "--sizes", "8"}, "skampi: run: -m and --sizes/--step: both set the sizes"},
		{[]string{"Bcast", "-x", "two"}, `skampi: run: -x "two": must be an integer of at least 0`},
	} {
		code, _, stderr := runCLI(append(append([]string{"run"}, c.args...), "--print-suite")...)
		if code != 2 || !strings.HasPrefix(stderr, c.want) || !strings.HasSuffix(stderr, runHelp) {
			t.Errorf("%v: exit %d %q", c.args, code, stderr)
		}
	}
	// Without operations, -i names the suite whatever it looks like.
	if code, _, stderr := runCLI("run", "-i", "50"); code != 1 || !strings.Contains(stderr, "50: no such file, and no built-in suite") {
		t.Errorf("-i 50 alone: %d %q", code, stderr)
	}
}

// A built-in suite as a starting point: the one-line flags with -i SUITE override its
// settings; --print-suite shows the result, headed by what overrode what.
func TestRunSuiteOverridden(t *testing.T) {
	code, out, stderr := runCLI("run", "-i", "pt2pt", "--sizes", "8,1KiB", "--np", "4", "--sync", "window", "--print-suite")
	for _, want := range []string{
		"# skampi run -i pt2pt --np 4 --sizes 8,1KiB --sync window\n# builtin:pt2pt, overridden by: --sizes 8,1KiB --sync window\n",
		"sync = \"window\"\n",
		"name = \"Pingpong_Send_Recv\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8, \"1KiB\"]\n",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d, no %q in\n%s%s", code, want, out, stderr)
		}
	}
}
