/*
 * radix.c: the stable LSD radix sort of (key, value) pairs (radix.h).
 *
 * Digits of RADIX_BITS bits, only over the bits where some keys differ
 * (from the lowest to the highest differing bit), with the counts of every
 * digit taken in one read of the keys: durations within a few ms of each
 * other sort in two scatter passes.  When the differing bits and the bits
 * the values need fit in 64 together, each pair is packed into one 64-bit
 * word (those key bits above, the value below) for the passes, halving
 * the memory they move; the bits outside are the same in every key, so
 * unpacking restores the keys exactly.
 * Allocates nothing; the caller gives the scratch buffer (the counts live
 * on the stack, 48 KiB).
 */
#include "scopeview/radix.h"

#include <stdint.h>
#include <string.h>

#define RADIX_BITS   11
#define RADIX_SIZE   (1u << RADIX_BITS)
#define RADIX_DIGITS ((64 + RADIX_BITS - 1) / RADIX_BITS)

/* Counts of one digit's values into where each value's run starts. */
static void radix_offsets(uint32_t *count)
{
	uint32_t sum = 0, c;
	size_t b;

	for (b = 0; b < RADIX_SIZE; b++) {
		c = count[b];
		count[b] = sum;
		sum += c;
	}
}

/* The passes over packed words w[0 .. n) (key digits from bit base up,
 * nd of them, counted in count), with scratch s; returns where the sorted
 * words are. */
static uint64_t *radix_packed(uint64_t *w, uint64_t *s, size_t n, unsigned base,
	unsigned nd, uint32_t (*count)[RADIX_SIZE])
{
	uint64_t *t;
	unsigned d;
	size_t i;

	for (d = 0; d < nd; d++) {
		unsigned shift = base + d * RADIX_BITS;
		radix_offsets(count[d]);
		for (i = 0; i < n; i++)
			s[count[d][(w[i] >> shift) & (RADIX_SIZE - 1)]++] =
				w[i];
		t = w;
		w = s;
		s = t;
	}
	return w;
}

void sv_radix_sort(struct sv_radix_kv *a, struct sv_radix_kv *tmp, size_t n)
{
	struct sv_radix_kv *src = a, *dst = tmp, *t;
	uint32_t count[RADIX_DIGITS][RADIX_SIZE];
	uint64_t diff = 0, mask = RADIX_SIZE - 1;
	uint32_t values = 0;
	unsigned low, high, nd, d, vb;
	size_t i;

	if (n < 2)
		return;
	for (i = 0; i < n; i++) {
		diff |= a[i].key ^ a[0].key;
		values |= a[i].value;
	}
	if (!diff)
		return;
	low = (unsigned)__builtin_ctzll(diff);
	high = 64 - (unsigned)__builtin_clzll(diff);
	vb = values ? 32 - (unsigned)__builtin_clz(values) : 1;
	nd = (high - low + RADIX_BITS - 1) / RADIX_BITS;
	memset(count, 0, nd * sizeof count[0]);
	if (high - low + vb <= 64) {
		/* tmp holds 2n words: the packed pairs and their scratch. */
		uint64_t *w = (uint64_t *)(void *)tmp, *out;
		uint64_t range = (1ull << (high - low)) - 1; /* < 64 bits */
		uint64_t base = a[0].key & ~(range << low);
		uint64_t vmask = (1ull << vb) - 1;
		for (i = 0; i < n; i++) {
			uint64_t k = (a[i].key >> low) & range;
			for (d = 0; d < nd; d++)
				count[d][(k >> (d * RADIX_BITS)) & mask]++;
			w[i] = k << vb | a[i].value;
		}
		out = radix_packed(w, w + n, n, vb, nd, count);
		for (i = 0; i < n; i++) {
			a[i].key = base | (out[i] >> vb) << low;
			a[i].value = (uint32_t)(out[i] & vmask);
		}
		return;
	}
	for (i = 0; i < n; i++) {
		uint64_t k = a[i].key >> low;
		for (d = 0; d < nd; d++)
			count[d][(k >> (d * RADIX_BITS)) & mask]++;
	}
	for (d = 0; d < nd; d++) {
		unsigned shift = low + d * RADIX_BITS;
		radix_offsets(count[d]);
		for (i = 0; i < n; i++)
			dst[count[d][(src[i].key >> shift) & mask]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof *a);
}

void sv_radix_sort_hi(uint64_t *w, uint64_t *tmp, size_t n)
{
	uint32_t count[RADIX_DIGITS][RADIX_SIZE];
	uint32_t diff = 0, first, mask = RADIX_SIZE - 1;
	unsigned low, high, nd, d;
	uint64_t *out;
	size_t i;

	if (n < 2)
		return;
	first = (uint32_t)(w[0] >> 32);
	for (i = 1; i < n; i++)
		diff |= (uint32_t)(w[i] >> 32) ^ first;
	if (!diff)
		return;
	low = (unsigned)__builtin_ctz(diff);
	high = 32 - (unsigned)__builtin_clz(diff);
	nd = (high - low + RADIX_BITS - 1) / RADIX_BITS;
	memset(count, 0, nd * sizeof count[0]);
	for (i = 0; i < n; i++) {
		uint32_t k = (uint32_t)(w[i] >> (32 + low));
		for (d = 0; d < nd; d++)
			count[d][(k >> (d * RADIX_BITS)) & mask]++;
	}
	out = radix_packed(w, tmp, n, 32 + low, nd, count);
	if (out != w)
		memcpy(w, out, n * sizeof *w);
}
