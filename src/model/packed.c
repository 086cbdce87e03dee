/*
 * packed.c: per-call int64 columns in a few bits a value (packed.h).
 */
#include "scopeview/packed.h"

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
enum packed_type { PACKED_I64, PACKED_U16, PACKED_U32, PACKED_I32 };
struct packed_src {
	const void *v;
	const struct sv_wide *wide;
};

/* Value i of s, of type t (a constant where it is inlined, so that each
 * type's loop has no test of it). */
static inline __attribute__((always_inline)) int64_t packed_in(
	const struct packed_src *s, enum packed_type t, uint64_t i)
{
	switch (t) {
	case PACKED_I64:
		return ((const int64_t *)s->v)[i];
	case PACKED_U16:
		return ((const uint16_t *)s->v)[i];
	case PACKED_U32:
		return s->wide ? sv_wide_get_u32(s->wide, s->v, (uint32_t)i)
			       : (int64_t)((const uint32_t *)s->v)[i];
	default:
		return s->wide ? sv_wide_get_i32(s->wide, s->v, (uint32_t)i)
			       : (int64_t)((const int32_t *)s->v)[i];
	}
}

/* Two passes over the values: each block's smallest value and width,
 * then the distances, written in order through one word kept in a
 * register (every word of bits is stored once, none read back). */
static inline __attribute__((always_inline)) void packed_build(
	struct sv_packed *pk, const struct packed_src *s, enum packed_type t,
	uint64_t n)
{
	uint64_t nb = (n + SV_PACKED_BLOCK - 1) / SV_PACKED_BLOCK, b, total = 0,
		 words, word = 0, *out;
	unsigned fill = 0;

	sv_packed_fini(pk);
	if (!n)
		return;
	pk->n = n;
	pk->blocks = sv_xmalloc(nb * sizeof *pk->blocks);
	for (b = 0; b < nb; b++) {
		uint64_t i0 = b * SV_PACKED_BLOCK, i,
			 i1 = n - i0 < SV_PACKED_BLOCK ? n
						       : i0 + SV_PACKED_BLOCK;
		int64_t lo = packed_in(s, t, i0), hi = lo;
		unsigned w;
		for (i = i0 + 1; i < i1; i++) {
			int64_t x = packed_in(s, t, i);
			lo = x < lo ? x : lo;
			hi = x > hi ? x : hi;
		}
		w = packed_bits((uint64_t)hi - (uint64_t)lo);
		pk->blocks[b].base = lo;
		pk->blocks[b].at = total | (uint64_t)w << 56;
		total += (i1 - i0) * w;
	}
	words = total / 64 + 2;
	pk->bits = out = sv_xmalloc(words * sizeof *pk->bits);
	for (b = 0; b < nb; b++) {
		uint64_t i0 = b * SV_PACKED_BLOCK, i,
			 i1 = n - i0 < SV_PACKED_BLOCK ? n
						       : i0 + SV_PACKED_BLOCK;
		unsigned w = (unsigned)(pk->blocks[b].at >> 56);
		uint64_t base = (uint64_t)pk->blocks[b].base;
		if (!w)
			continue;
		for (i = i0; i < i1; i++) {
			uint64_t d = (uint64_t)packed_in(s, t, i) - base;
			word |= d << fill;
			if (fill + w >= 64) {
				*out++ = word;
				word = fill ? d >> (64 - fill) : 0;
				fill = fill + w - 64;
			} else {
				fill += w;
			}
		}
	}
	*out++ = word;
	while (out < pk->bits + words)
		*out++ = 0;
	pk->bytes = nb * sizeof *pk->blocks + words * sizeof *pk->bits;
}

void sv_packed_build(struct sv_packed *pk, const int64_t *v, uint64_t n)
{
	struct packed_src s = {v, NULL};
	packed_build(pk, &s, PACKED_I64, n);
}

void sv_packed_build_u16(struct sv_packed *pk, const uint16_t *v, uint64_t n)
{
	struct packed_src s = {v, NULL};
	packed_build(pk, &s, PACKED_U16, n);
}

void sv_packed_build_u32(struct sv_packed *pk, const uint32_t *v, uint64_t n,
	const struct sv_wide *wide)
{
	struct packed_src s = {v, wide};
	packed_build(pk, &s, PACKED_U32, n);
}

void sv_packed_build_i32(struct sv_packed *pk, const int32_t *v, uint64_t n,
	const struct sv_wide *wide)
{
	struct packed_src s = {v, wide};
	packed_build(pk, &s, PACKED_I32, n);
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
		const struct sv_packed_block *k =
			&pk->blocks[i / SV_PACKED_BLOCK];
		uint64_t j = i % SV_PACKED_BLOCK, m = SV_PACKED_BLOCK - j, bit;
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
