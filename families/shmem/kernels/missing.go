package kernels

// missingText is why a binary built against an MPI library (mpi.Build: "openmpi",
// "mpich", "none") cannot run OpenSHMEM operations: what it was built without, and
// what builds one that can. Its operations are denied point by point with it, as an
// MPI routine the library lacks is, never refused as a whole suite.
func missingText(build string) string {
	switch build {
	case "mpich":
		return "this skampi was built without OpenSHMEM (an MPICH build): build it against Open MPI with shmem.h, `make build`"
	case "openmpi":
		return "this skampi was built without OpenSHMEM (Open MPI's shmem.h was not found when it was built): build it where shmem.h is installed, `make build`"
	}
	return "this skampi was built without MPI and OpenSHMEM: build it with `make build`"
}
