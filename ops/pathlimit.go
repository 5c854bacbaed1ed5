package ops

// PathLimit is the longest file path, in bytes, that MPI_File_open of the library this
// binary is linked to takes, and why.
type PathLimit struct {
	Bytes int
	Why   string
}

// IOPathLimit is set by the MPI engine where its library takes less than the system
// does (ops/mpi: a quirk of the library, not of a family); the MPI-IO family
// (families/mpiio) checks its directory under test against it before any process starts.
var IOPathLimit = PathLimit{4095, "the system's PATH_MAX"}
