package compare

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"golang.org/x/perf/benchmath"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// indexed holds one source's points and faults by key, in order of first appearance.
type indexed struct {
	keys   []record.Key
	points map[record.Key][]*record.Point
	faults map[record.Key][]*record.Fault
}

func indexResults(res *report.Results) *indexed {
	ix := &indexed{points: map[record.Key][]*record.Point{}, faults: map[record.Key][]*record.Fault{}}
	seen := map[record.Key]bool{}
	add := func(k record.Key) {
		if !seen[k] {
			seen[k] = true
			ix.keys = append(ix.keys, k)
		}
	}
	for i := range res.Points {
		p := &res.Points[i]
		k := p.Key().WithoutRanks()
		add(k)
		ix.points[k] = append(ix.points[k], p)
	}
	for i := range res.Faults {
		f := &res.Faults[i]
		k := f.Key().WithoutRanks()
		add(k)
		ix.faults[k] = append(ix.faults[k], f)
	}
	return ix
}

func (ix *indexed) has(k record.Key) bool { return len(ix.points[k])+len(ix.faults[k]) > 0 }

func (ix *indexed) overlaps(o *indexed) bool {
	for _, k := range o.keys {
		if ix.has(k) {
			return true
		}
	}
	return false
}

// mismatch explains why two sources share no key.
func (ix *indexed) mismatch(o *indexed) string {
	if len(ix.keys) == 0 || len(o.keys) == 0 {
		return "one of them holds no point"
	}
	names := func(x *indexed) (m map[string]bool, procs map[int]bool, list []string) {
		m, procs = map[string]bool{}, map[int]bool{}
		for _, k := range x.keys {
			if !m[k.Measurement] {
				list = append(list, fmt.Sprintf("%q", k.Measurement))
			}
			m[k.Measurement], procs[k.NProcs] = true, true
		}
		return
	}
	m1, p1, l1 := names(ix)
	m2, p2, l2 := names(o)
	common := false
	for m := range m1 {
		common = common || m2[m]
	}
	if !common {
		return fmt.Sprintf("no measurement name in common (%s vs %s)", cmpShortList(l1), cmpShortList(l2))
	}
	return fmt.Sprintf("points are matched by measurement, op, message size and process count (%s vs %s processes)",
		cmpProcList(p1), cmpProcList(p2))
}

func cmpShortList(l []string) string {
	if len(l) > 4 {
		return strings.Join(l[:4], ", ") + fmt.Sprintf(" and %d more", len(l)-4)
	}
	return strings.Join(l, ", ")
}

func cmpProcList(p map[int]bool) string {
	var s []string
	for n := range p {
		s = append(s, fmt.Sprint(n))
	}
	sort.Strings(s)
	return strings.Join(s, ", ")
}

func compareIndexed(baseLabel, otherLabel string, base, other *indexed, opt Options) []Table {
	// Measurements in the baseline's order, then those only the other source has.
	keys := append([]record.Key(nil), base.keys...)
	for _, k := range other.keys {
		if !base.has(k) {
			keys = append(keys, k)
		}
	}
	byMeasurement := map[string][]record.Key{}
	var order []string
	for _, k := range keys {
		if byMeasurement[k.Measurement] == nil {
			order = append(order, k.Measurement)
		}
		byMeasurement[k.Measurement] = append(byMeasurement[k.Measurement], k)
	}
	var tables []Table
	for _, m := range order {
		keys := byMeasurement[m]
		sort.SliceStable(keys, func(i, j int) bool {
			if keys[i].NProcs != keys[j].NProcs {
				return keys[i].NProcs < keys[j].NProcs
			}
			return keys[i].MsgBytes < keys[j].MsgBytes
		})
		t := Table{Baseline: baseLabel, Other: otherLabel, Measurement: m, Op: keys[0].Op, Metric: opt.Metric}
		for _, k := range keys {
			t.Rows = append(t.Rows, compareRow(k, compareSide(base, k), compareSide(other, k), baseLabel, otherLabel, opt.Alpha))
		}
		if t.Metric == MetricBandwidth {
			for _, r := range t.Rows {
				if r.Base.State == SideMeasured && r.Other.State == SideMeasured && (r.Base.BandwidthBps <= 0 || r.Other.BandwidthBps <= 0) {
					t.Metric = MetricTime
				}
			}
		}
		var lb, lo float64
		for i := range t.Rows {
			r := &t.Rows[i]
			r.Metric = t.Metric
			b, o := r.Base.Value(t.Metric), r.Other.Value(t.Metric)
			if r.Base.State != SideMeasured || r.Other.State != SideMeasured || b <= 0 || o <= 0 {
				r.Ratio, r.Tested, r.Significant = 0, false, false
				continue
			}
			r.Ratio = o / b
			lb, lo = lb+math.Log(b), lo+math.Log(o)
			t.Geomean.N++
		}
		if n := float64(t.Geomean.N); n > 0 {
			t.Geomean.Base, t.Geomean.Other = math.Exp(lb/n), math.Exp(lo/n)
			t.Geomean.Ratio = t.Geomean.Other / t.Geomean.Base
		}
		tables = append(tables, t)
	}
	return tables
}

// compareSide pools what one source holds for a key.
func compareSide(ix *indexed, k record.Key) Side {
	pts := ix.points[k]
	if len(pts) == 0 {
		if fs := ix.faults[k]; len(fs) > 0 {
			f := fs[len(fs)-1]
			return Side{State: SideFault, Fault: f.Fault, Detail: f.Detail}
		}
		return Side{State: SideMissing}
	}
	s := Side{State: SideNoValue, Points: len(pts), Window: pts[0].Window}
	var se2 float64
	valid := 0
	for _, p := range pts {
		for _, f := range p.Flags {
			if !slices.Contains(s.Flags, f) {
				s.Flags = append(s.Flags, f)
			}
		}
		if p.Reps == 0 || p.TimeS <= 0 {
			continue
		}
		valid++
		s.TimeS += p.TimeS
		se2 += p.StderrS * p.StderrS
		if p.BandwidthBps != nil {
			s.BandwidthBps += *p.BandwidthBps
		}
		s.Reps += p.Reps
		s.Samples = append(s.Samples, p.SamplesS...)
	}
	if valid > 0 {
		n := float64(valid)
		s.State = SideMeasured
		s.TimeS /= n
		s.StderrS = math.Sqrt(se2) / n
		s.BandwidthBps /= n
	}
	return s
}

func compareRow(k record.Key, b, o Side, baseLabel, otherLabel string, alpha float64) Row {
	r := Row{Measurement: k.Measurement, Op: k.Op, MsgBytes: k.MsgBytes, NProcs: k.NProcs,
		Base: b, Other: o, Alpha: alpha}
	if b.State != SideMeasured || o.State != SideMeasured {
		return r
	}
	for _, x := range []struct {
		label string
		s     Side
	}{{baseLabel, b}, {otherLabel, o}} {
		if x.s.Points > 1 {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: %d points pooled (several runs)", x.label, x.s.Points))
		}
	}
	if b.Window != o.Window && b.Window > 0 && o.Window > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("window differs: %d vs %d", b.Window, o.Window))
	}
	var none []string
	for _, x := range []struct {
		label string
		n     int
	}{{baseLabel, len(b.Samples)}, {otherLabel, len(o.Samples)}} {
		if x.n == 0 {
			none = append(none, x.label)
		}
	}
	if len(none) > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("no repetitions stored in %s (imported .sko?): significance not tested", strings.Join(none, " and ")))
		return r
	}
	th := &benchmath.Thresholds{CompareAlpha: alpha}
	// NewSample sorts its values: give it copies.
	s1 := benchmath.NewSample(append([]float64(nil), b.Samples...), th)
	s2 := benchmath.NewSample(append([]float64(nil), o.Samples...), th)
	cmp := benchmath.AssumeNothing.Compare(s1, s2)
	r.Tested, r.P, r.N1, r.N2 = true, cmp.P, cmp.N1, cmp.N2
	r.Significant = cmp.P <= cmp.Alpha // benchmath's FormatDelta prints "~" for P > Alpha
	for _, w := range cmp.Warnings {
		r.Notes = append(r.Notes, w.Error())
	}
	return r
}
