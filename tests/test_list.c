/*
 * test_list.c: the list widget (list.h): moves by rows, pages and counts
 * clamped at the ends with the bell, g and G with a count (24G), headings
 * the cursor passes over, a scroll-only list (a popup), the cursor kept
 * on its row across a rebuild and a re-sort, n and N round the end, the
 * wheel and clicks, and drawing only the rows on screen in the widget's
 * styles.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/action.h"
#include "scopeview/keys.h"
#include "scopeview/list.h"
#include "scopeview/mode.h"
#include "scopeview/session.h"
#include "viewtest.h"

/* A list of 100 rows whose values are a permutation: value[r], sorted
 * by value or by row number; every tenth row a heading when headings is
 * set; rows whose value is a multiple of 7 match the search. */
#define NROWS 100
static int value[NROWS];
static bool headings;
static int entered = -1;
static int drawn[NROWS];

static const struct vt_call calls[] = {{0, "main", 0, 100, -1, -1, -1, 0}};
static struct sv_profile *prof;
static struct sv_session s;
static struct sv_mode mode;
static struct sv_list l;

static void row_draw(const struct sv_mode *m, const struct sv_list *li,
	struct sv_grid *g, long row, int x, int y, int w, int style)
{
	(void)m, (void)li, (void)g, (void)x, (void)y, (void)w;
	drawn[row] = style;
}

static int row_enter(struct sv_mode *m, struct sv_list *li, long row)
{
	(void)m, (void)li;
	entered = (int)row;
	return SV_REACT_REDRAW;
}

static bool row_match(
	const struct sv_mode *m, const struct sv_list *li, long row)
{
	(void)m, (void)li;
	return value[row] % 7 == 0;
}

static bool row_heading(
	const struct sv_mode *m, const struct sv_list *li, long row)
{
	(void)m, (void)li;
	return headings && row % 10 == 0;
}

static uint64_t row_key(
	const struct sv_mode *m, const struct sv_list *li, long row)
{
	(void)m, (void)li;
	return (uint64_t)value[row];
}

static int cmp_up(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}
static int cmp_down(const void *a, const void *b)
{
	return *(const int *)b - *(const int *)a;
}

/* Column 0 sorts by value; column 1 cannot sort (the bell). */
static int row_sort(struct sv_mode *m, struct sv_list *li, int col, bool rev)
{
	(void)m, (void)li;
	if (col == 1)
		return -1;
	qsort(value, NROWS, sizeof *value, rev ? cmp_down : cmp_up);
	return col;
}

static const char *const cols[] = {"value", "other"};

static const struct sv_list_ops ops = {
	.draw_row = row_draw,
	.enter = row_enter,
	.enter_help = "test",
	.match = row_match,
	.heading = row_heading,
	.key = row_key,
	.cols = cols,
	.ncols = 2,
	.sort = row_sort,
};

static void setup(void)
{
	struct sv_error err;
	int i;

	prof = vt_profile(calls, 1, VT_START);
	ck_assert_int_eq(sv_session_init(&s, prof, NULL, &err), 0);
	memset(&mode, 0, sizeof mode);
	mode.s = &s;
	/* a permutation: 37 r mod 101, all different */
	for (i = 0; i < NROWS; i++)
		value[i] = (37 * (i + 1)) % 101;
	headings = false;
	entered = -1;
	sv_list_init(&l, &ops, -1);
	sv_list_place(&l, 2, 3, 40, 10);
	sv_list_set_rows(&l, NROWS);
}

static void teardown(void)
{
	sv_session_fini(&s);
	sv_profile_free(prof);
}

static int act(int a, long count)
{
	return sv_list_apply(&mode, &l, a, count);
}

/* ---- moves ------------------------------------------------------------- */

/* From row cur, action a with count lands on want, the view's top on
 * top (-1: not checked), ringing the bell when nothing moved. */
static const struct {
	long cur;
	int a;
	long count, want, top;
	bool bell;
} moves[] = {
	{0, SV_ACTION_LIST_DOWN, 0, 1, 0, false},
	{0, SV_ACTION_LIST_DOWN, 5, 5, 0, false},
	{0, SV_ACTION_LIST_DOWN, 23, 23, 14, false},
	{95, SV_ACTION_LIST_DOWN, 10, 99, 90, false},
	{99, SV_ACTION_LIST_DOWN, 0, 99, 90, true},
	{0, SV_ACTION_LIST_UP, 0, 0, 0, true},
	{50, SV_ACTION_LIST_UP, 7, 43, -1, false},
	{0, SV_ACTION_LIST_PAGE_DOWN, 0, 10, 10, false},
	{0, SV_ACTION_LIST_PAGE_DOWN, 3, 30, 30, false},
	{95, SV_ACTION_LIST_PAGE_DOWN, 0, 99, 90, false},
	{99, SV_ACTION_LIST_PAGE_DOWN, 0, 99, 90, true},
	{25, SV_ACTION_LIST_PAGE_UP, 0, 15, -1, false},
	{5, SV_ACTION_LIST_PAGE_UP, 2, 0, 0, false},
	{50, SV_ACTION_LIST_FIRST, 0, 0, 0, false},
	{0, SV_ACTION_LIST_FIRST, 0, 0, 0, true},
	{0, SV_ACTION_LIST_LAST, 0, 99, 90, false},
	{0, SV_ACTION_LIST_LAST, 24, 23, 14, false},
	{50, SV_ACTION_LIST_FIRST, 24, 23, 23, false},
	{0, SV_ACTION_LIST_LAST, 1000, 99, 90, false},
};

START_TEST(test_moves)
{
	int rc;

	/* given the cursor on row cur */
	sv_list_set_cursor(&mode, &l, moves[_i].cur);
	ck_assert_int_eq(l.cur, moves[_i].cur);
	/* when the action is done with its count */
	rc = act(moves[_i].a, moves[_i].count);
	/* then the cursor is on its row, on screen */
	ck_assert_int_eq(l.cur, moves[_i].want);
	if (moves[_i].top >= 0)
		ck_assert_int_eq(l.top, moves[_i].top);
	ck_assert_int_le(l.top, l.cur);
	ck_assert_int_lt(l.cur, l.top + l.h);
	ck_assert_int_eq(!!(rc & SV_REACT_BELL), moves[_i].bell);
	ck_assert(rc & SV_REACT_REDRAW);
}
END_TEST

START_TEST(test_not_a_list_action)
{
	ck_assert_int_eq(act(SV_ACTION_ZOOM_IN, 0), -1);
	ck_assert_int_eq(act(SV_ACTION_MOVE_DOWN, 0), -1);
}
END_TEST

START_TEST(test_empty)
{
	/* no rows: every move rings the bell, Enter too */
	sv_list_set_rows(&l, 0);
	ck_assert_int_eq(l.cur, 0);
	ck_assert(act(SV_ACTION_LIST_DOWN, 0) & SV_REACT_BELL);
	ck_assert(act(SV_ACTION_LIST_LAST, 0) & SV_REACT_BELL);
	ck_assert(act(SV_ACTION_LIST_ENTER, 0) & SV_REACT_BELL);
	ck_assert_int_eq(entered, -1);
	ck_assert(act(SV_ACTION_LIST_MATCH_NEXT, 0) & SV_REACT_BELL);
	/* a zero-height list keeps a cursor inside its rows */
	sv_list_place(&l, 0, 0, 10, 0);
	sv_list_set_rows(&l, 5);
	ck_assert_int_eq(act(SV_ACTION_LIST_DOWN, 3), SV_REACT_REDRAW);
	ck_assert_int_eq(l.cur, 3);
	ck_assert_int_eq(l.top, 3);
}
END_TEST

START_TEST(test_shrink)
{
	/* the rows shrink under the cursor: it stays inside */
	sv_list_set_cursor(&mode, &l, 80);
	sv_list_set_rows(&l, 30);
	ck_assert_int_eq(l.cur, 29);
	ck_assert_int_eq(l.top, 20);
}
END_TEST

START_TEST(test_headings)
{
	/* given a heading every ten rows */
	headings = true;
	sv_list_set_cursor(&mode, &l, 0);
	/* the cursor starts past the first one */
	ck_assert_int_eq(l.cur, 1);
	sv_list_set_cursor(&mode, &l, 9);
	act(SV_ACTION_LIST_DOWN, 0);
	ck_assert_int_eq(l.cur, 11);
	act(SV_ACTION_LIST_UP, 0);
	ck_assert_int_eq(l.cur, 9);
	/* g goes to the first row that is not one; 11G to row 11, 21G past
	 * the heading at 20 */
	act(SV_ACTION_LIST_FIRST, 0);
	ck_assert_int_eq(l.cur, 1);
	act(SV_ACTION_LIST_LAST, 21);
	ck_assert_int_eq(l.cur, 21);
	act(SV_ACTION_LIST_LAST, 11);
	ck_assert_int_eq(l.cur, 11);
	/* a click on a heading does nothing */
	ck_assert_int_eq(sv_list_mouse(&mode, &l,
				 sv_key_mouse(SV_MOUSE_CLICK, 5, 3 + 9)),
		SV_REACT_BELL);
	ck_assert_int_eq(sv_list_style(&mode, &l, 10), SV_STYLE_PANEL_HEAD);
}
END_TEST

START_TEST(test_scroll_only)
{
	/* a popup's text: moves scroll, no cursor */
	l.scroll_only = true;
	sv_list_set_rows(&l, 25);
	act(SV_ACTION_LIST_DOWN, 0);
	ck_assert_int_eq(l.top, 1);
	ck_assert_int_eq(l.cur, l.top);
	act(SV_ACTION_LIST_LAST, 0);
	ck_assert_int_eq(l.top, 15); /* the last page is full */
	ck_assert(act(SV_ACTION_LIST_DOWN, 0) & SV_REACT_BELL);
	act(SV_ACTION_LIST_FIRST, 3);
	ck_assert_int_eq(l.top, 2);
	act(SV_ACTION_LIST_PAGE_DOWN, 0);
	ck_assert_int_eq(l.top, 12);
	ck_assert(act(SV_ACTION_LIST_ENTER, 0) & SV_REACT_BELL);
	for (long r = 0; r < l.n; r++)
		ck_assert_int_ne(
			sv_list_style(&mode, &l, r), SV_STYLE_PANEL_CURSOR);
	/* shorter than the box: nothing to scroll */
	sv_list_set_rows(&l, 4);
	ck_assert_int_eq(l.top, 0);
	ck_assert(act(SV_ACTION_LIST_DOWN, 0) & SV_REACT_BELL);
}
END_TEST

/* ---- keeping the row, sorting, searching -------------------------------- */

START_TEST(test_keep_restore)
{
	int v;

	/* given the cursor on row 40 */
	sv_list_set_cursor(&mode, &l, 40);
	v = value[40];
	sv_list_keep(&mode, &l);
	/* when the rows are re-ordered under it */
	qsort(value, NROWS, sizeof *value, cmp_up);
	/* then the cursor finds its row again, on screen */
	ck_assert(sv_list_restore(&mode, &l));
	ck_assert_int_eq(value[l.cur], v);
	ck_assert_int_le(l.top, l.cur);
	ck_assert_int_lt(l.cur, l.top + l.h);
	/* a row that went away: the cursor stays where it was, clamped */
	sv_list_keep(&mode, &l);
	value[l.cur] = 1000;
	ck_assert(!sv_list_restore(&mode, &l));
	ck_assert(!sv_list_restore(&mode, &l)); /* kept once */
}
END_TEST

START_TEST(test_sort)
{
	int v;

	sv_list_set_cursor(&mode, &l, 70);
	v = value[70];
	/* from no order, > sorts by the first column, the cursor on its
	 * row */
	ck_assert_int_eq(act(SV_ACTION_LIST_SORT_NEXT, 0), SV_REACT_REDRAW);
	ck_assert_int_eq(l.sort, 0);
	ck_assert(!l.reverse);
	ck_assert_int_eq(value[l.cur], v);
	ck_assert_int_lt(value[0], value[1]);
	ck_assert_str_eq(sv_list_sort_name(&l), "value");
	ck_assert_ptr_nonnull(strstr(s.message, "sorted by value"));
	/* > again: the second column, which cannot sort: the bell, the
	 * order kept */
	ck_assert(act(SV_ACTION_LIST_SORT_NEXT, 0) & SV_REACT_BELL);
	ck_assert_int_eq(l.sort, 0);
	ck_assert_int_eq(value[l.cur], v);
	/* r reverses it */
	ck_assert_int_eq(act(SV_ACTION_LIST_REVERSE, 0), SV_REACT_REDRAW);
	ck_assert(l.reverse);
	ck_assert_int_gt(value[0], value[1]);
	ck_assert_int_eq(value[l.cur], v);
	ck_assert_ptr_nonnull(strstr(s.message, "reversed"));
}
END_TEST

START_TEST(test_find)
{
	long r;

	/* n goes to the next row that matches, round the end; N back */
	sv_list_set_cursor(&mode, &l, 0);
	ck_assert_int_eq(act(SV_ACTION_LIST_MATCH_NEXT, 0), SV_REACT_REDRAW);
	ck_assert_int_eq(value[l.cur] % 7, 0);
	for (r = 1; r < l.cur; r++)
		ck_assert_int_ne(value[r] % 7, 0);
	r = l.cur;
	act(SV_ACTION_LIST_MATCH_PREV, 0);
	ck_assert_int_gt(l.cur, r); /* round the start */
	ck_assert_int_eq(value[l.cur] % 7, 0);
	act(SV_ACTION_LIST_MATCH_NEXT, 0);
	ck_assert_int_eq(l.cur, r);
	/* the style of a match, of the cursor */
	ck_assert_int_eq(
		sv_list_style(&mode, &l, l.cur), SV_STYLE_PANEL_CURSOR);
	for (r = 0; r < NROWS; r++)
		if (r != l.cur)
			ck_assert_int_eq(sv_list_style(&mode, &l, r),
				value[r] % 7 ? SV_STYLE_PANEL : SV_STYLE_MATCH);
	/* no row matches: a message and the bell */
	for (r = 0; r < NROWS; r++)
		value[r] = 7 * r + 1;
	ck_assert(act(SV_ACTION_LIST_MATCH_NEXT, 0) & SV_REACT_BELL);
	ck_assert(s.message_is_error);
}
END_TEST

/* ---- the mouse, Enter and drawing ---------------------------------------- */

START_TEST(test_mouse)
{
	/* the wheel scrolls three rows; the cursor stays on screen */
	ck_assert_int_eq(sv_list_mouse(&mode, &l,
				 sv_key_mouse(SV_MOUSE_WHEEL_DOWN, 5, 5)),
		SV_REACT_REDRAW);
	ck_assert_int_eq(l.top, 3);
	ck_assert_int_eq(l.cur, 3);
	sv_list_mouse(&mode, &l, sv_key_mouse(SV_MOUSE_WHEEL_UP, 5, 5));
	ck_assert_int_eq(l.top, 0);
	/* a click puts the cursor on the row under it (y 3 is row 0) */
	ck_assert_int_eq(
		sv_list_mouse(&mode, &l, sv_key_mouse(SV_MOUSE_CLICK, 10, 7)),
		SV_REACT_REDRAW);
	ck_assert_int_eq(l.cur, 4);
	ck_assert_int_eq(entered, -1);
	/* a click on the cursor's row is Enter */
	sv_list_mouse(&mode, &l, sv_key_mouse(SV_MOUSE_CLICK, 10, 7));
	ck_assert_int_eq(entered, 4);
	/* outside the rows: not the list's */
	ck_assert_int_eq(
		sv_list_mouse(&mode, &l, sv_key_mouse(SV_MOUSE_CLICK, 1, 7)),
		-1);
	ck_assert_int_eq(
		sv_list_mouse(&mode, &l, sv_key_mouse(SV_MOUSE_CLICK, 10, 13)),
		-1);
	ck_assert_int_eq(
		sv_list_mouse(&mode, &l, sv_key_mouse(SV_MOUSE_CLICK, 10, 2)),
		-1);
}
END_TEST

START_TEST(test_enter)
{
	sv_list_set_cursor(&mode, &l, 42);
	ck_assert_int_eq(act(SV_ACTION_LIST_ENTER, 0), SV_REACT_REDRAW);
	ck_assert_int_eq(entered, 42);
}
END_TEST

START_TEST(test_draw)
{
	struct sv_grid g;
	long r;

	/* only the rows on screen are drawn, in the widget's styles */
	memset(drawn, -1, sizeof drawn);
	sv_list_set_cursor(&mode, &l, 55);
	sv_grid_init(&g);
	sv_grid_resize(&g, 60, 20);
	sv_list_draw(&mode, &l, &g);
	for (r = 0; r < NROWS; r++) {
		if (r < l.top || r >= l.top + l.h)
			ck_assert_int_eq(drawn[r], -1);
		else
			ck_assert_int_eq(drawn[r], sv_list_style(&mode, &l, r));
	}
	ck_assert_int_eq(drawn[55], SV_STYLE_PANEL_CURSOR);
	/* the line is filled in the row's style first */
	ck_assert_int_eq(sv_grid_cell(&g, 41, 3 + (int)(55 - l.top))->style,
		SV_STYLE_PANEL_CURSOR);
	ck_assert_int_eq(sv_grid_cell(&g, 42, 3)->style, SV_STYLE_DEFAULT);
	sv_grid_fini(&g);
}
END_TEST

static Suite *suite(void)
{
	Suite *su = suite_create("list");
	TCase *tc = tcase_create("moves");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_moves, 0, sizeof moves / sizeof moves[0]);
	tcase_add_test(tc, test_not_a_list_action);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_shrink);
	tcase_add_test(tc, test_headings);
	tcase_add_test(tc, test_scroll_only);
	suite_add_tcase(su, tc);
	tc = tcase_create("rows");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_keep_restore);
	tcase_add_test(tc, test_sort);
	tcase_add_test(tc, test_find);
	suite_add_tcase(su, tc);
	tc = tcase_create("mouse and drawing");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_mouse);
	tcase_add_test(tc, test_enter);
	tcase_add_test(tc, test_draw);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return svt_run(suite());
}
