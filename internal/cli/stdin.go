package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// Stdin is what the reading verbs read when no file is named. At a terminal that would
// wait for records nobody is about to type, so it is a usage mistake, said at once.
func Stdin(cmd *cobra.Command) (io.Reader, error) {
	in := cmd.InOrStdin()
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return nil, UsageError(fmt.Errorf(
			"%sno result files named and stdin is a terminal: name them (%s results/results.jsonl) or pipe records in (cat results.jsonl | %s)",
			Verb(cmd), cmd.CommandPath(), cmd.CommandPath()))
	}
	return in, nil
}

// StdinIfNone is Stdin when no file is named, else cmd's input untouched (a "-" among
// the files reads it).
func StdinIfNone(cmd *cobra.Command, args []string) (io.Reader, error) {
	if len(args) == 0 {
		return Stdin(cmd)
	}
	return cmd.InOrStdin(), nil
}

// StdinFunc gives the reading verbs' packages cmd's stdin when a source is "-" (and
// refuses a terminal then, see Stdin).
func StdinFunc(cmd *cobra.Command) func() (io.Reader, error) {
	return func() (io.Reader, error) { return Stdin(cmd) }
}
