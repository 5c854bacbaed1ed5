package inputs

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseSize(t *testing.T) {
	good := map[string]int64{
		"1": 1, "1B": 1, "0": 0, "64KiB": 65536, "1 MiB": 1 << 20, "1.5KiB": 1536,
		"4GiB": 4 << 30, "2TiB": 2 << 40, "1_024": 1024,
	}
	for in, want := range good {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	bad := map[string]string{
		"":        "empty size",
		"1KB":     `size "1KB": unknown unit "KB" (use B, KiB, MiB, GiB or TiB)`,
		"1kib":    `size "1kib": unknown unit "kib" (use B, KiB, MiB, GiB or TiB)`,
		"KiB":     `size "KiB" has a unit but no number`,
		"-1":      `size "-1" is negative`,
		"1.3B":    `size "1.3B" is not a whole number of bytes`,
		"9999TiB": `size "9999TiB" is too large (limit 1024TiB)`,
		"abcB":    `size "abcB": "abcB" is not a number`,
	}
	for in, want := range bad {
		_, err := ParseSize(in)
		if err == nil || err.Error() != want {
			t.Errorf("ParseSize(%q) error = %v; want %q", in, err, want)
		}
	}
}

func TestExpand(t *testing.T) {
	cases := []struct {
		from, to int64
		step     string
		want     []int64
	}{
		{1, 16, "*2", []int64{1, 2, 4, 8, 16}},
		{1, 20, "*2", []int64{1, 2, 4, 8, 16}},
		{1, 16, "*sqrt2", []int64{1, 2, 3, 4, 6, 8, 11, 16}},
		{0, 30, "+10", []int64{0, 10, 20, 30}},
		{5, 5, "*2", []int64{5}},
		{1000, 1000000, "*10", []int64{1000, 10000, 100000, 1000000}},
	}
	for _, c := range cases {
		st, err := ParseStep(c.step)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Expand(c.from, c.to, st)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Expand(%d, %d, %s) = %v, %v; want %v", c.from, c.to, c.step, got, err, c.want)
		}
	}
	st, _ := ParseStep("+1")
	if _, err := Expand(0, 1<<20, st); err == nil {
		t.Error("a million points was accepted")
	}
	big, _ := ParseStep("+1TiB")
	if got, err := Expand(maxSize-10, maxSize, big); err != nil || len(got) != 1 {
		t.Errorf("overflowing step: %v %v", got, err)
	}
}

func TestParseStep(t *testing.T) {
	bad := map[string]string{
		"*1":   `step "*1" never advances: the factor must be greater than 1`,
		"*0.5": `step "*0.5" never advances: the factor must be greater than 1`,
		"+0":   `step "+0" never advances: the increment must be positive`,
		"x2":   `step "x2": must start with * or + (for example *2, *sqrt2, +1KiB)`,
		"*two": `step "*two": "two" is not a number (use *2, *sqrt2, *X or +N)`,
		"*NaN": `step "*NaN": "NaN" is not a number (use *2, *sqrt2, *X or +N)`,
	}
	for in, want := range bad {
		_, err := ParseStep(in)
		if err == nil || err.Error() != want {
			t.Errorf("ParseStep(%q) = %v; want %q", in, err, want)
		}
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0B", 1: "1B", 1024: "1KiB", 1536: "1536B", 4 << 20: "4MiB"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// Expand is exported: it checks its arguments rather than trusting the parser.
func TestExpandEdges(t *testing.T) {
	huge, err := ParseStep("*1e300")
	if err != nil {
		t.Fatal(err)
	}
	// A factor so large the next size does not fit an int64 ends the list; it used
	// to turn into a negative size and loop for ever.
	if got, err := Expand(1, 1024, huge); err != nil || !reflect.DeepEqual(got, []int64{1}) {
		t.Errorf("*1e300: %v %v", got, err)
	}
	tiny, err := ParseStep("*1.0000000000001")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Expand(1, 1024, tiny)
	want := `step "*1.0000000000001" grows too slowly: it takes more than 1000000 multiplications from 1B to 1KiB (use a larger factor)`
	if err == nil || err.Error() != want {
		t.Errorf("tiny factor: %v", err)
	}
	two, _ := ParseStep("*2")
	bad := []struct {
		from, to int64
		st       Step
		want     string
	}{
		{-1, 8, two, "from (-1) is negative"},
		{1, maxSize + 1, two, "to (1125899906842625B) is larger than the 1024TiB limit"},
		{1, 8, Step{}, `step "" never advances`},
		{1, 8, Step{Factor: math.NaN(), Text: "*NaN"}, `step "*NaN" never advances`},
		{1, 8, Step{Add: -1, Text: "+-1"}, `step "+-1" never advances`},
	}
	for _, c := range bad {
		if got, err := Expand(c.from, c.to, c.st); err == nil || err.Error() != c.want {
			t.Errorf("Expand(%d, %d, %+v) = %v, %v; want %q", c.from, c.to, c.st, got, err, c.want)
		}
	}
	// The limits themselves are fine.
	if got, err := Expand(maxSize, maxSize, two); err != nil || len(got) != 1 {
		t.Errorf("maxSize: %v %v", got, err)
	}
}

func TestParseStepMore(t *testing.T) {
	bad := map[string]string{
		"*inf":   `step "*inf": the factor must be a finite number`,
		"*sqrt3": `step "*sqrt3": "sqrt3" is not a number (use *2, *sqrt2, *X or +N)`,
		"+1KB":   `step "+1KB": size "1KB": unknown unit "KB" (use B, KiB, MiB, GiB or TiB)`,
		"+-4":    `step "+-4" never advances: the increment must be positive`,
		"":       `step "": must start with * or + (for example *2, *sqrt2, +1KiB)`,
	}
	for in, want := range bad {
		if _, err := ParseStep(in); err == nil || err.Error() != want {
			t.Errorf("ParseStep(%q) = %v; want %q", in, err, want)
		}
	}
}

// A factor a hair above 1 from a size to itself, or to the next size, ends at once (it
// once looped for ~1e15 multiplications: the growth guard passed when from == to).
func TestExpandFactorBarelyAboveOne(t *testing.T) {
	st, err := ParseStep("*1.0000000000000002")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if got, err := Expand(7, 7, st); err != nil || len(got) != 1 || got[0] != 7 {
			t.Errorf("from = to = 7: %v %v", got, err)
		}
		if _, err := Expand(1, 2, st); err == nil || !strings.Contains(err.Error(), "grows too slowly") {
			t.Errorf("1 to 2: %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Expand did not return")
	}
}
