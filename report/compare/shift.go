package compare

import (
	"fmt"
	"math"
	"slices"

	"github.com/aclements/go-moremath/stats"
)

// Shift tests a measurement as a whole: did its sizes move together? A row's U test
// over runs cannot reach alpha at 4+4 runs once corrected over many rows (its smallest p
// is 0.029), so a measurement that doubled at every size could pass a gate row by row.
// Each run of a side gives one value, the mean of its log times over the table's
// compared rows (the run's geometric mean over the sizes); Welch's t-test compares the
// two sides' run values (the run stays the unit of replication: the level moves from
// run to run, and the repetitions inside one run do not see that), and the p-values are
// adjusted by Benjamini-Hochberg over the measurements of the comparison.
type Shift struct {
	Tested bool `json:"tested"`
	Rows   int  `json:"rows"` // the compared rows (sizes) it combines
	N1     int  `json:"n1"`   // baseline runs holding every one of them
	N2     int  `json:"n2"`
	// Ratio is the other side's time over the baseline's: the geometric mean over runs
	// of the runs' geometric means over the sizes (above 1 is slower).
	Ratio       float64 `json:"ratio"`
	P           float64 `json:"p"`
	Q           float64 `json:"q"`
	Significant bool    `json:"significant"`
	// Detectable is the smallest change of the time, as a fraction, that this test
	// finds with 80 % power at alpha (before the correction), from the spread between
	// the runs of the two sides: what a clean result does not rule out.
	Detectable float64 `json:"detectable"`
	// Relative: the same test on each run's value less the mean of the run's other
	// measurements (of the same comparison). A busy machine moves a run's measurements
	// together, so between runs the difference is steadier than the value: it finds a
	// measurement that changed alone among unchanged ones at a spread the absolute test
	// cannot see through, and finds nothing when every measurement moved alike (the
	// absolute test's case).
	Relative Relative `json:"relative"`
	Note     string   `json:"note,omitempty"`
	// each side's run values (run id: mean log time), for the relative test
	base, other map[string]float64
	// the absolute test on every run, when hiccups were left out of it (dropHiccups)
	allRuns struct {
		set      bool
		ratio, p float64
	}
}

// Relative is the test of a measurement against the other measurements of its runs.
type Relative struct {
	Tested      bool    `json:"tested"`
	N1          int     `json:"n1"`
	N2          int     `json:"n2"`
	Ratio       float64 `json:"ratio"` // the change beyond the other measurements' (above 1: slower)
	P           float64 `json:"p"`
	Q           float64 `json:"q"`
	Significant bool    `json:"significant"`
	Detectable  float64 `json:"detectable"`
}

// power is the chance of finding a change as large as Shift.Detectable.
const power = 0.8

// Worse reports a significant slowdown of the measurement as a whole: by the absolute
// test, or by the relative one when the absolute change points the same way (a
// measurement that stayed while the others got faster did not regress).
func (s Shift) Worse() bool {
	lr, lp := s.lean()
	return s.Ratio > 1 && s.Significant || s.Relative.Significant && s.Relative.Ratio > 1 && lr > 1 && lp <= SupportP
}

// Better is Worse's mirror.
func (s Shift) Better() bool {
	lr, lp := s.lean()
	return s.Ratio > 0 && s.Ratio < 1 && s.Significant || s.Relative.Significant && s.Relative.Ratio < 1 && lr > 0 && lr < 1 && lp <= SupportP
}

// lean is the absolute test over every run, which backs a relative finding: a test
// that left hiccups out leans more readily either way, and would let an unchanged
// measurement among faster ones pass for a regression.
func (s Shift) lean() (ratio, p float64) {
	if s.allRuns.set {
		return s.allRuns.ratio, s.allRuns.p
	}
	return s.Ratio, s.P
}

// SupportP: a relative finding counts only when the absolute test leans the same way
// (two-sided p at most this, before correction: one-sided 0.05). A measurement that
// stayed while the others of its runs got faster differs from them as much as one that
// slowed among unchanged ones; only its own level tells the two apart.
const SupportP = 0.1

// Regression is the measurement's slowdown in the table's metric, as a fraction: the
// time's increase, or the bandwidth's loss (the same bytes in more time).
func (s Shift) Regression(m Metric) float64 {
	if s.Ratio <= 0 {
		return 0
	}
	if m == MetricBandwidth {
		return 1 - 1/s.Ratio
	}
	return s.Ratio - 1
}

// String is the verdict: "+98.1% (t-test over 4+4 runs' geomeans of 5 sizes, p=0.001
// q=0.004; detectable ±21%)", "~ (...)" when not significant.
func (s Shift) String() string {
	if !s.Tested {
		return s.Note
	}
	delta := "~"
	if s.Worse() || s.Better() {
		delta = Percent(s.Ratio - 1)
	}
	out := fmt.Sprintf("%s (t-test over %d+%d runs' geomeans of %d sizes, p=%.3f q=%.3f; smallest change it detects: %s",
		delta, s.N1, s.N2, s.Rows, s.P, s.Q, fmtDetectable(s.Detectable))
	if r := s.Relative; r.Tested {
		out += fmt.Sprintf("; against the run's other measurements %s, p=%.3f q=%.3f, detects %s", Percent(r.Ratio-1), r.P, r.Q, fmtDetectable(r.Detectable))
	}
	return out + ")"
}

func fmtDetectable(d float64) string {
	if math.IsInf(d, 1) || d > 100 {
		return "none"
	}
	return fmt.Sprintf("±%s", fmtSpread(d))
}

// testShift fills t.Shift from its compared rows.
func testShift(t *Table, alpha float64) {
	var rows []*Row
	for i := range t.Rows {
		if r := &t.Rows[i]; r.Compared() {
			rows = append(rows, r)
		}
	}
	s := &t.Shift
	s.Rows = len(rows)
	if len(rows) == 0 {
		s.Note = "no row compared"
		return
	}
	base := runGeomeans(rows, func(r *Row) Side { return r.Base })
	other := runGeomeans(rows, func(r *Row) Side { return r.Other })
	s.N1, s.N2 = len(base), len(other)
	if s.N1 < 2 || s.N2 < 2 {
		s.Note = fmt.Sprintf("%d+%d runs hold every compared size: the measurement is not tested as a whole", s.N1, s.N2)
		return
	}
	s.base, s.other = base, other
	s.Tested = true
	s.Ratio, s.P, s.Detectable = Welch(values(base), values(other), alpha)
	s.Q = s.P
}

// Welch is Welch's two-sided t-test of two samples of logs: the ratio of their means
// (exp of the difference), p, and the smallest change (a fraction) it finds with the
// power above at alpha. Samples without spread: any difference is certain, none is nothing.
func Welch(base, other []float64, alpha float64) (ratio, p, detectable float64) {
	b, o := stats.Sample{Xs: base}, stats.Sample{Xs: other}
	diff := o.Mean() - b.Mean()
	n1, n2 := float64(len(base)), float64(len(other))
	v1, v2 := b.Variance()/n1, o.Variance()/n2
	se := math.Sqrt(v1 + v2)
	if se == 0 || math.IsNaN(se) {
		if diff != 0 {
			return math.Exp(diff), 0, 0
		}
		return 1, 1, 0
	}
	// Welch-Satterthwaite degrees of freedom.
	df := (v1 + v2) * (v1 + v2) / (v1*v1/(n1-1) + v2*v2/(n2-1))
	dist := stats.TDist{V: df}
	inv := stats.InvCDF(dist)
	return math.Exp(diff), 2 * (1 - dist.CDF(math.Abs(diff)/se)), math.Exp((inv(1-alpha/2)+inv(power))*se) - 1
}

func values(m map[string]float64) []float64 {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]float64, len(ids))
	for i, id := range ids {
		out[i] = m[id]
	}
	return out
}

// testRelative fills each table's Shift.Relative: its run values less the mean of the
// same run's values in the other tables (tables: one other source's). A run none of the
// other tables holds is left out.
func testRelative(tables []Table, alpha float64) {
	side := func(f func(*Shift) map[string]float64) []map[string]float64 {
		out := make([]map[string]float64, len(tables))
		for i := range tables {
			out[i] = f(&tables[i].Shift)
		}
		return out
	}
	bases := side(func(s *Shift) map[string]float64 { return s.base })
	others := side(func(s *Shift) map[string]float64 { return s.other })
	for i := range tables {
		s := &tables[i].Shift
		if !s.Tested {
			continue
		}
		b, o := LessOthers(bases, i), LessOthers(others, i)
		r := &s.Relative
		r.N1, r.N2 = len(b), len(o)
		if r.N1 < 2 || r.N2 < 2 {
			continue
		}
		r.Tested = true
		r.Ratio, r.P, r.Detectable = Welch(values(b), values(o), alpha)
		r.Q = r.P
	}
}

// LessOthers is measurement i's run values (run id: mean log time) less the median of
// the same run's values in the other measurements: what moved in i beyond what moved the
// whole run. A run no other measurement holds is left out.
func LessOthers(runs []map[string]float64, i int) map[string]float64 {
	out := map[string]float64{}
	for id, v := range runs[i] {
		var others []float64
		for j := range runs {
			if w, ok := runs[j][id]; ok && j != i {
				others = append(others, w)
			}
		}
		if len(others) > 0 {
			out[id] = v - Median(others)
		}
	}
	return out
}

// runGeomeans is a side's value per run: the mean of log time over the rows, for each
// run that holds all of them (a run that missed a size would shift its mean by the
// size's level, not by a change).
func runGeomeans(rows []*Row, side func(*Row) Side) map[string]float64 {
	sum := map[string]float64{}
	count := map[string]int{}
	for _, r := range rows {
		s := side(r)
		for i, id := range s.RunIDs {
			sum[id] += math.Log(s.RunTimesS[i])
			count[id]++
		}
	}
	out := map[string]float64{}
	for id, n := range count {
		if n == len(rows) {
			out[id] = sum[id] / float64(len(rows))
		}
	}
	return out
}

// adjustShifts corrects the measurements' p-values for their number, absolute and
// relative tests together (Benjamini-Hochberg, as Adjust does for rows; rows and
// measurements are separate families: a measurement is judged once as a whole, and
// each of its sizes once).
func adjustShifts(tables []Table, alpha float64) {
	type test struct {
		q      *float64
		signif *bool
	}
	var tests []test
	var ps []float64
	for i := range tables {
		s := &tables[i].Shift
		if s.Tested {
			tests = append(tests, test{&s.Q, &s.Significant})
			ps = append(ps, s.P)
		}
		if r := &s.Relative; r.Tested {
			tests = append(tests, test{&r.Q, &r.Significant})
			ps = append(ps, r.P)
		}
	}
	for i, q := range BenjaminiHochberg(ps) {
		*tests[i].q = q
		*tests[i].signif = q <= alpha
	}
}

// detectable is the median over the tested measurements of the tables of the smallest
// change the absolute test finds, and of the one the relative test finds (a measurement
// that changes alone); ok is false when no measurement was tested.
func detectable(tables []Table) (whole, alone float64, ok bool) {
	var w, a []float64
	for _, t := range tables {
		if t.Shift.Tested {
			w = append(w, t.Shift.Detectable)
		}
		if t.Shift.Relative.Tested {
			a = append(a, t.Shift.Relative.Detectable)
		}
	}
	if len(w) == 0 {
		return 0, 0, false
	}
	alone = math.Inf(1)
	if len(a) > 0 {
		alone = Median(a)
	}
	return Median(w), alone, true
}
