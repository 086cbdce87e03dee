/*
 * chart.c: a line chart in the grid (chart.h): axes with round tick
 * labels, x by value or by log2, series as braille dots (ASCII: one mark
 * a cell by the third it passes through), points and marks on top.
 * Lines are walked dot by dot (Bresenham) straight into the grid: a
 * braille cell gains the dots of every line through it, so nothing is
 * allocated.  Nothing here knows about curses or HDF5.
 */
#include "scopeview/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHART_MIN_W    12
#define CHART_MIN_H    4
#define CHART_LABEL_W  12 /* a y label at most */
#define CHART_BRAILLE  0x2800u
#define CHART_POINT    0x25CFu /* BLACK CIRCLE */
#define CHART_POINT_AS 'o'

/* The geometry of one drawing: where the plot is and how many dots. */
struct chart_geom {
	int ax;      /* the y axis' column */
	int px, py;  /* the plot's first cell */
	int pw, ph;  /* its size in cells */
	int dx, dy;  /* its size in dots */
	double step; /* between two y ticks */
	int decimals;
	int label_w;
};

/* 1, 2 or 5 times a power of ten, at least v (v > 0). */
static double chart_nice(double v)
{
	double mag = pow(10, floor(log10(v))), f = v / mag;

	if (f <= 1.0 + 1e-9)
		return mag;
	if (f <= 2.0 + 1e-9)
		return 2 * mag;
	if (f <= 5.0 + 1e-9)
		return 5 * mag;
	return 10 * mag;
}

/* The tick step for values up to v over rows rows. */
static double chart_step(double v, int rows)
{
	int ticks = rows / 2 > 1 ? rows / 2 : 1;
	if (!(v > 0) || !isfinite(v))
		v = 1;
	return chart_nice(v / ticks);
}

double sv_chart_top(double v, int rows)
{
	double step;

	if (!(v > 0) || !isfinite(v))
		return 1;
	step = chart_step(v, rows);
	return ceil(v / step - 1e-9) * step;
}

static int chart_decimals(double step)
{
	int d = 0;
	while (d < 6 && fabs(step * pow(10, d) - round(step * pow(10, d))) >
				1e-6 * step * pow(10, d))
		d++;
	return d;
}

/* The geometry for c in (x, y, w, h); false when it does not fit. */
static bool chart_geom(const struct sv_chart *c, int x, int y, int w, int h,
	struct chart_geom *gm)
{
	char buf[32];
	double top = c->y_top > 0 && isfinite(c->y_top) ? c->y_top : 1, v;
	int lw = 1;

	if (w < CHART_MIN_W || h < CHART_MIN_H || !c->n)
		return false;
	memset(gm, 0, sizeof *gm);
	gm->ph = h - 2;
	gm->step = chart_step(top, gm->ph);
	gm->decimals = chart_decimals(gm->step);
	for (v = 0; v <= top * (1 + 1e-9); v += gm->step) {
		int n = snprintf(buf, sizeof buf, "%.*f", gm->decimals, v);
		if (n > lw)
			lw = n < CHART_LABEL_W ? n : CHART_LABEL_W;
	}
	gm->label_w = lw;
	gm->ax = x + lw;
	gm->px = gm->ax + 1;
	gm->py = y;
	gm->pw = x + w - gm->px;
	if (gm->pw < 4)
		return false;
	gm->dx = c->ascii ? gm->pw : 2 * gm->pw;
	gm->dy = c->ascii ? 3 * gm->ph : 4 * gm->ph;
	return true;
}

/* The position of x value i along the axis, in [0, 1]. */
static double chart_xfrac(const struct sv_chart *c, size_t i)
{
	double a, b, v;

	if (c->n < 2)
		return 0.5;
	a = c->xs[0];
	b = c->xs[c->n - 1];
	v = c->xs[i];
	if (c->log_x && a > 0 && b > 0 && v > 0) {
		a = log2(a);
		b = log2(b);
		v = log2(v);
	}
	if (!(b > a))
		return 0.5;
	return (v - a) / (b - a);
}

static int chart_xdot(
	const struct chart_geom *gm, const struct sv_chart *c, size_t i)
{
	return (int)lround(chart_xfrac(c, i) * (gm->dx - 1));
}

/* The dot row of value v (clamped into the plot). */
static int chart_ydot(
	const struct chart_geom *gm, const struct sv_chart *c, double v)
{
	double top = c->y_top > 0 && isfinite(c->y_top) ? c->y_top : 1;
	double f = v / top;
	long d;

	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	d = lround((1 - f) * (gm->dy - 1));
	return (int)d;
}

int sv_chart_column(const struct sv_chart *c, int x, int w, int h, size_t i)
{
	struct chart_geom gm;

	if (!c || i >= c->n || !chart_geom(c, x, 0, w, h, &gm))
		return -1;
	return gm.px + chart_xdot(&gm, c, i) / (c->ascii ? 1 : 2);
}

/* Braille's bit for the dot at (column, row) of its cell. */
static uint32_t chart_braille_bit(int col, int row)
{
	static const uint8_t bits[4][2] = {
		{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
	return bits[row][col];
}

static bool chart_is_ascii_line(uint32_t ch)
{
	return ch == '.' || ch == '-' || ch == '\'' || ch == '|';
}

/* Set dot (dx, dy) of the plot. */
static void chart_dot(struct sv_grid *g, const struct chart_geom *gm,
	bool ascii, int dx, int dy, int style, int color)
{
	int cx = ascii ? dx : dx / 2, cy = ascii ? dy / 3 : dy / 4;
	struct sv_cell *cell = sv_grid_at(g, gm->px + cx, gm->py + cy);
	uint32_t ch;

	if (!cell || cx >= gm->pw || cy >= gm->ph)
		return;
	if (ascii) {
		static const char marks[3] = {'\'', '-', '.'};
		ch = (uint32_t)marks[dy % 3];
		if (chart_is_ascii_line(cell->ch) && cell->ch != ch &&
			cell->style == style)
			ch = '|';
	} else {
		ch = CHART_BRAILLE | chart_braille_bit(dx % 2, dy % 4);
		if (cell->ch >= CHART_BRAILLE &&
			cell->ch <= CHART_BRAILLE + 0xff)
			ch |= cell->ch;
	}
	sv_grid_put(g, gm->px + cx, gm->py + cy, ch, style, color);
}

/* The line from dot (x0, y0) to (x1, y1), every other dot when dotted. */
static void chart_line(struct sv_grid *g, const struct chart_geom *gm,
	bool ascii, int x0, int y0, int x1, int y1,
	const struct sv_chart_series *s)
{
	int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
	int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
	int e = dx + dy, e2, k = 0;

	for (;;) {
		if (!s->dotted || k % 2 == 0)
			chart_dot(g, gm, ascii, x0, y0, s->style, s->color);
		k++;
		if (x0 == x1 && y0 == y1)
			break;
		e2 = 2 * e; /* both steps judged by the error before either */
		if (e2 >= dy) {
			e += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			e += dx;
			y0 += sy;
		}
	}
}

static void chart_axes(struct sv_grid *g, const struct sv_chart *c,
	const struct chart_geom *gm, int x, int w)
{
	bool a = c->ascii;
	char buf[32];
	double v;
	int row, last_row = -1, end = -1;
	size_t i;

	for (row = 0; row < gm->ph; row++)
		sv_grid_put(g, gm->ax, gm->py + row, a ? '|' : 0x2502,
			SV_STYLE_RULER, 0);
	for (v = 0; v <= c->y_top * (1 + 1e-9); v += gm->step) {
		row = chart_ydot(gm, c, v) / (a ? 3 : 4);
		if (row == last_row)
			continue;
		last_row = row;
		snprintf(
			buf, sizeof buf, "%*.*f", gm->label_w, gm->decimals, v);
		sv_grid_text(g, x, gm->py + row, gm->label_w, buf,
			SV_STYLE_RULER, 0, 0);
		sv_grid_put(g, gm->ax, gm->py + row, a ? '+' : 0x2524,
			SV_STYLE_RULER, 0);
	}
	sv_grid_put(g, gm->ax, gm->py + gm->ph, a ? '+' : 0x2514,
		SV_STYLE_RULER, 0);
	sv_grid_fill(g, gm->px, gm->py + gm->ph, x + w, gm->py + gm->ph + 1,
		a ? '-' : 0x2500, SV_STYLE_RULER, 0);
	for (i = 0; i < c->n; i++) {
		int col = gm->px + chart_xdot(gm, c, i) / (a ? 1 : 2);
		const char *text = c->x_texts ? c->x_texts[i] : NULL;
		int tw, at;
		if (!text) {
			snprintf(buf, sizeof buf, "%g", c->xs[i]);
			text = buf;
		}
		sv_grid_put(g, col, gm->py + gm->ph, a ? '+' : 0x252C,
			SV_STYLE_RULER, 0);
		tw = sv_grid_text_width(text, 64);
		at = col - tw / 2;
		if (at + tw > x + w)
			at = x + w - tw;
		if (at < gm->ax)
			at = gm->ax;
		if (at <= end) /* would overlap the label before */
			continue;
		sv_grid_text(g, at, gm->py + gm->ph + 1, x + w - at, text,
			SV_STYLE_RULER, 0, 0);
		end = at + tw;
	}
	if (c->x_name) {
		int tw = sv_grid_text_width(c->x_name, 64);
		if (x + w - tw > end + 1)
			sv_grid_text(g, x + w - tw, gm->py + gm->ph + 1, tw,
				c->x_name, SV_STYLE_DIM, 0, 0);
	}
}

static bool chart_ok(double v)
{
	return isfinite(v);
}

void sv_chart_draw(struct sv_grid *g, int x, int y, int w, int h,
	const struct sv_chart *c, const struct sv_chart_series *s, size_t ns,
	const struct sv_chart_mark *marks, size_t nmarks)
{
	struct chart_geom gm;
	uint32_t point;
	size_t k, i;

	if (!g || !c || !chart_geom(c, x, y, w, h, &gm))
		return;
	point = c->ascii ? CHART_POINT_AS : CHART_POINT;
	chart_axes(g, c, &gm, x, w);
	for (k = 0; k < ns; k++) {
		int px = -1, py = -1;
		for (i = 0; i < c->n; i++) {
			int dx, dy;
			if (!chart_ok(s[k].y[i])) {
				px = -1;
				continue;
			}
			dx = chart_xdot(&gm, c, i);
			dy = chart_ydot(&gm, c, s[k].y[i]);
			if (px >= 0)
				chart_line(g, &gm, c->ascii, px, py, dx, dy,
					&s[k]);
			else if (c->n == 1 || i + 1 == c->n ||
				 !chart_ok(s[k].y[i + 1]))
				chart_dot(g, &gm, c->ascii, dx, dy, s[k].style,
					s[k].color);
			px = dx;
			py = dy;
		}
	}
	for (k = 0; k < ns; k++) {
		if (s[k].dotted)
			continue;
		for (i = 0; i < c->n; i++) {
			if (!chart_ok(s[k].y[i]))
				continue;
			sv_grid_put(g,
				gm.px + chart_xdot(&gm, c, i) /
						(c->ascii ? 1 : 2),
				gm.py + chart_ydot(&gm, c, s[k].y[i]) /
						(c->ascii ? 3 : 4),
				point, s[k].style, s[k].color);
		}
	}
	for (k = 0; k < nmarks; k++) {
		const struct sv_chart_mark *mk = &marks[k];
		if (mk->series >= ns || mk->point >= c->n ||
			!chart_ok(s[mk->series].y[mk->point]))
			continue;
		sv_grid_put(g,
			gm.px + chart_xdot(&gm, c, mk->point) /
					(c->ascii ? 1 : 2),
			gm.py + chart_ydot(&gm, c, s[mk->series].y[mk->point]) /
					(c->ascii ? 3 : 4),
			mk->glyph ? mk->glyph : point, mk->style,
			s[mk->series].color);
	}
}
