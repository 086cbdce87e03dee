/*
 * mode_scaling.c: the scaling view (`:view scaling`), the first view of
 * a runs workspace (runs.h: `scopeview A B C ...`).
 *
 * From the top: the study's line (x field, baseline, what is charted),
 * one line a run (read and measured, being read with its percentage,
 * waiting, or failed with its error), one line chart a region (chart.h:
 * the figure of the metric against x, the ideal beside it, x on a log-2
 * axis when it doubles), and the table of every point of the regions
 * charted: x, runs averaged, mean duration, speedup, efficiency,
 * normalized runtime and weak efficiency, and the run read for it.  The
 * table is a list (list.h): its keys move the cursor, and the charts on
 * screen are those around the cursor's region, its point drawn apart.
 * `x` charts the speedup, the strong-scaling efficiency or the
 * weak-scaling efficiency in turn; `/` charts the regions whose names
 * the regex finds (an empty one: every region).  Enter marks a point;
 * Enter on a point at another x opens the two points' runs on the
 * two-run timeline (SV_REACT_PAIR: the loop reads them, as for
 * `scopeview A B`; Esc comes back here).
 *
 * The figures are the workspace's study, made again as each run is
 * measured (the runs' changed hook rebuilds the rows and the charts'
 * values here, on the loop's thread); drawing reads them and allocates
 * nothing.  Nothing here knows about curses or HDF5.
 */
#include "scopeview/mode.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/chart.h"
#include "scopeview/fmt.h"
#include "scopeview/list.h"
#include "scopeview/regex.h"
#include "scopeview/render.h"
#include "scopeview/runs.h"
#include "scopeview/view.h"

enum { SC_SPEEDUP, SC_EFFICIENCY, SC_WEAK, SC_METRICS };

static const char *const sc_metric_name[SC_METRICS] = {
	"speedup", "efficiency", "weak efficiency"};
static const char *const sc_metric_what[SC_METRICS] = {
	"speedup T(x0)/T(x) (ideal x/x0)",
	"strong-scaling efficiency speedup*x0/x (ideal 1)",
	"weak-scaling efficiency T(x0)/T(x) (ideal 1)"};

#define SC_CHART_MIN_W 30
#define SC_CHART_H     9  /* a chart's rows at least, its title included */
#define SC_FIXED_W     68 /* the table's columns after the region's */

struct scaling_data {
	struct sv_runs *runs;
	int metric;
	struct sv_list list; /* over the rows: charted region x point */
	/* The regions charted (indexes into the study's regions) and the
	 * selection that chose them (/; NULL: every region). */
	size_t *shown, nshown;
	struct sv_regex *select;
	char select_spec[SV_SESSION_TEXT_MAX];
	/* Each region's figure of each metric at each point, and the
	 * ideals: vals[m][region * np + point], ideal[m][point]. */
	double *vals[SC_METRICS], *ideal[SC_METRICS];
	size_t np;
	unsigned serial; /* of the study these are made from */
	/* The point marked by Enter (a row's region and point), -1. */
	long mark_region, mark_point;
};

/* ---- rows ---------------------------------------------------------------- */

static const struct sv_scaling *sc_study(const struct scaling_data *d)
{
	return d->runs && d->runs->has_study ? &d->runs->study : NULL;
}

/* The figure of metric m of point pt. */
static double sc_figure(const struct sv_scaling_point *pt, int m)
{
	return m == SC_SPEEDUP      ? pt->speedup
	       : m == SC_EFFICIENCY ? pt->efficiency
				    : pt->weak_efficiency;
}

/* The rows and the charts' values again, from the study as it is now. */
static void sc_rebuild(struct scaling_data *d)
{
	const struct sv_scaling *st = sc_study(d);
	size_t i, j, np = st ? st->npoints : 0, nr = st ? st->nregions : 0;
	int m;

	if (d->serial != (d->runs ? d->runs->serial : 0)) {
		d->mark_region = -1;
		d->mark_point = -1;
	}
	d->serial = d->runs ? d->runs->serial : 0;
	free(d->shown);
	d->shown = sv_xcalloc(nr ? nr : 1, sizeof *d->shown);
	d->nshown = 0;
	for (i = 0; i < nr; i++)
		if (!d->select || sv_regex_search(d->select,
					  st->regions[i].name, NULL, NULL))
			d->shown[d->nshown++] = i;
	d->np = np;
	for (m = 0; m < SC_METRICS; m++) {
		free(d->vals[m]);
		free(d->ideal[m]);
		d->vals[m] = sv_xcalloc(nr * np + 1, sizeof(double));
		d->ideal[m] = sv_xcalloc(np + 1, sizeof(double));
		for (i = 0; i < nr; i++)
			for (j = 0; j < np; j++)
				d->vals[m][i * np + j] =
					sc_figure(&st->regions[i].points[j], m);
		for (j = 0; j < np; j++)
			d->ideal[m][j] = m != SC_SPEEDUP ? 1.0
					 : st->numeric && st->baseline > 0
						 ? st->xs[j] / st->baseline
						 : NAN;
	}
	sv_list_set_rows(&d->list, (long)(d->nshown * np));
}

/* The runs read another run (runs.h's changed hook). */
static void sc_changed(void *ctx)
{
	struct sv_mode *m = ctx;
	sc_rebuild(m->data);
}

/* Row -> (region index of the study, point). */
static void sc_row(
	const struct scaling_data *d, long row, size_t *region, size_t *point)
{
	size_t np = d->np ? d->np : 1;
	*region = d->shown[(size_t)row / np];
	*point = (size_t)row % np;
}

/* The first run of point pt (its file), or NULL. */
static const char *sc_run_of(
	const struct sv_scaling *st, size_t pt, size_t *count)
{
	const char *file = NULL;
	size_t i;

	*count = 0;
	for (i = 0; i < st->nruns; i++)
		if (st->runs[i].point == pt) {
			if (!file)
				file = st->runs[i].file;
			(*count)++;
		}
	return file;
}

/* ---- the table ----------------------------------------------------------- */

/* The width of the region column for a table w cells wide. */
static int sc_name_w(int w)
{
	int nw = w - SC_FIXED_W - 18;
	return nw < 12 ? 12 : nw > 40 ? 40 : nw;
}

static void sc_ratio(char *buf, size_t n, double v)
{
	if (isfinite(v))
		snprintf(buf, n, "%.2f", v);
	else
		snprintf(buf, n, "-");
}

static void sc_draw_row(const struct sv_mode *m, const struct sv_list *l,
	struct sv_grid *g, long row, int x, int y, int w, int st)
{
	const struct scaling_data *d = m->data;
	const struct sv_scaling *s = sc_study(d);
	const struct sv_scaling_point *pt;
	char mean[32], sp[16], ef[16], nr[16], we[16], run[64];
	const char *file;
	size_t ri, pi, nruns;
	int nw = sc_name_w(w), color;

	(void)l;
	if (!s)
		return;
	sc_row(d, row, &ri, &pi);
	if (st != SV_STYLE_PANEL_CURSOR && (long)ri == d->mark_region &&
		(long)pi == d->mark_point) {
		st = SV_STYLE_PANEL_MARK;
		sv_grid_fill(g, x, y, x + w, y + 1, ' ', st, 0);
	}
	pt = &s->regions[ri].points[pi];
	color = sv_grid_region_color(s->regions[ri].name);
	sv_grid_text(g, x + 1, y, nw - 1, s->regions[ri].name,
		pi ? (st == SV_STYLE_PANEL ? SV_STYLE_DIM : st) : st,
		pi ? 0 : color, m->s->opts.ascii ? '~' : 0x2026);
	sv_fmt_dur_ex(pt->mean_duration * 1e9, 3, 0, mean, sizeof mean);
	sc_ratio(sp, sizeof sp, pt->speedup);
	sc_ratio(ef, sizeof ef, pt->efficiency);
	sc_ratio(nr, sizeof nr, pt->normalized_runtime);
	sc_ratio(we, sizeof we, pt->weak_efficiency);
	sv_grid_textf(g, x + nw, y, SC_FIXED_W, st, 0,
		"%10.10s %4u %10s %8s %10s %10s %9s", s->x_texts[pi],
		(unsigned)pt->runs, mean, sp, ef, nr, we);
	file = sc_run_of(s, pi, &nruns);
	if (file) {
		if (nruns > 1)
			snprintf(run, sizeof run, "%s +%zu", file, nruns - 1);
		else
			snprintf(run, sizeof run, "%s", file);
		sv_grid_text(g, x + nw + SC_FIXED_W + 2, y,
			w - nw - SC_FIXED_W - 2, run, st, 0,
			m->s->opts.ascii ? '~' : 0x2026);
	}
}

/* Enter: mark the point; on a second point at another x, open the two
 * runs on the two-run timeline. */
static int sc_enter(struct sv_mode *m, struct sv_list *l, long row)
{
	struct scaling_data *d = m->data;
	const struct sv_scaling *s = sc_study(d);
	const char *a, *b;
	size_t ri, pi, n;

	(void)l;
	if (!s || !d->nshown)
		return SV_REACT_REDRAW | SV_REACT_BELL;
	sc_row(d, row, &ri, &pi);
	if (d->mark_point < 0) {
		d->mark_region = (long)ri;
		d->mark_point = (long)pi;
		sv_session_message(m->s, false,
			"marked %s %s (%s): Enter on a point at another x "
			"opens the two runs",
			s->x_field, s->x_texts[pi], sc_run_of(s, pi, &n));
		return SV_REACT_REDRAW;
	}
	if ((long)pi == d->mark_point) {
		if ((long)ri == d->mark_region) {
			d->mark_region = d->mark_point = -1;
			sv_session_message(m->s, false, "mark dropped");
			return SV_REACT_REDRAW;
		}
		sv_session_message(m->s, true,
			"both points are at %s %s: choose a point at "
			"another x",
			s->x_field, s->x_texts[pi]);
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	a = sc_run_of(s, (size_t)d->mark_point, &n);
	b = sc_run_of(s, pi, &n);
	if (!a || !b || !sv_runs_set_pair(d->runs, a, b))
		return SV_REACT_REDRAW | SV_REACT_BELL;
	d->mark_region = d->mark_point = -1;
	sv_session_message(m->s, false, "opening %s and %s", a, b);
	return SV_REACT_REDRAW | SV_REACT_PAIR;
}

static const struct sv_list_ops sc_list_ops = {
	.draw_row = sc_draw_row,
	.enter = sc_enter,
	.enter_help = "Mark the point; on a second point at another x, "
		      "open the two runs on the two-run timeline (Esc "
		      "comes back)",
};

/* ---- layout -------------------------------------------------------------- */

/* Where things go on a w x h screen. */
struct sc_layout {
	int runs_y, runs_h;   /* one line a run */
	int chart_y, chart_h; /* the charts */
	int table_y, table_h; /* its heading, then the rows */
};

static void sc_layout(const struct sv_mode *m, struct sc_layout *lo)
{
	const struct scaling_data *d = m->data;
	int h = m->h, cap = (h - 10) / 7, avail;
	int n = d->runs ? (int)d->runs->n : 0;

	if (cap < 1)
		cap = 1;
	/* Failed runs are listed with their errors, up to a quarter of the
	 * screen. */
	if (d->runs && (int)d->runs->failed + 1 > cap)
		cap = (int)d->runs->failed + 1 < h / 4
			      ? (int)d->runs->failed + 1
			      : h / 4;
	lo->runs_y = 1;
	lo->runs_h = n < cap ? n : cap;
	avail = h - 2 - lo->runs_h;
	lo->chart_y = lo->runs_y + lo->runs_h;
	lo->chart_h = avail >= 16 ? avail * 11 / 20 : 0;
	lo->table_y = lo->chart_y + lo->chart_h;
	lo->table_h = avail - lo->chart_h;
}

static void sc_place(struct sv_mode *m)
{
	struct scaling_data *d = m->data;
	struct sc_layout lo;

	sc_layout(m, &lo);
	sv_list_place(&d->list, 0, lo.table_y + 1, m->w,
		lo.table_h > 1 ? lo.table_h - 1 : 1);
}

/* ---- the mode ------------------------------------------------------------ */

static int sc_init(struct sv_mode *m, struct sv_error *err)
{
	struct scaling_data *d = m->data;

	d->runs = m->view->runs;
	if (!d->runs)
		return sv_error_set(err, -ENOENT,
			"the scaling view compares three or more runs: "
			"scopeview A B C ...");
	m->w = m->w ? m->w : 120;
	m->h = m->h ? m->h : 40;
	d->mark_region = d->mark_point = -1;
	sv_list_init(&d->list, &sc_list_ops, -1);
	d->runs->changed = sc_changed;
	d->runs->changed_ctx = m;
	sc_rebuild(d);
	sc_place(m);
	/* The runs are read on the session's jobs (once a workspace). */
	sv_runs_start(d->runs, &m->s->jobs);
	return 0;
}

static void sc_fini(struct sv_mode *m)
{
	struct scaling_data *d = m->data;
	int k;

	if (d->runs && d->runs->changed_ctx == m)
		d->runs->changed = NULL;
	sv_runs_stop(d->runs); /* its jobs end with the view */
	sv_regex_free(d->select);
	free(d->shown);
	for (k = 0; k < SC_METRICS; k++) {
		free(d->vals[k]);
		free(d->ideal[k]);
	}
}

static void sc_resize(struct sv_mode *m, int w, int h)
{
	m->w = w;
	m->h = h;
	sc_place(m);
}

static struct sv_list *sc_list(struct sv_mode *m)
{
	return &((struct scaling_data *)m->data)->list;
}

static int sc_apply(struct sv_mode *m, int a)
{
	struct scaling_data *d = m->data;

	if (a != SV_ACTION_SCALING_METRIC)
		return SV_REACT_BELL;
	d->metric = (d->metric + 1) % SC_METRICS;
	sv_session_message(
		m->s, false, "charting the %s", sc_metric_what[d->metric]);
	return SV_REACT_REDRAW;
}

/* `/` over the view: chart the regions the regex finds. */
static int sc_prompt(struct sv_mode *m, int kind, const char *text)
{
	struct scaling_data *d = m->data;
	const struct sv_scaling *st = sc_study(d);
	struct sv_regex *re;
	struct sv_error err;
	size_t i, hits = 0;

	if (kind != SV_PROMPT_SEARCH)
		return -1;
	if (!*text) {
		sv_regex_free(d->select);
		d->select = NULL;
		d->select_spec[0] = '\0';
		sc_rebuild(d);
		sv_session_message(m->s, false, "charting every region");
		return SV_REACT_REDRAW;
	}
	memset(&err, 0, sizeof err);
	re = sv_regex_compile(text, &err);
	if (!re) {
		sv_session_message(m->s, true, "%s", err.msg);
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	for (i = 0; st && i < st->nregions; i++)
		hits += sv_regex_search(re, st->regions[i].name, NULL, NULL);
	if (st && !hits) {
		sv_session_message(m->s, true, "no region matches '%s'", text);
		sv_regex_free(re);
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	sv_regex_free(d->select);
	d->select = re;
	snprintf(d->select_spec, sizeof d->select_spec, "%s", text);
	sc_rebuild(d);
	sv_list_set_cursor(m, &d->list, 0);
	sv_session_message(m->s, false, "charting %zu region%s matching '%s'",
		d->nshown, d->nshown == 1 ? "" : "s", text);
	return SV_REACT_REDRAW;
}

/* ---- drawing ------------------------------------------------------------- */

/* The line of run i. */
static void sc_draw_run(const struct sv_mode *m, struct sv_grid *g,
	const struct sv_runs_run *run, int y)
{
	const struct scaling_data *d = m->data;
	bool a = m->s->opts.ascii;
	int w = m->w, x = 1;

	switch (run->state) {
	case SV_RUNS_MEASURED:
		sv_grid_put(g, x, y, a ? '+' : 0x2713, SV_STYLE_PANEL, 0);
		x += 2;
		x += sv_grid_text(g, x, y, w / 3, run->path, SV_STYLE_PANEL, 0,
			a ? '~' : 0x2026);
		sv_grid_textf(g, x + 2, y, w - x - 3, SV_STYLE_DIM, 0,
			"%s %s  %llu calls  %s",
			d->runs->x_field ? d->runs->x_field : "num_ranks",
			run->sample.x_text ? run->sample.x_text : "?",
			(unsigned long long)run->calls,
			run->sample.label &&
					strcmp(run->sample.label, run->path)
				? run->sample.label
				: "");
		break;
	case SV_RUNS_FAILED:
		sv_grid_put(g, x, y, a ? '!' : 0x2717, SV_STYLE_WARNING, 0);
		x += 2;
		sv_grid_text(g, x, y, w - x - 1, run->error, SV_STYLE_WARNING,
			0, a ? '~' : 0x2026);
		break;
	case SV_RUNS_LOADING:
		sv_grid_put(g, x, y, a ? '~' : 0x2026, SV_STYLE_PANEL_HEAD, 0);
		x += 2;
		x += sv_grid_text(g, x, y, w / 3, run->path, SV_STYLE_PANEL, 0,
			a ? '~' : 0x2026);
		sv_grid_textf(g, x + 2, y, w - x - 3, SV_STYLE_WARNING, 0,
			"reading: %d%%", sv_runs_percent(d->runs));
		break;
	default:
		x += 2;
		x += sv_grid_text(g, x, y, w / 3, run->path, SV_STYLE_DIM, 0,
			a ? '~' : 0x2026);
		sv_grid_text(
			g, x + 2, y, w - x - 3, "waiting", SV_STYLE_DIM, 0, 0);
		break;
	}
}

/* The runs' lines: all of them when they fit, else the failed and the
 * one being read first, then a line for the rest. */
static void sc_draw_runs(
	const struct sv_mode *m, struct sv_grid *g, const struct sc_layout *lo)
{
	const struct sv_runs *r = ((const struct scaling_data *)m->data)->runs;
	int y = lo->runs_y, pass;
	size_t i, shown = 0, room;

	if (!lo->runs_h)
		return;
	if (r->n <= (size_t)lo->runs_h) {
		for (i = 0; i < r->n; i++)
			sc_draw_run(m, g, &r->runs[i], y++);
		return;
	}
	room = (size_t)lo->runs_h - 1;
	for (pass = 0; pass < 4 && shown < room; pass++) {
		static const enum sv_runs_state order[4] = {SV_RUNS_FAILED,
			SV_RUNS_LOADING, SV_RUNS_WAITING, SV_RUNS_MEASURED};
		for (i = 0; i < r->n && shown < room; i++)
			if (r->runs[i].state == order[pass]) {
				sc_draw_run(m, g, &r->runs[i], y++);
				shown++;
			}
	}
	sv_grid_textf(g, 3, y, m->w - 4, SV_STYLE_DIM, 0,
		"and %zu more runs: %zu read, %zu failed, %zu to read",
		r->n - shown, r->measured, r->failed,
		r->n - r->measured - r->failed);
}

/* The chart of region ri in (x, y, w, h). */
static void sc_draw_chart(const struct sv_mode *m, struct sv_grid *g, size_t ri,
	bool cur, long cur_point, int x, int y, int w, int h)
{
	const struct scaling_data *d = m->data;
	const struct sv_scaling *s = sc_study(d);
	const double *vals = d->vals[d->metric] + ri * d->np;
	const double *ideal = d->ideal[d->metric];
	struct sv_chart c;
	struct sv_chart_series ser[2];
	struct sv_chart_mark mk[2];
	size_t j, nmk = 0;
	double top = 0;
	char last[32];
	int color = sv_grid_region_color(s->regions[ri].name), tw;

	for (j = 0; j < d->np; j++) {
		if (isfinite(vals[j]) && vals[j] > top)
			top = vals[j];
		if (isfinite(ideal[j]) && ideal[j] > top)
			top = ideal[j];
	}
	memset(&c, 0, sizeof c);
	c.xs = s->xs;
	c.x_texts = (const char *const *)s->x_texts;
	c.n = s->npoints;
	c.log_x = sv_scaling_x_doubles(s);
	c.ascii = m->s->opts.ascii;
	c.y_top = sv_chart_top(top, h - 3);
	c.x_name = s->x_field;
	ser[0].y = ideal;
	ser[0].style = SV_STYLE_CHART_IDEAL;
	ser[0].color = 0;
	ser[0].dotted = true;
	ser[1].y = vals;
	ser[1].style = SV_STYLE_CHART;
	ser[1].color = color;
	ser[1].dotted = false;
	if ((long)ri == d->mark_region && d->mark_point >= 0) {
		mk[nmk].series = 1;
		mk[nmk].point = (size_t)d->mark_point;
		mk[nmk].style = SV_STYLE_MATCH;
		mk[nmk++].glyph = 0;
	}
	if (cur && cur_point >= 0) {
		mk[nmk].series = 1;
		mk[nmk].point = (size_t)cur_point;
		mk[nmk].style = SV_STYLE_PANEL_CURSOR;
		mk[nmk++].glyph = 0;
	}
	snprintf(last, sizeof last, " %s %.2f at %s", sc_metric_name[d->metric],
		d->np ? vals[d->np - 1] : NAN,
		d->np ? s->x_texts[d->np - 1] : "");
	tw = sv_grid_text_width(last, 64);
	sv_grid_text(g, x, y, w - tw - 1, s->regions[ri].name,
		cur ? SV_STYLE_PANEL_CURSOR : SV_STYLE_CHART, cur ? 0 : color,
		m->s->opts.ascii ? '~' : 0x2026);
	if (tw < w - 8)
		sv_grid_text(g, x + w - tw, y, tw, last, SV_STYLE_DIM, 0, 0);
	sv_chart_draw(g, x, y + 1, w, h - 1, &c, ser, 2, mk, nmk);
}

/* The charts: a grid of them, the page holding the cursor's region. */
static void sc_draw_charts(
	const struct sv_mode *m, struct sv_grid *g, const struct sc_layout *lo)
{
	const struct scaling_data *d = m->data;
	int cols, rows, per, ch, cw, k, first;
	size_t cur_ri = 0, cur_pi = 0, idx;

	if (lo->chart_h < SC_CHART_H || !d->nshown)
		return;
	cols = m->w / (SC_CHART_MIN_W + 10);
	if (cols < 1)
		cols = 1;
	if ((size_t)cols > d->nshown)
		cols = (int)d->nshown;
	rows = lo->chart_h / SC_CHART_H;
	if ((size_t)rows * (size_t)cols > d->nshown)
		rows = (int)((d->nshown + (size_t)cols - 1) / (size_t)cols);
	per = rows * cols;
	cw = m->w / cols;
	ch = lo->chart_h / rows;
	idx = (size_t)d->list.cur / (d->np ? d->np : 1);
	if (d->list.n)
		sc_row(d, d->list.cur, &cur_ri, &cur_pi);
	first = (int)(idx / (size_t)per) * per;
	for (k = 0; k < per && (size_t)(first + k) < d->nshown; k++) {
		size_t ri = d->shown[first + k];
		bool cur = d->list.n && ri == cur_ri;
		sc_draw_chart(m, g, ri, cur, cur ? (long)cur_pi : -1,
			(k % cols) * cw + 1, lo->chart_y + (k / cols) * ch,
			cw - 2, ch - 1);
	}
}

static void sc_draw(
	const struct sv_mode *m, struct sv_grid *g, struct sv_rect r)
{
	const struct scaling_data *d = m->data;
	const struct sv_runs *runs = d->runs;
	const struct sv_scaling *s = sc_study(d);
	struct sc_layout lo;
	char xs[160];
	size_t j, used = 0;

	if (r.w < 60 || r.h < 12) {
		sv_render_too_small(g, r.w, r.h);
		return;
	}
	sc_layout(m, &lo);
	xs[0] = '\0';
	for (j = 0; s && j < s->npoints && used < sizeof xs; j++)
		used += (size_t)snprintf(xs + used, sizeof xs - used, "%s%s",
			j ? " " : "", s->x_texts[j]);
	if (s)
		sv_grid_textf(g, r.x, r.y, r.w, SV_STYLE_PANEL_HEAD, 0,
			" %zu runs, %s %s%s, baseline %s | %s | %zu of %zu "
			"regions%s%s",
			s->nruns, s->x_field, xs,
			sv_scaling_x_doubles(s) ? " (log2 axis)" : "",
			s->baseline_text, sc_metric_what[d->metric], d->nshown,
			s->nregions, d->select ? " matching " : "",
			d->select ? d->select_spec : "");
	else
		sv_grid_textf(g, r.x, r.y, r.w, SV_STYLE_PANEL_HEAD, 0,
			" Scaling study of %zu runs", runs->n);
	sc_draw_runs(m, g, &lo);
	if (!s) {
		const char *why = runs->study_error[0] ? runs->study_error
				  : sv_runs_busy(runs)
					  ? "Reading the runs: the charts "
					    "come with the first one read."
					  : "No run could be read.";
		sv_grid_text(g, r.x + 1, lo.chart_y + 1, r.w - 2, why,
			runs->study_error[0] ? SV_STYLE_WARNING : SV_STYLE_DIM,
			0, 0);
		return;
	}
	if (!d->nshown) {
		sv_grid_text(g, r.x + 1, lo.chart_y + 1, r.w - 2,
			"No region has calls in every run read.", SV_STYLE_DIM,
			0, 0);
		return;
	}
	sc_draw_charts(m, g, &lo);
	sv_grid_fill(g, r.x, lo.table_y, r.x + r.w, lo.table_y + 1, ' ',
		SV_STYLE_PANEL_HEAD, 0);
	sv_grid_text(g, r.x + 1, lo.table_y, sc_name_w(r.w) - 1, "region",
		SV_STYLE_PANEL_HEAD, 0, 0);
	sv_grid_textf(g, r.x + sc_name_w(r.w), lo.table_y, r.w - sc_name_w(r.w),
		SV_STYLE_PANEL_HEAD, 0,
		"%10.10s %4s %10s %8s %10s %10s %9s   run", s->x_field, "runs",
		"mean", "speedup", "efficiency", "normalized", "weak eff.");
	sv_list_draw(m, &d->list, g);
}

static void sc_status(const struct sv_mode *m, char *line, size_t n,
	const char *const **hints, size_t *nhints)
{
	const struct scaling_data *d = m->data;
	static const char *const h[] = {
		"j/k point  Enter mark, then open two runs  x metric  "
		"/ regions  ? help",
		"Enter mark/open  x metric  / regions",
		"x metric  ? help",
	};
	snprintf(line, n, "  scaling  point %ld/%ld  %s",
		d->list.n ? d->list.cur + 1 : 0, d->list.n,
		sc_metric_name[d->metric]);
	*hints = h;
	*nhints = 3;
}

static void sc_describe(const struct sv_mode *m, char *buf, size_t n)
{
	const struct scaling_data *d = m->data;
	snprintf(buf, n, "row=%ld rows=%ld metric=%d shown=%zu mark=%ld,%ld",
		d->list.cur, d->list.n, d->metric, d->nshown, d->mark_region,
		d->mark_point);
}

bool sv_mode_fits(struct sv_view *v, const struct sv_mode_ops *ops, bool say)
{
	bool scaling = ops == &sv_mode_scaling;

	if (!v || scaling == (v->runs != NULL))
		return true;
	if (say && scaling)
		sv_session_message(&v->s, true, "%s",
			"the scaling view compares three or more runs: "
			"scopeview A B C ...");
	else if (say)
		sv_session_message(&v->s, true, "%s",
			"the runs workspace shows :view scaling; Enter on two "
			"of its points opens those runs on the two-run "
			"timeline");
	return false;
}

const struct sv_mode_ops sv_mode_scaling = {
	.name = "scaling",
	.title = "Scaling study",
	.main = true,
	.scopes = {SV_SCOPE_SCALING, SV_SCOPE_LIST, SV_SCOPE_GLOBAL, 0},
	.size = sizeof(struct scaling_data),
	.init = sc_init,
	.fini = sc_fini,
	.resize = sc_resize,
	.apply = sc_apply,
	.draw = sc_draw,
	.status = sc_status,
	.describe = sc_describe,
	.prompt = sc_prompt,
	.list = sc_list,
};
