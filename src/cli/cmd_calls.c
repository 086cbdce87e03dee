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

#define CALLS_USAGE                                               \
	"scopeview calls --region NAME [--sort KEY] [--reverse] " \
	"[--limit N] [--ranks LIST] [--histogram BINS] "          \
	"[--format table|csv|json] FILE"

static const struct sv_cli_option calls_options[] = {
	{"--region", NULL, "NAME", NULL,
		"the region (its exact name); required"},
	{"--sort", NULL, "KEY",
		"duration start end rank lane exclusive gpu await",
		"order of the calls (default duration)"},
	{"--reverse", NULL, NULL, NULL, "the other direction"},
	{"--limit", NULL, "N", NULL, "the first N calls only"},
	{"--ranks", NULL, "LIST", NULL,
		"calls of these ranks only, e.g. 0,2-5"},
	{"--histogram", NULL, "B", NULL,
		"B log-spaced duration bins instead\nof the list"},
	{"--format", NULL, "FMT", "table csv json",
		"table (default), csv or json"},
	{"--help", "-h", NULL, NULL, "show this help"},
};

const struct sv_cli_command sv_cli_calls_cmd = {
	"calls",
	"--region NAME [--sort KEY] [--reverse] [--limit N] [--ranks LIST] "
	"[--histogram B] [--format table|csv|json] FILE",
	"list the calls of a region",
	true,
	calls_options,
	sizeof calls_options / sizeof calls_options[0],
};

static void calls_help(void)
{
	int k;

	printf("usage: %s\n\n"
	       "List the calls of one region with exact nanoseconds, longest\n"
	       "first, or bin their durations.\n\n"
	       "Options:\n",
		CALLS_USAGE);
	sv_cli_write_options(stdout, &sv_cli_calls_cmd);
	printf("\n(--histogram takes 1 to %d bins.)\n\nSort keys:\n",
		SV_HIST_MAX_BINS);
	for (k = 0; k < SV_CALLS_KEY_COUNT; k++)
		printf("  %-10s %s\n", sv_calls_key_name(k),
			sv_calls_key_help(k));
	printf("\nExit status: 0 success, 1 the profile could not be read\n"
	       "or has no such region, 2 a command-line mistake.\n");
}

struct calls_args {
	enum sv_report_format fmt;
	int sort;
	bool reverse;
	long limit;
	long bins;
	const char *region, *file;
	bool *rank_on;
	uint32_t nrank_on;
};

/* A decimal number in [lo, hi], or -1. */
static long calls_number(const char *v, long lo, long hi)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (!*v || *end || n < lo || n > hi)
		return -1;
	return n;
}

static int calls_parse(int argc, char **argv, struct calls_args *a)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *v;
		bool missing = false;
		struct sv_error err = {0};
		if (argv[i][0] != '-' || !strcmp(argv[i], "-")) {
			if (a->file)
				return sv_cli_usage_error(CALLS_USAGE,
					"calls: more than one FILE");
			a->file = argv[i];
		} else if (!strcmp(argv[i], "-h") ||
			   !strcmp(argv[i], "--help")) {
			calls_help();
			return SV_EXIT_OK;
		} else if (!strcmp(argv[i], "--reverse")) {
			a->reverse = true;
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--region", &missing))) {
			a->region = v;
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--sort", &missing))) {
			a->sort = sv_calls_key_from_name(v);
			if (a->sort < 0)
				return sv_cli_usage_error(CALLS_USAGE,
					"calls: unknown sort key '%s' (see "
					"--help)",
					v);
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--limit", &missing))) {
			a->limit = calls_number(v, 0, 1L << 40);
			if (a->limit < 0)
				return sv_cli_usage_error(CALLS_USAGE,
					"calls: bad --limit '%s'", v);
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--histogram", &missing))) {
			a->bins = calls_number(v, 1, SV_HIST_MAX_BINS);
			if (a->bins < 0)
				return sv_cli_usage_error(CALLS_USAGE,
					"calls: bad --histogram '%s' (1-%d)", v,
					SV_HIST_MAX_BINS);
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--ranks", &missing))) {
			free(a->rank_on);
			a->rank_on = NULL;
			if (sv_stats_parse_ranks(
				    v, &a->rank_on, &a->nrank_on, &err))
				return sv_cli_usage_error(
					CALLS_USAGE, "calls: %s", err.msg);
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--format", &missing))) {
			int bad = sv_cli_report_format(
				v, &a->fmt, CALLS_USAGE, "calls");
			if (bad)
				return bad;
		} else if (missing) {
			return sv_cli_usage_error(CALLS_USAGE,
				"calls: %s needs a value", argv[i]);
		} else {
			return sv_cli_usage_error(CALLS_USAGE,
				"calls: unknown option '%s'", argv[i]);
		}
	}
	if (!a->file)
		return sv_cli_usage_error(CALLS_USAGE, "calls: no FILE given");
	if (!a->region)
		return sv_cli_usage_error(
			CALLS_USAGE, "calls: --region NAME is required");
	return -1;
}

/* The histogram of calls[0..n) with the region's figures from stats.h. */
static int calls_histogram(const struct calls_args *a,
	const struct sv_profile *p, uint32_t region, const uint32_t *calls,
	size_t n)
{
	struct sv_stats_filter f;
	struct sv_stats_table t;
	struct sv_hist h;
	int rc = SV_EXIT_OK;

	memset(&f, 0, sizeof f);
	f.rank_on = a->rank_on;
	f.nrank_on = a->nrank_on;
	if (sv_stats_table_compute(&t, p, &f, NULL) < 0)
		return SV_EXIT_LOAD;
	sv_hist_build(&h, p, calls, n, (size_t)a->bins, NULL, NULL);
	if (sv_report_histogram(stdout, &h, sv_stats_table_find(&t, region),
		    a->region, a->file, a->fmt) < 0)
		rc = SV_EXIT_LOAD;
	sv_hist_fini(&h);
	sv_stats_table_fini(&t);
	return rc;
}

int sv_calls_main(int argc, char **argv)
{
	struct calls_args a;
	struct sv_profile *p = NULL;
	struct sv_load_opts lo;
	struct sv_error err = {0};
	uint32_t *calls = NULL;
	int64_t region;
	long n;
	int rc;

	memset(&a, 0, sizeof a);
	a.sort = SV_CALLS_KEY_DURATION;
	a.limit = -1;
	rc = calls_parse(argc, argv, &a);
	if (rc >= 0) {
		free(a.rank_on);
		return rc;
	}
	rc = SV_EXIT_OK;
	sv_cli_ranks_load_opts(a.rank_on, a.nrank_on, &lo);
	if (sv_load(a.file, &lo, &p, &err) < 0) {
		sv_cli_stderr("", err.msg);
		free(a.rank_on);
		return SV_EXIT_LOAD;
	}
	region = sv_profile_find_region(p, a.region);
	if (region < 0) {
		sv_cli_stderr("calls: no region named ", a.region);
		rc = SV_EXIT_LOAD;
		goto out;
	}
	if (!p->has_calls)
		sv_cli_stderr(
			"warning: ", "the profile holds no per-call data");
	n = sv_calls_of_region(
		p, (uint32_t)region, a.rank_on, a.nrank_on, &calls, NULL);
	if (n < 0) {
		rc = SV_EXIT_LOAD;
		goto out;
	}
	if (a.bins > 0) {
		rc = calls_histogram(&a, p, (uint32_t)region, calls, (size_t)n);
		goto out;
	}
	sv_calls_sort(p, calls, (size_t)n, a.sort, a.reverse, NULL);
	if (a.limit >= 0 && a.limit < n)
		n = a.limit;
	if (sv_report_calls(
		    stdout, p, calls, (size_t)n, a.region, a.file, a.fmt) < 0) {
		sv_cli_eprintf("scopeview: cannot write the calls");
		rc = SV_EXIT_LOAD;
	}
out:
	free(calls);
	free(a.rank_on);
	sv_profile_free(p);
	return rc;
}
