//go:build !mpi

package kernels

import "unsafe"

// Hints are none without MPI: no file was opened.
func Hints(unsafe.Pointer) map[string]string { return nil }
