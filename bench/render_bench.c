/*
 * render_bench.c: frame time of the renderer at several zoom levels on
 * generated profiles of growing size, to show that a frame costs about the
 * same whatever the profile's size and the zoom (rows are walked through
 * the level-of-detail index with cursors: a cell costs O(log) of how far
 * its calls are from where the previous cell's predicted them).
 *
 * usage: render_bench [--size WxH] [--frames N] [--dir DIR] [--two]
 *                     [--full] [CALLS...]
 * --full: only the whole run's frame (for a profiler).
 * CALLS defaults to 1000000 10000000; 100000000 is worth a run by hand.
 * Profiles are written with the gen module (as `scopeview gen` does) into
 * DIR (default /tmp) once and reused.  Prints one line per profile and
 * zoom level (the minimum is the figure least disturbed by other work on
 * a shared machine), and the bytes per call the layout index allocated.
 * With --two the file is loaded a second time as the run compared with:
 * the time of its index (made on the loader's thread in the viewer) and
 * of taking it into the view (the UI thread's part) are printed, and the
 * frames draw both runs' rows.  Not a test: nothing here fails on a slow
 * machine.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "scopeview/fmt.h"
#include "scopeview/gen.h"
#include "scopeview/grid.h"
#include "scopeview/load.h"
#include "scopeview/render.h"
#include "scopeview/view.h"
#include "scopeview/panel.h"
#include "scopeview/timeline.h"
#include "scopeview/view.h"

#include "bench_clock.h"

/* The timeline mode's state of view v. */
#define TL(v) sv_view_timeline(v)

static int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Load path again as the second run of v and say what it cost; *p2 is
 * freed by the caller after the view. */
static int bench_second(
	struct sv_view *v, const char *path, struct sv_profile **p2)
{
	struct sv_second_prep sp;
	struct sv_error err;
	double t;

	if (sv_load(path, NULL, p2, &err) < 0) {
		fprintf(stderr, "render_bench: %s\n", err.msg);
		return 1;
	}
	t = bench_now();
	if (sv_second_prepare(&sp, *p2, &err) < 0) {
		fprintf(stderr, "render_bench: %s\n", err.msg);
		return 1;
	}
	printf("  second run: its index %.2f s (loader's thread)",
		bench_now() - t);
	t = bench_now();
	if (sv_view_set_second_prepared(v, &sp, "B", &err) < 0) {
		fprintf(stderr, "render_bench: %s\n", err.msg);
		sv_second_prep_fini(&sp);
		return 1;
	}
	sv_second_prep_fini(&sp);
	printf(", taken in %.3f s (UI thread: statistics, maps, rows)\n",
		bench_now() - t);
	return 0;
}

static int bench_one(const char *dir, uint64_t calls, int w, int h, int frames,
	bool two, bool full)
{
	char path[512];
	struct stat st;
	struct sv_error err;
	struct sv_profile *p = NULL, *p2 = NULL;
	struct sv_view v;
	struct sv_grid g;
	double t;
	int64_t run, spans[8];
	int nspans = 0, i, k;

	snprintf(path, sizeof path, "%s/scopeview-bench-%" PRIu64 ".h5", dir,
		calls);
	if (stat(path, &st) != 0) {
		struct sv_gen_opts o;
		sv_gen_opts_init(&o);
		o.events = calls;
		o.ranks = 4;
		o.threads = 2;
		o.depth = 5;
		fprintf(stderr, "writing %s ...\n", path);
		t = bench_now();
		if (sv_gen_write(path, &o, NULL, NULL, &err) < 0) {
			fprintf(stderr, "render_bench: %s\n", err.msg);
			return 1;
		}
		fprintf(stderr, "  %.1f s\n", bench_now() - t);
	}
	t = bench_now();
	if (sv_load(path, NULL, &p, &err) < 0) {
		fprintf(stderr, "render_bench: %s\n", err.msg);
		return 1;
	}
	printf("%s: %" PRIu32 " calls, %zu lanes, load %.2f s", path, p->ncalls,
		p->nlanes, bench_now() - t);
	t = bench_now();
	if (sv_view_init(&v, p, NULL, &err) < 0) {
		fprintf(stderr, "render_bench: %s\n", err.msg);
		sv_profile_free(p);
		return 1;
	}
	printf(", view (index + summary) %.2f s, index %.1f B/call\n",
		bench_now() - t,
		(double)v.s.index.bytes / (double)(p->ncalls ? p->ncalls : 1));
	sv_view_resize(&v, w, h);
	if (two && bench_second(&v, path, &p2)) {
		sv_view_fini(&v);
		sv_profile_free(p2);
		sv_profile_free(p);
		return 1;
	}
	sv_grid_init(&g);
	run = v.s.run_t1 - v.s.run_t0;
	spans[nspans++] = run;
	for (k = 0; k < 7 && !full; k++) {
		static const int64_t fixed[] = {1000000000, 100000000, 10000000,
			1000000, 100000, 10000, 1000};
		if (fixed[k] < run && fixed[k] >= TL(&v)->geom.tl_w)
			spans[nspans++] = fixed[k];
	}
	for (k = 0; k < nspans; k++) {
		double *ms = malloc((size_t)frames * sizeof *ms), sum = 0;
		int64_t mid = v.s.run_t0 + run / 2;
		char sbuf[32];
		TL(&v)->t0 = mid - spans[k] / 2;
		TL(&v)->t1 = TL(&v)->t0 + spans[k];
		TL(&v)->cur_t = mid;
		for (i = 0; i < frames; i++) {
			/* pan a little each frame so no two frames match */
			int64_t shift = spans[k] / 97 * (i % 5);
			TL(&v)->t0 = mid - spans[k] / 2 + shift;
			TL(&v)->t1 = TL(&v)->t0 + spans[k];
			t = bench_now();
			sv_render(&g, &v);
			ms[i] = (bench_now() - t) * 1e3;
			sum += ms[i];
		}
		qsort(ms, (size_t)frames, sizeof *ms, bench_cmp_double);
		printf("  %dx%d  span %-10s  frame median %7.3f ms  "
		       "min %7.3f ms  max %7.3f ms  mean %7.3f ms\n",
			w, h, sv_fmt_dur(spans[k], sbuf, sizeof sbuf),
			ms[frames / 2], ms[0], ms[frames - 1], sum / frames);
		free(ms);
	}
	sv_grid_fini(&g);
	sv_view_fini(&v);
	sv_profile_free(p2);
	sv_profile_free(p);
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = "/tmp";
	int w = 200, h = 60, frames = 30, i, rc = 0, ncounts = 0;
	bool full = false;
	uint64_t counts[16];
	bool two = false;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--size") && i + 1 < argc) {
			if (sscanf(argv[++i], "%dx%d", &w, &h) != 2)
				return 2;
		} else if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
			frames = atoi(argv[++i]);
			if (frames < 1)
				frames = 1;
		} else if (!strcmp(argv[i], "--two")) {
			two = true;
		} else if (!strcmp(argv[i], "--dir") && i + 1 < argc) {
			dir = argv[++i];
		} else if (!strcmp(argv[i], "--full")) {
			full = true;
		} else if (ncounts < 16) {
			counts[ncounts++] = strtoull(argv[i], NULL, 10);
		}
	}
	if (!ncounts) {
		counts[ncounts++] = 1000000;
		counts[ncounts++] = 10000000;
	}
	for (i = 0; i < ncounts; i++)
		rc |= bench_one(dir, counts[i], w, h, frames, two, full);
	return rc;
}
