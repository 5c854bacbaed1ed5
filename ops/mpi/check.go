//go:build mpi

package mpi

/*
#include "skampi.h"
*/
import "C"

import "unsafe"

// The check_data pattern (check.c), for tests.

func patternFill(buf []byte, rank int, bytes, rep, base int64) {
	if len(buf) > 0 {
		C.sk_pattern_fill((*C.char)(unsafe.Pointer(&buf[0])), C.longlong(len(buf)), C.int(rank), C.longlong(bytes), C.longlong(rep), C.longlong(base))
	}
}

// patternFind is the offset of the first byte of buf that differs from the pattern, or -1.
func patternFind(buf []byte, rank int, bytes, rep, base int64) int64 {
	if len(buf) == 0 {
		return -1
	}
	return int64(C.sk_pattern_find((*C.char)(unsafe.Pointer(&buf[0])), C.longlong(len(buf)), C.int(rank), C.longlong(bytes), C.longlong(rep), C.longlong(base)))
}
