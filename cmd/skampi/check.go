package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/report"
)

// checkOptions are the flags of `skampi check`, with its output injected.
type checkOptions struct {
	suite    string
	np       int
	npGiven  bool // --np was given: a failure to fit is the user's job, not the default's
	out, err io.Writer
}

func newCheckCmd() *cobra.Command {
	o := &checkOptions{}
	cmd := &cobra.Command{
		Use:   "check -i SUITE [--np N]",
		Short: "Validate a suite and print its expanded plan, without running anything",
		Long: "check validates a suite and prints the points it measures on a job of --np processes:\n" +
			"every size, timing method and communicator size, as the run will measure them.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.suite == "" {
				return &exitError{Code: 2, Err: fmt.Errorf("check: -i SUITE is required")}
			}
			o.out, o.err, o.npGiven = cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.Flags().Changed("np")
			return check(o)
		},
	}
	cmd.Flags().StringVarP(&o.suite, "input", "i", "", "suite file or built-in suite name")
	cmd.Flags().IntVar(&o.np, "np", 2, "processes of the job to plan for")
	return cmd
}

func check(o *checkOptions) error {
	plan, err := inputs.Load(o.suite)
	if err != nil {
		return err
	}
	ex, err := plan.Expand(inputs.Job{NProcs: o.np})
	if err != nil {
		if !o.npGiven {
			// The suite is valid; it needs a larger job than the default planned for.
			fmt.Fprintf(o.err, "%v\nskampi: check planned a job of %d processes: give --np N to plan for the job you will run\n", err, o.np)
			return &exitError{Code: 1, Quiet: true}
		}
		return err
	}
	printPlan(o.out, plan, ex, o.np)
	return nil
}

func printPlan(out io.Writer, plan *inputs.Plan, ex *inputs.Expansion, np int) {
	fmt.Fprintf(out, "suite %s (%s)\nsha256 %s\n", plan.Name, plan.Source, plan.SHA256)
	// The suite's own text reaches the terminal escaped: an escape sequence in a
	// description must not act on it.
	for _, line := range strings.Split(strings.TrimRight(plan.Description, "\n"), "\n") {
		if line != "" {
			fmt.Fprintf(out, "%s\n", report.Printable(line))
		}
	}
	fmt.Fprintln(out)
	perMeasurement := map[*inputs.Measurement]int{}
	for _, pt := range ex.Points {
		perMeasurement[pt.Measurement]++
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "#\tmeasurement\top\tpoints\tsizes\tmethods\tprocs\n")
	for i := range plan.Measurements {
		m := &plan.Measurements[i]
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\t%s\n", m.Index+1, report.Printable(m.Name), m.Op.Name, perMeasurement[m],
			sizeList(m.Sizes), dash(strings.Join(m.Methods, " ")), procsList(m))
	}
	tw.Flush()
	for _, n := range ex.Notes {
		fmt.Fprintf(out, "note: %s\n", n)
	}
	fmt.Fprintf(out, "\ntotal: %d points in %d measurements on %d processes\n", len(ex.Points), len(plan.Measurements), np)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func procsList(m *inputs.Measurement) string {
	if len(m.Settings.Procs) == 0 || len(m.ProcsList()) == 1 && m.ProcsList()[0] == 0 {
		return "all"
	}
	f := make([]string, len(m.Settings.Procs))
	for i, n := range m.Settings.Procs {
		f[i] = fmt.Sprint(n)
		if n == 0 {
			f[i] = "all"
		}
	}
	return strings.Join(f, " ")
}

// sizeList shows short lists whole and long ones by their ends.
func sizeList(sizes []int64) string {
	f := make([]string, len(sizes))
	for i, s := range sizes {
		f[i] = inputs.FormatSize(s)
	}
	if len(f) > 8 {
		return strings.Join(f[:3], " ") + " ... " + strings.Join(f[len(f)-3:], " ")
	}
	return strings.Join(f, " ")
}
