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
 *  - the level-of-detail index, built once per profile (and per region
 *    filter): for every lane and depth the calls in start order, their
 *    starts, the prefix sums of their durations, the longest call of each
 *    block's prefixes and suffixes and a sparse table of block maxima.
 *    One cell of one row is then two searches and a range-maximum query
 *    (O(1)); walked left to right (sv_layout_walk) the searches start at
 *    the previous cell's answer, so a frame costs about the same at any
 *    zoom and any number of calls;
 *  - the rows (lanes in profile order = rank, thread, task; one row per
 *    depth, or one when collapsed; with a second run, each rank's lanes
 *    of the first run, then the second's) and the screen geometry (ruler, lane
 *    labels, timeline, panels, status line) for a terminal size.
 *
 * Nothing here draws or knows about curses; the index borrows the profile,
 * which must outlive it.
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

/* ---- level-of-detail index --------------------------------------------- */

/* The regions of a level's calls (sv_lod_level.rg), made with the
 * profile's index when asked (sv_layout_build.regions): each region that
 * has a call in the level, and the level's positions grouped by region,
 * ascending within a group.  A region filter or a search by region name
 * then finds its calls of each level without reading any other call
 * (sv_layout_select_begin, struct sv_layout_set). */
struct sv_lod_regions {
	uint32_t n;           /* groups: the regions present */
	uint32_t *region;     /* n region numbers, ascending */
	uint32_t *off;        /* n + 1: group k is pos[off[k] .. off[k + 1]) */
	struct sv_packed pos; /* the positions by group; empty when n == 1
				 (the one group is every position) */
	size_t bytes;         /* what it allocated */
};

/* The calls of one lane at one depth, in start order.  The starts and
 * the prefix sums of durations are 32-bit offsets above a base per block
 * of SV_LOD_BLOCK calls where they fit.  What the starts and the sums of durations give is not stored
 * again: a call's duration
 * is the difference of two sums, and the running maximum of the ends is
 * the call's own end, unless a sum saturated (then dur is kept) or calls
 * of the level overlap (then maxend is kept).  Read them with
 * sv_lod_start(), sv_lod_cumdur(), sv_lod_dur() and sv_lod_maxend(). */
struct sv_lod_level {
	uint32_t n;
	/* The call numbers, n: calls while the level is built, then packed
	 * (packed.h: neighbours in a level are mostly neighbours in their
	 * row, a few bits apart) with calls NULL.  Read with
	 * sv_lod_call(). */
	uint32_t *calls;
	struct sv_packed callpk;
	int64_t *start;   /* NULL, or n: start_ns of calls[i] when the
			     starts of a block span 2^32 ns or more */
	int64_t *sbase;   /* nblocks: the first start of each block ... */
	uint32_t *soff;   /* n: ... and each start above it (NULL when
			     start is kept) */
	int64_t *cumdur;  /* NULL, or n + 1: cumdur[i] = sum of the
			     durations of calls[0 .. i), saturated (how busy
			     a cell is, in O(1)), when the sums of a block
			     span 2^32 ns or more */
	int64_t *cbase;   /* n / SV_LOD_BLOCK + 1: the smallest sum of each
			     block ... */
	uint32_t *coff;   /* n + 1: ... and each sum above it (NULL when
			     cumdur is kept) */
	int64_t *maxend;  /* NULL, or n: max over j <= i of
			     max(end, start + 1) */
	int64_t *dur;     /* NULL, or n: duration of calls[i] */
	uint8_t *pre;     /* n: the longest call of positions [block start,
			     i], as an offset in i's block (ties: the
			     earliest) */
	uint8_t *suf;     /* n (in pre's allocation): the same for
			     [i, block end) */
	uint32_t nblocks; /* ceil(n / SV_LOD_BLOCK) */
	uint32_t nlog;    /* levels of the sparse table */
	/* The sparse table: the position of the longest call in blocks
	 * [b, b + 2^k), for k < nlog.  Its first SV_LOD_SPARSE16 levels as
	 * offsets above the position of block b's first call, which fit in
	 * 16 bits there (sparse16[k * nblocks + b]), the rest as positions
	 * (sparse[(k - SV_LOD_SPARSE16) * nblocks + b]); NULL when there are
	 * none.  Read with sv_lod_sparse(). */
	uint16_t *sparse16;
	uint32_t *sparse;
	/* Its calls' regions, or NULL (not asked for, or a level of a
	 * filter's index). */
	struct sv_lod_regions *rg;
	/* The arrays are another index's (a level kept whole by
	 * sv_layout_select_begin): this level reads them and does not free
	 * them, and must not outlive that index. */
	bool borrowed;
};
#define SV_LOD_BLOCK 32

/* Position i of group k of rg (i < off[k + 1] - off[k]). */
static inline uint32_t sv_lod_group_pos(
	const struct sv_lod_regions *rg, uint32_t k, uint32_t i)
{
	return rg->pos.n ? (uint32_t)sv_packed_get(&rg->pos, rg->off[k] + i)
			 : i;
}
/* 2^(k + 5) positions for level k: below 2^16 up to k = 10. */
#define SV_LOD_SPARSE16 11

/* The call at position i of lv. */
static inline uint32_t sv_lod_call(const struct sv_lod_level *lv, uint32_t i)
{
	return lv->calls ? lv->calls[i]
			 : (uint32_t)sv_packed_get(&lv->callpk, i);
}
/* The position of the longest call in blocks [b, b + 2^k) of lv. */
static inline uint32_t sv_lod_sparse(
	const struct sv_lod_level *lv, uint32_t k, uint32_t b)
{
	if (k < SV_LOD_SPARSE16)
		return b * SV_LOD_BLOCK +
		       lv->sparse16[(size_t)k * lv->nblocks + b];
	return lv->sparse[(size_t)(k - SV_LOD_SPARSE16) * lv->nblocks + b];
}
/* The start of the call at position i of lv. */
static inline int64_t sv_lod_start(const struct sv_lod_level *lv, uint32_t i)
{
	return lv->start ? lv->start[i]
			 : lv->sbase[i / SV_LOD_BLOCK] + (int64_t)lv->soff[i];
}
/* The sum of the durations of the calls before position i of lv (i <=
 * lv->n). */
static inline int64_t sv_lod_cumdur(const struct sv_lod_level *lv, uint32_t i)
{
	return lv->cumdur ? lv->cumdur[i]
			  : lv->cbase[i / SV_LOD_BLOCK] + (int64_t)lv->coff[i];
}
/* The duration of the call at position i of lv. */
static inline int64_t sv_lod_dur(const struct sv_lod_level *lv, uint32_t i)
{
	return lv->dur ? lv->dur[i]
		       : sv_lod_cumdur(lv, i + 1) - sv_lod_cumdur(lv, i);
}
/* max over j <= i of max(end, start + 1) of the calls of lv. */
static inline int64_t sv_lod_maxend(const struct sv_lod_level *lv, uint32_t i)
{
	int64_t s, d;
	if (lv->maxend)
		return lv->maxend[i];
	s = sv_lod_start(lv, i);
	d = sv_lod_dur(lv, i);
	return d > 0 ? s + d : s == INT64_MAX ? s : s + 1;
}

struct sv_lod_lane {
	uint32_t ndepth; /* levels (deepest depth + 1 among indexed calls) */
	struct sv_lod_level *levels;
};

struct sv_layout_index {
	const struct sv_profile *p; /* borrowed */
	struct sv_lod_lane *lanes;  /* p->nlanes */
	size_t nlanes;
	uint64_t ncalls; /* calls indexed */
	size_t bytes;    /* what the index allocated */
	uint64_t serial; /* unique to each build: what is kept of a drawing
			    (struct sv_row_spans) is keyed on it */
};

/*
 * Build the index of every lane of p.  keep_region (p->nregions flags, or
 * NULL for all) leaves out the calls of other regions: the filter is an
 * index of its own, so hidden calls are never counted in a cell.  Replaces
 * whatever ix held.  O(calls) time, about 16 bytes per call.  Returns 0;
 * -EINVAL with err for a NULL profile.
 */
int sv_layout_index_build(struct sv_layout_index *ix,
	const struct sv_profile *p, const bool *keep_region,
	struct sv_error *err);
/* The same with a flag per call (p->ncalls flags): only flagged calls
 * are indexed (the search's matches by event metadata, callmeta.h). */
int sv_layout_index_build_calls(struct sv_layout_index *ix,
	const struct sv_profile *p, const bool *keep_call,
	struct sv_error *err);
void sv_layout_index_fini(struct sv_layout_index *ix);
/* Stopping a build on another thread: it looks at *cancel before each
 * lane and every 65,536 calls of a lane (and fails with -ECANCELED, ix
 * empty, once set) and adds each lane's call count to *progress.  Either
 * may be NULL. */
struct sv_layout_stop {
	const atomic_bool *cancel;
	_Atomic uint64_t *progress;
};
/* sv_layout_index_build (keep_call NULL) or sv_layout_index_build_calls
 * (keep_call set), stoppable. */
int sv_layout_index_build_stop(struct sv_layout_index *ix,
	const struct sv_profile *p, const bool *keep_region,
	const bool *keep_call, const struct sv_layout_stop *stop,
	struct sv_error *err);

/*
 * The same build shared by threads: sv_layout_build_begin on one thread
 * (0, or -EINVAL with err as above), then sv_layout_build_work on any
 * number of threads at once (each builds lanes until none is left), then
 * sv_layout_build_end once they all returned (0, or -ECANCELED with ix
 * empty when stop asked).  b and what it borrows outlive the build.
 */
struct sv_layout_build {
	struct sv_layout_index *ix;
	const struct sv_profile *p;
	const bool *keep_region, *keep_call;
	const struct sv_layout_stop *stop;
	/* Set after begin (false by default): each level also gets its
	 * regions (sv_lod_level.rg), about 1.5 bytes a call more. */
	bool regions;
	/* The index a selection is made from (sv_layout_select_begin), or
	 * NULL: made from the profile. */
	const struct sv_layout_index *from;
	atomic_size_t next;      /* the next lane to take */
	_Atomic uint64_t ncalls; /* the workers' sums */
	atomic_size_t bytes;
	atomic_bool stopped;
};
int sv_layout_build_begin(struct sv_layout_build *b, struct sv_layout_index *ix,
	const struct sv_profile *p, const bool *keep_region,
	const bool *keep_call, const struct sv_layout_stop *stop,
	struct sv_error *err);
void sv_layout_build_work(struct sv_layout_build *b);
int sv_layout_build_end(struct sv_layout_build *b, struct sv_error *err);
/* Work at b on nthreads threads at once (this one and nthreads - 1 more;
 * fewer when no thread can be made), returning when every lane is done. */
void sv_layout_build_run(struct sv_layout_build *b, int nthreads);

/*
 * The index of the calls of the regions keep_region flags (p->nregions
 * flags; NULL: every call) made from from, an index of every call with
 * its regions (regions set when it was built): the same index
 * sv_layout_index_build(ix, from->p, keep_region) makes, in time and
 * memory for the calls kept only.  A level whose calls are all kept is
 * borrowed from from, not copied (with keep_region NULL, every level: an
 * index of the same calls in O(lanes + levels)), so ix must be finished
 * before from.  A lane of from without regions is made from the profile.
 * Then sv_layout_build_work and sv_layout_build_end as for a build.
 */
int sv_layout_select_begin(struct sv_layout_build *b,
	struct sv_layout_index *ix, const struct sv_layout_index *from,
	const bool *keep_region, const struct sv_layout_stop *stop,
	struct sv_error *err);
/* sv_layout_select_begin, then the work on nthreads threads, then the
 * end: 0, or -ECANCELED (ix empty) when stop asked. */
int sv_layout_index_select(struct sv_layout_index *ix,
	const struct sv_layout_index *from, const bool *keep_region,
	const struct sv_layout_stop *stop, int nthreads, struct sv_error *err);

/* The level of (lane, depth), or NULL when there is none. */
const struct sv_lod_level *sv_layout_level(
	const struct sv_layout_index *ix, size_t lane, uint32_t depth);

/* Positions [*lo, *hi) of the calls of lv that may meet [t0, t1) (exact
 * when the calls of the level do not overlap each other, as in a properly
 * nested lane). */
void sv_layout_range(const struct sv_lod_level *lv, int64_t t0, int64_t t1,
	uint32_t *lo, uint32_t *hi);
/* Position of the longest call among positions [lo, hi) (hi > lo; ties:
 * the earliest). */
uint32_t sv_layout_longest(const struct sv_layout_index *ix,
	const struct sv_lod_level *lv, uint32_t lo, uint32_t hi);

/* The nanoseconds of [t0, t1) that the calls at positions [lo, hi) of lv
 * cover, each clipped to the range (exact for calls that do not overlap
 * each other, as in a nested lane).  O(1). */
int64_t sv_layout_busy(const struct sv_lod_level *lv, int64_t t0, int64_t t1,
	uint32_t lo, uint32_t hi);

/* The end a call is drawn to: its end, or its start + 1 when it is not
 * longer than that (saturated at INT64_MAX). */
int64_t sv_layout_call_end(const struct sv_profile *p, uint32_t c);

/* One run of cells of a row: columns [x0, x1) show call (the only call
 * there when count == 1, else the longest of count calls in one cell);
 * lo, hi: the positions sv_layout_range gives for the run's first cell
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
bool sv_layout_row_next(const struct sv_layout_index *ix,
	const struct sv_lod_level *lv, const struct sv_tmap *m, int *x,
	struct sv_layout_span *out);

/*
 * A row walked left to right with cursors: sv_layout_walk_next gives the
 * same runs as repeated sv_layout_row_next, but each cell's search starts
 * where the previous cell's ended (a gallop from the cursor, at the
 * position the previous cell's count predicts), so a cell costs
 * O(log of how far the prediction was off), not O(log calls in the
 * level): whole-run frames cost the same at any profile size.
 */
struct sv_layout_walk {
	const struct sv_layout_index *ix;
	const struct sv_lod_level *lv;
	struct sv_tmap m;
	int x;           /* the next column */
	uint32_t lo, hi; /* the last cell's positions (sv_layout_range) */
	uint32_t step;   /* how many calls began in the last cell */
};
void sv_layout_walk_init(struct sv_layout_walk *w,
	const struct sv_layout_index *ix, const struct sv_lod_level *lv,
	const struct sv_tmap *m);
/*
 * The positions sv_layout_range(w->lv, t0, t1, ...) gives, for ranges that
 * come left to right (neither t0 nor t1 ever below the last call's, on a
 * walk from sv_layout_walk_init, whose map is not used here): the search
 * starts from the last range's answer, so a range costs O(log of how far
 * it is from the last) instead of O(log calls in the level).  Do not mix
 * with sv_layout_walk_next on the same walk.
 */
void sv_layout_walk_range(struct sv_layout_walk *w, int64_t t0, int64_t t1,
	uint32_t *lo, uint32_t *hi);
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
	int64_t busy;    /* sv_layout_busy of its column when s.count > 1 */
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
	const struct sv_layout_index *ix, const struct sv_lod_level *lv,
	const struct sv_tmap *m, size_t *n);
void sv_row_spans_fini(struct sv_row_spans *c);

/* The call drawn at column x of (lane, depth), with the count of calls in
 * that cell (0 and SV_NO_CALL when empty). */
uint32_t sv_layout_hit(const struct sv_layout_index *ix, size_t lane,
	uint32_t depth, const struct sv_tmap *m, int x, uint32_t *count);

/* Next / previous call of the same lane in start order (dir > 0 / < 0),
 * or SV_NO_CALL.  O(log n). */
uint32_t sv_layout_lane_step(
	const struct sv_profile *p, uint32_t call, int dir);
/* Position of call in its level of the index, or UINT32_MAX when the call
 * is not indexed (filtered out): a binary search of the level in its
 * lane's order (sv_profile_lane_order), O(log n). */
uint32_t sv_layout_level_pos(const struct sv_layout_index *ix, uint32_t call);
/* First (earliest) indexed child of call, or SV_NO_CALL.  O(log n). */
uint32_t sv_layout_first_child(const struct sv_layout_index *ix, uint32_t call);
/* Longest indexed child of call (ties: the earliest), or SV_NO_CALL: a
 * range-maximum query, O(log n). */
uint32_t sv_layout_longest_child(
	const struct sv_layout_index *ix, uint32_t call);
/* Next / previous indexed call with the same parent and lane (dir > 0 /
 * < 0), or SV_NO_CALL. */
uint32_t sv_layout_sibling(
	const struct sv_layout_index *ix, uint32_t call, int dir);

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
