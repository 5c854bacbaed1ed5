// Package collrules holds which algorithm a library should use for a collective, per
// communicator size and message size range, and writes it in the library's own
// selection format: Open MPI's coll/tuned dynamic rules file and MPICH's JSON
// collective selection tree. It imports nothing of skampi's, so the verdict (tune)
// can build rules and a file can be checked on a machine without MPI.
package collrules

import "fmt"

// SizeKey says what message size a library compares a collective's rules with, as a
// function of skampi's msg_bytes (the bytes each process contributes or receives).
type SizeKey int

const (
	// KeyNone: the library picks the collective's algorithm by communicator size
	// alone, so one algorithm holds for every size.
	KeyNone SizeKey = iota
	// KeyBytes: msg_bytes itself.
	KeyBytes
	// KeyBytesTimesNP: msg_bytes times the communicator size.
	KeyBytesTimesNP
)

// key is the size a library compares with, for a message of b bytes per process.
func (k SizeKey) key(b int64, np int) int64 {
	switch k {
	case KeyBytes:
		return b
	case KeyBytesTimesNP:
		return b * int64(np)
	}
	return 0
}

// Collective is one collective as both libraries know it. The facts come from the
// libraries' sources: Open MPI's COLLTYPE enumeration (ompi/mca/coll/base/
// coll_base_functions.h, the same in 4.1 and 5.0) and the sizes its dynamic
// decisions pass to the rules (coll_tuned_decision_dynamic.c); MPICH's csel
// collective names and the sizes get_avg_msgsize / get_total_msgsize compute
// (src/mpi/coll/src/csel.c, the same in 4.0 and 4.2).
type Collective struct {
	Name string // lower case, as both libraries' parameters spell it: "allreduce"
	// OMPIID is the collective's id in an Open MPI rules file; OMPIKey what its
	// message size rules compare with (-1 ID: Open MPI's tuned component has no
	// dynamic rules for it).
	OMPIID  int
	OMPIKey SizeKey
	// MPICHFunc is the stem of MPICH's algorithm functions ("Allreduce" in
	// MPIR_Allreduce_intra_ring); MPICHKey and MPICHKeyName say which of the JSON
	// tree's size operators it takes ("avg_msg_size" or "total_msg_size").
	MPICHFunc    string
	MPICHKey     SizeKey
	MPICHKeyName string
}

// Collectives are the blocking collectives both libraries select algorithms for.
// Open MPI's scan and exscan rules compare the datatype's size times the
// communicator size, whatever the count, so they are chosen by communicator size
// alone here; MPICH's gather and scatter count elements, not bytes, so likewise.
var Collectives = []Collective{
	{"allgather", 0, KeyBytesTimesNP, "Allgather", KeyBytesTimesNP, "total_msg_size"},
	{"allgatherv", 1, KeyBytes, "Allgatherv", KeyBytesTimesNP, "total_msg_size"},
	{"allreduce", 2, KeyBytes, "Allreduce", KeyBytes, "avg_msg_size"},
	{"alltoall", 3, KeyBytesTimesNP, "Alltoall", KeyBytes, "avg_msg_size"},
	{"alltoallv", 4, KeyNone, "Alltoallv", KeyBytesTimesNP, "total_msg_size"},
	{"alltoallw", -1, KeyNone, "Alltoallw", KeyNone, ""},
	{"barrier", 6, KeyNone, "Barrier", KeyNone, ""},
	{"bcast", 7, KeyBytes, "Bcast", KeyBytes, "avg_msg_size"},
	{"exscan", 8, KeyNone, "Exscan", KeyNone, ""},
	{"gather", 9, KeyBytesTimesNP, "Gather", KeyNone, ""},
	{"gatherv", -1, KeyNone, "Gatherv", KeyNone, ""},
	{"reduce", 11, KeyBytes, "Reduce", KeyBytes, "avg_msg_size"},
	{"reduce_scatter", 12, KeyBytesTimesNP, "Reduce_scatter", KeyBytesTimesNP, "total_msg_size"},
	{"reduce_scatter_block", 13, KeyBytesTimesNP, "Reduce_scatter_block", KeyBytesTimesNP, "total_msg_size"},
	{"scan", 14, KeyNone, "Scan", KeyNone, ""},
	{"scatter", 15, KeyBytesTimesNP, "Scatter", KeyNone, ""},
	{"scatterv", -1, KeyNone, "Scatterv", KeyNone, ""},
}

// ompiCollCount is Open MPI's COLLCOUNT: a rules file may name no id at or above it.
const ompiCollCount = 22

// Lookup is the collective of that name.
func Lookup(name string) (Collective, error) {
	for _, c := range Collectives {
		if c.Name == name {
			return c, nil
		}
	}
	return Collective{}, fmt.Errorf("no collective %q (known: %s)", name, names())
}

func names() string {
	s := ""
	for i, c := range Collectives {
		if i > 0 {
			s += ", "
		}
		s += c.Name
	}
	return s
}

// byOMPIID is the collective an Open MPI rules file means by id.
func byOMPIID(id int) (Collective, bool) {
	for _, c := range Collectives {
		if c.OMPIID == id && id >= 0 {
			return c, true
		}
	}
	return Collective{}, false
}
