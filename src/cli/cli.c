/*
 * cli.c: what the subcommands share: usage errors, option values, the
 * lanes of a rank list, a time range.
 */
#include "scopeview/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
