/*
 * cli.h: the subcommands of the scopeview program and the tables that
 * drive them.  main.c picks a command by its first argument
 * (sv_cli_commands; the viewer, sv_cli_view_cmd, when none names one) and
 * hands the arguments after the name to sv_cli_run, which parses them
 * from the command's option table and runs it.  A command returns the
 * process exit status: 0 success, 1 a profile could not be read, 2 a
 * command-line mistake, 3 `diff`'s gate found a regression (--fail-above,
 * --fail-on-new).  The cli layer is the only one that prints.
 */
#ifndef SCOPEVIEW_CLI_H
#define SCOPEVIEW_CLI_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_CLI)
#error "scopeview/cli.h belongs to the cli layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "scopeview/common.h"
#include "scopeview/profile.h"
#include "scopeview/regex.h"
#include "scopeview/stats.h"
#include "scopeview/sink.h"
#include "scopeview/source.h"

#define SV_EXIT_OK         0
#define SV_EXIT_LOAD       1
#define SV_EXIT_USAGE      2
#define SV_EXIT_REGRESSION 3

/*
 * Standard error.  Every line the command line writes there goes through
 * sv_cli_eprintf (the policy test holds src/cli/ to it): the formatted
 * line is made terminal-safe by the one rule of the screen
 * (sv_utf8_terminal_safe: ESC, BEL, CSI, OSC, C1 and bidirectional
 * controls, and a newline too, shown as "\x1b", "\n", "\u202e"), so a
 * message that quotes a file's text, a path or an option value never
 * reaches a terminal as a control sequence and stays one line.
 */
void sv_cli_eprintf(const char *fmt, ...) SV_PRINTF(1, 2);

/* A progress line by the same rule: on a terminal it replaces the last
 * progress line in place (the next line of sv_cli_eprintf replaces it
 * too); elsewhere it is a line of its own. */
void sv_cli_eprogress(const char *fmt, ...) SV_PRINTF(1, 2);
/* Whether standard error is a terminal. */
bool sv_cli_stderr_tty(void);

/* Each line of text (as a report writer wrote it to a memory stream)
 * through sv_cli_eprintf. */
void sv_cli_eprint_lines(const char *text);

/* The selection options several commands share: --include RE and
 * --exclude RE (repeatable) and --ranks LIST, filled by the handlers
 * sv_cli_set_include, sv_cli_set_exclude and sv_cli_set_ranks below.
 * Zero it before use. */
struct sv_cli_select {
	struct sv_regex_list include, exclude;
	bool *rank_on; /* sv_stats_parse_ranks; NULL: every rank */
	uint32_t nrank_on;
	const char *ranks; /* the --ranks text as given, or NULL */
};

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
/*
 * A large profile read a share of its ranks at a time (cli_stream.c), for
 * the reports that need one share's calls at once (summary, ranks,
 * diff, tree, export): a columnar file of
 * 4M calls or more on two ranks or more (the environment variable
 * SCOPEVIEW_STREAM_MIN_CALLS sets another floor) with stored records,
 * all of it (no rank list), with this program's own calls (not
 * scopeview-mpi).  sv_cli_shares_open: 1 with *out, or 0 when the file
 * is not one to read that way (the command loads it whole, and reports
 * what is wrong with it).  sv_cli_shares_run reads the shares in rank
 * order on a thread of its own, each of at most limit calls or one rank
 * (0: a sixteenth of the calls, at most 16M), nested (lanes, depths,
 * parents) or, when every row stores its exclusive total, not, and
 * gives each to
 * take (its profile freed after: 1 goes on, 0 or a negative errno
 * stops); it returns 1 when every share was taken and what they hold is
 * what one load holds (the nesting's tie order and the time origin, from
 * the stored records, are those of the calls read; no share warned of
 * what the index did not), 0 when the command is to load the file whole
 * after all, or take's negative errno (or the load's) with err.  The
 * file's index (a summary-only load) is the shares' whole; keep_whole
 * hands it over (the caller frees it), close frees the rest.
 */
struct sv_cli_shares;
int sv_cli_shares_open(const char *path, const struct sv_load_opts *base,
	struct sv_cli_shares **out);
const struct sv_profile *sv_cli_shares_whole(const struct sv_cli_shares *x);
int sv_cli_shares_run(struct sv_cli_shares *x, bool nested, uint64_t limit,
	int (*take)(void *ctx, const struct sv_profile *share,
		struct sv_error *err),
	void *ctx, struct sv_error *err);
struct sv_profile *sv_cli_shares_keep_whole(struct sv_cli_shares *x);
void sv_cli_shares_close(struct sv_cli_shares *x);

/*
 * The table sv_stats_table_compute gives under f (regions only: no rank,
 * lane, thread, call or range part) over every call of the profile at
 * path, made in shares: 1 with t filled and *whole the file's index
 * (which t borrows: free it after t), 0 when the caller is to load the
 * file whole (as sv_cli_shares_run), or a negative errno with err.
 */
int sv_cli_stream_table(const char *path, const struct sv_load_opts *base,
	const struct sv_stats_filter *f, struct sv_stats_table *t,
	struct sv_profile **whole, struct sv_error *err);
/*
 * The tree sv_callpath_build gives under sc (no lane part) over every
 * call of the profile at path, made in shares, with range (NULL: none)
 * the two ends of sc's range from the run's time origin: 1 with t and
 * *whole as above, 0 or a negative errno as above.
 */
struct sv_callpath;
struct sv_callpath_scope;
int sv_cli_stream_tree(const char *path, const struct sv_load_opts *base,
	const struct sv_callpath_scope *sc, const int64_t *range,
	struct sv_callpath *t, struct sv_profile **whole, struct sv_error *err);
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

/* One line "scopeview: <what><text>" on stderr (sv_cli_eprintf). */
void sv_cli_stderr(const char *what, const char *text);

/* The lanes of p on the ranks of a rank list (sv_stats_parse_ranks), as
 * p->nlanes flags in a new array; NULL (every lane) for rank_on NULL. */
bool *sv_cli_lanes_of_ranks(
	const struct sv_profile *p, const bool *rank_on, uint32_t nrank_on);

/* "T0:T1" (--range: times from the run's origin as the viewer's ruler
 * shows them, sv_view_parse_time) into ns from the origin; 0, or -EINVAL
 * when either end is not a time or T1 < T0. */
int sv_cli_parse_range(const char *spec, int64_t *t0, int64_t *t1);

/* A write's failure (outfile.h) as one line on stderr; returns the exit
 * status: SV_EXIT_USAGE for a refusal (-EEXIST: an input, not a regular
 * file, no name), SV_EXIT_LOAD for any other error (a full disk, a
 * missing directory; the export's own). */
int sv_cli_output_fail(const struct sv_error *err);

/* From now on SIGINT, SIGTERM and SIGHUP first remove the temporary
 * files this process is writing (sv_outfile_unlink_temps), then end it
 * as they would have: a command stopped half-way leaves no partial
 * file.  For the commands that write (gen, export, snapshot). */
void sv_cli_output_signals(void);

/* The viewer's :export (sink.h): the formats of `scopeview export`. */
extern const struct sv_sink sv_cli_export_sink;

/*
 * The command-line tables.  A command is one struct sv_cli_command: its
 * name, a table of rows (options and operands), the size of the struct
 * its arguments are parsed into, and the function that runs it.  One
 * parser (sv_cli_parse) walks the table for every command; the usage
 * line, --help's options, the man page's SYNOPSIS and COMMANDS sections
 * and the bash, zsh and fish completions are all written from the same
 * rows (sv_cli_synopsis, sv_cli_write_options, sv_cli_write_doc), so
 * what parses and what is documented cannot drift apart.
 *
 * The words of a command line, after the command's name:
 *  - "--name VALUE" and "--name=VALUE" (or the alias, "-o VALUE",
 *    "-o=VALUE") for a row that takes a value; "--name" alone for one
 *    that does not ("--name=VALUE" is then a mistake); "--name" or
 *    "--name=VALUE" for an optional value (arg "[=FMT]"), and only
 *    "--name=VALUE" for an attached one (arg "=SHELL");
 *  - an option given twice counts twice for a SV_CLI_REPEAT row (each
 *    --include adds a pattern) and the last time for any other row;
 *  - "--" ends the options: every word after it is an operand, and so
 *    is "-" and every word that does not start with '-';
 *  - operands fill the operand rows in order (an operand row's name has
 *    no leading '-': "FILE"); a SV_CLI_REPEAT operand row takes all the
 *    rest.
 * Mistakes print one line "scopeview: CMD: <what>" and the usage line to
 * stderr, and the command exits 2: an unknown option ("unknown option
 * '--bogus'"), a missing value ("--sort needs a value"), a value given
 * to an option without one ("--ascii takes no value"), a value not among
 * a choice's ("unknown format 'xml' (table, csv or json)"), a missing
 * required option or operand ("no FILE given", "--region NAME is
 * required"), one operand too many ("more than one FILE ('a.h5',
 * 'b.h5')"), and whatever a row's handler refuses.
 */
struct sv_cli_command;
struct sv_cli_option;

/* What a handler is told about the word it takes. */
struct sv_cli_ctx {
	const struct sv_cli_command *cmd;
	const struct sv_cli_option *opt;
};

/* A row's handler (SV_CLI_CALL): take value (NULL for a row without a
 * value, or an optional value not given) into target, the command's
 * argument struct plus the row's offset.  Returns 0, or the exit status
 * sv_cli_fail() returned after saying what is wrong. */
typedef int (*sv_cli_set_fn)(
	void *target, const char *value, const struct sv_cli_ctx *cx);

enum sv_cli_type {
	SV_CLI_HELP,   /* print the command's --help and exit 0 at once */
	SV_CLI_FLAG,   /* bool at the offset: set true */
	SV_CLI_STRING, /* const char * at the offset: the value (borrowed
			  from argv); for an optional value, "" when not
			  given */
	SV_CLI_CHOICE, /* int at the offset: the index of the value among
			  the row's values ("table csv json": 0, 1, 2) */
	SV_CLI_CALL,   /* the row's handler */
};

/* Row flags. */
#define SV_CLI_REPEAT   1u /* each time counts: "[--include RE]..." */
#define SV_CLI_REQUIRED 2u /* must be given: no brackets in the synopsis */
#define SV_CLI_HIDDEN   4u /* left out of the synopsis (--version) */
/* Rows of one group n (1..255), side by side in the table, are
 * alternatives in the synopsis: "[--config FILE | --no-config]". */
#define SV_CLI_GROUP(n) ((unsigned)(n) << 8)

/*
 * The offset of field f, of type type, in struct T, for a row's target;
 * a field of another type does not compile (the assignment inside
 * sizeof is never evaluated: C11 6.6).
 */
#define SV_CLI_AT(T, f, type) \
	(offsetof(T, f) + 0 * sizeof(*(type **)0 = &((T *)0)->f))

struct sv_cli_option {
	const char *name;   /* "--format"; an operand: "FILE" */
	const char *alias;  /* "-h", or NULL */
	const char *arg;    /* "FMT" when the option takes a value, "[=FMT]"
			       when it may, "=SHELL" when only attached;
			       NULL for none and for an operand */
	const char *values; /* the words a value may be, space-separated:
			       "table csv json" (completions, the synopsis
			       when three or fewer, SV_CLI_CHOICE); "@file"
			       for a file name; NULL for free text */
	const char *help;   /* lines separated by '\n', no final newline;
			       NULL only for an operand (then not in
			       --help) */
	enum sv_cli_type type;
	size_t at;         /* the target's offset (SV_CLI_AT); 0 for HELP */
	sv_cli_set_fn set; /* SV_CLI_CALL's handler */
	unsigned flags;    /* SV_CLI_REPEAT | SV_CLI_REQUIRED | ... */
};

struct sv_cli_command {
	const char *name;  /* "summary"; "" for the viewer itself */
	const char *what;  /* one line: "print the statistics of a profile" */
	const char *about; /* --help's paragraph after the usage line, or
			      NULL */
	const struct sv_cli_option *opts;
	size_t nopts;
	size_t size;             /* bytes of the argument struct (> 0) */
	void (*init)(void *a);   /* defaults; NULL: all zero */
	int (*run)(void *a);     /* the command, after a parse: exit status */
	void (*fini)(void *a);   /* frees what parsing and run left; NULL:
				   nothing to free */
	void (*more)(FILE *out); /* --help's sections after the options
				    (sort keys, exit status), or NULL */
};

/* The parse went through: run the command. */
#define SV_CLI_GO (-1)

/* Parse argv[1..argc) (argv[0] is the command's name) into a, which
 * cmd->init set up.  Returns SV_CLI_GO, or the exit status after --help
 * was printed (0) or a mistake was reported (2); a may then hold what
 * cmd->fini frees. */
int sv_cli_parse(
	const struct sv_cli_command *cmd, int argc, char **argv, void *a);
/* The whole command: its arguments allocated and initialised, parsed,
 * run, freed.  Returns the exit status. */
int sv_cli_run(const struct sv_cli_command *cmd, int argc, char **argv);

/* Print "scopeview: CMD: <message>" (no "CMD: " for the viewer) and
 * "usage: scopeview CMD SYNOPSIS" to stderr; returns SV_EXIT_USAGE. */
int sv_cli_fail(const struct sv_cli_command *cmd, const char *fmt, ...)
	SV_PRINTF(2, 3);
/* What follows "scopeview CMD" in a usage line, from cmd's rows:
 * "[--format table|csv|json] [--include RE]... FILE" (malloc'd). */
char *sv_cli_synopsis(const struct sv_cli_command *cmd);
/* "usage: scopeview CMD SYNOPSIS\n". */
void sv_cli_write_usage(FILE *out, const struct sv_cli_command *cmd);
/* The whole --help of cmd: usage, about, options, cmd->more. */
void sv_cli_write_help(FILE *out, const struct sv_cli_command *cmd);
/* Whether row o is an operand (its name does not start with '-'). */
bool sv_cli_is_operand(const struct sv_cli_option *o);

/* Handlers the commands share.  The selection's, on a struct
 * sv_cli_select: each --include / --exclude adds a pattern ("CMD: bad
 * regex '(': ..."); --ranks replaces the list ("CMD: bad rank list 'x':
 * ..."; _named: "CMD: --ranks: bad rank list ...") and keeps its text. */
int sv_cli_set_include(void *sel, const char *v, const struct sv_cli_ctx *cx);
int sv_cli_set_exclude(void *sel, const char *v, const struct sv_cli_ctx *cx);
int sv_cli_set_ranks(void *sel, const char *v, const struct sv_cli_ctx *cx);
int sv_cli_set_ranks_named(
	void *sel, const char *v, const struct sv_cli_ctx *cx);

/* For a handler that looks a value up by name: store key (the lookup's
 * result) in *(int *)target and return 0, or, for a key < 0, fail with
 * "unknown WHAT 'value' (see --help)". */
int sv_cli_set_key(void *target, int key, const char *value, const char *what,
	const struct sv_cli_ctx *cx);

/* The commands: the viewer first, then every subcommand in the order
 * `scopeview --help` lists them.  A new command is its table and run
 * function in a cmd_*.c and one entry here (cli.c). */
/*
 * How the report commands read a profile and compute its statistics.
 * scopeview is one process (sv_load, sv_stats_table_compute, and
 * sv_profile_free); scopeview-mpi (src/mpi/) sets sv_cli_engine before
 * it runs a command, so that every process of an MPI job runs the same
 * command code, reading its share of the ranks, and the first process
 * prints what scopeview prints.  Every process makes the same calls in
 * the same order (the engine's are collective), with the same results
 * and errors.
 *
 *  - load: as sv_load; the profile it gives is for the command's own use
 *    (its rows, regions and metadata are the whole file's on the process
 *    that prints), and the statistics come from table.
 *  - table: as sv_stats_table_compute over the profile load gave.
 *  - release: frees what load gave (NULL-safe).
 *  - callpath: as sv_callpath_build over the profile load gave (tree);
 *    sc->lane_on are p's lanes of the ranks the load's rank_on selected
 *    (sv_cli_lanes_of_ranks), which an engine that splits the ranks
 *    takes from its own share instead.  The tree is whole on the process
 *    that prints, over that profile; elsewhere it may be empty.
 *  - origin: the run's time origin, sv_profile_time_origin of the
 *    profile scopeview's load gives (tree's --range).
 *  - measure: as sv_scaling_measure of the profile load gave (scaling);
 *    the sample is whole on the process that prints, elsewhere a sample
 *    with no regions.
 *  - calls: the list of calls q asks (calls.h's sv_calls_pick) of the
 *    profile load gave, to print (report.h), whole on the process that
 *    prints, elsewhere empty; 0, or a negative errno with err.  The
 *    list's fini frees it.
 *  - hist: the histogram (histogram.h: bins and counts, no calls in
 *    them) of the durations of every call of q's region and ranks, whole
 *    on the process that prints, elsewhere empty.
 *  - per_call: whether the file holds per-call data (the profile load
 *    gave may hold none on the process that prints).
 *  - trend: as sv_trend_compute over the profile load gave, region an
 *    index into its regions (trend); the trend is whole on the process
 *    that prints, elsewhere one with no ranks, and its per-rank series
 *    (ranks, off, calls) may be left out (NULL).
 *  - export: the export of the profile load gave (sv_cli_export_here
 *    below is scopeview's); one output file, or standard output, written
 *    whole or not at all.
 *  - calls_here: the profile holds every selected call (false under MPI:
 *    what reads calls one by one, summary --group-by, is refused).
 *  - name: the program's name in messages.
 */
struct sv_callpath;
struct sv_callpath_scope;
struct sv_scaling_sample;
struct sv_scaling_opts;
struct sv_report_call_list;
struct sv_calls_query;
struct sv_hist;
struct sv_trend;
struct sv_trend_opts;
/* An export as `scopeview export` asks for it. */
struct sv_cli_export {
	const char *format;  /* chrome, speedscope, collapsed, csv or json */
	const char *out;     /* the file to write (outfile.h's rule), or NULL:
			       standard output */
	FILE *stream;        /* standard output (the command's) */
	const char *file;    /* the profile, as the output names it */
	const bool *rank_on; /* --ranks (sv_stats_parse_ranks), NULL: all */
	uint32_t nrank_on;
	bool has_range; /* --range, ns from the run's origin */
	int64_t r0, r1;
};
/* scopeview's export of p (cmd_export.c): 0, or a negative errno with
 * err (an aggregate file's refusal, a write that failed). */
int sv_cli_export_here(const struct sv_cli_export *x,
	const struct sv_profile *p, struct sv_error *err);
/* The export x of a large file made in shares (cli_stream_export.c):
 * chrome, speedscope and CSV a rank at a time, the folded stacks from the
 * tree in shares, holding about two ranks' calls, when the file is one
 * to read that way (sv_cli_shares_open) and x names no ranks.  1 once
 * written, 0 when the caller is to load the file whole (nothing written
 * then), or a negative errno with err. */
int sv_cli_stream_export(const struct sv_cli_export *x, struct sv_error *err);
struct sv_cli_engine {
	int (*load)(const char *path, const struct sv_load_opts *o,
		struct sv_profile **out, struct sv_error *err);
	int (*table)(struct sv_stats_table *t, const struct sv_profile *p,
		const struct sv_stats_filter *f, struct sv_error *err);
	int (*callpath)(struct sv_callpath *t, const struct sv_profile *p,
		const struct sv_callpath_scope *sc, struct sv_error *err);
	int64_t (*origin)(const struct sv_profile *p);
	int (*measure)(struct sv_scaling_sample *s, const struct sv_profile *p,
		const char *file, const struct sv_scaling_opts *o,
		struct sv_error *err);
	int (*trend)(struct sv_trend *t, const struct sv_profile *p,
		uint32_t region, const struct sv_trend_opts *o,
		struct sv_error *err);
	void (*release)(struct sv_profile *p);
	int (*calls)(struct sv_report_call_list *l, const struct sv_profile *p,
		const struct sv_calls_query *q, struct sv_error *err);
	bool (*per_call)(const struct sv_profile *p);
	int (*hist)(struct sv_hist *h, const struct sv_profile *p,
		const struct sv_calls_query *q, size_t nbins,
		struct sv_error *err);
	int (*export)(const struct sv_cli_export *x, const struct sv_profile *p,
		struct sv_error *err);
	bool calls_here;
	const char *name;
};
/* scopeview's calls and hist (cmd_calls.c). */
int sv_cli_calls_here(struct sv_report_call_list *l, const struct sv_profile *p,
	const struct sv_calls_query *q, struct sv_error *err);
int sv_cli_hist_here(struct sv_hist *h, const struct sv_profile *p,
	const struct sv_calls_query *q, size_t nbins, struct sv_error *err);

/* The engine in force: scopeview's by default. */
extern const struct sv_cli_engine *sv_cli_engine;

/* Send standard output and standard error to /dev/null (the processes
 * of an MPI job but the first, which prints for all). */
void sv_cli_quiet(void);

extern const struct sv_cli_command *const sv_cli_commands[];
extern const size_t sv_cli_ncommands;

extern const struct sv_cli_command sv_cli_view_cmd;
extern const struct sv_cli_command sv_cli_summary_cmd;
extern const struct sv_cli_command sv_cli_snapshot_cmd;
extern const struct sv_cli_command sv_cli_gen_cmd;
extern const struct sv_cli_command sv_cli_tree_cmd;
extern const struct sv_cli_command sv_cli_export_cmd;
extern const struct sv_cli_command sv_cli_ranks_cmd;
extern const struct sv_cli_command sv_cli_calls_cmd;
extern const struct sv_cli_command sv_cli_scaling_cmd;
extern const struct sv_cli_command sv_cli_trend_cmd;
extern const struct sv_cli_command sv_cli_diff_cmd;
extern const struct sv_cli_command sv_cli_convert_cmd;

enum sv_cli_doc {
	SV_CLI_DOC_SCDOC, /* the man page's SYNOPSIS and COMMANDS sections */
	SV_CLI_DOC_BASH,  /* a bash-completion script */
	SV_CLI_DOC_ZSH,   /* a zsh #compdef script */
	SV_CLI_DOC_FISH,  /* fish `complete` lines */
};

/* The --help lines of cmd's rows (operands with help first, as in the
 * table): "  --name ARG   help", the help's further lines aligned under
 * its first. */
void sv_cli_write_options(FILE *out, const struct sv_cli_command *cmd);
/* Write one document about the commands cmds[0..n) (cmds[0] is the
 * viewer) to out.  Returns 0, -EINVAL for an unknown kind, or -EIO. */
int sv_cli_write_doc(FILE *out, enum sv_cli_doc kind,
	const struct sv_cli_command *const *cmds, size_t n);
/* The document kind named "scdoc", "bash", "zsh" or "fish", or -1. */
int sv_cli_doc_from_name(const char *name);

#endif
