package job

import (
	"bytes"
	"strings"
	"syscall"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/runner"
)

// The status of a run says the worst that happened in it: corrupt data (4) over a
// hang (3) over a crash (1); a denied point is the deny-list's choice (0).
func TestExitStatusPrecedence(t *testing.T) {
	for _, c := range []struct {
		kinds []string
		want  int
	}{
		{nil, 0},
		{[]string{record.FaultDenied}, 0},
		{[]string{record.FaultCrash}, 1},
		{[]string{record.FaultCrash, record.FaultTimeout, record.FaultCrash}, ExitTimeout},
		{[]string{record.FaultTimeout, record.FaultCorrupt, record.FaultCrash}, ExitCorrupt},
		{[]string{record.FaultCorrupt}, ExitCorrupt},
		{[]string{record.FaultCorrupt, record.FaultInterrupted}, ExitCorrupt},
	} {
		st := &state{res: &report.Results{}}
		for _, k := range c.kinds {
			st.res.Faults = append(st.res.Faults, record.Fault{Kind: record.KindFault, RunID: "r", Fault: k, Op: "Selftest_Corrupt", Measurement: "m"})
		}
		// A fault of another run does not count.
		st.res.Faults = append(st.res.Faults, record.Fault{Kind: record.KindFault, RunID: "old", Fault: record.FaultCorrupt})
		if got := st.summarise(&bytes.Buffer{}, []string{"r"}); got != c.want {
			t.Errorf("%v: status %d, want %d", c.kinds, got, c.want)
		}
	}
}

// A launch that ends with ExitCorrupt ran to its end: nothing is resumed and the
// status is passed on, with or without a results directory.
func TestSelfLaunchPassesCorruptOn(t *testing.T) {
	plan, err := inputs.Parse("crash.toml", []byte(crashSuite))
	if err != nil {
		t.Fatal(err)
	}
	launches := 0
	err = SelfLaunch(plan, Options{NP: 4, MaxRestarts: 5, Stderr: &bytes.Buffer{}},
		func(args []string) (int, syscall.Signal, error) { launches++; return ExitCorrupt, 0, nil })
	if ee, ok := err.(*ExitError); !ok || ee.Code != ExitCorrupt || !ee.Quiet || launches != 1 {
		t.Errorf("%d launches, %v", launches, err)
	}
	if !strings.Contains(corruptMessage, "the other points were measured") {
		t.Errorf("message %q", corruptMessage)
	}
}

// A command that gives up still reports the worst its runs recorded: a hang when
// --max-restarts is exhausted (not 1, the status of skampi's own errors), with the
// one-line message of why it stopped.
func TestGivingUpKeepsTheHangStatus(t *testing.T) {
	dir := t.TempDir()
	plan, err := inputs.Parse("crash.toml", []byte(crashSuite))
	if err != nil {
		t.Fatal(err)
	}
	// Every launch hangs at its first point after the Bcasts: the watchdog's status.
	j := &fakeJob{t: t, dir: dir, plan: plan, crashes: func(pt *inputs.Point) bool { return pt.Op().Name != "Bcast" }}
	hang := func(args []string) (int, syscall.Signal, error) {
		code, sig, err := j.launch(args)
		if code != 0 {
			code = ExitTimeout
		}
		return code, sig, err
	}
	var stderr bytes.Buffer
	err = SelfLaunch(plan, Options{Out: dir, NP: 4, MaxRestarts: 1, Stderr: &stderr, Stdout: &bytes.Buffer{}}, hang)
	ee, ok := err.(*ExitError)
	if !ok || ee.Code != ExitTimeout || ee.Quiet || !strings.Contains(err.Error(), "after 1 restarts (--max-restarts)") {
		t.Fatalf("%#v (%v), want status %d with the --max-restarts message\n%s", err, err, ExitTimeout, stderr.String())
	}
	if j.runs != 2 {
		t.Errorf("%d launches, want 2", j.runs)
	}
}

// A corrupt point recorded by one launch outranks a later launch's failure (status 1)
// and the hang before it: the status is 4, the message the failure's.
func TestLaterFailureKeepsTheCorruptStatus(t *testing.T) {
	dir := t.TempDir()
	plan, err := inputs.Parse("crash.toml", []byte(crashSuite))
	if err != nil {
		t.Fatal(err)
	}
	j := &fakeJob{t: t, dir: dir, plan: plan, crashes: func(pt *inputs.Point) bool { return pt.Op().Name == "Selftest_Crash" }}
	launch := func(args []string) (int, syscall.Signal, error) {
		if j.runs > 0 {
			return 1, 0, nil // skampi's own error in the resumed job
		}
		code, sig, err := j.launch(args)
		// A Bcast point's data arrived corrupt, then the job hung.
		f := record.Fault{Kind: record.KindFault, RunID: "run1", Measurement: "bcast", Op: "Bcast", Method: "barrier",
			MsgBytes: 8, NProcs: 2, Ranks: []int{0, 1}, Fault: record.FaultCorrupt, Detail: "byte 3 differs",
			Corrupt: &record.Corrupt{Rank: 1, Offset: 3, Expected: 7, Actual: 9}}
		if err := appendFault(dir, &f); err != nil {
			t.Fatal(err)
		}
		if code != 0 {
			code = ExitTimeout
		}
		return code, sig, err
	}
	var stderr bytes.Buffer
	err = SelfLaunch(plan, Options{Out: dir, NP: 4, MaxRestarts: 5, Stderr: &stderr, Stdout: &bytes.Buffer{}}, launch)
	if ee, ok := err.(*ExitError); !ok || ee.Code != ExitCorrupt {
		t.Fatalf("%#v (%v), want status %d\n%s", err, err, ExitCorrupt, stderr.String())
	}
	if !strings.Contains(stderr.String(), "corrupt  Bcast") {
		t.Errorf("the points not measured are not listed:\n%s", stderr.String())
	}
}

// Points denied for an operation the build lacks (OpenSHMEM in an MPICH build) leave
// the status 0; the summary gives the first in full and counts the rest in one line.
func TestSummaryNotBuilt(t *testing.T) {
	st := &state{res: &report.Results{}}
	full := "Shmem_Put: this skampi was built without OpenSHMEM (an MPICH build): build it against Open MPI with shmem.h, `make build`"
	for i, d := range []string{full, runner.NotBuiltDetail, runner.NotBuiltDetail} {
		st.res.Faults = append(st.res.Faults, record.Fault{Kind: record.KindFault, RunID: "r", Fault: record.FaultDenied,
			Op: "Shmem_Put", Measurement: "put", MsgBytes: int64(8 << i), Detail: d})
	}
	var out bytes.Buffer
	if got := st.summarise(&out, []string{"r"}); got != 0 {
		t.Errorf("status %d", got)
	}
	text := out.String()
	if !strings.Contains(text, "3 point(s) not measured") || !strings.Contains(text, `denied   Shmem_Put "put", 8 B: `+full+"\n") ||
		!strings.Contains(text, "denied   Shmem_Put: 2 more point(s), not in this build either\n") || strings.Count(text, "\n") != 4 {
		t.Errorf("summary:\n%s", text)
	}
}
