/*
 * mode_calls.c: the call list (`:view calls`), one call a row: rank,
 * lane, start (from the run's start), duration, exclusive, GPU and await
 * time, and the file's extra per-call columns; sortable by any column
 * (calls.h), longest first at first; calls above the region's p99 (the
 * statistics table's figure) are marked as outliers.  The calls are a
 * list (list.h: < > and r sort).  Enter selects the call on the
 * timeline, scrolled and zoomed into view.
 *
 * Its input is the marked region's calls on the lanes shown (the
 * session's list), or the search's matches, or a list handed over by the
 * histogram (a bin or a range of bins, sv_mode_calls_set).  A handed
 * list stays while what it was cut from stays: going to the timeline
 * (Enter) and coming back shows the same bin; a change of the marked
 * region, the search, the lanes shown, the filter or the profile (what
 * the histogram was built from) replaces it with the session's list.  Up
 * to CALLS_SYNC calls are sorted at once; more on a worker thread
 * (job.h) with a progress line, cancelled by the next change of the
 * order or the input.  A frame draws the rows
 * on screen only and allocates nothing.  Nothing here knows about curses
 * or HDF5.
 */
#include "scopeview/mode.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/callmeta.h"
#include "scopeview/calls.h"
#include "scopeview/job.h"
#include "scopeview/list.h"
#include "scopeview/render.h"
#include "scopeview/timeline.h"
#include "scopeview/view.h"

#define CALLS_SYNC   200000 /* calls sorted on the UI thread */
#define CALLS_HEAD_H 2

struct calls_data {
	uint32_t *calls; /* shown, in order */
	size_t n;
	long region; /* -1: several regions */
	char title[SV_SESSION_TEXT_MAX + 160];
	int key;
	bool reverse;
	struct sv_list list; /* over calls */
	/* The worker (on the session's jobs) sorts work[0 .. nwork) by
	 * key. */
	struct sv_jobs *jobs;
	struct sv_job job;
	bool busy;
	uint32_t *work;
	size_t nwork;
	int work_key;
	bool work_reverse;
	const struct sv_profile *p;
	bool rebuilding;
	/* The list was handed over (sv_mode_calls_set), and the session's
	 * input changed while the view was not shown. */
	bool handed, stale;
};

static void calls_job(struct sv_job *j)
{
	struct calls_data *d = j->arg;
	j->rc = sv_calls_sort(d->p, d->work, d->nwork, d->work_key,
		d->work_reverse, &j->cancel);
	atomic_store(&j->progress, j->total);
}

static void calls_stop(struct calls_data *d)
{
	sv_jobs_cancel(d->jobs, &d->job);
	free(d->work);
	d->work = NULL;
	d->nwork = 0;
	d->busy = false;
}

static void calls_take(struct calls_data *d);

/* The session's loop took the worker in (sv_jobs_poll). */
static void calls_adopt(struct sv_job *j)
{
	calls_take(j->arg);
}

static void calls_take(struct calls_data *d)
{
	if (d->job.rc == 0) {
		free(d->calls);
		d->calls = d->work;
		d->n = d->nwork;
	} else {
		free(d->work);
	}
	d->work = NULL;
	d->nwork = 0;
	d->busy = false;
	sv_list_set_rows(&d->list, (long)d->n);
}

/* Sort list[0 .. n) (taken over) by the current key, at once or on the
 * worker; nothing to do for a list that came longest first when that is
 * the order asked for (sv_calls_sort would give it back unchanged). */
static void calls_sort_list(
	struct calls_data *d, uint32_t *list, size_t n, bool longest)
{
	calls_stop(d);
	d->work = list;
	d->nwork = n;
	d->work_key = d->key;
	d->work_reverse = d->reverse;
	d->list.sort = d->key;
	d->list.reverse = d->reverse;
	if (longest && d->key == SV_CALLS_KEY_DURATION && !d->reverse) {
		d->job.rc = 0;
		calls_take(d);
		return;
	}
	if (n <= CALLS_SYNC) {
		d->job.rc =
			sv_calls_sort(d->p, list, n, d->key, d->reverse, NULL);
		calls_take(d);
		return;
	}
	/* What was shown goes: its order is not the one asked for. */
	free(d->calls);
	d->calls = NULL;
	d->n = 0;
	sv_list_set_rows(&d->list, 0);
	d->busy = true;
	sv_jobs_start(d->jobs, &d->job, calls_job, calls_adopt, d, n);
}

/* Copy list[0 .. n) and sort it; the cursor goes to its first call. */
static void calls_take_copy(
	struct calls_data *d, uint32_t *copy, size_t n, bool longest)
{
	calls_sort_list(d, copy, n, longest);
	sv_list_set_cursor(NULL, &d->list, 0);
}

static void calls_take_list(
	struct calls_data *d, const uint32_t *list, size_t n, bool longest)
{
	uint32_t *copy = sv_xmalloc((n ? n : 1) * sizeof *copy);
	if (n)
		memcpy(copy, list, n * sizeof *copy);
	calls_take_copy(d, copy, n, longest);
}

/* The session's input: the marked region, else the search, else the
 * selected call's region, else the region of the most time. */
static void calls_from_session(struct sv_mode *m)
{
	struct calls_data *d = m->data;
	struct sv_session *s = m->s;

	d->p = s->p;
	d->key = SV_CALLS_KEY_DURATION; /* a new input: longest first */
	d->reverse = false;
	d->handed = d->stale = false;
	if (s->mark_region < 0 && !sv_session_nmatches(s)) {
		d->rebuilding = true;
		sv_session_mark_default(s);
		d->rebuilding = false;
	}
	if (s->mark_region >= 0) {
		d->region = s->mark_region;
		snprintf(d->title, sizeof d->title, "%s",
			s->p->regions[s->mark_region]);
		calls_take_list(d, sv_session_marked(s, NULL),
			sv_session_nmarked(s), true);
	} else if (sv_session_nmatches(s)) {
		/* Sorted here by the key: the calls in any order. */
		size_t n;
		uint32_t *copy = sv_session_matches_copy(s, false, &n);
		d->region = -1;
		snprintf(d->title, sizeof d->title, "search '%s'",
			sv_session_search_spec(s));
		calls_take_copy(d, copy, n, false);
	} else {
		calls_stop(d);
		free(d->calls);
		d->calls = NULL;
		d->n = 0;
		sv_list_set_rows(&d->list, 0);
		d->region = -1;
		d->title[0] = '\0';
	}
}

void sv_mode_calls_set(struct sv_mode *m, const uint32_t *calls, size_t n,
	long region, const char *title, bool longest)
{
	struct calls_data *d = m->data;
	d->p = m->s->p;
	d->region = region;
	snprintf(d->title, sizeof d->title, "%s%s%s",
		region >= 0 ? m->s->p->regions[region] : "",
		region >= 0 && title ? ", " : "", title ? title : "");
	calls_take_list(d, calls, n, longest);
	d->handed = true;
	d->stale = false;
}

static const char *const calls_key_names[SV_CALLS_KEY_COUNT] = {
#define CALLS_KEY_NAME(id, name, desc, help) name,
	SV_CALLS_KEY_TABLE(CALLS_KEY_NAME)
#undef CALLS_KEY_NAME
};

static int calls_enter(struct sv_mode *m, struct sv_list *l, long row);
static void calls_draw_row(const struct sv_mode *m, const struct sv_list *l,
	struct sv_grid *g, long row, int x, int y, int w, int style);

static bool calls_match(
	const struct sv_mode *m, const struct sv_list *l, long row)
{
	const struct calls_data *d = m->data;
	(void)l;
	return sv_session_search_on(m->s) &&
	       sv_session_is_match(m->s, d->calls[row]);
}

static uint64_t calls_key(
	const struct sv_mode *m, const struct sv_list *l, long row)
{
	const struct calls_data *d = m->data;
	(void)l;
	return d->calls[row];
}

/* Re-sort what is shown, or what the worker was sorting, by key col. */
static int calls_sort(struct sv_mode *m, struct sv_list *l, int col, bool rev)
{
	struct calls_data *d = m->data;
	uint32_t *list;
	size_t n;

	(void)l;
	d->key = col;
	d->reverse = rev;
	if (d->busy) {
		sv_jobs_cancel(d->jobs, &d->job);
		list = d->work;
		n = d->nwork;
		d->work = NULL;
		d->nwork = 0;
		d->busy = false;
	} else {
		list = d->calls;
		n = d->n;
		d->calls = NULL;
		d->n = 0;
	}
	calls_sort_list(d, list, n, false);
	return col;
}

static const struct sv_list_ops calls_list_ops = {
	.draw_row = calls_draw_row,
	.enter = calls_enter,
	.enter_help = "Select the call on the timeline, zoomed into view",
	.match = calls_match,
	.key = calls_key,
	.cols = calls_key_names,
	.ncols = SV_CALLS_KEY_COUNT,
	.sort = calls_sort,
};

static void calls_place(struct sv_mode *m)
{
	struct calls_data *d = m->data;
	sv_list_place(&d->list, 0, CALLS_HEAD_H, m->w, m->h - CALLS_HEAD_H - 1);
}

static int calls_init(struct sv_mode *m, struct sv_error *err)
{
	struct calls_data *d = m->data;
	(void)err;
	m->w = m->w ? m->w : 120;
	m->h = m->h ? m->h : 40;
	sv_list_init(&d->list, &calls_list_ops, SV_CALLS_KEY_DURATION);
	calls_place(m);
	d->jobs = &m->s->jobs;
	d->key = SV_CALLS_KEY_DURATION;
	d->region = -1;
	return 0;
}

static void calls_fini(struct sv_mode *m)
{
	struct calls_data *d = m->data;
	calls_stop(d);
	free(d->calls);
}

static void calls_show(struct sv_mode *m)
{
	struct calls_data *d = m->data;
	/* A handed list whose input did not change stays; else the
	 * session's list, which follows the selected call too. */
	if (!d->handed || d->stale)
		calls_from_session(m);
}

static void calls_notify(struct sv_mode *m, unsigned what)
{
	struct calls_data *d = m->data;
	if (d->rebuilding ||
		!(what & (SV_SESSION_LANES | SV_SESSION_PROFILE |
				 SV_SESSION_SEARCH | SV_SESSION_FILTER)))
		return;
	if (what & SV_SESSION_PROFILE) {
		calls_stop(d);
		free(d->calls);
		d->calls = NULL;
		d->n = 0;
	}
	if (sv_view_main_mode(m->view) == m)
		calls_from_session(m);
	else
		d->stale = true;
}

static void calls_resize(struct sv_mode *m, int w, int h)
{
	m->w = w;
	m->h = h;
	calls_place(m);
}

/* Esc while the calls are sorted: stop, and take the session's calls
 * again when shown. */
static void calls_cancel(struct sv_mode *m)
{
	struct calls_data *d = m->data;
	if (!d->busy)
		return;
	calls_stop(d);
	d->handed = false;
	d->stale = true;
}

static struct sv_list *calls_list_of(struct sv_mode *m)
{
	struct calls_data *d = m->data;
	return &d->list;
}

/* Select the call of row on the timeline and zoom to it. */
static int calls_enter(struct sv_mode *m, struct sv_list *l, long row)
{
	struct calls_data *d = m->data;
	uint32_t c;

	(void)l;
	if (d->busy || !d->n)
		return SV_REACT_REDRAW | SV_REACT_BELL;
	c = d->calls[row];
	if (!sv_session_lane_shown(m->s, sv_call_lane(m->s->p, c))) {
		sv_session_message(m->s, true,
			"the call's lane is hidden (:rank all shows every "
			"rank)");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	return sv_view_show_call(m->view, c, true);
}

/* Column headings in SV_CALLS_KEY order, each with its width. */
static const struct {
	const char *head;
	int w;
} calls_cols[SV_CALLS_KEY_COUNT] = {
	{"duration", 10},
	{"start", 11},
	{"end", 11},
	{"rank", 6},
	{"lane", 18},
	{"exclusive", 10},
	{"gpu", 9},
	{"await", 9},
};

/* Screen order of the columns. */
static const int calls_screen[] = {SV_CALLS_KEY_RANK, SV_CALLS_KEY_LANE,
	SV_CALLS_KEY_START, SV_CALLS_KEY_END, SV_CALLS_KEY_DURATION,
	SV_CALLS_KEY_EXCLUSIVE, SV_CALLS_KEY_GPU, SV_CALLS_KEY_AWAIT};

static void calls_cell(const struct sv_mode *m, struct sv_grid *g, int x, int y,
	int k, uint32_t c, int style)
{
	const struct sv_profile *p = m->s->p;
	int w = calls_cols[k].w;
	char buf[40];
	int64_t v;

	if (k == SV_CALLS_KEY_LANE) {
		sv_grid_fill(g, x, y, x + w, y + 1, ' ', style, 0);
		sv_grid_text(g, x + 1, y, w - 1,
			p->lanes[sv_call_lane(p, c)].label, style, 0,
			sv_render_glyphs(m->s->opts.ascii)->ellipsis);
		return;
	}
	if (!sv_calls_value(p, c, k, &v))
		snprintf(buf, sizeof buf, "-");
	else if (k == SV_CALLS_KEY_RANK)
		snprintf(buf, sizeof buf, "%" PRId64, v);
	else if (k == SV_CALLS_KEY_START || k == SV_CALLS_KEY_END)
		sv_render_short(sv_sub_wrap(v, m->s->origin), buf, sizeof buf);
	else
		sv_render_short(v, buf, sizeof buf);
	sv_grid_textf(g, x, y, w, style, 0, "%*s", w - 1, buf);
}

/* The p99 of the list's region (calls above it are outliers), or -1. */
static double calls_p99(const struct sv_mode *m)
{
	const struct calls_data *d = m->data;
	const struct sv_session *s = m->s;
	const struct sv_stats_region *reg =
		d->region >= 0 && sv_session_stats(s)
			? sv_stats_table_find(
				  sv_session_stats(s), (uint32_t)d->region)
			: NULL;
	return reg && reg->s.has_percentiles ? reg->s.p99_ns : -1;
}

static void calls_draw_row(const struct sv_mode *m, const struct sv_list *l,
	struct sv_grid *g, long row, int x0, int y, int w, int st)
{
	const struct calls_data *d = m->data;
	const struct sv_session *s = m->s;
	const struct sv_glyphs *gl = sv_render_glyphs(s->opts.ascii);
	uint32_t c = d->calls[row];
	double p99 = calls_p99(m);
	bool outlier = p99 >= 0 && (double)sv_call_duration(s->p, c) > p99;
	int x = x0 + 1, end = x0 + w;
	size_t k;

	(void)l;
	if (outlier && st == SV_STYLE_PANEL) {
		st = SV_STYLE_WARNING;
		sv_grid_fill(g, x0, y, end, y + 1, ' ', st, 0);
	}
	sv_grid_put(g, x0, y, outlier ? '!' : ' ', st, 0);
	for (k = 0; k < sizeof calls_screen / sizeof calls_screen[0]; k++) {
		calls_cell(m, g, x, y, calls_screen[k], c, st);
		x += calls_cols[calls_screen[k]].w;
	}
	if (s->p->call_meta && x + 2 < end) {
		char meta[512];
		sv_callmeta_line(sv_callmeta_of(s->p, c), meta, sizeof meta);
		sv_grid_text(
			g, x + 2, y, end - x - 2, meta, st, 0, gl->ellipsis);
	}
}

static void calls_draw(
	const struct sv_mode *m, struct sv_grid *g, struct sv_rect r)
{
	const struct calls_data *d = m->data;
	const struct sv_session *s = m->s;
	double p99 = calls_p99(m);
	size_t k;
	int x;
	char line[96], p99s[32];
	static const char *const hints[] = {
		"j/k call  Enter on timeline  < > sort  r reverse  ? help",
		"Enter timeline  ? help",
	};

	if (r.w < 60 || r.h < CALLS_HEAD_H + 3) {
		sv_render_too_small(g, r.w, r.h);
		return;
	}
	if (!d->title[0])
		sv_grid_text(g, r.x, r.y, r.w,
			" No calls: mark a region (p, Enter), select a call, "
			"or search (/).",
			SV_STYLE_DIM, 0, 0);
	else
		sv_grid_textf(g, r.x, r.y, r.w, SV_STYLE_PANEL_HEAD, 0,
			" %s: %zu calls, by %s%s%s%s", d->title,
			d->busy ? d->nwork : d->n, sv_calls_key_name(d->key),
			d->reverse ? " (reversed)" : "",
			p99 >= 0 ? ", ! above p99 = " : "",
			p99 >= 0 ? sv_render_short(
					   sv_i64_sat(p99), p99s, sizeof p99s)
				 : "");
	x = r.x + 1;
	for (k = 0; k < sizeof calls_screen / sizeof calls_screen[0]; k++) {
		int c = calls_screen[k], w = calls_cols[c].w;
		int st = c == d->key ? SV_STYLE_PANEL_CURSOR
				     : SV_STYLE_PANEL_HEAD;
		if (c == SV_CALLS_KEY_LANE)
			sv_grid_textf(g, x, r.y + 1, w, st, 0, " %s",
				calls_cols[c].head);
		else
			sv_grid_textf(g, x, r.y + 1, w, st, 0, "%*s", w - 1,
				calls_cols[c].head);
		x += w;
	}
	if (s->p->call_meta && x + 2 < r.x + r.w)
		sv_grid_text(g, x + 2, r.y + 1, r.x + r.w - x - 2, "metadata",
			SV_STYLE_PANEL_HEAD, 0, 0);
	if (d->busy) {
		sv_grid_textf(g, r.x, r.y + CALLS_HEAD_H, r.w, SV_STYLE_WARNING,
			0, " sorting %zu calls by %s: %d%%", d->nwork,
			sv_calls_key_name(d->work_key),
			sv_job_percent(&d->job));
	} else if (!d->n && sv_session_matches_pending(s)) {
		sv_grid_textf(g, r.x, r.y + CALLS_HEAD_H, r.w, SV_STYLE_WARNING,
			0, " collecting the calls: %d%%",
			sv_session_match_percent(s));
	} else {
		sv_list_draw(m, &d->list, g);
	}
	snprintf(line, sizeof line, "  calls %ld/%zu",
		d->n ? d->list.cur + 1 : 0, d->n);
	sv_render_status(g, s, r.y + r.h - 1, r.w, line, hints, 2);
}

static void calls_describe(const struct sv_mode *m, char *buf, size_t n)
{
	const struct calls_data *d = m->data;
	snprintf(buf, n, "cur=%ld top=%ld n=%zu key=%d reverse=%d busy=%d",
		d->list.cur, d->list.top, d->n, d->key, (int)d->reverse,
		(int)d->busy);
}

const struct sv_mode_ops sv_mode_calls = {
	.name = "calls",
	.title = "Call list",
	.main = true,
	.scopes = {SV_SCOPE_CALLS, SV_SCOPE_LIST, SV_SCOPE_GLOBAL, 0},
	.size = sizeof(struct calls_data),
	.init = calls_init,
	.fini = calls_fini,
	.notify = calls_notify,
	.resize = calls_resize,
	.draw = calls_draw,
	.describe = calls_describe,
	.show = calls_show,
	.cancel = calls_cancel,
	.list = calls_list_of,
};
