/*
 * source.h: where profiles come from, as the layers above the model see
 * it.  The HDF5 loader (load.h, in io/) is one such source; the viewer's
 * loop (app.h, in ui/) is handed a struct sv_source by the command line,
 * so that nothing in ui/ links or includes HDF5, and tests can hand it a
 * source of their own.
 */
#ifndef SCOPEVIEW_SOURCE_H
#define SCOPEVIEW_SOURCE_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/source.h belongs to the model layer, which this layer may not use"
#endif

#include <stdbool.h>

#include "scopeview/common.h"
#include "scopeview/profile.h"

/* Optional progress reporting and cancellation.  Any member may be NULL.
 * The hooks are called from a thread sv_load starts for the load while
 * the calling thread waits (see "Damaged files" at sv_load), one call at
 * a time. */
/*
 * Several processes reading one file together (scopeview-mpi, src/mpi/):
 * every process of the job calls sv_load with the same path and options
 * but its own rank_on.  The model knows nothing of MPI: the job hands the
 * loader a broadcast function.
 */
struct sv_load_share {
	/* Open an HDF5 file with the MPI-IO driver on every process of the
	 * job (a collective open).  Only a loader built against the
	 * parallel libhdf5 can: elsewhere the load fails with -ENOTSUP. */
	bool mpio;
	/* The index of a columnar HDF5 file (/rank_region_index's integer
	 * columns and stored statistics) is read by the process whose root
	 * is true and handed to the others: every process calls bcast in
	 * the same order with the same n, the root with the n bytes it read
	 * at buf and the status of its read (0 or a negative errno), the
	 * others with a buffer of n bytes to fill.  Returns the root's
	 * status, on every process. */
	bool root;
	int (*bcast)(void *ctx, void *buf, size_t n, int rc);
	void *ctx;
};

struct sv_load_opts {
	/* fraction in [0, 1]; what = a short phrase ("events", "nesting") */
	void (*progress)(void *ctx, double fraction, const char *what);
	/* return nonzero to stop: sv_load then fails with -ECANCELED */
	int (*cancelled)(void *ctx);
	/* Called once the file is read and closed, before the work in
	 * memory (nesting, lanes) that follows: from then on the load calls
	 * nothing of HDF5, so a caller quitting need not wait for it. */
	void (*file_done)(void *ctx);
	void *ctx;
	/* Only read the index (rows, names, metadata, stored statistics), not
	 * the event columns; the result has has_calls = false. */
	bool summary_only;
	/* Decode compressed event columns with HDF5 alone (H5Dread), not
	 * with the parallel chunk decoder; the values are the same.  For
	 * tests and benchmarks; the environment variable
	 * SCOPEVIEW_NO_FAST_INFLATE=1 does the same for every load. */
	bool slow_inflate;
	/* Read only the calls of the ranks r with r < nrank_on and
	 * rank_on[r] (sv_stats_parse_ranks' form); NULL: every rank.  Where
	 * the layout allows (doc/format.md 4.14) the other ranks' rows are
	 * left out and their events never read, and the profile says so
	 * (sv_profile.rank_subset); elsewhere every rank is read and the
	 * caller's own rank filter does the rest. */
	const bool *rank_on;
	uint32_t nrank_on;
	/* With a rank subset: one empty lane for each rank of the file left
	 * out (sv_profile.absent_lanes), so that a view can show it and ask
	 * for it. */
	bool absent_lanes;
	/* Pack the starts and the id columns (sv_profile_pack), for a holder
	 * that reads them one call at a time (the viewer): the call and
	 * parent ids as soon as they are read, since the nesting does not
	 * read them, and the rest once it is done. */
	bool pack;
	/* With pack: a profile of fewer calls keeps its starts, durations,
	 * nesting and lanes unpacked (sv_profile_pack is not called; the
	 * optional columns are packed as they are read all the same):
	 * SV_PACK_MIN_CALLS for the viewer, 0 to pack every profile. */
	uint64_t pack_min_calls;
	/* A profile of the same file read before (the viewer's previous
	 * load, borrowed, read-only): the calls of the rows it holds are
	 * copied from it instead of read from the file, where the layout
	 * allows (doc/format.md 4.15), and donor_done (may be NULL) is
	 * called once the load needs it no more, before the nesting. */
	const struct sv_profile *donor;
	void (*donor_done)(void *ctx);
	/* One process of several reading the file (above; borrowed); NULL:
	 * the only one.  With share and rank_on, a columnar HDF5 file is
	 * always read as a rank subset, even where the rows left out give
	 * no time origin (has_run_start is then false: the job finds the
	 * origin itself). */
	const struct sv_load_share *share;
	/* Each region's earliest start over a larger load of the file
	 * (nregion_first values, by region index; 0 for a region without
	 * calls): the tie order of the lanes (sv_profile.region_first).
	 * NULL, or a count other than the file's regions: from this load's
	 * calls. */
	const int64_t *region_first;
	uint32_t nregion_first;
	/* Leave the calls unnested (no lanes, depth, parents or per-call
	 * exclusive times: sv_profile.unnested) when every row of the load
	 * stores its exclusive total, for a holder that reads of the nesting
	 * nothing but those totals (summary's shares).  scope-profiler
	 * nests nothing then either, so a partial overlap goes unreported as
	 * it does there. */
	bool stored_exclusive;
	/* With stored_exclusive, and the load left unnested: the profile
	 * handed back before sv_profile_finish (no durations narrowed, no
	 * span, no warnings of their own yet), for the holder to finish on
	 * its own thread while the loading one goes on to the next load
	 * (summary's shares).  Ignored otherwise. */
	bool finish_later;
};

/*
 * A way to load a profile: load() behaves as sv_load (load.h) does: on
 * success it stores a finished profile in *out (the caller frees it with
 * sv_profile_free) and returns 0; on failure it returns a negative errno
 * and fills err with one line.  It may be called from any thread, one
 * call at a time per source.  thread_init (may be NULL) is called once in
 * each thread before its first load() (HDF5 wants its error printing
 * switched off per thread).  A rank list (rank_on) applies to every
 * profile loaded through the source, the second run compared too.
 */
struct sv_source {
	int (*load)(const char *path, const struct sv_load_opts *opts,
		struct sv_profile **out, struct sv_error *err);
	void (*thread_init)(void);
	/* Ranks to read (sv_load_opts.rank_on, borrowed; NULL: every
	 * rank): handed to every load() through this source. */
	const bool *rank_on;
	uint32_t nrank_on;
	/* A memory budget in bytes for the calls the viewer keeps
	 * (budget.h); 0: none.  The viewer's loads (not a second run's)
	 * then read only the ranks that fit, within rank_on when it is set,
	 * the ranks of prefer[0 .. nprefer) (borrowed) first. */
	uint64_t memory;
	const uint32_t *prefer;
	uint32_t nprefer;
	/* The viewer's next load may copy the calls this profile holds
	 * rather than read them again (sv_load_opts.donor): the loader takes
	 * a reference (sv_profile_ref) when it starts.  NULL: none. */
	struct sv_profile *donor;
};

#endif
