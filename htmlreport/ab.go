package htmlreport

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/compare"
)

// An A/B report: sources given two or more labels ("before=a before=b after=c ...").
// It is read for its verdict, so the comparison comes first, as a table whose verdicts
// are compare's (Row.Better, Row.Worse, Shift); the provenance follows once per label,
// with what differs between labels marked; figures are by label (plots' overlay of
// sides); each run's own tables stay collapsed.

// Side is one label of an A/B report and the runs read under it, the baseline first.
type Side struct {
	Label  string
	RunIDs []string
}

// compareView is the comparison as the page shows it.
type compareView struct {
	Baseline string
	Others   []string
	Totals   []string // one line per other label: what was found
	Changed  []string // each significant change, the measurements as a whole first
	Detect   string   // how large a change these runs can find ("" when nothing was tested)
	Tables   []cmpTable
}

// cmpTable is one measurement of one other label against the baseline.
type cmpTable struct {
	Title    string // measurement (op, method, settings), processes
	Baseline string
	Other    string
	Quantity string // the compared value with its unit: "round-trip time [µs]"
	Procs    bool   // a column for the process count (the table spans several)
	Whole    *cmpRow
	Rows     []cmpRow
}

// cmpRow is one setup: the baseline's and the other's value (median over runs, ± the
// largest deviation of a run), their ratio, the test and its verdict.
type cmpRow struct {
	Size, Procs   string
	Before, After string
	Ratio         string
	Test          string
	Verdict       string
	Class         string // slower, faster, same, untested, missing: the verdict's colour
}

func compareSection(c *compare.Comparison) *compareView {
	v := &compareView{Baseline: c.Baseline, Others: c.Others}
	for _, t := range c.Totals {
		line := fmt.Sprintf("%s vs %s: %s compared, %d significantly different (%d faster, %d slower)",
			t.Other, c.Baseline, report.Count(t.Compared, "setup"), t.Significant, t.Better, t.Worse)
		if t.Untested > 0 {
			line += fmt.Sprintf(", %d not tested (fewer than %d runs a side)", t.Untested, compare.RunsNeeded(c.Alpha))
		}
		if t.OnlyBase+t.OnlyOther > 0 {
			line += fmt.Sprintf(", %d measured on one side only", t.OnlyBase+t.OnlyOther)
		}
		if t.Compared > 0 {
			line += "; geometric mean of the time ratios " + fmt.Sprintf("%.3f", t.Geomean)
		}
		v.Totals = append(v.Totals, line)
	}
	// The gate at 0 % decides nothing here; its detectable change says what a clean
	// result does not rule out.
	if g := (compare.Gate{}).Check(c); g.HaveDetectable {
		v.Detect = fmt.Sprintf("With these runs a measurement as a whole must change by about %s to be found (median over measurements; %s when it changes alone among the others). Significance: Mann-Whitney U test over the runs of each side, p adjusted over the rows tested (q), alpha %g.",
			pct(g.Detectable), pct(g.DetectableAlone), c.Alpha)
	}
	var rows []string
	for i := range c.Tables {
		ct := cmpTableOf(&c.Tables[i])
		v.Tables = append(v.Tables, ct)
		name := ct.Title
		if len(c.Others) > 1 {
			name = ct.Other + ": " + name
		}
		if w := ct.Whole; w != nil && (w.Class == "slower" || w.Class == "faster") {
			v.Changed = append(v.Changed, name+", all sizes: "+w.Verdict)
		}
		for _, r := range ct.Rows {
			if r.Class == "slower" || r.Class == "faster" {
				rows = append(rows, name+", "+r.Size+": "+r.Verdict)
			}
		}
	}
	v.Changed = append(v.Changed, rows...)
	return v
}

// spread is a relative spread as compare prints it: one decimal below 10 %.
func spread(rel float64) string {
	if p := 100 * rel; p < 10 {
		return fmt.Sprintf("%.1f%%", p)
	}
	return fmt.Sprintf("%.0f%%", 100*rel)
}

func pct(x float64) string {
	if math.IsInf(x, 0) || x > 100 {
		return "no finite change"
	}
	return fmt.Sprintf("±%.0f%%", 100*x)
}

func cmpTableOf(t *compare.Table) cmpTable {
	ct := cmpTable{Baseline: t.Baseline, Other: t.Other}
	procs := map[int]bool{}
	var values []float64
	for _, r := range t.Rows {
		procs[r.NProcs] = true
		for _, s := range []compare.Side{r.Base, r.Other} {
			if v := s.Value(t.Metric); v > 0 {
				values = append(values, v)
			}
		}
	}
	ct.Procs = len(procs) > 1
	title := t.Heading()
	if len(procs) == 1 && len(t.Rows) > 0 {
		title += fmt.Sprintf(", %d processes", t.Rows[0].NProcs)
		if t.Rows[0].NProcs == 1 {
			title = strings.TrimSuffix(title, "es")
		}
	}
	ct.Title = title
	u := unitOf(t.Metric == compare.MetricBandwidth, values)
	what := "time"
	switch {
	case t.Metric == compare.MetricBandwidth:
		what = "bandwidth"
	case roundTrip(t.Op):
		what = "round-trip time"
	}
	ct.Quantity = what + " [" + u.Name + "]"
	cell := func(s compare.Side) string {
		switch s.State {
		case compare.SideMissing:
			return "missing"
		case compare.SideFault:
			return "fault: " + s.Fault
		case compare.SideNoValue:
			return "no valid repetition"
		}
		return u.format(s.Value(t.Metric)) + " ± " + spread(s.RelSpread())
	}
	for _, r := range t.Rows {
		row := cmpRow{Size: report.Bytes(r.MsgBytes), Procs: strconv.Itoa(r.NProcs), Before: cell(r.Base), After: cell(r.Other),
			Test: r.Test()}
		if r.Compared() {
			row.Ratio = fmt.Sprintf("%.3f", r.Ratio)
		}
		row.Verdict, row.Class = verdict(r.Compared(), r.Tested, r.Better(), r.Worse(), r.Change(), r.N1, r.N2)
		if !r.Compared() {
			row.Verdict = "not compared"
			if r.Base.State == compare.SideMissing || r.Other.State == compare.SideMissing {
				row.Class = "missing"
			}
		}
		ct.Rows = append(ct.Rows, row)
	}
	if s := t.Shift; s.Tested || s.Rows > 1 {
		// The cells and the ratio are the geometric means over the sizes of the rows'
		// values; the test's own estimate (over each run's geometric mean) is beside it.
		ratio := t.Geomean.Ratio
		w := cmpRow{Size: "all sizes", Before: u.format(t.Geomean.Base) + " (geomean)", After: u.format(t.Geomean.Other) + " (geomean)"}
		if ratio > 0 {
			w.Ratio = fmt.Sprintf("%.3f", ratio)
		}
		if s.Tested {
			w.Test = fmt.Sprintf("t-test of the runs' geomeans (time ratio %.3f), p=%.3f q=%.3f n=%d+%d", s.Ratio, s.P, s.Q, s.N1, s.N2)
		} else {
			w.Test = s.Note
		}
		w.Verdict, w.Class = verdict(ratio > 0, s.Tested, s.Better(), s.Worse(), ratio-1, s.N1, s.N2)
		ct.Whole = &w
	}
	return ct
}

// verdict is a row's word and class from compare's own judgement (never re-derived).
func verdict(compared, tested, better, worse bool, change float64, n1, n2 int) (string, string) {
	switch {
	case !compared:
		return "not compared", "missing"
	case worse:
		return "slower " + compare.Percent(math.Abs(change)), "slower"
	case better:
		return "faster " + compare.Percent(math.Abs(change)), "faster"
	case !tested:
		return fmt.Sprintf("not tested (%d+%d runs)", n1, n2), "untested"
	}
	return "no significant change", "same"
}

// unit is a display unit of a table's column: value in base units / Div.
type unit struct {
	Name string
	Div  float64
}

// unitOf picks the unit the smallest value reads best in (times), or the largest
// (bandwidths), so that a column has one unit, named in its header.
func unitOf(rate bool, values []float64) unit {
	if rate {
		var hi float64
		for _, v := range values {
			hi = math.Max(hi, v)
		}
		if hi >= 1e9 {
			return unit{"GB/s", 1e9}
		}
		return unit{"MB/s", 1e6}
	}
	lo := math.Inf(1)
	for _, v := range values {
		if v > 0 {
			lo = math.Min(lo, v)
		}
	}
	switch {
	case lo < 1e-6 || math.IsInf(lo, 1):
		return unit{"ns", 1e-9}
	case lo < 1e-3:
		return unit{"µs", 1e-6}
	case lo < 1:
		return unit{"ms", 1e-3}
	}
	return unit{"s", 1}
}

// format prints v in the unit with four significant digits, never in exponent form.
func (u unit) format(v float64) string {
	x := v / u.Div
	switch a := math.Abs(x); {
	case a == 0:
		return "0"
	case a >= 1000:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case a >= 100:
		return strconv.FormatFloat(x, 'f', 1, 64)
	case a >= 10:
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}
