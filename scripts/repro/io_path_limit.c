/* MPI_File_open of a path of LEN bytes (components of 60 bytes under DIR, made first):
 * Open MPI 4.1.4 and 5.0.7 (io/ompio with sharedfp/lockedfile) take 244 bytes and abort
 * at 245 with "*** buffer overflow detected ***"; with OMPI_MCA_sharedfp=^lockedfile or
 * OMPI_MCA_io=romio321 they take longer paths; MPICH takes up to PATH_MAX and returns an
 * error beyond. skampi refuses an io_dir that would hand the library a longer path
 * (ops.IOPathLimit).
 *
 *   mpicc -O2 -o io_path_limit io_path_limit.c
 *   mkdir -p /tmp/iop && mpirun -np 2 ./io_path_limit /tmp/iop 244   # rc 0
 *   mpirun -np 2 ./io_path_limit /tmp/iop 245                        # aborts (Open MPI)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc != 3 || strlen(argv[1]) > 1000) {
        if (rank == 0) fprintf(stderr, "usage: io_path_limit DIR LEN\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int len = atoi(argv[2]);
    static char path[8192];
    snprintf(path, sizeof path, "%s", argv[1]);
    int n = strlen(path);
    if (len <= n || len >= (int)sizeof path - 70) MPI_Abort(MPI_COMM_WORLD, 2);
    while (len - n > 70) {
        path[n++] = '/';
        for (int i = 0; i < 59; i++) path[n++] = 'b';
        path[n] = 0;
        if (rank == 0) mkdir(path, 0755);
    }
    path[n++] = '/';
    while (n < len) path[n++] = 'a';
    path[n] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh);
    if (rc == MPI_SUCCESS) MPI_File_close(&fh);
    if (rank == 0) printf("path of %zu bytes: MPI_File_open returned %d\n", strlen(path), rc);
    MPI_Finalize();
    return 0;
}
