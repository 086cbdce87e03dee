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

#define DIFF_USAGE                                                        \
	"scopeview diff [--metric M] [--sort delta|pct|name] "            \
	"[--threshold PCT] [--ranks LIST] [--include RE]... "             \
	"[--exclude RE]... [--format table|csv|json] [--fail-above PCT] " \
	"[--fail-on-new] A.h5 B.h5"

static const struct sv_cli_option diff_options[] = {
	{"--metric", NULL, "M",
		"total avg min max p50 p95 p99 imbalance calls exclusive",
		"the figure compared (default total); see below"},
	{"--sort", NULL, "KEY", "delta pct name",
		"delta (default: the largest regression first),\n"
		"pct, or name"},
	{"--threshold", NULL, "PCT", NULL,
		"hide regions that changed by less than PCT percent"},
	{"--ranks", NULL, "LIST", NULL,
		"figures over these ranks only, in both runs, e.g. 0,2-5"},
	{"--include", NULL, "RE", NULL,
		"only regions whose name matches RE at its start\n"
		"(Perl-compatible, like Python's re.match); repeatable"},
	{"--exclude", NULL, "RE", NULL,
		"leave out regions matching RE; repeatable"},
	{"--format", NULL, "FMT", "table csv json",
		"table (default), csv or json"},
	{"--fail-above", NULL, "PCT", NULL,
		"exit 3 when any region's figure grew by more than\n"
		"PCT percent (or grew from 0), naming them on stderr"},
	{"--fail-on-new", NULL, NULL, NULL,
		"exit 3 when B has regions A has no calls of"},
	{"--help", "-h", NULL, NULL, "show this help"},
};

const struct sv_cli_command sv_cli_diff_cmd = {
	"diff",
	"[--metric M] [--sort delta|pct|name] [--threshold PCT] "
	"[--ranks LIST] [--include RE]... [--exclude RE]... "
	"[--format table|csv|json] [--fail-above PCT] [--fail-on-new] "
	"A.h5 B.h5",
	"compare two profiles region by region",
	true,
	diff_options,
	sizeof diff_options / sizeof diff_options[0],
};

static void diff_help(void)
{
	int m;

	printf("usage: %s\n\n"
	       "Compare two scope-profiler profiles region by region: A's\n"
	       "and B's figure of the metric, delta = B - A and\n"
	       "pct = delta / A x 100 (none when A is 0).  Regions with\n"
	       "calls in one run only are listed apart.\n\n"
	       "Options:\n",
		DIFF_USAGE);
	sv_cli_write_options(stdout, &sv_cli_diff_cmd);
	printf("\nMetrics:\n");
	for (m = 0; m < SV_DIFF_METRIC_COUNT; m++)
		printf("  %-10s %s\n", sv_diff_metric_name(m),
			sv_diff_metric_help(m));
	printf("\nJSON: {\"a\", \"b\", \"metric\", \"regions\": [{\"name\", "
	       "\"a\", \"b\",\n"
	       "\"delta\", \"pct\"}], \"only_in_a\", \"only_in_b\"}; times "
	       "in seconds.\n"
	       "\nExit status: 0 success, 1 a profile could not be read,\n"
	       "2 a command-line mistake, 3 --fail-above or --fail-on-new\n"
	       "found a regression (named on stderr).\n");
}

struct diff_args {
	int metric, sort;
	enum sv_report_format fmt;
	double threshold, fail_above;
	bool has_fail_above, fail_on_new;
	struct sv_cli_select sel;
	const char *file[2];
};

static void diff_args_free(struct diff_args *a)
{
	sv_cli_select_fini(&a->sel);
}

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

/* Parse argv; returns -1 to go on, else an exit status. */
static int diff_parse(int argc, char **argv, struct diff_args *a)
{
	int i, nfiles = 0;
	bool only_files = false;

	for (i = 1; i < argc; i++) {
		const char *v;
		bool missing = false;
		int taken;

		if (only_files || argv[i][0] != '-' || !strcmp(argv[i], "-")) {
			if (nfiles == 2)
				return sv_cli_usage_error(DIFF_USAGE,
					"diff: more than two files ('%s')",
					argv[i]);
			a->file[nfiles++] = argv[i];
		} else if (!strcmp(argv[i], "--")) {
			only_files = true;
		} else if (!strcmp(argv[i], "-h") ||
			   !strcmp(argv[i], "--help")) {
			diff_help();
			return SV_EXIT_OK;
		} else if (!strcmp(argv[i], "--fail-on-new")) {
			a->fail_on_new = true;
		} else if ((taken = sv_cli_select_opt(&a->sel, argc, argv, &i,
				    &missing, DIFF_USAGE, "diff"))) {
			if (taken < 0)
				return SV_EXIT_USAGE;
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--metric", &missing))) {
			a->metric = sv_diff_metric_from_name(v);
			if (a->metric < 0)
				return sv_cli_usage_error(DIFF_USAGE,
					"diff: unknown metric '%s' (see "
					"--help)",
					v);
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--sort", &missing))) {
			a->sort = sv_diff_sort_from_name(v);
			if (a->sort < 0)
				return sv_cli_usage_error(DIFF_USAGE,
					"diff: unknown sort '%s' (delta, pct "
					"or name)",
					v);
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--threshold", &missing))) {
			if (diff_parse_pct(v, &a->threshold))
				return sv_cli_usage_error(DIFF_USAGE,
					"diff: --threshold wants a percentage "
					">= 0, not '%s'",
					v);
		} else if ((v = sv_cli_opt(argc, argv, &i, "--fail-above",
				    &missing))) {
			if (diff_parse_pct(v, &a->fail_above))
				return sv_cli_usage_error(DIFF_USAGE,
					"diff: --fail-above wants a "
					"percentage >= 0, not '%s'",
					v);
			a->has_fail_above = true;
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--format", &missing))) {
			int bad = sv_cli_report_format(
				v, &a->fmt, DIFF_USAGE, "diff");
			if (bad)
				return bad;
		} else if (missing) {
			return sv_cli_usage_error(
				DIFF_USAGE, "diff: %s needs a value", argv[i]);
		} else {
			return sv_cli_usage_error(DIFF_USAGE,
				"diff: unknown option '%s'", argv[i]);
		}
	}
	if (nfiles < 2)
		return sv_cli_usage_error(DIFF_USAGE,
			"diff: two files needed (A.h5 B.h5), %d given", nfiles);
	return -1;
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

	sv_cli_select_load_opts(&a->sel, &lo);
	if (sv_load(file, &lo, p, &err) < 0) {
		sv_cli_stderr("", err.msg);
		return -1;
	}
	for (i = 0; i < (*p)->nwarnings; i++)
		sv_cli_stderr("warning: ", (*p)->warnings[i]);
	memset(&f, 0, sizeof f);
	sv_cli_select_filter(&a->sel, &f);
	if (sv_stats_table_compute(t, *p, &f, &err) < 0) {
		sv_cli_stderr("", err.msg);
		sv_profile_free(*p);
		*p = NULL;
		return -1;
	}
	return 0;
}

int sv_diff_main(int argc, char **argv)
{
	struct diff_args a;
	struct sv_profile *p[2] = {NULL, NULL};
	struct sv_stats_table t[2];
	struct sv_diff d;
	struct sv_error err = {0};
	char *gate_text = NULL;
	size_t gate_len = 0;
	FILE *gate;
	int rc, k, loaded = 0;

	memset(&a, 0, sizeof a);
	memset(t, 0, sizeof t);
	memset(&d, 0, sizeof d);
	a.metric = SV_DIFF_TOTAL;
	a.sort = SV_DIFF_SORT_DELTA;
	a.fmt = SV_REPORT_TABLE;
	rc = diff_parse(argc, argv, &a);
	if (rc >= 0) {
		diff_args_free(&a);
		return rc;
	}
	rc = SV_EXIT_LOAD;
	for (k = 0; k < 2; k++, loaded++)
		if (diff_load(&a, a.file[k], &p[k], &t[k]) < 0)
			goto out;
	sv_cli_select_warnings(&a.sel);
	if (sv_diff_compute(&d, &t[0], &t[1], a.metric, a.sort, a.threshold,
		    &err) < 0) {
		sv_cli_stderr("", err.msg);
		goto out;
	}
	if (sv_report_diff(
		    stdout, &d, a.file[0], a.file[1], a.threshold, a.fmt) < 0 ||
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
		     "scopeview: diff: ", a.has_fail_above, a.fail_above,
		     a.fail_on_new)
		     ? SV_EXIT_REGRESSION
		     : SV_EXIT_OK;
	fclose(gate);
	sv_cli_eprint_lines(gate_text);
	free(gate_text);
out:
	sv_diff_fini(&d);
	for (k = 0; k < loaded; k++) {
		sv_stats_table_fini(&t[k]);
		sv_profile_free(p[k]);
	}
	diff_args_free(&a);
	return rc;
}
