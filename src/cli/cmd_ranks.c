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

struct ranks_args {
	int format; /* enum sv_report_format */
	int metric; /* enum sv_ranks_metric */
	const char *file;
};

#define RANKS_AT(f, type) SV_CLI_AT(struct ranks_args, f, type)

static const struct sv_cli_option ranks_options[] = {
	{"--metric", NULL, "M", "total exclusive",
		"total (default, inclusive) or exclusive", SV_CLI_CHOICE,
		RANKS_AT(metric, int), NULL, 0},
	{"--format", NULL, "FMT", "table csv json",
		"table (default), csv or json", SV_CLI_CHOICE,
		RANKS_AT(format, int), NULL, 0},
	{"--help", "-h", NULL, NULL, "show this help", SV_CLI_HELP, 0, NULL, 0},
	{"FILE", NULL, NULL, NULL, NULL, SV_CLI_STRING,
		RANKS_AT(file, const char *), NULL, SV_CLI_REQUIRED},
};

static void ranks_more(FILE *out)
{
	fprintf(out,
		"\nExit status: 0 success, 1 the profile could not be read,\n"
		"2 a command-line mistake.\n");
}

static int ranks_run(void *args)
{
	const struct ranks_args *a = args;
	const char *file = a->file;
	struct sv_profile *p = NULL;
	struct sv_stats_table t;
	struct sv_ranks m;
	struct sv_error err = {0};
	struct sv_load_opts lo;
	int rc = SV_EXIT_OK, streamed;

	/* A large file a few ranks at a time (as summary reads it). */
	memset(&lo, 0, sizeof lo);
	streamed = sv_cli_stream_table(file, &lo, NULL, &t, &p, &err);
	if (streamed < 0 ||
		(!streamed && sv_cli_engine->load(file, NULL, &p, &err) < 0)) {
		sv_cli_eprintf("scopeview: %s", err.msg);
		return SV_EXIT_LOAD;
	}
	if (!streamed && sv_cli_engine->table(&t, p, NULL, &err) < 0) {
		sv_cli_eprintf("scopeview: cannot compute the statistics");
		sv_cli_engine->release(p);
		return SV_EXIT_LOAD;
	}
	sv_ranks_compute(&m, &t, (enum sv_ranks_metric)a->metric);
	if (sv_report_ranks(stdout, p, &m, file,
		    (enum sv_report_format)a->format) < 0) {
		sv_cli_eprintf("scopeview: cannot write the matrix");
		rc = SV_EXIT_LOAD;
	}
	sv_ranks_fini(&m);
	sv_stats_table_fini(&t);
	sv_cli_engine->release(p);
	return rc;
}

const struct sv_cli_command sv_cli_ranks_cmd = {
	.name = "ranks",
	.what = "print the rank x region load balance",
	.about = "Print each rank's time in each region and the load-balance\n"
		 "figures of every region: min, mean and max over the ranks\n"
		 "with calls, the slowest rank, its excess over the mean and\n"
		 "rank_imbalance_pct as `scopeview summary` reports it.",
	.opts = ranks_options,
	.nopts = sizeof ranks_options / sizeof ranks_options[0],
	.size = sizeof(struct ranks_args),
	.run = ranks_run,
	.more = ranks_more,
};
