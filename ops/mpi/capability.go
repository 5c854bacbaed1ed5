//go:build mpi

package mpi

/*
int sk_have_persistent_collectives(void);
int sk_have_partitioned(void);
*/
import "C"

// Capabilities says what this binary can measure beyond MPI-3.1, as its library
// was found when it was compiled: persistent collectives (MPI-4, or Open MPI's
// MPIX_ extension), partitioned communication (MPI-4); what it lacks is refused
// point by point, with the reason (UnsupportedReason).
func Capabilities() []string {
	var out []string
	switch C.sk_have_persistent_collectives() {
	case 1:
		out = append(out, "persistent collectives (MPI-4 MPI_<Coll>_init)")
	case 2:
		out = append(out, "persistent collectives (the library's MPIX_<Coll>_init extension)")
	default:
		out = append(out, "no persistent collectives (MPI-4): the *_persistent and *_init operations are refused")
	}
	if C.sk_have_partitioned() != 0 {
		out = append(out, "partitioned communication (MPI-4 MPI_Psend_init)")
	} else {
		out = append(out, "no partitioned communication (MPI-4): Pingpong_Partitioned is refused")
	}
	return out
}
