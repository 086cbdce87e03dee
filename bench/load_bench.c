/*
 * load_bench.c: how fast scopeview opens a profile, against the anchor of
 * reading the same file's raw columns with h5py.  Run by hand:
 *
 *     build/bench/load_bench FILE [RUNS]
 *
 * Loads FILE RUNS times (default 3) with sv_load (columns, lanes, nesting
 * and exclusive time: everything the viewer needs before its first frame),
 * then runs bench/h5py_anchor.py on it as many times with /usr/bin/python3,
 * and prints the best time of each, their ratio and the peak resident set
 * size of the loads.  Both run on this machine in the same session, so the
 * ratio means something even on a noisy machine.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "scopeview/load.h"

#include "bench_clock.h"

#ifndef SV_BENCH_DIR
#define SV_BENCH_DIR "bench"
#endif

static double bench_anchor(const char *path)
{
	char cmd[4096];
	char out[64] = "";
	FILE *f;
	snprintf(cmd, sizeof cmd, "/usr/bin/python3 '%s/h5py_anchor.py' '%s'",
		SV_BENCH_DIR, path);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	if (!fgets(out, sizeof out, f))
		out[0] = '\0';
	if (pclose(f) != 0 || !out[0])
		return -1;
	return atof(out);
}

int main(int argc, char **argv)
{
	int runs = argc > 2 ? atoi(argv[2]) : 3, i;
	double best = 1e30, anchor = 1e30;
	struct rusage ru;
	uint32_t calls = 0;
	size_t lanes = 0;

	if (argc < 2 || runs < 1) {
		fprintf(stderr, "usage: load_bench FILE [RUNS]\n");
		return 2;
	}
	for (i = 0; i < runs; i++) {
		struct sv_profile *p = NULL;
		struct sv_error err = {0, ""};
		double t0 = bench_now(), t;
		if (sv_load(argv[1], NULL, &p, &err)) {
			fprintf(stderr, "load_bench: %s\n", err.msg);
			return 1;
		}
		t = bench_now() - t0;
		calls = p->ncalls;
		lanes = p->nlanes;
		sv_profile_free(p);
		printf("scopeview load %d: %.3f s\n", i + 1, t);
		if (t < best)
			best = t;
	}
	getrusage(RUSAGE_SELF, &ru);
	for (i = 0; i < runs; i++) {
		double t = bench_anchor(argv[1]);
		if (t < 0) {
			printf("h5py anchor: not available (/usr/bin/python3 "
			       "with h5py)\n");
			anchor = -1;
			break;
		}
		printf("h5py raw columns %d: %.3f s\n", i + 1, t);
		if (t < anchor)
			anchor = t;
	}
	printf("file: %s, %" PRIu32 " calls, %zu lanes\n", argv[1], calls,
		lanes);
	printf("best scopeview load (columns + lanes + nesting): %.3f s\n",
		best);
	if (anchor > 0)
		printf("best h5py raw column read: %.3f s; ratio "
		       "scopeview/h5py = %.2f\n",
			anchor, best / anchor);
	printf("peak RSS of the loads: %.0f MiB (%.1f bytes per call)\n",
		(double)ru.ru_maxrss / 1024.0,
		calls ? (double)ru.ru_maxrss * 1024.0 / calls : 0.0);
	return 0;
}
