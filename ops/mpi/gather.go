//go:build mpi

package mpi

/*
#include <stdlib.h>
#include "skampi.h"
*/
import "C"

import (
	"bytes"
	"unsafe"
)

// GatherStrings collects every rank's s at rank 0, by rank (nil on the others). A
// string is cut at 1023 bytes: meant for short facts such as a CPU list.
func (w *World) GatherStrings(s string) ([]string, error) {
	const stride = 1024
	mine := (*C.char)(C.calloc(stride, 1))
	defer C.free(unsafe.Pointer(mine))
	copy(unsafe.Slice((*byte)(unsafe.Pointer(mine)), stride-1), s)
	var buf *C.char
	if w.rank == 0 {
		buf = (*C.char)(C.malloc(C.size_t(stride * w.size)))
		defer C.free(unsafe.Pointer(buf))
	}
	if err := check(C.sk_gather_str(w.comm, mine, buf, stride), "MPI_Gather"); err != nil {
		return nil, err
	}
	if w.rank != 0 {
		return nil, nil
	}
	raw := unsafe.Slice((*byte)(unsafe.Pointer(buf)), stride*w.size)
	out := make([]string, w.size)
	for i := range out {
		s := raw[i*stride : (i+1)*stride]
		if j := bytes.IndexByte(s, 0); j >= 0 {
			s = s[:j]
		}
		out[i] = string(s)
	}
	return out, nil
}
