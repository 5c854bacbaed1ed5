// Package neighbor is the neighbourhood collectives' family, whole: its operations
// (ops.go), the process topologies they run on (topology.go), the settings that ask
// for one and their checks (settings.go), its built-in suite neighbor (suite.go) and
// its kernels (kernels/); here, the topology asked for, resolved for the point's
// communicator into this rank's edges for its kernels, and recorded.
package neighbor

import (
	"fmt"
	"slices"

	_ "github.com/skampi/skampi/families/neighbor/kernels" // the kernels' table
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

func init() {
	runner.Register(runner.Family{
		Name:    "neighbourhood",
		Has:     func(op ops.Info) bool { return op.Neighborhood },
		Prepare: prepare,
		Record: func(p *record.Point, pt *inputs.Point, _ any) {
			if t, err := topologyFor(pt.Settings(), pt.Op()).Resolve(pt.NProcs); err == nil {
				p.Topology = t.String()
			}
		},
	})
}

// prepare resolves the point's topology for its communicator: a block per edge in the
// message buffers (a grid may have more edges than processes) on every rank, and on
// its members their edges, by name, for the kernel (kernels/neighbor.c).
func prepare(r *runner.Runner, pt *inputs.Point, spec *ops.Request) error {
	t := topologyFor(pt.Settings(), pt.Op())
	nprocs, rank := r.World.Size(), r.World.Rank()
	if spec.Ranks != nil {
		nprocs, rank = len(spec.Ranks), slices.Index(spec.Ranks, rank)
	}
	rt, err := t.Resolve(nprocs)
	if err != nil {
		return fmt.Errorf("%s: %w", spec.Info.Name, err)
	}
	spec.Blocks = int64(rt.MaxDegree(nprocs))
	graph := 0.0
	if rt.Graph() {
		graph = 1
	}
	spec.SetParam("topo_graph", graph)
	spec.SetString("topology", t.String())
	if rank < 0 { // an idle rank: no edges
		return nil
	}
	nb := rt.NeighborsOf(rank, nprocs)
	from := make([]int64, len(nb.FromBlocks))
	for i, m := range nb.FromBlocks {
		from[i] = int64(m) // the mask's bits, as C reads them back
	}
	spec.SetInts("sources", ints(nb.Sources))
	spec.SetInts("dests", ints(nb.Dests))
	spec.SetInts("from_blocks", from)
	spec.SetInts("dims", ints(rt.Dims))
	return nil
}

func ints(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}
