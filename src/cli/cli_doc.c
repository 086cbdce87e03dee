/*
 * cli_doc.c: the command-line tables (cli.h) turned into text: the
 * options block of every --help, the man page's SYNOPSIS and COMMANDS
 * sections (scdoc) and the bash, zsh and fish completion scripts.  A new
 * subcommand or option is a new row, and all of these follow.
 */
#include "scopeview/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* An option whose value is written "--name=VALUE" only ("=SHELL"), or
 * may be left out ("[=FMT]"). */
static bool doc_attached(const struct sv_cli_option *o)
{
	return o->arg && (o->arg[0] == '=' || o->arg[0] == '[');
}

/* "--format FMT" (or "-h, --help", or an operand's "FILE") as the left
 * column of --help. */
static void doc_option_label(const struct sv_cli_option *o, char *buf, size_t n)
{
	if (sv_cli_is_operand(o)) {
		snprintf(buf, n, "%s", o->name);
		return;
	}
	snprintf(buf, n, "%s%s%s%s%s", o->alias ? o->alias : "",
		o->alias ? ", " : "", o->name,
		o->arg && !doc_attached(o) ? " " : "", o->arg ? o->arg : "");
}

void sv_cli_write_options(FILE *out, const struct sv_cli_command *cmd)
{
	size_t i;

	for (i = 0; i < cmd->nopts; i++) {
		const struct sv_cli_option *o = &cmd->opts[i];
		const char *h = o->help;
		char label[96];
		bool first = true;

		if (!h)
			continue; /* an operand the usage line names */
		doc_option_label(o, label, sizeof label);
		fprintf(out, "  %-18s", label);
		if (strlen(label) > 18)
			fprintf(out, "\n%20s", "");
		while (*h || first) {
			size_t len = strcspn(h, "\n");
			fprintf(out, "%s %.*s\n",
				first ? "" : "                    ", (int)len,
				h);
			first = false;
			h += len;
			if (*h == '\n')
				h++;
		}
	}
}

int sv_cli_doc_from_name(const char *name)
{
	static const char *const names[] = {"scdoc", "bash", "zsh", "fish"};
	size_t i;

	for (i = 0; name && i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(name, names[i]))
			return (int)i;
	return -1;
}

/* ---- scdoc ---------------------------------------------------------------- */

/* s[0..len) with scdoc's markup characters escaped. */
static void doc_scdoc_text(FILE *out, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && s[i]; i++) {
		if (s[i] == '\\' || s[i] == '*' || s[i] == '_')
			fputc('\\', out);
		fputc(s[i], out);
	}
}

static void doc_scdoc_str(FILE *out, const char *s)
{
	doc_scdoc_text(out, s, strlen(s));
}

static void doc_scdoc_usage(FILE *out, const struct sv_cli_command *c)
{
	char *syn = sv_cli_synopsis(c);

	fputs("*scopeview", out);
	if (c->name[0])
		fprintf(out, " %s", c->name);
	fputs("* ", out);
	doc_scdoc_str(out, syn);
	fputs("\n\n", out);
	free(syn);
}

static void doc_scdoc(
	FILE *out, const struct sv_cli_command *const *cmds, size_t n)
{
	size_t i, j;

	fputs("# SYNOPSIS\n\n", out);
	for (i = 0; i < n; i++)
		doc_scdoc_usage(out, cmds[i]);
	fputs("# COMMANDS\n\n", out);
	for (i = 0; i < n; i++) {
		const struct sv_cli_command *c = cmds[i];
		fprintf(out, "## scopeview%s%s\n\n", c->name[0] ? " " : "",
			c->name);
		doc_scdoc_str(out, c->what);
		fputs(".\n\n", out);
		doc_scdoc_usage(out, c);
		for (j = 0; j < c->nopts; j++) {
			const struct sv_cli_option *o = &c->opts[j];
			const char *h = o->help;
			if (!h)
				continue;
			if (sv_cli_is_operand(o)) {
				fputc('_', out);
				doc_scdoc_str(out, o->name);
				fputc('_', out);
			} else {
				if (o->alias)
					fprintf(out, "*%s*, ", o->alias);
				fprintf(out, "*%s*", o->name);
			}
			/* scdoc underlines only whole words: "--keys _KEYS_",
			 * but "--list-keys[=FMT]". */
			if (o->arg && doc_attached(o)) {
				doc_scdoc_str(out, o->arg);
			} else if (o->arg) {
				fputs(" _", out);
				doc_scdoc_str(out, o->arg);
				fputc('_', out);
			}
			fputc('\n', out);
			while (*h) {
				size_t len = strcspn(h, "\n");
				fputc('\t', out);
				doc_scdoc_text(out, h, len);
				fputc('\n', out);
				h += len;
				if (*h == '\n')
					h++;
			}
			fputc('\n', out);
		}
	}
}

/* ---- shells --------------------------------------------------------------- */

/* The first line of help, with single quotes made safe for a shell's
 * single-quoted string (q: the replacement of a quote) and, for zsh's
 * _arguments, its brackets and colons escaped. */
static void doc_shell_help(FILE *out, const char *help, const char *q, bool zsh)
{
	size_t len = strcspn(help, "\n"), i;

	for (i = 0; i < len; i++) {
		if (help[i] == '\'')
			fputs(q, out);
		else if (zsh && strchr("[]:\\", help[i]))
			fprintf(out, "\\%c", help[i]);
		else
			fputc(help[i], out);
	}
}

/* The words an option can be typed as: "--name -n", and for an attached
 * value every "--name=VALUE". */
static void doc_bash_words(FILE *out, const struct sv_cli_command *c)
{
	bool first = true;
	size_t j;

	for (j = 0; j < c->nopts; j++) {
		const struct sv_cli_option *o = &c->opts[j];
		const char *v = o->values;
		if (sv_cli_is_operand(o))
			continue;
		if (!first)
			fputc(' ', out);
		first = false;
		if (!doc_attached(o) || o->arg[0] == '[')
			fputs(o->name, out);
		if (o->alias)
			fprintf(out, " %s", o->alias);
		while (doc_attached(o) && v && *v) {
			size_t len = strcspn(v, " ");
			fprintf(out, " %s=%.*s", o->name, (int)len, v);
			v += len;
			v += strspn(v, " ");
		}
	}
}

static void doc_bash(
	FILE *out, const struct sv_cli_command *const *cmds, size_t n)
{
	size_t i, j;

	fputs("# bash completion for scopeview(1), generated by "
	      "`scopeview --completion=bash`\n"
	      "# from the tables --help prints.\n"
	      "_scopeview()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= i opts\n"
	      "\t[ \"$COMP_CWORD\" -gt 0 ] && "
	      "prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tCOMPREPLY=()\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\tcase ${COMP_WORDS[i]} in\n\t\t",
		out);
	for (i = 1; i < n; i++)
		fprintf(out, "%s%s", i > 1 ? " | " : "", cmds[i]->name);
	fputs(")\n\t\t\tcmd=${COMP_WORDS[i]}\n\t\t\tbreak\n\t\t\t;;\n"
	      "\t\tesac\n\tdone\n\tcase \"$cmd:$prev\" in\n",
		out);
	for (i = 0; i < n; i++)
		for (j = 0; j < cmds[i]->nopts; j++) {
			const struct sv_cli_option *o = &cmds[i]->opts[j];
			if (!o->arg || doc_attached(o) || sv_cli_is_operand(o))
				continue;
			fprintf(out, "\t%s:%s", cmds[i]->name, o->name);
			if (o->alias)
				fprintf(out, " | %s:%s", cmds[i]->name,
					o->alias);
			fputs(")\n", out);
			if (o->values && !strcmp(o->values, "@file"))
				fputs("\t\tcompopt -o filenames 2>/dev/null\n"
				      "\t\tCOMPREPLY=($(compgen -f -- "
				      "\"$cur\"))\n",
					out);
			else if (o->values)
				fprintf(out,
					"\t\tCOMPREPLY=($(compgen -W '%s' -- "
					"\"$cur\"))\n",
					o->values);
			fputs("\t\treturn\n\t\t;;\n", out);
		}
	fputs("\tesac\n\tcase $cmd in\n", out);
	for (i = 0; i < n; i++) {
		fprintf(out, "\t%s)\n\t\topts='", i ? cmds[i]->name : "''");
		doc_bash_words(out, cmds[i]);
		fputs("'\n\t\t;;\n", out);
	}
	fputs("\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\t\treturn\n\tfi\n"
	      "\tif [ -z \"$cmd\" ]; then\n\t\tCOMPREPLY=($(compgen -W '",
		out);
	for (i = 1; i < n; i++)
		fprintf(out, "%s%s", i > 1 ? " " : "", cmds[i]->name);
	fputs("' -- \"$cur\"))\n\tfi\n"
	      "\tcompopt -o filenames 2>/dev/null\n"
	      "\tCOMPREPLY+=($(compgen -f -- \"$cur\"))\n}\n"
	      "complete -F _scopeview scopeview\n",
		out);
}

static void doc_zsh_args(FILE *out, const struct sv_cli_command *c)
{
	size_t j;

	for (j = 0; j < c->nopts; j++) {
		const struct sv_cli_option *o = &c->opts[j];
		if (sv_cli_is_operand(o))
			continue;
		fprintf(out, " \\\n\t\t'%s%s[", o->name,
			doc_attached(o) ? "=-" : "");
		doc_shell_help(out, o->help, "'\\''", true);
		fputc(']', out);
		if (o->arg) {
			fprintf(out,
				":%s:", o->arg[0] == '[' ? ":value" : "value");
			if (o->values && !strcmp(o->values, "@file"))
				fputs("_files", out);
			else if (o->values)
				fprintf(out, "(%s)", o->values);
			else
				fputs(" ", out);
		}
		fputc('\'', out);
	}
}

static void doc_zsh(
	FILE *out, const struct sv_cli_command *const *cmds, size_t n)
{
	size_t i;

	fputs("#compdef scopeview\n"
	      "# zsh completion for scopeview(1), generated by "
	      "`scopeview --completion=zsh`\n"
	      "# from the tables --help prints.\n\n"
	      "_scopeview() {\n\tlocal -a commands\n\tcommands=(",
		out);
	for (i = 1; i < n; i++) {
		fprintf(out, "\n\t\t'%s:", cmds[i]->name);
		doc_shell_help(out, cmds[i]->what, "'\\''", true);
		fputc('\'', out);
	}
	fputs("\n\t)\n\tif (( CURRENT > 2 )); then\n\t\tcase $words[2] in\n",
		out);
	for (i = 1; i < n; i++) {
		fprintf(out,
			"\t\t%s)\n\t\t\tshift words\n\t\t\t(( CURRENT-- ))\n"
			"\t\t\t_arguments -s",
			cmds[i]->name);
		doc_zsh_args(out, cmds[i]);
		fputs(" \\\n\t\t'*:file:_files'\n\t\t\treturn\n\t\t\t;;\n",
			out);
	}
	fputs("\t\tesac\n\tfi\n\t_arguments -s", out);
	doc_zsh_args(out, cmds[0]);
	fputs(" \\\n\t\t'1: :->first' '*:file:_files'\n"
	      "\tif [[ $state == first ]]; then\n"
	      "\t\t_describe command commands\n\t\t_files\n\tfi\n}\n\n"
	      "_scopeview \"$@\"\n",
		out);
}

static bool doc_has_operand(const struct sv_cli_command *c)
{
	size_t j;
	for (j = 0; j < c->nopts; j++)
		if (sv_cli_is_operand(&c->opts[j]))
			return true;
	return false;
}

static void doc_fish(
	FILE *out, const struct sv_cli_command *const *cmds, size_t n)
{
	size_t i, j;

	fputs("# fish completion for scopeview(1), generated by "
	      "`scopeview --completion=fish`\n"
	      "# from the tables --help prints.\n"
	      "complete -c scopeview -f\n",
		out);
	for (i = 1; i < n; i++) {
		fprintf(out,
			"complete -c scopeview -n __fish_use_subcommand -a %s "
			"-d '",
			cmds[i]->name);
		doc_shell_help(out, cmds[i]->what, "\\'", false);
		fputs("'\n", out);
	}
	fputs("complete -c scopeview -n __fish_use_subcommand -F\n", out);
	for (i = 0; i < n; i++) {
		char cond[128];
		if (i)
			snprintf(cond, sizeof cond,
				"'__fish_seen_subcommand_from %s'",
				cmds[i]->name);
		else
			snprintf(cond, sizeof cond, "__fish_use_subcommand");
		if (i && doc_has_operand(cmds[i]))
			fprintf(out, "complete -c scopeview -n %s -F\n", cond);
		for (j = 0; j < cmds[i]->nopts; j++) {
			const struct sv_cli_option *o = &cmds[i]->opts[j];
			if (sv_cli_is_operand(o))
				continue;
			fprintf(out, "complete -c scopeview -n %s -l %s", cond,
				o->name + 2);
			if (o->alias && o->alias[1] && !o->alias[2])
				fprintf(out, " -s %c", o->alias[1]);
			if (o->arg && o->values && !strcmp(o->values, "@file"))
				fputs(" -r -F", out);
			else if (o->arg && o->values)
				fprintf(out, " -x -a '%s'", o->values);
			else if (o->arg)
				fputs(" -x", out);
			fputs(" -d '", out);
			doc_shell_help(out, o->help, "\\'", false);
			fputs("'\n", out);
		}
	}
}

int sv_cli_write_doc(FILE *out, enum sv_cli_doc kind,
	const struct sv_cli_command *const *cmds, size_t n)
{
	if (!out || !cmds || !n)
		return -EINVAL;
	switch (kind) {
	case SV_CLI_DOC_SCDOC:
		doc_scdoc(out, cmds, n);
		break;
	case SV_CLI_DOC_BASH:
		doc_bash(out, cmds, n);
		break;
	case SV_CLI_DOC_ZSH:
		doc_zsh(out, cmds, n);
		break;
	case SV_CLI_DOC_FISH:
		doc_fish(out, cmds, n);
		break;
	default:
		return -EINVAL;
	}
	return ferror(out) ? -EIO : 0;
}
