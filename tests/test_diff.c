/*
 * test_diff.c: two runs compared (diff.h) on pairs of profiles built in
 * memory, every figure worked out by hand: a region only in A, only in B,
 * A = 0, ties in each sort, the threshold, a rank selection on both
 * sides, the gate's rule; and on a pair `scopeview gen` writes with
 * --slow-region, the slowed region at the top of the delta order.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/diff.h"
#include "scopeview/gen.h"
#include "scopeview/load.h"
#include "scopeview/profile.h"
#include "scopeview/stats.h"

/* One row of region name on rank: calls of the given durations, 100 us
 * apart, each region 10 us after the one before, so none nests in
 * another. */
static void add(struct sv_profile *p, uint32_t rank, const char *name,
	const int64_t *dur, int n)
{
	int64_t reg = sv_profile_find_region(p, name);
	struct sv_row *r;
	int k;
	if (reg < 0)
		reg = sv_profile_add_region(p, name);
	r = sv_profile_add_row(p, rank, (uint32_t)reg, (uint64_t)n, NULL);
	ck_assert_ptr_nonnull(r);
	for (k = 0; k < n; k++) {
		int64_t t0 = 1000 + reg * 10000 + (int64_t)k * 100000;
		p->start_ns[r->first + k] = t0;
		p->end_ns[r->first + k] = t0 + dur[k];
	}
}

#define ADD(p, rank, name, ...)                                          \
	do {                                                             \
		static const int64_t d_[] = {__VA_ARGS__};               \
		add(p, rank, name, d_, (int)(sizeof d_ / sizeof d_[0])); \
	} while (0)

/*
 * A: x = 100, 300 on rank 0 and 600 on rank 1; y = 200; zero = 0 (a call
 *    that took no time); gone = 50.
 * B: x = 100, 300, 500 on rank 0 and 600 on rank 1; y = 150; zero = 40;
 *    fresh = 70.
 */
static struct sv_profile *run_a(void)
{
	struct sv_profile *p = sv_profile_new("a.h5");
	ADD(p, 0, "x", 100, 300);
	ADD(p, 1, "x", 600);
	ADD(p, 0, "y", 200);
	ADD(p, 0, "zero", 0);
	ADD(p, 0, "gone", 50);
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

static struct sv_profile *run_b(void)
{
	struct sv_profile *p = sv_profile_new("b.h5");
	ADD(p, 0, "x", 100, 300, 500);
	ADD(p, 1, "x", 600);
	ADD(p, 0, "y", 150);
	ADD(p, 0, "zero", 40);
	ADD(p, 0, "fresh", 70);
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

struct pair {
	struct sv_profile *p[2];
	struct sv_stats_table t[2];
};

static void pair_open(struct pair *w, const bool *rank_on, uint32_t nrank_on)
{
	struct sv_stats_filter f;
	int k;
	memset(&f, 0, sizeof f);
	f.rank_on = rank_on;
	f.nrank_on = nrank_on;
	w->p[0] = run_a();
	w->p[1] = run_b();
	for (k = 0; k < 2; k++)
		ck_assert_int_eq(
			sv_stats_table_compute(&w->t[k], w->p[k], &f, NULL), 0);
}

static void pair_close(struct pair *w)
{
	int k;
	for (k = 0; k < 2; k++) {
		sv_stats_table_fini(&w->t[k]);
		sv_profile_free(w->p[k]);
	}
}

static const struct sv_diff_row *row_named(
	const struct sv_diff *d, const char *name)
{
	size_t i;
	for (i = 0; i < d->nrows; i++)
		if (!strcmp(d->rows[i].name, name))
			return &d->rows[i];
	return NULL;
}

START_TEST(total_by_hand)
{
	struct pair w;
	struct sv_diff d;
	const struct sv_diff_row *r;

	pair_open(&w, NULL, 0);
	ck_assert_int_eq(sv_diff_compute(&d, &w.t[0], &w.t[1], SV_DIFF_TOTAL,
				 SV_DIFF_SORT_DELTA, 0, NULL),
		0);
	ck_assert_uint_eq(d.nrows, 3);
	/* x: 1000 -> 1500 ns, +500, +50%: the largest regression first. */
	r = &d.rows[0];
	ck_assert_str_eq(r->name, "x");
	ck_assert(r->a.has && r->b.has && r->has_delta && r->has_pct);
	ck_assert_double_eq(r->a.v, 1000);
	ck_assert_double_eq(r->b.v, 1500);
	ck_assert_double_eq(r->delta, 500);
	ck_assert_double_eq_tol(r->pct, 50.0, 1e-12);
	/* zero: 0 -> 40 ns: a delta, but no percentage of 0. */
	r = &d.rows[1];
	ck_assert_str_eq(r->name, "zero");
	ck_assert(r->has_delta && !r->has_pct);
	ck_assert_double_eq(r->a.v, 0);
	ck_assert_double_eq(r->delta, 40);
	/* y: 200 -> 150 ns, -50, -25%. */
	r = &d.rows[2];
	ck_assert_str_eq(r->name, "y");
	ck_assert_double_eq(r->delta, -50);
	ck_assert_double_eq_tol(r->pct, -25.0, 1e-12);
	/* Apart: the region only in A and the one only in B, with their
	 * own run's figure and nothing on the other side. */
	ck_assert_uint_eq(d.nonly_a, 1);
	ck_assert_str_eq(d.only_a[0].name, "gone");
	ck_assert(d.only_a[0].a.has && !d.only_a[0].b.has);
	ck_assert_double_eq(d.only_a[0].a.v, 50);
	ck_assert(!d.only_a[0].has_delta);
	ck_assert_uint_eq(d.nonly_b, 1);
	ck_assert_str_eq(d.only_b[0].name, "fresh");
	ck_assert(!d.only_b[0].a.has && d.only_b[0].b.has);
	ck_assert_double_eq(d.only_b[0].b.v, 70);
	sv_diff_fini(&d);
	sv_diff_fini(&d); /* idempotent */
	pair_close(&w);
}
END_TEST

START_TEST(other_metrics_by_hand)
{
	struct pair w;
	struct sv_diff d;
	const struct sv_diff_row *r;

	pair_open(&w, NULL, 0);
	/* avg of x: 1000/3 -> 1500/4. */
	ck_assert_int_eq(sv_diff_compute(&d, &w.t[0], &w.t[1], SV_DIFF_AVG,
				 SV_DIFF_SORT_NAME, 0, NULL),
		0);
	r = row_named(&d, "x");
	ck_assert_double_eq_tol(r->a.v, 1000.0 / 3, 1e-9);
	ck_assert_double_eq_tol(r->b.v, 375.0, 1e-9);
	ck_assert_double_eq_tol(
		r->pct, (375.0 - 1000.0 / 3) / (1000.0 / 3) * 100, 1e-9);
	/* By name: x, y, zero. */
	ck_assert_str_eq(d.rows[0].name, "x");
	ck_assert_str_eq(d.rows[1].name, "y");
	ck_assert_str_eq(d.rows[2].name, "zero");
	sv_diff_fini(&d);

	/* calls of x: 3 -> 4. */
	ck_assert_int_eq(sv_diff_compute(&d, &w.t[0], &w.t[1], SV_DIFF_CALLS,
				 SV_DIFF_SORT_DELTA, 0, NULL),
		0);
	r = &d.rows[0];
	ck_assert_str_eq(r->name, "x");
	ck_assert_double_eq(r->a.v, 3);
	ck_assert_double_eq(r->b.v, 4);
	ck_assert_double_eq_tol(r->pct, 100.0 / 3, 1e-9);
	/* y and zero tie at delta 0: by name. */
	ck_assert_str_eq(d.rows[1].name, "y");
	ck_assert_str_eq(d.rows[2].name, "zero");
	sv_diff_fini(&d);

	/* p50 of x (numpy linear): A [100 300 600] -> 300, B [100 300 500
	 * 600] -> 400.  max: 600 -> 600. */
	ck_assert_int_eq(sv_diff_compute(&d, &w.t[0], &w.t[1], SV_DIFF_P50,
				 SV_DIFF_SORT_DELTA, 0, NULL),
		0);
	r = row_named(&d, "x");
	ck_assert_double_eq_tol(r->a.v, 300, 1e-9);
	ck_assert_double_eq_tol(r->b.v, 400, 1e-9);
	sv_diff_fini(&d);
	ck_assert_int_eq(sv_diff_compute(&d, &w.t[0], &w.t[1], SV_DIFF_MAX,
				 SV_DIFF_SORT_DELTA, 0, NULL),
		0);
	r = row_named(&d, "x");
	ck_assert_double_eq(r->delta, 0);
	ck_assert_double_eq(r->pct, 0);
	sv_diff_fini(&d);

	/* imbalance of x (max / mean - 1) * 100 over ranks: A 400, 600 ->
	 * 20%; B 900, 600 -> 20%.  A region on one rank: 0 -> no pct. */
	ck_assert_int_eq(
		sv_diff_compute(&d, &w.t[0], &w.t[1], SV_DIFF_IMBALANCE,
			SV_DIFF_SORT_DELTA, 0, NULL),
		0);
	r = row_named(&d, "x");
	ck_assert_double_eq_tol(r->a.v, 20, 1e-9);
	ck_assert_double_eq_tol(r->b.v, 20, 1e-9);
	r = row_named(&d, "y");
	ck_assert_double_eq(r->a.v, 0);
	ck_assert(r->has_delta && !r->has_pct);
	sv_diff_fini(&d);

	/* exclusive: nothing nests, so it is the total. */
	ck_assert_int_eq(
		sv_diff_compute(&d, &w.t[0], &w.t[1], SV_DIFF_EXCLUSIVE,
			SV_DIFF_SORT_DELTA, 0, NULL),
		0);
	ck_assert_str_eq(d.rows[0].name, "x");
	ck_assert_double_eq(d.rows[0].delta, 500);
	sv_diff_fini(&d);
	pair_close(&w);
}
END_TEST

START_TEST(pct_sort_and_ties)
{
	struct pair w;
	struct sv_diff d;

	pair_open(&w, NULL, 0);
	/* pct: x +50, y -25, zero (none) last. */
	ck_assert_int_eq(sv_diff_compute(&d, &w.t[0], &w.t[1], SV_DIFF_TOTAL,
				 SV_DIFF_SORT_PCT, 0, NULL),
		0);
	ck_assert_str_eq(d.rows[0].name, "x");
	ck_assert_str_eq(d.rows[1].name, "y");
	ck_assert_str_eq(d.rows[2].name, "zero");
	sv_diff_fini(&d);
	/* max: x 600 -> 600 and y 200 -> 150 and zero 0 -> 40: by delta
	 * zero, x, y; by pct x (0%), y (-25%), then zero without one. */
	ck_assert_int_eq(sv_diff_compute(&d, &w.t[0], &w.t[1], SV_DIFF_MAX,
				 SV_DIFF_SORT_PCT, 0, NULL),
		0);
	ck_assert_str_eq(d.rows[0].name, "x");
	ck_assert_str_eq(d.rows[1].name, "y");
	ck_assert_str_eq(d.rows[2].name, "zero");
	sv_diff_fini(&d);
	pair_close(&w);
}
END_TEST

START_TEST(ties_by_name)
{
	struct sv_profile *p[2] = {NULL, NULL};
	struct sv_stats_table t[2];
	struct sv_diff d;
	int k;

	/* b and a both grow by 100 ns (a from 100, b from 200), c by 100
	 * too: equal deltas order by name. */
	for (k = 0; k < 2; k++) {
		p[k] = sv_profile_new(k ? "b.h5" : "a.h5");
		if (k) {
			ADD(p[k], 0, "b", 300);
			ADD(p[k], 0, "c", 400);
			ADD(p[k], 0, "a", 200);
		} else {
			ADD(p[k], 0, "b", 200);
			ADD(p[k], 0, "c", 300);
			ADD(p[k], 0, "a", 100);
		}
		ck_assert_int_eq(sv_profile_finish(p[k], NULL), 0);
		ck_assert_int_eq(
			sv_stats_table_compute(&t[k], p[k], NULL, NULL), 0);
	}
	ck_assert_int_eq(sv_diff_compute(&d, &t[0], &t[1], SV_DIFF_TOTAL,
				 SV_DIFF_SORT_DELTA, 0, NULL),
		0);
	ck_assert_str_eq(d.rows[0].name, "a");
	ck_assert_str_eq(d.rows[1].name, "b");
	ck_assert_str_eq(d.rows[2].name, "c");
	sv_diff_fini(&d);
	/* By pct: a +100%, b +50%, c +33%. */
	ck_assert_int_eq(sv_diff_compute(&d, &t[0], &t[1], SV_DIFF_TOTAL,
				 SV_DIFF_SORT_PCT, 0, NULL),
		0);
	ck_assert_str_eq(d.rows[0].name, "a");
	ck_assert_str_eq(d.rows[1].name, "b");
	ck_assert_str_eq(d.rows[2].name, "c");
	ck_assert_double_eq_tol(d.rows[2].pct, 100.0 / 3, 1e-9);
	sv_diff_fini(&d);
	for (k = 0; k < 2; k++) {
		sv_stats_table_fini(&t[k]);
		sv_profile_free(p[k]);
	}
}
END_TEST

START_TEST(threshold_hides_small_changes)
{
	struct pair w;
	struct sv_diff d;
	struct sv_error err = {0};

	pair_open(&w, NULL, 0);
	/* 30%: y (-25%) hidden, x (+50%) kept, zero (0 -> 40) kept. */
	ck_assert_int_eq(sv_diff_compute(&d, &w.t[0], &w.t[1], SV_DIFF_TOTAL,
				 SV_DIFF_SORT_DELTA, 30, NULL),
		0);
	ck_assert_uint_eq(d.nhidden, 1);
	ck_assert(!row_named(&d, "x")->hidden);
	ck_assert(row_named(&d, "y")->hidden);
	ck_assert(!row_named(&d, "zero")->hidden);
	sv_diff_fini(&d);
	/* calls of zero 1 -> 1: no change, hidden by any threshold. */
	ck_assert_int_eq(sv_diff_compute(&d, &w.t[0], &w.t[1], SV_DIFF_CALLS,
				 SV_DIFF_SORT_DELTA, 0.001, NULL),
		0);
	ck_assert(row_named(&d, "zero")->hidden);
	ck_assert(!row_named(&d, "x")->hidden);
	ck_assert_uint_eq(d.nhidden, 2);
	sv_diff_fini(&d);
	ck_assert_int_eq(sv_diff_compute(&d, &w.t[0], &w.t[1], SV_DIFF_TOTAL,
				 SV_DIFF_SORT_DELTA, -1, &err),
		-EINVAL);
	ck_assert_int_eq(
		sv_diff_compute(&d, &w.t[0], &w.t[1], SV_DIFF_METRIC_COUNT,
			SV_DIFF_SORT_DELTA, 0, &err),
		-EINVAL);
	pair_close(&w);
}
END_TEST

START_TEST(ranks_on_both_sides)
{
	static const bool rank1[] = {false, true};
	struct pair w;
	struct sv_diff d;

	/* Rank 1 holds only x, 600 ns in both: every other region is absent
	 * from both selections, so from the lists too. */
	pair_open(&w, rank1, 2);
	ck_assert_int_eq(sv_diff_compute(&d, &w.t[0], &w.t[1], SV_DIFF_TOTAL,
				 SV_DIFF_SORT_DELTA, 0, NULL),
		0);
	ck_assert_uint_eq(d.nrows, 1);
	ck_assert_str_eq(d.rows[0].name, "x");
	ck_assert_double_eq(d.rows[0].a.v, 600);
	ck_assert_double_eq(d.rows[0].delta, 0);
	ck_assert_uint_eq(d.nonly_a, 0);
	ck_assert_uint_eq(d.nonly_b, 0);
	sv_diff_fini(&d);
	pair_close(&w);
}
END_TEST

START_TEST(gate_rule)
{
	struct pair w;
	struct sv_diff d;

	pair_open(&w, NULL, 0);
	ck_assert_int_eq(sv_diff_compute(&d, &w.t[0], &w.t[1], SV_DIFF_TOTAL,
				 SV_DIFF_SORT_DELTA, 0, NULL),
		0);
	/* x grew 50%: above 49.9, not above 50 (more than, not as much). */
	ck_assert(sv_diff_row_regressed(row_named(&d, "x"), 49.9));
	ck_assert(!sv_diff_row_regressed(row_named(&d, "x"), 50));
	/* zero grew from 0: above any percentage. */
	ck_assert(sv_diff_row_regressed(row_named(&d, "zero"), 1e9));
	/* y got faster. */
	ck_assert(!sv_diff_row_regressed(row_named(&d, "y"), 0));
	sv_diff_fini(&d);
	pair_close(&w);
}
END_TEST

START_TEST(names_of_metrics_and_sorts)
{
	int m;
	for (m = 0; m < SV_DIFF_METRIC_COUNT; m++)
		ck_assert_int_eq(
			sv_diff_metric_from_name(sv_diff_metric_name(m)), m);
	ck_assert_int_eq(sv_diff_metric_from_name("first"), -1);
	ck_assert(sv_diff_metric_is_time(SV_DIFF_P99));
	ck_assert(!sv_diff_metric_is_time(SV_DIFF_CALLS));
	ck_assert(!sv_diff_metric_is_time(SV_DIFF_IMBALANCE));
	ck_assert_ptr_null(sv_diff_metric_name(SV_DIFF_METRIC_COUNT));
	ck_assert_int_eq(sv_diff_sort_from_name("pct"), SV_DIFF_SORT_PCT);
	ck_assert_int_eq(sv_diff_metric_of_key(SV_STATS_KEY_EXCLUSIVE),
		SV_DIFF_EXCLUSIVE);
	ck_assert_int_eq(sv_diff_metric_of_key(SV_STATS_KEY_START), -1);
	/* The colour levels: 1% and 10% steps, growth from 0, one side. */
	ck_assert_int_eq(sv_diff_level(true, 100, true, 100.9), 0);
	ck_assert_int_eq(sv_diff_level(true, 100, true, 101), 1);
	ck_assert_int_eq(sv_diff_level(true, 100, true, 110), 2);
	ck_assert_int_eq(sv_diff_level(true, 100, true, 95), -1);
	ck_assert_int_eq(sv_diff_level(true, 100, true, 90), -2);
	ck_assert_int_eq(sv_diff_level(true, 0, true, 5), 2);
	ck_assert_int_eq(sv_diff_level(true, 0, true, 0), 0);
	ck_assert_int_eq(sv_diff_level(false, 0, true, 5), 2);
	ck_assert_int_eq(sv_diff_level(true, 5, false, 0), -2);
	ck_assert_int_eq(sv_diff_sort_from_name("start"), -1);
}
END_TEST

/* The done-when pair: two generated runs that differ in one region. */
START_TEST(generated_slow_region_tops_the_delta_order)
{
	char *path[2] = {svt_tmp_path("fast.h5"), svt_tmp_path("slow.h5")};
	struct sv_profile *p[2] = {NULL, NULL};
	struct sv_stats_table t[2];
	struct sv_gen_opts o;
	struct sv_error err = {0};
	struct sv_diff d;
	int k;

	for (k = 0; k < 2; k++) {
		sv_gen_opts_init(&o);
		o.events = 20000;
		if (k) {
			o.slow_region = "solve";
			o.slow_factor = 1.5;
		}
		ck_assert_msg(sv_gen_write(path[k], &o, NULL, NULL, &err) == 0,
			"%s", err.msg);
		ck_assert_msg(sv_load(path[k], NULL, &p[k], &err) == 0, "%s",
			err.msg);
		ck_assert_int_eq(
			sv_stats_table_compute(&t[k], p[k], NULL, NULL), 0);
	}
	ck_assert_int_eq(sv_diff_compute(&d, &t[0], &t[1], SV_DIFF_TOTAL,
				 SV_DIFF_SORT_DELTA, 0, NULL),
		0);
	ck_assert_str_eq(d.rows[0].name, "solve");
	ck_assert(d.rows[0].pct > 40 && d.rows[0].pct < 60);
	ck_assert(sv_diff_row_regressed(&d.rows[0], 5));
	ck_assert_uint_eq(d.nonly_a + d.nonly_b, 0);
	/* What solve encloses slowed with it; what it does not, did not. */
	ck_assert(row_named(&d, "kernel:spmv")->pct > 40);
	ck_assert_double_eq(row_named(&d, "setup")->delta, 0);
	ck_assert_double_eq(row_named(&d, "fib")->delta, 0);
	sv_diff_fini(&d);
	for (k = 0; k < 2; k++) {
		sv_stats_table_fini(&t[k]);
		sv_profile_free(p[k]);
		free(path[k]);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("diff");
	TCase *t = tcase_create("diff");
	tcase_add_test(t, total_by_hand);
	tcase_add_test(t, other_metrics_by_hand);
	tcase_add_test(t, pct_sort_and_ties);
	tcase_add_test(t, ties_by_name);
	tcase_add_test(t, threshold_hides_small_changes);
	tcase_add_test(t, ranks_on_both_sides);
	tcase_add_test(t, gate_rule);
	tcase_add_test(t, names_of_metrics_and_sorts);
	tcase_add_test(t, generated_slow_region_tops_the_delta_order);
	suite_add_tcase(s, t);
	return svt_run(s);
}
