//go:build mpi

package mpi

/*
#include "skampi.h"
*/
import "C"

import (
	"fmt"
	"math"

	"github.com/skampi/skampi/ops"
)

var opCodes = map[string]C.int{
	"Pingpong_Send_Recv":        C.SK_OP_PINGPONG_SEND_RECV,
	"Pingpong_Send_Iprobe_Recv": C.SK_OP_PINGPONG_SEND_IPROBE_RECV,
	"Pingpong_Send_Irecv":       C.SK_OP_PINGPONG_SEND_IRECV,
	"Pingpong_Send_Recv_AT":     C.SK_OP_PINGPONG_SEND_RECV_AT,
	"Pingpong_Ssend_Recv":       C.SK_OP_PINGPONG_SSEND_RECV,
	"Pingpong_Isend_Recv":       C.SK_OP_PINGPONG_ISEND_RECV,
	"Pingpong_Issend_Recv":      C.SK_OP_PINGPONG_ISSEND_RECV,
	"Pingpong_Sendrecv":         C.SK_OP_PINGPONG_SENDRECV,
	"Pingpong_Sendrecv_replace": C.SK_OP_PINGPONG_SENDRECV_REPLACE,
	"Pingping_Send_Recv":        C.SK_OP_PINGPING_SEND_RECV,
	"Bandwidth_Isend_Irecv":     C.SK_OP_BANDWIDTH_ISEND_IRECV,
	"Bibandwidth_Isend_Irecv":   C.SK_OP_BIBANDWIDTH_ISEND_IRECV,
	"Multipair_Bandwidth":       C.SK_OP_MULTIPAIR_BANDWIDTH,
	"Selftest_Hang":             C.SK_OP_SELFTEST_HANG,
	"Selftest_Crash":            C.SK_OP_SELFTEST_CRASH,
}

// Implements reports whether this package can run the named operation.
func Implements(name string) bool { _, ok := opCodes[name]; return ok }

// Op is one operation at one size on this rank; Run is one cgo crossing.
type Op struct{ args C.sk_args }

// Spec says what to build.
type Spec struct {
	Info      ops.Info
	Bytes     int64
	Window    int
	Iteration bool   // iteration timer instead of the global-loop timer
	Pair      [2]int // for two-rank operations
}

// NewOp prepares an operation, growing the message buffers if needed.
func (w *World) NewOp(s Spec) (*Op, error) {
	code, ok := opCodes[s.Info.Name]
	if !ok {
		return nil, fmt.Errorf("%s is not an MPI operation of this build", s.Info.Name)
	}
	if s.Bytes > math.MaxInt32 {
		return nil, fmt.Errorf("%s: %d bytes is more than an MPI count of bytes can hold", s.Info.Name, s.Bytes)
	}
	for _, r := range s.Pair {
		if s.Info.Pattern == ops.PatternPair && (r < 0 || r >= w.size) {
			return nil, fmt.Errorf("%s: pair rank %d does not exist (%d processes)", s.Info.Name, r, w.size)
		}
	}
	if err := w.reserve(max(1, s.Info.BufferBytes(s.Bytes, s.Window))); err != nil {
		return nil, err
	}
	role, peer := s.Info.RoleOf(w.rank, w.size, s.Pair)
	a := C.sk_args{
		op: code, role: C.int(role), peer: C.int(peer), bytes: C.int(s.Bytes),
		timer: C.SK_TIMER_GLOBAL_LOOP, sbuf: w.sbuf, rbuf: w.rbuf, comm: w.comm,
	}
	if s.Info.Windowed {
		a.window = C.int(s.Window)
	}
	if s.Iteration {
		a.timer = C.SK_TIMER_ITERATION
	}
	return &Op{args: a}, nil
}

// Run executes iters operations in C and returns this rank's time per operation.
func (o *Op) Run(iters int) (float64, error) {
	o.args.iters = C.longlong(iters)
	var t C.double
	if err := errorf(C.sk_run(&o.args, &t), "skampi op"); err != nil {
		return math.NaN(), err
	}
	return float64(t), nil
}
