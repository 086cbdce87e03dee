/*
 * mode_histogram.c: the histogram view (`:view histogram`), the durations
 * of the marked region's calls (or of the search's matches) on the lanes
 * shown, in log-spaced bins (histogram.h), one bin a row drawn with block
 * characters, with its count; the bins holding the region's mean, p50,
 * p95 and p99 (the statistics table's figures, as summary prints them)
 * are marked.  The bins are a list (list.h).  Enter lists the calls of
 * the bin under the cursor, or of the range started with Space, in the
 * call list.
 *
 * The marked region's list comes longest first, so its bins are runs of
 * it, found at once whatever its size (sv_hist_build_longest).  The
 * search's matches come by start: they are copied when the histogram is
 * built, so a later change of the session cannot pull them from under
 * the worker.  Up to HIST_SYNC calls are binned at once;
 * more go to a worker thread (job.h), with a progress line, and the next
 * change of the input (a key that marks another region, changes the bins
 * or the lanes) cancels it.  Nothing here knows about curses or HDF5.
 */
#include "scopeview/mode.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/fmt.h"
#include "scopeview/histogram.h"
#include "scopeview/job.h"
#include "scopeview/list.h"
#include "scopeview/render.h"
#include "scopeview/view.h"

#define HIST_SYNC     200000 /* calls binned on the UI thread */
#define HIST_HEAD_H   3
#define HIST_EDGE_MAX 24 /* an edge's text at most */
#define HIST_COUNT_W  11
#define HIST_DEF_BINS 24

enum { HIST_REGION, HIST_SEARCH };

struct hist_data {
	int source;  /* HIST_REGION or HIST_SEARCH */
	long region; /* the region shown (HIST_REGION), -1 */
	size_t nbins;
	struct sv_hist h; /* what is shown */
	uint64_t maxc;    /* its largest count, at least 1 */
	/* The significant digits the edges are printed with: as many as
	 * tell every bin's two edges apart (72.41ms .. 72.43ms), and the
	 * cells an edge then takes. */
	int sig, edge_w;
	bool valid;
	uint64_t ncalls;     /* calls of the input */
	struct sv_list list; /* over the bins */
	long anchor;         /* the first bin of a range (Space), -1 */
	/* The worker (on the session's jobs): its input and result. */
	struct sv_jobs *jobs;
	struct sv_job job;
	bool busy;
	uint32_t *in;
	size_t nin;
	struct sv_hist out;
	const struct sv_profile *p; /* the input's profile */
	bool longest;    /* the input came longest first (the marked region) */
	bool stale;      /* the session changed while not shown */
	bool rebuilding; /* inside hist_rebuild (which may mark a region) */
};

static void hist_job(struct sv_job *j)
{
	struct hist_data *d = j->arg;
	j->rc = sv_hist_build(&d->out, d->p, d->in, d->nin, d->nbins,
		&j->cancel, &j->progress);
}

/* Stop the worker and drop its input. */
static void hist_stop(struct hist_data *d)
{
	sv_jobs_cancel(d->jobs, &d->job);
	sv_hist_fini(&d->out);
	free(d->in);
	d->in = NULL;
	d->nin = 0;
	d->busy = false;
}

static void hist_take(struct hist_data *d);

/* An edge of the bins as the labels print it. */
static char *hist_edge(const struct hist_data *d, size_t i, char *buf, size_t n)
{
	return sv_hist_edge_label(&d->h, i, d->sig, SV_FMT_DUR_COMPACT, buf, n);
}

/* The digits that print every bin's edges apart, and the widest edge. */
static void hist_edge_digits(struct hist_data *d)
{
	char a[HIST_EDGE_MAX + 8];
	size_t i;

	d->sig = sv_hist_edge_digits(&d->h, SV_FMT_DUR_COMPACT);
	d->edge_w = 9;
	for (i = 0; d->h.nbins && i <= d->h.nbins; i++) {
		int w = (int)strlen(hist_edge(d, i, a, sizeof a));
		if (w > d->edge_w)
			d->edge_w = w < HIST_EDGE_MAX ? w : HIST_EDGE_MAX;
	}
}

/* The session's loop took the worker in (sv_jobs_poll). */
static void hist_adopt(struct sv_job *j)
{
	hist_take(j->arg);
}

/* The worker's result becomes the histogram on show. */
static void hist_take(struct hist_data *d)
{
	sv_hist_fini(&d->h);
	if (d->job.rc == 0) {
		size_t i;
		d->h = d->out;
		memset(&d->out, 0, sizeof d->out);
		d->valid = true;
		d->maxc = 1;
		for (i = 0; i < d->h.nbins; i++)
			if (d->h.counts[i] > d->maxc)
				d->maxc = d->h.counts[i];
		hist_edge_digits(d);
	}
	free(d->in);
	d->in = NULL;
	d->busy = false;
	sv_list_set_rows(&d->list, d->valid ? (long)d->h.nbins : 0);
}

/* Build the histogram of the session's current input. */
static void hist_rebuild(struct sv_mode *m)
{
	struct hist_data *d = m->data;
	struct sv_session *s = m->s;
	const uint32_t *list = NULL;
	size_t n = 0;

	hist_stop(d);
	sv_hist_fini(&d->h);
	/* The cursor keeps its bin while the new bins are made. */
	d->valid = false;
	d->stale = false;
	d->anchor = -1;
	d->p = s->p;
	/* Nothing marked: the selected call's region, else the search's
	 * matches, else the region of the most time. */
	if (d->source == HIST_REGION && s->mark_region < 0 &&
		(s->sel != SV_NO_CALL || !sv_session_nmatches(s))) {
		d->rebuilding = true;
		sv_session_mark_default(s);
		d->rebuilding = false;
	}
	if (d->source == HIST_REGION && s->mark_region < 0 &&
		sv_session_nmatches(s))
		d->source = HIST_SEARCH;
	if (d->source == HIST_REGION) {
		d->region = s->mark_region;
		list = sv_session_marked(s, NULL);
		n = sv_session_nmarked(s);
	} else {
		/* Bins by duration: the calls in any order. */
		d->region = -1;
		d->in = sv_session_matches_copy(s, false, &n);
	}
	d->ncalls = n;
	if (d->source == HIST_REGION && d->region < 0)
		return;
	d->longest = d->source == HIST_REGION;
	if (d->longest) {
		/* Its bins are runs of the list: a binary search each. */
		d->job.rc =
			sv_hist_build_longest(&d->out, d->p, list, n, d->nbins);
		hist_take(d);
		return;
	}
	d->nin = n;
	if (n <= HIST_SYNC) {
		d->job.rc = sv_hist_build(
			&d->out, d->p, d->in, n, d->nbins, NULL, NULL);
		hist_take(d);
		return;
	}
	d->busy = true;
	sv_jobs_start(d->jobs, &d->job, hist_job, hist_adopt, d, n);
}

static int hist_enter(struct sv_mode *m, struct sv_list *l, long row);
static void hist_draw_row(const struct sv_mode *m, const struct sv_list *l,
	struct sv_grid *g, long bi, int x, int y, int w, int style);

static const struct sv_list_ops hist_list_ops = {
	.draw_row = hist_draw_row,
	.enter = hist_enter,
	.enter_help = "List the calls of the bin (or of the range of bins)",
};

static void hist_place(struct sv_mode *m)
{
	struct hist_data *d = m->data;
	sv_list_place(&d->list, 0, HIST_HEAD_H, m->w, m->h - HIST_HEAD_H - 1);
}

static int hist_init(struct sv_mode *m, struct sv_error *err)
{
	struct hist_data *d = m->data;
	(void)err;
	m->w = m->w ? m->w : 120;
	m->h = m->h ? m->h : 40;
	sv_list_init(&d->list, &hist_list_ops, -1);
	hist_place(m);
	d->jobs = &m->s->jobs;
	d->nbins = HIST_DEF_BINS;
	d->anchor = -1;
	d->region = -1;
	d->stale = true;
	return 0;
}

static void hist_fini(struct sv_mode *m)
{
	struct hist_data *d = m->data;
	hist_stop(d);
	sv_hist_fini(&d->h);
}

static void hist_show(struct sv_mode *m)
{
	struct hist_data *d = m->data;
	if (d->stale || d->region != m->s->mark_region ||
		(d->source == HIST_REGION && m->s->mark_region < 0))
		hist_rebuild(m);
}

static void hist_notify(struct sv_mode *m, unsigned what)
{
	struct hist_data *d = m->data;
	if (d->rebuilding)
		return;
	if (!(what & (SV_SESSION_LANES | SV_SESSION_PROFILE |
			     SV_SESSION_SEARCH | SV_SESSION_FILTER)))
		return;
	if (what & SV_SESSION_PROFILE) {
		/* The old profile goes: nothing may point into it. */
		hist_stop(d);
		sv_hist_fini(&d->h);
		d->valid = false;
	}
	if (sv_view_main_mode(m->view) == m)
		hist_rebuild(m);
	else
		d->stale = true;
}

static void hist_resize(struct sv_mode *m, int w, int h)
{
	m->w = w;
	m->h = h;
	hist_place(m);
}

/* Esc while the bins are counted: stop, and count again when shown. */
static void hist_cancel(struct sv_mode *m)
{
	struct hist_data *d = m->data;
	if (!d->busy)
		return;
	hist_stop(d);
	d->stale = true;
}

static struct sv_list *hist_list_of(struct sv_mode *m)
{
	struct hist_data *d = m->data;
	return &d->list;
}

/* Give the calls of bins [lo, hi] (the cursor's, and the range's start)
 * to the call list and show it. */
static int hist_enter(struct sv_mode *m, struct sv_list *l, long cur)
{
	struct hist_data *d = m->data;
	long lo = d->anchor >= 0 && d->anchor < cur ? d->anchor : cur;
	long hi = d->anchor >= 0 && d->anchor > cur ? d->anchor : cur;
	char title[128], a[32], b[32];
	struct sv_view *v = m->view;
	struct sv_mode *cm;
	const uint32_t *calls;
	uint64_t n;
	int rc;

	(void)l;
	if (!d->valid || !d->h.nbins)
		return SV_REACT_REDRAW | SV_REACT_BELL;
	calls = d->h.order + d->h.first[lo];
	n = d->h.first[hi + 1] - d->h.first[lo];
	snprintf(title, sizeof title, "%s .. %s",
		sv_render_short(sv_i64_sat(d->h.edges[lo]), a, sizeof a),
		sv_render_short(sv_i64_sat(d->h.edges[hi + 1]), b, sizeof b));
	/* Handed over before the list is shown, which then keeps it rather
	 * than sorting the whole region first. */
	cm = sv_view_mode(v, "calls");
	if (!cm)
		return SV_REACT_REDRAW | SV_REACT_BELL;
	/* One bin of a longest-first list is a run of it, longest first. */
	sv_mode_calls_set(
		cm, calls, (size_t)n, d->region, title, d->longest && lo == hi);
	rc = sv_view_switch(v, "calls");
	return rc | SV_REACT_REDRAW;
}

static int hist_apply(struct sv_mode *m, int a)
{
	struct hist_data *d = m->data;

	switch (a) {
	case SV_ACTION_HIST_RANGE:
		d->anchor = d->anchor >= 0 ? -1 : d->list.cur;
		return SV_REACT_REDRAW;
	case SV_ACTION_HIST_MORE:
	case SV_ACTION_HIST_FEWER: {
		size_t nb = a == SV_ACTION_HIST_MORE ? d->nbins + 8
			    : d->nbins > 8           ? d->nbins - 8
						     : 1;
		if (nb > SV_HIST_MAX_BINS)
			nb = SV_HIST_MAX_BINS;
		if (nb == d->nbins)
			return SV_REACT_REDRAW | SV_REACT_BELL;
		d->nbins = nb;
		hist_rebuild(m);
		return SV_REACT_REDRAW;
	}
	case SV_ACTION_HIST_SOURCE:
		if (d->source == HIST_REGION && !sv_session_nmatches(m->s)) {
			sv_session_message(
				m->s, true, "no search matches (/ searches)");
			return SV_REACT_REDRAW | SV_REACT_BELL;
		}
		if (d->source == HIST_SEARCH && m->s->mark_region < 0 &&
			m->s->sel == SV_NO_CALL) {
			sv_session_message(
				m->s, true, "no marked region (p, Enter)");
			return SV_REACT_REDRAW | SV_REACT_BELL;
		}
		d->source =
			d->source == HIST_REGION ? HIST_SEARCH : HIST_REGION;
		hist_rebuild(m);
		return SV_REACT_REDRAW;
	default:
		return SV_REACT_BELL;
	}
}

/* "mean p50" etc.: the figures of the region falling in bin b. */
static void hist_marks(const struct hist_data *d,
	const struct sv_stats_region *g, long b, char *buf, size_t n)
{
	size_t used = 0;
	buf[0] = '\0';
	if (!g)
		return;
	if (g->s.has_dist &&
		sv_hist_bin_of(&d->h, sv_i64_sat(g->s.mean_ns)) == b)
		used += (size_t)snprintf(buf + used, n - used, " mean");
	if (g->s.has_percentiles) {
		if (sv_hist_bin_of(&d->h, sv_i64_sat(g->s.p50_ns)) == b)
			used += (size_t)snprintf(buf + used, n - used, " p50");
		if (sv_hist_bin_of(&d->h, sv_i64_sat(g->s.p95_ns)) == b)
			used += (size_t)snprintf(buf + used, n - used, " p95");
		if (sv_hist_bin_of(&d->h, sv_i64_sat(g->s.p99_ns)) == b &&
			used < n)
			snprintf(buf + used, n - used, " p99");
	}
}

/* The statistics of the region shown (its mean and percentiles), or
 * NULL. */
static const struct sv_stats_region *hist_region_stats(const struct sv_mode *m)
{
	const struct hist_data *d = m->data;
	return d->region >= 0 && sv_session_stats(m->s)
		       ? sv_stats_table_find(
				 sv_session_stats(m->s), (uint32_t)d->region)
		       : NULL;
}

static void hist_draw_row(const struct sv_mode *m, const struct sv_list *l,
	struct sv_grid *g, long bi, int x, int y, int w, int st)
{
	const struct hist_data *d = m->data;
	const struct sv_session *s = m->s;
	const struct sv_stats_region *reg = hist_region_stats(m);
	int label_w = 2 * d->edge_w + 5;
	int barw = w - label_w - HIST_COUNT_W - 16;
	long cur = l->cur;
	bool in_range =
		d->anchor >= 0 && ((bi >= d->anchor && bi <= cur) ||
					  (bi <= d->anchor && bi >= cur));
	char a[HIST_EDGE_MAX + 8], b[HIST_EDGE_MAX + 8], marks[32];

	if (st != SV_STYLE_PANEL_CURSOR && in_range) {
		st = SV_STYLE_PANEL_MARK;
		sv_grid_fill(g, x, y, x + w, y + 1, ' ', st, 0);
	}
	sv_grid_textf(g, x, y, label_w, st, 0, " %*s .. %-*s", d->edge_w,
		hist_edge(d, (size_t)bi, a, sizeof a), d->edge_w,
		hist_edge(d, (size_t)bi + 1, b, sizeof b));
	sv_grid_textf(g, x + label_w, y, HIST_COUNT_W, st, 0, "%10" PRIu64,
		d->h.counts[bi]);
	if (barw > 0)
		sv_render_bar(g, x + label_w + HIST_COUNT_W + 1, y, barw,
			(double)d->h.counts[bi] / (double)d->maxc,
			s->opts.ascii, SV_STYLE_SPAN,
			d->region >= 0 ? sv_session_region_color(
						 s, (uint32_t)d->region)
				       : 0);
	hist_marks(d, reg, bi, marks, sizeof marks);
	if (marks[0])
		sv_grid_text(
			g, x + w - 16, y, 16, marks, SV_STYLE_WARNING, 0, 0);
}

static void hist_draw(
	const struct sv_mode *m, struct sv_grid *g, struct sv_rect r)
{
	const struct hist_data *d = m->data;
	const struct sv_session *s = m->s;
	const struct sv_stats_region *reg = hist_region_stats(m);
	char a[32], b[32], c[32], e[32], line[96];
	static const char *const hints[] = {
		"j/k bin  Space range  Enter its calls  + - bins  m source  "
		"? help",
		"Enter calls  ? help",
	};

	if (r.w < 50 || r.h < HIST_HEAD_H + 3) {
		sv_render_too_small(g, r.w, r.h);
		return;
	}
	if (d->source == HIST_REGION && d->region >= 0)
		sv_grid_textf(g, r.x, r.y, r.w, SV_STYLE_PANEL_HEAD, 0,
			" %s: %" PRIu64 " calls on the lanes shown",
			s->p->regions[d->region], d->ncalls);
	else if (d->source == HIST_SEARCH)
		sv_grid_textf(g, r.x, r.y, r.w, SV_STYLE_PANEL_HEAD, 0,
			" search '%s': %" PRIu64 " matching calls",
			sv_session_search_spec(s), d->ncalls);
	else
		sv_grid_text(g, r.x, r.y, r.w,
			" No region marked: mark one in the panel (p, Enter) "
			"or select a call, or search (/).",
			SV_STYLE_DIM, 0, 0);
	if (reg && reg->s.has_percentiles)
		sv_grid_textf(g, r.x, r.y + 1, r.w, SV_STYLE_DIM, 0,
			" mean %s  p50 %s  p95 %s  p99 %s  (summary's figures)",
			sv_render_short(
				sv_i64_sat(reg->s.mean_ns), a, sizeof a),
			sv_render_short(sv_i64_sat(reg->s.p50_ns), b, sizeof b),
			sv_render_short(sv_i64_sat(reg->s.p95_ns), c, sizeof c),
			sv_render_short(
				sv_i64_sat(reg->s.p99_ns), e, sizeof e));
	if (d->busy) {
		sv_grid_textf(g, r.x, r.y + HIST_HEAD_H, r.w, SV_STYLE_WARNING,
			0, " binning %" PRIu64 " calls: %d%%", d->ncalls,
			sv_job_percent(&d->job));
	} else if (sv_session_matches_pending(m->s)) {
		sv_grid_textf(g, r.x, r.y + HIST_HEAD_H, r.w, SV_STYLE_WARNING,
			0, " collecting the calls: %d%%",
			sv_session_match_percent(m->s));
	} else if (d->valid && d->h.nbins) {
		sv_list_draw(m, &d->list, g);
		if (d->h.nzero)
			sv_grid_textf(g, r.x, r.y + 2, r.w, SV_STYLE_DIM, 0,
				" %" PRIu64 " calls of 0 ns are in no bin",
				d->h.nzero);
	} else if (d->valid || d->source == HIST_SEARCH) {
		sv_grid_text(g, r.x + 1, r.y + HIST_HEAD_H, r.w - 2,
			"No call with a positive duration.", SV_STYLE_DIM, 0,
			0);
	}
	snprintf(line, sizeof line, "  histogram  bin %ld/%zu",
		d->valid && d->h.nbins ? d->list.cur + 1 : 0, d->h.nbins);
	sv_render_status(g, s, r.y + r.h - 1, r.w, line, hints, 2);
}

static void hist_describe(const struct sv_mode *m, char *buf, size_t n)
{
	const struct hist_data *d = m->data;
	snprintf(buf, n,
		"bin=%ld anchor=%ld bins=%zu source=%d region=%ld busy=%d",
		d->list.cur, d->anchor, d->nbins, d->source, d->region,
		(int)d->busy);
}

const struct sv_mode_ops sv_mode_histogram = {
	.name = "histogram",
	.title = "Histogram",
	.main = true,
	.scopes = {SV_SCOPE_HISTOGRAM, SV_SCOPE_LIST, SV_SCOPE_GLOBAL, 0},
	.size = sizeof(struct hist_data),
	.init = hist_init,
	.fini = hist_fini,
	.notify = hist_notify,
	.resize = hist_resize,
	.apply = hist_apply,
	.draw = hist_draw,
	.describe = hist_describe,
	.show = hist_show,
	.cancel = hist_cancel,
	.list = hist_list_of,
};
