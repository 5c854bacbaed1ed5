//go:build mpi

package main

// Integration tests of the neighbourhood collectives and of the MPI-4 operations: the
// built-in neighbor and persistent suites at 2 and 4 processes (oversubscribed at 4:
// correctness only), with Open MPI (SKAMPI_BIN) and MPICH (SKAMPI_MPICH_BIN, when
// make test built it).

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/skampi/skampi/ops"
	"github.com/skampi/skampi/record"
	"github.com/skampi/skampi/runner"
)

// mpichBin is the MPICH build, or skips the test without one.
func mpichBin(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("SKAMPI_MPICH_BIN")
	if bin == "" {
		if os.Getenv("SKAMPI_REQUIRE_MPICH") != "" {
			t.Fatal("SKAMPI_MPICH_BIN is not set")
		}
		t.Skip("no MPICH binary (make test builds one: SKAMPI_MPICH_BIN)")
	}
	return bin
}

// The neighbor suite measures every point with its data checked, and records the
// topology each was built on: MPI_Dims_create's 2x2 grid at 4 processes, 2x1 at 2.
func TestNeighborSuite(t *testing.T) {
	for _, np := range []int{2, 4} {
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, "--np", strconv.Itoa(np), "-i", "neighbor", "-o", out)
		if code != 0 {
			t.Fatalf("np %d: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		if len(res.Faults) != 0 || len(res.Points) == 0 || len(res.Points) != res.Runs[0].Points {
			t.Fatalf("np %d: %d points, faults %+v", np, len(res.Points), res.Faults)
		}
		grid := map[int]string{2: "cart:2x1", 4: "cart:2x2"}[np]
		seen := map[string]bool{}
		for _, p := range res.Points {
			seen[p.Topology] = true
			at := fmt.Sprintf("np %d: %s", np, p.Op)
			if p.Topology == "" || !p.CheckData {
				t.Errorf("%s %d B: topology %q, check_data %v", at, p.MsgBytes, p.Topology, p.CheckData)
			}
			effect(t, &p, record.EffectTime, at)
			if in, _ := ops.Lookup(p.Op); in.Nonblocking {
				effect(t, &p, record.EffectBreakdown, at) // Ineighbor_*: a breakdown, or the flag why not
			} else if p.Breakdown != nil {
				t.Errorf("%s: a blocking operation with a breakdown", at)
			}
		}
		for _, want := range []string{grid, "ring", "cart:" + strconv.Itoa(np), "stencil_3d:"} {
			found := false
			for s := range seen {
				found = found || strings.HasPrefix(s, want)
			}
			if !found {
				t.Errorf("np %d: no point on %s (%v)", np, want, seen)
			}
		}
	}
}

// Open MPI 4.1.4 has persistent collectives only as its MPIX_ extension and no
// partitioned communication (no MPI_Psend_init): the persistent suite measures the rest
// and refuses Pingpong_Partitioned, naming the missing routine in full once and briefly
// for its other points, and the job ends well. version and list say so beforehand.
// With another Open MPI (5.0 has MPI_Psend_init while its MPI_VERSION says 3) the
// suite is refused what version says the library lacks, and nothing else.
func TestPersistentOpenMPI(t *testing.T) {
	code, stdout, _ := skampi(t, nil, "version")
	if code != 0 || !strings.Contains(stdout, "can measure: persistent collectives (") {
		t.Fatalf("version: %d\n%s", code, stdout)
	}
	if strings.Contains(stdout, "MPI library: Open MPI v4.1.") && !strings.Contains(stdout, "can measure: persistent collectives (the library's MPIX_<Coll>_init extension); no partitioned communication: the library does not provide MPI_Psend_init, so Pingpong_Partitioned is refused\n") {
		t.Fatalf("version of Open MPI 4.1:\n%s", stdout)
	}
	lib := regexp.MustCompile(`MPI library: (.*) \(MPI `).FindStringSubmatch(stdout)
	if lib == nil {
		t.Fatalf("version names no library:\n%s", stdout)
	}
	lacking := strings.Contains(stdout, "no partitioned communication: the library does not provide MPI_Psend_init, so Pingpong_Partitioned is refused")
	reason := lib[1] + " does not provide MPI_Psend_init"
	_, list, _ := skampi(t, nil, "list", "Pingpong_Partitioned")
	if lacking != strings.Contains(list, "[refused: "+reason+"] round trip") || !lacking && strings.Contains(list, "[refused") {
		t.Errorf("list:\n%s", list)
	}
	for _, np := range []int{2, 4} {
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, "--np", strconv.Itoa(np), "-i", "persistent", "-o", out)
		if code != 0 {
			t.Fatalf("np %d: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		if len(res.Points)+len(res.Faults) != res.Runs[0].Points {
			t.Fatalf("np %d: %d points and %d faults of %d", np, len(res.Points), len(res.Faults), res.Runs[0].Points)
		}
		full := 0
		for _, f := range res.Faults {
			if f.Op != "Pingpong_Partitioned" || f.Fault != record.FaultDenied {
				t.Errorf("np %d: fault %+v", np, f)
			}
			if f.Detail == "Pingpong_Partitioned: "+reason+" (not in this MPI library)" {
				full++
			} else if f.Detail != runner.LackingDetail {
				t.Errorf("np %d: detail %q", np, f.Detail)
			}
		}
		if !lacking {
			if len(res.Faults) != 0 {
				t.Errorf("np %d: %d faults with a library that lacks nothing", np, len(res.Faults))
			}
		} else if full != 1 || len(res.Faults) != 3 {
			t.Errorf("np %d: %d faults, %d with the reason in full", np, len(res.Faults), full)
		} else if !strings.Contains(stdout+stderr, "Pingpong_Partitioned: 2 more point(s), not in this MPI library either") {
			t.Errorf("np %d: summary:\n%s", np, stdout)
		}
		for _, p := range res.Points {
			effect(t, &p, record.EffectTime, fmt.Sprintf("np %d: %s", np, p.Op))
		}
	}
}

// MPICH 4.0 provides MPI_<Coll>_init and MPI_Psend_init: the persistent suite runs
// whole, partitioned ping-pong included, at 2 and 4 processes.
func TestPersistentMPICH(t *testing.T) {
	bin := mpichBin(t)
	code, stdout, _ := runMPICH(t, bin, "version")
	if code != 0 || !strings.Contains(stdout, "can measure: persistent collectives (MPI_<Coll>_init); partitioned communication (MPI_Psend_init)\n") {
		t.Fatalf("version: %d\n%s", code, stdout)
	}
	for _, np := range []int{2, 4} {
		out := t.TempDir()
		code, stdout, stderr := runMPICH(t, bin, "--np", strconv.Itoa(np), "-i", "persistent", "-o", out)
		if code != 0 {
			t.Fatalf("np %d: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		if len(res.Faults) != 0 || len(res.Points) != res.Runs[0].Points {
			t.Fatalf("np %d: %d points of %d, faults %+v", np, len(res.Points), res.Runs[0].Points, res.Faults)
		}
		partitioned := 0
		for _, p := range res.Points {
			effect(t, &p, record.EffectTime, fmt.Sprintf("np %d: %s", np, p.Op))
			if p.Op == "Pingpong_Partitioned" {
				partitioned++
				if p.Partitions != 8 || !p.CheckData {
					t.Errorf("np %d: %+v", np, p)
				}
			}
		}
		if partitioned != 3 {
			t.Errorf("np %d: %d partitioned points", np, partitioned)
		}
	}
}

// The neighbourhood collectives under MPICH at 2 processes, data checked.
func TestNeighborMPICH(t *testing.T) {
	bin := mpichBin(t)
	out := t.TempDir()
	code, stdout, stderr := runMPICH(t, bin, "-i", "neighbor", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	res := readResults(t, out)
	if len(res.Faults) != 0 || len(res.Points) != res.Runs[0].Points {
		t.Fatalf("%d points of %d, faults %+v", len(res.Points), res.Runs[0].Points, res.Faults)
	}
	for _, p := range res.Points {
		effect(t, &p, record.EffectTime, p.Op)
		if in, _ := ops.Lookup(p.Op); in.Nonblocking {
			effect(t, &p, record.EffectBreakdown, p.Op)
		}
	}
}
