/*
 * trend.h: how one region's calls change over a run, iteration by
 * iteration.
 *
 * Iteration k of the region is its k-th call on each rank, in start order
 * (the rank's calls of the region over every lane of the rank, ties by
 * call number).  For each k: the min, numpy's median and max over the
 * ranks that have a k-th call (of the duration, or of the exclusive time),
 * the rank holding the max (the lowest such rank) and its call, and how
 * many ranks have a k-th call.
 *
 * Change points: for each rank, the iterations where its series shifts
 * level and stays there, found by binary segmentation (the method is
 * stated once, in trend.c's header, with its threshold): each has the
 * iteration, the rank, and the mean before and after it (over the
 * segments either side).  Drift is the least-squares slope of the
 * per-iteration median, in percent of the median's mean per 100
 * iterations; jitter is the median absolute deviation of the medians over
 * their median, in percent.
 *
 * The profile is borrowed.  Nothing here knows about curses or HDF5.
 */
#ifndef SCOPEVIEW_TREND_H
#define SCOPEVIEW_TREND_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/trend.h belongs to the model layer, which this layer may not use"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/profile.h"

enum sv_trend_metric {
	SV_TREND_DURATION,  /* end - start */
	SV_TREND_EXCLUSIVE, /* the call's exclusive time */
};

struct sv_trend_opts {
	enum sv_trend_metric metric;
	/* The ranks taken: rank r when r < nrank_on and rank_on[r]; NULL:
	 * every rank. */
	const bool *rank_on;
	uint32_t nrank_on;
	/* Stop and progress (calls done), both may be NULL: the trend of a
	 * region of millions of calls is made on a worker. */
	const atomic_bool *cancel;
	_Atomic uint64_t *progress;
};

struct sv_trend_point {
	uint32_t count; /* ranks with a k-th call */
	int64_t min_ns, max_ns;
	double median_ns;
	uint32_t max_rank; /* the rank of the max (lowest on ties) */
	uint32_t max_call; /* its call (the slowest of iteration k) */
};

struct sv_trend_change {
	uint32_t index; /* the first iteration of the new level */
	uint32_t rank;
	double before_ns, after_ns;
};

struct sv_trend {
	uint32_t region;
	enum sv_trend_metric metric;
	uint32_t nranks;               /* ranks with a call of the region */
	struct sv_trend_point *points; /* npoints: iteration 0 .. */
	size_t npoints;
	struct sv_trend_change *changes; /* nchanges, by iteration */
	size_t nchanges;
	double drift_pct_per_100, jitter_pct;
	/* Each rank's calls of the region in start order, for a row a rank:
	 * rank i (0 .. nranks) is rank number ranks[i], its calls
	 * calls[off[i] .. off[i + 1]). */
	uint32_t *ranks;
	size_t *off;
	uint32_t *calls;
};

/*
 * The trend of region in p (a finished profile with calls).  Returns 0;
 * -EINVAL with err for a region out of range or a profile without calls;
 * -ECANCELED when opts->cancel was set.  *t written only on success; free
 * with sv_trend_fini.  O(calls of the region x log) time.
 */
int sv_trend_compute(struct sv_trend *t, const struct sv_profile *p,
	uint32_t region, const struct sv_trend_opts *opts,
	struct sv_error *err);
void sv_trend_fini(struct sv_trend *t);

/* The value the trend measures of call c (its duration or exclusive
 * time). */
int64_t sv_trend_value(
	const struct sv_trend *t, const struct sv_profile *p, uint32_t c);

#endif
