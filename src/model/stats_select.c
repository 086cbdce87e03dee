/*
 * stats_select.c: the order statistics every percentile of the tables
 * uses (stats_row.c for a row, stats_region.c for a region's pool), with
 * numpy's 'linear' interpolation between them.
 *
 * A few thousand values are selected in place (quickselect).  More go
 * through buckets: one pass counts the values into SELECT_BUCKETS buckets
 * by their leading bits (a bucket's values all lie below the next
 * bucket's, so the k-th smallest value is in the bucket where the running
 * count passes k), a second copies out only the values of the buckets
 * that hold a wanted rank, and those few are selected.  Two reads of the
 * values and no writes to them, where quickselect moves them three or
 * four times over; the same answers, as the order is the same.
 */
#include "stats_priv.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define SELECT_MIN_BUCKETED SV_STATS_MIN_BUCKETED
#define SELECT_BUCKETS      SV_STATS_BUCKETS
#define SELECT_MAX_RANKS    SV_STATS_MAX_RANKS

int sv_stats_cmp_i64(const void *a, const void *b)
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
			qsort(v + lo, hi - lo, sizeof *v, sv_stats_cmp_i64);
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

/*
 * The plan of a selection through buckets: from the counts of the n
 * values in each bucket, the bucket of each wanted rank (ascending,
 * rank[0..nrank)) and where its values go in k->g; false when those
 * buckets hold more than a quarter of the values (nearly all equal, say),
 * which selection in place handles better.
 */
static bool select_plan(struct sv_stats_pick *k, const uint32_t *count,
	size_t n, const size_t *rank, size_t nrank)
{
	size_t j, cum = 0, total = 0;
	unsigned b = 0;

	k->nb = 0;
	/* Each rank's bucket, and the values below that bucket. */
	for (j = 0; j < nrank; j++) {
		while (cum + count[b] <= rank[j])
			cum += count[b++];
		if (!k->nb || k->bucket[k->nb - 1] != b) {
			k->bucket[k->nb] = b;
			k->below[k->nb++] = cum;
			total += count[b];
		}
		k->of[j] = k->nb - 1;
	}
	if (total > n / 4)
		return false;
	memset(k->slot, 0xff, sizeof k->slot);
	k->fill[0] = 0;
	for (j = 0; j < k->nb; j++) {
		k->slot[k->bucket[j]] = (unsigned char)j;
		k->fill[j + 1] = k->fill[j] + count[k->bucket[j]];
	}
	k->g = sv_xmalloc((total ? total : 1) * sizeof *k->g);
	memcpy(k->at, k->fill, k->nb * sizeof *k->at);
	return true;
}

/* The values at the wanted ranks into val[], once every value went
 * through sv_stats_pick_take: each rank is selected within its bucket's
 * values, ascending, right of the one before it in the same bucket. */
static void select_plan_end(
	struct sv_stats_pick *k, const size_t *rank, size_t nrank, int64_t *val)
{
	size_t j;

	memcpy(k->at, k->fill, k->nb * sizeof *k->at);
	for (j = 0; j < nrank; j++) {
		unsigned s = k->of[j];
		size_t r = k->fill[s] + (rank[j] - k->below[s]);
		stats_select(k->g, k->at[s], k->fill[s + 1], r);
		val[j] = k->g[r];
		k->at[s] = r + 1;
	}
	/* Tens of MB at 100M calls, freed on a worker while the loop runs:
	 * in steps, so the loop's own mappings never wait long for it. */
	sv_free_big(k->g);
	k->g = NULL;
}

/* The values of v[0..n) at the ascending ranks rank[0..nrank) into
 * val[], through the buckets: two reads of v, or one when its counts by
 * bucket are given (count; NULL: counted here); false (nothing written)
 * as select_plan. */
static bool select_bucketed(const int64_t *v, size_t n, const uint32_t *count,
	const size_t *rank, size_t nrank, int64_t *val)
{
	uint32_t own[SELECT_BUCKETS];
	struct sv_stats_pick k;
	size_t i;

	if (!count) {
		memset(own, 0, sizeof own);
		for (i = 0; i < n; i++)
			own[sv_stats_bucket(v[i])]++;
		count = own;
	}
	if (!select_plan(&k, count, n, rank, nrank))
		return false;
	for (i = 0; i < n; i++)
		sv_stats_pick_take(&k, v[i]);
	select_plan_end(&k, rank, nrank, val);
	return true;
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

/* The value at rank k, one of need[0..n). */
static int64_t select_value(
	const size_t *need, const int64_t *val, size_t n, size_t k)
{
	size_t i;

	for (i = 0; i + 1 < n && need[i] != k; i++)
		;
	return val[i];
}

/* The order statistics numpy's 'linear' percentiles pct[0..npct) of n
 * values need: position (n - 1) * pct / 100 between ranks lo[i] and
 * lo[i] + 1 at gamma[i]; the ranks, ascending and without repeats, into
 * need[0..*nneed).  Returns npct, at most SELECT_MAX_RANKS / 2. */
static size_t pct_ranks(size_t n, const double *pct, size_t npct, size_t *lo,
	double *gamma, size_t *need, size_t *nneed)
{
	size_t i, j, m = 0;

	if (npct > SELECT_MAX_RANKS / 2)
		npct = SELECT_MAX_RANKS / 2;
	for (i = 0; i < npct; i++) {
		double vi = (double)(n - 1) * (pct[i] / 100.0);
		double fl = floor(vi);
		lo[i] = fl < 0 ? 0 : (size_t)fl;
		if (lo[i] > n - 1)
			lo[i] = n - 1;
		gamma[i] = vi - fl;
		need[m++] = lo[i];
		if (lo[i] + 1 < n)
			need[m++] = lo[i] + 1;
	}
	/* Sort the wanted ranks (a handful) and drop repeats. */
	for (i = 1; i < m; i++)
		for (j = i; j > 0 && need[j - 1] > need[j]; j--) {
			size_t t = need[j];
			need[j] = need[j - 1];
			need[j - 1] = t;
		}
	for (i = j = 0; i < m; i++)
		if (!j || need[i] != need[j - 1])
			need[j++] = need[i];
	*nneed = j;
	return npct;
}

/* The percentiles from the order statistics val[i] at need[i]. */
static void pct_interp(size_t n, const size_t *lo, const double *gamma,
	size_t npct, const size_t *need, const int64_t *val, size_t nneed,
	double *out)
{
	size_t i;

	for (i = 0; i < npct; i++) {
		int64_t a = select_value(need, val, nneed, lo[i]);
		if (lo[i] + 1 >= n)
			out[i] = (double)a;
		else
			out[i] = stats_lerp(a,
				select_value(need, val, nneed, lo[i] + 1),
				gamma[i]);
	}
}

/*
 * Several percentiles of v[0..n) at once, numpy 'linear': position
 * (n - 1) * pct / 100, interpolated between its neighbours.  The order
 * statistics needed are found in ascending order: through the buckets,
 * or selected in place, each in the part of the array right of the
 * previous one.
 */
void sv_stats_percentiles(
	int64_t *v, size_t n, const double *pct, double *out, size_t npct)
{
	sv_stats_percentiles_counted(v, n, NULL, pct, out, npct);
}

void sv_stats_percentiles_counted(int64_t *v, size_t n, const uint32_t *count,
	const double *pct, double *out, size_t npct)
{
	size_t need[SELECT_MAX_RANKS], nneed, i, from = 0;
	size_t lo[SELECT_MAX_RANKS / 2];
	int64_t val[SELECT_MAX_RANKS];
	double gamma[SELECT_MAX_RANKS / 2];

	npct = pct_ranks(n, pct, npct, lo, gamma, need, &nneed);
	if (n < SELECT_MIN_BUCKETED ||
		!select_bucketed(v, n, count, need, nneed, val)) {
		for (i = 0; i < nneed; i++) {
			stats_select(v, from, n, need[i]);
			from = need[i] + 1;
			val[i] = v[need[i]];
		}
	}
	pct_interp(n, lo, gamma, npct, need, val, nneed, out);
}

bool sv_stats_pick_begin(struct sv_stats_pick *k, const uint32_t *count,
	size_t n, const double *pct, size_t npct)
{
	memset(k, 0, offsetof(struct sv_stats_pick, slot));
	k->g = NULL;
	if (n < SELECT_MIN_BUCKETED)
		return false;
	k->n = n;
	k->npct = pct_ranks(n, pct, npct, k->lo, k->gamma, k->need, &k->nneed);
	return select_plan(k, count, n, k->need, k->nneed);
}

void sv_stats_pick_end(struct sv_stats_pick *k, double *out)
{
	int64_t val[SELECT_MAX_RANKS];

	select_plan_end(k, k->need, k->nneed, val);
	pct_interp(k->n, k->lo, k->gamma, k->npct, k->need, val, k->nneed, out);
}

double sv_stats_percentile_of(int64_t *v, size_t n, double pct)
{
	double out = 0;
	if (!v || n == 0)
		return 0;
	sv_stats_percentiles(v, n, &pct, &out, 1);
	return out;
}

size_t sv_stats_pct_need(size_t n, const double *pct, size_t npct, size_t *need)
{
	size_t lo[SELECT_MAX_RANKS / 2], nneed;
	double gamma[SELECT_MAX_RANKS / 2];

	pct_ranks(n, pct, npct, lo, gamma, need, &nneed);
	return nneed;
}

void sv_stats_pct_from(size_t n, const double *pct, size_t npct,
	const size_t *need, const int64_t *val, size_t nneed, double *out)
{
	size_t lo[SELECT_MAX_RANKS / 2], own[SELECT_MAX_RANKS], nown;
	double gamma[SELECT_MAX_RANKS / 2];

	npct = pct_ranks(n, pct, npct, lo, gamma, own, &nown);
	pct_interp(n, lo, gamma, npct, need, val, nneed, out);
}
