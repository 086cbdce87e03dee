/*
 * job.h: one piece of heavy work for a mode (a histogram, a sorted call
 * list over millions of calls) on a worker thread, so no key waits for
 * it.
 *
 * The owner starts a job with a function and an argument; the function
 * runs on its own thread, polls j->cancel now and then and stores its
 * progress (0 .. j->total) in j->progress.  The owner polls with
 * sv_job_poll() from the UI thread (each frame while busy) and reads the
 * results only once it said done, after which the thread has been joined.
 * sv_job_cancel() asks the function to stop and joins it: the next key
 * that changes the job's input calls it before starting another.  Nothing
 * here knows about curses or HDF5: the runner is the core layer's, for any
 * layer that has heavy work off its caller's thread.
 */
#ifndef SCOPEVIEW_JOB_H
#define SCOPEVIEW_JOB_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_CORE)
#error "scopeview/job.h belongs to the core layer, which this layer may not use"
#endif

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct sv_job {
	void (*run)(struct sv_job *j); /* on the worker thread */
	void *arg;                     /* the owner's, for run */
	atomic_bool cancel;            /* set by sv_job_cancel */
	atomic_bool done;              /* set when run returned */
	_Atomic uint64_t progress;     /* 0 .. total, stored by run */
	uint64_t total;
	int rc; /* run's result, read after done */
	/* Started with sv_jobs_start: called on the loop's thread by
	 * sv_jobs_poll once run returned, unless the job was cancelled or
	 * dropped; NULL: nothing to take in. */
	void (*adopt)(struct sv_job *j);

	/* Private. */
	pthread_t thread;
	bool started;
	bool listed;         /* on a struct sv_jobs, not yet taken in */
	struct sv_job *next; /* the next job of that list */
};

/*
 * Run run(j) on a new thread with j->arg = arg and j->total = total; j
 * must not have a job running (cancel or poll it to done first).  When no
 * thread can be made, runs it here.  Returns 0.
 */
int sv_job_start(struct sv_job *j, void (*run)(struct sv_job *), void *arg,
	uint64_t total);
/* Whether j is running (started and not yet joined). */
bool sv_job_running(const struct sv_job *j);
/* True once the job finished, and joins it (then j->rc holds its result);
 * false while it runs, and when none was started. */
bool sv_job_poll(struct sv_job *j);
/* True once the job's work is over and its results may be read: it ran
 * on the caller's thread (no thread could be made, or none was started),
 * or its thread is done and now joined (sv_job_poll).  The owner's poll
 * asks this, so a job that ran inline is taken in like any other. */
bool sv_job_finished(struct sv_job *j);
/* Ask the job to stop and wait for it; nothing when none runs.  Safe to
 * call on a zeroed struct. */
void sv_job_cancel(struct sv_job *j);
/* Progress in percent, 0 .. 100. */
int sv_job_percent(const struct sv_job *j);

/* Jobs told to stop and not waited for (a newer input replaced theirs):
 * each is joined and freed once it is done.  Zeroed: empty. */
struct sv_job_orphan;
struct sv_job_orphans {
	struct sv_job_orphan *head;
};
/* Ask j (running or not) to stop and put it on l without waiting for
 * it; free_fn(arg) frees what holds j once it is joined (sv_job_reap).
 * j must not be started again meanwhile. */
void sv_job_orphan(struct sv_job_orphans *l, struct sv_job *j,
	void (*free_fn)(void *arg), void *arg);
/* Join and free the orphans that are done; with wait, all of them,
 * waiting for those still running. */
void sv_job_reap(struct sv_job_orphans *l, bool wait);
/* Drop a job its owner no longer wants: j (NULL: none) orphaned on l as
 * sv_job_orphan(l, j, free_fn, arg) does, then l reaped as
 * sv_job_reap(l, wait).  The owner forgets j and what holds it (arg)
 * before: once reaped, arg may be freed. */
void sv_job_drop(struct sv_job_orphans *l, struct sv_job *j,
	void (*free_fn)(void *arg), void *arg, bool wait);

/*
 * The jobs of the viewer's views, taken in in one place.  The session
 * owns one (session.h's jobs): a view starts its job there with the
 * function that takes its result in (adopt), and sv_jobs_poll, which the
 * viewer's loop calls before every frame (sv_session_poll), joins each job
 * that is done and calls its adopt on the loop's thread; a job's run
 * wakes the loop when it returns (sv_job_wake), so a result is on screen
 * a frame after it is done, whatever key is pressed or not.  A cancelled
 * or dropped job is never adopted.  Views never join a thread.  Zeroed:
 * empty.
 */
struct sv_jobs {
	struct sv_job *head;           /* started, not yet taken in */
	struct sv_job_orphans orphans; /* dropped, still running */
};
/* Start j (not on a list: cancel or drop it first) as sv_job_start does,
 * on l.  When it ran here (no thread could be made), adopt is called
 * before this returns. */
void sv_jobs_start(struct sv_jobs *l, struct sv_job *j,
	void (*run)(struct sv_job *), void (*adopt)(struct sv_job *), void *arg,
	uint64_t total);
/* Stop j and wait for it; it is not adopted.  Nothing when j is not on
 * l. */
void sv_jobs_cancel(struct sv_jobs *l, struct sv_job *j);
/* Tell j (NULL: none) to stop without waiting for it (what it reads must
 * outlive it; free_fn(arg) frees what holds j once it is joined): it is
 * not adopted.  With wait, every job dropped before is waited for too. */
void sv_jobs_drop(struct sv_jobs *l, struct sv_job *j,
	void (*free_fn)(void *arg), void *arg, bool wait);
/* Take in every job of l that is done: join it and call its adopt.
 * Returns how many were. */
int sv_jobs_poll(struct sv_jobs *l);
/* Whether a job of l runs (or waits to be taken in). */
bool sv_jobs_busy(const struct sv_jobs *l);
/* Whether j is on l, started and not yet taken in. */
bool sv_jobs_running(const struct sv_job *j);
/* Cancel every job of l and wait for the dropped ones. */
void sv_jobs_fini(struct sv_jobs *l);

/* Run fn(arg) on a thread nobody waits for: freeing what is no longer
 * needed (an index of millions of calls takes tens of milliseconds to
 * give back) off the UI thread.  fn must touch nothing but arg.  When no
 * thread can be made, runs it here. */
void sv_job_detach(void (*fn)(void *arg), void *arg);
/* Run fn(arg), which gives back about bytes of memory: through
 * sv_job_detach from SV_JOB_FREE_LATER_BYTES up, here below that. */
#define SV_JOB_FREE_LATER_BYTES ((size_t)16 << 20)
void sv_job_free_later(void (*fn)(void *arg), void *arg, size_t bytes);

/* The loop's wake-up: a function any thread may call at any time (even
 * after the loop has returned) to make the loop's wait for a key end
 * now, so that a finished result is taken in at once rather than at the
 * loop's next look (sv_backend.wake).  Set by the viewer's loop while it
 * runs; NULL: none.  sv_job_wake calls it, or does nothing: a job calls
 * it when its work is done, as do the loader and the tree builder. */
void sv_job_set_wake(void (*wake)(void));
void sv_job_wake(void);

#endif
