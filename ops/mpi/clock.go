//go:build mpi

package mpi

/*
#include "skampi.h"
#include "runtime.h"
*/
import "C"

import (
	"unsafe"

	"github.com/skampi/skampi/clocksync"
)

// Clock is the world as a clocksync.Exchanger: one batch of ping-pongs is one C call.
type Clock struct{ w *World }

// NewClock returns the exchanger of the world's communicator.
func (w *World) NewClock() *Clock { return &Clock{w} }

func (c *Clock) Rank() int { return c.w.rank }
func (c *Clock) Size() int { return c.w.size }

// PingPong is the client side of a batch.
func (c *Clock) PingPong(server, n int, delay float64) ([]clocksync.Sample, clocksync.Model, error) {
	ts := make([]float64, 3*n)
	var model [clocksync.ModelWords]float64
	send, remote, recv := ts[:n], ts[n:2*n], ts[2*n:]
	rc := C.sk_clock_client(c.w.comm, C.int(server), C.int(n), C.double(delay),
		(*C.double)(unsafe.Pointer(&send[0])), (*C.double)(unsafe.Pointer(&remote[0])),
		(*C.double)(unsafe.Pointer(&recv[0])), (*C.double)(unsafe.Pointer(&model[0])), C.int(clocksync.ModelWords))
	if err := check(rc, "clock ping-pong"); err != nil {
		return nil, clocksync.Model{}, err
	}
	out := make([]clocksync.Sample, n)
	for i := range out {
		out[i] = clocksync.Sample{Send: send[i], Remote: remote[i], Recv: recv[i]}
	}
	return out, clocksync.ModelFromWords(model), nil
}

// Serve is the server side of a batch.
func (c *Clock) Serve(client, n int, m clocksync.Model) error {
	words := m.Words()
	return check(C.sk_clock_server(c.w.comm, C.int(client), C.int(n),
		(*C.double)(unsafe.Pointer(&words[0])), C.int(len(words))), "clock serve")
}
