/*
 * stats.c: per-row, per-region and run statistics with scope-profiler's
 * semantics (doc/format.md section 10; see stats.h): the table of
 * regions (filters, computing).  One row's figures are stats_row.c's, one
 * region's across ranks stats_region.c's, rank lists stats_ranks.c's, the
 * figure keys and the table's sort stats_sort.c's.
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
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/regex.h"

/* ---- the table ------------------------------------------------------------ */

static bool stats_rank_on(const bool *on, uint32_t n, uint32_t rank)
{
	return !on || (rank < n && on[rank]);
}

bool sv_stats_name_on(const struct sv_stats_filter *f, const char *name)
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

/* What the regions of one table's computation share, between its
 * threads: the selection, each region's rows, the base table's figures of
 * each row and region, and the regions as they are made (by region
 * number; listed: kept in the table). */
struct stats_work {
	const struct sv_profile *p;
	const struct sv_stats_filter *f;
	const struct sv_stats_sel *sel;
	const size_t *row_start, *row_list;
	const struct sv_stats_region **base_reg; /* by region, or NULL */
	const struct sv_stats_rank **base_row;   /* by row */
	struct sv_stats_region *out;
	bool *listed;
	const uint32_t *order; /* the regions, most calls first */
	atomic_size_t next;
	atomic_bool cancelled;
};

/* How a row's figures are made. */
enum stats_how {
	STATS_FULL,  /* from every call of the row */
	STATS_WHOLE, /* the base table's: the row is selected whole */
	STATS_PART,  /* from a run of its calls (*k0 .. *k1) */
};

/* The first call k of row r (calls lo .. hi) whose drawn end is after t
 * (ends_after) or whose start is at or after t (starts_at): the row's
 * calls are in order (sv_stats_rank.ordered). */
static uint64_t stats_row_find(const struct sv_profile *p,
	const struct sv_row *r, int64_t t, bool ends_after)
{
	uint64_t lo = 0, hi = r->count;

	if (!ends_after)
		return sv_profile_range_lower(
			       p, r->first, r->first + r->count, t) -
		       r->first;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		uint32_t c = (uint32_t)(r->first + mid);
		int64_t cs = sv_profile_start(p, c),
			v = sv_covered_end(cs, sv_profile_end(p, c));
		if (v > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static enum stats_how stats_row_how(
	const struct stats_work *w, size_t ri, uint64_t *k0, uint64_t *k1)
{
	const struct sv_stats_sel *sel = w->sel;
	const struct sv_stats_rank *b = w->base_row ? w->base_row[ri] : NULL;
	const struct sv_row *r = &w->p->rows[ri];

	*k0 = 0;
	*k1 = r->count;
	if (!b || !w->p->has_calls || sel->by_thread || sel->call_on)
		return STATS_FULL;
	if (sel->lane_on) {
		uint32_t lane = sv_row_lane(w->p, ri);
		if (lane == UINT32_MAX)
			return STATS_FULL;
		if (!sel->lane_on[lane]) {
			*k1 = 0; /* not a call of it */
			return STATS_PART;
		}
	}
	if (!sel->range)
		return STATS_WHOLE;
	if (!b->ordered)
		return STATS_FULL;
	*k0 = stats_row_find(w->p, r, sel->t0, true);
	*k1 = stats_row_find(w->p, r, sel->t1, false);
	if (*k1 < *k0)
		*k1 = *k0;
	return STATS_PART;
}

/* The sum of the exclusive times of row r's calls. */
static int64_t stats_row_exclusive(const struct sv_profile *p, size_t ri)
{
	const struct sv_row *r = &p->rows[ri];
	int64_t buf[256], sum = 0;
	uint64_t k;
	size_t i, n;

	for (k = 0; k < r->count; k += n) {
		n = r->count - k < 256 ? (size_t)(r->count - k) : 256;
		sv_profile_exclusives(p, (uint32_t)(r->first + k), n, buf);
		for (i = 0; i < n; i++)
			sum = sv_add_wrap(sum, buf[i]);
	}
	return sum;
}

/* Row ri's durations counted by bucket into pool's total, and into
 * pool itself unless only counted. */
static void stats_row_pool(const struct sv_profile *p, size_t ri,
	struct sv_stats_buf *pool, bool only_counted)
{
	int64_t buf[SV_STATS_RUN];
	uint64_t k = 0;
	size_t i, n;

	while ((n = sv_stats_row_values(
			p, ri, &k, p->rows[ri].count, NULL, buf)) > 0) {
		for (i = 0; i < n; i++) {
			if (!only_counted)
				sv_stats_buf_push(pool, buf[i]);
			if (pool->total)
				pool->total[sv_stats_bucket(buf[i])]++;
		}
	}
}

/*
 * A region of more calls than this does not hold its values for its
 * percentiles (8 bytes a call, hundreds of MB at 100M calls, in a block
 * grown by doubling): its rows count them by bucket as they go, each row
 * keeps its own only while its figures are made, and the region's
 * percentiles are selected in a second read of its rows, which holds
 * only the values of the wanted buckets (sv_stats_pick).
 */
#define STATS_REGION_HELD (1u << 18)

/* The region's percentiles into out, from its rows read again and the
 * counts by bucket in pool->total; false (pool then holds every value,
 * for sv_stats_region_pool) when the wanted buckets hold too many. */
static bool stats_region_pick(struct stats_work *w,
	const struct sv_stats_region *reg, struct sv_stats_buf *pool,
	double *out)
{
	struct sv_stats_pick pick;
	int64_t buf[SV_STATS_RUN];
	size_t n = 0, k, i, m;
	bool picked;

	for (k = 0; k < reg->nranks; k++)
		n += reg->ranks[k].s.num_calls;
	picked = n > 0 &&
		 sv_stats_pick_begin(&pick, pool->total, n, sv_stats_ppct, 3);
	pool->n = 0;
	for (k = 0; k < reg->nranks; k++) {
		size_t ri = reg->ranks[k].row;
		uint64_t k0, k1;
		enum stats_how how = stats_row_how(w, ri, &k0, &k1);
		const struct sv_stats_sel *sel =
			how == STATS_WHOLE ? NULL : w->sel;

		while ((m = sv_stats_row_values(w->p, ri, &k0, k1, sel, buf)))
			for (i = 0; i < m; i++) {
				if (picked)
					sv_stats_pick_take(&pick, buf[i]);
				else
					sv_stats_buf_push(pool, buf[i]);
			}
	}
	if (picked)
		sv_stats_pick_end(&pick, out);
	return picked;
}

/* Region g's figures into w->out[g] (listed when the table keeps it). */
static void stats_region(struct stats_work *w, uint32_t g,
	struct sv_stats_buf *pool, double *tmp)
{
	const struct sv_profile *p = w->p;
	struct sv_stats_region *reg = &w->out[g];
	const struct sv_stats_region *bg = w->base_reg ? w->base_reg[g] : NULL;
	size_t a = w->row_start[g], b = w->row_start[g + 1], k, ntot = 0;
	bool whole_all, filtered = w->sel->lane_on || w->sel->range;
	bool held = true;               /* the region's values held in pool */
	bool keep = w->f && w->f->keep; /* handed on, row by row */
	uint64_t k0, k1, bound = 0;
	double pct[3];

	reg->region = g;
	reg->name = p->regions[g];
	reg->nranks = b - a;
	reg->ranks =
		sv_xcalloc(reg->nranks ? reg->nranks : 1, sizeof *reg->ranks);
	pool->n = 0;
	if (p->has_calls) {
		/* The region's values are counted by bucket as its rows add
		 * them, for its percentiles. */
		if (!pool->total)
			pool->total = sv_xmalloc(
				SV_STATS_BUCKETS * sizeof *pool->total);
		memset(pool->total, 0, SV_STATS_BUCKETS * sizeof *pool->total);
	}
	for (k = a; k < b; k++)
		bound += p->rows[w->row_list[k]].count;
	held = !p->has_calls || (bound < STATS_REGION_HELD && !keep);
	pool->transient = !held;
	pool->keep = keep ? w->f->keep : NULL;
	pool->keep_ctx = keep ? w->f->keep_ctx : NULL;
	pool->keep_g = g;
	/* Every row of the region kept whole: the base's percentiles. */
	whole_all = bg && bg->nranks == reg->nranks;
	for (k = 0; whole_all && k < reg->nranks; k++)
		whole_all = stats_row_how(w, w->row_list[a + k], &k0, &k1) ==
			    STATS_WHOLE;
	for (k = 0; k < reg->nranks; k++) {
		struct sv_stats_rank *rk = &reg->ranks[k];
		rk->row = w->row_list[a + k];
		rk->rank = p->rows[rk->row].rank;
		switch (stats_row_how(w, rk->row, &k0, &k1)) {
		case STATS_WHOLE:
			rk->s = w->base_row[rk->row]->s;
			rk->ordered = w->base_row[rk->row]->ordered;
			if (filtered && !sv_profile_has_exclusive(p)) {
				rk->s.has_exclusive = false;
				rk->s.exclusive_ns = 0;
			} else if (filtered &&
				   p->rows[rk->row].exclusive_total >= 0) {
				/* A selection sums the calls' own. */
				rk->s.exclusive_ns =
					stats_row_exclusive(p, rk->row);
			}
			if (!whole_all || keep)
				stats_row_pool(
					p, rk->row, pool, !held && !keep);
			break;
		case STATS_PART:
			sv_stats_row_part(p, rk->row, k0, k1, w->sel, &rk->s,
				pool, &rk->ordered);
			break;
		default:
			sv_stats_row_part(p, rk->row, 0, p->rows[rk->row].count,
				w->sel, &rk->s, pool, &rk->ordered);
		}
		if (keep && pool->n) /* (a row read again kept its own) */
			w->f->keep(w->f->keep_ctx, g, pool->v, pool->n);
		if (!held) /* counted: the row's values are not kept */
			pool->n = 0;
	}
	for (k = 0; k < reg->nranks; k++)
		if (reg->ranks[k].s.total_ns > 0)
			tmp[ntot++] = sv_stats_secs(reg->ranks[k].s.total_ns);
	qsort(reg->ranks, reg->nranks, sizeof *reg->ranks, sv_stats_rank_cmp);
	if (keep) {
		if (w->f->keep_counts && pool->total)
			w->f->keep_counts(w->f->keep_ctx, g, pool->total,
				SV_STATS_BUCKETS);
		sv_stats_region_pool(p, reg, NULL, 0, NULL, tmp, ntot);
	} else if (!held && !whole_all &&
		   stats_region_pick(w, reg, pool, pct)) {
		sv_stats_region_pool(p, reg, NULL, 0, NULL, tmp, ntot);
		if (reg->s.num_calls > 0) {
			reg->s.has_percentiles = true;
			reg->s.p50_ns = pct[0];
			reg->s.p95_ns = pct[1];
			reg->s.p99_ns = pct[2];
		}
	} else {
		sv_stats_region_pool(p, reg, pool->v, whole_all ? 0 : pool->n,
			pool->total, tmp, ntot);
	}
	if (whole_all && bg->s.has_percentiles) {
		reg->s.has_percentiles = true;
		reg->s.p50_ns = bg->s.p50_ns;
		reg->s.p95_ns = bg->s.p95_ns;
		reg->s.p99_ns = bg->s.p99_ns;
	}
	w->listed[g] = !(w->f && w->f->skip_empty && reg->s.num_calls == 0);
	if (!w->listed[g]) {
		free(reg->ranks);
		memset(reg, 0, sizeof *reg);
	}
}

/* Take the next region of w's order until none is left (or cancelled). */
static void stats_work_run(struct stats_work *w)
{
	const struct sv_profile *p = w->p;
	struct sv_stats_buf pool = {0};
	double *tmp = sv_xmalloc((p->nrows ? p->nrows : 1) * sizeof *tmp);
	size_t i;

	while ((i = atomic_fetch_add(&w->next, 1)) < p->nregions) {
		uint32_t g = w->order[i];
		if (w->f && w->f->cancel && atomic_load(w->f->cancel)) {
			atomic_store(&w->cancelled, true);
			break;
		}
		if (!sv_stats_name_on(w->f, p->regions[g]))
			continue;
		stats_region(w, g, &pool, tmp);
	}
	free(tmp);
	sv_free_big(pool.v);
	free(pool.total);
	free(pool.count);
}

static void *stats_work_thread(void *arg)
{
	stats_work_run(arg);
	return NULL;
}

/* The base table's figures of each region and row, when f gives one for
 * p: false when it cannot serve. */
static bool stats_work_base(struct stats_work *w)
{
	const struct sv_stats_table *base = w->f ? w->f->base : NULL;
	size_t i, k;

	if (!base || base->p != w->p || !base->plain || !w->p->has_calls)
		return false;
	w->base_reg = sv_xcalloc(
		w->p->nregions ? w->p->nregions : 1, sizeof *w->base_reg);
	w->base_row =
		sv_xcalloc(w->p->nrows ? w->p->nrows : 1, sizeof *w->base_row);
	for (i = 0; i < base->nregions; i++) {
		const struct sv_stats_region *g = &base->regions[i];
		if (g->region >= w->p->nregions)
			continue;
		w->base_reg[g->region] = g;
		for (k = 0; k < g->nranks; k++)
			if (g->ranks[k].row < w->p->nrows)
				w->base_row[g->ranks[k].row] = &g->ranks[k];
	}
	return true;
}

/* Regions by their calls (of the ranks kept), most first: the threads
 * take the largest first, so that they end together. */
static int stats_order_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return (*x < *y) - (*x > *y);
}

static uint32_t *stats_work_order(const struct stats_work *w)
{
	const struct sv_profile *p = w->p;
	uint64_t *key =
		sv_xmalloc((p->nregions ? p->nregions : 1) * sizeof *key);
	uint32_t *order =
		sv_xmalloc((p->nregions ? p->nregions : 1) * sizeof *order);
	uint32_t g;
	size_t k;

	for (g = 0; g < p->nregions; g++) {
		uint64_t calls = 0;
		for (k = w->row_start[g]; k < w->row_start[g + 1]; k++)
			calls += p->rows[w->row_list[k]].count;
		/* the calls above, the region number below: stable */
		key[g] = (calls << 24) | (p->nregions - 1 - g);
		if (calls >> 40)
			key[g] = ((uint64_t)1 << 63) | (p->nregions - 1 - g);
	}
	if (p->nregions < (1u << 24))
		qsort(key, p->nregions, sizeof *key, stats_order_cmp);
	for (g = 0; g < p->nregions; g++)
		order[g] = p->nregions < (1u << 24)
				   ? p->nregions - 1 -
					     (uint32_t)(key[g] & 0xffffff)
				   : g;
	free(key);
	return order;
}

int sv_stats_table_compute(struct sv_stats_table *t, const struct sv_profile *p,
	const struct sv_stats_filter *f, struct sv_error *err)
{
	struct sv_stats_sel sel = {0};
	struct stats_work w;
	size_t *row_start, *row_list, i, nsel = 0;
	uint32_t g;
	pthread_t th[8];
	int nth = 0, k;
	bool cancelled;

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
	t->plain = !f || (!f->rank_on && !f->lane_on && !f->by_thread &&
				 !f->call_on && !f->has_range);
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

	memset(&w, 0, sizeof w);
	w.p = p;
	w.f = f;
	w.sel = &sel;
	w.row_start = row_start;
	w.row_list = row_list;
	stats_work_base(&w);
	w.out = sv_xcalloc(p->nregions ? p->nregions : 1, sizeof *w.out);
	w.listed = sv_xcalloc(p->nregions ? p->nregions : 1, sizeof *w.listed);
	w.order = stats_work_order(&w);
	atomic_init(&w.next, 0);
	atomic_init(&w.cancelled, false);
	for (k = 1; f && k < f->threads && nth < 8; k++)
		if (pthread_create(&th[nth], NULL, stats_work_thread, &w) == 0)
			nth++;
	stats_work_run(&w);
	for (k = 0; k < nth; k++)
		pthread_join(th[k], NULL);
	cancelled = atomic_load(&w.cancelled);

	/* The regions kept, in base order. */
	t->regions =
		sv_xcalloc(p->nregions ? p->nregions : 1, sizeof *t->regions);
	for (g = 0; g < p->nregions; g++) {
		struct sv_stats_region *reg;
		if (!w.listed[g])
			continue;
		reg = &t->regions[nsel++];
		*reg = w.out[g];
		sv_stats_table_span(t, &reg->s);
	}
	t->nregions = nsel;
	free(w.out);
	free(w.listed);
	free((void *)w.order);
	free(w.base_reg);
	free(w.base_row);
	free(row_start);
	free(row_list);

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

/* A copy of n bytes of v, or NULL for NULL. */
static void *stats_dup(const void *v, size_t n)
{
	void *c;
	if (!v)
		return NULL;
	c = sv_xmalloc(n ? n : 1);
	memcpy(c, v, n);
	return c;
}

void sv_stats_table_copy(
	struct sv_stats_table *dst, const struct sv_stats_table *src)
{
	size_t i;

	*dst = *src;
	dst->regions =
		stats_dup(src->regions, src->nregions * sizeof *src->regions);
	for (i = 0; i < src->nregions; i++)
		dst->regions[i].ranks = stats_dup(src->regions[i].ranks,
			src->regions[i].nranks * sizeof *src->regions[i].ranks);
	dst->priv_rank_on = stats_dup(src->priv_rank_on, src->priv_nrank_on);
	dst->priv_lane_on = stats_dup(src->priv_lane_on,
		src->p && src->p->has_calls ? src->p->nlanes : 0);
	dst->priv_edges = stats_dup(
		src->priv_edges, src->priv_nedges * sizeof *src->priv_edges);
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
