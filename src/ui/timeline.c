/*
 * timeline.c: the timeline's window, cursor and selection (timeline.h).
 *
 * The moves every timeline action is made of: set, zoom and pan the
 * window within the spans allowed, keep the cursor row on display, select
 * a call and bring it into view, step through a list of calls, mark the
 * range a drag along the ruler sweeps.  The
 * keys that call them are mode_timeline.c's; drawing is draw_timeline.c's.
 * Nothing here knows about curses or HDF5.
 */
#include "scopeview/timeline.h"

#include "scopeview/mode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/keys.h"
#include "scopeview/render.h"

/* ---- set-up and the session's changes ------------------------------------ */

/* The geometry for what sv_timeline_sync laid out: the details box only
 * while a call is selected, and a row for the ranks strip. */
static void timeline_geometry(struct sv_timeline *v)
{
	struct sv_layout_geom *g = &v->geom;

	sv_layout_geometry_panel(g, v->w, v->h, v->panel_shown, v->laid_details,
		v->s->panel_width);
	/* The overview strip takes the lanes' first row, when they have
	 * room to spare and there are calls to show. */
	if (!g->too_small && g->lanes_h >= 8 && v->s->p->has_calls &&
		v->s->p->ncalls) {
		g->overview_y = g->lanes_y;
		g->lanes_y++;
		g->lanes_h--;
	}
	if (v->laid_strip && !g->too_small && g->lanes_h > 2) {
		/* Below the lanes, so that they stay where they were. */
		g->lanes_h--;
		g->strip_y = g->lanes_y + g->lanes_h;
		g->strip_h = 1;
	}
	{
		struct sv_panel_area a = sv_timeline_panel_area(v);
		sv_panel_place(&v->panel, &a);
	}
}

static void timeline_alloc_lanes(struct sv_timeline *v)
{
	const struct sv_profile *p = v->s->p;
	size_t nl = p->has_calls ? p->nlanes : 0;

	free(v->lane_folded);
	v->lane_folded = sv_xcalloc(nl ? nl : 1, sizeof *v->lane_folded);
	v->nlanes = nl;
}

void sv_timeline_init(struct sv_timeline *v, struct sv_session *s)
{
	memset(v, 0, sizeof *v);
	v->s = s;
	sv_panel_init(&v->panel, NULL);
	sv_panel_clamp(&v->panel, s);
	v->drag_x = -1;
	v->ranks.region = -1;
	v->ranks.depth_set = -1;
	v->ranks.m_col = -1;
	v->range_x = -1;
	v->fold_depth = -1;
	v->panel_shown = true;
	v->details_shown = true;
	v->span_rows = sv_xcalloc(SV_TIMELINE_SPAN_ROWS, sizeof *v->span_rows);
	v->fold_rows = sv_timeline_fold_rows_new();
	timeline_alloc_lanes(v);
	v->w = 120;
	v->h = 40;
	timeline_geometry(v);
	sv_timeline_fit(v);
	v->cur_t = v->t0;
	sv_timeline_rows_changed(v);
}

void sv_timeline_fini(struct sv_timeline *v)
{
	if (!v)
		return;
	sv_timeline_ranks_fini(v);
	sv_layout_rows_fini(&v->rows);
	for (size_t i = 0; v->span_rows && i < SV_TIMELINE_SPAN_ROWS; i++)
		sv_row_spans_fini(&v->span_rows[i]);
	free(v->span_rows);
	sv_timeline_fold_rows_free(v->fold_rows);
	free(v->lane_folded);
	free(v->lane2_folded);
	memset(v, 0, sizeof *v);
}

void sv_timeline_rows_changed(struct sv_timeline *v)
{
	sv_timeline_build_rows(v);
	sv_timeline_fix_rows(v);
}

void sv_timeline_notify(struct sv_timeline *v, unsigned what)
{
	const struct sv_profile *p = v->s->p;

	if (what & SV_SESSION_PROFILE)
		sv_timeline_ranks_fini(v); /* the worker read the old one */
	if (what & (SV_SESSION_PROFILE | SV_SESSION_LANES))
		v->ranks.stale = true;
	if (what & SV_SESSION_SORT)
		v->ranks.stale_m = true;
	if (what & SV_SESSION_PROFILE) {
		if ((p->has_calls ? p->nlanes : 0) != v->nlanes) {
			timeline_alloc_lanes(v);
			v->cur_lane = 0;
			v->cur_depth = 0;
		}
		/* A reload keeps the window where it still overlaps the
		 * new run (clamped into it), else shows the whole run. */
		if (v->t1 <= v->s->run_t0 || v->t0 >= v->s->run_t1)
			sv_timeline_fit(v);
		else
			sv_timeline_set_window(v, v->t0, sv_timeline_span(v));
		if (v->cur_t < v->t0 || v->cur_t >= v->t1)
			v->cur_t = v->t0;
	}
	if ((what & SV_SESSION_SECOND) && v->t0 <= v->s->run_t0 &&
		v->t1 >= v->s->run_t1)
		sv_timeline_fit(v); /* the whole run: both, when B shows */
	if (what & (SV_SESSION_LANES | SV_SESSION_PROFILE))
		sv_timeline_rows_changed(v);
	if (what & (SV_SESSION_LANES | SV_SESSION_PROFILE | SV_SESSION_SORT))
		sv_panel_clamp(&v->panel, v->s);
}

void sv_timeline_resize(struct sv_timeline *v, int w, int h)
{
	v->w = w;
	v->h = h;
	timeline_geometry(v);
	if (!v->geom.too_small && sv_timeline_span(v) < sv_timeline_min_span(v))
		sv_timeline_set_window(v, v->t0, sv_timeline_min_span(v));
	sv_timeline_fix_rows(v);
}

struct sv_panel_area sv_timeline_panel_area(const struct sv_timeline *v)
{
	struct sv_panel_area a;
	a.x = v->geom.panel_x;
	a.y = v->geom.panel_y;
	a.w = v->geom.panel_w;
	a.h = v->geom.panel_h;
	a.ascii = v->s->opts.ascii;
	return a;
}

int sv_timeline_mark_region(struct sv_timeline *v, long region)
{
	sv_session_mark_region(v->s, region);
	v->mark_wait = region >= 0 && sv_session_matches_pending(v->s);
	if (region < 0 || v->mark_wait)
		return SV_REACT_REDRAW;
	if (!sv_session_nmarked(v->s)) {
		sv_session_say_no_marked(v->s, region);
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	return sv_timeline_jump_session(v, true, 1);
}

/* ---- geometry, window and cursor ------------------------------------------ */

struct sv_tmap sv_timeline_tmap(const struct sv_timeline *v)
{
	struct sv_tmap m;
	m.t0 = v->t0;
	m.t1 = v->t1;
	m.x0 = v->geom.tl_x;
	m.w = v->geom.tl_w > 0 ? v->geom.tl_w : 1;
	return m;
}

uint32_t sv_timeline_call_at(const struct sv_timeline *v, int x, int y)
{
	struct sv_tmap m = sv_timeline_tmap(v);
	long row = v->top_row + (y - v->geom.lanes_y);

	if (v->geom.too_small || y < v->geom.lanes_y ||
		y >= v->geom.lanes_y + v->geom.lanes_h || row < 0 ||
		row >= (long)v->rows.n)
		return SV_NO_CALL;
	return sv_timeline_row_hit(v, &v->rows.rows[row], &m, x);
}

long sv_timeline_cursor_row(const struct sv_timeline *v)
{
	return sv_layout_rows_find_run(
		&v->rows, v->cur_run, v->cur_lane, v->cur_depth);
}

int64_t sv_timeline_span(const struct sv_timeline *v)
{
	return v->t1 - v->t0;
}

int64_t sv_timeline_min_span(const struct sv_timeline *v)
{
	return v->geom.tl_w > 0 ? v->geom.tl_w : 1;
}

/* The run's span (both runs' with the second's rows), at least one
 * nanosecond a column. */
int64_t sv_timeline_max_span(const struct sv_timeline *v)
{
	int64_t r0, r1;
	sv_i128 run;

	sv_timeline_extent(v, &r0, &r1);
	run = (sv_i128)r1 - r0;
	int64_t mn = sv_timeline_min_span(v);

	if (run > ((sv_i128)1 << 62))
		run = (sv_i128)1 << 62;
	return run > mn ? (int64_t)run : mn;
}

/* Set the window to span ns from t0, inside the run: the span between
 * the allowed ones, the start moved so that the window does not reach
 * past either end of the run (when the run is narrower than a
 * nanosecond a column, the window starts at the run's start). */
void sv_timeline_set_window(struct sv_timeline *v, int64_t t0, int64_t span)
{
	int64_t mn = sv_timeline_min_span(v), mx = sv_timeline_max_span(v);
	int64_t r0, r1;

	sv_timeline_extent(v, &r0, &r1);
	if (span < mn)
		span = mn;
	if (span > mx)
		span = mx;
	if ((sv_i128)r1 - span < t0)
		t0 = (sv_i128)r1 - span < r0 ? r0 : r1 - span;
	if (t0 < r0)
		t0 = r0;
	if (t0 > INT64_MAX - span)
		t0 = INT64_MAX - span;
	v->t0 = t0;
	v->t1 = t0 + span;
}

void sv_timeline_push_history(struct sv_timeline *v)
{
	if (v->nhistory == SV_TIMELINE_HISTORY) {
		memmove(v->history, v->history + 1,
			(SV_TIMELINE_HISTORY - 1) * sizeof v->history[0]);
		v->nhistory--;
	}
	v->history[v->nhistory].t0 = v->t0;
	v->history[v->nhistory].t1 = v->t1;
	v->nhistory++;
}

/* Keep the cursor row on display and inside the lane area. */
void sv_timeline_fix_rows(struct sv_timeline *v)
{
	long row, nrows = (long)v->rows.n, h = v->geom.lanes_h;

	if (nrows == 0) {
		v->top_row = 0;
		return;
	}
	row = sv_timeline_cursor_row(v);
	if (row < 0) {
		row = 0;
		v->cur_lane = v->rows.rows[0].lane;
		v->cur_run = v->rows.rows[0].run;
		v->cur_depth = 0;
	}
	v->cur_depth = v->rows.rows[row].depth;
	if (h < 1)
		h = 1;
	if (row < v->top_row)
		v->top_row = row;
	if (row >= v->top_row + h)
		v->top_row = row - h + 1;
	if (v->top_row > nrows - h)
		v->top_row = nrows - h;
	if (v->top_row < 0)
		v->top_row = 0;
}

void sv_timeline_fit(struct sv_timeline *v)
{
	int64_t r0, r1, span;

	sv_timeline_extent(v, &r0, &r1);
	span = r1 - r0;
	sv_timeline_set_window(v, r0, span > 0 ? span : 1000);
}

/* Select the call under the cursor (or none). */
void sv_timeline_select_at_cursor(struct sv_timeline *v)
{
	struct sv_tmap m = sv_timeline_tmap(v);
	int x = sv_tmap_col(&m, v->cur_t);
	long row = sv_timeline_cursor_row(v);
	uint32_t c;

	v->sel_by_cursor = true;
	if (row < 0 || x < m.x0 || x >= m.x0 + m.w) {
		sv_session_select(v->s, 0, SV_NO_CALL);
		return;
	}
	c = sv_timeline_row_hit(v, &v->rows.rows[row], &m, x);
	sv_session_select(v->s, v->rows.rows[row].run, c);
}

/* Select call c: the cursor goes to its row and into its visible part;
 * the window moves (same span) when the call is not in it. */
void sv_timeline_select(struct sv_timeline *v, uint32_t c)
{
	sv_timeline_select_run(v, 0, c);
}

void sv_timeline_select_run(struct sv_timeline *v, unsigned run, uint32_t c)
{
	const struct sv_timeline_src src = sv_timeline_src(v, run);
	const struct sv_profile *p = src.p;
	const bool *hidden =
		src.run ? sv_session_lane2_hidden(v->s) : v->s->lane_hidden;
	int64_t s, e, lo, hi, span = sv_timeline_span(v);
	uint32_t lane;

	if (c == SV_NO_CALL || c >= p->ncalls)
		return;
	lane = sv_call_lane(p, c);
	if (!hidden || hidden[lane])
		return;
	/* In the first run's clock. */
	s = sv_sub_sat(sv_time_clamp(sv_profile_start(p, c)), src.shift);
	e = sv_sub_sat(sv_time_clamp(sv_profile_end(p, c)), src.shift);
	e = e > s ? e : s + 1;
	if (e <= v->t0 || s >= v->t1)
		sv_timeline_set_window(v, s + (e - s) / 2 - span / 2, span);
	/* A call below its rank's track shows in its lane: the rank
	 * unfolds. */
	if (sv_timeline_rank_folded(v, src.run, lane) &&
		sv_profile_depth(p, c) > 0) {
		sv_timeline_fold_rank(v, src.run, lane, false);
		sv_timeline_build_rows(v);
	}
	lo = s > v->t0 ? s : v->t0;
	hi = e < v->t1 ? e : v->t1;
	v->cur_run = (uint8_t)src.run;
	v->cur_lane = lane;
	v->cur_depth = sv_profile_depth(p, c);
	v->cur_t = lo + (hi - lo) / 2;
	sv_timeline_fix_rows(v);
	/* Last: the views told (this one syncs) see the cursor on it. */
	v->sel_by_cursor = false;
	sv_session_select(v->s, src.run, c);
}

/* Select call c and make it readable: the zoom stays when the call is
 * at least SV_TIMELINE_READABLE columns wide (the window scrolls to show
 * it whole when it fits), else the window zooms in until the call takes
 * a quarter of the timeline (at least that many columns), centred. */
void sv_timeline_show_call(struct sv_timeline *v, uint32_t c)
{
	const struct sv_profile *p = v->s->p;
	int64_t s, e, span = sv_timeline_span(v), want;
	int w = v->geom.tl_w > 0 ? v->geom.tl_w : 1;
	int cols = w / 4 > SV_TIMELINE_READABLE ? w / 4 : SV_TIMELINE_READABLE;
	sv_i128 wide;

	if (c == SV_NO_CALL || c >= p->ncalls ||
		v->s->lane_hidden[sv_call_lane(p, c)])
		return;
	s = sv_time_clamp(sv_profile_start(p, c));
	e = sv_time_clamp(sv_profile_end(p, c));
	e = e > s ? e : s + 1;
	wide = (sv_i128)(e - s) * w / span;
	if (wide < SV_TIMELINE_READABLE) {
		want = (int64_t)((sv_i128)(e - s) * w / (cols < w ? cols : w));
		sv_timeline_push_history(v);
		sv_timeline_set_window(v, s + (e - s) / 2 - want / 2, want);
	} else if ((s < v->t0 || e > v->t1) && e - s <= span) {
		sv_timeline_set_window(v, s + (e - s) / 2 - span / 2, span);
	}
	sv_timeline_select(v, c);
}

/* Zoom to span ns keeping the time under column x (or the cursor). */
void sv_timeline_zoom_at(struct sv_timeline *v, int64_t t, int x, int64_t span)
{
	int64_t mn = sv_timeline_min_span(v), mx = sv_timeline_max_span(v);
	if (span < mn)
		span = mn;
	if (span > mx)
		span = mx;
	sv_timeline_set_window(v,
		sv_tmap_anchor(t, x, v->geom.tl_x, v->geom.tl_w, span), span);
}

void sv_timeline_pan(struct sv_timeline *v, int64_t dt)
{
	int64_t t0 = v->t0, span = sv_timeline_span(v);
	sv_i128 n = (sv_i128)t0 + dt;
	if (n < INT64_MIN)
		n = INT64_MIN;
	if (n > (sv_i128)INT64_MAX - span)
		n = (sv_i128)INT64_MAX - span;
	sv_timeline_set_window(v, (int64_t)n, span);
	n = (sv_i128)v->cur_t + (v->t0 - t0);
	if (n >= v->t0 && n < v->t1)
		v->cur_t = (int64_t)n;
}

int sv_timeline_select_rel(struct sv_timeline *v, uint32_t c, const char *none)
{
	if (c == SV_NO_CALL) {
		sv_session_message(v->s, false, "%s", none);
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	sv_timeline_select(v, c);
	return SV_REACT_REDRAW;
}

int sv_timeline_jump_session(struct sv_timeline *v, bool marked, int dir)
{
	size_t n = sv_session_nmatches(v->s);
	const uint32_t *list = marked ? sv_session_marked(v->s, &n) : NULL;
	long pos = sv_session_jump_pos(v->s, marked);
	int rc = sv_timeline_jump_list(v, list, n, &pos, dir, !marked);

	sv_session_set_jump_pos(v->s, marked, pos);
	return rc;
}

/* Call i of list, or of the session's matches when list is NULL; and the
 * count of those that start before t. */
static uint32_t jump_at(
	const struct sv_timeline *v, const uint32_t *list, size_t i)
{
	return list ? list[i] : sv_session_match_at(v->s, i);
}

static size_t jump_lower(
	const struct sv_timeline *v, const uint32_t *list, size_t n, int64_t t)
{
	return list ? sv_profile_calls_lower(v->s->p, list, n, t)
		    : sv_session_match_lower(v->s, t);
}

/* The calls of list (the session's matches when NULL) that start at t:
 * *g of them in *tie (into list, or malloc'd into *own), and their
 * position. */
static size_t jump_ties(const struct sv_timeline *v, const uint32_t *list,
	size_t n, int64_t t, const uint32_t **tie, uint32_t **own, size_t *g)
{
	size_t lo = jump_lower(v, list, n, t);

	*own = NULL;
	if (!list) {
		*g = sv_session_match_ties(v->s, t, own);
		*tie = *own;
		return lo;
	}
	*g = (t == INT64_MAX ? n : jump_lower(v, list, n, t + 1)) - lo;
	*tie = list + lo;
	return lo;
}

/* The position of the first match after (dir > 0; before, dir < 0) the
 * selection or the cursor, wrapping, and that call into *c.  In a list in
 * start order the calls that start before (after) the time are skipped
 * by a binary search; of those that start then, the selection's
 * neighbour in the list's order, or (the selection no match) those
 * after (before) it by call number. */
static long jump_by_time(const struct sv_timeline *v, const uint32_t *list,
	size_t n, int dir, uint32_t *c)
{
	uint32_t sel = v->s->sel, *own;
	int64_t t =
		sel != SV_NO_CALL ? sv_profile_start(v->s->p, sel) : v->cur_t;
	const uint32_t *tie;
	size_t g, j, at = SIZE_MAX;
	size_t lo = jump_ties(v, list, n, t, &tie, &own, &g);
	long found = -1;

	for (j = 0; sel != SV_NO_CALL && j < g; j++)
		if (tie[j] == sel)
			at = j;
	if (dir > 0) {
		for (j = at != SIZE_MAX ? at + 1 : 0; j < g; j++)
			if (at != SIZE_MAX || sel == SV_NO_CALL || tie[j] > sel)
				break;
		found = lo + j < n ? (long)(lo + j) : 0;
	} else {
		for (j = at != SIZE_MAX ? at : g; j-- > 0;)
			if (at != SIZE_MAX ||
				(sel != SV_NO_CALL && tie[j] < sel))
				break;
		found = j != SIZE_MAX ? (long)(lo + j)
			: lo          ? (long)lo - 1
				      : (long)n - 1;
	}
	*c = (size_t)found >= lo && (size_t)found < lo + g
		     ? tie[(size_t)found - lo]
		     : jump_at(v, list, (size_t)found);
	free(own);
	return found;
}

int sv_timeline_jump_list(struct sv_timeline *v, const uint32_t *list, size_t n,
	long *pos, int dir, bool by_time)
{
	uint32_t c;

	if (!n && sv_session_matches_pending(v->s)) {
		sv_session_message(
			v->s, false, "the calls are still coming in");
		return SV_REACT_REDRAW;
	}
	if (!n) {
		sv_session_message(
			v->s, true, "no matching call on the lanes shown");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	if (by_time) {
		*pos = jump_by_time(v, list, n, dir, &c);
	} else {
		*pos = *pos < 0 ? (dir > 0 ? 0 : (long)n - 1)
				: (*pos + dir + (long)n) % (long)n;
		c = jump_at(v, list, (size_t)*pos);
	}
	sv_timeline_show_call(v, c);
	sv_session_message(v->s, false, "match %ld of %zu", *pos + 1, n);
	return SV_REACT_REDRAW;
}

int sv_timeline_mouse_range(struct sv_timeline *v, int key)
{
	const struct sv_layout_geom *g = &v->geom;
	struct sv_tmap m = sv_timeline_tmap(v);
	int x = sv_key_mouse_x(key), a, b;
	char s0[32], s1[32];

	if (x < g->tl_x)
		x = g->tl_x;
	if (x >= g->tl_x + g->tl_w)
		x = g->tl_x + g->tl_w - 1;
	switch (sv_key_mouse_kind(key)) {
	case SV_MOUSE_CLICK:
		v->range_x = x;
		v->drag_x = -1;
		return SV_REACT_REDRAW;
	case SV_MOUSE_DRAG:
		a = x < v->range_x ? x : v->range_x;
		b = x < v->range_x ? v->range_x : x;
		sv_session_set_range(v->s, true, sv_tmap_time(&m, a),
			sv_tmap_time(&m, b + 1));
		sv_session_message(v->s, false, "range %s .. %s",
			sv_render_rel(sv_sub_sat(v->s->range_t0, v->s->origin),
				s0, sizeof s0),
			sv_render_rel(sv_sub_sat(v->s->range_t1, v->s->origin),
				s1, sizeof s1));
		return SV_REACT_REDRAW;
	case SV_MOUSE_RELEASE:
		v->range_x = -1;
		return SV_REACT_REDRAW;
	default:
		return 0;
	}
}
