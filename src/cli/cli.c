/*
 * cli.c: what the subcommands share: usage errors.
 */
#include "scopeview/cli.h"

#include <stdarg.h>
#include <stdio.h>

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
