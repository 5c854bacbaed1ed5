package launch

import (
	"bytes"
	"testing"
)

const openMPIAbort = `skampi: rank 0: boom
--------------------------------------------------------------------------
MPI_ABORT was invoked on rank 0 in communicator MPI_COMM_WORLD
with errorcode 1.

NOTE: invoking MPI_ABORT causes Open MPI to kill all MPI processes.
--------------------------------------------------------------------------
-------------------------------------------------------
Primary job  terminated normally, but 1 process returned
a non-zero exit code. Per user-direction, the job has been aborted.
-------------------------------------------------------
--------------------------------------------------------------------------
mpirun.openmpi detected that one or more processes exited with non-zero status, thus causing
the job to be terminated. The first process to do so was:

  Process name: [[61439,1],0]
  Exit code:    1
--------------------------------------------------------------------------
[vm:12345] 1 more process has sent help message help-mpi-api.txt / mpi-abort
[vm:31580] [[6050,0],0] ORTE_ERROR_LOG: Out of resource in file ../../../orte/util/show_help.c at line 501
[vm:12345] Set MCA parameter "orte_base_help_aggregate" to 0 to see all help / error messages
`

const hydraAbort = `skampi: rank 1: boom
application called MPI_Abort(MPI_COMM_WORLD, 1) - process 1

===================================================================================
=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES
=   PID 4242 RUNNING AT vm
=   EXIT CODE: 1
===================================================================================
`

// Other blocks of the launcher (it could not start the program) pass whole.
const notABanner = `--------------------------------------------------------------------------
mpirun was unable to launch the specified application as it could not access
or execute an executable:
--------------------------------------------------------------------------
`

func TestBannerFilter(t *testing.T) {
	for in, want := range map[string]string{
		openMPIAbort:              "skampi: rank 0: boom\n",
		hydraAbort:                "skampi: rank 1: boom\n\n",
		notABanner:                notABanner,
		"a line\nand half a line": "a line\nand half a line",
		"--------------------------------------------------------------------------\nan unclosed block\n": "--------------------------------------------------------------------------\nan unclosed block\n",
	} {
		// Written in pieces that split lines, as a pipe delivers them.
		var out bytes.Buffer
		f := NewBannerFilter(&out)
		for i := 0; i < len(in); i += 7 {
			f.Write([]byte(in[i:min(i+7, len(in))]))
		}
		f.Close()
		if out.String() != want {
			t.Errorf("in:\n%s\ngot:\n%q\nwant:\n%q", in, out.String(), want)
		}
	}
}
