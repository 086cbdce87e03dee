/*
 * bench_frames.h: the one frame-time loop of the benchmark programs
 * (render_bench and scale_bench time the same frame the same way).
 *
 * A frame is sv_render of the whole view: the timeline with the overview
 * strip, the summary panel beside it when the view shows it, and the
 * status line with the cursor cell's summary.  Each frame sets the window
 * to span ns around the middle of the run, panned a little (clamped into
 * the run as the viewer clamps it, so at the whole run only the cursor
 * moves), and moves the cursor to another column, so no two frames in a
 * row match.
 */
#ifndef SCOPEVIEW_BENCH_FRAMES_H
#define SCOPEVIEW_BENCH_FRAMES_H

#include <stdlib.h>

#include "scopeview/grid.h"
#include "scopeview/timeline.h"
#include "scopeview/view.h"

#include "bench_clock.h"

/* What n frames took, in ms. */
struct bench_frame_times {
	double median, min, max, mean;
};

static int bench_frames_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Time n frames (n >= 1) of v at windows of span ns; false when out of
 * memory or v has no timeline. */
static inline bool bench_frames(
	struct sv_view *v, int64_t span, int n, struct bench_frame_times *out)
{
	struct sv_timeline *tl = sv_view_timeline(v);
	int64_t mid = v->s.run_t0 + (v->s.run_t1 - v->s.run_t0) / 2;
	double *ms = malloc((size_t)n * sizeof *ms), sum = 0;
	struct sv_grid g;
	int i;

	if (!ms || !tl || n < 1) {
		free(ms);
		return false;
	}
	sv_grid_init(&g);
	for (i = 0; i < n; i++) {
		double t;
		sv_timeline_set_window(
			tl, mid - span / 2 + span / 97 * (i % 5), span);
		tl->cur_t = tl->t0 + (tl->t1 - tl->t0) / 7 * (1 + i % 5);
		t = bench_now();
		sv_render(&g, v);
		ms[i] = (bench_now() - t) * 1e3;
		sum += ms[i];
	}
	sv_grid_fini(&g);
	qsort(ms, (size_t)n, sizeof *ms, bench_frames_cmp);
	out->median = ms[n / 2];
	out->min = ms[0];
	out->max = ms[n - 1];
	out->mean = sum / n;
	free(ms);
	return true;
}

#endif
