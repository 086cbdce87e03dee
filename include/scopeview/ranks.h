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

#endif
