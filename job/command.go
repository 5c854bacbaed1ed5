package job

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops/mpi"
)

// Command is `skampi run` and `skampi -i SUITE`: the run's options (Suite is -i), the
// operations or OSU benchmark named, the one-line flags and every flag given, in the
// order the command line's parser visits them.
type Command struct {
	Options
	Ops   []string
	Line  inputs.LineFlags
	Given []inputs.Flag
	// Verb names the command in messages: "run" (the default) or "check" (SuiteText).
	Verb string
}

func (c *Command) verb() string {
	if c.Verb == "" {
		return "run"
	}
	return c.Verb
}

func (c *Command) given(name string) bool {
	return slices.ContainsFunc(c.Given, func(fl inputs.Flag) bool { return fl.Name == name })
}

// usage is a mistake on the command line: exit status 2.
func usage(err error) error { return &ExitError{Code: 2, Err: err} }

// RunCommand runs the suite -i names, the operations named (a one-line suite), or the
// suite with the one-line flags laid over it; with --print-suite it prints that suite
// instead, checked as a run would check it.
func RunCommand(c Command) error {
	o, f := &c.Options, &c.Line
	if c.given("accel") {
		return usage(fmt.Errorf("%s: -d %s: GPU (device) buffers are not supported by this build: skampi measures messages in host memory", c.verb(), f.Accel))
	}
	if err := c.osuIterations(); err != nil {
		return usage(fmt.Errorf("%s: %v", c.verb(), err))
	}
	typed := c.Ops // an OSU name stays one in the suite's command comment
	bench, args, err := inputs.LookupOSU(c.Ops)
	f.Bench = bench
	if err != nil {
		return usage(fmt.Errorf("%s: %v", c.verb(), err))
	}
	if f.Print && o.Suite != "" && len(args) == 0 && len(inputs.Overrides(c.Given)) == 0 {
		// A built-in suite as a starting point: its TOML, to save and edit.
		text, ok := inputs.BuiltinText(o.Suite)
		if !ok {
			var err error
			if text, err = os.ReadFile(o.Suite); err != nil {
				return fmt.Errorf("%s: --print-suite: %q is neither a built-in suite (%s) nor a readable file: %v", c.verb(), o.Suite, strings.Join(inputs.BuiltinNames(), ", "), err)
			}
		}
		_, err := o.Stdout.Write(text)
		return err
	}
	oneLine := len(args) > 0 || f.Print || inputs.LineGiven(c.Given)
	switch {
	case o.Suite != "" && len(args) > 0:
		return usage(fmt.Errorf("%s: -i SUITE or operations, not both (with -i SUITE alone, --sizes, --method and the settings' flags override the suite's)", c.verb()))
	case o.Suite != "" && oneLine:
		return c.overrideSuite()
	case o.Suite == "" && len(args) == 0:
		return usage(fmt.Errorf("%s: name operations (skampi run Pingpong_Send_Recv --sizes 1B:4MiB) or a suite (-i SUITE)", c.verb()))
	case o.Suite != "":
		return runSuite(*o)
	}
	ol, benchNote, err := f.OneLine(args, o.NP, c.Given)
	if err == nil && f.Print {
		ol.Command = inputs.CommandWords(typed, c.Given, f.OSU.Iterations)
	}
	var text string
	if err == nil {
		text, err = ol.Suite()
	}
	if err != nil {
		return usage(fmt.Errorf("%s: %v", c.verb(), err))
	}
	if benchNote != "" && Announces(o.Env) {
		fmt.Fprintf(o.Stderr, "note: %s\n", benchNote)
	}
	// Checked here, in the flags' terms, before it is shown or any process starts.
	plan, err := inputs.ParseOneLine(text)
	if err != nil {
		return usage(err)
	}
	if f.Print {
		// What is printed runs as it stands: planned on the job --np names, as
		// `skampi check --np N` would (a run plans again, on the job it gets).
		if _, err := plan.Expand(inputs.Job{NProcs: o.NP}); err != nil {
			return usage(inputs.CommandLineErrors(err))
		}
		_, err := fmt.Fprint(o.Stdout, text)
		return err
	}
	// What a plain line of a one-sided operation measures is said, not assumed.
	for _, n := range ol.LatencyDefaults() {
		fmt.Fprintf(o.Stdout, "note: %s\n", n)
	}
	o.SuiteText = text
	// What a one-liner of an OpenSHMEM put reads as is its latency (osu_oshm_put).
	o.Table.Latency = !f.Breakdown && (f.Bench == nil || !f.Bench.Breakdown)
	return runSuite(*o)
}

// osuIterations resolves -i: with operations named it can only be OSU's iteration
// count (a suite and operations together are refused), so an integer there is that;
// anything else, or -i without operations, names the suite.
func (c *Command) osuIterations() error {
	if len(c.Ops) == 0 || c.Suite == "" {
		return nil
	}
	if _, err := strconv.Atoi(c.Suite); err != nil {
		return nil
	}
	if c.Line.OSU.Iterations != "" {
		return fmt.Errorf("-i %s and --osu-iterations %s: both are OSU's iteration count, give one", c.Suite, c.Line.OSU.Iterations)
	}
	c.Line.OSU.Iterations, c.Suite = c.Suite, ""
	return nil
}

// overrideSuite runs (or with --print-suite prints) the suite -i names with the
// one-line flags given laid over it: a built-in suite as a starting point.
func (c *Command) overrideSuite() error {
	o, f := &c.Options, &c.Line
	flags := inputs.Overrides(c.Given)
	if len(flags) == 0 { // --print-suite alone is handled before
		return usage(fmt.Errorf("%s: -i SUITE with --print-suite alone prints it; other flags need operations", c.verb()))
	}
	source, text, err := inputs.ReadSuite(o.Suite)
	if err != nil {
		return usage(fmt.Errorf("%s: %v", c.verb(), err))
	}
	ol, _, err := f.OneLine(nil, o.NP, c.Given)
	if err != nil {
		return usage(fmt.Errorf("%s: %v", c.verb(), err))
	}
	if f.Print {
		ol.Command = inputs.CommandWords(nil, c.Given, o.Suite)
	}
	out, notes, err := ol.Override(source, text, flags)
	if err != nil {
		return usage(fmt.Errorf("%s -i %s: %v", c.verb(), o.Suite, err))
	}
	for _, n := range notes {
		if Announces(o.Env) {
			fmt.Fprintf(o.Stderr, "note: %s\n", n)
		}
	}
	if f.Print {
		plan, err := inputs.Parse(source, []byte(out))
		if err == nil {
			_, err = plan.Expand(inputs.Job{NProcs: o.NP})
		}
		if err != nil {
			return usage(inputs.CommandLineErrors(err))
		}
		_, err = fmt.Fprint(o.Stdout, out)
		return err
	}
	o.SuiteText, o.SuiteName = out, strings.TrimSuffix(filepath.Base(o.Suite), filepath.Ext(o.Suite))
	o.SuiteSource = source + " overridden by: " + strings.Join(flags, " ")
	return runSuite(*o)
}

// runSuite checks the thread level as given (empty too: "" would otherwise stand for
// its default), then runs.
func runSuite(o Options) error {
	if !slices.Contains(mpi.ThreadLevels, o.ThreadLevel) {
		return usage(fmt.Errorf("--thread-level must be one of %s, got %q", strings.Join(mpi.ThreadLevels, ", "), o.ThreadLevel))
	}
	return Run(o)
}
