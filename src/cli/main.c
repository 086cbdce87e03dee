/*
 * main.c: pick the subcommand and hand over.  `scopeview [FILE]` is the
 * viewer; `summary`, `snapshot` and `gen` are the batch commands.
 */
#include <stdio.h>
#include <string.h>

#include "sv_version.h"
#include "scopeview/cli.h"
#include "scopeview/common.h"
#include "scopeview/heap.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *what;
} commands[] = {
	{"summary", sv_summary_main, "print the statistics of a profile"},
	{"snapshot", sv_snapshot_main, "draw the viewer's screen to a file"},
	{"gen", sv_gen_main, "write a synthetic profile"},
	{"tree", sv_tree_main, "print the call tree of a profile"},
	{"export", sv_export_main, "write a profile in another tool's format"},
	{"ranks", sv_ranks_main, "print the rank x region load balance"},
	{"calls", sv_calls_main, "list the calls of a region"},
	{"diff", sv_diff_main, "compare two profiles region by region"},
	{"convert", sv_convert_main,
		"write profiles as one scope-profiler HDF5 file"},
};

/* The option tables of the commands above, for the man page and the
 * completions (cli.h); a command without one is listed with its name and
 * line only. */
static const struct sv_cli_command *const command_docs[] = {
	&sv_cli_summary_cmd,
	&sv_cli_snapshot_cmd,
	&sv_cli_gen_cmd,
	&sv_cli_tree_cmd,
	&sv_cli_export_cmd,
	&sv_cli_ranks_cmd,
	&sv_cli_calls_cmd,
	&sv_cli_diff_cmd,
	&sv_cli_convert_cmd,
};

#define MAIN_NCOMMANDS (sizeof commands / sizeof commands[0])

/* `--completion=SHELL` and `--list-options=scdoc`: the documents made
 * from every command's table. */
static int main_write_doc(const char *kind_name)
{
	const struct sv_cli_command *cmds[MAIN_NCOMMANDS + 1];
	struct sv_cli_command bare[MAIN_NCOMMANDS];
	int kind = sv_cli_doc_from_name(kind_name);
	size_t i, j;

	if (kind < 0)
		return sv_cli_usage_error(
			"scopeview --completion=bash|zsh|fish",
			"unknown document '%s'", kind_name);
	cmds[0] = &sv_cli_view_cmd;
	for (i = 0; i < MAIN_NCOMMANDS; i++) {
		cmds[i + 1] = NULL;
		for (j = 0; j < sizeof command_docs / sizeof command_docs[0];
			j++)
			if (!strcmp(command_docs[j]->name, commands[i].name))
				cmds[i + 1] = command_docs[j];
		if (!cmds[i + 1]) {
			memset(&bare[i], 0, sizeof bare[i]);
			bare[i].name = commands[i].name;
			bare[i].synopsis = "[OPTIONS] ...";
			bare[i].what = commands[i].what;
			bare[i].file_operand = true;
			cmds[i + 1] = &bare[i];
		}
	}
	if (sv_cli_write_doc(stdout, (enum sv_cli_doc)kind, cmds,
		    MAIN_NCOMMANDS + 1) < 0 ||
		fflush(stdout) != 0) {
		fputs("scopeview: cannot write to standard output\n", stderr);
		return SV_EXIT_LOAD;
	}
	return SV_EXIT_OK;
}

static void main_usage(FILE *out)
{
	size_t i;
	fputs("usage: scopeview [OPTIONS] [FILE]\n"
	      "       scopeview COMMAND [OPTIONS] ...\n\n"
	      "A terminal timeline viewer for scope-profiler profiles.\n"
	      "With no FILE the viewer opens a built-in demo profile.\n\n"
	      "Commands:\n",
		out);
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name,
			commands[i].what);
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
	if (argc > 1 && !strncmp(argv[1], "--completion=", 13))
		return strcmp(argv[1] + 13, "scdoc")
			       ? main_write_doc(argv[1] + 13)
			       : sv_cli_usage_error(
					 NULL, "--completion=bash|zsh|fish");
	if (argc > 1 && !strcmp(argv[1], "--list-options=scdoc"))
		return main_write_doc("scdoc");
	if (argc > 1) {
		for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
			if (!strcmp(argv[1], commands[i].name))
				return commands[i].run(argc - 1, argv + 1);
	}
	return sv_view_main(argc, argv);
}
