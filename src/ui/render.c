/*
 * render.c: draw the view into the grid (render.h).
 *
 * Areas, top to bottom: the time ruler (two rows), the lanes (a label
 * column, then the timeline), the details of the selected call, the status
 * line or prompt; the summary panel on the right when there is room; a
 * popup over everything.  Every string from the file goes through
 * sv_grid_text(), which escapes control characters.  Invariants: a frame
 * allocates nothing once the grid has its size; the timeline walks each
 * visible row with sv_layout_row_next(), so its cost follows the screen,
 * not the profile; nothing drawn depends on the clock.  Nothing here knows
 * about curses, HDF5 or the loader.
 */
#include "scopeview/render.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/keys.h"
#include "scopeview/layout.h"

struct render_glyphs {
	uint32_t bar, await, vline, hline, tick, cursor, ellipsis, gpu,
		collapsed, expanded, many, tl, tr, bl, br, sortmark;
};

static const struct render_glyphs render_unicode = {
	SV_GRID_BAR, 0x2591, /* ░ */
	0x2502,              /* │ */
	0x2500,              /* ─ */
	0x252c,              /* ┬ */
	0x250a,              /* ┊ */
	0x2026,              /* … */
	'G', 0x25b8,         /* ▸ */
	0x25be,              /* ▾ */
	'+', 0x250c,         /* ┌ */
	0x2510,              /* ┐ */
	0x2514,              /* └ */
	0x2518,              /* ┘ */
	0x25bc,              /* ▼ */
};

static const struct render_glyphs render_ascii = {
	'=',
	':',
	'|',
	'-',
	'+',
	'|',
	'~',
	'G',
	'+',
	'-',
	'+',
	'+',
	'+',
	'+',
	'+',
	'v',
};

struct render_ctx {
	struct sv_grid *g;
	const struct sv_view *v;
	const struct sv_profile *p;
	const struct sv_layout_geom *geom;
	const struct render_glyphs *gl;
};

/* Compact duration for tables: at most 7 cells ("12.5ms", "830ns"). */
static char *render_short(int64_t ns, char *buf, size_t n)
{
	static const struct {
		double div;
		const char *unit;
	} units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}};
	double a = ns < 0 ? -(double)ns : (double)ns;
	size_t i;

	for (i = 0; i < sizeof units / sizeof units[0]; i++)
		if (a >= units[i].div * 0.9995) {
			double x = a / units[i].div;
			snprintf(buf, n, "%s%.*f%s", ns < 0 ? "-" : "",
				x >= 99.95   ? 0
				: x >= 9.995 ? 1
					     : 2,
				x, units[i].unit);
			return buf;
		}
	snprintf(buf, n, "%" PRId64 "ns", ns);
	return buf;
}

/* A relative time with a sign: "+12.500 ms". */
static char *render_rel(int64_t ns, char *buf, size_t n)
{
	char d[48];
	sv_view_fmt_dur(ns < 0 ? -ns : ns, d, sizeof d);
	snprintf(buf, n, "%s%s", ns < 0 ? "-" : "+", d);
	return buf;
}

/* Exact nanoseconds with thousands separators: "5,232,556 ns". */
static char *render_ns(int64_t ns, char *buf, size_t n)
{
	char digits[32], out[48];
	int len, i, o = 0;
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	len = snprintf(digits, sizeof digits, "%" PRIu64, a);
	if (ns < 0)
		out[o++] = '-';
	for (i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	snprintf(buf, n, "%s ns", out);
	return buf;
}

/* A duration in human units and exact: "85.4 us = 85,360 ns", or just
 * "801 ns" when the two would say the same. */
static char *render_exact(int64_t ns, bool rel, char *buf, size_t n)
{
	char h[64], x[48];
	if (rel)
		render_rel(ns, h, sizeof h);
	else
		sv_view_fmt_dur(ns, h, sizeof h);
	if (ns > -1000 && ns < 1000)
		snprintf(buf, n, "%s", h);
	else
		snprintf(buf, n, "%s = %s", h, render_ns(ns, x, sizeof x));
	return buf;
}

/* ---- ruler ----------------------------------------------------------------- */

/* The round step (1, 2 or 5 times a power of ten, ns) giving a tick about
 * every 11 columns or more. */
static int64_t ruler_pick_step(int64_t span, int cols)
{
	sv_i128 target = (sv_i128)span * 11 / (cols > 0 ? cols : 1);
	int64_t p10 = 1;

	for (;;) {
		static const int mult[] = {1, 2, 5};
		int i;
		for (i = 0; i < 3; i++)
			if ((sv_i128)p10 * mult[i] >= target)
				return p10 * mult[i];
		if (p10 > INT64_MAX / 100)
			return p10 * 10;
		p10 *= 10;
	}
}

/* The unit of every label on the ruler: the largest unit in which the
 * window's far end (relative to the origin) is at least 1, so that labels
 * read "5.3ms 5.4ms", never "5300us 5400us". */
static int64_t ruler_unit(int64_t far, int64_t step)
{
	int64_t a = far < 0 ? -far : far;
	if (a < step)
		a = step;
	return a >= 1000000000 ? 1000000000
	       : a >= 1000000  ? 1000000
	       : a >= 1000     ? 1000
			       : 1;
}

/* A tick label in the ruler's unit, with as many decimals as the step
 * needs (a step of 100 us in ms: one decimal). */
static void ruler_label(
	int64_t rel, int64_t step, int64_t div, char *buf, size_t n)
{
	const char *unit = div == 1000000000 ? "s"
			   : div == 1000000  ? "ms"
			   : div == 1000     ? "us"
					     : "ns";
	int dec = 0;
	int64_t q = div, whole, frac, p10 = 1, i;

	while (q > 1 && step % q != 0) {
		q /= 10;
		dec++;
	}
	for (i = 0; i < dec; i++)
		p10 *= 10;
	whole = rel / div;
	frac = (rel < 0 ? -rel : rel) % div / (div / p10);
	if (dec) {
		char digits[12];
		for (i = dec; i > 0; i--) {
			digits[i - 1] = (char)('0' + frac % 10);
			frac /= 10;
		}
		digits[dec] = '\0';
		snprintf(buf, n, "%s%" PRId64 ".%s%s",
			rel < 0 && whole == 0 ? "-" : "", whole, digits, unit);
	} else
		snprintf(buf, n, "%" PRId64 "%s", whole, unit);
}

static void render_ruler(struct render_ctx *r)
{
	const struct sv_view *v = r->v;
	const struct sv_layout_geom *g = r->geom;
	struct sv_tmap m = sv_view_tmap(v);
	int64_t step = ruler_pick_step(v->t1 - v->t0, g->tl_w);
	int64_t unit = ruler_unit(v->t1 - v->origin, step), base = 0;
	/* Ticks finer than a thousandth of the unit would need long labels:
	 * the first labelled tick gets its exact time in ns, the others
	 * their offset from it. */
	bool fine = step * 1000 < unit, have_base = false;
	sv_i128 rel0 = (sv_i128)v->t0 - v->origin, k;
	int last_end = g->tl_x, x, cx, label_end = m.x0 + m.w;
	char buf[48], span[32];

	sv_grid_fill(r->g, 0, g->ruler_y, g->tl_x + g->tl_w, g->ruler_y + 2,
		' ', SV_STYLE_RULER, 0);
	sv_grid_fill(r->g, g->tl_x, g->ruler_y + 1, g->tl_x + g->tl_w,
		g->ruler_y + 2, r->gl->hline, SV_STYLE_RULER, 0);
	sv_view_fmt_dur(v->t1 - v->t0, span, sizeof span);
	/* "span 72.5 ms", or just "72.5 ms" when the label column is narrow. */
	sv_grid_textf(r->g, 0, g->ruler_y, g->label_w - 1, SV_STYLE_RULER, 0,
		"%s%s", (int)strlen(span) + 5 <= g->label_w - 1 ? "span " : "",
		span);
	sv_grid_text(r->g, 0, g->ruler_y + 1, g->label_w - 1,
		v->p->has_start_time ? "t=0: run start" : "t=0: first call",
		SV_STYLE_DIM, 0, r->gl->ellipsis);
	if ((long)v->rows.n > g->lanes_h && g->lanes_h > 0) {
		/* Where the lane area is in the rows: "rows 5-20 of 64". */
		char rows[64];
		int w;
		snprintf(rows, sizeof rows, " rows %ld-%ld of %zu",
			v->top_row + 1,
			v->top_row + g->lanes_h < (long)v->rows.n
				? v->top_row + g->lanes_h
				: (long)v->rows.n,
			v->rows.n);
		w = (int)strlen(rows);
		if (w < g->tl_w / 2) {
			label_end = m.x0 + m.w - w;
			sv_grid_text(r->g, label_end, g->ruler_y, w, rows,
				SV_STYLE_DIM, 0, 0);
		}
	}
	/* First multiple of step at or after t0 (floor division). */
	k = rel0 / step;
	if (k * step < rel0)
		k++;
	for (; (sv_i128)v->origin + k * step < v->t1; k++) {
		int64_t t = (int64_t)((sv_i128)v->origin + k * step);
		int w;
		x = sv_tmap_col(&m, t);
		if (x < m.x0 || x >= m.x0 + m.w)
			continue;
		sv_grid_put(r->g, x, g->ruler_y + 1, r->gl->tick,
			SV_STYLE_RULER, 0);
		if (fine && have_base) {
			/* Deep zoom: "+20ns" from the first labelled tick,
			 * not "5.00002ms". */
			int64_t off = (int64_t)(k * step) - base;
			buf[0] = '+';
			ruler_label(off, step, ruler_unit(off, step), buf + 1,
				sizeof buf - 1);
		} else if (fine)
			render_ns((int64_t)(k * step), buf, sizeof buf);
		else
			ruler_label((int64_t)(k * step), step, unit, buf,
				sizeof buf);
		w = (int)strlen(buf);
		if (x >= last_end && x + w < label_end) {
			sv_grid_text(r->g, x, g->ruler_y, w, buf,
				SV_STYLE_RULER, 0, 0);
			last_end = x + w + 1;
			if (fine && !have_base) {
				base = (int64_t)(k * step);
				have_base = true;
			}
		}
	}
	/* The cursor's column. */
	cx = sv_tmap_col(&m, v->cur_t);
	if (cx >= m.x0 && cx < m.x0 + m.w)
		sv_grid_put(r->g, cx, g->ruler_y + 1, r->gl->sortmark,
			SV_STYLE_CURSOR, 0);
}

/* ---- lanes ----------------------------------------------------------------- */

static void render_bar(struct render_ctx *r, const struct sv_layout_span *s,
	int y, int sel_x0, int sel_x1, bool sel_row)
{
	const struct sv_profile *p = r->p;
	uint32_t c = s->call;
	uint32_t region = sv_call_region(p, c);
	const char *name = p->regions[region];
	int color = sv_grid_region_color(name);
	bool await = p->await_ns && p->await_ns[c] > 0;
	bool gpu = p->gpu_ns && p->gpu_ns[c] >= 0;
	int style = await ? SV_STYLE_SPAN_AWAIT : SV_STYLE_SPAN;
	int x, w = s->x1 - s->x0;
	uint32_t fill = await ? r->gl->await : r->gl->bar;

	if (s->count > 1) {
		uint32_t ch = s->count < 10 ? '0' + s->count : r->gl->many;
		int st = SV_STYLE_SPAN_MERGED;
		struct sv_tmap m = sv_view_tmap(r->v);
		if (sel_row && s->x0 >= sel_x0 && s->x0 < sel_x1)
			st = SV_STYLE_SELECTED;
		else if (sv_view_is_match(r->v, c) ||
			 sv_view_has_match(r->v, p->lane_of[c], p->depth[c],
				 sv_tmap_time(&m, s->x0),
				 sv_tmap_time(&m, s->x0 + 1)))
			st = SV_STYLE_MATCH;
		sv_grid_put(r->g, s->x0, y, ch, st, color);
		return;
	}
	if (c == r->v->sel)
		style = SV_STYLE_SELECTED;
	else if (sv_view_is_match(r->v, c))
		style = SV_STYLE_MATCH;
	for (x = s->x0; x < s->x1; x++)
		sv_grid_put(r->g, x, y, fill, style, color);
	if (w >= 4) {
		/* The name where the bar is wide enough to show some of it. */
		int tw = sv_grid_text_width(name, w);
		if (tw > 0)
			sv_grid_text(r->g, s->x0, y, w - (gpu ? 1 : 0), name,
				style, color, r->gl->ellipsis);
	}
	if (gpu && w >= 2)
		sv_grid_put(r->g, s->x1 - 1, y, r->gl->gpu,
			style == SV_STYLE_SELECTED ? style : SV_STYLE_SPAN_GPU,
			color);
}

/* Consecutive merged cells dominated by one region: cells [x0, x1). */
struct merged_run {
	uint32_t region;
	int x0, x1;
};

/* Zoomed out, a region's calls often fill a run of merged cells (a loop of
 * short calls).  Write the dominant region's name over the run's count
 * glyphs, keeping every cell's style (merged, match or selected) and the
 * glyphs past the name, so the row reads like a flame graph and still
 * says that each cell stands for several calls. */
#define RENDER_MERGED_NAME_MIN 6
#define RENDER_MAX_RUN         1024

static void render_merged_name(
	struct render_ctx *r, const struct merged_run *run, int y)
{
	uint16_t styles[RENDER_MAX_RUN];
	uint32_t glyphs[RENDER_MAX_RUN];
	const char *name;
	int n = run->x1 - run->x0, x, tw;

	if (n < RENDER_MERGED_NAME_MIN || n > RENDER_MAX_RUN)
		return;
	name = r->p->regions[run->region];
	tw = sv_grid_text_width(name, n - 2);
	if (tw <= 0)
		return;
	for (x = 0; x < n; x++) {
		const struct sv_cell *c = sv_grid_cell(r->g, run->x0 + x, y);
		styles[x] = c ? c->style : SV_STYLE_SPAN_MERGED;
		glyphs[x] = c ? c->ch : ' ';
	}
	/* one count glyph stays visible before and after the name */
	sv_grid_text(r->g, run->x0 + 1, y, n - 2, name, SV_STYLE_SPAN_MERGED,
		sv_grid_region_color(name), r->gl->ellipsis);
	for (x = 0; x < n; x++) {
		struct sv_cell *c = sv_grid_at(r->g, run->x0 + x, y);
		if (!c)
			continue;
		c->style = styles[x];
		if (x == 0 || x > tw)
			c->ch = glyphs[x];
	}
}

/* Word-wrap ASCII text into at most maxh lines of w cells. */
static void render_wrapped(struct render_ctx *r, int x, int y, int w, int maxh,
	const char *text, int style)
{
	char line[256];
	int n = 0;

	while (*text && n < maxh && w > 0) {
		size_t len = strlen(text), cut = len;
		while (*text == ' ')
			text++;
		len = strlen(text);
		cut = len;
		if ((int)len > w) {
			cut = (size_t)w;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = (size_t)w;
		}
		if (cut >= sizeof line)
			cut = sizeof line - 1;
		memcpy(line, text, cut);
		line[cut] = '\0';
		sv_grid_text(r->g, x, y + n, w, line, style, 0,
			n + 1 == maxh && cut < len ? r->gl->ellipsis : 0);
		text += cut;
		n++;
	}
}

static void render_lanes(struct render_ctx *r)
{
	const struct sv_view *v = r->v;
	const struct sv_profile *p = r->p;
	const struct sv_layout_geom *g = r->geom;
	struct sv_tmap m = sv_view_tmap(v);
	long i, cur_row = sv_view_cursor_row(v);
	int sel_x0 = 0, sel_x1 = 0, cx = sv_tmap_col(&m, v->cur_t);
	bool sel_vis = false;

	if (v->sel != SV_NO_CALL)
		sel_vis = sv_tmap_span(&m, p->start_ns[v->sel],
			p->end_ns[v->sel], &sel_x0, &sel_x1);
	if (!p->has_calls || !v->rows.n) {
		const char *msg =
			!p->has_calls
				? "This profile holds summary statistics only "
				  "(aggregate layout): no per-call timeline."
			: p->ncalls ? "No lane on display (t restores a solo "
				      "lane, r changes the rank filter)."
				    : "This profile has no calls.";
		render_wrapped(r, g->tl_x + 1, g->lanes_y + 1, g->tl_w - 2,
			g->lanes_h - 1, msg, SV_STYLE_WARNING);
		return;
	}
	for (i = 0; i < g->lanes_h; i++) {
		long row = v->top_row + i;
		const struct sv_layout_row *lr;
		const struct sv_lane *lane;
		const struct sv_lod_level *lv;
		struct sv_layout_span s;
		struct merged_run run = {0, 0, 0};
		int y = g->lanes_y + (int)i, x, lstyle;
		bool is_cur;

		if (row >= (long)v->rows.n)
			break;
		lr = &v->rows.rows[row];
		lane = &p->lanes[lr->lane];
		is_cur = lr->lane == v->cur_lane;
		lstyle = is_cur && row == cur_row ? SV_STYLE_LABEL_CURSOR
						  : SV_STYLE_LABEL;
		sv_grid_fill(r->g, 0, y, g->label_w - 1, y + 1, ' ', lstyle, 0);
		if (lr->lane_first) {
			uint32_t mark = ' ';
			if (lane->depth_rows > 1)
				mark = v->lane_collapsed[lr->lane]
					       ? r->gl->collapsed
					       : r->gl->expanded;
			sv_grid_put(r->g, 0, y, mark, lstyle, 0);
			sv_grid_text(r->g, 1, y, g->label_w - 2,
				lane->label ? lane->label : "?", lstyle, 0,
				r->gl->ellipsis);
		} else if (row == cur_row) {
			sv_grid_textf(r->g, 1, y, g->label_w - 2, lstyle, 0,
				"  depth %u", (unsigned)lr->depth);
		}
		sv_grid_put(r->g, g->label_w - 1, y, r->gl->vline,
			SV_STYLE_BORDER, 0);
		lv = sv_layout_level(&v->index, lr->lane, lr->depth);
		x = m.x0;
		run.x0 = run.x1 = 0;
		while (sv_layout_row_next(&v->index, lv, &m, &x, &s)) {
			render_bar(r, &s, y,
				sel_vis && p->lane_of[v->sel] == lr->lane &&
						p->depth[v->sel] == lr->depth
					? sel_x0
					: 0,
				sel_x1,
				sel_vis && p->lane_of[v->sel] == lr->lane &&
					p->depth[v->sel] == lr->depth);
			if (s.count > 1 && s.x1 - s.x0 == 1 && run.x1 == s.x0 &&
				run.region == sv_call_region(p, s.call)) {
				run.x1 = s.x1;
				continue;
			}
			render_merged_name(r, &run, y);
			run.x0 = run.x1 = 0;
			if (s.count > 1) {
				run.region = sv_call_region(p, s.call);
				run.x0 = s.x0;
				run.x1 = s.x0 + 1;
			}
		}
		render_merged_name(r, &run, y);
		if (row == cur_row && cx >= m.x0 && cx < m.x0 + m.w) {
			const struct sv_cell *c = sv_grid_cell(r->g, cx, y);
			if (c && c->ch == ' ')
				sv_grid_put(r->g, cx, y, r->gl->cursor,
					SV_STYLE_CURSOR, 0);
		}
	}
}

/* ---- details --------------------------------------------------------------- */

struct render_lines {
	struct render_ctx *r;
	int x, y, w, y_end;
};

static bool details_line(struct render_lines *d, int style, const char *fmt,
	...) SV_PRINTF(3, 4);

static bool details_line(
	struct render_lines *d, int style, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (d->y >= d->y_end)
		return false;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	sv_grid_text(
		d->r->g, d->x, d->y, d->w, buf, style, 0, d->r->gl->ellipsis);
	d->y++;
	return true;
}

static void render_details(struct render_ctx *r)
{
	const struct sv_view *v = r->v;
	const struct sv_profile *p = r->p;
	const struct sv_layout_geom *g = r->geom;
	int w = g->tl_x + g->tl_w;
	struct render_lines d = {
		r, 1, g->details_y + 1, w - 2, g->details_y + g->details_h};
	uint32_t c = v->sel, region, par;
	const struct sv_row *row;
	const struct sv_lane *lane;
	char a[64];
	int64_t dur;

	if (!g->details_h)
		return;
	sv_grid_fill(r->g, 0, g->details_y, w, g->details_y + g->details_h, ' ',
		SV_STYLE_DETAILS, 0);
	sv_grid_fill(r->g, 0, g->details_y, w, g->details_y + 1, r->gl->hline,
		SV_STYLE_BORDER, 0);
	sv_grid_text(r->g, 2, g->details_y, w - 4, " Selected call ",
		SV_STYLE_PANEL_HEAD, 0, 0);
	if (c == SV_NO_CALL) {
		details_line(&d, SV_STYLE_DIM, "No call selected.");
		details_line(&d, SV_STYLE_DIM,
			"Tab or a click selects one; h j k l move the cursor.");
		if (g->panel_w)
			details_line(&d, SV_STYLE_DIM,
				"In the panel (p), Enter goes to a region's "
				"longest call.");
		return;
	}
	row = &p->rows[p->row_of[c]];
	region = row->region;
	lane = &p->lanes[p->lane_of[c]];
	dur = sv_call_duration(p, c);
	{
		/* Region name, then where the call ran. */
		int x = 1, color = sv_grid_region_color(p->regions[region]);
		sv_grid_put(r->g, x, d.y, r->gl->bar, SV_STYLE_SPAN, color);
		x += 2;
		x += sv_grid_text(r->g, x, d.y, d.w - 2, p->regions[region],
			SV_STYLE_PANEL_HEAD, 0, r->gl->ellipsis);
		x += sv_grid_text(r->g, x, d.y, w - x - 1, "  on ",
			SV_STYLE_DETAILS, 0, 0);
		x += sv_grid_text(r->g, x, d.y, w - x - 1,
			lane->label ? lane->label : "?", SV_STYLE_DETAILS, 0,
			r->gl->ellipsis);
		sv_grid_textf(r->g, x, d.y, w - x - 1, SV_STYLE_DETAILS, 0,
			", depth %u", (unsigned)p->depth[c]);
		d.y++;
	}
	{
		char x[128], y[128];
		details_line(&d, SV_STYLE_DETAILS, "duration %s   exclusive %s",
			render_exact(dur, false, x, sizeof x),
			render_exact(p->exclusive[c], false, y, sizeof y));
		details_line(&d, SV_STYLE_DETAILS, "start %s   end %s",
			render_exact(
				p->start_ns[c] - v->origin, true, x, sizeof x),
			render_exact(
				p->end_ns[c] - v->origin, true, y, sizeof y));
	}
	{
		/* Parent chain, outermost first: "in main > solve > step". */
		char chain[512];
		size_t used = 0;
		uint32_t stack[64];
		int n = 0, i;
		for (par = p->parent[c]; par != SV_NO_CALL && n < 64;
			par = p->parent[par])
			stack[n++] = par;
		chain[0] = '\0';
		for (i = n - 1; i >= 0 && used < sizeof chain; i--)
			used += (size_t)snprintf(chain + used,
				sizeof chain - used, "%s%s",
				i == n - 1 ? "" : " > ",
				p->regions[sv_call_region(p, stack[i])]);
		details_line(&d, SV_STYLE_DETAILS, "in %s",
			n ? chain : "(top level)");
	}
	{
		char line[256] = "";
		size_t used = 0;
		char x[128];
		if (p->gpu_ns && p->gpu_ns[c] >= 0)
			used += (size_t)snprintf(line + used,
				sizeof line - used, "GPU %s   ",
				render_exact(p->gpu_ns[c], false, x, sizeof x));
		if (p->await_ns && (lane->task >= 0 || p->await_ns[c] > 0) &&
			used < sizeof line)
			used += (size_t)snprintf(line + used,
				sizeof line - used,
				"await %s, %.1f%% of the call",
				render_exact(
					p->await_ns[c], false, x, sizeof x),
				dur > 0 ? 100.0 * (double)p->await_ns[c] /
						  (double)dur
					: 0.0);
		if (used)
			details_line(&d, SV_STYLE_DETAILS, "%s", line);
	}
	{
		const struct sv_thread *th =
			lane->thread >= 0
				? sv_profile_thread(p, lane->rank, lane->thread)
				: NULL;
		const struct sv_task *tk =
			lane->task >= 0
				? sv_profile_task(p, lane->rank, lane->task)
				: NULL;
		details_line(&d, SV_STYLE_DETAILS,
			"rank %" PRIu32 "   thread %s   task %s%s%s",
			lane->rank, th && th->name ? th->name : "-",
			tk && tk->name ? tk->name : "-",
			tk && tk->coro_name ? " " : "",
			tk && tk->coro_name ? tk->coro_name : "");
	}
	{
		char ids[256];
		size_t used = 0;
		ids[0] = '\0';
		if (p->call_id)
			used += (size_t)snprintf(ids + used, sizeof ids - used,
				"call id %" PRId64 "   ", p->call_id[c]);
		if (p->parent_id && used < sizeof ids)
			used += (size_t)snprintf(ids + used, sizeof ids - used,
				"parent id %" PRId64 "   ", p->parent_id[c]);
		if (used < sizeof ids)
			snprintf(ids + used, sizeof ids - used,
				"the region's call %" PRIu64 " on rank %" PRIu32
				"   absolute start %" PRId64 " ns",
				(uint64_t)(c - row->first), row->rank,
				p->start_ns[c]);
		details_line(&d, SV_STYLE_DETAILS, "%s", ids);
	}
	if (v->stats_valid || v->stats_all_valid) {
		/* The region over the whole run when that table is at hand
		 * (a solo lane's own table would always name its own rank
		 * the slowest), else over the lanes on display. */
		const struct sv_stats_region *sr = sv_stats_table_find(
			v->stats_all_valid ? &v->stats_all : &v->stats, region);
		if (sr && sr->has_slowest_rank)
			details_line(&d, SV_STYLE_DETAILS,
				"%s: %" PRIu64 " call%s, %s; slowest rank "
				"%" PRIu32 ", imbalance %.1f%%",
				v->stats_is_all || v->stats_all_valid
					? "whole run"
					: "these lanes",
				sr->s.num_calls,
				sr->s.num_calls == 1 ? "" : "s",
				sv_view_fmt_dur(sr->s.total_ns, a, sizeof a),
				sr->slowest_rank, sr->rank_imbalance_pct);
	}
	if (row->source_file)
		details_line(&d, SV_STYLE_DETAILS, "source %s:%" PRId64,
			row->source_file, row->source_line);
	{
		size_t i;
		for (i = 0; i < p->ncolumns; i++) {
			const struct sv_column *col = &p->columns[i];
			if (col->is_float && col->f)
				details_line(&d, SV_STYLE_DETAILS, "%s = %g",
					col->name, col->f[c]);
			else if (col->i)
				details_line(&d, SV_STYLE_DETAILS,
					"%s = %" PRId64, col->name, col->i[c]);
		}
	}
}

/* ---- summary panel --------------------------------------------------------- */

static const char *const panel_titles[SV_VIEW_COL_COUNT] = {
#define PANEL_TITLE(id, title, key) [SV_VIEW_COL_##id] = title,
	SV_VIEW_PANEL_COLS(PANEL_TITLE)
#undef PANEL_TITLE
};

#define PANEL_NUM_W    7
#define PANEL_NAME_MIN 17

static void panel_value(
	const struct sv_stats_region *sr, int col, char *buf, size_t n)
{
	const struct sv_stats *s = &sr->s;
	switch (col) {
	case SV_VIEW_COL_CALLS:
		/* Exact up to six digits, then millions with three
		 * significant digits ("1.33M", not "1333k"). */
		if (s->num_calls >= 1000000) {
			double m = (double)s->num_calls / 1e6;
			snprintf(buf, n, "%.*fM",
				m >= 99.95   ? 0
				: m >= 9.995 ? 1
					     : 2,
				m);
		} else
			snprintf(buf, n, "%" PRIu64, s->num_calls);
		return;
	case SV_VIEW_COL_TOTAL:
		render_short(s->total_ns, buf, n);
		return;
	case SV_VIEW_COL_EXCL:
		if (s->has_exclusive)
			render_short(s->exclusive_ns, buf, n);
		else
			snprintf(buf, n, "-");
		return;
	case SV_VIEW_COL_AVG:
		if (s->has_dist)
			render_short((int64_t)(s->mean_ns + 0.5), buf, n);
		else
			snprintf(buf, n, "-");
		return;
	case SV_VIEW_COL_P95:
		if (s->has_percentiles)
			render_short((int64_t)(s->p95_ns + 0.5), buf, n);
		else
			snprintf(buf, n, "-");
		return;
	case SV_VIEW_COL_IMB:
		snprintf(buf, n, "%.0f%%", sr->rank_imbalance_pct);
		return;
	default:
		buf[0] = '\0';
	}
}

static void render_panel(struct render_ctx *r)
{
	const struct sv_view *v = r->v;
	const struct sv_profile *p = r->p;
	const struct sv_layout_geom *g = r->geom;
	int x0 = g->panel_x + 1, w = g->panel_w - 1, name_w, name_min, ncols, i,
	    y, cols[SV_VIEW_COL_COUNT], nshown = 0;
	/* Numeric columns in the order they are dropped last to first. */
	static const int priority[] = {SV_VIEW_COL_TOTAL, SV_VIEW_COL_EXCL,
		SV_VIEW_COL_CALLS, SV_VIEW_COL_AVG, SV_VIEW_COL_P95,
		SV_VIEW_COL_IMB};
	long sel_region =
		v->sel != SV_NO_CALL ? (long)sv_call_region(p, v->sel) : -1;
	long top, row, visible;
	char buf[64];
	const char *scope;
	/* The sort column's mark: a down arrow ("total▼"), "*" in ASCII. */
	const char *sortmark = r->gl == &render_ascii ? "*" : "\xe2\x96\xbc";

	if (!g->panel_w)
		return;
	sv_grid_fill(r->g, g->panel_x, g->panel_y, g->panel_x + g->panel_w,
		g->panel_y + g->panel_h, ' ', SV_STYLE_PANEL, 0);
	for (y = g->panel_y; y < g->panel_y + g->panel_h; y++)
		sv_grid_put(
			r->g, g->panel_x, y, r->gl->vline, SV_STYLE_BORDER, 0);
	/* Numbers never squeeze a region's name below PANEL_NAME_MIN cells:
	 * names are what the panel is read by ("mpi:wait kind=w…" four times
	 * over tells nothing). */
	name_min = PANEL_NAME_MIN;
	if (v->stats_valid) {
		size_t longest = 0, k;
		for (k = 0; k < v->stats.nregions && longest < PANEL_NAME_MIN;
			k++) {
			size_t len = strlen(v->stats.regions[k].name);
			if (len > longest)
				longest = len;
		}
		if ((int)longest + 3 < name_min)
			name_min = (int)longest + 3;
	}
	ncols = (w - 1 - name_min) / PANEL_NUM_W;
	if (ncols > 6)
		ncols = 6;
	if (ncols < 0)
		ncols = 0;
	for (i = 0; i < ncols; i++)
		cols[nshown++] = priority[i];
	/* Show the sort column even when it would be dropped. */
	if (v->sort_col != SV_VIEW_COL_NAME && nshown) {
		bool in = false;
		for (i = 0; i < nshown; i++)
			in = in || cols[i] == v->sort_col;
		if (!in)
			cols[nshown - 1] = v->sort_col;
	}
	/* Display in table order. */
	for (i = 1; i < nshown; i++) {
		int k = cols[i], j = i;
		while (j > 0 && cols[j - 1] > k) {
			cols[j] = cols[j - 1];
			j--;
		}
		cols[j] = k;
	}
	name_w = w - nshown * PANEL_NUM_W - 1;
	{
		char title[320];
		scope = v->solo_lane >= 0 && p->lanes[v->solo_lane].label
				? p->lanes[v->solo_lane].label
			: v->rank_spec[0] ? v->rank_spec
					  : "all lanes";
		snprintf(title, sizeof title, "Regions (%zu) %s%s%s",
			v->stats_valid ? v->stats.nregions : 0,
			v->solo_lane < 0 && v->rank_spec[0] ? "ranks " : "",
			scope, v->filter_spec[0] ? ", filtered" : "");
		sv_grid_text(r->g, x0, g->panel_y, v->panel_focus ? w - 8 : w,
			title, SV_STYLE_PANEL_HEAD, 0, r->gl->ellipsis);
	}
	if (v->panel_focus)
		sv_grid_text(r->g, x0 + w - 7, g->panel_y, 7, "[focus]",
			SV_STYLE_PROMPT, 0, 0);
	y = g->panel_y + 1;
	sv_grid_fill(r->g, x0, y, x0 + w, y + 1, ' ', SV_STYLE_PANEL_HEAD, 0);
	sv_grid_textf(r->g, x0 + 1, y, name_w - 1, SV_STYLE_PANEL_HEAD, 0,
		"%s%s", panel_titles[SV_VIEW_COL_NAME],
		v->sort_col == SV_VIEW_COL_NAME ? sortmark : "");
	for (i = 0; i < nshown; i++) {
		int cx = x0 + name_w + i * PANEL_NUM_W, tw;
		snprintf(buf, sizeof buf, "%s%s", panel_titles[cols[i]],
			cols[i] == v->sort_col ? sortmark : "");
		tw = sv_grid_text_width(buf, PANEL_NUM_W);
		sv_grid_text(r->g, cx + PANEL_NUM_W - tw, y, tw, buf,
			SV_STYLE_PANEL_HEAD, 0, 0);
	}
	if (!v->stats_valid)
		return;
	visible = g->panel_h - 2;
	if (visible < 1)
		return;
	top = v->panel_top;
	if (v->panel_focus || v->panel_cur < top ||
		v->panel_cur >= top + visible) {
		if (v->panel_cur < top)
			top = v->panel_cur;
		if (v->panel_cur >= top + visible)
			top = v->panel_cur - visible + 1;
	}
	if (top > (long)v->stats.nregions - visible)
		top = (long)v->stats.nregions - visible;
	if (top < 0)
		top = 0;
	for (row = top; row < (long)v->stats.nregions && row < top + visible;
		row++) {
		const struct sv_stats_region *sr = &v->stats.regions[row];
		int style = SV_STYLE_PANEL, j;
		y = g->panel_y + 2 + (int)(row - top);
		if (v->panel_focus && row == v->panel_cur)
			style = SV_STYLE_PANEL_CURSOR;
		else if ((long)sr->region == sel_region ||
			 (long)sr->region == v->mark_region)
			style = SV_STYLE_PANEL_MARK;
		sv_grid_fill(r->g, x0, y, x0 + w, y + 1, ' ', style, 0);
		sv_grid_put(r->g, x0, y, r->gl->bar, SV_STYLE_SPAN,
			sv_grid_region_color(sr->name));
		sv_grid_text(r->g, x0 + 1, y, name_w - 2, sr->name, style, 0,
			r->gl->ellipsis);
		for (j = 0; j < nshown; j++) {
			int cx = x0 + name_w + j * PANEL_NUM_W, tw;
			panel_value(sr, cols[j], buf, sizeof buf);
			tw = (int)strlen(buf);
			if (tw > PANEL_NUM_W - 1)
				tw = PANEL_NUM_W - 1;
			sv_grid_text(r->g, cx + PANEL_NUM_W - tw, y, tw, buf,
				style, 0, 0);
		}
	}
	if (!v->stats.nregions)
		sv_grid_text(r->g, x0 + 1, g->panel_y + 2, w - 2,
			"no region on the lanes shown", SV_STYLE_DIM, 0, 0);
}

/* ---- status line ----------------------------------------------------------- */

static void render_status(struct render_ctx *r)
{
	const struct sv_view *v = r->v;
	int y = r->geom->status_y, w = r->geom->w, x;
	char span[48], cur[64], from[64], line[512];
	static const char *const prompts[] = {
		[SV_PROMPT_SEARCH] = "search /",
		[SV_PROMPT_FILTER] = "filter (regex, !regex excludes): ",
		[SV_PROMPT_RANKS] = "ranks (e.g. 0,2-5; empty = all): ",
		[SV_PROMPT_COMMAND] = ":",
	};

	sv_grid_fill(r->g, 0, y, w, y + 1, ' ', SV_STYLE_STATUS, 0);
	if (v->prompt != SV_PROMPT_NONE) {
		char text[SV_VIEW_PROMPT_MAX];
		sv_grid_fill(r->g, 0, y, w, y + 1, ' ', SV_STYLE_PROMPT, 0);
		memcpy(text, v->prompt_buf, v->prompt_len);
		text[v->prompt_len] = '\0';
		x = sv_grid_text(r->g, 0, y, w, prompts[v->prompt],
			SV_STYLE_PROMPT, 0, 0);
		x += sv_grid_text(
			r->g, x, y, w - x - 1, text, SV_STYLE_PROMPT, 0, 0);
		sv_grid_put(r->g, x, y, r->gl->bar, SV_STYLE_CURSOR, 0);
		{
			/* What the prompt takes, right-aligned while there
			 * is room: the longest hint that fits. */
			static const char *const hints[][2] = {
				[SV_PROMPT_SEARCH] = {"regex over region names"
						      "  Enter search  Esc "
						      "cancel",
					"Enter  Esc"},
				[SV_PROMPT_FILTER] = {"Enter apply  empty "
						      "clears  Esc cancel",
					"Enter  Esc"},
				[SV_PROMPT_RANKS] = {"Enter apply  Esc cancel",
					"Enter  Esc"},
				[SV_PROMPT_COMMAND] = {"goto 12.5ms  zoom 1ms  "
						       "rank 0,2-5  region "
						       "NAME  sort KEY  "
						       "search RE  Esc cancel",
					"goto T  rank N  region NAME  Esc"},
			};
			int i;
			for (i = 0; i < 2; i++) {
				const char *h = hints[v->prompt][i];
				int hw = h ? (int)strlen(h) : 0;
				if (hw && w - hw - 1 > x + 3) {
					sv_grid_text(r->g, w - hw - 1, y, hw, h,
						SV_STYLE_DIM, 0, 0);
					break;
				}
			}
		}
		return;
	}
	sv_view_fmt_dur(v->t1 - v->t0, span, sizeof span);
	render_rel(v->cur_t - v->origin, cur, sizeof cur);
	render_rel(v->t0 - v->origin, from, sizeof from);
	if (v->p->layout != SV_LAYOUT_AGGREGATE)
		snprintf(line, sizeof line, " span %s from %s  cursor %s%s%s",
			span, from, cur, v->search_spec[0] ? "  /" : "",
			v->search_spec);
	else
		snprintf(line, sizeof line, "  aggregate: %zu regions",
			v->stats_valid ? v->stats.nregions : 0);
	{
		/* A path too long for its third of the line keeps its file
		 * name, the part that tells runs apart. */
		const char *title = v->title, *slash = strrchr(title, '/');
		if (slash && slash[1] && sv_grid_text_width(title, w) > w / 3)
			title = slash + 1;
		x = sv_grid_text(r->g, 0, y, w / 3, title, SV_STYLE_STATUS, 0,
			r->gl->ellipsis);
	}
	x += sv_grid_text(
		r->g, x, y, w - x, line, SV_STYLE_STATUS, 0, r->gl->ellipsis);
	if (v->message[0]) {
		int mw = sv_grid_text_width(v->message, w);
		int mx = w - mw - 1 > x + 2 ? w - mw - 1 : x + 2;
		sv_grid_text(r->g, mx, y, w - mx, v->message,
			v->message_is_error ? SV_STYLE_WARNING
					    : SV_STYLE_STATUS,
			0, r->gl->ellipsis);
	} else {
		/* The longest hint that fits. */
		static const char *const timeline[] = {
			"Tab next call  f zoom to it  t solo  / search  "
			"p panel  ? help  q quit",
			"Tab call  f zoom  t solo  p panel  ? help  q quit",
			"? help  q quit",
		};
		static const char *const panel[] = {
			"j/k region  Enter its calls  < > sort  p back  ? help",
			"Enter calls  < > sort  p back",
		};
		static const char *const aggregate[] = {
			"p panel  < > sort  i metadata  ? help  q quit",
			"? help  q quit",
		};
		const char *const *hints = v->panel_focus ? panel
					   : v->p->layout != SV_LAYOUT_AGGREGATE
						   ? timeline
						   : aggregate;
		size_t n = v->panel_focus || v->p->layout == SV_LAYOUT_AGGREGATE
				   ? 2
				   : 3,
		       i;
		for (i = 0; i < n; i++) {
			int hw = (int)strlen(hints[i]);
			if (w - hw - 1 > x + 2) {
				sv_grid_text(r->g, w - hw - 1, y, hw, hints[i],
					SV_STYLE_STATUS, 0, 0);
				break;
			}
		}
	}
}

/* ---- popups ---------------------------------------------------------------- */

/* Metadata groups, like scope-profiler's inspect. */
static const char *popup_meta_group(const char *key)
{
	static const struct {
		const char *group;
		const char *keys[16];
	} groups[] = {
		{"Run", {"label", "timestamp", "start_time_ns",
				"finalize_time_ns", "scope_profiler_version",
				"python_version", "working_directory", "source",
				"source_language", "trace_format_version",
				NULL}},
		{"System", {"user", "hostname", "platform", "uname",
				   "chip_information", "total_cores", NULL}},
		{"Parallelism",
			{"mpi_size", "mpi_rank", "omp_num_threads", NULL}},
		{"Modules", {"modules", "LOADEDMODULES", "MODULEPATH", NULL}},
	};
	size_t i, j;

	for (i = 0; i < sizeof groups / sizeof groups[0]; i++)
		for (j = 0; groups[i].keys[j]; j++)
			if (!strcmp(groups[i].keys[j], key))
				return groups[i].group;
	if (!strncmp(key, "SLURM", 5))
		return "Slurm";
	return "Environment and other";
}

/* Emits popup lines one at a time; counts them and draws those in view. */
struct popup_out {
	struct render_ctx *r;
	int x, y0, w, h; /* text area */
	long top, n;
	int widest; /* bytes of the longest line, >= its cells */
};

static void popup_line(struct popup_out *o, int style, const char *text)
{
	long i = o->n++ - o->top;
	int len = (int)strlen(text);
	if (len > o->widest)
		o->widest = len;
	if (i >= 0 && i < o->h)
		sv_grid_text(o->r->g, o->x, o->y0 + (int)i, o->w, text, style,
			0, o->r->gl->ellipsis);
}

static void popup_linef(struct popup_out *o, int style, const char *fmt, ...)
	SV_PRINTF(3, 4);

static void popup_linef(struct popup_out *o, int style, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	popup_line(o, style, buf);
}

/* A long line folded at spaces to the popup's width, the continuation
 * lines indented, so that a warning is read whole, not cut. */
static void popup_wrapped(struct popup_out *o, int style, const char *text)
{
	char line[512];
	int indent = 0;

	while (*text) {
		int room = o->w - indent;
		size_t len = strlen(text), cut = len;
		if (room < 20)
			room = 20;
		if ((int)len > room) {
			cut = (size_t)room;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = (size_t)room;
		}
		if (cut + (size_t)indent >= sizeof line)
			cut = sizeof line - 1 - (size_t)indent;
		memset(line, ' ', (size_t)indent);
		memcpy(line + indent, text, cut);
		line[indent + (int)cut] = '\0';
		popup_line(o, style, line);
		text += cut;
		while (*text == ' ')
			text++;
		indent = 4;
	}
}

static void popup_help(struct popup_out *o)
{
	int a;
	/* The table's rows in groups, each under a heading. */
	static const struct {
		int first;
		const char *title;
	} groups[] = {
		{SV_ACTION_MOVE_LEFT, "Move"},
		{SV_ACTION_ZOOM_IN, "Zoom and pan"},
		{SV_ACTION_NEXT_CALL, "Select calls"},
		{SV_ACTION_SOLO_LANE, "Lanes"},
		{SV_ACTION_SEARCH, "Search, filter, commands"},
		{SV_ACTION_PANEL_FOCUS, "Panels and popups"},
		{SV_ACTION_RELOAD, "File"},
	};
	size_t gi = 0;
	for (a = 1; a < SV_ACTION_COUNT; a++) {
		const struct sv_action_info *ai = sv_action_info(a);
		if (gi < sizeof groups / sizeof groups[0] &&
			groups[gi].first == a) {
			if (gi)
				popup_line(o, SV_STYLE_POPUP, "");
			popup_line(o, SV_STYLE_PANEL_HEAD, groups[gi++].title);
		}
		char keys[64], label[24], word[24];
		const char *s = ai->keys;
		size_t used = 0;
		keys[0] = '\0';
		while (*s) {
			size_t len = strcspn(s, " ");
			snprintf(word, sizeof word, "%.*s", (int)len, s);
			sv_action_key_label(word, label, sizeof label);
			used += (size_t)snprintf(keys + used,
				used < sizeof keys ? sizeof keys - used : 0,
				"%s%s", used ? " " : "", label);
			s += len;
			while (*s == ' ')
				s++;
		}
		popup_linef(o, SV_STYLE_POPUP, "  %-15s %s", keys, ai->help);
	}
	popup_line(o, SV_STYLE_POPUP, "");
	popup_wrapped(o, SV_STYLE_POPUP,
		"Mouse: click selects, wheel zooms at the pointer, drag pans.");
	popup_wrapped(o, SV_STYLE_POPUP,
		"Summary panel (p): j/k move, <> sort, Enter marks a region "
		"and cycles its calls longest first.");
}

static void popup_source(struct popup_out *o)
{
	const struct sv_view *v = o->r->v;
	const struct sv_profile *p = o->r->p;
	long region = v->sel != SV_NO_CALL ? (long)sv_call_region(p, v->sel)
		      : v->panel_focus && v->stats_valid && v->stats.nregions
			      ? (long)v->stats.regions[v->panel_cur].region
			      : v->mark_region;
	const struct sv_row *row = NULL;
	size_t i;

	if (region < 0) {
		popup_line(o, SV_STYLE_POPUP, "No region selected.");
		return;
	}
	if (v->sel != SV_NO_CALL)
		row = &p->rows[p->row_of[v->sel]];
	for (i = 0; !row && i < p->nrows; i++)
		if ((long)p->rows[i].region == region)
			row = &p->rows[i];
	popup_line(o, SV_STYLE_PANEL_HEAD, p->regions[region]);
	if (!row || !row->source_file)
		popup_line(o, SV_STYLE_DIM, "source file: unknown");
	else
		popup_linef(o, SV_STYLE_POPUP, "%s:%" PRId64, row->source_file,
			row->source_line);
	if (row && row->ntags) {
		char tags[512];
		size_t used = 0, i2;
		tags[0] = '\0';
		for (i2 = 0; i2 < row->ntags && used < sizeof tags; i2++)
			used += (size_t)snprintf(tags + used,
				sizeof tags - used, "%s%s", i2 ? ", " : "",
				row->tags[i2]);
		popup_linef(o, SV_STYLE_POPUP, "tags: %s%s", tags,
			row->tags_raw ? " (not a JSON list)" : "");
	}
	popup_line(o, SV_STYLE_POPUP, "");
	if (!row || !row->source_text) {
		popup_line(o, SV_STYLE_DIM,
			"The profile holds no source text for this region.");
		return;
	}
	{
		/* One popup line per source line, numbered from the call site. */
		const char *s = row->source_text;
		int64_t ln = row->source_line;
		while (*s) {
			size_t len = strcspn(s, "\n");
			char text[512];
			size_t k, o2 = 0;
			/* Tabs become spaces (to the next multiple of 4);
			 * other control characters are escaped later. */
			for (k = 0; k < len && o2 < 400; k++) {
				if (s[k] == '\t') {
					do
						text[o2++] = ' ';
					while (o2 % 4 && o2 < 400);
				} else if (s[k] != '\r' || k + 1 < len) {
					text[o2++] = s[k];
				}
			}
			text[o2] = '\0';
			if (ln >= 0)
				popup_linef(o, SV_STYLE_POPUP,
					"%5" PRId64 "  %s", ln++, text);
			else
				popup_line(o, SV_STYLE_POPUP, text);
			s += len;
			if (*s == '\n')
				s++;
		}
	}
}

static void popup_metadata(struct popup_out *o)
{
	const struct sv_profile *p = o->r->p;
	static const char *const order[] = {"Run", "System", "Parallelism",
		"Slurm", "Modules", "Environment and other"};
	size_t gi, i;

	popup_linef(
		o, SV_STYLE_POPUP, "file       %s", p->path ? p->path : "-");
	popup_linef(o, SV_STYLE_POPUP,
		"schema     %d (%s)   ranks %" PRIu32 "   regions %" PRIu32
		"   calls %" PRIu32,
		p->schema,
		p->layout == SV_LAYOUT_AGGREGATE ? "aggregate"
		: p->layout == SV_LAYOUT_GROUPS  ? "rank groups"
						 : "columnar",
		p->num_ranks, p->nregions, p->ncalls);
	for (gi = 0; gi < sizeof order / sizeof order[0]; gi++) {
		bool any = false;
		for (i = 0; i < p->nmeta; i++) {
			if (strcmp(popup_meta_group(p->meta[i].key), order[gi]))
				continue;
			if (!any) {
				popup_line(o, SV_STYLE_POPUP, "");
				popup_line(o, SV_STYLE_PANEL_HEAD, order[gi]);
				any = true;
			}
			popup_linef(o, SV_STYLE_POPUP, "  %-22s %s",
				p->meta[i].key,
				p->meta[i].text ? p->meta[i].text : "");
		}
	}
	if (!p->nmeta)
		popup_line(o, SV_STYLE_DIM, "The profile has no metadata.");
}

static void popup_warnings(struct popup_out *o)
{
	const struct sv_profile *p = o->r->p;
	size_t i;

	if (!p->nwarnings)
		popup_line(o, SV_STYLE_POPUP,
			"No warnings: the file read "
			"cleanly.");
	for (i = 0; i < p->nwarnings; i++)
		popup_wrapped(o, SV_STYLE_WARNING, p->warnings[i]);
}

static void popup_body(int popup, struct popup_out *o)
{
	switch (popup) {
	case SV_POPUP_HELP:
		popup_help(o);
		break;
	case SV_POPUP_SOURCE:
		popup_source(o);
		break;
	case SV_POPUP_METADATA:
		popup_metadata(o);
		break;
	case SV_POPUP_WARNINGS:
		popup_warnings(o);
		break;
	default:
		break;
	}
}

static void render_popup(struct render_ctx *r)
{
	const struct sv_view *v = r->v;
	int w = r->geom->w, h = r->geom->h, pw = w - 8, ph = h - 2, px, py, y;
	struct popup_out o;
	static const char *const titles[] = {
		[SV_POPUP_HELP] = " Help ",
		[SV_POPUP_SOURCE] = " Source ",
		[SV_POPUP_METADATA] = " Metadata ",
		[SV_POPUP_WARNINGS] = " Warnings ",
	};
	char foot[128];

	if (v->popup == SV_POPUP_NONE)
		return;
	if (pw > 110)
		pw = 110;
	/* Count and measure first (nothing is drawn with top this far), then
	 * fit the box to its text: a one-line message gets a small box. */
	o.r = r;
	o.x = 0;
	o.y0 = 0;
	o.w = pw - 4;
	o.h = 0;
	o.n = 0;
	o.widest = 0;
	o.top = 1L << 30;
	popup_body(v->popup, &o);
	if (o.n + 2 < ph)
		ph = (int)o.n + 2;
	if (ph < 3)
		ph = 3;
	if (o.widest + 4 < pw)
		pw = o.widest + 4 > 40 ? o.widest + 4 : 40;
	if (pw > w)
		pw = w;
	px = (w - pw) / 2;
	py = o.n + 2 < h - 2 ? (h - ph) / 3 : 1;
	sv_grid_fill(r->g, px, py, px + pw, py + ph, ' ', SV_STYLE_POPUP, 0);
	sv_grid_fill(
		r->g, px, py, px + pw, py + 1, r->gl->hline, SV_STYLE_POPUP, 0);
	sv_grid_fill(r->g, px, py + ph - 1, px + pw, py + ph, r->gl->hline,
		SV_STYLE_POPUP, 0);
	for (y = py; y < py + ph; y++) {
		sv_grid_put(r->g, px, y, r->gl->vline, SV_STYLE_POPUP, 0);
		sv_grid_put(
			r->g, px + pw - 1, y, r->gl->vline, SV_STYLE_POPUP, 0);
	}
	sv_grid_put(r->g, px, py, r->gl->tl, SV_STYLE_POPUP, 0);
	sv_grid_put(r->g, px + pw - 1, py, r->gl->tr, SV_STYLE_POPUP, 0);
	sv_grid_put(r->g, px, py + ph - 1, r->gl->bl, SV_STYLE_POPUP, 0);
	sv_grid_put(
		r->g, px + pw - 1, py + ph - 1, r->gl->br, SV_STYLE_POPUP, 0);
	sv_grid_text(r->g, px + 2, py, pw - 4, titles[v->popup],
		SV_STYLE_PANEL_HEAD, 0, 0);
	o.x = px + 2;
	o.y0 = py + 1;
	o.w = pw - 4;
	o.h = ph - 2;
	o.top = v->popup_top;
	if (o.top > o.n - o.h)
		o.top = o.n - o.h;
	if (o.top < 0)
		o.top = 0;
	o.n = 0;
	popup_body(v->popup, &o);
	if (o.n > o.h)
		snprintf(foot, sizeof foot,
			" %ld-%ld of %ld  j/k scroll  q close ", o.top + 1,
			o.top + o.h < o.n ? o.top + o.h : o.n, o.n);
	else
		snprintf(foot, sizeof foot, " q close ");
	if ((int)strlen(foot) <= pw - 4)
		sv_grid_text(r->g, px + pw - 2 - (int)strlen(foot), py + ph - 1,
			(int)strlen(foot), foot, SV_STYLE_POPUP, 0, 0);
}

/* ---- entry points ---------------------------------------------------------- */

void sv_render_too_small(struct sv_grid *g, int w, int h)
{
	char lines[3][64];
	int i, y0;

	sv_grid_resize(g, w, h);
	snprintf(lines[0], sizeof lines[0], "terminal too small");
	snprintf(lines[1], sizeof lines[1], "%dx%d, need %dx%d", w, h,
		SV_LAYOUT_MIN_W, SV_LAYOUT_MIN_H);
	snprintf(lines[2], sizeof lines[2], "q quits");
	y0 = h > 3 ? (h - 3) / 2 : 0;
	for (i = 0; i < 3; i++) {
		int len = (int)strlen(lines[i]);
		sv_grid_text(g, w > len ? (w - len) / 2 : 0, y0 + i, w,
			lines[i], i == 2 ? SV_STYLE_DIM : SV_STYLE_WARNING, 0,
			'~');
	}
}

/* A profile without calls (the aggregate layout): a note on top, and the
 * summary panel (full width, from the view's geometry) below it. */
static void render_no_calls(struct render_ctx *r)
{
	const struct sv_layout_geom *g = r->geom;
	int w = g->w;

	sv_grid_fill(r->g, 0, 0, w, 3, ' ', SV_STYLE_DEFAULT, 0);
	render_wrapped(r, 1, 0, w - 2, 2,
		"This profile holds summary statistics only (aggregate "
		"layout): no per-call data, so no timeline. Below are the "
		"figures the file stores.",
		SV_STYLE_WARNING);
	sv_grid_fill(r->g, 0, 2, w, 3, r->gl->hline, SV_STYLE_BORDER, 0);
}

void sv_render(struct sv_grid *g, const struct sv_view *v)
{
	struct render_ctx r;

	if (v->geom.too_small || v->geom.w != v->w || v->geom.h != v->h) {
		sv_render_too_small(g, v->w, v->h);
		return;
	}
	sv_grid_resize(g, v->w, v->h);
	r.g = g;
	r.v = v;
	r.p = v->p;
	r.geom = &v->geom;
	r.gl = v->opts.ascii ? &render_ascii : &render_unicode;
	if (v->p->layout == SV_LAYOUT_AGGREGATE) {
		render_no_calls(&r);
	} else {
		render_ruler(&r);
		render_lanes(&r);
		render_details(&r);
	}
	render_panel(&r);
	render_status(&r);
	render_popup(&r);
}
