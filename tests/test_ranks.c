/*
 * test_ranks.c: the rank x region matrix (ranks.h) on profiles built in
 * memory: cells against the statistics table's per-rank figures, the
 * load-balance figures by hand, absent ranks, grouping, imbalance order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/profile.h"
#include "scopeview/ranks.h"
#include "scopeview/stats.h"

/* One row of region name on rank with n calls of dur ns each, spaced. */
static void add(struct sv_profile *p, uint32_t rank, const char *name, int n,
	int64_t dur)
{
	int64_t reg = sv_profile_find_region(p, name);
	struct sv_row *r;
	int k;
	if (reg < 0)
		reg = sv_profile_add_region(p, name);
	r = sv_profile_add_row(p, rank, (uint32_t)reg, (uint64_t)n, NULL);
	ck_assert_ptr_nonnull(r);
	for (k = 0; k < n; k++) {
		p->start_ns[r->first + k] = 1000 + (int64_t)k * 100000;
		p->end_ns[r->first + k] = 1000 + (int64_t)k * 100000 + dur;
	}
}

/* Given: "a" on ranks 0, 1, 3 (rank 2 has none), "b" on rank 2 only. */
static struct sv_profile *sample(void)
{
	struct sv_profile *p = sv_profile_new("mem");
	add(p, 0, "a", 2, 100);
	add(p, 1, "a", 1, 400);
	add(p, 3, "a", 3, 100);
	add(p, 2, "b", 1, 50);
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

START_TEST(matrix_cells_and_figures)
{
	struct sv_profile *p = sample();
	struct sv_stats_table t;
	struct sv_ranks m;
	const struct sv_ranks_cell *c;
	int64_t v;

	ck_assert_int_eq(sv_stats_table_compute(&t, p, NULL, NULL), 0);
	ck_assert_int_eq(sv_ranks_compute(&m, &t, SV_RANKS_TOTAL), 0);
	ck_assert_uint_eq(m.nranks, 4);
	ck_assert_uint_eq(m.nregions, 2);
	ck_assert_str_eq(t.regions[0].name, "a");
	/* Rank 0: two calls of 100 ns. */
	c = sv_ranks_cell_at(&m, 0, 0);
	ck_assert(c->has);
	ck_assert_uint_eq(c->num_calls, 2);
	ck_assert_int_eq(c->total_ns, 200);
	ck_assert(c->has_exclusive);
	ck_assert_int_eq(c->exclusive_ns, 200);
	/* Rank 2 has no call of "a": absent, not a zero. */
	c = sv_ranks_cell_at(&m, (size_t)sv_ranks_row_of(&m, 2), 0);
	ck_assert(!c->has);
	ck_assert(!sv_ranks_value(&m, c, &v));
	/* min 200, mean (200 + 400 + 300) / 3, max 400 on rank 1. */
	ck_assert(m.fig[0].has);
	ck_assert_uint_eq(m.fig[0].nranks, 3);
	ck_assert_int_eq(m.fig[0].min_ns, 200);
	ck_assert_int_eq(m.fig[0].max_ns, 400);
	ck_assert_double_eq_tol(m.fig[0].mean_ns, 300.0, 1e-9);
	ck_assert_uint_eq(m.fig[0].slowest_rank, 1);
	ck_assert_double_eq_tol(m.fig[0].excess_ns, 100.0, 1e-9);
	/* The imbalance is summary's, copied. */
	ck_assert(
		m.fig[0].rank_imbalance_pct == t.regions[0].rank_imbalance_pct);
	ck_assert_double_eq_tol(m.fig[0].rank_imbalance_pct, 100.0 / 3, 1e-9);
	ck_assert_uint_eq(m.fig[1].nranks, 1);
	ck_assert_uint_eq(m.fig[1].slowest_rank, 2);
	sv_ranks_fini(&m);
	sv_ranks_fini(&m); /* idempotent */
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(matrix_exclusive_metric)
{
	struct sv_profile *p = sv_profile_new("mem");
	struct sv_stats_table t;
	struct sv_ranks m;
	struct sv_row *r;
	uint32_t reg;

	/* Given: "outer" [0, 100) holding "inner" [10, 70) on rank 0. */
	reg = sv_profile_add_region(p, "outer");
	r = sv_profile_add_row(p, 0, reg, 1, NULL);
	p->start_ns[r->first] = 0;
	p->end_ns[r->first] = 100;
	reg = sv_profile_add_region(p, "inner");
	r = sv_profile_add_row(p, 0, reg, 1, NULL);
	p->start_ns[r->first] = 10;
	p->end_ns[r->first] = 70;
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	ck_assert_int_eq(sv_stats_table_compute(&t, p, NULL, NULL), 0);
	ck_assert_int_eq(sv_ranks_compute(&m, &t, SV_RANKS_EXCLUSIVE), 0);
	ck_assert_int_eq(m.fig[0].max_ns, 40);
	sv_ranks_set_metric(&m, SV_RANKS_TOTAL);
	ck_assert_int_eq(m.fig[0].max_ns, 100);
	sv_ranks_fini(&m);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(matrix_group_and_order)
{
	struct sv_profile *p = sv_profile_new("mem");
	struct sv_stats_table t;
	struct sv_ranks m;
	int64_t scratch[8], lo, med, hi;
	size_t order[2];
	uint32_t r;

	/* "even" is balanced; "skew" has rank r take (r + 1) * 10 ns. */
	for (r = 0; r < 8; r++) {
		add(p, r, "even", 1, 10);
		add(p, r, "skew", 1, (int64_t)(r + 1) * 10);
	}
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	ck_assert_int_eq(sv_stats_table_compute(&t, p, NULL, NULL), 0);
	ck_assert_int_eq(sv_ranks_compute(&m, &t, SV_RANKS_TOTAL), 0);
	ck_assert_uint_eq(
		sv_ranks_group(&m, 1, 2, 6, scratch, &lo, &med, &hi), 4);
	ck_assert_int_eq(lo, 30);
	ck_assert_int_eq(med, 40); /* lower median of 30, 40, 50, 60 */
	ck_assert_int_eq(hi, 60);
	/* Past the end is clamped; an empty group stores nothing. */
	ck_assert_uint_eq(
		sv_ranks_group(&m, 1, 6, 100, scratch, &lo, &med, &hi), 2);
	ck_assert_uint_eq(
		sv_ranks_group(&m, 1, 8, 8, scratch, &lo, &med, &hi), 0);
	sv_ranks_order_by_imbalance(&m, order);
	ck_assert_str_eq(t.regions[order[0]].name, "skew");
	ck_assert_str_eq(t.regions[order[1]].name, "even");
	ck_assert_int_eq(sv_ranks_row_of(&m, 7), 7);
	ck_assert_int_eq(sv_ranks_row_of(&m, 9), -1);
	sv_ranks_fini(&m);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(matrix_degenerate)
{
	struct sv_profile *p = sv_profile_new("empty");
	struct sv_stats_table t;
	struct sv_ranks m;

	ck_assert_int_eq(sv_ranks_compute(NULL, NULL, SV_RANKS_TOTAL), -EINVAL);
	ck_assert_int_eq(sv_ranks_compute(&m, NULL, SV_RANKS_TOTAL), -EINVAL);
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	ck_assert_int_eq(sv_stats_table_compute(&t, p, NULL, NULL), 0);
	ck_assert_int_eq(sv_ranks_compute(&m, &t, SV_RANKS_TOTAL), 0);
	ck_assert_uint_eq(m.nranks, 0);
	ck_assert_uint_eq(m.nregions, 0);
	ck_assert_int_eq(sv_ranks_row_of(&m, 0), -1);
	ck_assert_int_eq(sv_ranks_row_of(NULL, 0), -1);
	sv_ranks_fini(&m);
	sv_ranks_fini(NULL);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* ---- ranks inside a region ---------------------------------------------- */

/* One call of name on rank [s, e) at the profile's end. */
static void add1(struct sv_profile *p, uint32_t rank, const char *name,
	int64_t s, int64_t e)
{
	int64_t reg = sv_profile_find_region(p, name);
	struct sv_row *r;
	if (reg < 0)
		reg = sv_profile_add_region(p, name);
	r = sv_profile_add_row(p, rank, (uint32_t)reg, 1, NULL);
	ck_assert_ptr_nonnull(r);
	p->start_ns[r->first] = s;
	p->end_ns[r->first] = e;
}

/* Given: "r" on rank 0 [0,150) with [50,100) inside it and [300,400);
 * on rank 1, stored out of order, [500,600), [200,250) and a call of no
 * length at 700; "x" on rank 2 only. */
static struct sv_profile *inside_sample(void)
{
	struct sv_profile *p = sv_profile_new("mem");
	p->has_calls = true;
	add1(p, 0, "r", 0, 150);
	add1(p, 0, "r", 50, 100);
	add1(p, 0, "r", 300, 400);
	add1(p, 1, "r", 500, 600);
	add1(p, 1, "r", 200, 250);
	add1(p, 1, "r", 700, 700);
	add1(p, 2, "x", 0, 1000);
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

static const struct {
	int64_t t0, t1;
	uint32_t want;
} inside_counts[] = {
	{0, 10, 1},    /* rank 0's first call */
	{120, 210, 2}, /* rank 0 leaving, rank 1 arriving */
	{150, 200, 0}, /* between them: the ends are open */
	{250, 300, 0}, {350, 550, 2},
	{700, 701, 1}, /* the call of no length has its nanosecond */
	{1000, 2000, 0}, {10, 10, 0}, /* an empty range */
	{20, 10, 0},                  /* end < start */
};

START_TEST(inside_counts_ranks)
{
	struct sv_profile *p = inside_sample();
	struct sv_ranks_inside ri;

	/* given the ranks inside "r" */
	ck_assert_int_eq(sv_ranks_inside_build(&ri, p,
				 (uint32_t)sv_profile_find_region(p, "r"), NULL,
				 0, NULL, NULL),
		0);
	/* then ranks 0 and 1 have it, and the range counts as listed */
	ck_assert_uint_eq(ri.nranks, 2);
	ck_assert_uint_eq(ri.ranks[0], 0);
	ck_assert_uint_eq(ri.ranks[1], 1);
	ck_assert_uint_eq(ri.ncalls, 6);
	ck_assert_uint_eq(sv_ranks_inside_count(&ri, inside_counts[_i].t0,
				  inside_counts[_i].t1),
		inside_counts[_i].want);
	sv_ranks_inside_fini(&ri);
	sv_profile_free(p);
}
END_TEST

/* Whether some call of region on rank meets [t0, t1), by a scan. */
static bool inside_scan(const struct sv_profile *p, uint32_t region,
	uint32_t rank, int64_t t0, int64_t t1)
{
	uint32_t c;
	for (c = 0; c < p->ncalls; c++) {
		int64_t s = sv_profile_start(p, c), e = sv_profile_end(p, c);
		if (e <= s)
			e = s + 1;
		if (sv_call_region(p, c) == region &&
			sv_call_rank(p, c) == rank && s < t1 && e > t0)
			return true;
	}
	return false;
}

START_TEST(inside_runs_and_unions)
{
	struct sv_profile *p = sv_profile_new("mem");
	struct sv_ranks_inside ri;
	struct sv_row *r;
	int64_t t;
	uint32_t i, k;

	/* given one row of rank 0 whose calls nest in pairs (an outer call
	 * of 500 ns with an inner one, 65 times: 65 runs of ascending ends,
	 * more than a rank keeps), and one row of rank 1 of calls one after
	 * another, one of no length */
	p->has_calls = true;
	sv_profile_add_region(p, "r");
	r = sv_profile_add_row(p, 0, 0, 130, NULL);
	ck_assert_ptr_nonnull(r);
	for (i = 0; i < 65; i++) {
		p->start_ns[r->first + 2 * i] = 1000 * (int64_t)i;
		p->end_ns[r->first + 2 * i] = 1000 * (int64_t)i + 500;
		p->start_ns[r->first + 2 * i + 1] = 1000 * (int64_t)i + 100;
		p->end_ns[r->first + 2 * i + 1] = 1000 * (int64_t)i + 200;
	}
	r = sv_profile_add_row(p, 1, 0, 40, NULL);
	ck_assert_ptr_nonnull(r);
	for (i = 0; i < 40; i++) {
		p->start_ns[r->first + i] = 1700 * (int64_t)i;
		p->end_ns[r->first + i] =
			1700 * (int64_t)i + (i == 7 ? 0 : 900);
	}
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	ck_assert_int_eq(
		sv_ranks_inside_build(&ri, p, 0, NULL, 0, NULL, NULL), 0);
	/* then rank 0 keeps the union of its time, rank 1 one run */
	ck_assert_uint_eq(ri.nranks, 2);
	ck_assert_uint_eq(ri.off[1] - ri.off[0], 65);
	ck_assert_uint_eq(ri.run_off[1] - ri.run_off[0], 0);
	ck_assert_uint_eq(ri.off[2] - ri.off[1], 0);
	ck_assert_uint_eq(ri.run_off[2] - ri.run_off[1], 1);
	ck_assert_uint_eq(ri.ncalls, 170);
	/* and every range's count is a scan's */
	for (t = -50; t < 70000; t += 50)
		for (k = 1; k <= 1200; k += 233) {
			uint32_t want = inside_scan(p, 0, 0, t, t + k) +
					inside_scan(p, 0, 1, t, t + k);
			ck_assert_msg(
				sv_ranks_inside_count(&ri, t, t + k) == want,
				"[%lld, %lld): %u, not %u", (long long)t,
				(long long)(t + k),
				sv_ranks_inside_count(&ri, t, t + k), want);
		}
	sv_ranks_inside_fini(&ri);
	sv_profile_free(p);
}
END_TEST

START_TEST(inside_intervals_depth_lane)
{
	struct sv_profile *p = inside_sample();
	struct sv_ranks_inside ri;
	bool only1[] = {false, true};

	ck_assert_int_eq(sv_ranks_inside_build(&ri, p,
				 (uint32_t)sv_profile_find_region(p, "r"), NULL,
				 0, NULL, NULL),
		0);
	/* a row a call: each rank's calls are runs, no interval kept */
	ck_assert_uint_eq(ri.run_off[1] - ri.run_off[0], 3);
	ck_assert_uint_eq(ri.run_off[2] - ri.run_off[1], 3);
	ck_assert_uint_eq(ri.off[2], 0);
	ck_assert_ptr_null(ri.t0);
	/* five calls at depth 0, one at depth 1 */
	ck_assert_uint_eq(ri.depth, 0);
	ck_assert_uint_eq(p->lanes[ri.lane[1]].rank, 1);
	ck_assert_int_eq(sv_ranks_inside_find(&ri, 1), 1);
	ck_assert_int_eq(sv_ranks_inside_find(&ri, 2), -1);
	sv_ranks_inside_fini(&ri);
	/* a rank filter keeps rank 1 only; ranks past it are off */
	ck_assert_int_eq(sv_ranks_inside_build(&ri, p,
				 (uint32_t)sv_profile_find_region(p, "r"),
				 only1, 2, NULL, NULL),
		0);
	ck_assert_uint_eq(ri.nranks, 1);
	ck_assert_uint_eq(ri.ranks[0], 1);
	sv_ranks_inside_fini(&ri);
	sv_profile_free(p);
}
END_TEST

static bool inside_cancel(void *ctx, uint64_t done)
{
	*(uint64_t *)ctx = done;
	return true;
}

START_TEST(inside_cancel_and_degenerate)
{
	struct sv_profile *p = sv_profile_new("mem"), *agg;
	struct sv_ranks_inside ri;
	uint64_t seen = 0;

	/* given a region of 70000 calls and a poll that says stop */
	p->has_calls = true;
	add(p, 0, "r", 70000, 10);
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	/* then the build stops with nothing kept */
	ck_assert_int_eq(
		sv_ranks_inside_build(&ri, p, 0, NULL, 0, inside_cancel, &seen),
		-ECANCELED);
	ck_assert_uint_gt(seen, 0);
	ck_assert_uint_eq(ri.nranks, 0);
	ck_assert_ptr_null(ri.t0);
	/* and bad arguments are refused */
	ck_assert_int_eq(sv_ranks_inside_build(NULL, p, 0, NULL, 0, NULL, NULL),
		-EINVAL);
	ck_assert_int_eq(
		sv_ranks_inside_build(&ri, NULL, 0, NULL, 0, NULL, NULL),
		-EINVAL);
	ck_assert_int_eq(
		sv_ranks_inside_build(&ri, p, 7, NULL, 0, NULL, NULL), -EINVAL);
	agg = sv_profile_new("agg");
	ck_assert_int_eq(
		sv_ranks_inside_build(&ri, agg, 0, NULL, 0, NULL, NULL),
		-EINVAL);
	ck_assert_uint_eq(sv_ranks_inside_count(NULL, 0, 10), 0);
	ck_assert_int_eq(sv_ranks_inside_find(NULL, 0), -1);
	ck_assert_int_eq(sv_ranks_find(NULL, 0, 0), -1);
	sv_ranks_inside_fini(NULL);
	sv_profile_free(agg);
	sv_profile_free(p);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ranks");
	TCase *t = tcase_create("matrix");
	tcase_add_test(t, matrix_cells_and_figures);
	tcase_add_test(t, matrix_exclusive_metric);
	tcase_add_test(t, matrix_group_and_order);
	tcase_add_test(t, matrix_degenerate);
	suite_add_tcase(s, t);
	t = tcase_create("inside");
	tcase_add_loop_test(t, inside_counts_ranks, 0,
		sizeof inside_counts / sizeof inside_counts[0]);
	tcase_add_test(t, inside_intervals_depth_lane);
	tcase_add_test(t, inside_runs_and_unions);
	tcase_add_test(t, inside_cancel_and_degenerate);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
