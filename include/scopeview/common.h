/*
 * common.h: the error record, allocation helpers and small utilities every
 * module shares.
 *
 * Library code never prints and never exits on bad input: functions that
 * can fail because of what a file or a person gave them return 0 or a
 * negative errno and fill a struct sv_error with one line a person can act
 * on.  Running out of memory is not such a failure: the sv_x* helpers
 * abort through sv_die(), which first runs the hook the terminal backend
 * registered, so the terminal is restored before the message is printed.
 */
#ifndef SCOPEVIEW_COMMON_H
#define SCOPEVIEW_COMMON_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_CORE)
#error "scopeview/common.h belongs to the core layer, which this layer may not use"
#endif

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define SV_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define SV_NORETURN     __attribute__((noreturn))
#else
#define SV_PRINTF(a, b)
#define SV_NORETURN
#endif

/* 128-bit integers for exact products of nanoseconds and columns. */
__extension__ typedef __int128 sv_i128;

/* a - b and a + b wrapping around like numpy's int64 instead of
 * overflowing: a damaged file with absurd times must not be undefined
 * behaviour. */
static inline int64_t sv_sub_wrap(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}
static inline int64_t sv_add_wrap(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}
/* The end of the time a call [s, e) covers, as it is drawn and counted:
 * a call of no length (or a negative one) covers [s, s + 1), and nothing
 * past INT64_MAX. */
static inline int64_t sv_covered_end(int64_t s, int64_t e)
{
	return e > s ? e : s == INT64_MAX ? s : s + 1;
}

/* FNV-1a of a NUL-terminated string: the hash of the name tables. */
static inline uint64_t sv_hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* b - a saturated to int64's range (never undefined): the length of a
 * call or span whatever the times. */
static inline int64_t sv_sub_sat(int64_t b, int64_t a)
{
	int64_t d;
	if (__builtin_sub_overflow(b, a, &d))
		return b > a ? INT64_MAX : INT64_MIN;
	return d;
}
/* a + b saturated the same way. */
static inline int64_t sv_add_sat(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* A double (a mean, a percentile: doubles of int64 nanoseconds) as an
 * int64, saturated: from 2^63 up INT64_MAX, below -2^63 INT64_MIN, NaN 0
 * (a plain cast of those is undefined, and a mean of durations near
 * INT64_MAX rounds to 2^63). */
static inline int64_t sv_i64_sat(double v)
{
	if (v != v)
		return 0;
	if (v >= 0x1p63)
		return INT64_MAX;
	if (v < -0x1p63)
		return INT64_MIN;
	return (int64_t)v;
}

/* The times the viewer's window arithmetic works in: |t| <= 2^61, so that
 * a span and a midpoint of two of them never overflow.  Calls outside are
 * drawn clipped at the edge (the session warns that times are out of
 * range). */
#define SV_TIME_LIMIT ((int64_t)1 << 61)
static inline int64_t sv_time_clamp(int64_t t)
{
	return t > SV_TIME_LIMIT    ? SV_TIME_LIMIT
	       : t < -SV_TIME_LIMIT ? -SV_TIME_LIMIT
				    : t;
}

/* One failure, ready to print as "scopeview: <msg>". */
struct sv_error {
	int code;      /* 0, or a negative errno (-EIO, -EINVAL, ...) */
	char msg[512]; /* one line, no trailing newline */
};

/* Fill err (if not NULL) with code and a printf-formatted message; returns
 * code, so callers can write "return sv_error_set(err, -EIO, ...)". */
int sv_error_set(struct sv_error *err, int code, const char *fmt, ...)
	SV_PRINTF(3, 4);

/* Print "scopeview: <msg>" to stderr after running the abort hook, then
 * exit with status 70.  For impossible states and allocation failure. */
SV_NORETURN void sv_die(const char *fmt, ...) SV_PRINTF(1, 2);

/* Run before sv_die() prints: the terminal backend restores the screen
 * here.  Pass NULL to clear. */
void sv_set_die_hook(void (*hook)(void));

/* Allocation that never returns NULL (it calls sv_die).  sv_xmalloc(0)
 * and sv_xcalloc(0, x) return a valid, freeable pointer. */
void *sv_xmalloc(size_t size);
void *sv_xcalloc(size_t nmemb, size_t size);
void *sv_xrealloc(void *ptr, size_t size);
/* Overflow-checked nmemb * size reallocation. */
void *sv_xreallocarray(void *ptr, size_t nmemb, size_t size);
char *sv_xstrdup(const char *s);
char *sv_xstrndup(const char *s, size_t n);
/* A newly allocated printf result. */
char *sv_xasprintf(const char *fmt, ...) SV_PRINTF(1, 2);
char *sv_xvasprintf(const char *fmt, va_list ap) SV_PRINTF(1, 0);

/* free(p), for a block that may be hundreds of MB, on a thread that is
 * not the loop's: its pages are released a few MB at a time first
 * (madvise), so that the unmapping, which holds the process's memory map
 * against every other thread's mmap (a thread's stack, a new array) and
 * page faults for as long as it frees pages, is short.  A small block is
 * just freed, and so is any while a load holds the heap (heap.h): its
 * pages are then kept for the load's next blocks. */
void sv_free_big(void *p);
/* The same even while a load holds the heap, for a block the rest of the
 * load has no use for (the nesting's columns once packed): its pages go
 * back now, outside the allocator's lock, rather than all at once in the
 * trim that ends the hold, under it, while the loop waits to allocate. */
void sv_free_spent(void *p);

/* Grow *buf (holding *cap elements of size elem) so it holds at least
 * need elements; capacity doubles.  Never shrinks. */
void sv_grow(void **buf, size_t *cap, size_t need, size_t elem);

/*
 * UTF-8 helpers.  sv_utf8_decode reads one code point from s (at most n
 * bytes) into *cp and returns the number of bytes used (>= 1); an invalid
 * or truncated sequence yields U+FFFD and consumes its maximal subpart
 * (the longest prefix of a well-formed sequence, at least one byte), so
 * that text gets one U+FFFD where Python's decode(errors="replace") puts
 * one.
 */
size_t sv_utf8_decode(const char *s, size_t n, uint32_t *cp);
/* Encode cp into out (4 bytes room); returns bytes written. */
size_t sv_utf8_encode(uint32_t cp, char *out);
/* A newly allocated copy of s[0..n) in which every invalid UTF-8 sequence
 * is replaced by U+FFFD and NUL bytes are dropped. */
char *sv_utf8_sanitize(const char *s, size_t n);
/* Is cp a bidirectional control (which reorders what follows it on a
 * terminal) or U+2028/U+2029 (which break a line)?  Text from a file shows
 * these escaped, as \uNNNN. */
bool sv_utf8_format_control(uint32_t cp);
/* Terminal columns of one code point: 0, 1 or 2, as the C library's
 * wcwidth() says in the environment's LC_CTYPE when that is UTF-8 (what
 * the terminal uses), else in C.UTF-8; a code point wcwidth() calls not
 * printable counts 1.  Thread-safe; setlocale() is not needed. */
int sv_utf8_width(uint32_t cp);
/*
 * The one rule by which text from a file (or a command line) reaches a
 * terminal, on screen (the grid) and in every message: a code point that
 * sv_utf8_is_control() calls a control (C0, DEL, C1, a bidirectional
 * control or line separator, a surrogate) is shown as its escape, which
 * sv_utf8_escape() writes ("\n", "\t", "\r", "\x1b", "\u202e": ASCII,
 * NUL-terminated, at most SV_UTF8_ESCAPE_MAX bytes with the NUL) and whose
 * length it returns.
 */
#define SV_UTF8_ESCAPE_MAX 12
bool sv_utf8_is_control(uint32_t cp);
int sv_utf8_escape(uint32_t cp, char out[SV_UTF8_ESCAPE_MAX]);
/* Text made safe for a terminal by that rule (NULL reads as "").  Returns
 * a malloc'd string; *width (may be NULL) gets its width in terminal
 * columns. */
char *sv_utf8_terminal_safe(const char *s, size_t *width);

#endif
