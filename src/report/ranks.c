/*
 * ranks.c: `scopeview ranks` output, the rank x region matrix and the
 * load-balance figures (see report.h).  Formats only: every figure comes
 * from struct sv_ranks; JSON and CSV through json.h and csv.h.
 */
#include "scopeview/report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"
#include "scopeview/csv.h"
#include "scopeview/fmt.h"
#include "scopeview/json.h"

static const char *ranks_metric_name(enum sv_ranks_metric m)
{
	return m == SV_RANKS_EXCLUSIVE ? "exclusive" : "total";
}

/* One rank's cell of a region. */
static void ranks_json_cell(
	struct sv_json *j, uint32_t rank, const struct sv_ranks_cell *c)
{
	sv_json_object(j, SV_JSON_INLINE);
	sv_json_key(j, "rank");
	sv_json_u64(j, rank);
	sv_json_key(j, "total_ns");
	sv_json_i64(j, c->total_ns);
	sv_json_opt_i64(j, "exclusive_ns", c->has_exclusive, c->exclusive_ns);
	sv_json_key(j, "num_calls");
	sv_json_u64(j, c->num_calls);
	sv_json_end(j);
}

/* The load-balance figures of a region, null without calls. */
static void ranks_json_figures(struct sv_json *j, const struct sv_ranks_fig *f)
{
	static const char *const keys[] = {
		"min_ns", "mean_ns", "max_ns", "slowest_rank", "excess_ns"};
	size_t k;

	for (k = 0; !f->has && k < sizeof keys / sizeof keys[0]; k++) {
		sv_json_key(j, keys[k]);
		sv_json_null(j);
	}
	if (f->has) {
		sv_json_key(j, "min_ns");
		sv_json_i64(j, f->min_ns);
		sv_json_key(j, "mean_ns");
		sv_json_double(j, f->mean_ns);
		sv_json_key(j, "max_ns");
		sv_json_i64(j, f->max_ns);
		sv_json_key(j, "slowest_rank");
		sv_json_u64(j, f->slowest_rank);
		sv_json_key(j, "excess_ns");
		sv_json_double(j, f->excess_ns);
	}
	sv_json_key(j, "rank_imbalance_pct");
	sv_json_double(j, f->rank_imbalance_pct);
}

/* Each region: its name and ranks on the first lines, its figures on
 * the line after the ranks, one column in. */
static void ranks_json(struct sv_json *j, const struct sv_profile *p,
	const struct sv_ranks *m, const char *file)
{
	size_t r, k;

	sv_json_object(j, SV_JSON_PRETTY);
	sv_json_key(j, "file");
	sv_json_string(j, file);
	sv_json_key(j, "metric");
	sv_json_string(j, ranks_metric_name(m->metric));
	sv_json_key(j, "num_ranks");
	sv_json_u64(j, p->num_ranks);
	sv_json_key(j, "regions");
	sv_json_array(j, SV_JSON_PRETTY);
	for (k = 0; k < m->nregions; k++) {
		sv_json_object(j, SV_JSON_WRAP);
		sv_json_key(j, "name");
		sv_json_string(j, m->t->regions[k].name);
		sv_json_key(j, "ranks");
		sv_json_array(j, SV_JSON_BLOCK | SV_JSON_STEP(1));
		for (r = 0; r < m->nranks; r++) {
			const struct sv_ranks_cell *c =
				sv_ranks_cell_at(m, r, k);
			if (c->has)
				ranks_json_cell(j, m->ranks[r], c);
		}
		sv_json_end(j);
		sv_json_break(j);
		ranks_json_figures(j, &m->fig[k]);
		sv_json_end(j);
	}
	sv_json_end(j);
	sv_json_end(j);
	sv_json_finish(j);
}

static void ranks_csv(struct sv_csv *c, const struct sv_ranks *m)
{
	size_t j, r;

	sv_csv_header(c, "region,rank,num_calls,total_ns,exclusive_ns,min_ns,"
			 "mean_ns,max_ns,slowest_rank,excess_ns,"
			 "rank_imbalance_pct");
	for (j = 0; j < m->nregions; j++) {
		const struct sv_ranks_fig *f = &m->fig[j];
		for (r = 0; r < m->nranks; r++) {
			const struct sv_ranks_cell *x =
				sv_ranks_cell_at(m, r, j);
			int k;
			if (!x->has)
				continue;
			sv_csv_field(c, m->t->regions[j].name);
			sv_csv_u64(c, m->ranks[r]);
			sv_csv_u64(c, x->num_calls);
			sv_csv_i64(c, x->total_ns);
			if (x->has_exclusive)
				sv_csv_i64(c, x->exclusive_ns);
			else
				sv_csv_empty(c);
			if (f->has) {
				sv_csv_i64(c, f->min_ns);
				sv_csv_double(c, f->mean_ns);
				sv_csv_i64(c, f->max_ns);
				sv_csv_u64(c, f->slowest_rank);
				sv_csv_double(c, f->excess_ns);
			} else {
				for (k = 0; k < 5; k++)
					sv_csv_empty(c);
			}
			sv_csv_double(c, f->rank_imbalance_pct);
			sv_csv_end_row(c);
		}
	}
}

/* A duration in human units, or "-". */
static const char *ranks_dur(double ns, bool has, char *buf, size_t n)
{
	if (!has)
		return "-";
	return sv_fmt_dur_ex(ns, 3, 0, buf, n);
}

static void ranks_table(FILE *out, const struct sv_profile *p,
	const struct sv_ranks *m, const char *file)
{
	char *safe = sv_utf8_terminal_safe(file, NULL);
	char a[32], b[32], c[32], d[32];
	size_t j, r;

	fprintf(out, "%s: %" PRIu32 " ranks, metric %s\n\n", safe, p->num_ranks,
		ranks_metric_name(m->metric));
	free(safe);
	fprintf(out, "%-24s %10s %10s %10s %8s %10s %10s\n", "region", "min",
		"mean", "max", "slowest", "excess", "imbalance");
	for (j = 0; j < m->nregions; j++) {
		const struct sv_ranks_fig *f = &m->fig[j];
		char slow[16] = "-";
		safe = sv_utf8_terminal_safe(m->t->regions[j].name, NULL);
		if (f->has)
			snprintf(slow, sizeof slow, "r%" PRIu32,
				f->slowest_rank);
		fprintf(out, "%-24.24s %10s %10s %10s %8s %10s %9.1f%%\n", safe,
			ranks_dur((double)f->min_ns, f->has, a, sizeof a),
			ranks_dur(f->mean_ns, f->has, b, sizeof b),
			ranks_dur((double)f->max_ns, f->has, c, sizeof c), slow,
			ranks_dur(f->excess_ns, f->has, d, sizeof d),
			f->rank_imbalance_pct);
		free(safe);
	}
	fputs("\nrank", out);
	for (j = 0; j < m->nregions; j++) {
		safe = sv_utf8_terminal_safe(m->t->regions[j].name, NULL);
		fprintf(out, " %10.10s", safe);
		free(safe);
	}
	fputc('\n', out);
	for (r = 0; r < m->nranks; r++) {
		fprintf(out, "%4" PRIu32, m->ranks[r]);
		for (j = 0; j < m->nregions; j++) {
			int64_t v = 0;
			bool has = sv_ranks_value(
				m, sv_ranks_cell_at(m, r, j), &v);
			fprintf(out, " %10s",
				ranks_dur((double)v, has, a, sizeof a));
		}
		fputc('\n', out);
	}
}

int sv_report_ranks(FILE *out, const struct sv_profile *p,
	const struct sv_ranks *m, const char *file, enum sv_report_format fmt)
{
	struct sv_outbuf b;
	struct sv_json j;
	struct sv_csv c;
	int rc = 0;

	if (!out || !p || !m)
		return -EINVAL;
	if (!file)
		file = p->path;
	switch (fmt) {
	case SV_REPORT_JSON:
		sv_outbuf_init(&b, out);
		sv_json_init(&j, &b);
		ranks_json(&j, p, m, file);
		sv_json_fini(&j);
		rc = sv_outbuf_fini(&b);
		break;
	case SV_REPORT_CSV:
		sv_outbuf_init(&b, out);
		sv_csv_init(&c, &b);
		ranks_csv(&c, m);
		rc = sv_outbuf_fini(&b);
		break;
	default:
		ranks_table(out, p, m, file);
		break;
	}
	return rc < 0 || ferror(out) ? -EIO : 0;
}
