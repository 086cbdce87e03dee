/*
 * dist_stats.c: the statistics table of a profile split over the
 * processes of scopeview-mpi (sv_dist_table, dist.h).  Each process
 * computes the table of its share with the serial code; every (rank,
 * region) row is whole on one process, so its figures are final there.
 * Process 0 gathers the rows' figures and finishes every region as
 * sv_stats_table_compute does (sv_stats_table_merge): counts, sums,
 * minimum, maximum, the pooled standard deviation (from each rank's mean
 * and spread, in rank order), first and last call, imbalance.  The
 * pooled percentiles are order statistics of durations spread over the
 * processes: found by sv_dist_select, then interpolated as numpy does.
 */
#include "scopeview/dist.h"

#include <errno.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* The pooled percentiles of every region of t (process 0) from the
 * durations of each process's table lt. */
static void stats_percentiles(struct sv_stats_table *t,
	const struct sv_stats_table *lt, uint32_t nregions)
{
	size_t *at = sv_xmalloc((nregions ? nregions : 1) * sizeof *at);
	uint64_t *mine = sv_xcalloc(nregions ? nregions : 1, sizeof *mine);
	uint64_t *total = sv_xcalloc(nregions ? nregions : 1, sizeof *total);
	int *go = sv_xcalloc(nregions ? nregions : 1, sizeof *go);
	uint32_t g;
	size_t i;

	/* Where each region is in lt (every process lists the same ones),
	 * and its calls selected here. */
	for (g = 0; g < nregions; g++)
		at[g] = SIZE_MAX;
	for (i = 0; i < lt->nregions; i++) {
		const struct sv_stats_region *r = &lt->regions[i];
		size_t k;
		at[r->region] = i;
		for (k = 0; k < r->nranks; k++)
			mine[r->region] += r->ranks[k].s.num_calls;
	}
	MPI_Allreduce(mine, total, (int)nregions, MPI_UINT64_T, MPI_SUM,
		MPI_COMM_WORLD);
	/* Process 0 knows which regions have them (every call's duration,
	 * as sv_stats_region_pool asks). */
	if (sv_dist_rank() == 0)
		for (i = 0; i < t->nregions; i++) {
			const struct sv_stats_region *r = &t->regions[i];
			go[r->region] = total[r->region] > 0 &&
					total[r->region] == r->s.num_calls;
		}
	MPI_Bcast(go, (int)nregions, MPI_INT, 0, MPI_COMM_WORLD);
	for (g = 0; g < nregions; g++) {
		size_t need[SV_STATS_PCT_NEED_MAX], nneed, n = 0;
		int64_t val[SV_STATS_PCT_NEED_MAX], *v = NULL;
		double out[3];

		if (!go[g] || at[g] == SIZE_MAX)
			continue;
		if (sv_stats_values(lt, at[g], -1, &v, &n) < 0)
			n = 0;
		nneed = sv_stats_pct_need(total[g], sv_stats_ppct, 3, need);
		sv_dist_select(v, n, total[g], need, nneed, val);
		sv_free_big(v);
		if (sv_dist_rank() != 0)
			continue;
		sv_stats_pct_from(
			total[g], sv_stats_ppct, 3, need, val, nneed, out);
		for (i = 0; i < t->nregions; i++)
			if (t->regions[i].region == g) {
				struct sv_stats *s = &t->regions[i].s;
				s->has_percentiles = true;
				s->p50_ns = out[0];
				s->p95_ns = out[1];
				s->p99_ns = out[2];
			}
	}
	free(at);
	free(mine);
	free(total);
	free(go);
}

int sv_dist_table(struct sv_stats_table *t, const struct sv_dist_profile *d,
	const struct sv_stats_filter *f, struct sv_error *err)
{
	struct sv_stats_filter lf;
	struct sv_stats_table lt;
	struct sv_stats_part *mine, *all = NULL;
	size_t nmine, nall = 0;
	int rc;

	memset(t, 0, sizeof *t);
	if (f)
		lf = *f;
	else
		memset(&lf, 0, sizeof lf);
	/* This process's ranks of the selection (the loader narrowed the
	 * share to the command's --ranks). */
	lf.rank_on = d->share;
	lf.nrank_on = d->nshare;
	rc = sv_stats_table_compute(&lt, d->local, &lf, err);
	rc = sv_dist_agree(rc, err);
	if (rc < 0)
		return rc;
	mine = sv_stats_parts(d->local, &lt, &nmine);
	all = sv_dist_gather(mine, nmine, sizeof *mine, &nall, NULL);
	free(mine);
	if (sv_dist_rank() == 0) {
		rc = sv_stats_table_merge(
			t, d->whole, f, d->per_call, all, nall, err);
		if (rc == 0 && d->has_origin)
			t->time_origin_ns = d->origin_ns;
	}
	free(all);
	rc = sv_dist_agree(rc, err);
	if (rc == 0 && d->per_call)
		stats_percentiles(t, &lt, d->local->nregions);
	sv_stats_table_fini(&lt);
	return rc;
}
