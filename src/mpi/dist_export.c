/*
 * dist_export.c: `export` split over the processes of scopeview-mpi
 * (sv_dist_export, dist.h).  Each process writes the items of its share
 * of the ranks (Chrome's events, speedscope's profiles, CSV's rows: lane
 * by lane, and a share's lanes are a run of the whole profile's; a JSON
 * profile's rows, region by region) with the export writers' pieces
 * (export.h's sv_export_piece), numbering calls and lanes as the whole
 * profile does; process 0 writes the head and the tail from the whole
 * file's rows, and puts the parts in their places: its own first, then
 * each other process's, which arrive in messages of at most one stream
 * buffer, so no process holds more than its share and a buffer.  The
 * one output is process 0's: standard output, or the file it opened by
 * the output rule (outfile.h), renamed over the target once every part
 * is in.  Folded stacks are the call tree's (sv_dist_callpath).
 */
#include "scopeview/dist.h"

#include <errno.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "scopeview/callpath.h"
#include "scopeview/cli.h"
#include "scopeview/export.h"
#include "scopeview/outfile.h"
#include "scopeview/tree.h"

#define EXPORT_TAG_DATA 41
#define EXPORT_TAG_END  42

/* The other processes: each write a message to process 0 (which takes
 * them in order: a blocking send, so no more than a buffer waits). */
static ssize_t export_to_root(void *c, const char *b, size_t n)
{
	size_t left = n;

	(void)c;
	while (left > 0) {
		size_t k = left < ((size_t)1 << 30) ? left : (size_t)1 << 30;
		MPI_Send(b, (int)k, MPI_CHAR, 0, EXPORT_TAG_DATA,
			MPI_COMM_WORLD);
		b += k;
		left -= k;
	}
	return (ssize_t)n;
}

/* What every process holds while it writes. */
struct export_job {
	const struct sv_dist_profile *d;
	const struct sv_cli_export *x;
	const char *format;
	struct sv_export_scope sc;  /* d->local's lanes of --ranks; range */
	struct sv_export_part part; /* this process's share */
	bool *lanes, *rank_in;
	uint64_t *row_call;
	FILE *mine; /* this process's pieces: to sink, or to process 0 */
	/* process 0 */
	struct sv_export_sink sink;
	FILE *out;
	char *buf;
	size_t cap;
};

/* Process 0: process k's piece, its messages up to the end mark, into
 * the sink; returns k's status. */
static int export_receive(struct export_job *j, int k)
{
	MPI_Status st;
	int n, rc = 0;

	for (;;) {
		MPI_Probe(k, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		if (st.MPI_TAG == EXPORT_TAG_END) {
			MPI_Recv(&rc, 1, MPI_INT, k, EXPORT_TAG_END,
				MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			return rc;
		}
		MPI_Get_count(&st, MPI_CHAR, &n);
		if ((size_t)n + 1 > j->cap)
			sv_grow((void **)&j->buf, &j->cap, (size_t)n + 1, 1);
		MPI_Recv(j->buf, n, MPI_CHAR, k, EXPORT_TAG_DATA,
			MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		sv_export_sink_put(&j->sink, j->buf, (size_t)n);
	}
}

/* One piece of the list from every process in order (each its share's;
 * rows, for a JSON profile's, the rows of one region): process 0 writes
 * its own and then takes the others'.  Not collective: the others send
 * and go on.  0 or the first failure's status (err: this process's). */
static int export_list(struct export_job *j, enum sv_export_piece piece,
	const uint32_t *rows, size_t nrows, struct sv_error *err)
{
	int rc, k, theirs;

	j->part.rows = rows;
	j->part.nrows = nrows;
	rc = sv_export_piece(j->format, piece, j->mine, j->d->local, &j->sc,
		NULL, &j->part, err);
	if (fflush(j->mine) && rc == 0)
		rc = sv_error_set(err, -EIO, "cannot send the export");
	if (sv_dist_rank() != 0) {
		MPI_Send(&rc, 1, MPI_INT, 0, EXPORT_TAG_END, MPI_COMM_WORLD);
		return rc;
	}
	for (k = 1; k < sv_dist_size(); k++) {
		theirs = export_receive(j, k);
		if (theirs < 0 && rc == 0)
			rc = sv_error_set(
				err, theirs, "the export's part %d failed", k);
	}
	return rc;
}

/* Lane numbers: this share's lanes are a run of d->local's and of the
 * whole profile's, after the lanes of the shares before it. */
static void export_lane_shift(struct export_job *j)
{
	const struct sv_dist_profile *d = j->d;
	const struct sv_profile *l = d->local;
	long long mine = 0, before = 0;
	int64_t at = -1;
	size_t i;

	for (i = 0; i < l->nlanes; i++)
		if (l->lanes[i].rank < d->nshare &&
			d->share[l->lanes[i].rank]) {
			if (at < 0)
				at = (int64_t)i;
			mine++;
		}
	MPI_Exscan(&mine, &before, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
	if (sv_dist_rank() == 0)
		before = 0; /* MPI_Exscan leaves it undefined there */
	j->part.lane_shift = at < 0 ? 0 : (int64_t)before - at;
}

/* The whole profile's columns: some process's share has each. */
static void export_flags(struct export_job *j)
{
	struct sv_export_part mine;
	int f[8], all[8];

	sv_export_part_of(&mine, j->d->local);
	f[0] = mine.meta;
	f[1] = mine.nest;
	f[2] = mine.excl;
	f[3] = mine.gpu;
	f[4] = mine.await;
	f[5] = mine.id_call;
	f[6] = mine.id_parent;
	f[7] = 0;
	MPI_Allreduce(f, all, 8, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
	j->part.meta = all[0];
	j->part.nest = all[1];
	j->part.excl = all[2];
	j->part.gpu = all[3];
	j->part.await = all[4];
	j->part.id_call = all[5];
	j->part.id_parent = all[6];
	j->part.has_calls = j->d->per_call;
}

/* JSON with --ranks: the ranks some lane of which is selected (every
 * rank when the whole profile has no lane), over the job. */
static void export_rank_in(struct export_job *j)
{
	const struct sv_dist_profile *d = j->d;
	const struct sv_profile *l = d->local;
	uint32_t n = d->nshare, r;
	unsigned char *has = sv_xcalloc((size_t)n + 1, 1);
	unsigned char *any = sv_xcalloc((size_t)n + 1, 1);
	long long lanes = 0, total = 0;
	size_t i;

	for (i = 0; i < l->nlanes; i++) {
		r = l->lanes[i].rank;
		if (r >= n || !d->share[r])
			continue;
		lanes++;
		if (!j->lanes || j->lanes[i])
			has[r] = 1;
	}
	MPI_Allreduce(
		has, any, (int)n, MPI_UNSIGNED_CHAR, MPI_MAX, MPI_COMM_WORLD);
	MPI_Allreduce(
		&lanes, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
	j->rank_in = sv_xcalloc((size_t)n + 1, sizeof *j->rank_in);
	for (r = 0; r < n; r++)
		j->rank_in[r] = total == 0 || any[r];
	j->part.rank_in = j->rank_in;
	j->part.nrank_in = n;
	free(has);
	free(any);
}

/* A JSON profile's rows: region by region, each process's rows of it in
 * turn (they are ordered by region first, then rank). */
static int export_json_rows(struct export_job *j, struct sv_error *err)
{
	const struct sv_dist_profile *d = j->d;
	const struct sv_profile *l = d->local;
	uint32_t *order = sv_export_json_order(l), nreg = 0, g;
	size_t i, n = 0, at = 0;
	int rc = 0, r;

	for (i = 0; i < l->nrows; i++) {
		uint32_t k = l->rows[order[i]].rank;
		if (k < d->nshare && d->share[k])
			order[n++] = order[i];
	}
	if (sv_dist_rank() == 0)
		nreg = d->whole->nregions;
	MPI_Bcast(&nreg, 1, MPI_UINT32_T, 0, MPI_COMM_WORLD);
	for (g = 0; g < nreg; g++) {
		size_t from = at;
		while (at < n && l->rows[order[at]].region == g)
			at++;
		r = export_list(
			j, SV_EXPORT_ROWS, order + from, at - from, err);
		if (r < 0 && rc == 0)
			rc = r;
	}
	free(order);
	return rc;
}

/* A list of every process's pieces in order, as one list: the sink
 * drops its first item's separator (sep bytes). */
static int export_run(struct export_job *j, enum sv_export_piece piece,
	size_t sep, struct sv_error *err)
{
	j->sink.skip = sep;
	j->sink.any = false;
	return export_list(j, piece, NULL, 0, err);
}

/* Process 0: a piece of the whole profile's, straight to the output. */
static int export_whole(struct export_job *j, enum sv_export_piece piece,
	int table, struct sv_error *err)
{
	if (sv_dist_rank() != 0)
		return 0;
	j->part.table = table;
	return sv_export_piece(j->format, piece, j->out, j->d->whole, &j->sc,
		j->x->out ? NULL : j->x->file, &j->part, err);
}

/* The rows of the lane tables over the job (the loader keeps those its
 * calls name: each process's of its share). */
static void export_tables(struct export_job *j)
{
	const struct sv_profile *l = j->d->local;
	unsigned long long mine[2] = {0, 0}, all[2];
	size_t i;

	for (i = 0; i < l->nthreads; i++)
		mine[0] += l->threads[i].rank < j->d->nshare &&
			   j->d->share[l->threads[i].rank];
	for (i = 0; i < l->ntasks; i++)
		mine[1] += l->tasks[i].rank < j->d->nshare &&
			   j->d->share[l->tasks[i].rank];
	MPI_Allreduce(
		mine, all, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
	j->part.nthreads = (size_t)all[0];
	j->part.ntasks = (size_t)all[1];
}

/* Keep the first failure. */
static void export_keep(int *rc, int r)
{
	if (r < 0 && *rc == 0)
		*rc = r;
}

/* The pieces of format: process 0's head, every process's list pieces in
 * order, process 0's tail. */
static int export_parts(struct export_job *j, struct sv_error *err)
{
	bool json = !strcmp(j->format, "json");
	int rc = 0, t;

	if (sv_dist_rank() == 0) {
		j->sink.out = j->out;
		j->mine = sv_export_sink_stream(&j->sink);
	} else {
		j->mine = fopencookie(NULL, "w",
			(cookie_io_functions_t){.write = export_to_root});
	}
	if (!j->mine)
		sv_die("scopeview-mpi: cannot make a stream");
	if (json)
		export_tables(j);
	export_keep(&rc, export_whole(j, SV_EXPORT_HEAD, 0, err));
	if (json) {
		j->sink.skip = 2;
		j->sink.any = false;
		export_keep(&rc, export_json_rows(j, err));
		for (t = 1; t <= 2; t++) {
			export_keep(&rc,
				export_whole(j, SV_EXPORT_BETWEEN, t - 1, err));
			j->part.table = t;
			export_keep(
				&rc, export_run(j, SV_EXPORT_LANES, 2, err));
		}
		export_keep(&rc, export_whole(j, SV_EXPORT_BETWEEN, 2, err));
	} else {
		j->sink.skip = !strcmp(j->format, "csv") ? 0 : 1;
		j->sink.any = false;
		if (!strcmp(j->format, "chrome"))
			export_keep(&rc,
				export_list(j, SV_EXPORT_LANES, NULL, 0, err));
		export_keep(&rc, export_list(j, SV_EXPORT_CALLS, NULL, 0, err));
	}
	fclose(j->mine);
	j->mine = NULL;
	j->part.any = j->sink.any;
	export_keep(&rc, export_whole(j, SV_EXPORT_TAIL, 0, err));
	return rc;
}

/* Folded stacks: the call tree of the selected ranks' lanes, merged on
 * process 0 (sv_dist_callpath), written there. */
static int export_collapsed(struct export_job *j, struct sv_error *err)
{
	struct sv_dist_profile dd = *j->d;
	struct sv_callpath_scope cs;
	struct sv_callpath t;
	uint32_t r;
	int rc;

	dd.share = sv_xcalloc((size_t)dd.nshare + 1, sizeof *dd.share);
	for (r = 0; r < dd.nshare; r++)
		dd.share[r] = j->d->share[r] &&
			      (!j->x->rank_on ||
				      (r < j->x->nrank_on && j->x->rank_on[r]));
	memset(&cs, 0, sizeof cs);
	cs.has_range = j->sc.has_range;
	cs.t0 = j->sc.t0;
	cs.t1 = j->sc.t1;
	cs.expand_recursion = true;
	rc = sv_dist_callpath(&t, &dd, &cs, err);
	if (rc == 0 && sv_dist_rank() == 0 &&
		sv_tree_write_collapsed(j->out, &t, NULL) < 0)
		rc = sv_error_set(err, -EIO, "cannot write the stacks");
	sv_callpath_fini(&t);
	free(dd.share);
	return rc;
}

/* Process 0: a profile without calls in JSON, written whole from the
 * file's rows (their stored statistics). */
static int export_stored(struct export_job *j, struct sv_error *err)
{
	const struct sv_profile *w = j->d->whole;
	struct sv_export_scope sc = j->sc;
	bool *lanes = sv_cli_lanes_of_ranks(w, j->x->rank_on, j->x->nrank_on);
	int rc;

	sc.lane_on = lanes;
	rc = sv_export_json(j->out, w, &sc, j->x->out ? NULL : j->x->file, err);
	free(lanes);
	return rc;
}

int sv_dist_export(const struct sv_dist_profile *d,
	const struct sv_cli_export *x, struct sv_error *err)
{
	struct export_job j;
	struct sv_outfile o;
	bool root = sv_dist_rank() == 0;
	int64_t origin = sv_dist_origin(d);
	int rc = 0;

	memset(&j, 0, sizeof j);
	j.d = d;
	j.x = x;
	j.format = x->format;
	j.out = x->stream;
	j.part.share = d->share;
	j.part.nshare = d->nshare;
	j.part.origin = origin;
	if (x->has_range) {
		j.sc.has_range = true;
		j.sc.t0 = sv_add_wrap(origin, x->r0);
		j.sc.t1 = sv_add_wrap(origin, x->r1);
	}
	if (!d->per_call && strcmp(x->format, "json")) {
		/* as scopeview refuses it, before any file is made */
		if (root)
			rc = sv_error_set(err, -EINVAL,
				"%s: the aggregate layout holds per-rank "
				"totals, no calls to export",
				x->out ? d->whole->path : x->file);
		return sv_dist_agree(rc, err);
	}
	if (root && x->out) {
		rc = sv_outfile_open(&o, x->out, &x->file, 1, err);
		if (rc == 0)
			j.out = sv_outfile_stream(&o);
	}
	rc = sv_dist_agree(rc, err);
	if (rc < 0)
		return rc;
	j.lanes = sv_cli_lanes_of_ranks(d->local, x->rank_on, x->nrank_on);
	j.sc.lane_on = j.lanes;
	if (!strcmp(x->format, "collapsed")) {
		rc = export_collapsed(&j, err);
	} else if (!d->per_call) {
		if (root)
			rc = export_stored(&j, err);
	} else {
		export_flags(&j);
		export_lane_shift(&j);
		if (!strcmp(x->format, "json") && x->rank_on)
			export_rank_in(&j);
		rc = sv_dist_row_calls(d, NULL, x->file, &j.row_call, err);
		j.part.row_call = j.row_call;
		if (rc == 0)
			rc = export_parts(&j, err);
	}
	rc = sv_dist_agree(rc, err);
	if (root && x->out)
		rc = sv_outfile_finish(&o, rc, err);
	rc = sv_dist_agree(rc, err);
	free(j.lanes);
	free(j.rank_in);
	free(j.row_call);
	free(j.buf);
	return rc;
}
