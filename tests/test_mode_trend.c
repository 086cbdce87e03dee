/*
 * test_mode_trend.c: the trend view (`:view trend`, E; mode_trend.c and
 * mode_trend_draw.c): its region (the marked one, else the default the
 * other views open on), the list keys along the iterations, the chart's
 * mouse, zoom, the rank rows, the next change point, the metric, Enter
 * onto the timeline, Esc and q, the worker for a large region with its
 * progress and its cancellation, a new rank filter and a profile
 * without calls; golden screens of a small run and of gen's slowdown
 * run (the change point marked, Enter landing on its call).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/action.h"
#include "scopeview/gen.h"
#include "scopeview/keys.h"
#include "scopeview/load.h"
#include "scopeview/mode.h"
#include "scopeview/timeline.h"
#include "scopeview/trend.h"
#include "scopeview/view.h"
#include "viewtest.h"

#define NRANKS 4
#define NITER  60
#define SLOW   2  /* the rank that slows down */
#define FROM   30 /* from this iteration on */

static struct sv_profile *prof;
static struct sv_view v;

/* Four ranks of NITER "step" calls, each with a "work" call inside;
 * rank SLOW's steps take 60% longer from iteration FROM on. */
static struct sv_profile *small_profile(void)
{
	static struct vt_call c[NRANKS * NITER * 2];
	size_t n = 0;
	uint32_t r;
	int64_t k;

	for (r = 0; r < NRANKS; r++)
		for (k = 0; k < NITER; k++) {
			int64_t t0 = k * 2000;
			int64_t d = 500 + (k * 7 + r * 13) % 11;
			if (r == SLOW && k >= FROM)
				d += 300;
			c[n++] = (struct vt_call){
				r, "step", t0, t0 + d, -1, -1, -1, 0};
			c[n++] = (struct vt_call){
				r, "work", t0 + 10, t0 + d - 10, -1, -1, -1, 0};
		}
	return vt_profile(c, n, VT_START);
}

static void setup(void)
{
	struct sv_error err;
	prof = small_profile();
	ck_assert_int_eq(sv_view_init(&v, prof, NULL, &err), 0);
	sv_view_resize(&v, 100, 30);
}

static void teardown(void)
{
	sv_view_fini(&v);
	sv_profile_free(prof);
}

static int keys(const char *script)
{
	return vt_keys(&v, script);
}

/* The trend mode's own state ("cur=3 n=40 ..."). */
static const char *state(const struct sv_view *w)
{
	static char buf[256];
	struct sv_mode *m = sv_view_mode((struct sv_view *)w, "trend");
	buf[0] = '\0';
	if (m)
		m->ops->describe(m, buf, sizeof buf);
	return buf;
}

static long field(const struct sv_view *w, const char *key)
{
	char pat[32];
	const char *at;
	snprintf(pat, sizeof pat, "%s=", key);
	at = strstr(state(w), pat);
	ck_assert_msg(at != NULL, "%s: no %s", state(w), key);
	return strtol(at + strlen(pat), NULL, 10);
}

static void golden(struct sv_view *w, const char *name)
{
	struct sv_grid g;
	sv_grid_init(&g);
	sv_grid_resize(&g, w->w, w->h);
	sv_render(&g, w);
	vt_golden(&g, name);
	sv_grid_fini(&g);
}

static const char *main_name(struct sv_view *w)
{
	return sv_view_main_mode(w)->ops->name;
}

/* ---- the view on a small run ------------------------------------------- */

START_TEST(test_opens_on_default_region)
{
	/* given nothing marked, when E is pressed, then the trend of the
	 * region of the most time, marked and said */
	keys("E");
	ck_assert_str_eq(main_name(&v), "trend");
	ck_assert_str_eq(prof->regions[v.s.mark_region], "step");
	ck_assert_ptr_nonnull(strstr(v.s.message, "most time"));
	ck_assert_int_eq(field(&v, "n"), NITER);
	ck_assert_int_eq(field(&v, "changes"), 1);
	ck_assert_int_eq(field(&v, "busy"), 0);
	golden(&v, "trend_small");
	/* :view trend reaches the same view */
	keys("Escape");
	ck_assert_str_eq(main_name(&v), "timeline");
	keys(": v i e w Space t r e n d Enter");
	ck_assert_str_eq(main_name(&v), "trend");
}
END_TEST

START_TEST(test_marked_region)
{
	/* given work marked, the trend follows it; marking step while the
	 * view is not shown gives step's on the next E */
	sv_session_mark_region(&v.s, sv_profile_find_region(prof, "work"));
	keys("E");
	ck_assert_int_eq(
		field(&v, "region"), sv_profile_find_region(prof, "work"));
	keys("Escape");
	sv_session_mark_region(&v.s, sv_profile_find_region(prof, "step"));
	keys("E");
	ck_assert_int_eq(
		field(&v, "region"), sv_profile_find_region(prof, "step"));
	/* and another region marked while the view is shown (the session
	 * says so to every mode) is followed at once; a mark cleared keeps
	 * the trend shown */
	sv_session_mark_region(&v.s, sv_profile_find_region(prof, "work"));
	ck_assert_str_eq(main_name(&v), "trend");
	ck_assert_int_eq(
		field(&v, "region"), sv_profile_find_region(prof, "work"));
	sv_session_mark_region(&v.s, -1);
	ck_assert_int_eq(
		field(&v, "region"), sv_profile_find_region(prof, "work"));
	ck_assert_int_eq(field(&v, "n"), NITER);
}
END_TEST

START_TEST(test_list_keys)
{
	keys("E");
	/* j, k, counts, G, g, 24G and pages move along the iterations */
	keys("j j j");
	ck_assert_int_eq(field(&v, "cur"), 3);
	keys("5 j k");
	ck_assert_int_eq(field(&v, "cur"), 7);
	keys("G");
	ck_assert_int_eq(field(&v, "cur"), NITER - 1);
	ck_assert(keys("j") & SV_REACT_BELL);
	keys("g");
	ck_assert_int_eq(field(&v, "cur"), 0);
	keys("2 4 G");
	ck_assert_int_eq(field(&v, "cur"), 23);
	keys("PageDown");
	ck_assert_int_gt(field(&v, "cur"), 23);
	keys("PageUp PageUp");
	ck_assert_int_lt(field(&v, "cur"), 23);
	keys("End");
	ck_assert_int_eq(field(&v, "cur"), NITER - 1);
	keys("Home");
	ck_assert_int_eq(field(&v, "cur"), 0);
	/* c goes to the change point, and round again */
	keys("g c");
	ck_assert_int_eq(field(&v, "cur"), FROM);
	ck_assert_ptr_nonnull(strstr(v.s.message, "rank 2"));
	keys("c");
	ck_assert_int_eq(field(&v, "cur"), FROM);
	golden(&v, "trend_small_change");
	/* q leaves the view (it does not quit), and so does Esc; E comes
	 * back to the same iteration */
	ck_assert(!(keys("q") & SV_REACT_QUIT));
	ck_assert_str_eq(main_name(&v), "timeline");
	keys("E");
	ck_assert_str_eq(main_name(&v), "trend");
	ck_assert_int_eq(field(&v, "cur"), FROM);
	ck_assert(!(keys("Escape") & SV_REACT_QUIT));
	ck_assert_str_eq(main_name(&v), "timeline");
}
END_TEST

START_TEST(test_enter_selects_slowest_call)
{
	const struct sv_timeline *tl;
	uint32_t c;

	/* given the cursor on the change point, when Enter, then the
	 * timeline with rank 2's step of that iteration selected and in
	 * view */
	keys("E c Enter");
	ck_assert_str_eq(main_name(&v), "timeline");
	c = v.s.sel;
	ck_assert_uint_ne(c, SV_NO_CALL);
	ck_assert_str_eq(prof->regions[sv_call_region(prof, c)], "step");
	ck_assert_uint_eq(sv_call_rank(prof, c), SLOW);
	ck_assert_int_eq(sv_profile_start(prof, c), FROM * 2000);
	tl = sv_view_timeline(&v);
	ck_assert_int_le(tl->t0, sv_profile_start(prof, c));
	ck_assert_int_ge(tl->t1, sv_profile_end(prof, c));
	/* back in the view, the cursor is where it was */
	keys("E");
	ck_assert_int_eq(field(&v, "cur"), FROM);
	/* q closes the view, Q quits from it */
	ck_assert(!(keys("q") & SV_REACT_QUIT));
	ck_assert_str_eq(main_name(&v), "timeline");
	ck_assert(keys("E Q") & SV_REACT_QUIT);
}
END_TEST

START_TEST(test_mouse)
{
	char script[64];
	int x0 = 9, chart_y = 2;

	keys("E");
	/* a column is an iteration here (60 fit in 90 columns) */
	ck_assert_int_eq(field(&v, "per"), 1);
	snprintf(script, sizeof script, "Click:%d,%d", x0 + 5, chart_y + 3);
	keys(script);
	ck_assert_int_eq(field(&v, "cur"), 5);
	/* beyond the last iteration: nothing */
	snprintf(script, sizeof script, "Click:%d,%d", x0 + NITER, chart_y + 3);
	ck_assert(keys(script) & SV_REACT_BELL);
	ck_assert_int_eq(field(&v, "cur"), 5);
	/* the marks row: the change point there */
	snprintf(script, sizeof script, "Click:%d,%d", x0 + FROM, 1);
	keys(script);
	ck_assert_int_eq(field(&v, "cur"), FROM);
	/* a click on the table's rows is the list's: its row */
	keys("g");
	snprintf(script, sizeof script, "Click:%d,%d", 20, 30 - 1 - 1 - 3);
	keys(script);
	ck_assert_int_gt(field(&v, "cur"), 0);
	/* a click on the cursor's column is Enter */
	keys("g");
	snprintf(script, sizeof script, "Click:%d,%d", x0, chart_y + 1);
	keys(script);
	ck_assert_str_eq(main_name(&v), "timeline");
	ck_assert_uint_ne(v.s.sel, SV_NO_CALL);
}
END_TEST

START_TEST(test_zoom_and_rank_rows)
{
	struct sv_grid g;

	keys("E");
	/* nothing to zoom when every iteration has a column */
	ck_assert(keys("+") & SV_REACT_BELL);
	ck_assert(keys("-") & SV_REACT_BELL);
	/* narrower: two iterations a column, then one */
	sv_view_resize(&v, 50, 30);
	ck_assert_int_eq(field(&v, "per"), 2);
	keys("c +");
	ck_assert_int_eq(field(&v, "per"), 1);
	ck_assert(keys("+") & SV_REACT_BELL);
	keys("-");
	ck_assert_int_eq(field(&v, "per"), 2);
	/* b: a row a rank */
	sv_view_resize(&v, 100, 30);
	keys("b");
	ck_assert_int_eq(field(&v, "spark"), 1);
	golden(&v, "trend_small_ranks");
	keys("b");
	ck_assert_int_eq(field(&v, "spark"), 0);
	/* too small a screen says so */
	sv_view_resize(&v, 40, 12);
	sv_grid_init(&g);
	sv_grid_resize(&g, 40, 12);
	sv_render(&g, &v);
	sv_grid_fini(&g);
}
END_TEST

START_TEST(test_metric)
{
	keys("E");
	keys("x");
	ck_assert_int_eq(field(&v, "metric"), SV_TREND_EXCLUSIVE);
	ck_assert_int_eq(field(&v, "n"), NITER);
	/* step's exclusive time is 20 ns a call: no change point */
	ck_assert_int_eq(field(&v, "changes"), 0);
	ck_assert(keys("c") & SV_REACT_BELL);
	keys("x");
	ck_assert_int_eq(field(&v, "metric"), SV_TREND_DURATION);
	ck_assert_int_eq(field(&v, "changes"), 1);
}
END_TEST

START_TEST(test_rank_filter)
{
	keys("E G");
	/* given the view shown, when the rank filter leaves rank 2 out,
	 * then the trend is made again over three ranks: no change */
	ck_assert_int_eq(sv_session_set_ranks(&v.s, "0,1,3"), 0);
	ck_assert_int_eq(field(&v, "changes"), 0);
	ck_assert_int_eq(field(&v, "cur"), NITER - 1);
	/* and while not shown, on the next E */
	keys("Escape");
	ck_assert_int_eq(sv_session_set_ranks(&v.s, ""), 0);
	keys("E");
	ck_assert_int_eq(field(&v, "changes"), 1);
}
END_TEST

START_TEST(test_ascii)
{
	struct sv_view w;
	struct sv_view_opts o = {.ascii = true};
	struct sv_error err;

	ck_assert_int_eq(sv_view_init(&w, prof, &o, &err), 0);
	sv_view_resize(&w, 100, 30);
	vt_keys(&w, "E c b");
	golden(&w, "trend_small_ascii");
	sv_view_fini(&w);
}
END_TEST

START_TEST(test_narrow)
{
	/* given an 80x24 terminal, the title's short form keeps drift and
	 * jitter, and the chart, axis and table still fit */
	sv_view_resize(&v, 80, 24);
	keys("E c");
	golden(&v, "trend_small_narrow");
}
END_TEST

START_TEST(test_styles_in_both_themes)
{
	/* the chart's line reads on a dark and on a light background */
	const struct sv_style_attr *dark =
		sv_grid_theme_attr(SV_THEME_DARK, SV_STYLE_CHART_LINE);
	const struct sv_style_attr *light =
		sv_grid_theme_attr(SV_THEME_LIGHT, SV_STYLE_CHART_LINE);
	ck_assert_ptr_nonnull(dark);
	ck_assert_ptr_nonnull(light);
	ck_assert_int_eq(dark->fg, 15);
	ck_assert_int_eq(light->fg, 0);
	ck_assert_str_eq(sv_grid_style_name(SV_STYLE_CHART_LINE), "CHART_LINE");
}
END_TEST

START_TEST(test_no_calls)
{
	struct sv_profile *p = sv_profile_new("agg.h5");
	struct sv_view w;
	struct sv_error err;
	struct sv_row *r;
	struct sv_grid g;
	char *dump;

	/* an aggregate profile: no iterations to follow, said on screen */
	p->layout = SV_LAYOUT_AGGREGATE;
	p->has_calls = false;
	sv_profile_add_region(p, "solve");
	r = sv_profile_add_row(p, 0, 0, 10, NULL);
	r->has_summary = true;
	r->summary.total = 5000;
	r->summary.minimum = 100;
	r->summary.maximum = 900;
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	ck_assert_int_eq(sv_view_init(&w, p, NULL, &err), 0);
	sv_view_resize(&w, 100, 30);
	vt_keys(&w, "E");
	ck_assert_str_eq(main_name(&w), "trend");
	ck_assert_int_eq(field(&w, "n"), 0);
	ck_assert(vt_keys(&w, "Enter") & SV_REACT_BELL);
	sv_grid_init(&g);
	sv_grid_resize(&g, 100, 30);
	sv_render(&g, &w);
	dump = vt_grid_dump(&g);
	ck_assert_ptr_nonnull(strstr(dump, "no per-call data"));
	free(dump);
	sv_grid_fini(&g);
	sv_view_fini(&w);
	sv_profile_free(p);
}
END_TEST

/* ---- a large region: the worker ------------------------------------------- */

START_TEST(test_worker)
{
	size_t n = 2 * 60000, i;
	struct vt_call *many = calloc(n, sizeof *many);
	struct sv_profile *p;
	struct sv_view w;
	struct sv_error err;
	struct sv_grid g;
	int spins = 0;
	bool drew_progress = false;

	for (i = 0; i < n; i++) {
		int64_t k = (int64_t)(i / 2);
		many[i] = (struct vt_call){(uint32_t)(i % 2), "k", k * 100,
			k * 100 + 40 + (i % 2 && k >= 30000 ? 30 : 0) + k % 3,
			-1, -1, -1, 0};
	}
	p = vt_profile(many, n, VT_START);
	free(many);
	ck_assert_int_eq(sv_view_init(&w, p, NULL, &err), 0);
	sv_view_resize(&w, 120, 40);
	sv_grid_init(&g);
	sv_grid_resize(&g, 120, 40);
	/* given a region of 120,000 calls, E starts a worker and returns */
	vt_keys(&w, "E");
	ck_assert_int_eq(field(&w, "busy"), 1);
	/* Esc stops it: nothing taken in, made again when shown */
	vt_keys(&w, "Escape");
	ck_assert_str_eq(main_name(&w), "timeline");
	ck_assert_int_eq(field(&w, "busy"), 0);
	ck_assert_int_eq(field(&w, "n"), 0);
	vt_keys(&w, "E");
	ck_assert_int_eq(field(&w, "busy"), 1);
	/* the screen shows its progress meanwhile, never a wait */
	while (sv_view_busy(&w) && spins++ < 1000000) {
		sv_grid_clear(&g);
		sv_render(&g, &w);
		if (field(&w, "busy")) {
			char *dump = vt_grid_dump(&g);
			drew_progress |= strstr(dump, "computing the trend of "
						      "120000 calls") != NULL;
			free(dump);
		}
		sv_view_poll(&w);
	}
	ck_assert(!sv_view_busy(&w));
	ck_assert(drew_progress);
	ck_assert_int_eq(field(&w, "busy"), 0);
	ck_assert_int_eq(field(&w, "n"), 60000);
	ck_assert_int_eq(field(&w, "changes"), 1);
	/* the rank rows over 60,000 iterations from the prefix sums */
	vt_keys(&w, "b c");
	ck_assert_int_eq(field(&w, "cur"), 30000);
	sv_render(&g, &w);
	/* x starts another; a second x while it runs drops it for the
	 * next */
	vt_keys(&w, "x x");
	ck_assert(sv_view_settle(&w, 20000));
	ck_assert_int_eq(field(&w, "metric"), SV_TREND_DURATION);
	ck_assert_int_eq(field(&w, "n"), 60000);
	ck_assert_int_eq(field(&w, "cur"), 30000);
	sv_grid_fini(&g);
	sv_view_fini(&w);
	sv_profile_free(p);
}
END_TEST

/* ---- many ranks: the rank rows grouped --------------------------------- */

START_TEST(test_grouped_rank_rows)
{
	enum { R = 120, K = 20, SLOWR = 77 };
	struct vt_call *c = calloc(R * K, sizeof *c);
	struct sv_profile *p;
	struct sv_view w;
	struct sv_error err;
	struct sv_grid g;
	char *dump, *line, *save = NULL;
	int rows = 0, marked = 0;
	size_t n = 0;
	uint32_t r;
	int64_t k;

	/* given 120 ranks whose steps take 500ns, rank 77's 1000ns from
	 * iteration 10 */
	for (r = 0; r < R; r++)
		for (k = 0; k < K; k++) {
			int64_t d = 500 + (r == SLOWR && k >= 10 ? 500 : 0);
			c[n++] = (struct vt_call){r, "step", k * 2000,
				k * 2000 + d, -1, -1, -1, 0};
		}
	p = vt_profile(c, n, VT_START);
	free(c);
	ck_assert_int_eq(sv_view_init(&w, p, NULL, &err), 0);
	sv_view_resize(&w, 100, 40);
	/* when b is pressed in the trend */
	vt_keys(&w, "E b");
	sv_grid_init(&g);
	sv_grid_resize(&g, 100, 40);
	sv_render(&g, &w);
	dump = vt_grid_dump(&g);
	/* then the ranks share rows ("rA-B"), and only the row holding
	 * rank 77 reaches the top block, from iteration 10 on */
	for (line = strtok_r(dump, "\n", &save); line;
		line = strtok_r(NULL, "\n", &save)) {
		unsigned a, b;
		if (sscanf(line, " r%u-%u", &a, &b) != 2)
			continue;
		rows++;
		ck_assert_uint_lt(a, b);
		if (strstr(line, "\xe2\x96\x88")) { /* U+2588 */
			marked++;
			ck_assert_uint_le(a, SLOWR);
			ck_assert_uint_ge(b, SLOWR);
		}
	}
	ck_assert_int_gt(rows, 1);
	ck_assert_int_lt(rows, R);
	ck_assert_int_eq(marked, 1);
	free(dump);
	golden(&w, "trend_grouped");
	sv_grid_fini(&g);
	sv_view_fini(&w);
	sv_profile_free(p);
}
END_TEST

/* ---- gen's slowdown run -------------------------------------------------- */

START_TEST(test_generated_slowdown)
{
	struct sv_gen_opts o;
	struct sv_error err = {0};
	struct sv_profile *p;
	struct sv_view w;
	struct sv_trend t;
	struct sv_view_opts vo = {.title = "slowdown.h5"};
	long step;
	char *path = svt_tmp_path("trendview.h5");

	/* given gen's run with rank 2's timesteps 40% longer from 300 */
	sv_gen_opts_init(&o);
	o.events = 120000;
	o.seed = 5;
	o.slowdown = true;
	o.slowdown_rank = 2;
	o.slowdown_step = 300;
	o.slowdown_factor = 1.4;
	ck_assert_msg(
		sv_gen_write(path, &o, NULL, NULL, &err) == 0, "%s", err.msg);
	ck_assert_msg(sv_load(path, NULL, &p, &err) == 0, "%s", err.msg);
	step = sv_profile_find_region(p, "timestep");
	ck_assert_int_ge(step, 0);
	ck_assert_int_eq(
		sv_trend_compute(&t, p, (uint32_t)step, NULL, &err), 0);
	ck_assert_int_eq(sv_view_init(&w, p, &vo, &err), 0);
	sv_view_resize(&w, 160, 45);
	/* when timestep is marked and E, c pressed */
	vt_keys(&w, ": r e g i o n Space t i m e s t e p Enter E c");
	ck_assert(sv_view_settle(&w, 20000));
	/* then the change point is marked with its rank, the cursor on it */
	ck_assert_int_eq(field(&w, "changes"), 1);
	ck_assert_int_eq(field(&w, "cur"), 300);
	golden(&w, "trend_slowdown");
	/* and Enter lands on rank 2's 300th timestep, its slowest call */
	vt_keys(&w, "Enter");
	ck_assert_str_eq(main_name(&w), "timeline");
	ck_assert_uint_eq(w.s.sel, t.points[300].max_call);
	ck_assert_uint_eq(sv_call_rank(p, w.s.sel), 2);
	ck_assert_uint_eq(t.calls[t.off[2] + 300], w.s.sel);
	golden(&w, "trend_slowdown_enter");
	sv_trend_fini(&t);
	sv_view_fini(&w);
	sv_profile_free(p);
	free(path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("mode_trend");
	TCase *tc = tcase_create("small");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_opens_on_default_region);
	tcase_add_test(tc, test_marked_region);
	tcase_add_test(tc, test_list_keys);
	tcase_add_test(tc, test_enter_selects_slowest_call);
	tcase_add_test(tc, test_mouse);
	tcase_add_test(tc, test_zoom_and_rank_rows);
	tcase_add_test(tc, test_metric);
	tcase_add_test(tc, test_rank_filter);
	tcase_add_test(tc, test_ascii);
	tcase_add_test(tc, test_narrow);
	tcase_add_test(tc, test_styles_in_both_themes);
	suite_add_tcase(s, tc);
	tc = tcase_create("large");
	tcase_add_test(tc, test_no_calls);
	tcase_add_test(tc, test_worker);
	tcase_add_test(tc, test_grouped_rank_rows);
	tcase_add_test(tc, test_generated_slowdown);
	suite_add_tcase(s, tc);
	return svt_run(s);
}
