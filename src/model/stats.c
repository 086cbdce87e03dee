/*
 * stats.c: per-row, per-region and run statistics with scope-profiler's
 * semantics (doc/format.md section 10; see stats.h): the figure keys, the
 * table of regions (filters, computing, sorting) and percentile queries.
 * One row's figures are stats_row.c's, one region's across ranks
 * stats_region.c's, rank lists stats_ranks.c's.
 *
 * Invariants: every figure of a region costs O(n) over its calls plus an
 * expected-O(n) selection for percentiles, using one scratch buffer of
 * durations per table; there is no heap object per call.  Ties follow
 * scope-profiler exactly: the first rank in the file's row order wins,
 * and times are compared as the float64 seconds Python compares.  Nothing
 * here prints.
 */
#include "stats_priv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/regex.h"

static const struct {
	const char *name, *help;
} stats_keys[] = {
#define STATS_KEY_ROW(id, name, help) {name, help},
	SV_STATS_KEY_TABLE(STATS_KEY_ROW)
#undef STATS_KEY_ROW
};

const char *sv_stats_key_name(enum sv_stats_key key)
{
	return (unsigned)key < SV_STATS_KEY_COUNT ? stats_keys[key].name : NULL;
}

const char *sv_stats_key_help(enum sv_stats_key key)
{
	return (unsigned)key < SV_STATS_KEY_COUNT ? stats_keys[key].help : NULL;
}

int sv_stats_key_from_name(const char *name)
{
	int k;
	if (!name)
		return -1;
	for (k = 0; k < SV_STATS_KEY_COUNT; k++)
		if (!strcmp(stats_keys[k].name, name))
			return k;
	return -1;
}

/* ---- the table ------------------------------------------------------------ */

static bool stats_rank_on(const bool *on, uint32_t n, uint32_t rank)
{
	return !on || (rank < n && on[rank]);
}

static bool stats_name_on(const struct sv_stats_filter *f, const char *name)
{
	size_t i;
	bool in;

	if (!f)
		return true;
	in = f->ninclude == 0;
	for (i = 0; !in && i < f->ninclude; i++)
		in = sv_regex_match(f->include[i], name);
	for (i = 0; in && i < f->nexclude; i++)
		if (sv_regex_match(f->exclude[i], name))
			in = false;
	return in;
}

int sv_stats_region_cmp_start(const void *a, const void *b)
{
	const struct sv_stats_region *x = a, *y = b;
	double sx = sv_stats_secs(x->order_start_ns),
	       sy = sv_stats_secs(y->order_start_ns);

	/* As float64 seconds, as Python sorts them: past 2^53 ns (104 days of
	 * uptime) starts a few ns apart can tie, and ties keep base order. */
	if (sx != sy)
		return sx < sy ? -1 : 1;
	return (x->region > y->region) - (x->region < y->region);
}

int sv_stats_table_compute(struct sv_stats_table *t, const struct sv_profile *p,
	const struct sv_stats_filter *f, struct sv_error *err)
{
	struct sv_stats_sel sel = {0};
	struct sv_stats_buf pool = {NULL, 0, 0, NULL, NULL};
	size_t *row_start, *row_list, i, nsel = 0, ntot;
	double *tmp;
	uint32_t g;
	bool cancelled = false;

	if (!t)
		return sv_error_set(err, -EINVAL, "statistics: no table");
	memset(t, 0, sizeof *t);
	if (!p)
		return sv_error_set(err, -EINVAL, "statistics: no profile");
	if (f && f->lane_on && p->has_calls && p->ncalls &&
		!sv_profile_has_lanes(p))
		return sv_error_set(err, -EINVAL,
			"statistics: lane filter on a profile without lanes");
	if (f && f->has_range && f->t1_ns < f->t0_ns)
		return sv_error_set(err, -EINVAL,
			"statistics: the range ends before it starts");
	t->p = p;
	t->num_ranks = p->num_ranks;
	t->per_call = p->has_calls;
	t->sorted_by = SV_STATS_KEY_START;
	if (f) {
		if (f->rank_on) {
			t->priv_nrank_on = f->rank_on ? f->nrank_on : 0;
			t->priv_rank_on = sv_xmalloc(
				(f->nrank_on ? f->nrank_on : 1) * sizeof(bool));
			if (f->nrank_on)
				memcpy(t->priv_rank_on, f->rank_on,
					f->nrank_on * sizeof(bool));
		}
		if (f->lane_on && p->has_calls) {
			t->priv_lane_on = sv_xmalloc(
				(p->nlanes ? p->nlanes : 1) * sizeof(bool));
			if (p->nlanes)
				memcpy(t->priv_lane_on, f->lane_on,
					p->nlanes * sizeof(bool));
			sel.lane_on = t->priv_lane_on;
		}
		if (p->has_calls) {
			t->priv_by_thread = sel.by_thread = f->by_thread;
			t->priv_thread = sel.thread = f->thread;
			t->priv_call_on = sel.call_on = f->call_on;
		}
		if (f->has_range && p->has_calls) {
			t->priv_range = sel.range = true;
			t->priv_t0 = sel.t0 = f->t0_ns;
			t->priv_t1 = sel.t1 = f->t1_ns;
			sv_stats_range_edges(p, sel.lane_on, &sel);
			t->priv_edges = sel.edges;
			t->priv_nedges = sel.nedges;
		}
	}

	/* Rows of each region, in row order (a counting sort). */
	row_start = sv_xcalloc((size_t)p->nregions + 1, sizeof *row_start);
	row_list = sv_xmalloc((p->nrows ? p->nrows : 1) * sizeof *row_list);
	for (i = 0; i < p->nrows; i++)
		if (p->rows[i].region < p->nregions &&
			stats_rank_on(t->priv_rank_on, t->priv_nrank_on,
				p->rows[i].rank))
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
				stats_rank_on(t->priv_rank_on, t->priv_nrank_on,
					p->rows[i].rank))
				row_list[fill[p->rows[i].region]++] = i;
		free(fill);
	}

	t->regions =
		sv_xcalloc(p->nregions ? p->nregions : 1, sizeof *t->regions);
	tmp = sv_xmalloc((p->nrows ? p->nrows : 1) * sizeof *tmp);
	for (g = 0; g < p->nregions; g++) {
		struct sv_stats_region *reg = &t->regions[nsel];
		size_t a = row_start[g], b = row_start[g + 1], k;

		if (!stats_name_on(f, p->regions[g]))
			continue;
		reg->region = g;
		reg->name = p->regions[g];
		reg->nranks = b - a;
		reg->ranks = sv_xcalloc(
			reg->nranks ? reg->nranks : 1, sizeof *reg->ranks);
		pool.n = 0;
		if (p->has_calls) {
			/* The region's values are counted by bucket as its
			 * rows add them, for its percentiles. */
			if (!pool.total)
				pool.total = sv_xmalloc(
					SV_STATS_BUCKETS * sizeof *pool.total);
			memset(pool.total, 0,
				SV_STATS_BUCKETS * sizeof *pool.total);
		}
		if (f && f->cancel && atomic_load(f->cancel)) {
			cancelled = true;
			free(reg->ranks);
			memset(reg, 0, sizeof *reg);
			break;
		}
		for (k = 0; k < reg->nranks; k++) {
			struct sv_stats_rank *rk = &reg->ranks[k];
			rk->row = row_list[a + k];
			rk->rank = p->rows[rk->row].rank;
			sv_stats_row_compute(p, rk->row, &sel, &rk->s, &pool);
		}
		ntot = 0;
		for (k = 0; k < reg->nranks; k++)
			if (reg->ranks[k].s.total_ns > 0)
				tmp[ntot++] =
					sv_stats_secs(reg->ranks[k].s.total_ns);
		qsort(reg->ranks, reg->nranks, sizeof *reg->ranks,
			sv_stats_rank_cmp);
		sv_stats_region_pool(
			p, reg, pool.v, pool.n, pool.total, tmp, ntot);
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
	sv_free_big(pool.v);
	free(pool.total);
	free(pool.count);

	if (cancelled) {
		sv_stats_table_fini(t);
		return sv_error_set(err, -ECANCELED, "statistics: cancelled");
	}
	sv_stats_table_end(t, p);
	return 0;
}

void sv_stats_table_span(struct sv_stats_table *t, const struct sv_stats *s)
{
	if (!s->has_span)
		return;
	if (!t->has_min_start || s->first_start_ns < t->min_start_ns)
		t->min_start_ns = s->first_start_ns;
	if (!t->has_max_end || s->last_end_ns > t->max_end_ns)
		t->max_end_ns = s->last_end_ns;
	t->has_min_start = t->has_max_end = true;
}

void sv_stats_table_end(struct sv_stats_table *t, const struct sv_profile *p)
{
	/* Display order: stable by first start (regions are in base order, and
	 * the base index breaks ties). */
	qsort(t->regions, t->nregions, sizeof *t->regions,
		sv_stats_region_cmp_start);
	t->time_origin_ns = sv_profile_time_origin(p);
	if (p->has_start_time && p->has_finalize_time) {
		/* out of int64's range: no total rather than a wrapped one */
		t->has_total_time = !__builtin_sub_overflow(p->finalize_time_ns,
			p->start_time_ns, &t->total_time_ns);
	}
}

void sv_stats_table_fini(struct sv_stats_table *t)
{
	size_t i;
	if (!t)
		return;
	for (i = 0; i < t->nregions; i++)
		free(t->regions[i].ranks);
	free(t->regions);
	free(t->priv_rank_on);
	free(t->priv_lane_on);
	free(t->priv_edges);
	memset(t, 0, sizeof *t);
}

const struct sv_stats_region *sv_stats_table_find(
	const struct sv_stats_table *t, uint32_t region)
{
	size_t i;
	if (!t)
		return NULL;
	for (i = 0; i < t->nregions; i++)
		if (t->regions[i].region == region)
			return &t->regions[i];
	return NULL;
}

/* ---- sorting -------------------------------------------------------------- */

bool sv_stats_value(
	const struct sv_stats *s, enum sv_stats_key key, double *out)
{
	double v;
	bool has;

	if (!s)
		return false;
	switch (key) {
	case SV_STATS_KEY_START:
		has = s->has_span;
		v = (double)s->first_start_ns;
		break;
	case SV_STATS_KEY_TOTAL:
		has = s->has_total && s->num_calls > 0;
		v = (double)s->total_ns;
		break;
	case SV_STATS_KEY_CALLS:
		has = true;
		v = (double)s->num_calls;
		break;
	case SV_STATS_KEY_AVG:
		has = s->has_dist;
		v = s->mean_ns;
		break;
	case SV_STATS_KEY_MIN:
		has = s->has_dist;
		v = (double)s->min_ns;
		break;
	case SV_STATS_KEY_MAX:
		has = s->has_dist;
		v = (double)s->max_ns;
		break;
	case SV_STATS_KEY_FIRST:
		has = s->has_first_last;
		v = (double)s->first_ns;
		break;
	case SV_STATS_KEY_LAST:
		has = s->has_first_last;
		v = (double)s->last_ns;
		break;
	case SV_STATS_KEY_STD:
		has = s->has_std;
		v = s->std_ns;
		break;
	case SV_STATS_KEY_P50:
		has = s->has_percentiles;
		v = s->p50_ns;
		break;
	case SV_STATS_KEY_P95:
		has = s->has_percentiles;
		v = s->p95_ns;
		break;
	case SV_STATS_KEY_P99:
		has = s->has_percentiles;
		v = s->p99_ns;
		break;
	case SV_STATS_KEY_EXCLUSIVE:
		has = s->has_exclusive && s->num_calls > 0;
		v = (double)s->exclusive_ns;
		break;
	default:
		return false;
	}
	if (has && out)
		*out = v;
	return has;
}

struct stats_sort_item {
	double v;
	bool has;
	int64_t start;
	const char *name;
	uint32_t base;
	size_t pos;
};

static int stats_sort_name(
	const struct stats_sort_item *x, const struct stats_sort_item *y)
{
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return (x->base > y->base) - (x->base < y->base);
}

static int stats_sort_cmp_start(const void *a, const void *b)
{
	const struct stats_sort_item *x = a, *y = b;
	double sx = sv_stats_secs(x->start), sy = sv_stats_secs(y->start);

	if (sx != sy)
		return sx < sy ? -1 : 1;
	return (x->base > y->base) - (x->base < y->base);
}

static int stats_sort_cmp_name(const void *a, const void *b)
{
	return stats_sort_name(a, b);
}

static int stats_sort_cmp_desc(const void *a, const void *b)
{
	const struct stats_sort_item *x = a, *y = b;
	if (x->has != y->has)
		return x->has ? -1 : 1;
	if (x->has && x->v != y->v)
		return x->v > y->v ? -1 : 1;
	return stats_sort_name(x, y);
}

void sv_stats_table_sort(struct sv_stats_table *t, enum sv_stats_key key)
{
	struct stats_sort_item *it;
	struct sv_stats_region *out;
	size_t i;

	if (!t || (unsigned)key >= SV_STATS_KEY_COUNT || t->nregions == 0) {
		if (t && (unsigned)key < SV_STATS_KEY_COUNT)
			t->sorted_by = key;
		return;
	}
	it = sv_xmalloc(t->nregions * sizeof *it);
	for (i = 0; i < t->nregions; i++) {
		const struct sv_stats_region *g = &t->regions[i];
		it[i].pos = i;
		it[i].name = g->name;
		it[i].base = g->region;
		it[i].start = g->order_start_ns;
		it[i].v = 0;
		if (key == SV_STATS_KEY_IMBALANCE) {
			it[i].has = true;
			it[i].v = g->rank_imbalance_pct;
		} else {
			it[i].has = sv_stats_value(&g->s, key, &it[i].v);
		}
	}
	qsort(it, t->nregions, sizeof *it,
		key == SV_STATS_KEY_START  ? stats_sort_cmp_start
		: key == SV_STATS_KEY_NAME ? stats_sort_cmp_name
					   : stats_sort_cmp_desc);
	out = sv_xmalloc(t->nregions * sizeof *out);
	for (i = 0; i < t->nregions; i++)
		out[i] = t->regions[it[i].pos];
	free(t->regions);
	t->regions = out;
	t->sorted_by = key;
	free(it);
}

/* ---- percentile queries ----------------------------------------------------- */

int sv_stats_values(const struct sv_stats_table *t, size_t i, long rank_index,
	int64_t **out, size_t *n)
{
	const struct sv_stats_region *g;
	const struct sv_profile *p;
	struct sv_stats_sel sel;
	struct sv_stats_buf buf = {NULL, 0, 0, NULL, NULL};
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
		const struct sv_row *r = &p->rows[g->ranks[k].row];
		uint32_t lane = sv_row_lane(p, g->ranks[k].row);
		uint64_t j;
		for (j = 0; j < r->count; j++) {
			uint32_t c = (uint32_t)(r->first + j);
			if (sv_stats_call_on(p, &sel, c, lane))
				sv_stats_buf_push(&buf,
					sel.range
						? sv_stats_range_clip(&sel,
							  sv_profile_start(
								  p, c),
							  sv_profile_end(p, c))
						: sv_sub_wrap(
							  sv_profile_end(p, c),
							  sv_profile_start(
								  p, c)));
		}
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
