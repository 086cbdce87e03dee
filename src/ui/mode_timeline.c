/*
 * mode_timeline.c: the timeline as a mode (timeline.h, mode.h).
 *
 * Keys only change state and report SV_REACT_* flags; drawing is
 * draw_timeline.c's.  With the focus on the summary panel, the panel's
 * keys (SV_SCOPE_PANEL) come before the timeline's.  The `:` commands
 * and the search are timeline_cmd.c's.  Nothing here knows about curses
 * or HDF5.
 */
#include "scopeview/timeline.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/keys.h"
#include "scopeview/list.h"
#include "scopeview/render.h"
#include "scopeview/mode.h"
#include "scopeview/overview.h"
#include "scopeview/regex.h"
#include "scopeview/view.h"

static int timeline_zoom(struct sv_timeline *v, int factor_num, int factor_den)
{
	struct sv_tmap m = sv_timeline_tmap(v);
	int64_t span = sv_timeline_span(v), t = v->cur_t;
	sv_i128 ns = (sv_i128)span * factor_num / factor_den;
	int x = sv_tmap_col(&m, t);

	if (x < m.x0 || x >= m.x0 + m.w) {
		x = m.x0 + m.w / 2;
		t = sv_tmap_time(&m, x);
		v->cur_t = t;
	}
	if (ns > ((sv_i128)1 << 62))
		ns = (sv_i128)1 << 62;
	if (factor_num < factor_den && span <= sv_timeline_min_span(v))
		return SV_REACT_BELL;
	if (factor_num > factor_den && span >= sv_timeline_max_span(v)) {
		sv_session_message(v->s, false, "the whole run is in view");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	sv_timeline_push_history(v);
	sv_timeline_zoom_at(v, t, x, (int64_t)ns);
	return SV_REACT_REDRAW;
}

/* A key that acts on the selected call, with none selected: say how to
 * select one rather than only ringing the bell. */
static int timeline_no_selection(struct sv_timeline *v)
{
	sv_session_message(v->s, true,
		"no call selected: Tab selects the next one, or click one");
	return SV_REACT_REDRAW | SV_REACT_BELL;
}

static int timeline_zoom_call(struct sv_timeline *v)
{
	/* The selected call, of either run, in the first run's clock. */
	struct sv_timeline_src src =
		sv_timeline_src(v, v->s->sel2 != SV_NO_CALL);
	int64_t s, e, pad;

	if (src.sel == SV_NO_CALL)
		return timeline_no_selection(v);
	v->sel_by_cursor = false; /* Enter, f: a selection of it */
	s = sv_sub_sat(
		sv_time_clamp(sv_profile_start(src.p, src.sel)), src.shift);
	e = sv_sub_sat(
		sv_time_clamp(sv_profile_end(src.p, src.sel)), src.shift);
	e = e > s ? e : s + 1;
	pad = (e - s) / 20;
	sv_timeline_push_history(v);
	sv_timeline_set_window(v, s - pad, e - s + 2 * pad);
	if (sv_timeline_span(v) > e - s + 2 * pad)
		sv_timeline_set_window(v,
			s + (e - s) / 2 - sv_timeline_span(v) / 2,
			sv_timeline_span(v));
	v->cur_t = s + (e - s) / 2;
	return SV_REACT_REDRAW;
}

static int timeline_move_col(struct sv_timeline *v, int dx)
{
	struct sv_tmap m = sv_timeline_tmap(v);
	int x = sv_tmap_col(&m, v->cur_t);

	if (x < m.x0 || x >= m.x0 + m.w)
		x = dx > 0 ? m.x0 - 1 : m.x0 + m.w;
	x += dx;
	if (x < m.x0 || x >= m.x0 + m.w) {
		int64_t span = sv_timeline_span(v);
		sv_timeline_pan(v, dx > 0 ? span / 8 : -(span / 8));
		m = sv_timeline_tmap(v);
		x = x < m.x0 ? m.x0 : m.x0 + m.w - 1;
		x = sv_tmap_col(&m, v->cur_t) + dx;
		if (x < m.x0)
			x = m.x0;
		if (x >= m.x0 + m.w)
			x = m.x0 + m.w - 1;
	}
	v->cur_t = sv_tmap_time(&m, x) +
		   (sv_tmap_time(&m, x + 1) - sv_tmap_time(&m, x)) / 2;
	sv_timeline_select_at_cursor(v);
	return SV_REACT_REDRAW;
}

static int timeline_move_row(struct sv_timeline *v, long dy)
{
	long row = sv_timeline_cursor_row(v), n = (long)v->rows.n;

	if (n == 0)
		return SV_REACT_BELL;
	row += dy;
	if (row < 0)
		row = 0;
	if (row >= n)
		row = n - 1;
	v->cur_lane = v->rows.rows[row].lane;
	v->cur_run = v->rows.rows[row].run;
	v->cur_depth = v->rows.rows[row].depth;
	sv_timeline_fix_rows(v);
	sv_timeline_select_at_cursor(v);
	return SV_REACT_REDRAW;
}

/* a/d: a quarter of the window, never past the run's ends. */
static int timeline_pan_key(struct sv_timeline *v, int64_t dt)
{
	int64_t t0 = v->t0;

	sv_timeline_pan(v, dt);
	if (v->t0 != t0)
		return SV_REACT_REDRAW;
	sv_session_message(v->s, false, "%s",
		dt < 0 ? "at the run's start" : "at the run's end");
	return SV_REACT_REDRAW | SV_REACT_BELL;
}

/* PgUp/PgDn: the lanes scroll a page (the cursor row moves with them, so
 * the first PgDn shows the next page, not one more row). */
static int timeline_page(struct sv_timeline *v, int dir)
{
	long h = v->geom.lanes_h > 1 ? v->geom.lanes_h : 1;
	long n = (long)v->rows.n, top = v->top_row + dir * h;

	if (n == 0)
		return SV_REACT_BELL;
	if (top > n - h)
		top = n - h;
	if (top < 0)
		top = 0;
	v->top_row = top;
	return timeline_move_row(v, dir * h);
}

/* Next/previous call on the cursor lane from the selection, or with none
 * the call under (after, before) the cursor on its row. */
static int timeline_step_call(struct sv_timeline *v, int dir)
{
	const struct sv_profile *p = v->s->p;
	const struct sv_lod_level *lv;
	uint32_t c;

	if (!p->has_calls || !p->nlanes)
		return SV_REACT_BELL;
	/* A call the cursor is only over is not where Tab starts from. */
	if (v->s->sel != SV_NO_CALL && !v->sel_by_cursor) {
		c = v->s->sel;
		do
			c = sv_lod_lane_step(p, c, dir);
		while (c != SV_NO_CALL && !sv_session_keeps(v->s, c));
		return sv_timeline_select_rel(v, c,
			dir > 0 ? "last call of the lane"
				: "first call of the lane");
	}
	/* Nothing selected: the call under the cursor on its row, else the
	 * first after it (before it, backwards), as the filter keeps them. */
	lv = sv_lod_index_level(
		sv_session_index(v->s), v->cur_lane, v->cur_depth);
	c = SV_NO_CALL;
	if (lv && lv->n) {
		uint32_t lo, hi;
		sv_lod_range(lv, v->cur_t, INT64_MAX, &lo, &hi);
		if (dir > 0 && lo < lv->n)
			c = sv_lod_call(lv, lo);
		else if (dir < 0 && lo < lv->n &&
			 sv_lod_start(lv, lo) <= v->cur_t)
			c = sv_lod_call(lv, lo);
		else if (dir < 0 && lo > 0)
			c = sv_lod_call(lv, lo - 1);
	}
	return sv_timeline_select_rel(v, c, "no more calls on this row");
}

static int timeline_mouse(struct sv_timeline *v, int key)
{
	int x = sv_key_mouse_x(key), y = sv_key_mouse_y(key);
	const struct sv_layout_geom *g = &v->geom;
	struct sv_tmap m = sv_timeline_tmap(v);
	bool in_tl = x >= g->tl_x && x < g->tl_x + g->tl_w && y >= g->lanes_y &&
		     y < g->lanes_y + g->lanes_h;
	bool in_panel = g->panel_w && x > g->panel_x && y >= g->panel_y + 2 &&
			y < g->panel_y + g->panel_h;
	bool on_ruler = x >= g->tl_x && x < g->tl_x + g->tl_w &&
			y >= g->ruler_y && y < g->ruler_y + 2;

	int rc = sv_timeline_border_mouse(v, sv_key_mouse_kind(key), x, y);

	if (rc >= 0)
		return rc;
	if (v->range_x >= 0 ||
		(on_ruler && sv_key_mouse_kind(key) == SV_MOUSE_CLICK))
		return sv_timeline_mouse_range(v, key);
	switch (sv_key_mouse_kind(key)) {
	case SV_MOUSE_CLICK:
		v->drag_x = x;
		if (g->overview_y && y == g->overview_y && x >= g->tl_x &&
			x < g->tl_x + g->tl_w) {
			v->drag_x = -1;
			return sv_overview_click(v, x);
		}
		if (in_panel && sv_session_stats(v->s)) {
			long row = v->panel.list.top + (y - g->panel_y - 2);
			if (row < (long)sv_session_stats(v->s)->nregions) {
				sv_list_set_cursor(NULL, &v->panel.list, row);
				v->panel.focus = true;
				return sv_timeline_mark_region(
					v, (long)sv_session_stats(v->s)
						   ->regions[row]
						   .region);
			}
			return SV_REACT_BELL;
		}
		if (in_tl ||
			(x >= g->label_x && x < g->tl_x && y >= g->lanes_y &&
				y < g->lanes_y + g->lanes_h)) {
			long row = v->top_row + (y - g->lanes_y);
			if (row >= (long)v->rows.n)
				return SV_REACT_BELL;
			v->panel.focus = false;
			v->cur_lane = v->rows.rows[row].lane;
			v->cur_run = v->rows.rows[row].run;
			v->cur_depth = v->rows.rows[row].depth;
			if (!in_tl)
				return SV_REACT_REDRAW;
			v->cur_t = sv_tmap_time(&m, x) +
				   (sv_tmap_time(&m, x + 1) -
					   sv_tmap_time(&m, x)) /
					   2;
			sv_timeline_select_at_cursor(v);
			v->sel_by_cursor = false; /* a click selects */
			return SV_REACT_REDRAW;
		}
		return 0;
	case SV_MOUSE_DRAG:
		if (v->drag_x >= 0 && x != v->drag_x && in_tl) {
			int64_t dt = sv_tmap_time(&m, v->drag_x) -
				     sv_tmap_time(&m, x);
			v->drag_x = x;
			sv_timeline_pan(v, dt);
			return SV_REACT_REDRAW;
		}
		return 0;
	case SV_MOUSE_RELEASE:
		v->drag_x = -1;
		return 0;
	case SV_MOUSE_WHEEL_UP:
	case SV_MOUSE_WHEEL_DOWN:
		if (in_panel)
			return sv_list_mouse(NULL, &v->panel.list, key);
		if (!in_tl)
			return 0;
		{
			int64_t t = sv_tmap_time(&m, x) +
				    (sv_tmap_time(&m, x + 1) -
					    sv_tmap_time(&m, x)) /
					    2;
			sv_i128 span = sv_timeline_span(v);
			span = sv_key_mouse_kind(key) == SV_MOUSE_WHEEL_UP
				       ? span / 2
				       : span * 2;
			if (span > ((sv_i128)1 << 62))
				span = (sv_i128)1 << 62;
			sv_timeline_push_history(v);
			sv_timeline_zoom_at(v, t, x, (int64_t)span);
			/* The cursor follows the zoom: to the pointer, which
			 * stays where it was. */
			v->cur_t = t < v->t0    ? v->t0
				   : t >= v->t1 ? v->t1 - 1
						: t;
		}
		return SV_REACT_REDRAW;
	}
	return 0;
}

/* The source popup shows the selected call's region, or the panel's
 * region under the cursor, or the marked one. */
/* Mark the range's start or end at the cursor (the other end stays if it
 * can, else it is the run's), the selected call's time, the visible
 * window, or clear it. */
static int timeline_range(struct sv_timeline *v, int action)
{
	struct sv_session *s = v->s;
	int64_t t = v->cur_t, a = s->run_t0, b = s->run_t1;

	if (action == SV_ACTION_RANGE_CLEAR) {
		if (!s->has_range)
			return SV_REACT_BELL;
		sv_session_set_range(s, false, 0, 0);
		sv_session_message(s, false, "range cleared");
		return SV_REACT_REDRAW;
	}
	if (action == SV_ACTION_RANGE_WINDOW) {
		a = v->t0;
		b = v->t1;
	} else if (action == SV_ACTION_RANGE_CALL) {
		if (s->sel == SV_NO_CALL)
			return timeline_no_selection(v);
		a = sv_profile_start(s->p, s->sel);
		b = sv_profile_end(s->p, s->sel);
	} else if (action == SV_ACTION_RANGE_START) {
		a = t;
		if (s->has_range && s->range_t1 > t)
			b = s->range_t1;
	} else {
		b = t;
		if (s->has_range && s->range_t0 < t)
			a = s->range_t0;
	}
	if (a == b) {
		sv_session_message(s, true, "the range would be empty");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	sv_session_set_range(s, true, a, b);
	sv_timeline_say_range(v);
	return SV_REACT_REDRAW;
}

static int timeline_source(struct sv_mode *mode)
{
	struct sv_timeline *v = mode->data;
	struct sv_session *s = v->s;
	long r = -1;

	if (s->sel != SV_NO_CALL)
		r = (long)sv_call_region(s->p, s->sel);
	else if (v->panel.focus && sv_session_stats(s) &&
		 sv_session_stats(s)->nregions)
		r = sv_panel_region(&v->panel, s);
	else if (s->mark_region >= 0)
		r = s->mark_region;
	if (r < 0) {
		sv_session_message(
			s, true, "select a call or a region to see its source");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	if (s->mark_region != r && s->sel == SV_NO_CALL)
		sv_session_mark_region(s, r);
	return sv_view_push_popup(mode->view, SV_POPUP_SOURCE, r);
}

/* Enter (or Space) on the panel's row of region: mark it, or go to its
 * next call when it is marked already. */
static int timeline_panel_mark(struct sv_mode *mode, long region)
{
	struct sv_timeline *v = mode->data;
	struct sv_session *s = v->s;
	int rc;

	if (region >= 0 && s->mark_region == region)
		rc = sv_timeline_jump_session(v, true, 1);
	else
		rc = sv_timeline_mark_region(v, region);
	/* The list's Enter comes here, not through timeline_apply. */
	sv_timeline_sync(v);
	return rc;
}

/* A panel key with the focus on the panel; -1 when a is not one. */
static int timeline_panel_apply(struct sv_mode *mode, int a)
{
	struct sv_timeline *v = mode->data;
	long region = -1;
	int rc;

	if (a == SV_ACTION_SORT_PREV || a == SV_ACTION_SORT_NEXT)
		return -1;
	rc = sv_panel_apply(&v->panel, v->s, a, &region);
	if (rc < 0)
		return -1;
	if (rc & SV_PANEL_MARK)
		rc = timeline_panel_mark(mode, region) | (rc & ~SV_PANEL_MARK);
	return rc;
}

static int timeline_do(struct sv_mode *mode, int action)
{
	struct sv_timeline *v = mode->data;
	const struct sv_profile *p = v->s->p;
	int64_t span = sv_timeline_span(v);

	v->s->message[0] = '\0';
	if (v->panel.focus) {
		int rc = timeline_panel_apply(mode, action);
		if (rc >= 0)
			return rc;
	} else {
		/* The second run's row or call: its own moves. */
		int rc = sv_timeline_two_apply(v, action);
		if (rc >= 0)
			return rc;
	}
	switch (action) {
	case SV_ACTION_MOVE_LEFT:
		return timeline_move_col(v, -1);
	case SV_ACTION_MOVE_RIGHT:
		return timeline_move_col(v, 1);
	case SV_ACTION_MOVE_UP:
		return timeline_move_row(v, -1);
	case SV_ACTION_MOVE_DOWN:
		return timeline_move_row(v, 1);
	case SV_ACTION_PAGE_UP:
		return timeline_page(v, -1);
	case SV_ACTION_PAGE_DOWN:
		return timeline_page(v, 1);
	case SV_ACTION_ZOOM_IN:
		return timeline_zoom(v, 1, 2);
	case SV_ACTION_ZOOM_OUT:
		return timeline_zoom(v, 2, 1);
	case SV_ACTION_PAN_LEFT:
	case SV_ACTION_PAN_RIGHT:
		return timeline_pan_key(
			v, (action == SV_ACTION_PAN_LEFT ? -1 : 1) *
				   (span / 4 > 0 ? span / 4 : 1));
	case SV_ACTION_GO_START:
		sv_timeline_pan(v, v->s->run_t0 - v->t0);
		v->cur_t = v->t0;
		sv_timeline_select_at_cursor(v);
		return SV_REACT_REDRAW;
	case SV_ACTION_GO_END:
		sv_timeline_pan(v, v->s->run_t1 - v->t1);
		v->cur_t = v->t1 - 1;
		sv_timeline_select_at_cursor(v);
		return SV_REACT_REDRAW;
	case SV_ACTION_ZOOM_CALL:
		return timeline_zoom_call(v);
	case SV_ACTION_ZOOM_FIT:
		sv_timeline_push_history(v);
		sv_timeline_fit(v);
		if (v->cur_t < v->t0 || v->cur_t >= v->t1)
			v->cur_t = v->t0;
		return SV_REACT_REDRAW;
	case SV_ACTION_ZOOM_BACK:
		if (!v->nhistory) {
			sv_session_message(v->s, false, "no earlier zoom");
			return SV_REACT_REDRAW | SV_REACT_BELL;
		}
		v->nhistory--;
		sv_timeline_set_window(v, v->history[v->nhistory].t0,
			v->history[v->nhistory].t1 -
				v->history[v->nhistory].t0);
		return SV_REACT_REDRAW;
	case SV_ACTION_NEXT_CALL:
		return timeline_step_call(v, 1);
	case SV_ACTION_PREV_CALL:
		return timeline_step_call(v, -1);
	case SV_ACTION_PARENT:
		if (v->s->sel == SV_NO_CALL)
			return timeline_no_selection(v);
		{
			/* The nearest enclosing call the filter keeps. */
			uint32_t par = sv_profile_parent(p, v->s->sel);
			while (par != SV_NO_CALL &&
				!sv_session_keeps(v->s, par))
				par = sv_profile_parent(p, par);
			return sv_timeline_select_rel(
				v, par, "a top-level call");
		}
	case SV_ACTION_CHILD:
		if (v->s->sel == SV_NO_CALL)
			return timeline_no_selection(v);
		return sv_timeline_select_rel(v,
			sv_lod_first_child(sv_session_index(v->s), v->s->sel),
			"no call inside this one");
	case SV_ACTION_LONGEST_CHILD:
		if (v->s->sel == SV_NO_CALL)
			return timeline_no_selection(v);
		return sv_timeline_select_rel(v,
			sv_lod_longest_child(sv_session_index(v->s), v->s->sel),
			"no call inside this one");
	case SV_ACTION_NEXT_SIBLING:
	case SV_ACTION_PREV_SIBLING:
		if (v->s->sel == SV_NO_CALL)
			return timeline_no_selection(v);
		return sv_timeline_select_rel(v,
			sv_lod_sibling(sv_session_index(v->s), v->s->sel,
				action == SV_ACTION_NEXT_SIBLING ? 1 : -1),
			"no more calls with the same parent");
	case SV_ACTION_SOLO_LANE:
		if (!p->has_calls || !p->nlanes)
			return SV_REACT_BELL;
		if (v->s->solo_lane >= 0) {
			v->cur_lane = (uint32_t)v->s->solo_lane;
			v->s->solo_lane = -1;
		} else {
			v->s->solo_lane = (long)v->cur_lane;
			sv_timeline_fold_rank(v, 0, v->cur_lane, false);
		}
		sv_session_solo(v->s, v->s->solo_lane);
		return SV_REACT_REDRAW;
	case SV_ACTION_FOLD_RANK:
	case SV_ACTION_FOLD_ALL:
		return sv_timeline_fold_apply(v, action);
	case SV_ACTION_SEARCH:
		return sv_view_push_prompt(mode->view, SV_PROMPT_SEARCH, "");
	case SV_ACTION_SEARCH_NEXT:
	case SV_ACTION_SEARCH_PREV: {
		int dir = action == SV_ACTION_SEARCH_NEXT ? 1 : -1;
		if (sv_session_search_regions(v->s))
			return sv_timeline_jump_session(v, false, dir);
		if (v->s->mark_region >= 0)
			return sv_timeline_jump_session(v, true, dir);
		sv_session_message(v->s, false, "no search: press / to search");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	case SV_ACTION_FILTER:
		return sv_view_push_prompt(mode->view, SV_PROMPT_FILTER,
			sv_session_filter_text(v->s));
	case SV_ACTION_RANK_FILTER:
		return sv_view_push_prompt(
			mode->view, SV_PROMPT_RANKS, v->s->rank_spec);
	case SV_ACTION_PANEL_FOCUS:
		if (!v->geom.panel_w) {
			sv_session_message(v->s, false,
				"the summary panel is hidden (P shows it; it "
				"needs 100 columns)");
			return SV_REACT_REDRAW | SV_REACT_BELL;
		}
		v->panel.focus = !v->panel.focus;
		return SV_REACT_REDRAW;
	case SV_ACTION_PANEL_TOGGLE:
		v->panel_shown = !v->panel_shown;
		if (!v->panel_shown)
			v->panel.focus = false;
		sv_timeline_resize(v, v->w, v->h);
		if (v->panel_shown && !v->geom.panel_w)
			sv_session_message(v->s, false,
				"the summary panel needs 100 columns");
		return SV_REACT_REDRAW;
	case SV_ACTION_SORT_PREV:
	case SV_ACTION_SORT_NEXT: {
		long none;
		return sv_panel_apply(&v->panel, v->s, action, &none);
	}
	case SV_ACTION_DETAILS:
		v->details_shown = !v->details_shown;
		sv_timeline_resize(v, v->w, v->h);
		return SV_REACT_REDRAW;
	case SV_ACTION_SOURCE:
		return timeline_source(mode);
	case SV_ACTION_RANGE_START:
	case SV_ACTION_RANGE_END:
	case SV_ACTION_RANGE_CLEAR:
	case SV_ACTION_RANGE_CALL:
	case SV_ACTION_RANGE_WINDOW:
		return timeline_range(v, action);
	case SV_ACTION_COLOR_MODE:
		sv_session_set_color_mode(
			v->s, (sv_session_color_mode(v->s) + 1) %
				      SV_PALETTE_MODE_COUNT);
		return SV_REACT_REDRAW;
	default: {
		int rc = sv_timeline_ranks_apply(v, action);
		return rc >= 0 ? rc : SV_REACT_BELL;
	}
	}
}

static int timeline_apply(struct sv_mode *m, int action)
{
	int rc = timeline_do(m, action);
	sv_timeline_sync(m->data);
	return rc;
}

static int timeline_init(struct sv_mode *m, struct sv_error *err)
{
	(void)err;
	sv_timeline_init(m->data, m->s);
	((struct sv_timeline *)m->data)->panel.mark = timeline_panel_mark;
	sv_timeline_sync(m->data);
	return 0;
}

static void timeline_fini(struct sv_mode *m)
{
	sv_timeline_fini(m->data);
}

static void timeline_notify(struct sv_mode *m, unsigned what)
{
	struct sv_timeline *v = m->data;

	sv_timeline_notify(v, what);
	if ((what & SV_SESSION_SEARCH) && v->search_wait &&
		!sv_session_matches_pending(v->s)) {
		v->search_wait = false;
		sv_timeline_search_found(v, v->search_pat);
	}
	if ((what & SV_SESSION_SEARCH) && v->mark_wait &&
		!sv_session_matches_pending(v->s)) {
		v->mark_wait = false;
		if (sv_session_nmarked(v->s) && v->s->mark_region >= 0)
			sv_timeline_jump_session(v, true, 1);
	}
	sv_timeline_sync(v);
}

static void timeline_resize(struct sv_mode *m, int w, int h)
{
	sv_timeline_resize(m->data, w, h);
	sv_timeline_fold_choose(m->data);
	sv_timeline_sync(m->data);
}

static struct sv_list *timeline_list(struct sv_mode *m)
{
	struct sv_timeline *v = m->data;
	return v->panel.focus ? &v->panel.list : NULL;
}

static bool timeline_panel_focus(const struct sv_mode *m)
{
	const struct sv_timeline *v = m->data;
	return v->panel.focus;
}

static int timeline_key(struct sv_mode *m, int key)
{
	int rc = sv_key_is_mouse(key) ? timeline_mouse(m->data, key) : -1;
	sv_timeline_sync(m->data);
	return rc;
}

static void timeline_draw(
	const struct sv_mode *m, struct sv_grid *g, struct sv_rect r)
{
	(void)r;
	sv_timeline_draw(m->data, g);
}

static void timeline_status(const struct sv_mode *m, char *line, size_t n,
	const char *const **hints, size_t *nhints)
{
	/* Over a runs workspace, q goes back to it (view.h's nested). */
	static const char *const nested[] = {
		("Tab next call  f zoom to it  t solo  / search  "
		 "p panel  ? help  q back"),
		"Tab call  f zoom  t solo  p panel  ? help  q back",
		"? help  q back",
	};
	sv_timeline_status(m->data, line, n, hints, nhints);
	if (m->view && m->view->nested && *nhints == 3 &&
		strstr((*hints)[2], "q quit"))
		*hints = nested;
}

static int timeline_prompt_do(struct sv_mode *m, int kind, const char *text)
{
	struct sv_timeline *v = m->data;

	switch (kind) {
	case SV_PROMPT_SEARCH:
		return sv_timeline_set_search(v, text);
	case SV_PROMPT_FILTER:
		return sv_session_set_filter(v->s, text) < 0
			       ? SV_REACT_REDRAW | SV_REACT_BELL
			       : SV_REACT_REDRAW;
	case SV_PROMPT_RANKS:
		return sv_session_set_ranks(v->s, text) < 0
			       ? SV_REACT_REDRAW | SV_REACT_BELL
			       : SV_REACT_REDRAW;
	case SV_PROMPT_COMMAND:
		return sv_timeline_command(v, text);
	default:
		return SV_REACT_REDRAW;
	}
}

static int timeline_prompt(struct sv_mode *m, int kind, const char *text)
{
	int rc = timeline_prompt_do(m, kind, text);
	sv_timeline_sync(m->data);
	return rc;
}

const struct sv_mode_ops sv_mode_timeline = {
	.name = "timeline",
	.title = "Timeline",
	.main = true,
	.scopes = {SV_SCOPE_TIMELINE, SV_SCOPE_GLOBAL, 0},
	.size = sizeof(struct sv_timeline),
	.init = timeline_init,
	.fini = timeline_fini,
	.notify = timeline_notify,
	.resize = timeline_resize,
	.panel_focus = timeline_panel_focus,
	.list = timeline_list,
	.apply = timeline_apply,
	.key = timeline_key,
	.draw = timeline_draw,
	.status = timeline_status,
	.prompt = timeline_prompt,
	.show = sv_timeline_mode_show,
};
