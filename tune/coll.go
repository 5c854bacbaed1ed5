package tune

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/tune/collrules"
)

// The collective tuning sweep (skampi tune --collectives): for each collective, every
// algorithm the library offers (read from the library: CollAlgorithmsOMPI,
// CollAlgorithmsMPICH) forced one at a time against the library's own decision, each a
// tune generated here and judged as any tune is; then the library's rules file built
// from the verdicts (collrules), and an A/B of the default against the rules file.

// DefaultCollectives are what --collectives default sweeps.
var DefaultCollectives = []string{"Bcast", "Reduce", "Allreduce", "Allgather", "Alltoall", "Barrier", "Reduce_scatter", "Gather", "Scatter"}

// collSizes is the size grid of every collective but the barrier, in bytes per process.
const collSizes = `{ from = "4B", to = "1MiB", step = "*4" }`

// barrierSizes: the barrier ignores the size, so its four "sizes" are four measurements
// of one thing in every launch; the one rule wants a setting significantly faster at two
// sizes, which a single point could never be.
const barrierSizes = "[0, 1, 2, 3]"

// sizesOf is the size grid of a collective.
func sizesOf(op string) string {
	if op == "Barrier" {
		return barrierSizes
	}
	return collSizes
}

// collControl is every generated tune's control: a ping-pong no collective algorithm
// can change, so what it moves by between settings is noise.
const collControl = "ping-pong, 8 B (control)"

// collSettings are the measurements' settings, as the built-in tune files have them;
// check_data makes a broadcast, gather, scatter or all-to-all that delivers wrong bytes
// record a corrupt fault, which leaves its algorithm out (failedLaunches).
const collSettings = `[settings]
min_repetitions = 8
max_repetitions = "auto"
budget_per_point = "60ms"
max_relative_stderr = 0.05
check_data = true

[[measurement]]
name = "` + collControl + `"
op = "Pingpong_Send_Recv"
sizes = [8]
`

// Rules file names in -o DIR.
const (
	OMPIRulesFile  = "coll-rules-openmpi.conf"
	MPICHRulesFile = "coll-rules-mpich.json"
)

// collectiveNames expands "default" and checks each name against the collectives the
// libraries select algorithms for; they come back as skampi's operations name them
// (Allreduce, Reduce_scatter).
func collectiveNames(given []string) ([]string, error) {
	var out []string
	for _, g := range given {
		names := []string{g}
		if strings.EqualFold(g, "default") {
			names = DefaultCollectives
		}
		for _, n := range names {
			low := strings.ToLower(strings.TrimSpace(n))
			if low == "" {
				continue
			}
			if _, err := collrules.Lookup(low); err != nil {
				return nil, &UsageError{Msg: fmt.Sprintf("--collectives: %v", err)}
			}
			op := strings.ToUpper(low[:1]) + low[1:]
			if !slices.Contains(out, op) {
				out = append(out, op)
			}
		}
	}
	if len(out) == 0 {
		return nil, &UsageError{Msg: "--collectives: name the collectives (Allreduce,Bcast,...) or default"}
	}
	return out, nil
}

// collLibrary is the library the sweep tunes: the one named, else the one this skampi
// was built against.
func (o RunOptions) collLibrary() collrules.Library {
	if len(o.Libraries) == 1 {
		return collrules.Library(o.Libraries[0])
	}
	if o.Build == string(collrules.MPICH) {
		return collrules.MPICH
	}
	return collrules.OpenMPI
}

// collParam is the parameter that forces coll's algorithm, and its values: the
// library's default first (the baseline), then every algorithm it offers.
func collParam(lib collrules.Library, coll string, algs []collrules.Algorithm) (kind, name string, values []string) {
	if lib == collrules.OpenMPI {
		values = []string{"0"}
		for _, a := range algs {
			values = append(values, strconv.Itoa(a.ID))
		}
		return "mca", "coll_tuned_" + coll + "_algorithm", values
	}
	values = []string{"auto"}
	for _, a := range algs {
		values = append(values, a.Name)
	}
	return "cvar", "MPIR_CVAR_" + strings.ToUpper(coll) + "_INTRA_ALGORITHM", values
}

// collTune is the tune of one collective: its algorithms over the size grid at the
// process counts asked, the control beside it. Open MPI forces an algorithm only with
// dynamic rules on, which every launch sets (a parameter of one value multiplies
// nothing).
func collTune(lib collrules.Library, op string, algs []collrules.Algorithm, np []int, segs []string) (*inputs.Tune, error) {
	coll := strings.ToLower(op)
	kind, name, values := collParam(lib, coll, algs)
	sizes := sizesOf(op)
	var b strings.Builder
	fmt.Fprintf(&b, "description = %q\n", fmt.Sprintf("%s's %s algorithms (%s), the library's own decision first", lib, coll, name))
	fmt.Fprintf(&b, "libraries = [%q]\nnp = %s\ncontrols = [%q]\nrepeats = %d\n\n%s\n", lib, tomlInts(np), collControl, collRepeats(segs), collSettings)
	fmt.Fprintf(&b, "[[measurement]]\nname = %q\nop = %q\nsizes = %s\n\n[%s]\n%s = %s\n", op, op, sizes, kind, name, tomlStrings(values))
	if lib == collrules.OpenMPI {
		b.WriteString("coll_tuned_use_dynamic_rules = [\"1\"]\n")
	}
	withSegments(&b, coll, segs)
	t, err := inputs.ParseTune("tune-coll-"+coll+".toml", []byte(b.String()))
	if err != nil {
		return nil, fmt.Errorf("the generated tune of %s: %w", op, err)
	}
	keepSegments(t, coll, segs)
	return t, nil
}

func tomlInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func tomlStrings(xs []string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Quote(x)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// withAlgorithmValues is cat with the forcing parameter's values named, so the
// generated tune's values are checked against the list they came from: mpivars types
// MPICH's algorithm variables as integers and names their values only in the help.
func withAlgorithmValues(cat Catalog, name string, values []string) Catalog {
	if cat == nil {
		return nil
	}
	p, ok := cat[name]
	if !ok || len(p.Enums) > 0 {
		return cat
	}
	out := maps.Clone(cat)
	for _, v := range values {
		p.Enums = append(p.Enums, v, v)
	}
	out[name] = p
	return out
}

// failedLaunches names every combination with a launch that did not complete (a
// crash, a hang the launcher ended) or that recorded a fault (a timeout, an error
// the run caught): an algorithm that fails there is never chosen, however fast the
// points it did measure.
func failedLaunches(t *inputs.Tune, dir string) map[string]string {
	out := map[string]string{}
	for _, l := range t.Schedule() {
		if out[l.Name] != "" {
			continue
		}
		d := filepath.Join(dir, l.Dir())
		if done, _ := Complete(d); !done {
			out[l.Name] = fmt.Sprintf("never chosen: repeat %d did not complete (a crash or a hang? %s)", l.Repeat, filepath.Join(d, LogName))
			continue
		}
		res, err := loadLaunch(d)
		if err != nil {
			continue
		}
		for _, f := range res.Faults {
			if f.Fault != "interrupted" {
				out[l.Name] = fmt.Sprintf("never chosen: repeat %d recorded a fault (%s at %d B)", l.Repeat, f.Fault, f.MsgBytes)
				break
			}
		}
	}
	return out
}

// collChoice maps a verdict label of the sweep to the algorithm its combination forced.
func collChoice(results []Result, name, coll string, algs []collrules.Algorithm) func(string) (collrules.Choice, bool) {
	return func(label string) (collrules.Choice, bool) {
		for _, r := range results {
			if r.Label != label {
				continue
			}
			for _, v := range r.Combination.Values {
				if v.Param.Name != name {
					continue
				}
				for _, a := range algs {
					if v.Value == a.Name || a.ID != 0 && v.Value == strconv.Itoa(a.ID) {
						return collrules.Choice{Algorithm: a, SegSize: segSizeOf(r.Combination, coll)}, true
					}
				}
			}
		}
		return collrules.Choice{}, false
	}
}

// collSwept is one collective's sweep: its verdict and what it decided.
type collSwept struct {
	op      string
	tune    *inputs.Tune
	verdict *Verdict
	decided []collrules.Decided
}

// RunCollectives is skampi tune --collectives: a sweep per collective into
// Dir/<collective>, the library's rules file in Dir, and the A/B of the library's
// default against it in Dir/ab (abTune). A collective whose sweep fails is said and
// the others go on.
func RunCollectives(o RunOptions) error {
	if o.File != "" {
		return &UsageError{Msg: "--collectives generates its tunes: give it or -i TUNE, not both"}
	}
	if err := o.checkFlags(); err != nil {
		return err
	}
	ops, err := collectiveNames(o.Collectives)
	if err != nil {
		return err
	}
	if o.NP == nil {
		o.NP = []int{2}
	}
	for _, l := range o.Libraries {
		if l != string(collrules.OpenMPI) && l != string(collrules.MPICH) {
			return &UsageError{Msg: fmt.Sprintf("--libraries: %q: openmpi or mpich", l)}
		}
	}
	if libs := slices.Compact(slices.Sorted(slices.Values(o.Libraries))); len(libs) > 1 {
		// One command, each library's sweep, rules file and A/B in Dir/<library>.
		for _, l := range libs {
			sub := o
			sub.Dir, sub.Libraries = filepath.Join(o.Dir, l), []string{l}
			fmt.Fprintf(o.Stdout, "\ntune: the collectives on %s, into %s\n", l, sub.Dir)
			if err := RunCollectives(sub); err != nil {
				return fmt.Errorf("%s: %w", l, err)
			}
		}
		return nil
	}
	lib := o.collLibrary()
	if o.Catalogs == nil {
		o.Catalogs = libraryCatalogs
	}
	kind := map[collrules.Library]string{collrules.OpenMPI: "mca", collrules.MPICH: "cvar"}[lib]
	ompi, mpich := o.Catalogs(&inputs.Tune{Libraries: []string{string(lib)}, Params: []inputs.Param{{Kind: kind}}})
	algs := CollAlgorithmsOMPI(ompi)
	if lib == collrules.MPICH {
		algs = CollAlgorithmsMPICH(mpich)
	}
	if lib == collrules.OpenMPI && ompi == nil || lib == collrules.MPICH && mpich == nil {
		return fmt.Errorf("tune: %s's parameter list could not be read (%s), so its collective algorithms are unknown", lib,
			map[collrules.Library]string{collrules.OpenMPI: "ompi_info --param all all --level 9 --parsable", collrules.MPICH: "mpivars"}[lib])
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return fmt.Errorf("-o %s: %w", o.Dir, err)
	}
	if np := slices.Max(o.NP); np > runtime.NumCPU() && o.LauncherCmd == "" && !o.VerdictOnly {
		fmt.Fprintf(o.Stdout, "tune: np %d on this machine's %d cores oversubscribes them: the rules will describe the scheduler as much as the library (tune where the applications run: --launcher)\n", np, runtime.NumCPU())
	}
	var swept []collSwept
	var failed []string
	for _, op := range ops {
		coll := strings.ToLower(op)
		if len(algs[coll]) == 0 {
			fmt.Fprintf(o.Stdout, "tune: %s: this %s offers no algorithm to choose for it: not swept\n", op, lib)
			continue
		}
		segs := o.segValues(lib, algs[coll])
		t, err := collTune(lib, op, algs[coll], o.NP, segs)
		if err != nil {
			return err
		}
		_, name, values := collParam(lib, coll, algs[coll])
		sub := o.within(coll)
		fmt.Fprintf(o.Stdout, "\ntune: %s: the library's default and %d algorithms (%s)%s into %s\n", op, len(algs[coll]), algList(algs[coll]), segWords(segs), sub.Dir)
		v, results, err := sub.run(t, withAlgorithmValues(ompi, name, values), withAlgorithmValues(mpich, name, values), failedLaunches)
		var ue *UsageError
		if errors.As(err, &ue) {
			return err
		}
		if err != nil {
			fmt.Fprintf(o.Stdout, "tune: %s: %v: no rules for it\n", op, err)
			failed = append(failed, op)
			continue
		}
		s := collSwept{op: op, tune: t, verdict: v}
		for i := range v.Groups {
			ds, err := v.Groups[i].CollDecided(collChoice(results, name, coll, algs[coll]))
			if err != nil {
				return err
			}
			s.decided = append(s.decided, sizeBlind(lib, ds)...)
		}
		swept = append(swept, s)
	}
	if len(swept) == 0 {
		return fmt.Errorf("tune: no collective was judged (%s)", strings.Join(failed, ", "))
	}
	return o.collRules(lib, swept, algs)
}

// within is o for the sweep in Dir/name: a --resume that finds none there starts it
// (a collective added to the list, the A/B of a new rules file).
func (o RunOptions) within(name string) RunOptions {
	sub := o
	sub.Dir = filepath.Join(o.Dir, name)
	if _, err := os.Stat(filepath.Join(sub.Dir, "sweep.json")); err != nil && o.Resume {
		sub.Resume = false
	}
	return sub
}

func algList(algs []collrules.Algorithm) string {
	var s []string
	for _, a := range algs {
		s = append(s, a.String())
	}
	return strings.Join(s, ", ")
}

// sizeBlind keeps the default for a collective the library chooses by communicator
// size alone where the verdict names different algorithms at different sizes: one
// algorithm for every size is all such a rule can say.
func sizeBlind(lib collrules.Library, ds []collrules.Decided) []collrules.Decided {
	for i, d := range ds {
		c, err := collrules.Lookup(d.Collective)
		if err != nil || (lib == collrules.OpenMPI && c.OMPIKey != collrules.KeyNone) || (lib == collrules.MPICH && c.MPICHKey != collrules.KeyNone) {
			continue
		}
		seen := map[collrules.Choice]bool{}
		for _, r := range d.Ranges {
			ch := collrules.Choice{}
			if r.Recommended {
				ch = r.Winner
			}
			seen[ch] = true
		}
		if len(seen) > 1 {
			rs := slices.Clone(d.Ranges)
			for j := range rs {
				rs[j].Recommended = false
			}
			ds[i].Ranges = rs
		}
	}
	return ds
}
