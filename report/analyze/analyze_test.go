package analyze

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// A synthetic curve with a protocol switch at 4 KiB: eager (1 µs + 0.2 ns/B), then
// rendezvous (5 µs + 0.1 ns/B), with ±1 % noise.
func TestSegmentFindsTheSwitch(t *testing.T) {
	var sizes []int64
	var times []float64
	noise := []float64{0.01, -0.01, 0.005, -0.005, 0, 0.008, -0.008}
	for i, s := 0, int64(1); s <= 1<<20; i, s = i+1, s*2 {
		tm := 1e-6 + 0.2e-9*float64(s)
		if s >= 4096 {
			tm = 5e-6 + 0.1e-9*float64(s)
		}
		sizes = append(sizes, s)
		times = append(times, tm*(1+noise[i%len(noise)]))
	}
	regs := Segment(sizes, times)
	if len(regs) != 2 {
		t.Fatalf("%d regimes: %+v", len(regs), regs)
	}
	if regs[0].ToBytes != 2048 || regs[1].FromBytes != 4096 {
		t.Errorf("switch found at %d/%d, want 2048/4096", regs[0].ToBytes, regs[1].FromBytes)
	}
	if math.Abs(regs[0].InterceptS-1e-6) > 0.05e-6 || math.Abs(regs[1].PerByteS-0.1e-9)/0.1e-9 > 0.05 {
		t.Errorf("fits: %+v", regs)
	}
	if bw := regs[1].BandwidthBps(); math.Abs(bw-1e10)/1e10 > 0.05 {
		t.Errorf("bandwidth %g", bw)
	}
}

// A straight line stays one regime: noise must not be explained by breakpoints.
func TestSegmentKeepsALineWhole(t *testing.T) {
	var sizes []int64
	var times []float64
	for i, s := 0, int64(1); s <= 1<<22; i, s = i+1, s*2 {
		sizes = append(sizes, s)
		times = append(times, (2e-6+0.3e-9*float64(s))*(1+0.02*math.Sin(float64(i)*2.1)))
	}
	if regs := Segment(sizes, times); len(regs) != 1 {
		t.Errorf("%d regimes for a line: %+v", len(regs), regs)
	}
}

func TestAnalyzeRealRun(t *testing.T) {
	f, err := os.Open("../testdata/pingpong.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := report.ReadJSONL(f, "pingpong.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	bds := Analyze(res)
	if len(bds) != 1 || !bds[0].OneWay || bds[0].Op != "Pingpong_Send_Recv" {
		t.Fatalf("%+v", bds)
	}
	// Open MPI 4.1.4's shared-memory transport (vader) sends up to 4 KiB including its
	// header eagerly: 4 KiB of payload is the first rendezvous size.
	bp := bds[0].Breakpoints()
	if len(bp) == 0 || bp[0] != 4096 {
		t.Errorf("breakpoints %v, want the first at 4096", bp)
	}
}

// A measurement under two timing methods is two curves, each named by its method; a
// curve with a point lacking latency_s is fitted on time_s, none of it halved.
func TestAnalyzeCurvePerMethod(t *testing.T) {
	f, err := os.Open("../testdata/pingpong.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := report.ReadJSONL(f, "pingpong.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n := len(res.Points)
	for i := 0; i < n; i++ {
		p := res.Points[i]
		res.Points[i].Method = "a"
		p.Method, p.LatencyS = "b", nil
		res.Points = append(res.Points, p)
	}
	bds := Analyze(res)
	if len(bds) != 2 || bds[0].Method != "a" || !bds[0].OneWay || bds[1].Method != "b" || bds[1].OneWay {
		t.Fatalf("%+v", bds)
	}
	for _, b := range bds {
		pts := 0
		for _, r := range b.Regimes {
			pts += r.Points
		}
		if pts != n {
			t.Errorf("method %s: %d points in its regimes, want %d", b.Method, pts, n)
		}
	}
	if r0, r1 := bds[0].Regimes[0].InterceptS, bds[1].Regimes[0].InterceptS; math.Abs(r1/r0-2) > 0.2 {
		t.Errorf("one-way %g vs round trip %g", r0, r1)
	}
}

// A breakpoint is annotated with the performance variables that change across it: a
// counter of rendezvous messages that starts there, not one that only grows with the
// repetitions a point ran.
func TestBreakpointCarriesItsCounters(t *testing.T) {
	res := &report.Results{}
	for i, s := 0, int64(1); s <= 1<<20; i, s = i+1, s*2 {
		tm, rndv := 1e-6+0.2e-9*float64(s), 0.0
		if s >= 4096 {
			tm, rndv = 5e-6+0.1e-9*float64(s), 100
		}
		res.Points = append(res.Points, record.Point{RunID: "r", Measurement: "pp", Op: "Pingpong_Send_Recv", MsgBytes: s, NProcs: 2,
			TimeS: tm, Reps: 10, PVars: map[string][]float64{"rndv_count": {rndv, 0}, "msgs": {float64(100 + i)}}})
	}
	bds := Analyze(res)
	if len(bds) != 1 || len(bds[0].Changes) != 1 {
		t.Fatalf("%+v", bds)
	}
	c := bds[0].Changes[0]
	if len(c) != 1 || c[0].Name != "rndv_count" || c[0].Before != 0 || c[0].After != 100 {
		t.Errorf("changes at %v: %+v", bds[0].Breakpoints(), c)
	}
}

// A breakpoint is a relation between the points on its two sides (record.Effect): one
// that a flag says was not measured in a steady state (noisy, capped) marks it, and
// skampi analyze says so under it; steady points mark nothing.
func TestBreakpointBetweenUnsteadyPoints(t *testing.T) {
	curve := func(flagAt int64, flags ...string) *report.Results {
		res := &report.Results{}
		for s := int64(1); s <= 1<<20; s *= 2 {
			tm := 1e-6 + 0.2e-9*float64(s)
			if s >= 4096 {
				tm = 5e-6 + 0.1e-9*float64(s)
			}
			p := record.Point{RunID: "r", Measurement: "pp", Op: "Pingpong_Send_Recv", MsgBytes: s, NProcs: 2, TimeS: tm, Reps: 10}
			if s == flagAt {
				p.Flags = flags
			}
			res.Points = append(res.Points, p)
		}
		return res
	}
	for _, c := range []struct {
		name string
		res  *report.Results
		want string
	}{
		{"steady", curve(0), ""},
		{"after the step, noisy", curve(4096, record.FlagNoisy), "4 KiB: noisy"},
		{"before the step, capped", curve(2048, record.FlagPairFallback, record.FlagTimeCap), "2 KiB: time_cap"},
		{"away from the step", curve(64, record.FlagNoisy), ""},
	} {
		bds := Analyze(c.res)
		if len(bds) != 1 || len(bds[0].Unsteady) != 1 || bds[0].Breakpoints()[0] != 4096 {
			t.Fatalf("%s: %+v", c.name, bds)
		}
		if got := bds[0].Unsteady[0]; got != c.want {
			t.Errorf("%s: unsteady %q, want %q", c.name, got, c.want)
		}
		var out strings.Builder
		writeBreakdown(&out, bds[0])
		if strings.Contains(out.String(), "not steady") != (c.want != "") {
			t.Errorf("%s: printed\n%s", c.name, out.String())
		}
	}
}

// A breakpoint between sizes one byte apart is "to the byte" only where refinement
// measured both again and the step came back (a step record of the curve); a step
// that did not is printed as the bracket it recorded.
func TestBreakpointResolution(t *testing.T) {
	curve := func(steps ...record.Step) *report.Results {
		res := &report.Results{Steps: steps}
		sizes := []int64{1024, 2048, 4096, 4944, 4945, 8192, 16384, 32768}
		for _, s := range sizes {
			tm := 1e-6 + 0.2e-9*float64(s)
			if s > 4944 {
				tm = 5e-6 + 0.1e-9*float64(s)
			}
			res.Points = append(res.Points, record.Point{RunID: "r", Measurement: "pp", Op: "Pingpong_Send_Recv", MsgBytes: s, NProcs: 2, TimeS: tm, Reps: 10})
		}
		return res
	}
	step := record.Step{Kind: record.KindStep, RunID: "r2", Measurement: "pp", Op: "Pingpong_Send_Recv", NProcs: 2,
		LoBytes: 4944, HiBytes: 4945, FoundLo: 4944, FoundHi: 4945, Rounds: [][2]float64{{1, 5}, {1, 5}}, Confirmed: true}
	unconfirmed := step
	unconfirmed.Confirmed, unconfirmed.LoBytes, unconfirmed.HiBytes = false, 4096, 8192
	other := step
	other.Measurement = "another"
	for _, c := range []struct {
		name string
		res  *report.Results
		want string
	}{
		{"no step record", curve(), "not measured again"},
		{"another curve's", curve(other), "not measured again"},
		{"confirmed", curve(step), "to the byte: 4944 B is the last before"},
		{"not confirmed", curve(unconfirmed), "between 4 KiB and 8 KiB: the step did not come back"},
	} {
		bds := Analyze(c.res)
		if len(bds) != 1 || len(bds[0].Resolution) != 1 || bds[0].Breakpoints()[0] != 4945 {
			t.Fatalf("%s: %+v", c.name, bds)
		}
		if got := bds[0].Resolution[0]; !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q in it", c.name, got, c.want)
		}
	}
}
