/*
 * stats_priv.h: what the parts of the statistics module share beyond
 * stats.h.  Private to src/model/stats*.c.
 *
 *   stats_row.c     one row's figures, and percentile selection
 *   stats_region.c  one region's figures across its ranks
 *   stats_ranks.c   rank lists
 *   stats_range.c   the clipping of a time range
 *   stats.c         keys, the table, sorting, percentile queries
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

/* Whether call c of p is selected by sel.  lane is c's lane when the
 * caller knows it (sv_row_lane of its row), else UINT32_MAX. */
bool sv_stats_call_on(const struct sv_profile *p,
	const struct sv_stats_sel *sel, uint32_t c, uint32_t lane);

/* A growable buffer of durations (ns); zeroed is empty, free(v) frees. */
struct sv_stats_buf {
	int64_t *v;
	size_t n, cap;
};

/* Append x to b. */
void sv_stats_buf_push(struct sv_stats_buf *b, int64_t x);

/* The percentiles every row and region reports: 50, 95, 99. */
extern const double sv_stats_ppct[3];

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

/*
 * Figures of row ri of p under sel into s.  With per-call data, the
 * selected calls' durations are appended to pool; the row's own
 * percentiles are selected within its slice of pool, which reorders only
 * that slice, so one buffer serves the row and its region.
 */
void sv_stats_row_compute(const struct sv_profile *p, size_t ri,
	const struct sv_stats_sel *sel, struct sv_stats *s,
	struct sv_stats_buf *pool);

/* Order of a region's ranks: by rank, then by row (the file's order). */
int sv_stats_rank_cmp(const void *a, const void *b);

/*
 * MPIRegion figures of g from its ranks (already computed and sorted with
 * sv_stats_rank_cmp), the pooled durations pool[0..npool) (reordered) and
 * the positive rank totals in seconds in row order, tmp[0..ntot).
 */
void sv_stats_region_pool(const struct sv_profile *p, struct sv_stats_region *g,
	int64_t *pool, size_t npool, const double *tmp, size_t ntot);

#endif
