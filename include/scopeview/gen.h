/*
 * gen.h: synthetic scope-profiler profiles shaped like real runs.
 *
 * The generator models an MPI-style simulation: on every rank a main thread
 * runs `main` > `setup` (with a recursive `fib`) > a `timestep` loop of
 * `assemble` and `solve` (many short kernels, one long preconditioner: the
 * hot spot), a halo exchange of MPI point-to-point calls, an
 * `mpi:allreduce` that absorbs the imbalance of one slow rank, periodic
 * `io` > `write_checkpoint`, and `finalize`.  Optional worker threads run
 * jobs (`compress_block` > `checksum`, `prefetch`); optional asyncio-style
 * tasks on every thread run `handle_request` > `fetch` (suspended for most
 * of its time) > `parse`.  With gpu, the solve kernels carry device times shorter than
 * their wall times.  Regions carry source file, line, text and tags.
 *
 * Everything is derived from the seed with a PRNG of our own and integer
 * arithmetic only, so the same options give the same calls (and, through
 * the writer, the same bytes) on every machine.  Ranks are generated one at
 * a time and independently of each other: building rank r never needs rank
 * r-1, so memory is bounded by one rank's calls.
 */
#ifndef SCOPEVIEW_GEN_H
#define SCOPEVIEW_GEN_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_IO)
#error "scopeview/gen.h belongs to the io layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/write.h"

/* Bumped whenever the calls generated for given options change, so a
 * cached demo from an older generator of the same version is replaced. */
#define SV_GEN_REVISION "4"

/* What sv_gen_write writes (doc/format.md 16.6). */
enum sv_gen_format {
	SV_GEN_HDF5 = 0, /* one HDF5 profile, as opts.writer says */
	SV_GEN_SPT,      /* PATH_rank<NNNNN>.spt a rank: native traces,
			    version 2, this machine's byte order */
	SV_GEN_RANK_H5,  /* PATH_rank<NNNNN>.h5 a rank, as scope-profiler's
			    C API built with HDF5 writes them (schema 2) */
	SV_GEN_JSON,     /* one JSON profile; gzip when PATH ends in .gz */
};

struct sv_gen_opts {
	uint32_t ranks;     /* >= 1 (default 4) */
	uint32_t threads;   /* threads per rank, main thread included, >= 1
			       (default 1) */
	uint32_t tasks;     /* async tasks per thread (default 0) */
	uint64_t events;    /* calls in the whole file (default 100000) */
	uint32_t depth;     /* depth of the recursive region, >= 1 (4) */
	double imbalance;   /* the slow rank computes (1 + imbalance) times
			       longer, 0 .. 10 (default 0.3) */
	bool gpu;           /* gpu_durations column */
	bool await;         /* await_ns column (tasks spend time suspended) */
	bool call_ids;      /* call_ids / parent_ids columns (default on) */
	bool track_threads; /* thread_ids + thread_table even with one thread
			       and no tasks */
	uint64_t seed;      /* default 1 */
	const char *label;  /* metadata label; NULL = "synthetic run" */
	/* --strong-scaling R0: this run is one of a strong-scaling study
	 * whose baseline has R0 ranks (1 .. 65536; 0 = not).  The same
	 * problem is split over `ranks` ranks, so each rank's compute
	 * kernels do R0 / ranks of the baseline's work per call:
	 * kernel:assemble_local all of it scaled, kernel:spmv nine tenths
	 * (a tenth of it is serial), and the preconditioner follows the
	 * kernels of its step; halo exchanges, MPI calls, io, setup and
	 * finalize take what they take on any number of ranks.  Runs of
	 * 1, 2, 4, 8 ranks then show a different speedup in each region. */
	uint32_t scale_ranks;
	/* --slowdown RANK:ITERATION[:FACTOR]: from timestep ITERATION on
	 * (0-based, the ITERATION-th timestep call of the rank), rank RANK's
	 * timesteps take FACTOR times as long (0.1 .. 100; default 2): every
	 * call inside them stretched, the rank's later steps shifted by what
	 * it lost.  The other ranks are as before. */
	bool slowdown;
	uint32_t slowdown_rank;
	uint64_t slowdown_step;
	double slowdown_factor;
	/* --slow-region NAME[:FACTOR]: the computation inside calls of
	 * region NAME (one of the main thread's computing regions, see
	 * sv_gen_slow_regions) takes slow_factor times as long, on every
	 * rank; the allreduce absorbs what fits in a step, as for the slow
	 * rank.  Two runs with the same seed differ there, in what waits for
	 * it, and after a step that overran (the allreduce then draws its
	 * jitter).  NULL = none. */
	const char *slow_region;
	double slow_factor;           /* 0.1 .. 100 (default 2) */
	struct sv_writer_opts writer; /* schema, storage, compression */
	enum sv_gen_format format;
};

/* The regions --slow-region can name, space-separated ("main timestep
 * ..."): a static string. */
const char *sv_gen_slow_regions(void);

/* The defaults listed above. */
void sv_gen_opts_init(struct sv_gen_opts *o);

/* Check the options; returns 0 or -EINVAL with a message. */
int sv_gen_opts_check(const struct sv_gen_opts *o, struct sv_error *err);

/* Calls of rank r (the file's total split as evenly as possible). */
uint64_t sv_gen_rank_events(const struct sv_gen_opts *o, uint32_t rank);

/* Which rank is the slow one (0 with a single rank). */
uint32_t sv_gen_slow_rank(const struct sv_gen_opts *o);

/*
 * One generated rank.  `w` is the payload handed to the writer; its arrays
 * point into this struct and stay valid until sv_gen_rank_fini().  Calls are
 * in generation order: lane by lane (main thread, worker threads, then
 * tasks), each lane in start order, parents before children; `w.row` maps
 * every call to its row.  `parent` is the generator's own truth about
 * nesting (index of the enclosing call, UINT32_MAX at the top of a lane),
 * kept even when the file gets no parent_ids; `lane` is scope-profiler's
 * lane key of every call (task id, -2 - thread id, or -1).
 */
struct sv_gen_rank {
	struct sv_write_rank w;
	uint32_t *parent;
	int64_t *lane;
	/* owned storage behind w */
	struct sv_write_row *rows;
	size_t nrows, rows_cap;
	char **row_names;       /* per row: a name built per rank, or NULL */
	const char ***row_tags; /* per row: tags built per rank, or NULL */
	struct sv_write_thread *threads;
	struct sv_write_task *tasks;
	char **strings; /* thread and task names */
	size_t nstrings;
	uint32_t *row;
	int64_t *start, *end, *gpu, *call_id, *parent_id, *thread_id, *task_id,
		*await_ns;
};

/* Build rank `rank` (< o->ranks).  Always succeeds for checked options. */
void sv_gen_rank_build(
	const struct sv_gen_opts *o, uint32_t rank, struct sv_gen_rank *out);
void sv_gen_rank_fini(struct sv_gen_rank *r);

/* The metadata the generator writes: start_time_ns (before the first call)
 * and finalize_time_ns (after the last). */
int64_t sv_gen_start_time(const struct sv_gen_opts *o);
int64_t sv_gen_finalize_time(const struct sv_gen_opts *o);

/* Optional progress report: after each rank, with the events written. */
typedef void (*sv_gen_progress_fn)(
	void *ctx, uint32_t ranks_done, uint64_t events_done);

/*
 * Generate the whole profile into path (through write.h: atomically, by a
 * temporary file renamed into place), or, for the per-rank formats, into
 * PATH_rank<NNNNN>.spt / .h5, each written the same way.  Native traces
 * have one lane a rank: SV_GEN_SPT and SV_GEN_RANK_H5 need one thread and
 * no tasks.  Returns 0, -EINVAL for bad options, or the writer's negative
 * errno; err says why.
 */
int sv_gen_write(const char *path, const struct sv_gen_opts *o,
	sv_gen_progress_fn progress, void *ctx, struct sv_error *err);

#endif
