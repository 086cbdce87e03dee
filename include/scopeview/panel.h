/*
 * panel.h: the summary panel, the table of regions that the timeline
 * shows beside its lanes and the statistics screen shows full width.
 *
 * The figures are the session's statistics (session.h), in the session's
 * sort order; a panel only has a list (list.h: the cursor, the scroll
 * position), a focus and a sideways scroll of its names of its own, so
 * two modes can show the same table each with its own place in it.  Its
 * keys are the list keys (SV_SCOPE_LIST: sorting goes to the session)
 * and the SV_SCOPE_PANEL rows of the action table.  Nothing here knows
 * about curses or HDF5.
 */
#ifndef SCOPEVIEW_PANEL_H
#define SCOPEVIEW_PANEL_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/panel.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>

#include "scopeview/grid.h"
#include "scopeview/list.h"
#include "scopeview/session.h"
#include "scopeview/stats.h"

/* Summary panel columns, in the order < and > step through (calls per
 * rank, sorted as calls would be, is left out of it).  The side panel
 * shows six of them; the statistics screen as many as its width holds. */
#define SV_PANEL_COLS(X)                        \
	X(NAME, "region", SV_STATS_KEY_NAME)    \
	X(CALLS, "calls", SV_STATS_KEY_CALLS)   \
	X(CPR, "/rank", SV_STATS_KEY_CALLS)     \
	X(TOTAL, "total", SV_STATS_KEY_TOTAL)   \
	X(EXCL, "excl", SV_STATS_KEY_EXCLUSIVE) \
	X(AVG, "avg", SV_STATS_KEY_AVG)         \
	X(MIN, "min", SV_STATS_KEY_MIN)         \
	X(P50, "p50", SV_STATS_KEY_P50)         \
	X(P95, "p95", SV_STATS_KEY_P95)         \
	X(P99, "p99", SV_STATS_KEY_P99)         \
	X(MAX, "max", SV_STATS_KEY_MAX)         \
	X(STD, "std", SV_STATS_KEY_STD)         \
	X(IMB, "imb%", SV_STATS_KEY_IMBALANCE)

enum sv_panel_col {
#define SV_PANEL_ENUM(id, title, key) SV_PANEL_COL_##id,
	SV_PANEL_COLS(SV_PANEL_ENUM)
#undef SV_PANEL_ENUM
		SV_PANEL_COL_COUNT
};

struct sv_mode;

struct sv_panel {
	bool focus; /* keys go to the panel first */
	/* The panel is the whole view (the statistics screen): its cursor
	 * always shows, and its title does not say it has the focus. */
	bool full;
	/* The regions: list.cur is the row under the cursor, list.top the
	 * first on screen (placed by sv_panel_place). */
	struct sv_list list;
	int name_x; /* cells of the names scrolled out on the left (h, l) */
	/* What Enter on a row does for the mode that shows the panel (mark
	 * the region, jump to its calls): SV_REACT_* flags. */
	int (*mark)(struct sv_mode *m, long region);
};

/* Cells a sideways step of the name column moves (h, l in the panel). */
#define SV_PANEL_NAME_STEP 8

/* Where the panel is drawn: x, y, w, h of its box (rows y + 2 .. are the
 * regions), and the glyphs to draw it with. */
struct sv_panel_area {
	int x, y, w, h;
	bool ascii;
};

/* The statistics key of column col, and the column that sorts by key
 * (SV_PANEL_COL_TOTAL when none does). */
enum sv_stats_key sv_panel_col_key(int col);
int sv_panel_key_col(enum sv_stats_key key);
/* Column by its stats key name ("exclusive"), or -1. */
int sv_panel_col_by_name(const char *name);
/* Whether col is an order of its own for < and > (calls per rank sorts
 * as calls does, and is stepped over). */
bool sv_panel_col_sorts(int col);

/* Set up a panel whose Enter does mark (see struct sv_panel). */
void sv_panel_init(
	struct sv_panel *pn, int (*mark)(struct sv_mode *m, long region));
/* The panel is drawn in area now (its rows from area->y + 2). */
void sv_panel_place(struct sv_panel *pn, const struct sv_panel_area *area);
/* Keep the cursor inside the session's table and on its region, and the
 * list's sort column the session's (after the table changed). */
void sv_panel_clamp(struct sv_panel *pn, const struct sv_session *s);
/* The region of the panel's cursor row, or -1 (no rows). */
long sv_panel_region(const struct sv_panel *pn, const struct sv_session *s);

/*
 * Do panel action a (SV_ACTION_PANEL_MARK, _BACK, _NAMES_*, and
 * SV_ACTION_SORT_* while the panel has not the focus).  Marking a region
 * and jumping to its calls is the caller's (mark_region gets the region
 * to mark, -1 for none, when the result has SV_PANEL_MARK); returns
 * SV_REACT_* flags | SV_PANEL_MARK, or -1 when a is not a panel action.
 */
enum { SV_PANEL_MARK = 1 << 12 };
int sv_panel_apply(
	struct sv_panel *pn, struct sv_session *s, int a, long *mark_region);

/* Draw the panel into g inside area. */
void sv_panel_draw(struct sv_grid *g, const struct sv_panel *pn,
	const struct sv_session *s, const struct sv_panel_area *area);

/* The region of the panel's row under (x, y) of area, or -1. */
long sv_panel_row_at(const struct sv_panel *pn, const struct sv_session *s,
	const struct sv_panel_area *area, int x, int y);

#endif
