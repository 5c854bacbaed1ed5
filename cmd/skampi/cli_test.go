package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
)

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestFlagMistakesPointToHelp(t *testing.T) {
	code, _, stderr := runCLI("--bogus")
	if code != 2 || stderr != "skampi: unknown flag: --bogus\nRun 'skampi --help' for usage.\n" {
		t.Fatalf("code %d stderr %q", code, stderr)
	}
	code, _, stderr = runCLI("--np", "two", "-i", "quick")
	if code != 2 || !strings.Contains(stderr, `invalid argument "two" for "--np"`) {
		t.Fatalf("code %d stderr %q", code, stderr)
	}
}

func TestErrorsHaveNoUsageNorStack(t *testing.T) {
	code, _, stderr := runCLI("check", "-i", "no-such.toml")
	// One line, the error alone (the built-ins it names grow with the suites).
	want := "skampi: no-such.toml: no such file, and no built-in suite of that name (built-ins: cluster-alltoall, coll, "
	if code != 1 || !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("code %d stderr %q", code, stderr)
	}
}

func TestCheckReportsEveryErrorWithPosition(t *testing.T) {
	code, stdout, stderr := runCLI("check", "-i", "../../inputs/testdata/bad/several_errors.toml")
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if code != 1 || stdout != "" || len(lines) != 4 {
		t.Fatalf("code %d, %d lines:\n%s", code, len(lines), stderr)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "../../inputs/testdata/bad/several_errors.toml:") {
			t.Errorf("no position: %q", l)
		}
	}
}

func TestCheckPrintsPlan(t *testing.T) {
	plan, err := inputs.Load("pt2pt")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := plan.Expand(inputs.Job{NProcs: 2})
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := runCLI("check", "-i", "pt2pt")
	want := fmt.Sprintf("total: %d points in %d measurements on 2 processes", len(ex.Points), len(plan.Measurements))
	if code != 0 || !strings.Contains(stdout, want) {
		t.Fatalf("code %d, want %q in\n%s", code, want, stdout)
	}
	for _, m := range plan.Measurements { // every measurement has its line
		if !strings.Contains(stdout, " "+m.Name+" ") {
			t.Errorf("no line for measurement %s in\n%s", m.Name, stdout)
		}
	}
}

// check counts every timing method and communicator size, on the job it is told of.
func TestCheckCountsMethodsAndProcs(t *testing.T) {
	suite := filepath.Join(t.TempDir(), "b.toml")
	os.WriteFile(suite, []byte(`[[measurement]]
name = "b"
op = "Bcast"
sizes = [8, 64]
method = ["barrier", "ack"]
procs = [2, 4, "all"]
`), 0o644)
	for np, want := range map[string]string{
		"2": "total: 4 points in 1 measurements on 2 processes", // 4 skipped; 2 and "all" are one
		"4": "total: 8 points in 1 measurements on 4 processes", // 4 and "all" are one
		"8": "total: 12 points in 1 measurements on 8 processes",
	} {
		code, stdout, stderr := runCLI("check", "-i", suite, "--np", np)
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("--np %s: code %d, want %q:\n%s%s", np, code, want, stdout, stderr)
		}
	}
	code, stdout, _ := runCLI("check", "-i", suite)
	if code != 0 || !strings.Contains(stdout, `note: measurement "b": procs = 4 is more than the job's 2 processes: skipped`) {
		t.Errorf("no note of the skipped communicator:\n%s", stdout)
	}
	code, _, stderr := runCLI("check", "-i", "coll", "--np", "1")
	if code != 1 || !strings.Contains(stderr, "needs at least 2 processes, the job has 1") {
		t.Errorf("--np 1: code %d %q", code, stderr)
	}
	// A suite for a larger job: the error at its position, and what to do about it.
	big := filepath.Join(t.TempDir(), "big.toml")
	os.WriteFile(big, []byte("[[measurement]]\nname = \"far\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8]\npair = [0, 5]\n"), 0o644)
	code, _, stderr = runCLI("check", "-i", big)
	if code != 1 || !strings.Contains(stderr, big+`:1:3: measurement "far": pair rank 5 does not exist in a job of 2 processes`) ||
		!strings.Contains(stderr, "give --np N") {
		t.Errorf("pair beyond the default job: code %d %q", code, stderr)
	}
	if code, stdout, _ := runCLI("check", "-i", big, "--np", "6"); code != 0 || !strings.Contains(stdout, "total: 1 points") {
		t.Errorf("--np 6: code %d %q", code, stdout)
	}
}

func TestList(t *testing.T) {
	code, stdout, _ := runCLI("list")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 0 || len(lines) != len(ops.All()) {
		t.Fatalf("code %d, %d lines", code, len(lines))
	}
	for i, in := range ops.All() {
		if f := strings.Fields(lines[i]); f[0] != in.Name || len(f) < 3 {
			t.Errorf("line %q", lines[i])
		}
	}
}

func TestVersion(t *testing.T) {
	code, stdout, _ := runCLI("version")
	if code != 0 || !strings.HasPrefix(stdout, "skampi ") {
		t.Fatalf("%d %q", code, stdout)
	}
}

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	good := dir + "/good.jsonl"
	run := `{"kind":"run","run_id":"r","skampi_version":"v","nprocs":2,"start_time":"2026-01-02T03:04:05Z"}`
	fault := `{"kind":"fault","run_id":"r","point_index":1,"measurement":"m","op":"Pingpong_Send_Recv","msg_bytes":1,"nprocs":2,"fault":"timeout"}`
	os.WriteFile(good, []byte(run+"\n"+fault+"\n"+`{"kind":"po`), 0o644)
	code, stdout, _ := runCLI("validate", good)
	if code != 0 || !strings.Contains(stdout, "good.jsonl:3: warning: torn last record") ||
		!strings.Contains(stdout, "1 run(s), 0 point(s), 1 fault(s); 0 error(s), 1 warning(s)") {
		t.Fatalf("code %d\n%s", code, stdout)
	}
	bad := dir + "/bad.jsonl"
	os.WriteFile(bad, []byte(fault+"\n"), 0o644)
	code, stdout, stderr := runCLI("validate", good, bad)
	if code != 1 || !strings.Contains(stdout, `bad.jsonl:1: error: run_id "r" has no run record before it`) ||
		stderr != "skampi: 1 record(s) break the schema\n" {
		t.Fatalf("code %d\n%s\n%s", code, stdout, stderr)
	}
	if code, _, stderr := runCLI("validate"); code != 2 || !strings.Contains(stderr, "requires at least 1 arg") {
		t.Errorf("no args: %d %q", code, stderr)
	}
}

func TestClockFlags(t *testing.T) {
	code, _, stderr := runCLI("clock", "check", "--algorithm", "ntp")
	if code != 2 || !strings.Contains(stderr, "ntp") {
		t.Errorf("%d %q", code, stderr)
	}
	if code, _, stderr := runCLI("clock", "check", "--interval", "0s"); code != 2 || !strings.Contains(stderr, "--interval") {
		t.Errorf("%d %q", code, stderr)
	}
}

// Text from a suite reaches the terminal escaped: an escape sequence in a description
// or a measurement name shows, it does not act.
func TestCheckEscapesSuiteText(t *testing.T) {
	suite := filepath.Join(t.TempDir(), "esc.toml")
	os.WriteFile(suite, []byte("description = \"line one\\nclear: \\u001b[2J\\u001b]0;pwned\\u0007\"\n[[measurement]]\nname = \"x\\u001b[31m\"\nop = \"Barrier\"\nsizes = [0]\n"), 0o644)
	code, stdout, stderr := runCLI("check", "-i", suite)
	if code != 0 || strings.ContainsRune(stdout, 0x1b) || strings.ContainsRune(stdout, 0x07) ||
		!strings.Contains(stdout, "line one\nclear: \\x1b[2J\\x1b]0;pwned\\x07\n") || !strings.Contains(stdout, `x\x1b[31m`) {
		t.Errorf("code %d:\n%q\n%s", code, stdout, stderr)
	}
}

// Usage mistakes of every kind exit 2 with one line naming the verb; failures exit 1.
func TestExitCodes(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"validate"}, 2, "skampi: validate: requires at least 1 arg(s), only received 0\nRun 'skampi validate --help' for usage.\n"},
		{[]string{"clock", "foo"}, 2, `skampi: clock: unknown command "foo"`},
		{[]string{"foo"}, 2, `skampi: unknown command "foo" for "skampi"` + "\nRun 'skampi --help' for usage.\n"},
		{[]string{"version", "extra"}, 2, "skampi: version: "},
		{[]string{"run", "Bcast", "--window", "x"}, 2, "skampi run: --window: must be an integer, got a string\n"},
		{[]string{"--np", "two", "-i", "quick"}, 2, `invalid argument "two" for "--np"`},
		{[]string{"check", "-i", "no-such.toml"}, 1, "skampi: no-such.toml: no such file"},
		{[]string{"validate", "no-such.jsonl"}, 1, "no-such.jsonl"},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

// A usage mistake says itself first and points to --help in one more line, whatever
// the verb and whoever finds it (cobra's flag parsing, an argument count, a verb's own
// check, the one-line suite): never the whole usage, which pushes the mistake off the
// screen.
func TestUsageErrorsAreShort(t *testing.T) {
	cases := []struct {
		args       []string
		first, cmd string
	}{
		{[]string{"run", "Pingpong_Send_Recv", "--bogus"}, "skampi: run: unknown flag: --bogus", "skampi run"},
		{[]string{"run", "Pingpong_Send_Recv", "-q", "3"}, "skampi: run: unknown shorthand flag: 'q' in -q", "skampi run"},
		{[]string{"run", "Pingpong_Send_Recv", "--np"}, "skampi: run: flag needs an argument: --np", "skampi run"},
		{[]string{"run", "Pingpong_Send_Recv", "-W"}, "skampi: run: flag needs an argument: 'W' in -W", "skampi run"},
		{[]string{"run", "Pingpong_Send_Recv", "-m", "0:64"}, `skampi: run: -m "0:64": MIN must be at least 1 byte`, "skampi run"},
		{[]string{"--bogus"}, "skampi: unknown flag: --bogus", "skampi"},
		{[]string{"compare", "a.jsonl"}, "skampi: compare needs at least two result files", "skampi compare"},
		{[]string{"export", "--format", "xls", "a.jsonl"}, "skampi: --format must be one of", "skampi export"},
		{[]string{"run", "Pingpong_Send_Recv", "--sizes", "4XB"}, "skampi run: --sizes: size \"4XB\"", "skampi run"},
		{[]string{"list", "a", "b"}, "skampi: list: accepts at most 1 arg(s), received 2", "skampi list"},
	}
	for _, c := range cases {
		code, stdout, stderr := runCLI(c.args...)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if code != 2 || stdout != "" || len(lines) != 2 || !strings.HasPrefix(lines[0], c.first) ||
			lines[1] != "Run '"+c.cmd+" --help' for usage." {
			t.Errorf("%v: exit %d, stdout %q, stderr:\n%s", c.args, code, stdout, stderr)
		}
	}
}

// docs/ is what the commands say of themselves: regenerate it with `make docs` after
// changing a command or a flag.
func TestDocsAreCurrent(t *testing.T) {
	dir := t.TempDir()
	if err := writeDocs(dir); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"cli", "man"} {
		want, _ := filepath.Glob(filepath.Join(dir, sub, "*"))
		have, _ := filepath.Glob(filepath.Join("../../docs", sub, "*"))
		if len(want) != len(have) {
			t.Errorf("docs/%s holds %d files, the commands make %d: run make docs", sub, len(have), len(want))
		}
		for _, f := range want {
			a, _ := os.ReadFile(f)
			b, err := os.ReadFile(filepath.Join("../../docs", sub, filepath.Base(f)))
			if err != nil || !bytes.Equal(a, b) {
				t.Errorf("docs/%s/%s is not current: run make docs", sub, filepath.Base(f))
			}
		}
	}
	a, _ := os.ReadFile(filepath.Join(dir, ops.SkampiCoverageFile))
	if b, err := os.ReadFile(filepath.Join("../../docs", ops.SkampiCoverageFile)); err != nil || !bytes.Equal(a, b) {
		t.Errorf("docs/%s is not current: run make docs", ops.SkampiCoverageFile)
	}
}

// Completion offers the built-in suites for -i, operations for run, formats for plot.
func TestCompletion(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"__complete", "-i", "sh"}, "shmem\n"},
		{[]string{"__complete", "run", "Pingpong_Ss"}, "Pingpong_Ssend_Recv\t"},
		{[]string{"__complete", "plot", "--format", ""}, "png\nsvg\npdf\n"},
		{[]string{"__complete", "export", "--format", ""}, "csv\nsko\ngobench\n"},
	} {
		code, stdout, _ := runCLI(c.args...)
		if code != 0 || !strings.HasPrefix(stdout, c.want) {
			t.Errorf("%v: %d %q", c.args, code, stdout)
		}
	}
}

// A tune file's mistakes are errors with positions before anything runs; the verb
// needs -i and -o.
func TestTuneErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(file, []byte("suite = \"quick\"\n[mca]\nbtl_vader_eager_limit = [4096, 8192]\n[suite_settings]\nwindw = [4]\n"), 0o644)
	code, stdout, stderr := runCLI("tune", "-i", file, "-o", t.TempDir())
	if code != 1 || stdout != "" || !strings.Contains(stderr, `bad.toml:5:1: suite_settings: unknown key "windw" (did you mean "window"?)`) {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, _, stderr := runCLI("tune", "-i", "tune-eager"); code != 2 || !strings.Contains(stderr, "-i TUNE and -o DIR are required") {
		t.Errorf("no -o: %d %q", code, stderr)
	}
}

// list PATTERN: a part of the name or a glob, case-insensitive; no match is a failure
// with one line.
func TestListPattern(t *testing.T) {
	names := func(out string) []string {
		var n []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			n = append(n, strings.Fields(l)[0])
		}
		return n
	}
	code, stdout, _ := runCLI("list", "allreduce")
	if got := names(stdout); code != 0 || !slices.Contains(got, "Allreduce") || !slices.Contains(got, "Iallreduce") {
		t.Errorf("substring: %d %v", code, got)
	}
	code, stdout, _ = runCLI("list", "PINGPONG_*_RECV")
	for _, n := range names(stdout) {
		if code != 0 || !strings.HasPrefix(n, "Pingpong_") || !strings.HasSuffix(n, "_Recv") {
			t.Errorf("glob: %d %q", code, n)
		}
	}
	if code, stdout, stderr := runCLI("list", "nosuchop"); code != 1 || stdout != "" ||
		stderr != "skampi: list: no operation matches \"nosuchop\" (skampi list shows them all)\n" {
		t.Errorf("no match: %d %q %q", code, stdout, stderr)
	}
	if code, _, stderr := runCLI("list", "[x"); code != 2 || !strings.Contains(stderr, "pattern \"[x\"") {
		t.Errorf("bad glob: %d %q", code, stderr)
	}
}

// list --suites: every built-in suite's name, one per line (what scripts/stacks.sh runs),
// filtered by PATTERN like the operations.
func TestListSuites(t *testing.T) {
	code, stdout, stderr := runCLI("list", "--suites")
	if got := strings.Fields(stdout); code != 0 || !slices.Equal(got, inputs.BuiltinNames()) {
		t.Errorf("list --suites: %d %q %q", code, stdout, stderr)
	}
	var shmemSuites []string
	for _, n := range inputs.BuiltinNames() {
		if strings.HasPrefix(n, "shmem") {
			shmemSuites = append(shmemSuites, n)
		}
	}
	code, stdout, _ = runCLI("list", "--suites", "shmem*")
	if got := strings.Fields(stdout); code != 0 || len(got) == 0 || !slices.Equal(got, shmemSuites) {
		t.Errorf("list --suites shmem*: %d %v, want %v", code, got, shmemSuites)
	}
	if code, stdout, stderr := runCLI("list", "--suites", "nosuch"); code != 1 || stdout != "" ||
		stderr != "skampi: list: no built-in suite matches \"nosuch\" (skampi list --suites shows them all)\n" {
		t.Errorf("no match: %d %q %q", code, stdout, stderr)
	}
	if code, _, _ := runCLI("list", "--suites", "--skampi"); code != 2 {
		t.Errorf("--suites --skampi: %d, want 2", code)
	}
}
