/*
 * test_scale.c: the work every operation does grows as n log n or slower
 * in each input dimension a file can inflate (issue 16, defect 3):
 * regions, threads, async tasks, calls starting in the same nanosecond,
 * and regex backtracking.  Profiles are built in memory.
 *
 * No wall-clock thresholds: each case times the same operation at n and
 * 4n (process CPU time, the least of three trials of 20 ms or more) and
 * fails when the ratio reaches 12 (n log n gives about 4.5, up to 8 on a
 * loaded machine, and once 10.8 for the regions, whose 4n case leaves
 * the cache; n^2 gives 16).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "helpers.h"
#include "scopeview/layout.h"
#include "scopeview/profile.h"
#include "scopeview/regex.h"

/* CPU seconds of this process so far (all threads). */
static double scale_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds f(n) spends in its timed part (it returns them): the least of
 * 3 trials, each the mean of as many runs as take 20 ms together, so
 * that a case of a millisecond is not decided by the clock's and the
 * scheduler's noise. */
static double scale_time(double (*f)(size_t), size_t n)
{
	double best = 0;
	int i;
	for (i = 0; i < 3; i++) {
		double t = 0;
		int runs = 0;
		do {
			t += f(n);
			runs++;
		} while (t < 0.02 && runs < 1000);
		t /= runs;
		if (i == 0 || t < best)
			best = t;
	}
	return best;
}

static void scale_check(const char *what, double (*f)(size_t), size_t n)
{
	double a = scale_time(f, n), b = scale_time(f, 4 * n);
	/* a floor of 1 ms: below that the clock, not the work, decides */
	double ratio = b / (a > 1e-3 ? a : 1e-3);
	fprintf(stderr, "scale %s: n=%zu %.4f s, 4n %.4f s, ratio %.2f\n", what,
		n, a, b, ratio);
	ck_assert_msg(ratio < 12, "%s: 4x the input took %.1fx the time", what,
		ratio);
}

enum { SCALE_ROWS_BY_REGION, SCALE_THREADS, SCALE_TASKS, SCALE_TIES };

/* n calls on rank 0, one row per region when kind is SCALE_ROWS_BY_REGION
 * (first starts descending: the worst order for an insertion sort), else
 * in one region: each call its own thread, its own task (with both tables
 * filled, in reverse order), or all starting at 0 and zero-length. */
static struct sv_profile *scale_profile(size_t n, int kind)
{
	struct sv_profile *p = sv_profile_new("scale.h5");
	size_t i;

	p->schema = 3;
	p->has_calls = true;
	sv_profile_reserve_calls(p, n);
	if (kind == SCALE_ROWS_BY_REGION) {
		for (i = 0; i < n; i++) {
			char name[32];
			struct sv_row *r;
			snprintf(name, sizeof name, "r%zu", i);
			r = sv_profile_add_row(
				p, 0, sv_profile_add_region(p, name), 1, NULL);
			p->start_ns[r->first] = (int64_t)(n - i) * 10;
			p->end_ns[r->first] = (int64_t)(n - i) * 10 + 5;
		}
		return p;
	}
	{
		struct sv_row *r = sv_profile_add_row(
			p, 0, sv_profile_add_region(p, "f"), n, NULL);
		if (kind == SCALE_THREADS)
			sv_profile_column(p, &p->thread_id, -1);
		if (kind == SCALE_TASKS)
			sv_profile_column(p, &p->task_id, -1);
		for (i = 0; i < n; i++) {
			uint64_t c = r->first + i;
			p->start_ns[c] = kind == SCALE_TIES ? 0 : (int64_t)i;
			p->end_ns[c] = kind == SCALE_TIES ? 0 : (int64_t)i + 1;
			if (kind == SCALE_THREADS)
				p->thread_id[c] = (int64_t)i;
			if (kind == SCALE_TASKS)
				p->task_id[c] = (int64_t)i;
		}
	}
	for (i = 0; i < n && kind == SCALE_THREADS; i++) {
		struct sv_thread *t = sv_profile_add_thread(p);
		t->index = (int64_t)(n - 1 - i);
		t->name = sv_xasprintf("worker-%zu", n - 1 - i);
	}
	for (i = 0; i < n && kind == SCALE_TASKS; i++) {
		struct sv_task *t = sv_profile_add_task(p);
		t->index = (int64_t)(n - 1 - i);
		t->name = sv_xasprintf("Task-%zu", n - 1 - i);
	}
	return p;
}

static double scale_finish(size_t n, int kind)
{
	struct sv_profile *p = scale_profile(n, kind);
	double t0 = scale_cpu(), t;
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	t = scale_cpu() - t0;
	sv_profile_free(p);
	return t;
}

static double scale_regions(size_t n)
{
	return scale_finish(n, SCALE_ROWS_BY_REGION);
}
static double scale_threads(size_t n)
{
	return scale_finish(n, SCALE_THREADS);
}
static double scale_tasks(size_t n)
{
	return scale_finish(n, SCALE_TASKS);
}

START_TEST(test_many_regions)
{
	/* given n regions whose first starts run backwards; when finished;
	 * then their display order is ascending and the work ~ n log n */
	struct sv_profile *p = scale_profile(1000, SCALE_ROWS_BY_REGION);
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	ck_assert_uint_eq(sv_lane_call(&p->lanes[0], 0), 999);
	sv_profile_free(p);
	/* 4n stays in the caches: at 50,000 to 200,000 regions the ratio
	 * was 6-7, 8.2 on a busy machine, for the same n log n work. */
	scale_check("regions", scale_regions, 30000);
}
END_TEST

START_TEST(test_many_threads)
{
	/* given one lane per thread and a thread table in reverse order; then
	 * every lane finds its name and the work ~ n log n */
	struct sv_profile *p = scale_profile(300, SCALE_THREADS);
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	ck_assert_uint_eq(p->nlanes, 300);
	ck_assert_str_eq(p->lanes[7].label, "r0 worker-7");
	ck_assert_ptr_null(sv_profile_thread(p, 0, 300));
	ck_assert_ptr_null(sv_profile_thread(p, 1, 7));
	sv_profile_free(p);
	scale_check("threads", scale_threads, 10000);
}
END_TEST

START_TEST(test_many_tasks)
{
	struct sv_profile *p = scale_profile(300, SCALE_TASKS);
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	ck_assert_uint_eq(p->nlanes, 300);
	ck_assert_ptr_nonnull(sv_profile_task(p, 0, 299));
	ck_assert_str_eq(sv_profile_task(p, 0, 299)->name, "Task-299");
	ck_assert_ptr_null(sv_profile_task(p, 0, -5));
	sv_profile_free(p);
	scale_check("tasks", scale_tasks, 10000);
}
END_TEST

/* The lane and level position of every call of n zero-length calls at one
 * instant (a chain clamped at SV_MAX_DEPTH, then ties in one level). */
static double scale_positions(size_t n)
{
	struct sv_profile *p = scale_profile(n, SCALE_TIES);
	struct sv_lod_index ix = {0};
	double t0, t;
	uint32_t c;

	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	ck_assert_int_eq(sv_lod_index_build(&ix, p, NULL, NULL), 0);
	t0 = scale_cpu();
	for (c = 0; c < p->ncalls; c++) {
		uint32_t lp = sv_profile_lane_pos(p, c);
		uint32_t vp = sv_lod_level_pos(&ix, c);
		const struct sv_lod_level *lv = sv_lod_index_level(
			&ix, sv_call_lane(p, c), sv_profile_depth(p, c));
		ck_assert_uint_eq(
			sv_lane_call(&p->lanes[sv_call_lane(p, c)], lp), c);
		ck_assert_uint_eq(sv_lod_call(lv, vp), c);
	}
	t = scale_cpu() - t0;
	sv_lod_index_fini(&ix);
	sv_profile_free(p);
	return t;
}

START_TEST(test_equal_starts)
{
	/* given calls all starting in the same nanosecond; then finding a
	 * call's place in its lane and in its level costs O(1) each */
	scale_check("equal starts", scale_positions, 20000);
}
END_TEST

START_TEST(test_regex_limits)
{
	/* given a catastrophic pattern and long names; then every name stops
	 * at the match limit, counts as not matching, and is counted */
	struct sv_regex *re = sv_regex_compile("(a+)+$", NULL);
	char name[200], msg[256];
	int i;

	ck_assert_ptr_nonnull(re);
	memset(name, 'a', sizeof name - 2);
	name[sizeof name - 2] = '!';
	name[sizeof name - 1] = '\0';
	for (i = 0; i < 500; i++)
		ck_assert(!sv_regex_search(re, name, NULL, NULL));
	ck_assert_uint_eq(sv_regex_limit_hits(re), 500);
	sv_regex_limit_message(re, 500, msg, sizeof msg);
	ck_assert_str_eq(msg, "regex '(a+)+$' gave up on 500 names (PCRE2 "
			      "match limit reached; counted as not matching)");
	/* a plain match is not affected */
	ck_assert(sv_regex_search(re, "xaa", NULL, NULL));
	ck_assert_uint_eq(sv_regex_limit_hits(re), 500);
	sv_regex_free(re);
	ck_assert_uint_eq(sv_regex_limit_hits(NULL), 0);
}
END_TEST

static double scale_regex(size_t n)
{
	struct sv_regex *re = sv_regex_compile("(a+)+$", NULL);
	char *name = sv_xmalloc(n + 2);
	double t0, t;
	int i;

	memset(name, 'a', n);
	name[n] = '!';
	name[n + 1] = '\0';
	t0 = scale_cpu();
	for (i = 0; i < 20; i++)
		ck_assert(!sv_regex_search(re, name, NULL, NULL));
	t = scale_cpu() - t0;
	free(name);
	sv_regex_free(re);
	return t;
}

START_TEST(test_regex_name_length)
{
	/* the limit bounds the work whatever the length of the name */
	scale_check("regex name length", scale_regex, 2000);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("scale");
	TCase *t = tcase_create("model");
	tcase_set_timeout(t, 600);
	tcase_add_test(t, test_many_regions);
	tcase_add_test(t, test_many_threads);
	tcase_add_test(t, test_many_tasks);
	tcase_add_test(t, test_regex_limits);
	tcase_add_test(t, test_regex_name_length);
	suite_add_tcase(s, t);
	t = tcase_create("layout");
	tcase_set_timeout(t, 600);
	tcase_add_test(t, test_equal_starts);
	suite_add_tcase(s, t);
	return svt_run(s);
}
