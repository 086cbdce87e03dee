/*
 * write_h5_rank.c: sv_writer_add_rank: check a rank, order its calls,
 * summarise its rows and send its events to the columns (or, schema 1,
 * its own groups); the rows and lane tables wait in memory until close.
 */
#include "write_h5_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Adding a rank */

static int write_check_rank(struct sv_writer *w, const struct sv_write_rank *r,
	struct sv_error *err)
{
	size_t i;
	uint64_t sum = 0;

	for (i = 0; i < w->nranks_seen; i++)
		if (w->ranks_seen[i] == r->rank)
			return sv_error_set(err, -EINVAL,
				"rank %u was written more than once",
				(unsigned)r->rank);
	if (r->ncalls && (!r->start_ns || !r->end_ns))
		return sv_error_set(err, -EINVAL,
			"rank %u: calls without start or end times",
			(unsigned)r->rank);
	if (r->ncalls >= UINT32_MAX)
		return sv_error_set(err, -EINVAL,
			"rank %u: too many calls for one rank",
			(unsigned)r->rank);
	if (r->nrows && !r->rows)
		return sv_error_set(err, -EINVAL, "rank %u: rows missing",
			(unsigned)r->rank);
	for (i = 0; i < r->nrows; i++) {
		const char *name = r->rows[i].name;
		if (!name)
			return sv_error_set(err, -EINVAL,
				"rank %u: row %zu has no region name",
				(unsigned)r->rank, i);
		if (w->opts.schema == 1 &&
			(!*name || strchr(name, '/') || !strcmp(name, ".")))
			return sv_error_set(err, -EINVAL,
				"region name \"%s\" cannot be a schema-1 "
				"group name",
				name);
		sum += r->rows[i].count;
	}
	if (r->row) {
		uint64_t c;
		for (c = 0; c < r->ncalls; c++)
			if (r->row[c] >= r->nrows)
				return sv_error_set(err, -EINVAL,
					"rank %u: call %llu names row %u of "
					"%zu",
					(unsigned)r->rank,
					(unsigned long long)c,
					(unsigned)r->row[c], r->nrows);
	} else if (sum != r->ncalls) {
		return sv_error_set(err, -EINVAL,
			"rank %u: rows hold %llu calls but %llu were given",
			(unsigned)r->rank, (unsigned long long)sum,
			(unsigned long long)r->ncalls);
	}
	return 0;
}

static void write_copy_tables(
	struct sv_writer *w, const struct sv_write_rank *r)
{
	size_t i;
	for (i = 0; i < r->nthreads; i++) {
		struct write_thread_row *t;
		sv_grow((void **)&w->threads, &w->threads_cap, w->nthreads + 1,
			sizeof *w->threads);
		t = &w->threads[w->nthreads++];
		t->rank = r->rank;
		t->t = r->threads[i];
		t->t.name = sv_xstrdup(t->t.name ? t->t.name : "");
		w->string_bytes += strlen(t->t.name);
	}
	for (i = 0; i < r->ntasks; i++) {
		struct write_task_row *t;
		sv_grow((void **)&w->tasks, &w->tasks_cap, w->ntasks + 1,
			sizeof *w->tasks);
		t = &w->tasks[w->ntasks++];
		t->rank = r->rank;
		t->t = r->tasks[i];
		t->t.kind = sv_xstrdup(t->t.kind ? t->t.kind : "task");
		t->t.name = sv_xstrdup(t->t.name ? t->t.name : "");
		t->t.coro_name =
			sv_xstrdup(t->t.coro_name ? t->t.coro_name : "");
		w->string_bytes += strlen(t->t.name) + strlen(t->t.coro_name);
	}
}

int sv_writer_add_rank(struct sv_writer *w, const struct sv_write_rank *r,
	struct sv_error *err)
{
	uint64_t *count = NULL, *first = NULL, c, pos;
	uint32_t *perm = NULL, *row_of = NULL;
	int64_t *excl = NULL, *blk[NCOLS] = {0};
	const int64_t *src[NCOLS];
	bool excl_ok = false;
	size_t i;
	int rc = 0, k;
	uint64_t base;

	if (!w || !r)
		return sv_error_set(err, -EINVAL, "no writer or rank");
	if (w->failed)
		return sv_error_set(
			err, -EIO, "%s: writer failed earlier", w->path);
	rc = write_check_rank(w, r, err);
	if (rc)
		return rc;

	/* Rows: counts, first storage position, and the permutation from
	 * storage order to the caller's call index. */
	count = sv_xcalloc(r->nrows + 1, sizeof *count);
	first = sv_xcalloc(r->nrows + 1, sizeof *first);
	perm = sv_xmalloc((r->ncalls ? r->ncalls : 1) * sizeof *perm);
	if (!r->row)
		row_of = sv_xmalloc(
			(r->ncalls ? r->ncalls : 1) * sizeof *row_of);
	if (r->row) {
		for (c = 0; c < r->ncalls; c++)
			count[r->row[c]]++;
	} else {
		for (i = 0; i < r->nrows; i++)
			count[i] = r->rows[i].count;
	}
	for (i = 1; i <= r->nrows; i++)
		first[i] = first[i - 1] + count[i - 1];
	if (r->row) {
		uint64_t *fill = sv_xmalloc((r->nrows + 1) * sizeof *fill);
		memcpy(fill, first, (r->nrows + 1) * sizeof *fill);
		for (c = 0; c < r->ncalls; c++) {
			perm[fill[r->row[c]]++] = (uint32_t)c;
		}
		free(fill);
	} else {
		for (i = 0; i < r->nrows; i++)
			for (c = first[i]; c < first[i + 1]; c++) {
				perm[c] = (uint32_t)c;
				row_of[c] = (uint32_t)i;
			}
	}

	/* Exclusive totals of the rank's rows. */
	excl = sv_xmalloc((r->nrows + 1) * sizeof *excl);
	if (w->opts.exclusive == SV_WRITE_EXCL_COMPUTE) {
		excl_ok = sv_write_exclusive_totals(r->start_ns, r->end_ns,
				  r->thread_id, r->task_id,
				  r->row ? r->row : row_of, r->ncalls, excl,
				  r->nrows) == 0;
	}
	for (i = 0; i < r->nrows; i++) {
		if (w->opts.exclusive == SV_WRITE_EXCL_GIVEN)
			excl[i] = r->rows[i].exclusive_total;
		else if (w->opts.exclusive != SV_WRITE_EXCL_COMPUTE || !excl_ok)
			excl[i] = -1;
	}

	if (w->opts.schema == 1) {
		rc = sv_write_s1_rank(w, r, perm, first, count, err);
		if (rc)
			goto out;
		base = w->nevents;
		w->nevents += r->ncalls;
		goto index;
	}

	if (w->opts.aggregate) {
		base = 0;
		goto index;
	}

	/* Event columns: which this rank supplies, creating new ones. */
	src[COL_A] = r->start_ns;
	src[COL_B] = r->end_ns;
	src[COL_GPU] = r->gpu_ns;
	src[COL_CALL] = r->call_id;
	src[COL_PARENT] = r->parent_id;
	src[COL_THREAD] = r->thread_id;
	src[COL_TASK] = r->task_id;
	src[COL_AWAIT] = r->await_ns;
	for (k = COL_GPU; k < NCOLS; k++) {
		if (src[k] && !w->present[k]) {
			rc = sv_write_col_add(w, k, err);
			if (rc)
				goto out;
		}
	}
	if (!w->spilled &&
		(w->nevents + r->ncalls >= SV_WRITE_AUTO_COMPRESS_EVENTS ||
			w->opts.storage == SV_WRITE_CHUNKED)) {
		rc = sv_write_spill(w, err);
		if (rc)
			goto out;
	}
	base = w->nevents;
	for (k = 0; k < NCOLS; k++)
		if (w->present[k])
			blk[k] = sv_xmalloc(WRITE_BLOCK * sizeof(int64_t));
	pos = 0;
	for (i = 0; i < r->nrows && !rc; i++) {
		int64_t prev = 0;
		for (c = first[i]; c < first[i + 1]; c++) {
			uint32_t s = perm[c];
			if (w->opts.schema == 3) {
				/* Wrapping, as numpy's diff: the reader's
				 * sums give the times back exactly. */
				blk[COL_A][pos] =
					sv_sub_wrap(r->start_ns[s], prev);
				blk[COL_B][pos] = sv_sub_wrap(
					r->end_ns[s], r->start_ns[s]);
				prev = r->start_ns[s];
			} else {
				blk[COL_A][pos] = r->start_ns[s];
				blk[COL_B][pos] = r->end_ns[s];
			}
			for (k = COL_GPU; k < NCOLS; k++)
				if (blk[k])
					blk[k][pos] =
						src[k] ? src[k][s]
						       : sv_write_col_fill[k];
			if (++pos == WRITE_BLOCK) {
				rc = sv_write_events_block(w, blk, pos, err);
				pos = 0;
				if (rc)
					break;
			}
		}
	}
	if (!rc && pos)
		rc = sv_write_events_block(w, blk, pos, err);
	if (rc)
		goto out;

index:
	/* Index rows (kept in memory until close). */
	for (i = 0; i < r->nrows; i++) {
		const struct sv_write_row *row = &r->rows[i];
		struct write_index_row *x;
		sv_grow((void **)&w->rows, &w->rows_cap, w->nrows + 1,
			sizeof *w->rows);
		x = &w->rows[w->nrows++];
		memset(x, 0, sizeof *x);
		x->region = sv_write_region_id(w, row->name);
		x->rank = r->rank;
		x->offset = base + first[i];
		x->count = count[i];
		x->source_line = row->source_line;
		x->exclusive = excl[i];
		x->source_file =
			sv_xstrdup(row->source_file ? row->source_file : "");
		x->source_text =
			sv_xstrdup(row->source_text ? row->source_text : "");
		x->tags = sv_write_tags_json(row->tags, row->ntags);
		w->string_bytes += strlen(x->source_file) +
				   strlen(x->source_text) + strlen(x->tags);
		sv_write_summary_idx(r->start_ns, r->end_ns, r->gpu_ns,
			perm + first[i], count[i], &x->summary);
	}
	if (w->opts.schema >= 2 && !w->opts.aggregate)
		write_copy_tables(w, r);
	sv_grow((void **)&w->ranks_seen, &w->ranks_seen_cap, w->nranks_seen + 1,
		sizeof *w->ranks_seen);
	w->ranks_seen[w->nranks_seen++] = r->rank;
out:
	for (k = 0; k < NCOLS; k++)
		free(blk[k]);
	free(count);
	free(first);
	free(perm);
	free(row_of);
	free(excl);
	return rc;
}

uint64_t sv_writer_events(const struct sv_writer *w)
{
	return w ? w->nevents : 0;
}
