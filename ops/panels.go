package ops

import "slices"

// panels put at most 8 operations of a family in one figure (plots: splitWide).
var panels = map[string][]string{
	"rooted":     {"Bcast", "Bcast_using_Send_Recv", "Reduce", "Gather", "Gatherv", "Gather_using_Send_Recv", "Scatter", "Scatterv"},
	"all-to-all": {"Alltoall", "Alltoallv", "Alltoall_using_Isend_Irecv", "Alltoallv_using_Isend_Irecv", "Alltoall_Ordered", "Alltoall_Ordered_Nodes", "Allgather", "Allgatherv"},
	"reductions": {"Allreduce", "Allreduce_using_Reduce_Bcast", "Reduce_scatter", "Reduce_scatter_block", "Reduce_Scatterv", "Scan", "Exscan", "Barrier"},
	"blocking":   {"Pingpong_Send_Recv", "Pingpong_Send_Recv_AT", "Pingpong_Ssend_Recv", "Pingpong_Bsend_Recv", "Pingpong_Sendrecv", "Pingpong_Sendrecv_replace", "Pingping_Send_Recv", "Sendrecv_Shift"},
	// rooted is full: the non-blocking gather baseline beside the gathers would make 9
	"gather-nonblocking": {"Gather_using_Isend_Irecv_Waitall"},
	"communicators":      {"Comm_dup", "Comm_split"},
	// all-to-all is full
	"alltoallw":    {"Alltoallw"},
	"local":        {"Reduce_local"},
	"imbalance":    {"delayed_Alltoall", "delayed_Gather", "Alltoallv_Skewed"},
	"halo":         {"Halo_Twosided", "Halo_Onesided_PSCW", "Halo_Onesided_Fence"},
	"non-blocking": {"Pingpong_Send_Recv", "Pingpong_Send_Iprobe_Recv", "Pingpong_Send_Irecv", "Pingpong_Isend_Recv", "Pingpong_Issend_Recv"},
}

func withPanels(in []Info) []Info {
	for i := range in {
		for _, panel := range []string{"rooted", "gather-nonblocking", "all-to-all", "reductions", "communicators", "alltoallw", "local", "imbalance", "halo", "blocking", "non-blocking"} {
			if slices.Contains(panels[panel], in[i].Name) {
				in[i].Panels = append(in[i].Panels, panel)
			}
		}
	}
	return in
}

// PanelOps are the operations of a panel, in the order figures list them.
func PanelOps(panel string) []string { return panels[panel] }
