//go:build mpi

/* Clock synchronisation ping-pongs (see clocksync.Exchanger): the client takes the
 * timestamps, the server answers with its clock, then sends its model. */
#include "skampi.h"
#include "runtime.h"

#define CLOCK_TAG 7

int sk_clock_client(MPI_Fint comm, int server, int n, double delay, double *send, double *remote,
                    double *recv, double *model, int words) {
	MPI_Comm c = MPI_Comm_f2c(comm);
	char ping = 0;
	int rc;
	for (double until = sk_now() + delay; sk_now() < until;)
		;
	for (int i = 0; i < n; i++) {
		send[i] = sk_now();
		if ((rc = MPI_Send(&ping, 1, MPI_BYTE, server, CLOCK_TAG, c)) != MPI_SUCCESS) return rc;
		if ((rc = MPI_Recv(&remote[i], 1, MPI_DOUBLE, server, CLOCK_TAG, c, MPI_STATUS_IGNORE)) != MPI_SUCCESS) return rc;
		recv[i] = sk_now();
	}
	return MPI_Recv(model, words, MPI_DOUBLE, server, CLOCK_TAG, c, MPI_STATUS_IGNORE);
}

int sk_clock_server(MPI_Fint comm, int client, int n, const double *model, int words) {
	MPI_Comm c = MPI_Comm_f2c(comm);
	char ping;
	int rc;
	for (int i = 0; i < n; i++) {
		if ((rc = MPI_Recv(&ping, 1, MPI_BYTE, client, CLOCK_TAG, c, MPI_STATUS_IGNORE)) != MPI_SUCCESS) return rc;
		double t = sk_now();
		if ((rc = MPI_Send(&t, 1, MPI_DOUBLE, client, CLOCK_TAG, c)) != MPI_SUCCESS) return rc;
	}
	return MPI_Send((void *)model, words, MPI_DOUBLE, client, CLOCK_TAG, c);
}
