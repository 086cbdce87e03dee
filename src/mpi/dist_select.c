/*
 * dist_select.c: order statistics of values spread over the processes of
 * scopeview-mpi (sv_dist_select, dist.h), for the pooled percentiles of a
 * region, without gathering the values.
 *
 * Each wanted rank k keeps a range [lo, hi] of int64 values known to hold
 * it and the count of values below lo.  A round counts every process's
 * values in the range into DIST_BUCKETS buckets of equal width (in
 * uint64 offsets from lo, so the whole int64 range and negative values
 * work) and adds the counts up across the processes (one MPI_Allreduce
 * for every rank still open); the bucket where the running count passes
 * k becomes the new range.  Every round divides the range's width by
 * DIST_BUCKETS, so after at most six rounds of 4096 buckets the range is
 * one value, and a range left holding at most SV_DIST_GATHER_MAX values
 * is finished sooner: those few values are gathered to process 0 and
 * selected there.  Every process takes the same steps, as every decision
 * is made from the summed counts.
 */
#include "scopeview/dist.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#define DIST_BUCKETS 4096

struct select_rank {
	uint64_t k;      /* the rank wanted */
	int64_t lo, hi;  /* the values in [lo, hi] hold it */
	uint64_t below;  /* values < lo, over every process */
	uint64_t inside; /* values in [lo, hi], over every process */
	bool done;
	int64_t val;
};

static int select_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The width of a bucket over [lo, hi]: the range split in DIST_BUCKETS. */
static uint64_t select_width(const struct select_rank *s)
{
	uint64_t span = (uint64_t)s->hi - (uint64_t)s->lo;
	return span / DIST_BUCKETS + 1;
}

/* Gather the values in s's range to process 0 and pick rank k there. */
static void select_gather(const int64_t *v, size_t n, struct select_rank *s)
{
	int me = sv_dist_rank(), np = sv_dist_size(), cnt = 0, k;
	int *cnts = NULL, *at = NULL;
	int64_t *mine, *all = NULL;
	size_t i;

	mine = sv_xmalloc((s->inside ? s->inside : 1) * sizeof *mine);
	for (i = 0; i < n; i++)
		if (v[i] >= s->lo && v[i] <= s->hi)
			mine[cnt++] = v[i];
	if (me == 0) {
		cnts = sv_xcalloc((size_t)np, sizeof *cnts);
		at = sv_xcalloc((size_t)np, sizeof *at);
	}
	MPI_Gather(&cnt, 1, MPI_INT, cnts, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (me == 0) {
		int sum = 0;
		for (k = 0; k < np; k++) {
			at[k] = sum;
			sum += cnts[k];
		}
		all = sv_xmalloc(((size_t)sum + 1) * sizeof *all);
	}
	MPI_Gatherv(mine, cnt, MPI_INT64_T, all, cnts, at, MPI_INT64_T, 0,
		MPI_COMM_WORLD);
	if (me == 0) {
		qsort(all, (size_t)s->inside, sizeof *all, select_cmp);
		s->val = all[s->k - s->below];
	}
	s->done = true;
	free(mine);
	free(all);
	free(cnts);
	free(at);
}

void sv_dist_select(const int64_t *v, size_t n, uint64_t ntotal,
	const size_t *need, size_t nneed, int64_t *val)
{
	struct select_rank s[SV_STATS_PCT_NEED_MAX];
	long long mm[2] = {INT64_MAX, INT64_MAX}, gm[2];
	uint64_t *hist, *sum;
	size_t i, j, open;

	if (nneed > SV_STATS_PCT_NEED_MAX)
		nneed = SV_STATS_PCT_NEED_MAX;
	/* The range of every value: the minimum, and the maximum as the
	 * minimum of the complemented values (one reduction). */
	for (i = 0; i < n; i++) {
		int64_t c = (int64_t) ~(uint64_t)v[i];
		if (v[i] < mm[0])
			mm[0] = v[i];
		if (c < mm[1])
			mm[1] = c;
	}
	MPI_Allreduce(mm, gm, 2, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
	for (j = 0; j < nneed; j++) {
		s[j].k = need[j];
		s[j].lo = (int64_t)gm[0];
		s[j].hi = (int64_t) ~(uint64_t)gm[1];
		s[j].below = 0;
		s[j].inside = ntotal;
		s[j].done = false;
	}
	hist = sv_xmalloc(nneed * DIST_BUCKETS * sizeof *hist);
	sum = sv_xmalloc(nneed * DIST_BUCKETS * sizeof *sum);
	for (;;) {
		open = 0;
		for (j = 0; j < nneed; j++) {
			if (s[j].done)
				continue;
			if (s[j].lo == s[j].hi) {
				s[j].val = s[j].lo;
				s[j].done = true;
			} else if (s[j].inside <= SV_DIST_GATHER_MAX) {
				select_gather(v, n, &s[j]);
			} else {
				open++;
			}
		}
		if (!open)
			break;
		memset(hist, 0, open * DIST_BUCKETS * sizeof *hist);
		for (j = 0, open = 0; j < nneed; j++) {
			uint64_t w, *h;
			if (s[j].done)
				continue;
			w = select_width(&s[j]);
			h = hist + open++ * DIST_BUCKETS;
			for (i = 0; i < n; i++)
				if (v[i] >= s[j].lo && v[i] <= s[j].hi)
					h[((uint64_t)v[i] - (uint64_t)s[j].lo) /
						w]++;
		}
		MPI_Allreduce(hist, sum, (int)(open * DIST_BUCKETS),
			MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
		for (j = 0, open = 0; j < nneed; j++) {
			uint64_t w, *h, at;
			size_t b;
			if (s[j].done)
				continue;
			w = select_width(&s[j]);
			h = sum + open++ * DIST_BUCKETS;
			at = s[j].below;
			for (b = 0; b + 1 < DIST_BUCKETS && at + h[b] <= s[j].k;
				b++)
				at += h[b];
			s[j].below = at;
			s[j].inside = h[b];
			s[j].lo = (int64_t)((uint64_t)s[j].lo + b * w);
			if ((uint64_t)s[j].hi - (uint64_t)s[j].lo > w - 1)
				s[j].hi = (int64_t)((uint64_t)s[j].lo + w - 1);
		}
	}
	free(hist);
	free(sum);
	if (sv_dist_rank() == 0)
		for (j = 0; j < nneed; j++)
			val[j] = s[j].val;
}
