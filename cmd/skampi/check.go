package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/skampi/skampi/inputs"
	"github.com/spf13/cobra"
)

func newCheckCmd() *cobra.Command {
	var suite string
	cmd := &cobra.Command{
		Use:   "check -i SUITE",
		Short: "Validate a suite and print its expanded plan, without running anything",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if suite == "" {
				return &exitError{code: 2, err: fmt.Errorf("check: -i SUITE is required")}
			}
			plan, err := inputs.Load(suite)
			if err != nil {
				return err
			}
			printPlan(cmd, plan)
			return nil
		},
	}
	cmd.Flags().StringVarP(&suite, "input", "i", "", "suite file or built-in suite name")
	return cmd
}

func printPlan(cmd *cobra.Command, plan *inputs.Plan) {
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "suite %s (%s)\nsha256 %s\n", plan.Name, plan.Source, plan.SHA256)
	if plan.Description != "" {
		fmt.Fprintf(out, "%s\n", plan.Description)
	}
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "#\tmeasurement\top\tpoints\tsizes\n")
	for _, m := range plan.Measurements {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\n", m.Index+1, m.Name, m.Op.Name, len(m.Sizes), sizeList(m.Sizes))
	}
	tw.Flush()
	fmt.Fprintf(out, "\ntotal: %d points in %d measurements\n", plan.Points(), len(plan.Measurements))
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
