package tune

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/aadata"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/tune/collrules"
)

// allreduceSweep is a sweep of Open MPI's allreduce algorithm over the recorded
// Allreduce runs of internal/aadata (2 processes, 8 B to 32 KiB): the default (0)
// against recursive doubling (3), 5 repeats each; faster scales the second's times
// at the sizes it names.
func allreduceSweep(t *testing.T, ids []string, faster map[int64]float64) *Group {
	t.Helper()
	aa, err := aadata.Results()
	if err != nil {
		t.Fatal(err)
	}
	tu, err := inputs.ParseTune("coll.toml", []byte("[[measurement]]\nname = \"Allreduce\"\nop = \"Allreduce\"\nsizes = [8, 64, 512, 4096, 32768]\n[mca]\ncoll_tuned_allreduce_algorithm = [\"0\", \"3\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	cs := tu.Combinations()
	labels := Labels(cs)
	only := func(res *report.Results) *report.Results {
		pts := res.Points[:0]
		for _, p := range res.Points {
			if p.Op == "Allreduce" {
				pts = append(pts, p)
			}
		}
		res.Points = pts
		return res
	}
	base, other := only(aadata.Runs(aa, ids[:5], 1)), only(aadata.Runs(aa, ids[5:10], 1))
	for i := range other.Points {
		if f, ok := faster[other.Points[i].MsgBytes]; ok {
			other.Points[i].TimeS *= f
		}
	}
	v, err := Judge(tu, []Result{{Combination: cs[0], Label: labels[cs[0].Name], Results: base}, {Combination: cs[1], Label: labels[cs[1].Name], Results: other}})
	if err != nil {
		t.Fatal(err)
	}
	return &v.Groups[0]
}

// ompiChoice maps a sweep label to the algorithm it forced, by this Open MPI's list.
func ompiChoice(t *testing.T) func(string) (collrules.Choice, bool) {
	algs := CollAlgorithmsOMPI(readCatalog(t, "testdata/ompi_info-4.1.4-coll-tuned.txt", ParseOMPIInfo))
	return func(label string) (collrules.Choice, bool) {
		v, ok := strings.CutPrefix(label, "coll_tuned_allreduce_algorithm=")
		if !ok {
			return collrules.Choice{}, false
		}
		for _, a := range algs["allreduce"] {
			if v == a.Name || v == strconv.Itoa(a.ID) {
				return collrules.Choice{Algorithm: a}, true
			}
		}
		return collrules.Choice{}, false
	}
}

// rulesFile is the Open MPI rules file the group's verdict gives, read back as Open
// MPI reads it.
func rulesFile(t *testing.T, g *Group) (collrules.Rules, collrules.OMPIFile) {
	t.Helper()
	ds, err := g.CollDecided(ompiChoice(t))
	if err != nil {
		t.Fatal(err)
	}
	r, err := collrules.FromVerdict(collrules.OpenMPI, ds)
	if err != nil {
		t.Fatal(err)
	}
	f, err := r.OMPIFile()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.Write(&b, nil); err != nil {
		t.Fatal(err)
	}
	back, err := collrules.ParseOMPI(&b)
	if err != nil {
		t.Fatal(err)
	}
	return r, back
}

// Recursive doubling twice as fast from 4 KiB to 32 KiB: the rules name it there,
// Open MPI's own decision below.
func TestCollRulesFromVerdictTwiceAsFast(t *testing.T) {
	aa, _ := aadata.Results()
	g := allreduceSweep(t, aadata.RunIDs(aa), map[int64]float64{4096: 0.5, 32768: 0.5})
	_, f := rulesFile(t, g)
	for _, b := range []int64{8, 64, 512, 4096, 32768} {
		m, ok := f.Choose(2, 2, b) // allreduce is Open MPI's collective 2, keyed by bytes
		want := int64(0)
		if b >= 4096 {
			want = 3
		}
		if !ok || m.Alg != want {
			t.Errorf("%d B: algorithm %d, want %d (ranges %+v)", b, m.Alg, want, g.Measurements)
		}
	}
	if m, _ := f.Choose(2, 2, 65536); m.Alg != 0 {
		t.Errorf("above the measured sizes: algorithm %d, want the default", m.Alg)
	}
	if m, _ := f.Choose(2, 4, 4096); m.Alg != 0 {
		t.Errorf("on 4 processes, never measured: algorithm %d, want the default", m.Alg)
	}
}

// The same recorded runs dealt at random to both settings (A/A): no rules, so the
// library keeps its own decisions everywhere.
func TestCollRulesFromVerdictAA(t *testing.T) {
	aa, _ := aadata.Results()
	ids := aadata.RunIDs(aa)
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 20; trial++ {
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		g := allreduceSweep(t, ids, nil)
		r, f := rulesFile(t, g)
		if !r.Empty() || len(f.Colls) != 0 {
			t.Errorf("trial %d: A/A rules %+v (ranges %+v)", trial, r, g.Measurements)
		}
	}
}

// A rules file is checked against what this Open MPI lists before it is used.
func TestCollRulesFileCheckedAgainstCatalogue(t *testing.T) {
	algs := CollAlgorithmsOMPI(readCatalog(t, "testdata/ompi_info-4.1.4-coll-tuned.txt", ParseOMPIInfo))
	ok := "1\n2\n1\n4 2\n0 0 0 0\n1024 6 0 0 # rabenseifner\n"
	bad := "1\n2\n1\n4 2\n0 0 0 0\n1024 7 0 0 # no allreduce algorithm 7 in 4.1.4\n"
	for text, wantErr := range map[string]bool{ok: false, bad: true} {
		f, err := collrules.ParseOMPI(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Check(algs); (err != nil) != wantErr {
			t.Errorf("%q: %v", text, err)
		}
	}
}
