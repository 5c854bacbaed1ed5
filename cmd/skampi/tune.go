package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/cli"
	"github.com/skampi/skampi/internal/numflag"
	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/tune"
)

func newTuneCmd() *cobra.Command {
	o := tune.RunOptions{Build: mpi.Build}
	var segs []string
	cmd := &cobra.Command{
		Use:   "tune {-i TUNE | --collectives LIST} -o DIR",
		Short: "Sweep MPI parameters, suite settings and libraries; say which is fastest, by how much, and how to apply it",
		Long: "tune runs a tune file's grid (MCA parameters, MPICH control variables, environment\n" +
			"variables, suite settings, process counts, libraries): each combination is one launch\n" +
			"with its results in DIR/<combination>/rep<N>, repeats interleaved. Parameter names and\n" +
			"values are checked against the library's own lists (ompi_info, mpivars) first, and\n" +
			"every combination's suite as skampi run would check it; a grid of more launches than\n" +
			"max_launches (default " + strconv.Itoa(inputs.DefaultMaxLaunches) + ") is refused. One tune at a time uses DIR. The\n" +
			"verdict (DIR/verdict.txt, DIR/report.html) gives the fastest setting per size range,\n" +
			"its significance and whether one rule recommends it (significantly faster at two sizes\n" +
			"or more, beyond the controls' noise), the protocol breakpoints of each setting, and the\n" +
			"recommendation built from those ranges with the lines that apply each setting.\n" +
			"Built-in tune files: " + strings.Join(inputs.BuiltinTuneNames(), ", ") + ".",
		Example: "  skampi tune -i tune-eager -o tuning/\n  skampi tune -i tune-eager -o tuning/ --resume\n  skampi tune --collectives default --np 4 -o colls/",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if o.SegmentSizes, err = tune.ParseSegmentSizes(segs); err != nil {
				return cli.UsageError(fmt.Errorf("tune: --segment-sizes: %w", err))
			}
			if err := o.Valid(); err != nil {
				return cli.UsageError(fmt.Errorf("tune: %w", err))
			}
			o.Stdout, o.Stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			err = tune.Run(o)
			var ue *tune.UsageError
			if errors.As(err, &ue) {
				return cli.UsageError(fmt.Errorf("tune: %w", err))
			}
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&o.File, "input", "i", "", "tune file, or a built-in one ("+strings.Join(inputs.BuiltinTuneNames(), ", ")+")")
	fl.StringVarP(&o.Dir, "output", "o", "", "sweep directory: a subdirectory per combination and repeat, verdict.txt, report.html")
	fl.BoolVar(&o.Resume, "resume", false, "continue the sweep in -o DIR: launch only what it does not hold complete")
	fl.BoolVar(&o.Force, "force", false, "with --resume: even if DIR holds a sweep of another tune file")
	fl.StringVar(&o.OpenMPIBin, "openmpi-bin", "", "the Open MPI skampi (default: this one, or bin/skampi beside it)")
	numflag.Ints(fl, &o.NP, "np", nil, 1, inputs.MaxTuneNP, "process counts to sweep instead of the tune file's np (e.g. --np 2,4 where the file asks for 8 and the machine has 2 cores)")
	fl.StringVar(&o.LauncherCmd, "launcher", "", `the launch command of every launch, as you would type it ("srun --mpi=pmix -n {np}", "mpirun --hostfile hosts -np {np}", "scripts/cluster.sh mpirun -np {np}"); {np} is the combination's process count (without it, -np N is appended); split into words as sh splits them (quotes, backslashes) but run without a shell, so $VAR, $(...), ;, |, && and redirections are refused; default: skampi launches itself`)
	fl.StringVar(&o.MPICHBin, "mpich-bin", "", "the MPICH skampi (default: skampi-mpich beside this one; make build MPI=mpich)")
	fl.StringSliceVar(&o.Collectives, "collectives", nil, "instead of -i: sweep every algorithm the library offers for these collectives (\"default\": "+strings.Join(tune.DefaultCollectives, ",")+"), write its rules file in -o DIR and check it with an A/B (docs/tuning.md)")
	fl.StringSliceVar(&o.Libraries, "libraries", nil, "with --collectives: the libraries to tune (openmpi, mpich), each with its skampi binary, each into -o DIR/<library> when two (default: the one this skampi is built against)")
	fl.BoolVar(&o.VerdictOnly, "verdict-only", false, "launch nothing: judge what -o DIR holds")
	fl.StringSliceVar(&segs, "segment-sizes", nil, "with --collectives: the segment sizes to force beside each Open MPI algorithm of a collective that takes one (default 0,4KiB,16KiB,64KiB; 0 is no segmentation; \"0\" alone sweeps none); the library's own decision runs once")
	cmd.RegisterFlagCompletionFunc("input", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return inputs.BuiltinTuneNames(), cobra.ShellCompDirectiveDefault
	})
	return cmd
}
