/* A strided ping-pong as a plain C program, for bench/reference.sh: what skampi's
 * Pingpong_Send_Recv measures under data_layout = MODE, stride STRIDE
 * (ops/mpi/datatypes.c): the payload is SIZE / 8 doubles, STRIDE doubles apart;
 *   vector  MPI_Type_vector(n, 1, STRIDE, MPI_DOUBLE), resized to SIZE * STRIDE bytes,
 *           committed once per size; MPI_Send then MPI_Recv of one of it
 *   packed  per message MPI_Pack of that vector into a contiguous buffer, MPI_Send of
 *           MPI_PACKED; the receiver MPI_Recv, then MPI_Unpack into its strided buffer
 * Timed as ref_latency.c times osu_latency's loop (one timer pair around the loop,
 * one-way = loop / (2 iters), the median of REF_LOOPS loops). After the last loop
 * rank 0 checks every element it received is where it belongs and the gaps untouched.
 *
 * Usage: mpirun -np 2 ref_datatype vector|packed STRIDE SIZE...
 * stdout: "SIZE LATENCY_S" per size. */
#include "ref_common.h"

static void exchange(int packed, int rank, MPI_Datatype t, char *s_buf, char *r_buf, char *pk, char *upk, int psize) {
	int peer = 1 - rank, pos = 0;
	for (int side = 0; side < 2; side++) {
		if ((side == 0) == (rank == 0)) { /* rank 0 sends first, rank 1 second */
			if (packed) {
				pos = 0;
				CK(MPI_Pack(s_buf, 1, t, pk, psize, &pos, MPI_COMM_WORLD));
				CK(MPI_Send(pk, pos, MPI_PACKED, peer, 1, MPI_COMM_WORLD));
			} else {
				CK(MPI_Send(s_buf, 1, t, peer, 1, MPI_COMM_WORLD));
			}
		} else if (packed) {
			CK(MPI_Recv(upk, psize, MPI_PACKED, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
			pos = 0;
			CK(MPI_Unpack(upk, psize, &pos, r_buf, 1, t, MPI_COMM_WORLD));
		} else {
			CK(MPI_Recv(r_buf, 1, t, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		}
	}
}

int main(int argc, char **argv) {
	int rank, size;
	ref_init(&argc, &argv, &rank, &size);
	if (argc < 4 || (strcmp(argv[1], "vector") && strcmp(argv[1], "packed")) || atoi(argv[2]) < 1) {
		if (rank == 0) fprintf(stderr, "usage: ref_datatype vector|packed STRIDE SIZE...\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	int packed = !strcmp(argv[1], "packed"), stride = atoi(argv[2]);
	long max = 8;
	for (int i = 3; i < argc; i++)
		if (atol(argv[i]) > max) max = atol(argv[i]);
	size_t span = (size_t)max * (size_t)stride;
	char *s_buf = ref_alloc(span), *r_buf = ref_alloc(span), *pk = ref_alloc((size_t)max), *upk = ref_alloc((size_t)max);
	for (size_t i = 0; i < span / 8; i++) ((double *)s_buf)[i] = (double)i;
	for (int a = 3; a < argc; a++) {
		int n = (int)atol(argv[a]), elems = n / 8;
		if (n < 8 || n % 8) {
			if (rank == 0) fprintf(stderr, "ref_datatype: size %d is not whole doubles\n", n);
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
		MPI_Datatype v, t;
		CK(MPI_Type_vector(elems, 1, stride, MPI_DOUBLE, &v));
		CK(MPI_Type_create_resized(v, 0, (MPI_Aint)n * stride, &t));
		CK(MPI_Type_free(&v));
		CK(MPI_Type_commit(&t));
		int psize;
		CK(MPI_Pack_size(1, t, MPI_COMM_WORLD, &psize));
		memset(r_buf, 0xC3, (size_t)n * stride);
		int iters = n > 8192 ? 1000 : 10000, skip = n > 8192 ? 10 : 100, loops = ref_loops();
		double lat[REF_MAX_LOOPS];
		for (int l = 0; l < loops; l++) {
			double t0 = 0;
			CK(MPI_Barrier(MPI_COMM_WORLD));
			for (int i = 0; i < iters + skip; i++) {
				if (i == skip) t0 = ref_now();
				exchange(packed, rank, t, s_buf, r_buf, pk, upk, psize);
			}
			lat[l] = (ref_now() - t0) / (2.0 * iters);
		}
		for (long off = 0; off < (long)n * stride; off++) {
			unsigned char want = off % (8 * stride) < 8 ? (unsigned char)s_buf[off] : 0xC3;
			if ((unsigned char)r_buf[off] != want) {
				fprintf(stderr, "ref_datatype: rank %d, %d B: byte %ld is 0x%02x, not 0x%02x\n", rank, n, off,
				        (unsigned char)r_buf[off], want);
				MPI_Abort(MPI_COMM_WORLD, 1);
			}
		}
		CK(MPI_Type_free(&t));
		if (rank == 0) printf("%d %.6e\n", n, ref_median(lat, loops));
	}
	MPI_Finalize();
	return 0;
}
