/*
 * trend.c: `scopeview trend` output (see report.h): one region iteration
 * by iteration, as a table for people, CSV or JSON.  Formats only: every
 * figure comes from struct sv_trend (trend.h).  JSON and CSV go through
 * json.h and csv.h; times are nanoseconds (a median or a mean a double of
 * them).
 */
#include "scopeview/report.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "scopeview/common.h"
#include "scopeview/csv.h"
#include "scopeview/fmt.h"
#include "scopeview/json.h"

static const char *trend_metric_name(enum sv_trend_metric m)
{
	return m == SV_TREND_EXCLUSIVE ? "exclusive" : "duration";
}

static void trend_json(
	struct sv_json *j, const struct sv_profile *p, const struct sv_trend *t)
{
	size_t k;

	sv_json_object(j, SV_JSON_PRETTY);
	sv_json_key(j, "region");
	sv_json_string(j, p->regions[t->region]);
	sv_json_key(j, "metric");
	sv_json_string(j, trend_metric_name(t->metric));
	sv_json_key(j, "ranks");
	sv_json_u64(j, t->nranks);
	sv_json_key(j, "points");
	sv_json_array(j, SV_JSON_PRETTY);
	for (k = 0; k < t->npoints; k++) {
		const struct sv_trend_point *pt = &t->points[k];
		sv_json_object(j, SV_JSON_INLINE);
		sv_json_key(j, "index");
		sv_json_u64(j, k);
		sv_json_key(j, "count");
		sv_json_u64(j, pt->count);
		sv_json_key(j, "min_ns");
		sv_json_i64(j, pt->min_ns);
		sv_json_key(j, "median_ns");
		sv_json_double(j, pt->median_ns);
		sv_json_key(j, "max_ns");
		sv_json_i64(j, pt->max_ns);
		sv_json_key(j, "max_rank");
		sv_json_u64(j, pt->max_rank);
		sv_json_end(j);
	}
	sv_json_end(j);
	sv_json_key(j, "change_points");
	sv_json_array(j, SV_JSON_PRETTY);
	for (k = 0; k < t->nchanges; k++) {
		const struct sv_trend_change *c = &t->changes[k];
		sv_json_object(j, SV_JSON_INLINE);
		sv_json_key(j, "index");
		sv_json_u64(j, c->index);
		sv_json_key(j, "rank");
		sv_json_u64(j, c->rank);
		sv_json_key(j, "before_ns");
		sv_json_double(j, c->before_ns);
		sv_json_key(j, "after_ns");
		sv_json_double(j, c->after_ns);
		sv_json_end(j);
	}
	sv_json_end(j);
	sv_json_key(j, "drift_pct_per_100");
	sv_json_double(j, t->drift_pct_per_100);
	sv_json_key(j, "jitter_pct");
	sv_json_double(j, t->jitter_pct);
	sv_json_end(j);
	sv_json_finish(j);
}

static void trend_csv(struct sv_csv *c, const struct sv_trend *t)
{
	size_t k;

	sv_csv_header(c, "kind,index,count,min_ns,median_ns,max_ns,rank,"
			 "before_ns,after_ns");
	for (k = 0; k < t->npoints; k++) {
		const struct sv_trend_point *pt = &t->points[k];
		sv_csv_field(c, "point");
		sv_csv_u64(c, k);
		sv_csv_u64(c, pt->count);
		sv_csv_i64(c, pt->min_ns);
		sv_csv_double(c, pt->median_ns);
		sv_csv_i64(c, pt->max_ns);
		sv_csv_u64(c, pt->max_rank);
		sv_csv_empty(c);
		sv_csv_empty(c);
		sv_csv_end_row(c);
	}
	for (k = 0; k < t->nchanges; k++) {
		const struct sv_trend_change *ch = &t->changes[k];
		sv_csv_field(c, "change");
		sv_csv_u64(c, ch->index);
		sv_csv_empty(c);
		sv_csv_empty(c);
		sv_csv_empty(c);
		sv_csv_empty(c);
		sv_csv_u64(c, ch->rank);
		sv_csv_double(c, ch->before_ns);
		sv_csv_double(c, ch->after_ns);
		sv_csv_end_row(c);
	}
}

/* A percentage with a sign and two decimals, or "-". */
static const char *trend_pct(double v, char *buf, size_t n)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, n, "%+.2f%%", v);
	return buf;
}

static void trend_table(FILE *out, const struct sv_profile *p,
	const struct sv_trend *t, const char *file)
{
	char *safe = sv_utf8_terminal_safe(file, NULL);
	char *name = sv_utf8_terminal_safe(p->regions[t->region], NULL);
	char a[32], b[32], c[32];
	size_t k;

	fprintf(out, "%s: %s (%s), %" PRIu32 " rank%s, %zu iteration%s\n", safe,
		name, trend_metric_name(t->metric), t->nranks,
		t->nranks == 1 ? "" : "s", t->npoints,
		t->npoints == 1 ? "" : "s");
	fprintf(out, "drift %s per 100 iterations, ",
		trend_pct(t->drift_pct_per_100, a, sizeof a));
	fprintf(out, "jitter %s\n\n",
		isfinite(t->jitter_pct)
			? (snprintf(b, sizeof b, "%.2f%%", t->jitter_pct), b)
			: "-");
	free(name);
	free(safe);
	if (!t->nchanges) {
		fprintf(out, "no change points\n\n");
	} else {
		fprintf(out, "change points:\n%9s %6s %10s %10s %8s\n",
			"iteration", "rank", "before", "after", "change");
		for (k = 0; k < t->nchanges; k++) {
			const struct sv_trend_change *ch = &t->changes[k];
			double pct =
				ch->before_ns != 0
					? (ch->after_ns / ch->before_ns - 1) *
						  100
					: NAN;
			fprintf(out,
				"%9" PRIu32 " %6" PRIu32 " %10s %10s %8s\n",
				ch->index, ch->rank,
				sv_fmt_dur_ex(ch->before_ns, 3, 0, a, sizeof a),
				sv_fmt_dur_ex(ch->after_ns, 3, 0, b, sizeof b),
				trend_pct(pct, c, sizeof c));
		}
		fputc('\n', out);
	}
	fprintf(out, "%9s %6s %10s %10s %10s %8s\n", "iteration", "ranks",
		"min", "median", "max", "slowest");
	for (k = 0; k < t->npoints; k++) {
		const struct sv_trend_point *pt = &t->points[k];
		char slow[16];
		snprintf(slow, sizeof slow, "r%" PRIu32, pt->max_rank);
		fprintf(out, "%9zu %6" PRIu32 " %10s %10s %10s %8s\n", k,
			pt->count, sv_fmt_dur(pt->min_ns, a, sizeof a),
			sv_fmt_dur_ex(pt->median_ns, 3, 0, b, sizeof b),
			sv_fmt_dur(pt->max_ns, c, sizeof c), slow);
	}
}

int sv_report_trend(FILE *out, const struct sv_profile *p,
	const struct sv_trend *t, const char *file, enum sv_report_format fmt)
{
	struct sv_report_out o;

	if (!out || !p || !t || t->region >= p->nregions)
		return -EINVAL;
	sv_report_open(&o, out, fmt);
	if (fmt == SV_REPORT_JSON)
		trend_json(&o.j, p, t);
	else if (fmt == SV_REPORT_CSV)
		trend_csv(&o.c, t);
	else
		trend_table(out, p, t, file ? file : p->path);
	return sv_report_close(&o);
}
