/*
 * cmd_export.c: `scopeview export`, its command line: a profile written
 * in another tool's format.  The formats are one table (export_formats),
 * each row a name, a line of help and a writer; a new format is a row and
 * its writer (export.h; the folded stacks are the call tree's).  Parses
 * the options, loads the profile, opens the output and hands both to the
 * format's writer; the same table serves the viewer's :export
 * (sv_cli_export_sink).  Prints, and returns the exit status (cli.h).
 */
#include "scopeview/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/export.h"
#include "scopeview/load.h"
#include "scopeview/stats.h"

#define EXPORT_USAGE                                                    \
	"scopeview export --format FMT [--ranks LIST] [--range T0:T1] " \
	"[-o OUT] FILE"

struct export_args {
	const char *format, *out, *file, *ranks, *range;
	bool *rank_on;
	uint32_t nrank_on;
};

static const struct {
	const char *name;
	const char *help;
	int (*write)(FILE *out, const struct sv_profile *p,
		const struct sv_export_scope *sc, const char *file,
		struct sv_error *err);
} export_formats[] = {
	{"chrome",
		"Chrome trace-event JSON for Perfetto (ui.perfetto.dev)\n"
		"and chrome://tracing: a complete event (\"ph\": \"X\") per\n"
		"call, pid the rank, tid the lane, process and thread\n"
		"names as metadata events, ts and dur in microseconds\n"
		"(ts from the run's origin); args hold the exact\n"
		"start_ns, end_ns, duration_ns, exclusive_ns, depth,\n"
		"call and parent (call numbers), gpu_ns, await_ns,\n"
		"call_id, parent_id (when the file has them) and the\n"
		"call's metadata",
		sv_export_chrome},
	{"speedscope",
		"speedscope's file format (www.speedscope.app): a frame\n"
		"per region, an evented profile per lane named like\n"
		"the lane, open and close events balanced and ordered,\n"
		"unit nanoseconds, times from the run's origin",
		sv_export_speedscope},
	{"collapsed",
		"folded stacks for flamegraph.pl and inferno: a line per\n"
		"distinct stack, \"root;child;leaf VALUE\", VALUE the\n"
		"summed exclusive (self) time in integer ns over the\n"
		"calls selected; recursion as it happened (fib;fib;fib);\n"
		"stacks with no self time are left out.  In names \\ is\n"
		"written \\\\, ; as \\x3b, a newline as \\n and a carriage\n"
		"return as \\r, so readers split frames at ; and lines\n"
		"at newlines; with --range, the time inside the range",
		sv_export_collapsed},
	{"csv",
		"a row per call, RFC 4180 quoting, a header row: call,\n"
		"rank, lane, region, start_ns, end_ns, duration_ns,\n"
		"exclusive_ns, depth, parent (call numbers), gpu_ns,\n"
		"await_ns (empty without the column) and metadata (the\n"
		"call's metadata as a JSON object)",
		sv_export_csv},
	{"json",
		"scope-profiler's JSON profile (its export --format\n"
		"json), which scopeview and scope-profiler read back:\n"
		"a row per region and rank with the calls' starts,\n"
		"ends and optional columns in storage order, metadata,\n"
		"lane tables and line profiles (not LIKWID results);\n"
		"with --ranks or --range, those calls only",
		sv_export_json},
};

#define EXPORT_NFORMATS (sizeof export_formats / sizeof export_formats[0])

static long export_find(const char *name)
{
	size_t f;
	for (f = 0; name && f < EXPORT_NFORMATS; f++)
		if (!strcmp(export_formats[f].name, name))
			return (long)f;
	return -1;
}

/* Format f of p's calls in sc to out; an aggregate file has none. */
static int export_run(long f, FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err)
{
	/* a JSON profile keeps stored statistics as they are */
	if (!p->has_calls && export_formats[f].write != sv_export_json)
		return sv_error_set(err, -EINVAL,
			"%s: the aggregate layout holds per-rank totals, no "
			"calls to export",
			file ? file : p->path);
	return export_formats[f].write(out, p, sc, file, err);
}

/* The viewer's (and -o's) export to a file: refuses the profile's own. */
static int export_to_path(const char *format, const char *path,
	const struct sv_profile *p, const struct sv_export_scope *sc,
	struct sv_error *err)
{
	long f = export_find(format);
	FILE *out;
	int rc;

	if (f < 0)
		return sv_error_set(err, -EINVAL,
			"unknown export format '%s' (chrome, speedscope, "
			"collapsed, csv, json)",
			format ? format : "");
	if (sv_export_is_source(p, path))
		return sv_error_set(err, -EEXIST,
			"%s is the profile being exported; not overwriting it",
			path);
	if (!p->has_calls && export_formats[f].write != sv_export_json)
		return export_run(f, NULL, p, sc, NULL, err);
	out = fopen(path, "w");
	if (!out)
		return sv_error_set(
			err, -errno, "%s: %s", path, strerror(errno));
	rc = export_run(f, out, p, sc, NULL, err);
	if (fclose(out) && rc == 0)
		rc = sv_error_set(err, -EIO, "%s: cannot write", path);
	return rc;
}

const struct sv_sink sv_cli_export_sink = {
	export_to_path,
	"chrome speedscope collapsed csv json",
};

static const struct sv_cli_option export_options[] = {
	{"--format", NULL, "FMT", "chrome speedscope collapsed csv json",
		"the format (below; required)"},
	{"--ranks", NULL, "LIST", NULL,
		"calls of these ranks only, e.g. 0,2-5"},
	{"--range", NULL, "T0:T1", NULL,
		"only calls that meet [T0, T1), times from the\n"
		"run's origin as the viewer's ruler shows them\n"
		"(\"1.5ms:2s\"; ns without a unit); each call\n"
		"whole, with its exact times"},
	{"-o", NULL, "OUT", "@file", "write to OUT instead of standard output"},
	{"--help", "-h", NULL, NULL, "show this help"},
};

const struct sv_cli_command sv_cli_export_cmd = {
	"export",
	"--format FMT [--ranks LIST] [--range T0:T1] [-o OUT] FILE",
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
	for (i = 0; i < EXPORT_NFORMATS; i++) {
		const char *h = export_formats[i].help;
		bool first = true;
		while (*h) {
			size_t len = strcspn(h, "\n");
			printf("  %-10s  %.*s\n",
				first ? export_formats[i].name : "", (int)len,
				h);
			first = false;
			h += len + (h[len] == '\n');
		}
	}
	printf("\nEvery call of the lanes selected that meets the range is\n"
	       "one event (chrome), one open and one close event\n"
	       "(speedscope) or one row (csv), written as it is read: the\n"
	       "export needs little memory beyond the profile.  OUT is never\n"
	       "FILE itself.\n\n"
	       "Exit status: 0 success, 1 the profile could not be read "
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
				    argc, argv, &i, "--range", &missing))) {
			a->range = v;
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
	struct sv_export_scope sc;
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	bool *lanes = NULL;
	int64_t r0 = 0, r1 = 0;
	long f = -1;
	int rc;

	memset(&a, 0, sizeof a);
	rc = export_parse(argc, argv, &a);
	if (rc < 0 && (f = export_find(a.format)) < 0)
		rc = sv_cli_usage_error(EXPORT_USAGE,
			"export: unknown format '%s' (see --help)", a.format);
	if (rc < 0 && a.range && sv_cli_parse_range(a.range, &r0, &r1) < 0)
		rc = sv_cli_usage_error(EXPORT_USAGE,
			"export: bad range '%s' (T0:T1, e.g. 1.5ms:2ms)",
			a.range);
	if (rc >= 0) {
		free(a.rank_on);
		return rc;
	}
	/* Every rank is read even with --ranks: chrome's tid is the lane's
	 * number and "call" the call's, both over the whole file, and
	 * speedscope's frames take a region's source from any rank's row,
	 * so a rank-subset load (sv_load_opts.rank_on) would change them. */
	if (sv_load(a.file, NULL, &p, &err) < 0) {
		char *safe = sv_utf8_terminal_safe(err.msg, NULL);
		fprintf(stderr, "scopeview: %s\n", safe);
		free(safe);
		free(a.rank_on);
		return SV_EXIT_LOAD;
	}
	lanes = sv_cli_lanes_of_ranks(p, a.rank_on, a.nrank_on);
	memset(&sc, 0, sizeof sc);
	sc.lane_on = lanes;
	if (a.range) {
		int64_t origin = sv_profile_time_origin(p);
		sc.has_range = true;
		sc.t0 = sv_add_wrap(origin, r0);
		sc.t1 = sv_add_wrap(origin, r1);
	}
	if (a.out && strcmp(a.out, "-"))
		rc = export_to_path(a.format, a.out, p, &sc, &err);
	else
		rc = export_run(f, stdout, p, &sc, a.file, &err);
	if (rc < 0) {
		char *safe = sv_utf8_terminal_safe(err.msg, NULL);
		fprintf(stderr, "scopeview: %s\n", safe);
		free(safe);
	}
	rc = rc == -EEXIST ? SV_EXIT_USAGE : rc < 0 ? SV_EXIT_LOAD : SV_EXIT_OK;
	sv_profile_free(p);
	free(lanes);
	free(a.rank_on);
	return rc;
}
