/*
 * dist.h: scopeview-mpi, the report commands of scopeview run by every
 * process of an MPI job (src/mpi/; doc/design.md section 8).
 *
 * Each process reads its share of the profile's ranks (contiguous blocks
 * of ranks, balanced by their calls), through the loader's rank-subset
 * reads and, for an HDF5 file, the MPI-IO driver; the first process reads
 * the file's index and hands it to the others.  The statistics are put
 * together exactly: every (rank, region) row is whole on one process, so
 * its figures are computed there and gathered to the first process,
 * which finishes each region with the serial code (stats.h's
 * sv_stats_table_merge); a region's pooled percentiles come from a
 * distributed selection over the processes' durations that never
 * gathers them (dist_select.c).  The first process prints; the command
 * code is scopeview's own (cli.h's sv_cli_engine).
 *
 * Every function here is collective over MPI_COMM_WORLD unless it says
 * otherwise: every process calls it in the same order.  Errors agree: a
 * failure on any process is the failure of every process, with the
 * message of the lowest process that failed first-hand.
 */
#ifndef SCOPEVIEW_DIST_H
#define SCOPEVIEW_DIST_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MPI)
#error "scopeview/dist.h belongs to the mpi layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/callpath.h"
#include "scopeview/calls.h"
#include "scopeview/common.h"
#include "scopeview/histogram.h"
#include "scopeview/profile.h"
#include "scopeview/report.h"
#include "scopeview/scaling.h"
#include "scopeview/source.h"
#include "scopeview/stats.h"
#include "scopeview/trend.h"

/* ---- the job (dist.c) ------------------------------------------------------ */

/* Start MPI (threads serialised: the loader reads on a thread of its own
 * while the caller waits).  Returns 0, or -EIO when MPI cannot start. */
int sv_dist_init(int *argc, char ***argv);
/* End MPI; every process calls it once, last. */
void sv_dist_end(void);
/* This process's number (0 prints) and the job's size: local. */
int sv_dist_rank(void);
int sv_dist_size(void);

/* Agree on a status: rc (0 or a negative errno) and err of each process
 * in, the status and message of the lowest process whose failure is its
 * own out, on every process (a failure caused by another process's,
 * err->code == SV_DIST_ELSEWHERE, gives way to that one).  Returns the
 * agreed status. */
#define SV_DIST_ELSEWHERE (-10000)
int sv_dist_agree(int rc, struct sv_error *err);

/* The loader's broadcast of the index (source.h's sv_load_share.bcast)
 * from process 0. */
int sv_dist_bcast(void *ctx, void *buf, size_t n, int rc);

/* Gather every process's n items of size bytes (mine) to process 0, one
 * process's after the other: there it returns them (malloc'd, room for
 * one item at least) with their count in *nall, and, when at is not
 * NULL, *at (malloc'd) the index of each process's first item; elsewhere
 * NULL, 0 and NULL. */
void *sv_dist_gather(
	const void *mine, size_t n, size_t size, size_t *nall, size_t **at);

/* ---- the profile (dist_load.c) ------------------------------------------- */

/* What each process holds of a profile: its share of the ranks (a rank
 * subset where the format allows, else the whole file with the share
 * as a filter), and on process 0 the whole file's rows (no calls) for the
 * reports. */
struct sv_dist_profile {
	struct sv_profile *local; /* this process's ranks' calls */
	struct sv_profile *whole; /* process 0: every row, no calls */
	bool *share;              /* the ranks this process computes */
	uint32_t nshare;
	bool per_call;   /* the file holds per-call data */
	bool has_origin; /* the run's time origin, found together */
	int64_t origin_ns;
};

/* Load path as sv_load(path, o) would, split over the job: o->rank_on
 * (the command's --ranks) limits the ranks shared out.  On success
 * fills d and returns 0; on failure (agreed) returns a negative errno
 * with err. */
int sv_dist_load(const char *path, const struct sv_load_opts *o,
	struct sv_dist_profile *d, struct sv_error *err);
void sv_dist_profile_fini(struct sv_dist_profile *d);

/* The number in scopeview's own load of the file of the first call of
 * each of d->local's rows of this process's share (of the region named
 * region only, NULL: every region), into *out (malloc'd, a number per
 * row of d->local, 0 for the rows left out): a call's number is then its
 * row's plus its place in the row.  Process 0 hands every process the
 * file's rows (of that region) with their first calls, and each pairs
 * its rows with them in order.  0, or -EIO when they do not pair, the
 * message naming file (agreed). */
int sv_dist_row_calls(const struct sv_dist_profile *d, const char *region,
	const char *file, uint64_t **out, struct sv_error *err);

/* The ranks of a profile of nranks ranks whose rank r holds calls[r]
 * calls (ranks absent from the file hold none) that process k of n
 * computes: contiguous blocks balanced by calls.  Local; *out (malloc'd,
 * nranks flags, at least one) and *nout. */
void sv_dist_share(const uint64_t *calls, uint32_t nranks, int k, int n,
	bool **out, uint32_t *nout);

/* ---- the statistics (dist_stats.c, dist_select.c) ------------------------- */

/* The table sv_stats_table_compute gives over the whole profile, under
 * f, on process 0 (over d->whole); elsewhere t is an empty table.  0 or
 * a negative errno (agreed). */
int sv_dist_table(struct sv_stats_table *t, const struct sv_dist_profile *d,
	const struct sv_stats_filter *f, struct sv_error *err);

/* The values of ranks need[0..nneed) (0-based, ascending) of the
 * multiset that every process's v[0..n) make together, of total size
 * ntotal > need[nneed - 1], into val[] on process 0 (untouched
 * elsewhere).  Never gathers more than SV_DIST_GATHER_MAX values of one
 * rank on one process: buckets of the values are counted on every
 * process and added up, narrowing each rank's range until few values
 * are left in it. */
#define SV_DIST_GATHER_MAX 4096
void sv_dist_select(const int64_t *v, size_t n, uint64_t ntotal,
	const size_t *need, size_t nneed, int64_t *val);

/* ---- the tree and the scaling sample (dist_reports.c) -------------------- */

/* The tree sv_callpath_build gives over the whole profile's lanes of
 * the selected ranks under sc (sc->lane_on is not used: each process
 * takes its share's lanes), on process 0 (over d->whole's regions);
 * elsewhere an empty tree of d->local.  Each process builds its share's
 * tree, and process 0 merges the nodes by path (sv_callpath_merge).  0
 * or a negative errno (agreed); call sv_callpath_fini() after any
 * return. */
int sv_dist_callpath(struct sv_callpath *t, const struct sv_dist_profile *d,
	const struct sv_callpath_scope *sc, struct sv_error *err);
/* The run's time origin, as sv_profile_time_origin gives it for
 * scopeview's load, on every process. */
int64_t sv_dist_origin(const struct sv_dist_profile *d);
/* sv_scaling_measure of the whole profile (its ranks selected by o and
 * the load's rank list) into *s on process 0: label and x from
 * d->whole, and each region's sum and count over the job, added up
 * exactly; elsewhere a sample of no regions (x 0).  0 or a negative
 * errno (agreed; *s is then empty). */
int sv_dist_measure(struct sv_scaling_sample *s,
	const struct sv_dist_profile *d, const char *file,
	const struct sv_scaling_opts *o, struct sv_error *err);

/* ---- call lists (dist_calls.c) --------------------------------------------- */

/* The list `scopeview calls` prints (calls.h's sv_calls_pick of q over
 * the whole profile) on process 0, elsewhere an empty list: each
 * process picks its share's first q->limit calls and process 0 puts
 * the records gathered in the serial order.  0 or a negative errno
 * (agreed); the list's fini frees it. */
int sv_dist_calls(struct sv_report_call_list *l,
	const struct sv_dist_profile *d, const struct sv_calls_query *q,
	struct sv_error *err);
/* The histogram sv_hist_build gives of the durations of q's region's
 * calls on q's ranks, nbins bins, on process 0 (bins and counts, no
 * calls in the bins); elsewhere an empty one.  0 or a negative errno
 * (agreed). */
int sv_dist_hist(struct sv_hist *h, const struct sv_dist_profile *d,
	const struct sv_calls_query *q, size_t nbins, struct sv_error *err);
/* ---- the trend (dist_trend.c) --------------------------------------------- */

/* sv_trend_compute of the region named region over the whole profile
 * (the ranks of the load's rank list; o's rank list is not used: each
 * process takes its share), on process 0: t->region an index into
 * d->whole's regions, every point and change point, the drift and
 * jitter, but no per-rank series (ranks, off and calls NULL) and each
 * point's max_call SV_NO_CALL.  Elsewhere a trend of no ranks, its
 * region an index into d->local's (0 when it has none of that name).
 * Process 0 never holds every value: the iterations' values are
 * gathered there a block at a time.  0 or a negative errno (agreed);
 * call sv_trend_fini() after a success. */
int sv_dist_trend(struct sv_trend *t, const struct sv_dist_profile *d,
	const char *region, const struct sv_trend_opts *o,
	struct sv_error *err);
/* ---- the export (dist_export.c) ----------------------------------------- */

/* `export` as scopeview's (cli.h's sv_cli_export_here) of the whole
 * profile: each process writes its share's calls or rows, process 0 the
 * head and the tail from d->whole, and the parts go in order into one
 * output, process 0's standard output or x->out (written by the output
 * rule, outfile.h).  0 or a negative errno (agreed). */
struct sv_cli_export;
int sv_dist_export(const struct sv_dist_profile *d,
	const struct sv_cli_export *x, struct sv_error *err);

/* ---- the program (dist_cmd.c) --------------------------------------------- */

/* The command names scopeview-mpi runs, and the engine (cli.h) it runs
 * them with. */
extern const char *const sv_dist_commands[];
extern const size_t sv_dist_ncommands;
struct sv_cli_engine;
extern const struct sv_cli_engine sv_dist_engine;

#endif
