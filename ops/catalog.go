// Package ops is the catalogue of measurable operations. Each operation is described
// once, here: its name, family, documentation, parameters, who takes part, how the
// per-rank times of a repetition reduce to one, its timing methods and the kernel
// that runs it. Suites, the engine, the runner and the kernels all read these fields;
// nothing else names an operation. It is pure Go; the kernels live in ops/mpi and
// ops/shmem (cgo).
package ops

import (
	"slices"
	"sort"
)

var catalog = withPanels(slices.Concat(pt2ptOps, randomOps, collOps, nonblockingPt2pt, nonblockingColl, onesidedOps, onesidedSync, shmemOps, shmemAtomics, shmemLocks, shmemMemory, shmemCollectives, shmemSendrecvs, shmemRings, shmemWaits, shmemCtx, []Info{sendrecvShift}, imbalanceOps, onesidedMore, onesidedIMB, haloOps, collV, neighborOps, persistentOps, ioOps, mtOps, selftestOps))

// LatencyProbe is the operation pair = "max-latency" times from rank 0 to every other
// rank to choose the slowest to reach: SKaMPI's probe is a ping-pong.
const LatencyProbe = "Pingpong_Send_Recv"

var byName = func() map[string]Info {
	m := make(map[string]Info, len(catalog))
	for _, in := range catalog {
		m[in.Name] = in
	}
	return m
}()

// Lookup finds an operation by its exact name.
func Lookup(name string) (Info, bool) {
	in, ok := byName[name]
	return in, ok
}

// All returns every operation in catalogue order.
func All() []Info { return append([]Info(nil), catalog...) }

// Names returns the sorted operation names.
func Names() []string {
	names := make([]string, 0, len(catalog))
	for _, in := range catalog {
		names = append(names, in.Name)
	}
	sort.Strings(names)
	return names
}
