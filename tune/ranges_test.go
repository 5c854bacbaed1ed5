package tune

import (
	"slices"
	"testing"
)

// Two settings both significantly faster over a stretch, taking turns at being the very
// fastest (the real tune-eager sweep's 16384 and 32768), win it as ranges the rule can
// judge; a setting faster alone at one size, with no neighbour faster there, stays alone
// (lone then gives the size back to the baseline).
func TestJoinLoneAlternatingWinners(t *testing.T) {
	at := func(faster ...map[string]float64) []sizeWinners {
		var out []sizeWinners
		for _, f := range faster {
			out = append(out, sizeWinners{baseT: 1, faster: f})
		}
		return out
	}
	for _, c := range []struct {
		name string
		in   []sizeWinners
		want []string
	}{
		{"alternating", at(map[string]float64{"a": .5, "b": .6}, map[string]float64{"a": .6, "b": .5}, map[string]float64{"a": .5, "b": .6},
			map[string]float64{"a": .7, "b": .6}, map[string]float64{"b": .6}), []string{"b", "b", "b", "b", "b"}},
		{"the longer neighbour", at(map[string]float64{"a": .5}, map[string]float64{"a": .6, "b": .5, "c": .55}, map[string]float64{"a": .6, "c": .5},
			map[string]float64{"c": .5}), []string{"a", "c", "c", "c"}},
		{"alone with no neighbour faster there", at(map[string]float64{}, map[string]float64{"a": .5}, map[string]float64{"b": .5}, map[string]float64{"b": .5}),
			[]string{"", "a", "b", "b"}},
		{"nothing faster", at(map[string]float64{}, map[string]float64{}), []string{"", ""}},
	} {
		if got := joinLone(c.in); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
