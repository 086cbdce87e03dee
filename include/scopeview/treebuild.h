/*
 * treebuild.h: a call tree (callpath.h) of the session's scope, built off
 * the UI thread, for the tree, callers and flame views.
 *
 * The scope is the lanes on display (the rank filter and a soloed lane)
 * and the session's marked time range, if any.  A small scope (at most
 * sync_max calls) is built at once, so a key script sees the finished
 * tree; a larger one in a thread, with progress, while the views draw the
 * last tree they had.  Starting again cancels a build under way; the
 * views start one when their input changes, so the next key that changes
 * it cancels the old one.  A view draws only from `tree` (valid when
 * `ready`), which the thread never touches: the build is a job on the
 * session's jobs (job.h), and when the viewer's loop takes it in the
 * finished tree is swapped in and the view told (done).  Nothing here
 * knows about curses or HDF5.
 */
#ifndef SCOPEVIEW_TREEBUILD_H
#define SCOPEVIEW_TREEBUILD_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/treebuild.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "scopeview/callpath.h"
#include "scopeview/job.h"
#include "scopeview/session.h"

#define SV_TREEBUILD_SYNC_MAX 200000 /* calls built on the UI thread */

struct sv_treebuild {
	struct sv_callpath tree; /* the finished tree the views draw */
	bool ready;              /* tree holds a build */
	bool cancelled;          /* the last build was cancelled */
	size_t sync_max;         /* see SV_TREEBUILD_SYNC_MAX */

	/* Where builds run (the session's jobs), and what to call when one
	 * is in (tree ready, or cancelled), on the loop's thread; a build
	 * small enough to be made at once calls it before start returns. */
	struct sv_jobs *jobs;
	void (*done)(void *owner);
	void *owner;
	/* The build under way (shared with its job's thread). */
	struct sv_job job;
	bool running; /* started and not yet taken in by poll */
	atomic_int cancel;
	atomic_uint_fast64_t progress, progress2; /* the second run's */
	uint64_t work; /* calls of the lanes in scope, for the fraction */
	const struct sv_profile *p;
	struct sv_callpath_scope scope;
	bool *lane_on;
	struct sv_callpath result;

	/* A comparison (the session's second run, without a marked range:
	 * the runs' times do not line up): the second run's tree over the
	 * ranks on display, built with the first's (on its thread when the
	 * two hold more than sync_max calls; has2 once it is built), and
	 * for every node of tree the node of tree2 with the same path of
	 * names (match2, SV_CALLPATH_NONE: not in the second run). */
	bool want2, has2;
	bool built2; /* written by the build, read once it is done */
	const struct sv_profile *p2;
	struct sv_callpath_scope scope2;
	struct sv_callpath tree2;
	uint32_t *match2;
	bool *lane2_on;
};

/* An idle builder with no tree, whose builds run on jobs (borrowed, the
 * session's) and that calls done(owner) (may be NULL) when one is in. */
void sv_treebuild_init(struct sv_treebuild *b, struct sv_jobs *jobs,
	void (*done)(void *owner), void *owner);
/* Fini and init again with the same jobs and done: no tree (the profile
 * it was built from is about to go). */
void sv_treebuild_reset(struct sv_treebuild *b);
/* Cancel and wait for a build under way; free the trees. */
void sv_treebuild_fini(struct sv_treebuild *b);

/* Build the tree of s's scope (expand: recursion expanded), cancelling a
 * build under way.  The tree is ready at once when the scope holds at most
 * sync_max calls. */
void sv_treebuild_start(
	struct sv_treebuild *b, const struct sv_session *s, bool expand);
/* Cancel the build under way (the old tree stays). */
void sv_treebuild_cancel(struct sv_treebuild *b);
/* Whether a build is under way, and how far it is (0 .. 1). */
bool sv_treebuild_busy(const struct sv_treebuild *b);
double sv_treebuild_fraction(const struct sv_treebuild *b);

/* Node n of tree in the second run (NULL: no comparison, or the path is
 * not in it). */
const struct sv_callpath_node *sv_treebuild_second(
	const struct sv_treebuild *b, uint32_t n);
/* The grid style of node n's change in inclusive time (grid.h's
 * SV_STYLE_DIFF_*: slower red, faster blue, the stronger for 10% or
 * more), or -1 without a comparison. */
int sv_treebuild_diff_style(const struct sv_treebuild *b, uint32_t n);
/* With a comparison, append node n's second-run inclusive time and calls
 * to the text in buf (size bytes): ", B: 2.10ms (+51.5%, 312 calls)", or
 * ", B: none" when the path is not in the second run; nothing without
 * one. */
void sv_treebuild_second_text(
	const struct sv_treebuild *b, uint32_t n, char *buf, size_t size);

/* The scope of s in words for a view's title: "all ranks, whole run",
 * "ranks 0-3, lane r0 main, range +1.20 ms .. +3.40 ms (range: calls
 * count with their time inside)". */
void sv_treebuild_scope_text(const struct sv_session *s, char *buf, size_t n);
/* A progress line for a build under way: "building the call tree of
 * 1,200,000 calls: 45% (Esc stops)". */
void sv_treebuild_progress_text(
	const struct sv_treebuild *b, char *buf, size_t n);

#endif
