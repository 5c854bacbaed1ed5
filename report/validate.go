package report

import (
	"errors"
	"fmt"
	"io"
)

// Validate is skampi validate: for each file (or "-", stdin) it prints its problems
// and a summary to out, and returns the count of records with an error (a record may
// have several); a source refused whole (not a result file, over a limit) is one more.
func Validate(out io.Writer, stdin io.Reader, names ...string) (bad int, err error) {
	for _, name := range names {
		n, err := validateFile(out, stdin, name)
		if err != nil {
			return bad, err
		}
		bad += n
	}
	return bad, nil
}

func validateFile(out io.Writer, stdin io.Reader, name string) (int, error) {
	res, err := Source{Name: name}.Load(stdin)
	var refused *Problem
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
		Printable(name), len(res.Runs), len(res.Points), len(res.Faults), errs, len(res.Problems)-len(res.Errors()))
	return bad, nil
}
