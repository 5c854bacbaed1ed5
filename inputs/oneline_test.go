package inputs

import (
	"strings"
	"testing"
)

func TestTomlValue(t *testing.T) {
	for in, want := range map[string]string{
		"8": "8", "0.05": "0.05", "auto": `"auto"`, "true": "true", "2,4,all": `[2, 4, "all"]`,
		"1,3": "[1, 3]", "inf": `"inf"`, "10us": `"10us"`, `a"b`: `"a\"b"`,
	} {
		if got := tomlValue(in); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
}

// Every problem of a one-line suite is said once, by its flag, without a position.
func TestParseOneLineNamesFlags(t *testing.T) {
	text, err := OneLine{Ops: []string{"Bcast", "Allreduce"}, Sizes: "1:8XB", Methods: []string{"ack"},
		Settings: [][2]string{{"window", "x"}, {"procs", "2,zz"}}}.Suite("")
	if err != nil {
		t.Fatal(err)
	}
	_, err = ParseOneLine(text)
	el, ok := err.(*ErrorList)
	if !ok {
		t.Fatalf("%T %v", err, err)
	}
	want := []string{
		"skampi run: --window: must be an integer, got a string",
		`skampi run: --procs: entry 2: must be a process count or "all": must be an integer, got a string`,
		`skampi run: --sizes: size "8XB": unknown unit "XB" (use B, KiB, MiB, GiB or TiB)`,
		"skampi run: --sizes: 1B is not a whole number of int elements (4 bytes each)", // Allreduce's, once
	}
	if got := strings.Split(el.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", el.Error(), strings.Join(want, "\n"))
	}
	if _, err := (OneLine{}).Suite(""); err == nil {
		t.Error("a suite of no operation")
	}
	if _, err := (OneLine{Ops: []string{"Bcast"}, Sizes: "1:8,9"}).Suite(""); err == nil {
		t.Error("a range and a list at once")
	}
}
