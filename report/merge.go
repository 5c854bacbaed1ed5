package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skampi/skampi/record"
)

// Source is one input of a verb that reads results: a file, a run's directory (its
// results.jsonl), or "-" for stdin, with an optional label ("openmpi=a.jsonl") that
// names it in tables and figures.
type Source struct {
	Label string
	Name  string
}

// ParseSources reads verb arguments; no argument means stdin. A label is what stands
// before the first "=" when the rest names an existing file or "-" (a file name may
// itself contain "=").
func ParseSources(args []string) []Source {
	if len(args) == 0 {
		return []Source{{Label: "stdin", Name: "-"}}
	}
	out := make([]Source, len(args))
	for i, a := range args {
		out[i] = Source{Label: baseLabel(a), Name: a}
		if label, name, ok := strings.Cut(a, "="); ok && label != "" {
			if _, err := os.Stat(a); err != nil {
				out[i] = Source{Label: label, Name: name}
			}
		}
	}
	return out
}

func baseLabel(name string) string {
	if name == "-" {
		return "stdin"
	}
	return strings.TrimSuffix(strings.TrimRight(name, "/"), ".jsonl")
}

// ResultsFile is the file a run writes its records to in its -o directory.
const ResultsFile = "results.jsonl"

// file is the file a source names: a directory stands for its results.jsonl, since that
// is what `skampi run -o DIR` leaves there.
func (s Source) file() (string, error) {
	st, err := os.Stat(s.Name)
	if err != nil || !st.IsDir() {
		return s.Name, nil // opening it says what is wrong
	}
	f := filepath.Join(s.Name, ResultsFile)
	if _, err := os.Stat(f); err != nil {
		return "", fmt.Errorf("%s is a directory without %s: name a result file, or the -o directory of a run", s.Name, ResultsFile)
	}
	return f, nil
}

// Load reads one source with the validating reader, or with ReadSKO when it is a
// SKaMPI .sko file (by its extension, or content starting with '#' or "begin result").
// Records that break the schema are left out and, with torn or foreign lines, described
// in Problems: they never hide the rest. The error refuses the whole source: it cannot
// be read, it is not a result file, or it is over a limit (a *Problem; what was read
// before a limit is returned with it).
func (s Source) Load(stdin io.Reader) (*Results, error) {
	r := stdin
	if s.Name != "-" {
		name, err := s.file()
		if err != nil {
			return nil, err
		}
		s.Name = name
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReaderSize(r, 1<<16)
	read := Read
	if isSKO(s.Name, br) {
		read = ReadSKO
	}
	return read(br, s.Name)
}

// PrintProblems writes a source's problems for a verb that reads on despite them: at
// most max lines, then how many more there are and where to see them all.
func PrintProblems(w io.Writer, ps []Problem, max int) {
	for i, p := range ps {
		if i == max {
			fmt.Fprintf(w, "skampi: %d more problem(s) in the input; `skampi validate` lists them\n", len(ps)-max)
			return
		}
		fmt.Fprintln(w, "skampi:", p)
	}
}

// LoadReporting is LoadAll with the input's problems reported to w (the first
// MaxProblemLines of them): what the verbs that read results do first.
func LoadReporting(sources []Source, stdin io.Reader, w io.Writer) (*Results, error) {
	res, err := LoadAll(sources, stdin)
	if err != nil {
		return nil, err
	}
	PrintProblems(w, res.Problems, MaxProblemLines)
	return res, nil
}

// LoadAll reads every source and merges them by run id: a run that appears in several
// files (a copy, a resumed directory) counts once, and so does each of its records.
func LoadAll(sources []Source, stdin io.Reader) (*Results, error) {
	all, _, err := LoadWithLabels(sources, stdin)
	return all, err
}

// LoadWithLabels is LoadAll that also says where each run came from: run id to the
// label of the first source holding it (its header or, for a file without headers, its
// records), as given (`old=a.jsonl`: "old"), so that merged runs keep their sides.
func LoadWithLabels(sources []Source, stdin io.Reader) (*Results, map[string]string, error) {
	all := &Results{}
	labels := map[string]string{}
	label := func(id, l string) {
		if _, ok := labels[id]; !ok {
			labels[id] = l
		}
	}
	for _, s := range sources {
		res, err := s.Load(stdin)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range res.Runs {
			label(r.RunID, s.Label)
		}
		for _, p := range res.Points {
			label(p.RunID, s.Label)
		}
		for _, f := range res.Faults {
			label(f.RunID, s.Label)
		}
		all.Merge(res)
	}
	return all, labels, nil
}

// Merge adds other's records that r does not hold yet: a record already there (the
// same run in another file, a copy, a resumed directory) counts once.
func (r *Results) Merge(other *Results) {
	runs := map[string]bool{}
	for _, run := range r.Runs {
		runs[run.RunID] = true
	}
	have := map[recordID]bool{}
	for _, p := range r.Points {
		have[recordID{run: p.RunID, index: p.PointIndex}] = true
	}
	for i := range r.Faults {
		have[faultID(&r.Faults[i])] = true
	}
	for _, run := range other.Runs {
		if !runs[run.RunID] {
			runs[run.RunID] = true
			r.Runs = append(r.Runs, run)
		}
	}
	for _, p := range other.Points {
		if k := (recordID{run: p.RunID, index: p.PointIndex}); !have[k] {
			have[k] = true
			r.Points = append(r.Points, p)
		}
	}
	for i, f := range other.Faults {
		if k := faultID(&other.Faults[i]); !have[k] {
			have[k] = true
			r.Faults = append(r.Faults, f)
		}
	}
	steps := map[stepID]bool{}
	for i := range r.Steps {
		steps[stepID{r.Steps[i].RunID, r.Steps[i].Key()}] = true
	}
	for i, st := range other.Steps {
		if k := (stepID{st.RunID, other.Steps[i].Key()}); !steps[k] {
			steps[k] = true
			r.Steps = append(r.Steps, st)
		}
	}
	r.Problems = append(r.Problems, other.Problems...)
}

// stepID tells a run's step records apart: one per curve and upper size.
type stepID struct {
	run string
	key record.Key
}

// recordID tells a run's records apart. A point of the plan has one record per run,
// the point or the fault that stands in for it, known by its index. A fault of no point
// (index 0: a phase such as clock synchronisation, writing the results, the pair probe,
// start-up or finalize, or the launcher's own) is not one of a kind: a run may hold
// several (the schema allows them), and one is told from another by what it says.
type recordID struct {
	run   string
	index int
	phase string // a phase fault: its phase, op, kind, time and detail
}

func faultID(f *record.Fault) recordID {
	if f.PointIndex != 0 {
		return recordID{run: f.RunID, index: f.PointIndex}
	}
	return recordID{run: f.RunID, phase: strings.Join([]string{f.Measurement, f.Op, f.Fault,
		f.Time.UTC().Format(time.RFC3339Nano), f.Detail}, "\x00")}
}

// Run finds a run header by id.
func (r *Results) Run(id string) (*record.Run, bool) {
	for i := range r.Runs {
		if r.Runs[i].RunID == id {
			return &r.Runs[i], true
		}
	}
	return nil, false
}
