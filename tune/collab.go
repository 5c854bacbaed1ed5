package tune

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/report/compare"
	"github.com/skampi/skampi/tune/collrules"
)

// The A/B: the collectives the rules change, launched with the library's own decision
// (A) and with the rules file (B), interleaved, each launch one sample of the U test
// as in every tune. Open MPI's A has dynamic rules off, so the file is not read;
// MPICH's A leaves the selection file unset.

// abTune is the A/B's tune of ops on the rules file at path.
func abTune(lib collrules.Library, ops []string, path string, np []int) (*inputs.Tune, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "description = %q\n", "the library's default against the rules file "+path)
	fmt.Fprintf(&b, "libraries = [%q]\nnp = %s\ncontrols = [%q]\n\n%s\n", lib, tomlInts(np), collControl, collSettings)
	for _, op := range ops {
		fmt.Fprintf(&b, "[[measurement]]\nname = %q\nop = %q\nsizes = %s\n\n", op, op, sizesOf(op))
	}
	if lib == collrules.OpenMPI {
		fmt.Fprintf(&b, "[mca]\ncoll_tuned_use_dynamic_rules = [\"0\", \"1\"]\ncoll_tuned_dynamic_rules_filename = [%q]\n", path)
	} else {
		fmt.Fprintf(&b, "[cvar]\nMPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE = [\"\", %q]\n", path)
	}
	t, err := inputs.ParseTune("tune-coll-ab.toml", []byte(b.String()))
	if err != nil {
		return nil, fmt.Errorf("the generated A/B tune: %w", err)
	}
	return t, nil
}

// runAB sweeps the A/B into Dir/ab-<the rules file's hash> (another file, another
// A/B) and says per collective whether the rules win, tie or lose.
func (o RunOptions) runAB(lib collrules.Library, rules collrules.Rules, swept []collSwept, path string) error {
	var ops, all []string
	for _, s := range swept {
		all = append(all, s.op)
		if _, ok := rules.Choose(strings.ToLower(s.op), 0, 0); ok {
			ops = append(ops, s.op)
		}
	}
	if len(ops) == 0 { // a file that keeps the default: read, and no slower
		ops = all
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	h := sha256.Sum256(text)
	t, err := abTune(lib, ops, path, o.NP)
	if err != nil {
		return err
	}
	sub := o.within("ab-" + hex.EncodeToString(h[:4]))
	if _, err := os.Stat(sub.Dir); err != nil && o.VerdictOnly {
		fmt.Fprintf(o.Stdout, "\nA/B: not judged: --verdict-only, and %s holds no A/B of this rules file\n", sub.Dir)
		return nil
	}
	fmt.Fprintf(o.Stdout, "\nA/B: %s with the library's default and with the rules file, interleaved, into %s\n", strings.Join(ops, ", "), sub.Dir)
	ompi, mpich := o.Catalogs(t)
	_, results, err := sub.run(t, ompi, mpich, nil)
	if err != nil {
		return err
	}
	return writeAB(o.Stdout, lib, path, results)
}

// abStats is one measurement's A/B over its sizes.
type abStats struct {
	name                            string
	logSum                          float64
	compared, faster, slower, tests int
	slowerAt                        []string
}

// writeAB judges each process count's A against its B with compare's rules (each
// launch one sample, Mann-Whitney U, corrected over every point) and says per
// collective whether the rules win (significantly faster somewhere, slower nowhere),
// tie or lose (significantly slower somewhere), by how much, and whether the runs'
// headers show the rules file in effect.
func writeAB(w io.Writer, lib collrules.Library, path string, results []Result) error {
	byNP := map[int][]Result{}
	var nps []int
	for _, r := range results {
		if _, ok := byNP[r.Combination.NP]; !ok {
			nps = append(nps, r.Combination.NP)
		}
		byNP[r.Combination.NP] = append(byNP[r.Combination.NP], r)
	}
	lost := 0
	for _, np := range nps {
		rs := byNP[np]
		if len(rs) != 2 || len(rs[0].Results.Points) == 0 || len(rs[1].Results.Points) == 0 {
			fmt.Fprintf(w, "A/B, %d processes: not judged: a side has no results\n", np)
			continue
		}
		c, err := compare.Compare([]compare.Labelled{{Label: "default", Results: listed(rs[0].Results)}, {Label: "rules", Results: listed(rs[1].Results)}}, compare.Options{})
		if err != nil {
			return fmt.Errorf("A/B at %d processes: %w", np, err)
		}
		var order []string
		stats := map[string]*abStats{}
		for _, tb := range c.Tables {
			for _, row := range tb.Rows {
				s := stats[row.Measurement]
				if s == nil {
					s = &abStats{name: row.Measurement}
					stats[row.Measurement] = s
					order = append(order, row.Measurement)
				}
				if !row.Compared() {
					continue
				}
				s.compared++
				s.logSum += math.Log(row.Ratio)
				if row.Tested {
					s.tests++
				}
				switch {
				case row.Better():
					s.faster++
				case row.Worse():
					s.slower++
					s.slowerAt = append(s.slowerAt, report.Bytes(row.MsgBytes))
				}
			}
		}
		fmt.Fprintf(w, "\nA/B, %d processes: the rules file against the library's default (%d launches a side, interleaved; U test over launches, corrected over every point)\n",
			np, repeats(rs))
		for _, name := range order {
			s := stats[name]
			if s.compared == 0 {
				fmt.Fprintf(w, "  %-26s not compared\n", name)
				continue
			}
			gm := math.Exp(s.logSum / float64(s.compared))
			how := fmt.Sprintf("%.2f× faster (geometric mean over %d sizes), significantly faster at %d, slower at %d of %d tested",
				1/gm, s.compared, s.faster, s.slower, s.tests)
			switch {
			case name == collControl:
				fmt.Fprintf(w, "  %-26s the control (no rule touches it): %s\n", name, how)
			case s.slower > 0:
				lost++
				fmt.Fprintf(w, "  %-26s the rules LOSE (slower at %s): %s\n", name, strings.Join(s.slowerAt, ", "), how)
			case s.faster > 0:
				fmt.Fprintf(w, "  %-26s the rules win: %s\n", name, how)
			default:
				fmt.Fprintf(w, "  %-26s tie: %s\n", name, how)
			}
		}
		fmt.Fprintf(w, "  %s\n", inEffect(lib, path, rs[1]))
	}
	if lost > 0 {
		fmt.Fprintf(w, "\nthe rules lose somewhere (above): leave those collectives to the library, or sweep again with more repeats before using the file\n")
	}
	return nil
}

// inEffect says what the B runs' headers (MPI_T) recorded of the variables that make
// the library read the rules file. MPICH's MPI_T reads every string control variable as
// empty, set or not (4.0.2 here; a C program reading MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE
// through MPI_T gets "" as well): where MPI_T shows a variable empty and the run's own
// recorded environment sets it to the file, the environment is the evidence, and it is
// said so (MPICH reads the file in MPI_Init, and stops there on one it cannot parse).
func inEffect(lib collrules.Library, path string, b Result) string {
	want := map[string]string{}
	for _, kv := range collrules.ApplyEnv(lib, path) {
		k, v, _ := strings.Cut(kv, "=")
		want[strings.TrimPrefix(k, "OMPI_MCA_")] = v
	}
	envName := func(k string) string {
		if lib == collrules.OpenMPI {
			return "OMPI_MCA_" + k
		}
		return k
	}
	said, ok, byEnv := 0, 0, 0
	var bad []string
	for _, run := range b.Results.Runs {
		if len(run.MPIControlVars) == 0 {
			continue
		}
		said++
		good, env := true, false
		for k, v := range want {
			got, has := run.MPIControlVars[k]
			switch {
			case has && (got == v || v == "1" && strings.EqualFold(got, "true")):
			case has && got == "" && v != "" && run.Env[envName(k)] == v:
				env = true // MPI_T shows strings empty; the run's environment set it
			default:
				good = false
				bad = append(bad, fmt.Sprintf("%s=%q", k, got))
			}
		}
		if good {
			ok++
			if env {
				byEnv++
			}
		}
	}
	switch {
	case said == 0:
		return "in effect: the run headers do not say (no MPI_T control variables recorded)"
	case ok == said && byEnv > 0:
		return fmt.Sprintf("in effect: the rules file set in all %d runs with it, by the environment each run recorded: this library's MPI_T shows string control variables empty (in %d of them)", said, byEnv)
	case ok == said:
		return fmt.Sprintf("in effect: MPI_T shows the rules file set in all %d runs with it", said)
	}
	return fmt.Sprintf("NOT in effect in %d of %d runs with the rules file: MPI_T shows %s", said-ok, said, strings.Join(bad, ", "))
}
