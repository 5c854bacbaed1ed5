/* The MPI runtime around the kernels, as Go's World, clocks, MPI_T and performance
 * variables call it: start-up and finalize (world.c), communicators, gathers and
 * broadcasts of the job's own values, allocation, the clock synchronisation's
 * exchanges (clock.c), control variables (mpit.c) and performance variables (pvars.c).
 * None of it is on a kernel's timed path. */
#ifndef SKAMPI_RUNTIME_H
#define SKAMPI_RUNTIME_H

#include "skampi.h"

int sk_clock_client(MPI_Fint comm, int server, int n, double delay, double *send, double *remote,
                    double *recv, double *model, int words);
int sk_clock_server(MPI_Fint comm, int client, int n, const double *model, int words);
double sk_tick(void);

int sk_init(int required, int *provided);
/* mpit.c: control variables through MPI_T, by index (see the file). */
int sk_mpit_start(void);
int sk_mpit_cvar_count(int *n);
int sk_mpit_cvar_name(int i, char *name, int len);
int sk_mpit_cvar_read(int i, char *out, int len);
/* pvars.c: performance variables read around a point's repetitions (see the file). */
struct sk_pvars;
int sk_pvars_start(sk_ctx *c, const char *list, const char *open, struct sk_pvars **out);
int sk_pvars_count(const struct sk_pvars *p);
int sk_pvars_get(struct sk_pvars *p, int i, const char **name, int *cls, int *count, double *start, double *end);
int sk_pvars_is_delta(int cls);
void sk_pvars_free(struct sk_pvars *p);
int sk_finalize(void);
int sk_finalized(void);
void sk_abort(int code);
int sk_comm_dup_world(MPI_Fint *out);
int sk_comm_split(MPI_Fint parent, int member, int key, MPI_Fint *out);
int sk_comm_free(MPI_Fint *comm);
int sk_rank(MPI_Fint comm, int *rank);
int sk_size(MPI_Fint comm, int *size);
int sk_gather_double(MPI_Fint comm, double v, double *out);
int sk_settle(MPI_Fint comm, double max_s, int *rounds, double *median);
int sk_bcast_ll(MPI_Fint comm, long long *v);
int sk_allgather_names(MPI_Fint comm, char *out, int stride);
int sk_gather_strv(MPI_Fint comm, const char *mine, int len, int *lens, char **out);
void sk_error_info(int code, int *class, char *out, int len);
void sk_library_version(char *out, int len, int *version, int *subversion);
int sk_alloc(long long bytes, char **out);
int sk_free(char *p);

#endif
