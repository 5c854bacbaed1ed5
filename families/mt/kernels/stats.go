//go:build mpi

package kernels

/*
#include "skampi.h"
double sk_mt_mean_ratio(const sk_ctx *c);
double sk_mt_span_ratio(const sk_ctx *c);
int sk_mt_threads(const sk_ctx *c);
int sk_mt_cpu(const sk_ctx *c, int i);
*/
import "C"

import "unsafe"

// ThreadStats is what a multi-threaded operation's threads did on this rank over the
// runs so far, read from its prepared C context (mpi.Op.Ctx): the mean thread's time
// and the span from the earliest thread's start to the latest one's end, each over the
// slowest thread's time (0: none ran), and the CPU each thread last ran on (nil on a
// rank without threads).
func ThreadStats(ctx unsafe.Pointer) (meanRatio, spanRatio float64, cpus []int) {
	c := (*C.sk_ctx)(ctx)
	if c == nil {
		return 0, 0, nil
	}
	n := int(C.sk_mt_threads(c))
	for i := 0; i < n; i++ {
		cpus = append(cpus, int(C.sk_mt_cpu(c, C.int(i))))
	}
	return float64(C.sk_mt_mean_ratio(c)), float64(C.sk_mt_span_ratio(c)), cpus
}
