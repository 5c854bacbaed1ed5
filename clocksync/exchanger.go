package clocksync

import (
	"fmt"
	"math"
)

// Sample is one round trip measured by the client of a batch (see Exchanger), in
// seconds of the local clocks:
//
//	Send   client clock just before the ping is sent
//	Remote server clock after the ping has arrived and before the pong is sent
//	Recv   client clock just after the pong has arrived
//
// Because Remote was read between Send and Recv, the server's clock minus the
// client's clock lies in [Remote-Recv, Remote-Send] (see Bounds).
type Sample struct {
	Send, Remote, Recv float64
}

// RTT is the round-trip time on the client's clock.
func (s Sample) RTT() float64 { return s.Recv - s.Send }

// Bounds are the causal bounds on the server's clock minus the client's clock.
func (s Sample) Bounds() (lo, hi float64) { return s.Remote - s.Recv, s.Remote - s.Send }

// Offset is the midpoint estimate of the server's clock minus the client's clock at the
// client's time Mid: exact when the two one-way delays are equal.
func (s Sample) Offset() float64 { return s.Remote - s.Mid() }

// Mid is the client's time halfway through the round trip.
func (s Sample) Mid() float64 { return s.Send + (s.Recv-s.Send)/2 }

// Exchanger is the one primitive clock synchronisation needs: a batch of ping-pongs
// between two ranks, of which one is the client (it measures) and the other the server
// (it answers with its clock). Both ranks call it, with the same n: the client calls
// PingPong(server, n, delay), the server calls Serve(client, n, m). An algorithm's Sync
// is collective: every rank calls it, and the calls of each pair of ranks match in
// order. One batch is one call into C for an MPI implementation.
//
// All timestamps come from the local clock the measurements use (MPI_Wtime or the
// benchmark's own timer), in seconds, preferably counted from a process-local origin
// (seconds since start) so that float64 keeps sub-nanosecond resolution.
//
// Client, PingPong(server, n, delay):
//
//  1. busy-wait (or sleep) delay seconds on the local clock; the exact idle time does
//     not matter, it only spreads an algorithm's batches out in time;
//  2. n times: Send = clock(); send a ping to server; receive the pong, which carries
//     the server's timestamp Remote; Recv = clock(); keep Sample{Send, Remote, Recv};
//  3. receive the trailer: the server's Model as ModelWords float64 values;
//  4. return the n samples in order, and the trailer as a Model (ModelFromWords).
//
// Server, Serve(client, n, m):
//
//  1. n times: receive a ping from client; Remote = clock(); send Remote back;
//  2. send m.Words() to client (after the last pong, so it cannot disturb the timing).
//
// Pings and pongs should be the smallest messages (the pong one double), on a tag or
// communicator of their own; the timestamps are read outside the Go/C crossing. Each
// rank talks to one peer at a time, so blocking send/receive is enough. An error is
// fatal for the collective: the other ranks may be left waiting, as with any failed MPI
// collective.
type Exchanger interface {
	// Rank is this rank's number in [0, Size()).
	Rank() int
	// Size is the number of ranks taking part.
	Size() int
	// PingPong is the client side of one batch with server.
	PingPong(server, n int, delay float64) ([]Sample, Model, error)
	// Serve is the server side of one batch with client, ending with m as trailer.
	Serve(client, n int, m Model) error
}

// Algorithm fits every rank's Model against the root's clock. Sync is collective: all
// ranks of the Exchanger call it, and each gets its own model (the root the identity).
type Algorithm interface {
	// Name is the algorithm's name, as given to New.
	Name() string
	// Rounds is the number of sequential exchange phases Sync needs on size ranks: a
	// phase is a set of batches between disjoint pairs of ranks that run at once.
	Rounds(size int) int
	// Sync runs the algorithm on this rank and returns this rank's model.
	Sync(x Exchanger) (Model, error)
}

// New returns the algorithm of the given name with default parameters: "skampi"
// (SKaMPI, offset only, O(p) rounds) or "hca" (hierarchical, linear drift, O(log p)).
func New(name string) (Algorithm, error) {
	switch name {
	case "skampi":
		return SKaMPI{}, nil
	case "hca":
		return HCA{}, nil
	}
	return nil, fmt.Errorf("clocksync: unknown algorithm %q (want skampi or hca)", name)
}

// checkWorld validates the Exchanger and the root.
func checkWorld(x Exchanger, root int) (rank, size int, err error) {
	rank, size = x.Rank(), x.Size()
	if size < 1 || rank < 0 || rank >= size {
		return 0, 0, fmt.Errorf("clocksync: rank %d of %d is invalid", rank, size)
	}
	if root < 0 || root >= size {
		return 0, 0, fmt.Errorf("clocksync: root %d out of range [0, %d)", root, size)
	}
	return rank, size, nil
}

// pingPong runs one client batch and checks what came back.
func pingPong(x Exchanger, server, n int, delay float64) ([]Sample, Model, error) {
	s, m, err := x.PingPong(server, n, delay)
	if err != nil {
		return nil, Model{}, fmt.Errorf("clocksync: ping-pong with rank %d: %w", server, err)
	}
	if len(s) != n {
		return nil, Model{}, fmt.Errorf("clocksync: ping-pong with rank %d: %d samples, want %d", server, len(s), n)
	}
	for i, v := range s {
		if !(v.Recv >= v.Send) || math.IsNaN(v.Remote) || math.IsInf(v.Remote, 0) {
			return nil, Model{}, fmt.Errorf("clocksync: ping-pong with rank %d: bad sample %d %+v", server, i, v)
		}
	}
	return s, m, nil
}

// serve runs one server batch.
func serve(x Exchanger, client, n int, m Model) error {
	if err := x.Serve(client, n, m); err != nil {
		return fmt.Errorf("clocksync: serving rank %d: %w", client, err)
	}
	return nil
}

// fastest is the index of the sample with the smallest round trip.
func fastest(s []Sample) int {
	best := 0
	for i := range s {
		if s[i].RTT() < s[best].RTT() {
			best = i
		}
	}
	return best
}
