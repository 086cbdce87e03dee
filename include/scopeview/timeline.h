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
 * nanosecond per timeline column and lies inside the run (unless the run
 * is narrower than that); the cursor row is a row on display (or
 * there are none) and lies inside the lane area; rows match the session's
 * hidden lanes and this mode's collapsed ones.
 *
 * mode_timeline.c holds the mode's ops (keys, mouse, commands),
 * timeline.c the window, cursor and selection moves they use,
 * draw_timeline.c the ruler, the lanes and the details, and
 * timeline_ranks.c the rank rows, the ranks strip, the rows and geometry
 * that follow the selection and the window (sv_timeline_sync) and the
 * panel's width.  Nothing here knows about curses or HDF5.
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
#include "scopeview/job.h"
#include "scopeview/layout.h"
#include "scopeview/panel.h"
#include "scopeview/ranks.h"
#include "scopeview/session.h"

#define SV_TIMELINE_HISTORY 64
/* The width in columns at which a call a jump lands on is readable. */
#define SV_TIMELINE_READABLE 12

/*
 * The selected region's ranks (timeline_ranks.c): the region (the marked
 * one, else the selected call's), each rank's time in it (a ranks matrix
 * of the session's statistics) and the ranks inside it over time
 * (ranks.h), computed once per selection, on a worker thread when the
 * region has many calls; and the rank rows: one row a rank at one depth.
 */
struct sv_tlranks {
	bool on;           /* rank rows instead of every lane's depth rows */
	long depth_set;    /* the depth asked for, -1 = the region's */
	long region;       /* the figures' region, -1 = none */
	bool stale;        /* recompute at the next sync */
	bool stale_m;      /* only the matrix (the statistics were sorted) */
	struct sv_ranks m; /* each rank's time, from the session's stats */
	bool m_valid;
	long m_col;                /* the region's column of m, -1 */
	struct sv_ranks_inside ri; /* valid when ri_valid */
	bool ri_valid;
	/* The rank filter ri is (being) made for (a copy; NULL: every
	 * rank): ri depends on the region and the ranks alone, so a solo
	 * lane or a region filter keeps it and redoes only m. */
	bool *ri_rank_on;
	uint32_t ri_nrank_on;
	/* The worker building the ranks inside the region, a job on the
	 * session's jobs (it reads only its own struct and the profile);
	 * one for an older region or selection is dropped, not waited for
	 * (but for before the profile goes). */
	struct sv_tlranks_work *work;
	bool busy;
};

/* Screen rows whose spans are kept between frames (taller screens walk
 * the rows below afresh each frame). */
#define SV_TIMELINE_SPAN_ROWS 256

struct sv_fold_rows;

struct sv_timeline {
	struct sv_session *s; /* borrowed from the mode */

	/* Screen size and geometry. */
	int w, h;
	struct sv_layout_geom geom;
	/* The spans drawn on each screen row of the lanes, kept for the next
	 * frame (SV_TIMELINE_SPAN_ROWS of them, by row from the top of the
	 * lanes; mutable through a const timeline: a cache). */
	struct sv_row_spans *span_rows;
	/* The same for the folded tracks' cells (timeline_fold.c). */
	struct sv_fold_rows *fold_rows;
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
	uint8_t cur_run; /* the cursor row's run: 0, or 1 (the second) */
	int64_t cur_t;
	long top_row;

	/* Folded ranks (nlanes flags, set for each lane of a folded rank;
	 * timeline_fold.c), and the second run's (nlanes2 flags); the
	 * lanes a region filter left without a call, hidden. */
	bool *lane_folded;
	size_t nlanes;
	bool *lane2_folded;
	size_t nlanes2;
	bool fold_chosen;     /* by z or Z: sizes fold no more */
	int fold_depth;       /* the deepest depth the tracks show, -1: all */
	size_t nfiltered_out; /* the lanes a region filter left empty */

	/* Panels. */
	bool panel_shown, details_shown;
	/* The selected call is only the one under the cursor (a move put
	 * it there): no details box for it, and Tab starts from the cursor.
	 * Tab, Enter, a click or a jump make a selection of it. */
	bool sel_by_cursor;
	struct sv_panel panel;

	/* Mouse drag: the last drag column, -1 when not dragging; whether
	 * the drag moves the panel's border; a drag along the ruler marks a
	 * time range: its first column, else -1. */
	int drag_x;
	bool drag_border;
	int range_x;

	/* What the geometry was laid out for: the details box (only while
	 * a call is selected) and the ranks strip (while a region is). */
	bool laid_details, laid_strip;

	struct sv_tlranks ranks;

	/* A search runs on a worker thread (session.h, matches_pending):
	 * jump to its first match when its lists are in. */
	bool search_wait;
	/* A region was marked; jump to its longest call once its calls are
	 * in (sv_session_poll). */
	bool mark_wait;
	char search_pat[SV_SESSION_TEXT_MAX]; /* as typed */
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
 * calls; a call of the second run on its rows), or SV_NO_CALL. */
uint32_t sv_timeline_call_at(const struct sv_timeline *tl, int x, int y);
/* Index of the cursor row in tl->rows (-1 when there are no rows). */
long sv_timeline_cursor_row(const struct sv_timeline *tl);

int64_t sv_timeline_span(const struct sv_timeline *tl);
/* The narrowest (a nanosecond a column) and widest (the run's span)
 * window allowed. */
int64_t sv_timeline_min_span(const struct sv_timeline *tl);
int64_t sv_timeline_max_span(const struct sv_timeline *tl);
/* Set the window to span ns from t0, clamped to the allowed spans and
 * moved inside the run. */
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
/* The same for call c of run (0, or 1: the second run's; sets sel2). */
void sv_timeline_select_run(struct sv_timeline *tl, unsigned run, uint32_t c);
/* Select call c for a jump (n, the panel's Enter, :region): as
 * sv_timeline_select, and zoomed in until it is SV_TIMELINE_READABLE
 * columns wide or more (a quarter of the timeline), the zoom kept when it
 * already is, the window scrolled to show it whole. */
void sv_timeline_show_call(struct sv_timeline *tl, uint32_t c);
/* Select c, or say none (not an error) and ring the bell; SV_REACT_*. */
int sv_timeline_select_rel(
	struct sv_timeline *tl, uint32_t c, const char *none);
/* Jump through list[0 .. n), or the session's n matches when list is
 * NULL (sv_timeline_show_call): by time from the selection or cursor
 * (list in start order, as the session's matches are: found by binary
 * search), or cyclically from *pos; says "match K of N".  SV_REACT_*
 * flags. */
int sv_timeline_jump_list(struct sv_timeline *tl, const uint32_t *list,
	size_t n, long *pos, int dir, bool by_time);
/* sv_timeline_jump_list through the session's match list (by time) or
 * its marked region's calls (marked: cyclically, longest first), from
 * and to the session's jump position. */
int sv_timeline_jump_session(struct sv_timeline *tl, bool marked, int dir);
/* Mark region r (-1 clears) and jump to its longest call. */
int sv_timeline_mark_region(struct sv_timeline *tl, long r);
/* The panel's area on screen. */
struct sv_panel_area sv_timeline_panel_area(const struct sv_timeline *tl);

/* ---- timeline_cmd.c ------------------------------------------------------ */

/* Search region names for pat (regex; "" clears) and jump to the first
 * match after the cursor, or say why there is none.  SV_REACT_* flags. */
int sv_timeline_set_search(struct sv_timeline *tl, const char *pat);
/* A search's match lists are in (at once, or from the worker): say so
 * and jump to the first match.  SV_REACT_* flags. */
int sv_timeline_search_found(struct sv_timeline *tl, const char *pat);
/* Say the marked range on the message line: its ends from the run's
 * start, its width, and what shows it (T, F). */
void sv_timeline_say_range(struct sv_timeline *tl);
/* Run a `:` command (goto, zoom, rank, region, search, filter, sort,
 * range, second, quit).  SV_REACT_* flags. */
int sv_timeline_command(struct sv_timeline *tl, const char *cmd);

/* ---- timeline_ranks.c --------------------------------------------------- */

/* Bring what follows the selection and the window up to date: the
 * region's rank figures (starting the worker when needed), the geometry
 * (the details box and the ranks strip take room only when they have
 * something to show) and the rows (rank rows, or the lanes' depth rows
 * without those empty in the window).  Cheap when nothing changed; every
 * hook of the mode calls it last. */
void sv_timeline_sync(struct sv_timeline *tl);
/* Build tl->rows: the rank rows, or the lanes' rows (one a folded rank)
 * as sv_timeline_fold_rows leaves them. */
void sv_timeline_build_rows(struct sv_timeline *tl);

/* ---- folding (timeline_fold.c) ---- */
/* The folded tracks' cells kept between frames, per screen row of the
 * lanes (SV_TIMELINE_SPAN_ROWS of them); freed with
 * sv_timeline_fold_rows_free. */
struct sv_fold_rows *sv_timeline_fold_rows_new(void);
void sv_timeline_fold_rows_free(struct sv_fold_rows *f);
/* Fold (on) or unfold the rank of lane of run (0, or 1: the second);
 * whether lane's rank is folded. */
void sv_timeline_fold_rank(
	struct sv_timeline *tl, unsigned run, uint32_t lane, bool on);
bool sv_timeline_rank_folded(
	const struct sv_timeline *tl, unsigned run, uint32_t lane);
/* Whether p's lanes span two ranks or more. */
bool sv_timeline_multi_rank(const struct sv_profile *p);
/* z and Z: fold the cursor's rank or unfold it; fold every rank, or
 * unfold them all when all are.  Returns SV_REACT_*. */
int sv_timeline_fold_apply(struct sv_timeline *tl, int action);
/* ( and ): the folded tracks' deepest depth one shallower or deeper
 * (from all depths, back to all).  -1 when no rank is folded. */
int sv_timeline_fold_depth(struct sv_timeline *tl, int dir);
/* At a new size of the terminal, until z or Z: every rank folded when
 * the rows of a run of several ranks do not fit the lane area, else
 * none. */
void sv_timeline_fold_choose(struct sv_timeline *tl);
/* Of the lanes' rows: drop the depth rows below a lane's first with no
 * call in the window and, under a region filter, the lanes without a
 * call (tl->nfiltered_out counts them); when the rows do not fit the
 * lane area, merge each lane's last rows holding a sliver into the row
 * above (depth .. depth_last). */
void sv_timeline_fold_rows(struct sv_timeline *tl);
/* The call drawn at column x of row r (of r's run; m is the first run's
 * map): a folded rank's as its track shows it, else the deepest of the
 * row's depths that has one there (sv_layout_hit), or SV_NO_CALL. */
uint32_t sv_timeline_row_hit(const struct sv_timeline *tl,
	const struct sv_layout_row *r, const struct sv_tmap *m, int x);
/* The same for a folded row r, m in its run's clock. */
uint32_t sv_timeline_fold_hit(const struct sv_timeline *tl,
	const struct sv_layout_row *r, const struct sv_tmap *m, int x);
/* Draw a folded rank's track on screen row y: per cell, the region with
 * the most exclusive time over the rank's lanes, solid when it holds 70%
 * of the busy time, else shaded by how busy the cell is; names over runs
 * of one region; the selected call over it. */
void sv_timeline_draw_fold(const struct sv_timeline *tl, struct sv_grid *g,
	const struct sv_layout_row *r, int y);
/* Draw the sliver depths merged into row r (depth + 1 .. depth_last)
 * over it: every cell holding one of their calls, in its colour, but
 * for the letters of a name. */
void sv_timeline_draw_slivers(const struct sv_timeline *tl, struct sv_grid *g,
	const struct sv_layout_row *r, int y);

/* The region the rank figures are for (-1 = none). */
long sv_timeline_ranks_region(const struct sv_timeline *tl);
/* The depth of the rank rows. */
unsigned sv_timeline_ranks_depth(const struct sv_timeline *tl);
/* The mode's show, busy and poll hooks (mode.h): sync, and adopt the
 * worker's figures. */
struct sv_mode;
void sv_timeline_mode_show(struct sv_mode *m);
/* Stop the worker and free the figures. */
void sv_timeline_ranks_fini(struct sv_timeline *tl);
/* The rank keys: rank rows on and off, their depth, the panel's width;
 * SV_REACT_* flags, or -1 when a is none of them. */
int sv_timeline_ranks_apply(struct sv_timeline *tl, int a);
/* Start dragging the panel's border at screen column x, move it, stop:
 * SV_REACT_* flags, or -1 when the event is not the border's. */
int sv_timeline_border_mouse(struct sv_timeline *tl, int kind, int x, int y);
/* A rank row's label at row y (lane area), w cells wide. */
void sv_timeline_draw_rank_label(const struct sv_timeline *tl,
	struct sv_grid *g, long row, int y, int w, int style);
/* The strip of ranks inside the region along the timeline. */
void sv_timeline_draw_strip(const struct sv_timeline *tl, struct sv_grid *g);
/* What the status line adds for the rank rows ("" when off). */
void sv_timeline_ranks_status(
	const struct sv_timeline *tl, char *buf, size_t n);

/* ---- timeline_two.c ------------------------------------------------------ */

/* What the rows of a run (0: the profile, 1: the second run) draw: its
 * profile and index, the time added to the window's for its clock
 * (session.h's shift2), its selected call. */
struct sv_timeline_src {
	const struct sv_profile *p;
	const struct sv_lod_index *ix;
	int64_t shift;
	uint32_t sel;
	unsigned run;
};
struct sv_timeline_src sv_timeline_src(
	const struct sv_timeline *tl, unsigned run);
/* The time map of run's rows: the window in its clock. */
struct sv_tmap sv_timeline_tmap_run(const struct sv_timeline *tl, unsigned run);
/* Call c of src: its colour, and whether the search or the marked
 * region highlights it. */
int sv_timeline_src_color(const struct sv_timeline *tl,
	const struct sv_timeline_src *src, uint32_t c);
bool sv_timeline_src_match(const struct sv_timeline *tl,
	const struct sv_timeline_src *src, uint32_t c);
/* Whether rows a and b show the same lane (of the same run). */
bool sv_timeline_same_lane(
	const struct sv_layout_row *a, const struct sv_layout_row *b);
/* The extent the window may cover: the run's, and with the second run's
 * rows on display the union with its extent (in the first's clock). */
void sv_timeline_extent(const struct sv_timeline *tl, int64_t *t0, int64_t *t1);
/* Keep the second run's collapsed flags the size of its lanes. */
void sv_timeline_two_lanes(struct sv_timeline *tl);
/* Tab / S-Tab on a row of the second run: its next or previous call
 * (SV_REACT_* flags). */
int sv_timeline_step_call2(struct sv_timeline *tl, int dir);
/* The label of the first row of a lane of the second run: "B r0 main"
 * (the letter marked), w cells from x. */
void sv_timeline_draw_run_label(const struct sv_timeline *tl, struct sv_grid *g,
	const struct sv_layout_row *r, int x, int y, int w, int style);
/* The keys that act on the second run's rows (the cursor on one) or
 * call (sel2): Tab and S-Tab, the parent, child and sibling moves, z, t
 * (which solos lanes of the first run only) and collapsing every lane
 * (both runs').  SV_REACT_* flags, or -1 for another action or when
 * neither is the case. */
int sv_timeline_two_apply(struct sv_timeline *tl, int action);
/* `:second [on|off]`: show or hide the second run's rows (toggles
 * without an argument).  SV_REACT_* flags. */
int sv_timeline_second_command(struct sv_timeline *tl, const char *arg);

/* ---- draw_timeline.c ----------------------------------------------------- */

/* The ruler, lanes, details and panel of tl into g (of the screen's
 * size). */
void sv_timeline_draw(const struct sv_timeline *tl, struct sv_grid *g);
/* The status line's text and hints (mode.h, sv_mode_ops.status). */
void sv_timeline_status(const struct sv_timeline *tl, char *line, size_t n,
	const char *const **hints, size_t *nhints);

/* ---- draw_bars.c --------------------------------------------------------- */

/* The longest run of cells that gets one name; the regions a cell's
 * summary tells apart, and the calls it sums at most. */
#define SV_BARS_MAX_RUN         1024
#define SV_BARS_SUMMARY_REGIONS 16
#define SV_BARS_SUMMARY_MAX     1000000

/* The calls of (lane, depth) of run (0, or 1: the second run) in the
 * window, on screen row y of g: bars, boundaries, shaded cells and names
 * (see draw_bars.c). */
void sv_timeline_draw_row(const struct sv_timeline *tl, struct sv_grid *g,
	unsigned run, uint32_t lane, uint16_t depth, int y);
/* The glyph of a cell that calls cover at least half of (dense) or
 * less. */
uint32_t sv_timeline_shade(const struct sv_timeline *tl, bool dense);
/* Whether ch is one of the bars' glyphs (or blank), not a letter of a
 * name. */
bool sv_timeline_bar_glyph(const struct sv_timeline *tl, uint32_t ch);
/* A region's name over a run of cells [x0, x1) of screen row y (when it
 * is at least four cells and a letter fits), drawn in one style: the
 * style of the run's first cell as a bar's, so that the letters read as
 * one word whatever the cells under them held. */
void sv_timeline_draw_name(const struct sv_timeline *tl, struct sv_grid *g,
	const char *name, int x0, int x1, int y);
/* The row of a rank whose calls are not read (a lane without calls of a
 * rank subset, "rN not read"), from its stored statistics: its span from
 * the earliest start to the latest end as a dotted line on screen row y,
 * with its calls and its region of the largest total written in it.
 * Returns false for any other lane (nothing drawn). */
bool sv_timeline_draw_stored(const struct sv_timeline *tl, struct sv_grid *g,
	const struct sv_lane *lane, int y);
/* What the cursor row's cell at column x holds, when it holds several
 * calls: "37 calls: 54% kernel:spmv, 30% kernel:precondition, 16% other"
 * (shares of the cell's busy time), into buf; returns its length, 0 (and
 * "") for a cell of one call or none. */
size_t sv_timeline_cell_summary(
	const struct sv_timeline *tl, int x, char *buf, size_t n);

/* One glyph of the timeline and what it means, for the help popup and
 * the README's legend: the Unicode and the ASCII glyph (0 when there is
 * none, for a line of text). */
struct sv_timeline_glyph {
	uint32_t uni, ascii;
	const char *meaning;
};
/* The legend, *n entries. */
const struct sv_timeline_glyph *sv_timeline_legend(size_t *n);

#endif
