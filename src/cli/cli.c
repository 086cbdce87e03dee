/*
 * cli.c: what the subcommands share: usage errors, option values, the
 * lanes of a rank list.
 */
#include "scopeview/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
