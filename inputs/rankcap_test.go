package inputs

import (
	"slices"
	"strings"
	"testing"
)

// The cap: 1 GiB a rank up to 16 processes, then 16 GiB for the job, never below 4 MiB.
func TestRankMemoryCap(t *testing.T) {
	for _, c := range []struct {
		np   int
		want int64
	}{{1, 1 << 30}, {2, 1 << 30}, {16, 1 << 30}, {64, 256 << 20}, {1024, 16 << 20}, {4096, 4 << 20}, {1 << 20, 4 << 20}} {
		if got := RankMemoryCap(c.np); got != c.want {
			t.Errorf("RankMemoryCap(%d) = %d, want %d", c.np, got, c.want)
		}
	}
}

// A suite that sets no buffer has a per-process size that outgrows the cap left out,
// with a note naming it, the process count, the need and the cap; one that sets buffer
// is held to it, with the error at its position.
func TestCapLeavesOutWithANote(t *testing.T) {
	withMemory(t, 0, false)
	auto := mustParse(t, "[[measurement]]\nname = \"tp\"\nop = \"Transpose_Put\"\nsizes = [\"1KiB\", \"1MiB\"]\n")
	ex, err := auto.Expand(Job{NProcs: 64})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Points) != 1 || ex.Points[0].Size != 1024 {
		t.Errorf("points at 64: %+v", ex.Points)
	}
	// 64 blocks of 1 MiB: the send and receive buffers, the window and the gets' results.
	want := `measurement "tp": 1MiB dropped at 64 processes: needs 256MiB + 192B per rank, cap 256MiB (a suite that sets buffer measures them)`
	if !slices.Contains(ex.Notes, want) {
		t.Errorf("notes %q, want %q", ex.Notes, want)
	}
	if ex, err := auto.Expand(Job{NProcs: 16}); err != nil || len(ex.Points) != 2 || len(ex.Notes) != 0 {
		t.Errorf("at 16, under the cap: %v %d points, notes %q", err, len(ex.Points), ex.Notes)
	}
	// Every size beyond the cap: no points, and the note says so.
	if ex, err := auto.Expand(Job{NProcs: 1 << 16}); err != nil || len(ex.Points) != 0 || len(ex.Notes) != 1 || !strings.Contains(ex.Notes[0], "every size (1KiB, 1MiB) dropped at 65536 processes") {
		t.Errorf("at 65536: %v %d points, notes %q", err, len(ex.Points), ex.Notes)
	}
	set := mustParse(t, "[settings]\nbuffer = \"4MiB\"\n[[measurement]]\nname = \"tp\"\nop = \"Transpose_Put\"\nsizes = [\"1KiB\", \"1MiB\"]\n")
	if _, err := set.Expand(Job{NProcs: 8}); err == nil || !strings.HasPrefix(err.Error(), `t.toml:3:3: measurement "tp": Transpose_Put needs 8388608 bytes of buffer for 1048576-byte blocks with 8 processes, buffer is 4194304: raise buffer`) {
		t.Errorf("buffer set: %v", err)
	}
}
