package tune

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/report"
)

const ompiInfo = `mca:btl:vader:param:btl_vader_eager_limit:value:4096
mca:btl:vader:param:btl_vader_eager_limit:type:size_t
mca:btl:vader:param:btl_vader_single_copy_mechanism:value:cma
mca:btl:vader:param:btl_vader_single_copy_mechanism:enumerator:value:1:cma
mca:btl:vader:param:btl_vader_single_copy_mechanism:enumerator:value:3:none
mca:btl:vader:param:btl_vader_single_copy_mechanism:type:int
mca:pml:ob1:param:pml_ob1_use_early_completion:type:bool
`

const mpiVars = `344 MPI Control Variables
	MPIR_CVAR_BCAST_SHORT_MSG_SIZE  =12288	SCOPE_ALL_EQ	No-object	MPI_INT	VERBOSITY_USER_BASIC	short messages
	MPIR_CVAR_IBCAST_TREE_TYPE      =kary	SCOPE_ALL_EQ	No-object	MPI_CHAR	VERBOSITY_USER_BASIC	tree type
`

// Names and values are checked against what the libraries list, with the tune file's
// positions; a typo gets the nearest name.
func TestValidate(t *testing.T) {
	tu, err := inputs.ParseTune("v.toml", []byte(`suite = "quick"
libraries = ["openmpi", "mpich"]
[mca]
btl_vader_eager_limt = [4096]
btl_vader_single_copy_mechanism = ["cma", "xpmem"]
pml_ob1_use_early_completion = ["maybe"]
[cvar]
MPIR_CVAR_BCAST_SHORT_MSG_SIZE = [1024, "big"]
MPIR_CVAR_IBCAST_TREE_TYPE = ["knomial_1"]
`))
	if err != nil {
		t.Fatal(err)
	}
	err = Validate(tu, ParseOMPIInfo(ompiInfo), ParseMPIVars(mpiVars))
	want := []string{
		`v.toml:4:1: mca.btl_vader_eager_limt: Open MPI has no parameter "btl_vader_eager_limt" (ompi_info --param all all --level 9 lists them); did you mean "btl_vader_eager_limit"?`,
		`v.toml:5:43: mca.btl_vader_single_copy_mechanism: "xpmem" is not one of btl_vader_single_copy_mechanism's values (cma, none)`,
		`v.toml:6:33: mca.pml_ob1_use_early_completion: pml_ob1_use_early_completion is a boolean, got "maybe"`,
		`v.toml:8:41: cvar.MPIR_CVAR_BCAST_SHORT_MSG_SIZE: MPIR_CVAR_BCAST_SHORT_MSG_SIZE is an integer (MPI_INT), got "big"`,
	}
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("got\n%v\nwant\n%s", err, strings.Join(want, "\n"))
	}
	if err := Validate(tu, nil, ParseMPIVars(mpiVars)); err == nil || !strings.Contains(err.Error(), "Open MPI's parameter list could not be read") {
		t.Errorf("without ompi_info: %v", err)
	}
}

const twoValues = `description = "two eager limits"
repeats = 5
[[measurement]]
name = "sr"
op = "Sendrecv_Shift"
sizes = [8, 64]
[mca]
btl_vader_eager_limit = [4096, 8192]
`

// fakeRun writes a run's results as skampi would: testdata's real records, under a
// run id of the launch, times scaled by scale for messages of at least 4 KiB and by
// level for all (what moves from run to run).
func fakeRun(t *testing.T, dir, runID string, scale, level float64) {
	t.Helper()
	fakeRunBy(t, dir, runID, func(string) float64 { return scale }, level)
}

// fakeRunBy is fakeRun with a scale per measurement.
func fakeRunBy(t *testing.T, dir, runID string, scaleOf func(measurement string) float64, level float64) {
	t.Helper()
	in, err := os.Open("../plots/testdata/sendrecv-np2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		rec["run_id"] = runID
		if rec["kind"] == "point" {
			scale := scaleOf(rec["measurement"].(string))
			if rec["msg_bytes"].(float64) < 4096 {
				scale = 1
			}
			scale *= level
			for _, k := range []string{"time_s", "mean_s", "median_s", "min_s", "p10_s", "p90_s", "max_s", "stderr_s"} {
				if v, ok := rec[k].(float64); ok {
					rec[k] = v * scale
				}
			}
			if ss, ok := rec["samples_s"].([]any); ok {
				for i := range ss {
					ss[i] = ss[i].(float64) * scale
				}
			}
		}
		b, _ := json.Marshal(rec)
		out.Write(append(b, '\n'))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "results.jsonl"), out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A sweep launches the schedule in order, skips what is complete when resumed, refuses
// to start over a sweep or resume another tune file's; the verdict finds the faster
// setting where it is faster, says the baseline keeps the rest, and gives the lines to
// apply it.
func TestSweepResumeAndVerdict(t *testing.T) {
	tu, err := inputs.ParseTune("two.toml", []byte(twoValues))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var launched []string
	fail := 3
	launch := func(l inputs.Launch, suite, out string, resume bool) (int, error) {
		if _, err := inputs.Load(suite); err != nil {
			t.Errorf("%s: its suite: %v", l.Name, err)
		}
		if len(launched)+1 == fail {
			return 0, errors.New("the machine went away")
		}
		launched = append(launched, fmt.Sprintf("%s#%d", l.Values[0].Value, l.Repeat))
		scale := 1.0
		if l.Values[0].Value == "8192" {
			scale = 0.5
		}
		// The machine's level moves between repeats by up to ±20 %, the same for every
		// combination of a round.
		fakeRun(t, out, fmt.Sprintf("%s-%d", l.Name, l.Repeat), scale, []float64{1, 1.2, 0.85, 1.1, 0.9}[l.Repeat-1])
		return 0, nil
	}
	var log bytes.Buffer
	o := Options{Dir: dir, Out: &log}
	if err := Sweep(tu, o, launch); err == nil || !strings.Contains(err.Error(), "the machine went away") {
		t.Fatalf("interrupted sweep: %v", err)
	}
	if err := Sweep(tu, o, launch); err == nil || !strings.Contains(err.Error(), "already holds a sweep") {
		t.Errorf("started over: %v", err)
	}
	fail = 0
	o.Resume = true
	if err := Sweep(tu, o, launch); err != nil {
		t.Fatal(err)
	}
	// Interleaved: round 2 starts with the second combination; the first two were
	// not launched again.
	if got := strings.Join(launched, " "); got != "4096#1 8192#1 8192#2 4096#2 4096#3 8192#3 8192#4 4096#4 4096#5 8192#5" {
		t.Errorf("launches %s\n%s", got, log.String())
	}
	other, _ := inputs.ParseTune("other.toml", []byte(strings.Replace(twoValues, "8192", "16384", 1)))
	if err := Sweep(other, o, launch); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("another tune's sweep resumed: %v", err)
	}

	res, err := Load(tu, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].Label != "btl_vader_eager_limit=4096" || len(res[1].Results.Runs) != 5 {
		t.Fatalf("results %+v", res)
	}
	v, err := Judge(tu, res)
	if err != nil {
		t.Fatal(err)
	}
	g := v.Groups[0]
	byMeasurement := map[string][]Range{}
	for _, m := range g.Measurements {
		byMeasurement[m.Measurement] = m.Ranges
	}
	// Sendrecv_Shift of the testdata: 8 B to 256 KiB by *8; halved from 4 KiB.
	rs := byMeasurement["Sendrecv_Shift"]
	if len(rs) != 2 || !rs[0].Baseline || rs[0].To != 512 || rs[1].Winner != "btl_vader_eager_limit=8192" || rs[1].From != 4096 ||
		rs[1].Factor < 1.99 || rs[1].Factor > 2.01 || rs[1].Significant != rs[1].Sizes {
		t.Errorf("ranges %+v", rs)
	}
	r := g.Recommendation
	if r.Label != "btl_vader_eager_limit=8192" || len(r.Apply) != 3 || r.Apply[0] != "MCA file:      btl_vader_eager_limit = 8192   ($HOME/.openmpi/mca-params.conf)" ||
		r.Apply[1] != "environment:   export OMPI_MCA_btl_vader_eager_limit=8192" || r.Apply[2] != "mpirun flag:   mpirun --mca btl_vader_eager_limit 8192 ..." {
		t.Errorf("recommendation %+v", r)
	}
	var text bytes.Buffer
	v.Write(&text)
	for _, want := range []string{"baseline btl_vader_eager_limit=4096", "2.00× faster", "recommendation for every size: btl_vader_eager_limit=8192",
		"Sendrecv_Shift 4 KiB – 256 KiB: 2.00× faster", "keep the baseline: no setting significantly faster"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("verdict lacks %q:\n%s", want, text.String())
		}
	}
}

// The lines that apply a recommendation name what changed, parameter by parameter,
// whatever the order of the combinations' values; another library is named with its
// binary.
func TestApplyLines(t *testing.T) {
	tu, err := inputs.ParseTune("l.toml", []byte(`suite = "quick"
libraries = ["openmpi", "mpich"]
[mca]
btl_vader_eager_limit = [4096, 8192]
[cvar]
MPIR_CVAR_CH4_SHM_POSIX_EAGER_MAX_MSG_SIZE = [16384]
[env]
UCX_TLS = ["sm", "tcp"]
`))
	if err != nil {
		t.Fatal(err)
	}
	cs := tu.Combinations() // openmpi: 2 x 2, then mpich: 1 x 2
	base, mpich := cs[0], cs[len(cs)-1]
	got := strings.Join(applyLines(mpich, base), "\n")
	want := "library:       use mpich (its skampi: bin/skampi-mpich)\nenvironment:   export MPIR_CVAR_CH4_SHM_POSIX_EAGER_MAX_MSG_SIZE=16384\nenvironment:   export UCX_TLS=tcp"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := strings.Join(applyLines(cs[2], base), "\n"); got != "MCA file:      btl_vader_eager_limit = 8192   ($HOME/.openmpi/mca-params.conf)\n"+
		"environment:   export OMPI_MCA_btl_vader_eager_limit=8192\nmpirun flag:   mpirun --mca btl_vader_eager_limit 8192 ..." {
		t.Errorf("openmpi: %s", got)
	}
	// A baseline without results: the group says so, the others are still judged.
	res := []Result{{Combination: base, Label: "a", Results: &report.Results{}}, {Combination: cs[1], Label: "b", Results: &report.Results{}}}
	v, err := Judge(tu, res)
	if err != nil || !strings.Contains(v.Groups[0].Recommendation.Why, "the baseline (a) has no results") {
		t.Errorf("%v %+v", err, v)
	}
}

// Values are checked against the parameter's C type: a negative size would reach the
// library as a huge unsigned one, a value past an int's range as another number.
func TestCatalogRanges(t *testing.T) {
	cat := ParseOMPIInfo(`mca:btl:vader:param:btl_vader_eager_limit:type:size_t
mca:x:y:param:x_int:type:int
mca:x:y:param:x_uint:type:unsigned_int
mca:x:y:param:x_double:type:double
`)
	for _, c := range []struct{ name, value, want string }{
		{"btl_vader_eager_limit", "-1", "btl_vader_eager_limit is an unsigned integer (size_t): -1 is negative"},
		{"btl_vader_eager_limit", "-99999999999999999999", "btl_vader_eager_limit is an unsigned integer (size_t): -99999999999999999999 is negative"},
		{"btl_vader_eager_limit", "18446744073709551616", "btl_vader_eager_limit is a 64-bit unsigned integer (size_t): 18446744073709551616 is more than 18446744073709551615"},
		{"btl_vader_eager_limit", "18446744073709551615", ""},
		{"x_int", "2147483648", "x_int is a 32-bit integer (int): 2147483648 is outside -2147483648 to 2147483647"},
		{"x_int", "-2147483648", ""},
		{"x_uint", "4294967296", "x_uint is a 32-bit unsigned integer (unsigned_int): 4294967296 is more than 4294967295"},
		{"x_uint", "4k", `x_uint is an integer (unsigned_int), got "4k"`},
		{"x_double", "NaN", `x_double is a finite number (double), got "NaN"`},
		{"x_double", "1e-3", ""},
	} {
		err := cat[c.name].Check(c.value)
		if got := fmt.Sprint(err); c.want == "" && err != nil || c.want != "" && got != c.want {
			t.Errorf("%s = %s: %v, want %q", c.name, c.value, err, c.want)
		}
	}
}

// A resume compares the text of the suite the sweep measured, not only the tune file:
// an edited suite file made a resume take the old results for the new suite.
func TestSweepRefusesChangedSuite(t *testing.T) {
	src := t.TempDir()
	tf, sf := filepath.Join(src, "t.toml"), filepath.Join(src, "s.toml")
	os.WriteFile(tf, []byte("suite = \"s.toml\"\nrepeats = 1\n[mca]\nbtl_vader_eager_limit = [4096, 8192]\n"), 0o644)
	os.WriteFile(sf, []byte("[[measurement]]\nname = \"sr\"\nop = \"Sendrecv_Shift\"\nsizes = [8, 64]\n"), 0o644)
	tu, err := inputs.LoadTune(tf)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	launches := 0
	launch := func(l inputs.Launch, suite, out string, resume bool) (int, error) {
		launches++
		fakeRun(t, out, l.Name, 1, 1)
		return 0, nil
	}
	var log bytes.Buffer
	if err := Sweep(tu, Options{Dir: dir, Out: &log}, launch); err != nil || launches != 2 {
		t.Fatalf("%d launches: %v", launches, err)
	}
	os.WriteFile(sf, []byte("[[measurement]]\nname = \"sr\"\nop = \"Sendrecv_Shift\"\nsizes = [8, 64, 512]\n"), 0o644)
	edited, err := inputs.LoadTune(tf)
	if err != nil {
		t.Fatal(err)
	}
	var ue *UsageError
	err = Sweep(edited, Options{Dir: dir, Out: &log, Resume: true}, launch)
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "the suite "+sf+" has changed since the sweep in "+dir+" started") || launches != 2 {
		t.Errorf("resumed over an edited suite (%d launches): %v", launches, err)
	}
	if err := CheckDir(edited, dir, false); err == nil || !strings.Contains(err.Error(), "has changed") {
		t.Errorf("judged over an edited suite: %v", err)
	}
	if err := CheckDir(edited, dir, true); err != nil {
		t.Errorf("--force: %v", err)
	}
	if err := CheckDir(tu, dir, false); err != nil {
		t.Errorf("the same suite: %v", err)
	}
	if err := CheckDir(tu, t.TempDir(), false); !errors.As(err, &ue) || !strings.Contains(err.Error(), "holds no sweep") {
		t.Errorf("no sweep: %v", err)
	}
}

// One tune run at a time in a sweep directory: the second is told who holds it.
func TestLock(t *testing.T) {
	dir := t.TempDir()
	release, err := Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(dir); err == nil || !strings.Contains(err.Error(), dir+" is in use by another skampi tune (process "+fmt.Sprint(os.Getpid())) {
		t.Errorf("second lock: %v", err)
	}
	release()
	again, err := Lock(dir)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again()
}

// Labels tell every combination apart, even when values are written to look like
// other parameters.
func TestLabelsUnique(t *testing.T) {
	tu, err := inputs.ParseTune("l.toml", []byte(`suite = "quick"
[env]
A = ["1, B=2", "1"]
B = ["3", "2, B=3"]
`))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, l := range Labels(tu.Combinations()) {
		if seen[l] {
			t.Errorf("label %q twice", l)
		}
		seen[l] = true
	}
}

// A value is written into a combination's suite file only as a comment: one with a
// newline once wrote TOML of its own into the suite the launch measured.
func TestSweepSuiteHeaderStaysComment(t *testing.T) {
	tu, err := inputs.ParseTune("h.toml", []byte(`[[measurement]]
name = "sr"
op = "Sendrecv_Shift"
sizes = [8, 64]
[env]
X = ["a\n[settings]\nwindow = 3", "b"]
`))
	if err != nil {
		t.Fatal(err)
	}
	launch := func(l inputs.Launch, suite, out string, resume bool) (int, error) {
		p, err := inputs.Load(suite)
		if err != nil || p.Settings.Window != inputs.Defaults().Window {
			t.Errorf("%s: the suite it ran: %v, window %d", l.Describe(), err, p.Settings.Window)
		}
		fakeRun(t, out, fmt.Sprintf("%s-%d", l.Name, l.Repeat), 1, 1)
		return 0, nil
	}
	if err := Sweep(tu, Options{Dir: t.TempDir(), Out: io.Discard}, launch); err != nil {
		t.Fatal(err)
	}
}

// A framework's selection parameter takes the components this Open MPI lists (from
// ompi_info's version lines), one by one in a list, "^" excluding; a typo gets the
// nearest, and the list of what there is.
func TestValidateComponents(t *testing.T) {
	cat := ParseOMPIInfo(`mca:pml:base:param:pml:type:string
mca:pml:ob1:version:mca:2.1.0
mca:pml:ucx:version:mca:2.1.0
mca:pml:cm:version:mca:2.1.0
mca:pml:cm:version:api:2.1.0
mca:btl:base:param:btl:type:string
mca:btl:self:version:mca:2.1.0
mca:btl:vader:version:mca:2.1.0
mca:btl:tcp:version:mca:2.1.0
mca:btl:vader:param:btl_vader_eager_limit:type:size_t
`)
	if p := cat["pml"]; !slices.Equal(p.Components, []string{"cm", "ob1", "ucx"}) || p.Framework != "pml" {
		t.Fatalf("pml: %+v", p)
	}
	tu, err := inputs.ParseTune("c.toml", []byte(`suite = "quick"
[mca]
pml = ["ob1", "ucxx"]
btl = ["self,vader", "^tcp", "self,vadr"]
btl_vader_eager_limit = [4096]
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`c.toml:3:15: mca.pml: no component ucxx (did you mean ucx?); this Open MPI has: cm, ob1, ucx (ompi_info --param pml all)`,
		`c.toml:4:30: mca.btl: no component vadr (did you mean vader?); this Open MPI has: self, tcp, vader (ompi_info --param btl all)`,
	}
	if err := Validate(tu, cat, nil); err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("got\n%v\nwant\n%s", err, strings.Join(want, "\n"))
	}
}

// A recommendation never rests on one significant point: a range's winner needs
// minSignificant significant sizes (the rule), and a lone significant size goes back to
// the baseline, the range saying which setting it was.
func TestRecommendationNeedsSeveralPoints(t *testing.T) {
	g := &Group{Baseline: "base"}
	for _, c := range []struct {
		r    Range
		want bool
	}{
		{Range{Winner: "x=1", Factor: 1.3, Significant: 1, Sizes: 1}, false},
		{Range{Winner: "x=1", Factor: 1.3, Significant: 2, Sizes: 2}, true},
		{Range{Winner: "base", Baseline: true, Factor: 1, Sizes: 4, Lone: "x=1"}, false},
	} {
		if got, why := g.rule(c.r, ""); got != c.want || !got && why == "" {
			t.Errorf("%+v: recommended %v (%q)", c.r, got, why)
		}
	}
	if got, why := g.rule(Range{Winner: "x=1", Factor: 2, Significant: 3, Sizes: 3}, "x: not in effect"); got || why != "no swept parameter was in effect" {
		t.Errorf("not in effect: %v %q", got, why)
	}
	rs := lone([]Range{
		{From: 8, To: 64, Winner: "base", Baseline: true, Factor: 1, Sizes: 4},
		{From: 128, To: 128, Winner: "x=1", Factor: 1.3, Significant: 1, Sizes: 1},
		{From: 256, To: 1024, Winner: "base", Baseline: true, Factor: 1, Sizes: 3},
		{From: 2048, To: 8192, Winner: "x=2", Factor: 2, Significant: 3, Sizes: 3},
	}, "base")
	if len(rs) != 2 || !rs[0].Baseline || rs[0].From != 8 || rs[0].To != 1024 || rs[0].Sizes != 8 || rs[0].Lone != "x=1" ||
		rs[1].Winner != "x=2" || rs[1].Baseline {
		t.Errorf("ranges %+v", rs)
	}
}
