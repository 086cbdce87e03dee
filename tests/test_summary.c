/*
 * test_summary.c: `scopeview summary`: number and unit formatting, the
 * three output formats on a small profile built in memory (exact CSV and
 * JSON text, the table's escaping and notes), and the command line (exit
 * 0, 1 and 2).
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/callmeta.h"
#include "scopeview/cli.h"
#include "scopeview/grid.h"
#include "scopeview/profile.h"
#include "scopeview/stats.h"
#include "scopeview/strv.h"
#include "scopeview/summary.h"
#include "scopeview/write.h"

/* ---- a small profile ---------------------------------------------------------- */

static void add_calls(struct sv_profile *p, uint32_t rank, const char *name,
	const int64_t *se, size_t n)
{
	int64_t reg = sv_profile_find_region(p, name);
	struct sv_row *r;
	size_t i;

	if (reg < 0)
		reg = sv_profile_add_region(p, name);
	r = sv_profile_add_row(p, rank, (uint32_t)reg, n, NULL);
	ck_assert_ptr_nonnull(r);
	for (i = 0; i < n; i++) {
		p->start_ns[r->first + i] = se[2 * i];
		p->end_ns[r->first + i] = se[2 * i + 1];
	}
}

/*
 * Two ranks; "solve" on both (rank 0: 10 and 30 ns, rank 1: 20 ns), a
 * region whose name has a comma and a quote, one with an escape
 * character, and metadata for the table's header.
 */
static struct sv_profile *small_profile(void)
{
	struct sv_profile *p = sv_profile_new("small.h5");
	struct sv_meta *m;
	static const int64_t s0[] = {100, 110, 200, 230};
	static const int64_t s1[] = {150, 170};
	static const int64_t q[] = {300, 301};
	static const int64_t e[] = {400, 500};
	struct sv_row *r;

	p->schema = 3;
	add_calls(p, 0, "solve", s0, 2);
	add_calls(p, 1, "solve", s1, 1);
	add_calls(p, 0, "a,b\"c", q, 1);
	add_calls(p, 1, "red\x1b[31m", e, 1);
	r = &p->rows[0];
	r->source_file = sv_xstrdup("solver.py");
	r->source_line = 7;
	r->tags = calloc(1, sizeof *r->tags);
	r->tags[0] = sv_xstrdup("golden");
	r->ntags = 1;
	m = sv_profile_add_meta(p, "label", SV_META_STRING);
	m->text = sv_xstrdup("nightly\ttest");
	m = sv_profile_add_meta(p, "mpi_size", SV_META_INT);
	m->i = 2;
	m->text = sv_xstrdup("2");
	m = sv_profile_add_meta(p, "start_time_ns", SV_META_INT);
	m->i = 50;
	m->text = sv_xstrdup("50");
	m = sv_profile_add_meta(p, "finalize_time_ns", SV_META_INT);
	m->i = 1000050;
	m->text = sv_xstrdup("1000050");
	m = sv_profile_add_meta(p, "modules", SV_META_STRINGS);
	m->strs = calloc(2, sizeof *m->strs);
	m->strs[0] = sv_xstrdup("numpy");
	m->strs[1] = sv_xstrdup("h5py");
	m->nstrs = 2;
	m->text = sv_xstrdup("numpy, h5py");
	p->num_ranks = 2;
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	sv_profile_warn(p, "a \"quoted\" warning\nwith a newline");
	return p;
}

/* Write p in format (per rank or not) to memory; returns the text. */
static char *render(const struct sv_profile *p, enum sv_summary_format fmt,
	bool per_rank, enum sv_stats_key sort)
{
	struct sv_stats_table t;
	struct sv_summary_opts o = {
		.format = fmt, .per_rank = per_rank, .file = "dir/small.h5"};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sv_stats_table_compute(&t, p, NULL, NULL), 0);
	sv_stats_table_sort(&t, sort);
	ck_assert_int_eq(sv_summary_write(f, p, &t, &o), 0);
	fclose(f);
	sv_stats_table_fini(&t);
	return buf;
}

START_TEST(csv_exact)
{
	struct sv_profile *p = small_profile();
	char *text = render(p, SV_SUMMARY_CSV, true, SV_STATS_KEY_START);
	/* Figures checked with numpy: np.std([10, 30, 20]) = 8.16496580927726,
	 * np.percentile([10, 20, 30], 99) = 29.8 (2.9800000000000002e-08 s),
	 * imbalance (4e-08 / mean(4e-08, 2e-08) - 1) * 100 = 33.33333333333333. */
	const char *want =
		"name,rank,ranks,num_calls,total_duration,exclusive_duration,"
		"average_duration,min_duration,max_duration,first_duration,"
		"last_duration,std_duration,p50_duration,p95_duration,"
		"p99_duration,gpu_total_duration,total_await_duration,"
		"rank_imbalance_pct\n"
		"solve,,2,3,6e-08,6e-08,2e-08,1e-08,3e-08,1e-08,3e-08,"
		"8.16496580927726e-09,2e-08,2.9e-08,2.9800000000000002e-08,,,"
		"33.33333333333333\n"
		"solve,0,,2,4e-08,4e-08,2e-08,1e-08,3e-08,1e-08,3e-08,1e-08,"
		"2e-08,2.9e-08,2.9800000000000002e-08,,,\n"
		"solve,1,,1,2e-08,2e-08,2e-08,2e-08,2e-08,2e-08,2e-08,0.0,"
		"2e-08,2e-08,2e-08,,,\n"
		"\"a,b\"\"c\",,1,1,1e-09,1e-09,1e-09,1e-09,1e-09,1e-09,1e-09,"
		"0.0,1e-09,1e-09,1e-09,,,0.0\n"
		"\"a,b\"\"c\",0,,1,1e-09,1e-09,1e-09,1e-09,1e-09,1e-09,1e-09,"
		"0.0,1e-09,1e-09,1e-09,,,\n"
		"red\x1b[31m,,1,1,1e-07,1e-07,1e-07,1e-07,1e-07,1e-07,1e-07,"
		"0.0,1e-07,1e-07,1e-07,,,0.0\n"
		"red\x1b[31m,1,,1,1e-07,1e-07,1e-07,1e-07,1e-07,1e-07,1e-07,"
		"0.0,1e-07,1e-07,1e-07,,,\n";

	ck_assert_str_eq(text, want);
	free(text);
	/* Without --per-rank, one row per region. */
	text = render(p, SV_SUMMARY_CSV, false, SV_STATS_KEY_START);
	{
		int lines = 0;
		const char *c;
		for (c = text; *c; c++)
			lines += *c == '\n';
		ck_assert_int_eq(lines, 4);
	}
	free(text);
	sv_profile_free(p);
}
END_TEST

START_TEST(json_shape)
{
	struct sv_profile *p = small_profile();
	char *text = render(p, SV_SUMMARY_JSON, false, SV_STATS_KEY_START);
	json_error_t jerr;
	json_t *j = json_loads(text, 0, &jerr), *g, *r, *meta;
	static const char *const top[] = {"file", "schema", "layout",
		"num_ranks", "time_origin_ns", "minimum_start_ns", "warnings",
		"metadata", "regions"};
	static const char *const reg[] = {"name", "num_calls", "total_duration",
		"average_duration", "min_duration", "max_duration",
		"first_duration", "last_duration", "std_duration",
		"p50_duration", "p95_duration", "p99_duration",
		"inclusive_duration", "exclusive_duration",
		"gpu_total_duration", "total_await_duration",
		"rank_imbalance_pct", "tags", "source_file", "source_lineno",
		"ranks"};
	size_t i;
	const char *key;
	json_t *v;

	ck_assert_msg(j != NULL, "not JSON (%s):\n%s", jerr.text, text);
	/* exactly the documented keys, in the documented order */
	i = 0;
	json_object_foreach(j, key, v)
	{
		(void)v;
		ck_assert_uint_lt(i, sizeof top / sizeof top[0]);
		ck_assert_str_eq(key, top[i++]);
	}
	ck_assert_str_eq(
		json_string_value(json_object_get(j, "file")), "dir/small.h5");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "schema")), 3);
	ck_assert_str_eq(
		json_string_value(json_object_get(j, "layout")), "columnar");
	ck_assert_int_eq(
		json_integer_value(json_object_get(j, "num_ranks")), 2);
	ck_assert_int_eq(
		json_integer_value(json_object_get(j, "time_origin_ns")), 50);
	ck_assert_int_eq(
		json_integer_value(json_object_get(j, "minimum_start_ns")),
		100);
	ck_assert_str_eq(json_string_value(json_array_get(
				 json_object_get(j, "warnings"), 0)),
		"a \"quoted\" warning\nwith a newline");
	meta = json_object_get(j, "metadata");
	ck_assert_str_eq(json_string_value(json_object_get(meta, "label")),
		"nightly\ttest");
	ck_assert_int_eq(
		json_integer_value(json_object_get(meta, "mpi_size")), 2);
	ck_assert_str_eq(json_string_value(json_array_get(
				 json_object_get(meta, "modules"), 1)),
		"h5py");

	ck_assert_uint_eq(json_array_size(json_object_get(j, "regions")), 3);
	g = json_array_get(json_object_get(j, "regions"), 0);
	i = 0;
	json_object_foreach(g, key, v)
	{
		(void)v;
		ck_assert_uint_lt(i, sizeof reg / sizeof reg[0]);
		ck_assert_str_eq(key, reg[i++]);
	}
	ck_assert_str_eq(
		json_string_value(json_object_get(g, "name")), "solve");
	ck_assert_int_eq(
		json_integer_value(json_object_get(g, "num_calls")), 3);
	ck_assert(json_is_real(json_object_get(g, "total_duration")));
	ck_assert_double_eq(
		json_real_value(json_object_get(g, "total_duration")), 6e-08);
	ck_assert(json_is_null(json_object_get(g, "gpu_total_duration")));
	ck_assert(json_is_null(json_object_get(g, "total_await_duration")));
	ck_assert_str_eq(json_string_value(
				 json_array_get(json_object_get(g, "tags"), 0)),
		"golden");
	ck_assert_str_eq(json_string_value(json_object_get(g, "source_file")),
		"solver.py");
	ck_assert_int_eq(
		json_integer_value(json_object_get(g, "source_lineno")), 7);
	ck_assert_uint_eq(json_array_size(json_object_get(g, "ranks")), 2);
	r = json_array_get(json_object_get(g, "ranks"), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(r, "rank")), 1);
	ck_assert_ptr_null(json_object_get(r, "rank_imbalance_pct"));
	ck_assert_int_eq(
		json_integer_value(json_object_get(r, "first_start_ns")), 150);
	ck_assert_int_eq(
		json_integer_value(json_object_get(r, "last_end_ns")), 170);
	ck_assert(json_is_null(json_object_get(r, "source_file")));
	ck_assert(json_is_null(json_object_get(r, "source_lineno")));
	/* names exactly as stored: the escape character is only JSON-escaped */
	g = json_array_get(json_object_get(j, "regions"), 2);
	ck_assert_str_eq(
		json_string_value(json_object_get(g, "name")), "red\x1b[31m");
	ck_assert_ptr_nonnull(strstr(text, "\"red\\u001b[31m\""));
	ck_assert_ptr_null(strchr(text, '\x1b'));
	json_decref(j);
	free(text);
	sv_profile_free(p);
}
END_TEST

START_TEST(json_sorted_and_nulls)
{
	struct sv_profile *p = sv_profile_new("agg.h5");
	struct sv_row *r;
	char *text;
	json_t *j, *g;

	p->layout = SV_LAYOUT_AGGREGATE;
	p->has_calls = false;
	sv_profile_add_region(p, "small");
	sv_profile_add_region(p, "big");
	r = sv_profile_add_row(p, 0, 0, 2, NULL);
	r->has_summary = true;
	r->summary.total = 10;
	r->summary.minimum = 4;
	r->summary.maximum = 6;
	r->exclusive_total = 10;
	r = sv_profile_add_row(p, 0, 1, 1, NULL);
	r->has_summary = true;
	r->summary.total = 90;
	r->summary.minimum = r->summary.maximum = 90;
	r->exclusive_total = 90;
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	text = render(p, SV_SUMMARY_JSON, false, SV_STATS_KEY_TOTAL);
	j = json_loads(text, 0, NULL);
	ck_assert_ptr_nonnull(j);
	ck_assert(json_is_null(json_object_get(j, "schema")));
	ck_assert_str_eq(
		json_string_value(json_object_get(j, "layout")), "aggregate");
	ck_assert(json_is_null(json_object_get(j, "minimum_start_ns")));
	g = json_array_get(json_object_get(j, "regions"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(g, "name")), "big");
	ck_assert(json_is_null(json_object_get(g, "first_duration")));
	ck_assert(json_is_null(json_object_get(g, "std_duration")));
	ck_assert(json_is_null(json_object_get(g, "p95_duration")));
	ck_assert(json_is_null(
		json_object_get(json_array_get(json_object_get(g, "ranks"), 0),
			"first_start_ns")));
	ck_assert_double_eq(
		json_real_value(json_object_get(g, "exclusive_duration")),
		9e-08);
	json_decref(j);
	free(text);

	text = render(p, SV_SUMMARY_TABLE, false, SV_STATS_KEY_START);
	ck_assert_ptr_nonnull(strstr(text, "holds no per-call data"));
	ck_assert_ptr_nonnull(strstr(text, "layout: aggregate,"));
	free(text);
	sv_profile_free(p);
}
END_TEST

START_TEST(table_text)
{
	struct sv_profile *p = small_profile();
	char *text = render(p, SV_SUMMARY_TABLE, true, SV_STATS_KEY_START);
	const char *line;

	/* header: file, metadata (escaped), layout, total time */
	ck_assert_msg(!strncmp(text, "Profile dir/small.h5\n", 21), "%s", text);
	ck_assert_ptr_nonnull(strstr(text, "label: nightly\\x09test"));
	ck_assert_ptr_nonnull(strstr(text, "mpi_size: 2"));
	ck_assert_ptr_nonnull(strstr(text,
		"layout: columnar (schema 3), ranks: 2, regions: 3, "
		"total time: 1.00 ms\n"));
	ck_assert_ptr_nonnull(strstr(text, "warnings: 1"));
	/* terminal-safe names */
	ck_assert_ptr_null(strchr(text, '\x1b'));
	ck_assert_ptr_nonnull(strstr(text, "  red\\x1b[31m  "));
	/* the column heads and a row, aligned */
	line = strstr(text, "  region ");
	ck_assert_ptr_nonnull(line);
	ck_assert_ptr_nonnull(strstr(line, "calls"));
	ck_assert_ptr_nonnull(strstr(line, "exclusive"));
	ck_assert_ptr_nonnull(strstr(line, "imbalance"));
	line = strstr(text, "\n  solve ");
	ck_assert_ptr_nonnull(line);
	ck_assert_ptr_nonnull(strstr(line, "60 ns"));
	ck_assert_ptr_nonnull(strstr(line, "33.3%"));
	ck_assert_ptr_nonnull(strstr(text, "\n    rank 0 "));
	ck_assert_ptr_nonnull(strstr(text, "\n    rank 1 "));
	/* rows are aligned: every table line has the width of the rule
	 * (lines with an imbalance) */
	{
		const char *rule = strstr(text, "\n  ---");
		size_t w = strcspn(rule + 1, "\n");
		const char *row = strstr(text, "\n  solve ");
		ck_assert_uint_eq(strcspn(row + 1, "\n"), w);
		ck_assert_uint_eq(strcspn(line - 0 + 1, "\n"), w);
	}
	/* no trailing blanks */
	ck_assert_ptr_null(strstr(text, " \n"));
	free(text);
	sv_profile_free(p);
}
END_TEST

/* Durations in the table round before they pick the unit (fmt.h): a
 * call of 999,999,500 ns is "1.00 s", never "1000 ms". */
/* --group-by: every figure per value of a metadata key under each region
 * (issue 13), in the three formats. */
START_TEST(group_by_formats)
{
	struct sv_profile *p = small_profile();
	struct sv_stats_table t, gt[3];
	struct sv_summary_group groups[3];
	struct sv_stats_filter f = {0};
	char **values, why[64], *buf[3];
	uint32_t *group_of, c;
	bool *on = malloc(p->ncalls);
	size_t nv, k, len;
	json_t *root, *solve;
	int fmt;

	ck_assert_int_eq(sv_callmeta_set_row(p, p->rows[0].first, 2,
				 "[{\"phase\": \"steady\"}, {\"phase\": "
				 "\"warm\\u00e9\"}]",
				 why, sizeof why),
		0);
	ck_assert_int_eq(
		sv_callmeta_set_row(p, p->rows[1].first, 1,
			"[{\"phase\": \"steady\", \"n\": 1}]", why, sizeof why),
		0);
	nv = sv_callmeta_groups(p, "phase", &values, &group_of);
	ck_assert_uint_eq(nv, 2);
	ck_assert_str_eq(values[0], "\"steady\"");
	ck_assert_str_eq(values[1], "\"warm\\u00e9\"");
	ck_assert_int_eq(sv_stats_table_compute(&t, p, NULL, NULL), 0);
	f.call_on = on;
	for (k = 0; k <= nv; k++) {
		for (c = 0; c < p->ncalls; c++)
			on[c] = group_of[c] ==
				(k < nv ? (uint32_t)k : SV_CALLMETA_NO_GROUP);
		ck_assert_int_eq(
			sv_stats_table_compute(&gt[k], p, &f, NULL), 0);
		groups[k].value = k < nv ? values[k] : NULL;
		groups[k].t = &gt[k];
	}
	for (fmt = 0; fmt < 3; fmt++) {
		struct sv_summary_opts o = {
			.format = (enum sv_summary_format)fmt,
			.file = "g.h5",
			.group_by = "phase",
			.groups = groups,
			.ngroups = nv + 1};
		FILE *mf = open_memstream(&buf[fmt], &len);
		ck_assert_int_eq(sv_summary_write(mf, p, &t, &o), 0);
		fclose(mf);
	}
	ck_assert_ptr_nonnull(
		strstr(buf[SV_SUMMARY_TABLE], "\n    phase=steady "));
	ck_assert_ptr_nonnull(
		strstr(buf[SV_SUMMARY_TABLE], "\n    phase=warm\xc3\xa9 "));
	ck_assert_ptr_nonnull(strstr(buf[SV_SUMMARY_TABLE], "\n    phase=- "));
	ck_assert_ptr_nonnull(strstr(
		buf[SV_SUMMARY_CSV], "name,group,rank,ranks,num_calls,"));
	ck_assert_ptr_nonnull(strstr(
		buf[SV_SUMMARY_CSV], "\nsolve,phase=steady,,2,2,3e-08,"));
	ck_assert_ptr_nonnull(strstr(
		buf[SV_SUMMARY_CSV], "\nsolve,phase=warm\xc3\xa9,,2,1,3e-08,"));
	root = json_loads(buf[SV_SUMMARY_JSON], 0, NULL);
	ck_assert_ptr_nonnull(root);
	ck_assert_str_eq(
		json_string_value(json_object_get(root, "group_by")), "phase");
	solve = json_array_get(json_object_get(root, "regions"), 0);
	ck_assert_str_eq(
		json_string_value(json_object_get(solve, "name")), "solve");
	ck_assert_uint_eq(json_array_size(json_object_get(solve, "groups")), 2);
	ck_assert_str_eq(
		json_string_value(json_object_get(
			json_array_get(json_object_get(solve, "groups"), 1),
			"value")),
		"warm\xc3\xa9");
	ck_assert(json_is_null(json_object_get(
		json_array_get(
			json_object_get(
				json_array_get(
					json_object_get(root, "regions"), 1),
				"groups"),
			0),
		"value")));
	json_decref(root);
	for (k = 0; k <= nv; k++)
		sv_stats_table_fini(&gt[k]);
	for (fmt = 0; fmt < 3; fmt++)
		free(buf[fmt]);
	sv_stats_table_fini(&t);
	sv_strv_free_array(values, nv);
	free(group_of);
	free(on);
	sv_profile_free(p);
}
END_TEST

START_TEST(table_rounding_carry)
{
	struct sv_profile *p = sv_profile_new("carry.h5");
	static const int64_t se[] = {0, 999999500, 2000000000, 2000099950};
	char *text;

	p->schema = 3;
	add_calls(p, 0, "carry", se, 2);
	p->num_ranks = 1;
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	text = render(p, SV_SUMMARY_TABLE, true, SV_STATS_KEY_START);
	ck_assert_msg(strstr(text, "1.00 s") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "1000 ms") == NULL, "%s", text);
	/* the short call: 99,950 ns is "100 us", not "100.0 us" */
	ck_assert_msg(strstr(text, "100 us") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "100.0 us") == NULL, "%s", text);
	free(text);
	sv_profile_free(p);
}
END_TEST

/* Display columns of the first line of s. */
static size_t line_width(const char *s)
{
	size_t n = strcspn(s, "\n"), i = 0, w = 0;
	while (i < n) {
		uint32_t cp;
		i += sv_utf8_decode(s + i, n - i, &cp);
		w += (size_t)sv_utf8_width(cp);
	}
	return w;
}

/* Wide characters take two columns and bidi controls are shown, so the
 * columns stay aligned on a terminal. */
START_TEST(table_wide_and_bidi)
{
	struct sv_profile *p = sv_profile_new("wide.h5");
	static const int64_t a[] = {0, 10}, b[] = {20, 30}, c[] = {40, 50};
	const char *rule, *row;
	char *text;

	add_calls(p, 0, "ab", a, 1);
	add_calls(p, 0, "\xe8\xa7\xa3\xe6\x9e\x90x", b, 1); /* 解析x */
	add_calls(p, 0, "r\xe2\x80\xaeltx", c, 1);          /* U+202E */
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	text = render(p, SV_SUMMARY_TABLE, false, SV_STATS_KEY_START);
	ck_assert_ptr_null(strstr(text, "\xe2\x80\xae"));
	ck_assert_ptr_nonnull(strstr(text, "r\\u202eltx"));
	rule = strstr(text, "\n  ---") + 1;
	for (row = strchr(rule, '\n') + 1; row[0] == ' ' && row[2] != ' ';
		row = strchr(row, '\n') + 1)
		ck_assert_msg(line_width(row) == line_width(rule),
			"row '%.*s' is %zu columns, the rule %zu",
			(int)strcspn(row, "\n"), row, line_width(row),
			line_width(rule));
	free(text);
	sv_profile_free(p);
}
END_TEST

START_TEST(empty_profile_formats)
{
	struct sv_profile *p = sv_profile_new("empty.h5");
	char *text;
	json_t *j;

	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	text = render(p, SV_SUMMARY_JSON, false, SV_STATS_KEY_START);
	j = json_loads(text, 0, NULL);
	ck_assert_msg(j != NULL, "%s", text);
	ck_assert_uint_eq(json_array_size(json_object_get(j, "regions")), 0);
	json_decref(j);
	free(text);
	text = render(p, SV_SUMMARY_TABLE, false, SV_STATS_KEY_START);
	ck_assert_ptr_nonnull(strstr(text, "(no regions)"));
	free(text);
	text = render(p, SV_SUMMARY_CSV, false, SV_STATS_KEY_START);
	ck_assert_uint_eq(strlen(text), strcspn(text, "\n") + 1);
	free(text);
	ck_assert_int_eq(sv_summary_write(NULL, p, NULL, NULL), -EINVAL);
	sv_profile_free(p);
}
END_TEST

/* ---- the command line ---------------------------------------------------------- */

struct summary_argv {
	char *argv[32];
	int argc;
};

static int summary_run_argv(void *v)
{
	struct summary_argv *a = v;
	return sv_cli_run(&sv_cli_summary_cmd, a->argc, a->argv);
}

/* Run `scopeview summary` with args (NULL-terminated) with stdout and
 * stderr sent to files; returns the exit status; *out and *err get the
 * texts. */
static int run_main(const char *const *args, char **out, char **err)
{
	struct summary_argv a;

	a.argc = 0;
	a.argv[a.argc++] = (char *)"summary";
	while (args[a.argc - 1])
		a.argv[a.argc] = (char *)args[a.argc - 1], a.argc++;
	a.argv[a.argc] = NULL;
	return svt_captured(summary_run_argv, &a, out, err);
}

static const struct {
	const char *args[6];
	int status;
	const char *err; /* part of stderr */
} cli_cases[] = {
	{{"--bogus", "x.h5"}, 2, "unknown option '--bogus'"},
	{{"--format", "xml", "x.h5"}, 2, "unknown format 'xml'"},
	{{"--format=yaml", "x.h5"}, 2, "unknown format 'yaml'"},
	{{"--sort", "speed", "x.h5"}, 2, "unknown sort key 'speed'"},
	{{"--sort"}, 2, "--sort needs a value"},
	{{"x.h5", "--include"}, 2, "--include needs a value"},
	{{"--include", "a(", "x.h5"}, 2, "bad regex 'a('"},
	{{"--exclude", "[", "x.h5"}, 2, "bad regex '['"},
	{{"--ranks", "3-1", "x.h5"}, 2, "bad rank list '3-1'"},
	{{"--ranks", "x", "x.h5"}, 2, "bad rank list"},
	{{"--ranks", "1,", "x.h5"}, 2, "expected a rank number at the end"},
	{{"--ranks", "1-", "x.h5"}, 2,
		"expected the end of a range at the end"},
	{{"a.h5", "b.h5"}, 2, "more than one FILE"},
	{{"--per-rank"}, 2, "no FILE given"},
	{{NULL}, 2, "no FILE given"},
	{{"/nonexistent/run.h5"}, 1, "scopeview: "},
	{{"--", "--per-rank"}, 1, "scopeview: "},
};

START_TEST(cli_errors)
{
	char *out, *err;
	int rc = run_main(cli_cases[_i].args, &out, &err);

	ck_assert_msg(rc == cli_cases[_i].status, "case %d: status %d", _i, rc);
	ck_assert_msg(err && strstr(err, cli_cases[_i].err),
		"case %d: stderr '%s' lacks '%s'", _i, err ? err : "",
		cli_cases[_i].err);
	if (rc == 2)
		ck_assert_msg(strstr(err, "usage: scopeview summary") != NULL,
			"no usage line: %s", err);
	if (rc == 1) {
		/* one line: "scopeview: <message>" */
		ck_assert_uint_eq(strcspn(err, "\n") + 1, strlen(err));
		ck_assert_msg(!strncmp(err, "scopeview: ", 11), "%s", err);
	}
	ck_assert_str_eq(out, "");
	free(out);
	free(err);
}
END_TEST

START_TEST(cli_help)
{
	static const char *const args[] = {"--help", NULL};
	char *out, *err;

	ck_assert_int_eq(run_main(args, &out, &err), 0);
	ck_assert_ptr_nonnull(strstr(out, "usage: scopeview summary"));
	ck_assert_ptr_nonnull(strstr(out, "exclusive"));
	ck_assert_ptr_nonnull(strstr(out, "imbalance"));
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
}
END_TEST

/* On a real file (a fixture): each format, and the options together. */
/* --counters: perf and LIKWID sets with their IPC (the fixture holds
 * both for "solve"); --group-by on a file without metadata: every call
 * in the null group. */
START_TEST(cli_counters_and_group_by)
{
	char *path = svt_fixture("gpu_likwid_perf_lineprof.h5");
	char *out, *err;
	json_t *j, *solve = NULL, *c;
	size_t i;

	{
		const char *args[] = {
			"--format", "json", "--counters", path, NULL};
		ck_assert_int_eq(run_main(args, &out, &err), 0);
		j = json_loads(out, 0, NULL);
		ck_assert_msg(j != NULL, "%s", out);
		for (i = 0; i < json_array_size(json_object_get(j, "regions"));
			i++) {
			json_t *r = json_array_get(
				json_object_get(j, "regions"), i);
			if (!strcmp(json_string_value(
					    json_object_get(r, "name")),
				    "solve"))
				solve = r;
		}
		ck_assert_ptr_nonnull(solve);
		c = json_object_get(solve, "counters");
		ck_assert_uint_eq(json_array_size(c), 2);
		ck_assert_str_eq(json_string_value(json_object_get(
					 json_array_get(c, 1), "source")),
			"perf_events");
		ck_assert(fabs(json_real_value(json_object_get(
				       json_object_get(
					       json_array_get(c, 1), "rates"),
				       "IPC")) -
				  234567.0 / 123456.0) < 1e-12);
		json_decref(j);
		free(out);
		free(err);
	}
	{
		const char *args[] = {"--counters", path, NULL};
		ck_assert_int_eq(run_main(args, &out, &err), 0);
		ck_assert_ptr_nonnull(strstr(out,
			"    solve  rank 0  perf  calls 3  cycles 123456  "
			"instructions 234567  IPC 1.900\n"));
		free(out);
		free(err);
	}
	{
		const char *args[] = {
			"--format", "json", "--group-by", "phase", path, NULL};
		ck_assert_int_eq(run_main(args, &out, &err), 0);
		j = json_loads(out, 0, NULL);
		ck_assert_msg(j != NULL, "%s", out);
		ck_assert_str_eq(
			json_string_value(json_object_get(j, "group_by")),
			"phase");
		solve = json_array_get(json_object_get(j, "regions"), 0);
		c = json_array_get(json_object_get(solve, "groups"), 0);
		ck_assert(json_is_null(json_object_get(c, "value")));
		ck_assert_int_eq(
			json_integer_value(json_object_get(c, "num_calls")),
			json_integer_value(
				json_object_get(solve, "num_calls")));
		json_decref(j);
		free(out);
		free(err);
	}
	{
		const char *args[] = {"--group-by", "", path, NULL};
		ck_assert_int_eq(run_main(args, &out, &err), 2);
		free(out);
		free(err);
	}
	free(path);
}
END_TEST

START_TEST(cli_on_fixture)
{
	char *path = svt_fixture("four_ranks.h5");
	char *out, *err;
	json_t *j;

	{
		const char *args[] = {"--format", "json", "--ranks", "1-2",
			"--include", "s", path, NULL};
		ck_assert_int_eq(run_main(args, &out, &err), 0);
		j = json_loads(out, 0, NULL);
		ck_assert_msg(j != NULL, "%s", out);
		/* setup, solve: anchored matches only */
		ck_assert_uint_eq(
			json_array_size(json_object_get(j, "regions")), 2);
		ck_assert_uint_eq(
			json_array_size(json_object_get(
				json_array_get(
					json_object_get(j, "regions"), 0),
				"ranks")),
			2);
		json_decref(j);
		free(out);
		free(err);
	}
	{
		const char *args[] = {"--format=csv", "--per-rank", "--sort",
			"name", "--exclude", "fib|io", path, NULL};
		ck_assert_int_eq(run_main(args, &out, &err), 0);
		ck_assert_msg(!strncmp(out, "name,rank,", 10), "%s", out);
		ck_assert_ptr_nonnull(strstr(out, "\nassemble,,4,"));
		ck_assert_ptr_nonnull(strstr(out, "\nassemble,3,,"));
		ck_assert_ptr_null(strstr(out, "\nfib,"));
		/* sorted by name: assemble first, timestep last */
		ck_assert_ptr_nonnull(strstr(out, "\ntimestep,3,"));
		ck_assert_ptr_null(
			strstr(strstr(out, "\ntimestep,"), "\nmain"));
		free(out);
		free(err);
	}
	{
		const char *args[] = {path, NULL};
		ck_assert_int_eq(run_main(args, &out, &err), 0);
		ck_assert_ptr_nonnull(strstr(out, "Profile "));
		ck_assert_ptr_nonnull(strstr(out, "hostname: node0"));
		ck_assert_ptr_null(strstr(out, "figures over ranks"));
		free(out);
		free(err);
	}
	{
		const char *args[] = {
			"--ranks", "0,2-3", "--per-rank", path, NULL};
		ck_assert_int_eq(run_main(args, &out, &err), 0);
		ck_assert_ptr_nonnull(
			strstr(out, "figures over ranks 0,2-3 only"));
		ck_assert_ptr_nonnull(strstr(out, "\n    rank 2 "));
		ck_assert_ptr_null(strstr(out, "\n    rank 1 "));
		free(out);
		free(err);
	}
	free(path);
}
END_TEST

/* --ranks naming ranks without data is no error (scope-profiler's summary
 * lists the regions with no calls then), but it is said plainly: a
 * warning on stderr naming them, and in the table every duration of a
 * region without calls is '-' (exclusive too, as scope-profiler prints
 * None), with scope-profiler's note under the table. */
START_TEST(cli_ranks_without_data)
{
	char *path = svt_fixture("four_ranks.h5");
	char *out, *err;

	{
		const char *args[] = {"--ranks", "2,9,11-12", path, NULL};
		ck_assert_int_eq(run_main(args, &out, &err), 0);
		ck_assert_msg(strstr(err, "scopeview: warning: --ranks: no "
					  "data for ranks 9,11-12 (the "
					  "profile has ranks 0-3)") != NULL,
			"%s", err);
		ck_assert_ptr_null(strstr(out, "recorded no calls"));
		free(out);
		free(err);
	}
	{
		const char *args[] = {"--ranks", "9", path, NULL};
		ck_assert_int_eq(run_main(args, &out, &err), 0);
		ck_assert_msg(
			strstr(err, "no data for rank 9 (") != NULL, "%s", err);
		ck_assert_msg(strstr(out, "\n  main          0      0      - "
					  "         -    -") != NULL,
			"%s", out);
		ck_assert_ptr_nonnull(strstr(out,
			"Regions shown with '-' recorded no calls on the "
			"selected ranks."));
		/* the subset's table (the whole run's follows it) */
		ck_assert_ptr_nonnull(
			strstr(out, "\n  The whole run, 4 ranks"));
		*strstr(out, "\n  The whole run, 4 ranks") = '\0';
		ck_assert_ptr_null(strstr(out, "0 ns"));
		free(out);
		free(err);
	}
	{
		const char *args[] = {"--ranks", "0-3", path, NULL};
		ck_assert_int_eq(run_main(args, &out, &err), 0);
		ck_assert_str_eq(err, "");
		free(out);
		free(err);
	}
	free(path);
}
END_TEST

/* A file whose lane holds a partial overlap: it loads, the warning goes to
 * stderr (one line each, "scopeview: warning: ") and into JSON's
 * "warnings", and the figures are still printed. */
START_TEST(cli_warnings)
{
	char *path = svt_tmp_path("overlap.h5");
	struct sv_writer_opts o;
	struct sv_writer *w;
	struct sv_error e = {0};
	static const int64_t start[] = {10, 20, 100};
	static const int64_t end[] = {30, 40, 150};
	static const struct sv_write_row rows[] = {
		{"sol\x1b[2Jve\nx", 2, NULL, -1, NULL, NULL, 0, 0},
		{"io", 1, NULL, -1, NULL, NULL, 0, 0},
	};
	struct sv_write_rank r = {0};
	char *out, *err;
	json_t *j;
	const char *args[] = {"--format", "json", path, NULL};

	sv_writer_opts_init(&o);
	o.exclusive = SV_WRITE_EXCL_UNKNOWN;
	ck_assert_int_eq(sv_writer_open(&w, path, &o, &e), 0);
	r.rows = rows;
	r.nrows = 2;
	r.ncalls = 3;
	r.start_ns = start;
	r.end_ns = end;
	ck_assert_int_eq(sv_writer_add_rank(w, &r, &e), 0);
	ck_assert_msg(sv_writer_close(w, &e) == 0, "%s", e.msg);

	ck_assert_int_eq(run_main(args, &out, &err), 0);
	ck_assert_msg(!strncmp(err, "scopeview: warning: ", 20), "%s", err);
	{
		/* every stderr line is a warning line */
		const char *l;
		for (l = err; *l; l = strchr(l, '\n') + 1)
			ck_assert_msg(!strncmp(l, "scopeview: warning: ", 20),
				"%s", l);
	}
	/* the region name in the warning is shown safely on the terminal */
	ck_assert_ptr_null(strchr(err, '\x1b'));
	ck_assert_msg(strstr(err, "sol\\x1b[2Jve\\x0ax") != NULL, "%s", err);
	j = json_loads(out, 0, NULL);
	ck_assert_msg(j != NULL, "%s", out);
	ck_assert_uint_ge(json_array_size(json_object_get(j, "warnings")), 1);
	/* JSON keeps the text as it is */
	ck_assert_ptr_nonnull(
		strstr(json_string_value(json_array_get(
			       json_object_get(j, "warnings"), 0)),
			"sol\x1b[2Jve\nx"));
	ck_assert_uint_eq(json_array_size(json_object_get(j, "regions")), 2);
	json_decref(j);
	free(out);
	free(err);
	free(path);
}
END_TEST

/* The figure key of region name in a JSON regions array, or NULL. */
static json_t *region_fig(json_t *regions, const char *name, const char *key)
{
	size_t i;
	for (i = 0; i < json_array_size(regions); i++) {
		json_t *g = json_array_get(regions, i);
		if (!strcmp(json_string_value(json_object_get(g, "name")),
			    name))
			return json_object_get(g, key);
	}
	return NULL;
}

START_TEST(cli_whole_run_beside_subset)
{
	char *path = svt_fixture("four_ranks.h5");
	char *out, *err, *out_all, *err_all;
	const char *sub[] = {"--format", "json", "--ranks", "1", path, NULL};
	const char *all[] = {"--format", "json", path, NULL};
	const char *keys[] = {"num_calls", "total_duration", "min_duration",
		"max_duration", "average_duration", "exclusive_duration",
		"rank_imbalance_pct"};
	json_t *j, *ja, *run, *full;
	size_t i, k;

	/* given the summary of rank 1 and the summary of every rank */
	ck_assert_int_eq(run_main(sub, &out, &err), 0);
	ck_assert_int_eq(run_main(all, &out_all, &err_all), 0);
	j = json_loads(out, 0, NULL);
	ja = json_loads(out_all, 0, NULL);
	ck_assert_ptr_nonnull(j);
	ck_assert_ptr_nonnull(ja);
	/* then the subset's JSON carries the whole run, from the stored
	 * statistics, and its figures are the full summary's */
	run = json_object_get(j, "whole_run");
	ck_assert_ptr_nonnull(run);
	ck_assert_int_eq(
		json_integer_value(json_object_get(run, "num_ranks")), 4);
	ck_assert(json_is_false(json_object_get(run, "per_call")));
	full = json_object_get(ja, "regions");
	ck_assert_uint_eq(json_array_size(json_object_get(run, "regions")),
		json_array_size(full));
	for (i = 0; i < json_array_size(full); i++) {
		const char *name = json_string_value(
			json_object_get(json_array_get(full, i), "name"));
		for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
			json_t *a = region_fig(full, name, keys[k]),
			       *b = region_fig(json_object_get(run, "regions"),
				       name, keys[k]);
			ck_assert_msg(b != NULL, "%s %s", name, keys[k]);
			ck_assert_msg(fabs(json_number_value(a) -
					      json_number_value(b)) <=
					      1e-9 * fabs(json_number_value(a)),
				"%s %s: %g vs %g", name, keys[k],
				json_number_value(a), json_number_value(b));
		}
		/* and the subset's own figures are rank 1's alone */
		ck_assert_int_lt(json_integer_value(region_fig(
					 json_object_get(j, "regions"), name,
					 "num_calls")),
			json_integer_value(
				region_fig(full, name, "num_calls")));
	}
	/* without --ranks there is no whole_run */
	ck_assert_ptr_null(json_object_get(ja, "whole_run"));
	json_decref(j);
	json_decref(ja);
	free(out);
	free(err);
	free(out_all);
	free(err_all);

	/* the table has the whole run as a second table */
	{
		const char *args[] = {"--ranks", "0,2", path, NULL};
		ck_assert_int_eq(run_main(args, &out, &err), 0);
		ck_assert_ptr_nonnull(strstr(out,
			"The whole run, 4 ranks, from the stored statistics:"));
		ck_assert_ptr_nonnull(
			strstr(out, "\n  main          4      4   597 us"));
		free(out);
		free(err);
	}
	free(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("summary");
	TCase *tc;

	tc = tcase_create("formats");
	tcase_add_test(tc, csv_exact);
	tcase_add_test(tc, json_shape);
	tcase_add_test(tc, json_sorted_and_nulls);
	tcase_add_test(tc, table_text);
	tcase_add_test(tc, table_rounding_carry);
	tcase_add_test(tc, group_by_formats);
	tcase_add_test(tc, table_wide_and_bidi);
	tcase_add_test(tc, empty_profile_formats);
	suite_add_tcase(s, tc);

	tc = tcase_create("cli");
	tcase_add_loop_test(
		tc, cli_errors, 0, sizeof cli_cases / sizeof cli_cases[0]);
	tcase_add_test(tc, cli_help);
	tcase_add_test(tc, cli_on_fixture);
	tcase_add_test(tc, cli_whole_run_beside_subset);
	tcase_add_test(tc, cli_counters_and_group_by);
	tcase_add_test(tc, cli_ranks_without_data);
	tcase_add_test(tc, cli_warnings);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
