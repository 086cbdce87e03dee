/*
 * timeline.h: the timeline mode's state, and what its files share.
 *
 * The timeline shows the lanes of the session's profile (rank, thread,
 * task; a row per nesting depth) over a time window [t0, t1), with a
 * cursor (a row and a time), the summary panel on the right and the
 * details of the selected call below.  What it shares with other views
 * (the profile, the selection, filters, search, statistics) is in the
 * session; what is its own is here: the window and its zoom history, the
 * cursor, which lanes are collapsed, the rows on display, the panels.
 *
 * Invariants kept after every action: the window spans at least one
 * nanosecond per timeline column; the cursor row is a row on display (or
 * there are none) and lies inside the lane area; rows match the session's
 * hidden lanes and this mode's collapsed ones.
 *
 * mode_timeline.c holds the mode's ops (keys, mouse, commands),
 * timeline.c the window, cursor and selection moves they use, and
 * draw_timeline.c the ruler, the lanes and the details.  Nothing here
 * knows about curses or HDF5.
 */
#ifndef SCOPEVIEW_TIMELINE_H
#define SCOPEVIEW_TIMELINE_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/timeline.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/grid.h"
#include "scopeview/layout.h"
#include "scopeview/panel.h"
#include "scopeview/session.h"

#define SV_TIMELINE_HISTORY 64

struct sv_timeline {
	struct sv_session *s; /* borrowed from the mode */

	/* Screen size and geometry. */
	int w, h;
	struct sv_layout_geom geom;
	struct sv_layout_rows rows; /* rows on display */

	/* The time window [t0, t1) and its zoom history. */
	int64_t t0, t1;
	struct {
		int64_t t0, t1;
	} history[SV_TIMELINE_HISTORY];
	size_t nhistory;

	/* Cursor: a row (by lane and depth, so it survives relayout) and a
	 * time; the first row on screen. */
	uint32_t cur_lane;
	uint16_t cur_depth;
	int64_t cur_t;
	long top_row;

	/* Lanes collapsed by the user (nlanes flags). */
	bool *lane_collapsed;
	size_t nlanes;

	/* Panels. */
	bool panel_shown, details_shown;
	struct sv_panel panel;

	/* Mouse drag: the last drag column, -1 when not dragging; a drag
	 * along the ruler marks a time range: its first column, else -1. */
	int drag_x;
	int range_x;
};

/* ---- timeline.c ---------------------------------------------------------- */

/* Set up tl for the session's profile: the whole run in view, the cursor
 * on the first lane, at 120 x 40 until sv_timeline_resize. */
void sv_timeline_init(struct sv_timeline *tl, struct sv_session *s);
void sv_timeline_fini(struct sv_timeline *tl);
/* The session changed (SV_SESSION_* bits). */
void sv_timeline_notify(struct sv_timeline *tl, unsigned what);
void sv_timeline_resize(struct sv_timeline *tl, int w, int h);

/* The time map of the timeline area for the current window. */
struct sv_tmap sv_timeline_tmap(const struct sv_timeline *tl);
/* A mouse key (keys.h) of a press on the ruler and a drag along it: the
 * columns swept (both ends' included) become the marked range; the
 * release ends it.  SV_REACT_* flags. */
int sv_timeline_mouse_range(struct sv_timeline *v, int key);
/* The call drawn at screen cell (x, y) (the longest of the cell's
 * calls), or SV_NO_CALL. */
uint32_t sv_timeline_call_at(const struct sv_timeline *tl, int x, int y);
/* Index of the cursor row in tl->rows (-1 when there are no rows). */
long sv_timeline_cursor_row(const struct sv_timeline *tl);

int64_t sv_timeline_span(const struct sv_timeline *tl);
/* The narrowest (a nanosecond a column) and widest window allowed. */
int64_t sv_timeline_min_span(const struct sv_timeline *tl);
int64_t sv_timeline_max_span(const struct sv_timeline *tl);
/* Set the window to span ns from t0, clamped to the allowed spans. */
void sv_timeline_set_window(struct sv_timeline *tl, int64_t t0, int64_t span);
void sv_timeline_push_history(struct sv_timeline *tl);
/* Fit the whole run. */
void sv_timeline_fit(struct sv_timeline *tl);
/* Zoom to span ns keeping time t at column x. */
void sv_timeline_zoom_at(
	struct sv_timeline *tl, int64_t t, int x, int64_t span);
/* Move the window by dt ns (the cursor moves along while it stays in). */
void sv_timeline_pan(struct sv_timeline *tl, int64_t dt);
/* Keep the cursor row on display and inside the lane area. */
void sv_timeline_fix_rows(struct sv_timeline *tl);
/* Rebuild the rows after the hidden or collapsed lanes changed. */
void sv_timeline_rows_changed(struct sv_timeline *tl);
/* Select the call under the cursor (or none). */
void sv_timeline_select_at_cursor(struct sv_timeline *tl);
/* Select call c: the cursor goes to its row and into its visible part;
 * the window moves (same span) when the call is not in it. */
void sv_timeline_select(struct sv_timeline *tl, uint32_t c);
/* Select c, or say none (not an error) and ring the bell; SV_REACT_*. */
int sv_timeline_select_rel(
	struct sv_timeline *tl, uint32_t c, const char *none);
/* Jump through list[0 .. n): by time from the selection or cursor, or
 * cyclically from *pos; says "match K of N".  SV_REACT_* flags. */
int sv_timeline_jump_list(struct sv_timeline *tl, const uint32_t *list,
	size_t n, long *pos, int dir, bool by_time);
/* Mark region r (-1 clears) and jump to its longest call. */
int sv_timeline_mark_region(struct sv_timeline *tl, long r);
/* The panel's area on screen. */
struct sv_panel_area sv_timeline_panel_area(const struct sv_timeline *tl);

/* ---- draw_timeline.c ----------------------------------------------------- */

/* The ruler, lanes, details and panel of tl into g (of the screen's
 * size). */
void sv_timeline_draw(const struct sv_timeline *tl, struct sv_grid *g);
/* The status line's text and hints (mode.h, sv_mode_ops.status). */
void sv_timeline_status(const struct sv_timeline *tl, char *line, size_t n,
	const char *const **hints, size_t *nhints);

#endif
