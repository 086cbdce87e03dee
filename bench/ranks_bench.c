/*
 * ranks_bench.c: the speed figures of issue 11.  For the region with the
 * most calls of a profile (default /tmp/big10m.h5, written by `scopeview
 * gen --events 10M --ranks 16 --seed 1`, generated here when missing):
 * the time to collect and sort its call list (longest first) as
 * `scopeview calls` does and to bin it by the histogram's general path;
 * then, through the viewer's own code (view, session, worker), the time
 * from marking the region to its call list drawn, to its histogram
 * drawn, and to a bin's calls listed (the targets); then the time to build the ranks inside it (the timeline's strip) and
 * to count them for 160 columns; then, for a 1,000-rank profile built in
 * memory, the time to draw the ranks view's frame once the matrix is
 * computed, and the timeline's rank rows with the strip.
 *
 * usage: ranks_bench [FILE]
 * Prints one line per figure with the target.  Not a test: nothing here
 * fails on a slow machine.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "scopeview/action.h"
#include "scopeview/calls.h"
#include "scopeview/gen.h"
#include "scopeview/grid.h"
#include "scopeview/histogram.h"
#include "scopeview/load.h"
#include "scopeview/ranks.h"
#include "scopeview/session.h"
#include "scopeview/view.h"

#include "bench_clock.h"

/* This thread's CPU time (without what the scheduler gave others). */
static double bench_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Wait, polling as the viewer's loop does, until the view shown has what
 * it draws: the session's lists are in and no view's job runs (the
 * highlight index of the marked calls may still be coming: all when all
 * is set). */
static void bench_settle(struct sv_view *v, bool all)
{
	for (;;) {
		struct timespec ts = {0, 200000};
		sv_view_poll(v);
		if (!sv_view_busy(v) ||
			(!all && !sv_session_matches_pending(&v->s) &&
				!sv_jobs_busy(&v->s.jobs)))
			return;
		nanosleep(&ts, NULL);
	}
}

/* What the viewer does from a selection, through its own code: the region
 * marked (its calls on the lanes shown collected and sorted longest first
 * on a worker, the highlight index after them) and the call list shown;
 * then the histogram shown; then a bin's calls listed (Enter). */
static void bench_session(const struct sv_profile *p, uint32_t best)
{
	struct sv_view v;
	struct sv_error err = {0};
	struct sv_grid g;
	double t0, t1, t2, t3, t4, t5;
	int k;

	if (sv_view_init(&v, p, NULL, &err) < 0) {
		fprintf(stderr, "ranks_bench: %s\n", err.msg);
		return;
	}
	sv_view_resize(&v, 160, 45);
	sv_grid_init(&g);
	sv_grid_resize(&g, 160, 45);
	t0 = bench_now();
	sv_session_mark_region(&v.s, (long)best);
	sv_view_switch(&v, "calls");
	bench_settle(&v, false);
	sv_render(&g, &v);
	t1 = bench_now();
	bench_settle(&v, true);
	t5 = bench_now();
	sv_view_switch(&v, "histogram");
	bench_settle(&v, false);
	sv_render(&g, &v);
	t2 = bench_now();
	for (k = 0; k < 8; k++) /* a bin in the middle: the fullest */
		sv_view_apply(&v, SV_ACTION_LIST_DOWN);
	t3 = bench_now();
	sv_view_apply(&v, SV_ACTION_LIST_ENTER);
	bench_settle(&v, false);
	sv_render(&g, &v);
	t4 = bench_now();
	printf("viewer: region marked and its call list drawn (%zu calls, "
	       "longest first) %.3f s (its highlights on the timeline after "
	       "%.3f s); histogram drawn %.3f s; a bin's calls listed %.3f s "
	       "(target <= 0.3 s each)\n",
		sv_session_nmarked(&v.s), t1 - t0, t5 - t0, t2 - t5, t4 - t3);
	sv_grid_fini(&g);
	sv_view_fini(&v);
}

static int bench_big(const char *path)
{
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	struct sv_hist h;
	uint64_t *count;
	uint32_t *calls = NULL, best = 0, r;
	size_t i;
	long n;
	double t0, t1, t2, t3, c0, c1, c2;

	if (sv_load(path, NULL, &p, &err) < 0) {
		fprintf(stderr, "ranks_bench: %s\n", err.msg);
		return 1;
	}
	count = calloc(p->nregions + 1, sizeof *count);
	for (i = 0; i < p->nrows; i++)
		count[p->rows[i].region] += p->rows[i].count;
	for (r = 0; r < p->nregions; r++)
		if (count[r] > count[best])
			best = r;
	printf("%s: %" PRIu32 " calls; region '%s' has %" PRIu64 " calls\n",
		path, p->ncalls, p->regions[best], count[best]);
	t0 = bench_now();
	c0 = bench_cpu();
	n = sv_calls_of_region(p, best, NULL, 0, &calls, NULL);
	t1 = bench_now();
	sv_calls_sort(p, calls, (size_t)n, SV_CALLS_KEY_DURATION, false, NULL);
	t2 = bench_now();
	c1 = bench_cpu();
	printf("calls --region (the command's path): collect %.3f s + sort "
	       "longest first %.3f s = %.3f s, CPU %.3f s\n",
		t1 - t0, t2 - t1, t2 - t0, c1 - c0);
	t2 = bench_now();
	c1 = bench_cpu();
	/* The general path, which reads every call's columns: the list as
	 * a search gives it would be by start; a longest-first one is the
	 * worst case (at random).  The views take the longest-first path
	 * (bench_session). */
	sv_hist_build(&h, p, calls, (size_t)n, 24, NULL, NULL);
	t3 = bench_now();
	c2 = bench_cpu();
	printf("histogram, general path on that list: 24 bins of %ld calls "
	       "with their call lists %.3f s, CPU %.3f s\n",
		n, t3 - t2, c2 - c1);
	sv_hist_fini(&h);
	{
		/* The timeline's strip: the ranks inside the region, built
		 * once per selection, then counted per column each frame. */
		struct sv_ranks_inside ri;
		uint32_t sum = 0;
		double bestc = 0;
		int64_t base;
		int x, k;
		t2 = bench_now();
		sv_ranks_inside_build(&ri, p, best, NULL, 0, NULL, NULL);
		t3 = bench_now();
		printf("ranks inside '%s': built in %.3f s for %" PRIu32
		       " ranks (once per selection, on a worker)\n",
			p->regions[best], t3 - t2, ri.nranks);
		/* From the region's first call: of a run, else an
		 * interval. */
		base = ri.nruns ? sv_profile_start(p, ri.run[0].a)
		       : ri.t0  ? ri.t0[0]
				: 0;
		for (k = 0; k < 10; k++) {
			sum = 0;
			t2 = bench_now();
			for (x = 0; x < 160; x++)
				sum += sv_ranks_inside_count(&ri,
					base + (int64_t)x * 4000000,
					base + (int64_t)(x + 1) * 4000000);
			t3 = bench_now();
			if (!k || t3 - t2 < bestc)
				bestc = t3 - t2;
		}
		printf("ranks strip of 160 columns counted in %.3f ms, best of "
		       "10 (%" PRIu32 " rank-columns inside)\n",
			bestc * 1e3, sum);
		sv_ranks_inside_fini(&ri);
	}
	free(calls);
	bench_session(p, best);
	free(count);
	sv_profile_free(p);
	return 0;
}

/* The best of 50 frames of v into g, in seconds. */
static double bench_frame(struct sv_grid *g, struct sv_view *v)
{
	double t0, t1, best = 1e9;
	int k;

	for (k = 0; k < 50; k++) {
		sv_grid_clear(g);
		t0 = bench_now();
		sv_render(g, v);
		t1 = bench_now();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	return best;
}

/* 1,000 ranks x 20 regions, one call of each region per rank. */
static int bench_matrix(void)
{
	struct sv_profile *p = sv_profile_new("ranks1000");
	struct sv_view v;
	struct sv_error err;
	struct sv_grid g;
	uint32_t rank, reg;
	char name[32];
	double t0, t1, best;

	p->has_calls = true;
	for (reg = 0; reg < 20; reg++) {
		snprintf(name, sizeof name, "region_%02" PRIu32, reg);
		sv_profile_add_region(p, name);
	}
	for (rank = 0; rank < 1000; rank++)
		for (reg = 0; reg < 20; reg++) {
			struct sv_row *row =
				sv_profile_add_row(p, rank, reg, 1, NULL);
			p->start_ns[row->first] = (int64_t)reg * 1000000;
			p->end_ns[row->first] =
				(int64_t)reg * 1000000 + 1000 +
				(int64_t)((rank * 7919 + reg) % 997);
		}
	sv_profile_finish(p, NULL);
	if (sv_view_init(&v, p, NULL, &err) < 0) {
		fprintf(stderr, "ranks_bench: %s\n", err.msg);
		return 1;
	}
	sv_view_resize(&v, 200, 60);
	t0 = bench_now();
	sv_view_switch(&v, "ranks");
	t1 = bench_now();
	printf("ranks matrix of 1000 ranks x 20 regions: computed in %.2f ms\n",
		(t1 - t0) * 1e3);
	sv_grid_init(&g);
	sv_grid_resize(&g, 200, 60);
	best = bench_frame(&g, &v);
	printf("ranks view frame (200x60, grouped rows): best of 50 %.3f ms "
	       "(target < 2 ms)\n",
		best * 1e3);
	sv_view_apply(&v, SV_ACTION_RANKS_WORST); /* a group expanded */
	best = bench_frame(&g, &v);
	printf("ranks view frame, a group expanded: best of 50 %.3f ms "
	       "(target < 2 ms)\n",
		best * 1e3);
	/* The timeline's rank rows of the same ranks, region_00 marked: a
	 * label bar and a row a rank, and the strip below them. */
	sv_view_switch(&v, "timeline");
	sv_session_mark_region(&v.s, 0);
	sv_view_apply(&v, SV_ACTION_RANK_ROWS);
	best = bench_frame(&g, &v);
	printf("timeline rank rows of 1000 ranks with the strip (200x60): "
	       "best of 50 %.3f ms\n",
		best * 1e3);
	sv_grid_fini(&g);
	sv_view_fini(&v);
	sv_profile_free(p);
	return 0;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/tmp/big10m.h5";
	struct stat st;
	int rc = 0;

	if (stat(path, &st) != 0) {
		struct sv_gen_opts o;
		struct sv_error err = {0};
		sv_gen_opts_init(&o);
		o.events = 10000000;
		o.ranks = 16;
		o.seed = 1;
		printf("writing %s\n", path);
		if (sv_gen_write(path, &o, NULL, NULL, &err) < 0) {
			fprintf(stderr, "ranks_bench: %s\n", err.msg);
			return 1;
		}
	}
	rc |= bench_big(path);
	rc |= bench_matrix();
	return rc;
}
