package collrules

import (
	"fmt"
	"slices"
)

// Library is the MPI library a set of rules is for.
type Library string

const (
	OpenMPI Library = "openmpi"
	MPICH   Library = "mpich"
)

// Algorithm is one of a library's algorithms for a collective, as the library names
// it. The zero Algorithm is the library's own decision: Open MPI's algorithm 0
// ("ignore": its fixed decision rules), MPICH's "auto" (its built-in selection).
type Algorithm struct {
	ID   int    // Open MPI: the enumerator value of coll_tuned_<coll>_algorithm
	Name string // Open MPI: the enumerator's name; MPICH: the value of MPIR_CVAR_<COLL>_INTRA_ALGORITHM
	// Segmented: Open MPI has coll_tuned_<coll>_algorithm_segmentsize for the
	// collective, so a sweep may try segment sizes with it.
	Segmented bool
}

// IsDefault says whether a is the library's own decision.
func (a Algorithm) IsDefault() bool {
	return a.ID == 0 && (a.Name == "" || a.Name == "ignore" || a.Name == "auto")
}

func (a Algorithm) String() string {
	if a.IsDefault() {
		return "the library's default"
	}
	if a.ID != 0 {
		return fmt.Sprintf("%s (%d)", a.Name, a.ID)
	}
	return a.Name
}

// Choice is an algorithm with its tuning parameters (Open MPI's rules carry a fan-in/
// fan-out and a segment size; 0 leaves each to the algorithm).
type Choice struct {
	Algorithm
	SegSize  int64
	Faninout int
	// Params are an MPICH algorithm's parameters as its selection tree takes them,
	// space-separated ("k=4"): MPICH 4.2's k-nomial, recexch and tree algorithms
	// read theirs only from the tree, where forcing them read the CVARs.
	Params string
}

// String is the algorithm, with the segment size forced beside it (if any).
func (c Choice) String() string {
	if c.SegSize > 0 {
		return fmt.Sprintf("%s in segments of %d B", c.Algorithm, c.SegSize)
	}
	return c.Algorithm.String()
}

// SizeRule is the choice for the measured message sizes From to To (skampi's
// msg_bytes, the bytes per process), both ends measured.
type SizeRule struct {
	From, To int64
	Choice
}

// CommRules are one communicator size's rules, in increasing sizes that do not overlap.
type CommRules struct {
	NP    int
	Sizes []SizeRule
}

// CollRules are one collective's rules, in increasing communicator sizes.
type CollRules struct {
	Collective string
	Comms      []CommRules
}

// Rules are what a library should choose, collective by collective.
type Rules struct {
	Library Library
	Colls   []CollRules
}

// Range is one size range of one (collective, communicator size) as a verdict
// decided it: Recommended when its winner beat the default significantly (the rule
// of tune's decide.go), and then Winner is the algorithm to use there.
type Range struct {
	From, To    int64
	Winner      Choice
	Recommended bool
}

// Decided is a verdict's ranges for one collective on one communicator size.
type Decided struct {
	Collective string
	NP         int
	Ranges     []Range
}

// FromVerdict builds the rules: each range's winner where the verdict recommends it,
// the library's default wherever it does not, neighbouring ranges with the same
// choice joined. A collective whose every range keeps the default is left out: the
// library decides it as before.
func FromVerdict(lib Library, ds []Decided) (Rules, error) {
	r := Rules{Library: lib}
	for _, d := range ds {
		if _, err := Lookup(d.Collective); err != nil {
			return Rules{}, err
		}
		if d.NP < 1 {
			return Rules{}, fmt.Errorf("%s: communicator size %d", d.Collective, d.NP)
		}
		cr := CommRules{NP: d.NP}
		rs := slices.Clone(d.Ranges)
		slices.SortFunc(rs, func(a, b Range) int { return int(a.From - b.From) })
		for i, x := range rs {
			if x.From > x.To || x.From < 0 {
				return Rules{}, fmt.Errorf("%s on %d: size range %d–%d", d.Collective, d.NP, x.From, x.To)
			}
			if i > 0 && x.From <= rs[i-1].To {
				return Rules{}, fmt.Errorf("%s on %d: size ranges %d–%d and %d–%d overlap", d.Collective, d.NP, rs[i-1].From, rs[i-1].To, x.From, x.To)
			}
			c := Choice{}
			if x.Recommended {
				c = x.Winner
			}
			if n := len(cr.Sizes); n > 0 && cr.Sizes[n-1].Choice == c {
				cr.Sizes[n-1].To = x.To
				continue
			}
			cr.Sizes = append(cr.Sizes, SizeRule{From: x.From, To: x.To, Choice: c})
		}
		if err := r.add(d.Collective, cr); err != nil {
			return Rules{}, err
		}
	}
	r.dropDefaults()
	return r, nil
}

// add puts one communicator size's rules under their collective, in order.
func (r *Rules) add(coll string, cr CommRules) error {
	i := slices.IndexFunc(r.Colls, func(c CollRules) bool { return c.Collective == coll })
	if i < 0 {
		r.Colls = append(r.Colls, CollRules{Collective: coll})
		i = len(r.Colls) - 1
	}
	c := &r.Colls[i]
	if slices.ContainsFunc(c.Comms, func(x CommRules) bool { return x.NP == cr.NP }) {
		return fmt.Errorf("%s on %d processes decided twice", coll, cr.NP)
	}
	c.Comms = append(c.Comms, cr)
	slices.SortFunc(c.Comms, func(a, b CommRules) int { return a.NP - b.NP })
	slices.SortFunc(r.Colls, func(a, b CollRules) int { return compareColl(a.Collective, b.Collective) })
	return nil
}

// compareColl orders collectives as the libraries' tables do (Open MPI's ids).
func compareColl(a, b string) int {
	ia := slices.IndexFunc(Collectives, func(c Collective) bool { return c.Name == a })
	ib := slices.IndexFunc(Collectives, func(c Collective) bool { return c.Name == b })
	return ia - ib
}

// dropDefaults leaves out collectives nothing beats anywhere.
func (r *Rules) dropDefaults() {
	r.Colls = slices.DeleteFunc(r.Colls, func(c CollRules) bool { return c.allDefault() })
}

func (c CollRules) allDefault() bool {
	for _, cr := range c.Comms {
		for _, s := range cr.Sizes {
			if !s.IsDefault() {
				return false
			}
		}
	}
	return true
}

// Empty says whether the rules change nothing: the library keeps its own decisions.
func (r Rules) Empty() bool { return len(r.Colls) == 0 }

// Choose is what the rules say for a collective on np processes and a message of
// msgBytes per process, as the writers put it in the library's files: a rule holds
// from its first measured size to its last, and the default everywhere else (other
// communicator sizes, sizes between ranges of different winners, below and above
// what was measured), since nothing was shown to beat the default there. ok is
// false when the rules do not name the collective.
func (r Rules) Choose(coll string, np int, msgBytes int64) (c Choice, ok bool) {
	for _, cr := range r.Colls {
		if cr.Collective != coll {
			continue
		}
		for _, comm := range cr.Comms {
			if comm.NP != np {
				continue
			}
			for _, s := range comm.Sizes {
				if msgBytes >= s.From && msgBytes <= s.To {
					return s.Choice, true
				}
			}
		}
		return Choice{}, true
	}
	return Choice{}, false
}

// chosen are the sizes rules that are not the default.
func (cr CommRules) chosen() []SizeRule {
	var out []SizeRule
	for _, s := range cr.Sizes {
		if !s.IsDefault() {
			out = append(out, s)
		}
	}
	return out
}
