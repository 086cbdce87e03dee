/*
 * test_histogram.c: log-spaced histograms (histogram.h): edges, the bin
 * rule at the edges, per-bin call lists, non-positive durations,
 * cancellation and bad arguments; the longest-first path against the
 * general one on random lists.  Edges were checked with
 * numpy.logspace; e2e_ranks.sh checks generated files against numpy.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/calls.h"
#include "scopeview/histogram.h"
#include "scopeview/profile.h"

/* A one-row profile whose calls last durs[0..n) ns. */
static struct sv_profile *with_durations(const int64_t *durs, size_t n)
{
	struct sv_profile *p = sv_profile_new("mem");
	uint32_t reg = sv_profile_add_region(p, "r");
	struct sv_row *r = sv_profile_add_row(p, 0, reg, n, NULL);
	size_t i;
	for (i = 0; i < n; i++) {
		p->start_ns[r->first + i] = (int64_t)i * 100000;
		p->end_ns[r->first + i] = (int64_t)i * 100000 + durs[i];
	}
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

static uint32_t *all_calls(const struct sv_profile *p)
{
	uint32_t *c = malloc(p->ncalls * sizeof *c), i;
	for (i = 0; i < p->ncalls; i++)
		c[i] = i;
	return c;
}

START_TEST(hist_edges_and_counts)
{
	/* 10 .. 10000 ns in 3 bins: edges 10, 100, 1000, 10000. */
	static const int64_t d[] = {10, 99, 100, 500, 1000, 9999, 10000, 0};
	struct sv_profile *p = with_durations(d, 8);
	uint32_t *c = all_calls(p);
	struct sv_hist h;
	uint64_t k;

	ck_assert_int_eq(sv_hist_build(&h, p, c, 8, 3, NULL, NULL), 0);
	ck_assert_uint_eq(h.nbins, 3);
	ck_assert_double_eq_tol(h.edges[1], 100.0, 1e-9);
	ck_assert_double_eq_tol(h.edges[2], 1000.0, 1e-9);
	ck_assert(h.edges[0] == 10.0 && h.edges[3] == 10000.0);
	ck_assert_uint_eq(h.nzero, 1);
	ck_assert_uint_eq(h.ncalls, 8);
	/* 100 opens bin 1 only if edges[1] <= 100 exactly: compare with the
	 * edges the histogram itself holds. */
	ck_assert_uint_eq(h.counts[0] + h.counts[1] + h.counts[2], 7);
	ck_assert_uint_eq(h.counts[2], h.edges[2] <= 1000.0 ? 3 : 2);
	/* The last bin holds the maximum. */
	ck_assert_int_eq(sv_hist_bin_of(&h, 10000), 2);
	ck_assert_int_eq(sv_hist_bin_of(&h, 10001), -1);
	ck_assert_int_eq(sv_hist_bin_of(&h, 0), -1);
	ck_assert_int_eq(sv_hist_bin_of(&h, 10), 0);
	/* Every call of a bin is in that bin. */
	for (k = 0; k < 3; k++) {
		uint64_t i;
		ck_assert_uint_eq(h.first[k + 1] - h.first[k], h.counts[k]);
		for (i = h.first[k]; i < h.first[k + 1]; i++)
			ck_assert_int_eq(
				sv_hist_bin_of(
					&h, sv_call_duration(p, h.order[i])),
				(long)k);
	}
	sv_hist_fini(&h);
	sv_hist_fini(&h);
	free(c);
	sv_profile_free(p);
}
END_TEST

/* Bins of 72.41 to 72.43 ms read "72.4 ms .. 72.4 ms" at three
 * digits: the labels take as many digits as the bins need to differ. */
START_TEST(hist_edge_digits)
{
	static const int64_t d[] = {72410000, 72415000, 72420000, 72430000};
	struct sv_profile *p = with_durations(d, 4);
	uint32_t *c = all_calls(p);
	struct sv_hist h;
	char a[64], b[64];
	int sig;
	size_t i;

	ck_assert_int_eq(sv_hist_build(&h, p, c, 4, 4, NULL, NULL), 0);
	sig = sv_hist_edge_digits(&h, 0);
	ck_assert_int_eq(sig, 5);
	for (i = 0; i < h.nbins; i++)
		ck_assert_str_ne(sv_hist_edge_label(&h, i, sig, 0, a, sizeof a),
			sv_hist_edge_label(&h, i + 1, sig, 0, b, sizeof b));
	ck_assert_str_eq(
		sv_hist_edge_label(&h, 0, sig, 0, a, sizeof a), "72.410 ms");
	/* one digit fewer, two bins read alike */
	ck_assert_str_eq(sv_hist_edge_label(&h, 0, sig - 1, 0, a, sizeof a),
		sv_hist_edge_label(&h, 1, sig - 1, 0, b, sizeof b));
	/* one bin of them still needs four; wide bins keep three */
	sv_hist_fini(&h);
	ck_assert_int_eq(sv_hist_build(&h, p, c, 4, 1, NULL, NULL), 0);
	ck_assert_int_eq(sv_hist_edge_digits(&h, 0), 4);
	sv_hist_fini(&h);
	free(c);
	sv_profile_free(p);
	{
		static const int64_t w[] = {10, 1000, 100000};
		p = with_durations(w, 3);
		c = all_calls(p);
		ck_assert_int_eq(sv_hist_build(&h, p, c, 3, 2, NULL, NULL), 0);
		ck_assert_int_eq(sv_hist_edge_digits(&h, 0), 3);
		sv_hist_fini(&h);
		free(c);
		sv_profile_free(p);
	}
}
END_TEST

START_TEST(hist_single_value_and_empty)
{
	static const int64_t d[] = {42, 42, 42, -5};
	struct sv_profile *p = with_durations(d, 4);
	uint32_t *c = all_calls(p);
	struct sv_hist h;

	ck_assert_int_eq(sv_hist_build(&h, p, c, 4, 20, NULL, NULL), 0);
	ck_assert_uint_eq(h.nbins, 1);
	ck_assert_uint_eq(h.counts[0], 3);
	ck_assert_uint_eq(h.nzero, 1);
	sv_hist_fini(&h);
	/* Only the non-positive call: no bins. */
	ck_assert_int_eq(sv_hist_build(&h, p, c + 3, 1, 20, NULL, NULL), 0);
	ck_assert_uint_eq(h.nbins, 0);
	ck_assert_uint_eq(h.nzero, 1);
	ck_assert_int_eq(sv_hist_bin_of(&h, 42), -1);
	sv_hist_fini(&h);
	ck_assert_int_eq(sv_hist_build(&h, p, NULL, 0, 5, NULL, NULL), 0);
	ck_assert_uint_eq(h.nbins, 0);
	sv_hist_fini(&h);
	free(c);
	sv_profile_free(p);
}
END_TEST

/* sv_hist_build_longest gives what sv_hist_build gives, on lists sorted
 * longest first: random durations with zeros, negatives and repeats, one
 * value only, none positive, one call, none. */
START_TEST(hist_longest_first_matches)
{
	static const struct {
		size_t n;
		int64_t lo, span;
	} cases[] = {{5000, -20, 100000}, {3000, 7, 1}, {400, -5, 6}, {1, 9, 1},
		{2000, 1, 3}, {0, 1, 1}, {64, -9, 9}};
	size_t k, bins;

	for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
		for (bins = 1; bins <= 40; bins += 13) {
			size_t n = cases[k].n, i;
			int64_t *d = malloc((n ? n : 1) * sizeof *d);
			struct sv_profile *p;
			struct sv_hist a, b;
			uint32_t *c;
			srand((unsigned)(k * 100 + bins));
			for (i = 0; i < n; i++)
				d[i] = cases[k].lo + rand() % cases[k].span;
			p = with_durations(d, n);
			c = all_calls(p);
			sv_calls_sort(
				p, c, n, SV_CALLS_KEY_DURATION, false, NULL);
			ck_assert_int_eq(
				sv_hist_build(&a, p, c, n, bins, NULL, NULL),
				0);
			ck_assert_int_eq(
				sv_hist_build_longest(&b, p, c, n, bins), 0);
			ck_assert_uint_eq(a.nbins, b.nbins);
			ck_assert_uint_eq(a.nzero, b.nzero);
			ck_assert_uint_eq(a.ncalls, b.ncalls);
			ck_assert_mem_eq(a.first, b.first,
				(a.nbins + 1) * sizeof *a.first);
			if (a.nbins) {
				ck_assert_int_eq(a.min_ns, b.min_ns);
				ck_assert_int_eq(a.max_ns, b.max_ns);
				ck_assert_mem_eq(a.edges, b.edges,
					(a.nbins + 1) * sizeof *a.edges);
				ck_assert_mem_eq(a.counts, b.counts,
					a.nbins * sizeof *a.counts);
				ck_assert_mem_eq(a.order, b.order,
					a.first[a.nbins] * sizeof *a.order);
			}
			sv_hist_fini(&a);
			sv_hist_fini(&b);
			free(c);
			free(d);
			sv_profile_free(p);
		}
}
END_TEST

/* A histogram framed over a span and counted in two parts (as
 * scopeview-mpi's processes count theirs) gives sv_hist_build's edges
 * and counts: random durations with zeros and negatives, one value,
 * none positive, none at all. */
START_TEST(hist_frame_from_parts)
{
	static const struct {
		size_t n;
		int64_t lo, span;
	} cases[] = {{5000, -20, 100000}, {300, 7, 1}, {400, -5, 5}, {0, 1, 1},
		{1, 3, 1}};
	size_t k, bins;

	for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
		for (bins = 1; bins <= 40; bins += 13) {
			size_t n = cases[k].n, i, half = n / 3;
			int64_t *d = malloc((n ? n : 1) * sizeof *d);
			int64_t lo = INT64_MAX, hi = INT64_MIN;
			struct sv_profile *p;
			struct sv_hist a, b;
			uint32_t *c;
			srand((unsigned)(k * 31 + bins));
			for (i = 0; i < n; i++)
				d[i] = cases[k].lo + rand() % cases[k].span;
			p = with_durations(d, n);
			c = all_calls(p);
			ck_assert_int_eq(
				sv_hist_build(&a, p, c, n, bins, NULL, NULL),
				0);
			for (i = 0; i < n; i++)
				if (d[i] > 0) {
					lo = d[i] < lo ? d[i] : lo;
					hi = d[i] > hi ? d[i] : hi;
				}
			sv_hist_frame(&b, n, lo <= hi, lo, hi, bins);
			/* two parts, [0, half) and [half, n), counted apart
			 * and added up */
			if (b.nbins) {
				uint64_t part[2][SV_HIST_MAX_BINS + 1];
				memset(part, 0, sizeof part);
				for (i = 0; i < n; i++) {
					long bin = sv_hist_bin_of(&b, d[i]);
					part[i >= half]
					    [bin < 0 ? SV_HIST_MAX_BINS
						     : bin]++;
				}
				for (i = 0; i < b.nbins; i++)
					b.counts[i] = part[0][i] + part[1][i];
				b.nzero = part[0][SV_HIST_MAX_BINS] +
					  part[1][SV_HIST_MAX_BINS];
			}
			ck_assert_uint_eq(b.nbins, a.nbins);
			ck_assert_uint_eq(b.nzero, a.nzero);
			ck_assert_uint_eq(b.ncalls, a.ncalls);
			if (a.nbins) {
				ck_assert_int_eq(b.min_ns, a.min_ns);
				ck_assert_int_eq(b.max_ns, a.max_ns);
				ck_assert_mem_eq(b.edges, a.edges,
					(a.nbins + 1) * sizeof *a.edges);
				ck_assert_mem_eq(b.counts, a.counts,
					a.nbins * sizeof *a.counts);
			}
			sv_hist_fini(&a);
			sv_hist_fini(&b);
			free(c);
			free(d);
			sv_profile_free(p);
		}
}
END_TEST

START_TEST(hist_bad_arguments_and_cancel)
{
	static const int64_t d[] = {1, 2, 3};
	struct sv_profile *p = with_durations(d, 3);
	uint32_t *c = all_calls(p);
	struct sv_hist h;
	atomic_bool cancel = true;
	_Atomic uint64_t done = 0;

	ck_assert_int_eq(sv_hist_build(NULL, p, c, 3, 4, NULL, NULL), -EINVAL);
	ck_assert_int_eq(sv_hist_build(&h, NULL, c, 3, 4, NULL, NULL), -EINVAL);
	ck_assert_int_eq(sv_hist_build(&h, p, c, 3, 0, NULL, NULL), -EINVAL);
	ck_assert_int_eq(
		sv_hist_build(&h, p, c, 3, SV_HIST_MAX_BINS + 1, NULL, NULL),
		-EINVAL);
	ck_assert_int_eq(sv_hist_build(&h, p, NULL, 3, 4, NULL, NULL), -EINVAL);
	ck_assert_int_eq(
		sv_hist_build(&h, p, c, 3, 4, &cancel, &done), -ECANCELED);
	ck_assert_uint_eq(h.nbins, 0);
	cancel = false;
	ck_assert_int_eq(sv_hist_build(&h, p, c, 3, 4, &cancel, &done), 0);
	ck_assert_uint_eq(done, 3);
	sv_hist_fini(&h);
	sv_hist_fini(NULL);
	ck_assert_int_eq(sv_hist_bin_of(NULL, 1), -1);
	free(c);
	sv_profile_free(p);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("histogram");
	TCase *t = tcase_create("bins");
	tcase_add_test(t, hist_edges_and_counts);
	tcase_add_test(t, hist_edge_digits);
	tcase_add_test(t, hist_single_value_and_empty);
	tcase_add_test(t, hist_longest_first_matches);
	tcase_add_test(t, hist_bad_arguments_and_cancel);
	tcase_add_test(t, hist_frame_from_parts);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
