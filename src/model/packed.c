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

void sv_packed_build(struct sv_packed *pk, const int64_t *v, uint64_t n)
{
	uint64_t nb = (n + SV_PACKED_BLOCK - 1) / SV_PACKED_BLOCK, b, total = 0,
		 words;

	sv_packed_fini(pk);
	if (!n)
		return;
	pk->n = n;
	pk->blocks = sv_xmalloc(nb * sizeof *pk->blocks);
	/* First the base and width of each block, so that the bits are
	 * allocated once. */
	for (b = 0; b < nb; b++) {
		uint64_t i0 = b * SV_PACKED_BLOCK, i,
			 i1 = i0 + SV_PACKED_BLOCK < n ? i0 + SV_PACKED_BLOCK
						       : n;
		int64_t lo = v[i0], hi = v[i0];
		for (i = i0 + 1; i < i1; i++) {
			lo = v[i] < lo ? v[i] : lo;
			hi = v[i] > hi ? v[i] : hi;
		}
		unsigned w = packed_bits((uint64_t)hi - (uint64_t)lo);
		pk->blocks[b].base = lo;
		pk->blocks[b].at = total | (uint64_t)w << 56;
		total += (i1 - i0) * w;
	}
	words = total / 64 + 2;
	pk->bits = sv_xcalloc(words, sizeof *pk->bits);
	for (b = 0; b < nb; b++) {
		uint64_t i0 = b * SV_PACKED_BLOCK, i,
			 i1 = i0 + SV_PACKED_BLOCK < n ? i0 + SV_PACKED_BLOCK
						       : n;
		unsigned w = (unsigned)(pk->blocks[b].at >> 56);
		uint64_t bit = pk->blocks[b].at & (((uint64_t)1 << 56) - 1);
		if (!w)
			continue;
		for (i = i0; i < i1; i++, bit += w) {
			uint64_t d =
				(uint64_t)v[i] - (uint64_t)pk->blocks[b].base;
			unsigned sh = (unsigned)(bit % 64);
			pk->bits[bit / 64] |= d << sh;
			if (sh && sh + w > 64)
				pk->bits[bit / 64 + 1] |= d >> (64 - sh);
		}
	}
	pk->bytes = nb * sizeof *pk->blocks + words * sizeof *pk->bits;
}

void sv_packed_fini(struct sv_packed *pk)
{
	if (!pk)
		return;
	free(pk->blocks);
	free(pk->bits);
	memset(pk, 0, sizeof *pk);
}
