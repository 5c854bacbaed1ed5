// Command skampi is a SKaMPI-style communication benchmark for MPI (and OpenSHMEM).
package main

import (
	"io"
	"os"
	"runtime"

	"github.com/skampi/skampi/internal/cli"
	"github.com/skampi/skampi/job"
	"github.com/skampi/skampi/ops/mpi"
)

func init() {
	// Every MPI call must come from the thread that initialised MPI (MPI_Init gives
	// MPI_THREAD_SINGLE at best), so main stays on the main OS thread; the launcher's
	// death signal to mpirun also follows this thread (job.dieWithLauncher).
	runtime.LockOSThread()
}

func main() {
	// Not os.Exit: a rank that finalized MPI leaves through exit(3), so the library's
	// atexit handlers run (MPICH 4.1 and later end the rank's process-manager
	// connection there; see mpi.Exit).
	mpi.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// exitError carries an exit status (2 for a usage mistake); Quiet means the message
// was printed already.
type exitError = job.ExitError

// run executes one command line and returns the exit status: 0 done, 1 failed,
// 2 a mistake in the flags.
func run(args []string, stdout, stderr io.Writer) int {
	return cli.Execute(newRootCmd(), args, stdout, stderr)
}
