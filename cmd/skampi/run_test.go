package main

import (
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
)

// runHelp closes every usage mistake of skampi run.
const runHelp = "Run 'skampi run --help' for usage.\n"

// A flag none of the operations named uses is a mistake, said by the flag, as the same
// setting in a measurement of a suite is.
func TestRunFlagsMustApply(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"Pingpong_Send_Recv", "--rma-window", "create"},
			"skampi run: --rma-window: Pingpong_Send_Recv does not use it: rma_window applies to one-sided MPI operations\n"},
		{[]string{"Put", "--lock-hold", "1ms"},
			"skampi run: --lock-hold: Put does not use it: lock_hold applies to operations that hold a lock for a while (Lock_Held, Shmem_Lock_Held)\n"},
		{[]string{"Pingpong_Send_Recv", "Allreduce", "--method", "barrier"},
			"skampi: run: --method: \"barrier\" is not a timing method of any operation named (Pingpong_Send_Recv: no timing methods; Allreduce: \"osu\")\n"},
		{[]string{"Shmem_Put", "Shmem_Get", "--progress", "100"},
			"skampi run: --progress: none of Shmem_Put, Shmem_Get uses it: progress applies to non-blocking MPI operations (Isend, Ibcast, ...), which test their requests while they compute, and busy passive targets (target_busy), which poll\n"},
		{[]string{"Lock_Held", "--procs", "1,2"},
			"skampi run: --procs: Lock_Held needs at least 2 processes (rank 0 holds the lock, the others wait for it): procs = 1 measures nothing\n"},
	}
	for _, c := range cases {
		code, stdout, stderr := runCLI(append(append([]string{"run"}, c.args...), "--print-suite")...)
		if code != 2 || stdout != "" || stderr != c.want+runHelp {
			t.Errorf("%v: code %d, stdout %q, stderr\n%s\nwant\n%s", c.args, code, stdout, stderr, c.want)
		}
	}
	// Used by one of them: it goes where it applies.
	if code, _, stderr := runCLI("run", "Pingpong_Send_Recv", "Bandwidth_Isend_Irecv", "--window", "8", "--print-suite"); code != 0 {
		t.Errorf("--window with a bandwidth: code %d %s", code, stderr)
	}
}

// Numbers as users type them, and the plainest lines, run.
func TestRunPlainLines(t *testing.T) {
	noHeapVars(t)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"Bandwidth_Isend_Irecv", "--window", "007", "--max-relative-stderr", ".5"}, []string{"window = 7\n", "max_relative_stderr = 0.5\n"}},
		{[]string{"Fetch_and_op"}, []string{`sizes = ["4B"]`}},
		{[]string{"Alltoall"}, []string{`sizes = { from = "1B", to = "2MiB", step = "*2" }`}},
		{[]string{"Alltoall", "--np", "4"}, []string{`to = "1MiB"`}},
		{[]string{"Shmem_Put"}, []string{`to = "4MiB"`, "window = 1  # latency"}}, // OSU's osu_oshm_put
		{[]string{"Shmem_Put", "-W", "64"}, []string{`to = "1MiB"`}},              // 2 x 1 MiB x 64 in the heap
	} {
		code, stdout, stderr := runCLI(append(append([]string{"run"}, c.args...), "--print-suite")...)
		if code != 0 || stderr != "" {
			t.Errorf("%v: code %d %s", c.args, code, stderr)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%v: no %q in\n%s", c.args, w, stdout)
			}
		}
	}
	code, _, stderr := runCLI("run", "Bandwidth_Isend_Irecv", "--window", "0x10", "--print-suite")
	if code != 2 || stderr != "skampi run: --window: must be an integer, got a string\n"+runHelp {
		t.Errorf("--window 0x10: code %d %q", code, stderr)
	}
}

// The printed suite starts with the command line as one comment: an argument holding
// a newline or a bracket stays inside it, and the suite is what was asked for.
func TestRunPrintSuiteQuotesTheLine(t *testing.T) {
	code, stdout, stderr := runCLI("run", "Pingpong_Send_Recv", "--sizes", "8,\n[settings]\nwindow = 4,]", "--print-suite")
	if code != 2 || !strings.HasPrefix(stderr, "skampi run: --sizes: ") {
		t.Errorf("a size list with a table in it: code %d %q", code, stderr)
	}
	code, stdout, stderr = runCLI("run", "Pingpong_Send_Recv", "--sizes", "8,\n16", "--pair", "max-latency", "--print-suite")
	if code != 0 {
		t.Fatalf("code %d %s", code, stderr)
	}
	first, _, _ := strings.Cut(stdout, "\n")
	if want := `# skampi run Pingpong_Send_Recv --pair max-latency --sizes $'8,\n16'`; first != want {
		t.Errorf("first line %q, want %q", first, want)
	}
	p, err := inputs.Parse("printed", []byte(stdout))
	if err != nil || len(p.Measurements) != 1 || len(p.Measurements[0].Sizes) != 2 {
		t.Errorf("%v\n%s", err, stdout)
	}
}

// What --print-suite prints for any operation of the catalogue is a suite check
// accepts on the job it was printed for, as it stands.
func TestPrintSuiteOfEveryOperationChecks(t *testing.T) {
	noHeapVars(t)
	for _, in := range ops.All() {
		code, stdout, stderr := runCLI("run", in.Name, "--print-suite")
		if code != 0 {
			t.Errorf("%s: code %d %s", in.Name, code, stderr)
			continue
		}
		p, err := inputs.Parse("printed.toml", []byte(stdout))
		if err == nil {
			_, err = p.Expand(inputs.Job{NProcs: 2})
		}
		if err != nil {
			t.Errorf("%s: %v\n%s", in.Name, err, stdout)
		}
	}
}
