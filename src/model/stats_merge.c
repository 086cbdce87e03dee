/*
 * stats_merge.c: a table of statistics from rows' figures computed
 * elsewhere (sv_stats_table_merge, stats.h): scopeview-mpi's processes
 * each compute the rows of their ranks, and the first process puts them
 * together over a profile of every row.  Each region is then finished by
 * the same code as sv_stats_table_compute's (sv_stats_region_pool, in the
 * same order of ranks and rows), so every figure but the pooled
 * percentiles, which the caller selects, is the one a single process
 * computes.  Nothing here knows about MPI.
 */
#include "stats_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A row of the profile or a part, for the join by (rank, region, nth). */
struct merge_key {
	uint32_t rank, region, nth;
	size_t at; /* row index, or part index */
};

static int merge_key_cmp(const void *a, const void *b)
{
	const struct merge_key *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->region != y->region)
		return x->region < y->region ? -1 : 1;
	if (x->nth != y->nth)
		return x->nth < y->nth ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

/* The rows of p as keys (at: the row), sorted by rank, region and row,
 * each with its place among the rows of its rank and region (nth). */
static struct merge_key *merge_row_keys(const struct sv_profile *p)
{
	struct merge_key *k = sv_xmalloc((p->nrows ? p->nrows : 1) * sizeof *k);
	size_t i;

	for (i = 0; i < p->nrows; i++) {
		k[i].rank = p->rows[i].rank;
		k[i].region = p->rows[i].region;
		k[i].nth = 0;
		k[i].at = i;
	}
	qsort(k, p->nrows, sizeof *k, merge_key_cmp);
	for (i = 1; i < p->nrows; i++)
		if (k[i].rank == k[i - 1].rank &&
			k[i].region == k[i - 1].region)
			k[i].nth = k[i - 1].nth + 1;
	return k;
}

/* part_of[row]: the part of each row of p, or SIZE_MAX. */
static size_t *merge_join(const struct sv_profile *p,
	const struct sv_stats_part *parts, size_t nparts)
{
	struct merge_key *rk = merge_row_keys(p);
	struct merge_key *pk = sv_xmalloc((nparts ? nparts : 1) * sizeof *pk);
	size_t *part_of =
		sv_xmalloc((p->nrows ? p->nrows : 1) * sizeof *part_of);
	size_t i, j;

	for (i = 0; i < p->nrows; i++)
		part_of[i] = SIZE_MAX;
	for (i = 0; i < nparts; i++) {
		pk[i].rank = parts[i].rank;
		pk[i].region = parts[i].region;
		pk[i].nth = parts[i].nth;
		pk[i].at = i;
	}
	qsort(pk, nparts, sizeof *pk, merge_key_cmp);
	for (i = j = 0; i < p->nrows && j < nparts;) {
		struct merge_key a = rk[i], b = pk[j];
		int c;
		a.at = b.at = 0;
		c = merge_key_cmp(&a, &b);
		if (c == 0)
			part_of[rk[i++].at] = pk[j++].at;
		else if (c < 0)
			i++;
		else
			j++;
	}
	free(rk);
	free(pk);
	return part_of;
}

/* ---- the parts of a table ------------------------------------------------ */

/* nth[row]: the row's place among the rows of its rank and region. */
static uint32_t *stats_nth(const struct sv_profile *p)
{
	struct merge_key *k = merge_row_keys(p);
	uint32_t *nth = sv_xcalloc(p->nrows ? p->nrows : 1, sizeof *nth);
	size_t i;

	for (i = 0; i < p->nrows; i++)
		nth[k[i].at] = k[i].nth;
	free(k);
	return nth;
}

struct sv_stats_part *sv_stats_parts(
	const struct sv_profile *p, const struct sv_stats_table *lt, size_t *n)
{
	struct sv_stats_part *parts;
	uint32_t *nth = stats_nth(p);
	size_t i, k, m = 0;

	for (i = 0; i < lt->nregions; i++)
		m += lt->regions[i].nranks;
	parts = sv_xcalloc(m ? m : 1, sizeof *parts);
	m = 0;
	for (i = 0; i < lt->nregions; i++)
		for (k = 0; k < lt->regions[i].nranks; k++) {
			const struct sv_stats_rank *rk =
				&lt->regions[i].ranks[k];
			parts[m].rank = rk->rank;
			parts[m].region = lt->regions[i].region;
			parts[m].nth = nth[rk->row];
			parts[m++].s = rk->s;
		}
	free(nth);
	*n = m;
	return parts;
}

/* ---- the table of the parts ---------------------------------------------- */

int sv_stats_table_merge(struct sv_stats_table *t, const struct sv_profile *p,
	const struct sv_stats_filter *f, bool per_call,
	const struct sv_stats_part *parts, size_t nparts, struct sv_error *err)
{
	size_t *part_of, *row_start, *row_list, i, nsel = 0;
	double *tmp;
	uint32_t g;

	if (!t)
		return sv_error_set(err, -EINVAL, "statistics: no table");
	memset(t, 0, sizeof *t);
	if (!p)
		return sv_error_set(err, -EINVAL, "statistics: no profile");
	t->p = p;
	t->num_ranks = p->num_ranks;
	t->per_call = per_call;
	t->sorted_by = SV_STATS_KEY_START;
	if (f && f->rank_on) {
		t->priv_nrank_on = f->nrank_on;
		t->priv_rank_on =
			sv_xcalloc(f->nrank_on ? f->nrank_on : 1, sizeof(bool));
		if (f->nrank_on)
			memcpy(t->priv_rank_on, f->rank_on,
				f->nrank_on * sizeof(bool));
	}
	part_of = merge_join(p, parts, nparts);

	/* Rows of each region that have a part, in row order. */
	row_start = sv_xcalloc((size_t)p->nregions + 1, sizeof *row_start);
	row_list = sv_xmalloc((p->nrows ? p->nrows : 1) * sizeof *row_list);
	for (i = 0; i < p->nrows; i++)
		if (p->rows[i].region < p->nregions && part_of[i] != SIZE_MAX)
			row_start[p->rows[i].region + 1]++;
	for (g = 0; g < p->nregions; g++)
		row_start[g + 1] += row_start[g];
	{
		size_t *fill =
			sv_xmalloc(((size_t)p->nregions + 1) * sizeof *fill);
		memcpy(fill, row_start,
			((size_t)p->nregions + 1) * sizeof *fill);
		for (i = 0; i < p->nrows; i++)
			if (p->rows[i].region < p->nregions &&
				part_of[i] != SIZE_MAX)
				row_list[fill[p->rows[i].region]++] = i;
		free(fill);
	}

	t->regions =
		sv_xcalloc(p->nregions ? p->nregions : 1, sizeof *t->regions);
	tmp = sv_xmalloc((p->nrows ? p->nrows : 1) * sizeof *tmp);
	for (g = 0; g < p->nregions; g++) {
		struct sv_stats_region *reg = &t->regions[nsel];
		size_t a = row_start[g], b = row_start[g + 1], k, ntot = 0;

		if (!sv_stats_name_on(f, p->regions[g]))
			continue;
		reg->region = g;
		reg->name = p->regions[g];
		reg->nranks = b - a;
		reg->ranks = sv_xcalloc(
			reg->nranks ? reg->nranks : 1, sizeof *reg->ranks);
		for (k = 0; k < reg->nranks; k++) {
			struct sv_stats_rank *rk = &reg->ranks[k];
			rk->row = row_list[a + k];
			rk->rank = p->rows[rk->row].rank;
			rk->s = parts[part_of[rk->row]].s;
			/* The positive totals in row order, as numpy sums. */
			if (rk->s.total_ns > 0)
				tmp[ntot++] = sv_stats_secs(rk->s.total_ns);
		}
		qsort(reg->ranks, reg->nranks, sizeof *reg->ranks,
			sv_stats_rank_cmp);
		sv_stats_region_pool(p, reg, NULL, 0, NULL, tmp, ntot);
		if (f && f->skip_empty && reg->s.num_calls == 0) {
			free(reg->ranks);
			memset(reg, 0, sizeof *reg);
			continue;
		}
		sv_stats_table_span(t, &reg->s);
		nsel++;
	}
	t->nregions = nsel;
	free(tmp);
	free(row_start);
	free(row_list);
	free(part_of);
	sv_stats_table_end(t, p);
	return 0;
}
