/*
 * test_job.c: work on a worker thread (job.h): it runs and reports done
 * once, progress in percent, cancellation stops a long job promptly, and
 * cancelling or polling with no job is harmless.
 */
#include <stdlib.h>
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

static Suite *suite(void)
{
	Suite *s = suite_create("job");
	TCase *t = tcase_create("job");
	tcase_add_test(t, job_runs_and_joins);
	tcase_add_test(t, job_cancel);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
