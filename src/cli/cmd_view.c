/*
 * cmd_view.c: `scopeview [FILE]`, the interactive viewer's command line:
 * options, the terminal (term.h), the loop (app.h) with the HDF5 loader
 * (load.h) as its source of profiles.
 */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scopeview/action.h"
#include "scopeview/app.h"
#include "scopeview/budget.h"
#include "scopeview/cli.h"
#include "scopeview/config.h"
#include "scopeview/demo.h"
#include "scopeview/load.h"
#include "scopeview/strv.h"
#include "scopeview/term.h"
#include "sv_version.h"

/* ---- the curses backend ----------------------------------------------------
 */

static void term_b_size(void *ctx, int *w, int *h)
{
	sv_term_size(ctx, w, h);
}

static int term_b_getkey(void *ctx, int timeout_ms)
{
	return sv_term_getkey(ctx, timeout_ms);
}

static void term_b_present(void *ctx, const struct sv_grid *g)
{
	sv_term_present(ctx, g);
}

static void term_b_beep(void *ctx)
{
	sv_term_beep(ctx);
}

/* ---- scopeview [FILE] ------------------------------------------------------
 */

/* --memory's default: half of what /proc/meminfo says is available (0,
 * no budget, where it cannot be read). */
static uint64_t view_default_memory(void)
{
	char text[4096];
	FILE *f = fopen("/proc/meminfo", "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	return sv_budget_default(text);
}

struct view_args {
	const char *file, *file2, *config;
	bool memory_set; /* --memory given: memory is the budget (0: none) */
	uint64_t memory;
	int list_keys;    /* index among "text markdown scdoc"; -1: not asked */
	int completion;   /* enum sv_cli_doc, -1: not asked */
	int list_options; /* 0: --list-options=scdoc, -1: not asked */
	bool ascii, no_mouse, no_config, dump_config, demo, demo_path, version;
	struct sv_cli_select sel; /* --ranks only */
	struct sv_strv runs;      /* FILE FILE2 RUN...: every file */
};

#define VIEW_AT(f, type) SV_CLI_AT(struct view_args, f, type)

/* Every RUN after FILE and FILE2. */
static int view_add_run(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	(void)cx;
	sv_strv_push(target, v);
	return 0;
}

static int view_set_memory(
	void *target, const char *v, const struct sv_cli_ctx *cx)
{
	struct view_args *a = target;
	struct sv_error err = {0};

	a->memory_set = true;
	a->memory = 0;
	if (strcmp(v, "none") && sv_budget_parse(v, &a->memory, &err) < 0)
		return sv_cli_fail(cx->cmd, "--memory: %s", err.msg);
	return 0;
}

static const struct sv_cli_option view_options[] = {
	{"FILE", NULL, NULL, NULL,
		"a scope-profiler profile: HDF5, a native trace (.spt),\n"
		"a directory of per-rank files, JSON (.json, .json.gz);\n"
		"without it, the built-in demo",
		SV_CLI_STRING, VIEW_AT(file, const char *), NULL, 0},
	{"FILE2", NULL, NULL, NULL,
		"a second run to compare FILE with (also :open FILE2\n"
		"inside): B and change columns in the panel, B's lanes\n"
		"under A's on the timeline (rank by rank, each from its\n"
		"start; :second off hides them), frames coloured by\n"
		"change in the flame graph",
		SV_CLI_STRING, VIEW_AT(file2, const char *), NULL, 0},
	{"RUN", NULL, NULL, NULL,
		"three or more files open a runs workspace: their\n"
		"scaling study (:view scaling: speedup and efficiency\n"
		"of each region against the rank count, charted), read\n"
		"one by one; Enter on two of its points shows those\n"
		"two runs as FILE FILE2 would (Esc comes back)",
		SV_CLI_CALL, VIEW_AT(runs, struct sv_strv), view_add_run,
		SV_CLI_REPEAT},
	{"--ascii", NULL, NULL, NULL,
		"ASCII glyphs instead of Unicode box drawing and blocks\n"
		"(the default follows the locale, never TERM)",
		SV_CLI_FLAG, VIEW_AT(ascii, bool), NULL, 0},
	{"--no-mouse", NULL, NULL, NULL,
		"do not ask the terminal for mouse reports", SV_CLI_FLAG,
		VIEW_AT(no_mouse, bool), NULL, 0},
	{"--ranks", NULL, "LIST", NULL,
		"read and show only these ranks' calls, e.g. 0-63\n"
		"(the status line says \"ranks 0-63 of 1024\")",
		SV_CLI_CALL, VIEW_AT(sel, struct sv_cli_select),
		sv_cli_set_ranks_named, 0},
	{"--memory", NULL, "SIZE", NULL,
		"keep at most about SIZE of calls in memory, e.g. 4G\n"
		"(default: half the available memory; `none`: no limit):\n"
		"the ranks that fit are read, others when :ranks asks",
		SV_CLI_CALL, 0, view_set_memory, 0},
	{"--config", NULL, "FILE", "@file",
		"read this configuration file instead of\n"
		"$XDG_CONFIG_HOME/scopeview/config",
		SV_CLI_STRING, VIEW_AT(config, const char *), NULL,
		SV_CLI_GROUP(1)},
	{"--no-config", NULL, NULL, NULL,
		"read no configuration file: the built-in defaults",
		SV_CLI_FLAG, VIEW_AT(no_config, bool), NULL, SV_CLI_GROUP(1)},
	{"--dump-config", NULL, NULL, NULL,
		"print the configuration in effect, with comments, and exit",
		SV_CLI_FLAG, VIEW_AT(dump_config, bool), NULL, 0},
	{"--list-keys", NULL, "[=FMT]", "text markdown scdoc",
		"print the viewer's keys and exit (=markdown: as a table,\n"
		"=scdoc: as the man page's section)",
		SV_CLI_CHOICE, VIEW_AT(list_keys, int), NULL, 0},
	{"--demo", NULL, NULL, NULL,
		"open the built-in demo profile (as without FILE)", SV_CLI_FLAG,
		VIEW_AT(demo, bool), NULL, SV_CLI_GROUP(2)},
	{"--demo-path", NULL, NULL, NULL,
		"write the built-in demo profile (once) and print its path",
		SV_CLI_FLAG, VIEW_AT(demo_path, bool), NULL, SV_CLI_GROUP(2)},
	{"--completion", NULL, "=SHELL", "bash zsh fish",
		"print the completion script for bash, zsh or fish",
		SV_CLI_CHOICE, VIEW_AT(completion, int), NULL, SV_CLI_HIDDEN},
	{"--list-options", NULL, "=scdoc", "scdoc",
		"print the commands and options as man page sections",
		SV_CLI_CHOICE, VIEW_AT(list_options, int), NULL, SV_CLI_HIDDEN},
	{"--version", "-V", NULL, NULL, "print the version and exit",
		SV_CLI_FLAG, VIEW_AT(version, bool), NULL, SV_CLI_HIDDEN},
	{"--help", "-h", NULL, NULL, "print this help and exit", SV_CLI_HELP, 0,
		NULL, 0},
};

static void view_more(FILE *out)
{
	fputs("\nInside the viewer press ? or F1 for the keys, q to quit.\n"
	      "NO_COLOR=1 draws without colours.  The viewer needs a "
	      "terminal on standard\n"
	      "output; 'scopeview snapshot' draws the same screen to a "
	      "file.\n",
		out);
}

static void view_init(void *args)
{
	struct view_args *a = args;
	a->list_keys = -1;
	a->completion = -1;
	a->list_options = -1;
}

static void view_fini(void *args)
{
	struct view_args *a = args;
	sv_cli_select_fini(&a->sel);
	sv_strv_fini(&a->runs);
}

/* `--completion=SHELL` and `--list-options=scdoc`: the documents made
 * from every command's table. */
static int view_write_doc(enum sv_cli_doc kind)
{
	if (sv_cli_write_doc(stdout, kind, sv_cli_commands, sv_cli_ncommands) <
			0 ||
		fflush(stdout) != 0) {
		sv_cli_eprintf("scopeview: cannot write to standard output");
		return SV_EXIT_LOAD;
	}
	return SV_EXIT_OK;
}

/*
 * Read the configuration (--config FILE, else the default path unless
 * --no-config) into c and make its key bindings current.  Each bad line
 * is reported on stderr as "scopeview: FILE:LINE: problem" and left out;
 * returns false only when a --config FILE cannot be read.
 */
static bool view_config(struct sv_config *c, const char *path, bool none)
{
	struct sv_error err = {0};
	char def[4096];
	size_t i;

	sv_config_init(c);
	if (none)
		return true;
	if (!path)
		path = sv_config_default_path(def, sizeof def);
	if (path && sv_config_load(c, path, path != def, &err) < 0) {
		sv_cli_eprintf("scopeview: %s", err.msg);
		return false;
	}
	for (i = 0; i < c->errors.n; i++)
		sv_cli_eprintf("scopeview: %s", c->errors.v[i]);
	sv_config_apply_bindings(c);
	return true;
}

/*
 * Three or more runs: when not one of them can be opened, each one's
 * error (exit 1, before the screen changes); those that fail among
 * others are listed in the workspace.
 */
static int view_runs_probe(const struct sv_strv *runs)
{
	struct sv_error err;
	size_t i, bad = 0;

	for (i = 0; i < runs->n; i++) {
		memset(&err, 0, sizeof err);
		bad += sv_load_probe(runs->v[i], &err) < 0;
	}
	if (bad < runs->n)
		return 0;
	for (i = 0; i < runs->n; i++) {
		memset(&err, 0, sizeof err);
		if (sv_load_probe(runs->v[i], &err) < 0)
			sv_cli_eprintf("scopeview: %s", err.msg);
	}
	return -EIO;
}

/*
 * `scopeview [OPTIONS] [FILE]`.  Exit status: 0 after q (also when q
 * stopped the first load); 1 when the profile (or the built-in demo)
 * could not be read, with one line "scopeview: <why>" on stderr after the
 * terminal is restored; 2 for a command-line mistake, and also when the
 * viewer cannot run where it was started (standard output is not a
 * terminal, or TERM names no known terminal type): like a wrong option,
 * the remedy is a different command line, not a different file.
 */
static int view_run(void *args)
{
	struct view_args *a = args;
	struct sv_app_opts ao;
	struct sv_term_opts to;
	struct sv_term *term = NULL;
	struct sv_backend b;
	struct sv_app *app;
	struct sv_error err;
	const char *file = a->file, *file2 = a->file2;
	char demo[4096];
	FILE *tty_in = NULL;
	struct sv_config cfg;
	struct sv_style_attr styles[SV_STYLE_COUNT];
	bool style_set[SV_STYLE_COUNT];
	int rc;

	if (a->version) {
		printf("scopeview %s\n", SV_VERSION);
		return SV_EXIT_OK;
	}
	if (a->completion >= 0 || a->list_options >= 0)
		return view_write_doc(
			a->completion >= 0
				? (enum sv_cli_doc)(a->completion + 1)
				: SV_CLI_DOC_SCDOC);
	memset(&ao, 0, sizeof ao);
	memset(&err, 0, sizeof err);
	sv_term_opts_default(&to);
	ao.ascii = a->ascii;
	if (a->no_mouse) {
		ao.no_mouse = true;
		to.mouse = false;
	}
	ao.source.memory = a->memory_set ? a->memory : view_default_memory();
	if (a->demo && file)
		return sv_cli_fail(&sv_cli_view_cmd,
			"--demo opens the built-in demo, not '%s'", file);
	if (a->config && a->no_config)
		return sv_cli_fail(&sv_cli_view_cmd,
			"--config and --no-config contradict each other");
	if (!view_config(&cfg, a->config, a->no_config)) {
		sv_config_fini(&cfg);
		return SV_EXIT_LOAD;
	}
	if (a->dump_config) {
		rc = sv_config_write(&cfg, stdout) < 0 || fflush(stdout) != 0;
		sv_config_fini(&cfg);
		return rc ? SV_EXIT_LOAD : SV_EXIT_OK;
	}
	/* What the terminal and the loop take from it. */
	to.mouse = to.mouse && cfg.mouse;
	ao.no_mouse = ao.no_mouse || !cfg.mouse;
	to.max_colors = cfg.colors;
	to.theme = cfg.theme;
	/* Only the styles the file sets: the rest follow the theme, which
	 * the terminal may pick (theme auto). */
	memcpy(styles, cfg.styles, sizeof styles);
	memcpy(style_set, cfg.style_set, sizeof style_set);
	to.styles = styles;
	to.style_set = style_set;
	ao.panel_width = cfg.panel_width;
	ao.panel_cols = cfg.panel_cols;
	ao.sort_set = true;
	ao.sort_key = cfg.sort_key;
	sv_config_fini(&cfg);
	if (a->list_keys >= 0)
		return sv_action_write_keys(stdout,
			       a->list_keys == 1   ? SV_ACTION_DOC_MARKDOWN
			       : a->list_keys == 2 ? SV_ACTION_DOC_SCDOC
						   : SV_ACTION_DOC_TEXT) < 0
			       ? SV_EXIT_LOAD
			       : SV_EXIT_OK;
	memset(&err, 0, sizeof err);
	if (a->demo_path) {
		if (sv_demo_path(demo, sizeof demo, &err) < 0) {
			sv_cli_eprintf(
				"scopeview: the built-in demo: %s", err.msg);
			return SV_EXIT_LOAD;
		}
		printf("%s\n", demo);
		return SV_EXIT_OK;
	}
	if (a->runs.n) {
		/* FILE FILE2 RUN...: the workspace takes them all. */
		struct sv_strv all = {0};
		size_t i;

		sv_strv_push(&all, file);
		sv_strv_push(&all, file2);
		for (i = 0; i < a->runs.n; i++)
			sv_strv_push(&all, a->runs.v[i]);
		sv_strv_fini(&a->runs);
		a->runs = all;
		if (view_runs_probe(&a->runs) < 0)
			return SV_EXIT_LOAD;
		file2 = NULL;
	}
	/* A missing file fails first, before the screen changes, in
	 * summary's words. */
	if (a->runs.n) {
		/* probed above: those that fail are listed in the view */
	} else if ((file && sv_load_probe(file, &err) < 0) ||
		   (file2 && sv_load_probe(file2, &err) < 0)) {
		sv_cli_eprintf("scopeview: %s", err.msg);
		return SV_EXIT_LOAD;
	}
	if (file && !a->runs.n && a->sel.rank_on &&
		sv_cli_ranks_check(file, a->sel.rank_on, a->sel.nrank_on))
		return SV_EXIT_LOAD;
	if (!isatty(STDOUT_FILENO)) {
		sv_cli_eprintf(
			"scopeview: standard output is not a terminal; use "
			"'scopeview snapshot' or 'scopeview summary'");
		return SV_EXIT_USAGE;
	}
	setlocale(LC_ALL, "");
	memset(&err, 0, sizeof err);
	demo[0] = '\0';
	if (!file) {
		/* Written once to a cache file, then loaded like any file. */
		if (sv_demo_path(demo, sizeof demo, &err) < 0) {
			sv_cli_eprintf(
				"scopeview: the built-in demo: %s", err.msg);
			return SV_EXIT_LOAD;
		}
		file = demo;
	}
	/* Keys come from the terminal even when stdin is a pipe. */
	if (!isatty(STDIN_FILENO)) {
		tty_in = fopen("/dev/tty", "r");
		to.in = tty_in;
	}
	if (sv_term_open(&to, &term, &err) < 0) {
		sv_cli_eprintf("scopeview: %s", err.msg);
		if (tty_in)
			fclose(tty_in);
		return SV_EXIT_USAGE;
	}
	ao.path = file;
	ao.path2 = file2;
	ao.title = demo[0] ? "demo" : NULL;
	ao.load_in_thread = true;
	ao.source.load = sv_load;
	ao.source.thread_init = sv_load_quiet_hdf5;
	ao.sink = &sv_cli_export_sink;
	ao.ranks = a->sel.ranks;
	ao.runs = (const char *const *)a->runs.v;
	ao.nruns = a->runs.n;
	ao.source.rank_on = a->sel.rank_on;
	ao.source.nrank_on = a->sel.nrank_on;
	app = sv_app_new(&ao);
	b.size = term_b_size;
	b.getkey = term_b_getkey;
	b.present = term_b_present;
	b.beep = term_b_beep;
	b.wake = sv_term_wake;
	b.ctx = term;
	memset(&err, 0, sizeof err);
	rc = sv_app_run(app, &b, &err);
	sv_term_close(term);
	if (rc < 0)
		sv_cli_eprintf(
			"scopeview: %s", err.msg[0] ? err.msg : strerror(-rc));
	if (sv_app_loads_in_file()) {
		/* q during a read: the terminal is back, the output out;
		 * exit()'s handlers would close HDF5 under the loader. */
		fflush(NULL);
		_exit(rc < 0 ? SV_EXIT_LOAD : SV_EXIT_OK);
	}
	sv_app_free(app);
	if (tty_in)
		fclose(tty_in);
	return rc < 0 ? SV_EXIT_LOAD : SV_EXIT_OK;
}

const struct sv_cli_command sv_cli_view_cmd = {
	.name = "",
	.what = "open the interactive viewer on FILE, a scope-profiler profile "
		"(HDF5, a native trace, a run's directory, JSON; without "
		"FILE, the built-in demo); with FILE2, compare the two runs; "
		"with three or more, a scaling study of them",
	.opts = view_options,
	.nopts = sizeof view_options / sizeof view_options[0],
	.size = sizeof(struct view_args),
	.init = view_init,
	.run = view_run,
	.fini = view_fini,
	.more = view_more,
};
