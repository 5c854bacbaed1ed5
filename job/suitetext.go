package job

import (
	"bytes"
	"strings"

	"github.com/skampi/skampi/inputs"
)

// SuiteText is the suite a run's command line makes, for `skampi check`: with
// operations named or one-line flags laid over -i SUITE, the text a run would measure
// (run --print-suite's, checked the same way) and the name to give it; with -i SUITE
// alone, nil: the caller reads the suite itself.
func SuiteText(c Command) (name string, text []byte, err error) {
	flags := inputs.Overrides(c.Given)
	if len(c.Ops) == 0 && len(flags) == 0 {
		return c.Suite, nil, nil
	}
	var out bytes.Buffer
	c.Line.Print, c.Stdout = true, &out
	if err := RunCommand(c); err != nil {
		return "", nil, err
	}
	name = "command line"
	if c.Suite != "" {
		name = c.Suite + " overridden by: " + strings.Join(flags, " ")
	}
	return name, out.Bytes(), nil
}
