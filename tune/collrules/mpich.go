package collrules

import (
	"fmt"
	"math"
	"strings"
)

// MPICHTree is MPICH's own selection tree (lib.Tree) with the rules grafted in: for
// each collective with rules, its intra-communicator branch becomes one test per
// measured communicator size, each with its size ranges, and MPICH's own branch
// everywhere else (other communicator sizes, sizes outside those measured, ranges
// the default keeps). A selection file replaces MPICH's whole tree, and a
// collective the file does not select for stops MPICH with an assertion, so the
// default must be MPICH's own branch, never left out.
func (r Rules) MPICHTree(lib MPICHLibrary) (*Tree, error) {
	if r.Library != MPICH {
		return nil, fmt.Errorf("rules for %s, not MPICH", r.Library)
	}
	if lib.Tree == nil {
		return nil, fmt.Errorf("no MPICH selection tree to start from")
	}
	root := lib.Tree.clone()
	for _, cr := range r.Colls {
		c, err := Lookup(cr.Collective)
		if err != nil {
			return nil, err
		}
		ct := root.Get("collective=" + c.Name)
		if ct == nil {
			return nil, fmt.Errorf("MPICH's selection tree has no collective=%s", c.Name)
		}
		own := ct.Get("comm_type=intra")
		if own == nil {
			return nil, fmt.Errorf("MPICH's selection tree has no comm_type=intra for %s", c.Name)
		}
		intra := &Tree{}
		prev := 0
		for _, comm := range cr.Comms {
			if comm.NP-1 > prev {
				intra.add(fmt.Sprintf("comm_size<=%d", comm.NP-1), own)
			}
			sub, err := mpichSizes(c, comm, own, lib)
			if err != nil {
				return nil, err
			}
			intra.add(fmt.Sprintf("comm_size<=%d", comm.NP), sub)
			prev = comm.NP
		}
		intra.add("comm_size=any", own)
		ct.set("comm_type=intra", intra)
	}
	if err := root.Check(lib.Names); err != nil {
		return nil, err
	}
	return root, nil
}

// mpichSizes is one communicator size's branch: a test per size range with a winner
// and MPICH's own branch around them, as Rules.Choose says. Only <= tests are
// written: MPICH 4.0's search evaluates its "comm_size<N" as <=.
func mpichSizes(c Collective, comm CommRules, own *Tree, lib MPICHLibrary) (*Tree, error) {
	if len(comm.Sizes) == 0 {
		return own, nil
	}
	if c.MPICHKey == KeyNone {
		ch := comm.Sizes[0].Choice
		for _, s := range comm.Sizes[1:] {
			if s.Choice != ch {
				return nil, fmt.Errorf("MPICH's selection tree cannot tell %s's message sizes apart, but on %d processes the rules name %s and %s", c.Name, comm.NP, ch.Algorithm, s.Algorithm)
			}
		}
		return mpichLeaf(c, ch, own, lib)
	}
	t := &Tree{}
	test := func(upper int64) (string, error) {
		if upper > math.MaxInt32 {
			return "", fmt.Errorf("%s on %d processes: %s %d is more than MPICH reads (atoi)", c.Name, comm.NP, c.MPICHKeyName, upper)
		}
		return fmt.Sprintf("%s<=%d", c.MPICHKeyName, upper), nil
	}
	covered := int64(0) // sizes below are tested already
	for _, s := range comm.chosen() {
		if from := c.MPICHKey.key(s.From, comm.NP); from > covered {
			k, err := test(from - 1)
			if err != nil {
				return nil, err
			}
			t.add(k, own)
		}
		to := c.MPICHKey.key(s.To, comm.NP)
		k, err := test(to)
		if err != nil {
			return nil, err
		}
		sub, err := mpichLeaf(c, s.Choice, own, lib)
		if err != nil {
			return nil, err
		}
		t.add(k, sub)
		covered = to + 1
	}
	t.add(c.MPICHKeyName+"=any", own)
	return t, nil
}

// mpichLeaf is the branch that selects ch: MPICH's own branch for the default.
func mpichLeaf(c Collective, ch Choice, own *Tree, lib MPICHLibrary) (*Tree, error) {
	if ch.IsDefault() {
		return own, nil
	}
	k, err := lib.AlgorithmKey(c, ch.Name)
	if err != nil {
		return nil, err
	}
	params := &Tree{}
	for _, p := range strings.Fields(ch.Params) {
		params.add(p, &Tree{})
	}
	return (&Tree{}).add(k, params), nil
}

// AlgorithmKey is the tree's key for the algorithm MPIR_CVAR_<COLL>_INTRA_ALGORITHM
// names name: MPIR_<Coll>_intra_<name>, or MPIR_<Coll>_allcomm_<name> for those that
// serve inter-communicators too (nb; gatherv's and scatterv's linear), whichever the
// library has (without its names, intra unless name is nb).
func (lib MPICHLibrary) AlgorithmKey(c Collective, name string) (string, error) {
	intra := fmt.Sprintf("algorithm=MPIR_%s_intra_%s", c.MPICHFunc, name)
	all := fmt.Sprintf("algorithm=MPIR_%s_allcomm_%s", c.MPICHFunc, name)
	if lib.Names == nil {
		if name == "nb" {
			return all, nil
		}
		return intra, nil
	}
	switch {
	case lib.Names[intra]:
		return intra, nil
	case lib.Names[all]:
		return all, nil
	}
	return "", fmt.Errorf("this MPICH's selection tree takes no algorithm %s for %s (it has: %s)", name, c.Name,
		strings.Join(sortedNames(lib.Names, fmt.Sprintf("algorithm=MPIR_%s_", c.MPICHFunc)), ", "))
}

func (t *Tree) clone() *Tree {
	if t == nil {
		return nil
	}
	c := &Tree{Keys: append([]string(nil), t.Keys...)}
	for _, s := range t.Sub {
		c.Sub = append(c.Sub, s.clone())
	}
	return c
}
