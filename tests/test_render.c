/*
 * test_render.c: golden screens (text layer plus style layer) for the
 * situations the viewer must draw well, and properties of every frame: no
 * control characters from the file, no allocation once sized, the same
 * view gives the same grid.
 *
 * Goldens live in tests/golden/NAME.txt; SCOPEVIEW_UPDATE_GOLDEN=1
 * rewrites them (review the diff like code).  The locale is pinned by the
 * test environment (C.UTF-8) and every screen size is explicit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/demo.h"
#include "scopeview/keys.h"
#include "scopeview/load.h"
#include "scopeview/render.h"
#include "scopeview/view.h"
#include "scopeview/callmeta.h"
#include "viewtest.h"

/* Render p at w x h after a key script, with ASCII glyphs or not. */
static void draw(struct sv_grid *g, const struct sv_profile *p, int w, int h,
	const char *script, bool ascii)
{
	struct sv_view v;
	struct sv_view_opts o = {.ascii = ascii, .title = "test.h5"};
	struct sv_error err;
	int *kv = NULL;
	size_t n = 0, i;

	ck_assert_int_eq(sv_view_init(&v, p, &o, &err), 0);
	sv_view_resize(&v, w, h);
	ck_assert_int_eq(sv_keys_parse_script(script, &kv, &n, &err), 0);
	for (i = 0; i < n; i++)
		if (sv_view_handle_key(&v, kv[i]) & SV_REACT_QUIT)
			break;
	free(kv);
	sv_render(g, &v);
	sv_view_fini(&v);
}

static void golden(const char *name, const struct vt_call *calls, size_t n,
	unsigned flags, int w, int h, const char *script, bool ascii)
{
	struct sv_profile *p = vt_profile(calls, n, flags);
	struct sv_grid g;
	int x, y;

	sv_grid_init(&g);
	draw(&g, p, w, h, script, ascii);
	ck_assert_int_eq(g.w, w);
	ck_assert_int_eq(g.h, h);
	/* nothing but printable code points in any cell */
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			uint32_t ch = sv_grid_cell(&g, x, y)->ch;
			ck_assert(ch == SV_GRID_WIDE_TAIL || ch >= 0x20);
			ck_assert(ch != 0x7f && !(ch >= 0x80 && ch < 0xa0));
			/* ASCII mode draws only ASCII (the names here are
			 * ASCII too) */
			ck_assert_msg(!ascii || ch < 0x80,
				"%s: U+%04X at (%d,%d) in ASCII mode", name,
				(unsigned)ch, x, y);
		}
	vt_golden(&g, name);
	sv_grid_fini(&g);
	sv_profile_free(p);
}

/* The screen of the golden above in a theme, as ANSI (the text layer is
 * the same in every theme; the colours are what the theme changes). */
static void golden_theme(const char *name, int theme,
	const struct vt_call *calls, size_t n, unsigned flags, int w, int h,
	const char *script)
{
	struct sv_profile *p = vt_profile(calls, n, flags);
	struct sv_grid g;
	char *dark = NULL, *text = NULL;
	size_t len = 0;
	FILE *f;

	sv_grid_init(&g);
	draw(&g, p, w, h, script, false);
	f = open_memstream(&text, &len);
	ck_assert_int_eq(sv_grid_write_theme(&g, f, SV_GRID_ANSI, theme), 0);
	fclose(f);
	f = open_memstream(&dark, &len);
	ck_assert_int_eq(sv_grid_write(&g, f, SV_GRID_ANSI), 0);
	fclose(f);
	ck_assert_msg(
		(theme == SV_THEME_DARK) == !strcmp(dark, text), "%s", name);
	vt_golden_text(text, name);
	f = fopen("/dev/null", "w");
	ck_assert_int_eq(sv_grid_write_theme(&g, f, SV_GRID_SVG, theme), 0);
	ck_assert_int_eq(
		sv_grid_write_theme(&g, f, SV_GRID_ANSI, SV_THEME_COUNT),
		-EINVAL);
	fclose(f);
	free(text);
	free(dark);
	sv_grid_fini(&g);
	sv_profile_free(p);
}

START_TEST(test_empty)
{
	golden("empty", NULL, 0, VT_START, 80, 24, "", false);
}
END_TEST

static const struct vt_call one[] = {
	{0, "solve", 1000, 51000, -1, -1, -1, 0},
};

START_TEST(test_one_call)
{
	golden("one_call", one, 1, VT_START, 80, 24, "", false);
}
END_TEST

START_TEST(test_deep_nesting)
{
	struct vt_call calls[14];
	int i;
	for (i = 0; i < 14; i++)
		calls[i] = (struct vt_call){0, i % 2 ? "recurse" : "descend",
			i * 100, 20000 - i * 100, -1, -1, -1, 0};
	golden("deep_nesting", calls, 14, VT_START, 100, 30, "Tab Tab Tab",
		false);
}
END_TEST

START_TEST(test_many_lanes)
{
	struct vt_call calls[90];
	int i;
	for (i = 0; i < 30; i++) {
		calls[3 * i] = (struct vt_call){
			(uint32_t)i, "step", 0, 10000 + i * 300, -1, -1, -1, 0};
		calls[3 * i + 1] = (struct vt_call){(uint32_t)i, "compute", 100,
			6000 + i * 200, -1, -1, -1, 0};
		calls[3 * i + 2] = (struct vt_call){(uint32_t)i, "allreduce",
			6000 + i * 200, 9900 + i * 300, -1, -1, -1, 0};
	}
	/* thirty ranks' rows do not fit: a folded track each */
	golden("many_lanes_top", calls, 90, VT_START, 120, 40, "", false);
	/* unfolded, two pages down */
	golden("many_lanes_scrolled", calls, 90, VT_START, 120, 40,
		"Z PageDown PageDown j", false);
}
END_TEST

static const struct vt_call lanes[] = {
	{0, "main", 0, 100000, 0, -1, -1, 0},
	{0, "spawn", 1000, 3000, 0, -1, -1, 0},
	{0, "gather", 3000, 90000, 0, -1, -1, 0},
	{0, "fetch", 5000, 60000, 0, 0, -1, 40000},
	{0, "parse", 50000, 58000, 0, 0, -1, 0},
	{0, "fetch", 6000, 80000, 0, 1, -1, 20000},
	{0, "worker", 2000, 70000, 1, -1, -1, 0},
	{0, "crunch", 4000, 65000, 1, -1, -1, 0},
	{1, "main", 0, 98000, 0, -1, -1, 0},
};

START_TEST(test_threads_tasks)
{
	golden("threads_tasks", lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 120, 40, "", false);
}
END_TEST

START_TEST(test_narrow)
{
	golden("narrow_60x20_ascii", lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 60, 20, "Tab", true);
	golden("standard_80x24", lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 80, 24, "j Tab", false);
	golden("too_small", lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 30, 8, "", false);
}
END_TEST

START_TEST(test_selected_details)
{
	golden("selected_details", lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS | VT_GPU, 120, 40,
		"j j Tab Tab", false);
}
END_TEST

START_TEST(test_gpu_await)
{
	static const struct vt_call calls[] = {
		{0, "kernel", 0, 40000, -1, 0, 30000, 0},
		{0, "copy", 40000, 50000, -1, 0, 2000, 0},
		{0, "await_io", 10000, 90000, -1, 1, -1, 60000},
		{0, "cpu_only", 50000, 100000, -1, 0, -1, 0},
	};
	golden("gpu_await", calls, 4, VT_START | VT_GPU | VT_TASKS, 100, 24, "",
		false);
}
END_TEST

START_TEST(test_unicode_names)
{
	static const struct vt_call calls[] = {
		{0, "求解器 solve ünïcödé", 0, 40000, -1, -1, -1, 0},
		{0, "evil\x1b[2J\x07name", 40000, 60000, -1, -1, -1, 0},
		{0,
			"a_very_long_region_name_that_goes_on_and_on_"
			"forever_and_never_fits_anywhere_on_any_screen",
			60000, 100000, -1, -1, -1, 0},
		{0, "bidi\xe2\x80\xaereversed", 1000, 20000, -1, -1, -1, 0},
	};
	golden("unicode_names", calls, 4, VT_START, 120, 30, "Tab Tab Tab",
		false);
}
END_TEST

START_TEST(test_zoom_single_call)
{
	struct vt_call calls[2000];
	int i;
	for (i = 0; i < 2000; i++)
		calls[i] = (struct vt_call){0, i % 3 ? "tick" : "tock",
			i * 1000, i * 1000 + 300 + (i % 7) * 90, -1, -1, -1, 0};
	/* full view: merged cells with counts */
	golden("lod_overview", calls, 2000, VT_START, 100, 24, "", false);
	/* zoomed to one call */
	golden("zoom_single_call", calls, 2000, VT_START, 100, 24,
		"Tab Tab Tab f", false);
}
END_TEST

START_TEST(test_light_theme)
{
	golden_theme("light_standard_80x24", SV_THEME_LIGHT, lanes,
		sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 80, 24, "j Tab");
	golden_theme("light_help_popup", SV_THEME_LIGHT, lanes,
		sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 100, 30, "?");
	golden_theme("light_panel_search", SV_THEME_LIGHT, lanes,
		sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 120, 30,
		"/ f e t c h Enter p j Enter");
}
END_TEST

START_TEST(test_popups_and_panel)
{
	golden("help_popup", lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 100, 30, "?", false);
	golden("panel_focus_sorted", lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 120, 30, "p > j Enter",
		false);
	golden("search_prompt", lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 120, 30,
		"/ f e t c h Enter / m a", false);
	/* Long help lines fold at the popup's width instead of being cut. */
	golden("help_popup_narrow_end", lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 60, 20, "? End", false);
	/* A solo lane's details give the region over the whole run (its
	 * slowest rank among all), not over the one lane shown. */
	golden("solo_details_whole_run", lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 120, 30, "r 1 Enter Tab t",
		false);
	/* A one-line popup is a small box, not a screen-sized frame. */
	golden("warnings_popup_small", lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 120, 30, "W", false);
}
END_TEST

/* The metadata popup lists the run's /metadata attributes. */
START_TEST(test_metadata_popup)
{
	struct sv_profile *p = vt_profile(lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS);
	struct sv_meta *m;
	struct sv_grid g;

	m = sv_profile_add_meta(p, "mpi_size", SV_META_INT);
	m->i = 2;
	m->f = 2;
	m->text = sv_xstrdup("2");
	m = sv_profile_add_meta(p, "hostname", SV_META_STRING);
	m->text = sv_xstrdup("node-017");
	m = sv_profile_add_meta(p, "python_version", SV_META_STRING);
	m->text = sv_xstrdup("3.12.3");
	sv_grid_init(&g);
	draw(&g, p, 100, 30, "i", false);
	vt_golden(&g, "metadata_popup");
	sv_grid_fini(&g);
	sv_profile_free(p);
}
END_TEST

/* Each prompt while it is being typed: filter, rank filter, command
 * (the search prompt is search_prompt above). */
START_TEST(test_prompts)
{
	static const struct {
		const char *name, *keys;
	} prompts[] = {
		{"prompt_filter", "\\ f e t"},
		{"prompt_rank_filter", "r 0 -"},
		{"prompt_command", ": g o t o Space 1 2"},
	};
	size_t i;

	for (i = 0; i < sizeof prompts / sizeof prompts[0]; i++)
		golden(prompts[i].name, lanes, sizeof lanes / sizeof lanes[0],
			VT_START | VT_THREADS | VT_TASKS, 100, 30,
			prompts[i].keys, false);
}
END_TEST

/* z folds the cursor's rank into one track, Z every rank. */
START_TEST(test_folded_ranks)
{
	golden("fold_rank", lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 100, 30, "j z", false);
	golden("fold_all", lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 100, 30, "Z", false);
	/* under a region filter the lanes without a call of it go, and
	 * the status line counts them */
	golden("filter_hides_lanes", lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS, 100, 30,
		"\\ c r u n c h Enter", false);
}
END_TEST

/* An aggregate profile (no per-call data): the statistics take the
 * screen.  Drawn from the fixture, titled by its name alone. */
START_TEST(test_statistics_only)
{
	char *path = svt_fixture("aggregate_layout.h5");
	struct sv_profile *p = NULL;
	struct sv_view v;
	struct sv_view_opts o = {.title = "aggregate_layout.h5"};
	struct sv_error err;
	struct sv_grid g;

	ck_assert_msg(sv_load(path, NULL, &p, &err) == 0, "%s", err.msg);
	ck_assert(!p->has_calls);
	ck_assert_int_eq(sv_view_init(&v, p, &o, &err), 0);
	sv_view_resize(&v, 100, 30);
	sv_grid_init(&g);
	sv_render(&g, &v);
	vt_golden(&g, "statistics_only");
	sv_grid_fini(&g);
	sv_view_fini(&v);
	sv_profile_free(p);
	free(path);
}
END_TEST

START_TEST(test_wide)
{
	golden("wide_300x100", lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS | VT_GPU, 300, 100, "Tab",
		false);
}
END_TEST

/* A merged cell whose longest call does not match, but a shorter one
 * does, is still highlighted: the search never hides a match. */
START_TEST(test_match_in_merged_cell)
{
	static const struct vt_call calls[] = {
		{0, "needle", 0, 1, -1, -1, -1, 0},
		{0, "hay", 2, 90, -1, -1, -1, 0},
		{0, "hay", 1000000, 2000000, -1, -1, -1, 0},
	};
	struct sv_profile *p = vt_profile(calls, 3, VT_START);
	struct sv_grid g;
	const struct sv_cell *c;
	int x;

	sv_grid_init(&g);
	draw(&g, p, 100, 20, "", false);
	x = 0;
	/* the cell of both is a boundary: a half block in two colours, no
	 * count digit */
	while (x < g.w && sv_grid_cell(&g, x, 3)->ch != 0x258c)
		x++;
	ck_assert_int_lt(x, g.w);
	ck_assert_int_ne(sv_grid_cell(&g, x, 3)->color2, 0);
	ck_assert_int_ne(
		sv_grid_cell(&g, x, 3)->color2, sv_grid_cell(&g, x, 3)->color);
	draw(&g, p, 100, 20, "/ n e e d l e Enter 0 End", false);
	c = sv_grid_cell(&g, x, 3);
	ck_assert_uint_eq(c->ch, 0x258c);
	ck_assert_int_eq(c->style, SV_STYLE_MATCH);
	/* and the call the search does not match is dimmed */
	draw(&g, p, 100, 20, "/ n e e d l e Enter", false);
	for (x = 0; x < g.w; x++)
		if (sv_grid_cell(&g, x, 3)->style == SV_STYLE_SPAN_DIM)
			break;
	ck_assert_int_lt(x, g.w);
	sv_grid_fini(&g);
	sv_profile_free(p);
}
END_TEST

/* A line profile and counters for the region "solve" of rank 0. */
static void add_lineprof_counters(struct sv_profile *p)
{
	struct sv_line_profile *l;
	struct sv_counters *k;
	static const int64_t lines[] = {41, 42, 43}, hits[] = {3, 3, 300};
	static const double times[] = {10, 20, 3000};

	p->lineprofs = sv_xcalloc(1, sizeof *p->lineprofs);
	p->nlineprofs = 1;
	l = &p->lineprofs[0];
	l->region = sv_xstrdup("solve");
	l->function = sv_xstrdup("solve");
	l->filename = sv_xstrdup("/tmp/run/app.py");
	l->first_lineno = 40;
	l->unit = 1e-6;
	l->source = sv_xstrdup("def solve():\n    x = 1\n    y = 2\n"
			       "    for i in range(300): x += i\n"
			       "    return x\n");
	l->source_first_lineno = 40;
	l->nlines = 3;
	l->line = sv_xmalloc(sizeof lines);
	memcpy(l->line, lines, sizeof lines);
	l->hits = sv_xmalloc(sizeof hits);
	memcpy(l->hits, hits, sizeof hits);
	l->time = sv_xmalloc(sizeof times);
	memcpy(l->time, times, sizeof times);
	p->counters = sv_xcalloc(1, sizeof *p->counters);
	p->ncounters = 1;
	k = &p->counters[0];
	k->region = sv_xstrdup("solve");
	k->calls = 1;
	k->time_s = -1;
	k->nthreads = 1;
	k->nevents = 2;
	k->events = sv_xcalloc(2, sizeof *k->events);
	k->events[0] = sv_xstrdup("cycles");
	k->events[1] = sv_xstrdup("instructions");
	k->values = sv_xcalloc(2, sizeof *k->values);
	k->values[0] = 123456;
	k->values[1] = 234567;
}

/* The source popup with a line profile: hits, time, per hit and share
 * of the time beside each source line, the hottest lines highlighted;
 * the details list the region's counters with their IPC. */
START_TEST(test_source_popup_lineprof)
{
	static const struct vt_call calls[] = {
		{0, "solve", 0, 100, -1, -1, -1, 0},
	};
	struct sv_profile *p = vt_profile(calls, 1, VT_START);
	struct sv_grid g;
	char *dump;

	add_lineprof_counters(p);
	sv_grid_init(&g);
	draw(&g, p, 100, 30, "Tab", false);
	dump = vt_grid_dump(&g);
	ck_assert_ptr_nonnull(strstr(
		dump, "perf   cycles 123456  instructions 234567  IPC 1.900"));
	free(dump);
	draw(&g, p, 100, 30, "Tab v", false);
	dump = vt_grid_dump(&g);
	ck_assert_ptr_nonnull(strstr(dump, "Line profile of solve() in "
					   "/tmp/run/app.py, rank 0: 3.03 ms"));
	ck_assert_ptr_nonnull(strstr(dump, "    43       300    3.00 ms    "
					   "10.0 us    99.0%      for i in"));
	ck_assert_ptr_nonnull(
		strstr(dump, "    40                            "));
	free(dump);
	vt_golden(&g, "source_lineprof");
	sv_grid_fini(&g);
	sv_profile_free(p);
}
END_TEST

/* The file contents popup lists every group and dataset the loader
 * found, with shape, type, layout and filters. */
START_TEST(test_contents_popup)
{
	char *path = svt_fixture("gpu_likwid_perf_lineprof.h5");
	struct sv_profile *p = NULL;
	struct sv_error e;
	struct sv_grid g;
	char *dump;

	ck_assert_int_eq(sv_load(path, NULL, &p, &e), 0);
	sv_grid_init(&g);
	draw(&g, p, 120, 40, "I j j", false);
	dump = vt_grid_dump(&g);
	ck_assert_ptr_nonnull(strstr(
		dump, "/rank0/likwid/regions/solve/events  {2, 2} float64"));
	free(dump);
	vt_golden(&g, "contents_popup");
	sv_grid_fini(&g);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* The warnings popup does not call a file clean when it holds objects
 * the viewer does not show. */
START_TEST(test_warnings_unshown)
{
	static const struct vt_call calls[] = {
		{0, "solve", 0, 100, -1, -1, -1, 0},
	};
	struct sv_profile *p = vt_profile(calls, 1, VT_START);
	struct sv_grid g;
	char *dump;

	p->unshown = sv_xcalloc(1, sizeof *p->unshown);
	p->unshown[0] = sv_xstrdup("/rank0/memray");
	p->nunshown = 1;
	sv_grid_init(&g);
	draw(&g, p, 100, 30, "W", false);
	dump = vt_grid_dump(&g);
	ck_assert_ptr_null(strstr(dump, "cleanly"));
	ck_assert_ptr_nonnull(strstr(dump, "No warnings."));
	ck_assert_ptr_nonnull(strstr(dump, "  /rank0/memray"));
	free(dump);
	sv_grid_fini(&g);
	sv_profile_free(p);
}
END_TEST

/* The details of a call with event metadata: every member as key=value,
 * escapes decoded, nested values folded to one line, packed to the width. */
START_TEST(test_details_callmeta)
{
	static const struct vt_call calls[] = {
		{0, "solve", 0, 100, -1, -1, -1, 0},
		{0, "solve", 200, 300, -1, -1, -1, 0},
	};
	struct sv_profile *p = vt_profile(calls, 2, VT_START);
	struct sv_grid g;
	char why[128], *dump;

	ck_assert_int_eq(
		sv_callmeta_set_row(p, 0, 2,
			"[{\"phase\": \"steady\", \"iter\": 12, \"status\": "
			"\"ok\", \"grid\": {\"nx\": [64, 64], \"bc\": null}, "
			"\"who\": \"caf\\u00e9 \\ud83d\\ude00\", "
			"\"note\": \"a long value that does not fit beside the "
			"others on one line of the details\"}, {}]",
			why, sizeof why),
		0);
	sv_grid_init(&g);
	draw(&g, p, 100, 30, "Tab", false);
	dump = vt_grid_dump(&g);
	ck_assert_ptr_nonnull(strstr(dump, "metadata  phase=steady   iter=12"));
	ck_assert_ptr_nonnull(
		strstr(dump, "grid={\"nx\":[64,64],\"bc\":null}"));
	free(dump);
	vt_golden(&g, "details_callmeta");
	sv_grid_fini(&g);
	sv_profile_free(p);
}
END_TEST

/* The source popup expands tabs, drops CR before LF and escapes the
 * rest; numbered from the call site. */
START_TEST(test_source_popup_text)
{
	static const struct vt_call calls[] = {
		{0, "solve", 0, 100, -1, -1, -1, 0},
	};
	struct sv_profile *p = vt_profile(calls, 1, VT_START);
	struct sv_grid g;
	char *dump;

	p->rows[0].source_file = sv_xstrdup("app.py");
	p->rows[0].source_line = 41;
	p->rows[0].source_text =
		sv_xstrdup("with region('solve'):\r\n\tx = 1\x1b[31m\n");
	sv_grid_init(&g);
	draw(&g, p, 100, 30, "Tab v", false);
	dump = vt_grid_dump(&g);
	ck_assert_ptr_nonnull(strstr(dump, "app.py:41"));
	ck_assert_ptr_nonnull(strstr(dump, "   41  with region('solve'):  "));
	ck_assert_ptr_nonnull(strstr(dump, "   42      x = 1\\x1b[31m"));
	free(dump);
	vt_golden(&g, "source_popup");
	sv_grid_fini(&g);
	sv_profile_free(p);
}
END_TEST

/* A second frame of the same size allocates nothing and draws the same. */
START_TEST(test_no_alloc_same_frame)
{
	struct sv_profile *p = vt_profile(lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS);
	struct sv_view v;
	struct sv_grid g;
	struct sv_cell *cells;
	char *a, *b;
	size_t cap;

	ck_assert_int_eq(sv_view_init(&v, p, NULL, NULL), 0);
	sv_view_resize(&v, 100, 30);
	sv_grid_init(&g);
	sv_render(&g, &v);
	a = vt_grid_dump(&g);
	cells = g.cells;
	cap = g.cap;
	sv_render(&g, &v);
	b = vt_grid_dump(&g);
	ck_assert_ptr_eq(g.cells, cells);
	ck_assert_uint_eq(g.cap, cap);
	ck_assert_str_eq(a, b);
	/* a smaller screen reuses the buffer */
	sv_view_resize(&v, 80, 24);
	sv_render(&g, &v);
	ck_assert_ptr_eq(g.cells, cells);
	free(a);
	free(b);
	sv_grid_fini(&g);
	sv_view_fini(&v);
	sv_profile_free(p);
}
END_TEST

/* A view drawn after every key (its rows keep their spans and colours
 * from frame to frame) draws what a fresh view given the same keys does. */
START_TEST(test_kept_rows_match_fresh)
{
	static const char *const keys[] = {"y", "j", "t", "y", "t", "Tab", "f",
		"y", "y", "+", "+", "l", "-", "y", "j", "j", "t", NULL};
	struct sv_profile *p = vt_profile(lanes, sizeof lanes / sizeof lanes[0],
		VT_START | VT_THREADS | VT_TASKS);
	struct sv_view v;
	struct sv_grid g, want;
	struct sv_error err;
	char script[256] = "";
	size_t i;

	ck_assert_int_eq(sv_view_init(&v, p, NULL, &err), 0);
	sv_view_resize(&v, 100, 30);
	sv_grid_init(&g);
	sv_grid_init(&want);
	sv_render(&g, &v);
	for (i = 0; keys[i]; i++) {
		int *kv = NULL;
		size_t n = 0;
		char *a, *b;
		ck_assert_int_eq(
			sv_keys_parse_script(keys[i], &kv, &n, &err), 0);
		ck_assert_uint_eq(n, 1);
		sv_view_handle_key(&v, kv[0]);
		free(kv);
		sv_render(&g, &v);
		snprintf(script + strlen(script),
			sizeof script - strlen(script), "%s%s", i ? " " : "",
			keys[i]);
		draw(&want, p, 100, 30, script, false);
		a = vt_grid_dump(&g);
		b = vt_grid_dump(&want);
		ck_assert_msg(!strcmp(a, b), "after '%s':\n%s\nfresh:\n%s",
			script, a, b);
		free(a);
		free(b);
		/* the colours too, cell by cell */
		ck_assert_int_eq(g.w * g.h, want.w * want.h);
		for (int c = 0; c < g.w * g.h; c++)
			ck_assert_msg(g.cells[c].color == want.cells[c].color &&
					      g.cells[c].color2 ==
						      want.cells[c].color2,
				"after '%s': the colour of cell %d", script, c);
	}
	sv_grid_fini(&g);
	sv_grid_fini(&want);
	sv_view_fini(&v);
	sv_profile_free(p);
}
END_TEST

/* Rank rows (b) and the strip of ranks inside the marked region: three
 * ranks, rank 1 the slowest in solve; then the demo profile at 160x45. */
static const struct vt_call rank_calls[] = {
	{0, "main", 0, 1000, 0, -1, -1, 0},
	{0, "solve", 100, 400, 0, -1, -1, 0},
	{0, "kernel", 150, 300, 0, -1, -1, 0},
	{0, "solve", 500, 900, 0, -1, -1, 0},
	{1, "main", 0, 1200, 0, -1, -1, 0},
	{1, "solve", 100, 1100, 0, -1, -1, 0},
	{1, "kernel", 200, 1000, 0, -1, -1, 0},
	{2, "main", 0, 800, 0, -1, -1, 0},
	{2, "solve", 300, 500, 0, -1, -1, 0},
};

START_TEST(test_rank_rows_golden)
{
	golden("rank_rows", rank_calls,
		sizeof rank_calls / sizeof rank_calls[0], VT_START | VT_THREADS,
		120, 30, ": r e g i o n Space s o l v e Enter b j", false);
	golden("rank_rows_deeper_ascii", rank_calls,
		sizeof rank_calls / sizeof rank_calls[0], VT_START | VT_THREADS,
		100, 24, ": r e g i o n Space s o l v e Enter b ) k", true);
	golden("ranks_strip", rank_calls,
		sizeof rank_calls / sizeof rank_calls[0], VT_START | VT_THREADS,
		120, 30, ": r e g i o n Space s o l v e Enter", false);
}
END_TEST

static void demo_golden(const char *name, const char *script)
{
	char *path = svt_tmp_path("demo.h5");
	struct sv_profile *p = NULL;
	struct sv_error err;
	struct sv_grid g;

	ck_assert_int_eq(sv_demo_write(path, &err), 0);
	ck_assert_int_eq(sv_load(path, NULL, &p, &err), 0);
	sv_grid_init(&g);
	draw(&g, p, 160, 45, script, false);
	vt_golden(&g, name);
	sv_grid_fini(&g);
	sv_profile_free(p);
	unlink(path);
	free(path);
}

START_TEST(test_subset_whole_run)
{
	/* given ranks 0 and 2 of four read, and a row for each rank left
	 * out, as a memory budget loads them */
	char *path = svt_fixture("four_ranks.h5");
	bool on[4] = {true, false, true, false};
	struct sv_load_opts o = {
		.rank_on = on, .nrank_on = 4, .absent_lanes = true};
	struct sv_profile *p = NULL;
	struct sv_error err;
	struct sv_grid g;

	ck_assert_int_eq(sv_load(path, &o, &p, &err), 0);
	ck_assert(p->rank_subset);
	ck_assert_ptr_nonnull(p->run);
	/* then ranks 1 and 3 are drawn from their stored statistics, and
	 * the panel has the whole run's figures and the subset's share */
	sv_grid_init(&g);
	draw(&g, p, 140, 30, "", false);
	vt_golden(&g, "subset_whole_run");
	sv_grid_fini(&g);
	sv_profile_free(p);
	free(path);
}
END_TEST

START_TEST(test_demo_rank_rows)
{
	/* the whole run: no details box, deep rows with calls kept */
	demo_golden("demo_timeline_whole_run", "");
	/* zoomed in: the depth rows empty in the window fold away */
	demo_golden("demo_rows_folded", "+ + + d d");
	/* solve's rank rows, the strip below them */
	demo_golden("demo_rank_rows", "p j j Enter p b");
	/* the panel two steps narrower */
	demo_golden("demo_panel_narrower", "{ {");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("render");
	TCase *tc = tcase_create("golden");
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_one_call);
	tcase_add_test(tc, test_deep_nesting);
	tcase_add_test(tc, test_many_lanes);
	tcase_add_test(tc, test_threads_tasks);
	tcase_add_test(tc, test_narrow);
	tcase_add_test(tc, test_selected_details);
	tcase_add_test(tc, test_gpu_await);
	tcase_add_test(tc, test_unicode_names);
	tcase_add_test(tc, test_zoom_single_call);
	tcase_add_test(tc, test_popups_and_panel);
	tcase_add_test(tc, test_light_theme);
	tcase_add_test(tc, test_wide);
	tcase_add_test(tc, test_rank_rows_golden);
	tcase_add_test(tc, test_demo_rank_rows);
	tcase_add_test(tc, test_subset_whole_run);
	tcase_add_test(tc, test_metadata_popup);
	tcase_add_test(tc, test_prompts);
	tcase_add_test(tc, test_folded_ranks);
	tcase_add_test(tc, test_statistics_only);
	suite_add_tcase(s, tc);
	tc = tcase_create("frames");
	tcase_add_test(tc, test_no_alloc_same_frame);
	tcase_add_test(tc, test_kept_rows_match_fresh);
	tcase_add_test(tc, test_match_in_merged_cell);
	tcase_add_test(tc, test_source_popup_text);
	tcase_add_test(tc, test_details_callmeta);
	tcase_add_test(tc, test_source_popup_lineprof);
	tcase_add_test(tc, test_warnings_unshown);
	tcase_add_test(tc, test_contents_popup);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
