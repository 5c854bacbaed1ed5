package history

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
)

// A run in which a setup faulted, or that lacks it, is a gap named with its reason, in
// the setup's series and in the measurement's as a whole; it is not dropped in silence,
// and the runs before the setup's first record are not gaps.
func TestGapsNameTheirRuns(t *testing.T) {
	res := nightly(8, func(run int, op string, size int64) float64 {
		switch {
		case op == "Put" && size == 8 && run == 4: // a fault below
			return 0
		case op == "Put" && size == 1024 && run == 5: // nothing at all
			return 0
		case op == "Pingpong_Send_Recv" && size == 1024 && run < 2: // added to the suite later
			return 0
		}
		return 1
	})
	res.Faults = append(res.Faults, record.Fault{Kind: record.KindFault, RunID: "run04", Measurement: "Put", Op: "Put",
		MsgBytes: 8, NProcs: 2, Fault: record.FaultTimeout, Detail: "no progress"})
	h := buildOK(t, res, nil, Options{})
	put := h.Measurements[1]
	if put.Measurement != "Put" {
		t.Fatalf("measurements %+v", h.Measurements)
	}
	g8, g1k := put.Setups[0].Gaps, put.Setups[1].Gaps
	if len(g8) != 1 || g8[0] != (Gap{Run: 5, Why: record.FaultTimeout, Detail: "no progress"}) || g8[0].String() != "run 5: fault timeout" {
		t.Errorf("8 B gaps %+v", g8)
	}
	if len(g1k) != 1 || g1k[0] != (Gap{Run: 6, Why: GapMissing}) || g1k[0].String() != "run 6: missing" {
		t.Errorf("1 KiB gaps %+v", g1k)
	}
	whole := put.Absolute.Gaps
	if len(whole) != 2 || whole[0].Run != 5 || whole[0].Why != "timeout" || whole[0].Detail != "at 8 B" || whole[1].Run != 6 || whole[1].Why != GapMissing {
		t.Errorf("whole gaps %+v", whole)
	}
	if len(put.Absolute.Values) != 6 {
		t.Errorf("whole values %v", put.Absolute.Values)
	}
	if pp := h.Measurements[0]; len(pp.Setups[1].Gaps) != 0 || len(pp.Absolute.Gaps) != 0 {
		t.Errorf("a size added later is no gap: %+v %+v", pp.Setups[1].Gaps, pp.Absolute.Gaps)
	}
	var b bytes.Buffer
	if err := WriteHistory(&b, h); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !regexp.MustCompile(`change points +gaps\n`).MatchString(out) {
		t.Errorf("no gaps column:\n%s", out)
	}
	for _, want := range []string{"   run 5: fault timeout\n", "   run 6: missing\n",
		"; without a value: run 5: fault timeout at 8 B; run 6: missing at 1 KiB\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "gaps") != 1 {
		t.Errorf("a gaps column only where a setup has gaps:\n%s", out)
	}
}
