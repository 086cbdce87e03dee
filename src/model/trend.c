/*
 * trend.c: one region's calls iteration by iteration (trend.h).
 *
 * Each rank's calls of the region are gathered from its rows (call-number
 * order) and put in start order by a stable radix sort when they are not
 * in it already, so ties stay in call-number order.  Their values (the
 * duration or the exclusive time) are read once into an array in that
 * order; iteration k then takes the k-th value of every rank that has
 * one, the ranks being visited longest series first so that an iteration
 * costs only the ranks it has: O(calls) for the points, each median an
 * insertion sort of a few ranks as they are read, or a selection.
 *
 * Change points, per rank: first the spikes are set aside, values that
 * belong to neither level (a checkpoint every tenth iteration, a page
 * fault): a value whose distance from the median of the five values
 * around it (numpy.median of x[i-2 .. i+2]) is more than SV_TREND_SPIKE
 * times the series' robust standard deviation of those distances
 * (1.4826 times their median, over at most 65,536 of them evenly
 * spaced; 1.2533 times their mean when the median is 0; every nonzero
 * distance when both are).  A median of five keeps a step where it is,
 * so the values either side of a change are not spikes, and a spike next
 * to the change does not pull it one iteration early.  The rest is cut by binary segmentation (Scott and Knott 1974;
 * Vostrikova 1981) with the two-sample t statistic of a change in mean
 * under a common, unknown variance as its test (Worsley 1979): for the
 * values kept x[a..b) and a split k, with m1, m2 the means of x[a..k)
 * and x[k..b) and s^2 the pooled variance of the two sides (sum of
 * squares about each side's mean over b - a - 2),
 *
 *     T(k) = |m2 - m1| / (s * sqrt(1 / (k - a) + 1 / (b - k))).
 *
 * A split k is a candidate when both sides have at least
 * SV_TREND_MIN_SEGMENT values and the level moves by at least
 * SV_TREND_MIN_SHIFT of the larger of the two means (a real shift, not a
 * ripple that many iterations make significant).  The segment is split
 * at the candidate with the largest T when T >= SV_TREND_THRESHOLD (6:
 * in 1,860 simulated steady series of 100 to 10^5 values, Gaussian,
 * heavy-tailed or spiky, the largest T was 4.49, bench/trend_threshold.py;
 * and Yao and Davis' (1986) limit puts 6 beyond the 99.99th percentile
 * of Gaussian noise up to 10^7 values), and both halves are searched
 * again, until no segment splits.  Each
 * change point is the first iteration of a segment that is not a spike,
 * with the means of all iterations of the segments either side (spikes
 * included).  Prefix sums of the values kept (less their mean, in
 * doubles) make each T O(1), so a series of n iterations costs O(n) per
 * level of splitting.
 *
 * Drift and jitter are computed from the medians: the least-squares
 * slope in long double, the median absolute deviation as numpy.median
 * takes it.  The parts (sv_trend_series, sv_trend_point_of,
 * sv_trend_finish) serve scopeview-mpi.  Nothing here knows HDF5.
 */
#include "scopeview/trend.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/radix.h"

/* Values read at once from a run of consecutive calls. */
#define TREND_CHUNK 1024
/* Iterations between looks at the stop flag (and progress reports). */
#define TREND_POLL 4096

static bool trend_cancelled(const struct sv_trend_opts *o)
{
	return o->cancel &&
	       atomic_load_explicit(o->cancel, memory_order_relaxed);
}

int64_t sv_trend_value(
	const struct sv_trend *t, const struct sv_profile *p, uint32_t c)
{
	if (t->metric == SV_TREND_EXCLUSIVE)
		return sv_profile_exclusive(p, c);
	return sv_call_duration(p, c);
}

/* ---- numpy's median ------------------------------------------------------- */

static int trend_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Put the k-th smallest of v[lo..hi) at v[k], smaller ones before it
 * (quickselect, median-of-three pivot, three-way partition; a sort when
 * the pivots keep being bad).  No NaN in v. */
static void trend_select(double *v, size_t lo, size_t hi, size_t k)
{
	unsigned budget = 64;

	while (hi - lo > 16) {
		size_t i, lt, gt;
		double a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi - 1], x;
		double pivot = a < b ? (b < c ? b : (a < c ? c : a))
				     : (a < c ? a : (b < c ? c : b));
		if (budget-- == 0) {
			qsort(v + lo, hi - lo, sizeof *v, trend_cmp_double);
			return;
		}
		i = lt = lo;
		gt = hi;
		while (i < gt) {
			x = v[i];
			if (x < pivot) {
				v[i++] = v[lt];
				v[lt++] = x;
			} else if (x > pivot) {
				v[i] = v[--gt];
				v[gt] = x;
			} else {
				i++;
			}
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return;
	}
	/* the few left: an insertion sort (an iteration's ranks are
	 * mostly this few, millions of times) */
	for (size_t i = lo + 1; i < hi; i++) {
		double x = v[i];
		size_t j = i;
		while (j > lo && v[j - 1] > x) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/* numpy.median(v[0..n)), n > 0: the middle value, or the mean of the two
 * middle ones ((a + b) / 2, as numpy's mean of two takes it).  Reorders
 * v. */
static double trend_median(double *v, size_t n)
{
	size_t h = n / 2, i;
	double lo;

	trend_select(v, 0, n, h);
	if (n % 2)
		return v[h];
	lo = v[0];
	for (i = 1; i < h; i++)
		if (v[i] > lo)
			lo = v[i];
	return (lo + v[h]) / 2;
}

/* ---- the calls of each rank ------------------------------------------------ */

/* Rows of the region on the ranks taken, by rank then row. */
struct trend_row {
	uint32_t rank;
	size_t row;
};

static int trend_row_cmp(const void *a, const void *b)
{
	const struct trend_row *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

/* Put calls[0 .. n) (ascending call numbers) in start order, ties by call
 * number; st is scratch of n starts. */
static void trend_order(
	const struct sv_profile *p, uint32_t *calls, size_t n, int64_t *st)
{
	struct sv_radix_kv *kv, *tmp;
	bool sorted = true;
	size_t i;

	for (i = 0; i < n; i++) {
		st[i] = sv_profile_start(p, calls[i]);
		if (i && st[i] < st[i - 1])
			sorted = false;
	}
	if (sorted)
		return;
	kv = sv_xmalloc(n * sizeof *kv);
	tmp = sv_xmalloc(n * sizeof *tmp);
	for (i = 0; i < n; i++) {
		kv[i].key = (uint64_t)st[i] ^ (1ull << 63);
		kv[i].value = calls[i];
	}
	sv_radix_sort(kv, tmp, n);
	for (i = 0; i < n; i++)
		calls[i] = kv[i].value;
	free(tmp);
	free(kv);
}

/* Fill t->ranks, t->off and t->calls; returns the calls taken. */
static size_t trend_gather(struct sv_trend *t, const struct sv_profile *p,
	uint32_t region, const struct sv_trend_opts *o)
{
	struct trend_row *rows;
	size_t n = 0, total = 0, i, k, maxlen = 0;
	int64_t *st;

	rows = sv_xcalloc(p->nrows + 1, sizeof *rows);
	for (i = 0; i < p->nrows; i++) {
		const struct sv_row *r = &p->rows[i];
		if (r->region != region || !r->count ||
			(o->rank_on && (r->rank >= o->nrank_on ||
					       !o->rank_on[r->rank])))
			continue;
		rows[n].rank = r->rank;
		rows[n++].row = i;
		total += r->count;
	}
	qsort(rows, n, sizeof *rows, trend_row_cmp);
	t->ranks = sv_xcalloc(n + 1, sizeof *t->ranks);
	t->off = sv_xcalloc(n + 2, sizeof *t->off);
	t->calls = sv_xmalloc((total ? total : 1) * sizeof *t->calls);
	total = 0;
	for (i = 0; i < n; i++) {
		const struct sv_row *r = &p->rows[rows[i].row];
		if (!i || rows[i].rank != rows[i - 1].rank) {
			t->off[t->nranks] = total;
			t->ranks[t->nranks++] = rows[i].rank;
		}
		for (k = 0; k < r->count; k++)
			t->calls[total++] = (uint32_t)(r->first + k);
	}
	t->off[t->nranks] = total;
	for (i = 0; i < t->nranks; i++)
		if (t->off[i + 1] - t->off[i] > maxlen)
			maxlen = t->off[i + 1] - t->off[i];
	st = sv_xmalloc((maxlen ? maxlen : 1) * sizeof *st);
	for (i = 0; i < t->nranks; i++)
		trend_order(
			p, t->calls + t->off[i], t->off[i + 1] - t->off[i], st);
	free(st);
	free(rows);
	return total;
}

/* The values of calls[0 .. n) into v, runs of consecutive calls read
 * through the profile's block reads. */
static void trend_values(const struct sv_trend *t, const struct sv_profile *p,
	const uint32_t *calls, size_t n, int64_t *v)
{
	size_t i = 0, run;

	while (i < n) {
		for (run = 1; i + run < n && run < TREND_CHUNK &&
			      calls[i + run] == calls[i] + run;
			run++)
			;
		if (run == 1)
			v[i] = sv_trend_value(t, p, calls[i]);
		else if (t->metric == SV_TREND_EXCLUSIVE)
			sv_profile_exclusives(p, calls[i], run, v + i);
		else
			sv_profile_durations(p, calls[i], run, v + i);
		i += run;
	}
}

/* ---- the points ----------------------------------------------------------- */

/* Rank indexes by series length, longest first (ties by rank). */
static size_t *trend_by_length(const struct sv_trend *t)
{
	size_t *by = sv_xcalloc(t->nranks + 1, sizeof *by), i, j;
	size_t *len = sv_xcalloc(t->nranks + 1, sizeof *len);

	for (i = 0; i < t->nranks; i++)
		len[i] = t->off[i + 1] - t->off[i];
	/* Counting would do, but ranks are few beside calls: insertion
	 * into place by a binary search keeps it O(R log R) compares. */
	for (i = 0; i < t->nranks; i++) {
		size_t lo = 0, hi = i;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (len[by[mid]] >= len[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		for (j = i; j > lo; j--)
			by[j] = by[j - 1];
		by[lo] = i;
	}
	free(len);
	return by;
}

/* Iterations of this many ranks or fewer take their median from an
 * insertion sort as the values are read; more, by selection. */
#define TREND_FEW 32

/* The points from the values v (aligned with t->calls); -ECANCELED. */
static int trend_points(
	struct sv_trend *t, const int64_t *v, const struct sv_trend_opts *o)
{
	size_t *by = trend_by_length(t), active = t->nranks, k, j, i;
	size_t nr = t->nranks + 1;
	double *buf = sv_xcalloc(nr, sizeof *buf);
	const int64_t **src = sv_xcalloc(nr, sizeof *src);
	const uint32_t **call = sv_xcalloc(nr, sizeof *call);
	size_t *len = sv_xcalloc(nr, sizeof *len);
	uint32_t *rank = sv_xcalloc(nr, sizeof *rank);
	uint64_t done = 0;
	int rc = 0;

	/* each rank's series, longest first */
	for (j = 0; j < t->nranks; j++) {
		size_t r = by[j];
		src[j] = v + t->off[r];
		call[j] = t->calls + t->off[r];
		len[j] = t->off[r + 1] - t->off[r];
		rank[j] = t->ranks[r];
	}
	t->npoints = t->nranks ? len[0] : 0;
	t->points = sv_xcalloc(t->npoints + 1, sizeof *t->points);
	for (k = 0; k < t->npoints && !rc; k++) {
		struct sv_trend_point *pt = &t->points[k];
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		uint32_t hi_rank = 0, hi_j = 0;

		while (active && len[active - 1] <= k)
			active--;
		for (j = 0; j < active; j++) {
			int64_t x = src[j][k];
			double d = (double)x;
			lo = x < lo ? x : lo;
			if (x > hi || (x == hi && rank[j] < hi_rank)) {
				hi = x;
				hi_rank = rank[j];
				hi_j = (uint32_t)j;
			}
			if (active > TREND_FEW) {
				buf[j] = d;
				continue;
			}
			for (i = j; i > 0 && buf[i - 1] > d; i--)
				buf[i] = buf[i - 1];
			buf[i] = d;
		}
		pt->count = (uint32_t)active;
		pt->min_ns = lo;
		pt->max_ns = hi;
		pt->max_rank = hi_rank;
		pt->max_call = call[hi_j][k];
		if (active > TREND_FEW)
			pt->median_ns = trend_median(buf, active);
		else if (active % 2)
			pt->median_ns = buf[active / 2];
		else
			pt->median_ns =
				(buf[active / 2 - 1] + buf[active / 2]) / 2;
		done += active;
		if (k % TREND_POLL == TREND_POLL - 1) {
			if (o->progress)
				atomic_store_explicit(o->progress, done,
					memory_order_relaxed);
			if (trend_cancelled(o))
				rc = -ECANCELED;
		}
	}
	if (o->progress && !rc)
		atomic_store_explicit(o->progress, done, memory_order_relaxed);
	free(rank);
	free(len);
	free(call);
	free(src);
	free(buf);
	free(by);
	return rc;
}

void sv_trend_point_of(struct sv_trend_point *pt, const int64_t *v,
	const uint32_t *rank, size_t n, double *scratch)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	uint32_t hi_rank = 0;
	size_t j;

	for (j = 0; j < n; j++) {
		lo = v[j] < lo ? v[j] : lo;
		if (v[j] > hi || (v[j] == hi && rank[j] < hi_rank)) {
			hi = v[j];
			hi_rank = rank[j];
		}
		scratch[j] = (double)v[j];
	}
	pt->count = (uint32_t)n;
	pt->min_ns = lo;
	pt->max_ns = hi;
	pt->max_rank = hi_rank;
	pt->max_call = SV_NO_CALL;
	pt->median_ns = n ? trend_median(scratch, n) : NAN;
}

void sv_trend_finish(struct sv_trend *t)
{
	size_t n = t->npoints, k;
	long double sk = 0, sm = 0, skk = 0, skm = 0, mk, mm, den;
	double *m, med;

	t->drift_pct_per_100 = NAN;
	t->jitter_pct = NAN;
	if (n == 0)
		return;
	for (k = 0; k < n; k++) {
		long double y = t->points[k].median_ns;
		sk += (long double)k;
		sm += y;
	}
	mk = sk / (long double)n;
	mm = sm / (long double)n;
	for (k = 0; k < n; k++) {
		long double dk = (long double)k - mk;
		skk += dk * dk;
		skm += dk * ((long double)t->points[k].median_ns - mm);
	}
	den = skk * mm;
	if (n >= 2 && den != 0)
		t->drift_pct_per_100 = (double)(skm / den * 100 * 100);

	m = sv_xmalloc(n * sizeof *m);
	for (k = 0; k < n; k++)
		m[k] = t->points[k].median_ns;
	med = trend_median(m, n);
	for (k = 0; k < n; k++)
		m[k] = fabs(t->points[k].median_ns - med);
	if (med != 0)
		t->jitter_pct = trend_median(m, n) / med * 100;
	free(m);
}

/* ---- change points ---------------------------------------------------------- */

/* One rank's series without its spikes, with prefix sums about its
 * mean. */
struct trend_series {
	const int64_t *x;   /* the whole series */
	const uint32_t *at; /* the positions in x of its n values kept */
	size_t n;
	long double ref; /* the mean the sums are taken about */
	double *s1, *s2; /* n + 1 prefix sums of (x - ref) and its square */
};

/* The best split of the values kept [a .. b): its T (0 when there is no
 * candidate).  The loop compares T^2 (n - 2) / n, one division a split,
 * and takes the square root once. */
static double trend_best_split(
	const struct trend_series *s, size_t a, size_t b, size_t *at)
{
	size_t n = b - a, k;
	double ref = (double)s->ref, best = 0, s1a = s->s1[a], s2a = s->s2[a];
	double t1 = s->s1[b] - s1a, t2 = s->s2[b] - s2a;

	for (k = a + SV_TREND_MIN_SEGMENT; k + SV_TREND_MIN_SEGMENT <= b; k++) {
		double n1 = (double)(k - a), n2 = (double)(b - k);
		double l1 = s->s1[k] - s1a, l2 = s->s2[k] - s2a;
		double r1 = t1 - l1, r2 = t2 - l2;
		double m1 = l1 / n1, m2 = r1 / n2, diff = m2 - m1;
		double ss = (l2 - l1 * m1) + (r2 - r1 * m2), stat;
		double lv1 = fabs(ref + m1), lv2 = fabs(ref + m2);

		if (diff == 0 || fabs(diff) < SV_TREND_MIN_SHIFT *
						      (lv1 > lv2 ? lv1 : lv2))
			continue;
		/* T^2 = diff^2 / (ss / (n - 2) * (1/n1 + 1/n2)) */
		stat = ss > 0 ? diff * diff * n1 * n2 / ss : INFINITY;
		if (stat > best) {
			best = stat;
			*at = k;
		}
	}
	return sqrt(best * (double)(n - 2) / (double)n);
}

static int trend_size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

/* Binary segmentation of s's values kept: the splits, ascending, into
 * *cuts (malloc'd); returns their count. */
static size_t trend_segment(const struct trend_series *s, size_t **cuts)
{
	size_t *stack = NULL, cap = 0, depth = 0, ncut = 0, ccap = 0;
	size_t a, b, k = 0;

	*cuts = NULL;
	sv_grow((void **)&stack, &cap, 2, sizeof *stack);
	stack[depth++] = 0;
	stack[depth++] = s->n;
	while (depth) {
		b = stack[--depth];
		a = stack[--depth];
		if (b - a < 2 * SV_TREND_MIN_SEGMENT ||
			trend_best_split(s, a, b, &k) < SV_TREND_THRESHOLD)
			continue;
		sv_grow((void **)cuts, &ccap, ncut + 1, sizeof **cuts);
		(*cuts)[ncut++] = k;
		sv_grow((void **)&stack, &cap, depth + 4, sizeof *stack);
		stack[depth++] = a;
		stack[depth++] = k;
		stack[depth++] = k;
		stack[depth++] = b;
	}
	free(stack);
	if (ncut)
		qsort(*cuts, ncut, sizeof **cuts, trend_size_cmp);
	return ncut;
}

static void trend_order2(int64_t *a, int64_t *b)
{
	if (*a > *b) {
		int64_t t = *a;
		*a = *b;
		*b = t;
	}
}

/* The median of five values (the third smallest) in six comparisons:
 * with a <= b, c <= d and a <= c, a lies below three others and is the
 * smallest or the second smallest, so the median is the second smallest
 * of the other four: of the pairs b <= e and c <= d, the larger of
 * their minima's partner and the other minimum, whichever is smaller. */
static int64_t trend_median_of_5(
	int64_t a, int64_t b, int64_t c, int64_t d, int64_t e)
{
	int64_t t;

	trend_order2(&a, &b);
	trend_order2(&c, &d);
	if (a > c) { /* the pairs the other way round; a is not needed */
		t = b;
		b = d;
		d = t;
		c = a;
	}
	trend_order2(&b, &e);
	return b < c ? (e < c ? e : c) : (b < d ? b : d);
}

/* numpy.median of x[i - 2 .. i + 2] (as much of it as x[0 .. n) has). */
static double trend_median5(const int64_t *x, size_t n, size_t i)
{
	int64_t w[5], v;
	size_t lo = i >= 2 ? i - 2 : 0, hi = i + 3 < n ? i + 3 : n, m = 0, j;

	if (hi - lo == 5)
		return (double)trend_median_of_5(
			x[lo], x[lo + 1], x[lo + 2], x[lo + 3], x[lo + 4]);
	for (; lo < hi; lo++) {
		v = x[lo];
		for (j = m++; j > 0 && w[j - 1] > v; j--)
			w[j] = w[j - 1];
		w[j] = v;
	}
	return m % 2 ? (double)w[m / 2]
		     : ((double)w[m / 2 - 1] + (double)w[m / 2]) / 2;
}

/* Distances whose median makes the scale of a spike: at most this many,
 * evenly spaced over the series (the scale is a threshold's unit, and
 * 65,536 distances give it within a few parts in a thousand). */
#define TREND_SCALE_SAMPLE 65536

/* The positions of x[0 .. n) that are not spikes, into at; returns
 * their count.  r is scratch of n, tmp of n + 1. */
static size_t trend_inliers(
	const int64_t *x, size_t n, double *r, double *tmp, uint32_t *at)
{
	size_t i, m = 0,
		  step = (n + TREND_SCALE_SAMPLE - 1) / TREND_SCALE_SAMPLE;
	double sum = 0, scale;

	for (i = 0; i < n; i++) {
		r[i] = fabs((double)x[i] - trend_median5(x, n, i));
		sum += r[i];
	}
	for (i = 0; i < n; i += step)
		tmp[m++] = r[i];
	scale = 1.4826 * trend_median(tmp, m);
	if (scale == 0)
		scale = 1.2533 * sum / (double)n;
	m = 0;
	for (i = 0; i < n; i++)
		if (scale > 0 ? r[i] <= SV_TREND_SPIKE * scale : r[i] == 0)
			at[m++] = (uint32_t)i;
	return m;
}

/* The mean of x[a .. b) (a < b). */
static double trend_mean(const int64_t *x, size_t a, size_t b)
{
	long double sum = 0;
	size_t i;

	for (i = a; i < b; i++)
		sum += (long double)x[i];
	return (double)(sum / (long double)(b - a));
}

/* Scratch for one rank's series, as long as the longest. */
struct trend_scratch {
	double *s1, *s2;
	uint32_t *at;
};

/* The change points of rank's series x[0 .. n), appended to t. */
static void trend_rank_changes(struct sv_trend *t, size_t *cap, uint32_t rank,
	const int64_t *x, size_t n, struct trend_scratch *w)
{
	struct trend_series s = {x, w->at, 0, 0, w->s1, w->s2};
	long double sum = 0;
	size_t *cuts, ncut, j, k;

	if (n < 2 * SV_TREND_MIN_SEGMENT)
		return;
	s.n = trend_inliers(x, n, w->s2, w->s1, w->at);
	if (s.n < 2 * SV_TREND_MIN_SEGMENT)
		return;
	for (k = 0; k < s.n; k++)
		sum += (long double)x[s.at[k]];
	s.ref = sum / (long double)s.n;
	w->s1[0] = w->s2[0] = 0;
	for (k = 0; k < s.n; k++) {
		double c = (double)((long double)x[s.at[k]] - s.ref);
		w->s1[k + 1] = w->s1[k] + c;
		w->s2[k + 1] = w->s2[k] + c * c;
	}
	ncut = trend_segment(&s, &cuts);
	for (j = 0; j < ncut; j++) {
		size_t a = j ? s.at[cuts[j - 1]] : 0, at = s.at[cuts[j]];
		size_t b = j + 1 < ncut ? s.at[cuts[j + 1]] : n;
		struct sv_trend_change *c;
		sv_grow((void **)&t->changes, cap, t->nchanges + 1,
			sizeof *t->changes);
		c = &t->changes[t->nchanges++];
		c->index = (uint32_t)at;
		c->rank = rank;
		c->before_ns = trend_mean(x, a, at);
		c->after_ns = trend_mean(x, at, b);
	}
	free(cuts);
}

static int trend_change_cmp(const void *a, const void *b)
{
	const struct sv_trend_change *x = a, *y = b;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

void sv_trend_sort_changes(struct sv_trend_change *c, size_t n)
{
	if (n)
		qsort(c, n, sizeof *c, trend_change_cmp);
}

/* Every rank's change points, by iteration; -ECANCELED. */
static int trend_changes(
	struct sv_trend *t, const int64_t *v, const struct sv_trend_opts *o)
{
	struct trend_scratch w;
	size_t i, cap = 0, maxlen = 0;
	int rc = 0;

	for (i = 0; i < t->nranks; i++)
		if (t->off[i + 1] - t->off[i] > maxlen)
			maxlen = t->off[i + 1] - t->off[i];
	w.s1 = sv_xmalloc((maxlen + 1) * sizeof *w.s1);
	w.s2 = sv_xmalloc((maxlen + 1) * sizeof *w.s2);
	w.at = sv_xmalloc((maxlen + 1) * sizeof *w.at);
	for (i = 0; i < t->nranks && !rc; i++) {
		if (trend_cancelled(o))
			rc = -ECANCELED;
		else
			trend_rank_changes(t, &cap, t->ranks[i], v + t->off[i],
				t->off[i + 1] - t->off[i], &w);
	}
	sv_free_big(w.s1);
	sv_free_big(w.s2);
	sv_free_big(w.at);
	if (!rc)
		sv_trend_sort_changes(t->changes, t->nchanges);
	return rc;
}

/* ---- the whole -------------------------------------------------------------- */

/* Check the arguments (*opts NULL: the defaults), then each rank's calls
 * of region in start order into *t and their values into *v (malloc'd,
 * aligned with t->calls); 0 or an error as sv_trend_compute's. */
static int trend_begin(struct sv_trend *t, const struct sv_profile *p,
	uint32_t region, const struct sv_trend_opts **opts, int64_t **v,
	struct sv_error *err)
{
	static const struct sv_trend_opts none;
	size_t n;

	*opts = *opts ? *opts : &none;
	if (!p)
		return sv_error_set(err, -EINVAL, "no profile");
	if (region >= p->nregions)
		return sv_error_set(err, -EINVAL,
			"region %u out of range (the profile has %u)",
			(unsigned)region, (unsigned)p->nregions);
	if (!p->has_calls)
		return sv_error_set(err, -EINVAL,
			"%s holds no per-call data: no iterations to follow",
			p->path ? p->path : "the profile");
	if ((*opts)->metric == SV_TREND_EXCLUSIVE && p->ncalls &&
		!sv_profile_has_exclusive(p))
		return sv_error_set(err, -EINVAL, "%s has no exclusive times",
			p->path ? p->path : "the profile");
	memset(t, 0, sizeof *t);
	t->region = region;
	t->metric = (*opts)->metric;
	t->drift_pct_per_100 = t->jitter_pct = NAN;
	n = trend_gather(t, p, region, *opts);
	*v = sv_xmalloc((n ? n : 1) * sizeof **v);
	trend_values(t, p, t->calls, n, *v);
	return 0;
}

/* The end of a computation that stopped with rc (t freed), or not. */
static int trend_stop(
	struct sv_trend *t, int64_t *v, int rc, struct sv_error *err)
{
	sv_free_big(v);
	if (!rc)
		return 0;
	sv_trend_fini(t);
	return sv_error_set(err, rc, "stopped");
}

int sv_trend_compute(struct sv_trend *out, const struct sv_profile *p,
	uint32_t region, const struct sv_trend_opts *opts, struct sv_error *err)
{
	struct sv_trend t;
	int64_t *v;
	int rc;

	if (!out)
		return sv_error_set(err, -EINVAL, "no profile");
	if ((rc = trend_begin(&t, p, region, &opts, &v, err)) < 0)
		return rc;
	rc = trend_cancelled(opts) ? -ECANCELED : trend_points(&t, v, opts);
	if (!rc)
		rc = trend_changes(&t, v, opts);
	if ((rc = trend_stop(&t, v, rc, err)) < 0)
		return rc;
	sv_trend_finish(&t);
	*out = t;
	return 0;
}

int sv_trend_series(struct sv_trend *out, const struct sv_profile *p,
	uint32_t region, const struct sv_trend_opts *opts, int64_t **values,
	struct sv_error *err)
{
	struct sv_trend t;
	int64_t *v;
	int rc;

	if (!out || !values)
		return sv_error_set(err, -EINVAL, "no profile");
	if ((rc = trend_begin(&t, p, region, &opts, &v, err)) < 0)
		return rc;
	if ((rc = trend_changes(&t, v, opts)) < 0)
		return trend_stop(&t, v, rc, err);
	*out = t;
	*values = v;
	return 0;
}

void sv_trend_fini(struct sv_trend *t)
{
	if (!t)
		return;
	free(t->points);
	free(t->changes);
	free(t->ranks);
	free(t->off);
	free(t->calls);
	memset(t, 0, sizeof *t);
}
