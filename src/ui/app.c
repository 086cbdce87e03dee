/*
 * app.c: the interactive viewer's loop (app.h); cli/cmd_view.c parses
 * `scopeview [FILE]` and starts it.
 *
 * One loop, one place that draws: keys go to sv_view_handle_key(), which
 * reports what changed; before every frame the loop takes in what the
 * background work finished (sv_view_poll: the session's jobs, job.h);
 * it renders the view into its grid and presents it only when a flag (or
 * a resize, or load progress) says so.  Idle, the loop sleeps in the
 * backend's blocking getkey, which a finished job's wake-up ends.
 *
 * Loading runs in a background thread (app_loader.c): first the
 * index alone (summary_only: names and stored statistics, quick), then
 * the whole file with progress and cancellation.  The thread only fills
 * its own struct under a mutex; the loop polls it every poll_ms while it
 * runs and adopts what it finds.  The thread never touches the view, the
 * grid or the terminal.
 *
 * Nothing here includes curses (term.c) or HDF5 (load_h5*.c).
 */
#include "scopeview/app.h"

#include <errno.h>
#include <locale.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scopeview/action.h"
#include "scopeview/heap.h"
#include "scopeview/job.h"
#include "scopeview/keys.h"
#include "scopeview/profile.h"
#include "scopeview/render.h"
#include "scopeview/timeline.h"
#include "scopeview/view.h"

#include "app_priv.h"

/* ---- drawing ------------------------------------------------------------ */

/*
 * The load progress as a box.  During the first load the view shows only
 * the index (has_calls is false), so the timeline side would say "summary
 * statistics only": that side is blanked and the box drawn in its middle,
 * next to the panel of stored statistics.  A reload draws the box over
 * the middle of the screen.
 */
static void app_draw_progress(struct sv_app *a)
{
	struct sv_grid *g = &a->grid;
	bool ascii = a->opts.ascii || !sv_grid_locale_is_utf8();
	int bw, x0, y0, barw, filled, i, area_w = g->w, area_h = g->h;
	char line[160];

	const struct sv_timeline *tl =
		a->view ? sv_view_timeline(a->view) : NULL;

	if (a->first_load && tl && !tl->geom.too_small) {
		const struct sv_layout_geom *geo = &tl->geom;
		area_w = geo->panel_w ? geo->panel_x : g->w;
		area_h = geo->status_y;
		sv_grid_fill(g, 0, 0, area_w, area_h, ' ', SV_STYLE_DEFAULT, 0);
	}
	if (area_w < 14 || area_h < 4)
		return;
	bw = area_w - 4 < 60 ? area_w - 4 : 60;
	x0 = (area_w - bw) / 2;
	y0 = (area_h - 4) / 2;
	sv_grid_fill(g, x0, y0, x0 + bw, y0 + 4, ' ', SV_STYLE_POPUP, 0);
	snprintf(line, sizeof line, "%s %s",
		a->first_load ? "Loading" : "Reloading", a->title);
	sv_grid_text(g, x0 + 1, y0, bw - 2, line, SV_STYLE_POPUP, 0,
		ascii ? '~' : 0x2026);
	barw = bw - 9;
	filled = (int)(a->fraction * barw + 0.5);
	for (i = 0; i < barw; i++)
		sv_grid_put(g, x0 + 1 + i, y0 + 1,
			i < filled ? (ascii ? '#' : 0x2588)
				   : (ascii ? '.' : 0x2591),
			SV_STYLE_POPUP, 0);
	sv_grid_textf(g, x0 + 2 + barw, y0 + 1, 6, SV_STYLE_POPUP, 0, "%3d%%",
		(int)(a->fraction * 100 + 0.5));
	if (a->what[0])
		snprintf(line, sizeof line, "reading %s", a->what);
	else
		snprintf(line, sizeof line, "opening the file");
	sv_grid_text(g, x0 + 1, y0 + 2, bw - 2, line, SV_STYLE_POPUP, 0,
		ascii ? '~' : 0x2026);
	sv_grid_text(g, x0 + 1, y0 + 3, bw - 2,
		a->first_load ? "q: stop and quit" : "q: stop reloading",
		SV_STYLE_POPUP, 0, 0);
}

static void app_draw(struct sv_app *a, const struct sv_backend *b)
{
	int w = 0, h = 0;

	b->size(b->ctx, &w, &h);
	if (a->view) {
		if (a->view->w != w || a->view->h != h)
			sv_view_resize(a->view, w, h);
		sv_render(&a->grid, a->view);
	} else {
		sv_grid_resize(&a->grid, w, h);
		sv_grid_clear(&a->grid);
	}
	if (a->loader)
		app_draw_progress(a);
	b->present(b->ctx, &a->grid);
}

/* ---- profiles and views ------------------------------------------------- */

/* One line for the status bar (truncated to fit the view's buffer). */
void app_message(struct sv_app *a, bool is_error, const char *fmt, ...)
{
	va_list ap;

	if (!a->view)
		return;
	va_start(ap, fmt);
	vsnprintf(a->view->s.message, sizeof a->view->s.message, fmt, ap);
	va_end(ap);
	a->view->s.message_is_error = is_error;
}

/* The view options of the app. */
static void app_view_opts(const struct sv_app *a, struct sv_view_opts *vo)
{
	memset(vo, 0, sizeof *vo);
	vo->ascii = a->opts.ascii || !sv_grid_locale_is_utf8();
	vo->no_mouse = a->opts.no_mouse;
	vo->title = a->title;
	vo->sink = a->opts.sink;
	vo->ranks = a->opts.ranks;
	vo->memory = a->opts.source.memory;
	vo->nested = a->ws_view != NULL; /* a pair over the workspace */
}

/* Show p (owned by the app from now on) in a fresh view: built already
 * (by the loading thread) when v is given, else here. */
static int app_show(struct sv_app *a, struct sv_profile *p, struct sv_view *v,
	int w, int h, struct sv_error *err)
{
	struct sv_view_opts vo;

	app_view_free(a->view);
	a->view = NULL;
	if (!v) {
		app_view_opts(a, &vo);
		v = app_view_new(p, &vo, err);
	}
	if (!v) {
		sv_profile_free(p);
		return err->code < 0 ? err->code : -EIO;
	}
	sv_profile_free(a->profile);
	a->profile = p;
	a->view = v;
	/* The config file's panel width and first order. */
	a->view->s.panel_width = a->opts.panel_width;
	a->view->s.panel_cols = a->opts.panel_cols;
	if (a->opts.sort_set && a->opts.sort_key >= 0 &&
		a->opts.sort_key < SV_STATS_KEY_COUNT)
		sv_session_sort(
			&a->view->s, (enum sv_stats_key)a->opts.sort_key);
	sv_view_resize(a->view, w, h);
	return 0;
}

/* What the user set on the index view while the calls loaded: carried
 * over to the full view, through the same actions the keys would run. */
struct app_keep {
	enum sv_stats_key sort_key;
	bool panel_shown, details_shown, panel_focus;
	enum sv_popup popup;
};

static void app_keep_save(const struct sv_app *a, struct app_keep *k)
{
	const struct sv_timeline *tl = sv_view_timeline(a->view);

	memset(k, 0, sizeof *k);
	k->sort_key = sv_session_sort_key(&a->view->s);
	k->panel_shown = !tl || tl->panel_shown;
	k->details_shown = !tl || tl->details_shown;
	k->panel_focus = tl && tl->panel.focus;
	k->popup = (enum sv_popup)sv_view_popup(a->view);
}

static void app_keep_restore(struct sv_app *a, const struct app_keep *k)
{
	struct sv_view *v = a->view;
	const struct sv_timeline *tl = sv_view_timeline(v);
	int guard;

	for (guard = 0; sv_session_sort_key(&v->s) != k->sort_key &&
			guard < SV_PANEL_COL_COUNT;
		guard++)
		sv_view_apply(v, SV_ACTION_SORT_NEXT);
	if (tl && tl->panel_shown != k->panel_shown)
		sv_view_apply(v, SV_ACTION_PANEL_TOGGLE);
	if (tl && tl->details_shown != k->details_shown)
		sv_view_apply(v, SV_ACTION_DETAILS);
	if (tl && tl->panel.focus != k->panel_focus)
		sv_view_apply(v, SV_ACTION_PANEL_FOCUS);
	if (k->popup == SV_POPUP_HELP)
		sv_view_apply(v, SV_ACTION_HELP);
	else if (k->popup == SV_POPUP_METADATA)
		sv_view_apply(v, SV_ACTION_METADATA);
	else if (k->popup == SV_POPUP_WARNINGS)
		sv_view_apply(v, SV_ACTION_WARNINGS);
	else if (k->popup == SV_POPUP_CONTENTS)
		sv_view_apply(v, SV_ACTION_CONTENTS);
}

/* Take the second run p2 (owned from now on; NULL: its load failed with
 * err) into the view, with what sp prepared of it (its index; sp->p
 * NULL: prepared here). */
static void app_adopt_second(struct sv_app *a, struct sv_profile *p2,
	struct sv_run_prep *sp, const struct sv_error *err)
{
	struct sv_error verr;
	int rc = -EINVAL;

	a->second_load = false;
	if (!p2) {
		app_message(a, true, "cannot compare: %s", err->msg);
		return;
	}
	memset(&verr, 0, sizeof verr);
	if (a->view && sp->p == p2)
		rc = sv_view_set_second_prepared(a->view, sp, NULL, &verr);
	else if (a->view)
		rc = sv_view_set_second(a->view, p2, NULL, &verr);
	else
		sv_error_set(&verr, -EINVAL, "no run on show");
	sv_run_prep_fini(sp);
	if (rc < 0) {
		app_message(a, true, "cannot compare: %s", verr.msg);
		sv_profile_free(p2);
		return;
	}
	sv_profile_free(a->profile2);
	a->profile2 = p2;
	app_message(a, false, "comparing with %s", p2->path);
}

/* Load path in the background as the second run (:open, or the second
 * FILE on the command line). */
static void app_start_second(struct sv_app *a, const char *path)
{
	char *copy = sv_xstrdup(path);
	free(a->path2);
	a->path2 = copy;
	a->first_load = false;
	a->second_load = true;
	a->fraction = 0;
	a->what[0] = '\0';
	a->loader =
		app_loader_start(&a->opts.source, a->path2, false, NULL, true);
	a->seen_seq = 0;
}

/* Look at the running load; returns true when the screen should change,
 * and sets *failed (with err) when the first load failed. */
static bool app_poll_loader(struct sv_app *a, const struct sv_backend *b,
	bool *failed, struct sv_error *err)
{
	struct app_loader *l = a->loader;
	struct sv_profile *index = NULL, *result = NULL;
	struct sv_view *view = NULL;
	struct sv_run_prep prep = {.p = NULL};
	bool done, changed = false;
	int rc = 0, w = 0, h = 0;
	uint32_t left = 0;
	uint64_t bytes = 0;
	struct sv_error lerr = {0, ""};

	pthread_mutex_lock(&l->mu);
	if (l->progress_seq != a->seen_seq) {
		a->seen_seq = l->progress_seq;
		a->fraction = l->fraction;
		snprintf(a->what, sizeof a->what, "%s", l->what);
		changed = true;
	}
	index = l->index;
	l->index = NULL;
	done = l->done;
	if (done) {
		result = l->result;
		l->result = NULL;
		view = l->view;
		l->view = NULL;
		prep = l->prep;
		memset(&l->prep, 0, sizeof l->prep);
		rc = l->rc;
		lerr = l->err;
		left = l->budget_left;
		bytes = l->budget_bytes;
	}
	pthread_mutex_unlock(&l->mu);

	b->size(b->ctx, &w, &h);
	if (index && app_budget_index(a, index)) {
		changed = true;
	} else if (index && a->first_load && !a->view) {
		/* What is known so far: the regions and their stored
		 * statistics, under the progress box. */
		struct sv_error ierr;
		memset(&ierr, 0, sizeof ierr);
		if (app_show(a, index, NULL, w, h, &ierr) == 0)
			app_message(a, false, "%s",
				"Loading calls: the panel shows the stored "
				"statistics");
		changed = true;
	} else {
		sv_profile_free(index);
	}
	if (!done)
		return changed;

	app_loader_free(a->loader);
	a->loader = NULL;
	if (a->second_load) {
		app_view_free(view); /* none is built for a second run */
		app_adopt_second(a, result, &prep, &lerr);
		return true;
	}
	if (!result) {
		sv_run_prep_fini(&prep);
		if (a->first_load && a->ws_view) {
			char why[600];
			snprintf(why, sizeof why, "cannot open the pair: %s",
				lerr.msg);
			app_runs_back(a, why);
			return true;
		}
		if (a->first_load) {
			*failed = true;
			*err = lerr;
			if (err->code >= 0)
				err->code = rc < 0 ? rc : -EIO;
			return true;
		}
		if (a->view) {
			app_message(a, true, "reload failed: %s", lerr.msg);
		}
		app_budget_switched(a, false);
		return true;
	}
	if (a->first_load) {
		struct sv_error verr;
		struct app_keep keep;
		bool had_view = a->view;
		if (had_view)
			app_keep_save(a, &keep);
		memset(&verr, 0, sizeof verr);
		if (app_show(a, result, view, w, h, &verr) < 0) {
			*failed = !app_runs_back(a, verr.msg);
			*err = verr;
		} else {
			if (had_view)
				app_keep_restore(a, &keep);
			app_budget_loaded(a, left, bytes);
		}
		if (!*failed && a->path2) {
			a->first_load = false;
			app_start_second(a, a->path2);
			return true;
		}
	} else {
		/* Reload: the view keeps its window, lanes, search. */
		struct sv_profile *old = a->profile;
		struct sv_error verr;
		memset(&verr, 0, sizeof verr);
		int rc2 = sv_view_set_profile_prepared(
			a->view, result, &prep, &verr);
		sv_run_prep_fini(&prep); /* what the view did not take */
		if (rc2 == 0) {
			a->profile = result;
			sv_profile_free(old);
			app_message(a, false, "reloaded %s", a->title);
			app_budget_switched(a, true);
			app_budget_loaded(a, left, bytes);
		} else {
			sv_profile_free(result);
			app_message(a, true, "reload failed: %s", verr.msg);
			app_budget_switched(a, false);
		}
	}
	a->first_load = false;
	return true;
}

void app_start_load(struct sv_app *a, bool first)
{
	struct sv_view_opts vo;

	a->first_load = first;
	a->second_load = false;
	a->fraction = 0;
	a->what[0] = '\0';
	app_view_opts(a, &vo);
	/* Key bindings are set up here, before the thread reads them. */
	sv_action_for_key(0, 0);
	a->loader = app_loader_start(&a->opts.source, a->path,
		first || a->budget_switch, first ? &vo : NULL, false);
	a->seen_seq = 0;
}

/* The load the loop would run in a thread, done here and now (tests). */
static int app_load_now(
	struct sv_app *a, const struct sv_backend *b, struct sv_error *err)
{
	struct sv_profile *p = NULL;
	int rc, w = 0, h = 0;

	if (a->opts.source.thread_init)
		a->opts.source.thread_init();
	rc = a->opts.source.load(a->path, NULL, &p, err);
	if (rc < 0)
		return rc;
	sv_profile_pack(p);
	b->size(b->ctx, &w, &h);
	rc = app_show(a, p, NULL, w, h, err);
	if (rc == 0 && a->path2) {
		struct sv_profile *p2 = NULL;
		struct sv_run_prep sp = {.p = NULL};
		struct sv_error lerr = {0, ""};
		a->second_load = true;
		if (a->opts.source.load(a->path2, NULL, &p2, &lerr) == 0)
			sv_profile_pack(p2);
		app_adopt_second(a, p2, &sp, &lerr);
	}
	return rc;
}

/* ---- the loop ------------------------------------------------------------ */

struct sv_app *sv_app_new(const struct sv_app_opts *opts)
{
	struct sv_app *a = sv_xcalloc(1, sizeof *a);

	a->opts = *opts;
	a->path = sv_xstrdup(opts->path ? opts->path : "");
	a->path2 = opts->path2 ? sv_xstrdup(opts->path2) : NULL;
	a->opts.path2 = NULL; /* a->path2 from now on */
	a->title = sv_xstrdup(opts->title ? opts->title : a->path);
	a->opts.path = a->path;
	a->opts.title = a->title;
	if (a->opts.poll_ms <= 0)
		a->opts.poll_ms = 100;
	sv_grid_init(&a->grid);
	return a;
}

void sv_app_free(struct sv_app *a)
{
	if (!a)
		return;
	app_loader_stop(a->loader);
	app_budget_fini(a);
	app_view_free(a->view);
	sv_profile_free(a->profile);
	sv_profile_free(a->profile2);
	app_runs_fini(a); /* after the view reading its runs */
	sv_grid_fini(&a->grid);
	free(a->path);
	free(a->path2);
	free(a->title);
	free(a);
}

const struct sv_view *sv_app_view(const struct sv_app *a)
{
	return a && a->view ? a->view : NULL;
}

const struct sv_grid *sv_app_grid(const struct sv_app *a)
{
	return a ? &a->grid : NULL;
}

/* Is key a request to stop the running load?  `q` and Ctrl-C, unless a
 * popup of the interim view should close first. */
static bool app_is_cancel(const struct sv_app *a, int key)
{
	if (key == SV_KEY_CTRL('c'))
		return true;
	if (key != 'q')
		return false;
	return !(a->view && (sv_view_popup(a->view) != SV_POPUP_NONE ||
				    sv_view_prompt(a->view) != SV_PROMPT_NONE));
}

/* The loop of sv_app_run (a, b and err set). */
static int app_loop(
	struct sv_app *a, const struct sv_backend *b, struct sv_error *err)
{
	bool dirty = true, busy;

	/* Big arrays get mappings of their own (heap.h). */
	mallopt(M_MMAP_THRESHOLD, SV_HEAP_MMAP_THRESHOLD);
	if (a->opts.runs && a->opts.nruns >= 3) {
		int rc = app_runs_open(a, b, err);
		if (rc < 0)
			return rc;
	} else if (!a->opts.load_in_thread) {
		int rc = app_load_now(a, b, err);
		if (rc < 0)
			return rc;
	} else {
		app_start_load(a, true);
	}
	for (;;) {
		int key, flags;

		/* The one place background work is taken in: every job the
		 * view, its modes and the session run, and the loader, are
		 * polled before each frame, so a result that woke the wait
		 * below is on the very next frame. */
		if (a->view && (sv_view_poll(a->view) & SV_REACT_REDRAW))
			dirty = true;
		if (a->loader) {
			bool failed = false;
			if (app_poll_loader(a, b, &failed, err))
				dirty = true;
			if (failed)
				return err->code < 0 ? err->code : -EIO;
		}
		if (app_runs_check(a, err) < 0)
			return err->code;
		if (dirty) {
			app_draw(a, b);
			dirty = false;
		}
		busy = a->view && sv_view_busy(a->view);
		key = b->getkey(
			b->ctx, a->loader || busy ? a->opts.poll_ms : -1);
		/* Work went on meanwhile: show its progress. */
		if (busy)
			dirty = true;
		if (key == SV_KEY_NONE)
			continue;
		if (key == SV_KEY_EOF)
			break;
		if (key == SV_KEY_RESIZE) {
			dirty = true;
			continue;
		}
		if (a->loader && app_is_cancel(a, key)) {
			bool first = a->first_load;
			app_loader_stop(a->loader);
			a->loader = NULL;
			if (first &&
				app_runs_back(a, "stopped opening the pair")) {
				dirty = true;
				continue;
			}
			if (first)
				return 0;
			app_message(a, false, "%s",
				a->second_load ? "stopped loading the run to "
						 "compare with"
					       : "reload stopped");
			app_budget_switched(a, false);
			a->second_load = false;
			dirty = true;
			continue;
		}
		if (!a->view) {
			if (key == SV_KEY_CTRL('c'))
				return 0;
			continue;
		}
		if (key == SV_KEY_CTRL('c'))
			break;
		flags = sv_view_handle_key(a->view, key);
		if (flags & SV_REACT_QUIT)
			break;
		if (app_runs_flags(a, &flags))
			dirty = true;
		/* While the first load runs, the view shows the index and
		 * the load is already under way. */
		if ((flags & SV_REACT_RELOAD) && !a->loader) {
			app_start_load(a, false);
			dirty = true;
		}
		if (app_budget_follow(a))
			dirty = true;
		if (flags & SV_REACT_OPEN) {
			if (a->loader)
				app_message(a, true, "%s",
					"a load is under way: open again "
					"when it is done");
			else
				app_start_second(a, a->view->open_path);
			dirty = true;
		}
		if (flags & SV_REACT_REDRAW)
			dirty = true;
		if ((flags & SV_REACT_BELL) && b->beep)
			b->beep(b->ctx);
	}
	return 0;
}

int sv_app_run(
	struct sv_app *a, const struct sv_backend *b, struct sv_error *err)
{
	struct sv_error local;
	int rc;

	if (!err)
		err = &local;
	memset(err, 0, sizeof *err);
	if (!a || !b)
		return sv_error_set(err, -EINVAL, "no app or no backend");
	/* Workers end the wait for a key when they have a result. */
	sv_job_set_wake(b->wake);
	rc = app_loop(a, b, err);
	sv_job_set_wake(NULL);
	return rc;
}
