/*
 * study_bench.c: the speed figures of issue 38, against baselines
 * measured in the same run.
 *
 *     build/bench/study_bench [--dir DIR] [--exe SCOPEVIEW] [--runs N]
 *
 * - scaling: `scopeview scaling --format json` over 16 runs of 1M calls
 *   (`scopeview gen --strong-scaling 1` at 1, 2, 4, 8 and 16 ranks in
 *   turn, seeds 1-16), as a child process: its wall time and peak RSS;
 *   the baseline is `scopeview summary` of each of the 16 files in turn,
 *   the same reads (summed wall time, largest peak).  Targets: under 5 s
 *   and 1 GB.
 * - trend: sv_trend_compute of kernel:spmv of a 16-rank run of 18M calls
 *   (`gen --events 18M`, about 10.3M calls of that region), in this
 *   process once it is loaded: its time and the memory it adds (VmHWM
 *   after a reset, less VmRSS before); the baseline is what `calls
 *   --region` does with the same calls (sv_calls_of_region and a sort by
 *   duration).  Target: under 1 s.
 *
 * The files are written into DIR (default /tmp/scopeview-study) when
 * missing and kept: about 80 MB for the 16 runs, 80 MB for the big one.
 * Each figure is the fastest of N runs (default 3).  Prints one markdown
 * table; figures are read, not asserted: the exit status is 0 whenever
 * everything could be measured.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scopeview/calls.h"
#include "scopeview/gen.h"
#include "scopeview/load.h"
#include "scopeview/trend.h"

#include "bench_clock.h"
#include "bench_mem.h"

#define SB_RUNS 16

/* Write path with opts o unless it is there. */
static int sb_gen(const char *path, struct sv_gen_opts *o)
{
	struct sv_error err = {0};
	struct stat st;

	if (stat(path, &st) == 0)
		return 0;
	fprintf(stderr, "study_bench: writing %s\n", path);
	if (sv_gen_write(path, o, NULL, NULL, &err) < 0) {
		fprintf(stderr, "study_bench: %s\n", err.msg);
		return -1;
	}
	return 0;
}

/* Run argv[] with stdout to /dev/null: its wall time (s) and peak RSS
 * (bytes); -1 when it did not exit 0. */
static double sb_child(char *const *argv, double *rss)
{
	struct rusage ru;
	double t0 = bench_now(), t;
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
		WEXITSTATUS(status) != 0) {
		fprintf(stderr, "study_bench: %s %s failed\n", argv[0],
			argv[1]);
		return -1;
	}
	t = bench_now() - t0;
	*rss = (double)ru.ru_maxrss * 1024.0;
	return t;
}

struct sb_fig {
	double s, rss;           /* the figure: seconds, bytes */
	double base_s, base_rss; /* its baseline */
};

static int sb_scaling(
	const char *dir, const char *exe, int runs, struct sb_fig *fig)
{
	char *paths[SB_RUNS], *argv[SB_RUNS + 5];
	int k, r, rc = 0;

	for (k = 0; k < SB_RUNS && !rc; k++) {
		struct sv_gen_opts o;
		paths[k] = sv_xasprintf("%s/run-%02d.h5", dir, k + 1);
		sv_gen_opts_init(&o);
		o.events = 1000000;
		o.ranks = 1u << (k % 5);
		o.scale_ranks = 1;
		o.seed = (uint64_t)k + 1;
		rc = sb_gen(paths[k], &o);
	}
	fig->s = fig->base_s = 1e300;
	for (r = 0; r < runs && !rc; r++) {
		double t, rss, sum = 0, peak = 0;
		argv[0] = (char *)exe;
		argv[1] = (char *)"scaling";
		argv[2] = (char *)"--format";
		argv[3] = (char *)"json";
		for (k = 0; k < SB_RUNS; k++)
			argv[4 + k] = paths[k];
		argv[4 + SB_RUNS] = NULL;
		t = sb_child(argv, &rss);
		if (t < 0) {
			rc = -1;
			break;
		}
		if (t < fig->s) {
			fig->s = t;
			fig->rss = rss;
		}
		for (k = 0; k < SB_RUNS && !rc; k++) {
			char *one[4] = {
				(char *)exe, (char *)"summary", paths[k], NULL};
			t = sb_child(one, &rss);
			rc = t < 0 ? -1 : 0;
			sum += t;
			peak = rss > peak ? rss : peak;
		}
		if (!rc && sum < fig->base_s) {
			fig->base_s = sum;
			fig->base_rss = peak;
		}
	}
	for (k = 0; k < SB_RUNS; k++)
		free(paths[k]);
	return rc;
}

static int sb_trend(
	const char *dir, int runs, struct sb_fig *fig, uint64_t *ncalls)
{
	char *path = sv_xasprintf("%s/big-18m.h5", dir);
	struct sv_profile *p = NULL;
	struct sv_gen_opts o;
	struct sv_error err = {0};
	int64_t region;
	int r, rc = 0;

	sv_gen_opts_init(&o);
	o.events = 18000000;
	o.ranks = 16;
	if (sb_gen(path, &o) < 0 || sv_load(path, NULL, &p, &err) < 0) {
		if (err.msg[0])
			fprintf(stderr, "study_bench: %s\n", err.msg);
		free(path);
		return -1;
	}
	region = sv_profile_find_region(p, "kernel:spmv");
	fig->s = fig->base_s = 1e300;
	for (r = 0; r < runs && region >= 0 && !rc; r++) {
		struct sv_trend t;
		uint32_t *calls = NULL;
		double t0, t1, before;
		long n;

		before = bench_status_bytes("VmRSS");
		bench_reset_peak();
		t0 = bench_now();
		rc = sv_trend_compute(&t, p, (uint32_t)region, NULL, &err);
		t1 = bench_now();
		if (rc < 0) {
			fprintf(stderr, "study_bench: %s\n", err.msg);
			break;
		}
		if (t1 - t0 < fig->s) {
			fig->s = t1 - t0;
			fig->rss = bench_status_bytes("VmHWM") - before;
		}
		*ncalls = t.off[t.nranks];
		sv_trend_fini(&t);

		t0 = bench_now();
		n = sv_calls_of_region(
			p, (uint32_t)region, NULL, 0, &calls, NULL);
		sv_calls_sort(p, calls, n > 0 ? (size_t)n : 0,
			SV_CALLS_KEY_DURATION, false, NULL);
		t1 = bench_now();
		free(calls);
		if (t1 - t0 < fig->base_s)
			fig->base_s = t1 - t0;
	}
	sv_profile_free(p);
	free(path);
	return region < 0 ? -1 : rc;
}

int main(int argc, char **argv)
{
	const char *dir = "/tmp/scopeview-study";
	char exe[PATH_MAX];
	struct sb_fig sc = {0}, tr = {0};
	uint64_t ncalls = 0;
	int runs = 3, i;

	snprintf(exe, sizeof exe, "%s", argv[0]);
	if (strrchr(exe, '/'))
		snprintf(strrchr(exe, '/'),
			sizeof exe - (size_t)(strrchr(exe, '/') - exe),
			"/../scopeview");
	else
		snprintf(exe, sizeof exe, "scopeview");
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--exe") && i + 1 < argc)
			snprintf(exe, sizeof exe, "%s", argv[++i]);
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
		else {
			fprintf(stderr, "usage: study_bench [--dir DIR] "
					"[--exe SCOPEVIEW] [--runs N]\n");
			return 2;
		}
	}
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "study_bench: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	if (sb_scaling(dir, exe, runs, &sc) < 0 ||
		sb_trend(dir, runs, &tr, &ncalls) < 0)
		return 1;
	printf("| measure | target | figure | baseline | ratio | met |\n"
	       "|---|---|---|---|---|---|\n");
	printf("| scaling, 16 runs of 1M calls: time | < 5 s | %.2f s | "
	       "%.2f s (16 x summary) | %.2fx | %s |\n",
		sc.s, sc.base_s, sc.s / sc.base_s, sc.s < 5 ? "yes" : "no");
	printf("| scaling, 16 runs of 1M calls: peak RSS | < 1 GB | %.0f MB | "
	       "%.0f MB (largest summary) | %.2fx | %s |\n",
		sc.rss / 1048576, sc.base_rss / 1048576, sc.rss / sc.base_rss,
		sc.rss < 1e9 ? "yes" : "no");
	printf("| trend, %.1fM calls of kernel:spmv: time | < 1 s | %.3f s | "
	       "%.3f s (calls --region: collect, sort) | %.2fx | %s |\n",
		(double)ncalls / 1e6, tr.s, tr.base_s, tr.s / tr.base_s,
		tr.s < 1 ? "yes" : "no");
	printf("| trend: memory beyond the profile | - | %.0f MB | - | - | - "
	       "|\n",
		tr.rss / 1048576);
	return 0;
}
