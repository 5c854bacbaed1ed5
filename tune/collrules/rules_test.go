package collrules

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

var recDoubling = Choice{Algorithm: Algorithm{ID: 3, Name: "recursive_doubling"}}

// sizes are the sizes a sweep measured: 8 B to 1 MiB by powers of two.
func sizes() []int64 {
	var s []int64
	for b := int64(8); b <= 1<<20; b *= 2 {
		s = append(s, b)
	}
	return s
}

// twiceAsFast is a verdict on allreduce over 4 processes where recursive doubling was
// twice as fast from 1 KiB to 64 KiB and recommended there, and nothing beat the
// default elsewhere.
func twiceAsFast(ch Choice) []Decided {
	return []Decided{{Collective: "allreduce", NP: 4, Ranges: []Range{
		{From: 8, To: 512},
		{From: 1024, To: 65536, Winner: ch, Recommended: true},
		{From: 131072, To: 1 << 20},
	}}}
}

func inRange(b int64) bool { return b >= 1024 && b <= 65536 }

func TestOMPIRulesNameTheWinnerOnlyWhereItWins(t *testing.T) {
	r, err := FromVerdict(OpenMPI, twiceAsFast(recDoubling))
	if err != nil {
		t.Fatal(err)
	}
	f := writeAndParse(t, r)
	for _, np := range []int{2, 3, 4, 5, 8} {
		for _, b := range append(sizes(), 0, 1, 1000, 65537, 1<<30) {
			m, ok := f.Choose(2, np, KeyBytes.key(b, np))
			if !ok {
				t.Fatalf("the file has no allreduce rules")
			}
			want := int64(0)
			if np == 4 && inRange(b) {
				want = 3
			}
			if m.Alg != want {
				t.Errorf("np %d, %d B: Open MPI would use algorithm %d, want %d", np, b, m.Alg, want)
			}
			if model, _ := r.Choose("allreduce", np, b); int64(model.ID) != m.Alg {
				t.Errorf("np %d, %d B: the model says %v, the file %d", np, b, model.Algorithm, m.Alg)
			}
		}
	}
}

// An A/A sweep: no range recommended, so no rules: every library keeps its own.
func TestAARulesKeepTheDefault(t *testing.T) {
	ds := twiceAsFast(recDoubling)
	for i := range ds[0].Ranges {
		ds[0].Ranges[i].Recommended = false
		ds[0].Ranges[i].Winner = recDoubling // the range's fastest, but not significantly
	}
	r, err := FromVerdict(OpenMPI, ds)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Empty() {
		t.Fatalf("A/A verdict gave rules: %+v", r)
	}
	f := writeAndParse(t, r)
	for _, b := range sizes() {
		if m, ok := f.Choose(2, 4, b); ok && m.Alg != 0 {
			t.Errorf("%d B: algorithm %d", b, m.Alg)
		}
	}
	r.Library = MPICH
	lib := mpichLib(t)
	tree, err := r.MPICHTree(lib)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tree.MarshalIndent(), lib.Tree.MarshalIndent()) {
		t.Errorf("A/A rules changed MPICH's own tree")
	}
}

func writeAndParse(t *testing.T, r Rules) OMPIFile {
	t.Helper()
	f, err := r.OMPIFile()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.Write(&b, nil); err != nil {
		t.Fatal(err)
	}
	back, err := ParseOMPI(&b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if !reflect.DeepEqual(back, f) {
		t.Fatalf("round trip:\n%+v\nread back as\n%+v", f, back)
	}
	return back
}

func TestOMPIRoundTripSeveralCollectives(t *testing.T) {
	seg := Choice{Algorithm: Algorithm{ID: 7, Name: "knomial", Segmented: true}, SegSize: 8192, Faninout: 4}
	ring := Choice{Algorithm: Algorithm{ID: 4, Name: "ring"}}
	ds := []Decided{
		{Collective: "bcast", NP: 8, Ranges: []Range{{From: 0, To: 4096, Winner: seg, Recommended: true}, {From: 8192, To: 65536}}},
		{Collective: "bcast", NP: 2, Ranges: []Range{{From: 0, To: 65536}}},
		{Collective: "bcast", NP: 16, Ranges: []Range{{From: 64, To: 1024, Winner: seg, Recommended: true}, {From: 2048, To: 4096, Winner: seg, Recommended: true}}},
		{Collective: "allgather", NP: 4, Ranges: []Range{{From: 1024, To: 4096, Winner: ring, Recommended: true}}},
		{Collective: "barrier", NP: 4, Ranges: []Range{{From: 0, To: 0, Winner: Choice{Algorithm: Algorithm{ID: 6, Name: "tree"}}, Recommended: true}}},
	}
	r, err := FromVerdict(OpenMPI, ds)
	if err != nil {
		t.Fatal(err)
	}
	f := writeAndParse(t, r)
	ids := []int{}
	for _, c := range f.Colls {
		ids = append(ids, c.ID)
	}
	if !reflect.DeepEqual(ids, []int{0, 6, 7}) {
		t.Errorf("collective ids %v, want allgather 0, barrier 6, bcast 7 (Open MPI's COLLTYPE)", ids)
	}
	check := func(id, np int, key int64, alg, seg, fan int64) {
		t.Helper()
		m, _ := f.Choose(id, np, key)
		if m.Alg != alg || m.SegSize != seg || m.Faninout != fan {
			t.Errorf("collective %d, np %d, size %d: %+v, want algorithm %d segsize %d faninout %d", id, np, key, m, alg, seg, fan)
		}
	}
	check(7, 8, 100, 7, 8192, 4)
	check(7, 8, 8192, 0, 0, 0)
	check(7, 9, 100, 0, 0, 0)
	check(7, 16, 63, 0, 0, 0)
	check(7, 16, 3000, 7, 8192, 4) // between two measured sizes of the same winner
	check(7, 32, 3000, 0, 0, 0)    // an unmeasured communicator size keeps the default
	check(7, 16, 4097, 0, 0, 0)    // and so does a size above the last measured
	// allgather compares msg_bytes × communicator size
	check(0, 4, 4*1024, 4, 0, 0)
	check(0, 4, 1023, 0, 0, 0)
	check(0, 4, 4*4096, 4, 0, 0)
	check(0, 4, 4*4096+4, 0, 0, 0)
	check(6, 4, 0, 6, 0, 0)
	check(6, 3, 0, 0, 0, 0)
}

func TestOMPISizeBlindCollectiveNeedsOneChoice(t *testing.T) {
	ds := []Decided{{Collective: "barrier", NP: 4, Ranges: []Range{
		{From: 0, To: 8, Winner: Choice{Algorithm: Algorithm{ID: 6, Name: "tree"}}, Recommended: true}, {From: 16, To: 32}}}}
	r, err := FromVerdict(OpenMPI, ds)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.OMPIFile(); err == nil || !strings.Contains(err.Error(), "communicator size alone") {
		t.Errorf("barrier with two choices: %v", err)
	}
}

func TestParseOMPIRefuses(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"1\n2 1\n4 1\n64 3 0 0\n", "must be 0"},
		{"1\n2 1\n4 2\n0 3 0 0\n0 1 0 0\n", "must increase"},
		{"1\n2 2\n4 1\n0 3 0 0\n2 1\n0 1 0 0\n", "must increase"},
		{"23\n", "Open MPI has 22"},
		{"1\n22 0\n", "ids are 0 to 21"},
		{"1\n2 1\n4 1\n0 ring 0 0\n", "not a plain decimal"},
		{"1\n2 1\n4 1\n0 010 0 0\n", "not a plain decimal"},
		{"1\n2 1\n4 1\n0 3 0\n", "ends where the segment size"},
		{"1\n2 1\n4 1\n0 -3 0 0\n", "negative"},
		{"1\n2 1\n4 1\n0 3 0 0 100\n", "more numbers"},
	} {
		_, err := ParseOMPI(strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

// Open MPI 5.0.7 and later: a version header, and then an optional max-requests
// field on a rule's own line.
func TestParseOMPIVersion2(t *testing.T) {
	text := "rule-file-version-2\n# comment\n1 # one\n3\n1\n4 2\n0 2 0 0 8 # pairwise, 8 requests\n1024 3 0 0\n"
	f, err := ParseOMPI(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := OMPIFile{Version: 2, Colls: []OMPIColl{{ID: 3, Comms: []OMPIComm{{Size: 4, Msgs: []OMPIMsg{
		{Size: 0, Alg: 2, MaxReq: 8}, {Size: 1024, Alg: 3, MaxReq: -1}}}}}}}
	if !reflect.DeepEqual(f, want) {
		t.Errorf("%+v, want %+v", f, want)
	}
	var b bytes.Buffer
	if err := f.Write(&b, nil); err != nil {
		t.Fatal(err)
	}
	if back, err := ParseOMPI(&b); err != nil || !reflect.DeepEqual(back, f) {
		t.Errorf("round trip: %v\n%s", err, b.String())
	}
	// Version 1 (4.1, 5.0 before 5.0.7) has no fifth field.
	if _, err := ParseOMPI(strings.NewReader("1\n3\n1\n4 1\n0 2 0 0 8\n")); err == nil {
		t.Errorf("a fifth field in a version 1 file was accepted")
	}
}

func TestForceAndApplyEnv(t *testing.T) {
	env, err := ForceEnv(OpenMPI, "bcast", Choice{Algorithm: Algorithm{ID: 6, Name: "binomial", Segmented: true}, SegSize: 4096})
	want := []string{"OMPI_MCA_coll_tuned_use_dynamic_rules=1", "OMPI_MCA_coll_tuned_bcast_algorithm=6", "OMPI_MCA_coll_tuned_bcast_algorithm_segmentsize=4096"}
	if err != nil || !reflect.DeepEqual(env, want) {
		t.Errorf("%v %v", env, err)
	}
	env, err = ForceEnv(MPICH, "reduce_scatter_block", Choice{Algorithm: Algorithm{Name: "pairwise"}})
	if err != nil || !reflect.DeepEqual(env, []string{"MPIR_CVAR_REDUCE_SCATTER_BLOCK_INTRA_ALGORITHM=pairwise"}) {
		t.Errorf("%v %v", env, err)
	}
	if got := ApplyEnv(MPICH, "/x.json"); !reflect.DeepEqual(got, []string{"MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=/x.json"}) {
		t.Errorf("%v", got)
	}
}

func TestFromVerdictRefusesOverlaps(t *testing.T) {
	_, err := FromVerdict(OpenMPI, []Decided{{Collective: "allreduce", NP: 2, Ranges: []Range{{From: 0, To: 64}, {From: 64, To: 128}}}})
	if err == nil {
		t.Error("overlapping ranges accepted")
	}
	if _, err := FromVerdict(OpenMPI, []Decided{{Collective: "allreduce_x", NP: 2}}); err == nil {
		t.Error("unknown collective accepted")
	}
}

func mpichLib(t *testing.T) MPICHLibrary {
	t.Helper()
	data, err := os.ReadFile("testdata/mpich-4.0.2-mpir-tree.json")
	if err != nil {
		t.Fatal(err)
	}
	names, err := os.ReadFile("testdata/mpich-4.0.2-algorithm-names.txt")
	if err != nil {
		t.Fatal(err)
	}
	// The library's bytes hold the tree as a NUL-terminated string among others.
	lib := append([]byte("\x00junk{\"collective=x\":1}\x00"), bytes.TrimSpace(data)...)
	lib = append(append(lib, 0), names...)
	m, err := ReadMPICHLibrary(lib)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
