package ops

import "strings"

// Phase is one of the measurements of a non-blocking operation (the method paper's
// "Non-blocking operations", Alg. 8-9). A point of a non-blocking operation runs
// several and records them together (record.Breakdown).
type Phase int

// The values are the kernels' (ops/mpi: SK_NB_*).
const (
	// PhaseFull: the post immediately followed by the completion (MPI_Wait/Waitall).
	PhaseFull Phase = iota
	// PhasePost: the posting call alone; the completion runs outside the timing.
	PhasePost
	// PhaseWait: the completion alone after a post, each timed on its own (iteration
	// timer); the global-loop timer gets it as full minus post instead.
	PhaseWait
	// PhaseOverlap: post, a busy computation, completion.
	PhaseOverlap
	// PhaseCompute: the busy computation alone, the same spin count as PhaseOverlap.
	PhaseCompute
)

var phaseNames = [...]string{"full", "post", "wait", "overlap", "compute"}

func (p Phase) String() string {
	if p >= 0 && int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase?"
}

// ComputeFactor: the overlap measurement computes for about this many times the full
// operation's time, so a library that progresses in the background can finish under it.
const ComputeFactor = 2.0

// Non-blocking point-to-point operations: the initiator of the pair runs the
// non-blocking operation and its time counts; the responder is its blocking partner.
var nonblockingPt2pt = register(400, []Info{
	nbPair("Isend", "sender side: MPI_Isend, completed by MPI_Wait; the responder receives with MPI_Recv", false),
	nbPair("Issend", "sender side: synchronous MPI_Issend (done when the receive has matched), MPI_Wait; the responder receives with MPI_Recv", false),
	nbPair("Irecv", "receiver side: MPI_Irecv posted first, then a 0-byte ready message lets the responder MPI_Send; MPI_Wait", false),
	nbPair("Isend_Irecv_Pingpong", "a round trip posted at once: MPI_Irecv of the reply and MPI_Isend, one MPI_Waitall; the responder MPI_Recv then MPI_Send", true),
})

// Non-blocking collectives, with the buffers and counts of their blocking forms.
var nonblockingColl = register(500, []Info{
	nbColl(noData(coll("Ibarrier", "MPI_Ibarrier", false, false, false))),
	nbColl(coll("Ibcast", "MPI_Ibcast from the root", false, false, true)),
	nbColl(coll("Ireduce", "MPI_Ireduce to the root", false, true, true)),
	nbColl(coll("Iallreduce", "MPI_Iallreduce", false, true, false)),
	nbColl(throughput(coll("Ialltoall", "MPI_Ialltoall, msg_bytes to each process", true, false, false))),
	displaced(nbColl(throughput(coll("Ialltoallv", "MPI_Ialltoallv with equal counts, msg_bytes to each process", true, false, false))), DisplElements),
	nbColl(coll("Iallgather", "MPI_Iallgather of msg_bytes per process", true, false, false)),
	nbColl(coll("Igather", "MPI_Igather of msg_bytes per process to the root", true, false, true)),
	nbColl(coll("Iscatter", "MPI_Iscatter of msg_bytes per process from the root", true, false, true)),
	nbColl(coll("Ireduce_scatter_block", "MPI_Ireduce_scatter_block, msg_bytes to each process", true, true, false)),
	displaced(nbColl(throughput(coll("Ialltoallw", "MPI_Ialltoallw with equal counts, the datatype for every process and displacements in bytes", true, false, false))), DisplBytes),
	displaced(nbColl(coll("Iallgatherv", "MPI_Iallgatherv with equal counts", true, false, false)), DisplElements),
	displaced(nbColl(coll("Igatherv", "MPI_Igatherv with equal counts to the root", true, false, true)), DisplElements),
	displaced(nbColl(coll("Iscatterv", "MPI_Iscatterv with equal counts from the root", true, false, true)), DisplElements),
	nbColl(coll("Ireduce_scatter", "MPI_Ireduce_scatter with equal counts, msg_bytes to each process", true, true, false)),
	nbColl(coll("Iscan", "MPI_Iscan (inclusive prefix reduction)", false, true, false)),
})

const nbDoc = "; broken down into full, post, wait and overlap ratio"

func nbPair(name, desc string, roundTrip bool) Info {
	dirs := 1
	if roundTrip {
		dirs = 2
	}
	return Info{Name: name, Family: "nonblocking", Description: desc + nbDoc, Kernel: strings.ToLower(name),
		Pattern: PatternPair, Reduce: ReduceFirst, RoundTrip: roundTrip, Directions: dirs, Nonblocking: true}
}

func nbColl(in Info) Info {
	in.Family, in.Nonblocking = "nonblocking", true
	in.Description += nbDoc
	return in
}

// NonblockingCollective makes, for a family outside this package, a collective of its
// own a non-blocking one as the catalogue's are: in the non-blocking family (beside
// the others in their overlap figures), its time broken down likewise.
func NonblockingCollective(in Info) Info { return nbColl(in) }
