/*
 * test_strv.c: growable string vectors (strv.h): pushing copies, freeing,
 * joining, and the degenerate cases (empty, NULL).
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/common.h"
#include "scopeview/strv.h"

START_TEST(test_push_copies)
{
	/* given an empty vector and a buffer that changes after the push */
	struct sv_strv sv = {0};
	char name[8] = "rank0";
	size_t i;

	/* when names are pushed */
	ck_assert_str_eq(sv_strv_push(&sv, name), "rank0");
	name[4] = '1';
	for (i = 0; i < 100; i++)
		sv_strv_push(&sv, name);

	/* then each is an owned copy, in order */
	ck_assert_uint_eq(sv.n, 101);
	ck_assert_uint_ge(sv.cap, 101);
	ck_assert_str_eq(sv.v[0], "rank0");
	ck_assert_str_eq(sv.v[100], "rank1");
	sv_strv_fini(&sv);
	ck_assert_ptr_null(sv.v);
	ck_assert_uint_eq(sv.n, 0);
	ck_assert_uint_eq(sv.cap, 0);
	/* fini of an empty vector and of NULL does nothing */
	sv_strv_fini(&sv);
	sv_strv_fini(NULL);
}
END_TEST

START_TEST(test_free_array)
{
	char **v = sv_xcalloc(3, sizeof *v);
	v[0] = sv_xstrdup("a");
	v[2] = sv_xstrdup("c"); /* v[1] stays NULL */
	sv_strv_free_array(v, 3);
	sv_strv_free_array(NULL, 5);
}
END_TEST

static const struct {
	const char *in[3];
	size_t n;
	const char *sep, *want;
} join_cases[] = {
	{{NULL}, 0, ", ", ""},
	{{"a"}, 1, ", ", "a"},
	{{"a", "b", "c"}, 3, ", ", "a, b, c"},
	{{"", "", ""}, 3, "-", "--"},
	{{"x", "y"}, 2, "", "xy"},
};

START_TEST(test_join)
{
	char *got = sv_strv_join((char *const *)join_cases[_i].in,
		join_cases[_i].n, join_cases[_i].sep);
	ck_assert_str_eq(got, join_cases[_i].want);
	free(got);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("strv");
	TCase *t = tcase_create("vectors");
	tcase_add_test(t, test_push_copies);
	tcase_add_test(t, test_free_array);
	suite_add_tcase(s, t);
	t = tcase_create("join");
	tcase_add_loop_test(
		t, test_join, 0, sizeof join_cases / sizeof join_cases[0]);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
