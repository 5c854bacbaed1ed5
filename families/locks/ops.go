package locks

import (
	"strings"

	"github.com/skampi/skampi/ops"
)

// MPI locks and shared counters (kernels/locks.c): a lock or counter at rank 0 of the
// communicator that the others take or increment, on the engine's window. The section
// is at 650, between the one-sided operations' windows (600) and their transposes
// (660, families/onesided), where the catalogue had them.
var _ = ops.Register(650, []ops.Info{
	lockKinds(contended("Lock_Contention", "every process but rank 0 of the communicator locks and unlocks rank 0's window at once (method exclusive or shared): time per acquisition + release",
		"rank 0 is the target, only the others contend")),
	func() ops.Info {
		in := contended("Lock_Held", "rank 0 holds its window's exclusive lock for lock_hold (busy), the others ask for it once told: the time they wait, and a check that none got it while held",
			"rank 0 holds the lock, the others wait for it")
		in.LockHold = true
		return in
	}(),
	contended("Counter_Fetch_and_op", "a shared counter at rank 0 incremented by every process with MPI_Fetch_and_op under lock_all + flush; checked after every run",
		"the counter is shared: one process has nobody to share it with"),
	contended("Counter_Lock_Get_Put", "a shared counter at rank 0 incremented by every process with lock, get, flush, put, unlock; checked after every run",
		"the counter is shared: one process has nobody to share it with"),
})

// contended: a lock or counter at rank 0 that the others take or increment, which one
// process alone has nobody to share with; one-sided (the window is the engine's, made
// for the point as rma_window says), every process of the communicator taking part.
func contended(name, desc, why string) ops.Info {
	return ops.Info{Name: name, Family: "locks", Description: desc, Kernel: strings.ToLower(name), Pattern: ops.PatternAll,
		Reduce: ops.ReduceMax, Directions: 1, OneSided: true, NoData: true, MinProcs: 2, MinProcsWhy: why}
}

// lockKinds: the methods exclusive (the kernel's default) and shared, the operation's
// kernel under the lock type of that name.
func lockKinds(in ops.Info) ops.Info {
	in.Methods = []ops.Method{
		{Name: "exclusive", Kernel: in.Kernel, Mode: "exclusive", Description: "MPI_LOCK_EXCLUSIVE"},
		{Name: "shared", Kernel: in.Kernel, Mode: "shared", Description: "MPI_LOCK_SHARED"},
	}
	return in
}
