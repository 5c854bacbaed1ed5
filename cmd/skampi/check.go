package main

import (
	"errors"
	"fmt"
	"os"

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
	c := &job.Command{Verb: "check"}
	cmd := &cobra.Command{
		Use:   "check (-i SUITE | OP... | osu_NAME) [--np N] [flags]",
		Short: "Validate a suite and print its expanded plan, without running anything",
		Long: "check validates a suite and prints the points it measures on a job of --np processes:\n" +
			"every size, timing method and communicator size, as the run will measure them, and a\n" +
			"bound on the time they take. It takes run's suite-making flags too, so what it plans is\n" +
			"what `skampi run` with the same words measures: operations named (skampi check\n" +
			"Pingpong_Send_Recv --sizes 8,1KiB), an OSU benchmark's name, or -i SUITE with --sizes,\n" +
			"--method and the settings' flags laid over it.",
		Example: "  skampi check -i pt2pt --np 16\n" +
			"  skampi check -i pt2pt --sizes 8,1KiB --max-time-per-point 1s --np 4\n" +
			"  skampi check Bcast Allreduce -m 8:64KiB --np 64",
		RunE: func(cmd *cobra.Command, args []string) error {
			c.Ops, c.NP, o.Suite = args, o.NP, c.Suite
			c.Stdout, c.Stderr, c.Given = cmd.OutOrStdout(), cmd.ErrOrStderr(), cli.Given(cmd.Flags())
			c.Args, c.Env = os.Args[1:], os.Environ()
			name, text, err := job.SuiteText(*c)
			if err != nil {
				return err
			}
			o.Suite, o.Text = name, text
			if err := o.Valid(); err != nil {
				return cli.UsageError(fmt.Errorf("check: %v", err))
			}
			o.Stdout, o.Stderr, o.NPGiven = cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Flags().Changed("np")
			o.Refused = job.Refused
			err = inputs.Check(o)
			if errors.Is(err, inputs.ErrCheckReported) {
				return &exitError{Code: 1, Quiet: true}
			}
			return err
		},
	}
	cmd.Flags().StringVarP(&c.Suite, "input", "i", "", "suite file or built-in suite name (with operations named, an integer is OSU's -i N)")
	numflag.Int(cmd.Flags(), &o.NP, "np", 2, 1, maxPlanNP, "processes of the job to plan for")
	addOneLineFlags(cmd.Flags(), &c.Line)
	_ = cmd.Flags().MarkHidden("print-suite") // check prints the plan; run --print-suite the TOML
	return cmd
}
