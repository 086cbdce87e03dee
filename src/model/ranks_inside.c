/*
 * ranks_inside.c: ranks inside a region, over time (ranks.h).  Per rank,
 * the runs of the region's calls whose starts and ends both ascend, or
 * (more than INSIDE_RUNS of them: calls that nest) the union of the time
 * they cover, from the region's rows of the profile; the count of ranks
 * inside a time range is then a binary search a run or a rank.  Nothing
 * here prints or knows about the terminal.
 */
#include "scopeview/ranks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"
#include "scopeview/packed.h"

/* How often (in calls) the build asks its poll function. */
#define INSIDE_POLL_EVERY 65536
/* Calls read at a time. */
#define INSIDE_BLOCK 256
/* Runs a rank may have; past it, its intervals are made. */
#define INSIDE_RUNS 64

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
	free(ri->run_off);
	free(ri->run);
	sv_free_big(ri->t0); /* 8 bytes a call of the region each, at most */
	sv_free_big(ri->t1);
	memset(ri, 0, sizeof *ri);
}

/* What one build keeps between ranks. */
struct inside_ctx {
	const struct sv_profile *p;
	struct sv_ranks_inside *ri;
	bool (*poll)(void *ctx, uint64_t done);
	void *pctx;
	uint64_t done;
	uint32_t *depth_count;
	size_t runcap, ivcap;
	struct inside_iv *buf;
	size_t bufcap;
};

/* The end of the time a call starting at s, of duration d, covers. */
static int64_t inside_end(int64_t s, int64_t d)
{
	return sv_covered_end(s, sv_add_wrap(s, d));
}

/* Count calls done; false when the poll says stop. */
static bool inside_go(struct inside_ctx *x, uint64_t n)
{
	uint64_t before = x->done;
	x->done += n;
	if (!x->poll ||
		before / INSIDE_POLL_EVERY == x->done / INSIDE_POLL_EVERY)
		return true;
	return !x->poll(x->pctx, x->done);
}

/* Count the depths of row r's calls. */
static void inside_depths(struct inside_ctx *x, const struct sv_row *row)
{
	const struct sv_profile *p = x->p;
	int64_t d[INSIDE_BLOCK];
	uint32_t c = (uint32_t)row->first, end = c + (uint32_t)row->count;
	size_t j, m;

	for (; c < end; c += (uint32_t)m) {
		m = end - c < INSIDE_BLOCK ? end - c : INSIDE_BLOCK;
		if (p->depth) {
			for (j = 0; j < m; j++)
				x->depth_count[sv_profile_depth(p, c + j)]++;
			continue;
		}
		sv_packed_get_range(&p->depth_pk, c, m, d);
		for (j = 0; j < m; j++)
			x->depth_count[d[j]]++;
	}
}

/* Calls [a, b) as the next run of ri, unless the rank (whose runs
 * start at first) has INSIDE_RUNS already: false then. */
static bool inside_push(
	struct inside_ctx *x, size_t first, uint32_t a, uint32_t b)
{
	struct sv_ranks_inside *ri = x->ri;

	if (ri->nruns - first >= INSIDE_RUNS)
		return false;
	sv_grow((void **)&ri->run, &x->runcap, ri->nruns + 1, sizeof *ri->run);
	ri->run[ri->nruns].a = a;
	ri->run[ri->nruns++].b = b;
	return true;
}

/* Row r's calls as runs whose starts and covered ends both ascend,
 * appended to ri's runs: false when the rank
 * would have more than INSIDE_RUNS runs (the runs past first then
 * dropped by the caller), or when told to stop (*stop). */
static bool inside_row_runs(struct inside_ctx *x, const struct sv_row *row,
	size_t first, bool *stop)
{
	const struct sv_profile *p = x->p;
	int64_t s[INSIDE_BLOCK], d[INSIDE_BLOCK], last_s = INT64_MIN,
						  last_e = INT64_MIN;
	uint32_t c = (uint32_t)row->first, end = c + (uint32_t)row->count,
		 a = c;
	size_t j, m;

	while (c < end) {
		m = end - c < INSIDE_BLOCK ? end - c : INSIDE_BLOCK;
		sv_profile_starts(p, c, m, s);
		sv_profile_durations(p, c, m, d);
		for (j = 0; j < m; j++) {
			int64_t e = inside_end(s[j], d[j]);
			if (s[j] < last_s || e < last_e) {
				if (!inside_push(x, first, a, c + (uint32_t)j))
					return false;
				a = c + (uint32_t)j;
			}
			last_s = s[j];
			last_e = e;
		}
		c += (uint32_t)m;
		if (!inside_go(x, m)) {
			*stop = true;
			return false;
		}
	}
	return end == a || inside_push(x, first, a, end);
}

/* The union of the time of rows[0 .. n)'s calls as disjoint intervals,
 * appended to ri's (a rank whose calls nest or overlap); false when told
 * to stop. */
static bool inside_intervals(struct inside_ctx *x, const size_t *rows, size_t n)
{
	const struct sv_profile *p = x->p;
	struct sv_ranks_inside *ri = x->ri;
	size_t i, k, m, nb = 0, niv = ri->off[ri->nranks];
	bool sorted = true;

	for (i = 0; i < n; i++) {
		const struct sv_row *r = &p->rows[rows[i]];
		uint64_t c;
		sv_grow((void **)&x->buf, &x->bufcap, nb + r->count,
			sizeof *x->buf);
		for (c = r->first; c < r->first + r->count; c++) {
			int64_t s = sv_profile_start(p, (uint32_t)c);
			x->buf[nb].t0 = s;
			x->buf[nb].t1 =
				inside_end(s, sv_call_duration(p, (uint32_t)c));
			if (nb && x->buf[nb].t0 < x->buf[nb - 1].t0)
				sorted = false;
			nb++;
			if (!((c - r->first + 1) % INSIDE_BLOCK) &&
				!inside_go(x, INSIDE_BLOCK))
				return false;
		}
		if (!inside_go(x, r->count % INSIDE_BLOCK))
			return false;
	}
	if (!sorted)
		qsort(x->buf, nb, sizeof *x->buf, inside_cmp_iv);
	for (k = 0, m = 0; k < nb; k++) {
		if (m && x->buf[k].t0 <= x->buf[m - 1].t1) {
			if (x->buf[k].t1 > x->buf[m - 1].t1)
				x->buf[m - 1].t1 = x->buf[k].t1;
			continue;
		}
		x->buf[m++] = x->buf[k];
	}
	sv_grow((void **)&ri->t0, &x->ivcap, niv + m, sizeof *ri->t0);
	ri->t1 = sv_xrealloc(ri->t1, x->ivcap * sizeof *ri->t1);
	for (k = 0; k < m; k++) {
		ri->t0[niv + k] = x->buf[k].t0;
		ri->t1[niv + k] = x->buf[k].t1;
	}
	ri->off[ri->nranks + 1] = niv + m;
	return true;
}

int sv_ranks_inside_build(struct sv_ranks_inside *ri,
	const struct sv_profile *p, uint32_t region, const bool *rank_on,
	uint32_t nrank_on, bool (*poll)(void *ctx, uint64_t done), void *ctx)
{
	struct inside_ctx x;
	size_t nrows = 0, i = 0, nranks_cap = 0, k;
	size_t *rows;
	uint32_t *lane_count;
	uint32_t d;
	bool stop = false;

	if (!ri || !p || !p->has_calls || region >= p->nregions)
		return -EINVAL;
	memset(ri, 0, sizeof *ri);
	memset(&x, 0, sizeof x);
	x.p = p;
	x.ri = ri;
	x.poll = poll;
	x.pctx = ctx;
	ri->p = p;
	ri->region = region;
	rows = inside_rows(p, region, rank_on, nrank_on, &nrows);
	lane_count = sv_xcalloc(p->nlanes ? p->nlanes : 1, sizeof *lane_count);
	x.depth_count =
		sv_xcalloc((size_t)SV_MAX_DEPTH + 1, sizeof *x.depth_count);
	ri->off = sv_xcalloc(1, sizeof *ri->off);
	ri->run_off = sv_xcalloc(1, sizeof *ri->run_off);
	while (i < nrows && !stop) {
		uint32_t rank = p->rows[rows[i]].rank;
		size_t i0 = i, first = ri->nruns, best_lane = SIZE_MAX;
		bool runs = true;

		sv_grow((void **)&ri->ranks, &nranks_cap, ri->nranks + 1,
			sizeof *ri->ranks);
		ri->lane = sv_xrealloc(ri->lane, nranks_cap * sizeof *ri->lane);
		ri->off = sv_xrealloc(
			ri->off, (nranks_cap + 1) * sizeof *ri->off);
		ri->run_off = sv_xrealloc(
			ri->run_off, (nranks_cap + 1) * sizeof *ri->run_off);
		ri->off[ri->nranks + 1] = ri->off[ri->nranks];
		/* The rank's rows: their calls' lanes, and their runs. */
		for (; i < nrows && p->rows[rows[i]].rank == rank; i++) {
			const struct sv_row *r = &p->rows[rows[i]];
			uint32_t row_lane = sv_row_lane(p, rows[i]);
			uint64_t c;
			if (row_lane != UINT32_MAX)
				lane_count[row_lane] += (uint32_t)r->count;
			else
				for (c = r->first; c < r->first + r->count; c++)
					lane_count[sv_call_lane(
						p, (uint32_t)c)]++;
			ri->ncalls += r->count;
			inside_depths(&x, r);
			if (runs && !inside_row_runs(&x, r, first, &stop))
				runs = false;
			if (stop)
				break;
		}
		if (!runs && !stop) {
			/* Calls that nest or overlap: the union of their
			 * time instead. */
			ri->nruns = first;
			stop = !inside_intervals(&x, rows + i0, i - i0);
		}
		/* The lane of most calls (ties: the first), counts cleared. */
		for (k = 0; k < p->nlanes; k++) {
			if (p->lanes[k].rank != rank)
				continue;
			if (lane_count[k] &&
				(best_lane == SIZE_MAX ||
					lane_count[k] > lane_count[best_lane]))
				best_lane = k;
			lane_count[k] = 0;
		}
		ri->ranks[ri->nranks] = rank;
		ri->lane[ri->nranks] = (uint32_t)best_lane;
		ri->nranks++;
		ri->run_off[ri->nranks] = ri->nruns;
	}
	for (d = 1; d <= SV_MAX_DEPTH; d++)
		if (x.depth_count[d] > x.depth_count[ri->depth])
			ri->depth = (uint16_t)d;
	free(x.buf);
	free(rows);
	free(lane_count);
	free(x.depth_count);
	if (stop) {
		sv_ranks_inside_fini(ri);
		return -ECANCELED;
	}
	return 0;
}

long sv_ranks_inside_find(const struct sv_ranks_inside *ri, uint32_t rank)
{
	return ri ? sv_ranks_find(ri->ranks, ri->nranks, rank) : -1;
}

/* Whether rank k of ri has region time meeting [t0, t1). */
static bool inside_rank(
	const struct sv_ranks_inside *ri, uint32_t k, int64_t t0, int64_t t1)
{
	uint64_t lo = ri->off[k], hi = ri->off[k + 1], end = hi, j;

	/* Its intervals: the first ending after t0 (ends ascend, as the
	 * intervals are disjoint and sorted). */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (ri->t1[mid] > t0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo < end && ri->t0[lo] < t1)
		return true;
	/* Its runs: of the calls starting before t1, the last ends
	 * latest. */
	for (j = ri->run_off[k]; j < ri->run_off[k + 1]; j++) {
		uint64_t c = sv_profile_range_lower(
			ri->p, ri->run[j].a, ri->run[j].b, t1);
		if (c > ri->run[j].a &&
			inside_end(sv_profile_start(ri->p, (uint32_t)c - 1),
				sv_call_duration(ri->p, (uint32_t)c - 1)) > t0)
			return true;
	}
	return false;
}

uint32_t sv_ranks_inside_count(
	const struct sv_ranks_inside *ri, int64_t t0, int64_t t1)
{
	uint32_t k, n = 0;

	if (!ri || t1 <= t0)
		return 0;
	for (k = 0; k < ri->nranks; k++)
		n += inside_rank(ri, k, t0, t1);
	return n;
}
