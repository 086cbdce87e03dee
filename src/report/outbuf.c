/*
 * outbuf.c: the buffered output stream of the report writers (outbuf.h):
 * a fixed buffer flushed to a FILE, or a growing one in memory, and the
 * integer and fixed-point formatting they share.
 */
#include "scopeview/outbuf.h"

#include <errno.h>
#include <stdlib.h>

#include "scopeview/common.h"

void sv_outbuf_init(struct sv_outbuf *o, FILE *file)
{
	memset(o, 0, sizeof *o);
	o->file = file;
	o->cap = file ? SV_OUTBUF_SIZE : 256;
	o->b = sv_xmalloc(o->cap + 1);
}

int sv_outbuf_flush(struct sv_outbuf *o)
{
	if (o->cancel && !o->failed && atomic_load(o->cancel))
		o->failed = o->cancelled = true;
	if (!o->file)
		return o->cancelled ? -ECANCELED : 0;
	if (o->n && !o->failed && fwrite(o->b, 1, o->n, o->file) != o->n)
		o->failed = true;
	o->n = 0;
	return o->cancelled ? -ECANCELED : o->failed ? -EIO : 0;
}

int sv_outbuf_fini(struct sv_outbuf *o)
{
	int rc = sv_outbuf_flush(o);

	free(o->b);
	memset(o, 0, sizeof *o);
	return rc;
}

void sv_outbuf_put_slow(struct sv_outbuf *o, const char *s, size_t n)
{
	if (!o->file) {
		size_t cap = o->cap + 1;
		sv_grow((void **)&o->b, &cap, o->n + n + 1, 1);
		o->cap = cap - 1;
		memcpy(o->b + o->n, s, n);
		o->n += n;
		return;
	}
	while (n) {
		size_t k = o->cap - o->n;
		if (!k) {
			sv_outbuf_flush(o);
			continue;
		}
		if (k > n)
			k = n;
		memcpy(o->b + o->n, s, k);
		o->n += k;
		s += k;
		n -= k;
	}
}

const char *sv_outbuf_text(struct sv_outbuf *o, size_t *len)
{
	if (o->file) {
		if (len)
			*len = 0;
		return "";
	}
	o->b[o->n] = '\0'; /* the buffer always has one byte more */
	if (len)
		*len = o->n;
	return o->b;
}

char *sv_outbuf_take(struct sv_outbuf *o)
{
	size_t n;
	const char *text = sv_outbuf_text(o, &n);
	char *copy = sv_xstrndup(text, n);

	o->n = 0;
	return copy;
}

void sv_outbuf_reset(struct sv_outbuf *o)
{
	if (!o->file)
		o->n = 0;
}

/* The decimal digits of u, at the end of buf[24]; returns the first.
 * Two digits at a time, from a table of the pairs 00 .. 99. */
static char *outbuf_digits(uint64_t u, char *buf)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	char *d = buf + 24;

	while (u >= 100) {
		unsigned k = (unsigned)(u % 100) * 2;
		u /= 100;
		*--d = pairs[k + 1];
		*--d = pairs[k];
	}
	if (u >= 10) {
		*--d = pairs[u * 2 + 1];
		*--d = pairs[u * 2];
	} else {
		*--d = (char)('0' + u);
	}
	return d;
}

void sv_outbuf_u64_at(struct sv_outbuf *o, uint64_t v)
{
	char buf[24], *d = outbuf_digits(v, buf);
	sv_outbuf_put(o, d, (size_t)(buf + 24 - d));
}

void sv_outbuf_fixed(struct sv_outbuf *o, int64_t v, unsigned decimals)
{
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v, scale = 1;
	char frac[20];
	unsigned k;

	if (decimals > 18)
		decimals = 18;
	for (k = 0; k < decimals; k++)
		scale *= 10;
	if (v < 0)
		sv_outbuf_putc(o, '-');
	sv_outbuf_u64(o, u / scale);
	if (!decimals)
		return;
	frac[0] = '.';
	for (k = decimals; k > 0; k--) {
		frac[k] = (char)('0' + u % 10);
		u /= 10;
	}
	sv_outbuf_put(o, frac, decimals + 1);
}
