/*
 * ranks.c: `scopeview ranks` output, the rank x region matrix and the
 * load-balance figures (see report.h).  Formats only: every figure comes
 * from struct sv_ranks.
 */
#include "scopeview/report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"
#include "scopeview/fmt.h"
#include "scopeview/summary.h"

static const char *ranks_metric_name(enum sv_ranks_metric m)
{
	return m == SV_RANKS_EXCLUSIVE ? "exclusive" : "total";
}

static void ranks_num(FILE *out, double v)
{
	char buf[64];
	fputs(sv_summary_number(buf, sizeof buf, v), out);
}

static void ranks_json(FILE *out, const struct sv_profile *p,
	const struct sv_ranks *m, const char *file)
{
	size_t j, r;
	bool first;

	fputs("{\n  \"file\": ", out);
	sv_summary_json_str(out, file);
	fprintf(out,
		",\n  \"metric\": \"%s\",\n  \"num_ranks\": %" PRIu32
		",\n  \"regions\": [",
		ranks_metric_name(m->metric), p->num_ranks);
	for (j = 0; j < m->nregions; j++) {
		const struct sv_ranks_fig *f = &m->fig[j];
		fputs(j ? ",\n    {\"name\": " : "\n    {\"name\": ", out);
		sv_summary_json_str(out, m->t->regions[j].name);
		fputs(", \"ranks\": [", out);
		first = true;
		for (r = 0; r < m->nranks; r++) {
			const struct sv_ranks_cell *c =
				sv_ranks_cell_at(m, r, j);
			if (!c->has)
				continue;
			fprintf(out,
				"%s\n      {\"rank\": %" PRIu32
				", \"total_ns\": %" PRId64
				", \"exclusive_ns\": ",
				first ? "" : ",", m->ranks[r], c->total_ns);
			if (c->has_exclusive)
				fprintf(out, "%" PRId64, c->exclusive_ns);
			else
				fputs("null", out);
			fprintf(out, ", \"num_calls\": %" PRIu64 "}",
				c->num_calls);
			first = false;
		}
		fputs(first ? "],\n     " : "\n     ],\n     ", out);
		if (f->has) {
			fprintf(out, "\"min_ns\": %" PRId64 ", \"mean_ns\": ",
				f->min_ns);
			ranks_num(out, f->mean_ns);
			fprintf(out,
				", \"max_ns\": %" PRId64
				", \"slowest_rank\": %" PRIu32
				", \"excess_ns\": ",
				f->max_ns, f->slowest_rank);
			ranks_num(out, f->excess_ns);
		} else {
			fputs("\"min_ns\": null, \"mean_ns\": null, "
			      "\"max_ns\": "
			      "null, \"slowest_rank\": null, \"excess_ns\": "
			      "null",
				out);
		}
		fputs(", \"rank_imbalance_pct\": ", out);
		ranks_num(out, f->rank_imbalance_pct);
		fputs("}", out);
	}
	fputs(m->nregions ? "\n  ]\n}\n" : "]\n}\n", out);
}

static void ranks_csv(FILE *out, const struct sv_ranks *m)
{
	size_t j, r;
	char buf[64];

	fputs("region,rank,num_calls,total_ns,exclusive_ns,min_ns,mean_ns,"
	      "max_ns,slowest_rank,excess_ns,rank_imbalance_pct\n",
		out);
	for (j = 0; j < m->nregions; j++) {
		const struct sv_ranks_fig *f = &m->fig[j];
		for (r = 0; r < m->nranks; r++) {
			const struct sv_ranks_cell *c =
				sv_ranks_cell_at(m, r, j);
			if (!c->has)
				continue;
			sv_summary_csv_field(out, m->t->regions[j].name);
			fprintf(out, ",%" PRIu32 ",%" PRIu64 ",%" PRId64 ",",
				m->ranks[r], c->num_calls, c->total_ns);
			if (c->has_exclusive)
				fprintf(out, "%" PRId64, c->exclusive_ns);
			if (f->has) {
				fprintf(out, ",%" PRId64 ",%s", f->min_ns,
					sv_summary_number(
						buf, sizeof buf, f->mean_ns));
				fprintf(out, ",%" PRId64 ",%" PRIu32 ",%s",
					f->max_ns, f->slowest_rank,
					sv_summary_number(
						buf, sizeof buf, f->excess_ns));
			} else {
				fputs(",,,,,", out);
			}
			fprintf(out, ",%s\n",
				sv_summary_number(buf, sizeof buf,
					f->rank_imbalance_pct));
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
	if (!out || !p || !m)
		return -EINVAL;
	if (!file)
		file = p->path;
	switch (fmt) {
	case SV_REPORT_JSON:
		ranks_json(out, p, m, file);
		break;
	case SV_REPORT_CSV:
		ranks_csv(out, m);
		break;
	default:
		ranks_table(out, p, m, file);
		break;
	}
	return ferror(out) ? -EIO : 0;
}
