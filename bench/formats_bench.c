/*
 * formats_bench.c: how fast the readers of doc/format.md 16 make a
 * profile ready, against the gzip HDF5 file of the same calls measured
 * in the same run (bench/formats.sh writes the files).
 *
 *     formats_bench [--runs N] BASELINE.h5 LABEL=PATH...
 *
 * For each input, the best of N loads (the viewer's: packed columns)
 * through sv_load: "read" is the time until the reader is done (the
 * loader's "nesting" step), "ready" until the profile is finished; MB/s
 * is the input's bytes (uncompressed text for .json.gz) over "read", on
 * one core for JSON (the parse is one thread).  Prints a markdown table
 * and one line per target: ready no later than the gzip HDF5 file
 * (ratio <= 1.00) for traces, >= 100 MB/s a core for JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "bench_clock.h"
#include "scopeview/load.h"

struct fb_run {
	double t0, read;
};

static void fb_progress(void *ctx, double f, const char *what)
{
	struct fb_run *r = ctx;
	(void)f;
	if (what && !strcmp(what, "nesting") && r->read == 0)
		r->read = bench_now() - r->t0;
}

/* Bytes of the input: a file, a directory's files, or gzip's text. */
static double fb_bytes(const char *path)
{
	struct stat st;
	size_t n = strlen(path);
	if (n > 3 && !strcmp(path + n - 3, ".gz")) {
		gzFile g = gzopen(path, "rb");
		static char buf[1 << 20];
		double total = 0;
		int k;
		while (g && (k = gzread(g, buf, sizeof buf)) > 0)
			total += k;
		if (g)
			gzclose(g);
		return total;
	}
	if (stat(path, &st) != 0)
		return 0;
	if (S_ISDIR(st.st_mode)) {
		char cmd[4096];
		FILE *f;
		double total = 0;
		snprintf(cmd, sizeof cmd, "du -sb '%s'", path);
		f = popen(cmd, "r");
		if (f && fscanf(f, "%lf", &total) != 1)
			total = 0;
		if (f)
			pclose(f);
		return total;
	}
	return (double)st.st_size;
}

static int fb_measure(const char *path, int runs, double *read, double *ready,
	uint32_t *calls)
{
	int i;
	*read = *ready = 1e30;
	for (i = 0; i < runs; i++) {
		struct fb_run r = {0};
		struct sv_load_opts o = {0};
		struct sv_profile *p = NULL;
		struct sv_error e = {0};
		double t;
		o.progress = fb_progress;
		o.ctx = &r;
		o.pack = true;
		o.pack_min_calls = SV_PACK_MIN_CALLS;
		r.t0 = bench_now();
		if (sv_load(path, &o, &p, &e) != 0) {
			fprintf(stderr, "formats_bench: %s\n", e.msg);
			return -1;
		}
		t = bench_now() - r.t0;
		*calls = p->ncalls;
		sv_profile_free(p);
		if (t < *ready)
			*ready = t;
		if (r.read && r.read < *read)
			*read = r.read;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int runs = 3, a = 1, i, rc = 0;
	double base_read, base_ready;
	uint32_t calls;

	if (argc > 2 && !strcmp(argv[1], "--runs")) {
		runs = atoi(argv[2]);
		a = 3;
	}
	if (argc - a < 2) {
		fprintf(stderr, "usage: formats_bench [--runs N] BASELINE.h5 "
				"LABEL=PATH...\n");
		return 2;
	}
	if (fb_measure(argv[a], runs, &base_read, &base_ready, &calls))
		return 1;
	printf("| input | calls | MB | read s | ready s | MB/s read | "
	       "ready / gzip HDF5 |\n|---|---|---|---|---|---|---|\n");
	printf("| gzip HDF5 (baseline) | %u | %.0f | %.2f | %.2f | %.0f | "
	       "1.00 |\n",
		calls, fb_bytes(argv[a]) / 1e6, base_read, base_ready,
		fb_bytes(argv[a]) / 1e6 / base_read);
	for (i = a + 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		const char *path = eq ? eq + 1 : argv[i];
		double rd, ry, mb = fb_bytes(path) / 1e6;
		if (eq)
			*eq = '\0';
		if (fb_measure(path, runs, &rd, &ry, &calls)) {
			rc = 1;
			continue;
		}
		printf("| %s | %u | %.0f | %.2f | %.2f | %.0f | %.2f |\n",
			argv[i], calls, mb, rd, ry, mb / rd, ry / base_ready);
		if (strstr(argv[i], "spt"))
			printf("target %s: ready %.2fx the gzip HDF5 file's "
			       "(<= 1.00): %s\n",
				argv[i], ry / base_ready,
				ry <= base_ready ? "met" : "NOT met");
		if (strstr(argv[i], "json"))
			printf("target %s: %.0f MB/s of JSON text a core "
			       "(>= 100): %s\n",
				argv[i], mb / rd,
				mb / rd >= 100 ? "met" : "NOT met");
	}
	return rc;
}
