/*
 * test_view.c: every action of the table, driven through keys on an
 * in-memory profile, changes the view as it should.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/fmt.h"
#include "scopeview/action.h"
#include "scopeview/keys.h"
#include "scopeview/view.h"
#include "viewtest.h"
#include "scopeview/cli.h"
#include "scopeview/export.h"
#include "scopeview/panel.h"
#include "scopeview/runs.h"
#include "scopeview/timeline.h"
#include "scopeview/view.h"

/* The timeline mode's state of view v. */
#define TL(v) sv_view_timeline(v)

/* rank 0: MainThread main [0,1000) > child [100,500) > grandchild
 * [200,300), child [600,900); worker-1 work [50,400); a task lane;
 * rank 1: MainThread main [0,1200). */
static const struct vt_call calls[] = {
	{0, "main", 0, 1000, 0, -1, 100, 0},
	{0, "child", 100, 500, 0, -1, -1, 0},
	{0, "grandchild", 200, 300, 0, -1, -1, 0},
	{0, "child", 600, 900, 0, -1, -1, 0},
	{0, "work", 50, 400, 1, -1, -1, 0},
	{0, "fetch", 100, 800, 0, 0, -1, 300},
	{1, "main", 0, 1200, 0, -1, -1, 0},
};

static struct sv_profile *prof;
static struct sv_view v;

static void setup(void)
{
	struct sv_error err;
	prof = vt_profile(calls, sizeof calls / sizeof calls[0],
		VT_THREADS | VT_TASKS | VT_GPU | VT_START);
	ck_assert_int_eq(sv_view_init(&v, prof, NULL, &err), 0);
	sv_view_resize(&v, 120, 40);
}

static void teardown(void)
{
	sv_view_fini(&v);
	sv_profile_free(prof);
}

/* Feed a key script; returns the OR of the flags. */
static int keys(const char *script)
{
	return vt_keys(&v, script);
}

static const char *sel_region(void)
{
	return v.s.sel == SV_NO_CALL
		       ? "(none)"
		       : prof->regions[sv_call_region(prof, v.s.sel)];
}

static int cursor_col(void)
{
	struct sv_tmap m = sv_timeline_tmap(TL(&v));
	return sv_tmap_col(&m, TL(&v)->cur_t);
}

START_TEST(test_initial)
{
	ck_assert_int_eq(TL(&v)->t0, 0);
	ck_assert_int_ge(TL(&v)->t1, 1200);
	ck_assert_uint_eq(v.s.sel, SV_NO_CALL);
	ck_assert_int_eq(TL(&v)->cur_lane, 0);
	ck_assert(sv_session_stats(&v.s));
	ck_assert_uint_eq(sv_session_stats(&v.s)->nregions, 5);
	/* rows: MainThread 3, task 1, worker 1, r1 1 */
	ck_assert_uint_eq(TL(&v)->rows.n, 6);
	/* keys that act on the selected call say how to select one */
	{
		static const char *const need_sel[] = {
			"f", "K", "J", "c", "]", "["};
		size_t i;
		for (i = 0; i < sizeof need_sel / sizeof need_sel[0]; i++) {
			v.s.message[0] = '\0';
			ck_assert(keys(need_sel[i]) & SV_REACT_BELL);
			ck_assert_msg(
				strstr(v.s.message, "Tab selects") != NULL,
				"%s: '%s'", need_sel[i], v.s.message);
			ck_assert_uint_eq(v.s.sel, SV_NO_CALL);
		}
	}
}
END_TEST

START_TEST(test_zoom_keeps_cursor)
{
	int64_t span = TL(&v)->t1 - TL(&v)->t0;
	int col;

	keys("l l l l l l l l l l l l l l l l l l l l");
	col = cursor_col();
	keys("+");
	ck_assert_int_eq(TL(&v)->t1 - TL(&v)->t0, span / 2);
	ck_assert_int_eq(cursor_col(), col);
	keys("w");
	ck_assert_int_eq(TL(&v)->t1 - TL(&v)->t0, span / 4);
	ck_assert_int_eq(cursor_col(), col);
	keys("-");
	ck_assert_int_eq(TL(&v)->t1 - TL(&v)->t0, span / 2);
	ck_assert_int_eq(cursor_col(), col);
	keys("s");
	ck_assert_int_eq(cursor_col(), col);
	/* back through the history to the start */
	keys("Escape BSpace Escape BSpace");
	ck_assert_int_eq(TL(&v)->t1 - TL(&v)->t0, span);
	ck_assert_int_eq(TL(&v)->t0, 0);
	ck_assert(keys("Escape") & SV_REACT_BELL);
}
END_TEST

START_TEST(test_zoom_limits)
{
	int i;
	/* zooming in stops at one nanosecond per column */
	for (i = 0; i < 40; i++)
		keys("+");
	ck_assert_int_eq(TL(&v)->t1 - TL(&v)->t0, TL(&v)->geom.tl_w);
	ck_assert(keys("+") & SV_REACT_BELL);
	keys("0");
	ck_assert_int_eq(TL(&v)->t0, 0);
	ck_assert_int_eq(TL(&v)->t1, 1200);
}
END_TEST

START_TEST(test_pan)
{
	int64_t t0, span;
	/* the whole run in view: d and a have nowhere to go */
	ck_assert(keys("d") & SV_REACT_BELL);
	ck_assert_str_eq(v.s.message, "at the run's end");
	ck_assert(keys("a") & SV_REACT_BELL);
	ck_assert_int_eq(TL(&v)->t0, 0);
	keys("+ + Home");
	t0 = TL(&v)->t0;
	span = TL(&v)->t1 - TL(&v)->t0;
	keys("d");
	ck_assert_int_eq(TL(&v)->t0, t0 + span / 4);
	keys("a a");
	ck_assert_int_eq(TL(&v)->t0, 0);
	ck_assert_int_eq(TL(&v)->t1 - TL(&v)->t0, span);
	/* zooming out stops at the whole run */
	keys("- - - -");
	ck_assert_int_eq(TL(&v)->t1 - TL(&v)->t0, 1200);
	ck_assert_str_eq(v.s.message, "the whole run is in view");
	keys("Home");
	ck_assert_int_eq(TL(&v)->t0, 0);
	keys("+ End");
	ck_assert_int_eq(TL(&v)->t1, 1200);
}
END_TEST

START_TEST(test_move_and_select)
{
	/* the cursor starts on main at t0: moving right selects it */
	keys("l");
	ck_assert_str_eq(sel_region(), "main");
	keys("j");
	ck_assert_int_eq(TL(&v)->cur_depth, 1);
	ck_assert_str_eq(sel_region(), "(none)");
	keys("k k");
	ck_assert_int_eq(TL(&v)->cur_depth, 0);
	ck_assert_int_eq(TL(&v)->cur_lane, 0);
	keys("Down Down Down");
	ck_assert_int_eq(TL(&v)->cur_lane, 1);
	keys("PageDown");
	ck_assert_int_eq(TL(&v)->cur_lane, 3);
	keys("PageUp");
	ck_assert_int_eq(TL(&v)->cur_lane, 0);
}
END_TEST

START_TEST(test_tab_from_cursor)
{
	/* given the cursor on depth 1 at t=0, where no call is */
	keys("j");
	ck_assert_str_eq(sel_region(), "(none)");
	/* Tab selects the call after the cursor on that row, not main */
	keys("Tab");
	ck_assert_str_eq(sel_region(), "child");
	ck_assert_int_eq(prof->start_ns[v.s.sel], 100);
	/* with nothing selected between the two children, Shift-Tab takes
	 * the one before the cursor */
	sv_session_select(&v.s, 0, SV_NO_CALL);
	TL(&v)->cur_t = 550;
	keys("BTab");
	ck_assert_int_eq(prof->start_ns[v.s.sel], 100);
	sv_session_select(&v.s, 0, SV_NO_CALL);
	TL(&v)->cur_t = 550;
	keys("Tab");
	ck_assert_int_eq(prof->start_ns[v.s.sel], 600);
	/* under the cursor: that call */
	sv_session_select(&v.s, 0, SV_NO_CALL);
	TL(&v)->cur_t = 700;
	keys("Tab");
	ck_assert_int_eq(prof->start_ns[v.s.sel], 600);
}
END_TEST

START_TEST(test_count_and_ends)
{
	int64_t t;
	/* a count repeats a move: 5l is five l */
	keys("l l l l l");
	t = TL(&v)->cur_t;
	keys("0 Home");
	ck_assert_int_eq(TL(&v)->cur_t, 0);
	ck_assert(keys("5") & SV_REACT_REDRAW);
	ck_assert_str_eq(v.s.message, "5");
	keys("l");
	ck_assert_int_eq(TL(&v)->cur_t, t);
	ck_assert_int_eq(v.count, 0);
	/* 0 alone keeps its action (fit), after a digit it is a digit */
	keys("+ + 1 0 l");
	ck_assert_int_eq(v.count, 0);
	keys("0");
	ck_assert_int_eq(TL(&v)->t1 - TL(&v)->t0, 1200);
	/* a count does not repeat a toggle */
	keys("3 D");
	ck_assert(!TL(&v)->details_shown);
	keys("D");
	/* g and G: the run's start and end */
	keys("+ + G");
	ck_assert_int_eq(TL(&v)->t1, 1200);
	keys("g");
	ck_assert_int_eq(TL(&v)->t0, 0);
	ck_assert_int_eq(TL(&v)->cur_t, 0);
}
END_TEST

START_TEST(test_goto_units)
{
	/* a number without a unit is refused, and says so */
	ck_assert(keys(": g o t o Space 3 0 Enter") & SV_REACT_BELL);
	ck_assert_ptr_nonnull(strstr(v.s.message, "needs a unit"));
	/* a share of the run */
	keys(": g o t o Space 5 0 % Enter");
	ck_assert_int_eq(TL(&v)->cur_t, 600);
	ck_assert_str_eq(v.s.message, "cursor at +600 ns");
	/* past either end (even near 2^63): the run's end or start */
	keys(": g o t o Space 9 e 9 s Enter");
	ck_assert_int_eq(TL(&v)->cur_t, 1199);
	ck_assert_ptr_nonnull(strstr(v.s.message, "the run's end"));
	keys(": g o t o Space - 5 m s Enter");
	ck_assert_int_eq(TL(&v)->cur_t, 0);
	ck_assert_ptr_nonnull(strstr(v.s.message, "the run's start"));
	/* :zoom wants a unit too */
	ck_assert(keys(": z o o m Space 3 0 0 Enter") & SV_REACT_BELL);
	keys(": z o o m Space 3 0 0 n s Enter");
	ck_assert_int_eq(TL(&v)->t1 - TL(&v)->t0, 300);
}
END_TEST

START_TEST(test_tab_and_tree)
{
	keys("Tab");
	ck_assert_str_eq(sel_region(), "main");
	keys("Tab");
	ck_assert_str_eq(sel_region(), "child");
	keys("Tab");
	ck_assert_str_eq(sel_region(), "grandchild");
	ck_assert_int_eq(TL(&v)->cur_depth, 2);
	keys("BTab");
	ck_assert_str_eq(sel_region(), "child");
	keys("]");
	ck_assert_str_eq(sel_region(), "child");
	ck_assert_int_eq(prof->start_ns[v.s.sel], 600);
	keys("[");
	ck_assert_int_eq(prof->start_ns[v.s.sel], 100);
	keys("J");
	ck_assert_str_eq(sel_region(), "grandchild");
	keys("K K");
	ck_assert_str_eq(sel_region(), "main");
	ck_assert(keys("K") & SV_REACT_BELL);
	keys("c");
	ck_assert_str_eq(sel_region(), "child");
	ck_assert_int_eq(prof->start_ns[v.s.sel], 100); /* 400 ns > 300 ns */
	keys("c");
	ck_assert_str_eq(sel_region(), "grandchild");
	ck_assert(keys("c") & SV_REACT_BELL);
}
END_TEST

START_TEST(test_zoom_call)
{
	keys("Tab Tab f");
	ck_assert_str_eq(sel_region(), "child");
	ck_assert_int_le(TL(&v)->t0, 100);
	ck_assert_int_ge(TL(&v)->t1, 500);
	ck_assert_int_le(TL(&v)->t1 - TL(&v)->t0, 440 + TL(&v)->geom.tl_w);
	keys("Escape");
	ck_assert_int_eq(TL(&v)->t0, 0);
	keys("Escape");
	keys("Tab Enter");
	ck_assert_int_le(TL(&v)->t1 - TL(&v)->t0, 440 + TL(&v)->geom.tl_w);
}
END_TEST

START_TEST(test_solo_collapse)
{
	keys("Down Down Down");
	ck_assert_int_eq(TL(&v)->cur_lane, 1);
	keys("t");
	ck_assert_int_eq(v.s.solo_lane, 1);
	ck_assert_uint_eq(TL(&v)->rows.n, 1);
	ck_assert_uint_eq(sv_session_stats(&v.s)->nregions, 1); /* fetch */
	keys("t");
	ck_assert_int_eq(v.s.solo_lane, -1);
	ck_assert_uint_eq(TL(&v)->rows.n, 6);
	ck_assert_uint_eq(sv_session_stats(&v.s)->nregions, 5);
	ck_assert(sv_session_stats_is_all(&v.s));
	{
		/* the whole run's table is kept aside while a lane is solo
		 * and comes back as it was, not computed again (its first
		 * region's list of ranks is the same array) */
		const struct sv_stats_rank *all =
			sv_session_stats(&v.s)->regions[0].ranks;
		ck_assert_ptr_nonnull(all);
		keys("t");
		ck_assert(sv_session_stats_all(&v.s));
		ck_assert_ptr_eq(
			sv_session_stats_all(&v.s)->regions[0].ranks, all);
		ck_assert_uint_eq(sv_session_stats(&v.s)->nregions, 1);
		keys("t");
		ck_assert(!sv_session_stats_all(&v.s));
		ck_assert_ptr_eq(sv_session_stats(&v.s)->regions[0].ranks, all);
		ck_assert_uint_eq(sv_session_stats(&v.s)->nregions, 5);
		/* a rank filter and back: the same */
		keys("r 1 Enter");
		ck_assert(!sv_session_stats_is_all(&v.s));
		keys("r BSpace Enter");
		ck_assert_ptr_eq(sv_session_stats(&v.s)->regions[0].ranks, all);
		/* a region filter is a selection too */
		keys("\\ m a i n Enter");
		ck_assert(!sv_session_stats_is_all(&v.s));
		ck_assert_uint_eq(sv_session_stats(&v.s)->nregions, 1);
		keys("\\ C-u Enter");
		ck_assert_ptr_eq(sv_session_stats(&v.s)->regions[0].ranks, all);
		ck_assert_uint_eq(sv_session_stats(&v.s)->nregions, 5);
	}
	/* z folds rank 0's three lanes (five rows) into one track, the
	 * cursor on it; again unfolds them */
	keys("Up Up Up z");
	ck_assert_int_eq(TL(&v)->cur_lane, 0);
	ck_assert_uint_eq(TL(&v)->rows.n, 2);
	ck_assert(TL(&v)->rows.rows[0].fold);
	ck_assert_uint_eq(TL(&v)->rows.rows[0].lane_end, 3);
	ck_assert_int_eq(sv_timeline_cursor_row(TL(&v)), 0);
	keys("z");
	ck_assert_uint_eq(TL(&v)->rows.n, 6);
	/* Z folds every rank (rank 1's one lane too), then unfolds all */
	keys("Z");
	ck_assert_uint_eq(TL(&v)->rows.n, 2);
	ck_assert(TL(&v)->rows.rows[1].fold);
	keys("Z");
	ck_assert_uint_eq(TL(&v)->rows.n, 6);
}
END_TEST

START_TEST(test_search)
{
	int f = keys("/ c h i l d");
	ck_assert_int_eq(sv_view_prompt(&v), SV_PROMPT_SEARCH);
	ck_assert(f & SV_REACT_REDRAW);
	keys("BSpace d Enter");
	ck_assert_int_eq(sv_view_prompt(&v), SV_PROMPT_NONE);
	ck_assert_str_eq(sv_session_search_spec(&v.s), "child");
	/* "child" matches child and grandchild (search is unanchored) */
	ck_assert_uint_eq(sv_session_nmatches(&v.s), 3);
	ck_assert_str_eq(sel_region(), "child");
	ck_assert(sv_session_is_match(&v.s, v.s.sel));
	keys("n");
	ck_assert_str_eq(sel_region(), "grandchild");
	keys("n");
	ck_assert_int_eq(prof->start_ns[v.s.sel], 600);
	keys("n");
	ck_assert_int_eq(prof->start_ns[v.s.sel], 100); /* wraps */
	keys("N");
	ck_assert_int_eq(prof->start_ns[v.s.sel], 600);
	/* a bad regex is a message, not a crash */
	ck_assert(keys("/ ( Enter") & SV_REACT_BELL);
	ck_assert(v.s.message_is_error);
	/* Escape cancels a prompt */
	keys("/ x Escape");
	ck_assert_int_eq(sv_view_prompt(&v), SV_PROMPT_NONE);
}
END_TEST

/* Marking a region on a profile counted as large: its calls come from a
 * worker; meanwhile n says so; once in, the timeline is on its longest
 * call and n steps through the rest longest first; the call list and
 * the histogram take the list as it is. */
START_TEST(test_mark_background)
{

	v.s.bg_calls = 1;
	ck_assert_int_eq(
		sv_view_command(&v, "region child") & SV_REACT_BELL, 0);
	ck_assert(sv_session_matches_pending(&v.s));
	ck_assert_uint_eq(sv_session_nmarked(&v.s), 0);
	ck_assert_int_eq(keys("n") & SV_REACT_BELL, 0);
	ck_assert_str_eq(v.s.message, "the calls are still coming in");
	ck_assert(sv_view_settle(&v, 10000));
	ck_assert_uint_eq(sv_session_nmarked(&v.s), 2);
	/* the longest first: [100, 500) */
	ck_assert_str_eq(sel_region(), "child");
	ck_assert_int_eq(prof->start_ns[v.s.sel], 100);
	keys("n");
	ck_assert_int_eq(prof->start_ns[v.s.sel], 600);
	ck_assert_int_eq(sv_view_switch(&v, "calls") & SV_REACT_BELL, 0);
	ck_assert(!sv_view_busy(&v));
	ck_assert_int_eq(sv_view_switch(&v, "histogram") & SV_REACT_BELL, 0);
	ck_assert(!sv_view_busy(&v));
}
END_TEST

START_TEST(test_filter)
{
	keys("\\ ! c h i l d Enter");
	ck_assert_str_eq(sv_session_filter_spec(&v.s), "!child");
	ck_assert_ptr_nonnull(sv_session_region_keep(&v.s));
	/* child calls are gone from the index and the panel */
	ck_assert_uint_eq(sv_session_index(&v.s)->ncalls, 5);
	ck_assert_ptr_null(sv_stats_table_find(sv_session_stats(&v.s), 1));
	/* the parent of a call skips the calls the filter hides */
	keys("\\ C-u ! c h i l d Enter / g r a n d Enter");
	ck_assert_str_eq(sel_region(), "grandchild");
	keys("K");
	ck_assert_str_eq(sel_region(), "main");
	keys("\\ C-u Enter");
	ck_assert_ptr_null(sv_session_region_keep(&v.s));
	ck_assert_uint_eq(sv_session_index(&v.s)->ncalls, 7);
	keys("\\ m a i n Enter");
	ck_assert_uint_eq(sv_session_index(&v.s)->ncalls, 2);
}
END_TEST

/* Wait (up to 10 s) for the view's workers, polling as the loop does. */
static void wait_view(void)
{
	ck_assert(sv_view_settle(&v, 10000));
}

/* The filter of a large profile (bg_calls reached) through the keys: the
 * old index stays until the worker's is in, the prompt starts from the
 * filter being made, and a newer filter typed meanwhile wins. */
START_TEST(test_filter_background)
{
	v.s.bg_calls = 1;
	keys("\\ ! c h i l d Enter");
	ck_assert(sv_session_filter_pending(&v.s));
	ck_assert_str_eq(sv_session_filter_spec(&v.s), "");
	ck_assert_uint_eq(sv_session_index(&v.s)->ncalls, 7);
	/* the prompt holds "!child": Enter makes it again */
	keys("\\ Enter");
	ck_assert(sv_session_filter_pending(&v.s));
	wait_view();
	ck_assert_str_eq(sv_session_filter_spec(&v.s), "!child");
	ck_assert_uint_eq(sv_session_index(&v.s)->ncalls, 5);
	ck_assert_ptr_null(sv_stats_table_find(sv_session_stats(&v.s), 1));
	/* clearing, then main before the clearing is made */
	keys("\\ C-u Enter");
	ck_assert(sv_session_filter_pending(&v.s));
	keys("\\ m a i n Enter");
	wait_view();
	ck_assert_str_eq(sv_session_filter_spec(&v.s), "main");
	ck_assert_uint_eq(sv_session_index(&v.s)->ncalls, 2);
	keys("\\ C-u Enter");
	wait_view();
	ck_assert_ptr_null(sv_session_region_keep(&v.s));
	ck_assert_uint_eq(sv_session_index(&v.s)->ncalls, 7);
}
END_TEST

START_TEST(test_ranks_and_commands)
{
	keys("r 1 Enter");
	ck_assert_str_eq(v.s.rank_spec, "1");
	ck_assert_uint_eq(TL(&v)->rows.n, 1);
	ck_assert_int_eq(TL(&v)->cur_lane, 3);
	keys("r BSpace Enter");
	ck_assert_uint_eq(TL(&v)->rows.n, 6);
	keys(": r a n k Space 0 Enter");
	ck_assert_uint_eq(TL(&v)->rows.n, 5);
	keys(": g o t o Space 2 5 0 n s Enter");
	ck_assert_int_eq(TL(&v)->cur_t, 250);
	ck_assert_str_eq(sel_region(), "main");
	keys(": r e g i o n Space g r a n d c h i l d Enter");
	ck_assert_int_eq(v.s.mark_region, 2);
	ck_assert_str_eq(sel_region(), "grandchild");
	ck_assert(keys(": b o g u s Enter") & SV_REACT_BELL);
	ck_assert(v.s.message_is_error);
	ck_assert(keys(": q u i t Enter") & SV_REACT_QUIT);
}
END_TEST

START_TEST(test_panel)
{
	long n;
	keys("p");
	ck_assert(TL(&v)->panel.focus);
	/* sorted by total: main (2200) first */
	ck_assert_str_eq(sv_session_stats(&v.s)->regions[0].name, "main");
	keys("j Enter");
	ck_assert_int_eq(v.s.mark_region,
		(long)sv_session_stats(&v.s)->regions[1].region);
	ck_assert_uint_eq(sv_call_region(prof, v.s.sel), v.s.mark_region);
	n = (long)sv_session_nmarked(&v.s);
	ck_assert_int_ge(n, 1);
	keys("Escape");
	ck_assert_int_eq(v.s.mark_region, -1);
	keys("Escape");
	ck_assert(!TL(&v)->panel.focus);
	keys(">");
	ck_assert_int_eq(
		sv_panel_key_col(sv_session_sort_key(&v.s)), SV_PANEL_COL_EXCL);
	keys("< <");
	ck_assert_int_eq(sv_panel_key_col(sv_session_sort_key(&v.s)),
		SV_PANEL_COL_CALLS);
	ck_assert_uint_ge(sv_session_stats(&v.s)->regions[0].s.num_calls,
		sv_session_stats(&v.s)->regions[1].s.num_calls);
	ck_assert_uint_ge(sv_session_stats(&v.s)->regions[1].s.num_calls,
		sv_session_stats(&v.s)->regions[4].s.num_calls);
	keys("P");
	ck_assert(!TL(&v)->panel_shown);
	ck_assert_int_eq(TL(&v)->geom.panel_w, 0);
	keys("P D");
	ck_assert_int_eq(TL(&v)->geom.details_h, 0);
}
END_TEST

START_TEST(test_popups)
{
	ck_assert(keys("v") & SV_REACT_BELL); /* nothing selected */
	keys("Tab v");
	ck_assert_int_eq(sv_view_popup(&v), SV_POPUP_SOURCE);
	keys("q ?");
	ck_assert_int_eq(sv_view_popup(&v), SV_POPUP_HELP);
	/* the help is longer than its box: j and k scroll it, G to its
	 * last page, 3g to its third line */
	keys("j j k");
	ck_assert_int_eq(sv_mode_popup_top(sv_view_top(&v)), 1);
	keys("G");
	ck_assert_int_gt(sv_mode_popup_top(sv_view_top(&v)), 10);
	keys("3 g");
	ck_assert_int_eq(sv_mode_popup_top(sv_view_top(&v)), 2);
	keys("q");
	ck_assert_int_eq(sv_view_popup(&v), SV_POPUP_NONE);
	keys("i");
	ck_assert_int_eq(sv_view_popup(&v), SV_POPUP_METADATA);
	keys("W");
	ck_assert_int_eq(sv_view_popup(&v), SV_POPUP_WARNINGS);
	keys("?");
	ck_assert_int_eq(sv_view_popup(&v), SV_POPUP_HELP);
	keys("Escape F1");
	ck_assert_int_eq(sv_view_popup(&v), SV_POPUP_HELP);
	ck_assert(!(keys("q") & SV_REACT_QUIT));
	ck_assert(keys("R") & SV_REACT_RELOAD);
	ck_assert(keys("Y") & SV_REACT_BELL);
	/* Q quits from a popup too; q from the timeline */
	keys("?");
	ck_assert(keys("Q") & SV_REACT_QUIT);
	keys("q");
	ck_assert(keys("q") & SV_REACT_QUIT);
}
END_TEST

START_TEST(test_mouse)
{
	struct sv_tmap m = sv_timeline_tmap(TL(&v));
	int x = sv_tmap_col(&m, 700), y = TL(&v)->geom.lanes_y;
	char script[64];
	int64_t t;

	/* hit testing by screen cell */
	ck_assert_str_eq(prof->regions[sv_call_region(
				 prof, sv_timeline_call_at(TL(&v), x, y + 1))],
		"child");
	ck_assert_uint_eq(sv_timeline_call_at(TL(&v), x, y + 2), SV_NO_CALL);
	ck_assert_uint_eq(sv_timeline_call_at(TL(&v), 0, y), SV_NO_CALL);
	ck_assert_uint_eq(sv_timeline_call_at(TL(&v), x, 0), SV_NO_CALL);
	/* click on main's row at t=700 selects main */
	snprintf(script, sizeof script, "Click:%d,%d", x, y);
	keys(script);
	ck_assert_str_eq(sel_region(), "main");
	/* one row down: the second child */
	snprintf(script, sizeof script, "Click:%d,%d", x, y + 1);
	keys(script);
	ck_assert_str_eq(sel_region(), "child");
	ck_assert_int_eq(prof->start_ns[v.s.sel], 600);
	/* the wheel zooms keeping the time under the pointer */
	t = sv_tmap_time(&m, x) +
	    (sv_tmap_time(&m, x + 1) - sv_tmap_time(&m, x)) / 2;
	snprintf(script, sizeof script, "WheelUp:%d,%d", x, y);
	keys(script);
	m = sv_timeline_tmap(TL(&v));
	ck_assert_int_eq(sv_tmap_col(&m, t), x);
	/* drag pans by the columns moved */
	{
		int64_t t0 = TL(&v)->t0;
		int64_t dt = sv_tmap_time(&m, x) - sv_tmap_time(&m, x - 5);
		snprintf(script, sizeof script, "Click:%d,%d Drag:%d,%d", x, y,
			x - 5, y);
		keys(script);
		ck_assert_int_eq(TL(&v)->t0, t0 + dt);
	}
}
END_TEST

START_TEST(test_degenerate)
{
	struct sv_view w;
	struct sv_error err = {0};
	struct sv_profile *empty = vt_profile(NULL, 0, 0);

	ck_assert_int_lt(sv_view_init(&w, NULL, NULL, &err), 0);
	ck_assert_int_eq(sv_view_init(&w, empty, NULL, &err), 0);
	ck_assert_uint_eq(TL(&w)->rows.n, 0);
	ck_assert(sv_view_handle_key(&w, SV_KEY_TAB) & SV_REACT_BELL);
	ck_assert(sv_view_handle_key(&w, 't') & SV_REACT_BELL);
	sv_view_handle_key(&w, '+');
	sv_view_handle_key(&w, 'j');
	sv_view_resize(&w, 10, 5);
	ck_assert(TL(&w)->geom.too_small);
	ck_assert_int_eq(sv_view_handle_key(&w, 'j'), 0);
	ck_assert(sv_view_handle_key(&w, 'q') & SV_REACT_QUIT);
	ck_assert_int_eq(sv_view_handle_key(NULL, 'q'), 0);
	sv_view_fini(&w);
	sv_view_fini(NULL);
	sv_profile_free(empty);
}
END_TEST

/* Every row of the action table is wired: from a state with a selected
 * call in the middle of the run, and the panel focused, a popup or a
 * prompt open for the actions of those scopes, each action does something
 * (redraw, quit or reload), never only the bell of an unhandled action. */
START_TEST(test_every_action_wired)
{
	const struct sv_action_info *ai = sv_action_info(_i + 1);
	int flags;

	keys("+ Tab Tab");
	ck_assert_uint_ne(v.s.sel, SV_NO_CALL);
	if (_i + 1 == SV_ACTION_PANEL_NAMES_LEFT)
		keys("p l");
	else if (ai->scopes & SV_SCOPE_PANEL)
		keys("p");
	else if (ai->scopes == SV_SCOPE_POPUP)
		keys("?");
	else if (ai->scopes == SV_SCOPE_PROMPT)
		keys("/ c");
	else if (ai->scopes == SV_SCOPE_LIST)
		keys(_i + 1 == SV_ACTION_LIST_MATCH_NEXT ||
					_i + 1 == SV_ACTION_LIST_MATCH_PREV
				? "T * / c h i l d Enter"
				: "T j");
	else if (ai->scopes & SV_SCOPE_TREE)
		keys("T j");
	else if (_i + 1 == SV_ACTION_TREE_MATCH_NEXT)
		keys("F / c h i l d Enter");
	else if (ai->scopes & SV_SCOPE_FLAME)
		keys("F j");
	else if (_i + 1 == SV_ACTION_BACK)
		keys("T");
	else if (_i + 1 == SV_ACTION_RANGE_CLEAR)
		keys("m");
	else if (ai->scopes == SV_SCOPE_RANKS)
		keys("B");
	else if (ai->scopes == SV_SCOPE_HISTOGRAM)
		keys("H");
	else if (ai->scopes == SV_SCOPE_CALLS)
		keys("L");
	else if (ai->scopes == SV_SCOPE_TREND)
		keys("E");
	if (ai->scopes == SV_SCOPE_SCALING) {
		/* the scaling view's keys need a runs workspace (none read) */
		struct sv_runs *r = sv_runs_new(NULL, 0, NULL, NULL, NULL);
		struct sv_profile *ph = sv_runs_placeholder(r);
		struct sv_view_opts o = {.runs = r};
		struct sv_view ws;
		struct sv_error err = {0};
		ck_assert_int_eq(sv_view_init(&ws, ph, &o, &err), 0);
		flags = sv_view_apply(&ws, _i + 1);
		sv_view_fini(&ws);
		sv_profile_free(ph);
		sv_runs_free(r);
	} else {
		flags = sv_view_apply(&v, _i + 1);
	}
	ck_assert_msg(
		flags & (SV_REACT_REDRAW | SV_REACT_QUIT | SV_REACT_RELOAD),
		"action %s returned %d", ai->name, flags);
}
END_TEST

/* ---- Tab at a prompt -------------------------------------------------- */

/* What Tab offers for a prompt's text (the cursor at its end): the
 * candidates, space-separated, and where the word starts. */
static const struct {
	int kind;
	const char *text;
	const char *want;
	size_t start;
} completions[] = {
	{SV_PROMPT_COMMAND, "",
		"export filter goto open quit range rank ranks "
		"region search second sort view zoom",
		0},
	{SV_PROMPT_COMMAND, "s", "search second sort", 0},
	{SV_PROMPT_COMMAND, "  vi", "view", 2},
	{SV_PROMPT_COMMAND, "view ",
		"callers calls flame histogram ranks "
		"stats timeline tree trend",
		5},
	{SV_PROMPT_COMMAND, "view c", "callers calls", 5},
	{SV_PROMPT_COMMAND, "view tree ", "", 10},
	{SV_PROMPT_COMMAND, "region ", "child fetch grandchild main work", 7},
	{SV_PROMPT_COMMAND, "region gr", "grandchild", 7},
	{SV_PROMPT_COMMAND, "search ch", "child", 7},
	{SV_PROMPT_COMMAND, "filter main !w", "work", 13},
	{SV_PROMPT_COMMAND, "sort e", "exclusive", 5},
	{SV_PROMPT_COMMAND, "second o", "off on", 7},
	{SV_PROMPT_COMMAND, "goto ", "", 5},
	{SV_PROMPT_COMMAND, "nosuch x", "", 7},
	{SV_PROMPT_SEARCH, "ma", "main", 0},
	{SV_PROMPT_SEARCH, "x ma", "main", 2},
	{SV_PROMPT_FILTER, "!f", "fetch", 1},
	{SV_PROMPT_RANKS, "0", "", 0},
};

START_TEST(test_complete)
{
	struct sv_strv out = {0};
	size_t start = 99, n, i;
	char *got;

	n = sv_view_complete(&v, completions[_i].kind, completions[_i].text,
		strlen(completions[_i].text), &start, &out);
	got = sv_strv_join(out.v, out.n, " ");
	ck_assert_str_eq(got, completions[_i].want);
	ck_assert_uint_eq(n, out.n);
	ck_assert_uint_eq(start, completions[_i].start);
	for (i = 0; i < out.n; i++)
		ck_assert_ptr_nonnull(out.v[i]);
	free(got);
	sv_strv_fini(&out);
}
END_TEST

START_TEST(test_complete_paths)
{
	char dir[] = "/tmp/sv-complete-XXXXXX", *p, *text;
	struct sv_strv out = {0};
	size_t start;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	p = sv_xasprintf("%s/run_a.h5", dir);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	free(p);
	p = sv_xasprintf("%s/runs", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	free(p);
	p = sv_xasprintf("%s/.hidden", dir);
	f = fopen(p, "w");
	fclose(f);
	free(p);
	/* the entries that start as the word's last part does; a
	 * directory ends in /, hidden ones are left out */
	text = sv_xasprintf("open %s/ru", dir);
	sv_view_complete(
		&v, SV_PROMPT_COMMAND, text, strlen(text), &start, &out);
	ck_assert_uint_eq(out.n, 2);
	ck_assert_uint_eq(start, 5);
	p = sv_xasprintf("%s/run_a.h5", dir);
	ck_assert_str_eq(out.v[0], p);
	free(p);
	p = sv_xasprintf("%s/runs/", dir);
	ck_assert_str_eq(out.v[1], p);
	free(p);
	sv_strv_fini(&out);
	free(text);
	/* export FORMAT FILE: the file second */
	text = sv_xasprintf("export csv %s/.h", dir);
	sv_view_complete(
		&v, SV_PROMPT_COMMAND, text, strlen(text), &start, &out);
	ck_assert_uint_eq(out.n, 1);
	sv_strv_fini(&out);
	free(text);
	p = sv_xasprintf("rm -rf '%s'", dir);
	ck_assert_int_eq(system(p), 0);
	free(p);
}
END_TEST

START_TEST(test_range_command)
{
	/* :range T0:T1 marks the range from the run's start, as tree
	 * --range takes it; off clears it; nonsense rings the bell */
	keys(": r a n g e Space 1 0 0 : 3 0 0 Enter");
	ck_assert(v.s.has_range);
	ck_assert_int_eq(v.s.range_t0 - v.s.origin, 100);
	ck_assert_int_eq(v.s.range_t1 - v.s.origin, 300);
	ck_assert_int_eq(sv_session_span(&v.s), SV_SPAN_RANGE);
	ck_assert_ptr_nonnull(strstr(v.s.message, "range +100 ns .. +300 ns"));
	ck_assert(keys(": r a n g e Space 3 : 1 Enter") & SV_REACT_BELL);
	ck_assert(v.s.has_range);
	keys(": r a n g e Space o f f Enter");
	ck_assert(!v.s.has_range);
}
END_TEST

START_TEST(test_complete_keys)
{
	/* one candidate: the word and a space */
	keys(": v i Tab");
	ck_assert_str_eq(sv_mode_prompt_text(sv_view_top(&v)), "view ");
	/* several: as far as they agree, then each in turn, Shift-Tab
	 * back */
	keys("c Tab");
	ck_assert_str_eq(sv_mode_prompt_text(sv_view_top(&v)), "view call");
	keys("Tab");
	ck_assert_str_eq(sv_mode_prompt_text(sv_view_top(&v)), "view callers");
	keys("Tab");
	ck_assert_str_eq(sv_mode_prompt_text(sv_view_top(&v)), "view calls");
	keys("Tab");
	ck_assert_str_eq(sv_mode_prompt_text(sv_view_top(&v)), "view callers");
	keys("BTab");
	ck_assert_str_eq(sv_mode_prompt_text(sv_view_top(&v)), "view calls");
	/* nothing to offer: the bell, the line as it was */
	ck_assert(keys("Space Tab") & SV_REACT_BELL);
	ck_assert_str_eq(sv_mode_prompt_text(sv_view_top(&v)), "view calls ");
	/* and the completed command runs */
	keys("BSpace Enter");
	ck_assert_str_eq(sv_view_main_mode(&v)->ops->name, "calls");
	/* the search prompt completes region names */
	keys("Escape / g r Tab");
	ck_assert_str_eq(sv_mode_prompt_text(sv_view_top(&v)), "grandchild ");
}
END_TEST

START_TEST(test_reload_and_resize)
{
	struct sv_profile *again =
		vt_profile(calls, sizeof calls / sizeof calls[0],
			VT_THREADS | VT_TASKS | VT_GPU | VT_START);
	struct sv_error err;
	int64_t t0, t1;

	keys("+ + / c h i l d Enter Tab z \\ ! w o r k Enter");
	ck_assert_uint_eq(sv_session_index(&v.s)->ncalls, 6);
	t0 = TL(&v)->t0;
	t1 = TL(&v)->t1;
	/* a reload keeps the window and the fold flags, and the selection
	 * (the second child, kept through z) follows its call into the new
	 * profile */
	ck_assert_int_eq(sv_view_set_profile(&v, again, &err), 0);
	sv_profile_free(prof);
	prof = again;
	ck_assert_int_eq(TL(&v)->t0, t0);
	ck_assert_int_eq(TL(&v)->t1, t1);
	ck_assert_uint_eq(v.s.sel, 3);
	ck_assert(TL(&v)->lane_folded[0]);
	ck_assert_uint_eq(TL(&v)->rows.n, 2);
	ck_assert_ptr_eq(v.s.p, again);
	ck_assert(sv_session_stats(&v.s));
	/* the filter and the search, as typed, apply to the new file */
	ck_assert_str_eq(sv_session_filter_spec(&v.s), "!work");
	ck_assert_uint_eq(sv_session_index(&v.s)->ncalls, 6);
	ck_assert_str_eq(sv_session_search_spec(&v.s), "child");
	ck_assert_uint_eq(sv_session_nmatches(&v.s), 3);
	keys("Tab");
	ck_assert_uint_ne(v.s.sel, SV_NO_CALL);
	/* too small, then big again: the cursor row stays on screen */
	sv_view_resize(&v, 20, 5);
	ck_assert(TL(&v)->geom.too_small);
	sv_view_resize(&v, 80, 12);
	ck_assert(!TL(&v)->geom.too_small);
	keys("Down Down Down Down Down");
	ck_assert_int_ge(sv_timeline_cursor_row(TL(&v)), TL(&v)->top_row);
	ck_assert_int_lt(sv_timeline_cursor_row(TL(&v)),
		TL(&v)->top_row + TL(&v)->geom.lanes_h);
	ck_assert_int_lt(sv_view_set_profile(&v, NULL, &err), 0);
}
END_TEST

static const struct {
	const char *in;
	int rc;
	int64_t ns;
} times[] = {
	{"12.5ms", 0, 12500000},
	{"3s", 0, 3000000000},
	{"400us", 0, 400000},
	{"1500", 0, 1500},
	{"7 ns", 0, 7},
	{"+2ms", 0, 2000000},
	{"-1us", 0, -1000},
	{"ms", -22, 0},
	{"12x", -22, 0},
	{"1e30s", -22, 0},
	{"", -22, 0},
};

START_TEST(test_parse_time)
{
	int64_t ns = 0;
	ck_assert_int_eq(sv_view_parse_time(times[_i].in, &ns), times[_i].rc);
	if (!times[_i].rc)
		ck_assert_int_eq(ns, times[_i].ns);
}
END_TEST

START_TEST(test_fmt_dur)
{
	char buf[32];
	ck_assert_str_eq(sv_fmt_dur(830, buf, sizeof buf), "830 ns");
	ck_assert_str_eq(sv_fmt_dur(12500000, buf, sizeof buf), "12.5 ms");
	ck_assert_str_eq(sv_fmt_dur(1234000000, buf, sizeof buf), "1.23 s");
	ck_assert_str_eq(sv_fmt_dur(250000, buf, sizeof buf), "250 us");
}
END_TEST

/* The X events of a Chrome export, or -1 when it is not there. */
static long export_events(const char *path)
{
	char *text = svt_read_file(path, NULL);
	const char *at = text;
	long n = 0;

	if (!text)
		return -1;
	while ((at = strstr(at, "\"ph\":\"X\"")))
		n++, at++;
	free(text);
	return n;
}

/* Temporaries of an export to path left beside it (".NAME.*.tmp"). */
static int export_temps(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = sv_xasprintf("%.*s", (int)(slash - path), path);
	char *prefix = sv_xasprintf(".%s.", slash + 1);
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	closedir(d);
	free(dir);
	free(prefix);
	return n;
}

/* The calls of prof that a scope keeps, counted with export.h's rule. */
static long export_expected(const bool *lane_on, int64_t t0, int64_t t1)
{
	struct sv_export_scope sc = {
		.lane_on = lane_on, .has_range = true, .t0 = t0, .t1 = t1};
	uint32_t c;
	long n = 0;

	for (c = 0; c < prof->ncalls; c++)
		n += sv_export_call_in(prof, &sc, c);
	return n;
}

START_TEST(test_export_command)
{
	struct sv_view_opts o = {.sink = &sv_cli_export_sink};
	struct sv_view w;
	struct sv_error err;
	char *self = svt_tmp_path("self.h5"), *out = svt_tmp_path("v.json");
	char cmd[512], *before;
	FILE *f = fopen(self, "w");

	/* the profile's file: a stand-in the sink can recognise */
	fputs("profile", f);
	fclose(f);
	free(prof->path);
	prof->path = sv_xstrdup(self);
	ck_assert_int_eq(sv_view_init(&w, prof, &o, &err), 0);
	sv_view_resize(&w, 120, 40);

	/* the visible window: zoomed in, some calls are outside it */
	sv_timeline_set_window(TL(&w), 450, 300);
	snprintf(cmd, sizeof cmd, "export chrome %s", out);
	ck_assert(!(sv_view_command(&w, cmd) & SV_REACT_BELL));
	ck_assert_msg(!w.s.message_is_error, "%s", w.s.message);
	ck_assert_ptr_nonnull(strstr(w.s.message, "visible window"));
	ck_assert_int_eq(export_events(out),
		export_expected(w.s.lane_on, TL(&w)->t0, TL(&w)->t1));
	ck_assert_int_lt(export_events(out), (long)prof->ncalls);

	/* the marked range, on one soloed lane */
	sv_session_set_range(&w.s, true, 550, 950);
	sv_session_solo(&w.s, 0);
	ck_assert(!(sv_view_command(&w, cmd) & SV_REACT_BELL));
	ck_assert_ptr_nonnull(strstr(w.s.message, "marked range"));
	ck_assert_int_eq(
		export_events(out), export_expected(w.s.lane_on, 550, 950));
	ck_assert_int_eq(export_events(out), 2); /* main, child [600, 900) */

	/* never over a run on show, by its path, a symbolic link or a hard
	 * link (the second run's too), nor over what is not a regular file
	 * (outfile.h); a bad format; no file */
	before = svt_read_file(self, NULL);
	{
		char *sym = svt_tmp_path("self-sym.h5");
		char *hard = svt_tmp_path("self-hard.h5");
		char *two = svt_tmp_path("two.h5");
		char *two_link = svt_tmp_path("two-link.h5");
		const char *const targets[] = {self, sym, hard, two_link};
		struct sv_profile *p2 = vt_profile(
			calls, sizeof calls / sizeof calls[0], VT_THREADS);
		size_t k;
		ck_assert_int_eq(symlink(self, sym), 0);
		ck_assert_int_eq(link(self, hard), 0);
		f = fopen(two, "w");
		fputs("second", f);
		fclose(f);
		ck_assert_int_eq(link(two, two_link), 0);
		free(p2->path);
		p2->path = sv_xstrdup(two);
		ck_assert_int_eq(
			sv_session_set_second(&w.s, p2, NULL, &err), 0);
		for (k = 0; k < sizeof targets / sizeof targets[0]; k++) {
			char *after, *after2;
			snprintf(cmd, sizeof cmd, "export csv %s", targets[k]);
			ck_assert(sv_view_command(&w, cmd) & SV_REACT_BELL);
			ck_assert(w.s.message_is_error);
			ck_assert_msg(strstr(w.s.message, "not overwriting"),
				"%s", w.s.message);
			after = svt_read_file(self, NULL);
			after2 = svt_read_file(two, NULL);
			ck_assert_str_eq(after, before);
			ck_assert_str_eq(after2, "second");
			free(after);
			free(after2);
		}
		ck_assert_int_eq(
			sv_session_set_second(&w.s, NULL, NULL, &err), 0);
		sv_profile_free(p2);
		free(sym);
		free(hard);
		free(two);
		free(two_link);
	}
	free(before);
	snprintf(cmd, sizeof cmd, "export perfetto %s", out);
	ck_assert(sv_view_command(&w, cmd) & SV_REACT_BELL);
	ck_assert_ptr_nonnull(strstr(w.s.message, "unknown export format"));
	ck_assert(sv_view_command(&w, "export csv") & SV_REACT_BELL);
	ck_assert_ptr_nonnull(strstr(w.s.message, "usage: export"));
	/* through the : prompt, as typed: a device is refused */
	vt_keys(&w, ": e x p o r t Space c s v Space / d e v / n u l l Enter");
	ck_assert(w.s.message_is_error);
	ck_assert_msg(
		strstr(w.s.message, "a character device"), "%s", w.s.message);

	/* on a worker (every export, here): the progress line while it
	 * runs, keys still answered, the same file once polled in */
	w.export_bg_calls = 0;
	snprintf(cmd, sizeof cmd, "export chrome %s", out);
	ck_assert(!(sv_view_command(&w, cmd) & SV_REACT_BELL));
	ck_assert(sv_view_export_running(&w));
	ck_assert(sv_view_busy(&w));
	ck_assert_ptr_nonnull(strstr(w.s.message, "exporting chrome to"));
	ck_assert(sv_view_command(&w, cmd) & SV_REACT_BELL); /* one at once */
	ck_assert_ptr_nonnull(strstr(w.s.message, "being written"));
	vt_keys(&w, "j");
	{
		int i;
		for (i = 0; i < 5000 && sv_view_export_running(&w); i++) {
			sv_view_poll(&w);
			usleep(1000);
		}
	}
	ck_assert(!sv_view_export_running(&w));
	ck_assert_msg(strstr(w.s.message, "written to"), "%s", w.s.message);
	ck_assert_int_eq(
		export_events(out), export_expected(w.s.lane_on, 550, 950));
	/* stopped: nothing runs any more, and it says so */
	ck_assert(!(sv_view_command(&w, cmd) & SV_REACT_BELL));
	ck_assert(!(sv_view_command(&w, "export stop") & SV_REACT_BELL));
	ck_assert(!sv_view_export_running(&w));
	/* (a small export may be done before the stop comes: then it
	 * says what it wrote) */
	ck_assert_msg(strstr(w.s.message, "export stopped (nothing written)") ||
			      strstr(w.s.message, "written to"),
		"%s", w.s.message);
	ck_assert_int_eq(export_temps(out), 0);
	ck_assert(sv_view_command(&w, "export stop") & SV_REACT_BELL);
	/* quitting with one under way stops it */
	ck_assert(!(sv_view_command(&w, cmd) & SV_REACT_BELL));
	sv_view_fini(&w);

	/* a view without a sink says so */
	ck_assert(sv_view_command(&v, "export csv /dev/null") & SV_REACT_BELL);
	ck_assert_ptr_nonnull(strstr(v.s.message, "not available"));
	free(self);
	free(out);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("view");
	TCase *tc = tcase_create("actions");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_initial);
	tcase_add_test(tc, test_zoom_keeps_cursor);
	tcase_add_test(tc, test_zoom_limits);
	tcase_add_test(tc, test_pan);
	tcase_add_test(tc, test_move_and_select);
	tcase_add_test(tc, test_tab_and_tree);
	tcase_add_test(tc, test_tab_from_cursor);
	tcase_add_test(tc, test_count_and_ends);
	tcase_add_test(tc, test_goto_units);
	tcase_add_test(tc, test_zoom_call);
	tcase_add_test(tc, test_solo_collapse);
	tcase_add_test(tc, test_search);
	tcase_add_test(tc, test_mark_background);
	tcase_add_test(tc, test_filter);
	tcase_add_test(tc, test_filter_background);
	tcase_add_test(tc, test_ranks_and_commands);
	tcase_add_test(tc, test_panel);
	tcase_add_test(tc, test_popups);
	tcase_add_test(tc, test_mouse);
	tcase_add_test(tc, test_reload_and_resize);
	tcase_add_loop_test(
		tc, test_every_action_wired, 0, SV_ACTION_COUNT - 1);
	suite_add_tcase(s, tc);
	tc = tcase_create("complete");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_complete, 0,
		sizeof completions / sizeof completions[0]);
	tcase_add_test(tc, test_complete_paths);
	tcase_add_test(tc, test_complete_keys);
	tcase_add_test(tc, test_range_command);
	suite_add_tcase(s, tc);
	tc = tcase_create("misc");
	tcase_add_test(tc, test_degenerate);
	tcase_add_loop_test(
		tc, test_parse_time, 0, sizeof times / sizeof times[0]);
	tcase_add_test(tc, test_fmt_dur);
	suite_add_tcase(s, tc);
	tc = tcase_create("export");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_export_command);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
