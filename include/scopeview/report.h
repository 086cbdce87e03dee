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
 *     null where A is 0.
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

#include "scopeview/diff.h"
#include "scopeview/histogram.h"
#include "scopeview/json.h"
#include "scopeview/profile.h"
#include "scopeview/ranks.h"
#include "scopeview/stats.h"

enum sv_report_format {
	SV_REPORT_TABLE,
	SV_REPORT_CSV,
	SV_REPORT_JSON,
};

/* The matrix m of profile p; file is the path as given (NULL: p->path). */
int sv_report_ranks(FILE *out, const struct sv_profile *p,
	const struct sv_ranks *m, const char *file, enum sv_report_format fmt);

/* calls[0..n) of p, in that order, as calls of region (the name shown). */
int sv_report_calls(FILE *out, const struct sv_profile *p,
	const uint32_t *calls, size_t n, const char *region, const char *file,
	enum sv_report_format fmt);

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

#endif
