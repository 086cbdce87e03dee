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

/* TEMPORARY during bring-up: weak fallbacks so the program links before
 * every subcommand's module exists.  Deleted once all four are real. */
__attribute__((weak)) int sv_summary_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return sv_cli_usage_error(NULL, "summary: not built yet");
}
__attribute__((weak)) int sv_gen_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return sv_cli_usage_error(NULL, "gen: not built yet");
}
__attribute__((weak)) int sv_snapshot_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return sv_cli_usage_error(NULL, "snapshot: not built yet");
}
__attribute__((weak)) int sv_view_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return sv_cli_usage_error(NULL, "viewer: not built yet");
}
