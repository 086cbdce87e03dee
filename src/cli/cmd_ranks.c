/*
 * cmd_ranks.c: `scopeview ranks`, its command line.  Loads the profile,
 * computes the statistics (stats.h) and the rank x region matrix from
 * them (ranks.h), and hands it to sv_report_ranks (report.h).  Prints,
 * and returns the exit status (cli.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/cli.h"
#include "scopeview/load.h"
#include "scopeview/ranks.h"
#include "scopeview/report.h"
#include "scopeview/stats.h"

#define RANKS_USAGE                                             \
	"scopeview ranks [--metric total|exclusive] [--format " \
	"table|csv|json] FILE"

static const struct sv_cli_option ranks_options[] = {
	{"--metric", NULL, "M", "total exclusive",
		"total (default, inclusive) or exclusive"},
	{"--format", NULL, "FMT", "table csv json",
		"table (default), csv or json"},
	{"--help", "-h", NULL, NULL, "show this help"},
};

const struct sv_cli_command sv_cli_ranks_cmd = {
	"ranks",
	"[--metric total|exclusive] [--format table|csv|json] FILE",
	"print the rank x region load balance",
	true,
	ranks_options,
	sizeof ranks_options / sizeof ranks_options[0],
};

static void ranks_help(void)
{
	printf("usage: %s\n\n"
	       "Print each rank's time in each region and the load-balance\n"
	       "figures of every region: min, mean and max over the ranks\n"
	       "with calls, the slowest rank, its excess over the mean and\n"
	       "rank_imbalance_pct as `scopeview summary` reports it.\n\n"
	       "Options:\n",
		RANKS_USAGE);
	sv_cli_write_options(stdout, &sv_cli_ranks_cmd);
	printf("\nExit status: 0 success, 1 the profile could not be read,\n"
	       "2 a command-line mistake.\n");
}

int sv_ranks_main(int argc, char **argv)
{
	enum sv_report_format fmt = SV_REPORT_TABLE;
	enum sv_ranks_metric metric = SV_RANKS_TOTAL;
	const char *file = NULL;
	struct sv_profile *p = NULL;
	struct sv_stats_table t;
	struct sv_ranks m;
	struct sv_error err = {0};
	int i, rc = SV_EXIT_OK;

	for (i = 1; i < argc; i++) {
		const char *v;
		bool missing = false;
		if (argv[i][0] != '-' || !strcmp(argv[i], "-")) {
			if (file)
				return sv_cli_usage_error(RANKS_USAGE,
					"ranks: more than one FILE");
			file = argv[i];
		} else if (!strcmp(argv[i], "-h") ||
			   !strcmp(argv[i], "--help")) {
			ranks_help();
			return SV_EXIT_OK;
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--metric", &missing))) {
			if (!strcmp(v, "total"))
				metric = SV_RANKS_TOTAL;
			else if (!strcmp(v, "exclusive"))
				metric = SV_RANKS_EXCLUSIVE;
			else
				return sv_cli_usage_error(RANKS_USAGE,
					"ranks: unknown metric '%s' (total or "
					"exclusive)",
					v);
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--format", &missing))) {
			int bad = sv_cli_report_format(
				v, &fmt, RANKS_USAGE, "ranks");
			if (bad)
				return bad;
		} else if (missing) {
			return sv_cli_usage_error(RANKS_USAGE,
				"ranks: %s needs a value", argv[i]);
		} else {
			return sv_cli_usage_error(RANKS_USAGE,
				"ranks: unknown option '%s'", argv[i]);
		}
	}
	if (!file)
		return sv_cli_usage_error(RANKS_USAGE, "ranks: no FILE given");
	if (sv_load(file, NULL, &p, &err) < 0) {
		sv_cli_eprintf("scopeview: %s", err.msg);
		return SV_EXIT_LOAD;
	}
	if (sv_stats_table_compute(&t, p, NULL, &err) < 0) {
		sv_cli_eprintf("scopeview: cannot compute the statistics");
		sv_profile_free(p);
		return SV_EXIT_LOAD;
	}
	sv_ranks_compute(&m, &t, metric);
	if (sv_report_ranks(stdout, p, &m, file, fmt) < 0) {
		sv_cli_eprintf("scopeview: cannot write the matrix");
		rc = SV_EXIT_LOAD;
	}
	sv_ranks_fini(&m);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
	return rc;
}
