/*
 * test_pairwise.c: numpy's pairwise summation (pairwise.h): its order of
 * additions is visible where rounding differs from a plain loop.
 */
#include <stdlib.h>

#include "helpers.h"
#include "scopeview/common.h"
#include "scopeview/pairwise.h"

START_TEST(test_pairwise_small)
{
	const double a[] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7};
	double plain = 0;
	size_t n;

	/* below eight values it is the plain loop */
	ck_assert(sv_pairwise_sum(NULL, 0) == 0.0);
	for (n = 1; n <= 7; n++) {
		plain += a[n - 1];
		ck_assert(sv_pairwise_sum(a, n) == plain);
	}
}
END_TEST

START_TEST(test_pairwise_lanes)
{
	double a[16];
	size_t i;

	/* given 1e16 and fifteen 1.0s: a plain loop loses every 1.0 (1e16
	 * + 1 rounds back to 1e16), numpy's eight partial sums add seven
	 * 2.0s to the 1e16 lane and keep them */
	a[0] = 1e16;
	for (i = 1; i < 16; i++)
		a[i] = 1.0;
	ck_assert(sv_pairwise_sum(a, 16) == 1e16 + 14);
	/* and the tail after the last full group of eight is added last */
	ck_assert(sv_pairwise_sum(a, 9) == 1e16 + 8);
}
END_TEST

START_TEST(test_pairwise_exact_large)
{
	size_t n = 100003, i;
	double *a = sv_xmalloc(n * sizeof *a), want = 0;

	/* integers sum exactly in any order: the recursion loses none */
	for (i = 0; i < n; i++) {
		a[i] = (double)(i % 1000);
		want += (double)(i % 1000);
	}
	ck_assert(sv_pairwise_sum(a, n) == want);
	free(a);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pairwise");
	TCase *t = tcase_create("sum");
	tcase_add_test(t, test_pairwise_small);
	tcase_add_test(t, test_pairwise_lanes);
	tcase_add_test(t, test_pairwise_exact_large);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
