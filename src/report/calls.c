/*
 * calls.c: `scopeview calls` output, a call list or a histogram of one
 * region (see report.h).  Formats only: the list's order is the caller's
 * (calls.h), the bins histogram.h's, the percentiles stats.h's; JSON and
 * CSV go through json.h and csv.h.
 */
#include "scopeview/report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/callmeta.h"
#include "scopeview/common.h"
#include "scopeview/csv.h"
#include "scopeview/fmt.h"
#include "scopeview/json.h"

static const char *calls_lane(const struct sv_profile *p, uint32_t c)
{
	if (!sv_profile_has_lanes(p) || !p->lanes)
		return "";
	return p->lanes[sv_call_lane(p, c)].label;
}

/* An optional per-call value: present (has) or not.  The exclusive
 * time is one, through calls_excl(). */
struct calls_opt {
	bool has;
	int64_t v;
};

static struct calls_opt calls_gpu(const struct sv_profile *p, uint32_t c)
{
	return (struct calls_opt){sv_profile_has_gpu(p), sv_profile_gpu(p, c)};
}

static struct calls_opt calls_await(const struct sv_profile *p, uint32_t c)
{
	return (struct calls_opt){
		sv_profile_has_await(p), sv_profile_await(p, c)};
}

static struct calls_opt calls_excl(const struct sv_profile *p, uint32_t c)
{
	return (struct calls_opt){sv_profile_has_exclusive(p),
		sv_profile_has_exclusive(p) ? sv_profile_exclusive(p, c) : 0};
}

void sv_report_call_metadata(
	struct sv_json *j, const struct sv_profile *p, uint32_t c)
{
	const char *meta = p->call_meta ? sv_callmeta_of(p, c) : NULL;
	size_t k;

	if (!p->ncolumns && !p->call_meta) {
		sv_json_null(j);
		return;
	}
	sv_json_object(j, SV_JSON_INLINE);
	if (meta) {
		const char *cur = meta;
		struct sv_callmeta_kv kv;
		while (sv_callmeta_next(&cur, &kv)) {
			sv_json_raw_key(j, kv.key, kv.key_len);
			sv_json_python(j, kv.val, kv.val_len);
		}
	}
	for (k = 0; k < p->ncolumns; k++) {
		const struct sv_column *col = &p->columns[k];
		sv_json_key(j, col->name);
		if (col->is_float)
			sv_json_double(j, col->f[c]);
		else
			sv_json_i64(j, col->i[c]);
	}
	sv_json_end(j);
}

static void calls_json(struct sv_json *j, const struct sv_profile *p,
	const uint32_t *calls, size_t n, const char *region, const char *file)
{
	size_t i;

	sv_json_object(j, SV_JSON_PRETTY);
	sv_json_key(j, "file");
	sv_json_string(j, file);
	sv_json_key(j, "region");
	sv_json_string(j, region);
	sv_json_key(j, "calls");
	sv_json_array(j, SV_JSON_PRETTY);
	for (i = 0; i < n; i++) {
		uint32_t c = calls[i];
		struct calls_opt o;
		sv_json_object(j, SV_JSON_INLINE);
		sv_json_key(j, "rank");
		sv_json_u64(j, sv_call_rank(p, c));
		sv_json_key(j, "lane");
		sv_json_string(j, calls_lane(p, c));
		sv_json_key(j, "start_ns");
		sv_json_i64(j, sv_profile_start(p, c));
		sv_json_key(j, "end_ns");
		sv_json_i64(j, sv_profile_end(p, c));
		sv_json_key(j, "duration_ns");
		sv_json_i64(j, sv_call_duration(p, c));
		o = calls_excl(p, c);
		sv_json_opt_i64(j, "exclusive_ns", o.has, o.v);
		o = calls_gpu(p, c);
		sv_json_opt_i64(j, "gpu_ns", o.has, o.v);
		o = calls_await(p, c);
		sv_json_opt_i64(j, "await_ns", o.has, o.v);
		sv_json_key(j, "metadata");
		sv_report_call_metadata(j, p, c);
		sv_json_end(j);
	}
	sv_json_end(j);
	sv_json_end(j);
	sv_json_finish(j);
}

static void calls_csv_opt(struct sv_csv *c, struct calls_opt o)
{
	if (o.has)
		sv_csv_i64(c, o.v);
	else
		sv_csv_empty(c);
}

static void calls_csv(struct sv_csv *c, const struct sv_profile *p,
	const uint32_t *calls, size_t n)
{
	size_t i, k;

	sv_csv_field(c, "rank");
	sv_csv_field(c, "lane");
	sv_csv_field(c, "start_ns");
	sv_csv_field(c, "end_ns");
	sv_csv_field(c, "duration_ns");
	sv_csv_field(c, "exclusive_ns");
	sv_csv_field(c, "gpu_ns");
	sv_csv_field(c, "await_ns");
	for (k = 0; k < p->ncolumns; k++)
		sv_csv_field(c, p->columns[k].name);
	sv_csv_end_row(c);
	for (i = 0; i < n; i++) {
		uint32_t x = calls[i];
		sv_csv_u64(c, sv_call_rank(p, x));
		sv_csv_field(c, calls_lane(p, x));
		sv_csv_i64(c, sv_profile_start(p, x));
		sv_csv_i64(c, sv_profile_end(p, x));
		sv_csv_i64(c, sv_call_duration(p, x));
		calls_csv_opt(c, calls_excl(p, x));
		calls_csv_opt(c, calls_gpu(p, x));
		calls_csv_opt(c, calls_await(p, x));
		for (k = 0; k < p->ncolumns; k++) {
			const struct sv_column *col = &p->columns[k];
			if (col->is_float)
				sv_csv_double(c, col->f[x]);
			else
				sv_csv_i64(c, col->i[x]);
		}
		sv_csv_end_row(c);
	}
}

static const char *calls_dur(struct calls_opt o, char *buf, size_t n)
{
	if (!o.has || o.v < 0)
		return "-";
	return sv_fmt_ns_grouped(o.v, buf, n);
}

static void calls_table(FILE *out, const struct sv_profile *p,
	const uint32_t *calls, size_t n, const char *region, const char *file)
{
	char *sf = sv_utf8_terminal_safe(file, NULL);
	char *sr = sv_utf8_terminal_safe(region, NULL);
	int64_t origin = sv_profile_time_origin(p);
	char a[32], b[32], d[32], e[32], g[32];
	size_t i;

	fprintf(out,
		"%s: %zu calls of %s (exact ns; start from the run's start)"
		"\n\n",
		sf, n, sr);
	free(sf);
	free(sr);
	fprintf(out, "%5s  %-20s %15s %13s %13s %13s %13s\n", "rank", "lane",
		"start", "duration", "exclusive", "gpu", "await");
	for (i = 0; i < n; i++) {
		uint32_t c = calls[i];
		char *lane = sv_utf8_terminal_safe(calls_lane(p, c), NULL);
		fprintf(out,
			"%5" PRIu32 "  %-20.20s %15s %13s %13s %13s %13s\n",
			sv_call_rank(p, c), lane,
			sv_fmt_ns_grouped(
				sv_sub_wrap(sv_profile_start(p, c), origin), a,
				sizeof a),
			sv_fmt_ns_grouped(sv_call_duration(p, c), b, sizeof b),
			calls_dur(calls_excl(p, c), d, sizeof d),
			calls_dur(calls_gpu(p, c), e, sizeof e),
			calls_dur(calls_await(p, c), g, sizeof g));
		free(lane);
	}
}

int sv_report_calls(FILE *out, const struct sv_profile *p,
	const uint32_t *calls, size_t n, const char *region, const char *file,
	enum sv_report_format fmt)
{
	struct sv_report_out o;

	if (!out || !p || (n && !calls))
		return -EINVAL;
	if (!file)
		file = p->path;
	sv_report_open(&o, out, fmt);
	if (fmt == SV_REPORT_JSON)
		calls_json(&o.j, p, calls, n, region, file);
	else if (fmt == SV_REPORT_CSV)
		calls_csv(&o.c, p, calls, n);
	else
		calls_table(out, p, calls, n, region, file);
	return sv_report_close(&o);
}

/* ---- histogram -------------------------------------------------------------- */

static void calls_hist_json(struct sv_json *j, const struct sv_hist *h,
	const struct sv_stats_region *g, const char *region, const char *file)
{
	bool dist = g && g->s.has_dist, pct = g && g->s.has_percentiles;
	size_t i;

	sv_json_object(j, SV_JSON_PRETTY);
	sv_json_key(j, "file");
	sv_json_string(j, file);
	sv_json_key(j, "region");
	sv_json_string(j, region);
	sv_json_key(j, "num_calls");
	sv_json_u64(j, h->ncalls);
	sv_json_key(j, "nonpositive");
	sv_json_u64(j, h->nzero);
	sv_json_key(j, "edges_ns");
	sv_json_array(j, SV_JSON_INLINE);
	for (i = 0; h->nbins && i <= h->nbins; i++)
		sv_json_double(j, h->edges[i]);
	sv_json_end(j);
	sv_json_key(j, "counts");
	sv_json_array(j, SV_JSON_INLINE);
	for (i = 0; i < h->nbins; i++)
		sv_json_u64(j, h->counts[i]);
	sv_json_end(j);
	sv_json_opt_double(j, "mean_ns", dist, dist ? g->s.mean_ns : 0);
	sv_json_opt_double(j, "p50_ns", pct, pct ? g->s.p50_ns : 0);
	sv_json_opt_double(j, "p95_ns", pct, pct ? g->s.p95_ns : 0);
	sv_json_opt_double(j, "p99_ns", pct, pct ? g->s.p99_ns : 0);
	sv_json_end(j);
	sv_json_finish(j);
}

static void calls_hist_csv(struct sv_csv *c, const struct sv_hist *h)
{
	size_t i;

	sv_csv_header(c, "bin,lo_ns,hi_ns,count");
	for (i = 0; i < h->nbins; i++) {
		sv_csv_u64(c, i);
		sv_csv_double(c, h->edges[i]);
		sv_csv_double(c, h->edges[i + 1]);
		sv_csv_u64(c, h->counts[i]);
		sv_csv_end_row(c);
	}
}

/* The bar of a bin: CALLS_HIST_BAR '#' for the fullest. */
#define CALLS_HIST_BAR 30

static void calls_hist_table(FILE *out, const struct sv_hist *h,
	const struct sv_stats_region *g, const char *region, const char *file)
{
	char *sf = sv_utf8_terminal_safe(file, NULL);
	char *sr = sv_utf8_terminal_safe(region, NULL);
	int sig = sv_hist_edge_digits(h, 0);
	uint64_t most = 0;
	char lo[64], hi[64], a[32], b[32], c[32], d[32];
	size_t i;

	for (i = 0; i < h->nbins; i++)
		most = h->counts[i] > most ? h->counts[i] : most;
	fprintf(out,
		"%s: %" PRIu64 " calls of %s, durations in %zu "
		"log-spaced bins\n\n",
		sf, h->ncalls, sr, h->nbins);
	free(sf);
	free(sr);
	fprintf(out, "%12s    %12s %10s %7s\n", "from", "to", "calls", "share");
	for (i = 0; i < h->nbins; i++) {
		int w = most ? (int)((h->counts[i] * CALLS_HIST_BAR + most -
					     1) /
				       most)
			     : 0;
		fprintf(out, "%12s .. %12s %10" PRIu64 " %6.1f%%  %.*s\n",
			sv_hist_edge_label(h, i, sig, 0, lo, sizeof lo),
			sv_hist_edge_label(h, i + 1, sig, 0, hi, sizeof hi),
			h->counts[i],
			h->ncalls ? 100.0 * (double)h->counts[i] /
					    (double)h->ncalls
				  : 0.0,
			w, "##############################");
	}
	if (h->nzero)
		fprintf(out, "%12s    %12s %10" PRIu64 " %6.1f%%\n", "<= 0 ns",
			"", h->nzero,
			h->ncalls ? 100.0 * (double)h->nzero / (double)h->ncalls
				  : 0.0);
	if (g && g->s.has_dist && g->s.has_percentiles)
		fprintf(out, "\nmean %s   p50 %s   p95 %s   p99 %s\n",
			sv_fmt_dur_ex(g->s.mean_ns, 3, 0, a, sizeof a),
			sv_fmt_dur_ex(g->s.p50_ns, 3, 0, b, sizeof b),
			sv_fmt_dur_ex(g->s.p95_ns, 3, 0, c, sizeof c),
			sv_fmt_dur_ex(g->s.p99_ns, 3, 0, d, sizeof d));
}

int sv_report_histogram(FILE *out, const struct sv_hist *h,
	const struct sv_stats_region *g, const char *region, const char *file,
	enum sv_report_format fmt)
{
	struct sv_report_out o;

	if (!out || !h)
		return -EINVAL;
	sv_report_open(&o, out, fmt);
	if (fmt == SV_REPORT_JSON) {
		calls_hist_json(&o.j, h, g, region, file);
	} else if (fmt == SV_REPORT_CSV) {
		calls_hist_csv(&o.c, h);
	} else {
		calls_hist_table(out, h, g, region, file);
	}
	return sv_report_close(&o);
}
