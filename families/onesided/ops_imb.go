package onesided

import "github.com/skampi/skampi/ops"

// One-sided operations of IMB-RMA's patterns beside rma.c's one origin and one target:
// one origin to every other process (One_put_all, One_get_all; with local completion,
// Put_all_local, Get_all_local), every process with both ring neighbours
// (Exchange_put, Exchange_get) and both of a pair at once (Bidir_put, Bidir_get;
// osu_put_bibw under pscw_epoch). Kernels: kernels/rma_imb.c.
var _ = ops.Register(2000, []ops.Info{
	oneToAll("Put_one_to_all", "put", "rank 0 MPI_Put's msg_bytes to every other process under MPI_Win_lock_all (held through the point), then completes them all; the others are passive targets (IMB's One_put_all, Put_all_local)"),
	oneToAll("Get_one_to_all", "get", "rank 0 MPI_Get's msg_bytes from every other process under MPI_Win_lock_all (held through the point), then completes them all; the others are passive targets (IMB's One_get_all, Get_all_local)"),
	exchangeRing("Put_Exchange_ring", "every process MPI_Put's msg_bytes to both neighbours of a ring (the next into its block 0, the previous into its block 1) under MPI_Win_lock_all (held through the point), then MPI_Win_flush to each (IMB's Exchange_put): the slowest process's time; MB/s as Exchange's, 4 x msg_bytes / time"),
	exchangeRing("Get_Exchange_ring", "every process MPI_Get's msg_bytes from both neighbours of a ring under MPI_Win_lock_all (held through the point), then MPI_Win_flush to each (IMB's Exchange_get): the slowest process's time; MB/s as Exchange's, 4 x msg_bytes / time"),
	bidirectional(rma("Put_bidirectional", "both of the pair MPI_Put a window of msg_bytes to each other at once, each in its own epoch under the method (IMB's Bidir_put under flush, IMB-EXT's Bidir_Put under fence_epoch, osu_put_bibw under pscw_epoch); the slower's time, bandwidth both ways")),
	bidirectional(rma("Get_bidirectional", "both of the pair MPI_Get a window of msg_bytes from each other at once, each in its own epoch under the method (IMB's Bidir_get under flush, IMB-EXT's Bidir_Get under fence_epoch); the slower's time, bandwidth both ways")),
})

// oneToAll: rank 0 is the one origin; its methods are the completions, flush_all
// (IMB's One_*_all) and flush_local_all (IMB's *_all_local). Throughput is IMB's MB/s,
// (nprocs - 1) x msg_bytes / time.
func oneToAll(name, kernel, desc string) ops.Info {
	in := rmaColl(name, desc, false)
	in.PerProcess, in.Throughput = true, true
	in.MinProcs, in.MinProcsWhy = 2, "one process has no other to reach"
	in.Kernel = kernel + "_one_to_all"
	in.Methods = []ops.Method{
		{Name: "flush_all", Kernel: in.Kernel, Description: "MPI_Win_flush_all: complete at every target (IMB's One_" + kernel + "_all)"},
		{Name: "flush_local_all", Kernel: in.Kernel + "_local", Description: "MPI_Win_flush_local_all: complete at the origin only (IMB's " + upper(kernel) + "_all_local)"},
	}
	return in
}

func upper(s string) string { return string(s[0]-'a'+'A') + s[1:] }

// exchangeRing: a block per neighbour in every window; beside Exchange, its
// two-sided form.
func exchangeRing(name, desc string) ops.Info {
	in := rmaColl(name, desc, false)
	in.PerProcess, in.Bandwidth, in.Directions, in.Beside = true, true, 4, "Exchange"
	in.MinProcs, in.MinProcsWhy = 2, "a ring of one has no neighbour"
	return in
}

// bidirectional: both of the pair are origins, so no mode leaves a target passive;
// the ping-pong modes (fence, pscw) are left out, both sides going at once already.
func bidirectional(in ops.Info) ops.Info {
	in.Reduce, in.Directions = ops.ReduceMax, 2
	for _, m := range rmaModes {
		if m.Name == "fence" || m.Name == "pscw" {
			continue
		}
		m.Kernel, m.Mode, m.Passive = in.Kernel, m.Name, false
		in.Methods = append(in.Methods, m.Method)
	}
	in.RetiredMethods = retiredModes
	return in
}
