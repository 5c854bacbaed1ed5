package tune

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/tune/collrules"
)

// collRules writes the library's rules file from the sweeps' verdicts, says what it
// holds and how to use it, and runs the A/B that checks it (abTune); everything it
// says is also in Dir/coll-summary.txt.
func (o RunOptions) collRules(lib collrules.Library, swept []collSwept, algs map[string][]collrules.Algorithm) error {
	var sum bytes.Buffer
	out := o.Stdout
	o.Stdout = io.MultiWriter(out, &sum)
	defer func() {
		if err := report.WriteFile(filepath.Join(o.Dir, "coll-summary.txt"), func(w io.Writer) error { _, err := w.Write(sum.Bytes()); return err }); err != nil {
			fmt.Fprintf(out, "tune: %v\n", err)
		}
	}()
	var all []collrules.Decided
	fmt.Fprintf(o.Stdout, "\ncollective rules for %s (per collective and process count: the algorithm to use, or the library's default where none is significantly faster):\n", lib)
	for _, s := range swept {
		all = append(all, s.decided...)
		writeDecided(o.Stdout, s, algs[strings.ToLower(s.op)])
	}
	rules, err := collrules.FromVerdict(lib, all)
	if err != nil {
		return err
	}
	if rules.Empty() {
		fmt.Fprintf(o.Stdout, "\nno algorithm beats the library's default significantly anywhere: the rules keep the default everywhere\n")
	}
	path, err := o.writeRules(lib, rules, algs)
	if err != nil || path == "" {
		return err
	}
	writeUse(o.Stdout, lib, path)
	if rules.Empty() {
		fmt.Fprintf(o.Stdout, "\nA/B: the rules keep the default: the A/B checks that the library reads the file and that it costs nothing\n")
	}
	return o.runAB(lib, rules, swept, path)
}

// writeDecided says what one collective's verdict decided, range by range.
func writeDecided(w io.Writer, s collSwept, algs []collrules.Algorithm) {
	for _, g := range s.verdict.Groups {
		fmt.Fprintf(w, "  %s, %d processes:\n", s.op, g.NP)
		if g.NoBaseline {
			fmt.Fprintf(w, "    the default: %s\n", g.Recommendation.Why)
			continue
		}
		for _, m := range g.Missing {
			fmt.Fprintf(w, "    not judged: %s\n", m)
		}
		var d collrules.Decided
		for _, x := range s.decided {
			if x.NP == g.NP && strings.EqualFold(x.Collective, s.op) {
				d = x
			}
		}
		for _, m := range g.Measurements {
			if m.Control {
				continue
			}
			for _, r := range m.Ranges {
				kept := !r.Recommended
				for _, x := range d.Ranges {
					if x.From == r.From && x.To == r.To && r.Recommended && !x.Recommended {
						kept, r.Kept = true, "the library chooses its algorithm by communicator size alone, and no one algorithm won at every size"
					}
				}
				if kept {
					fmt.Fprintf(w, "    %-18s the library's default (%s)\n", sizeRange(r.From, r.To), r.Kept)
					continue
				}
				name := r.Winner
				for _, x := range d.Ranges {
					if x.From == r.From && x.To == r.To {
						name = x.Winner.String()
					}
				}
				fmt.Fprintf(w, "    %-18s %s, %.2f× faster than the default (significant at %d of %d sizes)\n", sizeRange(r.From, r.To), name, r.Factor, r.Significant, r.Sizes)
			}
		}
	}
}

// writeRules writes the library's rules file in Dir and says where; "" when it could
// not be written (MPICH's own tree not found), which is said.
func (o RunOptions) writeRules(lib collrules.Library, rules collrules.Rules, algs map[string][]collrules.Algorithm) (string, error) {
	if lib == collrules.OpenMPI {
		f, err := rules.OMPIFile()
		if err != nil {
			return "", err
		}
		if err := f.Check(algs); err != nil {
			return "", fmt.Errorf("the rules file would not suit this Open MPI: %w", err)
		}
		path, err := filepath.Abs(filepath.Join(o.Dir, OMPIRulesFile))
		if err != nil {
			return "", err
		}
		if err := report.WriteFile(path, func(w io.Writer) error { return f.Write(w, algs) }); err != nil {
			return "", err
		}
		fmt.Fprintf(o.Stdout, "\nOpen MPI dynamic rules file: %s\n", path)
		return path, nil
	}
	read := o.MPICHSelection
	bin, berr := o.binary(string(collrules.MPICH))
	if read == nil {
		read = mpichSelection
		if berr != nil {
			fmt.Fprintf(o.Stdout, "\nMPICH's selection file: not written: %v\n", berr)
			return "", nil
		}
	}
	ml, err := read(bin)
	if err != nil {
		fmt.Fprintf(o.Stdout, "\nMPICH's selection file: not written: MPICH's own selection tree, which the rules are grafted into, could not be read: %v\n", err)
		return "", nil
	}
	tree, err := rules.MPICHTree(ml)
	if err != nil {
		fmt.Fprintf(o.Stdout, "\nMPICH's selection file: not written: %v\n", err)
		return "", nil
	}
	path, err := filepath.Abs(filepath.Join(o.Dir, MPICHRulesFile))
	if err != nil {
		return "", err
	}
	if err := report.WriteFile(path, func(w io.Writer) error { _, err := w.Write(tree.MarshalIndent()); return err }); err != nil {
		return "", err
	}
	fmt.Fprintf(o.Stdout, "\nMPICH collective selection file: %s\n", path)
	return path, nil
}

// writeUse prints the lines that make the library read the rules file.
func writeUse(w io.Writer, lib collrules.Library, path string) {
	env := collrules.ApplyEnv(lib, path)
	fmt.Fprintf(w, "use it:\n")
	if lib == collrules.OpenMPI {
		fmt.Fprintf(w, "  mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename %s ...\n", quoteWord(path))
		fmt.Fprintf(w, "  or in $HOME/.openmpi/mca-params.conf: coll_tuned_use_dynamic_rules = 1 and coll_tuned_dynamic_rules_filename = %s\n", path)
	} else {
		fmt.Fprintf(w, "  mpiexec -genv MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE %s ...\n", quoteWord(path))
	}
	var words []string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		words = append(words, k+"="+quoteWord(v))
	}
	fmt.Fprintf(w, "  or in the environment: export %s\n", strings.Join(words, " "))
}

// libmpi matches the MPI library in ldd's lines: "libmpich.so.12 => /usr/lib/...".
var libmpi = regexp.MustCompile(`^\s*(libmpi(ch)?\.so[.0-9]*)\s+=>\s+(\S+)`)

// mpichSelection reads MPICH's own selection tree from the libmpi the MPICH skampi
// is linked with (ldd says which): MPICH compiles its JSON tree into the library.
func mpichSelection(bin string) (collrules.MPICHLibrary, error) {
	out, err := exec.Command("ldd", bin).Output()
	if err != nil {
		return collrules.MPICHLibrary{}, fmt.Errorf("ldd %s: %v", bin, err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if m := libmpi.FindStringSubmatch(line); m != nil {
			data, err := os.ReadFile(m[3])
			if err != nil {
				return collrules.MPICHLibrary{}, err
			}
			ml, err := collrules.ReadMPICHLibrary(data)
			if err != nil {
				return ml, fmt.Errorf("%s: %w", m[3], err)
			}
			return ml, nil
		}
	}
	return collrules.MPICHLibrary{}, fmt.Errorf("ldd %s names no libmpi or libmpich", bin)
}
