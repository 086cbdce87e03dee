/*
 * cli.c: what the subcommands share: the one writer of standard error
 * (sv_cli_eprintf, which escapes every line), the list of commands, the
 * handlers of the selection options, the lanes of a rank list, a time
 * range, how a write's failure is reported.
 */
#include "scopeview/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scopeview/callpath.h"
#include "scopeview/load.h"
#include "scopeview/outfile.h"
#include "scopeview/scaling.h"
#include "scopeview/trend.h"
#include "scopeview/view.h"

/* Whether a progress line is on the terminal, to be replaced. */
static bool cli_progress_shown;

/* The one place a line reaches standard error (cli.h). */
static void cli_eputs(const char *line)
{
	char *safe = sv_utf8_terminal_safe(line, NULL);
	/* A line replaces the progress line rather than following it. */
	fprintf(stderr, "%s%s\n", cli_progress_shown ? "\r\x1b[K" : "", safe);
	cli_progress_shown = false;
	free(safe);
}

bool sv_cli_stderr_tty(void)
{
	return isatty(fileno(stderr));
}

void sv_cli_eprogress(const char *fmt, ...)
{
	va_list ap;
	char *line, *safe;

	va_start(ap, fmt);
	line = sv_xvasprintf(fmt, ap);
	va_end(ap);
	if (!sv_cli_stderr_tty()) {
		cli_eputs(line);
		free(line);
		return;
	}
	safe = sv_utf8_terminal_safe(line, NULL);
	fprintf(stderr, "\r\x1b[K%s", safe);
	fflush(stderr);
	cli_progress_shown = true;
	free(safe);
	free(line);
}

void sv_cli_eprintf(const char *fmt, ...)
{
	va_list ap;
	char *line;

	va_start(ap, fmt);
	line = sv_xvasprintf(fmt, ap);
	va_end(ap);
	cli_eputs(line);
	free(line);
}

void sv_cli_eprint_lines(const char *text)
{
	const char *p = text ? text : "";

	while (*p) {
		size_t n = strcspn(p, "\n");
		char *line = sv_xstrndup(p, n);
		cli_eputs(line);
		free(line);
		p += n;
		if (*p == '\n')
			p++;
	}
}

bool *sv_cli_lanes_of_ranks(
	const struct sv_profile *p, const bool *rank_on, uint32_t nrank_on)
{
	bool *on;
	size_t l;

	if (!rank_on)
		return NULL;
	on = sv_xcalloc(p->nlanes + 1, sizeof *on);
	for (l = 0; l < p->nlanes; l++)
		on[l] = p->lanes[l].rank < nrank_on &&
			rank_on[p->lanes[l].rank];
	return on;
}

/* scopeview's engine: one process reads and computes everything. */
static int cli_load_here(const char *path, const struct sv_load_opts *o,
	struct sv_profile **out, struct sv_error *err)
{
	return sv_load(path, o, out, err);
}

static bool cli_per_call_here(const struct sv_profile *p)
{
	return p->has_calls;
}

static const struct sv_cli_engine cli_engine_here = {
	.load = cli_load_here,
	.table = sv_stats_table_compute,
	.callpath = sv_callpath_build,
	.origin = sv_profile_time_origin,
	.measure = sv_scaling_measure,
	.trend = sv_trend_compute,
	.release = sv_profile_free,
	.calls = sv_cli_calls_here,
	.hist = sv_cli_hist_here,
	.per_call = cli_per_call_here,
	.export = sv_cli_export_here,
	.calls_here = true,
	.name = "scopeview",
};

const struct sv_cli_engine *sv_cli_engine = &cli_engine_here;

void sv_cli_quiet(void)
{
	if (!freopen("/dev/null", "w", stdout) ||
		!freopen("/dev/null", "w", stderr))
		return; /* then they print what the first process prints */
}

const struct sv_cli_command *const sv_cli_commands[] = {
	&sv_cli_view_cmd,
	&sv_cli_summary_cmd,
	&sv_cli_snapshot_cmd,
	&sv_cli_gen_cmd,
	&sv_cli_tree_cmd,
	&sv_cli_export_cmd,
	&sv_cli_ranks_cmd,
	&sv_cli_calls_cmd,
	&sv_cli_scaling_cmd,
	&sv_cli_trend_cmd,
	&sv_cli_diff_cmd,
	&sv_cli_convert_cmd,
};
const size_t sv_cli_ncommands =
	sizeof sv_cli_commands / sizeof sv_cli_commands[0];

int sv_cli_set_key(void *target, int key, const char *value, const char *what,
	const struct sv_cli_ctx *cx)
{
	if (key < 0)
		return sv_cli_fail(
			cx->cmd, "unknown %s '%s' (see --help)", what, value);
	*(int *)target = key;
	return 0;
}

int sv_cli_set_include(void *sel, const char *v, const struct sv_cli_ctx *cx)
{
	struct sv_cli_select *s = sel;
	struct sv_error err = {0};

	if (!sv_regex_list_add(&s->include, v, &err))
		return sv_cli_fail(cx->cmd, "%s", err.msg);
	return 0;
}

int sv_cli_set_exclude(void *sel, const char *v, const struct sv_cli_ctx *cx)
{
	struct sv_cli_select *s = sel;
	struct sv_error err = {0};

	if (!sv_regex_list_add(&s->exclude, v, &err))
		return sv_cli_fail(cx->cmd, "%s", err.msg);
	return 0;
}

/* --ranks into s; 0, or the error said with the word before it. */
static int cli_ranks(struct sv_cli_select *s, const char *v,
	const struct sv_cli_ctx *cx, const char *before)
{
	struct sv_error err = {0};

	free(s->rank_on);
	s->rank_on = NULL;
	s->nrank_on = 0;
	s->ranks = v;
	if (sv_stats_parse_ranks(v, &s->rank_on, &s->nrank_on, &err) < 0)
		return sv_cli_fail(cx->cmd, "%s%s", before, err.msg);
	return 0;
}

int sv_cli_set_ranks(void *sel, const char *v, const struct sv_cli_ctx *cx)
{
	return cli_ranks(sel, v, cx, "");
}

int sv_cli_set_ranks_named(
	void *sel, const char *v, const struct sv_cli_ctx *cx)
{
	return cli_ranks(sel, v, cx, "--ranks: ");
}

void sv_cli_select_filter(
	const struct sv_cli_select *s, struct sv_stats_filter *f)
{
	f->rank_on = s->rank_on;
	f->nrank_on = s->nrank_on;
	f->include = s->include.re;
	f->ninclude = s->include.n;
	f->exclude = s->exclude.re;
	f->nexclude = s->exclude.n;
}

void sv_cli_ranks_load_opts(
	const bool *rank_on, uint32_t nrank_on, struct sv_load_opts *o)
{
	memset(o, 0, sizeof *o);
	o->rank_on = rank_on;
	o->nrank_on = nrank_on;
}

void sv_cli_select_load_opts(
	const struct sv_cli_select *s, struct sv_load_opts *o)
{
	sv_cli_ranks_load_opts(s->rank_on, s->nrank_on, o);
}

char *sv_cli_ranks_missing(
	const struct sv_profile *p, const bool *on, uint32_t n, bool *none)
{
	bool *gone = sv_xcalloc(n ? n : 1, sizeof *gone), any = false;
	char *list, *why = NULL;
	uint32_t r, count = 0;
	size_t i;

	for (r = 0; r < n; r++)
		gone[r] = on[r];
	for (i = 0; i < p->nrows; i++)
		if (p->rows[i].rank < n) {
			any = any || on[p->rows[i].rank];
			gone[p->rows[i].rank] = false;
		}
	for (r = 0; r < n; r++)
		count += gone[r];
	if (none)
		*none = !any;
	if (count) {
		list = sv_rank_list_text(gone, n, 8); /* a few say enough */
		if (p->num_ranks == 0)
			why = sv_xasprintf("--ranks: no data for rank%s %s "
					   "(the profile has no ranks)",
				count > 1 ? "s" : "", list);
		else if (p->num_ranks == 1)
			why = sv_xasprintf("--ranks: no data for rank%s %s "
					   "(the profile has rank 0)",
				count > 1 ? "s" : "", list);
		else
			why = sv_xasprintf("--ranks: no data for rank%s %s "
					   "(the profile has ranks 0-%" PRIu32
					   ")",
				count > 1 ? "s" : "", list, p->num_ranks - 1);
		free(list);
	}
	free(gone);
	return why;
}

int sv_cli_ranks_check(const char *file, const bool *on, uint32_t n)
{
	struct sv_load_opts o = {.summary_only = true};
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	bool none = false;
	char *why;

	if (sv_load(file, &o, &p, &err) < 0)
		return 0; /* the load proper says why */
	why = sv_cli_ranks_missing(p, on, n, &none);
	if (why && none) {
		char *line = sv_xasprintf("%s: %s", file, why);
		sv_cli_stderr("", line);
		free(line);
	}
	free(why);
	sv_profile_free(p);
	return none ? -EINVAL : 0;
}

void sv_cli_select_fini(struct sv_cli_select *s)
{
	sv_regex_list_fini(&s->include);
	sv_regex_list_fini(&s->exclude);
	free(s->rank_on);
	memset(s, 0, sizeof *s);
}

void sv_cli_select_warnings(const struct sv_cli_select *s)
{
	size_t i;
	for (i = 0; i < s->include.n + s->exclude.n; i++) {
		const struct sv_regex *re =
			i < s->include.n ? s->include.re[i]
					 : s->exclude.re[i - s->include.n];
		if (sv_regex_limit_hits(re)) {
			char msg[512];
			sv_regex_limit_message(
				re, sv_regex_limit_hits(re), msg, sizeof msg);
			sv_cli_stderr("warning: ", msg);
		}
	}
}

void sv_cli_stderr(const char *what, const char *text)
{
	sv_cli_eprintf("scopeview: %s%s", what, text);
}

int sv_cli_output_fail(const struct sv_error *err)
{
	sv_cli_stderr("", err->msg);
	return err->code == -EEXIST ? SV_EXIT_USAGE : SV_EXIT_LOAD;
}

/* The handler of sv_cli_output_signals(): only async-signal-safe calls. */
static void cli_output_signal(int sig)
{
	sv_outfile_unlink_temps();
	signal(sig, SIG_DFL);
	raise(sig);
}

void sv_cli_output_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	size_t i;

	/* A signal ignored (nohup) stays ignored. */
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction old;
		if (sigaction(sigs[i], NULL, &old) == 0 &&
			old.sa_handler != SIG_IGN)
			signal(sigs[i], cli_output_signal);
	}
}

int sv_cli_parse_range(const char *spec, int64_t *t0, int64_t *t1)
{
	const char *colon = strchr(spec, ':');
	char first[64];

	if (!colon || (size_t)(colon - spec) >= sizeof first)
		return -EINVAL;
	snprintf(first, sizeof first, "%.*s", (int)(colon - spec), spec);
	if (sv_view_parse_time(first, t0) < 0 ||
		sv_view_parse_time(colon + 1, t1) < 0 || *t1 < *t0)
		return -EINVAL;
	return 0;
}
