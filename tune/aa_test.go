package tune

import (
	"compress/gzip"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/report"
)

// loadAARuns reads the 20 recorded runs of report/compare/testdata/aa.jsonl.gz.
func loadAARuns(t *testing.T) *report.Results {
	t.Helper()
	f, err := os.Open("../report/compare/testdata/aa.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	aa, err := report.Read(z, "aa.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return aa
}

// A tune whose only variable is a dummy nothing reads must recommend nothing and find
// no size where another setting is significantly faster, at 95 % of the points or
// more over many trials: the recorded runs of report/compare/testdata/aa.jsonl.gz are
// 20 runs of one suite that differ in nothing but when they ran, dealt at random to
// the two settings, 5 repeats each.
func TestVerdictAANoDifference(t *testing.T) {
	aa := loadAARuns(t)
	tu, err := inputs.ParseTune("aa.toml", []byte("[[measurement]]\nname = \"pp\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8]\n[env]\nAA_DUMMY = [\"a\", \"b\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	cs := tu.Combinations()
	labels := Labels(cs)
	var ids []string
	for _, r := range aa.Runs {
		ids = append(ids, r.RunID)
	}
	pick := func(ids []string) *report.Results {
		keep := map[string]bool{}
		for _, id := range ids {
			keep[id] = true
		}
		out := &report.Results{}
		for _, r := range aa.Runs {
			if keep[r.RunID] {
				out.Runs = append(out.Runs, r)
			}
		}
		for _, p := range aa.Points {
			if keep[p.RunID] {
				out.Points = append(out.Points, p)
			}
		}
		return out
	}
	rng := rand.New(rand.NewPCG(3, 4))
	sizes, faster, recommended := 0, 0, 0
	const trials = 40
	for trial := 0; trial < trials; trial++ {
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		rs := []Result{{Combination: cs[0], Label: labels[cs[0].Name], Results: pick(ids[:5])},
			{Combination: cs[1], Label: labels[cs[1].Name], Results: pick(ids[5:10])}}
		v, err := Judge(tu, rs)
		if err != nil {
			t.Fatal(err)
		}
		g := v.Groups[0]
		if g.Recommendation.Label != "" {
			recommended++
		}
		for _, m := range g.Measurements {
			for _, r := range m.Ranges {
				sizes += r.Sizes
				faster += r.Significant
			}
		}
	}
	t.Logf("%d trials: %d recommendations; %d of %d sizes significantly faster", trials, recommended, faster, sizes)
	if sizes != trials*20 || float64(faster) > 0.05*float64(sizes) || recommended > trials/20 {
		t.Errorf("A/A tune: %d recommendations in %d trials, %d of %d sizes significantly faster", recommended, trials, faster, sizes)
	}
}

// A sweep of a setting that is part of every point's setup (the window) compares the
// windows' points with each other: they differ by design. Window 1 at half the time
// of window 64, 5 repeats each: the verdict finds it and recommends it.
func TestVerdictSweepsASetupSetting(t *testing.T) {
	aa := loadAARuns(t)
	tu, err := inputs.ParseTune("w.toml", []byte("[[measurement]]\nname = \"put\"\nop = \"Put\"\nsizes = [8]\n[suite_settings]\nwindow = [64, 1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	cs := tu.Combinations()
	labels := Labels(cs)
	var ids []string
	for _, r := range aa.Runs {
		ids = append(ids, r.RunID)
	}
	base, other := &report.Results{}, &report.Results{}
	for _, p := range aa.Points {
		if p.Op != "Put" {
			continue
		}
		switch {
		case slices.Contains(ids[:5], p.RunID):
			base.Points = append(base.Points, p)
		case slices.Contains(ids[5:10], p.RunID):
			p.Window, p.TimeS = 1, p.TimeS/2
			other.Points = append(other.Points, p)
		}
	}
	for _, r := range aa.Runs {
		if slices.Contains(ids[:5], r.RunID) {
			base.Runs = append(base.Runs, r)
		} else if slices.Contains(ids[5:10], r.RunID) {
			other.Runs = append(other.Runs, r)
		}
	}
	v, err := Judge(tu, []Result{{Combination: cs[0], Label: labels[cs[0].Name], Results: base}, {Combination: cs[1], Label: labels[cs[1].Name], Results: other}})
	if err != nil {
		t.Fatal(err)
	}
	g := v.Groups[0]
	if len(g.Missing) != 0 || g.Recommendation.Label != "window=1" || g.Recommendation.Faster != 5 {
		t.Errorf("missing %v, recommendation %+v", g.Missing, g.Recommendation)
	}
}
