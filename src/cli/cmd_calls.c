/*
 * cmd_calls.c: `scopeview calls`, its command line.  Loads the profile,
 * collects and sorts the calls of one region (calls.h) and hands them to
 * sv_report_calls (report.h); with --histogram, bins their durations
 * (histogram.h) instead.  Prints, and returns the exit status (cli.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/calls.h"
#include "scopeview/cli.h"
#include "scopeview/histogram.h"
#include "scopeview/load.h"
#include "scopeview/report.h"
#include "scopeview/stats.h"

struct calls_args {
	int format; /* enum sv_report_format */
	int sort;
	bool reverse;
	long limit;
	long bins;
	const char *region, *file;
	struct sv_cli_select sel; /* --ranks only */
};

#define CALLS_AT(f, type) SV_CLI_AT(struct calls_args, f, type)

/* A decimal number in [lo, hi], or -1. */
static long calls_number(const char *v, long lo, long hi)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (!*v || *end || n < lo || n > hi)
		return -1;
	return n;
}

static int calls_set_sort(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	return sv_cli_set_key(
		target, sv_calls_key_from_name(v), v, "sort key", cx);
}

static int calls_set_limit(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	long *limit = target;
	*limit = calls_number(v, 0, 1L << 40);
	if (*limit < 0)
		return sv_cli_fail(cx->cmd, "bad --limit '%s'", v);
	return 0;
}

static int calls_set_bins(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	long *bins = target;
	*bins = calls_number(v, 1, SV_HIST_MAX_BINS);
	if (*bins < 0)
		return sv_cli_fail(cx->cmd, "bad --histogram '%s' (1-%d)", v,
			SV_HIST_MAX_BINS);
	return 0;
}

static const struct sv_cli_option calls_options[] = {
	{"--region", NULL, "NAME", NULL,
		"the region (its exact name); required", SV_CLI_STRING,
		CALLS_AT(region, const char *), NULL, SV_CLI_REQUIRED},
	{"--sort", NULL, "KEY",
		"duration start end rank lane exclusive gpu await",
		"order of the calls (default duration)", SV_CLI_CALL,
		CALLS_AT(sort, int), calls_set_sort, 0},
	{"--reverse", NULL, NULL, NULL, "the other direction", SV_CLI_FLAG,
		CALLS_AT(reverse, bool), NULL, 0},
	{"--limit", NULL, "N", NULL, "the first N calls only", SV_CLI_CALL,
		CALLS_AT(limit, long), calls_set_limit, 0},
	{"--ranks", NULL, "LIST", NULL, "calls of these ranks only, e.g. 0,2-5",
		SV_CLI_CALL, CALLS_AT(sel, struct sv_cli_select),
		sv_cli_set_ranks, 0},
	{"--histogram", NULL, "B", NULL,
		"B log-spaced duration bins instead\nof the list", SV_CLI_CALL,
		CALLS_AT(bins, long), calls_set_bins, 0},
	{"--format", NULL, "FMT", "table csv json",
		"table (default), csv or json", SV_CLI_CHOICE,
		CALLS_AT(format, int), NULL, 0},
	{"--help", "-h", NULL, NULL, "show this help", SV_CLI_HELP, 0, NULL, 0},
	{"FILE", NULL, NULL, NULL, NULL, SV_CLI_STRING,
		CALLS_AT(file, const char *), NULL, SV_CLI_REQUIRED},
};

static void calls_more(FILE *out)
{
	int k;

	fprintf(out, "\n(--histogram takes 1 to %d bins.)\n\nSort keys:\n",
		SV_HIST_MAX_BINS);
	for (k = 0; k < SV_CALLS_KEY_COUNT; k++)
		fprintf(out, "  %-10s %s\n", sv_calls_key_name(k),
			sv_calls_key_help(k));
	fprintf(out,
		"\nExit status: 0 success, 1 the profile could not be read\n"
		"or has no such region, 2 a command-line mistake.\n");
}

static void calls_init(void *args)
{
	struct calls_args *a = args;
	a->sort = SV_CALLS_KEY_DURATION;
	a->limit = -1;
}

static void calls_fini(void *args)
{
	struct calls_args *a = args;
	sv_cli_select_fini(&a->sel);
}

static void calls_fini_here(struct sv_report_call_list *l)
{
	free(l->own);
	memset(l, 0, sizeof *l);
}

int sv_cli_calls_here(struct sv_report_call_list *l, const struct sv_profile *p,
	const struct sv_calls_query *q, struct sv_error *err)
{
	uint32_t *calls = NULL;
	long n = sv_calls_pick(p, q, &calls);

	if (n < 0)
		return sv_error_set(
			err, (int)n, "calls: cannot sort the calls");
	sv_report_call_list_of(l, p, calls, (size_t)n);
	l->own = calls;
	l->fini = calls_fini_here;
	return 0;
}

int sv_cli_hist_here(struct sv_hist *h, const struct sv_profile *p,
	const struct sv_calls_query *q, size_t nbins, struct sv_error *err)
{
	int64_t region = sv_profile_find_region(p, q->region);
	uint32_t *calls = NULL;
	long n = 0;
	int rc;

	if (region >= 0)
		n = sv_calls_of_region(p, (uint32_t)region, q->rank_on,
			q->nrank_on, &calls, NULL);
	if (n < 0)
		return sv_error_set(
			err, (int)n, "calls: cannot collect the calls");
	rc = sv_hist_build(h, p, calls, (size_t)n, nbins, NULL, NULL);
	free(calls);
	if (rc < 0)
		return sv_error_set(err, rc, "calls: cannot bin the calls");
	return 0;
}

/* The histogram of the region's calls with its figures from stats.h. */
static int calls_histogram(const struct calls_args *a,
	const struct sv_profile *p, uint32_t region,
	const struct sv_calls_query *q)
{
	struct sv_stats_filter f;
	struct sv_stats_table t;
	struct sv_error err = {0};
	struct sv_hist h;
	int rc = SV_EXIT_OK;

	memset(&f, 0, sizeof f);
	f.rank_on = a->sel.rank_on;
	f.nrank_on = a->sel.nrank_on;
	if (sv_cli_engine->table(&t, p, &f, &err) < 0) {
		sv_cli_stderr("", err.msg);
		return SV_EXIT_LOAD;
	}
	if (sv_cli_engine->hist(&h, p, q, (size_t)a->bins, &err) < 0) {
		sv_cli_stderr("", err.msg);
		sv_stats_table_fini(&t);
		return SV_EXIT_LOAD;
	}
	if (sv_report_histogram(stdout, &h, sv_stats_table_find(&t, region),
		    a->region, a->file, (enum sv_report_format)a->format) < 0)
		rc = SV_EXIT_LOAD;
	sv_hist_fini(&h);
	sv_stats_table_fini(&t);
	return rc;
}

static int calls_run(void *args)
{
	const struct calls_args *a = args;
	struct sv_profile *p = NULL;
	struct sv_load_opts lo;
	struct sv_error err = {0};
	struct sv_calls_query q;
	struct sv_report_call_list l;
	int64_t region;
	int rc;

	rc = SV_EXIT_OK;
	sv_cli_ranks_load_opts(a->sel.rank_on, a->sel.nrank_on, &lo);
	if (sv_cli_engine->load(a->file, &lo, &p, &err) < 0) {
		sv_cli_stderr("", err.msg);
		return SV_EXIT_LOAD;
	}
	/* (Every process of a job holds the file's region table.) */
	region = sv_profile_find_region(p, a->region);
	if (region < 0) {
		sv_cli_stderr("calls: no region named ", a->region);
		rc = SV_EXIT_LOAD;
		goto out;
	}
	if (!sv_cli_engine->per_call(p))
		sv_cli_stderr(
			"warning: ", "the profile holds no per-call data");
	memset(&q, 0, sizeof q);
	q.region = a->region;
	q.rank_on = a->sel.rank_on;
	q.nrank_on = a->sel.nrank_on;
	q.key = (enum sv_calls_key)a->sort;
	q.reverse = a->reverse;
	q.limit = a->limit;
	if (a->bins > 0) {
		rc = calls_histogram(a, p, (uint32_t)region, &q);
		goto out;
	}
	if (sv_cli_engine->calls(&l, p, &q, &err) < 0) {
		sv_cli_stderr("", err.msg);
		rc = SV_EXIT_LOAD;
		goto out;
	}
	if (sv_report_call_list(stdout, &l, a->region, a->file,
		    (enum sv_report_format)a->format) < 0) {
		sv_cli_eprintf("scopeview: cannot write the calls");
		rc = SV_EXIT_LOAD;
	}
	if (l.fini)
		l.fini(&l);
out:
	sv_cli_engine->release(p);
	return rc;
}

const struct sv_cli_command sv_cli_calls_cmd = {
	.name = "calls",
	.what = "list the calls of a region",
	.about =
		"List the calls of one region with exact nanoseconds, longest\n"
		"first, or bin their durations.",
	.opts = calls_options,
	.nopts = sizeof calls_options / sizeof calls_options[0],
	.size = sizeof(struct calls_args),
	.init = calls_init,
	.run = calls_run,
	.fini = calls_fini,
	.more = calls_more,
};
