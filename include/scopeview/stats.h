/*
 * stats.h: per-region statistics with scope-profiler's exact semantics
 * (doc/format.md section 10).
 *
 * Three levels, as scope-profiler has them:
 *  - one (rank, region) row: its Region object (doc/format.md 10.1), optionally
 *    restricted to some lanes or to one thread (scope-profiler's
 *    for_thread);
 *  - one region across the selected ranks: MPIRegion (doc/format.md 10.3):
 *    pooled per-call durations, first/last from the earliest-starting /
 *    latest-ending rank, rank imbalance;
 *  - the run (doc/format.md 10.4): display order, minimum start, time origin,
 *    total time.
 *
 * Units: every time is int64 nanoseconds (or a double of nanoseconds for
 * means, standard deviations and percentiles); seconds appear only where
 * figures are printed.  A figure the data cannot give (no calls, or an
 * aggregate file without per-call data) has its has_ flag false and its
 * value 0: it is never a zero posing as a measurement.
 *
 * Where the figures differ from scope-profiler's on purpose (audited
 * against region.py, mpi_region.py, results.py, summary.py and h5reader.py;
 * tests/e2e_numpy.sh recomputes every figure with numpy):
 *  - A selection without calls has no mean, min, max, first, last, std or
 *    percentiles (has_ false), where Region/MPIRegion say 0.0; scope-
 *    profiler's own summary table (summary.region_row) says None there too.
 *    Sums over no calls (total, exclusive, await) are a true 0.
 *  - The aggregate layout has no first, last or std (scope-profiler: 0.0;
 *    its summary table: None), and no span (its first_start_time is 0.0,
 *    which still decides the display order: see order_start_ns).
 *  - A summary-only row without a stored exclusive total has none, where
 *    read_h5_summary() reports the inclusive total.
 *  - A stored exclusive_totals value >= 0 is always used for a whole row.
 *    scope-profiler uses it only until some region's per-call exclusive
 *    times are rebuilt (then every region of every rank takes the rebuilt
 *    ones); the writer computes both the same way, so only a file whose
 *    stored totals disagree with its own calls can tell.
 *  - A region named in region_table without rows is listed with no calls
 *    (scope-profiler's get_regions() fails with "min() arg is an empty
 *    sequence").
 *  - Cross-rank sums are int64 ns, printed once as seconds; Python adds the
 *    ranks' float seconds (a difference in the last bit at most).
 *  - An empty include list selects every region, as no --include option
 *    does; get_regions(include=[]) would select none, which the command
 *    line cannot ask for.
 *  - Display order under a rank filter uses the selected ranks' starts
 *    (get_regions() takes every rank of the region; doc/format.md 10.3 says a
 *    rank filter recomputes everything over those ranks).  The newest
 *    summary.py table instead nests rows by call path and sorts regions
 *    without a call tree last; we list each region once, in get_regions()
 *    order, and a region without calls first (its start counts as 0.0).
 *  - Region.for_thread's source was not available to the audit: by_thread
 *    follows doc/format.md 10.1 (every column masked by thread_ids == thread),
 *    and a thread with no calls in a row has no GPU figure.
 *
 * Cost: each region's figures take O(n) over its calls, plus O(n) expected
 * selection (not a sort) for percentiles, with one scratch buffer per
 * table and no heap object per call.  Nothing here prints, knows about
 * HDF5, or about the terminal.
 */
#ifndef SCOPEVIEW_STATS_H
#define SCOPEVIEW_STATS_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/stats.h belongs to the model layer, which this layer may not use"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/profile.h"

struct sv_regex; /* regex.h */
struct sv_stats_edge;

/* The figures of one set of calls (a row, part of a row, or several rows
 * pooled across ranks). */
struct sv_stats {
	uint64_t num_calls;
	/* Sum of durations = inclusive; 0 without calls.  has_total is false
	 * only when the calls are not in memory and no stored statistics
	 * give the total (a summary-only load of a file without
	 * summary_statistics); across ranks, when any rank's is. */
	bool has_total;
	int64_t total_ns;

	/* Stored exclusive_totals when >= 0 (whole rows only), else the sum of
	 * the profile's per-call exclusive[].  Absent for a row without calls
	 * in memory and without a stored total (scope-profiler's summary-only
	 * reader reports the inclusive total there: a guess, not a figure);
	 * across ranks, absent when any rank's is. */
	bool has_exclusive;
	int64_t exclusive_ns;

	/* mean, min and max: there is at least one call and its durations
	 * (or stored statistics) are known. */
	bool has_dist;
	double mean_ns;
	int64_t min_ns, max_ns;

	/* Duration of the first / last call in storage order (not in time
	 * order).  Absent without calls and for the aggregate layout. */
	bool has_first_last;
	int64_t first_ns, last_ns;

	/* Population standard deviation (ddof 0); from the stored m2 for
	 * summary-only rows; absent for the aggregate layout. */
	bool has_std;
	double std_ns;

	/* numpy 'linear' percentiles: only with per-call durations. */
	bool has_percentiles;
	double p50_ns, p95_ns, p99_ns;

	/* GPU device time: rows whose gpu_durations hold any value >= 0.  As
	 * scope-profiler, every value of such a row is summed, including -1
	 * ("no timing") entries of a partially filled row. */
	bool has_gpu;
	uint64_t gpu_count; /* calls counted in gpu_total_ns */
	int64_t gpu_total_ns;
	double gpu_mean_ns;

	/* Sum of await_ns: only when the file has the await column. */
	bool has_await;
	int64_t await_total_ns;

	/* Earliest start and latest end of the calls (summary-only rows: the
	 * stored start_minimum / end_maximum; absent for the aggregate
	 * layout and without calls). */
	bool has_span;
	int64_t first_start_ns, last_end_ns;
};

/*
 * What to count.  A zeroed struct (or a NULL pointer) selects everything.
 * Every array is borrowed for the duration of the call that takes the
 * filter (sv_stats_table_compute copies what it keeps).
 */
struct sv_stats_filter {
	/* Ranks: rank r is kept iff r < nrank_on && rank_on[r].  NULL keeps
	 * every rank.  Everything (pooled figures, first/last, imbalance) is
	 * recomputed over the kept ranks only. */
	const bool *rank_on;
	uint32_t nrank_on;
	/* Lanes: p->nlanes flags; NULL keeps every lane.  Ignored for a
	 * profile without per-call data.  Stored exclusive totals do not
	 * apply to part of a row: the per-call exclusive[] values are summed. */
	const bool *lane_on;
	/* scope-profiler's Region.for_thread(thread): keep only calls with
	 * thread_ids == thread (a profile without thread_ids has -1 for every
	 * call). */
	bool by_thread;
	int64_t thread;
	/* Calls: p->ncalls flags; NULL keeps every call (summary --group-by
	 * keeps the calls of one metadata value).  Not copied: it is
	 * borrowed for as long as the table lives.  Like lanes, stored
	 * exclusive totals then do not apply. */
	const bool *call_on;
	/* Region names: kept iff some include pattern matches (or ninclude is
	 * 0) and no exclude pattern matches, as get_regions() applies them
	 * (include first; exclude wins over include); matching is anchored at
	 * the start of the name only, like Python's re.match (sv_regex_match):
	 * "solve" keeps "solver", "solve$" does not. */
	struct sv_regex *const *include;
	size_t ninclude;
	struct sv_regex *const *exclude;
	size_t nexclude;
	/* Leave out regions with no call in the selection (the viewer's side
	 * panel).  Without it every selected region is listed, with zero
	 * calls where the selection has none (as scope-profiler's summary). */
	bool skip_empty;
	/* A time range [t0_ns, t1_ns) (absolute ns, t0_ns <= t1_ns), as
	 * Tracy and Perfetto count one: only calls that meet it (a zero-
	 * length one when it lies inside), each with the part of its time
	 * inside (duration, min, max, mean, std, percentiles, first, last,
	 * span), and exclusive time as that part minus the parts its direct
	 * children cover inside.  Stored exclusive totals then do not apply,
	 * and there is no GPU or await figure (that time cannot be placed in
	 * the range).  Ignored for a profile without per-call data. */
	bool has_range;
	int64_t t0_ns, t1_ns;
	/* Polled once per row: set, the computation stops and returns
	 * -ECANCELED (the table is then empty).  NULL: never. */
	const atomic_bool *cancel;
	/* The table of the whole run of the same profile (computed with no
	 * rank, lane, thread, call or range selection; sv_stats_table.plain),
	 * or NULL.  The result is the same table, made from what base has
	 * where it can be: a row kept whole (its rank kept, its lane shown,
	 * no thread, call or range selection) takes base's figures of it
	 * without reading its calls (its exclusive time summed from its
	 * calls when a lane selection asks for that), a region all of
	 * whose rows are kept whole takes base's percentiles, and with a
	 * range a row whose calls are in order (sv_stats_rank.ordered)
	 * reads only its calls that meet the range, found by binary search.
	 * Borrowed for the call. */
	const struct sv_stats_table *base;
	/* Regions computed on this many threads at once (0 or 1: this
	 * one); the result does not depend on it. */
	int threads;
	/* Each row's selected durations (those its figures are made of)
	 * handed to keep, in no set order, and no region's own pooled
	 * percentiles selected: a share of a streamed table, whose regions
	 * are finished over the whole file (sv_stats_stream).  Called on
	 * the table's threads, a region's rows all on one.  NULL: none. */
	void (*keep)(void *ctx, uint32_t region, const int64_t *v, size_t n);
	/* With keep, after a region's rows: the values kept of it counted
	 * by the statistics' buckets (ncount of them; what they are is
	 * the statistics' own), so that the pooled percentiles need no
	 * count of their own.  NULL: none. */
	void (*keep_counts)(void *ctx, uint32_t region, const uint32_t *count,
		size_t ncount);
	void *keep_ctx;
};

/* One rank of a region. */
struct sv_stats_rank {
	uint32_t rank;
	size_t row; /* index into p->rows */
	struct sv_stats s;
	/* The row's calls read for s start in order and end in order (each
	 * drawn to max(end, start + 1) no earlier than the one before), so
	 * the calls that meet a time range are a run of them (a row of one
	 * lane whose region does not call itself). */
	bool ordered;
};

/* One region over the selected ranks (MPIRegion). */
struct sv_stats_region {
	uint32_t region;  /* index into p->regions */
	const char *name; /* p->regions[region]: valid while the profile is */
	struct sv_stats s;
	/* (max / mean - 1) * 100 over the ranks with total > 0; 0.0 when fewer
	 * than two such ranks. */
	double rank_imbalance_pct;
	/* The rank with the largest total (ties: the first in the file's row
	 * order); absent when no selected rank has a call. */
	bool has_slowest_rank;
	uint32_t slowest_rank;
	/* First non-null value in rank order (NULL / -1 when none). */
	const char *source_file;
	int64_t source_line;
	const char *source_text;
	/* The row whose tags stand for the region (the lowest selected rank,
	 * as scope-profiler's first_captured("tags")); NULL without rows. */
	const struct sv_row *tags_row;
	/* Display-order key, as scope-profiler's get_regions(): the minimum
	 * over the selected ranks of each rank's first start, where a rank
	 * without calls (or without stored starts) counts as 0, and 0 without
	 * ranks: such regions sort first.  Compared as float64 seconds, as
	 * Python sorts, with ties in base order. */
	int64_t order_start_ns;
	struct sv_stats_rank *ranks; /* by rank, ascending */
	size_t nranks;
};

/* Sort keys (doc/format.md 10.4 and scope-profiler's summary --sort).  "start"
 * is ascending by order_start_ns (ties in base order), "name" ascending
 * (bytewise = code point order), every other key descending with ties by
 * name and absent figures last, exactly as summary.region_rows() sorts
 * (by name, then stably by (figure is not None, figure), reversed).  A
 * total or exclusive time over no calls counts as absent, as the table
 * shows it as '-'.  "exclusive" is ours. */
#define SV_STATS_KEY_TABLE(X)                                                \
	X(START, "start", "first start, ascending (scope-profiler's order)") \
	X(TOTAL, "total", "total (inclusive) time")                          \
	X(CALLS, "calls", "number of calls")                                 \
	X(AVG, "avg", "average duration")                                    \
	X(MIN, "min", "shortest call")                                       \
	X(MAX, "max", "longest call")                                        \
	X(FIRST, "first", "duration of the first call")                      \
	X(LAST, "last", "duration of the last call")                         \
	X(STD, "std", "standard deviation")                                  \
	X(P50, "p50", "median duration")                                     \
	X(P95, "p95", "95th percentile")                                     \
	X(P99, "p99", "99th percentile")                                     \
	X(IMBALANCE, "imbalance", "rank imbalance in percent")               \
	X(NAME, "name", "region name, ascending")                            \
	X(EXCLUSIVE, "exclusive", "exclusive time")

enum sv_stats_key {
#define SV_STATS_KEY_ENUM(id, name, help) SV_STATS_KEY_##id,
	SV_STATS_KEY_TABLE(SV_STATS_KEY_ENUM)
#undef SV_STATS_KEY_ENUM
		SV_STATS_KEY_COUNT
};

/* The key's name ("total") and one-line help; NULL for an invalid key. */
const char *sv_stats_key_name(enum sv_stats_key key);
const char *sv_stats_key_help(enum sv_stats_key key);
/* The key called name, or -1. */
int sv_stats_key_from_name(const char *name);

/* The statistics of a run, for one selection. */
struct sv_stats_table {
	const struct sv_profile *p;      /* borrowed: must outlive the table */
	struct sv_stats_region *regions; /* display order until sorted */
	size_t nregions;

	uint32_t num_ranks;   /* the profile's (not the selection's) */
	bool per_call;        /* the profile holds per-call data */
	bool has_min_start;   /* some selected row has a first start */
	int64_t min_start_ns; /* minimum first start over those rows */
	bool has_max_end;
	int64_t max_end_ns;
	int64_t time_origin_ns; /* start_time_ns, else min_start_ns, else 0 */
	bool has_total_time;    /* finalize_time_ns and start_time_ns exist */
	int64_t total_time_ns;  /* finalize - start */

	enum sv_stats_key sorted_by;
	/* Computed with no rank, lane, thread, call or range selection: a
	 * base for other selections (sv_stats_filter.base). */
	bool plain;

	/* Private: the selection, kept for sv_stats_percentile. */
	bool *priv_rank_on;
	uint32_t priv_nrank_on;
	bool *priv_lane_on;
	bool priv_by_thread;
	int64_t priv_thread;
	const bool *priv_call_on;
	bool priv_range;
	int64_t priv_t0, priv_t1;
	struct sv_stats_edge *priv_edges;
	size_t priv_nedges;
};

/*
 * Compute the statistics of every selected region of p under filter f
 * (NULL = everything) into t, in display order.  t is overwritten (call
 * sv_stats_table_fini on a previous result first).  Returns 0; -EINVAL
 * (with err) when p is NULL, f->lane_on is given for a profile whose
 * lanes were not built, or a range ends before it starts; -ECANCELED when
 * f->cancel was set (t is then empty, and may be finished as usual).
 */
int sv_stats_table_compute(struct sv_stats_table *t, const struct sv_profile *p,
	const struct sv_stats_filter *f, struct sv_error *err);
/* Free what t holds; NULL-safe, and t may be re-used after. */
void sv_stats_table_fini(struct sv_stats_table *t);
/* A copy of src (regions, ranks and selection; the profile and a call
 * selection borrowed as src borrows them) into dst, which is overwritten. */
void sv_stats_table_copy(
	struct sv_stats_table *dst, const struct sv_stats_table *src);

/* Reorder t->regions by key (see SV_STATS_KEY_TABLE). */
void sv_stats_table_sort(struct sv_stats_table *t, enum sv_stats_key key);

/* The region of t by region index, or NULL if not selected.  Linear. */
const struct sv_stats_region *sv_stats_table_find(
	const struct sv_stats_table *t, uint32_t region);

/*
 * Any percentile pct in [0, 100] of region t->regions[i] over the table's
 * selection: over all its selected ranks pooled (rank_index < 0) or of
 * one entry of its ranks[].  Stores ns in *out and returns 0; -EINVAL for
 * a pct outside [0, 100] (or NaN) or a bad index; -ENODATA when there are
 * no per-call durations (no calls, or an aggregate file).
 */
int sv_stats_percentile(const struct sv_stats_table *t, size_t i,
	long rank_index, double pct, double *out);

/*
 * The figures of one row p->rows[row] under the lane and thread parts of
 * f (its rank and region parts are ignored; NULL = the whole row).
 * Returns 0, or -EINVAL for a bad row index.
 */
int sv_stats_row(const struct sv_profile *p, size_t row,
	const struct sv_stats_filter *f, struct sv_stats *out);

/*
 * Figure key of s as a double (ns for times, the count for CALLS); false
 * when s does not have it, and for TOTAL and EXCLUSIVE when there are no
 * calls (as scope-profiler's summary, which shows "-" and sorts them
 * last).  START gives first_start_ns; NAME and IMBALANCE are not figures
 * of a struct sv_stats (false).
 */
bool sv_stats_value(
	const struct sv_stats *s, enum sv_stats_key key, double *out);

/*
 * The durations (ns) of region t->regions[i] over the table's selection,
 * as sv_stats_percentile selects from them: every selected rank pooled
 * (rank_index < 0) or one entry of its ranks[].  Stores a new array in
 * *out (free it with sv_free_big; NULL when none) and its length in *n.
 * Returns 0, -EINVAL for a bad index, -ENODATA without per-call data.
 */
int sv_stats_values(const struct sv_stats_table *t, size_t i, long rank_index,
	int64_t **out, size_t *n);

/* The percentiles every row and region reports: 50, 95, 99. */
extern const double sv_stats_ppct[3];

/* At most this many order statistics serve one sv_stats_pct_need. */
#define SV_STATS_PCT_NEED_MAX 16

/*
 * numpy's 'linear' percentiles of n > 0 values in two steps, for a caller
 * that finds order statistics its own way (scopeview-mpi's distributed
 * selection): sv_stats_pct_need stores the 0-based ranks (ascending, no
 * repeats, at most SV_STATS_PCT_NEED_MAX) of the order statistics that
 * pct[0..npct) (npct <= SV_STATS_PCT_NEED_MAX / 2, each in 0..100) need
 * in need[] and returns their number; sv_stats_pct_from takes their
 * values val[] and writes out[i] for pct[i], exactly what
 * sv_stats_percentiles gives for the same values.
 */
size_t sv_stats_pct_need(
	size_t n, const double *pct, size_t npct, size_t *need);
void sv_stats_pct_from(size_t n, const double *pct, size_t npct,
	const size_t *need, const int64_t *val, size_t nneed, double *out);

/*
 * One (rank, region) row's figures as another process computed them
 * (scopeview-mpi): the row is the nth (0 first) of the rows of that rank
 * and region in the profile's row order.
 */
struct sv_stats_part {
	uint32_t rank, region, nth;
	struct sv_stats s;
};

/*
 * The figures of every row of table lt (computed over p) as parts, for
 * sv_stats_table_merge over a profile holding p's rows among others: a
 * new array (free it) of *n parts.
 */
struct sv_stats_part *sv_stats_parts(
	const struct sv_profile *p, const struct sv_stats_table *lt, size_t *n);

/*
 * The table sv_stats_table_compute would give over a profile holding
 * every row's calls, from the rows of p (read for their ranks, regions,
 * sources and tags only: a summary-only profile serves) and every
 * selected row's figures in parts[0..nparts) (any order; a row without a
 * part is left out of its region).  f's rank and region selection applies
 * as in sv_stats_table_compute; its lane, thread, call and range parts
 * must have been applied by whoever computed the parts.  per_call is what
 * t->per_call says.  The pooled percentiles are not computed: every
 * region's has_percentiles is false, for the caller to fill.  Returns 0
 * or -EINVAL (with err) when p or t is NULL.
 */
int sv_stats_table_merge(struct sv_stats_table *t, const struct sv_profile *p,
	const struct sv_stats_filter *f, bool per_call,
	const struct sv_stats_part *parts, size_t nparts, struct sv_error *err);

/*
 * The table of a profile whose calls are read a share of its ranks at a
 * time, each share's calls held only while its table is computed
 * (`scopeview summary` of 100M calls).  whole is the file's index (a
 * summary-only load: rows, regions, stored records; borrowed, it must
 * outlive the stream); sv_stats_stream_add computes the table of each
 * share p (a load of every row of some ranks) under f, the filter the
 * end is given (p may be freed after the call), and keeps each selected
 * call's duration as the table reads it (sv_stats_filter.keep), four
 * bytes where it fits in 32 bits; sv_stats_stream_end
 * writes into t the table sv_stats_table_compute gives over one load of
 * every share, pooled percentiles included.  Each returns 0, or -EINVAL
 * with err (a share of another region table).
 */
struct sv_stats_stream;
struct sv_stats_stream *sv_stats_stream_new(const struct sv_profile *whole);
int sv_stats_stream_add(struct sv_stats_stream *s, const struct sv_profile *p,
	const struct sv_stats_filter *f, struct sv_error *err);
int sv_stats_stream_end(struct sv_stats_stream *s, struct sv_stats_table *t,
	const struct sv_stats_filter *f, struct sv_error *err);
void sv_stats_stream_free(struct sv_stats_stream *s);

/*
 * numpy.percentile(v[0..n), pct) with the default 'linear' method, in the
 * units of v.  May reorder v (selection, not a full sort).  n must be > 0
 * and 0 <= pct <= 100.
 */
double sv_stats_percentile_of(int64_t *v, size_t n, double pct);

/*
 * The sorted distinct values of the per-call column col (e.g.
 * p->thread_id, p->task_id) over row's calls: scope-profiler's
 * Region.threads.  Returns the count and stores a malloc'd array in *out
 * (NULL when the count is 0); returns 0 when col is NULL.
 */
size_t sv_stats_row_distinct(const struct sv_profile *p, size_t row,
	const int64_t *col, int64_t **out);

/*
 * Parse a rank list such as "0,2-5" into flags: *on (malloc'd) gets
 * *n = max rank + 1 flags.  Ranks are decimal, 0 .. UINT32_MAX - 1;
 * ranges are inclusive and ascending; blanks around items are allowed.
 * Returns 0, or -EINVAL with err ("bad rank list '3-1': ...").
 */
int sv_stats_parse_ranks(
	const char *spec, bool **on, uint32_t *n, struct sv_error *err);

#endif
