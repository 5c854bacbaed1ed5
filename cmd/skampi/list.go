package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/skampi/skampi/ops"
	"github.com/spf13/cobra"
)

func newListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List every operation, one per line: name, then what it measures",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			for _, in := range ops.All() {
				fmt.Fprintf(tw, "%s\t%s\n", in.Name, in.Description)
			}
			return tw.Flush()
		},
	}
}
