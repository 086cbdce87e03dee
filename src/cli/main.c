/*
 * main.c: pick the command and hand over.  `scopeview COMMAND ...` runs
 * the command of sv_cli_commands (cli.h) that has that name; anything
 * else is the viewer's command line (`scopeview [OPTIONS] [FILE]`).
 */
#include <stdio.h>
#include <string.h>

#include "scopeview/cli.h"
#include "scopeview/common.h"
#include "scopeview/heap.h"
#include "scopeview/write.h"

static void main_usage(FILE *out)
{
	size_t i;

	fputs("usage: scopeview [OPTIONS] [FILE]\n"
	      "       scopeview COMMAND [OPTIONS] ...\n\n"
	      "A terminal timeline viewer for scope-profiler profiles.\n"
	      "With no FILE the viewer opens a built-in demo profile.\n\n"
	      "Commands:\n",
		out);
	for (i = 1; i < sv_cli_ncommands; i++)
		fprintf(out, "  %-10s %s\n", sv_cli_commands[i]->name,
			sv_cli_commands[i]->what);
	fputs("\nRun 'scopeview COMMAND --help' for a command's options,\n"
	      "'scopeview --list-keys' for the viewer's keys.\n"
	      "Exit status: 0 success, 1 a profile could not be read,\n"
	      "2 a command-line mistake, 3 'diff --fail-above' or\n"
	      "'--fail-on-new' found a regression.\n",
		out);
}

int main(int argc, char **argv)
{
	size_t i;

	/* One heap for the threads that load and index (heap.h). */
	sv_heap_init();
	/* Before any HDF5 use: a write the disk refuses (gen, the viewer's
	 * demo file) must not crash libhdf5's exit handler (write.h). */
	sv_write_process_init();
	if (argc > 1 &&
		(!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		/* The program's help: the commands, then the viewer's. */
		main_usage(stdout);
		fputs("\nViewer options:\n", stdout);
		sv_cli_write_options(stdout, &sv_cli_view_cmd);
		sv_cli_view_cmd.more(stdout);
		return SV_EXIT_OK;
	}
	for (i = 1; argc > 1 && i < sv_cli_ncommands; i++)
		if (!strcmp(argv[1], sv_cli_commands[i]->name))
			return sv_cli_run(
				sv_cli_commands[i], argc - 1, argv + 1);
	return sv_cli_run(&sv_cli_view_cmd, argc, argv);
}
