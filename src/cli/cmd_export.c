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
#include "scopeview/outfile.h"
#include "scopeview/stats.h"

struct export_args {
	const char *format, *out, *file, *range;
	struct sv_cli_select sel; /* --ranks only */
};

#define EXPORT_AT(f, type) SV_CLI_AT(struct export_args, f, type)

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
static int export_write(long f, FILE *out, const struct sv_profile *p,
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

/* The viewer's (and -o's) export to a file, by the output rule
 * (outfile.h): never one of inputs, and no partial file. */
static int export_to_path(const char *format, const char *path,
	const struct sv_profile *p, const struct sv_export_scope *sc,
	const char *const *inputs, size_t ninputs, struct sv_error *err)
{
	long f = export_find(format);
	struct sv_outfile o;
	int rc;

	if (f < 0)
		return sv_error_set(err, -EINVAL,
			"unknown export format '%s' (chrome, speedscope, "
			"collapsed, csv, json)",
			format ? format : "");
	rc = sv_outfile_check(path, inputs, ninputs, err);
	if (rc < 0)
		return rc;
	if (!p->has_calls && export_formats[f].write != sv_export_json)
		return export_write(f, NULL, p, sc, NULL, err);
	rc = sv_outfile_open(&o, path, inputs, ninputs, err);
	if (rc < 0)
		return rc;
	rc = export_write(f, sv_outfile_stream(&o), p, sc, NULL, err);
	return sv_outfile_finish(&o, rc, err);
}

const struct sv_sink sv_cli_export_sink = {
	export_to_path,
	"chrome speedscope collapsed csv json",
};

static const struct sv_cli_option export_options[] = {
	{"--format", NULL, "FMT", "chrome speedscope collapsed csv json",
		"the format (below; required)", SV_CLI_STRING,
		EXPORT_AT(format, const char *), NULL, SV_CLI_REQUIRED},
	{"--ranks", NULL, "LIST", NULL, "calls of these ranks only, e.g. 0,2-5",
		SV_CLI_CALL, EXPORT_AT(sel, struct sv_cli_select),
		sv_cli_set_ranks, 0},
	{"--range", NULL, "T0:T1", NULL,
		"only calls that meet [T0, T1), times from the\n"
		"run's origin as the viewer's ruler shows them\n"
		"(\"1.5ms:2s\"; ns without a unit); each call\n"
		"whole, with its exact times",
		SV_CLI_STRING, EXPORT_AT(range, const char *), NULL, 0},
	{"--output", "-o", "OUT", "@file",
		"write to OUT instead of standard output", SV_CLI_STRING,
		EXPORT_AT(out, const char *), NULL, 0},
	{"--help", "-h", NULL, NULL, "show this help", SV_CLI_HELP, 0, NULL, 0},
	{"FILE", NULL, NULL, NULL, NULL, SV_CLI_STRING,
		EXPORT_AT(file, const char *), NULL, SV_CLI_REQUIRED},
};

static void export_more(FILE *out)
{
	size_t i;

	fprintf(out, "\nFormats:\n");
	for (i = 0; i < EXPORT_NFORMATS; i++) {
		const char *h = export_formats[i].help;
		bool first = true;
		while (*h) {
			size_t len = strcspn(h, "\n");
			fprintf(out, "  %-10s  %.*s\n",
				first ? export_formats[i].name : "", (int)len,
				h);
			first = false;
			h += len + (h[len] == '\n');
		}
	}
	fprintf(out,
		"\nEvery call of the lanes selected that meets the range is\n"
		"one event (chrome), one open and one close event\n"
		"(speedscope) or one row (csv), written as it is read: the\n"
		"export needs little memory beyond the profile.  OUT is never\n"
		"FILE itself (by any name or link) and never anything but a\n"
		"regular file or a new name; it is written to a temporary\n"
		"file beside it and renamed when complete, so a failure\n"
		"leaves no partial file and an old OUT whole.\n\n"
		"Exit status: 0 success, 1 the profile could not be read "
		"or\nOUT written, 2 a command-line mistake.\n");
}

static void export_fini(void *args)
{
	struct export_args *a = args;
	sv_cli_select_fini(&a->sel);
}

int sv_cli_export_here(const struct sv_cli_export *x,
	const struct sv_profile *p, struct sv_error *err)
{
	struct sv_export_scope sc;
	bool *lanes = sv_cli_lanes_of_ranks(p, x->rank_on, x->nrank_on);
	int rc;

	memset(&sc, 0, sizeof sc);
	sc.lane_on = lanes;
	if (x->has_range) {
		int64_t origin = sv_profile_time_origin(p);
		sc.has_range = true;
		sc.t0 = sv_add_wrap(origin, x->r0);
		sc.t1 = sv_add_wrap(origin, x->r1);
	}
	if (x->out)
		rc = export_to_path(
			x->format, x->out, p, &sc, &x->file, 1, err);
	else
		rc = export_write(
			export_find(x->format), stdout, p, &sc, x->file, err);
	free(lanes);
	return rc;
}

static int export_main(void *args)
{
	const struct export_args *a = args;
	struct sv_cli_export x;
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	int rc;

	memset(&x, 0, sizeof x);
	if (export_find(a->format) < 0)
		return sv_cli_fail(&sv_cli_export_cmd,
			"unknown format '%s' (see --help)", a->format);
	if (a->range && sv_cli_parse_range(a->range, &x.r0, &x.r1) < 0)
		return sv_cli_fail(&sv_cli_export_cmd,
			"bad range '%s' (T0:T1, e.g. 1.5ms:2ms)", a->range);
	/* OUT is checked before the load: a mistake costs no read. */
	if (a->out && strcmp(a->out, "-")) {
		if (sv_outfile_check(a->out, &a->file, 1, &err) < 0)
			return sv_cli_output_fail(&err);
		sv_cli_output_signals();
		x.out = a->out;
	}
	x.format = a->format;
	x.stream = stdout;
	x.file = a->file;
	x.rank_on = a->sel.rank_on;
	x.nrank_on = a->sel.nrank_on;
	x.has_range = a->range != NULL;
	/* A large file a rank at a time, where it can be. */
	rc = sv_cli_stream_export(&x, &err);
	if (rc != 0)
		return rc < 0 ? sv_cli_output_fail(&err) : SV_EXIT_OK;
	/* Every rank is read even with --ranks: chrome's tid is the lane's
	 * number and "call" the call's, both over the whole file, and
	 * speedscope's frames take a region's source from any rank's row,
	 * so a rank-subset load (sv_load_opts.rank_on) would change them. */
	if (sv_cli_engine->load(a->file, NULL, &p, &err) < 0) {
		sv_cli_eprintf("scopeview: %s", err.msg);
		return SV_EXIT_LOAD;
	}
	rc = sv_cli_engine->export(&x, p, &err);
	rc = rc < 0 ? sv_cli_output_fail(&err) : SV_EXIT_OK;
	sv_cli_engine->release(p);
	return rc;
}

const struct sv_cli_command sv_cli_export_cmd = {
	.name = "export",
	.what = "write a profile in another tool's format",
	.about = "Write a scope-profiler profile in another tool's format.",
	.opts = export_options,
	.nopts = sizeof export_options / sizeof export_options[0],
	.size = sizeof(struct export_args),
	.run = export_main,
	.fini = export_fini,
	.more = export_more,
};
