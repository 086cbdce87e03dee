/*
 * mode_callers.c: callers and callees of one region as a mode (`:view
 * callers`, C): the bottom-up view, speedscope's sandwich.
 *
 * The region is the session's marked region, else the selected call's
 * (the call tree's C marks the region of its cursor).  Over the call tree
 * of the session's scope (treebuild.h, recursion collapsed, so no time
 * is counted twice) it lists every path that calls the region, with how
 * much of the region's time comes from it, and then every region the
 * region calls, merged over those paths.  Enter on a row makes its region
 * (the caller's, or the callee) the one shown.  Nothing here knows about
 * curses or HDF5.
 */
#include "scopeview/mode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
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
	long cur, top;
};

/* The region to show: the marked one, else the selected call's. */
static long callers_region(const struct sv_session *s)
{
	if (s->mark_region >= 0)
		return s->mark_region;
	if (s->sel != SV_NO_CALL)
		return (long)sv_call_region(s->p, s->sel);
	return -1;
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
static void callers_list(struct callers_data *d)
{
	const struct sv_callpath *t = &d->b.tree;
	long *slot;
	uint32_t i, k;

	d->nrows = d->ncallers = 0;
	d->calls = 0;
	d->incl = d->excl = 0;
	if (!d->b.ready || d->region < 0)
		return;
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
	qsort(d->rows + d->ncallers, d->nrows - d->ncallers, sizeof *d->rows,
		callers_cmp);
	free(slot);
	if (d->cur >= (long)d->nrows)
		d->cur = d->nrows ? (long)d->nrows - 1 : 0;
}

static void callers_start(struct sv_mode *m)
{
	struct callers_data *d = m->data;
	sv_treebuild_start(&d->b, m->s, false);
	d->stale = false;
	callers_list(d);
}

static int callers_init(struct sv_mode *m, struct sv_error *err)
{
	struct callers_data *d = m->data;
	(void)err;
	sv_treebuild_init(&d->b);
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
		sv_treebuild_fini(&d->b);
		sv_treebuild_init(&d->b);
		d->region = -1;
		d->nrows = 0;
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
		d->cur = d->top = 0;
		callers_list(d);
	}
}

static bool callers_busy(struct sv_mode *m)
{
	const struct callers_data *d = m->data;
	return sv_treebuild_busy(&d->b);
}

static int callers_poll(struct sv_mode *m)
{
	struct callers_data *d = m->data;
	if (!sv_treebuild_busy(&d->b))
		return 0;
	if (sv_treebuild_poll(&d->b))
		callers_list(d);
	return SV_REACT_REDRAW;
}

/* The screen row of list row i (a heading sits above each part). */
static long callers_line(const struct callers_data *d, long i)
{
	return i + 2 + (i >= (long)d->ncallers ? 1 : 0);
}

static int callers_apply(struct sv_mode *m, int a)
{
	struct callers_data *d = m->data;
	long page = m->h - 5 > 1 ? m->h - 5 : 1;
	const struct callers_row *r;

	switch (a) {
	case SV_ACTION_CALLERS_BACK:
		if (sv_treebuild_busy(&d->b)) {
			sv_treebuild_cancel(&d->b);
			return SV_REACT_REDRAW;
		}
		return sv_view_switch(m->view, "tree");
	case SV_ACTION_CALLERS_DOWN:
		if (d->cur + 1 >= (long)d->nrows)
			return SV_REACT_BELL;
		d->cur++;
		break;
	case SV_ACTION_CALLERS_UP:
		if (d->cur == 0)
			return SV_REACT_BELL;
		d->cur--;
		break;
	case SV_ACTION_CALLERS_FOCUS:
		if (!d->nrows)
			return SV_REACT_BELL;
		r = &d->rows[d->cur];
		if (!r->callee) {
			uint32_t par = d->b.tree.nodes[r->id].parent;
			if (par == SV_CALLPATH_NONE)
				return SV_REACT_BELL;
			d->region = d->b.tree.nodes[par].region;
		} else {
			d->region = r->id;
		}
		sv_session_mark_region(m->s, d->region);
		d->cur = d->top = 0;
		callers_list(d);
		return SV_REACT_REDRAW;
	default:
		return SV_REACT_BELL;
	}
	if (callers_line(d, d->cur) < d->top + 1)
		d->top = callers_line(d, d->cur) - 1;
	if (callers_line(d, d->cur) >= d->top + page)
		d->top = callers_line(d, d->cur) - page + 1;
	return SV_REACT_REDRAW;
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

static void callers_draw(
	const struct sv_mode *m, struct sv_grid *g, struct sv_rect r)
{
	const struct callers_data *d = m->data;
	const struct sv_session *s = m->s;
	const struct sv_glyphs *gl = sv_render_glyphs(s->opts.ascii);
	const struct sv_callpath *t = d->b.ready ? &d->b.tree : NULL;
	char line[400], scope[200], f[3][16], name[256];
	long i, rows = r.h - 2;
	static const char *const hints[] = {
		"j/k move  Enter show that region  Esc call tree  ? help",
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
	for (i = 0; t && d->region >= 0 && i <= (long)d->nrows; i++) {
		long y = callers_line(d, i) - d->top;
		const struct callers_row *row;
		int style;
		if (i == 0 || i == (long)d->ncallers) {
			long hy =
				(i == 0 ? 1 : callers_line(d, i) - 1) - d->top;
			if (hy >= 1 && hy <= rows)
				sv_grid_textf(g, r.x, r.y + (int)hy, r.w,
					SV_STYLE_PANEL_HEAD, 0,
					"%s   calls    incl    excl  share",
					i == 0 ? "called from" : "calls      ");
		}
		if (i == (long)d->nrows)
			break;
		if (y < 1 || y > rows)
			continue;
		row = &d->rows[i];
		style = i == d->cur ? SV_STYLE_PANEL_CURSOR : SV_STYLE_PANEL;
		if (row->callee)
			snprintf(name, sizeof name, "%s",
				s->p->regions[row->id]);
		else
			callers_path(t, row->id, name, sizeof name);
		sv_grid_fill(g, r.x, r.y + (int)y, r.x + r.w, r.y + (int)y + 1,
			' ', style, 0);
		sv_grid_textf(g, r.x, r.y + (int)y, r.w, style, 0,
			"           %6llu %7s %7s %5.1f%%  ",
			(unsigned long long)row->calls,
			sv_render_short(row->incl, f[0], sizeof f[0]),
			sv_render_short(row->excl, f[1], sizeof f[1]),
			d->incl > 0
				? 100.0 * (double)row->incl / (double)d->incl
				: 0.0);
		sv_grid_text(g, r.x + 45, r.y + (int)y, r.w - 45, name, style,
			0, gl->ellipsis);
	}
	if (sv_treebuild_busy(&d->b)) {
		sv_treebuild_progress_text(&d->b, line, sizeof line);
		sv_grid_text(g, r.x + 2, r.y + r.h - 2, r.w - 4, line,
			SV_STYLE_WARNING, 0, 0);
	}
	sv_render_status(g, s, r.y + r.h - 1, r.w, "  callers", hints, 2);
}

const struct sv_mode_ops sv_mode_callers = {
	.name = "callers",
	.title = "Callers and callees",
	.main = true,
	.scopes = {SV_SCOPE_CALLERS, SV_SCOPE_GLOBAL, 0},
	.size = sizeof(struct callers_data),
	.init = callers_init,
	.fini = callers_fini,
	.notify = callers_notify,
	.apply = callers_apply,
	.draw = callers_draw,
	.show = callers_show,
	.busy = callers_busy,
	.poll = callers_poll,
};
