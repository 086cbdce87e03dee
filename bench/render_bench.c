/*
 * render_bench.c: frame time of the renderer at several zoom levels on
 * generated profiles of growing size, to show that a frame costs about the
 * same whatever the profile's size and the zoom (rows are walked through
 * the level-of-detail index with cursors: a cell costs O(log) of how far
 * its calls are from where the previous cell's predicted them).
 *
 * usage: render_bench [--size WxH] [--frames N] [--dir DIR] [--two]
 *                     [--full] [--no-panel] [--filter SPEC]
 *                     [CALLS | FILE.h5 ...]
 * --full: only the whole run's frame (for a profiler).
 * --filter SPEC: the frames with the region filter SPEC on (\\SPEC in the
 * viewer; its time is printed), drawn through its index.
 * --no-panel: hide the summary panel (shown by default, as in the viewer).
 * CALLS defaults to 1000000 10000000; 100000000 is worth a run by hand.
 * Profiles are written with the gen module (as `scopeview gen` does) into
 * DIR (default /tmp) once and reused; an argument with a '/' or ending in
 * ".h5" is a profile to read as it is (bench/scale.sh's files, say).  A
 * frame is what bench_frames.h times (scale_bench times the same).
 * Prints one line per profile and
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
#include "scopeview/panel.h"
#include "scopeview/timeline.h"
#include "scopeview/view.h"

#include "bench_clock.h"
#include "bench_frames.h"

/* The timeline mode's state of view v. */
#define TL(v) sv_view_timeline(v)

/* Load path again as the second run of v and say what it cost; *p2 is
 * freed by the caller after the view. */
static int bench_second(
	struct sv_view *v, const char *path, struct sv_profile **p2)
{
	struct sv_run_prep sp;
	struct sv_error err;
	double t;

	if (sv_load(path, NULL, p2, &err) < 0) {
		fprintf(stderr, "render_bench: %s\n", err.msg);
		return 1;
	}
	t = bench_now();
	if (sv_run_prepare(&sp, *p2, &err) < 0) {
		fprintf(stderr, "render_bench: %s\n", err.msg);
		return 1;
	}
	printf("  second run: its index %.2f s (loader's thread)",
		bench_now() - t);
	t = bench_now();
	if (sv_view_set_second_prepared(v, &sp, "B", &err) < 0) {
		fprintf(stderr, "render_bench: %s\n", err.msg);
		sv_run_prep_fini(&sp);
		return 1;
	}
	sv_run_prep_fini(&sp);
	printf(", taken in %.3f s (UI thread: statistics, maps, rows)\n",
		bench_now() - t);
	return 0;
}

/* What to measure, from the command line. */
struct bench_opts {
	const char *dir, *filter;
	int w, h, frames;
	bool two, full, no_panel;
};

/* The profile of arg: a file as it is, or one of arg calls written into
 * o->dir once. */
static int bench_path(
	const struct bench_opts *o, const char *arg, char *path, size_t n)
{
	size_t len = strlen(arg);
	struct stat st;
	struct sv_error err;
	uint64_t calls;
	double t;

	if (strchr(arg, '/') || (len > 3 && !strcmp(arg + len - 3, ".h5"))) {
		snprintf(path, n, "%s", arg);
		return 0;
	}
	calls = strtoull(arg, NULL, 10);
	snprintf(path, n, "%s/scopeview-bench-%" PRIu64 ".h5", o->dir, calls);
	if (stat(path, &st) != 0) {
		struct sv_gen_opts g;
		sv_gen_opts_init(&g);
		g.events = calls;
		g.ranks = 4;
		g.threads = 2;
		g.depth = 5;
		fprintf(stderr, "writing %s ...\n", path);
		t = bench_now();
		if (sv_gen_write(path, &g, NULL, NULL, &err) < 0) {
			fprintf(stderr, "render_bench: %s\n", err.msg);
			return 1;
		}
		fprintf(stderr, "  %.1f s\n", bench_now() - t);
	}
	return 0;
}

static int bench_one(const struct bench_opts *o, const char *arg)
{
	char path[512];
	struct sv_error err;
	struct sv_profile *p = NULL, *p2 = NULL;
	struct sv_view v;
	double t;
	int64_t run, spans[8];
	int nspans = 0, k;

	if (bench_path(o, arg, path, sizeof path))
		return 1;
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
		(double)sv_session_index(&v.s)->bytes /
			(double)(p->ncalls ? p->ncalls : 1));
	if (o->no_panel && TL(&v))
		TL(&v)->panel_shown = false;
	sv_view_resize(&v, o->w, o->h);
	if (o->two && bench_second(&v, path, &p2)) {
		sv_view_fini(&v);
		sv_profile_free(p2);
		sv_profile_free(p);
		return 1;
	}
	if (o->filter) {
		t = bench_now();
		sv_session_set_filter(&v.s, o->filter);
		while (sv_session_busy(&v.s)) {
			sv_session_poll(&v.s);
			nanosleep(&(struct timespec){0, 1000000}, NULL);
		}
		printf("  filter '%s': %.3f s, its index %.1f B/call\n",
			o->filter, bench_now() - t,
			(double)sv_session_index(&v.s)->bytes /
				(double)(p->ncalls ? p->ncalls : 1));
	}
	run = v.s.run_t1 - v.s.run_t0;
	spans[nspans++] = run;
	for (k = 0; k < 7 && !o->full; k++) {
		static const int64_t fixed[] = {1000000000, 100000000, 10000000,
			1000000, 100000, 10000, 1000};
		if (fixed[k] < run && fixed[k] >= TL(&v)->geom.tl_w)
			spans[nspans++] = fixed[k];
	}
	for (k = 0; k < nspans; k++) {
		struct bench_frame_times ft;
		char sbuf[32];
		if (!bench_frames(&v, spans[k], o->frames, &ft))
			break;
		printf("  %dx%d  span %-10s  frame median %7.3f ms  "
		       "min %7.3f ms  max %7.3f ms  mean %7.3f ms\n",
			o->w, o->h, sv_fmt_dur(spans[k], sbuf, sizeof sbuf),
			ft.median, ft.min, ft.max, ft.mean);
	}
	sv_view_fini(&v);
	sv_profile_free(p2);
	sv_profile_free(p);
	return 0;
}

int main(int argc, char **argv)
{
	struct bench_opts o = {.dir = "/tmp", .w = 200, .h = 60, .frames = 30};
	const char *args[16], *defaults[] = {"1000000", "10000000"};
	int i, rc = 0, nargs = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--size") && i + 1 < argc) {
			if (sscanf(argv[++i], "%dx%d", &o.w, &o.h) != 2)
				return 2;
		} else if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
			o.frames = atoi(argv[++i]);
			if (o.frames < 1)
				o.frames = 1;
		} else if (!strcmp(argv[i], "--two")) {
			o.two = true;
		} else if (!strcmp(argv[i], "--dir") && i + 1 < argc) {
			o.dir = argv[++i];
		} else if (!strcmp(argv[i], "--filter") && i + 1 < argc) {
			o.filter = argv[++i];
		} else if (!strcmp(argv[i], "--full")) {
			o.full = true;
		} else if (!strcmp(argv[i], "--no-panel")) {
			o.no_panel = true;
		} else if (nargs < 16) {
			args[nargs++] = argv[i];
		}
	}
	for (i = 0; i < (nargs ? nargs : 2); i++)
		rc |= bench_one(&o, nargs ? args[i] : defaults[i]);
	return rc;
}
