//go:build mpi

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>
#include "crash.h"
#include "crash_write.h"

/* A crash inside C (the MPI or OpenSHMEM library, or a kernel of ours) becomes one line
 * and a trace file instead of the Go runtime's dump of every goroutine: the handler
 * writes what the rank was doing (the phase or point, set from Go before each), the
 * signal, the C function and the C stack into the trace file, asks a Go goroutine to add
 * every goroutine's stack, says one line on stderr (unless the launching skampi says it
 * from the trace files), appends a crash record to the results where it is the rank that
 * writes them, and ends the process with 128 + the signal, as a death by that signal.
 *
 * A fault in Go code (a nil pointer, which Go turns into a panic) is left to Go: the
 * handler takes a signal as a crash in C only when its PC lies in a shared library
 * (Go code never runs there) or when it arrived on the main thread, the one that calls
 * MPI, while it ran on that thread's own stack (cgo calls do; Go code runs on goroutine
 * stacks). Elsewhere the previous handler, Go's, runs as before. */

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
#define NCRASH (sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction previous[NSIG];

static char rank_text[32] = "?";
static char host[256] = "?";
static char launch_token[64];
static char trace_path[4096];
static char fallback_path[4096];
static char results_path[4096];
static int quiet; /* the launching skampi says the line, from the trace files */
static pid_t main_tid;
static uintptr_t main_stack_lo, main_stack_hi;
static int dump_req = -1, dump_rep = -1; /* pipes to the Go goroutine that adds the goroutines' stacks */

/* What the rank is doing: two slots, the handler reads the one `where_cur` names, Go
 * fills the other and then flips it, so a crash mid-update reads a whole one. */
#define WHERE_TEXT 512
#define WHERE_JSON 8192
typedef struct {
	char text[WHERE_TEXT];  /* "Selftest_Segfault \"segv\", 8 bytes, 2 processes" or "start-up: MPI_Init" */
	char point[WHERE_JSON]; /* the point as a JSON fault record with no detail ("" for a phase) */
	char pre[WHERE_JSON];   /* the crash record up to its detail ("": this rank writes none) */
	char post[WHERE_JSON];  /* and after it */
} where_t;
static where_t where_slot[2];
static volatile int where_cur;

/* Filled while handling: what the Go goroutine reads (sk_crash_info). */
static volatile sig_atomic_t crashing;
static int crash_sig, crash_fd = -1;
static uintptr_t crash_pc, crash_addr;
static void *crash_frames[64];
static int crash_nframes;
static char crash_function[256];

static void context_regs(void *uc, uintptr_t *pc, uintptr_t *sp) {
	*pc = *sp = 0;
	if (!uc) return;
	ucontext_t *u = uc;
#if defined(__x86_64__)
	*pc = (uintptr_t)u->uc_mcontext.gregs[REG_RIP];
	*sp = (uintptr_t)u->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
	*pc = (uintptr_t)u->uc_mcontext.pc;
	*sp = (uintptr_t)u->uc_mcontext.sp;
#elif defined(__powerpc64__)
	*pc = (uintptr_t)u->uc_mcontext.gp_regs[32];
	*sp = (uintptr_t)u->uc_mcontext.gp_regs[1];
#else
	(void)u;
#endif
}

/* in_library reports whether pc lies in a shared object, not the executable. */
static int in_library(uintptr_t pc, Dl_info *info) {
	if (!pc || !dladdr((void *)pc, info) || !info->dli_fname) return 0;
	Dl_info self;
	if (!dladdr((void *)&in_library, &self) || !self.dli_fname) return 1;
	return info->dli_fbase != self.dli_fbase;
}

/* is_c_crash: see the comment at the top. */
static int is_c_crash(uintptr_t pc, uintptr_t sp) {
	Dl_info info;
	if (in_library(pc, &info)) return 1;
	if ((pid_t)syscall(SYS_gettid) != main_tid) return 0;
	return sp >= main_stack_lo && sp < main_stack_hi;
}

/* name_function finds the exported function holding pc (a library's; the executable's
 * own are named by the Go side from its symbol table). */
static void name_function(uintptr_t pc) {
	Dl_info info;
	ElfW(Sym) *sym = NULL;
	crash_function[0] = 0;
	if (!pc || !dladdr1((void *)pc, &info, (void **)&sym, RTLD_DL_SYMENT) || !info.dli_sname || !sym) return;
	uintptr_t start = (uintptr_t)info.dli_saddr;
	if (pc < start || (sym->st_size && pc >= start + sym->st_size)) return;
	size_t n = slen(info.dli_sname);
	if (n >= sizeof crash_function) n = sizeof crash_function - 1;
	memcpy(crash_function, info.dli_sname, n);
	crash_function[n] = 0;
}


/* summary is the one line, without "skampi: " and the newline. */
static void summary(line_t *l, const where_t *w, const char *trace) {
	l->n = 0, l->b[0] = 0;
	add(l, "rank ");
	add(l, rank_text);
	add(l, " (");
	add(l, host);
	add(l, "): ");
	add(l, sig_name(crash_sig));
	if (crash_function[0]) {
		add(l, " in ");
		add(l, crash_function);
	}
	add(l, " during ");
	add(l, w->text[0] ? w->text : "start-up");
	if (trace) {
		add(l, "; trace in ");
		add(l, trace);
	}
}

/* record appends the crash record to the results, under a launcher other than
 * skampi's; it returns whether the results hold it now. Several ranks may crash in one
 * point: under a lock on the file, the record is appended unless the end of the file
 * holds it already (the part before the detail is the same on every rank). */
static int record(const where_t *w, const char *trace) {
	if (!results_path[0] || !w->pre[0]) return 0;
	int fd = open(results_path, O_RDWR | O_APPEND | O_CLOEXEC);
	if (fd < 0) return 0;
	flock(fd, LOCK_EX); /* released by close */
	off_t end = lseek(fd, 0, SEEK_END);
	static char tail[65536 + 1];
	off_t from = end > (off_t)(sizeof tail - 1) ? end - (off_t)(sizeof tail - 1) : 0;
	ssize_t n = end > 0 ? pread(fd, tail, (size_t)(end - from), from) : 0;
	tail[n > 0 ? n : 0] = 0;
	if (n > 0 && memmem(tail, (size_t)n, w->pre, slen(w->pre))) {
		close(fd);
		return 1;
	}
	if (n > 0 && tail[n - 1] != '\n') put(fd, "\n");
	static line_t l;
	summary(&l, w, trace);
	put(fd, w->pre);
	put_json(fd, l.b);
	put(fd, w->post);
	put(fd, "\n");
	fsync(fd);
	close(fd);
	return 1;
}

static void previous_handler(int sig, siginfo_t *info, void *uc) {
	struct sigaction *old = &previous[sig];
	if (old->sa_flags & SA_SIGINFO) {
		if (old->sa_sigaction) old->sa_sigaction(sig, info, uc);
	} else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
		old->sa_handler(sig);
	} else {
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

static void crash_handler(int sig, siginfo_t *info, void *uc) {
	uintptr_t pc, sp;
	context_regs(uc, &pc, &sp);
	if (!is_c_crash(pc, sp)) {
		previous_handler(sig, info, uc);
		return;
	}
	if (__atomic_exchange_n(&crashing, 1, __ATOMIC_SEQ_CST)) {
		for (;;) pause(); /* another thread is reporting; its _exit ends this one too */
	}
	const where_t *w = &where_slot[where_cur];
	crash_sig = sig, crash_pc = pc, crash_addr = info ? (uintptr_t)info->si_addr : 0;
	name_function(pc);
	crash_nframes = backtrace(crash_frames, sizeof crash_frames / sizeof crash_frames[0]);

	const char *trace = trace_path;
	int fd = trace_path[0] ? open(trace_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
	if (fd < 0 && fallback_path[0]) {
		trace = fallback_path;
		fd = open(fallback_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	}
	if (fd < 0) trace = NULL;
	crash_fd = fd;
	if (fd >= 0) {
		put(fd, "skampi crash report\nlaunch: ");
		put(fd, launch_token);
		put(fd, "\nrank: ");
		put(fd, rank_text);
		put(fd, "\nhost: ");
		put(fd, host);
		put(fd, "\npid: ");
		put_int(fd, (long)getpid());
		put(fd, "\nsignal: ");
		put(fd, sig_name(sig));
		put(fd, "\nsignal-code: ");
		put_int(fd, info ? info->si_code : 0);
		put(fd, "\naddress: ");
		put_hex(fd, crash_addr);
		put(fd, "\npc: ");
		put_hex(fd, pc);
		Dl_info di;
		if (pc && dladdr((void *)pc, &di) && di.dli_fname) {
			put(fd, "\nobject: ");
			put(fd, di.dli_fname);
			put(fd, " +");
			put_hex(fd, pc - (uintptr_t)di.dli_fbase);
		}
		if (crash_function[0]) {
			put(fd, "\nfunction: ");
			put(fd, crash_function);
		}
		put(fd, "\nduring: ");
		put(fd, w->text[0] ? w->text : "start-up");
		put(fd, "\npoint: ");
		put(fd, w->point);
		put(fd, "\n\nC stack (the handler's frames first):\n");
		backtrace_symbols_fd(crash_frames, crash_nframes, fd);
	}
	/* The Go side: the executable's own function names, every goroutine's stack. It
	 * runs on another thread; a runtime this crash left unable to run is waited for
	 * 3 s at most. */
	if (dump_req >= 0 && dump_rep >= 0) {
		char one = 1;
		if (write(dump_req, &one, 1) == 1) {
			struct pollfd p = {.fd = dump_rep, .events = POLLIN};
			int rc;
			do rc = poll(&p, 1, 3000);
			while (rc < 0 && errno == EINTR);
			if (rc > 0) {
				ssize_t r = read(dump_rep, &one, 1);
				(void)r;
			} else if (fd >= 0) {
				put(fd, "\n(no Go stacks: the Go runtime did not answer within 3 s)\n");
			}
		}
	}
	if (!quiet || fd < 0) {
		static line_t l;
		summary(&l, w, trace);
		put(2, "skampi: ");
		put(2, l.b);
		put(2, "\n");
	}
	if (!quiet && record(w, trace) && fd >= 0) {
		put(fd, "\nrecorded: ");
		put(fd, results_path);
		put(fd, "\n");
	}
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	_exit(128 + sig);
}

static int install(void) {
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = crash_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NCRASH; i++) sigaddset(&sa.sa_mask, crash_signals[i]);
	for (size_t i = 0; i < NCRASH; i++) {
		int sig = crash_signals[i];
		struct sigaction cur;
		if (sigaction(sig, NULL, &cur) != 0) return -1;
		if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == crash_handler) continue; /* still ours */
		if (sigaction(sig, &sa, &previous[sig]) != 0) return -1;
	}
	return 0;
}

static void copy(char *dst, size_t cap, const char *src) {
	size_t n = src ? strlen(src) : 0;
	if (n >= cap) n = cap - 1;
	memcpy(dst, src ? src : "", n);
	dst[n] = 0;
}

/* copy_path copies a path whole or not at all: a path cut short names another file,
 * which a crash would then write into. */
static void copy_path(char *dst, size_t cap, const char *src) {
	copy(dst, cap, src && strlen(src) < cap ? src : "");
}

int sk_crash_arm(int rank, const char *hostname, const char *trace, const char *fallback, const char *token,
                 int quiet_, int req_fd, int rep_fd) {
	if (rank >= 0) {
		snprintf(rank_text, sizeof rank_text, "%d", rank);
	}
	copy(host, sizeof host, hostname);
	copy_path(trace_path, sizeof trace_path, trace);
	copy_path(fallback_path, sizeof fallback_path, fallback);
	copy(launch_token, sizeof launch_token, token);
	quiet = quiet_;
	if (req_fd >= 0) dump_req = req_fd, dump_rep = rep_fd;
	if (!main_tid) {
		/* Called on the main thread, which calls MPI: its stack, as pthread knows it. */
		main_tid = (pid_t)syscall(SYS_gettid);
		pthread_attr_t a;
		void *lo;
		size_t size;
		if (pthread_getattr_np(pthread_self(), &a) == 0) {
			if (pthread_attr_getstack(&a, &lo, &size) == 0)
				main_stack_lo = (uintptr_t)lo, main_stack_hi = (uintptr_t)lo + size;
			pthread_attr_destroy(&a);
		}
		void *warm[2];
		backtrace(warm, 2); /* loads the unwinder now: the handler must not */
	}
	return install();
}

int sk_crash_rearm(void) { return install(); }

void sk_crash_results(const char *path) { copy_path(results_path, sizeof results_path, path); }

void sk_crash_where(const char *text, const char *point, const char *pre, const char *post) {
	int next = !where_cur;
	where_t *w = &where_slot[next];
	copy(w->text, sizeof w->text, text);
	copy(w->point, sizeof w->point, point);
	copy(w->pre, sizeof w->pre, pre);
	copy(w->post, sizeof w->post, post);
	__atomic_store_n(&where_cur, next, __ATOMIC_RELEASE);
}

int sk_crash_info(int *fd, uintptr_t *pc, void ***frames, int *nframes) {
	*fd = crash_fd, *pc = crash_pc, *frames = crash_frames, *nframes = crash_nframes;
	return crash_sig;
}

void sk_crash_set_function(const char *name) {
	if (!crash_function[0]) copy(crash_function, sizeof crash_function, name);
}

const char *sk_crash_function(void) { return crash_function; }

/* The self-test of a crash in start-up (SKAMPI_SELFTEST_SEGFAULT_RANK). */
void sk_crash_selftest(void) {
	volatile int *nowhere = NULL;
	*nowhere = 1;
}

/* sk_crash_frame describes a frame for the Go side: its object, offset in it, and the
 * exported function holding it ("" when none does); 0 when dladdr knows nothing. */
int sk_crash_frame(void *pc, char *obj, int objn, char *sym, int symn, uintptr_t *off) {
	Dl_info info;
	ElfW(Sym) *es = NULL;
	obj[0] = sym[0] = 0;
	*off = 0;
	if (!pc || !dladdr1(pc, &info, (void **)&es, RTLD_DL_SYMENT) || !info.dli_fname) return 0;
	copy(obj, (size_t)objn, info.dli_fname);
	*off = (uintptr_t)pc - (uintptr_t)info.dli_fbase;
	uintptr_t start = (uintptr_t)info.dli_saddr;
	if (info.dli_sname && es && (uintptr_t)pc >= start && (!es->st_size || (uintptr_t)pc < start + es->st_size))
		copy(sym, (size_t)symn, info.dli_sname);
	return 1;
}
