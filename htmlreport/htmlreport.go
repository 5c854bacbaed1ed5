// Package htmlreport writes one self-contained HTML page from result records: run
// provenance, per-measurement figures (inline SVG) and tables, flagged points and
// faults, the overlap breakdowns of non-blocking operations, protocol analyses and
// comparisons. Nothing is loaded from the network.
package htmlreport

import (
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/analyze"
	"github.com/skampi/skampi/report/compare"
)

//go:embed page.html.tmpl
var pageText string

// Figure is a rendered figure (inline SVG) with its caption.
type Figure struct {
	Title   string
	Caption string
	Kind    string // the plots kind that made it ("" if none): overlap kinds go to their own section
	SVG     []byte
}

// Table is a preformatted text table (comparisons), shown as it is printed.
type Table struct {
	Title string
	Text  string
}

// Input is everything the page shows.
type Input struct {
	Title       string
	Sources     []report.Source
	Results     *report.Results
	Figures     []Figure
	NotDrawn    []string // figures left out, each with why (their data could not make one)
	Comparisons []Table
	// Lead is shown first, before the runs: what the page is for (a tuning verdict). Its
	// long lines wrap at the page's edge rather than run past it.
	Lead *Table
	// Sides and Comparison make an A/B report (ab.go): the labels, the baseline first,
	// with their runs, and their comparison, which the page then leads with.
	Sides      []Side
	Comparison *compare.Comparison
	Generated  time.Time
}

type runView struct {
	record.Run
	EnvKeys []string
}

type measurementView struct {
	Name      string
	RunID     string
	Op        string
	RoundTrip bool // a ping-pong: one-way latency first, the round trip beside it
	// Time and Rate are the table's units, named in its headers, so that a column
	// reads as numbers in one unit.
	Time, Rate unit
	HasRate    bool   // a point reports a bandwidth: the table has its column
	Settings   string // the settings its points share (record.Setup.Settings)
	Points     []record.Point
	// PVars: the performance variables (the setting pvars) that vary over its points,
	// each shown per point summed over its elements (per peer for monitoring variables).
	PVars []string
}

type pageView struct {
	Input
	Runs         []runView
	Figures      []Figure     // Input.Figures but those shown in the overlap section
	Overlap      *overlapView // nil: no point has an overlap breakdown
	Measurements []measurementView
	Flagged      []record.Point
	Faults       []record.Fault
	FlagCounts   []flagCount
	Analyses     []analyze.Breakdown
	Problems     []report.Problem
	// An A/B report's: the comparison, the provenance by label, and each label's
	// measurement tables (collapsed).
	Compare    *compareView
	Provenance *sideProvenance
	BySide     []sideMeasurements
}

type sideMeasurements struct {
	Label        string
	Runs         int
	Measurements []measurementView
}

type flagCount struct {
	Flag, Meaning string
	Count         int
}

// flagMeaning explains each flag where it is summarised.
var flagMeaning = map[string]string{
	record.FlagMaxReps:      "stopped at max_repetitions with the standard error above its target",
	record.FlagTimeCap:      "stopped by max_time_per_point",
	record.FlagDiscardCap:   "stopped by too many invalid repetitions",
	record.FlagOverrun:      "a repetition ran far longer than the fastest (the machine slowed down): the rest were not run",
	record.FlagFewReps:      "fewer valid repetitions than min_repetitions",
	record.FlagNoValidReps:  "no valid repetition: no time",
	record.FlagPairFallback: "the requested pair selection was impossible; ranks 0 and 1 measured",
	record.FlagNegative:     "the subtracted part took at least as long as the whole",
	record.FlagPipelined:    "a collective called back to back: successive calls overlap",
	// Non-blocking overlap breakdowns.
	record.FlagRatioClamped:     "the overlap ratio fell outside [0, 1] and was clamped; overlap_ratio_raw has the measured value",
	record.FlagComputeOffTarget: "the computation between post and completion ran more than 25% off its target",
	record.FlagFullMismatch:     "post + wait and the full operation, measured apart, disagree beyond their errors",
	record.FlagBreakdownMissing: "no breakdown: the full operation had no positive time, or a part had fewer than two valid repetitions; only the full operation's time is reported",
	record.FlagLockNotHeld:      "Lock_Held's waiters waited less than half the hold: the lock was not held as long as asked",
	record.FlagNoisy:            "another process took a participating rank's core during the point (preemptions): its time stands, relations between its parts or with other points may not",
	record.FlagTransient:        "the first repetitions ran in another state than the rest (a transient) and were dropped before the point converged; transient_reps says how many",
	record.FlagUnsteady:         "the samples drift or split (unsteady says how): the point was refused convergence and stopped at a cap",
	record.FlagDrift:            "the level moved while the point was measured: its batch means' error (batch_stderr_s) is over twice stderr_s, which then understates what a second run shows",
}

var funcs = template.FuncMap{
	"seconds": report.Seconds,
	"bytes":   report.Bytes,
	"relerr": func(p record.Point) string {
		if r, ok := p.RelStderr(); ok {
			return fmt.Sprintf("%.1f%%", 100*r)
		}
		return "-"
	},
	"join": strings.Join,
	"svg":  func(b []byte) template.HTML { return template.HTML(b) }, // rendered by gonum: trusted
	"pct":  func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) },
	"in":   func(v float64, u unit) string { return u.format(v) },
	"inp": func(v *float64, u unit) string { // a record without the field: nothing made up
		if v == nil {
			return "-"
		}
		return u.format(*v)
	},
	"nsPerByte": func(x float64) string {
		return fmt.Sprintf("%.4g ns/B", x*1e9)
	},
	"bw":   func(r analyze.Regime) string { return report.Rate(r.BandwidthBps()) },
	"time": func(t time.Time) string { return t.Format("2006-01-02 15:04:05 MST") },
	"inc":  func(i int) int { return i + 1 },
	"dec":  func(i int) int { return i - 1 },
	"pvar": func(p record.Point, name string) string {
		v, ok := p.PVars[name]
		if !ok {
			return "-"
		}
		var sum float64
		for _, x := range v {
			sum += x
		}
		return fmt.Sprintf("%.6g", sum)
	},
	"breakpoint": func(b analyze.Breakdown, i int) string {
		return report.Bytes(b.Regimes[i+1].FromBytes) + b.Resolution[i]
	},
	"changes": func(b analyze.Breakdown, i int) []analyze.PVarChange {
		if i < len(b.Changes) {
			return b.Changes[i]
		}
		return nil
	},
}

var page = template.Must(template.New("page").Funcs(funcs).Parse(pageText))

// Write renders the page.
func Write(w io.Writer, in Input) error {
	if in.Results == nil {
		return fmt.Errorf("no results to report")
	}
	if in.Title == "" {
		in.Title = "skampi report"
	}
	v := pageView{Input: in, Analyses: analyze.Analyze(in.Results), Faults: in.Results.Faults, Problems: in.Results.Problems}
	v.Overlap = overlapSection(in.Results, in.Figures)
	for _, f := range in.Figures {
		if v.Overlap == nil || !overlapKinds[f.Kind] {
			v.Figures = append(v.Figures, f)
		}
	}
	for _, r := range in.Results.Runs {
		rv := runView{Run: r}
		for k := range r.Env {
			rv.EnvKeys = append(rv.EnvKeys, k)
		}
		sort.Strings(rv.EnvKeys)
		v.Runs = append(v.Runs, rv)
	}
	index := map[string]int{}
	for _, p := range in.Results.Points {
		k := p.RunID + "\x00" + p.Measurement
		i, ok := index[k]
		if !ok {
			i = len(v.Measurements)
			index[k] = i
			v.Measurements = append(v.Measurements, measurementView{Name: p.Measurement, RunID: p.RunID, Op: p.Op})
		}
		v.Measurements[i].Points = append(v.Measurements[i].Points, p)
		v.Measurements[i].RoundTrip = v.Measurements[i].RoundTrip || p.LatencyS != nil || roundTrip(p.Op)
		if len(p.Flags) > 0 {
			v.Flagged = append(v.Flagged, p)
		}
		for _, f := range p.Flags {
			i := slices.IndexFunc(v.FlagCounts, func(c flagCount) bool { return c.Flag == f })
			if i < 0 {
				i = len(v.FlagCounts)
				v.FlagCounts = append(v.FlagCounts, flagCount{Flag: f, Meaning: flagMeaning[f]})
			}
			v.FlagCounts[i].Count++
		}
	}
	for i := range v.Measurements {
		m := &v.Measurements[i]
		if slices.ContainsFunc(m.Points, func(p record.Point) bool { return p.Refined }) {
			// Refined sizes come after the listed ones: the table reads by size.
			slices.SortStableFunc(m.Points, func(a, b record.Point) int {
				return cmp.Or(cmp.Compare(a.Method, b.Method), cmp.Compare(a.NProcs, b.NProcs), cmp.Compare(a.MsgBytes, b.MsgBytes))
			})
		}
		v.Measurements[i].Settings = sharedSettings(v.Measurements[i].Points)
		v.Measurements[i].PVars = varying(v.Measurements[i].Points)
		m.Time, m.Rate = tableUnits(m.Points)
		m.HasRate = slices.ContainsFunc(m.Points, func(p record.Point) bool { return p.BandwidthBps != nil })
	}
	if in.Comparison != nil && len(in.Sides) > 1 {
		v.Compare = compareSection(in.Comparison)
		v.Provenance = provenanceOf(in.Results, in.Sides)
		for _, s := range in.Sides {
			sm := sideMeasurements{Label: s.Label, Runs: len(s.RunIDs)}
			for _, m := range v.Measurements {
				if slices.Contains(s.RunIDs, m.RunID) {
					sm.Measurements = append(sm.Measurements, m)
				}
			}
			v.BySide = append(v.BySide, sm)
		}
	}
	return page.Execute(w, v)
}

// tableUnits are a measurement table's units: of its smallest time (one-way latency
// included) and its largest bandwidth.
func tableUnits(points []record.Point) (unit, unit) {
	var times, rates []float64
	for _, p := range points {
		times = append(times, p.TimeS, p.MinS)
		if p.LatencyS != nil {
			times = append(times, *p.LatencyS)
		}
		if p.BandwidthBps != nil {
			rates = append(rates, *p.BandwidthBps)
		}
	}
	return unitOf(false, times), unitOf(true, rates)
}

func roundTrip(op string) bool {
	in, ok := ops.Lookup(op)
	return ok && in.RoundTrip
}

// sharedSettings are the settings every point has, as name=value; one that varies is
// left out (its points differ in the method, size or process count columns).
func sharedSettings(points []record.Point) string {
	var out []string
	for _, f := range points[0].Setup().Settings() {
		shared := true
		for _, p := range points[1:] {
			shared = shared && slices.Contains(p.Setup().Settings(), f)
		}
		if shared {
			out = append(out, f.Name+"="+f.Value)
		}
	}
	return strings.Join(out, " ")
}

// varying are the performance variables whose sum differs between the points: the
// constant ones (a level never touched) would only widen the table.
func varying(points []record.Point) []string {
	first := map[string]string{}
	vary := map[string]bool{}
	for _, p := range points {
		for n := range p.PVars {
			v := funcs["pvar"].(func(record.Point, string) string)(p, n)
			if f, ok := first[n]; !ok {
				first[n] = v
			} else if f != v {
				vary[n] = true
			}
		}
	}
	out := make([]string, 0, len(vary))
	for n := range vary {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
