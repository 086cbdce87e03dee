/*
 * load.h: read a scope-profiler HDF5 profile (every layout of FORMAT.md)
 * into a struct sv_profile.  Declares no HDF5 types: only load_h5*.c
 * include <hdf5.h>.
 *
 * The file is opened read-only, without HDF5's file lock, and with HDF5's
 * error printing switched off in the calling thread.  The loader never
 * writes to the file.
 */
#ifndef SCOPEVIEW_LOAD_H
#define SCOPEVIEW_LOAD_H

#include <stdbool.h>

#include "scopeview/common.h"
#include "scopeview/profile.h"

/* Optional progress reporting and cancellation, called from the loading
 * thread.  Any member may be NULL. */
struct sv_load_opts {
	/* fraction in [0, 1]; what = a short phrase ("events", "nesting") */
	void (*progress)(void *ctx, double fraction, const char *what);
	/* return nonzero to stop: sv_load then fails with -ECANCELED */
	int (*cancelled)(void *ctx);
	void *ctx;
	/* Only read the index (rows, names, metadata, stored statistics), not
	 * the event columns; the result has has_calls = false. */
	bool summary_only;
	/* Decode compressed event columns with HDF5 alone (H5Dread), not
	 * with the parallel chunk decoder; the values are the same.  For
	 * tests and benchmarks; the environment variable
	 * SCOPEVIEW_NO_FAST_INFLATE=1 does the same for every load. */
	bool slow_inflate;
};

/*
 * Load path.  On success stores a finished profile (sv_profile_finish has
 * run) in *out and returns 0.  On failure returns a negative errno, leaves
 * *out untouched and fills err with one line naming the file and the HDF5
 * object, e.g. "run.h5: /rank_region_index/event_counts: row 3 claims 40
 * calls at offset 0, but /events/start_deltas holds 12; ...".  Text taken
 * from the file appears in messages with control characters as \xNN.
 * opts may be NULL.
 *
 * Return codes:
 *   -ENOENT, -EACCES, -EISDIR, -ENOTDIR (any errno of stat or open)
 *            the path is missing, unreadable, a directory;
 *   -EINVAL  not an HDF5 file, an empty file, not a regular file (a FIFO
 *            would block), a bad schema attribute (not an integer, < 1),
 *            a required group or dataset missing or of
 *            the wrong type class or rank, rows past the event columns or
 *            overlapping, a region id out of range, a (rank, region) pair
 *            twice, a required column shorter than the events, a shape no
 *            file of that size can hold;
 *   -EIO     HDF5 cannot open or read it (truncated or damaged);
 *   -ENOTSUP a schema newer than 3, or data behind a compression filter
 *            this HDF5 lacks (the message names the filter);
 *   -E2BIG   more calls than SV_MAX_CALLS;
 *   -ECANCELED  opts->cancelled asked to stop.
 *
 * What only warns (the profile's warnings, the load goes on): a columnar
 * file without its schema attribute (read as columnar), an unknown
 * storage_layout (read as columnar), tag text that is not a JSON array
 * (kept raw), an optional column of the wrong length, type or rank
 * (dropped), an /events dataset that is neither a known column nor as long
 * as the events (ignored), summary_statistics lacking fields (ignored), a
 * lane-table column that cannot be used; profile.c adds calls that end
 * before they start and partial overlaps inside a lane.
 *
 * summary_only reads no event column of a columnar or aggregate file; a
 * schema 1 file holds no stored statistics, so its calls are read anyway.
 */
int sv_load(const char *path, const struct sv_load_opts *opts,
	struct sv_profile **out, struct sv_error *err);

/* Switch off HDF5's automatic error printing for the calling thread. */
void sv_load_quiet_hdf5(void);

#endif
