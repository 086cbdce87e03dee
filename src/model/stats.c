/*
 * stats.c: per-row, per-region and run statistics with scope-profiler's
 * semantics (FORMAT.md section 5; see stats.h).
 *
 * Invariants: every figure of a region costs O(n) over its calls plus an
 * expected-O(n) selection for percentiles, using one scratch buffer of
 * durations per table; there is no heap object per call.  Ties follow
 * scope-profiler exactly: the first rank in the file's row order wins,
 * and times are compared as the float64 seconds Python compares.  Nothing
 * here prints.
 */
#include "scopeview/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/pairwise.h"
#include "scopeview/regex.h"

/* Largest rank a rank list may name: the flags array is that long. */
#define STATS_MAX_RANK (1u << 24)

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

/* ---- percentiles -------------------------------------------------------- */

static int stats_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static void stats_swap(int64_t *v, size_t i, size_t j)
{
	int64_t t = v[i];
	v[i] = v[j];
	v[j] = t;
}

/* Put the k-th smallest of v[lo..hi) at v[k], smaller ones before it and
 * larger ones after (quickselect with a median-of-three pivot and a
 * three-way partition, so runs of equal durations cost nothing; falls back
 * to a sort if the pivots keep being bad). */
static void stats_select(int64_t *v, size_t lo, size_t hi, size_t k)
{
	unsigned budget = 64;

	while (hi - lo > 16) {
		size_t mid = lo + (hi - lo) / 2, i, lt, gt;
		int64_t a = v[lo], b = v[mid], c = v[hi - 1], pivot;

		if (budget-- == 0) {
			qsort(v + lo, hi - lo, sizeof *v, stats_cmp_i64);
			return;
		}
		if ((a <= b && b <= c) || (c <= b && b <= a))
			pivot = b;
		else if ((b <= a && a <= c) || (c <= a && a <= b))
			pivot = a;
		else
			pivot = c;
		i = lt = lo;
		gt = hi;
		while (i < gt) {
			if (v[i] < pivot)
				stats_swap(v, lt++, i++);
			else if (v[i] > pivot)
				stats_swap(v, i, --gt);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return;
	}
	/* Insertion sort of the small rest. */
	for (size_t i = lo + 1; i < hi; i++) {
		int64_t x = v[i];
		size_t j = i;
		while (j > lo && v[j - 1] > x) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/* numpy's _lerp(a, b, t): a + (b - a) * t, computed from b for t >= 0.5. */
static double stats_lerp(int64_t a, int64_t b, double t)
{
	double diff;
	int64_t d;

	if (__builtin_sub_overflow(b, a, &d))
		diff = (double)b - (double)a;
	else
		diff = (double)d;
	if (t >= 0.5)
		return (double)b - diff * (1.0 - t);
	return (double)a + diff * t;
}

/*
 * Several percentiles of v[0..n) at once, numpy 'linear': position
 * (n - 1) * pct / 100, interpolated between its neighbours.  The order
 * statistics needed are selected in ascending order, each in the part of
 * the array right of the previous one.
 */
static void stats_percentiles(
	int64_t *v, size_t n, const double *pct, double *out, size_t npct)
{
	size_t need[16], nneed = 0, i, j, from = 0;
	size_t lo[8];
	double gamma[8];

	for (i = 0; i < npct && i < 8; i++) {
		double vi = (double)(n - 1) * (pct[i] / 100.0);
		double fl = floor(vi);
		lo[i] = fl < 0 ? 0 : (size_t)fl;
		if (lo[i] > n - 1)
			lo[i] = n - 1;
		gamma[i] = vi - fl;
		need[nneed++] = lo[i];
		if (lo[i] + 1 < n)
			need[nneed++] = lo[i] + 1;
	}
	/* Sort the wanted ranks (a handful) and drop repeats. */
	for (i = 1; i < nneed; i++)
		for (j = i; j > 0 && need[j - 1] > need[j]; j--) {
			size_t t = need[j];
			need[j] = need[j - 1];
			need[j - 1] = t;
		}
	for (i = 0; i < nneed; i++) {
		if (i > 0 && need[i] == need[i - 1])
			continue;
		stats_select(v, from, n, need[i]);
		from = need[i] + 1;
	}
	for (i = 0; i < npct && i < 8; i++) {
		if (lo[i] + 1 >= n)
			out[i] = (double)v[n - 1];
		else
			out[i] = stats_lerp(v[lo[i]], v[lo[i] + 1], gamma[i]);
	}
}

double sv_stats_percentile_of(int64_t *v, size_t n, double pct)
{
	double out = 0;
	if (!v || n == 0)
		return 0;
	stats_percentiles(v, n, &pct, &out, 1);
	return out;
}

/* int64 arithmetic that wraps like numpy's instead of being undefined
 * when a damaged file holds absurd times. */
static int64_t stats_wadd(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t stats_wsub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

/* ---- one row ------------------------------------------------------------ */

/* The selection applied inside rows: lanes and thread. */
struct stats_sel {
	const bool *lane_on;
	bool by_thread;
	int64_t thread;
};

static bool stats_sel_any(const struct stats_sel *sel)
{
	return sel && (sel->lane_on || sel->by_thread);
}

static bool stats_call_on(
	const struct sv_profile *p, const struct stats_sel *sel, uint32_t c)
{
	if (!sel)
		return true;
	if (sel->lane_on && p->lane_of && !sel->lane_on[p->lane_of[c]])
		return false;
	if (sel->by_thread &&
		(p->thread_id ? p->thread_id[c] : -1) != sel->thread)
		return false;
	return true;
}

/* A growable buffer of durations. */
struct stats_buf {
	int64_t *v;
	size_t n, cap;
};

static void stats_buf_push(struct stats_buf *b, int64_t x)
{
	if (b->n == b->cap)
		sv_grow((void **)&b->v, &b->cap, b->n + 1, sizeof *b->v);
	b->v[b->n++] = x;
}

static const double stats_ppct[3] = {50.0, 95.0, 99.0};

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
static void stats_row_compute(const struct sv_profile *p, size_t ri,
	const struct stats_sel *sel, struct sv_stats *s, struct stats_buf *pool)
{
	const struct sv_row *r = &p->rows[ri];
	uint64_t k, n = 0;
	int64_t total = 0, excl = 0, gpu = 0, await = 0;
	double mean, m2 = 0;
	bool filtered = stats_sel_any(sel);
	size_t from;

	memset(s, 0, sizeof *s);
	if (!p->has_calls) {
		stats_row_stored(p, r, s);
		return;
	}
	from = pool->n;
	for (k = 0; k < r->count; k++) {
		uint32_t c = (uint32_t)(r->first + k);
		int64_t d;

		if (filtered && !stats_call_on(p, sel, c))
			continue;
		d = stats_wsub(p->end_ns[c], p->start_ns[c]);
		if (n == 0) {
			s->min_ns = s->max_ns = s->first_ns = d;
			s->first_start_ns = p->start_ns[c];
			s->last_end_ns = p->end_ns[c];
		} else {
			if (d < s->min_ns)
				s->min_ns = d;
			if (d > s->max_ns)
				s->max_ns = d;
			if (p->start_ns[c] < s->first_start_ns)
				s->first_start_ns = p->start_ns[c];
			if (p->end_ns[c] > s->last_end_ns)
				s->last_end_ns = p->end_ns[c];
		}
		s->last_ns = d;
		total = stats_wadd(total, d);
		if (p->exclusive)
			excl = stats_wadd(excl, p->exclusive[c]);
		if (p->gpu_ns)
			gpu = stats_wadd(gpu, p->gpu_ns[c]);
		if (p->await_ns)
			await = stats_wadd(await, p->await_ns[c]);
		stats_buf_push(pool, d);
		n++;
	}
	s->num_calls = n;
	s->has_total = true;
	s->total_ns = total;
	s->has_exclusive = true;
	if (!filtered && r->exclusive_total >= 0)
		s->exclusive_ns = r->exclusive_total;
	else if (p->exclusive)
		s->exclusive_ns = excl;
	else
		s->has_exclusive = false;
	s->has_await = p->await_ns != NULL;
	s->await_total_ns = await;
	if (n == 0) {
		s->min_ns = s->max_ns = s->first_ns = s->last_ns = 0;
		s->first_start_ns = s->last_end_ns = 0;
		return;
	}
	s->has_dist = s->has_first_last = s->has_span = true;
	mean = (double)total / (double)n;
	s->mean_ns = mean;
	for (k = 0; k < n; k++) {
		double e = (double)pool->v[from + k] - mean;
		m2 += e * e;
	}
	s->has_std = true;
	s->std_ns = sqrt(m2 / (double)n);
	if (r->has_gpu && p->gpu_ns) {
		s->has_gpu = true;
		s->gpu_count = n;
		s->gpu_total_ns = gpu;
		s->gpu_mean_ns = (double)gpu / (double)n;
	}
	{
		double out[3];
		stats_percentiles(
			pool->v + from, (size_t)n, stats_ppct, out, 3);
		s->has_percentiles = true;
		s->p50_ns = out[0];
		s->p95_ns = out[1];
		s->p99_ns = out[2];
	}
}

int sv_stats_row(const struct sv_profile *p, size_t row,
	const struct sv_stats_filter *f, struct sv_stats *out)
{
	struct stats_sel sel = {NULL, false, 0};
	struct stats_buf buf = {NULL, 0, 0};

	if (!p || !out || row >= p->nrows)
		return -EINVAL;
	if (f) {
		sel.lane_on = f->lane_on;
		sel.by_thread = f->by_thread;
		sel.thread = f->thread;
	}
	stats_row_compute(p, row, &sel, out, &buf);
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
	qsort(v, r->count, sizeof *v, stats_cmp_i64);
	for (i = 0; i < r->count; i++)
		if (n == 0 || v[i] != v[n - 1])
			v[n++] = v[i];
	*out = v;
	return n;
}

/* ---- one region across ranks -------------------------------------------- */

static int stats_rank_cmp(const void *a, const void *b)
{
	const struct sv_stats_rank *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

/* Seconds as Python compares them. */
static double stats_secs(int64_t ns)
{
	return (double)ns / 1e9;
}

/*
 * MPIRegion figures of g from its ranks (already computed and sorted by
 * rank; their row indexes give the file's order for ties), the pooled
 * durations pool[0..npool) and the positive rank totals in seconds in row
 * order, tmp[0..ntot).
 */
static void stats_region_pool(const struct sv_profile *p,
	struct sv_stats_region *g, int64_t *pool, size_t npool,
	const double *tmp, size_t ntot)
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
		s->total_ns = stats_wadd(s->total_ns, r->total_ns);
		total_ok = total_ok && r->has_total;
		if (r->has_exclusive)
			s->exclusive_ns =
				stats_wadd(s->exclusive_ns, r->exclusive_ns);
		else
			excl_ok = false;
		if (r->has_gpu) {
			s->has_gpu = true;
			s->gpu_total_ns =
				stats_wadd(s->gpu_total_ns, r->gpu_total_ns);
			s->gpu_count += r->gpu_count;
		}
		if (r->has_await) {
			s->has_await = true;
			s->await_total_ns = stats_wadd(
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
			double fs = r->has_span ? stats_secs(r->first_start_ns)
						: 0.0;
			double le =
				r->has_span ? stats_secs(r->last_end_ns) : 0.0;
			if (!first) {
				first = last = rk;
			} else {
				double ffs =
					first->s.has_span
						? stats_secs(
							  first->s.first_start_ns)
						: 0.0;
				double lle =
					last->s.has_span
						? stats_secs(
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
			double t = stats_secs(r->total_ns);
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
		stats_percentiles(pool, npool, stats_ppct, out, 3);
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

static int stats_region_cmp_start(const void *a, const void *b)
{
	const struct sv_stats_region *x = a, *y = b;
	double sx = stats_secs(x->order_start_ns),
	       sy = stats_secs(y->order_start_ns);

	/* As float64 seconds, as Python sorts them: past 2^53 ns (104 days of
	 * uptime) starts a few ns apart can tie, and ties keep base order. */
	if (sx != sy)
		return sx < sy ? -1 : 1;
	return (x->region > y->region) - (x->region < y->region);
}

int sv_stats_table_compute(struct sv_stats_table *t, const struct sv_profile *p,
	const struct sv_stats_filter *f, struct sv_error *err)
{
	struct stats_sel sel = {NULL, false, 0};
	struct stats_buf pool = {NULL, 0, 0};
	size_t *row_start, *row_list, i, nsel = 0, ntot;
	double *tmp;
	uint32_t g;

	if (!t)
		return sv_error_set(err, -EINVAL, "statistics: no table");
	memset(t, 0, sizeof *t);
	if (!p)
		return sv_error_set(err, -EINVAL, "statistics: no profile");
	if (f && f->lane_on && p->has_calls && p->ncalls && !p->lane_of)
		return sv_error_set(err, -EINVAL,
			"statistics: lane filter on a profile without lanes");
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
		for (k = 0; k < reg->nranks; k++) {
			struct sv_stats_rank *rk = &reg->ranks[k];
			rk->row = row_list[a + k];
			rk->rank = p->rows[rk->row].rank;
			stats_row_compute(p, rk->row, &sel, &rk->s, &pool);
		}
		ntot = 0;
		for (k = 0; k < reg->nranks; k++)
			if (reg->ranks[k].s.total_ns > 0)
				tmp[ntot++] =
					stats_secs(reg->ranks[k].s.total_ns);
		qsort(reg->ranks, reg->nranks, sizeof *reg->ranks,
			stats_rank_cmp);
		stats_region_pool(p, reg, pool.v, pool.n, tmp, ntot);
		if (f && f->skip_empty && reg->s.num_calls == 0) {
			free(reg->ranks);
			memset(reg, 0, sizeof *reg);
			continue;
		}
		if (reg->s.has_span) {
			if (!t->has_min_start ||
				reg->s.first_start_ns < t->min_start_ns)
				t->min_start_ns = reg->s.first_start_ns;
			if (!t->has_max_end ||
				reg->s.last_end_ns > t->max_end_ns)
				t->max_end_ns = reg->s.last_end_ns;
			t->has_min_start = t->has_max_end = true;
		}
		nsel++;
	}
	t->nregions = nsel;
	free(tmp);
	free(row_start);
	free(row_list);
	free(pool.v);

	/* Display order: stable by first start (regions are in base order, and
	 * the base index breaks ties). */
	qsort(t->regions, t->nregions, sizeof *t->regions,
		stats_region_cmp_start);

	t->time_origin_ns = sv_profile_time_origin(p);
	if (p->has_start_time && p->has_finalize_time) {
		t->has_total_time = true;
		t->total_time_ns = p->finalize_time_ns - p->start_time_ns;
	}
	return 0;
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
	double sx = stats_secs(x->start), sy = stats_secs(y->start);

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

int sv_stats_percentile(const struct sv_stats_table *t, size_t i,
	long rank_index, double pct, double *out)
{
	const struct sv_stats_region *g;
	const struct sv_profile *p;
	struct stats_sel sel;
	struct stats_buf buf = {NULL, 0, 0};
	size_t k, from, to;

	if (!t || !out || i >= t->nregions || !(pct >= 0 && pct <= 100))
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
	from = rank_index >= 0 ? (size_t)rank_index : 0;
	to = rank_index >= 0 ? (size_t)rank_index + 1 : g->nranks;
	for (k = from; k < to; k++) {
		const struct sv_row *r = &p->rows[g->ranks[k].row];
		uint64_t j;
		for (j = 0; j < r->count; j++) {
			uint32_t c = (uint32_t)(r->first + j);
			if (stats_call_on(p, &sel, c))
				stats_buf_push(&buf, stats_wsub(p->end_ns[c],
							     p->start_ns[c]));
		}
	}
	if (buf.n == 0) {
		free(buf.v);
		return -ENODATA;
	}
	*out = sv_stats_percentile_of(buf.v, buf.n, pct);
	free(buf.v);
	return 0;
}

/* ---- rank lists ------------------------------------------------------------- */

static const char *stats_skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* A decimal rank at *s; advances *s. */
static int stats_parse_rank(const char **s, uint32_t *out)
{
	const char *q = *s;
	uint64_t v = 0;

	if (*q < '0' || *q > '9')
		return -1;
	while (*q >= '0' && *q <= '9') {
		v = v * 10 + (uint64_t)(*q - '0');
		if (v >= STATS_MAX_RANK)
			return -2;
		q++;
	}
	*out = (uint32_t)v;
	*s = q;
	return 0;
}

int sv_stats_parse_ranks(
	const char *spec, bool **on, uint32_t *n, struct sv_error *err)
{
	const char *s;
	uint32_t max = 0, pass;
	bool *flags = NULL, any = false;

	if (!spec || !on || !n)
		return sv_error_set(err, -EINVAL, "bad rank list: none given");
	/* Pass 0 validates and finds the largest rank; pass 1 sets flags. */
	for (pass = 0; pass < 2; pass++) {
		s = spec;
		for (;;) {
			uint32_t a, b;
			int rc;

			s = stats_skip_blank(s);
			rc = stats_parse_rank(&s, &a);
			if (rc == -2)
				goto too_large;
			if (rc)
				return sv_error_set(err, -EINVAL,
					"bad rank list '%s': expected a rank "
					"number at %s%s%s",
					spec, *s ? "'" : "the end", s,
					*s ? "'" : "");
			b = a;
			s = stats_skip_blank(s);
			if (*s == '-') {
				s = stats_skip_blank(s + 1);
				rc = stats_parse_rank(&s, &b);
				if (rc == -2)
					goto too_large;
				if (rc)
					return sv_error_set(err, -EINVAL,
						"bad rank list '%s': expected "
						"the end of a range at %s%s%s",
						spec, *s ? "'" : "the end", s,
						*s ? "'" : "");
				if (b < a)
					return sv_error_set(err, -EINVAL,
						"bad rank list '%s': range "
						"%u-%u runs backwards",
						spec, a, b);
				s = stats_skip_blank(s);
			}
			if (pass == 0) {
				if (!any || b > max)
					max = b;
				any = true;
			} else {
				uint32_t r;
				for (r = a; r <= b; r++)
					flags[r] = true;
			}
			if (*s == ',') {
				s++;
				continue;
			}
			if (*s)
				return sv_error_set(err, -EINVAL,
					"bad rank list '%s': unexpected '%c'",
					spec, *s);
			break;
		}
		if (pass == 0)
			flags = sv_xcalloc((size_t)max + 1, sizeof *flags);
	}
	*on = flags;
	*n = max + 1;
	return 0;
too_large:
	free(flags);
	return sv_error_set(err, -EINVAL,
		"bad rank list '%s': ranks must be below %u", spec,
		STATS_MAX_RANK);
}
