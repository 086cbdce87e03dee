/*
 * test_snapshot.c: `scopeview snapshot` through sv_snapshot_main: output
 * shape of every format, the command-line mistakes (exit 2) and unreadable
 * files (exit 1), glyphs by locale or --ascii, and every fixture drawn at
 * several sizes and zooms.
 */
#include <dirent.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/cli.h"
#include "scopeview/grid.h"
#include "scopeview/keys.h"
#include "scopeview/load.h"
#include "scopeview/snapshot.h"
#include "viewtest.h"

/* Run snapshot with args (NULL-terminated, after "snapshot") writing to a
 * temporary file; returns the exit status and the output in *out. */
static int run(char **out, const char *const *args)
{
	char *argv[32];
	int argc = 0, rc;
	char *path = svt_tmp_path("snap.out");

	argv[argc++] = (char *)"snapshot";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc++] = (char *)"--output";
	argv[argc++] = path;
	argv[argc] = NULL;
	remove(path);
	rc = sv_cli_run(&sv_cli_snapshot_cmd, argc, argv);
	if (out)
		*out = svt_read_file(path, NULL);
	free(path);
	return rc;
}

/* Count lines and check each holds at most w code points. */
static int check_text(const char *s, int w)
{
	int lines = 0;
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len, i = 0;
		int cells = 0;
		ck_assert_ptr_nonnull(nl);
		len = (size_t)(nl - s);
		while (i < len) {
			uint32_t cp;
			i += sv_utf8_decode(s + i, len - i, &cp);
			cells += sv_utf8_width(cp);
			ck_assert(cp >= 0x20);
		}
		ck_assert_int_le(cells, w);
		lines++;
		s = nl + 1;
	}
	return lines;
}

START_TEST(test_text_shape)
{
	char *fx = svt_fixture("threads_tasks.h5"), *out = NULL;
	const char *args[] = {"--size", "90x25", "--keys", "j Tab f", fx, NULL};

	ck_assert_int_eq(run(&out, args), SV_EXIT_OK);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(check_text(out, 90), 25);
	ck_assert_ptr_nonnull(strstr(out, "MainThread"));
	free(out);
	free(fx);
}
END_TEST

START_TEST(test_default_size_and_formats)
{
	char *fx = svt_fixture("single_rank_nested.h5"), *out = NULL, *p;
	const char *text[] = {fx, NULL};
	const char *ansi[] = {"--format", "ansi", fx, NULL};
	const char *svg[] = {"--format=svg", fx, NULL};
	const char *ascii[] = {"--ascii", "--size=80x24", fx, NULL};

	ck_assert_int_eq(run(&out, text), 0);
	ck_assert_int_eq(check_text(out, 120), 40);
	free(out);
	ck_assert_int_eq(run(&out, ansi), 0);
	/* only SGR sequences and newlines besides the text */
	for (p = out; *p; p++)
		if (*p == 0x1b) {
			ck_assert_int_eq(p[1], '[');
			p += 2;
			while ((*p >= '0' && *p <= '9') || *p == ';')
				p++;
			ck_assert_int_eq(*p, 'm');
		} else {
			ck_assert((unsigned char)*p >= 0x20 || *p == '\n');
		}
	free(out);
	ck_assert_int_eq(run(&out, svg), 0);
	ck_assert_ptr_nonnull(strstr(out, "<svg"));
	ck_assert_ptr_nonnull(strstr(out, "</svg>"));
	free(out);
	ck_assert_int_eq(run(&out, ascii), 0);
	ck_assert_int_eq(check_text(out, 80), 24);
	for (p = out; *p; p++)
		ck_assert((unsigned char)*p < 0x80);
	free(out);
	free(fx);
}
END_TEST

START_TEST(test_locale_glyphs)
{
	/* a non-UTF-8 locale gives ASCII glyphs; TERM does not matter */
	char *fx = svt_fixture("single_rank_nested.h5"), *out = NULL, *p;
	const char *args[] = {fx, NULL};
	char *old;

	old = getenv("LC_ALL") ? sv_xstrdup(getenv("LC_ALL")) : NULL;
	setenv("LC_ALL", "C", 1);
	setenv("TERM", "xterm-256color", 1);
	ck_assert_int_eq(run(&out, args), 0);
	for (p = out; *p; p++)
		ck_assert((unsigned char)*p < 0x80);
	free(out);
	setenv("LC_ALL", "C.UTF-8", 1);
	setenv("TERM", "dumb", 1);
	ck_assert_int_eq(run(&out, args), 0);
	ck_assert_ptr_nonnull(strstr(out, "\xe2\x94\x82")); /* │ */
	free(out);
	if (old)
		setenv("LC_ALL", old, 1);
	free(old);
	setlocale(LC_CTYPE, "C");
	free(fx);
}
END_TEST

static const struct {
	const char *args[8];
	int rc;
} mistakes[] = {
	{{NULL}, SV_EXIT_USAGE},
	{{"--size", "0x10", "f.h5", NULL}, SV_EXIT_USAGE},
	{{"--size", "80", "f.h5", NULL}, SV_EXIT_USAGE},
	{{"--size", "80x24x", "f.h5", NULL}, SV_EXIT_USAGE},
	{{"--keys", "t Bogus", "f.h5", NULL}, SV_EXIT_USAGE},
	{{"--keys", "Click:1", "f.h5", NULL}, SV_EXIT_USAGE},
	{{"--format", "png", "f.h5", NULL}, SV_EXIT_USAGE},
	{{"--frobnicate", "f.h5", NULL}, SV_EXIT_USAGE},
	{{"a.h5", "b.h5", "c.h5", NULL}, SV_EXIT_LOAD}, /* runs, none read */
	{{"/nonexistent/file.h5", NULL}, SV_EXIT_LOAD},
};

START_TEST(test_mistakes)
{
	/* given a mistake, then the documented exit status and no output */
	char *out = NULL;
	ck_assert_int_eq(run(&out, mistakes[_i].args), mistakes[_i].rc);
	ck_assert(out == NULL || out[0] == '\0');
	free(out);
}
END_TEST

START_TEST(test_help)
{
	char *argv[] = {(char *)"snapshot", (char *)"--help", NULL};
	FILE *saved = stdout;
	stdout = fopen("/dev/null", "w");
	ck_assert_int_eq(sv_cli_run(&sv_cli_snapshot_cmd, 2, argv), 0);
	fclose(stdout);
	stdout = saved;
}
END_TEST

START_TEST(test_demo)
{
	char *cache = svt_tmp_path("cache"), *out = NULL;
	const char *args[] = {"--demo", "--size", "80x24", NULL};
	const char *both[] = {"--demo", "x.h5", NULL};

	setenv("XDG_CACHE_HOME", cache, 1);
	ck_assert_int_eq(run(&out, args), 0);
	ck_assert_int_eq(check_text(out, 80), 24);
	ck_assert_ptr_nonnull(strstr(out, "demo"));
	free(out);
	ck_assert_int_eq(run(NULL, both), SV_EXIT_USAGE);
	{
		/* The helpers remove files, not directories: clean up. */
		char *dir = sv_xasprintf("%s/scopeview", cache);
		DIR *d = opendir(dir);
		struct dirent *e;
		while (d && (e = readdir(d))) {
			char *f;
			if (e->d_name[0] == '.')
				continue;
			f = sv_xasprintf("%s/%s", dir, e->d_name);
			remove(f);
			free(f);
		}
		if (d)
			closedir(d);
		rmdir(dir);
		rmdir(cache);
		free(dir);
	}
	free(cache);
}
END_TEST

static const char *const fixtures[] = {"aggregate_layout.h5", "four_ranks.h5",
	"gpu_likwid_perf_lineprof.h5", "hdf5-schema-1.h5", "hdf5-schema-2.h5",
	"hdf5-schema-3.h5", "lanes_rebuilt_exclusive.h5", "large_auto_gzip.h5",
	"legacy_schema1.h5", "no_call_ids.h5", "schema2_ties_zero_length.h5",
	"single_rank_nested.h5", "threads_tasks.h5", "unrepacked_chunked.h5"};

START_TEST(test_every_fixture)
{
	/* every fixture draws at small, standard and large sizes, zoomed in
	 * and out, with popups, without control characters */
	static const struct {
		int w, h;
		const char *keys;
	} runs[] = {
		{40, 10, ""},
		{80, 24, "Tab f + + + Tab v"},
		{120, 40, "j j Tab Tab K J c t i"},
		{300, 100, "- - - W"},
		{100, 30, "p j Enter n n ? PageDown"},
		{100, 30, "/ . Enter n N \\ ! m Enter r 0 Enter"},
	};
	char *fx = svt_fixture(fixtures[_i]);
	struct sv_profile *p = NULL;
	struct sv_error err;
	size_t r;

	ck_assert_msg(sv_load(fx, NULL, &p, &err) == 0, "%s", err.msg);
	for (r = 0; r < sizeof runs / sizeof runs[0]; r++) {
		struct sv_grid g;
		int *keys = NULL, x, y;
		size_t n = 0;
		ck_assert_int_eq(
			sv_keys_parse_script(runs[r].keys, &keys, &n, &err), 0);
		sv_grid_init(&g);
		ck_assert_int_eq(sv_snapshot_draw(&g, p, runs[r].w, runs[r].h,
					 keys, n, NULL, &err),
			0);
		ck_assert_int_eq(g.w, runs[r].w);
		ck_assert_int_eq(g.h, runs[r].h);
		for (y = 0; y < g.h; y++)
			for (x = 0; x < g.w; x++) {
				uint32_t ch = sv_grid_cell(&g, x, y)->ch;
				ck_assert(ch == 0 || ch >= 0x20);
			}
		sv_grid_fini(&g);
		free(keys);
	}
	sv_profile_free(p);
	free(fx);
}
END_TEST

/* NO_COLOR and --colors: ansi and svg without colour, or reduced. */
START_TEST(test_no_color)
{
	char *cache = svt_tmp_path("cache"), *out = NULL;
	const char *ansi[] = {
		"--demo", "--size", "100x30", "--format", "ansi", NULL};
	const char *svg[] = {
		"--demo", "--size", "100x30", "--format", "svg", NULL};
	const char *c16[] = {"--demo", "--size", "100x30", "--format", "ansi",
		"--colors", "16", NULL};
	const char *c256[] = {"--demo", "--size", "100x30", "--format", "ansi",
		"--colors", "256", NULL};
	const char *bad[] = {"--demo", "--colors", "7", NULL};

	setenv("XDG_CACHE_HOME", cache, 1);
	/* given colours by default */
	unsetenv("NO_COLOR");
	ck_assert_int_eq(run(&out, ansi), 0);
	ck_assert_ptr_nonnull(strstr(out, "38;5;"));
	free(out);
	/* when NO_COLOR is set: no colour sequence at all, but the bars
	 * are still there (as fill patterns) and bold stays */
	setenv("NO_COLOR", "1", 1);
	ck_assert_int_eq(run(&out, ansi), 0);
	ck_assert_ptr_null(strstr(out, "38;5;"));
	ck_assert_ptr_null(strstr(out, "48;5;"));
	ck_assert_ptr_null(strstr(out, ";3"));
	ck_assert_ptr_null(strstr(out, ";4;"));
	ck_assert_ptr_null(strstr(out, ";9"));
	ck_assert_ptr_nonnull(strstr(out, "\x1b[0;1"));
	free(out);
	ck_assert_int_eq(run(&out, svg), 0);
	ck_assert_ptr_nonnull(strstr(out, "<svg"));
	ck_assert_ptr_null(strstr(out, "#d75f5f"));
	ck_assert_ptr_null(strstr(out, "#5f87d7"));
	free(out);
	/* --colors says otherwise */
	ck_assert_int_eq(run(&out, c256), 0);
	ck_assert_ptr_nonnull(strstr(out, "38;5;"));
	free(out);
	unsetenv("NO_COLOR");
	/* 16 colours: only the 16 ANSI colours */
	ck_assert_int_eq(run(&out, c16), 0);
	ck_assert_ptr_null(strstr(out, "38;5;"));
	ck_assert_ptr_nonnull(strstr(out, "\x1b[0"));
	free(out);
	ck_assert_int_eq(run(NULL, bad), SV_EXIT_USAGE);
	free(cache);
}
END_TEST

/* The demo at 160x45, as a new user first sees it and zoomed into one
 * thread: no count digit in any bar. */
static const struct {
	const char *name, *keys;
} demo_screens[] = {
	{"demo_whole_run", ""},
	{"demo_solo_zoomed", "t + + + + + j j j"},
	{"demo_search_dims", "/ k e r n e l Enter"},
	{"demo_help_legend", "? End"},
};

START_TEST(test_demo_screens)
{
	char *cache = svt_tmp_path("cache"), *out = NULL, *p;
	const char *args[] = {"--demo", "--size", "160x45", "--keys",
		demo_screens[_i].keys, NULL};

	setenv("XDG_CACHE_HOME", cache, 1);
	unsetenv("NO_COLOR");
	ck_assert_int_eq(run(&out, args), 0);
	vt_golden_text(out, demo_screens[_i].name);
	/* the lanes' columns (left of the panel) hold no digit, but for
	 * the help screen's text */
	for (p = out; *p && demo_screens[_i].keys[0] != '?'; p++) {
		const char *eol = strchr(p, '\n'),
			   *bar = strstr(p, "\xe2\x94\x82");
		if (!eol)
			break;
		if (bar && bar < eol && p != out) {
			/* between the label's border and the panel's */
			const char *q = bar + 3,
				   *end = strstr(q, "\xe2\x94\x82");
			if (end && end < eol && p - out > 2 * 161)
				for (; q < end; q++)
					ck_assert_msg(*q < '0' || *q > '9',
						"a digit in a bar: %.*s",
						(int)(eol - p), p);
		}
		p = (char *)eol;
	}
	free(out);
	free(cache);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("snapshot");
	TCase *tc = tcase_create("cli");
	tcase_add_test(tc, test_text_shape);
	tcase_add_test(tc, test_default_size_and_formats);
	tcase_add_test(tc, test_locale_glyphs);
	tcase_add_loop_test(
		tc, test_mistakes, 0, sizeof mistakes / sizeof mistakes[0]);
	tcase_add_test(tc, test_help);
	tcase_add_test(tc, test_demo);
	tcase_add_test(tc, test_no_color);
	tcase_add_loop_test(tc, test_demo_screens, 0,
		sizeof demo_screens / sizeof demo_screens[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("fixtures");
	tcase_add_loop_test(tc, test_every_fixture, 0,
		sizeof fixtures / sizeof fixtures[0]);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
