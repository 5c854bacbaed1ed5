package job

import (
	"bytes"
	"strings"
	"syscall"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
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
