/*
 * calls.c: `scopeview calls` output, a call list or a histogram of one
 * region (see report.h).  Formats only: the list's order is the caller's
 * (calls.h), the bins histogram.h's, the percentiles stats.h's.
 */
#include "scopeview/report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/callmeta.h"
#include "scopeview/common.h"
#include "scopeview/fmt.h"
#include "scopeview/summary.h"

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

static void calls_opt(FILE *out, struct calls_opt o)
{
	if (o.has)
		fprintf(out, "%" PRId64, o.v);
	else
		fputs("null", out);
}

/* A compact JSON value (callmeta.h) as strict JSON: Python's bare NaN,
 * Infinity and -Infinity, which JSON has no words for, become null (as
 * sv_summary_number writes them); anything else is copied. */
static void calls_json_value(FILE *out, const char *v, size_t n)
{
	size_t i = 0, from = 0;

	while (i < n) {
		if (v[i] == '"') {
			for (i++; i < n && v[i] != '"'; i++)
				if (v[i] == '\\')
					i++;
			i++;
		} else if (v[i] == 'N' || v[i] == 'I' ||
			   (v[i] == '-' && i + 1 < n && v[i + 1] == 'I')) {
			size_t end = i + (v[i] == 'N'          ? 3
						 : v[i] == '-' ? 9
							       : 8);
			fwrite(v + from, 1, i - from, out);
			fputs("null", out);
			i = from = end < n ? end : n;
		} else {
			i++;
		}
	}
	fwrite(v + from, 1, n - from, out);
}

void sv_report_call_metadata(FILE *out, const struct sv_profile *p, uint32_t c)
{
	const char *meta = p->call_meta ? sv_callmeta_of(p, c) : NULL;
	char buf[64];
	size_t k;
	bool any = false;

	if (!p->ncolumns && !p->call_meta) {
		fputs("null", out);
		return;
	}
	fputc('{', out);
	if (meta) {
		const char *cur = meta;
		struct sv_callmeta_kv kv;
		while (sv_callmeta_next(&cur, &kv)) {
			fprintf(out, "%s%.*s: ", any ? ", " : "",
				(int)kv.key_len, kv.key);
			calls_json_value(out, kv.val, kv.val_len);
			any = true;
		}
	}
	for (k = 0; k < p->ncolumns; k++) {
		const struct sv_column *col = &p->columns[k];
		if (any)
			fputs(", ", out);
		any = true;
		sv_summary_json_str(out, col->name);
		fputs(": ", out);
		if (col->is_float)
			fputs(sv_summary_number(buf, sizeof buf, col->f[c]),
				out);
		else
			fprintf(out, "%" PRId64, col->i[c]);
	}
	fputc('}', out);
}

static void calls_json(FILE *out, const struct sv_profile *p,
	const uint32_t *calls, size_t n, const char *region, const char *file)
{
	size_t i;

	fputs("{\n  \"file\": ", out);
	sv_summary_json_str(out, file);
	fputs(",\n  \"region\": ", out);
	sv_summary_json_str(out, region);
	fputs(",\n  \"calls\": [", out);
	for (i = 0; i < n; i++) {
		uint32_t c = calls[i];
		fprintf(out, "%s\n    {\"rank\": %" PRIu32 ", \"lane\": ",
			i ? "," : "", sv_call_rank(p, c));
		sv_summary_json_str(out, calls_lane(p, c));
		fprintf(out,
			", \"start_ns\": %" PRId64 ", \"end_ns\": %" PRId64
			", \"duration_ns\": %" PRId64 ", \"exclusive_ns\": ",
			sv_profile_start(p, c), sv_profile_end(p, c),
			sv_call_duration(p, c));
		calls_opt(out, calls_excl(p, c));
		fputs(", \"gpu_ns\": ", out);
		calls_opt(out, calls_gpu(p, c));
		fputs(", \"await_ns\": ", out);
		calls_opt(out, calls_await(p, c));
		fputs(", \"metadata\": ", out);
		sv_report_call_metadata(out, p, c);
		fputc('}', out);
	}
	fputs(n ? "\n  ]\n}\n" : "]\n}\n", out);
}

static void calls_csv_opt(FILE *out, struct calls_opt o)
{
	fputc(',', out);
	if (o.has)
		fprintf(out, "%" PRId64, o.v);
}

static void calls_csv(
	FILE *out, const struct sv_profile *p, const uint32_t *calls, size_t n)
{
	char buf[64];
	size_t i, k;

	fputs("rank,lane,start_ns,end_ns,duration_ns,exclusive_ns,gpu_ns,"
	      "await_ns",
		out);
	for (k = 0; k < p->ncolumns; k++) {
		fputc(',', out);
		sv_summary_csv_field(out, p->columns[k].name);
	}
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		uint32_t c = calls[i];
		fprintf(out, "%" PRIu32 ",", sv_call_rank(p, c));
		sv_summary_csv_field(out, calls_lane(p, c));
		fprintf(out, ",%" PRId64 ",%" PRId64 ",%" PRId64,
			sv_profile_start(p, c), sv_profile_end(p, c),
			sv_call_duration(p, c));
		calls_csv_opt(out, calls_excl(p, c));
		calls_csv_opt(out, calls_gpu(p, c));
		calls_csv_opt(out, calls_await(p, c));
		for (k = 0; k < p->ncolumns; k++) {
			const struct sv_column *col = &p->columns[k];
			if (col->is_float)
				fprintf(out, ",%s",
					sv_summary_number(
						buf, sizeof buf, col->f[c]));
			else
				fprintf(out, ",%" PRId64, col->i[c]);
		}
		fputc('\n', out);
	}
}

static const char *calls_dur(struct calls_opt o, char *buf, size_t n)
{
	if (!o.has || o.v < 0)
		return "-";
	return sv_fmt_dur(o.v, buf, n);
}

static void calls_table(FILE *out, const struct sv_profile *p,
	const uint32_t *calls, size_t n, const char *region, const char *file)
{
	char *sf = sv_utf8_terminal_safe(file, NULL);
	char *sr = sv_utf8_terminal_safe(region, NULL);
	int64_t origin = sv_profile_time_origin(p);
	char a[32], b[32], d[32], e[32], g[32];
	size_t i;

	fprintf(out, "%s: %zu calls of %s\n\n", sf, n, sr);
	free(sf);
	free(sr);
	fprintf(out, "%5s  %-20s %12s %10s %10s %10s %10s\n", "rank", "lane",
		"start", "duration", "exclusive", "gpu", "await");
	for (i = 0; i < n; i++) {
		uint32_t c = calls[i];
		char *lane = sv_utf8_terminal_safe(calls_lane(p, c), NULL);
		fprintf(out,
			"%5" PRIu32 "  %-20.20s %12s %10s %10s %10s %10s\n",
			sv_call_rank(p, c), lane,
			sv_fmt_dur(sv_sub_wrap(sv_profile_start(p, c), origin),
				a, sizeof a),
			sv_fmt_dur(sv_call_duration(p, c), b, sizeof b),
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
	if (!out || !p || (n && !calls))
		return -EINVAL;
	if (!file)
		file = p->path;
	switch (fmt) {
	case SV_REPORT_JSON:
		calls_json(out, p, calls, n, region, file);
		break;
	case SV_REPORT_CSV:
		calls_csv(out, p, calls, n);
		break;
	default:
		calls_table(out, p, calls, n, region, file);
		break;
	}
	return ferror(out) ? -EIO : 0;
}

/* ---- histogram -------------------------------------------------------------- */

static void calls_hist_fig(FILE *out, const char *name, bool has, double v)
{
	char buf[64];
	fprintf(out, ",\n  \"%s\": %s", name,
		has ? sv_summary_number(buf, sizeof buf, v) : "null");
}

int sv_report_histogram(FILE *out, const struct sv_hist *h,
	const struct sv_stats_region *g, const char *region, const char *file,
	enum sv_report_format fmt)
{
	char buf[64], lo[32], hi[32];
	bool dist = g && g->s.has_dist, pct = g && g->s.has_percentiles;
	size_t i;

	if (!out || !h)
		return -EINVAL;
	if (fmt == SV_REPORT_JSON) {
		fputs("{\n  \"file\": ", out);
		sv_summary_json_str(out, file);
		fputs(",\n  \"region\": ", out);
		sv_summary_json_str(out, region);
		fprintf(out,
			",\n  \"num_calls\": %" PRIu64
			",\n  \"nonpositive\": %" PRIu64 ",\n  \"edges_ns\": [",
			h->ncalls, h->nzero);
		for (i = 0; h->nbins && i <= h->nbins; i++)
			fprintf(out, "%s%s", i ? ", " : "",
				sv_summary_number(
					buf, sizeof buf, h->edges[i]));
		fputs("],\n  \"counts\": [", out);
		for (i = 0; i < h->nbins; i++)
			fprintf(out, "%s%" PRIu64, i ? ", " : "", h->counts[i]);
		fputc(']', out);
		calls_hist_fig(out, "mean_ns", dist, dist ? g->s.mean_ns : 0);
		calls_hist_fig(out, "p50_ns", pct, pct ? g->s.p50_ns : 0);
		calls_hist_fig(out, "p95_ns", pct, pct ? g->s.p95_ns : 0);
		calls_hist_fig(out, "p99_ns", pct, pct ? g->s.p99_ns : 0);
		fputs("\n}\n", out);
	} else if (fmt == SV_REPORT_CSV) {
		fputs("bin,lo_ns,hi_ns,count\n", out);
		for (i = 0; i < h->nbins; i++) {
			fprintf(out, "%zu,%s,", i,
				sv_summary_number(
					buf, sizeof buf, h->edges[i]));
			fprintf(out, "%s,%" PRIu64 "\n",
				sv_summary_number(
					buf, sizeof buf, h->edges[i + 1]),
				h->counts[i]);
		}
	} else {
		for (i = 0; i < h->nbins; i++)
			fprintf(out, "%10s .. %10s %12" PRIu64 "\n",
				sv_fmt_dur_ex(h->edges[i], 3, 0, lo, sizeof lo),
				sv_fmt_dur_ex(
					h->edges[i + 1], 3, 0, hi, sizeof hi),
				h->counts[i]);
		if (h->nzero)
			fprintf(out, "%24s %12" PRIu64 "\n", "<= 0 ns",
				h->nzero);
	}
	return ferror(out) ? -EIO : 0;
}
