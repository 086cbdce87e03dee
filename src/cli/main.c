/*
 * main.c: pick the subcommand and hand over.  `scopeview [FILE]` is the
 * viewer; `summary`, `snapshot` and `gen` are the batch commands.
 */
#include <stdio.h>
#include <string.h>

#include "sv_version.h"
#include "scopeview/cli.h"
#include "scopeview/common.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *what;
} commands[] = {
	{"summary", sv_summary_main, "print the statistics of a profile"},
	{"snapshot", sv_snapshot_main, "draw the viewer's screen to a file"},
	{"gen", sv_gen_main, "write a synthetic profile"},
	{"ranks", sv_ranks_main, "print the rank x region load balance"},
	{"calls", sv_calls_main, "list the calls of a region"},
};

static void main_usage(FILE *out)
{
	size_t i;
	fputs("usage: scopeview [OPTIONS] [FILE]\n"
	      "       scopeview COMMAND [OPTIONS] ...\n\n"
	      "A terminal timeline viewer for scope-profiler HDF5 profiles.\n"
	      "With no FILE the viewer opens a built-in demo profile.\n\n"
	      "Commands:\n",
		out);
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name,
			commands[i].what);
	fputs("\nRun 'scopeview COMMAND --help' for a command's options,\n"
	      "'scopeview --list-keys' for the viewer's keys.\n"
	      "Exit status: 0 success, 1 a profile could not be read,\n"
	      "2 a command-line mistake.\n",
		out);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc > 1 &&
		(!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		main_usage(stdout);
		fputs("\nViewer options:\n", stdout);
		return sv_view_main(argc, argv);
	}
	if (argc > 1 &&
		(!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("scopeview %s\n", SV_VERSION);
		return SV_EXIT_OK;
	}
	if (argc > 1) {
		for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
			if (!strcmp(argv[1], commands[i].name))
				return commands[i].run(argc - 1, argv + 1);
	}
	return sv_view_main(argc, argv);
}
