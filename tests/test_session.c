/*
 * test_session.c: the state every view shares (session.h) keeps its
 * derived parts in step: the lanes hidden by the solo lane and the ranks,
 * the region filter and its index, the statistics of the lanes shown, the
 * search and marked-region lists, the selection; and every change is told
 * to the notify hook once, with the right bits.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/callmeta.h"
#include "scopeview/load.h"
#include "scopeview/profile.h"
#include "scopeview/session.h"
#include "viewtest.h"

/* rank 0: MainThread main [0,1000) > child [100,500) > grandchild
 * [200,300), child [600,900); worker-1 work [50,400); a task lane with
 * fetch [100,800); rank 1: MainThread main [0,1200). */
static const struct vt_call calls[] = {
	{0, "main", 0, 1000, 0, -1, -1, 0},
	{0, "child", 100, 500, 0, -1, -1, 0},
	{0, "grandchild", 200, 300, 0, -1, -1, 0},
	{0, "child", 600, 900, 0, -1, -1, 0},
	{0, "work", 50, 400, 1, -1, -1, 0},
	{0, "fetch", 100, 800, 0, 0, -1, 300},
	{1, "main", 0, 1200, 0, -1, -1, 0},
};
#define NCALLS (sizeof calls / sizeof calls[0])
#define FLAGS  (VT_THREADS | VT_TASKS | VT_START)

static struct sv_profile *prof;
static struct sv_session s;

/* What the notify hook heard: how often, the last bits, all bits. */
static struct {
	int n;
	unsigned last, all;
} heard;

static void count_notify(void *ctx, unsigned what)
{
	ck_assert_ptr_eq(ctx, &heard);
	heard.n++;
	heard.last = what;
	heard.all |= what;
}

static void hear_nothing(void)
{
	memset(&heard, 0, sizeof heard);
}

static void setup(void)
{
	struct sv_error err;
	prof = vt_profile(calls, NCALLS, FLAGS);
	ck_assert_int_eq(sv_session_init(&s, prof, NULL, &err), 0);
	s.notify = count_notify;
	s.notify_ctx = &heard;
	hear_nothing();
}

static void teardown(void)
{
	sv_session_fini(&s);
	sv_profile_free(prof);
}

/* The lane of rank's thread 0 (task -1), or of its task when task >= 0. */
static size_t lane_of(const struct sv_profile *p, uint32_t rank, int64_t task)
{
	size_t l;
	for (l = 0; l < p->nlanes; l++)
		if (p->lanes[l].rank == rank && p->lanes[l].task == task &&
			(task >= 0 || p->lanes[l].thread == 0))
			return l;
	ck_abort_msg("no lane for rank %u task %lld", rank, (long long)task);
	return 0;
}

/* The call of region name starting at start. */
static uint32_t call_of(
	const struct sv_profile *p, const char *name, int64_t start)
{
	uint32_t c;
	for (c = 0; c < p->ncalls; c++)
		if (!strcmp(p->regions[sv_call_region(p, c)], name) &&
			p->start_ns[c] == start)
			return c;
	ck_abort_msg("no call %s at %lld", name, (long long)start);
	return SV_NO_CALL;
}

/* The statistics row of region name, or NULL. */
static const struct sv_stats_region *stats_of(const char *name)
{
	size_t i;
	ck_assert(sv_session_stats(&s));
	for (i = 0; i < sv_session_stats(&s)->nregions; i++)
		if (!strcmp(sv_session_stats(&s)->regions[i].name, name))
			return &sv_session_stats(&s)->regions[i];
	return NULL;
}

static uint32_t region(const char *name)
{
	int64_t r = sv_profile_find_region(s.p, name);
	ck_assert_int_ge(r, 0);
	return (uint32_t)r;
}

/* ---- set-up ---------------------------------------------------------- */

/* The end of the second run's extent in the first run's times. */
static int64_t run2_t1_of(const struct sv_session *ss)
{
	int64_t t0, t1;
	sv_session_run2_extent(ss, &t0, &t1);
	return t1;
}

START_TEST(test_init_whole_run)
{
	size_t l;

	/* given a fresh session: nothing selected, every lane shown, the
	 * whole run's statistics */
	ck_assert_uint_eq(s.sel, SV_NO_CALL);
	ck_assert_int_eq(s.mark_region, -1);
	ck_assert_int_eq(s.solo_lane, -1);
	ck_assert_ptr_null(s.rank_on);
	ck_assert_ptr_null(sv_session_region_keep(&s));
	ck_assert_int_eq(s.run_t0, 0);
	ck_assert_int_eq(s.run_t1, 1200);
	ck_assert_str_eq(s.title, "test.h5");
	for (l = 0; l < prof->nlanes; l++) {
		ck_assert(!s.lane_hidden[l]);
		ck_assert(s.lane_on[l]);
	}
	ck_assert(sv_session_stats_is_all(&s));
	ck_assert_uint_eq(sv_session_stats(&s)->nregions, 5);
	ck_assert_uint_eq(sv_session_index(&s)->ncalls, NCALLS);
	ck_assert_int_eq(stats_of("main")->s.total_ns, 2200);
}
END_TEST

START_TEST(test_init_degenerate)
{
	struct sv_session t;
	struct sv_error err = {0};
	struct sv_profile *empty = vt_profile(NULL, 0, 0);
	struct sv_session_opts o = {
		.ascii = true, .no_mouse = true, .title = "run A"};

	/* given no profile, then no session: -EINVAL with a reason */
	ck_assert_int_eq(sv_session_init(&t, NULL, NULL, &err), -EINVAL);
	ck_assert_str_ne(err.msg, "");
	err.msg[0] = '\0';
	ck_assert_int_eq(sv_session_init(NULL, prof, NULL, &err), -EINVAL);
	ck_assert_str_ne(err.msg, "");

	/* given an empty profile: a session with an empty table, a run of
	 * some width, and searches that find nothing */
	ck_assert_int_eq(sv_session_init(&t, empty, &o, &err), 0);
	ck_assert(t.opts.ascii && t.opts.no_mouse);
	ck_assert_str_eq(t.title, "run A");
	ck_assert(t.run_t1 > t.run_t0);
	ck_assert(sv_session_stats(&t));
	ck_assert_uint_eq(sv_session_stats(&t)->nregions, 0);
	ck_assert_uint_eq(sv_session_index(&t)->ncalls, 0);
	ck_assert_int_eq(sv_session_set_search(&t, "x", &err), 0);
	ck_assert_uint_eq(sv_session_nmatches(&t), 0);
	ck_assert_int_eq(sv_session_set_filter(&t, "x"), 0);
	ck_assert_int_eq(sv_session_set_ranks(&t, "0"), 0);
	sv_session_mark_region(&t, -1);
	ck_assert_uint_eq(sv_session_nmarked(&t), 0);
	ck_assert(!sv_session_is_match(&t, 0));
	ck_assert(!sv_session_has_match(&t, 0, 0, 0, 1000));

	/* when finished twice and on NULL: nothing breaks */
	sv_session_fini(&t);
	ck_assert_ptr_null(t.p);
	sv_session_fini(&t);
	sv_session_fini(NULL);
	sv_profile_free(empty);
}
END_TEST

/* ---- lanes ----------------------------------------------------------- */

START_TEST(test_solo_and_back)
{
	size_t r1 = lane_of(prof, 1, -1), l;

	/* when rank 1's lane is soloed */
	sv_session_solo(&s, (long)r1);

	/* then it is the only lane on, and the statistics are its own */
	for (l = 0; l < prof->nlanes; l++) {
		ck_assert(s.lane_hidden[l] == (l != r1));
		ck_assert(s.lane_on[l] == (l == r1));
		ck_assert(sv_session_lane_shown(&s, l) == (l == r1));
	}
	ck_assert(!sv_session_stats_is_all(&s));
	ck_assert_uint_eq(sv_session_stats(&s)->nregions, 1);
	ck_assert_str_eq(sv_session_stats(&s)->regions[0].name, "main");
	ck_assert_uint_eq(sv_session_stats(&s)->regions[0].s.num_calls, 1);
	ck_assert_int_eq(sv_session_stats(&s)->regions[0].s.total_ns, 1200);
	ck_assert_int_eq(heard.n, 1);
	ck_assert_uint_eq(heard.last, SV_SESSION_LANES);
	/* and the whole run's table is kept aside for the way back */
	ck_assert(sv_session_stats_all(&s));
	ck_assert_uint_eq(sv_session_stats_all(&s)->nregions, 5);

	/* when un-soloed: every lane again, and the whole run's table is
	 * the one kept aside (taken back, not computed again) */
	sv_session_solo(&s, -1);
	for (l = 0; l < prof->nlanes; l++)
		ck_assert(!s.lane_hidden[l] && s.lane_on[l]);
	ck_assert(sv_session_stats_is_all(&s));
	ck_assert(!sv_session_stats_all(&s));
	ck_assert_uint_eq(sv_session_stats(&s)->nregions, 5);
	ck_assert_int_eq(stats_of("main")->s.total_ns, 2200);
	ck_assert_int_eq(heard.n, 2);
}
END_TEST

/* A rank list, what it returns, and whether rank 0's and rank 1's lanes
 * are then shown. */
static const struct {
	const char *spec;
	int rc;
	bool r0, r1;
	const char *rank_spec;
} ranks[] = {
	{"0", 0, true, false, "0"},
	{"1", 0, false, true, "1"},
	{"0-1", 0, true, true, "0-1"},
	{"5", 0, false, false, "5"},
	{"all", 0, true, true, ""},
	{"", 0, true, true, ""},
	{"x-", -EINVAL, true, true, ""},
	{"3-1", -EINVAL, true, true, ""},
};

START_TEST(test_ranks)
{
	size_t r0 = lane_of(prof, 0, -1), r1 = lane_of(prof, 1, -1);
	int rc;

	/* when the rank list is set */
	rc = sv_session_set_ranks(&s, ranks[_i].spec);

	/* then the lanes follow it, or nothing changes and the message
	 * says why */
	ck_assert_int_eq(rc, ranks[_i].rc);
	ck_assert(!s.lane_hidden[r0] == ranks[_i].r0);
	ck_assert(!s.lane_hidden[r1] == ranks[_i].r1);
	ck_assert_str_eq(s.rank_spec, ranks[_i].rank_spec);
	ck_assert(s.message_is_error == (rc < 0));
	ck_assert_str_ne(s.message, "");
	ck_assert_int_eq(heard.n, rc < 0 ? 0 : 1);
	if (rc == 0) {
		ck_assert_uint_eq(heard.last, SV_SESSION_LANES);
		ck_assert(sv_session_stats_is_all(&s) ==
			  (ranks[_i].rank_spec[0] == '\0'));
	}
}
END_TEST

START_TEST(test_ranks_bad_keeps_previous)
{
	size_t r1 = lane_of(prof, 1, -1);

	/* given rank 0 only */
	ck_assert_int_eq(sv_session_set_ranks(&s, "0"), 0);
	ck_assert(s.lane_hidden[r1]);
	/* when a bad list is entered */
	ck_assert_int_eq(sv_session_set_ranks(&s, "x-"), -EINVAL);
	/* then rank 0 only is still in force */
	ck_assert(s.lane_hidden[r1]);
	ck_assert_str_eq(s.rank_spec, "0");
	ck_assert_ptr_nonnull(s.rank_on);
	ck_assert(s.message_is_error);
}
END_TEST

START_TEST(test_hidden_lane_drops_selection)
{
	uint32_t c0 = call_of(prof, "child", 600), c1;

	/* given a call of rank 0 selected: hiding rank 1 keeps it */
	for (c1 = 0; sv_call_duration(prof, c1) != 1200; c1++)
		;
	ck_assert_uint_eq(prof->lanes[sv_call_lane(prof, c1)].rank, 1);
	sv_session_select(&s, 0, c0);
	ck_assert_int_eq(sv_session_set_ranks(&s, "0"), 0);
	ck_assert_uint_eq(s.sel, c0);

	/* given a call of rank 1 selected: hiding its lane drops it */
	ck_assert_int_eq(sv_session_set_ranks(&s, ""), 0);
	sv_session_select(&s, 0, c1);
	sv_session_solo(&s, (long)sv_call_lane(prof, c0));
	ck_assert_uint_eq(s.sel, SV_NO_CALL);

	/* and a filter that drops the selected call's region drops it */
	sv_session_solo(&s, -1);
	sv_session_select(&s, 0, c0);
	ck_assert_int_eq(sv_session_set_filter(&s, "main"), 0);
	ck_assert_uint_eq(s.sel, SV_NO_CALL);
}
END_TEST

/* ---- the region filter ----------------------------------------------- */

/* A filter, the regions it keeps (by name, space-separated, in region
 * order), and the calls the index then holds. */
static const struct {
	const char *spec;
	const char *kept;
	uint64_t ncalls;
} filters[] = {
	{"ch", "child", 2},
	{"child grand", "child grandchild", 3},
	{"!ch", "main grandchild work fetch", 5},
	{"main !ma", "", 0},
	{".*d !gr", "child", 2},
	{"  ", "main child grandchild work fetch", NCALLS},
	{"", "main child grandchild work fetch", NCALLS},
};

/* The first call of region r. */
static uint32_t first_call(const struct sv_profile *p, uint32_t r)
{
	uint32_t c;
	for (c = 0; c < p->ncalls; c++)
		if (sv_call_region(p, c) == r)
			return c;
	ck_abort_msg("no call of region %u", r);
	return SV_NO_CALL;
}

START_TEST(test_filter)
{
	char kept[128] = "";
	size_t nkept = 0;
	uint32_t r;

	/* when the filter is set */
	ck_assert_int_eq(sv_session_set_filter(&s, filters[_i].spec), 0);

	/* then region_keep, the index and the statistics follow it */
	for (r = 0; r < prof->nregions; r++) {
		bool keep = !sv_session_region_keep(&s) ||
			    sv_session_region_keep(&s)[r];
		ck_assert(sv_session_keeps(&s, first_call(prof, r)) == keep);
		if (!keep)
			continue;
		nkept++;
		snprintf(kept + strlen(kept), sizeof kept - strlen(kept),
			"%s%s", kept[0] ? " " : "", prof->regions[r]);
	}
	ck_assert_str_eq(kept, filters[_i].kept);
	ck_assert_uint_eq(sv_session_index(&s)->ncalls, filters[_i].ncalls);
	ck_assert_uint_eq(sv_session_stats(&s)->nregions, nkept);
	ck_assert(sv_session_stats_is_all(&s) ==
		  (nkept == prof->nregions && !sv_session_region_keep(&s)));
	ck_assert_str_eq(sv_session_filter_spec(&s), filters[_i].spec);
	ck_assert_int_eq(heard.n, 1);
	ck_assert_uint_eq(heard.last, SV_SESSION_FILTER | SV_SESSION_LANES);
	ck_assert(!s.message_is_error);
}
END_TEST

START_TEST(test_filter_bad_regex)
{
	/* given a filter in force */
	ck_assert_int_eq(sv_session_set_filter(&s, "ch"), 0);
	hear_nothing();
	/* when a pattern does not compile */
	ck_assert_int_eq(sv_session_set_filter(&s, "main ("), -EINVAL);
	/* then the old filter stays, the message says why, nobody is told */
	ck_assert_str_eq(sv_session_filter_spec(&s), "ch");
	ck_assert_uint_eq(sv_session_index(&s)->ncalls, 2);
	ck_assert(s.message_is_error);
	ck_assert_str_ne(s.message, "");
	ck_assert_int_eq(heard.n, 0);
}
END_TEST

/* Wait (up to 10 s) until nothing runs on a worker, polling as the
 * viewer's loop does; how many polls said the screen changed. */
static int wait_idle(struct sv_session *ss)
{
	int guard, changed = 0;
	for (guard = 0; sv_session_busy(ss) && guard < 10000; guard++) {
		changed += sv_session_poll(ss);
		usleep(1000);
	}
	ck_assert(!sv_session_busy(ss));
	return changed;
}

/* From bg_calls calls the filter is made on a worker: the filter in
 * force (its regions, index, statistics and the selection) stays until
 * poll takes the new one in, the message line says it is coming, a bad
 * pattern is still an error at once, a newer filter stops the one being
 * made, going back to the filter in force only stops it, and clearing
 * is made the same way.  Each result is announced once. */
START_TEST(test_filter_background)
{
	uint32_t c600 = call_of(prof, "child", 600);
	size_t all = sv_session_index(&s)->ncalls;

	s.bg_calls = 1;
	sv_session_select(&s, 0, c600);
	hear_nothing(); /* the selection's own notice */
	ck_assert_int_eq(sv_session_set_filter(&s, "ch"), 0);
	/* pending: nothing changed yet */
	ck_assert(sv_session_filter_pending(&s));
	ck_assert(sv_session_busy(&s));
	ck_assert_str_eq(sv_session_filter_spec(&s), "");
	ck_assert_str_eq(sv_session_filter_text(&s), "ch");
	ck_assert_ptr_null(sv_session_region_keep(&s));
	ck_assert_uint_eq(sv_session_index(&s)->ncalls, all);
	ck_assert(sv_session_stats_is_all(&s));
	ck_assert_ptr_nonnull(strstr(s.message, "filtering 'ch'"));
	ck_assert_int_eq(heard.n, 0);
	/* a bad pattern: an error now, the filter being made goes on */
	ck_assert_int_eq(sv_session_set_filter(&s, "ma ("), -EINVAL);
	ck_assert(sv_session_filter_pending(&s));
	ck_assert_str_eq(sv_session_filter_text(&s), "ch");
	/* a newer filter stops it: only the last is taken in */
	ck_assert_int_eq(sv_session_set_filter(&s, "ma"), 0);
	ck_assert_str_eq(sv_session_filter_text(&s), "ma");
	ck_assert_uint_eq(s.sel, c600);
	ck_assert_int_ge(wait_idle(&s), 1);
	ck_assert(!sv_session_filter_pending(&s));
	ck_assert_str_eq(sv_session_filter_spec(&s), "ma");
	ck_assert_str_eq(s.message, "filter set");
	ck_assert(sv_session_region_keep(&s)[region("main")]);
	ck_assert(!sv_session_region_keep(&s)[region("child")]);
	ck_assert_uint_eq(
		sv_session_index(&s)->ncalls, 2); /* main on both ranks */
	ck_assert(!sv_session_stats_is_all(&s));
	ck_assert_ptr_nonnull(stats_of("main"));
	ck_assert_ptr_null(stats_of("child"));
	ck_assert_uint_eq(s.sel, SV_NO_CALL); /* child is filtered out */
	/* told once, the selection's change with the filter's */
	ck_assert_int_eq(heard.n, 1);
	ck_assert_uint_eq(heard.last,
		SV_SESSION_FILTER | SV_SESSION_LANES | SV_SESSION_SELECT);
	/* back to the filter in force while another is made */
	ck_assert_int_eq(sv_session_set_filter(&s, "ch"), 0);
	ck_assert(sv_session_filter_pending(&s));
	ck_assert_int_eq(sv_session_set_filter(&s, "ma"), 0);
	ck_assert(!sv_session_filter_pending(&s));
	ck_assert(!sv_session_busy(&s));
	ck_assert_str_eq(sv_session_filter_spec(&s), "ma");
	ck_assert_uint_eq(sv_session_index(&s)->ncalls, 2);
	ck_assert_int_eq(heard.n, 1);
	/* cleared on the worker too */
	ck_assert_int_eq(sv_session_set_filter(&s, ""), 0);
	ck_assert(sv_session_filter_pending(&s));
	ck_assert_ptr_nonnull(strstr(s.message, "clearing the filter"));
	ck_assert_ptr_nonnull(sv_session_region_keep(&s));
	wait_idle(&s);
	ck_assert_ptr_null(sv_session_region_keep(&s));
	ck_assert_str_eq(sv_session_filter_spec(&s), "");
	ck_assert_str_eq(s.message, "filter cleared");
	ck_assert_uint_eq(sv_session_index(&s)->ncalls, all);
	ck_assert(sv_session_stats_is_all(&s));
	ck_assert_int_eq(heard.n, 2);
}
END_TEST

/* A new profile while a filter is being made applies the one typed
 * last, on a worker as the profile is big (bg_calls 1): the reload does
 * not wait for it; freeing the session stops a worker still running. */
START_TEST(test_filter_background_reload)
{
	struct sv_profile *p2 = vt_profile(calls, NCALLS, FLAGS);
	struct sv_error err;

	s.bg_calls = 1;
	ck_assert_int_eq(sv_session_set_filter(&s, "gr"), 0);
	ck_assert(sv_session_filter_pending(&s));
	ck_assert_int_eq(sv_session_set_profile(&s, p2, &err), 0);
	ck_assert(sv_session_filter_pending(&s));
	ck_assert_str_eq(sv_session_filter_text(&s), "gr");
	wait_idle(&s);
	ck_assert(!sv_session_filter_pending(&s));
	ck_assert_str_eq(sv_session_filter_spec(&s), "gr");
	ck_assert_uint_eq(sv_session_index(&s)->ncalls, 1);
	/* a second run while one is being made: made again for both runs */
	ck_assert_int_eq(sv_session_set_filter(&s, "ma"), 0);
	ck_assert(sv_session_filter_pending(&s));
	ck_assert_int_eq(sv_session_set_second(&s, prof, "b", &err), 0);
	ck_assert(sv_session_filter_pending(&s));
	ck_assert_str_eq(sv_session_filter_text(&s), "ma");
	wait_idle(&s);
	ck_assert_str_eq(sv_session_filter_spec(&s), "ma");
	ck_assert_uint_eq(sv_session_index(&s)->ncalls, 2);
	ck_assert(sv_session_index2(&s));
	ck_assert_uint_eq(
		sv_session_index2(&s)->ncalls, 2); /* main on both ranks of B */
	/* freeing the session stops a worker still running */
	ck_assert_int_eq(sv_session_set_filter(&s, "ch"), 0);
	ck_assert(sv_session_filter_pending(&s));
	sv_session_fini(&s);
	sv_profile_free(prof);
	prof = p2;
	ck_assert_int_eq(sv_session_init(&s, prof, NULL, &err), 0);
}
END_TEST

/* ---- the search and the marked region -------------------------------- */

/* Tag the two child calls (c100 starts at 100, c600 at 600, one row)
 * phase=steady and phase=warm. */
static void tag_children(uint32_t c100, uint32_t c600)
{
	const struct sv_row *row = &prof->rows[sv_profile_row_of(prof, c100)];
	char why[64];

	ck_assert_uint_eq(row->count, 2);
	ck_assert_int_eq(sv_callmeta_set_row(prof, row->first, 2,
				 c100 < c600 ? "[{\"phase\": \"steady\"}, "
					       "{\"phase\": \"warm\"}]"
					     : "[{\"phase\": \"warm\"}, "
					       "{\"phase\": \"steady\"}]",
				 why, sizeof why),
		0);
}

/* "key=value" and "key~regex" match calls by their event metadata
 * (callmeta.h), as well as region names. */
START_TEST(test_search_metadata)
{
	struct sv_error err = {0};
	uint32_t c100 = call_of(prof, "child", 100);
	uint32_t c600 = call_of(prof, "child", 600);

	/* given the two child calls tagged phase=steady and phase=warm */
	tag_children(c100, c600);
	/* when searching phase=steady: the one call, highlighted */
	ck_assert_int_eq(sv_session_set_search(&s, "phase=steady", &err), 0);
	ck_assert_uint_eq(sv_session_nmatches(&s), 1);
	ck_assert_uint_eq(sv_session_match_at(&s, 0), c100);
	ck_assert(sv_session_is_match(&s, c100));
	ck_assert(!sv_session_is_match(&s, c600));
	ck_assert(sv_session_has_match(&s, sv_call_lane(prof, c100),
		sv_profile_depth(prof, c100), 150, 160));
	ck_assert(!sv_session_has_match(&s, sv_call_lane(prof, c600),
		sv_profile_depth(prof, c600), 650, 660));
	/* a regex on the value: both, by start */
	ck_assert_int_eq(
		sv_session_set_search(&s, "phase~^(steady|warm)$", &err), 0);
	ck_assert_uint_eq(sv_session_nmatches(&s), 2);
	ck_assert_uint_eq(sv_session_match_at(&s, 1), c600);
	/* a term whose text is no regex still searches the metadata */
	ck_assert_int_eq(sv_session_set_search(&s, "phase=[", &err), 0);
	ck_assert_uint_eq(sv_session_nmatches(&s), 0);
	/* a bad regex after ~ is an error */
	ck_assert_int_eq(sv_session_set_search(&s, "phase~(", &err), -EINVAL);
	/* names still match as before */
	ck_assert_int_eq(sv_session_set_search(&s, "work", &err), 0);
	ck_assert_uint_eq(sv_session_nmatches(&s), 1);
	ck_assert_ptr_null(sv_session_search_calls(&s));
}
END_TEST

/* Set the filter and wait until it is in force (made here, or on a
 * worker and taken in by poll). */
static int filter_set(const char *spec)
{
	int rc = sv_session_set_filter(&s, spec);
	wait_idle(&s);
	return rc;
}

/* The filter takes metadata terms as the search does: "key=value" and
 * "key~regex" keep (with !, drop) calls by their event metadata, names
 * still match by name, and the index, the statistics, the match lists
 * and sv_session_keeps() all follow the calls kept; made here, or (1)
 * on a worker. */
START_TEST(test_filter_metadata)
{
	struct sv_error err = {0};
	uint32_t c100 = call_of(prof, "child", 100);
	uint32_t c600 = call_of(prof, "child", 600);
	const struct sv_stats_region *g;

	if (_i)
		s.bg_calls = 1; /* the same, made on a worker */

	ck_assert_int_eq(filter_set("phase=steady"), 0);
	ck_assert_ptr_null(
		sv_session_call_keep(&s)); /* no metadata yet: names only */
	ck_assert_uint_eq(sv_session_index(&s)->ncalls, 0);
	tag_children(c100, c600);
	/* one term: the one call */
	ck_assert_int_eq(filter_set("phase=steady"), 0);
	ck_assert_ptr_nonnull(sv_session_call_keep(&s));
	ck_assert_uint_eq(sv_session_index(&s)->ncalls, 1);
	ck_assert(sv_session_keeps(&s, c100));
	ck_assert(!sv_session_keeps(&s, c600));
	ck_assert_uint_eq(sv_session_stats(&s)->nregions, 1);
	ck_assert_str_eq(sv_session_stats(&s)->regions[0].name, "child");
	ck_assert_uint_eq(sv_session_stats(&s)->regions[0].s.num_calls, 1);
	ck_assert_int_eq(sv_session_stats(&s)->regions[0].s.total_ns, 400);
	ck_assert(!sv_session_stats_is_all(&s));
	/* a name and a term: main's two calls and the tagged one */
	ck_assert_int_eq(filter_set("main phase~^st"), 0);
	ck_assert_uint_eq(sv_session_index(&s)->ncalls, 3);
	ck_assert(sv_session_keeps(&s, call_of(prof, "main", 0)));
	/* an excluded term: everything but the warm call */
	ck_assert_int_eq(filter_set("!phase=warm"), 0);
	ck_assert_uint_eq(sv_session_index(&s)->ncalls, NCALLS - 1);
	ck_assert(!sv_session_keeps(&s, c600));
	g = sv_stats_table_find(
		sv_session_stats(&s), sv_call_region(prof, c100));
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(g->s.num_calls, 1);
	/* the search's lists keep to the calls kept */
	ck_assert_int_eq(sv_session_set_search(&s, "^child", &err), 0);
	wait_idle(&s);
	ck_assert_uint_eq(sv_session_nmatches(&s), 1);
	ck_assert_uint_eq(sv_session_match_at(&s, 0), c100);
	/* a bad regex after ~ is an error, and the filter stays */
	ck_assert_int_eq(filter_set("phase~("), -EINVAL);
	ck_assert_str_eq(sv_session_filter_spec(&s), "!phase=warm");
	/* cleared: every call again */
	ck_assert_int_eq(filter_set(""), 0);
	ck_assert_ptr_null(sv_session_call_keep(&s));
	ck_assert_uint_eq(sv_session_index(&s)->ncalls, NCALLS);
}
END_TEST

/* The statistics follow the span: a marked range (calls clipped to it),
 * the window, the run; back on the run the kept table returns. */
START_TEST(test_stats_span)
{
	const struct sv_stats_region *g;
	char text[160];

	/* a range marked: the statistics are its, and the title says so */
	sv_session_set_range(&s, true, 150, 450);
	ck_assert_int_eq(sv_session_span(&s), SV_SPAN_RANGE);
	g = sv_stats_table_find(sv_session_stats(&s),
		(uint32_t)sv_profile_find_region(prof, "child"));
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(g->s.num_calls, 1);
	ck_assert_int_eq(g->s.total_ns, 300); /* 150 .. 450 of 100 .. 500 */
	ck_assert_int_eq(g->s.exclusive_ns, 300 - 100);
	ck_assert(!sv_session_stats_is_all(&s));
	sv_session_span_text(&s, text, sizeof text);
	ck_assert_msg(
		strstr(text, "range") && strstr(text, "clipped"), "%s", text);
	/* the window: told by the timeline */
	sv_session_set_window(&s, 0, 100);
	sv_session_set_span(&s, SV_SPAN_WINDOW);
	ck_assert(sv_stats_table_find(sv_session_stats(&s),
			  (uint32_t)sv_profile_find_region(prof, "child")) ==
		  NULL);
	g = sv_stats_table_find(sv_session_stats(&s),
		(uint32_t)sv_profile_find_region(prof, "main"));
	ck_assert_int_eq(g->s.total_ns, 200);
	sv_session_set_window(&s, 0, 1200);
	g = sv_stats_table_find(sv_session_stats(&s),
		(uint32_t)sv_profile_find_region(prof, "main"));
	ck_assert_int_eq(g->s.total_ns, 2200);
	/* clearing the range while the window is shown keeps the window */
	sv_session_set_range(&s, false, 0, 0);
	ck_assert_int_eq(sv_session_span(&s), SV_SPAN_WINDOW);
	/* the run again: the whole table */
	sv_session_set_span(&s, SV_SPAN_RUN);
	ck_assert(sv_session_stats_is_all(&s));
	/* no range: asking for one gives the run */
	sv_session_set_span(&s, SV_SPAN_RANGE);
	ck_assert_int_eq(sv_session_span(&s), SV_SPAN_RUN);
}
END_TEST

/* Over SV_SESSION_STATS_SYNC calls the statistics of a range, a filter,
 * a solo lane or ranks are computed on a worker: the old table stays
 * until poll takes the new one; a filter set meanwhile stops it first;
 * the whole run's table comes back at once. */
START_TEST(test_stats_span_background)
{
	size_t n = SV_SESSION_STATS_SYNC + 1000, i;
	struct vt_call *many = calloc(n, sizeof *many);
	struct sv_profile *p;
	struct sv_session b;
	struct sv_error err;
	int spins = 0;

	for (i = 0; i < n; i++)
		many[i] = (struct vt_call){0, i % 2 ? "a" : "b",
			(int64_t)i * 10, (int64_t)i * 10 + 8, -1, -1, -1, 0};
	p = vt_profile(many, n, VT_START);
	ck_assert_int_eq(sv_session_init(&b, p, NULL, &err), 0);
	sv_session_set_range(&b, true, 0, 10 * 1000 + 4);
	ck_assert(sv_session_busy(&b));
	ck_assert(sv_session_stats(&b)); /* the run's table meanwhile */
	while (!sv_session_poll(&b) && spins++ < 10000000)
		;
	ck_assert(!sv_session_busy(&b));
	ck_assert_uint_eq(sv_session_stats(&b)->nregions, 2);
	ck_assert_uint_eq(sv_session_stats(&b)->regions[0].s.num_calls +
				  sv_session_stats(&b)->regions[1].s.num_calls,
		1001);
	/* the last call is cut to 4 ns */
	ck_assert_int_eq(sv_session_stats(&b)->regions[0].s.total_ns +
				 sv_session_stats(&b)->regions[1].s.total_ns,
		1000 * 8 + 4);
	/* started again, then stopped by a filter */
	sv_session_set_range(&b, true, 0, 20000);
	ck_assert(sv_session_busy(&b));
	ck_assert_int_eq(sv_session_set_filter(&b, "a"), 0);
	while (!sv_session_poll(&b) && spins++ < 20000000)
		;
	ck_assert_uint_eq(sv_session_stats(&b)->nregions, 1);
	/* a solo lane and ranks too: the old table meanwhile; back to
	 * every lane, the run's table kept aside comes back at once */
	ck_assert_int_eq(sv_session_set_filter(&b, ""), 0);
	sv_session_set_range(&b, false, 0, 0);
	while (sv_session_busy(&b) && spins++ < 30000000)
		sv_session_poll(&b);
	ck_assert(sv_session_stats_is_all(&b));
	sv_session_solo(&b, 0);
	ck_assert(sv_session_busy(&b));
	ck_assert(sv_session_stats(&b) && sv_session_stats_is_all(&b));
	while (!sv_session_poll(&b) && spins++ < 40000000)
		;
	ck_assert(!sv_session_stats_is_all(&b));
	ck_assert_uint_eq(sv_session_stats(&b)->regions[0].s.num_calls +
				  sv_session_stats(&b)->regions[1].s.num_calls,
		n);
	sv_session_solo(&b, -1);
	ck_assert(!sv_session_busy(&b));
	ck_assert(sv_session_stats_is_all(&b));
	ck_assert_int_eq(sv_session_set_ranks(&b, "0"), 0);
	ck_assert(sv_session_busy(&b));
	sv_session_fini(&b); /* stops it */
	sv_profile_free(p);
	free(many);
}
END_TEST

START_TEST(test_search)
{
	struct sv_error err = {0};
	static const struct {
		const char *name;
		int64_t start;
	} want[] = {{"child", 100}, {"grandchild", 200}, {"child", 600}};
	size_t i;

	/* when searching "child" (anywhere in the name) */
	ck_assert_int_eq(sv_session_set_search(&s, "child", &err), 0);

	/* then its calls, by start, and they are highlighted */
	ck_assert_uint_eq(sv_session_nmatches(&s), 3);
	for (i = 0; i < 3; i++) {
		uint32_t c = sv_session_match_at(&s, i);
		ck_assert_str_eq(
			prof->regions[sv_call_region(prof, c)], want[i].name);
		ck_assert_int_eq(prof->start_ns[c], want[i].start);
		ck_assert(sv_session_is_match(&s, c));
	}
	ck_assert(!sv_session_is_match(&s, call_of(prof, "work", 50)));
	ck_assert(sv_session_has_match(&s,
		sv_call_lane(prof, sv_session_match_at(&s, 0)),
		sv_profile_depth(prof, sv_session_match_at(&s, 1)), 250, 260));
	ck_assert(!sv_session_has_match(&s,
		sv_call_lane(prof, sv_session_match_at(&s, 0)),
		sv_profile_depth(prof, sv_session_match_at(&s, 1)), 400, 500));
	ck_assert_str_eq(sv_session_search_spec(&s), "child");
	ck_assert_int_eq(sv_session_jump_pos(&s, false), -1);
	ck_assert_int_eq(heard.n, 1);
	ck_assert_uint_eq(heard.last, SV_SESSION_SEARCH);

	/* when rank 0's main lane is hidden: no match is left */
	sv_session_solo(&s, (long)lane_of(prof, 1, -1));
	ck_assert_uint_eq(sv_session_nmatches(&s), 0);
	sv_session_solo(&s, -1);
	ck_assert_uint_eq(sv_session_nmatches(&s), 3);

	/* when the pattern does not compile: -EINVAL, err says why, and the
	 * search is cleared */
	ck_assert_int_eq(sv_session_set_search(&s, "chi(", &err), -EINVAL);
	ck_assert_int_eq(err.code, -EINVAL);
	ck_assert_str_ne(err.msg, "");
	ck_assert_str_eq(sv_session_search_spec(&s), "");
	ck_assert_ptr_null(sv_session_search_regions(&s));
	ck_assert_uint_eq(sv_session_nmatches(&s), 0);
	ck_assert(!sv_session_is_match(&s, call_of(prof, "child", 100)));

	/* and "" clears without an error */
	ck_assert_int_eq(sv_session_set_search(&s, "", &err), 0);
	ck_assert_uint_eq(sv_session_nmatches(&s), 0);
}
END_TEST

/* The search made on a worker thread (bg_calls reached) gives the same
 * lists and highlights as the one made in place, announces itself once
 * when its lists are in, and a new search or a solo lane while it runs
 * starts it again on the new input. */
START_TEST(test_search_background)
{
	struct sv_error err = {0};
	size_t i;
	uint32_t want[3];

	ck_assert_int_eq(sv_session_set_search(&s, "child", &err), 0);
	ck_assert(!sv_session_busy(&s));
	ck_assert_uint_eq(sv_session_nmatches(&s), 3);
	for (i = 0; i < 3; i++)
		want[i] = sv_session_match_at(&s, i);

	/* when the profile counts as large */
	s.bg_calls = 1;
	hear_nothing();
	ck_assert_int_eq(sv_session_set_search(&s, "child", &err), 0);
	/* then the lists come later: empty meanwhile, then the same */
	ck_assert(sv_session_matches_pending(&s));
	ck_assert_uint_eq(sv_session_nmatches(&s), 0);
	wait_idle(&s);
	ck_assert_uint_eq(sv_session_nmatches(&s), 3);
	for (i = 0; i < 3; i++)
		ck_assert_uint_eq(sv_session_match_at(&s, i), want[i]);
	ck_assert((sv_session_match_index(&s) != NULL));
	ck_assert(sv_session_has_match(&s, sv_call_lane(prof, want[0]),
		sv_profile_depth(prof, want[1]), 250, 260));
	ck_assert(sv_session_is_match(&s, want[2]));
	ck_assert_int_eq(heard.n, 2);
	ck_assert_uint_eq(heard.last, SV_SESSION_SEARCH);
	ck_assert(!sv_session_poll(&s));

	/* a solo lane and a new pattern while one runs: the last wins */
	ck_assert_int_eq(sv_session_set_search(&s, "child", &err), 0);
	sv_session_solo(&s, (long)lane_of(prof, 1, -1));
	wait_idle(&s);
	ck_assert_uint_eq(sv_session_nmatches(&s), 0);
	sv_session_solo(&s, -1);
	ck_assert_int_eq(sv_session_set_search(&s, "grand", &err), 0);
	ck_assert_int_eq(sv_session_set_search(&s, "child", &err), 0);
	wait_idle(&s);
	ck_assert_uint_eq(sv_session_nmatches(&s), 3);
	/* and fini stops a running one */
	ck_assert_int_eq(sv_session_set_search(&s, "grand", &err), 0);
}
END_TEST

/* A solo lane or a rank filter on a large profile makes the lists again
 * on a worker, and keeps the highlight index (made over every lane). */
START_TEST(test_lanes_keep_match_index)
{
	struct sv_error err = {0};
	struct sv_lod_index before;
	size_t l0 = lane_of(prof, 0, -1);
	uint32_t main1 = call_of(prof, "main", 0), main0 = SV_NO_CALL, c;

	for (c = 0; c < prof->ncalls; c++)
		if (!strcmp(prof->regions[sv_call_region(prof, c)], "main") &&
			prof->lanes[sv_call_lane(prof, c)].rank == 1)
			main1 = c;
		else if (!strcmp(prof->regions[sv_call_region(prof, c)],
				 "main"))
			main0 = c;
	s.bg_calls = 1;
	ck_assert_int_eq(sv_session_set_search(&s, "main", &err), 0);
	wait_idle(&s);
	ck_assert_uint_eq(sv_session_nmatches(&s), 2);
	before = (*sv_session_match_index(&s));

	/* when a lane is soloed: the lists come later, the index stays */
	sv_session_solo(&s, (long)l0);
	ck_assert(sv_session_matches_pending(&s));
	ck_assert_uint_eq(sv_session_nmatches(&s), 0);
	ck_assert((sv_session_match_index(&s) != NULL));
	ck_assert(!memcmp(
		&(*sv_session_match_index(&s)), &before, sizeof before));
	wait_idle(&s);
	ck_assert_uint_eq(sv_session_nmatches(&s), 1);
	ck_assert_uint_eq(sv_session_match_at(&s, 0), main0);
	ck_assert(!memcmp(
		&(*sv_session_match_index(&s)), &before, sizeof before));
	ck_assert(sv_session_is_match(&s, main0));

	/* the rank filter and back: the same */
	sv_session_solo(&s, -1);
	ck_assert_int_eq(sv_session_set_ranks(&s, "1"), 0);
	wait_idle(&s);
	ck_assert_uint_eq(sv_session_nmatches(&s), 1);
	ck_assert_uint_eq(sv_session_match_at(&s, 0), main1);
	ck_assert_int_eq(sv_session_set_ranks(&s, ""), 0);
	wait_idle(&s);
	ck_assert_uint_eq(sv_session_nmatches(&s), 2);
	ck_assert(!memcmp(
		&(*sv_session_match_index(&s)), &before, sizeof before));
	ck_assert(!sv_session_busy(&s));

	/* while the index is still being made, both are made again */
	ck_assert_int_eq(sv_session_set_search(&s, "child", &err), 0);
	sv_session_solo(&s, (long)l0);
	wait_idle(&s);
	ck_assert_uint_eq(
		sv_session_nmatches(&s), 3); /* child twice, grandchild */
	ck_assert((sv_session_match_index(&s) != NULL));
	ck_assert(sv_session_has_match(&s, (uint32_t)l0,
		sv_profile_depth(prof, call_of(prof, "child", 100)), 100, 500));

	/* a region filter is not a change of lanes: the index follows it */
	ck_assert_int_eq(sv_session_set_filter(&s, "grand"), 0);
	wait_idle(&s);
	ck_assert_uint_eq(sv_session_nmatches(&s), 1);
	ck_assert(!sv_session_has_match(&s, (uint32_t)l0,
		sv_profile_depth(prof, call_of(prof, "child", 100)), 100, 500));
	ck_assert(sv_session_has_match(&s, (uint32_t)l0,
		sv_profile_depth(prof, call_of(prof, "grandchild", 200)), 250,
		260));
}
END_TEST

/* Many calls of one lane, durations out of order (up to 2^20 ns so the
 * sorts look at more than one byte): the match list is by start and the
 * marked list longest first, ties in call-number order. */
START_TEST(test_sorted_lists)
{
	enum { N = 300 };
	struct vt_call *many = calloc(N, sizeof *many);
	struct sv_profile *p;
	struct sv_session t;
	struct sv_error err;
	int64_t at = 0;
	size_t i;

	for (i = 0; i < N; i++) {
		int64_t dur = 1 + (int64_t)((i * 7919u) % 1024u) * 1024;
		if (i % 50 == 0)
			dur = 5000; /* ties */
		many[i].rank = 0;
		many[i].region = i % 3 ? "step" : "other";
		many[i].start = at;
		many[i].end = at + dur;
		many[i].thread = many[i].task = -1;
		many[i].gpu = -1;
		at += dur + 10;
	}
	p = vt_profile(many, N, 0);
	ck_assert_int_eq(sv_session_init(&t, p, NULL, &err), 0);

	/* when searching and marking "step" */
	ck_assert_int_eq(sv_session_set_search(&t, "^step$", &err), 0);
	sv_session_mark_region(&t, sv_profile_find_region(p, "step"));

	/* then both hold its 200 calls, in their orders */
	ck_assert_uint_eq(sv_session_nmatches(&t), 200);
	ck_assert_uint_eq(sv_session_nmarked(&t), 200);
	for (i = 1; i < sv_session_nmatches(&t); i++)
		ck_assert_int_lt(p->start_ns[sv_session_match_at(&t, i - 1)],
			p->start_ns[sv_session_match_at(&t, i)]);
	for (i = 1; i < sv_session_nmarked(&t); i++) {
		int64_t a = sv_call_duration(
				p, sv_session_marked(&t, NULL)[i - 1]),
			b = sv_call_duration(p, sv_session_marked(&t, NULL)[i]);
		ck_assert_int_ge(a, b);
		if (a == b)
			ck_assert_uint_lt(sv_session_marked(&t, NULL)[i - 1],
				sv_session_marked(&t, NULL)[i]);
	}
	sv_session_fini(&t);
	sv_profile_free(p);
	free(many);
}
END_TEST

/* Whether a call of lane 0 at depth d that pat's regions hold meets
 * [t0, t1) (a call of no length as [start, start + 1)): what
 * sv_session_has_match answers, by a scan. */
static bool scan_has_match(const struct sv_profile *p, const char *pat,
	uint32_t d, int64_t t0, int64_t t1)
{
	uint32_t c;

	for (c = 0; c < p->ncalls; c++) {
		int64_t a = sv_profile_start(p, c), e = sv_profile_end(p, c);
		const char *r = p->regions[sv_call_region(p, c)];
		if (e <= a)
			e = a + 1;
		if (sv_call_lane(p, c) == 0 && sv_profile_depth(p, c) == d &&
			strstr(pat, r) && a < t1 && e > t0)
			return true;
	}
	return false;
}

/* The highlights of a search matching most calls (the index of the
 * others, on a lane that nests) and of one matching few, on a lane that
 * nests and one that does not: sv_session_has_match as a scan finds. */
START_TEST(test_has_match_most)
{
	static const char *const pats[] = {"a|b|c|d", "e", "a|b|c|d|e"};
	unsigned seed = 7u + (unsigned)_i;
	struct sv_profile *p = vt_rand_lane(_i, &seed);
	struct sv_session t;
	struct sv_error err;
	size_t k;
	int q;

	ck_assert_int_eq(sv_session_init(&t, p, NULL, &err), 0);
	for (k = 0; k < sizeof pats / sizeof pats[0]; k++) {
		ck_assert_int_eq(sv_session_set_search(&t, pats[k], &err), 0);
		for (q = 0; q < 3000; q++) {
			int64_t t0 = rand_r(&seed) % 70000,
				t1 = t0 + 1 +
				     rand_r(&seed) % (q % 2 ? 50 : 3000);
			uint32_t d = (uint32_t)(rand_r(&seed) % 6);
			ck_assert_msg(
				sv_session_has_match(&t, 0, d, t0, t1) ==
					scan_has_match(p, pats[k], d, t0, t1),
				"'%s' depth %u [%lld, %lld)", pats[k], d,
				(long long)t0, (long long)t1);
		}
	}
	sv_session_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* Marking a region on a large profile (bg_calls reached) collects its
 * calls on a worker: the list is empty and pending meanwhile, then the
 * same as made in place, announced once; a region marked while one runs
 * wins; a region without calls on the lanes shown says so when done. */
START_TEST(test_mark_background)
{
	uint32_t ch = region("child"), mn = region("main");
	uint32_t want[2];

	sv_session_mark_region(&s, ch);
	ck_assert_uint_eq(sv_session_nmarked(&s), 2);
	memcpy(want, sv_session_marked(&s, NULL), sizeof want);

	/* when the profile counts as large */
	s.bg_calls = 1;
	hear_nothing();
	sv_session_mark_region(&s, ch);
	ck_assert(sv_session_matches_pending(&s));
	ck_assert_uint_eq(sv_session_nmarked(&s), 0);
	ck_assert_str_eq(s.message, "collecting the calls of 'child'");
	wait_idle(&s);
	ck_assert_uint_eq(sv_session_nmarked(&s), 2);
	ck_assert_mem_eq(sv_session_marked(&s, NULL), want, sizeof want);
	ck_assert((sv_session_match_index(&s) != NULL));
	ck_assert(sv_session_is_match(&s, want[1]));
	ck_assert_str_eq(s.message, "2 calls of 'child', longest first");
	ck_assert_int_eq(heard.n, 2);
	ck_assert_uint_eq(heard.last, SV_SESSION_SEARCH);

	/* another region while it runs: the last wins */
	sv_session_mark_region(&s, mn);
	sv_session_mark_region(&s, ch);
	wait_idle(&s);
	ck_assert_int_eq(s.mark_region, ch);
	ck_assert_mem_eq(sv_session_marked(&s, NULL), want, sizeof want);

	/* none on the lanes shown: said when the work is done */
	sv_session_solo(&s, (long)lane_of(prof, 1, -1));
	wait_idle(&s);
	sv_session_mark_region(&s, ch);
	wait_idle(&s);
	ck_assert_uint_eq(sv_session_nmarked(&s), 0);
	ck_assert(s.message_is_error);
	ck_assert_str_eq(s.message, "'child' has no call on the lanes shown");
	/* and fini stops a running one */
	sv_session_solo(&s, -1);
	sv_session_mark_region(&s, mn);
}
END_TEST

START_TEST(test_mark_default)
{
	/* nothing selected: the region of most time (main, 2200 ns) for a
	 * view of one region, the repeated one of most time (child, called
	 * twice on rank 0) for a view of iterations */
	ck_assert_int_eq(sv_session_mark_default(&s), region("main"));
	ck_assert_ptr_nonnull(strstr(s.message, "'main': most time"));
	sv_session_mark_region(&s, -1);
	ck_assert_int_eq(sv_session_mark_default_repeated(&s), region("child"));
	ck_assert_ptr_nonnull(
		strstr(s.message, "the repeated region of most time"));
	/* a selected call's region when it repeats, else the default */
	sv_session_mark_region(&s, -1);
	sv_session_select(&s, 0, call_of(prof, "main", 0));
	ck_assert_int_eq(sv_session_mark_default(&s), region("main"));
	sv_session_mark_region(&s, -1);
	ck_assert_int_eq(sv_session_mark_default_repeated(&s), region("child"));
	sv_session_mark_region(&s, -1);
	sv_session_select(&s, 0, call_of(prof, "child", 600));
	ck_assert_int_eq(sv_session_mark_default_repeated(&s), region("child"));
}
END_TEST

START_TEST(test_mark_region)
{
	uint32_t ch = region("child"), mn = region("main");

	/* when "child" is marked: its calls, longest first */
	sv_session_mark_region(&s, ch);
	ck_assert_int_eq(s.mark_region, ch);
	ck_assert_uint_eq(sv_session_nmarked(&s), 2);
	ck_assert_int_eq(prof->start_ns[sv_session_marked(&s, NULL)[0]],
		100); /* 400 ns */
	ck_assert_int_eq(prof->start_ns[sv_session_marked(&s, NULL)[1]],
		600); /* 300 ns */
	ck_assert(sv_session_is_match(&s, sv_session_marked(&s, NULL)[1]));
	ck_assert_int_eq(heard.n, 1);
	ck_assert_uint_eq(heard.last, SV_SESSION_SEARCH);

	/* when "main" is marked: rank 1's (1200 ns) before rank 0's */
	sv_session_mark_region(&s, mn);
	ck_assert_uint_eq(sv_session_nmarked(&s), 2);
	ck_assert_int_eq(
		sv_call_duration(prof, sv_session_marked(&s, NULL)[0]), 1200);
	ck_assert_int_eq(
		sv_call_duration(prof, sv_session_marked(&s, NULL)[1]), 1000);
	ck_assert(!sv_session_is_match(&s, call_of(prof, "child", 100)));

	/* when only rank 0 is shown: only its call */
	ck_assert_int_eq(sv_session_set_ranks(&s, "0"), 0);
	ck_assert_uint_eq(sv_session_nmarked(&s), 1);
	ck_assert_int_eq(
		sv_call_duration(prof, sv_session_marked(&s, NULL)[0]), 1000);

	/* when cleared: nothing marked */
	sv_session_mark_region(&s, -1);
	ck_assert_uint_eq(sv_session_nmarked(&s), 0);
	ck_assert_ptr_null(sv_session_marked(&s, NULL));
	ck_assert(!sv_session_is_match(&s, s.sel));
	ck_assert_int_eq(heard.n, 4);
}
END_TEST

/* ---- the notify hook --------------------------------------------------- */

static void op_solo(void)
{
	sv_session_solo(&s, 0);
}
static void op_unsolo(void)
{
	sv_session_solo(&s, 0);
	hear_nothing();
	sv_session_solo(&s, -1);
}
static void op_ranks(void)
{
	sv_session_set_ranks(&s, "1");
}
static void op_ranks_bad(void)
{
	sv_session_set_ranks(&s, "x-");
}
static void op_filter(void)
{
	sv_session_set_filter(&s, "main");
}
static void op_filter_bad(void)
{
	sv_session_set_filter(&s, "(");
}
static void op_search(void)
{
	struct sv_error err;
	sv_session_set_search(&s, "main", &err);
}
static void op_search_bad(void)
{
	struct sv_error err;
	sv_session_set_search(&s, "(", &err);
}
static void op_mark(void)
{
	sv_session_mark_region(&s, 0);
}
static void op_sort(void)
{
	sv_session_sort(&s, SV_STATS_KEY_NAME);
}
static void op_profile(void)
{
	struct sv_error err;
	ck_assert_int_eq(sv_session_set_profile(&s, prof, &err), 0);
}
static void op_message(void)
{
	sv_session_message(&s, false, "hello %d", 1);
	ck_assert_str_eq(s.message, "hello 1");
}

static const struct {
	const char *name;
	void (*op)(void);
	int n;
	unsigned what;
} ops[] = {
	{"solo", op_solo, 1, SV_SESSION_LANES},
	{"unsolo", op_unsolo, 1, SV_SESSION_LANES},
	{"ranks", op_ranks, 1, SV_SESSION_LANES},
	{"bad ranks", op_ranks_bad, 0, 0},
	{"filter", op_filter, 1, SV_SESSION_FILTER | SV_SESSION_LANES},
	{"bad filter", op_filter_bad, 0, 0},
	{"search", op_search, 1, SV_SESSION_SEARCH},
	/* a bad search clears the search, which is a change */
	{"bad search", op_search_bad, 1, SV_SESSION_SEARCH},
	{"mark", op_mark, 1, SV_SESSION_SEARCH},
	{"sort", op_sort, 1, SV_SESSION_SORT},
	{"profile", op_profile, 1,
		SV_SESSION_PROFILE | SV_SESSION_LANES | SV_SESSION_FILTER |
			SV_SESSION_SEARCH},
	{"message", op_message, 0, 0},
};

START_TEST(test_notify_once)
{
	/* when one change is made */
	ops[_i].op();
	/* then the hook hears it once, with its bits */
	ck_assert_msg(
		heard.n == ops[_i].n, "%s: %d calls", ops[_i].name, heard.n);
	ck_assert_msg(heard.all == ops[_i].what, "%s: bits %#x", ops[_i].name,
		heard.all);
}
END_TEST

START_TEST(test_notify_selection)
{
	uint32_t c = sv_lane_call(&prof->lanes[1], 0);

	/* a call selected: told at once, and not again for the same one */
	sv_session_select(&s, 0, c);
	ck_assert_int_eq(heard.n, 1);
	ck_assert_uint_eq(heard.last, SV_SESSION_SELECT);
	sv_session_select(&s, 0, c);
	ck_assert_int_eq(heard.n, 1);
	hear_nothing();
	/* when its lane goes out of view, the selection goes, told once
	 * with the lanes */
	sv_session_solo(&s, 0);
	ck_assert_uint_eq(s.sel, SV_NO_CALL);
	ck_assert_int_eq(heard.n, 1);
	ck_assert_uint_eq(heard.last, SV_SESSION_LANES | SV_SESSION_SELECT);
	/* and a change that leaves it alone tells only its own */
	hear_nothing();
	sv_session_solo(&s, -1);
	ck_assert_int_eq(heard.n, 1);
	ck_assert_uint_eq(heard.last, SV_SESSION_LANES);
}
END_TEST

/* ---- a new profile ----------------------------------------------------- */

START_TEST(test_set_profile)
{
	/* the same run with its regions in another order, so that region
	 * numbers differ */
	static const struct vt_call again[] = {
		{0, "work", 50, 400, 1, -1, -1, 0},
		{0, "child", 100, 500, 0, -1, -1, 0},
		{0, "main", 0, 1000, 0, -1, -1, 0},
		{0, "fetch", 100, 800, 0, 0, -1, 300},
		{1, "main", 0, 1200, 0, -1, -1, 0},
		{1, "extra", 10, 20, 0, -1, -1, 0},
	};
	static const struct vt_call one[] = {
		{0, "main", 0, 10, -1, -1, -1, 0},
	};
	struct sv_profile *p2 = vt_profile(again, 6, FLAGS), *p3;
	struct sv_error err = {0};
	uint32_t r;

	/* given a filter, a search, a selection, a marked region, a range
	 * and a soloed lane */
	ck_assert_uint_eq(p2->nlanes, prof->nlanes);
	ck_assert_int_eq(sv_session_set_filter(&s, "ch ma"), 0);
	ck_assert_int_eq(sv_session_set_search(&s, "ain", &err), 0);
	sv_session_select(&s, 0, call_of(prof, "child", 600));
	sv_session_mark_region(&s, region("child"));
	s.has_range = true;
	sv_session_solo(&s, 1);
	hear_nothing();

	/* when the profile is replaced by one with as many lanes */
	ck_assert_int_eq(sv_session_set_profile(&s, p2, &err), 0);

	/* then the filter and search are kept as typed and applied to the
	 * new region numbers; the selection, mark and range are dropped */
	ck_assert_ptr_eq(s.p, p2);
	ck_assert_str_eq(sv_session_filter_spec(&s), "ch ma");
	ck_assert_str_eq(sv_session_search_spec(&s), "ain");
	for (r = 0; r < p2->nregions; r++) {
		bool ch = !strcmp(p2->regions[r], "child") ||
			  !strcmp(p2->regions[r], "main");
		ck_assert_msg(sv_session_region_keep(&s)[r] == ch, "%s",
			p2->regions[r]);
		ck_assert(sv_session_search_regions(&s)[r] ==
			  !strcmp(p2->regions[r], "main"));
	}
	ck_assert_uint_eq(sv_session_index(&s)->ncalls, 3);
	ck_assert_uint_eq(s.sel, SV_NO_CALL);
	ck_assert_int_eq(s.mark_region, -1);
	ck_assert_uint_eq(sv_session_nmarked(&s), 0);
	ck_assert(!s.has_range);
	ck_assert_int_eq(s.solo_lane, 1);
	ck_assert(sv_session_stats(&s)->p == p2);
	ck_assert_int_eq(s.run_t1, 1200);
	ck_assert_int_eq(heard.n, 1);
	ck_assert(heard.last & SV_SESSION_PROFILE);

	/* when replaced by one with another lane count: the solo lane goes */
	p3 = vt_profile(one, 1, 0);
	ck_assert_uint_ne(p3->nlanes, p2->nlanes);
	ck_assert_int_eq(sv_session_set_profile(&s, p3, &err), 0);
	ck_assert_int_eq(s.solo_lane, -1);
	ck_assert_str_eq(sv_session_filter_spec(&s), "ch ma");
	ck_assert_uint_eq(sv_session_index(&s)->ncalls, 1);
	ck_assert_int_eq(s.run_t1, 10);

	/* and no profile at all is refused */
	ck_assert_int_eq(sv_session_set_profile(&s, NULL, &err), -EINVAL);
	ck_assert_ptr_eq(s.p, p3);

	/* back to the fixture's profile before the others go */
	ck_assert_int_eq(sv_session_set_profile(&s, prof, &err), 0);
	sv_profile_free(p2);
	sv_profile_free(p3);
}
END_TEST

START_TEST(test_set_profile_keeps_selection)
{
	/* the same calls stored in another order (a reload, or another rank
	 * subset of the file: call numbers differ) */
	static const struct vt_call again[] = {
		{1, "main", 0, 1200, 0, -1, -1, 0},
		{0, "fetch", 100, 800, 0, 0, -1, 300},
		{0, "work", 50, 400, 1, -1, -1, 0},
		{0, "child", 600, 900, 0, -1, -1, 0},
		{0, "main", 0, 1000, 0, -1, -1, 0},
		{0, "child", 100, 500, 0, -1, -1, 0},
		{0, "grandchild", 200, 300, 0, -1, -1, 0},
	};
	struct sv_profile *p2 = vt_profile(again, 7, FLAGS);
	struct sv_error err = {0};

	/* given a selected call on a task lane */
	sv_session_select(&s, 0, call_of(prof, "fetch", 100));
	ck_assert_uint_ne(s.sel, call_of(p2, "fetch", 100));

	/* when the profile is replaced: the same call is selected in it */
	ck_assert_int_eq(sv_session_set_profile(&s, p2, &err), 0);
	ck_assert_uint_eq(s.sel, call_of(p2, "fetch", 100));

	/* and the second of two calls of a region on one lane */
	sv_session_select(&s, 0, call_of(p2, "child", 600));
	ck_assert_int_eq(sv_session_set_profile(&s, prof, &err), 0);
	ck_assert_uint_eq(s.sel, call_of(prof, "child", 600));

	/* a call on a lane the solo lane hides is not selected */
	sv_session_solo(&s, (long)lane_of(prof, 1, -1));
	sv_session_select(&s, 0, call_of(prof, "main", 0));
	ck_assert_uint_eq(s.p->lanes[sv_call_lane(s.p, s.sel)].rank, 0);
	ck_assert_int_eq(sv_session_set_profile(&s, p2, &err), 0);
	ck_assert_uint_eq(s.sel, SV_NO_CALL);

	/* a call the new profile does not have is not selected either */
	sv_session_solo(&s, -1);
	sv_session_select(&s, 0, call_of(p2, "work", 50));
	{
		static const struct vt_call other[] = {
			{0, "work", 50, 401, 1, -1, -1, 0},
		};
		struct sv_profile *p3 = vt_profile(other, 1, FLAGS);
		ck_assert_int_eq(sv_session_set_profile(&s, p3, &err), 0);
		ck_assert_uint_eq(s.sel, SV_NO_CALL);
		ck_assert_int_eq(sv_session_set_profile(&s, prof, &err), 0);
		sv_profile_free(p3);
	}
	sv_profile_free(p2);
}
END_TEST

/* The title names a rank subset, and follows the profile. */
START_TEST(test_title_follows_subset)
{
	char *path = svt_fixture("four_ranks.h5");
	bool on[4] = {false, true, false, true};
	struct sv_load_opts o = {.rank_on = on, .nrank_on = 4};
	struct sv_profile *full = NULL, *sub = NULL;
	struct sv_session t;
	struct sv_error err = {0};

	ck_assert_int_eq(sv_load(path, NULL, &full, &err), 0);
	ck_assert_int_eq(sv_load(path, &o, &sub, &err), 0);
	ck_assert(sub->rank_subset);
	ck_assert_int_eq(sv_session_init(&t, full, NULL, &err), 0);
	ck_assert_str_eq(t.title, path);
	ck_assert_int_eq(sv_session_set_profile(&t, sub, &err), 0);
	ck_assert_ptr_nonnull(strstr(t.title, " [ranks 1,3 of 4]"));
	ck_assert_ptr_eq(t.opts.title, t.title);
	ck_assert_int_eq(sv_session_set_profile(&t, full, &err), 0);
	ck_assert_str_eq(t.title, path);
	sv_session_fini(&t);
	sv_profile_free(sub);
	sv_profile_free(full);
	free(path);
}
END_TEST

/* The second run's parts: its regions matched by name (colours, the
 * search, the marked region), its index following the region filter and
 * its lanes the rank filter and the solo lane's rank. */
/* A reloaded profile prepared off the loop (its index, colours and
 * statistics) is taken as made, and gives what a plain reload gives. */
START_TEST(test_set_profile_prepared)
{
	static const struct vt_call ca[] = {
		{0, "main", 0, 1000, 0, -1, -1, 0},
		{0, "solve", 100, 500, 0, -1, -1, 0},
		{1, "main", 0, 900, 0, -1, -1, 0},
	};
	struct sv_profile *a = vt_profile(ca, 3, 0);
	struct sv_profile *b = vt_profile(calls, NCALLS, FLAGS);
	struct sv_profile *c = vt_profile(calls, NCALLS, FLAGS);
	struct sv_session ss, plain;
	struct sv_run_prep sp;
	struct sv_error err;
	uint64_t serial;
	uint32_t r;

	ck_assert_int_eq(sv_session_init(&ss, a, NULL, &err), 0);
	ck_assert_int_eq(sv_session_init(&plain, a, NULL, &err), 0);
	/* given b prepared as the loader's thread does */
	ck_assert_int_eq(sv_run_prepare(&sp, b, &err), 0);
	ck_assert(sp.has_index && sp.has_stats && sp.has_colors);
	serial = sp.index.serial;
	/* when the session takes it: the index, colours and table are
	 * those made */
	ck_assert_int_eq(sv_session_set_profile_prepared(&ss, b, &sp, &err), 0);
	ck_assert(!sp.has_index && !sp.has_stats && !sp.has_colors);
	sv_run_prep_fini(&sp);
	ck_assert_uint_eq(ss.index_full.serial, serial);
	ck_assert(sv_session_stats(&ss) && sv_session_stats_is_all(&ss));
	ck_assert(sv_session_stats(&ss)->p == b);
	/* and they agree with a reload that makes them itself */
	ck_assert_int_eq(sv_session_set_profile(&plain, c, &err), 0);
	ck_assert_uint_eq(sv_session_index(&ss)->ncalls,
		sv_session_index(&plain)->ncalls);
	ck_assert_uint_eq(sv_session_stats(&ss)->nregions,
		sv_session_stats(&plain)->nregions);
	for (r = 0; r < sv_session_stats(&ss)->nregions; r++) {
		ck_assert_str_eq(sv_session_stats(&ss)->regions[r].name,
			sv_session_stats(&plain)->regions[r].name);
		ck_assert_int_eq(sv_session_stats(&ss)->regions[r].s.total_ns,
			sv_session_stats(&plain)->regions[r].s.total_ns);
	}
	for (r = 0; r < c->nregions; r++)
		ck_assert_int_eq(sv_session_region_color(&ss, (uint32_t)r),
			sv_session_region_color(&plain, (uint32_t)r));
	/* a preparation of another profile is not taken */
	ck_assert_int_eq(sv_run_prepare(&sp, b, &err), 0);
	ck_assert_int_eq(sv_session_set_profile_prepared(&ss, c, &sp, &err), 0);
	ck_assert(sp.has_index);
	sv_run_prep_fini(&sp);
	ck_assert(sv_session_stats(&ss)->p == c);
	sv_session_fini(&ss);
	sv_session_fini(&plain);
	sv_profile_free(a);
	sv_profile_free(b);
	sv_profile_free(c);
}
END_TEST

START_TEST(test_second_run_parts)
{
	static const struct vt_call ca[] = {
		{0, "main", 0, 1000, 0, -1, -1, 0},
		{0, "solve", 100, 500, 0, -1, -1, 0},
		{1, "main", 0, 900, 0, -1, -1, 0},
	};
	static const struct vt_call cb[] = {
		{0, "main", 50, 2050, 0, -1, -1, 0},
		{0, "io", 100, 200, 0, -1, -1, 0},
		{0, "solve", 300, 900, 0, -1, -1, 0},
		{1, "main", 50, 950, 0, -1, -1, 0},
	};
	struct sv_profile *a = vt_profile(ca, 3, VT_THREADS);
	struct sv_profile *b = vt_profile(cb, 4, VT_THREADS);
	struct sv_session ss;
	struct sv_run_prep sp;
	struct sv_error err;
	uint32_t solve_b = 2, io_b = 1, r;

	ck_assert_int_eq(sv_session_init(&ss, a, NULL, &err), 0);
	/* given B prepared as the loader's thread does, when it is taken */
	ck_assert_int_eq(sv_run_prepare(&sp, b, &err), 0);
	ck_assert(sp.has_index);
	ck_assert(sp.has_stats);
	ck_assert_int_eq(
		sv_session_set_second_prepared(&ss, &sp, "b", &err), 0);
	ck_assert(!sp.has_index);  /* taken over */
	ck_assert(!sp.has_stats);  /* its table too (no filter) */
	ck_assert(!sp.has_colors); /* and its colours */
	sv_run_prep_fini(&sp);
	ck_assert(sv_session_two_rows(&ss));
	ck_assert(sv_session_stats2(&ss));
	ck_assert_int_eq(
		sv_session_second_of(&ss, sv_profile_find_region(a, "solve"))
			->s.total_ns,
		600);
	{
		/* B's table follows the ranks and the filter, not a solo
		 * lane: it is not computed again for one */
		uint64_t was = sv_session_stats2(&ss)->regions[0].s.num_calls;
		sv_session_stats2(&ss)->regions[0].s.num_calls =
			12345; /* a mark */
		sv_session_solo(&ss, 0);
		ck_assert_uint_eq(
			sv_session_stats2(&ss)->regions[0].s.num_calls, 12345);
		sv_session_solo(&ss, -1);
		sv_session_stats2(&ss)->regions[0].s.num_calls = was;
		ck_assert_int_eq(sv_session_set_ranks(&ss, "1"), 0);
		ck_assert_ptr_null(sv_session_second_of(
			&ss, sv_profile_find_region(a, "solve")));
		ck_assert_int_eq(sv_session_set_ranks(&ss, ""), 0);
		ck_assert_ptr_nonnull(sv_session_second_of(
			&ss, sv_profile_find_region(a, "solve")));
	}
	/* then each run starts at zero: B's origin is its first call */
	ck_assert_int_eq(sv_session_shift2(&ss), 50);
	ck_assert_int_eq(run2_t1_of(&ss), 2000);
	/* B's solve is A's solve: the same colour; io is B's own */
	ck_assert_str_eq(b->regions[sv_call_region(b, solve_b)], "solve");
	r = sv_call_region(b, solve_b);
	ck_assert_int_eq(
		sv_session_region1(&ss, r), sv_profile_find_region(a, "solve"));
	ck_assert_int_eq(sv_session_region1(&ss, sv_call_region(b, io_b)), -1);
	ck_assert_int_eq(sv_session_call2_color(&ss, solve_b),
		sv_session_call_color(&ss, 1));
	/* the search and the marked region light B's calls by name */
	ck_assert(!sv_session_is_match2(&ss, solve_b));
	ck_assert_int_eq(sv_session_set_search(&ss, "sol", &err), 0);
	ck_assert(sv_session_is_match2(&ss, solve_b));
	ck_assert(!sv_session_is_match2(&ss, io_b));
	ck_assert_int_eq(sv_session_set_search(&ss, "", &err), 0);
	sv_session_mark_region(&ss, sv_profile_find_region(a, "main"));
	ck_assert(sv_session_is_match2(&ss, 0));
	ck_assert(!sv_session_is_match2(&ss, solve_b));
	sv_session_mark_region(&ss, -1);
	/* the region filter leaves B's filtered calls out of its index */
	ck_assert(sv_lod_level_pos(sv_session_index2(&ss), io_b) != UINT32_MAX);
	sv_session_select(&ss, 1, io_b);
	ck_assert_int_eq(sv_session_set_filter(&ss, "!io"), 0);
	ck_assert_uint_eq(
		sv_lod_level_pos(sv_session_index2(&ss), io_b), UINT32_MAX);
	ck_assert(sv_lod_level_pos(sv_session_index2(&ss), solve_b) !=
		  UINT32_MAX);
	ck_assert_uint_eq(ss.sel2, SV_NO_CALL); /* filtered away */
	ck_assert_int_eq(sv_session_set_filter(&ss, ""), 0);
	ck_assert(sv_lod_level_pos(sv_session_index2(&ss), io_b) != UINT32_MAX);
	/* the rank filter and a solo lane hide B's lanes of other ranks */
	ck_assert_int_eq(sv_session_set_ranks(&ss, "1"), 0);
	ck_assert(sv_session_lane2_hidden(&ss)[0] &&
		  !sv_session_lane2_hidden(&ss)[1]);
	ck_assert_int_eq(sv_session_set_ranks(&ss, ""), 0);
	sv_session_solo(&ss, 0);
	ck_assert(!sv_session_lane2_hidden(&ss)[0] &&
		  sv_session_lane2_hidden(&ss)[1]);
	sv_session_solo(&ss, -1);
	/* hidden altogether, and back */
	sv_session_show_second(&ss, false);
	ck_assert(!sv_session_two_rows(&ss));
	ck_assert(sv_session_lane2_hidden(&ss)[0] &&
		  sv_session_lane2_hidden(&ss)[1]);
	sv_session_show_second(&ss, true);
	ck_assert(!sv_session_lane2_hidden(&ss)[0]);
	/* a reload of A keeps B, matched again */
	ck_assert_int_eq(sv_session_set_profile(&ss, a, &err), 0);
	ck_assert_int_eq(
		sv_session_region1(&ss, r), sv_profile_find_region(a, "solve"));
	sv_session_fini(&ss);
	sv_profile_free(a);
	sv_profile_free(b);
}
END_TEST

/* ---- search by region names: the rows, in the lanes' order ------------ */

/* The reference order of a search's matches: every lane shown scanned
 * in order, the calls of the regions matched (and kept), then a stable
 * sort by start. */
static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static const struct sv_session *order_of;
static int order_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	int64_t sx = sv_profile_start(order_of->p, (uint32_t)(*x >> 32)),
		sy = sv_profile_start(order_of->p, (uint32_t)(*y >> 32));
	if (sx != sy)
		return (sx > sy) - (sx < sy);
	return ((*x & 0xffffffff) > (*y & 0xffffffff)) -
	       ((*x & 0xffffffff) < (*y & 0xffffffff));
}

static void same_as_lane_scan(const struct sv_session *ss, const char *what)
{
	const struct sv_profile *p = ss->p;
	uint64_t *v = calloc(p->ncalls + 1, sizeof *v);
	uint32_t *got;
	size_t n = 0, l, i, m, k;

	for (l = 0; l < p->nlanes; l++) {
		if (ss->lane_hidden[l])
			continue;
		for (i = 0; i < p->lanes[l].ncalls; i++) {
			uint32_t c = sv_lane_call(&p->lanes[l], i);
			if (!sv_session_search_regions(
				    ss)[sv_call_region(p, c)] ||
				!sv_session_keeps(ss, c))
				continue;
			v[n] = (uint64_t)c << 32 | n;
			n++;
		}
	}
	order_of = ss;
	qsort(v, n, sizeof *v, order_cmp);
	ck_assert_msg(sv_session_nmatches(ss) == n, "%s: %zu matches, not %zu",
		what, sv_session_nmatches(ss), n);
	/* The list in start order, whole, and in any order (the same calls);
	 * a position and a count before a time, sampled (ties in them). */
	got = sv_session_matches_copy(ss, true, &m);
	ck_assert_uint_eq(m, n);
	for (i = 0; i < n; i++)
		ck_assert_msg(got[i] == (uint32_t)(v[i] >> 32),
			"%s: match %zu is call %u, not %u", what, i, got[i],
			(unsigned)(v[i] >> 32));
	free(got);
	for (i = 0; i < n; i += 1 + n / 61) {
		int64_t t = sv_profile_start(p, (uint32_t)(v[i] >> 32));
		size_t lo = i;
		while (lo > 0 &&
			sv_profile_start(p, (uint32_t)(v[lo - 1] >> 32)) == t)
			lo--;
		ck_assert_msg(
			sv_session_match_at(ss, i) == (uint32_t)(v[i] >> 32),
			"%s: match_at(%zu) is call %u, not %u", what, i,
			sv_session_match_at(ss, i), (unsigned)(v[i] >> 32));
		ck_assert_uint_eq(sv_session_match_lower(ss, t), lo);
		m = sv_session_match_ties(ss, t, &got);
		for (k = 0; k < m; k++)
			ck_assert_uint_eq(got[k], (uint32_t)(v[lo + k] >> 32));
		ck_assert(
			lo + m == n ||
			sv_profile_start(p, (uint32_t)(v[lo + m] >> 32)) != t);
		free(got);
	}
	ck_assert_uint_eq(sv_session_match_at(ss, n), SV_NO_CALL);
	got = sv_session_matches_copy(ss, false, &m);
	ck_assert_uint_eq(m, n);
	for (i = 0; i < n; i++)
		v[i] >>= 32;
	qsort(v, n, sizeof *v, u64_cmp);
	qsort(got, n, sizeof *got, u32_cmp);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(got[i], v[i]);
	free(got);
	free(v);
}

/* Generated profiles (threads, tasks: lanes that start calls together),
 * packed and not; searches by region names, with a solo lane, a region
 * filter and a metadata filter, in place and on a worker: the matches are
 * those of a scan of the lanes, in its order. */
static const struct {
	const char *fixture; /* or generated: */
	uint32_t ranks, threads, tasks;
	uint64_t events;
	bool pack;
} rows_profiles[] = {
	{"schema2_ties_zero_length.h5", 0, 0, 0, 0, false},
	{"threads_tasks.h5", 0, 0, 0, 0, false},
	{"lanes_rebuilt_exclusive.h5", 0, 0, 0, 0, false},
	{NULL, 3, 2, 2, 12000, true},
	{NULL, 2, 3, 0, 9000, false},
	{NULL, 4, 1, 0, 20000, true},
	/* Past 2^20 calls the list is merged in two halves
	 * (session_order.c). */
	{NULL, 4, 1, 0, 1200000, true},
};

START_TEST(test_search_rows_order)
{
	static const char *const searches[] = {".", "m", "k|s", "c", "zzz"};
	struct sv_profile *p;
	struct sv_session ss;
	struct sv_error err = {0, ""};
	char name[32], what[96];
	size_t k;
	int bg, big;

	snprintf(name, sizeof name, "rows%d.h5", _i);
	if (rows_profiles[_i].fixture) {
		char *path = svt_fixture(rows_profiles[_i].fixture);
		struct sv_load_opts lo;
		memset(&lo, 0, sizeof lo);
		p = NULL;
		ck_assert_msg(sv_load(path, &lo, &p, &err) == 0, "%s: %s", path,
			err.msg);
		free(path);
	} else {
		p = svt_gen_profile(name, rows_profiles[_i].ranks,
			rows_profiles[_i].threads, rows_profiles[_i].tasks,
			rows_profiles[_i].events, rows_profiles[_i].pack);
	}
	/* The big profile: one search of most calls, on a worker. */
	big = p->ncalls >= 1000000;
	for (bg = big; bg < 2; bg++) {
		ck_assert_int_eq(sv_session_init(&ss, p, NULL, &err), 0);
		ss.bg_calls = bg ? 1 : 0;
		for (k = 0;
			k < (big ? 1 : sizeof searches / sizeof searches[0]);
			k++) {
			snprintf(what, sizeof what, "%s, '%s', bg %d", name,
				searches[k], bg);
			ck_assert_int_eq(
				sv_session_set_search(&ss, searches[k], &err),
				0);
			wait_idle(&ss);
			same_as_lane_scan(&ss, what);
			sv_session_solo(&ss, (long)(p->nlanes / 2));
			wait_idle(&ss);
			same_as_lane_scan(&ss, what);
			sv_session_solo(&ss, -1);
			ck_assert_int_eq(
				sv_session_set_filter(&ss, "[a-m]"), 0);
			wait_idle(&ss);
			same_as_lane_scan(&ss, what);
			ck_assert_int_eq(sv_session_set_filter(&ss, ""), 0);
			wait_idle(&ss);
			same_as_lane_scan(&ss, what);
		}
		sv_session_fini(&ss);
	}
	sv_profile_free(p);
}
END_TEST

/* A row stored far from start order: more runs than a search keeps
 * (session_priv.h's SV_SESSION_RUNS_KEEP), so they are merged into its
 * list; the matches are still those of a scan, and so are the jumps'
 * figures. */
START_TEST(test_search_many_runs)
{
	enum { N = 10000 };
	struct sv_profile *p = sv_profile_new("mem");
	struct sv_session ss;
	struct sv_error err = {0, ""};
	struct sv_row *r;
	uint32_t i;

	/* given calls starting 10, 0, 30, 20, ...: a run of two each */
	p->has_calls = true;
	sv_profile_add_region(p, "k");
	r = sv_profile_add_row(p, 0, 0, N, NULL);
	ck_assert_ptr_nonnull(r);
	for (i = 0; i < N; i++) {
		int64_t at = 10 * (int64_t)(i ^ 1);
		p->start_ns[r->first + i] = at;
		p->end_ns[r->first + i] = at + 5;
	}
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	ck_assert_int_eq(sv_session_init(&ss, p, NULL, &err), 0);
	/* when searched for, in place and on a worker */
	ck_assert_int_eq(sv_session_set_search(&ss, "k", &err), 0);
	same_as_lane_scan(&ss, "many runs");
	ck_assert_uint_eq(sv_session_match_at(&ss, 0), r->first + 1);
	ss.bg_calls = 1;
	ck_assert_int_eq(sv_session_set_search(&ss, "^k$", &err), 0);
	wait_idle(&ss);
	same_as_lane_scan(&ss, "many runs, bg");
	sv_session_fini(&ss);
	sv_profile_free(p);
}
END_TEST

static Suite *suite(void)
{
	Suite *su = suite_create("session");
	TCase *tc;

	tc = tcase_create("setup");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_init_whole_run);
	tcase_add_test(tc, test_search_background);
	tcase_add_test(tc, test_lanes_keep_match_index);
	tcase_add_test(tc, test_init_degenerate);
	tcase_add_test(tc, test_set_profile);
	tcase_add_test(tc, test_set_profile_prepared);
	tcase_add_test(tc, test_set_profile_keeps_selection);
	tcase_add_test(tc, test_title_follows_subset);
	tcase_add_test(tc, test_second_run_parts);
	suite_add_tcase(su, tc);

	tc = tcase_create("lanes");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_solo_and_back);
	tcase_add_loop_test(tc, test_ranks, 0, sizeof ranks / sizeof ranks[0]);
	tcase_add_test(tc, test_ranks_bad_keeps_previous);
	tcase_add_test(tc, test_hidden_lane_drops_selection);
	suite_add_tcase(su, tc);

	tc = tcase_create("filter");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(
		tc, test_filter, 0, sizeof filters / sizeof filters[0]);
	tcase_add_test(tc, test_filter_bad_regex);
	tcase_add_test(tc, test_filter_background);
	tcase_add_test(tc, test_filter_background_reload);
	suite_add_tcase(su, tc);

	tc = tcase_create("search");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_search);
	tcase_add_test(tc, test_search_metadata);
	tcase_add_loop_test(tc, test_filter_metadata, 0, 2);
	tcase_add_test(tc, test_stats_span);
	tcase_add_test(tc, test_stats_span_background);
	tcase_add_test(tc, test_sorted_lists);
	tcase_add_loop_test(tc, test_has_match_most, 0, 4);
	tcase_add_test(tc, test_mark_default);
	tcase_add_test(tc, test_mark_region);
	tcase_add_test(tc, test_mark_background);
	suite_add_tcase(su, tc);

	tc = tcase_create("search rows");
	tcase_add_test(tc, test_search_many_runs);
	tcase_add_loop_test(tc, test_search_rows_order, 0,
		sizeof rows_profiles / sizeof rows_profiles[0]);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(su, tc);

	tc = tcase_create("notify");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(
		tc, test_notify_once, 0, sizeof ops / sizeof ops[0]);
	tcase_add_test(tc, test_notify_selection);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return svt_run(suite());
}
