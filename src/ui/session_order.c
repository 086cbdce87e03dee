/*
 * session_order.c: the search's match list in start order made from the
 * profile's rows (session_priv.h's sv_session_rows_runs).
 *
 * A region-name search matches whole (rank, region) rows, and a row's
 * calls are stored in start order, or in a few runs of it.  So the list
 * is a merge of sorted runs, not a sort: the runs are found in one pass
 * over the rows' starts (read a block at a time), the time that halves
 * the calls is found by binary searches in the runs, and each half is
 * merged on a thread of its own through a heap of the runs' heads.  No
 * key is copied per call: a list of 60M calls is 240 MB written once,
 * where a radix sort of (start, call) pairs wrote 960 MB twice over.
 * Calls that start together come out by lane, then in the lane's own
 * order (as a scan of the lanes gives them), whatever order the runs
 * had.  The list is made only when asked (sv_session_runs_calls): a
 * position in it and the count of calls before a time are binary
 * searches in the runs.  The sort of any list of calls by start or
 * longest first (sv_session_sort_calls) is here too, for the lists that
 * are not whole rows, and the rows' calls in row order.  Nothing here
 * knows about curses or HDF5.
 */
#include "scopeview/session.h"

#include "session_priv.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/calls.h"
#include "scopeview/radix.h"

/* Starts read at a time, per run. */
#define ORDER_BUF 64
/* More runs than this (rows far from start order) are left to the sort. */
#define ORDER_RUNS_MAX 65536
/* Below this many calls the list is merged on one thread. */
#define ORDER_SPLIT_MIN (1u << 20)
/* Calls merged between looks at the stop flag. */
#define ORDER_STEP 65536

struct order_ctx {
	const struct sv_profile *p;
	const atomic_bool *cancel;
	_Atomic uint64_t *progress;
	struct sv_session_run *runs;
	size_t nruns, cap;
	size_t n;
};

static bool order_stopped(const struct order_ctx *o)
{
	return o->cancel && atomic_load(o->cancel);
}

static void order_push(struct order_ctx *o, uint32_t a, uint32_t b)
{
	sv_grow((void **)&o->runs, &o->cap, o->nruns + 1, sizeof *o->runs);
	o->runs[o->nruns].a = a;
	o->runs[o->nruns].b = b;
	o->nruns++;
	o->n += b - a;
}

/* Row r's calls as runs in start order. */
static void order_row(struct order_ctx *o, const struct sv_row *row)
{
	int64_t buf[ORDER_BUF], last = INT64_MIN;
	uint32_t c = (uint32_t)row->first, end = c + (uint32_t)row->count,
		 a = c;

	while (c < end) {
		size_t m = end - c < ORDER_BUF ? end - c : ORDER_BUF, j;
		sv_profile_starts(o->p, c, m, buf);
		for (j = 0; j < m; j++) {
			if (buf[j] < last) {
				order_push(o, a, c + (uint32_t)j);
				a = c + (uint32_t)j;
			}
			last = buf[j];
		}
		c += (uint32_t)m;
	}
	if (end > a)
		order_push(o, a, end);
}

/* Calls of every run that start before t. */
static size_t order_count_below(const struct order_ctx *o, int64_t t)
{
	size_t k, n = 0;

	for (k = 0; k < o->nruns; k++)
		n += sv_profile_range_lower(
			     o->p, o->runs[k].a, o->runs[k].b, t) -
		     o->runs[k].a;
	return n;
}

/* The earliest start *lo and the latest *hi of the runs' calls (each
 * run's first and last). */
static void order_span(const struct order_ctx *o, int64_t *lo, int64_t *hi)
{
	size_t k;

	*lo = INT64_MAX;
	*hi = INT64_MIN;
	for (k = 0; k < o->nruns; k++) {
		int64_t a = sv_profile_start(o->p, o->runs[k].a),
			b = sv_profile_start(o->p, o->runs[k].b - 1);
		*lo = a < *lo ? a : *lo;
		*hi = b > *hi ? b : *hi;
	}
}

/* The smallest time t with at least half the calls starting before it
 * (the calls that start at t all fall after it). */
static int64_t order_pivot(const struct order_ctx *o)
{
	int64_t lo, hi;

	order_span(o, &lo, &hi);
	/* count_below(lo) is 0; find the least t in (lo, hi] with
	 * count_below(t) >= n / 2. */
	while (lo < hi) {
		int64_t mid = lo + (int64_t)(((uint64_t)hi - (uint64_t)lo) / 2);
		if (order_count_below(o, mid + 1) >= o->n / 2)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo + (lo < INT64_MAX);
}

void sv_session_order_ties(
	const struct sv_profile *p, uint32_t *out, size_t a, size_t b)
{
	size_t i, j;

	for (i = a + 1; i < b; i++) {
		uint32_t x = out[i], lx = sv_call_lane(p, x);
		for (j = i; j > a; j--) {
			uint32_t ly = sv_call_lane(p, out[j - 1]);
			if (ly < lx || (ly == lx && !sv_profile_lane_order(
							    p, x, out[j - 1])))
				break;
			out[j] = out[j - 1];
		}
		out[j] = x;
	}
}

void sv_session_sort_calls(const struct sv_profile *p, uint32_t *calls,
	size_t n, bool longest, bool lane_ties, const atomic_bool *cancel)
{
	const uint64_t sign = (uint64_t)1 << 63;
	struct sv_radix_kv *kv, *tmp;
	size_t i;

	if (n < 2)
		return;
	if (longest) {
		sv_calls_sort(
			p, calls, n, SV_CALLS_KEY_DURATION, false, cancel);
		return;
	}
	kv = sv_xmalloc(n * sizeof *kv);
	tmp = sv_xmalloc(n * sizeof *tmp);
	for (i = 0; i < n; i++) {
		kv[i].key = (uint64_t)sv_profile_start(p, calls[i]) ^ sign;
		kv[i].value = calls[i];
	}
	sv_radix_sort(kv, tmp, n);
	for (i = 0; i < n; i++)
		calls[i] = kv[i].value;
	for (i = 0; lane_ties && i < n;) {
		size_t j = i + 1;
		while (j < n && kv[j].key == kv[i].key)
			j++;
		if (j - i > 1)
			sv_session_order_ties(p, calls, i, j);
		i = j;
	}
	free(kv);
	free(tmp);
}

/* One half's merge: runs [lo[k], hi[k]) of every run k into out. */
struct order_half {
	const struct order_ctx *o;
	const uint32_t *lo, *hi;
	uint32_t *out;
	bool stopped;
};

struct order_head {
	int64_t t;
	uint32_t run;
};

struct order_cursor {
	uint32_t at, end;
	uint32_t i, m;
	int64_t buf[ORDER_BUF];
};

static bool order_head_less(
	const struct order_head *x, const struct order_head *y)
{
	return x->t < y->t || (x->t == y->t && x->run < y->run);
}

static void order_sift(struct order_head *h, size_t n, size_t i)
{
	struct order_head x = h[i];

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && order_head_less(&h[c + 1], &h[c]))
			c++;
		if (!order_head_less(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

/* The next start of cursor u into *t; false when it is done. */
static bool order_next(
	const struct sv_profile *p, struct order_cursor *u, int64_t *t)
{
	if (u->i == u->m) {
		if (u->at >= u->end)
			return false;
		u->m = u->end - u->at < ORDER_BUF ? u->end - u->at : ORDER_BUF;
		sv_profile_starts(p, u->at, u->m, u->buf);
		u->i = 0;
	}
	*t = u->buf[u->i];
	return true;
}

static void *order_merge(void *arg)
{
	struct order_half *hf = arg;
	const struct order_ctx *o = hf->o;
	struct order_cursor *cur =
		sv_xmalloc((o->nruns ? o->nruns : 1) * sizeof *cur);
	struct order_head *heap =
		sv_xmalloc((o->nruns ? o->nruns : 1) * sizeof *heap);
	size_t nh = 0, k, n = 0, tie = 0;
	int64_t last = 0;

	for (k = 0; k < o->nruns; k++) {
		cur[k].at = hf->lo[k];
		cur[k].end = hf->hi[k];
		cur[k].i = cur[k].m = 0;
		if (order_next(o->p, &cur[k], &heap[nh].t))
			heap[nh++].run = (uint32_t)k;
	}
	for (k = nh / 2; k-- > 0;)
		order_sift(heap, nh, k);
	while (nh) {
		struct order_cursor *u = &cur[heap[0].run];
		int64_t t = heap[0].t;
		if (n && t != last) {
			if (n - tie > 1)
				sv_session_order_ties(o->p, hf->out, tie, n);
			tie = n;
		}
		last = t;
		hf->out[n++] = u->at++;
		u->i++;
		if (!order_next(o->p, u, &heap[0].t))
			heap[0] = heap[--nh];
		order_sift(heap, nh, 0);
		if (!(n % ORDER_STEP)) {
			if (order_stopped(o)) {
				hf->stopped = true;
				break;
			}
			if (o->progress)
				atomic_fetch_add(o->progress, ORDER_STEP);
		}
	}
	if (!hf->stopped && n - tie > 1)
		sv_session_order_ties(o->p, hf->out, tie, n);
	free(cur);
	free(heap);
	return NULL;
}

int sv_session_rows_runs(const struct sv_session *s, const bool *region_on,
	const atomic_bool *cancel, _Atomic uint64_t *progress,
	struct sv_session_runs *out)
{
	const bool *region_keep = sv_session_region_keep(s);
	const struct sv_profile *p = s->p;
	struct order_ctx o = {p, cancel, progress, NULL, 0, 0, 0};
	size_t r;

	memset(out, 0, sizeof *out);
	if (sv_session_call_keep(s) || !p->row_lane)
		return -EAGAIN;
	for (r = 0; r < p->nrows; r++) {
		const struct sv_row *row = &p->rows[r];
		uint32_t lane = sv_row_lane(p, r);
		if (!region_on[row->region] || !row->count)
			continue;
		if (lane == UINT32_MAX || o.nruns > ORDER_RUNS_MAX) {
			free(o.runs);
			return -EAGAIN;
		}
		if (s->lane_hidden[lane] ||
			(region_keep && !region_keep[row->region]))
			continue;
		if (order_stopped(&o)) {
			free(o.runs);
			return -ECANCELED;
		}
		order_row(&o, row);
		if (progress)
			atomic_fetch_add(progress, row->count);
	}
	out->run = o.runs;
	out->nruns = o.nruns;
	out->ncalls = o.n;
	return 0;
}

void sv_session_runs_fini(struct sv_session_runs *r)
{
	free(r->run);
	memset(r, 0, sizeof *r);
}

/* A view of runs r for the functions above (which do not change them). */
static struct order_ctx order_of(const struct sv_profile *p,
	const struct sv_session_runs *r, const atomic_bool *cancel,
	_Atomic uint64_t *progress)
{
	struct order_ctx o = {
		p, cancel, progress, r->run, r->nruns, r->nruns, r->ncalls};
	return o;
}

size_t sv_session_runs_merge(const struct sv_profile *p,
	const struct sv_session_runs *r, const atomic_bool *cancel,
	_Atomic uint64_t *progress, uint32_t **out)
{
	struct order_ctx o = order_of(p, r, cancel, progress);
	struct order_half half[2];
	uint32_t *lo = NULL, *mid = NULL, *hi = NULL, *calls;
	size_t k, nhalf = 1, n0;
	pthread_t t;
	bool two = false;

	calls = sv_xmalloc((o.n ? o.n : 1) * sizeof *calls);
	lo = sv_xmalloc((o.nruns ? o.nruns : 1) * sizeof *lo);
	mid = sv_xmalloc((o.nruns ? o.nruns : 1) * sizeof *mid);
	hi = sv_xmalloc((o.nruns ? o.nruns : 1) * sizeof *hi);
	for (k = 0; k < o.nruns; k++) {
		lo[k] = mid[k] = o.runs[k].a;
		hi[k] = o.runs[k].b;
	}
	n0 = o.n;
	if (o.n >= ORDER_SPLIT_MIN && !order_stopped(&o)) {
		int64_t pivot = order_pivot(&o);
		n0 = 0;
		for (k = 0; k < o.nruns; k++) {
			mid[k] = (uint32_t)sv_profile_range_lower(
				p, o.runs[k].a, o.runs[k].b, pivot);
			n0 += mid[k] - o.runs[k].a;
		}
		nhalf = 2;
	}
	half[0] = (struct order_half){
		&o, lo, nhalf == 2 ? mid : hi, calls, false};
	half[1] = (struct order_half){&o, mid, hi, calls + n0, false};
	if (nhalf == 2)
		two = pthread_create(&t, NULL, order_merge, &half[1]) == 0;
	if (!order_stopped(&o))
		order_merge(&half[0]);
	if (two)
		pthread_join(t, NULL);
	else if (nhalf == 2 && !order_stopped(&o))
		order_merge(&half[1]);
	free(lo);
	free(mid);
	free(hi);
	*out = calls;
	return order_stopped(&o) || half[0].stopped || half[1].stopped ? 0
								       : o.n;
}

size_t sv_session_runs_lower(
	const struct sv_profile *p, const struct sv_session_runs *r, int64_t t)
{
	struct order_ctx o = order_of(p, r, NULL, NULL);
	return order_count_below(&o, t);
}

/* Calls [*a, *b) of run u that start at t. */
static void order_run_at(const struct sv_profile *p,
	const struct sv_session_run *u, int64_t t, uint64_t *a, uint64_t *b)
{
	*a = sv_profile_range_lower(p, u->a, u->b, t);
	*b = t == INT64_MAX ? u->b : sv_profile_range_lower(p, *a, u->b, t + 1);
}

size_t sv_session_runs_ties(const struct sv_profile *p,
	const struct sv_session_runs *r, int64_t t, uint32_t **out)
{
	uint64_t a, b;
	size_t k, n = 0, cap = 0;

	*out = NULL;
	for (k = 0; k < r->nruns; k++) {
		order_run_at(p, &r->run[k], t, &a, &b);
		if (b > a)
			sv_grow((void **)out, &cap, n + (b - a), sizeof **out);
		for (; a < b; a++)
			(*out)[n++] = (uint32_t)a;
	}
	if (n > 1)
		sv_session_order_ties(p, *out, 0, n);
	return n;
}

uint32_t sv_session_runs_at(
	const struct sv_profile *p, const struct sv_session_runs *r, size_t i)
{
	struct order_ctx o = order_of(p, r, NULL, NULL);
	int64_t lo, hi;
	uint32_t *tie, c;
	size_t below, n;

	if (i >= r->ncalls)
		return SV_NO_CALL;
	order_span(&o, &lo, &hi);
	/* The start of call i: the greatest t with at most i calls starting
	 * before it. */
	while (lo < hi) {
		int64_t mid = hi - (int64_t)(((uint64_t)hi - (uint64_t)lo) / 2);
		if (order_count_below(&o, mid) <= i)
			lo = mid;
		else
			hi = mid - 1;
	}
	below = order_count_below(&o, lo);
	n = sv_session_runs_ties(p, r, lo, &tie);
	c = i - below < n ? tie[i - below] : SV_NO_CALL;
	free(tie);
	return c;
}

uint32_t *sv_session_runs_calls(const struct sv_profile *p,
	const struct sv_session_runs *r, bool by_start)
{
	uint32_t *out, c;
	size_t k, i = 0;

	if (by_start && r->ncalls) {
		sv_session_runs_merge(p, r, NULL, NULL, &out);
		return out;
	}
	out = sv_xmalloc((r->ncalls ? r->ncalls : 1) * sizeof *out);
	for (k = 0; k < r->nruns; k++)
		for (c = r->run[k].a; c < r->run[k].b; c++)
			out[i++] = c;
	return out;
}

/* ---- the rows' calls, in row order ------------------------------------ */

/* Whether row r's region is flagged (region_on), or is one_region. */
static bool order_row_on(const struct sv_profile *p, size_t r,
	const bool *region_on, long one_region)
{
	return region_on ? region_on[p->rows[r].region]
			 : (long)p->rows[r].region == one_region;
}

size_t sv_session_collect_rows(const struct sv_session *s,
	const bool *region_on, long one_region, const atomic_bool *cancel,
	_Atomic uint64_t *progress, uint32_t **out)
{
	const bool *call_keep = sv_session_call_keep(s),
		   *region_keep = sv_session_region_keep(s);
	const struct sv_profile *p = s->p;
	uint32_t *calls;
	size_t r, k = 0, n = 0;

	for (r = 0; r < p->nrows; r++)
		if (order_row_on(p, r, region_on, one_region))
			k += p->rows[r].count;
	calls = sv_xmalloc((k ? k : 1) * sizeof *calls);
	for (r = 0; r < p->nrows; r++) {
		const struct sv_row *row = &p->rows[r];
		uint32_t row_lane = sv_row_lane(p, r);
		uint64_t c;
		if (!order_row_on(p, r, region_on, one_region))
			continue;
		if (cancel && atomic_load(cancel))
			break;
		if (progress)
			atomic_fetch_add(progress, row->count);
		if (row_lane != UINT32_MAX && s->lane_hidden[row_lane])
			continue;
		if (!call_keep && region_keep && !region_keep[row->region])
			continue;
		for (c = row->first; c < row->first + row->count; c++)
			if ((row_lane != UINT32_MAX ||
				    !s->lane_hidden[sv_call_lane(
					    p, (uint32_t)c)]) &&
				(!call_keep || call_keep[c]))
				calls[n++] = (uint32_t)c;
	}
	*out = calls;
	return n;
}
