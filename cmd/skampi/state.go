package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// state is what a results directory holds, as far as resuming is concerned.
type state struct {
	res  *report.Results
	done map[record.Key]bool // measured, or faulted by a timeout or crash
}

// loadState reads dir/results.jsonl; a missing file is an empty state.
func loadState(dir string) (*state, error) {
	st := &state{res: &report.Results{}, done: map[record.Key]bool{}}
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
	for i := range st.res.Points {
		st.done[st.res.Points[i].Key()] = true
	}
	for i := range st.res.Faults {
		if st.res.Faults[i].Skips() {
			st.done[st.res.Faults[i].Key()] = true
		}
	}
	return st, nil
}

// resumeState is the set of points a resumed run leaves alone; problems in the file
// (a torn last line) are reported and the rest is used.
func resumeState(dir string) (map[record.Key]bool, error) {
	if dir == "" {
		return nil, fmt.Errorf("--resume needs -o DIR: the results to continue")
	}
	st, err := loadState(dir)
	if err != nil {
		return nil, err
	}
	for _, p := range st.res.Problems {
		fmt.Fprintln(os.Stderr, "skampi:", p)
	}
	return st.done, nil
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

// firstMissing is the first planned point with no record: where a job that died was.
func (st *state) firstMissing(plan *inputs.Plan, nprocs int) (*record.Key, int) {
	index := 0
	for _, m := range plan.Measurements {
		for _, size := range m.Sizes {
			index++
			k := record.Key{Measurement: m.Name, Op: m.Op.Name, MsgBytes: size, NProcs: nprocs}
			if !st.done[k] {
				return &k, index
			}
		}
	}
	return nil, 0
}

// recordCrash appends a crash fault for a point the job died in twice.
func recordCrash(dir, runID string, k *record.Key, index, code int) error {
	f := record.Fault{Kind: record.KindFault, RunID: runID, PointIndex: index, Measurement: k.Measurement,
		Op: k.Op, MsgBytes: k.MsgBytes, NProcs: k.NProcs, Fault: record.FaultCrash, Time: time.Now().UTC(),
		Detail: fmt.Sprintf("the job died in this point twice (mpirun exit status %d); skipped when resuming", code)}
	b, err := json.Marshal(&f)
	if err != nil {
		return err
	}
	out, err := os.OpenFile(filepath.Join(dir, "results.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("recording the crash: %w", err)
	}
	if err := endLine(out); err != nil {
		out.Close()
		return err
	}
	_, err = out.Write(append(b, '\n'))
	return errors.Join(err, out.Close())
}

// summarise lists the points that runs left unmeasured, and why.
func (st *state) summarise(w io.Writer, runs []string) {
	var faults []record.Fault
	for _, f := range st.res.Faults {
		if slices.Contains(runs, f.RunID) && f.Fault != record.FaultInterrupted {
			faults = append(faults, f)
		}
	}
	if len(faults) == 0 {
		return
	}
	fmt.Fprintf(w, "\nskampi: %d point(s) not measured:\n", len(faults))
	for _, f := range faults {
		fmt.Fprintf(w, "  %-8s %s %q, %s: %s\n", f.Fault, f.Op, f.Measurement, report.Bytes(f.MsgBytes), f.Detail)
	}
}
