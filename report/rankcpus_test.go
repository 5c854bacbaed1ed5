package report

import (
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
)

// Bindings as the kernel writes CPU lists pass; an empty one (the kernel did not say)
// too.
func TestRankCPUsValid(t *testing.T) {
	r := &record.Run{NProcs: 4, RankCPUs: []string{"0", "1-3", "0,2,4-7", ""}}
	if msgs := runWarnings(r); len(msgs) != 0 {
		t.Errorf("%q", msgs)
	}
}

// A binding list that is wrong (cut mid-number by an older skampi, or one per rank
// missing) is a warning on the run header's line: the run and every point of it are
// kept, since rank_cpus only describes the run.
func TestRankCPUsMalformedKeepsTheRun(t *testing.T) {
	for _, c := range []struct {
		name string
		cpus []string
		want string
	}{
		{"cut mid-range", []string{"0", "1", "0-1", "0,2,4,12-"}, `rank_cpus gives rank 3 "0,2,4,12-"`},
		{"not a list", []string{"0", "1", "0-1", "all"}, `rank_cpus gives rank 3 "all"`},
		{"another count", []string{"0", "1"}, "rank_cpus names 2 binding(s) for nprocs 4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := readLines(t, edit(t, domainRun, map[string]any{"rank_cpus": c.cpus}), pingpong,
				edit(t, lockPt, map[string]any{"point_index": 2}))
			if len(res.Runs) != 1 || len(res.Points) != 2 {
				t.Fatalf("%d run(s), %d point(s) kept, want 1 and 2; problems %v", len(res.Runs), len(res.Points), res.Problems)
			}
			if got := res.Runs[0].RankCPUs; len(got) != len(c.cpus) || got[len(got)-1] != c.cpus[len(c.cpus)-1] {
				t.Errorf("rank_cpus read as %q, want %q", got, c.cpus)
			}
			if len(res.Problems) != 1 {
				t.Fatalf("want one warning, got %v", res.Problems)
			}
			if p := res.Problems[0]; !p.Warning || p.Line != 1 || !strings.Contains(p.Msg, c.want) {
				t.Errorf("want a warning on line 1 with %q, got %v", c.want, p)
			}
			if errs := res.Errors(); len(errs) != 0 {
				t.Errorf("errors %v", errs)
			}
		})
	}
}
