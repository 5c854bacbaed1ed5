package cli

import (
	"bytes"
	"errors"
	"testing"

	"github.com/spf13/cobra"

	"github.com/skampi/skampi/job"
)

// A usage mistake is exit 2 with the message and the --help line; a quiet exit says
// nothing; a wrong count of arguments is a mistake of the verb that got them.
func TestExecute(t *testing.T) {
	root := func(err error) *cobra.Command {
		r := &cobra.Command{Use: "skampi", SilenceUsage: true, SilenceErrors: true}
		r.AddCommand(&cobra.Command{Use: "verb", Args: cobra.NoArgs, RunE: func(*cobra.Command, []string) error { return err }})
		UsageArgs(r)
		return r
	}
	for _, c := range []struct {
		err    error
		args   []string
		code   int
		stderr string
	}{
		{nil, []string{"verb"}, 0, ""},
		{errors.New("failed"), []string{"verb"}, 1, "skampi: failed\n"},
		{UsageError(errors.New("bad flag")), []string{"verb"}, 2, "skampi: bad flag\nRun 'skampi verb --help' for usage.\n"},
		{&job.ExitError{Code: 5, Quiet: true}, []string{"verb"}, 5, ""},
		{nil, []string{"verb", "extra"}, 2, "skampi: verb: unknown command \"extra\" for \"skampi verb\"\nRun 'skampi verb --help' for usage.\n"},
	} {
		var out, errs bytes.Buffer
		if code := Execute(root(c.err), c.args, &out, &errs); code != c.code || errs.String() != c.stderr {
			t.Errorf("%v: exit %d, stderr %q; want %d, %q", c.args, code, errs.String(), c.code, c.stderr)
		}
	}
}
