// Package compare sets result files against a baseline as benchstat does for Go
// benchmarks: ratios, Mann-Whitney U tests and geomeans per measurement. It lives
// outside report so that the sinks a run writes through do not depend on the statistics.
package compare

import (
	"errors"
	"fmt"
	"math"

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
	Alpha  float64 // a difference is significant when the U test's p <= Alpha
	Metric Metric  // MetricTime or MetricBandwidth
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
}

// Table compares one measurement of one source (Other) with the baseline: the
// data of a benchstat table, and of a ratio-vs-size figure (Rows[i].MsgBytes, Ratio,
// Significant). Rows are sorted by process count, then size.
type Table struct {
	Baseline    string `json:"baseline"` // labels of the two sources
	Other       string `json:"other"`
	Measurement string `json:"measurement"`
	Op          string `json:"op"` // the operation of the first row
	// Metric the ratios are of: the requested one, or time when a compared row lacks a
	// bandwidth on either side (latency operations report none).
	Metric  Metric  `json:"metric"`
	Rows    []Row   `json:"rows"`
	Geomean Geomean `json:"geomean"`
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

// Row is one (measurement, op, msg_bytes, nprocs) of the baseline, the other
// source or both.
type Row struct {
	Measurement string `json:"measurement"`
	Op          string `json:"op"`
	MsgBytes    int64  `json:"msg_bytes"`
	NProcs      int    `json:"nprocs"`
	Base        Side   `json:"base"`
	Other       Side   `json:"other"`
	Metric      Metric `json:"metric"` // the table's
	// Ratio is Other/Base of the metric's central values; 0 when the row is not compared
	// (a side missing, faulted or without a valid repetition).
	Ratio float64 `json:"ratio"`
	// The Mann-Whitney U test of the two sides' repetition times (benchmath's
	// AssumeNothing). Tested is false when a side stores no repetitions (an imported
	// .sko file): the row is then never significant, and Notes say why.
	Tested      bool     `json:"tested"`
	P           float64  `json:"p"`
	N1          int      `json:"n1"`
	N2          int      `json:"n2"`
	Alpha       float64  `json:"alpha"`
	Significant bool     `json:"significant"` // Tested and P <= Alpha
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

// Verdict is the "vs base" cell: "+3.1% (p=0.002 n=8+8)" for a significant change,
// "~ (p=0.450 n=8+8)" when it is not significant, "+3.1% (not tested)" without
// repetitions, and "not compared" when a side has no value.
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
	return fmtPercent(r.Change())
}

// Test is the test behind the verdict: "p=0.002 n=8+8", "not tested", or "".
func (r Row) Test() string {
	switch {
	case !r.Compared():
		return ""
	case !r.Tested:
		return "not tested"
	}
	return fmt.Sprintf("p=%.3f n=%d+%d", r.P, r.N1, r.N2)
}

func fmtPercent(x float64) string {
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

// Side is what one source holds for a row. When a source has several points for
// the key (several runs in one file), they are pooled: the central values are the mean
// of theirs, the repetitions are put together.
type Side struct {
	State SideState `json:"state"`
	// TimeS is the central time: the point's time_s (SKaMPI's mean of the middle half
	// of the repetitions). StderrS is its standard error.
	TimeS        float64   `json:"time_s"`
	StderrS      float64   `json:"stderr_s"`
	BandwidthBps float64   `json:"bandwidth_Bps,omitempty"` // 0 for operations without
	Reps         int       `json:"reps"`
	Samples      []float64 `json:"samples_s,omitempty"` // every repetition's time, pooled
	Points       int       `json:"points"`              // points pooled (0 when none)
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

// RelSpread is the relative standard error of the central time, stderr_s / time_s,
// the quantity SKaMPI's stop rule bounds (0 when unknown). It is also, to first order,
// the relative error of the bandwidth.
func (s Side) RelSpread() float64 {
	if s.TimeS <= 0 {
		return 0
	}
	return s.StderrS / s.TimeS // as record.Point.RelStderr
}

// Compare compares every source after the first with the first. Rows are the union of
// the keys (measurement, op, msg_bytes, nprocs) of the baseline and the other source,
// points and faults alike, so nothing is dropped silently. It fails for fewer than two
// ErrNothingInCommon: two sources share no point to compare (wrapped with what they
// hold instead).
var ErrNothingInCommon = errors.New("no point in common")

// sources, and when a source shares no key with the baseline.
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
	base := indexResults(sources[0].Results)
	c := &Comparison{Baseline: sources[0].Label, Alpha: opt.Alpha, Metric: opt.Metric}
	for _, src := range sources[1:] {
		other := indexResults(src.Results)
		if !base.overlaps(other) {
			return nil, fmt.Errorf("%s and %s have %w: %s", sources[0].Label, src.Label, ErrNothingInCommon, base.mismatch(other))
		}
		c.Others = append(c.Others, src.Label)
		tables := compareIndexed(sources[0].Label, src.Label, base, other, opt)
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
	Untested    int    `json:"untested"`   // compared without repetitions to test
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
