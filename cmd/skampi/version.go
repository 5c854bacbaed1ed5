package main

import (
	"fmt"
	"runtime"

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
			fmt.Fprintf(cmd.OutOrStdout(), "skampi %s (%s, %s)\n", version, runtime.Version(), built)
			return nil
		},
	}
}
