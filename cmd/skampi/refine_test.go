//go:build mpi

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
)

// breakpoint is the first size of a step in a ping-pong's curve found to within an
// element: two sizes at most gap bytes apart, the larger taking 1.5 times as long.
func breakpoint(pts []record.Point, gap int64) (int64, bool) {
	s := slices.Clone(pts)
	slices.SortFunc(s, func(a, b record.Point) int { return int(a.MsgBytes - b.MsgBytes) })
	for i := 1; i < len(s); i++ {
		if s[i].MsgBytes-s[i-1].MsgBytes <= gap && s[i].TimeS > 1.5*s[i-1].TimeS {
			return s[i].MsgBytes, true
		}
	}
	return 0, false
}

// pointers are the points, each by its address (for relation).
func pointers(pts []record.Point) []*record.Point {
	out := make([]*record.Point, len(pts))
	for i := range pts {
		out[i] = &pts[i]
	}
	return out
}

// Refinement finds Open MPI's eager limit, set to an odd 5000 bytes, to the byte: ob1
// sends a message eagerly while it fits btl_vader_eager_limit with its headers (56
// bytes), so the ping-pong steps from 4944 to 4945 bytes; the sizes it adds are
// flagged refined; and a refined sweep cut short resumes like any run.
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
		t.Fatalf("%d sizes refined, at most 24 asked", refined)
	}
	// The step is a relation among the sweep's points: a busy machine can move one of
	// them by more than the step, and that point then says so.
	bp, ok := breakpoint(res.Points, 1)
	relation(t, ok && bp >= 4900 && bp <= 5000 && refined > 0,
		fmt.Sprintf("breakpoint %d B (found %v) with %d sizes refined; want 4945 B or a few bytes off", bp, ok, refined), pointers(res.Points)...)
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
	bp, ok = breakpoint(res.Points, 1)
	relation(t, ok && bp >= 4900 && bp <= 5000, fmt.Sprintf("after resuming: breakpoint %d B (found %v)", bp, ok), pointers(res.Points)...)
}
