/*
 * mode_flame.c: the flame graph as a mode (`:view flame`, F).
 *
 * An icicle of the session's scope (treebuild.h): the roots on the top
 * row, each frame a call path as wide as its inclusive time and its
 * callees under it, widest first from the left (identical paths are one
 * frame: the call tree's nodes).  Names are written inside the frames
 * where they fit; the search's regions are highlighted; the arrows move
 * the selected frame (up to the caller, down to the widest callee, left
 * and right round its siblings), Enter zooms into it and Backspace out; the
 * selected frame's figures are on the line below.  A frame visits only
 * the frames at least one column wide, so it costs the cells on screen.
 * Nothing here knows about curses or HDF5.
 */
#include "scopeview/mode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/render.h"
#include "scopeview/treebuild.h"
#include "scopeview/view.h"

struct flame_data {
	struct sv_treebuild b;
	bool expand, stale;
	uint32_t zoom; /* the frame across the screen, or NONE: the roots */
	uint32_t sel;  /* the selected frame, or NONE */
};

static const struct sv_callpath *flame_tree(const struct flame_data *d)
{
	return d->b.ready ? &d->b.tree : NULL;
}

static void flame_adopt(struct flame_data *d)
{
	const struct sv_callpath *t = &d->b.tree;
	d->zoom = SV_CALLPATH_NONE;
	d->sel = t->nroots ? t->roots[0] : SV_CALLPATH_NONE;
}

/* A build is in (treebuild.h's done): a finished tree is shown. */
static void flame_built(void *owner)
{
	struct sv_mode *m = owner;
	struct flame_data *d = m->data;
	if (d->b.ready && !d->b.cancelled)
		flame_adopt(d);
}

static void flame_start(struct sv_mode *m)
{
	struct flame_data *d = m->data;
	d->stale = false;
	sv_treebuild_start(&d->b, m->s, d->expand);
}

static int flame_init(struct sv_mode *m, struct sv_error *err)
{
	struct flame_data *d = m->data;
	(void)err;
	sv_treebuild_init(&d->b, &m->s->jobs, flame_built, m);
	d->zoom = d->sel = SV_CALLPATH_NONE;
	flame_start(m);
	return 0;
}

static void flame_fini(struct sv_mode *m)
{
	struct flame_data *d = m->data;
	sv_treebuild_fini(&d->b);
}

static void flame_notify(struct sv_mode *m, unsigned what)
{
	struct flame_data *d = m->data;
	if (!(what & (SV_SESSION_PROFILE | SV_SESSION_LANES | SV_SESSION_RANGE |
			     SV_SESSION_SECOND)))
		return;
	if (what & (SV_SESSION_PROFILE | SV_SESSION_SECOND)) {
		/* The old trees point into the old profiles (and a build
		 * under way reads the second run's). */
		sv_treebuild_reset(&d->b);
		d->zoom = d->sel = SV_CALLPATH_NONE;
	}
	if (sv_view_main_mode(m->view) == m || (what & SV_SESSION_PROFILE))
		flame_start(m);
	else
		d->stale = true;
}

/* Esc while the tree is built: stop, and build again when shown. */
static void flame_cancel(struct sv_mode *m)
{
	struct flame_data *d = m->data;
	if (!sv_treebuild_busy(&d->b))
		return;
	sv_treebuild_cancel(&d->b);
	d->stale = true;
}

static void flame_show(struct sv_mode *m)
{
	struct flame_data *d = m->data;
	if (d->stale)
		flame_start(m);
}

/* The siblings of n (the roots for a root) and n's place among them. */
static const uint32_t *flame_siblings(
	const struct sv_callpath *t, uint32_t n, uint32_t *cnt, uint32_t *at)
{
	const uint32_t *sib = sv_callpath_children(t, t->nodes[n].parent, cnt);
	for (*at = 0; *at < *cnt && sib[*at] != n; (*at)++)
		;
	return sib;
}

/* Whether n lies inside the zoomed frame (or is it). */
static bool flame_inside(const struct sv_callpath *t, uint32_t zoom, uint32_t n)
{
	if (zoom == SV_CALLPATH_NONE)
		return true;
	for (; n != SV_CALLPATH_NONE; n = t->nodes[n].parent)
		if (n == zoom)
			return true;
	return false;
}

static int flame_apply(struct sv_mode *m, int a)
{
	struct flame_data *d = m->data;
	const struct sv_callpath *t = flame_tree(d);
	uint32_t cnt, at, n = d->sel;
	const uint32_t *sib;

	switch (a) {
	case SV_ACTION_TREE_RECURSION:
		d->expand = !d->expand;
		flame_start(m);
		sv_session_message(m->s, false, "recursion %s",
			d->expand ? "level by level" : "collapsed");
		return SV_REACT_REDRAW;
	case SV_ACTION_TREE_SEARCH:
		return sv_view_push_prompt(m->view, SV_PROMPT_SEARCH, "");
	case SV_ACTION_FLAME_OUT:
		if (!t || d->zoom == SV_CALLPATH_NONE)
			return SV_REACT_REDRAW | SV_REACT_BELL;
		d->sel = d->zoom;
		d->zoom = t->nodes[d->zoom].parent;
		return SV_REACT_REDRAW;
	default:
		break;
	}
	if (!t || n == SV_CALLPATH_NONE)
		return SV_REACT_BELL;
	switch (a) {
	case SV_ACTION_FLAME_UP:
		if (t->nodes[n].parent == SV_CALLPATH_NONE || n == d->zoom)
			return SV_REACT_BELL;
		d->sel = t->nodes[n].parent;
		return SV_REACT_REDRAW;
	case SV_ACTION_FLAME_DOWN:
		if (!t->nodes[n].nchildren)
			return SV_REACT_BELL;
		d->sel = t->child[t->nodes[n].first_child];
		return SV_REACT_REDRAW;
	case SV_ACTION_FLAME_LEFT:
	case SV_ACTION_FLAME_RIGHT:
		if (n == d->zoom)
			return SV_REACT_BELL;
		/* Round the siblings, so the widest is one step away. */
		sib = flame_siblings(t, n, &cnt, &at);
		d->sel = sib[(at + (a == SV_ACTION_FLAME_LEFT ? cnt - 1 : 1)) %
			     cnt];
		return SV_REACT_REDRAW;
	case SV_ACTION_FLAME_ZOOM:
		d->zoom = n;
		return SV_REACT_REDRAW;
	case SV_ACTION_TREE_MATCH_NEXT: {
		uint32_t k;
		if (!sv_session_search_regions(m->s))
			return SV_REACT_BELL;
		for (k = 1; k <= t->nnodes; k++) {
			uint32_t c = (n + k) % t->nnodes;
			if (sv_session_search_region(
				    m->s, t->nodes[c].region) &&
				flame_inside(t, d->zoom, c)) {
				d->sel = c;
				return SV_REACT_REDRAW;
			}
		}
		return SV_REACT_BELL;
	}
	default:
		return SV_REACT_BELL;
	}
}

static int flame_prompt(struct sv_mode *m, int kind, const char *text)
{
	struct sv_error err;
	if (kind != SV_PROMPT_SEARCH)
		return -1;
	if (sv_session_set_search(m->s, text, &err) < 0) {
		sv_session_message(m->s, true, "%s", err.msg);
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	return SV_REACT_REDRAW;
}

struct flame_paint {
	const struct flame_data *d;
	const struct sv_session *s;
	const struct sv_glyphs *gl;
	struct sv_grid *g;
	int x0, y0, w, rows;
	double scale; /* columns a nanosecond */
};

/* The column (from x0) of time offset t, in [-1, w + 1]. */
static int flame_col(const struct flame_paint *fp, double t)
{
	double c = t * fp->scale;
	return c < -1 ? -1 : c > fp->w + 1 ? fp->w + 1 : (int)c;
}

/* Frame n from time offset off (ns into the zoomed span) at row y. */
static void flame_frame(
	const struct flame_paint *fp, uint32_t n, int64_t off, int row)
{
	const struct sv_callpath *t = &fp->d->b.tree;
	const struct sv_callpath_node *x = &t->nodes[n];
	/* In double, clamped to the row before the cast: off + inclusive may
	 * pass INT64_MAX, and children may sum past their parent (issue
	 * 40). */
	int a = fp->x0 + flame_col(fp, (double)off);
	int b = fp->x0 + flame_col(fp, (double)off + (double)x->inclusive);
	uint32_t k;
	int64_t coff = off;
	const char *name = sv_callpath_name(t, n);
	bool match = sv_session_search_region(fp->s, x->region);
	int diff = sv_treebuild_diff_style(&fp->d->b, n);
	int style = n == fp->d->sel ? SV_STYLE_SELECTED
		    : match         ? SV_STYLE_MATCH
		    : diff >= 0     ? diff
				    : SV_STYLE_SPAN;
	/* Compared with a second run, the colour is the change's. */
	int color = diff >= 0 ? 0 : sv_session_region_color(fp->s, x->region);

	if (row >= fp->rows || b <= a || a >= fp->x0 + fp->w)
		return;
	if (b > fp->x0 + fp->w)
		b = fp->x0 + fp->w;
	if (a < fp->x0)
		a = fp->x0;
	sv_grid_fill(
		fp->g, a, fp->y0 + row, b, fp->y0 + row + 1, ' ', style, color);
	if (b - a >= 3)
		sv_grid_text(fp->g, a + 1, fp->y0 + row, b - a - 1, name, style,
			color, fp->gl->ellipsis);
	for (k = 0; k < x->nchildren; k++) {
		uint32_t c = t->child[x->first_child + k];
		flame_frame(fp, c, coff, row + 1);
		coff = sv_add_sat(coff, t->nodes[c].inclusive);
	}
}

static void flame_draw(
	const struct sv_mode *m, struct sv_grid *g, struct sv_rect r)
{
	const struct flame_data *d = m->data;
	const struct sv_session *s = m->s;
	const struct sv_callpath *t = flame_tree(d);
	struct flame_paint fp;
	char line[320], scope[200], f[6][16];
	int64_t span;
	uint32_t k;
	static const char *const hints[] = {
		"arrows select  Enter zoom  BSpace out  / search  e recursion  "
		"? help",
		"Enter zoom  BSpace out  ? help",
	};

	sv_grid_fill(g, r.x, r.y, r.x + r.w, r.y + r.h - 1, ' ',
		SV_STYLE_DEFAULT, 0);
	sv_treebuild_scope_text(s, scope, sizeof scope);
	snprintf(line, sizeof line, "Flame graph: %s%s%s%s%s%s", scope,
		d->b.has2 ? ", compared with " : "",
		d->b.has2 ? sv_session_name2(s) : "",
		d->expand ? ", recursion level by level" : "",
		t && d->zoom != SV_CALLPATH_NONE ? ", zoomed into " : "",
		t && d->zoom != SV_CALLPATH_NONE ? sv_callpath_name(t, d->zoom)
						 : "");
	sv_grid_text(g, r.x, r.y, r.w, line, SV_STYLE_PANEL_HEAD, 0,
		sv_render_glyphs(s->opts.ascii)->ellipsis);
	fp.d = d;
	fp.s = s;
	fp.gl = sv_render_glyphs(s->opts.ascii);
	fp.g = g;
	fp.x0 = r.x;
	fp.y0 = r.y + 1;
	fp.w = r.w;
	fp.rows = r.h - 3;
	span = !t                            ? 0
	       : d->zoom == SV_CALLPATH_NONE ? t->total
					     : t->nodes[d->zoom].inclusive;
	if (t && span > 0) {
		fp.scale = (double)r.w / (double)span;
		if (d->zoom != SV_CALLPATH_NONE) {
			flame_frame(&fp, d->zoom, 0, 0);
		} else {
			int64_t off = 0;
			for (k = 0; k < t->nroots; k++) {
				flame_frame(&fp, t->roots[k], off, 0);
				off = sv_add_sat(
					off, t->nodes[t->roots[k]].inclusive);
			}
		}
	}
	if (sv_treebuild_busy(&d->b)) {
		sv_treebuild_progress_text(&d->b, line, sizeof line);
		sv_grid_text(g, r.x + 2, r.y + r.h - 2, r.w - 4, line,
			SV_STYLE_WARNING, 0, 0);
	} else if (t && d->sel != SV_CALLPATH_NONE) {
		const struct sv_callpath_node *x = &t->nodes[d->sel];
		char second[96] = "";
		sv_treebuild_second_text(&d->b, d->sel, second, sizeof second);
		snprintf(line, sizeof line,
			"%s: incl %s (%.1f%%)%s  excl %s  calls %llu  avg %s  "
			"min %s  max %s%s",
			sv_callpath_name(t, d->sel),
			sv_render_short(x->inclusive, f[0], sizeof f[0]),
			sv_callpath_pct(t, d->sel), second,
			sv_render_short(x->exclusive, f[1], sizeof f[1]),
			(unsigned long long)x->calls,
			sv_render_short(
				sv_callpath_avg(t, d->sel), f[2], sizeof f[2]),
			sv_render_short(x->min, f[3], sizeof f[3]),
			sv_render_short(x->max, f[4], sizeof f[4]),
			x->recursive ? "  recursive" : "");
		sv_grid_text(g, r.x, r.y + r.h - 2, r.w, line, SV_STYLE_DETAILS,
			0, fp.gl->ellipsis);
	} else if (t) {
		sv_grid_text(g, r.x + 2, r.y + r.h - 2, r.w - 4,
			"no calls in this scope", SV_STYLE_DIM, 0, 0);
	}
	sv_render_status(g, s, r.y + r.h - 1, r.w, "  flame", hints, 2);
}

const struct sv_mode_ops sv_mode_flame = {
	.name = "flame",
	.title = "Flame graph",
	.main = true,
	.scopes = {SV_SCOPE_FLAME, SV_SCOPE_GLOBAL, 0},
	.size = sizeof(struct flame_data),
	.init = flame_init,
	.fini = flame_fini,
	.notify = flame_notify,
	.apply = flame_apply,
	.draw = flame_draw,
	.prompt = flame_prompt,
	.show = flame_show,
	.cancel = flame_cancel,
};
