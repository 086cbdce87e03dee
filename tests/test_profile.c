/*
 * test_profile.c: the columnar model and the rebuilding of nesting per
 * lane (doc/format.md 9.1 and 10.1), on profiles built in memory.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/profile.h"
#include "scopeview/stats.h"

struct call_spec {
	const char *region;
	uint32_t rank;
	int64_t start, end;
	int64_t thread, task;
};

/* Build a profile with one row per (rank, region) in first-appearance
 * order; calls keep the order given within their row. */
static struct sv_profile *build(
	const struct call_spec *calls, size_t n, bool lanes)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	size_t i, j;
	uint32_t rank_seen[64];
	int64_t region_seen[64];
	size_t nrow = 0;

	for (i = 0; i < n; i++) {
		int64_t reg = sv_profile_find_region(p, calls[i].region);
		bool have = false;
		if (reg < 0)
			reg = sv_profile_add_region(p, calls[i].region);
		for (j = 0; j < nrow; j++)
			if (rank_seen[j] == calls[i].rank &&
				region_seen[j] == reg)
				have = true;
		if (!have) {
			rank_seen[nrow] = calls[i].rank;
			region_seen[nrow++] = reg;
		}
	}
	for (j = 0; j < nrow; j++) {
		uint64_t count = 0, k = 0;
		struct sv_row *r;
		for (i = 0; i < n; i++)
			if (calls[i].rank == rank_seen[j] &&
				sv_profile_find_region(p, calls[i].region) ==
					region_seen[j])
				count++;
		r = sv_profile_add_row(
			p, rank_seen[j], (uint32_t)region_seen[j], count, NULL);
		ck_assert_ptr_nonnull(r);
		if (lanes) {
			sv_profile_column(p, &p->thread_id, -1);
			sv_profile_column(p, &p->task_id, -1);
		}
		for (i = 0; i < n; i++)
			if (calls[i].rank == rank_seen[j] &&
				sv_profile_find_region(p, calls[i].region) ==
					region_seen[j]) {
				uint64_t c = p->rows[j].first + k++;
				p->start_ns[c] = calls[i].start;
				p->end_ns[c] = calls[i].end;
				if (lanes) {
					p->thread_id[c] = calls[i].thread;
					p->task_id[c] = calls[i].task;
				}
			}
	}
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

/* The call of region name number k (storage order) */
static uint32_t call_of(const struct sv_profile *p, const char *region,
	uint32_t rank, uint64_t k)
{
	size_t r;
	for (r = 0; r < p->nrows; r++)
		if (p->rows[r].rank == rank &&
			!strcmp(p->regions[p->rows[r].region], region))
			return (uint32_t)(p->rows[r].first + k);
	ck_abort_msg("no row for %s", region);
	return 0;
}

/* main > (a > b), a: the nesting of two tests below. */
static const struct call_spec main_ab_calls[] = {
	{"main", 0, 0, 100, -1, -1},
	{"a", 0, 10, 40, -1, -1},
	{"a", 0, 50, 60, -1, -1},
	{"b", 0, 20, 30, -1, -1},
};

START_TEST(test_simple_nesting)
{
	/* given main > (a > b), a; when finished; then depths, parents and
	 * exclusive time follow the containment */
	struct sv_profile *p = build(main_ab_calls, 4, false);
	uint32_t m = call_of(p, "main", 0, 0), a0 = call_of(p, "a", 0, 0),
		 a1 = call_of(p, "a", 0, 1), b = call_of(p, "b", 0, 0);

	ck_assert_uint_eq(p->nlanes, 1);
	ck_assert_str_eq(p->lanes[0].label, "r0");
	ck_assert_uint_eq(p->lanes[0].depth_rows, 3);
	ck_assert_uint_eq(sv_profile_depth(p, m), 0);
	ck_assert_uint_eq(sv_profile_depth(p, a0), 1);
	ck_assert_uint_eq(sv_profile_depth(p, a1), 1);
	ck_assert_uint_eq(sv_profile_depth(p, b), 2);
	ck_assert_uint_eq(sv_profile_parent(p, m), SV_NO_CALL);
	ck_assert_uint_eq(sv_profile_parent(p, a0), m);
	ck_assert_uint_eq(sv_profile_parent(p, b), a0);
	ck_assert_int_eq(sv_profile_exclusive(p, m), 100 - 30 - 10);
	ck_assert_int_eq(sv_profile_exclusive(p, a0), 30 - 10);
	ck_assert_int_eq(sv_profile_exclusive(p, b), 10);
	ck_assert_uint_eq(sv_lane_call(&p->lanes[0], 0), m);
	ck_assert_uint_eq(sv_lane_call(&p->lanes[0], 1), a0);
	ck_assert_uint_eq(sv_lane_call(&p->lanes[0], 2), b);
	ck_assert_uint_eq(sv_lane_call(&p->lanes[0], 3), a1);
	ck_assert_uint_eq(p->nwarnings, 0);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_recursion_and_ties)
{
	/* given fib inside fib with equal starts; then the longer call is the
	 * parent and a call starting exactly at another's end is its
	 * sibling */
	static const struct call_spec calls[] = {
		{"fib", 0, 0, 50, -1, -1},
		{"fib", 0, 0, 20, -1, -1},
		{"fib", 0, 20, 50, -1, -1},
	};
	struct sv_profile *p = build(calls, 3, false);
	ck_assert_uint_eq(sv_profile_depth(p, 0), 0);
	ck_assert_uint_eq(sv_profile_depth(p, 1), 1);
	ck_assert_uint_eq(sv_profile_depth(p, 2), 1);
	ck_assert_uint_eq(sv_profile_parent(p, 2), 0);
	ck_assert_int_eq(sv_profile_exclusive(p, 0), 0);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_zero_length)
{
	/* given zero-length calls; then they are open at their own start: a
	 * second zero-length call at the same instant nests in the first,
	 * and a call starting at the same instant later is not inside */
	static const struct call_spec calls[] = {
		{"outer", 0, 0, 100, -1, -1},
		{"z", 0, 10, 10, -1, -1},
		{"z", 0, 10, 10, -1, -1},
		{"after", 0, 11, 20, -1, -1},
		{"edge", 0, 100, 100, -1, -1},
	};
	struct sv_profile *p = build(calls, 5, false);
	uint32_t o = call_of(p, "outer", 0, 0), z0 = call_of(p, "z", 0, 0),
		 z1 = call_of(p, "z", 0, 1), af = call_of(p, "after", 0, 0),
		 ed = call_of(p, "edge", 0, 0);
	ck_assert_uint_eq(sv_profile_depth(p, z0), 1);
	ck_assert_uint_eq(sv_profile_depth(p, z1), 2);
	ck_assert_uint_eq(sv_profile_parent(p, z1), z0);
	ck_assert_uint_eq(sv_profile_depth(p, af), 1);
	ck_assert_uint_eq(sv_profile_parent(p, af), o);
	/* a zero-length call at the parent's end is outside it */
	ck_assert_uint_eq(sv_profile_depth(p, ed), 0);
	ck_assert_int_eq(sv_profile_exclusive(p, o), 100 - 9);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_partial_overlap_warns)
{
	/* given a call that starts inside another and ends after it; then the
	 * profile still places both and warns naming both calls */
	static const struct call_spec calls[] = {
		{"solve", 0, 0, 50, -1, -1},
		{"io", 0, 40, 80, -1, -1},
	};
	struct sv_profile *p = build(calls, 2, false);
	ck_assert_uint_eq(p->nwarnings, 1);
	ck_assert_ptr_nonnull(strstr(p->warnings[0], "'io' call 0 [40, 80]"));
	ck_assert_ptr_nonnull(strstr(p->warnings[0], "'solve' call 0 [0, 50]"));
	ck_assert_uint_eq(sv_profile_depth(p, 1), 1);
	ck_assert_int_eq(sv_profile_exclusive(p, 0), 40);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_reversed_call_warns)
{
	static const struct call_spec calls[] = {
		{"bad", 0, 50, 40, -1, -1},
	};
	struct sv_profile *p = build(calls, 1, false);
	ck_assert_uint_eq(p->nwarnings, 1);
	ck_assert_ptr_nonnull(strstr(p->warnings[0], "ends before it starts"));
	ck_assert_int_eq(sv_profile_exclusive(p, 0), -10);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_reversed_calls_of_a_large_profile)
{
	/* given 300,000 calls on two ranks, 15 calls on each rank that end
	 * before they start and a last call of 2^33 ns; when finished;
	 * then the first 20 are spelled out in call order, the rest counted,
	 * and every duration, the span and the long call are exact */
	enum { N = 300000, HALF = N / 2 };
	struct call_spec *calls = calloc(N, sizeof *calls);
	struct sv_profile *p;
	uint32_t c;
	int i;

	ck_assert_ptr_nonnull(calls);
	for (i = 0; i < N; i++) {
		int64_t t = (int64_t)(i % HALF) * 10;
		calls[i] = (struct call_spec){i < HALF ? "a" : "b",
			i < HALF ? 0u : 1u, t, t + 5, -1, -1};
		if (i % HALF >= 1000 && i % HALF < 1015)
			calls[i].end = t - 1;
	}
	calls[N - 1].end = calls[N - 1].start + ((int64_t)1 << 33);
	p = build(calls, N, false);
	ck_assert_uint_eq(p->nwarnings, 21);
	ck_assert_msg(strstr(p->warnings[0],
			      "rank 0: 'a' call 1000 [10000, 9999] ns ends "
			      "before it starts"),
		"%s", p->warnings[0]);
	ck_assert_ptr_nonnull(strstr(p->warnings[14], "'a' call 1014"));
	ck_assert_ptr_nonnull(
		strstr(p->warnings[15], "rank 1: 'b' call 1000 [10000, 9999]"));
	ck_assert_ptr_nonnull(strstr(p->warnings[19], "'b' call 1004"));
	ck_assert_str_eq(
		p->warnings[20], "10 more calls end before they start");
	for (c = 0; c < N; c++) {
		uint64_t k = c % HALF;
		int64_t want_d = k >= 1000 && k < 1015 ? -1 : 5;
		if (c == N - 1)
			want_d = (int64_t)1 << 33;
		ck_assert_int_eq(sv_call_duration(p, c), want_d);
	}
	ck_assert_int_eq(sv_profile_min_start(p), 0);
	ck_assert_int_eq(sv_profile_max_end(p),
		(int64_t)(HALF - 1) * 10 + ((int64_t)1 << 33));
	ck_assert_uint_eq(p->dur_wide.n, 31);
	sv_profile_free(p);
	free(calls);
}
END_TEST

START_TEST(test_lanes_overlap_each_other)
{
	/* given two threads and a task whose calls overlap across lanes but
	 * nest within each lane; then no warning, and lanes are ordered by
	 * rank, thread, then task */
	static const struct call_spec calls[] = {
		{"w", 1, 0, 100, 1, -1},
		{"m", 0, 0, 100, 0, -1},
		{"x", 0, 50, 150, 1, -1},
		{"t", 0, 60, 70, 0, 0},
		{"m", 0, 10, 20, 0, -1},
		{"u", 0, 5, 6, -1, -1},
	};
	struct sv_profile *p = build(calls, 6, true);
	ck_assert_uint_eq(p->nwarnings, 0);
	ck_assert_uint_eq(p->nlanes, 5);
	ck_assert_uint_eq(p->lanes[0].rank, 0);
	ck_assert_int_eq(p->lanes[0].key, -2);
	ck_assert_int_eq(p->lanes[1].key, 0); /* task 0 on thread 0 */
	ck_assert_int_eq(p->lanes[2].key, -3);
	ck_assert_int_eq(p->lanes[3].key, -1); /* unknown lane last */
	ck_assert_uint_eq(p->lanes[4].rank, 1);
	ck_assert_str_eq(p->lanes[0].label, "r0 thread 0");
	ck_assert_str_eq(p->lanes[1].label, "r0 task 0 on thread 0");
	ck_assert_str_eq(p->lanes[3].label, "r0 unknown lane");
	ck_assert_uint_eq(p->lanes[0].ncalls, 2);
	ck_assert_uint_eq(p->lanes[0].depth_rows, 2);
	ck_assert_uint_eq(p->lanes[1].depth_rows, 1);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_lane_labels_from_tables)
{
	struct sv_profile *p = sv_profile_new("x.h5");
	struct sv_thread *t;
	struct sv_task *k;
	struct sv_row *r;
	uint32_t reg = sv_profile_add_region(p, "fetch");
	t = sv_profile_add_thread(p);
	t->rank = 0;
	t->index = 1;
	t->name = sv_xstrdup("worker-1");
	k = sv_profile_add_task(p);
	k->rank = 0;
	k->index = 3;
	k->thread_index = 1;
	k->name = sv_xstrdup("Task-3");
	k->coro_name = sv_xstrdup("main.<locals>.fetch");
	r = sv_profile_add_row(p, 0, reg, 1, NULL);
	ck_assert_ptr_nonnull(r);
	sv_profile_column(p, &p->thread_id, -1);
	sv_profile_column(p, &p->task_id, -1);
	p->start_ns[0] = 1;
	p->end_ns[0] = 2;
	p->thread_id[0] = 1;
	p->task_id[0] = 3;
	sv_profile_finish(p, NULL);
	ck_assert_str_eq(p->lanes[0].label, "r0 Task-3 fetch() on worker-1");
	ck_assert_int_eq(p->lanes[0].thread, 1);
	sv_profile_free(p);
}
END_TEST

/* A profile of one region "k" on rank 0 with one row of n calls, their
 * times left for the caller to fill. */
static struct sv_profile *one_row(const char *path, uint32_t n)
{
	struct sv_profile *p = sv_profile_new(path);
	sv_profile_add_row(p, 0, sv_profile_add_region(p, "k"), n, NULL);
	return p;
}

START_TEST(test_large_unsorted_lane)
{
	/* given many calls stored out of order (negative deltas), then the
	 * lane comes out sorted and nested; */
	enum { N = 20000 };
	struct sv_profile *p = one_row("big.h5", N);
	uint32_t i;
	for (i = 0; i < N; i++) {
		uint32_t j = (i * 7919u) % N; /* a permutation */
		p->start_ns[i] = (int64_t)j * 10 + 4000000000000000000LL;
		p->end_ns[i] = p->start_ns[i] + (j % 2 ? 5 : 10);
	}
	sv_profile_finish(p, NULL);
	for (i = 1; i < N; i++)
		ck_assert_int_le(p->start_ns[sv_lane_call(&p->lanes[0], i - 1)],
			p->start_ns[sv_lane_call(&p->lanes[0], i)]);
	ck_assert_uint_eq(p->lanes[0].depth_rows, 1);
	ck_assert_uint_eq(p->nwarnings, 0);
	sv_profile_free(p);

	/* and pairs that start together (a call and its first child, the
	 * child stored first), out of order: the longer of each pair comes
	 * first and holds the other */
	p = one_row("ties.h5", N);
	for (i = 0; i < N; i++) {
		uint32_t j = ((i / 2) * 7919u) % (N / 2);
		p->start_ns[i] = (int64_t)j * 100 + 4000000000000000000LL;
		p->end_ns[i] = p->start_ns[i] + (i % 2 ? 50 : 20);
	}
	sv_profile_finish(p, NULL);
	for (i = 0; i + 1 < N; i += 2) {
		uint32_t a = sv_lane_call(&p->lanes[0], i),
			 b = sv_lane_call(&p->lanes[0], i + 1);
		ck_assert_int_eq(p->start_ns[a], p->start_ns[b]);
		ck_assert_int_eq(sv_call_duration(p, a), 50);
		ck_assert_uint_eq(sv_profile_parent(p, b), a);
		ck_assert_uint_eq(sv_profile_depth(p, b), 1);
	}
	ck_assert_uint_eq(p->nwarnings, 0);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_lane_of_sorted_rows)
{
	/* given a rank's rows, each sorted by start, whose calls interleave
	 * in time (a child's row stored before its parent's, and starting
	 * with it), when finished, then the lane (merged from the rows'
	 * runs) comes out in start order, the longer of two calls that start
	 * together first, and nested */
	enum { K = 3000 };
	struct sv_profile *p = sv_profile_new("rows.h5");
	uint32_t ri = sv_profile_add_region(p, "inner");
	uint32_t rj = sv_profile_add_region(p, "late");
	uint32_t ro = sv_profile_add_region(p, "outer");
	uint32_t k, c, base_i = 0, base_j = K, base_o = 2 * K;

	sv_profile_add_row(p, 0, ri, K, NULL);
	sv_profile_add_row(p, 0, rj, K, NULL);
	sv_profile_add_row(p, 0, ro, K, NULL);
	for (k = 0; k < K; k++) {
		int64_t s = (int64_t)k * 100;
		p->start_ns[base_i + k] = s;
		p->end_ns[base_i + k] = s + 40;
		p->start_ns[base_j + k] = s + 50;
		p->end_ns[base_j + k] = s + 60;
		p->start_ns[base_o + k] = s;
		p->end_ns[base_o + k] = s + 90;
	}
	sv_profile_finish(p, NULL);
	ck_assert_uint_eq(p->lanes[0].ncalls, 3 * K);
	for (k = 0; k < K; k++) {
		ck_assert_uint_eq(
			sv_lane_call(&p->lanes[0], 3 * k), base_o + k);
		ck_assert_uint_eq(
			sv_lane_call(&p->lanes[0], 3 * k + 1), base_i + k);
		ck_assert_uint_eq(
			sv_lane_call(&p->lanes[0], 3 * k + 2), base_j + k);
	}
	for (c = 0; c < K; c++) {
		ck_assert_uint_eq(sv_profile_parent(p, base_i + c), base_o + c);
		ck_assert_uint_eq(sv_profile_parent(p, base_j + c), base_o + c);
		ck_assert_int_eq(sv_profile_exclusive(p, base_o + c), 40);
	}
	ck_assert_uint_eq(p->nwarnings, 0);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_meta_and_origin)
{
	struct sv_profile *p = sv_profile_new("m.h5");
	struct sv_meta *m =
		sv_profile_add_meta(p, "start_time_ns", SV_META_INT);
	m->i = 1700;
	m->text = sv_xstrdup("1700");
	m = sv_profile_add_meta(p, "finalize_time_ns", SV_META_STRING);
	m->text = sv_xstrdup("2700");
	sv_profile_finish(p, NULL);
	ck_assert(p->has_start_time);
	ck_assert(p->has_finalize_time);
	ck_assert_int_eq(p->finalize_time_ns, 2700);
	ck_assert_str_eq(p->meta[0].key, "finalize_time_ns");
	ck_assert_int_eq(sv_profile_time_origin(p), 1700);
	ck_assert_uint_eq(p->nlanes, 0);
	sv_profile_free(p);
	sv_profile_free(NULL);
}
END_TEST

static const struct {
	const char *text;
	bool ok;
	int64_t ns;
} float_cases[] = {
	{"1700", true, 1700},
	{"  1700\n", true, 1700},
	{"12\v", true, 12},
	{"1_000", true, 1000},
	{"1e3", true, 1000},
	{"-5.9", true, -5},
	{"+7", true, 7},
	{"0x40", false, 0},
	{"1__0", false, 0},
	{"_1", false, 0},
	{"1_", false, 0},
	{"nan", false, 0},
	{"inf", false, 0},
	{"", false, 0},
	{"12 34", false, 0},
	{"1e400", false, 0},
};

START_TEST(test_start_time_as_python_float)
{
	/* given start_time_ns stored as text; then it is read as Python's
	 * float() reads it, and an unreadable one leaves no run start */
	struct sv_profile *p = sv_profile_new("f.h5");
	struct sv_meta *m =
		sv_profile_add_meta(p, "start_time_ns", SV_META_STRING);
	m->text = sv_xstrdup(float_cases[_i].text);
	sv_profile_finish(p, NULL);
	ck_assert_msg(p->has_start_time == float_cases[_i].ok, "'%s'",
		float_cases[_i].text);
	if (float_cases[_i].ok)
		ck_assert_int_eq(p->start_time_ns, float_cases[_i].ns);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_utf8_names)
{
	struct sv_profile *p = sv_profile_new("u.h5");
	uint32_t r = sv_profile_add_region(p, "pr\xc3\xa9"
					      "cond\xff");
	ck_assert_str_eq(p->regions[r], "pr\xc3\xa9"
					"cond\xef\xbf\xbd");
	sv_profile_free(p);
}
END_TEST

START_TEST(test_absurd_times_do_not_overflow)
{
	/* given times at both ends of int64; then durations wrap like numpy
	 * and nothing is undefined behaviour (the sanitizer build checks) */
	static const struct call_spec calls[] = {
		{"huge", 0, INT64_MIN + 1, INT64_MAX, -1, -1},
		{"tiny", 0, -5, 5, -1, -1},
		{"late", 0, INT64_MAX - 1, INT64_MIN, -1, -1},
	};
	struct sv_profile *p = build(calls, 3, false);
	ck_assert_int_eq(sv_call_duration(p, 0), -2);
	ck_assert_int_eq(sv_call_duration(p, 1), 10);
	ck_assert_uint_ge(p->nwarnings, 1);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_threads_warnings_deterministic)
{
	/* given a profile large enough to nest on several threads, with a
	 * partial overlap in each of many lanes; then the warnings come in
	 * lane order, capped, with a closing count */
	enum { LANES = 40, PER = 8000 };
	struct sv_profile *p = sv_profile_new("t.h5");
	uint32_t reg = sv_profile_add_region(p, "r");
	uint32_t l, k;
	for (l = 0; l < LANES; l++) {
		struct sv_row *r = sv_profile_add_row(p, l, reg, PER, NULL);
		for (k = 0; k < PER; k++) {
			uint64_t c = r->first + k;
			p->start_ns[c] = (int64_t)k * 100;
			p->end_ns[c] = (int64_t)k * 100 + (k == 7 ? 120 : 50);
		}
	}
	sv_profile_finish(p, NULL);
	ck_assert_uint_eq(p->nlanes, LANES);
	ck_assert_uint_eq(p->nwarnings, 21);
	ck_assert_ptr_nonnull(strstr(p->warnings[0], "rank 0:"));
	ck_assert_ptr_nonnull(strstr(p->warnings[19], "rank 19:"));
	ck_assert_ptr_nonnull(strstr(p->warnings[20], "20 more calls"));
	sv_profile_free(p);
}
END_TEST

/* Rank lists as the warnings and the status line write them; a rank
 * subset's origin counts the rows left out. */
START_TEST(test_rank_lists_and_subset)
{
	bool on[20] = {false};
	struct sv_profile *p = sv_profile_new("x.h5");
	char *t;
	int i;

	t = sv_rank_list_text(on, 20, 0);
	ck_assert_str_eq(t, "");
	free(t);
	on[0] = on[1] = on[2] = on[5] = on[7] = on[8] = on[19] = true;
	t = sv_rank_list_text(on, 20, 0);
	ck_assert_str_eq(t, "0-2,5,7-8,19");
	free(t);
	t = sv_rank_list_text(on, 20, 2);
	ck_assert_str_eq(t, "0-2,5,...");
	free(t);
	for (i = 0; i < 20; i++)
		on[i] = i % 2 == 0;
	t = sv_rank_list_text(on, 20, 8);
	ck_assert_str_eq(t, "0,2,4,6,8,10,12,14,...");
	free(t);

	/* Two rows of ranks 1 and 3 read out of 6 ranks; the rows left out
	 * started at 40, before any call read. */
	ck_assert_ptr_nonnull(sv_profile_add_row(
		p, 1, sv_profile_add_region(p, "a"), 1, NULL));
	ck_assert_ptr_nonnull(sv_profile_add_row(p, 3, 0, 1, NULL));
	p->start_ns[0] = 100;
	p->end_ns[0] = 110;
	p->start_ns[1] = 90;
	p->end_ns[1] = 95;
	p->num_ranks = 6;
	ck_assert_ptr_null(sv_profile_subset_label(p));
	ck_assert_int_eq(sv_profile_time_origin(p), 90);
	p->rank_subset = true;
	p->has_run_start = true;
	p->run_start_ns = 40;
	ck_assert_int_eq(sv_profile_time_origin(p), 40);
	p->run_start_ns = 95;
	ck_assert_int_eq(sv_profile_time_origin(p), 90);
	t = sv_profile_subset_label(p);
	ck_assert_str_eq(t, "ranks 1,3 of 6");
	free(t);
	sv_profile_free(p);
}
END_TEST

/* The ranks held: one flag a rank up to the largest of num_ranks, the
 * file's ranks and the highest rank with rows; the subset label still
 * names only ranks below num_ranks. */
START_TEST(test_ranks_held)
{
	struct sv_profile *p = sv_profile_new("x.h5");
	bool *held;
	char *label;
	uint32_t n = 99, r;

	held = sv_profile_ranks_held(p, &n); /* no rows, no ranks */
	ck_assert_ptr_nonnull(held);
	ck_assert_uint_eq(n, 0);
	free(held);
	ck_assert_ptr_nonnull(sv_profile_add_row(
		p, 1, sv_profile_add_region(p, "a"), 1, NULL));
	ck_assert_ptr_nonnull(sv_profile_add_row(p, 3, 0, 1, NULL));
	ck_assert_ptr_nonnull(sv_profile_add_row(p, 3, 0, 1, NULL));
	p->num_ranks = 6;
	held = sv_profile_ranks_held(p, &n);
	ck_assert_uint_eq(n, 6);
	for (r = 0; r < n; r++)
		ck_assert_int_eq(held[r], r == 1 || r == 3);
	free(held);
	p->file_ranks = 8;
	held = sv_profile_ranks_held(p, &n);
	ck_assert_uint_eq(n, 8);
	ck_assert(!held[7]);
	free(held);
	ck_assert_ptr_nonnull(sv_profile_add_row(p, 9, 0, 1, NULL));
	held = sv_profile_ranks_held(p, &n);
	ck_assert_uint_eq(n, 10);
	for (r = 0; r < n; r++)
		ck_assert_int_eq(held[r], r == 1 || r == 3 || r == 9);
	free(held);
	p->rank_subset = true; /* the label names num_ranks' ranks only */
	label = sv_profile_subset_label(p);
	ck_assert_str_eq(label, "ranks 1,3 of 6");
	free(label);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_lane_pos_by_search)
{
	/* given calls of two lanes that start together, some ending together
	 * in regions shown in another order than their rows, one reversed;
	 * when each call's place is searched; then it is its index in its
	 * lane's sorted calls, and a call number past the end has none */
	static const struct call_spec calls[] = {
		{"late", 0, 0, 10, 1, -1},
		{"early", 0, -5, 0, 1, -1},
		{"early", 0, 0, 10, 1, -1},
		{"early", 0, 0, 10, 1, -1},
		{"late", 0, 0, 10, 2, -1},
		{"early", 0, 0, 30, 2, -1},
		{"late", 0, 0, 0, 1, -1},
		{"early", 0, 7, 3, 1, -1},
		{"late", 0, 0, 10, 1, -1},
	};
	struct sv_profile *p = build(calls, 9, true);
	size_t l, k;
	uint32_t c;

	ck_assert_uint_eq(p->nlanes, 2);
	for (l = 0; l < p->nlanes; l++)
		for (k = 0; k < p->lanes[l].ncalls; k++)
			ck_assert_uint_eq(
				sv_profile_lane_pos(
					p, sv_lane_call(&p->lanes[l], k)),
				k);
	for (c = 0; c < p->ncalls; c++)
		ck_assert_uint_eq(p->lanes[sv_call_lane(p, c)]
					  .calls[sv_profile_lane_pos(p, c)],
			c);
	ck_assert_uint_eq(sv_profile_lane_pos(p, p->ncalls), UINT32_MAX);
	ck_assert_uint_eq(sv_profile_lane_pos(NULL, 0), UINT32_MAX);
	sv_profile_free(p);
}
END_TEST

/* The first call of a run of call numbers that starts at or after a
 * time, as a scan finds it, for every time around the run's starts
 * (ties, the run's ends, an empty run). */
START_TEST(test_range_lower)
{
	static const struct call_spec calls[] = {
		{"a", 0, 0, 1, 1, -1},
		{"a", 0, 2, 3, 1, -1},
		{"a", 0, 2, 4, 1, -1},
		{"a", 0, 2, 5, 1, -1},
		{"a", 0, 7, 9, 1, -1},
		{"a", 0, 9, 9, 1, -1},
	};
	struct sv_profile *p = build(calls, 6, true);
	uint64_t a, b, want;
	int64_t t;

	ck_assert_uint_eq(p->nrows, 1);
	for (a = 0; a <= 6; a++)
		for (b = a; b <= 6; b++)
			for (t = -1; t <= 11; t++) {
				for (want = a;
					want < b &&
					sv_profile_start(p, (uint32_t)want) < t;
					want++)
					;
				ck_assert_uint_eq(
					sv_profile_range_lower(p, a, b, t),
					want);
			}
	sv_profile_free(p);
}
END_TEST

START_TEST(test_wide_exclusive_times)
{
	/* given a call of 5 * 2^32 ns around a 1000 ns child, a call ending
	 * 500 ns before it starts and one ending 3e9 ns before it starts;
	 * when finished; then the durations and ends outside uint32 and the
	 * exclusive times outside int32 come back exact through the
	 * accessors (call by call and as a run), only those are exceptions, and the rows' totals,
	 * exclusive times, minima and maxima are exact; and all of it again
	 * once the columns are packed (the viewer's model) */
	static const int64_t g = (int64_t)1 << 32;
	const struct call_spec calls[] = {
		{"big", 0, 0, 5 * g, -1, -1},
		{"child", 0, 1000, 2000, -1, -1},
		{"neg", 0, 6 * g, 6 * g - 500, -1, -1},
		{"neg", 0, 8 * g, 8 * g - 3000000000, -1, -1},
	};
	struct sv_profile *p = build(calls, 4, false);
	uint32_t big = call_of(p, "big", 0, 0),
		 child = call_of(p, "child", 0, 0),
		 n0 = call_of(p, "neg", 0, 0), n1 = call_of(p, "neg", 0, 1);
	struct sv_stats st;
	int pass;

	ck_assert_ptr_null(p->end_ns);
	ck_assert_uint_eq(p->dur_wide.n, 3);
	ck_assert_uint_eq(p->exclusive_wide.n, 2);
	for (pass = 0; pass < 2; pass++) {
		if (pass) {
			sv_profile_pack(p);
			ck_assert_ptr_null(p->dur);
			ck_assert_ptr_null(p->exclusive);
		}
		ck_assert_int_eq(sv_call_duration(p, big), 5 * g);
		ck_assert_int_eq(sv_profile_end(p, big), 5 * g);
		ck_assert_int_eq(sv_call_duration(p, child), 1000);
		ck_assert_int_eq(sv_profile_end(p, child), 2000);
		ck_assert_int_eq(sv_call_duration(p, n0), -500);
		ck_assert_int_eq(sv_profile_end(p, n0), 6 * g - 500);
		ck_assert_int_eq(sv_call_duration(p, n1), -3000000000);
		ck_assert_int_eq(sv_profile_end(p, n1), 8 * g - 3000000000);
		ck_assert_int_eq(sv_profile_max_end(p), 8 * g - 3000000000);
		ck_assert_int_eq(sv_profile_exclusive(p, big), 5 * g - 1000);
		ck_assert_int_eq(sv_profile_exclusive(p, child), 1000);
		ck_assert_int_eq(sv_profile_exclusive(p, n0), -500);
		ck_assert_int_eq(sv_profile_exclusive(p, n1), -3000000000);
		ck_assert_uint_eq(sv_profile_parent(p, child), big);
		{
			/* the same read as a run of calls */
			int64_t s[4], d[4], x[4];
			uint32_t c;
			sv_profile_starts(p, 0, 4, s);
			sv_profile_durations(p, 0, 4, d);
			sv_profile_exclusives(p, 0, 4, x);
			for (c = 0; c < 4; c++) {
				ck_assert_int_eq(s[c], sv_profile_start(p, c));
				ck_assert_int_eq(d[c], sv_call_duration(p, c));
				ck_assert_int_eq(
					x[c], sv_profile_exclusive(p, c));
			}
		}

		ck_assert_int_eq(
			sv_stats_row(p, sv_profile_row_of(p, big), NULL, &st),
			0);
		ck_assert_int_eq(st.total_ns, 5 * g);
		ck_assert_int_eq(st.exclusive_ns, 5 * g - 1000);
		ck_assert_int_eq(st.max_ns, 5 * g);
		ck_assert_int_eq(
			sv_stats_row(p, sv_profile_row_of(p, n1), NULL, &st),
			0);
		ck_assert_uint_eq(st.num_calls, 2);
		ck_assert_int_eq(st.total_ns, -3000000500);
		ck_assert_int_eq(st.exclusive_ns, -3000000500);
		ck_assert_int_eq(st.min_ns, -3000000000);
		ck_assert_int_eq(st.max_ns, -500);
		ck_assert_int_eq(st.first_ns, -500);
		ck_assert_int_eq(st.last_ns, -3000000000);
	}
	sv_profile_free(p);
}
END_TEST

START_TEST(test_deep_recursion_depths)
{
	/* given 300 calls of one region each inside the one before; when
	 * finished; then each call's depth is its place in the chain, those
	 * of 255 and more kept apart from the byte a call, and the same once
	 * the columns are packed */
	enum { DEEP = 300 };
	struct call_spec calls[DEEP];
	struct sv_profile *p;
	uint32_t c;
	int pass;

	for (c = 0; c < DEEP; c++)
		calls[c] = (struct call_spec){
			"rec", 0, (int64_t)c, 1000 - (int64_t)c, -1, -1};
	p = build(calls, DEEP, false);
	ck_assert_ptr_nonnull(p->depth);
	ck_assert_uint_eq(p->depth_wide.n, DEEP - 255);
	for (pass = 0; pass < 2; pass++) {
		if (pass) {
			sv_profile_pack(p);
			ck_assert_ptr_null(p->depth);
			ck_assert_uint_eq(p->depth_wide.n, 0);
		}
		for (c = 0; c < DEEP; c++) {
			ck_assert_uint_eq(sv_profile_depth(p, c), c);
			ck_assert_uint_eq(sv_profile_parent(p, c),
				c ? c - 1 : SV_NO_CALL);
		}
		ck_assert_uint_eq(p->lanes[0].depth_rows, DEEP);
	}
	sv_profile_free(p);
}
END_TEST

START_TEST(test_parent_ids_derived)
{
	/* given main > (a > b), a with call ids and parent ids that follow
	 * the nesting but for b's; when packed; then the parent ids are
	 * derived from the nesting, b's kept as stored, and every call reads
	 * back its own */
	struct sv_profile *p = build(main_ab_calls, 4, false);
	uint32_t b = call_of(p, "b", 0, 0), c;
	int64_t want[4];

	sv_profile_column(p, &p->call_id, -1);
	sv_profile_column(p, &p->parent_id, -1);
	for (c = 0; c < 4; c++) {
		uint32_t par = sv_profile_parent(p, c);
		p->call_id[c] = 100 + 3 * (int64_t)c;
		p->parent_id[c] =
			par == SV_NO_CALL ? -1 : 100 + 3 * (int64_t)par;
	}
	p->parent_id[b] = 7;
	for (c = 0; c < 4; c++)
		want[c] = p->parent_id[c];
	sv_profile_pack(p);
	sv_profile_pack(p); /* twice: the second changes nothing */
	ck_assert(p->parent_id_derived);
	ck_assert_ptr_null(p->parent_id);
	ck_assert_uint_eq(p->parent_id_wide.n, 1);
	ck_assert(sv_profile_has_id(p, SV_ID_PARENT));
	for (c = 0; c < 4; c++) {
		ck_assert_int_eq(sv_profile_id(p, SV_ID_PARENT, c), want[c]);
		ck_assert_int_eq(
			sv_profile_id(p, SV_ID_CALL, c), 100 + 3 * (int64_t)c);
	}
	sv_profile_free(p);
}
END_TEST

/* Rank 0's lane holds a and b over [10, 20) each, so which is outer is
 * the tie order (region_pos: the regions' earliest starts); rank 1 has b
 * at 5, before a's first call.  Rank 0 alone (with_rank1 false) orders
 * a first; given the earliest starts of both ranks (region_first), the
 * same as the load of both. */
static struct sv_profile *ties_profile(bool with_rank1, const int64_t *first)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	uint32_t a = sv_profile_add_region(p, "a");
	uint32_t b = sv_profile_add_region(p, "b");
	struct sv_row *r;

	r = sv_profile_add_row(p, 0, a, 1, NULL);
	p->start_ns[r->first] = 10;
	p->end_ns[r->first] = 20;
	r = sv_profile_add_row(p, 0, b, 1, NULL);
	p->start_ns[r->first] = 10;
	p->end_ns[r->first] = 20;
	if (with_rank1) {
		r = sv_profile_add_row(p, 1, b, 1, NULL);
		p->start_ns[r->first] = 5;
		p->end_ns[r->first] = 6;
	}
	if (first) {
		p->region_first = sv_xcalloc(2, sizeof *p->region_first);
		memcpy(p->region_first, first, 2 * sizeof *first);
	}
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

START_TEST(test_tie_order_of_a_larger_load)
{
	struct sv_profile *both = ties_profile(true, NULL), *one, *given;
	int64_t first[2], own[2];
	bool seen[2];

	/* the earliest starts over both ranks: a at 10, b at 5 */
	sv_profile_region_first(both, first, seen);
	ck_assert_int_eq(first[0], 10);
	ck_assert_int_eq(first[1], 5);
	ck_assert(seen[0] && seen[1]);
	/* both ranks: b first, so a nests in b */
	ck_assert_uint_eq(sv_profile_parent(both, call_of(both, "a", 0, 0)),
		call_of(both, "b", 0, 0));

	/* rank 0 alone: a and b start together, a first by index */
	one = ties_profile(false, NULL);
	sv_profile_region_first(one, own, NULL);
	ck_assert_int_eq(own[0], 10);
	ck_assert_int_eq(own[1], 10);
	ck_assert_uint_eq(sv_profile_parent(one, call_of(one, "b", 0, 0)),
		call_of(one, "a", 0, 0));
	ck_assert(sv_profile_ties_hold(one, own));
	ck_assert(!sv_profile_ties_hold(one, first));

	/* rank 0 alone with both ranks' order: nests as both do */
	given = ties_profile(false, first);
	ck_assert_uint_eq(sv_profile_parent(given, call_of(given, "a", 0, 0)),
		call_of(given, "b", 0, 0));
	ck_assert_int_eq(
		sv_profile_exclusive(given, call_of(given, "b", 0, 0)), 0);
	ck_assert(sv_profile_ties_hold(given, first));
	sv_profile_free(both);
	sv_profile_free(one);
	sv_profile_free(given);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("profile");
	TCase *t = tcase_create("nesting");
	tcase_add_test(t, test_deep_recursion_depths);
	tcase_add_test(t, test_parent_ids_derived);
	tcase_add_test(t, test_simple_nesting);
	tcase_add_test(t, test_recursion_and_ties);
	tcase_add_test(t, test_zero_length);
	tcase_add_test(t, test_partial_overlap_warns);
	tcase_add_test(t, test_reversed_call_warns);
	tcase_add_test(t, test_reversed_calls_of_a_large_profile);
	tcase_add_test(t, test_large_unsorted_lane);
	tcase_add_test(t, test_lane_of_sorted_rows);
	tcase_add_test(t, test_absurd_times_do_not_overflow);
	tcase_add_test(t, test_threads_warnings_deterministic);
	tcase_add_test(t, test_wide_exclusive_times);
	suite_add_tcase(s, t);
	t = tcase_create("lanes");
	tcase_add_test(t, test_lanes_overlap_each_other);
	tcase_add_test(t, test_lane_labels_from_tables);
	tcase_add_test(t, test_lane_pos_by_search);
	tcase_add_test(t, test_range_lower);
	suite_add_tcase(s, t);
	t = tcase_create("model");
	tcase_add_test(t, test_meta_and_origin);
	tcase_add_loop_test(t, test_start_time_as_python_float, 0,
		sizeof float_cases / sizeof float_cases[0]);
	tcase_add_test(t, test_utf8_names);
	tcase_add_test(t, test_rank_lists_and_subset);
	tcase_add_test(t, test_ranks_held);
	tcase_add_test(t, test_tie_order_of_a_larger_load);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
