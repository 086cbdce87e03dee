/*
 * mode_trend.c: the trend view (`:view trend`, E), one region iteration
 * by iteration (trend.h): iteration k is the region's k-th call on each
 * rank.  A chart of the min-max band over the ranks and the median,
 * with the change points marked by their rank; a table of the
 * iterations (the list, list.h: j/k, pages, g/G and counts move along
 * the iterations, the chart's cursor column with them); b adds one
 * sparkline row a rank; + and - zoom the chart around the cursor; c
 * goes to the next change point; x follows the exclusive times instead.
 * Enter selects the cursor's iteration's slowest call (the max rank's
 * k-th call of the region) on the timeline.  Drawing is
 * mode_trend_draw.c's.
 *
 * Its region is the marked one, else the selected call's, else the one
 * of the most time (sv_session_mark_default, which marks it and says
 * so), over the ranks of the session's rank filter.  The trend of a
 * region of up to TREND_SYNC calls is made at once; a larger one on a
 * worker (job.h, the session's jobs) with a progress line: the
 * model's trend, then each rank's prefix sums for the rank rows.  Esc,
 * another region, metric or rank filter drop the worker without waiting
 * for it (its gathering of the calls cannot stop part-way); a new
 * profile waits for it, since it reads the old one.  Nothing here knows
 * about curses or HDF5.
 */
#include "scopeview/mode.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mode_trend_priv.h"
#include "scopeview/action.h"
#include "scopeview/keys.h"
#include "scopeview/render.h"
#include "scopeview/view.h"

#define TREND_SYNC 100000 /* calls whose trend is made on the UI thread */
#define TREND_RUN  256    /* values read at once for the prefix sums */

/* ---- the worker ---------------------------------------------------------- */

/* Each rank's prefix sums of its values (trend_data.psum); -ECANCELED. */
static int trend_psums(struct trend_work *w, struct sv_job *j)
{
	const struct sv_trend *t = &w->out;
	size_t i, total = 0;
	uint64_t done = 0;
	int64_t buf[TREND_RUN];

	w->poff = sv_xcalloc(t->nranks + 1, sizeof *w->poff);
	for (i = 0; i < t->nranks; i++) {
		size_t len = t->off[i + 1] - t->off[i];
		w->poff[i] = total;
		total += (len + TREND_BLOCK - 1) / TREND_BLOCK + 1;
	}
	w->poff[t->nranks] = total;
	w->psum = sv_xmalloc((total ? total : 1) * sizeof *w->psum);
	for (i = 0; i < t->nranks; i++) {
		const uint32_t *calls = t->calls + t->off[i];
		size_t len = t->off[i + 1] - t->off[i], k = 0, run, q;
		double *ps = w->psum + w->poff[i], acc = 0;

		ps[0] = 0;
		while (k < len) {
			for (run = 1; k + run < len && run < TREND_RUN &&
				      calls[k + run] == calls[k] + run;
				run++)
				;
			if (t->metric == SV_TREND_EXCLUSIVE)
				sv_profile_exclusives(w->p, calls[k], run, buf);
			else
				sv_profile_durations(w->p, calls[k], run, buf);
			for (q = 0; q < run; q++) {
				acc += (double)buf[q];
				k++;
				if (k % TREND_BLOCK == 0 || k == len)
					ps[(k + TREND_BLOCK - 1) /
						TREND_BLOCK] = acc;
			}
		}
		done += len;
		if (j) {
			atomic_store(&j->progress, w->ncalls + done);
			if (atomic_load(&j->cancel))
				return -ECANCELED;
		}
	}
	return 0;
}

static void trend_run(struct trend_work *w, struct sv_job *j)
{
	struct sv_trend_opts o = {
		.metric = w->metric,
		.rank_on = w->rank_on,
		.nrank_on = w->nrank_on,
		.cancel = j ? &j->cancel : NULL,
		.progress = j ? &j->progress : NULL,
	};

	w->rc = sv_trend_compute(&w->out, w->p, w->region, &o, &w->err);
	if (w->rc == 0) {
		w->rc = trend_psums(w, j);
		if (w->rc)
			sv_trend_fini(&w->out);
	}
}

static void trend_job(struct sv_job *j)
{
	trend_run(j->arg, j);
}

/* Free a worker (joined, or never started) and what it made. */
static void trend_work_free(void *arg)
{
	struct trend_work *w = arg;

	if (!w)
		return;
	sv_trend_fini(&w->out);
	free(w->psum);
	free(w->poff);
	free(w->rank_on);
	free(w);
}

/* Drop the worker: told to stop and not waited for, or, with wait,
 * waited for with every one dropped before (the profile it reads is
 * about to go). */
static void trend_stop(struct sv_mode *m, bool wait)
{
	struct trend_data *d = m->data;
	struct trend_work *w = d->work;

	d->work = NULL;
	d->busy = false;
	sv_jobs_drop(&m->s->jobs, w ? &w->job : NULL, trend_work_free, w, wait);
}

/* The trend shown goes; its cursor is what the next one starts on. */
static void trend_clear(struct trend_data *d)
{
	if (d->list.n)
		d->want = d->list.cur;
	sv_list_set_rows(&d->list, 0);
	sv_trend_fini(&d->t);
	free(d->psum);
	free(d->poff);
	d->psum = NULL;
	d->poff = NULL;
	d->valid = false;
	d->serial++;
}

static void trend_place(struct sv_mode *m)
{
	struct trend_data *d = m->data;
	const struct trend_geom *g = &d->geom;

	sv_mode_trend_geom(d, m->w, m->h, &d->geom);
	if (g->ok)
		sv_list_place(
			&d->list, 0, g->table_y + 1, m->w, g->table_h - 1);
	else
		sv_list_place(&d->list, 0, 0, 0, 1);
}

/* A finished worker's result becomes the trend shown. */
static void trend_take(struct sv_mode *m, struct trend_work *w)
{
	struct trend_data *d = m->data;

	trend_clear(d);
	if (w->rc == 0) {
		d->t = w->out;
		d->psum = w->psum;
		d->poff = w->poff;
		memset(&w->out, 0, sizeof w->out);
		w->psum = NULL;
		w->poff = NULL;
		d->valid = true;
	} else if (w->rc != -ECANCELED) {
		snprintf(d->error, sizeof d->error, "%s", w->err.msg);
	}
	trend_work_free(w);
	sv_list_set_rows(&d->list, d->valid ? (long)d->t.npoints : 0);
	sv_list_set_cursor(m, &d->list, d->want);
	trend_place(m);
	sv_mode_trend_follow(d);
}

/* The session's loop took the worker in (sv_jobs_poll). */
static void trend_adopt(struct sv_job *j)
{
	struct trend_work *w = j->arg;
	struct trend_data *d = w->m->data;

	if (d->work == w) {
		d->work = NULL;
		d->busy = false;
	}
	trend_take(w->m, w);
}

/* The calls of region r on the ranks of the session's filter. */
static uint64_t trend_count(const struct sv_session *s, uint32_t r)
{
	const struct sv_profile *p = s->p;
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < p->nrows; i++) {
		const struct sv_row *row = &p->rows[i];
		if (row->region == r &&
			(!s->rank_on || (row->rank < s->nrank_on &&
						s->rank_on[row->rank])))
			n += row->count;
	}
	return n;
}

/* Make the trend of the session's region (the marked one, else the
 * default, marked), over its rank filter. */
static void trend_rebuild(struct sv_mode *m)
{
	struct trend_data *d = m->data;
	struct sv_session *s = m->s;
	const struct sv_profile *p = s->p;
	struct trend_work *w;

	trend_stop(m, false);
	trend_clear(d);
	d->stale = false;
	d->error[0] = '\0';
	if (s->mark_region < 0) {
		d->rebuilding = true;
		sv_session_mark_default_repeated(s);
		d->rebuilding = false;
	}
	/* The same region keeps its iteration; another starts from its
	 * first, the whole run on the chart. */
	if (s->mark_region != d->region)
		d->want = 0;
	if (s->mark_region != d->region) {
		d->ws = 0;
		d->per = 0;
	}
	d->region = s->mark_region;
	snprintf(d->ranks, sizeof d->ranks, "%s", s->rank_spec);
	d->ncalls = 0;
	if (d->region < 0) {
		snprintf(d->error, sizeof d->error,
			"No region: mark one in the panel (p, Enter) or "
			"select a call.");
		return;
	}
	if (!p->has_calls) {
		snprintf(d->error, sizeof d->error,
			"The profile holds no per-call data: no iterations "
			"to follow.");
		return;
	}
	if (d->metric == SV_TREND_EXCLUSIVE && !sv_profile_has_exclusive(p))
		d->metric = SV_TREND_DURATION;
	w = sv_xcalloc(1, sizeof *w);
	w->m = m;
	w->p = p;
	w->region = (uint32_t)d->region;
	w->metric = d->metric;
	if (s->rank_on) {
		w->nrank_on = s->nrank_on;
		w->rank_on = sv_xcalloc(s->nrank_on + 1, sizeof *w->rank_on);
		memcpy(w->rank_on, s->rank_on,
			s->nrank_on * sizeof *w->rank_on);
	}
	w->ncalls = d->ncalls = trend_count(s, w->region);
	if (w->ncalls <= TREND_SYNC) {
		trend_run(w, NULL);
		trend_take(m, w);
		return;
	}
	d->busy = true;
	d->work = w;
	sv_jobs_start(
		&s->jobs, &w->job, trend_job, trend_adopt, w, 2 * w->ncalls);
}

/* ---- the shared figures --------------------------------------------------- */

/* The iterations a column stands for when the whole run fits. */
static long trend_fit(const struct trend_data *d)
{
	long n = d->valid ? (long)d->t.npoints : 0;
	long cw = d->geom.chart_w > 0 ? d->geom.chart_w : 1;

	return n > cw ? (n + cw - 1) / cw : 1;
}

long sv_mode_trend_per(const struct trend_data *d)
{
	long fit = trend_fit(d);

	return d->per > 0 && d->per < fit ? d->per : fit;
}

/* The window's start clamped: the last column holds the last iteration
 * at the latest. */
static void trend_clamp_ws(struct trend_data *d)
{
	long per = sv_mode_trend_per(d), n = d->valid ? (long)d->t.npoints : 0;
	long span = per * (d->geom.chart_w > 0 ? d->geom.chart_w : 1);
	long max = n > span ? n - span : 0;

	if (d->ws > max)
		d->ws = max;
	if (d->ws < 0)
		d->ws = 0;
}

void sv_mode_trend_follow(struct trend_data *d)
{
	long per = sv_mode_trend_per(d), cur = d->list.cur;
	long span = per * (d->geom.chart_w > 0 ? d->geom.chart_w : 1);

	if (d->per >= trend_fit(d))
		d->per = 0; /* the zoom reached the fit (a wider chart) */
	if (cur < d->ws)
		d->ws = cur;
	if (cur >= d->ws + span)
		d->ws = cur - span + 1;
	trend_clamp_ws(d);
}

int64_t sv_mode_trend_value(const struct trend_data *d,
	const struct sv_profile *p, size_t i, long k)
{
	return sv_trend_value(&d->t, p, d->t.calls[d->t.off[i] + (size_t)k]);
}

/* Rank index i's values [a, b) summed from the profile. */
static double trend_read(const struct trend_data *d, const struct sv_profile *p,
	size_t i, long a, long b)
{
	double s = 0;
	for (; a < b; a++)
		s += (double)sv_mode_trend_value(d, p, i, a);
	return s;
}

double sv_mode_trend_sum(const struct trend_data *d, const struct sv_profile *p,
	size_t i, long a, long b, long *n)
{
	long len = (long)(d->t.off[i + 1] - d->t.off[i]), ua, db;
	const double *ps = d->psum + d->poff[i];

	if (a < 0)
		a = 0;
	if (b > len)
		b = len;
	*n = b > a ? b - a : 0;
	if (b <= a)
		return 0;
	/* whole blocks [ua, db) from the prefix sums; the end, when it is
	 * the rank's last iteration, is a prefix sum too */
	ua = (a + TREND_BLOCK - 1) / TREND_BLOCK * TREND_BLOCK;
	ua = ua < len ? ua : len;
	db = b == len ? len : b - b % TREND_BLOCK;
	if (ua >= db)
		return trend_read(d, p, i, a, b);
	return ps[(db + TREND_BLOCK - 1) / TREND_BLOCK] - ps[ua / TREND_BLOCK] +
	       trend_read(d, p, i, a, ua) + trend_read(d, p, i, db, b);
}

const struct sv_trend_change *sv_mode_trend_change_at(
	const struct trend_data *d, long k)
{
	size_t lo = 0, hi = d->valid ? d->t.nchanges : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((long)d->t.changes[mid].index < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < (d->valid ? d->t.nchanges : 0) &&
			       (long)d->t.changes[lo].index == k
		       ? &d->t.changes[lo]
		       : NULL;
}

/* ---- the mode ------------------------------------------------------------- */

/* Select iteration row's slowest call on the timeline, zoomed to it. */
static int trend_enter(struct sv_mode *m, struct sv_list *l, long row)
{
	struct trend_data *d = m->data;
	const struct sv_trend_point *pt;
	int rc;

	(void)l;
	if (d->busy || !d->valid || row < 0 || row >= (long)d->t.npoints)
		return SV_REACT_REDRAW | SV_REACT_BELL;
	pt = &d->t.points[row];
	if (!sv_session_lane_shown(m->s, sv_call_lane(m->s->p, pt->max_call))) {
		sv_session_message(m->s, true,
			"the call's lane is hidden (:rank all shows every "
			"rank)");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	rc = sv_view_show_call(m->view, pt->max_call, true);
	sv_session_message(m->s, false,
		"iteration %ld of '%s': its slowest call, on rank %" PRIu32,
		row, m->s->p->regions[d->t.region], pt->max_rank);
	return rc | SV_REACT_REDRAW;
}

static const struct sv_list_ops trend_list_ops = {
	.draw_row = sv_mode_trend_row,
	.enter = trend_enter,
	.enter_help = "Select the iteration's slowest call on the timeline",
};

static int trend_init(struct sv_mode *m, struct sv_error *err)
{
	struct trend_data *d = m->data;

	(void)err;
	m->w = m->w ? m->w : 120;
	m->h = m->h ? m->h : 40;
	sv_list_init(&d->list, &trend_list_ops, -1);
	d->region = -1;
	d->stale = true;
	trend_place(m);
	return 0;
}

static void trend_fini(struct sv_mode *m)
{
	struct trend_data *d = m->data;

	trend_stop(m, true);
	trend_clear(d);
	sv_mode_trend_cache_fini(&d->cache);
}

static void trend_show(struct sv_mode *m)
{
	struct trend_data *d = m->data;
	struct sv_session *s = m->s;

	if (s->mark_region < 0 && !d->busy) {
		d->rebuilding = true;
		sv_session_mark_default_repeated(s);
		d->rebuilding = false;
	}
	if (d->stale || d->region != s->mark_region ||
		strcmp(d->ranks, s->rank_spec) || (!d->valid && !d->busy))
		trend_rebuild(m);
}

static void trend_notify(struct sv_mode *m, unsigned what)
{
	struct trend_data *d = m->data;

	if (d->rebuilding)
		return;
	if (what & SV_SESSION_PROFILE) {
		/* The old profile goes: nothing may read it. */
		trend_stop(m, true);
		trend_clear(d);
		d->stale = true;
	}
	if (!(what & (SV_SESSION_PROFILE | SV_SESSION_LANES |
			     SV_SESSION_SEARCH)))
		return;
	/* Another rank filter, or another region marked (a mark cleared
	 * keeps the trend shown). */
	if (!(what & SV_SESSION_PROFILE) &&
		!strcmp(d->ranks, m->s->rank_spec) &&
		(m->s->mark_region < 0 || m->s->mark_region == d->region))
		return;
	if (sv_view_main_mode(m->view) == m)
		trend_rebuild(m);
	else
		d->stale = true;
}

static void trend_resize(struct sv_mode *m, int w, int h)
{
	m->w = w;
	m->h = h;
	trend_place(m);
	sv_mode_trend_follow(m->data);
}

/* Esc while the trend is made: stop, and make it again when shown. */
static void trend_cancel(struct sv_mode *m)
{
	struct trend_data *d = m->data;

	if (!d->busy)
		return;
	trend_stop(m, false);
	d->stale = true;
}

static struct sv_list *trend_list_of(struct sv_mode *m)
{
	return &((struct trend_data *)m->data)->list;
}

/* Zoom the chart in (fewer iterations a column) or out, keeping the
 * cursor's column. */
static int trend_zoom(struct sv_mode *m, bool in)
{
	struct trend_data *d = m->data;
	long per = sv_mode_trend_per(d), fit = trend_fit(d), col, np;

	if (!d->valid || !d->t.npoints)
		return SV_REACT_REDRAW | SV_REACT_BELL;
	np = in ? per / 2 : per * 2;
	if ((in && per <= 1) || (!in && per >= fit))
		return SV_REACT_REDRAW | SV_REACT_BELL;
	if (np < 1)
		np = 1;
	col = (d->list.cur - d->ws) / per;
	d->per = np >= fit ? 0 : np;
	d->ws = d->list.cur - col * sv_mode_trend_per(d);
	trend_clamp_ws(d);
	sv_mode_trend_follow(d);
	return SV_REACT_REDRAW;
}

/* The cursor to the next change point after it, round the end. */
static int trend_next_change(struct sv_mode *m)
{
	struct trend_data *d = m->data;
	size_t i;

	if (!d->valid || !d->t.nchanges) {
		sv_session_message(m->s, true, "no change point in '%s'",
			d->region >= 0 ? m->s->p->regions[d->region] : "");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	for (i = 0; i < d->t.nchanges; i++)
		if ((long)d->t.changes[i].index > d->list.cur)
			break;
	if (i == d->t.nchanges)
		i = 0;
	sv_list_set_cursor(m, &d->list, (long)d->t.changes[i].index);
	sv_mode_trend_follow(d);
	sv_session_message(m->s, false,
		"change point %zu of %zu: iteration %" PRIu32 ", rank %" PRIu32,
		i + 1, d->t.nchanges, d->t.changes[i].index,
		d->t.changes[i].rank);
	return SV_REACT_REDRAW;
}

static int trend_apply(struct sv_mode *m, int a)
{
	struct trend_data *d = m->data;

	switch (a) {
	case SV_ACTION_TREND_RANKS:
		d->spark = !d->spark;
		trend_place(m);
		sv_mode_trend_follow(d);
		return SV_REACT_REDRAW;
	case SV_ACTION_TREND_ZOOM_IN:
		return trend_zoom(m, true);
	case SV_ACTION_TREND_ZOOM_OUT:
		return trend_zoom(m, false);
	case SV_ACTION_TREND_NEXT_CHANGE:
		return trend_next_change(m);
	case SV_ACTION_TREND_METRIC:
		if (d->metric == SV_TREND_DURATION &&
			!sv_profile_has_exclusive(m->s->p)) {
			sv_session_message(m->s, true,
				"the profile has no exclusive times");
			return SV_REACT_REDRAW | SV_REACT_BELL;
		}
		d->metric = d->metric == SV_TREND_DURATION ? SV_TREND_EXCLUSIVE
							   : SV_TREND_DURATION;
		trend_rebuild(m);
		return SV_REACT_REDRAW;
	default:
		return SV_REACT_BELL;
	}
}

/* A click on the chart or the rank rows puts the cursor on the first
 * iteration of that column (a click on the change marks, on the change
 * point there; on the cursor's column, Enter); the wheel over them
 * zooms.  Elsewhere the list takes the mouse (-1). */
static int trend_key(struct sv_mode *m, int key)
{
	struct trend_data *d = m->data;
	const struct trend_geom *g = &d->geom;
	int x = sv_key_mouse_x(key), y = sv_key_mouse_y(key);
	int bottom = g->spark_h ? g->spark_y + g->spark_h : g->labels_y + 1;
	long per, k, i;

	if (!sv_key_is_mouse(key) || !g->ok || x < g->chart_x ||
		x >= g->chart_x + g->chart_w || y < g->marks_y || y >= bottom)
		return -1;
	switch (sv_key_mouse_kind(key)) {
	case SV_MOUSE_WHEEL_UP:
		return trend_zoom(m, true);
	case SV_MOUSE_WHEEL_DOWN:
		return trend_zoom(m, false);
	case SV_MOUSE_CLICK:
		break;
	default:
		return 0;
	}
	if (!d->valid || !d->t.npoints)
		return SV_REACT_BELL;
	per = sv_mode_trend_per(d);
	k = d->ws + (long)(x - g->chart_x) * per;
	if (k >= (long)d->t.npoints)
		return SV_REACT_BELL;
	if (y == g->marks_y) {
		for (i = 0; i < (long)d->t.nchanges; i++)
			if ((long)d->t.changes[i].index >= k &&
				(long)d->t.changes[i].index < k + per) {
				sv_list_set_cursor(m, &d->list,
					(long)d->t.changes[i].index);
				return SV_REACT_REDRAW;
			}
	}
	if (d->list.cur >= k && d->list.cur < k + per)
		return sv_list_apply(m, &d->list, SV_ACTION_LIST_ENTER, 0);
	sv_list_set_cursor(m, &d->list, k);
	sv_mode_trend_follow(d);
	return SV_REACT_REDRAW;
}

static void trend_describe(const struct sv_mode *m, char *buf, size_t n)
{
	const struct trend_data *d = m->data;

	snprintf(buf, n,
		"cur=%ld n=%ld per=%ld ws=%ld spark=%d metric=%d busy=%d "
		"region=%ld changes=%zu",
		d->list.cur, d->list.n, sv_mode_trend_per(d), d->ws,
		(int)d->spark, (int)d->metric, (int)d->busy, d->region,
		d->valid ? d->t.nchanges : 0);
}

const struct sv_mode_ops sv_mode_trend = {
	.name = "trend",
	.title = "Iteration trend",
	.main = true,
	.scopes = {SV_SCOPE_TREND, SV_SCOPE_LIST, SV_SCOPE_GLOBAL, 0},
	.size = sizeof(struct trend_data),
	.init = trend_init,
	.fini = trend_fini,
	.notify = trend_notify,
	.resize = trend_resize,
	.apply = trend_apply,
	.key = trend_key,
	.draw = sv_mode_trend_draw,
	.describe = trend_describe,
	.show = trend_show,
	.cancel = trend_cancel,
	.list = trend_list_of,
};
