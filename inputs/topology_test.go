package inputs

import (
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
)

// The topology a neighbourhood collective is given: two chosen dimensions for cart by
// default, the setting's otherwise, nothing for any other operation.
func TestTopologyFor(t *testing.T) {
	s := Defaults()
	nb, _ := ops.Lookup("Neighbor_alltoall")
	bc, _ := ops.Lookup("Bcast")
	if got := s.TopologyFor(nb); got.Kind != ops.TopoCart || !slices.Equal(got.Dims, []int{0, 0}) {
		t.Errorf("default %+v", got)
	}
	if got := s.TopologyFor(bc); got.Kind != "" {
		t.Errorf("Bcast %+v", got)
	}
	s.Topology, s.TopologyDims = ops.TopoStencil3D, []int{0, 2, 0}
	got, err := s.TopologyFor(nb).Resolve(8)
	if err != nil || got.String() != "stencil_3d:2x2x2" {
		t.Errorf("%v, %v", got, err)
	}
}

// Dimensions that cannot hold a job's communicator are an error at the measurement,
// said when the job is known; at another size they fit.
func TestTopologyDimsAgainstProcs(t *testing.T) {
	p := suiteOf(t, "[[measurement]]\nname = \"grid\"\nop = \"Neighbor_alltoall\"\nsizes = [8]\ntopology_dims = [3, 0]\n")
	if _, err := p.Expand(onOneHost(4)); err == nil || !strings.Contains(err.Error(), `measurement "grid": topology "cart": dimensions 3x0 cannot hold 4 processes`) {
		t.Errorf("4 processes: %v", err)
	}
	ex, err := p.Expand(onOneHost(6))
	if err != nil || len(ex.Points) != 1 {
		t.Fatalf("6 processes: %v", err)
	}
}
