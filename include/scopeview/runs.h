/*
 * runs.h: the runs workspace, what the viewer opens on three or more
 * files (`scopeview A B C ...`): the files of a scaling study, each read
 * and measured in turn off the UI thread, and the study of those
 * measured so far (scaling.h).
 *
 * A run is read through the viewer's struct sv_source (so nothing here
 * includes HDF5), measured at once (sv_scaling_measure: its x value and
 * each region's mean duration) and freed: the workspace holds no run's
 * calls, only its figures and its file name, from which a pair of runs
 * is read again for the two-run timeline.  The reading is one job at a
 * time on the session's jobs (job.h): a run's job reads and measures it;
 * its adopt, on the loop's thread, keeps the sample, combines the study
 * again (sv_scaling_combine, cheap), tells the listener and starts the
 * next run's job.  A run that cannot be read is kept with its one-line
 * error and the others go on.  Cancelling the jobs (the view's end) stops
 * the read under way between two chunks.
 *
 * Everything but the job's own run is called on the loop's thread.
 * Nothing here knows about curses or HDF5.
 */
#ifndef SCOPEVIEW_RUNS_H
#define SCOPEVIEW_RUNS_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/runs.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/job.h"
#include "scopeview/profile.h"
#include "scopeview/scaling.h"
#include "scopeview/source.h"

enum sv_runs_state {
	SV_RUNS_WAITING,  /* not read yet */
	SV_RUNS_LOADING,  /* its job reads it */
	SV_RUNS_MEASURED, /* read and measured: sample holds its figures */
	SV_RUNS_FAILED,   /* error says why */
};

struct sv_runs_run {
	char *path; /* owned */
	enum sv_runs_state state;
	char error[512];                 /* one line, when failed */
	struct sv_scaling_sample sample; /* when measured */
	uint64_t calls;                  /* the calls it held, when measured */
};

struct sv_runs {
	struct sv_runs_run *runs; /* n, in the order given */
	size_t n;
	struct sv_source source; /* copied (its rank list borrowed) */
	char *x_field;           /* owned; NULL: num_ranks */
	char *ranks;             /* owned; NULL: every rank */
	size_t measured, failed; /* runs in each state */
	/* The study of the measured runs, in their order (has_study false
	 * while none is measured, or when combining failed: study_error).
	 * serial grows each time it is made again. */
	struct sv_scaling study;
	bool has_study;
	char study_error[512];
	unsigned serial;
	/* Called on the loop's thread after each run is measured or failed
	 * (the scaling view rebuilds its rows); NULL: none. */
	void (*changed)(void *ctx);
	void *changed_ctx;
	/* The pair chosen to compare (sv_runs_set_pair): paths into runs. */
	const char *pair[2];

	/* The reading (private). */
	struct sv_jobs *jobs;
	struct sv_job job;
	size_t next;                  /* the run the job reads */
	struct sv_scaling_sample out; /* the job's result ... */
	uint64_t out_calls;           /* ... its calls ... */
	struct sv_error out_err;      /* ... or its error */
	bool started, stopped;
};

/*
 * A new workspace of paths[0 .. n) (copied) read through source (copied;
 * its load and thread_init are used, its rank list handed to every
 * load), x measured by x_field (NULL: num_ranks) on the ranks of ranks
 * (sv_scaling_opts.ranks' form; NULL: every rank).  Nothing is read until
 * sv_runs_start.  Free with sv_runs_free (NULL-safe) after the jobs it
 * was started on are finished (the view's end).
 */
struct sv_runs *sv_runs_new(const char *const *paths, size_t n,
	const struct sv_source *source, const char *x_field, const char *ranks);
void sv_runs_free(struct sv_runs *r);

/* Start reading the runs, one job at a time on jobs (a session's, which
 * the loop polls: sv_view_poll).  Once per workspace; again after
 * sv_runs_reload. */
void sv_runs_start(struct sv_runs *r, struct sv_jobs *jobs);
/* Read every run again (R): the job under way is cancelled, every run
 * waits again, the study is dropped until the first is measured. */
void sv_runs_reload(struct sv_runs *r);
/* Stop reading (the view whose jobs read the runs ends): the job under
 * way is cancelled and the jobs forgotten; what was measured stays. */
void sv_runs_stop(struct sv_runs *r);
/* Whether a run is still to be read or being read. */
bool sv_runs_busy(const struct sv_runs *r);
/* The percentage read of the run being read (0 .. 100). */
int sv_runs_percent(const struct sv_runs *r);

/* The index in r->runs of the run with path path (as the study names
 * it), or -1. */
long sv_runs_find(const struct sv_runs *r, const char *path);

/* Choose the runs a and b (paths of the study) as the pair to open;
 * false when either is not a run of the workspace or they are the same
 * run. */
bool sv_runs_set_pair(struct sv_runs *r, const char *a, const char *b);

/* An empty, finished profile to stand for the workspace in a session
 * (it has no regions and no calls); free with sv_profile_free. */
struct sv_profile *sv_runs_placeholder(const struct sv_runs *r);

#endif
