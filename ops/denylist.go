package ops

import (
	"errors"
	"regexp"
)

// ErrUnsupported marks an operation the MPI library cannot run because it does not
// provide a routine the operation calls (MPI_Psend_init in Open MPI 4.1): an error that
// names the routine wraps it, and a run records the point as denied, with the reason,
// once per operation.
var ErrUnsupported = errors.New("not in this MPI library")

// Denial marks a routine known to crash in a given library: running it would take the
// whole job down (and, in other benchmark suites, everything measured after it).
type Denial struct {
	Op string
	// Method: only this timing method of Op (a one-sided operation's synchronisation
	// mode, say); "" every method.
	Method  string
	Library *regexp.Regexp // matched against the library's version string
	// Beyond: only in a job of more than this many processes (0: any job).
	Beyond int
	Reason string
}

// denyList is kept short and documented: every entry names the library versions and
// what goes wrong. `--allow-broken` runs them anyway, for testing a fixed library.
var denyList = []Denial{
	{
		Op:      "Shmem_Atomic_Compare_Swap_Int",
		Library: regexp.MustCompile(`Open MPI v4\.1\.4\b`),
		Reason:  "shmem_int_atomic_compare_swap aborts with 'stack smashing detected' in Open MPI 4.1.4's OpenSHMEM",
	},
	{
		// A plain C program shows it (MPI_Scatter_init, MPI_Start + MPI_Wait twice, 4
		// processes): the schedule's error leaves the other ranks waiting forever.
		Op:      "Scatter_persistent",
		Library: regexp.MustCompile(`^MPICH 4\.0\.`),
		Reason:  "MPICH 4.0's MPI_Scatter_init fails at its second MPI_Start with more than 2 processes (\"Invalid communicator\" in its schedule) and the other ranks hang",
	},
	{
		// A plain C program shows it (ranks 0 and 1 of 4 run an MPI_Psend_init /
		// MPI_Precv_init ping-pong on MPI_COMM_WORLD, ranks 2 and 3 wait in MPI_Barrier):
		// it hangs, while the same program on 2 processes ends.
		Op:      "Pingpong_Partitioned",
		Library: regexp.MustCompile(`^Open MPI v5\.0\.`),
		Beyond:  2,
		Reason:  "Open MPI 5.0's partitioned ping-pong between two processes hangs when the job has more processes than the two",
	},
	{
		Op:      "Selftest_Crash",
		Library: regexp.MustCompile(``),
		Reason:  "crashes on purpose (a self-test of skampi's crash recovery)",
	},
	{
		Op:      "Selftest_Segfault",
		Library: regexp.MustCompile(``),
		Reason:  "crashes on purpose (a self-test of skampi's crash report)",
	},
}

// Denied reports whether op, under a timing method ("": none), is known to crash or
// hang in library in a job of nprocs processes, and why.
func Denied(op, method, library string, nprocs int) (string, bool) {
	for _, d := range denyList {
		if d.Op == op && (d.Method == "" || d.Method == method) && d.Library.MatchString(library) && nprocs > d.Beyond {
			return d.Reason, true
		}
	}
	return "", false
}

// DenyList returns the entries, for documentation and `skampi list`.
func DenyList() []Denial { return append([]Denial(nil), denyList...) }
