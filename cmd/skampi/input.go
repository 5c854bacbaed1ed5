package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// stdin is what the reading verbs read when no file is named. At a terminal that would
// wait for records nobody is about to type, so it is a usage mistake, said at once.
func stdin(cmd *cobra.Command) (io.Reader, error) {
	in := cmd.InOrStdin()
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return nil, usageError(fmt.Errorf(
			"%sno result files named and stdin is a terminal: name them (%s results/results.jsonl) or pipe records in (cat results.jsonl | %s)",
			verb(cmd), cmd.CommandPath(), cmd.CommandPath()))
	}
	return in, nil
}

// stdinIfNone is stdin when no file is named, else cmd's input untouched (a "-" among
// the files reads it).
func stdinIfNone(cmd *cobra.Command, args []string) (io.Reader, error) {
	if len(args) == 0 {
		return stdin(cmd)
	}
	return cmd.InOrStdin(), nil
}
