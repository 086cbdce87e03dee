/*
 * test_chart.c: the line chart (chart.h): the round top of the y axis,
 * where x values go (linear and log 2), points and lines at the cells
 * their values say, a gap where a value is missing, marks drawn over
 * points, nothing drawn in too small a rectangle, and lines of every
 * slope ending at their end point (a line walk that missed it once ran
 * for ever).
 */
#include "scopeview/chart.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

static const struct {
	double v;
	int rows;
	double top;
} tops[] = {
	{8, 14, 8},     /* step 2: 0 2 4 6 8 */
	{20.24, 6, 30}, /* step 10 */
	{1, 14, 1},     /* step 0.2 */
	{0.9, 8, 1},    /* step 0.5 */
	{3, 1, 5},      /* one tick: step 5 */
	{0, 10, 1},     /* nothing to show */
	{-3, 10, 1}, {NAN, 10, 1}, {INFINITY, 10, 1},
	{1234, 10, 1500}, /* step 500 */
};

START_TEST(test_top)
{
	ck_assert_double_eq_tol(
		sv_chart_top(tops[_i].v, tops[_i].rows), tops[_i].top, 1e-9);
}
END_TEST

static const double xs4[] = {1, 2, 4, 8};

static struct sv_chart chart4(bool log_x, bool ascii)
{
	struct sv_chart c;

	memset(&c, 0, sizeof c);
	c.xs = xs4;
	c.n = 4;
	c.log_x = log_x;
	c.ascii = ascii;
	c.y_top = 8;
	return c;
}

/* On a log-2 axis doubling x values are evenly apart; on a linear one
 * they are where their values put them. */
START_TEST(test_columns)
{
	struct sv_chart c = chart4(true, true);
	int c0, c1, c2, c3;

	c0 = sv_chart_column(&c, 0, 40, 10, 0);
	c1 = sv_chart_column(&c, 0, 40, 10, 1);
	c2 = sv_chart_column(&c, 0, 40, 10, 2);
	c3 = sv_chart_column(&c, 0, 40, 10, 3);
	ck_assert_int_ge(c0, 0);
	ck_assert_int_eq(c3, 39);
	ck_assert_int_le(abs((c1 - c0) - (c2 - c1)), 1);
	ck_assert_int_le(abs((c2 - c1) - (c3 - c2)), 1);
	c.log_x = false;
	c1 = sv_chart_column(&c, 0, 40, 10, 1);
	c2 = sv_chart_column(&c, 0, 40, 10, 2);
	/* linear: 1 -> 2 is a seventh of the way, 2 -> 4 two sevenths */
	ck_assert_int_le(abs(2 * (c1 - c0) - (c2 - c1)), 1);
	ck_assert_int_eq(sv_chart_column(&c, 0, 40, 10, 4), -1);
	ck_assert_int_eq(sv_chart_column(&c, 0, 8, 10, 0), -1);
}
END_TEST

static uint32_t at(const struct sv_grid *g, int x, int y)
{
	const struct sv_cell *cell = sv_grid_cell(g, x, y);
	return cell ? cell->ch : 0;
}

/* ASCII: points 'o' on the rows of their values, axis labels, a gap. */
START_TEST(test_points_ascii)
{
	static const double y[] = {0, NAN, 4, 8};
	struct sv_chart c = chart4(true, true);
	struct sv_chart_series s = {y, SV_STYLE_CHART, 0, false};
	struct sv_chart_mark mk = {0, 3, SV_STYLE_MATCH, '*'};
	struct sv_grid g;
	int x0, x2, x3, row, k, line_cells = 0;

	sv_grid_init(&g);
	sv_grid_resize(&g, 40, 10);
	sv_chart_draw(&g, 0, 0, 40, 10, &c, &s, 1, &mk, 1);
	x0 = sv_chart_column(&c, 0, 40, 10, 0);
	x2 = sv_chart_column(&c, 0, 40, 10, 2);
	x3 = sv_chart_column(&c, 0, 40, 10, 3);
	/* 8 rows of plot: 0 on the last, 8 (the top) on the first, 4 in the
	 * middle; the mark over the last point */
	ck_assert_uint_eq(at(&g, x0, 7), 'o');
	ck_assert_uint_eq(at(&g, x3, 0), '*');
	for (row = 0, k = 0; row < 8; row++)
		k += at(&g, x2, row) == 'o';
	ck_assert_int_eq(k, 1);
	ck_assert(at(&g, x2, 3) == 'o' || at(&g, x2, 4) == 'o');
	/* the x axis and its labels */
	ck_assert_uint_eq(at(&g, x0, 8), '+');
	ck_assert_uint_eq(at(&g, x3, 9), '8');
	ck_assert_uint_eq(at(&g, 0, 0), '8');
	/* no line from the first point: the second value is missing */
	for (k = x0 + 1; k < x2; k++)
		for (row = 0; row < 8; row++)
			line_cells +=
				at(&g, k, row) != ' ' && at(&g, k, row) != 0;
	ck_assert_int_eq(line_cells, 0);
	/* a line between the last two */
	for (k = x2 + 1, line_cells = 0; k < x3; k++)
		for (row = 0; row < 8; row++)
			line_cells +=
				at(&g, k, row) != ' ' && at(&g, k, row) != 0;
	ck_assert_int_ge(line_cells, x3 - x2 - 1);
	sv_grid_fini(&g);
}
END_TEST

/* Braille: a dotted ideal and a line share cells, their dots or-ed. */
START_TEST(test_braille)
{
	static const double ideal[] = {1, 2, 4, 8}, y[] = {1, 2, 3, 4};
	struct sv_chart c = chart4(true, false);
	struct sv_chart_series s[2] = {{ideal, SV_STYLE_CHART_IDEAL, 0, true},
		{y, SV_STYLE_CHART, 0, false}};
	struct sv_grid g;
	int x, row, braille = 0, points = 0;

	sv_grid_init(&g);
	sv_grid_resize(&g, 60, 16);
	sv_chart_draw(&g, 0, 0, 60, 16, &c, s, 2, NULL, 0);
	for (x = 0; x < 60; x++)
		for (row = 0; row < 14; row++) {
			uint32_t ch = at(&g, x, row);
			braille += ch > 0x2800 && ch <= 0x28ff;
			points += ch == 0x25CF;
		}
	ck_assert_int_eq(points, 4); /* the ideal has no point marks */
	ck_assert_int_gt(braille, 30);
	ck_assert_uint_eq(
		at(&g, sv_chart_column(&c, 0, 60, 16, 0), 14), 0x252C);
	sv_grid_fini(&g);
}
END_TEST

/* The point glyphs in column x's first rows rows. */
static int column_points(const struct sv_grid *g, int x, int rows)
{
	int row, n = 0;
	for (row = 0; row < rows; row++)
		n += at(g, x, row) == 'o' || at(g, x, row) == 0x25CF;
	return n;
}

/* Every slope ends: values from 0 to the top and back, both glyph sets. */
START_TEST(test_every_slope)
{
	static const double xs[] = {1, 2};
	double y[2];
	struct sv_chart c;
	struct sv_chart_series s = {y, SV_STYLE_CHART, 0, false};
	struct sv_grid g;
	int a, b;

	memset(&c, 0, sizeof c);
	c.xs = xs;
	c.n = 2;
	c.y_top = 10;
	c.ascii = _i;
	sv_grid_init(&g);
	sv_grid_resize(&g, 50, 20);
	for (a = 0; a <= 10; a++)
		for (b = 0; b <= 10; b++) {
			y[0] = a;
			y[1] = b;
			sv_grid_clear(&g);
			sv_chart_draw(&g, 0, 0, 50, 20, &c, &s, 1, NULL, 0);
			/* both points drawn: the walk reached its end */
			ck_assert_int_eq(
				column_points(&g,
					sv_chart_column(&c, 0, 50, 20, 0), 18) +
					column_points(&g,
						sv_chart_column(
							&c, 0, 50, 20, 1),
						18),
				2);
		}
	sv_grid_fini(&g);
}
END_TEST

/* Too small, or nothing to draw: the grid is left as it was. */
START_TEST(test_too_small)
{
	static const double y[] = {1, 2, 3, 4};
	struct sv_chart c = chart4(false, true);
	struct sv_chart_series s = {y, SV_STYLE_CHART, 0, false};
	struct sv_grid g;
	int x, row, drawn = 0;

	sv_grid_init(&g);
	sv_grid_resize(&g, 20, 10);
	sv_chart_draw(&g, 0, 0, 11, 10, &c, &s, 1, NULL, 0);
	sv_chart_draw(&g, 0, 0, 20, 3, &c, &s, 1, NULL, 0);
	c.n = 0;
	sv_chart_draw(&g, 0, 0, 20, 10, &c, &s, 1, NULL, 0);
	for (x = 0; x < 20; x++)
		for (row = 0; row < 10; row++)
			drawn += at(&g, x, row) != ' ' && at(&g, x, row) != 0;
	ck_assert_int_eq(drawn, 0);
	sv_grid_fini(&g);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("chart");
	TCase *tc = tcase_create("chart");

	tcase_add_loop_test(tc, test_top, 0, sizeof tops / sizeof tops[0]);
	tcase_add_test(tc, test_columns);
	tcase_add_test(tc, test_points_ascii);
	tcase_add_test(tc, test_braille);
	tcase_add_loop_test(tc, test_every_slope, 0, 2);
	tcase_add_test(tc, test_too_small);
	suite_add_tcase(s, tc);
	return svt_run(s);
}
