/*
 * cmd_convert.c: `scopeview convert -o OUT.h5 INPUT...`, its command
 * line: loads the inputs as one run (sv_load_paths: a native trace, a
 * directory of per-rank files, several of them, a JSON profile or an
 * HDF5 file) and writes it as one schema-3 file in scope-profiler's own
 * layout (convert.h).  Prints, and returns the exit status (cli.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/cli.h"
#include "scopeview/convert.h"
#include "scopeview/load.h"
#include "scopeview/outfile.h"
#include "scopeview/strv.h"

struct convert_args {
	const char *out, *label;
	struct sv_strv inputs;
};

#define CONVERT_AT(f, type) SV_CLI_AT(struct convert_args, f, type)

/* INPUT...: every operand, in order. */
static int convert_set_input(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	(void)cx;
	sv_strv_push(target, v);
	return 0;
}

static const struct sv_cli_option convert_options[] = {
	{"--output", "-o", "OUT", "@file",
		"the HDF5 file to write (required); written to a temporary\n"
		"file beside it and renamed over it at the end, never over\n"
		"anything but a regular file or over an input",
		SV_CLI_STRING, CONVERT_AT(out, const char *), NULL,
		SV_CLI_REQUIRED},
	{"--label", NULL, "TEXT", NULL,
		"the run's metadata label (native inputs default to OUT's\n"
		"name without .h5, as import-native does)",
		SV_CLI_STRING, CONVERT_AT(label, const char *), NULL, 0},
	{"--help", "-h", NULL, NULL, "show this help", SV_CLI_HELP, 0, NULL, 0},
	{"INPUT", NULL, NULL, "@file",
		"a native trace (.spt), a directory of per-rank files\n"
		"(*.spt, *_rankN.h5), several of those (one run, as\n"
		"import-native merges them), a JSON profile (.json,\n"
		".json.gz) or an HDF5 profile of any layout",
		SV_CLI_CALL, CONVERT_AT(inputs, struct sv_strv),
		convert_set_input, SV_CLI_REPEAT | SV_CLI_REQUIRED},
};

static void convert_more(FILE *out)
{
	fprintf(out,
		"\nOUT is never an input (by any name or link, nor a file of "
		"an\n"
		"input directory) and never anything but a regular file or a\n"
		"new name; it is written to a temporary file beside it and\n"
		"renamed when complete, so a failure leaves no partial "
		"file.\n\n"
		"Exit status: 0 written, 1 an input could not be read or the\n"
		"output could not be written, 2 a command-line mistake.\n");
}

static void convert_fini(void *args)
{
	struct convert_args *a = args;
	sv_strv_fini(&a->inputs);
}

/* OUT's file name without its directory and a final ".h5". */
static char *convert_stem(const char *out)
{
	const char *base = strrchr(out, '/');
	size_t n;

	base = base ? base + 1 : out;
	n = strlen(base);
	if (n > 3 && !strcmp(base + n - 3, ".h5"))
		n -= 3;
	return sv_xstrndup(base, n);
}

static int convert_run(void *args)
{
	const struct convert_args *a = args;
	const char *label = a->label;
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	struct sv_strv notes = {0};
	const struct sv_meta *src;
	char *stem = NULL;
	size_t i;
	int rc = SV_EXIT_OK;

	/* The output rule (outfile.h), before anything is read: never an
	 * input, only a regular file or a new name; a signal removes the
	 * temporary. */
	if (sv_outfile_check(a->out, (const char *const *)a->inputs.v,
		    a->inputs.n, &err) < 0)
		return sv_cli_output_fail(&err);
	sv_cli_output_signals();
	if (sv_load_paths((const char *const *)a->inputs.v, a->inputs.n, NULL,
		    &p, &err) < 0) {
		sv_cli_stderr("", err.msg);
		return SV_EXIT_LOAD;
	}
	/* import-native names the run after its output */
	src = sv_profile_meta(p, "source");
	if (!label && src && src->text && !strcmp(src->text, "native"))
		label = stem = convert_stem(a->out);
	if (sv_convert_write(p, a->out, label, &notes, &err) < 0)
		rc = sv_cli_output_fail(&err);
	for (i = 0; i < notes.n; i++)
		sv_cli_stderr("note: ", notes.v[i]);
	sv_strv_fini(&notes);
	free(stem);
	sv_profile_free(p);
	return rc;
}

const struct sv_cli_command sv_cli_convert_cmd = {
	.name = "convert",
	.what = "write profiles as one scope-profiler HDF5 file",
	.about =
		"Write INPUT as one schema-3 HDF5 profile in scope-profiler's\n"
		"own layout, readable by its read_h5 with the same figures:\n"
		"\"auto\" compression, stored exclusive totals and summary\n"
		"statistics (import-native without Python).",
	.opts = convert_options,
	.nopts = sizeof convert_options / sizeof convert_options[0],
	.size = sizeof(struct convert_args),
	.run = convert_run,
	.fini = convert_fini,
	.more = convert_more,
};
