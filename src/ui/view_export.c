/*
 * view_export.c: the viewer's `:export FORMAT FILE` (view.h): the calls of
 * the lanes on display that meet the marked range, else the timeline's
 * window (the whole run before the timeline was shown), written by the
 * sink the viewer was given, which refuses the files of the runs on show
 * (by any link) and what is not a regular file, and leaves no partial
 * file (outfile.h).  An export of many calls runs on a worker (job.h)
 * with its own copy of the lanes and range, its progress on the message
 * line while keys keep working; `:export stop`, a reload and quitting
 * stop it.  Nothing here knows about curses, HDF5 or the formats.
 */
#include "scopeview/view.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/job.h"
#include "scopeview/render.h"
#include "scopeview/timeline.h"

/* One export on its worker: what it writes (copies) and how it went. */
struct view_export {
	struct sv_job job;
	struct sv_view *v; /* whose, for adopt on the loop */
	const struct sv_sink *sink;
	const struct sv_profile *p;
	char fmt[32];
	char *path;
	char *inputs[2]; /* the runs' files, which it must not write over */
	bool *lane_on;
	struct sv_export_scope sc;
	struct sv_error err;
	char done[256]; /* the message when it succeeds */
	int shown;      /* the percent last shown */
};

static void export_job(struct sv_job *j)
{
	struct view_export *x = j->arg;
	j->rc = x->sink->write(x->fmt, x->path, x->p, &x->sc,
		(const char *const *)x->inputs, 2, &x->err);
}

static void export_free(struct view_export *x)
{
	free(x->path);
	free(x->inputs[0]);
	free(x->inputs[1]);
	free(x->lane_on);
	free(x);
}

bool sv_view_export_running(const struct sv_view *v)
{
	return v->export_work != NULL;
}

void sv_view_export_stop(struct sv_view *v)
{
	if (!v->export_work)
		return;
	sv_jobs_cancel(&v->s.jobs, &v->export_work->job);
	export_free(v->export_work);
	v->export_work = NULL;
}

/* The message of a finished export x. */
static void export_say(struct sv_view *v, const struct view_export *x, int rc)
{
	if (rc < 0)
		sv_session_message(&v->s, true, "export: %s", x->err.msg);
	else
		sv_session_message(&v->s, false, "%s", x->done);
}

/* The progress line of x. */
static void export_progress(struct sv_view *v, struct view_export *x, int pct)
{
	x->shown = pct;
	sv_session_message(&v->s, false,
		"exporting %s to %s: %d%% (:export stop stops it)", x->fmt,
		x->path, pct);
}

/* The loop took the finished export in (sv_jobs_poll): say how it went. */
static void export_adopt(struct sv_job *j)
{
	struct view_export *x = j->arg;
	struct sv_view *v = x->v;

	export_say(v, x, j->rc);
	export_free(x);
	v->export_work = NULL;
}

int sv_view_export_poll(struct sv_view *v)
{
	struct view_export *x = v->export_work;
	int pct;

	if (!x)
		return 0;
	pct = sv_job_percent(&x->job);
	if (pct == x->shown && v->s.message[0])
		return 0;
	export_progress(v, x, pct);
	return SV_REACT_REDRAW;
}

/* The calls the scope's lanes hold (the work, for the progress). */
static uint64_t export_work(const struct sv_profile *p, const bool *lane_on)
{
	uint64_t n = 0;
	size_t l;

	for (l = 0; p->has_calls && l < p->nlanes; l++)
		if (!lane_on || lane_on[l])
			n += p->lanes[l].ncalls;
	return n;
}

int sv_view_export(struct sv_view *v, const char *arg)
{
	const struct sv_timeline *tl = sv_view_timeline(v);
	const struct sv_profile *p = v->s.p;
	struct view_export *x;
	char span[32];
	const char *path, *what = "the whole run";
	size_t n = strcspn(arg, " "), nl = p->has_calls ? p->nlanes : 0;
	uint64_t work;

	if (!strcmp(arg, "stop")) {
		if (!v->export_work) {
			sv_session_message(&v->s, false, "no export runs");
			return SV_REACT_REDRAW | SV_REACT_BELL;
		}
		/* Joined: it may have finished (and written) meanwhile. */
		sv_jobs_cancel(&v->s.jobs, &v->export_work->job);
		if (v->export_work->job.rc == 0)
			export_say(v, v->export_work, 0);
		else
			sv_session_message(&v->s, false,
				"export stopped (nothing written)");
		sv_view_export_stop(v);
		return SV_REACT_REDRAW;
	}
	if (v->export_work) {
		sv_session_message(&v->s, true,
			"an export is being written (:export stop stops it)");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	path = arg + n;
	while (*path == ' ')
		path++;
	if (!v->sink || !n || n >= sizeof x->fmt || !*path) {
		sv_session_message(&v->s, true,
			v->sink ? "usage: export FORMAT FILE (FORMAT: %s)"
				: "export: not available here%s",
			v->sink ? v->sink->formats : "");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	x = sv_xcalloc(1, sizeof *x);
	x->sink = v->sink;
	x->p = p;
	snprintf(x->fmt, sizeof x->fmt, "%.*s", (int)n, arg);
	x->path = sv_xstrdup(path);
	x->inputs[0] = p->path ? sv_xstrdup(p->path) : NULL;
	x->inputs[1] =
		v->s.p2 && v->s.p2->path ? sv_xstrdup(v->s.p2->path) : NULL;
	x->lane_on = sv_xmalloc((nl ? nl : 1) * sizeof *x->lane_on);
	if (nl)
		memcpy(x->lane_on, v->s.lane_on, nl * sizeof *x->lane_on);
	x->sc.lane_on = x->lane_on;
	x->shown = -1;
	span[0] = '\0';
	if (v->s.has_range || tl) {
		x->sc.has_range = true;
		x->sc.t0 = v->s.has_range ? v->s.range_t0 : tl->t0;
		x->sc.t1 = v->s.has_range ? v->s.range_t1 : tl->t1;
		what = v->s.has_range ? "the marked range"
				      : "the visible window";
		sv_render_short(x->sc.t1 - x->sc.t0, span, sizeof span);
	}
	snprintf(x->done, sizeof x->done, "%s of %s%s%s%s written to %s",
		x->fmt, what, *span ? " (" : "", span, *span ? ")" : "", path);
	work = export_work(p, x->lane_on);
	if (work < v->export_bg_calls || !p->has_calls) {
		int rc = x->sink->write(x->fmt, x->path, p, &x->sc,
			(const char *const *)x->inputs, 2, &x->err);
		export_say(v, x, rc);
		export_free(x);
		return rc < 0 ? SV_REACT_REDRAW | SV_REACT_BELL
			      : SV_REACT_REDRAW;
	}
	x->sc.cancel = &x->job.cancel;
	x->sc.progress = &x->job.progress;
	x->v = v;
	v->export_work = x;
	export_progress(v, x, 0);
	/* Taken in by the loop's poll (at once when it ran here). */
	sv_jobs_start(&v->s.jobs, &x->job, export_job, export_adopt, x, work);
	return SV_REACT_REDRAW;
}
