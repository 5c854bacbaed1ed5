package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skampi/skampi/htmlreport"
	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/internal/launch"
	"github.com/skampi/skampi/ops/mpi"
	"github.com/skampi/skampi/plots"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/tune"
)

// tuneOptions are skampi tune's flags.
type tuneOptions struct {
	file, out      string
	resume, force  bool
	openmpi, mpich string // the binaries per library ("": found beside this one)
	verdictOnly    bool
	stdout, stderr io.Writer
	launch         tune.Launcher // nil: exec the binaries
	catalogs       func(t *inputs.Tune) (ompi, mpich tune.Catalog)
	binaryFor      func(lib string) (string, error)
}

func newTuneCmd() *cobra.Command {
	o := &tuneOptions{}
	cmd := &cobra.Command{
		Use:   "tune -i TUNE -o DIR",
		Short: "Sweep MPI parameters, suite settings and libraries; say which is fastest, by how much, and how to apply it",
		Long: "tune runs a tune file's grid (MCA parameters, MPICH control variables, environment\n" +
			"variables, suite settings, process counts, libraries): each combination is one launch\n" +
			"with its results in DIR/<combination>/rep<N>, repeats interleaved. Parameter names and\n" +
			"values are checked against the library's own lists (ompi_info, mpivars) first, and\n" +
			"every combination's suite as skampi run would check it; a grid of more launches than\n" +
			"max_launches (default " + strconv.Itoa(inputs.DefaultMaxLaunches) + ") is refused. One tune at a time uses DIR. The\n" +
			"verdict (DIR/verdict.txt, DIR/report.html) gives the fastest setting per size range,\n" +
			"its significance, the protocol breakpoints of each setting, and the lines to apply it.\n" +
			"Built-in tune files: " + strings.Join(inputs.BuiltinTuneNames(), ", ") + ".",
		Example: "  skampi tune -i tune-eager -o tuning/\n  skampi tune -i tune-eager -o tuning/ --resume",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.file == "" || o.out == "" {
				return &exitError{Code: 2, Err: errors.New("tune: -i TUNE and -o DIR are required")}
			}
			o.stdout, o.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			err := runTune(o)
			var ue *tune.UsageError
			if errors.As(err, &ue) {
				return &exitError{Code: 2, Err: fmt.Errorf("tune: %w", err)}
			}
			return err
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&o.file, "input", "i", "", "tune file, or a built-in one ("+strings.Join(inputs.BuiltinTuneNames(), ", ")+")")
	fl.StringVarP(&o.out, "output", "o", "", "sweep directory: a subdirectory per combination and repeat, verdict.txt, report.html")
	fl.BoolVar(&o.resume, "resume", false, "continue the sweep in -o DIR: launch only what it does not hold complete")
	fl.BoolVar(&o.force, "force", false, "with --resume: even if DIR holds a sweep of another tune file")
	fl.StringVar(&o.openmpi, "openmpi-bin", "", "the Open MPI skampi (default: this one, or bin/skampi beside it)")
	fl.StringVar(&o.mpich, "mpich-bin", "", "the MPICH skampi (default: skampi-mpich beside this one; make build MPI=mpich)")
	fl.BoolVar(&o.verdictOnly, "verdict-only", false, "launch nothing: judge what -o DIR holds")
	cmd.RegisterFlagCompletionFunc("input", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return inputs.BuiltinTuneNames(), cobra.ShellCompDirectiveDefault
	})
	return cmd
}

func runTune(o *tuneOptions) error {
	switch {
	case o.resume && o.verdictOnly:
		return &tune.UsageError{Msg: "--resume launches, --verdict-only does not: give one of them"}
	case o.force && !o.resume && !o.verdictOnly:
		return &tune.UsageError{Msg: "--force takes a sweep in -o DIR that is not this one's: it goes with --resume or --verdict-only"}
	}
	t, err := inputs.LoadTune(o.file)
	if err != nil {
		return err
	}
	if o.catalogs == nil {
		o.catalogs = libraryCatalogs
	}
	ompi, mpich := o.catalogs(t)
	if err := tune.Validate(t, ompi, mpich); err != nil {
		return err
	}
	release, err := lockOut(o)
	if err != nil {
		return err
	}
	defer release()
	if o.verdictOnly {
		if err := tune.CheckDir(t, o.out, o.force); err != nil {
			return err
		}
	} else {
		launch := o.launch
		if launch == nil {
			bins := map[string]string{}
			for _, lib := range t.Libraries {
				b, err := o.binary(lib)
				if err != nil {
					return &exitError{Code: 2, Err: err}
				}
				bins[lib] = b
			}
			launch = execLauncher(bins)
		}
		n := len(t.Schedule())
		fmt.Fprintf(o.stdout, "tune %s: %d combinations x %d repeats = %d launches into %s\n", t.Name, len(t.Combinations()), t.Repeats, n, o.out)
		if err := tune.Sweep(t, tune.Options{Dir: o.out, Resume: o.resume, Force: o.force, Out: o.stdout}, launch); err != nil {
			return err
		}
	}
	results, err := tune.Load(t, o.out)
	if err != nil {
		return err
	}
	v, err := tune.Judge(t, results)
	if err != nil {
		return err
	}
	fmt.Fprintln(o.stdout)
	if err := v.Write(o.stdout); err != nil {
		return err
	}
	if err := report.WriteFile(filepath.Join(o.out, "verdict.txt"), v.Write); err != nil {
		return err
	}
	if err := tuneReport(o, t, v, results); err != nil {
		return err
	}
	fmt.Fprintf(o.stdout, "verdict: %s, report: %s, figures: %s\n", filepath.Join(o.out, "verdict.txt"), filepath.Join(o.out, "report.html"),
		filepath.Join(o.out, "figures"))
	return nil
}

// lockOut makes -o DIR (unless only judging it) and takes its lock for the whole
// command: the sweep, and the verdict written from it.
func lockOut(o *tuneOptions) (release func(), err error) {
	st, err := os.Stat(o.out)
	switch {
	case err == nil && !st.IsDir():
		return nil, &tune.UsageError{Msg: fmt.Sprintf("-o %s: not a directory", o.out)}
	case errors.Is(err, os.ErrNotExist) && o.verdictOnly:
		return nil, &tune.UsageError{Msg: fmt.Sprintf("--verdict-only: -o %s does not exist: there is no sweep to judge", o.out)}
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(o.out, 0o755); err != nil {
			return nil, fmt.Errorf("-o %s: %w", o.out, err)
		}
	case err != nil:
		return nil, fmt.Errorf("-o %s: %w", o.out, err)
	}
	return tune.Lock(o.out)
}

// tuneReport writes DIR/report.html: the verdict, and the figures with one curve per
// combination (the first repeat of each: later ones are in the verdict's statistics).
func tuneReport(o *tuneOptions, t *inputs.Tune, v *tune.Verdict, results []tune.Result) error {
	all := &report.Results{}
	labels := map[string]string{}
	var sources []report.Source
	for _, r := range results {
		for _, run := range r.Results.Runs {
			labels[run.RunID] = r.Label
		}
		one := &report.Results{}
		if len(r.Results.Runs) > 0 {
			first := r.Results.Runs[0].RunID
			one.Runs = r.Results.Runs[:1]
			for _, p := range r.Results.Points {
				if p.RunID == first {
					one.Points = append(one.Points, p)
				}
			}
			for _, f := range r.Results.Faults {
				if f.RunID == first {
					one.Faults = append(one.Faults, f)
				}
			}
		}
		all.Merge(one)
		sources = append(sources, report.Source{Label: r.Label, Name: r.Combination.Name})
	}
	figs, skipped, err := plots.Draw(all, plots.Options{Labels: labels})
	if err != nil {
		return err
	}
	// The overlays as PNG too, for slides: one curve per setting.
	if err := os.MkdirAll(filepath.Join(o.out, "figures"), 0o755); err != nil {
		return err
	}
	for _, f := range figs {
		if f.Kind == "overlay" {
			if _, err := f.Save(filepath.Join(o.out, "figures"), []string{"png"}); err != nil {
				// One figure the data cannot make costs that figure, as in skampi plot.
				skipped = append(skipped, plots.Skipped{Figure: "overlay figure " + f.Name, Reason: err.Error()})
			}
		}
	}
	var text strings.Builder
	if err := v.Write(&text); err != nil {
		return err
	}
	// The verdict first, then the overlays (one curve per setting); each run's own
	// figures would repeat them one setting at a time.
	var overlays []*plots.Figure
	for _, f := range figs {
		if f.Kind == "overlay" {
			overlays = append(overlays, f)
		}
	}
	in := htmlreport.Input{Title: "skampi tune: " + t.Name, Sources: sources, Results: all, Generated: time.Now(),
		Lead: &htmlreport.Table{Title: "Tuning verdict", Text: text.String()}}
	var more []plots.Skipped
	in.Figures, more = htmlreport.Render(overlays)
	for _, s := range append(skipped, more...) {
		warnNotDrawn(o.stderr, s)
		in.NotDrawn = append(in.NotDrawn, s.String())
	}
	return report.WriteFile(filepath.Join(o.out, "report.html"), func(w io.Writer) error { return htmlreport.Write(w, in) })
}

// binary is the skampi built against lib.
func (o *tuneOptions) binary(lib string) (string, error) {
	if o.binaryFor != nil {
		return o.binaryFor(lib)
	}
	given := map[string]string{"openmpi": o.openmpi, "mpich": o.mpich}[lib]
	self, _ := os.Executable()
	candidates := []string{given}
	if given == "" {
		if mpi.Build == lib {
			candidates = []string{self}
		}
		name := map[string]string{"openmpi": "skampi", "mpich": "skampi-mpich"}[lib]
		candidates = append(candidates, filepath.Join(filepath.Dir(self), name))
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c, nil
		}
	}
	how := map[string]string{"openmpi": "make build", "mpich": "make build MPI=mpich"}[lib]
	return "", fmt.Errorf("tune: no skampi built against %s (%s, or --%s-bin PATH)", lib, how, lib)
}

// execLauncher runs the library's skampi for a launch, its output into the launch's
// directory (skampi.out), the combination's variables over the environment.
func execLauncher(bins map[string]string) tune.Launcher {
	return func(l inputs.Launch, suite, dir string, resume bool) (int, error) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return 0, err
		}
		args := []string{"-i", suite, "-o", dir, "--np", strconv.Itoa(l.NP)}
		if resume {
			args = append(args, "--resume")
		}
		cmd := exec.Command(bins[l.Library], args...)
		cmd.Env = withEnv(os.Environ(), l.Env())
		log, err := os.OpenFile(filepath.Join(dir, "skampi.out"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return 0, err
		}
		defer log.Close()
		cmd.Stdout, cmd.Stderr = log, log
		err = cmd.Run()
		var xe *exec.ExitError
		if errors.As(err, &xe) {
			return xe.ExitCode(), nil
		}
		return 0, err
	}
}

// withEnv sets vars (NAME=VALUE) over env, without the variables of a launcher that
// started this process (a tune run inside mpirun must not pass them on).
func withEnv(env, vars []string) []string {
	set := map[string]bool{}
	for _, kv := range vars {
		k, _, _ := strings.Cut(kv, "=")
		set[k] = true
	}
	var out []string
	for _, kv := range launch.WithoutLauncher(env) {
		if k, _, _ := strings.Cut(kv, "="); !set[k] {
			out = append(out, kv)
		}
	}
	return append(out, vars...)
}

// libraryCatalogs asks the libraries the tune file tunes for their parameters.
func libraryCatalogs(t *inputs.Tune) (ompi, mpich tune.Catalog) {
	for _, p := range t.Params {
		switch {
		case p.Kind == "mca" && ompi == nil:
			if out, err := exec.Command("ompi_info", "--param", "all", "all", "--level", "9", "--parsable").Output(); err == nil {
				ompi = tune.ParseOMPIInfo(string(out))
			}
		case p.Kind == "cvar" && mpich == nil:
			if out, err := exec.Command("mpivars").Output(); err == nil {
				mpich = tune.ParseMPIVars(string(out))
			}
		}
	}
	return ompi, mpich
}
