/*
 * dist_reports.c: the call tree and the scaling sample of a profile split
 * over the processes of scopeview-mpi (sv_dist_callpath,
 * sv_dist_measure, dist.h).  Every lane belongs to one rank, and every
 * rank to one process, so each process builds the tree of its share's
 * lanes with the serial code, keeping the nodes a range leaves empty;
 * the nodes (one per distinct call path a process met, never a call)
 * travel to process 0 merged by path on the way (sv_callpath_merge,
 * pairwise in log2(N) rounds, so no process holds every process's nodes
 * at once): counts and times add, minimum and maximum combine, which is
 * what one build over every lane adds up.  A scaling sample is each
 * region's 128-bit sum of durations and count over the share's rows,
 * added up over the job with an MPI operation of its own (exact), and
 * finished on process 0 from the whole file's metadata and regions.
 */
#include "scopeview/dist.h"

#include <errno.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* This process's share of d's lanes (p->nlanes flags): the ranks it
 * computes, which the loader narrowed to the command's --ranks. */
static bool *reports_lanes(const struct sv_dist_profile *d)
{
	const struct sv_profile *p = d->local;
	bool *on = sv_xcalloc((size_t)p->nlanes + 1, sizeof *on);
	size_t l;

	for (l = 0; l < p->nlanes; l++)
		on[l] = p->lanes[l].rank < d->nshare &&
			d->share[p->lanes[l].rank];
	return on;
}

/* Merge every process's nodes into process 0's, pairwise in log2(N)
 * rounds: in round r, process k + 2^r sends its list to process k (k a
 * multiple of 2^(r+1)), which merges the two (sv_callpath_merge over p,
 * empty nodes kept).  A process thus holds its own merged list and one
 * received list at a time, never every process's at once.  Returns the
 * list (malloc'd) and its length in *n on process 0; elsewhere NULL.  A
 * merge that fails (a node out of range) sets *rc and passes on no
 * nodes. */
static struct sv_callpath_node *reports_merge_pairwise(
	const struct sv_profile *p, const struct sv_callpath_scope *sc,
	struct sv_callpath_node *mine, size_t *n, int *rc, struct sv_error *err)
{
	int me = sv_dist_rank(), np = sv_dist_size(), step;
	MPI_Datatype item;

	MPI_Type_contiguous((int)sizeof *mine, MPI_BYTE, &item);
	MPI_Type_commit(&item);
	for (step = 1; step < np; step *= 2) {
		unsigned long long cnt = *n;
		if (me % (2 * step) == step) {
			MPI_Send(&cnt, 1, MPI_UNSIGNED_LONG_LONG, me - step, 0,
				MPI_COMM_WORLD);
			if (cnt)
				MPI_Send(mine, (int)cnt, item, me - step, 1,
					MPI_COMM_WORLD);
			free(mine);
			mine = NULL;
			*n = 0;
			break;
		}
		if (me % (2 * step) == 0 && me + step < np) {
			struct sv_callpath merged;
			size_t i, base = *n;
			MPI_Recv(&cnt, 1, MPI_UNSIGNED_LONG_LONG, me + step, 0,
				MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			mine = sv_xrealloc(
				mine, (base + cnt + 1) * sizeof *mine);
			if (cnt)
				MPI_Recv(mine + base, (int)cnt, item, me + step,
					1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			for (i = base; i < base + cnt; i++)
				if (mine[i].parent != SV_CALLPATH_NONE)
					mine[i].parent += (uint32_t)base;
			*n = base + cnt;
			if (*rc == 0)
				*rc = sv_callpath_merge(
					&merged, p, sc, mine, *n, err);
			free(mine);
			mine = NULL;
			*n = 0;
			if (*rc == 0) {
				mine = merged.nodes;
				*n = merged.nnodes;
				merged.nodes = NULL;
			}
			sv_callpath_fini(&merged);
		}
	}
	MPI_Type_free(&item);
	if (me != 0) {
		free(mine);
		*n = 0;
		return NULL;
	}
	return mine;
}

int sv_dist_callpath(struct sv_callpath *t, const struct sv_dist_profile *d,
	const struct sv_callpath_scope *sc, struct sv_error *err)
{
	struct sv_callpath_scope lsc;
	struct sv_callpath lt;
	struct sv_callpath_node *all = NULL;
	size_t nall = 0;
	bool *lanes = reports_lanes(d);
	int rc;

	memset(t, 0, sizeof *t);
	if (sc)
		lsc = *sc;
	else
		memset(&lsc, 0, sizeof lsc);
	lsc.lane_on = lanes;
	lsc.keep_empty = true;
	lsc.cancel = NULL;
	lsc.progress = NULL;
	rc = sv_callpath_build(&lt, d->local, &lsc, err);
	rc = sv_dist_agree(rc, err);
	if (rc < 0) {
		sv_callpath_fini(&lt);
		free(lanes);
		return rc;
	}
	/* The merges between processes keep the empty nodes (lsc's
	 * keep_empty); process 0's last one drops them, as the command's
	 * scope says. */
	lsc.lane_on = NULL;
	nall = lt.nnodes;
	all = reports_merge_pairwise(d->local, &lsc, lt.nodes, &nall, &rc, err);
	lt.nodes = NULL;
	sv_callpath_fini(&lt);
	free(lanes);
	lsc.keep_empty = sc && sc->keep_empty;
	if (sv_dist_rank() == 0) {
		if (rc == 0)
			rc = sv_callpath_merge(
				t, d->whole, &lsc, all, nall, err);
	} else {
		/* An empty tree of this process's profile, for the command
		 * to write where nothing is printed. */
		t->p = d->local;
		t->scope = lsc;
		t->sort_key = SV_CALLPATH_KEY_INCL;
	}
	free(all);
	return sv_dist_agree(rc, err);
}

int64_t sv_dist_origin(const struct sv_dist_profile *d)
{
	long long o = 0;

	if (sv_dist_rank() == 0)
		o = d->has_origin ? d->origin_ns
				  : sv_profile_time_origin(d->whole);
	MPI_Bcast(&o, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
	return (int64_t)o;
}

/* The MPI operation of 128-bit sums: in[i] added to inout[i]. */
static void reports_add128(void *in, void *inout, int *len, MPI_Datatype *type)
{
	const unsigned char *a = in;
	unsigned char *b = inout;
	int i;

	(void)type;
	for (i = 0; i < *len; i++) {
		sv_i128 x, y;
		memcpy(&x, a + (size_t)i * sizeof x, sizeof x);
		memcpy(&y, b + (size_t)i * sizeof y, sizeof y);
		/* Sums of int64 durations over at most 2^64 calls: never
		 * out of 128 bits. */
		y += x;
		memcpy(b + (size_t)i * sizeof y, &y, sizeof y);
	}
}

/* Add every process's sums up into *total on process 0 (n regions). */
static void reports_reduce(const struct sv_scaling_sums *mine,
	struct sv_scaling_sums *total, uint32_t n)
{
	sv_i128 *sum = sv_xcalloc((size_t)n + 1, sizeof *sum);
	uint64_t *count = sv_xcalloc((size_t)n + 1, sizeof *count);
	MPI_Datatype i128;
	MPI_Op add;

	memcpy(sum, mine->sum, (size_t)mine->nregions * sizeof *sum);
	memcpy(count, mine->count, (size_t)mine->nregions * sizeof *count);
	total->nregions = n;
	total->sum = sv_xcalloc((size_t)n + 1, sizeof *total->sum);
	total->count = sv_xcalloc((size_t)n + 1, sizeof *total->count);
	MPI_Type_contiguous((int)sizeof(sv_i128), MPI_BYTE, &i128);
	MPI_Type_commit(&i128);
	MPI_Op_create(reports_add128, 1, &add);
	MPI_Reduce(sum, total->sum, (int)n, i128, add, 0, MPI_COMM_WORLD);
	MPI_Reduce(count, total->count, (int)n, MPI_UINT64_T, MPI_SUM, 0,
		MPI_COMM_WORLD);
	MPI_Op_free(&add);
	MPI_Type_free(&i128);
	free(sum);
	free(count);
}

int sv_dist_measure(struct sv_scaling_sample *s,
	const struct sv_dist_profile *d, const char *file,
	const struct sv_scaling_opts *o, struct sv_error *err)
{
	struct sv_scaling_sums mine, total;
	unsigned mn, n;
	int rc = 0;

	memset(s, 0, sizeof *s);
	if (sv_dist_rank() == 0)
		rc = sv_scaling_sample_begin(s, d->whole, file, o, err);
	rc = sv_dist_agree(rc, err);
	if (rc < 0) {
		sv_scaling_sample_fini(s);
		return rc;
	}
	rc = sv_scaling_sum(&mine, d->local, o, d->share, d->nshare, err);
	rc = sv_dist_agree(rc, err);
	if (rc < 0) {
		sv_scaling_sums_fini(&mine);
		sv_scaling_sample_fini(s);
		return rc;
	}
	/* Every process loaded the same region table; the largest count
	 * all the same, so the reduction's length agrees. */
	mn = mine.nregions;
	MPI_Allreduce(&mn, &n, 1, MPI_UNSIGNED, MPI_MAX, MPI_COMM_WORLD);
	reports_reduce(&mine, &total, n);
	sv_scaling_sums_fini(&mine);
	if (sv_dist_rank() == 0) {
		sv_scaling_sample_end(s, d->whole, &total);
	} else {
		/* A sample of no regions, for the command to combine where
		 * nothing is printed. */
		s->file = sv_xstrdup(file ? file : "");
		s->label = sv_xstrdup("");
		s->x_text = sv_xstrdup("0");
		s->x_number = true;
	}
	sv_scaling_sums_fini(&total);
	return 0;
}
