/*
 * timeline_two.c: the second run's rows on the timeline (timeline.h).
 *
 * With a second run loaded (session.h's p2), each rank's lanes of the
 * first run are followed by those of the second (layout.h's
 * sv_layout_rows_build_two), one window for both: a row of the second run
 * reads its own index over the window moved by the session's shift2, so
 * that both runs start at the ruler's zero and zoom and scroll together.
 * What a row draws from is a struct sv_timeline_src; the cursor, Tab, the
 * selection (the session's sel2), the details and the highlighting of the
 * search and the marked region (by region name) follow the row's run.
 * Nothing here knows about curses or HDF5.
 */
#include "scopeview/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/mode.h"
#include "scopeview/render.h"

struct sv_timeline_src sv_timeline_src(
	const struct sv_timeline *v, unsigned run)
{
	const struct sv_session *s = v->s;

	if (run && s->p2 && sv_session_index2(s))
		return (struct sv_timeline_src){
			.p = s->p2,
			.ix = sv_session_index2(s),
			.shift = sv_session_shift2(s),
			.sel = s->sel2,
			.run = 1,
		};
	return (struct sv_timeline_src){
		.p = s->p,
		.ix = sv_session_index(s),
		.shift = 0,
		.sel = s->sel,
		.run = 0,
	};
}

struct sv_tmap sv_timeline_tmap_run(const struct sv_timeline *v, unsigned run)
{
	struct sv_tmap m = sv_timeline_tmap(v);
	struct sv_timeline_src src = sv_timeline_src(v, run);

	if (src.shift) {
		int64_t t0 = sv_add_sat(m.t0, src.shift),
			t1 = sv_add_sat(m.t1, src.shift);
		/* Saturated at an end: keep the span, for a valid map. */
		if (t1 - t0 != m.t1 - m.t0)
			t0 = t1 - (m.t1 - m.t0);
		m.t0 = t0;
		m.t1 = t1;
	}
	return m;
}

int sv_timeline_src_color(const struct sv_timeline *v,
	const struct sv_timeline_src *src, uint32_t c)
{
	return src->run ? sv_session_call2_color(v->s, c)
			: sv_session_call_color(v->s, c);
}

bool sv_timeline_src_match(const struct sv_timeline *v,
	const struct sv_timeline_src *src, uint32_t c)
{
	return src->run ? sv_session_is_match2(v->s, c)
			: sv_session_is_match(v->s, c);
}

bool sv_timeline_same_lane(
	const struct sv_layout_row *a, const struct sv_layout_row *b)
{
	return a->lane == b->lane && a->run == b->run;
}

void sv_timeline_extent(const struct sv_timeline *v, int64_t *t0, int64_t *t1)
{
	const struct sv_session *s = v->s;
	int64_t a, b;

	*t0 = s->run_t0;
	*t1 = s->run_t1;
	if (!sv_session_two_rows(s))
		return;
	sv_session_run2_extent(s, &a, &b);
	if (a < *t0)
		*t0 = a;
	if (b > *t1)
		*t1 = b;
}

void sv_timeline_two_lanes(struct sv_timeline *v)
{
	const struct sv_profile *p2 = v->s->p2;
	size_t n = p2 && p2->has_calls ? p2->nlanes : 0;

	if (n == v->nlanes2 && v->lane2_folded)
		return;
	free(v->lane2_folded);
	v->lane2_folded = sv_xcalloc(n ? n : 1, sizeof *v->lane2_folded);
	v->nlanes2 = n;
	if (v->cur_run)
		v->cur_run = 0;
}

int sv_timeline_step_call2(struct sv_timeline *v, int dir)
{
	struct sv_timeline_src src = sv_timeline_src(v, 1);
	const struct sv_lod_level *lv;
	uint32_t c = SV_NO_CALL;

	if (src.sel != SV_NO_CALL) {
		c = src.sel;
		do
			c = sv_lod_lane_step(src.p, c, dir);
		while (c != SV_NO_CALL &&
			sv_lod_level_pos(src.ix, c) == UINT32_MAX);
	} else {
		int64_t t = sv_add_sat(v->cur_t, src.shift);
		lv = sv_lod_index_level(src.ix, v->cur_lane, v->cur_depth);
		if (lv && lv->n) {
			uint32_t lo, hi;
			sv_lod_range(lv, t, INT64_MAX, &lo, &hi);
			if (dir > 0 && lo < lv->n)
				c = sv_lod_call(lv, lo);
			else if (dir < 0 && lo < lv->n &&
				 sv_lod_start(lv, lo) <= t)
				c = sv_lod_call(lv, lo);
			else if (dir < 0 && lo > 0)
				c = sv_lod_call(lv, lo - 1);
		}
	}
	if (c == SV_NO_CALL) {
		sv_session_message(v->s, false, "%s",
			src.sel == SV_NO_CALL ? "no more calls on this row"
			: dir > 0             ? "last call of the lane"
					      : "first call of the lane");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	sv_timeline_select_run(v, 1, c);
	return SV_REACT_REDRAW;
}

void sv_timeline_draw_run_label(const struct sv_timeline *v, struct sv_grid *g,
	const struct sv_layout_row *r, int x, int y, int w, int style)
{
	struct sv_timeline_src src = sv_timeline_src(v, r->run);
	const struct sv_lane *lane = &src.p->lanes[r->lane];

	if (w < 3)
		return;
	sv_grid_put(g, x, y, 'B',
		style == SV_STYLE_LABEL_CURSOR ? style : SV_STYLE_PANEL_MARK,
		0);
	sv_grid_text(g, x + 2, y, w - 2, lane->label ? lane->label : "?", style,
		0, sv_render_glyphs(v->s->opts.ascii)->ellipsis);
}

int sv_timeline_second_command(struct sv_timeline *v, const char *arg)
{
	struct sv_session *s = v->s;
	int64_t t0, t1;
	bool on, whole;

	while (*arg == ' ')
		arg++;
	if (!s->p2 || !sv_session_index2(s)) {
		sv_session_message(
			s, true, "%s", "no second run (:open FILE loads one)");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	if (!*arg)
		on = !sv_session_second_shown(s);
	else if (!strcmp(arg, "on"))
		on = true;
	else if (!strcmp(arg, "off"))
		on = false;
	else {
		sv_session_message(s, true, "%s", "second: on or off");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	if (!on && s->sel2 != SV_NO_CALL)
		sv_session_select(s, 1, SV_NO_CALL);
	sv_timeline_extent(v, &t0, &t1);
	whole = v->t0 <= t0 && v->t1 >= t1;
	sv_session_show_second(s, on);
	/* The whole run stays the whole run (of A alone, or of both);
	 * another window stays, inside what may be shown now. */
	if (whole)
		sv_timeline_fit(v);
	else
		sv_timeline_set_window(v, v->t0, sv_timeline_span(v));
	sv_session_message(s, false,
		on ? "run B's rows under run A's (%s)"
		   : "run B's rows hidden (%s)",
		sv_session_name2(s) ? sv_session_name2(s) : "");
	return SV_REACT_REDRAW;
}

/* Select c of the second run, or say none and ring the bell. */
static int two_select_rel(struct sv_timeline *v, uint32_t c, const char *none)
{
	if (c == SV_NO_CALL) {
		sv_session_message(v->s, false, "%s", none);
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	sv_timeline_select_run(v, 1, c);
	return SV_REACT_REDRAW;
}

int sv_timeline_two_apply(struct sv_timeline *v, int action)
{
	struct sv_session *s = v->s;
	const struct sv_profile *p2 = s->p2;
	uint32_t c = s->sel2, par;

	if (!p2 || !sv_session_index2(s) || (!v->cur_run && c == SV_NO_CALL))
		return -1;
	switch (action) {
	case SV_ACTION_NEXT_CALL:
	case SV_ACTION_PREV_CALL:
		if (!v->cur_run)
			return -1;
		return sv_timeline_step_call2(
			v, action == SV_ACTION_NEXT_CALL ? 1 : -1);
	case SV_ACTION_PARENT:
		if (c == SV_NO_CALL)
			return -1;
		par = sv_profile_parent(p2, c);
		while (par != SV_NO_CALL &&
			sv_lod_level_pos(sv_session_index2(s), par) ==
				UINT32_MAX)
			par = sv_profile_parent(p2, par);
		return two_select_rel(v, par, "a top-level call");
	case SV_ACTION_CHILD:
	case SV_ACTION_LONGEST_CHILD:
		if (c == SV_NO_CALL)
			return -1;
		return two_select_rel(v,
			action == SV_ACTION_CHILD
				? sv_lod_first_child(sv_session_index2(s), c)
				: sv_lod_longest_child(sv_session_index2(s), c),
			"no call inside this one");
	case SV_ACTION_NEXT_SIBLING:
	case SV_ACTION_PREV_SIBLING:
		if (c == SV_NO_CALL)
			return -1;
		return two_select_rel(v,
			sv_lod_sibling(sv_session_index2(s), c,
				action == SV_ACTION_NEXT_SIBLING ? 1 : -1),
			"no more calls with the same parent");
	case SV_ACTION_SOLO_LANE:
		if (!v->cur_run)
			return -1;
		sv_session_message(s, false, "%s",
			"t solos a lane of run A (its rank's lanes of run B "
			"stay)");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	default:
		return -1;
	}
}
