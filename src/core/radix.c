/*
 * radix.c: the stable LSD radix sort of (key, value) pairs (radix.h).
 *
 * Allocates nothing; the caller gives the scratch buffer.
 */
#include "scopeview/radix.h"

#include <string.h>

void sv_radix_sort(struct sv_radix_kv *a, struct sv_radix_kv *tmp, size_t n)
{
	struct sv_radix_kv *src = a, *dst = tmp, *t;
	uint64_t diff = 0;
	unsigned shift;
	size_t i;

	if (n < 2)
		return;
	for (i = 1; i < n; i++)
		diff |= a[i].key ^ a[0].key;
	for (shift = 0; shift < 64; shift += 8) {
		size_t count[257] = {0};
		if (!((diff >> shift) & 0xff))
			continue;
		for (i = 0; i < n; i++)
			count[((src[i].key >> shift) & 0xff) + 1]++;
		for (i = 1; i < 257; i++)
			count[i] += count[i - 1];
		for (i = 0; i < n; i++)
			dst[count[(src[i].key >> shift) & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof *a);
}
