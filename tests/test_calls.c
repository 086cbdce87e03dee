/*
 * test_calls.c: call lists (calls.h): collecting a region's calls with a
 * rank filter, every sort key in both directions, ties in call-number
 * order whatever the input order, absent columns last (against a
 * comparison sort on random profiles, both the one-word and the pair
 * paths), key names, cancellation and bad arguments.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/calls.h"
#include "scopeview/profile.h"

/* Region "a": rank 0 calls [0,30) [100,110) [200,230); rank 1 [50,90);
 * region "b": rank 1 [300,301).  Calls 0..2 have GPU times 5, -1, 7. */
static struct sv_profile *sample(void)
{
	struct sv_profile *p = sv_profile_new("mem");
	uint32_t a = sv_profile_add_region(p, "a");
	uint32_t b = sv_profile_add_region(p, "b");
	static const int64_t se[][2] = {
		{0, 30}, {100, 110}, {200, 230}, {50, 90}, {300, 301}};
	struct sv_row *r;
	int64_t *gpu;
	int i;

	r = sv_profile_add_row(p, 0, a, 3, NULL);
	(void)r;
	sv_profile_add_row(p, 1, a, 1, NULL);
	sv_profile_add_row(p, 1, b, 1, NULL);
	for (i = 0; i < 5; i++) {
		p->start_ns[i] = se[i][0];
		p->end_ns[i] = se[i][1];
	}
	gpu = sv_profile_column(p, &p->gpu_ns, -1);
	gpu[0] = 5;
	gpu[2] = 7;
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

START_TEST(calls_collect)
{
	struct sv_profile *p = sample();
	uint32_t *c = NULL;
	bool only1[2] = {false, true};

	ck_assert_int_eq(sv_calls_of_region(p, 0, NULL, 0, &c, NULL), 4);
	ck_assert_uint_eq(c[0], 0);
	ck_assert_uint_eq(c[3], 3);
	free(c);
	ck_assert_int_eq(sv_calls_of_region(p, 0, only1, 2, &c, NULL), 1);
	ck_assert_uint_eq(c[0], 3);
	free(c);
	ck_assert_int_eq(sv_calls_of_region(p, 0, only1, 1, &c, NULL), 0);
	ck_assert_ptr_null(c);
	ck_assert_int_eq(sv_calls_of_region(p, 9, NULL, 0, &c, NULL), -EINVAL);
	ck_assert_int_eq(
		sv_calls_of_region(NULL, 0, NULL, 0, &c, NULL), -EINVAL);
	sv_profile_free(p);
}
END_TEST

/* sv_calls_pick: the region by name, sorted, cut to the limit; no such
 * region gives none; a rank list. */
START_TEST(calls_pick)
{
	struct sv_profile *p = sample();
	struct sv_calls_query q;
	bool only0[1] = {true};
	uint32_t *c = NULL;

	memset(&q, 0, sizeof q);
	q.region = "a";
	q.key = SV_CALLS_KEY_DURATION;
	q.limit = -1;
	ck_assert_int_eq(sv_calls_pick(p, &q, &c), 4);
	ck_assert_uint_eq(c[0], 3); /* 40 ns */
	ck_assert_uint_eq(c[1], 0); /* 30 ns */
	ck_assert_uint_eq(c[2], 2); /* 30 ns, a later call */
	ck_assert_uint_eq(c[3], 1);
	free(c);
	q.limit = 2;
	q.reverse = true;
	ck_assert_int_eq(sv_calls_pick(p, &q, &c), 2);
	ck_assert_uint_eq(c[0], 1);
	ck_assert_uint_eq(c[1], 0);
	free(c);
	q.rank_on = only0;
	q.nrank_on = 1;
	q.limit = -1;
	ck_assert_int_eq(sv_calls_pick(p, &q, &c), 3);
	free(c);
	q.region = "nosuch";
	ck_assert_int_eq(sv_calls_pick(p, &q, &c), 0);
	ck_assert_ptr_null(c);
	q.region = "a";
	q.key = (enum sv_calls_key)99;
	ck_assert_int_eq(sv_calls_pick(p, &q, &c), -EINVAL);
	ck_assert_ptr_null(c);
	sv_profile_free(p);
}
END_TEST

/* Order of calls 0..3 (region "a") by key: [key][reverse][i]. */
static const struct {
	int key;
	uint32_t want[2][4];
} calls_orders[] = {
	{SV_CALLS_KEY_DURATION, {{3, 0, 2, 1}, {1, 0, 2, 3}}},
	{SV_CALLS_KEY_START, {{0, 3, 1, 2}, {2, 1, 3, 0}}},
	{SV_CALLS_KEY_END, {{0, 3, 1, 2}, {2, 1, 3, 0}}},
	{SV_CALLS_KEY_RANK, {{0, 1, 2, 3}, {3, 0, 1, 2}}},
	/* GPU: 7, 5, then the call without timing and the one without a
	 * value last, in input order, whatever the direction. */
	{SV_CALLS_KEY_GPU, {{2, 0, 1, 3}, {0, 2, 1, 3}}},
};

START_TEST(calls_sort_keys)
{
	struct sv_profile *p = sample();
	int rev;

	for (rev = 0; rev < 2; rev++) {
		uint32_t c[4] = {0, 1, 2, 3};
		ck_assert_int_eq(
			sv_calls_sort(p, c, 4, calls_orders[_i].key, rev, NULL),
			0);
		ck_assert_mem_eq(c, calls_orders[_i].want[rev], sizeof c);
	}
	sv_profile_free(p);
}
END_TEST

/* A random profile: 3 ranks x 2 regions, n calls a row, durations in
 * [0, spread) (some equal), GPU times on some calls. */
static struct sv_profile *random_profile(
	uint32_t n, int64_t spread, unsigned seed)
{
	struct sv_profile *p = sv_profile_new("rnd");
	uint32_t reg[2], c = 0;
	int64_t *gpu;
	int rank, r;

	srand(seed);
	reg[0] = sv_profile_add_region(p, "x");
	reg[1] = sv_profile_add_region(p, "y");
	for (rank = 0; rank < 3; rank++)
		for (r = 0; r < 2; r++)
			sv_profile_add_row(p, (uint32_t)rank, reg[r], n, NULL);
	gpu = sv_profile_column(p, &p->gpu_ns, -1);
	for (c = 0; c < p->ncalls; c++) {
		int64_t s0 = (int64_t)(rand() % 1000) * (spread / 1000 + 1);
		p->start_ns[c] = s0;
		p->end_ns[c] =
			s0 + (rand() % 4 ? rand() % 50 : 7) * (spread / 50 + 1);
		if (rand() % 3 == 0)
			gpu[c] = rand() % 5;
	}
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

static const struct sv_profile *cmp_p;
static int cmp_key, cmp_desc;

/* The order sv_calls_sort promises: by key (absent last), then rank and
 * lane by start, then call number. */
static int calls_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	int64_t va = 0, vb = 0;
	bool ha = sv_calls_value(cmp_p, a, cmp_key, &va);
	bool hb = sv_calls_value(cmp_p, b, cmp_key, &vb);
	if (ha != hb)
		return ha ? -1 : 1;
	if (ha && va != vb)
		return (va < vb) == !cmp_desc ? -1 : 1;
	if (cmp_key == SV_CALLS_KEY_RANK || cmp_key == SV_CALLS_KEY_LANE) {
		int64_t sa = sv_profile_start(cmp_p, a),
			sb = sv_profile_start(cmp_p, b);
		if (sa != sb)
			return sa < sb ? -1 : 1;
	}
	return a < b ? -1 : a > b;
}

/* Sort calls 0 .. n of p, given in a shuffled order (a stride, offset by
 * shift), by key, and compare with the comparison sort; sorting again
 * must change nothing. */
static void check_sort(struct sv_profile *p, int key, int rev, uint32_t shift)
{
	uint32_t n = p->ncalls, i;
	uint32_t *got = malloc(n * sizeof *got);
	uint32_t *want = malloc(n * sizeof *want);

	for (i = 0; i < n; i++)
		got[i] = (uint32_t)(((uint64_t)i * 7919 + shift) % n);
	memcpy(want, got, n * sizeof *want);
	cmp_p = p;
	cmp_key = key;
	cmp_desc = sv_calls_key_descending(key) != rev;
	qsort(want, n, sizeof *want, calls_cmp);
	ck_assert_int_eq(sv_calls_sort(p, got, n, key, rev, NULL), 0);
	ck_assert_mem_eq(got, want, n * sizeof *got);
	sv_calls_sort(p, got, n, key, rev, NULL);
	ck_assert_mem_eq(got, want, n * sizeof *got);
	free(got);
	free(want);
}

START_TEST(calls_sort_random)
{
	/* Small spreads take the one-word path, 2^40 the pairs. */
	static const int64_t spreads[] = {100, 1000000, 1ll << 40};
	int s, key, rev;

	for (s = 0; s < 3; s++) {
		struct sv_profile *p =
			random_profile(700, spreads[s], (unsigned)s + 1);
		for (key = 0; key < SV_CALLS_KEY_COUNT; key++)
			for (rev = 0; rev < 2; rev++)
				check_sort(p, key, rev, (uint32_t)rev);
		sv_profile_free(p);
	}
}
END_TEST

/* A list long enough to be sorted in two halves side by side gives the
 * same order (durations: one word a call; starts 2^40 apart: pairs), and
 * so does the sort by rank, whose second pass gets the list in start
 * order: the halves' ties are merged by that order, not by call
 * number. */
START_TEST(calls_sort_two_halves)
{
	static const int64_t spreads[] = {100000, 1ll << 40};
	int s, rev;

	for (s = 0; s < 2; s++) {
		struct sv_profile *p =
			random_profile(170000, spreads[s], (unsigned)s + 7);
		ck_assert_uint_ge(p->ncalls, 1000000);
		for (rev = 0; rev < 2; rev++) {
			check_sort(p,
				s ? SV_CALLS_KEY_START : SV_CALLS_KEY_DURATION,
				rev, 0);
			check_sort(p, SV_CALLS_KEY_RANK, rev, 3);
		}
		sv_profile_free(p);
	}
}
END_TEST

START_TEST(calls_names_and_bad_input)
{
	struct sv_profile *p = sample();
	uint32_t c[4] = {0, 1, 2, 3};
	atomic_bool cancel = true;
	int64_t v;
	int k;

	for (k = 0; k < SV_CALLS_KEY_COUNT; k++) {
		ck_assert_int_eq(
			sv_calls_key_from_name(sv_calls_key_name(k)), k);
		ck_assert_ptr_nonnull(sv_calls_key_help(k));
	}
	ck_assert_ptr_null(sv_calls_key_name(SV_CALLS_KEY_COUNT));
	ck_assert_int_eq(sv_calls_key_from_name("nope"), -1);
	ck_assert_int_eq(sv_calls_key_from_name(NULL), -1);
	ck_assert(sv_calls_key_descending(SV_CALLS_KEY_DURATION));
	ck_assert(!sv_calls_key_descending(SV_CALLS_KEY_START));
	ck_assert_int_eq(
		sv_calls_sort(p, c, 4, SV_CALLS_KEY_COUNT, false, NULL),
		-EINVAL);
	ck_assert_int_eq(sv_calls_sort(NULL, c, 4, 0, false, NULL), -EINVAL);
	ck_assert_int_eq(sv_calls_sort(p, c, 0, 0, false, NULL), 0);
	ck_assert_int_eq(
		sv_calls_sort(p, c, 4, SV_CALLS_KEY_START, false, &cancel),
		-ECANCELED);
	ck_assert_uint_eq(c[1], 1); /* unchanged */
	ck_assert(!sv_calls_value(p, 0, SV_CALLS_KEY_AWAIT, &v));
	ck_assert(!sv_calls_value(p, 1, SV_CALLS_KEY_GPU, &v));
	ck_assert(sv_calls_value(p, 0, SV_CALLS_KEY_EXCLUSIVE, &v));
	ck_assert_int_eq(v, 30);
	sv_profile_free(p);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("calls");
	TCase *t = tcase_create("lists");
	tcase_add_test(t, calls_collect);
	tcase_add_test(t, calls_pick);
	tcase_add_loop_test(t, calls_sort_keys, 0,
		(int)(sizeof calls_orders / sizeof calls_orders[0]));
	tcase_add_test(t, calls_sort_random);
	tcase_add_test(t, calls_sort_two_halves);
	tcase_add_test(t, calls_names_and_bad_input);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
