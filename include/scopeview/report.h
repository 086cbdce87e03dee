/*
 * report.h: `scopeview ranks` and `scopeview calls`, the rank x region
 * matrix and call lists for scripts (JSON, CSV) and people (a table).
 *
 * The writers take what the model computed (ranks.h, calls.h,
 * histogram.h) and only format it, so the numbers are the viewer's.
 * Times are exact integer nanoseconds in JSON and CSV (a mean or an
 * excess over a mean is a float of ns); the table uses human units.
 * Absent figures are null (JSON), empty (CSV) or "-" (table).  JSON and
 * CSV are written by json.h and csv.h: names as stored in CSV, escaped
 * as JSON strings in JSON, and escaped for the terminal in the table.
 * They never exit; they return 0, or -EIO when the stream reported a
 * write error.
 *
 * JSON shapes:
 *   ranks: {"file", "metric", "num_ranks", "regions": [{"name", "ranks":
 *     [{"rank", "total_ns", "exclusive_ns", "num_calls"}], "min_ns",
 *     "mean_ns", "max_ns", "slowest_rank", "excess_ns",
 *     "rank_imbalance_pct"}]}, regions in the table's order;
 *   calls: {"file", "region", "calls": [{"rank", "lane", "start_ns",
 *     "end_ns", "duration_ns", "exclusive_ns", "gpu_ns", "await_ns",
 *     "metadata"}]}, start_ns and end_ns absolute as stored, gpu_ns and
 *     await_ns as stored or null without the column, metadata
 *     (sv_report_call_metadata) or null when the file has none;
 *   histogram: {"file", "region", "num_calls", "nonpositive", "edges_ns",
 *     "counts", "mean_ns", "p50_ns", "p95_ns", "p99_ns"};
 *   diff: {"a", "b", "metric", "regions": [{"name", "a", "b", "delta",
 *     "pct"}], "only_in_a": [names], "only_in_b": [names]}, regions in
 *     the diff's order, time metrics in seconds (as summary's JSON), pct
 *     null where A is 0;
 *   scaling: {"x_field", "baseline", "runs": [{"file", "label", "x"}],
 *     "regions": [{"name", "points": [{"x", "runs", "mean_duration",
 *     "speedup", "efficiency", "normalized_runtime",
 *     "weak_efficiency"}]}]}, x and baseline numbers when every x is one
 *     (a whole number as an integer), else the texts; mean_duration in
 *     seconds; a ratio that is not a number (a mean of 0) null;
 *   trend: {"region", "metric", "ranks", "points": [{"index", "count",
 *     "min_ns", "median_ns", "max_ns", "max_rank"}], "change_points":
 *     [{"index", "rank", "before_ns", "after_ns"}], "drift_pct_per_100",
 *     "jitter_pct"}, drift and jitter null where not defined.
 */
#ifndef SCOPEVIEW_REPORT_H
#define SCOPEVIEW_REPORT_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_REPORT)
#error "scopeview/report.h belongs to the report layer, which this layer may not use"
/* The comparison d of runs file_a and file_b (paths as given), leaving
 * out the rows its threshold hid (threshold_pct: the one it was computed
 * with, named in the table). */
int sv_report_diff(FILE *out, const struct sv_diff *d, const char *file_a,
	const char *file_b, double threshold_pct, enum sv_report_format fmt);

/* The CI gate: one line "<prefix>regression: NAME: ..." for each row of d
 * that regressed by more than above_pct (sv_diff_row_regressed; hidden
 * rows too) when fail_above, and "<prefix>new region: NAME ..." for each
 * region only in B when fail_on_new.  Returns the number of lines. */
size_t sv_report_diff_gate(FILE *out, const struct sv_diff *d,
	const char *prefix, bool fail_above, double above_pct,
	bool fail_on_new);

#endif

#include <stdio.h>

#include "scopeview/csv.h"
#include "scopeview/diff.h"
#include "scopeview/histogram.h"
#include "scopeview/json.h"
#include "scopeview/profile.h"
#include "scopeview/ranks.h"
#include "scopeview/scaling.h"
#include "scopeview/stats.h"
#include "scopeview/trend.h"

enum sv_report_format {
	SV_REPORT_TABLE,
	SV_REPORT_CSV,
	SV_REPORT_JSON,
};

/* A report's output in one format: sv_report_open sets up the JSON (j)
 * or CSV (c) writer over a buffered stream of out, or nothing for a
 * table (written to file directly); sv_report_close flushes the writer
 * and the FILE and returns 0, or -EIO when a write failed (now or
 * before: ferror). */
struct sv_report_out {
	enum sv_report_format fmt;
	FILE *file;
	struct sv_outbuf b;
	struct sv_json j;
	struct sv_csv c;
};
void sv_report_open(
	struct sv_report_out *o, FILE *out, enum sv_report_format fmt);
int sv_report_close(struct sv_report_out *o);

/* The matrix m of profile p; file is the path as given (NULL: p->path). */
int sv_report_ranks(FILE *out, const struct sv_profile *p,
	const struct sv_ranks *m, const char *file, enum sv_report_format fmt);

/* calls[0..n) of p, in that order, as calls of region (the name shown):
 * sv_report_call_list over sv_report_call_list_of(p, calls, n). */
int sv_report_calls(FILE *out, const struct sv_profile *p,
	const uint32_t *calls, size_t n, const char *region, const char *file,
	enum sv_report_format fmt);

/* One call of a list as `scopeview calls` prints it, detached from the
 * profile that holds it (scopeview-mpi's lists are gathered from the
 * processes of a job). */
struct sv_report_call {
	uint32_t rank;
	const char *lane;                      /* its label, "" without lanes */
	int64_t start_ns, end_ns, duration_ns; /* as stored */
	int64_t exclusive_ns, gpu_ns, await_ns; /* when the list has them */
	const char *meta;    /* callmeta.h's text of its metadata, or NULL */
	const int64_t *colv; /* the list's columns' values, a double's bits
				for a float column */
};

/* n calls to print, call i told by get() into c, whose colv points at
 * colbuf (room for ncolumns values) or into the list.  The flags say
 * which optional columns the profile has (sv_profile_has_*); has_meta
 * that it holds event metadata (the metadata is then an object, even
 * {}, else null without columns). */
struct sv_report_call_list {
	size_t n;
	int64_t origin_ns; /* the run's start, the table's zero */
	bool has_exclusive, has_gpu, has_await, has_meta;
	const struct sv_column *columns; /* names and kinds only */
	size_t ncolumns;
	void (*get)(const struct sv_report_call_list *l, size_t i,
		struct sv_report_call *c, int64_t *colbuf);
	const struct sv_profile *p; /* sv_report_call_list_of's */
	const uint32_t *calls;
	const void *ctx; /* another get's */
	/* Frees what the list's maker made for it (NULL: nothing); the
	 * caller calls it when done. */
	void (*fini)(struct sv_report_call_list *l);
	void *own;
};

/* The list of calls[0..n) of p (borrowed, in that order). */
void sv_report_call_list_of(struct sv_report_call_list *l,
	const struct sv_profile *p, const uint32_t *calls, size_t n);
/* The list l as calls of region (the name shown) of file. */
int sv_report_call_list(FILE *out, const struct sv_report_call_list *l,
	const char *region, const char *file, enum sv_report_format fmt);
/* Call c's metadata as sv_report_call_metadata writes it, from l. */
void sv_report_call_list_metadata(struct sv_json *j,
	const struct sv_report_call_list *l, const struct sv_report_call *c);

/* Call c's metadata as one JSON value written by j: an inline object of
 * its event metadata's members (callmeta.h, values as stored but NaN and
 * infinities as null, which JSON cannot say) and then the file's extra
 * per-call /events columns; null when the file has neither, {} for a
 * call without any.  The exports and `scopeview calls` share it. */
void sv_report_call_metadata(
	struct sv_json *j, const struct sv_profile *p, uint32_t c);

/* Histogram h of region; g (may be NULL) gives mean and percentiles. */
int sv_report_histogram(FILE *out, const struct sv_hist *h,
	const struct sv_stats_region *g, const char *region, const char *file,
	enum sv_report_format fmt);

/* The comparison d of runs file_a and file_b (paths as given), leaving
 * out the rows its threshold hid (threshold_pct: the one it was computed
 * with, named in the table). */
int sv_report_diff(FILE *out, const struct sv_diff *d, const char *file_a,
	const char *file_b, double threshold_pct, enum sv_report_format fmt);

/* The CI gate: one line "<prefix>regression: NAME: ..." for each row of d
 * that regressed by more than above_pct (sv_diff_row_regressed; hidden
 * rows too) when fail_above, and "<prefix>new region: NAME ..." for each
 * region only in B when fail_on_new.  Returns the number of lines. */
size_t sv_report_diff_gate(FILE *out, const struct sv_diff *d,
	const char *prefix, bool fail_above, double above_pct,
	bool fail_on_new);

/* The scaling study s.  CSV: region,x,runs,mean_duration,speedup,
 * efficiency,normalized_runtime,weak_efficiency (one row a point, seconds
 * as in JSON).  The table lists the runs, then each region's points. */
int sv_report_scaling(
	FILE *out, const struct sv_scaling *s, enum sv_report_format fmt);

/* The trend t of a region of p; file is the path as given (NULL:
 * p->path), named in the table only.  CSV: one row a record, kind
 * "point" (index, count, min_ns, median_ns, max_ns, rank = max_rank) or
 * "change" (index, rank, before_ns, after_ns), the points first; header
 * kind,index,count,min_ns,median_ns,max_ns,rank,before_ns,after_ns.  The
 * table: the figures, the change points, then one row an iteration. */
int sv_report_trend(FILE *out, const struct sv_profile *p,
	const struct sv_trend *t, const char *file, enum sv_report_format fmt);

#endif
