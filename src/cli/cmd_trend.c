/*
 * cmd_trend.c: `scopeview trend`, its command line.  Loads the profile
 * (only the ranks asked for), follows one region iteration by iteration
 * (trend.h) and hands the result to sv_report_trend (report.h), through
 * the engine (cli.h), so that scopeview-mpi runs the same code.  Prints,
 * and returns the exit status (cli.h).
 */
#include "scopeview/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/load.h"
#include "scopeview/report.h"
#include "scopeview/trend.h"

struct trend_args {
	int format; /* enum sv_report_format */
	int metric; /* enum sv_trend_metric */
	const char *region, *file;
	struct sv_cli_select sel; /* --ranks only */
};

#define TREND_AT(f, type) SV_CLI_AT(struct trend_args, f, type)

static const struct sv_cli_option trend_options[] = {
	{"--region", NULL, "NAME", NULL,
		"the region (its exact name); required", SV_CLI_STRING,
		TREND_AT(region, const char *), NULL, SV_CLI_REQUIRED},
	{"--metric", NULL, "M", "duration exclusive",
		"each call's duration (default) or exclusive time",
		SV_CLI_CHOICE, TREND_AT(metric, int), NULL, 0},
	{"--ranks", NULL, "LIST", NULL, "calls of these ranks only, e.g. 0,2-5",
		SV_CLI_CALL, TREND_AT(sel, struct sv_cli_select),
		sv_cli_set_ranks, 0},
	{"--format", NULL, "FMT", "table csv json",
		"table (default), csv or json", SV_CLI_CHOICE,
		TREND_AT(format, int), NULL, 0},
	{"--help", "-h", NULL, NULL, "show this help", SV_CLI_HELP, 0, NULL, 0},
	{"FILE", NULL, NULL, NULL, NULL, SV_CLI_STRING,
		TREND_AT(file, const char *), NULL, SV_CLI_REQUIRED},
};

static void trend_more(FILE *out)
{
	fprintf(out,
		"\nIteration k is the k-th call of the region on each rank, in "
		"start\norder.  Each iteration: the min, median (numpy's) and "
		"max over\nthe ranks, the slowest rank and how many ranks have "
		"it.\nChange points: where a rank's series shifts level and "
		"stays,\nby binary segmentation with a two-sample t test (t >= "
		"%.0f, both\nsides at least %d iterations, a shift of at least "
		"%.0f%%).  Drift:\nthe least-squares slope of the medians, %% "
		"of their mean per\n100 iterations.  Jitter: their median "
		"absolute deviation over\ntheir median, %%.\n\n"
		"JSON: {\"region\", \"metric\", \"ranks\", \"points\": "
		"[{\"index\", \"count\",\n\"min_ns\", \"median_ns\", "
		"\"max_ns\", \"max_rank\"}], \"change_points\":\n[{\"index\", "
		"\"rank\", \"before_ns\", \"after_ns\"}], "
		"\"drift_pct_per_100\",\n\"jitter_pct\"}.\n\n"
		"Exit status: 0 success, 1 the profile could not be read, has "
		"no\nsuch region or no calls, 2 a command-line mistake.\n",
		SV_TREND_THRESHOLD, SV_TREND_MIN_SEGMENT,
		SV_TREND_MIN_SHIFT * 100);
}

static void trend_fini(void *args)
{
	struct trend_args *a = args;
	sv_cli_select_fini(&a->sel);
}

static int trend_run(void *args)
{
	struct trend_args *a = args;
	struct sv_profile *p = NULL;
	struct sv_load_opts lo;
	struct sv_trend_opts o;
	struct sv_trend t;
	struct sv_error err = {0};
	int64_t region;
	size_t i;
	int rc = SV_EXIT_OK;

	sv_cli_select_load_opts(&a->sel, &lo);
	if (sv_cli_engine->load(a->file, &lo, &p, &err) < 0) {
		sv_cli_stderr("", err.msg);
		return SV_EXIT_LOAD;
	}
	for (i = 0; i < p->nwarnings; i++)
		sv_cli_stderr("warning: ", p->warnings[i]);
	region = sv_profile_find_region(p, a->region);
	if (region < 0) {
		sv_cli_stderr("trend: no region named ", a->region);
		sv_cli_engine->release(p);
		return SV_EXIT_LOAD;
	}
	if (a->sel.rank_on) {
		char *why = sv_cli_ranks_missing(
			p, a->sel.rank_on, a->sel.nrank_on, NULL);
		if (why)
			sv_cli_stderr("warning: ", why);
		free(why);
	}
	memset(&o, 0, sizeof o);
	o.metric = (enum sv_trend_metric)a->metric;
	o.rank_on = a->sel.rank_on;
	o.nrank_on = a->sel.nrank_on;
	if (sv_cli_engine->trend(&t, p, (uint32_t)region, &o, &err) < 0) {
		sv_cli_stderr("trend: ", err.msg);
		sv_cli_engine->release(p);
		return SV_EXIT_LOAD;
	}
	if (sv_report_trend(stdout, p, &t, a->file,
		    (enum sv_report_format)a->format) < 0) {
		sv_cli_stderr("", "cannot write the trend");
		rc = SV_EXIT_LOAD;
	}
	sv_trend_fini(&t);
	sv_cli_engine->release(p);
	return rc;
}

const struct sv_cli_command sv_cli_trend_cmd = {
	.name = "trend",
	.what = "follow a region iteration by iteration",
	.about = "Follow one region of a profile iteration by iteration: "
		 "the\nspread over the ranks of its k-th call, where a rank "
		 "got\nslower (or faster) and stayed so, drift and jitter.",
	.opts = trend_options,
	.nopts = sizeof trend_options / sizeof trend_options[0],
	.size = sizeof(struct trend_args),
	.run = trend_run,
	.fini = trend_fini,
	.more = trend_more,
};
