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

/* ---- a list of calls, detached ------------------------------------------- */

/* Column col's value of call c, a double's bits for a float column. */
static int64_t calls_column_bits(const struct sv_column *col, uint32_t c)
{
	int64_t v;

	if (!col->is_float)
		return col->i[c];
	memcpy(&v, &col->f[c], sizeof v);
	return v;
}

static void calls_get_profile(const struct sv_report_call_list *l, size_t i,
	struct sv_report_call *r, int64_t *colbuf)
{
	const struct sv_profile *p = l->p;
	uint32_t c = l->calls[i];
	size_t k;

	r->rank = sv_call_rank(p, c);
	r->lane = sv_profile_has_lanes(p) && p->lanes
			  ? p->lanes[sv_call_lane(p, c)].label
			  : "";
	r->start_ns = sv_profile_start(p, c);
	r->end_ns = sv_profile_end(p, c);
	r->duration_ns = sv_call_duration(p, c);
	r->exclusive_ns = l->has_exclusive ? sv_profile_exclusive(p, c) : 0;
	r->gpu_ns = sv_profile_gpu(p, c);
	r->await_ns = l->has_await ? sv_profile_await(p, c) : 0;
	r->meta = p->call_meta ? sv_callmeta_of(p, c) : NULL;
	for (k = 0; k < l->ncolumns; k++)
		colbuf[k] = calls_column_bits(&p->columns[k], c);
	r->colv = colbuf;
}

void sv_report_call_list_of(struct sv_report_call_list *l,
	const struct sv_profile *p, const uint32_t *calls, size_t n)
{
	memset(l, 0, sizeof *l);
	l->n = n;
	l->origin_ns = sv_profile_time_origin(p);
	l->has_exclusive = sv_profile_has_exclusive(p);
	l->has_gpu = sv_profile_has_gpu(p);
	l->has_await = sv_profile_has_await(p);
	l->has_meta = p->call_meta != NULL;
	l->columns = p->columns;
	l->ncolumns = p->ncolumns;
	l->get = calls_get_profile;
	l->p = p;
	l->calls = calls;
}

void sv_report_call_list_metadata(struct sv_json *j,
	const struct sv_report_call_list *l, const struct sv_report_call *c)
{
	size_t k;

	if (!l->ncolumns && !l->has_meta) {
		sv_json_null(j);
		return;
	}
	sv_json_object(j, SV_JSON_INLINE);
	if (c->meta) {
		const char *cur = c->meta;
		struct sv_callmeta_kv kv;
		while (sv_callmeta_next(&cur, &kv)) {
			sv_json_raw_key(j, kv.key, kv.key_len);
			sv_json_python(j, kv.val, kv.val_len);
		}
	}
	for (k = 0; k < l->ncolumns; k++) {
		sv_json_key(j, l->columns[k].name);
		if (l->columns[k].is_float) {
			double f;
			memcpy(&f, &c->colv[k], sizeof f);
			sv_json_double(j, f);
		} else {
			sv_json_i64(j, c->colv[k]);
		}
	}
	sv_json_end(j);
}

void sv_report_call_metadata(
	struct sv_json *j, const struct sv_profile *p, uint32_t c)
{
	struct sv_report_call_list l;
	struct sv_report_call r;
	int64_t small[16], *colbuf = small;
	size_t k;

	if (p->ncolumns > sizeof small / sizeof small[0])
		colbuf = sv_xmalloc(p->ncolumns * sizeof *colbuf);
	memset(&l, 0, sizeof l);
	memset(&r, 0, sizeof r);
	l.has_meta = p->call_meta != NULL;
	l.columns = p->columns;
	l.ncolumns = p->ncolumns;
	r.meta = p->call_meta ? sv_callmeta_of(p, c) : NULL;
	for (k = 0; k < p->ncolumns; k++)
		colbuf[k] = calls_column_bits(&p->columns[k], c);
	r.colv = colbuf;
	sv_report_call_list_metadata(j, &l, &r);
	if (colbuf != small)
		free(colbuf);
}

/* An optional per-call value: present (has) or not. */
struct calls_opt {
	bool has;
	int64_t v;
};

static struct calls_opt calls_opt(bool has, int64_t v)
{
	return (struct calls_opt){has, v};
}

static void calls_json(struct sv_json *j, const struct sv_report_call_list *l,
	const char *region, const char *file, int64_t *colbuf)
{
	struct sv_report_call c;
	size_t i;

	sv_json_object(j, SV_JSON_PRETTY);
	sv_json_key(j, "file");
	sv_json_string(j, file);
	sv_json_key(j, "region");
	sv_json_string(j, region);
	sv_json_key(j, "calls");
	sv_json_array(j, SV_JSON_PRETTY);
	for (i = 0; i < l->n; i++) {
		l->get(l, i, &c, colbuf);
		sv_json_object(j, SV_JSON_INLINE);
		sv_json_key(j, "rank");
		sv_json_u64(j, c.rank);
		sv_json_key(j, "lane");
		sv_json_string(j, c.lane);
		sv_json_key(j, "start_ns");
		sv_json_i64(j, c.start_ns);
		sv_json_key(j, "end_ns");
		sv_json_i64(j, c.end_ns);
		sv_json_key(j, "duration_ns");
		sv_json_i64(j, c.duration_ns);
		sv_json_opt_i64(
			j, "exclusive_ns", l->has_exclusive, c.exclusive_ns);
		sv_json_opt_i64(j, "gpu_ns", l->has_gpu, c.gpu_ns);
		sv_json_opt_i64(j, "await_ns", l->has_await, c.await_ns);
		sv_json_key(j, "metadata");
		sv_report_call_list_metadata(j, l, &c);
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

static void calls_csv(
	struct sv_csv *c, const struct sv_report_call_list *l, int64_t *colbuf)
{
	struct sv_report_call x;
	size_t i, k;

	sv_csv_field(c, "rank");
	sv_csv_field(c, "lane");
	sv_csv_field(c, "start_ns");
	sv_csv_field(c, "end_ns");
	sv_csv_field(c, "duration_ns");
	sv_csv_field(c, "exclusive_ns");
	sv_csv_field(c, "gpu_ns");
	sv_csv_field(c, "await_ns");
	for (k = 0; k < l->ncolumns; k++)
		sv_csv_field(c, l->columns[k].name);
	sv_csv_end_row(c);
	for (i = 0; i < l->n; i++) {
		l->get(l, i, &x, colbuf);
		sv_csv_u64(c, x.rank);
		sv_csv_field(c, x.lane);
		sv_csv_i64(c, x.start_ns);
		sv_csv_i64(c, x.end_ns);
		sv_csv_i64(c, x.duration_ns);
		calls_csv_opt(c, calls_opt(l->has_exclusive, x.exclusive_ns));
		calls_csv_opt(c, calls_opt(l->has_gpu, x.gpu_ns));
		calls_csv_opt(c, calls_opt(l->has_await, x.await_ns));
		for (k = 0; k < l->ncolumns; k++) {
			if (l->columns[k].is_float) {
				double f;
				memcpy(&f, &x.colv[k], sizeof f);
				sv_csv_double(c, f);
			} else {
				sv_csv_i64(c, x.colv[k]);
			}
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

static void calls_table(FILE *out, const struct sv_report_call_list *l,
	const char *region, const char *file, int64_t *colbuf)
{
	char *sf = sv_utf8_terminal_safe(file, NULL);
	char *sr = sv_utf8_terminal_safe(region, NULL);
	char a[32], b[32], d[32], e[32], g[32];
	struct sv_report_call c;
	size_t i;

	fprintf(out,
		"%s: %zu calls of %s (exact ns; start from the run's start)"
		"\n\n",
		sf, l->n, sr);
	free(sf);
	free(sr);
	fprintf(out, "%5s  %-20s %15s %13s %13s %13s %13s\n", "rank", "lane",
		"start", "duration", "exclusive", "gpu", "await");
	for (i = 0; i < l->n; i++) {
		char *lane;
		l->get(l, i, &c, colbuf);
		lane = sv_utf8_terminal_safe(c.lane, NULL);
		fprintf(out,
			"%5" PRIu32 "  %-20.20s %15s %13s %13s %13s %13s\n",
			c.rank, lane,
			sv_fmt_ns_grouped(sv_sub_wrap(c.start_ns, l->origin_ns),
				a, sizeof a),
			sv_fmt_ns_grouped(c.duration_ns, b, sizeof b),
			calls_dur(calls_opt(l->has_exclusive, c.exclusive_ns),
				d, sizeof d),
			calls_dur(calls_opt(l->has_gpu, c.gpu_ns), e, sizeof e),
			calls_dur(calls_opt(l->has_await, c.await_ns), g,
				sizeof g));
		free(lane);
	}
}

int sv_report_call_list(FILE *out, const struct sv_report_call_list *l,
	const char *region, const char *file, enum sv_report_format fmt)
{
	struct sv_report_out o;
	int64_t *colbuf;

	if (!out || !l || !file)
		return -EINVAL;
	colbuf = sv_xmalloc((l->ncolumns + 1) * sizeof *colbuf);
	sv_report_open(&o, out, fmt);
	if (fmt == SV_REPORT_JSON)
		calls_json(&o.j, l, region, file, colbuf);
	else if (fmt == SV_REPORT_CSV)
		calls_csv(&o.c, l, colbuf);
	else
		calls_table(out, l, region, file, colbuf);
	free(colbuf);
	return sv_report_close(&o);
}

int sv_report_calls(FILE *out, const struct sv_profile *p,
	const uint32_t *calls, size_t n, const char *region, const char *file,
	enum sv_report_format fmt)
{
	struct sv_report_call_list l;

	if (!out || !p || (n && !calls))
		return -EINVAL;
	sv_report_call_list_of(&l, p, calls, n);
	return sv_report_call_list(out, &l, region, file ? file : p->path, fmt);
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
