//go:build mpi && !mpich

package mpi

import (
	"os"
	"strings"

	"github.com/skampi/skampi/ops"
)

// Build names the MPI library this binary is built against.
const Build = "openmpi"

func init() {
	if lockedfileInUse(os.Getenv("OMPI_MCA_io"), os.Getenv("OMPI_MCA_sharedfp")) {
		ops.IOPathLimit = ops.PathLimit{Bytes: lockedfilePathMax,
			Why: "Open MPI's sharedfp/lockedfile component (opened with every file under io/ompio) takes: a longer path aborts MPI_File_open with \"buffer overflow detected\" (scripts/repro/io_path_limit.c)"}
	}
}

// lockedfilePathMax: the longest path MPI_File_open of Open MPI 4.1.4 and 5.0.7 takes
// under io/ompio, where sharedfp/lockedfile writes the name with a suffix into a buffer
// too small for it; 245 bytes abort every process, at any process count.
const lockedfilePathMax = 244

// lockedfileInUse is false only where the environment keeps the component out: another
// io component than ompio chosen, or lockedfile excluded from sharedfp.
func lockedfileInUse(io, sharedfp string) bool {
	excluded := func(list, name string) bool {
		list = strings.TrimSpace(list)
		if list == "" {
			return false
		}
		names := strings.Split(strings.TrimPrefix(list, "^"), ",")
		has := false
		for _, n := range names {
			has = has || strings.TrimSpace(n) == name
		}
		if strings.HasPrefix(list, "^") {
			return has
		}
		return !has
	}
	return !excluded(io, "ompio") && !excluded(sharedfp, "lockedfile")
}
