/*
 * write.h: write scope-profiler HDF5 profiles (doc/format.md section 14).
 *
 * The writer produces files laid out the way scope-profiler's own writer
 * leaves them after its publish step: schema 3 (delta-encoded starts and
 * durations) by default, or schema 2 (absolute start_times/end_times) or
 * schema 1 (rank<N>/regions/<name>/ groups) for tests of older files.  It is
 * the only module besides the loader that includes <hdf5.h>; this header
 * declares no HDF5 types.
 *
 * A caller streams the profile rank by rank:
 *
 *     struct sv_writer *w;
 *     sv_writer_open(&w, "run.h5", &opts, &err);
 *     sv_writer_meta_str(w, "hostname", "node0", &err);
 *     for each rank: sv_writer_add_rank(w, &rank_payload, &err);
 *     sv_writer_close(w, &err);
 *
 * Memory is bounded by one rank's calls: the event columns are appended to
 * the file as each rank arrives (the first 16384 events are held back until
 * the storage layout is decided), while the per-(rank, region) index, the
 * region names and the lane tables, which hold one row per row or lane, are
 * kept in memory and written at close.
 *
 * The file is written by the output rule of outfile.h: a destination that
 * is one of opts.inputs (by any link) or exists and is not a regular file
 * is refused, and the profile goes to a temporary sibling
 * ("<dir>/.<name>.<pid>.<n>.tmp") renamed over the destination by
 * sv_writer_close(), so a reader never sees a half-written profile and a
 * failed write (a full disk) leaves any old file in place and no partial
 * one.
 *
 * Output is deterministic: the same calls in the same order give the same
 * bytes.  HDF5's object modification times are switched off and the file
 * format versions are pinned; nothing is taken from the clock or the
 * environment (metadata is whatever the caller passes).
 *
 * Storage (opts.storage = SV_WRITE_PUBLISHED, the default), per dataset:
 *  - at most 64 KiB of data: contiguous, maximum shape = shape;
 *  - larger: chunked (1024 elements for event columns and lane tables,
 *    or opts.event_chunk, 256 for the index and region table),
 *    unlimited maximum shape;
 *  - with opts.compression = SV_WRITE_COMPRESS_AUTO and at least 16384
 *    events: every chunked dataset is compressed with shuffle + deflate 4;
 *  - a file whose uncompressed payload exceeds 16 MiB is not repacked by
 *    scope-profiler, so then every non-empty dataset is chunked (and
 *    compressed under AUTO), as scope-profiler leaves such files.
 */
#ifndef SCOPEVIEW_WRITE_H
#define SCOPEVIEW_WRITE_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_IO)
#error "scopeview/write.h belongs to the io layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"

/* Fill values of the optional per-call columns (doc/format.md 4.7). */
#define SV_WRITE_NO_GPU    (-1) /* gpu_durations */
#define SV_WRITE_NO_ID     (-1) /* call_ids, parent_ids */
#define SV_WRITE_NO_THREAD (-1) /* thread_ids */
#define SV_WRITE_NO_TASK   (-1) /* task_ids */

/* Thresholds of scope-profiler's publish step (h5writer.py). */
#define SV_WRITE_CONTIGUOUS_MAX_BYTES (64 * 1024)
#define SV_WRITE_AUTO_COMPRESS_EVENTS (1 << 14)
#define SV_WRITE_REPACK_MAX_BYTES     (16 * 1024 * 1024)
#define SV_WRITE_EVENT_CHUNK          1024
#define SV_WRITE_EVENT_CHUNK_MAX      (1u << 24)
#define SV_WRITE_INDEX_CHUNK          256

enum sv_write_storage {
	/* The layout of a finished (published) scope-profiler file. */
	SV_WRITE_PUBLISHED = 0,
	/* Every dataset chunked and resizable, as an unfinished file
	 * (fixtures/unrepacked_chunked.h5); compression still follows
	 * opts.compression. */
	SV_WRITE_CHUNKED,
};

enum sv_write_compression {
	SV_WRITE_COMPRESS_AUTO = 0, /* scope-profiler's "auto" policy */
	SV_WRITE_COMPRESS_NONE,     /* never compress */
	SV_WRITE_COMPRESS_GZIP,     /* event columns always chunked and
				       compressed (hdf5_compression="gzip") */
};

enum sv_write_exclusive {
	/* Compute each row's exclusive total from the rank's calls (per lane,
	 * as scope-profiler does); a rank whose calls do not nest properly
	 * gets -1 ("not computed") in every row. */
	SV_WRITE_EXCL_COMPUTE = 0,
	SV_WRITE_EXCL_UNKNOWN, /* write -1 in every row (native imports) */
	SV_WRITE_EXCL_GIVEN,   /* write sv_write_row.exclusive_total as is */
	SV_WRITE_EXCL_OMIT,    /* no exclusive_totals dataset (old files) */
};

struct sv_writer_opts {
	int schema; /* 3 (also when 0), 2 or 1 */
	enum sv_write_storage storage;
	enum sv_write_compression compression;
	enum sv_write_exclusive exclusive;
	bool no_summary; /* omit /rank_region_index/summary_statistics */
	/* Store region names, source files and texts and tags as fixed-length
	 * UTF-8 strings, as scope-profiler's MPI-parallel writer does. */
	bool fixed_strings;
	/* Root attribute storage_layout (schema 2 and 3); NULL = "columnar".
	 * Any text is written as given (a reader treats unknown values as
	 * columnar). */
	const char *storage_layout;
	/* Write directly to the destination instead of a temporary sibling
	 * renamed at close (and without the checks of outfile.h). */
	bool in_place;
	/* The files the program read to make this one (a converter's
	 * profiles; NULL entries are skipped): the destination may be none
	 * of them (sv_outfile_open). */
	const char *const *inputs;
	size_t ninputs;
	/* The aggregate layout (doc/format.md 7, schema 2 and 3 only): per row
	 * only the call count, total, minimum, maximum and exclusive time
	 * (computed from the calls given, as opts.exclusive says; UNKNOWN and
	 * OMIT store -1) in aggregate_* columns; every other index dataset
	 * and the event columns exist with 0 rows; no lane tables.  Sets
	 * storage_layout to "aggregate" unless storage_layout is given. */
	bool aggregate;
	/* Elements per chunk of the event columns and lane tables (1 to
	 * SV_WRITE_EVENT_CHUNK_MAX); 0: SV_WRITE_EVENT_CHUNK, scope-profiler's
	 * 1024. */
	uint32_t event_chunk;
};

/*
 * One row: the calls of one region on one rank.  Strings are borrowed for
 * the duration of sv_writer_add_rank() only.
 */
struct sv_write_row {
	const char *name;        /* region name (UTF-8, not NULL) */
	uint64_t count;          /* calls of the row; see sv_write_rank.row */
	const char *source_file; /* NULL or "" = unknown */
	int64_t source_line;     /* -1 = unknown */
	const char *source_text; /* NULL or "" = not captured */
	const char *const *tags; /* ntags tag strings, stored as a JSON array */
	size_t ntags;
	int64_t exclusive_total; /* used only with SV_WRITE_EXCL_GIVEN */
};

/* A row of /thread_table (times relative to the run start, ns). */
struct sv_write_thread {
	int64_t index; /* what thread_ids stores: 0, 1, ... per rank */
	int64_t ident, native_id;
	int8_t daemon;
	const char *name;
	int64_t start_ns, end_ns, cpu_ns; /* end_ns -1 = alive at finalize */
};

/* A row of /task_table. */
struct sv_write_task {
	int64_t index; /* what task_ids stores */
	int64_t thread_index;
	const char *kind; /* "task" or "greenlet" */
	const char *name, *coro_name;
	int64_t created_ns, done_ns; /* done_ns -1 = not finished */
	int64_t steps, running_ns, suspended_ns;
};

/*
 * One rank's payload.  The per-call arrays are ncalls long and borrowed for
 * the call only.  Two ways to say which row a call belongs to:
 *  - row == NULL: the calls are grouped row after row, rows[i].count calls
 *    each (the counts must add up to ncalls);
 *  - row != NULL: row[c] is the row index of call c, and rows[i].count is
 *    ignored (the writer counts).
 * Within a row, calls are stored in the order they appear in the arrays
 * (the file's storage order: scope-profiler's first/last and start
 * deltas follow it).  A row with no calls is written as a zero-count row.
 * An optional column left NULL on this rank is written with its fill value
 * when the file has that column (because this or another rank supplied it);
 * a column no rank supplies is absent from the file.  Schema 1 stores only
 * gpu_ns, call_id and parent_id; schema 1 ignores the other columns and the
 * lane tables.
 */
struct sv_write_rank {
	uint32_t rank; /* each rank at most once per file */
	const struct sv_write_row *rows;
	size_t nrows;
	uint64_t ncalls;
	const uint32_t *row;
	const int64_t *start_ns, *end_ns; /* absolute ns; not NULL if ncalls */
	const int64_t *gpu_ns;            /* -1 = no device time */
	const int64_t *call_id, *parent_id;
	const int64_t *thread_id, *task_id; /* -1 = unknown / outside a task */
	const int64_t *await_ns;
	const struct sv_write_thread *threads;
	size_t nthreads;
	const struct sv_write_task *tasks;
	size_t ntasks;
};

struct sv_writer;

/* opts may be NULL (all defaults). */
static inline void sv_writer_opts_init(struct sv_writer_opts *opts)
{
	*opts = (struct sv_writer_opts){.schema = 3};
}

/*
 * Start writing path.  On success stores a writer in *out and returns 0; on
 * failure returns a negative errno and fills err: -EEXIST for a refused
 * destination (an input, not a regular file: a command-line mistake),
 * another errno when the temporary cannot be made ("cannot write
 * /x/run.h5: Permission denied").  The destination is not touched until
 * sv_writer_close() succeeds (unless opts->in_place).
 */
int sv_writer_open(struct sv_writer **out, const char *path,
	const struct sv_writer_opts *opts, struct sv_error *err);

/*
 * Call first in a process that may write profiles (scopeview's main
 * does, for every command), before any other HDF5 use.  libhdf5 1.10
 * cannot close a file after the system refused one of its metadata
 * writes (a full disk: its cache is left half-way through a flush), and
 * its exit handler then crashes closing that file again; this turns the
 * handler off (H5dont_atexit), so the process ends with the writer's
 * error instead.  Every file sv_writer_close() or sv_writer_abort() can
 * close is still closed.
 */
void sv_write_process_init(void);

/*
 * Metadata attributes of /metadata (doc/format.md 3.1), written as scope-profiler
 * writes them: int64, float64, HDF5 bool enum (as h5py stores a Python
 * bool), variable-length UTF-8 string, and 1-D variable-length UTF-8 string
 * array.  Call them before sv_writer_close(); a key may be set once.
 * Return 0 or a negative errno.
 */
int sv_writer_meta_int(struct sv_writer *w, const char *key, int64_t value,
	struct sv_error *err);
int sv_writer_meta_float(struct sv_writer *w, const char *key, double value,
	struct sv_error *err);
int sv_writer_meta_bool(
	struct sv_writer *w, const char *key, bool value, struct sv_error *err);
int sv_writer_meta_str(struct sv_writer *w, const char *key, const char *value,
	struct sv_error *err);
int sv_writer_meta_strs(struct sv_writer *w, const char *key,
	const char *const *values, size_t n, struct sv_error *err);

/*
 * Append one rank.  Region ids are assigned in order of first appearance
 * (rank by rank, row by row); event offsets run on from the previous rank.
 * Fails with -EINVAL (nothing written) on a rank written twice, a bad row
 * index, counts that do not add up, or (schema 1) a region name that cannot
 * be an HDF5 link name; with -EIO when HDF5 fails.  After an -EIO the
 * writer can only be closed or aborted.
 */
int sv_writer_add_rank(struct sv_writer *w, const struct sv_write_rank *r,
	struct sv_error *err);

/* Put region name in /region_table/names now, if it is not there yet,
 * and return its id: a caller that wants the table in an order of its own
 * (convert: the profile's base order, regions without rows included)
 * names every region before the first rank.  Names are otherwise added in
 * order of first appearance by sv_writer_add_rank(). */
uint32_t sv_writer_region(struct sv_writer *w, const char *name);

/* Events written so far (all ranks). */
uint64_t sv_writer_events(const struct sv_writer *w);

/*
 * Write the index and tables, close the file and move it into place.  The
 * writer is freed whether or not this succeeds; on failure the temporary
 * file is removed and a negative errno returned.
 */
int sv_writer_close(struct sv_writer *w, struct sv_error *err);

/* Free the writer and remove the temporary file (NULL-safe). */
void sv_writer_abort(struct sv_writer *w);

/*
 * Per-row statistics as scope-profiler's writer computes them (doc/format.md
 * 4.4), for calls with the given starts, ends and (optional) GPU times, n
 * long, in storage order.  mean and m2 reproduce numpy's float64 summation
 * (np.mean / np.var) bit for bit.  All zero when n == 0.
 */
struct sv_write_summary {
	int64_t total, minimum, maximum, first, last;
	int64_t start_minimum, end_maximum;
	uint64_t gpu_count;
	int64_t gpu_total;
	double mean, m2;
};
void sv_write_summarize(const int64_t *start_ns, const int64_t *end_ns,
	const int64_t *gpu_ns, size_t n, struct sv_write_summary *out);

/*
 * Exclusive totals of one rank, as scope-profiler's call_stack.py computes
 * them: calls grouped by lane (task id if >= 0, else -2 - thread id, or -1
 * with neither), sorted by start ascending, end descending, then by row and
 * index, and nested by sv_nest_lane (nest.h, the profile's own nesting:
 * zero-length calls are open at their own start); exclusive = duration
 * minus the durations of the direct children.  row_of[c] (< nrows) is call c's
 * row; thread_id / task_id may be NULL.  Adds each call's exclusive time to
 * totals[row_of[c]] (nrows long, zeroed here).  Returns 0, or -EINVAL when
 * a call ends before it starts or two calls of a lane overlap partially
 * (totals are then unspecified).
 */
int sv_write_exclusive_totals(const int64_t *start_ns, const int64_t *end_ns,
	const int64_t *thread_id, const int64_t *task_id,
	const uint32_t *row_of, uint64_t ncalls, int64_t *totals, size_t nrows);

#endif
