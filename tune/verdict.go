package tune

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/analyze"
	"github.com/skampi/skampi/report/compare"
)

// Result is one combination's measurements, every repeat merged.
type Result struct {
	Combination inputs.Combination
	Label       string // the values that vary in the sweep: "btl_vader_eager_limit=8192"
	Results     *report.Results
	// Excluded says why the combination is not judged ("": it is); the baseline is
	// judged whatever it says.
	Excluded string
}

// Load reads every combination's results from a sweep directory.
func Load(t *inputs.Tune, dir string) ([]Result, error) {
	cs := t.Combinations()
	labels := Labels(cs)
	var out []Result
	for _, c := range cs {
		var srcs []report.Source
		for r := 1; r <= t.Repeats; r++ {
			l := inputs.Launch{Combination: c, Repeat: r}
			p := filepath.Join(dir, l.Dir(), "results.jsonl")
			if done, have := Complete(filepath.Dir(p)); done || have {
				srcs = append(srcs, report.Source{Label: c.Name, Name: p})
			}
		}
		res := &report.Results{}
		if len(srcs) > 0 {
			var err error
			if res, err = report.LoadAll(srcs, nil); err != nil {
				return nil, err
			}
		}
		out = append(out, Result{Combination: c, Label: labels[c.Name], Results: res})
	}
	return out, nil
}

// Verdict is the judgement of a sweep, per group of comparable combinations (the same
// process count): the fastest setting per size range, breakpoints, a recommendation.
type Verdict struct {
	Tune   string
	Groups []Group
}

// Group is the combinations of one process count, judged against its first (the
// first value of every parameter: put the library's default first).
type Group struct {
	NP             int
	Baseline       string   // label
	NotInEffect    []string // swept parameters the library did not use (notInEffect), said first
	Missing        []string
	Measurements   []Measurement
	Breakpoints    []Breakpoints
	Noise          Noise
	Recommendation Recommendation
	NoBaseline     bool // the baseline has no results: nothing was judged

	settings []settingStats // every other setting against the baseline, in sweep order
	base     inputs.Combination
	repeats  int // the fewest repeats of any combination
}

// Measurement is one measurement's sizes cut into ranges with the same winner: one
// operation under one method and one set of settings (compare.Key without the size).
type Measurement struct {
	Measurement, Op string
	Method          string // the timing method, when the operation has several
	Settings        string // the settings that tell this table from another of the op
	Control         bool   // one of the tune file's controls: not judged, the noise gauge
	Ranges          []Range
}

// Range is consecutive sizes one combination is fastest at.
type Range struct {
	From, To    int64
	Winner      string  // label
	Baseline    bool    // the baseline keeps these sizes: no setting is significantly faster
	Factor      float64 // baseline time / winner time, geometric mean over the range
	Significant int     // sizes where the winner is significantly faster than the baseline
	Untested    int     // sizes where the winner is faster but could not be tested (too few repeats)
	Sizes       int
	// Lone: a setting that was significantly faster at one size of the range only,
	// which the baseline keeps (minSignificant); "" when none.
	Lone string
	// Recommended: the rule (Group.rule) recommends Winner for these sizes, and the
	// recommendation lists it; otherwise Kept says why the baseline keeps them.
	Recommended bool
	Kept        string
}

// Breakpoints are the protocol switches found in one combination's latency curve of a
// measurement (report/analyze), one list per repeat.
type Breakpoints struct {
	Measurement string
	Method      string // the curve's timing method: each method is its own curve
	Settings    string // its settings, which may tell two curves of a measurement apart
	Label       string
	PerRepeat   [][]int64
}

// Recommendation is what the ranges the rule marked recommended add up to: per
// setting the ranges it wins and how to apply it, and the one setting for every size
// when there is one.
type Recommendation struct {
	Label       string // the one setting for every size; "" when none
	Combination *inputs.Combination
	// Of Label, or of the best other setting (the lowest geometric mean) when none.
	Geomean  float64 // its time / the baseline's, over every compared point
	Faster   int     // points significantly faster than the baseline
	Slower   int     // significantly slower
	Compared int
	Tested   int // points with enough repeats a side to test
	Why      string
	Apply    []string // the lines that apply Label
	PerRange []Advice // every setting a range recommends, in the order the tables name them
	Disagree []string // size ranges where measurements recommend different settings
}

// Judge compares every combination of a process count with the first of it, point by
// point (compare: each repeat is one sample; Mann-Whitney U tests over the repeats,
// corrected for every point and setting tested against the baseline).
func Judge(t *inputs.Tune, results []Result) (*Verdict, error) {
	v := &Verdict{Tune: t.Name}
	var nps []int
	byNP := map[int][]Result{}
	for _, r := range results {
		if _, ok := byNP[r.Combination.NP]; !ok {
			nps = append(nps, r.Combination.NP)
		}
		byNP[r.Combination.NP] = append(byNP[r.Combination.NP], r)
	}
	for _, np := range nps {
		g, err := judgeGroup(np, byNP[np], swept(t), t.Controls)
		if err != nil {
			return nil, err
		}
		off := ""
		if g.NotInEffect = notInEffect(t, byNP[np]); len(g.NotInEffect) > 0 && len(g.NotInEffect) == sweptParams(t) {
			// Nothing the sweep changed reached the library: any difference is noise.
			off = strings.Join(g.NotInEffect, "; ")
		}
		g.decide(off)
		v.Groups = append(v.Groups, *g)
	}
	return v, nil
}

// judgedNothing is an error when no group has a baseline to judge against: a verdict
// that answers nothing is no success, though it lists what was measured.
func (v *Verdict) judgedNothing() error {
	var why []string
	for _, g := range v.Groups {
		if !g.NoBaseline {
			return nil
		}
		why = append(why, fmt.Sprintf("%s at %d processes", g.Baseline, g.NP))
	}
	return fmt.Errorf("tune: nothing was judged: the baseline has no results (%s)", strings.Join(why, ", "))
}

// DefaultRepeats is what a tune file that does not say gets: with 5 repeats a side the
// U test's smallest p is 0.008, so a change across most sizes survives the correction
// over every point; one confined to a few of many points needs more (see compare.Adjust).
const DefaultRepeats = inputs.DefaultTuneRepeats

// repeats is the fewest runs any combination of a group holds.
func repeats(rs []Result) int {
	n := math.MaxInt
	for _, r := range rs {
		n = min(n, len(r.Results.Runs))
	}
	return n
}

// sweptSetup maps the core's suite settings a tune can sweep to the setup field they
// set in every point (record.Setup.Settings' names); a family's say theirs
// (inputs.RecordedAs).
var sweptSetup = map[string]string{"timer": "timer", "sync": "sync", "window": "window", "recv_slots": "recv_slots",
	"cache": "cache", "progress": "progress_every"}

// swept is the setup fields the tune's grid varies: they differ between combinations by
// design, so points are matched without them.
func swept(t *inputs.Tune) []string {
	var out []string
	for _, p := range t.Params {
		if p.Kind != "setting" || len(p.Values) < 2 {
			continue
		}
		if f, ok := sweptSetup[p.Name]; ok {
			out = append(out, f)
		} else if fs, ok := inputs.RecordedAs(p.Name); ok {
			out = append(out, fs...)
		}
	}
	return out
}

func judgeGroup(np int, rs []Result, ignore, controls []string) (*Group, error) {
	g := &Group{NP: np, Baseline: rs[0].Label, Noise: Noise{Controls: controls}}
	var present []Result
	for i, r := range rs {
		if r.Excluded != "" && i > 0 {
			g.Missing = append(g.Missing, r.Label+": "+r.Excluded)
			continue
		}
		if len(r.Results.Points) == 0 {
			g.Missing = append(g.Missing, r.Label+": no results")
			continue
		}
		present = append(present, r)
	}
	if len(present) == 0 || present[0].Label != g.Baseline {
		g.Recommendation = Recommendation{Why: fmt.Sprintf("the baseline (%s) has no results: nothing is judged at %d processes", g.Baseline, np)}
		g.NoBaseline = true
		return g, nil
	}
	base := present[0]
	type judged struct {
		r      Result
		tables []compare.Table
	}
	var all []judged
	var tables []compare.Table
	for _, other := range present[1:] {
		c, err := compare.Compare([]compare.Labelled{{Label: base.Label, Results: listed(base.Results)}, {Label: other.Label, Results: listed(other.Results)}}, compare.Options{Ignore: ignore})
		if errors.Is(err, compare.ErrNothingInCommon) {
			g.Missing = append(g.Missing, other.Label+": no point in common with the baseline")
			continue
		}
		if err != nil {
			return nil, err
		}
		all = append(all, judged{other, c.Tables})
		tables = append(tables, c.Tables...)
	}
	// Picking the best of several settings is as many comparisons again: the correction
	// counts every point of every setting.
	compare.Adjust(tables, compare.DefaultAlpha)
	// rows[table][size key][label]: every combination's row against the baseline.
	rows := map[compare.Key]map[compare.Key]map[string]compare.Row{}
	var order []compare.Key
	titles := map[compare.Key]compare.Table{}
	at := 0
	for _, j := range all {
		var logSum float64
		n, faster, slower, tested := 0, 0, 0, 0
		for _, tb := range tables[at : at+len(j.tables)] {
			for _, row := range tb.Rows {
				// compare joins measurements of one setup at different sizes into a
				// table: a control's rows are split off into a table of their own.
				tk, title := tb.Key, tb
				title.Measurement = row.Measurement
				control := g.Noise.isControl(row.Measurement)
				if control {
					tk.Measurement = row.Measurement
				}
				if _, ok := rows[tk]; !ok {
					rows[tk] = map[compare.Key]map[string]compare.Row{}
					order = append(order, tk)
					titles[tk] = title
				}
				if rows[tk][row.Key] == nil {
					rows[tk][row.Key] = map[string]compare.Row{}
				}
				rows[tk][row.Key][j.r.Label] = row
				if !row.Compared() {
					continue
				}
				if control {
					g.Noise.add(j.r.Label, row) // what the sweep cannot affect: the gauge, not the judgement
					continue
				}
				n++
				logSum += math.Log(row.Other.TimeS / row.Base.TimeS)
				if row.Tested {
					tested++
				}
				if row.Significant {
					if row.Other.TimeS < row.Base.TimeS {
						faster++
					} else {
						slower++
					}
				}
			}
		}
		at += len(j.tables)
		if n > 0 {
			g.settings = append(g.settings, settingStats{Label: j.r.Label, Combination: j.r.Combination, Geomean: math.Exp(logSum / float64(n)),
				Faster: faster, Slower: slower, Compared: n, Tested: tested})
		}
	}
	g.Measurements = ranges(order, titles, rows, base.Label)
	for i := range g.Measurements {
		g.Measurements[i].Control = g.Noise.isControl(g.Measurements[i].Measurement)
	}
	g.Breakpoints = breakpoints(present)
	g.Noise.spread(tables)
	g.base, g.repeats = base.Combination, repeats(present)
	return g, nil
}

// listed is res without the sizes refinement added: they differ from setting to setting
// and from repeat to repeat (each curve bends where it bends), so the comparison holds
// the sizes every launch measured, and the refined ones serve the breakpoints.
func listed(res *report.Results) *report.Results {
	if !slices.ContainsFunc(res.Points, func(p record.Point) bool { return p.Refined }) {
		return res
	}
	out := *res
	out.Points = slices.DeleteFunc(slices.Clone(res.Points), func(p record.Point) bool { return p.Refined })
	return &out
}

// breakpoints runs the protocol analysis on every combination's latency curves.
func breakpoints(rs []Result) []Breakpoints {
	var out []Breakpoints
	idx := map[[4]string]int{}
	for _, r := range rs {
		for _, b := range analyze.Analyze(r.Results) {
			k := [4]string{b.Measurement, b.Method, b.Settings, r.Label}
			i, ok := idx[k]
			if !ok {
				i = len(out)
				idx[k] = i
				out = append(out, Breakpoints{Measurement: b.Measurement, Method: b.Method, Settings: b.Settings, Label: r.Label})
			}
			out[i].PerRepeat = append(out[i].PerRepeat, b.Breakpoints())
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return out[i].Measurement < out[j].Measurement || out[i].Measurement == out[j].Measurement && out[i].Method < out[j].Method
	})
	return out
}
