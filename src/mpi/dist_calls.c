/*
 * dist_calls.c: `scopeview calls` split over the processes of
 * scopeview-mpi (sv_dist_calls, sv_dist_hist, dist.h).
 *
 * A list: each process picks, sorts and cuts to the limit the calls of
 * its share with the serial code (calls.h's sv_calls_pick), so the first
 * limit calls of the whole list are among the processes' first limit.
 * Each sends them to process 0 as fixed records (the sort key, the
 * figures printed, and the call's number in scopeview's own load of the
 * file, which breaks ties as the serial sort does), with its lanes'
 * labels, the calls' metadata text and extra columns beside them.
 * Process 0 puts the records in the serial order and prints them
 * through report.h's detached list.  The number of a call in scopeview's
 * load is its row's first call there (sv_dist_row_calls, which export
 * numbers its calls with too) plus its place in the row.
 *
 * A histogram: the processes agree on the span of the positive
 * durations (minimum and maximum), frame the same bins over it
 * (sv_hist_frame), count their own calls into them, and the counts are
 * added up on process 0: no duration leaves its process.
 */
#include "scopeview/dist.h"

#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/calls.h"

#define CALLS_NONE UINT64_MAX

/* One call as a process sends it (no padding left unset: the records
 * are zeroed before they are filled). */
struct calls_rec {
	int64_t key; /* the sort key's value, when has_key */
	int64_t start_ns, end_ns, duration_ns;
	int64_t exclusive_ns, gpu_ns, await_ns;
	uint64_t number; /* in scopeview's load of the file */
	uint64_t lane;   /* offset of its lane's label, or CALLS_NONE */
	uint64_t meta;   /* offset of its metadata text, or CALLS_NONE */
	uint64_t colv;   /* process 0: offset of its columns' values */
	uint32_t rank;
	uint32_t from; /* process 0: the process that sent it */
	uint32_t has_key;
	uint32_t pad;
};

/* ---- a process's part ------------------------------------------------------ */

struct calls_part {
	struct calls_rec *recs;
	size_t n;
	int64_t *colv; /* n x ncolumns */
	char *text;    /* lane labels and metadata, each ending in '\0' */
	size_t ntext, captext;
	uint64_t *lane_at; /* each lane's label in text (lazily added) */
};

static uint64_t calls_add_text(struct calls_part *pt, const char *s)
{
	size_t len = strlen(s) + 1;
	uint64_t at = pt->ntext;

	if (pt->ntext + len > pt->captext) {
		pt->captext = (pt->ntext + len) * 2;
		pt->text = sv_xrealloc(pt->text, pt->captext);
	}
	memcpy(pt->text + pt->ntext, s, len);
	pt->ntext += len;
	return at;
}

/* This process's first q->limit calls of its share, as records. */
static int calls_part_make(struct calls_part *pt,
	const struct sv_dist_profile *d, const struct sv_calls_query *q,
	struct sv_error *err)
{
	const struct sv_profile *p = d->local;
	struct sv_calls_query lq = *q;
	struct sv_report_call_list pl;
	uint32_t *calls = NULL;
	uint64_t *num = NULL;
	size_t i;
	long n;
	int status;

	memset(pt, 0, sizeof *pt);
	status = sv_dist_row_calls(d, q->region, p->path, &num, err);
	if (status < 0) {
		free(num);
		return status;
	}
	/* The share: the loader narrowed it to the command's --ranks. */
	lq.rank_on = d->share;
	lq.nrank_on = d->nshare;
	n = sv_calls_pick(p, &lq, &calls);
	if (n < 0) {
		free(num);
		return sv_error_set(
			err, (int)n, "calls: cannot sort the calls");
	}
	pt->n = (size_t)n;
	pt->recs = sv_xcalloc(pt->n + 1, sizeof *pt->recs);
	pt->colv = sv_xcalloc(pt->n * p->ncolumns + 1, sizeof *pt->colv);
	pt->lane_at = sv_xmalloc((p->nlanes + 1) * sizeof *pt->lane_at);
	for (i = 0; i < p->nlanes; i++)
		pt->lane_at[i] = CALLS_NONE;
	/* The figures as the serial list reads them (report.h). */
	sv_report_call_list_of(&pl, p, calls, pt->n);
	for (i = 0; i < pt->n; i++) {
		struct calls_rec *r = &pt->recs[i];
		struct sv_report_call rc;
		uint32_t c = calls[i];
		size_t row = sv_profile_row_of(p, c);
		pl.get(&pl, i, &rc, pt->colv + i * p->ncolumns);
		r->has_key = sv_calls_value(p, c, q->key, &r->key);
		r->start_ns = rc.start_ns;
		r->end_ns = rc.end_ns;
		r->duration_ns = rc.duration_ns;
		r->exclusive_ns = rc.exclusive_ns;
		r->gpu_ns = rc.gpu_ns;
		r->await_ns = rc.await_ns;
		r->number = num[row] + (c - p->rows[row].first);
		r->rank = rc.rank;
		r->lane = CALLS_NONE;
		if (*rc.lane) {
			uint32_t l = sv_call_lane(p, c);
			if (pt->lane_at[l] == CALLS_NONE)
				pt->lane_at[l] = calls_add_text(pt, rc.lane);
			r->lane = pt->lane_at[l];
		}
		r->meta = rc.meta ? calls_add_text(pt, rc.meta) : CALLS_NONE;
	}
	free(num);
	free(calls);
	return 0;
}

static void calls_part_fini(struct calls_part *pt)
{
	free(pt->recs);
	free(pt->colv);
	free(pt->text);
	free(pt->lane_at);
	memset(pt, 0, sizeof *pt);
}

/* ---- the whole list, on process 0 ---------------------------------------- */

/* What process 0 holds of the list (the list's ctx). */
struct calls_all {
	struct calls_rec *recs;
	int64_t *colv;
	char *text;
	struct sv_column *columns; /* names and kinds */
	size_t ncolumns;
};

/* The sort's order (calls.h): present values before absent ones, the
 * key in its direction (a lane as its rank, then its place among the
 * rank's lanes, which one process holds), rank and lane ties by start,
 * then the call's number. */
static enum sv_calls_key calls_key;
static bool calls_desc;

static int calls_cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

static int calls_cmp(const void *pa, const void *pb)
{
	const struct calls_rec *a = pa, *b = pb;
	int c;

	if (a->has_key != b->has_key)
		return a->has_key ? -1 : 1;
	if (a->has_key) {
		c = 0;
		if (calls_key == SV_CALLS_KEY_LANE)
			c = calls_cmp_i64(a->rank, b->rank);
		if (!c)
			c = calls_cmp_i64(a->key, b->key);
		if (c)
			return calls_desc ? -c : c;
	}
	if (calls_key == SV_CALLS_KEY_RANK || calls_key == SV_CALLS_KEY_LANE) {
		c = calls_cmp_i64(a->start_ns, b->start_ns);
		if (c)
			return c;
	}
	return (a->number > b->number) - (a->number < b->number);
}

static void calls_get(const struct sv_report_call_list *l, size_t i,
	struct sv_report_call *c, int64_t *colbuf)
{
	const struct calls_all *all = l->ctx;
	const struct calls_rec *r = &all->recs[i];

	(void)colbuf;
	c->rank = r->rank;
	c->lane = r->lane == CALLS_NONE ? "" : all->text + r->lane;
	c->start_ns = r->start_ns;
	c->end_ns = r->end_ns;
	c->duration_ns = r->duration_ns;
	c->exclusive_ns = r->exclusive_ns;
	c->gpu_ns = r->gpu_ns;
	c->await_ns = r->await_ns;
	c->meta = r->meta == CALLS_NONE ? NULL : all->text + r->meta;
	c->colv = all->colv + r->colv;
}

/* Gather the columns' names and kinds: process 0 takes those of the
 * first process with the most (a process without calls may have none). */
static void calls_columns(const struct sv_profile *p, struct calls_all *all)
{
	size_t len = 0, k, nall, *at = NULL, best = 0;
	int np = sv_dist_size(), i;
	char *mine, *names;
	unsigned long long nc = p->ncolumns, *ncs;

	for (k = 0; k < p->ncolumns; k++)
		len += strlen(p->columns[k].name) + 2;
	mine = sv_xmalloc(len + 1);
	len = 0;
	for (k = 0; k < p->ncolumns; k++) {
		mine[len++] = p->columns[k].is_float ? 'f' : 'i';
		strcpy(mine + len, p->columns[k].name);
		len += strlen(p->columns[k].name) + 1;
	}
	ncs = sv_xcalloc((size_t)np, sizeof *ncs);
	MPI_Gather(&nc, 1, MPI_UNSIGNED_LONG_LONG, ncs, 1,
		MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
	names = sv_dist_gather(mine, len, 1, &nall, &at);
	free(mine);
	if (sv_dist_rank() == 0) {
		const char *s;
		for (i = 1; i < np; i++)
			if (ncs[i] > ncs[best])
				best = (size_t)i;
		all->ncolumns = (size_t)ncs[best];
		all->columns =
			sv_xcalloc(all->ncolumns + 1, sizeof *all->columns);
		s = names + at[best];
		for (k = 0; k < all->ncolumns; k++) {
			all->columns[k].is_float = *s == 'f';
			all->columns[k].name = sv_xstrdup(s + 1);
			s += strlen(s) + 1;
		}
	}
	free(names);
	free(at);
	free(ncs);
}

/* Gather every part to process 0 into all, in the serial order. */
static void calls_gather(struct calls_all *all, const struct calls_part *pt,
	const struct sv_profile *p, const struct sv_calls_query *q,
	size_t *nout)
{
	size_t nrec, ncolv, ntext, *rec_at = NULL, *colv_at = NULL,
				   *text_at = NULL, i;
	int np = sv_dist_size(), k;
	unsigned long long stride = p->ncolumns, *strides;

	strides = sv_xcalloc((size_t)np, sizeof *strides);
	MPI_Gather(&stride, 1, MPI_UNSIGNED_LONG_LONG, strides, 1,
		MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
	all->recs = sv_dist_gather(
		pt->recs, pt->n, sizeof *pt->recs, &nrec, &rec_at);
	all->colv = sv_dist_gather(pt->colv, pt->n * p->ncolumns,
		sizeof *pt->colv, &ncolv, &colv_at);
	all->text = sv_dist_gather(pt->text, pt->ntext, 1, &ntext, &text_at);
	*nout = 0;
	if (sv_dist_rank() == 0) {
		/* Where each record's text and values are in the whole; a
		 * process whose columns are not the list's gives zeros. */
		int64_t *zeros = sv_xcalloc(all->ncolumns + 1, sizeof *zeros);
		size_t nz = ncolv;
		all->colv = sv_xrealloc(all->colv,
			(ncolv + all->ncolumns + 1) * sizeof *all->colv);
		memcpy(all->colv + nz, zeros,
			(all->ncolumns + 1) * sizeof *zeros);
		free(zeros);
		for (k = 0; k < np; k++) {
			size_t end = k + 1 < np ? rec_at[k + 1] : nrec;
			for (i = rec_at[k]; i < end; i++) {
				struct calls_rec *r = &all->recs[i];
				r->from = (uint32_t)k;
				if (r->lane != CALLS_NONE)
					r->lane += text_at[k];
				if (r->meta != CALLS_NONE)
					r->meta += text_at[k];
				r->colv = strides[k] == all->ncolumns
						  ? colv_at[k] +
							    (i - rec_at[k]) *
								    strides[k]
						  : nz;
			}
		}
		calls_key = q->key;
		calls_desc = sv_calls_key_descending(q->key) != q->reverse;
		qsort(all->recs, nrec, sizeof *all->recs, calls_cmp);
		*nout = nrec;
		if (q->limit >= 0 && (size_t)q->limit < nrec)
			*nout = (size_t)q->limit;
	}
	free(rec_at);
	free(colv_at);
	free(text_at);
	free(strides);
}

/* Whether the job's parts fit the gathers' int counts (MPI's): the
 * records, the columns' values and the text, added up over the job.
 * 0, or -E2BIG (agreed, every process the same sums). */
static int calls_fits(const struct calls_part *pt, const struct sv_profile *p,
	struct sv_error *err)
{
	unsigned long long mine[3], all[3];
	int k;

	mine[0] = pt->n;
	mine[1] = (unsigned long long)pt->n * p->ncolumns;
	mine[2] = pt->ntext;
	MPI_Allreduce(
		mine, all, 3, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
	for (k = 0; k < 3; k++)
		if (all[k] > (unsigned long long)INT_MAX)
			return sv_error_set(err, -E2BIG,
				"calls: %llu calls are more than one process "
				"gathers; ask for fewer with --limit",
				all[0]);
	return 0;
}

/* Whether any process's profile says so. */
static bool calls_any(bool mine)
{
	int in = mine, out = 0;

	MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
	return out != 0;
}

static void calls_fini(struct sv_report_call_list *l)
{
	struct calls_all *all = l->own;
	size_t k;

	if (all) {
		for (k = 0; k < all->ncolumns; k++)
			free(all->columns[k].name);
		free(all->columns);
		free(all->recs);
		free(all->colv);
		free(all->text);
		free(all);
	}
	memset(l, 0, sizeof *l);
}

int sv_dist_calls(struct sv_report_call_list *l,
	const struct sv_dist_profile *d, const struct sv_calls_query *q,
	struct sv_error *err)
{
	const struct sv_profile *p = d->local;
	struct calls_part pt;
	struct calls_all *all;
	size_t n = 0;
	int rc;

	memset(l, 0, sizeof *l);
	rc = calls_part_make(&pt, d, q, err);
	rc = sv_dist_agree(rc, err);
	if (rc == 0)
		rc = calls_fits(&pt, p, err);
	if (rc < 0) {
		calls_part_fini(&pt);
		return rc;
	}
	all = sv_xcalloc(1, sizeof *all);
	l->origin_ns = sv_dist_origin(d);
	l->has_exclusive = calls_any(sv_profile_has_exclusive(p));
	l->has_gpu = calls_any(sv_profile_has_gpu(p));
	l->has_await = calls_any(sv_profile_has_await(p));
	l->has_meta = calls_any(p->call_meta != NULL);
	calls_columns(p, all);
	calls_gather(all, &pt, p, q, &n);
	calls_part_fini(&pt);
	l->n = n;
	l->columns = all->columns;
	l->ncolumns = all->ncolumns;
	l->get = calls_get;
	l->ctx = all;
	l->own = all;
	l->fini = calls_fini;
	return 0;
}

/* ---- the histogram ----------------------------------------------------------- */

int sv_dist_hist(struct sv_hist *h, const struct sv_dist_profile *d,
	const struct sv_calls_query *q, size_t nbins, struct sv_error *err)
{
	const struct sv_profile *p = d->local;
	int64_t g = sv_profile_find_region(p, q->region);
	uint32_t *calls = NULL;
	long long span[2] = {INT64_MAX, INT64_MIN}, all_span[2];
	unsigned long long mine[2] = {0, 0}, sum[2];
	uint64_t *counts;
	long n = 0;
	long i;
	int rc = 0;

	memset(h, 0, sizeof *h);
	if (g >= 0)
		n = sv_calls_of_region(
			p, (uint32_t)g, d->share, d->nshare, &calls, NULL);
	if (n < 0)
		rc = sv_error_set(
			err, (int)n, "calls: cannot collect the calls");
	rc = sv_dist_agree(rc, err);
	if (rc < 0) {
		free(calls);
		return rc;
	}
	for (i = 0; i < n; i++) {
		int64_t dur = sv_call_duration(p, calls[i]);
		if (dur <= 0)
			continue;
		span[0] = dur < span[0] ? dur : span[0];
		span[1] = dur > span[1] ? dur : span[1];
	}
	/* The span as (min, ~max), so that one MIN reduces both (~ turns
	 * the order round without overflowing). */
	span[1] = ~span[1];
	MPI_Allreduce(
		span, all_span, 2, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
	all_span[1] = ~all_span[1];
	mine[0] = (unsigned long long)n;
	MPI_Allreduce(
		mine, sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
	sv_hist_frame(h, sum[0], all_span[0] <= all_span[1], all_span[0],
		all_span[1], nbins);
	counts = sv_xcalloc(h->nbins + 1, sizeof *counts);
	for (i = 0; h->nbins && i < n; i++) {
		long b = sv_hist_bin_of(h, sv_call_duration(p, calls[i]));
		if (b < 0)
			mine[1]++;
		else
			counts[b]++;
	}
	free(calls);
	if (h->nbins) {
		MPI_Reduce(&mine[1], &sum[1], 1, MPI_UNSIGNED_LONG_LONG,
			MPI_SUM, 0, MPI_COMM_WORLD);
		MPI_Reduce(counts, h->counts, (int)h->nbins, MPI_UINT64_T,
			MPI_SUM, 0, MPI_COMM_WORLD);
		if (sv_dist_rank() == 0)
			h->nzero = sum[1];
	}
	free(counts);
	if (sv_dist_rank() != 0)
		sv_hist_fini(h);
	return 0;
}
