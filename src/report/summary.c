/*
 * summary.c: `scopeview summary` (see summary.h and cli.h).
 *
 * cli/cmd_summary.c parses the command line, loads the profile, computes
 * the statistics with stats.h and hands them to one of three writers
 * here.  The writers only format: every figure comes from struct
 * sv_stats, so the table, CSV and JSON always agree with each other and
 * with the viewer.  JSON and CSV go through the report layer's writers
 * (json.h, csv.h); they print only to the stream they are given.
 *
 * Compared with scope-profiler's own summary (summary.py, audited; the
 * figures themselves are stats.h's, whose header lists where they differ):
 *  - the table prints durations in human units ("12.3 us") rather than
 *    "%.1e" seconds, adds an exclusive column, and heads the table with the
 *    file, its metadata, layout, rank count and total time; it has no
 *    "% session" column and no TOTAL row (scope-profiler prints that row
 *    only when finalize() supplies the run's wall time);
 *  - every region appears once, in get_regions() order (scope-profiler's
 *    newest table nests rows by call path instead);
 *  - a region without calls on the selected ranks shows '-' for every
 *    duration, with scope-profiler's note under the table, and --ranks
 *    naming ranks without data says so on stderr;
 *  - JSON "num_ranks" and "time_origin_ns" are the run's (results.py's
 *    num_ranks and time_origin); "minimum_start_ns" is the earliest start
 *    of what is shown (the run's minimum_start_time when nothing is
 *    filtered), null when nothing shown has a start.
 */
#include "scopeview/summary.h"

#include "summary_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/callmeta.h"
#include "scopeview/common.h"
#include "scopeview/csv.h"
#include "scopeview/fmt.h"
#include "scopeview/json.h"
#include "scopeview/regex.h"

/* ---- the figures every format prints ----------------------------------------- */

/* One printed column: a figure of struct sv_stats in ns (or the count). */
#define SUMMARY_FIGURE_TABLE(X)                                   \
	X(TOTAL, "total_duration", "total", SV_STATS_KEY_TOTAL)   \
	X(AVG, "average_duration", "avg", SV_STATS_KEY_AVG)       \
	X(MIN, "min_duration", "min", SV_STATS_KEY_MIN)           \
	X(MAX, "max_duration", "max", SV_STATS_KEY_MAX)           \
	X(FIRST, "first_duration", "first", SV_STATS_KEY_FIRST)   \
	X(LAST, "last_duration", "last", SV_STATS_KEY_LAST)       \
	X(STD, "std_duration", "std", SV_STATS_KEY_STD)           \
	X(P50, "p50_duration", "p50", SV_STATS_KEY_P50)           \
	X(P95, "p95_duration", "p95", SV_STATS_KEY_P95)           \
	X(P99, "p99_duration", "p99", SV_STATS_KEY_P99)           \
	X(INCL, "inclusive_duration", "incl", SV_STATS_KEY_TOTAL) \
	X(EXCL, "exclusive_duration", "excl", SV_STATS_KEY_EXCLUSIVE)

enum summary_fig {
#define SUMMARY_FIG_ENUM(id, json, head, key) SUMMARY_FIG_##id,
	SUMMARY_FIGURE_TABLE(SUMMARY_FIG_ENUM)
#undef SUMMARY_FIG_ENUM
		SUMMARY_FIG_GPU,
	SUMMARY_FIG_AWAIT,
	SUMMARY_FIG_COUNT
};

static const struct {
	const char *json, *head;
	int key;
} summary_figs[] = {
#define SUMMARY_FIG_ROW(id, json, head, key) {json, head, key},
	SUMMARY_FIGURE_TABLE(SUMMARY_FIG_ROW)
#undef SUMMARY_FIG_ROW
		{"gpu_total_duration", "gpu", -1},
	{"total_await_duration", "await", -1},
};

/* Figure f of s in ns; false when s does not have it. */
static bool summary_fig(const struct sv_stats *s, int f, double *ns)
{
	switch (f) {
	case SUMMARY_FIG_TOTAL:
	case SUMMARY_FIG_INCL:
		/* A sum over no calls is a true 0. */
		*ns = (double)s->total_ns;
		return s->has_total;
	case SUMMARY_FIG_EXCL:
		*ns = (double)s->exclusive_ns;
		return s->has_exclusive;
	case SUMMARY_FIG_GPU:
		*ns = (double)s->gpu_total_ns;
		return s->has_gpu;
	case SUMMARY_FIG_AWAIT:
		*ns = (double)s->await_total_ns;
		return s->has_await;
	default:
		return sv_stats_value(s, summary_figs[f].key, ns);
	}
}

/* ---- JSON ------------------------------------------------------------------- */

static void json_tags(struct sv_json *j, const struct sv_row *row)
{
	size_t i;

	sv_json_key(j, "tags");
	sv_json_array(j, SV_JSON_INLINE);
	for (i = 0; row && i < row->ntags; i++)
		sv_json_string(j, row->tags[i]);
	sv_json_end(j);
}

/* The duration figures, then await and GPU, as "key": seconds. */
static void json_figures(struct sv_json *j, const struct sv_stats *s)
{
	static const int order[] = {SUMMARY_FIG_TOTAL, SUMMARY_FIG_AVG,
		SUMMARY_FIG_MIN, SUMMARY_FIG_MAX, SUMMARY_FIG_FIRST,
		SUMMARY_FIG_LAST, SUMMARY_FIG_STD, SUMMARY_FIG_P50,
		SUMMARY_FIG_P95, SUMMARY_FIG_P99, SUMMARY_FIG_INCL,
		SUMMARY_FIG_EXCL, SUMMARY_FIG_GPU, SUMMARY_FIG_AWAIT};
	size_t i;

	sv_json_key(j, "num_calls");
	sv_json_u64(j, s->num_calls);
	for (i = 0; i < sizeof order / sizeof order[0]; i++) {
		double ns = 0;
		bool has = summary_fig(s, order[i], &ns);
		sv_json_opt_double(
			j, summary_figs[order[i]].json, has, ns / 1e9);
	}
}

static void json_source(struct sv_json *j, const char *file, int64_t line)
{
	sv_json_key(j, "source_file");
	if (file)
		sv_json_string(j, file);
	else
		sv_json_null(j);
	sv_json_opt_i64(j, "source_lineno", line >= 0, line);
}

static void json_meta_value(struct sv_json *j, const struct sv_meta *m)
{
	size_t i;

	switch (m->kind) {
	case SV_META_INT:
		sv_json_i64(j, m->i);
		break;
	case SV_META_FLOAT:
		sv_json_double(j, m->f);
		break;
	case SV_META_BOOL:
		sv_json_bool(j, m->i != 0);
		break;
	case SV_META_STRINGS:
		sv_json_array(j, SV_JSON_INLINE);
		for (i = 0; i < m->nstrs; i++)
			sv_json_string(j, m->strs[i]);
		sv_json_end(j);
		break;
	default:
		sv_json_string(j, m->text);
	}
}

/* Region r in group k of o, or NULL when the group has no call there. */
static const struct sv_stats_region *summary_group_region(
	const struct sv_summary_opts *o, size_t k, uint32_t r)
{
	const struct sv_stats_region *g =
		sv_stats_table_find(o->groups[k].t, r);
	return g && g->s.num_calls ? g : NULL;
}

/* "key=value" of group k as a person reads it ("key=-" without it). */
static char *summary_group_label(const struct sv_summary_opts *o, size_t k)
{
	const char *v = o->groups[k].value;
	size_t n;
	char *shown, *label, probe[1];

	if (!v)
		return sv_xasprintf("%s=-", o->group_by);
	n = sv_callmeta_show(v, strlen(v), probe, sizeof probe);
	shown = sv_xmalloc(n + 1);
	sv_callmeta_show(v, strlen(v), shown, n + 1);
	label = sv_xasprintf("%s=%s", o->group_by, shown);
	free(shown);
	return label;
}

/* The "groups" list of region g (--group-by). */
static void json_groups(struct sv_json *j, const struct sv_stats_region *g,
	const struct sv_summary_opts *o)
{
	size_t k;

	sv_json_key(j, "groups");
	sv_json_array(j, SV_JSON_PRETTY);
	for (k = 0; k < o->ngroups; k++) {
		const struct sv_stats_region *gg =
			summary_group_region(o, k, g->region);
		const char *v = o->groups[k].value;
		if (!gg)
			continue;
		sv_json_object(j, SV_JSON_PRETTY);
		/* The value as the file wrote it (Python's JSON). */
		sv_json_key(j, "value");
		sv_json_raw(j, v ? v : "null", v ? strlen(v) : 4);
		json_figures(j, &gg->s);
		sv_json_opt_double(
			j, "rank_imbalance_pct", true, gg->rank_imbalance_pct);
		sv_json_end(j);
	}
	sv_json_end(j);
}

static const char *summary_layout_name(enum sv_layout_kind k)
{
	switch (k) {
	case SV_LAYOUT_AGGREGATE:
		return "aggregate";
	case SV_LAYOUT_GROUPS:
		return "groups";
	default:
		return "columnar";
	}
}

/* "whole_run": each region of t over every rank of the file, in t's
 * order (a region the run table lacks is left out). */
static void json_whole_run(struct sv_json *j, const struct sv_stats_table *t,
	const struct sv_stats_table *run)
{
	size_t i;

	sv_json_key(j, "whole_run");
	sv_json_object(j, SV_JSON_PRETTY);
	sv_json_key(j, "num_ranks");
	sv_json_u64(j, run->num_ranks);
	sv_json_key(j, "per_call");
	sv_json_bool(j, run->per_call);
	sv_json_key(j, "regions");
	sv_json_array(j, SV_JSON_PRETTY);
	for (i = 0; i < t->nregions; i++) {
		const struct sv_stats_region *g =
			sv_stats_table_find(run, t->regions[i].region);
		if (!g)
			continue;
		sv_json_object(j, SV_JSON_PRETTY);
		sv_json_key(j, "name");
		sv_json_string(j, g->name);
		sv_json_key(j, "ranks");
		sv_json_u64(j, g->nranks);
		json_figures(j, &g->s);
		sv_json_opt_double(
			j, "rank_imbalance_pct", true, g->rank_imbalance_pct);
		sv_json_end(j);
	}
	sv_json_end(j);
	sv_json_end(j);
}

/* One rank of region g. */
static void json_rank(struct sv_json *j, const struct sv_profile *p,
	const struct sv_stats_rank *rk)
{
	const struct sv_row *row = &p->rows[rk->row];

	sv_json_object(j, SV_JSON_PRETTY);
	sv_json_key(j, "rank");
	sv_json_u64(j, rk->rank);
	json_figures(j, &rk->s);
	json_tags(j, row);
	json_source(j, row->source_file, row->source_line);
	sv_json_opt_i64(
		j, "first_start_ns", rk->s.has_span, rk->s.first_start_ns);
	sv_json_opt_i64(j, "last_end_ns", rk->s.has_span, rk->s.last_end_ns);
	sv_json_end(j);
}

static void json_region(struct sv_json *j, const struct sv_profile *p,
	const struct sv_stats_region *g, const struct sv_summary_opts *o)
{
	size_t k;

	sv_json_object(j, SV_JSON_PRETTY);
	sv_json_key(j, "name");
	sv_json_string(j, g->name);
	json_figures(j, &g->s);
	sv_json_opt_double(
		j, "rank_imbalance_pct", true, g->rank_imbalance_pct);
	json_tags(j, g->tags_row);
	json_source(j, g->source_file, g->source_line);
	sv_json_key(j, "ranks");
	sv_json_array(j, SV_JSON_PRETTY);
	for (k = 0; k < g->nranks; k++)
		json_rank(j, p, &g->ranks[k]);
	sv_json_end(j);
	if (o->group_by)
		json_groups(j, g, o);
	if (o->counters)
		sv_summary_counters_json(j, p, g);
	sv_json_end(j);
}

static void summary_json(struct sv_json *j, const struct sv_profile *p,
	const struct sv_stats_table *t, const char *file,
	const struct sv_summary_opts *o)
{
	size_t i;

	sv_json_object(j, SV_JSON_PRETTY);
	sv_json_key(j, "file");
	sv_json_string(j, file);
	sv_json_opt_i64(j, "schema", p->schema > 0, p->schema);
	sv_json_key(j, "layout");
	sv_json_string(j, summary_layout_name(p->layout));
	sv_json_key(j, "num_ranks");
	sv_json_u64(j, t->num_ranks);
	sv_json_key(j, "time_origin_ns");
	sv_json_i64(j, t->time_origin_ns);
	sv_json_opt_i64(
		j, "minimum_start_ns", t->has_min_start, t->min_start_ns);
	if (o->group_by) {
		sv_json_key(j, "group_by");
		sv_json_string(j, o->group_by);
	}
	sv_json_key(j, "warnings");
	sv_json_array(j, SV_JSON_PRETTY);
	for (i = 0; i < p->nwarnings; i++)
		sv_json_string(j, p->warnings[i]);
	sv_json_end(j);
	sv_json_key(j, "metadata");
	sv_json_object(j, SV_JSON_PRETTY);
	for (i = 0; i < p->nmeta; i++) {
		sv_json_key(j, p->meta[i].key);
		json_meta_value(j, &p->meta[i]);
	}
	sv_json_end(j);
	sv_json_key(j, "regions");
	sv_json_array(j, SV_JSON_PRETTY);
	for (i = 0; i < t->nregions; i++)
		json_region(j, p, &t->regions[i], o);
	sv_json_end(j);
	if (o->run)
		json_whole_run(j, t, o->run);
	sv_json_end(j);
	sv_json_finish(j);
}

/* ---- CSV -------------------------------------------------------------------- */

static const int csv_figs[] = {SUMMARY_FIG_TOTAL, SUMMARY_FIG_EXCL,
	SUMMARY_FIG_AVG, SUMMARY_FIG_MIN, SUMMARY_FIG_MAX, SUMMARY_FIG_FIRST,
	SUMMARY_FIG_LAST, SUMMARY_FIG_STD, SUMMARY_FIG_P50, SUMMARY_FIG_P95,
	SUMMARY_FIG_P99, SUMMARY_FIG_GPU, SUMMARY_FIG_AWAIT};

static void csv_row(struct sv_csv *c, const char *name, const char *group,
	long rank, size_t nranks, const struct sv_stats *s,
	const double *imbalance)
{
	size_t i;

	sv_csv_field(c, name);
	if (group)
		sv_csv_field(c, group);
	if (rank >= 0) {
		sv_csv_i64(c, rank);
		sv_csv_empty(c);
	} else {
		sv_csv_empty(c);
		sv_csv_u64(c, nranks);
	}
	sv_csv_u64(c, s->num_calls);
	for (i = 0; i < sizeof csv_figs / sizeof csv_figs[0]; i++) {
		double ns;
		if (summary_fig(s, csv_figs[i], &ns))
			sv_csv_double(c, ns / 1e9);
		else
			sv_csv_empty(c);
	}
	if (imbalance)
		sv_csv_double(c, *imbalance);
	else
		sv_csv_empty(c);
	sv_csv_end_row(c);
}

static void summary_csv(struct sv_csv *c, const struct sv_stats_table *t,
	const struct sv_summary_opts *o)
{
	bool per_rank = o->per_rank;
	size_t i, k;

	/* With --group-by a "group" column: empty on a region's own rows,
	 * key=value on the rows of its groups. */
	sv_csv_field(c, "name");
	if (o->group_by)
		sv_csv_field(c, "group");
	sv_csv_field(c, "rank");
	sv_csv_field(c, "ranks");
	sv_csv_field(c, "num_calls");
	for (i = 0; i < sizeof csv_figs / sizeof csv_figs[0]; i++)
		sv_csv_field(c, summary_figs[csv_figs[i]].json);
	sv_csv_field(c, "rank_imbalance_pct");
	sv_csv_end_row(c);
	for (i = 0; i < t->nregions; i++) {
		const struct sv_stats_region *g = &t->regions[i];
		csv_row(c, g->name, o->group_by ? "" : NULL, -1, g->nranks,
			&g->s, &g->rank_imbalance_pct);
		for (k = 0; per_rank && k < g->nranks; k++)
			csv_row(c, g->name, o->group_by ? "" : NULL,
				(long)g->ranks[k].rank, 0, &g->ranks[k].s,
				NULL);
		for (k = 0; o->group_by && k < o->ngroups; k++) {
			const struct sv_stats_region *gg =
				summary_group_region(o, k, g->region);
			char *label;
			if (!gg)
				continue;
			label = summary_group_label(o, k);
			csv_row(c, g->name, label, -1, gg->nranks, &gg->s,
				&gg->rank_imbalance_pct);
			free(label);
		}
	}
}

/* ---- table ------------------------------------------------------------------ */

static const int table_figs[] = {SUMMARY_FIG_TOTAL, SUMMARY_FIG_EXCL,
	SUMMARY_FIG_AVG, SUMMARY_FIG_MIN, SUMMARY_FIG_MAX, SUMMARY_FIG_FIRST,
	SUMMARY_FIG_LAST, SUMMARY_FIG_STD, SUMMARY_FIG_P50, SUMMARY_FIG_P95,
	SUMMARY_FIG_P99};
#define TABLE_NFIGS (sizeof table_figs / sizeof table_figs[0])
#define TABLE_NCOLS (3 + TABLE_NFIGS + 1) /* name ranks calls ... imb */
#define TABLE_CELL  32

/* One line of the table: cells as text, with the name's display width. */
struct table_line {
	char *name;
	size_t name_w;
	char cell[TABLE_NCOLS][TABLE_CELL];
};

static void table_fill(struct table_line *l, const char *name, bool indent,
	const char *ranks, const struct sv_stats *s, const double *imbalance)
{
	size_t i, w;
	char *safe = sv_utf8_terminal_safe(name, &w);

	if (indent) {
		l->name = sv_xasprintf("  %s", safe);
		free(safe);
		l->name_w = w + 2;
	} else {
		l->name = safe;
		l->name_w = w;
	}
	snprintf(l->cell[1], TABLE_CELL, "%s", ranks);
	snprintf(l->cell[2], TABLE_CELL, "%" PRIu64, s->num_calls);
	for (i = 0; i < TABLE_NFIGS; i++) {
		double ns;
		/* Without calls every duration is '-', sums included, as
		 * scope-profiler's table prints None (JSON and CSV keep the
		 * true 0 of a sum over no calls). */
		if (s->num_calls == 0)
			snprintf(l->cell[3 + i], TABLE_CELL, "-");
		else if (summary_fig(s, table_figs[i], &ns))
			sv_fmt_dur_ex(ns, 3, 0, l->cell[3 + i], TABLE_CELL);
		else
			snprintf(l->cell[3 + i], TABLE_CELL, "-");
	}
	if (imbalance)
		snprintf(l->cell[TABLE_NCOLS - 1], TABLE_CELL, "%.1f%%",
			*imbalance);
	else
		l->cell[TABLE_NCOLS - 1][0] = '\0';
}

static void table_meta_line(FILE *out, const struct sv_profile *p,
	const char *key, const char *label, bool *any)
{
	const struct sv_meta *m = sv_profile_meta(p, key);
	char *safe;

	if (!m || !m->text)
		return;
	safe = sv_utf8_terminal_safe(m->text, NULL);
	fprintf(out, "%s%s: %s", *any ? ", " : "  ", label, safe);
	*any = true;
	free(safe);
}

/* Lines under the column heads, each name and cell freed here. */
static void table_print(FILE *out, struct table_line *lines, size_t nlines)
{
	static const char *const heads[TABLE_NCOLS] = {"region", "ranks",
		"calls", "total", "exclusive", "avg", "min", "max", "first",
		"last", "std", "p50", "p95", "p99", "imbalance"};
	size_t i, c, width[TABLE_NCOLS], total_w = 0;

	for (c = 0; c < TABLE_NCOLS; c++)
		width[c] = strlen(heads[c]);
	for (i = 0; i < nlines; i++) {
		if (lines[i].name_w > width[0])
			width[0] = lines[i].name_w;
		for (c = 1; c < TABLE_NCOLS; c++)
			if (strlen(lines[i].cell[c]) > width[c])
				width[c] = strlen(lines[i].cell[c]);
	}
	for (c = 0; c < TABLE_NCOLS; c++)
		total_w += width[c] + (c ? 2 : 0);

	fprintf(out, "  %-*s", (int)width[0], heads[0]);
	for (c = 1; c < TABLE_NCOLS; c++)
		fprintf(out, "  %*s", (int)width[c], heads[c]);
	fputs("\n  ", out);
	for (c = 0; c < total_w; c++)
		fputc('-', out);
	fputc('\n', out);
	for (i = 0; i < nlines; i++) {
		size_t last = TABLE_NCOLS - 1;
		/* No trailing blanks: stop after the last non-empty cell. */
		while (last > 0 && !lines[i].cell[last][0])
			last--;
		fprintf(out, "  %s", lines[i].name);
		if (last > 0)
			fprintf(out, "%*s", (int)(width[0] - lines[i].name_w),
				"");
		for (c = 1; c <= last; c++)
			fprintf(out, "  %*s", (int)width[c], lines[i].cell[c]);
		fputc('\n', out);
		free(lines[i].name);
	}
	free(lines);
}

/* The regions of t over every rank of the file (run), in t's order. */
static void table_whole_run(FILE *out, const struct sv_stats_table *t,
	const struct sv_stats_table *run)
{
	struct table_line *lines =
		sv_xcalloc(t->nregions ? t->nregions : 1, sizeof *lines);
	size_t i, n = 0;

	for (i = 0; i < t->nregions; i++) {
		const struct sv_stats_region *g =
			sv_stats_table_find(run, t->regions[i].region);
		char ranks[24];
		if (!g)
			continue;
		snprintf(ranks, sizeof ranks, "%zu", g->nranks);
		table_fill(&lines[n++], g->name, false, ranks, &g->s,
			&g->rank_imbalance_pct);
	}
	fprintf(out, "\n  The whole run, %" PRIu32 " rank%s%s:\n\n",
		run->num_ranks, run->num_ranks == 1 ? "" : "s",
		run->per_call ? "" : ", from the stored statistics");
	if (n)
		table_print(out, lines, n);
	else
		free(lines);
	if (!run->per_call)
		fputs("\n  The stored statistics hold no percentiles.\n", out);
}

static void summary_table(FILE *out, const struct sv_profile *p,
	const struct sv_stats_table *t, const char *file,
	const struct sv_summary_opts *o)
{
	bool per_rank = o->per_rank;
	const char *rank_list = o->ranks;
	struct table_line *lines;
	size_t nlines = 0, i, k;
	char *safe_file = sv_utf8_terminal_safe(file, NULL);
	char buf[64];
	bool any = false;

	/* Header: the file and the run's metadata. */
	fprintf(out, "Profile %s\n", safe_file);
	free(safe_file);
	table_meta_line(out, p, "label", "label", &any);
	table_meta_line(out, p, "timestamp", "timestamp", &any);
	table_meta_line(out, p, "hostname", "hostname", &any);
	table_meta_line(out, p, "mpi_size", "mpi_size", &any);
	table_meta_line(out, p, "num_nodes", "num_nodes", &any);
	table_meta_line(out, p, "omp_num_threads", "omp_num_threads", &any);
	if (any)
		fputc('\n', out);
	fprintf(out, "  layout: %s", summary_layout_name(p->layout));
	if (p->schema > 0)
		fprintf(out, " (schema %d)", p->schema);
	fprintf(out, ", ranks: %" PRIu32 ", regions: %zu", t->num_ranks,
		t->nregions);
	if (t->has_total_time)
		fprintf(out, ", total time: %s",
			sv_fmt_dur(t->total_time_ns, buf, sizeof buf));
	fputc('\n', out);
	if (rank_list) {
		char *safe = sv_utf8_terminal_safe(rank_list, NULL);
		fprintf(out, "  figures over ranks %s only\n", safe);
		free(safe);
	}
	if (p->nwarnings)
		fprintf(out, "  warnings: %zu (printed above)\n", p->nwarnings);
	fputc('\n', out);

	if (t->nregions == 0) {
		fputs("  (no regions)\n", out);
		return;
	}

	for (i = 0; i < t->nregions; i++)
		nlines += 1 + (per_rank ? t->regions[i].nranks : 0) +
			  (o->group_by ? o->ngroups : 0);
	lines = sv_xcalloc(nlines, sizeof *lines);
	nlines = 0;
	for (i = 0; i < t->nregions; i++) {
		const struct sv_stats_region *g = &t->regions[i];
		char ranks[24];
		snprintf(ranks, sizeof ranks, "%zu", g->nranks);
		table_fill(&lines[nlines++], g->name, false, ranks, &g->s,
			&g->rank_imbalance_pct);
		for (k = 0; per_rank && k < g->nranks; k++) {
			char label[32];
			snprintf(label, sizeof label, "rank %" PRIu32,
				g->ranks[k].rank);
			table_fill(&lines[nlines++], label, true, "",
				&g->ranks[k].s, NULL);
		}
		for (k = 0; o->group_by && k < o->ngroups; k++) {
			const struct sv_stats_region *gg =
				summary_group_region(o, k, g->region);
			char *label;
			if (!gg)
				continue;
			label = summary_group_label(o, k);
			snprintf(ranks, sizeof ranks, "%zu", gg->nranks);
			table_fill(&lines[nlines++], label, true, ranks, &gg->s,
				&gg->rank_imbalance_pct);
			free(label);
		}
	}
	table_print(out, lines, nlines);
	if (o->run)
		table_whole_run(out, t, o->run);

	if (o->counters)
		sv_summary_counters_table(out, p, t);
	fputs("\n  Durations in ns, us, ms and s; '-' = not recorded.\n", out);
	if (t->nregions > 1)
		fputs("  Regions may nest, so the summed totals can exceed the "
		      "wall-clock time.\n",
			out);
	for (i = 0; i < t->nregions && t->regions[i].s.num_calls; i++)
		;
	if (i < t->nregions)
		fputs("  Regions shown with '-' recorded no calls on the "
		      "selected ranks.\n",
			out);
	if (!t->per_call)
		fputs("  This profile holds no per-call data (aggregate "
		      "layout): "
		      "first, last, std\n  and percentiles were not "
		      "recorded.\n",
			out);
}

int sv_summary_write(FILE *out, const struct sv_profile *p,
	const struct sv_stats_table *t, const struct sv_summary_opts *o)
{
	struct sv_outbuf b;
	struct sv_json j;
	struct sv_csv c;
	int rc = 0;

	if (!out || !p || !t || !o)
		return -EINVAL;
	switch (o->format) {
	case SV_SUMMARY_JSON:
		sv_outbuf_init(&b, out);
		sv_json_init(&j, &b);
		summary_json(&j, p, t, o->file ? o->file : p->path, o);
		sv_json_fini(&j);
		rc = sv_outbuf_fini(&b);
		break;
	case SV_SUMMARY_CSV:
		sv_outbuf_init(&b, out);
		sv_csv_init(&c, &b);
		summary_csv(&c, t, o);
		rc = sv_outbuf_fini(&b);
		break;
	default:
		summary_table(out, p, t, o->file ? o->file : p->path, o);
	}
	if (rc < 0 || fflush(out) != 0 || ferror(out))
		return -EIO;
	return 0;
}
