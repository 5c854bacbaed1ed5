package tune

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/tune/collrules"
)

// collFake is a library under test: each launch writes what skampi would, the
// collective's time scaled by speed(algorithm, bytes) where the launch forces an
// algorithm, or by the algorithm an Open MPI rules file names where the launch reads
// one (the A/B), the control never; every launch at its own level (1 ± 2 %) with
// 1 % jitter per point, as runs on a real machine move. fails says which launches
// end with status 1 after half their points, and fault which record a fault.
type collFake struct {
	speed         func(alg string, bytes int64) float64
	segSpeed      func(alg string, seg, bytes int64) float64 // nil: segments change nothing
	fails         func(l inputs.Launch) bool
	fault         func(l inputs.Launch) string // the fault of the last point, if any
	mu            sync.Mutex
	forced        []string // every algorithm value launched
	rulesLaunches int
}

func (f *collFake) launch(l inputs.Launch, suite, dir string, _ bool) (int, error) {
	text, err := os.ReadFile(suite)
	if err != nil {
		return 0, err
	}
	plan, err := inputs.Parse(suite, text)
	if err != nil {
		return 0, err
	}
	env := map[string]string{}
	cvars := map[string]string{}
	for _, kv := range l.Env() {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
		cvars[strings.TrimPrefix(k, "OMPI_MCA_")] = v
	}
	alg, seg := "", int64(0)
	for k, v := range env {
		if strings.HasSuffix(k, "_algorithm_segmentsize") {
			seg, _ = strconv.ParseInt(v, 10, 64)
		}
		if strings.HasSuffix(k, "_ALGORITHM") || strings.HasSuffix(k, "_algorithm") {
			alg = v
			f.mu.Lock()
			f.forced = append(f.forced, v)
			f.mu.Unlock()
		}
	}
	var rules collrules.OMPIFile
	if path := env["OMPI_MCA_coll_tuned_dynamic_rules_filename"]; path != "" && env["OMPI_MCA_coll_tuned_use_dynamic_rules"] == "1" {
		b, err := os.ReadFile(path)
		if err != nil {
			return 0, err
		}
		if rules, err = collrules.ParseOMPI(bytes.NewReader(b)); err != nil {
			return 0, err
		}
		f.rulesLaunches++
	}
	// The launch's noise follows what it runs, not where: a value that is a path (the
	// rules file in a test's temporary directory) counts by its file name.
	h := fnv.New64a()
	fmt.Fprintf(h, "%d %d", l.NP, l.Repeat)
	kvs := l.Env()
	slices.Sort(kvs)
	for _, kv := range kvs {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(h, " %s=%s", k, filepath.Base(v))
	}
	rng := rand.New(rand.NewPCG(h.Sum64(), 7))
	level := 1 + 0.02*(2*rng.Float64()-1)
	runID := fmt.Sprintf("%x", h.Sum64())
	var points []map[string]any
	for _, m := range plan.Measurements {
		for _, b := range m.Sizes {
			t := 1e-6 * level * (1 + 0.01*(2*rng.Float64()-1))
			if m.Op.Name != "Pingpong_Send_Recv" {
				t += float64(b) * 1e-9
				a, sg := alg, seg
				if c, err := collrules.Lookup(strings.ToLower(m.Op.Name)); err == nil && len(rules.Colls) > 0 {
					key := map[collrules.SizeKey]int64{collrules.KeyBytes: b, collrules.KeyBytesTimesNP: b * int64(l.NP)}[c.OMPIKey]
					if r, ok := rules.Choose(c.OMPIID, l.NP, key); ok {
						a, sg = strconv.FormatInt(r.Alg, 10), r.SegSize
					}
				}
				t *= f.speed(a, b)
				if f.segSpeed != nil {
					t *= f.segSpeed(a, sg, b)
				}
			}
			points = append(points, map[string]any{"kind": "point", "run_id": runID, "point_index": len(points) + 1, "measurement": m.Name,
				"measurement_index": m.Index, "op": m.Op.Name, "family": "coll", "msg_bytes": b, "nprocs": l.NP, "timer": "global-loop",
				"sync": "barrier", "cache": "warm", "iterations": 100, "time_s": t, "mean_s": t, "median_s": t, "min_s": t * 0.99, "p10_s": t,
				"p90_s": t, "max_s": t * 1.01, "stderr_s": t * 0.001, "reps": 3, "stop": "converged", "samples_s": []float64{t * 0.99, t, t * 1.01}})
		}
	}
	code := 0
	if f.fails != nil && f.fails(l) {
		points, code = points[:len(points)/2], 1
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.Encode(map[string]any{"kind": "run", "run_id": runID, "skampi_version": "test", "start_time": "2026-11-29T12:00:00Z", "nprocs": l.NP, "points": len(plan.Measurements[0].Sizes) + len(plan.Measurements[1].Sizes),
		"suite": plan.Name, "suite_sha256": plan.SHA256, "mpi_cvars": cvars})
	for i, p := range points {
		if f.fault != nil && f.fault(l) != "" && i == len(points)-1 {
			enc.Encode(map[string]any{"kind": "fault", "run_id": runID, "point_index": p["point_index"], "measurement": p["measurement"],
				"measurement_index": p["measurement_index"], "op": p["op"], "msg_bytes": p["msg_bytes"], "nprocs": l.NP, "fault": f.fault(l)})
			continue
		}
		enc.Encode(p)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	return code, os.WriteFile(filepath.Join(dir, "results.jsonl"), out.Bytes(), 0o644)
}

// sweepColls runs skampi tune --collectives on the fake, with this Open MPI's
// parameter list (or mpich's, for an MPICH build), and returns what it printed. It
// sweeps no segment sizes (--segment-sizes 0): sweepSegments does.
func sweepColls(t *testing.T, f *collFake, build string, ompi, mpich Catalog, colls ...string) (string, string) {
	return sweepSegments(t, f, build, ompi, mpich, []int64{0}, colls...)
}

func sweepSegments(t *testing.T, f *collFake, build string, ompi, mpich Catalog, segs []int64, colls ...string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	var out bytes.Buffer
	o := RunOptions{Collectives: colls, Dir: dir, Build: build, Stdout: &out, Stderr: io.Discard, Launch: f.launch,
		Catalogs: func(*inputs.Tune) (Catalog, Catalog) { return ompi, mpich }, SegmentSizes: segs}
	if err := Run(o); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	return dir, out.String()
}

func ompi414(t *testing.T) Catalog {
	return readCatalog(t, "testdata/ompi_info-4.1.4-coll-tuned.txt", ParseOMPIInfo)
}

// rulesOf reads the Open MPI rules file a sweep wrote, as Open MPI reads it.
func rulesOf(t *testing.T, dir string) collrules.OMPIFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, OMPIRulesFile))
	if err != nil {
		t.Fatal(err)
	}
	f, err := collrules.ParseOMPI(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// twiceAsFastAbove: recursive doubling (3) twice as fast from 4 KiB on, every other
// algorithm slower than the default everywhere (as real ones are somewhere).
func twiceAsFastAbove(alg string, b int64) float64 {
	switch {
	case alg == "3" && b >= 4096:
		return 0.5
	case alg == "0" || alg == "" || alg == "3":
		return 1
	}
	return 1.5
}

var collSizesTested = []int64{4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1 << 20}

// (a) One algorithm twice as fast in one size range: the rules file names it there and
// the default everywhere else, and the A/B finds the rules faster with the file in
// effect.
func TestCollSweepRulesNameTheWinnerWhereItWins(t *testing.T) {
	f := &collFake{speed: twiceAsFastAbove}
	dir, out := sweepColls(t, f, "openmpi", ompi414(t), nil, "Allreduce")
	rules := rulesOf(t, dir)
	for _, b := range collSizesTested {
		m, ok := rules.Choose(2, 2, b) // allreduce: Open MPI's collective 2, keyed by bytes
		want := int64(0)
		if b >= 4096 {
			want = 3
		}
		if !ok || m.Alg != want {
			t.Errorf("%d B: algorithm %d, want %d\n%s", b, m.Alg, want, out)
		}
	}
	if m, _ := rules.Choose(2, 2, 4<<20); m.Alg != 0 {
		t.Errorf("above the sizes measured: algorithm %d, want the default", m.Alg)
	}
	for _, want := range []string{"recursive_doubling (3), 2.00× faster", "mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename " + filepath.Join(dir, OMPIRulesFile),
		"export OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_dynamic_rules_filename=", "Allreduce                  the rules win: 1.4",
		"in effect: MPI_T shows the rules file set in all 5 runs"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	if f.rulesLaunches != 5 {
		t.Errorf("%d launches read the rules file, want the A/B's 5", f.rulesLaunches)
	}
	if _, err := os.Stat(filepath.Join(dir, "coll-summary.txt")); err != nil {
		t.Error(err)
	}
}

// (b) No algorithm better (A/A): the rules keep the default everywhere, the output says
// so, and the A/B finds the file read and the collectives tied.
func TestCollSweepAAKeepsTheDefault(t *testing.T) {
	f := &collFake{speed: func(string, int64) float64 { return 1 }}
	dir, out := sweepColls(t, f, "openmpi", ompi414(t), nil, "Allreduce", "Bcast")
	if rules := rulesOf(t, dir); len(rules.Colls) != 0 {
		t.Errorf("A/A rules %+v\n%s", rules, out)
	}
	for _, want := range []string{"the rules keep the default everywhere", "A/B: the rules keep the default", "in effect: MPI_T shows the rules file set in all 5 runs"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	if f.rulesLaunches != 5 {
		t.Errorf("%d launches read the rules file, want the A/B's 5", f.rulesLaunches)
	}
	if strings.Contains(out, "LOSE") || strings.Count(out, " tie: ") != 2 {
		t.Errorf("the A/B of a file that keeps the default: want a tie for each collective:\n%s", out)
	}
}

// (c) The algorithms swept are the catalogue's: another Open MPI's list gives another
// grid, and MPICH's come from mpivars.
func TestCollSweepAlgorithmsFromTheCatalogue(t *testing.T) {
	launched := func(f *collFake) []string {
		var vs []string
		for _, v := range f.forced {
			if !slices.Contains(vs, v) {
				vs = append(vs, v)
			}
		}
		slices.Sort(vs)
		return vs
	}
	one := func(string, int64) float64 { return 1 }
	f := &collFake{speed: one}
	sweepColls(t, f, "openmpi", ompi414(t), nil, "Allreduce")
	if got, want := launched(f), []string{"0", "1", "2", "3", "4", "5", "6"}; !slices.Equal(got, want) {
		t.Errorf("Open MPI 4.1.4's allreduce: launched %v, want %v", got, want)
	}
	other := Catalog{}
	for k, v := range ompi414(t) {
		other[k] = v
	}
	p := other["coll_tuned_allreduce_algorithm"]
	p.Enums = []string{"ignore", "0", "ring", "4", "future", "9"}
	other["coll_tuned_allreduce_algorithm"] = p
	f = &collFake{speed: one}
	sweepColls(t, f, "openmpi", other, nil, "Allreduce")
	if got, want := launched(f), []string{"0", "4", "9"}; !slices.Equal(got, want) {
		t.Errorf("another list: launched %v, want %v", got, want)
	}
	mpich := readCatalog(t, "testdata/mpivars-4.0.2-algorithms.txt", ParseMPIVars)
	f = &collFake{speed: one}
	sweepColls(t, f, "mpich", nil, mpich, "Allreduce")
	want := []string{"auto"}
	for _, a := range CollAlgorithmsMPICH(mpich)["allreduce"] {
		want = append(want, a.Name)
	}
	slices.Sort(want)
	if got := launched(f); !slices.Equal(got, want) || len(want) < 3 {
		t.Errorf("MPICH 4.0.2's allreduce: launched %v, want %v", got, want)
	}
}

// (d) An algorithm whose launches fail (a crash halfway, or a timeout recorded) is
// never chosen, however fast what it measured.
func TestCollSweepNeverChoosesAFailingAlgorithm(t *testing.T) {
	for name, f := range map[string]*collFake{
		"crash":   {speed: twiceAsFastAbove, fails: func(l inputs.Launch) bool { return l.Repeat == 2 && forces(l, "3") }},
		"timeout": {speed: twiceAsFastAbove, fault: faultOf("timeout")},
		"corrupt": {speed: twiceAsFastAbove, fault: faultOf("corrupt")},
	} {
		dir, out := sweepColls(t, f, "openmpi", ompi414(t), nil, "Allreduce")
		for _, c := range rulesOf(t, dir).Colls {
			for _, comm := range c.Comms {
				for _, m := range comm.Msgs {
					if m.Alg == 3 {
						t.Errorf("%s: the failing algorithm is chosen:\n%s", name, out)
					}
				}
			}
		}
		if !strings.Contains(out, "coll_tuned_allreduce_algorithm=3: never chosen: repeat") {
			t.Errorf("%s: the output does not say why algorithm 3 is left out:\n%s", name, out)
		}
	}
}

// faultOf: algorithm 3's fourth launch records that fault at its last point.
func faultOf(kind string) func(inputs.Launch) string {
	return func(l inputs.Launch) string {
		if l.Repeat == 4 && forces(l, "3") {
			return kind
		}
		return ""
	}
}

func forces(l inputs.Launch, alg string) bool {
	for _, v := range l.Values {
		if strings.HasSuffix(v.Param.Name, "_algorithm") && v.Value == alg {
			return true
		}
	}
	return false
}

// An MPICH build sweeps MPICH's algorithm variable and grafts the winner into MPICH's
// own selection tree, where it wins only.
func TestCollSweepMPICHSelectionFile(t *testing.T) {
	f := &collFake{speed: func(alg string, b int64) float64 {
		if alg == "recursive_doubling" && b >= 4096 {
			return 0.5
		}
		if alg == "auto" || alg == "" || alg == "recursive_doubling" {
			return 1
		}
		return 1.5
	}}
	dir := t.TempDir()
	var out bytes.Buffer
	read, mpich := mpich402(t)
	o := RunOptions{Collectives: []string{"Allreduce"}, Dir: dir, Build: "mpich", Stdout: &out, Stderr: io.Discard, Launch: f.launch,
		Catalogs: func(*inputs.Tune) (Catalog, Catalog) { return nil, mpich }, MPICHSelection: read}
	if err := Run(o); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, MPICHRulesFile))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := collrules.ParseTree(b)
	if err != nil {
		t.Fatal(err)
	}
	intra := tree.Get("collective=allreduce").Get("comm_type=intra")
	if intra == nil || intra.Get("comm_size<=2") == nil {
		t.Fatalf("no rules for 2 processes:\n%s", b)
	}
	two := intra.Get("comm_size<=2")
	if got := two.Get("avg_msg_size<=1048576"); got == nil || got.Get("algorithm=MPIR_Allreduce_intra_recursive_doubling") == nil {
		t.Errorf("4 KiB - 1 MiB: %+v, want recursive doubling\n%s", two, out.String())
	}
	for _, want := range []string{"export MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=" + filepath.Join(dir, MPICHRulesFile), "A/B, 2 processes"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, out.String())
		}
	}
	read = func(string) (collrules.MPICHLibrary, error) { return collrules.MPICHLibrary{}, fmt.Errorf("no libmpi") }
	o.Dir, o.MPICHSelection = t.TempDir(), read
	out.Reset()
	if err := Run(o); err != nil || !strings.Contains(out.String(), "MPICH's selection file: not written: MPICH's own selection tree") {
		t.Errorf("without MPICH's own tree: %v\n%s", err, out.String())
	}
}

// --resume continues every collective's sweep and launches nothing complete again;
// --verdict-only rewrites the rules from what is there.
func TestCollSweepResumeAndVerdictOnly(t *testing.T) {
	f := &collFake{speed: twiceAsFastAbove}
	dir, _ := sweepColls(t, f, "openmpi", ompi414(t), nil, "Allreduce")
	first, err := os.ReadFile(filepath.Join(dir, OMPIRulesFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, flags := range []RunOptions{{Resume: true}, {VerdictOnly: true}} {
		var out bytes.Buffer
		g := &collFake{speed: twiceAsFastAbove}
		o := flags
		o.Collectives, o.Dir, o.Build, o.Stdout, o.Stderr, o.Launch = []string{"Allreduce"}, dir, "openmpi", &out, io.Discard, g.launch
		o.SegmentSizes = []int64{0} // as sweepColls swept: other segment sizes are another sweep
		o.Catalogs = func(*inputs.Tune) (Catalog, Catalog) { return ompi414(t), nil }
		if err := Run(o); err != nil {
			t.Fatalf("%+v: %v\n%s", flags, err, out.String())
		}
		if len(g.forced) != 0 || g.rulesLaunches != 0 {
			t.Errorf("%+v launched again: %v", flags, g.forced)
		}
		again, _ := os.ReadFile(filepath.Join(dir, OMPIRulesFile))
		if !bytes.Equal(first, again) || !strings.Contains(out.String(), "the rules win") {
			t.Errorf("%+v: another rules file or no A/B:\n%s\n%s", flags, again, out.String())
		}
	}
	if err := Run(RunOptions{Collectives: []string{"Allreduce"}, Dir: dir, Stdout: io.Discard, Stderr: io.Discard,
		Catalogs: func(*inputs.Tune) (Catalog, Catalog) { return ompi414(t), nil }, Launch: f.launch}); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("a second sweep into the same directory: %v", err)
	}
	if err := Run(RunOptions{Collectives: []string{"Allreduc"}, Dir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), `no collective "allreduc"`) {
		t.Errorf("a misspelt collective: %v", err)
	}
}

// The barrier, which Open MPI chooses by communicator size alone, gets the algorithm
// that wins at every one of its points; MPICH's gather, chosen the same way, keeps the
// default when its winner wins at some sizes only, and the summary says why.
func TestCollSweepSizeBlindCollectives(t *testing.T) {
	f := &collFake{speed: func(alg string, b int64) float64 {
		switch alg {
		case "6", "binomial":
			if b >= 4096 || b < 4 {
				return 0.5 // the barrier's four points, the gather's large sizes
			}
		case "0", "", "auto":
			return 1
		}
		return 1.5
	}}
	dir, out := sweepColls(t, f, "openmpi", ompi414(t), nil, "Barrier")
	if m, ok := rulesOf(t, dir).Choose(6, 2, 0); !ok || m.Alg != 6 {
		t.Errorf("barrier on 2 processes: algorithm %d, want tree (6)\n%s", m.Alg, out)
	}
	mpich := readCatalog(t, "testdata/mpivars-4.0.2-algorithms.txt", ParseMPIVars)
	mpich["MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE"] = ParamInfo{Name: "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE", Type: "MPI_CHAR"}
	var buf bytes.Buffer
	o := RunOptions{Collectives: []string{"Gather"}, Dir: t.TempDir(), Build: "mpich", Stdout: &buf, Stderr: io.Discard, Launch: f.launch,
		Catalogs: func(*inputs.Tune) (Catalog, Catalog) { return nil, mpich }, MPICHSelection: func(string) (collrules.MPICHLibrary, error) {
			return collrules.MPICHLibrary{}, fmt.Errorf("not needed")
		}}
	if err := Run(o); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"4 KiB – 1 MiB      the library's default (the library chooses its algorithm by communicator size alone", "the rules keep the default everywhere"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("MPICH's gather: the output lacks %q:\n%s", want, buf.String())
		}
	}
}

// mpich402 is MPICH 4.0.2's own selection tree (read as from its libmpi) and its
// algorithm variables as mpivars lists them.
func mpich402(t *testing.T) (func(string) (collrules.MPICHLibrary, error), Catalog) {
	read := func(string) (collrules.MPICHLibrary, error) {
		tree, err := os.ReadFile("collrules/testdata/mpich-4.0.2-mpir-tree.json")
		if err != nil {
			return collrules.MPICHLibrary{}, err
		}
		names, err := os.ReadFile("collrules/testdata/mpich-4.0.2-algorithm-names.txt")
		if err != nil {
			return collrules.MPICHLibrary{}, err
		}
		return collrules.ReadMPICHLibrary(append(append(bytes.TrimSpace(tree), 0), names...))
	}
	mpich := readCatalog(t, "testdata/mpivars-4.0.2-algorithms.txt", ParseMPIVars)
	// the excerpt holds the algorithms' variables only; mpivars lists this one too
	mpich["MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE"] = ParamInfo{Name: "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE", Type: "MPI_CHAR"}
	return read, mpich
}

// The rules file's variables as the B runs recorded them: MPI_T's value where it shows
// one; where MPI_T shows a string empty (MPICH's MPI_T, every string control variable)
// and the run's own environment set it to the file, that environment; anything else is
// not in effect.
func TestRulesInEffect(t *testing.T) {
	const path = "/d/coll-rules-mpich.json"
	run := func(mpit, env string) record.Run {
		r := record.Run{MPIControlVars: map[string]string{"MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE": mpit}, Env: map[string]string{}}
		if env != "" {
			r.Env["MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE"] = env
		}
		return r
	}
	res := func(runs ...record.Run) Result { return Result{Results: &report.Results{Runs: runs}} }
	for _, c := range []struct {
		name string
		b    Result
		want string
	}{
		{"MPI_T shows it", res(run(path, path), run(path, "")), "in effect: MPI_T shows the rules file set in all 2 runs"},
		{"MPI_T shows strings empty", res(run("", path), run("", path)), "in effect: the rules file set in all 2 runs with it, by the environment each run recorded"},
		{"not in the environment", res(run("", path), run("", "")), "NOT in effect in 1 of 2 runs"},
		{"another file", res(run("", "/elsewhere.json")), "NOT in effect in 1 of 1 runs"},
	} {
		if got := inEffect(collrules.MPICH, path, c.b); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %q, want %q...", c.name, got, c.want)
		}
	}
}

// Segment sizes: every forced algorithm runs at each, the library's own decision once;
// an algorithm that wins only at one segment size is written with it, and the A/B runs
// the rules with it.
func TestCollSweepSegmentSizes(t *testing.T) {
	algs := CollAlgorithmsOMPI(ompi414(t))["allreduce"]
	segs := []int64{0, 4096, 16384}
	o := RunOptions{SegmentSizes: segs}
	tu, err := collTune(collrules.OpenMPI, "Allreduce", algs, []int{2}, o.segValues(collrules.OpenMPI, algs))
	if err != nil {
		t.Fatal(err)
	}
	cs := tu.Combinations()
	if len(cs) != 1+len(algs)*len(segs) {
		t.Errorf("%d combinations, want the default once and %d algorithms x %d segment sizes", len(cs), len(algs), len(segs))
	}
	for _, c := range cs {
		if forcesIn(c.Values, "0") && segSizeOf(c, "allreduce") != 0 {
			t.Errorf("the library's decision at a segment size: %s", c.Describe())
		}
	}
	if got := (RunOptions{SegmentSizes: segs}).segValues(collrules.MPICH, algs); got != nil {
		t.Errorf("MPICH sweeps segment sizes %v: its algorithms take none", got)
	}

	f := &collFake{speed: func(string, int64) float64 { return 1 }, segSpeed: func(alg string, seg, b int64) float64 {
		if alg == "3" && seg == 16384 && b >= 65536 {
			return 0.5
		}
		return 1
	}}
	dir, out := sweepSegments(t, f, "openmpi", ompi414(t), nil, segs, "Allreduce")
	rules := rulesOf(t, dir)
	for _, b := range collSizesTested {
		m, ok := rules.Choose(2, 2, b)
		want, wantSeg := int64(0), int64(0)
		if b >= 65536 {
			want, wantSeg = 3, 16384
		}
		if !ok || m.Alg != want || m.SegSize != wantSeg {
			t.Errorf("%d B: algorithm %d in segments of %d, want %d in %d\n%s", b, m.Alg, m.SegSize, want, wantSeg, out)
		}
	}
	for _, want := range []string{"each at segment sizes 0, 4096, 16384 B", "recursive_doubling (3) in segments of 16384 B, 2.00× faster", "Allreduce                  the rules win"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}

func forcesIn(vs []inputs.ParamValue, alg string) bool {
	for _, v := range vs {
		if strings.HasSuffix(v.Param.Name, "_algorithm") && v.Value == alg {
			return true
		}
	}
	return false
}
