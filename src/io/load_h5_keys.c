/*
 * load_h5_keys.c: a set of (a, b) pairs of int64 (load_h5_priv.h), for
 * the optional tables whose rows are kept only the first time their key
 * comes (a lane table's rank and index, a line profile's line number).
 *
 * Writers store those tables in key order, so while the keys added
 * ascend a new key is one after the last and no hash is kept; the first
 * key out of order builds an open-addressing hash of those before it,
 * used from then on.  A key equal to the last one is found without the
 * hash too (constant columns).  Each add is O(1), memory two int64 a key
 * added (and the hash's slots once out of order).
 */
#include "load_h5_priv.h"

#include <stdlib.h>
#include <string.h>

static size_t keys_hash(int64_t a, int64_t b, size_t mask)
{
	uint64_t x = (uint64_t)a * 0x9E3779B97F4A7C15u ^
		     (uint64_t)b * 0xC2B2AE3D27D4EB4Fu;
	return (size_t)(x ^ x >> 29) & mask;
}

/* Room for the hash of n + 1 keys, rebuilt from the keys added. */
static void keys_grow_hash(struct sv_h5_keys *k)
{
	size_t ns = k->nslot ? k->nslot * 2 : 64, j, i;

	while ((k->n + 1) * 2 > ns)
		ns *= 2;
	free(k->slot);
	k->slot = sv_xcalloc(ns, sizeof *k->slot);
	k->bytes += (ns - k->nslot) * sizeof *k->slot;
	k->nslot = ns;
	for (j = 0; j < k->n; j++) {
		i = keys_hash(k->a[j], k->b[j], ns - 1);
		while (k->slot[i])
			i = (i + 1) & (ns - 1);
		k->slot[i] = j + 1;
	}
}

bool sv_h5_keys_add(struct sv_h5_keys *k, int64_t a, int64_t b)
{
	size_t mask, i;

	if (k->n && a == k->a[k->n - 1] && b == k->b[k->n - 1])
		return false;
	if (!k->unordered && k->n &&
		(a < k->a[k->n - 1] ||
			(a == k->a[k->n - 1] && b < k->b[k->n - 1])))
		k->unordered = true;
	if (k->unordered) {
		if ((k->n + 1) * 2 > k->nslot)
			keys_grow_hash(k);
		mask = k->nslot - 1;
		for (i = keys_hash(a, b, mask); k->slot[i]; i = (i + 1) & mask)
			if (k->a[k->slot[i] - 1] == a &&
				k->b[k->slot[i] - 1] == b)
				return false;
		k->slot[i] = k->n + 1;
	}
	if (k->n == k->cap) {
		size_t was = k->cap;
		k->cap = k->cap ? k->cap * 2 : 64;
		k->a = sv_xreallocarray(k->a, k->cap, sizeof *k->a);
		k->b = sv_xreallocarray(k->b, k->cap, sizeof *k->b);
		k->bytes += (k->cap - was) * 2 * sizeof *k->a;
	}
	k->a[k->n] = a;
	k->b[k->n] = b;
	k->n++;
	return true;
}

void sv_h5_keys_fini(struct sv_h5_keys *k)
{
	free(k->a);
	free(k->b);
	free(k->slot);
	memset(k, 0, sizeof *k);
}
