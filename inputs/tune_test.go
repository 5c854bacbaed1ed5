package inputs

import (
	"strings"
	"testing"
)

func TestBuiltinTunes(t *testing.T) {
	want := map[string]int{"tune-eager": 4, "tune-copy": 2, "tune-alltoall": 3, "tune-libraries": 2}
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
window = [8, 64]
`))
	if err != nil {
		t.Fatal(err)
	}
	cs := tu.Combinations()
	// openmpi: 2 np x 2 mca x 1 env x 2 window = 8; mpich: 2 x 1 x 1 x 2 = 4.
	if len(cs) != 12 {
		t.Fatalf("%d combinations", len(cs))
	}
	if c := cs[0]; c.Name != "openmpi_np2_btl_vader_eager_limit-4096_UCX_TLS-sm_window-8" ||
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
	if err != nil || p.Settings.Window != 64 {
		t.Errorf("suite of %s: window %d, %v\n%s", cs[1].Name, p.Settings.Window, err, text)
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
