/*
 * load_h5_subset.c: reading some ranks of a columnar file only
 * (sv_load_opts.rank_on, doc/format.md 4.14).
 *
 * The rows of /rank_region_index name their rank, so the rows of the
 * chosen ranks are known before any event is read; the event columns are
 * then read for those rows' [offset, offset + count) ranges only
 * (load_h5_events.c: one H5Dread of the union of the ranges, or the
 * parallel chunk decoder over each run of adjacent rows, which fetches
 * only the chunks those ranges touch).  What the whole run's figures need
 * from the rows left out comes from the index: their number, their calls,
 * the highest rank, and the earliest start (their stored start_minimum);
 * and every row's stored record makes p->run, the whole run as a
 * summary-only profile, for the figures shown beside the subset's.
 */
#include "load_h5_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool subset_rank_on(const struct sv_load_opts *o, int64_t rank)
{
	return rank >= 0 && (uint64_t)rank < o->nrank_on && o->rank_on[rank];
}

/* SCOPEVIEW_NO_RANK_SUBSET=1: read every rank (to compare the paths). */
static bool subset_disabled_by_env(void)
{
	const char *e = getenv("SCOPEVIEW_NO_RANK_SUBSET");
	return e && *e && strcmp(e, "0") != 0;
}

/* The whole file's rows, with their stored records, as a summary-only
 * profile (sv_profile.run); NULL when a row cannot be added. */
static struct sv_profile *subset_run(
	const struct sv_profile *p, const struct sv_h5_index *ix)
{
	struct sv_profile *run = sv_profile_run_new(p);
	hsize_t r;

	for (r = 0; r < ix->nrows; r++)
		if (!sv_profile_run_add(run, (uint32_t)ix->rank[r],
			    (uint32_t)ix->region[r], (uint64_t)ix->count[r],
			    &ix->sums[r])) {
			sv_profile_free(run);
			return NULL;
		}
	return run;
}

int sv_h5_subset_plan(struct sv_h5 *h, hid_t g, struct sv_h5_index *ix)
{
	const struct sv_load_opts *o = h->opts;
	struct sv_profile *p = h->p;
	int64_t start_time, maxr = -1, first = 0;
	bool have_start = false, exact = true;
	hsize_t r;
	uint64_t calls = 0;
	int rc;

	if (!o || !o->rank_on || !p->has_calls || subset_disabled_by_env())
		return 0;
	for (r = 0; r < ix->nrows; r++) {
		if (ix->count[r] < 0)
			return 0; /* the check of the events says why */
		calls += (uint64_t)ix->count[r];
		if (ix->rank[r] > maxr)
			maxr = ix->rank[r];
	}
	rc = sv_h5_index_summaries(h, g, ix->nrows, &ix->sums);
	if (rc)
		return rc;
	ix->sums_read = true;
	/* The earliest start of the rows left out: their stored records, or
	 * none needed when the metadata gives the origin. */
	for (r = 0; r < ix->nrows && exact; r++) {
		if (subset_rank_on(o, ix->rank[r]) || ix->count[r] == 0)
			continue;
		if (!ix->sums) {
			exact = false;
			break;
		}
		if (!have_start || ix->sums[r].start_minimum < first)
			first = ix->sums[r].start_minimum;
		have_start = true;
	}
	if (!exact &&
		(o->share || sv_h5_meta_int(p, "start_time_ns", &start_time))) {
		/* (Processes of a job find the run's start together.) */
		exact = true;
		have_start = false;
	}
	if (!exact)
		return 0; /* every rank is read; the caller filters */
	if (ix->sums)     /* the whole run's figures are the stored ones */
		p->run = subset_run(p, ix);
	ix->keep = sv_xcalloc(ix->nrows ? ix->nrows : 1, sizeof *ix->keep);
	for (r = 0; r < ix->nrows; r++)
		ix->keep[r] = subset_rank_on(o, ix->rank[r]);
	p->file_rows = (size_t)ix->nrows;
	p->file_calls = calls;
	p->file_ranks = (uint32_t)(maxr + 1);
	p->has_run_start = have_start;
	p->run_start_ns = first;
	return 0;
}

void sv_h5_subset_apply(struct sv_h5 *h, struct sv_h5_index *ix)
{
	hsize_t r, k = 0;

	if (!ix->keep)
		return;
	ix->src = sv_xmalloc((ix->nrows ? ix->nrows : 1) * sizeof *ix->src);
	for (r = 0; r < ix->nrows; r++) {
		if (!ix->keep[r])
			continue;
		ix->src[k] = r;
		ix->region[k] = ix->region[r];
		ix->rank[k] = ix->rank[r];
		ix->offset[k] = ix->offset[r];
		ix->count[k] = ix->count[r];
		k++;
	}
	ix->file_nrows = ix->nrows;
	ix->nrows = k;
	h->p->rank_subset = true;
}
