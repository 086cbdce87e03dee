/*
 * mpi_main.c: scopeview-mpi, the report commands of scopeview on every
 * process of an MPI job (`mpirun -n N scopeview-mpi COMMAND ARGS`).  Each
 * command is scopeview's own (the same option table, parser, messages
 * and exit status) run with the job's engine (dist.h); only process 0
 * prints.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "scopeview/cli.h"
#include "scopeview/dist.h"
#include "scopeview/heap.h"

static void main_usage(FILE *out)
{
	size_t i;

	fputs("usage: mpirun -n N scopeview-mpi COMMAND [OPTIONS] ...\n\n"
	      "scopeview's report commands run by every process of an MPI\n"
	      "job: each process reads its share of the profile's ranks,\n"
	      "and process 0 prints what 'scopeview COMMAND' prints.\n\n"
	      "Commands:\n",
		out);
	for (i = 0; i < sv_dist_ncommands; i++) {
		size_t c;
		for (c = 0; c < sv_cli_ncommands; c++)
			if (!strcmp(sv_cli_commands[c]->name,
				    sv_dist_commands[i]))
				fprintf(out, "  %-10s %s\n",
					sv_cli_commands[c]->name,
					sv_cli_commands[c]->what);
	}
	fputs("\nRun 'scopeview-mpi COMMAND --help' for a command's options.\n"
	      "Exit status: 0 success, 1 a profile could not be read,\n"
	      "2 a command-line mistake, 3 'diff --fail-above' or\n"
	      "'--fail-on-new' found a regression; the same on every\n"
	      "process.\n",
		out);
}

/* The command of argv[1], if scopeview-mpi runs it. */
static const struct sv_cli_command *main_command(const char *name)
{
	size_t i, c;

	for (i = 0; i < sv_dist_ncommands; i++)
		if (!strcmp(name, sv_dist_commands[i]))
			for (c = 0; c < sv_cli_ncommands; c++)
				if (!strcmp(sv_cli_commands[c]->name, name))
					return sv_cli_commands[c];
	return NULL;
}

/* Whether name is a command of scopeview that scopeview-mpi does not run
 * (the viewer, convert...). */
static bool main_serial_only(const char *name)
{
	size_t c;

	for (c = 0; c < sv_cli_ncommands; c++)
		if (sv_cli_commands[c]->name &&
			!strcmp(sv_cli_commands[c]->name, name))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	const struct sv_cli_command *cmd;
	int rc;

	sv_heap_init();
	if (sv_dist_init(&argc, &argv) < 0) {
		fputs("scopeview-mpi: cannot start MPI\n", stderr);
		return SV_EXIT_LOAD;
	}
	if (sv_dist_rank() != 0)
		sv_cli_quiet();
	sv_cli_engine = &sv_dist_engine;
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		main_usage(argc < 2 ? stderr : stdout);
		rc = argc < 2 ? SV_EXIT_USAGE : SV_EXIT_OK;
	} else if (!(cmd = main_command(argv[1]))) {
		if (main_serial_only(argv[1]))
			sv_cli_eprintf("scopeview-mpi: '%s' is not split over "
				       "an MPI job (yet): run 'scopeview %s'",
				argv[1], argv[1]);
		else
			sv_cli_eprintf("scopeview-mpi: unknown command '%s' "
				       "(run 'scopeview-mpi --help')",
				argv[1]);
		rc = SV_EXIT_USAGE;
	} else {
		rc = sv_cli_run(cmd, argc - 1, argv + 1);
	}
	fflush(stdout);
	sv_dist_end();
	return rc;
}
