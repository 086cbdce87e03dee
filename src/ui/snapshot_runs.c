/*
 * snapshot_runs.c: `scopeview snapshot A B C ...`, the runs workspace's
 * screen without a terminal (snapshot.h).  The same view the viewer
 * opens on three or more runs (its runs read on the session's jobs,
 * which every key waits for here, as a person would see them once read),
 * and for Enter on two points the same nested two-run view over it, its
 * runs read on this thread.  Nothing here prints.
 */
#include "scopeview/snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/runs.h"
#include "scopeview/view.h"

/* The pair shown over the workspace. */
struct snap_pair {
	struct sv_view v;
	struct sv_profile *p, *p2;
	bool open;
};

static void snap_pair_close(struct snap_pair *pr)
{
	if (pr->open)
		sv_view_fini(&pr->v);
	sv_profile_free(pr->p);
	sv_profile_free(pr->p2);
	memset(pr, 0, sizeof *pr);
}

/* Read the workspace's pair and show it over ws at its size; a failure
 * goes to ws's message line. */
static void snap_pair_open(struct snap_pair *pr, struct sv_view *ws,
	struct sv_runs *r, const struct sv_view_opts *base)
{
	struct sv_view_opts vo = *base;
	struct sv_load_opts lo;
	struct sv_error err;
	int rc;

	memset(&lo, 0, sizeof lo);
	lo.rank_on = r->source.rank_on;
	lo.nrank_on = r->source.nrank_on;
	memset(&err, 0, sizeof err);
	if (r->source.thread_init)
		r->source.thread_init();
	rc = r->source.load(r->pair[0], &lo, &pr->p, &err);
	if (rc == 0)
		rc = r->source.load(r->pair[1], &lo, &pr->p2, &err);
	if (rc == 0) {
		vo.runs = NULL;
		vo.nested = true;
		vo.title = r->pair[0];
		vo.second = pr->p2;
		vo.second_title = r->pair[1];
		rc = sv_view_init(&pr->v, pr->p, &vo, &err);
		pr->open = rc == 0;
	}
	if (rc < 0) {
		sv_session_message(
			&ws->s, true, "cannot open the pair: %s", err.msg);
		snap_pair_close(pr);
		return;
	}
	sv_view_resize(&pr->v, ws->w, ws->h);
}

int sv_snapshot_draw_runs(struct sv_grid *g, struct sv_runs *r, int w, int h,
	const int *keys, size_t nkeys, const struct sv_view_opts *opts,
	struct sv_error *err)
{
	struct sv_view_opts vo;
	struct sv_view ws;
	struct snap_pair pr;
	struct sv_profile *p;
	char title[64];
	size_t i;
	int rc;

	if (!g || !r)
		return sv_error_set(err, -EINVAL, "snapshot: no runs");
	p = sv_runs_placeholder(r);
	if (!p)
		return sv_error_set(err, -ENOMEM, "snapshot: no workspace");
	if (opts)
		vo = *opts;
	else
		memset(&vo, 0, sizeof vo);
	snprintf(title, sizeof title, "%zu runs", r->n);
	vo.title = title;
	vo.runs = r;
	vo.nested = false;
	vo.second = NULL;
	rc = sv_view_init(&ws, p, &vo, err);
	if (rc < 0) {
		sv_profile_free(p);
		return rc;
	}
	memset(&pr, 0, sizeof pr);
	sv_view_resize(&ws, w, h);
	sv_view_settle(&ws, -1);
	for (i = 0; i < nkeys; i++) {
		struct sv_view *v = pr.open ? &pr.v : &ws;
		int flags = sv_view_handle_key(v, keys[i]);
		if (flags & SV_REACT_QUIT)
			break;
		if (flags & SV_REACT_LEAVE)
			snap_pair_close(&pr);
		else if ((flags & SV_REACT_PAIR) && !pr.open)
			snap_pair_open(&pr, &ws, r, &vo);
		else if (flags & SV_REACT_RELOAD && !pr.open)
			sv_runs_reload(r);
		sv_view_settle(pr.open ? &pr.v : &ws, -1);
	}
	sv_view_settle(pr.open ? &pr.v : &ws, -1);
	sv_render(g, pr.open ? &pr.v : &ws);
	snap_pair_close(&pr);
	sv_view_fini(&ws);
	sv_profile_free(p);
	return 0;
}
