/*
 * test_dist.c: the pieces of scopeview-mpi (dist.h) that one process can
 * check, in a job of one (MPI's singleton start, no mpirun): the shares of
 * the ranks (every rank owned once, contiguous blocks balanced by calls,
 * more processes than ranks), the distributed selection against a sort
 * (negative and extreme values, ties, more values than it gathers at
 * once), the agreed status, the gather, and the tree, time origin,
 * scaling sample and trend of a generated profile loaded split against
 * the serial ones (with a rank list and a range).  tests/e2e_mpi.sh runs the commands on 1,
 * 2 and 3 processes against scopeview.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/common.h"
#include "scopeview/dist.h"
#include "scopeview/gen.h"
#include "scopeview/load.h"
#include "scopeview/report.h"
#include "scopeview/tree.h"

/* A table of call counts per rank and the owner each rank must get. */
struct share_case {
	uint32_t nranks;
	uint64_t calls[8];
	int n;
	int owner[8];
};
static const struct share_case share_cases[] = {
	{4, {10, 10, 10, 10}, 1, {0, 0, 0, 0}},
	{4, {10, 10, 10, 10}, 2, {0, 0, 1, 1}},
	{4, {10, 10, 10, 10}, 4, {0, 1, 2, 3}},
	/* one heavy rank takes a process to itself */
	{4, {100, 1, 1, 1}, 2, {0, 1, 1, 1}},
	/* more processes than ranks: some hold none */
	{2, {5, 5}, 3, {0, 2}},
	{1, {7}, 3, {1}},
	/* ranks without calls (absent from the file) go by position */
	{3, {0, 0, 0}, 3, {0, 1, 2}},
	{5, {0, 40, 0, 40, 0}, 2, {0, 0, 1, 1, 1}},
};

START_TEST(test_dist_share_table)
{
	const struct share_case *c = &share_cases[_i];
	int k;
	uint32_t r;

	for (k = 0; k < c->n; k++) {
		bool *on = NULL;
		uint32_t n = 0;
		sv_dist_share(c->calls, c->nranks, k, c->n, &on, &n);
		ck_assert_uint_eq(n, c->nranks);
		for (r = 0; r < c->nranks; r++)
			ck_assert_msg(on[r] == (c->owner[r] == k),
				"case %d: rank %u on process %d: %d", _i,
				(unsigned)r, k, (int)on[r]);
		free(on);
	}
}
END_TEST

/* Random profiles: every rank on exactly one process, in contiguous
 * blocks in rank order, no process over its fair share by more than the
 * largest rank. */
START_TEST(test_dist_share_covers)
{
	uint64_t x = 0x243F6A8885A308D3ull + (uint64_t)_i;
	uint32_t nranks = 1 + (uint32_t)(_i * 37 % 300), r;
	int n = 1 + _i % 9, k, *owner;
	uint64_t *calls = sv_xcalloc(nranks, sizeof *calls), total = 0, big = 0;

	owner = sv_xcalloc(nranks, sizeof *owner);
	for (r = 0; r < nranks; r++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		calls[r] = x % 5 == 0 ? 0 : x % 100000;
		total += calls[r];
		if (calls[r] > big)
			big = calls[r];
		owner[r] = -1;
	}
	for (k = 0; k < n; k++) {
		bool *on;
		uint32_t m;
		uint64_t mine = 0;
		sv_dist_share(calls, nranks, k, n, &on, &m);
		for (r = 0; r < m; r++)
			if (on[r]) {
				ck_assert_int_eq(owner[r], -1);
				owner[r] = k;
				mine += calls[r];
			}
		ck_assert_uint_le(mine, total / (uint64_t)n + big);
		free(on);
	}
	for (r = 0; r < nranks; r++) {
		ck_assert_int_ge(owner[r], 0);
		if (r)
			ck_assert_int_ge(owner[r], owner[r - 1]);
	}
	free(owner);
	free(calls);
}
END_TEST

static int dist_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The selection finds the same order statistics as a sort: values of
 * several shapes and sizes (below and far above what it gathers). */
START_TEST(test_dist_select_matches_sort)
{
	static const size_t sizes[] = {1, 2, 17, 4096, 4097, 200000};
	size_t n = sizes[_i % 6], i, need[6], nneed = 0;
	int shape = _i / 6;
	int64_t *v = sv_xmalloc(n * sizeof *v), *sorted, val[6];
	uint64_t x = 0x9E3779B97F4A7C15ull;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		switch (shape) {
		case 0: /* durations */
			v[i] = (int64_t)(x % 1000000);
			break;
		case 1: /* few distinct values: ties */
			v[i] = (int64_t)(x % 3) * 1000;
			break;
		case 2: /* the whole int64 range, negative too */
			v[i] = (int64_t)x;
			break;
		default: /* the extremes */
			v[i] = x & 1 ? INT64_MAX : INT64_MIN;
			break;
		}
	}
	sorted = sv_xmalloc(n * sizeof *sorted);
	memcpy(sorted, v, n * sizeof *v);
	qsort(sorted, n, sizeof *sorted, dist_cmp);
	/* the ranks a p50, p95, p99 and the ends need, ascending */
	need[nneed++] = 0;
	if (n > 1) {
		need[nneed++] = n / 2;
		if (n * 95 / 100 > need[nneed - 1])
			need[nneed++] = n * 95 / 100;
		if (n * 99 / 100 > need[nneed - 1])
			need[nneed++] = n * 99 / 100;
		if (n - 1 > need[nneed - 1])
			need[nneed++] = n - 1;
	}
	memset(val, 0, sizeof val);
	sv_dist_select(v, n, n, need, nneed, val);
	for (i = 0; i < nneed; i++)
		ck_assert_msg(val[i] == sorted[need[i]],
			"n %zu shape %d rank %zu: %lld, want %lld", n, shape,
			need[i], (long long)val[i], (long long)sorted[need[i]]);
	free(sorted);
	free(v);
}
END_TEST

/* One process: the status agreed is its own, message and all. */
START_TEST(test_dist_agree_alone)
{
	struct sv_error err = {0};

	ck_assert_int_eq(sv_dist_agree(0, &err), 0);
	sv_error_set(&err, -EIO, "f.h5: /rank_region_index: cannot be read");
	ck_assert_int_eq(sv_dist_agree(-EIO, &err), -EIO);
	ck_assert_str_eq(err.msg, "f.h5: /rank_region_index: cannot be read");
	ck_assert_int_eq(sv_dist_rank(), 0);
	ck_assert_int_eq(sv_dist_size(), 1);
}
END_TEST

/* One process: a gather is its own items, starting at 0. */
START_TEST(test_dist_gather_alone)
{
	static const uint64_t mine[3] = {7, 8, 9};
	uint64_t *all = NULL;
	size_t nall = 0, *at = NULL;

	all = sv_dist_gather(mine, 3, sizeof *mine, &nall, &at);
	ck_assert_uint_eq(nall, 3);
	ck_assert_ptr_nonnull(at);
	ck_assert_uint_eq(at[0], 0);
	ck_assert_int_eq(memcmp(all, mine, sizeof mine), 0);
	free(all);
	free(at);
	all = sv_dist_gather(NULL, 0, sizeof *mine, &nall, NULL);
	ck_assert_uint_eq(nall, 0);
	free(all);
}
END_TEST

/* The tree's JSON (every figure) under o's origin. */
static char *dist_tree_json(const struct sv_callpath *t, int64_t origin)
{
	struct sv_tree_opts o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	memset(&o, 0, sizeof o);
	o.format = SV_TREE_JSON;
	o.file = "f.h5";
	o.origin = origin;
	ck_assert_int_eq(sv_tree_write(f, t, &o), 0);
	fclose(f);
	return buf;
}

/* A generated profile loaded split (a job of one: every rank is this
 * process's) gives the serial tree, origin and scaling sample, with and
 * without a rank list, a range and recursion expanded. */
START_TEST(test_dist_tree_and_scaling_alone)
{
	char *path = svt_tmp_path("dist_reports.h5");
	struct sv_gen_opts g;
	struct sv_load_opts lo;
	struct sv_dist_profile d;
	struct sv_profile *p;
	struct sv_error err = {0};
	struct sv_callpath_scope sc;
	struct sv_callpath ts, td;
	struct sv_scaling_opts so;
	struct sv_scaling_sample ss, sd;
	bool on[4] = {false, true, false, true};
	bool *lanes;
	char *a, *b;
	size_t i;

	sv_gen_opts_init(&g);
	g.events = 20000;
	g.ranks = 4;
	ck_assert_msg(
		sv_gen_write(path, &g, NULL, NULL, &err) == 0, "%s", err.msg);
	memset(&lo, 0, sizeof lo);
	if (_i) { /* ranks 1 and 3 */
		lo.rank_on = on;
		lo.nrank_on = 4;
	}
	ck_assert_msg(sv_load(path, &lo, &p, &err) == 0, "%s", err.msg);
	ck_assert_msg(sv_dist_load(path, &lo, &d, &err) == 0, "%s", err.msg);

	/* the time origin */
	ck_assert_int_eq(sv_dist_origin(&d), sv_profile_time_origin(p));

	/* the tree */
	memset(&sc, 0, sizeof sc);
	lanes = NULL;
	if (_i) {
		lanes = sv_xcalloc(p->nlanes + 1, sizeof *lanes);
		for (i = 0; i < p->nlanes; i++)
			lanes[i] = p->lanes[i].rank < 4 && on[p->lanes[i].rank];
	}
	sc.lane_on = lanes;
	sc.expand_recursion = _i;
	sc.has_range = true;
	sc.t0 = sv_profile_time_origin(p) + 1000000;
	sc.t1 = sc.t0 + 9000000;
	ck_assert_int_eq(sv_callpath_build(&ts, p, &sc, NULL), 0);
	ck_assert_int_eq(sv_dist_callpath(&td, &d, &sc, &err), 0);
	ck_assert(ts.nnodes > 5);
	a = dist_tree_json(&ts, 0);
	b = dist_tree_json(&td, 0);
	ck_assert_str_eq(b, a);
	free(a);
	free(b);
	sv_callpath_fini(&ts);
	sv_callpath_fini(&td);
	free(lanes);

	/* the scaling sample */
	memset(&so, 0, sizeof so);
	so.ranks = _i ? "1,3" : NULL;
	ck_assert_int_eq(sv_scaling_measure(&ss, p, path, &so, &err), 0);
	ck_assert_int_eq(sv_dist_measure(&sd, &d, path, &so, &err), 0);
	ck_assert_str_eq(sd.x_text, ss.x_text);
	ck_assert_str_eq(sd.label, ss.label);
	ck_assert_uint_eq(sd.nregions, ss.nregions);
	ck_assert(ss.nregions > 3);
	for (i = 0; i < ss.nregions; i++) {
		ck_assert_str_eq(sd.names[i], ss.names[i]);
		ck_assert_double_eq(sd.mean_ns[i], ss.mean_ns[i]);
	}
	sv_scaling_sample_fini(&ss);
	sv_scaling_sample_fini(&sd);

	/* a missing x field: the serial message */
	so.x_field = "nosuchkey";
	ck_assert_int_eq(sv_dist_measure(&sd, &d, path, &so, &err), -EINVAL);
	ck_assert(strstr(err.msg, "no metadata key 'nosuchkey'"));
	ck_assert_ptr_null(sd.file);

	sv_dist_profile_fini(&d);
	sv_profile_free(p);
	remove(path);
	free(path);
}
END_TEST

/* What a list of calls prints, as JSON. */
static char *dist_calls_json(const struct sv_report_call_list *l)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_int_eq(
		sv_report_call_list(f, l, "solve", "f.h5", SV_REPORT_JSON), 0);
	fclose(f);
	return buf;
}

/* A generated profile loaded split gives the serial call lists (every
 * sort key, a limit, a rank list) and histogram. */
START_TEST(test_dist_calls_alone)
{
	char *path = svt_tmp_path("dist_calls.h5");
	struct sv_gen_opts g;
	struct sv_load_opts lo;
	struct sv_dist_profile d;
	struct sv_profile *p;
	struct sv_error err = {0};
	struct sv_calls_query q;
	struct sv_report_call_list ls, ld;
	struct sv_hist hs, hd;
	bool on[4] = {true, false, true, true};
	uint32_t *calls = NULL;
	int64_t region;
	long n;
	char *a, *b;
	int k;

	sv_gen_opts_init(&g);
	g.events = 20000;
	g.ranks = 4;
	g.threads = 2;
	g.gpu = true;
	ck_assert_msg(
		sv_gen_write(path, &g, NULL, NULL, &err) == 0, "%s", err.msg);
	memset(&lo, 0, sizeof lo);
	if (_i) {
		lo.rank_on = on;
		lo.nrank_on = 4;
	}
	ck_assert_msg(sv_load(path, &lo, &p, &err) == 0, "%s", err.msg);
	ck_assert_msg(sv_dist_load(path, &lo, &d, &err) == 0, "%s", err.msg);
	memset(&q, 0, sizeof q);
	q.region = "solve";
	q.rank_on = lo.rank_on;
	q.nrank_on = lo.nrank_on;
	q.limit = _i ? 77 : -1;
	for (k = 0; k < SV_CALLS_KEY_COUNT; k++) {
		q.key = (enum sv_calls_key)k;
		q.reverse = k % 2;
		n = sv_calls_pick(p, &q, &calls);
		ck_assert(n > 10);
		sv_report_call_list_of(&ls, p, calls, (size_t)n);
		ck_assert_int_eq(sv_dist_calls(&ld, &d, &q, &err), 0);
		ck_assert_uint_eq(ld.n, ls.n);
		a = dist_calls_json(&ls);
		b = dist_calls_json(&ld);
		ck_assert_str_eq(b, a);
		free(a);
		free(b);
		ld.fini(&ld);
		free(calls);
	}

	region = sv_profile_find_region(p, "solve");
	ck_assert(region >= 0);
	n = sv_calls_of_region(
		p, (uint32_t)region, lo.rank_on, lo.nrank_on, &calls, NULL);
	ck_assert_int_eq(
		sv_hist_build(&hs, p, calls, (size_t)n, 17, NULL, NULL), 0);
	ck_assert_int_eq(sv_dist_hist(&hd, &d, &q, 17, &err), 0);
	ck_assert_uint_eq(hd.nbins, hs.nbins);
	ck_assert_uint_eq(hd.ncalls, hs.ncalls);
	ck_assert_uint_eq(hd.nzero, hs.nzero);
	ck_assert_mem_eq(hd.edges, hs.edges, (hs.nbins + 1) * sizeof *hs.edges);
	ck_assert_mem_eq(hd.counts, hs.counts, hs.nbins * sizeof *hs.counts);
	sv_hist_fini(&hs);
	sv_hist_fini(&hd);
	free(calls);

	/* a region the file lacks: an empty list */
	q.region = "nosuch";
	ck_assert_int_eq(sv_dist_calls(&ld, &d, &q, &err), 0);
	ck_assert_uint_eq(ld.n, 0);
	ld.fini(&ld);

	sv_dist_profile_fini(&d);
	sv_profile_free(p);
	remove(path);
	free(path);
}
END_TEST

/* A region's trend over a profile loaded split (a job of one) is the
 * serial one, figure for figure: every rank, a rank list, the exclusive
 * metric in blocks of 3 values (one iteration a block); no per-rank
 * series on process 0, and a missing region refused. */
START_TEST(test_dist_trend_alone)
{
	char *path = svt_tmp_path("dist_trend.h5");
	struct sv_gen_opts g;
	struct sv_load_opts lo;
	struct sv_trend_opts to;
	struct sv_dist_profile d;
	struct sv_profile *p;
	struct sv_error err = {0};
	struct sv_trend ts, td;
	bool on[4] = {false, true, true, false};
	int64_t r;
	size_t k;

	sv_gen_opts_init(&g);
	g.events = 30000;
	g.ranks = 4;
	g.slowdown = true;
	g.slowdown_rank = 2;
	g.slowdown_step = 30;
	g.slowdown_factor = 1.5;
	ck_assert_msg(
		sv_gen_write(path, &g, NULL, NULL, &err) == 0, "%s", err.msg);
	memset(&lo, 0, sizeof lo);
	memset(&to, 0, sizeof to);
	if (_i) { /* ranks 1 and 2 */
		lo.rank_on = to.rank_on = on;
		lo.nrank_on = to.nrank_on = 4;
	}
	if (_i == 2) {
		to.metric = SV_TREND_EXCLUSIVE;
		setenv("SCOPEVIEW_MPI_TREND_BLOCK", "3", 1);
	}
	ck_assert_msg(sv_load(path, &lo, &p, &err) == 0, "%s", err.msg);
	ck_assert_msg(sv_dist_load(path, &lo, &d, &err) == 0, "%s", err.msg);
	r = sv_profile_find_region(p, "timestep");
	ck_assert_int_ge(r, 0);
	ck_assert_int_eq(sv_trend_compute(&ts, p, (uint32_t)r, &to, &err), 0);
	ck_assert_msg(sv_dist_trend(&td, &d, "timestep", &to, &err) == 0, "%s",
		err.msg);
	unsetenv("SCOPEVIEW_MPI_TREND_BLOCK");
	ck_assert_str_eq(d.whole->regions[td.region], "timestep");
	ck_assert_int_eq(td.metric, ts.metric);
	ck_assert_uint_eq(td.nranks, _i ? 2 : 4);
	ck_assert_uint_eq(td.nranks, ts.nranks);
	ck_assert_uint_eq(td.npoints, ts.npoints);
	ck_assert_uint_gt(ts.npoints, 50);
	for (k = 0; k < ts.npoints; k++) {
		ck_assert_uint_eq(td.points[k].count, ts.points[k].count);
		ck_assert_int_eq(td.points[k].min_ns, ts.points[k].min_ns);
		ck_assert_int_eq(td.points[k].max_ns, ts.points[k].max_ns);
		ck_assert(td.points[k].median_ns == ts.points[k].median_ns);
		ck_assert_uint_eq(td.points[k].max_rank, ts.points[k].max_rank);
		ck_assert_uint_eq(td.points[k].max_call, SV_NO_CALL);
	}
	ck_assert_uint_eq(td.nchanges, ts.nchanges);
	ck_assert_uint_ge(ts.nchanges, 1);
	ck_assert(!memcmp(
		td.changes, ts.changes, ts.nchanges * sizeof *ts.changes));
	ck_assert(!memcmp(
		&td.drift_pct_per_100, &ts.drift_pct_per_100, sizeof(double)));
	ck_assert(!memcmp(&td.jitter_pct, &ts.jitter_pct, sizeof(double)));
	ck_assert_ptr_null(td.ranks);
	ck_assert_ptr_null(td.calls);
	sv_trend_fini(&ts);
	sv_trend_fini(&td);

	ck_assert_int_eq(sv_dist_trend(&td, &d, "nosuch", &to, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "no region named nosuch");

	sv_dist_profile_fini(&d);
	sv_profile_free(p);
	remove(path);
	free(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("dist");
	TCase *t = tcase_create("dist");
	tcase_add_loop_test(t, test_dist_share_table, 0,
		(int)(sizeof share_cases / sizeof share_cases[0]));
	tcase_add_loop_test(t, test_dist_share_covers, 0, 40);
	tcase_add_loop_test(t, test_dist_select_matches_sort, 0, 24);
	tcase_add_test(t, test_dist_agree_alone);
	tcase_add_test(t, test_dist_gather_alone);
	tcase_add_loop_test(t, test_dist_tree_and_scaling_alone, 0, 2);
	tcase_add_loop_test(t, test_dist_calls_alone, 0, 2);
	tcase_add_loop_test(t, test_dist_trend_alone, 0, 3);
	suite_add_tcase(s, t);
	return s;
}

int main(int argc, char **argv)
{
	int rc;

	/* MPI starts once per process: the tests run in this one. */
	setenv("CK_FORK", "no", 1);
	if (sv_dist_init(&argc, &argv) < 0)
		return 99;
	rc = svt_run(suite());
	sv_dist_end();
	return rc;
}
