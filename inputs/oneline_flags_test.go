package inputs

import (
	"slices"
	"testing"
)

// A flag given reads back as typed: OSU's options by their letter, a switch alone, a
// flag that may go without its value with "=".
func TestFlagWords(t *testing.T) {
	given := []Flag{
		{Name: "input", Shorthand: "i", Value: "1000"},
		{Name: "message-size", Shorthand: "m", Value: "1:4096"},
		{Name: "validation", Shorthand: "c", Value: "true", Bool: true, NoOptDefVal: true},
		{Name: "check-data", Value: "false", NoOptDefVal: true},
		{Name: "np", Value: "4"},
		{Name: "print-suite", Value: "true", Bool: true, NoOptDefVal: true},
		{Name: "window", Value: "64"},
	}
	want := []string{"skampi", "run", "Put", "-i", "1000", "-m", "1:4096", "-c", "--check-data=false", "--np", "4", "--window", "64"}
	if got := CommandWords([]string{"Put"}, given, "1000"); !slices.Equal(got, want) {
		t.Errorf("command line %q, want %q", got, want)
	}
	// What overrides a suite: the one-line flags alone, not -i, --np or --print-suite.
	if got, want := Overrides(given), []string{"-m", "1:4096", "-c", "--check-data=false", "--window", "64"}; !slices.Equal(got, want) {
		t.Errorf("overrides %q, want %q", got, want)
	}
	if !LineGiven(given) || LineGiven(given[4:6]) {
		t.Error("LineGiven")
	}
}

// The settings given become the line's in the settings' order, OSU's options theirs.
func TestLineFlagsOneLine(t *testing.T) {
	f := LineFlags{Sizes: "8,1KiB", OSU: OSU{Iterations: "100"}}
	ol, note, err := f.OneLine([]string{"Bcast"}, 4, []Flag{{Name: "window", Value: "4"}, {Name: "check-data", Value: "true", NoOptDefVal: true}})
	if err != nil || note != "" {
		t.Fatal(err, note)
	}
	if ol.NP != 4 || ol.Sizes != "8,1KiB" || len(ol.Settings) != 3 || ol.Settings[2] != [2]string{"iterations", "100"} {
		t.Errorf("%+v", ol)
	}
	if _, _, err := (LineFlags{OSU: OSU{Iterations: "5"}}).OneLine([]string{"Bcast"}, 2, []Flag{{Name: "iterations", Value: "5"}}); err == nil {
		t.Error("-i N and --iterations both taken")
	}
}
