/*
 * diff.c: `scopeview diff` output (see report.h): two runs region by
 * region as a table for people, CSV or JSON.  Formats only: every figure
 * comes from struct sv_diff (diff.h), which takes them from the two
 * statistics tables.  Rows the threshold hides are left out of every
 * format.  JSON and CSV go through json.h and csv.h.
 */
#include "scopeview/report.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"
#include "scopeview/csv.h"
#include "scopeview/fmt.h"
#include "scopeview/json.h"

/* A figure as JSON or CSV: seconds for times, a whole count of calls,
 * else as it is; into buf. */
static const char *diff_number(
	char *buf, size_t n, enum sv_diff_metric m, double v)
{
	if (m == SV_DIFF_CALLS)
		snprintf(buf, n, "%.0f", v);
	else
		sv_json_number_text(
			buf, n, sv_diff_metric_is_time(m) ? v / 1e9 : v);
	return buf;
}

/* ---- JSON ------------------------------------------------------------------ */

/* "key": the figure, or null without one. */
static void diff_json_figure(struct sv_json *j, const char *key,
	enum sv_diff_metric m, bool has, double v)
{
	char buf[64];

	sv_json_key(j, key);
	if (has) {
		diff_number(buf, sizeof buf, m, v);
		sv_json_raw(j, buf, strlen(buf));
	} else {
		sv_json_null(j);
	}
}

static void diff_json_names(struct sv_json *j, const char *key,
	const struct sv_diff_row *rows, size_t n)
{
	size_t i;

	sv_json_key(j, key);
	sv_json_array(j, SV_JSON_INLINE);
	for (i = 0; i < n; i++)
		sv_json_string(j, rows[i].name);
	sv_json_end(j);
}

static void diff_json(struct sv_json *j, const struct sv_diff *d,
	const char *file_a, const char *file_b)
{
	enum sv_diff_metric m = d->metric;
	size_t i;

	sv_json_object(j, SV_JSON_PRETTY);
	sv_json_key(j, "a");
	sv_json_string(j, file_a);
	sv_json_key(j, "b");
	sv_json_string(j, file_b);
	sv_json_key(j, "metric");
	sv_json_string(j, sv_diff_metric_name(m));
	sv_json_key(j, "regions");
	sv_json_array(j, SV_JSON_PRETTY);
	for (i = 0; i < d->nrows; i++) {
		const struct sv_diff_row *r = &d->rows[i];
		if (r->hidden)
			continue;
		sv_json_object(j, SV_JSON_INLINE);
		sv_json_key(j, "name");
		sv_json_string(j, r->name);
		diff_json_figure(j, "a", m, r->a.has, r->a.v);
		diff_json_figure(j, "b", m, r->b.has, r->b.v);
		diff_json_figure(j, "delta", m, r->has_delta, r->delta);
		sv_json_opt_double(j, "pct", r->has_pct, r->pct);
		sv_json_end(j);
	}
	sv_json_end(j);
	diff_json_names(j, "only_in_a", d->only_a, d->nonly_a);
	diff_json_names(j, "only_in_b", d->only_b, d->nonly_b);
	sv_json_end(j);
	sv_json_finish(j);
}

/* ---- CSV ------------------------------------------------------------------- */

static void diff_csv_figure(
	struct sv_csv *c, enum sv_diff_metric m, bool has, double v)
{
	char buf[64];

	if (has)
		sv_csv_raw(c, diff_number(buf, sizeof buf, m, v));
	else
		sv_csv_empty(c);
}

static void diff_csv_row(struct sv_csv *c, enum sv_diff_metric m,
	const struct sv_diff_row *r, const char *in)
{
	sv_csv_field(c, r->name);
	sv_csv_field(c, in);
	diff_csv_figure(c, m, r->a.has, r->a.v);
	diff_csv_figure(c, m, r->b.has, r->b.v);
	diff_csv_figure(c, m, r->has_delta, r->delta);
	if (r->has_pct)
		sv_csv_double(c, r->pct);
	else
		sv_csv_empty(c);
	sv_csv_end_row(c);
}

static void diff_csv(struct sv_csv *c, const struct sv_diff *d)
{
	size_t i;

	sv_csv_header(c, "region,in,a,b,delta,pct");
	for (i = 0; i < d->nrows; i++)
		if (!d->rows[i].hidden)
			diff_csv_row(c, d->metric, &d->rows[i], "both");
	for (i = 0; i < d->nonly_a; i++)
		diff_csv_row(c, d->metric, &d->only_a[i], "a");
	for (i = 0; i < d->nonly_b; i++)
		diff_csv_row(c, d->metric, &d->only_b[i], "b");
}

/* ---- table ----------------------------------------------------------------- */

#define DIFF_CELL 32

/* A figure as people read it: human units for times, signed for a
 * change ("+12.5 ms", "-3", "+1.2"), "-" without a value. */
static void diff_cell(
	char *buf, enum sv_diff_metric m, bool has, double v, bool change)
{
	if (!has)
		snprintf(buf, DIFF_CELL, "-");
	else if (sv_diff_metric_is_time(m))
		sv_fmt_dur_ex(v, 3, change && v != 0 ? SV_FMT_DUR_PLUS : 0, buf,
			DIFF_CELL);
	else if (m == SV_DIFF_CALLS)
		snprintf(
			buf, DIFF_CELL, change && v != 0 ? "%+.0f" : "%.0f", v);
	else
		snprintf(buf, DIFF_CELL, change ? "%+.1f pt" : "%.1f%%", v);
}

static void diff_pct_cell(char *buf, const struct sv_diff_row *r)
{
	if (r->has_pct)
		snprintf(buf, DIFF_CELL, "%+.1f%%", r->pct);
	else if (r->has_delta && r->delta != 0)
		snprintf(buf, DIFF_CELL, "new"); /* from 0 */
	else
		snprintf(buf, DIFF_CELL, "-");
}

struct diff_line {
	char *name;
	size_t w;
	char cell[4][DIFF_CELL];
};

static void diff_table(FILE *out, const struct sv_diff *d, const char *file_a,
	const char *file_b, double threshold)
{
	static const char *const heads[4] = {"A", "B", "delta", "pct"};
	enum sv_diff_metric m = d->metric;
	struct diff_line *lines =
		sv_xcalloc(d->nrows ? d->nrows : 1, sizeof *lines);
	size_t n = 0, i, c, width[5] = {6, 1, 1, 5, 3};
	char *sa = sv_utf8_terminal_safe(file_a, NULL);
	char *sb = sv_utf8_terminal_safe(file_b, NULL);

	fprintf(out, "A: %s\nB: %s\nmetric: %s", sa, sb,
		sv_diff_metric_name(m));
	if (threshold > 0)
		fprintf(out, ", changes of %g%% and more", threshold);
	fputs("\n\n", out);
	free(sa);
	free(sb);

	for (i = 0; i < d->nrows; i++) {
		const struct sv_diff_row *r = &d->rows[i];
		struct diff_line *l = &lines[n];
		if (r->hidden)
			continue;
		l->name = sv_utf8_terminal_safe(r->name, &l->w);
		diff_cell(l->cell[0], m, r->a.has, r->a.v, false);
		diff_cell(l->cell[1], m, r->b.has, r->b.v, false);
		diff_cell(l->cell[2], m, r->has_delta, r->delta, true);
		diff_pct_cell(l->cell[3], r);
		if (l->w > width[0])
			width[0] = l->w;
		for (c = 0; c < 4; c++)
			if (strlen(l->cell[c]) > width[c + 1])
				width[c + 1] = strlen(l->cell[c]);
		n++;
	}
	if (n == 0) {
		fputs("  (no region in both runs", out);
		if (d->nhidden)
			fprintf(out, " changed by %g%% or more", threshold);
		fputs(")\n", out);
	} else {
		fprintf(out, "  %-*s", (int)width[0], "region");
		for (c = 0; c < 4; c++)
			fprintf(out, "  %*s", (int)width[c + 1], heads[c]);
		fputc('\n', out);
		for (i = 0; i < n; i++) {
			fprintf(out, "  %s%*s", lines[i].name,
				(int)(width[0] - lines[i].w), "");
			for (c = 0; c < 4; c++)
				fprintf(out, "  %*s", (int)width[c + 1],
					lines[i].cell[c]);
			fputc('\n', out);
			free(lines[i].name);
		}
	}
	free(lines);
	if (d->nhidden)
		fprintf(out, "  (%zu region%s changed by less than %g%%)\n",
			d->nhidden, d->nhidden == 1 ? "" : "s", threshold);
	for (c = 0; c < 2; c++) {
		const struct sv_diff_row *rows = c ? d->only_b : d->only_a;
		size_t nr = c ? d->nonly_b : d->nonly_a;
		char buf[DIFF_CELL];
		if (!nr)
			continue;
		fprintf(out, "\nOnly in %s (%zu):\n", c ? "B" : "A", nr);
		for (i = 0; i < nr; i++) {
			const struct sv_diff_side *s =
				c ? &rows[i].b : &rows[i].a;
			char *safe = sv_utf8_terminal_safe(rows[i].name, NULL);
			diff_cell(buf, m, s->has, s->v, false);
			fprintf(out, "  %s  %s\n", safe, buf);
			free(safe);
		}
	}
}

size_t sv_report_diff_gate(FILE *out, const struct sv_diff *d,
	const char *prefix, bool fail_above, double above_pct, bool fail_on_new)
{
	enum sv_diff_metric m = d->metric;
	size_t i, n = 0;

	for (i = 0; fail_above && i < d->nrows; i++) {
		const struct sv_diff_row *r = &d->rows[i];
		char a[DIFF_CELL], b[DIFF_CELL], pct[DIFF_CELL];
		char *safe;
		if (!sv_diff_row_regressed(r, above_pct))
			continue;
		safe = sv_utf8_terminal_safe(r->name, NULL);
		diff_cell(a, m, r->a.has, r->a.v, false);
		diff_cell(b, m, r->b.has, r->b.v, false);
		diff_pct_cell(pct, r);
		fprintf(out,
			"%sregression: %s: %s %s (%s -> %s), more than "
			"--fail-above %g%%\n",
			prefix, safe, sv_diff_metric_name(m), pct, a, b,
			above_pct);
		free(safe);
		n++;
	}
	for (i = 0; fail_on_new && i < d->nonly_b; i++) {
		char *safe = sv_utf8_terminal_safe(d->only_b[i].name, NULL);
		fprintf(out, "%snew region: %s (only in B, --fail-on-new)\n",
			prefix, safe);
		free(safe);
		n++;
	}
	return n;
}

int sv_report_diff(FILE *out, const struct sv_diff *d, const char *file_a,
	const char *file_b, double threshold_pct, enum sv_report_format fmt)
{
	struct sv_outbuf b;
	struct sv_json j;
	struct sv_csv c;
	int rc = 0;

	if (!out || !d)
		return -EINVAL;
	if (fmt == SV_REPORT_JSON) {
		sv_outbuf_init(&b, out);
		sv_json_init(&j, &b);
		diff_json(&j, d, file_a, file_b);
		sv_json_fini(&j);
		rc = sv_outbuf_fini(&b);
	} else if (fmt == SV_REPORT_CSV) {
		sv_outbuf_init(&b, out);
		sv_csv_init(&c, &b);
		diff_csv(&c, d);
		rc = sv_outbuf_fini(&b);
	} else {
		diff_table(out, d, file_a, file_b, threshold_pct);
	}
	return rc < 0 || ferror(out) ? -EIO : 0;
}
