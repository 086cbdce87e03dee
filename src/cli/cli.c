/*
 * cli.c: what the subcommands share: usage errors, option values, the
 * lanes of a rank list, a time range, how a write's failure is reported.
 */
#include "scopeview/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/load.h"
#include "scopeview/outfile.h"
#include "scopeview/view.h"

int sv_cli_usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;
	fputs("scopeview: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (usage)
		fprintf(stderr, "usage: %s\n", usage);
	return SV_EXIT_USAGE;
}

const char *sv_cli_opt(
	int argc, char **argv, int *i, const char *name, bool *missing)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
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

int sv_cli_select_opt(struct sv_cli_select *s, int argc, char **argv, int *i,
	bool *missing, const char *usage, const char *cmd)
{
	struct sv_error err = {0};
	const char *v;
	bool ok;

	if ((v = sv_cli_opt(argc, argv, i, "--include", missing)))
		ok = sv_regex_list_add(&s->include, v, &err);
	else if ((v = sv_cli_opt(argc, argv, i, "--exclude", missing)))
		ok = sv_regex_list_add(&s->exclude, v, &err);
	else if ((v = sv_cli_opt(argc, argv, i, "--ranks", missing))) {
		free(s->rank_on);
		s->rank_on = NULL;
		s->nrank_on = 0;
		ok = sv_stats_parse_ranks(v, &s->rank_on, &s->nrank_on, &err) ==
		     0;
		s->ranks = v;
	} else
		return 0;
	if (ok)
		return 1;
	sv_cli_usage_error(usage, "%s: %s", cmd, err.msg);
	return -1;
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
	char *safe = sv_utf8_terminal_safe(text, NULL);
	fprintf(stderr, "scopeview: %s%s\n", what, safe);
	free(safe);
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

int sv_cli_report_format(const char *v, enum sv_report_format *fmt,
	const char *usage, const char *cmd)
{
	if (!strcmp(v, "table"))
		*fmt = SV_REPORT_TABLE;
	else if (!strcmp(v, "csv"))
		*fmt = SV_REPORT_CSV;
	else if (!strcmp(v, "json"))
		*fmt = SV_REPORT_JSON;
	else
		return sv_cli_usage_error(usage,
			"%s: unknown format '%s' (table, csv or json)", cmd, v);
	return 0;
}
