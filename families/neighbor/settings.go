package neighbor

import (
	"fmt"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
)

// The family's settings: the process topology its operations run on.
const (
	settingTopology = "topology"
	settingDims     = "topology_dims"
	settingDegree   = "topology_degree"
	settingSeed     = "topology_seed"
)

const neighborhoodOps = "the neighbourhood collectives (Neighbor_*, Ineighbor_*)"

const randomOps = `random graphs (topology = "random") of the neighbourhood collectives`

func neighborhood(m *inputs.Measurement) bool { return m.Op.Neighborhood }

// randomGraph: a neighbourhood collective on a random graph, which takes a degree and
// a seed.
func randomGraph(m *inputs.Measurement) bool {
	return m.Op.Neighborhood && kind(m.Settings) == TopoRandom
}

func init() {
	// Listed before partitions, where the core had them: a one-line suite's text is
	// what it was.
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingTopology,
		Doc:     `the neighbourhood collectives' process topology, made once per point: "cart" (default: MPI_Cart_create, periodic, dimensions topology_dims), or a distributed graph (MPI_Dist_graph_create_adjacent): "ring" (the previous and next rank), "stencil_2d" and "stencil_3d" (the 4 or 6 neighbours on a periodic grid of topology_dims), "random" (topology_degree destinations per rank drawn from topology_seed)`,
		Default: TopoCart,
		Parse:   inputs.SettingOneOf(Topologies...),
		Applies: neighborhood, What: neighborhoodOps,
		Before: "partitions",
	})
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingDims,
		Doc:     `a grid topology's dimensions (cart, stencil_2d, stencil_3d): a list such as [2, 0], 0 where MPI_Dims_create chooses (default: all chosen, two for cart); their product must divide the processes`,
		Default: []int(nil),
		Parse:   parseDims,
		Applies: neighborhood, What: neighborhoodOps,
		Check: func(m *inputs.Measurement) string {
			if msg := checkDims(m); msg != "" {
				return m.Op.Name + ": " + msg
			}
			return ""
		},
		Before:   "partitions",
		Recorded: []string{settingTopology}, // in its words ("cart:2x2")
	})
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingDegree,
		Doc:     `topology = "random": destinations of every rank (default 2; at most the other processes)`,
		Default: 2,
		Parse:   inputs.SettingInt(1, 64),
		Applies: randomGraph, What: randomOps,
		Before:   "partitions",
		Recorded: []string{settingTopology}, // in its words ("cart:2x2")
	})
	inputs.RegisterSetting(inputs.FamilySetting{
		Name:    settingSeed,
		Doc:     `topology = "random": the seed the graph is drawn from (default 1); every rank draws the same graph`,
		Default: int64(1),
		Parse: func(v any) (any, error) {
			n, ok := v.(int64)
			if !ok {
				return nil, fmt.Errorf("must be an integer, got %s", inputs.TypeName(v))
			}
			return n, nil
		},
		Applies: randomGraph, What: randomOps,
		Before:   "partitions",
		Recorded: []string{settingTopology}, // in its words ("cart:2x2")
	})
	// Whether the topology lays out a communicator: a question of its size, asked of
	// every size the measurement's procs give on the job.
	inputs.RegisterCommCheck(func(m *inputs.Measurement, nprocs int) string {
		if !m.Op.Neighborhood {
			return ""
		}
		if _, err := topologyFor(m.Settings, m.Op).Resolve(nprocs); err != nil {
			return fmt.Sprintf("topology %q: %v: change topology_dims (0 lets MPI_Dims_create choose) or procs", kind(m.Settings), err)
		}
		return ""
	})
}

// parseDims reads topology_dims: 1 to MaxTopologyDims counts of processes (0:
// chosen), whose product is at most the processes a job may have, checked as it grows
// (so it never wraps).
func parseDims(v any) (any, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("must be a list such as [2, 0], got %s", inputs.TypeName(v))
	}
	if len(arr) == 0 || len(arr) > MaxTopologyDims {
		return nil, fmt.Errorf("must have 1 to %d dimensions, got %d", MaxTopologyDims, len(arr))
	}
	dims := make([]int, len(arr))
	grid := 1 // the product of the dimensions given, checked as it grows
	for i, e := range arr {
		x, err := inputs.SettingInt(0, inputs.MaxJobProcs)(e)
		if err != nil {
			return nil, fmt.Errorf("dimension %d: %v (0: chosen by MPI_Dims_create)", i+1, err)
		}
		n := x.(int)
		dims[i] = n
		if n > 0 && grid > inputs.MaxJobProcs/n {
			return nil, fmt.Errorf("dimensions %s make a grid of more than %d processes, the most a job may have", FormatDims(dims[:i+1]), inputs.MaxJobProcs)
		}
		grid *= max(n, 1)
	}
	return dims, nil
}

// checkDims says why a grid's dimensions do not fit the kind of topology ("": they
// do): a stencil's count of them; whether they suit the communicator sizes is the
// check of each size (RegisterCommCheck).
func checkDims(m *inputs.Measurement) string {
	d := dims(m.Settings)
	if !m.Op.Neighborhood || len(d) == 0 {
		return ""
	}
	n := len(d)
	switch k := kind(m.Settings); k {
	case TopoRing, TopoRandom:
		return fmt.Sprintf("topology %q has no grid: topology_dims applies to cart, stencil_2d and stencil_3d", k)
	case TopoStencil2D:
		if n != 2 {
			return fmt.Sprintf("stencil_2d has 2 dimensions, topology_dims has %d", n)
		}
	case TopoStencil3D:
		if n != 3 {
			return fmt.Sprintf("stencil_3d has 3 dimensions, topology_dims has %d", n)
		}
	}
	return ""
}

// kind, dims, degree and seed are the point's settings of the family.
func kind(s inputs.Settings) string { return s.Value(settingTopology).(string) }
func dims(s inputs.Settings) []int  { return s.Value(settingDims).([]int) }
func degree(s inputs.Settings) int  { return s.Value(settingDegree).(int) }
func seed(s inputs.Settings) int64  { return s.Value(settingSeed).(int64) }

// topologyFor is the point's topology as the settings give it (not yet resolved for a
// communicator size: Topology.Resolve); none for an operation of another family.
func topologyFor(s inputs.Settings, op ops.Info) Topology {
	if !op.Neighborhood {
		return Topology{}
	}
	t := Topology{Kind: kind(s), Dims: dims(s), Degree: degree(s), Seed: seed(s)}
	if t.Kind == TopoCart && len(t.Dims) == 0 {
		t.Dims = []int{0, 0}
	}
	return t
}
