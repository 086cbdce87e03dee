/*
 * scaling.c: `scopeview scaling` output (see report.h): a scaling study
 * as a table for people, CSV or JSON.  Formats only: every figure comes
 * from struct sv_scaling (scaling.h).  JSON and CSV go through json.h and
 * csv.h; mean durations are seconds in both, as scope-profiler prints
 * them.
 */
#include "scopeview/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"
#include "scopeview/csv.h"
#include "scopeview/fmt.h"
#include "scopeview/json.h"

/* An x value as JSON: a whole number as an integer, else a double. */
static void scaling_json_number(struct sv_json *j, double x)
{
	if (x == floor(x) && fabs(x) < 9007199254740992.0)
		sv_json_i64(j, (int64_t)x);
	else
		sv_json_double(j, x);
}

/* Point j's x: its number, or its text for a study of texts. */
static void scaling_json_x(struct sv_json *j, const struct sv_scaling *s,
	double x, const char *text)
{
	if (s->numeric)
		scaling_json_number(j, x);
	else
		sv_json_string(j, text);
}

static void scaling_json_point(struct sv_json *j, const struct sv_scaling *s,
	const struct sv_scaling_point *pt, size_t at)
{
	sv_json_object(j, SV_JSON_INLINE);
	sv_json_key(j, "x");
	scaling_json_x(j, s, pt->x, s->x_texts[at]);
	sv_json_key(j, "runs");
	sv_json_u64(j, pt->runs);
	sv_json_key(j, "mean_duration");
	sv_json_double(j, pt->mean_duration);
	sv_json_key(j, "speedup");
	sv_json_double(j, pt->speedup);
	sv_json_key(j, "efficiency");
	sv_json_double(j, pt->efficiency);
	sv_json_key(j, "normalized_runtime");
	sv_json_double(j, pt->normalized_runtime);
	sv_json_key(j, "weak_efficiency");
	sv_json_double(j, pt->weak_efficiency);
	sv_json_end(j);
}

static void scaling_json(struct sv_json *j, const struct sv_scaling *s)
{
	size_t i, k;

	sv_json_object(j, SV_JSON_PRETTY);
	sv_json_key(j, "x_field");
	sv_json_string(j, s->x_field);
	sv_json_key(j, "baseline");
	scaling_json_x(j, s, s->baseline, s->baseline_text);
	sv_json_key(j, "runs");
	sv_json_array(j, SV_JSON_PRETTY);
	for (i = 0; i < s->nruns; i++) {
		const struct sv_scaling_run *r = &s->runs[i];
		sv_json_object(j, SV_JSON_INLINE);
		sv_json_key(j, "file");
		sv_json_string(j, r->file);
		sv_json_key(j, "label");
		sv_json_string(j, r->label);
		sv_json_key(j, "x");
		scaling_json_x(j, s, r->x, r->x_text);
		sv_json_end(j);
	}
	sv_json_end(j);
	sv_json_key(j, "regions");
	sv_json_array(j, SV_JSON_PRETTY);
	for (i = 0; i < s->nregions; i++) {
		sv_json_object(j, SV_JSON_WRAP);
		sv_json_key(j, "name");
		sv_json_string(j, s->regions[i].name);
		sv_json_key(j, "points");
		sv_json_array(j, SV_JSON_BLOCK | SV_JSON_STEP(1));
		for (k = 0; k < s->npoints; k++)
			scaling_json_point(j, s, &s->regions[i].points[k], k);
		sv_json_end(j);
		sv_json_end(j);
	}
	sv_json_end(j);
	sv_json_end(j);
	sv_json_finish(j);
}

static void scaling_csv(struct sv_csv *c, const struct sv_scaling *s)
{
	size_t i, k;

	sv_csv_header(c, "region,x,runs,mean_duration,speedup,efficiency,"
			 "normalized_runtime,weak_efficiency");
	for (i = 0; i < s->nregions; i++)
		for (k = 0; k < s->npoints; k++) {
			const struct sv_scaling_point *pt =
				&s->regions[i].points[k];
			sv_csv_field(c, s->regions[i].name);
			sv_csv_field(c, s->x_texts[k]);
			sv_csv_u64(c, pt->runs);
			sv_csv_double(c, pt->mean_duration);
			sv_csv_double(c, pt->speedup);
			sv_csv_double(c, pt->efficiency);
			sv_csv_double(c, pt->normalized_runtime);
			sv_csv_double(c, pt->weak_efficiency);
			sv_csv_end_row(c);
		}
}

/* A ratio with two decimals, or "-". */
static const char *scaling_ratio(double v, char *buf, size_t n)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, n, "%.2f", v);
	return buf;
}

/* Text from a file, safe for the terminal, in w columns: padded, or
 * cut with a '~' when wider (the JSON and CSV have it whole). */
static void scaling_cell(FILE *out, const char *text, int w)
{
	char *safe = sv_utf8_terminal_safe(text, NULL);
	size_t n = strlen(safe), i = 0, keep = 0;
	int cols = 0, fit = 0;
	uint32_t cp;

	while (i < n) {
		size_t len = sv_utf8_decode(safe + i, n - i, &cp);
		int cw = sv_utf8_width(cp);
		if (cols + (cw > 0 ? cw : 0) > w)
			break;
		cols += cw > 0 ? cw : 0;
		i += len;
		if (cols < w) {
			keep = i;
			fit = cols;
		}
	}
	if (i < n)
		fprintf(out, "%.*s~%*s", (int)keep, safe, w - fit - 1, "");
	else
		fprintf(out, "%s%*s", safe, w - cols, "");
	free(safe);
}

/* The columns of the x values: the field's name or the widest text. */
static int scaling_x_width(const struct sv_scaling *s)
{
	size_t w, i;
	int cols = 4;

	for (i = 0; i <= s->nruns; i++) {
		char *safe = sv_utf8_terminal_safe(
			i < s->nruns ? s->runs[i].x_text : s->x_field, &w);
		free(safe);
		if ((int)w > cols)
			cols = (int)w;
	}
	return cols < 24 ? cols : 24;
}

static void scaling_table(FILE *out, const struct sv_scaling *s)
{
	char a[32], b[32], c[32], d[32], e[32];
	char *field = sv_utf8_terminal_safe(s->x_field, NULL);
	char *base = sv_utf8_terminal_safe(s->baseline_text, NULL);
	int xw = scaling_x_width(s);
	size_t i, k;

	fprintf(out,
		"scaling over %s: %zu run%s at %zu value%s, baseline %s%s\n\n",
		field, s->nruns, s->nruns == 1 ? "" : "s", s->npoints,
		s->npoints == 1 ? "" : "s", base,
		s->numeric ? "" : " (not numbers: efficiency = speedup)");
	scaling_cell(out, s->x_field, xw);
	fputc(' ', out);
	scaling_cell(out, "label", 32);
	fprintf(out, " file\n");
	for (i = 0; i < s->nruns; i++) {
		const struct sv_scaling_run *r = &s->runs[i];
		char *safe = sv_utf8_terminal_safe(r->file, NULL);
		scaling_cell(out, r->x_text, xw);
		fputc(' ', out);
		scaling_cell(out, r->label, 32);
		fprintf(out, " %s\n", safe);
		free(safe);
	}
	if (!s->nregions) {
		fprintf(out, "\nno region has calls in every run\n");
		goto out;
	}
	fprintf(out, "\n%-32s ", "region");
	scaling_cell(out, s->x_field, xw);
	fprintf(out, " %4s %10s %8s %10s %10s %9s\n", "runs", "mean", "speedup",
		"efficiency", "normalized", "weak eff.");
	for (i = 0; i < s->nregions; i++) {
		for (k = 0; k < s->npoints; k++) {
			const struct sv_scaling_point *pt =
				&s->regions[i].points[k];
			scaling_cell(out, k ? "" : s->regions[i].name, 32);
			fputc(' ', out);
			scaling_cell(out, s->x_texts[k], xw);
			fprintf(out, " %4u %10s %8s %10s %10s %9s\n", pt->runs,
				sv_fmt_dur_ex(pt->mean_duration * 1e9, 3, 0, a,
					sizeof a),
				scaling_ratio(pt->speedup, b, sizeof b),
				scaling_ratio(pt->efficiency, c, sizeof c),
				scaling_ratio(
					pt->normalized_runtime, d, sizeof d),
				scaling_ratio(
					pt->weak_efficiency, e, sizeof e));
		}
	}
out:
	free(field);
	free(base);
}

int sv_report_scaling(
	FILE *out, const struct sv_scaling *s, enum sv_report_format fmt)
{
	struct sv_report_out o;

	if (!out || !s)
		return -EINVAL;
	sv_report_open(&o, out, fmt);
	if (fmt == SV_REPORT_JSON)
		scaling_json(&o.j, s);
	else if (fmt == SV_REPORT_CSV)
		scaling_csv(&o.c, s);
	else
		scaling_table(out, s);
	return sv_report_close(&o);
}
