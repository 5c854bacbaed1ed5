package runner

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// threadStats: the fake's threads, the mean one at 0.8 of the slowest, their span 1.1
// times it, on CPUs 0, 1, ....
func (o fakeOp) ThreadStats() (float64, float64, []int) {
	if !o.info.Threaded {
		return 0, 0, nil
	}
	return 0.8, 1.1, []int{0, 1}
}

// suiteOfEverything is a suite measuring every operation of the catalogue at two sizes,
// each with the settings its fields take set away from their defaults, refining where
// its data allows.
func suiteOfEverything(procs int) string {
	var b strings.Builder
	b.WriteString("[settings]\nmin_repetitions = 2\nmax_repetitions = 2\niterations = 1\nwindow = 4\n")
	for _, op := range ops.All() {
		if op.MinProcs > procs {
			continue
		}
		lo, hi := int64(8), int64(64)
		if op.ElementBytes > 0 {
			lo, hi = op.ElementBytes, op.ElementBytes*8
		}
		sizes := fmt.Sprintf("[%d, %d]", lo, hi)
		switch {
		case op.SingleElement && op.ElementBytes == 0: // one of the datatype, int by default
			sizes = "[4]"
		case op.SingleElement:
			sizes = fmt.Sprintf("[%d]", op.ElementBytes)
		case op.NoData:
			sizes = "[0]"
		}
		fmt.Fprintf(&b, "[[measurement]]\nname = %q\nop = %q\nsizes = %s\n", op.Name, op.Name, sizes)
		set := func(k, v string) { fmt.Fprintf(&b, "%s = %s\n", k, v) }
		for _, kv := range inputs.SampleSettings(op) { // the families' (threads, delay, data_layout, ...)
			set(kv[0], kv[1])
		}
		if !op.NoData && !op.SingleElement {
			set("refine", "true")
		}
	}
	return b.String()
}

// What the runner writes, the schema reads: every operation's records, written
// through the JSONL writer after a run header, break none of the checks validate
// makes (report.Checker), and read back whole.
func TestRecordsKeepTheSchema(t *testing.T) {
	p := plan(t, suiteOfEverything(4))
	var out bytes.Buffer
	j := report.NewJSONL(&out)
	var broken []string
	j.Broken = func(what string, problems []string) { broken = append(broken, what+": "+strings.Join(problems, "; ")) }
	sink := &collect{}
	if err := j.Run(&record.Run{Kind: record.KindRun, RunID: "x", SkampiVersion: "0.99.0", NProcs: 4, StartTime: time.Now()}); err != nil {
		t.Fatal(err)
	}
	// Every message from 32 bytes on costs more: refinement finds the step.
	r := &Runner{World: &fakeWorld{size: 4, step: 32}, RunID: "x", Sink: sink}
	if err := r.Run(expand(t, p, "a", "a", "b", "b")); err != nil {
		t.Fatal(err)
	}
	if len(sink.points) < len(ops.All()) {
		t.Fatalf("%d points of %d operations", len(sink.points), len(ops.All()))
	}
	for _, pt := range sink.points {
		if err := j.Point(pt); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range sink.faults {
		if err := j.Fault(f); err != nil {
			t.Fatal(err)
		}
	}
	for _, st := range sink.steps {
		if err := j.Step(st); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range broken {
		t.Error(b)
	}
	res, err := report.Read(&out, "written")
	if err != nil || len(res.Errors()) > 0 || len(res.Points) != len(sink.points) {
		t.Errorf("read back: %v, %d of %d points, %v", err, len(res.Points), len(sink.points), res.Errors())
	}
	var refined, threaded int
	for _, pt := range sink.points {
		if pt.Refined {
			refined++
		}
		if pt.ThreadMeanS != nil && pt.ThreadCPUs != nil && pt.MsgsPerS != nil {
			threaded++
		}
	}
	if refined == 0 || len(sink.steps) == 0 || threaded == 0 {
		t.Errorf("%d refined points, %d steps, %d multi-threaded points with their threads' fields: the check saw none", refined, len(sink.steps), threaded)
	}
}
