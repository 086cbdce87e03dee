/*
 * write_h5_events.c: the event columns of schema 2 and 3 (in memory until
 * the layout is known, then chunked datasets that grow as ranks arrive),
 * and schema 1's rank<N>/regions/<name>/ groups.
 */
#include "write_h5_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Event columns */

static int write_col_create(struct sv_writer *w, int c, struct sv_error *err)
{
	struct sv_write_layout l = {true, false, sv_write_event_chunk(w)};
	const char *name = (w->opts.schema == 2 ? sv_write_col_names2
						: sv_write_col_names3)[c];
	if (w->opts.compression == SV_WRITE_COMPRESS_GZIP)
		l.compressed = true;
	else if (w->opts.compression == SV_WRITE_COMPRESS_AUTO &&
		 w->opts.storage == SV_WRITE_PUBLISHED)
		l.compressed = true; /* spilled: >= 16384 events */
	w->ds[c] = sv_write_dataset(w->g_events, name, H5T_STD_I64LE,
		H5T_NATIVE_INT64, 0, NULL, &l);
	if (w->ds[c] < 0)
		return sv_write_fail(w, err, name);
	return 0;
}

static int write_names_cmp(const void *a, const void *b, void *arg)
{
	const char *const *names = arg;
	return strcmp(names[*(const int *)a], names[*(const int *)b]);
}

/* Present event columns in the order of their names (as h5py's copy
 * visits them when scope-profiler publishes a file). */
int sv_write_col_order(const struct sv_writer *w, int *order)
{
	int c, n = 0;
	for (c = 0; c < NCOLS; c++)
		if (w->present[c])
			order[n++] = c;
	qsort_r(order, (size_t)n, sizeof *order, write_names_cmp,
		(void *)(w->opts.schema == 2 ? sv_write_col_names2
					     : sv_write_col_names3));
	return n;
}

/* Move the buffered events into chunked datasets. */
int sv_write_spill(struct sv_writer *w, struct sv_error *err)
{
	int order[NCOLS], n, k;

	n = sv_write_col_order(w, order);
	for (k = 0; k < n; k++) {
		int c = order[k];
		int rc = write_col_create(w, c, err);
		if (rc)
			return rc;
		if (sv_write_append(w->ds[c], H5T_NATIVE_INT64, 0, w->nevents,
			    w->buf[c]) < 0)
			return sv_write_fail(w, err, "writing events");
		free(w->buf[c]);
		w->buf[c] = NULL;
		w->buf_cap[c] = 0;
	}
	w->spilled = true;
	return 0;
}

/* Make column c exist, holding its fill value for every earlier event. */
int sv_write_col_add(struct sv_writer *w, int c, struct sv_error *err)
{
	uint64_t done = 0;
	int rc;

	w->present[c] = true;
	if (!w->spilled) {
		size_t i;
		sv_grow((void **)&w->buf[c], &w->buf_cap[c], w->nevents + 1,
			sizeof(int64_t));
		for (i = 0; i < w->nevents; i++)
			w->buf[c][i] = sv_write_col_fill[c];
		return 0;
	}
	rc = write_col_create(w, c, err);
	if (rc)
		return rc;
	if (w->nevents) {
		size_t blk =
			w->nevents < WRITE_BLOCK ? w->nevents : WRITE_BLOCK;
		int64_t *fill = sv_xmalloc(blk * sizeof *fill);
		size_t i;
		for (i = 0; i < blk; i++)
			fill[i] = sv_write_col_fill[c];
		while (done < w->nevents) {
			uint64_t m = w->nevents - done;
			if (m > blk)
				m = blk;
			if (sv_write_append(w->ds[c], H5T_NATIVE_INT64, done, m,
				    fill) < 0) {
				free(fill);
				return sv_write_fail(w, err, "back-filling");
			}
			done += m;
		}
		free(fill);
	}
	return 0;
}

/* Store a block of m events per present column (values[c] m long). */
int sv_write_events_block(struct sv_writer *w, int64_t *const *values,
	uint64_t m, struct sv_error *err)
{
	int c;
	for (c = 0; c < NCOLS; c++) {
		if (!w->present[c])
			continue;
		if (w->spilled) {
			if (sv_write_append(w->ds[c], H5T_NATIVE_INT64,
				    w->nevents, m, values[c]) < 0)
				return sv_write_fail(w, err, "writing events");
		} else {
			sv_grow((void **)&w->buf[c], &w->buf_cap[c],
				w->nevents + m, sizeof(int64_t));
			memcpy(w->buf[c] + w->nevents, values[c],
				m * sizeof(int64_t));
		}
	}
	w->nevents += m;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Schema 1: rank<N>/regions/<name>/ */

static int write_s1_dataset(
	hid_t g, const char *name, const int64_t *v, uint64_t n)
{
	struct sv_write_layout l = {false, false, 0};
	hid_t ds = sv_write_dataset(
		g, name, H5T_STD_I64LE, H5T_NATIVE_INT64, n, v, &l);
	if (ds < 0)
		return -1;
	H5Dclose(ds);
	return 0;
}

int sv_write_s1_rank(struct sv_writer *w, const struct sv_write_rank *r,
	const uint32_t *perm, const uint64_t *first, const uint64_t *count,
	struct sv_error *err)
{
	char gname[32];
	hid_t grank, gregions;
	size_t i;
	int64_t *tmp = NULL;
	uint64_t maxn = 0;
	int rc = 0;

	snprintf(gname, sizeof gname, "rank%u", (unsigned)r->rank);
	grank = sv_write_group(w->file, gname, w->gcpl);
	if (grank < 0)
		return sv_write_fail(w, err, gname);
	gregions = sv_write_group(grank, "regions", w->gcpl);
	if (gregions < 0) {
		H5Gclose(grank);
		return sv_write_fail(w, err, gname);
	}
	for (i = 0; i < r->nrows; i++)
		if (count[i] > maxn)
			maxn = count[i];
	tmp = sv_xmalloc((maxn ? maxn : 1) * sizeof *tmp);
	for (i = 0; i < r->nrows && !rc; i++) {
		const struct sv_write_row *row = &r->rows[i];
		const int64_t *cols[5] = {r->start_ns, r->end_ns, r->gpu_ns,
			r->call_id, r->parent_id};
		static const char *const names[5] = {"start_times", "end_times",
			"gpu_durations", "call_ids", "parent_ids"};
		hid_t g = sv_write_group(gregions, row->name, w->gcpl);
		int k;
		if (g < 0) {
			rc = sv_write_fail(w, err, row->name);
			break;
		}
		for (k = 0; k < 5 && !rc; k++) {
			uint64_t j;
			if (!cols[k])
				continue;
			for (j = 0; j < count[i]; j++)
				tmp[j] = cols[k][perm[first[i] + j]];
			if (write_s1_dataset(g, names[k], tmp, count[i]) < 0)
				rc = sv_write_fail(w, err, row->name);
		}
		if (!rc && ((row->source_file && *row->source_file) ||
				   row->source_line >= 0)) {
			if (sv_write_attr_str(g, "source_file", w->t_str,
				    row->source_file ? row->source_file : "") <
					0 ||
				sv_write_attr(g, "source_lineno", H5T_STD_I64LE,
					H5T_NATIVE_INT64,
					&row->source_line) < 0)
				rc = sv_write_fail(w, err, row->name);
		}
		if (!rc && row->source_text && *row->source_text &&
			sv_write_attr_str(g, "source_text", w->t_str,
				row->source_text) < 0)
			rc = sv_write_fail(w, err, row->name);
		if (!rc && row->ntags &&
			sv_write_attr_strs(
				g, "tags", w->t_str, row->tags, row->ntags) < 0)
			rc = sv_write_fail(w, err, row->name);
		H5Gclose(g);
	}
	free(tmp);
	H5Gclose(gregions);
	H5Gclose(grank);
	return rc;
}
