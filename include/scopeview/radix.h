/*
 * radix.h: a stable O(n) sort of (uint64_t key, uint32_t value) pairs, for
 * the millions of calls a lane or a view orders by start or duration.
 *
 * Signed keys sort correctly once their sign bit is flipped
 * ((uint64_t)x ^ (1ull << 63)); descending order is ~key.
 */
#ifndef SCOPEVIEW_RADIX_H
#define SCOPEVIEW_RADIX_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_CORE)
#error "scopeview/radix.h belongs to the core layer, which this layer may not use"
#endif

#include <stddef.h>
#include <stdint.h>

struct sv_radix_kv {
	uint64_t key;   /* sorted ascending */
	uint32_t value; /* carried along: a call index, usually */
};

/*
 * Sort a[0 .. n) by key, ascending and stable (equal keys keep their
 * order), in place.  tmp is scratch of n items (its contents are left
 * undefined).  LSD radix, 11 bits a pass, over the bits where some keys
 * differ only: keys spanning a small range take one or two passes.  n
 * below 2^32; n == 0 and n == 1 do nothing (a and tmp may then be NULL).
 */
void sv_radix_sort(struct sv_radix_kv *a, struct sv_radix_kv *tmp, size_t n);

/*
 * Sort the words w[0 .. n) by their high 32 bits, ascending and stable,
 * in place (the low 32 bits are carried: a call number, usually).  tmp is
 * scratch of n words.  Half the memory per pass of sv_radix_sort, for
 * keys that fit in 32 bits once their common part is taken off.
 */
void sv_radix_sort_hi(uint64_t *w, uint64_t *tmp, size_t n);

#endif
