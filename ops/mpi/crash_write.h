/* The crash handler's output (crash.c's alone): async-signal-safe writes to a file
 * descriptor (a string, a hex address, an integer, a JSON string's inside), the
 * signal's name, and a small line buffer, with no allocation and no stdio. */
#ifndef SK_CRASH_WRITE_H
#define SK_CRASH_WRITE_H

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static size_t slen(const char *s) { return strlen(s); }
static void put(int fd, const char *s) {
	size_t n = slen(s);
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR) continue;
		if (w <= 0) return;
		s += w;
		n -= (size_t)w;
	}
}
static void put_hex(int fd, uintptr_t v) {
	char b[2 + 2 * sizeof v + 1], *p = b + sizeof b - 1;
	*p = 0;
	do {
		*--p = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	*--p = 'x';
	*--p = '0';
	put(fd, p);
}
static void put_int(int fd, long v) {
	char b[24], *p = b + sizeof b - 1;
	int neg = v < 0;
	unsigned long u = neg ? -(unsigned long)v : (unsigned long)v;
	*p = 0;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (neg) *--p = '-';
	put(fd, p);
}
/* put_json writes s as the inside of a JSON string. */
static void put_json(int fd, const char *s) {
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char e[7] = {'\\', 0};
		if (c == '"' || c == '\\') {
			e[1] = (char)c;
		} else if (c < 0x20) {
			e[1] = 'u', e[2] = '0', e[3] = '0', e[4] = "0123456789abcdef"[c >> 4], e[5] = "0123456789abcdef"[c & 15];
		} else {
			e[0] = (char)c;
		}
		put(fd, e);
	}
}

static const char *sig_name(int sig) {
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGILL: return "SIGILL";
	case SIGFPE: return "SIGFPE";
	case SIGABRT: return "SIGABRT";
	}
	return "a signal";
}

/* A small buffer, for the line that goes to several places. */
typedef struct {
	char b[2048];
	size_t n;
} line_t;
static void add(line_t *l, const char *s) {
	size_t n = slen(s);
	if (n > sizeof l->b - 1 - l->n) n = sizeof l->b - 1 - l->n;
	memcpy(l->b + l->n, s, n);
	l->n += n;
	l->b[l->n] = 0;
}

#endif
