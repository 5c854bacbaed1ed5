package main

import (
	"fmt"
	"runtime"

	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/ops/shmem"
	"github.com/spf13/cobra"
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print skampi's version and what it was built with",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			built := "built without MPI"
			if mpi.Available {
				built = "built with MPI"
			}
			if shmem.Available {
				built += " and OpenSHMEM"
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "skampi %s (%s, %s)\n", version, runtime.Version(), built)
			if mpi.Available {
				// What the binary is linked against, asked of the library itself.
				lib, std := mpi.Library()
				fmt.Fprintf(out, "MPI library: %s (MPI %s; built for %s)\n", lib, std, mpi.LibraryName(mpi.Build))
				if p, err := launch.FindLauncher(mpi.Build); err == nil {
					fmt.Fprintf(out, "self-launch: %s\n", p)
				} else {
					fmt.Fprintf(out, "self-launch: %v\n", err)
				}
			}
			return nil
		},
	}
}
