/*
 * ranks_inside.c: ranks inside a region, over time (ranks.h).  Per rank,
 * the union of the time the region's calls cover, from the region's rows
 * of the profile; the count of ranks inside a time range is then a binary
 * search a rank.  Nothing here prints or knows about the terminal.
 */
#include "scopeview/ranks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"

/* How often (in calls) the build asks its poll function. */
#define INSIDE_POLL_EVERY 65536

struct inside_iv {
	int64_t t0, t1;
};

static int inside_cmp_iv(const void *a, const void *b)
{
	const struct inside_iv *x = a, *y = b;
	if (x->t0 != y->t0)
		return (x->t0 > y->t0) - (x->t0 < y->t0);
	return (x->t1 > y->t1) - (x->t1 < y->t1);
}

/* Rows of the region, by rank (then row order): positions into rows. */
static size_t *inside_rows(const struct sv_profile *p, uint32_t region,
	const bool *rank_on, uint32_t nrank_on, size_t *n)
{
	size_t i, k = 0,
		  *out = sv_xmalloc((p->nrows ? p->nrows : 1) * sizeof *out);

	for (i = 0; i < p->nrows; i++) {
		const struct sv_row *r = &p->rows[i];
		size_t j;
		if (r->region != region || !r->count)
			continue;
		if (rank_on && (r->rank >= nrank_on || !rank_on[r->rank]))
			continue;
		/* Insertion by rank, stable: rows come nearly sorted. */
		for (j = k; j > 0 && p->rows[out[j - 1]].rank > r->rank; j--)
			out[j] = out[j - 1];
		out[j] = i;
		k++;
	}
	*n = k;
	return out;
}

void sv_ranks_inside_fini(struct sv_ranks_inside *ri)
{
	if (!ri)
		return;
	free(ri->ranks);
	free(ri->lane);
	free(ri->off);
	sv_free_big(ri->t0); /* 8 bytes a call of the region each */
	sv_free_big(ri->t1);
	memset(ri, 0, sizeof *ri);
}

int sv_ranks_inside_build(struct sv_ranks_inside *ri,
	const struct sv_profile *p, uint32_t region, const bool *rank_on,
	uint32_t nrank_on, bool (*poll)(void *ctx, uint64_t done), void *ctx)
{
	size_t nrows = 0, i = 0, ncap = 0, nranks_cap = 0, niv = 0, ivcap = 0;
	size_t *rows;
	struct inside_iv *buf = NULL;
	uint32_t *lane_count, *depth_count;
	uint64_t done = 0;
	uint32_t maxdepth = 0, d;

	if (!ri || !p || !p->has_calls || region >= p->nregions)
		return -EINVAL;
	memset(ri, 0, sizeof *ri);
	ri->region = region;
	rows = inside_rows(p, region, rank_on, nrank_on, &nrows);
	lane_count = sv_xcalloc(p->nlanes ? p->nlanes : 1, sizeof *lane_count);
	depth_count = sv_xcalloc((size_t)SV_MAX_DEPTH + 1, sizeof *depth_count);
	ri->off = sv_xmalloc(sizeof *ri->off);
	ri->off[0] = 0;
	while (i < nrows) {
		uint32_t rank = p->rows[rows[i]].rank;
		size_t n = 0, k, m, best_lane = SIZE_MAX;
		bool sorted = true;

		/* Every call of the rank's rows of the region. */
		for (; i < nrows && p->rows[rows[i]].rank == rank; i++) {
			const struct sv_row *r = &p->rows[rows[i]];
			uint32_t row_lane = sv_row_lane(p, rows[i]);
			uint64_t c;
			sv_grow((void **)&buf, &ncap, n + r->count,
				sizeof *buf);
			for (c = r->first; c < r->first + r->count; c++) {
				int64_t s = sv_profile_start(p, c),
					e = sv_profile_end(p, c);
				uint32_t ln = row_lane != UINT32_MAX
						      ? row_lane
						      : sv_call_lane(p, c);
				buf[n].t0 = s;
				buf[n].t1 = e > s            ? e
					    : s == INT64_MAX ? s
							     : s + 1;
				if (n && buf[n].t0 < buf[n - 1].t0)
					sorted = false;
				n++;
				lane_count[ln]++;
				if (best_lane == SIZE_MAX ||
					lane_count[ln] >
						lane_count[best_lane] ||
					(lane_count[ln] ==
							lane_count[best_lane] &&
						ln < best_lane))
					best_lane = ln;
				depth_count[sv_profile_depth(p, c)]++;
				if (sv_profile_depth(p, c) > maxdepth)
					maxdepth = sv_profile_depth(p, c);
				if (poll && ++done % INSIDE_POLL_EVERY == 0 &&
					poll(ctx, done)) {
					free(buf);
					free(rows);
					free(lane_count);
					free(depth_count);
					sv_ranks_inside_fini(ri);
					return -ECANCELED;
				}
			}
		}
		if (!sorted)
			qsort(buf, n, sizeof *buf, inside_cmp_iv);
		/* The union, as disjoint intervals. */
		for (k = 0, m = 0; k < n; k++) {
			if (m && buf[k].t0 <= buf[m - 1].t1) {
				if (buf[k].t1 > buf[m - 1].t1)
					buf[m - 1].t1 = buf[k].t1;
				continue;
			}
			buf[m++] = buf[k];
		}
		sv_grow((void **)&ri->t0, &ivcap, niv + m, sizeof *ri->t0);
		ri->t1 = sv_xrealloc(ri->t1, ivcap * sizeof *ri->t1);
		for (k = 0; k < m; k++) {
			ri->t0[niv + k] = buf[k].t0;
			ri->t1[niv + k] = buf[k].t1;
		}
		niv += m;
		sv_grow((void **)&ri->ranks, &nranks_cap, ri->nranks + 1,
			sizeof *ri->ranks);
		ri->lane = sv_xrealloc(ri->lane, nranks_cap * sizeof *ri->lane);
		ri->off = sv_xrealloc(
			ri->off, (nranks_cap + 1) * sizeof *ri->off);
		ri->ranks[ri->nranks] = rank;
		ri->lane[ri->nranks] = (uint32_t)best_lane;
		ri->nranks++;
		ri->off[ri->nranks] = niv;
		ri->ncalls += n;
		/* Lane counts are per rank: clear the lanes just used. */
		for (k = 0; k < p->nlanes; k++)
			if (p->lanes[k].rank == rank)
				lane_count[k] = 0;
	}
	for (d = 1; d <= maxdepth; d++)
		if (depth_count[d] > depth_count[ri->depth])
			ri->depth = (uint16_t)d;
	free(buf);
	free(rows);
	free(lane_count);
	free(depth_count);
	return 0;
}

long sv_ranks_inside_find(const struct sv_ranks_inside *ri, uint32_t rank)
{
	return ri ? sv_ranks_find(ri->ranks, ri->nranks, rank) : -1;
}

uint32_t sv_ranks_inside_count(
	const struct sv_ranks_inside *ri, int64_t t0, int64_t t1)
{
	uint32_t k, n = 0;

	if (!ri || t1 <= t0)
		return 0;
	for (k = 0; k < ri->nranks; k++) {
		/* The first interval ending after t0 (ends ascend, as the
		 * intervals are disjoint and sorted). */
		uint64_t lo = ri->off[k], hi = ri->off[k + 1];
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2;
			if (ri->t1[mid] > t0)
				hi = mid;
			else
				lo = mid + 1;
		}
		if (lo < ri->off[k + 1] && ri->t0[lo] < t1)
			n++;
	}
	return n;
}
