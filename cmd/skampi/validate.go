package main

import (
	"fmt"
	"io"
	"os"

	"github.com/skampi/skampi/report"
	"github.com/spf13/cobra"
)

func newValidateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "validate RESULTS.jsonl... (- for stdin)",
		Short: "Check result files against the record schema and report every problem by line",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			bad := 0
			for _, name := range args {
				n, err := validateFile(cmd.OutOrStdout(), cmd.InOrStdin(), name)
				if err != nil {
					return err
				}
				bad += n
			}
			if bad > 0 {
				return &exitError{Code: 1, Err: fmt.Errorf("%d record(s) break the schema", bad)}
			}
			return nil
		},
	}
}

// validateFile prints a file's problems and a summary; it returns the error count.
func validateFile(out io.Writer, stdin io.Reader, name string) (int, error) {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		r = f
	}
	res, err := report.Read(r, name)
	if err != nil {
		return 0, err
	}
	for _, p := range res.Problems {
		fmt.Fprintln(out, p)
	}
	errs := len(res.Errors())
	fmt.Fprintf(out, "%s: %d run(s), %d point(s), %d fault(s); %d error(s), %d warning(s)\n",
		name, len(res.Runs), len(res.Points), len(res.Faults), errs, len(res.Problems)-errs)
	return errs, nil
}
