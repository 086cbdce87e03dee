/*
 * ranks.c: the rank x region matrix (see ranks.h).  Every cell sums the
 * per-rank figures of a statistics table; nothing is recomputed from the
 * calls, so the matrix agrees with `summary --per-rank` by construction.
 */
#include "scopeview/ranks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"

static int ranks_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static int ranks_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

long sv_ranks_find(const uint32_t *ranks, size_t n, uint32_t rank)
{
	size_t lo = 0, hi = n;

	if (!ranks)
		return -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ranks[mid] < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && ranks[lo] == rank ? (long)lo : -1;
}

long sv_ranks_row_of(const struct sv_ranks *m, uint32_t rank)
{
	return m ? sv_ranks_find(m->ranks, m->nranks, rank) : -1;
}

bool sv_ranks_value(
	const struct sv_ranks *m, const struct sv_ranks_cell *c, int64_t *ns)
{
	if (!c->has)
		return false;
	if (m->metric == SV_RANKS_EXCLUSIVE) {
		if (!c->has_exclusive)
			return false;
		*ns = c->exclusive_ns;
		return true;
	}
	*ns = c->total_ns;
	return true;
}

void sv_ranks_set_metric(struct sv_ranks *m, enum sv_ranks_metric metric)
{
	size_t j, r;

	m->metric = metric;
	for (j = 0; j < m->nregions; j++) {
		struct sv_ranks_fig *f = &m->fig[j];
		double sum = 0;

		memset(f, 0, sizeof *f);
		f->rank_imbalance_pct = m->t->regions[j].rank_imbalance_pct;
		for (r = 0; r < m->nranks; r++) {
			int64_t v;
			if (!sv_ranks_value(m, sv_ranks_cell_at(m, r, j), &v))
				continue;
			if (!f->nranks || v < f->min_ns)
				f->min_ns = v;
			if (!f->nranks || v > f->max_ns) {
				f->max_ns = v;
				f->slowest_rank = m->ranks[r];
			}
			f->nranks++;
			sum += (double)v;
		}
		f->has = f->nranks > 0;
		if (f->has) {
			f->mean_ns = sum / f->nranks;
			f->excess_ns = (double)f->max_ns - f->mean_ns;
		}
	}
}

void sv_ranks_fini(struct sv_ranks *m)
{
	if (!m)
		return;
	free(m->ranks);
	free(m->cell);
	free(m->fig);
	memset(m, 0, sizeof *m);
}

int sv_ranks_compute(struct sv_ranks *m, const struct sv_stats_table *t,
	enum sv_ranks_metric metric)
{
	size_t j, k, n = 0, cap = 0;
	uint32_t *all = NULL;

	if (!m || !t)
		return -EINVAL;
	memset(m, 0, sizeof *m);
	m->t = t;
	m->nregions = t->nregions;
	for (j = 0; j < t->nregions; j++)
		for (k = 0; k < t->regions[j].nranks; k++) {
			sv_grow((void **)&all, &cap, n + 1, sizeof *all);
			all[n++] = t->regions[j].ranks[k].rank;
		}
	if (n)
		qsort(all, n, sizeof *all, ranks_cmp_u32);
	for (j = k = 0; j < n; j++)
		if (!k || all[k - 1] != all[j])
			all[k++] = all[j];
	m->ranks = all;
	m->nranks = (uint32_t)k;
	n = (size_t)m->nranks * m->nregions;
	m->cell = sv_xcalloc(n ? n : 1, sizeof *m->cell);
	m->fig = sv_xcalloc(m->nregions ? m->nregions : 1, sizeof *m->fig);
	for (j = 0; j < t->nregions; j++)
		for (k = 0; k < t->regions[j].nranks; k++) {
			const struct sv_stats_rank *sr =
				&t->regions[j].ranks[k];
			long r = sv_ranks_row_of(m, sr->rank);
			struct sv_ranks_cell *c =
				&m->cell[(size_t)r * m->nregions + j];
			if (!sr->s.num_calls)
				continue;
			if (!c->has) {
				c->has_exclusive = true;
				c->has = true;
			}
			c->num_calls += sr->s.num_calls;
			c->total_ns = sv_add_sat(c->total_ns, sr->s.total_ns);
			if (sr->s.has_exclusive)
				c->exclusive_ns = sv_add_sat(
					c->exclusive_ns, sr->s.exclusive_ns);
			else
				c->has_exclusive = false;
		}
	sv_ranks_set_metric(m, metric);
	return 0;
}

void sv_ranks_order_by_imbalance(const struct sv_ranks *m, size_t *order)
{
	size_t j, i;

	for (j = 0; j < m->nregions; j++)
		order[j] = j;
	/* Insertion sort, stable: a few dozen regions, and no global state
	 * for qsort's comparator. */
	for (j = 1; j < m->nregions; j++) {
		size_t v = order[j];
		double iv = m->fig[v].rank_imbalance_pct;
		for (i = j;
			i > 0 && m->fig[order[i - 1]].rank_imbalance_pct < iv;
			i--)
			order[i] = order[i - 1];
		order[i] = v;
	}
}

size_t sv_ranks_group(const struct sv_ranks *m, size_t j, size_t r0, size_t r1,
	int64_t *scratch, int64_t *min, int64_t *median, int64_t *max)
{
	size_t r, n = 0;

	if (r1 > m->nranks)
		r1 = m->nranks;
	for (r = r0; r < r1; r++)
		if (sv_ranks_value(m, sv_ranks_cell_at(m, r, j), &scratch[n]))
			n++;
	if (!n)
		return 0;
	qsort(scratch, n, sizeof *scratch, ranks_cmp_i64);
	*min = scratch[0];
	*median = scratch[(n - 1) / 2];
	*max = scratch[n - 1];
	return n;
}
