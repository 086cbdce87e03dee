/*
 * fuzz_formats.c: libFuzzer harness for the readers of the files
 * scope-profiler writes besides HDF5 (doc/format.md 16): native traces,
 * JSON profiles plain and gzip, and directories of traces.
 *
 * The first byte of the input picks the form: the rest written as a
 * trace (.spt), as JSON, gzipped as JSON, or cut in two at a point the
 * second byte gives and written as two traces of one directory.  The
 * result is loaded through sv_load; a profile that loads goes through
 * statistics, the summary table and every view's layout and draw
 * (fuzz_common.c).  A failure must be one line of error, never a crash,
 * a hang or a sanitizer report.  Seeds: fuzz/corpus/formats/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "fuzz_common.h"
#include "scopeview/load.h"

static void fuzz_put(const char *path, const uint8_t *b, size_t n, bool gz)
{
	if (gz) {
		gzFile g = gzopen(path, "wb1");
		if (!g)
			abort();
		if (n)
			gzwrite(g, b, (unsigned)n);
		gzclose(g);
		return;
	}
	FILE *f = fopen(path, "wb");
	if (!f || (n && fwrite(b, 1, n, f) != n))
		abort();
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char trace[512], json[512], gz[512], dir[512], a[600], b[600];
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	const char *path;
	size_t cut;

	if (size < 2)
		return 0;
	if (!trace[0]) {
		fuzz_path(trace, sizeof trace, "f_rank00000.spt");
		fuzz_path(json, sizeof json, "f.json");
		fuzz_path(gz, sizeof gz, "f.json.gz");
		fuzz_path(dir, sizeof dir, "run");
		mkdir(dir, 0700);
		snprintf(a, sizeof a, "%s/a_rank0.spt", dir);
		snprintf(b, sizeof b, "%s/b_rank1.spt", dir);
	}
	switch (data[0] % 4) {
	case 0:
		fuzz_put(trace, data + 1, size - 1, false);
		path = trace;
		break;
	case 1:
		fuzz_put(json, data + 1, size - 1, false);
		path = json;
		break;
	case 2:
		fuzz_put(gz, data + 1, size - 1, true);
		path = gz;
		break;
	default:
		cut = 2 + (size > 2 ? (size_t)data[1] * (size - 2) / 256 : 0);
		fuzz_put(a, data + 2, cut - 2, false);
		fuzz_put(b, data + cut, size - cut, false);
		path = dir;
		break;
	}
	if (sv_load(path, NULL, &p, &e) == 0) {
		fuzz_exercise(p, 80, 24, NULL, 0);
		sv_profile_free(p);
	} else if (!e.msg[0] || strchr(e.msg, '\n')) {
		fprintf(stderr, "fuzz: load failed without one line: '%s'\n",
			e.msg);
		abort();
	}
	return 0;
}
