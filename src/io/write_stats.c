/*
 * write_stats.c: the figures the writer stores per row, computed the way
 * scope-profiler computes them at publication: numpy's float64 summary
 * (sv_write_summarize) and call_stack.py's exclusive totals
 * (sv_write_exclusive_totals, on the model's own nesting).  No HDF5.
 */
#include "write_h5_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"
#include "scopeview/nest.h"
#include "scopeview/pairwise.h"

/* ------------------------------------------------------------------ */
/* Statistics */

/* Summary of n calls given by index (idx == NULL: 0..n-1).  np.add.reduce
 * with dtype=float64 works through buffers of SV_PAIRWISE_NP_BUFSIZE
 * values, each summed pairwise, accumulated in order; so the statistics
 * need only one buffer of that size, whatever the row's length. */
void sv_write_summary_idx(const int64_t *start, const int64_t *end,
	const int64_t *gpu, const uint32_t *idx, size_t n,
	struct sv_write_summary *s)
{
	double *x, mean, acc = 0.;
	size_t i, b;

	memset(s, 0, sizeof *s);
	if (!n)
		return;
	x = sv_xmalloc(
		(n < SV_PAIRWISE_NP_BUFSIZE ? n : SV_PAIRWISE_NP_BUFSIZE) *
		sizeof *x);
	for (b = 0; b < n; b += SV_PAIRWISE_NP_BUFSIZE) {
		size_t m = n - b < SV_PAIRWISE_NP_BUFSIZE
				   ? n - b
				   : SV_PAIRWISE_NP_BUFSIZE;
		for (i = 0; i < m; i++) {
			size_t c = idx ? idx[b + i] : b + i;
			/* Wrapping as numpy's int64 does: a damaged
			 * profile's sums are scope-profiler's. */
			int64_t d = sv_sub_wrap(end[c], start[c]);
			x[i] = (double)d;
			s->total = sv_add_wrap(s->total, d);
			if (b + i == 0 || d < s->minimum)
				s->minimum = d;
			if (b + i == 0 || d > s->maximum)
				s->maximum = d;
			if (b + i == 0)
				s->first = d;
			s->last = d;
			if (b + i == 0 || start[c] < s->start_minimum)
				s->start_minimum = start[c];
			if (b + i == 0 || end[c] > s->end_maximum)
				s->end_maximum = end[c];
			if (gpu && gpu[c] >= 0) {
				s->gpu_count++;
				s->gpu_total =
					sv_add_wrap(s->gpu_total, gpu[c]);
			}
		}
		acc += sv_pairwise_sum(x, m);
	}
	mean = acc / (double)n;
	acc = 0.;
	for (b = 0; b < n; b += SV_PAIRWISE_NP_BUFSIZE) {
		size_t m = n - b < SV_PAIRWISE_NP_BUFSIZE
				   ? n - b
				   : SV_PAIRWISE_NP_BUFSIZE;
		for (i = 0; i < m; i++) {
			size_t c = idx ? idx[b + i] : b + i;
			double d = (double)sv_sub_wrap(end[c], start[c]) - mean;
			x[i] = d * d;
		}
		acc += sv_pairwise_sum(x, m);
	}
	s->mean = mean;
	s->m2 = acc / (double)n * (double)n;
	free(x);
}

void sv_write_summarize(const int64_t *start_ns, const int64_t *end_ns,
	const int64_t *gpu_ns, size_t n, struct sv_write_summary *out)
{
	sv_write_summary_idx(start_ns, end_ns, gpu_ns, NULL, n, out);
}

/* ------------------------------------------------------------------ */
/* Exclusive totals */

struct excl_ctx {
	const int64_t *start, *end, *thread, *task;
	const uint32_t *row;
};

/* scope-profiler's lane of call c (concurrency.py lane_ids); thread
 * INT64_MAX, where -2 - thread would overflow, as the loader has it
 * (profile_lanes.c). */
static int64_t excl_lane(const struct excl_ctx *x, uint32_t c)
{
	int64_t th = x->thread ? x->thread[c] : -1;
	int64_t tk = x->task ? x->task[c] : -1;
	if (tk >= 0)
		return tk;
	if (th < 0)
		return -1;
	return th == INT64_MAX ? INT64_MIN : -2 - th;
}

static int excl_cmp(const void *pa, const void *pb, void *arg)
{
	const struct excl_ctx *x = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int64_t la = excl_lane(x, a), lb = excl_lane(x, b);
	if (la != lb)
		return la < lb ? -1 : 1;
	if (x->start[a] != x->start[b])
		return x->start[a] < x->start[b] ? -1 : 1;
	if (x->end[a] != x->end[b])
		return x->end[a] > x->end[b] ? -1 : 1;
	if (x->row[a] != x->row[b])
		return x->row[a] < x->row[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* A partial overlap makes the totals undefined: remember that one
 * happened. */
static void excl_overlap(void *ctx, uint32_t call, uint32_t parent)
{
	(void)call;
	(void)parent;
	*(bool *)ctx = true;
}

int sv_write_exclusive_totals(const int64_t *start_ns, const int64_t *end_ns,
	const int64_t *thread_id, const int64_t *task_id,
	const uint32_t *row_of, uint64_t ncalls, int64_t *totals, size_t nrows)
{
	struct excl_ctx x = {start_ns, end_ns, thread_id, task_id, row_of};
	bool overlap = false;
	struct sv_nest nest = {.start_ns = start_ns,
		.end_ns = end_ns,
		.overlap = excl_overlap,
		.ctx = &overlap};
	uint32_t *order, *stack;
	uint64_t i, lane_start;

	memset(totals, 0, nrows * sizeof *totals);
	if (ncalls == 0)
		return 0;
	if (ncalls >= UINT32_MAX)
		return -EINVAL;
	for (i = 0; i < ncalls; i++)
		if (end_ns[i] < start_ns[i])
			return -EINVAL;
	order = sv_xmalloc(ncalls * sizeof *order);
	stack = sv_xmalloc(ncalls * sizeof *stack);
	nest.parent = sv_xmalloc(ncalls * sizeof *nest.parent);
	for (i = 0; i < ncalls; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, ncalls, sizeof *order, excl_cmp, &x);
	/* Each lane is a run of the order; nest them one by one. */
	for (lane_start = 0, i = 1; i <= ncalls && !overlap; i++)
		if (i == ncalls || excl_lane(&x, order[i - 1]) !=
					   excl_lane(&x, order[i])) {
			sv_nest_lane(&nest, order + lane_start,
				(size_t)(i - lane_start), stack);
			lane_start = i;
		}
	/* A call's whole duration counts for its row and, without partial
	 * overlaps, against its parent's. */
	for (i = 0; i < ncalls && !overlap; i++) {
		int64_t d = sv_sub_wrap(end_ns[i], start_ns[i]);
		totals[row_of[i]] = sv_add_wrap(totals[row_of[i]], d);
		if (nest.parent[i] != SV_NO_CALL)
			totals[row_of[nest.parent[i]]] =
				sv_sub_wrap(totals[row_of[nest.parent[i]]], d);
	}
	free(order);
	free(stack);
	free(nest.parent);
	return overlap ? -EINVAL : 0;
}
