package job

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
	"github.com/skampi/skampi/runner"
)

// state is what a results directory holds, as far as resuming is concerned.
type state struct {
	res  *report.Results
	done record.KeySet // measured, or faulted by a timeout or crash
	// times: the estimate of every measured point by key without ranks, for refinement
	// to choose the sizes it chose before.
	times map[record.Key]runner.Estimate
	steps record.KeySet // the steps refinement recorded, not measured again
}

// loadState reads dir/results.jsonl; a missing file is an empty state.
func loadState(dir string) (*state, error) {
	st := &state{res: &report.Results{}}
	if dir == "" {
		return st, nil
	}
	f, err := os.Open(filepath.Join(dir, "results.jsonl"))
	if os.IsNotExist(err) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	defer f.Close()
	if st.res, err = report.Read(f, f.Name()); err != nil {
		return st, err
	}
	st.times = map[record.Key]runner.Estimate{}
	for i := range st.res.Points {
		p := &st.res.Points[i]
		st.done.Add(p.Key())
		if p.Reps > 0 {
			st.times[p.Key().WithoutRanks()] = runner.Estimate{TimeS: p.TimeS, StderrS: p.StderrS}
		}
	}
	for i := range st.res.Steps {
		st.steps.Add(st.res.Steps[i].Key())
	}
	for i := range st.res.Faults {
		if st.res.Faults[i].Skips() {
			st.done.Add(st.res.Faults[i].Key())
		}
	}
	return st, nil
}

// resumeState is the set of points a resumed run leaves alone, from one read of the
// results, after checkResume's checks; problems in the file (a torn line) are reported
// and the rest is used.
func resumeState(plan *inputs.Plan, dir string, force bool, stderr io.Writer) (*state, error) {
	if dir == "" {
		return nil, fmt.Errorf("--resume needs -o DIR: the results to continue")
	}
	st, err := loadState(dir)
	if err != nil {
		return nil, fmt.Errorf("--resume: %v: not resuming into it", err)
	}
	if err := st.resumable(plan, dir, force); err != nil {
		return nil, err
	}
	for _, p := range st.res.Problems {
		fmt.Fprintln(stderr, "skampi:", p)
	}
	return st, nil
}

func (st *state) runIDs() []string {
	ids := make([]string, len(st.res.Runs))
	for i, r := range st.res.Runs {
		ids[i] = r.RunID
	}
	return ids
}

// runsSince lists the runs added after before was read.
func (st *state) runsSince(before *state) []string {
	var out []string
	for _, id := range st.runIDs() {
		if !slices.Contains(before.runIDs(), id) {
			out = append(out, id)
		}
	}
	return out
}

func (st *state) lastRun() string {
	if n := len(st.res.Runs); n > 0 {
		return st.res.Runs[n-1].RunID
	}
	return ""
}

// lastFault is the last fault of the given kind in the newest run, if any.
func (st *state) lastFault(kind string) *record.Fault {
	last := st.lastRun()
	for i := len(st.res.Faults) - 1; i >= 0; i-- {
		if f := &st.res.Faults[i]; f.RunID == last && f.Fault == kind {
			return f
		}
	}
	return nil
}

// firstMissing is where a job that died was: the first point of the plan, expanded on
// the job the newest run header describes (its processes and their hosts), or of the
// sizes its refinement chose, that has no record in the newest run and was not left
// alone as done.
func (st *state) firstMissing(plan *inputs.Plan) *inputs.Point {
	n := len(st.res.Runs)
	if n == 0 {
		return nil
	}
	run := st.res.Runs[n-1]
	ex, err := plan.Expand(inputs.Job{NProcs: run.NProcs, Hosts: run.RankHosts})
	if err != nil {
		return nil
	}
	var recorded record.KeySet
	for i := range st.res.Points {
		if p := &st.res.Points[i]; p.RunID == run.RunID {
			recorded.Add(p.Key())
		}
	}
	for i := range st.res.Faults {
		if f := &st.res.Faults[i]; f.RunID == run.RunID {
			recorded.Add(f.Key())
		}
	}
	// The plan's points in the order the run measures them, with the sizes refinement
	// chose from the recorded times.
	return runner.FirstMissing(ex.Points, func(k record.Key) bool { return st.done.Has(k) || recorded.Has(k) },
		func(k record.Key) runner.Estimate { return st.times[k] })
}

// recordCrash appends a crash fault for a point the job died in twice. Its index is the
// point's own in the newest run, which holds no record of it.
func recordCrash(dir, runID string, pt *inputs.Point, code int) error {
	return recordFault(dir, runID, pt, record.FaultCrash,
		fmt.Sprintf("the job died in this point twice (mpirun exit status %d); skipped when resuming", code))
}

// recordFault appends a fault the launcher found for a point (no rank could).
func recordFault(dir, runID string, pt *inputs.Point, kind, detail string) error {
	f := pt.Fault(runID)
	f.Mark(kind, detail)
	return appendFault(dir, &f)
}

// appendFault appends one fault record to the results file.
func appendFault(dir string, f *record.Fault) error {
	kind := f.Fault
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	out, err := openRegular(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		return fmt.Errorf("recording the %s: %w", kind, err)
	}
	if err := endLine(out); err != nil {
		out.Close()
		return err
	}
	_, err = out.Write(append(b, '\n'))
	return errors.Join(err, out.Close())
}

// summarise lists the points that runs left unmeasured, and why, and returns the exit
// status that says so: 4 when data arrived corrupt (ExitCorrupt), else 3 when one of
// them hung (ExitTimeout), else 1 when one crashed, 0 otherwise (denied points are the
// deny-list's choice, not a failure).
func (st *state) summarise(w io.Writer, runs []string) int {
	var faults []record.Fault
	for _, f := range st.res.Faults {
		if slices.Contains(runs, f.RunID) && f.Fault != record.FaultInterrupted {
			faults = append(faults, f)
		}
	}
	if len(faults) == 0 {
		return 0
	}
	code := 0
	fmt.Fprintf(w, "\nskampi: %d point(s) not measured:\n", len(faults))
	// An operation the library lacks, or the build: said once, with its count.
	lacking, notBuilt := map[string]int{}, map[string]int{}
	for _, f := range faults {
		if f.Fault == record.FaultDenied && f.Detail == runner.LackingDetail {
			lacking[f.Op]++
			continue
		}
		if f.Fault == record.FaultDenied && f.Detail == runner.NotBuiltDetail {
			notBuilt[f.Op]++
			continue
		}
		fmt.Fprintf(w, "  %-8s %s %q, %s: %s\n", f.Fault, f.Op, f.Measurement, report.Bytes(f.MsgBytes), f.Detail)
		switch f.Fault {
		case record.FaultCorrupt:
			code = ExitCorrupt // rank 0 said so in a line of its own
		case record.FaultTimeout:
			code = max(code, ExitTimeout)
		case record.FaultCrash:
			code = max(code, 1)
		}
	}
	for _, op := range slices.Sorted(maps.Keys(lacking)) {
		fmt.Fprintf(w, "  %-8s %s: %d more point(s), not in this MPI library either\n", record.FaultDenied, op, lacking[op])
	}
	for _, op := range slices.Sorted(maps.Keys(notBuilt)) {
		fmt.Fprintf(w, "  %-8s %s: %d more point(s), not in this build either\n", record.FaultDenied, op, notBuilt[op])
	}
	return code
}
