/*
 * formats_bench.c: how fast the readers of doc/format.md 16 make a
 * profile ready, against the gzip HDF5 file of the same calls measured
 * in the same run (bench/formats.sh writes the files).
 *
 *     formats_bench [--runs N] [--phases] BASELINE.h5 LABEL=PATH...
 *
 * For each input, the best of N loads (round after round, every input
 * once a round) (the viewer's: packed columns)
 * through sv_load: "read" is the time until the reader is done (the
 * loader's "nesting" step), "ready" until the profile is finished; MB/s
 * is the input's bytes (uncompressed text for .json.gz) over "read", on
 * one core for JSON (the parse is one thread).  Prints a markdown table
 * and one line per target: ready no later than the gzip HDF5 file
 * (ratio <= 1.00) for traces, >= 100 MB/s a core for JSON.  The CPU
 * time of each load (every thread; the best round) is beside it: on a
 * machine shared with others it varies less than the wall time.  --phases
 * prints on stderr when each step of every load began.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <zlib.h>

#include "bench_clock.h"
#include "scopeview/load.h"

struct fb_run {
	double t0, read;
	const char *last; /* with --phases: the step under way */
	bool phases;
};

static void fb_progress(void *ctx, double f, const char *what)
{
	struct fb_run *r = ctx;
	(void)f;
	if (what && !strcmp(what, "nesting") && r->read == 0)
		r->read = bench_now() - r->t0;
	if (r->phases && what && (!r->last || strcmp(r->last, what))) {
		fprintf(stderr, "  %.3f s: %s\n", bench_now() - r->t0, what);
		r->last = what;
	}
}

static bool fb_phases;

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

/* CPU seconds of this process so far (every thread, user + system). */
static double fb_cpu(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 +
	       (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec / 1e6;
}

/* One load of path: its read and ready times, its CPU time, its calls. */
static int fb_once(const char *path, double *read, double *ready, double *cpu,
	uint32_t *calls)
{
	struct fb_run r = {0};
	struct sv_load_opts o = {0};
	struct sv_profile *p = NULL;
	struct sv_error e = {0};

	o.progress = fb_progress;
	o.ctx = &r;
	o.pack = true;
	o.pack_min_calls = SV_PACK_MIN_CALLS;
	r.phases = fb_phases;
	*cpu = fb_cpu();
	r.t0 = bench_now();
	if (sv_load(path, &o, &p, &e) != 0) {
		fprintf(stderr, "formats_bench: %s\n", e.msg);
		return -1;
	}
	*ready = bench_now() - r.t0;
	*cpu = fb_cpu() - *cpu;
	*read = r.read ? r.read : *ready;
	*calls = p->ncalls;
	sv_profile_free(p);
	return 0;
}

struct fb_input {
	const char *label, *path;
	double read, ready, cpu, mb;
	uint32_t calls;
	bool failed;
};

int main(int argc, char **argv)
{
	int runs = 3, a = 1, i, k, rc = 0;
	struct fb_input *in;
	int n;

	for (; a < argc && !strncmp(argv[a], "--", 2); a++) {
		if (!strcmp(argv[a], "--phases"))
			fb_phases = true;
		else if (!strcmp(argv[a], "--runs") && a + 1 < argc)
			runs = atoi(argv[++a]);
	}
	if (argc - a < 2) {
		fprintf(stderr, "usage: formats_bench [--runs N] [--phases] "
				"BASELINE.h5 LABEL=PATH...\n");
		return 2;
	}
	n = argc - a;
	in = calloc((size_t)n, sizeof *in);
	for (i = 0; i < n; i++) {
		char *eq = strchr(argv[a + i], '=');
		in[i].label = i ? argv[a + i] : "gzip HDF5 (baseline)";
		in[i].path = eq && i ? eq + 1 : argv[a + i];
		if (eq && i)
			*eq = '\0';
		in[i].read = in[i].ready = 1e30;
		in[i].mb = fb_bytes(in[i].path) / 1e6;
	}
	/* Round after round, every input once a round, so that a busy
	 * moment of the machine falls on all of them alike; the best of
	 * the rounds counts. */
	for (k = 0; k < runs; k++)
		for (i = 0; i < n; i++) {
			double rd, ry, cpu;
			if (in[i].failed)
				continue;
			if (fb_phases)
				fprintf(stderr, "%s:\n", in[i].label);
			if (fb_once(in[i].path, &rd, &ry, &cpu, &in[i].calls)) {
				in[i].failed = true;
				rc = 1;
				continue;
			}
			if (rd < in[i].read)
				in[i].read = rd;
			if (ry < in[i].ready)
				in[i].ready = ry;
			if (!k || cpu < in[i].cpu)
				in[i].cpu = cpu;
		}
	if (in[0].failed)
		return 1;
	printf("| input | calls | MB | read s | ready s | MB/s read | "
	       "ready / gzip HDF5 | CPU s (/ gzip HDF5) |\n"
	       "|---|---|---|---|---|---|---|---|\n");
	for (i = 0; i < n; i++) {
		double ratio = in[i].ready / in[0].ready;
		if (in[i].failed)
			continue;
		printf("| %s | %u | %.0f | %.2f | %.2f | %.0f | %.2f | %.2f "
		       "(%.2f) |\n",
			in[i].label, in[i].calls, in[i].mb, in[i].read,
			in[i].ready, in[i].mb / in[i].read, ratio, in[i].cpu,
			in[i].cpu / in[0].cpu);
	}
	for (i = 1; i < n; i++) {
		double mbs = in[i].mb / in[i].read;
		if (in[i].failed)
			continue;
		if (strstr(in[i].label, "spt"))
			printf("target %s: ready %.2fx the gzip HDF5 file's "
			       "(<= 1.00): %s\n",
				in[i].label, in[i].ready / in[0].ready,
				in[i].ready <= in[0].ready ? "met" : "NOT met");
		if (strstr(in[i].label, "json"))
			printf("target %s: %.0f MB/s of JSON text a core "
			       "(>= 100): %s\n",
				in[i].label, mbs,
				mbs >= 100 ? "met" : "NOT met");
	}
	free(in);
	return rc;
}
