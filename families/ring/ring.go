// Package ring is the ring algorithms written with point-to-point calls: the
// allgather as p - 1 steps in which every rank passes the block it received last to
// its right neighbour (Open MPI's allgather algorithm "ring", and the second half of
// the bandwidth-optimal ring allreduce). Beside MPI_Allgather it shows whether the
// library's choice beats the plain ring at a size.
package ring

import (
	_ "embed"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"

	_ "github.com/skampi/skampi/families/ring/kernels" // the kernels' table
)

//go:embed ring.toml
var suite []byte

func init() { inputs.RegisterBuiltin("ring", suite) }

// The ring's section of the catalogue follows the pipelined broadcast's (310).
var _ = ops.Register(320, []ops.Info{
	ops.Collective("ring", "Allgather_Ring", "allgather_ring",
		"ring allgather: p - 1 steps of MPI_Sendrecv, each rank passing the block it received last to rank + 1, msg_bytes per process",
		true, false, false),
})
