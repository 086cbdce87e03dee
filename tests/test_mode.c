/*
 * test_mode.c: the mode table (mode.h) and the viewer's stack of modes
 * (view.c): which main mode a profile starts on, switching main modes
 * with `:view` and V while the session's state carries over, popups and
 * prompts pushed, replaced and popped by their keys, the bell for keys
 * nobody binds, the mouse, and a screen too small for anything but q;
 * golden screens of the call tree, the flame graph and a marked range.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/action.h"
#include "scopeview/keys.h"
#include "scopeview/mode.h"
#include "scopeview/timeline.h"
#include "scopeview/view.h"
#include "viewtest.h"

#define TL(v) sv_view_timeline(v)

/* rank 0: main [0,1000) > child [100,500) > grandchild [200,300), child
 * [600,900); worker-1 work [50,400); rank 1: main [0,1200). */
static const struct vt_call calls[] = {
	{0, "main", 0, 1000, 0, -1, -1, 0},
	{0, "child", 100, 500, 0, -1, -1, 0},
	{0, "grandchild", 200, 300, 0, -1, -1, 0},
	{0, "child", 600, 900, 0, -1, -1, 0},
	{0, "work", 50, 400, 1, -1, -1, 0},
	{1, "main", 0, 1200, 0, -1, -1, 0},
};

static struct sv_profile *prof;
static struct sv_view v;

static void setup(void)
{
	struct sv_error err;
	prof = vt_profile(
		calls, sizeof calls / sizeof calls[0], VT_THREADS | VT_START);
	ck_assert_int_eq(sv_view_init(&v, prof, NULL, &err), 0);
	sv_view_resize(&v, 120, 40);
}

static void teardown(void)
{
	sv_view_fini(&v);
	sv_profile_free(prof);
}

/* Feed a key script to v; returns the OR of the flags. */
static int keys(const char *script)
{
	return vt_keys(&v, script);
}

static const struct sv_mode_ops *main_ops(void)
{
	return sv_view_main_mode(&v)->ops;
}

/* A profile of the aggregate layout: summary statistics, no calls. */
static struct sv_profile *aggregate_profile(void)
{
	struct sv_profile *p = sv_profile_new("agg.h5");
	struct sv_row *r;

	p->layout = SV_LAYOUT_AGGREGATE;
	p->has_calls = false;
	sv_profile_add_region(p, "solve");
	r = sv_profile_add_row(p, 0, 0, 10, NULL);
	r->has_summary = true;
	r->summary.total = 5000;
	r->summary.minimum = 100;
	r->summary.maximum = 900;
	r->exclusive_total = 4000;
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

/* ---- the table --------------------------------------------------------- */

static const struct {
	const char *name;
	const struct sv_mode_ops *ops;
} finds[] = {
	{"timeline", &sv_mode_timeline},
	{"stats", &sv_mode_stats},
	{"nope", NULL},
	{"popup", NULL}, /* not a main mode */
	{"prompt", NULL},
	{"", NULL},
	{"Timeline", NULL}, /* names are case sensitive */
	{NULL, NULL},
};

START_TEST(test_find)
{
	ck_assert_ptr_eq(sv_mode_find(finds[_i].name), finds[_i].ops);
}
END_TEST

START_TEST(test_table_entries)
{
	size_t i, j;

	/* the order V steps through: the timeline first */
	ck_assert_ptr_eq(sv_mode_table[0], &sv_mode_timeline);
	ck_assert_ptr_eq(sv_mode_table[1], &sv_mode_stats);
	for (i = 0; sv_mode_table[i]; i++) {
		const struct sv_mode_ops *m = sv_mode_table[i];
		ck_assert_msg(i < SV_VIEW_MAINS, "more main modes than slots");
		ck_assert(m->main);
		ck_assert_ptr_nonnull(m->name);
		ck_assert_ptr_nonnull(m->title);
		ck_assert_str_ne(m->name, "");
		ck_assert_str_ne(m->title, "");
		ck_assert(m->apply != NULL);
		ck_assert(m->draw != NULL);
		ck_assert_uint_ne(m->scopes[0], 0);
		ck_assert_ptr_eq(sv_mode_find(m->name), m);
		for (j = 0; j < i; j++)
			ck_assert_str_ne(sv_mode_table[j]->name, m->name);
	}
	ck_assert_uint_eq(i, 5);
	/* popups and prompts are not main modes */
	ck_assert(!sv_mode_popup.main);
	ck_assert(!sv_mode_prompt.main);
}
END_TEST

/* ---- the main modes ---------------------------------------------------- */

START_TEST(test_start_mode)
{
	struct sv_view w;
	struct sv_error err = {0};
	struct sv_profile *agg = aggregate_profile();

	/* a profile with calls starts on the timeline */
	ck_assert_ptr_eq(main_ops(), &sv_mode_timeline);
	ck_assert_ptr_nonnull(TL(&v));
	ck_assert_uint_eq(v.depth, 0);

	/* an aggregate profile on the statistics, the timeline not shown */
	ck_assert_int_eq(sv_view_init(&w, agg, NULL, &err), 0);
	ck_assert_ptr_eq(sv_view_main_mode(&w)->ops, &sv_mode_stats);
	ck_assert_ptr_null(sv_view_timeline(&w));
	ck_assert_uint_eq(w.s.stats.nregions, 1);
	sv_view_fini(&w);

	/* no profile: no view */
	ck_assert_int_eq(sv_view_init(&w, NULL, NULL, &err), -EINVAL);
	sv_profile_free(agg);
}
END_TEST

START_TEST(test_view_command)
{
	int rc;

	/* when `:view stats` is typed */
	rc = keys(": v i e w Space s t a t s Enter");
	/* then the statistics are shown and the prompt is gone */
	ck_assert(rc & SV_REACT_REDRAW);
	ck_assert_ptr_eq(main_ops(), &sv_mode_stats);
	ck_assert_uint_eq(v.depth, 0);

	/* when `view nope` is asked for: the mode stays, the message says
	 * what there is */
	rc = sv_view_command(&v, "view nope");
	ck_assert(rc & SV_REACT_BELL);
	ck_assert_ptr_eq(main_ops(), &sv_mode_stats);
	ck_assert_ptr_nonnull(strstr(v.s.message, "no view 'nope'"));
	ck_assert_ptr_nonnull(strstr(v.s.message, "timeline"));
	ck_assert(v.s.message_is_error);

	/* and back with the command function */
	sv_view_command(&v, "  view timeline");
	ck_assert_ptr_eq(main_ops(), &sv_mode_timeline);
	ck_assert(sv_view_command(&v, "quit") & SV_REACT_QUIT);
	ck_assert(sv_view_command(&v, "bogus") & SV_REACT_BELL);
	ck_assert_ptr_nonnull(strstr(v.s.message, "bogus"));
}
END_TEST

START_TEST(test_view_next_keeps_state)
{
	struct sv_timeline *tl = TL(&v);
	int64_t t0, t1;
	uint32_t sel;

	/* given the timeline zoomed in and a call selected */
	keys("+ + d Tab");
	t0 = tl->t0;
	t1 = tl->t1;
	sel = v.s.sel;
	ck_assert_uint_ne(sel, SV_NO_CALL);
	ck_assert_int_gt(t0, 0);

	/* when V goes to the statistics: the session's selection is the
	 * selection there */
	keys("V");
	ck_assert_ptr_eq(main_ops(), &sv_mode_stats);
	ck_assert_uint_eq(v.s.sel, sel);

	/* and a region marked there (p, then Enter on the first row) ... */
	keys("p Enter");
	ck_assert_int_ge(v.s.mark_region, 0);

	/* when the view goes back: the same timeline, window and
	 * selection, and the marked region is still marked */
	keys(": v i e w Space t i m e l i n e Enter");
	ck_assert_ptr_eq(main_ops(), &sv_mode_timeline);
	ck_assert_ptr_eq(TL(&v), tl);
	ck_assert_int_eq(tl->t0, t0);
	ck_assert_int_eq(tl->t1, t1);
	ck_assert_uint_eq(v.s.sel, sel);
	ck_assert_int_ge(v.s.mark_region, 0);
	ck_assert_uint_gt(v.s.nmarked, 0);
	/* n walks through the marked region's calls */
	keys("n");
	ck_assert_uint_eq(sv_call_region(prof, v.s.sel), v.s.mark_region);
}
END_TEST

/* ---- popups and prompts ------------------------------------------------ */

/* A key script and the popup on top after it, with the stack's depth. */
static const struct {
	const char *script;
	int popup;
	size_t depth;
} popups[] = {
	{"?", SV_POPUP_HELP, 1},
	{"? q", SV_POPUP_NONE, 0},
	{"? i", SV_POPUP_METADATA, 1},
	{"i W", SV_POPUP_WARNINGS, 1},
	{"W ?", SV_POPUP_HELP, 1},
	{"? ? ?", SV_POPUP_HELP, 1},
	{"i Escape", SV_POPUP_NONE, 0},
	{"? BSpace", SV_POPUP_NONE, 0},
	{"F1 Enter", SV_POPUP_NONE, 0},
	{"? j j", SV_POPUP_HELP, 1},
	{"V ?", SV_POPUP_HELP, 1}, /* over the statistics too */
	{"V i q", SV_POPUP_NONE, 0},
};

START_TEST(test_popups)
{
	int rc = keys(popups[_i].script);

	ck_assert_msg(sv_view_popup(&v) == popups[_i].popup, "%s: popup %d",
		popups[_i].script, sv_view_popup(&v));
	ck_assert_uint_eq(v.depth, popups[_i].depth);
	/* q closes a popup; it quits only with none open */
	ck_assert(!(rc & SV_REACT_QUIT));
	ck_assert_int_eq(sv_view_prompt(&v), SV_PROMPT_NONE);
}
END_TEST

START_TEST(test_popup_scroll)
{
	/* given the help: j scrolls it, k back, and q on a closed popup
	 * quits */
	keys("? j j j k");
	ck_assert_int_eq(sv_mode_popup_top(sv_view_top(&v)), 2);
	keys("Home");
	ck_assert_int_eq(sv_mode_popup_top(sv_view_top(&v)), 0);
	ck_assert(!(keys("q") & SV_REACT_QUIT));
	ck_assert(keys("q") & SV_REACT_QUIT);
}
END_TEST

START_TEST(test_search_prompt)
{
	/* when / is pressed and text typed */
	keys("/");
	ck_assert_int_eq(sv_view_prompt(&v), SV_PROMPT_SEARCH);
	ck_assert_uint_eq(v.depth, 1);
	keys("c h i");
	ck_assert_str_eq(sv_mode_prompt_text(sv_view_top(&v)), "chi");
	keys("BSpace");
	ck_assert_str_eq(sv_mode_prompt_text(sv_view_top(&v)), "ch");

	/* then Escape pops it without searching */
	keys("Escape");
	ck_assert_int_eq(sv_view_prompt(&v), SV_PROMPT_NONE);
	ck_assert_uint_eq(v.depth, 0);
	ck_assert_str_eq(v.s.search_spec, "");
	ck_assert_uint_eq(v.s.sel, SV_NO_CALL);

	/* and Enter commits: the search is set and its first match (by
	 * time) selected */
	keys("/ c h i l d Enter");
	ck_assert_uint_eq(v.depth, 0);
	ck_assert_str_eq(v.s.search_spec, "child");
	ck_assert_uint_eq(v.s.nmatches, 3);
	ck_assert_uint_ne(v.s.sel, SV_NO_CALL);
	ck_assert_int_eq(prof->start_ns[v.s.sel], 100);

	/* BSpace on an empty prompt closes it; C-u clears what is typed */
	keys("/ a C-u");
	ck_assert_str_eq(sv_mode_prompt_text(sv_view_top(&v)), "");
	keys("BSpace");
	ck_assert_uint_eq(v.depth, 0);
	ck_assert_str_eq(v.s.search_spec, "child");
}
END_TEST

START_TEST(test_other_prompts)
{
	/* the filter prompt starts with the filter in force */
	ck_assert_int_eq(sv_session_set_filter(&v.s, "ma"), 0);
	keys("\\");
	ck_assert_int_eq(sv_view_prompt(&v), SV_PROMPT_FILTER);
	ck_assert_str_eq(sv_mode_prompt_text(sv_view_top(&v)), "ma");
	keys("C-u c h Enter");
	ck_assert_str_eq(v.s.filter_spec, "ch");
	/* the rank prompt applies on Enter */
	keys("r 1 Enter");
	ck_assert_str_eq(v.s.rank_spec, "1");
	/* a command prompt over the statistics goes to the viewer */
	keys("V : v i e w Space t i m e l i n e Enter");
	ck_assert_ptr_eq(main_ops(), &sv_mode_timeline);
}
END_TEST

/* ---- the bell, the mouse, a small screen ------------------------------- */

/* Keys that no scope of the mode on top binds. */
static const struct {
	const char *setup;
	const char *key;
} bells[] = {
	{"", "x"}, {"", "F5"},
	{"V", "h"}, /* a timeline key on the statistics */
	{"V", "t"}, {"?", "x"}, {"/", "F5"}, /* not text, not a prompt key */
};

START_TEST(test_bell)
{
	size_t depth;
	const struct sv_mode_ops *m;

	keys(bells[_i].setup);
	depth = v.depth;
	m = main_ops();
	ck_assert_msg(keys(bells[_i].key) & SV_REACT_BELL, "%s then %s",
		bells[_i].setup, bells[_i].key);
	/* and nothing else happens */
	ck_assert_uint_eq(v.depth, depth);
	ck_assert_ptr_eq(main_ops(), m);
}
END_TEST

START_TEST(test_click_closes_popup)
{
	struct sv_timeline *tl = TL(&v);
	char script[64];
	int64_t span;

	/* given the help open over the timeline */
	keys("?");
	ck_assert_uint_eq(v.depth, 1);
	/* when a lane is clicked: the popup closes and the click does not
	 * reach the timeline */
	snprintf(script, sizeof script, "Click:%d,%d", tl->geom.tl_x + 10,
		tl->geom.lanes_y);
	ck_assert(keys(script) & SV_REACT_REDRAW);
	ck_assert_uint_eq(v.depth, 0);
	ck_assert_uint_eq(v.s.sel, SV_NO_CALL);
	/* the next click does */
	keys(script);
	ck_assert_uint_ne(v.s.sel, SV_NO_CALL);

	/* the wheel under a prompt goes to the view below (which zooms),
	 * and the prompt stays open, as it always has */
	span = sv_timeline_span(tl);
	keys("/");
	snprintf(script, sizeof script, "WheelUp:%d,%d", tl->geom.tl_x + 10,
		tl->geom.lanes_y);
	keys(script);
	ck_assert_int_eq(sv_timeline_span(tl), span / 2);
	ck_assert_int_eq(sv_view_prompt(&v), SV_PROMPT_SEARCH);
	ck_assert_uint_eq(v.depth, 1);
}
END_TEST

START_TEST(test_no_mouse)
{
	struct sv_view w;
	struct sv_view_opts o = {false, true, NULL};
	struct sv_error err;

	/* with the mouse off, a click on an open popup does nothing */
	ck_assert_int_eq(sv_view_init(&w, prof, &o, &err), 0);
	sv_view_handle_key(&w, '?');
	ck_assert_int_eq(
		sv_view_handle_key(&w, sv_key_mouse(SV_MOUSE_CLICK, 50, 10)),
		0);
	ck_assert_int_eq(sv_view_popup(&w), SV_POPUP_HELP);
	sv_view_fini(&w);
}
END_TEST

START_TEST(test_too_small)
{
	static const char *const ignored[] = {
		"j", "?", "V", ":", "/", "x", "Escape", "Click:3,3"};
	size_t i;

	/* given a screen below the minimum */
	sv_view_resize(&v, SV_LAYOUT_MIN_W - 1, SV_LAYOUT_MIN_H);
	/* then every key but q does nothing */
	for (i = 0; i < sizeof ignored / sizeof ignored[0]; i++) {
		ck_assert_msg(keys(ignored[i]) == 0, "%s", ignored[i]);
		ck_assert_uint_eq(v.depth, 0);
		ck_assert_ptr_eq(main_ops(), &sv_mode_timeline);
	}
	ck_assert(keys("q") & SV_REACT_QUIT);
	/* and back to a usable size, keys work again */
	sv_view_resize(&v, SV_LAYOUT_MIN_W, SV_LAYOUT_MIN_H);
	keys("?");
	ck_assert_int_eq(sv_view_popup(&v), SV_POPUP_HELP);
}
END_TEST

/* ---- where the time goes: the tree and flame views ---------------------- */

/* rank 0: main > solve > kernel (twice), main > fib > fib > fib; rank 1:
 * main > solve. */
static const struct vt_call where_calls[] = {
	{0, "main", 0, 1000, 0, -1, -1, 0},
	{0, "solve", 100, 600, 0, -1, -1, 0},
	{0, "kernel", 150, 400, 0, -1, -1, 0},
	{0, "solve", 650, 900, 0, -1, -1, 0},
	{0, "kernel", 700, 800, 0, -1, -1, 0},
	{0, "fib", 920, 990, 0, -1, -1, 0},
	{0, "fib", 930, 980, 0, -1, -1, 0},
	{0, "fib", 940, 960, 0, -1, -1, 0},
	{1, "main", 0, 1200, 0, -1, -1, 0},
	{1, "solve", 100, 1100, 0, -1, -1, 0},
};

static const struct {
	const char *golden, *keys;
	int w, h;
} where_screens[] = {
	{"tree_view", "T", 100, 16},
	{"tree_all_search", "T * / k e r n Enter", 100, 16},
	{"tree_recursion_sorted", "T * e > >", 80, 14},
	{"flame_view", "F j", 100, 12},
	{"flame_zoomed_search", "F j Enter / k e r Enter", 100, 12},
	{"range_marked",
		"l l l l l l l l l l m l l l l l l l l l l l l l l "
		"l l l l l l M",
		100, 20},
	{"callers_solve", "T j c", 100, 14},
	{"callers_kernel_focus", "T j c j j Enter", 100, 14},
	{"tree_range",
		"l l l l l l l l l l m l l l l l l l l l l l l l l "
		"l l l l l l M T *",
		100, 16},
};

START_TEST(test_where_screens)
{
	struct sv_profile *p = vt_profile(where_calls,
		sizeof where_calls / sizeof where_calls[0],
		VT_THREADS | VT_START);
	struct sv_view w;
	struct sv_grid g;
	struct sv_error err;
	int *kv = NULL;
	size_t n = 0, i;

	/* given the profile at the screen's size */
	ck_assert_int_eq(sv_view_init(&w, p, NULL, &err), 0);
	sv_view_resize(&w, where_screens[_i].w, where_screens[_i].h);

	/* when the keys are pressed */
	ck_assert_int_eq(
		sv_keys_parse_script(where_screens[_i].keys, &kv, &n, &err), 0);
	for (i = 0; i < n; i++)
		sv_view_handle_key(&w, kv[i]);
	free(kv);

	/* then the screen is the golden one */
	sv_grid_init(&g);
	sv_render(&g, &w);
	vt_golden(&g, where_screens[_i].golden);
	sv_grid_fini(&g);
	sv_view_fini(&w);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_tree_enter_selects)
{
	struct sv_profile *p = vt_profile(where_calls,
		sizeof where_calls / sizeof where_calls[0],
		VT_THREADS | VT_START);
	struct sv_view w;
	struct sv_error err;
	int *kv = NULL;
	size_t n = 0, i;

	/* given the tree on main > solve (the widest child of main) */
	ck_assert_int_eq(sv_view_init(&w, p, NULL, &err), 0);
	sv_view_resize(&w, 100, 20);
	ck_assert_int_eq(sv_keys_parse_script("T j Enter", &kv, &n, &err), 0);
	for (i = 0; i < n; i++)
		sv_view_handle_key(&w, kv[i]);
	free(kv);

	/* then Enter shows the timeline with the path's longest call */
	ck_assert_ptr_eq(sv_view_main_mode(&w)->ops, &sv_mode_timeline);
	ck_assert_uint_ne(w.s.sel, SV_NO_CALL);
	ck_assert_str_eq(p->regions[sv_call_region(p, w.s.sel)], "solve");
	ck_assert_int_eq(sv_call_duration(p, w.s.sel), 1000);
	sv_view_fini(&w);
	sv_profile_free(p);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mode");
	TCase *tc;

	tc = tcase_create("table");
	tcase_add_loop_test(tc, test_find, 0, sizeof finds / sizeof finds[0]);
	tcase_add_test(tc, test_table_entries);
	suite_add_tcase(s, tc);

	tc = tcase_create("main");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_start_mode);
	tcase_add_test(tc, test_view_command);
	tcase_add_test(tc, test_view_next_keeps_state);
	suite_add_tcase(s, tc);

	tc = tcase_create("stack");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(
		tc, test_popups, 0, sizeof popups / sizeof popups[0]);
	tcase_add_test(tc, test_popup_scroll);
	tcase_add_test(tc, test_search_prompt);
	tcase_add_test(tc, test_other_prompts);
	suite_add_tcase(s, tc);

	tc = tcase_create("keys");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_bell, 0, sizeof bells / sizeof bells[0]);
	tcase_add_test(tc, test_click_closes_popup);
	tcase_add_test(tc, test_no_mouse);
	tcase_add_test(tc, test_too_small);
	suite_add_tcase(s, tc);

	tc = tcase_create("where");
	tcase_add_loop_test(tc, test_where_screens, 0,
		sizeof where_screens / sizeof where_screens[0]);
	tcase_add_test(tc, test_tree_enter_selects);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
