package inputs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuiltinTunes(t *testing.T) {
	want := map[string]int{"tune-eager": 4, "tune-copy": 9, "tune-alltoall": 3, "tune-libraries": 2, "tune-polling": 4, "tune-rma": 3,
		"tune-buffers": 6, "tune-copy-mpich": 12}
	if names := BuiltinTuneNames(); len(names) != len(want) {
		t.Errorf("built-ins %v", names)
	}
	for name, n := range want {
		tu, err := LoadTune(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := len(tu.Combinations()); got != n {
			t.Errorf("%s: %d combinations, want %d", name, got, n)
		}
		// A control in every built-in tune whose sweep leaves something unaffected: a
		// recommendation must clear the noise it shows (a library sweep has none).
		if (len(tu.Controls) == 0) != (name == "tune-libraries") {
			t.Errorf("%s: controls %v", name, tu.Controls)
		}
		if name == "tune-copy" {
			// --np: the file's counts replaced, and the tune's hash with them.
			two, err := LoadTuneNP(name, []int{2})
			if err != nil || len(two.Combinations()) != 3 || two.SHA256 == tu.SHA256 {
				t.Errorf("tune-copy --np 2: %v, %d combinations", err, len(two.Combinations()))
			}
		}
		for _, c := range tu.Combinations() {
			text, err := tu.SuiteText(c)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Parse(c.Name, text); err != nil {
				t.Errorf("%s %s: its suite does not parse: %v\n%s", name, c.Name, err, text)
			}
		}
	}
}

// The grid: every value of every parameter with every other, per library, the other
// library's parameters left out; the schedule interleaves repeats, each round starting
// one combination later; suite settings go into the suite's [settings].
func TestTuneGrid(t *testing.T) {
	tu, err := ParseTune("t.toml", []byte(`suite = "quick"
libraries = ["openmpi", "mpich"]
np = [2, 4]
repeats = 2
[mca]
btl_vader_eager_limit = [4096, 8192]
[cvar]
MPIR_CVAR_CH4_SHM_POSIX_EAGER_MAX_MSG_SIZE = [16384]
[env]
UCX_TLS = ["sm"]
[suite_settings]
warmup = [2, 4]
`))
	if err != nil {
		t.Fatal(err)
	}
	cs := tu.Combinations()
	// openmpi: 2 np x 2 mca x 1 env x 2 warmup = 8; mpich: 2 x 1 x 1 x 2 = 4.
	if len(cs) != 12 {
		t.Fatalf("%d combinations", len(cs))
	}
	if c := cs[0]; c.Name != "openmpi_np2_btl_vader_eager_limit-4096_UCX_TLS-sm_warmup-2" ||
		strings.Join(c.Env(), " ") != "OMPI_MCA_btl_vader_eager_limit=4096 UCX_TLS=sm" {
		t.Errorf("first: %s %v", c.Name, c.Env())
	}
	if c := cs[8]; c.Library != "mpich" || strings.Join(c.Env(), " ") != "MPIR_CVAR_CH4_SHM_POSIX_EAGER_MAX_MSG_SIZE=16384 UCX_TLS=sm" {
		t.Errorf("mpich: %s %v", c.Name, c.Env())
	}
	names := map[string]bool{}
	for _, c := range cs {
		names[c.Name] = true
	}
	if len(names) != len(cs) {
		t.Error("names collide")
	}
	s := tu.Schedule()
	if len(s) != 24 || s[0].Name != cs[0].Name || s[12].Name != cs[1].Name || s[12].Repeat != 2 || s[23].Name != cs[0].Name {
		t.Errorf("schedule: %d launches, %s, %s (rep %d), %s", len(s), s[0].Name, s[12].Name, s[12].Repeat, s[23].Name)
	}
	text, err := tu.SuiteText(cs[1])
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse("x", text)
	if err != nil || p.Settings.Warmup != 4 {
		t.Errorf("suite of %s: warmup %d, %v\n%s", cs[1].Name, p.Settings.Warmup, err, text)
	}
}

// Mistakes in a tune file are errors with their positions, inline measurements'
// included, before anything runs.
func TestTuneErrors(t *testing.T) {
	_, err := ParseTune("bad.toml", []byte(`libraries = ["openmpi", "lam"]
np = [2, 0]
repeats = 0
sweep = 1
[mca]
OMPI_MCA_btl_vader_eager_limit = [1]
[env]
MPIR_CVAR_X = [1]
[suite_settings]
windw = [8]
barrier_above = ["soon"]

[[measurement]]
name = "pp"
op = "Pingpong_Sedn_Recv"
sizes = [1]
`))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		`bad.toml:1:25: libraries.1: unknown library "lam" ("openmpi", "mpich")`,
		"bad.toml:2:10: np.1: must be a process count from 1 to 1024, got 0",
		"bad.toml:3:11: repeats: must be a count from 1 to 100, got 0",
		`bad.toml:4:1: unknown key "sweep"`,
		`bad.toml:6:1: mca.OMPI_MCA_btl_vader_eager_limit: name the MCA parameter without OMPI_MCA_ ("btl_vader_eager_limit")`,
		"bad.toml:8:1: env.MPIR_CVAR_X: MPIR_CVAR_X belongs in [mca] or [cvar], where it is checked against the library",
		`bad.toml:10:1: suite_settings: unknown key "windw" (did you mean "window"?)`,
		`bad.toml:11:18: suite_settings.barrier_above.0: must be a size or "never"`,
		`bad.toml:15:6: measurement 1: op: unknown operation "Pingpong_Sedn_Recv" (did you mean "Pingpong_Send_Recv"?)`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("no %q in\n%v", want, err)
		}
	}
	if _, err := ParseTune("one.toml", []byte("suite = \"quick\"\n[mca]\nbtl_vader_eager_limit = [4096]\n")); err == nil ||
		!strings.Contains(err.Error(), "the grid has one combination") {
		t.Errorf("one combination: %v", err)
	}
	if _, err := ParseTune("both.toml", []byte("suite = \"quick\"\nnp = [2, 4]\n[[measurement]]\nname = \"a\"\nop = \"Barrier\"\nsizes = [0]\n")); err == nil ||
		!strings.Contains(err.Error(), "not both") {
		t.Errorf("suite and measurements: %v", err)
	}
	if _, err := ParseTune("nosuite.toml", []byte("suite = \"no-such\"\nnp = [2, 4]\n")); err == nil ||
		!strings.Contains(err.Error(), "no-such: no such file, and no built-in suite") {
		t.Errorf("missing suite: %v", err)
	}
}

// envGrid is a tune file of n environment variables with the given values each.
func envGrid(head string, n int, values string) string {
	var b strings.Builder
	b.WriteString(head + "suite = \"quick\"\n[env]\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "V%02d = %s\n", i, values)
	}
	return b.String()
}

// values is a TOML list of 1 to n.
func values(n int) string {
	v := make([]string, n)
	for i := range v {
		v[i] = fmt.Sprint(i + 1)
	}
	return "[" + strings.Join(v, ", ") + "]"
}

// A grid's launches are counted by arithmetic before any is listed, and more than
// max_launches are refused at the largest dimension with the product spelled out:
// a few hundred bytes of values once listed millions of launches, or ran out of
// memory listing them.
func TestTuneGridBounded(t *testing.T) {
	_, err := ParseTune("big.toml", []byte(envGrid("repeats = 1\n", 11, "[1, 2]")))
	if err == nil || err.Error() != "big.toml:4:1: the grid makes 2,048 launches (env.V00 2 × env.V01 2 × env.V02 2 × env.V03 2 × env.V04 2 × 6 more parameters), more than max_launches = 1000: fewer values, or raise max_launches" {
		t.Fatalf("2048 launches: %v", err)
	}
	if tu, err := ParseTune("big.toml", []byte(envGrid("max_launches = 2048\nrepeats = 1\n", 11, "[1, 2]"))); err != nil || len(tu.Schedule()) != 2048 {
		t.Errorf("max_launches = 2048: %v", err)
	}
	// Far past any memory, and past int64: counted, not listed.
	ten := values(10)
	_, err = ParseTune("huge.toml", []byte(envGrid("libraries = [\"openmpi\", \"mpich\"]\nnp = [2, 4]\nrepeats = 3\n", 30, ten)))
	if err == nil || !strings.Contains(err.Error(), "huge.toml:6:1: the grid makes 12,"+strings.Repeat("000,", 9)+"000 launches ((openmpi: env.V00 10 × ") ||
		!strings.Contains(err.Error(), "× 25 more parameters + mpich: ") || !strings.Contains(err.Error(), ") × np 2 × repeats 3), more than max_launches = 1000") {
		t.Errorf("10^30 launches: %v", err)
	}
	for _, c := range []struct{ text, want string }{
		{"suite = \"quick\"\nmax_launches = 0\n[env]\nA = [1, 2]\n", "t.toml:2:16: max_launches: must be a count from 1 to 100000, got 0"},
		{"suite = \"quick\"\n[env]\nA = " + values(1500) + "\n", "t.toml:3:1: env.A: 1500 values, more than max_launches = 1000 on their own"},
		{"suite = \"quick\"\n[env]\nA = [1, \"" + strings.Repeat("x", 5000) + "\"]\n", "t.toml:3:9: env.A.1: a value of 5000 bytes, more than 4096"},
		{envGrid("", 65, "[1]"), "t.toml:67:1: env.V64: more than 64 parameters: each is a variable of every launch"},
		// Every launch's points, too: 200 launches of 10000 sizes.
		{"np = [2, 3, 4, 5]\n[[measurement]]\nname = \"pp\"\nop = \"Pingpong_Send_Recv\"\nsizes = { from = 1, to = 10000, step = \"+1\" }\n[env]\nA = " + values(50) + "\n",
			"t.toml:2:3: the sweep measures more than 1,000,000 points (sizes × methods × procs of every launch): fewer sizes, values or repeats"},
	} {
		if _, err := ParseTune("t.toml", []byte(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
}

// Values that a file name cannot tell apart (replaced characters, case, a cut) still
// get directories of their own: sharing one, the second was never measured and the
// verdict compared a setting with itself. Equal process counts are refused.
func TestTuneDirectoryNamesUnique(t *testing.T) {
	long := strings.Repeat("x", 300)
	tu, err := ParseTune("n.toml", []byte(`suite = "quick"
libraries = ["openmpi", "mpich"]
[env]
X = ["a b", "a+b", "a/b", "a", "A", "`+long+`1", "`+long+`2", "plain"]
`))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, c := range tu.Combinations() {
		k := strings.ToLower(c.Name)
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s share directory %s", other, c.Describe(), c.Name)
		}
		seen[k] = c.Describe()
		if len(c.Name) > 200 || strings.ContainsAny(c.Name, "/ \\") {
			t.Errorf("directory name %q", c.Name)
		}
	}
	if len(seen) != 16 || seen["openmpi_np2_x-plain"] == "" {
		t.Errorf("%d names", len(seen))
	}
	if _, err := ParseTune("np.toml", []byte("suite = \"quick\"\nnp = [2, 4, 2]\n")); err == nil || err.Error() != "np.toml:2:13: np.2: 2 is listed twice" {
		t.Errorf("np twice: %v", err)
	}
}

// Every combination's suite is built and checked as skampi run checks it, on the
// combination's process count, before anything runs: each value was valid, what they
// make together was not always. The mistake is at the value (or process count).
func TestTuneSuitesChecked(t *testing.T) {
	const bcast = "[[measurement]]\nname = \"b\"\nop = \"Bcast\"\nsizes = [1]\n"
	for _, c := range []struct{ text, want string }{
		{"np = [1, 2]\n" + bcast + "[env]\nX = [1]\n",
			`t.toml:1:7: np: the suite does not run on 1 process: measurement "b": Bcast needs at least 2 processes, the job has 1`},
		{"np = [2, 4]\n" + bcast + "[suite_settings]\nroot = [0, 3]\n",
			`t.toml:7:12: suite_settings: with root = 3 the suite does not run on 2 processes: measurement "b": root 3 does not exist in a job of 2 processes`},
		{"np = [2, 4]\n" + bcast + "root = 3\n[suite_settings]\nwarmup = [1, 2]\n",
			`t.toml:1:7: np: the suite does not run on 2 processes (with warmup = 1): measurement "b": root 3 does not exist in a job of 2 processes`},
		{"[settings]\nmax_repetitions = 16\n" + bcast + "[suite_settings]\nmin_repetitions = [4, 64]\n",
			"t.toml:8:23: suite_settings: with min_repetitions = 64 the suite does not parse: settings.min_repetitions: min_repetitions (64) is larger than max_repetitions (16)"},
		{"[[measurement]]\nname = \"a\"\nop = \"Alltoall\"\nsizes = [\"1MiB\"]\n[suite_settings]\nbuffer = [\"64MiB\", \"1MiB\"]\n",
			`t.toml:6:20: suite_settings: with buffer = 1MiB the suite does not run on 2 processes: measurement "a": Alltoall needs 2097152 bytes of buffer`},
	} {
		_, err := ParseTune("t.toml", []byte(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
	// Values valid together though one alone would not be with the suite's own.
	if _, err := ParseTune("ok.toml", []byte("[settings]\nmax_repetitions = 16\n"+bcast+"[suite_settings]\nmin_repetitions = [4, 32]\nmax_repetitions = [64]\n")); err != nil {
		t.Errorf("valid together: %v", err)
	}
}

// Parameter names become environment variables: a name no environment can hold (empty,
// with = or NUL, starting with a digit) and a value with NUL are refused at their
// places, not passed to exec or to the library.
func TestTuneVariableNames(t *testing.T) {
	_, err := ParseTune("v.toml", []byte(`suite = "quick"
libraries = ["openmpi", "mpich"]
[env]
"" = [1, 2]
"A=B" = [1]
"A\u0000B" = [1]
"1X" = [1]
OK = ["a\u0000", "b"]
[cvar]
"MPIR_CVAR_A-B" = [1]
MPIR_X = [1]
[mca]
"btl vader" = [1]
`))
	want := []string{
		`v.toml:4:1: env: an empty name is not an environment variable name`,
		`v.toml:5:1: env: "A=B" is not an environment variable name (letters, digits and _, not starting with a digit)`,
		`v.toml:6:1: env: "A\x00B" is not an environment variable name (letters, digits and _, not starting with a digit)`,
		`v.toml:7:1: env: "1X" is not an environment variable name (letters, digits and _, not starting with a digit)`,
		`v.toml:8:7: env.OK.0: contains a NUL character, which no environment variable can hold`,
		`v.toml:10:1: cvar: "MPIR_CVAR_A-B" is not a control variable name (letters, digits and _, not starting with a digit)`,
		`v.toml:11:1: cvar: an MPICH control variable is named MPIR_CVAR_..., got "MPIR_X"`,
		`v.toml:13:1: mca: "btl vader" is not an MCA parameter name (letters, digits and _)`,
	}
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("got\n%v\nwant\n%s", err, strings.Join(want, "\n"))
	}
}

// The suite a tune file names is part of what its sweep is: its text's hash, so that
// a resume notices an edited suite.
func TestTuneSuiteHash(t *testing.T) {
	dir := t.TempDir()
	tf := filepath.Join(dir, "t.toml")
	os.WriteFile(tf, []byte("suite = \"s.toml\"\nnp = [2, 4]\n"), 0o644)
	sf := filepath.Join(dir, "s.toml")
	os.WriteFile(sf, []byte("[[measurement]]\nname = \"b\"\nop = \"Bcast\"\nsizes = [1]\n"), 0o644)
	a, err := LoadTune(tf)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(sf, []byte("[[measurement]]\nname = \"b\"\nop = \"Bcast\"\nsizes = [1, 2]\n"), 0o644)
	b, err := LoadTune(tf)
	if err != nil {
		t.Fatal(err)
	}
	if a.SHA256 != b.SHA256 || a.SuiteSHA256 == "" || a.SuiteSHA256 == b.SuiteSHA256 || a.SuiteSource != sf {
		t.Errorf("tune %.8s %.8s, suite %.8s %.8s from %s", a.SHA256, b.SHA256, a.SuiteSHA256, b.SuiteSHA256, a.SuiteSource)
	}
	// A suite that does not parse: a line saying which, then its own errors, each
	// at its place in it.
	os.WriteFile(sf, []byte("[[measurement]]\nname = \"b\"\nop = \"Bcats\"\nsizes = [1]\n"), 0o644)
	_, err = LoadTune(tf)
	if err == nil || err.Error() != tf+":1:9: suite: s.toml does not parse (1 error)\n"+sf+`:3:6: measurement 1: op: unknown operation "Bcats" (did you mean "Bcast"?); `+"`skampi list` shows them all" {
		t.Errorf("%v", err)
	}
}

// Whatever a tune file holds, parsing it ends in errors or in a grid that is bounded,
// with a directory of its own per combination, a suite that parses, and headers of one
// line; never a panic.
func FuzzParseTune(f *testing.F) {
	for _, s := range []string{
		"suite = \"quick\"\n[mca]\nbtl_vader_eager_limit = [4096, 8192]\n",
		"np = [2, 4]\n[[measurement]]\nname = \"b\"\nop = \"Bcast\"\nsizes = [1]\n[suite_settings]\nroot = [0, 3]\n",
		"[settings]\nmax_repetitions = 16\n[[measurement]]\nname = \"b\"\nop = \"Bcast\"\nsizes = [1]\n[suite_settings]\nmin_repetitions = [4, 64]\nwindow = [1, 2]\n",
		"libraries = [\"openmpi\", \"mpich\"]\nsuite = \"pt2pt\"\n[env]\nX = [\"a b\", \"a+b\", \"A\", \"a\"]\n[cvar]\nMPIR_CVAR_X = [1]\n",
		"max_launches = 3000\nrepeats = 2\n" + envGrid("", 10, "[1, 2]"),
		"suite = \"quick\"\n[env]\n\"\" = [\"\\u0000\", 1]\n",
		"suite = \"quick\"\n[env]\nX = [\"a\\n[settings]\\nwindow = 3\", \"b\"]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tu, err := ParseTune("f.toml", data)
		if err != nil {
			return
		}
		cs := tu.Combinations()
		if len(cs)*tu.Repeats > tu.MaxLaunches || len(tu.Schedule()) != len(cs)*tu.Repeats {
			t.Fatalf("%d combinations × %d repeats, max_launches %d", len(cs), tu.Repeats, tu.MaxLaunches)
		}
		dirs := map[string]bool{}
		for _, c := range cs {
			if dirs[strings.ToLower(c.Name)] || len(c.Name) > 200 {
				t.Fatalf("directory %q", c.Name)
			}
			dirs[strings.ToLower(c.Name)] = true
			if strings.ContainsAny(c.Describe(), "\n\r") {
				t.Fatalf("header %q", c.Describe())
			}
			text, err := tu.SuiteText(c)
			if err == nil {
				_, err = Parse(c.Name, text)
			}
			if err != nil {
				t.Fatalf("%s: its suite: %v", c.Name, err)
			}
		}
	})
}
