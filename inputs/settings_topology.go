package inputs

import (
	"fmt"

	"github.com/skampi/skampi/ops"
)

// neighborSettings are what the neighbourhood collectives and the MPI-4 operations
// take beside the common settings (settingList joins them).
type neighborSettings struct {
	// Topology: the process topology of the neighbourhood collectives (ops.Topologies);
	// TopologyDims its grid's dimensions (cart, stencils; 0: chosen as MPI_Dims_create
	// does; nil: all chosen, two for cart); TopologyDegree and TopologySeed: a random
	// graph's destinations per rank and its seed.
	Topology       string
	TopologyDims   []int
	TopologyDegree int
	TopologySeed   int64
	// Partitions: how many parts a partitioned send is made ready in (MPI_Pready each).
	Partitions int
}

func defaultNeighborSettings() neighborSettings {
	return neighborSettings{Topology: ops.TopoCart, TopologyDegree: 2, TopologySeed: 1, Partitions: 8}
}

// TopologyFor is the point's topology as the settings give it (not yet resolved for a
// communicator size: ops.Topology.Resolve).
func (s Settings) TopologyFor(op ops.Info) ops.Topology {
	if !op.Neighborhood {
		return ops.Topology{}
	}
	t := ops.Topology{Kind: s.Topology, Dims: s.TopologyDims, Degree: s.TopologyDegree, Seed: s.TopologySeed}
	if t.Kind == ops.TopoCart && len(t.Dims) == 0 {
		t.Dims = []int{0, 0}
	}
	return t
}

var topologyScope = scope{"the neighbourhood collectives (Neighbor_*, Ineighbor_*)", func(m *Measurement) bool { return m.Op.Neighborhood }}

var neighborSettingList = []setting{
	{"topology", `the neighbourhood collectives' process topology, made once per point: "cart" (default: MPI_Cart_create, periodic, dimensions topology_dims), or a distributed graph (MPI_Dist_graph_create_adjacent): "ring" (the previous and next rank), "stencil_2d" and "stencil_3d" (the 4 or 6 neighbours on a periodic grid of topology_dims), "random" (topology_degree destinations per rank drawn from topology_seed)`, func(s *Settings, v any) (err error) {
		s.Topology, err = oneOf(v, ops.Topologies...)
		return
	}},
	{"topology_dims", `a grid topology's dimensions (cart, stencil_2d, stencil_3d): a list such as [2, 0], 0 where MPI_Dims_create chooses (default: all chosen, two for cart); their product must divide the processes`, func(s *Settings, v any) error {
		arr, ok := v.([]any)
		if !ok {
			return fmt.Errorf("must be a list such as [2, 0], got %s", typeName(v))
		}
		if len(arr) == 0 || len(arr) > ops.MaxTopologyDims {
			return fmt.Errorf("must have 1 to %d dimensions, got %d", ops.MaxTopologyDims, len(arr))
		}
		dims := make([]int, len(arr))
		grid := 1 // the product of the dimensions given, checked as it grows
		for i, e := range arr {
			n, err := intIn(e, 0, MaxJobProcs)
			if err != nil {
				return fmt.Errorf("dimension %d: %v (0: chosen by MPI_Dims_create)", i+1, err)
			}
			dims[i] = n
			if n > 0 && grid > MaxJobProcs/n {
				return fmt.Errorf("dimensions %s make a grid of more than %d processes, the most a job may have", ops.FormatDims(dims[:i+1]), MaxJobProcs)
			}
			grid *= max(n, 1)
		}
		s.TopologyDims = dims
		return nil
	}},
	{"topology_degree", `topology = "random": destinations of every rank (default 2; at most the other processes)`, func(s *Settings, v any) (err error) {
		s.TopologyDegree, err = intIn(v, 1, 64)
		return
	}},
	{"topology_seed", `topology = "random": the seed the graph is drawn from (default 1); every rank draws the same graph`, func(s *Settings, v any) error {
		n, ok := v.(int64)
		if !ok {
			return fmt.Errorf("must be an integer, got %s", typeName(v))
		}
		s.TopologySeed = n
		return nil
	}},
	{"partitions", "partitioned communication (Pingpong_Partitioned): the parts a message is sent in, each made ready by MPI_Pready (default 8); msg_bytes must be a multiple of it", func(s *Settings, v any) (err error) {
		s.Partitions, err = intIn(v, 1, 1<<16)
		return
	}},
}

// checkTopologyDims reports a grid's dimensions that do not fit the kind: a stencil's
// count of them, and whether they suit the communicator sizes is Expand's.
func checkTopologyDims(m *Measurement) string {
	if !m.Op.Neighborhood || len(m.Settings.TopologyDims) == 0 {
		return ""
	}
	n := len(m.Settings.TopologyDims)
	switch m.Settings.Topology {
	case ops.TopoRing, ops.TopoRandom:
		return fmt.Sprintf("topology %q has no grid: topology_dims applies to cart, stencil_2d and stencil_3d", m.Settings.Topology)
	case ops.TopoStencil2D:
		if n != 2 {
			return fmt.Sprintf("stencil_2d has 2 dimensions, topology_dims has %d", n)
		}
	case ops.TopoStencil3D:
		if n != 3 {
			return fmt.Sprintf("stencil_3d has 3 dimensions, topology_dims has %d", n)
		}
	}
	return ""
}

// checkTopology reports topology_dims that do not fit the topology, partitioned sizes
// the partitions do not divide, and a persistent operation under cold caches.
func (d *decoder) checkTopology(m Measurement, origin map[string]string, path string) {
	if msg := checkTopologyDims(&m); msg != "" {
		d.errAt(origin["topology_dims"], "%s: %s", m.Op.Name, msg)
	}
	if m.Op.Persistent && m.Settings.Cache == CacheCold {
		d.errAt(origin["cache"], "%s makes its requests once per point, bound to one buffer: cache = \"cold\" would move the buffers every step; use \"warm\"", m.Op.Name)
	}
	if !m.Op.Partitioned {
		return
	}
	for _, n := range m.Sizes {
		if n%int64(m.Settings.Partitions) != 0 {
			d.errAt(path+".sizes", "%s sends msg_bytes in %d partitions (partitions): every size must be a multiple of %d, got %d",
				m.Op.Name, m.Settings.Partitions, m.Settings.Partitions, n)
			return
		}
	}
}
