package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skampi/skampi/internal/aadata"
	"github.com/skampi/skampi/report"
)

// nightlyDirs writes 12 of the recorded runs of internal/aadata as two run directories
// of 6 runs each (two weeks of nightly runs), Bcast's times multiplied by scale from the
// 8th run on.
func nightlyDirs(t *testing.T, scale float64) (first, second string) {
	t.Helper()
	aa, err := aadata.Results()
	if err != nil {
		t.Fatal(err)
	}
	ids := aadata.RunIDs(aa)[3:15]
	dir := t.TempDir()
	first, second = filepath.Join(dir, "week1"), filepath.Join(dir, "week2")
	for w, d := range []string{first, second} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(d, report.ResultsFile))
		if err != nil {
			t.Fatal(err)
		}
		week := aadata.Runs(aa, ids[6*w:6*w+6], 1)
		j := report.NewJSONL(f)
		for i := range week.Runs {
			j.Run(&week.Runs[i])
			for k := range week.Points {
				if p := &week.Points[k]; p.RunID == week.Runs[i].RunID {
					if p.Op == "Bcast" && 6*w+i >= 7 {
						p.TimeS *= scale
					}
					j.Point(p)
				}
			}
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return first, second
}

func TestHistoryVerb(t *testing.T) {
	w1, w2 := nightlyDirs(t, 1.5)
	out, stderr, err := execVerbCmd(newHistoryCmd(), "", w1, w2)
	if err != nil || stderr != "" {
		t.Fatalf("%v %s", err, stderr)
	}
	for _, want := range []string{
		"12 runs, 2026-11-25 03:01 to 2026-11-25 03:01, from ", "week1 (6), ", "week2 (6); Open MPI v4.1.4 on vm\n",
		"\nBcast, 2 processes\nsize     runs   latest ",
		"as a whole (geometric mean of 5 sizes, 12 runs): run 8 (2026-11-25 03:01, ",
		"\nruns with a change point:\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The gate: Bcast is still slower; by less than 100 %.
	_, stderr, err = execVerbCmd(newHistoryCmd(), "", "--fail-on-change", w1, w2)
	if verbExitCode(err) != 5 || !strings.Contains(stderr, "regression: Bcast, as a whole: run 8 (") || strings.Contains(stderr, "regression: Put") {
		t.Errorf("--fail-on-change: %v\n%s", err, stderr)
	}
	_, stderr, err = execVerbCmd(newHistoryCmd(), "", "--fail-above", "100%", w1, w2)
	if err != nil || !strings.HasPrefix(stderr, "history: no lasting slowdown above 100% in 28 series tested") {
		t.Errorf("--fail-above 100%%: %v\n%s", err, stderr)
	}
	// Nothing changed: the gate passes.
	u1, u2 := nightlyDirs(t, 1)
	if _, stderr, err = execVerbCmd(newHistoryCmd(), "", "--fail-on-change", "nightly="+filepath.Join(u1, report.ResultsFile), "nightly="+u2); err != nil {
		t.Errorf("unchanged: %v\n%s", err, stderr)
	}
	// JSON: every run and series.
	out, _, err = execVerbCmd(newHistoryCmd(), "", "--format", "json", "--window", "3", w1, w2)
	var h struct {
		Runs         []struct{ Label string }
		Window       int
		Measurements []struct {
			Measurement string
			Absolute    struct{ Changes []struct{ Run int } }
			Setups      []struct{ Values []float64 }
		}
	}
	if err != nil || json.Unmarshal([]byte(out), &h) != nil || len(h.Runs) != 12 || h.Window != 3 || len(h.Measurements) != 4 ||
		len(h.Measurements[3].Setups[0].Values) != 12 || len(h.Measurements[3].Absolute.Changes) == 0 {
		t.Errorf("json: %v %+v", err, h)
	}
}

func TestHistoryVerbErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "history needs at least one result file or run directory"},
		{[]string{"--format", "csv", pt2ptA}, 2, `--format must be one of text, json, got "csv"`},
		{[]string{"/no/such.jsonl"}, 1, "open /no/such.jsonl: no such file or directory"},
		{[]string{"--fail-on-change", pt2ptA, pt2ptB}, 1, "no series holds the 6 runs a change needs (3 a side): the gate cannot judge"},
	}
	for _, c := range cases {
		_, _, err := execVerbCmd(newHistoryCmd(), "", c.args...)
		if verbExitCode(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%v: code %d, %v; want %d, %q", c.args, verbExitCode(err), err, c.code, c.msg)
		}
	}
	// A flag outside its domain is a usage mistake naming the flag, as for every verb.
	for _, args := range [][]string{{"--window", "0"}, {"--fail-above", "NaN%"}, {"--alpha", "1"}} {
		if code, _, stderr := runCLI(append(append([]string{"history"}, args...), pt2ptA)...); code != 2 || !strings.Contains(stderr, args[0]) {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
}

// --html writes the page (one trend figure per measurement) and --figures the PNGs;
// stdout keeps the text or the JSON, the files written are named on stderr, and a
// failing gate still leaves the page.
func TestHistoryVerbHTML(t *testing.T) {
	w1, w2 := nightlyDirs(t, 1.5)
	dir := t.TempDir()
	page, figs := filepath.Join(dir, "history.html"), filepath.Join(dir, "png")
	plain, _, err := execVerbCmd(newHistoryCmd(), "", w1, w2)
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, err := execVerbCmd(newHistoryCmd(), "", "--html", page, "--figures", figs, w1, w2)
	if err != nil || out != plain || !strings.Contains(stderr, page+": 12 runs, 4 trend figure(s)\n") {
		t.Fatalf("%v; stderr %s; stdout the same: %v", err, stderr, out == plain)
	}
	b, err := os.ReadFile(page)
	if err != nil || strings.Count(string(b), `<figure class="trend">`) != 4 || !strings.Contains(string(b), "<figcaption>Bcast") {
		t.Errorf("page: %v, %d figures", err, strings.Count(string(b), `<figure class="trend">`))
	}
	if pngs, _ := filepath.Glob(filepath.Join(figs, "trend-*.png")); len(pngs) != 4 {
		t.Errorf("pngs %v", pngs)
	}
	os.Remove(page)
	out, _, err = execVerbCmd(newHistoryCmd(), "", "--format", "json", "--fail-on-change", "--html", page, w1, w2)
	if _, serr := os.Stat(page); verbExitCode(err) != 5 || serr != nil || !json.Valid([]byte(out)) {
		t.Errorf("gate with --html: %v, page %v, json %v", err, serr, json.Valid([]byte(out)))
	}
}
