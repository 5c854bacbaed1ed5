package ops

import "slices"

// panel is one figure panel: operations of a family drawn together, in the order the
// figure lists them.
type panel struct {
	name string
	ops  []string
}

// panels put at most 8 operations of a family in one figure (plots: splitWide). The
// order here is the order of an operation's Panels. Every name must be a catalogue
// operation (TestPanelsNameCatalogueOps).
var panels = []panel{
	{"rooted", []string{"Bcast", "Bcast_using_Send_Recv", "Reduce", "Gather", "Gatherv", "Gather_using_Send_Recv", "Scatter", "Scatterv"}},
	// rooted is full: the non-blocking gather baseline beside the gathers would make 9
	{"gather-nonblocking", []string{"Gather_using_Isend_Irecv_Waitall"}},
	{"all-to-all", []string{"Alltoall", "Alltoallv", "Alltoall_using_Isend_Irecv", "Alltoallv_using_Isend_Irecv", "Alltoall_Ordered", "Alltoall_Ordered_Nodes", "Allgather", "Allgatherv"}},
	{"reductions", []string{"Allreduce", "Allreduce_using_Reduce_Bcast", "Reduce_scatter", "Reduce_scatter_block", "Reduce_Scatterv", "Scan", "Exscan", "Barrier"}},
	{"communicators", []string{"Comm_dup", "Comm_split"}},
	// all-to-all is full
	{"alltoallw", []string{"Alltoallw"}},
	{"local", []string{"Reduce_local"}},
	{"imbalance", []string{"delayed_Alltoall", "delayed_Gather", "Alltoallv_Skewed"}},
	{"halo", []string{"Halo_Twosided", "Halo_Onesided_PSCW", "Halo_Onesided_Fence"}},
	{"blocking", []string{"Pingpong_Send_Recv", "Pingpong_Send_Recv_AT", "Pingpong_Ssend_Recv", "Pingpong_Bsend_Recv", "Pingpong_Sendrecv", "Pingpong_Sendrecv_replace", "Pingping_Send_Recv", "Sendrecv_Shift"}},
	{"non-blocking", []string{"Pingpong_Send_Recv", "Pingpong_Send_Iprobe_Recv", "Pingpong_Send_Irecv", "Pingpong_Isend_Recv", "Pingpong_Issend_Recv"}},
}

func withPanels(in []Info) []Info {
	for i := range in {
		for _, p := range panels {
			if slices.Contains(p.ops, in[i].Name) {
				in[i].Panels = append(in[i].Panels, p.name)
			}
		}
	}
	return in
}

// PanelOps are the operations of a panel, in the order figures list them.
func PanelOps(name string) []string {
	for _, p := range panels {
		if p.name == name {
			return p.ops
		}
	}
	return nil
}
