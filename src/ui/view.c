/*
 * view.c: the viewer without a terminal: a session and a stack of modes
 * (view.h, mode.h).
 *
 * A key goes to the mode on top: its scopes are searched in order (the
 * panel's first while the panel has the focus) for an action bound to the
 * key; the action goes to the mode's apply(), or, for the keys every view
 * shares (help, metadata, warnings, commands, view switching, reload,
 * quit), to the viewer.  A key no action binds goes to the mode's key()
 * (text for a prompt, the mouse); a mouse event a mode does not take goes
 * down the stack.  The flags that come back say what to pop and what to
 * redraw.  Drawing is every mode's draw() from the bottom up.  Nothing
 * here knows about curses or HDF5.
 */
#include "scopeview/view.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scopeview/action.h"
#include "scopeview/keys.h"
#include "scopeview/layout.h"
#include "scopeview/list.h"
#include "scopeview/render.h"
#include "scopeview/timeline.h"

const struct sv_mode_ops *const sv_mode_table[] = {
	&sv_mode_timeline,
	&sv_mode_stats,
	&sv_mode_tree,
	&sv_mode_flame,
	&sv_mode_callers,
	&sv_mode_ranks,
	&sv_mode_histogram,
	&sv_mode_calls,
	&sv_mode_trend,
	&sv_mode_scaling,
	NULL,
};

const struct sv_mode_ops *sv_mode_find(const char *name)
{
	size_t i;
	for (i = 0; name && sv_mode_table[i]; i++)
		if (!strcmp(sv_mode_table[i]->name, name))
			return sv_mode_table[i];
	return NULL;
}

static int view_mode_index(const struct sv_mode_ops *ops)
{
	int i;
	for (i = 0; sv_mode_table[i]; i++)
		if (sv_mode_table[i] == ops)
			return i;
	return -1;
}

/* ---- the modes ----------------------------------------------------------- */

/* Every mode hears what changed in the session. */
static void view_notify(void *ctx, unsigned what)
{
	struct sv_view *v = ctx;
	size_t i;

	for (i = 0; i < SV_VIEW_MAINS; i++)
		if (v->mains[i].ops && v->mains[i].ops->notify)
			v->mains[i].ops->notify(&v->mains[i], what);
	for (i = 0; i < v->depth; i++)
		if (v->stack[i].ops->notify)
			v->stack[i].ops->notify(&v->stack[i], what);
}

static int view_mode_start(struct sv_view *v, struct sv_mode *m,
	const struct sv_mode_ops *ops, int kind, struct sv_error *err)
{
	int rc = 0;

	memset(m, 0, sizeof *m);
	m->ops = ops;
	m->view = v;
	m->s = &v->s;
	m->data = sv_xcalloc(1, ops->size ? ops->size : 1);
	m->kind = kind;
	if (ops->init)
		rc = ops->init(m, err);
	if (rc < 0) {
		free(m->data);
		memset(m, 0, sizeof *m);
		return rc;
	}
	m->w = v->w;
	m->h = v->h;
	if (ops->resize)
		ops->resize(m, v->w, v->h);
	return 0;
}

static void view_mode_stop(struct sv_mode *m)
{
	if (!m->ops)
		return;
	if (m->ops->fini)
		m->ops->fini(m);
	free(m->data);
	memset(m, 0, sizeof *m);
}

struct sv_mode *sv_view_main_mode(struct sv_view *v)
{
	return &v->mains[v->main];
}

struct sv_mode *sv_view_top(struct sv_view *v)
{
	return v->depth ? &v->stack[v->depth - 1] : &v->mains[v->main];
}

struct sv_timeline *sv_view_timeline(const struct sv_view *v)
{
	int i = view_mode_index(&sv_mode_timeline);
	return v->mains[i].ops ? v->mains[i].data : NULL;
}

int sv_view_popup(const struct sv_view *v)
{
	const struct sv_mode *m = v->depth ? &v->stack[v->depth - 1] : NULL;
	return m && m->ops == &sv_mode_popup ? m->kind : SV_POPUP_NONE;
}

int sv_view_prompt(const struct sv_view *v)
{
	const struct sv_mode *m = v->depth ? &v->stack[v->depth - 1] : NULL;
	return m && m->ops == &sv_mode_prompt ? m->kind : SV_PROMPT_NONE;
}

static void view_pop(struct sv_view *v)
{
	if (v->depth)
		view_mode_stop(&v->stack[--v->depth]);
}

static struct sv_mode *view_push(
	struct sv_view *v, const struct sv_mode_ops *ops, int kind)
{
	struct sv_mode *m;
	if (v->depth == SV_VIEW_STACK)
		view_pop(v);
	m = &v->stack[v->depth];
	if (view_mode_start(v, m, ops, kind, NULL) < 0)
		return NULL;
	v->depth++;
	return m;
}

int sv_view_push_popup(struct sv_view *v, int kind, long region)
{
	const struct sv_mode *main = &v->mains[v->main];
	unsigned scopes = SV_SCOPE_POPUP | SV_SCOPE_PROMPT;
	struct sv_mode *m;
	size_t i;

	for (i = 0; i < 4 && main->ops->scopes[i]; i++)
		scopes |= main->ops->scopes[i];
	if (main->ops->panel_focus)
		scopes |= SV_SCOPE_PANEL;
	if (main->ops->list)
		scopes |= SV_SCOPE_LIST;
	m = view_push(v, &sv_mode_popup, kind);
	if (!m)
		return SV_REACT_BELL;
	sv_mode_popup_setup(m, region, scopes);
	return SV_REACT_REDRAW;
}

int sv_view_push_prompt(struct sv_view *v, int kind, const char *initial)
{
	struct sv_mode *m = view_push(v, &sv_mode_prompt, kind);
	if (!m)
		return SV_REACT_BELL;
	sv_mode_prompt_setup(m, initial);
	v->s.message[0] = '\0';
	return SV_REACT_REDRAW;
}

/* Start main mode i if it has not been; false (message set) on failure. */
static bool view_main_started(struct sv_view *v, int i)
{
	struct sv_error err;

	if (!v->mains[i].ops && view_mode_start(v, &v->mains[i],
					sv_mode_table[i], 0, &err) < 0) {
		sv_session_message(&v->s, true, "%s", err.msg);
		return false;
	}
	return true;
}

struct sv_mode *sv_view_mode(struct sv_view *v, const char *name)
{
	const struct sv_mode_ops *ops = sv_mode_find(name);
	int i;

	if (!ops || !ops->main)
		return NULL;
	i = view_mode_index(ops);
	return view_main_started(v, i) ? &v->mains[i] : NULL;
}

/* Show main mode i (started already); the one shown before goes on the
 * list that Esc goes back through, unless back says this is going back. */
static void view_show_started(struct sv_view *v, int i, bool back)
{
	size_t k;

	if (i != v->main && !back) {
		/* Showing a mode of the list again goes back to it. */
		for (k = 0; k < v->nback && v->back[k] != i; k++)
			;
		if (k < v->nback) {
			v->nback = k;
		} else {
			if (v->nback == SV_VIEW_BACK) {
				memmove(v->back, v->back + 1,
					(SV_VIEW_BACK - 1) * sizeof *v->back);
				v->nback--;
			}
			v->back[v->nback++] = v->main;
		}
	}
	v->main = i;
	if (v->mains[i].ops->show)
		v->mains[i].ops->show(&v->mains[i]);
}

static int view_show_main(struct sv_view *v, int i)
{
	if (!sv_mode_fits(v, sv_mode_table[i], true) ||
		!view_main_started(v, i))
		return SV_REACT_REDRAW | SV_REACT_BELL;
	view_show_started(v, i, false);
	return SV_REACT_REDRAW;
}

int sv_view_show_call(struct sv_view *v, uint32_t c, bool zoom)
{
	int rc = sv_view_switch(v, "timeline");
	struct sv_timeline *tl = sv_view_timeline(v);

	if (!tl)
		return rc | SV_REACT_BELL;
	sv_timeline_select(tl, c);
	return zoom ? rc | sv_view_apply(v, SV_ACTION_ZOOM_CALL) : rc;
}

int sv_view_back(struct sv_view *v)
{
	struct sv_mode *m = &v->mains[v->main];
	int to;

	/* Work under way is stopped, and nothing of it taken in. */
	if (m->ops->cancel)
		m->ops->cancel(m);
	if (v->nback)
		to = v->back[--v->nback];
	else if (v->main != v->home)
		to = v->home;
	else if (v->nested)
		return SV_REACT_REDRAW | SV_REACT_LEAVE;
	else
		return SV_REACT_REDRAW | SV_REACT_BELL;
	if (!view_main_started(v, to))
		return SV_REACT_REDRAW | SV_REACT_BELL;
	view_show_started(v, to, true);
	return SV_REACT_REDRAW;
}

int sv_view_close(struct sv_view *v)
{
	if (v->main == v->home && !v->nback)
		return v->nested ? SV_REACT_REDRAW | SV_REACT_LEAVE
				 : SV_REACT_QUIT;
	return sv_view_back(v);
}

bool sv_view_busy(struct sv_view *v)
{
	return sv_session_busy(&v->s);
}

int sv_view_poll(struct sv_view *v)
{
	/* Every view's job is the session's (a build a view began goes on
	 * while another is shown, and is taken in when done, not when shown
	 * again); the export's progress line moves. */
	int flags = sv_session_poll(&v->s) ? SV_REACT_REDRAW : 0;
	return flags | sv_view_export_poll(v);
}

bool sv_view_settle(struct sv_view *v, int timeout_ms)
{
	long spins = (long)timeout_ms * 10;

	for (;;) {
		sv_view_poll(v);
		if (!sv_view_busy(v))
			return true;
		if (timeout_ms >= 0 && spins-- <= 0)
			return false;
		nanosleep(&(struct timespec){0, 100000}, NULL);
	}
}

int sv_view_switch(struct sv_view *v, const char *name)
{
	const struct sv_mode_ops *ops = sv_mode_find(name);
	char names[128];
	size_t i, used = 0;

	if (ops)
		return view_show_main(v, view_mode_index(ops));
	names[0] = '\0';
	for (i = 0; sv_mode_table[i]; i++)
		used += (size_t)snprintf(names + used,
			used < sizeof names ? sizeof names - used : 0, "%s%s",
			i ? ", " : "", sv_mode_table[i]->name);
	sv_session_message(&v->s, true, "no view '%s' (%s)", name, names);
	return SV_REACT_REDRAW | SV_REACT_BELL;
}

/* ---- keys ---------------------------------------------------------------- */

/* Tell the session the timeline's window (the statistics may cover it). */
static void view_sync_window(struct sv_view *v)
{
	const struct sv_timeline *tl = sv_view_timeline(v);
	if (tl)
		sv_session_set_window(&v->s, tl->t0, tl->t1);
}

/* The keys every view shares, done by the viewer for the main mode. */
static int view_global(struct sv_view *v, int a)
{
	int i;

	switch (a) {
	case SV_ACTION_HELP:
		return sv_view_push_popup(v, SV_POPUP_HELP, -1);
	case SV_ACTION_METADATA:
		return sv_view_push_popup(v, SV_POPUP_METADATA, -1);
	case SV_ACTION_WARNINGS:
		return sv_view_push_popup(v, SV_POPUP_WARNINGS, -1);
	case SV_ACTION_CONTENTS:
		return sv_view_push_popup(v, SV_POPUP_CONTENTS, -1);
	case SV_ACTION_COMMAND:
		return sv_view_push_prompt(v, SV_PROMPT_COMMAND, "");
	case SV_ACTION_VIEW_NEXT:
		i = v->main; /* the next view that can show this one's profile */
		do
			i = sv_mode_table[i + 1] ? i + 1 : 0;
		while (!sv_mode_fits(v, sv_mode_table[i], false));
		return view_show_main(v, i);
	case SV_ACTION_VIEW_TREE:
		return sv_view_switch(v, "tree");
	case SV_ACTION_VIEW_FLAME:
		return sv_view_switch(v, "flame");
	case SV_ACTION_VIEW_CALLERS:
		return sv_view_switch(v, "callers");
	case SV_ACTION_VIEW_RANKS:
		return sv_view_switch(v, "ranks");
	case SV_ACTION_VIEW_HISTOGRAM:
		return sv_view_switch(v, "histogram");
	case SV_ACTION_VIEW_CALLS:
		return sv_view_switch(v, "calls");
	case SV_ACTION_VIEW_TREND:
		return sv_view_switch(v, "trend");
	case SV_ACTION_STATS_SPAN: {
		/* The whole run, the window, the range (when marked), and
		 * round again. */
		enum sv_session_span next =
			sv_session_span(&v->s) == SV_SPAN_RUN ? SV_SPAN_WINDOW
			: sv_session_span(&v->s) == SV_SPAN_WINDOW
				? SV_SPAN_RANGE
				: SV_SPAN_RUN;
		char what[160];
		view_sync_window(v);
		sv_session_set_span(&v->s, next);
		sv_session_span_text(&v->s, what, sizeof what);
		sv_session_message(&v->s, false, "statistics: %s", what);
		return SV_REACT_REDRAW;
	}
	case SV_ACTION_RELOAD:
		sv_session_message(&v->s, false, "reloading");
		return SV_REACT_REDRAW | SV_REACT_RELOAD;
	case SV_ACTION_QUIT:
		return SV_REACT_QUIT;
	case SV_ACTION_CLOSE:
		return sv_view_close(v);
	case SV_ACTION_BACK:
		return sv_view_back(v);
	default:
		return -1;
	}
}

static int view_dispatch(struct sv_view *v, int a);
static struct sv_list *view_list(struct sv_mode *m);

/* Carry out what a mode's flags ask of the stack. */
static int view_react(struct sv_view *v, int a, int rc)
{
	if (rc & SV_REACT_COMMIT) {
		struct sv_mode *top = sv_view_top(v);
		char text[SV_VIEW_PROMPT_MAX];
		struct sv_mode *main = &v->mains[v->main];
		int kind = top->kind;

		struct sv_list *l;
		int r;

		snprintf(text, sizeof text, "%s", sv_mode_prompt_text(top));
		view_pop(v);
		if (kind == SV_PROMPT_COMMAND)
			return sv_view_command(v, text);
		r = main->ops->prompt ? main->ops->prompt(main, kind, text)
				      : -1;
		/* A list's search, when its mode has no search of its own. */
		if (r < 0 && kind == SV_PROMPT_SEARCH &&
			(l = view_list(main)) != NULL)
			r = sv_list_search(main, l, text);
		return r < 0 ? SV_REACT_REDRAW : r;
	}
	if (rc & SV_REACT_POP)
		view_pop(v);
	if (rc & SV_REACT_PASS)
		return view_dispatch(v, a);
	return rc & ~(SV_REACT_POP | SV_REACT_PASS | SV_REACT_COMMIT);
}

/* The list of the mode on top that the list keys move, or NULL. */
static struct sv_list *view_list(struct sv_mode *m)
{
	return m->ops->list ? m->ops->list(m) : NULL;
}

/* Whether a is one of the list keys (SV_SCOPE_LIST rows). */
static bool view_is_list_action(int a)
{
	const struct sv_action_info *ai = sv_action_info(a);
	return ai && ai->scopes == SV_SCOPE_LIST;
}

/* Action a, with count (0: none) for the list keys, which take it
 * whole (5j moves five rows at once; 24G goes to row 24). */
static int view_dispatch_count(struct sv_view *v, int a, long count)
{
	struct sv_mode *top = sv_view_top(v);
	struct sv_list *l;
	int rc = -1;

	if (!v->depth)
		v->s.message[0] = '\0';
	if (view_is_list_action(a) && (l = view_list(top)) != NULL)
		return view_react(v, a, sv_list_apply(top, l, a, count));
	if (!v->depth)
		rc = view_global(v, a);
	if (rc < 0)
		rc = top->ops->apply ? top->ops->apply(top, a) : SV_REACT_BELL;
	/* Esc on a nested view's first view, no zoom left: back below. */
	if (v->nested && a == SV_ACTION_ZOOM_BACK && (rc & SV_REACT_BELL) &&
		!v->depth && v->main == v->home && !v->nback)
		rc = SV_REACT_REDRAW | SV_REACT_LEAVE;
	return view_react(v, a, rc);
}

static int view_dispatch(struct sv_view *v, int a)
{
	return view_dispatch_count(v, a, 0);
}

int sv_view_apply(struct sv_view *v, int action)
{
	int rc;
	if (!v || action <= SV_ACTION_NONE || action >= SV_ACTION_COUNT)
		return SV_REACT_BELL;
	rc = view_dispatch(v, action);
	view_sync_window(v);
	return rc;
}

/* The action key binds in m's scopes, in their order. */
static int view_lookup(const struct sv_mode *m, int key)
{
	size_t i;
	int a;

	if (m->ops->panel_focus && m->ops->panel_focus(m)) {
		a = sv_action_for_key(SV_SCOPE_PANEL, key);
		if (a == SV_ACTION_NONE)
			a = sv_action_for_key(SV_SCOPE_LIST, key);
		if (a != SV_ACTION_NONE)
			return a;
	}
	for (i = 0; i < 4 && m->ops->scopes[i]; i++) {
		a = sv_action_for_key(m->ops->scopes[i], key);
		if (a != SV_ACTION_NONE)
			return a;
	}
	return SV_ACTION_NONE;
}

/* The actions a count repeats: moves and steps, not toggles or prompts. */
static bool view_counted(int a)
{
	switch (a) {
	case SV_ACTION_MOVE_LEFT:
	case SV_ACTION_MOVE_RIGHT:
	case SV_ACTION_MOVE_UP:
	case SV_ACTION_MOVE_DOWN:
	case SV_ACTION_PAGE_UP:
	case SV_ACTION_PAGE_DOWN:
	case SV_ACTION_ZOOM_IN:
	case SV_ACTION_ZOOM_OUT:
	case SV_ACTION_PAN_LEFT:
	case SV_ACTION_PAN_RIGHT:
	case SV_ACTION_ZOOM_BACK:
	case SV_ACTION_NEXT_CALL:
	case SV_ACTION_PREV_CALL:
	case SV_ACTION_PARENT:
	case SV_ACTION_CHILD:
	case SV_ACTION_NEXT_SIBLING:
	case SV_ACTION_PREV_SIBLING:
	case SV_ACTION_LONGEST_CHILD:
	case SV_ACTION_SEARCH_NEXT:
	case SV_ACTION_SEARCH_PREV:
	case SV_ACTION_LIST_MATCH_NEXT:
	case SV_ACTION_LIST_MATCH_PREV:
	case SV_ACTION_RANKS_RIGHT:
	case SV_ACTION_RANKS_LEFT:
	case SV_ACTION_FLAME_UP:
	case SV_ACTION_FLAME_DOWN:
	case SV_ACTION_FLAME_LEFT:
	case SV_ACTION_FLAME_RIGHT:
		return true;
	default:
		return false;
	}
}

/* A digit typed on a main mode or a popup (a prompt takes it as text):
 * part of a count (a 0 only after another digit, so that 0 alone keeps
 * its action).  Returns whether it was. */
static bool view_count_digit(struct sv_view *v, int key)
{
	if (sv_view_prompt(v) != SV_PROMPT_NONE || key < '0' || key > '9' ||
		(key == '0' && !v->count))
		return false;
	v->count = v->count * 10 + (key - '0');
	if (v->count > SV_VIEW_COUNT_MAX)
		v->count = SV_VIEW_COUNT_MAX;
	sv_session_message(&v->s, false, "%ld", v->count);
	return true;
}

/* Action a, count times when a count was typed and a repeats (stopping
 * at the first bell, a popup or prompt, or quit). */
static int view_dispatch_counted(struct sv_view *v, int a)
{
	long n = v->count, i;
	int rc = 0;

	v->count = 0;
	if (view_is_list_action(a))
		return view_dispatch_count(v, a, n);
	if (n <= 1 || !view_counted(a))
		return view_dispatch(v, a);
	for (i = 0; i < n; i++) {
		int r = view_dispatch(v, a);
		rc |= r;
		if ((r & (SV_REACT_BELL | SV_REACT_QUIT)) || v->depth)
			break;
	}
	return rc;
}

static bool view_too_small(const struct sv_view *v)
{
	return v->w < SV_LAYOUT_MIN_W || v->h < SV_LAYOUT_MIN_H;
}

static int view_handle_key(struct sv_view *v, int key);

int sv_view_handle_key(struct sv_view *v, int key)
{
	int rc = view_handle_key(v, key);
	if (v)
		view_sync_window(v);
	return rc;
}

static int view_handle_key(struct sv_view *v, int key)
{
	struct sv_mode *top;
	int a, rc;

	if (!v || key == SV_KEY_NONE || key == SV_KEY_EOF)
		return 0;
	if (key == SV_KEY_RESIZE)
		return SV_REACT_REDRAW;
	if (sv_key_is_mouse(key)) {
		size_t i = v->depth + 1;
		if (v->s.opts.no_mouse || view_too_small(v))
			return 0;
		/* Down the stack until a mode takes it; the modes above
		 * stay (a prompt stays open while the wheel zooms). */
		while (i-- > 0) {
			struct sv_mode *m =
				i ? &v->stack[i - 1] : &v->mains[v->main];
			struct sv_list *l;
			rc = m->ops->key ? m->ops->key(m, key) : -1;
			if (rc < 0 && (l = view_list(m)) != NULL)
				rc = sv_list_mouse(m, l, key);
			if (rc >= 0)
				return view_react(v, SV_ACTION_NONE, rc);
		}
		return 0;
	}
	if (view_too_small(v))
		return key == 'q' ? SV_REACT_QUIT : 0;
	if (view_count_digit(v, key))
		return SV_REACT_REDRAW;
	if (v->count && key == SV_KEY_ESCAPE) {
		/* Esc drops a count typed, and does nothing else */
		v->count = 0;
		v->s.message[0] = '\0';
		return SV_REACT_REDRAW;
	}
	top = sv_view_top(v);
	a = view_lookup(top, key);
	if (a != SV_ACTION_NONE)
		return view_dispatch_counted(v, a);
	v->count = 0;
	if (top->ops->key) {
		rc = top->ops->key(top, key);
		if (rc >= 0)
			return view_react(v, SV_ACTION_NONE, rc);
	}
	return SV_REACT_BELL;
}

/* ---- set-up -------------------------------------------------------------- */

int sv_view_init(struct sv_view *v, const struct sv_profile *p,
	const struct sv_view_opts *opts, struct sv_error *err)
{
	struct sv_session_opts so;
	int rc;

	if (!v || !p)
		return sv_error_set(err, -EINVAL, "view: no profile");
	memset(v, 0, sizeof *v);
	memset(&so, 0, sizeof so);
	v->sink = opts ? opts->sink : NULL;
	v->runs = opts ? opts->runs : NULL;
	v->nested = opts && opts->nested;
	v->export_bg_calls = SV_VIEW_EXPORT_BG_CALLS;
	if (opts) {
		so.ascii = opts->ascii;
		so.no_mouse = opts->no_mouse;
		so.title = opts->title;
		so.memory = opts->memory;
	}
	rc = sv_session_init(&v->s, p, &so, err);
	if (rc < 0)
		return rc;
	v->s.notify = view_notify;
	v->s.notify_ctx = v;
	v->w = 120;
	v->h = 40;
	v->main = view_mode_index(v->runs ? &sv_mode_scaling
				  : p->layout == SV_LAYOUT_AGGREGATE
					  ? &sv_mode_stats
					  : &sv_mode_timeline);
	v->home = v->main;
	rc = view_mode_start(
		v, &v->mains[v->main], sv_mode_table[v->main], 0, err);
	if (rc < 0) {
		sv_session_fini(&v->s);
		return rc;
	}
	/* --ranks on a file read whole: the rank filter shows the ranks. */
	if (opts && opts->ranks && !p->rank_subset && p->has_calls)
		(void)sv_session_set_ranks(&v->s, opts->ranks);
	if (opts && opts->second) {
		rc = sv_view_set_second(
			v, opts->second, opts->second_title, err);
		if (rc < 0) {
			sv_view_fini(v);
			return rc;
		}
	}
	return 0;
}

void sv_view_fini(struct sv_view *v)
{
	size_t i;

	if (!v)
		return;
	sv_view_export_stop(v);
	while (v->depth)
		view_pop(v);
	for (i = 0; i < SV_VIEW_MAINS; i++)
		view_mode_stop(&v->mains[i]);
	for (i = 0; i < SV_PROMPT_COUNT; i++)
		sv_lineedit_history_fini(&v->history[i]);
	sv_session_fini(&v->s);
	memset(v, 0, sizeof *v);
}

int sv_view_set_profile(
	struct sv_view *v, const struct sv_profile *p, struct sv_error *err)
{
	return sv_session_set_profile(&v->s, p, err);
}

int sv_view_set_profile_prepared(struct sv_view *v, const struct sv_profile *p,
	struct sv_run_prep *sp, struct sv_error *err)
{
	return sv_session_set_profile_prepared(&v->s, p, sp, err);
}

int sv_view_set_second(struct sv_view *v, const struct sv_profile *p2,
	const char *name, struct sv_error *err)
{
	return sv_session_set_second(&v->s, p2, name, err);
}

int sv_view_set_second_prepared(struct sv_view *v, struct sv_run_prep *sp,
	const char *name, struct sv_error *err)
{
	return sv_session_set_second_prepared(&v->s, sp, name, err);
}

void sv_view_resize(struct sv_view *v, int w, int h)
{
	size_t i;

	v->w = w;
	v->h = h;
	for (i = 0; i < SV_VIEW_MAINS; i++) {
		struct sv_mode *m = &v->mains[i];
		if (!m->ops)
			continue;
		m->w = w;
		m->h = h;
		if (m->ops->resize)
			m->ops->resize(m, w, h);
	}
	for (i = 0; i < v->depth; i++) {
		v->stack[i].w = w;
		v->stack[i].h = h;
		if (v->stack[i].ops->resize)
			v->stack[i].ops->resize(&v->stack[i], w, h);
	}
}

void sv_render(struct sv_grid *g, const struct sv_view *v)
{
	const struct sv_mode *main = &v->mains[v->main];
	struct sv_rect r;
	size_t i;

	if (view_too_small(v)) {
		sv_render_too_small(g, v->w, v->h);
		return;
	}
	sv_grid_resize(g, v->w, v->h);
	r.x = 0;
	r.y = 0;
	r.w = v->w;
	r.h = v->h;
	main->ops->draw(main, g, r);
	if (main->ops->status) {
		char line[512];
		const char *const *hints = NULL;
		size_t nhints = 0;
		main->ops->status(main, line, sizeof line, &hints, &nhints);
		sv_render_status(g, &v->s, v->h - 1, v->w, line, hints, nhints);
	}
	for (i = 0; i < v->depth; i++)
		v->stack[i].ops->draw(&v->stack[i], g, r);
}
