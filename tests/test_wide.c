/*
 * test_wide.c: the exception table of a narrow per-call column (wide.h):
 * values that fit stay in the column, the others come back exact, in any
 * order of insertion.
 */
#include <stdint.h>

#include "helpers.h"
#include "scopeview/wide.h"

START_TEST(test_narrow_i32)
{
	/* given values at and past both ends of int32, and the marker itself;
	 * when stored narrow; then each reads back exact and only those that
	 * do not fit (and the marker) are exceptions */
	static const int64_t v[] = {0, -1, INT32_MAX, (int64_t)INT32_MAX + 1,
		INT32_MIN, (int64_t)INT32_MIN + 1, INT64_MIN, INT64_MAX,
		-1099511627776, 7};
	enum { N = sizeof v / sizeof v[0] };
	struct sv_wide w = {0};
	int32_t col[N];
	uint32_t c;

	for (c = 0; c < N; c++)
		col[c] = sv_wide_i32(&w, c, v[c]);
	ck_assert_uint_eq(w.n, 5);
	for (c = 0; c < N; c++)
		ck_assert_int_eq(sv_wide_get_i32(&w, col, c), v[c]);
	ck_assert_int_eq(col[2], INT32_MAX);
	ck_assert_int_eq(col[5], (int64_t)INT32_MIN + 1);
	sv_wide_fini(&w);
	ck_assert_uint_eq(w.n, 0);
	ck_assert_ptr_null(w.call);
}
END_TEST

START_TEST(test_narrow_u32)
{
	/* given durations of 0, just under and at the marker, 2^32 and
	 * negative ones; when stored narrow; then each reads back exact and
	 * only the marker and what does not fit are exceptions */
	static const int64_t v[] = {0, 1, (int64_t)UINT32_MAX - 1, UINT32_MAX,
		(int64_t)UINT32_MAX + 1, -1, INT64_MIN, INT64_MAX};
	enum { N = sizeof v / sizeof v[0] };
	struct sv_wide w = {0};
	uint32_t col[N];
	uint32_t c;

	for (c = 0; c < N; c++)
		col[c] = sv_wide_u32(&w, c, v[c]);
	ck_assert_uint_eq(w.n, 5);
	for (c = 0; c < N; c++)
		ck_assert_int_eq(sv_wide_get_u32(&w, col, c), v[c]);
	ck_assert_uint_eq(col[2], UINT32_MAX - 1);
	sv_wide_fini(&w);
}
END_TEST

START_TEST(test_any_order)
{
	/* given 1000 calls added in a scrambled order, one of them twice; then
	 * the table is sorted, holds each once with its last value, and a
	 * call never added is not found */
	struct sv_wide w = {0};
	uint32_t i;
	int64_t v = 0;

	for (i = 0; i < 1000; i++) {
		uint32_t c = (i * 337u) % 1000u * 2u;
		sv_wide_set(&w, c, -(int64_t)c * 1000000007);
	}
	sv_wide_set(&w, 10, 42);
	ck_assert_uint_eq(w.n, 1000);
	for (i = 1; i < w.n; i++)
		ck_assert_uint_lt(w.call[i - 1], w.call[i]);
	for (i = 0; i < 2000; i += 2) {
		ck_assert(sv_wide_find(&w, i, &v));
		ck_assert_int_eq(v, i == 10 ? 42 : -(int64_t)i * 1000000007);
	}
	v = 5;
	ck_assert(!sv_wide_find(&w, 3, &v));
	ck_assert(!sv_wide_find(&w, 5000, &v));
	ck_assert(!sv_wide_find(NULL, 0, &v));
	ck_assert_int_eq(v, 5);
	sv_wide_fini(&w);
}
END_TEST

START_TEST(test_append_sort)
{
	/* given 100,000 values appended in a scrambled order of calls, one
	 * call twice; when sorted; then each call finds its value (the
	 * later for the call given twice) and the table holds each once */
	enum { N = 100000 };
	struct sv_wide w = {0};
	uint32_t i;
	int64_t v;

	for (i = 0; i < N; i++) {
		uint32_t c = (i * 7919u) % N;
		sv_wide_append(&w, c, -(int64_t)c - 1);
	}
	sv_wide_append(&w, 42, 7);
	sv_wide_sort(&w);
	ck_assert_uint_eq(w.n, N);
	for (i = 0; i < N; i++) {
		ck_assert(sv_wide_find(&w, i, &v));
		ck_assert_int_eq(v, i == 42 ? 7 : -(int64_t)i - 1);
	}
	ck_assert(!sv_wide_find(&w, N, &v));
	sv_wide_fini(&w);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("wide");
	TCase *t = tcase_create("table");
	tcase_add_test(t, test_narrow_i32);
	tcase_add_test(t, test_narrow_u32);
	tcase_add_test(t, test_any_order);
	tcase_add_test(t, test_append_sort);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
