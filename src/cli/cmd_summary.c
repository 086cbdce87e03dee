/*
 * cmd_summary.c: `scopeview summary`, its command line.  Parses the
 * options, loads the profile, computes the statistics (stats.h) and hands
 * them to sv_summary_write (summary.h).  Prints, and returns the exit
 * status (cli.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/callmeta.h"
#include "scopeview/cli.h"
#include "scopeview/load.h"
#include "scopeview/regex.h"
#include "scopeview/stats.h"
#include "scopeview/strv.h"
#include "scopeview/summary.h"

#define SUMMARY_USAGE                                                      \
	"scopeview summary [--format table|csv|json] [--sort KEY] "        \
	"[--include RE]... [--exclude RE]... [--ranks LIST] [--per-rank] " \
	"[--group-by KEY] [--counters] FILE"

/* More values of the --group-by key than this are refused.  Each value
 * gets a whole summary table (every figure of every region on every rank,
 * percentiles included), computed in a pass over every call: 999 values
 * of 10 million calls are already 10^10 steps and a table of 999 lines
 * per region.  A key with more values is an identifier (a request id, a
 * timestamp), not a grouping: the viewer's search (/ key=value) finds its
 * calls instead. */
#define SUMMARY_MAX_GROUPS 1000

/* ---- the command ---------------------------------------------------------- */

static const struct sv_cli_option summary_options[] = {
	{"--format", NULL, "FMT", "table csv json",
		"table (default), csv or json"},
	{"--sort", NULL, "KEY", NULL, "order of the regions (default start)"},
	{"--include", NULL, "RE", NULL,
		"only regions whose name matches RE at its\n"
		"start (Perl-compatible, like Python's re.match);\n"
		"repeatable"},
	{"--exclude", NULL, "RE", NULL,
		"leave out regions matching RE; repeatable"},
	{"--ranks", NULL, "LIST", NULL,
		"figures over these ranks only, e.g. 0,2-5, and\n"
		"the whole run's from the stored statistics\n"
		"(a second table; JSON \"whole_run\")"},
	{"--per-rank", NULL, NULL, NULL,
		"a row per rank in the table and CSV\n"
		"(JSON always carries the ranks)"},
	{"--group-by", NULL, "KEY", NULL,
		"every figure per value of the calls' event\n"
		"metadata KEY under each region (calls\n"
		"without KEY: '-', null in JSON); values\n"
		"equal in Python (1, 1.0, true) are one\n"
		"group; at most 999 values"},
	{"--counters", NULL, NULL, NULL,
		"each region's hardware counters (perf,\n"
		"LIKWID) and their rates such as IPC"},
	{"--help", "-h", NULL, NULL, "show this help"},
};

const struct sv_cli_command sv_cli_summary_cmd = {
	"summary",
	"[--format table|csv|json] [--sort KEY] [--include RE]... "
	"[--exclude RE]... [--ranks LIST] [--per-rank] FILE",
	"print the statistics of a profile",
	true,
	summary_options,
	sizeof summary_options / sizeof summary_options[0],
};

static void summary_help(void)
{
	int k;

	printf("usage: %s\n\n"
	       "Print the statistics of a scope-profiler profile, with the\n"
	       "figures scope-profiler's own reader reports.\n\n"
	       "Options:\n",
		SUMMARY_USAGE);
	sv_cli_write_options(stdout, &sv_cli_summary_cmd);
	printf("\nSort keys:\n");
	for (k = 0; k < SV_STATS_KEY_COUNT; k++)
		printf("  %-10s %s\n", sv_stats_key_name(k),
			sv_stats_key_help(k));
	printf("\nExit status: 0 success, 1 the profile could not be read,\n"
	       "2 a command-line mistake.\n");
}

struct summary_args {
	struct sv_summary_opts o;
	int sort;
	struct sv_cli_select sel;
	const char *group_by;
	const char *file;
};

static void summary_args_free(struct summary_args *a)
{
	sv_cli_select_fini(&a->sel);
}

/* Parse argv; returns -1 to go on, else an exit status. */
static int summary_parse(int argc, char **argv, struct summary_args *a)
{
	int i;
	bool only_files = false;

	for (i = 1; i < argc; i++) {
		const char *v;
		bool missing = false;
		int taken;

		if (only_files || argv[i][0] != '-' || !strcmp(argv[i], "-")) {
			if (a->file)
				return sv_cli_usage_error(SUMMARY_USAGE,
					"summary: more than one FILE ('%s', "
					"'%s')",
					a->file, argv[i]);
			a->file = argv[i];
		} else if (!strcmp(argv[i], "--")) {
			only_files = true;
		} else if (!strcmp(argv[i], "-h") ||
			   !strcmp(argv[i], "--help")) {
			summary_help();
			return SV_EXIT_OK;
		} else if (!strcmp(argv[i], "--counters")) {
			a->o.counters = true;
		} else if (!strcmp(argv[i], "--per-rank")) {
			a->o.per_rank = true;
		} else if ((taken = sv_cli_select_opt(&a->sel, argc, argv, &i,
				    &missing, SUMMARY_USAGE, "summary"))) {
			if (taken < 0)
				return SV_EXIT_USAGE;
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--format", &missing))) {
			if (!strcmp(v, "table"))
				a->o.format = SV_SUMMARY_TABLE;
			else if (!strcmp(v, "csv"))
				a->o.format = SV_SUMMARY_CSV;
			else if (!strcmp(v, "json"))
				a->o.format = SV_SUMMARY_JSON;
			else
				return sv_cli_usage_error(SUMMARY_USAGE,
					"summary: unknown format '%s' (table, "
					"csv or json)",
					v);
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--group-by", &missing))) {
			if (!*v)
				return sv_cli_usage_error(SUMMARY_USAGE,
					"summary: --group-by needs a key");
			a->group_by = v;
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--sort", &missing))) {
			a->sort = sv_stats_key_from_name(v);
			if (a->sort < 0)
				return sv_cli_usage_error(SUMMARY_USAGE,
					"summary: unknown sort key '%s' (see "
					"--help)",
					v);
		} else if (missing) {
			return sv_cli_usage_error(SUMMARY_USAGE,
				"summary: %s needs a value", argv[i]);
		} else {
			return sv_cli_usage_error(SUMMARY_USAGE,
				"summary: unknown option '%s'", argv[i]);
		}
	}
	if (!a->file)
		return sv_cli_usage_error(
			SUMMARY_USAGE, "summary: no FILE given");
	return -1;
}

/* The groups of --group-by: one table per value of the key, then one for
 * the calls without it, each over the selection of f.  The tables share
 * one call_on buffer, refilled for each: sv_stats_percentile, which would
 * read it again, is never called on them.  Returns the number of groups
 * (*groups and their tables malloc'd), or -1 with err. */
static long summary_groups(const struct sv_profile *p,
	const struct sv_stats_filter *base, const char *key, int sort,
	struct sv_summary_group **groups, char ***values, size_t *nvalues,
	struct sv_error *err)
{
	uint32_t *group_of, c;
	size_t n = sv_callmeta_groups(p, key, values, &group_of), k;
	bool *on;
	struct sv_stats_filter f = *base;
	struct sv_stats_table *tables;

	*nvalues = n;
	*groups = NULL;
	if (n + 1 > SUMMARY_MAX_GROUPS) {
		free(group_of);
		sv_error_set(err, -E2BIG,
			"--group-by %s: the calls hold %zu values of it, more "
			"than the %d this summary groups by (a key of that "
			"many values names calls rather than groups them)",
			key, n, SUMMARY_MAX_GROUPS - 1);
		return -1;
	}
	on = sv_xmalloc(p->ncalls ? p->ncalls : 1);
	tables = sv_xcalloc(n + 1, sizeof *tables);
	*groups = sv_xcalloc(n + 1, sizeof **groups);
	f.call_on = on;
	for (k = 0; k <= n; k++) {
		uint32_t want = k < n ? (uint32_t)k : SV_CALLMETA_NO_GROUP;
		for (c = 0; c < p->ncalls; c++)
			on[c] = group_of[c] == want;
		if (sv_stats_table_compute(&tables[k], p, &f, err) < 0) {
			while (k-- > 0)
				sv_stats_table_fini(&tables[k]);
			free(tables);
			free(*groups);
			*groups = NULL;
			free(on);
			free(group_of);
			return -1;
		}
		if (sort != SV_STATS_KEY_START)
			sv_stats_table_sort(&tables[k], sort);
		(*groups)[k].value = k < n ? (*values)[k] : NULL;
		(*groups)[k].t = &tables[k];
	}
	free(on);
	free(group_of);
	return (long)n + 1;
}

static void summary_groups_free(
	struct sv_summary_group *groups, size_t n, char **values, size_t nv)
{
	size_t k;
	for (k = 0; k < n; k++)
		sv_stats_table_fini((struct sv_stats_table *)groups[k].t);
	if (n)
		free((void *)groups[0].t);
	free(groups);
	sv_strv_free_array(values, nv);
}

int sv_summary_main(int argc, char **argv)
{
	struct sv_summary_group *groups = NULL;
	struct sv_load_opts lo;
	char **values = NULL;
	size_t nvalues = 0;
	long ngroups = 0;
	struct summary_args a;
	struct sv_stats_filter f;
	struct sv_stats_table t, run;
	struct sv_profile *p = NULL, *stored = NULL;
	struct sv_error err = {0};
	size_t i;
	int rc;

	memset(&a, 0, sizeof a);
	a.o.format = SV_SUMMARY_TABLE;
	a.sort = SV_STATS_KEY_START;
	rc = summary_parse(argc, argv, &a);
	if (rc >= 0) {
		summary_args_free(&a);
		return rc;
	}
	sv_cli_select_load_opts(&a.sel, &lo);
	if (sv_load(a.file, &lo, &p, &err) < 0) {
		sv_cli_stderr("", err.msg);
		summary_args_free(&a);
		return SV_EXIT_LOAD;
	}
	for (i = 0; i < p->nwarnings; i++)
		sv_cli_stderr("warning: ", p->warnings[i]);

	if (a.sel.rank_on) {
		char *why = sv_cli_ranks_missing(
			p, a.sel.rank_on, a.sel.nrank_on, NULL);
		if (why)
			sv_cli_eprintf("scopeview: warning: %s", why);
		free(why);
	}
	memset(&f, 0, sizeof f);
	sv_cli_select_filter(&a.sel, &f);
	if (sv_stats_table_compute(&t, p, &f, &err) < 0) {
		sv_cli_stderr("", err.msg);
		sv_profile_free(p);
		summary_args_free(&a);
		return SV_EXIT_LOAD;
	}
	sv_cli_select_warnings(&a.sel);
	if (a.sel.rank_on && !p->run && !p->rank_subset)
		stored = sv_profile_stored_run(p);
	if (a.sel.rank_on && (p->run || stored)) {
		/* Beside the subset, the whole run: from the stored records
		 * of every row, whether only the subset was read or every
		 * rank (then the same figures); none where the file stores
		 * none. */
		struct sv_stats_filter rf = f;
		rf.rank_on = NULL;
		rf.nrank_on = 0;
		if (sv_stats_table_compute(
			    &run, p->run ? p->run : stored, &rf, &err) < 0) {
			sv_cli_stderr("", err.msg);
			sv_profile_free(stored);
			sv_stats_table_fini(&t);
			sv_profile_free(p);
			summary_args_free(&a);
			return SV_EXIT_LOAD;
		}
		a.o.run = &run;
	}
	if (a.sort != SV_STATS_KEY_START)
		sv_stats_table_sort(&t, a.sort);
	if (a.group_by) {
		ngroups = summary_groups(p, &f, a.group_by, a.sort, &groups,
			&values, &nvalues, &err);
		if (ngroups < 0) {
			sv_cli_stderr("", err.msg);
			sv_strv_free_array(values, nvalues);
			sv_stats_table_fini(&t);
			sv_profile_free(p);
			summary_args_free(&a);
			return SV_EXIT_LOAD;
		}
		a.o.group_by = a.group_by;
		a.o.groups = groups;
		a.o.ngroups = (size_t)ngroups;
	}
	a.o.file = a.file;
	a.o.ranks = a.sel.ranks;
	rc = SV_EXIT_OK;
	if (sv_summary_write(stdout, p, &t, &a.o) < 0) {
		sv_cli_eprintf("scopeview: cannot write the summary");
		rc = SV_EXIT_LOAD;
	}
	summary_groups_free(groups, (size_t)ngroups, values, nvalues);
	if (a.o.run)
		sv_stats_table_fini(&run);
	sv_profile_free(stored);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
	summary_args_free(&a);
	return rc;
}
