/*
 * test_treebuild.c: call trees built off the UI thread (treebuild.h): a
 * small scope built at once, a large one in a thread that the jobs'
 * poll adopts (done told either way, a cancelled build never adopted),
 * a build cancelled by the next start or by cancel(), the session's scope
 * (rank filter, solo lane, range) and its words for the views' titles;
 * a second run's tree built on the same thread as the first's.
 */
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/session.h"
#include "scopeview/treebuild.h"
#include "viewtest.h"

static const struct vt_call calls[] = {
	{0, "main", 0, 1000, 0, -1, -1, 0},
	{0, "child", 100, 500, 0, -1, -1, 0},
	{0, "child", 600, 900, 0, -1, -1, 0},
	{1, "main", 0, 1200, 0, -1, -1, 0},
};

/* The jobs the builds run on, and how often done was called. */
static struct sv_jobs jobs;
static int dones;

static void count_done(void *owner)
{
	ck_assert_ptr_eq(owner, &jobs);
	dones++;
}

static void wait_done(struct sv_treebuild *b)
{
	int i;
	for (i = 0; i < 5000 && !sv_jobs_poll(&jobs); i++)
		usleep(1000);
	ck_assert(!sv_jobs_busy(&jobs));
	(void)b;
}

START_TEST(test_treebuild_sync_and_thread)
{
	struct sv_profile *p = vt_profile(calls, 4, VT_THREADS | VT_START);
	struct sv_session s;
	struct sv_treebuild b;
	struct sv_error err;
	char text[256];

	ck_assert_int_eq(sv_session_init(&s, p, NULL, &err), 0);
	memset(&jobs, 0, sizeof jobs);
	dones = 0;
	sv_treebuild_init(&b, &jobs, count_done, &jobs);

	/* a small scope is ready at once, and says so */
	sv_treebuild_start(&b, &s, false);
	ck_assert(b.ready);
	ck_assert(!sv_treebuild_busy(&b));
	ck_assert_int_eq(b.tree.total, 2200);
	ck_assert_int_eq(dones, 1);

	/* forced into a thread: busy until the jobs' poll takes the result
	 * in, which tells the view */
	b.sync_max = 0;
	ck_assert_int_eq(sv_session_set_ranks(&s, "1"), 0);
	sv_treebuild_start(&b, &s, false);
	ck_assert(sv_treebuild_busy(&b));
	ck_assert(sv_jobs_busy(&jobs));
	ck_assert_int_eq(b.tree.total, 2200); /* the old tree meanwhile */
	ck_assert_int_eq(dones, 1);
	wait_done(&b);
	ck_assert(!sv_treebuild_busy(&b));
	ck_assert_int_eq(dones, 2);
	ck_assert_int_eq(b.tree.total, 1200);
	ck_assert(sv_treebuild_fraction(&b) == 1.0);

	/* a range: the clipped time, and the title says the rule */
	sv_session_set_range(&s, true, 900, 100);
	ck_assert_int_eq(s.range_t0, 100);
	sv_treebuild_start(&b, &s, false);
	wait_done(&b);
	ck_assert_int_eq(b.tree.total, 800);
	sv_treebuild_scope_text(&s, text, sizeof text);
	ck_assert_msg(strstr(text, "ranks 1, range") &&
			      strstr(text, "(range: calls count with their "
					   "time inside)"),
		"%s", text);

	/* a restart or cancel stops the thread; the old tree stays, and
	 * nothing is adopted */
	dones = 0;
	sv_treebuild_start(&b, &s, true);
	sv_treebuild_start(&b, &s, false);
	sv_treebuild_cancel(&b);
	ck_assert(!sv_treebuild_busy(&b));
	ck_assert(!sv_jobs_busy(&jobs));
	ck_assert(b.cancelled);
	ck_assert_int_eq(b.tree.total, 800);
	ck_assert_int_eq(sv_jobs_poll(&jobs), 0);
	ck_assert_int_eq(dones, 0);
	sv_treebuild_progress_text(&b, text, sizeof text);
	ck_assert(strstr(text, "Esc stops"));
	sv_session_set_range(&s, false, 0, 0);
	sv_treebuild_scope_text(&s, text, sizeof text);
	ck_assert_str_eq(text, "ranks 1, whole run");

	/* fini with a build under way */
	sv_treebuild_start(&b, &s, false);
	sv_treebuild_fini(&b);
	sv_treebuild_fini(NULL);
	sv_session_fini(&s);
	sv_profile_free(p);
}
END_TEST

/* The second run: rank 0's main only, 700 ns. */
static const struct vt_call calls_b[] = {
	{0, "main", 0, 700, 0, -1, -1, 0},
};

START_TEST(test_treebuild_second_on_thread)
{
	struct sv_profile *p = vt_profile(calls, 4, VT_THREADS | VT_START);
	struct sv_profile *p2 = vt_profile(calls_b, 1, VT_THREADS | VT_START);
	struct sv_session s;
	struct sv_treebuild b;
	struct sv_error err;
	char text[256] = "";

	ck_assert_int_eq(sv_session_init(&s, p, NULL, &err), 0);
	ck_assert_int_eq(sv_session_set_second(&s, p2, "b.h5", &err), 0);
	memset(&jobs, 0, sizeof jobs);
	sv_treebuild_init(&b, &jobs, NULL, NULL);
	/* given a build forced into a thread, when it starts, then the
	 * second run's tree is not there yet: it comes with the first's */
	b.sync_max = 0;
	sv_treebuild_start(&b, &s, false);
	ck_assert(sv_treebuild_busy(&b));
	ck_assert(!b.has2);
	ck_assert_uint_eq(b.work, 5); /* both runs' calls */
	wait_done(&b);
	ck_assert(b.has2);
	ck_assert_int_eq(b.tree2.total, 700);
	ck_assert(sv_treebuild_fraction(&b) == 1.0);
	/* node 0's B figure: main 700 ns against A's 2200 */
	sv_treebuild_second_text(
		&b, b.tree.roots ? b.tree.roots[0] : 0, text, sizeof text);
	ck_assert_msg(strstr(text, "B: 700ns"), "%s", text);
	/* a cancelled build leaves no half-made second tree */
	sv_treebuild_start(&b, &s, false);
	sv_treebuild_cancel(&b);
	ck_assert(!b.has2);
	sv_treebuild_fini(&b);
	sv_session_fini(&s);
	sv_profile_free(p2);
	sv_profile_free(p);
}
END_TEST

static Suite *treebuild_suite(void)
{
	Suite *s = suite_create("treebuild");
	TCase *tc = tcase_create("builds");
	tcase_add_test(tc, test_treebuild_sync_and_thread);
	tcase_add_test(tc, test_treebuild_second_on_thread);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return svt_run(treebuild_suite());
}
