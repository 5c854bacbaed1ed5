package inputs

import (
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
)

// data_layout and stride: known layouts only, on the operations that take one; a
// strided layout lays out whole elements (doubles, or the datatype's), and stride
// means something only with a strided layout.
func TestDataLayoutSetting(t *testing.T) {
	parse := func(op, sizes, extra string) (*Plan, error) {
		return Parse("l.toml", []byte("[[measurement]]\nname = \"m\"\nop = \""+op+"\"\nsizes = "+sizes+"\n"+extra))
	}
	p, err := parse("Put", "[64, 4096]", "data_layout = \"indexed\"\nstride = 4\n")
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Measurements[0].Settings; s.DataLayout != "indexed" || s.Stride != 4 {
		t.Errorf("layout %q stride %d", s.DataLayout, s.Stride)
	}
	if p, err := parse("Pingpong_Send_Recv", "[1, 3]", ""); err != nil || p.Measurements[0].Settings.DataLayout != "contiguous" {
		t.Errorf("the default: %v", err)
	}
	for _, c := range []struct{ op, sizes, extra, want string }{
		{"Put", "[64]", `data_layout = "diagonal"`, "data_layout"},
		{"Bcast", "[64]", `data_layout = "vector"`, "data_layout applies to"},
		{"Pingpong_Send_Recv", "[64]", "stride = 3", "stride applies to"},
		{"Pingpong_Send_Recv", "[64]", "data_layout = \"vector\"\nstride = 0", "stride"},
		{"Pingpong_Send_Recv", "[12]", `data_layout = "packed"`, "multiple of 8 bytes"},
		{"Pingpong_Send_Recv", "[0]", `data_layout = "struct"`, "multiple of 8 bytes"},
		{"Alltoall", "[4]", "data_layout = \"vector\"\ndatatype = \"double\"", "whole number of double elements"},
	} {
		if _, err := parse(c.op, c.sizes, c.extra+"\n"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s %q: %v, want %q", c.op, c.sizes, c.extra, err, c.want)
		}
	}
	if _, err := parse("Accumulate", "[12]", "data_layout = \"vector\"\ndatatype = \"int\"\n"); err != nil {
		t.Errorf("3 ints: %v", err)
	}
}

// Refinement's grain: every size an operation takes under its settings is a multiple
// of it (its datatype, the elements it moves, a strided layout's, its partitions).
func TestSizeGrain(t *testing.T) {
	for _, c := range []struct {
		op   string
		set  func(*Settings)
		want int64
	}{
		{"Pingpong_Send_Recv", func(*Settings) {}, 1},
		{"Pingpong_Send_Recv", func(s *Settings) { s.DataLayout = "vector" }, 8},
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
