/*
 * packed.h: a per-call int64 column kept in a few bits a value.
 *
 * The id columns a profile may carry (call, parent, thread and task ids)
 * are read for one call at a time once the lanes and the nesting are
 * built: the details of a call, an export.  Their values change little
 * from one call to the next, so each block of values (SV_PACKED_BLOCK,
 * or more where the column asks) is kept as its smallest value and each
 * value's distance above it, in as many bits as the block's largest
 * distance needs (frame of reference).  A block of equal values takes no
 * bits at all; any int64 values round trip exactly (a distance is taken
 * modulo 2^64, up to 64 bits).  Reading one value is O(1): two words at
 * most.
 *
 * A block's header is 16 bytes: 2 bits a value in blocks of 64.  Where
 * the values rise steadily (starts, lists of calls), a larger block
 * widens every distance by as much as it saves; where they mostly repeat
 * (depths, parents, exclusive times, thread ids: 0 bits in most blocks)
 * the header is nearly all the column takes, and blocks of
 * SV_PACKED_FLAT values take a quarter of it.
 */
#ifndef SCOPEVIEW_PACKED_H
#define SCOPEVIEW_PACKED_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/packed.h belongs to the model layer, which this layer may not use"
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "scopeview/wide.h"

#define SV_PACKED_BLOCK 64
#define SV_PACKED_SHIFT 6 /* log2 of SV_PACKED_BLOCK */
/* The block a column of mostly repeated values asks for, and its log2:
 * 0.5 bits a value of headers. */
#define SV_PACKED_FLAT       256
#define SV_PACKED_FLAT_SHIFT 8

/* A block's smallest value and where its bits are, side by side, so that
 * reading a value touches one header and one or two words of bits. */
struct sv_packed_block {
	int64_t base; /* the block's smallest value */
	uint64_t at;  /* the bit of bits[] where it starts (low 56 bits), and
			 its bits a value, 0-64 (high 8 bits) */
};

struct sv_packed {
	uint64_t n; /* values; 0 = none (the column is absent) */
	struct sv_packed_block *blocks;
	uint64_t *bits; /* the distances, low bits first, one word spare */
	size_t bytes;   /* what the column allocated */
	/* log2 of the values a block: SV_PACKED_SHIFT up to
	 * SV_PACKED_FLAT_SHIFT.  Set before a build to ask for that block
	 * (0: SV_PACKED_BLOCK); a build keeps it, sv_packed_fini clears
	 * it. */
	unsigned shift;
};

/* Pack v[0 .. n) into pk (replacing what it held), in the blocks pk->shift
 * asks for. */
void sv_packed_build(struct sv_packed *pk, const int64_t *v, uint64_t n);
/* The same on two threads (each half of the blocks), for a column of
 * millions of values (fewer than 2^20: on this one). */
void sv_packed_build2(struct sv_packed *pk, const int64_t *v, uint64_t n);
/* The same for values that come one at a time (n of them, each packed
 * as its block fills, with no array of them all): begin, n puts, end. */
struct sv_packed_writer {
	struct sv_packed *pk;
	uint64_t nb, b, total, words, m;
	int64_t v[SV_PACKED_FLAT]; /* the block being filled, m values */
};
void sv_packed_writer_begin(
	struct sv_packed_writer *w, struct sv_packed *pk, uint64_t n);
void sv_packed_writer_put(struct sv_packed_writer *w, int64_t v);
void sv_packed_writer_end(struct sv_packed_writer *w);
/* The same from the narrower columns of a profile: uint8, uint32 and
 * int32 values, with their exception table (wide.h; NULL: the values are
 * plain), whose values are packed in place of the markers. */
void sv_packed_build_u8(struct sv_packed *pk, const uint8_t *v, uint64_t n,
	const struct sv_wide *wide);
void sv_packed_build_u32(struct sv_packed *pk, const uint32_t *v, uint64_t n,
	const struct sv_wide *wide);
void sv_packed_build_i32(struct sv_packed *pk, const int32_t *v, uint64_t n,
	const struct sv_wide *wide);
/* The differences a[i] - b[i] (wrapping) of a uint32 and an int32
 * column, each with its exception table (not NULL): what the durations
 * less the exclusive times leave, the children's time, which is 0 for
 * every leaf call and packs in no bits where a block holds only leaves. */
void sv_packed_build_less(struct sv_packed *pk, const uint32_t *a,
	const struct sv_wide *wa, const int32_t *b, const struct sv_wide *wb,
	uint64_t n);
/* Free pk and empty it. */
void sv_packed_fini(struct sv_packed *pk);
/* Values i .. i + n - 1 (all < pk->n) into out: a run read block by
 * block, a few times faster than n calls of sv_packed_get. */
void sv_packed_get_range(
	const struct sv_packed *pk, uint64_t i, size_t n, int64_t *out);

/* Value i (< pk->n).  Where a value's bits fit in one unaligned 8-byte
 * load (widths up to 57 bits, little-endian: every column but absurd
 * ones), one load, a shift and a mask, with no branch (the mask of a
 * width of 0 is 0: the block's base); the bits array's spare word keeps
 * the load inside it. */
static inline int64_t sv_packed_get(const struct sv_packed *pk, uint64_t i)
{
	const struct sv_packed_block *k = &pk->blocks[i >> pk->shift];
	uint64_t bit, d;
	unsigned w = (unsigned)(k->at >> 56), sh;

	bit = (k->at & (((uint64_t)1 << 56) - 1)) +
	      (i & (((uint64_t)1 << pk->shift) - 1)) * w;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (w <= 57) {
		memcpy(&d, (const unsigned char *)pk->bits + bit / 8, sizeof d);
		return (int64_t)((uint64_t)k->base +
				 ((d >> (bit % 8)) & (((uint64_t)1 << w) - 1)));
	}
#endif
	if (!w)
		return k->base;
	sh = (unsigned)(bit % 64);
	d = pk->bits[bit / 64] >> sh;
	if (sh && sh + w > 64)
		d |= pk->bits[bit / 64 + 1] << (64 - sh);
	if (w < 64)
		d &= ((uint64_t)1 << w) - 1;
	return (int64_t)((uint64_t)k->base + d);
}

/* v[i + 1] - v[i] (wrapping; i + 1 < pk->n): a duration from a column of
 * sums.  Two values of a block of widths up to 28 bits come in one
 * load. */
static inline int64_t sv_packed_step(const struct sv_packed *pk, uint64_t i)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t in = ((uint64_t)1 << pk->shift) - 1;
	if ((i & in) != in) {
		const struct sv_packed_block *k = &pk->blocks[i >> pk->shift];
		unsigned w = (unsigned)(k->at >> 56);
		if (w <= 28) {
			uint64_t bit = (k->at & (((uint64_t)1 << 56) - 1)) +
				       (i & in) * w,
				 m = ((uint64_t)1 << w) - 1, d;
			memcpy(&d, (const unsigned char *)pk->bits + bit / 8,
				sizeof d);
			d >>= bit % 8;
			return (int64_t)(((d >> w) & m) - (d & m));
		}
	}
#endif
	return (int64_t)((uint64_t)sv_packed_get(pk, i + 1) -
			 (uint64_t)sv_packed_get(pk, i));
}

/* The first i (< pk->n) with value i >= t, of a column whose values do
 * not decrease, or pk->n: a binary search over the blocks' smallest
 * values (each its block's first), then inside one block. */
uint64_t sv_packed_first_ge(const struct sv_packed *pk, int64_t t);

#endif
