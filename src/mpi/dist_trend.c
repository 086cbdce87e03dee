/*
 * dist_trend.c: one region iteration by iteration over a profile split
 * over the processes of scopeview-mpi (sv_dist_trend, dist.h).
 *
 * Iteration k is the k-th call of the region on each rank, and every
 * rank is whole on one process: each process finds its ranks' series and
 * their change points with the serial code (sv_trend_series over its
 * share).  A point needs every rank's k-th value, and its figures (count,
 * min, numpy's median, max, the lowest rank of the max) depend only on
 * the values and their ranks, not on their order: process 0 gathers the
 * values of a block of iterations at a time, about TREND_BLOCK values
 * over every rank, so that it never holds every value at once, and makes
 * each point with the serial code (sv_trend_point_of).  The change
 * points (a few a rank) are gathered and sorted as the serial code sorts
 * them, and the drift and jitter come from the points on process 0
 * (sv_trend_finish).  The series stay where they were made: process 0's
 * trend has no ranks, off or calls.
 */
#include "scopeview/dist.h"

#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* Values gathered to process 0 at once, about: a block of iterations
 * holds this many over every rank (at least one iteration). */
#define TREND_BLOCK ((size_t)1 << 20)

/* TREND_BLOCK, or SCOPEVIEW_MPI_TREND_BLOCK=N (N > 0) for the tests,
 * whose profiles fit in one block of that size. */
static size_t trend_block_values(void)
{
	const char *e = getenv("SCOPEVIEW_MPI_TREND_BLOCK");
	char *end;
	unsigned long long n;

	if (!e || !*e)
		return TREND_BLOCK;
	n = strtoull(e, &end, 10);
	return *end || n == 0 || n > TREND_BLOCK ? TREND_BLOCK : (size_t)n;
}

/* One rank's value of one iteration, as process 0 gathers it. */
struct trend_item {
	int64_t value;
	uint32_t rank;
	uint32_t k; /* the iteration, from the block's first */
};

/* A series of this process: its index in the local trend and length. */
struct trend_len {
	size_t len, i;
};

static int trend_len_cmp(const void *a, const void *b)
{
	const struct trend_len *x = a, *y = b;
	if (x->len != y->len)
		return x->len > y->len ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* This process's series, longest first. */
static struct trend_len *trend_by_length(const struct sv_trend *lt)
{
	struct trend_len *by = sv_xcalloc(lt->nranks + 1, sizeof *by);
	size_t i;

	for (i = 0; i < lt->nranks; i++) {
		by[i].len = lt->off[i + 1] - lt->off[i];
		by[i].i = i;
	}
	qsort(by, lt->nranks, sizeof *by, trend_len_cmp);
	return by;
}

/* The walk of this process's series through the iterations. */
struct trend_walk {
	const struct sv_trend *lt;
	const int64_t *v;        /* lt's values */
	struct trend_len *by;    /* lt's series, longest first */
	size_t active;           /* those with an iteration k and on */
	struct trend_item *item; /* one block's */
};

/* The values of iterations [k0, k1) of this process's series into
 * w->item, by iteration; returns their count. */
static size_t trend_block(struct trend_walk *w, size_t k0, size_t k1)
{
	size_t n = 0, k, j;

	for (k = k0; k < k1; k++) {
		while (w->active && w->by[w->active - 1].len <= k)
			w->active--;
		for (j = 0; j < w->active; j++) {
			size_t i = w->by[j].i;
			w->item[n].value = w->v[w->lt->off[i] + k];
			w->item[n].rank = w->lt->ranks[i];
			w->item[n++].k = (uint32_t)(k - k0);
		}
	}
	return n;
}

/* Process 0: the points of iterations [k0, k1) from the block's items of
 * every process (process p's from at[p], by iteration), into pts[k0 ..
 * k1).  v, rank and scratch hold an iteration's values (every rank). */
static void trend_block_points(struct sv_trend_point *pts, size_t k0, size_t k1,
	const struct trend_item *all, size_t nall, const size_t *at, int64_t *v,
	uint32_t *rank, double *scratch)
{
	int np = sv_dist_size(), p;
	size_t *cur = sv_xcalloc((size_t)np, sizeof *cur), k;

	memcpy(cur, at, (size_t)np * sizeof *cur);
	for (k = k0; k < k1; k++) {
		size_t m = 0;
		for (p = 0; p < np; p++) {
			size_t end = p + 1 < np ? at[p + 1] : nall;
			while (cur[p] < end && all[cur[p]].k == k - k0) {
				v[m] = all[cur[p]].value;
				rank[m++] = all[cur[p]++].rank;
			}
		}
		sv_trend_point_of(&pts[k], v, rank, m, scratch);
	}
	free(cur);
}

/* The points of the whole job's series into t on process 0: npoints
 * iterations over nranks ranks in all. */
static void trend_points(struct sv_trend *t, const struct sv_trend *lt,
	const int64_t *v, uint64_t npoints, uint64_t nranks)
{
	struct trend_walk w = {lt, v, trend_by_length(lt), lt->nranks, NULL};
	size_t block = trend_block_values(), k0, k1, n, nall;
	int64_t *val = NULL;
	uint32_t *rank = NULL;
	double *scratch = NULL;
	bool root = sv_dist_rank() == 0;

	block = nranks && block / nranks ? block / nranks : 1;
	if (block > npoints)
		block = npoints ? npoints : 1;
	w.item = sv_xcalloc(block * lt->nranks + 1, sizeof *w.item);
	if (root) {
		t->npoints = npoints;
		t->points = sv_xcalloc(npoints + 1, sizeof *t->points);
		val = sv_xcalloc(nranks + 1, sizeof *val);
		rank = sv_xcalloc(nranks + 1, sizeof *rank);
		scratch = sv_xcalloc(nranks + 1, sizeof *scratch);
	}
	for (k0 = 0; k0 < npoints; k0 = k1) {
		struct trend_item *all;
		size_t *at = NULL;

		k1 = npoints - k0 < block ? npoints : k0 + block;
		n = trend_block(&w, k0, k1);
		all = sv_dist_gather(w.item, n, sizeof *w.item, &nall, &at);
		if (root)
			trend_block_points(t->points, k0, k1, all, nall, at,
				val, rank, scratch);
		free(all);
		free(at);
	}
	free(w.item);
	free(w.by);
	free(val);
	free(rank);
	free(scratch);
}

/* Every process's change points into t on process 0, in the serial
 * order. */
static void trend_changes(struct sv_trend *t, const struct sv_trend *lt)
{
	size_t nall = 0;
	struct sv_trend_change *all = sv_dist_gather(
		lt->changes, lt->nchanges, sizeof *lt->changes, &nall, NULL);

	if (sv_dist_rank() != 0) {
		free(all);
		return;
	}
	sv_trend_sort_changes(all, nall);
	t->changes = all;
	t->nchanges = nall;
}

int sv_dist_trend(struct sv_trend *t, const struct sv_dist_profile *d,
	const char *region, const struct sv_trend_opts *o, struct sv_error *err)
{
	struct sv_trend_opts lo;
	struct sv_trend lt;
	int64_t *v = NULL, at;
	uint64_t mine[2], most, total;
	size_t i;
	bool root = sv_dist_rank() == 0;
	int rc;

	memset(t, 0, sizeof *t);
	memset(&lt, 0, sizeof lt);
	if (o)
		lo = *o;
	else
		memset(&lo, 0, sizeof lo);
	lo.rank_on = d->share;
	lo.nrank_on = d->nshare;
	lo.cancel = NULL;
	lo.progress = NULL;
	at = sv_profile_find_region(d->local, region);
	if (root && sv_profile_find_region(d->whole, region) < 0) {
		rc = sv_error_set(err, -EINVAL, "no region named %s", region);
	} else if (at >= 0) {
		rc = sv_trend_series(&lt, d->local, (uint32_t)at, &lo, &v, err);
	} else if (d->local->nregions) {
		/* This process's profile does not name the region, so none
		 * of its ranks calls it: the checks of the profile, and no
		 * rank taken. */
		bool none = false;
		lo.rank_on = &none;
		lo.nrank_on = 0;
		rc = sv_trend_series(&lt, d->local, 0, &lo, &v, err);
	} else {
		lt.metric = lo.metric;
		rc = 0;
	}
	rc = sv_dist_agree(rc, err);
	if (rc < 0) {
		sv_trend_fini(&lt);
		sv_free_big(v);
		return rc;
	}
	/* The iterations (the longest series) and the ranks of the job. */
	mine[0] = 0;
	for (i = 0; i < lt.nranks; i++)
		if (lt.off[i + 1] - lt.off[i] > mine[0])
			mine[0] = lt.off[i + 1] - lt.off[i];
	mine[1] = lt.nranks;
	MPI_Allreduce(
		&mine[0], &most, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
	MPI_Allreduce(
		&mine[1], &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
	trend_points(t, &lt, v, most, total);
	sv_free_big(v);
	trend_changes(t, &lt);
	t->region = root ? (uint32_t)sv_profile_find_region(d->whole, region)
			 : (at >= 0 ? (uint32_t)at : 0);
	t->metric = lo.metric;
	t->nranks = root ? (uint32_t)total : 0;
	t->drift_pct_per_100 = t->jitter_pct = NAN;
	if (root)
		sv_trend_finish(t);
	sv_trend_fini(&lt);
	return 0;
}
