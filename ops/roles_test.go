package ops

import "testing"

// Buffer sizes saturate instead of wrapping to a size that fits.
func TestBufferBytesSaturate(t *testing.T) {
	a2a, _ := Lookup("Alltoall")
	bw, _ := Lookup("Bandwidth_Isend_Irecv")
	for _, c := range []struct {
		in           Info
		size         int64
		slots, procs int
	}{{a2a, 1 << 50, 1, 1 << 14}, {a2a, 1 << 40, 1, 1 << 30}, {bw, 1 << 50, 1 << 16, 2}} {
		if got := c.in.BufferBytes(c.size, c.slots, c.procs); got < c.size {
			t.Errorf("%s: BufferBytes(%d, %d, %d) = %d", c.in.Name, c.size, c.slots, c.procs, got)
		}
	}
}
