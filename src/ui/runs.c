/*
 * runs.c: the runs workspace (runs.h): each run read through the
 * viewer's source on a job, measured and freed at once, and the study of
 * the runs measured so far made again on the loop's thread after each.
 * The job writes only its own result fields (out, out_calls, out_err)
 * and its progress; the runs' states change on the loop's thread only,
 * in the adopt.  Nothing here knows about curses or HDF5.
 */
#include "scopeview/runs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Progress is kept in thousandths of a run. */
#define RUNS_PROGRESS 1000

static void runs_progress(void *ctx, double fraction, const char *what)
{
	struct sv_job *j = ctx;
	(void)what;
	if (fraction < 0)
		fraction = 0;
	if (fraction > 1)
		fraction = 1;
	atomic_store(&j->progress, (uint64_t)(fraction * RUNS_PROGRESS));
}

static int runs_cancelled(void *ctx)
{
	struct sv_job *j = ctx;
	return atomic_load(&j->cancel);
}

/* The error of a run as one line: what the loader said, newlines and
 * tabs made spaces (the grid would show them as escapes). */
static void runs_one_line(char *dst, size_t n, const char *msg)
{
	size_t i;

	snprintf(dst, n, "%s", msg && *msg ? msg : "cannot be read");
	for (i = 0; dst[i]; i++)
		if (dst[i] == '\n' || dst[i] == '\r' || dst[i] == '\t')
			dst[i] = ' ';
}

/* On the job's thread: read run r->next, measure it, free it. */
static void runs_job(struct sv_job *j)
{
	struct sv_runs *r = j->arg;
	const char *path = r->runs[r->next].path;
	struct sv_load_opts lo;
	struct sv_scaling_opts so;
	struct sv_profile *p = NULL;
	int rc;

	if (r->source.thread_init)
		r->source.thread_init();
	memset(&lo, 0, sizeof lo);
	lo.progress = runs_progress;
	lo.cancelled = runs_cancelled;
	lo.ctx = j;
	lo.rank_on = r->source.rank_on;
	lo.nrank_on = r->source.nrank_on;
	memset(&r->out_err, 0, sizeof r->out_err);
	rc = r->source.load(path, &lo, &p, &r->out_err);
	if (rc == 0) {
		memset(&so, 0, sizeof so);
		so.x_field = r->x_field;
		so.ranks = r->ranks;
		r->out_calls = p->ncalls;
		rc = sv_scaling_measure(&r->out, p, path, &so, &r->out_err);
		sv_profile_free(p);
	}
	if (rc < 0 && r->out_err.code == 0)
		r->out_err.code = rc;
	j->rc = rc;
	sv_job_wake();
}

/* Combine the measured runs' samples into the study. */
static void runs_combine(struct sv_runs *r)
{
	struct sv_scaling_sample *sm;
	struct sv_scaling_opts so;
	struct sv_error err;
	size_t i, k = 0;

	if (r->has_study)
		sv_scaling_fini(&r->study);
	r->has_study = false;
	r->study_error[0] = '\0';
	r->serial++;
	if (!r->measured)
		return;
	sm = sv_xcalloc(r->measured, sizeof *sm);
	for (i = 0; i < r->n; i++)
		if (r->runs[i].state == SV_RUNS_MEASURED)
			sm[k++] = r->runs[i].sample; /* borrowed */
	memset(&so, 0, sizeof so);
	so.x_field = r->x_field;
	so.ranks = r->ranks;
	memset(&err, 0, sizeof err);
	if (sv_scaling_combine(&r->study, sm, k, &so, &err) == 0)
		r->has_study = true;
	else
		runs_one_line(r->study_error, sizeof r->study_error, err.msg);
	free(sm);
}

static void runs_start_next(struct sv_runs *r);

/* On the loop's thread: the job is done; keep what it found. */
static void runs_adopt(struct sv_job *j)
{
	struct sv_runs *r = j->arg;
	struct sv_runs_run *run = &r->runs[r->next];

	if (j->rc == 0) {
		run->sample = r->out;
		memset(&r->out, 0, sizeof r->out);
		run->calls = r->out_calls;
		run->state = SV_RUNS_MEASURED;
		r->measured++;
	} else {
		runs_one_line(run->error, sizeof run->error, r->out_err.msg);
		run->state = SV_RUNS_FAILED;
		r->failed++;
	}
	runs_combine(r);
	r->next++;
	if (r->changed)
		r->changed(r->changed_ctx);
	runs_start_next(r);
}

static void runs_start_next(struct sv_runs *r)
{
	if (r->stopped || r->next >= r->n || !r->jobs)
		return;
	r->runs[r->next].state = SV_RUNS_LOADING;
	sv_jobs_start(r->jobs, &r->job, runs_job, runs_adopt, r, RUNS_PROGRESS);
}

struct sv_runs *sv_runs_new(const char *const *paths, size_t n,
	const struct sv_source *source, const char *x_field, const char *ranks)
{
	struct sv_runs *r = sv_xcalloc(1, sizeof *r);
	size_t i;

	r->runs = sv_xcalloc(n ? n : 1, sizeof *r->runs);
	r->n = n;
	for (i = 0; i < n; i++)
		r->runs[i].path = sv_xstrdup(paths[i] ? paths[i] : "");
	if (source)
		r->source = *source;
	r->source.donor = NULL;
	r->x_field = x_field ? sv_xstrdup(x_field) : NULL;
	r->ranks = ranks && *ranks ? sv_xstrdup(ranks) : NULL;
	return r;
}

void sv_runs_free(struct sv_runs *r)
{
	size_t i;

	if (!r)
		return;
	if (r->jobs)
		sv_jobs_cancel(r->jobs, &r->job);
	sv_job_cancel(&r->job);
	sv_scaling_sample_fini(&r->out);
	if (r->has_study)
		sv_scaling_fini(&r->study);
	for (i = 0; i < r->n; i++) {
		free(r->runs[i].path);
		sv_scaling_sample_fini(&r->runs[i].sample);
	}
	free(r->runs);
	free(r->x_field);
	free(r->ranks);
	free(r);
}

void sv_runs_start(struct sv_runs *r, struct sv_jobs *jobs)
{
	if (!r || !jobs || r->started || !r->source.load)
		return;
	r->started = true;
	r->stopped = false;
	r->jobs = jobs;
	runs_start_next(r); /* from the run after the last one read */
}

void sv_runs_reload(struct sv_runs *r)
{
	size_t i;

	if (!r || !r->jobs)
		return;
	sv_jobs_cancel(r->jobs, &r->job);
	sv_scaling_sample_fini(&r->out);
	for (i = 0; i < r->n; i++) {
		sv_scaling_sample_fini(&r->runs[i].sample);
		r->runs[i].state = SV_RUNS_WAITING;
		r->runs[i].error[0] = '\0';
		r->runs[i].calls = 0;
	}
	r->measured = r->failed = 0;
	r->next = 0;
	r->pair[0] = r->pair[1] = NULL;
	runs_combine(r);
	r->started = false;
	if (r->changed)
		r->changed(r->changed_ctx);
	sv_runs_start(r, r->jobs);
}

void sv_runs_stop(struct sv_runs *r)
{
	if (!r || !r->jobs)
		return;
	sv_jobs_cancel(r->jobs, &r->job);
	sv_scaling_sample_fini(&r->out);
	if (r->next < r->n && r->runs[r->next].state == SV_RUNS_LOADING)
		r->runs[r->next].state = SV_RUNS_WAITING;
	r->jobs = NULL;
	r->started = false;
	r->stopped = true;
}

bool sv_runs_busy(const struct sv_runs *r)
{
	return r && r->started && r->next < r->n;
}

int sv_runs_percent(const struct sv_runs *r)
{
	return r && sv_runs_busy(r) ? sv_job_percent(&r->job) : 0;
}

long sv_runs_find(const struct sv_runs *r, const char *path)
{
	size_t i;

	for (i = 0; r && path && i < r->n; i++)
		if (!strcmp(r->runs[i].path, path))
			return (long)i;
	return -1;
}

bool sv_runs_set_pair(struct sv_runs *r, const char *a, const char *b)
{
	long ia = sv_runs_find(r, a), ib = sv_runs_find(r, b);

	if (ia < 0 || ib < 0 || ia == ib)
		return false;
	r->pair[0] = r->runs[ia].path;
	r->pair[1] = r->runs[ib].path;
	return true;
}

struct sv_profile *sv_runs_placeholder(const struct sv_runs *r)
{
	struct sv_profile *p = sv_profile_new("");
	struct sv_error err;

	(void)r;
	memset(&err, 0, sizeof err);
	if (sv_profile_finish(p, &err) < 0) {
		sv_profile_free(p);
		return NULL;
	}
	return p;
}
