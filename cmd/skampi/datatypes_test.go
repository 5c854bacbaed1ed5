//go:build mpi

package main

// Integration test of the data layouts: every layout of every operation that takes
// one, its payload checked element by element, under Open MPI at 2 and 4 processes and
// under MPICH.

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/report"
)

// datatypesSuite: each layout of the five operations at sizes, the one-sided ones under a
// passive mode, a fenced ping-pong (both sides put or get) and a window of two
// operations into slots of their own.
func datatypesSuite(t *testing.T, sizes string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`[settings]
min_repetitions = 2
max_repetitions = 4
check_data = true
window = 1
stride = 3
`)
	for _, l := range ops.DataLayouts[1:] {
		b.WriteString(`
[[measurement]]
name = "pp ` + l + `"
op = "Pingpong_Send_Recv"
sizes = ` + sizes + `
data_layout = "` + l + `"

[[measurement]]
name = "pp ` + l + ` every"
op = "Pingpong_Send_Recv"
sizes = ` + sizes + `
data_layout = "` + l + `"
type_commit = "every_call"

[[measurement]]
name = "put ` + l + ` every"
op = "Put"
sizes = ` + sizes + `
data_layout = "` + l + `"
type_commit = "every_call"

[[measurement]]
name = "a2a ` + l + `"
op = "Alltoall"
sizes = ` + sizes + `
datatype = "double"
data_layout = "` + l + `"

[[measurement]]
name = "acc ` + l + `"
op = "Accumulate"
sizes = ` + sizes + `
datatype = "int"
data_layout = "` + l + `"
method = ["flush", "fence"]
`)
		for _, op := range []string{"Put", "Get"} {
			b.WriteString(`
[[measurement]]
name = "` + op + " " + l + `"
op = "` + op + `"
sizes = ` + sizes + `
data_layout = "` + l + `"
method = ["flush", "lock_all", "fence", "pscw"]

[[measurement]]
name = "` + op + " " + l + ` window"
op = "` + op + `"
sizes = [64]
data_layout = "` + l + `"
window = 2
recv_slots = "per-message"
method = ["fence_epoch"]
`)
		}
	}
	return writeSuite(t, b.String())
}

// wantDatatypes: every point measured, checked and recorded with its layout and stride.
func wantDatatypes(t *testing.T, res *report.Results, what string) {
	t.Helper()
	// per layout: ping-pong 2 (and 2 every call), put every call 2, alltoall 2,
	// accumulate 4, put and get 2*4 + 1 each
	if want := 4 * (2 + 2 + 2 + 2 + 4 + 2*9); len(res.Points) != want || len(res.Faults) != 0 {
		t.Fatalf("%s: %d points of %d, faults %+v", what, len(res.Points), want, res.Faults)
	}
	every := 0
	for _, p := range res.Points {
		if p.TypeCommit == "every_call" {
			every++
		}
		effect(t, &p, record.EffectTime, what+", "+p.Measurement+" "+p.Method)
		if !p.CheckData || p.Stride != 3 || !strings.HasSuffix(strings.Fields(p.Measurement)[1], p.DataLayout) {
			t.Errorf("%s, %s %s %d B: check_data %v, layout %q stride %d", what, p.Measurement, p.Method,
				p.MsgBytes, p.CheckData, p.DataLayout, p.Stride)
		}
	}
	if every != 4*4 {
		t.Errorf("%s: %d points built their type every call, want 16", what, every)
	}
}

func TestDatatypes(t *testing.T) {
	suite := datatypesSuite(t, "[8, 4096]")
	for _, np := range []int{2, 4} {
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, "--np", strconv.Itoa(np), "-i", suite, "-o", out)
		if code != 0 {
			t.Fatalf("np %d: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		wantDatatypes(t, readResults(t, out), "np "+strconv.Itoa(np))
	}
}

func TestDatatypesMPICH(t *testing.T) {
	bin := os.Getenv("SKAMPI_MPICH_BIN")
	if bin == "" {
		t.Skip("no MPICH binary (make test builds one: SKAMPI_MPICH_BIN)")
	}
	out := t.TempDir()
	// MPICH 4.0.2's shared-memory MPI_Win_allocate (Debian 12, one host) puts a
	// target's data elsewhere than its base when the window's size is not a multiple
	// of 16 bytes; skampi rounds its windows up to 64 (ops/mpi/window.c). 24 B at stride 3
	// spans 72 bytes (+ 64 spare): the check found it corrupt before.
	if code, o, e := runMPICH(t, bin, "-i", datatypesSuite(t, "[24, 4096]"), "-o", out); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, o, e)
	}
	wantDatatypes(t, readResults(t, out), "MPICH")
}
