/*
 * test_scaling.c: the scaling study (scaling.h) on runs built in memory,
 * every figure worked out by hand: runs that share an x value, a region
 * one run lacks, a region only the first run has, the x from the rank
 * count, from metadata numbers, numeric text and plain text, total_cores
 * made from omp_num_threads, the errors (a run without the key, a count
 * field that is not a number, a bad rank list), the rank and region
 * selections, stored statistics without calls, durations near the ends
 * of int64; the steps of a measure over shares of the ranks, added up,
 * against the measure; and on four runs `scopeview gen --strong-scaling 1` writes at
 * 1, 2, 4 and 8 ranks, different speedups in different regions.
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
#include "scopeview/regex.h"
#include "scopeview/scaling.h"

#define ck_near(a, b)                                            \
	ck_assert_msg(fabs((double)(a) - (double)(b)) <=         \
			      1e-12 * fabs((double)(b)) + 1e-15, \
		"%.17g != %.17g", (double)(a), (double)(b))

/* One row of region name on rank with calls of the given durations,
 * 1 ms apart so none nests in another. */
static void add(struct sv_profile *p, uint32_t rank, const char *name,
	const int64_t *dur, int n)
{
	int64_t reg = sv_profile_find_region(p, name);
	struct sv_row *r;
	int k;

	if (reg < 0)
		reg = sv_profile_add_region(p, name);
	r = sv_profile_add_row(p, rank, (uint32_t)reg, (uint64_t)n, NULL);
	ck_assert_ptr_nonnull(r);
	for (k = 0; k < n; k++) {
		int64_t t0 = 1000000 * (int64_t)(r->first + (uint64_t)k + 1);
		p->start_ns[r->first + k] = t0;
		p->end_ns[r->first + k] = t0 + dur[k];
	}
}

#define ADD(p, rank, name, ...)                                          \
	do {                                                             \
		static const int64_t d_[] = {__VA_ARGS__};               \
		add(p, rank, name, d_, (int)(sizeof d_ / sizeof d_[0])); \
	} while (0)

static void meta_int(struct sv_profile *p, const char *key, int64_t v)
{
	struct sv_meta *m = sv_profile_add_meta(p, key, SV_META_INT);
	m->i = v;
	m->f = (double)v;
	m->text = sv_xasprintf("%lld", (long long)v);
}

static void meta_str(struct sv_profile *p, const char *key, const char *v)
{
	struct sv_meta *m = sv_profile_add_meta(p, key, SV_META_STRING);
	m->text = sv_xstrdup(v);
}

static struct sv_profile *finish(struct sv_profile *p)
{
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

/*
 * Four runs:
 *   r1: 1 rank:  solve = 1000, 3000 (T 2000); io = 500; only1 = 7
 *   r2: 2 ranks: solve = 1200 | 800 (T 1000); io = 500 | 600 (T 550)
 *   r2b: 2 ranks: solve = 600 | 600 | 600 (T 600); io = 450 (T 450)
 *   r4: 4 ranks: solve = 500 on each (T 500); no io
 * x = num_ranks: points 1, 2 (r2 and r2b averaged), 4.
 */
static struct sv_profile *runs[4];
static const char *const files[4] = {"r1.h5", "dir/r2.h5", "r2b.h5", "r4.h5"};

static void make_runs(void)
{
	struct sv_profile *p;

	p = runs[0] = sv_profile_new("r1.h5");
	ADD(p, 0, "solve", 1000, 3000);
	ADD(p, 0, "io", 500);
	ADD(p, 0, "only1", 7);
	meta_int(p, "omp_num_threads", 8);
	meta_str(p, "label", "baseline run");
	meta_str(p, "compiler", "gcc");
	meta_str(p, "nodes", " 1 ");
	finish(p)->num_ranks = 1;

	p = runs[1] = sv_profile_new("dir/r2.h5");
	ADD(p, 0, "io", 500);
	ADD(p, 0, "solve", 1200);
	ADD(p, 1, "solve", 800);
	ADD(p, 1, "io", 600);
	meta_int(p, "omp_num_threads", 4);
	meta_int(p, "total_cores", 16);
	meta_str(p, "compiler", "clang");
	meta_str(p, "nodes", "2");
	finish(p)->num_ranks = 2;

	p = runs[2] = sv_profile_new("r2b.h5");
	ADD(p, 0, "solve", 600, 600);
	ADD(p, 1, "solve", 600);
	ADD(p, 1, "io", 450);
	meta_int(p, "omp_num_threads", 2);
	meta_str(p, "compiler", "gcc");
	meta_str(p, "nodes", "2.0");
	finish(p)->num_ranks = 2;

	p = runs[3] = sv_profile_new("r4.h5");
	ADD(p, 0, "solve", 500);
	ADD(p, 1, "solve", 500);
	ADD(p, 2, "solve", 500);
	ADD(p, 3, "solve", 500);
	meta_int(p, "omp_num_threads", 1);
	meta_str(p, "compiler", "icx");
	meta_str(p, "nodes", "4");
	finish(p)->num_ranks = 4;
}

static void free_runs(void)
{
	int k;
	for (k = 0; k < 4; k++) {
		sv_profile_free(runs[k]);
		runs[k] = NULL;
	}
}

static const struct sv_scaling_region *region_named(
	const struct sv_scaling *s, const char *name)
{
	size_t i;
	for (i = 0; i < s->nregions; i++)
		if (!strcmp(s->regions[i].name, name))
			return &s->regions[i];
	return NULL;
}

static void study(
	struct sv_scaling *s, size_t n, const struct sv_scaling_opts *o)
{
	struct sv_error err = {0};
	ck_assert_msg(
		sv_scaling_compute(s, (const struct sv_profile *const *)runs,
			files, n, o, &err) == 0,
		"%s", err.msg);
}

START_TEST(rank_counts_by_hand)
{
	/* given four runs, two of them at 2 ranks; when studied over
	 * num_ranks; then the points are 1, 2, 4, the runs at 2 averaged,
	 * io (absent at 4) and only1 left out */
	struct sv_scaling s;
	const struct sv_scaling_region *g;
	double t1 = 2000, t2 = (1000.0 + 600.0) / 2, t4 = 500;

	study(&s, 4, NULL);
	ck_assert_str_eq(s.x_field, "num_ranks");
	ck_assert(s.numeric);
	ck_assert_uint_eq(s.nruns, 4);
	ck_assert_uint_eq(s.npoints, 3);
	ck_assert_double_eq(s.xs[0], 1);
	ck_assert_double_eq(s.xs[1], 2);
	ck_assert_double_eq(s.xs[2], 4);
	ck_assert_str_eq(s.x_texts[1], "2");
	ck_assert_double_eq(s.baseline, 1);
	ck_assert_str_eq(s.baseline_text, "1");
	ck_assert_uint_eq(s.runs[2].point, 1);
	ck_assert_uint_eq(s.runs[3].point, 2);
	ck_assert_str_eq(s.runs[1].file, "dir/r2.h5");
	/* the label: the metadata's, else the file's name */
	ck_assert_str_eq(s.runs[0].label, "baseline run");
	ck_assert_str_eq(s.runs[1].label, "r2.h5");
	ck_assert_str_eq(s.runs[3].x_text, "4");
	ck_assert_uint_eq(s.nregions, 1);
	g = &s.regions[0];
	ck_assert_str_eq(g->name, "solve");
	ck_assert_uint_eq(g->points[0].runs, 1);
	ck_assert_uint_eq(g->points[1].runs, 2);
	ck_assert_uint_eq(g->points[2].runs, 1);
	ck_near(g->points[0].mean_duration, t1 / 1e9);
	ck_near(g->points[1].mean_duration, t2 / 1e9);
	ck_near(g->points[2].mean_duration, t4 / 1e9);
	ck_near(g->points[0].speedup, 1);
	ck_near(g->points[1].speedup, t1 / t2);
	ck_near(g->points[2].speedup, t1 / t4);
	ck_near(g->points[1].efficiency, t1 / t2 * 1 / 2);
	ck_near(g->points[2].efficiency, t1 / t4 / 4);
	ck_near(g->points[2].normalized_runtime, t4 / t1);
	ck_near(g->points[2].weak_efficiency, t1 / t4);
	ck_assert(sv_scaling_x_doubles(&s));
	sv_scaling_fini(&s);

	/* three runs: io is in each, after solve (the first run's order) */
	study(&s, 3, NULL);
	ck_assert_uint_eq(s.nregions, 2);
	ck_assert_str_eq(s.regions[0].name, "solve");
	ck_assert_str_eq(s.regions[1].name, "io");
	g = region_named(&s, "io");
	ck_near(g->points[1].mean_duration, (550.0 + 450.0) / 2 / 1e9);
	ck_near(g->points[1].speedup, 500.0 / 500.0);
	ck_assert(sv_scaling_x_doubles(&s));
	sv_scaling_fini(&s);
}
END_TEST

START_TEST(metadata_fields)
{
	struct sv_scaling_opts o;
	struct sv_scaling s;
	struct sv_error err = {0};

	/* omp_num_threads: 8, 4, 2, 1 ascending, the baseline is 1 */
	memset(&o, 0, sizeof o);
	o.x_field = "omp_num_threads";
	study(&s, 4, &o);
	ck_assert_uint_eq(s.npoints, 4);
	ck_assert_double_eq(s.baseline, 1);
	ck_assert_uint_eq(s.runs[0].point, 3);
	ck_assert_str_eq(s.runs[0].x_text, "8");
	/* solve at x = 8 (r1, T 2000) against x0 = 1 (r4, T 500) */
	ck_near(s.regions[0].points[3].speedup, 500.0 / 2000.0);
	ck_near(s.regions[0].points[3].efficiency, 500.0 / 2000.0 * 1 / 8);
	ck_assert(sv_scaling_x_doubles(&s));
	sv_scaling_fini(&s);

	/* total_cores: r2's from its metadata (16), the others num_ranks
	 * x omp_num_threads (8, 4, 4): r2b and r4 share x = 4 */
	o.x_field = "total_cores";
	study(&s, 4, &o);
	ck_assert_uint_eq(s.npoints, 3);
	ck_assert_double_eq(s.xs[0], 4);
	ck_assert_double_eq(s.xs[1], 8);
	ck_assert_double_eq(s.xs[2], 16);
	ck_assert_uint_eq(s.regions[0].points[0].runs, 2);
	ck_near(s.regions[0].points[0].mean_duration, (600.0 + 500) / 2 / 1e9);
	sv_scaling_fini(&s);

	/* numbers as text: " 1 ", "2", "2.0", "4": 2 and 2.0 are one x */
	o.x_field = "nodes";
	study(&s, 4, &o);
	ck_assert(s.numeric);
	ck_assert_uint_eq(s.npoints, 3);
	ck_assert_str_eq(s.runs[0].x_text, " 1 ");
	ck_assert_str_eq(s.x_texts[0], "1");
	ck_assert_uint_eq(s.regions[0].points[1].runs, 2);
	sv_scaling_fini(&s);

	/* text: in order of appearance, the first the baseline, efficiency
	 * is the speedup */
	o.x_field = "compiler";
	study(&s, 4, &o);
	ck_assert(!s.numeric);
	ck_assert_uint_eq(s.npoints, 3);
	ck_assert_str_eq(s.x_texts[0], "gcc");
	ck_assert_str_eq(s.x_texts[1], "clang");
	ck_assert_str_eq(s.x_texts[2], "icx");
	ck_assert_str_eq(s.baseline_text, "gcc");
	ck_assert_double_eq(s.xs[2], 2);
	ck_assert_uint_eq(s.runs[2].point, 0);
	ck_assert_uint_eq(s.regions[0].points[0].runs, 2);
	ck_near(s.regions[0].points[0].mean_duration, (2000.0 + 600) / 2 / 1e9);
	ck_near(s.regions[0].points[2].efficiency,
		s.regions[0].points[2].speedup);
	ck_assert(!sv_scaling_x_doubles(&s));
	sv_scaling_fini(&s);

	/* a run without the key: an error naming the run and the key */
	o.x_field = "mpi_flavour";
	ck_assert_int_eq(
		sv_scaling_compute(&s, (const struct sv_profile *const *)runs,
			files, 4, &o, &err),
		-EINVAL);
	ck_assert_str_eq(
		err.msg, "run r1.h5 has no metadata key 'mpi_flavour'");
}
END_TEST

START_TEST(errors_and_degenerate_input)
{
	struct sv_profile *p = sv_profile_new("odd.h5"), *q;
	const struct sv_profile *one[1] = {p}, *bare;
	struct sv_scaling_opts o;
	struct sv_scaling_sample sm;
	struct sv_scaling s;
	struct sv_error err = {0};

	ADD(p, 0, "a", 5);
	meta_str(p, "omp_num_threads", "many");
	finish(p);
	q = sv_profile_new("bare.h5");
	ADD(q, 0, "a", 5);
	finish(q);
	bare = q;
	memset(&o, 0, sizeof o);
	/* a count field that is not a number */
	o.x_field = "omp_num_threads";
	ck_assert_int_eq(
		sv_scaling_compute(&s, one, NULL, 1, &o, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "run odd.h5: metadata key 'omp_num_threads' "
				  "is 'many', not a number");
	/* total_cores from an omp_num_threads that is not a number */
	o.x_field = "total_cores";
	ck_assert_int_eq(
		sv_scaling_compute(&s, one, NULL, 1, &o, &err), -EINVAL);
	/* a bad rank list */
	o.x_field = NULL;
	o.ranks = "3-1";
	ck_assert_int_eq(
		sv_scaling_compute(&s, one, NULL, 1, &o, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "3-1"));
	/* total_cores without either key */
	o.ranks = NULL;
	o.x_field = "total_cores";
	ck_assert_int_eq(
		sv_scaling_compute(&s, &bare, NULL, 1, &o, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "run bare.h5 has no metadata key "
				  "'total_cores' (nor 'omp_num_threads' to "
				  "make it from)");
	/* no runs, no profile */
	ck_assert_int_eq(
		sv_scaling_compute(&s, one, NULL, 0, NULL, &err), -EINVAL);
	ck_assert_int_eq(
		sv_scaling_compute(&s, NULL, NULL, 1, NULL, &err), -EINVAL);
	ck_assert_int_eq(
		sv_scaling_measure(&sm, NULL, NULL, NULL, &err), -EINVAL);
	ck_assert_int_eq(sv_scaling_combine(&s, NULL, 0, NULL, &err), -EINVAL);
	/* fini of nothing */
	memset(&s, 0, sizeof s);
	sv_scaling_fini(&s);
	sv_scaling_fini(NULL);
	sv_scaling_sample_fini(NULL);
	ck_assert(!sv_scaling_x_doubles(NULL));
	/* one run: one point, every ratio 1 */
	ck_assert_int_eq(sv_scaling_compute(&s, one, NULL, 1, NULL, &err), 0);
	ck_assert_uint_eq(s.npoints, 1);
	ck_assert_str_eq(s.runs[0].file, "odd.h5");
	ck_assert_double_eq(s.regions[0].points[0].speedup, 1);
	ck_assert(!sv_scaling_x_doubles(&s));
	sv_scaling_fini(&s);
	sv_profile_free(p);
	sv_profile_free(q);
}
END_TEST

START_TEST(rank_and_region_selection)
{
	struct sv_scaling_opts o;
	struct sv_scaling s;
	struct sv_regex_list inc = {0}, exc = {0};
	struct sv_error err = {0};

	/* rank 1 only: r1 has no call there, so nothing is in every run */
	memset(&o, 0, sizeof o);
	o.ranks = "1";
	study(&s, 4, &o);
	ck_assert_uint_eq(s.nregions, 0);
	sv_scaling_fini(&s);
	/* rank 0 only, three runs: solve 2000, (1200 + 600) / 2, io */
	o.ranks = "0";
	study(&s, 3, &o);
	ck_assert_uint_eq(s.nregions, 1);
	ck_near(s.regions[0].points[1].mean_duration, (1200.0 + 600) / 2 / 1e9);
	sv_scaling_fini(&s);
	/* the patterns: include "s|i", exclude "io$" keeps solve only */
	o.ranks = NULL;
	ck_assert(sv_regex_list_add(&inc, "s|i", &err));
	ck_assert(sv_regex_list_add(&exc, "io$", &err));
	o.include = inc.re;
	o.ninclude = inc.n;
	o.exclude = exc.re;
	o.nexclude = exc.n;
	study(&s, 3, &o);
	ck_assert_uint_eq(s.nregions, 1);
	ck_assert_str_eq(s.regions[0].name, "solve");
	sv_scaling_fini(&s);
	sv_regex_list_fini(&inc);
	sv_regex_list_fini(&exc);
}
END_TEST

START_TEST(stored_statistics_without_calls)
{
	/* given a summary-only run whose rows carry their stored totals
	 * (one row without them); then T is total / count of the rows that
	 * have them */
	struct sv_profile *p = sv_profile_new("index.h5"), *q;
	const struct sv_profile *two[2];
	struct sv_scaling s;
	struct sv_error err = {0};
	struct sv_row *r;

	p->has_calls = false;
	sv_profile_add_region(p, "solve");
	r = sv_profile_add_row(p, 0, 0, 4, NULL);
	r->has_summary = true;
	r->summary.total = 4000;
	r = sv_profile_add_row(p, 1, 0, 6, NULL);
	r->has_summary = true;
	r->summary.total = 9000;
	r = sv_profile_add_row(p, 2, 0, 100, NULL); /* no stored figures */
	finish(p)->num_ranks = 3;
	q = sv_profile_new("calls.h5");
	ADD(q, 0, "solve", 100);
	finish(q)->num_ranks = 1;
	two[0] = p;
	two[1] = q;
	ck_assert_int_eq(sv_scaling_compute(&s, two, NULL, 2, NULL, &err), 0);
	ck_assert_double_eq(s.xs[0], 1);
	ck_assert_double_eq(s.xs[1], 3);
	ck_assert_uint_eq(s.runs[0].point, 1);
	ck_near(s.regions[0].points[1].mean_duration, 13000.0 / 10 / 1e9);
	ck_near(s.regions[0].points[0].speedup, 1);
	ck_near(s.regions[0].points[1].speedup, 100.0 / 1300.0);
	ck_assert(!sv_scaling_x_doubles(&s)); /* 1, 3 */
	sv_scaling_fini(&s);
	sv_profile_free(p);
	sv_profile_free(q);
}
END_TEST

START_TEST(int64_extremes)
{
	/* given calls of nearly INT64_MAX ns each (their sum is far past
	 * int64); then T is their mean, with no overflow (UBSan) */
	struct sv_profile *p = sv_profile_new("big.h5");
	const struct sv_profile *one[1] = {p};
	int64_t big = INT64_MAX - 4;
	struct sv_scaling s;
	struct sv_error err = {0};
	struct sv_row *r;
	int k;

	sv_profile_add_region(p, "forever");
	r = sv_profile_add_row(p, 0, 0, 8, NULL);
	for (k = 0; k < 8; k++) {
		p->start_ns[r->first + k] = 0;
		p->end_ns[r->first + k] = big;
	}
	sv_profile_add_region(p, "backwards");
	r = sv_profile_add_row(p, 0, 1, 2, NULL);
	p->start_ns[r->first] = INT64_MAX;
	p->end_ns[r->first] = INT64_MAX - 10;
	p->start_ns[r->first + 1] = 5;
	p->end_ns[r->first + 1] = 5;
	finish(p);
	ck_assert_int_eq(sv_scaling_compute(&s, one, NULL, 1, NULL, &err), 0);
	ck_assert_uint_eq(s.nregions, 2);
	ck_near(s.regions[0].points[0].mean_duration, (double)big / 1e9);
	ck_near(s.regions[1].points[0].mean_duration, -5.0 / 1e9);
	sv_scaling_fini(&s);
	sv_profile_free(p);
}
END_TEST

START_TEST(two_steps_match_one)
{
	/* measure and combine one run at a time give the same study as
	 * sv_scaling_compute */
	struct sv_scaling_sample sm[4];
	struct sv_scaling a, b;
	struct sv_error err = {0};
	size_t k, j;

	study(&a, 4, NULL);
	for (k = 0; k < 4; k++)
		ck_assert_int_eq(sv_scaling_measure(
					 &sm[k], runs[k], files[k], NULL, &err),
			0);
	ck_assert_str_eq(sm[0].names[0], "solve");
	ck_assert_uint_eq(sm[0].nregions, 3);
	ck_assert_int_eq(sv_scaling_combine(&b, sm, 4, NULL, &err), 0);
	ck_assert_uint_eq(a.nregions, b.nregions);
	for (j = 0; j < a.npoints; j++)
		ck_assert_double_eq(a.regions[0].points[j].speedup,
			b.regions[0].points[j].speedup);
	for (k = 0; k < 4; k++)
		sv_scaling_sample_fini(&sm[k]);
	sv_scaling_fini(&a);
	sv_scaling_fini(&b);
}
END_TEST

/* The three steps over shares of the ranks, their sums added up, give
 * sv_scaling_measure's sample: the split scopeview-mpi makes. */
static void check_shares(const struct sv_profile *p, const char *file,
	const struct sv_scaling_opts *o, uint32_t cut)
{
	struct sv_scaling_sample want, got;
	struct sv_scaling_sums part, total;
	struct sv_error err = {0};
	bool share[2][8];
	uint32_t r, i;
	int k;

	for (r = 0; r < 8; r++) {
		share[0][r] = r < cut;
		share[1][r] = r >= cut;
	}
	ck_assert_int_eq(sv_scaling_measure(&want, p, file, o, &err), 0);
	ck_assert_int_eq(sv_scaling_sample_begin(&got, p, file, o, &err), 0);
	memset(&total, 0, sizeof total);
	total.nregions = p->nregions;
	total.sum = sv_xcalloc(p->nregions + 1, sizeof *total.sum);
	total.count = sv_xcalloc(p->nregions + 1, sizeof *total.count);
	for (k = 0; k < 2; k++) {
		ck_assert_int_eq(
			sv_scaling_sum(&part, p, o, share[k], 8, &err), 0);
		for (i = 0; i < p->nregions; i++) {
			total.sum[i] += part.sum[i];
			total.count[i] += part.count[i];
		}
		sv_scaling_sums_fini(&part);
	}
	sv_scaling_sample_end(&got, p, &total);
	ck_assert_str_eq(got.label, want.label);
	ck_assert_str_eq(got.x_text, want.x_text);
	ck_assert_uint_eq(got.nregions, want.nregions);
	for (i = 0; i < want.nregions; i++) {
		ck_assert_str_eq(got.names[i], want.names[i]);
		ck_assert_double_eq(got.mean_ns[i], want.mean_ns[i]);
	}
	sv_scaling_sums_fini(&total);
	sv_scaling_sample_fini(&got);
	sv_scaling_sample_fini(&want);
}

START_TEST(shares_add_up_to_measure)
{
	struct sv_scaling_opts o;
	struct sv_regex *inc = NULL;
	struct sv_scaling_sample s;
	struct sv_scaling_sums sums;
	struct sv_error err = {0};
	struct sv_profile *big = sv_profile_new("big.h5");
	int64_t d = INT64_MAX / 2;
	uint32_t cut;
	int k;

	/* every run, cut between each pair of ranks, with and without a
	 * rank list and a pattern */
	memset(&o, 0, sizeof o);
	for (k = 0; k < 4; k++)
		for (cut = 0; cut <= 4; cut++) {
			check_shares(runs[k], files[k], NULL, cut);
			o.ranks = "1-3";
			check_shares(runs[k], files[k], &o, cut);
			o.ranks = NULL;
		}
	inc = sv_regex_compile("so", &err);
	ck_assert_ptr_nonnull(inc);
	o.include = &inc;
	o.ninclude = 1;
	o.x_field = "omp_num_threads";
	check_shares(runs[1], files[1], &o, 1);
	sv_regex_free(inc);

	/* sums past int64 on each share and together */
	ADD(big, 0, "long", INT64_MAX / 2, INT64_MAX / 2, INT64_MAX / 2);
	add(big, 1, "long", &d, 1);
	add(big, 1, "long", &d, 1);
	check_shares(finish(big), NULL, NULL, 1);
	sv_profile_free(big);

	/* the x field's error comes from the first step, the rank list's
	 * from the sum; both leave nothing behind */
	o.x_field = "nosuchkey";
	ck_assert_int_eq(
		sv_scaling_sample_begin(&s, runs[0], files[0], &o, &err),
		-EINVAL);
	ck_assert(strstr(err.msg, "nosuchkey"));
	ck_assert_ptr_null(s.file);
	o.ranks = "x";
	ck_assert_int_eq(
		sv_scaling_sum(&sums, runs[0], &o, NULL, 0, &err), -EINVAL);
	ck_assert_ptr_null(sums.sum);
	sv_scaling_sums_fini(NULL);
}
END_TEST

/* The done-when study: gen's strong-scaling runs at 1, 2, 4 and 8
 * ranks. */
START_TEST(generated_strong_scaling)
{
	const struct sv_profile *p[4];
	struct sv_profile *q[4];
	char *path[4];
	struct sv_gen_opts o;
	struct sv_scaling s;
	struct sv_error err = {0};
	const struct sv_scaling_region *g;
	int k;

	for (k = 0; k < 4; k++) {
		char name[32];
		snprintf(name, sizeof name, "strong%d.h5", 1 << k);
		path[k] = svt_tmp_path(name);
		sv_gen_opts_init(&o);
		o.events = 40000;
		o.ranks = 1u << k;
		o.scale_ranks = 1;
		ck_assert_msg(sv_gen_write(path[k], &o, NULL, NULL, &err) == 0,
			"%s", err.msg);
		ck_assert_msg(sv_load(path[k], NULL, &q[k], &err) == 0, "%s",
			err.msg);
		p[k] = q[k];
	}
	ck_assert_int_eq(sv_scaling_compute(&s, p, (const char *const *)path, 4,
				 NULL, &err),
		0);
	ck_assert(sv_scaling_x_doubles(&s));
	ck_assert_uint_eq(s.npoints, 4);
	/* the kernel scales with the work: nearly 8 at 8 ranks */
	g = region_named(&s, "kernel:assemble_local");
	ck_assert_ptr_nonnull(g);
	ck_assert_msg(g->points[3].speedup > 6.5 && g->points[3].speedup < 9,
		"%g", g->points[3].speedup);
	/* spmv keeps a serial tenth: about 1 / (0.1 + 0.9 / 8) = 4.7 */
	g = region_named(&s, "kernel:spmv");
	ck_assert_msg(g->points[3].speedup > 3.5 && g->points[3].speedup < 6,
		"%g", g->points[3].speedup);
	/* the halo exchange does not shrink at all */
	g = region_named(&s, "halo_exchange");
	ck_assert_msg(fabs(g->points[3].speedup - 1) < 0.1, "%g",
		g->points[3].speedup);
	/* a timestep in between */
	g = region_named(&s, "timestep");
	ck_assert(g->points[3].speedup > 1.5 && g->points[3].speedup < 6);
	/* MPI regions name their peers: the run of one rank has only
	 * peer 0 */
	for (k = 0; k < (int)s.nregions; k++)
		ck_assert(!strstr(s.regions[k].name, "peer=1 "));
	sv_scaling_fini(&s);
	for (k = 0; k < 4; k++) {
		sv_profile_free(q[k]);
		free(path[k]);
	}
}
END_TEST

static void setup(void)
{
	make_runs();
}

int main(void)
{
	Suite *s = suite_create("scaling");
	TCase *t = tcase_create("definitions");
	TCase *g = tcase_create("generated");

	tcase_add_checked_fixture(t, setup, free_runs);
	tcase_add_test(t, rank_counts_by_hand);
	tcase_add_test(t, metadata_fields);
	tcase_add_test(t, errors_and_degenerate_input);
	tcase_add_test(t, rank_and_region_selection);
	tcase_add_test(t, stored_statistics_without_calls);
	tcase_add_test(t, int64_extremes);
	tcase_add_test(t, two_steps_match_one);
	tcase_add_test(t, shares_add_up_to_measure);
	suite_add_tcase(s, t);
	tcase_add_test(g, generated_strong_scaling);
	suite_add_tcase(s, g);
	return svt_run(s);
}
