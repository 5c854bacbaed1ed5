//go:build mpi

package mpi

import "testing"

// The pattern finds a flipped byte at its offset, and tells apart senders, sizes,
// repetitions and blocks, so a message from the wrong rank, of last repetition or
// into the wrong block is caught.
func TestPattern(t *testing.T) {
	const n = 4096
	buf := make([]byte, n)
	patternFill(buf, 3, n, 7, 0)
	if at := patternFind(buf, 3, n, 7, 0); at != -1 {
		t.Fatalf("a fresh pattern differs at %d", at)
	}
	buf[1234] ^= 1
	if at := patternFind(buf, 3, n, 7, 0); at != 1234 {
		t.Errorf("flipped byte found at %d, want 1234", at)
	}
	buf[1234] ^= 1
	for _, c := range []struct {
		what             string
		rank             int
		bytes, rep, base int64
	}{
		{"another sender", 4, n, 7, 0},
		{"another size", 3, n + 1, 7, 0},
		{"another block", 3, n, 7, n},
	} {
		if at := patternFind(buf, c.rank, c.bytes, c.rep, c.base); at < 0 || at > 4 {
			t.Errorf("%s: first difference at %d, want within the first bytes", c.what, at)
		}
	}
	// The last repetition's data differs in every byte.
	prev := make([]byte, n)
	patternFill(prev, 3, n, 6, 0)
	for i := range buf {
		if buf[i] == prev[i] {
			t.Fatalf("byte %d is the same in repetitions 6 and 7", i)
		}
	}
}
