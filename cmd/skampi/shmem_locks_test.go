//go:build mpi && shmem

package main

import (
	"testing"

	"github.com/skampi/skampi/record"
)

// Every lock operation with its lock served by the PE chosen for it (the kernels place
// the lock in the symmetric heap and check where OSHMEM serves it before the point; a
// lock served elsewhere fails the point), on 1 and 2 PEs of jobs of 2 and 4 (4
// oversubscribed: the remote server is then one of three other PEs), and one
// shmem_test_lock on a held lock, which must find it held every time (a 0 fails the
// point). Every planned point is measured, with the method asked for and a positive
// time.
func TestShmemLockServer(t *testing.T) {
	var suite = `[settings]
min_repetitions = 20
max_repetitions = 20
max_time_per_point = "10s"
`
	for _, op := range []string{"Shmem_Lock_Contention", "Shmem_Set_Lock", "Shmem_Clear_Lock", "Shmem_Test_Lock_Spin"} {
		suite += "\n[[measurement]]\nname = \"" + op + "\"\nop = \"" + op + "\"\nsizes = [0]\nprocs = [1, 2]\nmethod = [\"local\", \"remote\"]\n"
	}
	suite += "\n[[measurement]]\nname = \"test\"\nop = \"Shmem_Test_Lock\"\nsizes = [0]\nprocs = [2, \"all\"]\n"
	s := writeSuite(t, suite)
	for _, np := range []string{"2", "4"} {
		out := t.TempDir()
		code, stdout, stderr := skampi(t, nil, "--np", np, "-i", s, "-o", out)
		if code != 0 || stderr != "" {
			t.Fatalf("np %s: exit %d\n%s\n%s", np, code, stdout, stderr)
		}
		res := readResults(t, out)
		tests := 2 // procs 2 and all
		if np == "2" {
			tests = 1 // the same communicator
		}
		if want := 4*2*2 + tests; len(res.Points) != want || len(res.Faults) != 0 {
			t.Fatalf("np %s: %d points, want %d; faults %+v", np, len(res.Points), want, res.Faults)
		}
		methods := map[string]int{}
		for _, p := range res.Points {
			methods[p.Method]++
			effect(t, &p, record.EffectTime, "np "+np+": "+p.Op+" "+p.Method)
		}
		if methods["local"] != 8 || methods["remote"] != 8 || methods[""] != tests {
			t.Errorf("np %s: methods %v", np, methods)
		}
	}
}
