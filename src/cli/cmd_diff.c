/*
 * cmd_diff.c: `scopeview diff`, its command line.  Loads two profiles,
 * computes the statistics of each over the same selection (stats.h),
 * compares them (diff.h), hands the comparison to sv_report_diff
 * (report.h) and, as a CI gate, exits 3 when a region regressed by more
 * than --fail-above or B has regions A lacks (--fail-on-new).  Prints,
 * and returns the exit status (cli.h).
 */
#include "scopeview/cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/diff.h"
#include "scopeview/load.h"
#include "scopeview/report.h"
#include "scopeview/stats.h"

struct diff_args {
	int metric, sort;
	int format; /* enum sv_report_format */
	double threshold, fail_above;
	bool has_fail_above, fail_on_new;
	struct sv_cli_select sel;
	const char *file[2];
};

#define DIFF_AT(f, type) SV_CLI_AT(struct diff_args, f, type)

/* A percentage >= 0, with or without a '%' after it. */
static int diff_parse_pct(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || (*end && strcmp(end, "%")) || !(v >= 0) || isinf(v))
		return -1;
	*out = v;
	return 0;
}

static int diff_set_metric(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	return sv_cli_set_key(
		target, sv_diff_metric_from_name(v), v, "metric", cx);
}

static int diff_set_threshold(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	if (diff_parse_pct(v, target))
		return sv_cli_fail(cx->cmd,
			"--threshold wants a percentage >= 0, not '%s'", v);
	return 0;
}

static int diff_set_fail_above(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	struct diff_args *a = target;
	if (diff_parse_pct(v, &a->fail_above))
		return sv_cli_fail(cx->cmd,
			"--fail-above wants a percentage >= 0, not '%s'", v);
	a->has_fail_above = true;
	return 0;
}

static const struct sv_cli_option diff_options[] = {
	{"--metric", NULL, "M",
		"total avg min max p50 p95 p99 imbalance calls exclusive",
		"the figure compared (default total); see below", SV_CLI_CALL,
		DIFF_AT(metric, int), diff_set_metric, 0},
	{"--sort", NULL, "KEY", "delta pct name",
		"delta (default: the largest regression first),\n"
		"pct, or name",
		SV_CLI_CHOICE, DIFF_AT(sort, int), NULL, 0},
	{"--threshold", NULL, "PCT", NULL,
		"hide regions that changed by less than PCT percent",
		SV_CLI_CALL, DIFF_AT(threshold, double), diff_set_threshold, 0},
	{"--ranks", NULL, "LIST", NULL,
		"figures over these ranks only, in both runs, e.g. 0,2-5",
		SV_CLI_CALL, DIFF_AT(sel, struct sv_cli_select),
		sv_cli_set_ranks, 0},
	{"--include", NULL, "RE", NULL,
		"only regions whose name matches RE at its start\n"
		"(Perl-compatible, like Python's re.match); repeatable",
		SV_CLI_CALL, DIFF_AT(sel, struct sv_cli_select),
		sv_cli_set_include, SV_CLI_REPEAT},
	{"--exclude", NULL, "RE", NULL,
		"leave out regions matching RE; repeatable", SV_CLI_CALL,
		DIFF_AT(sel, struct sv_cli_select), sv_cli_set_exclude,
		SV_CLI_REPEAT},
	{"--format", NULL, "FMT", "table csv json",
		"table (default), csv or json", SV_CLI_CHOICE,
		DIFF_AT(format, int), NULL, 0},
	{"--fail-above", NULL, "PCT", NULL,
		"exit 3 when any region's figure grew by more than\n"
		"PCT percent (or grew from 0), naming them on stderr",
		SV_CLI_CALL, 0, diff_set_fail_above, 0},
	{"--fail-on-new", NULL, NULL, NULL,
		"exit 3 when B has regions A has no calls of", SV_CLI_FLAG,
		DIFF_AT(fail_on_new, bool), NULL, 0},
	{"--help", "-h", NULL, NULL, "show this help", SV_CLI_HELP, 0, NULL, 0},
	{"A.h5", NULL, NULL, NULL, NULL, SV_CLI_STRING,
		DIFF_AT(file[0], const char *), NULL, SV_CLI_REQUIRED},
	{"B.h5", NULL, NULL, NULL, NULL, SV_CLI_STRING,
		DIFF_AT(file[1], const char *), NULL, SV_CLI_REQUIRED},
};

static void diff_more(FILE *out)
{
	int m;

	fprintf(out, "\nMetrics:\n");
	for (m = 0; m < SV_DIFF_METRIC_COUNT; m++)
		fprintf(out, "  %-10s %s\n", sv_diff_metric_name(m),
			sv_diff_metric_help(m));
	fprintf(out,
		"\nJSON: {\"a\", \"b\", \"metric\", \"regions\": [{\"name\", "
		"\"a\", \"b\",\n"
		"\"delta\", \"pct\"}], \"only_in_a\", \"only_in_b\"}; times "
		"in seconds.\n"
		"\nExit status: 0 success, 1 a profile could not be read,\n"
		"2 a command-line mistake, 3 --fail-above or --fail-on-new\n"
		"found a regression (named on stderr).\n");
}

static void diff_init(void *args)
{
	struct diff_args *a = args;
	a->metric = SV_DIFF_TOTAL;
	a->sort = SV_DIFF_SORT_DELTA;
	a->format = SV_REPORT_TABLE;
}

static void diff_fini(void *args)
{
	struct diff_args *a = args;
	sv_cli_select_fini(&a->sel);
}

/* Load file and compute its table over a's selection into t.  Returns 0,
 * or -1 after saying why. */
static int diff_load(const struct diff_args *a, const char *file,
	struct sv_profile **p, struct sv_stats_table *t)
{
	struct sv_stats_filter f;
	struct sv_load_opts lo;
	struct sv_error err = {0};
	size_t i;
	int streamed;

	sv_cli_select_load_opts(&a->sel, &lo);
	memset(&f, 0, sizeof f);
	sv_cli_select_filter(&a->sel, &f);
	/* A large run a few ranks at a time (as summary reads it): two runs
	 * of 100M calls are not both held. */
	streamed = sv_cli_stream_table(file, &lo, &f, t, p, &err);
	if (streamed < 0 ||
		(!streamed && sv_cli_engine->load(file, &lo, p, &err) < 0)) {
		sv_cli_stderr("", err.msg);
		return -1;
	}
	for (i = 0; i < (*p)->nwarnings; i++)
		sv_cli_stderr("warning: ", (*p)->warnings[i]);
	if (!streamed && sv_cli_engine->table(t, *p, &f, &err) < 0) {
		sv_cli_stderr("", err.msg);
		sv_cli_engine->release(*p);
		*p = NULL;
		return -1;
	}
	return 0;
}

static int diff_run(void *args)
{
	struct diff_args *a = args;
	struct sv_profile *p[2] = {NULL, NULL};
	struct sv_stats_table t[2];
	struct sv_diff d;
	struct sv_error err = {0};
	char *gate_text = NULL;
	size_t gate_len = 0;
	FILE *gate;
	int rc, k, loaded = 0;

	memset(t, 0, sizeof t);
	memset(&d, 0, sizeof d);
	rc = SV_EXIT_LOAD;
	for (k = 0; k < 2; k++, loaded++)
		if (diff_load(a, a->file[k], &p[k], &t[k]) < 0)
			goto out;
	sv_cli_select_warnings(&a->sel);
	if (sv_diff_compute(&d, &t[0], &t[1], a->metric, a->sort, a->threshold,
		    &err) < 0) {
		sv_cli_stderr("", err.msg);
		goto out;
	}
	if (sv_report_diff(stdout, &d, a->file[0], a->file[1], a->threshold,
		    (enum sv_report_format)a->format) < 0 ||
		fflush(stdout) != 0) {
		sv_cli_eprintf(
			"scopeview: diff: cannot write to standard output");
		goto out;
	}
	/* The gate's lines name regions: through sv_cli_eprintf. */
	gate = open_memstream(&gate_text, &gate_len);
	if (!gate)
		sv_die("cannot open a memory stream");
	rc = sv_report_diff_gate(gate, &d,
		     "scopeview: diff: ", a->has_fail_above, a->fail_above,
		     a->fail_on_new)
		     ? SV_EXIT_REGRESSION
		     : SV_EXIT_OK;
	fclose(gate);
	sv_cli_eprint_lines(gate_text);
	free(gate_text);
out:
	sv_diff_fini(&d);
	for (k = 0; k < loaded; k++) {
		sv_stats_table_fini(&t[k]);
		sv_cli_engine->release(p[k]);
	}
	return rc;
}

const struct sv_cli_command sv_cli_diff_cmd = {
	.name = "diff",
	.what = "compare two profiles region by region",
	.about = "Compare two scope-profiler profiles region by region: A's\n"
		 "and B's figure of the metric, delta = B - A and\n"
		 "pct = delta / A x 100 (none when A is 0).  Regions with\n"
		 "calls in one run only are listed apart.",
	.opts = diff_options,
	.nopts = sizeof diff_options / sizeof diff_options[0],
	.size = sizeof(struct diff_args),
	.init = diff_init,
	.run = diff_run,
	.fini = diff_fini,
	.more = diff_more,
};
