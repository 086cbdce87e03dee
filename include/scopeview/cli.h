/*
 * cli.h: the subcommands of the scopeview program.  main.c picks one by
 * its first argument; each takes the arguments after the subcommand name
 * (argv[0] is the subcommand) and returns the process exit status:
 * 0 success, 1 a profile could not be read, 2 a command-line mistake.
 * These are the only library functions that print.
 */
#ifndef SCOPEVIEW_CLI_H
#define SCOPEVIEW_CLI_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_CLI)
#error "scopeview/cli.h belongs to the cli layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stdio.h>

#include "scopeview/common.h"

#define SV_EXIT_OK    0
#define SV_EXIT_LOAD  1
#define SV_EXIT_USAGE 2

/* Print "scopeview: <message>" and "usage: ..." to stderr; returns
 * SV_EXIT_USAGE. */
int sv_cli_usage_error(const char *usage, const char *fmt, ...) SV_PRINTF(2, 3);

/* The value of option name at argv[*i] ("--name VALUE" or
 * "--name=VALUE", advancing *i past VALUE); NULL when argv[*i] is not that
 * option, with *missing set when it is but its value is not there. */
const char *sv_cli_opt(
	int argc, char **argv, int *i, const char *name, bool *missing);

int sv_summary_main(int argc, char **argv);  /* summary.c */
int sv_ranks_main(int argc, char **argv);    /* cmd_ranks.c */
int sv_calls_main(int argc, char **argv);    /* cmd_calls.c */
int sv_gen_main(int argc, char **argv);      /* gen.c */
int sv_snapshot_main(int argc, char **argv); /* snapshot.c */
int sv_view_main(int argc, char **argv);     /* app.c: the viewer */

#endif
