package tune

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/aadata"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// agrees checks, on the printed verdict, that its table and its recommendation cannot
// contradict each other: every range the table marks as won (another setting than the
// baseline, not marked "keep the baseline") has its setting's apply lines in the
// recommendation, and every apply line printed belongs to a setting of such a range.
func agrees(t *testing.T, name string, v *Verdict, results []Result) {
	t.Helper()
	var text bytes.Buffer
	if err := v.Write(&text); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text.String(), "\n")
	trimmed := map[string]bool{}
	for _, l := range lines {
		trimmed[strings.TrimSpace(l)] = true
	}
	comb := map[string]inputs.Combination{}
	for _, r := range results {
		comb[r.Label] = r.Combination
	}
	want := map[string]bool{} // apply lines the marked ranges call for
	for _, g := range v.Groups {
		for _, m := range g.Measurements {
			for _, r := range m.Ranges {
				if r.Baseline {
					continue
				}
				row := ""
				for _, l := range lines {
					if strings.HasPrefix(l, "  "+sizeRange(r.From, r.To)+" ") && strings.Contains(l, r.Winner) {
						row = l
					}
				}
				if row == "" {
					t.Errorf("%s: no table row for %s %s", name, r.Winner, sizeRange(r.From, r.To))
					continue
				}
				if strings.Contains(row, "keep the baseline") {
					continue
				}
				for _, a := range applyLines(comb[r.Winner], comb[g.Baseline]) {
					want[a] = true
					if !trimmed[a] {
						t.Errorf("%s: the table marks %s at %s %s as won, but the recommendation lacks %q:\n%s",
							name, r.Winner, m.Measurement, sizeRange(r.From, r.To), a, text.String())
					}
				}
			}
		}
	}
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if (strings.Contains(l, "--mca ") || strings.Contains(l, "export ") || strings.HasPrefix(l, "MCA file:")) && !want[l] {
			t.Errorf("%s: the recommendation applies %q, which no range the table marks as won calls for:\n%s", name, l, text.String())
		}
	}
}

// agreesMarked is the same invariant on the verdict's fields: every range marked
// recommended is in the recommendation with its apply lines, every setting the
// recommendation names comes from such a range, and the one setting for every size is
// one of them.
func agreesMarked(t *testing.T, name string, v *Verdict) {
	t.Helper()
	for _, g := range v.Groups {
		rec := g.Recommendation
		listed := map[string]Advice{}
		for _, a := range rec.PerRange {
			listed[a.Label] = a
		}
		from := map[string]bool{}
		for _, m := range g.Measurements {
			for _, r := range m.Ranges {
				if r.Recommended == (r.Kept != "") {
					t.Errorf("%s: %s %s: recommended %v, kept %q", name, m.Measurement, sizeRange(r.From, r.To), r.Recommended, r.Kept)
				}
				if !r.Recommended {
					continue
				}
				from[r.Winner] = true
				a, ok := listed[r.Winner]
				where := fmt.Sprintf("%s %s: %.2f× faster", m.name(), sizeRange(r.From, r.To), r.Factor)
				if !ok || len(a.Apply) == 0 || !strings.Contains(strings.Join(a.Where, "\n"), where) {
					t.Errorf("%s: %s marked recommended at %s, recommendation %+v", name, r.Winner, where, rec.PerRange)
				}
			}
		}
		for l := range listed {
			if !from[l] {
				t.Errorf("%s: the recommendation names %s, which no range marked recommended wins", name, l)
			}
		}
		if rec.Label != "" && (!from[rec.Label] || len(listed) != 1) {
			t.Errorf("%s: the one setting for every size is %s, the ranges recommend %v", name, rec.Label, from)
		}
	}
}

// sweepBy writes every launch's results as a sweep would, each combination's times
// scaled per measurement by scaleOf(its first value, measurement) from 4 KiB on.
func sweepBy(t *testing.T, tu *inputs.Tune, scaleOf func(value, measurement string) float64) []Result {
	t.Helper()
	dir := t.TempDir()
	for _, l := range tu.Schedule() {
		v := l.Values[0].Value
		fakeRunBy(t, filepath.Join(dir, l.Dir()), fmt.Sprintf("%s-%d", l.Name, l.Repeat), func(m string) float64 { return scaleOf(v, m) },
			[]float64{1, 1.02, 0.99, 1.01, 0.98}[l.Repeat-1])
	}
	res, err := Load(tu, dir)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The table and the recommendation agree on every verdict the fixtures give: the
// issue's contradiction (a range won at every size while the controls moved as much
// under the setting), a setting faster at some measurements and slower at others, two
// measurements that recommend different settings, the recorded A/A runs, and a
// synthetic sweep of every built-in tune file.
func TestVerdictTableAndRecommendationAgree(t *testing.T) {
	control, err := inputs.ParseTune("control.toml", []byte(withControl))
	if err != nil {
		t.Fatal(err)
	}
	three, err := inputs.ParseTune("three.toml", []byte(strings.Replace(twoValues, "[4096, 8192]", "[4096, 8192, 16384]", 1)))
	if err != nil {
		t.Fatal(err)
	}
	type fixture struct {
		name    string
		tu      *inputs.Tune
		results []Result
	}
	fs := []fixture{
		{"the control moved as much", control, sweepBy(t, control, func(v, m string) float64 { return map[bool]float64{true: 0.5, false: 1}[v == "8192"] })},
		{"the control stayed", control, sweepBy(t, control, func(v, m string) float64 {
			if v == "8192" && m != "Shmem_Sendrecv_Shift" {
				return 0.5
			}
			return 1
		})},
		{"faster here, slower there", three, sweepBy(t, three, func(v, m string) float64 {
			switch {
			case v == "8192" && m == "Sendrecv_Shift":
				return 0.5
			case v == "8192":
				return 1.5
			}
			return 1
		})},
		{"measurements disagree", three, sweepBy(t, three, func(v, m string) float64 {
			switch {
			case v == "8192" && m == "Sendrecv_Shift", v == "16384" && m == "Shmem_Sendrecv_Shift":
				return 0.5
			}
			return 1
		})},
	}
	for _, f := range fs {
		v, err := Judge(f.tu, f.results)
		if err != nil {
			t.Fatal(err)
		}
		agrees(t, f.name, v, f.results)
		agreesMarked(t, f.name, v)
		g := v.Groups[0]
		switch f.name {
		case "the control moved as much":
			// The case: a range won at every size, significantly, kept by the noise.
			r := rangeAt(g, "Sendrecv_Shift", 4096)
			if r.Baseline || r.Significant < minSignificant || r.Recommended || !strings.Contains(r.Kept, "does not beat the noise") ||
				len(g.Recommendation.PerRange) != 0 || g.Recommendation.Label != "" {
				t.Errorf("%s: range %+v, recommendation %+v", f.name, r, g.Recommendation)
			}
		case "the control stayed":
			if r := rangeAt(g, "Sendrecv_Shift", 4096); !r.Recommended || g.Recommendation.Label != "btl_vader_eager_limit=8192" {
				t.Errorf("%s: range %+v, recommendation %+v", f.name, r, g.Recommendation)
			}
		case "faster here, slower there":
			if r := rangeAt(g, "Sendrecv_Shift", 4096); !r.Recommended || g.Recommendation.Label != "" || len(g.Recommendation.PerRange) != 1 ||
				!strings.Contains(g.Recommendation.Why, "significantly slower") {
				t.Errorf("%s: range %+v, recommendation %+v", f.name, r, g.Recommendation)
			}
		case "measurements disagree":
			if len(g.Recommendation.PerRange) != 2 || len(g.Recommendation.Disagree) == 0 || g.Recommendation.Label != "" {
				t.Errorf("%s: recommendation %+v", f.name, g.Recommendation)
			}
		}
	}

	aa, err := aadata.Results()
	if err != nil {
		t.Fatal(err)
	}
	tu, err := inputs.ParseTune("aa.toml", []byte("[[measurement]]\nname = \"pp\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8]\n[env]\nAA_DUMMY = [\"a\", \"b\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	cs := tu.Combinations()
	labels := Labels(cs)
	ids := aadata.RunIDs(aa)
	for i := 0; i+10 <= len(ids); i += 10 {
		rs := []Result{{Combination: cs[0], Label: labels[cs[0].Name], Results: aadata.Runs(aa, ids[i:i+5], 1)},
			{Combination: cs[1], Label: labels[cs[1].Name], Results: aadata.Runs(aa, ids[i+5:i+10], 0.6)}}
		v, err := Judge(tu, rs)
		if err != nil {
			t.Fatal(err)
		}
		agrees(t, fmt.Sprintf("recorded runs %d", i), v, rs)
		agreesMarked(t, fmt.Sprintf("recorded runs %d", i), v)
	}

	for _, name := range inputs.BuiltinTuneNames() {
		tu, err := inputs.LoadTuneNP(name, []int{2})
		if err != nil {
			t.Fatal(err)
		}
		rs := synthetic(t, tu)
		v, err := Judge(tu, rs)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		agrees(t, name, v, rs)
		agreesMarked(t, name, v)
		if len(tu.Controls) == 0 && len(tu.Libraries) < 2 {
			t.Errorf("%s: no control", name)
		}
	}
}

// rangeAt is the range of a measurement's table that holds size.
func rangeAt(g Group, measurement string, size int64) Range {
	for _, m := range g.Measurements {
		for _, r := range m.Ranges {
			if m.Measurement == measurement && r.From <= size && size <= r.To {
				return r
			}
		}
	}
	return Range{}
}

// synthetic is a sweep of every combination of tu, 5 repeats each, of the points its
// suite expands to: the second combination twice as fast from 4 KiB on in every
// measurement but the controls, the third 1.5× as fast below 4 KiB in the first
// measurement and slower above, and the controls moving under the fourth as much as
// what it gains.
func synthetic(t *testing.T, tu *inputs.Tune) []Result {
	t.Helper()
	cs := tu.Combinations()
	labels := Labels(cs)
	var out []Result
	for ci, c := range cs {
		text, err := tu.SuiteText(c)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := inputs.Parse(tu.Name+".toml", text)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := plan.Expand(inputs.Job{NProcs: c.NP})
		if err != nil {
			t.Fatal(err)
		}
		res := &report.Results{}
		for rep := 1; rep <= 5; rep++ {
			id := fmt.Sprintf("%s-%d", c.Name, rep)
			res.Runs = append(res.Runs, record.Run{Kind: record.KindRun, RunID: id, NProcs: c.NP})
			level := []float64{1, 1.02, 0.99, 1.01, 0.98}[rep-1]
			for _, p := range ex.Points {
				control := false
				for _, n := range tu.Controls {
					control = control || n == p.Measurement.Name
				}
				scale := 1.0
				switch {
				case ci == 1 && !control && p.Size >= 4096:
					scale = 0.5
				case ci == 2 && p.Measurement.Index == ex.Points[0].Measurement.Index && p.Size < 4096:
					scale = 1 / 1.5
				case ci == 2 && p.Size >= 4096:
					scale = 1.3
				case ci == 3:
					scale = 0.7
				}
				tm := 1e-6 * (1 + float64(p.Size)/1e9*1e3) * scale * level * (1 + 1e-3*math.Sin(float64(p.Index+rep)))
				rp := record.Point{Kind: record.KindPoint, RunID: id, PointIndex: p.Index, Measurement: p.Measurement.Name,
					MeasurementIndex: p.Measurement.Index, Op: p.Op().Name, Method: p.Method, MsgBytes: p.Size, NProcs: p.NProcs,
					Ranks: p.Ranks, Timer: p.Settings().Timer, Sync: p.Settings().Sync, Iterations: 10, Reps: 8,
					TimeS: tm, MeanS: tm, MedianS: tm, MinS: tm, P10S: tm, P90S: tm, MaxS: tm, StderrS: tm / 100}
				if p.Op().Windowed {
					rp.Window, rp.RecvSlots = p.Settings().Window, p.Settings().RecvSlots
				}
				res.Points = append(res.Points, rp)
			}
		}
		out = append(out, Result{Combination: c, Label: labels[c.Name], Results: res})
	}
	return out
}

// report.html shows the verdict whole: its long lines wrap at the page's edge instead
// of running past it (a verdict's sentences are wider than a screen).
func TestReportVerdictWraps(t *testing.T) {
	tu, err := inputs.LoadTuneNP("tune-eager", []int{2})
	if err != nil {
		t.Fatal(err)
	}
	rs := synthetic(t, tu)
	v, err := Judge(tu, rs)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeReport(dir, io.Discard, tu, v, rs); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`pre.lead { white-space: pre-wrap;`, `<pre class="lead">`, "recommended per size range", "applied by any one of"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
}
