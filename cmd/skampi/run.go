package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/job"
)

// addRunFlags binds the flags of a suite run (root command and `run`) to o.
func addRunFlags(fs *pflag.FlagSet, o *job.Options) {
	fs.StringVarP(&o.Suite, "input", "i", "", "suite file, or the name of a built-in suite ("+strings.Join(inputs.BuiltinNames(), ", ")+")")
	fs.StringVarP(&o.Out, "output", "o", "", "directory for results.jsonl, results.csv and results.sko (appended)")
	fs.IntVar(&o.NP, "np", 2, "processes to start when skampi launches mpirun itself")
	fs.BoolVar(&o.Resume, "resume", false, "continue the run in -o DIR: measure only the points it does not hold yet")
	fs.BoolVar(&o.Force, "force", false, "with --resume: continue even if -o DIR holds results of a different suite")
	fs.BoolVar(&o.AllowBroken, "allow-broken", false, "run routines on the known-broken list anyway (for testing a fixed library)")
	fs.IntVar(&o.MaxRestarts, "max-restarts", 5, "when skampi launched mpirun itself: restarts after a hang or a crash")
	fs.StringVar(&o.ThreadLevel, "thread-level", "default", "MPI thread level: default (MPI_Init, like the C benchmarks), single, funneled, serialized or multiple (MPI_Init_thread)")
}

// runSuite completes the options with what comes from outside the flags and runs.
func runSuite(cmd *cobra.Command, o *job.Options) error {
	o.Version, o.Args, o.Env = versionString(), os.Args[1:], os.Environ()
	o.NPSet = cmd.Flags().Changed("np")
	o.Stdout, o.Stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
	return job.Run(*o)
}

// oneLineFlags are the flags of the one-line form: sizes, methods and every suite
// setting as --key (the suite key with dashes).
type oneLineFlags struct {
	sizes, step, methods string
	print                bool
	settings             []string // suite keys, in flag-set order
	values               map[string]*string
}

func addOneLineFlags(fs *pflag.FlagSet, f *oneLineFlags) {
	fs.StringVar(&f.sizes, "sizes", "", `message sizes: a range "1B:4MiB" (with --step) or a list "1,8,64KiB" (default 1B:4MiB)`)
	fs.StringVar(&f.step, "step", "", `step of a range of sizes: "*2" (default), "*4", "+1KiB"`)
	fs.StringVar(&f.methods, "method", "", "timing methods, comma-separated, for the operations that have them (Bcast: barrier,sync,rounds,ack)")
	fs.BoolVar(&f.print, "print-suite", false, "print the suite the command line makes, as TOML, and stop")
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
	ol := inputs.OneLine{Ops: opNames, Sizes: f.sizes, Step: f.step, NP: np}
	if f.methods != "" {
		ol.Methods = strings.Split(f.methods, ",")
	}
	for _, key := range f.settings {
		if fs.Changed(strings.ReplaceAll(key, "_", "-")) {
			ol.Settings = append(ol.Settings, [2]string{key, *f.values[key]})
		}
	}
	if f.print {
		ol.Command = append([]string{"skampi"}, args...)
	}
	return ol.Suite()
}

func newRunCmd() *cobra.Command {
	o := &job.Options{}
	f := &oneLineFlags{}
	cmd := &cobra.Command{
		Use:   "run (-i SUITE | OP...) [-o DIR]",
		Short: "Run a suite, or operations named on the command line",
		Long: "skampi run -i SUITE runs a suite file or a built-in suite (the same as skampi -i SUITE).\n" +
			"skampi run OP... measures the named operations with the flags as settings, no file needed:\n\n" +
			"  skampi run Pingpong_Send_Recv --sizes 1B:4MiB --step '*2'\n" +
			"  skampi run Bcast Allreduce --sizes 8,1KiB,64KiB --procs 2,4,all -o results/\n" +
			"  skampi run Bcast --method barrier,ack --print-suite     (the equivalent TOML)\n\n" +
			"Every suite setting is a flag of the same name with dashes (--max-repetitions auto,\n" +
			"--window 64, --check-data); a comma-separated value is a list.",
		Example: "  skampi run Pingpong_Send_Recv --sizes 1B:4MiB --step '*2' --iterations auto -o DIR",
		RunE: func(cmd *cobra.Command, args []string) error {
			oneLine := len(args) > 0 || f.print
			for _, name := range []string{"sizes", "step", "method"} {
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
			case o.Suite != "" && oneLine:
				return usageError(cmd, "run: -i SUITE or operations with their flags, not both (settings of a suite file belong in the file)")
			case o.Suite == "" && len(args) == 0:
				return usageError(cmd, "run: name operations (skampi run Pingpong_Send_Recv --sizes 1B:4MiB) or a suite (-i SUITE)")
			case o.Suite != "":
				return runSuite(cmd, o)
			}
			text, err := f.suite(cmd.Flags(), args, o.NP, commandLine(cmd, args))
			if err != nil {
				return usageError(cmd, "run: "+err.Error())
			}
			// Checked here, in the flags' terms, before it is shown or any process starts.
			plan, err := inputs.ParseOneLine(text)
			if err != nil {
				return &exitError{Code: 2, Err: err}
			}
			if f.print {
				// What is printed runs as it stands: planned on the job --np names, as
				// `skampi check --np N` would (a run plans again, on the job it gets).
				if _, err := plan.Expand(inputs.Job{NProcs: o.NP}); err != nil {
					return &exitError{Code: 2, Err: inputs.CommandLineErrors(err)}
				}
				_, err := fmt.Fprint(cmd.OutOrStdout(), text)
				return err
			}
			o.SuiteText = text
			return runSuite(cmd, o)
		},
	}
	addRunFlags(cmd.Flags(), o)
	addOneLineFlags(cmd.Flags(), f)
	return cmd
}

// commandLine is the line that made a one-line suite, as the flags were parsed: the
// operations, then every flag given but --print-suite, in the flags' order.
func commandLine(cmd *cobra.Command, ops []string) []string {
	line := append([]string{"run"}, ops...)
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		switch {
		case fl.Name == "print-suite":
		case fl.Value.Type() == "bool" && fl.Value.String() == "true":
			line = append(line, "--"+fl.Name)
		case fl.Value.Type() == "bool" || fl.NoOptDefVal != "": // --check-data VALUE would not read VALUE
			line = append(line, "--"+fl.Name+"="+fl.Value.String())
		default:
			line = append(line, "--"+fl.Name, fl.Value.String())
		}
	})
	return line
}

// usageError is a mistake on the command line: exit status 2.
func usageError(cmd *cobra.Command, msg string) error {
	return &exitError{Code: 2, Err: errors.New(msg)}
}
