//go:build mpi

package mpi

/*
#include "skampi.h"
*/
import "C"

import (
	"fmt"
	"math"

	"github.com/skampi/skampi/measure"
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

	"Barrier":                      C.SK_OP_BARRIER,
	"Bcast":                        C.SK_OP_BCAST,
	"Reduce":                       C.SK_OP_REDUCE,
	"Allreduce":                    C.SK_OP_ALLREDUCE,
	"Reduce_scatter":               C.SK_OP_REDUCE_SCATTER,
	"Reduce_scatter_block":         C.SK_OP_REDUCE_SCATTER_BLOCK,
	"Alltoall":                     C.SK_OP_ALLTOALL,
	"Alltoallv":                    C.SK_OP_ALLTOALLV,
	"Gather":                       C.SK_OP_GATHER,
	"Gatherv":                      C.SK_OP_GATHERV,
	"Allgather":                    C.SK_OP_ALLGATHER,
	"Allgatherv":                   C.SK_OP_ALLGATHERV,
	"Scatter":                      C.SK_OP_SCATTER,
	"Scatterv":                     C.SK_OP_SCATTERV,
	"Scan":                         C.SK_OP_SCAN,
	"Exscan":                       C.SK_OP_EXSCAN,
	"Bcast_using_Send_Recv":        C.SK_OP_BCAST_USING_SEND_RECV,
	"Alltoall_using_Isend_Irecv":   C.SK_OP_ALLTOALL_USING_ISEND_IRECV,
	"Gather_using_Send_Recv":       C.SK_OP_GATHER_USING_SEND_RECV,
	"Allreduce_using_Reduce_Bcast": C.SK_OP_ALLREDUCE_USING_REDUCE_BCAST,
	"Alltoall_Ordered":             C.SK_OP_ALLTOALL_ORDERED,
	"Alltoall_Ordered_Nodes":       C.SK_OP_ALLTOALL_ORDERED_NODES,
}

var dtypeCodes = map[string]C.int{"byte": C.SK_DT_BYTE, "char": C.SK_DT_CHAR, "int": C.SK_DT_INT,
	"long": C.SK_DT_LONG, "float": C.SK_DT_FLOAT, "double": C.SK_DT_DOUBLE}

var redopCodes = map[string]C.int{"sum": C.SK_RED_SUM, "prod": C.SK_RED_PROD, "min": C.SK_RED_MIN,
	"max": C.SK_RED_MAX, "band": C.SK_RED_BAND, "bor": C.SK_RED_BOR, "bxor": C.SK_RED_BXOR}

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
	Datatype  string // collectives: "byte", "int", ... (see inputs.Datatypes)
	ReduceOp  string // reductions: "sum", "max", ...
	Root      int    // rooted collectives
	// BarrierAbove: the ordered all-to-all puts a barrier between phases for messages
	// larger than this; negative: never.
	BarrierAbove int64
	Method       string // broadcast timing method: "", "barrier", "rounds", "ack"
	// Ranks: a collective runs on the communicator of these world ranks (nil: all).
	Ranks []int
}

// methodCodes: the kernel of each broadcast timing method ("sync" is a plain broadcast
// in a synchronised window).
var methodCodes = map[string]C.int{"barrier": C.SK_OP_BCAST_BARRIER, "sync": C.SK_OP_BCAST,
	"rounds": C.SK_OP_BCAST_ROUNDS, "ack": C.SK_OP_BCAST_ACK}

// NewOp prepares an operation, growing the message buffers if needed.
func (w *World) NewOp(s Spec) (*Op, error) {
	code, ok := opCodes[s.Info.Name]
	if !ok {
		return nil, fmt.Errorf("%s is not an MPI operation of this build", s.Info.Name)
	}
	if s.Method != "" {
		if code, ok = methodCodes[s.Method]; !ok || s.Info.Name != "Bcast" {
			return nil, fmt.Errorf("%s: no timing method %q", s.Info.Name, s.Method)
		}
	}
	if s.Bytes > math.MaxInt32 {
		return nil, fmt.Errorf("%s: %d bytes is more than an MPI count of bytes can hold", s.Info.Name, s.Bytes)
	}
	for _, r := range s.Pair {
		if s.Info.Pattern == ops.PatternPair && (r < 0 || r >= w.size) {
			return nil, fmt.Errorf("%s: pair rank %d does not exist (%d processes)", s.Info.Name, r, w.size)
		}
	}
	comm, nprocs, nodeOf, nnodes := w.comm, w.size, w.nodeOf, w.nnodes
	role, peer := s.Info.RoleOf(w.rank, w.size, s.Pair)
	if s.Ranks != nil {
		sc, err := w.sub(s.Ranks)
		if err != nil {
			return nil, err
		}
		comm, nprocs, nodeOf, nnodes = sc.comm, len(s.Ranks), sc.nodeOf, sc.nnodes
		if !sc.member {
			role = ops.Idle
		}
	}
	if err := w.reserve(max(1, s.Info.BufferBytes(s.Bytes, s.Window, nprocs))); err != nil {
		return nil, err
	}
	a := C.sk_args{
		op: code, role: C.int(role), peer: C.int(peer), bytes: C.int(s.Bytes),
		timer: C.SK_TIMER_GLOBAL_LOOP, sbuf: w.sbuf, rbuf: w.rbuf, comm: comm,
	}
	if s.Info.Windowed {
		a.window = C.int(s.Window)
	}
	if s.Iteration {
		a.timer = C.SK_TIMER_ITERATION
	}
	if s.Info.Pattern == ops.PatternAll {
		dt, ok1 := dtypeCodes[s.Datatype]
		op, ok2 := redopCodes[s.ReduceOp]
		if !ok1 || !ok2 || s.Root < 0 || s.Root >= nprocs {
			return nil, fmt.Errorf("%s: datatype %q, reduce_op %q or root %d is not usable with %d processes",
				s.Info.Name, s.Datatype, s.ReduceOp, s.Root, nprocs)
		}
		a.dtype, a.redop, a.root = dt, op, C.int(s.Root)
		a.barrier_above = C.longlong(s.BarrierAbove)
		if s.Info.Name == "Alltoall_Ordered_Nodes" {
			if nodeOf == nil {
				return nil, fmt.Errorf("%s: the ranks' hosts are not known (World.SetHosts)", s.Info.Name)
			}
			a.node_of, a.nnodes = nodeOf, C.int(nnodes)
		}
	}
	return &Op{args: a}, nil
}

// Run executes iters operations in C and returns this rank's time per operation; in a
// slot, C waits for its start and reports NaN for a late start or an overrun.
func (o *Op) Run(iters int, slot measure.Slot) (float64, error) {
	o.args.iters = C.longlong(iters)
	o.args.start, o.args.stop = C.double(slot.Start), C.double(slot.Stop)
	var t C.double
	if err := errorf(C.sk_run(&o.args, &t), "skampi op"); err != nil {
		return math.NaN(), err
	}
	return float64(t), nil
}
