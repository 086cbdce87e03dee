/*
 * load.h: read a scope-profiler profile into a struct sv_profile: every
 * file scope-profiler writes (doc/format.md): an HDF5 profile of any
 * layout, a native trace (.spt), a directory of per-rank files (.spt and
 * *_rank[0-9]*.h5) standing for one run, a JSON profile, plain or gzip.
 * What a path holds is told by its first bytes, never by its name
 * (doc/format.md 16).  Declares no HDF5 types: only load_h5*.c include
 * <hdf5.h>.
 *
 * Files are opened read-only; an HDF5 file without HDF5's file lock, and
 * with HDF5's error printing switched off in the calling thread.  The
 * loader never writes to a file.
 */
#ifndef SCOPEVIEW_LOAD_H
#define SCOPEVIEW_LOAD_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_IO)
#error "scopeview/load.h belongs to the io layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>

#include "scopeview/common.h"
#include "scopeview/profile.h"
#include "scopeview/source.h"

/*
 * Load path: a file of any format above, or a directory (one run of its
 * per-rank files, doc/format.md 16.2).  On success stores a finished profile (sv_profile_finish has
 * run) in *out and returns 0.  On failure returns a negative errno, leaves
 * *out untouched and fills err with one line naming the file and the HDF5
 * object, e.g. "run.h5: /rank_region_index/event_counts: row 3 claims 40
 * calls at offset 0, but /events/start_deltas holds 12; ...".  Text taken
 * from the file appears in messages with control characters as \xNN.
 * opts may be NULL.
 *
 * Native traces, directories and JSON profiles fail with the one-line
 * messages of doc/format.md 16 (naming the file, and the region where one
 * is at fault): -EINVAL for what scope-profiler refuses, -ENOTSUP for an
 * unknown trace or JSON version, -ENOENT for a directory without per-rank
 * files.  A run of native files honours rank_on (the other ranks'
 * calls are not read), a JSON profile does not (every rank is read; the
 * caller's filter applies); neither takes a donor.  summary_only reads a
 * trace's headers only, and fails with -ENOTSUP on a JSON profile (it has
 * no index apart from its calls).
 *
 * Return codes:
 *   -ENOENT, -EACCES, -ENOTDIR (any errno of stat or open)
 *            the path is missing or unreadable;
 *   -EINVAL  not an HDF5 file, an empty file, not a regular file (a FIFO
 *            would block), a bad schema attribute (not an integer, < 1),
 *            a required group or dataset missing or of
 *            the wrong type class or rank, rows past the event columns or
 *            overlapping, a region id out of range, a (rank, region) pair
 *            twice, a required column shorter than the events, a shape no
 *            file of that size can hold;
 *   -EIO     HDF5 cannot open or read it (truncated or damaged), or
 *            libhdf5 itself crashed or looped on it (see "Damaged files"
 *            below), or an earlier load did;
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
/*
 * Speed.  Event columns stored chunked with deflate (and shuffle) are
 * decoded in worker threads (one per online CPU, at most 8): the loading
 * thread fetches raw chunks with H5Dread_chunk and the workers inflate and
 * unshuffle them into the profile's arrays.  Any other storage, a short
 * column, or any doubt about a chunk reads with H5Dread as before, so the
 * values and the errors are the same either way (opts->slow_inflate or
 * SCOPEVIEW_NO_FAST_INFLATE=1 forces H5Dread, for comparison).
 *
 * Damaged files.  libhdf5 1.10.8 itself can crash (SIGSEGV, SIGBUS, or
 * glibc's abort on a bad free) or loop for ever on some corrupted files,
 * in code that reads strings and attribute lists.  While the calling
 * thread is inside HDF5, sv_load installs a handler for those signals (on
 * an alternate signal stack of the thread) that jumps back and fails
 * with -EIO and "FILE: damaged: the HDF5 library crashed while reading
 * /object (the file is corrupt)".  A watchdog on the thread's CPU clock
 * stops a call that computes for SCOPEVIEW_HDF5_WATCHDOG seconds (default
 * 20; 0 = off) without moving on to another object: "... went round in
 * circles while reading /object and was stopped ...".  Waiting for a slow
 * disk never trips it.  Signals in other threads, or outside HDF5, go to
 * the handler installed before (the viewer's terminal restorer) or kill
 * the process as usual; the handler is re-installed at each progress step
 * if someone replaced it, so the order of installation does not matter.
 *
 * The HDF5 work of each load runs on a thread of its own (that blocks
 * every other signal), so that what libhdf5 damages when it runs wild is
 * mostly that thread's: after a crash the thread is parked for good rather
 * than ended, since ending it would free its allocator caches.
 *
 * After such a jump libhdf5's state is unknown (its global lock may stay
 * held, its caches half-written), and the heap may be damaged too (libhdf5
 * wrote through pointers taken from the file).  So:
 *   - every later sv_load in the process fails at once with -EIO and
 *     "FILE: not loaded: the HDF5 library is in an unknown state after
 *     reading a damaged file; restart scopeview (the first message)",
 *     and
 *     sv_load_quiet_hdf5 does nothing;
 *   - the partial profile and what the unwound calls held are leaked, not
 *     freed;
 *   - at exit, libhdf5's own exit handler (and every exit handler
 *     registered before the first load) is skipped: stdio is flushed and
 *     the process ends with the status given to exit();
 *   - other HDF5 users in the same process (the writer) must not run;
 *   - the process should be restarted: a damaged heap can still make a
 *     later malloc abort, and only a separate process would prevent that.
 * A hang that does not burn CPU (a blocking read) is not caught.
 */
int sv_load(const char *path, const struct sv_load_opts *opts,
	struct sv_profile **out, struct sv_error *err);

/* Load paths[0 .. n) as one run.  One path is sv_load.  Several are the
 * native files of one run, named one by one or by their directories, as
 * scope-profiler's import-native takes them (doc/format.md 16.2): .spt
 * traces and per-rank HDF5 files; a JSON profile cannot be merged. */
int sv_load_paths(const char *const *paths, size_t n,
	const struct sv_load_opts *opts, struct sv_profile **out,
	struct sv_error *err);

/* The checks sv_load makes before it reads path (it exists, is a regular
 * file or a directory with per-rank files, is readable, holds a format
 * sv_load reads), with the same one-line messages ("run.h5: no such
 * file"), so that a command can fail before it changes the screen and
 * still say what `summary` says.  Returns 0 or a negative errno with err
 * filled. */
int sv_load_probe(const char *path, struct sv_error *err);

/* Switch off HDF5's automatic error printing for the calling thread (a
 * no-op once a load has caught a crash inside HDF5). */
void sv_load_quiet_hdf5(void);

#endif
