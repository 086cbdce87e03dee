/*
 * view.h: what the viewer is showing, and how keys change it.
 *
 * A struct sv_view holds the whole interactive state: the time window and
 * its zoom history, the cursor (a lane row and a time) and the selected
 * call, which lanes are shown (solo, rank filter, collapsed), the search,
 * the region filter, a prompt being typed, a popup, the summary panel's
 * figures and order.  sv_view_handle_key() is the only way keys change it;
 * it reports what changed as SV_VIEW_* flags, and the caller (app.c, or
 * snapshot's key-script loop) redraws with sv_render() (render.h) in one
 * place.  Prompts take their text keys here, so a key script can type
 * "/ s o l v e Enter".
 *
 * Work is done when the selection changes, never per frame: the level of
 * detail index when the profile or the region filter changes, the summary
 * figures when the lanes on display change, the match list when a search
 * is entered.
 *
 * Nothing here knows about curses or HDF5.  The view borrows the profile
 * (const) until sv_view_fini() or sv_view_set_profile().
 */
#ifndef SCOPEVIEW_VIEW_H
#define SCOPEVIEW_VIEW_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/view.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/layout.h"
#include "scopeview/profile.h"
#include "scopeview/stats.h"

struct sv_regex;

/* What a key changed (bits of the result of sv_view_handle_key). */
enum {
	SV_VIEW_REDRAW = 1 << 0, /* redraw the screen */
	SV_VIEW_QUIT = 1 << 1,   /* leave the viewer */
	SV_VIEW_RELOAD = 1 << 2, /* the user asked to reload the file */
	SV_VIEW_BELL = 1 << 3,   /* nothing to do for that key */
};

enum sv_popup {
	SV_POPUP_NONE,
	SV_POPUP_HELP,
	SV_POPUP_SOURCE,
	SV_POPUP_METADATA,
	SV_POPUP_WARNINGS,
};

enum sv_prompt {
	SV_PROMPT_NONE,
	SV_PROMPT_SEARCH,  /* "/" */
	SV_PROMPT_FILTER,  /* "\" */
	SV_PROMPT_RANKS,   /* "rank filter" */
	SV_PROMPT_COMMAND, /* ":" */
};

/* Summary panel columns, in the order < and > step through. */
#define SV_VIEW_PANEL_COLS(X)                   \
	X(NAME, "region", SV_STATS_KEY_NAME)    \
	X(CALLS, "calls", SV_STATS_KEY_CALLS)   \
	X(TOTAL, "total", SV_STATS_KEY_TOTAL)   \
	X(EXCL, "excl", SV_STATS_KEY_EXCLUSIVE) \
	X(AVG, "avg", SV_STATS_KEY_AVG)         \
	X(P95, "p95", SV_STATS_KEY_P95)         \
	X(IMB, "imb%", SV_STATS_KEY_IMBALANCE)

enum sv_view_panel_col {
#define SV_VIEW_PANEL_ENUM(id, title, key) SV_VIEW_COL_##id,
	SV_VIEW_PANEL_COLS(SV_VIEW_PANEL_ENUM)
#undef SV_VIEW_PANEL_ENUM
		SV_VIEW_COL_COUNT
};

#define SV_VIEW_HISTORY    64
#define SV_VIEW_PROMPT_MAX 256

struct sv_view_opts {
	bool ascii;        /* ASCII glyphs instead of Unicode */
	bool no_mouse;     /* ignore mouse keys */
	const char *title; /* shown in the status line; NULL = profile path */
};

struct sv_view {
	const struct sv_profile *p; /* borrowed */
	struct sv_view_opts opts;
	char *title; /* owned copy */

	/* Screen size and geometry (sv_view_resize). */
	int w, h;
	struct sv_layout_geom geom;

	/* Level-of-detail index (rebuilt when the region filter changes). */
	struct sv_layout_index index;
	struct sv_layout_rows rows; /* rows on display */

	/* The time window [t0, t1) and the run's extent. */
	int64_t t0, t1;
	int64_t run_t0, run_t1; /* min start, max end (origin.. when empty) */
	int64_t origin;         /* the time origin (ruler zero) */
	struct {
		int64_t t0, t1;
	} history[SV_VIEW_HISTORY];
	size_t nhistory;

	/* Cursor: a row (by lane and depth, so it survives relayout) and a
	 * time; the selected call (SV_NO_CALL for none). */
	uint32_t cur_lane;
	uint16_t cur_depth;
	int64_t cur_t;
	uint32_t sel;
	long top_row; /* first row on screen */

	/* Lanes (p->nlanes flags each). */
	bool *lane_hidden;    /* derived: solo and rank filter */
	bool *lane_collapsed; /* by the user */
	bool *lane_on;        /* !lane_hidden, for the statistics */
	long solo_lane;       /* -1 = none */
	bool *rank_on;        /* NULL = all ranks */
	uint32_t nrank_on;
	char rank_spec[64]; /* as typed, "" = all */

	/* Region filter (\) and search (/). */
	char filter_spec[SV_VIEW_PROMPT_MAX];
	bool *region_keep;           /* NULL = no filter */
	struct sv_regex **filter_re; /* include patterns, then exclude */
	size_t ninclude, nexclude;
	char search_spec[SV_VIEW_PROMPT_MAX];
	bool *region_match; /* NULL = no search */
	uint32_t *matches;  /* matching calls of shown lanes, by start */
	size_t nmatches;
	long match_pos;   /* index into matches of the last jump, -1 */
	long mark_region; /* region chosen in the panel, -1 = none */
	/* Index of the highlighted calls only (search matches and the chosen
	 * region), so a merged cell can say it holds one; valid when
	 * has_match_index. */
	struct sv_layout_index match_index;
	bool has_match_index;
	uint32_t *marked; /* its calls on shown lanes, longest first */
	size_t nmarked;
	long marked_pos;

	/* Prompt being typed. */
	enum sv_prompt prompt;
	char prompt_buf[SV_VIEW_PROMPT_MAX];
	size_t prompt_len;

	/* One line for the status bar ("no match for 'x'", errors). */
	char message[256];
	bool message_is_error;

	/* Popup and its scroll position. */
	enum sv_popup popup;
	long popup_top;

	/* Panels. */
	bool panel_shown, details_shown, panel_focus;
	/* The summary over the lanes on display, its rows sorted by the
	 * panel's sort column (stats.regions is the panel's row order). */
	struct sv_stats_table stats;
	bool stats_valid;
	bool stats_is_all; /* stats is over every lane, unfiltered */
	/* The whole run's table, kept aside while a selection (solo lane,
	 * rank or region filter) is shown, so restoring it costs nothing:
	 * on 10 million calls it takes a quarter of a second to compute. */
	struct sv_stats_table stats_all;
	bool stats_all_valid;
	int sort_col;   /* enum sv_view_panel_col */
	long panel_cur; /* row under the panel cursor */
	long panel_top;

	/* Mouse drag: the last drag column, -1 when not dragging. */
	int drag_x;
};

/*
 * Set up v for profile p (borrowed, finished) and opts (may be NULL):
 * the whole run in view, cursor on the first lane, summary computed.
 * The screen size starts at 120 x 40 until sv_view_resize.  Returns 0, or
 * a negative errno with err.
 */
int sv_view_init(struct sv_view *v, const struct sv_profile *p,
	const struct sv_view_opts *opts, struct sv_error *err);
/* NULL-safe; the profile is not freed. */
void sv_view_fini(struct sv_view *v);

/* Replace the profile (after a reload): keeps the window, lanes flags
 * where the lane count is unchanged, the search and filter.  The old
 * profile may be freed after this returns.  Returns 0 or -errno. */
int sv_view_set_profile(
	struct sv_view *v, const struct sv_profile *p, struct sv_error *err);

/* The terminal is now w x h cells. */
void sv_view_resize(struct sv_view *v, int w, int h);

/* Apply one key (keys.h); returns SV_VIEW_* flags. */
int sv_view_handle_key(struct sv_view *v, int key);
/* Apply one action (action.h) as if its key was pressed. */
int sv_view_apply(struct sv_view *v, int action);

/* The time map of the timeline area for the current window. */
struct sv_tmap sv_view_tmap(const struct sv_view *v);
/* The call drawn at screen cell (x, y) of the timeline (the longest of
 * the cell's calls), or SV_NO_CALL. */
uint32_t sv_view_call_at(const struct sv_view *v, int x, int y);
/* Index of the cursor row in v->rows (-1 when there are no rows). */
long sv_view_cursor_row(const struct sv_view *v);
/* Whether call c is highlighted by the search or the panel's region. */
bool sv_view_is_match(const struct sv_view *v, uint32_t c);
/* Whether some highlighted call of (lane, depth) meets [t0, t1). */
bool sv_view_has_match(const struct sv_view *v, uint32_t lane, uint32_t depth,
	int64_t t0, int64_t t1);

/* Format a duration in human units into buf: "12.5 ms", "830 ns",
 * "1.234 s"; sig significant digits (3 typical). */
char *sv_view_fmt_dur(int64_t ns, char *buf, size_t n);
/* Parse a time such as "12.5ms", "3s", "400us", "1500" (ns) into ns;
 * returns 0 or -EINVAL. */
int sv_view_parse_time(const char *s, int64_t *ns);

#endif
