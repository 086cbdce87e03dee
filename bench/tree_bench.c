/*
 * tree_bench.c: how long the call tree and the flame graph take to build
 * on a large profile, for the whole run and for a window, and what a
 * frame of the tree and flame views costs once built.
 *
 * usage: tree_bench [--size WxH] [--frames N] FILE
 * FILE is a profile such as `scopeview gen --events 10M --ranks 16 --seed 1
 * /tmp/big10m.h5`.  Prints one line per figure: the tree of the whole run
 * (recursion collapsed and expanded, the latter being what the collapsed
 * export and a level-by-level flame graph use), the tree of a window of
 * 1% of the run in its middle, the same builds as the views make them
 * (key to finished tree, in the background thread), and the median and
 * worst frame of each view.  Targets: a build of the whole run <= 0.5 s,
 * a frame < 2 ms.  Not a test: nothing here fails on a slow machine.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "scopeview/callpath.h"
#include "scopeview/grid.h"
#include "scopeview/keys.h"
#include "scopeview/load.h"
#include "scopeview/view.h"

#include "bench_clock.h"

/* This thread's CPU time: a frame's own cost, without the time the
 * scheduler gave other processes (a shared machine preempts a frame for
 * several ms now and then). */
static double bench_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Build the tree of p over sc (best of three) and print the time. */
static void bench_build(const struct sv_profile *p,
	const struct sv_callpath_scope *sc, const char *what)
{
	double best = 1e9;
	uint64_t calls = 0;
	uint32_t nodes = 0;
	int k;

	for (k = 0; k < 3; k++) {
		struct sv_callpath t;
		double t0 = bench_now(), dt;
		if (sv_callpath_build(&t, p, sc, NULL) < 0) {
			fprintf(stderr, "tree_bench: build failed\n");
			exit(1);
		}
		dt = bench_now() - t0;
		if (dt < best)
			best = dt;
		calls = t.calls;
		nodes = t.nnodes;
		sv_callpath_fini(&t);
	}
	printf("%-44s %8.3f s  (%" PRIu64 " calls, %" PRIu32 " paths)\n", what,
		best, calls, nodes);
}

/* Press key on v, then wait until the view's background build is done:
 * the time from the key to the finished tree. */
static double bench_view_build(struct sv_view *v, int key)
{
	double t0 = bench_now();
	sv_view_handle_key(v, key);
	while (sv_view_busy(v)) {
		sv_view_poll(v);
		if (sv_view_busy(v))
			usleep(500);
	}
	return bench_now() - t0;
}

/* Median and worst of frames renders of v. */
static void bench_frames(struct sv_view *v, int frames, const char *what)
{
	struct sv_grid g;
	double *ft = malloc((size_t)frames * sizeof *ft);
	double *ct = malloc((size_t)frames * sizeof *ct);
	int i;

	sv_grid_init(&g);
	sv_render(&g, v);
	for (i = 0; i < frames; i++) {
		double t0 = bench_now(), c0 = bench_cpu();
		sv_render(&g, v);
		ft[i] = bench_now() - t0;
		ct[i] = bench_cpu() - c0;
		if (i % 2)
			sv_view_handle_key(v, 'j');
		else
			sv_view_handle_key(v, 'k');
	}
	qsort(ft, (size_t)frames, sizeof *ft, bench_cmp_double);
	qsort(ct, (size_t)frames, sizeof *ct, bench_cmp_double);
	printf("%-44s %8.3f ms median, %.3f ms worst (%d frames)\n", what,
		ft[frames / 2] * 1e3, ft[frames - 1] * 1e3, frames);
	printf("%-44s %8.3f ms median, %.3f ms worst\n", "  its CPU time",
		ct[frames / 2] * 1e3, ct[frames - 1] * 1e3);
	sv_grid_fini(&g);
	free(ft);
	free(ct);
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	int w = 200, h = 50, frames = 200, i;
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	struct sv_callpath_scope sc;
	struct sv_view v;
	int64_t t0, t1;
	double t;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--size") && i + 1 < argc)
			sscanf(argv[++i], "%dx%d", &w, &h);
		else if (!strcmp(argv[i], "--frames") && i + 1 < argc)
			frames = atoi(argv[++i]);
		else
			path = argv[i];
	}
	if (!path || frames < 1) {
		fprintf(stderr, "usage: tree_bench [--size WxH] [--frames N] "
				"FILE\n");
		return 2;
	}
	t = bench_now();
	if (sv_load(path, NULL, &p, &err) < 0) {
		fprintf(stderr, "tree_bench: %s\n", err.msg);
		return 1;
	}
	printf("%s: %" PRIu32 " calls, %zu lanes, loaded in %.2f s\n", path,
		p->ncalls, p->nlanes, bench_now() - t);

	memset(&sc, 0, sizeof sc);
	bench_build(p, &sc, "tree, whole run (recursion collapsed)");
	sc.expand_recursion = true;
	bench_build(p, &sc, "tree, whole run (recursion expanded)");
	t0 = sv_profile_min_start(p);
	t1 = sv_profile_max_end(p);
	memset(&sc, 0, sizeof sc);
	sc.has_range = true;
	sc.t0 = t0 + (t1 - t0) / 2;
	sc.t1 = sc.t0 + (t1 - t0) / 100;
	bench_build(p, &sc, "tree, window of 1% of the run");

	if (sv_view_init(&v, p, NULL, &err) < 0) {
		fprintf(stderr, "tree_bench: %s\n", err.msg);
		return 1;
	}
	sv_view_resize(&v, w, h);
	printf("%-44s %8.3f s\n", "call tree view: T to finished tree",
		bench_view_build(&v, 'T'));
	sv_view_handle_key(&v, '*');
	bench_frames(&v, frames, "call tree view frame (all open)");
	printf("%-44s %8.3f s\n", "flame view: F to finished graph",
		bench_view_build(&v, 'F'));
	bench_frames(&v, frames, "flame graph frame");
	sv_view_fini(&v);
	sv_profile_free(p);
	return 0;
}
