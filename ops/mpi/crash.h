#ifndef SK_CRASH_H
#define SK_CRASH_H
#include <stdint.h>

/* The crash report of crash.c: installed before MPI_Init, again after any library
 * start-up that may have put handlers of its own on top (sk_crash_rearm). */
int sk_crash_arm(int rank, const char *host, const char *trace, const char *fallback, const char *token,
                 int quiet, int req_fd, int rep_fd);
int sk_crash_rearm(void);
void sk_crash_results(const char *path);
void sk_crash_where(const char *text, const char *point, const char *pre, const char *post);
int sk_crash_info(int *fd, uintptr_t *pc, void ***frames, int *nframes);
void sk_crash_set_function(const char *name);
const char *sk_crash_function(void);
void sk_crash_selftest(void);
int sk_crash_frame(void *pc, char *obj, int objn, char *sym, int symn, uintptr_t *off);

#endif
