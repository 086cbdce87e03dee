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

struct tree_args {
	struct sv_tree_opts o;
	int format; /* enum sv_tree_format */
	int sort;
	bool expand;
	const char *range;
	struct sv_cli_select sel;
	const char *file;
};

#define TREE_AT(f, type) SV_CLI_AT(struct tree_args, f, type)

static int tree_set_sort(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	return sv_cli_set_key(
		target, sv_callpath_key_from_name(v), v, "sort key", cx);
}

static const struct sv_cli_option tree_options[] = {
	{"--format", NULL, "FMT", "text json csv",
		"text (default), json or csv", SV_CLI_CHOICE,
		TREE_AT(format, int), NULL, 0},
	{"--ranks", NULL, "LIST", NULL, "calls of these ranks only, e.g. 0,2-5",
		SV_CLI_CALL, TREE_AT(sel, struct sv_cli_select),
		sv_cli_set_ranks, 0},
	{"--range", NULL, "T0:T1", NULL,
		"only [T0, T1), times from the run's\n"
		"origin as the viewer's ruler shows them\n"
		"(\"1.5ms:2s\"; ns without a unit); a call\n"
		"counts with its time inside the range",
		SV_CLI_STRING, TREE_AT(range, const char *), NULL, 0},
	{"--include", NULL, "RE", NULL,
		"only paths through a region matching RE\n"
		"at its start; repeatable",
		SV_CLI_CALL, TREE_AT(sel, struct sv_cli_select),
		sv_cli_set_include, SV_CLI_REPEAT},
	{"--exclude", NULL, "RE", NULL,
		"leave out regions matching RE and what\n"
		"they call; repeatable",
		SV_CLI_CALL, TREE_AT(sel, struct sv_cli_select),
		sv_cli_set_exclude, SV_CLI_REPEAT},
	{"--sort", NULL, "KEY", "name calls incl excl avg min max",
		"order of siblings (default incl)", SV_CLI_CALL,
		TREE_AT(sort, int), tree_set_sort, 0},
	{"--expand-recursion", NULL, NULL, NULL,
		"a node for every level of recursion", SV_CLI_FLAG,
		TREE_AT(expand, bool), NULL, 0},
	{"--help", "-h", NULL, NULL, "show this help", SV_CLI_HELP, 0, NULL, 0},
	{"FILE", NULL, NULL, NULL, NULL, SV_CLI_STRING,
		TREE_AT(file, const char *), NULL, SV_CLI_REQUIRED},
};

static void tree_more(FILE *out)
{
	int k;

	fprintf(out, "\nSort keys:\n");
	for (k = 0; k < SV_CALLPATH_KEY_COUNT; k++)
		fprintf(out, "  %-6s %s\n", sv_callpath_key_name(k),
			sv_callpath_key_help(k));
	fprintf(out,
		"\nJSON: {\"file\", \"scope\", \"roots\": [NODE, ...]}, NODE "
		"=\n"
		"{\"name\", \"path\", \"num_calls\", \"inclusive_ns\",\n"
		"\"exclusive_ns\", \"average_ns\", \"min_ns\", \"max_ns\", "
		"\"pct\",\n\"recursive\", \"children\"} and each time also in "
		"seconds\n(\"inclusive\").\n\n"
		"Exit status: 0 success, 1 the profile could not be read,\n"
		"2 a command-line mistake.\n");
}

static void tree_init(void *args)
{
	struct tree_args *a = args;
	a->sort = SV_CALLPATH_KEY_INCL;
}

static void tree_fini(void *args)
{
	struct tree_args *a = args;
	sv_cli_select_fini(&a->sel);
}

/* Region flags of the patterns of list k (NULL when it is empty). */
static bool *tree_region_flags(
	const struct sv_profile *p, const struct sv_regex_list *re)
{
	bool *on;
	uint32_t r;
	size_t i;

	if (!re->n)
		return NULL;
	on = sv_xcalloc((size_t)p->nregions + 1, sizeof *on);
	for (r = 0; r < p->nregions; r++)
		for (i = 0; i < re->n && !on[r]; i++)
			on[r] = sv_regex_match(re->re[i], p->regions[r]);
	return on;
}

static int tree_run(void *args)
{
	struct tree_args *a = args;
	struct sv_callpath_scope sc;
	struct sv_callpath t;
	struct sv_profile *p = NULL;
	struct sv_load_opts lo;
	struct sv_error err = {0};
	bool *lanes, *inc, *exc, *show = NULL;
	int64_t r0 = 0, r1 = 0, range[2];
	int rc, streamed;

	if (a->range && sv_cli_parse_range(a->range, &r0, &r1) < 0)
		return sv_cli_fail(&sv_cli_tree_cmd,
			"bad range '%s' (T0:T1, e.g. 1.5ms:2ms)", a->range);
	a->o.format = (enum sv_tree_format)a->format;
	a->o.ranks = a->sel.ranks;
	sv_cli_ranks_load_opts(a->sel.rank_on, a->sel.nrank_on, &lo);
	memset(&sc, 0, sizeof sc);
	sc.expand_recursion = a->expand;
	range[0] = r0;
	range[1] = r1;
	/* A large file a few ranks at a time, when every rank is asked. */
	streamed = sv_cli_stream_tree(
		a->file, &lo, &sc, a->range ? range : NULL, &t, &p, &err);
	if (streamed < 0 || (!streamed && sv_cli_engine->load(a->file, &lo, &p,
						  &err) < 0)) {
		sv_cli_eprintf("scopeview: %s", err.msg);
		return SV_EXIT_LOAD;
	}
	lanes = streamed ? NULL
			 : sv_cli_lanes_of_ranks(
				   p, a->sel.rank_on, a->sel.nrank_on);
	sc.lane_on = lanes;
	a->o.origin =
		streamed ? sv_profile_time_origin(p) : sv_cli_engine->origin(p);
	if (a->range) {
		sc.has_range = true;
		sc.t0 = sv_add_wrap(a->o.origin, r0);
		sc.t1 = sv_add_wrap(a->o.origin, r1);
	}
	rc = streamed ? 0 : sv_cli_engine->callpath(&t, p, &sc, &err);
	if (rc < 0) {
		sv_cli_eprintf("scopeview: %s", err.msg);
		rc = SV_EXIT_LOAD;
	} else {
		sv_callpath_sort(&t, (enum sv_callpath_key)a->sort);
		inc = tree_region_flags(p, &a->sel.include);
		exc = tree_region_flags(p, &a->sel.exclude);
		if (inc || exc) {
			show = sv_xcalloc((size_t)t.nnodes + 1, sizeof *show);
			sv_callpath_visible(&t, inc, exc, show);
		}
		a->o.file = a->file;
		a->o.show = show;
		rc = SV_EXIT_OK;
		if (sv_tree_write(stdout, &t, &a->o) < 0) {
			sv_cli_eprintf("scopeview: cannot write the tree");
			rc = SV_EXIT_LOAD;
		}
		free(inc);
		free(exc);
		free(show);
	}
	sv_callpath_fini(&t);
	free(lanes);
	sv_cli_engine->release(p);
	return rc;
}

const struct sv_cli_command sv_cli_tree_cmd = {
	.name = "tree",
	.what = "print the call tree of a profile",
	.about =
		"Print the call tree of a scope-profiler profile: one row per\n"
		"distinct call path (root to region, by nesting in each "
		"lane),\n"
		"merged over the lanes and ranks selected, with calls,\n"
		"inclusive, exclusive, average, min and max time and the "
		"share\n"
		"of the scope's time (the sum of the roots' inclusive time).\n"
		"Recursion (a region called inside itself) is collapsed into\n"
		"one node, marked recursive, unless --expand-recursion.",
	.opts = tree_options,
	.nopts = sizeof tree_options / sizeof tree_options[0],
	.size = sizeof(struct tree_args),
	.init = tree_init,
	.run = tree_run,
	.fini = tree_fini,
	.more = tree_more,
};
