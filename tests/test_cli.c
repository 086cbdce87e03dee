/*
 * test_cli.c: the command line.  The program's top level run as a real
 * process (--version, --help, usage errors and their exit status 2); the
 * one parser on a table of every kind of row; every command's own
 * table: each row parses (by name, alias, each way of giving its value)
 * and nothing else does, and --help, the usage line, the man page and the
 * bash, zsh and fish completions name exactly the table's rows; and the
 * escaping of every message that quotes text from a file or the command
 * line (issue 43), run as a real process.  And summary's table made a
 * share of the ranks at a time (cli_stream.c): the summary of one load,
 * byte for byte.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "scopeview/gen.h"
#include "scopeview/load.h"
#include "scopeview/ranks.h"
#include "scopeview/regex.h"
#include "scopeview/report.h"
#include "scopeview/summary.h"
#include "scopeview/tree.h"

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
	/* three or more files: a runs workspace, each missing run named */
	{"snapshot -- a.h5 b.h5 c.h5", 1, "c.h5: no such file"},
	{"summary a.h5 b.h5", 2, "more than one FILE ('a.h5', 'b.h5')"},
	{"gen --ran 2 out.h5", 2, "unknown option '--ran'"},
	{"export --format chrome", 2, "no FILE given"},
	{"calls x.h5", 2, "--region NAME is required"},
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

/* ---- the parser, on a table of every kind of row --------------------- */

struct t_args {
	bool flag;
	const char *str, *opt_val, *attached, *file, *file2, *req;
	int choice, listed;
	int calls;     /* how often the handler ran */
	char seen[64]; /* the values it saw, joined by '+' */
	bool inited;
};

#define T_AT(f, type) SV_CLI_AT(struct t_args, f, type)

static int t_set(void *target, const char *v, const struct sv_cli_ctx *cx)
{
	struct t_args *a = target;
	size_t n = strlen(a->seen);

	if (v && !strcmp(v, "bad"))
		return sv_cli_fail(
			cx->cmd, "%s: bad is refused", cx->opt->name);
	a->calls++;
	snprintf(a->seen + n, sizeof a->seen - n, "%s%s",
		a->calls > 1 ? "+" : "", v ? v : "(none)");
	return 0;
}

static void t_init(void *v)
{
	struct t_args *a = v;
	a->choice = -1;
	a->listed = -1;
	a->inited = true;
}

static int t_run(void *v)
{
	struct t_args *a = v;
	return a->flag ? 5 : 0;
}

static const struct sv_cli_option t_opts[] = {
	{"--flag", "-f", NULL, NULL, "a flag", SV_CLI_FLAG, T_AT(flag, bool),
		NULL, 0},
	{"--str", "-s", "TEXT", NULL, "a string", SV_CLI_STRING,
		T_AT(str, const char *), NULL, 0},
	{"--choice", NULL, "C", "red green blue", "a choice", SV_CLI_CHOICE,
		T_AT(choice, int), NULL, 0},
	{"--list", NULL, "[=FMT]", "text json", "an optional value",
		SV_CLI_CHOICE, T_AT(listed, int), NULL, 0},
	{"--opt", NULL, "[=V]", NULL, "an optional string", SV_CLI_STRING,
		T_AT(opt_val, const char *), NULL, 0},
	{"--attached", NULL, "=V", NULL, "only attached", SV_CLI_STRING,
		T_AT(attached, const char *), NULL, SV_CLI_HIDDEN},
	{"--add", NULL, "X", NULL, "repeatable", SV_CLI_CALL, 0, t_set,
		SV_CLI_REPEAT},
	{"--toggle", NULL, NULL, NULL, "a handler without a value", SV_CLI_CALL,
		0, t_set, SV_CLI_GROUP(1)},
	{"--other", NULL, NULL, NULL, "its alternative", SV_CLI_FLAG,
		T_AT(flag, bool), NULL, SV_CLI_GROUP(1)},
	{"--req", NULL, "R", NULL, "required", SV_CLI_STRING,
		T_AT(req, const char *), NULL, SV_CLI_REQUIRED},
	{"--help", "-h", NULL, NULL, "help", SV_CLI_HELP, 0, NULL, 0},
	{"FILE", NULL, NULL, NULL, NULL, SV_CLI_STRING,
		T_AT(file, const char *), NULL, SV_CLI_REQUIRED},
	{"FILE2", NULL, NULL, NULL, "a second file", SV_CLI_STRING,
		T_AT(file2, const char *), NULL, 0},
};

static const struct sv_cli_command t_cmd = {
	.name = "t",
	.what = "a test command",
	.about = "About it.",
	.opts = t_opts,
	.nopts = sizeof t_opts / sizeof t_opts[0],
	.size = sizeof(struct t_args),
	.init = t_init,
	.run = t_run,
};

/* A parse of argv by cmd into a. */
struct t_parse {
	const struct sv_cli_command *cmd;
	char *argv[40];
	int argc;
	void *a;
};

static int t_do_parse(void *v)
{
	struct t_parse *tp = v;
	return sv_cli_parse(tp->cmd, tp->argc, tp->argv, tp->a);
}

/* Parse words (space-separated; "~" is an empty word) into *a (zeroed,
 * cmd->init run) with stdio captured.  The words stay in t_words (what a
 * points to) until the next call. */
static char *t_words;

static int t_parse_words(const struct sv_cli_command *cmd, const char *words,
	void *a, char **out, char **err)
{
	struct t_parse tp = {cmd, {NULL}, 0, a};
	char *copy = sv_xstrdup(words), *save = NULL, *w;
	int rc;

	tp.argv[tp.argc++] = (char *)"cmd";
	for (w = strtok_r(copy, " ", &save); w && tp.argc < 39;
		w = strtok_r(NULL, " ", &save))
		tp.argv[tp.argc++] = strcmp(w, "~") ? w : (char *)"";
	tp.argv[tp.argc] = NULL;
	memset(a, 0, cmd->size);
	if (cmd->init)
		cmd->init(a);
	rc = svt_captured(t_do_parse, &tp, out, err);
	free(t_words);
	t_words = copy;
	return rc;
}

static const struct {
	const char *words;
	int status;         /* SV_CLI_GO, or the exit status */
	const char *says;   /* part of stderr (stdout for --help) */
	const char *fields; /* flag str choice listed opt attached seen file
			       file2 ("-" unset, "~" empty), or NULL */
} parse_cases[] = {
	/* given the words, when parsed, then the targets hold the values */
	{"--req r a.h5", SV_CLI_GO, "", "0 - -1 -1 - - . a.h5 -"},
	{"--flag --str x --req r a.h5", SV_CLI_GO, "",
		"1 x -1 -1 - - . a.h5 -"},
	{"-f -s=y --req=r a.h5 b.h5", SV_CLI_GO, "",
		"1 y -1 -1 - - . a.h5 b.h5"},
	{"--str=a=b --req r a", SV_CLI_GO, "", "0 a=b -1 -1 - - . a -"},
	{"--str x --str y --req r a", SV_CLI_GO, "", "0 y -1 -1 - - . a -"},
	{"--str ~ --req r a", SV_CLI_GO, "", "0 ~ -1 -1 - - . a -"},
	{"--str -- --req r a", SV_CLI_GO, "", "0 -- -1 -1 - - . a -"},
	{"--choice green --req r a", SV_CLI_GO, "", "0 - 1 -1 - - . a -"},
	{"--choice=blue --req r a", SV_CLI_GO, "", "0 - 2 -1 - - . a -"},
	{"--list --req r a", SV_CLI_GO, "", "0 - -1 0 - - . a -"},
	{"--list=json --req r a", SV_CLI_GO, "", "0 - -1 1 - - . a -"},
	{"--list json --req r", SV_CLI_GO, "", "0 - -1 0 - - . json -"},
	{"--opt --req r a", SV_CLI_GO, "", "0 - -1 -1 ~ - . a -"},
	{"--opt=v --req r a", SV_CLI_GO, "", "0 - -1 -1 v - . a -"},
	{"--attached=v --req r a", SV_CLI_GO, "", "0 - -1 -1 - v . a -"},
	{"--add 1 --add=2 --toggle --req r a", SV_CLI_GO, "",
		"0 - -1 -1 - - 1+2+(none) a -"},
	{"--req r -- -a.h5 --flag", SV_CLI_GO, "",
		"0 - -1 -1 - - . -a.h5 --flag"},
	{"--req r - -", SV_CLI_GO, "", "0 - -1 -1 - - . - -"},
	{"a --req r b", SV_CLI_GO, "", "0 - -1 -1 - - . a b"},
	/* the mistakes: one line each, then the usage */
	{"--bogus --req r a", 2, "scopeview: t: unknown option '--bogus'\n",
		NULL},
	{"--bogus=1 --req r a", 2, "unknown option '--bogus=1'", NULL},
	{"--fla --req r a", 2, "unknown option '--fla'", NULL},
	{"-x --req r a", 2, "unknown option '-x'", NULL},
	{"--req r a --str", 2, "t: --str needs a value", NULL},
	{"--req r a -s", 2, "t: -s needs a value", NULL},
	{"--flag=1 --req r a", 2, "t: --flag takes no value", NULL},
	{"--toggle=1 --req r a", 2, "t: --toggle takes no value", NULL},
	{"--attached v --req r a", 2, "t: --attached needs a value", NULL},
	{"--choice pink --req r a", 2,
		"t: unknown choice 'pink' (red, green or blue)", NULL},
	{"--list=xml --req r a", 2, "unknown list 'xml' (text or json)", NULL},
	{"--add bad --req r a", 2, "t: --add: bad is refused", NULL},
	{"--req r a b c", 2, "t: more than two operands (FILE FILE2): 'c'",
		NULL},
	{"--req r", 2, "t: no FILE given", NULL},
	{"a", 2, "t: --req R is required", NULL},
	{"--bogus", 2,
		"usage: scopeview t [--flag] [--str TEXT] "
		"[--choice red|green|blue] [--list[=text|json]] "
		"[--opt[=V]] [--add X]... [--toggle | --other] "
		"--req R FILE [FILE2]\n",
		NULL},
	/* --help at once, whatever follows */
	{"--help --bogus", 0, "usage: scopeview t ", NULL},
	{"-h", 0, "About it.\n\nOptions:\n", NULL},
};

static void t_fields(const struct t_args *a, char *buf, size_t n)
{
#define T_S(x) ((x) ? ((x)[0] ? (x) : "~") : "-")
	snprintf(buf, n, "%d %s %d %d %s %s %s %s %s", a->flag, T_S(a->str),
		a->choice, a->listed, T_S(a->opt_val), T_S(a->attached),
		a->seen[0] ? a->seen : ".", T_S(a->file), T_S(a->file2));
#undef T_S
}

START_TEST(test_parse)
{
	struct t_args a;
	char *out, *err, fields[256];
	int rc = t_parse_words(&t_cmd, parse_cases[_i].words, &a, &out, &err);
	const char *said = parse_cases[_i].status == 0 ? out : err;

	ck_assert_msg(rc == parse_cases[_i].status,
		"'%s' gave %d, wanted %d; said: %s%s", parse_cases[_i].words,
		rc, parse_cases[_i].status, out, err);
	ck_assert_msg(strstr(said, parse_cases[_i].says) != NULL,
		"'%s' said '%s', wanted '%s'", parse_cases[_i].words, said,
		parse_cases[_i].says);
	if (rc == 2) {
		/* one line, then the usage line, and nothing else */
		ck_assert_msg(!strncmp(err, "scopeview: t: ", 14), "%s", err);
		ck_assert_ptr_nonnull(strstr(err, "\nusage: scopeview t "));
		ck_assert_int_eq(strchr(strchr(err, '\n') + 1, '\n')[1], '\0');
	}
	if (rc != 0)
		ck_assert_str_eq(out, "");
	if (parse_cases[_i].fields) {
		t_fields(&a, fields, sizeof fields);
		ck_assert_str_eq(fields, parse_cases[_i].fields);
	}
	ck_assert(a.inited);
	free(out);
	free(err);
}
END_TEST

/* sv_cli_run: init, parse, run, fini; the run's status comes back, and
 * fini runs after a mistake too. */
static bool t_finied;
static void t_fini(void *v)
{
	(void)v;
	t_finied = true;
}

static int t_run_quiet(void *v)
{
	const struct sv_cli_command *c = v;
	char *argv[] = {(char *)"t", (char *)"--flag", (char *)"--req",
		(char *)"r", (char *)"x", NULL};
	return sv_cli_run(c, 4, argv);
}

START_TEST(test_run)
{
	struct sv_cli_command c = t_cmd;
	char *argv[] = {(char *)"t", (char *)"--flag", (char *)"--req",
		(char *)"r", (char *)"x", NULL};
	char *out, *err;

	c.fini = t_fini;
	t_finied = false;
	ck_assert_int_eq(sv_cli_run(&c, 5, argv), 5);
	ck_assert(t_finied);
	t_finied = false;
	ck_assert_int_eq(
		svt_captured(t_run_quiet, &c, &out, &err), SV_EXIT_USAGE);
	ck_assert(t_finied);
	ck_assert_str_eq(err, "scopeview: t: no FILE given\n"
			      "usage: scopeview t [--flag] [--str TEXT] "
			      "[--choice red|green|blue] [--list[=text|json]] "
			      "[--opt[=V]] [--add X]... [--toggle | --other] "
			      "--req R FILE [FILE2]\n");
	free(out);
	free(err);
}
END_TEST

/* Write one document of a small table into a string. */
static char *cli_doc(int kind)
{
	static const struct sv_cli_option opts[] = {
		{"--format", NULL, "FMT", "a b", "the format\nsecond line",
			SV_CLI_STRING, 0, NULL, 0},
		{"--list", NULL, "[=FMT]", "x y", "it's attached",
			SV_CLI_STRING, 0, NULL, 0},
		{"--help", "-h", NULL, NULL, "help_me *now*", SV_CLI_HELP, 0,
			NULL, 0},
		{"FILE", NULL, NULL, NULL, NULL, SV_CLI_STRING, 0, NULL, 0},
	};
	static const struct sv_cli_command view = {.name = "",
		.what = "the viewer",
		.opts = opts,
		.nopts = 4,
		.size = 1};
	static const struct sv_cli_command sub = {.name = "sub",
		.what = "a subcommand",
		.opts = opts,
		.nopts = 1,
		.size = 1};
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
	ck_assert_ptr_nonnull(strstr(s, "*scopeview sub* [--format a|b]\n"));
	ck_assert_ptr_nonnull(strstr(
		s, "*scopeview* [--format a|b] [--list[=x|y]] [FILE]\n"));
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

/* ---- every command: what parses is what is documented ----------------- */

/* A value that parses for an option row whose values do not give one,
 * for a command ("" for any).  A new option with neither needs a row
 * here, or test_every_row_parses says so. */
static const struct {
	const char *cmd, *opt, *value;
} samples[] = {
	{"", "--ranks", "0,2-5"},
	{"gen", "--ranks", "2"},
	{"", "--include", "a"},
	{"", "--exclude", "b"},
	{"", "--sort", "total"},
	{"", "--group-by", "phase"},
	{"", "--region", "solve"},
	{"", "--limit", "3"},
	{"", "--histogram", "4"},
	{"", "--range", "1ms:2ms"},
	{"", "--threshold", "5"},
	{"", "--fail-above", "5%"},
	{"", "--memory", "4G"},
	{"", "--size", "80x24"},
	{"", "--keys", "j Enter"},
	{"", "--label", "a run"},
	{"", "--slow-region", "solve:2"},
	{"", "--strong-scaling", "1"},
	{"", "--slowdown", "1:300:1.4"},
	{"", "--x", "total_cores"},
	{"", "--threads", "2"},
	{"", "--tasks", "1"},
	{"", "--events", "1k"},
	{"", "--depth", "3"},
	{"", "--imbalance", "0.5"},
	{"", "--seed", "7"},
	{"gen", "--chunk", "4096"},
};

static const char *sample_value(
	const struct sv_cli_command *c, const struct sv_cli_option *o)
{
	static char first[64];
	size_t i;

	for (i = 0; i < sizeof samples / sizeof samples[0]; i++)
		if (!strcmp(samples[i].cmd, c->name) &&
			!strcmp(samples[i].opt, o->name))
			return samples[i].value;
	if (o->values && !strcmp(o->values, "@file"))
		return "some/file";
	if (o->values) {
		snprintf(first, sizeof first, "%.*s",
			(int)strcspn(o->values, " "), o->values);
		return first;
	}
	for (i = 0; i < sizeof samples / sizeof samples[0]; i++)
		if (!samples[i].cmd[0] && !strcmp(samples[i].opt, o->name))
			return samples[i].value;
	ck_abort_msg("no sample value for 'scopeview %s %s': add one to "
		     "samples[] in tests/test_cli.c",
		c->name, o->name);
	return NULL;
}

/* Parse words (argv[1..]) by command c, then free what the parse left;
 * returns the parse's result, stdout and stderr in *out and *err. */
static int every_parse(const struct sv_cli_command *c, char **words, int n,
	char **out, char **err)
{
	struct t_parse tp;
	void *a = sv_xcalloc(1, c->size);
	int rc, k;

	memset(&tp, 0, sizeof tp);
	tp.cmd = c;
	tp.a = a;
	tp.argv[tp.argc++] = (char *)(c->name[0] ? c->name : "scopeview");
	for (k = 0; k < n && tp.argc < 39; k++)
		tp.argv[tp.argc++] = words[k];
	if (c->init)
		c->init(a);
	rc = svt_captured(t_do_parse, &tp, out, err);
	if (c->fini)
		c->fini(a);
	free(a);
	return rc;
}

/* Append to words[0..n) what satisfies c's required rows other than
 * skip: each required option with a sample value, then an operand for
 * each required operand row.  Returns the new count. */
static int every_required(const struct sv_cli_command *c,
	const struct sv_cli_option *skip, char **words, int n)
{
	size_t i;

	for (i = 0; i < c->nopts; i++) {
		const struct sv_cli_option *o = &c->opts[i];
		if (o == skip || !(o->flags & SV_CLI_REQUIRED) ||
			sv_cli_is_operand(o))
			continue;
		words[n++] = (char *)o->name;
		words[n++] = (char *)sample_value(c, o);
	}
	for (i = 0; i < c->nopts; i++)
		if (sv_cli_is_operand(&c->opts[i]) &&
			c->opts[i].flags & SV_CLI_REQUIRED)
			words[n++] = (char *)"x.h5";
	return n;
}

/* Parse option row o spelled as name (its name or alias), its value
 * given as the row takes it ("--name=VALUE" when attached is set or the
 * row wants it so). */
static void every_one(const struct sv_cli_command *c,
	const struct sv_cli_option *o, const char *name, bool attached)
{
	char *words[40], *out, *err, *word = NULL;
	int n = 0, rc;

	if (o->arg && (attached || o->arg[0] == '=')) {
		word = sv_xasprintf("%s=%s", name, sample_value(c, o));
		words[n++] = word;
	} else {
		words[n++] = (char *)name;
		if (o->arg && o->arg[0] != '[')
			words[n++] = (char *)sample_value(c, o);
	}
	n = every_required(c, o, words, n);
	rc = every_parse(c, words, n, &out, &err);
	if (o->type == SV_CLI_HELP) {
		ck_assert_msg(rc == SV_EXIT_OK, "scopeview %s %s: %d %s",
			c->name, name, rc, err);
		ck_assert_msg(strstr(out, "usage: scopeview") == out,
			"scopeview %s %s printed: %s", c->name, name, out);
	} else {
		ck_assert_msg(rc == SV_CLI_GO,
			"'scopeview %s %s%s%s' does not parse (%d): %s",
			c->name, words[0], n > 1 ? " " : "",
			n > 1 ? words[1] : "", rc, err);
		ck_assert_str_eq(err, "");
	}
	free(out);
	free(err);
	free(word);
}

/* Parse words[0..n) by c: a mistake (2) that says what. */
static void every_refused(
	const struct sv_cli_command *c, char **words, int n, const char *says)
{
	char *out, *err;

	ck_assert_msg(every_parse(c, words, n, &out, &err) == 2,
		"'scopeview %s %s' parsed", c->name, words[0]);
	ck_assert_msg(strstr(err, says) != NULL, "'scopeview %s %s' said %s",
		c->name, words[0], err);
	ck_assert_ptr_nonnull(strstr(err, "\nusage: scopeview"));
	free(out);
	free(err);
}

static bool row_named(
	const struct sv_cli_command *c, const char *name, size_t n);

/* Every row of every command's table parses, by its name and its
 * alias, with its value in each way the row takes one; and no other
 * word does (not a name with more letters, nor an abbreviation). */
START_TEST(test_every_row_parses)
{
	const struct sv_cli_command *c = sv_cli_commands[_i];
	char *words[40], *out, *err;
	size_t i;
	int n;

	for (i = 0; i < c->nopts; i++) {
		const struct sv_cli_option *o = &c->opts[i];
		char *bad;
		if (sv_cli_is_operand(o))
			continue;
		every_one(c, o, o->name, false);
		if (o->arg && o->arg[0] != '=')
			every_one(c, o, o->name, true);
		if (o->alias)
			every_one(c, o, o->alias, false);
		bad = sv_xasprintf("%sx", o->name);
		words[0] = bad;
		n = every_required(c, NULL, words, 1);
		every_refused(c, words, n, "unknown option");
		bad[strlen(bad) - 2] = '\0';
		if (strlen(bad) > 2 && !row_named(c, bad, strlen(bad)))
			every_refused(c, words, n, "unknown option");
		free(bad);
		if (!o->arg && o->type != SV_CLI_HELP) {
			bad = sv_xasprintf("%s=1", o->name);
			words[0] = bad;
			every_refused(c, words, n, "takes no value");
			free(bad);
		}
	}
	words[0] = (char *)"--no-such-option";
	n = every_required(c, NULL, words, 1);
	every_refused(c, words, n, "unknown option '--no-such-option'");
	/* the required rows alone parse; one operand more than the
	 * operand rows take does not (unless a repeated operand row, as
	 * convert's INPUT..., takes all the rest) */
	n = every_required(c, NULL, words, 0);
	ck_assert_int_eq(every_parse(c, words, n, &out, &err), SV_CLI_GO);
	free(out);
	free(err);
	for (i = 0; i < c->nopts; i++)
		if (sv_cli_is_operand(&c->opts[i]) &&
			(c->opts[i].flags & SV_CLI_REPEAT))
			return;
	for (i = 0; i < c->nopts; i++)
		if (sv_cli_is_operand(&c->opts[i]) &&
			!(c->opts[i].flags & SV_CLI_REQUIRED))
			words[n++] = (char *)"y.h5";
	words[n++] = (char *)"z.h5";
	every_refused(c, words, n, "more than");
}
END_TEST

/* Whether text holds word whole: not inside a longer word (no letter,
 * digit or '-' around it). */
static bool has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = strstr(text, word); p; p = strstr(p + 1, word)) {
		char b = p == text ? ' ' : p[-1], a = p[n];
		bool inb = b == '-' || (b >= 'a' && b <= 'z');
		bool ina = a == '-' || (a >= 'a' && a <= 'z') ||
			   (a >= '0' && a <= '9');
		if (!inb && !ina)
			return true;
	}
	return false;
}

/* Whether some row of c is named (or aliased) name[0..n). */
static bool row_named(
	const struct sv_cli_command *c, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < c->nopts; i++) {
		const struct sv_cli_option *o = &c->opts[i];
		if ((strlen(o->name) == n && !strncmp(o->name, name, n)) ||
			(o->alias && strlen(o->alias) == n &&
				!strncmp(o->alias, name, n)))
			return true;
	}
	return false;
}

/* Every option-like word of text ("-x", "--name", up to '=', '[', ',' or
 * a blank, after a blank, '[', '|' or a quote) is a row of c. */
static void only_rows(
	const struct sv_cli_command *c, const char *text, const char *what)
{
	const char *p = text;

	while ((p = strchr(p, '-'))) {
		size_t n = strcspn(p, " =[],|'\n\t).;:");
		bool starts = p == text || strchr(" [|'\t(", p[-1]);
		bool word = p[1] == '-' || (p[1] >= 'a' && p[1] <= 'z') ||
			    (p[1] >= 'A' && p[1] <= 'Z');
		if (starts && word && n > 1)
			ck_assert_msg(row_named(c, p, n),
				"%s of 'scopeview %s' names '%.*s', which is "
				"no row of its table",
				what, c->name, (int)n, p);
		p += n ? n : 1;
	}
}

/* --help of c (kind < 0) or a document of every command. */
static char *doc_of(int kind, const struct sv_cli_command *c)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	ck_assert_ptr_nonnull(f);
	if (kind < 0)
		sv_cli_write_help(f, c);
	else
		ck_assert_int_eq(sv_cli_write_doc(f, (enum sv_cli_doc)kind,
					 sv_cli_commands, sv_cli_ncommands),
			0);
	fclose(f);
	return buf;
}

/* The words a bash script offers after c ("opts='...'"), malloc'd. */
static char *bash_opts(const char *script, const struct sv_cli_command *c)
{
	char *head =
		sv_xasprintf("\t%s)\n\t\topts='", c->name[0] ? c->name : "''");
	const char *p = strstr(script, head), *q;
	char *words;

	ck_assert_msg(p != NULL, "no bash words for '%s'", c->name);
	p += strlen(head);
	q = strchr(p, '\'');
	words = sv_xstrndup(p, (size_t)(q - p));
	free(head);
	return words;
}

/* --help, the usage line, the man page and the completions list exactly
 * the rows of each command's table. */
START_TEST(test_every_row_documented)
{
	const struct sv_cli_command *c = sv_cli_commands[_i];
	char *help = doc_of(-1, c), *syn = sv_cli_synopsis(c);
	char *man = doc_of(SV_CLI_DOC_SCDOC, c);
	char *bash = doc_of(SV_CLI_DOC_BASH, c), *words = bash_opts(bash, c);
	char *zsh = doc_of(SV_CLI_DOC_ZSH, c);
	char *fish = doc_of(SV_CLI_DOC_FISH, c);
	char *usage, *section, *man_usage;
	const char *sec;
	size_t i;

	usage = sv_xasprintf("usage: scopeview%s%s %s\n", c->name[0] ? " " : "",
		c->name, syn);
	ck_assert_msg(strstr(help, usage) == help, "%s", help);
	section = sv_xasprintf(
		"## scopeview%s%s\n", c->name[0] ? " " : "", c->name);
	sec = strstr(man, section);
	ck_assert_msg(sec != NULL, "no man section %s", section);
	man_usage = sv_xasprintf(
		"*scopeview%s%s* ", c->name[0] ? " " : "", c->name);
	ck_assert_msg(strstr(man, man_usage) != NULL, "no man synopsis %s",
		man_usage);
	for (i = 0; i < c->nopts; i++) {
		const struct sv_cli_option *o = &c->opts[i];
		char *want;
		if (sv_cli_is_operand(o)) {
			ck_assert_msg(has_word(syn, o->name),
				"'%s' not in '%s'", o->name, syn);
			continue;
		}
		if (o->type != SV_CLI_HELP && !(o->flags & SV_CLI_HIDDEN))
			ck_assert_msg(has_word(syn, o->name),
				"scopeview %s: %s is not in the synopsis '%s'",
				c->name, o->name, syn);
		want = sv_xasprintf("\n  %s%s%s", o->alias ? o->alias : "",
			o->alias ? ", " : "", o->name);
		ck_assert_msg(strstr(help, want) != NULL,
			"scopeview %s --help lacks %s", c->name, o->name);
		free(want);
		want = sv_xasprintf("*%s*", o->name);
		ck_assert_msg(strstr(sec, want) != NULL,
			"the man page lacks scopeview %s %s", c->name, o->name);
		free(want);
		want = o->arg && o->arg[0] == '=' ? sv_xasprintf("%s=", o->name)
						  : sv_xstrdup(o->name);
		ck_assert_msg(strstr(words, want) != NULL,
			"bash completion lacks scopeview %s %s", c->name,
			o->name);
		free(want);
		if (o->alias)
			ck_assert_msg(has_word(words, o->alias),
				"bash completion lacks %s", o->alias);
		want = sv_xasprintf("'%s", o->name);
		ck_assert_msg(strstr(zsh, want) != NULL,
			"zsh completion lacks scopeview %s %s", c->name,
			o->name);
		free(want);
		want = sv_xasprintf("-l %s ", o->name + 2);
		ck_assert_msg(strstr(fish, want) != NULL,
			"fish completion lacks scopeview %s %s", c->name,
			o->name);
		free(want);
	}
	/* and the other way round: each option they name is a row */
	only_rows(c, syn, "the synopsis");
	only_rows(c, strchr(help, '\n'), "--help");
	only_rows(c, words, "the bash completion");
	free(usage);
	free(section);
	free(man_usage);
	free(help);
	free(syn);
	free(man);
	free(bash);
	free(words);
	free(zsh);
	free(fish);
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

/* ---- summary a share at a time ------------------------------------------ */

/* The summary of t over p in format fmt, as text (malloc'd). */
static char *stream_text(const struct sv_profile *p,
	const struct sv_stats_table *t, enum sv_summary_format fmt)
{
	struct sv_summary_opts o;
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	ck_assert_ptr_nonnull(f);
	memset(&o, 0, sizeof o);
	o.format = fmt;
	o.per_rank = true;
	o.file = "run.h5";
	ck_assert_int_eq(sv_summary_write(f, p, t, &o), 0);
	fclose(f);
	return buf;
}

/* The rank x region matrix of t over p as JSON (malloc'd). */
static char *stream_ranks(
	const struct sv_profile *p, const struct sv_stats_table *t)
{
	struct sv_ranks m;
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	ck_assert_ptr_nonnull(f);
	sv_ranks_compute(&m, t, SV_RANKS_TOTAL);
	ck_assert_int_eq(
		sv_report_ranks(f, p, &m, "run.h5", SV_REPORT_JSON), 0);
	sv_ranks_fini(&m);
	fclose(f);
	return buf;
}

/* The call tree of path in shares (which must happen) and of one load,
 * recursion expanded or not, over a range or not: the same JSON. */
static void stream_tree_same(const char *path, int k)
{
	struct sv_load_opts lo;
	struct sv_callpath_scope sc;
	struct sv_callpath ts, tw;
	struct sv_profile *whole = NULL, *p = NULL;
	struct sv_tree_opts o;
	struct sv_error err = {0};
	int64_t range[2];
	char *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	FILE *fa, *fb;

	memset(&lo, 0, sizeof lo);
	memset(&sc, 0, sizeof sc);
	sc.expand_recursion = k & 1;
	ck_assert_msg(sv_load(path, &lo, &p, &err) == 0, "%s", err.msg);
	/* The second quarter of the run. */
	range[0] = (sv_profile_max_end(p) - sv_profile_time_origin(p)) / 4;
	range[1] = 2 * range[0];
	ck_assert_int_eq(sv_cli_stream_tree(path, &lo, &sc,
				 k & 2 ? range : NULL, &ts, &whole, &err),
		1);
	memset(&o, 0, sizeof o);
	o.format = SV_TREE_JSON;
	o.file = "run.h5";
	o.origin = sv_profile_time_origin(p);
	ck_assert_int_eq(o.origin, sv_profile_time_origin(whole));
	if (k & 2) {
		sc.has_range = true;
		sc.t0 = o.origin + range[0];
		sc.t1 = o.origin + range[1];
	}
	ck_assert_int_eq(sv_callpath_build(&tw, p, &sc, &err), 0);
	ck_assert_uint_gt(tw.nnodes, 3);
	fa = open_memstream(&a, &na);
	fb = open_memstream(&b, &nb);
	ck_assert_int_eq(sv_tree_write(fa, &ts, &o), 0);
	ck_assert_int_eq(sv_tree_write(fb, &tw, &o), 0);
	fclose(fa);
	fclose(fb);
	ck_assert_msg(
		!strcmp(a, b), "%s: tree %d differs:\n%s\n%s", path, k, a, b);
	free(a);
	free(b);
	sv_callpath_fini(&ts);
	sv_callpath_fini(&tw);
	sv_profile_free(whole);
	sv_profile_free(p);
}

/* The table of path in shares (which must happen: 1) and of one load:
 * the same summary in every format, and the same rank x region matrix.
 * Returns the number of regions. */
static size_t stream_same(const char *path, struct sv_regex *include)
{
	struct sv_load_opts lo;
	struct sv_stats_filter f;
	struct sv_stats_table ts, tw;
	struct sv_profile *whole = NULL, *p = NULL;
	struct sv_error err = {0};
	int fmt, rc;
	size_t n;

	memset(&lo, 0, sizeof lo);
	memset(&f, 0, sizeof f);
	if (include) {
		f.include = &include;
		f.ninclude = 1;
	}
	rc = sv_cli_stream_table(path, &lo, &f, &ts, &whole, &err);
	ck_assert_msg(
		rc == 1, "%s: not read in shares (%d: %s)", path, rc, err.msg);
	ck_assert_msg(sv_load(path, &lo, &p, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(sv_stats_table_compute(&tw, p, &f, &err), 0);
	ck_assert_uint_eq(ts.nregions, tw.nregions);
	for (fmt = SV_SUMMARY_TABLE; fmt <= SV_SUMMARY_JSON; fmt++) {
		char *a = stream_text(whole, &ts, (enum sv_summary_format)fmt);
		char *b = stream_text(p, &tw, (enum sv_summary_format)fmt);
		ck_assert_msg(!strcmp(a, b), "%s: format %d differs:\n%s\n%s",
			path, fmt, a, b);
		free(a);
		free(b);
	}
	{
		char *a = stream_ranks(whole, &ts), *b = stream_ranks(p, &tw);
		ck_assert_str_eq(a, b);
		free(a);
		free(b);
	}
	n = ts.nregions;
	sv_stats_table_fini(&ts);
	sv_stats_table_fini(&tw);
	sv_profile_free(whole);
	sv_profile_free(p);
	return n;
}

/* Generated runs (ranks in shares of one or several, threads and tasks,
 * a region filter) and the fixtures of several ranks with stored
 * records: read a share at a time, the summary, the rank x region
 * matrix and the call tree of one load. */
START_TEST(test_stream_same)
{
	static const struct {
		uint32_t ranks, threads, tasks;
		uint64_t events;
		const char *include;
	} cases[] = {
		{4, 1, 0, 40000, NULL},
		{40, 1, 0, 60000, NULL},
		{3, 2, 2, 30000, NULL},
		{5, 1, 0, 30000, "kernel"},
		/* regions of 2^16 calls and more (the stream's counts by
		 * bucket), rows of thousands (read again, not held) */
		{3, 1, 0, 300000, NULL},
	};
	char *path = svt_tmp_path("stream.h5");
	struct sv_gen_opts g;
	struct sv_error err = {0};
	struct sv_regex *re = NULL;
	size_t i;

	setenv("SCOPEVIEW_STREAM_MIN_CALLS", "0", 1);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sv_gen_opts_init(&g);
		g.ranks = cases[i].ranks;
		g.threads = cases[i].threads;
		g.tasks = cases[i].tasks;
		g.events = cases[i].events;
		g.seed = 3 + i;
		ck_assert_msg(sv_gen_write(path, &g, NULL, NULL, &err) == 0,
			"%s", err.msg);
		re = NULL;
		if (cases[i].include) {
			re = sv_regex_compile(cases[i].include, &err);
			ck_assert_ptr_nonnull(re);
		}
		ck_assert_uint_gt(stream_same(path, re), 0);
		sv_regex_free(re);
		stream_tree_same(path, (int)i);
	}
	{
		char *fx = svt_fixture("four_ranks.h5");
		ck_assert_uint_gt(stream_same(fx, NULL), 0);
		free(fx);
	}
	unsetenv("SCOPEVIEW_STREAM_MIN_CALLS");
	free(path);
}
END_TEST

/* export in shares (a rank at a time) and of one load: the same file,
 * in each format written call by call and as folded stacks, over the
 * whole run and a range. */
START_TEST(test_stream_export)
{
	static const char *const formats[] = {
		"chrome", "speedscope", "csv", "collapsed"};
	char *path = svt_tmp_path("stream_export.h5");
	char *a = svt_tmp_path("stream_export.a");
	char *b = svt_tmp_path("stream_export.b");
	struct sv_gen_opts g;
	struct sv_load_opts lo;
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	size_t f, na, nb;
	int k;

	sv_gen_opts_init(&g);
	g.ranks = 6;
	g.threads = 2;
	g.tasks = _i;
	g.events = 30000;
	g.seed = 11;
	ck_assert_msg(
		sv_gen_write(path, &g, NULL, NULL, &err) == 0, "%s", err.msg);
	memset(&lo, 0, sizeof lo);
	ck_assert_msg(sv_load(path, &lo, &p, &err) == 0, "%s", err.msg);
	setenv("SCOPEVIEW_STREAM_MIN_CALLS", "0", 1);
	for (f = 0; f < sizeof formats / sizeof formats[0]; f++)
		for (k = 0; k < 2; k++) {
			struct sv_cli_export x;
			char *ta, *tb;
			memset(&x, 0, sizeof x);
			x.format = formats[f];
			x.file = path;
			x.has_range = k;
			x.r0 = (sv_profile_max_end(p) -
				       sv_profile_time_origin(p)) /
			       3;
			x.r1 = 2 * x.r0;
			x.out = a;
			ck_assert_msg(sv_cli_stream_export(&x, &err) == 1,
				"%s: not in shares: %s", formats[f], err.msg);
			x.out = b;
			ck_assert_int_eq(sv_cli_export_here(&x, p, &err), 0);
			ta = svt_read_file(a, &na);
			tb = svt_read_file(b, &nb);
			ck_assert_msg(
				na > 100 && na == nb && !memcmp(ta, tb, na),
				"%s %d: %zu and %zu bytes differ", formats[f],
				k, na, nb);
			free(ta);
			free(tb);
		}
	unsetenv("SCOPEVIEW_STREAM_MIN_CALLS");
	sv_profile_free(p);
	free(path);
	free(a);
	free(b);
}
END_TEST

/* An index that claims more calls than the file holds (a row of 2^31):
 * the share fails as one load does, before it reads past the events,
 * what was reserved for the claim never became memory, and summary
 * fails with one line naming the index (exit status 1). */
START_TEST(test_stream_claims)
{
	char *path = svt_tmp_path("stream_claims.h5");
	struct sv_gen_opts g;
	struct sv_load_opts lo;
	struct sv_stats_table t;
	struct sv_profile *w = NULL;
	struct sv_error err = {0};
	hid_t f, d;
	int64_t *cnt;
	hsize_t n;
	char out[8192], *cmd;

	sv_gen_opts_init(&g);
	g.ranks = 4;
	g.events = 20000;
	ck_assert_msg(
		sv_gen_write(path, &g, NULL, NULL, &err) == 0, "%s", err.msg);
	f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	ck_assert_int_ge(f, 0);
	d = H5Dopen2(f, "/rank_region_index/event_counts", H5P_DEFAULT);
	ck_assert_int_ge(d, 0);
	{
		hid_t sp = H5Dget_space(d);
		H5Sget_simple_extent_dims(sp, &n, NULL);
		H5Sclose(sp);
	}
	cnt = sv_xcalloc(n, sizeof *cnt);
	ck_assert_int_ge(H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL,
				 H5P_DEFAULT, cnt),
		0);
	cnt[n - 1] = (int64_t)1 << 31;
	ck_assert_int_ge(H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL,
				 H5P_DEFAULT, cnt),
		0);
	H5Dclose(d);
	H5Fclose(f);
	free(cnt);

	setenv("SCOPEVIEW_STREAM_MIN_CALLS", "0", 1);
	memset(&lo, 0, sizeof lo);
	ck_assert_int_lt(sv_cli_stream_table(path, &lo, NULL, &t, &w, &err), 0);
	ck_assert_ptr_null(w);
	ck_assert_msg(strstr(err.msg, "event_counts"), "%s", err.msg);
	cmd = sv_xasprintf("summary '%s'", path);
	ck_assert_int_eq(run_exe(cmd, out, sizeof out), 1);
	ck_assert_msg(strstr(out, "rank_region_index"), "%s", out);
	ck_assert_msg(strchr(out, '\n') == strrchr(out, '\n'),
		"more than one line: %s", out);
	free(cmd);
	unsetenv("SCOPEVIEW_STREAM_MIN_CALLS");
	free(path);
}
END_TEST

/* Files loaded whole: one rank, no stored records (schema 1), an
 * aggregate file, fewer calls than the floor, a selection of ranks; an
 * export as a JSON profile or of some ranks. */
START_TEST(test_stream_declines)
{
	static const char *const whole[] = {"single_rank_nested.h5",
		"hdf5-schema-1.h5", "aggregate_layout.h5"};
	struct sv_load_opts lo;
	struct sv_stats_table t;
	struct sv_profile *w = (struct sv_profile *)&lo;
	struct sv_error err = {0};
	bool on[2] = {true, false};
	char *fx;
	size_t i;

	memset(&lo, 0, sizeof lo);
	setenv("SCOPEVIEW_STREAM_MIN_CALLS", "0", 1);
	for (i = 0; i < sizeof whole / sizeof whole[0]; i++) {
		fx = svt_fixture(whole[i]);
		ck_assert_msg(
			sv_cli_stream_table(fx, &lo, NULL, &t, &w, &err) == 0,
			"%s was read in shares", whole[i]);
		ck_assert_ptr_null(w);
		free(fx);
	}
	fx = svt_fixture("four_ranks.h5");
	lo.rank_on = on;
	lo.nrank_on = 2;
	ck_assert_int_eq(sv_cli_stream_table(fx, &lo, NULL, &t, &w, &err), 0);
	lo.rank_on = NULL;
	{
		/* export: a JSON profile (region by region), a rank list */
		struct sv_cli_export x;
		memset(&x, 0, sizeof x);
		x.file = fx;
		x.format = "json";
		ck_assert_int_eq(sv_cli_stream_export(&x, &err), 0);
		x.format = "chrome";
		x.rank_on = on;
		x.nrank_on = 2;
		ck_assert_int_eq(sv_cli_stream_export(&x, &err), 0);
	}
	unsetenv("SCOPEVIEW_STREAM_MIN_CALLS");
	ck_assert_int_eq(sv_cli_stream_table(fx, &lo, NULL, &t, &w, &err), 0);
	free(fx);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cli");
	TCase *t = tcase_create("top level");
	TCase *e = tcase_create("escapes");
	TCase *st = tcase_create("shares");
	tcase_add_test(t, test_version);
	tcase_add_test(t, test_help_lists_commands);
	tcase_add_loop_test(
		t, test_parse, 0, sizeof parse_cases / sizeof parse_cases[0]);
	tcase_add_test(t, test_run);
	tcase_add_loop_test(t, test_every_row_parses, 0, (int)sv_cli_ncommands);
	tcase_add_loop_test(
		t, test_every_row_documented, 0, (int)sv_cli_ncommands);
	tcase_add_test(t, test_option_tables);
	tcase_add_test(t, test_completion_option);
	tcase_add_loop_test(t, test_usage_errors, 0,
		sizeof usage_cases / sizeof usage_cases[0]);
	suite_add_tcase(s, t);
	tcase_add_loop_test(e, test_messages_escaped, 0,
		sizeof esc_cases / sizeof esc_cases[0]);
	tcase_add_test(e, test_config_errors_escaped);
	suite_add_tcase(s, e);
	tcase_add_test(st, test_stream_same);
	tcase_add_test(st, test_stream_declines);
	tcase_add_loop_test(st, test_stream_export, 0, 2);
	tcase_add_test(st, test_stream_claims);
	tcase_set_timeout(st, 120);
	suite_add_tcase(s, st);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
