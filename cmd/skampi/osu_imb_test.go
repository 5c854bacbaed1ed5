//go:build mpi

package main

// The OSU and IMB counterparts added beside their families: the w-forms, the
// non-blocking v-forms, Reduce_local, the persistent bandwidths, the any-source
// ping-pongs, the ping-ping of every pair at once and the random traffic, with their
// data checked where their kernels check it, under Open MPI (SKAMPI_BIN) and MPICH
// (SKAMPI_MPICH_BIN, when make test built it); at 4 processes (all but the single
// pairs) oversubscribed: correctness only.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
)

var osuIMBOps = []string{"Alltoallw", "Ialltoallw", "Alltoallw_persistent", "Alltoallw_init", "Iallgatherv", "Igatherv",
	"Iscatterv", "Ireduce_scatter", "Reduce_local", "Bandwidth_Persistent", "Bibandwidth_Persistent",
	"Pingpong_Send_Recv_AS", "Pingping_Send_Recv_AS", "Par_Pingping_Send_Recv", "Unirandom", "Birandom", "Corandom"}

// osuIMBSuite measures the operations at 8 B and 4 KiB, a collective's root not rank 0
// and a window's receives each in its own slot, so a misplaced block shows.
func osuIMBSuite(t *testing.T, np int) (string, int) {
	var b strings.Builder
	b.WriteString("[settings]\nmin_repetitions = 2\nmax_repetitions = 3\nbudget_per_point = \"30ms\"\nbuffer = \"1MiB\"\n" +
		"check_data = true\nwindow = 8\n")
	n := 0
	for _, name := range osuIMBOps {
		in, ok := ops.Lookup(name)
		if !ok {
			t.Fatalf("%s is not in the catalogue", name)
		}
		if np > 2 && in.Pattern == ops.PatternPair {
			continue
		}
		fmt.Fprintf(&b, "\n[[measurement]]\nname = %q\nop = %q\nsizes = [8, 4096]\n", name, name)
		if in.Rooted {
			b.WriteString("root = 1\n")
		}
		if in.Windowed {
			b.WriteString("recv_slots = \"per-message\"\n")
		}
		n += 2
	}
	return writeSuite(t, b.String()), n
}

func TestOSUIMBCounterparts(t *testing.T) {
	mpich := ""
	for _, bin := range []string{"openmpi", "mpich"} {
		if bin == "mpich" {
			mpich = mpichBin(t)
		}
		for _, np := range []int{2, 4} {
			suite, want := osuIMBSuite(t, np)
			out := t.TempDir()
			args := []string{"--np", strconv.Itoa(np), "-i", suite, "-o", out}
			var code int
			var stdout, stderr string
			if mpich != "" {
				code, stdout, stderr = runMPICH(t, mpich, args...)
			} else {
				code, stdout, stderr = skampi(t, nil, args...)
			}
			if code != 0 {
				t.Fatalf("%s np %d: exit %d\n%s\n%s", bin, np, code, stdout, stderr)
			}
			res := readResults(t, out)
			if len(res.Faults) != 0 || len(res.Points) != want {
				t.Fatalf("%s np %d: %d points, want %d; faults %+v", bin, np, len(res.Points), want, res.Faults)
			}
			for _, p := range res.Points {
				in, _ := ops.Lookup(p.Op)
				at := fmt.Sprintf("%s np %d: %s", bin, np, p.Op)
				effect(t, &p, record.EffectTime, at)
				if in.Nonblocking {
					effect(t, &p, record.EffectBreakdown, at)
				}
				timed := p.Shows(record.EffectTime)
				if !p.CheckData || !in.Nonblocking && p.Breakdown != nil ||
					in.Bandwidth && timed && !(p.BandwidthBps != nil && *p.BandwidthBps > 0) {
					t.Errorf("%s %d B: check_data %v, %g s, breakdown %v, bandwidth %v", at, p.MsgBytes, p.CheckData, p.TimeS, p.Breakdown != nil, p.BandwidthBps)
				}
				if in.Pattern != ops.PatternPair && len(p.Ranks) != np || in.Pattern == ops.PatternPair && !slices.Equal(p.Ranks, []int{0, 1}) {
					t.Errorf("%s np %d: %s: ranks %v", bin, np, p.Op, p.Ranks)
				}
			}
		}
	}
}
