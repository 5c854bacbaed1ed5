//go:build mpi

package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
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

// groundStep measures the two sizes of the eager limit on their own: whether this machine's library steps there at all (ob1 over vader with
// single-copy steps about 4 times; a library whose rendezvous is cheap may not).
func groundStep(t *testing.T, env []string) groundTruth {
	t.Helper()
	out := t.TempDir()
	if code, stdout, stderr := skampi(t, env, "run", "Pingpong_Send_Recv", "--sizes", "4944,4945", "-o", out); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	by := map[int64]*record.Point{}
	for i := range res.Points {
		by[res.Points[i].MsgBytes] = &res.Points[i]
	}
	lo, hi := by[4944], by[4945]
	if lo == nil || hi == nil {
		t.Fatalf("the eager limit measured alone: %d points", len(res.Points))
	}
	return groundTruth{steps: hi.TimeS > 1.5*lo.TimeS && hi.TimeS-lo.TimeS > 3*math.Hypot(lo.StderrS, hi.StderrS),
		what: fmt.Sprintf("4944 B %.3f µs, 4945 B %.3f µs", lo.TimeS*1e6, hi.TimeS*1e6), pts: []*record.Point{lo, hi}}
}

// groundTruth: whether the library steps at the eager limit, measured alone.
type groundTruth struct {
	steps bool
	what  string
	pts   []*record.Point
}

// checkSteps asserts what refinement claims of the curve's steps: each between two
// sizes one byte apart; confirmed only at the eager limit (there is no other protocol
// switch between 2 and 16 KiB); the eager limit's found and confirmed, or the points
// say why not, or the library does not step there (measured alone).
func checkSteps(t *testing.T, res *report.Results, ground func() groundTruth, when string) {
	t.Helper()
	atLimit := false
	for _, st := range res.Steps {
		if st.FoundHi-st.FoundLo != 1 || st.Confirmed && (st.LoBytes != st.FoundLo || st.HiBytes != st.FoundHi) {
			t.Errorf("%s: step %+v: found one byte apart, the bracket the found sizes when confirmed", when, st)
		}
		if st.Confirmed && len(st.Rounds) == 0 {
			t.Errorf("%s: step %+v confirmed without measuring again", when, st)
		}
		near := st.FoundHi >= 4900 && st.FoundHi <= 5000
		if st.Confirmed && !near {
			relation(t, false, fmt.Sprintf("%s: a step confirmed at %d..%d B, far from the eager limit", when, st.FoundLo, st.FoundHi), pointers(res.Points)...)
		}
		atLimit = atLimit || st.Confirmed && near
	}
	if atLimit {
		return
	}
	g := ground()
	if !g.steps {
		t.Logf("%s: no step claimed, and the library does not step at its eager limit here (%s)", when, g.what)
		return
	}
	relation(t, false, fmt.Sprintf("%s: no step confirmed at the eager limit (steps %+v), which steps measured alone (%s)", when, res.Steps, g.what),
		append(pointers(res.Points), g.pts...)...)
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
	var measured *groundTruth // measured once, when a run does not confirm the step
	ground := func() groundTruth {
		if measured == nil {
			g := groundStep(t, env)
			measured = &g
		}
		return *measured
	}
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
	if refined > 24 || refined == 0 {
		t.Fatalf("%d sizes refined, want 1 to 24 (max_points) on a curve that rises 8-fold", refined)
	}
	checkSteps(t, res, ground, "first run")
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
	checkSteps(t, res, ground, "after resuming")
}
