/*
 * session_priv.h: what the session's files (session.c, session_filter.c,
 * session_match.c, session_order.c, session_stats.c, session_two.c,
 * session_colors.c) share beyond session.h.  Private to src/ui/session*.c.
 */
#ifndef SCOPEVIEW_UI_SESSION_PRIV_H
#define SCOPEVIEW_UI_SESSION_PRIV_H

#include "scopeview/session.h"

#include "scopeview/callmeta.h"

/* A copy of the n flags v (malloc'd), or NULL when v is NULL: what a
 * worker reads while the session's own may change. */
bool *sv_session_copy_flags(const bool *v, size_t n);
/* Tell the notify hook what changed (SV_SESSION_* bits, with those of
 * changes not told yet: notify_pending). */
void sv_session_notify(struct sv_session *s, unsigned what);
/* The one place the selection (sel, sel2) is written: a change is told
 * with the next notice (SV_SESSION_SELECT in notify_pending), which
 * sv_session_select gives at once and the session's own updates (lanes,
 * filter, profile, second run) give with the change they belong to. */
void sv_session_set_selection(
	struct sv_session *s, uint32_t sel, uint32_t sel2);
/* Sort the table shown again (its order depends on the second run's
 * table when sorted by the change). */
void sv_session_stats_resort(struct sv_session *s);
/* Recompute the statistics for the lanes, filter and span in force (on a
 * worker for a window or range of a large profile). */
void sv_session_compute_stats(struct sv_session *s);
/* Stop a worker computing statistics, if any. */
void sv_session_stats_stop(struct sv_session *s);
/* Take the worker's table in when it is done (true: the table
 * changed). */
bool sv_session_stats_poll(struct sv_session *s);
/* The statistics' part (session_stats.c): made empty, sorted by total
 * time, over the whole run; freed (NULL-safe; its worker stopped
 * before). */
struct sv_session_stats *sv_session_stats_new(void);
void sv_session_stats_free(struct sv_session_stats *st);
/* A range was marked (on) or cleared: the statistics cover it, or the
 * run again when they covered the range. */
void sv_session_stats_range(struct sv_session *s, bool on);
/* Take t (the whole run's table of the profile, made elsewhere) as the
 * table kept aside; t is zeroed. */
void sv_session_stats_take_all(struct sv_session *s, struct sv_stats_table *t);
/* Drop every table (a new profile) and a span of the old range. */
void sv_session_stats_forget(struct sv_session *s);

/* Remake the match lists and their index for the search, the marked
 * region and the lanes shown (on a worker for a large profile). */
void sv_session_update_matches(struct sv_session *s);
/* The lanes shown changed: the match lists follow them (on a worker for
 * a large profile, the old lists freed there); the highlight index, made
 * over every lane, is kept.  Both are made again while they are still
 * being made. */
void sv_session_update_match_lists(struct sv_session *s);
/* Sort calls by start (ties: the order given; with lane_ties as
 * sv_session_order_ties orders them), or longest first (ties: call
 * number, as the call list orders them: calls.h).  O(n): a key press on
 * millions of calls stays quick.  cancel (may be NULL) stops the sort by
 * duration. */
void sv_session_sort_calls(const struct sv_profile *p, uint32_t *calls,
	size_t n, bool longest, bool lane_ties, const atomic_bool *cancel);
/* Calls out[a, b), which start together, in the order a scan of the
 * lanes gives them: by lane, then in the lane's own order. */
void sv_session_order_ties(
	const struct sv_profile *p, uint32_t *out, size_t a, size_t b);
/* Runs of calls [a, b) whose starts do not descend (session_order.c):
 * the calls of a region-name search, as the profile's rows hold them.
 * The list in start order is their merge; a position in it and the
 * count of calls before a time are binary searches in the runs, so the
 * list itself need not be made. */
struct sv_session_run {
	uint32_t a, b;
};
/* A search keeps at most this many runs (a jump costs O(runs x log
 * calls)); more are merged into its list. */
#define SV_SESSION_RUNS_KEEP 4096
struct sv_session_runs {
	struct sv_session_run *run;
	size_t nruns;
	size_t ncalls; /* in every run */
};
/* The runs of the rows of the regions region_on flags, on the lanes
 * shown and kept by the filter, in one pass over their starts (read a
 * block at a time): 0; -EAGAIN when the rows do not suit (a filter by
 * call, a row over several lanes, rows too far from start order);
 * -ECANCELED when told to stop through cancel.  progress (may be NULL)
 * counts the calls read. */
int sv_session_rows_runs(const struct sv_session *s, const bool *region_on,
	const atomic_bool *cancel, _Atomic uint64_t *progress,
	struct sv_session_runs *out);
void sv_session_runs_fini(struct sv_session_runs *r);
/* The calls of r in start order (ties: by lane, then the lane's order,
 * as a scan of the lanes gives them), merged on two threads: the count,
 * with *out malloc'd (0 when told to stop). */
size_t sv_session_runs_merge(const struct sv_profile *p,
	const struct sv_session_runs *r, const atomic_bool *cancel,
	_Atomic uint64_t *progress, uint32_t **out);
/* The calls of the rows of the regions region_on flags (NULL: of region
 * one_region) on the lanes on display, kept by the filter, in row order,
 * sized once; cancel and progress (may be NULL) as above.  Returns the
 * count; *out is malloc'd. */
size_t sv_session_collect_rows(const struct sv_session *s,
	const bool *region_on, long one_region, const atomic_bool *cancel,
	_Atomic uint64_t *progress, uint32_t **out);
/* The calls of r, malloc'd: merged by start (as above), or in the runs'
 * order, at once. */
uint32_t *sv_session_runs_calls(const struct sv_profile *p,
	const struct sv_session_runs *r, bool by_start);
/* How many calls of r start before t; and the call at position i of
 * their merge (SV_NO_CALL past the end).  O(runs x log calls), and the
 * latter x 64. */
size_t sv_session_runs_lower(
	const struct sv_profile *p, const struct sv_session_runs *r, int64_t t);
uint32_t sv_session_runs_at(
	const struct sv_profile *p, const struct sv_session_runs *r, size_t i);
/* The calls of r that start at t, in their merge's order: the count,
 * with *out malloc'd (NULL when none). */
size_t sv_session_runs_ties(const struct sv_profile *p,
	const struct sv_session_runs *r, int64_t t, uint32_t **out);
/* The search's part (session_match.c): made empty, and freed
 * (NULL-safe; its workers stopped before). */
struct sv_session_search *sv_session_search_new(void);
void sv_session_search_free(struct sv_session_search *m);
/* Whether its lists or its index are still being made. */
bool sv_session_search_busy(const struct sv_session *s);
/* Free the highlight index (off the loop when big): it borrows from
 * index_full, which is about to go. */
void sv_session_search_drop_index(struct sv_session *s);
/* Forget the search (a new profile), not its lists. */
void sv_session_search_clear(struct sv_session *s);
/* Apply search pat again (a new profile) and remake the lists; err says
 * why not when it no longer compiles. */
void sv_session_search_again(
	struct sv_session *s, const char *pat, struct sv_error *err);
/* Tell a worker making match lists, if any, to stop, without waiting
 * for it; sv_session_stop_matches() waits for every such worker (before
 * the profile it reads goes). */
void sv_session_cancel_matches(struct sv_session *s);
void sv_session_stop_matches(struct sv_session *s);
/* Free *ix (ix may be NULL; *ix is then zeroed) and the arrays a and b
 * (may be NULL; ab_bytes between them): on a thread of its own when they
 * are large (tens of milliseconds of munmap on 10M calls), else here. */
void sv_session_free_later(
	struct sv_lod_index *ix, void *a, void *b, size_t ab_bytes);

/* The second run's statistics and row2 (session_two.c). */
void sv_session_compute_second(struct sv_session *s);
/* A rank subset's whole-run table (stats_run, row_run), once, at init. */
void sv_session_compute_run(struct sv_session *s);
/* Take t (over every rank and region) as the second run's table. */
void sv_session_adopt_second(struct sv_session *s, struct sv_stats_table *t);
/* The lanes on display changed: their flags, the statistics, the match
 * lists, and the selection when its lane went out of view (session.c). */
void sv_session_lanes_changed(struct sv_session *s);

/* One pattern of the search or the filter (session_filter.c): a regex on
 * region names and, for "key=value" or "key~regex", a metadata term too.
 * A term need not be a regex ("iter=[3" still matches metadata): re is
 * then NULL. */
struct sv_session_pat {
	struct sv_regex *re;
	struct sv_callmeta_term term;
	bool is_term;
};
/* Read pat; 0, or -EINVAL with err (nothing to free then). */
int sv_session_pat_compile(
	const char *pat, struct sv_session_pat *sp, struct sv_error *err);
void sv_session_pat_fini(struct sv_session_pat *sp);
/* Whether call c's metadata satisfies some term of pats[0 .. n). */
bool sv_session_pats_call(const struct sv_profile *p,
	const struct sv_session_pat *pats, size_t n, uint32_t c);

/* The filter's part (session_filter.c): made empty, freed (NULL-safe;
 * its worker stopped and its filter dropped before). */
struct sv_session_filter *sv_session_filter_new(void);
void sv_session_filter_free(struct sv_session_filter *f);
/* Whether it has name patterns (include or exclude), and those patterns
 * as a statistics filter's include and exclude lists (borrowed). */
bool sv_session_filter_by_name(const struct sv_session *s);
void sv_session_filter_patterns(
	const struct sv_session *s, struct sv_stats_filter *f);
/* Make the index drawn from index_full for the filter in force; 0 or
 * -errno with err. */
int sv_session_filter_index(struct sv_session *s, struct sv_error *err);
/* Free the index drawn (later: on a thread of its own, as it is large). */
void sv_session_filter_drop_index(struct sv_session *s, bool later);
/* Drop the filter in force and its text (a new profile). */
void sv_session_filter_clear(struct sv_session *s);
/* A match worker's shadow session gets copies of the kept regions and
 * calls in a filter part of its own, freed by _fini. */
void sv_session_filter_shadow(
	struct sv_session *shadow, const struct sv_session *s);
void sv_session_filter_shadow_fini(struct sv_session *shadow);
/* For each region of p whether filter f keeps its name (malloc'd; NULL:
 * no filter, every region). */
bool *sv_session_filter_keep_names(
	const struct sv_session_filter *f, const struct sv_profile *p);
/* Drop the filter in force (patterns, kept regions and calls; not the
 * index), stopping the statistics' worker that may read it first. */
void sv_session_free_filter(struct sv_session *s);
/* Apply spec here and now, without telling anyone (a reload's filter);
 * 0 or -EINVAL (message set). */
int sv_session_filter_now(struct sv_session *s, const char *spec);
/* A new profile's filter, spec as typed: made here and now without
 * telling anyone for a small profile, on a worker for a big one (it
 * says so when done, as sv_session_set_filter does). */
void sv_session_filter_again(struct sv_session *s, const char *spec);
/* Stop the filter's worker, if any, and drop what it made. */
void sv_session_filter_stop(struct sv_session *s);
/* Start the filter's worker on spec again (after the second run
 * changed under a stopped one). */
void sv_session_filter_restart(struct sv_session *s, const char *spec);
/* Take in the worker's filter when it is done (notifies
 * SV_SESSION_FILTER | SV_SESSION_LANES); true while one is pending or
 * when it came (the screen changes). */
bool sv_session_filter_poll(struct sv_session *s);
/* Take in the search's lists and index from their worker, or show how
 * far it is; true when the screen should change. */
bool sv_session_match_poll(struct sv_session *s);
/* The second run's parts (session_two.c): its hidden lanes after the
 * lanes changed, its index after the filter changed, and its maps
 * after the first run was replaced. */
void sv_session_second_lanes(struct sv_session *s);
void sv_session_second_filter(struct sv_session *s);
void sv_session_second_profile(struct sv_session *s);
/* The second run's part: made empty; freed (NULL-safe). */
struct sv_session_two *sv_session_two_new(void);
void sv_session_two_free(struct sv_session_two *two);
/* Its table is to be computed again (a new first run). */
void sv_session_second_stale(struct sv_session *s);
/* The second run p2's index of the calls filter f keeps (by name) into
 * *ix (the filter's worker makes it, or sv_session_second_filter); and
 * *ix taken by s when it has an index of the same second run (then *ix
 * is zeroed and *has false), else false. */
void sv_session_second_index(struct sv_lod_index *ix,
	const struct sv_profile *p2, const struct sv_session_filter *f);
bool sv_session_second_take(struct sv_session *s, const struct sv_profile *p2,
	struct sv_lod_index *ix, bool *has);

/* The colour map (session_colors.c): made empty, in mode "region";
 * freed (NULL-safe). */
struct sv_session_colors *sv_session_colors_new(void);
void sv_session_colors_free(struct sv_session_colors *c);
/* The profile's map: m taken over (zeroed) when given, else made of s->p
 * (reads only s->p: safe on a worker while nothing else touches the
 * map). */
void sv_session_colors_make(struct sv_session *s, struct sv_palette_map *m);
/* The second run's map: m taken over (zeroed) when given, else made of
 * s->p2; region1[r], p2's region r's region of the same name in p or -1,
 * gives it the first run's colour. */
void sv_session_colors_second(
	struct sv_session *s, struct sv_palette_map *m, const long *region1);
void sv_session_colors_second_drop(struct sv_session *s);

#endif
