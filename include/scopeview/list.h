/*
 * list.h: the one list widget of every list-shaped screen: the call tree,
 * the callers, the ranks matrix, the histogram, the call list, the
 * statistics screen, the summary panel, and the popups.
 *
 * A struct sv_list owns what every list does alike: the cursor and the
 * scroll position, moving by rows and pages with a count (5j), the first
 * and last row (g, G, Home, End; 24G goes to row 24), the mouse wheel and
 * clicks, the sort column and its direction (< > r), the next and
 * previous row the search highlights (n, N), and a cursor that stays on
 * its row when the rows are rebuilt or re-sorted (sv_list_keep,
 * sv_list_restore).  Its keys are the SV_SCOPE_LIST rows of the action
 * table; the viewer hands them to the list of the mode on top
 * (sv_mode_ops.list), so no mode carries its own copy of down, up, page,
 * first and last.
 *
 * A list mode supplies its rows (a count), a row drawer and what Enter
 * does, through struct sv_list_ops; it places the list on the screen when
 * its size changes (sv_list_place) and tells it when the number of rows
 * changes (sv_list_set_rows).  A popup is a list without a cursor: its
 * moves scroll the text.  Nothing here knows about curses or HDF5.
 */
#ifndef SCOPEVIEW_LIST_H
#define SCOPEVIEW_LIST_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/list.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "scopeview/grid.h"

struct sv_mode;
struct sv_list;

struct sv_list_ops {
	/* Draw row (0 .. n - 1) into g at (x, y), w cells wide, in style
	 * (the widget's choice: SV_STYLE_PANEL_CURSOR on the cursor's row,
	 * SV_STYLE_MATCH on a row the search highlights, else
	 * SV_STYLE_PANEL); the widget has filled the line with the style
	 * first.  Required. */
	void (*draw_row)(const struct sv_mode *m, const struct sv_list *l,
		struct sv_grid *g, long row, int x, int y, int w, int style);
	/* Enter on row: SV_REACT_* flags.  NULL: Enter rings the bell. */
	int (*enter)(struct sv_mode *m, struct sv_list *l, long row);
	/* What Enter does, for the help popup ("Select the path's longest
	 * call on the timeline"); NULL when enter is. */
	const char *enter_help;
	/* Whether the search highlights row (n and N go to such rows).
	 * NULL: no row is. */
	bool (*match)(
		const struct sv_mode *m, const struct sv_list *l, long row);
	/* Whether row is a heading that the cursor passes over.  NULL: no
	 * row is. */
	bool (*heading)(
		const struct sv_mode *m, const struct sv_list *l, long row);
	/* A key of row that stays the same when the rows are rebuilt or
	 * re-sorted (a region, a call, a path), for sv_list_keep and
	 * sv_list_restore.  NULL: the row number. */
	uint64_t (*key)(
		const struct sv_mode *m, const struct sv_list *l, long row);
	/* The columns the list sorts by, in the order > steps through them
	 * (< goes back), and how many; NULL: the list does not sort. */
	const char *const *cols;
	int ncols;
	/* Re-order the rows by column col (0 .. ncols - 1), the other way
	 * round when reverse: returns the column it sorted by (col, or
	 * another when col cannot be had now: a column of a second run
	 * that is not there), or -1 when it cannot sort (the bell).  The
	 * widget keeps the cursor on its row. */
	int (*sort)(
		struct sv_mode *m, struct sv_list *l, int col, bool reverse);
};

struct sv_list {
	const struct sv_list_ops *ops;
	long n;   /* rows */
	long cur; /* the cursor's row (0 when there is none) */
	long top; /* the first row on screen */
	/* Where the rows are drawn: h rows from (x, y), w cells wide. */
	int x, y, w, h;
	/* A text to read, not rows to choose (the popups): no cursor is
	 * drawn and the moves scroll (cur is always top). */
	bool scroll_only;
	/* The sort column (an index into ops->cols) and its direction. */
	int sort;
	bool reverse;
	/* The cursor's row key, kept by sv_list_keep for sv_list_restore. */
	bool has_kept;
	uint64_t kept;
};

/* Set up an empty list with ops (borrowed: a static table), sorted by
 * column sort (-1: none). */
void sv_list_init(struct sv_list *l, const struct sv_list_ops *ops, int sort);

/* The rows go to h lines from (x, y), w cells wide (after a resize);
 * the cursor stays on screen. */
void sv_list_place(struct sv_list *l, int x, int y, int w, int h);

/* The list now has n rows: the cursor and the scroll stay inside. */
void sv_list_set_rows(struct sv_list *l, long n);

/* Put the cursor on row (clamped to the rows; a heading moves it to the
 * next row that is not one) and scroll it into view. */
void sv_list_set_cursor(const struct sv_mode *m, struct sv_list *l, long row);

/* Remember the key of the cursor's row, before the rows change. */
void sv_list_keep(const struct sv_mode *m, struct sv_list *l);
/* After the rows changed (sv_list_set_rows done): the cursor goes back to
 * the row with the kept key when there is one (else it stays where it
 * is, clamped); returns whether it found it.  Costs one key a row. */
bool sv_list_restore(const struct sv_mode *m, struct sv_list *l);

/*
 * Do list action a (SV_ACTION_LIST_*) count times (0 or 1: once; for
 * LIST_FIRST and LIST_LAST a count is the row to go to, from 1, as vim's
 * 24G).  Returns SV_REACT_* flags (BELL when it could not move at all),
 * or -1 when a is not a list action.
 */
int sv_list_apply(struct sv_mode *m, struct sv_list *l, int a, long count);

/* A mouse key (keys.h) over the list's rows: the wheel scrolls three
 * rows, a click puts the cursor on the row under it, and a click on the
 * cursor's row is Enter.  SV_REACT_* flags, or -1 when the event is not
 * over the list. */
int sv_list_mouse(struct sv_mode *m, struct sv_list *l, int key);

/* Move the cursor to the next (dir > 0) or previous row that ops->match
 * says the search highlights, round the end; returns whether there was
 * one. */
bool sv_list_find(const struct sv_mode *m, struct sv_list *l, int dir);

/* The search typed at the `/` prompt over a list: the session's search
 * (region names, session.h), and the cursor to the first row it
 * highlights from the cursor on.  SV_REACT_* flags. */
int sv_list_search(struct sv_mode *m, struct sv_list *l, const char *text);

/* The style the widget draws row in (see sv_list_ops.draw_row). */
int sv_list_style(const struct sv_mode *m, const struct sv_list *l, long row);

/* Draw the rows on screen, each through ops->draw_row. */
void sv_list_draw(
	const struct sv_mode *m, const struct sv_list *l, struct sv_grid *g);

/* The name of the sort column, or "" when the list does not sort. */
const char *sv_list_sort_name(const struct sv_list *l);

#endif
