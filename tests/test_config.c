/*
 * test_config.c: the configuration file: every directive, every error
 * path (one message "FILE:LINE: problem" and the defaults kept for that
 * line), the dump read back, loading and the default path, and a
 * rebinding shown in --list-keys and the help popup.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "viewtest.h"
#include "scopeview/action.h"
#include "scopeview/config.h"
#include "scopeview/keys.h"
#include "scopeview/panel.h"
#include "scopeview/snapshot.h"
#include "scopeview/stats.h"

/* Every test starts from the table's bindings (CK_FORK=no under
 * valgrind runs them in one process). */
static void config_setup(void)
{
	sv_action_reset_bindings();
}

static void config_teardown(void)
{
	sv_action_reset_bindings();
}

START_TEST(test_defaults)
{
	struct sv_config c;
	int s;

	sv_config_init(&c);
	ck_assert_int_eq(c.theme, SV_THEME_AUTO);
	ck_assert_int_eq(c.colors, -1);
	ck_assert(c.mouse);
	ck_assert_int_eq(c.panel_width, 0);
	ck_assert_int_eq(c.sort_key, SV_STATS_KEY_TOTAL);
	for (s = 0; s < SV_STYLE_COUNT; s++)
		ck_assert_ptr_eq(sv_config_style(&c, s),
			sv_grid_theme_attr(SV_THEME_DARK, s));
	ck_assert_uint_eq(sv_config_parse(&c, "empty", ""), 0);
	ck_assert_uint_eq(
		sv_config_parse(&c, "c", "# only a comment\n\n   \t\n"), 0);
	sv_config_fini(&c);
	sv_config_fini(NULL);
	ck_assert_uint_eq(sv_config_parse(NULL, "x", "theme light"), 0);
}
END_TEST

/* Given one line, then the settings it makes. */
static const struct {
	const char *line;
	int theme, colors, mouse, panel_width, sort_key;
} setting_cases[] = {
	{"theme light", SV_THEME_LIGHT, -1, 1, 0, SV_STATS_KEY_TOTAL},
	{"theme dark", SV_THEME_DARK, -1, 1, 0, SV_STATS_KEY_TOTAL},
	{"theme light\ntheme auto", SV_THEME_AUTO, -1, 1, 0,
		SV_STATS_KEY_TOTAL},
	{"set colors none", SV_THEME_AUTO, 0, 1, 0, SV_STATS_KEY_TOTAL},
	{"set colors 8", SV_THEME_AUTO, 8, 1, 0, SV_STATS_KEY_TOTAL},
	{"set colours 16", SV_THEME_AUTO, 16, 1, 0, SV_STATS_KEY_TOTAL},
	{"set colors 256", SV_THEME_AUTO, 256, 1, 0, SV_STATS_KEY_TOTAL},
	{"set colors auto", SV_THEME_AUTO, -1, 1, 0, SV_STATS_KEY_TOTAL},
	{"set mouse off", SV_THEME_AUTO, -1, 0, 0, SV_STATS_KEY_TOTAL},
	{"  set mouse on  # trailing comment", SV_THEME_AUTO, -1, 1, 0,
		SV_STATS_KEY_TOTAL},
	{"set panel-width 50", SV_THEME_AUTO, -1, 1, 50, SV_STATS_KEY_TOTAL},
	{"set panel-width 0", SV_THEME_AUTO, -1, 1, 0, SV_STATS_KEY_TOTAL},
	{"set sort exclusive", SV_THEME_AUTO, -1, 1, 0, SV_STATS_KEY_EXCLUSIVE},
	{"set sort name\r", SV_THEME_AUTO, -1, 1, 0, SV_STATS_KEY_NAME},
};

START_TEST(test_settings)
{
	struct sv_config c;

	sv_config_init(&c);
	ck_assert_uint_eq(sv_config_parse(&c, "t", setting_cases[_i].line), 0);
	ck_assert_int_eq(c.theme, setting_cases[_i].theme);
	ck_assert_int_eq(c.colors, setting_cases[_i].colors);
	ck_assert_int_eq(c.mouse, setting_cases[_i].mouse);
	ck_assert_int_eq(c.panel_width, setting_cases[_i].panel_width);
	ck_assert_int_eq(c.sort_key, setting_cases[_i].sort_key);
	sv_config_fini(&c);
}
END_TEST

/* Given one bad line, then one message naming the file and line 1 and the
 * problem, and nothing changed. */
static const struct {
	const char *line, *says;
} error_cases[] = {
	{"frobnicate 1", "unknown directive 'frobnicate'"},
	{"theme", "theme is auto, dark or light"},
	{"theme sepia", "theme is auto, dark or light"},
	{"set mouse", "set wants NAME VALUE"},
	{"set mouse maybe", "mouse is on or off, not 'maybe'"},
	{"set colors 12", "colors is auto, none, 8, 16 or 256"},
	{"set panel-width 5", "panel-width is 0"},
	{"set panel-width 300", "panel-width is 0"},
	{"set panel-width wide", "panel-width is 0"},
	{"set sort bogus", "unknown sort key 'bogus'"},
	{"set panel-columns calls,speed", "unknown panel column 'speed'"},
	{"set panel-columns region", "unknown panel column 'region'"},
	{"set volume 11", "unknown setting 'volume'"},
	{"bind x", "bind wants [MODE] KEY ACTION"},
	{"bind a b c d e", "bind wants [MODE] KEY ACTION"},
	{"bind nowhere x quit", "unknown mode 'nowhere'"},
	{"bind NoSuchKey quit", "unknown key 'NoSuchKey'"},
	{"bind Click:1,2 quit", "unknown key 'Click:1,2'"},
	{"bind x no-such-action", "unknown action 'no-such-action'"},
	{"bind timeline x quit", "quit does not apply in timeline"},
	{"bind 'x quit", "a quote is not closed"},
	{"color", "color wants STYLE FG BG"},
	{"color ruler red", "color wants STYLE FG BG"},
	{"color nostyle red blue", "unknown style 'nostyle'"},
	{"color ruler purple default", "unknown colour 'purple'"},
	{"color ruler red 16", "unknown colour '16'"},
	{"color ruler red default blinking", "unknown attribute 'blinking'"},
	{"set a b c d e f g h i", "too many words"},
	{"set mouse "
	 "oooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooo"
	 "ooooooooooo",
		"a word is too long"},
};

START_TEST(test_errors)
{
	struct sv_config c, def;
	char *want;

	sv_config_init(&c);
	sv_config_init(&def);
	ck_assert_uint_eq(
		sv_config_parse(&c, "my.conf", error_cases[_i].line), 1);
	ck_assert_uint_eq(c.errors.n, 1);
	want = sv_xasprintf("my.conf:1: %s", error_cases[_i].says);
	ck_assert_msg(!strncmp(c.errors.v[0], want, strlen(want)),
		"'%s' said '%s', wanted '%s...'", error_cases[_i].line,
		c.errors.v[0], want);
	free(want);
	ck_assert_int_eq(c.theme, def.theme);
	ck_assert_int_eq(c.colors, def.colors);
	ck_assert_int_eq(c.mouse, def.mouse);
	ck_assert_int_eq(c.panel_width, def.panel_width);
	ck_assert_int_eq(c.sort_key, def.sort_key);
	ck_assert_uint_eq(c.nbinds, 0);
	ck_assert(!memchr(c.style_set, true, sizeof c.style_set));
	sv_config_fini(&c);
	sv_config_fini(&def);
}
END_TEST

START_TEST(test_long_line_and_line_numbers)
{
	struct sv_config c;
	char *text, big[700];

	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	text = sv_xasprintf("theme light\nset mouse maybe\n# fine\n%s\n"
			    "set panel-width 40\nset panel-width 41",
		big);
	sv_config_init(&c);
	ck_assert_uint_eq(sv_config_parse(&c, "f", text), 2);
	ck_assert_str_eq(c.errors.v[0], "f:2: mouse is on or off, not 'maybe'");
	ck_assert_str_eq(c.errors.v[1], "f:4: the line is too long");
	/* The good lines apply, a later one wins. */
	ck_assert_int_eq(c.theme, SV_THEME_LIGHT);
	ck_assert(c.mouse);
	ck_assert_int_eq(c.panel_width, 41);
	ck_assert_uint_eq(sv_config_parse(&c, NULL, "bogus"), 1);
	ck_assert_str_eq(c.errors.v[2], "config:1: unknown directive 'bogus' "
					"(bind, color, theme, set)");
	free(text);
	sv_config_fini(&c);
}
END_TEST

START_TEST(test_colors)
{
	struct sv_config c;
	const struct sv_style_attr *a;

	sv_config_init(&c);
	ck_assert_uint_eq(sv_config_parse(&c, "t",
				  "color ruler red blue bold underline\n"
				  "color span region default\n"
				  "color panel_head 3 bright-white normal\n"
				  "colour selected default 12 reverse dim\n"),
		0);
	a = sv_config_style(&c, SV_STYLE_RULER);
	ck_assert_int_eq(a->fg, 1);
	ck_assert_int_eq(a->bg, 4);
	ck_assert(a->bold && a->underline && !a->reverse && !a->dim);
	a = sv_config_style(&c, SV_STYLE_SPAN);
	ck_assert(a->fg_region && !a->bg_region);
	ck_assert_int_eq(a->bg, -1);
	/* Without attributes the theme's stay (span has none) */
	a = sv_config_style(&c, SV_STYLE_PANEL_HEAD);
	ck_assert_int_eq(a->fg, 3);
	ck_assert_int_eq(a->bg, 15);
	ck_assert(!a->bold && !a->underline);
	a = sv_config_style(&c, SV_STYLE_SELECTED);
	ck_assert(a->reverse && a->dim && !a->bold && !a->underline);
	ck_assert_int_eq(a->bg, 12);
	/* A style without a line looks as in the theme. */
	ck_assert_ptr_eq(sv_config_style(&c, SV_STYLE_STATUS),
		sv_grid_theme_attr(SV_THEME_DARK, SV_STYLE_STATUS));
	c.theme = SV_THEME_LIGHT;
	ck_assert_ptr_eq(sv_config_style(&c, SV_STYLE_STATUS),
		sv_grid_theme_attr(SV_THEME_LIGHT, SV_STYLE_STATUS));
	ck_assert_ptr_eq(sv_config_style(NULL, 999),
		sv_grid_theme_attr(SV_THEME_DARK, SV_STYLE_DEFAULT));
	/* Without ATTR a line keeps the attributes before it. */
	ck_assert_uint_eq(
		sv_config_parse(&c, "t", "color ruler green default"), 0);
	a = sv_config_style(&c, SV_STYLE_RULER);
	ck_assert(a->bold && a->underline);
	ck_assert_int_eq(a->fg, 2);
	sv_config_fini(&c);
}
END_TEST

static int key_of(const char *name)
{
	int k = 0;
	ck_assert_int_eq(sv_key_parse(name, &k, NULL), 0);
	return k;
}

START_TEST(test_bind)
{
	struct sv_config c;
	char keys[128];

	sv_config_init(&c);
	ck_assert_uint_eq(sv_config_parse(&c, "t",
				  "bind x quit\n"
				  "bind timeline j zoom-in\n"
				  "bind q none\n"
				  "bind '#' zoom-fit\n"
				  "bind panel C-n panel-down\n"),
		0);
	ck_assert_uint_eq(c.nbinds, 5);
	sv_config_apply_bindings(&c);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_GLOBAL, 'x'), SV_ACTION_QUIT);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_TIMELINE, 'j'), SV_ACTION_ZOOM_IN);
	/* j still moves in the panel: only the timeline's j changed */
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_LIST, 'j'), SV_ACTION_LIST_DOWN);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_GLOBAL, 'q'), SV_ACTION_NONE);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_POPUP, 'q'), SV_ACTION_NONE);
	ck_assert_int_eq(
		sv_action_for_key(SV_SCOPE_TIMELINE, '#'), SV_ACTION_ZOOM_FIT);
	/* an old name of a list key, bound in one list: in every list */
	ck_assert_int_eq(sv_action_for_key(SV_SCOPE_LIST, key_of("C-n")),
		SV_ACTION_LIST_DOWN);
	sv_action_key_list(SV_ACTION_MOVE_DOWN, keys, sizeof keys);
	ck_assert_str_eq(keys, "Down");
	sv_action_key_list(SV_ACTION_QUIT, keys, sizeof keys);
	ck_assert_str_eq(keys, "Q, x");
	sv_action_key_list(SV_ACTION_ZOOM_IN, keys, sizeof keys);
	ck_assert_str_eq(keys, "+, =, w, j");
	sv_action_key_list(SV_ACTION_LIST_DOWN, keys, sizeof keys);
	ck_assert_str_eq(keys, "j, Down, Ctrl-n");
	sv_config_fini(&c);
}
END_TEST

/* --list-keys and the help popup show the keys in effect. */
START_TEST(test_rebinding_in_docs_and_help)
{
	static const struct vt_call calls[] = {
		{0, "solve", 0, 1000, -1, -1, -1, 0},
	};
	struct sv_profile *p = vt_profile(calls, 1, VT_START);
	struct sv_config c;
	struct sv_grid g;
	struct sv_error err = {0};
	char *doc = NULL, *dump;
	size_t n = 0;
	FILE *f;
	int help = key_of("?");

	sv_config_init(&c);
	ck_assert_uint_eq(sv_config_parse(&c, "t",
				  "bind timeline F5 solo-lane\n"
				  "bind timeline t none\n"),
		0);
	sv_config_apply_bindings(&c);
	f = open_memstream(&doc, &n);
	ck_assert_int_eq(sv_action_write_keys(f, SV_ACTION_DOC_TEXT), 0);
	fclose(f);
	ck_assert_msg(strstr(doc, "  F5                 solo-lane"), "%s", doc);
	free(doc);

	sv_grid_init(&g);
	ck_assert_int_eq(
		sv_snapshot_draw(&g, p, 100, 60, &help, 1, NULL, &err), 0);
	dump = vt_grid_dump(&g);
	ck_assert_msg(strstr(dump, "F5              Show only the lane"),
		"the help popup does not show F5:\n%s", dump);
	ck_assert_msg(!strstr(dump, "t               Show only the lane"),
		"the help popup still shows t:\n%s", dump);
	free(dump);
	sv_grid_fini(&g);
	sv_profile_free(p);
	sv_config_fini(&c);
}
END_TEST

/* Errors quote the line's words made safe for a terminal (issue 43):
 * ESC, BEL, C1 and bidirectional controls in any word come out escaped. */
START_TEST(test_errors_escaped)
{
	static const char *const lines[] = {
		"\x1b]0;PWNED\x07\x1b[2J directive",
		"bind \x1b[31mX quit",
		"bind x \xc2\x9b"
		"2J",
		"color \xe2\x80\xae red blue",
		"set sort \x1b\\",
		"theme \x07",
	};
	struct sv_config c;
	size_t i, k;

	sv_config_init(&c);
	for (i = 0; i < sizeof lines / sizeof lines[0]; i++)
		ck_assert_uint_eq(
			sv_config_parse(&c, "cfg\x1b[1m", lines[i]), 1);
	ck_assert_uint_eq(c.errors.n, sizeof lines / sizeof lines[0]);
	for (i = 0; i < c.errors.n; i++) {
		const char *e = c.errors.v[i];
		ck_assert_msg(!strncmp(e, "cfg\\x1b[1m:1: ", 14), "%s", e);
		for (k = 0; e[k]; k++)
			ck_assert_msg((unsigned char)e[k] >= 0x20 &&
					      (unsigned char)e[k] != 0x7f &&
					      !((unsigned char)e[k] == 0xc2 &&
						      (unsigned char)e[k + 1] <
							      0xa0) &&
					      (unsigned char)e[k] != 0xe2,
				"raw control in '%s'", e);
	}
	ck_assert_ptr_nonnull(
		strstr(c.errors.v[0], "'\\x1b]0;PWNED\\x07\\x1b[2J'"));
	ck_assert_ptr_nonnull(strstr(c.errors.v[2], "'\\x9b2J'"));
	ck_assert_ptr_nonnull(strstr(c.errors.v[3], "'\\u202e'"));
	sv_config_fini(&c);
}
END_TEST

/* What --dump-config writes parses back, without errors, to the same
 * configuration and the same keys. */
START_TEST(test_dump_roundtrip)
{
	struct sv_config c, d;
	char *text = NULL, *before = NULL, *after = NULL;
	size_t n = 0;
	FILE *f;
	int s;

	sv_config_init(&c);
	ck_assert_uint_eq(sv_config_parse(&c, "t",
				  "theme light\nset colors 16\nset mouse off\n"
				  "set panel-width 60\nset sort calls\n"
				  "color ruler red default bold\n"
				  "bind x quit\nbind q none\nbind '#' help\n"),
		0);
	sv_config_apply_bindings(&c);
	f = open_memstream(&before, &n);
	sv_action_write_keys(f, SV_ACTION_DOC_TEXT);
	fclose(f);
	f = open_memstream(&text, &n);
	ck_assert_int_eq(sv_config_write(&c, f), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "theme light\n"));
	ck_assert_ptr_nonnull(strstr(text, "bind global '#' help\n"));
	ck_assert_ptr_nonnull(strstr(text, "bind global q none\n"));
	ck_assert_ptr_nonnull(strstr(text, "# color status"));

	sv_action_reset_bindings();
	sv_config_init(&d);
	ck_assert_uint_eq(sv_config_parse(&d, "dump", text), 0);
	sv_config_apply_bindings(&d);
	ck_assert_int_eq(d.theme, c.theme);
	ck_assert_int_eq(d.colors, c.colors);
	ck_assert_int_eq(d.mouse, c.mouse);
	ck_assert_int_eq(d.panel_width, c.panel_width);
	ck_assert_int_eq(d.sort_key, c.sort_key);
	for (s = 0; s < SV_STYLE_COUNT; s++) {
		ck_assert_int_eq(d.style_set[s], c.style_set[s]);
		ck_assert_int_eq(
			memcmp(sv_config_style(&d, s), sv_config_style(&c, s),
				sizeof(struct sv_style_attr)),
			0);
	}
	f = open_memstream(&after, &n);
	sv_action_write_keys(f, SV_ACTION_DOC_TEXT);
	fclose(f);
	ck_assert_str_eq(after, before);
	free(text);
	free(before);
	free(after);
	sv_config_fini(&c);
	sv_config_fini(&d);

	/* NULL writes the defaults; no stream is an error. */
	text = NULL;
	f = open_memstream(&text, &n);
	ck_assert_int_eq(sv_config_write(NULL, f), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "theme auto\n"));
	ck_assert_ptr_nonnull(strstr(text, "set colors auto\n# Clicks"));
	free(text);
	ck_assert_int_eq(sv_config_write(NULL, NULL), -EINVAL);
}
END_TEST

START_TEST(test_load)
{
	struct sv_config c;
	struct sv_error err = {0};
	char *path = svt_tmp_path("config");
	char *missing = svt_tmp_path("no-such-config");
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs("theme light\nset sort nonsense\n", f);
	fclose(f);
	sv_config_init(&c);
	ck_assert_int_eq(sv_config_load(&c, path, true, &err), 0);
	ck_assert_int_eq(c.theme, SV_THEME_LIGHT);
	ck_assert_uint_eq(c.errors.n, 1);
	ck_assert(!strncmp(c.errors.v[0], path, strlen(path)));
	ck_assert_ptr_nonnull(strstr(c.errors.v[0], ":2: unknown sort key"));
	/* A missing default file is no error; a missing --config is. */
	ck_assert_int_eq(sv_config_load(&c, missing, false, &err), 0);
	ck_assert_int_eq(sv_config_load(&c, missing, true, &err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, missing));
	ck_assert_int_eq(sv_config_load(&c, NULL, true, &err), -EINVAL);
	ck_assert_int_eq(sv_config_load(NULL, path, true, &err), -EINVAL);
	sv_config_fini(&c);
	remove(path);
	free(path);
	free(missing);
}
END_TEST

/* --config naming what must not be read blindly (infile.h): refused at
 * once with one line, or read within the bound with every message
 * escaped. */
static const struct {
	const char *what;
	int rc;
	const char *frag;
} hostile_config[SVT_NHOSTILE] = {
	{"/dev/zero", -EINVAL, "is a character device, not a regular file"},
	{"fifo", -EINVAL, "is a FIFO, not a regular file"},
	{"loop", -ELOOP, "Too many levels of symbolic links"},
	{"sparse", -EFBIG, "holds 2GiB, more than a configuration file may"},
	{"escapes", 0, NULL},
};

START_TEST(test_load_hostile)
{
	/* given a --config FILE that is a device, a FIFO, a link loop, 2 GB
	 * or binary; when loaded; then no wait, and a refusal in one line,
	 * or the lines read with no raw control in any message */
	const struct svt_hostile *h = &svt_hostile_files()[_i];
	struct sv_config c;
	struct sv_error err = {0};
	size_t i;

	ck_assert_str_eq(h->what, hostile_config[_i].what);
	sv_config_init(&c);
	alarm(20);
	ck_assert_int_eq(
		sv_config_load(&c, h->path, true, &err), hostile_config[_i].rc);
	alarm(0);
	if (hostile_config[_i].rc) {
		ck_assert_msg(strstr(err.msg, hostile_config[_i].frag), "%s",
			err.msg);
		ck_assert_ptr_nonnull(strstr(err.msg, h->path));
		ck_assert_ptr_null(strchr(err.msg, '\n'));
	} else {
		ck_assert_uint_gt(c.errors.n, 0);
		for (i = 0; i < c.errors.n; i++)
			ck_assert_msg(!svt_has_raw_control(c.errors.v[i],
					      strlen(c.errors.v[i])),
				"%s", c.errors.v[i]);
	}
	/* the default file (no must_exist) is refused alike */
	if (hostile_config[_i].rc)
		ck_assert_int_eq(sv_config_load(&c, h->path, false, &err),
			hostile_config[_i].rc);
	sv_config_fini(&c);
}
END_TEST

START_TEST(test_default_path)
{
	char buf[256];

	setenv("XDG_CONFIG_HOME", "/x/conf", 1);
	setenv("HOME", "/home/u", 1);
	ck_assert_str_eq(sv_config_default_path(buf, sizeof buf),
		"/x/conf/scopeview/config");
	setenv("XDG_CONFIG_HOME", "relative", 1); /* ignored, as XDG says */
	ck_assert_str_eq(sv_config_default_path(buf, sizeof buf),
		"/home/u/.config/scopeview/config");
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("HOME");
	ck_assert_ptr_null(sv_config_default_path(buf, sizeof buf));
	ck_assert_ptr_null(sv_config_default_path(NULL, 0));
}
END_TEST

START_TEST(test_panel_columns)
{
	struct sv_config c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	/* given a column list in any order, then those columns, as bits */
	sv_config_init(&c);
	ck_assert_uint_eq(c.panel_cols, 0);
	ck_assert_uint_eq(
		sv_config_parse(&c, "cfg", "set panel-columns p95,calls\n"), 0);
	ck_assert_uint_eq(c.panel_cols,
		(1u << SV_PANEL_COL_P95) | (1u << SV_PANEL_COL_CALLS));
	/* and the dump writes them back in table order */
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(sv_config_write(&c, f), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "set panel-columns calls,p95\n"));
	free(buf);
	/* auto goes back to as many as fit */
	ck_assert_uint_eq(
		sv_config_parse(&c, "cfg", "set panel-columns auto\n"), 0);
	ck_assert_uint_eq(c.panel_cols, 0);
	sv_config_fini(&c);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("config");
	TCase *t = tcase_create("parse");
	TCase *k = tcase_create("keys and files");

	tcase_add_checked_fixture(t, config_setup, config_teardown);
	tcase_add_checked_fixture(k, config_setup, config_teardown);
	tcase_add_test(t, test_defaults);
	tcase_add_test(t, test_panel_columns);
	tcase_add_loop_test(t, test_settings, 0,
		sizeof setting_cases / sizeof setting_cases[0]);
	tcase_add_loop_test(
		t, test_errors, 0, sizeof error_cases / sizeof error_cases[0]);
	tcase_add_test(t, test_long_line_and_line_numbers);
	tcase_add_test(t, test_errors_escaped);
	tcase_add_test(t, test_colors);
	tcase_add_test(k, test_bind);
	tcase_add_test(k, test_rebinding_in_docs_and_help);
	tcase_add_test(k, test_dump_roundtrip);
	tcase_add_test(k, test_load);
	tcase_add_test(k, test_default_path);
	tcase_add_loop_test(k, test_load_hostile, 0, SVT_NHOSTILE);
	suite_add_tcase(s, t);
	suite_add_tcase(s, k);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
