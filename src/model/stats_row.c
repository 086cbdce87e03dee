/*
 * stats_row.c: the figures of one row (one region on one rank): count,
 * total, min, max, mean, std, first, last, exclusive and percentiles,
 * from the calls (restricted to lanes or a thread when asked) or, without
 * per-call data, from what the file stored.
 *
 * O(n) over the row's calls plus the selection of its percentiles
 * (stats_select.c); the durations go to one scratch buffer shared with
 * the region's figures.
 */
#include "stats_priv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- one row ------------------------------------------------------------ */

static bool stats_sel_any(const struct sv_stats_sel *sel)
{
	return sel &&
	       (sel->lane_on || sel->by_thread || sel->call_on || sel->range);
}

/* Whether call c of p, of start s and end e (read already), is selected
 * by sel.  lane is c's lane when the caller knows it (sv_row_lane of its
 * row), else UINT32_MAX. */
static bool stats_call_on(const struct sv_profile *p,
	const struct sv_stats_sel *sel, uint32_t c, uint32_t lane, int64_t s,
	int64_t e)
{
	if (sel->lane_on && sv_profile_has_lanes(p) &&
		!sel->lane_on[lane != UINT32_MAX ? lane : sv_call_lane(p, c)])
		return false;
	if (sel->by_thread &&
		(sv_profile_has_id(p, SV_ID_THREAD)
				? sv_profile_id(p, SV_ID_THREAD, c)
				: -1) != sel->thread)
		return false;
	if (sel->call_on && !sel->call_on[c])
		return false;
	return !sel->range || sv_stats_range_meets(sel, s, e);
}

const double sv_stats_ppct[3] = {50.0, 95.0, 99.0};

/* Figures of a row without per-call data (aggregate or summary-only). */
static void stats_row_stored(
	const struct sv_profile *p, const struct sv_row *r, struct sv_stats *s)
{
	bool aggregate = p->layout == SV_LAYOUT_AGGREGATE;
	const struct sv_summary *m = &r->summary;

	s->num_calls = r->count;
	s->has_total = r->count == 0;
	if (r->exclusive_total >= 0) {
		s->has_exclusive = true;
		s->exclusive_ns = r->exclusive_total;
	}
	if (!r->has_summary)
		return;
	s->has_total = true;
	s->total_ns = m->total;
	if (r->count == 0) {
		s->has_exclusive = true;
		return;
	}
	s->has_dist = true;
	s->mean_ns = (double)m->total / (double)r->count;
	s->min_ns = m->minimum;
	s->max_ns = m->maximum;
	if (!aggregate) {
		s->has_first_last = true;
		s->first_ns = m->first;
		s->last_ns = m->last;
		s->has_std = true;
		s->std_ns = sqrt((m->m2 > 0 ? m->m2 : 0.0) / (double)r->count);
		s->has_span = true;
		s->first_start_ns = m->start_minimum;
		s->last_end_ns = m->end_maximum;
	}
	if (m->gpu_count > 0) {
		s->has_gpu = true;
		s->gpu_count = m->gpu_count;
		s->gpu_total_ns = m->gpu_total;
		s->gpu_mean_ns = (double)m->gpu_total / (double)m->gpu_count;
	}
}

/*
 * Figures of row r under sel.  With per-call data, the selected calls'
 * durations are appended to pool; the row's own percentiles are selected
 * within its slice of pool, which reorders only that slice (the pooled
 * set stays the same), so one buffer serves the row and the region.
 */
/* A run of a row's calls, read at once (the columns may be packed). */
#define STATS_RUN SV_STATS_RUN
struct stats_run {
	const int64_t *start; /* the column's own, or start_buf */
	int64_t start_buf[STATS_RUN], dur[STATS_RUN], excl[STATS_RUN];
	bool has_excl;
};

/* Calls c .. of a row (left of them in it) into run; their exclusive
 * times only when want_excl. */
static void stats_run_read(const struct sv_profile *p, uint32_t c,
	uint64_t left, bool want_excl, struct stats_run *run)
{
	size_t n = left < STATS_RUN ? (size_t)left : STATS_RUN;

	if (p->start_ns) { /* not packed: read in place */
		run->start = p->start_ns + c;
	} else {
		sv_profile_starts(p, c, n, run->start_buf);
		run->start = run->start_buf;
	}
	sv_profile_durations(p, c, n, run->dur);
	run->has_excl = want_excl && sv_profile_has_exclusive(p);
	if (run->has_excl)
		sv_profile_exclusives_of(p, c, n, run->dur, run->excl);
}

void sv_stats_row_compute(const struct sv_profile *p, size_t ri,
	const struct sv_stats_sel *sel, struct sv_stats *s,
	struct sv_stats_buf *pool)
{
	sv_stats_row_part(p, ri, 0, p->has_calls ? p->rows[ri].count : 0, sel,
		s, pool, NULL);
}

/* A row's figures as its runs of calls add to them. */
struct stats_acc {
	uint64_t n;
	int64_t total, excl, gpu, await;
	int64_t min, max, first, last, first_start, last_end;
	/* The calls in start order, each drawn to an end no earlier than
	 * the one before's (stats.h's ordered). */
	bool in_order;
	int64_t prev_s, prev_e;
};

/* m calls from c on, read into run, each as sel selects it (and cut to
 * its range) and with its exclusive, GPU and await times, into a: each
 * duration counted by bucket into counts (or not: NULL) and appended to
 * pool (or not: NULL). */
static void stats_acc_calls(struct stats_acc *a, const struct sv_profile *p,
	const struct sv_stats_sel *sel, uint32_t lane, uint32_t c, size_t m,
	const struct stats_run *run, uint32_t *counts,
	struct sv_stats_buf *pool)
{
	bool filtered = stats_sel_any(sel), range = sel && sel->range;
	size_t t;

	for (t = 0; t < m; t++, c++) {
		int64_t d, cs = run->start[t],
			   ce = sv_add_wrap(cs, run->dur[t]),
			   de = sv_covered_end(cs, ce);

		a->in_order = a->in_order && cs >= a->prev_s && de >= a->prev_e;
		a->prev_s = cs;
		a->prev_e = de;
		if (filtered && !stats_call_on(p, sel, c, lane, cs, ce))
			continue;
		if (range) {
			/* The part inside the range. */
			cs = cs > sel->t0 ? cs : sel->t0;
			ce = ce < sel->t1 ? ce : sel->t1;
			ce = ce > cs ? ce : cs;
		}
		d = sv_sub_wrap(ce, cs);
		if (!a->n)
			a->first = d;
		a->min = d < a->min ? d : a->min;
		a->max = d > a->max ? d : a->max;
		a->first_start = cs < a->first_start ? cs : a->first_start;
		a->last_end = ce > a->last_end ? ce : a->last_end;
		a->last = d;
		a->total = sv_add_wrap(a->total, d);
		if (range)
			a->excl = sv_add_wrap(
				a->excl, sv_stats_range_exclusive(p, sel, c));
		else if (run->has_excl)
			a->excl = sv_add_wrap(a->excl, run->excl[t]);
		if (sv_profile_has_gpu(p))
			a->gpu = sv_add_wrap(a->gpu, sv_profile_gpu(p, c));
		if (sv_profile_has_await(p))
			a->await =
				sv_add_wrap(a->await, sv_profile_await(p, c));
		if (pool)
			sv_stats_buf_push(pool, d);
		if (counts)
			counts[sv_stats_bucket(d)]++;
		a->n++;
	}
}

/* The spread (the sum of squares about mean) of a row's n selected
 * values (calls k0 .. k1 - 1 under sel) and their percentiles into out,
 * with the row's own counts by bucket (or NULL): the values in pool from
 * from on, or, when reread, read again, each run handed to pool->keep,
 * and not left in pool. */
static double stats_row_spread(const struct sv_profile *p, size_t ri,
	uint64_t k0, uint64_t k1, const struct sv_stats_sel *sel,
	struct sv_stats_buf *pool, size_t from, size_t n, bool reread,
	const uint32_t *counts, double mean, double *out)
{
	struct sv_stats_pick pick;
	int64_t buf[STATS_RUN];
	bool picked = counts &&
		      sv_stats_pick_begin(&pick, counts, n, sv_stats_ppct, 3);
	double m2 = 0;
	size_t i, m;

	if (!reread) {
		for (i = 0; i < n; i++) {
			double e = (double)pool->v[from + i] - mean;
			m2 += e * e;
			if (picked)
				sv_stats_pick_take(&pick, pool->v[from + i]);
		}
	}
	while (reread && (m = sv_stats_row_values(p, ri, &k0, k1, sel, buf))) {
		for (i = 0; i < m; i++) {
			double e = (double)buf[i] - mean;
			m2 += e * e;
			if (picked)
				sv_stats_pick_take(&pick, buf[i]);
			else /* for the selection in place below */
				sv_stats_buf_push(pool, buf[i]);
		}
		if (pool->keep)
			pool->keep(pool->keep_ctx, pool->keep_g, buf, m);
	}
	if (picked)
		sv_stats_pick_end(&pick, out);
	else
		sv_stats_percentiles_counted(
			pool->v + from, n, counts, sv_stats_ppct, out, 3);
	if (reread)
		pool->n = from;
	return m2;
}

void sv_stats_row_part(const struct sv_profile *p, size_t ri, uint64_t k0,
	uint64_t k1, const struct sv_stats_sel *sel, struct sv_stats *s,
	struct sv_stats_buf *pool, bool *ordered)
{
	struct stats_run run;
	const struct sv_row *r = &p->rows[ri];
	struct stats_acc a = {.min = INT64_MAX,
		.max = INT64_MIN,
		.first_start = INT64_MAX,
		.last_end = INT64_MIN,
		.in_order = true,
		.prev_s = INT64_MIN,
		.prev_e = INT64_MIN};
	uint64_t k, n;
	double mean, m2 = 0;
	bool filtered = stats_sel_any(sel);
	bool range = sel && sel->range;
	uint32_t lane = sv_row_lane(p, ri);
	uint32_t *counts = NULL; /* where the values are counted by bucket */
	bool own_counts = false; /* counts are the row's alone */
	bool reread = false;     /* its values read again, not held */
	/* The row's stored exclusive time stands for the whole row. */
	bool want_excl = filtered || r->exclusive_total < 0;
	size_t from, m;

	memset(s, 0, sizeof *s);
	if (!p->has_calls) {
		stats_row_stored(p, r, s);
		return;
	}
	from = pool->n;
	if (pool->total && r->count >= SV_STATS_MIN_BUCKETED) {
		/* A big row: its own counts, for its percentiles, then
		 * added to the pool's. */
		if (!pool->count)
			pool->count = sv_xmalloc(
				SV_STATS_BUCKETS * sizeof *pool->count);
		memset(pool->count, 0, SV_STATS_BUCKETS * sizeof *pool->count);
		counts = pool->count;
		own_counts = true;
		reread = pool->transient;
	} else {
		counts = pool->total;
	}
	for (k = k0; k < k1; k += m) {
		uint32_t c = (uint32_t)(r->first + k);
		m = k1 - k < STATS_RUN ? (size_t)(k1 - k) : STATS_RUN;
		stats_run_read(p, c, k1 - k, want_excl, &run);
		stats_acc_calls(&a, p, sel, lane, c, m, &run, counts,
			reread ? NULL : pool);
	}
	n = a.n;
	s->min_ns = a.min;
	s->max_ns = a.max;
	s->first_ns = a.first;
	s->last_ns = a.last;
	s->first_start_ns = a.first_start;
	s->last_end_ns = a.last_end;
	if (own_counts)
		for (k = 0; k < SV_STATS_BUCKETS; k++)
			pool->total[k] += counts[k];
	if (ordered)
		*ordered = a.in_order;
	s->num_calls = n;
	s->has_total = true;
	s->total_ns = a.total;
	s->has_exclusive = true;
	if (!filtered && r->exclusive_total >= 0)
		s->exclusive_ns = r->exclusive_total;
	else if (sv_profile_has_exclusive(p) || range)
		s->exclusive_ns = a.excl;
	else
		s->has_exclusive = false;
	/* GPU and await time cannot be placed inside a range. */
	s->has_await = sv_profile_has_await(p) && !range;
	s->await_total_ns = a.await;
	if (n == 0) {
		s->min_ns = s->max_ns = s->first_ns = s->last_ns = 0;
		s->first_start_ns = s->last_end_ns = 0;
		return;
	}
	s->has_dist = s->has_first_last = s->has_span = true;
	mean = (double)a.total / (double)n;
	s->mean_ns = mean;
	{
		double out[3];
		m2 = stats_row_spread(p, ri, k0, k1, sel, pool, from, (size_t)n,
			reread, own_counts ? counts : NULL, mean, out);
		s->has_percentiles = true;
		s->p50_ns = out[0];
		s->p95_ns = out[1];
		s->p99_ns = out[2];
	}
	s->has_std = true;
	s->std_ns = sqrt(m2 / (double)n);
	if (r->has_gpu && sv_profile_has_gpu(p) && !range) {
		s->has_gpu = true;
		s->gpu_count = n;
		s->gpu_total_ns = a.gpu;
		s->gpu_mean_ns = (double)a.gpu / (double)n;
	}
}

size_t sv_stats_row_values(const struct sv_profile *p, size_t ri, uint64_t *k,
	uint64_t k1, const struct sv_stats_sel *sel, int64_t *out)
{
	const struct sv_row *r = &p->rows[ri];
	bool filtered = stats_sel_any(sel), range = sel && sel->range;
	uint32_t lane = filtered ? sv_row_lane(p, ri) : UINT32_MAX;
	int64_t start[STATS_RUN], dur[STATS_RUN];
	size_t m = 0;

	while (m == 0 && *k < k1) {
		size_t n = k1 - *k < STATS_RUN ? (size_t)(k1 - *k) : STATS_RUN;
		uint32_t c = (uint32_t)(r->first + *k);
		size_t t;

		*k += n;
		if (!filtered) {
			sv_profile_durations(p, c, n, out);
			return n;
		}
		sv_profile_durations(p, c, n, dur);
		if (range)
			sv_profile_starts(p, c, n, start);
		for (t = 0; t < n; t++) {
			int64_t cs, ce;
			cs = range ? start[t] : 0;
			ce = range ? sv_add_wrap(cs, dur[t]) : 0;
			if (!stats_call_on(
				    p, sel, c + (uint32_t)t, lane, cs, ce))
				continue;
			if (!range) {
				out[m++] = dur[t];
				continue;
			}
			/* As sv_stats_row_part: the part inside. */
			cs = cs > sel->t0 ? cs : sel->t0;
			ce = ce < sel->t1 ? ce : sel->t1;
			ce = ce > cs ? ce : cs;
			out[m++] = sv_sub_wrap(ce, cs);
		}
	}
	return m;
}

int sv_stats_row(const struct sv_profile *p, size_t row,
	const struct sv_stats_filter *f, struct sv_stats *out)
{
	struct sv_stats_sel sel = {0};
	struct sv_stats_buf buf = {0};

	if (!p || !out || row >= p->nrows)
		return -EINVAL;
	if (f) {
		sel.lane_on = f->lane_on;
		sel.by_thread = f->by_thread;
		sel.thread = f->thread;
		sel.call_on = p->has_calls ? f->call_on : NULL;
	}
	sv_stats_row_compute(p, row, &sel, out, &buf);
	free(buf.v);
	return 0;
}

size_t sv_stats_row_distinct(const struct sv_profile *p, size_t row,
	const int64_t *col, int64_t **out)
{
	const struct sv_row *r;
	int64_t *v;
	size_t i, n = 0;

	*out = NULL;
	if (!p || !col || row >= p->nrows || !p->has_calls)
		return 0;
	r = &p->rows[row];
	if (r->count == 0)
		return 0;
	v = sv_xmalloc(r->count * sizeof *v);
	memcpy(v, col + r->first, r->count * sizeof *v);
	qsort(v, r->count, sizeof *v, sv_stats_cmp_i64);
	for (i = 0; i < r->count; i++)
		if (n == 0 || v[i] != v[n - 1])
			v[n++] = v[i];
	*out = v;
	return n;
}
