/*
 * test_nest.c: nesting one lane's calls (nest.h): parents, depths,
 * exclusive times and the rows a lane needs, for proper nesting,
 * zero-length calls, partial overlaps and degenerate input.
 */
#include <stdint.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/nest.h"

#define NEST_MAX 6
#define NO       SV_NO_CALL

struct nest_case {
	const char *what;
	size_t n;
	int64_t s[NEST_MAX], e[NEST_MAX]; /* by call */
	uint32_t order[NEST_MAX];         /* start asc, end desc */
	uint32_t parent[NEST_MAX];
	uint16_t depth[NEST_MAX];
	int64_t excl[NEST_MAX];
	uint32_t rows;
	int overlaps;
};

static const struct nest_case nest_cases[] = {
	{"nested", 3, {0, 10, 20}, {100, 15, 40}, {0, 1, 2}, {NO, 0, 0},
		{0, 1, 1}, {75, 5, 20}, 2, 0},
	{"chain", 3, {0, 10, 12}, {100, 50, 20}, {0, 1, 2}, {NO, 0, 1},
		{0, 1, 2}, {60, 32, 8}, 3, 0},
	{"siblings touch: the first has closed", 3, {0, 0, 10}, {20, 10, 20},
		{0, 1, 2}, {NO, 0, 0}, {0, 1, 1}, {0, 10, 10}, 2, 0},
	{"zero-length call is open at its start", 2, {10, 10}, {10, 10}, {0, 1},
		{NO, 0}, {0, 1}, {0, 0}, 2, 0},
	{"zero-length call closes after its start", 2, {10, 11}, {10, 12},
		{0, 1}, {NO, NO}, {0, 0}, {0, 1}, 1, 0},
	{"end before start is zero-length", 2, {10, 10}, {5, 3}, {0, 1},
		{NO, 0}, {0, 1}, {-5, -7}, 2, 0},
	{"order given by the caller", 2, {5, 5}, {9, 9}, {1, 0}, {1, NO},
		{1, 0}, {4, 0}, 2, 0},
	{"partial overlap charges the covered part", 2, {0, 50}, {100, 150},
		{0, 1}, {NO, 0}, {0, 1}, {50, 100}, 2, 1},
	{"absurd times wrap", 2, {INT64_MIN, 0}, {INT64_MAX, 1}, {0, 1},
		{NO, 0}, {0, 1}, {-2, 1}, 2, 0},
	{"empty lane", 0, {0}, {0}, {0}, {0}, {0}, {0}, 0, 0},
};

static void nest_count(void *ctx, uint32_t call, uint32_t parent)
{
	(void)call;
	(void)parent;
	(*(int *)ctx)++;
}

START_TEST(test_nest_table)
{
	const struct nest_case *tc = &nest_cases[_i];
	uint32_t parent[NEST_MAX], stack[NEST_MAX];
	uint16_t depth[NEST_MAX];
	int64_t excl[NEST_MAX], acc[NEST_MAX];
	int overlaps = 0;
	struct sv_nest nest = {.start_ns = tc->s,
		.end_ns = tc->e,
		.parent = parent,
		.depth = depth,
		.exclusive = excl,
		.overlap = nest_count,
		.ctx = &overlaps};
	uint32_t dur[NEST_MAX];
	int32_t excl32[NEST_MAX];
	struct sv_wide dur_wide = {0}, excl_wide = {0};
	size_t i;

	/* given one lane in nesting order, when it is nested */
	uint32_t rows = sv_nest_lane(&nest, tc->order, tc->n, stack);

	/* (and again from uint32 durations into int32 exclusive times, as
	 * sv_profile_finish does: the same figures) */
	for (i = 0; i < tc->n; i++)
		dur[i] = sv_wide_u32(&dur_wide, (uint32_t)i,
			sv_sub_wrap(tc->e[i], tc->s[i]));
	{
		struct sv_nest narrow = {.start_ns = tc->s,
			.dur = dur,
			.dur_wide = &dur_wide,
			.exclusive32 = excl32,
			.exclusive_wide = &excl_wide,
			.acc = acc};
		struct sv_nest_stack grown = {0};
		ck_assert_uint_eq(
			sv_nest_lane(&narrow, tc->order, tc->n, stack), rows);
		sv_wide_sort(&excl_wide);
		for (i = 0; i < tc->n; i++)
			ck_assert_int_eq(sv_wide_get_i32(&excl_wide, excl32,
						 (uint32_t)i),
				excl[i]);
		/* (and on a stack grown as it goes, as sv_profile_finish
		 * nests: the same figures, and room for its depth only) */
		sv_wide_fini(&excl_wide);
		memset(excl32, 0, sizeof excl32);
		ck_assert_uint_eq(
			sv_nest_lane_grow(&narrow, tc->order, tc->n, &grown),
			rows);
		sv_wide_sort(&excl_wide);
		for (i = 0; i < tc->n; i++)
			ck_assert_int_eq(sv_wide_get_i32(&excl_wide, excl32,
						 (uint32_t)i),
				excl[i]);
		ck_assert_uint_le(grown.cap, tc->n > 64 ? 2 * tc->n : 64);
		sv_nest_stack_fini(&grown);
	}
	sv_wide_fini(&dur_wide);
	sv_wide_fini(&excl_wide);

	/* then every call has its parent, depth and exclusive time */
	ck_assert_msg(rows == tc->rows, "%s: rows %u", tc->what, rows);
	ck_assert_int_eq(overlaps, tc->overlaps);
	for (i = 0; i < tc->n; i++) {
		ck_assert_msg(parent[i] == tc->parent[i], "%s: parent of %zu",
			tc->what, i);
		ck_assert_msg(depth[i] == tc->depth[i], "%s: depth of %zu",
			tc->what, i);
		ck_assert_msg(excl[i] == tc->excl[i],
			"%s: exclusive of %zu: %lld", tc->what, i,
			(long long)excl[i]);
	}
}
END_TEST

/* A chain of calls each inside the last, deeper than the grown stack's
 * first room (64): given it nested on a stack grown as it goes, then
 * every depth and exclusive time is that of the stack sized for the
 * lane. */
START_TEST(test_nest_grown_deep)
{
	enum { DEEP = 300 };
	static int64_t s[DEEP];
	static uint32_t order[DEEP], stack[DEEP], dur[DEEP];
	static int64_t acc[DEEP];
	static int32_t a[DEEP], b[DEEP];
	static uint16_t da[DEEP], db[DEEP];
	static uint8_t d8[DEEP];
	struct sv_wide dw = {0}, wa = {0}, wb = {0}, w8 = {0};
	struct sv_nest_stack grown = {0};
	uint32_t i;

	for (i = 0; i < DEEP; i++) {
		s[i] = i;
		dur[i] = sv_wide_u32(&dw, i, 2 * (DEEP - (int64_t)i));
		order[i] = i;
	}
	{
		struct sv_nest x = {.start_ns = s,
			.dur = dur,
			.dur_wide = &dw,
			.depth = da,
			.exclusive32 = a,
			.exclusive_wide = &wa,
			.acc = acc};
		struct sv_nest y = x;
		y.depth = db;
		y.exclusive32 = b;
		y.exclusive_wide = &wb;
		y.acc = NULL;
		ck_assert_uint_eq(sv_nest_lane(&x, order, DEEP, stack), DEEP);
		ck_assert_uint_eq(
			sv_nest_lane_grow(&y, order, DEEP, &grown), DEEP);
		/* and the depths in a byte, those of 255 and more apart */
		y.depth = NULL;
		y.depth8 = d8;
		y.depth_wide = &w8;
		y.exclusive32 = NULL;
		ck_assert_uint_eq(
			sv_nest_lane_grow(&y, order, DEEP, &grown), DEEP);
		sv_wide_sort(&w8);
		ck_assert_uint_eq(w8.n, DEEP - 255);
	}
	ck_assert_uint_ge(grown.cap, DEEP);
	for (i = 0; i < DEEP; i++) {
		ck_assert_uint_eq(da[i], db[i]);
		ck_assert_uint_eq(db[i], i);
		ck_assert_int_eq(sv_wide_get_u8(&w8, d8, i), i);
		ck_assert_int_eq(a[i], b[i]);
		ck_assert_int_eq(b[i], 2);
	}
	sv_nest_stack_fini(&grown);
	sv_wide_fini(&dw);
	sv_wide_fini(&wa);
	sv_wide_fini(&wb);
	sv_wide_fini(&w8);
}
END_TEST

START_TEST(test_nest_outputs_optional)
{
	const int64_t s[] = {0, 10}, e[] = {100, 20};
	const uint32_t order[] = {0, 1};
	uint32_t stack[2], parent[2] = {7, 7};
	struct sv_nest nest = {.start_ns = s, .end_ns = e};

	/* with no outputs it only counts rows; with one, it fills just that */
	ck_assert_uint_eq(sv_nest_lane(&nest, order, 2, stack), 2);
	nest.parent = parent;
	ck_assert_uint_eq(sv_nest_lane(&nest, order + 1, 1, stack), 1);
	ck_assert_uint_eq(parent[1], SV_NO_CALL);
	ck_assert_uint_eq(parent[0], 7); /* not in the list: untouched */
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("nest");
	TCase *t = tcase_create("lane");
	tcase_add_loop_test(t, test_nest_table, 0,
		sizeof nest_cases / sizeof nest_cases[0]);
	tcase_add_test(t, test_nest_outputs_optional);
	tcase_add_test(t, test_nest_grown_deep);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
