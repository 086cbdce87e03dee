/*
 * export_bench.c: how long `scopeview export` takes in each format on a
 * large profile, and how much memory it needs beyond the loaded profile.
 *
 * usage: export_bench [--out DIR] FILE
 * FILE is a profile such as `scopeview gen --events 10M --ranks 16
 * --threads 2 --seed 1 /tmp/big10m.h5`.  Loads it once, then exports
 * every call in each format (chrome, speedscope, csv, and the folded
 * stacks) to /dev/null, or with --out to DIR/export.FORMAT (removed
 * afterwards: a 10M-call Chrome trace is some 2.7 GB).  Prints one line
 * per format: the seconds (wall, and CPU: on a shared machine the wall
 * time includes waiting for a core), calls per second, bytes written and the peak
 * resident memory during the export beyond what the loaded profile held
 * (Linux: VmHWM after /proc/self/clear_refs reset it, minus VmRSS before).
 * Target: a few seconds for 10 million calls and a bounded peak.  Not a
 * test: nothing here fails on a slow machine.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "scopeview/export.h"
#include "scopeview/load.h"

#include "bench_mem.h"

static double bench_clock(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double bench_now(void)
{
	return bench_clock(CLOCK_MONOTONIC);
}

/* A stream that counts what goes through it to the file under it. */
struct bench_count {
	FILE *f;
	uint64_t bytes;
};

static ssize_t bench_count_write(void *ctx, const char *buf, size_t n)
{
	struct bench_count *c = ctx;
	c->bytes += n;
	return fwrite(buf, 1, n, c->f) == n ? (ssize_t)n : -1;
}

static const struct {
	const char *name;
	int (*write)(FILE *, const struct sv_profile *,
		const struct sv_export_scope *, const char *,
		struct sv_error *);
} bench_formats[] = {
	{"chrome", sv_export_chrome},
	{"speedscope", sv_export_speedscope},
	{"csv", sv_export_csv},
	{"collapsed", sv_export_collapsed},
};

int main(int argc, char **argv)
{
	const char *path = NULL, *dir = NULL;
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	double t0;
	size_t f;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--out") && i + 1 < argc)
			dir = argv[++i];
		else
			path = argv[i];
	}
	if (!path) {
		fprintf(stderr, "usage: export_bench [--out DIR] FILE\n");
		return 2;
	}
	t0 = bench_now();
	if (sv_load(path, NULL, &p, &err) < 0) {
		fprintf(stderr, "export_bench: %s\n", err.msg);
		return 1;
	}
	printf("%s: %" PRIu32 " calls, %zu lanes, loaded in %.2f s, "
	       "resident %ld MB\n",
		path, p->ncalls, p->nlanes, bench_now() - t0,
		bench_status_kb("VmRSS") / 1024);
	for (f = 0; f < sizeof bench_formats / sizeof bench_formats[0]; f++) {
		char *out_path = dir ? sv_xasprintf("%s/export.%s", dir,
					       bench_formats[f].name)
				     : sv_xstrdup("/dev/null");
		struct bench_count cnt = {fopen(out_path, "w"), 0};
		cookie_io_functions_t io = {
			NULL, bench_count_write, NULL, NULL};
		FILE *out;
		long before, peak;
		double dt, cpu;
		int rc;

		if (!cnt.f) {
			perror(out_path);
			return 1;
		}
		out = fopencookie(&cnt, "w", io);
		bench_reset_peak();
		before = bench_status_kb("VmRSS");
		t0 = bench_now();
		cpu = bench_clock(CLOCK_PROCESS_CPUTIME_ID);
		rc = bench_formats[f].write(out, p, NULL, path, &err);
		fflush(out);
		dt = bench_now() - t0;
		cpu = bench_clock(CLOCK_PROCESS_CPUTIME_ID) - cpu;
		peak = bench_status_kb("VmHWM");
		fclose(out);
		fclose(cnt.f);
		if (rc < 0) {
			fprintf(stderr, "export_bench: %s: %s\n",
				bench_formats[f].name, err.msg);
			return 1;
		}
		printf("%-10s %6.2f s (cpu %5.2f s)  %5.2f M calls/s  %7.1f MB "
		       "written  peak +%.1f MB beyond the profile\n",
			bench_formats[f].name, dt, cpu,
			(double)p->ncalls / dt / 1e6, (double)cnt.bytes / 1e6,
			(double)(peak - before) / 1024);
		if (dir)
			unlink(out_path);
		free(out_path);
	}
	sv_profile_free(p);
	return 0;
}
