/*
 * app_runs.c: the viewer's loop with three or more runs (app_priv.h):
 * the runs workspace (runs.h) in a view of its own, whose first view is
 * :view scaling, and a pair of its runs opened over it.
 *
 * The workspace's view is made at once on the loop's thread (its profile
 * is an empty placeholder: nothing to index); its runs are read on the
 * view's session jobs, which the loop polls with every view's.  Enter on
 * two points (SV_REACT_PAIR) puts the workspace's view aside and loads
 * the two runs through the loop's first load, exactly as `scopeview A B`
 * does (the index first under the progress box, the view built on the
 * loader's thread, then the second run), with a view that is nested: q
 * and Esc on its first view (SV_REACT_LEAVE), a failed load or q during
 * it free the pair and bring the workspace back as it was.  Nothing
 * here includes curses or HDF5.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/app.h"
#include "scopeview/runs.h"

#include "app_priv.h"

int app_runs_open(
	struct sv_app *a, const struct sv_backend *b, struct sv_error *err)
{
	struct sv_view_opts vo;
	struct sv_profile *p;
	struct sv_view *v;
	int w = 0, h = 0;

	a->runs = sv_runs_new(a->opts.runs, a->opts.nruns, &a->opts.source,
		NULL, a->opts.ranks);
	p = sv_runs_placeholder(a->runs);
	if (!p)
		return sv_error_set(err, -ENOMEM, "no workspace");
	free(a->title);
	a->title = sv_xasprintf("%zu runs", a->opts.nruns);
	a->opts.title = a->title;
	memset(&vo, 0, sizeof vo);
	vo.ascii = a->opts.ascii || !sv_grid_locale_is_utf8();
	vo.no_mouse = a->opts.no_mouse;
	vo.title = a->title;
	vo.runs = a->runs;
	v = app_view_new(p, &vo, err);
	if (!v) {
		sv_profile_free(p);
		return err->code < 0 ? err->code : -EIO;
	}
	a->profile = p;
	a->view = v;
	b->size(b->ctx, &w, &h);
	sv_view_resize(v, w, h);
	return 0;
}

/* Put the workspace aside and load its pair as the first load would. */
static void app_runs_pair(struct sv_app *a)
{
	const char *pa = a->runs->pair[0], *pb = a->runs->pair[1];

	if (!pa || !pb || a->ws_view)
		return;
	a->ws_view = a->view;
	a->ws_profile = a->profile;
	a->ws_title = a->title;
	a->view = NULL;
	a->profile = NULL;
	free(a->path);
	free(a->path2);
	a->path = sv_xstrdup(pa);
	a->path2 = sv_xstrdup(pb);
	a->title = sv_xstrdup(pa);
	a->opts.path = a->path;
	a->opts.title = a->title;
	app_start_load(a, true);
}

bool app_runs_back(struct sv_app *a, const char *why)
{
	if (!a->ws_view)
		return false;
	app_loader_stop(a->loader);
	a->loader = NULL;
	a->first_load = false;
	a->second_load = false;
	a->budget_switch = false;
	app_view_free(a->view);
	sv_profile_free(a->profile);
	sv_profile_free(a->profile2);
	a->profile2 = NULL;
	free(a->title);
	a->view = a->ws_view;
	a->profile = a->ws_profile;
	a->title = a->ws_title;
	a->opts.title = a->title;
	a->ws_view = NULL;
	a->ws_profile = NULL;
	a->ws_title = NULL;
	if (why)
		app_message(a, true, "%s", why);
	else
		a->view->s.message[0] = '\0';
	return true;
}

bool app_runs_flags(struct sv_app *a, int *flags)
{
	bool changed = false;

	if (!a->runs)
		return false;
	if (*flags & SV_REACT_LEAVE) {
		*flags &= ~SV_REACT_LEAVE;
		changed = app_runs_back(a, NULL);
	}
	if (a->ws_view)
		return changed; /* the pair's view: its keys as for A B */
	if (*flags & SV_REACT_PAIR) {
		*flags &= ~SV_REACT_PAIR;
		if (a->loader) {
			app_message(a, true, "%s",
				"a load is under way: open the pair when it "
				"is done");
		} else {
			app_runs_pair(a);
		}
		changed = true;
	}
	if (*flags & SV_REACT_RELOAD) {
		*flags &= ~SV_REACT_RELOAD;
		sv_runs_reload(a->runs);
		app_message(a, false, "reading the %zu runs again", a->runs->n);
		changed = true;
	}
	if (*flags & SV_REACT_OPEN) {
		*flags &= ~SV_REACT_OPEN;
		app_message(a, true, "%s",
			"the runs workspace compares its own runs: Enter on "
			"two points of :view scaling");
		changed = true;
	}
	return changed;
}

int app_runs_check(struct sv_app *a, struct sv_error *err)
{
	const struct sv_runs *r = a->runs;

	if (!r || a->ws_view || sv_runs_busy(r) || r->measured || !r->n)
		return 0;
	if (r->failed < r->n)
		return 0; /* not started, or cancelled */
	return sv_error_set(err, -EIO,
		"none of the %zu runs could be read; the first: %s", r->n,
		r->runs[0].error);
}

void app_runs_fini(struct sv_app *a)
{
	app_view_free(a->ws_view);
	sv_profile_free(a->ws_profile);
	free(a->ws_title);
	a->ws_view = NULL;
	a->ws_profile = NULL;
	a->ws_title = NULL;
	sv_runs_free(a->runs);
	a->runs = NULL;
}
