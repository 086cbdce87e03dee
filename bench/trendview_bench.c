/*
 * trendview_bench.c: the speed and memory of the trend view (`:view
 * trend`), beside what the `trend` command does with the same calls.
 *
 * For a region of a profile (default: the one with the most calls of
 * /tmp/scopeview-trend/slow10m.h5, written by `scopeview gen --events
 * 10M --ranks 16 --slowdown 5:300:1.4` when missing):
 *   - baseline: sv_trend_compute alone (the command's work);
 *   - the view: from E (the region marked) to its first frame, through
 *     the viewer's own code (the session's worker, its adopt, the
 *     prefix sums of the rank rows), and the resident memory it added;
 *   - frames at 160x45: the median of 200 frames that move the cursor
 *     inside the chart's window (nothing to recompute), of 200 that move
 *     the window each time (zoomed in, the rank rows on, the cursor to
 *     the last iteration and back: the columns made again), and the
 *     timeline's frame of the same profile (bench_frames.h, the whole
 *     run) as the baseline;
 *   - the same view on 1,000 ranks (gen --ranks 1000 --events 4M
 *     --slowdown 777:30:1.4, written beside it when missing): the
 *     grouped rank rows.
 *
 * usage: trendview_bench [FILE [REGION]]
 * Prints one line per figure with its ratio to the baseline.  Not a
 * test: nothing here fails on a slow machine.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "scopeview/action.h"
#include "scopeview/gen.h"
#include "scopeview/grid.h"
#include "scopeview/heap.h"
#include "scopeview/load.h"
#include "scopeview/mode.h"
#include "scopeview/trend.h"
#include "scopeview/view.h"

#include "bench_clock.h"
#include "bench_frames.h"
#include "bench_mem.h"

#define BENCH_W 160
#define BENCH_H 45
#define BENCH_N 200

/* Write path with gen's options when it does not exist. */
static int bench_file(const char *path, uint32_t ranks, uint64_t events,
	uint32_t slow_rank, uint64_t slow_step)
{
	struct sv_gen_opts o;
	struct sv_error err = {0};
	struct stat st;

	if (stat(path, &st) == 0)
		return 0;
	mkdir("/tmp/scopeview-trend", 0755);
	sv_gen_opts_init(&o);
	o.ranks = ranks;
	o.events = events;
	o.slowdown = true;
	o.slowdown_rank = slow_rank;
	o.slowdown_step = slow_step;
	o.slowdown_factor = 1.4;
	printf("writing %s\n", path);
	if (sv_gen_write(path, &o, NULL, NULL, &err) < 0) {
		fprintf(stderr, "trendview_bench: %s\n", err.msg);
		return 1;
	}
	return 0;
}

static int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of n frames of v (ms), each after action a (none: 0). */
static double bench_trend_frames(struct sv_view *v, int a)
{
	double ms[BENCH_N];
	struct sv_grid g;
	int i;

	sv_grid_init(&g);
	sv_grid_resize(&g, BENCH_W, BENCH_H);
	for (i = 0; i < BENCH_N; i++) {
		double t;
		/* LIST_LAST: to the last iteration and back to the first in
		 * turn, so that a zoomed window moves every frame */
		if (a == SV_ACTION_LIST_LAST)
			sv_view_apply(v, i % 2 ? SV_ACTION_LIST_FIRST
					       : SV_ACTION_LIST_LAST);
		else if (a)
			sv_view_apply(v, a);
		t = bench_now();
		sv_render(&g, v);
		ms[i] = (bench_now() - t) * 1e3;
	}
	sv_grid_fini(&g);
	qsort(ms, BENCH_N, sizeof *ms, bench_cmp);
	return ms[BENCH_N / 2];
}

static long bench_region(const struct sv_profile *p, const char *name)
{
	uint64_t *count, best = 0;
	long r = -1;
	size_t i;

	if (name)
		return sv_profile_find_region(p, name);
	count = calloc(p->nregions + 1, sizeof *count);
	for (i = 0; i < p->nrows; i++)
		count[p->rows[i].region] += p->rows[i].count;
	for (i = 0; i < p->nregions; i++)
		if (count[i] > best) {
			best = count[i];
			r = (long)i;
		}
	free(count);
	return r;
}

static int bench_profile(const char *path, const char *name)
{
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	struct sv_trend t;
	struct sv_view v;
	struct bench_frame_times tl = {0};
	struct sv_grid g;
	double t0, t1, t2, rss0, rss1, inside, moving;
	char state[256];
	long region;

	if (sv_load(path, NULL, &p, &err) < 0) {
		fprintf(stderr, "trendview_bench: %s\n", err.msg);
		return 1;
	}
	region = bench_region(p, name);
	if (region < 0) {
		fprintf(stderr, "trendview_bench: no region %s\n",
			name ? name : "");
		sv_profile_free(p);
		return 1;
	}
	t0 = bench_now();
	if (sv_trend_compute(&t, p, (uint32_t)region, NULL, &err) < 0) {
		fprintf(stderr, "trendview_bench: %s\n", err.msg);
		sv_profile_free(p);
		return 1;
	}
	t1 = bench_now();
	printf("%s, region '%s': %zu iterations on %" PRIu32
	       " ranks, %zu change points\n",
		path, p->regions[region], t.npoints, t.nranks, t.nchanges);
	sv_trend_fini(&t);
	/* again, the best of two (the first reads columns not yet in the
	 * cache) */
	t2 = bench_now();
	if (sv_trend_compute(&t, p, (uint32_t)region, NULL, &err) == 0)
		sv_trend_fini(&t);
	if (bench_now() - t2 < t1 - t0)
		t1 = t0 + (bench_now() - t2);
	if (sv_view_init(&v, p, NULL, &err) < 0) {
		fprintf(stderr, "trendview_bench: %s\n", err.msg);
		sv_profile_free(p);
		return 1;
	}
	sv_view_resize(&v, BENCH_W, BENCH_H);
	sv_grid_init(&g);
	sv_grid_resize(&g, BENCH_W, BENCH_H);
	bench_frames(&v, v.s.run_t1 - v.s.run_t0, BENCH_N, &tl);
	sv_session_mark_region(&v.s, region);
	sv_view_settle(&v, -1);
	rss0 = bench_status_bytes("VmRSS");
	t2 = bench_now();
	sv_view_apply(&v, SV_ACTION_VIEW_TREND);
	sv_view_settle(&v, -1);
	sv_render(&g, &v);
	t2 = bench_now() - t2;
	rss1 = bench_status_bytes("VmRSS");
	printf("trend (the command's work, sv_trend_compute): %.3f s\n",
		t1 - t0);
	printf("view: E to the first frame %.3f s (%.2fx the command's "
	       "work); resident memory +%.1f MB\n",
		t2, t2 / (t1 - t0), (rss1 - rss0) / 1048576.0);
	inside = bench_trend_frames(&v, SV_ACTION_LIST_DOWN);
	sv_view_apply(&v, SV_ACTION_TREND_RANKS);
	sv_view_apply(&v, SV_ACTION_TREND_ZOOM_IN);
	sv_view_apply(&v, SV_ACTION_TREND_ZOOM_IN);
	moving = bench_trend_frames(&v, SV_ACTION_LIST_LAST);
	sv_view_main_mode(&v)->ops->describe(
		sv_view_main_mode(&v), state, sizeof state);
	printf("frames %dx%d, median of %d: cursor inside the window %.3f "
	       "ms (%.2fx the timeline's %.3f ms); the window moved each "
	       "frame, rank rows on %.3f ms (%.2fx) [%s]\n",
		BENCH_W, BENCH_H, BENCH_N, inside, inside / tl.median,
		tl.median, moving, moving / tl.median, state);
	sv_grid_fini(&g);
	sv_view_fini(&v);
	sv_profile_free(p);
	return 0;
}

int main(int argc, char **argv)
{
	const char *path =
		argc > 1 ? argv[1] : "/tmp/scopeview-trend/slow10m.h5";
	const char *many = "/tmp/scopeview-trend/ranks1000.h5";
	int rc = 0;

	sv_heap_init(); /* as scopeview's main does */
	if (argc <= 1)
		rc |= bench_file(path, 16, 10000000, 5, 300);
	rc |= bench_file(many, 1000, 4000000, 777, 30);
	if (rc)
		return rc;
	rc |= bench_profile(path, argc > 2 ? argv[2] : NULL);
	rc |= bench_profile(many, "timestep");
	return rc;
}
