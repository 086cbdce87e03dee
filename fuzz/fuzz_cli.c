/*
 * fuzz_cli.c: libFuzzer harness for the command line's option values:
 * --ranks, --memory, --range, --fail-above, --threshold and --x.
 *
 * The input's first byte picks a command and one of its options (the
 * table below), the second how the value is given ("--opt=VALUE" or
 * "--opt VALUE"); the rest, up to its first NUL, is the value.  The
 * command line is parsed as `scopeview CMD` parses it and, for the
 * commands that only read profiles and print, run over small generated
 * profiles, so a value that parses goes all the way through the loader's
 * rank selection, the time range and the reports.  Whatever the value, the
 * result must be an exit status (0, 1, 2 or 3), never a crash, a hang
 * or a sanitizer report.  The viewer's options are parsed only (running
 * the viewer needs a terminal).  Output goes nowhere (-close_fd_mask=3
 * in fuzz/meson.build).  Seeds: fuzz/corpus/cli/ (fuzz/corpus.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "scopeview/cli.h"
#include "scopeview/common.h"

/* The most bytes of a value. */
#define FUZZ_VALUE_MAX 512

struct fuzz_case {
	const char *cmd; /* a command's name; "" for the viewer */
	const char *opt;
	int nfiles;       /* profiles after the option: 1 or 2 */
	const char *more; /* one more fixed word before the files, or NULL */
	bool run;         /* run it; else parse only */
};

static const struct fuzz_case fuzz_cases[] = {
	{"summary", "--ranks", 1, "--per-rank", true},
	{"tree", "--range", 1, NULL, true},
	{"tree", "--ranks", 1, NULL, true},
	{"export", "--range", 1, "--format=collapsed", true},
	{"diff", "--fail-above", 2, NULL, true},
	{"diff", "--threshold", 2, NULL, true},
	{"diff", "--ranks", 2, NULL, true},
	{"scaling", "--x", 2, NULL, true},
	{"scaling", "--ranks", 2, NULL, true},
	{"", "--memory", 1, NULL, false},
	{"", "--ranks", 1, NULL, false},
};
#define FUZZ_NCASES (sizeof fuzz_cases / sizeof fuzz_cases[0])

static char fuzz_files[2][512];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* Two runs of the same code at 2 and 4 ranks: diff and scaling
	 * compare them. */
	fuzz_path(fuzz_files[0], sizeof fuzz_files[0], "a.h5");
	fuzz_path(fuzz_files[1], sizeof fuzz_files[1], "b.h5");
	fuzz_gen(fuzz_files[0], 2, 2, 1, 300, 3);
	fuzz_gen(fuzz_files[1], 4, 1, 0, 300, 4);
	return 0;
}

static const struct sv_cli_command *fuzz_command(const char *name)
{
	size_t i;

	if (!*name)
		return &sv_cli_view_cmd;
	for (i = 1; i < sv_cli_ncommands; i++)
		if (!strcmp(sv_cli_commands[i]->name, name))
			return sv_cli_commands[i];
	fprintf(stderr, "fuzz: no command '%s'\n", name);
	abort();
}

/* Parse (and free) the arguments, as sv_cli_run does without running. */
static int fuzz_parse(const struct sv_cli_command *cmd, int argc, char **argv)
{
	void *a = calloc(1, cmd->size);
	int rc;

	if (!a)
		abort();
	if (cmd->init)
		cmd->init(a);
	rc = sv_cli_parse(cmd, argc, argv, a);
	if (cmd->fini)
		cmd->fini(a);
	free(a);
	return rc == SV_CLI_GO ? 0 : rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct fuzz_case *c;
	const struct sv_cli_command *cmd;
	char value[FUZZ_VALUE_MAX + 1], joined[FUZZ_VALUE_MAX + 32];
	char *argv[8];
	size_t n;
	int argc = 0, k, rc;

	if (size < 2)
		return 0;
	c = &fuzz_cases[data[0] % FUZZ_NCASES];
	cmd = fuzz_command(c->cmd);
	n = size - 2 < FUZZ_VALUE_MAX ? size - 2 : FUZZ_VALUE_MAX;
	memcpy(value, data + 2, n);
	value[n] = '\0';
	argv[argc++] = (char *)(*c->cmd ? c->cmd : "scopeview");
	if (data[1] & 1) {
		snprintf(joined, sizeof joined, "%s=%s", c->opt, value);
		argv[argc++] = joined;
	} else {
		argv[argc++] = (char *)c->opt;
		argv[argc++] = value;
	}
	if (c->more)
		argv[argc++] = (char *)c->more;
	for (k = 0; k < c->nfiles; k++)
		argv[argc++] = fuzz_files[k];
	argv[argc] = NULL;
	rc = c->run ? sv_cli_run(cmd, argc, argv) : fuzz_parse(cmd, argc, argv);
	if (rc < 0 || rc > SV_EXIT_REGRESSION) {
		fprintf(stderr, "fuzz: exit status %d\n", rc);
		abort();
	}
	return 0;
}
