//go:build mpi

package main

// Integration tests: collectives, their timing methods, and the process counts a
// measurement runs on.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

// Every collective at 2, 4 and 8 processes (oversubscribed beyond 2: correctness
// only): every rank takes part and reports a time.
func TestCollectives(t *testing.T) {
	var b strings.Builder
	b.WriteString("[settings]\nmin_repetitions = 2\nmax_repetitions = 3\nbuffer = \"1MiB\"\n")
	n := 0
	for _, in := range ops.All() {
		if in.Family != "coll" {
			continue
		}
		n++
		sizes := "[8, 4096]"
		if in.NoData { // Barrier, Comm_dup, Comm_split
			sizes = "[0]"
		}
		fmt.Fprintf(&b, "\n[[measurement]]\nname = %q\nop = %q\nsizes = %s\n", in.Name, in.Name, sizes)
		if in.Rooted {
			b.WriteString("root = 1\n")
		}
		if in.Name == "Alltoall_Ordered" {
			b.WriteString("barrier_above = 1024\n") // a barrier between the phases of the 4 KiB point
		}
	}
	suite := writeSuite(t, b.String())
	plan, err := inputs.Load(suite)
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 || len(plan.Measurements) != n {
		t.Fatalf("%d collectives in the catalogue, %d measurements of them", n, len(plan.Measurements))
	}
	for _, np := range []int{2, 4, 8} {
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, "--np", strconv.Itoa(np), "-i", suite, "-o", out)
		if code != 0 {
			t.Fatalf("np %d: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		checkPoints(t, plan, res, np)
		for _, p := range res.Points {
			info, _ := ops.Lookup(p.Op)
			if len(p.Ranks) != np || len(p.RankTimeS) != np || (p.Iterations != 1) != info.Local {
				t.Errorf("np %d, %s: ranks %v, %d rank times, %d iterations", np, p.Op, p.Ranks, len(p.RankTimeS), p.Iterations)
			}
			if (info.Throughput && p.Shows(record.EffectTime)) != (p.ThroughputBps != nil) ||
				(p.ThroughputBps != nil && math.Abs(*p.ThroughputBps-float64(np-1)*float64(p.MsgBytes)/p.TimeS) > 1e-6**p.ThroughputBps) {
				t.Errorf("np %d, %s: throughput %v", np, p.Op, p.ThroughputBps)
			}
		}
	}
}

// The four broadcast timing methods side by side in one measurement: every method's
// point is in the records, marked with its method; "barrier" says what it subtracted,
// "sync" that its broadcasts started in synchronised windows.
func TestBroadcastMethods(t *testing.T) {
	suite := writeSuite(t, `[settings]
min_repetitions = 2
max_repetitions = 4

[[measurement]]
name = "bcast"
op = "Bcast"
sizes = [8, 4096]
method = ["barrier", "sync", "rounds", "ack"]
root = 1
`)
	plan, err := inputs.Load(suite)
	if err != nil {
		t.Fatal(err)
	}
	if len(planned(t, plan, 2)) != 8 {
		t.Fatalf("%d points planned", len(planned(t, plan, 2)))
	}
	for _, np := range []int{2, 4, 8} {
		out := t.TempDir()
		if code, stdout, stderr := skampi(t, nil, "--np", strconv.Itoa(np), "-i", suite, "-o", out); code != 0 {
			t.Fatalf("np %d: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		seen := map[string]int{}
		for _, p := range res.Points {
			seen[p.Method]++
			switch p.Method {
			case "barrier":
				// The barrier alone is a loop of raw times: positive whenever it ran.
				if p.Reps > 0 && (p.SubtractedS == nil || *p.SubtractedS <= 0) {
					t.Errorf("np %d: barrier method without the barrier it subtracted: %+v", np, p)
				}
			case "ack":
				if !slices.Equal(p.Ranks, []int{1}) {
					t.Errorf("np %d: ack is timed by the root alone, ranks %v", np, p.Ranks)
				}
			case "rounds":
				if len(p.Ranks) != np {
					t.Errorf("np %d: rounds ranks %v", np, p.Ranks)
				}
			case "sync":
				if p.Sync != "window" || p.WindowS == nil || *p.WindowS <= 0 || len(p.Ranks) != np {
					t.Errorf("np %d: sync method: sync %q window %v ranks %v", np, p.Sync, p.WindowS, p.Ranks)
				}
			}
			effect(t, &p, record.EffectTime, fmt.Sprintf("np %d: %s", np, p.Method))
			// The methods that subtract (barrier, ack) flag a time at or below zero, and
			// only that.
			if (p.Reps > 0 && p.TimeS <= 0) != slices.Contains(p.Flags, record.FlagNegative) {
				t.Errorf("np %d: %s: time %g, flags %v: a time at or below zero not flagged, or flagged above", np, p.Method, p.TimeS, p.Flags)
			}
		}
		if seen["barrier"] != 2 || seen["sync"] != 2 || seen["rounds"] != 2 || seen["ack"] != 2 {
			t.Errorf("np %d: methods %v", np, seen)
		}
	}
}

// A collective measured on communicators of several sizes in one job.
func TestProcs(t *testing.T) {
	suite := writeSuite(t, `[settings]
min_repetitions = 2
max_repetitions = 3
procs = [2, 3, "all", 8]

[[measurement]]
name = "allreduce"
op = "Allreduce"
sizes = [8]

[[measurement]]
name = "gather"
op = "Gather"
sizes = [64]
root = 1
`)
	out := t.TempDir()
	code, stdout, stderr := skampi(t, nil, "--np", "4", "-i", suite, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	got := map[string][]int{}
	for _, p := range res.Points {
		got[p.Op] = append(got[p.Op], p.NProcs)
		if len(p.Ranks) != p.NProcs || p.Ranks[len(p.Ranks)-1] != p.NProcs-1 {
			t.Errorf("%s at %d processes: ranks %v", p.Op, p.NProcs, p.Ranks)
		}
	}
	for _, op := range []string{"Allreduce", "Gather"} {
		if !slices.Equal(got[op], []int{2, 3, 4}) {
			t.Errorf("%s measured at %v processes, want 2, 3, 4", op, got[op])
		}
	}
	// Noted once for both measurements, after the header line and before the table.
	if !strings.Contains(stdout, `note: measurements "allreduce", "gather": procs = 8 is more than the job's 4 processes: skipped`) ||
		strings.Index(stdout, "note: ") > strings.Index(stdout, "[1/") {
		t.Errorf("no note of the skipped size, or not before the table:\n%s", stdout)
	}
}
