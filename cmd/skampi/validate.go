package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/skampi/skampi/report"
	"github.com/spf13/cobra"
)

func newValidateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "validate RESULTS... (- for stdin)",
		Short: "Check result files (JSONL or .sko) against the record schema and report every problem by line",
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

// validateFile prints a file's problems and a summary; it returns the count of records
// with an error (a record may have several). A source refused whole (not a result
// file, over a limit) is one more.
func validateFile(out io.Writer, stdin io.Reader, name string) (int, error) {
	res, err := report.Source{Name: name}.Load(stdin)
	var refused *report.Problem
	if err != nil && !errors.As(err, &refused) {
		return 0, err
	}
	for _, p := range res.Problems {
		fmt.Fprintln(out, p)
	}
	errs := len(res.Errors())
	lines := map[int]bool{}
	for _, p := range res.Errors() {
		lines[p.Line] = true
	}
	bad := len(lines)
	if refused != nil {
		fmt.Fprintln(out, refused)
		errs++
		bad++
	}
	fmt.Fprintf(out, "%s: %d run(s), %d point(s), %d fault(s); %d error(s), %d warning(s)\n",
		report.Printable(name), len(res.Runs), len(res.Points), len(res.Faults), errs, len(res.Problems)-len(res.Errors()))
	return bad, nil
}
