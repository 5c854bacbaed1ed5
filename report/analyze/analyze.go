// Package analyze splits latency-vs-size curves into linear regimes, t = (L + o) + G*s,
// to find where an MPI library changes protocol (eager to rendezvous) or a message
// stops fitting a cache: what a table of points does not show at a glance.
package analyze

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// Regime is a range of message sizes over which time grows linearly with size:
// t(s) = Intercept + PerByte*s, the LogGP-style "L + o" and "G" of that range.
type Regime struct {
	FromBytes, ToBytes int64
	Points             int
	InterceptS         float64 // time of a 0-byte message: L + o
	PerByteS           float64 // G: seconds per byte
	RelRMS             float64 // root mean square of the relative residuals: the fit's quality
}

// BandwidthBps is 1/G, the asymptotic bandwidth of the regime (0 when G <= 0).
func (r Regime) BandwidthBps() float64 {
	if r.PerByteS <= 0 {
		return 0
	}
	return 1 / r.PerByteS
}

// At is the fitted time of an s-byte message.
func (r Regime) At(s int64) float64 { return r.InterceptS + r.PerByteS*float64(s) }

// Breakdown is the analysis of one latency curve: one (run, measurement, op, nprocs).
type Breakdown struct {
	RunID       string
	Measurement string
	Op          string
	Method      string // the timing method, "" when the operation has none
	Settings    string // the point's settings (record.Setup.Settings) as name=value pairs
	NProcs      int
	OneWay      bool // fitted on one-way latency (ping-pong time / 2)
	Regimes     []Regime
	// Changes: for every breakpoint, the performance variables (the setting pvars) that
	// change across it, from the last size before to the first after: what the library
	// did differently there (eager to rendezvous messages, a queue that grew).
	Changes [][]PVarChange
	// Unsteady: for every breakpoint, the flags that say a point on either side of it
	// was not measured in a steady state ("4 KiB: noisy"), so the step between them
	// may be the machine's, not the library's (record.EffectRelation); "" when
	// neither point has one.
	Unsteady []string
	// Resolution: for every breakpoint, how exactly it is known, as a parenthesis after
	// its size: to the byte only where refinement measured both sizes again and the
	// step came back (record.Step).
	Resolution []string
}

// PVarChange is one performance variable's value on both sides of a breakpoint (summed
// over its elements: peers, for Open MPI's monitoring variables).
type PVarChange struct {
	Name          string
	Before, After float64
}

// Breakpoints are the first sizes of every regime after the first: where a protocol
// switches (eager to rendezvous) or a cache stops holding the message.
func (b Breakdown) Breakpoints() []int64 {
	var out []int64
	for _, r := range b.Regimes[1:] {
		out = append(out, r.FromBytes)
	}
	return out
}

// Analysis settings.
const (
	minRegimePoints = 3    // a regime needs this many sizes to fit a line with a residual
	maxRegimes      = 4    // more would fit noise
	minCurvePoints  = 6    // shorter curves are not analysed
	noiseFloor      = 0.01 // relative noise a good fit may not go below (1 %)
	// bicWeight doubles the information criterion's price of a regime: on a shared machine the
	// noise is not Gaussian, and the plain criterion splits bursts of it off as regimes.
	bicWeight = 2
)

// Analyze finds the regimes of every latency curve in res: points of operations that
// are not bandwidth operations, with at least minCurvePoints sizes.
func Analyze(res *report.Results) []Breakdown {
	// A curve is one setup but the size: a measurement under several timing methods
	// is a curve per method.
	type key struct {
		run, measurement, op, method, settings string
		nprocs                                 int
	}
	curves := map[key][]*record.Point{} // pointers: a sort moves 8 bytes, not a record
	var order []key
	for i := range res.Points {
		p := &res.Points[i]
		if info, ok := ops.Lookup(p.Op); (ok && info.Bandwidth) || p.Reps == 0 || p.TimeS <= 0 {
			continue
		}
		k := key{p.RunID, p.Measurement, p.Op, p.Method, settingsText(p.Setup().Settings()), p.NProcs}
		if _, seen := curves[k]; !seen {
			order = append(order, k)
		}
		curves[k] = append(curves[k], p)
	}
	var out []Breakdown
	for _, k := range order {
		pts := curves[k]
		if len(pts) < minCurvePoints {
			continue
		}
		sort.SliceStable(pts, func(i, j int) bool { return pts[i].MsgBytes < pts[j].MsgBytes })
		sizes := make([]int64, len(pts))
		times := make([]float64, len(pts))
		oneWay := true // when every point has its one-way latency: none is made up
		for _, p := range pts {
			oneWay = oneWay && p.LatencyS != nil
		}
		sizes, times = sizes[:0], times[:0]
		for _, p := range pts {
			t := p.TimeS
			if oneWay {
				t = *p.LatencyS
			}
			if t > 0 { // a fit weighs each point by 1/t²
				sizes, times = append(sizes, p.MsgBytes), append(times, t)
			}
		}
		if len(sizes) < minCurvePoints {
			continue
		}
		b := Breakdown{RunID: k.run, Measurement: k.measurement, Op: k.op, Method: k.method, Settings: k.settings, NProcs: k.nprocs,
			OneWay: oneWay, Regimes: Segment(sizes, times)}
		b.Changes = pvarChanges(pts, b.Regimes)
		b.Unsteady = unsteady(pts, b.Regimes)
		b.Resolution = resolutions(b, res.Steps)
		out = append(out, b)
	}
	return out
}

// fit is a weighted least-squares line through the points with weights 1/t², so that
// each point counts by its relative error: times span decades.
func fit(sizes []int64, times []float64) Regime {
	var sw, sx, sy, sxx, sxy float64
	for i, s := range sizes {
		w := 1 / (times[i] * times[i])
		x := float64(s)
		sw += w
		sx += w * x
		sy += w * times[i]
		sxx += w * x * x
		sxy += w * x * times[i]
	}
	r := Regime{FromBytes: sizes[0], ToBytes: sizes[len(sizes)-1], Points: len(sizes)}
	if d := sw*sxx - sx*sx; len(sizes) > 1 && d > 0 {
		r.PerByteS = (sw*sxy - sx*sy) / d
		r.InterceptS = (sy - r.PerByteS*sx) / sw
	} else {
		r.InterceptS = sy / sw
	}
	var ss float64
	for i, s := range sizes {
		e := (times[i] - r.At(s)) / times[i]
		ss += e * e
	}
	r.RelRMS = math.Sqrt(ss / float64(len(sizes)))
	return r
}

// settingsText is settings as "name=value" pairs joined by spaces.
func settingsText(fs []record.Field) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = f.Name + "=" + f.Value
	}
	return strings.Join(s, " ")
}

// unsteady applies the rule to every breakpoint, a relation between the points on its
// two sides: the flags of either that say why the step may not be the library's.
func unsteady(pts []*record.Point, regimes []Regime) []string {
	if len(regimes) < 2 {
		return nil
	}
	at := map[int64]*record.Point{}
	for _, p := range pts {
		at[p.MsgBytes] = p
	}
	out := make([]string, len(regimes)-1)
	for i := 1; i < len(regimes); i++ {
		var why []string
		for _, p := range []*record.Point{at[regimes[i-1].ToBytes], at[regimes[i].FromBytes]} {
			if p == nil {
				continue
			}
			if f := p.Explanation(record.EffectRelation); f != "" {
				why = append(why, report.Bytes(p.MsgBytes)+": "+f)
			}
		}
		out[i-1] = strings.Join(why, ", ")
	}
	return out
}

// pvarChanges compares the performance variables of the points on both sides of every
// breakpoint; nil when the curve has none recorded.
func pvarChanges(pts []*record.Point, regimes []Regime) [][]PVarChange {
	at := map[int64]*record.Point{}
	any := false
	for _, p := range pts {
		at[p.MsgBytes] = p
		any = any || len(p.PVars) > 0
	}
	if !any || len(regimes) < 2 {
		return nil
	}
	out := make([][]PVarChange, len(regimes)-1)
	for i := 1; i < len(regimes); i++ {
		before, after := at[regimes[i-1].ToBytes], at[regimes[i].FromBytes]
		if before == nil || after == nil {
			continue
		}
		var names []string
		for n := range after.PVars {
			if _, ok := before.PVars[n]; ok {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			b, a := sum(before.PVars[n]), sum(after.PVars[n])
			if changed(b, a) {
				out[i-1] = append(out[i-1], PVarChange{n, b, a})
			}
		}
	}
	return out
}

func sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}

// changed: from zero to some, or by more than a half; a counter that grows with the
// repetitions a point happened to run changes less than that.
func changed(b, a float64) bool {
	if b == 0 || a == 0 {
		return b != a
	}
	return math.Abs(a-b)/math.Max(math.Abs(a), math.Abs(b)) > 0.5
}

// resolutions says, for every breakpoint of b, how exactly it is known: the last size
// measured before it, and whether the two sizes around a one-byte bracket were measured
// again and still stepped (a step record of the same curve, of any run: a resumed run
// records it).
func resolutions(b Breakdown, steps []record.Step) []string {
	out := make([]string, len(b.Regimes)-1)
	for i := range out {
		before, at := b.Regimes[i].ToBytes, b.Regimes[i+1].FromBytes
		out[i] = " (after " + report.Bytes(before) + ")"
		if at-before > 1 {
			continue
		}
		out[i] = " (" + report.Bytes(before) + " is the last before; not measured again)"
		for _, st := range steps {
			if st.Measurement != b.Measurement || st.Op != b.Op || st.Method != b.Method || st.NProcs != b.NProcs ||
				st.FoundLo != before || st.FoundHi != at {
				continue
			}
			if st.Confirmed {
				out[i] = fmt.Sprintf(" (to the byte: %s is the last before; both measured again %d times, alternately)",
					report.Bytes(before), len(st.Rounds))
			} else {
				out[i] = fmt.Sprintf(" (between %s and %s: the step did not come back when %s and %s were measured again)",
					report.Bytes(st.LoBytes), report.Bytes(st.HiBytes), report.Bytes(before), report.Bytes(at))
			}
		}
	}
	return out
}
