/*
 * mode_trend_draw.c: the trend view's screen (mode_trend.c holds its
 * state and keys).  From the top: the region and its figures (drift,
 * jitter, change points); a row of marks, one under each change point
 * with its rank (▼ r5); the chart, time up (the labels in the
 * project's compact durations, sv_render_short) and iterations along
 * (each column a run of them): the min-max band over the ranks as
 * shaded cells in the region's colour and the median as a braille line
 * (two points a cell across, four down; ASCII: a row of '-'), the
 * change points' columns dotted, the cursor's column highlighted and
 * pointed at on the axis; with b, a sparkline row a rank of its mean
 * over each column (eighth blocks, one scale for every rank; groups of
 * consecutive ranks, each showing its slowest, when they do not fit);
 * the table of iterations (the list) with the cursor's row; the change
 * points in a line.
 *
 * The columns' figures are made when the window changes (the cache of
 * mode_trend_priv.h), not every frame: O(iterations shown) for the band
 * and O(ranks x columns) for the rank rows, from each rank's prefix
 * sums.  Values are doubles from there on: sums of int64 durations do
 * not overflow, and every double goes back to a row or a level clamped
 * before it becomes an int.  Nothing here knows about curses or HDF5.
 */
#include "scopeview/mode.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mode_trend_priv.h"
#include "scopeview/fmt.h"
#include "scopeview/render.h"

#define TREND_LABEL_W 9 /* the y labels (7 cells), a space, the axis */
#define TREND_MIN_W   50
#define TREND_MIN_H   16
#define TREND_FIXED   6 /* title, marks, axis, its labels, changes, status */

/* ---- the layout ------------------------------------------------------------ */

void sv_mode_trend_geom(
	const struct trend_data *d, int w, int h, struct trend_geom *g)
{
	int avail = h - TREND_FIXED, sp = 0, rest, th;

	memset(g, 0, sizeof *g);
	if (w < TREND_MIN_W || h < TREND_MIN_H)
		return;
	if (d->spark && d->valid && d->t.nranks) {
		int need = (int)(d->t.nranks < 4096 ? d->t.nranks : 4096) + 1;
		sp = avail / 2 > 3 ? avail / 2 : 3;
		sp = need < sp ? need : sp;
	}
	rest = avail - sp;
	th = rest / 3;
	th = th < 3 ? 3 : th > 11 ? 11 : th;
	if (rest - th < 4)
		return;
	g->ok = true;
	g->chart_x = TREND_LABEL_W;
	g->chart_w = w - TREND_LABEL_W - 1;
	g->marks_y = 1;
	g->chart_y = 2;
	g->chart_h = rest - th;
	g->axis_y = g->chart_y + g->chart_h;
	g->labels_y = g->axis_y + 1;
	g->spark_y = g->labels_y + 1;
	g->spark_h = sp;
	g->table_y = g->spark_y + sp;
	g->table_h = th;
	g->changes_y = g->table_y + th;
}

/* ---- the columns ------------------------------------------------------------ */

void sv_mode_trend_cache_fini(struct trend_cache *c)
{
	free(c->col);
	free(c->spark_v);
	memset(c, 0, sizeof *c);
}

/* Rank rows the screen shows, and ranks a row (1: one a rank). */
static void trend_groups(const struct trend_data *d, int *rows, int *group)
{
	int nr = (int)d->t.nranks, avail = d->geom.spark_h - 1;

	*group = 1;
	*rows = 0;
	if (!d->spark || avail < 1 || nr < 1)
		return;
	if (nr > avail)
		*group = (nr + avail - 1) / avail;
	*rows = (nr + *group - 1) / *group;
}

/* The mean of the medians of iterations [a, b), b > a. */
static double trend_mean_median(const struct sv_trend *t, long a, long b)
{
	double s = 0;
	long k;
	for (k = a; k < b; k++)
		s += t->points[k].median_ns;
	return s / (double)(b - a);
}

static void trend_cols_band(struct trend_data *d, long per, int cw)
{
	struct trend_cache *c = &d->cache;
	long n = (long)d->t.npoints;
	int i;

	c->lo = INFINITY;
	c->hi = -INFINITY;
	for (i = 0; i < cw; i++) {
		struct trend_col *col = &c->col[i];
		long a = d->ws + (long)i * per, b = a + per, k, mid;
		col->has = a < n;
		if (!col->has)
			continue;
		b = b < n ? b : n;
		col->lo = INT64_MAX;
		col->hi = INT64_MIN;
		for (k = a; k < b; k++) {
			const struct sv_trend_point *pt = &d->t.points[k];
			col->lo = pt->min_ns < col->lo ? pt->min_ns : col->lo;
			col->hi = pt->max_ns > col->hi ? pt->max_ns : col->hi;
		}
		/* one column of one iteration: both halves are it */
		mid = b - a >= 2 ? a + (b - a) / 2 : b;
		col->med[1] = trend_mean_median(&d->t, mid < b ? mid : a, b);
		col->med[0] = mid > a ? trend_mean_median(&d->t, a, mid)
				      : col->med[1];
		c->lo = (double)col->lo < c->lo ? (double)col->lo : c->lo;
		c->hi = (double)col->hi > c->hi ? (double)col->hi : c->hi;
	}
	if (!(c->hi > c->lo)) {
		/* one value: a range around it that a double can tell */
		double lo = isfinite(c->lo) ? c->lo : 0;
		double pad = fabs(lo) * 1e-6 > 1 ? fabs(lo) * 1e-6 : 1;
		c->lo = lo - pad;
		c->hi = lo + pad;
	}
}

/* The rank rows' means: each group's slowest rank's mean over the
 * column. */
static void trend_cols_spark(
	struct trend_data *d, const struct sv_profile *p, long per, int cw)
{
	struct trend_cache *c = &d->cache;
	size_t nr = d->t.nranks;
	int rows, group, r, i;

	trend_groups(d, &rows, &group);
	c->groups = rows;
	c->group = group;
	c->spark_lo = INFINITY;
	c->spark_hi = -INFINITY;
	sv_grow((void **)&c->spark_v, &c->spark_cap,
		(size_t)rows * (size_t)cw + 1, sizeof *c->spark_v);
	for (r = 0; r < rows; r++) {
		for (i = 0; i < cw; i++) {
			long a = d->ws + (long)i * per;
			double best = NAN;
			size_t k;
			for (k = (size_t)r * (size_t)group;
				k < nr && k < (size_t)(r + 1) * (size_t)group;
				k++) {
				long cnt;
				double s = sv_mode_trend_sum(
					d, p, k, a, a + per, &cnt);
				if (cnt && (isnan(best) || s / cnt > best))
					best = s / (double)cnt;
			}
			c->spark_v[(size_t)r * (size_t)cw + (size_t)i] = best;
			if (!isnan(best)) {
				c->spark_lo =
					best < c->spark_lo ? best : c->spark_lo;
				c->spark_hi =
					best > c->spark_hi ? best : c->spark_hi;
			}
		}
	}
}

/* The columns of the window now, made again when it changed. */
static void trend_cols(struct trend_data *d, const struct sv_profile *p)
{
	struct trend_cache *c = &d->cache;
	long per = sv_mode_trend_per(d);
	int cw = d->geom.chart_w, rows, group;

	trend_groups(d, &rows, &group);
	if (c->valid && c->serial == d->serial && c->ws == d->ws &&
		c->per == per && c->cols == cw && c->spark == d->spark &&
		c->group == group && c->groups == rows)
		return;
	sv_grow((void **)&c->col, &c->col_cap, (size_t)cw + 1, sizeof *c->col);
	trend_cols_band(d, per, cw);
	c->groups = 0;
	if (d->spark)
		trend_cols_spark(d, p, per, cw);
	c->valid = true;
	c->serial = d->serial;
	c->ws = d->ws;
	c->per = per;
	c->cols = cw;
	c->spark = d->spark;
	c->group = group;
	c->groups = rows;
}

/* ---- the chart ---------------------------------------------------------------- */

/* The dot level (0 = the chart's bottom .. levels - 1 = its top) of v. */
static int trend_level(const struct trend_cache *c, double v, int levels)
{
	double f = (v - c->lo) / (c->hi - c->lo) * (levels - 1);
	if (!(f > 0)) /* below, or NaN */
		return 0;
	if (f > levels - 1)
		return levels - 1;
	return (int)(f + 0.5);
}

/* The braille dot of sub-column s (0 left, 1 right) and sub-row q (0 the
 * top .. 3 the bottom) of a cell. */
static unsigned trend_dot(int s, int q)
{
	static const unsigned dots[2][4] = {
		{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};
	return dots[s][q];
}

/* One column of the median: the braille dots (or ASCII) of each row from
 * the levels of its two halves, joined to the one before (prev, -1:
 * none). */
static void trend_median_col(struct sv_grid *g, const struct trend_geom *ge,
	int x, const int lev[2], int prev, bool ascii, int style)
{
	int r, s, lo[2], hi[2];

	for (s = 0; s < 2; s++) {
		int from = s ? lev[0] : prev >= 0 ? prev : lev[0];
		lo[s] = from < lev[s] ? from : lev[s];
		hi[s] = from < lev[s] ? lev[s] : from;
	}
	for (r = 0; r < ge->chart_h; r++) {
		int base = 4 * (ge->chart_h - 1 - r), y = ge->chart_y + r;
		unsigned bits = 0;
		bool on_level = false;
		int q;
		for (s = 0; s < 2; s++)
			for (q = 0; q < 4; q++) {
				int l = base + 3 - q;
				if (l >= lo[s] && l <= hi[s])
					bits |= trend_dot(s, q);
				on_level |= l == lev[s];
			}
		if (!bits)
			continue;
		if (ascii)
			sv_grid_put(g, x, y, on_level ? '-' : '|', style, 0);
		else
			sv_grid_put(g, x, y, 0x2800 + bits, style, 0);
	}
}

/* The y axis: a label every fourth row and on the bottom row. */
static void trend_draw_yaxis(struct sv_grid *g, const struct trend_data *d,
	const struct sv_glyphs *gl)
{
	const struct trend_geom *ge = &d->geom;
	const struct trend_cache *c = &d->cache;
	int r, levels = 4 * ge->chart_h;
	char buf[32];

	for (r = 0; r < ge->chart_h; r++) {
		int y = ge->chart_y + r;
		bool label = r % 4 == 0 || (r == ge->chart_h - 1 && r % 4 >= 2);
		double v = c->lo + (c->hi - c->lo) *
					   (4.0 * (ge->chart_h - 1 - r) + 1.5) /
					   (levels - 1);
		sv_grid_put(g, ge->chart_x - 1, y,
			label ? (gl->ascii ? '+' : 0x2524) : gl->vline,
			SV_STYLE_RULER, 0);
		if (!label)
			continue;
		sv_fmt_dur_ex(v, 3, SV_FMT_DUR_COMPACT, buf, sizeof buf);
		sv_grid_textf(g, 0, y, ge->chart_x - 2, SV_STYLE_RULER, 0,
			"%*s", ge->chart_x - 2, buf);
	}
}

/* A round step of iterations between ticks: 1, 2 or 5 times a power of
 * ten, at least min. */
static long trend_tick_step(long min)
{
	long step = 1;
	for (;;) {
		if (step >= min)
			return step;
		if (2 * step >= min)
			return 2 * step;
		if (5 * step >= min)
			return 5 * step;
		if (step > LONG_MAX / 20)
			return step * 10;
		step *= 10;
	}
}

/* The x axis under the chart, its ticks and iteration numbers, and the
 * cursor's column pointed at. */
static void trend_draw_xaxis(struct sv_grid *g, const struct trend_data *d,
	const struct sv_glyphs *gl, long per, int cur_col)
{
	const struct trend_geom *ge = &d->geom;
	long n = (long)d->t.npoints, step, k, last_end = -1;
	char buf[24];
	int digits = snprintf(buf, sizeof buf, "%ld", n > 0 ? n - 1 : 0);

	sv_grid_put(g, ge->chart_x - 1, ge->axis_y, gl->bl, SV_STYLE_RULER, 0);
	sv_grid_fill(g, ge->chart_x, ge->axis_y, ge->chart_x + ge->chart_w,
		ge->axis_y + 1, gl->hline, SV_STYLE_RULER, 0);
	sv_grid_textf(g, 0, ge->labels_y, ge->chart_x - 1, SV_STYLE_DIM, 0,
		"%*s", ge->chart_x - 2, "iter");
	step = trend_tick_step(per * (digits + 2));
	for (k = (d->ws + step - 1) / step * step;
		k < n && k < d->ws + per * ge->chart_w; k += step) {
		int x = ge->chart_x + (int)((k - d->ws) / per);
		int len = snprintf(buf, sizeof buf, "%ld", k);
		sv_grid_put(g, x, ge->axis_y, gl->tick, SV_STYLE_RULER, 0);
		if (x > last_end && x + len <= ge->chart_x + ge->chart_w) {
			sv_grid_text(g, x, ge->labels_y, len, buf,
				SV_STYLE_RULER, 0, 0);
			last_end = x + len;
		}
	}
	if (cur_col >= 0)
		sv_grid_put(g, ge->chart_x + cur_col, ge->axis_y,
			gl->ascii ? '^' : 0x25b2, SV_STYLE_PANEL_CURSOR, 0);
}

/* The marks row: ▼ over each change point's column and its ranks. */
static void trend_draw_marks(struct sv_grid *g, const struct trend_data *d,
	const struct sv_glyphs *gl, long per)
{
	const struct trend_geom *ge = &d->geom;
	int end = ge->chart_x + ge->chart_w, last = -1;
	size_t i = 0;

	sv_grid_text(g, 0, ge->marks_y, ge->chart_x - 1, "changes",
		d->t.nchanges ? SV_STYLE_WARNING : SV_STYLE_DIM, 0, 0);
	while (i < d->t.nchanges) {
		long col = ((long)d->t.changes[i].index - d->ws) / per;
		char label[64];
		size_t used = 0, j;
		int x;
		if ((long)d->t.changes[i].index < d->ws || col >= ge->chart_w) {
			i++;
			continue;
		}
		x = ge->chart_x + (int)col;
		/* every change point of the column, in one label */
		for (j = i; j < d->t.nchanges &&
			    ((long)d->t.changes[j].index - d->ws) / per == col;
			j++)
			if (used < sizeof label)
				used += (size_t)snprintf(label + used,
					sizeof label - used, "%sr%" PRIu32,
					j > i ? "," : "", d->t.changes[j].rank);
		i = j;
		sv_grid_put(
			g, x, ge->marks_y, gl->sortmark, SV_STYLE_WARNING, 0);
		if (x + 1 > last && x + 1 < end)
			last = x + 1 +
			       sv_grid_text(g, x + 1, ge->marks_y, end - x - 1,
				       label, SV_STYLE_WARNING, 0, 0);
	}
}

/* The band, the median, the change points' columns and the cursor's. */
static void trend_draw_chart(struct sv_grid *g, const struct sv_mode *m,
	const struct sv_glyphs *gl, long per, int cur_col)
{
	const struct trend_data *d = m->data;
	const struct trend_geom *ge = &d->geom;
	const struct trend_cache *c = &d->cache;
	int levels = 4 * ge->chart_h, i, prev = -1, r;
	int color = sv_session_region_color(m->s, d->t.region);
	size_t ci = 0;

	for (i = 0; i < ge->chart_w; i++) {
		const struct trend_col *col = &c->col[i];
		int x = ge->chart_x + i, lev[2], top, bot;
		bool cur = i == cur_col, change = false;
		long a = d->ws + (long)i * per;
		while (ci < d->t.nchanges && (long)d->t.changes[ci].index < a)
			ci++;
		change = ci < d->t.nchanges &&
			 (long)d->t.changes[ci].index < a + per;
		for (r = 0; r < ge->chart_h; r++) {
			if (cur)
				sv_grid_put(g, x, ge->chart_y + r, gl->cursor,
					SV_STYLE_RULER, 0);
			else if (change)
				sv_grid_put(g, x, ge->chart_y + r,
					gl->ascii ? '!' : 0x254e,
					SV_STYLE_WARNING, 0);
		}
		if (!col->has) {
			prev = -1;
			continue;
		}
		top = ge->chart_h - 1 -
		      trend_level(c, (double)col->hi, levels) / 4;
		bot = ge->chart_h - 1 -
		      trend_level(c, (double)col->lo, levels) / 4;
		for (r = top; r <= bot; r++)
			sv_grid_put(g, x, ge->chart_y + r, gl->await,
				cur ? SV_STYLE_PANEL_CURSOR : SV_STYLE_BAR,
				cur ? 0 : color);
		lev[0] = trend_level(c, col->med[0], levels);
		lev[1] = trend_level(c, col->med[1], levels);
		trend_median_col(g, ge, x, lev, prev, gl->ascii,
			cur ? SV_STYLE_PANEL_CURSOR : SV_STYLE_CHART_LINE);
		prev = lev[1];
	}
}

/* ---- the rank rows ----------------------------------------------------------- */

static void trend_draw_spark(struct sv_grid *g, const struct sv_mode *m,
	const struct sv_glyphs *gl, int cur_col)
{
	static const uint32_t uni[8] = {
		0x2581, 0x2582, 0x2583, 0x2584, 0x2585, 0x2586, 0x2587, 0x2588};
	static const char ascii[] = "._-=+*%#";
	const struct trend_data *d = m->data;
	const struct trend_geom *ge = &d->geom;
	const struct trend_cache *c = &d->cache;
	int color = sv_session_region_color(m->s, d->t.region);
	uint32_t slow = d->t.npoints ? d->t.points[d->list.cur].max_rank : 0;
	double span = c->spark_hi - c->spark_lo;
	char a[32], b[32];
	int r, i;

	sv_grid_textf(g, 0, ge->spark_y, ge->chart_x + ge->chart_w,
		SV_STYLE_PANEL_HEAD, 0,
		" each rank's mean over a column, %s .. %s%s",
		sv_fmt_dur_ex(isfinite(c->spark_lo) ? c->spark_lo : 0, 3,
			SV_FMT_DUR_COMPACT, a, sizeof a),
		sv_fmt_dur_ex(isfinite(c->spark_hi) ? c->spark_hi : 0, 3,
			SV_FMT_DUR_COMPACT, b, sizeof b),
		c->group > 1 ? "; a row of ranks shows its slowest" : "");
	for (r = 0; r < c->groups && r + 1 < ge->spark_h; r++) {
		size_t k0 = (size_t)r * (size_t)c->group, k1 = k0 + c->group, k;
		int y = ge->spark_y + 1 + r, st = SV_STYLE_LABEL;
		bool changed = false;
		k1 = k1 < d->t.nranks ? k1 : d->t.nranks;
		for (k = 0; k < d->t.nchanges; k++)
			changed |= d->t.changes[k].rank >= d->t.ranks[k0] &&
				   d->t.changes[k].rank <= d->t.ranks[k1 - 1];
		if (slow >= d->t.ranks[k0] && slow <= d->t.ranks[k1 - 1])
			st = SV_STYLE_LABEL_CURSOR;
		else if (changed)
			st = SV_STYLE_WARNING;
		if (k1 - k0 > 1)
			sv_grid_textf(g, 0, y, ge->chart_x - 1, st, 0,
				"r%" PRIu32 "-%" PRIu32, d->t.ranks[k0],
				d->t.ranks[k1 - 1]);
		else
			sv_grid_textf(g, 0, y, ge->chart_x - 1, st, 0,
				" r%" PRIu32, d->t.ranks[k0]);
		sv_grid_put(
			g, ge->chart_x - 1, y, gl->vline, SV_STYLE_BORDER, 0);
		for (i = 0; i < ge->chart_w && i < c->cols; i++) {
			double v = c->spark_v[(size_t)r * (size_t)c->cols +
					      (size_t)i];
			int lv = 0;
			uint32_t ch;
			if (isnan(v)) {
				if (i == cur_col)
					sv_grid_put(g, ge->chart_x + i, y,
						gl->cursor, SV_STYLE_RULER, 0);
				continue;
			}
			if (span > 0) {
				double f = (v - c->spark_lo) / span * 7;
				lv = f > 7 ? 7 : f > 0 ? (int)(f + 0.5) : 0;
			}
			ch = gl->ascii ? (uint32_t)ascii[lv] : uni[lv];
			sv_grid_put(g, ge->chart_x + i, y, ch,
				i == cur_col ? SV_STYLE_PANEL_CURSOR
					     : SV_STYLE_BAR,
				i == cur_col ? 0 : color);
		}
	}
}

/* ---- the table and the text --------------------------------------------------- */

/* The change points at iteration k, "▼ r5 778us -> 1.09ms (+40.0%)",
 * into buf. */
static void trend_change_text(const struct trend_data *d,
	const struct sv_glyphs *gl, long k, char *buf, size_t n)
{
	const struct sv_trend_change *c = sv_mode_trend_change_at(d, k);
	const struct sv_trend_change *end =
		d->t.changes ? d->t.changes + d->t.nchanges : NULL;
	size_t used = 0;
	char mark[8], a[32], b[32];

	buf[0] = '\0';
	mark[sv_utf8_encode(gl->sortmark, mark)] = '\0';
	for (; c && c < end && (long)c->index == k && used < n; c++) {
		double pct = c->before_ns > 0
				     ? (c->after_ns / c->before_ns - 1) * 100
				     : 0;
		used += (size_t)snprintf(buf + used, n - used,
			"%s%s r%" PRIu32 " %s -> %s (%+.1f%%)",
			used ? "  " : "", mark, c->rank,
			sv_fmt_dur_ex(c->before_ns, 3, SV_FMT_DUR_COMPACT, a,
				sizeof a),
			sv_fmt_dur_ex(c->after_ns, 3, SV_FMT_DUR_COMPACT, b,
				sizeof b),
			pct);
	}
}

void sv_mode_trend_row(const struct sv_mode *m, const struct sv_list *l,
	struct sv_grid *g, long row, int x, int y, int w, int style)
{
	const struct trend_data *d = m->data;
	const struct sv_trend_point *pt = &d->t.points[row];
	const struct sv_glyphs *gl = sv_render_glyphs(m->s->opts.ascii);
	char a[32], b[32], c[32], rank[16], change[256];
	int used;

	(void)l;
	snprintf(rank, sizeof rank, "r%" PRIu32, pt->max_rank);
	used = sv_grid_textf(g, x, y, w, style, 0,
		" %9ld %6" PRIu32 " %9s %9s %9s %8s  ", row, pt->count,
		sv_render_short(pt->min_ns, a, sizeof a),
		sv_fmt_dur_ex(
			pt->median_ns, 3, SV_FMT_DUR_COMPACT, b, sizeof b),
		sv_render_short(pt->max_ns, c, sizeof c), rank);
	trend_change_text(d, gl, row, change, sizeof change);
	if (change[0])
		sv_grid_text(g, x + used, y, w - used, change,
			style == SV_STYLE_PANEL ? SV_STYLE_WARNING : style, 0,
			gl->ellipsis);
}

static void trend_draw_title(struct sv_grid *g, const struct sv_mode *m)
{
	const struct trend_data *d = m->data;
	const struct sv_trend *t = &d->t;
	const char *name = m->s->p->regions[t->region];
	bool excl = t->metric == SV_TREND_EXCLUSIVE;
	char drift[32], jitter[32], line[512];

	if (isnan(t->drift_pct_per_100))
		snprintf(drift, sizeof drift, "-");
	else
		snprintf(drift, sizeof drift, "%+.2f%%", t->drift_pct_per_100);
	if (isnan(t->jitter_pct))
		snprintf(jitter, sizeof jitter, "-");
	else
		snprintf(jitter, sizeof jitter, "%.2f%%", t->jitter_pct);
	/* the long form when it fits (bytes: at least the columns), else
	 * a short one that keeps drift and jitter on an 80-column screen */
	snprintf(line, sizeof line,
		" %s (%s): %zu iterations, %" PRIu32
		" ranks, %zu change point%s  drift %s/100 iter.  jitter %s",
		name, excl ? "exclusive time" : "duration", t->npoints,
		t->nranks, t->nchanges, t->nchanges == 1 ? "" : "s", drift,
		jitter);
	if (strlen(line) > (size_t)m->w)
		snprintf(line, sizeof line,
			" %s (%s): %zu iter., %" PRIu32
			" ranks, %zu change%s  drift %s/100  jitter %s",
			name, excl ? "excl." : "dur.", t->npoints, t->nranks,
			t->nchanges, t->nchanges == 1 ? "" : "s", drift,
			jitter);
	sv_grid_text(g, 0, 0, m->w, line, SV_STYLE_PANEL_HEAD, 0,
		sv_render_glyphs(m->s->opts.ascii)->ellipsis);
}

/* The change points in one line, as many as fit. */
static void trend_draw_changes(struct sv_grid *g, const struct sv_mode *m)
{
	const struct trend_data *d = m->data;
	int y = d->geom.changes_y, x, w = m->w;
	size_t i;
	char a[32], b[32];

	if (!d->t.nchanges) {
		sv_grid_textf(g, 0, y, w, SV_STYLE_DIM, 0,
			" no change point (binary segmentation: t >= %.0f, "
			"%d iterations either side, a shift of %.0f%% or more)",
			SV_TREND_THRESHOLD, SV_TREND_MIN_SEGMENT,
			SV_TREND_MIN_SHIFT * 100);
		return;
	}
	x = sv_grid_textf(g, 0, y, w, SV_STYLE_PANEL_HEAD, 0,
		" change points (c: next):");
	for (i = 0; i < d->t.nchanges && x < w; i++) {
		const struct sv_trend_change *c = &d->t.changes[i];
		char item[128];
		int len = snprintf(item, sizeof item,
			" %" PRIu32 " r%" PRIu32 " %s->%s", c->index, c->rank,
			sv_fmt_dur_ex(c->before_ns, 3, SV_FMT_DUR_COMPACT, a,
				sizeof a),
			sv_fmt_dur_ex(c->after_ns, 3, SV_FMT_DUR_COMPACT, b,
				sizeof b));
		if (x + len > w - 12 && i + 1 < d->t.nchanges) {
			sv_grid_textf(g, x, y, w - x, SV_STYLE_WARNING, 0,
				" and %zu more", d->t.nchanges - i);
			return;
		}
		x += sv_grid_text(g, x, y, w - x, item, SV_STYLE_WARNING, 0, 0);
	}
}

static void trend_draw_table_head(struct sv_grid *g, const struct sv_mode *m)
{
	const struct trend_data *d = m->data;
	sv_grid_textf(g, 0, d->geom.table_y, m->w, SV_STYLE_PANEL_HEAD, 0,
		" %9s %6s %9s %9s %9s %8s  %s", "iteration", "ranks", "min",
		"median", "max", "slowest", "change point");
}

void sv_mode_trend_draw(
	const struct sv_mode *m, struct sv_grid *g, struct sv_rect r)
{
	/* The window follows the cursor, and the columns the window. */
	struct trend_data *d = m->data;
	const struct sv_session *s = m->s;
	const struct sv_glyphs *gl = sv_render_glyphs(s->opts.ascii);
	const struct trend_geom *ge = &d->geom;
	static const char *const hints[] = {
		"j/k iteration  Enter slowest call  c next change  b ranks  "
		"+ - zoom  x metric  ? help",
		"Enter slowest call  c change  b ranks  ? help",
		"Enter slowest call  ? help",
	};
	char line[96];
	long per;
	int cur_col = -1;

	if (!ge->ok || r.w < TREND_MIN_W || r.h < TREND_MIN_H) {
		sv_render_too_small(g, r.w, r.h);
		return;
	}
	if (d->busy) {
		sv_grid_textf(g, r.x, r.y, r.w, SV_STYLE_PANEL_HEAD, 0,
			" %s: the trend of %" PRIu64 " calls",
			s->p->regions[d->region], d->ncalls);
		sv_grid_textf(g, r.x, r.y + ge->chart_y, r.w, SV_STYLE_WARNING,
			0, " computing the trend of %" PRIu64 " calls: %d%%",
			d->ncalls, sv_job_percent(&d->work->job));
	} else if (!d->valid) {
		sv_grid_text(g, r.x + 1, r.y, r.w - 2,
			d->error[0] ? d->error : "No trend.", SV_STYLE_DIM, 0,
			gl->ellipsis);
	} else if (!d->t.npoints) {
		trend_draw_title(g, m);
		sv_grid_text(g, r.x + 1, r.y + ge->chart_y, r.w - 2,
			"No call of the region on the ranks shown.",
			SV_STYLE_DIM, 0, 0);
	} else {
		sv_mode_trend_follow(d);
		trend_cols(d, s->p);
		per = sv_mode_trend_per(d);
		if (d->list.cur >= d->ws &&
			d->list.cur < d->ws + per * ge->chart_w)
			cur_col = (int)((d->list.cur - d->ws) / per);
		trend_draw_title(g, m);
		trend_draw_marks(g, d, gl, per);
		trend_draw_yaxis(g, d, gl);
		trend_draw_chart(g, m, gl, per, cur_col);
		trend_draw_xaxis(g, d, gl, per, cur_col);
		if (d->spark)
			trend_draw_spark(g, m, gl, cur_col);
		trend_draw_table_head(g, m);
		sv_list_draw(m, &d->list, g);
		trend_draw_changes(g, m);
	}
	per = d->valid ? sv_mode_trend_per(d) : 1;
	/* the iteration's index (from 0, as the table and `trend`), then
	 * the list's row (from 1, as 24G counts) */
	if (d->list.n)
		snprintf(line, sizeof line,
			"  trend  iteration %ld, row %ld/%ld", d->list.cur,
			d->list.cur + 1, d->list.n);
	else
		snprintf(line, sizeof line, "  trend  no iteration");
	if (d->list.n && per > 1)
		snprintf(line + strlen(line), sizeof line - strlen(line),
			"  %ld a column", per);
	sv_render_status(g, s, r.y + r.h - 1, r.w, line, hints, 3);
}
