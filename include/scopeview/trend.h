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
 * iteration (the first of the new level that is not a spike), the rank,
 * and the mean before and after it (over the segments either side,
 * every iteration of them).  Drift is the least-squares slope of the
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

/* The change-point method's settings (trend.c states the method): a
 * spike is a value further than SV_TREND_SPIKE robust standard
 * deviations from the median of the five around it; both sides of a
 * split hold at least SV_TREND_MIN_SEGMENT iterations that are not
 * spikes, the level moves by at least SV_TREND_MIN_SHIFT (a fraction) of
 * the larger side's mean, and the split's two-sample t statistic is at
 * least SV_TREND_THRESHOLD. */
#define SV_TREND_SPIKE       5.0
#define SV_TREND_MIN_SEGMENT 10
#define SV_TREND_MIN_SHIFT   0.05
#define SV_TREND_THRESHOLD   6.0

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
	/* NaN where not defined: drift with fewer than two iterations or a
	 * mean median of 0, jitter without iterations or a median of 0. */
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

/*
 * sv_trend_compute in parts, for a caller that holds the ranks on
 * several processes (scopeview-mpi, dist.h): a rank's series is whole on
 * one process, which finds it and its change points (sv_trend_series);
 * an iteration's point needs every rank's value of it
 * (sv_trend_point_of), gathered there; the drift and jitter need every
 * point (sv_trend_finish).  Put together in that way, and the change
 * points of every rank sorted (sv_trend_sort_changes), they give what
 * sv_trend_compute gives.
 */

/* The first part of sv_trend_compute: t->region, metric, nranks, ranks,
 * off and calls, the values of t->calls into *values (malloc'd, one a
 * call, in t->calls' order; free with sv_free_big) and each rank's
 * change points in t->changes, by iteration; no points, drift and
 * jitter NaN.  Errors as sv_trend_compute's; *t and *values are written
 * only on success.  Free t with sv_trend_fini. */
int sv_trend_series(struct sv_trend *t, const struct sv_profile *p,
	uint32_t region, const struct sv_trend_opts *opts, int64_t **values,
	struct sv_error *err);
/* The point of an iteration that n > 0 ranks have, rank[j] with value
 * v[j] (in any order): count, min, numpy's median, max and max_rank (the
 * lowest rank of the max), as sv_trend_compute makes it; max_call
 * SV_NO_CALL (the call is in another process's profile).  scratch: room
 * for n doubles. */
void sv_trend_point_of(struct sv_trend_point *pt, const int64_t *v,
	const uint32_t *rank, size_t n, double *scratch);
/* The drift and jitter of t->points[0 .. npoints) (NaN where they are
 * not defined). */
void sv_trend_finish(struct sv_trend *t);
/* c[0 .. n) in sv_trend_compute's order: by iteration, then rank. */
void sv_trend_sort_changes(struct sv_trend_change *c, size_t n);

/* The value the trend measures of call c (its duration or exclusive
 * time). */
int64_t sv_trend_value(
	const struct sv_trend *t, const struct sv_profile *p, uint32_t c);

#endif
