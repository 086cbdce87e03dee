/*
 * write_h5_close.c: sv_writer_close and sv_writer_abort: write what waited
 * in memory (the index, the region and lane tables, events fewer than
 * the compression threshold) and move the finished file into place.
 */
#include "write_h5_priv.h"

#include <errno.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Close: write what waited in memory */

/* Write a 1-D dataset at close with the layout rules. */
static int write_close_ds(struct sv_writer *w, hid_t g, const char *name,
	hid_t ftype, hid_t mtype, size_t elem_bytes, enum sv_write_kind kind,
	uint64_t n, const void *buf, struct sv_error *err)
{
	struct sv_write_layout l = sv_write_layout_for(w, kind, n, elem_bytes);
	hid_t ds = sv_write_dataset(g, name, ftype, mtype, n, buf, &l);
	if (ds < 0)
		return sv_write_fail(w, err, name);
	H5Dclose(ds);
	return 0;
}

/* A string column: variable-length, or fixed-length UTF-8 as wide as its
 * longest value when opts.fixed_strings. */
static int write_close_strs(struct sv_writer *w, hid_t g, const char *name,
	enum sv_write_kind kind, const char *const *v, size_t n,
	struct sv_error *err)
{
	size_t width = 1, i;
	char *fixed;
	hid_t t;
	int rc;

	if (!w->opts.fixed_strings)
		return write_close_ds(
			w, g, name, w->t_str, w->t_str, 8, kind, n, v, err);
	for (i = 0; i < n; i++)
		if (strlen(v[i]) > width)
			width = strlen(v[i]);
	fixed = sv_xcalloc(n ? n : 1, width);
	for (i = 0; i < n; i++)
		memcpy(fixed + i * width, v[i], strlen(v[i]));
	t = sv_write_str_type(width);
	rc = write_close_ds(w, g, name, t, t, width, kind, n, fixed, err);
	H5Tclose(t);
	free(fixed);
	return rc;
}

#define GATHER(dst, arr, n, field)                     \
	do {                                           \
		size_t gi_;                            \
		for (gi_ = 0; gi_ < (n); gi_++)        \
			(dst)[gi_] = (arr)[gi_].field; \
	} while (0)

static int write_close_index(struct sv_writer *w, struct sv_error *err)
{
	size_t n = w->nrows, nev = n; /* rows of the event-parallel index */
	hid_t g = -1, gt = -1, sum_f = -1, sum_m = -1;
	uint32_t *u32 = sv_xmalloc((n ? n : 1) * sizeof *u32);
	uint64_t *u64 = sv_xmalloc((n ? n : 1) * sizeof *u64);
	int64_t *i64 = sv_xmalloc((n ? n : 1) * sizeof *i64);
	const char **strs = sv_xmalloc((n ? n : 1) * sizeof *strs);
	struct sv_write_summary *sum = sv_xmalloc((n ? n : 1) * sizeof *sum);
	int rc = 0;

	g = sv_write_group(w->file, "rank_region_index", w->gcpl);
	if (g < 0) {
		rc = sv_write_fail(w, err, "/rank_region_index");
		goto out;
	}
	if (w->opts.aggregate) {
		/* Per-row figures in aggregate_*; the datasets that would be
		 * parallel to the events hold no rows (doc/format.md 7). */
		static const char *const names[4] = {"aggregate_exclusives",
			"aggregate_maximums", "aggregate_minimums",
			"aggregate_totals"};
		int k;
		GATHER(u64, w->rows, n, count);
		rc = write_close_ds(w, g, "aggregate_counts", H5T_STD_U64LE,
			H5T_NATIVE_UINT64, 8, KIND_INDEX, n, u64, err);
		for (k = 0; k < 4 && !rc; k++) {
			if (k == 0)
				GATHER(i64, w->rows, n, exclusive);
			else if (k == 1)
				GATHER(i64, w->rows, n, summary.maximum);
			else if (k == 2)
				GATHER(i64, w->rows, n, summary.minimum);
			else
				GATHER(i64, w->rows, n, summary.total);
			rc = write_close_ds(w, g, names[k], H5T_STD_I64LE,
				H5T_NATIVE_INT64, 8, KIND_INDEX, n, i64, err);
		}
		if (rc)
			goto out;
		nev = 0;
	}
	GATHER(u64, w->rows, n, count);
	rc = write_close_ds(w, g, "event_counts", H5T_STD_U64LE,
		H5T_NATIVE_UINT64, 8, KIND_INDEX, nev, u64, err);
	GATHER(u64, w->rows, n, offset);
	if (!rc)
		rc = write_close_ds(w, g, "event_offsets", H5T_STD_U64LE,
			H5T_NATIVE_UINT64, 8, KIND_INDEX, nev, u64, err);
	GATHER(i64, w->rows, n, exclusive);
	if (!rc && w->opts.exclusive != SV_WRITE_EXCL_OMIT)
		rc = write_close_ds(w, g, "exclusive_totals", H5T_STD_I64LE,
			H5T_NATIVE_INT64, 8, KIND_INDEX, nev, i64, err);
	GATHER(u32, w->rows, n, rank);
	if (!rc)
		rc = write_close_ds(w, g, "ranks", H5T_STD_U32LE,
			H5T_NATIVE_UINT32, 4, KIND_INDEX, n, u32, err);
	GATHER(u32, w->rows, n, region);
	if (!rc)
		rc = write_close_ds(w, g, "region_ids", H5T_STD_U32LE,
			H5T_NATIVE_UINT32, 4, KIND_INDEX, n, u32, err);
	GATHER(strs, w->rows, n, source_file);
	if (!rc)
		rc = write_close_strs(
			w, g, "source_files", KIND_INDEX, strs, nev, err);
	GATHER(i64, w->rows, n, source_line);
	if (!rc)
		rc = write_close_ds(w, g, "source_lines", H5T_STD_I64LE,
			H5T_NATIVE_INT64, 8, KIND_INDEX, nev, i64, err);
	GATHER(strs, w->rows, n, source_text);
	if (!rc)
		rc = write_close_strs(
			w, g, "source_texts", KIND_INDEX, strs, nev, err);
	if (!rc && !w->opts.no_summary) {
		GATHER(sum, w->rows, n, summary);
		sum_f = sv_write_summary_type(true);
		sum_m = sv_write_summary_type(false);
		rc = write_close_ds(w, g, "summary_statistics", sum_f, sum_m,
			88, KIND_INDEX, nev, sum, err);
	}
	GATHER(strs, w->rows, n, tags);
	if (!rc)
		rc = write_close_strs(w, g, "tags", KIND_INDEX, strs, nev, err);
	if (rc)
		goto out;

	gt = sv_write_group(w->file, "region_table", w->gcpl);
	if (gt < 0) {
		rc = sv_write_fail(w, err, "/region_table");
		goto out;
	}
	rc = write_close_strs(w, gt, "names", KIND_INDEX,
		(const char *const *)w->names.v, w->names.n, err);
out:
	if (sum_f >= 0)
		H5Tclose(sum_f);
	if (sum_m >= 0)
		H5Tclose(sum_m);
	if (g >= 0)
		H5Gclose(g);
	if (gt >= 0)
		H5Gclose(gt);
	free(u32);
	free(u64);
	free(i64);
	free(strs);
	free(sum);
	return rc;
}

static int write_close_tables(struct sv_writer *w, struct sv_error *err)
{
	size_t n = w->ntasks > w->nthreads ? w->ntasks : w->nthreads;
	uint32_t *u32 = sv_xmalloc((n ? n : 1) * sizeof *u32);
	int64_t *i64 = sv_xmalloc((n ? n : 1) * sizeof *i64);
	int8_t *i8 = sv_xmalloc((n ? n : 1) * sizeof *i8);
	const char **strs = sv_xmalloc((n ? n : 1) * sizeof *strs);
	hid_t g = -1;
	int rc = 0;

#define I64COL(name, arr, cnt, field)                                      \
	do {                                                               \
		GATHER(i64, arr, cnt, field);                              \
		if (!rc)                                                   \
			rc = write_close_ds(w, g, name, H5T_STD_I64LE,     \
				H5T_NATIVE_INT64, 8, KIND_TABLE, cnt, i64, \
				err);                                      \
	} while (0)

	if (w->nthreads) {
		n = w->nthreads;
		g = sv_write_group(w->file, "thread_table", w->gcpl);
		if (g < 0) {
			rc = sv_write_fail(w, err, "/thread_table");
			goto out;
		}
		I64COL("cpu_ns", w->threads, n, t.cpu_ns);
		GATHER(i8, w->threads, n, t.daemon);
		if (!rc)
			rc = write_close_ds(w, g, "daemon", H5T_STD_I8LE,
				H5T_NATIVE_INT8, 1, KIND_TABLE, n, i8, err);
		I64COL("end_ns", w->threads, n, t.end_ns);
		I64COL("ident", w->threads, n, t.ident);
		I64COL("index", w->threads, n, t.index);
		GATHER(strs, w->threads, n, t.name);
		if (!rc)
			rc = write_close_strs(
				w, g, "name", KIND_TABLE, strs, n, err);
		I64COL("native_id", w->threads, n, t.native_id);
		GATHER(u32, w->threads, n, rank);
		if (!rc)
			rc = write_close_ds(w, g, "ranks", H5T_STD_U32LE,
				H5T_NATIVE_UINT32, 4, KIND_TABLE, n, u32, err);
		I64COL("start_ns", w->threads, n, t.start_ns);
		H5Gclose(g);
		g = -1;
		if (rc)
			goto out;
	}
	if (w->ntasks) {
		n = w->ntasks;
		g = sv_write_group(w->file, "task_table", w->gcpl);
		if (g < 0) {
			rc = sv_write_fail(w, err, "/task_table");
			goto out;
		}
		GATHER(strs, w->tasks, n, t.coro_name);
		rc = write_close_strs(
			w, g, "coro_name", KIND_TABLE, strs, n, err);
		I64COL("created_ns", w->tasks, n, t.created_ns);
		I64COL("done_ns", w->tasks, n, t.done_ns);
		I64COL("index", w->tasks, n, t.index);
		GATHER(strs, w->tasks, n, t.kind);
		if (!rc)
			rc = write_close_strs(
				w, g, "kind", KIND_TABLE, strs, n, err);
		GATHER(strs, w->tasks, n, t.name);
		if (!rc)
			rc = write_close_strs(
				w, g, "name", KIND_TABLE, strs, n, err);
		GATHER(u32, w->tasks, n, rank);
		if (!rc)
			rc = write_close_ds(w, g, "ranks", H5T_STD_U32LE,
				H5T_NATIVE_UINT32, 4, KIND_TABLE, n, u32, err);
		I64COL("running_ns", w->tasks, n, t.running_ns);
		I64COL("steps", w->tasks, n, t.steps);
		I64COL("suspended_ns", w->tasks, n, t.suspended_ns);
		I64COL("thread_index", w->tasks, n, t.thread_index);
		H5Gclose(g);
		g = -1;
	}
#undef I64COL
out:
	if (g >= 0)
		H5Gclose(g);
	free(u32);
	free(i64);
	free(i8);
	free(strs);
	return rc;
}

/* Buffered events (fewer than 16384): write them with the final layout. */
static int write_close_events(struct sv_writer *w, struct sv_error *err)
{
	int order[NCOLS], n, k, rc = 0;
	const char *const *names =
		w->opts.schema == 2 ? sv_write_col_names2 : sv_write_col_names3;

	n = sv_write_col_order(w, order);
	for (k = 0; k < n && !rc; k++) {
		int c = order[k];
		rc = write_close_ds(w, w->g_events, names[c], H5T_STD_I64LE,
			H5T_NATIVE_INT64, 8, KIND_EVENT, w->nevents, w->buf[c],
			err);
	}
	return rc;
}

/* The file is being thrown away: what HDF5 still writes (the cached
 * metadata and chunks, the file's final length) goes to an anonymous
 * file in memory instead, so that closing after a failed write (a full
 * disk) succeeds and frees the file.  libhdf5 1.10 otherwise keeps a
 * file whose close failed open, and crashes closing it again at exit. */
static void write_discard_io(struct sv_writer *w)
{
	void *handle = NULL;
	int sink;

	if (w->file < 0 || H5Pget_driver(w->fapl) != H5FD_SEC2 ||
		H5Fget_vfd_handle(w->file, w->fapl, &handle) < 0 || !handle)
		return;
	sink = memfd_create("scopeview-discarded", MFD_CLOEXEC);
	if (sink < 0)
		return;
	(void)dup2(sink, *(int *)handle);
	close(sink);
}

int sv_writer_close(struct sv_writer *w, struct sv_error *err)
{
	int rc = 0, c;

	if (!w)
		return sv_error_set(err, -EINVAL, "no writer");
	if (w->failed) {
		rc = sv_error_set(
			err, -EIO, "%s: writer failed earlier", w->path);
		sv_writer_abort(w);
		return rc;
	}
	if (w->opts.schema >= 2) {
		if (!w->spilled)
			rc = write_close_events(w, err);
		if (!rc)
			rc = write_close_index(w, err);
		if (!rc)
			rc = write_close_tables(w, err);
	}
	/* Everything to the file before any object is closed: a write
	 * the system refuses (a full disk) fails here, and the closes that
	 * follow then write nowhere and succeed. */
	if (!rc && H5Fflush(w->file, H5F_SCOPE_LOCAL) < 0)
		rc = sv_write_fail(w, err, "writing the file");
	if (rc)
		write_discard_io(w);
	for (c = 0; c < NCOLS; c++) {
		if (w->spilled && w->present[c] && w->ds[c] >= 0 &&
			H5Dclose(w->ds[c]) < 0 && !rc) {
			rc = sv_write_fail(w, err, "closing events");
			write_discard_io(w);
		}
		w->ds[c] = -1;
	}
	if (w->g_events > 0)
		H5Gclose(w->g_events);
	if (w->g_meta > 0)
		H5Gclose(w->g_meta);
	w->g_events = w->g_meta = -1;
	if (H5Fclose(w->file) < 0 && !rc)
		rc = sv_write_fail(w, err, "closing the file");
	w->file = -1;
	if (!rc && w->has_out)
		rc = sv_outfile_commit(&w->out, err);
	if (rc) {
		sv_writer_abort(w);
		return rc;
	}
	sv_write_free(w);
	return 0;
}

void sv_writer_abort(struct sv_writer *w)
{
	if (!w)
		return;
	if (w->file > 0) {
		write_discard_io(w);
		int c;
		for (c = 0; c < NCOLS; c++)
			if (w->spilled && w->present[c] && w->ds[c] >= 0)
				H5Dclose(w->ds[c]);
		w->spilled = false;
		if (w->g_events > 0)
			H5Gclose(w->g_events);
		if (w->g_meta > 0)
			H5Gclose(w->g_meta);
		w->g_events = w->g_meta = -1;
		H5Fclose(w->file);
		w->file = -1;
	}
	if (w->opts.in_place)
		unlink(w->tmp_path);
	sv_write_free(w);
}
