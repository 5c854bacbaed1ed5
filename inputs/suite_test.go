package inputs

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/ops"
)

var update = flag.Bool("update", false, "rewrite the golden .err files of testdata/bad")

func TestExampleSuite(t *testing.T) {
	p, err := Load("testdata/good/example.toml")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := p.Expand(onOneHost(2))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Measurements) != 2 || len(ex.Points) != 17+7 {
		t.Fatalf("got %d measurements, %d points; want 2, 24", len(p.Measurements), len(ex.Points))
	}
	pp, bw := p.Measurements[0], p.Measurements[1]
	if pp.Name != "ping-pong, blocking" || pp.Op.Name != "Pingpong_Send_Recv" {
		t.Errorf("first measurement = %q %q", pp.Name, pp.Op.Name)
	}
	if pp.Sizes[0] != 1 || pp.Sizes[len(pp.Sizes)-1] != 64<<10 {
		t.Errorf("ping-pong sizes = %v", pp.Sizes)
	}
	// to = "max" is the buffer: the window's receives share one slot by default.
	if want := []int64{1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20}; !reflect.DeepEqual(bw.Sizes, want) {
		t.Errorf("bandwidth sizes = %v, want %v", bw.Sizes, want)
	}
	if pp.Settings.MaxRelStderr != 0.03 || bw.Settings.MaxRelStderr != 0.05 {
		t.Errorf("override: %v %v", pp.Settings.MaxRelStderr, bw.Settings.MaxRelStderr)
	}
	if bw.Settings.MaxTime != 5*time.Second || bw.Settings.Buffer != 4<<20 || bw.Settings.Window != 64 {
		t.Errorf("settings not inherited: %+v", bw.Settings)
	}
	if p.Name != "example" || len(p.SHA256) != 64 {
		t.Errorf("name %q sha %q", p.Name, p.SHA256)
	}
}

// The overlap suite measures every non-blocking MPI operation but the neighbourhood
// collectives, point-to-point across the eager and rendezvous sizes, collectives beside
// the blocking forms of some.
func TestBuiltinOverlapSuite(t *testing.T) {
	p, err := Load("overlap")
	if err != nil {
		t.Fatal(err)
	}
	nb, progress, blocking := map[string]bool{}, map[ops.Pattern]bool{}, 0
	for _, m := range p.Measurements {
		switch {
		case m.Op.Nonblocking:
			nb[m.Op.Name] = true
		case m.Op.Family == "coll":
			blocking++
			if !nb["I"+strings.ToLower(m.Op.Name[:1])+m.Op.Name[1:]] {
				t.Errorf("%s: the blocking form comes after its non-blocking one", m.Name)
			}
		default:
			t.Errorf("%s: %s is neither non-blocking nor a collective", m.Name, m.Op.Name)
		}
		if m.Settings.Progress > 0 {
			progress[m.Op.Pattern] = true
		}
		if m.Op.Pattern == ops.PatternPair && (m.Sizes[0] != 1 || m.Sizes[len(m.Sizes)-1] != 4<<20) {
			t.Errorf("%s: sizes %v, want 1 B to 4 MiB", m.Name, m.Sizes)
		}
	}
	// Every non-blocking MPI operation but the neighbourhood collectives (suite neighbor).
	for _, in := range ops.All() {
		if in.Nonblocking && !in.SHMEM && !in.Neighborhood && !nb[in.Name] {
			t.Errorf("%s: a non-blocking operation the suite does not measure", in.Name)
		}
	}
	// MPI_Test progress of a pair's operation and of a collective, and some blocking
	// collective beside its non-blocking form.
	if len(nb) == 0 || !progress[ops.PatternPair] || !progress[ops.PatternAll] || blocking == 0 {
		t.Errorf("%d non-blocking ops, progress measured of %v (0: a pair, 2: all), %d blocking", len(nb), progress, blocking)
	}
}

func TestBuiltinSuites(t *testing.T) {
	names := BuiltinNames()
	if len(names) == 0 || !slices.IsSorted(names) {
		t.Fatalf("built-ins = %v", names)
	}
	// Every built-in suite loads and measures something: a bad line in one is found
	// here, not by its first user. Every family of the catalogue is measured by one of
	// them but the self-tests, which misbehave on purpose (cmd/skampi: robust_test.go):
	// a family added without a suite, or a suite lost, fails here, without a list of
	// the suites or the families to keep.
	measured := map[string]bool{}
	for _, n := range names {
		s, err := Load(n)
		if err != nil {
			t.Errorf("built-in %s: %v", n, err)
			continue
		}
		if len(s.Measurements) == 0 {
			t.Errorf("built-in %s measures nothing", n)
		}
		for _, m := range s.Measurements {
			measured[m.Op.Family] = true
		}
	}
	for _, in := range ops.All() {
		if in.Family != "selftest" && !measured[in.Family] {
			t.Errorf("%s: no built-in suite measures an operation of its family %s", in.Name, in.Family)
			measured[in.Family] = true // once a family
		}
	}
	p, err := Load("pt2pt")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range p.Measurements {
		if m.Sizes[0] != 1 || m.Sizes[len(m.Sizes)-1] != 4<<20 {
			t.Errorf("%s: sizes %v, want 1 B to 4 MiB", m.Name, m.Sizes)
		}
	}
	// The suite measures the catalogue's point-to-point family: every operation of it
	// that no other built-in suite measures (the parallel pairs are in imbalance; the
	// multi-threaded ones, families/mt's, in its suite mt).
	coversFamily(t, "pt2pt", "pt2pt")
	if p.Source != "builtin:pt2pt" || p.Name != "pt2pt" {
		t.Errorf("source %q name %q", p.Source, p.Name)
	}
	if _, err := Load("quick"); err != nil {
		t.Error(err)
	}
	coll, err := Load("coll")
	if err != nil {
		t.Fatal(err)
	}
	// The collectives no other built-in measures (imbalance has the delayed and skewed
	// ones, halo the halo exchanges, ...), Bcast twice: its methods side by side.
	coversFamily(t, "coll", "coll")
	if bcasts := slices.DeleteFunc(slices.Clone(coll.Measurements), func(m Measurement) bool { return m.Op.Name != "Bcast" }); len(bcasts) < 2 {
		t.Errorf("coll suite: %d measurements of Bcast, want its methods side by side", len(bcasts))
	}
}

// coversFamily: the built-in suite measures operations of the family only, some, and
// every operation of the family that no other built-in suite measures: none is left
// out of every suite.
func coversFamily(t *testing.T, suite, family string) {
	t.Helper()
	covered, elsewhere := map[string]bool{}, map[string]bool{}
	for _, n := range BuiltinNames() {
		s, err := Load(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range s.Measurements {
			if n != suite {
				elsewhere[m.Op.Name] = true
				continue
			}
			covered[m.Op.Name] = true
			if m.Op.Family != family {
				t.Errorf("suite %s measures %s, of family %s", suite, m.Op.Name, m.Op.Family)
			}
		}
	}
	if len(covered) == 0 {
		t.Errorf("suite %s measures nothing", suite)
	}
	for _, in := range ops.All() {
		if in.Family == family && !covered[in.Name] && !elsewhere[in.Name] {
			t.Errorf("%s: an operation of family %s suite %s does not measure, nor any other built-in", in.Name, family, suite)
		}
	}
}

func TestLoadMissing(t *testing.T) {
	_, err := Load("no-such-suite")
	want := "no-such-suite: no such file, and no built-in suite of that name (built-ins: "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("err = %v, want %q...", err, want)
	}
	for _, name := range BuiltinNames() { // each named, as it is run
		if !strings.Contains(err.Error(), " "+name+",") && !strings.Contains(err.Error(), " "+name+")") {
			t.Errorf("built-in %s not named: %v", name, err)
		}
	}
}

func TestSettingsOverrideAndLists(t *testing.T) {
	src := `
[settings]
timer = "iteration"
iterations = 100
sync = "none"

[[measurement]]
name = "a"
op = "Pingpong_Sendrecv"
sizes = [0, "1KiB", 4096]
pair = [0, 3]
iterations = "auto"
timer = "global-loop"

[[measurement]]
name = "b"
op = "Pingpong_Send_Recv"
sizes.from = "1B"
sizes.to = "16B"
sizes.step = "+5"
pair = "max-latency"
`
	p, err := Parse("s.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a, b := p.Measurements[0].Settings, p.Measurements[1].Settings
	if a.Timer != TimerGlobalLoop || a.Iterations != 0 || a.Pair != PairRanks || a.PairRanks != [2]int{0, 3} || a.Sync != "none" {
		t.Errorf("a = %+v", a)
	}
	if b.Timer != TimerIteration || b.Iterations != 100 || b.Pair != PairMaxLatency {
		t.Errorf("b = %+v", b)
	}
	if got := p.Measurements[0].Sizes; !reflect.DeepEqual(got, []int64{0, 1024, 4096}) {
		t.Errorf("list sizes = %v", got)
	}
	if got := p.Measurements[1].Sizes; !reflect.DeepEqual(got, []int64{1, 6, 11, 16}) {
		t.Errorf("+5 sizes = %v", got)
	}
}

// noPosition lists the bad suites whose errors have no single position in the file.
var noPosition = map[string]bool{
	"empty.toml":           true, // nothing in the file to point at
	"comments_only.toml":   true,
	"no_measurements.toml": true, // the problem is something missing from the whole file
}

// errLine is one line of an ErrorList: FILE:LINE:COL: message, or FILE: message.
var errLine = regexp.MustCompile(`^(.*?):([0-9]+):([0-9]+): (.+)$`)

// withMemory makes the machine look as if it had mem bytes (ok false: unknown).
func withMemory(t testing.TB, mem int64, ok bool) {
	old := memTotal
	memTotal = func() (int64, bool) { return mem, ok }
	t.Cleanup(func() { memTotal = old })
}

// Every file in testdata/bad is rejected with exactly the text of its .err file, and
// every line of that text names the file and, unless listed in noPosition, a line
// and column inside it.
func TestBadSuites(t *testing.T) {
	withMemory(t, 64<<30, true) // the same verdicts on every machine
	files, _ := filepath.Glob("testdata/bad/*.toml")
	if len(files) < 45 {
		t.Fatalf("only %d bad suites", len(files))
	}
	for name := range noPosition {
		if _, err := os.Stat("testdata/bad/" + name); err != nil {
			t.Errorf("noPosition lists a missing file: %v", err)
		}
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			p, err := Load(f)
			if err == nil {
				t.Fatalf("accepted: %d measurements", len(p.Measurements))
			}
			if _, ok := err.(*ErrorList); !ok {
				t.Fatalf("error is %T, want *ErrorList: %v", err, err)
			}
			golden := strings.TrimSuffix(f, ".toml") + ".err"
			got := err.Error() + "\n"
			if *update {
				os.WriteFile(golden, []byte(got), 0o644)
			}
			want, rerr := os.ReadFile(golden)
			if rerr != nil {
				t.Fatalf("no golden file: %v (run go test ./inputs -update)", rerr)
			}
			if got != string(want) {
				t.Errorf("error text:\n%s\nwant:\n%s", got, want)
			}
			src, _ := os.ReadFile(f)
			lines := strings.Split(string(src), "\n")
			for _, line := range strings.Split(strings.TrimSpace(got), "\n") {
				if !strings.HasPrefix(line, f+":") {
					t.Errorf("line does not start with the file name: %q", line)
					continue
				}
				m := errLine.FindStringSubmatch(line)
				if noPosition[filepath.Base(f)] {
					if m != nil && m[1] == f {
						t.Errorf("listed in noPosition but has a position: %q", line)
					}
					continue
				}
				if m == nil || m[1] != f {
					t.Errorf("line has no FILE:LINE:COL: position: %q", line)
					continue
				}
				l, _ := strconv.Atoi(m[2])
				c, _ := strconv.Atoi(m[3])
				if l < 1 || c < 1 || l > len(lines) || c > len(lines[l-1])+1 {
					t.Errorf("position %d:%d is outside the file (%d lines): %q", l, c, len(lines), line)
				}
			}
		})
	}
}

func TestTooLarge(t *testing.T) {
	big := []byte(strings.Repeat("# padding\n", maxFileBytes/10+1))
	_, err := Parse("big.toml", big)
	want := "big.toml: suite file is larger than the 1048576-byte limit: is this the right file?"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	// An endless input is read no further than the limit.
	_, err = Load("/dev/zero")
	if err == nil || err.Error() != "/dev/zero: suite file is larger than the 1048576-byte limit: is this the right file?" {
		t.Fatalf("/dev/zero: %v", err)
	}
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "is a directory, not a suite file") {
		t.Fatalf("a directory: %v", err)
	}
}

func TestTooManyErrors(t *testing.T) {
	src := "[[measurement]]\nname = \"a\"\nop = \"Pingpong_Send_Recv\"\nsizes = [" +
		strings.Repeat("\"1KB\",\n", maxErrors+7) + "]\n"
	_, err := Parse("many.toml", []byte(src))
	el, ok := err.(*ErrorList)
	if !ok || len(el.Errors) != maxErrors+1 {
		t.Fatalf("err = %v", err)
	}
	if last := el.Errors[maxErrors].Error(); last != "many.toml: 7 more errors not shown" {
		t.Errorf("last line %q", last)
	}
	if first := el.Errors[0].Error(); !strings.HasPrefix(first, "many.toml:4:10: measurement 1: sizes.0: ") {
		t.Errorf("first line %q", first)
	}
}

// A UTF-8 byte order mark, which some editors write, is skipped.
func TestByteOrderMark(t *testing.T) {
	plain, err := os.ReadFile("testdata/good/example.toml")
	if err != nil {
		t.Fatal(err)
	}
	withBOM := append([]byte("\ufeff"), plain...)
	a, err := Parse("example.toml", plain)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse("example.toml", withBOM)
	if err != nil {
		t.Fatalf("a suite starting with a BOM is rejected: %v", err)
	}
	if !reflect.DeepEqual(a.Measurements, b.Measurements) || !reflect.DeepEqual(a.Settings, b.Settings) {
		t.Errorf("the BOM changed the plan:\n%+v\n%+v", a, b)
	}
	if a.SHA256 == b.SHA256 {
		t.Error("SHA256 should be that of the file as read, BOM included")
	}
	// Positions count from the first character after the BOM.
	_, err = Parse("bom.toml", []byte("\ufeffwarmup = 1\n"+string(plain)))
	if want := `bom.toml:1:1: unknown key "warmup"`; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	// Only at the very start: elsewhere U+FEFF is a character like any other.
	if _, err := Parse("bom.toml", append([]byte("\n"), withBOM...)); err == nil {
		t.Error("a BOM after the start was accepted")
	}
}

// Arrays of tables written inline, nested arrays and inline tables all get positions.
func TestPositionsInsideArrays(t *testing.T) {
	src := `measurement = [
  { name = "a", op = "Pingpong_Send_Recv" },
  { name = "b", op = "Pingpong_Send_Recv", sizes = [[1], [], [ [2] ], # c [
     {}, "1KB"] },
]
`
	_, err := Parse("in.toml", []byte(src))
	want := `in.toml:2:3: measurement 1: missing required key "sizes"
in.toml:3:53: measurement 2: sizes.0: must be a size such as "64KiB" or a byte count, got an array
in.toml:3:58: measurement 2: sizes.1: must be a size such as "64KiB" or a byte count, got an array
in.toml:3:62: measurement 2: sizes.2: must be a size such as "64KiB" or a byte count, got an array
in.toml:4:6: measurement 2: sizes.3: must be a size such as "64KiB" or a byte count, got a table
in.toml:4:10: measurement 2: sizes.4: size "1KB": unknown unit "KB" (use B, KiB, MiB, GiB or TiB)`
	if err == nil || err.Error() != want {
		t.Errorf("err =\n%v\nwant\n%s", err, want)
	}
}

func TestBufferAgainstMemory(t *testing.T) {
	src := func(buf string) []byte {
		return []byte("[settings]\nbuffer = \"" + buf + "\"\n[[measurement]]\nname = \"a\"\nop = \"Pingpong_Send_Recv\"\nsizes = [1]\n")
	}
	withMemory(t, 1<<30, true)
	if _, err := Parse("m.toml", src("512MiB")); err != nil {
		t.Errorf("2 x 512MiB in 1GiB: %v", err)
	}
	_, err := Parse("m.toml", src("513MiB"))
	want := "m.toml:2:10: settings.buffer: 513MiB per direction (1026MiB per rank for send and receive) is more than this machine's memory"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	withMemory(t, 0, false) // unknown: no check
	if _, err := Parse("m.toml", src("512TiB")); err != nil {
		t.Errorf("memory unknown: %v", err)
	}
}

func TestParseMemTotal(t *testing.T) {
	good := "MemTotal:       16318412 kB\nMemFree:         1234 kB\n"
	if n, ok := parseMemTotal([]byte(good)); !ok || n != 16318412<<10 {
		t.Errorf("got %d %v", n, ok)
	}
	for _, bad := range []string{"", "MemFree: 12 kB\n", "MemTotal: 12 MB\n", "MemTotal: x kB\n", "MemTotal: -4 kB\n"} {
		if n, ok := parseMemTotal([]byte(bad)); ok {
			t.Errorf("%q: got %d", bad, n)
		}
	}
	if n, ok := procMemTotal(); ok && n < 1<<20 {
		t.Errorf("this machine has %d bytes of memory?", n)
	}
}

func TestDuplicateSizes(t *testing.T) {
	src := "[[measurement]]\nname = \"a\"\nop = \"Pingpong_Send_Recv\"\nsizes = [4, 1, \"4B\", 0x4]\n"
	_, err := Parse("d.toml", []byte(src))
	want := "d.toml:4:16: measurement 1: sizes.2: 4B is listed twice (also as sizes.0)\n" +
		"d.toml:4:22: measurement 1: sizes.3: 4B is listed twice (also as sizes.0)"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

// An explicit list is held to the same limit as a range.
func TestSizeListLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("[[measurement]]\nname = \"a\"\nop = \"Pingpong_Send_Recv\"\nsizes = [")
	for i := 0; i <= maxPoints; i++ {
		b.WriteString(strconv.Itoa(i) + ",")
	}
	b.WriteString("]\n")
	_, err := Parse("l.toml", []byte(b.String()))
	want := "l.toml:4:9: measurement 1: sizes: the list has 10001 sizes, more than the limit of 10000"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}
