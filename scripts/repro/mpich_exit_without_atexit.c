/* MPICH >= 4.1 (Debian 13's 4.2.1) ends its PMI connection (PMI_Finalize, "cmd=finalize")
 * in an atexit handler, no longer inside MPI_Finalize. A process that leaves without
 * running atexit handlers (_exit, or any Go program: os.Exit is exit_group) closes the
 * PMI socket unannounced; Hydra's proxy takes that for an abnormal end and SIGKILLs
 * every other rank still alive ("BAD TERMINATION ... EXIT CODE: 9").
 *   mpicc mpich_exit_without_atexit.c -o repro
 *   mpiexec -n 4 ./repro 1   # _exit after MPI_Finalize: ranks killed, exit status 9
 *   mpiexec -n 4 ./repro 0   # exit(3): clean (and 1 is clean with MPICH 4.0.2) */
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
	int rank, use_exit = argc > 1 ? atoi(argv[1]) : 1;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	if (rank != 0) usleep(200000); /* the others still alive when rank 0 leaves */
	if (use_exit) _exit(0);
	return 0;
}
