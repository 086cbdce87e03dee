/*
 * test_trend.c: a region iteration by iteration (trend.h) on profiles
 * built in memory, every figure worked out by hand: ranks with series of
 * different lengths, ties for the slowest rank, calls stored out of start
 * order, the exclusive metric, a rank selection; change points (a level
 * shift with a spike just before it, a step in a series without noise)
 * and none (steady noise with periodic spikes, a shift under the minimum,
 * a series too short); drift and jitter; the errors, stop and progress;
 * values near the ends of int64; on runs `scopeview gen --slowdown`
 * writes, the change point at the iteration and rank it was put; and the
 * parts scopeview-mpi puts together (sv_trend_series, sv_trend_point_of,
 * sv_trend_finish) giving every figure of the whole.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/gen.h"
#include "scopeview/load.h"
#include "scopeview/profile.h"
#include "scopeview/trend.h"

#define ck_near(a, b)                                            \
	ck_assert_msg(fabs((double)(a) - (double)(b)) <=         \
			      1e-12 * fabs((double)(b)) + 1e-12, \
		"%.17g != %.17g", (double)(a), (double)(b))

/* One row of region name on rank: calls starting at start[k] lasting
 * dur[k] (NULL starts: 1 ms apart, in order). */
static struct sv_row *add(struct sv_profile *p, uint32_t rank, const char *name,
	const int64_t *start, const int64_t *dur, size_t n)
{
	int64_t reg = sv_profile_find_region(p, name);
	struct sv_row *r;
	size_t k;

	if (reg < 0)
		reg = sv_profile_add_region(p, name);
	r = sv_profile_add_row(p, rank, (uint32_t)reg, n, NULL);
	ck_assert_ptr_nonnull(r);
	for (k = 0; k < n; k++) {
		int64_t t0 = start ? start[k] : 1000000 * (int64_t)(k + 1);
		p->start_ns[r->first + k] = t0;
		p->end_ns[r->first + k] = t0 + dur[k];
	}
	return r;
}

#define ADD(p, rank, name, ...)                                         \
	do {                                                            \
		static const int64_t d_[] = {__VA_ARGS__};              \
		add(p, rank, name, NULL, d_, sizeof d_ / sizeof d_[0]); \
	} while (0)

static void finish(struct sv_profile *p)
{
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
}

static void trend(struct sv_trend *t, const struct sv_profile *p,
	const char *region, const struct sv_trend_opts *o)
{
	struct sv_error err = {0};
	int64_t r = sv_profile_find_region(p, region);
	ck_assert_int_ge(r, 0);
	ck_assert_msg(sv_trend_compute(t, p, (uint32_t)r, o, &err) == 0, "%s",
		err.msg);
}

START_TEST(points_by_hand)
{
	/* given three ranks with 3, 2 and 4 calls; then each iteration has
	 * the ranks that reach it, numpy's median, the lowest rank of a
	 * tied max */
	struct sv_profile *p = sv_profile_new("p.h5");
	struct sv_row *r0;
	struct sv_trend t;

	ADD(p, 2, "step", 10, 25, 40, 50);
	r0 = add(p, 0, "step", NULL, (const int64_t[]){12, 20, 30}, 3);
	ADD(p, 1, "step", 12, 18);
	ADD(p, 1, "other", 99);
	finish(p);
	trend(&t, p, "step", NULL);
	ck_assert_uint_eq(t.nranks, 3);
	ck_assert_uint_eq(t.ranks[0], 0);
	ck_assert_uint_eq(t.ranks[1], 1);
	ck_assert_uint_eq(t.ranks[2], 2);
	ck_assert_uint_eq(t.off[0], 0);
	ck_assert_uint_eq(t.off[1], 3);
	ck_assert_uint_eq(t.off[2], 5);
	ck_assert_uint_eq(t.off[3], 9);
	ck_assert_uint_eq(t.calls[0], r0->first);
	ck_assert_uint_eq(t.npoints, 4);
	/* {12, 12, 10} */
	ck_assert_uint_eq(t.points[0].count, 3);
	ck_assert_int_eq(t.points[0].min_ns, 10);
	ck_assert_double_eq(t.points[0].median_ns, 12);
	ck_assert_int_eq(t.points[0].max_ns, 12);
	ck_assert_uint_eq(t.points[0].max_rank, 0);
	ck_assert_uint_eq(t.points[0].max_call, r0->first);
	/* {20, 18, 25} */
	ck_assert_int_eq(t.points[1].min_ns, 18);
	ck_assert_double_eq(t.points[1].median_ns, 20);
	ck_assert_uint_eq(t.points[1].max_rank, 2);
	/* {30, 40}: two ranks, the mean of the middle two */
	ck_assert_uint_eq(t.points[2].count, 2);
	ck_assert_double_eq(t.points[2].median_ns, 35);
	ck_assert_int_eq(t.points[2].max_ns, 40);
	/* {50} */
	ck_assert_uint_eq(t.points[3].count, 1);
	ck_assert_double_eq(t.points[3].median_ns, 50);
	ck_assert_uint_eq(t.points[3].max_rank, 2);
	ck_assert_uint_eq(t.nchanges, 0);
	ck_assert_int_eq(sv_trend_value(&t, p, t.calls[5]), 10);
	sv_trend_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(start_order_and_ranks)
{
	/* given calls stored out of start order (two with the same start)
	 * and a rank selection; then each rank's calls are in start order,
	 * ties in call-number order, and only the ranks asked for count */
	struct sv_profile *p = sv_profile_new("o.h5");
	bool on[3] = {true, false, true};
	struct sv_trend_opts o;
	struct sv_row *r;
	struct sv_trend t;

	r = add(p, 0, "step", (const int64_t[]){300, 100, 500, 100},
		(const int64_t[]){3, 1, 5, 2}, 4);
	ADD(p, 1, "step", 1000);
	ADD(p, 2, "step", 7, 8);
	finish(p);
	memset(&o, 0, sizeof o);
	o.rank_on = on;
	o.nrank_on = 3;
	trend(&t, p, "step", &o);
	ck_assert_uint_eq(t.nranks, 2);
	ck_assert_uint_eq(t.ranks[1], 2);
	ck_assert_uint_eq(t.calls[0], r->first + 1);
	ck_assert_uint_eq(t.calls[1], r->first + 3);
	ck_assert_uint_eq(t.calls[2], r->first + 0);
	ck_assert_uint_eq(t.calls[3], r->first + 2);
	ck_assert_int_eq(t.points[0].max_ns, 7);
	ck_assert_uint_eq(t.points[0].max_rank, 2);
	ck_assert_int_eq(t.points[1].min_ns, 2);
	ck_assert_int_eq(t.points[3].max_ns, 5);
	ck_assert_uint_eq(t.points[3].count, 1);
	sv_trend_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(exclusive_metric)
{
	/* outer calls of 100 ns with an inner call of 30: exclusive 70 */
	struct sv_profile *p = sv_profile_new("x.h5");
	struct sv_trend_opts o;
	struct sv_trend t;

	add(p, 0, "outer", (const int64_t[]){1000, 2000},
		(const int64_t[]){100, 100}, 2);
	add(p, 0, "inner", (const int64_t[]){1010, 2010},
		(const int64_t[]){30, 30}, 2);
	finish(p);
	memset(&o, 0, sizeof o);
	o.metric = SV_TREND_EXCLUSIVE;
	trend(&t, p, "outer", &o);
	ck_assert_int_eq(t.points[0].min_ns, 70);
	ck_assert_double_eq(t.points[1].median_ns, 70);
	ck_assert_int_eq(sv_trend_value(&t, p, t.calls[0]), 70);
	sv_trend_fini(&t);
	o.metric = SV_TREND_DURATION;
	trend(&t, p, "outer", &o);
	ck_assert_int_eq(t.points[0].min_ns, 100);
	sv_trend_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* A series of n values: level a, on level b for iterations [at, to), a
 * deterministic ripple of +-amp, and every tenth iteration (9, 19, ...)
 * spike more. */
static int64_t *series(size_t n, int64_t a, int64_t b, size_t at, size_t to,
	int64_t amp, int64_t spike)
{
	int64_t *d = sv_xcalloc(n, sizeof *d);
	size_t k;

	for (k = 0; k < n; k++) {
		int64_t ripple = amp ? (int64_t)((k * 37 + 11) % 23) - 11 : 0;
		d[k] = (k >= at && k < to ? b : a) + ripple * amp / 11 +
		       (k % 10 == 9 ? spike : 0);
	}
	return d;
}

static double mean_of(const int64_t *d, size_t a, size_t b)
{
	long double s = 0;
	size_t k;
	for (k = a; k < b; k++)
		s += (long double)d[k];
	return (double)(s / (long double)(b - a));
}

START_TEST(change_point_by_hand)
{
	/* given rank 1 40% slower from iteration 300 on, a spike at 299
	 * and every tenth iteration, rank 0 steady; then one change point,
	 * at 300 on rank 1, with the means of the two segments */
	struct sv_profile *p = sv_profile_new("c.h5");
	int64_t *steady = series(400, 100000, 100000, 0, 0, 2000, 60000);
	int64_t *slow = series(400, 100000, 140000, 300, 400, 2000, 60000);
	struct sv_trend t;

	add(p, 0, "step", NULL, steady, 400);
	add(p, 1, "step", NULL, slow, 400);
	finish(p);
	trend(&t, p, "step", NULL);
	ck_assert_uint_eq(t.npoints, 400);
	ck_assert_uint_eq(t.nchanges, 1);
	ck_assert_uint_eq(t.changes[0].index, 300);
	ck_assert_uint_eq(t.changes[0].rank, 1);
	ck_near(t.changes[0].before_ns, mean_of(slow, 0, 300));
	ck_near(t.changes[0].after_ns, mean_of(slow, 300, 400));
	sv_trend_fini(&t);
	sv_profile_free(p);
	free(steady);
	free(slow);
}
END_TEST

START_TEST(steps_without_noise)
{
	/* a constant series with a step at 50 and back at 120: T is
	 * infinite at each, both found, by iteration */
	struct sv_profile *p = sv_profile_new("s.h5");
	int64_t d[200];
	struct sv_trend t;
	size_t k;

	for (k = 0; k < 200; k++)
		d[k] = k >= 50 && k < 120 ? 500 : 400;
	add(p, 3, "step", NULL, d, 200);
	finish(p);
	trend(&t, p, "step", NULL);
	ck_assert_uint_eq(t.nchanges, 2);
	ck_assert_uint_eq(t.changes[0].index, 50);
	ck_assert_uint_eq(t.changes[0].rank, 3);
	ck_assert_double_eq(t.changes[0].before_ns, 400);
	ck_assert_double_eq(t.changes[0].after_ns, 500);
	ck_assert_uint_eq(t.changes[1].index, 120);
	ck_assert_double_eq(t.changes[1].before_ns, 500);
	ck_assert_double_eq(t.changes[1].after_ns, 400);
	ck_assert_double_eq(t.jitter_pct, 0);
	sv_trend_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* No change point in a series, as the table's rows say. */
struct quiet_case {
	const char *what;
	size_t n;
	int64_t a, b, amp, spike;
	size_t at, to;
};

static const struct quiet_case quiet_cases[] = {
	{"steady, ripple and spikes", 2000, 100000, 100000, 3000, 80000, 0, 0},
	{"constant", 500, 777, 777, 0, 0, 0, 0},
	{"a 3% shift, no noise", 400, 100000, 103000, 0, 0, 200, 400},
	{"a 40% shift, too short", 19, 100000, 140000, 0, 0, 10, 19},
	{"a 40% blip of 5 iterations", 400, 100000, 140000, 0, 0, 200, 205},
	{"constant with spikes", 300, 5000, 5000, 0, 9000, 0, 0},
};

START_TEST(no_change_points)
{
	const struct quiet_case *c = &quiet_cases[_i];
	struct sv_profile *p = sv_profile_new("q.h5");
	int64_t *d = series(c->n, c->a, c->b, c->at, c->to, c->amp, c->spike);
	struct sv_trend t;

	add(p, 0, "step", NULL, d, c->n);
	finish(p);
	trend(&t, p, "step", NULL);
	ck_assert_msg(t.nchanges == 0, "%s: %zu change points, the first at %u",
		c->what, t.nchanges, t.nchanges ? t.changes[0].index : 0);
	sv_trend_fini(&t);
	sv_profile_free(p);
	free(d);
}
END_TEST

START_TEST(drift_and_jitter)
{
	/* medians 100, 101, ... 110: slope 1 a step, mean 105; the median
	 * 105 and the absolute deviations 5 4 3 2 1 0 1 2 3 4 5, whose
	 * median is 3 */
	struct sv_profile *p = sv_profile_new("d.h5");
	int64_t d[11];
	struct sv_trend t;
	size_t k;

	for (k = 0; k < 11; k++)
		d[k] = 100 + (int64_t)k;
	add(p, 0, "step", NULL, d, 11);
	ADD(p, 0, "zero", 0, 0, 0);
	ADD(p, 0, "once", 5);
	finish(p);
	trend(&t, p, "step", NULL);
	ck_near(t.drift_pct_per_100, 1.0 / 105 * 100 * 100);
	ck_near(t.jitter_pct, 3.0 / 105 * 100);
	sv_trend_fini(&t);
	/* medians of 0: neither is defined */
	trend(&t, p, "zero", NULL);
	ck_assert(isnan(t.drift_pct_per_100));
	ck_assert(isnan(t.jitter_pct));
	sv_trend_fini(&t);
	/* one iteration: no slope, a jitter of 0 */
	trend(&t, p, "once", NULL);
	ck_assert(isnan(t.drift_pct_per_100));
	ck_assert_double_eq(t.jitter_pct, 0);
	sv_trend_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(errors_stop_and_progress)
{
	struct sv_profile *p = sv_profile_new("e.h5"), *idx;
	struct sv_trend_opts o;
	struct sv_trend t;
	struct sv_error err = {0};
	atomic_bool stop = true;
	_Atomic uint64_t done = 0;
	int64_t *d = series(10000, 1000, 1000, 0, 0, 100, 0);

	add(p, 0, "step", NULL, d, 10000);
	add(p, 1, "step", NULL, d, 5000);
	ADD(p, 1, "never", 1);
	finish(p);
	memset(&o, 0, sizeof o);
	ck_assert_int_eq(sv_trend_compute(&t, p, 9, &o, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "out of range"));
	ck_assert_int_eq(sv_trend_compute(NULL, p, 0, &o, &err), -EINVAL);
	ck_assert_int_eq(sv_trend_compute(&t, NULL, 0, &o, &err), -EINVAL);
	/* stopped */
	o.cancel = &stop;
	ck_assert_int_eq(sv_trend_compute(&t, p, 0, &o, &err), -ECANCELED);
	/* the progress reaches the calls taken */
	stop = false;
	o.progress = &done;
	ck_assert_int_eq(sv_trend_compute(&t, p, 0, &o, &err), 0);
	ck_assert_uint_eq(done, 15000);
	sv_trend_fini(&t);
	/* a region with no call on the ranks taken: empty */
	o.rank_on = (const bool[]){true};
	o.nrank_on = 1;
	ck_assert_int_eq(sv_trend_compute(&t, p, 1, &o, &err), 0);
	ck_assert_uint_eq(t.nranks, 0);
	ck_assert_uint_eq(t.npoints, 0);
	ck_assert(isnan(t.jitter_pct));
	sv_trend_fini(&t);
	sv_trend_fini(&t);
	sv_trend_fini(NULL);

	/* a profile without calls */
	idx = sv_profile_new("index.h5");
	idx->has_calls = false;
	sv_profile_add_region(idx, "step");
	sv_profile_add_row(idx, 0, 0, 10, NULL);
	finish(idx);
	ck_assert_int_eq(sv_trend_compute(&t, idx, 0, NULL, &err), -EINVAL);
	ck_assert_str_eq(err.msg,
		"index.h5 holds no per-call data: no iterations to follow");
	sv_profile_free(idx);
	sv_profile_free(p);
	free(d);
}
END_TEST

START_TEST(int64_extremes)
{
	/* durations near INT64_MAX, negative ones and a step between huge
	 * levels: figures without overflow (UBSan) */
	struct sv_profile *p = sv_profile_new("big.h5");
	int64_t d[60];
	struct sv_trend t;
	size_t k;

	for (k = 0; k < 60; k++)
		d[k] = k < 30 ? INT64_MAX / 4 : INT64_MAX / 2;
	add(p, 0, "step", (const int64_t[]){0, 0},
		(const int64_t[]){INT64_MAX - 1, INT64_MAX - 1}, 2);
	add(p, 1, "step", (const int64_t[]){INT64_MAX, 10},
		(const int64_t[]){-100, 0}, 2);
	add(p, 2, "huge", NULL, d, 60);
	finish(p);
	trend(&t, p, "step", NULL);
	ck_assert_int_eq(t.points[0].max_ns, INT64_MAX - 1);
	ck_assert_uint_eq(t.points[0].max_rank, 0);
	ck_near(t.points[0].median_ns, ((double)(INT64_MAX - 1) + 0.0) / 2);
	sv_trend_fini(&t);
	trend(&t, p, "huge", NULL);
	ck_assert_uint_eq(t.nchanges, 1);
	ck_assert_uint_eq(t.changes[0].index, 30);
	ck_near(t.changes[0].after_ns, (double)(INT64_MAX / 2));
	sv_trend_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* The done-when run: gen's rank 2 slowed down by 40% from timestep 300;
 * and the same run without it. */
START_TEST(generated_slowdown)
{
	struct sv_profile *p;
	struct sv_gen_opts o;
	struct sv_trend t;
	struct sv_error err = {0};
	char *path;
	int k;

	for (k = 0; k < 2; k++) {
		path = svt_tmp_path(k ? "steady.h5" : "slowdown.h5");
		sv_gen_opts_init(&o);
		o.events = 120000;
		o.seed = 5;
		if (!k) {
			o.slowdown = true;
			o.slowdown_rank = 2;
			o.slowdown_step = 300;
			o.slowdown_factor = 1.4;
		}
		ck_assert_msg(sv_gen_write(path, &o, NULL, NULL, &err) == 0,
			"%s", err.msg);
		ck_assert_msg(
			sv_load(path, NULL, &p, &err) == 0, "%s", err.msg);
		trend(&t, p, "timestep", NULL);
		ck_assert_uint_eq(t.nranks, 4);
		ck_assert_uint_gt(t.npoints, 400);
		if (!k) {
			ck_assert_uint_eq(t.nchanges, 1);
			ck_assert_uint_eq(t.changes[0].index, 300);
			ck_assert_uint_eq(t.changes[0].rank, 2);
			ck_assert(
				t.changes[0].after_ns / t.changes[0].before_ns >
					1.3 &&
				t.changes[0].after_ns / t.changes[0].before_ns <
					1.5);
			ck_assert_uint_eq(t.points[310].max_rank, 2);
		} else {
			ck_assert_uint_eq(t.nchanges, 0);
		}
		sv_trend_fini(&t);
		sv_profile_free(p);
		free(path);
	}
}
END_TEST

/* sv_trend_compute of region in p put together from its parts over the
 * ranks cut into ngroups contiguous blocks, as scopeview-mpi's processes
 * hold them: each block's series and change points (sv_trend_series),
 * each iteration's point from every block's values, the blocks taken
 * last first (sv_trend_point_of), the change points sorted, and the
 * drift and jitter (sv_trend_finish); every figure must be the same. */
static void check_parts(const struct sv_profile *p, const char *region,
	enum sv_trend_metric metric, uint32_t ngroups)
{
	struct sv_trend_opts o = {.metric = metric};
	struct sv_trend whole, part[8], made;
	struct sv_error err = {0};
	int64_t *v[8], *val = NULL, r = sv_profile_find_region(p, region);
	uint32_t nr = 0, g, *rank = NULL;
	bool on[8][64];
	double *scratch = NULL;
	size_t k, i, m, cap = 0;

	ck_assert_int_ge(r, 0);
	for (i = 0; i < p->nrows; i++)
		nr = p->rows[i].rank >= nr ? p->rows[i].rank + 1 : nr;
	ck_assert_uint_le(ngroups, 8);
	ck_assert_uint_le(nr, 64);
	trend(&whole, p, region, &o);
	memset(&made, 0, sizeof made);
	memset(on, 0, sizeof on);
	for (g = 0; g < ngroups; g++) {
		struct sv_trend_opts go = o;
		for (i = 0; i < nr; i++)
			on[g][i] = i * ngroups / nr == g;
		go.rank_on = on[g];
		go.nrank_on = nr;
		ck_assert_msg(sv_trend_series(&part[g], p, (uint32_t)r, &go,
				      &v[g], &err) == 0,
			"%s", err.msg);
		ck_assert_uint_eq(part[g].npoints, 0);
		made.nranks += part[g].nranks;
		for (i = 0; i < part[g].nranks; i++) {
			m = part[g].off[i + 1] - part[g].off[i];
			made.npoints = m > made.npoints ? m : made.npoints;
		}
		for (i = 0; i < part[g].nchanges; i++) {
			sv_grow((void **)&made.changes, &cap, made.nchanges + 1,
				sizeof *made.changes);
			made.changes[made.nchanges++] = part[g].changes[i];
		}
	}
	made.points = sv_xcalloc(made.npoints + 1, sizeof *made.points);
	val = sv_xcalloc(made.nranks + 1, sizeof *val);
	rank = sv_xcalloc(made.nranks + 1, sizeof *rank);
	scratch = sv_xcalloc(made.nranks + 1, sizeof *scratch);
	for (k = 0; k < made.npoints; k++) {
		for (m = 0, g = ngroups; g-- > 0;)
			for (i = 0; i < part[g].nranks; i++)
				if (part[g].off[i] + k < part[g].off[i + 1]) {
					val[m] = v[g][part[g].off[i] + k];
					rank[m++] = part[g].ranks[i];
				}
		sv_trend_point_of(&made.points[k], val, rank, m, scratch);
	}
	sv_trend_sort_changes(made.changes, made.nchanges);
	sv_trend_finish(&made);

	ck_assert_uint_eq(made.nranks, whole.nranks);
	ck_assert_uint_eq(made.npoints, whole.npoints);
	for (k = 0; k < whole.npoints; k++) {
		const struct sv_trend_point *a = &whole.points[k],
					    *b = &made.points[k];
		ck_assert_uint_eq(a->count, b->count);
		ck_assert_int_eq(a->min_ns, b->min_ns);
		ck_assert_int_eq(a->max_ns, b->max_ns);
		ck_assert(a->median_ns == b->median_ns);
		ck_assert_uint_eq(a->max_rank, b->max_rank);
		ck_assert_uint_eq(b->max_call, SV_NO_CALL);
	}
	ck_assert_uint_eq(made.nchanges, whole.nchanges);
	ck_assert(made.nchanges == 0 ||
		  !memcmp(made.changes, whole.changes,
			  made.nchanges * sizeof *made.changes));
	ck_assert(!memcmp(&made.drift_pct_per_100, &whole.drift_pct_per_100,
		sizeof(double)));
	ck_assert(!memcmp(&made.jitter_pct, &whole.jitter_pct, sizeof(double)));
	for (g = 0; g < ngroups; g++) {
		sv_trend_fini(&part[g]);
		sv_free_big(v[g]);
	}
	sv_trend_fini(&whole);
	sv_trend_fini(&made);
	free(val);
	free(rank);
	free(scratch);
}

START_TEST(parts_make_the_whole)
{
	/* given a generated run with a slowdown (two threads a rank) and a
	 * hand-made one whose slowest ranks tie across the blocks; then
	 * the parts give sv_trend_compute's figures for 1, 2, 3 and more
	 * blocks than ranks hold, for both metrics */
	static const uint32_t groups[] = {1, 2, 3, 5, 8};
	struct sv_profile *p, *h = sv_profile_new("ties.h5");
	struct sv_gen_opts o;
	struct sv_error err = {0};
	char *path = svt_tmp_path("parts.h5");
	size_t i;
	int m;

	sv_gen_opts_init(&o);
	o.events = 60000;
	o.ranks = 5;
	o.threads = 2;
	o.seed = 3;
	o.slowdown = true;
	o.slowdown_rank = 3;
	o.slowdown_step = 40;
	o.slowdown_factor = 1.6;
	ck_assert_msg(
		sv_gen_write(path, &o, NULL, NULL, &err) == 0, "%s", err.msg);
	ck_assert_msg(sv_load(path, NULL, &p, &err) == 0, "%s", err.msg);
	ADD(h, 3, "step", 40, 40, 7);
	ADD(h, 0, "step", 10, 40, 5, 9);
	ADD(h, 1, "step", 40, 20, 7, 9);
	ADD(h, 2, "step", 30, 40);
	finish(h);
	for (i = 0; i < sizeof groups / sizeof groups[0]; i++) {
		for (m = 0; m < 2; m++) {
			check_parts(p, "timestep", (enum sv_trend_metric)m,
				groups[i]);
			check_parts(p, "kernel:spmv", (enum sv_trend_metric)m,
				groups[i]);
		}
		check_parts(h, "step", SV_TREND_DURATION, groups[i]);
	}
	sv_profile_free(h);
	sv_profile_free(p);
	free(path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("trend");
	TCase *t = tcase_create("points");
	TCase *c = tcase_create("change points");
	TCase *g = tcase_create("generated");

	tcase_add_test(t, points_by_hand);
	tcase_add_test(t, start_order_and_ranks);
	tcase_add_test(t, exclusive_metric);
	tcase_add_test(t, drift_and_jitter);
	tcase_add_test(t, errors_stop_and_progress);
	tcase_add_test(t, int64_extremes);
	suite_add_tcase(s, t);
	tcase_add_test(c, change_point_by_hand);
	tcase_add_test(c, steps_without_noise);
	tcase_add_loop_test(c, no_change_points, 0,
		sizeof quiet_cases / sizeof quiet_cases[0]);
	suite_add_tcase(s, c);
	tcase_add_test(g, generated_slowdown);
	tcase_add_test(g, parts_make_the_whole);
	suite_add_tcase(s, g);
	return svt_run(s);
}
