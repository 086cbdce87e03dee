/*
 * fuzz_config.c: libFuzzer harness for the configuration file
 * (config.h): the input is a config file's bytes, read as the viewer
 * reads --config (sv_config_load: the input rule of infile.h, NUL bytes
 * left out, invalid UTF-8 as U+FFFD, the 1 MiB bound).  What it parsed
 * is applied (its key bindings), written back as --dump-config writes
 * it, and that text parsed again: it must parse without one error and
 * write the same text, as config.h promises.  Seeds: fuzz/corpus/config/
 * (fuzz/corpus.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "scopeview/action.h"
#include "scopeview/config.h"

/* c written as --dump-config writes it (malloc'd). */
static char *fuzz_dump(const struct sv_config *c)
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	if (!f)
		abort();
	sv_config_apply_bindings(c);
	if (sv_config_write(c, f) != 0) {
		fprintf(stderr, "fuzz: sv_config_write failed\n");
		abort();
	}
	if (fclose(f))
		abort();
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[512];
	struct sv_config c, again;
	struct sv_error e = {0};
	char *one, *two;
	FILE *f;
	int rc;

	if (!path[0])
		fuzz_path(path, sizeof path, "config");
	f = fopen(path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		abort();
	sv_action_reset_bindings();
	sv_config_init(&c);
	rc = sv_config_load(&c, path, true, &e);
	if (rc != 0 && (!e.msg[0] || strchr(e.msg, '\n'))) {
		fprintf(stderr, "fuzz: config load failed without one line\n");
		abort();
	}
	one = fuzz_dump(&c);
	sv_config_init(&again);
	if (sv_config_parse(&again, "dump", one) != 0) {
		fprintf(stderr, "fuzz: the dump does not parse: %s\n",
			again.errors.n ? again.errors.v[0] : "?");
		abort();
	}
	two = fuzz_dump(&again);
	if (strcmp(one, two)) {
		fprintf(stderr, "fuzz: the dump read back differs\n");
		abort();
	}
	free(one);
	free(two);
	sv_config_fini(&again);
	sv_config_fini(&c);
	sv_action_reset_bindings();
	return 0;
}
