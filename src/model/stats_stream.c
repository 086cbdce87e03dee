/*
 * stats_stream.c: the statistics table of a profile whose calls are read
 * a few ranks at a time (stats.h's sv_stats_stream): `scopeview summary`
 * of 100M calls holds each share's calls only while it computes the
 * share's table, and keeps of every call its duration, four bytes, for
 * the pooled percentiles, handed on by the share's table as it reads
 * them (sv_stats_filter.keep: no read of its own, and no percentiles of
 * the share's regions, which nothing here would use).
 *
 * Every (rank, region) row is whole in one share, so its figures are
 * final there (the parts, as scopeview-mpi's processes hand them on);
 * sv_stats_table_merge finishes each region over the index of the whole
 * file, and the pooled percentiles are selected from the kept durations
 * through the buckets of stats_select.c, so that every figure is the one
 * sv_stats_table_compute gives over one load of every share.  Nothing
 * here reads a file.
 */
#include "stats_priv.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* A region's durations: those that fit in 32 bits, four bytes each, and
 * the rest (negative, or 4.3 s and longer) beside them.  v is a mapping
 * of its own (cap values, reserved not committed: only the pages the
 * values fill are memory), so a count the index claims costs nothing
 * until the calls are read, however large, and growing it moves no
 * values; or, where no mapping can be made, from malloc. */
struct stream_pool {
	uint32_t *v;
	size_t n, cap;
	bool mapped;
	int64_t *wide;
	size_t nwide, wide_cap;
	/* The values counted by bucket as the shares' tables counted them
	 * (a region of STREAM_COUNTED calls and more), or NULL. */
	uint32_t *count;
	bool counted;
};

/* A region of fewer calls counts its values itself at the end: the
 * counts (16 KB) would outweigh them. */
#define STREAM_COUNTED (1u << 16)

/* Room for at least want values in pl->v. */
static void stream_reserve(struct stream_pool *pl, size_t want)
{
	size_t cap = pl->cap ? pl->cap : 4096, bytes;
	void *m;

	while (cap < want)
		cap = cap > SIZE_MAX / 8 ? want : cap * 2;
	bytes = cap * sizeof *pl->v;
	if (!pl->v)
		m = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	else if (pl->mapped)
		m = mremap(
			pl->v, pl->cap * sizeof *pl->v, bytes, MREMAP_MAYMOVE);
	else
		m = MAP_FAILED;
	if (m != MAP_FAILED) {
		pl->v = m;
		pl->cap = cap;
		pl->mapped = true;
		return;
	}
	if (pl->mapped) { /* out of address space: copied to the heap */
		uint32_t *v = sv_xmalloc(bytes);
		memcpy(v, pl->v, pl->n * sizeof *v);
		munmap(pl->v, pl->cap * sizeof *pl->v);
		pl->v = v;
		pl->cap = cap;
		pl->mapped = false;
		return;
	}
	sv_grow((void **)&pl->v, &pl->cap, want, sizeof *pl->v);
}

static void stream_pool_free(struct stream_pool *pl)
{
	if (pl->mapped)
		munmap(pl->v, pl->cap * sizeof *pl->v);
	else
		sv_free_big(pl->v);
	free(pl->wide);
	free(pl->count);
	memset(pl, 0, sizeof *pl);
}

struct sv_stats_stream {
	const struct sv_profile *whole;
	struct stream_pool *pool; /* whole->nregions */
	struct sv_stats_part *parts;
	size_t nparts, parts_cap;
};

struct sv_stats_stream *sv_stats_stream_new(const struct sv_profile *whole)
{
	struct sv_stats_stream *s = sv_xcalloc(1, sizeof *s);
	uint64_t *calls = sv_xcalloc(
		whole->nregions ? whole->nregions : 1, sizeof *calls);
	size_t i;
	uint32_t g;

	s->whole = whole;
	s->pool = sv_xcalloc(
		whole->nregions ? whole->nregions : 1, sizeof *s->pool);
	/* Each region's calls as the index counts them: its pool reserved
	 * once at that size (SV_MAX_CALLS at most, what a load holds), not
	 * grown share by share. */
	for (i = 0; i < whole->nrows; i++)
		if (whole->rows[i].region < whole->nregions)
			calls[whole->rows[i].region] += whole->rows[i].count;
	for (g = 0; g < whole->nregions; g++) {
		s->pool[g].counted = calls[g] >= STREAM_COUNTED;
		if (calls[g])
			stream_reserve(
				&s->pool[g], (size_t)(calls[g] < SV_MAX_CALLS
							      ? calls[g]
							      : SV_MAX_CALLS));
	}
	free(calls);
	return s;
}

static void stream_keep(struct stream_pool *pl, const int64_t *v, size_t n)
{
	size_t i;

	if (pl->n + n > pl->cap)
		stream_reserve(pl, pl->n + n);
	for (i = 0; i < n; i++) {
		if (v[i] >= 0 && v[i] <= (int64_t)UINT32_MAX) {
			pl->v[pl->n++] = (uint32_t)v[i];
			continue;
		}
		if (pl->nwide == pl->wide_cap)
			sv_grow((void **)&pl->wide, &pl->wide_cap,
				pl->nwide + 1, sizeof *pl->wide);
		pl->wide[pl->nwide++] = v[i];
	}
}

/* sv_stats_filter.keep of a share's table: region g's durations. */
static void stream_keep_of(void *ctx, uint32_t g, const int64_t *v, size_t n)
{
	struct sv_stats_stream *s = ctx;

	stream_keep(&s->pool[g], v, n);
}

/* sv_stats_filter.keep_counts of a share's table: what region g kept of
 * the share, counted. */
static void stream_counts_of(
	void *ctx, uint32_t g, const uint32_t *count, size_t n)
{
	struct stream_pool *pl = &((struct sv_stats_stream *)ctx)->pool[g];
	size_t i;

	if (!pl->counted || n != SV_STATS_BUCKETS)
		return;
	if (!pl->count)
		pl->count = sv_xcalloc(SV_STATS_BUCKETS, sizeof *pl->count);
	for (i = 0; i < n; i++)
		pl->count[i] += count[i];
}

int sv_stats_stream_add(struct sv_stats_stream *s, const struct sv_profile *p,
	const struct sv_stats_filter *f, struct sv_error *err)
{
	struct sv_stats_filter kf = {0};
	struct sv_stats_table lt;
	struct sv_stats_part *parts;
	size_t n;
	uint32_t g;
	int rc;

	if (!s || !p)
		return sv_error_set(err, -EINVAL, "statistics: no share");
	/* The share's regions are the file's: their durations go to the
	 * pools by region number as the table reads them. */
	for (g = 0; g < p->nregions; g++)
		if (g >= s->whole->nregions ||
			strcmp(p->regions[g], s->whole->regions[g]))
			return sv_error_set(err, -EINVAL,
				"statistics: a share of another region "
				"table");
	if (f)
		kf = *f;
	kf.keep = stream_keep_of;
	kf.keep_counts = stream_counts_of;
	kf.keep_ctx = s;
	rc = sv_stats_table_compute(&lt, p, &kf, err);
	if (rc < 0)
		return rc;
	parts = sv_stats_parts(lt.p, &lt, &n);
	if (s->nparts + n > s->parts_cap)
		sv_grow((void **)&s->parts, &s->parts_cap, s->nparts + n,
			sizeof *s->parts);
	memcpy(s->parts + s->nparts, parts, n * sizeof *parts);
	s->nparts += n;
	free(parts);
	sv_stats_table_fini(&lt);
	return 0;
}

/* The pooled percentiles of pl (n > 0 values) into out, as
 * sv_stats_percentiles gives them over the same values. */
static void stream_percentiles(const struct stream_pool *pl, double *out)
{
	size_t n = pl->n + pl->nwide, i, sum = 0;
	struct sv_stats_pick k;
	uint32_t *count = pl->count;

	/* The shares' counts serve when they count every value kept. */
	for (i = 0; count && i < SV_STATS_BUCKETS; i++)
		sum += count[i];
	if (!count || sum != n) {
		count = sv_xcalloc(SV_STATS_BUCKETS, sizeof *count);
		for (i = 0; i < pl->n; i++)
			count[sv_stats_bucket(pl->v[i])]++;
		for (i = 0; i < pl->nwide; i++)
			count[sv_stats_bucket(pl->wide[i])]++;
	}
	if (sv_stats_pick_begin(&k, count, n, sv_stats_ppct, 3)) {
		for (i = 0; i < pl->n; i++)
			sv_stats_pick_take(&k, pl->v[i]);
		for (i = 0; i < pl->nwide; i++)
			sv_stats_pick_take(&k, pl->wide[i]);
		sv_stats_pick_end(&k, out);
	} else {
		/* Few values, or most of them in the wanted buckets: every
		 * one in 8 bytes, selected in place. */
		int64_t *v = sv_xmalloc(n * sizeof *v);
		for (i = 0; i < pl->n; i++)
			v[i] = pl->v[i];
		if (pl->nwide)
			memcpy(v + pl->n, pl->wide, pl->nwide * sizeof *v);
		sv_stats_percentiles(v, n, sv_stats_ppct, out, 3);
		sv_free_big(v);
	}
	if (count != pl->count)
		free(count);
}

/* The regions of a table whose percentiles are to be selected, shared by
 * two threads (each takes the next). */
struct stream_end {
	struct sv_stats_stream *s;
	struct sv_stats_table *t;
	atomic_size_t next;
};

static void *stream_end_work(void *arg)
{
	struct stream_end *e = arg;
	size_t i;

	while ((i = atomic_fetch_add(&e->next, 1)) < e->t->nregions) {
		struct sv_stats *st = &e->t->regions[i].s;
		struct stream_pool *pl = &e->s->pool[e->t->regions[i].region];
		double out[3];
		if (!st->num_calls || st->num_calls != pl->n + pl->nwide)
			continue;
		stream_percentiles(pl, out);
		st->has_percentiles = true;
		st->p50_ns = out[0];
		st->p95_ns = out[1];
		st->p99_ns = out[2];
		/* Each region's durations are read once: gone now. */
		stream_pool_free(pl);
	}
	return NULL;
}

int sv_stats_stream_end(struct sv_stats_stream *s, struct sv_stats_table *t,
	const struct sv_stats_filter *f, struct sv_error *err)
{
	struct stream_end e;
	pthread_t th;
	bool two;
	int rc;

	if (!s)
		return sv_error_set(err, -EINVAL, "statistics: no stream");
	rc = sv_stats_table_merge(
		t, s->whole, f, true, s->parts, s->nparts, err);
	if (rc < 0)
		return rc;
	/* The pooled percentiles, a pass or two over every call's duration:
	 * on two threads, a region at a time. */
	e.s = s;
	e.t = t;
	atomic_init(&e.next, 0);
	two = t->nregions > 1 &&
	      pthread_create(&th, NULL, stream_end_work, &e) == 0;
	stream_end_work(&e);
	if (two)
		pthread_join(th, NULL);
	return 0;
}

void sv_stats_stream_free(struct sv_stats_stream *s)
{
	uint32_t g;

	if (!s)
		return;
	for (g = 0; g < s->whole->nregions; g++)
		stream_pool_free(&s->pool[g]);
	free(s->pool);
	free(s->parts);
	free(s);
}
