/*
 * cmd_snapshot.c: `scopeview snapshot`, its command line: the size, the
 * keys and the output format, then sv_snapshot_draw (snapshot.h) and one
 * of the grid's dumps (grid.h).
 */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/cli.h"
#include "scopeview/config.h"
#include "scopeview/demo.h"
#include "scopeview/keys.h"
#include "scopeview/load.h"
#include "scopeview/outfile.h"
#include "scopeview/runs.h"
#include "scopeview/snapshot.h"
#include "scopeview/strv.h"

struct snapshot_args {
	const char *size, *output, *file, *file2, *config;
	char *keys; /* every --keys, joined by spaces; owned */
	int format; /* index among "text ansi svg" */
	int theme;  /* -1: not given */
	int colors; /* index among "256 16 8 none"; -1: not given */
	bool ascii, demo;
	struct sv_cli_select sel; /* --ranks only */
	struct sv_strv runs;      /* RUN...: the files after FILE2 */
};

#define SNAPSHOT_AT(f, type) SV_CLI_AT(struct snapshot_args, f, type)

/* Every RUN after FILE and FILE2. */
static int snapshot_add_run(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	(void)cx;
	sv_strv_push(target, v);
	return 0;
}

/* Repeated --keys append. */
static int snapshot_set_keys(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	char **keys = target;
	char *joined =
		sv_xasprintf("%s%s%s", *keys ? *keys : "", *keys ? " " : "", v);
	(void)cx;
	free(*keys);
	*keys = joined;
	return 0;
}

static const struct sv_cli_option snapshot_options[] = {
	{"--size", NULL, "WxH", NULL, "screen size in cells (default 120x40)",
		SV_CLI_STRING, SNAPSHOT_AT(size, const char *), NULL, 0},
	{"--keys", NULL, "KEYS", NULL,
		"keys separated by spaces, in tmux send-keys names:\n"
		"t + / Enter Escape Tab BTab Space BSpace Up Down Left\n"
		"Right PageUp PageDown Home End F1..F12 C-x\n"
		"Click:X,Y WheelUp:X,Y WheelDown:X,Y (0-based cells);\n"
		"repeatable, the keys of each in turn",
		SV_CLI_CALL, SNAPSHOT_AT(keys, char *), snapshot_set_keys,
		SV_CLI_REPEAT},
	{"--format", NULL, "FMT", "text ansi svg",
		"text (characters only, H lines), ansi (plus SGR colours)\n"
		"or svg",
		SV_CLI_CHOICE, SNAPSHOT_AT(format, int), NULL, 0},
	{"--ascii", NULL, NULL, NULL,
		"ASCII glyphs (the default follows the locale)", SV_CLI_FLAG,
		SNAPSHOT_AT(ascii, bool), NULL, 0},
	{"--theme", NULL, "NAME", "dark light",
		"the colours of ansi and svg: dark (default) or light",
		SV_CLI_CHOICE, SNAPSHOT_AT(theme, int), NULL, 0},
	{"--colors", NULL, "N", "256 16 8 none",
		"draw ansi and svg as a terminal of N colours would\n"
		"(default 256; none when NO_COLOR is set)",
		SV_CLI_CHOICE, SNAPSHOT_AT(colors, int), NULL, 0},
	{"--config", NULL, "FILE", "@file",
		"take the key bindings and theme of this configuration\n"
		"file (snapshot reads none by itself)",
		SV_CLI_STRING, SNAPSHOT_AT(config, const char *), NULL, 0},
	{"--ranks", NULL, "LIST", NULL,
		"read and show only these ranks' calls (as the\n"
		"viewer does with --ranks)",
		SV_CLI_CALL, SNAPSHOT_AT(sel, struct sv_cli_select),
		sv_cli_set_ranks_named, 0},
	{"--output", "-o", "PATH", "@file",
		"write there instead of standard output (never over\n"
		"FILE, FILE2 or --config, nor what is not a regular\n"
		"file; whole or not at all)",
		SV_CLI_STRING, SNAPSHOT_AT(output, const char *), NULL, 0},
	{"--demo", NULL, NULL, NULL,
		"draw the built-in demo profile instead of FILE", SV_CLI_FLAG,
		SNAPSHOT_AT(demo, bool), NULL, 0},
	{"--help", "-h", NULL, NULL, "show this help", SV_CLI_HELP, 0, NULL, 0},
	{"FILE", NULL, NULL, NULL, NULL, SV_CLI_STRING,
		SNAPSHOT_AT(file, const char *), NULL, 0},
	{"FILE2", NULL, NULL, NULL, NULL, SV_CLI_STRING,
		SNAPSHOT_AT(file2, const char *), NULL, 0},
	{"RUN", NULL, NULL, NULL, NULL, SV_CLI_CALL,
		SNAPSHOT_AT(runs, struct sv_strv), snapshot_add_run,
		SV_CLI_REPEAT},
};

static void snapshot_more(FILE *out)
{
	fprintf(out,
		"\nWith three or more files, the runs workspace the viewer "
		"opens\n"
		"on them (:view scaling), once every run is read; a run that\n"
		"cannot be read is listed there and named on stderr.\n"
		"\nExit status: 0 success, 1 a profile (with three or more\n"
		"files: every one of them) could not be read or the output\n"
		"written, 2 a command-line mistake.\n");
}

static void snapshot_init(void *args)
{
	struct snapshot_args *a = args;
	a->size = "120x40";
	a->theme = -1;
	a->colors = -1;
}

static void snapshot_fini(void *args)
{
	struct snapshot_args *a = args;
	free(a->keys);
	sv_cli_select_fini(&a->sel);
	sv_strv_fini(&a->runs);
}

static int snapshot_parse_size(const char *s, int *w, int *h)
{
	char *end;
	long a, b;

	a = strtol(s, &end, 10);
	if (end == s || (*end != 'x' && *end != 'X'))
		return -EINVAL;
	s = end + 1;
	b = strtol(s, &end, 10);
	if (end == s || *end || a < 1 || b < 1 || a > 4096 || b > 4096)
		return -EINVAL;
	*w = (int)a;
	*h = (int)b;
	return 0;
}

/* Write g to output (NULL: standard output), never over inputs[0 ..
 * ninputs); an exit status. */
static int snapshot_write(const struct sv_grid *g, const char *output,
	const char *const *inputs, size_t ninputs, enum sv_grid_format fmt,
	int theme, int colors)
{
	struct sv_outfile of;
	struct sv_error err = {0};
	int rc;

	if (!output) {
		rc = sv_grid_write_colors(g, stdout, fmt, theme, colors);
		if (rc < 0 || fflush(stdout) != 0) {
			sv_cli_eprintf("scopeview: snapshot: cannot write "
				       "standard output");
			return SV_EXIT_LOAD;
		}
		return SV_EXIT_OK;
	}
	rc = sv_outfile_open(&of, output, inputs, ninputs, &err);
	if (rc == 0) {
		rc = sv_grid_write_colors(
			g, sv_outfile_stream(&of), fmt, theme, colors);
		if (rc < 0)
			sv_error_set(
				&err, rc, "snapshot: cannot write %s", output);
		rc = sv_outfile_finish(&of, rc, &err);
	}
	return rc < 0 ? sv_cli_output_fail(&err) : SV_EXIT_OK;
}

/*
 * FILE FILE2 RUN...: the runs workspace.  Exit status 1 when not one run
 * could be read (each one's error on stderr, nothing drawn); a run that
 * failed among others is named on stderr and listed on the screen.
 */
static int snapshot_runs(struct snapshot_args *a, int w, int h, const int *keyv,
	size_t nkeys, bool ascii, enum sv_grid_format fmt, int theme,
	int colors)
{
	size_t n = a->runs.n + 2, i, ninputs = 0;
	const char **paths = sv_xcalloc(n + 1, sizeof *paths);
	struct sv_view_opts opts;
	struct sv_source src;
	struct sv_error err = {0};
	struct sv_runs *r;
	struct sv_grid g;
	int rc;

	paths[0] = a->file;
	paths[1] = a->file2;
	for (i = 0; i < a->runs.n; i++)
		paths[i + 2] = a->runs.v[i];
	ninputs = n;
	if (a->config)
		paths[ninputs++] = a->config;
	if (a->output &&
		sv_outfile_check(a->output, paths, ninputs, &err) < 0) {
		free(paths);
		return sv_cli_output_fail(&err);
	}
	if (a->output)
		sv_cli_output_signals();
	memset(&src, 0, sizeof src);
	src.load = sv_load;
	src.thread_init = sv_load_quiet_hdf5;
	src.rank_on = a->sel.rank_on;
	src.nrank_on = a->sel.nrank_on;
	r = sv_runs_new(paths, n, &src, NULL, a->sel.ranks);
	memset(&opts, 0, sizeof opts);
	opts.ascii = ascii;
	opts.sink = &sv_cli_export_sink;
	opts.ranks = a->sel.ranks;
	sv_grid_init(&g);
	rc = sv_snapshot_draw_runs(&g, r, w, h, keyv, nkeys, &opts, &err);
	if (rc < 0)
		sv_cli_eprintf("scopeview: %s", err.msg);
	for (i = 0; rc == 0 && i < r->n; i++)
		if (r->runs[i].state == SV_RUNS_FAILED)
			sv_cli_eprintf("scopeview: %s%s",
				r->measured ? "warning: " : "",
				r->runs[i].error);
	if (rc == 0 && !r->measured)
		rc = -EIO;
	rc = rc < 0 ? SV_EXIT_LOAD
		    : snapshot_write(&g, a->output, paths, ninputs, fmt, theme,
			      colors);
	sv_grid_fini(&g);
	sv_runs_free(r);
	free(paths);
	return rc;
}

static int snapshot_run(void *args)
{
	static const int ncolors[] = {256, 16, 8, 0};
	static const enum sv_grid_format formats[] = {
		SV_GRID_TEXT, SV_GRID_ANSI, SV_GRID_SVG};
	struct snapshot_args *a = args;
	const char *file = a->file, *output = a->output, *nc;
	bool ascii = a->ascii;
	char demo_path[4096];
	int w, h, i, rc, theme = a->theme, *keyv = NULL, colors = 256;
	size_t nkeys = 0;
	enum sv_grid_format fmt = formats[a->format];
	struct sv_error err = {0};
	struct sv_profile *p = NULL, *p2 = NULL;
	struct sv_view_opts opts;
	struct sv_load_opts lo;
	struct sv_grid g;
	const char *inputs[3];

	if (a->demo && file)
		return sv_cli_fail(&sv_cli_snapshot_cmd,
			"give a FILE or --demo, not both");
	if (!file && !a->demo)
		return sv_cli_fail(
			&sv_cli_snapshot_cmd, "a FILE (or --demo) is required");
	if (snapshot_parse_size(a->size, &w, &h) < 0)
		return sv_cli_fail(&sv_cli_snapshot_cmd,
			"bad --size '%s' (expected WxH, e.g. 120x40)", a->size);
	if (a->config) {
		/* Its bindings before the keys are read; its theme unless
		 * --theme says otherwise.  Bad lines are reported and left
		 * out, as in the viewer. */
		struct sv_config cfg;
		sv_config_init(&cfg);
		if (sv_config_load(&cfg, a->config, true, &err) < 0) {
			sv_cli_eprintf("scopeview: %s", err.msg);
			sv_config_fini(&cfg);
			return SV_EXIT_LOAD;
		}
		for (i = 0; i < (int)cfg.errors.n; i++)
			sv_cli_eprintf("scopeview: %s", cfg.errors.v[i]);
		sv_config_apply_bindings(&cfg);
		if (theme < 0 && cfg.theme != SV_THEME_AUTO)
			theme = cfg.theme;
		sv_config_fini(&cfg);
	}
	if (theme < 0)
		theme = SV_THEME_DARK;
	/* NO_COLOR (set and not empty) means none unless --colors says. */
	nc = getenv("NO_COLOR");
	if (a->colors < 0 && nc && *nc)
		colors = 0;
	else if (a->colors >= 0)
		colors = ncolors[a->colors];
	if (a->keys && sv_keys_parse_script(a->keys, &keyv, &nkeys, &err) < 0)
		return sv_cli_fail(&sv_cli_snapshot_cmd, "%s", err.msg);
	setlocale(LC_CTYPE, "");
	if (!ascii && !sv_grid_locale_is_utf8())
		ascii = true;
	if (a->demo) {
		if (sv_demo_path(demo_path, sizeof demo_path, &err) < 0) {
			sv_cli_eprintf(
				"scopeview: the built-in demo: %s", err.msg);
			free(keyv);
			return SV_EXIT_LOAD;
		}
		file = demo_path;
	}

	if (a->runs.n && !a->demo) {
		rc = snapshot_runs(
			a, w, h, keyv, nkeys, ascii, fmt, theme, colors);
		free(keyv);
		return rc;
	}
	/* PATH is checked before anything is read: never an input. */
	inputs[0] = file;
	inputs[1] = a->file2;
	inputs[2] = a->config;
	if (output && sv_outfile_check(output, inputs, 3, &err) < 0) {
		free(keyv);
		return sv_cli_output_fail(&err);
	}
	if (output)
		sv_cli_output_signals();
	sv_cli_select_load_opts(&a->sel, &lo);
	if (a->sel.rank_on &&
		sv_cli_ranks_check(file, a->sel.rank_on, a->sel.nrank_on) < 0)
		rc = -EINVAL;
	else if ((rc = sv_load(file, &lo, &p, &err)) < 0)
		sv_cli_eprintf("scopeview: %s", err.msg);
	else if (a->file2 && (rc = sv_load(a->file2, &lo, &p2, &err)) < 0)
		sv_cli_eprintf("scopeview: %s", err.msg);
	if (rc < 0) {
		free(keyv);
		sv_profile_free(p);
		return SV_EXIT_LOAD;
	}
	memset(&opts, 0, sizeof opts);
	opts.ascii = ascii;
	opts.title = a->demo ? "demo" : file;
	opts.second = p2;
	opts.second_title = a->file2;
	opts.sink = &sv_cli_export_sink;
	opts.ranks = a->sel.ranks;
	sv_grid_init(&g);
	rc = sv_snapshot_draw(&g, p, w, h, keyv, nkeys, &opts, &err);
	free(keyv);
	if (rc < 0) {
		sv_cli_eprintf("scopeview: %s", err.msg);
		sv_grid_fini(&g);
		sv_profile_free(p);
		sv_profile_free(p2);
		return SV_EXIT_LOAD;
	}
	sv_profile_free(p);
	sv_profile_free(p2);
	rc = snapshot_write(&g, output, inputs, 3, fmt, theme, colors);
	sv_grid_fini(&g);
	return rc;
}

const struct sv_cli_command sv_cli_snapshot_cmd = {
	.name = "snapshot",
	.what = "draw the viewer's screen to a file",
	.about = "Draw the viewer's screen for FILE after the keys KEYS, "
		 "without a terminal.",
	.opts = snapshot_options,
	.nopts = sizeof snapshot_options / sizeof snapshot_options[0],
	.size = sizeof(struct snapshot_args),
	.init = snapshot_init,
	.run = snapshot_run,
	.fini = snapshot_fini,
	.more = snapshot_more,
};
