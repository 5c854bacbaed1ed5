package ops

import (
	"os"
	"strings"
	"testing"
)

// The coverage table names every SKaMPI 6 measurement function once, and only
// operations and methods the catalogue has: it cannot go stale.
func TestSkampiTableCoversEveryFunction(t *testing.T) {
	b, err := os.ReadFile("testdata/skampi-functions.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(b))
	if len(want) != 217 {
		t.Fatalf("testdata lists %d SKaMPI functions, want 217", len(want))
	}
	table := SkampiFuncs()
	seen := map[string]int{}
	for _, f := range table {
		seen[f.Name]++
	}
	for _, name := range want {
		if seen[name] != 1 {
			t.Errorf("%s: %d entries, want 1", name, seen[name])
		}
		delete(seen, name)
	}
	for name := range seen {
		t.Errorf("%s: an entry for a function SKaMPI does not have", name)
	}
	if len(table) != len(want) {
		t.Errorf("%d entries for %d functions", len(table), len(want))
	}
}

func TestSkampiTableEntriesAreTrue(t *testing.T) {
	for _, f := range SkampiFuncs() {
		switch f.Coverage {
		case Measured:
			in, ok := Lookup(f.Op)
			if !ok {
				t.Errorf("%s: operation %q is not in the catalogue", f.Name, f.Op)
				continue
			}
			if in.Family == "selftest" {
				t.Errorf("%s: %s is a self-test, it measures nothing", f.Name, f.Op)
			}
			if f.Method != "" {
				if _, ok := in.Method(f.Method); !ok {
					t.Errorf("%s: %s has no method %q (it has %v)", f.Name, f.Op, f.Method, in.MethodNames())
				}
			}
			if f.Setting != "" && !strings.Contains(f.Setting, " = ") {
				t.Errorf("%s: setting %q is not of the form name = value", f.Name, f.Setting)
			}
			if strings.Contains(f.Setting, "window = ") && !in.Windowed && !in.OneSided && !in.SHMEM {
				t.Errorf("%s: %s takes no window", f.Name, f.Op)
			}
		case NotYet, NotMeasured:
			if f.Op != "" || f.Method != "" || f.Setting != "" {
				t.Errorf("%s: %s, yet names %q %q %q", f.Name, f.Coverage, f.Op, f.Method, f.Setting)
			}
			if strings.TrimSpace(f.Note) == "" {
				t.Errorf("%s: %s without a reason", f.Name, f.Coverage)
			}
		default:
			t.Errorf("%s: coverage %d", f.Name, f.Coverage)
		}
	}
}

// An operation may stand for several SKaMPI functions, but only in different ways:
// two entries naming the same operation, method and setting must say how they
// differ, or one of them is a copy that claims too much.
func TestSkampiTableNoMisleadingDuplicates(t *testing.T) {
	by := map[string][]SkampiFunc{}
	for _, f := range SkampiFuncs() {
		if f.Coverage == Measured {
			key := f.What()
			by[key] = append(by[key], f)
		}
	}
	for key, fs := range by {
		notes := map[string]string{}
		for _, f := range fs {
			if len(fs) > 1 && f.Note == "" && f.Name != f.Op { // the namesake needs none
				t.Errorf("%s is one of %d functions mapped to %s, with no note saying how it differs", f.Name, len(fs), key)
			}
			if other, ok := notes[f.Note]; ok && f.Note != "" && !sharedNote(f.Note) {
				t.Errorf("%s and %s map to %s with the same note", other, f.Name, key)
			}
			notes[f.Note] = f.Name
		}
	}
}

// sharedNote: the notes several entries carry on purpose (they differ in operation).
func sharedNote(n string) bool { return n == noteWindow || n == noteAtomic || n == noteOneEpoch }

func TestSkampiCounts(t *testing.T) {
	table := SkampiFuncs()
	m, y, n := SkampiCounts(table)
	// Every function is measured now but SKaMPI's one-sided collectives and its dummy
	// (not measured, each with its reason): "not yet" may be empty.
	if m+y+n != len(table) || m == 0 || n == 0 {
		t.Errorf("counts %d + %d + %d of %d entries", m, y, n, len(table))
	}
	if got := (SkampiFunc{Name: "X", Op: "Put", Method: "fence_epoch", Setting: "window = 1"}).What(); got != "Put [fence_epoch], window = 1" {
		t.Errorf("What() = %q", got)
	}
	if got := notYet("X", "why").What(); got != "not yet" {
		t.Errorf("What() of a missing one = %q", got)
	}
}
