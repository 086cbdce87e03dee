/*
 * test_session.c: the state every view shares (session.h) keeps its
 * derived parts in step: the lanes hidden by the solo lane and the ranks,
 * the region filter and its index, the statistics of the lanes shown, the
 * search and marked-region lists, the selection; and every change is told
 * to the notify hook once, with the right bits.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
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
	ck_assert(s.stats_valid);
	for (i = 0; i < s.stats.nregions; i++)
		if (!strcmp(s.stats.regions[i].name, name))
			return &s.stats.regions[i];
	return NULL;
}

static uint32_t region(const char *name)
{
	int64_t r = sv_profile_find_region(s.p, name);
	ck_assert_int_ge(r, 0);
	return (uint32_t)r;
}

/* ---- set-up ---------------------------------------------------------- */

START_TEST(test_init_whole_run)
{
	size_t l;

	/* given a fresh session: nothing selected, every lane shown, the
	 * whole run's statistics */
	ck_assert_uint_eq(s.sel, SV_NO_CALL);
	ck_assert_int_eq(s.mark_region, -1);
	ck_assert_int_eq(s.solo_lane, -1);
	ck_assert_ptr_null(s.rank_on);
	ck_assert_ptr_null(s.region_keep);
	ck_assert_int_eq(s.run_t0, 0);
	ck_assert_int_eq(s.run_t1, 1200);
	ck_assert_str_eq(s.title, "test.h5");
	for (l = 0; l < prof->nlanes; l++) {
		ck_assert(!s.lane_hidden[l]);
		ck_assert(s.lane_on[l]);
	}
	ck_assert(s.stats_is_all);
	ck_assert_uint_eq(s.stats.nregions, 5);
	ck_assert_uint_eq(s.index.ncalls, NCALLS);
	ck_assert_int_eq(stats_of("main")->s.total_ns, 2200);
}
END_TEST

START_TEST(test_init_degenerate)
{
	struct sv_session t;
	struct sv_error err = {0};
	struct sv_profile *empty = vt_profile(NULL, 0, 0);
	struct sv_session_opts o = {true, true, "run A"};

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
	ck_assert(t.stats_valid);
	ck_assert_uint_eq(t.stats.nregions, 0);
	ck_assert_uint_eq(t.index.ncalls, 0);
	ck_assert_int_eq(sv_session_set_search(&t, "x", &err), 0);
	ck_assert_uint_eq(t.nmatches, 0);
	ck_assert_int_eq(sv_session_set_filter(&t, "x"), 0);
	ck_assert_int_eq(sv_session_set_ranks(&t, "0"), 0);
	sv_session_mark_region(&t, -1);
	ck_assert_uint_eq(t.nmarked, 0);
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
	const struct sv_stats_region *all_regions = s.stats.regions;

	/* when rank 1's lane is soloed */
	sv_session_solo(&s, (long)r1);

	/* then it is the only lane on, and the statistics are its own */
	for (l = 0; l < prof->nlanes; l++) {
		ck_assert(s.lane_hidden[l] == (l != r1));
		ck_assert(s.lane_on[l] == (l == r1));
		ck_assert(sv_session_lane_shown(&s, l) == (l == r1));
	}
	ck_assert(!s.stats_is_all);
	ck_assert_uint_eq(s.stats.nregions, 1);
	ck_assert_str_eq(s.stats.regions[0].name, "main");
	ck_assert_uint_eq(s.stats.regions[0].s.num_calls, 1);
	ck_assert_int_eq(s.stats.regions[0].s.total_ns, 1200);
	ck_assert_int_eq(heard.n, 1);
	ck_assert_uint_eq(heard.last, SV_SESSION_LANES);

	/* when un-soloed: every lane again, and the whole run's table is
	 * the one kept aside (not a new one) */
	sv_session_solo(&s, -1);
	for (l = 0; l < prof->nlanes; l++)
		ck_assert(!s.lane_hidden[l] && s.lane_on[l]);
	ck_assert(s.stats_is_all);
	ck_assert_ptr_eq(s.stats.regions, all_regions);
	ck_assert_uint_eq(s.stats.nregions, 5);
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
		ck_assert(s.stats_is_all == (ranks[_i].rank_spec[0] == '\0'));
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
	uint32_t c0 = call_of(prof, "child", 600), c1 = call_of(prof, "main", 0);

	/* given a call of rank 0 selected: hiding rank 1 keeps it */
	if (prof->lanes[prof->lane_of[c1]].rank != 1)
		c1 = call_of(prof, "main", 0) + 1;
	ck_assert_uint_eq(prof->lanes[prof->lane_of[c1]].rank, 1);
	s.sel = c0;
	ck_assert_int_eq(sv_session_set_ranks(&s, "0"), 0);
	ck_assert_uint_eq(s.sel, c0);

	/* given a call of rank 1 selected: hiding its lane drops it */
	ck_assert_int_eq(sv_session_set_ranks(&s, ""), 0);
	s.sel = c1;
	sv_session_solo(&s, (long)prof->lane_of[c0]);
	ck_assert_uint_eq(s.sel, SV_NO_CALL);

	/* and a filter that drops the selected call's region drops it */
	sv_session_solo(&s, -1);
	s.sel = c0;
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

START_TEST(test_filter)
{
	char kept[128] = "";
	uint32_t r;

	/* when the filter is set */
	ck_assert_int_eq(sv_session_set_filter(&s, filters[_i].spec), 0);

	/* then region_keep, the index and the statistics follow it */
	for (r = 0; r < prof->nregions; r++)
		if (sv_session_keeps(&s, call_of(prof, prof->regions[r],
						 r == 0 ? 0 : -999)) ||
			true) {
			bool keep = !s.region_keep || s.region_keep[r];
			if (keep)
				snprintf(kept + strlen(kept),
					sizeof kept - strlen(kept), "%s%s",
					kept[0] ? " " : "", prof->regions[r]);
		}
	ck_assert_str_eq(kept, filters[_i].kept);
	ck_assert_uint_eq(s.index.ncalls, filters[_i].ncalls);
	ck_assert_str_eq(s.filter_spec, filters[_i].spec);
	ck_assert_int_eq(heard.n, 1);
	ck_assert_uint_eq(heard.last, SV_SESSION_FILTER | SV_SESSION_LANES);
	ck_assert(!s.message_is_error);
}
END_TEST
