/*
 * job.c: one piece of heavy work on a worker thread (see job.h).
 */
#include "scopeview/job.h"

#include <string.h>

static void *job_main(void *arg)
{
	struct sv_job *j = arg;
	j->run(j);
	atomic_store(&j->done, true);
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

void sv_job_cancel(struct sv_job *j)
{
	if (!j->started)
		return;
	atomic_store(&j->cancel, true);
	pthread_join(j->thread, NULL);
	j->started = false;
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
