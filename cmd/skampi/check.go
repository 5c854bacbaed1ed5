package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/cli"
	"github.com/skampi/skampi/internal/numflag"
	"github.com/skampi/skampi/job"
)

// maxPlanNP bounds the job check plans for: more processes than any machine has (what
// a job of them needs is checked against the memory of the one that checks).
const maxPlanNP = 1 << 24

func newCheckCmd() *cobra.Command {
	o := inputs.CheckOptions{}
	cmd := &cobra.Command{
		Use:   "check -i SUITE [--np N]",
		Short: "Validate a suite and print its expanded plan, without running anything",
		Long: "check validates a suite and prints the points it measures on a job of --np processes:\n" +
			"every size, timing method and communicator size, as the run will measure them.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Valid(); err != nil {
				return cli.UsageError(fmt.Errorf("check: %v", err))
			}
			o.Stdout, o.Stderr, o.NPGiven = cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Flags().Changed("np")
			o.Refused = job.Refused
			err := inputs.Check(o)
			if errors.Is(err, inputs.ErrCheckReported) {
				return &exitError{Code: 1, Quiet: true}
			}
			return err
		},
	}
	cmd.Flags().StringVarP(&o.Suite, "input", "i", "", "suite file or built-in suite name")
	numflag.Int(cmd.Flags(), &o.NP, "np", 2, 1, maxPlanNP, "processes of the job to plan for")
	return cmd
}
