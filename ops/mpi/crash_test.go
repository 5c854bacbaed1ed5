//go:build mpi

package mpi

import (
	"runtime"
	"testing"
)

// With the crash report armed on this thread (as a rank arms it on the thread that
// calls MPI), a nil pointer in Go code is still Go's panic, recovered as ever: only a
// fault in C is a crash.
func TestGoFaultStaysAPanic(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := ArmCrashReport(CrashReport{Rank: 0, Trace: t.TempDir() + "/crash-rank0.txt"}); err != nil {
		t.Fatal(err)
	}
	CrashWhere("a test", "", "", "")
	var p *struct{ x int }
	recovered := func() (r any) {
		defer func() { r = recover() }()
		p.x = 1
		return nil
	}()
	if err, ok := recovered.(runtime.Error); !ok {
		t.Fatalf("recovered %v, want a runtime error (nil pointer)", recovered)
	} else {
		t.Log(err)
	}
	RearmCrashReport()
	if recovered = func() (r any) {
		defer func() { r = recover() }()
		p.x = 2
		return nil
	}(); recovered == nil {
		t.Fatal("no panic after rearming")
	}
}
