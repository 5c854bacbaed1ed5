package inputs

import (
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"text/tabwriter"

	"github.com/skampi/skampi/ops"
)

// ListOptions is `skampi list`: the operations, SKaMPI 6's functions (Skampi) or the
// built-in suites' names (Suites), those whose name matches Pattern.
type ListOptions struct {
	// Pattern is matched case-insensitively: a glob when it holds *, ? or [, otherwise
	// a part of the name; "" matches all.
	Pattern string
	Skampi  bool
	Suites  bool
	// Refused says why this binary cannot run an operation, "" when it can: the list
	// marks it.
	Refused func(ops.Info) string
	Stdout  io.Writer
}

// Valid says what in the options is a mistake of the command line.
func (o ListOptions) Valid() error {
	if _, err := nameMatcher(o.Pattern); err != nil {
		return err
	}
	if o.Skampi && o.Suites {
		return errors.New("--skampi and --suites list different things: give one")
	}
	return nil
}

// List prints what o asks for, one per line; no match is an error.
func List(o ListOptions) error {
	match, err := nameMatcher(o.Pattern)
	if err != nil {
		return err
	}
	if o.Skampi {
		return ops.PrintSkampi(o.Stdout, match, o.Pattern)
	}
	if o.Suites {
		n := 0
		for _, name := range BuiltinNames() {
			if match(name) {
				fmt.Fprintln(o.Stdout, name)
				n++
			}
		}
		if n == 0 {
			return fmt.Errorf("list: no built-in suite matches %q (skampi list --suites shows them all)", o.Pattern)
		}
		return nil
	}
	tw := tabwriter.NewWriter(o.Stdout, 0, 4, 2, ' ', 0)
	n := 0
	for _, in := range ops.All() {
		if match(in.Name) {
			desc := in.Description
			if why := o.Refused(in); why != "" {
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
		return fmt.Errorf("list: no operation matches %q (skampi list shows them all)", o.Pattern)
	}
	return nil
}

// nameMatcher matches names against a pattern, case-insensitive: a glob when it has
// glob characters, otherwise a substring ("" matches all).
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
