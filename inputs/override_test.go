package inputs

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func overridden(t *testing.T, name string, o OneLine, flags ...string) (*Plan, string, []string) {
	t.Helper()
	source, text, err := ReadSuite(name)
	if err != nil {
		t.Fatal(err)
	}
	out, notes, err := o.Override(source, text, flags)
	if err != nil {
		t.Fatalf("%s %v: %v", name, flags, err)
	}
	p, err := Parse(source, []byte(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return p, out, notes
}

// A built-in suite with flags laid over it: the sizes go to every measurement whose
// element divides them, the others keeping theirs with a note; a setting becomes the
// suite's and leaves no measurement's own value standing; the text says what was
// overridden.
func TestOverrideBuiltin(t *testing.T) {
	p, out, notes := overridden(t, "coll", OneLine{Sizes: "1,8", Settings: [][2]string{{"sync", "window"}}}, "--sizes", "1,8", "--sync", "window")
	if !strings.HasPrefix(out, "# builtin:coll, overridden by: --sizes 1,8 --sync window\n") || !strings.Contains(p.Description, "(overridden by: --sizes 1,8 --sync window)") {
		t.Errorf("the text does not say what was overridden:\n%s", out)
	}
	for _, m := range p.Measurements {
		if m.Settings.Sync != "window" {
			t.Errorf("%s: sync %q", m.Name, m.Settings.Sync)
		}
		switch {
		case m.Op.Name == "Bcast" || m.Op.Name == "Gather":
			if !slices.Equal(m.Sizes, []int64{1, 8}) {
				t.Errorf("%s: sizes %v, want [1 8]", m.Name, m.Sizes)
			}
		case m.Op.Name == "Barrier" || m.Op.Name == "Allreduce": // no data; int elements
			if slices.Equal(m.Sizes, []int64{1, 8}) {
				t.Errorf("%s took sizes it cannot", m.Name)
			}
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], `keep their own sizes`) || !strings.Contains(notes[0], `"Barrier"`) {
		t.Errorf("notes %q", notes)
	}
}

// A measurement's own value of a setting given as a flag does not survive it; a
// method goes to the measurements that have it.
func TestOverrideOwnSettingAndMethod(t *testing.T) {
	text := []byte(`description = "two"
[settings]
window = 16
[[measurement]]
name = "bw"
op = "Bandwidth_Isend_Irecv"
sizes = [8]
window = 4
[[measurement]]
name = "b"
op = "Bcast"
sizes = [8]
[[measurement]]
name = "rl"
op = "Reduce_local"
sizes = [8]
`)
	o := OneLine{Methods: []string{"osu"}, Settings: [][2]string{{"window", "64"}}}
	out, _, err := o.Override("two.toml", text, []string{"--window", "64", "--method", "osu"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse("two.toml", []byte(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if w := p.Measurements[0].Settings.Window; w != 64 {
		t.Errorf("window %d, want 64\n%s", w, out)
	}
	if !slices.Equal(p.Measurements[1].Methods, []string{"osu"}) || p.Measurements[2].Methods != nil {
		t.Errorf("methods %v, %v\n%s", p.Measurements[1].Methods, p.Measurements[2].Methods, out)
	}
}

// A flag that fits no measurement is refused in one line naming it.
func TestOverrideRefused(t *testing.T) {
	for _, c := range []struct {
		suite string
		o     OneLine
		want  string
	}{
		{"coll", OneLine{Settings: [][2]string{{"window", "4"}}}, "--window: no measurement of builtin:coll uses it"},
		{"pt2pt", OneLine{Methods: []string{"osu"}}, `--method: "osu" is not a timing method of any operation named`},
		{"pt2pt", OneLine{Step: "*4"}, `--step "*4" applies to --sizes FROM:TO`},
		{"locks", OneLine{Sizes: "8"}, "--sizes 8: no measurement of the suite takes these sizes"},
	} {
		source, text, err := ReadSuite(c.suite)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = c.o.Override(source, text, []string{"flags"})
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %+v: %v, want one line with %q", c.suite, c.o, err, c.want)
		}
	}
}

// writeTOML gives back what it was given: a built-in suite written out parses to the
// same plan.
func TestWriteTOMLRoundTrip(t *testing.T) {
	for _, name := range BuiltinNames() {
		source, text, _ := ReadSuite(name)
		out, _, err := OneLine{Settings: [][2]string{{"min_repetitions", "3"}}}.Override(source, text, []string{"--min-repetitions", "3"})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		a, _ := Parse(source, text)
		b, err := Parse(source, []byte(out))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(a.Measurements) != len(b.Measurements) {
			t.Errorf("%s: %d measurements, was %d", name, len(b.Measurements), len(a.Measurements))
			continue
		}
		for i := range a.Measurements {
			ma, mb := a.Measurements[i], b.Measurements[i]
			ma.Settings.MinReps = 3
			if !slices.Equal(ma.Sizes, mb.Sizes) || !slices.Equal(ma.Methods, mb.Methods) || ma.Name != mb.Name || !reflect.DeepEqual(ma.Settings, mb.Settings) {
				t.Errorf("%s: measurement %d differs", name, i)
			}
		}
	}
}
