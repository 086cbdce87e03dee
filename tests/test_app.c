/*
 * test_app.c: the viewer's loop driven by the key-script backend.
 *
 * Every action of the action table, pressed through the loop, changes the
 * view as it should (one table row per action: keys to get there, then
 * what must differ).  The loop's screen equals `snapshot`'s for the same
 * keys, with the file loaded in the background thread.  Loading shows a
 * progress box at once, `q` stops a load, a failed load is reported, an
 * aggregate profile says it has no per-call data, `R` keeps the window.
 * And through the real curses backend writing into a file: a cursor move
 * or a one-column pan sends far fewer bytes than the first full paint.
 */
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/action.h"
#include "scopeview/app.h"
#include "scopeview/budget.h"
#include "scopeview/gen.h"
#include "scopeview/keys.h"
#include "scopeview/mode.h"
#include "scopeview/load.h"
#include "scopeview/snapshot.h"
#include "scopeview/term.h"
#include "scopeview/view.h"
#include "scopeview/panel.h"
#include "scopeview/runs.h"
#include "scopeview/timeline.h"
#include "viewtest.h"

/* The timeline mode's state of view v. */
#define TL(v) sv_view_timeline(v)

#define W 100
#define H 30

static char *profile_path;

/* A generated profile, written once per test process. */
static const char *profile(void)
{
	struct sv_gen_opts o;
	struct sv_error err;

	if (profile_path)
		return profile_path;
	setlocale(LC_ALL, "");
	profile_path = svt_tmp_path("app.h5");
	sv_gen_opts_init(&o);
	o.ranks = 3;
	o.threads = 2;
	o.events = 4000;
	o.seed = 7;
	memset(&err, 0, sizeof err);
	ck_assert_msg(sv_gen_write(profile_path, &o, NULL, NULL, &err) == 0,
		"gen: %s", err.msg);
	return profile_path;
}

/* The memory budget run_keys gives the loop (0: none). */
static uint64_t run_memory;

struct run {
	struct sv_app *app;
	struct sv_script script;
	int *keys;
	size_t nkeys;
	int rc;
	struct sv_error err;
};

/* Run the loop on path (or on runs[0 .. nruns) when nruns >= 3) with a
 * key script at W x H. */
static void run_keys_on(struct run *r, const char *path,
	const char *const *runs, size_t nruns, const char *script,
	bool threaded)
{
	struct sv_app_opts o;
	struct sv_backend b;
	struct sv_error err;

	memset(r, 0, sizeof *r);
	memset(&err, 0, sizeof err);
	ck_assert_msg(
		sv_keys_parse_script(script, &r->keys, &r->nkeys, &err) == 0,
		"script '%s': %s", script, err.msg);
	memset(&o, 0, sizeof o);
	o.path = path;
	o.runs = runs;
	o.nruns = nruns;
	o.source.load = sv_load;
	o.source.thread_init = sv_load_quiet_hdf5;
	o.load_in_thread = threaded;
	o.poll_ms = 5;
	o.source.memory = run_memory;
	r->app = sv_app_new(&o);
	r->script.keys = r->keys;
	r->script.nkeys = r->nkeys;
	r->script.w = W;
	r->script.h = H;
	sv_script_backend(&b, &r->script);
	r->rc = sv_app_run(r->app, &b, &r->err);
}

static void run_keys(
	struct run *r, const char *path, const char *script, bool threaded)
{
	run_keys_on(r, path, NULL, 0, script, threaded);
}

static void run_free(struct run *r)
{
	sv_app_free(r->app);
	free(r->keys);
}

/* ---- every action changes the view as it should ------------------------ */

typedef bool (*check_fn)(const struct sv_view *before,
	const struct sv_view *after, char *why, size_t n);

static int64_t span_of(const struct sv_view *v)
{
	return TL(v)->t1 - TL(v)->t0;
}

#define WHY(...) (snprintf(why, n, __VA_ARGS__), false)

static bool cur_t_less(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return TL(a)->cur_t < TL(b)->cur_t ||
	       WHY("cursor time %lld -> %lld", (long long)TL(b)->cur_t,
		       (long long)TL(a)->cur_t);
}
static bool cur_t_more(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return TL(a)->cur_t > TL(b)->cur_t ||
	       WHY("cursor time %lld -> %lld", (long long)TL(b)->cur_t,
		       (long long)TL(a)->cur_t);
}
static bool row_less(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return sv_timeline_cursor_row(TL(a)) < sv_timeline_cursor_row(TL(b)) ||
	       WHY("cursor row %ld -> %ld", sv_timeline_cursor_row(TL(b)),
		       sv_timeline_cursor_row(TL(a)));
}
static bool row_more(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return sv_timeline_cursor_row(TL(a)) > sv_timeline_cursor_row(TL(b)) ||
	       WHY("cursor row %ld -> %ld", sv_timeline_cursor_row(TL(b)),
		       sv_timeline_cursor_row(TL(a)));
}
static bool span_less(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return span_of(a) < span_of(b) ||
	       WHY("span %lld -> %lld", (long long)span_of(b),
		       (long long)span_of(a));
}
static bool span_more(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return span_of(a) > span_of(b) ||
	       WHY("span %lld -> %lld", (long long)span_of(b),
		       (long long)span_of(a));
}
static bool t0_less(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (TL(a)->t0 < TL(b)->t0 && span_of(a) == span_of(b)) ||
	       WHY("t0 %lld -> %lld", (long long)TL(b)->t0,
		       (long long)TL(a)->t0);
}
static bool t0_more(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (TL(a)->t0 > TL(b)->t0 && span_of(a) == span_of(b)) ||
	       WHY("t0 %lld -> %lld", (long long)TL(b)->t0,
		       (long long)TL(a)->t0);
}
static bool at_start(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (TL(a)->t0 == a->s.run_t0 && TL(b)->t0 > b->s.run_t0) ||
	       WHY("t0 %lld -> %lld, run starts at %lld", (long long)TL(b)->t0,
		       (long long)TL(a)->t0, (long long)a->s.run_t0);
}
static bool at_end(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (TL(a)->t1 == a->s.run_t1 && TL(b)->t1 < b->s.run_t1) ||
	       WHY("t1 %lld -> %lld, run ends at %lld", (long long)TL(b)->t1,
		       (long long)TL(a)->t1, (long long)a->s.run_t1);
}
static bool fits_run(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (TL(a)->t0 <= a->s.run_t0 && TL(a)->t1 >= a->s.run_t1 &&
		       span_of(b) < span_of(a)) ||
	       WHY("window [%lld, %lld) of run [%lld, %lld)",
		       (long long)TL(a)->t0, (long long)TL(a)->t1,
		       (long long)a->s.run_t0, (long long)a->s.run_t1);
}
static bool zoomed_to_call(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	const struct sv_profile *p = a->s.p;
	return (a->s.sel != SV_NO_CALL &&
		       TL(a)->t0 <= sv_profile_start(p, a->s.sel) &&
		       TL(a)->t1 >= sv_profile_end(p, a->s.sel) &&
		       span_of(a) < span_of(b)) ||
	       WHY("window [%lld, %lld) does not frame the call",
		       (long long)TL(a)->t0, (long long)TL(a)->t1);
}
static bool sel_later(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	const struct sv_profile *p = a->s.p;
	return (a->s.sel != SV_NO_CALL &&
		       (b->s.sel == SV_NO_CALL ||
			       sv_profile_start(p, a->s.sel) >
				       sv_profile_start(p, b->s.sel))) ||
	       WHY("selection %u -> %u", b->s.sel, a->s.sel);
}
static bool sel_earlier(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	const struct sv_profile *p = a->s.p;
	return (a->s.sel != SV_NO_CALL && b->s.sel != SV_NO_CALL &&
		       sv_profile_start(p, a->s.sel) <
			       sv_profile_start(p, b->s.sel)) ||
	       WHY("selection %u -> %u", b->s.sel, a->s.sel);
}
static bool sel_parent(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (b->s.sel != SV_NO_CALL &&
		       a->s.sel == sv_profile_parent(a->s.p, b->s.sel)) ||
	       WHY("selection %u -> %u", b->s.sel, a->s.sel);
}
static bool sel_child(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (a->s.sel != SV_NO_CALL &&
		       sv_profile_parent(a->s.p, a->s.sel) == b->s.sel) ||
	       WHY("selection %u -> %u", b->s.sel, a->s.sel);
}
static bool sel_longest_child(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	const struct sv_profile *p = a->s.p;
	uint32_t c;
	if (a->s.sel == SV_NO_CALL ||
		sv_profile_parent(p, a->s.sel) != b->s.sel)
		return WHY("selection %u -> %u", b->s.sel, a->s.sel);
	for (c = 0; c < p->ncalls; c++)
		if (sv_profile_parent(p, c) == b->s.sel &&
			sv_call_duration(p, c) > sv_call_duration(p, a->s.sel))
			return WHY("call %u is longer than %u", c, a->s.sel);
	return true;
}
static bool sel_sibling_later(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	const struct sv_profile *p = a->s.p;
	return (a->s.sel != SV_NO_CALL && b->s.sel != SV_NO_CALL &&
		       sv_profile_parent(p, a->s.sel) ==
			       sv_profile_parent(p, b->s.sel) &&
		       sv_profile_start(p, a->s.sel) >
			       sv_profile_start(p, b->s.sel)) ||
	       WHY("selection %u -> %u", b->s.sel, a->s.sel);
}
static bool sel_sibling_earlier(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	const struct sv_profile *p = a->s.p;
	return (a->s.sel != SV_NO_CALL && b->s.sel != SV_NO_CALL &&
		       sv_profile_parent(p, a->s.sel) ==
			       sv_profile_parent(p, b->s.sel) &&
		       sv_profile_start(p, a->s.sel) <
			       sv_profile_start(p, b->s.sel)) ||
	       WHY("selection %u -> %u", b->s.sel, a->s.sel);
}
static bool solo_on(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	size_t l, shown = 0;
	for (l = 0; l < a->s.p->nlanes; l++)
		shown += !a->s.lane_hidden[l];
	return (b->s.solo_lane < 0 && a->s.solo_lane >= 0 && shown == 1 &&
		       TL(a)->rows.n ==
			       a->s.p->lanes[a->s.solo_lane].depth_rows) ||
	       WHY("solo %ld -> %ld, %zu lanes shown, %zu rows", b->s.solo_lane,
		       a->s.solo_lane, shown, (size_t)TL(a)->rows.n);
}
static bool rank_folded(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (!TL(b)->lane_folded[TL(b)->cur_lane] &&
		       TL(a)->lane_folded[TL(b)->cur_lane] &&
		       TL(a)->rows.n < TL(b)->rows.n) ||
	       WHY("lane %u: rows %zu -> %zu", TL(b)->cur_lane,
		       (size_t)TL(b)->rows.n, (size_t)TL(a)->rows.n);
}
static bool all_folded(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	size_t l, ranks = a->s.p->nlanes ? 1 : 0;

	for (l = 1; l < a->s.p->nlanes; l++)
		ranks += a->s.p->lanes[l].rank != a->s.p->lanes[l - 1].rank;
	return (TL(a)->rows.n < TL(b)->rows.n && TL(a)->rows.n == ranks) ||
	       WHY("rows %zu -> %zu for %zu ranks", (size_t)TL(b)->rows.n,
		       (size_t)TL(a)->rows.n, ranks);
}
static bool prompt_search(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return sv_view_prompt(a) == SV_PROMPT_SEARCH ||
	       WHY("prompt %d", sv_view_prompt(a));
}
static bool prompt_filter(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return sv_view_prompt(a) == SV_PROMPT_FILTER ||
	       WHY("prompt %d", sv_view_prompt(a));
}
static bool prompt_ranks(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return sv_view_prompt(a) == SV_PROMPT_RANKS ||
	       WHY("prompt %d", sv_view_prompt(a));
}
static bool prompt_command(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return sv_view_prompt(a) == SV_PROMPT_COMMAND ||
	       WHY("prompt %d", sv_view_prompt(a));
}
static bool match_next(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (sv_session_jump_pos(&a->s, false) ==
			       sv_session_jump_pos(&b->s, false) + 1 &&
		       a->s.sel != SV_NO_CALL &&
		       sv_session_is_match(&a->s, a->s.sel)) ||
	       WHY("match %ld -> %ld", sv_session_jump_pos(&b->s, false),
		       sv_session_jump_pos(&a->s, false));
}
static bool match_prev(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (sv_session_jump_pos(&a->s, false) ==
			       sv_session_jump_pos(&b->s, false) - 1 &&
		       a->s.sel != SV_NO_CALL &&
		       sv_session_is_match(&a->s, a->s.sel)) ||
	       WHY("match %ld -> %ld", sv_session_jump_pos(&b->s, false),
		       sv_session_jump_pos(&a->s, false));
}
static bool focus_toggled(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return TL(a)->panel.focus != TL(b)->panel.focus ||
	       WHY("panel focus stays %d", TL(a)->panel.focus);
}
static bool panel_toggled(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (TL(a)->panel_shown != TL(b)->panel_shown &&
		       (TL(a)->geom.panel_w == 0) !=
			       (TL(b)->geom.panel_w == 0)) ||
	       WHY("panel shown %d -> %d", TL(b)->panel_shown,
		       TL(a)->panel_shown);
}
/* The column < (dir -1) or > steps to from col. */
static int sort_step(int col, int dir)
{
	do
		col = (col + dir + SV_PANEL_COL_COUNT) % SV_PANEL_COL_COUNT;
	while (!sv_panel_col_sorts(col));
	return col;
}
static bool sort_prev(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return sv_panel_key_col(sv_session_sort_key(&a->s)) ==
		       sort_step(sv_panel_key_col(sv_session_sort_key(&b->s)),
			       -1) ||
	       WHY("sort column %d -> %d",
		       sv_panel_key_col(sv_session_sort_key(&b->s)),
		       sv_panel_key_col(sv_session_sort_key(&a->s)));
}
static bool sort_next(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return sv_panel_key_col(sv_session_sort_key(&a->s)) ==
		       sort_step(sv_panel_key_col(sv_session_sort_key(&b->s)),
			       1) ||
	       WHY("sort column %d -> %d",
		       sv_panel_key_col(sv_session_sort_key(&b->s)),
		       sv_panel_key_col(sv_session_sort_key(&a->s)));
}
static bool details_toggled(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return TL(a)->details_shown != TL(b)->details_shown ||
	       WHY("details stay %d", TL(a)->details_shown);
}
static bool popup_source(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return sv_view_popup(a) == SV_POPUP_SOURCE ||
	       WHY("popup %d", sv_view_popup(a));
}
static bool popup_metadata(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return sv_view_popup(a) == SV_POPUP_METADATA ||
	       WHY("popup %d", sv_view_popup(a));
}
static bool popup_contents(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return sv_view_popup(a) == SV_POPUP_CONTENTS ||
	       WHY("popup %d", sv_view_popup(a));
}
static bool popup_warnings(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return sv_view_popup(a) == SV_POPUP_WARNINGS ||
	       WHY("popup %d", sv_view_popup(a));
}
static bool popup_help(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return sv_view_popup(a) == SV_POPUP_HELP ||
	       WHY("popup %d", sv_view_popup(a));
}
static bool reloaded(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (a->s.p != b->s.p && TL(a)->t0 == TL(b)->t0 &&
		       TL(a)->t1 == TL(b)->t1 &&
		       TL(a)->cur_lane == TL(b)->cur_lane) ||
	       WHY("window [%lld, %lld) -> [%lld, %lld)", (long long)TL(b)->t0,
		       (long long)TL(b)->t1, (long long)TL(a)->t0,
		       (long long)TL(a)->t1);
}

/* The panel's, a popup's and a prompt's own state of a view. */
static long pcur(const struct sv_view *v)
{
	return TL(v)->panel.list.cur;
}
static long ptop(const struct sv_view *v)
{
	return sv_mode_popup_top(sv_view_top((struct sv_view *)v));
}
static const char *ptext(const struct sv_view *v)
{
	return sv_view_prompt(v) != SV_PROMPT_NONE
		       ? sv_mode_prompt_text(sv_view_top((struct sv_view *)v))
		       : "(no prompt)";
}
static bool names_right(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return TL(a)->panel.name_x > TL(b)->panel.name_x ||
	       WHY("names at %d -> %d", TL(b)->panel.name_x,
		       TL(a)->panel.name_x);
}
static bool names_left(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return TL(a)->panel.name_x < TL(b)->panel.name_x ||
	       WHY("names at %d -> %d", TL(b)->panel.name_x,
		       TL(a)->panel.name_x);
}
static size_t pcursor(const struct sv_view *v)
{
	return sv_view_prompt(v) != SV_PROMPT_NONE
		       ? sv_mode_prompt_cursor(sv_view_top((struct sv_view *)v))
		       : (size_t)-1;
}
static bool prompt_cursor_left(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (pcursor(a) + 1 == pcursor(b) && !strcmp(ptext(a), ptext(b))) ||
	       WHY("cursor %zu -> %zu", pcursor(b), pcursor(a));
}
static bool prompt_cursor_right(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (pcursor(a) == pcursor(b) + 1 && !strcmp(ptext(a), ptext(b))) ||
	       WHY("cursor %zu -> %zu", pcursor(b), pcursor(a));
}
static bool prompt_cursor_home(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return pcursor(a) == 0 || WHY("cursor %zu", pcursor(a));
}
static bool prompt_cursor_end(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return pcursor(a) == strlen(ptext(a)) || WHY("cursor %zu", pcursor(a));
}
static bool prompt_word_gone(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return !strcmp(ptext(a), "ab ") || WHY("text '%s'", ptext(a));
}
static bool prompt_recalled(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return !strcmp(ptext(a), "a") || WHY("text '%s'", ptext(a));
}
static bool prompt_back_to_typed(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (!strcmp(ptext(b), "a") && !strcmp(ptext(a), "x")) ||
	       WHY("text '%s' -> '%s'", ptext(b), ptext(a));
}
static bool view_switched(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return a->main != b->main || WHY("main mode stays %d", a->main);
}
static bool panel_next(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return pcur(a) == pcur(b) + 1 ||
	       WHY("panel row %ld -> %ld", pcur(b), pcur(a));
}
static bool panel_prev(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return pcur(a) == pcur(b) - 1 ||
	       WHY("panel row %ld -> %ld", pcur(b), pcur(a));
}
static bool panel_later(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return pcur(a) > pcur(b) ||
	       WHY("panel row %ld -> %ld", pcur(b), pcur(a));
}
static bool panel_earlier(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return pcur(a) < pcur(b) ||
	       WHY("panel row %ld -> %ld", pcur(b), pcur(a));
}
static bool panel_marked(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (b->s.mark_region < 0 && a->s.mark_region >= 0 &&
		       a->s.sel != SV_NO_CALL) ||
	       WHY("marked region %ld -> %ld", b->s.mark_region,
		       a->s.mark_region);
}
static bool panel_left(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (TL(b)->panel.focus && !TL(a)->panel.focus) ||
	       WHY("focus %d -> %d", TL(b)->panel.focus, TL(a)->panel.focus);
}
static bool popup_closed(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (sv_view_popup(b) != SV_POPUP_NONE &&
		       sv_view_popup(a) == SV_POPUP_NONE) ||
	       WHY("popup %d -> %d", sv_view_popup(b), sv_view_popup(a));
}
static bool popup_later(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return ptop(a) > ptop(b) || WHY("top %ld -> %ld", ptop(b), ptop(a));
}
static bool popup_earlier(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return ptop(a) < ptop(b) || WHY("top %ld -> %ld", ptop(b), ptop(a));
}
static bool prompt_entered(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return (sv_view_prompt(a) == SV_PROMPT_NONE &&
		       !strcmp(sv_session_search_spec(&a->s), "a")) ||
	       WHY("prompt %d, search '%s'", sv_view_prompt(a),
		       sv_session_search_spec(&a->s));
}
static bool prompt_cancelled(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return (sv_view_prompt(a) == SV_PROMPT_NONE &&
		       !sv_session_search_spec(&a->s)[0]) ||
	       WHY("prompt %d, search '%s'", sv_view_prompt(a),
		       sv_session_search_spec(&a->s));
}
static bool prompt_erased(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return !strcmp(ptext(a), "a") || WHY("text '%s'", ptext(a));
}
static bool prompt_completed(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return strlen(ptext(a)) > strlen(ptext(b)) ||
	       WHY("text '%s' -> '%s'", ptext(b), ptext(a));
}
static bool prompt_emptied(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return !strcmp(ptext(a), "") || WHY("text '%s'", ptext(a));
}

/* Whether the two views draw different screens (for the views whose
 * state is their own: the call tree, the flame graph). */
static bool screen_changed(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	struct sv_grid gb, ga;
	char *x, *y;
	bool diff;

	sv_grid_init(&gb);
	sv_grid_init(&ga);
	sv_render(&gb, b);
	sv_render(&ga, a);
	x = vt_grid_dump(&gb);
	y = vt_grid_dump(&ga);
	diff = strcmp(x, y) != 0;
	free(x);
	free(y);
	sv_grid_fini(&gb);
	sv_grid_fini(&ga);
	return diff || WHY("the screen stays the same");
}
static bool range_set(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (!b->s.has_range && a->s.has_range &&
		       a->s.range_t0 < a->s.range_t1) ||
	       WHY("range %d -> %d", b->s.has_range, a->s.has_range);
}
static bool color_mode_changed(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	int mb = sv_session_color_mode(&b->s),
	    ma = sv_session_color_mode(&a->s);
	return (ma == (mb + 1) % SV_PALETTE_MODE_COUNT &&
		       strstr(a->s.message, "duration")) ||
	       WHY("colour mode %d -> %d (%s)", mb, ma, a->s.message);
}
static bool range_cleared(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (b->s.has_range && !a->s.has_range) ||
	       WHY("range %d -> %d", b->s.has_range, a->s.has_range);
}

/* The ranks, histogram and call-list modes: a field "key=N" of the main
 * mode's own state (describe). */
static long mode_field(const struct sv_view *v, const char *key)
{
	const struct sv_mode *m = sv_view_main_mode((struct sv_view *)v);
	char buf[256], pat[32];
	const char *at;
	buf[0] = '\0';
	if (m->ops->describe)
		m->ops->describe(m, buf, sizeof buf);
	snprintf(pat, sizeof pat, "%s=", key);
	at = strstr(buf, pat);
	return at ? strtol(at + strlen(pat), NULL, 10) : -999;
}
#define FIELD_CHECK(fn, key, op)                                         \
	static bool fn(const struct sv_view *b, const struct sv_view *a, \
		char *why, size_t n)                                     \
	{                                                                \
		return mode_field(a, key) op mode_field(b, key) ||       \
		       WHY("%s %ld -> %ld", key, mode_field(b, key),     \
			       mode_field(a, key));                      \
	}
FIELD_CHECK(ranks_row_more, "row", >)
FIELD_CHECK(ranks_row_less, "row", <)
FIELD_CHECK(ranks_col_more, "col", >)
FIELD_CHECK(ranks_col_less, "col", <)
FIELD_CHECK(ranks_metric_changed, "metric", !=)
FIELD_CHECK(ranks_order_changed, "order", !=)
FIELD_CHECK(hist_bin_more, "bin", >)
FIELD_CHECK(hist_bin_less, "bin", <)
FIELD_CHECK(hist_anchor_changed, "anchor", !=)
FIELD_CHECK(hist_bins_more, "bins", >)
FIELD_CHECK(hist_bins_less, "bins", <)
FIELD_CHECK(hist_source_changed, "source", !=)
FIELD_CHECK(calls_cur_more, "cur", >)
FIELD_CHECK(calls_cur_less, "cur", <)
FIELD_CHECK(calls_key_changed, "key", !=)
FIELD_CHECK(calls_reverse_changed, "reverse", !=)
FIELD_CHECK(trend_spark_changed, "spark", !=)
FIELD_CHECK(trend_per_less, "per", <)
FIELD_CHECK(trend_per_more, "per", >)
FIELD_CHECK(trend_metric_changed, "metric", !=)

static bool main_is(const struct sv_view *a, const struct sv_mode_ops *ops,
	char *why, size_t n)
{
	const struct sv_mode_ops *got =
		sv_view_main_mode((struct sv_view *)a)->ops;
	return got == ops || WHY("main mode %s", got->name);
}
static bool shows_ranks(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return main_is(a, &sv_mode_ranks, why, n);
}
static bool shows_histogram(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return main_is(a, &sv_mode_histogram, why, n);
}
static bool shows_calls(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return main_is(a, &sv_mode_calls, why, n);
}
static bool shows_trend(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return main_is(a, &sv_mode_trend, why, n);
}
static bool ranks_soloed(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return (main_is(a, &sv_mode_timeline, why, n) && a->s.rank_spec[0] &&
		       a->s.mark_region >= 0) ||
	       WHY("ranks '%s', marked %ld", a->s.rank_spec, a->s.mark_region);
}
static bool ranks_all_again(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (b->s.rank_spec[0] && !a->s.rank_spec[0]) ||
	       WHY("ranks '%s' -> '%s'", b->s.rank_spec, a->s.rank_spec);
}
static bool region_marked(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (b->s.mark_region < 0 && a->s.mark_region >= 0) ||
	       WHY("marked %ld -> %ld", b->s.mark_region, a->s.mark_region);
}
static bool span_changed(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return (sv_session_span(&a->s) != sv_session_span(&b->s) &&
		       a->s.message[0]) ||
	       WHY("span %d -> %d", (int)sv_session_span(&b->s),
		       (int)sv_session_span(&a->s));
}
static bool says_something(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return a->s.message[0] || WHY("no message");
}
static bool call_on_timeline(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	(void)b;
	return (main_is(a, &sv_mode_timeline, why, n) &&
		       a->s.sel != SV_NO_CALL &&
		       TL(a)->t0 <= sv_profile_start(a->s.p, a->s.sel) &&
		       TL(a)->t1 >= sv_profile_end(a->s.p, a->s.sel)) ||
	       WHY("selection %u not in view", (unsigned)a->s.sel);
}

static bool rank_rows_on(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	const struct sv_profile *p = a->s.p;
	size_t l, nranks = 0;
	for (l = 0; l < p->nlanes; l++)
		nranks += !l || p->lanes[l].rank != p->lanes[l - 1].rank;
	return (!TL(b)->ranks.on && TL(a)->ranks.on &&
		       TL(a)->rows.n == nranks) ||
	       WHY("rank rows %d -> %d, %zu rows for %zu ranks",
		       TL(b)->ranks.on, TL(a)->ranks.on, TL(a)->rows.n, nranks);
}
static bool rank_depth_less(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return sv_timeline_ranks_depth(TL(a)) <
		       sv_timeline_ranks_depth(TL(b)) ||
	       WHY("depth %u -> %u", sv_timeline_ranks_depth(TL(b)),
		       sv_timeline_ranks_depth(TL(a)));
}
static bool rank_depth_more(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return rank_depth_less(a, b, why, n);
}
static bool panel_wider(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return TL(a)->geom.panel_w > TL(b)->geom.panel_w ||
	       WHY("panel %d -> %d", TL(b)->geom.panel_w, TL(a)->geom.panel_w);
}
static bool panel_narrower(
	const struct sv_view *b, const struct sv_view *a, char *why, size_t n)
{
	return panel_wider(a, b, why, n);
}

/* QUIT is checked by test_quit_stops_the_script (the keys after it are
 * not read). */
static const struct {
	int action;
	const char *setup; /* keys before the action's key */
	check_fn check;
} action_cases[] = {
	{SV_ACTION_MOVE_LEFT, "l l", cur_t_less},
	{SV_ACTION_MOVE_RIGHT, "", cur_t_more},
	{SV_ACTION_MOVE_UP, "j", row_less},
	{SV_ACTION_MOVE_DOWN, "", row_more},
	{SV_ACTION_PAGE_UP, "PageDown", row_less},
	{SV_ACTION_PAGE_DOWN, "", row_more},
	{SV_ACTION_ZOOM_IN, "", span_less},
	{SV_ACTION_ZOOM_OUT, "+ +", span_more},
	{SV_ACTION_PAN_LEFT, "+ + d d", t0_less},
	{SV_ACTION_PAN_RIGHT, "+ +", t0_more},
	{SV_ACTION_GO_START, "+ + d d", at_start},
	{SV_ACTION_GO_END, "+ +", at_end},
	{SV_ACTION_ZOOM_CALL, "Tab J", zoomed_to_call},
	{SV_ACTION_ZOOM_FIT, "+ +", fits_run},
	{SV_ACTION_ZOOM_BACK, "+ +", span_more},
	{SV_ACTION_NEXT_CALL, "Tab", sel_later},
	{SV_ACTION_PREV_CALL, "Tab Tab", sel_earlier},
	{SV_ACTION_PARENT, "Tab J", sel_parent},
	{SV_ACTION_CHILD, "Tab", sel_child},
	{SV_ACTION_NEXT_SIBLING, "Tab J", sel_sibling_later},
	{SV_ACTION_PREV_SIBLING, "Tab J ]", sel_sibling_earlier},
	{SV_ACTION_LONGEST_CHILD, "Tab", sel_longest_child},
	{SV_ACTION_SOLO_LANE, "", solo_on},
	{SV_ACTION_FOLD_RANK, "", rank_folded},
	{SV_ACTION_FOLD_ALL, "", all_folded},
	{SV_ACTION_SEARCH, "", prompt_search},
	{SV_ACTION_SEARCH_NEXT, "/ s o l v e Enter", match_next},
	{SV_ACTION_SEARCH_PREV, "/ s o l v e Enter n n", match_prev},
	{SV_ACTION_FILTER, "", prompt_filter},
	{SV_ACTION_RANK_FILTER, "", prompt_ranks},
	{SV_ACTION_COMMAND, "", prompt_command},
	{SV_ACTION_PANEL_FOCUS, "", focus_toggled},
	{SV_ACTION_PANEL_TOGGLE, "", panel_toggled},
	{SV_ACTION_SORT_PREV, "", sort_prev},
	{SV_ACTION_SORT_NEXT, "", sort_next},
	{SV_ACTION_DETAILS, "", details_toggled},
	{SV_ACTION_SOURCE, "Tab", popup_source},
	{SV_ACTION_METADATA, "", popup_metadata},
	{SV_ACTION_WARNINGS, "", popup_warnings},
	{SV_ACTION_CONTENTS, "", popup_contents},
	{SV_ACTION_HELP, "", popup_help},
	{SV_ACTION_RELOAD, "+ + j", reloaded},
	{SV_ACTION_VIEW_NEXT, "", view_switched},
	{SV_ACTION_CLOSE, "T", view_switched},
	{SV_ACTION_CLOSE, "B", view_switched},
	{SV_ACTION_BACK, "T", view_switched},
	{SV_ACTION_BACK, "F", view_switched},
	{SV_ACTION_BACK, "T g j c", view_switched},
	{SV_ACTION_BACK, "B", view_switched},
	{SV_ACTION_BACK, "Tab H", view_switched},
	{SV_ACTION_BACK, "Tab L", view_switched},
	{SV_ACTION_BACK, "V", view_switched},
	{SV_ACTION_LIST_DOWN, "p", panel_next},
	{SV_ACTION_LIST_DOWN, "T", screen_changed},
	{SV_ACTION_LIST_DOWN, "B", ranks_row_more},
	{SV_ACTION_LIST_DOWN, "Tab H", hist_bin_more},
	{SV_ACTION_LIST_DOWN, "Tab L", calls_cur_more},
	{SV_ACTION_LIST_DOWN, "?", popup_later},
	{SV_ACTION_LIST_DOWN, "T g j c", screen_changed},
	{SV_ACTION_LIST_UP, "p j j", panel_prev},
	{SV_ACTION_LIST_UP, "T j", screen_changed},
	{SV_ACTION_LIST_UP, "B j", ranks_row_less},
	{SV_ACTION_LIST_UP, "Tab H j", hist_bin_less},
	{SV_ACTION_LIST_UP, "Tab L j", calls_cur_less},
	{SV_ACTION_LIST_UP, "? j j", popup_earlier},
	{SV_ACTION_LIST_UP, "T g j c j", screen_changed},
	{SV_ACTION_LIST_PAGE_DOWN, "p", panel_later},
	{SV_ACTION_LIST_PAGE_DOWN, "B", ranks_row_more},
	{SV_ACTION_LIST_PAGE_DOWN, "Tab L", calls_cur_more},
	{SV_ACTION_LIST_PAGE_DOWN, "?", popup_later},
	{SV_ACTION_LIST_PAGE_UP, "p End", panel_earlier},
	{SV_ACTION_LIST_PAGE_UP, "B PageDown", ranks_row_less},
	{SV_ACTION_LIST_PAGE_UP, "Tab L End", calls_cur_less},
	{SV_ACTION_LIST_PAGE_UP, "? End", popup_earlier},
	{SV_ACTION_LIST_FIRST, "p j j", panel_earlier},
	{SV_ACTION_LIST_FIRST, "T j", screen_changed},
	{SV_ACTION_LIST_FIRST, "Tab L End", calls_cur_less},
	{SV_ACTION_LIST_FIRST, "? j", popup_earlier},
	{SV_ACTION_LIST_LAST, "p", panel_later},
	{SV_ACTION_LIST_LAST, "T", screen_changed},
	{SV_ACTION_LIST_LAST, "Tab H", hist_bin_more},
	{SV_ACTION_LIST_LAST, "Tab L", calls_cur_more},
	{SV_ACTION_LIST_LAST, "?", popup_later},
	{SV_ACTION_LIST_ENTER, "p", panel_marked},
	{SV_ACTION_LIST_ENTER, "T j", view_switched},
	{SV_ACTION_LIST_ENTER, "T g j c j", screen_changed},
	{SV_ACTION_LIST_ENTER, "B j", ranks_soloed},
	{SV_ACTION_LIST_ENTER, "Tab H", shows_calls},
	{SV_ACTION_LIST_ENTER, "Tab L j", call_on_timeline},
	{SV_ACTION_LIST_SORT_NEXT, "T", screen_changed},
	{SV_ACTION_LIST_SORT_NEXT, "Tab L", calls_key_changed},
	{SV_ACTION_LIST_SORT_NEXT, "V", sort_next},
	{SV_ACTION_LIST_SORT_PREV, "T", screen_changed},
	{SV_ACTION_LIST_SORT_PREV, "Tab L", calls_key_changed},
	{SV_ACTION_LIST_SORT_PREV, "V", sort_prev},
	{SV_ACTION_LIST_REVERSE, "Tab L", calls_reverse_changed},
	{SV_ACTION_LIST_SEARCH, "T", prompt_search},
	{SV_ACTION_LIST_SEARCH, "Tab L", prompt_search},
	{SV_ACTION_LIST_MATCH_NEXT, "T / . Enter", screen_changed},
	{SV_ACTION_LIST_MATCH_PREV, "T / . Enter", screen_changed},
	{SV_ACTION_LIST_MATCH_NEXT, "p / . Enter", panel_next},
	{SV_ACTION_PANEL_MARK, "p", panel_marked},
	{SV_ACTION_PANEL_BACK, "p", panel_left},
	{SV_ACTION_PANEL_NAMES_RIGHT, "p", names_right},
	{SV_ACTION_PANEL_NAMES_LEFT, "p l", names_left},
	{SV_ACTION_POPUP_CLOSE, "?", popup_closed},
	{SV_ACTION_PROMPT_ENTER, "/ a", prompt_entered},
	{SV_ACTION_PROMPT_CANCEL, "/ a", prompt_cancelled},
	{SV_ACTION_PROMPT_BACKSPACE, "/ a b", prompt_erased},
	{SV_ACTION_PROMPT_CLEAR, "/ a b", prompt_emptied},
	{SV_ACTION_PROMPT_LEFT, "/ a b", prompt_cursor_left},
	{SV_ACTION_PROMPT_RIGHT, "/ a b Left", prompt_cursor_right},
	{SV_ACTION_PROMPT_HOME, "/ a b", prompt_cursor_home},
	{SV_ACTION_PROMPT_END, "/ a b Home", prompt_cursor_end},
	{SV_ACTION_PROMPT_DELETE_WORD, "/ a b Space c d", prompt_word_gone},
	{SV_ACTION_PROMPT_HISTORY_PREV, "/ a Enter /", prompt_recalled},
	{SV_ACTION_PROMPT_HISTORY_NEXT, "/ a Enter / x Up",
		prompt_back_to_typed},
	{SV_ACTION_PROMPT_COMPLETE, ": v i", prompt_completed},
	{SV_ACTION_PROMPT_COMPLETE, "/ s o", prompt_completed},
	{SV_ACTION_PROMPT_COMPLETE_PREV, ": s", prompt_completed},
	{SV_ACTION_VIEW_TREE, "", view_switched},
	{SV_ACTION_VIEW_FLAME, "", view_switched},
	{SV_ACTION_RANGE_START, "", range_set},
	{SV_ACTION_RANGE_END, "l l l l", range_set},
	{SV_ACTION_RANGE_CLEAR, "m", range_cleared},
	{SV_ACTION_TREE_EXPAND, "T * *", screen_changed},
	{SV_ACTION_TREE_COLLAPSE, "T", screen_changed},
	{SV_ACTION_TREE_ALL, "T", screen_changed},
	{SV_ACTION_TREE_RECURSION, "T", screen_changed},
	{SV_ACTION_TREE_SEARCH, "F", screen_changed},
	{SV_ACTION_TREE_MATCH_NEXT, "F / s o l v e Enter j", screen_changed},
	{SV_ACTION_FLAME_UP, "F j", screen_changed},
	{SV_ACTION_FLAME_DOWN, "F", screen_changed},
	{SV_ACTION_FLAME_LEFT, "F j", screen_changed},
	{SV_ACTION_FLAME_RIGHT, "F j", screen_changed},
	{SV_ACTION_FLAME_ZOOM, "F j", screen_changed},
	{SV_ACTION_FLAME_OUT, "F j Enter", screen_changed},
	{SV_ACTION_VIEW_CALLERS, "", view_switched},
	{SV_ACTION_TREE_CALLERS, "T j", view_switched},

	{SV_ACTION_RANGE_CALL, "Tab", range_set},
	{SV_ACTION_RANGE_WINDOW, "+ +", range_set},
	{SV_ACTION_STATS_SPAN, "+ +", span_changed},
	{SV_ACTION_VIEW_RANKS, "", shows_ranks},
	{SV_ACTION_VIEW_HISTOGRAM, "Tab", shows_histogram},
	{SV_ACTION_VIEW_CALLS, "Tab", shows_calls},
	{SV_ACTION_RANKS_RIGHT, "B", ranks_col_more},
	{SV_ACTION_RANKS_LEFT, "B l", ranks_col_less},
	{SV_ACTION_RANKS_METRIC, "B", ranks_metric_changed},
	{SV_ACTION_RANKS_SORT, "B", ranks_order_changed},
	{SV_ACTION_RANKS_WORST, "B", region_marked},
	{SV_ACTION_RANKS_EXPAND, "B", says_something},
	{SV_ACTION_RANKS_ALL, "B j Enter B", ranks_all_again},
	{SV_ACTION_RANKS_MARK, "B", region_marked},
	{SV_ACTION_HIST_RANGE, "Tab H", hist_anchor_changed},
	{SV_ACTION_HIST_MORE, "Tab H", hist_bins_more},
	{SV_ACTION_HIST_FEWER, "Tab H", hist_bins_less},
	{SV_ACTION_HIST_SOURCE, "/ s o l v e Enter H", hist_source_changed},
	{SV_ACTION_COLOR_MODE, "", color_mode_changed},
	{SV_ACTION_RANK_ROWS, "", rank_rows_on},
	{SV_ACTION_RANK_DEPTH_UP, "b ) )", rank_depth_less},
	{SV_ACTION_RANK_DEPTH_DOWN, "b", rank_depth_more},
	{SV_ACTION_PANEL_WIDER, "{ {", panel_wider},
	{SV_ACTION_PANEL_NARROWER, "", panel_narrower},
	{SV_ACTION_VIEW_TREND, "Tab", shows_trend},
	{SV_ACTION_TREND_RANKS, "E", trend_spark_changed},
	{SV_ACTION_TREND_ZOOM_IN,
		": r e g i o n Space k e r n e l : s p m v Enter E",
		trend_per_less},
	{SV_ACTION_TREND_ZOOM_OUT,
		": r e g i o n Space k e r n e l : s p m v Enter E +",
		trend_per_more},
	{SV_ACTION_TREND_NEXT_CHANGE, "E", says_something},
	{SV_ACTION_TREND_METRIC, "E", trend_metric_changed},
};

START_TEST(test_action_changes_view)
{
	const struct sv_action_info *info =
		sv_action_info(action_cases[_i].action);
	char key[32], script[256], why[256] = "";
	struct run before, after;
	const char *sp;
	size_t kl;

	ck_assert_ptr_nonnull(info);
	/* the action's first key */
	sp = strchr(info->keys, ' ');
	kl = sp ? (size_t)(sp - info->keys) : strlen(info->keys);
	ck_assert_uint_lt(kl, sizeof key);
	memcpy(key, info->keys, kl);
	key[kl] = '\0';
	snprintf(script, sizeof script, "%s%s%s", action_cases[_i].setup,
		*action_cases[_i].setup ? " " : "", key);

	/* given the view after the setup keys */
	run_keys(&before, profile(), action_cases[_i].setup, true);
	ck_assert_int_eq(before.rc, 0);
	ck_assert_ptr_nonnull(sv_app_view(before.app));
	/* when the action's key is pressed too */
	run_keys(&after, profile(), script, true);
	ck_assert_int_eq(after.rc, 0);
	ck_assert_ptr_nonnull(sv_app_view(after.app));
	/* then the view changed as the action says */
	ck_assert_msg(action_cases[_i].check(sv_app_view(before.app),
			      sv_app_view(after.app), why, sizeof why),
		"%s (%s after '%s'): %s", info->name, key,
		action_cases[_i].setup, why);
	ck_assert_uint_eq(after.script.pos, after.nkeys);
	run_free(&before);
	run_free(&after);
}
END_TEST

START_TEST(test_every_action_has_a_case)
{
	int a;
	size_t i;

	for (a = SV_ACTION_NONE + 1; a < SV_ACTION_COUNT; a++) {
		/* scaling-metric needs a runs workspace: test_runs_workspace */
		bool found =
			a == SV_ACTION_QUIT || a == SV_ACTION_SCALING_METRIC;
		for (i = 0; i < sizeof action_cases / sizeof action_cases[0];
			i++)
			found |= action_cases[i].action == a;
		ck_assert_msg(found, "action %s has no test case",
			sv_action_info(a)->name);
	}
}
END_TEST

/* ---- three or more runs -------------------------------------------- */

/* A run of ranks ranks (generated once), or a path that cannot be read. */
static const char *scaling_run(int ranks)
{
	static char *paths[9];
	struct sv_gen_opts o;
	struct sv_error err;

	if (ranks < 1)
		return "/nonexistent/run.h5";
	if (paths[ranks])
		return paths[ranks];
	paths[ranks] = svt_tmp_path(ranks == 1   ? "s1.h5"
				    : ranks == 2 ? "s2.h5"
						 : "s4.h5");
	sv_gen_opts_init(&o);
	o.ranks = (uint32_t)ranks;
	o.events = 3000;
	o.seed = 11;
	o.scale_ranks = 1;
	memset(&err, 0, sizeof err);
	ck_assert_msg(sv_gen_write(paths[ranks], &o, NULL, NULL, &err) == 0,
		"gen: %s", err.msg);
	return paths[ranks];
}

/* The app over runs (ranks of each; 0: unreadable) after script. */
static void run_runs(
	struct run *r, const int *ranks, size_t n, const char *script)
{
	const char *paths[8];
	size_t i;

	for (i = 0; i < n; i++)
		paths[i] = scaling_run(ranks[i]);
	run_keys_on(r, NULL, paths, n, script, true);
}

static const char *main_mode(const struct sv_view *v, char *buf, size_t n)
{
	const struct sv_mode *m = &v->mains[v->main];
	buf[0] = '\0';
	if (m->ops->describe)
		m->ops->describe(m, buf, n);
	return m->ops->name;
}

/* The runs workspace in the loop: the runs read on the view's jobs, x
 * changes the metric, Enter on two points opens them over it, Esc comes
 * back to the study as it was, and q there quits. */
START_TEST(test_runs_workspace)
{
	static const int ranks[] = {1, 2, 4, 0};
	const struct sv_view *v;
	struct run r;
	char buf[160];

	run_runs(&r, ranks, 4, "");
	ck_assert_int_eq(r.rc, 0);
	v = sv_app_view(r.app);
	ck_assert_str_eq(main_mode(v, buf, sizeof buf), "scaling");
	ck_assert_ptr_nonnull(v->runs);
	ck_assert_uint_eq(v->runs->measured, 3);
	ck_assert_uint_eq(v->runs->failed, 1);
	ck_assert_ptr_nonnull(strstr(v->runs->runs[3].error, "nonexistent"));
	run_free(&r);

	run_runs(&r, ranks, 4, "x");
	main_mode(sv_app_view(r.app), buf, sizeof buf);
	ck_assert_msg(strstr(buf, "metric=1") != NULL, "%s", buf);
	run_free(&r);

	run_runs(&r, ranks, 4, "j Enter j Enter");
	v = sv_app_view(r.app);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(main_mode(v, buf, sizeof buf), "timeline");
	ck_assert_ptr_nonnull(v->s.p2);
	ck_assert_uint_eq(v->s.p->num_ranks, 2);
	ck_assert_uint_eq(v->s.p2->num_ranks, 4);
	run_free(&r);

	run_runs(&r, ranks, 4, "j Enter j Enter Escape");
	v = sv_app_view(r.app);
	ck_assert_str_eq(main_mode(v, buf, sizeof buf), "scaling");
	ck_assert_msg(strstr(buf, "row=2 ") != NULL, "%s", buf);
	run_free(&r);

	/* q on the pair comes back; q on the study quits */
	run_runs(&r, ranks, 4, "j Enter j Enter q x q x");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.script.pos, r.nkeys - 1);
	main_mode(sv_app_view(r.app), buf, sizeof buf);
	ck_assert_msg(strstr(buf, "metric=1") != NULL, "%s", buf);
	run_free(&r);
}
END_TEST

/* Not one run can be read: the loop ends with -EIO naming one. */
START_TEST(test_runs_none_read)
{
	static const int ranks[] = {0, 0, 0};
	struct run r;

	run_runs(&r, ranks, 3, "");
	ck_assert_int_eq(r.rc, -EIO);
	ck_assert_ptr_nonnull(strstr(r.err.msg, "none of the 3 runs"));
	run_free(&r);
}
END_TEST

START_TEST(test_quit_stops_the_script)
{
	struct run r;

	/* q closes a popup first, then quits: the keys after it are unread */
	run_keys(&r, profile(), "? q j q j j", true);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.script.pos, 4);
	ck_assert_int_eq(sv_view_popup(sv_app_view(r.app)), SV_POPUP_NONE);
	run_free(&r);
}
END_TEST

/* ---- the loop draws what snapshot draws --------------------------------- */

static const char *same_screen_cases[] = {
	"",
	"j l l + + Tab",
	"t Tab f D",
	"/ s o l v e Enter n",
	"< < p",
	"?",
	"Tab v",
	"i",
	"Click:40,6",
	"WheelUp:50,8 WheelUp:50,8",
	"z Z",
	": g o t o Space 1 m s Enter",
	"r 0 Enter",
};

START_TEST(test_loop_matches_snapshot)
{
	const char *script = same_screen_cases[_i];
	struct sv_profile *p = NULL;
	struct sv_grid want;
	const struct sv_grid *got;
	struct sv_error err;
	struct run r;
	int x, y;

	/* given the loop run in the background-load mode with a script */
	run_keys(&r, profile(), script, true);
	ck_assert_int_eq(r.rc, 0);
	/* and snapshot's drawing of the same keys */
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(sv_load(profile(), NULL, &p, &err), 0);
	sv_grid_init(&want);
	ck_assert_int_eq(
		sv_snapshot_draw(&want, p, W, H, r.keys, r.nkeys, NULL, &err),
		0);
	/* then every cell is the same */
	got = sv_app_grid(r.app);
	ck_assert_int_eq(got->w, want.w);
	ck_assert_int_eq(got->h, want.h);
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++) {
			const struct sv_cell *a = sv_grid_cell(got, x, y);
			const struct sv_cell *b = sv_grid_cell(&want, x, y);
			ck_assert_msg(a->ch == b->ch && a->style == b->style &&
					      a->color == b->color,
				"'%s': cell (%d,%d) is U+%04X/%s, "
				"snapshot "
				"U+%04X/%s",
				script, x, y, a->ch,
				sv_grid_style_name(a->style), b->ch,
				sv_grid_style_name(b->style));
		}
	sv_grid_fini(&want);
	sv_profile_free(p);
	run_free(&r);
}
END_TEST

/* ---- loading ------------------------------------------------------------ */

/* The grid's text, one line per row, for substring checks. */
static char *grid_text(const struct sv_grid *g)
{
	char *text =
		sv_xmalloc((size_t)g->w * (size_t)g->h * 4 + (size_t)g->h + 1);
	size_t n = 0;
	int x, y;

	for (y = 0; y < g->h; y++) {
		for (x = 0; x < g->w; x++) {
			uint32_t ch = sv_grid_cell(g, x, y)->ch;
			if (ch != SV_GRID_WIDE_TAIL)
				n += sv_utf8_encode(ch, text + n);
		}
		text[n++] = '\n';
	}
	text[n] = '\0';
	return text;
}

/* A backend that remembers the text of the first screen and checks every
 * screen drawn while the load runs. */
struct first_screen {
	struct sv_backend inner;
	char *first;
	size_t presents;
	size_t loading_with_panel; /* progress box over the stored figures */
	size_t misleading;         /* progress box beside "statistics only" */
};

static void fs_size(void *ctx, int *w, int *h)
{
	struct first_screen *f = ctx;
	f->inner.size(f->inner.ctx, w, h);
}
static int fs_getkey(void *ctx, int timeout_ms)
{
	struct first_screen *f = ctx;
	return f->inner.getkey(f->inner.ctx, timeout_ms);
}
static void fs_present(void *ctx, const struct sv_grid *g)
{
	struct first_screen *f = ctx;
	char *text = grid_text(g);

	if (f->presents++ == 0) {
		f->first = text;
		return;
	}
	if (strstr(text, "Loading ")) {
		if (strstr(text, "Regions ("))
			f->loading_with_panel++;
		if (strstr(text, "statistics only"))
			f->misleading++;
	}
	free(text);
}

/* A viewer of path loading it in the background, looking at the load
 * every poll_ms. */
static struct sv_app *app_loading(const char *path, int poll_ms)
{
	struct sv_app_opts o;

	memset(&o, 0, sizeof o);
	o.path = path;
	o.source.load = sv_load;
	o.source.thread_init = sv_load_quiet_hdf5;
	o.load_in_thread = true;
	o.poll_ms = poll_ms;
	return sv_app_new(&o);
}

/* A backend that waits as a terminal does, for as long as the loop asks,
 * on the terminal's wake-up alone (sv_term_wait with no input); q once
 * nothing runs. */
static size_t woken_waits;

static void woken_size(void *ctx, int *w, int *h)
{
	(void)ctx;
	*w = W;
	*h = H;
}
static int woken_getkey(void *ctx, int timeout_ms)
{
	(void)ctx;
	if (timeout_ms < 0)
		return 'q';
	woken_waits++;
	while (sv_term_wait(-1, timeout_ms) < 0)
		;
	return SV_KEY_NONE;
}
static void woken_present(void *ctx, const struct sv_grid *g)
{
	(void)ctx;
	(void)g;
}

START_TEST(test_workers_wake_the_loop)
{
	struct sv_backend b = {0};
	struct sv_error err;
	struct sv_app *app;
	struct sv_gen_opts go;
	char *path = svt_tmp_path("woken.h5");
	struct timespec t0, t1;
	double s;

	/* given a profile, a loop that looks at a running load only every
	 * 30 s, and a backend whose waits end early only by its wake */
	sv_gen_opts_init(&go);
	go.ranks = 2;
	go.events = 20000;
	memset(&err, 0, sizeof err);
	ck_assert_msg(sv_gen_write(path, &go, NULL, NULL, &err) == 0, "gen: %s",
		err.msg);
	ck_assert(sv_term_wake_ready());
	b.size = woken_size;
	b.getkey = woken_getkey;
	b.present = woken_present;
	b.wake = sv_term_wake;
	app = app_loading(path, 30000);
	/* when the loop runs to its q */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_int_eq(sv_app_run(app, &b, &err), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
	/* then the loader's index, its profile and the view's work each
	 * ended a wait: the full view was up long before one poll interval */
	ck_assert_ptr_nonnull(sv_app_view(app));
	ck_assert(sv_app_view(app)->s.p->has_calls);
	ck_assert_msg(
		s < 10.0, "the loop took %.1f s (%zu waits)", s, woken_waits);
	ck_assert_uint_ge(woken_waits, 1);
	sv_app_free(app);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_first_screen_is_progress)
{
	struct first_screen f;
	struct sv_script s;
	struct sv_backend b;
	struct sv_error err;
	struct sv_app *app;
	struct sv_gen_opts go;
	char *big = svt_tmp_path("big.h5");
	static const int keys[] = {'j'};

	/* given a profile big enough to take a while, a script and a
	 * background load */
	sv_gen_opts_init(&go);
	go.ranks = 4;
	go.events = 150000;
	memset(&err, 0, sizeof err);
	ck_assert_msg(sv_gen_write(big, &go, NULL, NULL, &err) == 0, "gen: %s",
		err.msg);
	memset(&f, 0, sizeof f);
	memset(&s, 0, sizeof s);
	s.keys = keys;
	s.nkeys = 1;
	s.w = W;
	s.h = H;
	sv_script_backend(&f.inner, &s);
	b.size = fs_size;
	b.getkey = fs_getkey;
	b.present = fs_present;
	b.beep = NULL;
	b.wake = NULL;
	b.ctx = &f;
	app = app_loading(big, 1);
	/* when the loop runs */
	ck_assert_int_eq(sv_app_run(app, &b, &err), 0);
	/* then the first screen, drawn before anything is read, is the
	 * progress box; no screen during the load claims the profile has
	 * statistics only; the load finished before the key was taken */
	ck_assert_msg(strstr(f.first, "Loading ") != NULL, "%s", f.first);
	ck_assert_ptr_nonnull(strstr(f.first, "q: stop and quit"));
	ck_assert_uint_eq(f.misleading, 0);
	printf("loading screens with the stored statistics: %zu of "
	       "%zu\n",
		f.loading_with_panel, f.presents);
	ck_assert_uint_ge(f.presents, 2);
	ck_assert_ptr_nonnull(sv_app_view(app));
	ck_assert(sv_app_view(app)->s.p->has_calls);
	ck_assert_int_eq(sv_timeline_cursor_row(TL(sv_app_view(app))), 1);
	free(f.first);
	free(big);
	sv_app_free(app);
}
END_TEST

/* ---- a source whose load blocks until it is cancelled ----------------------
 *
 * struct sv_source has no context pointer, so the one blocking load of a
 * test lives in these statics (reset by blocking_reset).  The summary-only
 * load (the index the loop reads first) reads index_path, or fails when
 * it is NULL; the full load reports one progress step, says it is
 * blocking, and waits until the loop cancels it: it can never finish by
 * itself, so whatever the loop does next happens during the load.
 */
static struct {
	pthread_mutex_t mu;
	const char *index_path;
	double fraction;
	const char *what;
	bool blocking;  /* the full load is waiting for cancellation */
	bool cancelled; /* it saw cancelled() and returned -ECANCELED */
	int full_loads;
	int linger_ms; /* after cancelled(), a read in flight this long */
} blk = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void blocking_reset(
	const char *index_path, double fraction, const char *what)
{
	pthread_mutex_lock(&blk.mu);
	blk.index_path = index_path;
	blk.fraction = fraction;
	blk.what = what;
	blk.blocking = false;
	blk.cancelled = false;
	blk.full_loads = 0;
	blk.linger_ms = 0;
	pthread_mutex_unlock(&blk.mu);
}

static bool blocking_get(bool *field)
{
	bool v;
	pthread_mutex_lock(&blk.mu);
	v = *field;
	pthread_mutex_unlock(&blk.mu);
	return v;
}

static double app_test_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Whether the load saw the cancellation within 10 s: q no longer waits
 * for the loader, which stops on its own after q. */
static bool blocking_saw_cancel(void)
{
	int waited;
	for (waited = 0; !blocking_get(&blk.cancelled); waited++) {
		if (waited > 10000)
			return false;
		usleep(1000);
	}
	return true;
}

static int blocking_load(const char *path, const struct sv_load_opts *opts,
	struct sv_profile **out, struct sv_error *err)
{
	int waited;

	if (opts && opts->summary_only) {
		if (!blk.index_path)
			return sv_error_set(err, -ENOENT, "%s: no index", path);
		return sv_load(blk.index_path, opts, out, err);
	}
	if (!opts || !opts->cancelled)
		return sv_error_set(err, -EINVAL,
			"%s: a load that cannot be cancelled", path);
	if (blk.what && opts->progress)
		opts->progress(opts->ctx, blk.fraction, blk.what);
	pthread_mutex_lock(&blk.mu);
	blk.full_loads++;
	blk.blocking = true;
	pthread_mutex_unlock(&blk.mu);
	/* 20 s without a cancellation: give up, and the test fails on it */
	for (waited = 0; !opts->cancelled(opts->ctx); waited++) {
		if (waited > 20000)
			return sv_error_set(
				err, -ETIMEDOUT, "%s: never cancelled", path);
		usleep(1000);
	}
	usleep((useconds_t)blk.linger_ms * 1000);
	pthread_mutex_lock(&blk.mu);
	blk.blocking = false;
	blk.cancelled = true;
	pthread_mutex_unlock(&blk.mu);
	return sv_error_set(err, -ECANCELED, "%s: cancelled", path);
}

/* A backend over the script backend: while the load runs, it hands out no
 * key until the source blocks; then one more SV_KEY_NONE (so the loop
 * takes in the progress and the index and draws them), then the script's
 * keys (keys_during_load). */
struct blocked_keys {
	struct sv_backend inner;
	struct sv_script *script;
	bool settled;
	double q_at; /* when the script's q was handed out */
};

static void bk_size(void *ctx, int *w, int *h)
{
	struct blocked_keys *k = ctx;
	k->inner.size(k->inner.ctx, w, h);
}

static int bk_getkey(void *ctx, int timeout_ms)
{
	struct blocked_keys *k = ctx;
	int waited, key;

	if (timeout_ms >= 0 && !k->settled) {
		for (waited = 0; !blocking_get(&blk.blocking); waited++) {
			if (waited > 20000)
				return SV_KEY_EOF;
			usleep(1000);
		}
		k->settled = true;
		return SV_KEY_NONE;
	}
	key = k->inner.getkey(k->inner.ctx, timeout_ms);
	if (key == 'q')
		k->q_at = app_test_now();
	return key;
}

static void bk_present(void *ctx, const struct sv_grid *g)
{
	struct blocked_keys *k = ctx;
	k->inner.present(k->inner.ctx, g);
}

/* Run the loop on the blocking source with keys (typed during the load)
 * at W x H, titled run.h5. */
static struct sv_app *run_blocking(struct sv_script *s, struct blocked_keys *k,
	const int *keys, size_t nkeys, int *rc)
{
	struct sv_app_opts o;
	struct sv_backend b;
	struct sv_error err;
	struct sv_app *app;

	setlocale(LC_ALL, "");
	memset(s, 0, sizeof *s);
	s->keys = keys;
	s->nkeys = nkeys;
	s->w = W;
	s->h = H;
	s->keys_during_load = true;
	memset(k, 0, sizeof *k);
	sv_script_backend(&k->inner, s);
	k->script = s;
	b.size = bk_size;
	b.getkey = bk_getkey;
	b.present = bk_present;
	b.beep = NULL;
	b.wake = NULL;
	b.ctx = k;
	memset(&o, 0, sizeof o);
	o.path = "/nonexistent/run.h5";
	o.title = "run.h5";
	o.source.load = blocking_load;
	o.load_in_thread = true;
	o.poll_ms = 1;
	app = sv_app_new(&o);
	memset(&err, 0, sizeof err);
	*rc = sv_app_run(app, &b, &err);
	return app;
}

START_TEST(test_q_stops_a_load)
{
	struct sv_script s;
	struct blocked_keys k;
	struct sv_app *app;
	static const int keys[] = {'q', 'j'};
	int rc;

	/* given a load that cannot finish unless cancelled, and q then j
	 * typed while it runs */
	blocking_reset(NULL, 0.5, "events");
	app = run_blocking(&s, &k, keys, 2, &rc);
	/* then the loop returned with success on q, without taking j, and
	 * the load ended because it was cancelled (checked before
	 * sv_app_free, which would cancel it anyway) */
	ck_assert_int_eq(rc, 0);
	ck_assert(k.settled);
	ck_assert_uint_eq(s.pos, 1);
	ck_assert_int_eq(blk.full_loads, 1);
	ck_assert(blocking_saw_cancel());
	ck_assert_ptr_null(sv_app_view(app));
	sv_app_free(app);
}
END_TEST

/* q while the loader is inside a read that takes 400 ms more (an HDF5
 * chunk in flight): the loop returns at once, the thread is known to be
 * still in the file (so the viewer leaves with _exit), and it stops on
 * its own after the read. */
START_TEST(test_q_during_a_read)
{
	struct sv_script s;
	struct blocked_keys k;
	struct sv_app *app;
	static const int keys[] = {'q'};
	double t0, ms;
	int rc, waited;

	blocking_reset(NULL, 0.5, "events");
	blk.linger_ms = 400;
	ck_assert(!sv_app_loads_in_file());
	t0 = app_test_now();
	app = run_blocking(&s, &k, keys, 1, &rc);
	ms = (app_test_now() - k.q_at) * 1e3;
	ck_assert_int_eq(rc, 0);
	ck_assert(k.q_at > t0);
	ck_assert_msg(ms < 200, "q took %.1f ms", ms);
	ck_assert(sv_app_loads_in_file());
	ck_assert(!blocking_get(&blk.cancelled));
	sv_app_free(app); /* does not wait either */
	ck_assert(sv_app_loads_in_file());
	ck_assert(blocking_saw_cancel());
	for (waited = 0; sv_app_loads_in_file() && waited < 5000; waited++)
		usleep(1000);
	ck_assert(!sv_app_loads_in_file());
}
END_TEST

/* The loading screens, pinned: the progress box alone (no index yet), and
 * over the stored statistics of the index. */
START_TEST(test_loading_screens)
{
	struct sv_script s;
	struct blocked_keys k;
	struct sv_app *app;
	static const int keys[] = {'q'};
	char *index = svt_fixture("four_ranks.h5");
	int rc;

	blocking_reset(NULL, 0.42, "events");
	app = run_blocking(&s, &k, keys, 1, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert(blocking_saw_cancel());
	ck_assert_ptr_null(sv_app_view(app));
	vt_golden(sv_app_grid(app), "loading_progress");
	sv_app_free(app);

	blocking_reset(index, 0.75, "nesting");
	app = run_blocking(&s, &k, keys, 1, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert(blocking_saw_cancel());
	ck_assert_ptr_nonnull(sv_app_view(app));
	ck_assert(!sv_app_view(app)->s.p->has_calls);
	vt_golden(sv_app_grid(app), "loading_over_index");
	sv_app_free(app);
	free(index);
}
END_TEST

START_TEST(test_failed_load_is_reported)
{
	struct run r;
	bool threaded = _i == 1;

	/* given a file that does not exist, loaded either way */
	run_keys(&r, "/nonexistent/dir/run.h5", "j", threaded);
	/* then the loop fails with the loader's message */
	ck_assert_int_lt(r.rc, 0);
	ck_assert_msg(strstr(r.err.msg, "/nonexistent/dir/run.h5") != NULL,
		"message: %s", r.err.msg);
	ck_assert_ptr_null(sv_app_view(r.app));
	run_free(&r);
}
END_TEST

START_TEST(test_aggregate_says_no_calls)
{
	char *path = svt_fixture("aggregate_layout.h5");
	char *text;
	struct run r;

	/* given an aggregate profile, then the view opens with its
	 * statistics and says (as snapshot does) there are no calls */
	run_keys(&r, path, "", true);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_ptr_nonnull(sv_app_view(r.app));
	ck_assert(!sv_app_view(r.app)->s.p->has_calls);
	ck_assert(sv_session_stats(&sv_app_view(r.app)->s));
	ck_assert_uint_gt(
		sv_session_stats(&sv_app_view(r.app)->s)->nregions, 0);
	text = grid_text(sv_app_grid(r.app));
	ck_assert_msg(
		strstr(text, "summary statistics only") != NULL, "%s", text);
	/* the statistics take the screen: every column, no time axis */
	ck_assert_msg(strstr(text, "imb%") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "cursor +") == NULL, "%s", text);
	free(text);
	run_free(&r);
	free(path);
}
END_TEST

START_TEST(test_resize_in_script)
{
	static const int keys[] = {SV_KEY_RESIZE, 80, 24, 'j'};
	struct sv_script s;
	struct sv_app_opts o;
	struct sv_backend b;
	struct sv_error err;
	struct sv_app *app;

	memset(&s, 0, sizeof s);
	s.keys = keys;
	s.nkeys = 4;
	s.w = W;
	s.h = H;
	sv_script_backend(&b, &s);
	memset(&o, 0, sizeof o);
	o.path = profile();
	o.source.load = sv_load;
	o.source.thread_init = sv_load_quiet_hdf5;
	app = sv_app_new(&o);
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(sv_app_run(app, &b, &err), 0);
	/* the view and the grid follow the new size */
	ck_assert_int_eq(sv_app_view(app)->w, 80);
	ck_assert_int_eq(sv_app_view(app)->h, 24);
	ck_assert_int_eq(sv_app_grid(app)->w, 80);
	ck_assert_int_eq(sv_app_grid(app)->h, 24);
	sv_app_free(app);
}
END_TEST

/* A second run: FILE2 on the command line (loaded after the first, in
 * the thread or not) and :open FILE from the viewer. */
START_TEST(test_two_runs)
{
	struct run r;
	char script[2048] = ": o p e n Space ";
	const char *c;
	size_t n = strlen(script);
	int threaded;

	for (threaded = 0; threaded < 2; threaded++) {
		struct sv_app_opts o;
		struct sv_backend b;
		int *keys = NULL;
		size_t nkeys = 0;
		struct sv_error err = {0};

		memset(&r, 0, sizeof r);
		memset(&o, 0, sizeof o);
		o.path = profile();
		o.path2 = profile();
		o.source.load = sv_load;
		o.source.thread_init = sv_load_quiet_hdf5;
		o.load_in_thread = threaded;
		o.poll_ms = 5;
		ck_assert_int_eq(
			sv_keys_parse_script("", &keys, &nkeys, &err), 0);
		r.app = sv_app_new(&o);
		r.script.keys = keys;
		r.script.nkeys = nkeys;
		r.script.w = W;
		r.script.h = H;
		sv_script_backend(&b, &r.script);
		ck_assert_int_eq(sv_app_run(r.app, &b, &r.err), 0);
		ck_assert_ptr_nonnull(sv_app_view(r.app)->s.p2);
		ck_assert(sv_session_stats2(&sv_app_view(r.app)->s));
		/* B's index (made on the loader's thread when threaded): its
		 * rows are on the timeline */
		ck_assert(sv_session_two_rows(&sv_app_view(r.app)->s));
		ck_assert_uint_eq(
			sv_session_index2(&sv_app_view(r.app)->s)->ncalls,
			sv_app_view(r.app)->s.p2->ncalls);
		ck_assert_ptr_nonnull(strstr(
			sv_app_view(r.app)->s.message, "comparing with"));
		sv_app_free(r.app);
		free(keys);
	}

	/* :open PATH in the viewer, and a file that cannot be read */
	for (c = profile(); *c && n + 4 < sizeof script; c++) {
		script[n++] = *c;
		script[n++] = ' ';
	}
	snprintf(script + n, sizeof script - n, "Enter");
	run_keys(&r, profile(), script, true);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_ptr_nonnull(sv_app_view(r.app)->s.p2);
	run_free(&r);
	run_keys(&r, profile(), ": o p e n Space n o p e Enter", true);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_ptr_null(sv_app_view(r.app)->s.p2);
	ck_assert_ptr_nonnull(
		strstr(sv_app_view(r.app)->s.message, "cannot compare"));
	run_free(&r);
}
END_TEST

/* :open naming what must not be read blindly (infile.h): words of the
 * reason the viewer gives. */
static const char *const open_hostile[SVT_NHOSTILE][2] = {
	{"character device", "not a regular file"},
	{"is a FIFO", "not a regular file"},
	{"cannot open", "symbolic links"},
	{"not a profile", "hostile-sparse"},
	{"not a profile", "hostile-escapes"},
};

START_TEST(test_open_hostile)
{
	/* given :open of /dev/zero, a FIFO, a link loop, a 2 GB file or a
	 * file of escape sequences; when the viewer loads it; then no wait,
	 * no second run, the reason on the status line, and no raw control
	 * sequence on the screen */
	const struct svt_hostile *h = &svt_hostile_files()[_i];
	char script[4096] = ": o p e n Space ";
	size_t n = strlen(script), i;
	const struct sv_grid *g;
	const char *c;
	struct run r;

	for (c = h->path; *c && n + 4 < sizeof script; c++) {
		script[n++] = *c;
		script[n++] = ' ';
	}
	snprintf(script + n, sizeof script - n, "Enter");
	alarm(60);
	run_keys(&r, profile(), script, true);
	alarm(0);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_ptr_null(sv_app_view(r.app)->s.p2);
	for (i = 0; i < 2; i++)
		ck_assert_msg(strstr(sv_app_view(r.app)->s.message,
				      open_hostile[_i][i]),
			"%s: %s", h->what, sv_app_view(r.app)->s.message);
	g = sv_app_grid(r.app);
	for (i = 0; i < (size_t)g->w * (size_t)g->h; i++)
		ck_assert_msg(!sv_utf8_is_control(g->cells[i].ch),
			"%s: a control in cell %zu", h->what, i);
	run_free(&r);
}
END_TEST

/* A config file's panel width and first order reach the view. */
START_TEST(test_config_panel_and_sort)
{
	static const int keys[] = {'j'};
	struct sv_script s;
	struct sv_app_opts o;
	struct sv_backend b;
	struct sv_error err;
	struct sv_app *app;

	memset(&s, 0, sizeof s);
	s.keys = keys;
	s.nkeys = 1;
	s.w = W;
	s.h = H;
	sv_script_backend(&b, &s);
	memset(&o, 0, sizeof o);
	o.path = profile();
	o.source.load = sv_load;
	o.source.thread_init = sv_load_quiet_hdf5;
	o.panel_width = 50;
	o.sort_set = true;
	o.sort_key = SV_STATS_KEY_EXCLUSIVE;
	app = sv_app_new(&o);
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(sv_app_run(app, &b, &err), 0);
	ck_assert_int_eq(sv_app_view(app)->s.panel_width, 50);
	ck_assert_int_eq(sv_session_sort_key(&sv_app_view(app)->s),
		SV_STATS_KEY_EXCLUSIVE);
	sv_app_free(app);
}
END_TEST

/* ---- bytes on the wire ---------------------------------------------------- */

struct wire {
	struct sv_term *t;
	FILE *out;
	const int *keys;
	size_t nkeys, pos;
	long bytes[16];
	size_t npresents;
};

static long wire_size(struct wire *w)
{
	struct stat st;
	fflush(w->out);
	ck_assert_int_eq(fstat(fileno(w->out), &st), 0);
	return (long)st.st_size;
}
static void wire_b_size(void *ctx, int *w, int *h)
{
	struct wire *wi = ctx;
	sv_term_size(wi->t, w, h);
}
static int wire_getkey(void *ctx, int timeout_ms)
{
	struct wire *w = ctx;
	(void)timeout_ms;
	return w->pos < w->nkeys ? w->keys[w->pos++] : SV_KEY_EOF;
}
static void wire_present(void *ctx, const struct sv_grid *g)
{
	struct wire *w = ctx;
	sv_term_present(w->t, g);
	if (w->npresents < 16)
		w->bytes[w->npresents++] = wire_size(w);
}

/* Zoom levels to measure at: keys pressed before the measured steps. */
/* A one-column pan moves every bar edge and every name that starts on
 * screen; curses cannot shift part of a line, so at the whole run (many
 * short bars) it rewrites much of the timeline, and less the further in
 * one zooms (bars longer than the screen keep their names in place).
 * pan_pct bounds it as a share of the first paint. */
static const struct {
	const char *zoom;
	int nzoom;
	int pan_pct;
} wire_cases[] = {
	{"whole run", 0, 85},
	{"zoomed in 8x", 3, 60},
	{"zoomed in 64x", 6, 30},
};

START_TEST(test_small_steps_send_few_bytes)
{
	struct wire w;
	struct sv_term_opts to;
	struct sv_app_opts o;
	struct sv_backend b;
	struct sv_error err;
	struct sv_app *app;
	char *out_path = svt_tmp_path("wire.out");
	FILE *in = fopen("/dev/null", "r");
	int nz = wire_cases[_i].nzoom, i, keys[16], nkeys = 0;
	long full, cursor, drag, pan;
	size_t k0;

	/* a call selected first (the details box takes its room then), zoom,
	 * then a cursor move, a one-column drag (a pan by one column) and a
	 * quarter pan with d */
	keys[nkeys++] = 'l';
	for (i = 0; i < nz; i++)
		keys[nkeys++] = '+';
	keys[nkeys++] = 'l';
	keys[nkeys++] = sv_key_mouse(SV_MOUSE_CLICK, 50, 6);
	keys[nkeys++] = sv_key_mouse(SV_MOUSE_DRAG, 49, 6);
	keys[nkeys++] = sv_key_mouse(SV_MOUSE_RELEASE, 49, 6);
	keys[nkeys++] = 'd';

	/* given the real curses backend writing into a file */
	memset(&w, 0, sizeof w);
	w.out = fopen(out_path, "w+");
	ck_assert_ptr_nonnull(w.out);
	ck_assert_ptr_nonnull(in);
	sv_term_opts_default(&to);
	to.in = in;
	to.out = w.out;
	to.term_name = "xterm-256color";
	to.signals = false;
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(sv_term_open(&to, &w.t, &err), 0);
	sv_term_resize(w.t, W, H);
	w.keys = keys;
	w.nkeys = (size_t)nkeys;
	b.size = wire_b_size;
	b.getkey = wire_getkey;
	b.present = wire_present;
	b.beep = NULL;
	b.wake = NULL;
	b.ctx = &w;
	memset(&o, 0, sizeof o);
	o.path = profile();
	o.source.load = sv_load;
	o.source.thread_init = sv_load_quiet_hdf5;
	app = sv_app_new(&o);
	/* when the loop draws the first screen and then the keys */
	ck_assert_int_eq(sv_app_run(app, &b, &err), 0);
	sv_term_close(w.t);
	/* presents: first screen, after the first l, one per zoom, after l,
	 * after the click, after the drag, after d (the release changes
	 * nothing) */
	ck_assert_uint_eq(w.npresents, (size_t)nz + 6);
	k0 = (size_t)nz + 1;
	full = w.bytes[0];
	cursor = w.bytes[k0 + 1] - w.bytes[k0];
	drag = w.bytes[k0 + 3] - w.bytes[k0 + 2];
	pan = w.bytes[k0 + 4] - w.bytes[k0 + 3];
	printf("%s: bytes for the first paint %ld, a cursor move %ld, "
	       "a "
	       "one-column pan %ld, a quarter pan %ld\n",
		wire_cases[_i].zoom, full, cursor, drag, pan);
	fflush(stdout);
	/* then a cursor move sends a small part of a full paint, and a
	 * one-column pan less than one, the less the further in */
	ck_assert_msg(full > 2000, "full paint only %ld bytes", full);
	ck_assert_msg(
		cursor * 5 < full, "cursor move %ld of %ld", cursor, full);
	ck_assert_msg(drag * 100 < full * wire_cases[_i].pan_pct,
		"one-column pan %ld of %ld, more than %d%%", drag, full,
		wire_cases[_i].pan_pct);
	sv_app_free(app);
	fclose(w.out);
	fclose(in);
	free(out_path);
}
END_TEST

/* ---- a memory budget -------------------------------------------------------
 */

/* Which ranks the view's profile holds, as "0,2" (static buffer). */
static const char *held_ranks(const struct run *r)
{
	static char buf[64];
	const struct sv_profile *p = sv_app_view(r->app)->s.p;
	bool on[8] = {false};
	size_t i, n = 0;

	for (i = 0; i < p->nrows; i++)
		if (p->rows[i].rank < 8)
			on[p->rows[i].rank] = true;
	buf[0] = '\0';
	for (i = 0; i < 8; i++)
		if (on[i])
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%zu",
				n ? "," : "", i);
	return buf;
}

START_TEST(test_memory_budget)
{
	struct sv_load_opts io = {.summary_only = true};
	struct sv_profile *ix = NULL;
	struct sv_error err = {0};
	uint64_t calls[3] = {0};
	const struct sv_view *v;
	struct run r, sel, kept;
	size_t i;

	/* given a budget that holds ranks 0 and 1 of the three */
	ck_assert_int_eq(sv_load(profile(), &io, &ix, &err), 0);
	for (i = 0; i < ix->nrows; i++)
		calls[ix->rows[i].rank] += ix->rows[i].count;
	run_memory = sv_budget_call_bytes(ix) * (calls[0] + calls[1]);
	sv_profile_free(ix);

	/* when the viewer opens the file: ranks 0-1 are read, and said */
	run_keys(&r, profile(), "", true);
	v = sv_app_view(r.app);
	ck_assert(v->s.p->rank_subset);
	ck_assert_str_eq(held_ranks(&r), "0,1");
	{
		/* the status line's title names the budget that left rank 2
		 * out */
		char size[32], want[96];
		sv_budget_format(size, sizeof size, run_memory);
		snprintf(
			want, sizeof want, "[ranks 0-1 of 3, memory %s]", size);
		ck_assert_msg(
			strstr(v->s.title, want) != NULL, "%s", v->s.title);
	}
	ck_assert_ptr_nonnull(strstr(v->s.message, "ranks 0-1"));
	ck_assert_ptr_nonnull(strstr(v->s.message, ":ranks LIST"));
	run_free(&r);

	/* when :ranks asks for rank 2: it is read, with rank 0 (the ranks
	 * in memory asked for as long ago go in rank order) */
	run_keys(&r, profile(), ": r a n k s Space 2 Enter", true);
	ck_assert_str_eq(held_ranks(&r), "0,2");
	ck_assert_str_eq(sv_app_view(r.app)->s.rank_spec, "2");
	ck_assert_ptr_nonnull(strstr(
		sv_app_view(r.app)->s.title, "[ranks 0,2 of 3, memory "));
	{
		/* rank 0, held by both loads, is copied, not read again */
		const struct sv_view *w = sv_app_view(r.app);
		char want[80];
		ck_assert_uint_eq(w->s.p->kept_calls, calls[0]);
		snprintf(want, sizeof want,
			"%" PRIu64 " calls kept, %" PRIu64 " read", calls[0],
			calls[2]);
		ck_assert_msg(
			strstr(w->s.message, want) != NULL, "%s", w->s.message);
	}
	run_free(&r);

	/* then rank 1: rank 0, the least recently asked for, goes */
	run_keys(&r, profile(),
		": r a n k s Space 2 Enter : r a n k s Space 1 Enter", true);
	ck_assert_str_eq(held_ranks(&r), "1,2");
	run_free(&r);

	/* the ranks not read have a row each; the cursor on one reads it */
	run_keys(&r, profile(), "", true);
	{
		const struct sv_profile *p = sv_app_view(r.app)->s.p;
		const struct sv_lane *last = &p->lanes[p->nlanes - 1];
		ck_assert(p->absent_lanes);
		ck_assert_uint_eq(last->rank, 2);
		ck_assert_uint_eq(last->ncalls, 0);
		ck_assert_str_eq(last->label, "r2 not read");
	}
	{
		/* drawn from its stored statistics: its calls, its largest
		 * region; and the panel has the whole run beside the two
		 * ranks read */
		char *text = grid_text(sv_app_grid(r.app)), want[64];
		uint64_t n2 = calls[2];
		snprintf(
			want, sizeof want, " %" PRIu64 " calls not read; ", n2);
		ck_assert_msg(strstr(text, want) != NULL, "%s", text);
		ck_assert_msg(strstr(text, "run: 3 ranks") != NULL, "%s", text);
		ck_assert_msg(strstr(text, "share") != NULL, "%s", text);
		free(text);
	}
	run_free(&r);
	run_keys(&r, profile(), "PageDown", true);
	ck_assert_str_eq(held_ranks(&r), "0,2");
	{
		const struct sv_view *w = sv_app_view(r.app);
		ck_assert_uint_eq(w->s.p->lanes[TL(w)->cur_lane].rank, 2);
		ck_assert_uint_gt(w->s.p->lanes[TL(w)->cur_lane].ncalls, 0);
	}
	run_free(&r);

	/* ranks in memory need no read; every rank shows those held */
	run_keys(&r, profile(), ": r a n k s Space 1 Enter : r a n k s Enter",
		true);
	ck_assert_str_eq(held_ranks(&r), "0,1");
	ck_assert_str_eq(sv_app_view(r.app)->s.rank_spec, "");
	run_free(&r);

	/* a selected call stays selected across the read of other ranks */
	run_keys(&sel, profile(), "j Tab f", true);
	run_keys(&kept, profile(), "j Tab f : r a n k s Space 0 , 2 Enter",
		true);
	{
		const struct sv_session *a = &sv_app_view(sel.app)->s,
					*b = &sv_app_view(kept.app)->s;
		ck_assert_uint_ne(a->sel, SV_NO_CALL);
		ck_assert_str_eq(held_ranks(&kept), "0,2");
		ck_assert_uint_ne(b->sel, SV_NO_CALL);
		ck_assert_int_eq(sv_profile_start(b->p, b->sel),
			sv_profile_start(a->p, a->sel));
		ck_assert_int_eq(sv_profile_end(b->p, b->sel),
			sv_profile_end(a->p, a->sel));
		ck_assert_uint_eq(b->p->lanes[sv_call_lane(b->p, b->sel)].rank,
			a->p->lanes[sv_call_lane(a->p, a->sel)].rank);
		/* and so do the window and the cursor */
		ck_assert_int_eq(TL(sv_app_view(kept.app))->t0,
			TL(sv_app_view(sel.app))->t0);
		ck_assert_int_eq(TL(sv_app_view(kept.app))->t1,
			TL(sv_app_view(sel.app))->t1);
		ck_assert_int_eq(TL(sv_app_view(kept.app))->cur_t,
			TL(sv_app_view(sel.app))->cur_t);
		ck_assert_int_lt(TL(sv_app_view(sel.app))->t1 -
					 TL(sv_app_view(sel.app))->t0,
			a->run_t1 - a->run_t0);
	}
	run_free(&sel);
	run_free(&kept);

	/* without a budget every rank is read */
	run_memory = 0;
	run_keys(&r, profile(), "", true);
	ck_assert(!sv_app_view(r.app)->s.p->rank_subset);
	run_free(&r);

	/* nor does a budget that holds every rank */
	run_memory = UINT64_C(1) << 40;
	run_keys(&r, profile(), "", true);
	ck_assert(!sv_app_view(r.app)->s.p->rank_subset);
	ck_assert_msg(strchr(sv_app_view(r.app)->s.title, '[') == NULL, "%s",
		sv_app_view(r.app)->s.title);
	run_free(&r);
	run_memory = 0;
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("app");
	TCase *t = tcase_create("actions");
	tcase_set_timeout(t, 300);
	tcase_add_loop_test(t, test_action_changes_view, 0,
		sizeof action_cases / sizeof action_cases[0]);
	tcase_add_test(t, test_every_action_has_a_case);
	tcase_add_test(t, test_quit_stops_the_script);
	suite_add_tcase(s, t);
	t = tcase_create("screens");
	tcase_set_timeout(t, 300);
	tcase_add_loop_test(t, test_loop_matches_snapshot, 0,
		sizeof same_screen_cases / sizeof same_screen_cases[0]);
	tcase_add_test(t, test_resize_in_script);
	tcase_add_test(t, test_config_panel_and_sort);
	tcase_add_test(t, test_two_runs);
	tcase_add_loop_test(t, test_open_hostile, 0, SVT_NHOSTILE);
	tcase_add_test(t, test_runs_workspace);
	tcase_add_test(t, test_runs_none_read);
	suite_add_tcase(s, t);
	t = tcase_create("loading");
	tcase_set_timeout(t, 300);
	tcase_add_test(t, test_first_screen_is_progress);
	tcase_add_test(t, test_workers_wake_the_loop);
	tcase_add_test(t, test_q_stops_a_load);
	tcase_add_test(t, test_memory_budget);
	tcase_add_test(t, test_q_during_a_read);
	tcase_add_test(t, test_loading_screens);
	tcase_add_loop_test(t, test_failed_load_is_reported, 0, 2);
	tcase_add_test(t, test_aggregate_says_no_calls);
	suite_add_tcase(s, t);
	t = tcase_create("wire");
	tcase_set_timeout(t, 300);
	tcase_add_loop_test(t, test_small_steps_send_few_bytes, 0,
		sizeof wire_cases / sizeof wire_cases[0]);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
