/*
 * mode_callers.c: callers and callees of one region as a mode (`:view
 * callers`, C): the bottom-up view, speedscope's sandwich.
 *
 * The region is the session's marked region, else the selected call's
 * (the call tree's C marks the region of its cursor).  Over the call tree
 * of the session's scope (treebuild.h, recursion collapsed, so no time
 * is counted twice) it lists every path that calls the region, with how
 * much of the region's time comes from it, and then every region the
 * region calls, merged over those paths: a list (list.h) with a heading
 * over each part that the cursor passes over.  Enter on a row makes its
 * region (the caller's, or the callee) the one shown.  Nothing here knows
 * about curses or HDF5.
 */
#include "scopeview/mode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/list.h"
#include "scopeview/render.h"
#include "scopeview/treebuild.h"
#include "scopeview/view.h"

struct callers_row {
	bool callee; /* a callee (else a calling path) */
	uint32_t id; /* the path's node, or the callee's region */
	uint64_t calls;
	int64_t incl, excl;
};

struct callers_data {
	struct sv_treebuild b;
	bool stale;
	long region; /* the region shown, -1 none */
	struct callers_row *rows;
	size_t nrows, ncallers, cap;
	uint64_t calls;
	int64_t incl, excl;
	/* Over the rows with a heading above each part: list row 0 is the
	 * callers' heading, 1 .. ncallers the callers, then the callees'
	 * heading and the callees. */
	struct sv_list list;
};

/* The region to show: the marked one, else the selected call's, else the
 * one of the most time. */
static long callers_region(struct sv_session *s)
{
	if (s->mark_region >= 0)
		return s->mark_region;
	/* the selected call's, else the region of the most time: marked,
	 * and said */
	return sv_session_mark_default(s);
}

/* The row of list row i, or NULL for a heading. */
static const struct callers_row *callers_row(
	const struct callers_data *d, long i)
{
	if (i <= 0 || i == (long)d->ncallers + 1 || i > (long)d->nrows + 1)
		return NULL;
	return &d->rows[i <= (long)d->ncallers ? i - 1 : i - 2];
}

/* The list's rows: the two headings and the rows, or none. */
static void callers_rows_changed(
	struct callers_data *d, const struct sv_mode *m)
{
	sv_list_set_rows(&d->list,
		d->b.ready && d->region >= 0 ? (long)d->nrows + 2 : 0);
	sv_list_set_cursor(m, &d->list, d->list.cur);
}

static void callers_add(struct callers_data *d, bool callee, uint32_t id,
	const struct sv_callpath_node *n)
{
	sv_grow((void **)&d->rows, &d->cap, d->nrows + 1, sizeof *d->rows);
	d->rows[d->nrows].callee = callee;
	d->rows[d->nrows].id = id;
	d->rows[d->nrows].calls = n->calls;
	d->rows[d->nrows].incl = n->inclusive;
	d->rows[d->nrows].excl = n->exclusive;
	d->nrows++;
}

static int callers_cmp(const void *a, const void *b)
{
	const struct callers_row *x = a, *y = b;
	if (x->incl != y->incl)
		return x->incl < y->incl ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The rows of the region from the finished tree. */
static void callers_list(struct sv_mode *m)
{
	struct callers_data *d = m->data;
	const struct sv_callpath *t = &d->b.tree;
	long *slot;
	uint32_t i, k;

	d->nrows = d->ncallers = 0;
	d->calls = 0;
	d->incl = d->excl = 0;
	if (!d->b.ready || d->region < 0) {
		callers_rows_changed(d, m);
		return;
	}
	slot = sv_xmalloc(((size_t)t->p->nregions + 1) * sizeof *slot);
	for (i = 0; i < t->p->nregions; i++)
		slot[i] = -1;
	for (i = 0; i < t->nnodes; i++) {
		const struct sv_callpath_node *n = &t->nodes[i];
		if (n->region != (uint32_t)d->region)
			continue;
		callers_add(d, false, i, n);
		d->calls += n->calls;
		/* Saturated: each path's time may be near INT64_MAX. */
		d->incl = sv_add_sat(d->incl, n->inclusive);
		d->excl = sv_add_sat(d->excl, n->exclusive);
	}
	d->ncallers = d->nrows;
	if (d->ncallers > 0)
		qsort(d->rows, d->ncallers, sizeof *d->rows, callers_cmp);
	for (i = 0; i < d->ncallers; i++) {
		const struct sv_callpath_node *n = &t->nodes[d->rows[i].id];
		for (k = 0; k < n->nchildren; k++) {
			const struct sv_callpath_node *c =
				&t->nodes[t->child[n->first_child + k]];
			struct callers_row *r;
			if (slot[c->region] < 0) {
				slot[c->region] = (long)d->nrows;
				callers_add(d, true, c->region, c);
				continue;
			}
			r = &d->rows[slot[c->region]];
			r->calls += c->calls;
			r->incl = sv_add_sat(r->incl, c->inclusive);
			r->excl = sv_add_sat(r->excl, c->exclusive);
		}
	}
	if (d->nrows > d->ncallers)
		qsort(d->rows + d->ncallers, d->nrows - d->ncallers,
			sizeof *d->rows, callers_cmp);
	free(slot);
	callers_rows_changed(d, m);
}

/* A build is in (treebuild.h's done): the rows from the new tree. */
static void callers_built(void *owner)
{
	callers_list(owner);
}

static void callers_start(struct sv_mode *m)
{
	struct callers_data *d = m->data;
	d->stale = false;
	sv_treebuild_start(&d->b, m->s, false);
	if (sv_treebuild_busy(&d->b))
		callers_list(m); /* the old tree's rows until then */
}

/* Enter: the row's region (the caller's, or the callee) is shown. */
static int callers_enter(struct sv_mode *m, struct sv_list *l, long i)
{
	struct callers_data *d = m->data;
	const struct callers_row *r = callers_row(d, i);

	(void)l;
	if (!r)
		return SV_REACT_BELL;
	if (!r->callee) {
		uint32_t par = d->b.tree.nodes[r->id].parent;
		if (par == SV_CALLPATH_NONE)
			return SV_REACT_BELL;
		d->region = d->b.tree.nodes[par].region;
	} else {
		d->region = r->id;
	}
	sv_session_mark_region(m->s, d->region);
	d->list.cur = d->list.top = 0;
	callers_list(m);
	return SV_REACT_REDRAW;
}

static bool callers_heading(
	const struct sv_mode *m, const struct sv_list *l, long i)
{
	(void)l;
	return !callers_row(m->data, i);
}

static bool callers_match(
	const struct sv_mode *m, const struct sv_list *l, long i)
{
	const struct callers_data *d = m->data;
	const struct callers_row *r = callers_row(d, i);
	uint32_t region;

	(void)l;
	if (!r || !sv_session_search_regions(m->s))
		return false;
	region = r->callee ? r->id : d->b.tree.nodes[r->id].region;
	return sv_session_search_region(m->s, region);
}

/* The row's caller path, root first: "main > timestep". */
static void callers_path(
	const struct sv_callpath *t, uint32_t n, char *buf, size_t len)
{
	uint32_t path[64];
	size_t k = sv_callpath_path(t, n, path, 64), i, used = 0;

	buf[0] = '\0';
	if (k <= 1) {
		snprintf(buf, len, "(top level)");
		return;
	}
	for (i = 0; i + 1 < k && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
			i ? " > " : "", sv_callpath_name(t, path[i]));
}

static void callers_draw_row(const struct sv_mode *m, const struct sv_list *l,
	struct sv_grid *g, long i, int x, int y, int w, int style)
{
	const struct callers_data *d = m->data;
	const struct sv_session *s = m->s;
	const struct sv_glyphs *gl = sv_render_glyphs(s->opts.ascii);
	const struct callers_row *row = callers_row(d, i);
	char f[2][16], name[256];

	(void)l;
	if (!row) {
		sv_grid_textf(g, x, y, w, SV_STYLE_PANEL_HEAD, 0,
			"%s   calls    incl    excl  share",
			i == 0 ? "called from" : "calls      ");
		return;
	}
	if (row->callee)
		snprintf(name, sizeof name, "%s", s->p->regions[row->id]);
	else
		callers_path(&d->b.tree, row->id, name, sizeof name);
	sv_grid_textf(g, x, y, w, style, 0,
		"           %6llu %7s %7s %5.1f%%  ",
		(unsigned long long)row->calls,
		sv_render_short(row->incl, f[0], sizeof f[0]),
		sv_render_short(row->excl, f[1], sizeof f[1]),
		d->incl > 0 ? 100.0 * (double)row->incl / (double)d->incl
			    : 0.0);
	sv_grid_text(g, x + 45, y, w - 45, name, style, 0, gl->ellipsis);
}

static const struct sv_list_ops callers_list_ops = {
	.draw_row = callers_draw_row,
	.enter = callers_enter,
	.enter_help = "Show the row's region: the caller, or the callee",
	.match = callers_match,
	.heading = callers_heading,
};

static void callers_place(struct sv_mode *m)
{
	struct callers_data *d = m->data;
	sv_list_place(&d->list, 0, 1, m->w, m->h - 2);
}

static int callers_init(struct sv_mode *m, struct sv_error *err)
{
	struct callers_data *d = m->data;
	(void)err;
	m->w = m->w ? m->w : 120;
	m->h = m->h ? m->h : 40;
	sv_list_init(&d->list, &callers_list_ops, -1);
	callers_place(m);
	sv_treebuild_init(&d->b, &m->s->jobs, callers_built, m);
	d->region = callers_region(m->s);
	callers_start(m);
	return 0;
}

static void callers_fini(struct sv_mode *m)
{
	struct callers_data *d = m->data;
	sv_treebuild_fini(&d->b);
	free(d->rows);
}

static void callers_notify(struct sv_mode *m, unsigned what)
{
	struct callers_data *d = m->data;
	if (what & SV_SESSION_PROFILE) {
		sv_treebuild_reset(&d->b);
		d->region = -1;
		d->nrows = 0;
		sv_list_set_rows(&d->list, 0);
	}
	if (!(what &
		    (SV_SESSION_PROFILE | SV_SESSION_LANES | SV_SESSION_RANGE)))
		return;
	if (sv_view_main_mode(m->view) == m)
		callers_start(m);
	else
		d->stale = true;
}

static void callers_show(struct sv_mode *m)
{
	struct callers_data *d = m->data;
	long r = callers_region(m->s);
	if (d->stale)
		callers_start(m);
	if (r != d->region) {
		d->region = r;
		d->list.cur = d->list.top = 0;
		callers_list(m);
	}
}

static void callers_resize(struct sv_mode *m, int w, int h)
{
	m->w = w;
	m->h = h;
	callers_place(m);
}

/* Esc while the tree is built: stop, and build again when shown. */
static void callers_cancel(struct sv_mode *m)
{
	struct callers_data *d = m->data;
	if (!sv_treebuild_busy(&d->b))
		return;
	sv_treebuild_cancel(&d->b);
	d->stale = true;
}

static struct sv_list *callers_list_of(struct sv_mode *m)
{
	struct callers_data *d = m->data;
	return &d->list;
}

static void callers_draw(
	const struct sv_mode *m, struct sv_grid *g, struct sv_rect r)
{
	const struct callers_data *d = m->data;
	const struct sv_session *s = m->s;
	const struct sv_glyphs *gl = sv_render_glyphs(s->opts.ascii);
	char line[400], scope[200], f[2][16];
	static const char *const hints[] = {
		"j/k move  Enter show that region  Esc back  ? help",
		"Enter show  ? help",
	};

	sv_grid_fill(g, r.x, r.y, r.x + r.w, r.y + r.h - 1, ' ',
		SV_STYLE_DEFAULT, 0);
	sv_treebuild_scope_text(s, scope, sizeof scope);
	if (d->region < 0)
		snprintf(line, sizeof line,
			"Callers: no region (mark one in a panel, select a "
			"call, or press C in the call tree)");
	else
		snprintf(line, sizeof line,
			"Callers of %s: %llu calls, incl %s, excl %s; %s",
			s->p->regions[d->region], (unsigned long long)d->calls,
			sv_render_short(d->incl, f[0], sizeof f[0]),
			sv_render_short(d->excl, f[1], sizeof f[1]), scope);
	sv_grid_text(
		g, r.x, r.y, r.w, line, SV_STYLE_PANEL_HEAD, 0, gl->ellipsis);
	sv_list_draw(m, &d->list, g);
	if (sv_treebuild_busy(&d->b)) {
		sv_treebuild_progress_text(&d->b, line, sizeof line);
		sv_grid_text(g, r.x + 2, r.y + r.h - 2, r.w - 4, line,
			SV_STYLE_WARNING, 0, 0);
	}
	snprintf(line, sizeof line, "  callers %ld/%zu",
		d->nrows ? d->list.cur -
				   (d->list.cur > (long)d->ncallers ? 1 : 0)
			 : 0,
		d->nrows);
	sv_render_status(g, s, r.y + r.h - 1, r.w, line, hints, 2);
}

const struct sv_mode_ops sv_mode_callers = {
	.name = "callers",
	.title = "Callers and callees",
	.main = true,
	.scopes = {SV_SCOPE_CALLERS, SV_SCOPE_LIST, SV_SCOPE_GLOBAL, 0},
	.size = sizeof(struct callers_data),
	.init = callers_init,
	.fini = callers_fini,
	.notify = callers_notify,
	.resize = callers_resize,
	.draw = callers_draw,
	.show = callers_show,
	.cancel = callers_cancel,
	.list = callers_list_of,
};
