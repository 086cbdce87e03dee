/*
 * test_stats.c: statistics with scope-profiler's semantics (doc/format.md 10),
 * on profiles built in memory.  Expected figures were computed by hand and
 * checked with numpy (np.percentile default 'linear', np.std ddof 0).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/load.h"
#include "scopeview/profile.h"
#include "scopeview/regex.h"
#include "scopeview/stats.h"

#include "../src/model/stats_priv.h" /* sv_stats_bucket */

/* ---- a small builder ------------------------------------------------------ */

/*
 * Add a row of region name on rank with the calls in spec: blank-separated
 * "START:END" items, each optionally followed by "/tN" (thread id), "/kN"
 * (task id), "/gN" (gpu ns) and "/aN" (await ns).  An empty spec makes a
 * zero-call row.
 */
static struct sv_row *row(
	struct sv_profile *p, uint32_t rank, const char *name, const char *spec)
{
	int64_t reg = sv_profile_find_region(p, name);
	struct sv_row *r;
	uint64_t n = 0, k = 0;
	const char *s;
	char *end;

	if (reg < 0)
		reg = sv_profile_add_region(p, name);
	for (s = spec; *s; s++)
		if (*s == ':')
			n++;
	r = sv_profile_add_row(p, rank, (uint32_t)reg, n, NULL);
	ck_assert_ptr_nonnull(r);
	s = spec;
	while (k < n) {
		uint64_t c = r->first + k++;
		p->start_ns[c] = strtoll(s, &end, 10);
		ck_assert_int_eq(*end, ':');
		p->end_ns[c] = strtoll(end + 1, &end, 10);
		while (*end == '/') {
			char what = end[1];
			int64_t v = strtoll(end + 2, &end, 10);
			int64_t *col = NULL;
			switch (what) {
			case 't':
				col = sv_profile_column(p, &p->thread_id, -1);
				break;
			case 'k':
				col = sv_profile_column(p, &p->task_id, -1);
				break;
			case 'g':
				col = sv_profile_column(p, &p->gpu_ns, -1);
				r->has_gpu = r->has_gpu || v >= 0;
				break;
			case 'a':
				col = sv_profile_column(p, &p->await_ns, 0);
				break;
			default:
				ck_abort_msg("bad spec item %c", what);
			}
			col[c] = v;
		}
		s = end;
		while (*s == ' ')
			s++;
	}
	return r;
}

static struct sv_profile *finish(struct sv_profile *p)
{
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

static const struct sv_stats_region *region_of(
	const struct sv_stats_table *t, const char *name)
{
	size_t i;
	for (i = 0; i < t->nregions; i++)
		if (!strcmp(t->regions[i].name, name))
			return &t->regions[i];
	ck_abort_msg("region %s not in table", name);
	return NULL;
}

static const struct sv_stats *rank_of(
	const struct sv_stats_region *g, uint32_t rank)
{
	size_t i;
	for (i = 0; i < g->nranks; i++)
		if (g->ranks[i].rank == rank)
			return &g->ranks[i].s;
	ck_abort_msg("rank %u not in %s", rank, g->name);
	return NULL;
}

#define ck_near(a, b)                                                     \
	do {                                                              \
		double a_ = (a), b_ = (b);                                \
		ck_assert_msg(fabs(a_ - b_) <= 1e-12 * fmax(1, fabs(b_)), \
			"%s = %.17g, expected %.17g", #a, a_, b_);        \
	} while (0)

static void table(struct sv_stats_table *t, const struct sv_profile *p,
	const struct sv_stats_filter *f)
{
	struct sv_error err = {0};
	ck_assert_int_eq(sv_stats_table_compute(t, p, f, &err), 0);
}

/* ---- one call, zero calls --------------------------------------------------- */

START_TEST(one_call)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_table t;
	const struct sv_stats *s;

	row(p, 0, "solve", "100:130");
	finish(p);
	table(&t, p, NULL);
	ck_assert_uint_eq(t.nregions, 1);
	s = &t.regions[0].s;
	ck_assert_uint_eq(s->num_calls, 1);
	ck_assert_int_eq(s->total_ns, 30);
	ck_assert(s->has_exclusive);
	ck_assert_int_eq(s->exclusive_ns, 30);
	ck_assert(s->has_dist && s->has_first_last && s->has_std);
	ck_near(s->mean_ns, 30);
	ck_assert_int_eq(s->min_ns, 30);
	ck_assert_int_eq(s->max_ns, 30);
	ck_assert_int_eq(s->first_ns, 30);
	ck_assert_int_eq(s->last_ns, 30);
	ck_near(s->std_ns, 0);
	ck_assert(s->has_percentiles);
	ck_near(s->p50_ns, 30);
	ck_near(s->p95_ns, 30);
	ck_near(s->p99_ns, 30);
	ck_assert(!s->has_gpu);
	ck_assert(!s->has_await);
	ck_assert(s->has_span);
	ck_assert_int_eq(s->first_start_ns, 100);
	ck_assert_int_eq(s->last_end_ns, 130);
	ck_near(t.regions[0].rank_imbalance_pct, 0.0);
	ck_assert(t.regions[0].has_slowest_rank);
	ck_assert_uint_eq(t.regions[0].slowest_rank, 0);
	ck_assert(t.has_min_start);
	ck_assert_int_eq(t.min_start_ns, 100);
	ck_assert_int_eq(t.time_origin_ns, 100);
	ck_assert(!t.has_total_time);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(zero_calls)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_table t;
	const struct sv_stats_region *g;
	struct sv_stats_filter f = {0};
	double v;

	row(p, 0, "late", "500:600");
	row(p, 0, "never", "");
	finish(p);
	table(&t, p, NULL);
	ck_assert_uint_eq(t.nregions, 2);
	/* A region without calls has first start 0 and sorts first. */
	ck_assert_str_eq(t.regions[0].name, "never");
	g = &t.regions[0];
	ck_assert_uint_eq(g->s.num_calls, 0);
	ck_assert_int_eq(g->s.total_ns, 0);
	ck_assert(!g->s.has_dist);
	ck_assert(!g->s.has_first_last);
	ck_assert(!g->s.has_std);
	ck_assert(!g->s.has_percentiles);
	ck_assert(!g->s.has_span);
	ck_assert(!g->has_slowest_rank);
	ck_assert(!sv_stats_value(&g->s, SV_STATS_KEY_TOTAL, &v));
	ck_assert(!sv_stats_value(&g->s, SV_STATS_KEY_AVG, &v));
	ck_assert(sv_stats_value(&g->s, SV_STATS_KEY_CALLS, &v));
	ck_assert_int_eq(sv_stats_percentile(&t, 0, -1, 50, &v), -ENODATA);
	ck_assert_int_eq(t.min_start_ns, 500);
	sv_stats_table_fini(&t);

	f.skip_empty = true;
	table(&t, p, &f);
	ck_assert_uint_eq(t.nregions, 1);
	ck_assert_str_eq(t.regions[0].name, "late");
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(empty_profile_and_nulls)
{
	struct sv_profile *p = finish(sv_profile_new("mem.h5"));
	struct sv_stats_table t;
	struct sv_error err = {0};
	struct sv_stats s;

	table(&t, p, NULL);
	ck_assert_uint_eq(t.nregions, 0);
	ck_assert(!t.has_min_start);
	sv_stats_table_sort(&t, SV_STATS_KEY_TOTAL);
	sv_stats_table_fini(&t);
	ck_assert_int_eq(sv_stats_table_compute(&t, NULL, NULL, &err), -EINVAL);
	ck_assert_int_eq(err.code, -EINVAL);
	ck_assert(sv_stats_percentile_of(NULL, 0, 50) == 0);
	ck_assert(!sv_stats_value(NULL, SV_STATS_KEY_TOTAL, NULL));
	ck_assert(!sv_stats_value(&s, SV_STATS_KEY_NAME, NULL));
	ck_assert(!sv_stats_value(&s, SV_STATS_KEY_COUNT, NULL));
	sv_stats_table_sort(NULL, SV_STATS_KEY_TOTAL);
	{
		int64_t *d = (int64_t *)&err;
		bool *on = (bool *)&err;
		uint32_t n = 7;
		ck_assert_uint_eq(sv_stats_row_distinct(NULL, 0, NULL, &d), 0);
		ck_assert_ptr_null(d);
		ck_assert_uint_eq(
			sv_stats_row_distinct(p, 0, p->start_ns, &d), 0);
		ck_assert_int_eq(
			sv_stats_parse_ranks(NULL, &on, &n, &err), -EINVAL);
		ck_assert_uint_eq(n, 7);
	}
	ck_assert_int_eq(sv_stats_row(p, 0, NULL, &s), -EINVAL);
	ck_assert_int_eq(sv_stats_row(NULL, 0, NULL, &s), -EINVAL);
	sv_stats_table_fini(NULL);
	ck_assert_ptr_null(sv_stats_table_find(NULL, 0));
	sv_profile_free(p);
}
END_TEST

/* ---- display order ------------------------------------------------------------ */

START_TEST(display_order_ties)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_table t;
	const char *want[] = {"partly", "empty", "a", "c", "b", "b2", "d", "e"};
	size_t i;

	/* Base order: b a c d e b2 partly empty.  b and b2 first start at the
	 * same ns (the tie keeps base order); a's earliest call is not its
	 * first stored one; d's earliest call is on rank 2; a region without
	 * calls has first start 0 and comes first. */
	row(p, 0, "b", "1000:1010");
	row(p, 0, "a", "1000:1005 900:2000");
	row(p, 0, "c", "999:1000");
	row(p, 1, "e", "3000:3001");
	row(p, 1, "d", "3001:3002");
	row(p, 2, "d", "1500:1600");
	row(p, 1, "b2", "1000:1001");
	/* a zero-call row on one rank counts as first start 0 for the whole
	 * region (scope-profiler's min over every rank's first_start_time) */
	row(p, 1, "partly", "5000:5001");
	row(p, 0, "partly", "");
	row(p, 0, "empty", "");
	finish(p);
	table(&t, p, NULL);
	ck_assert_uint_eq(t.nregions, 8);
	for (i = 0; i < 8; i++)
		ck_assert_str_eq(t.regions[i].name, want[i]);
	sv_stats_table_fini(&t);
	sv_profile_free(p);

	/* Past 2^53 ns, starts 1 ns apart are the same float64 seconds to
	 * scope-profiler: a tie, kept in base order. */
	p = sv_profile_new("mem.h5");
	row(p, 0, "later", "18014398509481985:18014398509481990");
	row(p, 0, "earlier", "18014398509481984:18014398509481985");
	row(p, 0, "clearly", "18014398500000000:18014398500000001");
	finish(p);
	table(&t, p, NULL);
	ck_assert_str_eq(t.regions[0].name, "clearly");
	ck_assert_str_eq(t.regions[1].name, "later");
	ck_assert_str_eq(t.regions[2].name, "earlier");
	ck_assert_int_eq(t.min_start_ns, 18014398500000000);
	sv_stats_table_fini(&t);
	sv_profile_free(p);

	/* Exact ties among many regions keep base order (qsort is not
	 * stable: the base index must break them). */
	p = sv_profile_new("mem.h5");
	for (i = 0; i < 40; i++) {
		char name[16];
		snprintf(name, sizeof name, "r%02zu", 39 - i);
		row(p, (uint32_t)i, name, "5:6");
	}
	finish(p);
	table(&t, p, NULL);
	for (i = 0; i < 40; i++) {
		char name[16];
		snprintf(name, sizeof name, "r%02zu", 39 - i);
		ck_assert_str_eq(t.regions[i].name, name);
	}
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* ---- percentiles --------------------------------------------------------------- */

static const struct {
	int64_t v[12];
	size_t n;
	double pct, want; /* numpy.percentile(v, pct) */
} pct_cases[] = {
	{{1, 2, 3, 4, 10}, 5, 0, 1.0},
	{{1, 2, 3, 4, 10}, 5, 25, 2.0},
	{{1, 2, 3, 4, 10}, 5, 33.3, 2.332},
	{{1, 2, 3, 4, 10}, 5, 50, 3.0},
	{{1, 2, 3, 4, 10}, 5, 95, 8.799999999999999},
	{{1, 2, 3, 4, 10}, 5, 99, 9.76},
	{{1, 2, 3, 4, 10}, 5, 100, 10.0},
	{{15, 5, 13}, 3, 95, 14.8},
	{{15, 5, 13}, 3, 99, 14.96},
	{{15, 5, 13}, 3, 33.3, 10.328},
	{{7}, 1, 0, 7.0},
	{{7}, 1, 99, 7.0},
	{{0, 5, 0, 0}, 4, 95, 4.249999999999998},
	{{0, 5, 0, 0}, 4, 99, 4.849999999999999},
	{{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5}, 11, 25, 2.5},
	{{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5}, 11, 99, 8.700000000000001},
	{{-5, 5}, 2, 50, 0.0},
};

START_TEST(percentile_table)
{
	int64_t v[12];
	double got;

	memcpy(v, pct_cases[_i].v, sizeof v);
	got = sv_stats_percentile_of(v, pct_cases[_i].n, pct_cases[_i].pct);
	/* numpy's own rounding is reproduced: exact equality */
	ck_assert_msg(got == pct_cases[_i].want,
		"case %d: percentile %g = %.17g, numpy says %.17g", _i,
		pct_cases[_i].pct, got, pct_cases[_i].want);
}
END_TEST

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* numpy's percentile of sorted[0..n) (differences that fit in int64). */
static double percentile_sorted(const int64_t *sorted, size_t n, double pct)
{
	double pos = (double)(n - 1) * (pct / 100.0);
	size_t lo = (size_t)floor(pos);
	double g = pos - floor(pos);

	if (lo + 1 >= n)
		return (double)sorted[n - 1];
	if (g >= 0.5)
		return (double)sorted[lo + 1] -
		       (double)(sorted[lo + 1] - sorted[lo]) * (1 - g);
	return (double)sorted[lo] + (double)(sorted[lo + 1] - sorted[lo]) * g;
}

/* Selection agrees with a full sort on random data with many repeats. */
START_TEST(percentile_vs_sort)
{
	size_t n, i, trial;
	unsigned seed = 12345;

	for (trial = 0; trial < 200; trial++) {
		int64_t *v, *sorted;
		double pct = (double)(trial % 101);
		n = 1 + (size_t)(rand_r(&seed) % 3000);
		v = malloc(n * sizeof *v);
		sorted = malloc(n * sizeof *v);
		for (i = 0; i < n; i++)
			v[i] = trial % 3 == 0   ? rand_r(&seed) % 4
			       : trial % 3 == 1 ? (int64_t)i
						: rand_r(&seed);
		memcpy(sorted, v, n * sizeof *v);
		qsort(sorted, n, sizeof *v, cmp64);
		ck_assert_msg(sv_stats_percentile_of(v, n, pct) ==
				      percentile_sorted(sorted, n, pct),
			"trial %zu n %zu pct %g", trial, n, pct);
		free(v);
		free(sorted);
	}
}
END_TEST

/* Many values go through buckets by their leading bits: the same answers
 * as a sort for skewed durations, negatives among them, values at the
 * ends of int64's range, a few distinct values (every wanted rank in one
 * bucket: selected in place) and ranks falling in one bucket together. */
START_TEST(percentile_many_vs_sort)
{
	static const double pcts[] = {0, 1, 25, 50, 95, 99, 99.9, 100};
	unsigned seed = 777;
	size_t n = 20000 + (size_t)_i * 7919, i, k;
	int64_t *v = malloc(n * sizeof *v), *sorted = malloc(n * sizeof *v);
	int64_t *work = malloc(n * sizeof *v);

	for (i = 0; i < n; i++) {
		int64_t r = rand_r(&seed);
		switch (_i) {
		case 0: /* log-normal-like: a few us, a long tail */
			v[i] = 1000 + r % 4000 + (r % 97 == 0 ? r * 64 : 0);
			break;
		case 1: /* negatives and zeros among them */
			v[i] = r % 5 == 0 ? -(r % 1000) : r % 3 == 0 ? 0 : r;
			break;
		case 2: /* the ends of int64 (differences kept in range) */
			v[i] = r % 2 ? INT64_MAX - r % 50 : INT64_MAX / 2 + r;
			break;
		case 3: /* three values only */
			v[i] = 1000 * (r % 3);
			break;
		default: /* one value but for a few */
			v[i] = i % 1000 == 0 ? r : 42;
			break;
		}
	}
	memcpy(sorted, v, n * sizeof *v);
	qsort(sorted, n, sizeof *v, cmp64);
	for (k = 0; k < sizeof pcts / sizeof *pcts; k++) {
		double want = percentile_sorted(sorted, n, pcts[k]);
		memcpy(work, v, n * sizeof *v);
		ck_assert_msg(sv_stats_percentile_of(work, n, pcts[k]) == want,
			"case %d pct %g: %.17g, a sort says %.17g", _i, pcts[k],
			sv_stats_percentile_of(work, n, pcts[k]), want);
	}
	free(v);
	free(sorted);
	free(work);
}
END_TEST

/* The two-step percentiles of scopeview-mpi (sv_stats_pct_need, then the
 * order statistics found elsewhere, then sv_stats_pct_from) give exactly
 * what sv_stats_percentile_of gives, for small and odd sizes and the
 * percentiles the reports use with the ends. */
START_TEST(percentile_two_steps)
{
	static const double pcts[] = {50, 95, 99, 0, 100, 0.1};
	static const size_t npcts[] = {3, 6};
	unsigned seed = 4242 + (unsigned)_i;
	size_t n = 1 + (size_t)_i * (size_t)_i * 3, i, k, j, nneed;
	int64_t *v = malloc(n * sizeof *v), *sorted = malloc(n * sizeof *v);
	int64_t *work = malloc(n * sizeof *v), val[SV_STATS_PCT_NEED_MAX];
	size_t need[SV_STATS_PCT_NEED_MAX];
	double out[6];

	for (i = 0; i < n; i++)
		v[i] = (int64_t)(rand_r(&seed) % 100000) - (_i % 3 ? 0 : 500);
	memcpy(sorted, v, n * sizeof *v);
	qsort(sorted, n, sizeof *v, cmp64);
	for (j = 0; j < 2; j++) {
		nneed = sv_stats_pct_need(n, pcts, npcts[j], need);
		ck_assert_uint_ge(nneed, 1);
		ck_assert_uint_le(nneed, SV_STATS_PCT_NEED_MAX);
		for (k = 0; k < nneed; k++) {
			ck_assert_uint_lt(need[k], n);
			if (k)
				ck_assert_uint_gt(need[k], need[k - 1]);
			val[k] = sorted[need[k]];
		}
		sv_stats_pct_from(n, pcts, npcts[j], need, val, nneed, out);
		for (k = 0; k < npcts[j]; k++) {
			double want;
			memcpy(work, v, n * sizeof *v);
			want = sv_stats_percentile_of(work, n, pcts[k]);
			ck_assert_msg(out[k] == want,
				"n %zu pct %g: %.17g, one step says %.17g", n,
				pcts[k], out[k], want);
		}
	}
	free(v);
	free(sorted);
	free(work);
}
END_TEST

START_TEST(percentile_query)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_table t;
	double v;

	row(p, 0, "x", "0:1 10:12 20:23 30:34");
	row(p, 1, "x", "0:10");
	finish(p);
	table(&t, p, NULL);
	/* pooled: 1 2 3 4 10 */
	ck_assert_int_eq(sv_stats_percentile(&t, 0, -1, 95, &v), 0);
	ck_assert(v == 8.799999999999999);
	ck_near(t.regions[0].s.p95_ns, 8.799999999999999);
	ck_near(t.regions[0].s.p50_ns, 3);
	ck_near(t.regions[0].s.p99_ns, 9.76);
	/* rank 1 alone */
	ck_assert_uint_eq(t.regions[0].ranks[1].rank, 1);
	ck_assert_int_eq(sv_stats_percentile(&t, 0, 1, 50, &v), 0);
	ck_near(v, 10);
	ck_assert_int_eq(sv_stats_percentile(&t, 0, 0, 50, &v), 0);
	ck_near(v, 2.5);
	ck_assert_int_eq(sv_stats_percentile(&t, 0, -1, 100.5, &v), -EINVAL);
	ck_assert_int_eq(sv_stats_percentile(&t, 0, -1, -1, &v), -EINVAL);
	ck_assert_int_eq(sv_stats_percentile(&t, 0, -1, NAN, &v), -EINVAL);
	ck_assert_int_eq(sv_stats_percentile(&t, 0, 2, 50, &v), -EINVAL);
	ck_assert_int_eq(sv_stats_percentile(&t, 1, -1, 50, &v), -EINVAL);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* ---- std, mean, first and last -------------------------------------------------- */

START_TEST(row_figures)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats s;

	/* Storage order is not time order: first/last follow storage. */
	row(p, 0, "solve", "40:55 10:15 20:33");
	finish(p);
	ck_assert_int_eq(sv_stats_row(p, 0, NULL, &s), 0);
	ck_assert_uint_eq(s.num_calls, 3);
	ck_assert_int_eq(s.total_ns, 33);
	ck_near(s.mean_ns, 11);
	ck_near(s.std_ns, 4.320493798938574);
	ck_assert_int_eq(s.first_ns, 15);
	ck_assert_int_eq(s.last_ns, 13);
	ck_assert_int_eq(s.min_ns, 5);
	ck_assert_int_eq(s.max_ns, 15);
	ck_near(s.p50_ns, 13);
	ck_near(s.p95_ns, 14.8);
	ck_near(s.p99_ns, 14.96);
	ck_assert_int_eq(s.first_start_ns, 10);
	ck_assert_int_eq(s.last_end_ns, 55);
	sv_profile_free(p);
}
END_TEST

/* ---- nesting: recursion, zero-length calls, lanes ------------------------------- */

/* A time range: each call counts with its part inside (clipped at both
 * edges), exclusive time is that part minus its children's parts inside,
 * and the exclusive times of all regions add up to the time the lanes'
 * calls cover inside the range. */
START_TEST(time_range)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_table t;
	struct sv_stats_filter f = {0};
	const struct sv_stats_region *g;
	struct sv_error err = {0};
	atomic_bool stop = true;
	double med;
	size_t i;

	row(p, 0, "main", "0:1000");
	row(p, 0, "step", "100:400 500:900");
	row(p, 0, "kernel", "150:250 300:390 550:650 800:880");
	row(p, 0, "mark", "600:600 950:950");
	row(p, 1, "main", "0:1000/t1");
	row(p, 0, "gone", "10:20");
	finish(p);
	f.has_range = true;
	f.t0_ns = 200;
	f.t1_ns = 820;
	f.skip_empty = true;
	table(&t, p, &f);
	g = region_of(&t, "main");
	ck_assert_uint_eq(g->s.num_calls, 2);
	ck_assert_int_eq(g->s.total_ns, 1240);
	ck_assert_int_eq(g->s.exclusive_ns, 100 + 620);
	ck_assert_int_eq(g->s.min_ns, 620);
	ck_assert_int_eq(g->s.first_start_ns, 200);
	ck_assert_int_eq(g->s.last_end_ns, 820);
	g = region_of(&t, "step");
	ck_assert_int_eq(g->s.total_ns, 200 + 320);
	ck_assert_int_eq(g->s.exclusive_ns, (200 - 50 - 90) + (320 - 100 - 20));
	ck_assert_int_eq(g->s.min_ns, 200);
	ck_assert_int_eq(g->s.max_ns, 320);
	g = region_of(&t, "kernel");
	ck_assert_uint_eq(g->s.num_calls, 4);
	ck_assert_int_eq(g->s.total_ns, 50 + 90 + 100 + 20);
	ck_assert_int_eq(g->s.exclusive_ns, 260);
	ck_assert_int_eq(g->s.first_ns, 50);
	ck_assert_int_eq(g->s.last_ns, 20);
	ck_assert_int_eq(g->s.min_ns, 20);
	ck_near(g->s.p50_ns, 70.0);
	ck_assert(!g->s.has_gpu && !g->s.has_await);
	for (i = 0; i < t.nregions && t.regions + i != g; i++)
		;
	ck_assert_int_eq(sv_stats_percentile(&t, i, -1, 50, &med), 0);
	ck_near(med, 70.0);
	/* the zero-length call inside counts, the one outside does not */
	ck_assert_uint_eq(region_of(&t, "mark")->s.num_calls, 1);
	ck_assert_int_eq(region_of(&t, "mark")->s.total_ns, 0);
	/* no call of "gone" meets the range */
	for (i = 0; i < t.nregions; i++)
		ck_assert_str_ne(t.regions[i].name, "gone");
	/* exclusive adds up to the covered time: 620 on each lane */
	{
		int64_t sum = 0;
		for (i = 0; i < t.nregions; i++)
			sum += t.regions[i].s.exclusive_ns;
		ck_assert_int_eq(sum, 2 * 620);
	}
	sv_stats_table_fini(&t);
	/* the whole run as a range: the figures of no range */
	f.t0_ns = 0;
	f.t1_ns = 1000;
	table(&t, p, &f);
	ck_assert_int_eq(region_of(&t, "step")->s.exclusive_ns,
		(300 - 100 - 90) + (400 - 100 - 80));
	ck_assert_int_eq(region_of(&t, "main")->s.exclusive_ns,
		(1000 - 700 - 10) + 1000);
	sv_stats_table_fini(&t);
	/* a range ending before it starts; a cancelled computation */
	f.t0_ns = 10;
	f.t1_ns = 5;
	ck_assert_int_eq(sv_stats_table_compute(&t, p, &f, &err), -EINVAL);
	f.t1_ns = 500;
	f.cancel = &stop;
	ck_assert_int_eq(sv_stats_table_compute(&t, p, &f, &err), -ECANCELED);
	ck_assert_uint_eq(t.nregions, 0);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(recursion)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_table t;
	const struct sv_stats_region *fib, *main_;

	row(p, 0, "main", "0:200");
	row(p, 0, "fib", "10:110 20:60 30:40 120:150");
	finish(p);
	table(&t, p, NULL);
	fib = region_of(&t, "fib");
	main_ = region_of(&t, "main");
	/* inclusive counts every level: 100 + 40 + 10 + 30 */
	ck_assert_int_eq(fib->s.total_ns, 180);
	/* exclusive: 100-40, 40-10, 10, 30 */
	ck_assert_int_eq(fib->s.exclusive_ns, 60 + 30 + 10 + 30);
	ck_assert_int_eq(main_->s.exclusive_ns, 200 - 100 - 30);
	ck_assert_str_eq(t.regions[0].name, "main");
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(stored_exclusive_wins)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_table t;
	struct sv_stats_filter f = {0};
	struct sv_row *r;

	row(p, 0, "outer", "0:100");
	r = row(p, 0, "inner", "10:20");
	r->exclusive_total = 7; /* as stored, even if inconsistent */
	p->rows[0].exclusive_total = 90;
	finish(p);
	table(&t, p, NULL);
	ck_assert_int_eq(region_of(&t, "inner")->s.exclusive_ns, 7);
	ck_assert_int_eq(region_of(&t, "outer")->s.exclusive_ns, 90);
	sv_stats_table_fini(&t);
	/* Part of a row: the stored total cannot apply; per call it is. */
	f.by_thread = true;
	f.thread = -1;
	table(&t, p, &f);
	ck_assert_int_eq(region_of(&t, "inner")->s.exclusive_ns, 10);
	ck_assert_int_eq(region_of(&t, "outer")->s.exclusive_ns, 90);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(zero_length_calls)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_table t;
	const struct sv_stats_region *g;

	row(p, 0, "outer", "0:20");
	row(p, 0, "tick", "10:10 10:10 15:15 20:20");
	finish(p);
	table(&t, p, NULL);
	g = region_of(&t, "tick");
	ck_assert_uint_eq(g->s.num_calls, 4);
	ck_assert_int_eq(g->s.total_ns, 0);
	ck_assert(g->s.has_dist);
	ck_assert_int_eq(g->s.min_ns, 0);
	ck_assert_int_eq(g->s.max_ns, 0);
	ck_near(g->s.std_ns, 0);
	ck_near(g->s.p99_ns, 0);
	ck_assert_int_eq(g->s.exclusive_ns, 0);
	/* Zero-length children take nothing from their parent. */
	ck_assert_int_eq(region_of(&t, "outer")->s.exclusive_ns, 20);
	/* Zero total: not part of the imbalance, not a slowest rank. */
	ck_assert(!g->has_slowest_rank);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(overlapping_lanes)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_table t;
	struct sv_stats_filter f = {0};
	bool *lane_on;
	size_t i;

	/* Thread 0: A [0,100) holding B [10,60).  Thread 1: C [50,150)
	 * holding D [60,70): C overlaps A and B in time, which is fine. */
	row(p, 0, "A", "0:100/t0");
	row(p, 0, "B", "10:60/t0");
	row(p, 0, "C", "50:150/t1");
	row(p, 0, "D", "60:70/t1");
	finish(p);
	ck_assert_uint_eq(p->nwarnings, 0);
	table(&t, p, NULL);
	ck_assert_int_eq(region_of(&t, "A")->s.exclusive_ns, 50);
	ck_assert_int_eq(region_of(&t, "B")->s.exclusive_ns, 50);
	ck_assert_int_eq(region_of(&t, "C")->s.exclusive_ns, 90);
	ck_assert_int_eq(region_of(&t, "D")->s.exclusive_ns, 10);
	sv_stats_table_fini(&t);

	/* Solo the lane of thread 1. */
	ck_assert_uint_eq(p->nlanes, 2);
	lane_on = calloc(p->nlanes, sizeof *lane_on);
	for (i = 0; i < p->nlanes; i++)
		lane_on[i] = p->lanes[i].thread == 1;
	f.lane_on = lane_on;
	f.skip_empty = true;
	table(&t, p, &f);
	free(lane_on); /* the table keeps its own copy */
	ck_assert_uint_eq(t.nregions, 2);
	ck_assert_str_eq(t.regions[0].name, "C");
	ck_assert_str_eq(t.regions[1].name, "D");
	{
		double v;
		ck_assert_int_eq(sv_stats_percentile(&t, 0, -1, 50, &v), 0);
		ck_near(v, 100);
	}
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* ---- across ranks ------------------------------------------------------------- */

START_TEST(rank_imbalance_and_filter)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_table t;
	struct sv_stats_filter f = {0};
	const struct sv_stats_region *g;
	bool on[3] = {true, true, false};

	row(p, 0, "x", "100:110");
	row(p, 1, "x", "50:60 70:80");
	row(p, 2, "x", "10:40");
	p->num_ranks = 3;
	finish(p);
	table(&t, p, NULL);
	g = &t.regions[0];
	ck_assert_uint_eq(g->nranks, 3);
	ck_assert_uint_eq(g->s.num_calls, 4);
	ck_assert_int_eq(g->s.total_ns, 60);
	/* totals 10 20 30: 30 / 20 - 1 */
	ck_near(g->rank_imbalance_pct, 50.0);
	ck_assert_uint_eq(g->slowest_rank, 2);
	/* first: rank 2 starts earliest (10), its first call is 30 long;
	 * last: rank 0 ends latest (110) */
	ck_assert_int_eq(g->s.first_ns, 30);
	ck_assert_int_eq(g->s.last_ns, 10);
	ck_near(g->s.mean_ns, 15);
	/* pooled 10 10 10 30: std = sqrt(75) */
	ck_near(g->s.std_ns, sqrt(75.0));
	ck_near(g->s.p50_ns, 10);
	ck_assert_int_eq(g->s.first_start_ns, 10);
	ck_assert_int_eq(g->s.last_end_ns, 110);
	sv_stats_table_fini(&t);

	f.rank_on = on;
	f.nrank_on = 3;
	table(&t, p, &f);
	g = &t.regions[0];
	ck_assert_uint_eq(g->nranks, 2);
	ck_assert_uint_eq(g->s.num_calls, 3);
	ck_assert_int_eq(g->s.total_ns, 30);
	ck_near(g->rank_imbalance_pct, (20.0 / 15.0 - 1.0) * 100.0);
	ck_assert_uint_eq(g->slowest_rank, 1);
	ck_assert_int_eq(g->s.first_ns, 10); /* rank 1 starts at 50 */
	ck_assert_int_eq(g->s.first_start_ns, 50);
	ck_assert_int_eq(t.min_start_ns, 50);
	/* the time origin belongs to the run, not the selection */
	ck_assert_int_eq(t.time_origin_ns, 10);
	sv_stats_table_fini(&t);

	/* A filter that keeps no rank of the region. */
	on[0] = on[1] = false;
	on[2] = false;
	table(&t, p, &f);
	ck_assert_uint_eq(t.nregions, 1);
	ck_assert_uint_eq(t.regions[0].nranks, 0);
	ck_assert_uint_eq(t.regions[0].s.num_calls, 0);
	ck_assert_ptr_null(t.regions[0].tags_row);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(cross_rank_ties)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_table t;
	const struct sv_stats_region *g;

	/* Rows in file order: rank 2, rank 0, rank 1.  Ranks 2 and 0 start
	 * at the same ns and ranks 0 and 1 end at the same ns: the first row
	 * in file order wins each tie, not the lowest rank. */
	row(p, 2, "x", "100:107 300:301");
	row(p, 0, "x", "100:105 200:400");
	row(p, 1, "x", "150:160 390:400");
	row(p, 3, "x", ""); /* zero calls: never first or last */
	finish(p);
	table(&t, p, NULL);
	g = &t.regions[0];
	ck_assert_uint_eq(g->nranks, 4);
	ck_assert_uint_eq(g->ranks[0].rank, 0);
	ck_assert_uint_eq(g->ranks[3].rank, 3);
	ck_assert_int_eq(g->s.first_ns, 7);  /* rank 2's first call */
	ck_assert_int_eq(g->s.last_ns, 200); /* rank 0's last call */
	/* totals 8, 205, 20: rank 0 is the slowest */
	ck_assert_uint_eq(g->slowest_rank, 0);
	ck_near(g->rank_imbalance_pct, (205.0 / (233.0 / 3.0) - 1.0) * 100.0);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(source_and_tags_first_in_rank_order)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_table t;
	struct sv_row *r;
	const struct sv_stats_region *g;

	r = row(p, 1, "x", "0:1");
	r->source_file = sv_xstrdup("b.py");
	r->source_line = 9;
	r->tags = calloc(1, sizeof *r->tags);
	r->tags[0] = sv_xstrdup("one");
	r->ntags = 1;
	r = row(p, 0, "x", "0:1");
	r->source_line = 3;
	r->source_text = sv_xstrdup("with x:");
	finish(p);
	table(&t, p, NULL);
	g = &t.regions[0];
	ck_assert_str_eq(g->source_file, "b.py");
	ck_assert_int_eq(g->source_line, 3);
	ck_assert_str_eq(g->source_text, "with x:");
	/* tags: the lowest rank's (it has none) */
	ck_assert_ptr_nonnull(g->tags_row);
	ck_assert_uint_eq(g->tags_row->rank, 0);
	ck_assert_uint_eq(g->tags_row->ntags, 0);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(gpu_and_await)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_table t;
	const struct sv_stats_region *g;

	row(p, 0, "cpu", "0:10");
	row(p, 0, "kernel", "20:30/g4/a1 40:50/g6/a2");
	row(p, 1, "kernel", "20:30/a5");
	finish(p);
	table(&t, p, NULL);
	g = region_of(&t, "cpu");
	ck_assert(!g->s.has_gpu);
	ck_assert(g->s.has_await);
	ck_assert_int_eq(g->s.await_total_ns, 0);
	g = region_of(&t, "kernel");
	ck_assert(g->s.has_gpu);
	ck_assert_int_eq(g->s.gpu_total_ns, 10);
	ck_assert_uint_eq(g->s.gpu_count, 2);
	ck_near(g->s.gpu_mean_ns, 5);
	ck_assert(rank_of(g, 0)->has_gpu);
	ck_assert(!rank_of(g, 1)->has_gpu);
	ck_assert_int_eq(g->s.await_total_ns, 8);
	ck_assert_int_eq(rank_of(g, 1)->await_total_ns, 5);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(thread_filter)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_filter f = {0};
	struct sv_stats s;
	int64_t *d;
	size_t n;

	row(p, 0, "w", "0:10/t0 5:25/t1 30:60/t1/k3 70:71/t0");
	finish(p);
	f.by_thread = true;
	f.thread = 1;
	ck_assert_int_eq(sv_stats_row(p, 0, &f, &s), 0);
	ck_assert_uint_eq(s.num_calls, 2);
	ck_assert_int_eq(s.total_ns, 50);
	ck_assert_int_eq(s.first_ns, 20);
	ck_assert_int_eq(s.last_ns, 30);
	ck_assert_int_eq(s.first_start_ns, 5);
	f.thread = 7;
	ck_assert_int_eq(sv_stats_row(p, 0, &f, &s), 0);
	ck_assert_uint_eq(s.num_calls, 0);
	ck_assert(!s.has_dist);

	n = sv_stats_row_distinct(p, 0, p->thread_id, &d);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(d[0], 0);
	ck_assert_int_eq(d[1], 1);
	free(d);
	n = sv_stats_row_distinct(p, 0, p->task_id, &d);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(d[0], -1);
	ck_assert_int_eq(d[1], 3);
	free(d);
	ck_assert_uint_eq(sv_stats_row_distinct(p, 0, p->await_ns, &d), 0);
	ck_assert_ptr_null(d);
	sv_profile_free(p);
}
END_TEST

/* ---- rows without calls ----------------------------------------------------------- */

START_TEST(aggregate_rows)
{
	struct sv_profile *p = sv_profile_new("agg.h5");
	struct sv_stats_table t;
	const struct sv_stats_region *g;
	struct sv_row *r;
	double v;

	p->layout = SV_LAYOUT_AGGREGATE;
	p->has_calls = false;
	sv_profile_add_region(p, "solve");
	r = sv_profile_add_row(p, 0, 0, 1000, NULL);
	r->has_summary = true;
	r->summary.total = 5000000;
	r->summary.minimum = 4000;
	r->summary.maximum = 9000;
	r->exclusive_total = 4500000;
	r = sv_profile_add_row(p, 1, 0, 10, NULL);
	r->has_summary = true;
	r->summary.total = 1000000;
	r->summary.minimum = 3000;
	r->summary.maximum = 8000;
	r->exclusive_total = 500000;
	finish(p);
	table(&t, p, NULL);
	g = &t.regions[0];
	ck_assert(!t.per_call);
	ck_assert_uint_eq(g->s.num_calls, 1010);
	ck_assert_int_eq(g->s.total_ns, 6000000);
	ck_assert_int_eq(g->s.exclusive_ns, 5000000);
	ck_near(g->s.mean_ns, 6000000.0 / 1010.0);
	ck_assert_int_eq(g->s.min_ns, 3000);
	ck_assert_int_eq(g->s.max_ns, 9000);
	/* what the file does not hold is absent, not zero */
	ck_assert(!g->s.has_first_last);
	ck_assert(!g->s.has_std);
	ck_assert(!g->s.has_percentiles);
	ck_assert(!g->s.has_span);
	ck_assert(!rank_of(g, 0)->has_first_last);
	ck_assert(!rank_of(g, 0)->has_std);
	ck_near(rank_of(g, 0)->mean_ns, 5000);
	ck_assert(!t.has_min_start);
	ck_near(g->rank_imbalance_pct, (5.0 / 3.0 - 1.0) * 100.0);
	ck_assert_int_eq(sv_stats_percentile(&t, 0, -1, 50, &v), -ENODATA);
	ck_assert(!sv_stats_value(&g->s, SV_STATS_KEY_FIRST, &v));
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(summary_only_rows)
{
	struct sv_profile *p = sv_profile_new("sum.h5");
	struct sv_stats_table t;
	const struct sv_stats_region *g;
	struct sv_row *r;

	p->layout = SV_LAYOUT_COLUMNAR;
	p->has_calls = false;
	sv_profile_add_region(p, "solve");
	/* rank 0: durations 5 15 (mean 10, m2 50); rank 1: 10 (m2 0) */
	r = sv_profile_add_row(p, 0, 0, 2, NULL);
	r->has_summary = true;
	r->summary = (struct sv_summary){.total = 20,
		.minimum = 5,
		.maximum = 15,
		.first = 5,
		.last = 15,
		.start_minimum = 100,
		.end_maximum = 200,
		.mean = 10,
		.m2 = 50};
	r = sv_profile_add_row(p, 1, 0, 1, NULL);
	r->has_summary = true;
	r->summary = (struct sv_summary){.total = 10,
		.minimum = 10,
		.maximum = 10,
		.first = 10,
		.last = 10,
		.start_minimum = 90,
		.end_maximum = 200,
		.gpu_count = 1,
		.gpu_total = 4,
		.mean = 10,
		.m2 = 0};
	finish(p);
	table(&t, p, NULL);
	g = &t.regions[0];
	ck_assert_uint_eq(g->s.num_calls, 3);
	ck_assert(g->s.has_std);
	/* pooled 5 15 10: std = sqrt(50/3) */
	ck_near(g->s.std_ns, sqrt(50.0 / 3.0));
	ck_near(rank_of(g, 0)->std_ns, 5.0);
	ck_assert(g->s.has_first_last);
	ck_assert_int_eq(g->s.first_ns, 10); /* rank 1 starts first */
	ck_assert_int_eq(g->s.last_ns, 15);  /* tie on end: row order */
	ck_assert(!g->s.has_percentiles);
	ck_assert(!g->s.has_exclusive); /* nothing stored, no calls */
	ck_assert(g->s.has_gpu);
	ck_assert_int_eq(g->s.gpu_total_ns, 4);
	ck_assert(t.has_min_start);
	ck_assert_int_eq(t.min_start_ns, 90);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* A summary-only load of a file without summary_statistics knows the call
 * counts and nothing else: no zeros may pose as totals or durations. */
START_TEST(rows_without_figures)
{
	struct sv_profile *p = sv_profile_new("bare.h5");
	struct sv_stats_table t;
	const struct sv_stats_region *g;
	struct sv_row *r;
	double v;

	p->has_calls = false;
	sv_profile_add_region(p, "solve");
	sv_profile_add_row(p, 0, 0, 3, NULL);
	r = sv_profile_add_row(p, 1, 0, 2, NULL);
	r->has_summary = true;
	r->summary = (struct sv_summary){.total = 30,
		.minimum = 10,
		.maximum = 20,
		.first = 10,
		.last = 20,
		.start_minimum = 5,
		.end_maximum = 50,
		.mean = 15,
		.m2 = 50};
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	table(&t, p, NULL);
	g = &t.regions[0];
	ck_assert_uint_eq(g->s.num_calls, 5);
	ck_assert(!rank_of(g, 0)->has_total);
	ck_assert(!rank_of(g, 0)->has_dist);
	ck_assert(!rank_of(g, 0)->has_exclusive);
	ck_assert(rank_of(g, 1)->has_total);
	ck_assert(rank_of(g, 1)->has_dist);
	/* one rank unknown: the pooled total, mean, min and max are too */
	ck_assert(!g->s.has_total);
	ck_assert(!g->s.has_dist);
	ck_assert(!g->s.has_std);
	ck_assert(!g->s.has_exclusive);
	ck_assert(!sv_stats_value(&g->s, SV_STATS_KEY_TOTAL, &v));
	ck_assert(!sv_stats_value(&g->s, SV_STATS_KEY_MIN, &v));
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* ---- sorting and selection ------------------------------------------------------------ */

START_TEST(sort_keys)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_table t;
	size_t i;
	static const struct {
		enum sv_stats_key key;
		const char *order; /* names joined by spaces */
	} cases[] = {
		{SV_STATS_KEY_START, "none b a c"},
		{SV_STATS_KEY_TOTAL, "a b c none"},
		{SV_STATS_KEY_CALLS, "a b c none"},
		{SV_STATS_KEY_AVG, "c a b none"},
		{SV_STATS_KEY_MIN, "c a b none"},
		{SV_STATS_KEY_MAX, "a c b none"},
		{SV_STATS_KEY_NAME, "a b c none"},
		{SV_STATS_KEY_IMBALANCE, "a b c none"},
		{SV_STATS_KEY_EXCLUSIVE, "b c a none"},
		{SV_STATS_KEY_P95, "a c b none"},
	};

	/* a: one call of 50 on two ranks; b: two calls of 10 and 30 on one;
	 * c: one call of 40; none: no calls.  b and c tie on total (40):
	 * ties by name. */
	row(p, 0, "b", "10:20 30:60");
	row(p, 0, "a", "20:70");
	row(p, 1, "a", "20:30");
	row(p, 0, "c", "100:140");
	row(p, 0, "none", "");
	finish(p);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char got[64] = "";
		size_t j;
		table(&t, p, NULL);
		sv_stats_table_sort(&t, cases[i].key);
		for (j = 0; j < t.nregions; j++) {
			if (j)
				strcat(got, " ");
			strcat(got, t.regions[j].name);
		}
		ck_assert_msg(!strcmp(got, cases[i].order),
			"sort by %s: got '%s', want '%s'",
			sv_stats_key_name(cases[i].key), got, cases[i].order);
		ck_assert_int_eq(t.sorted_by, cases[i].key);
		sv_stats_table_fini(&t);
	}
	sv_profile_free(p);
}
END_TEST

START_TEST(sort_key_names)
{
	int k;
	const char *names[] = {"start", "total", "calls", "avg", "min", "max",
		"first", "last", "std", "p50", "p95", "p99", "imbalance",
		"name", "exclusive"};
	ck_assert_int_eq(SV_STATS_KEY_COUNT, 15);
	for (k = 0; k < SV_STATS_KEY_COUNT; k++) {
		ck_assert_str_eq(sv_stats_key_name(k), names[k]);
		ck_assert_int_eq(sv_stats_key_from_name(names[k]), k);
		ck_assert_ptr_nonnull(sv_stats_key_help(k));
	}
	ck_assert_int_eq(sv_stats_key_from_name("bogus"), -1);
	ck_assert_int_eq(sv_stats_key_from_name(NULL), -1);
	ck_assert_ptr_null(sv_stats_key_name(SV_STATS_KEY_COUNT));
}
END_TEST

START_TEST(region_regex_filter)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	struct sv_stats_table t;
	struct sv_stats_filter f = {0};
	struct sv_regex *inc[2], *exc[1];
	struct sv_error err = {0};

	row(p, 0, "mpi:send", "0:1");
	row(p, 0, "mpi:recv", "1:2");
	row(p, 0, "solve", "2:3");
	row(p, 0, "xmpi", "3:4");
	finish(p);
	inc[0] = sv_regex_compile("mpi", &err);
	inc[1] = sv_regex_compile("sol", &err);
	exc[0] = sv_regex_compile(".*recv$", &err);
	ck_assert(inc[0] && inc[1] && exc[0]);
	f.include = inc;
	f.ninclude = 2;
	f.exclude = exc;
	f.nexclude = 1;
	table(&t, p, &f);
	/* anchored like re.match: "xmpi" does not match "mpi" */
	ck_assert_uint_eq(t.nregions, 2);
	ck_assert_str_eq(t.regions[0].name, "mpi:send");
	ck_assert_str_eq(t.regions[1].name, "solve");
	sv_stats_table_fini(&t);
	sv_regex_free(inc[0]);
	sv_regex_free(inc[1]);
	sv_regex_free(exc[0]);
	sv_profile_free(p);
}
END_TEST

static const struct {
	const char *spec;
	int rc;
	uint32_t n;
	const char *on; /* '1' per selected rank */
} rank_cases[] = {
	{"0,2-5", 0, 6, "101111"},
	{" 3 ", 0, 4, "0001"},
	{"1 - 2 , 0", 0, 3, "111"},
	{"4,4,4", 0, 5, "00001"},
	{"0", 0, 1, "1"},
	{"", -EINVAL, 0, NULL},
	{"3-1", -EINVAL, 0, NULL},
	{"a", -EINVAL, 0, NULL},
	{"1,", -EINVAL, 0, NULL},
	{",1", -EINVAL, 0, NULL},
	{"1-", -EINVAL, 0, NULL},
	{"1;2", -EINVAL, 0, NULL},
	{"-1", -EINVAL, 0, NULL},
	{"99999999999", -EINVAL, 0, NULL},
	{"2 3", -EINVAL, 0, NULL},
	{"\t2\t", 0, 3, "001"},
	{"2-2", 0, 3, "001"},
	{"0-2,1", 0, 3, "111"},
	{"0x1", -EINVAL, 0, NULL},
	{"+1", -EINVAL, 0, NULL},
	{"1--2", -EINVAL, 0, NULL},
	{"1.5", -EINVAL, 0, NULL},
	{"16777216", -EINVAL, 0, NULL},
};

START_TEST(parse_ranks)
{
	bool *on = NULL;
	uint32_t n = 0, r;
	struct sv_error err = {0};
	int rc = sv_stats_parse_ranks(rank_cases[_i].spec, &on, &n, &err);

	ck_assert_msg(rc == rank_cases[_i].rc, "'%s': rc %d",
		rank_cases[_i].spec, rc);
	if (rc) {
		ck_assert_ptr_null(on);
		ck_assert_msg(strstr(err.msg, "bad rank list") != NULL,
			"message: %s", err.msg);
		return;
	}
	ck_assert_uint_eq(n, rank_cases[_i].n);
	for (r = 0; r < n; r++)
		ck_assert_int_eq(on[r], rank_cases[_i].on[r] == '1');
	free(on);
}
END_TEST

/* ---- size ----------------------------------------------------------------------------- */

/* A million calls of one region in one row: linear time, and the figures
 * agree with closed forms. */
START_TEST(many_calls)
{
	struct sv_profile *p = sv_profile_new("big.h5");
	struct sv_stats_table t;
	struct sv_row *r;
	const uint64_t n = 1000000;
	uint64_t i;
	double want_mean;

	sv_profile_add_region(p, "tick");
	r = sv_profile_add_row(p, 0, 0, n, NULL);
	ck_assert_ptr_nonnull(r);
	/* durations 0..999 repeating, back-to-back */
	for (i = 0; i < n; i++) {
		p->start_ns[i] = (int64_t)i * 1000;
		p->end_ns[i] = (int64_t)i * 1000 + (int64_t)(i % 1000);
	}
	finish(p);
	table(&t, p, NULL);
	want_mean = 499.5;
	ck_near(t.regions[0].s.mean_ns, want_mean);
	ck_assert_int_eq(t.regions[0].s.total_ns, (int64_t)(499500 * 1000));
	/* each value 1000 times: sorted[k] = k / 1000 */
	ck_near(t.regions[0].s.p50_ns,
		(double)(499999 / 1000) +
			((double)(500000 / 1000) - (double)(499999 / 1000)) *
				0.5);
	ck_near(t.regions[0].s.p99_ns, 989.01);
	ck_near(t.regions[0].s.std_ns, sqrt((1000.0 * 1000.0 - 1) / 12.0));
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* A region of more calls than the statistics hold at once (a quarter
 * million and more) has its percentiles selected in a second read of its
 * calls: the same as a sort of the values the selection keeps, whole,
 * with a call filter, with a range between calls, on one thread and
 * two, and when the wanted values fill their buckets (every duration
 * equal but a few: the values are then held after all). */
START_TEST(big_region_percentiles)
{
	enum { PER = 150000, N = 2 * PER };
	struct sv_profile *p = sv_profile_new("bigregion.h5");
	struct sv_stats_table t;
	struct sv_stats_filter f;
	bool *call_on = calloc(N + 16, sizeof *call_on);
	int64_t *sel = malloc(N * sizeof *sel);
	unsigned seed = 4242;
	uint32_t r, c;
	int k;

	sv_profile_add_region(p, "big");
	sv_profile_add_region(p, "small");
	for (r = 0; r < 2; r++)
		ck_assert_ptr_nonnull(sv_profile_add_row(p, r, 0, PER, NULL));
	ck_assert_ptr_nonnull(sv_profile_add_row(p, 0, 1, 16, NULL));
	for (c = 0; c < N + 16; c++) {
		/* back to back, 1000 ns apart, durations below 1000 */
		int64_t d = _i ? (c % 9973 == 0 ? 7 : 500)
			       : (int64_t)(rand_r(&seed) % 997) +
					    (c % 5 == 0 ? 0 : 2);
		p->start_ns[c] = (int64_t)(c % PER) * 1000 + (c >= PER);
		p->end_ns[c] = p->start_ns[c] + d;
		call_on[c] = rand_r(&seed) % 3 != 0;
	}
	finish(p);
	for (k = 0; k < 6; k++) {
		const struct sv_stats_region *g;
		size_t n = 0;
		int64_t t0 = 40000 * 1000 + 999, t1 = 90000 * 1000 + 999;
		static const double pct[3] = {50, 95, 99};
		double want[3];
		int j;

		memset(&f, 0, sizeof f);
		f.threads = 1 + k % 2;
		if (k / 2 == 1)
			f.call_on = call_on;
		if (k / 2 == 2) {
			f.has_range = true;
			f.t0_ns = t0;
			f.t1_ns = t1;
		}
		for (c = 0; c < N; c++) {
			int64_t s0 = sv_profile_start(p, c),
				e0 = sv_profile_end(p, c);
			if (f.call_on && !call_on[c])
				continue;
			if (f.has_range && (s0 < t0 || e0 > t1))
				continue;
			sel[n++] = e0 - s0;
		}
		qsort(sel, n, sizeof *sel, cmp64);
		for (j = 0; j < 3; j++)
			want[j] = percentile_sorted(sel, n, pct[j]);
		table(&t, p, &f);
		g = region_of(&t, "big");
		ck_assert_uint_eq(g->s.num_calls, n);
		ck_assert(g->s.has_percentiles);
		ck_assert_msg(g->s.p50_ns == want[0] &&
				      g->s.p95_ns == want[1] &&
				      g->s.p99_ns == want[2],
			"case %d/%d: %.17g %.17g %.17g, sorted %.17g %.17g "
			"%.17g",
			_i, k, g->s.p50_ns, g->s.p95_ns, g->s.p99_ns, want[0],
			want[1], want[2]);
		/* Each of its rows (read again for its spread and
		 * percentiles, not held): the same as its values give. */
		for (r = 0; r < 2; r++) {
			const struct sv_stats *rs = &g->ranks[r].s;
			double mean, m2 = 0, rw[3];
			int64_t tot = 0;
			size_t m = 0, i;
			for (c = r * PER; c < (r + 1) * PER; c++) {
				int64_t s0 = sv_profile_start(p, c),
					e0 = sv_profile_end(p, c);
				if (f.call_on && !call_on[c])
					continue;
				if (f.has_range) {
					if (s0 >= t1 || e0 <= t0)
						continue;
					s0 = s0 > t0 ? s0 : t0;
					e0 = e0 < t1 ? e0 : t1;
				}
				sel[m++] = e0 - s0;
				tot += e0 - s0;
			}
			ck_assert_uint_eq(rs->num_calls, m);
			mean = (double)tot / (double)m;
			for (i = 0; i < m; i++)
				m2 += ((double)sel[i] - mean) *
				      ((double)sel[i] - mean);
			qsort(sel, m, sizeof *sel, cmp64);
			for (j = 0; j < 3; j++)
				rw[j] = percentile_sorted(sel, m, pct[j]);
			ck_assert_msg(
				rs->p50_ns == rw[0] && rs->p95_ns == rw[1] &&
					rs->p99_ns == rw[2] &&
					rs->std_ns == sqrt(m2 / (double)m),
				"case %d/%d row %u: %.17g %.17g %.17g %.17g",
				_i, k, r, rs->p50_ns, rs->p95_ns, rs->p99_ns,
				rs->std_ns);
		}
		sv_stats_table_fini(&t);
	}
	free(sel);
	free(call_on);
	sv_profile_free(p);
}
END_TEST

/* What a table hands on (sv_stats_filter.keep and keep_counts): every
 * value of region 0, and its counts. */
struct kept {
	int64_t *v;
	size_t n, cap;
	uint32_t counts[SV_STATS_BUCKETS];
	unsigned ncounts;
};

static void kept_values(void *ctx, uint32_t g, const int64_t *v, size_t n)
{
	struct kept *k = ctx;

	if (g != 0)
		return;
	if (k->n + n > k->cap) {
		k->cap = (k->n + n) * 2;
		k->v = realloc(k->v, k->cap * sizeof *k->v);
	}
	memcpy(k->v + k->n, v, n * sizeof *v);
	k->n += n;
}

static void kept_counts(void *ctx, uint32_t g, const uint32_t *count, size_t n)
{
	struct kept *k = ctx;
	size_t i;

	ck_assert_uint_eq(n, SV_STATS_BUCKETS);
	if (g != 0)
		return;
	for (i = 0; i < n; i++)
		k->counts[i] += count[i];
	k->ncounts++;
}

/* A streamed share's table hands on each call's duration once (a big
 * row's as it reads them again, a small one's after it) and the counts of
 * what it handed on, by the statistics' buckets; its rows' figures are
 * those of the table without keep. */
START_TEST(keep_values_and_counts)
{
	enum { PER = 20000, N = 2 * PER + 100 };
	struct sv_profile *p = sv_profile_new("keep.h5");
	struct sv_stats_table t, u;
	struct sv_stats_filter f;
	struct kept *k = calloc(1, sizeof *k);
	int64_t *want = malloc(N * sizeof *want);
	uint32_t *bucket = calloc(SV_STATS_BUCKETS, sizeof *bucket);
	unsigned seed = 77;
	size_t i, n = 0;
	uint32_t c;

	sv_profile_add_region(p, "kernel");
	ck_assert_ptr_nonnull(sv_profile_add_row(p, 0, 0, PER, NULL));
	ck_assert_ptr_nonnull(sv_profile_add_row(p, 1, 0, PER, NULL));
	ck_assert_ptr_nonnull(sv_profile_add_row(p, 2, 0, 100, NULL));
	for (c = 0; c < N; c++) {
		/* a few past 32 bits, and a few that end before they start */
		int64_t d = (int64_t)(rand_r(&seed) % 5000) +
			    (c % 7919 == 0 ? ((int64_t)1 << 33) : 0) -
			    (c % 9001 == 1 ? 9000 : 0);
		p->start_ns[c] = (int64_t)(c % PER) * 10000000000 + c / PER;
		p->end_ns[c] = p->start_ns[c] + d;
		want[n++] = d;
		bucket[sv_stats_bucket(d)]++;
	}
	finish(p);
	memset(&f, 0, sizeof f);
	table(&u, p, &f);
	f.keep = kept_values;
	f.keep_counts = kept_counts;
	f.keep_ctx = k;
	table(&t, p, &f);
	ck_assert_uint_eq(k->n, n);
	ck_assert_uint_eq(k->ncounts, 1);
	qsort(k->v, k->n, sizeof *k->v, cmp64);
	qsort(want, n, sizeof *want, cmp64);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(k->v[i], want[i]);
	for (i = 0; i < SV_STATS_BUCKETS; i++)
		ck_assert_uint_eq(k->counts[i], bucket[i]);
	ck_assert_uint_eq(t.regions[0].nranks, 3);
	for (i = 0; i < 3; i++)
		ck_assert(!memcmp(&t.regions[0].ranks[i].s,
			&u.regions[0].ranks[i].s, sizeof(struct sv_stats)));
	sv_stats_table_fini(&t);
	sv_stats_table_fini(&u);
	free(k->v);
	free(k);
	free(want);
	free(bucket);
	sv_profile_free(p);
}
END_TEST

/* ---- a selection's table from the whole run's ------------------------------ */

/* Whether x and y are the same figures, bit for bit. */
static void same_stats(
	const struct sv_stats *x, const struct sv_stats *y, const char *what)
{
#define SAME_INT(f)                                                  \
	ck_assert_msg(x->f == y->f, "%s: %s %lld != %lld", what, #f, \
		(long long)x->f, (long long)y->f)
#define SAME_DBL(f)                                       \
	ck_assert_msg(!memcmp(&x->f, &y->f, sizeof x->f), \
		"%s: %s %.17g != %.17g", what, #f, x->f, y->f)
	SAME_INT(num_calls);
	SAME_INT(has_total);
	SAME_INT(total_ns);
	SAME_INT(has_exclusive);
	SAME_INT(exclusive_ns);
	SAME_INT(has_dist);
	SAME_DBL(mean_ns);
	SAME_INT(min_ns);
	SAME_INT(max_ns);
	SAME_INT(has_first_last);
	SAME_INT(first_ns);
	SAME_INT(last_ns);
	SAME_INT(has_std);
	SAME_DBL(std_ns);
	SAME_INT(has_percentiles);
	SAME_DBL(p50_ns);
	SAME_DBL(p95_ns);
	SAME_DBL(p99_ns);
	SAME_INT(has_gpu);
	SAME_INT(gpu_count);
	SAME_INT(gpu_total_ns);
	SAME_DBL(gpu_mean_ns);
	SAME_INT(has_await);
	SAME_INT(await_total_ns);
	SAME_INT(has_span);
	SAME_INT(first_start_ns);
	SAME_INT(last_end_ns);
#undef SAME_INT
#undef SAME_DBL
}

/* Whether a and b are the same table: regions in the same order, each
 * with the same ranks and figures. */
static void same_table(const struct sv_stats_table *a,
	const struct sv_stats_table *b, const char *what)
{
	char msg[160];
	size_t i, k;

	ck_assert_msg(a->nregions == b->nregions, "%s: %zu regions, not %zu",
		what, b->nregions, a->nregions);
	ck_assert_int_eq(a->has_min_start, b->has_min_start);
	ck_assert_int_eq(a->min_start_ns, b->min_start_ns);
	ck_assert_int_eq(a->has_max_end, b->has_max_end);
	ck_assert_int_eq(a->max_end_ns, b->max_end_ns);
	for (i = 0; i < a->nregions; i++) {
		const struct sv_stats_region *x = &a->regions[i],
					     *y = &b->regions[i];
		snprintf(msg, sizeof msg, "%s, region %s", what, x->name);
		ck_assert_msg(x->region == y->region, "%s: order", msg);
		same_stats(&x->s, &y->s, msg);
		ck_assert_msg(
			!memcmp(&x->rank_imbalance_pct, &y->rank_imbalance_pct,
				sizeof x->rank_imbalance_pct),
			"%s: imbalance", msg);
		ck_assert_int_eq(x->has_slowest_rank, y->has_slowest_rank);
		ck_assert_uint_eq(x->slowest_rank, y->slowest_rank);
		ck_assert_uint_eq(x->nranks, y->nranks);
		for (k = 0; k < x->nranks; k++) {
			snprintf(msg, sizeof msg, "%s, region %s, row %zu",
				what, x->name, x->ranks[k].row);
			ck_assert_uint_eq(x->ranks[k].row, y->ranks[k].row);
			ck_assert_uint_eq(x->ranks[k].rank, y->ranks[k].rank);
			same_stats(&x->ranks[k].s, &y->ranks[k].s, msg);
		}
	}
}

/* The profiles: fixtures (file names) and generated ones ("gen:" ranks,
 * threads, tasks, events, packed). */
static const struct {
	const char *fixture;
	uint32_t ranks, threads, tasks;
	uint64_t events;
	bool pack;
} base_profiles[] = {
	{"four_ranks.h5", 0, 0, 0, 0, false},
	{"threads_tasks.h5", 0, 0, 0, 0, false},
	{"single_rank_nested.h5", 0, 0, 0, 0, false},
	{"schema2_ties_zero_length.h5", 0, 0, 0, 0, false},
	{"lanes_rebuilt_exclusive.h5", 0, 0, 0, 0, false},
	{"gpu_likwid_perf_lineprof.h5", 0, 0, 0, 0, false},
	{"no_call_ids.h5", 0, 0, 0, 0, false},
	{"large_auto_gzip.h5", 0, 0, 0, 0, false},
	{NULL, 4, 1, 0, 30000, true},
	{NULL, 3, 2, 2, 20000, false},
	{NULL, 2, 3, 0, 15000, true},
};

static struct sv_profile *base_profile(int i)
{
	struct sv_profile *p = NULL;
	struct sv_load_opts lo;
	struct sv_error err = {0, ""};
	char name[32], *path;

	if (!base_profiles[i].fixture) {
		snprintf(name, sizeof name, "statsbase%d.h5", i);
		return svt_gen_profile(name, base_profiles[i].ranks,
			base_profiles[i].threads, base_profiles[i].tasks,
			base_profiles[i].events, base_profiles[i].pack);
	}
	path = svt_fixture(base_profiles[i].fixture);
	memset(&lo, 0, sizeof lo);
	ck_assert_msg(
		sv_load(path, &lo, &p, &err) == 0, "%s: %s", path, err.msg);
	free(path);
	return p;
}

/* Given a profile and the table of its whole run, when the table of a
 * selection (ranks, lanes, a time range, region names, and these
 * together) is computed from the whole run's on two threads, then it is
 * the table computed from the calls alone. */
START_TEST(selection_from_whole_run)
{
	struct sv_profile *p = base_profile(_i);
	struct sv_stats_table all, ref, got;
	struct sv_stats_filter f;
	struct sv_error err = {0, ""};
	struct sv_regex *inc[1];
	int64_t t0, t1, span;
	bool *rank_on, *lane_on;
	uint32_t r, l, nl = p->has_calls ? (uint32_t)p->nlanes : 0;
	int sel;
	char what[96];

	table(&all, p, NULL);
	ck_assert(all.plain);
	t0 = all.has_min_start ? all.min_start_ns : 0;
	t1 = all.has_max_end ? all.max_end_ns : 1;
	span = t1 > t0 ? t1 - t0 : 1;
	rank_on = calloc(p->num_ranks + 1, sizeof *rank_on);
	lane_on = calloc(nl + 1, sizeof *lane_on);
	for (r = 0; r < p->num_ranks; r++)
		rank_on[r] = r % 2 == 0;
	for (l = 0; l < nl; l++)
		lane_on[l] = l % 3 != 1;
	inc[0] = sv_regex_compile("[a-m]", &err);
	ck_assert_ptr_nonnull(inc[0]);
	/* bit 0 ranks, 1 lanes, 2 a middle eighth, 3 names, 4 a range of
	 * everything, 5 an empty range; 6 skip_empty */
	for (sel = 0; sel < 128; sel++) {
		if ((sel & 4) && (sel & 48))
			continue;
		if ((sel & 16) && (sel & 32))
			continue;
		memset(&f, 0, sizeof f);
		if (sel & 1) {
			f.rank_on = rank_on;
			f.nrank_on = p->num_ranks;
		}
		if (sel & 2)
			f.lane_on = lane_on;
		if (sel & 4) {
			f.has_range = true;
			f.t0_ns = t0 + span / 2;
			f.t1_ns = f.t0_ns + span / 8;
		}
		if (sel & 8) {
			f.include = inc;
			f.ninclude = 1;
		}
		if (sel & 16) {
			f.has_range = true;
			f.t0_ns = t0;
			f.t1_ns = t1;
		}
		if (sel & 32) {
			f.has_range = true;
			f.t0_ns = f.t1_ns = t0 + span / 3;
		}
		f.skip_empty = sel & 64;
		table(&ref, p, &f);
		f.base = &all;
		f.threads = 1 + sel % 2 + (sel & 2);
		table(&got, p, &f);
		snprintf(what, sizeof what, "%s, selection %d",
			p->path ? p->path : "?", sel);
		same_table(&ref, &got, what);
		sv_stats_table_fini(&got);
		sv_stats_table_fini(&ref);
	}
	sv_regex_free(inc[0]);
	free(rank_on);
	free(lane_on);
	sv_stats_table_fini(&all);
	sv_profile_free(p);
}
END_TEST

/* A copy is the same table, and lives on when the original is freed. */
START_TEST(table_copy)
{
	struct sv_profile *p = base_profile(0);
	struct sv_stats_table a, b, c;

	table(&a, p, NULL);
	table(&c, p, NULL);
	sv_stats_table_copy(&b, &a);
	sv_stats_table_fini(&a);
	same_table(&c, &b, "copy");
	ck_assert(b.plain);
	sv_stats_table_fini(&b);
	sv_stats_table_fini(&c);
	sv_profile_free(p);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc;

	tc = tcase_create("basics");
	tcase_add_test(tc, one_call);
	tcase_add_test(tc, zero_calls);
	tcase_add_test(tc, empty_profile_and_nulls);
	tcase_add_test(tc, row_figures);
	tcase_add_test(tc, time_range);
	suite_add_tcase(s, tc);

	tc = tcase_create("order");
	tcase_add_test(tc, display_order_ties);
	tcase_add_test(tc, sort_keys);
	tcase_add_test(tc, sort_key_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("percentiles");
	tcase_add_loop_test(tc, percentile_many_vs_sort, 0, 5);
	tcase_add_loop_test(tc, percentile_two_steps, 0, 30);
	tcase_add_loop_test(tc, percentile_table, 0,
		sizeof pct_cases / sizeof pct_cases[0]);
	tcase_add_test(tc, percentile_vs_sort);
	tcase_add_test(tc, percentile_query);
	suite_add_tcase(s, tc);

	tc = tcase_create("nesting");
	tcase_add_test(tc, recursion);
	tcase_add_test(tc, stored_exclusive_wins);
	tcase_add_test(tc, zero_length_calls);
	tcase_add_test(tc, overlapping_lanes);
	suite_add_tcase(s, tc);

	tc = tcase_create("ranks");
	tcase_add_test(tc, rank_imbalance_and_filter);
	tcase_add_test(tc, cross_rank_ties);
	tcase_add_test(tc, source_and_tags_first_in_rank_order);
	tcase_add_test(tc, gpu_and_await);
	tcase_add_test(tc, thread_filter);
	suite_add_tcase(s, tc);

	tc = tcase_create("stored");
	tcase_add_test(tc, aggregate_rows);
	tcase_add_test(tc, summary_only_rows);
	tcase_add_test(tc, rows_without_figures);
	suite_add_tcase(s, tc);

	tc = tcase_create("selection");
	tcase_add_test(tc, region_regex_filter);
	tcase_add_loop_test(
		tc, parse_ranks, 0, sizeof rank_cases / sizeof rank_cases[0]);
	tcase_add_loop_test(tc, selection_from_whole_run, 0,
		sizeof base_profiles / sizeof base_profiles[0]);
	tcase_add_test(tc, table_copy);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);

	tc = tcase_create("size");
	tcase_add_test(tc, many_calls);
	tcase_add_loop_test(tc, big_region_percentiles, 0, 2);
	tcase_add_test(tc, keep_values_and_counts);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
