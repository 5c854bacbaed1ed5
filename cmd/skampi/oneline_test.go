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
		{[]string{"Bcast", "Allreduce", "--method", "barier"}, `skampi run: --method: "barier" is not a timing method of Bcast ("barrier", "sync", "rounds", "ack")` + "\n"},
		{[]string{"Put", "--method", "lock_shared"}, `skampi run: --method: Put has no method "lock_shared" any more: it is now called "lock" (MPI_Win_lock shared per epoch, OSU's -s lock)` + "\n"},
		{[]string{"Put_Pingpong", "--method", "lock_all"}, `skampi run: --method: Put_Pingpong has no method "lock_all" any more: it is now called "lock_all_flush" (lock_all held through the point, put and flush)` + "\n"},
		{[]string{"Pingpong_Send_Recv", "Bcast", "--window", "foo"}, "skampi run: --window: must be an integer, got a string\n"},
		{[]string{"Pingpong_Sedn_Recv"}, "skampi run: unknown operation \"Pingpong_Sedn_Recv\" (did you mean \"Pingpong_Send_Recv\"?); `skampi list` shows them all\n"},
		{[]string{"Bcast", "--sizes", "1,8", "--step", "*2"}, `skampi: run: --step "*2" applies to a range of sizes (--sizes FROM:TO), not to the list "1,8"` + "\n"},
		{[]string{"Bcast", "-i", "quick"}, "skampi: run: -i SUITE or operations with their flags, not both (settings of a suite file belong in the file)\n"},
		{[]string{"-i", "quick", "--window", "4"}, "skampi: run: -i SUITE or operations with their flags, not both (settings of a suite file belong in the file)\n"},
		{nil, "skampi: run: name operations (skampi run Pingpong_Send_Recv --sizes 1B:4MiB) or a suite (-i SUITE)\n"},
	}
	for _, c := range cases {
		code, stdout, stderr := runCLI(append([]string{"run"}, c.args...)...)
		if code != 2 || stdout != "" || stderr != c.want+runHelp {
			t.Errorf("%v: code %d, stdout %q, stderr %q, want %q", c.args, code, stdout, stderr, c.want+runHelp)
		}
	}
}
