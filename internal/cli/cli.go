// Package cli is the plumbing cmd/skampi's verbs share, so that each verb is its flags,
// its options and one call: the exit status of a usage mistake, the argument checks,
// the guard on stdin, running a command line to an exit status, shell completion and
// the generated CLI reference.
package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skampi/skampi/job"
)

// UsageError is a mistake on the command line: exit status 2. Execute prints err
// first, then one line naming the command's --help, not the whole usage.
func UsageError(err error) error {
	return &job.ExitError{Code: 2, Err: err}
}

// FlagError makes a flag cobra cannot parse a usage mistake of its verb.
func FlagError(c *cobra.Command, err error) error {
	return UsageError(fmt.Errorf("%s%w", Verb(c), err))
}

// Execute runs one command line and returns the exit status: 0 done, 1 failed,
// 2 a mistake in the flags (or an ExitError's own code).
func Execute(root *cobra.Command, args []string, stdout, stderr io.Writer) int {
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteC()
	if err == nil {
		return 0
	}
	if cmd == nil {
		cmd = root
	}
	code, said := job.Say(stderr, err)
	if !said {
		return code
	}
	if code == 2 {
		// The mistake first, then where to look: not the whole usage, which would
		// push the mistake off the screen.
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
	return code
}

// UsageArgs makes a wrong count of arguments a usage mistake (exit status 2), on every
// command, and a command with subcommands refuse an unknown one the same way.
func UsageArgs(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return UsageError(fmt.Errorf("%s%v", Verb(cmd), err))
			}
			return nil
		}
	}
	if c.HasSubCommands() && c.Run == nil && c.RunE == nil {
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return UsageError(fmt.Errorf("%sunknown command %q", Verb(cmd), args[0]))
			}
			return cmd.Help()
		}
		c.Args = cobra.ArbitraryArgs
	}
	for _, sub := range c.Commands() {
		UsageArgs(sub)
	}
}

// Verb is "clock check: " for skampi clock check, "" for skampi itself (Execute
// prefixes every message with "skampi: ").
func Verb(cmd *cobra.Command) string {
	if !cmd.HasParent() {
		return ""
	}
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ") + ": "
}
