//go:build mpi

package mpi

/*
#include <stdlib.h>
#include "skampi.h"
*/
import "C"

import (
	"slices"
	"unsafe"

	"github.com/skampi/skampi/ops"
)

// commRank is the world rank's rank in a communicator of ranks (nil: the world).
func commRank(rank int, ranks []int) int {
	if ranks == nil {
		return rank
	}
	return slices.Index(ranks, rank)
}

// setTopology gives a neighbourhood collective its topology, resolved for nprocs, and
// this rank's edges, in C memory the returned function frees (after sk_prepare, which
// copies them).
func setTopology(a *C.sk_args, t ops.Topology, rank, nprocs int) (func(), error) {
	rt, err := t.Resolve(nprocs)
	if err != nil {
		return nil, err
	}
	nb := rt.NeighborsOf(rank, nprocs)
	var ptrs []unsafe.Pointer
	ints := func(v []int) *C.int {
		p := (*C.int)(C.malloc(C.size_t(len(v)+1) * C.size_t(unsafe.Sizeof(C.int(0)))))
		ptrs = append(ptrs, unsafe.Pointer(p))
		s := unsafe.Slice(p, len(v)+1)
		for i, x := range v {
			s[i] = C.int(x)
		}
		return p
	}
	a.sources, a.dests = ints(nb.Sources), ints(nb.Dests)
	a.indegree, a.outdegree = C.int(len(nb.Sources)), C.int(len(nb.Dests))
	a.dims, a.ndims = ints(rt.Dims), C.int(len(rt.Dims))
	if rt.Graph() {
		a.topo_graph = 1
	}
	from := (*C.ulonglong)(C.malloc(C.size_t(len(nb.FromBlocks)+1) * 8))
	ptrs = append(ptrs, unsafe.Pointer(from))
	fs := unsafe.Slice(from, len(nb.FromBlocks)+1)
	for i, m := range nb.FromBlocks {
		fs[i] = C.ulonglong(m)
	}
	a.from_blocks = from
	return func() {
		for _, p := range ptrs {
			C.free(p)
		}
	}, nil
}
