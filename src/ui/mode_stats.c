/*
 * mode_stats.c: the statistics screen as a mode.
 *
 * The summary panel (panel.h) across the screen under a note, with no
 * time axis, cursor or call details.  It is the main mode of a profile
 * without calls (the aggregate layout), whose stored statistics are all
 * there is to see, and `:view stats` shows it for any profile: the
 * figures of the lanes on display.  The panel is its list (list.h): the
 * list keys move its cursor, < and > sort the session's table, Enter or
 * Space marks the region.  Nothing here knows about curses or HDF5.
 */
#include "scopeview/mode.h"

#include <stdio.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/layout.h"
#include "scopeview/list.h"
#include "scopeview/panel.h"
#include "scopeview/render.h"
#include "scopeview/view.h"

struct stats_data {
	struct sv_panel panel;
	struct sv_layout_geom geom;
};

/* The layout's geometry, but the whole screen below a three-row note goes
 * to the panel, which adds columns as its width allows. */
static void stats_geometry(struct sv_mode *m)
{
	struct stats_data *d = m->data;
	struct sv_layout_geom *g = &d->geom;

	sv_layout_geometry(g, m->w, m->h, true, true);
	if (g->too_small)
		return;
	g->panel_x = 0;
	g->panel_w = m->w;
	g->panel_y = 3;
	g->panel_h = m->h - 1 - 3;
	g->details_y = 0;
	g->details_h = 0;
	g->lanes_h = 0;
}

static struct sv_panel_area stats_area(const struct sv_mode *m);

/* Mark region (the panel's Enter, Space), saying so when no call of it is
 * on the lanes shown. */
static int stats_mark(struct sv_mode *m, long region)
{
	struct sv_session *s = m->s;
	sv_session_mark_region(s, region);
	if (region >= 0 && !sv_session_nmarked(s) &&
		!sv_session_matches_pending(s)) {
		sv_session_say_no_marked(s, region);
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	return SV_REACT_REDRAW;
}

static void stats_place(struct sv_mode *m)
{
	struct stats_data *d = m->data;
	struct sv_panel_area a;
	stats_geometry(m);
	a = stats_area(m);
	sv_panel_place(&d->panel, &a);
}

static struct sv_panel_area stats_area(const struct sv_mode *m)
{
	const struct stats_data *d = m->data;
	struct sv_panel_area a;
	a.x = d->geom.panel_x;
	a.y = d->geom.panel_y;
	a.w = d->geom.panel_w;
	a.h = d->geom.panel_h;
	a.ascii = m->s->opts.ascii;
	return a;
}

static int stats_init(struct sv_mode *m, struct sv_error *err)
{
	struct stats_data *d = m->data;
	(void)err;
	m->w = m->w ? m->w : 120;
	m->h = m->h ? m->h : 40;
	sv_panel_init(&d->panel, stats_mark);
	d->panel.full = true;
	sv_panel_clamp(&d->panel, m->s);
	stats_place(m);
	return 0;
}

static void stats_notify(struct sv_mode *m, unsigned what)
{
	struct stats_data *d = m->data;
	if (what & (SV_SESSION_LANES | SV_SESSION_PROFILE | SV_SESSION_SORT))
		sv_panel_clamp(&d->panel, m->s);
}

static void stats_resize(struct sv_mode *m, int w, int h)
{
	m->w = w;
	m->h = h;
	stats_place(m);
}

static struct sv_list *stats_list(struct sv_mode *m)
{
	struct stats_data *d = m->data;
	return &d->panel.list;
}

static int stats_apply(struct sv_mode *m, int a)
{
	struct stats_data *d = m->data;
	struct sv_session *s = m->s;
	long region = -1;
	int rc;

	if (a == SV_ACTION_SOURCE) {
		region = sv_panel_region(&d->panel, s);
		if (region < 0)
			region = s->mark_region;
		if (region < 0) {
			sv_session_message(s, true, "no region to show");
			return SV_REACT_REDRAW | SV_REACT_BELL;
		}
		return sv_view_push_popup(m->view, SV_POPUP_SOURCE, region);
	}
	rc = sv_panel_apply(&d->panel, s, a, &region);
	if (rc < 0)
		return SV_REACT_BELL;
	if (rc & SV_PANEL_MARK)
		rc = stats_mark(m, region) | (rc & ~SV_PANEL_MARK);
	return rc;
}

static void stats_draw(
	const struct sv_mode *m, struct sv_grid *g, struct sv_rect r)
{
	const struct stats_data *d = m->data;
	const struct sv_session *s = m->s;
	const struct sv_glyphs *gl = sv_render_glyphs(s->opts.ascii);
	struct sv_panel_area a = stats_area(m);
	bool aggregate = s->p->layout == SV_LAYOUT_AGGREGATE;

	char head[320], span[160];

	sv_session_span_text(s, span, sizeof span);
	snprintf(head, sizeof head,
		"The statistics of the lanes on display, over the %s (S: "
		"run, window, range; V or :view timeline goes back to the "
		"timeline).",
		span);
	sv_grid_fill(g, r.x, r.y, r.x + r.w, r.y + 3, ' ', SV_STYLE_DEFAULT, 0);
	sv_render_wrapped(g, gl, r.x + 1, r.y, r.w - 2, 2,
		aggregate ? "This profile holds summary statistics only "
			    "(aggregate layout): no per-call data, so no "
			    "timeline. Below are the figures the file stores."
			  : head,
		aggregate ? SV_STYLE_WARNING : SV_STYLE_DIM);
	sv_grid_fill(g, r.x, r.y + 2, r.x + r.w, r.y + 3, gl->hline,
		SV_STYLE_BORDER, 0);
	sv_panel_draw(g, &d->panel, s, &a);
}

static void stats_status(const struct sv_mode *m, char *line, size_t n,
	const char *const **hints, size_t *nhints)
{
	const struct stats_data *d = m->data;
	const struct sv_session *s = m->s;
	long rows = sv_session_stats_rows(s);
	static const char *const keys[] = {
		"j/k region  Enter mark  < > sort  v source  ? help  q back",
		"Enter mark  < > sort  ? help",
	};

	snprintf(line, n, "  %sregion %ld/%ld",
		s->p->layout == SV_LAYOUT_AGGREGATE ? "aggregate: " : "",
		rows ? d->panel.list.cur + 1 : 0, rows);
	*hints = keys;
	*nhints = 2;
}

const struct sv_mode_ops sv_mode_stats = {
	.name = "stats",
	.title = "Statistics",
	.main = true,
	.scopes = {SV_SCOPE_STATS, SV_SCOPE_LIST, SV_SCOPE_GLOBAL, 0},
	.size = sizeof(struct stats_data),
	.init = stats_init,
	.notify = stats_notify,
	.resize = stats_resize,
	.list = stats_list,
	.apply = stats_apply,
	.draw = stats_draw,
	.status = stats_status,
};
