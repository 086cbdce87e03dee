/*
 * job.c: one piece of heavy work on a worker thread (see job.h).
 */
#include "scopeview/job.h"

#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"

/* The loop's wake-up (sv_job_set_wake). */
static void (*_Atomic job_wake)(void);

void sv_job_set_wake(void (*wake)(void))
{
	atomic_store(&job_wake, wake);
}

void sv_job_wake(void)
{
	void (*wake)(void) = atomic_load(&job_wake);
	if (wake)
		wake();
}

static void *job_main(void *arg)
{
	struct sv_job *j = arg;
	j->run(j);
	atomic_store(&j->done, true);
	sv_job_wake();
	return NULL;
}

int sv_job_start(struct sv_job *j, void (*run)(struct sv_job *), void *arg,
	uint64_t total)
{
	j->run = run;
	j->arg = arg;
	j->total = total;
	j->rc = 0;
	atomic_store(&j->cancel, false);
	atomic_store(&j->done, false);
	atomic_store(&j->progress, 0);
	if (pthread_create(&j->thread, NULL, job_main, j) == 0) {
		j->started = true;
		return 0;
	}
	/* No thread: do the work now rather than not at all. */
	j->started = false;
	job_main(j);
	return 0;
}

bool sv_job_running(const struct sv_job *j)
{
	return j->started;
}

bool sv_job_poll(struct sv_job *j)
{
	if (!j->started)
		return false;
	if (!atomic_load(&j->done))
		return false;
	pthread_join(j->thread, NULL);
	j->started = false;
	return true;
}

bool sv_job_finished(struct sv_job *j)
{
	return !j->started || sv_job_poll(j);
}

void sv_job_cancel(struct sv_job *j)
{
	if (!j->started)
		return;
	atomic_store(&j->cancel, true);
	pthread_join(j->thread, NULL);
	j->started = false;
}

struct sv_job_orphan {
	struct sv_job *job;
	void (*free_fn)(void *arg);
	void *arg;
	struct sv_job_orphan *next;
};

void sv_job_orphan(struct sv_job_orphans *l, struct sv_job *j,
	void (*free_fn)(void *arg), void *arg)
{
	struct sv_job_orphan *n = sv_xmalloc(sizeof *n);

	atomic_store(&j->cancel, true);
	n->job = j;
	n->free_fn = free_fn;
	n->arg = arg;
	n->next = l->head;
	l->head = n;
}

void sv_job_reap(struct sv_job_orphans *l, bool wait)
{
	struct sv_job_orphan **pn = &l->head;

	while (*pn) {
		struct sv_job_orphan *n = *pn;
		if (wait || !sv_job_running(n->job) || sv_job_poll(n->job)) {
			*pn = n->next;
			sv_job_cancel(n->job);
			n->free_fn(n->arg);
			free(n);
		} else {
			pn = &n->next;
		}
	}
}

void sv_job_drop(struct sv_job_orphans *l, struct sv_job *j,
	void (*free_fn)(void *arg), void *arg, bool wait)
{
	if (j)
		sv_job_orphan(l, j, free_fn, arg);
	sv_job_reap(l, wait);
}

/* ---- the jobs of the views ------------------------------------------------ */

static void jobs_unlink(struct sv_jobs *l, struct sv_job *j)
{
	struct sv_job **pj;

	for (pj = &l->head; *pj; pj = &(*pj)->next)
		if (*pj == j) {
			*pj = j->next;
			break;
		}
	j->next = NULL;
	j->listed = false;
}

void sv_jobs_start(struct sv_jobs *l, struct sv_job *j,
	void (*run)(struct sv_job *), void (*adopt)(struct sv_job *), void *arg,
	uint64_t total)
{
	if (j->listed)
		sv_jobs_cancel(l, j);
	j->adopt = adopt;
	sv_job_start(j, run, arg, total);
	if (!j->started) {
		/* It ran here: taken in at once. */
		if (adopt)
			adopt(j);
		return;
	}
	j->listed = true;
	j->next = l->head;
	l->head = j;
}

void sv_jobs_cancel(struct sv_jobs *l, struct sv_job *j)
{
	if (!j || !j->listed)
		return;
	jobs_unlink(l, j);
	sv_job_cancel(j);
}

void sv_jobs_drop(struct sv_jobs *l, struct sv_job *j,
	void (*free_fn)(void *arg), void *arg, bool wait)
{
	if (j && j->listed) {
		jobs_unlink(l, j);
		sv_job_drop(&l->orphans, j, free_fn, arg, wait);
		return;
	}
	/* Not running (done and taken in, or never started): freed now. */
	if (j)
		free_fn(arg);
	sv_job_reap(&l->orphans, wait);
}

int sv_jobs_poll(struct sv_jobs *l)
{
	struct sv_job *j;
	int n = 0;

	sv_job_reap(&l->orphans, false);
	/* An adopt may start or cancel jobs: look again from the start
	 * after each. */
	for (;;) {
		for (j = l->head; j && !atomic_load(&j->done); j = j->next)
			;
		if (!j)
			return n;
		jobs_unlink(l, j);
		sv_job_poll(j);
		if (j->adopt)
			j->adopt(j);
		n++;
	}
}

bool sv_jobs_busy(const struct sv_jobs *l)
{
	return l->head != NULL;
}

bool sv_jobs_running(const struct sv_job *j)
{
	return j->listed;
}

void sv_jobs_fini(struct sv_jobs *l)
{
	while (l->head)
		sv_jobs_cancel(l, l->head);
	sv_job_reap(&l->orphans, true);
}

struct job_detached {
	void (*fn)(void *arg);
	void *arg;
};

static void *job_detached_main(void *p)
{
	struct job_detached *d = p;
	d->fn(d->arg);
	free(d);
	return NULL;
}

void sv_job_detach(void (*fn)(void *arg), void *arg)
{
	struct job_detached *d = sv_xmalloc(sizeof *d);
	pthread_attr_t attr;
	pthread_t t;
	int rc = -1;

	d->fn = fn;
	d->arg = arg;
	if (pthread_attr_init(&attr) == 0) {
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		rc = pthread_create(&t, &attr, job_detached_main, d);
		pthread_attr_destroy(&attr);
	}
	if (rc != 0)
		job_detached_main(d);
}

void sv_job_free_later(void (*fn)(void *arg), void *arg, size_t bytes)
{
	if (bytes >= SV_JOB_FREE_LATER_BYTES)
		sv_job_detach(fn, arg);
	else
		fn(arg);
}

int sv_job_percent(const struct sv_job *j)
{
	uint64_t p = atomic_load(&j->progress);
	if (!j->total)
		return 0;
	if (p >= j->total)
		return 100;
	return (int)(p * 100 / j->total);
}
