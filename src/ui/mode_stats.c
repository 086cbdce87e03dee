/*
 * mode_stats.c: the statistics screen as a mode.
 *
 * The summary panel (panel.h) across the screen under a note, with no
 * time axis, cursor or call details.  It is the main mode of a profile
 * without calls (the aggregate layout), whose stored statistics are all
 * there is to see, and `:view stats` shows it for any profile: the
 * figures of the lanes on display.  Nothing here knows about curses or
 * HDF5.
 */
#include "scopeview/mode.h"

#include <stdio.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/layout.h"
#include "scopeview/panel.h"
#include "scopeview/render.h"
#include "scopeview/view.h"

struct stats_data {
	struct sv_panel panel;
	struct sv_layout_geom geom;
};

/* The layout's geometry, but the whole screen below a three-row note goes
 * to the panel (at most 100 columns wide, names near their numbers). */
static void stats_geometry(struct sv_mode *m)
{
	struct stats_data *d = m->data;
	struct sv_layout_geom *g = &d->geom;

	sv_layout_geometry(g, m->w, m->h, true, true);
	if (g->too_small)
		return;
	g->panel_x = 0;
	g->panel_w = m->w < 100 ? m->w : 100;
	g->panel_y = 3;
	g->panel_h = m->h - 1 - 3;
	g->details_y = 0;
	g->details_h = 0;
	g->lanes_h = 0;
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
	(void)err;
	m->w = m->w ? m->w : 120;
	m->h = m->h ? m->h : 40;
	stats_geometry(m);
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
	stats_geometry(m);
}

static bool stats_panel_focus(const struct sv_mode *m)
{
	const struct stats_data *d = m->data;
	return d->panel.focus;
}

static int stats_apply(struct sv_mode *m, int a)
{
	struct stats_data *d = m->data;
	struct sv_session *s = m->s;
	long page = d->geom.panel_h > 4 ? d->geom.panel_h - 3 : 1, region = -1;
	int rc;

	switch (a) {
	case SV_ACTION_PANEL_FOCUS:
		d->panel.focus = !d->panel.focus;
		return SV_REACT_REDRAW;
	case SV_ACTION_SOURCE:
		if (d->panel.focus && s->stats_valid && s->stats.nregions)
			region = (long)s->stats.regions[d->panel.cur].region;
		else
			region = s->mark_region;
		if (region < 0) {
			sv_session_message(s, true,
				"select a region (p, then j/k) to see its "
				"source");
			return SV_REACT_REDRAW | SV_REACT_BELL;
		}
		return sv_view_push_popup(m->view, SV_POPUP_SOURCE, region);
	default:
		break;
	}
	rc = sv_panel_apply(&d->panel, s, a, page, &region);
	if (rc < 0)
		return SV_REACT_BELL;
	if (rc & SV_PANEL_MARK) {
		sv_session_mark_region(s, region);
		rc &= ~SV_PANEL_MARK;
		rc |= SV_REACT_REDRAW;
		if (region >= 0 && !s->nmarked && !s->matches_pending) {
			sv_session_say_no_marked(s, region);
			rc |= SV_REACT_BELL;
		}
	}
	if (d->panel.cur < d->panel.top)
		d->panel.top = d->panel.cur;
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
	static const char *const plain[] = {
		"p panel  < > sort  i metadata  ? help  q quit",
		"? help  q quit",
	};
	static const char *const panel[] = {
		"j/k region  Enter its calls  < > sort  p back  ? help",
		"Enter calls  < > sort  p back",
	};

	snprintf(line, n, "  %s%zu regions",
		s->p->layout == SV_LAYOUT_AGGREGATE ? "aggregate: " : "",
		s->stats_valid ? s->stats.nregions : 0);
	*hints = d->panel.focus ? panel : plain;
	*nhints = 2;
}

const struct sv_mode_ops sv_mode_stats = {
	.name = "stats",
	.title = "Statistics",
	.main = true,
	.scopes = {SV_SCOPE_STATS, SV_SCOPE_GLOBAL, 0},
	.size = sizeof(struct stats_data),
	.init = stats_init,
	.notify = stats_notify,
	.resize = stats_resize,
	.panel_focus = stats_panel_focus,
	.apply = stats_apply,
	.draw = stats_draw,
	.status = stats_status,
};
