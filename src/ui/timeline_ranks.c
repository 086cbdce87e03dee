/*
 * timeline_ranks.c: the timeline's view of ranks (timeline.h).
 *
 * For the selected region (the marked one, else the selected call's):
 * each rank's time in it, read from a ranks matrix (ranks.h) of the
 * session's statistics, so the figures are summary's; and the ranks
 * inside it over time, built once per selection (on a worker thread,
 * job.h, when the region has many calls) and counted per column while
 * drawing, one binary search a rank and column.  From these: the rank
 * rows (one row a rank, at the region's depth or one chosen, the label a
 * bar of the rank's time with the slowest rank highlighted), the strip
 * of how many ranks are inside the region in each column, and the rows
 * of the ordinary timeline without the depth rows empty in the window.
 * Also here: the panel's width (keys and dragging its border), and the
 * geometry that gives the details box room only while a call is
 * selected.  Nothing here knows about curses or HDF5.
 */
#include "scopeview/timeline.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/keys.h"
#include "scopeview/mode.h"
#include "scopeview/render.h"

/* Regions with more calls than this build their figures on a worker. */
#define TLRANKS_SYNC_CALLS 200000
/* The panel's width: the step of a key, and the narrowest. */
#define TLRANKS_PANEL_STEP 4
#define TLRANKS_PANEL_MIN  20 /* as the config file's panel-width */

long sv_timeline_ranks_region(const struct sv_timeline *v)
{
	const struct sv_session *s = v->s;

	if (!s->p->has_calls)
		return -1;
	if (s->mark_region >= 0)
		return s->mark_region;
	if (s->sel != SV_NO_CALL)
		return (long)sv_call_region(s->p, s->sel);
	return -1;
}

unsigned sv_timeline_ranks_depth(const struct sv_timeline *v)
{
	const struct sv_tlranks *t = &v->ranks;

	if (t->depth_set >= 0)
		return (unsigned)t->depth_set;
	if (t->ri_valid && t->ri.ncalls)
		return t->ri.depth;
	if (v->s->sel != SV_NO_CALL)
		return sv_profile_depth(v->s->p, v->s->sel);
	return 0;
}

/* ---- the figures: once per selection ------------------------------------ */

/* One build of the ranks inside a region on a worker: its input (a copy
 * of the rank filter) and its result. */
struct sv_tlranks_work {
	struct sv_job job;
	struct sv_timeline *v; /* whose strip, for adopt on the loop */
	struct sv_ranks_inside out;
	const struct sv_profile *p;
	uint32_t region;
	bool *rank_on;
	uint32_t nrank_on;
	int rc;
};

static bool tlranks_poll_job(void *ctx, uint64_t done)
{
	struct sv_job *j = ctx;
	atomic_store(&j->progress, done);
	return atomic_load(&j->cancel);
}

static void tlranks_job(struct sv_job *j)
{
	struct sv_tlranks_work *w = j->arg;

	w->rc = sv_ranks_inside_build(&w->out, w->p, w->region, w->rank_on,
		w->nrank_on, tlranks_poll_job, j);
}

static void tlranks_ri_free(void *arg)
{
	sv_ranks_inside_fini(arg);
	free(arg);
}

/* Empty ri: its intervals (16 bytes each, up to one a call of a rank
 * whose calls nest: hundreds of MB at 100M calls) are freed on a thread
 * of their own when large; its runs are a few a rank. */
static void tlranks_ri_drop(struct sv_ranks_inside *ri)
{
	uint64_t n = ri->off ? ri->off[ri->nranks] : 0;
	struct sv_ranks_inside *g = sv_xmalloc(sizeof *g);

	*g = *ri;
	memset(ri, 0, sizeof *ri);
	sv_job_free_later(tlranks_ri_free, g, (size_t)n * 2 * sizeof(int64_t));
}

/* Free a joined worker and what it made. */
static void tlranks_work_free(void *arg)
{
	struct sv_tlranks_work *w = arg;

	if (!w)
		return;
	tlranks_ri_drop(&w->out);
	free(w->rank_on);
	free(w);
}

/* Drop the worker: told to stop and not waited for (its sort of one
 * rank's calls cannot stop part-way: hundreds of ms at 100M calls), or,
 * with wait, waited for with every one dropped before (the profile they
 * read is about to go). */
static void tlranks_stop(struct sv_timeline *v, bool wait)
{
	struct sv_tlranks *t = &v->ranks;
	struct sv_tlranks_work *w = t->work;

	t->work = NULL;
	t->busy = false;
	sv_jobs_drop(
		&v->s->jobs, w ? &w->job : NULL, tlranks_work_free, w, wait);
}

/* The figures dropped; the worker too, waited for when wait. */
static void tlranks_clear(struct sv_timeline *v, bool wait)
{
	struct sv_tlranks *t = &v->ranks;

	tlranks_stop(v, wait);
	tlranks_ri_drop(&t->ri);
	t->ri_valid = false;
	free(t->ri_rank_on);
	t->ri_rank_on = NULL;
	t->ri_nrank_on = 0;
	sv_ranks_fini(&t->m);
	t->m_valid = false;
}

void sv_timeline_ranks_fini(struct sv_timeline *v)
{
	tlranks_clear(v, true);
}

/* The loop took the worker in (sv_jobs_poll): its ranks become the
 * strip's, and the timeline follows. */
static void tlranks_adopt(struct sv_job *j)
{
	struct sv_tlranks_work *w = j->arg;
	struct sv_timeline *v = w->v;
	struct sv_tlranks *t = &v->ranks;

	t->busy = false;
	t->work = NULL;
	if (w->rc == 0) {
		tlranks_ri_drop(&t->ri);
		t->ri = w->out;
		memset(&w->out, 0, sizeof w->out);
		t->ri_valid = true;
	}
	tlranks_work_free(w);
	sv_timeline_sync(v);
}

void sv_timeline_mode_show(struct sv_mode *m)
{
	sv_timeline_sync(m->data);
}

/* The matrix of each rank's time, and the region's column of it. */
static void tlranks_matrix(struct sv_timeline *v)
{
	struct sv_tlranks *t = &v->ranks;
	const struct sv_session *s = v->s;
	size_t j;

	sv_ranks_fini(&t->m);
	t->m_valid = false;
	t->m_col = -1;
	if (t->region < 0 || !sv_session_stats(s))
		return;
	t->m_valid = sv_ranks_compute(
			     &t->m, sv_session_stats(s), SV_RANKS_TOTAL) == 0;
	for (j = 0; t->m_valid && j < sv_session_stats(s)->nregions; j++)
		if ((long)sv_session_stats(s)->regions[j].region == t->region)
			t->m_col = (long)j;
}

/* A copy of the session's rank filter (NULL: every rank). */
static bool *tlranks_copy_ranks(const struct sv_session *s)
{
	bool *on;

	if (!s->rank_on)
		return NULL;
	on = sv_xmalloc(s->nrank_on ? s->nrank_on : 1);
	memcpy(on, s->rank_on, s->nrank_on);
	return on;
}

/* Whether the ranks inside region are made, or being made, for the
 * session's rank filter. */
static bool tlranks_same(const struct sv_timeline *v, long region)
{
	const struct sv_tlranks *t = &v->ranks;
	const struct sv_session *s = v->s;
	uint32_t n = s->rank_on ? s->nrank_on : 0;

	if (region < 0 || region != t->region || (!t->ri_valid && !t->busy))
		return false;
	if (!s->rank_on || !t->ri_rank_on)
		return !s->rank_on && !t->ri_rank_on;
	return n == t->ri_nrank_on && !memcmp(s->rank_on, t->ri_rank_on, n);
}

/* Start over for the current region: the matrix now, the ranks inside
 * it now or on the worker (kept when made for the same region and
 * ranks: the lanes shown and the region filter do not change them). */
static void tlranks_recompute(struct sv_timeline *v, long region)
{
	struct sv_tlranks *t = &v->ranks;
	const struct sv_session *s = v->s;
	const struct sv_profile *p = s->p;
	uint64_t n = 0;
	size_t i;

	struct sv_tlranks_work *w;

	if (tlranks_same(v, region)) {
		t->stale = false;
		tlranks_matrix(v);
		return;
	}
	tlranks_clear(v, false);
	t->region = region;
	t->stale = false;
	tlranks_matrix(v);
	if (region < 0)
		return;
	for (i = 0; i < p->nrows; i++)
		if ((long)p->rows[i].region == region)
			n += p->rows[i].count;
	w = sv_xcalloc(1, sizeof *w);
	w->p = p;
	w->region = (uint32_t)region;
	/* The ranks of the rank filter (a copy: it may change while the
	 * worker runs). */
	w->nrank_on = s->rank_on ? s->nrank_on : 0;
	w->rank_on = tlranks_copy_ranks(s);
	t->ri_rank_on = tlranks_copy_ranks(s);
	t->ri_nrank_on = w->nrank_on;
	if (n <= TLRANKS_SYNC_CALLS) {
		t->ri_valid = sv_ranks_inside_build(&t->ri, p, w->region,
				      w->rank_on, w->nrank_on, NULL, NULL) == 0;
		tlranks_work_free(w);
		return;
	}
	t->busy = true;
	t->work = w;
	w->v = v;
	sv_jobs_start(&v->s->jobs, &w->job, tlranks_job, tlranks_adopt, w, n);
}

/* ---- rows ---------------------------------------------------------------- */

/* One row a rank of the lanes shown, at the rank rows' depth: the rank's
 * lane holding most of the region's calls, else its first lane shown. */
static void tlranks_rank_rows(struct sv_timeline *v)
{
	const struct sv_profile *p = v->s->p;
	struct sv_layout_rows *r = &v->rows;
	uint16_t depth = (uint16_t)sv_timeline_ranks_depth(v);
	size_t l;
	bool have = false;
	uint32_t last = 0;

	r->n = 0;
	for (l = 0; p->has_calls && l < p->nlanes; l++) {
		const struct sv_lane *lane = &p->lanes[l];
		uint32_t use = (uint32_t)l;
		long k;
		if (v->s->lane_hidden[l] || (have && lane->rank == last))
			continue;
		have = true;
		last = lane->rank;
		k = v->ranks.ri_valid
			    ? sv_ranks_inside_find(&v->ranks.ri, lane->rank)
			    : -1;
		if (k >= 0 && !v->s->lane_hidden[v->ranks.ri.lane[k]])
			use = v->ranks.ri.lane[k];
		sv_grow((void **)&r->rows, &r->cap, r->n + 1, sizeof *r->rows);
		r->rows[r->n++] = (struct sv_layout_row){
			.lane = use,
			.lane_end = use + 1,
			.depth = depth,
			.depth_last = depth,
			.lane_first = true,
			.lane_last = true,
		};
	}
}

void sv_timeline_sync(struct sv_timeline *v)
{
	struct sv_tlranks *t = &v->ranks;
	long region = sv_timeline_ranks_region(v);
	bool details, strip;

	/* While the session's lists are being made (a region just marked),
	 * the strip waits for them: side by side the two workers slowed
	 * the list the views wait for. */
	if ((region != t->region || t->stale) &&
		!sv_session_matches_pending(v->s))
		tlranks_recompute(v, region);
	else if (t->stale_m)
		tlranks_matrix(v);
	t->stale_m = false;
	details = v->details_shown && !v->sel_by_cursor &&
		  (v->s->sel != SV_NO_CALL || v->s->sel2 != SV_NO_CALL);
	/* The strip tells something when two ranks or more have calls of
	 * the region (or while that is being found out). */
	strip = t->region >= 0 && sv_timeline_multi_rank(v->s->p) &&
		(t->busy || (t->ri_valid && t->ri.nranks > 1));
	if (details != v->laid_details || strip != v->laid_strip) {
		v->laid_details = details;
		v->laid_strip = strip;
		sv_timeline_resize(v, v->w, v->h);
	}
	sv_timeline_rows_changed(v);
}

void sv_timeline_build_rows(struct sv_timeline *v)
{
	if (v->ranks.on) {
		tlranks_rank_rows(v);
		return;
	}
	sv_timeline_two_lanes(v);
	sv_layout_rows_build_two(&v->rows, v->s->p, v->s->lane_hidden,
		v->lane_folded, sv_session_two_rows(v->s) ? v->s->p2 : NULL,
		sv_session_lane2_hidden(v->s), v->lane2_folded);
	sv_timeline_fold_rows(v);
}

/* ---- keys and the mouse -------------------------------------------------- */

static int tlranks_panel_width(struct sv_timeline *v, int want)
{
	if (!v->geom.panel_w) {
		sv_session_message(v->s, false,
			"the summary panel is hidden (P shows it; it needs "
			"100 columns)");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	if (want < TLRANKS_PANEL_MIN)
		want = TLRANKS_PANEL_MIN;
	if (want > v->w - 60)
		want = v->w - 60;
	if (want == v->geom.panel_w)
		return SV_REACT_BELL;
	v->s->panel_width = want;
	sv_timeline_resize(v, v->w, v->h);
	sv_session_message(
		v->s, false, "panel %d columns wide", v->geom.panel_w);
	return SV_REACT_REDRAW;
}

int sv_timeline_ranks_apply(struct sv_timeline *v, int a)
{
	struct sv_tlranks *t = &v->ranks;
	char name[64] = "";

	switch (a) {
	case SV_ACTION_RANK_ROWS:
		if (!v->s->p->has_calls || !v->s->p->nlanes)
			return SV_REACT_BELL;
		t->on = !t->on;
		if (!t->on) {
			sv_session_message(v->s, false, "every lane's rows");
			return SV_REACT_REDRAW;
		}
		break;
	case SV_ACTION_RANK_DEPTH_UP:
	case SV_ACTION_RANK_DEPTH_DOWN: {
		long d = (long)sv_timeline_ranks_depth(v);
		if (!t->on) {
			int r = sv_timeline_fold_depth(
				v, a == SV_ACTION_RANK_DEPTH_DOWN ? 1 : -1);
			if (r >= 0)
				return r;
			sv_session_message(v->s, false,
				"b shows the rank rows, z folds a rank: ( and "
				") "
				"change their depth");
			return SV_REACT_REDRAW | SV_REACT_BELL;
		}
		d += a == SV_ACTION_RANK_DEPTH_DOWN ? 1 : -1;
		if (d < 0 || d > SV_MAX_DEPTH)
			return SV_REACT_BELL;
		t->depth_set = d;
		break;
	}
	case SV_ACTION_PANEL_WIDER:
		return tlranks_panel_width(
			v, v->geom.panel_w + TLRANKS_PANEL_STEP);
	case SV_ACTION_PANEL_NARROWER:
		return tlranks_panel_width(
			v, v->geom.panel_w - TLRANKS_PANEL_STEP);
	default:
		return -1;
	}
	if (t->region >= 0)
		snprintf(name, sizeof name, ", %s's time as bars",
			v->s->p->regions[t->region]);
	sv_session_message(v->s, false, "a row a rank at depth %u%s",
		sv_timeline_ranks_depth(v), name);
	return SV_REACT_REDRAW;
}

int sv_timeline_border_mouse(struct sv_timeline *v, int kind, int x, int y)
{
	const struct sv_layout_geom *g = &v->geom;

	switch (kind) {
	case SV_MOUSE_CLICK:
		if (!g->panel_w || x != g->panel_x || y < g->panel_y ||
			y >= g->panel_y + g->panel_h)
			return -1;
		v->drag_border = true;
		return 0;
	case SV_MOUSE_DRAG:
		if (!v->drag_border)
			return -1;
		return tlranks_panel_width(v, v->w - x) & ~SV_REACT_BELL;
	case SV_MOUSE_RELEASE:
		if (!v->drag_border)
			return -1;
		v->drag_border = false;
		return SV_REACT_REDRAW;
	default:
		return -1;
	}
}

/* ---- drawing ------------------------------------------------------------- */

void sv_timeline_draw_rank_label(const struct sv_timeline *v, struct sv_grid *g,
	long row, int y, int w, int style)
{
	const struct sv_tlranks *t = &v->ranks;
	const struct sv_profile *p = v->s->p;
	const struct sv_lane *lane = &p->lanes[v->rows.rows[row].lane];
	const struct sv_glyphs *gl = sv_render_glyphs(v->s->opts.ascii);
	char rank[16], val[16];
	int64_t ns = 0, max = 0;
	long r;
	int x, rw, bw, figure = SV_STYLE_BAR;
	bool has = false;

	snprintf(rank, sizeof rank, "r%" PRIu32, lane->rank);
	if (t->m_valid && t->m_col >= 0) {
		const struct sv_ranks_fig *f = &t->m.fig[t->m_col];
		r = sv_ranks_row_of(&t->m, lane->rank);
		has = r >= 0 && sv_ranks_value(&t->m,
					sv_ranks_cell_at(&t->m, (size_t)r,
						(size_t)t->m_col),
					&ns);
		max = f->has ? f->max_ns : 0;
		/* The slowest rank's bar and time stand out, on the cursor's
		 * row too; its name too elsewhere. */
		if (has && f->has && f->nranks > 1 &&
			f->slowest_rank == lane->rank) {
			figure = SV_STYLE_WARNING;
			if (style != SV_STYLE_LABEL_CURSOR)
				style = SV_STYLE_WARNING;
		}
	}
	sv_grid_fill(g, 0, y, w, y + 1, ' ', style, 0);
	/* "r12 ██████▍  1.23ms": the rank, its bar, its time. */
	rw = sv_grid_text(g, 1, y, 6, rank, style, 0, gl->ellipsis);
	{
		/* Bars start in one column: after the widest rank's name. */
		char widest[16];
		int ww = snprintf(widest, sizeof widest, "r%" PRIu32,
			p->lanes[p->nlanes - 1].rank);
		if (ww > rw && ww <= 6)
			rw = ww;
	}
	if (!has) {
		if (t->m_col >= 0)
			sv_grid_text(g, 1 + rw + 1, y, w - rw - 2, "-",
				SV_STYLE_DIM, 0, 0);
		return;
	}
	sv_render_short(ns, val, sizeof val);
	x = 1 + rw + 1;
	bw = w - x - (int)strlen(val) - 1;
	if (bw >= 2)
		sv_render_bar(g, x, y, bw,
			max > 0 ? (double)ns / (double)max : 0,
			v->s->opts.ascii, figure,
			sv_grid_region_color(p->regions[t->region]));
	sv_grid_text(g, w - (int)strlen(val), y, (int)strlen(val), val,
		figure == SV_STYLE_WARNING ? figure : style, 0, 0);
}

void sv_timeline_draw_strip(const struct sv_timeline *v, struct sv_grid *g)
{
	static const uint32_t levels[] = {
		0x2581, 0x2582, 0x2583, 0x2584, 0x2585, 0x2586, 0x2587, 0x2588};
	static const char ascii_levels[] = "._-=+*%#";
	const struct sv_tlranks *t = &v->ranks;
	const struct sv_layout_geom *geo = &v->geom;
	const struct sv_glyphs *gl = sv_render_glyphs(v->s->opts.ascii);
	struct sv_tmap m = sv_timeline_tmap(v);
	int y = geo->strip_y, x, color, cx = sv_tmap_col(&m, v->cur_t);
	uint32_t n, at_cursor = 0;
	const char *name;
	char label[32];

	if (!geo->strip_h || t->region < 0)
		return;
	name = v->s->p->regions[t->region];
	color = sv_grid_region_color(name);
	sv_grid_fill(g, 0, y, geo->tl_x + geo->tl_w, y + 1, ' ',
		SV_STYLE_DEFAULT, 0);
	sv_grid_put(g, geo->label_w - 1, y, gl->vline, SV_STYLE_BORDER, 0);
	if (t->busy) {
		sv_grid_textf(g, 1, y, geo->label_w - 2, SV_STYLE_DIM, 0,
			"ranks inside: %d%%",
			t->work ? sv_job_percent(&t->work->job) : 0);
		return;
	}
	if (!t->ri_valid)
		return;
	n = t->ri.nranks;
	for (x = m.x0; n && x < m.x0 + m.w; x++) {
		uint32_t k = sv_ranks_inside_count(
			&t->ri, sv_tmap_time(&m, x), sv_tmap_time(&m, x + 1));
		int lv;
		if (x == cx)
			at_cursor = k;
		if (!k)
			continue;
		lv = (int)(((uint64_t)k * 8 + n - 1) / n) - 1;
		sv_grid_put(g, x, y,
			v->s->opts.ascii ? (uint32_t)ascii_levels[lv]
					 : levels[lv],
			k == n ? SV_STYLE_SPAN : SV_STYLE_SPAN_MERGED, color);
	}
	/* "12/16 in solve": the ranks inside it at the cursor's column. */
	if (cx >= m.x0 && cx < m.x0 + m.w)
		snprintf(label, sizeof label, "%" PRIu32 "/%" PRIu32 " in ",
			at_cursor, n);
	else
		snprintf(label, sizeof label, "%" PRIu32 " ranks in ", n);
	x = 1 + sv_grid_text(
			g, 1, y, geo->label_w - 2, label, SV_STYLE_LABEL, 0, 0);
	sv_grid_text(g, x, y, geo->label_w - 1 - x, name, SV_STYLE_LABEL, 0,
		gl->ellipsis);
}

void sv_timeline_ranks_status(const struct sv_timeline *v, char *buf, size_t n)
{
	const struct sv_tlranks *t = &v->ranks;
	size_t used;

	if (!n)
		return;
	buf[0] = '\0';
	if (!t->on)
		return;
	used = (size_t)snprintf(
		buf, n, "  rank rows, depth %u", sv_timeline_ranks_depth(v));
	if (used < n && t->m_valid && t->m_col >= 0 && t->m.fig[t->m_col].has &&
		t->m.fig[t->m_col].nranks > 1) {
		/* The answer to "which rank is slowest, by how much". */
		const struct sv_ranks_fig *f = &t->m.fig[t->m_col];
		char max[16];
		snprintf(buf + used, n - used,
			"; slowest r%" PRIu32 " %s, +%.1f%% of the mean",
			f->slowest_rank,
			sv_render_short(f->max_ns, max, sizeof max),
			f->mean_ns > 0 ? 100.0 * f->excess_ns / f->mean_ns
				       : 0.0);
	}
}
