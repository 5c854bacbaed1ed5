package tune

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/tune/collrules"
)

// RunOptions are skampi tune's: the tune file, the sweep directory, and what to do
// with a sweep there; the output and, for tests, the launches are injected.
type RunOptions struct {
	File, Dir     string
	Resume, Force bool
	VerdictOnly   bool // launch nothing: judge what Dir holds
	// OpenMPIBin, MPICHBin are the skampi binaries per library ("": found beside this
	// one); Build is the library this binary was built against (mpi.Build).
	OpenMPIBin, MPICHBin, Build string
	Stdout, Stderr              io.Writer
	Launch                      Launcher // nil: exec the binaries
	// LauncherCmd: the launch command as the user gives it ("srun --mpi=pmix -n {np}",
	// "mpirun --hostfile hosts -np {np}"); {np} is the combination's process count, and
	// without it "-np N" is appended. "": skampi launches itself.
	LauncherCmd string
	// NP replaces the tune file's process counts (--np; nil: the file's).
	NP []int
	// Catalogs gives the libraries' parameter lists (nil: ask ompi_info and mpivars).
	Catalogs func(t *inputs.Tune) (ompi, mpich Catalog)
	// Collectives: instead of a tune file, the collective tuning sweep of these
	// collectives (RunCollectives; "default" is DefaultCollectives).
	Collectives []string
	// Libraries are the libraries the collective sweep tunes, each through its own skampi
	// (OpenMPIBin, MPICHBin), each into Dir/<library> when there are two (nil: the one
	// this skampi is built against).
	Libraries []string
	// MPICHSelection reads the MPICH library's own selection tree, which its rules
	// file is grafted into (nil: from the libmpi the MPICH skampi is linked with).
	MPICHSelection func(bin string) (collrules.MPICHLibrary, error)
	// SegmentSizes: the segment sizes the collective sweep forces beside each Open MPI
	// algorithm (--segment-sizes; nil: DefaultSegmentSizes; [0]: none swept).
	SegmentSizes []int64
}

// Run is skampi tune: it checks the tune file against the libraries, sweeps its grid
// into Dir (unless VerdictOnly), and writes the verdict to Stdout and Dir/verdict.txt,
// the report to Dir/report.html and the overlays to Dir/figures. With Collectives it
// is the collective tuning sweep instead (RunCollectives). A mistake of the command
// line is a *UsageError.
func Run(o RunOptions) error {
	if len(o.Collectives) > 0 {
		return RunCollectives(o)
	}
	if err := o.checkFlags(); err != nil {
		return err
	}
	t, err := inputs.LoadTuneNP(o.File, o.NP)
	if err != nil {
		return err
	}
	if o.Catalogs == nil {
		o.Catalogs = libraryCatalogs
	}
	ompi, mpich := o.Catalogs(t)
	v, _, err := o.run(t, ompi, mpich, nil)
	if err != nil {
		return err
	}
	return v.judgedNothing()
}

func (o RunOptions) checkFlags() error {
	switch {
	case o.Resume && o.VerdictOnly:
		return &UsageError{Msg: "--resume launches, --verdict-only does not: give one of them"}
	case o.Force && !o.Resume && !o.VerdictOnly:
		return &UsageError{Msg: "--force takes a sweep in -o DIR that is not this one's: it goes with --resume or --verdict-only"}
	}
	return nil
}

// run checks t against the catalogues, sweeps it into o.Dir (unless VerdictOnly) and
// judges it, writing the verdict, report and figures there. exclude (nil: none) names
// the combinations of the sweep in dir that are not to be judged, and why.
func (o RunOptions) run(t *inputs.Tune, ompi, mpich Catalog, exclude func(t *inputs.Tune, dir string) map[string]string) (*Verdict, []Result, error) {
	if err := Validate(t, ompi, mpich); err != nil {
		return nil, nil, err
	}
	// What launches (the launch command's words, what the families need of this
	// machine, such as the directories MPI-IO writes in) is checked before -o DIR is
	// made.
	var prefix []string
	var err error
	if !o.VerdictOnly {
		if prefix, err = launcherPrefix(o.LauncherCmd); err != nil {
			return nil, nil, err
		}
		if err := t.CheckStart(); err != nil {
			return nil, nil, err
		}
	}
	release, err := lockOut(o)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	if o.VerdictOnly {
		if err := CheckDir(t, o.Dir, o.Force); err != nil {
			return nil, nil, err
		}
	} else {
		launcher, command, err := o.launcher(t, prefix)
		if err != nil {
			return nil, nil, err
		}
		n := len(t.Schedule())
		fmt.Fprintf(o.Stdout, "tune %s: %d combinations x %d repeats = %d launches into %s\n", t.Name, len(t.Combinations()), t.Repeats, n, o.Dir)
		so := Options{Dir: o.Dir, Resume: o.Resume, Force: o.Force, Out: o.Stdout, Command: command}
		if err := Sweep(t, so, launcher); err != nil {
			return nil, nil, err
		}
	}
	results, err := Load(t, o.Dir)
	if err != nil {
		return nil, nil, err
	}
	if exclude != nil {
		why := exclude(t, o.Dir)
		for i := range results {
			results[i].Excluded = why[results[i].Combination.Name]
		}
	}
	v, err := Judge(t, results)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintln(o.Stdout)
	if err := v.Write(o.Stdout); err != nil {
		return nil, nil, err
	}
	if err := report.WriteFile(filepath.Join(o.Dir, "verdict.txt"), v.Write); err != nil {
		return nil, nil, err
	}
	if err := writeReport(o.Dir, o.Stderr, t, v, results); err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(o.Stdout, "verdict: %s, report: %s, figures: %s\n", filepath.Join(o.Dir, "verdict.txt"), filepath.Join(o.Dir, "report.html"),
		filepath.Join(o.Dir, "figures"))
	return v, results, nil
}

// launcher is what runs the sweep's launches (the injected one, else the libraries'
// skampi binaries under --launcher) and, when it is this package's, the command
// line of each, to name a launch that fails.
func (o RunOptions) launcher(t *inputs.Tune, prefix []string) (Launcher, func(inputs.Launch, string, string, bool) []string, error) {
	if o.Launch != nil {
		return o.Launch, nil, nil
	}
	bins := map[string]string{}
	for _, lib := range t.Libraries {
		b, err := o.binary(lib)
		if err != nil {
			return nil, nil, err
		}
		bins[lib] = b
	}
	command := func(l inputs.Launch, suite, dir string, resume bool) []string {
		return launchArgs(prefix, bins[l.Library], l, suite, dir, resume)
	}
	return execLauncher(bins, prefix), command, nil
}

// lockOut makes Dir (unless only judging it) and takes its lock for the whole
// command: the sweep, and the verdict written from it.
func lockOut(o RunOptions) (release func(), err error) {
	st, err := os.Stat(o.Dir)
	switch {
	case err == nil && !st.IsDir():
		return nil, &UsageError{Msg: fmt.Sprintf("-o %s: not a directory", o.Dir)}
	case errors.Is(err, os.ErrNotExist) && o.VerdictOnly:
		return nil, &UsageError{Msg: fmt.Sprintf("--verdict-only: -o %s does not exist: there is no sweep to judge", o.Dir)}
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(o.Dir, 0o755); err != nil {
			return nil, fmt.Errorf("-o %s: %w", o.Dir, err)
		}
	case err != nil:
		return nil, fmt.Errorf("-o %s: %w", o.Dir, err)
	}
	return Lock(o.Dir)
}

// binary is the skampi built against lib: the one given, else this one if it was
// built against lib, else the library's name beside this one.
func (o RunOptions) binary(lib string) (string, error) {
	given := map[string]string{"openmpi": o.OpenMPIBin, "mpich": o.MPICHBin}[lib]
	self, _ := os.Executable()
	candidates := []string{given}
	if given == "" {
		if o.Build == lib {
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
	return "", &UsageError{Msg: fmt.Sprintf("no skampi built against %s (%s, or --%s-bin PATH)", lib, how, lib)}
}

// libraryCatalogs asks the libraries the tune file tunes for their parameters.
func libraryCatalogs(t *inputs.Tune) (ompi, mpich Catalog) {
	for _, p := range t.Params {
		switch {
		case p.Kind == "mca" && ompi == nil:
			if out, err := exec.Command("ompi_info", "--param", "all", "all", "--level", "9", "--parsable").Output(); err == nil {
				ompi = ParseOMPIInfo(string(out))
			}
		case p.Kind == "cvar" && mpich == nil:
			if out, err := exec.Command("mpivars").Output(); err == nil {
				mpich = ParseMPIVars(string(out))
			}
		}
	}
	return ompi, mpich
}
