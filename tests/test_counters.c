/*
 * test_counters.c: hardware counters and line profiles in the model
 * (counters.h): finding a region's sets, the derived rates, the line
 * profile chosen for a region and rank, its total and hottest lines.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/counters.h"
#include "scopeview/profile.h"

static void add_set(struct sv_profile *p, uint32_t rank, const char *region,
	const char *const *names, const double *vals, size_t n)
{
	struct sv_counters *k;
	size_t i;

	p->counters = realloc(p->counters, (p->ncounters + 1) * sizeof *k);
	k = &p->counters[p->ncounters++];
	memset(k, 0, sizeof *k);
	k->rank = rank;
	k->region = sv_xstrdup(region);
	k->nevents = n;
	k->events = calloc(n, sizeof *k->events);
	k->values = calloc(n, sizeof *k->values);
	for (i = 0; i < n; i++) {
		k->events[i] = sv_xstrdup(names[i]);
		k->values[i] = vals[i];
	}
}

static void add_lineprof(struct sv_profile *p, uint32_t rank,
	const char *region, const char *function, const double *t, size_t n)
{
	struct sv_line_profile *l;
	size_t i;

	p->lineprofs = realloc(p->lineprofs, (p->nlineprofs + 1) * sizeof *l);
	l = &p->lineprofs[p->nlineprofs++];
	memset(l, 0, sizeof *l);
	l->rank = rank;
	l->region = region ? sv_xstrdup(region) : NULL;
	l->function = function ? sv_xstrdup(function) : NULL;
	l->unit = 1e-6;
	l->nlines = n;
	l->line = calloc(n, sizeof *l->line);
	l->hits = calloc(n, sizeof *l->hits);
	l->time = calloc(n, sizeof *l->time);
	for (i = 0; i < n; i++) {
		l->line[i] = (int64_t)(10 + i);
		l->time[i] = t[i];
	}
}

START_TEST(test_sets_and_rates)
{
	struct sv_profile *p = sv_profile_new("t.h5");
	static const char *const perf[] = {
		"cycles", "instructions", "cache-references", "cache-misses"};
	static const double pv[] = {200, 300, 50, 5};
	static const char *const lk[] = {
		"INSTR_RETIRED_ANY", "CPU_CLK_UNHALTED_CORE"};
	static const double lv[] = {1.9e6, 3.9e6};
	static const char *const other[] = {"page-faults"};
	static const double ov[] = {3};
	const struct sv_counters *got[4];
	struct sv_counter_rate r[4];

	add_set(p, 0, "solve", perf, pv, 4);
	add_set(p, 1, "solve", lk, lv, 2);
	add_set(p, 0, "io", other, ov, 1);
	ck_assert_uint_eq(
		sv_counters_of(p, "solve", SV_COUNTERS_ANY_RANK, got, 4), 2);
	ck_assert_uint_eq(sv_counters_of(p, "solve", 1, got, 4), 1);
	ck_assert_uint_eq(got[0]->rank, 1);
	ck_assert_uint_eq(sv_counters_of(p, "nothing", 0, got, 4), 0);
	ck_assert_uint_eq(sv_counters_rates(&p->counters[0], r, 4), 2);
	ck_assert_str_eq(r[0].name, "IPC");
	ck_assert(r[0].value == 1.5);
	ck_assert_str_eq(r[1].name, "cache miss ratio");
	ck_assert(r[1].value == 0.1);
	ck_assert_uint_eq(sv_counters_rates(&p->counters[1], r, 4), 1);
	ck_assert(fabs(r[0].value - 1.9 / 3.9) < 1e-15);
	ck_assert_uint_eq(sv_counters_rates(&p->counters[2], r, 4), 0);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_likwid_counts_saturate)
{
	/* given a LIKWID region whose threads' call counts add up past
	 * int64 (a damaged file, found by fuzz_load); when added; then the
	 * count saturates, and the events' values are summed */
	struct sv_profile *p = sv_profile_new("t.h5");
	char **events = calloc(1, sizeof *events);
	const double ev[] = {1.0, 2.0};
	const int64_t counts[] = {INT64_MAX, 3};
	const double times[] = {0.5, 0.25};
	struct sv_counters *k;

	events[0] = sv_xstrdup("INSTR_RETIRED_ANY");
	k = sv_counters_add_likwid(p, 0, "solve", NULL, events, 1, NULL, 0, ev,
		2, counts, times, NULL, 0, NULL);
	ck_assert_int_eq(k->calls, INT64_MAX);
	ck_assert(k->values[0] == 3.0);
	ck_assert(k->time_s == 0.5);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_line_profiles)
{
	struct sv_profile *p = sv_profile_new("t.h5");
	static const double t0[] = {10, 20, 3000, 0, 500};
	static const double t1[] = {1};
	const struct sv_line_profile *l;

	add_lineprof(p, 2, "solve", "solve", t0, 5);
	add_lineprof(p, 1, "solve", NULL, t1, 1);
	add_lineprof(p, 0, NULL, "step", t1, 1);
	/* the rank asked for, else the lowest rank */
	ck_assert_ptr_eq(
		sv_counters_line_profile(p, "solve", 2), &p->lineprofs[0]);
	ck_assert_ptr_eq(
		sv_counters_line_profile(p, "solve", 7), &p->lineprofs[1]);
	/* without a region, the function's name */
	ck_assert_ptr_eq(
		sv_counters_line_profile(p, "step", 0), &p->lineprofs[2]);
	ck_assert_ptr_null(sv_counters_line_profile(p, "io", 0));
	l = &p->lineprofs[0];
	ck_assert(fabs(sv_counters_line_total(l) - 3530e-6) < 1e-15);
	ck_assert(sv_counters_line_hot(l, 2));
	ck_assert(sv_counters_line_hot(l, 4));
	ck_assert(!sv_counters_line_hot(l, 1)); /* 0.6% of the time */
	ck_assert(!sv_counters_line_hot(l, 0));
	ck_assert(!sv_counters_line_hot(l, 3));
	ck_assert(!sv_counters_line_hot(l, 9));
	sv_profile_free(p);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("counters");
	TCase *t = tcase_create("counters");

	tcase_add_test(t, test_sets_and_rates);
	tcase_add_test(t, test_likwid_counts_saturate);
	tcase_add_test(t, test_line_profiles);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
