package inputs

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// fuzzMemory is the memory the fuzzers pretend the machine has, so that a failing
// input fails the same way on every machine.
const fuzzMemory = 64 << 30

// addSuiteSeeds seeds f with every suite the package knows: the good ones, the
// built-in ones and every file in testdata/bad.
func addSuiteSeeds(f *testing.F) {
	var files []string
	for _, pattern := range []string{"testdata/good/*.toml", "builtin/*.toml", "testdata/bad/*.toml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 45 {
		f.Fatalf("only %d seed suites", len(files))
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

var fuzzErrLine = regexp.MustCompile(`^fuzz\.toml(?::([0-9]+):([0-9]+))?: .`)

// FuzzParse: Parse never panics; a plan it returns is one the engine can run; an
// error it returns is an *ErrorList of lines "fuzz.toml[:LINE:COL]: message".
func FuzzParse(f *testing.F) {
	withMemory(f, fuzzMemory, true)
	addSuiteSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("fuzz.toml", data)
		p2, err2 := Parse("fuzz.toml", data)
		if !reflect.DeepEqual(p, p2) || (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("Parse is not deterministic:\n%v\n%v", err, err2)
		}
		if err != nil {
			if p != nil {
				t.Fatalf("both a plan and an error: %v", err)
			}
			checkErrorList(t, data, err)
		} else {
			checkPlan(t, p)
		}
		checkIndex(t, data)
	})
}

// checkIndex: on any document the decoder accepts, every value position indexed
// points at the first character of a value, never at a blank or a separator.
func checkIndex(t *testing.T, data []byte) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	var doc map[string]any
	if len(data) > maxFileBytes || !utf8.Valid(data) || toml.Unmarshal(data, &doc) != nil {
		return
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	ix := indexPositions(data)
	for path, pos := range ix.val {
		if pos.Line < 1 || pos.Line > len(lines) || pos.Col < 1 || pos.Col > len(lines[pos.Line-1]) {
			t.Fatalf("%s: position %+v outside the file", path, pos)
		}
		if c := lines[pos.Line-1][pos.Col-1]; strings.IndexByte(" \t\r\n,#=]}", c) >= 0 {
			t.Fatalf("%s: position %+v is at %q, not at a value", path, pos, c)
		}
	}
}

func checkErrorList(t *testing.T, data []byte, err error) {
	el, ok := err.(*ErrorList)
	if !ok {
		t.Fatalf("error is %T, not *ErrorList: %v", err, err)
	}
	if len(el.Errors) == 0 || len(el.Errors) > maxErrors+1 {
		t.Fatalf("%d errors", len(el.Errors))
	}
	text := el.Error()
	if text == "" {
		t.Fatal("empty error text")
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	lines := bytes.Split(data, []byte("\n"))
	for _, line := range strings.Split(text, "\n") {
		m := fuzzErrLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("error line is not fuzz.toml[:LINE:COL]: message: %q\nall errors:\n%s", line, text)
		}
		if m[1] == "" {
			continue
		}
		l, _ := strconv.Atoi(m[1])
		c, _ := strconv.Atoi(m[2])
		if l < 1 || c < 1 || l > len(lines) || c > len(lines[l-1])+1 {
			t.Fatalf("position %d:%d outside the file (%d lines): %q", l, c, len(lines), line)
		}
	}
}

func checkPlan(t *testing.T, p *Plan) {
	if p.Name != "fuzz" || p.Source != "fuzz.toml" || len(p.SHA256) != 64 {
		t.Fatalf("name %q source %q sha %q", p.Name, p.Source, p.SHA256)
	}
	checkSettings(t, "settings", p.Settings)
	if len(p.Measurements) == 0 {
		t.Fatal("a plan with no measurement")
	}
	names := map[string]bool{}
	points := 0
	for i, m := range p.Measurements {
		if m.Index != i {
			t.Fatalf("measurement %d has index %d", i, m.Index)
		}
		if m.Name == "" || names[m.Name] {
			t.Fatalf("measurement %d: empty or repeated name %q", i, m.Name)
		}
		names[m.Name] = true
		if info, ok := ops.Lookup(m.Op.Name); !ok || !reflect.DeepEqual(info, m.Op) {
			t.Fatalf("measurement %d: op %+v is not in the catalogue", i, m.Op)
		}
		if m.Pos.Line < 1 || m.Pos.Col < 1 {
			t.Fatalf("measurement %d: position %+v", i, m.Pos)
		}
		s := m.Settings
		checkSettings(t, m.Name, s)
		if len(m.Sizes) == 0 || len(m.Sizes) > maxPoints {
			t.Fatalf("measurement %d: %d sizes", i, len(m.Sizes))
		}
		seen := map[int64]bool{}
		for _, n := range m.Sizes {
			if n < 0 || n > maxSize || seen[n] {
				t.Fatalf("measurement %d: size %d out of range or repeated in %v", i, n, m.Sizes)
			}
			seen[n] = true
			// buffer bounds the largest message, whatever the receive slots.
			if need := m.Op.BufferBytes(n, 1, 1); need < 0 || need > s.Buffer {
				t.Fatalf("measurement %d: BufferBytes(%d, 1) = %d, buffer %d", i, n, need, s.Buffer)
			}
		}
		for _, meth := range m.Methods {
			if _, ok := m.Op.Method(meth); !ok {
				t.Fatalf("measurement %d: method %q not offered by %s", i, meth, m.Op.Name)
			}
		}
		points += len(m.Sizes) * max(1, len(m.Methods)) * len(m.ProcsList())
	}
	// On every job the plan fits, the expansion has no more points than the plan names,
	// every key once, indexes in order; on a job it does not fit, an error, no panic.
	for _, np := range []int{2, 3, 8} {
		ex, err := p.Expand(onOneHost(np))
		if err != nil {
			continue
		}
		if len(ex.Points) > points {
			t.Fatalf("%d processes: %d points expanded, the plan names %d", np, len(ex.Points), points)
		}
		seen := map[record.Key]bool{}
		for i, pt := range ex.Points {
			if pt.Index != i+1 || seen[pt.Key()] {
				t.Fatalf("%d processes, point %d: index %d, key %+v seen before: %v", np, i, pt.Index, pt.Key(), seen[pt.Key()])
			}
			seen[pt.Key()] = true
		}
	}
}

func checkSettings(t *testing.T, where string, s Settings) {
	bad := func(what string) { t.Fatalf("%s: %s: %+v", where, what, s) }
	if s.MinReps < 1 || s.MinReps > s.MaxReps || s.MaxReps > 1_000_000 {
		bad("repetitions")
	}
	if !(s.MaxRelStderr > 0 && s.MaxRelStderr < 1) {
		bad("max_relative_stderr")
	}
	if s.MaxTime <= 0 || s.RepTime <= 0 {
		bad("durations")
	}
	if s.MaxDiscarded < 0 || s.MaxDiscarded > 1_000_000 || s.Warmup < 0 || s.Warmup > 1000 {
		bad("counts")
	}
	if s.Iterations < 0 || s.Iterations > 100_000_000 {
		bad("iterations")
	}
	if s.Buffer <= 0 || s.Buffer > maxSize || 2*s.Buffer > fuzzMemory {
		bad("buffer")
	}
	if s.Window < 1 || s.Window > 1<<16 {
		bad("window")
	}
	if s.Timer != TimerGlobalLoop && s.Timer != TimerIteration {
		bad("timer")
	}
	if s.Sync != "barrier" && s.Sync != "none" {
		bad("sync")
	}
	switch s.Pair {
	case PairDefault, PairMaxLatency, PairAcrossNodes:
	case PairRanks:
		if s.PairRanks[0] < 0 || s.PairRanks[1] < 0 || s.PairRanks[0] == s.PairRanks[1] {
			bad("pair ranks")
		}
	default:
		bad("pair")
	}
}

// FuzzSize: ParseSize never panics, accepts only sizes from 0 to maxSize, and
// FormatSize prints every size in a form ParseSize reads back.
func FuzzSize(f *testing.F) {
	for _, s := range []string{"0", "1", "1B", "64KiB", "1.5MiB", "4 MiB", "1_024", "1024TiB",
		"1125899906842625B", "99999999999999999999B", "-1", "-0.0B", "1.3B", ".5KiB", "1e3",
		"1KB", "KiB", "", "+5", "1.0000000000000001TiB", "0x10", "NaN", "inf"} {
		f.Add(s, int64(len(s)))
	}
	f.Add("1TiB", maxSize)
	f.Add("1GiB", int64(math.MaxInt64))
	f.Fuzz(func(t *testing.T, s string, n int64) {
		got, err := ParseSize(s)
		if err != nil {
			if err.Error() == "" || got != 0 {
				t.Fatalf("ParseSize(%q) = %d, %q", s, got, err)
			}
		} else {
			if got < 0 || got > maxSize {
				t.Fatalf("ParseSize(%q) = %d, outside 0..%d", s, got, maxSize)
			}
			roundTrip(t, got)
		}
		if n >= 0 && n <= maxSize {
			roundTrip(t, n)
		}
	})
}

func roundTrip(t *testing.T, n int64) {
	text := FormatSize(n)
	back, err := ParseSize(text)
	if err != nil || back != n {
		t.Fatalf("FormatSize(%d) = %q, which parses as %d, %v", n, text, back, err)
	}
}

// FuzzStepExpand: ParseStep and Expand never panic (nor hang); Expand returns at most
// maxPoints sizes, strictly increasing, from `from` and never past `to`.
func FuzzStepExpand(f *testing.F) {
	for _, c := range []struct {
		step     string
		from, to int64
	}{
		{"*2", 1, 1 << 20}, {"*sqrt2", 1, 4 << 20}, {"*1.5", 3, 1 << 30}, {"+1KiB", 0, 1 << 20},
		{"+64", 1, 100}, {"+1", 0, 1 << 20}, {"*1e300", 1, 1024}, {"*1.0000000000001", 1, 1024},
		{"*1.001", 1, maxSize}, {"+1TiB", maxSize - 10, maxSize}, {"*2", 0, 8}, {"+-4", 1, 8},
		{"*inf", 1, 8}, {"*sqrt3", 1, 8}, {"x2", 1, 8}, {"*2", -1, 8}, {"*2", 8, 1},
		{"*2", 1, math.MaxInt64}, {"+ 1 KiB", 0, 4096}, {"* 0x1p1", 1, 64},
	} {
		f.Add(c.step, c.from, c.to)
	}
	f.Fuzz(func(t *testing.T, step string, from, to int64) {
		st, err := ParseStep(step)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if st.Add > 0 == (st.Factor > 1) || st.Add < 0 || math.IsInf(st.Factor, 0) || math.IsNaN(st.Factor) {
			t.Fatalf("ParseStep(%q) = %+v", step, st)
		}
		out, err := Expand(from, to, st)
		if err != nil {
			if out != nil || err.Error() == "" {
				t.Fatalf("Expand(%d, %d, %q) = %v, %v", from, to, step, out, err)
			}
			return
		}
		if len(out) == 0 || len(out) > maxPoints {
			t.Fatalf("Expand(%d, %d, %q): %d sizes", from, to, step, len(out))
		}
		if out[0] != from {
			t.Fatalf("Expand(%d, %d, %q) starts at %d", from, to, step, out[0])
		}
		for i, n := range out {
			if n < from || n > to {
				t.Fatalf("Expand(%d, %d, %q): size %d outside the range", from, to, step, n)
			}
			if i > 0 && n <= out[i-1] {
				t.Fatalf("Expand(%d, %d, %q): %d after %d", from, to, step, n, out[i-1])
			}
			if i > 0 && st.Add > 0 && n-out[i-1] != st.Add {
				t.Fatalf("Expand(%d, %d, %q): %d after %d", from, to, step, n, out[i-1])
			}
		}
		// The list ends only because the next step would pass `to`.
		if last := out[len(out)-1]; st.Add > 0 && last <= to-st.Add {
			t.Fatalf("Expand(%d, %d, %q) stops early at %d", from, to, step, last)
		}
	})
}
