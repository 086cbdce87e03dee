/*
 * mode_tree.c: the call tree as a mode (`:view tree`, T).
 *
 * One row per distinct call path of the session's scope (treebuild.h:
 * the lanes on display and the marked time range), indented with
 * box-drawing characters under its caller, with calls, inclusive,
 * exclusive, average, min and max time and the share of the scope's
 * time.  The rows are a list (list.h: the list keys move, < > sort the
 * siblings by any column, n and N go through the search's rows).  Paths
 * open and close one level at a time (Right, Left) or all at once (*);
 * a search opens every path to its regions; Enter selects the path's
 * longest call on the timeline and shows it there.  The tree is built off the UI thread when it is
 * large, with a progress line, and drawn only from the finished tree, so
 * a frame costs the rows on screen.  Nothing here knows about curses or
 * HDF5.
 */
#include "scopeview/mode.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/list.h"
#include "scopeview/render.h"
#include "scopeview/timeline.h"
#include "scopeview/treebuild.h"
#include "scopeview/view.h"

/* The figure columns, in the order < and > step through them. */
static const struct {
	const char *title;
	int key;   /* enum sv_callpath_key, -1 for the share */
	int min_w; /* the screen width from which the column shows */
} tree_cols[] = {
	{"calls", SV_CALLPATH_KEY_CALLS, 0},
	{"incl", SV_CALLPATH_KEY_INCL, 0},
	{"excl", SV_CALLPATH_KEY_EXCL, 0},
	{"avg", SV_CALLPATH_KEY_AVG, 70},
	{"min", SV_CALLPATH_KEY_MIN, 100},
	{"max", SV_CALLPATH_KEY_MAX, 100},
	{"%", -1, 0},
};
#define TREE_NCOLS (sizeof tree_cols / sizeof tree_cols[0])
/* The columns the list sorts by: tree_cols but the share. */
#define TREE_NSORT ((int)TREE_NCOLS - 1)
static const char *const tree_key_help[SV_CALLPATH_KEY_COUNT] = {
#define TREE_KEY_HELP(id, name, help) help,
	SV_CALLPATH_KEYS(TREE_KEY_HELP)
#undef TREE_KEY_HELP
};
/* tree_cols' keys are the table's from CALLS on, in its order. */
static const char *const *const tree_sort_names =
	tree_key_help + SV_CALLPATH_KEY_CALLS;
#define TREE_COL_W  8
#define TREE_HEAD_H 2 /* title and column heads */

struct tree_data {
	struct sv_treebuild b;
	bool expand;    /* recursion level by level */
	bool stale;     /* the input changed while another view was shown */
	bool all_open;  /* the last * opened everything */
	int sort;       /* enum sv_callpath_key */
	bool *open;     /* per node of the tree */
	bool *last;     /* per node: the last of its siblings */
	uint32_t *rows; /* the nodes on display, in order */
	uint32_t nrows;
	struct sv_list list; /* over rows */
	/* The cursor's path as regions, to find it again after a rebuild,
	 * and the open paths (tree_path_keys), sorted, to open them again;
	 * had_tree: a tree was shown before (else the first levels open). */
	uint32_t want[64];
	size_t nwant;
	uint64_t *open_keys;
	size_t nopen_keys;
	bool had_tree;
	const struct sv_session *session;
};

static const struct sv_callpath *tree_of(const struct tree_data *d)
{
	return d->b.ready ? &d->b.tree : NULL;
}

static void tree_add_rows(struct tree_data *d, uint32_t parent)
{
	const struct sv_callpath *t = &d->b.tree;
	uint32_t cnt, k;
	const uint32_t *kids = sv_callpath_children(t, parent, &cnt);

	for (k = 0; k < cnt; k++) {
		d->last[kids[k]] = k + 1 == cnt;
		d->rows[d->nrows++] = kids[k];
		if (d->open[kids[k]])
			tree_add_rows(d, kids[k]);
	}
}

/* Rebuild the rows from the open flags; keep the cursor on node keep. */
static void tree_relist(struct tree_data *d, uint32_t keep)
{
	uint32_t i;

	d->nrows = 0;
	if (tree_of(d))
		tree_add_rows(d, SV_CALLPATH_NONE);
	sv_list_set_rows(&d->list, d->nrows);
	for (i = 0; i < d->nrows && keep != SV_CALLPATH_NONE; i++)
		if (d->rows[i] == keep)
			sv_list_set_cursor(NULL, &d->list, i);
}

static uint32_t tree_cur_node(const struct tree_data *d)
{
	return d->nrows ? d->rows[d->list.cur] : SV_CALLPATH_NONE;
}

/* Open every path to a region the search matches, so that each match is
 * a row (n and N go through them). */
static void tree_open_matches(struct tree_data *d)
{
	const struct sv_callpath *t = tree_of(d);
	const bool *match = sv_session_search_regions(d->session);
	uint32_t n, a;

	for (n = 0; t && match && n < t->nnodes; n++)
		if (match[t->nodes[n].region])
			for (a = t->nodes[n].parent; a != SV_CALLPATH_NONE;
				a = t->nodes[a].parent)
				d->open[a] = true;
}

/* A key per node of t for its path (the regions root to node), the same
 * in every tree built from the profile: a mix of the parent's key and
 * the region, in node order (parents come first).  malloc'd. */
static uint64_t *tree_path_keys(const struct sv_callpath *t)
{
	uint64_t *k = sv_xmalloc(((size_t)t->nnodes + 1) * sizeof *k);
	uint32_t i;

	for (i = 0; i < t->nnodes; i++) {
		uint32_t par = t->nodes[i].parent;
		uint64_t h = par == SV_CALLPATH_NONE ? 0x9E3779B97F4A7C15ull
						     : k[par];
		h ^= (uint64_t)t->nodes[i].region + 0x632BE59BD9B4E019ull +
		     (h << 6) + (h >> 2);
		k[i] = h * 0xFF51AFD7ED558CCDull;
	}
	return k;
}

static int tree_key_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Remember the cursor's path by its regions, and the open paths. */
static void tree_remember(struct tree_data *d)
{
	uint32_t n = tree_cur_node(d), path[64];
	size_t k, i;
	const struct sv_callpath *t = &d->b.tree;

	free(d->open_keys);
	d->open_keys = NULL;
	d->nopen_keys = 0;
	if (d->open && t->nnodes) {
		uint64_t *keys = tree_path_keys(t);
		for (i = 0; i < t->nnodes; i++)
			if (d->open[i])
				keys[d->nopen_keys++] = keys[i];
		qsort(keys, d->nopen_keys, sizeof *keys, tree_key_cmp);
		d->open_keys = keys;
		d->had_tree = true;
	}
	d->nwant = 0;
	if (n == SV_CALLPATH_NONE)
		return;
	k = sv_callpath_path(&d->b.tree, n, path, 64);
	for (i = 0; i < k; i++)
		d->want[i] = d->b.tree.nodes[path[i]].region;
	d->nwant = k;
}

/* A new tree: the paths open in the last one (the first two levels in
 * the first), and the remembered path. */
static void tree_adopt(struct tree_data *d)
{
	const struct sv_callpath *t = &d->b.tree;
	uint32_t i, node = SV_CALLPATH_NONE;
	size_t k;

	free(d->open);
	free(d->last);
	free(d->rows);
	d->open = sv_xcalloc((size_t)t->nnodes + 1, sizeof *d->open);
	d->last = sv_xcalloc((size_t)t->nnodes + 1, sizeof *d->last);
	d->rows = sv_xmalloc(((size_t)t->nnodes + 1) * sizeof *d->rows);
	if (d->had_tree) {
		/* The paths open before stay open (by path: node numbers
		 * differ in a new tree); the others stay closed. */
		uint64_t *keys = tree_path_keys(t);
		for (i = 0; i < t->nnodes; i++)
			d->open[i] =
				d->all_open ||
				(d->nopen_keys &&
					bsearch(&keys[i], d->open_keys,
						d->nopen_keys, sizeof *keys,
						tree_key_cmp));
		free(keys);
	} else if (!d->nwant) {
		/* The first tree opens on the answer: the path to the node of
		 * the most exclusive time, the cursor on it. */
		uint32_t best = SV_CALLPATH_NONE;
		for (i = 0; i < t->nnodes; i++)
			if (best == SV_CALLPATH_NONE ||
				t->nodes[i].exclusive >
					t->nodes[best].exclusive)
				best = i;
		for (i = 0; i < t->nnodes; i++)
			d->open[i] = t->nodes[i].depth < 1;
		if (best != SV_CALLPATH_NONE) {
			uint32_t a = t->nodes[best].parent;
			for (; a != SV_CALLPATH_NONE; a = t->nodes[a].parent)
				d->open[a] = true;
			node = best;
		}
	} else {
		for (i = 0; i < t->nnodes; i++)
			d->open[i] = t->nodes[i].depth < 1;
	}
	for (k = 0; k < d->nwant; k++) {
		uint32_t cnt, j, next = SV_CALLPATH_NONE;
		const uint32_t *kids = sv_callpath_children(t, node, &cnt);
		for (j = 0; j < cnt; j++)
			if (t->nodes[kids[j]].region == d->want[k])
				next = kids[j];
		if (next == SV_CALLPATH_NONE)
			break;
		if (node != SV_CALLPATH_NONE)
			d->open[node] = true;
		node = next;
	}
	if (d->sort != SV_CALLPATH_KEY_INCL)
		sv_callpath_sort(&d->b.tree, (enum sv_callpath_key)d->sort);
	d->list.cur = 0;
	tree_open_matches(d);
	tree_relist(d, node);
}

/* A build is in (treebuild.h's done): a finished tree is shown. */
static void tree_built(void *owner)
{
	struct sv_mode *m = owner;
	struct tree_data *d = m->data;
	if (d->b.ready && !d->b.cancelled)
		tree_adopt(d);
}

static void tree_start(struct sv_mode *m)
{
	struct tree_data *d = m->data;
	if (tree_of(d))
		tree_remember(d);
	d->stale = false;
	sv_treebuild_start(&d->b, m->s, d->expand);
}

static bool tree_shown(const struct sv_mode *m)
{
	return sv_view_main_mode(m->view) == m;
}

static uint32_t tree_row_node(const struct sv_list *l, long row)
{
	const struct tree_data *d =
		(const struct tree_data *)((const char *)l -
					   offsetof(struct tree_data, list));
	return d->rows[row];
}

/* Select node n's longest call on the timeline and show it there. */
static int tree_enter(struct sv_mode *m, struct sv_list *l, long row)
{
	struct tree_data *d = m->data;
	uint32_t n = tree_row_node(l, row);
	uint32_t c = d->b.tree.nodes[n].longest;
	int rc;

	if (c == SV_NO_CALL)
		return SV_REACT_BELL;
	rc = sv_view_show_call(m->view, c, false);
	sv_session_message(m->s, false, "the longest call of that path");
	return rc | SV_REACT_REDRAW;
}

static bool tree_match(
	const struct sv_mode *m, const struct sv_list *l, long row)
{
	const struct tree_data *d = m->data;
	return sv_session_search_region(
		m->s, d->b.tree.nodes[tree_row_node(l, row)].region);
}

static uint64_t tree_key(
	const struct sv_mode *m, const struct sv_list *l, long row)
{
	(void)m;
	return tree_row_node(l, row);
}

/* Siblings by sort column col (tree_cols' order). */
static int tree_sort(struct sv_mode *m, struct sv_list *l, int col, bool rev)
{
	struct tree_data *d = m->data;
	(void)l;
	if (rev)
		return -1;
	d->sort = tree_cols[col].key;
	if (tree_of(d)) {
		sv_callpath_sort(&d->b.tree, (enum sv_callpath_key)d->sort);
		tree_relist(d, SV_CALLPATH_NONE);
	}
	return col;
}

static void tree_draw_row(const struct sv_mode *m, const struct sv_list *l,
	struct sv_grid *g, long row, int x0, int y, int w, int style);

static const struct sv_list_ops tree_list_ops = {
	.draw_row = tree_draw_row,
	.enter = tree_enter,
	.enter_help = "Select the path's longest call on the timeline",
	.match = tree_match,
	.key = tree_key,
	.cols = tree_sort_names,
	.ncols = TREE_NSORT,
	.sort = tree_sort,
};

static void tree_place(struct sv_mode *m)
{
	struct tree_data *d = m->data;
	sv_list_place(&d->list, 0, TREE_HEAD_H, m->w, m->h - TREE_HEAD_H - 1);
}

static int tree_init(struct sv_mode *m, struct sv_error *err)
{
	struct tree_data *d = m->data;
	(void)err;
	m->w = m->w ? m->w : 120;
	m->h = m->h ? m->h : 40;
	d->session = m->s;
	sv_list_init(&d->list, &tree_list_ops, 1);
	tree_place(m);
	sv_treebuild_init(&d->b, &m->s->jobs, tree_built, m);
	d->sort = SV_CALLPATH_KEY_INCL;
	tree_start(m);
	return 0;
}

static void tree_fini(struct sv_mode *m)
{
	struct tree_data *d = m->data;
	sv_treebuild_fini(&d->b);
	free(d->open_keys);
	free(d->open);
	free(d->last);
	free(d->rows);
}

static void tree_resize(struct sv_mode *m, int w, int h)
{
	m->w = w;
	m->h = h;
	tree_place(m);
}

static void tree_notify(struct sv_mode *m, unsigned what)
{
	struct tree_data *d = m->data;
	if ((what & SV_SESSION_SEARCH) && tree_of(d)) {
		tree_open_matches(d);
		tree_relist(d, tree_cur_node(d));
	}
	if (!(what & (SV_SESSION_PROFILE | SV_SESSION_LANES | SV_SESSION_RANGE |
			     SV_SESSION_SECOND)))
		return;
	if (what & (SV_SESSION_PROFILE | SV_SESSION_SECOND)) {
		/* The old trees point into the old profiles (and a build
		 * under way reads the second run's). */
		sv_treebuild_reset(&d->b);
		d->nrows = 0;
		sv_list_set_rows(&d->list, 0);
		d->nwant = 0;
	}
	if (tree_shown(m) || (what & SV_SESSION_PROFILE))
		tree_start(m);
	else
		d->stale = true;
}

static void tree_show(struct sv_mode *m)
{
	struct tree_data *d = m->data;
	if (d->stale)
		tree_start(m);
}

/* Esc while the tree is built: stop, and build again when shown. */
static void tree_cancel(struct sv_mode *m)
{
	struct tree_data *d = m->data;
	if (!sv_treebuild_busy(&d->b))
		return;
	sv_treebuild_cancel(&d->b);
	d->stale = true;
}

static struct sv_list *tree_list(struct sv_mode *m)
{
	struct tree_data *d = m->data;
	return &d->list;
}

static int tree_apply(struct sv_mode *m, int a)
{
	struct tree_data *d = m->data;
	const struct sv_callpath *t = tree_of(d);
	uint32_t n = tree_cur_node(d), i;

	if (a == SV_ACTION_TREE_RECURSION) {
		d->expand = !d->expand;
		tree_start(m);
		sv_session_message(m->s, false, "recursion %s",
			d->expand ? "level by level" : "collapsed");
		return SV_REACT_REDRAW;
	}
	if (!t || !d->nrows)
		return SV_REACT_BELL;
	switch (a) {
	case SV_ACTION_TREE_EXPAND:
		if (!t->nodes[n].nchildren || d->open[n])
			return SV_REACT_BELL;
		d->open[n] = true;
		tree_relist(d, n);
		return SV_REACT_REDRAW;
	case SV_ACTION_TREE_COLLAPSE:
		if (d->open[n] && t->nodes[n].nchildren) {
			d->open[n] = false;
			tree_relist(d, n);
		} else if (t->nodes[n].parent != SV_CALLPATH_NONE) {
			tree_relist(d, t->nodes[n].parent);
		} else {
			return SV_REACT_BELL;
		}
		return SV_REACT_REDRAW;
	case SV_ACTION_TREE_ALL:
		d->all_open = !d->all_open;
		for (i = 0; i < t->nnodes; i++)
			d->open[i] = d->all_open;
		while (!d->all_open && n != SV_CALLPATH_NONE &&
			t->nodes[n].parent != SV_CALLPATH_NONE)
			n = t->nodes[n].parent;
		tree_relist(d, n);
		return SV_REACT_REDRAW;
	case SV_ACTION_TREE_CALLERS:
		sv_session_mark_region(m->s, (long)t->nodes[n].region);
		return sv_view_switch(m->view, "callers");
	default:
		return SV_REACT_BELL;
	}
}

/* The figure of column col for node n, formatted into buf. */
static void tree_cell(const struct sv_callpath *t, uint32_t n, size_t col,
	char *buf, size_t len)
{
	int key = tree_cols[col].key;
	if (key < 0)
		snprintf(buf, len, "%.1f", sv_callpath_pct(t, n));
	else if (key == SV_CALLPATH_KEY_CALLS)
		snprintf(buf, len, "%llu",
			(unsigned long long)t->nodes[n].calls);
	else
		sv_render_short(
			sv_callpath_figure(t, n, (enum sv_callpath_key)key),
			buf, len);
}

/* The branch glyphs of row node n at x; returns the cells used. */
static int tree_branches(const struct tree_data *d, const struct sv_glyphs *gl,
	struct sv_grid *g, int x, int y, int maxw, uint32_t n, int style)
{
	const struct sv_callpath *t = &d->b.tree;
	uint32_t depth = t->nodes[n].depth, k, a;
	int used = 0;

	for (k = 1; k <= depth && used + 3 <= maxw; k++) {
		/* the ancestor at depth k (n itself at k == depth) */
		a = n;
		while (t->nodes[a].depth > k)
			a = t->nodes[a].parent;
		if (k < depth)
			sv_grid_put(g, x + used, y,
				d->last[a] ? ' ' : gl->vline, style, 0);
		else
			sv_grid_put(g, x + used, y,
				d->last[a] ? gl->bl
					   : (gl->ascii ? '|' : 0x251c),
				style, 0);
		sv_grid_put(g, x + used + 1, y, k < depth ? ' ' : gl->hline,
			style, 0);
		sv_grid_put(g, x + used + 2, y, ' ', style, 0);
		used += 3;
	}
	return used;
}

static void tree_draw_row(const struct sv_mode *m, const struct sv_list *l,
	struct sv_grid *g, long row, int x0, int y, int w, int style)
{
	const struct tree_data *d = m->data;
	const struct sv_glyphs *gl = sv_render_glyphs(m->s->opts.ascii);
	const struct sv_callpath *t = &d->b.tree;
	uint32_t n = tree_row_node(l, row);
	const struct sv_callpath_node *nd = &t->nodes[n];
	char cell[32];
	int x = x0, end = x0 + w;
	size_t c;

	for (c = 0; c < TREE_NCOLS; c++) {
		int cs = style;
		if (w < tree_cols[c].min_w)
			continue;
		tree_cell(t, n, c, cell, sizeof cell);
		/* Compared with a second run: the change's colour on the
		 * inclusive time. */
		if (tree_cols[c].key == SV_CALLPATH_KEY_INCL &&
			style == SV_STYLE_PANEL &&
			sv_treebuild_diff_style(&d->b, n) >= 0)
			cs = sv_treebuild_diff_style(&d->b, n);
		sv_grid_textf(g, x, y, TREE_COL_W, cs, 0, "%*s ",
			TREE_COL_W - 1, cell);
		x += TREE_COL_W;
	}
	x += 1;
	x += tree_branches(d, gl, g, x, y, end - x, n, style);
	sv_grid_put(g, x++, y,
		!nd->nchildren ? ' '
		: d->open[n]   ? gl->expanded
			       : gl->collapsed,
		style, 0);
	x += sv_grid_text(g, x, y, end - x, sv_callpath_name(t, n), style,
		sv_session_region_color(m->s, nd->region), gl->ellipsis);
	if (nd->recursive)
		x += sv_grid_text(g, x, y, end - x, " (recursive)", style, 0,
			gl->ellipsis);
	if (d->b.has2 && x < end) {
		char second[96] = "";
		sv_treebuild_second_text(&d->b, n, second, sizeof second);
		sv_grid_text(g, x, y, end - x, second,
			style == SV_STYLE_PANEL ? SV_STYLE_DIM : style, 0,
			gl->ellipsis);
	}
}

static void tree_draw(
	const struct sv_mode *m, struct sv_grid *g, struct sv_rect r)
{
	const struct tree_data *d = m->data;
	const struct sv_session *s = m->s;
	const struct sv_glyphs *gl = sv_render_glyphs(s->opts.ascii);
	const struct sv_callpath *t = tree_of(d);
	char line[320], scope[200], cell[32];
	int rows = r.h - TREE_HEAD_H - 1, x;
	size_t c;
	static const char *const hints[] = {
		"j/k move  l/h open/close  * all  < > sort  Enter timeline  "
		"e recursion  / search  ? help",
		"l/h open/close  Enter timeline  ? help",
	};

	sv_grid_fill(g, r.x, r.y, r.x + r.w, r.y + r.h - 1, ' ',
		SV_STYLE_DEFAULT, 0);
	sv_treebuild_scope_text(s, scope, sizeof scope);
	snprintf(line, sizeof line, "Call tree: %s%s%s%s", scope,
		d->b.has2 ? ", compared with " : "",
		d->b.has2 ? sv_session_name2(s) : "",
		d->expand ? ", recursion level by level" : "");
	sv_grid_text(
		g, r.x, r.y, r.w, line, SV_STYLE_PANEL_HEAD, 0, gl->ellipsis);
	x = r.x;
	for (c = 0; c < TREE_NCOLS; c++) {
		if (r.w < tree_cols[c].min_w)
			continue;
		snprintf(cell, sizeof cell, "%*s%s", TREE_COL_W - 1,
			tree_cols[c].title,
			tree_cols[c].key == d->sort ? "" : " ");
		sv_grid_text(g, x, r.y + 1, TREE_COL_W, cell,
			SV_STYLE_PANEL_HEAD, 0, 0);
		if (tree_cols[c].key == d->sort)
			sv_grid_put(g, x + TREE_COL_W - 1, r.y + 1,
				gl->sortmark, SV_STYLE_PANEL_HEAD, 0);
		x += TREE_COL_W;
	}
	sv_grid_text(g, x + 1, r.y + 1, r.w - x - 1, "path",
		SV_STYLE_PANEL_HEAD, 0, 0);
	if (t)
		sv_list_draw(m, &d->list, g);
	if (sv_treebuild_busy(&d->b)) {
		sv_treebuild_progress_text(&d->b, line, sizeof line);
		sv_grid_text(g, r.x + 2, r.y + TREE_HEAD_H + (t ? rows - 1 : 0),
			r.w - 4, line, SV_STYLE_WARNING, 0, gl->ellipsis);
	} else if (t && !d->nrows) {
		sv_grid_text(g, r.x + 2, r.y + TREE_HEAD_H, r.w - 4,
			"no calls in this scope", SV_STYLE_DIM, 0, 0);
	}
	snprintf(line, sizeof line, "  tree %ld/%u",
		d->nrows ? d->list.cur + 1 : 0, d->nrows);
	sv_render_status(g, s, r.y + r.h - 1, r.w, line, hints, 2);
}

const struct sv_mode_ops sv_mode_tree = {
	.name = "tree",
	.title = "Call tree",
	.main = true,
	.scopes = {SV_SCOPE_TREE, SV_SCOPE_LIST, SV_SCOPE_GLOBAL, 0},
	.size = sizeof(struct tree_data),
	.init = tree_init,
	.fini = tree_fini,
	.notify = tree_notify,
	.resize = tree_resize,
	.apply = tree_apply,
	.draw = tree_draw,
	.show = tree_show,
	.cancel = tree_cancel,
	.list = tree_list,
};
