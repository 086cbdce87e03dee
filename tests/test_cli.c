/*
 * test_cli.c: the program's top level: --version, --help, usage errors and
 * their exit status (2), run as a real process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "sv_version.h"
#include "helpers.h"
#include "scopeview/cli.h"

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

static Suite *suite(void)
{
	Suite *s = suite_create("cli");
	TCase *t = tcase_create("top level");
	tcase_add_test(t, test_version);
	tcase_add_test(t, test_help_lists_commands);
	tcase_add_test(t, test_usage_error_helper);
	tcase_add_test(t, test_option_tables);
	tcase_add_test(t, test_completion_option);
	tcase_add_loop_test(t, test_usage_errors, 0,
		sizeof usage_cases / sizeof usage_cases[0]);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
