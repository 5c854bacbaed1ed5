package compare

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/skampi/skampi/record"
)

// indexed holds one source's points and faults by key, in order of first appearance.
type indexed struct {
	keys   []Key
	points map[Key][]*record.Point
	faults map[Key][]*record.Fault
	names  map[Key]string // the measurement name a key was first seen with: its label
}

func (ix *indexed) has(k Key) bool { return len(ix.points[k])+len(ix.faults[k]) > 0 }

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
	ops := func(x *indexed) (m map[string]bool, procs map[int]bool, list []string) {
		m, procs = map[string]bool{}, map[int]bool{}
		for _, k := range x.keys {
			if !m[k.Op] {
				list = append(list, fmt.Sprintf("%q", k.Op))
			}
			m[k.Op], procs[k.NProcs] = true, true
		}
		return
	}
	m1, p1, l1 := ops(ix)
	m2, p2, l2 := ops(o)
	common := false
	for m := range m1 {
		common = common || m2[m]
	}
	if !common {
		return fmt.Sprintf("no operation in common (%s vs %s)", cmpShortList(l1), cmpShortList(l2))
	}
	return fmt.Sprintf("points are matched by operation, method, message size, process count and the settings that change the number (%s vs %s processes; e.g. %s vs %s)",
		cmpProcList(p1), cmpProcList(p2), ix.keys[0], o.keys[0])
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
	// Keys in the baseline's order, then those only the other source has.
	keys := append([]Key(nil), base.keys...)
	for _, k := range other.keys {
		if !base.has(k) {
			keys = append(keys, k)
		}
	}
	label := func(k Key) string {
		if n, ok := base.names[k]; ok {
			return n
		}
		return other.names[k]
	}
	byTable := map[Key][]Key{}
	var order []Key
	for _, k := range keys {
		tk := k.Table()
		if byTable[tk] == nil {
			order = append(order, tk)
		}
		byTable[tk] = append(byTable[tk], k)
	}
	settings := varyingSettings(order)
	var tables []Table
	for _, tk := range order {
		keys := byTable[tk]
		sort.SliceStable(keys, func(i, j int) bool {
			if keys[i].NProcs != keys[j].NProcs {
				return keys[i].NProcs < keys[j].NProcs
			}
			return keys[i].MsgBytes < keys[j].MsgBytes
		})
		t := Table{Baseline: baseLabel, Other: otherLabel, Measurement: label(keys[0]), Op: tk.Op, Method: tk.Method,
			Settings: settings[tk], Key: tk, Metric: opt.Metric}
		for _, k := range keys {
			t.Rows = append(t.Rows, compareRow(k, label(k), compareSide(base, k), compareSide(other, k), baseLabel, otherLabel, opt.Alpha))
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
		testShift(&t, opt.Alpha)
		tables = append(tables, t)
	}
	return tables
}

// varyingSettings names, for each table, the settings whose values differ between the
// tables of one operation: what a title must show to tell them apart. A setting one
// table lacks and another has differs too.
func varyingSettings(tables []Key) map[Key]string {
	values := map[string]map[string]map[string]bool{} // op -> setting -> values
	for _, k := range tables {
		if values[k.Op] == nil {
			values[k.Op] = map[string]map[string]bool{}
		}
		for _, f := range k.Settings() {
			if values[k.Op][f.Name] == nil {
				values[k.Op][f.Name] = map[string]bool{}
			}
		}
	}
	for _, k := range tables {
		have := map[string]string{}
		for _, f := range k.Settings() {
			have[f.Name] = f.Value
		}
		for name, vs := range values[k.Op] {
			vs[have[name]] = true // "" when the table lacks it
		}
	}
	out := map[Key]string{}
	for _, k := range tables {
		var s []string
		for _, f := range k.Settings() {
			if len(values[k.Op][f.Name]) > 1 {
				s = append(s, f.Name+"="+f.Value)
			}
		}
		out[k] = strings.Join(s, " ")
	}
	return out
}

// compareSide puts together what one source holds for a key: one value per run.
func compareSide(ix *indexed, k Key) Side {
	pts := ix.points[k]
	if len(pts) == 0 {
		if fs := ix.faults[k]; len(fs) > 0 {
			f := fs[len(fs)-1]
			return Side{State: SideFault, Fault: f.Fault, Detail: f.Detail}
		}
		return Side{State: SideMissing}
	}
	s := Side{State: SideNoValue, Points: len(pts), Window: pts[0].Window}
	type run struct{ times, bws, stderrs []float64 }
	runs := map[string]*run{}
	var order []string
	for _, p := range pts {
		for _, f := range p.Flags {
			if !slices.Contains(s.Flags, f) {
				s.Flags = append(s.Flags, f)
			}
		}
		if p.Reps == 0 || p.TimeS <= 0 {
			continue
		}
		r := runs[p.RunID]
		if r == nil {
			r = &run{}
			runs[p.RunID] = r
			order = append(order, p.RunID)
		}
		r.times = append(r.times, p.TimeS)
		r.stderrs = append(r.stderrs, p.StderrS)
		if p.BandwidthBps != nil {
			r.bws = append(r.bws, *p.BandwidthBps)
		}
		s.Reps += p.Reps
	}
	if len(order) == 0 {
		return s
	}
	var bws, stderrs []float64
	for _, id := range order {
		r := runs[id]
		s.RunTimesS = append(s.RunTimesS, Median(r.times))
		s.RunIDs = append(s.RunIDs, id)
		stderrs = append(stderrs, Median(r.stderrs))
		if len(r.bws) > 0 {
			bws = append(bws, Median(r.bws))
		}
	}
	s.State, s.Runs = SideMeasured, len(order)
	s.TimeS, s.StderrS = Median(s.RunTimesS), Median(stderrs)
	if len(bws) == len(order) {
		s.BandwidthBps = Median(bws)
	}
	return s
}

// Median is the median of x (0 when empty); x is left as it is.
func Median(x []float64) float64 {
	y := slices.Clone(x)
	slices.Sort(y)
	n := len(y)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return y[n/2]
	}
	return (y[n/2-1] + y[n/2]) / 2
}

func compareRow(k Key, label string, b, o Side, baseLabel, otherLabel string, alpha float64) Row {
	r := Row{Key: k, Measurement: label, Op: k.Op, Method: k.Method, MsgBytes: k.MsgBytes, NProcs: k.NProcs,
		Setup: k.String(), Base: b, Other: o, Alpha: alpha, N1: b.Runs, N2: o.Runs}
	if b.State != SideMeasured || o.State != SideMeasured {
		return r
	}
	testRuns(&r, baseLabel, otherLabel)
	return r
}
