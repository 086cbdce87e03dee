/*
 * diff.h: two runs compared region by region (`scopeview diff`, the CI
 * gate and the viewer's two-run columns).
 *
 * The figures are the statistics tables of stats.h, one per run, computed
 * over the same selection (ranks, include and exclude patterns): nothing
 * here recomputes a statistic.  Regions are matched by name.  A region is
 * in a run when it has at least one call in that run's selection; a
 * region with calls in both is a row, the others are listed apart (only
 * in A, only in B).
 *
 * For each row: A's and B's figure of the metric, delta = B - A, and
 * pct = delta / A * 100, which has no value when A is 0 (and no figure
 * is made up for it).  A figure the data cannot give (percentiles of an
 * aggregate file) has no value on that side, and then neither delta nor
 * pct has one.  Times are nanoseconds (doubles: a mean or a percentile
 * is not a whole number), calls a count, imbalance percent (its delta is
 * in points).
 *
 * Nothing here prints, knows about HDF5 or about the terminal.
 */
#ifndef SCOPEVIEW_DIFF_H
#define SCOPEVIEW_DIFF_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/diff.h belongs to the model layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>

#include "scopeview/common.h"
#include "scopeview/stats.h"

/* The metrics: id, name, stats key, whether it is a time, help. */
#define SV_DIFF_METRIC_TABLE(X)                                               \
	X(TOTAL, "total", SV_STATS_KEY_TOTAL, true, "total (inclusive) time") \
	X(AVG, "avg", SV_STATS_KEY_AVG, true, "average duration")             \
	X(MIN, "min", SV_STATS_KEY_MIN, true, "shortest call")                \
	X(MAX, "max", SV_STATS_KEY_MAX, true, "longest call")                 \
	X(P50, "p50", SV_STATS_KEY_P50, true, "median duration")              \
	X(P95, "p95", SV_STATS_KEY_P95, true, "95th percentile")              \
	X(P99, "p99", SV_STATS_KEY_P99, true, "99th percentile")              \
	X(IMBALANCE, "imbalance", SV_STATS_KEY_IMBALANCE, false,              \
		"rank imbalance in percent")                                  \
	X(CALLS, "calls", SV_STATS_KEY_CALLS, false, "number of calls")       \
	X(EXCLUSIVE, "exclusive", SV_STATS_KEY_EXCLUSIVE, true,               \
		"exclusive time")

enum sv_diff_metric {
#define SV_DIFF_METRIC_ENUM(id, name, key, time, help) SV_DIFF_##id,
	SV_DIFF_METRIC_TABLE(SV_DIFF_METRIC_ENUM)
#undef SV_DIFF_METRIC_ENUM
		SV_DIFF_METRIC_COUNT
};

/* The metric's name ("total") and help; NULL for an invalid one. */
const char *sv_diff_metric_name(enum sv_diff_metric m);
const char *sv_diff_metric_help(enum sv_diff_metric m);
/* Whether the metric is a time in ns (else a count or a percentage). */
bool sv_diff_metric_is_time(enum sv_diff_metric m);
/* The metric called name, or -1. */
int sv_diff_metric_from_name(const char *name);
/* The metric of a statistics key (SV_STATS_KEY_TOTAL -> SV_DIFF_TOTAL),
 * or -1 for keys that are not one (start, name, first, ...). */
int sv_diff_metric_of_key(enum sv_stats_key key);

/* How much a figure changed, for colours: -2 faster by 10% or more, -1
 * faster by 1% to 10%, 0 within 1%, 1 and 2 the same slower.  has_a
 * false (only in B) counts as 2, has_b false (only in A) as -2; a growth
 * from 0 as 2. */
int sv_diff_level(bool has_a, double a, bool has_b, double b);

/* Row orders: delta and pct descending (the largest regression first,
 * rows without the figure last), name ascending; ties by name. */
enum sv_diff_sort {
	SV_DIFF_SORT_DELTA,
	SV_DIFF_SORT_PCT,
	SV_DIFF_SORT_NAME,
};

/* The sort called name ("delta", "pct", "name"), or -1. */
int sv_diff_sort_from_name(const char *name);

/* The figure of one region of one run. */
struct sv_diff_side {
	const struct sv_stats_region *r; /* in the run's table; NULL: absent */
	bool has;                        /* the figure has a value */
	double v;
};

struct sv_diff_row {
	const char *name; /* the region's name, borrowed from a table */
	struct sv_diff_side a, b;
	bool has_delta;
	double delta; /* b - a */
	bool has_pct;
	double pct; /* delta / a * 100; absent when a is 0 */
	/* Hidden by the threshold: |pct| below it, or no change at all
	 * (delta 0) where pct has no value. */
	bool hidden;
};

struct sv_diff {
	enum sv_diff_metric metric;
	struct sv_diff_row *rows; /* regions in both, in sort order */
	size_t nrows;
	size_t nhidden; /* rows with hidden set */
	/* Regions with calls in one run only, by name; their other side is
	 * absent and they have no delta. */
	struct sv_diff_row *only_a, *only_b;
	size_t nonly_a, nonly_b;
};

/*
 * Compare table a with table b (both borrowed: the names in d point into
 * their profiles) on metric m, rows in order sort, hiding rows whose
 * change is below threshold_pct (0: none).  d is overwritten.  Returns
 * 0, or -EINVAL with err for a bad metric or sort, or a negative
 * threshold.
 */
int sv_diff_compute(struct sv_diff *d, const struct sv_stats_table *a,
	const struct sv_stats_table *b, enum sv_diff_metric m,
	enum sv_diff_sort sort, double threshold_pct, struct sv_error *err);
/* Free what d holds; NULL-safe. */
void sv_diff_fini(struct sv_diff *d);

/* Whether row regressed by more than pct percent: pct above it, or a
 * growth from 0 (which no percentage measures). */
bool sv_diff_row_regressed(const struct sv_diff_row *row, double pct);

/* The figure of metric m of region r (NULL: false), as sv_diff_compute
 * takes it: sv_stats_value, or the rank imbalance. */
bool sv_diff_value(
	const struct sv_stats_region *r, enum sv_diff_metric m, double *out);

#endif
