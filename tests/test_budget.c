/*
 * test_budget.c: the memory budget (budget.h): sizes, the default from
 * meminfo text, the bytes a call takes and which ranks fit.
 */
#include <errno.h>
#include <stdlib.h>

#include "helpers.h"
#include "scopeview/budget.h"
#include "scopeview/profile.h"

START_TEST(budget_sizes)
{
	struct sv_error err = {0, ""};
	uint64_t b = 0;

	ck_assert_int_eq(sv_budget_parse("4G", &b, &err), 0);
	ck_assert_uint_eq(b, 4ull << 30);
	ck_assert_int_eq(sv_budget_parse("512M", &b, &err), 0);
	ck_assert_uint_eq(b, 512ull << 20);
	ck_assert_int_eq(sv_budget_parse("1.5GiB", &b, &err), 0);
	ck_assert_uint_eq(b, 3ull << 29);
	ck_assert_int_eq(sv_budget_parse("2t", &b, &err), 0);
	ck_assert_uint_eq(b, 2ull << 40);
	ck_assert_int_eq(sv_budget_parse("64kB", &b, &err), 0);
	ck_assert_uint_eq(b, 64ull << 10);
	ck_assert_int_eq(sv_budget_parse("1000", &b, &err), 0);
	ck_assert_uint_eq(b, 1000);
	static const char *bad[] = {"", "G", "-1G", "4X", "4GG", "0", "0.1",
		"nan", "inf", "1e30", " 4G", NULL};
	for (size_t i = 0; bad[i]; i++) {
		memset(&err, 0, sizeof err);
		ck_assert_msg(sv_budget_parse(bad[i], &b, &err) == -EINVAL,
			"'%s' accepted", bad[i]);
		ck_assert_ptr_nonnull(strstr(err.msg, "not a size"));
	}
	ck_assert_int_eq(sv_budget_parse(NULL, &b, &err), -EINVAL);
}
END_TEST

START_TEST(budget_default)
{
	ck_assert_uint_eq(sv_budget_default("MemTotal:       24000000 kB\n"
					    "MemFree:         1000000 kB\n"
					    "MemAvailable:   20000000 kB\n"),
		20000000ull * 1024 / 2);
	ck_assert_uint_eq(
		sv_budget_default("MemTotal: 8 kB\nMemFree: 4 kB\n"), 2048);
	ck_assert_uint_eq(sv_budget_default("nothing here\n"), 0);
	ck_assert_uint_eq(sv_budget_default(""), 0);
	ck_assert_uint_eq(sv_budget_default(NULL), 0);
	/* A field is matched whole, at the start of a line. */
	ck_assert_uint_eq(sv_budget_default("XMemAvailable: 10 kB\n"), 0);
}
END_TEST

/* An index-only profile: rank r has counts[r] calls in two rows. */
static struct sv_profile *index_of(const uint64_t *counts, uint32_t n)
{
	struct sv_profile *p = sv_profile_new("mem");
	uint32_t a = sv_profile_add_region(p, "a");
	uint32_t b = sv_profile_add_region(p, "b");
	uint32_t r;

	p->has_calls = false;
	for (r = 0; r < n; r++) {
		ck_assert_ptr_nonnull(
			sv_profile_add_row(p, r, a, counts[r] / 2, NULL));
		ck_assert_ptr_nonnull(sv_profile_add_row(
			p, r, b, counts[r] - counts[r] / 2, NULL));
	}
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

START_TEST(budget_pick)
{
	static const uint64_t counts[] = {100, 100, 0, 100, 100, 50};
	struct sv_profile *p = index_of(counts, 6);
	uint64_t per = sv_budget_call_bytes(p), bytes = 0;
	uint32_t n = sv_budget_nranks(p), prefer[] = {4, 4, 99, 1};
	bool on[6];

	ck_assert_uint_eq(per, SV_BUDGET_CALL_BYTES);
	ck_assert_uint_eq(n, 6);
	/* Everything fits. */
	ck_assert_uint_eq(
		sv_budget_pick(p, 450 * per, NULL, 0, on, n, &bytes), 0);
	ck_assert_uint_eq(bytes, 450 * per);
	/* Ranks in order while they fit; the empty rank is free. */
	ck_assert_uint_eq(
		sv_budget_pick(p, 250 * per, NULL, 0, on, n, &bytes), 3);
	ck_assert(on[0] && on[1] && on[2] && !on[3] && !on[4] && !on[5]);
	ck_assert_uint_eq(bytes, 200 * per);
	/* The ones asked for first, repeats and strangers skipped; no rank
	 * is skipped over to fill the room (rank 5 would fit). */
	ck_assert_uint_eq(
		sv_budget_pick(p, 250 * per, prefer, 4, on, n, &bytes), 3);
	ck_assert(on[4] && on[1] && on[2] && !on[0] && !on[3] && !on[5]);
	/* A single rank over the budget is still taken. */
	ck_assert_uint_eq(sv_budget_pick(p, 10, prefer, 4, on, n, &bytes), 4);
	ck_assert(on[4] && on[2] && !on[1]);
	ck_assert_uint_eq(bytes, 100 * per);
	/* Optional columns cost more a call. */
	p->event_columns = 5;
	ck_assert_uint_eq(sv_budget_call_bytes(p),
		SV_BUDGET_CALL_BYTES + 3 * SV_BUDGET_COLUMN_BYTES);
	p->event_columns = 1;
	ck_assert_uint_eq(sv_budget_call_bytes(p), SV_BUDGET_CALL_BYTES);
	ck_assert_uint_eq(sv_budget_call_bytes(NULL), SV_BUDGET_CALL_BYTES);
	sv_profile_free(p);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("budget");
	TCase *t = tcase_create("budget");
	tcase_add_test(t, budget_sizes);
	tcase_add_test(t, budget_default);
	tcase_add_test(t, budget_pick);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
