package inputs

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/skampi/skampi/record"
)

func mustParse(t *testing.T, src string) *Plan {
	t.Helper()
	p, err := Parse("t.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func onOneHost(n int) Job {
	hosts := make([]string, n)
	for i := range hosts {
		hosts[i] = "h"
	}
	return Job{NProcs: n, Hosts: hosts}
}

func TestExpandCountsMethodsAndProcs(t *testing.T) {
	p := mustParse(t, `
[[measurement]]
name = "bcast"
op = "Bcast"
sizes = [8, 64]
method = ["barrier", "rounds", "ack"]
procs = [2, 4, "all"]
[[measurement]]
name = "pp"
op = "Pingpong_Send_Recv"
sizes = [1, 2, 4]
`)
	ex, err := p.Expand(onOneHost(8))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ex.Points); n != 2*3*3+3 {
		t.Fatalf("%d points", n)
	}
	keys := map[record.Key]bool{}
	for i, pt := range ex.Points {
		if pt.Index != i+1 || keys[pt.Key()] {
			t.Errorf("point %d: index %d, key %+v seen before: %v", i, pt.Index, pt.Key(), keys[pt.Key()])
		}
		keys[pt.Key()] = true
	}
	first := ex.Points[0]
	if first.Method != "barrier" || first.Size != 8 || first.NProcs != 2 || !slices.Equal(first.Comm, []int{0, 1}) {
		t.Errorf("first point %+v", first)
	}
	// Methods vary fastest, then sizes, then process counts.
	if ex.Points[1].Method != "rounds" || ex.Points[3].Size != 64 || ex.Points[6].NProcs != 4 {
		t.Errorf("order: %+v %+v %+v", ex.Points[1], ex.Points[3], ex.Points[6])
	}
	if ack := ex.Points[2]; !slices.Equal(ack.Ranks, []int{0}) {
		t.Errorf("ack is timed by the root: ranks %v", ack.Ranks)
	}
	if all := ex.Points[12]; all.NProcs != 8 || all.Comm != nil || len(all.Ranks) != 8 {
		t.Errorf(`procs "all": %+v`, all)
	}
	if pp := ex.Points[18]; pp.NProcs != 8 || !slices.Equal(pp.Ranks, []int{0, 1}) || pp.Key().Ranks != "0,1" {
		t.Errorf("ping-pong %+v", pp)
	}
	if len(ex.Notes) != 0 {
		t.Errorf("notes %v", ex.Notes)
	}
}

func TestExpandMergesAndSkips(t *testing.T) {
	p := mustParse(t, `
[[measurement]]
name = "ar"
op = "Allreduce"
sizes = [8, 16]
procs = [2, "all", 4]
`)
	ex, err := p.Expand(onOneHost(2))
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Points) != 2 {
		t.Fatalf("%d points: procs 2 and all are one communicator on 2 processes", len(ex.Points))
	}
	notes := strings.Join(ex.Notes, "\n")
	if notes != `measurement "ar": procs = 4 is more than the job's 2 processes: skipped`+"\n"+
		`measurement "ar": procs [2 "all" 4] on 2 processes names one communicator twice: measured once` {
		t.Errorf("notes:\n%s", notes)
	}
	// The same note for many measurements is said once.
	var src strings.Builder
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		fmt.Fprintf(&src, "[[measurement]]\nname = %q\nop = \"Allreduce\"\nsizes = [8]\nprocs = [2, 4]\n", name)
	}
	ex, err = mustParse(t, src.String()).Expand(onOneHost(2))
	if err != nil {
		t.Fatal(err)
	}
	if want := `measurements "a", "b", "c" and 2 more: procs = 4 is more than the job's 2 processes: skipped`; len(ex.Notes) != 1 || ex.Notes[0] != want {
		t.Errorf("notes %q, want %q", ex.Notes, want)
	}
	_, err = Parse("t.toml", []byte("[[measurement]]\nname = \"a\"\nop = \"Allreduce\"\nsizes = [8]\nprocs = [2, 4, 2]\n"))
	if err == nil || err.Error() != "t.toml:5:9: measurement 1: procs: entry 3: 2 is listed twice (entries 1 and 3)" {
		t.Errorf("duplicate procs: %v", err)
	}
}

func TestExpandChecksTheJob(t *testing.T) {
	explicit := mustParse(t, "[[measurement]]\nname = \"x\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8]\npair = [0, 5]\n")
	if _, err := explicit.Expand(onOneHost(4)); err == nil || err.Error() != `t.toml:1:3: measurement "x": pair rank 5 does not exist in a job of 4 processes` {
		t.Errorf("check: %v", err)
	}
	if ex, err := explicit.Expand(onOneHost(6)); err != nil || !slices.Equal(ex.Points[0].Ranks, []int{0, 5}) {
		t.Errorf("%v %+v", err, ex)
	}
	p := mustParse(t, `
[settings]
buffer = "64KiB"
[[measurement]]
name = "a2a"
op = "Alltoall"
sizes = [1024, 8192]
[[measurement]]
name = "bcast"
op = "Bcast"
sizes = [8]
root = 3
`)
	if _, err := p.Expand(onOneHost(4)); err != nil {
		t.Errorf("4 processes: %v", err)
	}
	_, err := p.Expand(onOneHost(16))
	if err == nil || err.Error() != `t.toml:4:3: measurement "a2a": Alltoall needs 131072 bytes of buffer for 8192-byte blocks with 16 processes, buffer is 65536: raise buffer, or leave buffer out and skampi sizes it for the job` {
		t.Errorf("16 processes: %v", err)
	}
	if _, err := p.Expand(onOneHost(3)); err == nil || !strings.Contains(err.Error(), "root 3 does not exist in a job of 3 processes") {
		t.Errorf("3 processes: %v", err)
	}
	if _, err := p.Expand(onOneHost(1)); err == nil || !strings.Contains(err.Error(), "needs at least 2 processes, the job has 1") {
		t.Errorf("1 process: %v", err)
	}
	sub := mustParse(t, "[[measurement]]\nname = \"b\"\nop = \"Bcast\"\nsizes = [8]\nroot = 3\nprocs = [2, \"all\"]\n")
	if _, err := sub.Expand(onOneHost(4)); err == nil || !strings.Contains(err.Error(), "root 3 is not a rank of its 2-process communicators") {
		t.Errorf("root outside a sub-communicator: %v", err)
	}
}

func TestExpandPairsAndLayouts(t *testing.T) {
	p := mustParse(t, `
[[measurement]]
name = "far"
op = "Pingpong_Send_Recv"
sizes = [8]
pair = "max-latency"
[[measurement]]
name = "across"
op = "Pingpong_Send_Recv"
sizes = [8]
pair = "across-nodes"
[[measurement]]
name = "spread"
op = "Allreduce"
sizes = [8]
procs = [3]
layout = "one-per-node"
[[measurement]]
name = "block"
op = "Allreduce"
sizes = [8]
procs = [3]
[[measurement]]
name = "pairs"
op = "Multipair_Bandwidth"
sizes = [8]
`)
	ex, err := p.Expand(Job{NProcs: 6, Hosts: []string{"a", "a", "a", "b", "b", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	far, across, spread, block, pairs := ex.Points[0], ex.Points[1], ex.Points[2], ex.Points[3], ex.Points[4]
	if !far.Pending || far.Ranks != nil {
		t.Errorf("max-latency among 5 peers is measured: %+v", far)
	}
	far.Resolve([2]int{0, 4})
	if far.Pending || far.Key().Ranks != "0,4" {
		t.Errorf("resolved %+v", far)
	}
	if !slices.Equal(across.Ranks, []int{0, 3}) || across.Fallback != "" {
		t.Errorf("across-nodes %+v", across)
	}
	if !slices.Equal(spread.Comm, []int{0, 3, 1}) || !slices.Equal(block.Comm, []int{0, 1, 2}) {
		t.Errorf("layouts: one-per-node %v, block %v", spread.Comm, block.Comm)
	}
	if !slices.Equal(pairs.Ranks, []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("multi-pair %v", pairs.Ranks)
	}
	// On one host: max-latency has one candidate; across-nodes falls back, with a note.
	ex, err = p.Expand(onOneHost(2))
	if err != nil {
		t.Fatal(err)
	}
	if far := ex.Points[0]; far.Pending || !slices.Equal(far.Ranks, []int{0, 1}) {
		t.Errorf("max-latency on 2 processes: %+v", far)
	}
	if across := ex.Points[1]; across.Fallback == "" || !strings.Contains(strings.Join(ex.Notes, "\n"), `all ranks run on h; measured ranks 0 and 1 instead`) {
		t.Errorf("fallback %+v, notes %v", across, ex.Notes)
	}
}

// procs set suite-wide multiplies the points of collectives only: a pair operation
// runs on its pair whatever the communicator sizes.
func TestProcsMultipliesCollectivesOnly(t *testing.T) {
	p := mustParse(t, "[settings]\nprocs = [2, 4]\n[[measurement]]\nname = \"a\"\nop = \"Allreduce\"\nsizes = [8, 16]\n[[measurement]]\nname = \"b\"\nop = \"Pingpong_Send_Recv\"\nsizes = [8]\n")
	ex, err := p.Expand(onOneHost(4))
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Points) != 2*2+1 || ex.Points[4].NProcs != 4 || !slices.Equal(ex.Points[4].Ranks, []int{0, 1}) {
		t.Errorf("%d points, last %+v", len(ex.Points), ex.Points[len(ex.Points)-1])
	}
}
