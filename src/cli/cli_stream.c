/*
 * cli_stream.c: a large profile read a share of its ranks at a time
 * (struct sv_cli_shares, cli.h), for the reports that need no more than
 * one share's calls at once: summary and ranks (their statistics table:
 * sv_cli_stream_table, each share's table put together by stats.h's
 * sv_stats_stream, which keeps four bytes of each call's duration) and
 * tree (sv_cli_stream_tree, each share's tree merged into the last
 * ones').  Each share is loaded (the loader's rank-subset reads) on a
 * thread of its own while this one works on the share before, and freed
 * once taken, so two shares' calls are held at most.
 *
 * The figures are those of one load of every rank, or the file is loaded
 * whole instead: the lanes' ties nest by each region's earliest start
 * over the whole run, and the time origin is the earliest start, which
 * the shares take from the stored records and which is checked against
 * the calls read; a share that warns of what the index did not (a call
 * that ends before it starts, a partial overlap) sends the command back
 * to one load, whose warnings count every rank at once.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/callpath.h"
#include "scopeview/cli.h"
#include "scopeview/heap.h"
#include "scopeview/load.h"
#include "scopeview/stats.h"

/* A profile of fewer calls is loaded whole (SCOPEVIEW_STREAM_MIN_CALLS
 * sets another floor, for the tests). */
#define STREAM_MIN_CALLS 4000000
/* A share holds at most a sixteenth of the calls, and at most this many
 * (about 40 bytes a call while its table is made), or one rank; two are
 * held at once (one read while the other's table is made). */
#define STREAM_SHARE_MAX 16000000
/* Rank numbers above this (the shares keep a flag and a count a rank up
 * to the highest) are a file for one load. */
#define STREAM_MAX_RANK (1u << 24)

static uint64_t stream_min_calls(void)
{
	const char *v = getenv("SCOPEVIEW_STREAM_MIN_CALLS");
	char *end;
	unsigned long long n;

	if (!v || !*v)
		return STREAM_MIN_CALLS;
	n = strtoull(v, &end, 10);
	return *end ? STREAM_MIN_CALLS : (uint64_t)n;
}

/* Whether whole (a summary-only load) is a file to read in shares: rows
 * of calls on two ranks or more, every such row with its stored record
 * (the shares' tie order), and enough calls.  *nranks gets the highest
 * rank + 1. */
static bool stream_fits(
	const struct sv_profile *whole, uint32_t *nranks, uint64_t *ncalls)
{
	uint64_t total = 0;
	uint32_t n = 0, r0 = UINT32_MAX;
	bool many = false;
	size_t i;

	for (i = 0; i < whole->nrows; i++) {
		const struct sv_row *r = &whole->rows[i];
		if (r->rank >= STREAM_MAX_RANK)
			return false;
		if (r->rank + 1 > n)
			n = r->rank + 1;
		if (!r->count)
			continue;
		if (!r->has_summary || r->count > SV_MAX_CALLS)
			return false;
		total += r->count;
		if (r0 == UINT32_MAX)
			r0 = r->rank;
		else if (r->rank != r0)
			many = true;
	}
	*nranks = n;
	*ncalls = total;
	/* (More calls than a load holds: the load says so.) */
	return whole->layout == SV_LAYOUT_COLUMNAR && whole->schema >= 2 &&
	       many && total >= stream_min_calls() && total <= SV_MAX_CALLS;
}

/* Each region's earliest start from the stored records (0: no calls). */
static int64_t *stream_first(const struct sv_profile *whole)
{
	int64_t *first = sv_xcalloc(
		whole->nregions ? whole->nregions : 1, sizeof *first);
	bool *seen = sv_xcalloc(whole->nregions ? whole->nregions : 1, 1);
	size_t i;

	for (i = 0; i < whole->nrows; i++) {
		const struct sv_row *r = &whole->rows[i];
		if (!r->count || r->region >= whole->nregions)
			continue;
		if (!seen[r->region] ||
			r->summary.start_minimum < first[r->region])
			first[r->region] = r->summary.start_minimum;
		seen[r->region] = true;
	}
	free(seen);
	return first;
}

/* Whether every warning of share is one whole gave (the index's). */
static bool stream_quiet(
	const struct sv_profile *share, const struct sv_profile *whole)
{
	size_t i, j;

	for (i = 0; i < share->nwarnings; i++) {
		for (j = 0; j < whole->nwarnings; j++)
			if (!strcmp(share->warnings[i], whole->warnings[j]))
				break;
		if (j == whole->nwarnings)
			return false;
	}
	return true;
}

/* The shares: the file's index, what each share is given and what the
 * shares found.  One thread reads them in rank order, each as soon as
 * the one before it was taken. */
struct sv_cli_shares {
	const char *path;
	const struct sv_load_opts *base;
	struct sv_profile *whole;
	int64_t *first; /* the tie order given to every share */
	int64_t *low;   /* each region's earliest start read */
	bool *seen;
	bool any;          /* some call read ... */
	int64_t min_start; /* ... and the earliest start */
	bool nested;
	/* The shares: ranks [cut[k], cut[k + 1]), nshares of them. */
	uint32_t *cut, nshares, nranks;
	uint64_t ncalls;
	/* The reader's hand-over: a share read (or its failure), taken by
	 * setting full false. */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool full, stop;
	struct sv_profile *ready;
	int ready_rc;
	struct sv_error ready_err;
};

static int stream_stopped(void *ctx)
{
	struct sv_cli_shares *x = ctx;
	bool stop;

	pthread_mutex_lock(&x->mu);
	stop = x->stop;
	pthread_mutex_unlock(&x->mu);
	return stop;
}

/* The reader: each share in turn, handed over one at a time. */
static void *stream_reader(void *arg)
{
	struct sv_cli_shares *x = arg;
	const struct sv_profile *w = x->whole;
	bool *on = sv_xcalloc(x->nranks ? x->nranks : 1, sizeof *on);
	uint32_t k, r;

	for (k = 0; k < x->nshares && !stream_stopped(x); k++) {
		struct sv_load_opts lo = *x->base;
		struct sv_profile *p = NULL;
		struct sv_error err = {0};
		int rc;

		memset(on, 0, x->nranks * sizeof *on);
		for (r = x->cut[k]; r < x->cut[k + 1]; r++)
			on[r] = true;
		lo.summary_only = false;
		lo.pack = false;
		lo.absent_lanes = false;
		lo.rank_on = on;
		lo.nrank_on = x->nranks;
		lo.region_first = x->first;
		lo.nregion_first = w->nregions;
		lo.stored_exclusive = !x->nested;
		/* Finished on the taking thread (stream_shares): the
		 * reading one goes on to the next share meanwhile. */
		lo.finish_later = !x->nested;
		lo.cancelled = stream_stopped;
		lo.ctx = x;
		rc = sv_load(x->path, &lo, &p, &err);
		pthread_mutex_lock(&x->mu);
		while (x->full && !x->stop)
			pthread_cond_wait(&x->cv, &x->mu);
		if (x->stop) {
			pthread_mutex_unlock(&x->mu);
			sv_profile_free(p);
			break;
		}
		x->ready = rc < 0 ? NULL : p;
		x->ready_rc = rc;
		x->ready_err = err;
		x->full = true;
		pthread_cond_broadcast(&x->cv);
		pthread_mutex_unlock(&x->mu);
		if (rc < 0)
			break;
	}
	free(on);
	return NULL;
}

/* The next share read: 0 with *out, or a negative errno with err. */
static int stream_take(
	struct sv_cli_shares *x, struct sv_profile **out, struct sv_error *err)
{
	int rc;

	pthread_mutex_lock(&x->mu);
	while (!x->full)
		pthread_cond_wait(&x->cv, &x->mu);
	*out = x->ready;
	rc = x->ready_rc;
	if (rc < 0 && err)
		*err = x->ready_err;
	x->ready = NULL;
	x->full = false;
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
	return rc;
}

/* Each region's earliest start among p's calls (the tie order of a
 * nested share), and the earliest of all, into the shares' (row by row:
 * a row's calls are a run). */
static void stream_low(struct sv_cli_shares *x, const struct sv_profile *p)
{
	int64_t buf[4096];
	size_t i;

	for (i = 0; x->nested && i < p->nrows; i++) {
		const struct sv_row *r = &p->rows[i];
		uint32_t g = r->region;
		uint64_t j, m, q;
		for (j = 0; j < r->count && g < p->nregions; j += m) {
			m = r->count - j < 4096 ? r->count - j : 4096;
			sv_profile_starts(
				p, (uint32_t)(r->first + j), (size_t)m, buf);
			for (q = 0; q < m; q++)
				if (!x->seen[g] || buf[q] < x->low[g]) {
					x->low[g] = buf[q];
					x->seen[g] = true;
				}
		}
	}
	if (p->ncalls && (!x->any || sv_profile_min_start(p) < x->min_start)) {
		x->min_start = sv_profile_min_start(p);
		x->any = true;
	}
}

/* The shares of at most limit calls each (or one rank), in rank order. */
static void stream_cut(struct sv_cli_shares *x, uint64_t limit)
{
	const struct sv_profile *w = x->whole;
	uint64_t *calls = sv_xcalloc(x->nranks ? x->nranks : 1, sizeof *calls);
	uint32_t r = 0;
	size_t i;

	for (i = 0; i < w->nrows; i++)
		calls[w->rows[i].rank] += w->rows[i].count;
	free(x->cut);
	x->cut = sv_xmalloc(((size_t)x->nranks + 1) * sizeof *x->cut);
	x->nshares = 0;
	x->cut[0] = 0;
	while (r < x->nranks) {
		uint64_t held = 0;
		uint32_t lo = r;
		for (; r < x->nranks && (r == lo || held + calls[r] <= limit);
			r++)
			held += calls[r];
		x->cut[++x->nshares] = r;
	}
	free(calls);
}

int sv_cli_shares_open(const char *path, const struct sv_load_opts *base,
	struct sv_cli_shares **out)
{
	struct sv_load_opts lo = *base;
	struct sv_cli_shares *x;
	struct sv_profile *w = NULL;
	struct sv_error quiet;
	uint64_t ncalls;
	uint32_t nranks;

	*out = NULL;
	if (!sv_cli_engine->calls_here || base->rank_on)
		return 0;
	lo.summary_only = true;
	/* What the index cannot give, the whole load reports. */
	if (sv_load(path, &lo, &w, &quiet) < 0)
		return 0;
	if (!stream_fits(w, &nranks, &ncalls)) {
		sv_profile_free(w);
		return 0;
	}
	x = sv_xcalloc(1, sizeof *x);
	x->path = path;
	x->base = base;
	x->whole = w;
	x->nranks = nranks;
	x->ncalls = ncalls;
	x->first = stream_first(w);
	*out = x;
	return 1;
}

const struct sv_profile *sv_cli_shares_whole(const struct sv_cli_shares *x)
{
	return x->whole;
}

struct sv_profile *sv_cli_shares_keep_whole(struct sv_cli_shares *x)
{
	struct sv_profile *w = x->whole;
	x->whole = NULL;
	return w;
}

void sv_cli_shares_close(struct sv_cli_shares *x)
{
	if (!x)
		return;
	sv_profile_free(x->whole);
	free(x->first);
	free(x->low);
	free(x->seen);
	free(x->cut);
	free(x);
}

/* Every share to take, on this thread, read on another. */
static int stream_shares(struct sv_cli_shares *x,
	int (*take)(void *ctx, const struct sv_profile *share,
		struct sv_error *err),
	void *ctx, struct sv_error *err)
{
	pthread_t t;
	uint32_t k;
	int rc = 1;

	pthread_mutex_init(&x->mu, NULL);
	pthread_cond_init(&x->cv, NULL);
	x->full = x->stop = false;
	if (pthread_create(&t, NULL, stream_reader, x) != 0) {
		pthread_mutex_destroy(&x->mu);
		pthread_cond_destroy(&x->cv);
		return 0;
	}
	for (k = 0; rc == 1 && k < x->nshares; k++) {
		struct sv_profile *p = NULL;
		rc = stream_take(x, &p, err);
		/* (sv_profile_finish makes every load's durations column:
		 * a share without one was handed back unfinished.) */
		if (rc == 0 && !p->dur && !p->dur_pk.n)
			rc = sv_profile_finish(p, err);
		if (rc == 0 &&
			(!p->rank_subset || p->nregions != x->whole->nregions ||
				!stream_quiet(p, x->whole)))
			rc = 0;
		else if (rc == 0) {
			stream_low(x, p);
			rc = take(ctx, p, err);
		}
		sv_profile_free(p);
	}
	pthread_mutex_lock(&x->mu);
	x->stop = true;
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
	pthread_join(t, NULL);
	pthread_mutex_destroy(&x->mu);
	pthread_cond_destroy(&x->cv);
	return rc;
}

int sv_cli_shares_run(struct sv_cli_shares *x, bool nested, uint64_t limit,
	int (*take)(void *ctx, const struct sv_profile *share,
		struct sv_error *err),
	void *ctx, struct sv_error *err)
{
	const struct sv_profile *w = x->whole;
	uint32_t g;
	int rc;

	if (!limit)
		limit = x->ncalls / 16 < STREAM_SHARE_MAX ? x->ncalls / 16
							  : STREAM_SHARE_MAX;
	stream_cut(x, limit);
	x->nested = nested;
	free(x->low);
	free(x->seen);
	x->low = sv_xcalloc(w->nregions ? w->nregions : 1, sizeof *x->low);
	x->seen = sv_xcalloc(w->nregions ? w->nregions : 1, sizeof *x->seen);
	x->any = false;
	/* Each share's columns are the next one's: kept in the heap, not
	 * mapped and faulted in again (heap.h). */
	sv_heap_hold();
	rc = stream_shares(x, take, ctx, err);
	sv_heap_release();
	/* The tie order the shares nested with, and the time origin the
	 * index gave, are the run's own. */
	for (g = 0; rc == 1 && g < w->nregions; g++)
		if (x->seen[g] && x->low[g] != x->first[g])
			rc = 0;
	if (rc == 1 && !w->has_start_time &&
		(!x->any || x->min_start != sv_profile_time_origin(w)))
		rc = 0;
	return rc;
}

/* ---- the statistics table ------------------------------------------------- */

struct stream_table {
	const struct sv_stats_filter *f;
	struct sv_stats_stream *s;
};

static int stream_table_take(
	void *ctx, const struct sv_profile *p, struct sv_error *err)
{
	struct stream_table *st = ctx;
	int rc = sv_stats_stream_add(st->s, p, st->f, err);

	return rc < 0 ? rc : 1;
}

int sv_cli_stream_table(const char *path, const struct sv_load_opts *base,
	const struct sv_stats_filter *f, struct sv_stats_table *t,
	struct sv_profile **whole, struct sv_error *err)
{
	struct sv_cli_shares *x;
	struct stream_table st;
	int rc;

	*whole = NULL;
	if (f && (f->rank_on || f->lane_on || f->by_thread || f->call_on ||
			 f->has_range))
		return 0;
	if (sv_cli_shares_open(path, base, &x) != 1)
		return 0;
	st.f = f;
	st.s = sv_stats_stream_new(x->whole);
	rc = sv_cli_shares_run(x, false, 0, stream_table_take, &st, err);
	if (rc == 1 && sv_stats_stream_end(st.s, t, f, err) < 0)
		rc = -EINVAL;
	sv_stats_stream_free(st.s);
	if (rc == 1)
		*whole = sv_cli_shares_keep_whole(x);
	sv_cli_shares_close(x);
	return rc;
}

/* ---- the call tree --------------------------------------------------------- */

struct stream_tree {
	const struct sv_callpath_scope *sc;
	const struct sv_profile *whole;
	struct sv_callpath_node *nodes; /* the shares' tree so far */
	size_t nnodes;
};

static int stream_tree_take(
	void *ctx, const struct sv_profile *p, struct sv_error *err)
{
	struct stream_tree *st = ctx;
	struct sv_callpath lt, merged;
	size_t i, base = st->nnodes;
	int rc = sv_callpath_build(&lt, p, st->sc, err);

	if (rc < 0) {
		sv_callpath_fini(&lt);
		return rc;
	}
	/* This share's nodes after the last ones', merged into one tree
	 * (empty nodes kept until the last merge, as the scope says). */
	st->nodes = sv_xrealloc(
		st->nodes, (base + lt.nnodes + 1) * sizeof *st->nodes);
	memcpy(st->nodes + base, lt.nodes, lt.nnodes * sizeof *lt.nodes);
	for (i = base; i < base + lt.nnodes; i++)
		if (st->nodes[i].parent != SV_CALLPATH_NONE)
			st->nodes[i].parent += (uint32_t)base;
	st->nnodes = base + lt.nnodes;
	sv_callpath_fini(&lt);
	rc = sv_callpath_merge(
		&merged, st->whole, st->sc, st->nodes, st->nnodes, err);
	free(st->nodes);
	st->nodes = merged.nodes;
	st->nnodes = rc < 0 ? 0 : merged.nnodes;
	merged.nodes = NULL;
	sv_callpath_fini(&merged);
	return rc < 0 ? rc : 1;
}

int sv_cli_stream_tree(const char *path, const struct sv_load_opts *base,
	const struct sv_callpath_scope *sc, const int64_t *range,
	struct sv_callpath *t, struct sv_profile **whole, struct sv_error *err)
{
	struct sv_callpath_scope lsc = *sc;
	struct sv_cli_shares *x;
	struct stream_tree st;
	int64_t origin;
	int rc;

	*whole = NULL;
	if (sc->lane_on || sv_cli_shares_open(path, base, &x) != 1)
		return 0;
	origin = sv_profile_time_origin(x->whole);
	if (range) {
		lsc.has_range = true;
		lsc.t0 = sv_add_wrap(origin, range[0]);
		lsc.t1 = sv_add_wrap(origin, range[1]);
	}
	lsc.keep_empty = true;
	memset(&st, 0, sizeof st);
	st.sc = &lsc;
	st.whole = x->whole;
	rc = sv_cli_shares_run(x, true, 0, stream_tree_take, &st, err);
	lsc.keep_empty = sc->keep_empty;
	if (rc == 1 && sv_callpath_merge(
			       t, x->whole, &lsc, st.nodes, st.nnodes, err) < 0)
		rc = -EINVAL;
	free(st.nodes);
	if (rc == 1)
		*whole = sv_cli_shares_keep_whole(x);
	sv_cli_shares_close(x);
	return rc;
}
