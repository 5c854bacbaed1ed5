//go:build mpi

package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skampi/skampi/inputs"
	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// onesidedSuite measures every one-sided and lock operation under every mode it has,
// on small sizes, on windows of the given kind; pair is the pair of the point-to-point
// ones, procs the communicators of the others, settings more suite settings.
func onesidedSuite(kind, pair, procs, settings string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[settings]\nmin_repetitions = 3\nmax_repetitions = \"auto\"\nbudget_per_point = \"30ms\"\n"+
		"max_relative_stderr = 0.1\nbuffer = \"256KiB\"\nwindow = 2\nlock_hold = \"20us\"\ndelay = \"5us\"\nrma_window = %q\n%s\n", kind, settings)
	for _, in := range ops.All() {
		if !in.OneSided {
			continue
		}
		sizes, extra := `[8, "4KiB"]`, pair
		switch {
		case in.SingleElement:
			sizes = "[8]\ndatatype = \"long\""
		case in.Pattern == ops.PatternAll:
			sizes, extra = "[64]", procs
		}
		methods := ""
		if m := in.MethodNames(); len(m) > 0 {
			methods = fmt.Sprintf("method = [%q]", strings.Join(m, `", "`))
			methods = strings.ReplaceAll(methods, `\"`, `"`)
		}
		fmt.Fprintf(&b, "\n[[measurement]]\nname = %q\nop = %q\nsizes = %s\n%s\n%s\n", in.Name, in.Name, sizes, methods, extra)
	}
	return b.String()
}

// checkOnesided asserts the records: every planned point measured (no fault: no
// hang, no lost counter update, no lock held twice), the window kind recorded, the
// held lock waited for.
func checkOnesided(t *testing.T, plan *inputs.Plan, res *report.Results, nprocs int, kind string) {
	t.Helper()
	if len(res.Faults) != 0 {
		for _, f := range res.Faults {
			t.Errorf("fault: %s %s %d B: %s: %s", f.Measurement, f.Method, f.MsgBytes, f.Fault, f.Detail)
		}
	}
	points := planned(t, plan, nprocs)
	if len(res.Points) != len(points) {
		t.Fatalf("%d points, planned %d", len(res.Points), len(points))
	}
	for i, p := range res.Points {
		in, _ := ops.Lookup(p.Op)
		if p.Key() != points[i].Key() {
			t.Errorf("point %d: %+v, planned %+v", i+1, p.Key(), points[i].Key())
		}
		effect(t, &p, record.EffectTime, fmt.Sprintf("point %d: %s %s", i+1, p.Measurement, p.Method))
		if p.RMAWindow != kind || p.Cache != "warm" || p.CheckData {
			t.Errorf("%s: rma_window %q (want %q), cache %q, check_data %v", p.Measurement, p.RMAWindow, kind, p.Cache, p.CheckData)
		}
		if in.Windowed && (p.Window != 2 || (p.BandwidthBps == nil) != !(in.Bandwidth && p.Shows(record.EffectTime))) {
			t.Errorf("%s %s: window %d, bandwidth %v", p.Measurement, p.Method, p.Window, p.BandwidthBps)
		}
		if in.LockHold {
			// Waiters wait for the hold (20 µs), less the "go" message's way; a waiter
			// scheduled late on a busy machine finds the hold nearly over, and the point
			// must then say so. (Exclusivity itself is proven by the holder's marker: a
			// violation fails the point.)
			if p.HoldS == nil || *p.HoldS != 20e-6 || (p.Reps > 0 && p.TimeS < 10e-6) != slices.Contains(p.Flags, record.FlagLockNotHeld) {
				t.Errorf("Lock_Held on %v: waited %g s, hold %v, flags %v", p.Ranks, p.TimeS, p.HoldS, p.Flags)
			}
		}
		if in.Delayed != (p.DelayS != nil) || (p.DelayS != nil && *p.DelayS != 5e-6) {
			t.Errorf("%s: delay_s %v", p.Measurement, p.DelayS)
		}
		if in.Throughput && p.ThroughputBps == nil {
			t.Errorf("%s: no throughput", p.Measurement)
		}
	}
}

// Every one-sided operation under every mode, on two ranks, on every kind of window
// (dynamic ones with their displacements from the peer's base address); once with a
// slot per operation of the epoch, once with the settings a one-sided point cannot
// honour (cold caches, data checks), which its record must not claim.
func TestOnesided(t *testing.T) {
	for _, c := range []struct{ kind, settings string }{
		{"allocate", ""},
		{"create", `recv_slots = "per-message"`},
		{"dynamic", "cache = \"cold\"\ncheck_data = true"},
	} {
		suite := writeSuite(t, onesidedSuite(c.kind, "", "", c.settings))
		plan, err := inputs.Load(suite)
		if err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, "-i", suite, "-o", out)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s\n%s", c.kind, code, stdout, stderr)
		}
		checkOnesided(t, plan, readResults(t, out), 2, c.kind)
	}
}

// Four ranks (oversubscribed: correctness only): a pair that is not (0, 1), so two
// ranks idle while its window lives; locks, counters and transposes on 3 and 4 ranks.
func TestOnesidedFourRanks(t *testing.T) {
	suite := writeSuite(t, onesidedSuite("allocate", "pair = [1, 3]", `procs = [3, "all"]`, ""))
	plan, err := inputs.Load(suite)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, stdout, stderr := skampi(t, nil, "--np", "4", "-i", suite, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	checkOnesided(t, plan, res, 4, "allocate")
	for _, p := range res.Points {
		if in, _ := ops.Lookup(p.Op); in.Pattern == ops.PatternPair && !slices.Equal(p.Ranks, []int{1, 3}) {
			t.Errorf("%s: ranks %v", p.Measurement, p.Ranks)
		}
	}
}

// A window the library creates on some ranks and refuses on others (Open MPI 4.1 with
// osc/rdma forced and no single-copy mechanism: the shared-memory BTL has no RDMA for
// it) is an error of the point, said at once, never a hang: the ranks agree that the
// point was prepared before any of them measures it, and the next point runs. Where a
// library creates the window after all, the points are measured.
func TestWindowRefusedOnSomeRanks(t *testing.T) {
	out := t.TempDir()
	start := time.Now()
	code, stdout, stderr := skampi(t, []string{"OMPI_MCA_osc=rdma", "OMPI_MCA_btl_vader_single_copy_mechanism=none"},
		"run", "Win_lock_unlock", "Put", "Pingpong_Send_Recv", "--np", "4", "--sizes", "8", "--hang-timeout", "60s", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	for _, f := range res.Faults {
		if f.Fault != record.FaultError {
			t.Errorf("%s: %s fault: %s", f.Op, f.Fault, f.Detail)
		}
	}
	if len(res.Points)+len(res.Faults) != 3 || !slices.ContainsFunc(res.Points, func(p record.Point) bool { return p.Op == "Pingpong_Send_Recv" }) {
		t.Errorf("%d points, %d faults: want the three points accounted for, the ping-pong measured", len(res.Points), len(res.Faults))
	}
	// Well below the 60 s a stall would take to be noticed.
	if d := time.Since(start); d > 50*time.Second {
		t.Errorf("took %v", d)
	}
}
