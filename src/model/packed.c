/*
 * packed.c: per-call int64 columns in a few bits a value (packed.h).
 */
#include "scopeview/packed.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"

/* Bits that d needs (0 for 0). */
static unsigned packed_bits(uint64_t d)
{
	return d ? 64u - (unsigned)__builtin_clzll(d) : 0;
}

/* The column being packed: one of the arrays, and the exception table of
 * a narrowed one (markers read from it). */
enum packed_type {
	PACKED_I64,
	PACKED_U8,
	PACKED_U32,
	PACKED_I32,
	PACKED_LESS /* a narrowed uint32 less a narrowed int32 */
};
struct packed_src {
	const void *v;
	const struct sv_wide *wide;
	const void *v2; /* PACKED_LESS: the int32 column and its table */
	const struct sv_wide *wide2;
	uint64_t off; /* PACKED_I64: v holds values off, off + 1, ... */
};

/* Value i of s, of type t (a constant where it is inlined, so that each
 * type's loop has no test of it). */
static inline __attribute__((always_inline)) int64_t packed_in(
	const struct packed_src *s, enum packed_type t, uint64_t i)
{
	switch (t) {
	case PACKED_I64:
		return ((const int64_t *)s->v)[i - s->off];
	case PACKED_U8:
		return s->wide ? sv_wide_get_u8(s->wide, s->v, (uint32_t)i)
			       : (int64_t)((const uint8_t *)s->v)[i];
	case PACKED_U32:
		return s->wide ? sv_wide_get_u32(s->wide, s->v, (uint32_t)i)
			       : (int64_t)((const uint32_t *)s->v)[i];
	case PACKED_LESS:
		return sv_sub_wrap(sv_wide_get_u32(s->wide, s->v, (uint32_t)i),
			sv_wide_get_i32(s->wide2, s->v2, (uint32_t)i));
	default:
		return s->wide ? sv_wide_get_i32(s->wide, s->v, (uint32_t)i)
			       : (int64_t)((const int32_t *)s->v)[i];
	}
}

/* The smallest and largest of values [i0, i1) of s straight from its
 * array, in loops the compiler can vectorise; false for a narrowed
 * column's block that holds a marker of its exception table (the values
 * are then read one by one through packed_in). */
#define PACKED_MINMAX(type, v, i0, i1, mn, mx)         \
	do {                                           \
		uint64_t i_;                           \
		mn = mx = (v)[i0];                     \
		for (i_ = (i0) + 1; i_ < (i1); i_++) { \
			type x_ = (v)[i_];             \
			mn = x_ < mn ? x_ : mn;        \
			mx = x_ > mx ? x_ : mx;        \
		}                                      \
	} while (0)

static inline __attribute__((always_inline)) bool packed_range(
	const struct packed_src *s, enum packed_type t, uint64_t i0,
	uint64_t i1, int64_t *lo, int64_t *hi)
{
	switch (t) {
	case PACKED_I64: {
		int64_t mn, mx;
		PACKED_MINMAX(int64_t, (const int64_t *)s->v, i0 - s->off,
			i1 - s->off, mn, mx);
		*lo = mn;
		*hi = mx;
		return true;
	}
	case PACKED_U8: {
		uint8_t mn, mx;
		PACKED_MINMAX(uint8_t, (const uint8_t *)s->v, i0, i1, mn, mx);
		*lo = mn;
		*hi = mx;
		return !s->wide || mx != SV_WIDE_U8;
	}
	case PACKED_LESS:
		return false;
	case PACKED_U32: {
		uint32_t mn, mx;
		PACKED_MINMAX(uint32_t, (const uint32_t *)s->v, i0, i1, mn, mx);
		*lo = mn;
		*hi = mx;
		return !s->wide || mx != SV_WIDE_U32;
	}
	default: {
		int32_t mn, mx;
		PACKED_MINMAX(int32_t, (const int32_t *)s->v, i0, i1, mn, mx);
		*lo = mn;
		*hi = mx;
		return !s->wide || mn != SV_WIDE_I32;
	}
	}
}

/* The distances d[0 .. 64) of 64 values of a whole block (a block holds
 * one or more such runs), each below 2^W (1 <= W <= 64), as the reader
 * finds them: value k at bits [k W, k W + W) of the W words at out, low
 * bits first.  W is a constant where this is inlined
 * (packed_put_block), so every shift and store is known and nothing
 * branches. */
static inline __attribute__((always_inline)) void packed_put64(
	uint64_t *out, const uint64_t *d, const unsigned W)
{
	uint64_t word = 0;
	unsigned k;

#pragma GCC unroll 64
	for (k = 0; k < 64; k++) {
		unsigned bit = k * W, sh = bit % 64;
		word |= d[k] << sh;
		if (sh + W >= 64) {
			out[bit / 64] = word;
			word = sh ? d[k] >> (64 - sh) : 0;
		}
	}
}

/* A whole block of nv values (a multiple of 64): each 64 of them fill w
 * words. */
static void packed_put_block(
	uint64_t *out, const uint64_t *d, unsigned w, uint64_t nv)
{
	for (; nv; nv -= 64, out += w, d += 64)
		switch (w) {
#define PUT(n)                             \
	case (n):                          \
		packed_put64(out, d, (n)); \
		break;
#define PUT4(n)  PUT(n) PUT((n) + 1) PUT((n) + 2) PUT((n) + 3)
#define PUT16(n) PUT4(n) PUT4((n) + 4) PUT4((n) + 8) PUT4((n) + 12)
			PUT16(1)
			PUT16(17)
			PUT16(33)
			PUT16(49)
#undef PUT16
#undef PUT4
#undef PUT
		default:
			break;
		}
}

/* Blocks [b0, b1) of the n values of s: each one's smallest value and
 * width, its bits placed from bit *total on (which grows by theirs). */
static inline __attribute__((always_inline)) void packed_widths(
	struct sv_packed *pk, const struct packed_src *s, enum packed_type t,
	uint64_t n, uint64_t b0, uint64_t b1, uint64_t *total)
{
	unsigned shift = pk->shift;
	uint64_t nv = (uint64_t)1 << shift, b;

	for (b = b0; b < b1; b++) {
		uint64_t i0 = b << shift, i, i1 = n - i0 < nv ? n : i0 + nv;
		int64_t lo, hi;
		unsigned w;
		if (!packed_range(s, t, i0, i1, &lo, &hi)) {
			lo = hi = packed_in(s, t, i0);
			for (i = i0 + 1; i < i1; i++) {
				int64_t x = packed_in(s, t, i);
				lo = x < lo ? x : lo;
				hi = x > hi ? x : hi;
			}
		}
		w = packed_bits((uint64_t)hi - (uint64_t)lo);
		pk->blocks[b].base = lo;
		pk->blocks[b].at = *total | (uint64_t)w << 56;
		*total += (i1 - i0) * w;
	}
}

/* The distances of blocks [b0, b1), from the word at out on (where the
 * first block's bits start).  A block's every 64 values of width w fill
 * exactly w words, so every block starts on a word; whole blocks are
 * written by packed_put_block, the last one, when short, bit by bit. */
static inline __attribute__((always_inline)) void packed_write(
	struct sv_packed *pk, const struct packed_src *s, enum packed_type t,
	uint64_t n, uint64_t b0, uint64_t b1, uint64_t *out)
{
	unsigned shift = pk->shift;
	uint64_t nv = (uint64_t)1 << shift, b;

	for (b = b0; b < b1; b++) {
		uint64_t i0 = b << shift, i, d[SV_PACKED_FLAT],
			 i1 = n - i0 < nv ? n : i0 + nv;
		unsigned w = (unsigned)(pk->blocks[b].at >> 56), fill = 0;
		uint64_t base = (uint64_t)pk->blocks[b].base, word = 0;
		if (!w)
			continue;
		for (i = i0; i < i1; i++)
			d[i - i0] = (uint64_t)packed_in(s, t, i) - base;
		if (i1 - i0 == nv) {
			packed_put_block(out, d, w, nv);
			out += (size_t)w << (shift - SV_PACKED_SHIFT);
			continue;
		}
		for (i = 0; i < i1 - i0; i++) {
			word |= d[i] << fill;
			if (fill + w >= 64) {
				*out++ = word;
				word = fill ? d[i] >> (64 - fill) : 0;
				fill = fill + w - 64;
			} else {
				fill += w;
			}
		}
		*out++ = word;
	}
}

/* pk emptied for n values of s in the blocks pk->shift asks for; the
 * blocks allocated.  Returns how many. */
static uint64_t packed_begin(struct sv_packed *pk, uint64_t n)
{
	unsigned shift = pk->shift >= SV_PACKED_SHIFT &&
					 pk->shift <= SV_PACKED_FLAT_SHIFT
				 ? pk->shift
				 : SV_PACKED_SHIFT;
	uint64_t nb = (n + ((uint64_t)1 << shift) - 1) >> shift;

	sv_packed_fini(pk);
	pk->shift = shift;
	if (!n)
		return 0;
	pk->n = n;
	pk->blocks = sv_xmalloc(nb * sizeof *pk->blocks);
	return nb;
}

/* The bits of total bits' room (one word spare, zeroed with the last). */
static void packed_bits_alloc(struct sv_packed *pk, uint64_t nb, uint64_t total)
{
	uint64_t words = total / 64 + 2;

	pk->bits = sv_xmalloc(words * sizeof *pk->bits);
	pk->bits[words - 1] = pk->bits[words - 2] = 0;
	pk->bytes = nb * sizeof *pk->blocks + words * sizeof *pk->bits;
}

/* Two passes over the values: each block's smallest value and width,
 * then the distances. */
static inline __attribute__((always_inline)) void packed_build(
	struct sv_packed *pk, const struct packed_src *s, enum packed_type t,
	uint64_t n)
{
	uint64_t nb = packed_begin(pk, n), total = 0;

	if (!nb)
		return;
	packed_widths(pk, s, t, n, 0, nb, &total);
	packed_bits_alloc(pk, nb, total);
	packed_write(pk, s, t, n, 0, nb, pk->bits);
}

/* The second half of an int64 column's blocks, on a thread of its own
 * (sv_packed_build_int64_2). */
struct packed_half {
	struct sv_packed *pk;
	const int64_t *v;
	uint64_t n, b0, b1, total;
	int pass;
};

static void *packed_half_run(void *arg)
{
	struct packed_half *h = arg;
	struct packed_src s = {h->v, NULL, NULL, NULL, 0};

	if (h->pass == 0)
		packed_widths(
			h->pk, &s, PACKED_I64, h->n, h->b0, h->b1, &h->total);
	else
		packed_write(h->pk, &s, PACKED_I64, h->n, h->b0, h->b1,
			h->pk->bits + ((h->pk->blocks[h->b0].at &
					       (((uint64_t)1 << 56) - 1)) /
					      64));
	return NULL;
}

void sv_packed_build2(struct sv_packed *pk, const int64_t *v, uint64_t n)
{
	struct packed_src s = {v, NULL, NULL, NULL, 0};
	struct packed_half h;
	uint64_t nb, b, total = 0;
	pthread_t th;
	int pass;

	if (n < ((uint64_t)1 << 20)) {
		sv_packed_build(pk, v, n);
		return;
	}
	nb = packed_begin(pk, n);
	/* Whole blocks each side, so the second half starts on a word. */
	h = (struct packed_half){pk, v, n, nb / 2, nb, 0, 0};
	for (pass = 0; pass < 2; pass++) {
		bool run = !pthread_create(&th, NULL, packed_half_run, &h);
		if (pass == 0)
			packed_widths(pk, &s, PACKED_I64, n, 0, nb / 2, &total);
		else
			packed_write(
				pk, &s, PACKED_I64, n, 0, nb / 2, pk->bits);
		if (run)
			pthread_join(th, NULL);
		else
			packed_half_run(&h);
		if (pass == 0) {
			for (b = nb / 2; b < nb; b++)
				pk->blocks[b].at += total;
			packed_bits_alloc(pk, nb, total + h.total);
			h.pass = 1;
		}
	}
}

void sv_packed_build(struct sv_packed *pk, const int64_t *v, uint64_t n)
{
	struct packed_src s = {v, NULL, NULL, NULL, 0};
	packed_build(pk, &s, PACKED_I64, n);
}

void sv_packed_build_u8(struct sv_packed *pk, const uint8_t *v, uint64_t n,
	const struct sv_wide *wide)
{
	struct packed_src s = {v, wide, NULL, NULL, 0};
	packed_build(pk, &s, PACKED_U8, n);
}

void sv_packed_build_u32(struct sv_packed *pk, const uint32_t *v, uint64_t n,
	const struct sv_wide *wide)
{
	struct packed_src s = {v, wide, NULL, NULL, 0};
	packed_build(pk, &s, PACKED_U32, n);
}

void sv_packed_build_i32(struct sv_packed *pk, const int32_t *v, uint64_t n,
	const struct sv_wide *wide)
{
	struct packed_src s = {v, wide, NULL, NULL, 0};
	packed_build(pk, &s, PACKED_I32, n);
}

void sv_packed_build_less(struct sv_packed *pk, const uint32_t *a,
	const struct sv_wide *wa, const int32_t *b, const struct sv_wide *wb,
	uint64_t n)
{
	struct packed_src s = {a, wa, b, wb, 0};
	packed_build(pk, &s, PACKED_LESS, n);
}

void sv_packed_fini(struct sv_packed *pk)
{
	if (!pk)
		return;
	free(pk->blocks);
	free(pk->bits);
	memset(pk, 0, sizeof *pk);
}

void sv_packed_get_range(
	const struct sv_packed *pk, uint64_t i, size_t n, int64_t *out)
{
	while (n) {
		const struct sv_packed_block *k = &pk->blocks[i >> pk->shift];
		uint64_t j = i & (((uint64_t)1 << pk->shift) - 1),
			 m = ((uint64_t)1 << pk->shift) - j, bit;
		uint64_t mask, base = (uint64_t)k->base;
		unsigned w = (unsigned)(k->at >> 56);
		size_t t;

		if (m > n)
			m = n;
		if (!w) {
			for (t = 0; t < m; t++)
				out[t] = k->base;
		} else {
			mask = w < 64 ? ((uint64_t)1 << w) - 1 : UINT64_MAX;
			bit = (k->at & (((uint64_t)1 << 56) - 1)) + j * w;
			for (t = 0; t < m; t++, bit += w) {
				unsigned sh = (unsigned)(bit % 64);
				uint64_t d = pk->bits[bit / 64] >> sh;
				if (sh && sh + w > 64)
					d |= pk->bits[bit / 64 + 1]
					     << (64 - sh);
				out[t] = (int64_t)(base + (d & mask));
			}
		}
		out += m;
		i += m;
		n -= (size_t)m;
	}
}

uint64_t sv_packed_first_ge(const struct sv_packed *pk, int64_t t)
{
	uint64_t lo = 0,
		 hi = (pk->n + ((uint64_t)1 << pk->shift) - 1) >> pk->shift;

	while (lo < hi) { /* the first block whose first value is >= t */
		uint64_t mid = lo + (hi - lo) / 2;
		if (pk->blocks[mid].base >= t)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (!lo)
		return 0;
	/* Block lo - 1 starts below t: the answer is after its first. */
	hi = lo << pk->shift < pk->n ? lo << pk->shift : pk->n;
	lo = ((lo - 1) << pk->shift) + 1;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (sv_packed_get(pk, mid) >= t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void sv_packed_writer_begin(
	struct sv_packed_writer *w, struct sv_packed *pk, uint64_t n)
{
	w->pk = pk;
	w->nb = packed_begin(pk, n);
	w->b = 0;
	w->total = 0;
	w->words = 0;
	w->m = 0;
}

/* The block w holds (its values in w->v) appended to the column. */
static void packed_writer_block(struct sv_packed_writer *w)
{
	struct sv_packed *pk = w->pk;
	struct packed_src s = {w->v, NULL, NULL, NULL, 0};
	uint64_t need, i0 = w->b << pk->shift;
	unsigned width;

	/* The block as the whole column's block b: values i0 .. i0 + m of
	 * a source whose values start at i0. */
	s.off = i0;
	packed_widths(pk, &s, PACKED_I64, i0 + w->m, w->b, w->b + 1, &w->total);
	width = (unsigned)(pk->blocks[w->b].at >> 56);
	need = w->total / 64 + 2;
	if (need > w->words) {
		w->words = need > 2 * w->words ? need : 2 * w->words;
		pk->bits =
			sv_xreallocarray(pk->bits, w->words, sizeof *pk->bits);
	}
	if (width)
		packed_write(pk, &s, PACKED_I64, i0 + w->m, w->b, w->b + 1,
			pk->bits + (pk->blocks[w->b].at &
					   (((uint64_t)1 << 56) - 1)) /
					   64);
	w->b++;
	w->m = 0;
}

void sv_packed_writer_put(struct sv_packed_writer *w, int64_t v)
{
	w->v[w->m++] = v;
	if (w->m == ((uint64_t)1 << w->pk->shift))
		packed_writer_block(w);
}

void sv_packed_writer_end(struct sv_packed_writer *w)
{
	struct sv_packed *pk = w->pk;
	uint64_t words;

	if (w->m)
		packed_writer_block(w);
	if (!w->nb)
		return;
	words = w->total / 64 + 2;
	pk->bits = sv_xreallocarray(pk->bits, words, sizeof *pk->bits);
	pk->bits[words - 1] = 0;
	if (w->total % 64 == 0)
		pk->bits[words - 2] = 0;
	pk->bytes = w->nb * sizeof *pk->blocks + words * sizeof *pk->bits;
}
