/*
 * cli.h: the subcommands of the scopeview program.  main.c picks one by
 * its first argument; each takes the arguments after the subcommand name
 * (argv[0] is the subcommand) and returns the process exit status:
 * 0 success, 1 a profile could not be read, 2 a command-line mistake,
 * 3 `diff`'s gate found a regression (--fail-above, --fail-on-new).
 * These are the only library functions that print.
 */
#ifndef SCOPEVIEW_CLI_H
#define SCOPEVIEW_CLI_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_CLI)
#error "scopeview/cli.h belongs to the cli layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "scopeview/common.h"
#include "scopeview/profile.h"
#include "scopeview/regex.h"
#include "scopeview/report.h"
#include "scopeview/stats.h"
#include "scopeview/sink.h"
#include "scopeview/source.h"

#define SV_EXIT_OK         0
#define SV_EXIT_LOAD       1
#define SV_EXIT_USAGE      2
#define SV_EXIT_REGRESSION 3

/* Print "scopeview: <message>" and "usage: ..." to stderr; returns
 * SV_EXIT_USAGE. */
int sv_cli_usage_error(const char *usage, const char *fmt, ...) SV_PRINTF(2, 3);

/* The value of option name at argv[*i] ("--name VALUE" or "--name=VALUE";
 * *i moves past VALUE); NULL when argv[*i] is not that option, and then
 * *missing is set when it is but its value is not there. */
const char *sv_cli_opt(
	int argc, char **argv, int *i, const char *name, bool *missing);
/* The selection options several commands share: --include RE and
 * --exclude RE (repeatable) and --ranks LIST.  Zero it before use. */
struct sv_cli_select {
	struct sv_regex_list include, exclude;
	bool *rank_on; /* sv_stats_parse_ranks; NULL: every rank */
	uint32_t nrank_on;
	const char *ranks; /* the --ranks text as given, or NULL */
};

/* Take argv[*i] when it is one of the selection options: returns 1 (and
 * *i moves past its value), 0 when it is not one (*missing set when it
 * is but its value is missing), or -1 after printing the usage error
 * for a bad value ("<cmd>: ..."): the caller then exits SV_EXIT_USAGE. */
int sv_cli_select_opt(struct sv_cli_select *s, int argc, char **argv, int *i,
	bool *missing, const char *usage, const char *cmd);
/* The selection as the rank and region parts of a stats filter (the
 * rest of f is left as it is); s must outlive the filter's use. */
void sv_cli_select_filter(
	const struct sv_cli_select *s, struct sv_stats_filter *f);
void sv_cli_select_fini(struct sv_cli_select *s);
/* Load options that read only the ranks of a --ranks list (rank_on NULL:
 * every rank), the rest of *o zeroed: the loader then leaves the other
 * ranks' calls unread where the layout allows (sv_load_opts.rank_on),
 * and the command's own rank filter gives the same figures either way. */
void sv_cli_ranks_load_opts(
	const bool *rank_on, uint32_t nrank_on, struct sv_load_opts *o);
void sv_cli_select_load_opts(
	const struct sv_cli_select *s, struct sv_load_opts *o);
/* Which ranks of a --ranks list have no row in p: "--ranks: no data for
 * ranks 9,11-12 (the profile has ranks 0-3)" (malloc'd), or NULL when
 * each has some.  *none (may be NULL) says whether no listed rank has a
 * row.  Not an error for the reports (scope-profiler lists the regions
 * with no calls then), but rarely what was meant. */
char *sv_cli_ranks_missing(
	const struct sv_profile *p, const bool *on, uint32_t n, bool *none);
/* For the viewer and snapshot, which have nothing to show then: when no
 * rank of the list has a row in file (read from its index), print
 * "scopeview: FILE: --ranks: no data for rank 99 (the profile has ranks
 * 0-3)" and return -EINVAL; else 0 (also when the index cannot be read:
 * the load proper says why). */
int sv_cli_ranks_check(const char *file, const bool *on, uint32_t n);
/* After the selection was used: a warning on stderr for each pattern
 * that hit PCRE2's match limit on some name. */
void sv_cli_select_warnings(const struct sv_cli_select *s);

/* One line "scopeview: <what><text>" on stderr, the text made safe for a
 * terminal (messages quote names from files). */
void sv_cli_stderr(const char *what, const char *text);

/* The lanes of p on the ranks of a rank list (sv_stats_parse_ranks), as
 * p->nlanes flags in a new array; NULL (every lane) for rank_on NULL. */
bool *sv_cli_lanes_of_ranks(
	const struct sv_profile *p, const bool *rank_on, uint32_t nrank_on);

/* "T0:T1" (--range: times from the run's origin as the viewer's ruler
 * shows them, sv_view_parse_time) into ns from the origin; 0, or -EINVAL
 * when either end is not a time or T1 < T0. */
int sv_cli_parse_range(const char *spec, int64_t *t0, int64_t *t1);

/* --format's value for the commands that print a report (table, csv or
 * json) into *fmt: 0, or the usage error's exit status after saying
 * "CMD: unknown format 'V' (table, csv or json)" with usage. */
int sv_cli_report_format(const char *v, enum sv_report_format *fmt,
	const char *usage, const char *cmd);

/* The viewer's :export (sink.h): the formats of `scopeview export`. */
extern const struct sv_sink sv_cli_export_sink;

int sv_summary_main(int argc, char **argv);  /* summary.c */
int sv_ranks_main(int argc, char **argv);    /* cmd_ranks.c */
int sv_calls_main(int argc, char **argv);    /* cmd_calls.c */
int sv_gen_main(int argc, char **argv);      /* gen.c */
int sv_snapshot_main(int argc, char **argv); /* snapshot.c */
int sv_view_main(int argc, char **argv);     /* app.c: the viewer */
int sv_tree_main(int argc, char **argv);     /* cmd_tree.c */
int sv_export_main(int argc, char **argv);   /* cmd_export.c */
int sv_diff_main(int argc, char **argv);     /* cmd_diff.c */
int sv_convert_main(int argc, char **argv);  /* cmd_convert.c */

/*
 * The command-line tables.  Each subcommand describes its options as an
 * array of rows; its --help prints them with sv_cli_write_options, and the
 * man page's command sections and the bash, zsh and fish completions are
 * generated from the same rows (sv_cli_write_doc), so they cannot drift.
 */
struct sv_cli_option {
	const char *name;   /* "--format" */
	const char *alias;  /* "-h", or NULL */
	const char *arg;    /* "FMT" when the option takes a value, else NULL */
	const char *values; /* completions of the value: "table csv json",
			       "@file" for a file name, NULL for free text */
	const char *help;   /* lines separated by '\n', no final newline */
};

struct sv_cli_command {
	const char *name;     /* "summary"; "" for the viewer itself */
	const char *synopsis; /* what follows the name in a usage line */
	const char *what;  /* one line: "print the statistics of a profile" */
	bool file_operand; /* non-option words are file names */
	const struct sv_cli_option *opts;
	size_t nopts;
};

enum sv_cli_doc {
	SV_CLI_DOC_SCDOC, /* the man page's SYNOPSIS and COMMANDS sections */
	SV_CLI_DOC_BASH,  /* a bash-completion script */
	SV_CLI_DOC_ZSH,   /* a zsh #compdef script */
	SV_CLI_DOC_FISH,  /* fish `complete` lines */
};

/* The --help lines of cmd's options: "  --name ARG   help", the help's
 * further lines aligned under its first. */
void sv_cli_write_options(FILE *out, const struct sv_cli_command *cmd);
/* Write one document about the commands cmds[0..n) (cmds[0] is the
 * viewer) to out.  Returns 0, -EINVAL for an unknown kind, or -EIO. */
int sv_cli_write_doc(FILE *out, enum sv_cli_doc kind,
	const struct sv_cli_command *const *cmds, size_t n);
/* The document kind named "scdoc", "bash", "zsh" or "fish", or -1. */
int sv_cli_doc_from_name(const char *name);

/* The tables of the built-in commands (cmd_*.c). */
extern const struct sv_cli_command sv_cli_view_cmd;
extern const struct sv_cli_command sv_cli_summary_cmd;
extern const struct sv_cli_command sv_cli_snapshot_cmd;
extern const struct sv_cli_command sv_cli_gen_cmd;
extern const struct sv_cli_command sv_cli_tree_cmd;
extern const struct sv_cli_command sv_cli_export_cmd;
extern const struct sv_cli_command sv_cli_ranks_cmd;
extern const struct sv_cli_command sv_cli_calls_cmd;
extern const struct sv_cli_command sv_cli_diff_cmd;
extern const struct sv_cli_command sv_cli_convert_cmd;

#endif
