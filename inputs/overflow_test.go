package inputs

import (
	"strings"
	"testing"
)

// Integer settings whose product sizes something: each family is refused with its
// position before anything runs, never wrapped into a small number that passes the
// checks nor into a panic (topology_dims: families/neighbor).
func TestProductsDoNotOverflow(t *testing.T) {
	const mt = "[[measurement]]\nname = \"m\"\n"
	cases := []struct {
		name, text string
		np         int
		memUnknown bool
		want       string
	}{
		{"sizes x procs", "[settings]\nbuffer = \"1024TiB\"\n" + mt + "op = \"Alltoall\"\nsizes = [\"512TiB\"]\n", 16384, true,
			"s.toml:6:10: measurement 1: sizes.0: 512TiB is more than one MPI call moves: its count of bytes is a C int, at most 2147483647 bytes"},
		{"a message past an MPI count", "[settings]\nbuffer = \"4GiB\"\n" + mt + "op = \"Pingpong_Send_Recv\"\nsizes = [\"3GiB\"]\n", 2, false,
			"s.toml:6:10: measurement 1: sizes.0: 3GiB is more than one MPI call moves"},
		{"to = max past an MPI count", "[settings]\nbuffer = \"4GiB\"\n" + mt + "op = \"Pingpong_Send_Recv\"\nsizes = { from = \"1GiB\", to = \"max\", step = \"*2\" }\n", 2, false,
			"s.toml:6:31: measurement 1: sizes.to: 4GiB is more than one MPI call moves"},
		{"stride x size", "[settings]\nbuffer = \"64MiB\"\n" + mt + "op = \"Pingpong_Send_Recv\"\nsizes = [\"4MiB\"]\ndata_layout = \"vector\"\nstride = 1024\n", 2, false,
			"s.toml:6:9: measurement 1: sizes: Pingpong_Send_Recv with data_layout \"vector\" and stride 1024: 4MiB spans 4GiB, more than one MPI call moves"},
		{"blocks x processes at int displacements", "[settings]\nbuffer = \"4GiB\"\n" + mt + "op = \"Allgatherv\"\nsizes = [\"64MiB\"]\n", 64, false,
			`s.toml:3:3: measurement "m": Allgatherv places its blocks at C int displacements (in elements): 64MiB blocks on 64 processes span 4294967296 elements, more than an int holds`},
		{"blocks x processes at int byte displacements", "[settings]\nbuffer = \"2GiB\"\n" + mt + "op = \"Alltoallw\"\nsizes = [\"32MiB\"]\ndatatype = \"int\"\n", 64, false,
			`s.toml:3:3: measurement "m": Alltoallw places its blocks at C int displacements (in bytes): 32MiB blocks on 64 processes span 2147483648 bytes`},
		{"processes of the job", mt + "op = \"Barrier\"\nsizes = [0]\n", 1 << 21, false,
			"a job of 2097152 processes is more than skampi plans (at most 1048576"},
	}
	// Counted in elements, the same blocks of ints fit.
	withMemory(t, 64<<30, true)
	p := mustParse(t, "[settings]\nbuffer = \"2GiB\"\n"+mt+"op = \"Alltoallv\"\nsizes = [\"32MiB\"]\ndatatype = \"int\"\n")
	if err := p.check(64); err != nil {
		t.Errorf("Alltoallv of 32MiB ints on 64 processes: %v", err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			withMemory(t, 64<<30, !c.memUnknown)
			withHeap(t, nil)
			p, err := Parse("s.toml", []byte(c.text))
			if err == nil {
				_, err = p.Expand(Job{NProcs: c.np})
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v\nwant %s", err, c.want)
			}
		})
	}
}
