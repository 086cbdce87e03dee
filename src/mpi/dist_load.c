/*
 * dist_load.c: a profile split over the processes of scopeview-mpi
 * (dist.h).  Process 0 reads the file's index alone (the rows, names,
 * metadata and stored records: sv_load's summary_only) and hands every
 * process the calls of each rank; each process then loads the ranks of
 * its share with the loader's rank-subset reads, the index handed over by
 * process 0 rather than read again (sv_load_share), an HDF5 file through
 * the MPI-IO driver.  A format without rank subsets (a JSON profile) is
 * read whole by every process, and the share then only filters.
 */
#include "scopeview/dist.h"

#include <errno.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/load.h"
#include "scopeview/strv.h"

void sv_dist_share(const uint64_t *calls, uint32_t nranks, int k, int n,
	bool **out, uint32_t *nout)
{
	uint64_t total = 0, before = 0;
	uint32_t r;
	bool *on = sv_xcalloc(nranks ? nranks : 1, sizeof *on);

	for (r = 0; r < nranks; r++)
		total += calls[r];
	for (r = 0; r < nranks; r++) {
		/* The owner of a rank is where the middle of its calls falls
		 * among n equal parts of all calls (ranks in order, so the
		 * blocks are contiguous); without calls, by rank. */
		double at = total ? ((double)before + (double)calls[r] / 2) /
					    (double)total
				  : ((double)r + 0.5) / (double)nranks;
		int owner = (int)(at * n);
		if (owner >= n)
			owner = n - 1;
		on[r] = owner == k;
		before += calls[r];
	}
	*out = on;
	*nout = nranks;
}

/* Whether rank r is selected by o's --ranks (every rank without one). */
static bool load_rank_on(const struct sv_load_opts *o, uint32_t r)
{
	return !o || !o->rank_on || (r < o->nrank_on && o->rank_on[r]);
}

/* Process 0: each rank's calls over the rows of the ranks to share out,
 * and whether the time origin is known without reading the others. */
static uint64_t *load_rank_calls(const struct sv_profile *w,
	const struct sv_load_opts *o, uint32_t *nranks, bool *only_selected)
{
	uint32_t n = 0, r;
	uint64_t *calls;
	size_t i;
	bool stored = true;

	for (i = 0; i < w->nrows; i++)
		if (w->rows[i].rank + 1 > n)
			n = w->rows[i].rank + 1;
	for (i = 0; i < w->nrows; i++)
		if (!load_rank_on(o, w->rows[i].rank) && w->rows[i].count &&
			!w->rows[i].has_summary)
			stored = false;
	*only_selected = w->has_start_time || stored;
	calls = sv_xcalloc(n ? n : 1, sizeof *calls);
	for (i = 0; i < w->nrows; i++) {
		r = w->rows[i].rank;
		if (!*only_selected || load_rank_on(o, r))
			calls[r] += w->rows[i].count;
	}
	*nranks = n;
	return calls;
}

/* Process 0: every process's warnings, in process order, each once. */
static void load_warnings(struct sv_dist_profile *d)
{
	const struct sv_profile *l = d->local;
	char *blob, *all = NULL;
	int len = 0, *lens = NULL, *at = NULL, n = sv_dist_size(), k;
	size_t i, off = 0;

	for (i = 0; i < l->nwarnings; i++)
		len += (int)strlen(l->warnings[i]) + 1;
	blob = sv_xmalloc((size_t)len + 1);
	for (i = 0; i < l->nwarnings; i++) {
		size_t m = strlen(l->warnings[i]) + 1;
		memcpy(blob + off, l->warnings[i], m);
		off += m;
	}
	if (sv_dist_rank() == 0)
		lens = sv_xcalloc((size_t)n, sizeof *lens);
	MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (sv_dist_rank() == 0) {
		size_t sum = 0;
		at = sv_xcalloc((size_t)n, sizeof *at);
		for (k = 0; k < n; k++) {
			at[k] = (int)sum;
			sum += (size_t)lens[k];
		}
		all = sv_xmalloc(sum + 1);
	}
	MPI_Gatherv(blob, len, MPI_CHAR, all, lens, at, MPI_CHAR, 0,
		MPI_COMM_WORLD);
	if (sv_dist_rank() == 0) {
		struct sv_profile *w = d->whole;
		size_t end = (size_t)at[n - 1] + (size_t)lens[n - 1], j;
		sv_strv_free_array(w->warnings, w->nwarnings);
		w->warnings = NULL;
		w->nwarnings = w->warn_cap = 0;
		for (off = 0; off < end; off += strlen(all + off) + 1) {
			bool seen = false;
			for (j = 0; j < w->nwarnings && !seen; j++)
				seen = !strcmp(w->warnings[j], all + off);
			if (!seen)
				sv_profile_warn(w, "%s", all + off);
		}
	}
	free(blob);
	free(all);
	free(lens);
	free(at);
}

/* Process 0: the run's time origin as one process's load finds it: the
 * metadata's start, else the earliest start of every call and of the
 * stored records of the rows nobody read. */
static void load_origin(
	struct sv_dist_profile *d, const bool *read_rank, uint32_t nread)
{
	const struct sv_profile *l = d->local;
	long long mine[2] = {l->ncalls ? 0 : 1, 0}, low[2];
	size_t i;

	if (l->ncalls)
		mine[1] = sv_profile_min_start(l);
	else
		mine[1] = INT64_MAX;
	MPI_Allreduce(mine, low, 2, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
	if (sv_dist_rank() != 0)
		return;
	if (d->whole->has_start_time) {
		d->has_origin = true;
		d->origin_ns = d->whole->start_time_ns;
		return;
	}
	d->has_origin = low[0] == 0;
	d->origin_ns = low[0] == 0 ? (int64_t)low[1] : 0;
	for (i = 0; i < d->whole->nrows; i++) {
		const struct sv_row *r = &d->whole->rows[i];
		if ((r->rank < nread && read_rank[r->rank]) || !r->count ||
			!r->has_summary)
			continue;
		if (!d->has_origin || r->summary.start_minimum < d->origin_ns)
			d->origin_ns = r->summary.start_minimum;
		d->has_origin = true;
	}
}

/* Whether the lanes of every process's share nest as in one load of all
 * of them: the calls of a lane that start and end together are in the
 * order of their regions' earliest starts (region_pos), which each
 * process made from its own calls.  If some process's would change
 * places under the job's order, *first gets that order (malloc'd, *n
 * values) for every process to load again with. */
static bool load_ties_hold(
	const struct sv_dist_profile *d, int64_t **first, uint32_t *n)
{
	const struct sv_profile *l = d->local;
	uint32_t g, nr = l->nregions, most = 0;
	bool *seen = sv_xcalloc((size_t)nr + 1, sizeof *seen);
	int64_t *mine = sv_xcalloc((size_t)nr + 1, sizeof *mine);
	int64_t *low = sv_xcalloc((size_t)nr + 1, sizeof *low);
	int *had = sv_xcalloc((size_t)nr + 1, sizeof *had);
	int *any = sv_xcalloc((size_t)nr + 1, sizeof *any), ok, all;

	*first = NULL;
	*n = 0;
	MPI_Allreduce(&nr, &most, 1, MPI_UINT32_T, MPI_MAX, MPI_COMM_WORLD);
	ok = most == nr;
	MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
	if (!all) /* (every process has the file's region table) */
		goto out;
	sv_profile_region_first(l, mine, seen);
	for (g = 0; g < nr; g++) {
		had[g] = seen[g];
		if (!seen[g])
			mine[g] = INT64_MAX;
	}
	MPI_Allreduce(mine, low, (int)nr, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
	MPI_Allreduce(had, any, (int)nr, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
	for (g = 0; g < nr; g++)
		if (!any[g])
			low[g] = 0;
	ok = sv_profile_ties_hold(l, low);
	MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
	if (!all) {
		*first = low;
		*n = nr;
		low = NULL;
	}
out:
	free(seen);
	free(mine);
	free(low);
	free(had);
	free(any);
	return *first == NULL;
}

int sv_dist_load(const char *path, const struct sv_load_opts *o,
	struct sv_dist_profile *d, struct sv_error *err)
{
	struct sv_load_opts lo;
	struct sv_load_share sh;
	uint64_t *calls = NULL;
	int64_t *first = NULL;
	uint32_t nranks = 0, r;
	int rc = 0, flags[2] = {0, 0};
	bool only_selected = false, *read_rank;

	memset(d, 0, sizeof *d);
	if (sv_dist_rank() == 0) {
		memset(&lo, 0, sizeof lo);
		lo.summary_only = true;
		rc = sv_load(path, &lo, &d->whole, err);
		if (rc == -ENOTSUP) {
			/* A JSON profile has no index apart from its calls:
			 * the first process reads it whole, as every process
			 * does below. */
			lo.summary_only = false;
			*err = (struct sv_error){0};
			rc = sv_load(path, &lo, &d->whole, err);
		}
	}
	rc = sv_dist_agree(rc, err);
	if (rc < 0)
		return rc;
	if (sv_dist_rank() == 0) {
		calls = load_rank_calls(d->whole, o, &nranks, &only_selected);
		flags[0] = (int)nranks;
		flags[1] = only_selected;
	}
	MPI_Bcast(flags, 2, MPI_INT, 0, MPI_COMM_WORLD);
	nranks = (uint32_t)flags[0];
	only_selected = flags[1];
	if (sv_dist_rank() != 0)
		calls = sv_xcalloc(nranks ? nranks : 1, sizeof *calls);
	MPI_Bcast(calls, (int)nranks, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	sv_dist_share(calls, nranks, sv_dist_rank(), sv_dist_size(), &d->share,
		&d->nshare);
	free(calls);

	memset(&lo, 0, sizeof lo);
	memset(&sh, 0, sizeof sh);
	sh.mpio = true;
	sh.root = sv_dist_rank() == 0;
	sh.bcast = sv_dist_bcast;
	lo.share = &sh;
	lo.rank_on = d->share;
	lo.nrank_on = d->nshare;
	rc = sv_load(path, &lo, &d->local, err);
	rc = sv_dist_agree(rc, err);
	if (rc == 0 && !load_ties_hold(d, &first, &lo.nregion_first)) {
		/* Rare (calls of different regions that start and end in the
		 * same ns on one lane): the share is read again, its ties in
		 * the job's order. */
		lo.region_first = first;
		sv_profile_free(d->local);
		d->local = NULL;
		rc = sv_load(path, &lo, &d->local, err);
		rc = sv_dist_agree(rc, err);
	}
	free(first);
	if (rc < 0) {
		sv_dist_profile_fini(d);
		return rc;
	}
	{
		int pc = d->local->has_calls, all = 0;
		MPI_Allreduce(&pc, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
		d->per_call = all != 0;
	}
	/* The ranks somebody read: the shares, which cover every rank of
	 * the file or only the selected ones. */
	read_rank = sv_xcalloc(nranks ? nranks : 1, sizeof *read_rank);
	for (r = 0; r < nranks; r++)
		read_rank[r] = only_selected ? load_rank_on(o, r) : true;
	load_origin(d, read_rank, nranks);
	free(read_rank);
	load_warnings(d);
	/* The selection of the command applies on top of the share. */
	if (o && o->rank_on)
		for (r = 0; r < d->nshare; r++)
			d->share[r] = d->share[r] && load_rank_on(o, r);
	return 0;
}

int sv_dist_row_calls(const struct sv_dist_profile *d, const char *region,
	const char *file, uint64_t **out, struct sv_error *err)
{
	const struct sv_profile *l = d->local;
	int64_t g = region ? sv_profile_find_region(l, region) : -1;
	unsigned long long n = 0;
	uint64_t *rows = NULL; /* n x (rank, region, calls, first call) */
	size_t i, w = 0;
	int rc = 0;

	if (sv_dist_rank() == 0) {
		const struct sv_profile *wh = d->whole;
		int64_t gw = region ? sv_profile_find_region(wh, region) : -1;
		uint64_t at = 0;
		rows = sv_xmalloc((wh->nrows + 1) * 4 * sizeof *rows);
		for (i = 0; i < wh->nrows; i++) {
			const struct sv_row *r = &wh->rows[i];
			if (!region || (gw >= 0 && r->region == (uint32_t)gw)) {
				rows[4 * n] = r->rank;
				rows[4 * n + 1] = r->region;
				rows[4 * n + 2] = r->count;
				rows[4 * n + 3] = at;
				n++;
			}
			at += r->count;
		}
	}
	MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
	if (sv_dist_rank() != 0)
		rows = sv_xmalloc((n + 1) * 4 * sizeof *rows);
	sv_dist_bcast(NULL, rows, (size_t)n * 4 * sizeof *rows, 0);
	*out = sv_xcalloc(l->nrows + 1, sizeof **out);
	for (i = 0; i < l->nrows && rc == 0; i++) {
		uint32_t r = l->rows[i].rank;
		if (r >= d->nshare || !d->share[r] ||
			(region && (g < 0 || l->rows[i].region != (uint32_t)g)))
			continue;
		while (w < n &&
			!(rows[4 * w] < d->nshare && d->share[rows[4 * w]]))
			w++;
		if (w == n || rows[4 * w] != r ||
			rows[4 * w + 1] != l->rows[i].region ||
			rows[4 * w + 2] != l->rows[i].count) {
			rc = sv_error_set(err, -EIO,
				"%s: the rows of rank %u differ between two "
				"reads of the file",
				file, (unsigned)r);
			break;
		}
		(*out)[i] = rows[4 * w + 3];
		w++;
	}
	free(rows);
	return sv_dist_agree(rc, err);
}

void sv_dist_profile_fini(struct sv_dist_profile *d)
{
	if (!d)
		return;
	sv_profile_free(d->local);
	sv_profile_free(d->whole);
	free(d->share);
	memset(d, 0, sizeof *d);
}
