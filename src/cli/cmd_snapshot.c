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
#include "scopeview/snapshot.h"

#define SNAPSHOT_USAGE                                       \
	"scopeview snapshot [--size WxH] [--keys KEYS] "     \
	"[--format text|ansi|svg] [--ascii] [--ranks LIST] " \
	"[--output PATH] FILE [FILE2]|--demo"

static const struct sv_cli_option snapshot_options[] = {
	{"--size", NULL, "WxH", NULL, "screen size in cells (default 120x40)"},
	{"--keys", NULL, "KEYS", NULL,
		"keys separated by spaces, in tmux send-keys names:\n"
		"t + / Enter Escape Tab BTab Space BSpace Up Down Left\n"
		"Right PageUp PageDown Home End F1..F12 C-x\n"
		"Click:X,Y WheelUp:X,Y WheelDown:X,Y (0-based cells)"},
	{"--format", NULL, "FMT", "text ansi svg",
		"text (characters only, H lines), ansi (plus SGR colours)\n"
		"or svg"},
	{"--ascii", NULL, NULL, NULL,
		"ASCII glyphs (the default follows the locale)"},
	{"--theme", NULL, "NAME", "dark light",
		"the colours of ansi and svg: dark (default) or light"},
	{"--colors", NULL, "N", "256 16 8 none",
		"draw ansi and svg as a terminal of N colours would\n"
		"(default 256; none when NO_COLOR is set)"},
	{"--config", NULL, "FILE", "@file",
		"take the key bindings and theme of this configuration\n"
		"file (snapshot reads none by itself)"},
	{"--ranks", NULL, "LIST", NULL,
		"read and show only these ranks' calls (as the\n"
		"viewer does with --ranks)"},
	{"--output", "-o", "PATH", "@file",
		"write there instead of standard output (never over\n"
		"FILE, FILE2 or --config, nor what is not a regular\n"
		"file; whole or not at all)"},
	{"--demo", NULL, NULL, NULL,
		"draw the built-in demo profile instead of FILE"},
	{"--help", "-h", NULL, NULL, "show this help"},
};

const struct sv_cli_command sv_cli_snapshot_cmd = {
	"snapshot",
	"[--size WxH] [--keys KEYS] [--format text|ansi|svg] [--ascii] "
	"[--theme dark|light] [--colors N] [--config FILE] [--ranks LIST] "
	"[--output PATH] "
	"FILE [FILE2]|--demo",
	"draw the viewer's screen to a file",
	true,
	snapshot_options,
	sizeof snapshot_options / sizeof snapshot_options[0],
};

static void snapshot_help(void)
{
	fputs("usage: " SNAPSHOT_USAGE "\n\n"
	      "Draw the viewer's screen for FILE after the keys KEYS, without "
	      "a terminal.\n\n",
		stdout);
	sv_cli_write_options(stdout, &sv_cli_snapshot_cmd);
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

/* The value of option argv[*i] ("--opt=value" or "--opt value"). */
static const char *snapshot_value(
	int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (!strncmp(argv[*i], name, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (!strcmp(argv[*i], name) && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

int sv_snapshot_main(int argc, char **argv)
{
	const char *size = "120x40", *keys = NULL, *format = "text",
		   *output = NULL, *file = NULL, *file2 = NULL, *val,
		   *theme_name = NULL, *config = NULL, *colors_name = NULL, *nc;
	char *keybuf = NULL;
	bool ascii = false, demo = false, dashdash = false;
	char demo_path[4096];
	int w, h, i, rc, theme = -1, *keyv = NULL, colors = 256;
	size_t nkeys = 0;
	enum sv_grid_format fmt;
	struct sv_error err = {0};
	struct sv_profile *p = NULL, *p2 = NULL;
	struct sv_view_opts opts;
	struct sv_load_opts lo;
	const char *ranks = NULL;
	bool *rank_on = NULL;
	uint32_t nrank_on = 0;
	struct sv_grid g;
	struct sv_outfile of;
	const char *inputs[3];

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--") && !dashdash) {
			/* What follows is FILE, even if it starts with '-'. */
			dashdash = true;
			continue;
		}
		if (dashdash) {
			if (file) {
				free(keybuf);
				return sv_cli_usage_error(SNAPSHOT_USAGE,
					"snapshot: more than one FILE ('%s', "
					"'%s')",
					file, argv[i]);
			}
			file = argv[i];
		} else if (!strcmp(argv[i], "--help") ||
			   !strcmp(argv[i], "-h")) {
			snapshot_help();
			free(keybuf);
			return SV_EXIT_OK;
		} else if (!strcmp(argv[i], "--ascii")) {
			ascii = true;
		} else if (!strcmp(argv[i], "--demo")) {
			demo = true;
		} else if ((val = snapshot_value(argc, argv, &i, "--size"))) {
			size = val;
		} else if ((val = snapshot_value(argc, argv, &i, "--keys"))) {
			/* Repeated --keys append. */
			char *joined = sv_xasprintf("%s%s%s",
				keybuf ? keybuf : "", keybuf ? " " : "", val);
			free(keybuf);
			keybuf = joined;
			keys = keybuf;
		} else if ((val = snapshot_value(argc, argv, &i, "--theme"))) {
			theme_name = val;
		} else if ((val = snapshot_value(argc, argv, &i, "--colors"))) {
			colors_name = val;
		} else if ((val = snapshot_value(argc, argv, &i, "--config"))) {
			config = val;
		} else if ((val = snapshot_value(argc, argv, &i, "--ranks"))) {
			ranks = val;
		} else if ((val = snapshot_value(argc, argv, &i, "--format"))) {
			format = val;
		} else if ((val = snapshot_value(argc, argv, &i, "--output")) ||
			   (val = snapshot_value(argc, argv, &i, "-o"))) {
			output = val;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			free(keybuf);
			return sv_cli_usage_error(SNAPSHOT_USAGE,
				"snapshot: unknown option '%s' (or it needs a "
				"value)",
				argv[i]);
		} else if (!file) {
			file = argv[i];
		} else if (!file2) {
			file2 = argv[i];
		} else {
			free(keybuf);
			return sv_cli_usage_error(SNAPSHOT_USAGE,
				"snapshot: more than two FILEs ('%s')",
				argv[i]);
		}
	}
	if (demo && file) {
		free(keybuf);
		return sv_cli_usage_error(SNAPSHOT_USAGE,
			"snapshot: give a FILE or --demo, not both");
	}
	if (!file && !demo) {
		free(keybuf);
		return sv_cli_usage_error(SNAPSHOT_USAGE,
			"snapshot: a FILE (or --demo) is required");
	}
	if (snapshot_parse_size(size, &w, &h) < 0) {
		free(keybuf);
		return sv_cli_usage_error(SNAPSHOT_USAGE,
			"snapshot: bad --size '%s' (expected WxH, e.g. 120x40)",
			size);
	}
	if (!strcmp(format, "text"))
		fmt = SV_GRID_TEXT;
	else if (!strcmp(format, "ansi"))
		fmt = SV_GRID_ANSI;
	else if (!strcmp(format, "svg"))
		fmt = SV_GRID_SVG;
	else {
		free(keybuf);
		return sv_cli_usage_error(SNAPSHOT_USAGE,
			"snapshot: unknown --format '%s' (text, ansi or svg)",
			format);
	}
	if (theme_name && (theme = sv_grid_theme_from_name(theme_name)) < 0) {
		free(keybuf);
		return sv_cli_usage_error(SNAPSHOT_USAGE,
			"snapshot: unknown --theme '%s' (dark or light)",
			theme_name);
	}
	if (config) {
		/* Its bindings before the keys are read; its theme unless
		 * --theme says otherwise.  Bad lines are reported and left
		 * out, as in the viewer. */
		struct sv_config cfg;
		sv_config_init(&cfg);
		if (sv_config_load(&cfg, config, true, &err) < 0) {
			fprintf(stderr, "scopeview: %s\n", err.msg);
			sv_config_fini(&cfg);
			free(keybuf);
			return SV_EXIT_LOAD;
		}
		for (i = 0; i < (int)cfg.errors.n; i++)
			fprintf(stderr, "scopeview: %s\n", cfg.errors.v[i]);
		sv_config_apply_bindings(&cfg);
		if (theme < 0 && cfg.theme != SV_THEME_AUTO)
			theme = cfg.theme;
		sv_config_fini(&cfg);
	}
	if (theme < 0)
		theme = SV_THEME_DARK;
	/* NO_COLOR (set and not empty) means none unless --colors says. */
	nc = getenv("NO_COLOR");
	if (!colors_name && nc && *nc)
		colors = 0;
	else if (colors_name && !strcmp(colors_name, "none"))
		colors = 0;
	else if (colors_name) {
		char *end;
		long n = strtol(colors_name, &end, 10);
		if (*end || (n != 256 && n != 16 && n != 8)) {
			free(keybuf);
			return sv_cli_usage_error(SNAPSHOT_USAGE,
				"snapshot: unknown --colors '%s' (256, 16, 8 "
				"or none)",
				colors_name);
		}
		colors = (int)n;
	}
	if (keys && sv_keys_parse_script(keys, &keyv, &nkeys, &err) < 0) {
		free(keybuf);
		return sv_cli_usage_error(
			SNAPSHOT_USAGE, "snapshot: %s", err.msg);
	}
	free(keybuf);
	setlocale(LC_CTYPE, "");
	if (!ascii && !sv_grid_locale_is_utf8())
		ascii = true;
	if (demo) {
		if (sv_demo_path(demo_path, sizeof demo_path, &err) < 0) {
			fprintf(stderr, "scopeview: the built-in demo: %s\n",
				err.msg);
			free(keyv);
			return SV_EXIT_LOAD;
		}
		file = demo_path;
	}

	/* PATH is checked before anything is read: never an input. */
	inputs[0] = file;
	inputs[1] = file2;
	inputs[2] = config;
	if (output && sv_outfile_check(output, inputs, 3, &err) < 0) {
		free(keyv);
		return sv_cli_output_fail(&err);
	}
	if (output)
		sv_cli_output_signals();
	if (ranks &&
		sv_stats_parse_ranks(ranks, &rank_on, &nrank_on, &err) < 0) {
		free(keyv);
		return sv_cli_usage_error(
			SNAPSHOT_USAGE, "snapshot: --ranks: %s", err.msg);
	}
	sv_cli_ranks_load_opts(rank_on, nrank_on, &lo);
	if (rank_on && sv_cli_ranks_check(file, rank_on, nrank_on) < 0)
		rc = -EINVAL;
	else if ((rc = sv_load(file, &lo, &p, &err)) < 0)
		fprintf(stderr, "scopeview: %s\n", err.msg);
	else if (file2 && (rc = sv_load(file2, &lo, &p2, &err)) < 0)
		fprintf(stderr, "scopeview: %s\n", err.msg);
	free(rank_on);
	if (rc < 0) {
		free(keyv);
		sv_profile_free(p);
		return SV_EXIT_LOAD;
	}
	memset(&opts, 0, sizeof opts);
	opts.ascii = ascii;
	opts.title = demo ? "demo" : file;
	opts.second = p2;
	opts.second_title = file2;
	opts.sink = &sv_cli_export_sink;
	opts.ranks = ranks;
	sv_grid_init(&g);
	rc = sv_snapshot_draw(&g, p, w, h, keyv, nkeys, &opts, &err);
	free(keyv);
	if (rc < 0) {
		fprintf(stderr, "scopeview: %s\n", err.msg);
		sv_grid_fini(&g);
		sv_profile_free(p);
		sv_profile_free(p2);
		return SV_EXIT_LOAD;
	}
	sv_profile_free(p);
	sv_profile_free(p2);
	if (!output) {
		rc = sv_grid_write_colors(&g, stdout, fmt, theme, colors);
		sv_grid_fini(&g);
		if (rc < 0 || fflush(stdout) != 0) {
			fputs("scopeview: snapshot: cannot write standard "
			      "output\n",
				stderr);
			return SV_EXIT_LOAD;
		}
		return SV_EXIT_OK;
	}
	rc = sv_outfile_open(&of, output, inputs, 3, &err);
	if (rc == 0) {
		rc = sv_grid_write_colors(
			&g, sv_outfile_stream(&of), fmt, theme, colors);
		if (rc < 0)
			sv_error_set(
				&err, rc, "snapshot: cannot write %s", output);
		rc = sv_outfile_finish(&of, rc, &err);
	}
	sv_grid_fini(&g);
	return rc < 0 ? sv_cli_output_fail(&err) : SV_EXIT_OK;
}
