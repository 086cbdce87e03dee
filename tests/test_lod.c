/*
 * test_lod.c: the level-of-detail index (lod.h): what its levels keep
 * (packed starts and sums, kept columns when they do not fit), the build
 * shared by threads and stopped, the calls of a time range, left to
 * right with a cursor too, the longest of them and how busy they keep a
 * range, navigation between calls, and the index of some regions
 * selected from the index of all, checked against the one made from the
 * profile.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/lod.h"
#include "scopeview/profile.h"
#include "viewtest.h"

/* ---- the levels ----------------------------------------------------------- */

/* Ranges that come left to right from t (overlapping, touching, empty,
 * apart) through sv_lod_cursor_range: each as sv_lod_range gives it. */
static void assert_cursor_ranges(
	const struct sv_lod_level *lv, int64_t t, unsigned *seed)
{
	struct sv_lod_cursor c;
	int64_t t0 = t, t1 = t;
	int j;

	sv_lod_cursor_init(&c, lv);
	for (j = 0; j < 60; j++) {
		uint32_t lo, hi, want_lo, want_hi;
		t0 += rand_r(seed) % (j % 4 ? 300 : 5000);
		if (t1 < t0)
			t1 = t0;
		t1 += rand_r(seed) % (j % 5 ? 2000 : 1);
		sv_lod_cursor_range(&c, t0, t1, &lo, &hi);
		sv_lod_range(lv, t0, t1, &want_lo, &want_hi);
		ck_assert_uint_eq(lo, want_lo);
		ck_assert_uint_eq(hi, want_hi);
	}
}

/* A random lane, nested or with some calls overlapping their neighbours:
 * the levels keep what their calls are, in about 20 bytes a call, and a
 * cursor finds the calls of ranges left to right as the binary searches
 * do. */
START_TEST(test_lod_levels)
{
	unsigned seed = 99u + 7u * (unsigned)_i;
	struct sv_profile *p = vt_rand_lane(_i, &seed);
	struct sv_lod_index ix = {0};
	struct sv_error err;
	size_t k;
	int trial;

	ck_assert_int_eq(sv_lod_index_build(&ix, p, NULL, &err), 0);
	ck_assert_uint_eq(ix.ncalls, p->ncalls);
	/* The levels keep no durations (no sum saturates) and their ends,
	 * derived or kept, are the running maxima of the calls' ends. */
	for (k = 0; k < ix.lanes[0].ndepth; k++) {
		const struct sv_lod_level *lv = &ix.lanes[0].levels[k];
		int64_t run = INT64_MIN;
		uint32_t i;
		ck_assert_ptr_null(lv->dur);
		ck_assert_ptr_null(lv->start); /* packed, scratch gone */
		ck_assert_ptr_null(lv->cumdur);
		ck_assert_uint_eq(lv->startpk.n, lv->n);
		ck_assert_uint_eq(lv->sumpk.n, (uint64_t)lv->n + 1);
		/* a run of calls microseconds apart packs in well under
		 * 32 bits a start */
		ck_assert_uint_lt(lv->startpk.bytes, 4 * (size_t)lv->n + 64);
		for (i = 0; i < lv->n; i++) {
			int64_t e = sv_lod_call_end(p, sv_lod_call(lv, i));
			ck_assert_int_eq(sv_lod_start(lv, i),
				sv_profile_start(p, sv_lod_call(lv, i)));
			run = e > run ? e : run;
			ck_assert_int_eq(sv_lod_maxend(lv, i), run);
			ck_assert_int_eq(sv_lod_dur(lv, i),
				sv_call_duration(p, sv_lod_call(lv, i)));
			ck_assert_int_eq(sv_lod_cumdur(lv, i + 1),
				sv_lod_cumdur(lv, i) + sv_lod_dur(lv, i));
		}
	}
	/* about 20 bytes a call, plus what each level holds whatever its
	 * size */
	ck_assert_uint_le(ix.bytes,
		23 * (size_t)p->ncalls + 160 * (size_t)ix.lanes[0].ndepth);
	for (trial = 0; trial < 300; trial++) {
		int64_t t = (int64_t)(rand_r(&seed) % 80000) - 10000;
		uint32_t d;
		for (d = 0; d < p->lanes[0].depth_rows; d++)
			assert_cursor_ranges(
				sv_lod_index_level(&ix, 0, d), t, &seed);
	}
	/* no level: nothing, whatever the range */
	{
		struct sv_lod_cursor c;
		uint32_t lo = 5, hi = 5;
		sv_lod_cursor_init(&c, NULL);
		sv_lod_cursor_range(&c, 0, 100, &lo, &hi);
		ck_assert_uint_eq(lo, 0);
		ck_assert_uint_eq(hi, 0);
	}
	sv_lod_index_fini(&ix);
	sv_profile_free(p);
}
END_TEST

/* Durations whose sums saturate, a duration that saturates, starts too
 * far apart for 32-bit offsets: the level keeps what its starts and sums
 * cannot give, and the starts, the longest call and the ends are those
 * of the calls. */
START_TEST(test_lod_kept_columns)
{
	const int64_t big = INT64_MAX / 2 - 10;
	struct vt_call calls[] = {
		{0, "a", -big, 0, -1, -1, -1, 0},
		{0, "b", 0, big, -1, -1, -1, 0},
		{0, "c", big, 2 * big, -1, -1, -1, 0},
		{0, "d", 2 * big, 2 * big + 5, -1, -1, -1, 0},
		{1, "a", INT64_MIN + 10, INT64_MAX - 10, -1, -1, -1, 0},
	};
	struct sv_profile *p = vt_profile(calls, 5, 0);
	struct sv_lod_index ix = {0};
	struct sv_error err;
	const struct sv_lod_level *lv;
	uint32_t i;

	ck_assert_int_eq(sv_lod_index_build(&ix, p, NULL, &err), 0);
	lv = sv_lod_index_level(&ix, 0, 0);
	ck_assert_ptr_nonnull(lv);
	ck_assert_uint_eq(lv->n, 4);
	ck_assert_ptr_nonnull(lv->dur);
	ck_assert_ptr_null(lv->maxend);
	/* a block spans 2^62 ns: packed in 63 bits a value, exactly */
	ck_assert_ptr_null(lv->start);
	ck_assert_ptr_null(lv->cumdur);
	ck_assert_uint_eq(lv->startpk.n, 4);
	for (i = 0; i < lv->n; i++) {
		uint32_t c = sv_lod_call(lv, i);
		ck_assert_int_eq(sv_lod_start(lv, i), sv_profile_start(p, c));
		ck_assert_int_eq(sv_lod_dur(lv, i), sv_call_duration(p, c));
		ck_assert_int_eq(sv_lod_maxend(lv, i), sv_profile_end(p, c));
	}
	ck_assert_uint_eq(sv_lod_longest(&ix, lv, 0, 4), 0);
	ck_assert_uint_eq(sv_lod_longest(&ix, lv, 1, 4), 1);
	ck_assert_uint_eq(sv_lod_longest(&ix, lv, 2, 4), 2);
	ck_assert_uint_eq(sv_lod_longest(&ix, lv, 3, 4), 3);
	/* rank 1's call is longer than INT64_MAX: its saturated duration
	 * no longer gives its end */
	lv = sv_lod_index_level(&ix, 1, 0);
	ck_assert_ptr_nonnull(lv);
	ck_assert_uint_eq(lv->n, 1);
	ck_assert_ptr_null(lv->dur);
	ck_assert_ptr_nonnull(lv->maxend);
	ck_assert_int_eq(sv_lod_dur(lv, 0), INT64_MAX);
	ck_assert_int_eq(sv_lod_maxend(lv, 0), INT64_MAX - 10);
	ck_assert_ptr_null(lv->start);
	ck_assert_int_eq(sv_lod_start(lv, 0), INT64_MIN + 10);
	sv_lod_index_fini(&ix);
	sv_profile_free(p);
}
END_TEST

/* Lanes shared out among threads: the same index as one thread builds,
 * lane for lane and call for call. */
static void *shared_work(void *arg)
{
	sv_lod_build_work(arg);
	return NULL;
}

START_TEST(test_lod_shared_build)
{
	enum { RANKS = 12, TOP = 40 };
	static const char *names[] = {"outer", "mid", "leaf"};
	struct vt_call *calls = calloc(RANKS * TOP * 5, sizeof *calls);
	struct sv_lod_index one = {0}, many = {0};
	struct sv_lod_build b;
	struct sv_profile *p;
	pthread_t t[2];
	size_t n = 0, l, i;
	uint32_t r, k, d;

	for (r = 0; r < RANKS; r++)
		for (k = 0; k < TOP; k++) {
			int64_t s = (int64_t)k * 1000 + r;
			/* outer > mid > (leaf, leaf); one lane a rank, of a
			 * depth that grows with it */
			calls[n++] = (struct vt_call){
				r, names[0], s, s + 900, -1, -1, -1, 0};
			calls[n++] = (struct vt_call){
				r, names[1], s + 10, s + 800, -1, -1, -1, 0};
			if (r % 3 == 0)
				continue;
			calls[n++] = (struct vt_call){r, names[2], s + 20,
				s + 100 + r, -1, -1, -1, 0};
			calls[n++] = (struct vt_call){
				r, names[2], s + 200, s + 300, -1, -1, -1, 0};
		}
	p = vt_profile(calls, n, 0);
	ck_assert_int_eq(sv_lod_index_build(&one, p, NULL, NULL), 0);
	ck_assert_int_eq(
		sv_lod_build_begin(&b, &many, p, NULL, NULL, NULL, NULL), 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(
			pthread_create(&t[i], NULL, shared_work, &b), 0);
	sv_lod_build_work(&b);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	ck_assert_int_eq(sv_lod_build_end(&b, NULL), 0);
	ck_assert_uint_eq(many.nlanes, RANKS);
	ck_assert_uint_eq(many.ncalls, n);
	ck_assert_uint_eq(many.ncalls, one.ncalls);
	ck_assert_uint_eq(many.bytes, one.bytes);
	for (l = 0; l < many.nlanes; l++) {
		ck_assert_uint_eq(many.lanes[l].ndepth, one.lanes[l].ndepth);
		for (d = 0; d < many.lanes[l].ndepth; d++) {
			const struct sv_lod_level *a =
				sv_lod_index_level(&one, l, d);
			const struct sv_lod_level *c =
				sv_lod_index_level(&many, l, d);
			ck_assert_uint_eq(a->n, c->n);
			for (k = 0; k < a->n; k++) {
				ck_assert_uint_eq(
					sv_lod_call(a, k), sv_lod_call(c, k));
				ck_assert_int_eq(
					sv_lod_start(a, k), sv_lod_start(c, k));
				ck_assert_int_eq(
					sv_lod_dur(a, k), sv_lod_dur(c, k));
			}
		}
	}
	/* Asked to stop: cancelled, the index left empty. */
	{
		atomic_bool cancel = true;
		_Atomic uint64_t progress = 0;
		struct sv_lod_stop stop = {&cancel, &progress};
		struct sv_error err;
		ck_assert_int_eq(sv_lod_index_build_stop(
					 &many, p, NULL, NULL, &stop, &err),
			-ECANCELED);
		ck_assert_uint_eq(many.nlanes, 0);
		ck_assert_ptr_null(many.lanes);
	}
	sv_lod_index_fini(&one);
	sv_lod_index_fini(&many);
	sv_profile_free(p);
	free(calls);
}
END_TEST

/* ---- the calls of a range ------------------------------------------------- */

/* The range-maximum query agrees with a scan over long levels: several
 * sparse-table levels, all kept in 16 bits (5000 calls: 157 blocks), and
 * with levels of 2^11 blocks and more, kept in 32 (200,000 calls). */
/* Sizes, and how far the durations spread: over 90 values many calls
 * tie (the earliest is the longest), over a million few do (so the
 * longest lies anywhere in the range, and every part of the query
 * decides). */
static const struct {
	uint32_t n, spread;
} longest_sizes[] = {
	{5000, 90}, {200000, 90}, {5000, 1000000}, {200000, 1000000}};

START_TEST(test_lod_longest)
{
	const uint32_t N = longest_sizes[_i].n;
	struct vt_call *calls = calloc(N, sizeof *calls);
	struct sv_profile *p;
	struct sv_lod_index ix = {0};
	const struct sv_lod_level *lv;
	unsigned seed = 99;
	uint32_t lo, hi, i;

	for (i = 0; i < N; i++)
		calls[i] = (struct vt_call){0, "r",
			(int64_t)i * (longest_sizes[_i].spread + 10),
			(int64_t)i * (longest_sizes[_i].spread + 10) + 1 +
				rand_r(&seed) % longest_sizes[_i].spread,
			-1, -1, -1, 0};
	p = vt_profile(calls, N, 0);
	ck_assert_int_eq(sv_lod_index_build(&ix, p, NULL, NULL), 0);
	lv = sv_lod_index_level(&ix, 0, 0);
	ck_assert_uint_eq(lv->n, N);
	for (i = 0; i < 1200; i++) {
		uint32_t best, j, span;
		lo = (uint32_t)rand_r(&seed) % N;
		/* Every third range short (up to 2^15 calls, a span of a
		 * few blocks to several superblocks), the others anything. */
		span = N - lo;
		if (i % 3 == 0 && span > (1u << (i / 3 % 16)))
			span = 1u << (i / 3 % 16);
		hi = lo + 1 + (uint32_t)rand_r(&seed) % span;
		best = lo;
		for (j = lo + 1; j < hi; j++)
			if (sv_call_duration(p, sv_lod_call(lv, j)) >
				sv_call_duration(p, sv_lod_call(lv, best)))
				best = j;
		ck_assert_uint_eq(sv_lod_longest(&ix, lv, lo, hi), best);
	}
	sv_lod_index_fini(&ix);
	sv_profile_free(p);
	free(calls);
}
END_TEST

/* How busy a range is: the calls' nanoseconds in it, clipped. */
START_TEST(test_lod_busy)
{
	static const struct vt_call calls[] = {
		{0, "a", 0, 10, -1, -1, -1, 0},
		{0, "b", 20, 30, -1, -1, -1, 0},
		{0, "c", 40, 100, -1, -1, -1, 0},
	};
	struct sv_profile *p = vt_profile(calls, 3, VT_START);
	struct sv_lod_index ix = {0};
	const struct sv_lod_level *lv;
	uint32_t lo, hi;

	ck_assert_int_eq(sv_lod_index_build(&ix, p, NULL, NULL), 0);
	lv = sv_lod_index_level(&ix, 0, 0);
	ck_assert_ptr_nonnull(lv);
	ck_assert_int_eq(sv_lod_cumdur(lv, 3), 80);
	/* when the range cuts the last call, it counts in part */
	sv_lod_range(lv, 0, 50, &lo, &hi);
	ck_assert_int_eq(sv_lod_busy(lv, 0, 50, lo, hi), 30);
	/* and cuts on both sides */
	sv_lod_range(lv, 5, 45, &lo, &hi);
	ck_assert_int_eq(sv_lod_busy(lv, 5, 45, lo, hi), 20);
	/* one call wider than the range fills it */
	ck_assert_int_eq(sv_lod_busy(lv, 50, 60, 2, 3), 10);
	/* degenerate input */
	ck_assert_int_eq(sv_lod_busy(NULL, 0, 50, 0, 3), 0);
	ck_assert_int_eq(sv_lod_busy(lv, 0, 50, 2, 1), 0);
	ck_assert_int_eq(sv_lod_busy(lv, 0, 50, 0, 9), 0);
	ck_assert_int_eq(sv_lod_busy(lv, 50, 50, 0, 3), 0);
	sv_lod_index_fini(&ix);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_index_degenerate)
{
	struct sv_lod_index ix = {0};
	struct sv_error err = {0};
	struct sv_profile *p = vt_profile(NULL, 0, 0);
	uint32_t lo = 5, hi = 5;

	ck_assert_int_lt(sv_lod_index_build(&ix, NULL, NULL, &err), 0);
	ck_assert(err.msg[0]);
	ck_assert_int_lt(sv_lod_index_build(NULL, p, NULL, NULL), 0);
	ck_assert_int_eq(sv_lod_index_build(&ix, p, NULL, NULL), 0);
	ck_assert_ptr_null(sv_lod_index_level(&ix, 0, 0));
	sv_lod_range(NULL, 0, 10, &lo, &hi);
	ck_assert_uint_eq(lo, 0);
	ck_assert_uint_eq(hi, 0);
	sv_lod_index_fini(&ix);
	sv_lod_index_fini(NULL);
	sv_profile_free(p);
}
END_TEST

/* ---- navigation ------------------------------------------------------------ */

/* Rank 0 nests main > (child > grandchild, child); rank 1 is a lane of
 * its own. */
static const struct vt_call nav_calls[] = {
	{0, "main", 0, 100, -1, -1, -1, 0},
	{0, "child", 10, 50, -1, -1, -1, 0},
	{0, "grandchild", 20, 30, -1, -1, -1, 0},
	{0, "child", 60, 90, -1, -1, -1, 0},
	{1, "r1main", 0, 100, -1, -1, -1, 0},
};

START_TEST(test_navigation)
{
	struct sv_profile *p = vt_profile(nav_calls, 5, 0);
	struct sv_lod_index ix = {0};
	uint32_t main_c, child1, grand, child2;
	size_t i;

	ck_assert_int_eq(sv_lod_index_build(&ix, p, NULL, NULL), 0);
	main_c = sv_lane_call(&p->lanes[0], 0);
	child1 = sv_lane_call(&p->lanes[0], 1);
	grand = sv_lane_call(&p->lanes[0], 2);
	child2 = sv_lane_call(&p->lanes[0], 3);
	ck_assert_str_eq(p->regions[sv_call_region(p, grand)], "grandchild");
	ck_assert_uint_eq(sv_lod_lane_step(p, main_c, 1), child1);
	ck_assert_uint_eq(sv_lod_lane_step(p, child1, -1), main_c);
	ck_assert_uint_eq(sv_lod_lane_step(p, main_c, -1), SV_NO_CALL);
	ck_assert_uint_eq(sv_lod_lane_step(p, child2, 1), SV_NO_CALL);
	ck_assert_uint_eq(sv_lod_first_child(&ix, main_c), child1);
	ck_assert_uint_eq(sv_lod_longest_child(&ix, main_c), child1);
	ck_assert_uint_eq(sv_lod_first_child(&ix, grand), SV_NO_CALL);
	ck_assert_uint_eq(sv_lod_sibling(&ix, child1, 1), child2);
	ck_assert_uint_eq(sv_lod_sibling(&ix, child2, -1), child1);
	ck_assert_uint_eq(sv_lod_sibling(&ix, child2, 1), SV_NO_CALL);
	ck_assert_uint_eq(sv_lod_sibling(&ix, main_c, 1), SV_NO_CALL);
	for (i = 0; i < p->ncalls; i++)
		ck_assert_uint_eq(
			p->lanes[sv_call_lane(p, i)]
				.calls[sv_profile_lane_pos(p, (uint32_t)i)],
			i);
	ck_assert_uint_eq(sv_profile_lane_pos(p, 999), UINT32_MAX);
	ck_assert_uint_eq(sv_lod_level_pos(&ix, 999), UINT32_MAX);
	ck_assert_uint_eq(sv_lod_first_child(NULL, 0), SV_NO_CALL);
	sv_lod_index_fini(&ix);
	sv_profile_free(p);
}
END_TEST

/* ---- an index of some regions, selected from the index of all ---------- */

/* Whether a and b hold the same levels, array for array. */
static void lod_same(const struct sv_lod_index *a, const struct sv_lod_index *b)
{
	size_t l;
	uint32_t d, i, k;

	ck_assert_uint_eq(a->nlanes, b->nlanes);
	ck_assert_uint_eq(a->ncalls, b->ncalls);
	for (l = 0; l < a->nlanes; l++) {
		ck_assert_uint_eq(a->lanes[l].ndepth, b->lanes[l].ndepth);
		for (d = 0; d < a->lanes[l].ndepth; d++) {
			const struct sv_lod_level *x = sv_lod_index_level(
							  a, l, d),
						  *y = sv_lod_index_level(
							  b, l, d);
			ck_assert_uint_eq(x->n, y->n);
			ck_assert_uint_eq(x->nblocks, y->nblocks);
			ck_assert_uint_eq(x->nsuper, y->nsuper);
			ck_assert_uint_eq(x->nslog, y->nslog);
			ck_assert_int_eq(!x->dur, !y->dur);
			ck_assert_int_eq(!x->maxend, !y->maxend);
			for (i = 0; i < x->n; i++) {
				ck_assert_uint_eq(
					sv_lod_call(x, i), sv_lod_call(y, i));
				ck_assert_int_eq(
					sv_lod_start(x, i), sv_lod_start(y, i));
				ck_assert_int_eq(
					sv_lod_dur(x, i), sv_lod_dur(y, i));
				ck_assert_int_eq(sv_lod_maxend(x, i),
					sv_lod_maxend(y, i));
				ck_assert_uint_eq(x->pre[i], y->pre[i]);
				ck_assert_uint_eq(x->suf[i], y->suf[i]);
			}
			ck_assert_int_eq(
				sv_lod_cumdur(x, x->n), sv_lod_cumdur(y, y->n));
			for (k = 0; k < SV_LOD_BT; k++)
				for (i = 0; i < x->nblocks; i++)
					ck_assert_uint_eq(sv_lod_bt(x, k, i),
						sv_lod_bt(y, k, i));
			for (i = 0; i < x->nslog * x->nsuper; i++)
				ck_assert_uint_eq(x->super[i], y->super[i]);
		}
	}
}

/* Whether a and b answer alike for every call of p: its position, its
 * children, its siblings, and for a few time ranges of each level the
 * positions, the busy time and the longest call. */
static void lod_same_answers(const struct sv_profile *p,
	const struct sv_lod_index *a, const struct sv_lod_index *b)
{
	uint32_t c, d, lo, hi, lo2, hi2;
	size_t l;
	int k;

	for (c = 0; c < p->ncalls; c++) {
		ck_assert_uint_eq(
			sv_lod_level_pos(a, c), sv_lod_level_pos(b, c));
		ck_assert_uint_eq(
			sv_lod_first_child(a, c), sv_lod_first_child(b, c));
		ck_assert_uint_eq(
			sv_lod_longest_child(a, c), sv_lod_longest_child(b, c));
		ck_assert_uint_eq(
			sv_lod_sibling(a, c, 1), sv_lod_sibling(b, c, 1));
		ck_assert_uint_eq(
			sv_lod_sibling(a, c, -1), sv_lod_sibling(b, c, -1));
	}
	for (l = 0; l < a->nlanes; l++)
		for (d = 0; d < a->lanes[l].ndepth; d++) {
			const struct sv_lod_level *x = sv_lod_index_level(
							  a, l, d),
						  *y = sv_lod_index_level(
							  b, l, d);
			int64_t t0, span;
			if (!x->n)
				continue;
			t0 = sv_lod_start(x, 0);
			span = sv_lod_maxend(x, x->n - 1) - t0 + 1;
			for (k = 1; k <= 16; k++) {
				int64_t u0 = t0 + span * (k - 1) / 17,
					u1 = t0 + span * (k + 3) / 17;
				sv_lod_range(x, u0, u1, &lo, &hi);
				sv_lod_range(y, u0, u1, &lo2, &hi2);
				ck_assert_uint_eq(lo, lo2);
				ck_assert_uint_eq(hi, hi2);
				ck_assert_int_eq(sv_lod_busy(x, u0, u1, lo, hi),
					sv_lod_busy(y, u0, u1, lo, hi));
				if (hi > lo)
					ck_assert_uint_eq(
						sv_lod_longest(a, x, lo, hi),
						sv_lod_longest(b, y, lo, hi));
			}
		}
}

/* The levels of ix read through the index of every call. */
static size_t lod_overlays(const struct sv_lod_index *ix)
{
	size_t l, n = 0;
	uint32_t d;

	for (l = 0; l < ix->nlanes; l++)
		for (d = 0; d < ix->lanes[l].ndepth; d++)
			n += ix->lanes[l].levels[d].over != NULL;
	return n;
}

/* Generated profiles (threads, tasks; packed and not) and region
 * filters: given the index of every call made with its regions, when
 * the index of some regions is selected from it, then it is the index
 * made from the profile for those regions. */
static const struct {
	uint32_t ranks, threads, tasks;
	uint64_t events;
	bool pack;
} select_profiles[] = {
	{3, 1, 0, 20000, true},
	{2, 2, 2, 12000, true},
	{4, 3, 0, 9000, false},
	{1, 1, 0, 1, false},
};
/* Which regions a filter keeps: by name prefix, every other one, all,
 * none, all but the mpi ones. */
static const char *const select_keeps[] = {"kernel", "mpi", "main", "fib",
	"#odd", "#all", "#none", "solve", "#not mpi"};

static bool select_keep_name(const char *how, const char *name, uint32_t r)
{
	if (!strcmp(how, "#not mpi"))
		return strncmp(name, "mpi", 3) != 0;
	if (!strcmp(how, "#odd"))
		return r % 2;
	if (!strcmp(how, "#all"))
		return true;
	if (!strcmp(how, "#none"))
		return false;
	return !strncmp(name, how, strlen(how));
}

START_TEST(test_lod_select)
{
	const size_t nk = sizeof select_keeps / sizeof select_keeps[0];
	struct sv_lod_index all = {0}, sel = {0}, ref = {0};
	struct sv_lod_build b;
	char name[32];
	struct sv_profile *p;
	bool *keep;
	size_t k, overlays;
	uint32_t r;

	snprintf(name, sizeof name, "select%d.h5", _i);
	p = svt_gen_profile(name, select_profiles[_i].ranks,
		select_profiles[_i].threads, select_profiles[_i].tasks,
		select_profiles[_i].events, select_profiles[_i].pack);
	ck_assert_int_eq(
		sv_lod_build_begin(&b, &all, p, NULL, NULL, NULL, NULL), 0);
	b.regions = true;
	sv_lod_build_run(&b, 2);
	ck_assert_int_eq(sv_lod_build_end(&b, NULL), 0);
	keep = calloc(p->nregions + 1, sizeof *keep);
	for (k = 0, overlays = 0; k < nk; k++) {
		for (r = 0; r < p->nregions; r++)
			keep[r] = select_keep_name(
				select_keeps[k], p->regions[r], r);
		ck_assert_int_eq(sv_lod_index_build(&ref, p, keep, NULL), 0);
		ck_assert_int_eq(sv_lod_index_select(&sel, &all, keep, NULL,
					 1 + k % 2, NULL),
			0);
		lod_same(&ref, &sel);
		lod_same_answers(p, &ref, &sel);
		/* its own calls only: what is borrowed is not counted, and
		 * a level read through the index of every call holds only
		 * its longest-call tables and runs */
		ck_assert_uint_le(sel.bytes, ref.bytes);
		overlays += lod_overlays(&sel);
		sv_lod_index_fini(&sel);
		sv_lod_index_fini(&ref);
	}
	/* a filter leaving out a few regions' calls reads most levels
	 * through the index of every call (but the profile of one call) */
	if (p->ncalls > 1)
		ck_assert_uint_gt(overlays, 0);
	/* every region: every level borrowed, the same index */
	ck_assert_int_eq(
		sv_lod_index_select(&sel, &all, NULL, NULL, 1, NULL), 0);
	ck_assert_int_eq(sv_lod_index_build(&ref, p, NULL, NULL), 0);
	lod_same(&ref, &sel);
	{
		/* the lanes and levels themselves, nothing a call */
		size_t l, own = sel.nlanes * sizeof *sel.lanes;
		for (l = 0; l < sel.nlanes; l++)
			own += sel.lanes[l].ndepth *
			       sizeof(struct sv_lod_level);
		ck_assert_uint_eq(sel.bytes, own);
	}
	sv_lod_index_fini(&ref);
	/* the regions of each level: its positions, each once, by region */
	{
		size_t l;
		uint32_t d, g, i;
		for (l = 0; l < all.nlanes; l++)
			for (d = 0; d < all.lanes[l].ndepth; d++) {
				const struct sv_lod_level *lv =
					sv_lod_index_level(&all, l, d);
				bool *seen = calloc(lv->n + 1, 1);
				ck_assert_ptr_nonnull(lv->rg);
				ck_assert_uint_eq(
					lv->rg->off[lv->rg->n], lv->n);
				for (g = 0; g < lv->rg->n; g++)
					for (i = lv->rg->off[g];
						i < lv->rg->off[g + 1]; i++) {
						uint32_t q = sv_lod_group_pos(
							lv->rg, g,
							i - lv->rg->off[g]);
						ck_assert(!seen[q]);
						seen[q] = true;
						ck_assert_uint_eq(
							sv_call_region(p,
								sv_lod_call(
									lv, q)),
							lv->rg->region[g]);
					}
				free(seen);
			}
	}
	/* asked to stop: empty */
	{
		atomic_bool cancel = true;
		struct sv_lod_stop stop = {&cancel, NULL};
		keep[0] = !keep[0];
		ck_assert_int_eq(
			sv_lod_index_select(&sel, &all, keep, &stop, 2, NULL),
			-ECANCELED);
		ck_assert_uint_eq(sel.nlanes, 0);
	}
	/* the alias outlives nothing: freed first, then the index */
	sv_lod_index_fini(&sel);
	sv_lod_index_fini(&all);
	free(keep);
	sv_profile_free(p);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("lod");
	TCase *tc = tcase_create("levels");
	tcase_add_loop_test(tc, test_lod_levels, 0, 4);
	tcase_add_test(tc, test_lod_kept_columns);
	tcase_add_test(tc, test_lod_shared_build);
	suite_add_tcase(s, tc);
	tc = tcase_create("queries");
	tcase_add_loop_test(tc, test_lod_longest, 0,
		sizeof longest_sizes / sizeof longest_sizes[0]);
	tcase_add_test(tc, test_lod_busy);
	tcase_add_test(tc, test_index_degenerate);
	tcase_add_test(tc, test_navigation);
	suite_add_tcase(s, tc);
	tc = tcase_create("select");
	tcase_add_loop_test(tc, test_lod_select, 0,
		sizeof select_profiles / sizeof select_profiles[0]);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
