// Package compare sets result files against a baseline as benchstat does for Go
// benchmarks run with -count: the runs of each side are the samples, compared with
// Mann-Whitney U tests corrected for the number of points tested; ratios and geomeans
// per measurement. It lives outside report so that the sinks a run writes through do
// not depend on the statistics.
package compare

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// Metric is the quantity a comparison takes the ratio of.
type Metric string

const (
	MetricTime      Metric = "time"      // time_s: a ratio above 1 is slower
	MetricBandwidth Metric = "bandwidth" // bandwidth_Bps: a ratio above 1 is faster
)

// DefaultAlpha is the significance level of comparisons, as benchstat's.
const DefaultAlpha = 0.05

// Options configure Compare. The zero value compares times at alpha 0.05.
type Options struct {
	Alpha  float64 // a difference is significant when its adjusted p (Row.Q) <= Alpha
	Metric Metric  // MetricTime or MetricBandwidth
	// Ignore names settings of record.Setup (its JSON names: "window", "hold_s") left
	// out of the keys: what a tune sweeps differs between the sides by design.
	Ignore []string
}

// Labelled is one source of a comparison: its label (from report.Source.Label) and results.
type Labelled struct {
	Label   string
	Results *report.Results
}

// Comparison is every other source compared with the first, the baseline.
type Comparison struct {
	Baseline string   `json:"baseline"`
	Others   []string `json:"others"`
	Alpha    float64  `json:"alpha"`
	Metric   Metric   `json:"metric"` // the requested metric; see Table.Metric
	Tables   []Table  `json:"tables"` // for each other source in order, one table per measurement
	Totals   []Totals `json:"totals"` // one per other source, in order
	Notes    []string `json:"notes,omitempty"`
}

// Table compares one measurement of one source (Other) with the baseline: the
// data of a benchstat table, and of a ratio-vs-size figure (Rows[i].MsgBytes, Ratio,
// Significant). Rows are sorted by process count, then size.
type Table struct {
	Baseline    string `json:"baseline"` // labels of the two sources
	Other       string `json:"other"`
	Measurement string `json:"measurement"` // the label of the first row
	Op          string `json:"op"`
	Method      string `json:"method,omitempty"`
	// Settings: the setup's settings that differ between the tables of the comparison
	// ("window=64"), so that a title tells two tables of one operation apart.
	Settings string `json:"settings,omitempty"`
	Key      Key    `json:"-"` // the setup without size and process count
	// Metric the ratios are of: the requested one, or time when a compared row lacks a
	// bandwidth on either side (latency operations report none).
	Metric  Metric  `json:"metric"`
	Rows    []Row   `json:"rows"`
	Geomean Geomean `json:"geomean"`
	Shift   Shift   `json:"shift"` // the measurement tested as a whole
}

// Geomean is the geometric mean of a table's compared rows, as benchstat's last line:
// of the baseline values, of the other values and of the ratios (the ratio of the first
// two). N is 0, and the means are 0, when no row could be compared.
type Geomean struct {
	Base  float64 `json:"base"`
	Other float64 `json:"other"`
	Ratio float64 `json:"ratio"`
	N     int     `json:"n"`
}

// Key is what a row compares: a setup (operation, method, size, process count and the
// settings that change the number), whatever the measurement is called. Measurement is
// set only when one run holds two measurements of the same setup (the same Reduce with
// two data types, which the record does not tell apart): the name then keeps them apart.
type Key struct {
	record.Setup
	Measurement string
}

// String is the key as name=value pairs: "op=Put method=lock_all msg_bytes=8 nprocs=2 ...".
func (k Key) String() string {
	var b strings.Builder
	for i, f := range k.Fields() {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.Name + "=" + f.Value)
	}
	if k.Measurement != "" {
		b.WriteString(" measurement=" + k.Measurement)
	}
	return b.String()
}

// Table is the key of a row's table: the setup without size and process count.
func (k Key) Table() Key {
	k.MsgBytes, k.NProcs = 0, 0
	return k
}

// Row is one key: what the baseline and the other source hold for it.
type Row struct {
	Key         Key    `json:"-"`
	Measurement string `json:"measurement"` // the label: the baseline's name, else the other's
	Op          string `json:"op"`
	Method      string `json:"method,omitempty"`
	MsgBytes    int64  `json:"msg_bytes"`
	NProcs      int    `json:"nprocs"`
	Setup       string `json:"setup"` // Key.String()
	Base        Side   `json:"base"`
	Other       Side   `json:"other"`
	Metric      Metric `json:"metric"` // the table's
	// Ratio is Other/Base of the metric's central values; 0 when the row is not compared
	// (a side missing, faulted or without a valid repetition).
	Ratio float64 `json:"ratio"`
	// A run is the unit of replication: the repetitions of one run share its level,
	// which moves from run to run. Tested: both sides hold at least two runs; P is the
	// Mann-Whitney U test of the runs' values (benchmath's AssumeNothing), Q that p
	// adjusted by Benjamini-Hochberg over every tested row of the comparison.
	Tested      bool     `json:"tested"`
	P           float64  `json:"p"`
	Q           float64  `json:"q"`
	N1          int      `json:"n1"` // runs of the baseline
	N2          int      `json:"n2"` // runs of the other source
	Alpha       float64  `json:"alpha"`
	Significant bool     `json:"significant"` // Tested and Q <= Alpha
	Notes       []string `json:"notes,omitempty"`
}

// Compared reports whether both sides have a value, so that Ratio means something.
func (r Row) Compared() bool { return r.Ratio > 0 }

// Change is the relative change of the metric, Ratio - 1 (0.031 for +3.1 %).
func (r Row) Change() float64 {
	if !r.Compared() {
		return 0
	}
	return r.Ratio - 1
}

// Better reports a significant improvement: less time, or more bandwidth.
func (r Row) Better() bool {
	if !r.Significant {
		return false
	}
	if r.Metric == MetricBandwidth {
		return r.Ratio > 1
	}
	return r.Ratio < 1
}

// Worse reports a significant regression: more time, or less bandwidth.
func (r Row) Worse() bool { return r.Significant && r.Ratio != 1 && !r.Better() }

// Regression is how much worse the other side is, as a fraction: the time's increase,
// or the bandwidth's loss; 0 or less when it is not worse.
func (r Row) Regression() float64 {
	if !r.Compared() {
		return 0
	}
	if r.Metric == MetricBandwidth {
		return 1 - r.Ratio
	}
	return r.Ratio - 1
}

// Verdict is the "vs base" cell: "+3.1% (p=0.008 q=0.021 n=5+5)" for a significant
// change, "~ (p=0.310 q=0.620 n=5+5)" when it is not, "+3.1% (1+1 runs: not tested)"
// when a side has a single run, and "not compared" when a side has no value.
func (r Row) Verdict() string {
	if !r.Compared() {
		return "not compared"
	}
	return r.Delta() + " (" + r.Test() + ")"
}

// Delta is the change as benchstat prints it: "~" when not significant, else the
// change in percent ("+3.1%"); untested changes are printed too. "" when not compared.
func (r Row) Delta() string {
	switch {
	case !r.Compared():
		return ""
	case r.Tested && !r.Significant:
		return "~"
	}
	return Percent(r.Change())
}

// Test is the test behind the verdict: "p=0.008 q=0.021 n=5+5", "1+1 runs: not tested",
// or "".
func (r Row) Test() string {
	switch {
	case !r.Compared():
		return ""
	case !r.Tested:
		return fmt.Sprintf("%d+%d runs: not tested", r.N1, r.N2)
	}
	return fmt.Sprintf("p=%.3f q=%.3f n=%d+%d", r.P, r.Q, r.N1, r.N2)
}

// Percent is a change as a signed percentage with one decimal: "+3.1%".
func Percent(x float64) string {
	if math.Abs(x) < 0.0005 {
		return "0.0%" // not "-0.0%"
	}
	return fmt.Sprintf("%+.1f%%", 100*x)
}

// SideState says what a source holds for a row.
type SideState string

const (
	SideMeasured SideState = "measured"      // one or more points with valid repetitions
	SideMissing  SideState = "missing"       // no point, no fault
	SideFault    SideState = "fault"         // a fault record and no point: Fault says which
	SideNoValue  SideState = "no_valid_reps" // points without a single valid repetition
)

// Side is what one source holds for a row. Each run (run id) with a valid point is one
// sample: its value is the point's time_s (the median of its points when a run measured
// the key more than once); the side's central value is the median over its runs.
type Side struct {
	State SideState `json:"state"`
	// TimeS is the median over runs of time_s (SKaMPI's mean of the middle half of a
	// run's repetitions). StderrS is the within-run standard error (of a single run's
	// point; the median of the runs' otherwise).
	TimeS        float64   `json:"time_s"`
	StderrS      float64   `json:"stderr_s"`
	BandwidthBps float64   `json:"bandwidth_Bps,omitempty"` // 0 for operations without
	Runs         int       `json:"runs"`                    // runs with a valid point
	RunTimesS    []float64 `json:"run_times_s,omitempty"`   // each run's value, in the order read
	RunIDs       []string  `json:"run_ids,omitempty"`       // and its run
	Reps         int       `json:"reps"`                    // repetitions, every run's together
	Points       int       `json:"points"`                  // points read (0 when none)
	Window       int       `json:"window,omitempty"`
	Flags        []string  `json:"flags,omitempty"`
	Fault        string    `json:"fault,omitempty"` // fault kind when State is SideFault
	Detail       string    `json:"detail,omitempty"`
}

// Value is the side's central value of a metric (0 when it has none).
func (s Side) Value(m Metric) float64 {
	if m == MetricBandwidth {
		return s.BandwidthBps
	}
	return s.TimeS
}

// RelSpread is the side's spread relative to its time: with several runs, the largest
// distance of a run from the median (what moves between runs); with one run, its
// relative standard error (the within-run spread, which understates the first). It is
// also, to first order, the relative spread of the bandwidth. 0 when unknown.
func (s Side) RelSpread() float64 {
	if s.TimeS <= 0 {
		return 0
	}
	if len(s.RunTimesS) > 1 {
		var d float64
		for _, v := range s.RunTimesS {
			d = math.Max(d, math.Abs(v-s.TimeS))
		}
		return d / s.TimeS
	}
	return s.StderrS / s.TimeS
}

// ErrNothingInCommon: two sources share no point to compare (wrapped with what they
// hold instead).
var ErrNothingInCommon = errors.New("no point in common")

// Compare compares every source after the first with the first. Rows are the union of
// the keys (Key: the setups) of the baseline and the other source, points and faults
// alike, so nothing is dropped silently. It fails for fewer than two sources, and when
// a source shares no key with the baseline.
func Compare(sources []Labelled, opt Options) (*Comparison, error) {
	if len(sources) < 2 {
		return nil, fmt.Errorf("a comparison needs at least two sources (the first is the baseline), got %d", len(sources))
	}
	if opt.Alpha == 0 {
		opt.Alpha = DefaultAlpha
	}
	if !(opt.Alpha > 0 && opt.Alpha < 1) {
		return nil, fmt.Errorf("alpha must be between 0 and 1, got %g", opt.Alpha)
	}
	switch opt.Metric {
	case "":
		opt.Metric = MetricTime
	case MetricTime, MetricBandwidth:
	default:
		return nil, fmt.Errorf("unknown metric %q (time, bandwidth)", opt.Metric)
	}
	c := &Comparison{Baseline: sources[0].Label, Alpha: opt.Alpha, Metric: opt.Metric}
	for _, src := range sources[1:] {
		m := newMatcher([]*report.Results{sources[0].Results, src.Results}, opt.Ignore)
		base, other := m.index(sources[0].Results), m.index(src.Results)
		if !base.overlaps(other) {
			return nil, fmt.Errorf("%s and %s have %w: %s", sources[0].Label, src.Label, ErrNothingInCommon, base.mismatch(other))
		}
		c.Others = append(c.Others, src.Label)
		if len(m.dropped) > 0 {
			c.Notes = append(c.Notes, fmt.Sprintf("%s vs %s: only one side records %s: points are matched without it", src.Label, sources[0].Label, strings.Join(m.dropped, ", ")))
		}
		tables := compareIndexed(sources[0].Label, src.Label, base, other, opt)
		Adjust(tables, opt.Alpha)
		testRelative(tables, opt.Alpha) // on every run: it subtracts a run's level
		dropHiccups(tables, opt.Alpha)
		adjustShifts(tables, opt.Alpha)
		c.Tables = append(c.Tables, tables...)
		c.Totals = append(c.Totals, compareTotals(src.Label, tables))
	}
	return c, nil
}

// Totals sums up one other source's comparison with the baseline.
type Totals struct {
	Other       string `json:"other"`
	Rows        int    `json:"rows"`
	Compared    int    `json:"compared"`
	Significant int    `json:"significant"`
	Better      int    `json:"better"`
	Worse       int    `json:"worse"`
	Untested    int    `json:"untested"`   // compared, but a side has fewer than two runs
	Tested      int    `json:"tested"`     // compared and tested: the rows the correction counts
	OnlyBase    int    `json:"only_base"`  // missing in the other source
	OnlyOther   int    `json:"only_other"` // missing in the baseline
	Faults      int    `json:"faults"`     // rows with a fault on either side
	// Geomean of the time ratios (other/baseline) over every compared row of every
	// measurement, whatever the metric: below 1 is faster.
	Geomean float64 `json:"geomean"`
}

func compareTotals(other string, tables []Table) Totals {
	t := Totals{Other: other}
	var logs float64
	for _, tb := range tables {
		for _, r := range tb.Rows {
			t.Rows++
			switch {
			case r.Compared():
				t.Compared++
				logs += math.Log(r.Other.TimeS / r.Base.TimeS)
			case r.Other.State == SideMissing:
				t.OnlyBase++
			case r.Base.State == SideMissing:
				t.OnlyOther++
			}
			if r.Base.State == SideFault || r.Other.State == SideFault {
				t.Faults++
			}
			if r.Tested {
				t.Tested++
			}
			if r.Compared() && !r.Tested {
				t.Untested++
			}
			if r.Significant {
				t.Significant++
			}
			if r.Better() {
				t.Better++
			}
			if r.Worse() {
				t.Worse++
			}
		}
	}
	if t.Compared > 0 {
		t.Geomean = math.Exp(logs / float64(t.Compared))
	}
	return t
}
