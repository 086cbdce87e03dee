/*
 * chart.h: a line chart in the grid, for figures over a few x values
 * (a scaling study's speedup against the rank count).
 *
 * The chart is drawn into a rectangle of the grid: the y axis on the
 * left with its tick labels (from 0 to a round top), the x axis at the
 * bottom with a tick and a label at each x value, and, in the plot area,
 * each series as a line through its points.  With Unicode the lines are
 * braille dots (2 x 4 dots a cell, so a line of a few rows still shows
 * its slope); with ASCII they are '.', '-' and '\'' by the third of the
 * cell they pass through.  A dotted series (an ideal line) sets every
 * other dot and no point marks.  x is placed linearly, or by log2 x
 * when log_x (x values that double from one to the next then lie evenly
 * apart).
 *
 * Drawing allocates nothing and reads nothing but its arguments.  Nothing
 * here knows about curses or HDF5.
 */
#ifndef SCOPEVIEW_CHART_H
#define SCOPEVIEW_CHART_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/chart.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/grid.h"

/* One line of the chart: a y value for each of the chart's x values. */
struct sv_chart_series {
	const double *y; /* n values (struct sv_chart); NaN or an infinity:
			    no point there (the line breaks) */
	int style;       /* enum sv_style of its dots and points */
	int color;       /* region colour (grid.h), 0 for none */
	bool dotted;     /* every other dot and no point marks (an ideal) */
};

/* A point drawn apart from its series (the cursor's, a marked one). */
struct sv_chart_mark {
	size_t series, point;
	int style;
	uint32_t glyph; /* 0: the chart's point glyph */
};

struct sv_chart {
	const double *xs;           /* n x values, ascending (> 0 for log_x) */
	const char *const *x_texts; /* their labels; NULL: the numbers */
	size_t n;
	bool log_x; /* place x by log2 x */
	bool ascii; /* ASCII glyphs, else braille and box drawing */
	/* The top of the y axis (its bottom is 0): sv_chart_top of the
	 * largest value shown, for a round top label. */
	double y_top;
	/* The name of the x axis, written at the right end of the label row
	 * when it fits beside the labels; NULL: none. */
	const char *x_name;
};

/*
 * The top of a y axis of rows plot rows for values up to v: v rounded up
 * to a whole number of the tick step (1, 2 or 5 times a power of ten)
 * that puts a tick about every other row.  At least the step itself; 1
 * for a v that is not a finite number above 0.
 */
double sv_chart_top(double v, int rows);

/*
 * Draw chart c with series s[0 .. ns) and marks[0 .. nmarks) into the
 * rectangle (x, y, w, h) of g, axes and labels included: the plot takes
 * the rows y .. y + h - 3, the x axis row y + h - 2 and its labels the
 * last row.  Series are drawn in order (a later one's dots take a shared
 * cell's colour), then each series' points, then the marks.  Nothing is
 * drawn when the rectangle is smaller than 12 x 4 or c has no x value.
 */
void sv_chart_draw(struct sv_grid *g, int x, int y, int w, int h,
	const struct sv_chart *c, const struct sv_chart_series *s, size_t ns,
	const struct sv_chart_mark *marks, size_t nmarks);

/* The column of c's x value i in a chart drawn at (x, y, w, h), as
 * sv_chart_draw places it; -1 when it is not drawn there. */
int sv_chart_column(const struct sv_chart *c, int x, int w, int h, size_t i);

#endif
