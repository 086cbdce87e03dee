/*
 * test_panel.c: the summary panel (panel.h): its columns and their sort
 * keys, the cursor's moves (the list keys, list.h) clamped at the table's
 * ends, marking and leaving, sorting through every column (the session's
 * table re-sorted, the cursor kept on its region),
 * hit testing of its rows, the names cut where they differ from the other
 * rows shown (every sort order, width, scroll and filter, against the
 * n^2 comparison), and the statistics screen of a profile with calls as
 * a golden.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/action.h"
#include "scopeview/elide.h"
#include "scopeview/grid.h"
#include "scopeview/keys.h"
#include "scopeview/list.h"
#include "scopeview/panel.h"
#include "scopeview/render.h"
#include "scopeview/session.h"
#include "scopeview/view.h"
#include "viewtest.h"

/* Figures that order the regions differently by each key: rank 0 alpha
 * [0,1000) holding four beta calls of 100 ns, two gamma calls of 300 ns;
 * rank 1 one gamma of 30 ns and a delta of 50 ns.  Totals: alpha 1000,
 * gamma 630, beta 400, delta 50; calls: beta 4, gamma 3; exclusive:
 * gamma 630, alpha 600; imbalance: gamma only. */
static const struct vt_call calls[] = {
	{0, "alpha", 0, 1000, -1, -1, -1, 0},
	{0, "beta", 100, 200, -1, -1, -1, 0},
	{0, "beta", 300, 400, -1, -1, -1, 0},
	{0, "beta", 500, 600, -1, -1, -1, 0},
	{0, "beta", 700, 800, -1, -1, -1, 0},
	{0, "gamma", 2000, 2300, -1, -1, -1, 0},
	{0, "gamma", 2400, 2700, -1, -1, -1, 0},
	{1, "gamma", 0, 30, -1, -1, -1, 0},
	{1, "delta", 100, 150, -1, -1, -1, 0},
};
#define NREGIONS 4

static struct sv_profile *prof;
static struct sv_session s;
static struct sv_panel pn;
static int sorts_heard;

static void count_sorts(void *ctx, unsigned what)
{
	(void)ctx;
	if (what & SV_SESSION_SORT)
		sorts_heard++;
}

static void setup(void)
{
	struct sv_error err;
	prof = vt_profile(calls, sizeof calls / sizeof calls[0], VT_START);
	ck_assert_int_eq(sv_session_init(&s, prof, NULL, &err), 0);
	s.notify = count_sorts;
	sorts_heard = 0;
	sv_panel_init(&pn, NULL);
	sv_panel_clamp(&pn, &s);
	ck_assert_uint_eq(sv_session_stats(&s)->nregions, NREGIONS);
}

static void teardown(void)
{
	sv_session_fini(&s);
	sv_profile_free(prof);
}

/* ---- columns ----------------------------------------------------------- */

START_TEST(test_col_key_round_trip)
{
	/* every column sorts by a key that leads back to the column */
	enum sv_stats_key key = sv_panel_col_key(_i);
	ck_assert_ptr_nonnull(sv_stats_key_name(key));
	if (!sv_panel_col_sorts(_i)) {
		/* calls per rank: sorted as the column before it */
		ck_assert_int_eq(sv_panel_key_col(key), _i - 1);
		return;
	}
	ck_assert_int_eq(sv_panel_key_col(key), _i);
	ck_assert_int_eq(sv_panel_col_by_name(sv_stats_key_name(key)), _i);
}
END_TEST

START_TEST(test_col_key_outside)
{
	/* columns out of range sort by total; keys without a column show
	 * as the total column */
	ck_assert_int_eq(sv_panel_col_key(-1), SV_STATS_KEY_TOTAL);
	ck_assert_int_eq(
		sv_panel_col_key(SV_PANEL_COL_COUNT), SV_STATS_KEY_TOTAL);
	ck_assert_int_eq(
		sv_panel_key_col(SV_STATS_KEY_FIRST), SV_PANEL_COL_TOTAL);
	ck_assert_int_eq(
		sv_panel_key_col(SV_STATS_KEY_START), SV_PANEL_COL_TOTAL);
}
END_TEST

static const struct {
	const char *name;
	int col;
} by_name[] = {
	{"name", SV_PANEL_COL_NAME},
	{"calls", SV_PANEL_COL_CALLS},
	{"total", SV_PANEL_COL_TOTAL},
	{"exclusive", SV_PANEL_COL_EXCL},
	{"avg", SV_PANEL_COL_AVG},
	{"p95", SV_PANEL_COL_P95},
	{"imbalance", SV_PANEL_COL_IMB},
	{"excl", -1}, /* a column title, not a key name */
	{"imb%", -1},
	{"min", SV_PANEL_COL_MIN},
	{"std", SV_PANEL_COL_STD},
	{"last", -1}, /* a key without a column */
	{"Total", -1},
	{"", -1},
};

START_TEST(test_col_by_name)
{
	ck_assert_int_eq(
		sv_panel_col_by_name(by_name[_i].name), by_name[_i].col);
}
END_TEST

/* ---- moves ------------------------------------------------------------- */

/* From row cur, action a with a page of page rows lands on row want. */
static const struct {
	long cur;
	int a;
	long page;
	long want;
} moves[] = {
	{0, SV_ACTION_LIST_DOWN, 1, 1},
	{NREGIONS - 1, SV_ACTION_LIST_DOWN, 1, NREGIONS - 1},
	{2, SV_ACTION_LIST_UP, 1, 1},
	{0, SV_ACTION_LIST_UP, 1, 0},
	{0, SV_ACTION_LIST_PAGE_DOWN, 2, 2},
	{2, SV_ACTION_LIST_PAGE_DOWN, 10, NREGIONS - 1},
	{3, SV_ACTION_LIST_PAGE_UP, 2, 1},
	{1, SV_ACTION_LIST_PAGE_UP, 10, 0},
	{3, SV_ACTION_LIST_FIRST, 1, 0},
	{0, SV_ACTION_LIST_LAST, 1, NREGIONS - 1},
};

START_TEST(test_moves)
{
	int rc;

	/* given the panel's rows on a page of page rows and the cursor on
	 * row cur, when the action is done */
	sv_list_place(&pn.list, 0, 0, 40, (int)moves[_i].page);
	sv_list_set_cursor(NULL, &pn.list, moves[_i].cur);
	rc = sv_list_apply(NULL, &pn.list, moves[_i].a, 0);
	/* then it lands on its row, clamped (the bell at an end), marking
	 * nothing */
	ck_assert_int_eq(rc & ~SV_REACT_BELL, SV_REACT_REDRAW);
	ck_assert_int_eq(pn.list.cur, moves[_i].want);
	ck_assert_int_eq(
		!!(rc & SV_REACT_BELL), moves[_i].want == moves[_i].cur);
	ck_assert_int_eq(s.mark_region, -1);
}
END_TEST

START_TEST(test_moves_empty_table)
{
	long mark = -7;

	/* given no region on the lanes shown (rank 5 only) */
	ck_assert_int_eq(sv_session_set_ranks(&s, "5"), 0);
	ck_assert_uint_eq(sv_session_stats(&s)->nregions, 0);
	sv_panel_clamp(&pn, &s);
	/* then moves stay on row 0 and marking rings the bell */
	ck_assert_int_eq(sv_list_apply(NULL, &pn.list, SV_ACTION_LIST_LAST, 0),
		SV_REACT_REDRAW | SV_REACT_BELL);
	ck_assert_int_eq(pn.list.cur, 0);
	ck_assert_int_eq(sv_list_apply(NULL, &pn.list, SV_ACTION_LIST_DOWN, 0),
		SV_REACT_REDRAW | SV_REACT_BELL);
	ck_assert_int_eq(pn.list.cur, 0);
	ck_assert_int_eq(sv_panel_apply(&pn, &s, SV_ACTION_PANEL_MARK, &mark),
		SV_REACT_BELL);
	ck_assert_int_eq(mark, -7);
	/* and an action that is not the panel's is refused */
	ck_assert_int_eq(sv_panel_apply(&pn, &s, SV_ACTION_ZOOM_IN, &mark), -1);
}
END_TEST

START_TEST(test_clamp)
{
	/* given the cursor on the last row, when the table shrinks to one
	 * region (rank 1 has gamma and delta: two) */
	sv_list_place(&pn.list, 0, 0, 40, 10);
	sv_list_set_cursor(NULL, &pn.list, NREGIONS - 1);
	ck_assert_int_eq(sv_session_set_ranks(&s, "1"), 0);
	ck_assert_uint_eq(sv_session_stats(&s)->nregions, 2);
	sv_panel_clamp(&pn, &s);
	/* then it goes back into the table */
	ck_assert_int_lt(pn.list.cur, 2);
	/* a cursor inside stays */
	sv_list_set_cursor(NULL, &pn.list, 1);
	sv_panel_clamp(&pn, &s);
	ck_assert_int_eq(pn.list.cur, 1);
}
END_TEST

/* ---- marking and leaving ----------------------------------------------- */

START_TEST(test_mark)
{
	long mark = -7;
	int rc;

	/* when Space is pressed on row 2 */
	sv_list_place(&pn.list, 0, 0, 40, 10);
	sv_list_set_cursor(NULL, &pn.list, 2);
	rc = sv_panel_apply(&pn, &s, SV_ACTION_PANEL_MARK, &mark);
	/* then the caller is asked to mark that row's region; the panel
	 * itself marks nothing */
	ck_assert_int_eq(rc, SV_PANEL_MARK);
	ck_assert_int_eq(mark, (long)sv_session_stats(&s)->regions[2].region);
	ck_assert_int_eq(s.mark_region, -1);
	ck_assert_int_eq(pn.list.cur, 2);
}
END_TEST

START_TEST(test_back)
{
	long mark = -7;
	int rc;

	/* given the focus and no marked region: Escape leaves the panel */
	pn.focus = true;
	rc = sv_panel_apply(&pn, &s, SV_ACTION_PANEL_BACK, &mark);
	ck_assert_int_eq(rc, SV_REACT_REDRAW);
	ck_assert(!pn.focus);
	ck_assert_int_eq(mark, -7);

	/* given a marked region: Escape asks to clear it, focus kept */
	pn.focus = true;
	sv_session_mark_region(&s, 1);
	rc = sv_panel_apply(&pn, &s, SV_ACTION_PANEL_BACK, &mark);
	ck_assert_int_eq(rc, SV_PANEL_MARK | SV_REACT_REDRAW);
	ck_assert_int_eq(mark, -1);
	ck_assert(pn.focus);
}
END_TEST

/* ---- sorting ----------------------------------------------------------- */

/* Whether the session's table is in key's order: names ascending, the
 * imbalance and figures descending. */
static void assert_sorted(enum sv_stats_key key)
{
	size_t i;

	ck_assert_int_eq(sv_session_stats(&s)->sorted_by, key);
	for (i = 1; i < sv_session_stats(&s)->nregions; i++) {
		const struct sv_stats_region
			*a = &sv_session_stats(&s)->regions[i - 1],
			*b = &sv_session_stats(&s)->regions[i];
		double x, y;
		if (key == SV_STATS_KEY_NAME) {
			ck_assert_int_lt(strcmp(a->name, b->name), 0);
			continue;
		}
		if (key == SV_STATS_KEY_IMBALANCE) {
			ck_assert(
				a->rank_imbalance_pct >= b->rank_imbalance_pct);
			continue;
		}
		ck_assert(sv_stats_value(&a->s, key, &x));
		ck_assert(sv_stats_value(&b->s, key, &y));
		ck_assert_msg(x >= y, "%s: %s %g before %s %g",
			sv_stats_key_name(key), a->name, x, b->name, y);
	}
}

START_TEST(test_sort_cycle)
{
	static const char *const first[SV_PANEL_COL_COUNT] = {
		[SV_PANEL_COL_NAME] = "alpha",
		[SV_PANEL_COL_CALLS] = "beta",
		[SV_PANEL_COL_TOTAL] = "alpha",
		[SV_PANEL_COL_EXCL] = "gamma",
		[SV_PANEL_COL_AVG] = "alpha",
		[SV_PANEL_COL_IMB] = "gamma",
	};
	int dir, step, col, nsorts = 0;
	long mark = -7;

	for (col = 0; col < SV_PANEL_COL_COUNT; col++)
		nsorts += sv_panel_col_sorts(col);
	ck_assert_int_eq(nsorts, SV_PANEL_COL_COUNT - 1);
	/* given the default order (total) and the cursor down the table */
	ck_assert_int_eq(sv_session_sort_key(&s), SV_STATS_KEY_TOTAL);
	assert_sorted(SV_STATS_KEY_TOTAL);
	for (dir = 1; dir >= -1; dir -= 2) {
		col = SV_PANEL_COL_TOTAL;
		/* when > (or <) is pressed once per column */
		for (step = 0; step < nsorts; step++) {
			int a = dir > 0 ? SV_ACTION_SORT_NEXT
					: SV_ACTION_SORT_PREV;
			sv_list_place(&pn.list, 0, 0, 40, 2);
			sv_list_set_cursor(NULL, &pn.list, 2);
			ck_assert_int_eq(sv_panel_apply(&pn, &s, a, &mark),
				SV_REACT_REDRAW);
			do
				col = (col + dir + SV_PANEL_COL_COUNT) %
				      SV_PANEL_COL_COUNT;
			while (!sv_panel_col_sorts(col));
			/* then the next column's key sorts the table, and
			 * the cursor goes to the top */
			ck_assert_int_eq(
				sv_session_sort_key(&s), sv_panel_col_key(col));
			assert_sorted(sv_session_sort_key(&s));
			if (first[col])
				ck_assert_str_eq(
					sv_session_stats(&s)->regions[0].name,
					first[col]);
			ck_assert_int_eq(pn.list.cur, 0);
			ck_assert_int_eq(pn.list.top, 0);
		}
		/* and after every column the order is back to total */
		ck_assert_int_eq(col, SV_PANEL_COL_TOTAL);
		ck_assert_int_eq(sv_session_sort_key(&s), SV_STATS_KEY_TOTAL);
	}
	ck_assert_int_eq(sorts_heard, 2 * nsorts);
	ck_assert_int_eq(mark, -7);
}
END_TEST

/* ---- hit testing ------------------------------------------------------- */

/* Panel box at (10, 5), 40 x 6: rows 7 .. 10 are regions.  A point, the
 * first row on screen, and the row it hits. */
static const struct {
	int x, y;
	long top;
	long row;
} hits[] = {
	{11, 7, 0, 0},
	{49, 8, 0, 1},
	{30, 10, 0, 3},
	{30, 10, 1, -1}, /* row 4: past the table */
	{30, 8, 1, 2},
	{10, 7, 0, -1}, /* the border column */
	{9, 7, 0, -1},
	{30, 6, 0, -1},  /* the heading */
	{30, 5, 0, -1},  /* the title */
	{30, 11, 0, -1}, /* below the box */
	{30, 4, 0, -1},
};

START_TEST(test_row_at)
{
	struct sv_panel_area area = {10, 5, 40, 6, false};
	sv_panel_place(&pn, &area);
	pn.list.top = hits[_i].top;
	ck_assert_int_eq(
		sv_panel_row_at(&pn, &s, &area, hits[_i].x, hits[_i].y),
		hits[_i].row);
}
END_TEST

START_TEST(test_row_at_hidden)
{
	/* a hidden panel (no width) has no rows */
	struct sv_panel_area area = {10, 5, 0, 6, false};
	ck_assert_int_eq(sv_panel_row_at(&pn, &s, &area, 11, 7), -1);
}
END_TEST

/* ---- the statistics screen --------------------------------------------- */

START_TEST(test_stats_view_golden)
{
	struct sv_view v;
	struct sv_view_opts o = {.title = "test.h5"};
	struct sv_error err;
	struct sv_grid g;
	int *kv = NULL;
	size_t n = 0, i;

	/* given a profile with calls at 100 x 30, when `:view stats` is
	 * typed: the panel across the screen under its note */
	ck_assert_int_eq(sv_view_init(&v, prof, &o, &err), 0);
	sv_view_resize(&v, 100, 30);
	ck_assert_int_eq(sv_keys_parse_script(": v i e w Space s t a t s Enter",
				 &kv, &n, &err),
		0);
	for (i = 0; i < n; i++)
		sv_view_handle_key(&v, kv[i]);
	free(kv);
	ck_assert_ptr_eq(sv_view_main_mode(&v)->ops, &sv_mode_stats);
	sv_grid_init(&g);
	sv_render(&g, &v);
	ck_assert_int_eq(g.w, 100);
	ck_assert_int_eq(g.h, 30);
	vt_golden(&g, "stats_view_calls");
	sv_grid_fini(&g);
	sv_view_fini(&v);
}
END_TEST

/* The panel-columns setting: only the columns asked for are drawn, the
 * sort column always. */
START_TEST(test_chosen_columns)
{
	struct sv_view v;
	struct sv_error err;
	struct sv_grid g;
	char *text;

	ck_assert_int_eq(sv_view_init(&v, prof, NULL, &err), 0);
	sv_view_resize(&v, 160, 30);
	v.s.panel_cols = 1u << SV_PANEL_COL_CALLS;
	sv_grid_init(&g);
	sv_render(&g, &v);
	text = vt_grid_dump(&g);
	ck_assert_msg(strstr(text, "calls") != NULL, "%.300s", text);
	ck_assert_ptr_nonnull(strstr(text, "total")); /* the sort column */
	ck_assert_ptr_null(strstr(text, "excl"));
	ck_assert_ptr_null(strstr(text, "p95"));
	free(text);
	/* and with every column asked for, the width decides */
	v.s.panel_cols = 0;
	sv_render(&g, &v);
	text = vt_grid_dump(&g);
	ck_assert_ptr_nonnull(strstr(text, "excl"));
	free(text);
	sv_grid_fini(&g);
	sv_view_fini(&v);
}
END_TEST

/* ---- the names, elided against the rows shown ------------------------- */

/* Regions whose names share long starts (mpi:wait ... peer=N ...), and
 * short ones, with call counts and lengths that order them differently
 * by each column. */
#define ELIDE_N 40
static char elide_names[ELIDE_N][64];
static struct vt_call elide_calls[ELIDE_N * 3];

static struct sv_profile *elide_profile(void)
{
	size_t i, n = 0;
	int k;

	for (i = 0; i < ELIDE_N; i++) {
		if (i % 4 == 3)
			snprintf(elide_names[i], sizeof elide_names[i],
				"kernel:%s_%zu", i % 8 == 3 ? "spmv" : "pre",
				i);
		else
			snprintf(elide_names[i], sizeof elide_names[i],
				"mpi:%s kind=p2p peer=%zu root=-1 tag=7",
				i % 2 ? "wait" : "isend", (i * 7) % 23);
		for (k = 0; k < 1 + (int)(i % 3); k++) {
			int64_t t = (int64_t)n * 1000;
			elide_calls[n++] = (struct vt_call){(uint32_t)(i % 3),
				elide_names[i], t,
				t + 10 + (int64_t)((i * 37) % 11) * 50, -1, -1,
				-1, 0};
		}
	}
	return vt_profile(elide_calls, n, VT_START);
}

/* Every region row the panel drew in area a shows its name as sv_elide
 * cuts it against each other row shown (the n^2 comparison the panel
 * does not make), in the cells the name column has with nshown
 * numeric columns.  Returns how many names were cut. */
static int assert_elided(const struct sv_session *es, const struct sv_panel *p,
	const struct sv_panel_area *a, int nshown)
{
	const struct sv_glyphs *gl = sv_render_glyphs(a->ascii);
	int name_w = a->w - 1 - nshown * 7 - 1, x0 = a->x + 2, shown = 0;
	long visible = a->h - 2, top = p->list.top, bottom, r, q;
	struct sv_grid g;
	char ell[8];

	ell[sv_utf8_encode(gl->ellipsis, ell)] = '\0';
	/* the panel keeps its last page full */
	if (top > (long)sv_session_stats(es)->nregions - visible)
		top = (long)sv_session_stats(es)->nregions - visible;
	if (top < 0)
		top = 0;
	bottom = top + visible;
	if (bottom > (long)sv_session_stats(es)->nregions)
		bottom = (long)sv_session_stats(es)->nregions;
	sv_grid_init(&g);
	sv_grid_resize(&g, a->x + a->w, a->y + a->h);
	sv_panel_draw(&g, p, es, a);
	for (r = top; r < bottom; r++) {
		const char *name = sv_session_stats(es)->regions[r].name;
		char want[256], got[256];
		size_t differ = 0, len = 0;
		int x;
		for (q = top; q < bottom; q++) {
			size_t k = q == r ? 0
					  : sv_elide_common(
						    name, sv_session_stats(es)
								  ->regions[q]
								  .name);
			differ = k > differ ? k : differ;
		}
		sv_elide(name, differ, name_w - 2, ell, want, sizeof want);
		for (x = x0; x < x0 + name_w - 2; x++) {
			const struct sv_cell *c =
				sv_grid_at(&g, x, a->y + 2 + (int)(r - top));
			len += sv_utf8_encode(c->ch, got + len);
		}
		while (len && got[len - 1] == ' ')
			len--;
		got[len] = '\0';
		ck_assert_str_eq(got, want);
		shown += strcmp(want, name) != 0;
	}
	sv_grid_fini(&g);
	return shown;
}

START_TEST(test_elided_names)
{
	struct sv_profile *ep = elide_profile();
	struct sv_session es;
	struct sv_error err;
	struct sv_panel p;
	/* Panel widths and the numeric columns each has room for (name
	 * column at least 17 cells), rows, first rows shown. */
	static const struct {
		int w, nshown, h;
		long top;
	} areas[] = {{40, 3, 12, 0}, {45, 3, 30, 0}, {60, 5, 10, 7},
		{40, 3, 44, 0}, {52, 4, 8, 30}};
	static const char *const filters[] = {"", "mpi", "!kernel", ""};
	size_t f, a;
	int col, sorts, cut = 0;

	ck_assert_int_eq(sv_session_init(&es, ep, NULL, &err), 0);
	ck_assert_uint_eq(sv_session_stats(&es)->nregions, ELIDE_N);
	memset(&p, 0, sizeof p);
	for (f = 0; f < sizeof filters / sizeof filters[0]; f++) {
		ck_assert_int_eq(sv_session_set_filter(&es, filters[f]), 0);
		for (sorts = 0; sv_session_stats_busy(&es) && sorts < 100000;
			sorts++)
			sv_session_poll(&es);
		ck_assert(!sv_session_stats_busy(&es));
		/* every sort order, every width, scrolled */
		for (col = 0; col < SV_PANEL_COL_COUNT; col++) {
			sv_session_sort(&es, sv_panel_col_key(col));
			for (a = 0; a < sizeof areas / sizeof areas[0]; a++) {
				struct sv_panel_area ar = {
					3, 2, areas[a].w, areas[a].h, _i == 1};
				sv_panel_clamp(&p, &es);
				p.list.top = areas[a].top;
				p.list.cur = p.list.top;
				cut += assert_elided(
					&es, &p, &ar, areas[a].nshown);
			}
		}
	}
	/* the cases are ones where names are cut */
	ck_assert_int_gt(cut, 100);
	sv_session_fini(&es);
	sv_profile_free(ep);
}
END_TEST

static Suite *suite(void)
{
	Suite *su = suite_create("panel");
	TCase *tc;

	tc = tcase_create("columns");
	tcase_add_loop_test(tc, test_col_key_round_trip, 0, SV_PANEL_COL_COUNT);
	tcase_add_test(tc, test_col_key_outside);
	tcase_add_loop_test(
		tc, test_col_by_name, 0, sizeof by_name / sizeof by_name[0]);
	suite_add_tcase(su, tc);

	tc = tcase_create("moves");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_moves, 0, sizeof moves / sizeof moves[0]);
	tcase_add_test(tc, test_chosen_columns);
	tcase_add_test(tc, test_moves_empty_table);
	tcase_add_test(tc, test_clamp);
	tcase_add_test(tc, test_mark);
	tcase_add_test(tc, test_back);
	suite_add_tcase(su, tc);

	tc = tcase_create("sort");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_sort_cycle);
	suite_add_tcase(su, tc);

	tc = tcase_create("hits");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_row_at, 0, sizeof hits / sizeof hits[0]);
	tcase_add_test(tc, test_row_at_hidden);
	suite_add_tcase(su, tc);

	tc = tcase_create("elision");
	tcase_add_loop_test(tc, test_elided_names, 0, 2);
	suite_add_tcase(su, tc);

	tc = tcase_create("golden");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_stats_view_golden);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return svt_run(suite());
}
