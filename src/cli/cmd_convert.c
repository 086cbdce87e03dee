/*
 * cmd_convert.c: `scopeview convert INPUT... -o OUT.h5`, its command
 * line: loads the inputs as one run (sv_load_paths: a native trace, a
 * directory of per-rank files, several of them, a JSON profile or an
 * HDF5 file) and writes it as one schema-3 file in scope-profiler's own
 * layout (convert.h).  Prints, and returns the exit status (cli.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scopeview/cli.h"
#include "scopeview/convert.h"
#include "scopeview/load.h"

#define CONVERT_USAGE "scopeview convert [--label TEXT] -o OUT.h5 INPUT..."

static const struct sv_cli_option convert_options[] = {
	{"--output", "-o", "OUT", "@file",
		"the HDF5 file to write (required); written to a temporary\n"
		"file beside it and renamed over it at the end, never over\n"
		"anything but a regular file or over an input"},
	{"--label", NULL, "TEXT", NULL,
		"the run's metadata label (native inputs default to OUT's\n"
		"name without .h5, as import-native does)"},
	{"--help", "-h", NULL, NULL, "show this help"},
};

const struct sv_cli_command sv_cli_convert_cmd = {
	"convert",
	"[--label TEXT] -o OUT.h5 INPUT...",
	"write profiles as one scope-profiler HDF5 file",
	true,
	convert_options,
	sizeof convert_options / sizeof convert_options[0],
};

static void convert_help(void)
{
	printf("usage: %s\n\n"
	       "Write INPUT as one schema-3 HDF5 profile in scope-profiler's\n"
	       "own layout, readable by its read_h5 with the same figures:\n"
	       "\"auto\" compression, stored exclusive totals and summary\n"
	       "statistics.  INPUT is a native trace (.spt), a directory of\n"
	       "per-rank files (*.spt, *_rankN.h5), several of those (one\n"
	       "run, as scope-profiler's import-native merges them), a JSON\n"
	       "profile (.json, .json.gz) or an HDF5 profile of any layout.\n\n"
	       "Options:\n",
		CONVERT_USAGE);
	sv_cli_write_options(stdout, &sv_cli_convert_cmd);
	printf("\nExit status: 0 written, 1 an input could not be read or the\n"
	       "output could not be written, 2 a command-line mistake.\n");
}

/*
 * Whether out may be written: nothing there, or a regular file that is
 * none of the inputs.  The one place convert decides this, to be handed
 * to the shared output helper (temporary file, rename, refusing inputs)
 * once there is one; the writer already writes a temporary sibling and
 * renames it.
 */
static int convert_output_ok(
	const char *out, char **inputs, size_t n, struct sv_error *err)
{
	struct stat so, si;
	size_t i;

	if (lstat(out, &so) != 0)
		return errno == ENOENT ? 0
				       : sv_error_set(err, -errno,
						 "%s: cannot write: %s", out,
						 strerror(errno));
	if (!S_ISREG(so.st_mode))
		return sv_error_set(err, -EEXIST,
			"%s: exists and is not a regular file; convert "
			"replaces regular files only",
			out);
	for (i = 0; i < n; i++)
		if (stat(inputs[i], &si) == 0 && si.st_dev == so.st_dev &&
			si.st_ino == so.st_ino)
			return sv_error_set(err, -EEXIST,
				"%s: is an input; write the output elsewhere",
				out);
	return 0;
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

int sv_convert_main(int argc, char **argv)
{
	const char *out = NULL, *label = NULL;
	char **inputs = sv_xcalloc((size_t)argc, sizeof *inputs);
	size_t n = 0, i;
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	struct sv_strv notes = {0};
	char *stem = NULL;
	const struct sv_meta *src;
	int a, rc = SV_EXIT_OK;

	for (a = 1; a < argc; a++) {
		const char *v;
		bool missing = false;
		if (argv[a][0] != '-' || !strcmp(argv[a], "-")) {
			inputs[n++] = argv[a];
		} else if (!strcmp(argv[a], "-h") ||
			   !strcmp(argv[a], "--help")) {
			convert_help();
			free(inputs);
			return SV_EXIT_OK;
		} else if ((v = sv_cli_opt(
				    argc, argv, &a, "--output", &missing)) ||
			   (v = sv_cli_opt(argc, argv, &a, "-o", &missing))) {
			out = v;
		} else if ((v = sv_cli_opt(
				    argc, argv, &a, "--label", &missing))) {
			label = v;
		} else {
			free(inputs);
			return sv_cli_usage_error(CONVERT_USAGE,
				missing ? "convert: %s needs a value"
					: "convert: unknown option '%s'",
				argv[a]);
		}
	}
	if (!n || !out) {
		free(inputs);
		return sv_cli_usage_error(CONVERT_USAGE,
			!n ? "convert: no INPUT given"
			   : "convert: no output given (-o OUT.h5)");
	}
	if (convert_output_ok(out, inputs, n, &err) < 0 ||
		sv_load_paths((const char *const *)inputs, n, NULL, &p, &err) <
			0) {
		char *safe = sv_utf8_terminal_safe(err.msg, NULL);
		fprintf(stderr, "scopeview: %s\n", safe);
		free(safe);
		free(inputs);
		return SV_EXIT_LOAD;
	}
	/* import-native names the run after its output */
	src = sv_profile_meta(p, "source");
	if (!label && src && src->text && !strcmp(src->text, "native"))
		label = stem = convert_stem(out);
	if (sv_convert_write(p, out, label, &notes, &err) < 0) {
		char *safe = sv_utf8_terminal_safe(err.msg, NULL);
		fprintf(stderr, "scopeview: %s\n", safe);
		free(safe);
		rc = SV_EXIT_LOAD;
	}
	for (i = 0; i < notes.n; i++) {
		char *safe = sv_utf8_terminal_safe(notes.v[i], NULL);
		fprintf(stderr, "scopeview: note: %s\n", safe);
		free(safe);
	}
	sv_strv_fini(&notes);
	free(stem);
	sv_profile_free(p);
	free(inputs);
	return rc;
}
