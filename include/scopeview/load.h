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
};

/*
 * Load path.  On success stores a finished profile (sv_profile_finish has
 * run) in *out and returns 0.  On failure returns a negative errno and
 * fills err with one line naming the file and the HDF5 object, e.g.
 * "run.h5: /rank_region_index/event_counts: row 3 claims 40 calls but
 * /events holds 12".  opts may be NULL.
 */
int sv_load(const char *path, const struct sv_load_opts *opts,
	struct sv_profile **out, struct sv_error *err);

/* Switch off HDF5's automatic error printing for the calling thread. */
void sv_load_quiet_hdf5(void);

#endif
