/*
 * test_overview.c: the overview strip: its time map is the whole run,
 * its activity is the share of the shown lanes' time their top-level
 * calls cover, each column of the strip shows it (on lanes of many
 * calls, one hidden), it marks the window, and a click on it moves the
 * window.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/keys.h"
#include "scopeview/overview.h"
#include "scopeview/render.h"
#include "scopeview/timeline.h"
#include "scopeview/view.h"
#include "viewtest.h"

/* Two lanes: rank 0 busy over [0, 500), rank 1 over [0, 1000). */
static const struct vt_call calls[] = {
	{0, "a", 0, 500, -1, -1, -1, 0},
	{1, "b", 0, 1000, -1, -1, -1, 0},
	{1, "c", 100, 200, -1, -1, -1, 0},
};

START_TEST(test_activity)
{
	struct sv_profile *p = vt_profile(calls, 3, VT_START);
	struct sv_session s;
	struct sv_error err;
	struct sv_tmap m;

	ck_assert_int_eq(sv_session_init(&s, p, NULL, &err), 0);
	/* the map is the whole run */
	m = sv_overview_tmap(&s, 10, 100);
	ck_assert_int_eq(m.t0, 0);
	ck_assert_int_eq(m.t1, 1000);
	ck_assert_int_eq(m.x0, 10);
	/* both lanes busy in the first half, one in the second */
	ck_assert_double_eq_tol(sv_overview_activity(&s, 0, 500), 1.0, 1e-9);
	ck_assert_double_eq_tol(sv_overview_activity(&s, 500, 1000), 0.5, 1e-9);
	ck_assert_double_eq_tol(sv_overview_activity(&s, 250, 750), 0.75, 1e-9);
	/* only depth 0 counts: c inside b adds nothing */
	ck_assert_double_eq_tol(sv_overview_activity(&s, 100, 200), 1.0, 1e-9);
	/* a hidden lane does not count */
	sv_session_solo(&s, 0);
	ck_assert_double_eq_tol(sv_overview_activity(&s, 500, 1000), 0, 1e-9);
	ck_assert_double_eq_tol(sv_overview_activity(&s, 0, 500), 1.0, 1e-9);
	/* degenerate ranges */
	ck_assert_double_eq_tol(sv_overview_activity(&s, 10, 10), 0, 1e-9);
	m = sv_overview_tmap(&s, 0, 0);
	ck_assert(!sv_tmap_valid(&m));
	sv_session_fini(&s);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_strip_and_click)
{
	struct sv_profile *p = vt_profile(calls, 3, VT_START);
	struct sv_view v;
	struct sv_error err;
	struct sv_grid g;
	const struct sv_timeline *tl;
	const struct sv_cell *c;
	int x, marked = 0, y;
	int64_t t0, span;
	char key[32];

	ck_assert_int_eq(sv_view_init(&v, p, NULL, &err), 0);
	sv_view_resize(&v, 100, 30);
	/* given a zoomed window */
	sv_view_handle_key(&v, '+');
	sv_view_handle_key(&v, '+');
	tl = v.mains[v.main].data;
	y = tl->geom.overview_y;
	ck_assert_int_gt(y, 0);
	ck_assert_int_eq(tl->geom.lanes_y, y + 1);
	sv_grid_init(&g);
	sv_render(&g, &v);
	/* the strip's label, and the window's columns marked with
	 * brackets at both ends */
	ck_assert_uint_eq(sv_grid_cell(&g, 1, y)->ch, 'o');
	for (x = tl->geom.tl_x; x < tl->geom.tl_x + tl->geom.tl_w; x++) {
		c = sv_grid_cell(&g, x, y);
		if (c->style == SV_STYLE_PANEL_MARK)
			marked++;
		else
			ck_assert_uint_ne(c->ch, ' ');
	}
	ck_assert_int_gt(marked, 2);
	ck_assert_int_lt(marked, tl->geom.tl_w);
	/* when the strip's last column is clicked */
	t0 = tl->t0;
	span = tl->t1 - tl->t0;
	snprintf(key, sizeof key, "Click:%d,%d",
		tl->geom.tl_x + tl->geom.tl_w - 1, y);
	{
		int k;
		ck_assert_int_eq(sv_key_parse(key, &k, &err), 0);
		sv_view_handle_key(&v, k);
	}
	/* then the window moves to the run's end, same span, inside the
	 * run, and Esc goes back */
	ck_assert_int_gt(tl->t0, t0);
	ck_assert_int_eq(tl->t1 - tl->t0, span);
	ck_assert_int_le(tl->t0, 1000);
	ck_assert_int_ge(tl->cur_t, tl->t0);
	ck_assert_int_lt(tl->cur_t, tl->t1);
	sv_view_handle_key(&v, SV_KEY_ESCAPE);
	ck_assert_int_eq(tl->t0, t0);
	/* a small screen has no strip */
	sv_view_resize(&v, 60, 10);
	ck_assert_int_eq(tl->geom.overview_y, 0);
	sv_grid_fini(&g);
	sv_view_fini(&v);
	sv_profile_free(p);
}
END_TEST

/* Lanes of many top-level calls of random lengths and gaps, one lane
 * hidden: each column of the strip shows the eighth block of
 * sv_overview_activity over its range (the strip walks the lanes once;
 * the activity searches each column). */
START_TEST(test_strip_columns)
{
	enum { CALLS = 3000 };
	struct vt_call *many = calloc(CALLS, sizeof *many);
	unsigned seed = 7u + (unsigned)_i;
	struct sv_profile *p;
	struct sv_session s;
	struct sv_error err;
	struct sv_grid g;
	struct sv_tmap m;
	int64_t t[3] = {0, 0, 0};
	size_t i;
	int x, w = 40 + 70 * _i, checked = 0;

	ck_assert_ptr_nonnull(many);
	for (i = 0; i < CALLS; i++) {
		uint32_t r = (uint32_t)(rand_r(&seed) % 3);
		/* about as long a lane each: mostly busy, mostly idle,
		 * half and half */
		static const int gaps[3] = {300, 5000, 2600},
				 lens[3] = {5000, 300, 2600};
		int64_t gap = rand_r(&seed) % gaps[r],
			len = 1 + rand_r(&seed) % lens[r];
		many[i] = (struct vt_call){
			r, "k", t[r] + gap, t[r] + gap + len, -1, -1, -1, 0};
		t[r] += gap + len;
	}
	p = vt_profile(many, CALLS, VT_START);
	ck_assert_int_eq(sv_session_init(&s, p, NULL, &err), 0);
	if (_i == 1)
		sv_session_solo(&s, 2);
	sv_grid_init(&g);
	sv_grid_resize(&g, 10 + w, 3);
	/* a window past the run's end: no column marked */
	sv_overview_draw(&g, &s, 10, w, 1, s.run_t1 + 10, s.run_t1 + 20);
	m = sv_overview_tmap(&s, 10, w);
	for (x = 10; x < 10 + w; x++) {
		static const uint32_t uni[8] = {0x2581, 0x2582, 0x2583, 0x2584,
			0x2585, 0x2586, 0x2587, 0x2588};
		double a = sv_overview_activity(
			&s, sv_tmap_time(&m, x), sv_tmap_time(&m, x + 1));
		int k = (int)(a * 8);
		uint32_t want = ' ';
		if (a > 0)
			want = uni[k < 0 ? 0 : k > 7 ? 7 : k];
		ck_assert_uint_eq(sv_grid_cell(&g, x, 1)->ch, want);
		checked += want != ' ' && want != uni[7];
	}
	/* the lanes are partly busy in most columns */
	ck_assert_int_gt(checked, w / 2);
	sv_grid_fini(&g);
	sv_session_fini(&s);
	sv_profile_free(p);
	free(many);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("overview");
	TCase *tc = tcase_create("overview");
	tcase_add_test(tc, test_activity);
	tcase_add_test(tc, test_strip_and_click);
	tcase_add_loop_test(tc, test_strip_columns, 0, 2);
	suite_add_tcase(s, tc);
	return svt_run(s);
}
