/*
 * cmd_tree.c: `scopeview tree`, its command line.  Parses the options,
 * loads the profile, builds the call tree (callpath.h) over the ranks and
 * time range asked for, marks what the region filters show and hands it
 * to sv_tree_write (tree.h).  Prints, and returns the exit status (cli.h).
 */
#include "scopeview/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/callpath.h"
#include "scopeview/load.h"
#include "scopeview/regex.h"
#include "scopeview/stats.h"
#include "scopeview/tree.h"
#include "scopeview/view.h"

#define TREE_USAGE                                                          \
	"scopeview tree [--format text|json|csv] [--ranks LIST] "           \
	"[--range T0:T1] [--include RE]... [--exclude RE]... [--sort KEY] " \
	"[--expand-recursion] FILE"

static const struct sv_cli_option tree_options[] = {
	{"--format", NULL, "FMT", "text json csv",
		"text (default), json or csv"},
	{"--ranks", NULL, "LIST", NULL,
		"calls of these ranks only, e.g. 0,2-5"},
	{"--range", NULL, "T0:T1", NULL,
		"only [T0, T1), times from the run's\n"
		"origin as the viewer's ruler shows them\n"
		"(\"1.5ms:2s\"; ns without a unit); a call\n"
		"counts with its time inside the range"},
	{"--include", NULL, "RE", NULL,
		"only paths through a region matching RE\n"
		"at its start; repeatable"},
	{"--exclude", NULL, "RE", NULL,
		"leave out regions matching RE and what\n"
		"they call; repeatable"},
	{"--sort", NULL, "KEY", "name calls incl excl avg min max",
		"order of siblings (default incl)"},
	{"--expand-recursion", NULL, NULL, NULL,
		"a node for every level of recursion"},
	{"--help", "-h", NULL, NULL, "show this help"},
};

const struct sv_cli_command sv_cli_tree_cmd = {
	"tree",
	"[--format text|json|csv] [--ranks LIST] [--range T0:T1] "
	"[--include RE]... [--exclude RE]... [--sort KEY] "
	"[--expand-recursion] FILE",
	"print the call tree of a profile",
	true,
	tree_options,
	sizeof tree_options / sizeof tree_options[0],
};

static void tree_help(void)
{
	int k;

	printf("usage: %s\n\n"
	       "Print the call tree of a scope-profiler profile: one row per\n"
	       "distinct call path (root to region, by nesting in each lane),\n"
	       "merged over the lanes and ranks selected, with calls,\n"
	       "inclusive, exclusive, average, min and max time and the share\n"
	       "of the scope's time (the sum of the roots' inclusive time).\n"
	       "Recursion (a region called inside itself) is collapsed into\n"
	       "one node, marked recursive, unless --expand-recursion.\n\n"
	       "Options:\n",
		TREE_USAGE);
	sv_cli_write_options(stdout, &sv_cli_tree_cmd);
	printf("\nSort keys:\n");
	for (k = 0; k < SV_CALLPATH_KEY_COUNT; k++)
		printf("  %-6s %s\n", sv_callpath_key_name(k),
			sv_callpath_key_help(k));
	printf("\nJSON: {\"file\", \"scope\", \"roots\": [NODE, ...]}, NODE =\n"
	       "{\"name\", \"path\", \"num_calls\", \"inclusive_ns\",\n"
	       "\"exclusive_ns\", \"average_ns\", \"min_ns\", \"max_ns\", "
	       "\"pct\",\n\"recursive\", \"children\"} and each time also in "
	       "seconds\n(\"inclusive\").\n\n"
	       "Exit status: 0 success, 1 the profile could not be read,\n"
	       "2 a command-line mistake.\n");
}

struct tree_args {
	struct sv_tree_opts o;
	int sort;
	bool expand;
	const char *range;
	struct sv_regex_list re[2]; /* include, exclude */
	bool *rank_on;
	uint32_t nrank_on;
	const char *file;
};

static void tree_args_free(struct tree_args *a)
{
	sv_regex_list_fini(&a->re[0]);
	sv_regex_list_fini(&a->re[1]);
	free(a->rank_on);
}

/* Parse argv; returns -1 to go on, else an exit status. */
static int tree_parse(int argc, char **argv, struct tree_args *a)
{
	int i;
	bool only_files = false;

	for (i = 1; i < argc; i++) {
		const char *v;
		bool missing = false;
		struct sv_error err = {0};

		if (only_files || argv[i][0] != '-' || !strcmp(argv[i], "-")) {
			if (a->file)
				return sv_cli_usage_error(TREE_USAGE,
					"tree: more than one FILE ('%s', "
					"'%s')",
					a->file, argv[i]);
			a->file = argv[i];
		} else if (!strcmp(argv[i], "--")) {
			only_files = true;
		} else if (!strcmp(argv[i], "-h") ||
			   !strcmp(argv[i], "--help")) {
			tree_help();
			return SV_EXIT_OK;
		} else if (!strcmp(argv[i], "--expand-recursion")) {
			a->expand = true;
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--format", &missing))) {
			if (!strcmp(v, "text"))
				a->o.format = SV_TREE_TEXT;
			else if (!strcmp(v, "csv"))
				a->o.format = SV_TREE_CSV;
			else if (!strcmp(v, "json"))
				a->o.format = SV_TREE_JSON;
			else
				return sv_cli_usage_error(TREE_USAGE,
					"tree: unknown format '%s' (text, "
					"json or csv)",
					v);
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--sort", &missing))) {
			a->sort = sv_callpath_key_from_name(v);
			if (a->sort < 0)
				return sv_cli_usage_error(TREE_USAGE,
					"tree: unknown sort key '%s' (see "
					"--help)",
					v);
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--range", &missing))) {
			a->range = v;
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--include", &missing))) {
			if (!sv_regex_list_add(&a->re[0], v, &err))
				return sv_cli_usage_error(
					TREE_USAGE, "tree: %s", err.msg);
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--exclude", &missing))) {
			if (!sv_regex_list_add(&a->re[1], v, &err))
				return sv_cli_usage_error(
					TREE_USAGE, "tree: %s", err.msg);
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--ranks", &missing))) {
			free(a->rank_on);
			a->rank_on = NULL;
			if (sv_stats_parse_ranks(
				    v, &a->rank_on, &a->nrank_on, &err))
				return sv_cli_usage_error(
					TREE_USAGE, "tree: %s", err.msg);
			a->o.ranks = v;
		} else if (missing) {
			return sv_cli_usage_error(
				TREE_USAGE, "tree: %s needs a value", argv[i]);
		} else {
			return sv_cli_usage_error(TREE_USAGE,
				"tree: unknown option '%s'", argv[i]);
		}
	}
	if (!a->file)
		return sv_cli_usage_error(TREE_USAGE, "tree: no FILE given");
	return -1;
}

/* Region flags of the patterns of list k (NULL when it is empty). */
static bool *tree_region_flags(
	const struct sv_profile *p, const struct tree_args *a, int k)
{
	bool *on;
	uint32_t r;
	size_t i;

	if (!a->re[k].n)
		return NULL;
	on = sv_xcalloc((size_t)p->nregions + 1, sizeof *on);
	for (r = 0; r < p->nregions; r++)
		for (i = 0; i < a->re[k].n && !on[r]; i++)
			on[r] = sv_regex_match(a->re[k].re[i], p->regions[r]);
	return on;
}

int sv_tree_main(int argc, char **argv)
{
	struct tree_args a;
	struct sv_callpath_scope sc;
	struct sv_callpath t;
	struct sv_profile *p = NULL;
	struct sv_load_opts lo;
	struct sv_error err = {0};
	bool *lanes, *inc, *exc, *show = NULL;
	int64_t r0 = 0, r1 = 0;
	int rc;

	memset(&a, 0, sizeof a);
	a.sort = SV_CALLPATH_KEY_INCL;
	rc = tree_parse(argc, argv, &a);
	if (rc < 0 && a.range && sv_cli_parse_range(a.range, &r0, &r1) < 0)
		rc = sv_cli_usage_error(TREE_USAGE,
			"tree: bad range '%s' (T0:T1, e.g. 1.5ms:2ms)",
			a.range);
	if (rc >= 0) {
		tree_args_free(&a);
		return rc;
	}
	sv_cli_ranks_load_opts(a.rank_on, a.nrank_on, &lo);
	if (sv_load(a.file, &lo, &p, &err) < 0) {
		sv_cli_eprintf("scopeview: %s", err.msg);
		tree_args_free(&a);
		return SV_EXIT_LOAD;
	}
	memset(&sc, 0, sizeof sc);
	lanes = sv_cli_lanes_of_ranks(p, a.rank_on, a.nrank_on);
	sc.lane_on = lanes;
	sc.expand_recursion = a.expand;
	a.o.origin = sv_profile_time_origin(p);
	if (a.range) {
		sc.has_range = true;
		sc.t0 = sv_add_wrap(a.o.origin, r0);
		sc.t1 = sv_add_wrap(a.o.origin, r1);
	}
	rc = sv_callpath_build(&t, p, &sc, &err);
	if (rc < 0) {
		sv_cli_eprintf("scopeview: %s", err.msg);
		rc = SV_EXIT_LOAD;
	} else {
		sv_callpath_sort(&t, (enum sv_callpath_key)a.sort);
		inc = tree_region_flags(p, &a, 0);
		exc = tree_region_flags(p, &a, 1);
		if (inc || exc) {
			show = sv_xcalloc((size_t)t.nnodes + 1, sizeof *show);
			sv_callpath_visible(&t, inc, exc, show);
		}
		a.o.file = a.file;
		a.o.show = show;
		rc = SV_EXIT_OK;
		if (sv_tree_write(stdout, &t, &a.o) < 0) {
			sv_cli_eprintf("scopeview: cannot write the tree");
			rc = SV_EXIT_LOAD;
		}
		free(inc);
		free(exc);
		free(show);
	}
	sv_callpath_fini(&t);
	free(lanes);
	sv_profile_free(p);
	tree_args_free(&a);
	return rc;
}
