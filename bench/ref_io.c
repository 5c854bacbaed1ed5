/* A collective write, MPI_File_write_at_all, timed skampi's way: each process writes
 * SIZE bytes at offset rank * SIZE of one file in DIR (its own block), once without and
 * once with MPI_File_sync inside the time (skampi's File_Write_At_All and
 * File_Write_At_All_Sync). The file is created and opened once per size (collective,
 * MPI_MODE_CREATE | MPI_MODE_RDWR, no hints), deleted after. Each of REPS repetitions
 * (after 2 thrown away) is an MPI_Barrier, then one call between two timer reads; a
 * repetition's time is the slowest rank's; the result is the mean of the middle half.
 *
 * With "imb WINDOW" after DIR: IMB-IO's C_Write_expl as skampi's File_Write_At_All
 * [imb] with window WINDOW times it. A repetition is WINDOW calls, call j at offset
 * rank * SIZE + j * nprocs * SIZE (row j of the processes' blocks, where IMB puts a
 * rank's j-th write), then MPI_File_sync, MPI_Barrier, MPI_File_sync, all between the
 * two timer reads, over WINDOW: the time per write (IMB's aggregate mode; WINDOW 1 is
 * its non-aggregate one, each write followed by the three calls).
 *
 * Usage: mpirun -np 2 ref_io DIR SIZE...
 *        mpirun -np 2 ref_io DIR imb WINDOW SIZE...
 * stdout: "File_Write_At_All,SIZE SECONDS" and "File_Write_At_All_Sync,SIZE SECONDS"
 * per size, or "File_Write_At_All_imb,W=WINDOW,SIZE SECONDS": the names of the skampi
 * measurements beside them (bench/reference.sh). */
#include "ref_common.h"

#define REPS 64

/* One repetition of the IMB sequence: window writes, sync, barrier, sync; per write. */
static double imb_rep(MPI_File fh, MPI_Offset off, MPI_Offset row, char *buf, int n, int window) {
	double t0 = ref_now();
	for (int j = 0; j < window; j++)
		CK(MPI_File_write_at_all(fh, off + (MPI_Offset)j * row, buf, n, MPI_BYTE, MPI_STATUS_IGNORE));
	CK(MPI_File_sync(fh));
	CK(MPI_Barrier(MPI_COMM_WORLD));
	CK(MPI_File_sync(fh));
	return (ref_now() - t0) / window;
}

int main(int argc, char **argv) {
	int rank, size;
	ref_init(&argc, &argv, &rank, &size);
	int first = 2, window = 0; /* window 0: the plain and _Sync rows */
	if (argc >= 4 && strcmp(argv[2], "imb") == 0) {
		window = atoi(argv[3]);
		first = 4;
	}
	if (argc <= first || (first == 4 && window < 1)) {
		if (rank == 0) fprintf(stderr, "usage: ref_io DIR SIZE... | ref_io DIR imb WINDOW SIZE...\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	long max = 1;
	for (int i = first; i < argc; i++)
		if (atol(argv[i]) > max) max = atol(argv[i]);
	char *buf = ref_alloc((size_t)max), path[4096];
	memset(buf, rank + 1, (size_t)max);
	snprintf(path, sizeof path, "%s/ref_io.dat", argv[1]);
	double t[REPS];
	for (int sync = 0; sync <= (window ? 0 : 1); sync++) {
		for (int a = first; a < argc; a++) {
			int n = (int)atol(argv[a]);
			MPI_File fh;
			CK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
			MPI_Offset off = (MPI_Offset)rank * n, row = (MPI_Offset)size * n;
			for (int i = -2; i < REPS; i++) {
				CK(MPI_Barrier(MPI_COMM_WORLD));
				double mine, slowest;
				if (window) {
					mine = imb_rep(fh, off, row, buf, n, window);
				} else {
					double t0 = ref_now();
					CK(MPI_File_write_at_all(fh, off, buf, n, MPI_BYTE, MPI_STATUS_IGNORE));
					if (sync) CK(MPI_File_sync(fh));
					mine = ref_now() - t0;
				}
				CK(MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD));
				if (i >= 0) t[i] = slowest;
			}
			CK(MPI_File_close(&fh));
			CK(MPI_Barrier(MPI_COMM_WORLD));
			if (rank == 0) {
				CK(MPI_File_delete(path, MPI_INFO_NULL));
				if (window)
					printf("File_Write_At_All_imb,W=%d,%d %.6e\n", window, n, ref_middle_mean(t, REPS));
				else
					printf("File_Write_At_All%s,%d %.6e\n", sync ? "_Sync" : "", n, ref_middle_mean(t, REPS));
			}
		}
	}
	MPI_Finalize();
	return 0;
}
