/*
 * profile.h: a scope-profiler profile in memory, columnar.
 *
 * The loader (load.h) fills a struct sv_profile through the builder calls
 * below and then calls sv_profile_finish(), which rebuilds the nesting of
 * every lane the way scope-profiler's call_stack.py does.  After that the
 * profile is read-only: every other module takes `const struct sv_profile *`.
 *
 * Vocabulary (doc/format.md section 0):
 *  - a *row* is one (rank, region) entry of /rank_region_index (or one
 *    rank<N>/regions/<name> group in schema 1): the calls of one region on
 *    one rank, in the file's storage order;
 *  - a *call* is one event: start and end in int64 nanoseconds on the
 *    profiler's clock (absolute perf_counter_ns values);
 *  - a *lane* is where calls can nest: one thread, or one async task, of one
 *    rank (doc/format.md 9.1).  Calls of different lanes never nest.
 *
 * Calls are stored row after row (rows[i].first .. first+count-1), each
 * row's calls in storage order, so per-row figures such as first/last are
 * slices.  Per-call data are parallel arrays indexed by call number (a
 * uint32_t: a profile holds at most SV_MAX_CALLS calls).  There is no heap
 * object per call, and what can be derived is not stored: a call's row
 * is searched in row_first (sv_profile_row_of), its place in its lane in
 * the lane's sorted calls (sv_profile_lane_pos); the duration and the
 * exclusive time are 32 bits with an exception table (wide.h) for the
 * values that do not fit (sv_call_duration, sv_profile_end,
 * sv_profile_exclusive), the depth 8 bits.  A finished profile takes 25
 * bytes a call with only the required columns: start (8), duration (4),
 * depth (1), parent, exclusive time and the entry in the lane's calls (4
 * each); the lane of a call (4 more) only when a rank has several lanes
 * (sv_call_lane).  Packed for the viewer (sv_profile_pack), a few bytes
 * a call: 5.9 at 100M calls of a generated two-column profile.
 *
 * All strings are valid UTF-8 (invalid bytes were replaced by U+FFFD
 * when loaded) but may contain control characters: whoever draws them on
 * a terminal must escape them.
 */
#ifndef SCOPEVIEW_PROFILE_H
#define SCOPEVIEW_PROFILE_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/profile.h belongs to the model layer, which this layer may not use"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/packed.h"
#include "scopeview/wide.h"

#define SV_MAX_CALLS ((uint64_t)UINT32_MAX - 1)
#define SV_NO_CALL   UINT32_MAX /* "no such call" in parent[] and friends */
#define SV_MAX_DEPTH UINT16_MAX

enum sv_layout_kind {
	SV_LAYOUT_COLUMNAR,  /* schema 2/3 "columnar" */
	SV_LAYOUT_AGGREGATE, /* storage_layout = "aggregate": no calls */
	SV_LAYOUT_GROUPS,    /* schema 1: rank<N>/regions/<name> */
};

/* The 88-byte summary_statistics record (doc/format.md 4.4), in ns. */
struct sv_summary {
	int64_t total, minimum, maximum, first, last;
	int64_t start_minimum, end_maximum;
	uint64_t gpu_count;
	int64_t gpu_total;
	double mean, m2;
};

/* The id columns of the events (doc/format.md 4.8). */
enum sv_id_column {
	SV_ID_CALL,   /* call_ids */
	SV_ID_PARENT, /* parent_ids */
	SV_ID_THREAD, /* thread_ids */
	SV_ID_TASK,   /* task_ids */
	SV_ID_COLUMNS
};

struct sv_row {
	uint32_t rank;
	uint32_t region;     /* index into sv_profile.regions */
	uint64_t first;      /* first call (index into the call columns) */
	uint64_t count;      /* calls in this row (aggregate: stored count) */
	int64_t source_line; /* -1 = unknown */
	char *source_file;   /* NULL = unknown (the file held "") */
	char *source_text;   /* NULL = not captured */
	char **tags;         /* ntags strings; see tags_raw */
	size_t ntags;
	bool tags_raw;           /* tag text was not a JSON array: tags[0]
				    holds the raw text */
	int64_t exclusive_total; /* stored exclusive ns; -1 = not stored */
	bool has_summary;        /* summary holds the stored record (also set
				    for aggregate rows, from their columns) */
	struct sv_summary summary;
	bool has_gpu; /* some call of the row has gpu_ns >= 0 (or, without
			 calls, summary.gpu_count > 0) */
};

/* A /metadata attribute. */
enum sv_meta_kind {
	SV_META_INT,
	SV_META_FLOAT,
	SV_META_BOOL,
	SV_META_STRING,
	SV_META_STRINGS, /* 1-D string array */
	SV_META_OTHER,   /* a type we do not decode; text says what */
};

struct sv_meta {
	char *key;
	enum sv_meta_kind kind;
	int64_t i;   /* INT, BOOL (0/1) */
	double f;    /* FLOAT (also INT as a double) */
	char *text;  /* every kind: the value as scope-profiler would print it
			 (arrays joined with ", ") */
	char **strs; /* STRINGS: nstrs elements */
	size_t nstrs;
};

/* A row of /thread_table (times relative to the run start, ns; -1 = none). */
struct sv_thread {
	uint32_t rank;
	int64_t index, ident, native_id;
	int8_t daemon;
	char *name;
	int64_t start_ns, end_ns, cpu_ns;
};

/* A row of /task_table. */
struct sv_task {
	uint32_t rank;
	int64_t index, thread_index;
	char *kind, *name, *coro_name;
	int64_t created_ns, done_ns, steps, running_ns, suspended_ns;
};

/* An extra per-call column found under /events (doc/format.md 4.8). */
struct sv_column {
	char *name;
	bool is_float;
	int64_t *i; /* one of these two, ncalls long */
	double *f;
};

/* One rank's hardware counters of one region (doc/format.md 4.12):
 * rank<N>/perf_events/<region> or rank<N>/likwid/regions/<tag>. */
struct sv_counters {
	uint32_t rank;
	char *region;  /* the region (tag) as the file names it */
	bool likwid;   /* LIKWID; else perf_events */
	char *group;   /* LIKWID's group_name ("CLOCK"), NULL for perf */
	int64_t calls; /* perf: calls; LIKWID: summed call_counts; -1 = none */
	double time_s; /* LIKWID: the longest thread's time (s); -1 = none */
	uint32_t nthreads; /* LIKWID's threads (columns), 1 for perf */
	size_t nevents;
	char **events;   /* unique labels (a repeated name gets ":counter") */
	double *values;  /* per event, summed over the threads */
	size_t nmetrics; /* LIKWID's derived metrics */
	char **metrics;
	double *metric_values; /* per metric, averaged over the threads */
};

/* A line profile (rank<N>/line_profile/<i>, doc/format.md 4.12). */
struct sv_line_profile {
	uint32_t rank;
	char *region, *filename, *function; /* NULL when not stored */
	int64_t first_lineno;               /* -1 = not stored */
	double unit;                        /* seconds per time unit */
	char *source;                /* 0.7: the function's text, or NULL */
	int64_t source_first_lineno; /* its first line's number, -1 */
	size_t nlines;
	int64_t *line, *hits; /* nlines each */
	double *time;         /* in units; nlines */
};

struct sv_lane {
	uint32_t rank;
	int64_t key;    /* scope-profiler's lane: task id (>= 0), -1 unknown,
			   -2 - thread id */
	int64_t thread; /* thread index of the lane (or of the task), -1 none */
	int64_t task;   /* task index, -1 for a thread lane */
	uint32_t ncalls;
	/* Call numbers sorted by start asc, end desc, then call number;
	 * sv_profile_pack packs them into callpk (calls then NULL).  Read
	 * them through sv_lane_call(). */
	uint32_t *calls;
	struct sv_packed callpk;
	uint32_t depth_rows; /* max depth + 1 (0 for an empty lane) */
	char *label;         /* "r0 MainThread", "r0 Task-3 fetch() on
				worker-1", "r2" */
};

struct sv_profile {
	char *path;
	int schema; /* version attribute read; 0 = absent */
	enum sv_layout_kind layout;
	bool has_calls; /* false for the aggregate layout */

	/* Region names in base order (region_table index, or schema 1 first
	 * appearance). */
	char **regions;
	uint32_t nregions;

	struct sv_row *rows;
	size_t nrows;
	/* rows[r].first for every row, ascending (rows are added in call
	 * order): the search of a call's row, sv_profile_row_of(). */
	uint32_t *row_first;

	/* Per call, ncalls long.  The optional columns are NULL when the file
	 * did not record them. */
	uint32_t ncalls;
	/* The start of each call: the loader fills start_ns; a holder that
	 * reads starts one call at a time packs them (sv_profile_pack) into
	 * start_pk, a few bytes a call, and start_ns is then NULL.  Read
	 * them through sv_profile_start(). */
	int64_t *start_ns;
	struct sv_packed start_pk;
	/* The end of each call: the loader fills end_ns; sv_profile_finish
	 * turns it, in its own memory, into dur (end - start, wrapping, as
	 * uint32, with the durations of 2^32 - 1 ns or more and the negative
	 * ones in dur_wide) and sets end_ns to NULL; sv_profile_pack packs
	 * the durations into dur_pk and frees dur.  Read them through
	 * sv_profile_end() and sv_call_duration().  A loader that has the
	 * durations rather than the ends (schema 3 stores them) leaves them
	 * in end_ns and sets end_is_duration: one pass less over the calls
	 * before sv_profile_finish narrows them. */
	int64_t *end_ns;
	bool end_is_duration;
	uint32_t *dur;
	struct sv_wide dur_wide;
	struct sv_packed dur_pk;
	/* The earliest start and the latest end of the calls, noted by
	 * sv_profile_finish (has_span: there are calls). */
	bool has_span;
	int64_t span_start_ns, span_end_ns;
	int64_t *gpu_ns, *call_id, *parent_id, *thread_id, *task_id, *await_ns;
	/* gpu_ns and await_ns packed (sv_profile_pack; the arrays then
	 * NULL).  Read them through sv_profile_gpu() and
	 * sv_profile_await(). */
	struct sv_packed gpu_pk, await_pk;
	/* The id columns packed (sv_profile_pack, packed.h: a few bits
	 * a call instead of 8 bytes), their int64 arrays above then NULL.
	 * Read them through sv_profile_has_id() and sv_profile_id(). */
	struct sv_packed ids[SV_ID_COLUMNS];
	/* The parent ids derived (sv_profile_pack), ids[SV_ID_PARENT] then
	 * empty: a call's parent id is its parent's call id, or
	 * parent_id_root at the top of its lane, except for the calls in
	 * parent_id_wide, which keep their own. */
	bool parent_id_derived;
	int64_t parent_id_root;
	struct sv_wide parent_id_wide;
	struct sv_column *columns;
	size_t ncolumns;
	/* Per-call event metadata (callmeta.h, doc/format.md 4.11): NULL
	 * when the file has none; else ncalls offsets into meta_arena (0 =
	 * none), set once every row is added. */
	uint64_t *call_meta;
	char *meta_arena;
	size_t meta_arena_len, meta_arena_cap;

	/* Filled by sv_profile_finish(); sv_profile_pack packs each into its
	 * _pk and frees the array.  Read them through sv_profile_depth(),
	 * sv_profile_parent() and sv_profile_exclusive(), and ask
	 * sv_profile_has_nesting() and sv_profile_has_exclusive() whether
	 * they are there. */
	/* Nesting depth, 0 = top of its lane: 255 and more in depth_wide. */
	uint8_t *depth;
	uint32_t *parent; /* enclosing call, SV_NO_CALL at top level */
	/* Exclusive time (duration minus what the direct children cover):
	 * int32, with the values that do not fit in exclusive_wide. */
	int32_t *exclusive;
	struct sv_wide exclusive_wide, depth_wide;
	/* exclusive lies in parent's allocation (sv_profile_finish): freed
	 * with it. */
	bool exclusive_in_parent;
	/* Packed (sv_profile_pack), the exclusive times are kept as what
	 * the duration leaves of them, the time of the direct children
	 * (children_pk: 0 for a leaf call, no bits for a block of them). */
	struct sv_packed depth_pk, parent_pk, children_pk;
	/* The lane of each call, read through sv_call_lane(): lane_of (call
	 * -> index into lanes), or, when every row's calls are on one lane
	 * (a rank without thread or task lanes: each rank is one lane),
	 * row_lane (row -> its lane, UINT32_MAX for a row without calls)
	 * with lane_of NULL.  Both NULL: no lanes (sv_profile_has_lanes). */
	uint32_t *lane_of;
	uint32_t *row_lane;
	/* lane_of packed (sv_profile_pack; lane_of then NULL). */
	struct sv_packed lane_pk;
	uint32_t *region_pos; /* region -> display position, the order of
				  calls of a lane that start and end together
				  (see sv_profile_lane_pos) */
	/* Set by the loader before sv_profile_finish
	 * (sv_load_opts.region_first): each region's earliest start over
	 * a larger load of the file than this one (every process's share
	 * of a scopeview-mpi job), 0 for a region without calls there, from
	 * which region_pos is made instead of from this profile's own
	 * calls, so that ties nest as in one load of them all.  Owned;
	 * NULL: from this profile's calls. */
	int64_t *region_first;
	struct sv_lane *lanes; /* by rank, then thread, then task */
	size_t nlanes;

	/* Hardware counters and line profiles of the rank groups (NULL / 0
	 * when the file has none), and the paths of groups the loader saw
	 * there but does not show. */
	struct sv_counters *counters;
	size_t ncounters;
	struct sv_line_profile *lineprofs;
	size_t nlineprofs;
	char **unshown;
	size_t nunshown;
	/* Every group and dataset of the file, in HDF5's visiting order
	 * (doc/format.md 4.13): path, and "group" or the dataset's shape,
	 * type, layout and filters, as one line of text. */
	struct sv_node {
		char *path, *what;
	} * nodes;
	size_t nnodes;
	bool nodes_cut; /* more objects than were listed */

	struct sv_meta *meta; /* sorted by key (bytewise) */
	size_t nmeta;
	struct sv_thread *threads;
	size_t nthreads;
	struct sv_task *tasks;
	size_t ntasks;
	/* Filled by sv_profile_finish(): threads[] and tasks[] positions
	 * sorted by (rank, index, position), for sv_profile_thread() and
	 * sv_profile_task() in O(log n). */
	uint32_t *thread_order, *task_order;

	uint32_t
		num_ranks; /* scope-profiler's num_ranks (doc/format.md 10.4) */
	bool has_start_time;
	int64_t start_time_ns; /* metadata start_time_ns */
	bool has_finalize_time;
	int64_t finalize_time_ns;

	/* A rank-subset load (sv_load_opts.rank_on honoured): rows holds
	 * only the chosen ranks' rows; file_rows and file_calls count the
	 * whole file's index, file_ranks is its highest rank + 1 (0: no
	 * rows), and run_start_ns the earliest start of the rows left out
	 * (their stored start_minimum; has_run_start false when none), so
	 * that num_ranks and the time origin stay the whole run's. */
	bool rank_subset;
	size_t file_rows;
	uint64_t file_calls;
	uint32_t file_ranks;
	bool has_run_start;
	int64_t run_start_ns;
	/* The whole run beside a rank subset: every row of the file's index
	 * with its stored count, summary record and exclusive total, as a
	 * finished summary-only profile (no calls, no metadata; the same
	 * region table), for the whole run's figures (stats on it).  Owned;
	 * NULL when every rank was read. */
	struct sv_profile *run;
	/* Calls of this load copied from another profile of the same file
	 * instead of read (sv_load_opts.donor): a reload that kept ranks. */
	uint64_t kept_calls;
	/* A rank subset with one empty lane (no calls, key -1) for each rank
	 * of the file left out, labelled "rN not read": set by the loader
	 * before sv_profile_finish (sv_load_opts.absent_lanes). */
	bool absent_lanes;
	/* Not nested (sv_load_opts.stored_exclusive, set by the loader
	 * before sv_profile_finish when every row stores its exclusive
	 * total): the durations, the span and the index are made, the
	 * lanes and the nesting are not. */
	bool unnested;
	/* Packed columns wanted (sv_load_opts.pack, set by the loader):
	 * sv_profile_finish packs the thread and task ids as soon as the
	 * lanes are built from them. */
	bool pack;
	/* sv_profile_pack will follow (set by the loader): where rows give
	 * the lanes (row_lane), each lane's calls are listed by its nesting
	 * worker and packed once nested, not every lane's at once. */
	bool pack_lanes;
	/* Datasets in /events, set by an index-only load of a columnar file
	 * (the calls are not read, but what a load would keep is known):
	 * 0 = unknown.  For sv_budget_call_bytes(). */
	uint32_t event_columns;

	/* Owners beyond the first (sv_profile_ref); sv_profile_free frees
	 * the profile when the last lets go. */
	atomic_uint refs;

	/* Loader and nesting warnings, one line each. */
	char **warnings;
	size_t nwarnings;

	/* Builder state: private to profile.c. */
	size_t call_cap, region_cap, row_cap, meta_cap, thread_cap, task_cap,
		warn_cap;
	struct {
		int64_t **col;
		int64_t fill;
	} optional[8];
	size_t noptional;
};

/* The rows of p with their stored records (count, summary record,
 * exclusive total) as a finished summary-only profile, what sv_profile.run
 * holds for a rank subset: for the whole run's figures from the stored
 * statistics when every rank was read.  NULL when a row has no stored
 * record (schema 1). */
struct sv_profile *sv_profile_stored_run(const struct sv_profile *p);
/* Building such a profile of p's file: a new one (p's layout and schema,
 * no calls), then its rows, each with its stored record (false when the
 * row cannot be added; its exclusive total stays -1 until set), then
 * sv_profile_run_finish. */
struct sv_profile *sv_profile_run_new(const struct sv_profile *p);
bool sv_profile_run_add(struct sv_profile *run, uint32_t rank, uint32_t region,
	uint64_t count, const struct sv_summary *sum);
/* Finish run, a summary-only profile of p's file whose rows are added:
 * p's region names, num_ranks and times, then sv_profile_finish. */
void sv_profile_run_finish(struct sv_profile *run, const struct sv_profile *p);
/* A new, empty profile for path (copied). */
struct sv_profile *sv_profile_new(const char *path);
/* Let go of p (NULL-safe): freed unless another owner holds it. */
void sv_profile_free(struct sv_profile *p);
/* One more owner of p, which then stays until every owner has called
 * sv_profile_free (from any thread): for a profile read by a background
 * load (sv_load_opts.donor) while the view may still show it.  Returns
 * p. */
struct sv_profile *sv_profile_ref(struct sv_profile *p);
/* Pack the per-call columns of p (packed.h) and free their arrays, for a
 * holder that reads them one call at a time (the viewer): the starts,
 * durations, depths, parents, exclusive times, lanes and the lanes' call
 * lists, the GPU and await times and the id columns (the parent ids
 * derived from the nesting where they follow it), 4 or 8 bytes a call
 * each down to a few bits or bytes.  Before sv_profile_finish only the
 * starts (sv_profile_pack_starts), the GPU and await times and the call
 * and parent ids are packed; a finished profile has them all packed.
 * The values read through the accessors below do not change; the raw
 * arrays (p->start_ns, p->dur, ...) are NULL afterwards. */
void sv_profile_pack(struct sv_profile *p);
void sv_profile_pack_starts(struct sv_profile *p);
/* The viewer packs profiles of this many calls (2^20) and more.  A
 * smaller one keeps its main columns plain (sv_load_opts.pack_min_calls):
 * they are read faster, the packing's passes are saved (a 1M-call
 * profile is ready in 0.055-0.058 s instead of 0.06-0.07 s), and the
 * whole process stays well inside the 24 bytes a call and 64 MB the
 * packed columns keep to (at 2M calls and seven columns it still took
 * 110 MB of the 114 MB). */
#define SV_PACK_MIN_CALLS ((uint64_t)1 << 20)
/* The id columns and the GPU and await times alone, as far as
 * sv_profile_pack would pack them (the GPU and await times and the call
 * and parent ids at any time, the thread and task ids once the lanes
 * are built). */
void sv_profile_pack_ids(struct sv_profile *p);

/* Append one warning line (printf format). */
void sv_profile_warn(struct sv_profile *p, const char *fmt, ...)
	SV_PRINTF(2, 3);

/* Append a region name (copied, sanitised); returns its index. */
uint32_t sv_profile_add_region(struct sv_profile *p, const char *name);
/* Index of a region by exact name, or -1. Linear; for loaders and tests. */
int64_t sv_profile_find_region(const struct sv_profile *p, const char *name);

/*
 * Append a row and room for its count calls; returns the row, zeroed but
 * for rank, region, first (= calls so far), count, source_line = -1 and
 * exclusive_total = -1.  With calls, the call columns grow by count; the
 * caller fills start_ns/end_ns[first..first+count).  Fails (returns NULL,
 * fills err) past SV_MAX_CALLS.
 */
struct sv_row *sv_profile_add_row(struct sv_profile *p, uint32_t rank,
	uint32_t region, uint64_t count, struct sv_error *err);

/* Reserve room for n calls in all, so rows added later do not reallocate
 * the columns. */
void sv_profile_reserve_calls(struct sv_profile *p, uint64_t n);

/* Make an optional per-call column (e.g. &p->gpu_ns) exist, ncalls long,
 * filled with fill for every call so far; later rows grow it too.  Returns
 * the column. */
int64_t *sv_profile_column(struct sv_profile *p, int64_t **col, int64_t fill);
/* Leave the optional column col out again (a loader that could not read
 * it): freed, *col NULL, no longer grown.  Nothing when it does not
 * exist. */
void sv_profile_drop_column(struct sv_profile *p, int64_t **col);
/* Add an extra named column (doc/format.md 4.8), ncalls long and zeroed; the
 * caller fills it.  Add extra columns only after the last row. */
struct sv_column *sv_profile_add_extra(
	struct sv_profile *p, const char *name, bool is_float);
/* Remove the extra column added last (a loader that could not read it). */
void sv_profile_drop_extra(struct sv_profile *p);

/* Add a metadata attribute (key copied).  The caller fills the value and
 * must set text (malloc'd, owned by the profile); strs and its elements are
 * owned by the profile too. */
struct sv_meta *sv_profile_add_meta(
	struct sv_profile *p, const char *key, enum sv_meta_kind kind);
const struct sv_meta *sv_profile_meta(
	const struct sv_profile *p, const char *key);

struct sv_thread *sv_profile_add_thread(struct sv_profile *p);
struct sv_task *sv_profile_add_task(struct sv_profile *p);

/*
 * Finish loading: sort metadata, set num_ranks if the loader left it 0,
 * start/finalize times from metadata, build the lanes and the nesting of
 * every lane (sort by start asc, end desc; zero-length calls open at their
 * own start; depth; parent; exclusive = duration - direct children).  A
 * partial overlap inside a lane, or a call ending before it starts, adds a
 * warning naming the calls and never fails: every call is still placed.
 * Returns 0.
 */
int sv_profile_finish(struct sv_profile *p, struct sv_error *err);

/* Each region's earliest start over p's calls (finished), into
 * first[0 .. p->nregions), 0 for a region without calls: what
 * region_pos is made from; seen (may be NULL, p->nregions flags) says
 * which regions have calls. */
void sv_profile_region_first(
	const struct sv_profile *p, int64_t *first, bool *seen);
/* Whether p's lanes (finished) would keep their order, and so their
 * nesting, with region_pos made from first (p->nregions values, as
 * sv_profile_region_first gives) instead: no two calls of a lane that
 * start and end together, of different regions, would change places. */
bool sv_profile_ties_hold(const struct sv_profile *p, const int64_t *first);

/* Accessors. */
/* The start of call c (< ncalls), as stored. */
static inline int64_t sv_profile_start(const struct sv_profile *p, uint32_t c)
{
	return p->start_ns ? p->start_ns[c] : sv_packed_get(&p->start_pk, c);
}
/* Whether the ends are kept as durations (a finished profile). */
static inline bool sv_profile_has_dur(const struct sv_profile *p)
{
	return p->dur || p->dur_pk.n;
}
static inline int64_t sv_call_duration(const struct sv_profile *p, uint32_t c)
{
	if (p->dur)
		return sv_wide_get_u32(&p->dur_wide, p->dur, c);
	if (p->dur_pk.n)
		return sv_packed_get(&p->dur_pk, c);
	if (p->end_is_duration)
		return p->end_ns[c];
	return sv_sub_wrap(p->end_ns[c], sv_profile_start(p, c));
}
/* The end of call c, as stored (start + duration, wrapping). */
static inline int64_t sv_profile_end(const struct sv_profile *p, uint32_t c)
{
	if (sv_profile_has_dur(p) || p->end_is_duration)
		return sv_add_wrap(
			sv_profile_start(p, c), sv_call_duration(p, c));
	return p->end_ns[c];
}
/* Whether p has the GPU column, and call c's GPU time (-1: none, as for
 * every call without the column). */
static inline bool sv_profile_has_gpu(const struct sv_profile *p)
{
	return p->gpu_ns || p->gpu_pk.n;
}
static inline int64_t sv_profile_gpu(const struct sv_profile *p, uint32_t c)
{
	if (p->gpu_ns)
		return p->gpu_ns[c];
	return p->gpu_pk.n ? sv_packed_get(&p->gpu_pk, c) : -1;
}
/* Whether p has the await column, and call c's await time (0 without
 * it). */
static inline bool sv_profile_has_await(const struct sv_profile *p)
{
	return p->await_ns || p->await_pk.n;
}
static inline int64_t sv_profile_await(const struct sv_profile *p, uint32_t c)
{
	if (p->await_ns)
		return p->await_ns[c];
	return p->await_pk.n ? sv_packed_get(&p->await_pk, c) : 0;
}
/* Whether p has the nesting (depth and parent of each call). */
static inline bool sv_profile_has_nesting(const struct sv_profile *p)
{
	return p->parent || p->parent_pk.n;
}
/* The nesting depth of call c (p has the nesting). */
static inline uint32_t sv_profile_depth(const struct sv_profile *p, uint32_t c)
{
	return p->depth ? (uint32_t)sv_wide_get_u8(&p->depth_wide, p->depth, c)
			: (uint32_t)sv_packed_get(&p->depth_pk, c);
}
/* The call enclosing call c, SV_NO_CALL at the top of its lane. */
static inline uint32_t sv_profile_parent(const struct sv_profile *p, uint32_t c)
{
	return p->parent ? p->parent[c]
			 : (uint32_t)sv_packed_get(&p->parent_pk, c);
}
/* Whether p has the exclusive times. */
static inline bool sv_profile_has_exclusive(const struct sv_profile *p)
{
	return p->exclusive || p->children_pk.n;
}
/* The row holding call c (< ncalls): the last row whose first call is at
 * or before c (rows without calls share their first with the next row).
 * O(log rows).  A loop over the calls in order takes the row from
 * sv_profile_row_next() instead. */
static inline uint32_t sv_profile_row_of(const struct sv_profile *p, uint32_t c)
{
	size_t lo = 0, hi = p->nrows;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->row_first[mid] <= c)
			lo = mid;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}
/* The row of call c, first trying *hint (a row of an earlier lookup, or
 * 0) and then searching: O(1) when successive calls are in one row, as the
 * parents of a row's calls mostly are.  Sets *hint to the row. */
static inline uint32_t sv_profile_row_near(
	const struct sv_profile *p, uint32_t c, uint32_t *hint)
{
	uint32_t r = *hint;
	if (r < p->nrows && p->row_first[r] <= c &&
		(r + 1 == p->nrows || p->row_first[r + 1] > c))
		return r;
	return *hint = sv_profile_row_of(p, c);
}
/* The row of call c in a loop over calls in ascending order: advances
 * *row (0 before the first call) past the rows that end before c.  O(1)
 * a call over the whole loop. */
static inline uint32_t sv_profile_row_next(
	const struct sv_profile *p, uint32_t c, uint32_t *row)
{
	while (*row + 1 < p->nrows && p->row_first[*row + 1] <= c)
		++*row;
	return *row;
}
/* Exclusive time of call c of a finished profile (p has them). */
static inline int64_t sv_profile_exclusive(
	const struct sv_profile *p, uint32_t c)
{
	if (p->exclusive)
		return sv_wide_get_i32(&p->exclusive_wide, p->exclusive, c);
	return sv_sub_wrap(
		sv_call_duration(p, c), sv_packed_get(&p->children_pk, c));
}
static inline uint32_t sv_call_region(const struct sv_profile *p, uint32_t c)
{
	return p->rows[sv_profile_row_of(p, c)].region;
}
static inline uint32_t sv_call_rank(const struct sv_profile *p, uint32_t c)
{
	return p->rows[sv_profile_row_of(p, c)].rank;
}
/* Id column k of p as the loader filled it (NULL once packed). */
static inline const int64_t *sv_profile_id_raw(
	const struct sv_profile *p, enum sv_id_column k)
{
	switch (k) {
	case SV_ID_CALL:
		return p->call_id;
	case SV_ID_PARENT:
		return p->parent_id;
	case SV_ID_THREAD:
		return p->thread_id;
	default:
		return p->task_id;
	}
}
/* Whether p has id column k (the file recorded it). */
static inline bool sv_profile_has_id(
	const struct sv_profile *p, enum sv_id_column k)
{
	return sv_profile_id_raw(p, k) || p->ids[k].n ||
	       (k == SV_ID_PARENT && p->parent_id_derived);
}
/* Call c's value of id column k (p has it). */
static inline int64_t sv_profile_id(
	const struct sv_profile *p, enum sv_id_column k, uint32_t c)
{
	const int64_t *raw = sv_profile_id_raw(p, k);
	int64_t v;
	uint32_t par;
	if (raw)
		return raw[c];
	if (k != SV_ID_PARENT || !p->parent_id_derived)
		return sv_packed_get(&p->ids[k], c);
	if (p->parent_id_wide.n && sv_wide_find(&p->parent_id_wide, c, &v))
		return v;
	par = sv_profile_parent(p, c);
	return par == SV_NO_CALL ? p->parent_id_root
				 : sv_profile_id(p, SV_ID_CALL, par);
}
/* The call at position i (< l->ncalls) of lane l's order. */
static inline uint32_t sv_lane_call(const struct sv_lane *l, size_t i)
{
	return l->calls ? l->calls[i] : (uint32_t)sv_packed_get(&l->callpk, i);
}
/* Whether the calls of p are in lanes (a finished profile with calls). */
static inline bool sv_profile_has_lanes(const struct sv_profile *p)
{
	return p->lane_of || p->row_lane || p->lane_pk.n;
}
/* The lane of call c (< ncalls) of a profile with lanes: O(1), or
 * O(log rows) when it is kept by row. */
static inline uint32_t sv_call_lane(const struct sv_profile *p, uint32_t c)
{
	if (p->lane_of)
		return p->lane_of[c];
	if (p->lane_pk.n)
		return (uint32_t)sv_packed_get(&p->lane_pk, c);
	return p->row_lane[sv_profile_row_of(p, c)];
}
/* The lane of every call of row r when they are all on one lane (the
 * lanes are kept by row), else UINT32_MAX: a loop over a row's calls
 * takes their lane from here once, and from sv_call_lane() otherwise. */
static inline uint32_t sv_row_lane(const struct sv_profile *p, size_t r)
{
	return p->row_lane ? p->row_lane[r] : UINT32_MAX;
}
/* Lane l stands for a rank whose calls were not read ("rN not read",
 * sv_profile.absent_lanes): it has none. */
static inline bool sv_lane_not_read(
	const struct sv_profile *p, const struct sv_lane *l)
{
	return p->absent_lanes && !l->ncalls;
}

/* The first position of calls[0 .. n) (calls of p in start order) whose
 * call starts at or after t; n when none does.  O(log n). */
size_t sv_profile_calls_lower(
	const struct sv_profile *p, const uint32_t *calls, size_t n, int64_t t);
/* The same for the calls of lane l (of finished profile p). */
size_t sv_profile_lane_lower(
	const struct sv_profile *p, const struct sv_lane *l, int64_t t);
/* The same for the calls numbered [a, b) (a run of a row whose starts
 * do not decrease): the first call number there whose call starts at or
 * after t; b when none does. */
uint64_t sv_profile_range_lower(
	const struct sv_profile *p, uint64_t a, uint64_t b, int64_t t);

/* The position of call c in its lane's calls[] (finished profile p), by
 * binary search over the lane's order (start asc, end desc, region_pos,
 * call number); UINT32_MAX when p holds no such call.  O(log n). */
uint32_t sv_profile_lane_pos(const struct sv_profile *p, uint32_t c);
/* Whether call a comes before call b in that order (both of one lane of
 * finished profile p): for searching a list that keeps it, as a level
 * of the layout index does. */
bool sv_profile_lane_order(const struct sv_profile *p, uint32_t a, uint32_t b);

/* The ranks r < n with on[r] as a list ("0-7,9,12-15", malloc'd; "" when
 * none): after max_items items (0: no limit) one more, "...", ends it. */
char *sv_rank_list_text(const bool *on, uint32_t n, size_t max_items);

/* Which ranks p holds rows of (in memory, for a rank-subset load): a
 * malloc'd array of *n flags, *n the largest of num_ranks, file_ranks
 * and the highest rank with rows + 1 (never fewer than 1 allocated). */
bool *sv_profile_ranks_held(const struct sv_profile *p, uint32_t *n);

/* For a rank-subset load, what the status line says of it: "ranks 0-7 of
 * 16" (the ranks with rows, and num_ranks), malloc'd; NULL for a profile
 * of every rank. */
char *sv_profile_subset_label(const struct sv_profile *p);

/* Names of a thread / task of a rank, or NULL when the table has none. */
const struct sv_thread *sv_profile_thread(
	const struct sv_profile *p, uint32_t rank, int64_t index);
const struct sv_task *sv_profile_task(
	const struct sv_profile *p, uint32_t rank, int64_t index);

/* The time origin: start_time_ns if present, else the minimum start of all
 * calls (or of the rows' stored start_minimum), else 0.  For a rank
 * subset the rows left out count through run_start_ns. */
int64_t sv_profile_time_origin(const struct sv_profile *p);
/* Minimum start / maximum end over all calls (0 when there are none):
 * O(1) once finished. */
int64_t sv_profile_min_start(const struct sv_profile *p);
int64_t sv_profile_max_end(const struct sv_profile *p);
/* The starts, durations (as sv_call_duration) and exclusive times (p has
 * them) of calls c .. c + n - 1 into out, whatever way p keeps them: a
 * run of calls read at once, faster than call by call when packed. */
void sv_profile_starts(
	const struct sv_profile *p, uint32_t c, size_t n, int64_t *out);
void sv_profile_durations(
	const struct sv_profile *p, uint32_t c, size_t n, int64_t *out);
void sv_profile_exclusives(
	const struct sv_profile *p, uint32_t c, size_t n, int64_t *out);
/* The same from their durations at hand (dur[0 .. n), which out may be):
 * packed, only children_pk is read. */
void sv_profile_exclusives_of(const struct sv_profile *p, uint32_t c, size_t n,
	const int64_t *dur, int64_t *out);
/* The parents of calls c .. c + n - 1 (p has the nesting), the same way:
 * SV_NO_CALL as such. */
void sv_profile_parents(
	const struct sv_profile *p, uint32_t c, size_t n, int64_t *out);

#endif
