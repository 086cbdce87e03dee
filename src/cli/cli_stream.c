/*
 * cli_stream.c: the statistics of a large profile read a share of its
 * ranks at a time (sv_cli_stream_table, cli.h), for `summary`: each
 * share is loaded (the loader's rank-subset reads), its table computed
 * and its calls freed before the next is read, so the command holds one
 * share's calls and four bytes of each call's duration, not every call
 * (stats.h's sv_stats_stream puts the tables together).
 *
 * The figures are those of one load of every rank, or the file is loaded
 * whole instead: the lanes' ties nest by each region's earliest start
 * over the whole run, which the shares take from the stored records and
 * which is checked against the calls read; a share that warns of what
 * the index did not (a call that ends before it starts, a partial
 * overlap) sends the command back to one load, whose warnings count
 * every rank at once.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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
		if (r->rank + 1 > n)
			n = r->rank + 1;
		if (!r->count)
			continue;
		if (!r->has_summary)
			return false;
		total += r->count;
		if (r0 == UINT32_MAX)
			r0 = r->rank;
		else if (r->rank != r0)
			many = true;
	}
	*nranks = n;
	*ncalls = total;
	return whole->layout == SV_LAYOUT_COLUMNAR && whole->schema >= 2 &&
	       many && total >= stream_min_calls();
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

/* The shares and what they found.  One thread reads them in rank
 * order, each as soon as the one before it was taken, while this one
 * makes each table: two shares' calls at most are held at once. */
struct stream_run {
	const char *path;
	const struct sv_load_opts *base;
	const struct sv_stats_filter *f;
	const struct sv_profile *whole;
	const int64_t *first; /* the tie order given to every share */
	int64_t *low;         /* each region's earliest start read */
	bool *seen;
	struct sv_stats_stream *s;
	/* The shares: ranks [cut[k], cut[k + 1]), nshares of them. */
	uint32_t *cut, nshares, nranks;
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
	struct stream_run *x = ctx;
	bool stop;

	pthread_mutex_lock(&x->mu);
	stop = x->stop;
	pthread_mutex_unlock(&x->mu);
	return stop;
}

/* The reader: each share in turn, handed over one at a time. */
static void *stream_reader(void *arg)
{
	struct stream_run *x = arg;
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
		lo.stored_exclusive = true;
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
	struct stream_run *x, struct sv_profile **out, struct sv_error *err)
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

/* Each region's earliest start among p's calls into the run's. */
static void stream_low(struct stream_run *x, const struct sv_profile *p,
	const struct sv_stats_table *lt)
{
	uint32_t g, nr = x->whole->nregions;
	size_t i, k;

	if (x->f && (x->f->ninclude || x->f->nexclude)) {
		/* The table lacks some regions: from the calls. */
		int64_t *mine = sv_xcalloc(nr ? nr : 1, sizeof *mine);
		bool *had = sv_xcalloc(nr ? nr : 1, sizeof *had);
		sv_profile_region_first(p, mine, had);
		for (g = 0; g < nr; g++)
			if (had[g] && (!x->seen[g] || mine[g] < x->low[g])) {
				x->low[g] = mine[g];
				x->seen[g] = true;
			}
		free(mine);
		free(had);
		return;
	}
	for (i = 0; i < lt->nregions; i++)
		for (k = 0; k < lt->regions[i].nranks; k++) {
			const struct sv_stats *s = &lt->regions[i].ranks[k].s;
			g = lt->regions[i].region;
			if (!s->num_calls || !s->has_span)
				continue;
			if (!x->seen[g] || s->first_start_ns < x->low[g])
				x->low[g] = s->first_start_ns;
			x->seen[g] = true;
		}
}

/* A share's table into the stream: 1, 0 when the file is to be loaded
 * whole after all, or a negative errno with err. */
static int stream_share(
	struct stream_run *x, struct sv_profile *p, struct sv_error *err)
{
	const struct sv_profile *w = x->whole;
	struct sv_stats_table lt;
	int rc;

	if (!p->rank_subset || p->nregions != w->nregions ||
		!stream_quiet(p, w))
		return 0;
	rc = sv_stats_table_compute(&lt, p, x->f, err);
	if (rc == 0) {
		stream_low(x, p, &lt);
		rc = sv_stats_stream_add(x->s, &lt, err);
	}
	sv_stats_table_fini(&lt);
	return rc < 0 ? rc : 1;
}

/* The shares of at most limit calls each (or one rank), in rank order. */
static void stream_cut(struct stream_run *x, uint64_t limit)
{
	const struct sv_profile *w = x->whole;
	uint64_t *calls = sv_xcalloc(x->nranks ? x->nranks : 1, sizeof *calls);
	uint32_t r = 0;
	size_t i;

	for (i = 0; i < w->nrows; i++)
		calls[w->rows[i].rank] += w->rows[i].count;
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

/* Every share through the stream: 1, 0 or a negative errno as
 * stream_share. */
static int stream_shares(struct stream_run *x, struct sv_error *err)
{
	pthread_t t;
	uint32_t k;
	int rc = 1;

	pthread_mutex_init(&x->mu, NULL);
	pthread_cond_init(&x->cv, NULL);
	if (pthread_create(&t, NULL, stream_reader, x) != 0) {
		pthread_mutex_destroy(&x->mu);
		pthread_cond_destroy(&x->cv);
		return 0;
	}
	for (k = 0; rc == 1 && k < x->nshares; k++) {
		struct sv_profile *p = NULL;
		rc = stream_take(x, &p, err);
		if (rc == 0)
			rc = stream_share(x, p, err);
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

int sv_cli_stream_table(const char *path, const struct sv_load_opts *base,
	const struct sv_stats_filter *f, struct sv_stats_table *t,
	struct sv_profile **whole, struct sv_error *err)
{
	struct sv_load_opts lo = *base;
	struct stream_run x;
	struct sv_profile *w = NULL;
	struct sv_error quiet;
	uint64_t ncalls, limit;
	uint32_t nranks, g;
	int rc;

	*whole = NULL;
	if (!sv_cli_engine->calls_here || base->rank_on ||
		(f && (f->rank_on || f->lane_on || f->by_thread || f->call_on ||
			      f->has_range)))
		return 0;
	lo.summary_only = true;
	/* What the index cannot give, the whole load reports. */
	if (sv_load(path, &lo, &w, &quiet) < 0)
		return 0;
	if (!stream_fits(w, &nranks, &ncalls)) {
		sv_profile_free(w);
		return 0;
	}
	limit = ncalls / 16 < STREAM_SHARE_MAX ? ncalls / 16 : STREAM_SHARE_MAX;
	memset(&x, 0, sizeof x);
	x.nranks = nranks;
	x.path = path;
	x.base = base;
	x.f = f;
	x.whole = w;
	x.first = stream_first(w);
	x.low = sv_xcalloc(w->nregions ? w->nregions : 1, sizeof *x.low);
	x.seen = sv_xcalloc(w->nregions ? w->nregions : 1, sizeof *x.seen);
	x.s = sv_stats_stream_new(w);
	stream_cut(&x, limit);
	/* Each share's columns are the next one's: kept in the heap, not
	 * mapped and faulted in again (heap.h). */
	sv_heap_hold();
	rc = stream_shares(&x, err);
	sv_heap_release();
	/* The tie order the shares nested with is the run's own. */
	for (g = 0; rc == 1 && g < w->nregions; g++)
		if (x.seen[g] && x.low[g] != x.first[g])
			rc = 0;
	if (rc == 1 && sv_stats_stream_end(x.s, t, f, err) < 0)
		rc = -EINVAL;
	sv_stats_stream_free(x.s);
	free((void *)x.first);
	free(x.low);
	free(x.seen);
	free(x.cut);
	if (rc != 1) {
		sv_profile_free(w);
		return rc;
	}
	*whole = w;
	return 1;
}
