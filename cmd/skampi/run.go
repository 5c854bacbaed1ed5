package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/numflag"
	"github.com/skampi/skampi/job"
	"github.com/skampi/skampi/ops/mpi"
)

// maxRestarts bounds --max-restarts: a job that hangs or crashes this often is broken.
const maxRestarts = 1000

// addRunFlags binds the flags of a suite run (root command and `run`) to o.
func addRunFlags(fs *pflag.FlagSet, o *job.Options) {
	fs.StringVarP(&o.Suite, "input", "i", "", "suite file, or the name of a built-in suite ("+strings.Join(inputs.BuiltinNames(), ", ")+")")
	fs.StringVarP(&o.Out, "output", "o", "", "directory for results.jsonl, results.csv, results.sko and suite.toml (one holding results: --resume or --append)")
	numflag.Int(fs, &o.NP, "np", 2, 1, job.MaxSelfLaunch, "processes to start when skampi launches mpirun itself")
	fs.BoolVar(&o.Resume, "resume", false, "continue the run in -o DIR: measure only the points it does not hold yet")
	fs.BoolVar(&o.Append, "append", false, "a new run after the runs -o DIR holds (without it, or --resume, a directory with results is refused)")
	fs.BoolVar(&o.Force, "force", false, "with --resume: continue even if -o DIR holds results of a different suite")
	fs.BoolVar(&o.Smoke, "smoke", false, "check that every point runs, not what it costs: two repetitions a point, no warm-up, no refinement (seconds for a suite; the run header says smoke, and the numbers are no measurement)")
	fs.BoolVar(&o.AllowBroken, "allow-broken", false, "run routines on the known-broken list anyway (for testing a fixed library)")
	numflag.Int(fs, &o.MaxRestarts, "max-restarts", 5, 0, maxRestarts, "when skampi launched mpirun itself: restarts after a hang or a crash")
	fs.BoolVarP(&o.Table.Full, "full", "f", false, "OSU's -f: the table adds each point's minimum, maximum and mean over its repetitions (of the one-way time for ping-pongs)")
	fs.BoolVarP(&o.Table.Percentiles, "percentiles", "z", false, "OSU's -z: the table adds each point's 50th, 90th and 99th percentiles over its repetitions")
	numflag.Int(fs, &o.Runs, "runs", 1, 1, job.MaxRuns, "launch the suite this many times into -o DIR, one run after another, then print every point's median over the runs, their spread, and whether one run's error covers it")
	fs.StringVar(&o.ThreadLevel, "thread-level", "default", "MPI thread level: default (MPI_Init, like the C benchmarks; MPI_Init_thread(MULTIPLE) when a multi-threaded operation is measured, which refuses the lower levels), single, funneled, serialized or multiple (MPI_Init_thread)")
}

// runSuite completes the options with what comes from outside the flags and runs.
func runSuite(cmd *cobra.Command, o *job.Options) error {
	// The flag's own value, empty too ("" would otherwise stand for its default).
	if !slices.Contains(mpi.ThreadLevels, o.ThreadLevel) {
		return usageError(fmt.Errorf("--thread-level must be one of %s, got %q", strings.Join(mpi.ThreadLevels, ", "), o.ThreadLevel))
	}
	o.Version, o.Args, o.Env = versionString(), os.Args[1:], os.Environ()
	o.NPSet = cmd.Flags().Changed("np")
	o.Stdout, o.Stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
	return job.Run(*o)
}

// oneLineFlags are the flags of the one-line form: sizes, methods and every suite
// setting as --key (the suite key with dashes).
type oneLineFlags struct {
	sizes, step, methods string
	accel                string // OSU's -d: refused
	print                bool
	breakdown            bool     // OpenSHMEM puts and gets: the breakdown's table, not the latency's
	settings             []string // suite keys, in flag-set order
	values               map[string]*string
	osu                  inputs.OSU           // OSU's options (-i is read from --input: see osuIterations)
	bench                *inputs.OSUBenchmark // an OSU benchmark named instead of operations
	benchNote            string               // what bench runs as, for stderr
}

// osuFlags are OSU's options as flags of skampi run (-i aside, which names the suite).
var osuFlags = []string{"message-size", "osu-iterations", "osu-warmup", "window-size", "validation", "type"}

func addOneLineFlags(fs *pflag.FlagSet, f *oneLineFlags) {
	fs.StringVar(&f.sizes, "sizes", "", `message sizes: a range "1B:4MiB" (with --step) or a list "1,8,64KiB" (default 1B:4MiB)`)
	fs.StringVar(&f.step, "step", "", `step of a range of sizes: "*2" (default), "*4", "+1KiB"`)
	fs.StringVar(&f.methods, "method", "", "timing methods, comma-separated, for the operations that have them (every collective: osu; Bcast: barrier,sync,rounds,ack; MPI-IO writes: imb)")
	fs.BoolVar(&f.breakdown, "breakdown", false, "OpenSHMEM puts and gets named (Shmem_Put, Shmem_Put_Nbi, ...): the table shows their breakdown (post, wait, overlap) instead of their time as latency; the record has both either way")
	fs.BoolVar(&f.print, "print-suite", false, "print the suite the command line makes, as TOML, and stop; with -i SUITE alone, that suite's TOML (a built-in to save and edit)")
	fs.StringVarP(&f.osu.MessageSize, "message-size", "m", "", "OSU's -m [MIN:]MAX: sizes from MIN (default: one element) to MAX by powers of two; units as --sizes")
	fs.StringVar(&f.osu.Iterations, "osu-iterations", "", "OSU's -i N (with operations named, -i N is this): iterations = N, one timed loop of N operations per repetition")
	fs.StringVarP(&f.osu.Warmup, "osu-warmup", "x", "", "OSU's -x N: at least N untimed operations first (warmup repetitions of the loop)")
	fs.StringVarP(&f.osu.Window, "window-size", "W", "", "OSU's -W N: window = N")
	fs.BoolVarP(&f.osu.Validate, "validation", "c", false, "OSU's -c: check_data = true")
	fs.StringVarP(&f.osu.Type, "type", "T", "", "OSU's -T mpi_char|mpi_int|mpi_float: datatype = char, int or float (collectives)")
	fs.StringVarP(&f.accel, "accel", "d", "", "OSU's -d cuda|rocm|...: refused, with the reason (skampi measures host memory only)")
	f.values = map[string]*string{}
	for _, st := range inputs.SettingList() {
		name := strings.ReplaceAll(st.Key, "_", "-")
		f.values[st.Key] = fs.String(name, "", "suite setting "+st.Key+": "+st.Doc)
		f.settings = append(f.settings, st.Key)
		if st.Key == "check_data" {
			fs.Lookup(name).NoOptDefVal = "true"
		}
	}
}

// suite is the one-line suite of the operations and the flags that were set, for a
// job of np processes; args, when printing, head it as a comment.
func (f *oneLineFlags) suite(fs *pflag.FlagSet, opNames []string, np int, args []string) (string, error) {
	ol, err := f.line(fs, opNames, np)
	if err != nil {
		return "", err
	}
	if f.print {
		ol.Command = append([]string{"skampi"}, args...)
	}
	return ol.Suite()
}

// line is the one-line suite of the flags, OSU's options mapped to their settings.
func (f *oneLineFlags) line(fs *pflag.FlagSet, opNames []string, np int) (inputs.OneLine, error) {
	ol := inputs.OneLine{Ops: opNames, Sizes: f.sizes, Step: f.step, NP: np, Methods: f.methodList()}
	for _, key := range f.settings {
		if fs.Changed(strings.ReplaceAll(key, "_", "-")) {
			ol.Settings = append(ol.Settings, [2]string{key, *f.values[key]})
		}
	}
	if err := ol.ApplyOSU(f.osu); err != nil {
		return ol, err
	}
	if f.bench != nil {
		f.benchNote = ol.ApplyOSUBenchmark(*f.bench)
	}
	return ol, nil
}

// osuName resolves an OSU benchmark named instead of operations (skampi run
// osu_latency) to its operations; line applies its settings.
func (f *oneLineFlags) osuName(args []string) ([]string, error) {
	bench, ops, err := inputs.LookupOSU(args)
	f.bench = bench
	return ops, err
}

func (f *oneLineFlags) methodList() []string {
	if f.methods == "" {
		return nil
	}
	return strings.Split(f.methods, ",")
}

// osuIterations resolves -i: with operations named it can only be OSU's iteration
// count (a suite and operations together are refused), so an integer there is that;
// anything else, or -i without operations, names the suite.
func osuIterations(o *job.Options, f *oneLineFlags, ops []string) error {
	if len(ops) == 0 || o.Suite == "" {
		return nil
	}
	if _, err := strconv.Atoi(o.Suite); err != nil {
		return nil
	}
	if f.osu.Iterations != "" {
		return fmt.Errorf("-i %s and --osu-iterations %s: both are OSU's iteration count, give one", o.Suite, f.osu.Iterations)
	}
	f.osu.Iterations, o.Suite = o.Suite, ""
	return nil
}

func newRunCmd() *cobra.Command {
	o := &job.Options{}
	f := &oneLineFlags{}
	cmd := &cobra.Command{
		Use:   "run (-i SUITE | OP... | osu_NAME) [-o DIR]",
		Short: "Run a suite, or operations named on the command line",
		Long: "skampi run -i SUITE runs a suite file or a built-in suite (the same as skampi -i SUITE);\n" +
			"the one-line flags below override its settings: --sizes (or -m) goes to every measurement\n" +
			"whose element divides the sizes, --method to those that have it, a setting's flag replaces\n" +
			"the suite's and each measurement's own value; one that fits no measurement is refused.\n" +
			"--print-suite shows the result; the run header's suite_source and the suite.toml kept\n" +
			"with the results say what was overridden.\n" +
			"skampi run OP... measures the named operations with the flags as settings, no file needed:\n\n" +
			"  skampi run Pingpong_Send_Recv --sizes 1B:4MiB --step '*2'\n" +
			"  skampi run Bcast Allreduce --sizes 8,1KiB,64KiB --procs 2,4,all -o results/\n" +
			"  skampi run Bcast --method barrier,ack --print-suite     (the equivalent TOML)\n\n" +
			"Every suite setting is a flag of the same name with dashes (--max-repetitions auto,\n" +
			"--window 64, --check-data); a comma-separated value is a list.\n\n" +
			"OSU's options mean what they mean in OSU, as the settings they map to (--print-suite\n" +
			"shows them, each with a comment naming the option): -m [MIN:]MAX sizes, -i N\n" +
			"iterations = N (with operations named, an integer after -i is OSU's count; otherwise\n" +
			"-i names the suite), -x N warm-up, -W N window, -c check_data, -T TYPE datatype;\n" +
			"-f and -z add columns to the table (min, max, mean; 50th, 90th, 99th percentile over a\n" +
			"point's repetitions); -d (GPU buffers) is refused: skampi measures host memory.\n\n" +
			"A one-sided operation (Put, Get, Accumulate, Shmem_Put, ...) without --window or -W\n" +
			"measures latency, window 1: one operation and its completion at a time, as OSU's\n" +
			"osu_put_latency; --window 64 measures bandwidth.\n\n" +
			"An OSU benchmark's name runs as its skampi line with OSU's defaults, said on stderr\n" +
			"(skampi run osu_latency, osu_bw, osu_allreduce, osu_put_latency, osu_oshm_put, ...;\n" +
			"docs/osu-imb.md); flags given win over its settings.",
		Example: "  skampi run Pingpong_Send_Recv --sizes 1B:4MiB --step '*2' --iterations auto -o DIR\n" +
			"  skampi run -i pt2pt --sizes 8,1KiB --np 4 --sync window    (a built-in, overridden)\n" +
			"  skampi run Pingpong_Send_Recv -m 1:4096 -i 1000 -x 100         (OSU's options)\n" +
			"  skampi run Put -W 64 --method lock_all",
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("accel") {
				return usageError(fmt.Errorf("run: -d %s: GPU (device) buffers are not supported by this build: skampi measures messages in host memory", f.accel))
			}
			if err := osuIterations(o, f, args); err != nil {
				return usageError(fmt.Errorf("run: %v", err))
			}
			typed := args // an OSU name stays one in the suite's command comment
			args, err := f.osuName(args)
			if err != nil {
				return usageError(fmt.Errorf("run: %v", err))
			}
			if f.print && o.Suite != "" && len(args) == 0 && len(f.overrideFlags(cmd.Flags())) == 0 {
				// A built-in suite as a starting point: its TOML, to save and edit.
				text, ok := inputs.BuiltinText(o.Suite)
				if !ok {
					var err error
					if text, err = os.ReadFile(o.Suite); err != nil {
						return fmt.Errorf("run: --print-suite: %q is neither a built-in suite (%s) nor a readable file: %v", o.Suite, strings.Join(inputs.BuiltinNames(), ", "), err)
					}
				}
				_, err := cmd.OutOrStdout().Write(text)
				return err
			}
			oneLine := len(args) > 0 || f.print
			for _, name := range append([]string{"sizes", "step", "method"}, osuFlags...) {
				if cmd.Flags().Changed(name) {
					oneLine = true
				}
			}
			for _, key := range f.settings {
				if cmd.Flags().Changed(strings.ReplaceAll(key, "_", "-")) {
					oneLine = true
				}
			}
			switch {
			case o.Suite != "" && len(args) > 0:
				return usageError(errors.New("run: -i SUITE or operations, not both (with -i SUITE alone, --sizes, --method and the settings' flags override the suite's)"))
			case o.Suite != "" && oneLine:
				return overrideSuite(cmd, o, f)
			case o.Suite == "" && len(args) == 0:
				return usageError(errors.New("run: name operations (skampi run Pingpong_Send_Recv --sizes 1B:4MiB) or a suite (-i SUITE)"))
			case o.Suite != "":
				return runSuite(cmd, o)
			}
			text, err := f.suite(cmd.Flags(), args, o.NP, commandLine(cmd, f, typed))
			if err != nil {
				return usageError(fmt.Errorf("run: %v", err))
			}
			if f.benchNote != "" && job.Announces(os.Environ()) {
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", f.benchNote)
			}
			// Checked here, in the flags' terms, before it is shown or any process starts.
			plan, err := inputs.ParseOneLine(text)
			if err != nil {
				return usageError(err)
			}
			if f.print {
				// What is printed runs as it stands: planned on the job --np names, as
				// `skampi check --np N` would (a run plans again, on the job it gets).
				if _, err := plan.Expand(inputs.Job{NProcs: o.NP}); err != nil {
					return usageError(inputs.CommandLineErrors(err))
				}
				_, err := fmt.Fprint(cmd.OutOrStdout(), text)
				return err
			}
			// What a plain line of a one-sided operation measures is said, not assumed.
			if ol, err := f.line(cmd.Flags(), args, o.NP); err == nil {
				for _, n := range ol.LatencyDefaults() {
					fmt.Fprintf(cmd.OutOrStdout(), "note: %s\n", n)
				}
			}
			o.SuiteText = text
			// What a one-liner of an OpenSHMEM put reads as is its latency (osu_oshm_put).
			o.Table.Latency = !f.breakdown && (f.bench == nil || !f.bench.Breakdown)
			return runSuite(cmd, o)
		},
	}
	addRunFlags(cmd.Flags(), o)
	addOneLineFlags(cmd.Flags(), f)
	return cmd
}

// commandLine is the line that made a one-line suite, as the flags were parsed: the
// operations, then every flag given but --print-suite, in the flags' order.
func commandLine(cmd *cobra.Command, f *oneLineFlags, ops []string) []string {
	line := append([]string{"run"}, ops...)
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		switch {
		case fl.Name == "print-suite":
		case fl.Name == "input": // with operations, OSU's -i N (osuIterations)
			line = append(line, "-i", f.osu.Iterations)
		default:
			line = append(line, flagWords(fl)...)
		}
	})
	return line
}

// flagWords is a flag given as it reads back: OSU's options as OSU spells them.
func flagWords(fl *pflag.Flag) []string {
	switch {
	case fl.Shorthand != "" && slices.Contains(osuFlags, fl.Name):
		switch {
		case fl.Value.Type() == "bool" && fl.Value.String() == "true":
			return []string{"-" + fl.Shorthand}
		case fl.Value.Type() == "bool":
			return []string{"-" + fl.Shorthand + "=" + fl.Value.String()}
		}
		return []string{"-" + fl.Shorthand, fl.Value.String()}
	case fl.Value.Type() == "bool" && fl.Value.String() == "true":
		return []string{"--" + fl.Name}
	case fl.Value.Type() == "bool" || fl.NoOptDefVal != "": // --check-data VALUE would not read VALUE
		return []string{"--" + fl.Name + "=" + fl.Value.String()}
	}
	return []string{"--" + fl.Name, fl.Value.String()}
}

// overrideFlags are the one-line flags that a suite named with -i takes over its own
// settings (inputs.OneLine.Override), as words, in the order pflag visits them.
func (f *oneLineFlags) overrideFlags(fs *pflag.FlagSet) []string {
	var words []string
	fs.Visit(func(fl *pflag.Flag) {
		key := strings.ReplaceAll(fl.Name, "-", "_")
		if slices.Contains([]string{"sizes", "step", "method"}, fl.Name) || slices.Contains(osuFlags, fl.Name) || slices.Contains(f.settings, key) {
			words = append(words, flagWords(fl)...)
		}
	})
	return words
}

// overrideSuite runs (or with --print-suite prints) the suite -i names with the
// one-line flags given laid over it: a built-in suite as a starting point.
func overrideSuite(cmd *cobra.Command, o *job.Options, f *oneLineFlags) error {
	flags := f.overrideFlags(cmd.Flags())
	if len(flags) == 0 { // --print-suite alone is handled before
		return usageError(errors.New("run: -i SUITE with --print-suite alone prints it; other flags need operations"))
	}
	source, text, err := inputs.ReadSuite(o.Suite)
	if err != nil {
		return usageError(fmt.Errorf("run: %v", err))
	}
	ol, err := f.line(cmd.Flags(), nil, o.NP)
	if err != nil {
		return usageError(fmt.Errorf("run: %v", err))
	}
	if f.print {
		ol.Command = []string{"skampi", "run"}
		cmd.Flags().Visit(func(fl *pflag.Flag) {
			switch fl.Name {
			case "print-suite":
			case "input":
				ol.Command = append(ol.Command, "-i", o.Suite)
			default:
				ol.Command = append(ol.Command, flagWords(fl)...)
			}
		})
	}
	out, notes, err := ol.Override(source, text, flags)
	if err != nil {
		return usageError(fmt.Errorf("run -i %s: %v", o.Suite, err))
	}
	for _, n := range notes {
		if job.Announces(os.Environ()) {
			fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", n)
		}
	}
	if f.print {
		plan, err := inputs.Parse(source, []byte(out))
		if err == nil {
			_, err = plan.Expand(inputs.Job{NProcs: o.NP})
		}
		if err != nil {
			return usageError(inputs.CommandLineErrors(err))
		}
		_, err = fmt.Fprint(cmd.OutOrStdout(), out)
		return err
	}
	o.SuiteText, o.SuiteName = out, strings.TrimSuffix(filepath.Base(o.Suite), filepath.Ext(o.Suite))
	o.SuiteSource = source + " overridden by: " + strings.Join(flags, " ")
	return runSuite(cmd, o)
}
