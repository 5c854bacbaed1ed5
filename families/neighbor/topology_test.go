package neighbor

import (
	"slices"
	"testing"
)

func TestDimsCreate(t *testing.T) {
	cases := []struct {
		n        int
		in, want []int
	}{
		{4, []int{0, 0}, []int{2, 2}},
		{2, []int{0, 0}, []int{2, 1}},
		{12, []int{0, 0}, []int{4, 3}},
		{2, []int{0, 0, 0}, []int{2, 1, 1}},
		{8, []int{0, 0, 0}, []int{2, 2, 2}},
		{6, []int{3, 0}, []int{3, 2}},
		{6, []int{0, 3}, []int{2, 3}},
		{4, []int{4}, []int{4}},
		{7, []int{0}, []int{7}},
	}
	for _, c := range cases {
		got, err := DimsCreate(c.n, c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("DimsCreate(%d, %v) = %v, %v; want %v", c.n, c.in, got, err, c.want)
		}
	}
	for _, bad := range [][]int{{3, 0}, {2, 3}, {-1, 0}, {1, 1}} {
		if _, err := DimsCreate(4, bad); err == nil {
			t.Errorf("DimsCreate(4, %v) accepted", bad)
		}
	}
	// Dimensions whose product wraps to 0 (2^80) or to a divisor: an error, no panic.
	huge := 1 << 20
	for _, bad := range [][]int{{huge, huge, huge, huge}, {huge, huge, huge, huge, 0}, {1 << 32, 1 << 32, 4}} {
		if _, err := DimsCreate(4, bad); err == nil {
			t.Errorf("DimsCreate(4, %v) accepted", bad)
		}
	}
}

// Every edge is seen from both ends: a rank's sources are the ranks whose destinations
// name it, as often as they do, and each receive block may come from a send block of
// its source that goes to it (MPI_Dist_graph_create_adjacent needs both ends to agree).
func TestNeighborsConsistent(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 6, 8, 12} {
		for _, topo := range []Topology{
			{Kind: TopoCart, Dims: []int{0, 0}}, {Kind: TopoCart, Dims: []int{0}}, {Kind: TopoCart, Dims: []int{0, 0, 0}},
			{Kind: TopoRing}, {Kind: TopoStencil2D}, {Kind: TopoStencil3D},
			{Kind: TopoRandom, Degree: 2, Seed: 1}, {Kind: TopoRandom, Degree: 5, Seed: 9},
		} {
			rt, err := topo.Resolve(n)
			if err != nil {
				t.Fatalf("%v on %d: %v", topo, n, err)
			}
			in, out := map[[2]int]int{}, map[[2]int]int{}
			for r := range n {
				nb := rt.NeighborsOf(r, n)
				for i, s := range nb.Sources {
					in[[2]int{s, r}]++
					if nb.FromBlocks[i] == 0 {
						t.Errorf("%v on %d: rank %d's block %d from %d has no send block", rt, n, r, i, s)
					}
					src := rt.NeighborsOf(s, n)
					for j := range 64 {
						if nb.FromBlocks[i]>>j&1 == 1 && src.Dests[j] != r {
							t.Errorf("%v on %d: rank %d's block %d may come from %d's block %d, which goes to %d", rt, n, r, i, s, j, src.Dests[j])
						}
					}
				}
				for _, d := range nb.Dests {
					out[[2]int{r, d}]++
					if d < 0 || d >= n {
						t.Errorf("%v on %d: rank %d sends to %d", rt, n, r, d)
					}
				}
				if rt.Kind == TopoRandom && (slices.Contains(nb.Dests, r) || len(nb.Dests) != min(topo.Degree, n-1)) {
					t.Errorf("%v on %d: rank %d's destinations %v", rt, n, r, nb.Dests)
				}
			}
			for e, k := range out {
				if in[e] != k {
					t.Errorf("%v on %d: edge %v sent %d times, received %d", rt, n, e, k, in[e])
				}
			}
		}
	}
}

// A 2x2 grid: rank 0 at (0,0) has (1,0) = rank 2 both ways along the first dimension
// and (0,1) = rank 1 along the second, MPI_Cart_shift's order; a 3x1 grid's second
// dimension is the rank itself.
func TestCartNeighbors(t *testing.T) {
	nb := Topology{Kind: TopoCart, Dims: []int{2, 2}}.NeighborsOf(0, 4)
	if !slices.Equal(nb.Dests, []int{2, 2, 1, 1}) || !slices.Equal(nb.Sources, nb.Dests) || nb.FromBlocks[0] != 0b11 {
		t.Errorf("2x2, rank 0: %+v", nb)
	}
	nb = Topology{Kind: TopoCart, Dims: []int{3, 1}}.NeighborsOf(1, 3)
	if !slices.Equal(nb.Dests, []int{0, 2, 1, 1}) || nb.FromBlocks[0] != 0b10 || nb.FromBlocks[1] != 0b01 {
		t.Errorf("3x1, rank 1: %+v", nb)
	}
	if s := (Topology{Kind: TopoCart, Dims: []int{2, 2}}).String(); s != "cart:2x2" {
		t.Error(s)
	}
	if s := (Topology{Kind: TopoRandom, Degree: 2, Seed: 3}).String(); s != "random:2:seed3" {
		t.Error(s)
	}
	// The same seed draws the same graph on every rank; another seed another.
	a, b := Topology{Kind: TopoRandom, Degree: 2, Seed: 1}, Topology{Kind: TopoRandom, Degree: 2, Seed: 2}
	same := true
	for r := range 8 {
		same = same && slices.Equal(a.NeighborsOf(r, 8).Dests, b.NeighborsOf(r, 8).Dests)
		if !slices.Equal(a.NeighborsOf(r, 8).Dests, a.NeighborsOf(r, 8).Dests) {
			t.Error("not deterministic")
		}
	}
	if same {
		t.Error("seeds 1 and 2 drew the same graph")
	}
}
