/*
 * lane_sort.c: a lane's calls put in start order for the nesting
 * (sv_profile_finish): start ascending, end descending, then
 * scope-profiler's tie order.  A lane made of a few sorted runs (a row's
 * calls, as a rule) is merged, any other radix-sorted, and equal starts
 * fixed up after.  The starts are the lane's own, read once (from the
 * packed column when the load packed it), and the order is kept as
 * positions of the lane's list, so neither is moved until the nesting
 * is done.
 */
#include "profile_priv.h"

#include <stdlib.h>
#include <string.h>

#include "scopeview/radix.h"

/* Order of calls that start together: longer first (the parent), then by
 * region display position, then storage order, as scope-profiler's stable
 * lexsort over its display-ordered regions (sv_profile_lane_before, with
 * the start they share at hand).  The calls compared are positions of a
 * lane's list: calls[a] and calls[b]. */
struct tie_ctx {
	const struct sv_profile *p; /* its region_pos set */
	const uint32_t *calls;
	int64_t start;
};

static int tie_before(const struct tie_ctx *t, uint32_t a, uint32_t b)
{
	const struct sv_profile *p = t->p;
	uint32_t ca = t->calls[a], cb = t->calls[b], ra, rb;
	int64_t ea = sv_add_wrap(t->start, sv_call_duration(p, ca)),
		eb = sv_add_wrap(t->start, sv_call_duration(p, cb));

	if (ea != eb)
		return ea > eb;
	ra = p->region_pos[sv_call_region(p, ca)];
	rb = p->region_pos[sv_call_region(p, cb)];
	if (ra != rb)
		return ra < rb;
	return ca < cb;
}

static void tie_sort(const struct tie_ctx *t, uint32_t *v, size_t n)
{
	size_t i, j;
	/* Equal starts come in small groups (a parent and its first child);
	 * insertion sort, with a merge sort fallback for large groups. */
	if (n <= 32) {
		for (i = 1; i < n; i++) {
			uint32_t x = v[i];
			for (j = i; j > 0 && tie_before(t, x, v[j - 1]); j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	} else {
		size_t h = n / 2, a = 0, b = h, o = 0;
		uint32_t *tmp = sv_xmalloc(n * sizeof *tmp);
		tie_sort(t, v, h);
		tie_sort(t, v + h, n - h);
		while (a < h && b < n)
			tmp[o++] = tie_before(t, v[b], v[a]) ? v[b++] : v[a++];
		while (a < h)
			tmp[o++] = v[a++];
		while (b < n)
			tmp[o++] = v[b++];
		memcpy(v, tmp, n * sizeof *tmp);
		free(tmp);
	}
}

/* A lane of at most this many sorted runs (a row's calls, as a rule) is
 * merged rather than radix-sorted. */
#define LANE_MERGE_RUNS 64

/* The runs of a merge, in a heap by the start of each one's next call. */
struct lane_heap {
	size_t run[LANE_MERGE_RUNS];
	uint64_t key[LANE_MERGE_RUNS]; /* of each run (by run number) */
	size_t n;
};

static void lane_heap_down(struct lane_heap *h, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i, t;
		if (l < h->n && h->key[h->run[l]] < h->key[h->run[m]])
			m = l;
		if (l + 1 < h->n && h->key[h->run[l + 1]] < h->key[h->run[m]])
			m = l + 1;
		if (m == i)
			return;
		t = h->run[i];
		h->run[i] = h->run[m];
		h->run[m] = t;
		i = m;
	}
}

static void lane_heap_push(struct lane_heap *h, size_t r)
{
	size_t i = h->n++;

	while (i && h->key[h->run[(i - 1) / 2]] > h->key[r]) {
		h->run[i] = h->run[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->run[i] = r;
}

/*
 * Merge the sorted runs [from[k], from[k + 1]) (k < nrun) of a lane's
 * list, whose starts are starts[], by start into out, as positions of
 * the list.  The run with the earliest next call gives calls until its
 * next one starts after the next of any other run: one comparison a call
 * while a run's calls come in a row, as a row's do.
 */
static void lane_merge(const int64_t *starts, const size_t *from, size_t nrun,
	int64_t lo, uint32_t *out)
{
	struct lane_heap h;
	size_t pos[LANE_MERGE_RUNS], k, o = 0;

	h.n = 0;
	for (k = 0; k < nrun; k++) {
		pos[k] = from[k];
		h.key[k] = (uint64_t)starts[pos[k]] - (uint64_t)lo;
		lane_heap_push(&h, k);
	}
	while (h.n) {
		size_t r = h.run[0];
		uint64_t limit;
		h.run[0] = h.run[--h.n];
		lane_heap_down(&h, 0);
		limit = h.n ? h.key[h.run[0]] : UINT64_MAX;
		do {
			out[o++] = (uint32_t)pos[r]++;
			if (pos[r] == from[r + 1])
				break;
			h.key[r] = (uint64_t)starts[pos[r]] - (uint64_t)lo;
		} while (h.key[r] <= limit);
		if (pos[r] < from[r + 1])
			lane_heap_push(&h, r);
	}
}

/* The starts of a lane's list calls[0 .. n) into out: runs of calls in a
 * row (a row's calls, as a rule) read a block at a time when the starts
 * are packed. */
void sv_lane_starts(const struct sv_profile *p, const uint32_t *calls, size_t n,
	int64_t *out)
{
	size_t i = 0, j;

	if (p->start_ns) {
		for (i = 0; i < n; i++)
			out[i] = p->start_ns[calls[i]];
		return;
	}
	while (i < n) {
		for (j = i + 1; j < n && calls[j] == calls[j - 1] + 1; j++)
			;
		if (j - i == 1)
			out[i] = sv_packed_get(&p->start_pk, calls[i]);
		else
			sv_packed_get_range(
				&p->start_pk, calls[i], j - i, out + i);
		i = j;
	}
}

/* The start order of a lane's list calls[0 .. n), whose starts are
 * sc->starts, into sc->at as positions of the list: start asc, then tie
 * order.  A lane made of a few sorted runs is merged, any other
 * radix-sorted. */
void sv_lane_sort(const struct sv_profile *p, const uint32_t *calls, size_t n,
	struct sv_lane_scratch *sc)
{
	const int64_t *st = sc->starts;
	struct sv_radix_kv *a = NULL;
	struct tie_ctx t = {p, calls, 0};
	uint32_t *at = sc->at;
	int64_t lo;
	size_t i, start, from[LANE_MERGE_RUNS + 1], nrun = 1;
	bool sorted = true, keyed = false;

	for (i = 0; i < n; i++)
		at[i] = (uint32_t)i;
	if (n < 2)
		return;
	lo = st[0];
	from[0] = 0;
	for (i = 1; i < n; i++) {
		if (st[i] < lo)
			lo = st[i];
		if (st[i] < st[i - 1]) {
			sorted = false;
			if (nrun < LANE_MERGE_RUNS)
				from[nrun] = i;
			nrun++;
		}
	}
	if (!sorted && nrun <= LANE_MERGE_RUNS) {
		from[nrun] = n;
		lane_merge(st, from, nrun, lo, at);
	} else if (!sorted) {
		if (!sc->a) {
			sc->a = sv_xmalloc(sc->max * sizeof *sc->a);
			sc->b = sv_xmalloc(sc->max * sizeof *sc->b);
		}
		a = sc->a;
		keyed = true;
		for (i = 0; i < n; i++) {
			a[i].key = (uint64_t)st[i] - (uint64_t)lo;
			a[i].value = (uint32_t)i;
		}
		/* Stable, so equal starts keep call order. */
		sv_radix_sort(a, sc->b, n);
		for (i = 0; i < n; i++)
			at[i] = a[i].value;
	}
	/* Order every run of equal starts (found in the sorted keys, read
	 * in order, rather than through the positions). */
	for (start = 0; start < n;) {
		size_t end = start + 1;
		if (!keyed) {
			int64_t s = st[at[start]];
			while (end < n && st[at[end]] == s)
				end++;
		} else {
			while (end < n && a[end].key == a[start].key)
				end++;
		}
		if (end - start > 1) {
			t.start = st[at[start]];
			tie_sort(&t, at + start, end - start);
		}
		start = end;
	}
}

/* The list calls[0 .. n) put in the order sc->at gives (through the
 * starts' room, no longer needed). */
void sv_lane_order(uint32_t *calls, size_t n, struct sv_lane_scratch *sc)
{
	uint32_t *tmp = (uint32_t *)(void *)sc->starts;
	size_t i;

	for (i = 0; i < n; i++)
		tmp[i] = calls[sc->at[i]];
	memcpy(calls, tmp, n * sizeof *calls);
}
