package ops

import "strings"

// skampiShmemTable: the OpenSHMEM part of the coverage table.
func skampiShmemTable() []SkampiFunc {
	t := []SkampiFunc{
		// Point-to-point.
		meas("Shmem_Put_Simple", "Shmem_Put", "quiet_subtracted", "window = 1", "put + shmem_quiet less an empty shmem_quiet, as SKaMPI's current source does (an older one timed the put call alone)"),
		meas("Shmem_P_Simple", "Shmem_P", "quiet_subtracted", "", "p + shmem_quiet less an empty shmem_quiet, as SKaMPI does; SKaMPI puts an int, skampi a long"),
		meas("Shmem_Get_Simple", "Shmem_Get", "", "", "blocking gets back to back into a private buffer"),
		meas("Shmem_G_Simple", "Shmem_G", "", "", ""),
		meas("Shmem_Put_Full_Single", "Shmem_Put", "", "window = 1", "one PE: shmem_putmem then shmem_quiet"),
		meas("Shmem_Put_Full", "Shmem_Put_Ring", "", "", "every PE puts to its next and quiets, nothing subtracted"),
		meas("Shmem_Put_Nonblocking_Full_Single", "Shmem_Put_Nbi", "", "window = 1", "one PE: shmem_putmem_nbi then shmem_quiet"),
		meas("Shmem_Get_Nonblocking_Full_Single", "Shmem_Get_Nbi", "", "window = 1", "one PE: shmem_getmem_nbi then shmem_quiet"),
		meas("Shmem_Put_Nonblocking_Full", "Shmem_Put_Nbi_Ring", "", "", "every PE: shmem_putmem_nbi to its next, then shmem_quiet"),
		meas("Shmem_Get_Nonblocking_Full", "Shmem_Get_Nbi_Ring", "", "", "every PE: shmem_getmem_nbi from its next, then shmem_quiet"),
		meas("Shmem_Pingpong_Put_Put", "Shmem_Put_Pingpong", "", "", "SKaMPI's two PEs put and quiet without waiting for each other's data; skampi's peer waits for a flag: a true round trip"),
		meas("Shmem_Fence", "Shmem_Fence", "", "", ""),
		meas("Shmem_Fence_Put", "Shmem_Put_Fence", "", "", "SKaMPI: every PE puts to its next and times the fence; skampi: one PE, the fence by subtraction"),
		meas("Shmem_Quiet", "Shmem_Quiet", "", "", ""),
		meas("quiet", "Shmem_Quiet", "", "", "SKaMPI's helper: a loop of shmem_quiet with nothing outstanding"),
		meas("Shmem_Quiet_Put", "Shmem_Quiet_Put", "", "", "SKaMPI keeps only the last quiet's time and divides it by the iterations (ttime = where += was meant); skampi the mean of them all"),
		// Memory.
		meas("Shmem_Malloc", "Shmem_Malloc", "", "", ""),
		meas("Shmem_Free", "Shmem_Free", "", "", "SKaMPI frees 4 bytes whatever the size: msg_bytes = 4"),
		meas("Shmem_Realloc", "Shmem_Realloc", "", "", "both double the block; SKaMPI's size is the new one, skampi's msg_bytes the old one"),
		meas("Shmem_Calloc", "Shmem_Calloc", "", "", ""),
		meas("Shmem_Align", "Shmem_Align", "", "", "aligned to 4 KiB: SKaMPI's 2 bytes is no multiple of sizeof(void *), which OpenSHMEM asks of an alignment"),
		// Locks and point-to-point synchronisation.
		meas("Shmem_Set_Lock", "Shmem_Set_Lock", "remote", "procs = 1", "SKaMPI: the PEs in turn, each on a free lock; skampi: one PE on a free lock another PE serves (more procs: contention)"),
		meas("Shmem_Clear_Lock", "Shmem_Clear_Lock", "remote", "procs = 1", "SKaMPI: the PEs in turn, each on a free lock; skampi: one PE on a free lock another PE serves (more procs: contention)"),
		meas("Shmem_Lock_Test_Busy", "Shmem_Test_Lock", "", "procs = 2", "one PE tests a lock another holds (the method paper's Fig. 9b)"),
		meas("Shmem_Lock_Test_Busy_All", "Shmem_Test_Lock", "", "", "every PE but the holder tests at once; SKaMPI's holder is the last PE, skampi's the first"),
		meas("Shmem_Lock_Test_Busy_Turns", "Shmem_Test_Lock_Turns", "", "", "SKaMPI's holder is the last PE and its turns are separated by barriers (the holder tests its own lock in its turn too); skampi's holder is the first PE, which tells each tester in turn"),
		meas("Shmem_Lock_Test_Busy_Round", "Shmem_Test_Lock_Round", "", "", "SKaMPI separates the tests by barriers (the holder sleeping a barrier's time in each); skampi's holder tells each tester in turn; the first PE serves the lock whoever holds it"),
		meas("Shmem_Wait_Until", "Shmem_Wait_Until", "", "", "SKaMPI waits on an int, skampi on a long"),
		meas("Shmem_Test", "Shmem_Test", "", "", "SKaMPI tests an int, skampi a long"),
		// Atomics: compare-and-swap that succeeds or fails.
		meas("Shmem_Atomic_Compare_Swap_Yes", "Shmem_Atomic_Compare_Swap_Yes", "", "", "SKaMPI swaps an int, skampi a long (Open MPI 4.1.4's int compare-and-swap smashes its stack)"),
		meas("Shmem_Atomic_Compare_Swap_No", "Shmem_Atomic_Compare_Swap_No", "", "", "SKaMPI swaps an int, skampi a long (Open MPI 4.1.4's int compare-and-swap smashes its stack)"),
		meas("Shmem_Ctx_Atomic_Compare_Swap_Yes", "Shmem_Ctx_Atomic_Compare_Swap_Yes", "", "", "SKaMPI swaps an int, skampi a long, both on a serialized context"),
		meas("Shmem_Ctx_Atomic_Compare_Swap_No", "Shmem_Ctx_Atomic_Compare_Swap_No", "", "", "SKaMPI swaps an int, skampi a long, both on a serialized context"),
		// Collectives.
		meas("Shmem_Barrier", "Shmem_Barrier_All", "", "sync = \"window\"", noteWindow),
		meas("Shmem_Barrier_Consecutive", "Shmem_Barrier_All", "", "", "back-to-back barriers"),
		meas("Shmem_Barrier_Half", "Shmem_Barrier", "", "procs = N/2, sync = \"window\"", "an active set of half the PEs"),
		meas("Shmem_Barrier_Half_Consecutive", "Shmem_Barrier", "", "procs = N/2", "an active set of half the PEs, back-to-back"),
		meas("Shmem_Sync", "Shmem_Sync_All", "", "sync = \"window\"", noteWindow),
		meas("Shmem_Sync_Consecutive", "Shmem_Sync_All", "", "", "back-to-back syncs"),
		meas("Shmem_Sync_Half", "Shmem_Sync", "", "procs = N/2, sync = \"window\"", "an active set of half the PEs"),
		meas("Shmem_Sync_Half_Consecutive", "Shmem_Sync", "", "procs = N/2", "an active set of half the PEs, back-to-back"),
		meas("Shmem_Bcast_All_Rounds", "Shmem_Broadcast", "rounds", "", ""),
		meas("Shmem_Bcast_All_Synchro", "Shmem_Broadcast", "sync", "", ""),
		meas("Shmem_Bcast_All_SK", "Shmem_Broadcast", "ack", "", "de Supinski and Karonis's method (the method paper's Alg. 4)"),
		meas("Shmem_Bcast_All_SK_time", "Shmem_Broadcast", "ack", "", "Shmem_Bcast_All_SK with a given number of repetitions and flag waits (shmem_wait_until) for its acknowledgements"),
	}
	for _, kind := range []string{"Alltoall", "Alltoalls", "Collect", "Fcollect"} {
		for _, m := range [][2]string{{"Barrier", "barrier"}, {"Synchro", "sync"}, {"Consecutive", "consecutive"}} {
			note := ""
			if m[1] == "consecutive" {
				note = "SKaMPI's iterations calls back to back with one pSync, skampi's 8 each with its own"
			}
			t = append(t, meas("Shmem_"+kind+"_"+m[0], "Shmem_"+kind, m[1], "", note))
		}
	}
	for _, m := range [][2]string{{"Barrier", "barrier"}, {"Synchro", "sync"}, {"Consecutive", "consecutive"}} {
		t = append(t, meas("Shmem_Reduce_And_"+m[0], "Shmem_Short_And_To_All", m[1], "", ""))
	}
	// The atomics SKaMPI measures on an int, with and without a context.
	for _, a := range []struct{ kind, op string }{
		{"Fetch", "Fetch"}, {"Set", "Set"}, {"Inc", "Inc"}, {"Fetch_Inc", "Fetch_Inc"}, {"Add", "Add"},
		{"Fetch_Add", "Fetch_Add"}, {"Swap", "Swap"}, {"And", "And"}, {"Or", "Or"}, {"Xor", "Xor"},
		{"Fetch_And", "Fetch_And"}, {"Fetch_Or", "Fetch_Or"}, {"Fetch_Xor", "Fetch_Xor"},
	} {
		op := "Shmem_Atomic_" + a.op + "_Int"
		method := ""
		if in, ok := Lookup(op); ok {
			if _, ok := in.Method("quiet_subtracted"); ok {
				method = "quiet_subtracted" // SKaMPI times the call alone, no quiet after it
			}
		}
		t = append(t, meas("Shmem_Atomic_"+a.kind, op, method, "procs = 2", noteAtomic))
		ctxOp := "Shmem_Ctx_Atomic_" + a.op + "_Long"
		ctxMethod, ctxNote := "", noteAtomic+"; SKaMPI's int, skampi's long, on a serialized context"
		if in, ok := Lookup(ctxOp); ok {
			if _, ok := in.Method("quiet_subtracted"); ok {
				// SKaMPI completes with shmem_quiet on the default context, not the atomic's
				ctxMethod, ctxNote = "quiet_subtracted", ctxNote+"; SKaMPI completes it with shmem_quiet on the default context, skampi with shmem_ctx_quiet on its own, less an empty one"
			}
		}
		t = append(t, meas("Shmem_Ctx_Atomic_"+a.kind, ctxOp, ctxMethod, "procs = 2", ctxNote))
	}
	// Rings: every PE to its next at once. SKaMPI subtracts an empty quiet from the
	// rounds that quiet (puts), not from the gets.
	t = append(t,
		meas("Shmem_Put_Round", "Shmem_Put_Ring", "quiet_subtracted", "", ""),
		meas("Shmem_P_Round", "Shmem_P_Ring", "quiet_subtracted", "", "SKaMPI puts an int, skampi a long"),
		meas("Shmem_Iput_Round", "Shmem_Iput64_Ring", "quiet_subtracted", "", "SKaMPI's elements are bytes at a given stride, skampi's 64-bit at stride 2"),
		meas("Shmem_Get_Round", "Shmem_Get_Ring", "", "", ""),
		meas("Shmem_G_Round", "Shmem_G_Ring", "", "", "SKaMPI gets an int, skampi a long"),
		meas("Shmem_Iget_Round", "Shmem_Iget64_Ring", "", "", "SKaMPI's elements are bytes at a given stride, skampi's 64-bit at stride 2"),
	)
	// The non-blocking breakdown: every PE at once (a ring) or one PE (the pair), each
	// point's post_s, wait_s and overlapped_s.
	for _, k := range []string{"Put", "Get"} {
		for _, f := range []struct{ name, setting, note string }{
			{"Post", "", "the breakdown's post_s: each _nbi call timed alone, its shmem_quiet untimed; SKaMPI's latest source times iterations calls back to back before one quiet (window = N)"},
			{"Quiet", `timer = "iteration"`, "the breakdown's wait_s: shmem_quiet timed alone after each _nbi call"},
			{"Overlap", "", "the breakdown's overlapped_s: post, a computation of twice full_s, shmem_quiet, less the computation alone"},
		} {
			t = append(t, meas("Shmem_"+k+"_Nonblocking_"+f.name, "Shmem_"+k+"_Nbi_Ring", "", f.setting, "every PE to its next at once; "+f.note))
			t = append(t, meas("Shmem_"+k+"_Nonblocking_"+f.name+"_Single", "Shmem_"+k+"_Nbi", "", joinSettings("window = 1", f.setting),
				"one PE, the others passive; "+f.note))
		}
	}
	for _, o := range []string{"Serialized", "Private", "Nostore"} {
		m := strings.ToLower(o)
		t = append(t, meas("Shmem_Ctx_Create_"+o, "Shmem_Ctx_Create", m, "", "every PE at once, the destroy after it untimed"),
			meas("Shmem_Ctx_Destroy_"+o, "Shmem_Ctx_Destroy", m, "", "every PE at once, the create before it untimed"))
	}
	return t
}

// joinSettings joins the suite settings an entry needs, leaving out empty ones.
func joinSettings(ss ...string) string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, ", ")
}
