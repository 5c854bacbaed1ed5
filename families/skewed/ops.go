package skewed

import "github.com/skampi/skampi/ops"

// The skewed all-to-all (GROMACS's PME ranks): a collective of the catalogue's kind,
// timed one call per repetition, between the collectives with a late rank (1800) and
// the pairs at once (1820). Kernel: kernels/skewed.c.
var _ = ops.Register(1810, []ops.Info{{
	Name: "Alltoallv_Skewed", Family: "coll", Kernel: "alltoallv_skewed",
	Description: "MPI_Alltoallv where rank 0 sends msg_bytes to each process and every other rank msg_bytes/ratio (whole elements)",
	Pattern:     ops.PatternAll, Reduce: ops.ReduceMax, Directions: 1, PerProcess: true, SingleShot: true, Datatyped: true,
	Skewed: true, Displacements: ops.DisplElements,
}})
