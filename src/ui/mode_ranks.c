/*
 * mode_ranks.c: the ranks view, a rank x region matrix (`:view ranks`).
 *
 * Regions in columns (the panel's order, or by rank imbalance), ranks in
 * rows, each cell a rank's total or exclusive time in the region,
 * coloured by its excess over the region's mean over ranks on a heat
 * scale (well below: dim).  Over the matrix, per
 * region, the load-balance figures of ranks.h: min, mean, max, slowest
 * rank, excess over the mean and rank_imbalance_pct as summary reports
 * it.  The rows are a list (list.h).  Enter shows only the cursor's
 * rank on the timeline with the region marked; s goes to the slowest rank of the region with the
 * largest excess and marks it, m marks the cursor's region, and H and L
 * (global keys) then show its histogram and its calls.
 *
 * The matrix comes from the session's statistics (the lanes on display)
 * and is rebuilt when they change, never per frame.  With more than twice
 * as many ranks as rows fit, consecutive ranks are grouped into one row
 * each (the cell shows the group's median, the line under the figures its
 * min / median / max), and e expands the group under the cursor.  A frame
 * costs (visible rows x visible columns) cells, plus a small sort per
 * grouped cell, and allocates nothing.  Nothing here knows about curses
 * or HDF5.
 */
#include "scopeview/mode.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/diff.h"
#include "scopeview/list.h"
#include "scopeview/palette.h"
#include "scopeview/ranks.h"
#include "scopeview/render.h"
#include "scopeview/timeline.h"
#include "scopeview/view.h"

#define RANKS_LABEL_W 12 /* the rank (or group) column */
#define RANKS_CELL_W  10 /* one region column */
#define RANKS_HEAD_H  9  /* title, names, six figures, details line */

struct ranks_data {
	struct sv_ranks m;
	bool valid;
	enum sv_ranks_metric metric;
	bool by_imbalance;
	size_t *order; /* column -> matrix region index */
	int64_t *scratch;
	/* Rows: group size (1 = no grouping) and the expanded group (-1). */
	size_t group;
	long expanded;
	struct sv_list list; /* over the display rows */
	long col, left;
	/* With a second run: its matrix (same metric), each region's
	 * column there (by name, -1: none), and whether the cells show the
	 * change from this run to it (x steps there too). */
	struct sv_ranks m2;
	bool valid2, change;
	long *col2;
};

/* Rows the matrix part of the screen has. */
static long ranks_rows_avail(const struct sv_mode *m)
{
	long h = m->h - RANKS_HEAD_H - 1;
	return h > 1 ? h : 1;
}

static size_t ranks_ngroups(const struct ranks_data *d)
{
	return d->group ? (d->m.nranks + d->group - 1) / d->group : 0;
}

/* Display rows: groups, with the expanded one as single ranks. */
static long ranks_nrows(const struct ranks_data *d)
{
	size_t ng = ranks_ngroups(d);
	if (d->group <= 1)
		return (long)d->m.nranks;
	if (d->expanded < 0)
		return (long)ng;
	{
		size_t r0 = (size_t)d->expanded * d->group;
		size_t r1 = r0 + d->group < d->m.nranks ? r0 + d->group
							: d->m.nranks;
		return (long)(ng - 1 + (r1 - r0));
	}
}

/* Matrix rows [*r0, *r1) of display row i; true when it is a group. */
static bool ranks_row_span(
	const struct ranks_data *d, long i, size_t *r0, size_t *r1)
{
	size_t g = d->group, n = d->m.nranks;
	long e = d->expanded;

	if (g <= 1) {
		*r0 = (size_t)i;
		*r1 = *r0 + 1;
		return false;
	}
	if (e >= 0 && i >= e) {
		size_t e0 = (size_t)e * g, e1 = e0 + g < n ? e0 + g : n;
		if ((size_t)(i - e) < e1 - e0) {
			*r0 = e0 + (size_t)(i - e);
			*r1 = *r0 + 1;
			return false;
		}
		i -= (long)(e1 - e0) - 1;
	}
	*r0 = (size_t)i * g;
	*r1 = *r0 + g < n ? *r0 + g : n;
	return *r1 - *r0 > 1;
}

/* The display row holding matrix row r. */
static long ranks_display_row(const struct ranks_data *d, size_t r)
{
	long i, n = ranks_nrows(d);
	for (i = 0; i < n; i++) {
		size_t r0, r1;
		ranks_row_span(d, i, &r0, &r1);
		if (r >= r0 && r < r1)
			return i;
	}
	return 0;
}

static void ranks_clamp(struct sv_mode *m)
{
	struct ranks_data *d = m->data;
	long cols = (m->w - RANKS_LABEL_W) / RANKS_CELL_W;

	sv_list_set_rows(&d->list, d->valid ? ranks_nrows(d) : 0);
	if (d->col >= (long)d->m.nregions)
		d->col = (long)d->m.nregions - 1;
	if (d->col < 0)
		d->col = 0;
	if (cols < 1)
		cols = 1;
	if (d->left > d->col)
		d->left = d->col;
	if (d->col >= d->left + cols)
		d->left = d->col - cols + 1;
}

static void ranks_regroup(struct sv_mode *m)
{
	struct ranks_data *d = m->data;
	size_t h = (size_t)ranks_rows_avail(m);

	d->group = 1;
	if (d->m.nranks > 2 * h)
		d->group = (d->m.nranks + h - 1) / h;
	d->expanded = -1;
	ranks_clamp(m);
}

static void ranks_reorder(struct ranks_data *d)
{
	size_t j;
	if (d->by_imbalance)
		sv_ranks_order_by_imbalance(&d->m, d->order);
	else
		for (j = 0; j < d->m.nregions; j++)
			d->order[j] = j;
}

static void ranks_rebuild(struct sv_mode *m)
{
	struct ranks_data *d = m->data;

	sv_ranks_fini(&d->m);
	sv_ranks_fini(&d->m2);
	free(d->order);
	free(d->scratch);
	free(d->col2);
	d->order = NULL;
	d->scratch = NULL;
	d->col2 = NULL;
	d->valid =
		sv_session_stats(m->s) &&
		sv_ranks_compute(&d->m, sv_session_stats(m->s), d->metric) == 0;
	d->valid2 = d->valid && sv_session_stats2(m->s) &&
		    sv_ranks_compute(
			    &d->m2, sv_session_stats2(m->s), d->metric) == 0;
	if (!d->valid2)
		d->change = false;
	if (!d->valid) {
		sv_list_set_rows(&d->list, 0);
		return;
	}
	if (d->valid2) {
		size_t j, k;
		d->col2 = sv_xmalloc((d->m.nregions + 1) * sizeof *d->col2);
		for (j = 0; j < d->m.nregions; j++) {
			d->col2[j] = -1;
			for (k = 0; k < d->m2.nregions; k++)
				if (!strcmp(d->m.t->regions[j].name,
					    d->m2.t->regions[k].name))
					d->col2[j] = (long)k;
		}
	}
	d->order = sv_xcalloc(d->m.nregions + 1, sizeof *d->order);
	d->scratch = sv_xcalloc(
		(d->m.nranks > d->m2.nranks ? d->m.nranks : d->m2.nranks) + 1,
		sizeof *d->scratch);
	ranks_reorder(d);
	ranks_regroup(m);
}

static int ranks_enter(struct sv_mode *m, struct sv_list *l, long row);
static void ranks_draw_row(const struct sv_mode *m, const struct sv_list *l,
	struct sv_grid *g, long row, int x, int y, int w, int style);

static const struct sv_list_ops ranks_list_ops = {
	.draw_row = ranks_draw_row,
	.enter = ranks_enter,
	.enter_help = "Show only this rank on the timeline, the region marked",
};

static void ranks_place(struct sv_mode *m)
{
	struct ranks_data *d = m->data;
	sv_list_place(
		&d->list, 0, RANKS_HEAD_H, m->w, (int)ranks_rows_avail(m));
}

static int ranks_init(struct sv_mode *m, struct sv_error *err)
{
	struct ranks_data *d = m->data;
	(void)err;
	m->w = m->w ? m->w : 120;
	m->h = m->h ? m->h : 40;
	sv_list_init(&d->list, &ranks_list_ops, -1);
	ranks_place(m);
	ranks_rebuild(m);
	return 0;
}

static void ranks_fini(struct sv_mode *m)
{
	struct ranks_data *d = m->data;
	sv_ranks_fini(&d->m);
	sv_ranks_fini(&d->m2);
	free(d->order);
	free(d->scratch);
	free(d->col2);
}

static void ranks_notify(struct sv_mode *m, unsigned what)
{
	if (what & (SV_SESSION_LANES | SV_SESSION_PROFILE | SV_SESSION_SORT))
		ranks_rebuild(m);
}

static void ranks_resize(struct sv_mode *m, int w, int h)
{
	m->w = w;
	m->h = h;
	ranks_place(m);
	if (((struct ranks_data *)m->data)->valid)
		ranks_regroup(m);
}

static struct sv_list *ranks_list(struct sv_mode *m)
{
	struct ranks_data *d = m->data;
	return &d->list;
}

/* The column of the region with the largest excess, and its slowest
 * rank's row. */
static int ranks_worst(struct sv_mode *m)
{
	struct ranks_data *d = m->data;
	long best = -1, r;
	size_t j;

	for (j = 0; j < d->m.nregions; j++) {
		const struct sv_ranks_fig *f = &d->m.fig[d->order[j]];
		if (f->has &&
			(best < 0 ||
				f->excess_ns >
					d->m.fig[d->order[best]].excess_ns))
			best = (long)j;
	}
	if (best < 0)
		return SV_REACT_REDRAW | SV_REACT_BELL;
	d->col = best;
	r = sv_ranks_row_of(&d->m, d->m.fig[d->order[best]].slowest_rank);
	if (d->group > 1)
		d->expanded = (long)((size_t)r / d->group);
	ranks_clamp(m);
	sv_list_set_cursor(m, &d->list, ranks_display_row(d, (size_t)r));
	sv_session_mark_region(
		m->s, (long)d->m.t->regions[d->order[best]].region);
	sv_session_message(m->s, false,
		"rank %" PRIu32 " loses most time in '%s'",
		d->m.fig[d->order[best]].slowest_rank,
		d->m.t->regions[d->order[best]].name);
	return SV_REACT_REDRAW;
}

static int ranks_enter(struct sv_mode *m, struct sv_list *l, long row)
{
	struct ranks_data *d = m->data;
	struct sv_session *s = m->s;
	struct sv_timeline *tl;
	char spec[16];
	size_t r0, r1;
	uint32_t region, rank;
	int rc;

	(void)l;
	if (!d->valid || !d->m.nranks || !d->m.nregions)
		return SV_REACT_REDRAW | SV_REACT_BELL;
	if (ranks_row_span(d, row, &r0, &r1)) {
		sv_session_message(s, true, "a group of ranks: e expands it");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	rank = d->m.ranks[r0];
	region = d->m.t->regions[d->order[d->col]].region;
	snprintf(spec, sizeof spec, "%" PRIu32, rank);
	if (sv_session_set_ranks(s, spec) < 0)
		return SV_REACT_REDRAW | SV_REACT_BELL;
	/* The session told this mode to rebuild; the view switches now. */
	rc = sv_view_switch(m->view, "timeline");
	tl = sv_view_timeline(m->view);
	if (tl)
		rc |= sv_timeline_mark_region(tl, (long)region);
	else
		sv_session_mark_region(s, (long)region);
	return rc | SV_REACT_REDRAW;
}

static int ranks_apply(struct sv_mode *m, int a)
{
	struct ranks_data *d = m->data;

	if (!d->valid && a != SV_ACTION_RANKS_ALL)
		return SV_REACT_REDRAW | SV_REACT_BELL;
	switch (a) {
	case SV_ACTION_RANKS_RIGHT:
		d->col++;
		break;
	case SV_ACTION_RANKS_LEFT:
		d->col--;
		break;
	case SV_ACTION_RANKS_METRIC:
		/* total, exclusive, and with a second run the change of the
		 * total from this run to it */
		if (d->change) {
			d->change = false;
			d->metric = SV_RANKS_TOTAL;
		} else if (d->metric == SV_RANKS_TOTAL) {
			d->metric = SV_RANKS_EXCLUSIVE;
		} else {
			d->metric = SV_RANKS_TOTAL;
			d->change = d->valid2;
		}
		sv_ranks_set_metric(&d->m, d->metric);
		if (d->valid2)
			sv_ranks_set_metric(&d->m2, d->metric);
		break;
	case SV_ACTION_RANKS_SORT:
		d->by_imbalance = !d->by_imbalance;
		ranks_reorder(d);
		d->col = 0;
		d->left = 0;
		break;
	case SV_ACTION_RANKS_WORST:
		return ranks_worst(m);
	case SV_ACTION_RANKS_EXPAND: {
		size_t r0, r1;
		if (d->group <= 1) {
			sv_session_message(m->s, false,
				"no groups: every rank has its own row");
			return SV_REACT_REDRAW | SV_REACT_BELL;
		}
		ranks_row_span(d, d->list.cur, &r0, &r1);
		if (d->expanded >= 0) {
			d->expanded = -1;
			ranks_clamp(m);
			sv_list_set_cursor(
				m, &d->list, ranks_display_row(d, r0));
			return SV_REACT_REDRAW;
		}
		d->expanded = (long)(r0 / d->group);
		break;
	}
	case SV_ACTION_RANKS_MARK:
		if (!d->m.nregions)
			return SV_REACT_REDRAW | SV_REACT_BELL;
		sv_session_mark_region(
			m->s, (long)d->m.t->regions[d->order[d->col]].region);
		break;
	case SV_ACTION_RANKS_ALL:
		if (!m->s->rank_on)
			return SV_REACT_REDRAW | SV_REACT_BELL;
		sv_session_set_ranks(m->s, "");
		break;
	default:
		return SV_REACT_BELL;
	}
	ranks_clamp(m);
	return SV_REACT_REDRAW;
}

/* A cell's look: by its excess over the region's mean over ranks, a heat
 * scale (palette.h's heat ramp: a step for each doubling from 2% above
 * the mean, the hottest from 256%), so that a rank 1% above the mean
 * does not look like one 26% above; well below the mean, dim. */
struct ranks_look {
	int style, color;
};

static struct ranks_look ranks_style(const struct sv_ranks_fig *f, int64_t v)
{
	struct ranks_look k = {SV_STYLE_DEFAULT, 0};
	double e = f->mean_ns > 0 ? (double)v / f->mean_ns - 1 : 0;
	int step = 0;

	if (e < -0.1) {
		k.style = SV_STYLE_DIM;
		return k;
	}
	for (e /= 0.02; e >= 1 && step < SV_PALETTE_NHEAT; e /= 2)
		step++;
	if (step) {
		k.style = SV_STYLE_SPAN;
		k.color = SV_PALETTE_HEAT0 + step - 1;
	}
	return k;
}

static void ranks_cell(struct sv_grid *g, int x, int y, bool has, int64_t v,
	struct ranks_look k)
{
	char buf[32];
	if (!has)
		snprintf(buf, sizeof buf, "-");
	else
		sv_render_short(v, buf, sizeof buf);
	sv_grid_textf(g, x, y, RANKS_CELL_W, k.style, k.color, "%*s",
		RANKS_CELL_W - 1, buf);
}

static const struct ranks_look ranks_plain = {SV_STYLE_DEFAULT, 0};

/* The median of region j over the ranks numbered first..last in matrix
 * m at column col (-1: none); false when none of them has calls. */
static bool ranks_median(const struct sv_ranks *m, long col, uint32_t first,
	uint32_t last, int64_t *scratch, int64_t *med)
{
	uint32_t r0 = 0, r1;
	int64_t lo, hi;
	if (col < 0)
		return false;
	while (r0 < m->nranks && m->ranks[r0] < first)
		r0++;
	for (r1 = r0; r1 < m->nranks && m->ranks[r1] <= last; r1++)
		;
	return r1 > r0 && sv_ranks_group(m, (size_t)col, r0, r1, scratch, &lo,
				  med, &hi) > 0;
}

/* A change cell: the time of ranks r0..r1 (their median for a group) in
 * the second run against this one, in per cent, coloured as the diff
 * panel colours its rows; "new" and "gone" where one run has no calls. */
static void ranks_change_cell(const struct ranks_data *d, struct sv_grid *g,
	int x, int y, size_t r0, size_t r1, size_t j, bool cursor)
{
	uint32_t first = d->m.ranks[r0], last = d->m.ranks[r1 - 1];
	int64_t a = 0, b = 0;
	bool ha = ranks_median(&d->m, (long)j, first, last, d->scratch, &a);
	bool hb = d->valid2 &&
		  ranks_median(&d->m2, d->col2[j], first, last, d->scratch, &b);
	int st = cursor ? SV_STYLE_PANEL_CURSOR
			: sv_grid_diff_style(
				  sv_diff_level(ha, (double)a, hb, (double)b));
	char buf[32];

	if (ha && hb && a > 0) {
		double pct = ((double)b / (double)a - 1) * 100;
		if (pct > -0.05 && pct < 0.05)
			pct = 0.0;
		snprintf(buf, sizeof buf, "%+.1f%%", pct);
	} else {
		snprintf(buf, sizeof buf, "%s",
			ha == hb ? "-" : (ha ? "gone" : "new"));
	}
	sv_grid_textf(
		g, x, y, RANKS_CELL_W, st, 0, "%*s", RANKS_CELL_W - 1, buf);
}

static void ranks_draw_head(
	const struct sv_mode *m, struct sv_grid *g, struct sv_rect r, long cols)
{
	const struct ranks_data *d = m->data;
	static const char *const labels[] = {
		"min", "mean", "max", "slowest", "excess", "imbalance"};
	long c;
	int k, tw;

	tw = sv_grid_textf(g, r.x, r.y, r.w, SV_STYLE_DIM, 0,
		" %" PRIu32 " ranks x %zu regions, cells: %s, regions %s",
		d->m.nranks, d->m.nregions,
		d->change ? "change of total time in the second run"
		: d->metric == SV_RANKS_TOTAL
			? "total time, hotter above the mean"
			: "exclusive time, hotter above the mean",
		d->by_imbalance ? "by imbalance" : "in the panel's order");
	if (m->s->mark_region >= 0)
		sv_grid_textf(g, r.x + tw + 2, r.y, r.w - tw - 2,
			SV_STYLE_PANEL_MARK, 0, "marked: %s (H, L)",
			m->s->p->regions[m->s->mark_region]);
	sv_grid_text(g, r.x, r.y + 1, RANKS_LABEL_W, " region",
		SV_STYLE_PANEL_HEAD, 0, 0);
	for (k = 0; k < 6; k++)
		sv_grid_textf(g, r.x, r.y + 2 + k, RANKS_LABEL_W,
			SV_STYLE_PANEL_HEAD, 0, " %s", labels[k]);
	for (c = 0; c < cols && d->left + c < (long)d->m.nregions; c++) {
		size_t j = d->order[d->left + c];
		const struct sv_ranks_fig *f = &d->m.fig[j];
		int x = r.x + RANKS_LABEL_W + (int)c * RANKS_CELL_W;
		const char *name = d->m.t->regions[j].name;
		int st = d->left + c == d->col ? SV_STYLE_PANEL_CURSOR
					       : SV_STYLE_PANEL_HEAD;
		char buf[32];
		sv_grid_put(g, x, r.y + 1, ' ', st, 0);
		sv_grid_text(g, x + 1, r.y + 1, RANKS_CELL_W - 1, name, st,
			sv_session_region_color(
				m->s, d->m.t->regions[j].region),
			sv_render_glyphs(m->s->opts.ascii)->ellipsis);
		ranks_cell(g, x, r.y + 2, f->has, f->min_ns, ranks_plain);
		ranks_cell(g, x, r.y + 3, f->has, sv_i64_sat(f->mean_ns),
			ranks_plain);
		ranks_cell(g, x, r.y + 4, f->has, f->max_ns, ranks_plain);
		if (f->has)
			snprintf(buf, sizeof buf, "r%" PRIu32, f->slowest_rank);
		else
			snprintf(buf, sizeof buf, "-");
		sv_grid_textf(g, x, r.y + 5, RANKS_CELL_W, SV_STYLE_DEFAULT, 0,
			"%*s", RANKS_CELL_W - 1, buf);
		ranks_cell(g, x, r.y + 6, f->has, sv_i64_sat(f->excess_ns),
			ranks_plain);
		sv_grid_textf(g, x, r.y + 7, RANKS_CELL_W,
			f->rank_imbalance_pct >= 10 ? SV_STYLE_WARNING
						    : SV_STYLE_DEFAULT,
			0, "%*.1f%%", RANKS_CELL_W - 2,
			/* A rounding error below zero is not "-0.0%". */
			f->rank_imbalance_pct < 0 &&
					f->rank_imbalance_pct > -0.05
				? 0.0
				: f->rank_imbalance_pct);
	}
}

/* The cursor cell in words, into line (without the region's name). */
static void ranks_cell_words(const struct ranks_data *d, char *line, size_t n)
{
	size_t r0, r1, j = d->order[d->col];
	int64_t lo, med, hi, v;
	double pct;
	char a[32], b[32], c[32];

	if (d->change) {
		bool grp = ranks_row_span(d, d->list.cur, &r0, &r1);
		uint32_t first = d->m.ranks[r0], last = d->m.ranks[r1 - 1];
		int64_t va = 0, vb = 0;
		bool ha = ranks_median(
			&d->m, (long)j, first, last, d->scratch, &va);
		bool hb = ranks_median(
			&d->m2, d->col2[j], first, last, d->scratch, &vb);
		snprintf(line, n,
			"%s %" PRIu32 "%s%.0" PRIu32
			"%s: %s in this run, %s in the second (x: total time)",
			grp ? "ranks" : "rank", first, grp ? "-" : "",
			grp ? last : 0, grp ? " (median)" : "",
			ha ? sv_render_short(va, a, sizeof a) : "no calls",
			hb ? sv_render_short(vb, b, sizeof b) : "no calls");
		return;
	}
	if (ranks_row_span(d, d->list.cur, &r0, &r1)) {
		size_t k = sv_ranks_group(
			&d->m, j, r0, r1, d->scratch, &lo, &med, &hi);
		if (!k)
			snprintf(line, n,
				"ranks %" PRIu32 "-%" PRIu32 ": no calls",
				d->m.ranks[r0], d->m.ranks[r1 - 1]);
		else
			snprintf(line, n,
				"ranks %" PRIu32 "-%" PRIu32
				" (%zu with calls): min %s  median %s  max "
				"%s  (e expands)",
				d->m.ranks[r0], d->m.ranks[r1 - 1], k,
				sv_render_short(lo, a, sizeof a),
				sv_render_short(med, b, sizeof b),
				sv_render_short(hi, c, sizeof c));
		return;
	}
	if (!sv_ranks_value(&d->m, sv_ranks_cell_at(&d->m, r0, j), &v)) {
		snprintf(line, n, "rank %" PRIu32 " has no call of the region",
			d->m.ranks[r0]);
		return;
	}
	pct = d->m.fig[j].mean_ns > 0
		      ? ((double)v / d->m.fig[j].mean_ns - 1) * 100
		      : 0.0;
	/* What rounds to zero reads +0.0%, never -0.0%. */
	if (pct > -0.05 && pct < 0.05)
		pct = 0.0;
	snprintf(line, n,
		"rank %" PRIu32 ": %s, %+.1f%% of the mean (Enter: timeline)",
		d->m.ranks[r0], sv_render_short(v, a, sizeof a), pct);
}

/* The line under the figures: the region under the cursor in full (its
 * header is cut to the cell), then the cell in words; a long name is cut
 * before the words are. */
static void ranks_draw_details(
	const struct sv_mode *m, struct sv_grid *g, int x, int y, int w)
{
	const struct ranks_data *d = m->data;
	const char *name = d->m.t->regions[d->order[d->col]].name;
	char line[256];
	int words, room, used;

	ranks_cell_words(d, line, sizeof line);
	words = sv_grid_text_width(line, w);
	room = w - words - 3; /* " ", ": " */
	if (room < 12)
		room = 12;
	used = sv_grid_text(g, x, y, w, " ", SV_STYLE_DETAILS, 0, 0);
	used += sv_grid_text(g, x + used, y, room < w - used ? room : w - used,
		name, SV_STYLE_DETAILS, 0, 0x2026);
	used += sv_grid_text(
		g, x + used, y, w - used, ": ", SV_STYLE_DETAILS, 0, 0);
	if (used < w)
		sv_grid_text(g, x + used, y, w - used, line, SV_STYLE_DETAILS,
			0, 0x2026);
}

static void ranks_draw_row(const struct sv_mode *m, const struct sv_list *l,
	struct sv_grid *g, long row, int x0, int y, int w, int style)
{
	const struct ranks_data *d = m->data;
	long cols = (w - RANKS_LABEL_W) / RANKS_CELL_W, c;
	size_t r0, r1;
	bool grp = ranks_row_span(d, row, &r0, &r1);
	bool cur = row == l->cur;
	int lst = cur ? SV_STYLE_LABEL_CURSOR : SV_STYLE_LABEL;

	/* A matrix: the cursor is one cell, not the row. */
	(void)style;
	sv_grid_fill(g, x0, y, x0 + w, y + 1, ' ', SV_STYLE_DEFAULT, 0);
	if (cols < 1)
		cols = 1;
	if (grp)
		sv_grid_textf(g, x0, y, RANKS_LABEL_W, lst, 0,
			" r%" PRIu32 "-%" PRIu32, d->m.ranks[r0],
			d->m.ranks[r1 - 1]);
	else
		sv_grid_textf(g, x0, y, RANKS_LABEL_W, lst, 0, " %sr%" PRIu32,
			d->group > 1 ? "  " : "", d->m.ranks[r0]);
	for (c = 0; c < cols && d->left + c < (long)d->m.nregions; c++) {
		size_t j = d->order[d->left + c];
		int x = x0 + RANKS_LABEL_W + (int)c * RANKS_CELL_W;
		int64_t v = 0, lo, hi;
		bool has;
		struct ranks_look k = {SV_STYLE_DIM, 0};
		if (grp) {
			has = sv_ranks_group(&d->m, j, r0, r1, d->scratch, &lo,
				      &v, &hi) > 0;
			if (has)
				k = ranks_style(&d->m.fig[j], hi);
		} else {
			has = sv_ranks_value(
				&d->m, sv_ranks_cell_at(&d->m, r0, j), &v);
			if (has)
				k = ranks_style(&d->m.fig[j], v);
		}
		if (d->change) {
			ranks_change_cell(d, g, x, y, r0, r1, j,
				cur && d->left + c == d->col);
			continue;
		}
		if (cur && d->left + c == d->col)
			k = (struct ranks_look){SV_STYLE_PANEL_CURSOR, 0};
		ranks_cell(g, x, y, has, v, k);
	}
}

static void ranks_draw(
	const struct sv_mode *m, struct sv_grid *g, struct sv_rect r)
{
	const struct ranks_data *d = m->data;
	const struct sv_session *s = m->s;
	long cols = (r.w - RANKS_LABEL_W) / RANKS_CELL_W;
	static const char *const hints[] = {
		"s slowest  Enter timeline  x cells  o order  e expand  "
		"? help",
		"s slowest  Enter timeline  ? help",
	};
	char line[64];

	if (r.w < 40 || r.h < RANKS_HEAD_H + 3) {
		sv_render_too_small(g, r.w, r.h);
		return;
	}
	if (!d->valid || !d->m.nregions || !d->m.nranks) {
		sv_grid_text(g, r.x + 1, r.y, r.w - 2,
			"No rank has a call on the lanes shown.", SV_STYLE_DIM,
			0, 0);
		sv_render_status(g, s, r.y + r.h - 1, r.w, "  ranks", hints, 2);
		return;
	}
	if (cols < 1)
		cols = 1;
	ranks_draw_head(m, g, r, cols);
	ranks_draw_details(m, g, r.x, r.y + 8, r.w);
	sv_list_draw(m, &d->list, g);
	snprintf(line, sizeof line, "  ranks %ld/%ld  region %ld/%zu",
		d->list.cur + 1, d->list.n, d->col + 1, d->m.nregions);
	sv_render_status(g, s, r.y + r.h - 1, r.w, line, hints, 2);
}

static void ranks_describe(const struct sv_mode *m, char *buf, size_t n)
{
	const struct ranks_data *d = m->data;
	snprintf(buf, n,
		"row=%ld col=%ld top=%ld metric=%d order=%d group=%zu "
		"expanded=%ld",
		d->list.cur, d->col, d->list.top, (int)d->metric,
		(int)d->by_imbalance, d->group, d->expanded);
}

const struct sv_mode_ops sv_mode_ranks = {
	.name = "ranks",
	.title = "Ranks matrix",
	.main = true,
	.scopes = {SV_SCOPE_RANKS, SV_SCOPE_LIST, SV_SCOPE_GLOBAL, 0},
	.size = sizeof(struct ranks_data),
	.init = ranks_init,
	.fini = ranks_fini,
	.notify = ranks_notify,
	.resize = ranks_resize,
	.apply = ranks_apply,
	.draw = ranks_draw,
	.describe = ranks_describe,
	.list = ranks_list,
};
