package main

import (
	"fmt"

	"github.com/skampi/skampi/report"
	"github.com/spf13/cobra"
)

func newValidateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "validate RESULTS... (- for stdin)",
		Short: "Check result files (JSONL or .sko) against the record schema and report every problem by line",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			bad, err := report.Validate(cmd.OutOrStdout(), cmd.InOrStdin(), args...)
			if err != nil {
				return err
			}
			if bad > 0 {
				return &exitError{Code: 1, Err: fmt.Errorf("%d record(s) break the schema", bad)}
			}
			return nil
		},
	}
}
