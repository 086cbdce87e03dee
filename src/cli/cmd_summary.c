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

/* More values of the --group-by key than this are refused.  Each value
 * gets a whole summary table (every figure of every region on every rank,
 * percentiles included), computed in a pass over every call: 999 values
 * of 10 million calls are already 10^10 steps and a table of 999 lines
 * per region.  A key with more values is an identifier (a request id, a
 * timestamp), not a grouping: the viewer's search (/ key=value) finds its
 * calls instead. */
#define SUMMARY_MAX_GROUPS 1000

/* ---- the command ---------------------------------------------------------- */

struct summary_args {
	struct sv_summary_opts o;
	int format; /* enum sv_summary_format */
	int sort;
	struct sv_cli_select sel;
	const char *group_by;
	const char *file;
};

#define SUMMARY_AT(f, type) SV_CLI_AT(struct summary_args, f, type)

static int summary_set_sort(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	return sv_cli_set_key(
		target, sv_stats_key_from_name(v), v, "sort key", cx);
}

static int summary_set_group_by(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	if (!*v)
		return sv_cli_fail(cx->cmd, "--group-by needs a key");
	*(const char **)target = v;
	return 0;
}

static const struct sv_cli_option summary_options[] = {
	{"--format", NULL, "FMT", "table csv json",
		"table (default), csv or json", SV_CLI_CHOICE,
		SUMMARY_AT(format, int), NULL, 0},
	{"--sort", NULL, "KEY", NULL, "order of the regions (default start)",
		SV_CLI_CALL, SUMMARY_AT(sort, int), summary_set_sort, 0},
	{"--include", NULL, "RE", NULL,
		"only regions whose name matches RE at its\n"
		"start (Perl-compatible, like Python's re.match);\n"
		"repeatable",
		SV_CLI_CALL, SUMMARY_AT(sel, struct sv_cli_select),
		sv_cli_set_include, SV_CLI_REPEAT},
	{"--exclude", NULL, "RE", NULL,
		"leave out regions matching RE; repeatable", SV_CLI_CALL,
		SUMMARY_AT(sel, struct sv_cli_select), sv_cli_set_exclude,
		SV_CLI_REPEAT},
	{"--ranks", NULL, "LIST", NULL,
		"figures over these ranks only, e.g. 0,2-5, and\n"
		"the whole run's from the stored statistics\n"
		"(a second table; JSON \"whole_run\")",
		SV_CLI_CALL, SUMMARY_AT(sel, struct sv_cli_select),
		sv_cli_set_ranks, 0},
	{"--per-rank", NULL, NULL, NULL,
		"a row per rank in the table and CSV\n"
		"(JSON always carries the ranks)",
		SV_CLI_FLAG, SUMMARY_AT(o.per_rank, bool), NULL, 0},
	{"--group-by", NULL, "KEY", NULL,
		"every figure per value of the calls' event\n"
		"metadata KEY under each region (calls\n"
		"without KEY: '-', null in JSON); values\n"
		"equal in Python (1, 1.0, true) are one\n"
		"group; at most 999 values",
		SV_CLI_CALL, SUMMARY_AT(group_by, const char *),
		summary_set_group_by, 0},
	{"--counters", NULL, NULL, NULL,
		"each region's hardware counters (perf,\n"
		"LIKWID) and their rates such as IPC",
		SV_CLI_FLAG, SUMMARY_AT(o.counters, bool), NULL, 0},
	{"--help", "-h", NULL, NULL, "show this help", SV_CLI_HELP, 0, NULL, 0},
	{"FILE", NULL, NULL, NULL, NULL, SV_CLI_STRING,
		SUMMARY_AT(file, const char *), NULL, SV_CLI_REQUIRED},
};

static void summary_more(FILE *out)
{
	int k;

	fprintf(out, "\nSort keys:\n");
	for (k = 0; k < SV_STATS_KEY_COUNT; k++)
		fprintf(out, "  %-10s %s\n", sv_stats_key_name(k),
			sv_stats_key_help(k));
	fprintf(out,
		"\nExit status: 0 success, 1 the profile could not be read,\n"
		"2 a command-line mistake.\n");
}

static void summary_init(void *args)
{
	struct summary_args *a = args;
	a->format = SV_SUMMARY_TABLE;
	a->sort = SV_STATS_KEY_START;
}

static void summary_fini(void *args)
{
	struct summary_args *a = args;
	sv_cli_select_fini(&a->sel);
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

static int summary_run(void *args)
{
	struct summary_args *a = args;
	struct sv_summary_group *groups = NULL;
	struct sv_load_opts lo;
	char **values = NULL;
	size_t nvalues = 0;
	long ngroups = 0;
	struct sv_stats_filter f;
	struct sv_stats_table t, run;
	struct sv_profile *p = NULL, *stored = NULL;
	struct sv_error err = {0};
	size_t i;
	bool streamed;
	int rc;

	a->o.format = (enum sv_summary_format)a->format;
	if (a->group_by && !sv_cli_engine->calls_here)
		return sv_cli_fail(&sv_cli_summary_cmd,
			"--group-by reads every call on one process: run it "
			"with scopeview, not %s",
			sv_cli_engine->name);
	sv_cli_select_load_opts(&a->sel, &lo);
	memset(&f, 0, sizeof f);
	sv_cli_select_filter(&a->sel, &f);
	/* A large file a few ranks at a time, where nothing asks for every
	 * call at once: the same figures, in a fraction of the memory. */
	rc = a->group_by || a->o.counters
		     ? 0
		     : sv_cli_stream_table(a->file, &lo, &f, &t, &p, &err);
	if (rc < 0) {
		sv_cli_stderr("", err.msg);
		return SV_EXIT_LOAD;
	}
	streamed = rc == 1;
	if (!streamed && sv_cli_engine->load(a->file, &lo, &p, &err) < 0) {
		sv_cli_stderr("", err.msg);
		return SV_EXIT_LOAD;
	}
	for (i = 0; i < p->nwarnings; i++)
		sv_cli_stderr("warning: ", p->warnings[i]);

	if (a->sel.rank_on) {
		char *why = sv_cli_ranks_missing(
			p, a->sel.rank_on, a->sel.nrank_on, NULL);
		if (why)
			sv_cli_eprintf("scopeview: warning: %s", why);
		free(why);
	}
	if (!streamed && sv_cli_engine->table(&t, p, &f, &err) < 0) {
		sv_cli_stderr("", err.msg);
		sv_cli_engine->release(p);
		return SV_EXIT_LOAD;
	}
	sv_cli_select_warnings(&a->sel);
	if (a->sel.rank_on && !p->run && !p->rank_subset)
		stored = sv_profile_stored_run(p);
	if (a->sel.rank_on && (p->run || stored)) {
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
			sv_cli_engine->release(p);
			return SV_EXIT_LOAD;
		}
		a->o.run = &run;
	}
	if (a->sort != SV_STATS_KEY_START)
		sv_stats_table_sort(&t, a->sort);
	if (a->group_by) {
		ngroups = summary_groups(p, &f, a->group_by, a->sort, &groups,
			&values, &nvalues, &err);
		if (ngroups < 0) {
			sv_cli_stderr("", err.msg);
			sv_strv_free_array(values, nvalues);
			sv_stats_table_fini(&t);
			sv_cli_engine->release(p);
			return SV_EXIT_LOAD;
		}
		a->o.group_by = a->group_by;
		a->o.groups = groups;
		a->o.ngroups = (size_t)ngroups;
	}
	a->o.file = a->file;
	a->o.ranks = a->sel.ranks;
	rc = SV_EXIT_OK;
	if (sv_summary_write(stdout, p, &t, &a->o) < 0) {
		sv_cli_eprintf("scopeview: cannot write the summary");
		rc = SV_EXIT_LOAD;
	}
	summary_groups_free(groups, (size_t)ngroups, values, nvalues);
	if (a->o.run)
		sv_stats_table_fini(&run);
	sv_profile_free(stored);
	sv_stats_table_fini(&t);
	sv_cli_engine->release(p);
	return rc;
}

const struct sv_cli_command sv_cli_summary_cmd = {
	.name = "summary",
	.what = "print the statistics of a profile",
	.about = "Print the statistics of a scope-profiler profile, with the\n"
		 "figures scope-profiler's own reader reports.",
	.opts = summary_options,
	.nopts = sizeof summary_options / sizeof summary_options[0],
	.size = sizeof(struct summary_args),
	.init = summary_init,
	.run = summary_run,
	.fini = summary_fini,
	.more = summary_more,
};
