/*
 * session.h: the state that every view of the viewer shares.
 *
 * One struct sv_session lives as long as the viewer: the profile on show
 * (and a slot for a second one, for a comparison of two runs), the
 * selection (a call, a region, a time range), the lanes shown (a soloed
 * lane, the ranks) and the message line; and five parts split by concern,
 * each an opaque struct defined only in its own file and read through the
 * functions below: the region filter (session_filter.c), the search
 * (session_match.c), the statistics of the lanes on display
 * (session_stats.c), the second run (session_two.c) and the colour map
 * (session_colors.c).  Modes (mode.h) read it and change it only through
 * these functions, which keep the derived parts (which lanes are hidden,
 * the level-of-detail index, the statistics, the search matches) in step
 * and then tell every mode what changed through the notify hook, so a
 * selection made in one view is the selection in the next without any
 * glue between them.  Only sv_session_select (session.c) writes the
 * selection.
 *
 * Work is done when an input changes, never per frame: the index when the
 * profile or the region filter changes, the statistics when the lanes on
 * display change, the match lists when the search or the lanes change.
 *
 * Nothing here knows about curses or HDF5.  The session borrows the
 * profiles (const) until sv_session_fini() or sv_session_set_profile().
 */
#ifndef SCOPEVIEW_SESSION_H
#define SCOPEVIEW_SESSION_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/session.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/job.h"
#include "scopeview/layout.h"
#include "scopeview/palette.h"
#include "scopeview/profile.h"
#include "scopeview/stats.h"

struct sv_regex;
/* The session's parts, each defined only in its own file. */
struct sv_session_colors;
struct sv_session_search;
struct sv_session_stats;
struct sv_session_two;
struct sv_session_filter;

#define SV_SESSION_TEXT_MAX 256
/* Profiles with at least this many calls search on a worker thread. */
#define SV_SESSION_BG_CALLS 500000

/* What changed, for the notify hook (bits). */
enum {
	SV_SESSION_PROFILE = 1 << 0, /* a new profile (after a reload) */
	SV_SESSION_LANES = 1 << 1,   /* the lanes on display */
	SV_SESSION_FILTER = 1 << 2,  /* the region filter (and the index) */
	SV_SESSION_SEARCH = 1 << 3,  /* the search or the marked region */
	SV_SESSION_SORT = 1 << 4,    /* the statistics' order */
	SV_SESSION_RANGE = 1 << 5,   /* the marked time range */
	SV_SESSION_SECOND = 1 << 6,  /* a second run came (or went) */
	SV_SESSION_SELECT = 1 << 7,  /* the selected call (sel, sel2) */
};

/* The time the statistics cover. */
enum sv_session_span {
	SV_SPAN_RUN,    /* the whole run */
	SV_SPAN_WINDOW, /* the window the timeline shows */
	SV_SPAN_RANGE,  /* the marked time range */
};

/* Calls in a profile above which the statistics of a window or a range
 * are computed on a worker thread. */
#define SV_SESSION_STATS_SYNC 200000

struct sv_session_opts {
	bool ascii;        /* ASCII glyphs instead of Unicode */
	bool no_mouse;     /* ignore mouse keys */
	const char *title; /* shown in the status line; NULL = profile path */
	/* The memory budget (--memory) in bytes, 0 = none: named after the
	 * title's rank subset when the budget left ranks out. */
	uint64_t memory;
};

struct sv_session {
	const struct sv_profile *p;  /* borrowed; the profile on show */
	const struct sv_profile *p2; /* borrowed; a second run, or NULL */
	struct sv_session_opts opts;
	char *title;      /* owned copy, with the rank subset's label */
	char *title_base; /* owned copy of the title as given */

	/* The run's extent: min start, max end (origin.. when no calls),
	 * and the time origin (the ruler's zero). */
	int64_t run_t0, run_t1, origin;

	/* The selection: a call (SV_NO_CALL for none), a region chosen in a
	 * panel or by :region (-1 for none), and a time range (has_range).
	 * The calls are read here and written only by sv_session_select
	 * (session.c; test_policy checks that no other file assigns them). */
	uint32_t sel;
	/* The selected call of the second run (SV_NO_CALL; at most one of
	 * sel and sel2 is set). */
	uint32_t sel2;
	long mark_region;
	bool has_range;
	int64_t range_t0, range_t1;

	/* Lanes (p->nlanes flags each; derived from solo and ranks). */
	bool *lane_hidden;
	bool *lane_on; /* !lane_hidden, as the statistics want it */
	long solo_lane;
	bool *rank_on; /* NULL = all ranks */
	uint32_t nrank_on;
	char rank_spec[64]; /* as typed, "" = all */

	/* The level-of-detail index of every call with its regions, made
	 * once with the profile: what the filter's index (sv_session_index)
	 * and the highlights select their levels from, borrowing those kept
	 * whole. */
	struct sv_lod_index index_full;

	/* Profiles with at least bg_calls calls (set by init to
	 * SV_SESSION_BG_CALLS; 0 = always here) make their match lists,
	 * filter and statistics of a span on worker threads. */
	uint64_t bg_calls;

	/* The views' jobs (job.h): a tree, a histogram, a call list, the
	 * ranks strip, an export; taken in by sv_session_poll. */
	struct sv_jobs jobs;

	/* One line for the status bar ("no match for 'x'", errors). */
	char message[256];
	bool message_is_error;

	/* Told after every change, with SV_SESSION_* bits (may be NULL). */
	void (*notify)(void *ctx, unsigned what);
	void *notify_ctx;
	/* Private: changes made but not told yet (SV_SESSION_* bits), told
	 * with the next notice. */
	unsigned notify_pending;

	/* The summary panel's width beside the timeline (a config file's
	 * panel-width; 0 = by the screen width).  Set after init; the next
	 * resize uses it. */
	int panel_width;
	/* The panel's numeric columns (1 << SV_PANEL_COL_*, config
	 * panel-columns); 0 = as many as fit.  Set after init. */
	unsigned panel_cols;

	/* The sub-objects, each owned by its own file and read through the
	 * functions below: the colour map (session_colors.c), the search
	 * and the marked region's calls (session_match.c), the statistics of
	 * the lanes on display (session_stats.c), the second run
	 * (session_two.c) and the region filter (session_filter.c). */
	struct sv_session_colors *colors;
	struct sv_session_search *search;
	struct sv_session_stats *stats;
	struct sv_session_two *two;
	struct sv_session_filter *filter;
};

/*
 * Set up s for profile p (borrowed, finished) and opts (may be NULL): no
 * selection, no filter, statistics of every lane.  Returns 0, or a
 * negative errno with err.
 */
int sv_session_init(struct sv_session *s, const struct sv_profile *p,
	const struct sv_session_opts *opts, struct sv_error *err);
/* NULL-safe; the profiles are not freed. */
void sv_session_fini(struct sv_session *s);

/* Replace the profile (after a reload): keeps the filter and the search
 * as typed (region numbers may differ), and the solo lane and ranks when
 * the lane count is unchanged; drops the selection.  Notifies
 * SV_SESSION_PROFILE.  Returns 0 or -errno with err. */
int sv_session_set_profile(
	struct sv_session *s, const struct sv_profile *p, struct sv_error *err);

/* Compare with a second run p2 (borrowed like p, until fini or the next
 * call; NULL ends the comparison), called name (copied; NULL: its path).
 * Its statistics follow the rank and region filters from now on.
 * Notifies SV_SESSION_SECOND.  Returns 0, or -errno with err. */
int sv_session_set_second(struct sv_session *s, const struct sv_profile *p2,
	const char *name, struct sv_error *err);
/* What a run needs before a session takes it (a second run to compare
 * with, or a reloaded profile), made on any thread (the loader's), as it
 * reads only p: its level-of-detail index, its colours and its
 * statistics. */
struct sv_run_prep {
	const struct sv_profile *p;
	struct sv_lod_index index;
	bool has_index;
	/* Its statistics over every rank and region, taken when the
	 * session has no rank or region filter. */
	struct sv_stats_table stats;
	bool has_stats;
	struct sv_palette_map colors;
	bool has_colors;
};
/* Prepare p (NULL: nothing to make).  Returns 0 or -errno with err. */
int sv_run_prepare(struct sv_run_prep *sp, const struct sv_profile *p,
	struct sv_error *err);
void sv_run_prep_fini(struct sv_run_prep *sp);
/* sv_session_set_profile with what sp prepared of p (NULL, or made of
 * another profile: made here), taken over; sp still needs
 * sv_run_prep_fini.  The filter, if any, is made again on a worker for a
 * big profile. */
int sv_session_set_profile_prepared(struct sv_session *s,
	const struct sv_profile *p, struct sv_run_prep *sp,
	struct sv_error *err);
/* sv_session_set_second with the run and index of sp (the index is taken
 * over; sp still needs sv_run_prep_fini).  B's rows are shown. */
int sv_session_set_second_prepared(struct sv_session *s, struct sv_run_prep *sp,
	const char *name, struct sv_error *err);
/* The second run (session_two.c).  Its statistics over the ranks and
 * the region filter of the first run's (not its solo lane), or NULL. */
const struct sv_stats_table *sv_session_stats2(const struct sv_session *s);
/* The rows of that table whose region the first run lacks, the largest
 * total first, ties by name: *n of them. */
const size_t *sv_session_only2(const struct sv_session *s, size_t *n);
/* Its title, or NULL without a second run. */
const char *sv_session_name2(const struct sv_session *s);
/* Its level-of-detail index (the calls the region filter keeps, by
 * name), or NULL. */
const struct sv_lod_index *sv_session_index2(const struct sv_session *s);
/* Its time origin, and shift2 = origin2 - origin: a time t of the first
 * run and t + shift2 of the second are as far from their runs' starts. */
int64_t sv_session_origin2(const struct sv_session *s);
int64_t sv_session_shift2(const struct sv_session *s);
/* Its extent [*t0, *t1) in the first run's times. */
void sv_session_run2_extent(
	const struct sv_session *s, int64_t *t0, int64_t *t1);
/* Whether its rows are to be shown (as last set by
 * sv_session_show_second). */
bool sv_session_second_shown(const struct sv_session *s);
/* Its lanes hidden (p2->nlanes flags: the rank filter, the solo lane's
 * rank, its rows hidden), or NULL without one. */
const bool *sv_session_lane2_hidden(const struct sv_session *s);
/* The first run's region of the name of its region r, or -1. */
long sv_session_region1(const struct sv_session *s, uint32_t r);
/* Whether the timeline shows the second run's rows. */
bool sv_session_two_rows(const struct sv_session *s);
/* Show (on) or hide the second run's rows; notifies SV_SESSION_LANES. */
void sv_session_show_second(struct sv_session *s, bool on);
/* Call c of the second run: its colour (the first run's colour of its
 * region's name) and whether the search or the marked region highlights
 * it (a region of the same name matches, or is marked). */
int sv_session_call2_color(const struct sv_session *s, uint32_t c);
bool sv_session_is_match2(const struct sv_session *s, uint32_t c);

/* The second run's figures of region r of p (the region of the same
 * name), or NULL: no second run, or no call of it there. */
const struct sv_stats_region *sv_session_second_of(
	const struct sv_session *s, uint32_t r);

/* The whole run's figures of region r of a rank subset (stored
 * statistics of every rank), or NULL: every rank is read, or r has no
 * row in the file. */
const struct sv_stats_region *sv_session_run_of(
	const struct sv_session *s, uint32_t r);

/* What the stored rows of a rank whose calls are not read (a rank
 * subset) say: the earliest start and latest end (has_span), its calls,
 * and its region of the largest total. */
struct sv_session_rank_run {
	bool has_span;
	int64_t t0, t1;
	uint64_t calls;
	int64_t top_total;
	long top_region; /* -1: none */
};
/* What the stored rows of rank r say (a rank subset), or NULL. */
const struct sv_session_rank_run *sv_session_rank_run(
	const struct sv_session *s, uint32_t r);

/* The message line; error messages are drawn as warnings. */
void sv_session_message(struct sv_session *s, bool error, const char *fmt, ...)
	SV_PRINTF(3, 4);

/* Whether lane l passes the solo lane and the rank filter. */
bool sv_session_lane_shown(const struct sv_session *s, size_t l);
/* Solo lane l (-1 restores every lane); notifies SV_SESSION_LANES. */
void sv_session_solo(struct sv_session *s, long l);

/* What a call is, to find it again in another profile of the same run (a
 * reload, another rank subset: call numbers differ): its lane's rank and
 * key, its start and end, and its region's name (a copy). */
struct sv_call_key {
	bool valid;
	uint32_t rank;
	int64_t lane_key, start, end;
	char *region;
};
/* The key of call c of p (not valid for SV_NO_CALL); free with
 * sv_call_key_fini. */
struct sv_call_key sv_call_key_of(const struct sv_profile *p, uint32_t c);
/* The call of p that k names, or SV_NO_CALL. */
uint32_t sv_call_key_find(
	const struct sv_profile *p, const struct sv_call_key *k);
void sv_call_key_fini(struct sv_call_key *k);
/* Select call c of run (0: the profile, 1: the second run; SV_NO_CALL:
 * no call, in either run): at most one of sel and sel2 is set.  The only
 * way the views change the selection; notifies SV_SESSION_SELECT when it
 * changed. */
void sv_session_select(struct sv_session *s, unsigned run, uint32_t c);
/* Select the call k names (nothing when it is not there or its lane is
 * hidden).  sv_session_set_profile keeps the selection this way. */
void sv_session_select_key(struct sv_session *s, const struct sv_call_key *k);
/* Parse and apply a rank list ("0,2-5"; "" or "all" for every rank).
 * Returns 0, or -EINVAL with the reason in the message line. */
int sv_session_set_ranks(struct sv_session *s, const char *spec);
/* Parse and apply a region filter (space-separated regexes matched at the
 * start of the name; a leading ! excludes; "" clears).  A pattern
 * "key=value" or "key~regex" also keeps (or with !, drops) the calls
 * whose event metadata has key with that value, or a value the regex
 * finds, as the search's terms do: a call is kept when its region or its
 * metadata matches an include pattern (or there is none) and neither
 * matches an exclude one.  Returns 0, or -EINVAL with the reason in the
 * message line. */
int sv_session_set_filter(struct sv_session *s, const char *spec);
/* The filter as last typed: the one being made while filter_pending,
 * else the one in force (what the filter prompt starts from). */
const char *sv_session_filter_text(const struct sv_session *s);
/* The filter in force, as typed ("" for none). */
const char *sv_session_filter_spec(const struct sv_session *s);
/* Whether a new filter is being made on a worker (the one in force
 * stays until sv_session_poll() takes it in). */
bool sv_session_filter_pending(const struct sv_session *s);
/* The regions the filter keeps, p->nregions flags, or NULL without a
 * filter; with metadata terms, the calls it keeps, p->ncalls flags (the
 * regions then keep some call), else NULL.  Ask sv_session_keeps()
 * rather than either array for one call. */
const bool *sv_session_region_keep(const struct sv_session *s);
const bool *sv_session_call_keep(const struct sv_session *s);
/* The level-of-detail index the timeline draws: the calls the filter
 * keeps (every call without one); never NULL. */
const struct sv_lod_index *sv_session_index(const struct sv_session *s);
/* Set the search pattern (regex searched anywhere in region names; ""
 * clears; "key=value" or "key~regex" also matches the calls whose event
 * metadata has key with that value, or a value the regex finds) and
 * rebuild the match lists.  Returns 0, or -EINVAL with the regex error in
 * err (nothing changed but the search being cleared). */
int sv_session_set_search(
	struct sv_session *s, const char *pat, struct sv_error *err);
/* Mark region r (-1 clears) and rebuild its call list. */
void sv_session_mark_region(struct sv_session *s, long r);
/* The region a view of one region (histogram, call list, callers) opens
 * on when none is marked: the selected call's, else the region of the
 * most total time on the lanes shown.  Marks it, so that every view shows
 * the same, says which on the message line, and returns it; -1 (nothing
 * marked) when there is none. */
long sv_session_mark_default(struct sv_session *s);
/* The same for a view of iterations (the trend): only a region some rank
 * calls more than once (not main, called once a rank). */
long sv_session_mark_default_repeated(struct sv_session *s);
/* Say on the message line (a warning) why region r, just marked, has no
 * call to go to: the profile has no calls at all (an aggregate file
 * stores statistics only), or none of its calls is on the lanes shown. */
void sv_session_say_no_marked(struct sv_session *s, long r);
/* Mark the time range [t0, t1) (ends in either order; on == false
 * clears it); notifies SV_SESSION_RANGE. */
void sv_session_set_range(
	struct sv_session *s, bool on, int64_t t0, int64_t t1);
/* The statistics (session_stats.c).  The table shown: over the lanes on
 * display, the filter and the span, its rows in the session's order;
 * NULL when there is none.  Borrowed until the next change. */
const struct sv_stats_table *sv_session_stats(const struct sv_session *s);
/* Its rows (0 without one), and the region of its row `row` (-1: no such
 * row). */
long sv_session_stats_rows(const struct sv_session *s);
long sv_session_stats_region(const struct sv_session *s, long row);
/* The whole run's table (every lane) kept aside while another is shown,
 * or NULL. */
const struct sv_stats_table *sv_session_stats_all(const struct sv_session *s);
/* Whether the table shown is the whole run's (every lane, no filter). */
bool sv_session_stats_is_all(const struct sv_session *s);
/* A rank subset's whole run (stored statistics of every rank of the
 * file), or NULL when every rank is read. */
const struct sv_stats_table *sv_session_stats_run(const struct sv_session *s);
/* The key the table is sorted by, and the change it is sorted by instead
 * (SV_SESSION_SORT_DELTA or _PCT; 0: by the key). */
enum sv_stats_key sv_session_sort_key(const struct sv_session *s);
int sv_session_sort_diff_kind(const struct sv_session *s);
/* What the statistics cover. */
enum sv_session_span sv_session_span(const struct sv_session *s);
/* Whether a worker computes the statistics (the table shown stays). */
bool sv_session_stats_busy(const struct sv_session *s);
/* Sort the statistics by key; notifies SV_SESSION_SORT. */
void sv_session_sort(struct sv_session *s, enum sv_stats_key key);
/* Sort them by the change of each region's total time in the second run
 * (SV_SESSION_SORT_DELTA or SV_SESSION_SORT_PCT; the largest increase
 * first, then the regions the second run lacks); returns 0 and notifies
 * SV_SESSION_SORT, or -EINVAL (nothing changed) without a second run. */
enum { SV_SESSION_SORT_DELTA = 1, SV_SESSION_SORT_PCT = 2 };
int sv_session_sort_diff(struct sv_session *s, int kind);
/* What the statistics cover (SV_SPAN_RANGE only with a marked range;
 * marking a range chooses it, clearing one goes back to the run);
 * recomputes them and notifies SV_SESSION_SORT. */
void sv_session_set_span(struct sv_session *s, enum sv_session_span span);
/* The window [t0, t1) the timeline shows: with SV_SPAN_WINDOW, a new
 * window recomputes the statistics (and notifies SV_SESSION_SORT). */
void sv_session_set_window(struct sv_session *s, int64_t t0, int64_t t1);
/* What the statistics cover, for a title: "whole run", "window 1.20ms ..
 * 3.40ms (calls clipped)", "range ... (calls clipped)" (+ ", computing"
 * while busy). */
void sv_session_span_text(const struct sv_session *s, char *buf, size_t n);

/* Whether the search's lists are still being made (matches_pending), a
 * filter (filter_pending) or statistics are being computed on a worker,
 * or a view's job runs (jobs). */
bool sv_session_busy(const struct sv_session *s);
/* Take in a finished background filter (notifies SV_SESSION_FILTER |
 * SV_SESSION_LANES), the lists of a finished background search
 * (SV_SESSION_SEARCH), the statistics of a finished worker
 * (SV_SESSION_SORT) and every view's finished job (jobs), and update the
 * progress line; true when the screen should change.  Called by the
 * view's loop before every frame. */
bool sv_session_poll(struct sv_session *s);

/* The search (session_match.c).  How far the worker making the match
 * lists is, 0 .. 100 (0: none). */
int sv_session_match_percent(const struct sv_session *s);
/* The search as typed ("" for none). */
const char *sv_session_search_spec(const struct sv_session *s);
/* Why the search's regex gave up on some region names (regex.h's
 * limits), or NULL when it did not. */
const char *sv_session_search_limit(const struct sv_session *s);
/* The regions the search's regex matches, p->nregions flags, or NULL
 * without a search; borrowed until the search changes. */
const bool *sv_session_search_regions(const struct sv_session *s);
/* The calls a metadata term of the search (key=value, key~regex)
 * matches, p->ncalls flags, or NULL (no search, or no term). */
const bool *sv_session_search_calls(const struct sv_session *s);
/* Whether region r's name matches the search (false without one). */
bool sv_session_search_region(const struct sv_session *s, uint32_t r);
/* Whether a search is in force (by region names or call metadata). */
bool sv_session_search_on(const struct sv_session *s);
/* The search's calls on the lanes shown, in start order (ties: by lane,
 * then the lane's order): a copy, malloc'd, of *n of them (by_start
 * false: in no set order, sooner: a search of region names alone keeps
 * its calls as the rows' runs, and their merge in start order takes a
 * second at 100M calls); empty while matches_pending. */
uint32_t *sv_session_matches_copy(
	const struct sv_session *s, bool by_start, size_t *n);
/* How many of those calls start before t, and the one at position i
 * (SV_NO_CALL past the end): binary searches, the list is not made. */
size_t sv_session_match_lower(const struct sv_session *s, int64_t t);
uint32_t sv_session_match_at(const struct sv_session *s, size_t i);
/* Those that start at t, in the list's order: the count, with *out
 * malloc'd (NULL when none); they sit at sv_session_match_lower(s, t). */
size_t sv_session_match_ties(
	const struct sv_session *s, int64_t t, uint32_t **out);
/* The marked region's calls on the lanes shown, longest first (ties in
 * call-number order): *n of them (n may be NULL); NULL or empty while
 * matches_pending; borrowed until the next change of the search, the
 * mark or the lanes. */
const uint32_t *sv_session_marked(const struct sv_session *s, size_t *n);
/* How many calls each of those lists holds. */
size_t sv_session_nmatches(const struct sv_session *s);
size_t sv_session_nmarked(const struct sv_session *s);
/* Whether the lists are still being made on a worker. */
bool sv_session_matches_pending(const struct sv_session *s);
/* The position in the matches (marked false) or the marked calls of the
 * last jump (-1: none), and setting it: a cursor the views move, drawn by
 * nobody, so setting it notifies nothing; a new list resets it to -1. */
long sv_session_jump_pos(const struct sv_session *s, bool marked);
void sv_session_set_jump_pos(struct sv_session *s, bool marked, long pos);
/* The level-of-detail index of the highlighted calls (the search's and
 * the marked region's), or NULL while there is none or it is made.  When
 * they are most of the calls, it holds the others instead (a smaller
 * index, made sooner): ask sv_session_has_match() what it means. */
const struct sv_lod_index *sv_session_match_index(const struct sv_session *s);

/* Whether call c is highlighted by the search or the marked region. */
bool sv_session_is_match(const struct sv_session *s, uint32_t c);
/* The colour map (session_colors.c).  The colour of call c in the
 * session's colour mode, and of region r (palette.h: the same in every
 * view). */
int sv_session_call_color(const struct sv_session *s, uint32_t c);
int sv_session_region_color(const struct sv_session *s, uint32_t r);
/* The colour of region r of the second run (the first run's colour of
 * the same name). */
int sv_session_region2_color(const struct sv_session *s, uint32_t r);
/* How the timeline colours calls (enum sv_palette_mode). */
int sv_session_color_mode(const struct sv_session *s);
/* A number that changes whenever the colours of run's calls (0: the
 * profile, 1: the second run) may: the map or the mode; what drawn
 * colours kept from an earlier frame are keyed on. */
uint64_t sv_session_color_key(const struct sv_session *s, unsigned run);
/* Colour calls in mode (enum sv_palette_mode; out of range: by region)
 * and say so in the message line ("colours by duration (heat: ...)"). */
void sv_session_set_color_mode(struct sv_session *s, int mode);
/* Whether some highlighted call of (lane, depth) meets [t0, t1). */
bool sv_session_has_match(const struct sv_session *s, uint32_t lane,
	uint32_t depth, int64_t t0, int64_t t1);
/* Whether the filter keeps call c's region. */
bool sv_session_keeps(const struct sv_session *s, uint32_t c);

#endif
