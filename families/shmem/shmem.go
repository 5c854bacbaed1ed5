// Package shmem is the OpenSHMEM family: its operations (ops*.go), its built-in
// suites and OSU's OpenSHMEM names (suite.go), and its part in the runner: the PE its
// kernels address, what its data checks and cache settings reach, and a breakdown
// without MPI requests to test. It links in the kernels, which register OpenSHMEM's
// runtime with ops/mpi (the run starts it through that, or denies the operations with
// the reason a build without it gives).
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
		Name:    "openshmem",
		Has:     func(op ops.Info) bool { return op.SHMEM },
		Prepare: prepare,
		Record: func(p *record.Point, pt *inputs.Point, _ any) {
			runner.WarmUnchecked(p, pt)
			if p.Breakdown != nil { // no MPI request to test: progress_every does nothing here
				p.Breakdown.ProgressEvery = 0
			}
		},
	})
}

// prepare gives the kernels the PE their operations go to, by name (target_pe,
// kernels/shmem_kernels.h): PE numbers are world ranks, a pair's peer (-1 on a rank
// outside the pair), or the communicator's first. The target is the symmetric heap:
// moving skampi's buffers would not make it cold, so it is measured warm (and
// recorded so: WarmUnchecked).
func prepare(r *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
	op := pt.Op()
	_, pe := op.RoleOf(r.World.Rank(), r.World.Size(), spec.Pair)
	if op.Pattern == ops.PatternAll {
		pe = 0
		if spec.Ranks != nil {
			pe = spec.Ranks[0]
		}
	}
	spec.SetParam("target_pe", float64(pe))
	spec.Cold = false
	return nil
}
