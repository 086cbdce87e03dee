/*
 * mode_tree.c: the call tree as a mode (`:view tree`, T).
 *
 * One row per distinct call path of the session's scope (treebuild.h:
 * the lanes on display and the marked time range), indented with
 * box-drawing characters under its caller, with calls, inclusive,
 * exclusive, average, min and max time and the share of the scope's
 * time.  Paths open and close one level at a time (Right, Left) or all
 * at once (*); siblings sort by any column (< >); the search's regions
 * are highlighted; Enter selects the path's longest call on the timeline
 * and shows it there.  The tree is built off the UI thread when it is
 * large, with a progress line, and drawn only from the finished tree, so
 * a frame costs the rows on screen.  Nothing here knows about curses or
 * HDF5.
 */
#include "scopeview/mode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
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
#define TREE_NCOLS  (sizeof tree_cols / sizeof tree_cols[0])
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
	long cur, top;
	/* The cursor's path as regions, to find it again after a rebuild,
	 * and the open paths (tree_path_keys), sorted, to open them again;
	 * had_tree: a tree was shown before (else the first levels open). */
	uint32_t want[64];
	size_t nwant;
	uint64_t *open_keys;
	size_t nopen_keys;
	bool had_tree;
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
	if (!tree_of(d))
		return;
	tree_add_rows(d, SV_CALLPATH_NONE);
	for (i = 0; i < d->nrows && keep != SV_CALLPATH_NONE; i++)
		if (d->rows[i] == keep)
			d->cur = i;
	if (d->cur >= (long)d->nrows)
		d->cur = d->nrows ? (long)d->nrows - 1 : 0;
	if (d->cur < 0)
		d->cur = 0;
}

static uint32_t tree_cur_node(const struct tree_data *d)
{
	return d->nrows ? d->rows[d->cur] : SV_CALLPATH_NONE;
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
	d->cur = 0;
	tree_relist(d, node);
}

static void tree_start(struct sv_mode *m)
{
	struct tree_data *d = m->data;
	if (tree_of(d))
		tree_remember(d);
	sv_treebuild_start(&d->b, m->s, d->expand);
	d->stale = false;
	if (!sv_treebuild_busy(&d->b))
		tree_adopt(d);
}

static bool tree_shown(const struct sv_mode *m)
{
	return sv_view_main_mode(m->view) == m;
}

static int tree_init(struct sv_mode *m, struct sv_error *err)
{
	struct tree_data *d = m->data;
	(void)err;
	sv_treebuild_init(&d->b);
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

static void tree_notify(struct sv_mode *m, unsigned what)
{
	struct tree_data *d = m->data;
	if (!(what & (SV_SESSION_PROFILE | SV_SESSION_LANES | SV_SESSION_RANGE |
			     SV_SESSION_SECOND)))
		return;
	if (what & (SV_SESSION_PROFILE | SV_SESSION_SECOND)) {
		/* The old trees point into the old profiles (and a build
		 * under way reads the second run's). */
		sv_treebuild_fini(&d->b);
		sv_treebuild_init(&d->b);
		d->nrows = 0;
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

static bool tree_busy(struct sv_mode *m)
{
	const struct tree_data *d = m->data;
	return sv_treebuild_busy(&d->b);
}

static int tree_poll(struct sv_mode *m)
{
	struct tree_data *d = m->data;
	if (!sv_treebuild_busy(&d->b))
		return 0;
	if (sv_treebuild_poll(&d->b)) {
		if (d->b.ready && !d->b.cancelled)
			tree_adopt(d);
		return SV_REACT_REDRAW;
	}
	return SV_REACT_REDRAW; /* the progress line moves */
}

static long tree_page(const struct sv_mode *m)
{
	long h = m->h - TREE_HEAD_H - 1;
	return h > 1 ? h : 1;
}

/* Move to the next row whose region the search matches. */
static int tree_next_match(struct sv_mode *m)
{
	struct tree_data *d = m->data;
	const struct sv_callpath *t = tree_of(d);
	uint32_t i, n;

	if (!t || !m->s->region_match) {
		sv_session_message(m->s, true, "no search (/ searches)");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	/* Open every path to a match first, so that every match is a row. */
	for (n = 0; n < t->nnodes; n++)
		if (m->s->region_match[t->nodes[n].region]) {
			uint32_t a = t->nodes[n].parent;
			for (; a != SV_CALLPATH_NONE; a = t->nodes[a].parent)
				d->open[a] = true;
		}
	tree_relist(d, tree_cur_node(d));
	for (i = 1; i <= d->nrows; i++) {
		long r = (d->cur + (long)i) % (long)d->nrows;
		if (m->s->region_match[t->nodes[d->rows[r]].region]) {
			d->cur = r;
			return SV_REACT_REDRAW;
		}
	}
	sv_session_message(
		m->s, true, "no path matches '%s'", m->s->search_spec);
	return SV_REACT_REDRAW | SV_REACT_BELL;
}

static int tree_sort_step(struct sv_mode *m, int dir)
{
	struct tree_data *d = m->data;
	size_t i, n = TREE_NCOLS - 1, at = 1; /* the share sorts as incl */

	for (i = 0; i < n; i++)
		if (tree_cols[i].key == d->sort)
			at = i;
	at = (at + n + (size_t)(dir > 0 ? 1 : n - 1)) % n;
	d->sort = tree_cols[at].key;
	if (tree_of(d)) {
		uint32_t keep = tree_cur_node(d);
		sv_callpath_sort(&d->b.tree, (enum sv_callpath_key)d->sort);
		tree_relist(d, keep);
	}
	sv_session_message(m->s, false, "siblings by %s",
		sv_callpath_key_help((enum sv_callpath_key)d->sort));
	return SV_REACT_REDRAW;
}

/* Select node n's longest call on the timeline and show it there. */
static int tree_select(struct sv_mode *m, uint32_t n)
{
	struct tree_data *d = m->data;
	uint32_t c =
		n == SV_CALLPATH_NONE ? SV_NO_CALL : d->b.tree.nodes[n].longest;
	struct sv_view *v = m->view;
	struct sv_timeline *tl;

	if (c == SV_NO_CALL)
		return SV_REACT_BELL;
	sv_view_switch(v, "timeline");
	tl = sv_view_timeline(v);
	if (!tl)
		return SV_REACT_REDRAW | SV_REACT_BELL;
	sv_timeline_select(tl, c);
	sv_session_message(&v->s, false, "the longest call of that path");
	return SV_REACT_REDRAW;
}

static int tree_apply_action(struct sv_mode *m, int a)
{
	struct tree_data *d = m->data;
	const struct sv_callpath *t = tree_of(d);
	uint32_t n = tree_cur_node(d), i;

	switch (a) {
	case SV_ACTION_TREE_BACK:
		if (sv_treebuild_busy(&d->b)) {
			sv_treebuild_cancel(&d->b);
			sv_session_message(m->s, false,
				"stopped; e or a change of scope builds again");
			return SV_REACT_REDRAW;
		}
		return sv_view_switch(m->view, "timeline");
	case SV_ACTION_TREE_RECURSION:
		d->expand = !d->expand;
		tree_start(m);
		sv_session_message(m->s, false, "recursion %s",
			d->expand ? "level by level" : "collapsed");
		return SV_REACT_REDRAW;
	case SV_ACTION_TREE_SEARCH:
		return sv_view_push_prompt(m->view, SV_PROMPT_SEARCH, "");
	case SV_ACTION_TREE_MATCH_NEXT:
		return tree_next_match(m);
	case SV_ACTION_TREE_SORT_PREV:
		return tree_sort_step(m, -1);
	case SV_ACTION_TREE_SORT_NEXT:
		return tree_sort_step(m, 1);
	default:
		break;
	}
	if (!t || !d->nrows)
		return SV_REACT_BELL;
	switch (a) {
	case SV_ACTION_TREE_DOWN:
		if (d->cur + 1 >= (long)d->nrows)
			return SV_REACT_BELL;
		d->cur++;
		return SV_REACT_REDRAW;
	case SV_ACTION_TREE_UP:
		if (d->cur == 0)
			return SV_REACT_BELL;
		d->cur--;
		return SV_REACT_REDRAW;
	case SV_ACTION_TREE_PAGE_DOWN:
		d->cur += tree_page(m);
		if (d->cur >= (long)d->nrows)
			d->cur = (long)d->nrows - 1;
		return SV_REACT_REDRAW;
	case SV_ACTION_TREE_PAGE_UP:
		d->cur = d->cur > tree_page(m) ? d->cur - tree_page(m) : 0;
		return SV_REACT_REDRAW;
	case SV_ACTION_TREE_FIRST:
		d->cur = 0;
		return SV_REACT_REDRAW;
	case SV_ACTION_TREE_LAST:
		d->cur = (long)d->nrows - 1;
		return SV_REACT_REDRAW;
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
	case SV_ACTION_TREE_SELECT:
		return tree_select(m, n);
	case SV_ACTION_TREE_CALLERS:
		sv_session_mark_region(m->s, (long)t->nodes[n].region);
		return sv_view_switch(m->view, "callers");
	default:
		return SV_REACT_BELL;
	}
}

/* Keep the cursor row on screen. */
static void tree_scroll(struct sv_mode *m)
{
	struct tree_data *d = m->data;
	long page = tree_page(m);
	if (d->cur < d->top)
		d->top = d->cur;
	if (d->cur >= d->top + page)
		d->top = d->cur - page + 1;
	if (d->top < 0)
		d->top = 0;
}

static int tree_apply(struct sv_mode *m, int a)
{
	int rc = tree_apply_action(m, a);
	if (sv_view_main_mode(m->view) == m)
		tree_scroll(m);
	return rc;
}

static int tree_prompt(struct sv_mode *m, int kind, const char *text)
{
	struct sv_error err;
	int rc;
	if (kind != SV_PROMPT_SEARCH)
		return -1;
	if (sv_session_set_search(m->s, text, &err) < 0) {
		sv_session_message(m->s, true, "%s", err.msg);
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	if (!*text)
		return SV_REACT_REDRAW;
	rc = tree_next_match(m) | SV_REACT_REDRAW;
	tree_scroll(m);
	return rc;
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

static void tree_draw(
	const struct sv_mode *m, struct sv_grid *g, struct sv_rect r)
{
	const struct tree_data *d = m->data;
	const struct sv_session *s = m->s;
	const struct sv_glyphs *gl = sv_render_glyphs(s->opts.ascii);
	const struct sv_callpath *t = tree_of(d);
	char line[320], scope[200], cell[32];
	long top = d->top, i;
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
		d->b.has2 ? ", compared with " : "", d->b.has2 ? s->name2 : "",
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
	if (d->cur < top)
		top = d->cur;
	if (d->cur >= top + rows)
		top = d->cur - rows + 1;
	for (i = 0; t && i < rows && top + i < (long)d->nrows; i++) {
		uint32_t n = d->rows[top + i];
		const struct sv_callpath_node *nd = &t->nodes[n];
		int y = r.y + TREE_HEAD_H + (int)i;
		bool match = s->region_match && s->region_match[nd->region];
		int style = top + i == d->cur ? SV_STYLE_PANEL_CURSOR
			    : match           ? SV_STYLE_MATCH
					      : SV_STYLE_PANEL;
		x = r.x;
		sv_grid_fill(g, r.x, y, r.x + r.w, y + 1, ' ', style, 0);
		for (c = 0; c < TREE_NCOLS; c++) {
			if (r.w < tree_cols[c].min_w)
				continue;
			int cs = style;
			tree_cell(t, n, c, cell, sizeof cell);
			/* Compared with a second run: the change's colour on
			 * the inclusive time. */
			if (tree_cols[c].key == SV_CALLPATH_KEY_INCL &&
				style == SV_STYLE_PANEL &&
				sv_treebuild_diff_style(&d->b, n) >= 0)
				cs = sv_treebuild_diff_style(&d->b, n);
			sv_grid_textf(g, x, y, TREE_COL_W, cs, 0, "%*s ",
				TREE_COL_W - 1, cell);
			x += TREE_COL_W;
		}
		x += 1;
		x += tree_branches(d, gl, g, x, y, r.w - x, n, style);
		sv_grid_put(g, x++, y,
			!nd->nchildren ? ' '
			: d->open[n]   ? gl->expanded
				       : gl->collapsed,
			style, 0);
		x += sv_grid_text(g, x, y, r.x + r.w - x,
			sv_callpath_name(t, n), style,
			sv_session_region_color(m->s, nd->region),
			gl->ellipsis);
		if (nd->recursive)
			x += sv_grid_text(g, x, y, r.x + r.w - x,
				" (recursive)", style, 0, gl->ellipsis);
		if (d->b.has2 && x < r.x + r.w) {
			char second[96] = "";
			sv_treebuild_second_text(
				&d->b, n, second, sizeof second);
			sv_grid_text(g, x, y, r.x + r.w - x, second,
				style == SV_STYLE_PANEL ? SV_STYLE_DIM : style,
				0, gl->ellipsis);
		}
	}
	if (sv_treebuild_busy(&d->b)) {
		sv_treebuild_progress_text(&d->b, line, sizeof line);
		sv_grid_text(g, r.x + 2, r.y + TREE_HEAD_H + (t ? rows - 1 : 0),
			r.w - 4, line, SV_STYLE_WARNING, 0, gl->ellipsis);
	} else if (t && !d->nrows) {
		sv_grid_text(g, r.x + 2, r.y + TREE_HEAD_H, r.w - 4,
			"no calls in this scope", SV_STYLE_DIM, 0, 0);
	}
	snprintf(line, sizeof line, "  tree %ld/%u", d->nrows ? d->cur + 1 : 0,
		d->nrows);
	sv_render_status(g, s, r.y + r.h - 1, r.w, line, hints, 2);
}

const struct sv_mode_ops sv_mode_tree = {
	.name = "tree",
	.title = "Call tree",
	.main = true,
	.scopes = {SV_SCOPE_TREE, SV_SCOPE_GLOBAL, 0},
	.size = sizeof(struct tree_data),
	.init = tree_init,
	.fini = tree_fini,
	.notify = tree_notify,
	.apply = tree_apply,
	.draw = tree_draw,
	.prompt = tree_prompt,
	.show = tree_show,
	.busy = tree_busy,
	.poll = tree_poll,
};
