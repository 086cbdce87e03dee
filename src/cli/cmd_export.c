/*
 * cmd_export.c: `scopeview export`, its command line: a profile written
 * in another tool's format.  The formats are one table (export_formats),
 * each row a name, a line of help and a writer; a new format is a row and
 * its writer.  Parses the options, loads the profile, opens the output
 * and hands both to the format's writer.  Prints, and returns the exit
 * status (cli.h).
 */
#include "scopeview/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/callpath.h"
#include "scopeview/load.h"
#include "scopeview/stats.h"
#include "scopeview/tree.h"

#define EXPORT_USAGE \
	"scopeview export --format FMT [--ranks LIST] [-o OUT] FILE"

struct export_args {
	const char *format, *out, *file, *ranks;
	bool *rank_on;
	uint32_t nrank_on;
};

/* Folded stacks, expanded recursion: every stack as it happened. */
static int export_collapsed(FILE *out, const struct sv_profile *p,
	const struct export_args *a, struct sv_error *err)
{
	struct sv_callpath_scope sc;
	struct sv_callpath t;
	bool *lanes = sv_cli_lanes_of_ranks(p, a->rank_on, a->nrank_on);
	int rc;

	memset(&sc, 0, sizeof sc);
	sc.lane_on = lanes;
	sc.expand_recursion = true;
	rc = sv_callpath_build(&t, p, &sc, err);
	if (rc == 0 && sv_tree_write_collapsed(out, &t, NULL) < 0)
		rc = sv_error_set(err, -EIO, "cannot write the stacks");
	sv_callpath_fini(&t);
	free(lanes);
	return rc;
}

static const struct {
	const char *name;
	const char *help;
	int (*write)(FILE *out, const struct sv_profile *p,
		const struct export_args *a, struct sv_error *err);
} export_formats[] = {
	{"collapsed",
		"folded stacks for flamegraph.pl and inferno: a line per\n"
		"              distinct stack, \"root;child;leaf VALUE\", "
		"VALUE "
		"the\n"
		"              summed exclusive (self) time in integer ns "
		"over\n"
		"              the ranks selected and every lane; recursion "
		"as\n"
		"              it happened (fib;fib;fib); stacks with no self\n"
		"              time are left out.  In names \\ is written "
		"\\\\,\n"
		"              ; as \\x3b, a newline as \\n and a carriage "
		"return\n"
		"              as \\r, so readers split frames at ; and lines "
		"at\n"
		"              newlines",
		export_collapsed},
};

#define EXPORT_NFORMATS (sizeof export_formats / sizeof export_formats[0])

static const struct sv_cli_option export_options[] = {
	{"--format", NULL, "FMT", "collapsed", "the format (below; required)"},
	{"--ranks", NULL, "LIST", NULL,
		"calls of these ranks only, e.g. 0,2-5"},
	{"-o", NULL, "OUT", "@file", "write to OUT instead of standard output"},
	{"--help", "-h", NULL, NULL, "show this help"},
};

const struct sv_cli_command sv_cli_export_cmd = {
	"export",
	"--format FMT [--ranks LIST] [-o OUT] FILE",
	"write a profile in another tool's format",
	true,
	export_options,
	sizeof export_options / sizeof export_options[0],
};

static void export_help(void)
{
	size_t i;

	printf("usage: %s\n\n"
	       "Write a scope-profiler profile in another tool's format.\n\n"
	       "Options:\n",
		EXPORT_USAGE);
	sv_cli_write_options(stdout, &sv_cli_export_cmd);
	printf("\nFormats:\n");
	for (i = 0; i < EXPORT_NFORMATS; i++)
		printf("  %-10s  %s\n", export_formats[i].name,
			export_formats[i].help);
	printf("\nExit status: 0 success, 1 the profile could not be read "
	       "or\nOUT written, 2 a command-line mistake.\n");
}

static int export_parse(int argc, char **argv, struct export_args *a)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *v;
		bool missing = false;
		struct sv_error err = {0};

		if (argv[i][0] != '-' || !strcmp(argv[i], "-")) {
			if (a->file)
				return sv_cli_usage_error(EXPORT_USAGE,
					"export: more than one FILE ('%s', "
					"'%s')",
					a->file, argv[i]);
			a->file = argv[i];
		} else if (!strcmp(argv[i], "-h") ||
			   !strcmp(argv[i], "--help")) {
			export_help();
			return SV_EXIT_OK;
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--format", &missing))) {
			a->format = v;
		} else if ((v = sv_cli_opt(argc, argv, &i, "-o", &missing)) ||
			   (v = sv_cli_opt(
				    argc, argv, &i, "--output", &missing))) {
			a->out = v;
		} else if ((v = sv_cli_opt(
				    argc, argv, &i, "--ranks", &missing))) {
			free(a->rank_on);
			a->rank_on = NULL;
			if (sv_stats_parse_ranks(
				    v, &a->rank_on, &a->nrank_on, &err))
				return sv_cli_usage_error(
					EXPORT_USAGE, "export: %s", err.msg);
			a->ranks = v;
		} else if (missing) {
			return sv_cli_usage_error(EXPORT_USAGE,
				"export: %s needs a value", argv[i]);
		} else {
			return sv_cli_usage_error(EXPORT_USAGE,
				"export: unknown option '%s'", argv[i]);
		}
	}
	if (!a->format)
		return sv_cli_usage_error(
			EXPORT_USAGE, "export: no --format given");
	if (!a->file)
		return sv_cli_usage_error(
			EXPORT_USAGE, "export: no FILE given");
	return -1;
}

int sv_export_main(int argc, char **argv)
{
	struct export_args a;
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	FILE *out = stdout;
	size_t f;
	int rc;

	memset(&a, 0, sizeof a);
	rc = export_parse(argc, argv, &a);
	for (f = 0; rc < 0 && f < EXPORT_NFORMATS; f++)
		if (!strcmp(export_formats[f].name, a.format))
			break;
	if (rc < 0 && f == EXPORT_NFORMATS)
		rc = sv_cli_usage_error(EXPORT_USAGE,
			"export: unknown format '%s' (see --help)", a.format);
	if (rc >= 0) {
		free(a.rank_on);
		return rc;
	}
	if (sv_load(a.file, NULL, &p, &err) < 0) {
		char *safe = sv_utf8_terminal_safe(err.msg, NULL);
		fprintf(stderr, "scopeview: %s\n", safe);
		free(safe);
		free(a.rank_on);
		return SV_EXIT_LOAD;
	}
	if (a.out && strcmp(a.out, "-")) {
		out = fopen(a.out, "w");
		if (!out) {
			fprintf(stderr, "scopeview: %s: %s\n", a.out,
				strerror(errno));
			sv_profile_free(p);
			free(a.rank_on);
			return SV_EXIT_LOAD;
		}
	}
	rc = export_formats[f].write(out, p, &a, &err) < 0 ? SV_EXIT_LOAD
							   : SV_EXIT_OK;
	if (out != stdout && fclose(out) && rc == SV_EXIT_OK) {
		sv_error_set(&err, -EIO, "%s: cannot write", a.out);
		rc = SV_EXIT_LOAD;
	}
	if (rc != SV_EXIT_OK)
		fprintf(stderr, "scopeview: %s\n", err.msg);
	sv_profile_free(p);
	free(a.rank_on);
	return rc;
}
