package tune

import (
	"fmt"
	"strings"

	"github.com/skampi/skampi/tune/collrules"
)

// CollDecided is what the group's verdict says of collective algorithms, in the form
// collrules builds a library's rules from: per measurement of a collective (controls
// aside), its size ranges as the one rule (decide.go) marked them, a recommended
// range naming the algorithm its winning setting forced. choice says which algorithm
// a setting's label forced (false: the label is no algorithm setting, which a
// recommended range must not have).
func (g *Group) CollDecided(choice func(label string) (collrules.Choice, bool)) ([]collrules.Decided, error) {
	var out []collrules.Decided
	for _, m := range g.Measurements {
		coll := strings.ToLower(m.Op)
		if m.Control {
			continue
		}
		if _, err := collrules.Lookup(coll); err != nil {
			continue // not a collective the libraries select algorithms for
		}
		d := collrules.Decided{Collective: coll, NP: g.NP}
		for _, r := range m.Ranges {
			x := collrules.Range{From: r.From, To: r.To, Recommended: r.Recommended}
			if r.Recommended {
				c, ok := choice(r.Winner)
				if !ok {
					return nil, fmt.Errorf("%s %s: the winner %s forces no algorithm", m.name(), sizeRange(r.From, r.To), r.Winner)
				}
				x.Winner = c
			}
			d.Ranges = append(d.Ranges, x)
		}
		out = append(out, d)
	}
	return out, nil
}
