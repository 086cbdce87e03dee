/*
 * test_layout.c: the exact time map, a row of the level-of-detail index
 * walked in columns (checked against a brute force and against a walk
 * of one binary search a cell, over random profiles), the spans kept
 * between frames, hit testing, lane rows and labels, geometry.  The
 * index itself is test_lod.c's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/layout.h"
#include "scopeview/profile.h"
#include "viewtest.h"

/* ---- time map ------------------------------------------------------------ */

static const struct sv_tmap maps[] = {
	{0, 100, 0, 10},
	{0, 7, 3, 7},
	{0, 1000, 10, 3},
	{-500, 500, 0, 80},
	{4000000000000000000, 4000000000000001000, 5, 97},
	{4000000000000000000, 4100000000000000000, 0, 300},
	{INT64_MAX - 1000, INT64_MAX, 0, 7},
	{INT64_MIN, INT64_MIN + 12345, 2, 13},
	{-4000000000000000000, 4000000000000000000, 0, 211},
	{1, 2, 0, 1},
};

START_TEST(test_tmap_props)
{
	const struct sv_tmap *m = &maps[_i];
	int x, prev = m->x0 - 1;
	int64_t span = m->t1 - m->t0, step, t;

	/* both ends */
	ck_assert_int_eq(sv_tmap_time(m, m->x0), m->t0);
	ck_assert_int_eq(sv_tmap_time(m, m->x0 + m->w), m->t1);
	ck_assert_int_eq(sv_tmap_col(m, m->t0), m->x0);
	ck_assert_int_eq(sv_tmap_col(m, m->t1 - 1), m->x0 + m->w - 1);
	ck_assert_int_eq(sv_tmap_col(m, m->t1), m->x0 + m->w);
	if (m->t0 > INT64_MIN)
		ck_assert_int_eq(sv_tmap_col(m, m->t0 - 1), m->x0 - 1);
	/* every column's first time maps back to that column (when the
	 * column is not empty) and times are monotonic */
	for (x = m->x0; x < m->x0 + m->w; x++) {
		int64_t a = sv_tmap_time(m, x), b = sv_tmap_time(m, x + 1);
		ck_assert(a <= b);
		if (a < b) {
			ck_assert_int_eq(sv_tmap_col(m, a), x);
			ck_assert_int_eq(sv_tmap_col(m, b - 1), x);
		}
	}
	/* monotonic over a sweep of times */
	step = span / 997 > 0 ? span / 997 : 1;
	for (t = m->t0; t < m->t1 && t >= m->t0; t += step) {
		int c = sv_tmap_col(m, t);
		ck_assert_int_ge(c, prev);
		ck_assert_int_ge(c, m->x0);
		ck_assert_int_lt(c, m->x0 + m->w);
		prev = c;
		if (t > INT64_MAX - step)
			break;
	}
}
END_TEST

static const struct {
	int64_t s, e;
	bool vis;
	int x0, x1;
} spans[] = {
	/* window [0, 100) on 10 columns at x0 = 0 */
	{0, 10, true, 0, 1},
	{0, 11, true, 0, 2},
	{5, 5, true, 0, 1},     /* zero length: its column */
	{9, 10, true, 0, 1},    /* 1 ns at the end of column 0 */
	{10, 11, true, 1, 2},   /* tiny call: one column */
	{-50, 5, true, 0, 1},   /* clipped on the left */
	{95, 500, true, 9, 10}, /* clipped on the right */
	{-5, 500, true, 0, 10},
	{100, 200, false, 0, 0},
	{-20, 0, false, 0, 0},
	{-20, -30, false, 0, 0}, /* ends before it starts, outside */
	{50, 40, true, 5, 6},    /* ends before it starts: its column */
	{99, 99, true, 9, 10},
	{INT64_MIN, INT64_MAX, true, 0, 10},
};

START_TEST(test_tmap_span)
{
	struct sv_tmap m = {0, 100, 0, 10};
	int x0 = -7, x1 = -7;
	bool vis = sv_tmap_span(&m, spans[_i].s, spans[_i].e, &x0, &x1);

	ck_assert_int_eq(vis, spans[_i].vis);
	if (vis) {
		ck_assert_int_eq(x0, spans[_i].x0);
		ck_assert_int_eq(x1, spans[_i].x1);
	} else {
		ck_assert_int_eq(x0, -7);
	}
}
END_TEST

START_TEST(test_tmap_degenerate)
{
	struct sv_tmap zero_w = {0, 100, 0, 0}, empty = {5, 5, 0, 10};
	int a, b;
	ck_assert(!sv_tmap_valid(&zero_w));
	ck_assert(!sv_tmap_valid(&empty));
	ck_assert(!sv_tmap_valid(NULL));
	ck_assert(!sv_tmap_span(&empty, 0, 10, &a, &b));
}
END_TEST

/* Zoom keeps the time under the cursor in its column. */
START_TEST(test_tmap_anchor)
{
	static const int64_t times[] = {
		0, 12345, -999999, 4000000000000000123, INT64_MAX - 10};
	static const int64_t spans_ns[] = {
		80, 81, 1000, 1234567, 1000000007, 4611686018427387904};
	size_t i, j;
	int x;

	for (i = 0; i < sizeof times / sizeof times[0]; i++)
		for (j = 0; j < sizeof spans_ns / sizeof spans_ns[0]; j++)
			for (x = 10; x < 90; x += 7) {
				int64_t t0 = sv_tmap_anchor(
					times[i], x, 10, 80, spans_ns[j]);
				struct sv_tmap m = {
					t0, t0 + spans_ns[j], 10, 80};
				if (times[i] > INT64_MAX - spans_ns[j])
					continue; /* saturated at the end */
				ck_assert_msg(sv_tmap_col(&m, times[i]) == x,
					"t=%lld span=%lld x=%d got %d",
					(long long)times[i],
					(long long)spans_ns[j], x,
					sv_tmap_col(&m, times[i]));
			}
}
END_TEST

/* ---- a row of the index in columns ---------------------------------------- */

/* Brute force: the calls of (lane, depth) meeting column x, and the
 * longest of them (ties: the earliest in lane order). */
static uint32_t brute_cell(const struct sv_profile *p, size_t lane,
	uint32_t depth, const struct sv_tmap *m, int x, uint32_t *count)
{
	const struct sv_lane *l = &p->lanes[lane];
	int64_t a = sv_tmap_time(m, x), b = sv_tmap_time(m, x + 1);
	uint32_t i, best = SV_NO_CALL;

	*count = 0;
	for (i = 0; i < l->ncalls; i++) {
		uint32_t c = sv_lane_call(l, i);
		int64_t e = sv_profile_end(p, c) > sv_profile_start(p, c)
				    ? sv_profile_end(p, c)
				    : sv_profile_start(p, c) + 1;
		if (sv_profile_depth(p, c) != depth ||
			sv_profile_start(p, c) >= b || e <= a)
			continue;
		(*count)++;
		if (best == SV_NO_CALL ||
			sv_call_duration(p, c) > sv_call_duration(p, best))
			best = c;
	}
	return best;
}

START_TEST(test_walk_brute)
{
	unsigned seed = 1234u + (unsigned)_i;
	struct vt_call calls[3000];
	size_t n = 0, lane;
	struct sv_profile *p;
	struct sv_lod_index ix = {0};
	struct sv_error err;
	static const int widths[] = {1, 7, 40, 133};
	size_t wi;

	vt_rand_calls(calls, &n, 3000, 0, 5000 + 1000 * _i, 0, &seed);
	p = vt_profile(calls, n, 0);
	ck_assert_int_eq(sv_lod_index_build(&ix, p, NULL, &err), 0);
	ck_assert_uint_eq(ix.ncalls, p->ncalls);
	for (lane = 0; lane < p->nlanes; lane++)
		for (wi = 0; wi < 4; wi++) {
			int64_t t0s[] = {-100, 0, 777, 2500};
			int64_t spans_ns[] = {7000, 5000, 300, 50};
			size_t k;
			for (k = 0; k < 4; k++) {
				struct sv_tmap m = {t0s[k],
					t0s[k] + spans_ns[k], 3, widths[wi]};
				uint32_t d;
				if (spans_ns[k] < widths[wi])
					continue;
				for (d = 0; d < p->lanes[lane].depth_rows;
					d++) {
					const struct sv_lod_level *lv =
						sv_lod_index_level(
							&ix, lane, d);
					struct sv_layout_span s;
					int x = m.x0, cx, covered = m.x0;
					/* walk: every column agrees with brute
					 * force, runs cover exactly the cells
					 * that hold calls */
					while (sv_layout_row_next(
						&ix, lv, &m, &x, &s)) {
						ck_assert_int_ge(s.x0, covered);
						for (cx = covered; cx < s.x0;
							cx++) {
							uint32_t cnt;
							brute_cell(p, lane, d,
								&m, cx, &cnt);
							ck_assert_uint_eq(
								cnt, 0);
						}
						for (cx = s.x0; cx < s.x1;
							cx++) {
							uint32_t cnt,
								want = brute_cell(
									p, lane,
									d, &m,
									cx,
									&cnt);
							ck_assert_uint_eq(
								cnt, s.count);
							ck_assert_int_eq(
								sv_call_duration(
									p,
									want),
								sv_call_duration(
									p,
									s.call));
							ck_assert_uint_eq(
								sv_layout_hit(
									&ix,
									lane, d,
									&m, cx,
									NULL),
								s.call);
						}
						covered = s.x1;
					}
					for (cx = covered; cx < m.x0 + m.w;
						cx++) {
						uint32_t cnt;
						brute_cell(p, lane, d, &m, cx,
							&cnt);
						ck_assert_uint_eq(cnt, 0);
					}
				}
			}
		}
	sv_lod_index_fini(&ix);
	sv_profile_free(p);
}
END_TEST

/* The walk as it was before its cursors: every cell's calls found by
 * sv_lod_range's two binary searches (the reference for the cursor
 * walk). */
static bool ref_row_next(const struct sv_lod_index *ix,
	const struct sv_lod_level *lv, const struct sv_tmap *m, int *x,
	struct sv_layout_span *out)
{
	const struct sv_profile *p = ix->p;
	int xend = m->x0 + m->w;

	if (!lv || !lv->n || !sv_tmap_valid(m) || (sv_i128)m->t1 - m->t0 < m->w)
		return false;
	if (*x < m->x0)
		*x = m->x0;
	while (*x < xend) {
		int64_t ct0 = sv_tmap_time(m, *x),
			ct1 = sv_tmap_time(m, *x + 1);
		uint32_t lo, hi, c;
		int cend;

		sv_lod_range(lv, ct0, ct1, &lo, &hi);
		if (lo >= lv->n)
			return false;
		out->lo = lo;
		out->hi = hi;
		if (hi == lo) {
			int nx = sv_tmap_col(
				m, sv_profile_start(p, sv_lod_call(lv, lo)));
			*x = nx <= *x ? *x + 1 : nx;
			continue;
		}
		if (hi - lo >= 2) {
			out->x0 = *x;
			out->x1 = *x + 1;
			out->call =
				sv_lod_call(lv, sv_lod_longest(ix, lv, lo, hi));
			out->count = hi - lo;
			(*x)++;
			return true;
		}
		c = sv_lod_call(lv, lo);
		cend = sv_tmap_col(m, sv_lod_call_end(p, c) - 1) + 1;
		if (cend > xend)
			cend = xend;
		if (lo + 1 < lv->n) {
			int nx = sv_tmap_col(m,
				sv_profile_start(p, sv_lod_call(lv, lo + 1)));
			if (nx < cend)
				cend = nx;
		}
		if (cend <= *x)
			cend = *x + 1;
		out->x0 = *x;
		out->x1 = cend;
		out->call = c;
		out->count = 1;
		*x = cend;
		return true;
	}
	return false;
}

/* A row's spans kept between frames are the walk's, and are walked again
 * when the window, the level or the index's build changes. */
START_TEST(test_row_spans_kept)
{
	unsigned seed = 4242u;
	size_t cap = 3000, n = 0;
	struct vt_call *calls = calloc(cap + 1, sizeof *calls);
	struct sv_profile *p;
	struct sv_lod_index ix = {0};
	struct sv_row_spans kept = {0};
	struct sv_error err;
	bool *keep;
	int trial;

	ck_assert_ptr_nonnull(calls);
	vt_rand_calls(calls, &n, cap, 0, 50000, 0, &seed);
	p = vt_profile(calls, n, 0);
	keep = calloc(p->nregions, sizeof *keep);
	ck_assert_int_eq(sv_lod_index_build(&ix, p, NULL, &err), 0);
	for (trial = 0; trial < 200; trial++) {
		struct sv_tmap m = {0, 0, 0, 0};
		const struct sv_lod_level *lv;
		const struct sv_row_span *got;
		struct sv_layout_walk w;
		struct sv_layout_span sp;
		size_t k = 0, ng = 0;
		m.w = 1 + rand_r(&seed) % 120;
		m.t0 = rand_r(&seed) % 40000;
		m.t1 = m.t0 + m.w + rand_r(&seed) % 30000;
		if (trial % 50 == 25) {
			/* the same lane and depth, another build (a filter) */
			for (size_t r = 0; r < p->nregions; r++)
				keep[r] = rand_r(&seed) % 2;
			ck_assert_int_eq(
				sv_lod_index_build(&ix, p, keep, &err), 0);
		}
		lv = sv_lod_index_level(&ix, 0, (uint32_t)(trial / 3 % 3));
		/* twice: walked, then kept; both as a fresh walk gives */
		for (int twice = 0; twice < 2; twice++) {
			got = sv_row_spans_get(&kept, &ix, lv, &m, &ng);
			sv_layout_walk_init(&w, &ix, lv, &m);
			for (k = 0; lv && sv_layout_walk_next(&w, &sp); k++) {
				ck_assert_uint_lt(k, ng);
				ck_assert_int_eq(got[k].s.x0, sp.x0);
				ck_assert_int_eq(got[k].s.x1, sp.x1);
				ck_assert_uint_eq(got[k].s.call, sp.call);
				ck_assert_uint_eq(got[k].s.count, sp.count);
				ck_assert_uint_eq(got[k].region,
					sv_call_region(p, sp.call));
				if (sp.count > 1)
					ck_assert_int_eq(got[k].busy,
						sv_lod_busy(lv,
							sv_tmap_time(&m, sp.x0),
							sv_tmap_time(
								&m, sp.x0 + 1),
							sp.lo, sp.hi));
			}
			ck_assert_uint_eq(k, ng);
		}
	}
	sv_row_spans_fini(&kept);
	sv_row_spans_fini(&kept); /* twice is harmless */
	sv_lod_index_fini(&ix);
	sv_profile_free(p);
	free(keep);
	free(calls);
}
END_TEST

/* A random lane with many calls per cell at the whole run, some of them
 * overlapping their neighbours (a lane that does not nest), some very
 * long: the cursor walk gives exactly the runs of the reference at
 * random windows, widths and offsets. */
START_TEST(test_walk_reference)
{
	unsigned seed = 99u + 7u * (unsigned)_i;
	struct sv_profile *p = vt_rand_lane(_i, &seed);
	struct sv_lod_index ix = {0};
	struct sv_error err;
	int trial;

	ck_assert_int_eq(sv_lod_index_build(&ix, p, NULL, &err), 0);
	for (trial = 0; trial < 300; trial++) {
		struct sv_tmap m;
		uint32_t d;
		m.w = 1 + rand_r(&seed) % 220;
		m.x0 = rand_r(&seed) % 30;
		m.t0 = (int64_t)(rand_r(&seed) % 80000) - 10000;
		m.t1 = m.t0 + m.w + rand_r(&seed) % (trial % 3 ? 90000 : 900);
		for (d = 0; d < p->lanes[0].depth_rows; d++) {
			const struct sv_lod_level *lv =
				sv_lod_index_level(&ix, 0, d);
			struct sv_layout_walk w;
			struct sv_layout_span a, b;
			int x = m.x0, y = m.x0;
			bool more;
			sv_layout_walk_init(&w, &ix, lv, &m);
			do {
				more = ref_row_next(&ix, lv, &m, &x, &a);
				ck_assert_int_eq(
					sv_layout_walk_next(&w, &b), more);
				if (!more)
					break;
				ck_assert_int_eq(a.x0, b.x0);
				ck_assert_int_eq(a.x1, b.x1);
				ck_assert_uint_eq(a.call, b.call);
				ck_assert_uint_eq(a.count, b.count);
				ck_assert_uint_eq(a.lo, b.lo);
				ck_assert_uint_eq(a.hi, b.hi);
				/* the one-call form agrees from any column */
				ck_assert(sv_layout_row_next(
					&ix, lv, &m, &y, &b));
				ck_assert_int_eq(a.x1, b.x1);
				ck_assert_uint_eq(a.call, b.call);
				ck_assert_int_eq(y, x);
			} while (more);
		}
	}
	sv_lod_index_fini(&ix);
	sv_profile_free(p);
}
END_TEST

/* Many tiny calls in one cell: one merged cell in the colour of the
 * longest, with the count. */
START_TEST(test_walk_dominant)
{
	struct vt_call calls[] = {
		{0, "tiny", 0, 1, -1, -1, -1, 0},
		{0, "tiny", 2, 3, -1, -1, -1, 0},
		{0, "big", 4, 9, -1, -1, -1, 0},
		{0, "tiny", 10, 11, -1, -1, -1, 0},
		{0, "late", 500, 1000, -1, -1, -1, 0},
	};
	struct sv_profile *p = vt_profile(calls, 5, 0);
	struct sv_lod_index ix = {0};
	struct sv_tmap m = {0, 1000, 0, 10}; /* 100 ns per column */
	struct sv_layout_span s;
	int x = 0;
	uint32_t count;

	ck_assert_int_eq(sv_lod_index_build(&ix, p, NULL, NULL), 0);
	ck_assert(sv_layout_row_next(
		&ix, sv_lod_index_level(&ix, 0, 0), &m, &x, &s));
	ck_assert_int_eq(s.x0, 0);
	ck_assert_int_eq(s.x1, 1);
	ck_assert_uint_eq(s.count, 4);
	ck_assert_str_eq(p->regions[sv_call_region(p, s.call)], "big");
	ck_assert(sv_layout_row_next(
		&ix, sv_lod_index_level(&ix, 0, 0), &m, &x, &s));
	ck_assert_int_eq(s.x0, 5);
	ck_assert_int_eq(s.x1, 10);
	ck_assert_uint_eq(s.count, 1);
	ck_assert(!sv_layout_row_next(
		&ix, sv_lod_index_level(&ix, 0, 0), &m, &x, &s));
	ck_assert_uint_eq(sv_layout_hit(&ix, 0, 0, &m, 3, &count), SV_NO_CALL);
	ck_assert_uint_eq(count, 0);
	ck_assert_uint_eq(sv_layout_hit(&ix, 0, 1, &m, 3, &count), SV_NO_CALL);
	ck_assert_uint_eq(sv_layout_hit(&ix, 9, 0, &m, 3, &count), SV_NO_CALL);
	/* a region filter is an index of its own: hidden calls never count */
	{
		bool keep[3] = {true, false, true}; /* tiny, big, late */
		ck_assert_int_eq(sv_lod_index_build(&ix, p, keep, NULL), 0);
		x = 0;
		ck_assert(sv_layout_row_next(
			&ix, sv_lod_index_level(&ix, 0, 0), &m, &x, &s));
		ck_assert_uint_eq(s.count, 3);
		ck_assert_str_eq(p->regions[sv_call_region(p, s.call)], "tiny");
	}
	sv_lod_index_fini(&ix);
	sv_profile_free(p);
}
END_TEST

/* Nothing to walk: no level, an empty index. */
START_TEST(test_walk_degenerate)
{
	struct sv_lod_index ix = {0};
	struct sv_profile *p = vt_profile(NULL, 0, 0);
	struct sv_tmap m = {0, 10, 0, 5};
	struct sv_layout_span s;
	int x = 0;
	uint32_t count = 7;

	ck_assert_int_eq(sv_lod_index_build(&ix, p, NULL, NULL), 0);
	ck_assert(!sv_layout_row_next(&ix, NULL, &m, &x, &s));
	ck_assert_int_eq(x, 0);
	ck_assert_uint_eq(sv_layout_hit(&ix, 0, 0, &m, 1, &count), SV_NO_CALL);
	ck_assert_uint_eq(count, 0);
	sv_lod_index_fini(&ix);
	sv_profile_free(p);
}
END_TEST

/* ---- lanes and rows ------------------------------------------------------ */

static const struct vt_call lanes_calls[] = {
	{1, "r1main", 0, 100, 0, -1, -1, 0},
	{0, "main", 0, 100, 0, -1, -1, 0},
	{0, "child", 10, 50, 0, -1, -1, 0},
	{0, "grandchild", 20, 30, 0, -1, -1, 0},
	{0, "child", 60, 90, 0, -1, -1, 0},
	{0, "work", 5, 40, 1, -1, -1, 0},
	{0, "fetch", 10, 80, 0, 2, -1, 30},
};

START_TEST(test_lanes_order_labels)
{
	struct sv_profile *p =
		vt_profile(lanes_calls, 7, VT_THREADS | VT_TASKS);
	struct sv_layout_rows rows = {0};
	bool folded[8] = {0}, hidden[8] = {0};
	static const char *const want[] = {"r0 MainThread",
		"r0 Task-3 fetch() on MainThread", "r0 worker-1",
		"r1 MainThread"};
	size_t i;

	ck_assert_uint_eq(p->nlanes, 4);
	for (i = 0; i < 4; i++)
		ck_assert_str_eq(p->lanes[i].label, want[i]);
	sv_layout_rows_build(&rows, p, NULL, NULL);
	/* MainThread has 3 depth rows, the others 1 */
	ck_assert_uint_eq(rows.n, 6);
	ck_assert_uint_eq(rows.rows[0].lane, 0);
	ck_assert(rows.rows[0].lane_first);
	ck_assert_uint_eq(rows.rows[2].depth, 2);
	ck_assert(rows.rows[2].lane_last);
	ck_assert_uint_eq(rows.rows[3].lane, 1);
	/* a child sits exactly one row under its parent */
	for (i = 0; i < p->ncalls; i++)
		if (sv_profile_parent(p, i) != SV_NO_CALL)
			ck_assert_int_eq(
				sv_layout_rows_find(&rows, sv_call_lane(p, i),
					sv_profile_depth(p, i)),
				sv_layout_rows_find(&rows,
					sv_call_lane(
						p, sv_profile_parent(p, i)),
					sv_profile_depth(
						p, sv_profile_parent(p, i))) +
					1);
	/* rank 0 (lanes 0-2) folded, its lane 2 hidden: one track for
	 * lanes [0, 3), which every lane of the rank finds */
	folded[0] = folded[1] = folded[2] = true;
	hidden[2] = true;
	sv_layout_rows_build(&rows, p, hidden, folded);
	ck_assert_uint_eq(rows.n, 2);
	ck_assert(rows.rows[0].fold);
	ck_assert_uint_eq(rows.rows[0].lane, 0);
	ck_assert_uint_eq(rows.rows[0].lane_end, 3);
	ck_assert_int_eq(sv_layout_rows_find(&rows, 0, 2), 0);
	ck_assert_int_eq(sv_layout_rows_find(&rows, 1, 0), 0);
	ck_assert_int_eq(sv_layout_rows_find(&rows, 3, 0), 1);
	ck_assert(!rows.rows[1].fold);
	/* lane 0 hidden as well: the track starts at lane 1 */
	hidden[0] = true;
	sv_layout_rows_build(&rows, p, hidden, folded);
	ck_assert_uint_eq(rows.rows[0].lane, 1);
	/* every lane of the rank hidden: no track */
	hidden[1] = true;
	sv_layout_rows_build(&rows, p, hidden, folded);
	ck_assert_uint_eq(rows.n, 1);
	ck_assert_int_eq(sv_layout_rows_find(&rows, 0, 0), -1);
	sv_layout_rows_fini(&rows);
	sv_profile_free(p);
}
END_TEST

static const struct {
	int w, h;
	bool panel, details;
	bool small, has_panel, has_details;
} geoms[] = {
	{120, 40, true, true, false, true, true},
	{80, 24, true, true, false, false, true},
	{300, 100, true, true, false, true, true},
	{39, 24, true, true, true, false, false},
	{80, 9, true, true, true, false, false},
	{40, 10, true, true, false, false, false},
	{120, 40, false, false, false, false, false},
};

START_TEST(test_geometry)
{
	struct sv_layout_geom g;
	sv_layout_geometry(&g, geoms[_i].w, geoms[_i].h, geoms[_i].panel,
		geoms[_i].details);
	ck_assert_int_eq(g.too_small, geoms[_i].small);
	if (g.too_small)
		return;
	ck_assert_int_eq(g.panel_w > 0, geoms[_i].has_panel);
	ck_assert_int_eq(g.details_h > 0, geoms[_i].has_details);
	/* areas tile the screen */
	ck_assert_int_eq(g.tl_x, g.label_x + g.label_w);
	ck_assert_int_eq(g.tl_x + g.tl_w + g.panel_w, g.w);
	ck_assert_int_gt(g.tl_w, 10);
	ck_assert_int_ge(g.lanes_h, 1);
	ck_assert_int_eq(
		g.lanes_y + g.lanes_h, g.details_h ? g.details_y : g.status_y);
	ck_assert_int_eq(g.status_y, g.h - 1);
}
END_TEST

/* A panel width asked for (a config file's) is kept while the timeline
 * keeps 60 columns; 0 sizes it by the screen as before. */
START_TEST(test_geometry_panel_width)
{
	struct sv_layout_geom g, d;

	sv_layout_geometry_panel(&g, 160, 40, true, true, 30);
	ck_assert_int_eq(g.panel_w, 30);
	ck_assert_int_eq(g.tl_x + g.tl_w + g.panel_w, g.w);
	sv_layout_geometry_panel(&g, 120, 40, true, true, 90);
	ck_assert_int_eq(g.panel_w, 60);
	sv_layout_geometry_panel(&g, 80, 24, true, true, 50);
	ck_assert_int_eq(g.panel_w, 0); /* no room, as without a width */
	sv_layout_geometry_panel(&g, 160, 40, false, true, 30);
	ck_assert_int_eq(g.panel_w, 0);
	sv_layout_geometry_panel(&g, 160, 40, true, true, 0);
	sv_layout_geometry(&d, 160, 40, true, true);
	ck_assert_int_eq(memcmp(&g, &d, sizeof g), 0);
}
END_TEST

/* Two runs' rows: rank by rank, A's lanes then B's (its own hidden and
 * collapsed flags), a rank only in B after A's last; found by run. */
START_TEST(test_rows_two_runs)
{
	static const struct vt_call ca[] = {
		{0, "main", 0, 100, 0, -1, -1, 0},
		{0, "child", 10, 50, 0, -1, -1, 0},
		{0, "work", 0, 30, 1, -1, -1, 0},
		{1, "main", 0, 100, 0, -1, -1, 0},
	};
	static const struct vt_call cb[] = {
		{0, "main", 0, 100, 0, -1, -1, 0},
		{1, "main", 0, 90, 0, -1, -1, 0},
		{1, "child", 5, 60, 0, -1, -1, 0},
		{3, "main", 0, 10, 0, -1, -1, 0},
	};
	struct sv_profile *a = vt_profile(ca, 4, VT_THREADS);
	struct sv_profile *b = vt_profile(cb, 4, VT_THREADS);
	struct sv_layout_rows r = {0};
	/* (run, rank, depth) of each row */
	static const int want[][3] = {{0, 0, 0}, {0, 0, 1}, {0, 0, 0},
		{1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 1, 1}, {1, 3, 0}};
	bool hidden2[3] = {false, false, true}, coll2[3] = {false, true};
	size_t i;

	/* given both runs, when their rows are built, then rank by rank */
	sv_layout_rows_build_two(&r, a, NULL, NULL, b, NULL, NULL);
	ck_assert_uint_eq(r.n, sizeof want / sizeof want[0]);
	for (i = 0; i < r.n; i++) {
		const struct sv_profile *p = r.rows[i].run ? b : a;
		ck_assert_int_eq(r.rows[i].run, want[i][0]);
		ck_assert_int_eq(p->lanes[r.rows[i].lane].rank, want[i][1]);
		ck_assert_int_eq(r.rows[i].depth, want[i][2]);
		ck_assert(r.rows[i].lane_first == (want[i][2] == 0));
	}
	/* the same lane number in either run is told apart by the run */
	ck_assert_int_eq(sv_layout_rows_find_run(&r, 1, 0, 0), 3);
	ck_assert_int_eq(sv_layout_rows_find_run(&r, 0, 0, 0), 0);
	ck_assert_int_eq(sv_layout_rows_find(&r, 0, 1), 1);
	ck_assert_int_eq(sv_layout_rows_find_run(&r, 1, 1, 5), 6);
	/* B's flags: rank 3 hidden, rank 1 collapsed */
	sv_layout_rows_build_two(&r, a, NULL, NULL, b, hidden2, coll2);
	ck_assert_uint_eq(r.n, 6);
	ck_assert_int_eq(r.rows[5].run, 1);
	ck_assert(r.rows[5].lane_first && r.rows[5].lane_last);
	ck_assert_int_eq(sv_layout_rows_find_run(&r, 1, 2, 0), -1);
	/* without B: the first run's rows alone, as before */
	sv_layout_rows_build_two(&r, a, NULL, NULL, NULL, NULL, NULL);
	ck_assert_uint_eq(r.n, 4);
	for (i = 0; i < r.n; i++)
		ck_assert_int_eq(r.rows[i].run, 0);
	sv_layout_rows_fini(&r);
	sv_profile_free(a);
	sv_profile_free(b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("layout");
	TCase *tc = tcase_create("tmap");
	tcase_add_loop_test(
		tc, test_tmap_props, 0, sizeof maps / sizeof maps[0]);
	tcase_add_loop_test(
		tc, test_tmap_span, 0, sizeof spans / sizeof spans[0]);
	tcase_add_test(tc, test_tmap_degenerate);
	tcase_add_test(tc, test_tmap_anchor);
	suite_add_tcase(s, tc);
	tc = tcase_create("walk");
	tcase_add_loop_test(tc, test_walk_brute, 0, 6);
	tcase_add_loop_test(tc, test_walk_reference, 0, 4);
	tcase_add_test(tc, test_row_spans_kept);
	tcase_add_test(tc, test_walk_dominant);
	tcase_add_test(tc, test_walk_degenerate);
	suite_add_tcase(s, tc);
	tc = tcase_create("rows");
	tcase_add_test(tc, test_lanes_order_labels);
	tcase_add_test(tc, test_rows_two_runs);
	tcase_add_loop_test(
		tc, test_geometry, 0, sizeof geoms / sizeof geoms[0]);
	tcase_add_test(tc, test_geometry_panel_width);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
