/*
 * common.c: errors, allocation that never fails quietly, UTF-8 helpers.
 *
 * Nothing here prints except sv_die(), the one way out for states that
 * cannot be recovered from (allocation failure, broken invariants).
 */
#include "scopeview/common.h"
#include "scopeview/heap.h"

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wchar.h>

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

/* Blocks from this size up are released in steps of SV_FREE_STEP. */
#define SV_FREE_BIG  ((size_t)32 << 20)
#define SV_FREE_STEP ((size_t)8 << 20)

/* free(p), its pages released first when it is big and (held) the heap
 * is not to keep them. */
static void free_pages(void *p, bool keep_held)
{
	size_t n = p ? malloc_usable_size(p) : 0;
	long pg = sysconf(_SC_PAGESIZE);

	/* Held, the heap keeps the block for the next (heap.h). */
	if (n >= SV_FREE_BIG && pg > 0 && !(keep_held && sv_heap_holding())) {
		/* Only whole pages inside the block, clear of the allocator's
		 * headers on either side. */
		uintptr_t a = ((uintptr_t)p + (uintptr_t)pg - 1) &
			      ~((uintptr_t)pg - 1),
			  e = ((uintptr_t)p + n - 64) & ~((uintptr_t)pg - 1);
		while (a < e) {
			size_t step =
				e - a < SV_FREE_STEP ? e - a : SV_FREE_STEP;
			(void)madvise((void *)a, step, MADV_DONTNEED);
			a += step;
		}
	}
	free(p);
}

void sv_free_big(void *p)
{
	free_pages(p, true);
}

void sv_free_spent(void *p)
{
	free_pages(p, false);
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

/* The well-formed sequences (Unicode 15, table 3-7): the range of the
 * second byte depends on the first; later bytes are 80..BF. */
static bool utf8_second_ok(unsigned char lead, unsigned char b)
{
	switch (lead) {
	case 0xE0:
		return b >= 0xA0 && b <= 0xBF;
	case 0xED:
		return b >= 0x80 && b <= 0x9F;
	case 0xF0:
		return b >= 0x90 && b <= 0xBF;
	case 0xF4:
		return b >= 0x80 && b <= 0x8F;
	default:
		return b >= 0x80 && b <= 0xBF;
	}
}

size_t sv_utf8_decode(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t c;
	size_t len, i;

	*cp = 0xFFFD;
	if (n == 0)
		return 1;
	c = u[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		len = 3;
	else if (c >= 0xF0 && c <= 0xF4)
		len = 4;
	else
		return 1; /* never a lead byte */
	c &= len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07;
	/* An invalid sequence is replaced by one U+FFFD per maximal
	 * subpart, as Python's decode(errors="replace") does: the longest
	 * prefix of a well-formed sequence is consumed whole. */
	for (i = 1; i < len; i++) {
		bool ok = i < n && (i == 1 ? utf8_second_ok(u[0], u[1])
					   : (u[i] & 0xC0) == 0x80);
		if (!ok)
			return i;
		c = (c << 6) | (u[i] & 0x3F);
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

/* The locale whose wcwidth() the widths come from: the environment's
 * LC_CTYPE when it is UTF-8 (the terminal's), else C.UTF-8; (locale_t)0
 * when neither exists. */
static locale_t utf8_width_locale;

static void utf8_width_init(void)
{
	locale_t l = newlocale(LC_CTYPE_MASK, "", (locale_t)0);

	if (l && strcmp(nl_langinfo_l(CODESET, l), "UTF-8") != 0) {
		freelocale(l);
		l = (locale_t)0;
	}
	if (!l)
		l = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	utf8_width_locale = l;
}

int sv_utf8_width(uint32_t cp)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	locale_t old;
	int w;

	if (cp < 0x300)
		return 1;
	pthread_once(&once, utf8_width_init);
	if (!utf8_width_locale)
		return 1;
	old = uselocale(utf8_width_locale);
	w = wcwidth((wchar_t)cp);
	uselocale(old);
	/* Not printable (unassigned, a noncharacter): terminals give such a
	 * code point one column (its replacement glyph). */
	return w < 0 ? 1 : w > 2 ? 2 : w;
}

bool sv_utf8_format_control(uint32_t cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

bool sv_utf8_is_control(uint32_t cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
	       sv_utf8_format_control(cp) || (cp >= 0xd800 && cp < 0xe000);
}

int sv_utf8_escape(uint32_t cp, char out[SV_UTF8_ESCAPE_MAX])
{
	switch (cp) {
	case '\n':
		return snprintf(out, SV_UTF8_ESCAPE_MAX, "\\n");
	case '\t':
		return snprintf(out, SV_UTF8_ESCAPE_MAX, "\\t");
	case '\r':
		return snprintf(out, SV_UTF8_ESCAPE_MAX, "\\r");
	default:
		break;
	}
	if (cp < 0x100)
		return snprintf(
			out, SV_UTF8_ESCAPE_MAX, "\\x%02x", (unsigned)cp);
	return snprintf(out, SV_UTF8_ESCAPE_MAX, "\\u%04x", (unsigned)cp);
}

/* Text made safe for a terminal, by the grid's rule (sv_utf8_is_control,
 * sv_utf8_escape).  Returns a malloc'd string; *width gets its width in
 * terminal columns (as the viewer's grid counts them: wide characters
 * take two, combining marks none). */
char *sv_utf8_terminal_safe(const char *s, size_t *width)
{
	size_t n = s ? strlen(s) : 0, i = 0, len = 0, w = 0;
	/* An escape takes at most 4 bytes a byte of input ("\x1b" for 1,
	 * "\u202e" for 3). */
	char *o = sv_xmalloc(n * 4 + SV_UTF8_ESCAPE_MAX);

	while (i < n) {
		uint32_t cp;
		size_t used = sv_utf8_decode(s + i, n - i, &cp);
		if (sv_utf8_is_control(cp)) {
			int k = sv_utf8_escape(cp, o + len);
			len += (size_t)k;
			w += (size_t)k;
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
