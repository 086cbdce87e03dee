/*
 * list.c: the list widget (list.h): cursor, scrolling, counts, the mouse,
 * sorting, the search's rows and drawing, the same for every list.
 *
 * Invariants after every call: 0 <= top, top <= cur < top + h when there
 * are rows and h > 0 (a scroll-only list has cur == top), and cur < n.
 * Nothing here knows about curses or HDF5.
 */
#include "scopeview/list.h"

#include <stddef.h>

#include "scopeview/action.h"
#include "scopeview/keys.h"
#include "scopeview/mode.h"
#include "scopeview/view.h"

void sv_list_init(struct sv_list *l, const struct sv_list_ops *ops, int sort)
{
	*l = (struct sv_list){.ops = ops, .sort = sort};
}

static long list_max(long a, long b)
{
	return a > b ? a : b;
}

/* The largest top: the last page shows the last rows. */
static long list_top_max(const struct sv_list *l)
{
	return list_max(0, l->n - (l->h > 0 ? l->h : 1));
}

/* Keep cur and top inside the rows and the cursor on screen. */
static void list_clamp(struct sv_list *l)
{
	long h = l->h > 0 ? l->h : 1;

	if (l->scroll_only) {
		if (l->top > list_top_max(l))
			l->top = list_top_max(l);
		if (l->top < 0)
			l->top = 0;
		l->cur = l->top;
		return;
	}
	if (l->cur >= l->n)
		l->cur = l->n - 1;
	if (l->cur < 0)
		l->cur = 0;
	if (l->top > l->cur)
		l->top = l->cur;
	if (l->cur >= l->top + h)
		l->top = l->cur - h + 1;
	if (l->top > list_top_max(l))
		l->top = list_top_max(l);
	if (l->top < 0)
		l->top = 0;
}

void sv_list_place(struct sv_list *l, int x, int y, int w, int h)
{
	l->x = x;
	l->y = y;
	l->w = w > 0 ? w : 0;
	l->h = h > 0 ? h : 0;
	list_clamp(l);
}

void sv_list_set_rows(struct sv_list *l, long n)
{
	l->n = n > 0 ? n : 0;
	list_clamp(l);
}

static bool list_heading(
	const struct sv_mode *m, const struct sv_list *l, long row)
{
	return l->ops && l->ops->heading && row >= 0 && row < l->n &&
	       l->ops->heading(m, l, row);
}

/* From row, the nearest row that is not a heading in direction dir, then
 * in the other; row itself when every row is one. */
static long list_selectable(
	const struct sv_mode *m, const struct sv_list *l, long row, int dir)
{
	long r;

	for (r = row; r >= 0 && r < l->n; r += dir)
		if (!list_heading(m, l, r))
			return r;
	for (r = row - dir; r >= 0 && r < l->n; r -= dir)
		if (!list_heading(m, l, r))
			return r;
	return row;
}

void sv_list_set_cursor(const struct sv_mode *m, struct sv_list *l, long row)
{
	/* A heading names the rows after it: the cursor goes to the first
	 * of them (before it only at the end). */
	int dir = 1;

	if (row >= l->n)
		row = l->n - 1;
	if (row < 0)
		row = 0;
	l->cur = list_selectable(m, l, row, dir);
	if (l->scroll_only)
		l->top = row;
	list_clamp(l);
}

static uint64_t list_key(
	const struct sv_mode *m, const struct sv_list *l, long row)
{
	return l->ops && l->ops->key ? l->ops->key(m, l, row) : (uint64_t)row;
}

void sv_list_keep(const struct sv_mode *m, struct sv_list *l)
{
	l->has_kept = l->n > 0 && !l->scroll_only;
	if (l->has_kept)
		l->kept = list_key(m, l, l->cur);
}

bool sv_list_restore(const struct sv_mode *m, struct sv_list *l)
{
	long r;

	if (!l->has_kept)
		return false;
	l->has_kept = false;
	for (r = 0; r < l->n; r++)
		if (list_key(m, l, r) == l->kept) {
			sv_list_set_cursor(m, l, r);
			return true;
		}
	list_clamp(l);
	return false;
}

/* Move the cursor by delta rows (a scroll-only list scrolls); BELL when
 * nothing moved. */
static int list_move(struct sv_mode *m, struct sv_list *l, long delta)
{
	long before_cur = l->cur, before_top = l->top;

	if (l->scroll_only) {
		l->top += delta;
		list_clamp(l);
	} else if (l->n) {
		long want = l->cur + delta;
		int dir = delta >= 0 ? 1 : -1;
		if (want >= l->n)
			want = l->n - 1;
		if (want < 0)
			want = 0;
		want = list_selectable(m, l, want, dir);
		/* A heading at an end: stay on the last row that is not. */
		if ((dir > 0 && want < l->cur) || (dir < 0 && want > l->cur))
			want = l->cur;
		l->cur = want;
		list_clamp(l);
	}
	if (l->cur == before_cur && l->top == before_top)
		return SV_REACT_REDRAW | SV_REACT_BELL;
	return SV_REACT_REDRAW;
}

/* A page: the cursor and the view move by whole screens, the cursor
 * keeping its place on screen. */
static int list_page(struct sv_mode *m, struct sv_list *l, long pages)
{
	long h = l->h > 1 ? l->h : 1, before = l->cur, top = l->top;
	int rc;

	if (l->scroll_only)
		return list_move(m, l, pages * h);
	l->top += pages * h;
	if (l->top > list_top_max(l))
		l->top = list_top_max(l);
	if (l->top < 0)
		l->top = 0;
	rc = list_move(m, l, pages * h);
	if (l->cur == before && l->top == top)
		return SV_REACT_REDRAW | SV_REACT_BELL;
	return rc & ~SV_REACT_BELL;
}

static int list_sort(struct sv_mode *m, struct sv_list *l, int col, bool rev)
{
	if (!l->ops || !l->ops->sort || l->ops->ncols <= 0) {
		sv_session_message(m->s, false, "this list has no sort order");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	sv_list_keep(m, l);
	col = l->ops->sort(m, l, col, rev);
	if (col < 0 || col >= l->ops->ncols) {
		l->has_kept = false;
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	l->sort = col;
	l->reverse = rev;
	sv_list_restore(m, l);
	sv_session_message(m->s, false, "sorted by %s%s", l->ops->cols[col],
		rev ? ", reversed" : "");
	return SV_REACT_REDRAW;
}

bool sv_list_find(const struct sv_mode *m, struct sv_list *l, int dir)
{
	long i, r;

	if (!l->ops || !l->ops->match || !l->n)
		return false;
	for (i = 1; i <= l->n; i++) {
		r = ((l->cur + (dir > 0 ? i : -i)) % l->n + l->n) % l->n;
		if (!list_heading(m, l, r) && l->ops->match(m, l, r)) {
			sv_list_set_cursor(m, l, r);
			return true;
		}
	}
	return false;
}

static int list_find(struct sv_mode *m, struct sv_list *l, int dir)
{
	if (sv_list_find(m, l, dir))
		return SV_REACT_REDRAW;
	if (sv_session_search_spec(m->s)[0])
		sv_session_message(m->s, true, "no row matches '%s'",
			sv_session_search_spec(m->s));
	else
		sv_session_message(m->s, true, "no search (/ searches)");
	return SV_REACT_REDRAW | SV_REACT_BELL;
}

int sv_list_search(struct sv_mode *m, struct sv_list *l, const char *text)
{
	struct sv_error err;

	if (sv_session_set_search(m->s, text, &err) < 0) {
		sv_session_message(m->s, true, "%s", err.msg);
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	if (!*text) {
		sv_session_message(m->s, false, "search cleared");
		return SV_REACT_REDRAW;
	}
	if (l->n && l->ops && l->ops->match && !list_heading(m, l, l->cur) &&
		l->ops->match(m, l, l->cur))
		return SV_REACT_REDRAW;
	return list_find(m, l, 1);
}

int sv_list_apply(struct sv_mode *m, struct sv_list *l, int a, long count)
{
	long k = count > 1 ? count : 1;
	int col;

	switch (a) {
	case SV_ACTION_LIST_DOWN:
		return list_move(m, l, k);
	case SV_ACTION_LIST_UP:
		return list_move(m, l, -k);
	case SV_ACTION_LIST_PAGE_DOWN:
		return list_page(m, l, k);
	case SV_ACTION_LIST_PAGE_UP:
		return list_page(m, l, -k);
	case SV_ACTION_LIST_FIRST:
	case SV_ACTION_LIST_LAST: {
		long want = count > 0                   ? count - 1
			    : a == SV_ACTION_LIST_FIRST ? 0
							: l->n - 1;
		long before = l->cur, top = l->top;
		if (l->scroll_only)
			want = a == SV_ACTION_LIST_LAST && count <= 0
				       ? list_top_max(l)
				       : want;
		sv_list_set_cursor(m, l, want);
		if (l->cur == before && l->top == top)
			return SV_REACT_REDRAW | SV_REACT_BELL;
		return SV_REACT_REDRAW;
	}
	case SV_ACTION_LIST_ENTER:
		if (!l->ops || !l->ops->enter || !l->n || l->scroll_only)
			return SV_REACT_BELL;
		return l->ops->enter(m, l, l->cur);
	case SV_ACTION_LIST_SORT_NEXT:
	case SV_ACTION_LIST_SORT_PREV:
		if (!l->ops || l->ops->ncols <= 0)
			return list_sort(m, l, 0, false);
		/* From no order, > takes the first column, < the last. */
		if (l->sort < 0)
			col = a == SV_ACTION_LIST_SORT_NEXT ? 0
							    : l->ops->ncols - 1;
		else
			col = (l->sort +
				      (a == SV_ACTION_LIST_SORT_NEXT ? 1 : -1) +
				      l->ops->ncols) %
			      l->ops->ncols;
		return list_sort(m, l, col, false);
	case SV_ACTION_LIST_REVERSE:
		return list_sort(m, l, l->sort < 0 ? 0 : l->sort, !l->reverse);
	case SV_ACTION_LIST_MATCH_NEXT:
		return list_find(m, l, 1);
	case SV_ACTION_LIST_MATCH_PREV:
		return list_find(m, l, -1);
	case SV_ACTION_LIST_SEARCH:
		return sv_view_push_prompt(m->view, SV_PROMPT_SEARCH, "");
	default:
		return -1;
	}
}

int sv_list_mouse(struct sv_mode *m, struct sv_list *l, int key)
{
	int x = sv_key_mouse_x(key), y = sv_key_mouse_y(key);
	long row;

	if (x < l->x || x >= l->x + l->w || y < l->y || y >= l->y + l->h)
		return -1;
	switch (sv_key_mouse_kind(key)) {
	case SV_MOUSE_WHEEL_UP:
	case SV_MOUSE_WHEEL_DOWN:
		l->top += sv_key_mouse_kind(key) == SV_MOUSE_WHEEL_UP ? -3 : 3;
		if (l->top > list_top_max(l))
			l->top = list_top_max(l);
		if (l->top < 0)
			l->top = 0;
		/* The cursor stays on screen, as close to its row as it
		 * can. */
		if (!l->scroll_only && l->h > 0) {
			if (l->cur < l->top)
				l->cur = list_selectable(m, l, l->top, 1);
			if (l->cur >= l->top + l->h)
				l->cur = list_selectable(
					m, l, l->top + l->h - 1, -1);
		}
		list_clamp(l);
		return SV_REACT_REDRAW;
	case SV_MOUSE_CLICK:
		row = l->top + (y - l->y);
		if (l->scroll_only || row >= l->n || list_heading(m, l, row))
			return SV_REACT_BELL;
		if (row == l->cur)
			return sv_list_apply(m, l, SV_ACTION_LIST_ENTER, 0);
		sv_list_set_cursor(m, l, row);
		return SV_REACT_REDRAW;
	default:
		return 0;
	}
}

int sv_list_style(const struct sv_mode *m, const struct sv_list *l, long row)
{
	if (list_heading(m, l, row))
		return SV_STYLE_PANEL_HEAD;
	if (!l->scroll_only && row == l->cur)
		return SV_STYLE_PANEL_CURSOR;
	if (l->ops && l->ops->match && l->ops->match(m, l, row))
		return SV_STYLE_MATCH;
	return SV_STYLE_PANEL;
}

void sv_list_draw(
	const struct sv_mode *m, const struct sv_list *l, struct sv_grid *g)
{
	long i;

	for (i = 0; i < l->h && l->top + i < l->n; i++) {
		long row = l->top + i;
		int style = sv_list_style(m, l, row), y = l->y + (int)i;
		sv_grid_fill(g, l->x, y, l->x + l->w, y + 1, ' ', style, 0);
		l->ops->draw_row(m, l, g, row, l->x, y, l->w, style);
	}
}

const char *sv_list_sort_name(const struct sv_list *l)
{
	if (!l->ops || !l->ops->cols || l->sort < 0 || l->sort >= l->ops->ncols)
		return "";
	return l->ops->cols[l->sort];
}
