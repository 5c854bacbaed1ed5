//go:build !mpi

package kernels

import "unsafe"

// ThreadStats is empty without MPI: no thread ran.
func ThreadStats(unsafe.Pointer) (meanRatio, spanRatio float64, cpus []int) { return 0, 0, nil }
