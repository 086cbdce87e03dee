/*
 * radix.c: the stable LSD radix sort of (key, value) pairs (radix.h).
 *
 * Digits of RADIX_BITS bits, only over the bits where some keys differ
 * (from the lowest to the highest differing bit), with the counts of every
 * digit taken in one read of the keys: durations within a few ms of each
 * other sort in two scatter passes.  Allocates nothing; the caller gives
 * the scratch buffer (the counts live on the stack, 48 KiB).
 */
#include "scopeview/radix.h"

#include <stdint.h>
#include <string.h>

#define RADIX_BITS   11
#define RADIX_SIZE   (1u << RADIX_BITS)
#define RADIX_DIGITS ((64 + RADIX_BITS - 1) / RADIX_BITS)

void sv_radix_sort(struct sv_radix_kv *a, struct sv_radix_kv *tmp, size_t n)
{
	struct sv_radix_kv *src = a, *dst = tmp, *t;
	uint32_t count[RADIX_DIGITS][RADIX_SIZE];
	uint64_t diff = 0, mask = RADIX_SIZE - 1;
	unsigned low, high, nd, d;
	size_t i;

	if (n < 2)
		return;
	for (i = 1; i < n; i++)
		diff |= a[i].key ^ a[0].key;
	if (!diff)
		return;
	low = (unsigned)__builtin_ctzll(diff);
	high = 64 - (unsigned)__builtin_clzll(diff);
	nd = (high - low + RADIX_BITS - 1) / RADIX_BITS;
	memset(count, 0, nd * sizeof count[0]);
	for (i = 0; i < n; i++) {
		uint64_t k = a[i].key >> low;
		for (d = 0; d < nd; d++)
			count[d][(k >> (d * RADIX_BITS)) & mask]++;
	}
	for (d = 0; d < nd; d++) {
		unsigned shift = low + d * RADIX_BITS;
		uint32_t sum = 0, c;
		size_t b;
		for (b = 0; b < RADIX_SIZE; b++) {
			c = count[d][b];
			count[d][b] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[d][(src[i].key >> shift) & mask]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof *a);
}
