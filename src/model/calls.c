/*
 * calls.c: call lists by region, sorted by any column (see calls.h).
 * Sorting puts the list in call-number order first (so the columns are
 * read in order, and ties come out in that order whatever the list's
 * order was), maps each key to an order-preserving integer and runs the
 * radix sort, one word a call when the keys span less than 2^32; absent
 * values come last.
 */
#include "scopeview/calls.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"
#include "scopeview/radix.h"

#define CALLS_POLL 65536

static const struct {
	const char *name;
	bool desc;
	const char *help;
} calls_keys[] = {
#define SV_CALLS_KEY_ROW(id, name, desc, help) {name, desc, help},
	SV_CALLS_KEY_TABLE(SV_CALLS_KEY_ROW)
#undef SV_CALLS_KEY_ROW
};

const char *sv_calls_key_name(enum sv_calls_key key)
{
	return (unsigned)key < SV_CALLS_KEY_COUNT ? calls_keys[key].name : NULL;
}

const char *sv_calls_key_help(enum sv_calls_key key)
{
	return (unsigned)key < SV_CALLS_KEY_COUNT ? calls_keys[key].help : NULL;
}

bool sv_calls_key_descending(enum sv_calls_key key)
{
	return (unsigned)key < SV_CALLS_KEY_COUNT && calls_keys[key].desc;
}

int sv_calls_key_from_name(const char *name)
{
	int k;
	if (!name)
		return -1;
	for (k = 0; k < SV_CALLS_KEY_COUNT; k++)
		if (!strcmp(name, calls_keys[k].name))
			return k;
	return -1;
}

static bool calls_cancelled(const atomic_bool *cancel)
{
	return cancel && atomic_load_explicit(cancel, memory_order_relaxed);
}

long sv_calls_of_region(const struct sv_profile *p, uint32_t region,
	const bool *rank_on, uint32_t nrank_on, uint32_t **out,
	const atomic_bool *cancel)
{
	uint64_t n = 0, k = 0, c;
	uint32_t *v;
	size_t i;

	if (!p || !out || region >= p->nregions)
		return -EINVAL;
	*out = NULL;
	if (!p->has_calls)
		return 0;
	for (i = 0; i < p->nrows; i++) {
		const struct sv_row *r = &p->rows[i];
		if (r->region == region &&
			(!rank_on || (r->rank < nrank_on && rank_on[r->rank])))
			n += r->count;
	}
	if (!n)
		return 0;
	v = sv_xmalloc(n * sizeof *v);
	for (i = 0; i < p->nrows; i++) {
		const struct sv_row *r = &p->rows[i];
		if (r->region != region ||
			(rank_on && (r->rank >= nrank_on || !rank_on[r->rank])))
			continue;
		if (calls_cancelled(cancel)) {
			free(v);
			return -ECANCELED;
		}
		for (c = r->first; c < r->first + r->count; c++)
			v[k++] = (uint32_t)c;
	}
	*out = v;
	return (long)k;
}

bool sv_calls_value(const struct sv_profile *p, uint32_t c,
	enum sv_calls_key key, int64_t *out)
{
	switch (key) {
	case SV_CALLS_KEY_DURATION:
		*out = sv_call_duration(p, c);
		return true;
	case SV_CALLS_KEY_START:
		*out = sv_profile_start(p, c);
		return true;
	case SV_CALLS_KEY_END:
		*out = sv_profile_end(p, c);
		return true;
	case SV_CALLS_KEY_RANK:
		*out = sv_call_rank(p, c);
		return true;
	case SV_CALLS_KEY_LANE:
		if (!sv_profile_has_lanes(p))
			return false;
		*out = sv_call_lane(p, c);
		return true;
	case SV_CALLS_KEY_EXCLUSIVE:
		if (!sv_profile_has_exclusive(p))
			return false;
		*out = sv_profile_exclusive(p, c);
		return true;
	case SV_CALLS_KEY_GPU: {
		int64_t g = sv_profile_gpu(p, c); /* -1: none */
		if (g < 0)
			return false;
		*out = g;
		return true;
	}
	case SV_CALLS_KEY_AWAIT:
		if (!sv_profile_has_await(p))
			return false;
		*out = sv_profile_await(p, c);
		return true;
	default:
		return false;
	}
}

/* The sort key of call c: order-preserving, descending keys inverted;
 * false when absent. */
static bool calls_key(const struct sv_profile *p, uint32_t c,
	enum sv_calls_key key, bool desc, uint64_t *k)
{
	int64_t v;
	if (!sv_calls_value(p, c, key, &v))
		return false;
	*k = (uint64_t)v ^ (1ull << 63);
	if (desc)
		*k = ~*k;
	return true;
}

/* Put calls[0 .. n) in call-number order, so that what the keys are read
 * from is read in order rather than at random (the cost of sorting a list
 * that came longest first): a bitmap of the calls when none repeats, the
 * radix sort otherwise. */
static void calls_by_number(uint32_t *calls, size_t n)
{
	uint32_t top = 0;
	uint64_t *bits;
	size_t i, k = 0, nw;
	bool dup = false;

	for (i = 1; i < n && calls[i - 1] < calls[i]; i++)
		;
	if (i >= n)
		return;
	for (i = 0; i < n; i++)
		top = calls[i] > top ? calls[i] : top;
	nw = (size_t)top / 64 + 1;
	bits = sv_xcalloc(nw, sizeof *bits);
	for (i = 0; i < n && !dup; i++) {
		uint64_t b = 1ull << (calls[i] % 64);
		dup = bits[calls[i] / 64] & b;
		bits[calls[i] / 64] |= b;
	}
	if (dup) {
		uint64_t *w = sv_xmalloc(2 * n * sizeof *w);
		for (i = 0; i < n; i++)
			w[i] = (uint64_t)calls[i] << 32;
		sv_radix_sort_hi(w, w + n, n);
		for (i = 0; i < n; i++)
			calls[i] = (uint32_t)(w[i] >> 32);
		free(w);
	} else {
		for (i = 0; i < nw; i++)
			for (uint64_t b = bits[i]; b; b &= b - 1)
				calls[k++] =
					(uint32_t)(i * 64 +
						   (unsigned)__builtin_ctzll(
							   b));
	}
	free(bits);
}

/* Lists of at least this many calls are sorted in two halves side by
 * side (a thread each), then merged. */
#define CALLS_PAR_MIN 1000000

/* One half of a sort: calls[0 .. n) into words w (scratch tmp). */
struct calls_half {
	const struct sv_profile *p;
	const uint32_t *calls;
	uint64_t *w, *tmp;
	size_t n;
	enum sv_calls_key key;
	bool desc;
	const atomic_bool *cancel;
	int phase;           /* 1: read the keys; 2: pack and sort */
	bool cancelled;      /* phase 1 saw the flag */
	uint64_t kmin, kmax; /* phase 1: of the present keys */
	uint64_t base, none; /* phase 2: subtracted; the absent's key */
};

/* Phase 1: the keys into w (absent ones UINT64_MAX), their range. */
static void half_keys(struct calls_half *h)
{
	size_t i;

	h->kmin = UINT64_MAX;
	h->kmax = 0;
	for (i = 0; i < h->n; i++) {
		uint64_t k;
		if ((i & (CALLS_POLL - 1)) == 0 && calls_cancelled(h->cancel)) {
			h->cancelled = true;
			return;
		}
		if (!calls_key(h->p, h->calls[i], h->key, h->desc, &k)) {
			h->w[i] = UINT64_MAX;
			continue;
		}
		k -= k == UINT64_MAX; /* present values come first */
		h->w[i] = k;
		h->kmin = k < h->kmin ? k : h->kmin;
		h->kmax = k > h->kmax ? k : h->kmax;
	}
}

/* Phase 2: each word becomes its key above its call, then the half is
 * sorted by key (stable: its calls are in call-number order). */
static void half_sort(struct calls_half *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		h->w[i] = (h->w[i] == UINT64_MAX ? h->none : h->w[i] - h->base)
				  << 32 |
			  h->calls[i];
	sv_radix_sort_hi(h->w, h->tmp, h->n);
}

static void *half_main(void *arg)
{
	struct calls_half *h = arg;
	if (h->phase == 1)
		half_keys(h);
	else
		half_sort(h);
	return NULL;
}

/* Run the phase on both halves, the second on a thread of its own. */
static void halves_run(struct calls_half *h, int phase)
{
	pthread_t t;
	bool threaded;

	h[0].phase = h[1].phase = phase;
	threaded = h[1].n && pthread_create(&t, NULL, half_main, &h[1]) == 0;
	half_main(&h[0]);
	if (threaded)
		pthread_join(t, NULL);
	else if (h[1].n)
		half_main(&h[1]);
}

/* Sort calls[0 .. n) by key, stably (the list comes in call-number
 * order, or in start order for the second pass of a sort by rank or
 * lane): packed into one word each (key above, call below) when the keys
 * span less than 2^32, as the durations of one region do, each half of a
 * long list on its own core and the halves merged by key, a tie taken
 * from the first half; else as (key, call) pairs.  Absent values come after every present one.  The
 * keys are read once, into the words the sort then moves. */
static int calls_sort_keyed(const struct sv_profile *p, uint32_t *calls,
	size_t n, enum sv_calls_key key, bool desc, const atomic_bool *cancel)
{
	struct calls_half h[2];
	uint64_t kmin, kmax, *w;
	struct sv_radix_kv *a;
	size_t i, j, k, n0 = n >= CALLS_PAR_MIN ? n / 2 : n;

	w = sv_xmalloc(2 * n * sizeof *w);
	for (k = 0; k < 2; k++)
		h[k] = (struct calls_half){.p = p,
			.calls = calls + (k ? n0 : 0),
			.w = w + (k ? n0 : 0),
			.tmp = w + n + (k ? n0 : 0),
			.n = k ? n - n0 : n0,
			.key = key,
			.desc = desc,
			.cancel = cancel,
			.kmin = UINT64_MAX};
	halves_run(h, 1);
	if (h[0].cancelled || h[1].cancelled) {
		free(w);
		return -ECANCELED;
	}
	kmin = h[0].kmin < h[1].kmin ? h[0].kmin : h[1].kmin;
	kmax = h[0].kmax > h[1].kmax ? h[0].kmax : h[1].kmax;
	if (kmin > kmax || kmax - kmin < UINT32_MAX) {
		for (k = 0; k < 2; k++) {
			h[k].base = kmin;
			h[k].none = kmin > kmax ? 0 : kmax - kmin + 1;
		}
		halves_run(h, 2);
		/* Merged by key alone, ties from the first half first: the
		 * halves keep the list's order (call numbers, or the start
		 * order of a sort by rank or lane) among equal keys. */
		for (i = 0, j = n0, k = 0; k < n; k++) {
			bool first =
				i < n0 && (j >= n || w[i] >> 32 <= w[j] >> 32);
			calls[k] = (uint32_t)(first ? w[i++] : w[j++]);
		}
		free(w);
		return 0;
	}
	/* 2n words are the n pairs' room (a pair is padded to 16 bytes). */
	a = (struct sv_radix_kv *)(void *)w;
	for (i = n; i-- > 0;) {
		uint64_t kv = w[i];
		a[i].value = calls[i];
		a[i].key = kv;
	}
	a = sv_xrealloc(a, 2 * n * sizeof *a);
	sv_radix_sort(a, a + n, n);
	for (i = 0; i < n; i++)
		calls[i] = a[i].value;
	free(a);
	return 0;
}

int sv_calls_sort(const struct sv_profile *p, uint32_t *calls, size_t n,
	enum sv_calls_key key, bool reverse, const atomic_bool *cancel)
{
	bool desc;
	uint32_t *copy;
	size_t i;
	int rc;

	if (!p || (n && !calls) || (unsigned)key >= SV_CALLS_KEY_COUNT)
		return -EINVAL;
	if (n < 2)
		return 0;
	if (calls_cancelled(cancel))
		return -ECANCELED;
	desc = sv_calls_key_descending(key) != reverse;
	/* A list out of call-number order is put in order in a copy (as
	 * are the two sorts by rank or lane), so that calls is unchanged
	 * when cancelled; one sort writes calls only once done. */
	for (i = 1; i < n && calls[i - 1] < calls[i]; i++)
		;
	copy = calls;
	if (i < n || key == SV_CALLS_KEY_RANK || key == SV_CALLS_KEY_LANE) {
		copy = sv_xmalloc(n * sizeof *copy);
		memcpy(copy, calls, n * sizeof *copy);
		calls_by_number(copy, n);
	}
	if (key == SV_CALLS_KEY_RANK || key == SV_CALLS_KEY_LANE) {
		/* By start first; the stable sort by key keeps it. */
		rc = calls_sort_keyed(
			p, copy, n, SV_CALLS_KEY_START, false, cancel);
		if (rc == 0)
			rc = calls_sort_keyed(p, copy, n, key, desc, cancel);
	} else {
		rc = calls_sort_keyed(p, copy, n, key, desc, cancel);
	}
	if (copy != calls) {
		if (rc == 0)
			memcpy(calls, copy, n * sizeof *calls);
		free(copy);
	}
	return rc;
}

long sv_calls_pick(const struct sv_profile *p, const struct sv_calls_query *q,
	uint32_t **out)
{
	int64_t region = sv_profile_find_region(p, q->region);
	long n;

	*out = NULL;
	if (region < 0)
		return 0;
	n = sv_calls_of_region(
		p, (uint32_t)region, q->rank_on, q->nrank_on, out, NULL);
	if (n > 0 && sv_calls_sort(p, *out, (size_t)n, q->key, q->reverse,
			     NULL) < 0) {
		free(*out);
		*out = NULL;
		return -EINVAL;
	}
	if (q->limit >= 0 && q->limit < n)
		n = q->limit;
	return n;
}
