package main

import (
	"fmt"
	"path"
	"strings"
	"text/tabwriter"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/ops/shmem"
	"github.com/spf13/cobra"
)

func newListCmd() *cobra.Command {
	var skampi, suites bool
	cmd := &cobra.Command{
		Use:   "list [--skampi | --suites] [PATTERN]",
		Short: "List the operations, one per line: name, then what it measures",
		Long: "list prints every operation, or those whose name matches PATTERN, case-insensitive:\n" +
			"a glob (Pingpong_*, *put*) when it holds *, ? or [, otherwise a part of the name\n" +
			"(allreduce). No match is exit status 1.\n\n" +
			"With --skampi it prints SKaMPI 6's measurement functions instead, each with the skampi\n" +
			"operation [method], setting that measures the same thing and a note, or \"not yet\" or\n" +
			"\"not measured\" and why; then the counts. PATTERN matches the SKaMPI name or the\n" +
			"operation.\n\n" +
			"With --suites it prints the names of the built-in suites (skampi -i NAME), one per\n" +
			"line, those matching PATTERN: what a script runs to cover every one.",
		Example: "  skampi list put\n  skampi list 'Pingpong_*'\n  skampi list --skampi 'Win_*'\n  skampi list --suites",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pattern := ""
			if len(args) == 1 {
				pattern = args[0]
			}
			match, err := nameMatcher(pattern)
			if err != nil {
				return usageError(fmt.Errorf("list: %v", err))
			}
			if skampi && suites {
				return usageError(fmt.Errorf("list: --skampi and --suites list different things: give one"))
			}
			if skampi {
				return ops.PrintSkampi(cmd.OutOrStdout(), match, pattern)
			}
			if suites {
				n := 0
				for _, name := range inputs.BuiltinNames() {
					if match(name) {
						fmt.Fprintln(cmd.OutOrStdout(), name)
						n++
					}
				}
				if n == 0 {
					return fmt.Errorf("list: no built-in suite matches %q (skampi list --suites shows them all)", pattern)
				}
				return nil
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			n := 0
			for _, in := range ops.All() {
				if match(in.Name) {
					desc := in.Description
					if why := refused(in); why != "" {
						desc = "[refused: " + why + "] " + desc
					}
					fmt.Fprintf(tw, "%s\t%s\n", in.Name, desc)
					n++
				}
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			if n == 0 {
				return fmt.Errorf("list: no operation matches %q (skampi list shows them all)", pattern)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&skampi, "skampi", false, "list SKaMPI 6's measurement functions and what measures each in skampi")
	cmd.Flags().BoolVar(&suites, "suites", false, "list the built-in suites' names, one per line")
	return cmd
}

// refused says why this binary cannot run an operation, "" when it can: OpenSHMEM's
// in a build without it (an MPICH build), an MPI routine the library does not provide
// (MPI_Psend_init in Open MPI 4.1). A run records its points as denied with the same
// reason; list and check say it beforehand.
func refused(in ops.Info) string {
	if in.SHMEM {
		return shmem.Missing()
	}
	return mpi.UnsupportedReason(in.Kernel)
}

// nameMatcher matches operation names against a pattern, case-insensitive: a glob
// when it has glob characters, otherwise a substring ("" matches all).
func nameMatcher(pattern string) (func(string) bool, error) {
	p := strings.ToLower(pattern)
	if !strings.ContainsAny(p, "*?[") {
		return func(name string) bool { return strings.Contains(strings.ToLower(name), p) }, nil
	}
	if _, err := path.Match(p, ""); err != nil {
		return nil, fmt.Errorf("pattern %q: %v", pattern, err)
	}
	return func(name string) bool {
		ok, _ := path.Match(p, strings.ToLower(name))
		return ok
	}, nil
}
