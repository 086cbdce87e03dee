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
#include <stdlib.h>
#include <string.h>

/* Fewer values than this are selected in place. */
#define SELECT_MIN_BUCKETED 4096
/* Buckets: 0 for the negatives, then 64 for each power of two. */
#define SELECT_MANT    6
#define SELECT_BUCKETS 4096
/* At most this many order statistics at once (two a percentile). */
#define SELECT_MAX_RANKS 16

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

/* The bucket of x: 0 for x < 0, else 1 + 64 e + m for x (0 taken as 1)
 * between 2^e and 2^(e+1), m its next SELECT_MANT bits.  Never smaller
 * for a larger x; below SELECT_BUCKETS. */
static inline unsigned select_bucket(int64_t x)
{
	uint64_t u = (uint64_t)x | 1;
	unsigned e, m;

	if (x < 0)
		return 0;
	e = 63u - (unsigned)__builtin_clzll(u);
	m = e >= SELECT_MANT ? (unsigned)(u >> (e - SELECT_MANT))
			     : (unsigned)(u << (SELECT_MANT - e));
	return 1u + (e << SELECT_MANT) + (m & ((1u << SELECT_MANT) - 1));
}

/*
 * The values of v[0..n) at the ascending ranks rank[0..nrank) into
 * val[], through the buckets; false (nothing written) when the buckets
 * holding them hold more than a quarter of the values (nearly all equal,
 * say), which selection in place handles better.
 */
static bool select_bucketed(const int64_t *v, size_t n, const size_t *rank,
	size_t nrank, int64_t *val)
{
	uint32_t count[SELECT_BUCKETS];
	unsigned char slot[SELECT_BUCKETS];
	unsigned bucket[SELECT_MAX_RANKS], nb = 0, of[SELECT_MAX_RANKS];
	size_t below[SELECT_MAX_RANKS], fill[SELECT_MAX_RANKS + 1];
	size_t at[SELECT_MAX_RANKS];
	size_t i, j, cum = 0, total = 0;
	unsigned b = 0;
	int64_t *g;

	memset(count, 0, sizeof count);
	for (i = 0; i < n; i++)
		count[select_bucket(v[i])]++;
	/* Each rank's bucket, and the values below that bucket. */
	for (j = 0; j < nrank; j++) {
		while (cum + count[b] <= rank[j])
			cum += count[b++];
		if (!nb || bucket[nb - 1] != b) {
			bucket[nb] = b;
			below[nb++] = cum;
			total += count[b];
		}
		of[j] = nb - 1;
	}
	if (total > n / 4)
		return false;
	memset(slot, 0xff, sizeof slot);
	fill[0] = 0;
	for (j = 0; j < nb; j++) {
		slot[bucket[j]] = (unsigned char)j;
		fill[j + 1] = fill[j] + count[bucket[j]];
	}
	g = sv_xmalloc((total ? total : 1) * sizeof *g);
	memcpy(at, fill, nb * sizeof *at);
	for (i = 0; i < n; i++) {
		unsigned s = slot[select_bucket(v[i])];
		if (s != 0xff)
			g[at[s]++] = v[i];
	}
	/* Each rank within its bucket's values, ascending, so each is
	 * selected right of the one before it in the same bucket. */
	memcpy(at, fill, nb * sizeof *at);
	for (j = 0; j < nrank; j++) {
		unsigned s = of[j];
		size_t k = fill[s] + (rank[j] - below[s]);
		stats_select(g, at[s], fill[s + 1], k);
		val[j] = g[k];
		at[s] = k + 1;
	}
	/* Tens of MB at 100M calls, freed on a worker while the loop runs:
	 * in steps, so the loop's own mappings never wait long for it. */
	sv_free_big(g);
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
	size_t need[SELECT_MAX_RANKS], nneed = 0, i, j, from = 0;
	size_t lo[SELECT_MAX_RANKS / 2];
	int64_t val[SELECT_MAX_RANKS];
	double gamma[SELECT_MAX_RANKS / 2];

	if (npct > SELECT_MAX_RANKS / 2)
		npct = SELECT_MAX_RANKS / 2;
	for (i = 0; i < npct; i++) {
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
	for (i = j = 0; i < nneed; i++)
		if (!j || need[i] != need[j - 1])
			need[j++] = need[i];
	nneed = j;
	if (n < SELECT_MIN_BUCKETED ||
		!select_bucketed(v, n, need, nneed, val)) {
		for (i = 0; i < nneed; i++) {
			stats_select(v, from, n, need[i]);
			from = need[i] + 1;
			val[i] = v[need[i]];
		}
	}
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

double sv_stats_percentile_of(int64_t *v, size_t n, double pct)
{
	double out = 0;
	if (!v || n == 0)
		return 0;
	sv_stats_percentiles(v, n, &pct, &out, 1);
	return out;
}
