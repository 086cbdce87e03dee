/*
 * test_report.c: the writers of `scopeview ranks`, `calls`, `diff`,
 * `scaling` and `trend` (report.h): the JSON shapes parsed back with
 * jansson (scaling's and trend's key by key: the issue's shapes are a
 * contract), CSV rows, the table's '-' for absent cells, bad arguments
 * and a write error.  The figures themselves are checked against numpy
 * by e2e_ranks.sh and e2e_scaling.sh.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/callmeta.h"
#include "scopeview/diff.h"
#include "scopeview/calls.h"
#include "scopeview/histogram.h"
#include "scopeview/profile.h"
#include "scopeview/ranks.h"
#include "scopeview/report.h"
#include "scopeview/scaling.h"
#include "scopeview/stats.h"
#include "scopeview/trend.h"

static struct sv_profile *sample(void)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	uint32_t a = sv_profile_add_region(p, "a\"q");
	uint32_t b = sv_profile_add_region(p, "b");
	sv_profile_add_row(p, 0, a, 2, NULL);
	sv_profile_add_row(p, 1, a, 1, NULL);
	sv_profile_add_row(p, 1, b, 1, NULL);
	p->start_ns[0] = 10;
	p->end_ns[0] = 20;
	p->start_ns[1] = 30;
	p->end_ns[1] = 60;
	p->start_ns[2] = 5;
	p->end_ns[2] = 105;
	p->start_ns[3] = 200;
	p->end_ns[3] = 201;
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

/* sample() with event metadata on rank 0's two calls of a. */
static struct sv_profile *sample_meta(void)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	uint32_t a = sv_profile_add_region(p, "a");
	char why[64];
	sv_profile_add_row(p, 0, a, 2, NULL);
	sv_profile_add_row(p, 1, a, 1, NULL);
	p->start_ns[0] = 10;
	p->end_ns[0] = 20;
	p->start_ns[1] = 30;
	p->end_ns[1] = 60;
	p->start_ns[2] = 5;
	p->end_ns[2] = 105;
	ck_assert_int_eq(sv_callmeta_set_row(p, 0, 2,
				 "[{\"phase\": \"steady\", \"iter\": 12}, {}]",
				 why, sizeof why),
		0);
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

/* What writer wrote to a temporary file, parsed as JSON. */
static char *report_text(FILE *f)
{
	long n;
	char *s;
	fflush(f);
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return s;
}

START_TEST(report_ranks_json)
{
	struct sv_profile *p = sample();
	struct sv_stats_table t;
	struct sv_ranks m;
	FILE *f = tmpfile();
	json_error_t je;
	json_t *root, *reg, *rk;
	char *s;

	ck_assert_int_eq(sv_stats_table_compute(&t, p, NULL, NULL), 0);
	ck_assert_int_eq(sv_ranks_compute(&m, &t, SV_RANKS_TOTAL), 0);
	ck_assert_int_eq(sv_report_ranks(f, p, &m, "x.h5", SV_REPORT_JSON), 0);
	s = report_text(f);
	root = json_loads(s, 0, &je);
	ck_assert_msg(root, "%s: %s", je.text, s);
	ck_assert_str_eq(
		json_string_value(json_object_get(root, "file")), "x.h5");
	ck_assert_str_eq(
		json_string_value(json_object_get(root, "metric")), "total");
	reg = json_array_get(json_object_get(root, "regions"), 0);
	ck_assert_str_eq(
		json_string_value(json_object_get(reg, "name")), "a\"q");
	rk = json_array_get(json_object_get(reg, "ranks"), 0);
	ck_assert_int_eq(
		json_integer_value(json_object_get(rk, "total_ns")), 40);
	ck_assert_int_eq(
		json_integer_value(json_object_get(rk, "num_calls")), 2);
	ck_assert_int_eq(
		json_integer_value(json_object_get(reg, "max_ns")), 100);
	ck_assert_int_eq(
		json_integer_value(json_object_get(reg, "slowest_rank")), 1);
	ck_assert_double_eq_tol(
		json_real_value(json_object_get(reg, "excess_ns")), 30.0, 1e-9);
	/* Region "b": rank 0 is absent from its list. */
	reg = json_array_get(json_object_get(root, "regions"), 1);
	ck_assert_uint_eq(json_array_size(json_object_get(reg, "ranks")), 1);
	json_decref(root);
	free(s);
	f = tmpfile();
	ck_assert_int_eq(sv_report_ranks(f, p, &m, NULL, SV_REPORT_TABLE), 0);
	s = report_text(f);
	ck_assert_ptr_nonnull(strstr(s, "mem.h5: "));
	ck_assert_ptr_nonnull(strstr(s, "      -")); /* rank 0 of "b" */
	free(s);
	f = tmpfile();
	ck_assert_int_eq(sv_report_ranks(f, p, &m, NULL, SV_REPORT_CSV), 0);
	s = report_text(f);
	ck_assert_ptr_nonnull(strstr(s, "\"a\"\"q\",0,2,40,40,"));
	free(s);
	ck_assert_int_eq(
		sv_report_ranks(NULL, p, &m, NULL, SV_REPORT_CSV), -EINVAL);
	sv_ranks_fini(&m);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(report_calls_and_histogram)
{
	struct sv_profile *p = sample();
	uint32_t c[3] = {2, 1, 0};
	struct sv_hist h;
	FILE *f = tmpfile();
	json_error_t je;
	json_t *root, *call;
	char *s;

	ck_assert_int_eq(
		sv_report_calls(f, p, c, 3, "a", "x.h5", SV_REPORT_JSON), 0);
	s = report_text(f);
	root = json_loads(s, 0, &je);
	ck_assert_msg(root, "%s: %s", je.text, s);
	call = json_array_get(json_object_get(root, "calls"), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(call, "rank")), 1);
	ck_assert_int_eq(
		json_integer_value(json_object_get(call, "start_ns")), 5);
	ck_assert_int_eq(
		json_integer_value(json_object_get(call, "duration_ns")), 100);
	ck_assert(json_is_null(json_object_get(call, "gpu_ns")));
	ck_assert(json_is_null(json_object_get(call, "metadata")));
	ck_assert_str_eq(
		json_string_value(json_object_get(call, "lane")), "r1");
	json_decref(root);
	free(s);
	f = tmpfile();
	ck_assert_int_eq(
		sv_report_calls(f, p, c, 3, "a", "x.h5", SV_REPORT_CSV), 0);
	s = report_text(f);
	ck_assert_ptr_nonnull(strstr(s, "\n1,r1,5,105,100,100,,\n"));
	free(s);
	/* the table: exact ns, as its help says */
	f = tmpfile();
	ck_assert_int_eq(
		sv_report_calls(f, p, c, 3, "a", "x.h5", SV_REPORT_TABLE), 0);
	s = report_text(f);
	ck_assert_ptr_nonnull(strstr(s, "x.h5: 3 calls of a (exact ns"));
	ck_assert_ptr_nonnull(strstr(s, "    100 "));
	ck_assert_ptr_null(strstr(s, " ns "));
	free(s);
	ck_assert_int_eq(sv_hist_build(&h, p, c, 3, 2, NULL, NULL), 0);
	/* the histogram's table: a header, the bins with their shares */
	f = tmpfile();
	ck_assert_int_eq(
		sv_report_histogram(f, &h, NULL, "a", "x.h5", SV_REPORT_TABLE),
		0);
	s = report_text(f);
	ck_assert_ptr_nonnull(strstr(
		s, "x.h5: 3 calls of a, durations in 2 log-spaced bins"));
	ck_assert_ptr_nonnull(strstr(s, "calls   share"));
	ck_assert_ptr_nonnull(strstr(s, "%  #"));
	free(s);
	f = tmpfile();
	ck_assert_int_eq(
		sv_report_histogram(f, &h, NULL, "a", "x.h5", SV_REPORT_JSON),
		0);
	s = report_text(f);
	root = json_loads(s, 0, &je);
	ck_assert_msg(root, "%s: %s", je.text, s);
	ck_assert_uint_eq(
		json_array_size(json_object_get(root, "edges_ns")), 3);
	ck_assert(json_is_null(json_object_get(root, "p99_ns")));
	json_decref(root);
	free(s);
	sv_hist_fini(&h);
	ck_assert_int_eq(
		sv_report_calls(stdout, p, NULL, 1, "a", NULL, SV_REPORT_CSV),
		-EINVAL);
	ck_assert_int_eq(sv_report_histogram(
				 stdout, NULL, NULL, "a", NULL, SV_REPORT_CSV),
		-EINVAL);
	sv_profile_free(p);
}
END_TEST

/* The call list's metadata is the call's event metadata object ({}
 * for a call without any). */
START_TEST(report_calls_metadata)
{
	struct sv_profile *p = sample_meta();
	uint32_t c[3] = {0, 1, 2};
	FILE *f = tmpfile();
	json_error_t je;
	json_t *root, *calls, *m;
	char *s;

	ck_assert_int_eq(
		sv_report_calls(f, p, c, 3, "a", "x.h5", SV_REPORT_JSON), 0);
	s = report_text(f);
	root = json_loads(s, 0, &je);
	ck_assert_msg(root, "%s: %s", je.text, s);
	calls = json_object_get(root, "calls");
	m = json_object_get(json_array_get(calls, 0), "metadata");
	ck_assert(json_is_object(m));
	ck_assert_str_eq(
		json_string_value(json_object_get(m, "phase")), "steady");
	ck_assert_int_eq(json_integer_value(json_object_get(m, "iter")), 12);
	m = json_object_get(json_array_get(calls, 1), "metadata");
	ck_assert(json_is_object(m) && json_object_size(m) == 0);
	m = json_object_get(json_array_get(calls, 2), "metadata");
	ck_assert(json_is_object(m) && json_object_size(m) == 0);
	json_decref(root);
	free(s);
	sv_profile_free(p);
}
END_TEST

/* sample() a little slower in "a\"q" (10 -> 20 ns: 140 -> 150 in all),
 * without "b", with "c\x1b" (a name a terminal must not get raw). */
static struct sv_profile *sample_later(void)
{
	struct sv_profile *p = sv_profile_new("later.h5");
	uint32_t a = sv_profile_add_region(p, "a\"q");
	uint32_t c = sv_profile_add_region(p, "c\x1b");
	sv_profile_add_row(p, 0, a, 2, NULL);
	sv_profile_add_row(p, 1, a, 1, NULL);
	sv_profile_add_row(p, 1, c, 1, NULL);
	p->start_ns[0] = 10;
	p->end_ns[0] = 30;
	p->start_ns[1] = 40;
	p->end_ns[1] = 70;
	p->start_ns[2] = 5;
	p->end_ns[2] = 105;
	p->start_ns[3] = 200;
	p->end_ns[3] = 207;
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

START_TEST(report_diff_formats)
{
	struct sv_profile *pa = sample(), *pb = sample_later();
	struct sv_stats_table ta, tb;
	struct sv_diff d;
	FILE *f = tmpfile();
	json_error_t je;
	json_t *root, *reg;
	char *s;

	ck_assert_int_eq(sv_stats_table_compute(&ta, pa, NULL, NULL), 0);
	ck_assert_int_eq(sv_stats_table_compute(&tb, pb, NULL, NULL), 0);
	ck_assert_int_eq(sv_diff_compute(&d, &ta, &tb, SV_DIFF_TOTAL,
				 SV_DIFF_SORT_DELTA, 0, NULL),
		0);
	ck_assert_int_eq(
		sv_report_diff(f, &d, "a.h5", "b.h5", 0, SV_REPORT_JSON), 0);
	s = report_text(f);
	root = json_loads(s, 0, &je);
	ck_assert_msg(root, "%s: %s", je.text, s);
	ck_assert_str_eq(json_string_value(json_object_get(root, "a")), "a.h5");
	ck_assert_str_eq(json_string_value(json_object_get(root, "b")), "b.h5");
	ck_assert_str_eq(
		json_string_value(json_object_get(root, "metric")), "total");
	ck_assert_uint_eq(json_array_size(json_object_get(root, "regions")), 1);
	reg = json_array_get(json_object_get(root, "regions"), 0);
	ck_assert_str_eq(
		json_string_value(json_object_get(reg, "name")), "a\"q");
	/* Seconds, as summary gives them. */
	ck_assert_double_eq_tol(
		json_real_value(json_object_get(reg, "a")), 140e-9, 1e-20);
	ck_assert_double_eq_tol(
		json_real_value(json_object_get(reg, "b")), 150e-9, 1e-20);
	ck_assert_double_eq_tol(
		json_real_value(json_object_get(reg, "delta")), 10e-9, 1e-20);
	ck_assert_double_eq_tol(json_real_value(json_object_get(reg, "pct")),
		100.0 / 14, 1e-12);
	ck_assert_str_eq(json_string_value(json_array_get(
				 json_object_get(root, "only_in_a"), 0)),
		"b");
	ck_assert_str_eq(json_string_value(json_array_get(
				 json_object_get(root, "only_in_b"), 0)),
		"c\x1b");
	json_decref(root);
	free(s);

	f = tmpfile();
	ck_assert_int_eq(
		sv_report_diff(f, &d, "a.h5", "b.h5", 0, SV_REPORT_TABLE), 0);
	s = report_text(f);
	ck_assert_ptr_nonnull(strstr(s, "140 ns"));
	ck_assert_ptr_nonnull(strstr(s, "+10 ns"));
	ck_assert_ptr_nonnull(strstr(s, "+7.1%"));
	ck_assert_ptr_nonnull(strstr(s, "Only in A (1):\n  b  1 ns"));
	ck_assert_ptr_nonnull(strstr(s, "Only in B (1):\n  c\\x1b  7 ns"));
	ck_assert_ptr_null(strchr(s, 0x1b));
	free(s);

	f = tmpfile();
	ck_assert_int_eq(
		sv_report_diff(f, &d, "a.h5", "b.h5", 0, SV_REPORT_CSV), 0);
	s = report_text(f);
	ck_assert_ptr_nonnull(
		strstr(s, "region,in,a,b,delta,pct\n"
			  "\"a\"\"q\",both,1.4e-07,1.5e-07,1e-08,"));
	ck_assert_ptr_nonnull(strstr(s, "\nb,a,1e-09,,,\n"));
	free(s);

	/* The gate names what failed, a name made safe. */
	f = tmpfile();
	ck_assert_uint_eq(sv_report_diff_gate(f, &d, "x: ", true, 5, true), 2);
	s = report_text(f);
	ck_assert_ptr_nonnull(strstr(s, "x: regression: a\"q: total +7.1% "
					"(140 ns -> 150 ns)"));
	ck_assert_ptr_nonnull(strstr(s, "x: new region: c\\x1b"));
	free(s);
	f = tmpfile();
	ck_assert_uint_eq(sv_report_diff_gate(f, &d, "", true, 7.2, false), 0);
	fclose(f);
	ck_assert_int_eq(
		sv_report_diff(NULL, &d, "a", "b", 0, SV_REPORT_CSV), -EINVAL);
	sv_diff_fini(&d);
	sv_stats_table_fini(&ta);
	sv_stats_table_fini(&tb);
	sv_profile_free(pa);
	sv_profile_free(pb);
}
END_TEST

/* The keys of object o, in order, joined by ',' (malloc'd). */
static char *report_keys(json_t *o)
{
	const char *key;
	json_t *v;
	size_t len = 0;
	char *out = calloc(1, 1024);

	ck_assert(json_is_object(o));
	json_object_foreach(o, key, v)
	{
		(void)v;
		len += (size_t)snprintf(
			out + len, 1024 - len, "%s%s", len ? "," : "", key);
	}
	return out;
}

static void report_keys_are(json_t *o, const char *want)
{
	char *got = report_keys(o);
	ck_assert_str_eq(got, want);
	free(got);
}

/* A study of two runs at x = 1 and 2 written by hand: solve halves,
 * zero took no time (its ratios are not numbers). */
static void scaling_sample(struct sv_scaling *s, bool numeric)
{
	static struct sv_scaling_run runs[2] = {
		{"A", "a.h5", 0, "1", 0}, {"B", "dir/b.h5", 1, "2", 1}};
	static double xs[2] = {1, 2};
	static char *texts[2] = {"1", "2"}, *words[2] = {"gcc", "clang"};
	static struct sv_scaling_point solve[2] = {
		{1, 1, 0.002, 1, 1, 1, 1}, {2, 1, 0.001, 2, 1, 0.5, 2}};
	static struct sv_scaling_point zero[2] = {
		{1, 1, 0, NAN, NAN, NAN, NAN}, {2, 1, 0, NAN, NAN, NAN, NAN}};
	static struct sv_scaling_region regions[2] = {
		{"solve", solve}, {"zero", zero}};

	memset(s, 0, sizeof *s);
	s->x_field = numeric ? "num_ranks" : "compiler";
	s->numeric = numeric;
	s->baseline = numeric ? 1 : 0;
	s->baseline_text = numeric ? "1" : "gcc";
	runs[0].x = numeric ? 1 : 0;
	runs[1].x = numeric ? 2 : 1;
	runs[0].x_text = numeric ? "1" : "gcc";
	runs[1].x_text = numeric ? "2" : "clang";
	s->runs = runs;
	s->nruns = 2;
	s->xs = xs;
	s->x_texts = numeric ? texts : words;
	s->npoints = 2;
	s->regions = regions;
	s->nregions = 2;
}

START_TEST(report_scaling_formats)
{
	struct sv_scaling st;
	FILE *f = tmpfile();
	json_error_t je;
	json_t *root, *run, *reg, *pt;
	char *s;

	scaling_sample(&st, true);
	ck_assert_int_eq(sv_report_scaling(f, &st, SV_REPORT_JSON), 0);
	s = report_text(f);
	root = json_loads(s, 0, &je);
	ck_assert_msg(root, "%s: %s", je.text, s);
	report_keys_are(root, "x_field,baseline,runs,regions");
	ck_assert_str_eq(json_string_value(json_object_get(root, "x_field")),
		"num_ranks");
	ck_assert(json_is_integer(json_object_get(root, "baseline")));
	ck_assert_int_eq(
		json_integer_value(json_object_get(root, "baseline")), 1);
	run = json_array_get(json_object_get(root, "runs"), 1);
	report_keys_are(run, "file,label,x");
	ck_assert_str_eq(
		json_string_value(json_object_get(run, "file")), "dir/b.h5");
	ck_assert_str_eq(json_string_value(json_object_get(run, "label")), "B");
	ck_assert_int_eq(json_integer_value(json_object_get(run, "x")), 2);
	reg = json_array_get(json_object_get(root, "regions"), 0);
	report_keys_are(reg, "name,points");
	ck_assert_str_eq(
		json_string_value(json_object_get(reg, "name")), "solve");
	pt = json_array_get(json_object_get(reg, "points"), 1);
	report_keys_are(pt, "x,runs,mean_duration,speedup,efficiency,"
			    "normalized_runtime,weak_efficiency");
	ck_assert_int_eq(json_integer_value(json_object_get(pt, "x")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(pt, "runs")), 1);
	ck_assert_double_eq(
		json_real_value(json_object_get(pt, "mean_duration")), 0.001);
	ck_assert_double_eq(json_real_value(json_object_get(pt, "speedup")), 2);
	ck_assert_double_eq(
		json_real_value(json_object_get(pt, "normalized_runtime")),
		0.5);
	reg = json_array_get(json_object_get(root, "regions"), 1);
	pt = json_array_get(json_object_get(reg, "points"), 0);
	ck_assert(json_is_null(json_object_get(pt, "speedup")));
	json_decref(root);
	free(s);

	f = tmpfile();
	ck_assert_int_eq(sv_report_scaling(f, &st, SV_REPORT_CSV), 0);
	s = report_text(f);
	ck_assert_ptr_eq(strstr(s, "region,x,runs,mean_duration,speedup,"
				   "efficiency,normalized_runtime,"
				   "weak_efficiency\n"),
		s);
	ck_assert_ptr_nonnull(strstr(s, "\nsolve,2,1,0.001,2.0,1.0,0.5,2.0\n"));
	ck_assert_ptr_nonnull(
		strstr(s, "\nzero,1,1,0.0,null,null,null,null\n"));
	free(s);

	f = tmpfile();
	ck_assert_int_eq(sv_report_scaling(f, &st, SV_REPORT_TABLE), 0);
	s = report_text(f);
	ck_assert_ptr_nonnull(strstr(s, "scaling over num_ranks: 2 runs at 2 "
					"values, baseline 1\n"));
	ck_assert_ptr_nonnull(strstr(s, "1.00 ms     2.00       1.00       "
					"0.50      2.00\n"));
	free(s);

	/* x as text: the texts in the JSON, the baseline too */
	scaling_sample(&st, false);
	f = tmpfile();
	ck_assert_int_eq(sv_report_scaling(f, &st, SV_REPORT_JSON), 0);
	s = report_text(f);
	root = json_loads(s, 0, &je);
	ck_assert_msg(root, "%s: %s", je.text, s);
	ck_assert_str_eq(
		json_string_value(json_object_get(root, "baseline")), "gcc");
	run = json_array_get(json_object_get(root, "runs"), 1);
	ck_assert_str_eq(json_string_value(json_object_get(run, "x")), "clang");
	reg = json_array_get(json_object_get(root, "regions"), 0);
	pt = json_array_get(json_object_get(reg, "points"), 1);
	ck_assert_str_eq(json_string_value(json_object_get(pt, "x")), "clang");
	json_decref(root);
	free(s);
	ck_assert_int_eq(sv_report_scaling(NULL, &st, SV_REPORT_CSV), -EINVAL);
	ck_assert_int_eq(
		sv_report_scaling(stdout, NULL, SV_REPORT_CSV), -EINVAL);
}
END_TEST

/* Rank 0 steps from 100 to 200 ns at iteration 30, rank 1 stays. */
static struct sv_profile *trend_sample(void)
{
	struct sv_profile *p = sv_profile_new("t.h5");
	uint32_t r = sv_profile_add_region(p, "step");
	struct sv_row *a = sv_profile_add_row(p, 0, r, 60, NULL);
	struct sv_row *b = sv_profile_add_row(p, 1, r, 60, NULL);
	int k;

	for (k = 0; k < 60; k++) {
		p->start_ns[a->first + k] = 1000 * k;
		p->end_ns[a->first + k] = 1000 * k + (k < 30 ? 100 : 200);
		p->start_ns[b->first + k] = 1000 * k;
		p->end_ns[b->first + k] = 1000 * k + 100;
	}
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

START_TEST(report_trend_formats)
{
	struct sv_profile *p = trend_sample();
	struct sv_trend t;
	FILE *f = tmpfile();
	json_error_t je;
	json_t *root, *pt, *ch;
	char *s;

	ck_assert_int_eq(sv_trend_compute(&t, p, 0, NULL, NULL), 0);
	ck_assert_int_eq(sv_report_trend(f, p, &t, "x.h5", SV_REPORT_JSON), 0);
	s = report_text(f);
	root = json_loads(s, 0, &je);
	ck_assert_msg(root, "%s: %s", je.text, s);
	report_keys_are(root, "region,metric,ranks,points,change_points,"
			      "drift_pct_per_100,jitter_pct");
	ck_assert_str_eq(
		json_string_value(json_object_get(root, "region")), "step");
	ck_assert_str_eq(
		json_string_value(json_object_get(root, "metric")), "duration");
	ck_assert_int_eq(json_integer_value(json_object_get(root, "ranks")), 2);
	ck_assert_uint_eq(json_array_size(json_object_get(root, "points")), 60);
	pt = json_array_get(json_object_get(root, "points"), 45);
	report_keys_are(pt, "index,count,min_ns,median_ns,max_ns,max_rank");
	ck_assert_int_eq(json_integer_value(json_object_get(pt, "index")), 45);
	ck_assert_int_eq(json_integer_value(json_object_get(pt, "count")), 2);
	ck_assert(json_is_integer(json_object_get(pt, "min_ns")));
	ck_assert_int_eq(
		json_integer_value(json_object_get(pt, "max_ns")), 200);
	ck_assert(json_is_real(json_object_get(pt, "median_ns")));
	ck_assert_double_eq(
		json_real_value(json_object_get(pt, "median_ns")), 150);
	ck_assert_int_eq(
		json_integer_value(json_object_get(pt, "max_rank")), 0);
	ch = json_array_get(json_object_get(root, "change_points"), 0);
	report_keys_are(ch, "index,rank,before_ns,after_ns");
	ck_assert_int_eq(json_integer_value(json_object_get(ch, "index")), 30);
	ck_assert_double_eq(
		json_real_value(json_object_get(ch, "after_ns")), 200);
	ck_assert(json_is_real(json_object_get(root, "drift_pct_per_100")));
	/* medians 100 (30 times) and 150: their median 125, the deviations
	 * all 25 */
	ck_assert_double_eq(
		json_real_value(json_object_get(root, "jitter_pct")), 20);
	json_decref(root);
	free(s);

	f = tmpfile();
	ck_assert_int_eq(sv_report_trend(f, p, &t, NULL, SV_REPORT_CSV), 0);
	s = report_text(f);
	ck_assert_ptr_eq(strstr(s, "kind,index,count,min_ns,median_ns,max_ns,"
				   "rank,before_ns,after_ns\n"
				   "point,0,2,100,100.0,100,0,,\n"),
		s);
	ck_assert_ptr_nonnull(strstr(s, "\nchange,30,,,,,0,100.0,200.0\n"));
	free(s);

	f = tmpfile();
	ck_assert_int_eq(sv_report_trend(f, p, &t, NULL, SV_REPORT_TABLE), 0);
	s = report_text(f);
	ck_assert_ptr_nonnull(strstr(s, "t.h5: step (duration), 2 ranks, 60 "
					"iterations\n"));
	ck_assert_ptr_nonnull(strstr(s, "       30      0     100 ns     "
					"200 ns +100.00%\n"));
	free(s);
	ck_assert_int_eq(
		sv_report_trend(NULL, p, &t, NULL, SV_REPORT_CSV), -EINVAL);
	sv_trend_fini(&t);

	/* nothing to follow: empty lists, drift and jitter null */
	memset(&t, 0, sizeof t);
	t.drift_pct_per_100 = t.jitter_pct = NAN;
	f = tmpfile();
	ck_assert_int_eq(sv_report_trend(f, p, &t, NULL, SV_REPORT_JSON), 0);
	s = report_text(f);
	root = json_loads(s, 0, &je);
	ck_assert_msg(root, "%s: %s", je.text, s);
	ck_assert_uint_eq(json_array_size(json_object_get(root, "points")), 0);
	ck_assert(json_is_null(json_object_get(root, "drift_pct_per_100")));
	ck_assert(json_is_null(json_object_get(root, "jitter_pct")));
	json_decref(root);
	free(s);
	sv_profile_free(p);
}
END_TEST

START_TEST(report_write_error)
{
	/* a stream that cannot be written: -EIO, in every format */
	struct sv_scaling st;
	FILE *f = fopen("/dev/full", "w");
	int fmt;

	if (!f)
		SVT_SKIP("no /dev/full");
	scaling_sample(&st, true);
	for (fmt = SV_REPORT_TABLE; fmt <= SV_REPORT_JSON; fmt++) {
		ck_assert_int_eq(
			sv_report_scaling(f, &st, (enum sv_report_format)fmt),
			-EIO);
		clearerr(f);
	}
	fclose(f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("report");
	TCase *t = tcase_create("writers");
	tcase_add_test(t, report_ranks_json);
	tcase_add_test(t, report_calls_and_histogram);
	tcase_add_test(t, report_calls_metadata);
	tcase_add_test(t, report_diff_formats);
	tcase_add_test(t, report_scaling_formats);
	tcase_add_test(t, report_trend_formats);
	tcase_add_test(t, report_write_error);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
