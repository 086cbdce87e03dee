/*
 * ranks.h: the rank x region matrix and its load-balance figures, for the
 * ranks view and `scopeview ranks`.
 *
 * Built from a statistics table (stats.h), so every figure is the one
 * `summary --per-rank` prints: a cell is a rank's total (inclusive) and
 * exclusive time and call count in a region, summed over that rank's rows
 * of the region.  Per region, over the ranks with at least one call of it
 * (a rank without calls is absent, not a zero): the minimum, mean and
 * maximum of the chosen metric, the slowest rank (largest metric; ties:
 * the first in the table's rank order), its excess over the mean
 * (max - mean) and rank_imbalance_pct copied from the table (it is always
 * summary's figure, over total time).  For the exclusive metric a rank
 * whose exclusive time is unknown is left out of the figures too.
 *
 * Rows of the matrix are the distinct ranks that have a row of some
 * selected region, ascending.  Cost: O(regions x ranks) to build; a cell
 * lookup is O(1).  Nothing here prints or knows about the terminal.
 */
#ifndef SCOPEVIEW_RANKS_H
#define SCOPEVIEW_RANKS_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/ranks.h belongs to the model layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/profile.h"
#include "scopeview/stats.h"

enum sv_ranks_metric {
	SV_RANKS_TOTAL,
	SV_RANKS_EXCLUSIVE,
};

/* One rank in one region. */
struct sv_ranks_cell {
	bool has; /* the rank has at least one call of the region */
	uint64_t num_calls;
	int64_t total_ns;
	bool has_exclusive;
	int64_t exclusive_ns;
};

/* The load-balance figures of one region, for the matrix's metric. */
struct sv_ranks_fig {
	uint32_t nranks; /* ranks counted (cells with has, and the metric) */
	bool has;        /* nranks > 0: min..excess are figures */
	int64_t min_ns, max_ns;
	double mean_ns;
	uint32_t slowest_rank;
	double excess_ns;          /* max - mean */
	double rank_imbalance_pct; /* the table's, whatever the metric */
};

struct sv_ranks {
	const struct sv_stats_table *t; /* borrowed: must outlive this */
	enum sv_ranks_metric metric;
	uint32_t *ranks; /* nranks distinct rank numbers, ascending */
	uint32_t nranks;
	size_t nregions;            /* == t->nregions, in the table's order */
	struct sv_ranks_cell *cell; /* nranks x nregions, row-major by rank */
	struct sv_ranks_fig *fig;   /* nregions */
};

/* Build m from table t (borrowed) for metric.  m is overwritten.  Returns
 * 0, or -EINVAL for a NULL argument. */
int sv_ranks_compute(struct sv_ranks *m, const struct sv_stats_table *t,
	enum sv_ranks_metric metric);
/* Free what m holds; NULL-safe; m may be re-used. */
void sv_ranks_fini(struct sv_ranks *m);
/* Recompute the figures for another metric (cells are unchanged). */
void sv_ranks_set_metric(struct sv_ranks *m, enum sv_ranks_metric metric);

/* Cell of matrix row r (index into m->ranks) and region column j. */
static inline const struct sv_ranks_cell *sv_ranks_cell_at(
	const struct sv_ranks *m, size_t r, size_t j)
{
	return &m->cell[r * m->nregions + j];
}
/* The metric's value of a cell; false when the cell has none. */
bool sv_ranks_value(
	const struct sv_ranks *m, const struct sv_ranks_cell *c, int64_t *ns);
/* Position of rank in ranks[0 .. n) (ascending), or -1. */
long sv_ranks_find(const uint32_t *ranks, size_t n, uint32_t rank);
/* Matrix row of rank number rank, or -1. */
long sv_ranks_row_of(const struct sv_ranks *m, uint32_t rank);

/*
 * Region columns ordered by rank_imbalance_pct, largest first (ties in
 * the table's order): order[0..nregions) gets column indices.
 */
void sv_ranks_order_by_imbalance(const struct sv_ranks *m, size_t *order);

/*
 * The minimum, median (lower median for an even count) and maximum of
 * the metric over matrix rows [r0, r1) of column j, the ranks without a
 * value left out.  Returns the count of values (0: nothing stored).
 * scratch holds r1 - r0 values.
 */
size_t sv_ranks_group(const struct sv_ranks *m, size_t j, size_t r0, size_t r1,
	int64_t *scratch, int64_t *min, int64_t *median, int64_t *max);

/*
 * Ranks inside a region, over time (ranks_inside.c): for one region, per
 * rank, the time its calls cover, so "how many ranks are inside the
 * region during [t0, t1)" is a few binary searches a rank.  A rank whose
 * calls are at most 64 runs of p's call numbers with starts and ends
 * both ascending (calls of the region that do not nest, stored in start
 * order, as scope-profiler writes them) keeps those runs: of the calls
 * of a run starting before t1, the last ends latest.  Other ranks keep
 * the union of their calls' time as disjoint intervals sorted by start
 * (16 bytes an interval, up to one a call).  Built from the region's rows
 * (every call of the region on a rank counts, at any depth; a call of
 * zero length covers [start, start + 1)), the ranks limited to rank_on
 * (p's rank numbers as flags, NULL for all; ranks past nrank_on are off).
 * Also kept: the lane of each rank holding most of the region's calls
 * (ties: the first lane) and the region's most common nesting depth
 * (ties: the shallowest), for the timeline's rank rows.
 */
struct sv_ranks_inside {
	uint32_t region;
	uint32_t nranks;   /* ranks with at least one call of the region */
	uint32_t *ranks;   /* their numbers, ascending */
	uint32_t *lane;    /* per rank: the lane with most of its calls */
	uint64_t *off;     /* nranks + 1: rank k's intervals are
			     [off[k], off[k + 1]) */
	int64_t *t0, *t1;  /* the intervals [t0[i], t1[i]) */
	uint64_t *run_off; /* nranks + 1: rank k's runs are
			      [run_off[k], run_off[k + 1]) */
	struct sv_ranks_run {
		uint32_t a, b; /* calls [a, b) of p */
	} * run;
	size_t nruns;
	const struct sv_profile *p; /* what the runs are calls of */
	uint64_t ncalls;            /* calls of the region counted */
	uint16_t depth;             /* most common depth of those calls */
};

/*
 * Build ri for region of p (which must hold calls).  poll (may be NULL)
 * is called now and then with ctx and the calls done so far; when it
 * returns true the build stops and returns -ECANCELED with ri empty.
 * Returns 0, -EINVAL for a NULL argument or a region
 * out of range.  O(n) reads of the region's calls' starts, ends and
 * depths, and nothing kept per call, when each rank's calls are runs as
 * above; O(n log n) and 16 bytes a call for a rank whose are not.  ri
 * reads p until it is freed.
 */
int sv_ranks_inside_build(struct sv_ranks_inside *ri,
	const struct sv_profile *p, uint32_t region, const bool *rank_on,
	uint32_t nrank_on, bool (*poll)(void *ctx, uint64_t done), void *ctx);
/* NULL-safe; ri may be re-used. */
void sv_ranks_inside_fini(struct sv_ranks_inside *ri);
/* How many of ri's ranks have region time meeting [t0, t1).  O(ranks x
 * runs x log calls). */
uint32_t sv_ranks_inside_count(
	const struct sv_ranks_inside *ri, int64_t t0, int64_t t1);
/* Index of rank number rank in ri->ranks, or -1. */
long sv_ranks_inside_find(const struct sv_ranks_inside *ri, uint32_t rank);

#endif
