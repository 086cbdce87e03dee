/*
 * cli_parse.c: the one command-line parser (cli.h).  It walks a
 * command's table: each word that starts with '-' is looked up among the
 * option rows' names and aliases, its value taken as the row says, and
 * stored in the row's target or handed to the row's handler; the other
 * words fill the operand rows in order.  Then it checks that every
 * required row was given.  The synopsis of a usage line is made from the
 * same rows, so the usage a mistake prints is the table's.
 *
 * Nothing here knows a command: a new command is a table and a run
 * function (cmd_*.c), and this file parses it.
 */
#include "scopeview/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool sv_cli_is_operand(const struct sv_cli_option *o)
{
	return o->name[0] != '-';
}

/* ---- the synopsis ----------------------------------------------------- */

/* The words of a row's values, or 0 for a file name or free text. */
static size_t parse_nvalues(const struct sv_cli_option *o)
{
	const char *v = o->values;
	size_t n = 0;

	if (!v || !strcmp(v, "@file"))
		return 0;
	while (*v) {
		v += strspn(v, " ");
		if (*v)
			n++;
		v += strcspn(v, " ");
	}
	return n;
}

/* The values joined by '|' ("table|csv|json"). */
static void parse_join_values(FILE *f, const struct sv_cli_option *o)
{
	const char *v = o->values;
	bool first = true;

	while (*v) {
		size_t len;
		v += strspn(v, " ");
		len = strcspn(v, " ");
		if (len) {
			fprintf(f, "%s%.*s", first ? "" : "|", (int)len, v);
			first = false;
		}
		v += len;
	}
}

/* One option as the synopsis shows it: "--format table|csv|json",
 * "--list-keys[=text|markdown|scdoc]", "--ranks LIST". */
static void parse_syn_option(FILE *f, const struct sv_cli_option *o)
{
	size_t nv = parse_nvalues(o);
	bool few = nv > 0 && nv <= 3;

	fputs(o->name, f);
	if (!o->arg)
		return;
	if (few && (o->arg[0] == '[' || o->arg[0] == '=')) {
		fputs(o->arg[0] == '[' ? "[=" : "=", f);
		parse_join_values(f, o);
		fputs(o->arg[0] == '[' ? "]" : "", f);
	} else if (o->arg[0] == '[' || o->arg[0] == '=') {
		fputs(o->arg, f);
	} else if (few) {
		fputc(' ', f);
		parse_join_values(f, o);
	} else {
		fprintf(f, " %s", o->arg);
	}
}

static unsigned parse_group(const struct sv_cli_option *o)
{
	return (o->flags >> 8) & 0xffu;
}

/* Whether row o is in the synopsis: not --help, not hidden. */
static bool parse_in_synopsis(const struct sv_cli_option *o)
{
	return o->type != SV_CLI_HELP && !(o->flags & SV_CLI_HIDDEN);
}

static void parse_write_synopsis(FILE *f, const struct sv_cli_command *cmd)
{
	const char *sep = "";
	size_t i, open = 0;

	for (i = 0; i < cmd->nopts; i++) {
		const struct sv_cli_option *o = &cmd->opts[i];
		bool req = o->flags & SV_CLI_REQUIRED;
		unsigned g = parse_group(o);
		if (sv_cli_is_operand(o) || !parse_in_synopsis(o))
			continue;
		fprintf(f, "%s%s", sep, req ? "" : "[");
		parse_syn_option(f, o);
		/* the other rows of its group, as alternatives */
		while (g && i + 1 < cmd->nopts &&
			parse_group(&cmd->opts[i + 1]) == g) {
			fputs(" | ", f);
			parse_syn_option(f, &cmd->opts[++i]);
		}
		fprintf(f, "%s%s", req ? "" : "]",
			o->flags & SV_CLI_REPEAT ? "..." : "");
		sep = " ";
	}
	for (i = 0; i < cmd->nopts; i++) {
		const struct sv_cli_option *o = &cmd->opts[i];
		bool req = o->flags & SV_CLI_REQUIRED;
		if (!sv_cli_is_operand(o))
			continue;
		fprintf(f, "%s%s%s%s", sep, req ? "" : "[", o->name,
			o->flags & SV_CLI_REPEAT ? "..." : "");
		open += !req;
		sep = " ";
	}
	while (open--)
		fputc(']', f);
}

char *sv_cli_synopsis(const struct sv_cli_command *cmd)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		sv_die("out of memory");
	parse_write_synopsis(f, cmd);
	if (fclose(f))
		sv_die("out of memory");
	return text;
}

void sv_cli_write_usage(FILE *out, const struct sv_cli_command *cmd)
{
	char *syn = sv_cli_synopsis(cmd);

	fprintf(out, "usage: scopeview%s%s%s%s\n", cmd->name[0] ? " " : "",
		cmd->name, syn[0] ? " " : "", syn);
	free(syn);
}

void sv_cli_write_help(FILE *out, const struct sv_cli_command *cmd)
{
	sv_cli_write_usage(out, cmd);
	fputc('\n', out);
	if (cmd->about)
		fprintf(out, "%s\n\nOptions:\n", cmd->about);
	sv_cli_write_options(out, cmd);
	if (cmd->more)
		cmd->more(out);
}

int sv_cli_fail(const struct sv_cli_command *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "scopeview: %s%s", cmd->name, cmd->name[0] ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	sv_cli_write_usage(stderr, cmd);
	return SV_EXIT_USAGE;
}

/* ---- the parse -------------------------------------------------------- */

/* The row named name[0..n) (its name or alias), or NULL. */
static const struct sv_cli_option *parse_find(
	const struct sv_cli_command *cmd, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < cmd->nopts; i++) {
		const struct sv_cli_option *o = &cmd->opts[i];
		if (sv_cli_is_operand(o))
			continue;
		if ((strlen(o->name) == n && !strncmp(o->name, name, n)) ||
			(o->alias && strlen(o->alias) == n &&
				!strncmp(o->alias, name, n)))
			return o;
	}
	return NULL;
}

/* "a, b or c": the values of a choice, for its error. */
static void parse_write_choices(FILE *f, const struct sv_cli_option *o)
{
	size_t n = parse_nvalues(o), k = 0;
	const char *v = o->values;

	while (*v) {
		size_t len;
		v += strspn(v, " ");
		len = strcspn(v, " ");
		if (len) {
			k++;
			fprintf(f, "%s%.*s",
				k == 1   ? ""
				: k == n ? " or "
					 : ", ",
				(int)len, v);
		}
		v += len;
	}
}

/* The index of value among o's values, or -1. */
static int parse_choice(const struct sv_cli_option *o, const char *value)
{
	const char *v = o->values;
	size_t len = strlen(value);
	int k = 0;

	while (v && *v) {
		size_t n;
		v += strspn(v, " ");
		n = strcspn(v, " ");
		if (n && n == len && !strncmp(v, value, n))
			return k;
		k += n > 0;
		v += n;
	}
	return -1;
}

/* Store value (NULL: none given) as row o says. */
static int parse_take(const struct sv_cli_command *cmd,
	const struct sv_cli_option *o, const char *value, void *a)
{
	struct sv_cli_ctx cx = {cmd, o};
	void *target = (char *)a + o->at;
	int k;

	switch (o->type) {
	case SV_CLI_HELP:
		sv_cli_write_help(stdout, cmd);
		return SV_EXIT_OK;
	case SV_CLI_FLAG:
		*(bool *)target = true;
		return SV_CLI_GO;
	case SV_CLI_STRING:
		*(const char **)target = value ? value : "";
		return SV_CLI_GO;
	case SV_CLI_CHOICE:
		if (!value) {
			*(int *)target = 0;
			return SV_CLI_GO;
		}
		k = parse_choice(o, value);
		if (k < 0) {
			char *list = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&list, &len);
			int rc;
			if (!f)
				sv_die("out of memory");
			parse_write_choices(f, o);
			if (fclose(f))
				sv_die("out of memory");
			rc = sv_cli_fail(cmd, "unknown %s '%s' (%s)",
				o->name + strspn(o->name, "-"), value, list);
			free(list);
			return rc;
		}
		*(int *)target = k;
		return SV_CLI_GO;
	case SV_CLI_CALL:
		k = o->set(target, value, &cx);
		return k ? k : SV_CLI_GO;
	}
	return SV_CLI_GO;
}

/* "one", "two", ... for a count of operands. */
static const char *parse_count_word(size_t n)
{
	static const char *const words[] = {
		"no", "one", "two", "three", "four", "five"};
	return n < sizeof words / sizeof words[0] ? words[n] : "so many";
}

/* The operand row the n-th operand (from 0) fills: the n-th operand
 * row, or a repeated last one; NULL when there is none. */
static const struct sv_cli_option *parse_operand_row(
	const struct sv_cli_command *cmd, size_t n)
{
	const struct sv_cli_option *last = NULL;
	size_t i, k = 0;

	for (i = 0; i < cmd->nopts; i++) {
		if (!sv_cli_is_operand(&cmd->opts[i]))
			continue;
		last = &cmd->opts[i];
		if (k++ == n)
			return last;
	}
	return last && last->flags & SV_CLI_REPEAT ? last : NULL;
}

/* One operand too many, word ("more than one FILE ('a.h5', 'b.h5')"). */
static int parse_too_many(
	const struct sv_cli_command *cmd, const char *first, const char *word)
{
	const char *names[8];
	size_t i, n = 0;

	for (i = 0; i < cmd->nopts && n < 8; i++)
		if (sv_cli_is_operand(&cmd->opts[i]))
			names[n++] = cmd->opts[i].name;
	if (n == 0)
		return sv_cli_fail(cmd, "unexpected operand '%s'", word);
	if (n == 1)
		return sv_cli_fail(cmd, "more than one %s ('%s', '%s')",
			names[0], first, word);
	return sv_cli_fail(cmd, "more than %s operands (%s%s%s%s): '%s'",
		parse_count_word(n), names[0], " ", names[1],
		n > 2 ? " ..." : "", word);
}

/* After the words: every required row given. */
static int parse_check(const struct sv_cli_command *cmd, const bool *given)
{
	size_t i;

	for (i = 0; i < cmd->nopts; i++) {
		const struct sv_cli_option *o = &cmd->opts[i];
		if (sv_cli_is_operand(o) && o->flags & SV_CLI_REQUIRED &&
			!given[i])
			return sv_cli_fail(cmd, "no %s given", o->name);
	}
	for (i = 0; i < cmd->nopts; i++) {
		const struct sv_cli_option *o = &cmd->opts[i];
		if (!sv_cli_is_operand(o) && o->flags & SV_CLI_REQUIRED &&
			!given[i])
			return sv_cli_fail(cmd, "%s%s%s is required", o->name,
				o->arg ? " " : "", o->arg ? o->arg : "");
	}
	return SV_CLI_GO;
}

/* One option word, argv[*i]: its row and value (from argv[*i + 1] when
 * the row takes one and the word has none attached). */
static int parse_option(const struct sv_cli_command *cmd, int argc, char **argv,
	int *i, bool *given, void *a)
{
	const char *word = argv[*i], *eq = strchr(word, '='), *value = NULL;
	size_t n = eq ? (size_t)(eq - word) : strlen(word);
	const struct sv_cli_option *o = parse_find(cmd, word, n);

	if (!o)
		return sv_cli_fail(cmd, "unknown option '%s'", word);
	given[o - cmd->opts] = true;
	if (eq && !o->arg)
		return sv_cli_fail(cmd, "%s takes no value", o->name);
	if (eq)
		value = eq + 1;
	else if (o->arg && o->arg[0] == '=')
		return sv_cli_fail(cmd, "%s needs a value", word);
	else if (o->arg && o->arg[0] != '[') {
		if (*i + 1 >= argc)
			return sv_cli_fail(cmd, "%s needs a value", word);
		value = argv[++*i];
	}
	return parse_take(cmd, o, value, a);
}

int sv_cli_parse(
	const struct sv_cli_command *cmd, int argc, char **argv, void *a)
{
	bool *given = sv_xcalloc(cmd->nopts + 1, sizeof *given);
	bool options = true;
	const char *first = NULL;
	size_t noperands = 0;
	int i, rc = SV_CLI_GO;

	for (i = 1; i < argc && rc == SV_CLI_GO; i++) {
		const char *w = argv[i];
		const struct sv_cli_option *o;
		if (options && !strcmp(w, "--")) {
			options = false;
			continue;
		}
		if (options && w[0] == '-' && w[1]) {
			rc = parse_option(cmd, argc, argv, &i, given, a);
			continue;
		}
		o = parse_operand_row(cmd, noperands++);
		if (!o) {
			rc = parse_too_many(cmd, first, w);
			continue;
		}
		if (!first)
			first = w;
		given[o - cmd->opts] = true;
		rc = parse_take(cmd, o, w, a);
	}
	if (rc == SV_CLI_GO)
		rc = parse_check(cmd, given);
	free(given);
	return rc;
}

int sv_cli_run(const struct sv_cli_command *cmd, int argc, char **argv)
{
	void *a = sv_xcalloc(1, cmd->size ? cmd->size : 1);
	int rc;

	if (cmd->init)
		cmd->init(a);
	rc = sv_cli_parse(cmd, argc, argv, a);
	if (rc == SV_CLI_GO)
		rc = cmd->run(a);
	if (cmd->fini)
		cmd->fini(a);
	free(a);
	return rc;
}
