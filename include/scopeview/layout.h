/*
 * layout.h: where things go on the screen.  Three parts:
 *
 *  - the time map: a window [t0, t1) of nanoseconds onto w columns,
 *    exactly (128-bit products, no overflow for any int64 times), monotonic,
 *    with column k covering [tcol(k), tcol(k + 1)) where
 *    tcol(k) = t0 + floor(k * (t1 - t0) / w).  A call [s, e) occupies every
 *    column whose time range meets [s, max(e, s + 1)), so a call shorter
 *    than a column still gets its column and no call is drawn outside its
 *    true columns;
 *  - a row of the level-of-detail index (lod.h, the model's) in the
 *    columns of a map: each column is one time range of a level, so one
 *    cell is two searches and a range-maximum query (O(1)); walked left
 *    to right (sv_layout_walk) the searches start at the previous cell's
 *    answer, so a frame costs about the same at any zoom and any number
 *    of calls; and hit testing, the call drawn at a column;
 *  - the rows (lanes in profile order = rank, thread, task; one row per
 *    depth, or one when collapsed; with a second run, each rank's lanes
 *    of the first run, then the second's) and the screen geometry (ruler, lane
 *    labels, timeline, panels, status line) for a terminal size.
 *
 * Nothing here draws or knows about curses.
 */
#ifndef SCOPEVIEW_LAYOUT_H
#define SCOPEVIEW_LAYOUT_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/layout.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/lod.h"
#include "scopeview/profile.h"

/* ---- time map ---------------------------------------------------------- */

struct sv_tmap {
	int64_t t0, t1; /* window [t0, t1), t1 > t0 */
	int x0, w;      /* columns [x0, x0 + w), w > 0 */
};

/* A valid map (t1 > t0, w > 0)? */
bool sv_tmap_valid(const struct sv_tmap *m);
/* tcol: the first time of column x (x clamped to [x0, x0 + w]; x0 + w
 * gives t1). */
int64_t sv_tmap_time(const struct sv_tmap *m, int x);
/* The column whose range holds t; x0 - 1 for t < t0 and x0 + w for
 * t >= t1.  Monotonic in t. */
int sv_tmap_col(const struct sv_tmap *m, int64_t t);
/* Columns [*x0, *x1) that the call [s, e) occupies, clipped to the map;
 * false (outputs untouched) when it is outside the window. */
bool sv_tmap_span(
	const struct sv_tmap *m, int64_t s, int64_t e, int *x0, int *x1);
/*
 * The window t0' for a new span (> 0) such that time t stays in column x:
 * returns t0' (the middle of column x's new range is t, rounded down).
 * Saturates instead of overflowing.
 */
int64_t sv_tmap_anchor(int64_t t, int x, int x0, int w, int64_t span);

/* ---- a row of the index in columns ------------------------------------- */

/* One run of cells of a row: columns [x0, x1) show call (the only call
 * there when count == 1, else the longest of count calls in one cell);
 * lo, hi: the positions sv_lod_range gives for the run's first cell
 * (hi - lo == count for a cell of several calls). */
struct sv_layout_span {
	int x0, x1;
	uint32_t call;
	uint32_t count;
	uint32_t lo, hi;
};

/*
 * Walk a row: starting at column *x (initially m->x0), store the next run
 * of cells that holds calls in *out, advance *x past it and return true;
 * false when the row has nothing more in the window.  A run of one call
 * covers the columns only it occupies; a cell shared by several calls is a
 * run of width 1 with count > 1.  The map must give every column at least
 * one nanosecond (t1 - t0 >= w, as the view keeps it); otherwise nothing
 * is returned.
 */
bool sv_layout_row_next(const struct sv_lod_index *ix,
	const struct sv_lod_level *lv, const struct sv_tmap *m, int *x,
	struct sv_layout_span *out);

/*
 * A row walked left to right with the index's cursor: sv_layout_walk_next
 * gives the same runs as repeated sv_layout_row_next, but each cell's
 * search starts where the previous cell's ended (sv_lod_cursor_range),
 * so a cell costs O(log of how far the cursor's guess was off), not
 * O(log calls in the level): whole-run frames cost the same at any
 * profile size.
 */
struct sv_layout_walk {
	const struct sv_lod_index *ix;
	struct sv_lod_cursor c; /* the level's, at the last cell */
	struct sv_tmap m;
	int x; /* the next column */
};
void sv_layout_walk_init(struct sv_layout_walk *w,
	const struct sv_lod_index *ix, const struct sv_lod_level *lv,
	const struct sv_tmap *m);
bool sv_layout_walk_next(struct sv_layout_walk *w, struct sv_layout_span *out);

/*
 * One row's spans in one window, kept between frames: most frames (a
 * cursor move) draw the same rows in the same window, and walking a row
 * reads the index at places far apart, a cost that grows with the calls.
 * Keyed on the index's build (serial), the level and the map; a zeroed
 * struct is empty.
 */
struct sv_row_span {
	struct sv_layout_span s;
	int64_t busy;    /* sv_lod_busy of its column when s.count > 1 */
	uint32_t region; /* s.call's */
	/* When s.count > 1: the percent of the column's time that calls of
	 * region cover (exact up to SV_ROW_SPAN_SAMPLES calls, else from as
	 * many spread evenly over the column's calls). */
	uint8_t share;
	/* What the drawing keeps of s.call: its colour under color_key (0:
	 * none yet; the caller's own key for colour mode and palette). */
	int color;
	uint64_t color_key;
};
#define SV_ROW_SPAN_SAMPLES 8
struct sv_row_spans {
	uint64_t serial;
	const struct sv_lod_level *lv;
	struct sv_tmap m;
	struct sv_row_span *v;
	size_t n, cap;
};
/* The spans sv_layout_walk_next gives for lv (may be NULL: none) in m,
 * from c when its key matches, else walked and kept in c; *n gets their
 * count.  Valid until c is next used. */
struct sv_row_span *sv_row_spans_get(struct sv_row_spans *c,
	const struct sv_lod_index *ix, const struct sv_lod_level *lv,
	const struct sv_tmap *m, size_t *n);
void sv_row_spans_fini(struct sv_row_spans *c);

/* The call drawn at column x of (lane, depth), with the count of calls in
 * that cell (0 and SV_NO_CALL when empty). */
uint32_t sv_layout_hit(const struct sv_lod_index *ix, size_t lane,
	uint32_t depth, const struct sv_tmap *m, int x, uint32_t *count);

/* ---- rows -------------------------------------------------------------- */

struct sv_layout_row {
	uint32_t lane;
	uint32_t lane_end; /* lanes [lane, lane_end) show here: lane + 1, or
			      the end of the rank's lanes when folded */
	uint16_t depth;
	uint16_t depth_last; /* the deepest depth the row shows: depth, or
				deeper when sliver rows merge into it */
	bool lane_first;     /* the lane's first row: its label goes here */
	bool lane_last;
	bool fold;   /* a rank's lanes folded into one track */
	uint8_t run; /* 0: the profile's lane; 1: the second run's */
};

struct sv_layout_rows {
	struct sv_layout_row *rows;
	size_t n, cap; /* grows only */
};

/*
 * Rows of the lanes of p that are not hidden (lane_hidden: p->nlanes
 * flags, NULL = none hidden), in profile order: depth_rows rows per lane
 * (at least one).  lane_folded (NULL = none) folds ranks: the lanes of a
 * rank whose first lane it flags make one row, fold set, lane the first
 * of them not hidden and lane_end past the rank's last.
 */
void sv_layout_rows_build(struct sv_layout_rows *r, const struct sv_profile *p,
	const bool *lane_hidden, const bool *lane_folded);
/*
 * The rows of two runs (p2 NULL: as sv_layout_rows_build): rank by rank
 * in increasing order, the lanes of p of that rank, then those of p2
 * (run 1, lane numbers of p2) with their own hidden and folded flags.
 */
void sv_layout_rows_build_two(struct sv_layout_rows *r,
	const struct sv_profile *p, const bool *lane_hidden,
	const bool *lane_folded, const struct sv_profile *p2,
	const bool *lane2_hidden, const bool *lane2_folded);
void sv_layout_rows_fini(struct sv_layout_rows *r);
/* Index of the row of (lane, depth), or of the lane's nearest row (the
 * folded row of its rank); -1 when the lane has no row.  _run: of a lane
 * of run 0 or 1. */
long sv_layout_rows_find(
	const struct sv_layout_rows *r, uint32_t lane, uint32_t depth);
long sv_layout_rows_find_run(const struct sv_layout_rows *r, unsigned run,
	uint32_t lane, uint32_t depth);

/* ---- geometry ---------------------------------------------------------- */

#define SV_LAYOUT_MIN_W 40
#define SV_LAYOUT_MIN_H 10

struct sv_layout_geom {
	int w, h;
	bool too_small; /* below SV_LAYOUT_MIN_W x SV_LAYOUT_MIN_H */
	int ruler_y;    /* two rows: tick labels, then the axis */
	int label_x, label_w;
	int tl_x, tl_w;           /* timeline columns [tl_x, tl_x + tl_w) */
	int lanes_y, lanes_h;     /* lane rows [lanes_y, lanes_y + lanes_h) */
	int overview_y;           /* the timeline's overview strip (overview.h),
				     0 when there is none */
	int strip_y, strip_h;     /* a strip below the lanes; 0 height when
				     none (the timeline's ranks strip) */
	int details_y, details_h; /* 0 height when hidden */
	int panel_x, panel_w;     /* summary panel; 0 width when hidden */
	int panel_y, panel_h;
	int status_y;
};

/* Geometry of a w x h screen; panel and details say whether the summary
 * and details panels are wanted (they are dropped when there is no room). */
void sv_layout_geometry(
	struct sv_layout_geom *g, int w, int h, bool panel, bool details);
/* The same with the summary panel panel_w columns wide (a config file's
 * panel-width; 0 = by the screen width), leaving the timeline at least 60
 * columns. */
void sv_layout_geometry_panel(struct sv_layout_geom *g, int w, int h,
	bool panel, bool details, int panel_w);

#endif
