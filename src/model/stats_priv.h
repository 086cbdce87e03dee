/*
 * stats_priv.h: what the parts of the statistics module share beyond
 * stats.h.  Private to src/model/stats*.c.
 *
 *   stats_row.c     one row's figures, and percentile selection
 *   stats_region.c  one region's figures across its ranks
 *   stats_ranks.c   rank lists
 *   stats_range.c   the clipping of a time range
 *   stats.c         the table: filters, computing
 *   stats_sort.c    keys, a figure by key, the table's sort
 */
#ifndef SCOPEVIEW_MODEL_STATS_PRIV_H
#define SCOPEVIEW_MODEL_STATS_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/profile.h"
#include "scopeview/stats.h"

/* A call open across an edge of the range and its clipped exclusive
 * time. */
struct sv_stats_edge {
	uint32_t call;
	int64_t exclusive_ns;
};

/* The selection applied inside rows: lanes and thread.  NULL selects
 * every call. */
struct sv_stats_sel {
	const bool *lane_on; /* by lane, or NULL: every lane */
	bool by_thread;      /* only calls of thread (-1: no thread id) */
	int64_t thread;
	const bool *call_on; /* by call, or NULL: every call */
	/* A time range [t0, t1): calls count with their time inside it;
	 * edges (sorted by call) hold the clipped exclusive times of the
	 * calls across an edge (sv_stats_range_edges). */
	bool range;
	int64_t t0, t1;
	struct sv_stats_edge *edges;
	size_t nedges;
};

/* Whether the call [s, e) meets sel's range (a zero-length call when it
 * lies inside), and the part of it inside. */
bool sv_stats_range_meets(const struct sv_stats_sel *sel, int64_t s, int64_t e);
int64_t sv_stats_range_clip(
	const struct sv_stats_sel *sel, int64_t s, int64_t e);
/* Find the calls of the lanes lane_on keeps (NULL: all) open across an
 * edge of sel's range and clip their exclusive times: fills sel->edges
 * (malloc'd, NULL when none) and sel->nedges. */
void sv_stats_range_edges(const struct sv_profile *p, const bool *lane_on,
	struct sv_stats_sel *sel);
/* Call c's exclusive time inside sel's range (c meets it). */
int64_t sv_stats_range_exclusive(
	const struct sv_profile *p, const struct sv_stats_sel *sel, uint32_t c);

/* Percentiles of at least this many values go through buckets (below,
 * selection in place). */
#define SV_STATS_MIN_BUCKETED 4096
/* Buckets: 0 for the negatives, then 64 for each power of two. */
#define SV_STATS_MANT    6
#define SV_STATS_BUCKETS 4096
/* At most this many order statistics at once (two a percentile). */
#define SV_STATS_MAX_RANKS 16

/* The bucket of x: 0 for x < 0, else 1 + 64 e + m for x (0 taken as 1)
 * between 2^e and 2^(e+1), m its next SV_STATS_MANT bits.  Never smaller
 * for a larger x; below SV_STATS_BUCKETS. */
static inline unsigned sv_stats_bucket(int64_t x)
{
	uint64_t u = (uint64_t)x | 1;
	unsigned e, m;

	if (x < 0)
		return 0;
	e = 63u - (unsigned)__builtin_clzll(u);
	m = e >= SV_STATS_MANT ? (unsigned)(u >> (e - SV_STATS_MANT))
			       : (unsigned)(u << (SV_STATS_MANT - e));
	return 1u + (e << SV_STATS_MANT) + (m & ((1u << SV_STATS_MANT) - 1));
}

/* A growable buffer of durations (ns); zeroed is empty, free(v) frees.
 * With total set (SV_STATS_BUCKETS counts, the caller's), the values a
 * row appends are counted into it by bucket, for percentiles of all of
 * them that need no counting pass (sv_stats_pick_begin); count is the
 * row's own counts, made as needed (free it too). */
struct sv_stats_buf {
	int64_t *v;
	size_t n, cap;
	uint32_t *total, *count;
	/* A row's values need not stay in v once its figures are made: a
	 * row counted by bucket then reads them again for its spread and
	 * percentiles instead of holding them (half the memory traffic of
	 * 8 bytes a call written and read back, and none of v's growth). */
	bool transient;
	/* Values a row reads again go to keep (sv_stats_filter.keep, of
	 * region keep_g) as it reads them; the others stay in v for the
	 * caller to hand on. */
	void (*keep)(void *ctx, uint32_t region, const int64_t *v, size_t n);
	void *keep_ctx;
	uint32_t keep_g;
};

/* Append x to b. */
static inline void sv_stats_buf_push(struct sv_stats_buf *b, int64_t x)
{
	if (b->n == b->cap)
		sv_grow((void **)&b->v, &b->cap, b->n + 1, sizeof *b->v);
	b->v[b->n++] = x;
}

/*
 * Percentiles through buckets in a pass the caller makes over the values
 * (fused with one of its own): begin from the values' counts by bucket
 * (false: too few values, or too many in the wanted buckets; use
 * sv_stats_percentiles), give every value to sv_stats_pick_take, then
 * sv_stats_pick_end writes the percentiles.  Exactly what
 * sv_stats_percentiles gives for the same values.
 */
struct sv_stats_pick {
	size_t n, npct, nneed;
	size_t need[SV_STATS_MAX_RANKS], lo[SV_STATS_MAX_RANKS / 2];
	double gamma[SV_STATS_MAX_RANKS / 2];
	unsigned nb, bucket[SV_STATS_MAX_RANKS], of[SV_STATS_MAX_RANKS];
	size_t below[SV_STATS_MAX_RANKS], fill[SV_STATS_MAX_RANKS + 1];
	size_t at[SV_STATS_MAX_RANKS];
	int64_t *g; /* the wanted buckets' values */
	unsigned char slot[SV_STATS_BUCKETS];
};
bool sv_stats_pick_begin(struct sv_stats_pick *k, const uint32_t *count,
	size_t n, const double *pct, size_t npct);
static inline void sv_stats_pick_take(struct sv_stats_pick *k, int64_t x)
{
	unsigned s = k->slot[sv_stats_bucket(x)];
	if (s != 0xff)
		k->g[k->at[s]++] = x;
}
void sv_stats_pick_end(struct sv_stats_pick *k, double *out);

/* The percentiles every row and region reports: sv_stats_ppct (stats.h). */

/* Seconds as Python compares them (float64 division). */
static inline double sv_stats_secs(int64_t ns)
{
	return (double)ns / 1e9;
}

/* qsort's order of int64 values. */
int sv_stats_cmp_i64(const void *a, const void *b);

/*
 * Several percentiles of v[0..n) (n > 0) at once, numpy 'linear': pct[i]
 * in 0..100 gives out[i]; npct at most 8.  May reorder v
 * (stats_select.c).
 */
void sv_stats_percentiles(
	int64_t *v, size_t n, const double *pct, double *out, size_t npct);
/* The same, with the counts of v's values by bucket (sv_stats_bucket)
 * known: one read of v fewer; count NULL: sv_stats_percentiles. */
void sv_stats_percentiles_counted(int64_t *v, size_t n, const uint32_t *count,
	const double *pct, double *out, size_t npct);

/*
 * Figures of row ri of p under sel into s.  With per-call data, the
 * selected calls' durations are appended to pool; the row's own
 * percentiles are selected within its slice of pool, which reorders only
 * that slice, so one buffer serves the row and its region.
 */
void sv_stats_row_compute(const struct sv_profile *p, size_t ri,
	const struct sv_stats_sel *sel, struct sv_stats *s,
	struct sv_stats_buf *pool);
/* The same over the row's calls k0 .. k1 - 1 only (0 .. count: the
 * whole row): what the whole row gives when the others are not
 * selected.  *ordered (may be NULL) is set to whether those calls start
 * in order and are drawn to ends in order (sv_stats_rank.ordered). */
void sv_stats_row_part(const struct sv_profile *p, size_t ri, uint64_t k0,
	uint64_t k1, const struct sv_stats_sel *sel, struct sv_stats *s,
	struct sv_stats_buf *pool, bool *ordered);

/* The values sv_stats_row_part takes of row ri's calls *k .. k1 - 1
 * under sel (NULL: every call), their durations cut to sel's range, in
 * the row's order: the next ones into out (SV_STATS_RUN at most), *k
 * moved past the calls read; 0 when none is left. */
#define SV_STATS_RUN 256
size_t sv_stats_row_values(const struct sv_profile *p, size_t ri, uint64_t *k,
	uint64_t k1, const struct sv_stats_sel *sel, int64_t *out);

/* Whether f's name selection (include, then exclude regexes; NULL: all)
 * keeps region name. */
bool sv_stats_name_on(const struct sv_stats_filter *f, const char *name);

/* Display order of regions: by first start as float64 seconds, ties in
 * base order. */
int sv_stats_region_cmp_start(const void *a, const void *b);
/* Widen t's span (min_start, max_end) by a region's figures s. */
void sv_stats_table_span(struct sv_stats_table *t, const struct sv_stats *s);
/* The last steps of a table over p: display order, time origin, total. */
void sv_stats_table_end(struct sv_stats_table *t, const struct sv_profile *p);

/* Order of a region's ranks: by rank, then by row (the file's order). */
int sv_stats_rank_cmp(const void *a, const void *b);

/*
 * MPIRegion figures of g from its ranks (already computed and sorted with
 * sv_stats_rank_cmp), the pooled durations pool[0..npool) (reordered; with
 * their counts by bucket in buckets, or NULL) and the positive rank totals
 * in seconds in row order, tmp[0..ntot).
 */
void sv_stats_region_pool(const struct sv_profile *p, struct sv_stats_region *g,
	int64_t *pool, size_t npool, const uint32_t *buckets, const double *tmp,
	size_t ntot);

#endif
