package main

import (
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/cli"
	"github.com/skampi/skampi/internal/numflag"
	"github.com/skampi/skampi/job"
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

// addOneLineFlags binds the flags of the one-line form: sizes, methods, OSU's options
// and every suite setting as --key (the suite key with dashes), read back from the
// flags given (inputs.Flag).
func addOneLineFlags(fs *pflag.FlagSet, f *inputs.LineFlags) {
	fs.StringVar(&f.Sizes, "sizes", "", `message sizes: a range "1B:4MiB" (with --step) or a list "1,8,64KiB" (default 1B:4MiB)`)
	fs.StringVar(&f.Step, "step", "", `step of a range of sizes: "*2" (default), "*4", "+1KiB"`)
	fs.StringVar(&f.Methods, "method", "", "timing methods, comma-separated, for the operations that have them (every collective: osu; Bcast: barrier,sync,rounds,ack; MPI-IO writes: imb)")
	fs.BoolVar(&f.Breakdown, "breakdown", false, "OpenSHMEM puts and gets named (Shmem_Put, Shmem_Put_Nbi, ...): the table shows their breakdown (post, wait, overlap) instead of their time as latency; the record has both either way")
	fs.BoolVar(&f.Print, "print-suite", false, "print the suite the command line makes, as TOML, and stop; with -i SUITE alone, that suite's TOML (a built-in to save and edit)")
	fs.StringVarP(&f.OSU.MessageSize, "message-size", "m", "", "OSU's -m [MIN:]MAX: sizes from MIN (default: one element) to MAX by powers of two; units as --sizes")
	fs.StringVar(&f.OSU.Iterations, "osu-iterations", "", "OSU's -i N (with operations named, -i N is this): iterations = N, one timed loop of N operations per repetition")
	fs.StringVarP(&f.OSU.Warmup, "osu-warmup", "x", "", "OSU's -x N: at least N untimed operations first (warmup repetitions of the loop)")
	fs.StringVarP(&f.OSU.Window, "window-size", "W", "", "OSU's -W N: window = N")
	fs.BoolVarP(&f.OSU.Validate, "validation", "c", false, "OSU's -c: check_data = true")
	fs.StringVarP(&f.OSU.Type, "type", "T", "", "OSU's -T mpi_char|mpi_int|mpi_float: datatype = char, int or float (collectives)")
	fs.StringVarP(&f.Accel, "accel", "d", "", "OSU's -d cuda|rocm|...: refused, with the reason (skampi measures host memory only)")
	for _, st := range inputs.SettingList() {
		fs.String(inputs.SettingFlag(st.Key), "", "suite setting "+st.Key+": "+st.Doc)
		if st.Key == "check_data" {
			fs.Lookup(inputs.SettingFlag(st.Key)).NoOptDefVal = "true"
		}
	}
}

// runCommand completes a run's command with what the flags do not hold: the build, the
// process's command line and environment, the flags given and cmd's output.
func runCommand(cmd *cobra.Command, c *job.Command) job.Command {
	c.Version, c.Args, c.Env = versionString(), os.Args[1:], os.Environ()
	c.NPSet = cmd.Flags().Changed("np")
	c.Stdout, c.Stderr, c.Given = cmd.OutOrStdout(), cmd.ErrOrStderr(), cli.Given(cmd.Flags())
	return *c
}

func newRunCmd() *cobra.Command {
	c := &job.Command{}
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
			c.Ops = args
			return job.RunCommand(runCommand(cmd, c))
		},
	}
	addRunFlags(cmd.Flags(), &c.Options)
	addOneLineFlags(cmd.Flags(), &c.Line)
	return cmd
}
