/*
 * outbuf.h: the buffered output stream under the report writers (json.h,
 * csv.h): bytes for a FILE, written 64 KiB at a time, or kept in memory;
 * integers and fixed-point numbers formatted without printf, exactly.
 *
 * A report of millions of calls (an export) goes through one of these,
 * so the common path (sv_outbuf_put of a few bytes) is a memcpy into the
 * buffer.  A stream that failed to write, or whose cancel flag was set
 * (an export stopped in the viewer), drops what follows and says so at
 * the next flush.  Nothing here prints to a terminal: the FILE is the
 * caller's.
 */
#ifndef SCOPEVIEW_OUTBUF_H
#define SCOPEVIEW_OUTBUF_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_REPORT)
#error "scopeview/outbuf.h belongs to the report layer, which this layer may not use"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SV_OUTBUF_SIZE 65536

struct sv_outbuf {
	FILE *file; /* NULL: the bytes stay in memory (b grows) */
	char *b;
	size_t n, cap;
	bool failed, cancelled;
	/* Set from another thread to stop: the next flush drops what is
	 * buffered and every later byte, and says -ECANCELED.  May be
	 * NULL. */
	const atomic_bool *cancel;
};

/* Set o up for file, or for memory with file NULL.  Free with
 * sv_outbuf_fini. */
void sv_outbuf_init(struct sv_outbuf *o, FILE *file);
/* Write what is buffered to the file (nothing for memory).  Returns 0,
 * -EIO once a write failed (now or before), -ECANCELED once the cancel
 * flag was seen. */
int sv_outbuf_flush(struct sv_outbuf *o);
/* Flush (without fflush'ing the FILE), free the buffer; returns what the
 * flush returned.  o may be set up again. */
int sv_outbuf_fini(struct sv_outbuf *o);
/* A memory stream's bytes so far, NUL-terminated (*len, may be NULL,
 * gets their count), valid until the next write; "" for a file. */
const char *sv_outbuf_text(struct sv_outbuf *o, size_t *len);
/* A memory stream's bytes as a malloc'd string; the stream is emptied. */
char *sv_outbuf_take(struct sv_outbuf *o);
/* Empty a memory stream (its buffer is kept for reuse). */
void sv_outbuf_reset(struct sv_outbuf *o);

/* The slow path of sv_outbuf_put: s[0..n) does not fit what is left. */
void sv_outbuf_put_slow(struct sv_outbuf *o, const char *s, size_t n);

static inline void sv_outbuf_put(struct sv_outbuf *o, const char *s, size_t n)
{
	if (n <= o->cap - o->n) {
		memcpy(o->b + o->n, s, n);
		o->n += n;
	} else {
		sv_outbuf_put_slow(o, s, n);
	}
}

static inline void sv_outbuf_puts(struct sv_outbuf *o, const char *s)
{
	sv_outbuf_put(o, s, strlen(s));
}

static inline void sv_outbuf_putc(struct sv_outbuf *o, char ch)
{
	if (o->n < o->cap)
		o->b[o->n++] = ch;
	else
		sv_outbuf_put_slow(o, &ch, 1);
}

/* v in decimal ("-12"); inline for the exports, which write millions. */
void sv_outbuf_u64_at(struct sv_outbuf *o, uint64_t v);
static inline void sv_outbuf_u64(struct sv_outbuf *o, uint64_t v)
{
	if (v < 10)
		sv_outbuf_putc(o, (char)('0' + v));
	else
		sv_outbuf_u64_at(o, v);
}

static inline void sv_outbuf_i64(struct sv_outbuf *o, int64_t v)
{
	if (v < 0)
		sv_outbuf_putc(o, '-');
	sv_outbuf_u64(o, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}
/* v / 10^decimals with exactly that many decimals, exact:
 * (-1250, 3) is "-1.250", (5, 3) "0.005"; decimals at most 18. */
void sv_outbuf_fixed(struct sv_outbuf *o, int64_t v, unsigned decimals);

#endif
