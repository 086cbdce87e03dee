/*
 * test_cli.c: the program's top level: --version, --help, usage errors and
 * their exit status (2), and the escaping of every message that quotes
 * text from a file or the command line (issue 43), run as a real process.
 */
#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sv_version.h"
#include "helpers.h"
#include "scopeview/cli.h"
#include "scopeview/common.h"

/* Run the built scopeview with args (a shell word list); capture stdout
 * and stderr together into out; returns the exit status. */
static int run_exe(const char *args, char *out, size_t n)
{
	const char *exe = getenv("SCOPEVIEW_EXE");
	char *cmd;
	FILE *f;
	size_t got;
	int st;

	ck_assert_msg(exe != NULL, "SCOPEVIEW_EXE is not set");
	cmd = sv_xasprintf("'%s' %s 2>&1 </dev/null", exe, args);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	got = fread(out, 1, n - 1, f);
	out[got] = '\0';
	st = pclose(f);
	free(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

START_TEST(test_version)
{
	char out[4096];
	ck_assert_int_eq(run_exe("--version", out, sizeof out), 0);
	ck_assert_str_eq(out, "scopeview " SV_VERSION "\n");
}
END_TEST

START_TEST(test_help_lists_commands)
{
	char out[16384];
	ck_assert_int_eq(run_exe("--help", out, sizeof out), 0);
	ck_assert_ptr_nonnull(strstr(out, "usage: scopeview"));
	ck_assert_ptr_nonnull(strstr(out, "summary"));
	ck_assert_ptr_nonnull(strstr(out, "snapshot"));
	ck_assert_ptr_nonnull(strstr(out, "gen"));
}
END_TEST

static const struct {
	const char *args;
	int status;
	const char *says;
} usage_cases[] = {
	{"summary", 2, "usage:"},
	{"summary --format xml x.h5", 2, "usage:"},
	{"summary --sort nonsense x.h5", 2, "usage:"},
	{"summary --bogus x.h5", 2, "usage:"},
	{"snapshot --size 0x0 x.h5", 2, "usage:"},
	{"snapshot --keys NoSuchKey x.h5", 2, "usage:"},
	{"gen", 2, "usage:"},
	{"gen --ranks -3 out.h5", 2, "usage:"},
	{"--bogus-option", 2, "usage:"},
	{"summary /nonexistent/run.h5", 1, "/nonexistent/run.h5"},
	/* After --, a FILE may start with '-'; C-@ is a key (issue 16). */
	{"snapshot -- -nonexistent.h5", 1, "-nonexistent.h5: no such file"},
	{"snapshot --keys C-@ -- /nonexistent/run.h5", 1,
		"/nonexistent/run.h5"},
	{"snapshot -- a.h5 b.h5", 2, "more than one FILE"},
};

START_TEST(test_usage_errors)
{
	char out[16384];
	int st = run_exe(usage_cases[_i].args, out, sizeof out);
	ck_assert_msg(st == usage_cases[_i].status,
		"'scopeview %s' exited %d, wanted %d; said: %s",
		usage_cases[_i].args, st, usage_cases[_i].status, out);
	ck_assert_msg(strstr(out, usage_cases[_i].says) != NULL,
		"'scopeview %s' said: %s", usage_cases[_i].args, out);
	ck_assert_msg(!strncmp(out, "scopeview: ", 11),
		"'scopeview %s' said: %s", usage_cases[_i].args, out);
}
END_TEST

START_TEST(test_usage_error_helper)
{
	ck_assert_int_eq(sv_cli_usage_error(NULL, "test %d", 1), SV_EXIT_USAGE);
}
END_TEST

/* Write one document of a small table into a string. */
static char *cli_doc(int kind)
{
	static const struct sv_cli_option opts[] = {
		{"--format", NULL, "FMT", "a b", "the format\nsecond line"},
		{"--list", NULL, "[=FMT]", "x y", "it's attached"},
		{"--help", "-h", NULL, NULL, "help_me *now*"},
	};
	static const struct sv_cli_command view = {
		"", "[FILE]", "the viewer", true, opts, 3};
	static const struct sv_cli_command sub = {
		"sub", "FILE", "a subcommand", true, opts, 1};
	const struct sv_cli_command *cmds[] = {&view, &sub};
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	ck_assert_ptr_nonnull(f);
	if (kind < 0)
		sv_cli_write_options(f, &view);
	else
		ck_assert_int_eq(sv_cli_write_doc(f, kind, cmds, 2), 0);
	fclose(f);
	return buf;
}

START_TEST(test_option_tables)
{
	char *s = cli_doc(-1);
	ck_assert_str_eq(s, "  --format FMT       the format\n"
			    "                     second line\n"
			    "  --list[=FMT]       it's attached\n"
			    "  -h, --help         help_me *now*\n");
	free(s);
	s = cli_doc(SV_CLI_DOC_SCDOC);
	ck_assert_ptr_nonnull(strstr(s, "*scopeview sub* FILE\n"));
	ck_assert_ptr_nonnull(strstr(s, "*--format* _FMT_\n\tthe format\n"));
	ck_assert_ptr_nonnull(
		strstr(s, "*-h*, *--help*\n\thelp\\_me \\*now\\*"));
	free(s);
	s = cli_doc(SV_CLI_DOC_BASH);
	ck_assert_ptr_nonnull(strstr(s, "sub)\n"));
	ck_assert_ptr_nonnull(strstr(s, "--list --list=x --list=y"));
	ck_assert_ptr_nonnull(strstr(s, "compgen -W 'a b'"));
	free(s);
	s = cli_doc(SV_CLI_DOC_ZSH);
	ck_assert_ptr_nonnull(strstr(s, "'sub:a subcommand'"));
	ck_assert_ptr_nonnull(strstr(s, "'--list=-[it'\\''s attached]"));
	free(s);
	s = cli_doc(SV_CLI_DOC_FISH);
	ck_assert_ptr_nonnull(strstr(s, "-a sub -d 'a subcommand'"));
	ck_assert_ptr_nonnull(strstr(s, "-l help -s h -d 'help_me *now*'"));
	free(s);
	ck_assert_int_eq(sv_cli_doc_from_name("fish"), SV_CLI_DOC_FISH);
	ck_assert_int_eq(sv_cli_doc_from_name("nroff"), -1);
	ck_assert_int_eq(sv_cli_doc_from_name(NULL), -1);
	ck_assert_int_eq(
		sv_cli_write_doc(stdout, SV_CLI_DOC_BASH, NULL, 0), -EINVAL);
	ck_assert_int_eq(
		sv_cli_write_doc(NULL, SV_CLI_DOC_BASH, NULL, 1), -EINVAL);
}
END_TEST

/* --completion and --list-options run, and refuse unknown kinds. */
START_TEST(test_completion_option)
{
	static char out[1 << 16];
	ck_assert_int_eq(run_exe("--completion=bash", out, sizeof out), 0);
	ck_assert_ptr_nonnull(strstr(out, "complete -F _scopeview scopeview"));
	ck_assert_int_eq(run_exe("--list-options=scdoc", out, sizeof out), 0);
	ck_assert_ptr_nonnull(strstr(out, "# COMMANDS"));
	ck_assert_int_eq(run_exe("--completion=tcsh", out, sizeof out), 2);
	ck_assert_int_eq(run_exe("--completion=scdoc", out, sizeof out), 2);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Escape sequences planted in every message source (issue 43)         */

/* OSC (a window title) ended by BEL, CSI (clear the screen), the C1 CSI
 * and OSC as UTF-8 (U+009B, U+009D), BEL, a bidirectional override: no
 * blank, so that it is one word of a config line. */
#define PLANT                             \
	"\x1b]0;PWNED\x07\x1b[2J\xc2\x9b" \
	"31m\xc2\x9d"                     \
	"8;;x\x07\xe2\x80\xae"
/* ... as every message shows it. */
#define PLANT_SHOWN "\\x1b]0;PWNED\\x07\\x1b[2J\\x9b31m\\x9d8;;x\\x07\\u202e"

/* A profile of one rank at path with a region called name whose two
 * calls overlap (a nesting warning names it) and a region "io"; with
 * extra, an extra /events column called PLANT of the wrong length (a
 * warning names the HDF5 object). */
static void esc_profile(const char *path, const char *name, bool extra)
{
	svt_write_overlap(path, name);
	if (extra) {
		hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT), sp, d;
		hsize_t n = 2;
		int64_t v[2] = {1, 2};
		ck_assert_int_ge(f, 0);
		sp = H5Screate_simple(1, &n, NULL);
		d = H5Dcreate2(f, "/events/" PLANT, H5T_STD_I64LE, sp,
			H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		ck_assert_int_ge(d, 0);
		H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
		H5Dclose(d);
		H5Sclose(sp);
		H5Fclose(f);
	}
}

/* The config file's lines, each with PLANT in another position. */
static const char *const esc_config_lines[] = {
	PLANT " directive",
	"bind " PLANT " quit",
	"bind x " PLANT,
	"bind " PLANT " x quit",
	"color " PLANT " red blue",
	"color status " PLANT " blue",
	"color status red " PLANT,
	"color status red blue " PLANT,
	"theme " PLANT,
	"set " PLANT " on",
	"set mouse " PLANT,
	"set sort " PLANT,
	"set colors " PLANT,
	"set panel-width " PLANT,
	"set panel-columns calls," PLANT,
	"bind \"" PLANT,
};
#define ESC_NCONFIG (sizeof esc_config_lines / sizeof esc_config_lines[0])

/* A directory (in SVT_D) with the config file cfg, the profiles esc.h5
 * (region PLANT, extra column PLANT), a.h5 (without them) and a copy of
 * esc.h5 called PLANT.h5; SVT_P holds PLANT. */
static void esc_setup(void)
{
	char *dir = svt_tmp_path("esc");
	char *cfg = sv_xasprintf("%s/cfg", dir);
	char *esc = sv_xasprintf("%s/esc.h5", dir);
	char *a = sv_xasprintf("%s/a.h5", dir);
	char *named = sv_xasprintf("%s/%s.h5", dir, PLANT);
	FILE *f;
	size_t i;

	mkdir(dir, 0700);
	f = fopen(cfg, "w");
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < ESC_NCONFIG; i++)
		fprintf(f, "%s\n", esc_config_lines[i]);
	fclose(f);
	esc_profile(esc, PLANT, true);
	esc_profile(named, PLANT, true);
	esc_profile(a, "solve", false);
	setenv("SVT_D", dir, 1);
	setenv("SVT_P", PLANT, 1);
	free(named);
	free(a);
	free(esc);
	free(cfg);
	free(dir);
}

/* Every message source: a command line (SVT_D, SVT_P in it), its exit
 * status (-1: any), and what its output must say (NULL: PLANT_SHOWN). */
static const struct {
	const char *args;
	int status;
	const char *says;
} esc_cases[] = {
	/* config lines, before the viewer starts and in --dump-config */
	{"--config \"$SVT_D/cfg\" --dump-config", 0, NULL},
	{"--config \"$SVT_D/cfg\" \"$SVT_D/esc.h5\"", 2, NULL},
	{"snapshot --config \"$SVT_D/cfg\" \"$SVT_D/esc.h5\"", 0, NULL},
	/* paths */
	{"--config \"$SVT_D/$SVT_P.cfg\" --dump-config", 1, NULL},
	{"summary \"$SVT_D/no$SVT_P.h5\"", 1, NULL},
	{"\"$SVT_D/no$SVT_P.h5\"", 1, NULL},
	{"summary \"$SVT_D/$SVT_P.h5\"", 0, NULL},
	{"gen --events 1000 \"$SVT_D/gen$SVT_P.h5\"", 0, NULL},
	/* region names and HDF5 object names in load messages */
	{"summary \"$SVT_D/esc.h5\"", 0,
		"/events/" PLANT_SHOWN ": holds 2 values"},
	{"tree \"$SVT_D/esc.h5\"", 0, NULL},
	{"calls --region \"$SVT_P\" \"$SVT_D/a.h5\"", -1, NULL},
	{"diff --fail-on-new \"$SVT_D/a.h5\" \"$SVT_D/esc.h5\"", 3,
		"new region: " PLANT_SHOWN},
	/* option values */
	{"summary --sort \"$SVT_P\" \"$SVT_D/esc.h5\"", 2, NULL},
	{"summary --ranks \"$SVT_P\" \"$SVT_D/esc.h5\"", 2, NULL},
	{"snapshot --keys \"$SVT_P\" \"$SVT_D/esc.h5\"", 2, NULL},
	{"\"--$SVT_P\"", 2, NULL},
};

/* No code point of out is a control character on a terminal, but the
 * newlines that end its lines. */
static void esc_clean(const char *args, const char *out)
{
	size_t n = strlen(out), i = 0;

	while (i < n) {
		uint32_t cp;
		size_t k = sv_utf8_decode(out + i, n - i, &cp);
		ck_assert_msg(cp == '\n' || !sv_utf8_is_control(cp),
			"'scopeview %s' wrote U+%04X raw at byte %zu: %s", args,
			(unsigned)cp, i, out);
		i += k;
	}
}

START_TEST(test_messages_escaped)
{
	static char out[1 << 17];
	const char *says =
		esc_cases[_i].says ? esc_cases[_i].says : PLANT_SHOWN;
	int st;

	esc_setup();
	st = run_exe(esc_cases[_i].args, out, sizeof out);
	if (esc_cases[_i].status >= 0)
		ck_assert_msg(st == esc_cases[_i].status,
			"'scopeview %s' exited %d: %s", esc_cases[_i].args, st,
			out);
	esc_clean(esc_cases[_i].args, out);
	ck_assert_msg(strstr(out, says), "'scopeview %s' does not say '%s': %s",
		esc_cases[_i].args, says, out);
}
END_TEST

/* Each config line gives one error, and all of them in each command that
 * reads the file. */
START_TEST(test_config_errors_escaped)
{
	static char out[1 << 17];
	size_t i;

	esc_setup();
	ck_assert_int_eq(run_exe("--config \"$SVT_D/cfg\" --dump-config", out,
				 sizeof out),
		0);
	esc_clean("--dump-config", out);
	for (i = 0; i < ESC_NCONFIG; i++) {
		char want[64];
		snprintf(want, sizeof want, "/cfg:%zu: ", i + 1);
		ck_assert_msg(strstr(out, want), "no error for line %zu: %s",
			i + 1, out);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cli");
	TCase *t = tcase_create("top level");
	TCase *e = tcase_create("escapes");
	tcase_add_test(t, test_version);
	tcase_add_test(t, test_help_lists_commands);
	tcase_add_test(t, test_usage_error_helper);
	tcase_add_test(t, test_option_tables);
	tcase_add_test(t, test_completion_option);
	tcase_add_loop_test(t, test_usage_errors, 0,
		sizeof usage_cases / sizeof usage_cases[0]);
	suite_add_tcase(s, t);
	tcase_add_loop_test(e, test_messages_escaped, 0,
		sizeof esc_cases / sizeof esc_cases[0]);
	tcase_add_test(e, test_config_errors_escaped);
	suite_add_tcase(s, e);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
