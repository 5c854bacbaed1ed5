//go:build mpi

package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// pointers are the points, each by its address (for relation).
func pointers(pts []record.Point) []*record.Point {
	out := make([]*record.Point, len(pts))
	for i := range pts {
		out[i] = &pts[i]
	}
	return out
}

// checkSteps asserts what refinement claims of the curve's steps: each between two
// sizes one byte apart; confirmed only at the eager limit (there is no other protocol
// switch between 2 and 16 KiB); and the eager limit's step found and confirmed wherever
// the run's own points show it (the nearest sizes it measured on either side of the
// limit more than 1.5 times apart, beyond their errors), or those points say why not.
// This machine sometimes runs in a state where the ping-pong is slow and the step
// smeared out; a curve without the step has nothing to find.
func checkSteps(t *testing.T, res *report.Results, when string) {
	t.Helper()
	for _, st := range res.Steps {
		if st.FoundHi-st.FoundLo != 1 || st.Confirmed && (st.LoBytes != st.FoundLo || st.HiBytes != st.FoundHi) {
			t.Errorf("%s: step %+v: found one byte apart, the bracket the found sizes when confirmed", when, st)
		}
		if st.Confirmed && len(st.Rounds) == 0 {
			t.Errorf("%s: step %+v confirmed without measuring again", when, st)
		}
		if st.Confirmed && (st.FoundHi < 4900 || st.FoundHi > 5000) {
			relation(t, false, fmt.Sprintf("%s: a step confirmed at %d..%d B, far from the eager limit", when, st.FoundLo, st.FoundHi), pointers(res.Points)...)
		}
	}
	if slices.ContainsFunc(res.Steps, func(st record.Step) bool { return st.Confirmed && st.FoundHi >= 4900 && st.FoundHi <= 5000 }) {
		return
	}
	var lo, hi *record.Point
	for i := range res.Points {
		p := &res.Points[i]
		if p.Reps == 0 {
			continue
		}
		if p.MsgBytes <= 4944 && (lo == nil || p.MsgBytes > lo.MsgBytes) {
			lo = p
		}
		if p.MsgBytes >= 4945 && (hi == nil || p.MsgBytes < hi.MsgBytes) {
			hi = p
		}
	}
	if lo == nil || hi == nil {
		t.Fatalf("%s: no points on both sides of the eager limit", when)
	}
	what := fmt.Sprintf("%d B %.3f µs, %d B %.3f µs", lo.MsgBytes, lo.TimeS*1e6, hi.MsgBytes, hi.TimeS*1e6)
	if hi.TimeS <= 1.5*lo.TimeS || hi.TimeS-lo.TimeS <= 3*math.Hypot(lo.StderrS, hi.StderrS) {
		t.Logf("%s: no step claimed, and the run's own curve shows none at the eager limit (%s)", when, what)
		return
	}
	relation(t, false, fmt.Sprintf("%s: no step confirmed at the eager limit (steps %+v), which the run's points show (%s)", when, res.Steps, what), lo, hi)
}

// Refinement finds Open MPI's eager limit, set to an odd 5000 bytes, to the byte: ob1
// sends a message eagerly while it fits btl_vader_eager_limit with its headers (56
// bytes), so the ping-pong steps from 4944 to 4945 bytes; the sizes it adds are
// flagged refined, the step is measured again before it is claimed; and a refined
// sweep cut short resumes like any run.
func TestRefineFindsTheEagerLimit(t *testing.T) {
	if strings.Contains(os.Getenv("SKAMPI_BIN"), "mpich") {
		t.Skip("an Open MPI parameter")
	}
	env := []string{"OMPI_MCA_btl_vader_eager_limit=5000"}
	out := t.TempDir()
	args := []string{"run", "Pingpong_Send_Recv", "--sizes", "2KiB:16KiB", "--refine", "max_points=24", "-o", out}
	if code, stdout, stderr := skampi(t, env, args...); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	refined := 0
	for _, p := range res.Points {
		if p.Refined {
			refined++
		}
	}
	if refined > 24 {
		t.Fatalf("%d sizes refined, max_points is 24", refined)
	}
	// A curve that rises several-fold from 2 to 16 KiB has intervals to refine, unless
	// the machine buried it in noise (its points then say so).
	relation(t, refined > 0, "no size refined", pointers(res.Points)...)
	checkSteps(t, res, "first run")
	// Cut the results after the third refined point, as a job that died there leaves
	// them, and resume: nothing measured twice, every kept point kept, the step found.
	path := filepath.Join(out, "results.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	seen := 0
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if strings.Contains(line, `"refined":true`) {
			if seen++; seen > 3 {
				break
			}
		}
		kept = append(kept, line)
	}
	if err := os.WriteFile(path, []byte(strings.Join(kept, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := skampi(t, env, append(args, "--resume")...); code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
	}
	res = readResults(t, out)
	var keys record.KeySet
	for _, p := range res.Points {
		if keys.Has(p.Key()) {
			t.Errorf("%d B measured twice", p.MsgBytes)
		}
		keys.Add(p.Key())
	}
	if len(res.Runs) != 2 {
		t.Errorf("%d runs, want the first and its resumption", len(res.Runs))
	}
	checkSteps(t, res, "after resuming")
}
