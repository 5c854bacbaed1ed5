// Package shmem is the OpenSHMEM family's part in the runner: what its data checks and
// cache settings reach, and a breakdown without MPI requests to test. It links in the
// kernels, which register OpenSHMEM's runtime with ops/mpi (the run starts it through
// that, or denies the operations with the reason a build without it gives).
package shmem

import (
	_ "github.com/skampi/skampi/families/shmem/kernels" // the kernels and the runtime
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

func init() {
	runner.Register(runner.Family{
		Name: "openshmem",
		Has:  func(op ops.Info) bool { return op.SHMEM },
		Record: func(p *record.Point, pt *inputs.Point, _ any) {
			runner.WarmUnchecked(p, pt)
			if p.Breakdown != nil { // no MPI request to test: progress_every does nothing here
				p.Breakdown.ProgressEvery = 0
			}
		},
	})
}
