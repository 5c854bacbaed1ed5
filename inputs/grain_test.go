package inputs

import (
	"testing"

	"github.com/skampi/skampi/ops"
)

// Refinement's grain: every size an operation takes under its settings is a multiple
// of it (its datatype, the elements it moves, a strided layout's, its partitions).
func TestSizeGrain(t *testing.T) {
	for _, c := range []struct {
		op   string
		set  func(*Settings)
		want int64
	}{
		{"Pingpong_Send_Recv", func(*Settings) {}, 1},
		{"Pingpong_Send_Recv", func(s *Settings) { s.setFamily("data_layout", "vector") }, 8}, // families/layout
		{"Shmem_Put64", func(*Settings) {}, 8},
		{"Shmem_Put32", func(*Settings) {}, 4},
		{"Allreduce", func(s *Settings) { s.Datatype = "double" }, 8},
		{"Pingpong_Partitioned", func(s *Settings) { s.setFamily("partitions", 3) }, 3}, // families/partitioned
	} {
		op, ok := ops.Lookup(c.op)
		if !ok {
			t.Fatalf("no %s", c.op)
		}
		s := Defaults()
		c.set(&s)
		if got := s.SizeGrain(op); got != c.want {
			t.Errorf("%s: grain %d, want %d", c.op, got, c.want)
		}
	}
}
