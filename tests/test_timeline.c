/*
 * test_timeline.c: the timeline's window, cursor and selection moves
 * (timeline.c): the window clamped between one nanosecond a column and
 * the widest span, zooming about a column, panning with the cursor,
 * selecting a call out of view, stepping through lists of calls, the
 * cursor row kept on screen after a resize, and a new profile; two runs
 * one above the other (timeline_two.c): rows rank by rank, A's then B's,
 * each run from its start, one window for both, B's calls selected.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/action.h"
#include "scopeview/mode.h"
#include "scopeview/render.h"
#include "scopeview/session.h"
#include "scopeview/timeline.h"
#include "viewtest.h"

/* rank 0: MainThread main [0,1000) > child [100,500) > grandchild
 * [200,300), child [600,900); worker-1 work [50,400); rank 1: main
 * [0,1200). */
static const struct vt_call calls[] = {
	{0, "main", 0, 1000, 0, -1, -1, 0},
	{0, "child", 100, 500, 0, -1, -1, 0},
	{0, "grandchild", 200, 300, 0, -1, -1, 0},
	{0, "child", 600, 900, 0, -1, -1, 0},
	{0, "work", 50, 400, 1, -1, -1, 0},
	{1, "main", 0, 1200, 0, -1, -1, 0},
};

static struct sv_profile *prof;
static struct sv_session s;
static struct sv_timeline tl;

/* The session tells the timeline, as the viewer does. */
static void forward(void *ctx, unsigned what)
{
	sv_timeline_notify(ctx, what);
}

static void setup(void)
{
	struct sv_error err;
	prof = vt_profile(
		calls, sizeof calls / sizeof calls[0], VT_THREADS | VT_START);
	ck_assert_int_eq(sv_session_init(&s, prof, NULL, &err), 0);
	sv_timeline_init(&tl, &s);
	s.notify = forward;
	s.notify_ctx = &tl;
	sv_timeline_resize(&tl, 120, 40);
}

static void teardown(void)
{
	sv_timeline_fini(&tl);
	sv_session_fini(&s);
	sv_profile_free(prof);
}

static uint32_t call_of(const char *name, int64_t start, int64_t end)
{
	uint32_t c;
	for (c = 0; c < prof->ncalls; c++)
		if (!strcmp(prof->regions[sv_call_region(prof, c)], name) &&
			prof->start_ns[c] == start &&
			sv_profile_end(prof, c) == end)
			return c;
	ck_abort_msg("no call %s [%lld, %lld)", name, (long long)start,
		(long long)end);
	return SV_NO_CALL;
}

static int col_of(int64_t t)
{
	struct sv_tmap m = sv_timeline_tmap(&tl);
	return sv_tmap_col(&m, t);
}

/* ---- the window -------------------------------------------------------- */

START_TEST(test_initial_window)
{
	/* the whole run in view, the cursor at its start on the first lane */
	ck_assert_int_eq(tl.t0, 0);
	ck_assert_int_eq(tl.t1, 1200);
	ck_assert_int_eq(tl.cur_t, 0);
	ck_assert_uint_eq(tl.cur_lane, tl.rows.rows[0].lane);
	ck_assert_int_eq(sv_timeline_cursor_row(&tl), 0);
	ck_assert_int_gt(tl.geom.tl_w, 0);
	ck_assert_int_eq(sv_timeline_min_span(&tl), tl.geom.tl_w);
	/* never wider than the run */
	ck_assert_int_eq(sv_timeline_max_span(&tl), 1200);
}
END_TEST

/* A window asked for, the span it gets ("min" and "max" stand for the
 * allowed spans) and where it starts: inside the run [0, 1200). */
enum { MIN = -1, MAX = -2 };
static const struct {
	int64_t t0, span;
	int64_t want, want_t0;
} windows[] = {
	{0, 1, MIN, 0},
	{0, 0, MIN, 0},
	{100, -50, MIN, 100},
	{-500, INT64_MAX, MAX, 0},
	{0, 1000000001, MAX, 0},
	{300, 5000, MAX, 0},
	{-20, 1200, 1200, 0},
	{-20, 600, 600, 0},
	{900, 600, 600, 600},
	{5000, 600, 600, 600},
	{200, 600, 600, 200},
};

START_TEST(test_set_window_clamps)
{
	int64_t want = windows[_i].want == MIN   ? sv_timeline_min_span(&tl)
		       : windows[_i].want == MAX ? sv_timeline_max_span(&tl)
						 : windows[_i].want;

	/* when a window is set */
	sv_timeline_set_window(&tl, windows[_i].t0, windows[_i].span);
	/* then it spans what is allowed, inside the run */
	ck_assert_int_eq(tl.t0, windows[_i].want_t0);
	ck_assert_int_eq(sv_timeline_span(&tl), want);
	ck_assert_int_eq(tl.t1 - tl.t0, want);
}
END_TEST

START_TEST(test_set_window_no_overflow)
{
	/* a window asked for at the ends of time lands inside the run */
	sv_timeline_set_window(&tl, INT64_MAX - 10, 500);
	ck_assert_int_eq(tl.t1, 1200);
	ck_assert_int_eq(sv_timeline_span(&tl), 500);
	/* and panning past either end stays there */
	sv_timeline_pan(&tl, INT64_MAX);
	ck_assert_int_eq(tl.t1, 1200);
	sv_timeline_set_window(&tl, INT64_MIN + 10, 500);
	ck_assert_int_eq(tl.t0, 0);
	sv_timeline_pan(&tl, INT64_MIN);
	ck_assert_int_eq(tl.t0, 0);
	ck_assert_int_eq(sv_timeline_span(&tl), 500);
}
END_TEST

START_TEST(test_max_span_long_run)
{
	/* a run of 10 s: the widest window is the run */
	static const struct vt_call one[] = {
		{0, "long", 0, 10000000000LL, -1, -1, -1, 0},
	};
	struct sv_profile *p = vt_profile(one, 1, 0);
	struct sv_session t;
	struct sv_timeline w;
	struct sv_error err;

	ck_assert_int_eq(sv_session_init(&t, p, NULL, &err), 0);
	sv_timeline_init(&w, &t);
	ck_assert_int_eq(sv_timeline_max_span(&w), 10000000000LL);
	sv_timeline_set_window(&w, -5, INT64_MAX);
	ck_assert_int_eq(sv_timeline_span(&w), 10000000000LL);
	ck_assert_int_eq(w.t0, 0);
	sv_timeline_fini(&w);
	sv_session_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* Zoom to span about time t at column tl_x + dx (dx < 0: from the right
 * edge). */
static const struct {
	int64_t t;
	int dx;
	int64_t span;
	bool edge; /* the window meets the run's edge: t moves off x */
} zooms[] = {
	{600, 0, 600, false},
	{600, 10, 300, false},
	{600, -1, 300, false},
	{0, 5, 10000, true},
	{1199, -1, 2400, false},
	{777, 20, 1, false},             /* one nanosecond a column */
	{123456, 3, 5000000000LL, true}, /* clamped to the widest */
	{10, 7, 900, true},
};

START_TEST(test_zoom_at)
{
	int x = zooms[_i].dx >= 0 ? tl.geom.tl_x + zooms[_i].dx
				  : tl.geom.tl_x + tl.geom.tl_w + zooms[_i].dx;
	int64_t span = zooms[_i].span;

	if (span < sv_timeline_min_span(&tl))
		span = sv_timeline_min_span(&tl);
	if (span > sv_timeline_max_span(&tl))
		span = sv_timeline_max_span(&tl);
	/* when zooming about (t, x) */
	sv_timeline_zoom_at(&tl, zooms[_i].t, x, zooms[_i].span);
	/* then t is still drawn in column x, at the span allowed, unless
	 * that would show time outside the run */
	if (!zooms[_i].edge)
		ck_assert_int_eq(col_of(zooms[_i].t), x);
	ck_assert_int_eq(sv_timeline_span(&tl), span);
	ck_assert_int_ge(tl.t0, 0);
	ck_assert_int_le(tl.t1, 1200);
}
END_TEST

START_TEST(test_pan_moves_cursor)
{
	int64_t t0, span;

	/* given a window of 600 ns with the cursor inside */
	sv_timeline_set_window(&tl, 0, 600);
	tl.cur_t = 300;
	span = sv_timeline_span(&tl);
	/* when panned forward and back: the cursor moves along */
	sv_timeline_pan(&tl, 150);
	ck_assert_int_eq(tl.t0, 150);
	ck_assert_int_eq(sv_timeline_span(&tl), span);
	ck_assert_int_eq(tl.cur_t, 450);
	sv_timeline_pan(&tl, -100);
	ck_assert_int_eq(tl.t0, 50);
	ck_assert_int_eq(tl.cur_t, 350);
	/* past the run's start it stops there, the cursor moved as far */
	sv_timeline_pan(&tl, -400);
	ck_assert_int_eq(tl.t0, 0);
	ck_assert_int_eq(tl.cur_t, 300);

	/* given the cursor outside the window: it stays where it is */
	t0 = tl.t0;
	tl.cur_t = 5000;
	sv_timeline_pan(&tl, 100);
	ck_assert_int_eq(tl.t0, t0 + 100);
	ck_assert_int_eq(tl.cur_t, 5000);
}
END_TEST

/* ---- selection --------------------------------------------------------- */

START_TEST(test_select_out_of_window)
{
	uint32_t c = call_of("child", 600, 900);
	int64_t span;

	/* given a window [0, 200) */
	sv_timeline_set_window(&tl, 0, 200);
	span = sv_timeline_span(&tl);
	/* when a call outside it is selected */
	sv_timeline_select(&tl, c);
	/* then the window moves, same span, to put the call in view; the
	 * cursor goes to its row and into it */
	ck_assert_int_eq(sv_timeline_span(&tl), span);
	ck_assert(tl.t0 < 900 && tl.t1 > 600);
	ck_assert_int_eq(tl.t0, 750 - span / 2);
	ck_assert_uint_eq(s.sel, c);
	ck_assert_uint_eq(tl.cur_lane, sv_call_lane(prof, c));
	ck_assert_int_eq(tl.cur_depth, 1);
	ck_assert(tl.cur_t >= 600 && tl.cur_t < 900);
	ck_assert(tl.cur_t >= tl.t0 && tl.cur_t < tl.t1);
	ck_assert_int_eq(tl.rows.rows[sv_timeline_cursor_row(&tl)].depth, 1);
}
END_TEST

START_TEST(test_show_call_readable)
{
	uint32_t g = call_of("grandchild", 200, 300);
	uint32_t m = call_of("main", 0, 1000);
	struct sv_tmap mp;
	int64_t span;

	/* given the whole run, where grandchild is narrower than readable */
	mp = sv_timeline_tmap(&tl);
	ck_assert_int_lt(sv_tmap_col(&mp, 300) - sv_tmap_col(&mp, 200),
		SV_TIMELINE_READABLE);
	/* when a jump lands on it: zoomed in until it is readable, whole */
	sv_timeline_show_call(&tl, g);
	mp = sv_timeline_tmap(&tl);
	ck_assert_uint_eq(s.sel, g);
	ck_assert_int_ge(sv_tmap_col(&mp, 300) - sv_tmap_col(&mp, 200),
		SV_TIMELINE_READABLE);
	ck_assert_int_le(tl.t0, 200);
	ck_assert_int_ge(tl.t1, 300);
	ck_assert_uint_eq(tl.nhistory, 1);
	/* a call readable at this zoom keeps it: the window only scrolls */
	span = sv_timeline_span(&tl);
	sv_timeline_show_call(&tl, call_of("child", 100, 500));
	ck_assert_int_eq(sv_timeline_span(&tl), span);
	ck_assert_uint_eq(tl.nhistory, 1);
	/* a call wider than the window keeps the zoom too */
	sv_timeline_show_call(&tl, m);
	ck_assert_int_eq(sv_timeline_span(&tl), span);
	ck_assert_uint_eq(s.sel, m);
}
END_TEST

START_TEST(test_select_in_window)
{
	uint32_t c = call_of("work", 50, 400);

	/* given a window that shows part of the call */
	sv_timeline_set_window(&tl, 300, 600);
	/* when selected: the window stays; the cursor is in the part shown */
	sv_timeline_select(&tl, c);
	ck_assert_int_eq(tl.t0, 300);
	ck_assert_int_eq(tl.t1, 900);
	ck_assert_int_eq(tl.cur_t, 350);
	ck_assert_uint_eq(tl.cur_lane, sv_call_lane(prof, c));
	ck_assert_int_eq(tl.cur_depth, 0);
	ck_assert_uint_eq(s.sel, c);
}
END_TEST

START_TEST(test_select_refused)
{
	uint32_t c = call_of("work", 50, 400), m = call_of("main", 0, 1000);

	/* given main selected */
	sv_timeline_select(&tl, m);
	/* a call on a hidden lane, none, or a bad number change nothing */
	sv_session_solo(&s, (long)sv_call_lane(prof, m));
	sv_timeline_select(&tl, c);
	sv_timeline_select(&tl, SV_NO_CALL);
	sv_timeline_select(&tl, (uint32_t)prof->ncalls);
	ck_assert_uint_eq(s.sel, m);
	ck_assert_uint_eq(tl.cur_lane, sv_call_lane(prof, m));
}
END_TEST

START_TEST(test_select_expands_lane)
{
	uint32_t g = call_of("grandchild", 200, 300);
	uint32_t lane = sv_call_lane(prof, g);
	size_t nrows = tl.rows.n;

	size_t rank_rows = 0, i;

	for (i = 0; i < nrows; i++)
		rank_rows += prof->lanes[tl.rows.rows[i].lane].rank ==
			     prof->lanes[lane].rank;
	/* given its rank folded into one track */
	sv_timeline_fold_rank(&tl, 0, lane, true);
	sv_timeline_rows_changed(&tl);
	ck_assert_uint_eq(tl.rows.n, nrows - rank_rows + 1);
	/* when a nested call of it is selected: the rank unfolds */
	sv_timeline_select(&tl, g);
	ck_assert(!sv_timeline_rank_folded(&tl, 0, lane));
	ck_assert_uint_eq(tl.rows.n, nrows);
	ck_assert_int_eq(tl.cur_depth, 2);
	ck_assert_int_eq(tl.rows.rows[sv_timeline_cursor_row(&tl)].depth, 2);
}
END_TEST

/* ---- lists ------------------------------------------------------------- */

START_TEST(test_jump_by_time)
{
	struct sv_error err;
	static const int64_t fwd[] = {100, 200, 600, 100};
	size_t i;
	int rc;

	/* given the matches of "child": starts 100, 200, 600 */
	ck_assert_int_eq(sv_session_set_search(&s, "child", &err), 0);
	ck_assert_uint_eq(sv_session_nmatches(&s), 3);

	/* when n is pressed from the cursor at 0: each next in time, then
	 * round to the first */
	for (i = 0; i < 4; i++) {
		rc = sv_timeline_jump_session(&tl, false, 1);
		ck_assert_int_eq(rc, SV_REACT_REDRAW);
		ck_assert_int_eq(prof->start_ns[s.sel], fwd[i]);
	}
	ck_assert_str_eq(s.message, "match 1 of 3");
	/* backwards from the first: round to the last */
	sv_timeline_jump_session(&tl, false, -1);
	ck_assert_int_eq(prof->start_ns[s.sel], 600);
	ck_assert_str_eq(s.message, "match 3 of 3");

	/* from the cursor (nothing selected) at 250: the next is at 600,
	 * the previous at 200 */
	sv_session_select(&s, 0, SV_NO_CALL);
	tl.cur_t = 250;
	sv_timeline_jump_session(&tl, false, 1);
	ck_assert_int_eq(prof->start_ns[s.sel], 600);
	sv_session_select(&s, 0, SV_NO_CALL);
	tl.cur_t = 250;
	sv_timeline_jump_session(&tl, false, -1);
	ck_assert_int_eq(prof->start_ns[s.sel], 200);
}
END_TEST

/* The jump by time, a scan of the whole list: what the binary searches
 * must find (from a match, its neighbour in the list: ties too). */
static long jump_scan(const struct sv_profile *p, const uint32_t *list,
	size_t n, int64_t t, uint32_t sel, int dir)
{
	size_t i;
	/* From a match: the next (previous) in the list, wrapping. */
	for (i = 0; sel != SV_NO_CALL && i < n; i++)
		if (list[i] == sel)
			return (long)((i + n + (size_t)dir) % n);
	if (dir > 0) {
		for (i = 0; i < n; i++) {
			int64_t st = p->start_ns[list[i]];
			if (st > t || (st == t && (sel == SV_NO_CALL ||
							  list[i] > sel)))
				return (long)i;
		}
		return 0;
	}
	for (i = n; i-- > 0;) {
		int64_t st = p->start_ns[list[i]];
		if (st < t || (st == t && sel != SV_NO_CALL && list[i] < sel))
			return (long)i;
	}
	return (long)n - 1;
}

START_TEST(test_jump_by_time_ties)
{
	/* given matches of k on two ranks and two depths that share starts
	 * (100, 100, 100, 200, 200, 300), stored out of time order */
	static const struct vt_call c[] = {{0, "main", 0, 1000, 0, -1, -1, 0},
		{1, "main", 0, 1000, 0, -1, -1, 0},
		{1, "k", 300, 350, 0, -1, -1, 0},
		{0, "k", 100, 150, 0, -1, -1, 0},
		{0, "k", 100, 120, 0, -1, -1, 0},
		{1, "k", 100, 130, 0, -1, -1, 0},
		{1, "k", 200, 250, 0, -1, -1, 0},
		{0, "k", 200, 220, 0, -1, -1, 0}};
	struct sv_profile *p = vt_profile(c, 8, VT_START);
	struct sv_view w;
	struct sv_error err;
	struct sv_timeline *t;
	uint32_t *list;
	size_t i, k, n;
	int dir;

	ck_assert_int_eq(sv_view_init(&w, p, NULL, &err), 0);
	sv_view_resize(&w, 120, 40);
	t = sv_view_timeline(&w);
	ck_assert_int_eq(sv_session_set_search(&w.s, "k", &err), 0);
	ck_assert_uint_eq(sv_session_nmatches(&w.s), 6);
	list = sv_session_matches_copy(&w.s, true, &n);
	ck_assert_uint_eq(n, 6);
	/* when n and N are pressed from each match, and from the cursor at
	 * every time around them; then each lands where a scan of the whole
	 * list does */
	for (dir = -1; dir <= 1; dir += 2) {
		for (i = 0; i < sv_session_nmatches(&w.s) + 5; i++) {
			uint32_t sel = i < sv_session_nmatches(&w.s)
					       ? list[i]
					       : SV_NO_CALL;
			int64_t at = ((int64_t)i - (int64_t)sv_session_nmatches(
							   &w.s)) *
				     100;
			int64_t from =
				sel != SV_NO_CALL ? p->start_ns[sel] : at;
			long want = jump_scan(p, list, n, from, sel, dir);
			sv_session_select(&w.s, 0, sel);
			t->cur_t = at;
			sv_timeline_jump_session(t, false, dir);
			ck_assert_int_eq(
				sv_session_jump_pos(&w.s, false), want);
			ck_assert_uint_eq(w.s.sel, list[want]);
		}
	}
	/* and n from the first match visits every match in the list's
	 * order, ties included, then wraps; N goes back the same way */
	for (dir = 1; dir >= -1; dir -= 2) {
		sv_session_select(&w.s, 0, list[0]);
		for (k = 1; k <= n; k++) {
			sv_timeline_jump_session(t, false, dir);
			ck_assert_uint_eq(
				w.s.sel, list[dir > 0 ? k % n : (n - k) % n]);
		}
	}
	for (k = 1; k < n; k++) {
		ck_assert_int_le(
			p->start_ns[list[k - 1]], p->start_ns[list[k]]);
		ck_assert_uint_eq(sv_session_match_at(&w.s, k), list[k]);
	}
	free(list);
	sv_view_fini(&w);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_jump_cyclic)
{
	static const struct {
		int dir;
		long pos;
	} steps[] = {{1, 0}, {1, 1}, {-1, 0}, {-1, 1}, {1, 0}};
	size_t i;

	/* given main marked: rank 1's (1200 ns), then rank 0's */
	sv_session_mark_region(&s, sv_profile_find_region(prof, "main"));
	ck_assert_uint_eq(sv_session_nmarked(&s), 2);
	/* when stepped through: positions in the list, wrapping */
	for (i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		sv_timeline_jump_session(&tl, true, steps[i].dir);
		ck_assert_int_eq(sv_session_jump_pos(&s, true), steps[i].pos);
		ck_assert_uint_eq(
			s.sel, sv_session_marked(&s, NULL)[steps[i].pos]);
		ck_assert_uint_eq(tl.cur_lane, sv_call_lane(prof, s.sel));
	}
	/* and backwards from none: the last */
	sv_session_set_jump_pos(&s, true, -1);
	sv_timeline_jump_session(&tl, true, -1);
	ck_assert_int_eq(sv_session_jump_pos(&s, true), 1);
}
END_TEST

START_TEST(test_jump_empty)
{
	long pos = -1;
	uint32_t none = 0;

	/* an empty list rings the bell and says so */
	ck_assert_int_eq(sv_timeline_jump_list(&tl, &none, 0, &pos, 1, true),
		SV_REACT_REDRAW | SV_REACT_BELL);
	ck_assert_int_eq(pos, -1);
	ck_assert_uint_eq(s.sel, SV_NO_CALL);
	ck_assert(s.message_is_error);
	ck_assert_ptr_nonnull(strstr(s.message, "no matching call"));
}
END_TEST

/* ---- rows -------------------------------------------------------------- */

START_TEST(test_fix_rows_after_resize)
{
	enum { NRANKS = 40 };
	struct vt_call many[NRANKS];
	struct sv_profile *p;
	struct sv_session t;
	struct sv_timeline w;
	struct sv_error err;
	static const int heights[] = {40, 20, 12, 10, 30};
	size_t i;

	/* given 40 lanes (one rank each) and the cursor on the last */
	for (i = 0; i < NRANKS; i++) {
		struct vt_call c = {(uint32_t)i, "step", 0, 100, -1, -1, -1, 0};
		many[i] = c;
	}
	p = vt_profile(many, NRANKS, 0);
	ck_assert_int_eq(sv_session_init(&t, p, NULL, &err), 0);
	sv_timeline_init(&w, &t);
	ck_assert_uint_eq(w.rows.n, NRANKS);
	w.cur_lane = NRANKS - 1;
	sv_timeline_fix_rows(&w);

	/* when the screen shrinks and grows */
	for (i = 0; i < sizeof heights / sizeof heights[0]; i++) {
		long row;
		sv_timeline_resize(&w, 120, heights[i]);
		row = sv_timeline_cursor_row(&w);
		/* then the cursor row is still the last lane's and lies
		 * inside the lane area, which is filled from the top row */
		ck_assert_int_eq(row, NRANKS - 1);
		ck_assert_int_ge(w.geom.lanes_h, 1);
		ck_assert_int_ge(row, w.top_row);
		ck_assert_int_lt(row, w.top_row + w.geom.lanes_h);
		ck_assert_int_eq(w.top_row, NRANKS - w.geom.lanes_h);
	}

	/* and a cursor on a lane no longer shown goes to the first row */
	sv_session_solo(&t, 3);
	sv_timeline_rows_changed(&w);
	ck_assert_uint_eq(w.rows.n, 1);
	ck_assert_uint_eq(w.cur_lane, 3);
	ck_assert_int_eq(w.top_row, 0);
	sv_timeline_fini(&w);
	sv_session_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_fix_rows_cursor_up)
{
	/* given the cursor scrolled off above the top row */
	sv_timeline_resize(&tl, 120, 12);
	tl.top_row = (long)tl.rows.n - 1;
	tl.cur_lane = tl.rows.rows[0].lane;
	tl.cur_depth = 0;
	/* when fixed: the top row comes up to the cursor */
	sv_timeline_fix_rows(&tl);
	ck_assert_int_eq(tl.top_row, 0);
}
END_TEST

/* ---- a new profile ----------------------------------------------------- */

START_TEST(test_notify_profile)
{
	static const struct vt_call one[] = {
		{0, "solo", 0, 100, -1, -1, -1, 0},
	};
	struct sv_profile *same = vt_profile(
		calls, sizeof calls / sizeof calls[0], VT_THREADS | VT_START);
	struct sv_profile *fewer = vt_profile(one, 1, 0);
	struct sv_error err;
	size_t l;

	/* given a collapsed lane and the cursor on the last lane */
	ck_assert_uint_eq(tl.nlanes, prof->nlanes);
	tl.lane_folded[prof->nlanes - 1] = true;
	tl.cur_lane = (uint32_t)prof->nlanes - 1;

	/* when a profile with as many lanes comes: both are kept */
	ck_assert_int_eq(sv_session_set_profile(&s, same, &err), 0);
	ck_assert_uint_eq(tl.nlanes, same->nlanes);
	ck_assert(tl.lane_folded[prof->nlanes - 1]);
	ck_assert_uint_eq(tl.cur_lane, prof->nlanes - 1);

	/* when one with another lane count comes: the flags are remade for
	 * its lanes, none collapsed, the cursor on its first row */
	ck_assert_int_eq(sv_session_set_profile(&s, fewer, &err), 0);
	ck_assert_uint_ne(fewer->nlanes, prof->nlanes);
	ck_assert_uint_eq(tl.nlanes, fewer->nlanes);
	for (l = 0; l < tl.nlanes; l++)
		ck_assert(!tl.lane_folded[l]);
	ck_assert_uint_eq(tl.cur_lane, 0);
	ck_assert_int_eq(tl.cur_depth, 0);
	ck_assert_uint_eq(tl.rows.n, 1);
	ck_assert_int_eq(sv_timeline_cursor_row(&tl), 0);
	ck_assert_int_ge(sv_timeline_span(&tl), sv_timeline_min_span(&tl));

	/* back to the fixture's profile before the others go */
	ck_assert_int_eq(sv_session_set_profile(&s, prof, &err), 0);
	ck_assert_uint_eq(tl.nlanes, prof->nlanes);
	sv_profile_free(same);
	sv_profile_free(fewer);
}
END_TEST

START_TEST(test_notify_profile_window)
{
	/* rank 0's main is now [0, 500), its child [100, 300): the file
	 * was replaced by a shorter run */
	static const struct vt_call shorter[] = {
		{0, "main", 0, 500, 0, -1, -1, 0},
		{0, "child", 100, 300, 0, -1, -1, 0},
	};
	struct sv_profile *p = vt_profile(shorter, 2, VT_THREADS | VT_START);
	struct sv_error err;

	/* given a window of 200 ns that overlaps the new run */
	sv_timeline_set_window(&tl, 400, 200);
	tl.cur_t = 450;
	/* when the profile is replaced: the window is kept, clamped into
	 * the run, and the cursor stays in it */
	ck_assert_int_eq(sv_session_set_profile(&s, p, &err), 0);
	ck_assert_int_eq(tl.t0, 300);
	ck_assert_int_eq(tl.t1, 500);
	ck_assert_int_eq(tl.cur_t, 450);
	/* given a window entirely past the new run's end */
	ck_assert_int_eq(sv_session_set_profile(&s, prof, &err), 0);
	sv_timeline_set_window(&tl, 900, 200);
	tl.cur_t = 1000;
	/* when replaced: the whole new run is shown, the cursor at its
	 * start */
	ck_assert_int_eq(sv_session_set_profile(&s, p, &err), 0);
	ck_assert_int_eq(tl.t0, 0);
	ck_assert_int_eq(tl.t1, 500);
	ck_assert_int_eq(tl.cur_t, 0);
	ck_assert_int_eq(sv_session_set_profile(&s, prof, &err), 0);
	sv_profile_free(p);
}
END_TEST

/* What the cursor's cell holds: its calls and their shares. */
START_TEST(test_cell_summary)
{
	static const struct vt_call cell[] = {
		{0, "a", 0, 10, -1, -1, -1, 0},
		{0, "a", 20, 30, -1, -1, -1, 0},
		{0, "a", 40, 50, -1, -1, -1, 0},
		{0, "b", 60, 100, -1, -1, -1, 0},
		{0, "long", 5000, 100000, -1, -1, -1, 0},
	};
	struct sv_profile *p = vt_profile(cell, 5, VT_START);
	struct sv_session ss;
	struct sv_timeline t;
	struct sv_error err;
	struct sv_tmap m;
	char buf[128];

	ck_assert_int_eq(sv_session_init(&ss, p, NULL, &err), 0);
	sv_timeline_init(&t, &ss);
	sv_timeline_resize(&t, 120, 40);
	m = sv_timeline_tmap(&t);
	/* the first cell holds four calls: 40 ns of b, 30 of a */
	ck_assert_uint_gt(
		sv_timeline_cell_summary(&t, m.x0, buf, sizeof buf), 0);
	ck_assert_str_eq(buf, "4 calls: 57% b, 43% a");
	/* a cell of one call says nothing, nor a column off the map */
	ck_assert_uint_eq(
		sv_timeline_cell_summary(&t, m.x0 + m.w / 2, buf, sizeof buf),
		0);
	ck_assert_str_eq(buf, "");
	ck_assert_uint_eq(sv_timeline_cell_summary(&t, -5, buf, sizeof buf), 0);
	ck_assert_uint_eq(sv_timeline_cell_summary(&t, m.x0, buf, 0), 0);
	/* and a short buffer is cut, terminated */
	ck_assert_uint_eq(sv_timeline_cell_summary(&t, m.x0, buf, 6), 5);
	ck_assert_str_eq(buf, "4 cal");
	sv_timeline_fini(&t);
	sv_session_fini(&ss);
	sv_profile_free(p);
}
END_TEST

/* The README's legend holds every entry of the timeline's legend. */
START_TEST(test_legend_in_readme)
{
	size_t n, i, len;
	const struct sv_timeline_glyph *lg = sv_timeline_legend(&n);
	char *path = sv_xasprintf("%s/README.md", svt_source_root());
	char *readme = svt_read_file(path, &len);

	ck_assert_ptr_nonnull(readme);
	ck_assert_uint_ge(n, 8);
	for (i = 0; i < n; i++) {
		ck_assert_ptr_nonnull(lg[i].meaning);
		ck_assert_msg(strstr(readme, lg[i].meaning),
			"README.md lacks the legend line '%s'", lg[i].meaning);
	}
	free(readme);
	free(path);
}
END_TEST

/* ---- ranks: rank rows, the strip, the details' room, the panel ----------- */

/* Three ranks: solve (depth 1) takes rank 0 700 ns in two calls, rank 1
 * 1000 ns (the slowest), rank 2 200 ns. */
static const struct vt_call rank_calls[] = {
	{0, "main", 0, 1000, 0, -1, -1, 0},
	{0, "solve", 100, 400, 0, -1, -1, 0},
	{0, "solve", 500, 900, 0, -1, -1, 0},
	{1, "main", 0, 1200, 0, -1, -1, 0},
	{1, "solve", 100, 1100, 0, -1, -1, 0},
	{2, "main", 0, 800, 0, -1, -1, 0},
	{2, "solve", 300, 500, 0, -1, -1, 0},
};

static struct sv_profile *rprof;
static struct sv_view rv;
static struct sv_grid rg;

static void rsetup(void)
{
	struct sv_error err;
	rprof = vt_profile(rank_calls, sizeof rank_calls / sizeof rank_calls[0],
		VT_THREADS | VT_START);
	ck_assert_int_eq(sv_view_init(&rv, rprof, NULL, &err), 0);
	sv_view_resize(&rv, 160, 45);
	sv_grid_init(&rg);
}

static void rteardown(void)
{
	sv_grid_fini(&rg);
	sv_view_fini(&rv);
	sv_profile_free(rprof);
}

static struct sv_timeline *rtl(void)
{
	return sv_view_timeline(&rv);
}

/* The label cells of screen row y as text. */
static void row_text(int y, int x0, int x1, char *buf, size_t n)
{
	size_t used = 0;
	int x;
	for (x = x0; x < x1 && used + 4 < n; x++) {
		uint32_t ch = sv_grid_cell(&rg, x, y)->ch;
		used += sv_utf8_encode(ch, buf + used);
	}
	buf[used] = '\0';
}

START_TEST(test_rank_rows)
{
	struct sv_timeline *t;
	const struct sv_layout_geom *g;
	char text[256], line[256];
	const char *const *hints;
	size_t nh, i;

	/* given solve marked, when b shows the rank rows */
	vt_keys(&rv, ": r e g i o n Space s o l v e Enter b");
	t = rtl();
	/* then one row a rank, at solve's depth */
	ck_assert(t->ranks.on);
	ck_assert_uint_eq(t->rows.n, 3);
	for (i = 0; i < 3; i++) {
		ck_assert_uint_eq(rprof->lanes[t->rows.rows[i].lane].rank, i);
		ck_assert_uint_eq(t->rows.rows[i].depth, 1);
	}
	/* (the cursor is on the slowest rank's row, where :region went: j
	 * moves it off, for the highlight to show) */
	ck_assert_int_eq(sv_timeline_cursor_row(t), 1);
	vt_keys(&rv, "j");
	sv_render(&rg, &rv);
	g = &t->geom;
	/* each label names the rank and its time, the slowest highlighted */
	row_text(g->lanes_y + 1, 0, g->label_w - 1, text, sizeof text);
	ck_assert_msg(strstr(text, "r1") && strstr(text, "1.00us"), "%s", text);
	ck_assert_int_eq(
		sv_grid_cell(&rg, 1, g->lanes_y + 1)->style, SV_STYLE_WARNING);
	ck_assert_int_ne(
		sv_grid_cell(&rg, 1, g->lanes_y + 2)->style, SV_STYLE_WARNING);
	row_text(g->lanes_y + 2, 0, g->label_w - 1, text, sizeof text);
	ck_assert_msg(strstr(text, "r2") && strstr(text, "200ns"), "%s", text);
	/* the slowest rank's bar is the longest */
	ck_assert_uint_eq(
		sv_grid_cell(&rg, g->label_w - 10, g->lanes_y + 1)->ch, 0x2588);
	ck_assert_uint_ne(
		sv_grid_cell(&rg, g->label_w - 10, g->lanes_y + 2)->ch, 0x2588);
	/* the status line says by how much: 1000 over a mean of 633.3 */
	sv_timeline_status(t, line, sizeof line, &hints, &nh);
	ck_assert_msg(strstr(line, "slowest r1 1.00us, +57.9% of the mean"),
		"%s", line);
	/* ) and ( change the depth; none above 0 */
	vt_keys(&rv, ")");
	ck_assert_uint_eq(sv_timeline_ranks_depth(rtl()), 2);
	ck_assert_uint_eq(rtl()->rows.rows[0].depth, 2);
	vt_keys(&rv, "( (");
	ck_assert_uint_eq(sv_timeline_ranks_depth(rtl()), 0);
	ck_assert(vt_keys(&rv, "(") & SV_REACT_BELL);
	/* and b again gives every lane's rows */
	vt_keys(&rv, "b");
	ck_assert(!rtl()->ranks.on);
	ck_assert_uint_eq(rtl()->rows.n, 6);
}
END_TEST

START_TEST(test_rank_depth_needs_rows)
{
	/* ( without the rank rows says what it is for */
	ck_assert(vt_keys(&rv, "(") & SV_REACT_BELL);
	ck_assert_ptr_nonnull(strstr(rv.s.message, "rank rows"));
}
END_TEST

START_TEST(test_strip_counts_ranks)
{
	struct sv_timeline *t;
	struct sv_tmap m;
	static const struct {
		int64_t t;
		uint32_t ch;
	} cols[] = {
		{150, 0x2586}, /* ranks 0 and 1 of 3 */
		{350, 0x2588}, /* all three */
		{950, 0x2583}, /* rank 1 alone */
		{1150, ' '},   /* none */
	};
	size_t i;
	char text[256];

	/* given no region: no strip */
	ck_assert_int_eq(rtl()->geom.strip_h, 0);
	/* when solve is marked */
	vt_keys(&rv, ": r e g i o n Space s o l v e Enter");
	t = rtl();
	ck_assert_int_eq(t->geom.strip_h, 1);
	ck_assert(t->ranks.ri_valid);
	sv_render(&rg, &rv);
	m = sv_timeline_tmap(t);
	/* then each column's glyph rises with the ranks inside solve */
	for (i = 0; i < sizeof cols / sizeof cols[0]; i++) {
		int x = sv_tmap_col(&m, cols[i].t);
		ck_assert_msg(
			sv_grid_cell(&rg, x, t->geom.strip_y)->ch == cols[i].ch,
			"t=%lld: U+%04X", (long long)cols[i].t,
			(unsigned)sv_grid_cell(&rg, x, t->geom.strip_y)->ch);
	}
	/* the label counts them at the cursor */
	row_text(t->geom.strip_y, 0, t->geom.label_w - 1, text, sizeof text);
	ck_assert_msg(strstr(text, " in solve"), "%s", text);
	/* the strip sits below the lanes: they have not moved (the ruler's
	 * two rows, then the overview strip) */
	ck_assert_int_eq(t->geom.lanes_y, 3);
	ck_assert_int_eq(t->geom.overview_y, 2);
	ck_assert_int_eq(t->geom.strip_y, t->geom.lanes_y + t->geom.lanes_h);
}
END_TEST

START_TEST(test_details_take_room_when_selected)
{
	/* given nothing selected: no details box */
	ck_assert_int_eq(rtl()->geom.details_h, 0);
	/* (the ruler's two rows, the overview strip, the status line) */
	ck_assert_int_eq(rtl()->geom.lanes_h, 45 - 4);
	/* Tab selects a call: the box appears */
	vt_keys(&rv, "Tab");
	ck_assert_uint_ne(rv.s.sel, SV_NO_CALL);
	ck_assert_int_gt(rtl()->geom.details_h, 0);
	/* D hides it, D shows it again */
	vt_keys(&rv, "D");
	ck_assert_int_eq(rtl()->geom.details_h, 0);
	vt_keys(&rv, "D");
	ck_assert_int_gt(rtl()->geom.details_h, 0);
}
END_TEST

START_TEST(test_empty_rows_fold)
{
	long n0 = (long)tl.rows.n;
	size_t i;

	/* given the whole run: main, child, grandchild on rank 0's thread */
	ck_assert_int_eq(n0, 5);
	/* when the window leaves grandchild [200, 300) out */
	sv_timeline_set_window(&tl, 600, 400);
	sv_timeline_sync(&tl);
	/* then its row folds away; every lane keeps its first row */
	ck_assert_int_eq((long)tl.rows.n, n0 - 1);
	for (i = 0; i < tl.rows.n; i++)
		ck_assert_uint_lt(tl.rows.rows[i].depth, 2);
	ck_assert(tl.rows.rows[0].lane_first);
	ck_assert(tl.rows.rows[1].lane_last);
	/* and back in view, it is back */
	sv_timeline_set_window(&tl, 0, 1200);
	sv_timeline_sync(&tl);
	ck_assert_int_eq((long)tl.rows.n, n0);
}
END_TEST

START_TEST(test_panel_border_drag)
{
	struct sv_timeline *t = rtl();
	int w0 = t->geom.panel_w, x = t->geom.panel_x;
	char script[96];

	/* dragging the border ten columns left widens the panel by ten */
	snprintf(script, sizeof script, "Click:%d,5 Drag:%d,5 Release:%d,5", x,
		x - 10, x - 10);
	vt_keys(&rv, script);
	ck_assert_int_eq(rtl()->geom.panel_w, w0 + 10);
	ck_assert_int_eq(rv.s.panel_width, w0 + 10);
	/* the timeline keeps 60 columns however far it goes */
	snprintf(script, sizeof script, "Click:%d,5 Drag:3,5 Release:3,5",
		rtl()->geom.panel_x);
	vt_keys(&rv, script);
	ck_assert_int_eq(rtl()->geom.panel_w, 160 - 60);
	/* and { narrows it by four, down to 20 */
	vt_keys(&rv, "{");
	ck_assert_int_eq(rtl()->geom.panel_w, 160 - 64);
	ck_assert_ptr_nonnull(strstr(rv.s.message, "96 columns"));
	/* a click elsewhere still pans and selects as before */
	vt_keys(&rv, "Click:40,2");
	ck_assert(!rtl()->drag_border);
}
END_TEST

/* A region of more calls than the timeline counts at once: the ranks
 * inside it are counted on a worker, the strip says so meanwhile, and
 * the figures arrive by the busy and poll hooks; they are counted again
 * for a new rank filter, not for a solo lane or a region filter. */
START_TEST(test_strip_on_worker)
{
	enum { N = 240000 };
	struct vt_call *c = calloc(N + 2, sizeof *c);
	struct sv_profile *p;
	struct sv_view w;
	struct sv_error err;
	const struct sv_ranks_run *t0;
	int i, spins = 0;

	ck_assert_ptr_nonnull(c);
	c[0] = (struct vt_call){0, "main", 0, 10 * N, 0, -1, -1, 0};
	c[1] = (struct vt_call){1, "main", 0, 10 * N, 0, -1, -1, 0};
	for (i = 0; i < N; i++)
		c[i + 2] = (struct vt_call){(uint32_t)(i & 1), "k",
			10 * (int64_t)i, 10 * (int64_t)i + 5, 0, -1, -1, 0};
	p = vt_profile(c, N + 2, VT_THREADS | VT_START);
	free(c);
	ck_assert_int_eq(sv_view_init(&w, p, NULL, &err), 0);
	sv_view_resize(&w, 120, 40);
	/* when k is marked: the worker runs */
	vt_keys(&w, ": r e g i o n Space k Enter");
	/* then the view is busy until a poll takes the figures in */
	ck_assert(sv_view_settle(&w, 100000));
	ck_assert(sv_view_timeline(&w)->ranks.ri_valid);
	ck_assert_uint_eq(sv_view_timeline(&w)->ranks.ri.nranks, 2);
	ck_assert_uint_eq(sv_view_timeline(&w)->ranks.ri.ncalls, N);
	ck_assert_int_eq(sv_view_poll(&w), 0);
	/* a solo lane and a region filter keep them (they depend on the
	 * region and the ranks alone); a rank filter counts them again */
	t0 = sv_view_timeline(&w)->ranks.ri.run;
	ck_assert_ptr_nonnull(t0);
	vt_keys(&w, "t");
	vt_keys(&w, ": f i l t e r Space k Enter");
	ck_assert(!sv_view_timeline(&w)->ranks.busy);
	ck_assert_ptr_eq(sv_view_timeline(&w)->ranks.ri.run, t0);
	vt_keys(&w, "t : f i l t e r Enter");
	ck_assert_ptr_eq(sv_view_timeline(&w)->ranks.ri.run, t0);
	vt_keys(&w, "r 1 Enter");
	ck_assert(sv_view_timeline(&w)->ranks.busy);
	ck_assert(sv_view_settle(&w, 100000));
	ck_assert_uint_eq(sv_view_timeline(&w)->ranks.ri.nranks, 1);
	ck_assert_uint_eq(sv_view_timeline(&w)->ranks.ri.ranks[0], 1);
	vt_keys(&w, "r a l l Enter");
	ck_assert(sv_view_settle(&w, 100000));
	ck_assert_uint_eq(sv_view_timeline(&w)->ranks.ri.nranks, 2);
	/* and marking another region while it runs stops it cleanly */
	vt_keys(&w, ": r e g i o n Space m a i n Enter");
	vt_keys(&w, ": r e g i o n Space k Enter");
	vt_keys(&w, ": r e g i o n Space m a i n Enter");
	ck_assert(!sv_view_timeline(&w)->ranks.busy);
	ck_assert_uint_eq(sv_view_timeline(&w)->ranks.ri.nranks, 2);
	/* the worker dropped is not waited for, and is freed once done (on a
	 * busy machine the keys may take longer than the worker: mark again
	 * until it is caught running) */
	for (spins = 0; spins < 50; spins++) {
		vt_keys(&w, ": r e g i o n Space k Enter");
		if (sv_view_timeline(&w)->ranks.busy)
			break;
		vt_keys(&w, ": r e g i o n Space m a i n Enter");
	}
	ck_assert(sv_view_timeline(&w)->ranks.busy);
	vt_keys(&w, ": r e g i o n Space m a i n Enter");
	for (spins = 0; w.s.jobs.orphans.head && spins < 100000; spins++) {
		sv_view_poll(&w);
		usleep(1000);
	}
	ck_assert_ptr_null(w.s.jobs.orphans.head);
	/* and one still running when the view goes is waited for */
	vt_keys(&w, ": r e g i o n Space k Enter");
	vt_keys(&w, ": r e g i o n Space m a i n Enter");
	sv_view_fini(&w);
	sv_profile_free(p);
}
END_TEST

/* A folded track's cells are kept between frames: after a zoom, a
 * region filter and a solo lane of a rank of two threads (each a new key
 * of what is kept), the
 * screen is the one a view given that state before its first frame
 * draws. */
START_TEST(test_fold_cells_follow)
{
	static const char *const steps[] = {"", "+",
		": f i l t e r Space m a i n Enter",
		": f i l t e r Space a | c Enter t",
		": f i l t e r Space a Enter + : f i l t e r Enter"};
	static const struct vt_call deep[] = {
		{0, "main", 0, 10000, 0, -1, -1, 0},
		{0, "a", 0, 4000, 0, -1, -1, 0},
		{0, "b", 1, 3000, 0, -1, -1, 0},
		{0, "c", 5000, 8000, 0, -1, -1, 0},
		{0, "c", 0, 6000, 1, -1, -1, 0},
		{0, "a", 100, 5000, 1, -1, -1, 0},
		{1, "main", 0, 10000, 0, -1, -1, 0},
		{1, "a", 100, 9000, 0, -1, -1, 0},
		{1, "b", 200, 800, 0, -1, -1, 0},
		{2, "main", 0, 10000, 0, -1, -1, 0},
		{2, "c", 2000, 9900, 0, -1, -1, 0},
	};
	struct sv_profile *p = vt_profile(
		deep, sizeof deep / sizeof deep[0], VT_START | VT_THREADS);
	struct sv_error err;
	size_t k;

	for (k = 0; k < sizeof steps / sizeof steps[0]; k++) {
		struct sv_view a, b;
		struct sv_grid ga, gb;
		char *da, *db;
		ck_assert_int_eq(sv_view_init(&a, p, NULL, &err), 0);
		ck_assert_int_eq(sv_view_init(&b, p, NULL, &err), 0);
		sv_view_resize(&a, 100, 30);
		sv_view_resize(&b, 100, 30);
		vt_keys(&a, "Z");
		vt_keys(&b, "Z");
		ck_assert(sv_view_timeline(&a)->rows.rows[0].fold);
		sv_grid_init(&ga);
		sv_grid_init(&gb);
		/* given a frame drawn, then the step taken */
		sv_render(&ga, &a);
		vt_keys(&a, steps[k]);
		sv_render(&ga, &a);
		/* then it matches a view that took the step first */
		vt_keys(&b, steps[k]);
		sv_render(&gb, &b);
		da = vt_grid_dump(&ga);
		db = vt_grid_dump(&gb);
		ck_assert_msg(!strcmp(da, db), "after '%s':\n%s\n--\n%s",
			steps[k], da, db);
		free(da);
		free(db);
		sv_grid_fini(&ga);
		sv_grid_fini(&gb);
		sv_view_fini(&a);
		sv_view_fini(&b);
	}
	sv_profile_free(p);
}
END_TEST

/* Three ranks whose recursion a > b > c sits in the first column of the
 * whole run: on a screen too short for every row, each lane's depths 1-3
 * fold into one row, whose cell shows (and selects) the shallowest. */
START_TEST(test_short_screen_folds)
{
	static const struct vt_call deep[] = {
		{0, "main", 0, 10000, 0, -1, -1, 0},
		{0, "a", 0, 10, 0, -1, -1, 0},
		{0, "b", 1, 9, 0, -1, -1, 0},
		{0, "c", 2, 8, 0, -1, -1, 0},
		{1, "main", 0, 10000, 0, -1, -1, 0},
		{1, "a", 0, 10, 0, -1, -1, 0},
		{1, "b", 1, 9, 0, -1, -1, 0},
		{1, "c", 2, 8, 0, -1, -1, 0},
		{2, "main", 0, 10000, 0, -1, -1, 0},
		{2, "a", 0, 10, 0, -1, -1, 0},
		{2, "b", 1, 9, 0, -1, -1, 0},
		{2, "c", 2, 8, 0, -1, -1, 0},
	};
	struct sv_profile *p =
		vt_profile(deep, sizeof deep / sizeof deep[0], VT_START);
	struct sv_view w;
	struct sv_error err;
	struct sv_timeline *t;
	struct sv_grid g;
	uint32_t c;
	size_t i;

	ck_assert_int_eq(sv_view_init(&w, p, NULL, &err), 0);
	/* given room for every row: twelve */
	sv_view_resize(&w, 100, 30);
	t = sv_view_timeline(&w);
	ck_assert_uint_eq(t->rows.n, 12);
	/* when the screen is too short: a folded track a rank */
	sv_view_resize(&w, 100, 10);
	ck_assert_uint_eq(t->rows.n, 3);
	for (i = 0; i < 3; i++)
		ck_assert(t->rows.rows[i].fold);
	/* and unfolded (Z) on a wide screen: a, b and c, a cell each, are
	 * slivers of the lane's busy cells (under 1% of the 128 main and
	 * they fill) and merge into main's row, marked */
	sv_view_resize(&w, 240, 10);
	ck_assert_int_eq(t->geom.tl_w, 128);
	vt_keys(&w, "Z");
	ck_assert_uint_eq(t->rows.n, 3);
	for (i = 0; i < 3; i++) {
		ck_assert(!t->rows.rows[i].fold);
		ck_assert_uint_eq(t->rows.rows[i].depth, 0);
		ck_assert_uint_eq(t->rows.rows[i].depth_last, 3);
	}
	/* a size no longer folds: Z chose */
	sv_view_resize(&w, 240, 11);
	ck_assert(!t->rows.rows[0].fold);
	/* then the merged row's first cell holds c, the deepest, and main's
	 * name stays readable over it */
	c = sv_timeline_call_at(t, t->geom.tl_x, t->geom.lanes_y);
	ck_assert_str_eq(p->regions[sv_call_region(p, c)], "c");
	sv_grid_init(&g);
	sv_render(&g, &w);
	ck_assert_uint_eq(
		sv_grid_cell(&g, t->geom.tl_x, t->geom.lanes_y)->ch, 'm');
	ck_assert_uint_eq(
		sv_grid_cell(&g, t->geom.label_w - 2, t->geom.lanes_y)->ch,
		'+');
	/* and c of rank 1, selected, is on that rank's row */
	for (c = 0; c < p->ncalls; c++)
		if (!strcmp(p->regions[sv_call_region(p, c)], "c") &&
			p->lanes[sv_call_lane(p, c)].rank == 1)
			break;
	sv_timeline_select(t, c);
	sv_timeline_sync(t);
	ck_assert_int_eq(sv_timeline_cursor_row(t), 1);
	sv_grid_fini(&g);
	sv_view_fini(&w);
	sv_profile_free(p);
}
END_TEST

/* ---- two runs ------------------------------------------------------------ */

/* A: rank 0 main [0,1000) > child [100,500), rank 1 main [0,1200); B, 10
 * us later on its clock: rank 0 main [10000,12000) > child [10100,10300),
 * rank 1 main [10000,10500), rank 2 (only in B) main [10000,10100). */
static const struct vt_call two_a[] = {
	{0, "main", 0, 1000, 0, -1, -1, 0},
	{0, "child", 100, 500, 0, -1, -1, 0},
	{1, "main", 0, 1200, 0, -1, -1, 0},
};
static const struct vt_call two_b[] = {
	{0, "main", 10000, 12000, 0, -1, -1, 0},
	{0, "child", 10100, 10300, 0, -1, -1, 0},
	{1, "main", 10000, 10500, 0, -1, -1, 0},
	{2, "main", 10000, 10100, 0, -1, -1, 0},
};

START_TEST(test_two_runs_rows_and_window)
{
	struct sv_profile *a = vt_profile(two_a, 3, VT_THREADS);
	struct sv_profile *b = vt_profile(two_b, 4, VT_THREADS);
	struct sv_session ss;
	struct sv_timeline t;
	struct sv_error err;
	struct sv_tmap m, m2;
	static const struct {
		uint8_t run;
		uint32_t rank;
		uint16_t depth;
	} want[] = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {1, 0, 1}, {0, 1, 0},
		{1, 1, 0}, {1, 2, 0}};
	size_t i;
	long row;
	uint32_t c;

	/* given run A, then run B as the second run */
	ck_assert_int_eq(sv_session_init(&ss, a, NULL, &err), 0);
	sv_timeline_init(&t, &ss);
	ss.notify = forward;
	ss.notify_ctx = &t;
	sv_timeline_resize(&t, 120, 40);
	ck_assert_uint_eq(t.rows.n, 3);
	ck_assert_int_eq(sv_session_set_second(&ss, b, "b.h5", &err), 0);

	/* then the rows go rank by rank, A's lanes then B's */
	ck_assert_uint_eq(t.rows.n, sizeof want / sizeof want[0]);
	for (i = 0; i < t.rows.n; i++) {
		const struct sv_layout_row *r = &t.rows.rows[i];
		const struct sv_profile *p = r->run ? b : a;
		ck_assert_uint_eq(r->run, want[i].run);
		ck_assert_uint_eq(p->lanes[r->lane].rank, want[i].rank);
		ck_assert_uint_eq(r->depth, want[i].depth);
	}
	/* each run from its start: B's clock is 10 us ahead, and the
	 * window fits both (B's 2 us rank 0 is the longer) */
	ck_assert_int_eq(sv_session_shift2(&ss), 10000);
	ck_assert_int_eq(t.t0, 0);
	ck_assert_int_eq(t.t1, 2000);
	/* one window for both: a zoom moves B's rows' window along */
	sv_timeline_set_window(&t, 100, 400);
	m = sv_timeline_tmap(&t);
	m2 = sv_timeline_tmap_run(&t, 1);
	ck_assert_int_eq(m2.t0, 10100);
	ck_assert_int_eq(m2.t1, 10500);
	ck_assert_int_eq(m2.w, m.w);
	/* B's child [10100,10300) is drawn at A's [100,300): the same
	 * columns as A's child [100,500) starts at */
	row = sv_layout_rows_find_run(&t.rows, 1, 0, 1);
	ck_assert_int_eq(row, 3);
	c = sv_timeline_row_hit(&t, &t.rows.rows[row], &m, m.x0);
	ck_assert_uint_ne(c, SV_NO_CALL);
	ck_assert_str_eq(b->regions[sv_call_region(b, c)], "child");
	ck_assert_int_eq(b->start_ns[c], 10100);
	ck_assert_uint_eq(sv_timeline_row_hit(&t, &t.rows.rows[row], &m,
				  sv_tmap_col(&m, 350)),
		SV_NO_CALL);

	/* when the cursor is on that row, the call under it is B's */
	t.cur_run = 1;
	t.cur_lane = t.rows.rows[row].lane;
	t.cur_depth = 1;
	t.cur_t = 150;
	sv_timeline_select_at_cursor(&t);
	ck_assert_uint_eq(ss.sel, SV_NO_CALL);
	ck_assert_uint_eq(ss.sel2, c);
	/* Tab from it: B's next call of the lane (none after child) */
	ck_assert(
		sv_timeline_two_apply(&t, SV_ACTION_NEXT_CALL) & SV_REACT_BELL);
	ck_assert(sv_timeline_two_apply(&t, SV_ACTION_PREV_CALL) &
		  SV_REACT_REDRAW);
	ck_assert_int_eq(b->start_ns[ss.sel2], 10000); /* main */
	ck_assert_uint_eq(t.cur_depth, 0);
	/* selecting a call of A takes B's away */
	sv_timeline_select(&t, 0);
	ck_assert_uint_eq(ss.sel2, SV_NO_CALL);
	ck_assert_uint_eq(t.cur_run, 0);
	/* with none of B's selected, a step back from inside B's child
	 * takes the child (its level's starts read packed) */
	t.cur_run = 1;
	t.cur_lane = t.rows.rows[row].lane;
	t.cur_depth = 1;
	t.cur_t = 150;
	ck_assert(sv_timeline_two_apply(&t, SV_ACTION_PREV_CALL) &
		  SV_REACT_REDRAW);
	ck_assert_uint_eq(ss.sel2, c);
	sv_timeline_select(&t, 0);
	ck_assert_uint_eq(ss.sel2, SV_NO_CALL);

	/* a rank filter applies to B's rows too */
	ck_assert_int_eq(sv_session_set_ranks(&ss, "1-2"), 0);
	ck_assert_uint_eq(t.rows.n, 3);
	ck_assert_uint_eq(t.rows.rows[2].run, 1);
	ck_assert_uint_eq(b->lanes[t.rows.rows[2].lane].rank, 2);
	ck_assert_int_eq(sv_session_set_ranks(&ss, ""), 0);

	/* :second off hides B's rows and the window is A's run again;
	 * :second on shows them */
	sv_timeline_fit(&t);
	ck_assert(sv_timeline_command(&t, "second off") & SV_REACT_REDRAW);
	ck_assert_uint_eq(t.rows.n, 3);
	ck_assert_int_eq(t.t1, 1200);
	ck_assert(sv_timeline_command(&t, "second") & SV_REACT_REDRAW);
	ck_assert_uint_eq(t.rows.n, 7);
	ck_assert_int_eq(t.t1, 2000);
	ck_assert(sv_timeline_command(&t, "second maybe") & SV_REACT_BELL);
	/* no second run: B's rows go, and so does the command */
	ck_assert_int_eq(sv_session_set_second(&ss, NULL, NULL, &err), 0);
	ck_assert_uint_eq(t.rows.n, 3);
	ck_assert(sv_timeline_command(&t, "second") & SV_REACT_BELL);
	sv_timeline_fini(&t);
	sv_session_fini(&ss);
	sv_profile_free(a);
	sv_profile_free(b);
}
END_TEST

static Suite *suite(void)
{
	Suite *su = suite_create("timeline");
	TCase *tc;

	tc = tcase_create("two runs");
	tcase_add_test(tc, test_two_runs_rows_and_window);
	suite_add_tcase(su, tc);

	tc = tcase_create("window");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_initial_window);
	tcase_add_loop_test(tc, test_set_window_clamps, 0,
		sizeof windows / sizeof windows[0]);
	tcase_add_test(tc, test_set_window_no_overflow);
	tcase_add_test(tc, test_max_span_long_run);
	tcase_add_loop_test(
		tc, test_zoom_at, 0, sizeof zooms / sizeof zooms[0]);
	tcase_add_test(tc, test_pan_moves_cursor);
	suite_add_tcase(su, tc);

	tc = tcase_create("select");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_select_out_of_window);
	tcase_add_test(tc, test_select_in_window);
	tcase_add_test(tc, test_show_call_readable);
	tcase_add_test(tc, test_select_refused);
	tcase_add_test(tc, test_select_expands_lane);
	suite_add_tcase(su, tc);

	tc = tcase_create("lists");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_jump_by_time);
	tcase_add_test(tc, test_jump_by_time_ties);
	tcase_add_test(tc, test_jump_cyclic);
	tcase_add_test(tc, test_jump_empty);
	suite_add_tcase(su, tc);

	tc = tcase_create("rows");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_fix_rows_after_resize);
	tcase_add_test(tc, test_fix_rows_cursor_up);
	tcase_add_test(tc, test_notify_profile);
	tcase_add_test(tc, test_notify_profile_window);
	tcase_add_test(tc, test_empty_rows_fold);
	tcase_add_test(tc, test_short_screen_folds);
	tcase_add_test(tc, test_fold_cells_follow);
	suite_add_tcase(su, tc);

	tc = tcase_create("cells");
	tcase_add_test(tc, test_cell_summary);
	tcase_add_test(tc, test_legend_in_readme);
	suite_add_tcase(su, tc);

	tc = tcase_create("ranks");
	tcase_add_checked_fixture(tc, rsetup, rteardown);
	tcase_add_test(tc, test_rank_rows);
	tcase_add_test(tc, test_rank_depth_needs_rows);
	tcase_add_test(tc, test_strip_counts_ranks);
	tcase_add_test(tc, test_details_take_room_when_selected);
	tcase_add_test(tc, test_panel_border_drag);
	tcase_add_test(tc, test_strip_on_worker);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return svt_run(suite());
}
