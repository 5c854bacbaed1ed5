package tune

import (
	"math/rand/v2"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/aadata"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// A tune whose only variable is a dummy nothing reads must recommend nothing and find
// no size where another setting is significantly faster, at 95 % of the points or more
// over many trials: the 20 recorded runs of internal/aadata, which differ in nothing
// but when they ran, dealt at random to the two settings, 5 repeats each.
func TestVerdictAANoDifference(t *testing.T) {
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
	pick := func(ids []string) *report.Results { return aadata.Runs(aa, ids, 1) }
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
	aa, err := aadata.Results()
	if err != nil {
		t.Fatal(err)
	}
	tu, err := inputs.ParseTune("w.toml", []byte("[[measurement]]\nname = \"put\"\nop = \"Put\"\nsizes = [8]\n[suite_settings]\nwindow = [64, 1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	cs := tu.Combinations()
	labels := Labels(cs)
	ids := aadata.RunIDs(aa)
	base, other := aadata.Runs(aa, ids[:5], 1), aadata.Runs(aa, ids[5:10], 0.5)
	for _, res := range []*report.Results{base, other} {
		var puts []record.Point
		for _, p := range res.Points {
			if p.Op == "Put" {
				puts = append(puts, p)
			}
		}
		res.Points = puts
	}
	for i := range other.Points {
		other.Points[i].Window = 1
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
