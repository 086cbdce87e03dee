/*
 * test_mode.c: the mode table (mode.h) and the viewer's stack of modes
 * (view.c): which main mode a profile starts on, switching main modes
 * with `:view` and V while the session's state carries over, popups and
 * prompts pushed, replaced and popped by their keys, the bell for keys
 * nobody binds, the mouse, and a screen too small for anything but q;
 * golden screens of the call tree, the flame graph and a marked range.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/action.h"
#include "scopeview/keys.h"
#include "scopeview/mode.h"
#include "scopeview/render.h"
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
	{"ranks", &sv_mode_ranks},
	{"histogram", &sv_mode_histogram},
	{"calls", &sv_mode_calls},
	{"trend", &sv_mode_trend},
	{"nope", NULL},
	{"popup", NULL}, /* not a main mode */
	{"prompt", NULL},
	{"", NULL},
	{"Timeline", NULL}, /* names are case sensitive */
	{NULL, NULL},
};

/* How many regions only the second run has. */
static size_t nonly2_of(const struct sv_session *s)
{
	size_t n;
	sv_session_only2(s, &n);
	return n;
}

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
		/* a list view's keys may all be the list's */
		ck_assert(m->apply != NULL || m->list != NULL);
		ck_assert(m->draw != NULL);
		ck_assert_uint_ne(m->scopes[0], 0);
		ck_assert_ptr_eq(sv_mode_find(m->name), m);
		for (j = 0; j < i; j++)
			ck_assert_str_ne(sv_mode_table[j]->name, m->name);
	}
	ck_assert_uint_eq(i, 10);
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
	ck_assert_uint_eq(sv_session_stats(&w.s)->nregions, 1);
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
	ck_assert_uint_gt(sv_session_nmarked(&v.s), 0);
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

/* The source popup of "main" (the statistics' first row) over a profile
 * whose rows name path as their source file, at line 60, and hold no
 * source text; the screen's text in *dump. */
static char *screen_dump(void);

static void source_popup(const char *path, char **dump)
{
	size_t i;

	for (i = 0; i < prof->nrows; i++) {
		free(prof->rows[i].source_file);
		prof->rows[i].source_file = sv_xstrdup(path);
		prof->rows[i].source_line = 60;
	}
	alarm(30); /* a blocking open fails the test */
	keys("V v");
	alarm(0);
	ck_assert_int_eq(sv_view_popup(&v), SV_POPUP_SOURCE);
	*dump = screen_dump();
}

/* The screen's text and styles. */
static char *screen_dump(void)
{
	struct sv_grid g;
	char *dump;

	sv_grid_init(&g);
	sv_grid_resize(&g, v.w, v.h);
	sv_render(&g, &v);
	dump = vt_grid_dump(&g);
	sv_grid_fini(&g);
	return dump;
}

START_TEST(test_source_file)
{
	/* given a source file of 100 lines the profile names; when its
	 * popup opens; then the file's lines, scrolled to the call's line 60,
	 * which stands out, and the file's size */
	char *path = svt_tmp_path("source.py"), *dump;
	FILE *f = fopen(path, "w");
	int i;

	ck_assert_ptr_nonnull(f);
	for (i = 1; i <= 100; i++)
		fprintf(f, "x = %d  # line %d\n", i, i);
	ck_assert_int_eq(fclose(f), 0);
	source_popup(path, &dump);
	ck_assert_ptr_nonnull(strstr(dump, "   60\u25b8 x = 60  # line 60"));
	ck_assert_ptr_nonnull(strstr(dump, "   61  x = 61  # line 61"));
	ck_assert_ptr_null(strstr(dump, "x = 1  # line 1\n"));
	ck_assert_int_gt(sv_mode_popup_top(sv_view_top(&v)), 50);
	free(dump);
	/* its top says where the text comes from */
	keys("Home");
	dump = screen_dump();
	ck_assert_ptr_nonnull(strstr(dump, "From the file"));
	ck_assert_ptr_nonnull(strstr(dump, "(1.7KiB)."));
	ck_assert_ptr_nonnull(strstr(dump, "    1  x = 1  # line 1 "));
	free(dump);
	free(path);
}
END_TEST

START_TEST(test_source_text_numbered_from_max)
{
	/* given rows whose source text is numbered from INT64_MAX (a
	 * mutation fuzz_load found); when the source popup shows it; then
	 * the numbers stop at INT64_MAX and nothing overflows (UBSan) */
	size_t i;
	char *dump;

	for (i = 0; i < prof->nrows; i++) {
		free(prof->rows[i].source_text);
		prof->rows[i].source_text = sv_xstrdup("a = 1\nb = 2\nc = 3\n");
		prof->rows[i].source_line = INT64_MAX;
	}
	keys("V v");
	ck_assert_int_eq(sv_view_popup(&v), SV_POPUP_SOURCE);
	dump = screen_dump();
	ck_assert_ptr_nonnull(strstr(dump, "9223372036854775807  c = 3"));
	free(dump);
}
END_TEST

/* What the source popup says of each of svt_hostile_files(): words of
 * it (a message may be folded between them). */
static const char *const source_hostile[SVT_NHOSTILE][3] = {
	{"cannot", "character", "device"},
	{"cannot", "FIFO", "regular"},
	{"cannot", "symbolic", "levels"},
	{"1MiB", "2GiB", "    1  head"},
	{"\\x1b]0;pwned\\x07", "\\x1b[2J", "import os"},
};

START_TEST(test_source_file_hostile)
{
	/* given a profile naming as its source /dev/zero, a FIFO, a link
	 * loop, a 2 GB file or a file of escape sequences; when the popup
	 * opens; then no wait, at most the bound read, the reason or the
	 * text said, and no raw control sequence on the screen */
	const struct svt_hostile *h = &svt_hostile_files()[_i];
	char *dump;
	size_t k;

	source_popup(h->path, &dump);
	for (k = 0; k < 3; k++)
		ck_assert_msg(strstr(dump, source_hostile[_i][k]),
			"%s: no '%s' in\n%s", h->what, source_hostile[_i][k],
			dump);
	ck_assert_msg(!svt_has_raw_control(dump, strlen(dump)), "%s: %s",
		h->what, dump);
	free(dump);
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
	ck_assert_str_eq(sv_session_search_spec(&v.s), "");
	ck_assert_uint_eq(v.s.sel, SV_NO_CALL);

	/* and Enter commits: the search is set and its first match (by
	 * time) selected */
	keys("/ c h i l d Enter");
	ck_assert_uint_eq(v.depth, 0);
	ck_assert_str_eq(sv_session_search_spec(&v.s), "child");
	ck_assert_uint_eq(sv_session_nmatches(&v.s), 3);
	ck_assert_uint_ne(v.s.sel, SV_NO_CALL);
	ck_assert_int_eq(sv_profile_start(prof, v.s.sel), 100);

	/* BSpace on an empty prompt closes it; C-u clears what is typed */
	keys("/ a C-u");
	ck_assert_str_eq(sv_mode_prompt_text(sv_view_top(&v)), "");
	keys("BSpace");
	ck_assert_uint_eq(v.depth, 0);
	ck_assert_str_eq(sv_session_search_spec(&v.s), "child");
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
	ck_assert_str_eq(sv_session_filter_spec(&v.s), "ch");
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
	struct sv_view_opts o = {.no_mouse = true};
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
	{"callers_solve", "T g j c", 100, 14},
	{"callers_kernel_focus", "T g j c j j Enter", 100, 14},
	{"tree_range",
		"l l l l l l l l l l m l l l l l l l l l l l l l l "
		"l l l l l l M T *",
		100, 16},
	/* solve opened, then the tree rebuilt (recursion expanded): solve
	 * is still open, fib (never opened) still closed */
	{"tree_rebuilt_keeps_open", "T j l e", 100, 12},
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
	ck_assert_int_eq(sv_keys_parse_script("T g j Enter", &kv, &n, &err), 0);
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

/* ---- the ranks, histogram and call-list views --------------------------- */

/* Four ranks of "step" > "solve"; rank 2's solve takes three times as
 * long; "io" only on ranks 0 and 3. */
static const struct vt_call rank_calls[] = {
	{0, "step", 0, 1000, -1, -1, -1, 0},
	{0, "solve", 100, 400, -1, -1, -1, 0},
	{0, "io", 500, 520, -1, -1, -1, 0},
	{1, "step", 0, 1000, -1, -1, -1, 0},
	{1, "solve", 100, 420, -1, -1, -1, 0},
	{2, "step", 0, 1100, -1, -1, -1, 0},
	{2, "solve", 100, 1000, -1, -1, -1, 0},
	{3, "step", 0, 1000, -1, -1, -1, 0},
	{3, "solve", 100, 380, -1, -1, -1, 0},
	{3, "io", 500, 560, -1, -1, -1, 0},
	{0, "solve", 2000, 2100, -1, -1, -1, 0},
	{0, "solve", 2200, 2210, -1, -1, -1, 0},
};

static struct sv_view rv;
static struct sv_profile *rprof;

static void rsetup(void)
{
	struct sv_error err;
	rprof = vt_profile(
		rank_calls, sizeof rank_calls / sizeof rank_calls[0], VT_START);
	ck_assert_int_eq(sv_view_init(&rv, rprof, NULL, &err), 0);
	sv_view_resize(&rv, 100, 24);
}

static void rteardown(void)
{
	sv_view_fini(&rv);
	sv_profile_free(rprof);
}

static int rkeys(const char *script)
{
	int *kv = NULL, flags = 0;
	size_t n = 0, i;
	struct sv_error err;
	ck_assert_msg(sv_keys_parse_script(script, &kv, &n, &err) == 0, "%s",
		err.msg);
	for (i = 0; i < n; i++)
		flags |= sv_view_handle_key(&rv, kv[i]);
	free(kv);
	return flags;
}

static const char *rstatus(void)
{
	static char buf[256];
	const struct sv_mode *m = sv_view_main_mode(&rv);
	buf[0] = '\0';
	if (m->ops->describe)
		m->ops->describe(m, buf, sizeof buf);
	return buf;
}

static void rgolden(const char *name)
{
	struct sv_grid g;
	sv_grid_init(&g);
	sv_grid_resize(&g, rv.w, rv.h);
	sv_render(&g, &rv);
	vt_golden(&g, name);
	sv_grid_fini(&g);
}

START_TEST(test_ranks_view)
{
	/* B shows the matrix; s goes to rank 2's solve and marks it */
	rkeys("B");
	ck_assert_ptr_eq(sv_view_main_mode(&rv)->ops, &sv_mode_ranks);
	rgolden("ranks_matrix");
	rkeys("s");
	ck_assert_str_eq(rprof->regions[rv.s.mark_region], "solve");
	ck_assert_ptr_nonnull(strstr(rstatus(), "row=2 "));
	rgolden("ranks_worst");
	/* x shows exclusive times; o orders by imbalance */
	rkeys("x o");
	ck_assert_ptr_nonnull(strstr(rstatus(), "metric=1 order=1"));
	rgolden("ranks_exclusive_by_imbalance");
	/* Enter: the timeline with rank 2 only and solve marked */
	rkeys("x o s Enter");
	ck_assert_ptr_eq(sv_view_main_mode(&rv)->ops, &sv_mode_timeline);
	ck_assert_str_eq(rv.s.rank_spec, "2");
	ck_assert_str_eq(rprof->regions[rv.s.mark_region], "solve");
	ck_assert_uint_ne(rv.s.sel, SV_NO_CALL);
	ck_assert_uint_eq(sv_call_rank(rprof, rv.s.sel), 2);
	/* back in the matrix, a shows every rank again */
	rkeys("B a");
	ck_assert_str_eq(rv.s.rank_spec, "");
}
END_TEST

START_TEST(test_ranks_grouped)
{
	struct vt_call *many = calloc(3000, sizeof *many);
	struct sv_profile *p;
	struct sv_view w;
	struct sv_error err;
	struct sv_grid g;
	const struct sv_mode *m;
	char buf[256];
	uint32_t r;

	/* 1,000 ranks, rank 777 slow in "solve" */
	for (r = 0; r < 1000; r++) {
		many[3 * r] =
			(struct vt_call){r, "step", 0, 1000, -1, -1, -1, 0};
		many[3 * r + 1] = (struct vt_call){r, "solve", 10,
			r == 777 ? 990 : 500 + r % 7, -1, -1, -1, 0};
		many[3 * r + 2] =
			(struct vt_call){r, "io", 995, 999, -1, -1, -1, 0};
	}
	p = vt_profile(many, 3000, VT_START);
	ck_assert_int_eq(sv_view_init(&w, p, NULL, &err), 0);
	sv_view_resize(&w, 100, 30);
	sv_view_switch(&w, "ranks");
	m = sv_view_main_mode(&w);
	m->ops->describe(m, buf, sizeof buf);
	/* 20 rows fit: groups of 50 ranks */
	ck_assert_msg(strstr(buf, "group=50 expanded=-1"), "%s", buf);
	sv_grid_init(&g);
	sv_grid_resize(&g, 100, 30);
	sv_render(&g, &w);
	vt_golden(&g, "ranks_grouped");
	/* s expands rank 777's group and puts the cursor on it */
	sv_view_apply(&w, SV_ACTION_RANKS_WORST);
	m->ops->describe(m, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "group=50 expanded=15"), "%s", buf);
	sv_grid_clear(&g);
	sv_render(&g, &w);
	vt_golden(&g, "ranks_grouped_expanded");
	/* e groups again */
	sv_view_apply(&w, SV_ACTION_RANKS_EXPAND);
	m->ops->describe(m, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "expanded=-1"), "%s", buf);
	sv_grid_fini(&g);
	sv_view_fini(&w);
	sv_profile_free(p);
	free(many);
}
END_TEST

START_TEST(test_ranks_wide)
{
	static char names[20][64];
	struct vt_call wide[40];
	struct sv_profile *p;
	struct sv_view w;
	struct sv_error err;
	struct sv_grid g;
	const struct sv_mode *m;
	char buf[256];
	int i;

	/* 20 regions with long names on 2 ranks, longest first */
	for (i = 0; i < 20; i++) {
		snprintf(names[i], sizeof names[i],
			"region%02d kind=collective bytes=%d peer=-1", i,
			8 << i);
		wide[2 * i] = (struct vt_call){
			0, names[i], 10 * i, 10 * i + 9 - i / 4, -1, -1, -1, 0};
		wide[2 * i + 1] = (struct vt_call){
			1, names[i], 10 * i, 10 * i + 8 - i / 4, -1, -1, -1, 0};
	}
	p = vt_profile(wide, 40, VT_START);
	ck_assert_int_eq(sv_view_init(&w, p, NULL, &err), 0);
	sv_view_resize(&w, 80, 14);
	sv_view_switch(&w, "ranks");
	m = sv_view_main_mode(&w);
	/* a count moves the column cursor: 12 l goes 12 regions right, the
	 * matrix scrolls sideways, and the line under the figures names the
	 * region under the cursor in full */
	for (i = 0; i < 2; i++)
		sv_view_handle_key(&w, "12"[i]);
	sv_view_handle_key(&w, 'l');
	m->ops->describe(m, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "col=12 "), "%s", buf);
	sv_grid_init(&g);
	sv_grid_resize(&g, 80, 14);
	sv_render(&g, &w);
	vt_golden(&g, "ranks_wide_scrolled");
	sv_grid_fini(&g);
	sv_view_fini(&w);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_histogram_and_calls)
{
	/* given solve marked, H shows its histogram */
	rkeys("B s H");
	ck_assert_ptr_eq(sv_view_main_mode(&rv)->ops, &sv_mode_histogram);
	rgolden("histogram_solve");
	/* a range of every bin, Enter: its calls, longest first */
	rkeys("Space j j j j j j j j j j j j j j j j j j j j j j j j Enter");
	ck_assert_ptr_eq(sv_view_main_mode(&rv)->ops, &sv_mode_calls);
	ck_assert_ptr_nonnull(strstr(rstatus(), "cur=0 top=0 n=6 key=0"));
	rgolden("calls_solve_bins");
	/* > sorts by start, r reverses */
	rkeys("> r");
	ck_assert_ptr_nonnull(strstr(rstatus(), "key=1 reverse=1"));
	rgolden("calls_by_start_reversed");
	/* longest first again; Enter selects the longest call and zooms to
	 * it on the timeline */
	rkeys("< Home Enter");
	ck_assert_ptr_eq(sv_view_main_mode(&rv)->ops, &sv_mode_timeline);
	ck_assert_int_eq(sv_profile_start(rprof, rv.s.sel), 100);
	ck_assert_int_eq(sv_profile_end(rprof, rv.s.sel), 1000);
	ck_assert_int_le(TL(&rv)->t0, 100);
	ck_assert_int_ge(TL(&rv)->t1, 1000);
	ck_assert_int_lt(TL(&rv)->t1 - TL(&rv)->t0, 2210);
}
END_TEST

/* A bin handed to the call list stays there while its input does: after
 * Enter on the timeline, L shows the same bin; marking another region
 * (here while the list is not shown) gives that region's calls. */
START_TEST(test_calls_bin_lasts)
{
	rkeys("B s H j j j j j j j j j j j j j j j j j j j j j j j Enter");
	ck_assert_ptr_eq(sv_view_main_mode(&rv)->ops, &sv_mode_calls);
	ck_assert_msg(strstr(rstatus(), "n=1 key=0"), "%s", rstatus());
	rkeys("Enter");
	ck_assert_ptr_eq(sv_view_main_mode(&rv)->ops, &sv_mode_timeline);
	ck_assert_int_eq(sv_profile_end(rprof, rv.s.sel), 1000);
	rkeys("L");
	ck_assert_msg(strstr(rstatus(), "n=1 key=0"), "%s", rstatus());
	rgolden("calls_bin_again");
	/* the same walk with the order changed keeps the order too */
	rkeys(">");
	ck_assert_msg(strstr(rstatus(), "n=1 key=1"), "%s", rstatus());
	rkeys("Enter L");
	ck_assert_msg(strstr(rstatus(), "n=1 key=1"), "%s", rstatus());
	/* a new input while not shown: the session's list on the next L */
	rkeys(": v i e w Space t i m e l i n e Enter");
	sv_session_mark_region(&rv.s, sv_profile_find_region(rprof, "io"));
	rkeys("L");
	ck_assert_msg(strstr(rstatus(), "n=2 key=0"), "%s", rstatus());
	/* and a change while shown replaces a handed list at once */
	rkeys("H Space k k k k k k k k k k k k k k k k k k k k k k k Enter");
	ck_assert_msg(strstr(rstatus(), "n=2 key=0"), "%s", rstatus());
	sv_session_mark_region(&rv.s, sv_profile_find_region(rprof, "solve"));
	ck_assert_msg(strstr(rstatus(), "n=6 key=0"), "%s", rstatus());
}
END_TEST

/* A press on the ruler and a drag along it mark the columns swept as the
 * range (the statistics then cover it); a drag on the lanes still pans. */
START_TEST(test_mouse_marks_range)
{
	const struct sv_timeline *tl;
	struct sv_tmap m;
	int y, x0, x1;

	sv_view_handle_key(&rv, 'l'); /* the timeline, sized */
	/* zoomed in, so that the window has room to pan inside the run */
	sv_view_handle_key(&rv, '+');
	tl = TL(&rv);
	m = sv_timeline_tmap(tl);
	y = tl->geom.ruler_y + 1;
	x0 = tl->geom.tl_x + 10;
	x1 = tl->geom.tl_x + 20;
	sv_view_handle_key(&rv, sv_key_mouse(SV_MOUSE_CLICK, x1, y));
	ck_assert(!rv.s.has_range);
	sv_view_handle_key(&rv, sv_key_mouse(SV_MOUSE_DRAG, x0 + 3, y + 5));
	sv_view_handle_key(&rv, sv_key_mouse(SV_MOUSE_DRAG, x0, y + 5));
	sv_view_handle_key(&rv, sv_key_mouse(SV_MOUSE_RELEASE, x0, y + 5));
	ck_assert(rv.s.has_range);
	ck_assert_int_eq(rv.s.range_t0, sv_tmap_time(&m, x0));
	ck_assert_int_eq(rv.s.range_t1, sv_tmap_time(&m, x1 + 1));
	ck_assert_int_eq(sv_session_span(&rv.s), SV_SPAN_RANGE);
	ck_assert_int_eq(tl->t0, m.t0); /* no pan */
	ck_assert_int_eq(tl->range_x, -1);
	/* the lanes: a drag pans, the range stays */
	sv_view_handle_key(
		&rv, sv_key_mouse(SV_MOUSE_CLICK, x1, tl->geom.lanes_y));
	sv_view_handle_key(
		&rv, sv_key_mouse(SV_MOUSE_DRAG, x0, tl->geom.lanes_y));
	ck_assert_int_ne(tl->t0, m.t0);
	ck_assert_int_eq(rv.s.range_t1, sv_tmap_time(&m, x1 + 1));
}
END_TEST

START_TEST(test_histogram_search_and_empty)
{
	/* nothing marked or selected: the views open on the region of the
	 * most time, and say so */
	rkeys("H");
	rgolden("histogram_heaviest");
	ck_assert_int_ge(rv.s.mark_region, 0);
	ck_assert_ptr_nonnull(strstr(rv.s.message, "most time"));
	ck_assert(!(rkeys("Enter") & SV_REACT_BELL));
	ck_assert_str_eq(sv_view_main_mode(&rv)->ops->name, "calls");
	sv_session_mark_region(&rv.s, -1);
	rkeys(": v i e w Space c a l l s Enter");
	ck_assert_int_ge(rv.s.mark_region, 0);
	ck_assert_ptr_nonnull(strstr(rstatus(), "n="));
	/* a search: m switches the histogram to its matches */
	rkeys(": v i e w Space t i m e l i n e Enter / i o Enter");
	sv_session_mark_region(&rv.s, -1);
	sv_session_select(&rv.s, 0, SV_NO_CALL);
	rkeys("H");
	ck_assert_ptr_nonnull(strstr(rstatus(), "source=1"));
	ck_assert(rkeys("m") & SV_REACT_BELL); /* no region to go back to */
	rkeys("+ -");
	ck_assert_ptr_nonnull(strstr(rstatus(), "bins=24"));
}
END_TEST

/* Over HIST_SYNC calls the histogram and the list are built on a worker:
 * busy at first, then the same figures. */
START_TEST(test_views_in_background)
{
	size_t n = 300000, i;
	struct vt_call *many = calloc(n, sizeof *many);
	struct sv_profile *p;
	struct sv_view w;
	struct sv_error err;
	struct sv_mode *m;
	char buf[256];
	int spins = 0;

	for (i = 0; i < n; i++)
		many[i] = (struct vt_call){0, "k", (int64_t)i * 100,
			(int64_t)i * 100 + 1 + (int64_t)(i % 50), -1, -1, -1,
			0};
	p = vt_profile(many, n, VT_START);
	ck_assert_int_eq(sv_view_init(&w, p, NULL, &err), 0);
	sv_view_resize(&w, 100, 30);
	sv_session_mark_region(&w.s, 0);
	sv_view_switch(&w, "histogram");
	m = sv_view_main_mode(&w);
	while (sv_view_busy(&w) && spins++ < 100000) {
		struct sv_grid g;
		sv_grid_init(&g);
		sv_grid_resize(&g, 100, 30);
		sv_render(&g, &w); /* the progress line, never a wait */
		sv_grid_fini(&g);
		sv_view_poll(&w);
	}
	ck_assert(!sv_view_busy(&w));
	m->ops->describe(m, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "busy=0"), "%s", buf);
	/* a key changing the input while the worker runs cancels it */
	sv_view_apply(&w, SV_ACTION_HIST_MORE);
	sv_view_apply(&w, SV_ACTION_HIST_MORE);
	ck_assert(sv_view_settle(&w, 10000));
	m->ops->describe(m, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "bins=40"), "%s", buf);
	sv_view_switch(&w, "calls");
	sv_view_apply(&w, SV_ACTION_LIST_SORT_NEXT); /* cancels, restarts */
	ck_assert(sv_view_settle(&w, 10000));
	m = sv_view_main_mode(&w);
	m->ops->describe(m, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "n=300000 key=1"), "%s", buf);
	sv_view_fini(&w);
	sv_profile_free(p);
	free(many);
}
END_TEST

static void mode_views_tcases(Suite *s)
{
	TCase *tc = tcase_create("views");
	tcase_add_checked_fixture(tc, rsetup, rteardown);
	tcase_add_test(tc, test_ranks_view);
	tcase_add_test(tc, test_ranks_grouped);
	tcase_add_test(tc, test_ranks_wide);
	tcase_add_test(tc, test_histogram_and_calls);
	tcase_add_test(tc, test_calls_bin_lasts);
	tcase_add_test(tc, test_mouse_marks_range);
	tcase_add_test(tc, test_histogram_search_and_empty);
	tcase_add_test(tc, test_views_in_background);
	suite_add_tcase(s, tc);
}

/* ---- two runs ----------------------------------------------------------- */

/* where_calls again, later: rank 0's first solve twice as long (its kernel
 * too), the second kernel faster, no fib, a new io; rank 1 the same. */
static const struct vt_call later_calls[] = {
	{0, "main", 0, 1500, 0, -1, -1, 0},
	{0, "solve", 100, 1100, 0, -1, -1, 0},
	{0, "kernel", 150, 650, 0, -1, -1, 0},
	{0, "solve", 1150, 1400, 0, -1, -1, 0},
	{0, "kernel", 1200, 1250, 0, -1, -1, 0},
	{0, "io", 1420, 1490, 0, -1, -1, 0},
	{1, "main", 0, 1200, 0, -1, -1, 0},
	{1, "solve", 100, 1100, 0, -1, -1, 0},
};

static const struct {
	const char *golden, *keys;
	int w, h;
} two_run_screens[] = {
	{"two_runs_panel", "", 110, 16},
	{"two_runs_flame", "F j", 100, 12},
	{"two_runs_flame_gone", "F j l", 100, 12},
	{"two_runs_stats_by_excl", "V > >", 100, 12},
	{"two_runs_tree", "T *", 100, 12},
	/* the cursor on run B's rank 0 (after A's four rows), Tab selects
	 * its first call: the details name run B */
	{"two_runs_select_b", "j j j j Tab", 110, 26},
	/* the search lights solve on both runs' rows */
	{"two_runs_search", "/ s o l v e Enter", 110, 16},
	/* B's rows hidden: A's alone, as without B */
	{"two_runs_b_hidden", ": s e c o n d Enter", 110, 16},
	/* the panel by the change in per cent, the biggest rise first */
	{"two_runs_sort_delta", ": s o r t Space d e l t a % Enter", 110, 16},
	/* the ranks matrix's third metric: each rank's change */
	{"two_runs_ranks_change", "B x x", 110, 16},
};

START_TEST(test_two_run_screens)
{
	struct sv_profile *a = vt_profile(where_calls,
		sizeof where_calls / sizeof where_calls[0],
		VT_THREADS | VT_START);
	struct sv_profile *b = vt_profile(later_calls,
		sizeof later_calls / sizeof later_calls[0],
		VT_THREADS | VT_START);
	struct sv_view_opts o = {
		.title = "a.h5", .second = b, .second_title = "b.h5"};
	struct sv_view w;
	struct sv_grid g;
	struct sv_error err;

	/* given the two runs at the screen's size */
	ck_assert_int_eq(sv_view_init(&w, a, &o, &err), 0);
	sv_view_resize(&w, two_run_screens[_i].w, two_run_screens[_i].h);
	/* when the keys are pressed, then the screen is the golden one */
	vt_keys(&w, two_run_screens[_i].keys);
	sv_grid_init(&g);
	sv_render(&g, &w);
	vt_golden(&g, two_run_screens[_i].golden);
	sv_grid_fini(&g);
	sv_view_fini(&w);
	sv_profile_free(a);
	sv_profile_free(b);
}
END_TEST

START_TEST(test_two_runs_figures)
{
	struct sv_profile *a = vt_profile(where_calls,
		sizeof where_calls / sizeof where_calls[0],
		VT_THREADS | VT_START);
	struct sv_profile *b = vt_profile(later_calls,
		sizeof later_calls / sizeof later_calls[0],
		VT_THREADS | VT_START);
	struct sv_view w;
	struct sv_error err;
	const struct sv_stats_region *rb;
	int64_t solve = sv_profile_find_region(a, "solve");
	size_t n2;

	ck_assert_int_eq(sv_view_init(&w, a, NULL, &err), 0);
	ck_assert_ptr_null(sv_session_second_of(&w.s, (uint32_t)solve));
	ck_assert_int_eq(sv_view_set_second(&w, b, "b.h5", &err), 0);
	/* B's solve: 1000 + 250 + 1000 ns, A's 500 + 250 + 1000. */
	rb = sv_session_second_of(&w.s, (uint32_t)solve);
	ck_assert_ptr_nonnull(rb);
	ck_assert_int_eq(rb->s.total_ns, 2250);
	/* io is only in B: listed apart, for the panel's rows after A's */
	ck_assert_uint_eq(nonly2_of(&w.s), 1);
	ck_assert_str_eq(sv_session_stats2(&w.s)
				 ->regions[sv_session_only2(&w.s, &n2)[0]]
				 .name,
		"io");
	ck_assert_int_eq(sv_session_stats2(&w.s)
				 ->regions[sv_session_only2(&w.s, &n2)[0]]
				 .s.total_ns,
		70);
	/* fib is not in B */
	ck_assert_ptr_null(sv_session_second_of(
		&w.s, (uint32_t)sv_profile_find_region(a, "fib")));
	/* by the change: in per cent kernel (+57%) before solve (+29%) and
	 * main (+23%), fib (gone, -100%) last; in ns main and solve (+500
	 * each, in their former order) before kernel (+200) */
	ck_assert_int_eq(sv_session_sort_diff(&w.s, SV_SESSION_SORT_PCT), 0);
	ck_assert_str_eq(sv_session_stats(&w.s)->regions[0].name, "kernel");
	ck_assert_str_eq(sv_session_stats(&w.s)->regions[1].name, "solve");
	ck_assert_str_eq(sv_session_stats(&w.s)->regions[2].name, "main");
	ck_assert_str_eq(sv_session_stats(&w.s)->regions[3].name, "fib");
	ck_assert_int_eq(sv_session_sort_diff(&w.s, SV_SESSION_SORT_DELTA), 0);
	ck_assert_str_eq(sv_session_stats(&w.s)->regions[2].name, "kernel");
	ck_assert_str_eq(sv_session_stats(&w.s)->regions[3].name, "fib");
	/* a plain sort ends the order by change */
	sv_session_sort(&w.s, SV_STATS_KEY_TOTAL);
	ck_assert_int_eq(sv_session_sort_diff_kind(&w.s), 0);
	ck_assert_str_eq(sv_session_stats(&w.s)->regions[0].name, "main");
	/* a rank filter applies to both runs: rank 1's solve is 1000 */
	ck_assert_int_eq(sv_session_set_ranks(&w.s, "1"), 0);
	rb = sv_session_second_of(&w.s, (uint32_t)solve);
	ck_assert_int_eq(rb->s.total_ns, 1000);
	ck_assert_uint_eq(nonly2_of(&w.s), 0); /* rank 1 has no io */
	/* the same run twice is refused; NULL ends the comparison */
	ck_assert_int_eq(sv_view_set_second(&w, a, NULL, &err), -EINVAL);
	ck_assert_int_eq(sv_view_set_second(&w, NULL, NULL, &err), 0);
	ck_assert_ptr_null(sv_session_second_of(&w.s, (uint32_t)solve));
	/* :open asks the loop for a load */
	ck_assert(vt_keys(&w, ": o p e n Space b . h 5 Enter") & SV_REACT_OPEN);
	ck_assert_str_eq(w.open_path, "b.h5");
	ck_assert(!(vt_keys(&w, ": o p e n Enter") & SV_REACT_OPEN));
	sv_view_fini(&w);
	sv_profile_free(a);
	sv_profile_free(b);
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
	tcase_add_test(tc, test_source_file);
	tcase_add_loop_test(tc, test_source_file_hostile, 0, SVT_NHOSTILE);
	tcase_add_test(tc, test_source_text_numbered_from_max);
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
	tcase_add_loop_test(tc, test_two_run_screens, 0,
		sizeof two_run_screens / sizeof two_run_screens[0]);
	tcase_add_test(tc, test_two_runs_figures);
	tcase_add_loop_test(tc, test_where_screens, 0,
		sizeof where_screens / sizeof where_screens[0]);
	tcase_add_test(tc, test_tree_enter_selects);
	suite_add_tcase(s, tc);
	mode_views_tcases(s);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
