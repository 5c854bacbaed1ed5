package neighbor

import (
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
)

// The family's operations are in the catalogue, in skampi list's order (after the
// collectives of 2200, before the persistent ones): five blocking neighbourhood
// collectives, each with its non-blocking form in the non-blocking family (beside the
// other non-blocking collectives, its time broken down), the same buffers and
// reduction, so a suite can put them side by side.
func TestRegistered(t *testing.T) {
	var names []string
	for _, in := range ops.All() {
		if !in.Neighborhood {
			continue
		}
		names = append(names, in.Name)
		if in.Pattern != ops.PatternAll || in.Reduce != ops.ReduceMax || !in.SingleShot || !in.Datatyped || in.Kernel != strings.ToLower(in.Name) {
			t.Errorf("%s: %+v", in.Name, in)
		}
		if !in.Nonblocking {
			if in.Family != "neighbor" {
				t.Errorf("%s: family %q", in.Name, in.Family)
			}
			continue
		}
		if in.Family != "nonblocking" || !strings.HasSuffix(in.Description, "; broken down into full, post, wait and overlap ratio") {
			t.Errorf("%s: family %q, %q", in.Name, in.Family, in.Description)
		}
		b, ok := ops.Lookup("N" + strings.TrimPrefix(in.Name, "In"))
		if !ok {
			t.Errorf("%s: no blocking form", in.Name)
			continue
		}
		if b.PerProcess != in.PerProcess || b.Reduction != in.Reduction || b.Rooted != in.Rooted || b.Throughput != in.Throughput ||
			!b.Neighborhood || b.Nonblocking {
			t.Errorf("%s differs from %s: %+v vs %+v", in.Name, b.Name, in, b)
		}
	}
	if got := strings.Join(names, " "); got != "Neighbor_allgather Neighbor_allgatherv Neighbor_alltoall Neighbor_alltoallv Neighbor_alltoallw "+
		"Ineighbor_allgather Ineighbor_allgatherv Ineighbor_alltoall Ineighbor_alltoallv Ineighbor_alltoallw" {
		t.Errorf("neighbourhood collectives %s", got)
	}
	// In the catalogue's order: after the v-collectives, before the persistent ones.
	all := ops.All()
	at := func(name string) int {
		for i, in := range all {
			if in.Name == name {
				return i
			}
		}
		return -1
	}
	if !(at("Alltoallw") < at("Neighbor_allgather") && at("Ineighbor_alltoallw") < at("Bcast_persistent")) {
		t.Errorf("catalogue order: Alltoallw %d, Neighbor_allgather %d, Ineighbor_alltoallw %d, Bcast_persistent %d",
			at("Alltoallw"), at("Neighbor_allgather"), at("Ineighbor_alltoallw"), at("Bcast_persistent"))
	}
}

// The built-in suite neighbor loads, plans at 2 and 4 processes (MPI_Dims_create's
// grids) and measures every neighbourhood collective.
func TestSuite(t *testing.T) {
	if !slices.Contains(inputs.BuiltinNames(), "neighbor") {
		t.Fatalf("built-in suites %v: no neighbor", inputs.BuiltinNames())
	}
	plan, err := inputs.Load("neighbor")
	if err != nil {
		t.Fatal(err)
	}
	for _, np := range []int{2, 4} {
		if _, err := plan.Expand(inputs.Job{NProcs: np}); err != nil {
			t.Errorf("%d processes: %v", np, err)
		}
	}
	measured := map[string]bool{}
	for _, m := range plan.Measurements {
		measured[m.Op.Name] = true
	}
	for _, in := range ops.All() {
		if in.Neighborhood && !measured[in.Name] {
			t.Errorf("suite neighbor does not measure %s", in.Name)
		}
	}
}
