//go:build mpi

package mpi

/*
#include <stdlib.h>
#include "skampi.h"
#include "runtime.h"
*/
import "C"

import (
	"unsafe"
)

// GatherStrings collects every rank's s at rank 0, by rank (nil on the others). Each
// string arrives whole, whatever its length: a CPU list cut short would be a
// different, or malformed, list.
func (w *World) GatherStrings(s string) ([]string, error) {
	mine := C.CString(s)
	defer C.free(unsafe.Pointer(mine))
	var lens []C.int
	var lensPtr *C.int
	if w.rank == 0 {
		lens = make([]C.int, w.size)
		lensPtr = &lens[0]
	}
	var buf *C.char
	if err := check(C.sk_gather_strv(w.comm, mine, C.int(len(s)), lensPtr, &buf), "MPI_Gatherv"); err != nil {
		return nil, err
	}
	if w.rank != 0 {
		return nil, nil
	}
	defer C.free(unsafe.Pointer(buf))
	out := make([]string, w.size)
	off := 0
	for i, n := range lens {
		out[i] = C.GoStringN((*C.char)(unsafe.Add(unsafe.Pointer(buf), off)), n)
		off += int(n)
	}
	return out, nil
}
