/*
 * test_job.c: work on a worker thread (job.h): it runs and reports done
 * once, progress in percent, cancellation stops a long job promptly,
 * orphaned and dropped jobs are freed once done, a finished job wakes
 * the loop, and cancelling or polling with no job is harmless; the views'
 * jobs (struct sv_jobs) are each adopted once, on the poll after they are
 * done, never when cancelled or dropped, and an adopt may start another.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/job.h"

static void job_count(struct sv_job *j)
{
	uint64_t *out = j->arg, i;
	for (i = 0; i < j->total; i++)
		atomic_store(&j->progress, i + 1);
	*out = j->total;
	j->rc = 7;
}

/* Runs until cancelled. */
static void job_spin(struct sv_job *j)
{
	while (!atomic_load(&j->cancel))
		usleep(100);
	j->rc = -1;
}

static atomic_int job_woken;
static void job_wake_count(void)
{
	atomic_fetch_add(&job_woken, 1);
}

START_TEST(job_wakes_the_loop)
{
	struct sv_job j = {0};
	uint64_t out = 0;

	/* given a wake-up set; when a job ends; then it has been called, and
	 * once unset nothing calls it */
	atomic_store(&job_woken, 0);
	sv_job_set_wake(job_wake_count);
	ck_assert_int_eq(sv_job_start(&j, job_count, &out, 10), 0);
	while (sv_job_running(&j) && !sv_job_poll(&j))
		usleep(100);
	ck_assert_int_eq(atomic_load(&job_woken), 1);
	sv_job_set_wake(NULL);
	ck_assert_int_eq(sv_job_start(&j, job_count, &out, 10), 0);
	while (sv_job_running(&j) && !sv_job_poll(&j))
		usleep(100);
	sv_job_wake();
	ck_assert_int_eq(atomic_load(&job_woken), 1);
}
END_TEST

START_TEST(job_runs_and_joins)
{
	struct sv_job j = {0};
	uint64_t out = 0;

	ck_assert(!sv_job_poll(&j));
	sv_job_cancel(&j);
	ck_assert_int_eq(sv_job_start(&j, job_count, &out, 1000), 0);
	while (sv_job_running(&j) && !sv_job_poll(&j))
		usleep(100);
	ck_assert(!sv_job_running(&j));
	ck_assert_uint_eq(out, 1000);
	ck_assert_int_eq(j.rc, 7);
	ck_assert_int_eq(sv_job_percent(&j), 100);
	ck_assert(!sv_job_poll(&j)); /* done once */
}
END_TEST

START_TEST(job_cancel)
{
	struct sv_job j = {0};

	ck_assert_int_eq(sv_job_start(&j, job_spin, NULL, 0), 0);
	ck_assert_int_eq(sv_job_percent(&j), 0);
	usleep(1000);
	ck_assert(!sv_job_poll(&j));
	sv_job_cancel(&j);
	ck_assert(!sv_job_running(&j));
	ck_assert_int_eq(j.rc, -1);
	sv_job_cancel(&j); /* again: nothing */
}
END_TEST

START_TEST(job_finished)
{
	struct sv_job j = {0};
	uint64_t out = 0;

	/* given no job: finished (nothing to wait for) */
	ck_assert(sv_job_finished(&j));
	/* given one running until cancelled: not finished, and still
	 * running after the question */
	ck_assert_int_eq(sv_job_start(&j, job_spin, NULL, 0), 0);
	usleep(1000);
	ck_assert(!sv_job_finished(&j));
	ck_assert(sv_job_running(&j));
	sv_job_cancel(&j);
	/* given one that ends by itself: finished once done, joined, and
	 * its result readable */
	ck_assert_int_eq(sv_job_start(&j, job_count, &out, 100), 0);
	while (!sv_job_finished(&j))
		usleep(100);
	ck_assert(!sv_job_running(&j));
	ck_assert_uint_eq(out, 100);
	ck_assert_int_eq(j.rc, 7);
}
END_TEST

static void job_free_flag(void *arg)
{
	atomic_int *flag = arg;
	int *box = malloc(sizeof *box);
	free(box);
	atomic_store(flag, 1);
}

/* A detached function runs (on its own thread) without anyone joining
 * it. */
START_TEST(job_detach)
{
	static atomic_int flag;
	int waited;

	atomic_store(&flag, 0);
	sv_job_detach(job_free_flag, &flag);
	for (waited = 0; !atomic_load(&flag) && waited < 5000; waited++)
		usleep(1000);
	ck_assert_int_eq(atomic_load(&flag), 1);
}
END_TEST

static pthread_t job_ran_on;

static void job_free_where(void *arg)
{
	job_ran_on = pthread_self();
	atomic_store((atomic_int *)arg, 1);
}

/* What gives back a little memory is run here and now; from
 * SV_JOB_FREE_LATER_BYTES up, on a thread of its own. */
START_TEST(job_free_later)
{
	static atomic_int flag;
	int waited;

	atomic_store(&flag, 0);
	sv_job_free_later(job_free_where, &flag, SV_JOB_FREE_LATER_BYTES - 1);
	ck_assert_int_eq(atomic_load(&flag), 1);
	ck_assert(pthread_equal(job_ran_on, pthread_self()));
	atomic_store(&flag, 0);
	sv_job_free_later(job_free_where, &flag, SV_JOB_FREE_LATER_BYTES);
	for (waited = 0; !atomic_load(&flag) && waited < 5000; waited++)
		usleep(1000);
	ck_assert_int_eq(atomic_load(&flag), 1);
	ck_assert(!pthread_equal(job_ran_on, pthread_self()));
}
END_TEST

static void job_orphan_free(void *arg)
{
	int *freed = arg;
	(*freed)++;
}

/* An orphaned job is told to stop at once and freed by a reap once it
 * is done; a waiting reap frees every one. */
START_TEST(job_orphans)
{
	struct sv_job a = {0}, b = {0};
	struct sv_job_orphans l = {0};
	int freed = 0, waited;

	ck_assert_int_eq(sv_job_start(&a, job_spin, NULL, 0), 0);
	ck_assert_int_eq(sv_job_start(&b, job_spin, NULL, 0), 0);
	sv_job_orphan(&l, &a, job_orphan_free, &freed);
	ck_assert(atomic_load(&a.cancel));
	for (waited = 0; freed == 0 && waited < 5000; waited++) {
		sv_job_reap(&l, false);
		usleep(1000);
	}
	ck_assert_int_eq(freed, 1);
	ck_assert_ptr_null(l.head);
	ck_assert(!sv_job_running(&a));
	ck_assert_int_eq(a.rc, -1);
	sv_job_orphan(&l, &b, job_orphan_free, &freed);
	sv_job_reap(&l, true);
	ck_assert_int_eq(freed, 2);
	ck_assert_ptr_null(l.head);
	sv_job_reap(&l, true); /* empty: nothing */
}
END_TEST

/* Dropping tells the job given to stop, without waiting for it, and
 * reaps: with wait every orphan is freed; with no job it only reaps. */
START_TEST(job_drop)
{
	struct sv_job a = {0}, b = {0};
	struct sv_job_orphans l = {0};
	int freed = 0;

	ck_assert_int_eq(sv_job_start(&a, job_spin, NULL, 0), 0);
	ck_assert_int_eq(sv_job_start(&b, job_spin, NULL, 0), 0);
	sv_job_drop(&l, NULL, job_orphan_free, &freed, false); /* nothing */
	ck_assert_ptr_null(l.head);
	ck_assert_int_eq(freed, 0);
	sv_job_drop(&l, &a, job_orphan_free, &freed, false);
	ck_assert(atomic_load(&a.cancel));
	ck_assert(!atomic_load(&b.cancel));
	sv_job_drop(&l, &b, job_orphan_free, &freed, true);
	ck_assert_int_eq(freed, 2);
	ck_assert_ptr_null(l.head);
	ck_assert(!sv_job_running(&a));
	ck_assert(!sv_job_running(&b));
	ck_assert_int_eq(a.rc, -1);
	ck_assert_int_eq(b.rc, -1);
	sv_job_drop(&l, NULL, job_orphan_free, &freed, true);
	ck_assert_int_eq(freed, 2);
}
END_TEST

/* ---- the views' jobs ------------------------------------------------------ */

static int adopted;
static atomic_int freed;
static struct sv_jobs *adopt_jobs;

static void jobs_free(void *arg)
{
	free(arg);
	atomic_fetch_add(&freed, 1);
}
static struct sv_job adopt_next;
static uint64_t adopt_out;

static void job_adopt(struct sv_job *j)
{
	ck_assert_int_eq(j->rc, 7);
	ck_assert(!sv_jobs_running(j));
	adopted++;
}

/* An adopt that starts another job (a view that builds again). */
static void job_adopt_chain(struct sv_job *j)
{
	(void)j;
	adopted++;
	sv_jobs_start(
		adopt_jobs, &adopt_next, job_count, job_adopt, &adopt_out, 3);
}

static void jobs_wait(struct sv_jobs *l)
{
	int spins;
	for (spins = 0; sv_jobs_busy(l) && spins < 100000; spins++) {
		sv_jobs_poll(l);
		usleep(100);
	}
	ck_assert(!sv_jobs_busy(l));
}

START_TEST(jobs_adopt_once)
{
	struct sv_jobs l = {0};
	struct sv_job a = {0}, b = {0};
	uint64_t oa = 0, ob = 0;

	adopted = 0;
	/* given two jobs on the list, when they are done, then each is
	 * taken in once, by a poll, on this thread */
	sv_jobs_start(&l, &a, job_count, job_adopt, &oa, 100);
	sv_jobs_start(&l, &b, job_count, job_adopt, &ob, 200);
	ck_assert(sv_jobs_busy(&l));
	jobs_wait(&l);
	ck_assert_int_eq(adopted, 2);
	ck_assert_uint_eq(oa, 100);
	ck_assert_uint_eq(ob, 200);
	ck_assert_int_eq(sv_jobs_poll(&l), 0);
	ck_assert_int_eq(adopted, 2);
	/* the same job started again is taken in again */
	sv_jobs_start(&l, &a, job_count, job_adopt, &oa, 5);
	jobs_wait(&l);
	ck_assert_int_eq(adopted, 3);
	sv_jobs_fini(&l);
}
END_TEST

START_TEST(jobs_cancel_drop)
{
	struct sv_jobs l = {0};
	struct sv_job *d = calloc(1, sizeof *d);
	struct sv_job a = {0};

	adopted = 0;
	/* a cancelled job is stopped, waited for and never taken in */
	sv_jobs_start(&l, &a, job_spin, job_adopt, NULL, 0);
	ck_assert(sv_jobs_running(&a));
	sv_jobs_cancel(&l, &a);
	ck_assert(!sv_jobs_running(&a));
	ck_assert(!sv_jobs_busy(&l));
	ck_assert_int_eq(sv_jobs_poll(&l), 0);
	/* starting a job again while it runs cancels the one under way */
	sv_jobs_start(&l, &a, job_spin, job_adopt, NULL, 0);
	sv_jobs_start(&l, &a, job_spin, job_adopt, NULL, 0);
	ck_assert(sv_jobs_busy(&l));
	sv_jobs_cancel(&l, &a);
	/* a dropped job is not waited for, not taken in, and freed once
	 * it stops */
	ck_assert_ptr_nonnull(d);
	atomic_store(&freed, 0);
	sv_jobs_start(&l, d, job_spin, job_adopt, NULL, 0);
	sv_jobs_drop(&l, d, jobs_free, d, false);
	ck_assert(!sv_jobs_busy(&l));
	while (l.orphans.head) {
		sv_jobs_poll(&l);
		usleep(100);
	}
	ck_assert_int_eq(freed, 1);
	ck_assert_int_eq(adopted, 0);
	/* dropping a job that is not running frees it at once */
	d = calloc(1, sizeof *d);
	sv_jobs_drop(&l, d, jobs_free, d, false);
	ck_assert_int_eq(freed, 2);
	sv_jobs_drop(&l, NULL, jobs_free, NULL, true);
	ck_assert_int_eq(freed, 2);
	sv_jobs_cancel(&l, NULL);
	sv_jobs_fini(&l);
}
END_TEST

START_TEST(jobs_adopt_starts_another)
{
	struct sv_jobs l = {0};
	struct sv_job a = {0};
	uint64_t oa = 0;

	adopted = 0;
	adopt_jobs = &l;
	memset(&adopt_next, 0, sizeof adopt_next);
	sv_jobs_start(&l, &a, job_count, job_adopt_chain, &oa, 10);
	jobs_wait(&l);
	ck_assert_int_eq(adopted, 2);
	ck_assert_uint_eq(adopt_out, 3);
	/* fini with a job running: cancelled, not taken in */
	sv_jobs_start(&l, &a, job_spin, job_adopt, NULL, 0);
	sv_jobs_fini(&l);
	ck_assert(!sv_jobs_busy(&l));
	ck_assert_int_eq(adopted, 2);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("job");
	TCase *t = tcase_create("job");
	tcase_add_test(t, job_runs_and_joins);
	tcase_add_test(t, job_cancel);
	tcase_add_test(t, job_finished);
	tcase_add_test(t, job_detach);
	tcase_add_test(t, job_free_later);
	tcase_add_test(t, job_orphans);
	tcase_add_test(t, job_drop);
	tcase_add_test(t, job_wakes_the_loop);
	tcase_add_test(t, jobs_adopt_once);
	tcase_add_test(t, jobs_cancel_drop);
	tcase_add_test(t, jobs_adopt_starts_another);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
