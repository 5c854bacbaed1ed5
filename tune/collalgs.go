package tune

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/skampi/skampi/tune/collrules"
)

// The collective algorithms a library offers, read from the same catalogues that
// check a tune file's parameters, so a sweep tries what this library has and never
// a list that another version's would contradict.

var ompiAlgParam = regexp.MustCompile(`^coll_tuned_([a-z_]+)_algorithm$`)

// CollAlgorithmsOMPI are Open MPI's coll/tuned algorithms by collective, as ompi_info
// lists coll_tuned_<coll>_algorithm's enumerators, in their order, without 0
// ("ignore": Open MPI's own decision, the default every sweep compares with).
// Segmented: the collective has coll_tuned_<coll>_algorithm_segmentsize.
func CollAlgorithmsOMPI(c Catalog) map[string][]collrules.Algorithm {
	out := map[string][]collrules.Algorithm{}
	for name, p := range c {
		m := ompiAlgParam.FindStringSubmatch(name)
		if m == nil || len(p.Enums) == 0 {
			continue
		}
		coll := m[1]
		_, seg := c["coll_tuned_"+coll+"_algorithm_segmentsize"]
		var algs []collrules.Algorithm
		for i := 0; i+1 < len(p.Enums); i += 2 {
			id, err := strconv.Atoi(p.Enums[i+1])
			if err != nil || id == 0 {
				continue
			}
			algs = append(algs, collrules.Algorithm{ID: id, Name: p.Enums[i], Segmented: seg})
		}
		sort.Slice(algs, func(i, j int) bool { return algs[i].ID < algs[j].ID })
		if len(algs) > 0 {
			out[coll] = algs
		}
	}
	return out
}

var mpichAlgParam = regexp.MustCompile(`^MPIR_CVAR_([A-Z_]+)_INTRA_ALGORITHM$`)

// CollAlgorithmsMPICH are the values of MPICH's MPIR_CVAR_<COLL>_INTRA_ALGORITHM by
// collective (lower case), without "auto" (MPICH's own selection, the default). mpivars
// types them as integers; only the description names the values, one "name - what"
// entry a line in MPICH's sources, which mpivars prints with the line breaks taken
// out (mpichAlgNames). The CH4 shared-memory layer's own variables
// (MPIR_CVAR_<COLL>_POSIX_INTRA_ALGORITHM) choose below the MPIR selection and are
// left out.
func CollAlgorithmsMPICH(c Catalog) map[string][]collrules.Algorithm {
	out := map[string][]collrules.Algorithm{}
	for name, p := range c {
		m := mpichAlgParam.FindStringSubmatch(name)
		if m == nil || strings.Contains(m[1], "POSIX") {
			continue
		}
		var algs []collrules.Algorithm
		for _, n := range mpichAlgNames(p.Help) {
			if n != "auto" {
				algs = append(algs, collrules.Algorithm{Name: n})
			}
		}
		if len(algs) > 0 {
			out[strings.ToLower(m[1])] = algs
		}
	}
	return out
}

// mpichEntry is one "name<spaces>- " of a description whose line breaks are gone:
// the name comes glued to the end of the entry before ("...algorithmsmp      - ").
var mpichEntry = regexp.MustCompile(`(\S+)( +)- `)

var mpichName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// mpichLine is one entry of a description that keeps its line breaks.
var mpichLine = regexp.MustCompile(`^([a-z][a-z0-9_]*) +- `)

// mpichAlgNames are the values a description names. Each entry before had its text
// end in "algorithm" mostly ("Force smp algorithm"), and MPICH pads the names to one
// column mostly: a name is what follows "algorithm" when the glued word starts with
// it, what follows a ")" (the note after "auto" ends in one), otherwise as many characters as the column's width less the padding, the width
// being the one most entries that follow "algorithm" agree on.
func mpichAlgNames(desc string) []string {
	if strings.Contains(desc, "\n") { // MPICH 4.2: an entry a line, "name<spaces>- what"
		var names []string
		for _, line := range strings.Split(desc, "\n")[1:] {
			if m := mpichLine.FindStringSubmatch(line); m != nil {
				names = append(names, m[1])
			}
		}
		return names
	}
	const word = "algorithm"
	ms := mpichEntry.FindAllStringSubmatch(desc, -1)
	votes := map[int]int{}
	for i, m := range ms {
		if n, ok := strings.CutPrefix(m[1], word); ok && i > 0 && n != "" {
			votes[len(n)+len(m[2])]++
		}
	}
	width, best := 0, 0
	for w, v := range votes {
		if v > best || v == best && w < width {
			width, best = w, v
		}
	}
	var names []string
	for _, m := range ms {
		glued, pad := m[1], len(m[2])
		name, ok := strings.CutPrefix(glued, word)
		switch {
		case ok && name != "":
		case strings.Contains(glued, ")"): // "...JSON_FILE)nb": after the note that ends "auto"
			name = glued[strings.LastIndex(glued, ")")+1:]
		default:
			name = ""
			if n := width - pad; width > 0 && n > 0 && n < len(glued) {
				name = glued[len(glued)-n:]
			}
		}
		if mpichName.MatchString(name) {
			names = append(names, name)
		}
	}
	return names
}
