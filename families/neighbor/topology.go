package neighbor

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// The process topologies the neighbourhood collectives run on (the setting topology):
// a periodic Cartesian grid made by MPI_Cart_create, or a distributed graph made by
// MPI_Dist_graph_create_adjacent from the neighbours computed here. Every rank computes
// the same graph from the same settings, so each knows its sources and destinations
// without communicating.
const (
	TopoCart      = "cart"       // MPI_Cart_create, periodic in every dimension
	TopoRing      = "ring"       // graph: the previous and the next rank
	TopoStencil2D = "stencil_2d" // graph: the 4 neighbours on a periodic 2-D grid
	TopoStencil3D = "stencil_3d" // graph: the 6 neighbours on a periodic 3-D grid
	TopoRandom    = "random"     // graph: Degree distinct destinations per rank, from Seed
)

// Topologies are the names the setting topology takes.
var Topologies = []string{TopoCart, TopoRing, TopoStencil2D, TopoStencil3D, TopoRandom}

// MaxTopologyDims bounds the dimensions of a Cartesian topology.
const MaxTopologyDims = 6

// Topology is a point's process topology, as the settings give it. Dims may hold
// zeros (MPI_Dims_create's "choose"); Resolve fills them for a communicator size.
type Topology struct {
	Kind   string
	Dims   []int
	Degree int   // random: destinations per rank (capped at nprocs - 1)
	Seed   int64 // random
}

// Graph reports whether the topology is a distributed graph (not Cartesian).
func (t Topology) Graph() bool { return t.Kind != TopoCart }

// gridDims is how many dimensions the kind's grid has (0: none, a ring or random).
func (t Topology) gridDims() int {
	switch t.Kind {
	case TopoCart:
		return len(t.Dims)
	case TopoStencil2D:
		return 2
	case TopoStencil3D:
		return 3
	}
	return 0
}

// Resolve is the topology for a communicator of nprocs processes: zero dimensions
// chosen as MPI_Dims_create chooses them, a random degree capped at nprocs - 1. An
// error says why nprocs cannot be laid out so.
func (t Topology) Resolve(nprocs int) (Topology, error) {
	out := t
	out.Dims = nil
	if n := t.gridDims(); n > 0 {
		dims := make([]int, n)
		copy(dims, t.Dims) // a stencil without dims: all chosen
		d, err := DimsCreate(nprocs, dims)
		if err != nil {
			return Topology{}, err
		}
		out.Dims = d
	}
	if t.Kind == TopoRandom {
		out.Degree = max(0, min(t.Degree, nprocs-1))
	} else {
		out.Degree = 0
	}
	return out, nil
}

// DimsCreate fills the zeros of dims so their product with the others is nprocs, as
// balanced as possible and in non-increasing order among the filled (MPI_Dims_create).
func DimsCreate(nprocs int, dims []int) ([]int, error) {
	out := slices.Clone(dims)
	fixed, free, over := 1, []int{}, false
	for i, d := range out {
		switch {
		case d < 0:
			return nil, fmt.Errorf("dimension %d is %d: a dimension is a count of processes (0: chosen)", i+1, d)
		case d == 0:
			free = append(free, i)
		case fixed > nprocs/d:
			over = true // past nprocs already: multiplying on could wrap to 0
		default:
			fixed *= d
		}
	}
	if nprocs < 1 || over || nprocs%fixed != 0 || (len(free) == 0 && fixed != nprocs) {
		return nil, fmt.Errorf("dimensions %s cannot hold %d processes", FormatDims(dims), nprocs)
	}
	vals := make([]int, len(free))
	for i := range vals {
		vals[i] = 1
	}
	if len(free) > 0 {
		for _, p := range primeFactors(nprocs / fixed) { // largest first, onto the smallest
			j := 0
			for k := range vals {
				if vals[k] < vals[j] {
					j = k
				}
			}
			vals[j] *= p
		}
		slices.SortFunc(vals, func(a, b int) int { return b - a })
	}
	for k, i := range free {
		out[i] = vals[k]
	}
	return out, nil
}

func primeFactors(n int) []int {
	var f []int
	for p := 2; p*p <= n; p++ {
		for n%p == 0 {
			f = append(f, p)
			n /= p
		}
	}
	if n > 1 {
		f = append(f, n)
	}
	slices.Reverse(f)
	return f
}

// FormatDims writes dimensions as records carry them: "2x3x1".
func FormatDims(d []int) string {
	s := make([]string, len(d))
	for i, v := range d {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, "x")
}

// String is the topology in one word, as a point's setup names it: "cart:2x2",
// "stencil_3d:2x1x1", "ring", "random:2:seed1" (degree 2, seed 1).
func (t Topology) String() string {
	switch {
	case t.Kind == TopoRandom:
		return fmt.Sprintf("random:%d:seed%d", t.Degree, t.Seed)
	case len(t.Dims) > 0:
		return t.Kind + ":" + FormatDims(t.Dims)
	}
	return t.Kind
}

// Neighbors are one rank's edges in a resolved topology: the ranks it receives from
// (in the order of its receive blocks) and sends to (its send blocks), and for every
// receive block the send blocks of its source that may land there (a bit per block):
// one, unless the two ranks share several edges, whose order the standard leaves to
// the library for a Cartesian grid of 1 or 2 processes along a dimension.
type Neighbors struct {
	Sources, Dests []int
	FromBlocks     []uint64
}

// NeighborsOf computes rank's neighbours in t (resolved for nprocs). A Cartesian grid
// and the stencils: for every dimension the previous then the next rank along it
// (MPI_Cart_shift's order, rank order row-major as MPI_Cart_create without reordering).
func (t Topology) NeighborsOf(rank, nprocs int) Neighbors {
	all := t.allDests(nprocs)
	n := Neighbors{Dests: all[rank]}
	if t.Kind == TopoCart || t.Kind == TopoStencil2D || t.Kind == TopoStencil3D || t.Kind == TopoRing {
		n.Sources = slices.Clone(all[rank]) // symmetric: the sources are the same neighbours
	} else {
		for r := range nprocs {
			for _, d := range all[r] {
				if d == rank {
					n.Sources = append(n.Sources, r)
				}
			}
		}
	}
	n.FromBlocks = make([]uint64, len(n.Sources))
	for i, s := range n.Sources {
		for j, d := range all[s] {
			if d == rank && j < 64 {
				n.FromBlocks[i] |= 1 << j
			}
		}
	}
	return n
}

// MaxDegree is the most edges any rank has, in or out: the blocks of its buffers.
func (t Topology) MaxDegree(nprocs int) int {
	m := 0
	for r := range nprocs {
		nb := t.NeighborsOf(r, nprocs)
		m = max(m, len(nb.Sources), len(nb.Dests))
	}
	return m
}

// allDests lists every rank's destinations.
func (t Topology) allDests(nprocs int) [][]int {
	out := make([][]int, nprocs)
	switch t.Kind {
	case TopoRing:
		for r := range nprocs {
			out[r] = []int{(r - 1 + nprocs) % nprocs, (r + 1) % nprocs}
		}
	case TopoRandom:
		rng := rand.New(rand.NewPCG(uint64(t.Seed), 0x5ca3b1))
		for r := range nprocs {
			others := make([]int, 0, nprocs-1)
			for o := range nprocs {
				if o != r {
					others = append(others, o)
				}
			}
			rng.Shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
			out[r] = slices.Sorted(slices.Values(others[:min(t.Degree, len(others))]))
		}
	default: // a grid: cart and the stencils
		dims := t.Dims
		for r := range nprocs {
			coords := make([]int, len(dims))
			for i, rest := len(dims)-1, r; i >= 0; i-- {
				coords[i], rest = rest%dims[i], rest/dims[i]
			}
			for i := range dims {
				for _, step := range []int{-1, 1} {
					c := slices.Clone(coords)
					c[i] = (c[i] + step + dims[i]) % dims[i]
					out[r] = append(out[r], rankOf(c, dims))
				}
			}
		}
	}
	return out
}

func rankOf(coords, dims []int) int {
	r := 0
	for i := range dims {
		r = r*dims[i] + coords[i]
	}
	return r
}
