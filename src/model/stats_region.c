/*
 * stats_region.c: one region's figures across ranks, as scope-profiler's
 * MPIRegion computes them from its ranks' rows: pooled percentiles, the
 * first, last and slowest rank (ties: the first rank in the file's row
 * order), and the imbalance ratio (max over numpy's mean of the rank
 * totals, in float64 seconds as Python compares them); and the durations
 * a region's percentiles are selected from.
 */
#include "stats_priv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/pairwise.h"

/* ---- one region across ranks -------------------------------------------- */

int sv_stats_rank_cmp(const void *a, const void *b)
{
	const struct sv_stats_rank *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

/*
 * MPIRegion figures of g from its ranks (already computed and sorted by
 * rank; their row indexes give the file's order for ties), the pooled
 * durations pool[0..npool) (counted by bucket in buckets, or NULL) and the
 * positive rank totals in seconds in row order, tmp[0..ntot).
 */
void sv_stats_region_pool(const struct sv_profile *p, struct sv_stats_region *g,
	int64_t *pool, size_t npool, const uint32_t *buckets, const double *tmp,
	size_t ntot)
{
	struct sv_stats *s = &g->s;
	const struct sv_stats_rank *first = NULL, *last = NULL, *slowest = NULL;
	double count = 0, mean = 0, m2 = 0, max_total = 0;
	size_t i;
	bool std_ok = true, excl_ok = true, total_ok = true, dist_ok = true;

	memset(s, 0, sizeof *s);
	g->rank_imbalance_pct = 0.0;
	g->has_slowest_rank = false;
	g->source_file = NULL;
	g->source_text = NULL;
	g->source_line = -1;
	g->tags_row = g->nranks ? &p->rows[g->ranks[0].row] : NULL;
	g->order_start_ns = 0;

	for (i = 0; i < g->nranks; i++) {
		const struct sv_stats_rank *rk = &g->ranks[i];
		const struct sv_row *row = &p->rows[rk->row];
		const struct sv_stats *r = &rk->s;

		if (!g->source_file && row->source_file)
			g->source_file = row->source_file;
		if (g->source_line < 0 && row->source_line >= 0)
			g->source_line = row->source_line;
		if (!g->source_text && row->source_text)
			g->source_text = row->source_text;

		s->num_calls += r->num_calls;
		s->total_ns = sv_add_wrap(s->total_ns, r->total_ns);
		total_ok = total_ok && r->has_total;
		if (r->has_exclusive)
			s->exclusive_ns =
				sv_add_wrap(s->exclusive_ns, r->exclusive_ns);
		else
			excl_ok = false;
		if (r->has_gpu) {
			s->has_gpu = true;
			s->gpu_total_ns =
				sv_add_wrap(s->gpu_total_ns, r->gpu_total_ns);
			s->gpu_count += r->gpu_count;
		}
		if (r->has_await) {
			s->has_await = true;
			s->await_total_ns = sv_add_wrap(
				s->await_total_ns, r->await_total_ns);
		}
		if (r->num_calls == 0)
			continue;
		if (!r->has_dist) {
			dist_ok = false;
		} else if (!s->has_dist) {
			s->has_dist = true;
			s->min_ns = r->min_ns;
			s->max_ns = r->max_ns;
		} else {
			if (r->min_ns < s->min_ns)
				s->min_ns = r->min_ns;
			if (r->max_ns > s->max_ns)
				s->max_ns = r->max_ns;
		}
		/* Pooled variance (Chan et al.) from each rank's mean and m2. */
		if (r->has_std && r->has_dist) {
			double nb = (double)r->num_calls;
			double delta = r->mean_ns - mean;
			double nn = count + nb;
			double m2b = r->std_ns * r->std_ns * nb;
			mean += delta * nb / nn;
			m2 += m2b + delta * delta * count * nb / nn;
			count = nn;
		} else {
			std_ok = false;
		}
		/* First / last: by float seconds, ties to the first rank in the
		 * file's row order (Python's min/max keep the first). */
		{
			double fs = r->has_span
					    ? sv_stats_secs(r->first_start_ns)
					    : 0.0;
			double le = r->has_span ? sv_stats_secs(r->last_end_ns)
						: 0.0;
			if (!first) {
				first = last = rk;
			} else {
				double ffs =
					first->s.has_span
						? sv_stats_secs(
							  first->s.first_start_ns)
						: 0.0;
				double lle =
					last->s.has_span
						? sv_stats_secs(
							  last->s.last_end_ns)
						: 0.0;
				if (fs < ffs ||
					(fs == ffs && rk->row < first->row))
					first = rk;
				if (le > lle ||
					(le == lle && rk->row < last->row))
					last = rk;
			}
		}
		if (r->has_span) {
			if (!s->has_span) {
				s->has_span = true;
				s->first_start_ns = r->first_start_ns;
				s->last_end_ns = r->last_end_ns;
			} else {
				if (r->first_start_ns < s->first_start_ns)
					s->first_start_ns = r->first_start_ns;
				if (r->last_end_ns > s->last_end_ns)
					s->last_end_ns = r->last_end_ns;
			}
		}
		if (r->total_ns > 0) {
			double t = sv_stats_secs(r->total_ns);
			if (!slowest || t > max_total ||
				(t == max_total && rk->row < slowest->row)) {
				slowest = rk;
				max_total = t;
			}
		}
	}
	s->has_total = total_ok;
	s->has_exclusive = excl_ok;
	if (!excl_ok)
		s->exclusive_ns = 0;
	if (s->has_gpu && s->gpu_count)
		s->gpu_mean_ns = (double)s->gpu_total_ns / (double)s->gpu_count;
	if (!dist_ok || !total_ok) {
		s->has_dist = false;
		s->min_ns = s->max_ns = 0;
	}
	if (s->num_calls > 0 && s->has_dist) {
		s->mean_ns = (double)s->total_ns / (double)s->num_calls;
		if (std_ok && count > 0) {
			s->has_std = true;
			s->std_ns = sqrt((m2 > 0 ? m2 : 0.0) / count);
		}
		if (first && first->s.has_first_last &&
			last->s.has_first_last) {
			s->has_first_last = true;
			s->first_ns = first->s.first_ns;
			s->last_ns = last->s.last_ns;
		}
	}
	/* Display order key, as scope-profiler's get_regions(): the minimum of
	 * every rank's first_start_time, which is 0.0 for a rank without calls
	 * (or without stored starts), so one empty rank puts the region
	 * first. */
	for (i = 0; i < g->nranks; i++) {
		const struct sv_stats *r = &g->ranks[i].s;
		int64_t k = r->has_span ? r->first_start_ns : 0;
		if (i == 0 || k < g->order_start_ns)
			g->order_start_ns = k;
	}
	if (slowest) {
		g->has_slowest_rank = true;
		g->slowest_rank = slowest->rank;
	}
	if (npool > 0 && npool == s->num_calls) {
		double out[3];
		sv_stats_percentiles_counted(
			pool, npool, buckets, sv_stats_ppct, out, 3);
		s->has_percentiles = true;
		s->p50_ns = out[0];
		s->p95_ns = out[1];
		s->p99_ns = out[2];
	}

	/* Imbalance: max / mean of the positive totals in seconds, which the
	 * caller listed in the file's row order (numpy sums in that order). */
	if (ntot >= 2) {
		double mx = tmp[0], ratio;
		for (i = 1; i < ntot; i++)
			if (tmp[i] > mx)
				mx = tmp[i];
		/* np.mean: pairwise, so the ratio matches scope-profiler's. */
		ratio = mx / (sv_pairwise_sum(tmp, ntot) / (double)ntot);
		g->rank_imbalance_pct =
			ratio != 0 ? (ratio - 1.0) * 100.0 : 0.0;
	}
}

/* ---- percentile queries ----------------------------------------------------- */

int sv_stats_values(const struct sv_stats_table *t, size_t i, long rank_index,
	int64_t **out, size_t *n)
{
	const struct sv_stats_region *g;
	const struct sv_profile *p;
	struct sv_stats_sel sel;
	struct sv_stats_buf buf = {0};
	size_t k, from, to;

	if (!t || !out || !n || i >= t->nregions)
		return -EINVAL;
	g = &t->regions[i];
	p = t->p;
	if (rank_index >= 0 && (size_t)rank_index >= g->nranks)
		return -EINVAL;
	if (!p->has_calls)
		return -ENODATA;
	sel.lane_on = t->priv_lane_on;
	sel.by_thread = t->priv_by_thread;
	sel.thread = t->priv_thread;
	sel.call_on = t->priv_call_on;
	sel.range = t->priv_range;
	sel.t0 = t->priv_t0;
	sel.t1 = t->priv_t1;
	sel.edges = t->priv_edges;
	sel.nedges = t->priv_nedges;
	from = rank_index >= 0 ? (size_t)rank_index : 0;
	to = rank_index >= 0 ? (size_t)rank_index + 1 : g->nranks;
	for (k = from; k < to; k++) {
		size_t ri = g->ranks[k].row, m, j;
		uint64_t at = 0;
		int64_t v[SV_STATS_RUN];
		while ((m = sv_stats_row_values(
				p, ri, &at, p->rows[ri].count, &sel, v)))
			for (j = 0; j < m; j++)
				sv_stats_buf_push(&buf, v[j]);
	}
	*out = buf.v;
	*n = buf.n;
	return 0;
}

int sv_stats_percentile(const struct sv_stats_table *t, size_t i,
	long rank_index, double pct, double *out)
{
	int64_t *v = NULL;
	size_t n = 0;
	int rc;

	if (!t || !out || i >= t->nregions || !(pct >= 0 && pct <= 100))
		return -EINVAL;
	rc = sv_stats_values(t, i, rank_index, &v, &n);
	if (rc < 0)
		return rc;
	if (n == 0) {
		sv_free_big(v);
		return -ENODATA;
	}
	*out = sv_stats_percentile_of(v, n, pct);
	sv_free_big(v);
	return 0;
}
