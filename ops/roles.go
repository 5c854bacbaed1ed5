package ops

import "math"

// BufferBytes is the buffer space (per direction) one rank needs for a message of
// size bytes; nprocs matters for per-process operations (pass 1 when unknown). slots
// is the number of receive slots of a windowed operation: 1 when the window's
// receives share one buffer, the window when each message has its own.
func (in Info) BufferBytes(size int64, slots, nprocs int) int64 {
	switch {
	case in.Windowed:
		return MulSat(size, int64(slots))
	case in.PerProcess:
		return MulSat(size, int64(nprocs))
	case in.Neighborhood: // a block per process, as a bound: the kernel takes the topology's degree
		return MulSat(size, int64(nprocs))
	}
	return size
}

// MulSat multiplies counts that are not negative (sizes, slots, processes),
// saturating far below overflow: a product past any memory stays past it, and sums
// of a few such products stay positive. A wrapped product would pass every check.
func MulSat(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/8/a {
		return math.MaxInt64 / 8
	}
	return a * b
}

// Messages is how many messages of msg_bytes one timed step moves across all
// participating pairs: a window (or one) per direction per pair.
func (in Info) Messages(window, pairs int) float64 {
	n := float64(in.Directions) * float64(pairs)
	if in.Windowed {
		n *= float64(window)
	}
	return n
}

// BytesMoved is the payload moved by one timed step (one round trip, one window) across
// all participating pairs; pairs is the number of pairs taking part.
func (in Info) BytesMoved(size int64, window, pairs int) float64 {
	n := float64(size) * float64(in.Directions) * float64(pairs)
	if in.Windowed {
		n *= float64(window)
	}
	return n
}

// Role of a rank in an operation.
type Role int

const (
	Idle Role = iota - 1
	Initiator
	Responder
)

// Participants lists the ranks whose times count, initiator first. pair is the
// selected pair for two-rank operations.
func (in Info) Participants(nprocs int, pair [2]int) []int {
	if in.Pattern == PatternPairs || in.Pattern == PatternAll {
		n := nprocs
		if in.Pattern == PatternPairs {
			n = nprocs / 2 * 2
		}
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	return []int{pair[0], pair[1]}
}

// RoleOf says what rank does in the operation and who its partner is.
func (in Info) RoleOf(rank, nprocs int, pair [2]int) (Role, int) {
	if in.Pattern == PatternAll {
		return Initiator, -1 // every rank takes part; the root is a parameter
	}
	if in.Pattern == PatternPairs {
		half := nprocs / 2
		switch {
		case rank < half:
			return Initiator, rank + half
		case rank < 2*half:
			return Responder, rank - half
		}
		return Idle, -1
	}
	switch rank {
	case pair[0]:
		return Initiator, pair[1]
	case pair[1]:
		return Responder, pair[0]
	}
	return Idle, -1
}

// Pairs is the number of pairs taking part.
func (in Info) Pairs(nprocs int) int {
	if in.Pattern == PatternPairs {
		return nprocs / 2
	}
	return 1
}
