/*
 * common.c: errors, allocation that never fails quietly, UTF-8 helpers.
 *
 * Nothing here prints except sv_die(), the one way out for states that
 * cannot be recovered from (allocation failure, broken invariants).
 */
#include "scopeview/common.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*die_hook)(void);

int sv_error_set(struct sv_error *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		err->code = code;
		vsnprintf(err->msg, sizeof err->msg, fmt, ap);
		va_end(ap);
	}
	return code;
}

void sv_set_die_hook(void (*hook)(void))
{
	die_hook = hook;
}

void sv_die(const char *fmt, ...)
{
	va_list ap;
	if (die_hook) {
		void (*hook)(void) = die_hook;
		die_hook = NULL;
		hook();
	}
	fputs("scopeview: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(70);
}

void *sv_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		sv_die("out of memory (%zu bytes)", size);
	return p;
}

void *sv_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		sv_die("out of memory (%zu x %zu bytes)", nmemb, size);
	return p;
}

void *sv_xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);
	if (!p)
		sv_die("out of memory (%zu bytes)", size);
	return p;
}

void *sv_xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		sv_die("out of memory (%zu x %zu bytes)", nmemb, size);
	return sv_xrealloc(ptr, nmemb * size);
}

char *sv_xstrdup(const char *s)
{
	return sv_xstrndup(s, strlen(s));
}

char *sv_xstrndup(const char *s, size_t n)
{
	char *p = sv_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *sv_xvasprintf(const char *fmt, va_list ap)
{
	va_list ap2;
	int n;
	char *p;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		sv_die("bad format string");
	p = sv_xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *sv_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	va_start(ap, fmt);
	p = sv_xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

void sv_grow(void **buf, size_t *cap, size_t need, size_t elem)
{
	size_t n;
	if (need <= *cap)
		return;
	n = *cap ? *cap : 16;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			sv_die("out of memory (growing to %zu elements)", need);
		n *= 2;
	}
	*buf = sv_xreallocarray(*buf, n, elem);
	*cap = n;
}

size_t sv_utf8_decode(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t c, min;
	size_t len, i;

	if (n == 0) {
		*cp = 0xFFFD;
		return 1;
	}
	c = u[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xE0) == 0xC0) {
		len = 2;
		c &= 0x1F;
		min = 0x80;
	} else if ((c & 0xF0) == 0xE0) {
		len = 3;
		c &= 0x0F;
		min = 0x800;
	} else if ((c & 0xF8) == 0xF0) {
		len = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		*cp = 0xFFFD;
		return 1;
	}
	if (len > n) {
		*cp = 0xFFFD;
		return 1;
	}
	for (i = 1; i < len; i++) {
		if ((u[i] & 0xC0) != 0x80) {
			*cp = 0xFFFD;
			return 1;
		}
		c = (c << 6) | (u[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
		*cp = 0xFFFD;
		return 1;
	}
	*cp = c;
	return len;
}

size_t sv_utf8_encode(uint32_t cp, char *out)
{
	unsigned char *o = (unsigned char *)out;
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		return 1;
	} else if (cp < 0x800) {
		o[0] = (unsigned char)(0xC0 | (cp >> 6));
		o[1] = (unsigned char)(0x80 | (cp & 0x3F));
		return 2;
	} else if (cp < 0x10000) {
		o[0] = (unsigned char)(0xE0 | (cp >> 12));
		o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (unsigned char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (unsigned char)(0xF0 | (cp >> 18));
	o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (unsigned char)(0x80 | (cp & 0x3F));
	return 4;
}

char *sv_utf8_sanitize(const char *s, size_t n)
{
	/* U+FFFD takes 3 bytes where the bad byte took 1. */
	char *out = sv_xmalloc(n * 3 + 1);
	size_t i = 0, o = 0;
	while (i < n) {
		uint32_t cp;
		size_t used = sv_utf8_decode(s + i, n - i, &cp);
		if (cp == 0) {
			i += used;
			continue;
		}
		if (cp == 0xFFFD || used > 1)
			o += sv_utf8_encode(cp, out + o);
		else
			out[o++] = s[i];
		i += used;
	}
	out[o] = '\0';
	return sv_xrealloc(out, o + 1);
}

int sv_utf8_width(uint32_t cp)
{
	static const uint32_t zero[][2] = {
		{0x0300, 0x036f},
		{0x0483, 0x0489},
		{0x0591, 0x05bd},
		{0x0610, 0x061a},
		{0x064b, 0x065f},
		{0x0e31, 0x0e31},
		{0x0e34, 0x0e3a},
		{0x1ab0, 0x1aff},
		{0x1dc0, 0x1dff},
		{0x200b, 0x200d},
		{0x20d0, 0x20ff},
		{0xfe00, 0xfe0f},
		{0xfe20, 0xfe2f},
		{0xfeff, 0xfeff},
		{0xe0100, 0xe01ef},
	};
	static const uint32_t wide[][2] = {
		{0x1100, 0x115f},
		{0x231a, 0x231b},
		{0x2329, 0x232a},
		{0x23e9, 0x23ec},
		{0x2614, 0x2615},
		{0x2e80, 0x303e},
		{0x3041, 0x33ff},
		{0x3400, 0x4dbf},
		{0x4e00, 0x9fff},
		{0xa000, 0xa4cf},
		{0xa960, 0xa97f},
		{0xac00, 0xd7a3},
		{0xf900, 0xfaff},
		{0xfe10, 0xfe19},
		{0xfe30, 0xfe6f},
		{0xff00, 0xff60},
		{0xffe0, 0xffe6},
		{0x1f300, 0x1f64f},
		{0x1f680, 0x1f6ff},
		{0x1f900, 0x1f9ff},
		{0x20000, 0x3fffd},
	};
	size_t i;

	if (cp < 0x300)
		return 1;
	for (i = 0; i < sizeof zero / sizeof zero[0]; i++)
		if (cp >= zero[i][0] && cp <= zero[i][1])
			return 0;
	for (i = 0; i < sizeof wide / sizeof wide[0]; i++)
		if (cp >= wide[i][0] && cp <= wide[i][1])
			return 2;
	return 1;
}

/* Bidirectional controls, which would reorder what follows them on a
 * terminal. */
static bool utf8_bidi(uint32_t cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Text made safe for a terminal: control characters (C0, DEL, C1) become
 * \xNN and bidirectional controls \uNNNN.  Returns a malloc'd string;
 * *width gets its width in terminal columns (as the viewer's grid counts
 * them: wide characters take two, combining marks none). */
char *sv_utf8_terminal_safe(const char *s, size_t *width)
{
	size_t n = strlen(s), i = 0, len = 0, cap = n * 6 + 1, w = 0;
	char *o = sv_xmalloc(cap);

	while (i < n) {
		uint32_t cp;
		size_t used = sv_utf8_decode(s + i, n - i, &cp);
		if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) {
			len += (size_t)snprintf(
				o + len, cap - len, "\\x%02x", (unsigned)cp);
			w += 4;
		} else if (utf8_bidi(cp)) {
			len += (size_t)snprintf(
				o + len, cap - len, "\\u%04x", (unsigned)cp);
			w += 6;
		} else {
			len += sv_utf8_encode(cp, o + len);
			w += (size_t)sv_utf8_width(cp);
		}
		i += used;
	}
	o[len] = '\0';
	if (width)
		*width = w;
	return o;
}
