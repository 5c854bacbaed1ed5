package neighbor

import (
	"strings"

	"github.com/skampi/skampi/ops"
)

// Neighbourhood collectives (MPI-3): every process exchanges with its neighbours in
// the point's process topology (the settings topology, topology_dims,
// topology_degree, topology_seed), built once per point. msg_bytes is the block sent
// to (or received from) one neighbour. Kernels: kernels/neighbor.c.
// Registered at 2300, where the catalogue had them: skampi list keeps its order.
var _ = ops.Register(2300, []ops.Info{
	neighbor("Neighbor_allgather", "MPI_Neighbor_allgather: msg_bytes from every neighbour", false),
	neighbor("Neighbor_allgatherv", "MPI_Neighbor_allgatherv with equal counts", false),
	neighbor("Neighbor_alltoall", "MPI_Neighbor_alltoall: msg_bytes to and from every neighbour", false),
	neighbor("Neighbor_alltoallv", "MPI_Neighbor_alltoallv with equal counts", false),
	neighbor("Neighbor_alltoallw", "MPI_Neighbor_alltoallw with equal counts and the one datatype, byte displacements", false),
	neighbor("Ineighbor_allgather", "MPI_Ineighbor_allgather: msg_bytes from every neighbour", true),
	neighbor("Ineighbor_allgatherv", "MPI_Ineighbor_allgatherv with equal counts", true),
	neighbor("Ineighbor_alltoall", "MPI_Ineighbor_alltoall: msg_bytes to and from every neighbour", true),
	neighbor("Ineighbor_alltoallv", "MPI_Ineighbor_alltoallv with equal counts", true),
	neighbor("Ineighbor_alltoallw", "MPI_Ineighbor_alltoallw with equal counts and the one datatype, byte displacements", true),
})

const topoDoc = ", on the point's topology (a periodic MPI_Cart_create grid, or an MPI_Dist_graph_create_adjacent ring, stencil or random graph), made once per point"

func neighbor(name, desc string, nonblocking bool) ops.Info {
	in := ops.Info{Name: name, Family: "neighbor", Description: desc + topoDoc, Kernel: strings.ToLower(name),
		Pattern: ops.PatternAll, Reduce: ops.ReduceMax, Directions: 1, SingleShot: true, Datatyped: true, Neighborhood: true}
	if nonblocking { // beside the other non-blocking collectives, in their overlap figures
		in = ops.NonblockingCollective(in)
	}
	return in
}
