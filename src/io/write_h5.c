/*
 * write_h5.c: the profile writer (write.h), schema 3, 2 and 1.
 *
 * The only HDF5 user besides the loader.  Rows of the per-(rank, region)
 * index, region names and lane tables are kept in memory (one entry per row
 * or lane); event columns go to the file as ranks arrive, except the first
 * SV_WRITE_AUTO_COMPRESS_EVENTS events, which wait in memory until the
 * storage layout is known (contiguous when small, chunked and compressed
 * from 16384 events on: the decisions scope-profiler's publish step makes).
 *
 * Determinism: object modification times are off on every creation
 * property list, the format versions are pinned to the earliest ones (as
 * h5py writes them: superblock 0), and nothing is read from the clock or
 * the environment.
 *
 * Nothing here prints; failures come back as negative errno + sv_error.
 */
#include "scopeview/write.h"

#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scopeview/nest.h"
#include "scopeview/pairwise.h"

/* Event column slots.  A and B are start_deltas/durations (schema 3) or
 * start_times/end_times (schema 2). */
enum {
	COL_A,
	COL_B,
	COL_GPU,
	COL_CALL,
	COL_PARENT,
	COL_THREAD,
	COL_TASK,
	COL_AWAIT,
	NCOLS
};

static const char *const col_names3[NCOLS] = {"start_deltas", "durations",
	"gpu_durations", "call_ids", "parent_ids", "thread_ids", "task_ids",
	"await_ns"};
static const char *const col_names2[NCOLS] = {"start_times", "end_times",
	"gpu_durations", "call_ids", "parent_ids", "thread_ids", "task_ids",
	"await_ns"};
static const int64_t col_fill[NCOLS] = {0, 0, SV_WRITE_NO_GPU, SV_WRITE_NO_ID,
	SV_WRITE_NO_ID, SV_WRITE_NO_THREAD, SV_WRITE_NO_TASK, 0};

/* Events gathered per block before they go to the file or the buffer. */
#define WRITE_BLOCK 65536

struct write_index_row {
	uint32_t region, rank;
	uint64_t offset, count;
	int64_t source_line, exclusive;
	char *source_file, *source_text, *tags;
	struct sv_write_summary summary;
};

struct write_thread_row {
	uint32_t rank;
	struct sv_write_thread t;
};

struct write_task_row {
	uint32_t rank;
	struct sv_write_task t;
};

struct sv_writer {
	struct sv_writer_opts opts;
	char *path;     /* destination */
	char *tmp_path; /* what is being written (== path when in place) */
	hid_t file, fapl, fcpl, gcpl;
	hid_t g_events, g_meta;
	hid_t t_str; /* vlen UTF-8 */
	bool failed;

	/* Region names, with an open-addressing hash of their ids. */
	char **names;
	size_t nnames, names_cap;
	uint32_t *hash; /* UINT32_MAX = empty */
	size_t hash_cap;

	struct write_index_row *rows;
	size_t nrows, rows_cap;
	struct write_thread_row *threads;
	size_t nthreads, threads_cap;
	struct write_task_row *tasks;
	size_t ntasks, tasks_cap;

	uint32_t *ranks_seen;
	size_t nranks_seen, ranks_seen_cap;

	/* Event columns. */
	uint64_t nevents;
	bool present[NCOLS];
	bool spilled;          /* datasets exist; buffers are unused */
	hid_t ds[NCOLS];       /* when spilled */
	int64_t *buf[NCOLS];   /* when not spilled: nevents values */
	size_t buf_cap[NCOLS]; /* elements */
	size_t string_bytes;   /* for the 16 MiB estimate */
};

/* ------------------------------------------------------------------ */
/* Errors */

static herr_t write_walk_cb(unsigned n, const H5E_error2_t *e, void *data)
{
	char *out = data;
	(void)n;
	if (!out[0] && e->desc && e->desc[0])
		snprintf(out, 200, "%s", e->desc);
	return 0;
}

/* Fill err with "<path>: <what>: <innermost HDF5 message>". */
static int write_h5_fail(
	struct sv_writer *w, struct sv_error *err, const char *what)
{
	char msg[200] = "";
	H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, write_walk_cb, msg);
	H5Eclear2(H5E_DEFAULT);
	w->failed = true;
	return sv_error_set(err, -EIO, "%s: %s: %s", w->path, what,
		msg[0] ? msg : "HDF5 error");
}

/* ------------------------------------------------------------------ */
/* Statistics */

/* Summary of n calls given by index (idx == NULL: 0..n-1).  np.add.reduce
 * with dtype=float64 works through buffers of SV_PAIRWISE_NP_BUFSIZE
 * values, each summed pairwise, accumulated in order; so the statistics
 * need only one buffer of that size, whatever the row's length. */
static void write_summary_idx(const int64_t *start, const int64_t *end,
	const int64_t *gpu, const uint32_t *idx, size_t n,
	struct sv_write_summary *s)
{
	double *x, mean, acc = 0.;
	size_t i, b;

	memset(s, 0, sizeof *s);
	if (!n)
		return;
	x = sv_xmalloc(
		(n < SV_PAIRWISE_NP_BUFSIZE ? n : SV_PAIRWISE_NP_BUFSIZE) *
		sizeof *x);
	for (b = 0; b < n; b += SV_PAIRWISE_NP_BUFSIZE) {
		size_t m = n - b < SV_PAIRWISE_NP_BUFSIZE
				   ? n - b
				   : SV_PAIRWISE_NP_BUFSIZE;
		for (i = 0; i < m; i++) {
			size_t c = idx ? idx[b + i] : b + i;
			int64_t d = end[c] - start[c];
			x[i] = (double)d;
			s->total += d;
			if (b + i == 0 || d < s->minimum)
				s->minimum = d;
			if (b + i == 0 || d > s->maximum)
				s->maximum = d;
			if (b + i == 0)
				s->first = d;
			s->last = d;
			if (b + i == 0 || start[c] < s->start_minimum)
				s->start_minimum = start[c];
			if (b + i == 0 || end[c] > s->end_maximum)
				s->end_maximum = end[c];
			if (gpu && gpu[c] >= 0) {
				s->gpu_count++;
				s->gpu_total += gpu[c];
			}
		}
		acc += sv_pairwise_sum(x, m);
	}
	mean = acc / (double)n;
	acc = 0.;
	for (b = 0; b < n; b += SV_PAIRWISE_NP_BUFSIZE) {
		size_t m = n - b < SV_PAIRWISE_NP_BUFSIZE
				   ? n - b
				   : SV_PAIRWISE_NP_BUFSIZE;
		for (i = 0; i < m; i++) {
			size_t c = idx ? idx[b + i] : b + i;
			double d = (double)(end[c] - start[c]) - mean;
			x[i] = d * d;
		}
		acc += sv_pairwise_sum(x, m);
	}
	s->mean = mean;
	s->m2 = acc / (double)n * (double)n;
	free(x);
}

void sv_write_summarize(const int64_t *start_ns, const int64_t *end_ns,
	const int64_t *gpu_ns, size_t n, struct sv_write_summary *out)
{
	write_summary_idx(start_ns, end_ns, gpu_ns, NULL, n, out);
}

/* ------------------------------------------------------------------ */
/* Exclusive totals */

struct excl_ctx {
	const int64_t *start, *end, *thread, *task;
	const uint32_t *row;
};

/* scope-profiler's lane of call c (concurrency.py lane_ids). */
static int64_t excl_lane(const struct excl_ctx *x, uint32_t c)
{
	int64_t th = x->thread ? x->thread[c] : -1;
	int64_t tk = x->task ? x->task[c] : -1;
	return tk >= 0 ? tk : (th < 0 ? -1 : -2 - th);
}

static int excl_cmp(const void *pa, const void *pb, void *arg)
{
	const struct excl_ctx *x = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int64_t la = excl_lane(x, a), lb = excl_lane(x, b);
	if (la != lb)
		return la < lb ? -1 : 1;
	if (x->start[a] != x->start[b])
		return x->start[a] < x->start[b] ? -1 : 1;
	if (x->end[a] != x->end[b])
		return x->end[a] > x->end[b] ? -1 : 1;
	if (x->row[a] != x->row[b])
		return x->row[a] < x->row[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* A partial overlap makes the totals undefined: remember that one
 * happened. */
static void excl_overlap(void *ctx, uint32_t call, uint32_t parent)
{
	(void)call;
	(void)parent;
	*(bool *)ctx = true;
}

int sv_write_exclusive_totals(const int64_t *start_ns, const int64_t *end_ns,
	const int64_t *thread_id, const int64_t *task_id,
	const uint32_t *row_of, uint64_t ncalls, int64_t *totals, size_t nrows)
{
	struct excl_ctx x = {start_ns, end_ns, thread_id, task_id, row_of};
	bool overlap = false;
	struct sv_nest nest = {
		start_ns, end_ns, NULL, NULL, NULL, excl_overlap, &overlap};
	uint32_t *order, *stack;
	uint64_t i, lane_start;

	memset(totals, 0, nrows * sizeof *totals);
	if (ncalls == 0)
		return 0;
	if (ncalls >= UINT32_MAX)
		return -EINVAL;
	for (i = 0; i < ncalls; i++)
		if (end_ns[i] < start_ns[i])
			return -EINVAL;
	order = sv_xmalloc(ncalls * sizeof *order);
	stack = sv_xmalloc(ncalls * sizeof *stack);
	nest.parent = sv_xmalloc(ncalls * sizeof *nest.parent);
	for (i = 0; i < ncalls; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, ncalls, sizeof *order, excl_cmp, &x);
	/* Each lane is a run of the order; nest them one by one. */
	for (lane_start = 0, i = 1; i <= ncalls && !overlap; i++)
		if (i == ncalls || excl_lane(&x, order[i - 1]) !=
					   excl_lane(&x, order[i])) {
			sv_nest_lane(&nest, order + lane_start,
				(size_t)(i - lane_start), stack);
			lane_start = i;
		}
	/* A call's whole duration counts for its row and, without partial
	 * overlaps, against its parent's. */
	for (i = 0; i < ncalls && !overlap; i++) {
		int64_t d = end_ns[i] - start_ns[i];
		totals[row_of[i]] += d;
		if (nest.parent[i] != SV_NO_CALL)
			totals[row_of[nest.parent[i]]] -= d;
	}
	free(order);
	free(stack);
	free(nest.parent);
	return overlap ? -EINVAL : 0;
}

/* ------------------------------------------------------------------ */
/* Small HDF5 helpers */

static hid_t write_str_type(size_t fixed_width)
{
	hid_t t = H5Tcopy(H5T_C_S1);
	if (fixed_width) {
		H5Tset_size(t, fixed_width);
		H5Tset_strpad(t, H5T_STR_NULLPAD);
	} else {
		H5Tset_size(t, H5T_VARIABLE);
	}
	H5Tset_cset(t, H5T_CSET_UTF8);
	return t;
}

static hid_t write_summary_type(bool file)
{
	hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct sv_write_summary));
	hid_t i64 = file ? H5T_STD_I64LE : H5T_NATIVE_INT64;
	hid_t u64 = file ? H5T_STD_U64LE : H5T_NATIVE_UINT64;
	hid_t f64 = file ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE;
#define F(name, type) \
	H5Tinsert(t, #name, HOFFSET(struct sv_write_summary, name), type)
	F(total, i64);
	F(minimum, i64);
	F(maximum, i64);
	F(first, i64);
	F(last, i64);
	F(start_minimum, i64);
	F(end_maximum, i64);
	F(gpu_count, u64);
	F(gpu_total, i64);
	F(mean, f64);
	F(m2, f64);
#undef F
	return t;
}

/* How a dataset is stored. */
struct write_layout {
	bool chunked, compressed;
	hsize_t chunk;
};

enum write_kind { KIND_EVENT, KIND_INDEX, KIND_TABLE };

static hsize_t write_chunk_of(enum write_kind kind)
{
	return kind == KIND_INDEX ? SV_WRITE_INDEX_CHUNK : SV_WRITE_EVENT_CHUNK;
}

/* The uncompressed size of everything written, as scope-profiler's
 * staging file would be before publication (approximately). */
static uint64_t write_payload_estimate(const struct sv_writer *w)
{
	uint64_t ncols = 0, bytes;
	int c;
	for (c = 0; c < NCOLS; c++)
		ncols += w->present[c];
	bytes = w->nevents * 8 * ncols;
	bytes += (uint64_t)w->nrows * (4 + 4 + 8 + 8 + 8 + 8 + 88 + 3 * 16);
	bytes += (uint64_t)w->nnames * 16;
	bytes += (uint64_t)w->nthreads * 80 + (uint64_t)w->ntasks * 120;
	bytes += w->string_bytes;
	return bytes + 8192;
}

static bool write_compress_large(const struct sv_writer *w)
{
	return w->opts.storage == SV_WRITE_PUBLISHED &&
	       w->opts.compression == SV_WRITE_COMPRESS_AUTO &&
	       w->nevents >= SV_WRITE_AUTO_COMPRESS_EVENTS;
}

/* The storage of a dataset of n elements of elem_bytes (8 for
 * variable-length strings, as h5py counts them) written at close. */
static struct write_layout write_layout_for(const struct sv_writer *w,
	enum write_kind kind, uint64_t n, size_t elem_bytes)
{
	struct write_layout l = {false, false, write_chunk_of(kind)};
	bool gzip_event = kind == KIND_EVENT &&
			  w->opts.compression == SV_WRITE_COMPRESS_GZIP;

	if (w->opts.storage == SV_WRITE_CHUNKED) {
		l.chunked = true;
		l.compressed = gzip_event;
		return l;
	}
	if (gzip_event) {
		l.chunked = l.compressed = true;
		return l;
	}
	if (write_payload_estimate(w) > SV_WRITE_REPACK_MAX_BYTES) {
		/* Not repacked: whatever has data stays chunked. */
		l.chunked = n > 0;
	} else {
		l.chunked = n * elem_bytes > SV_WRITE_CONTIGUOUS_MAX_BYTES;
	}
	l.compressed = l.chunked && write_compress_large(w);
	return l;
}

static hid_t write_dcpl(const struct write_layout *l)
{
	hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
	H5Pset_obj_track_times(dcpl, 0);
	if (l->chunked) {
		H5Pset_chunk(dcpl, 1, &l->chunk);
		H5Pset_fill_time(dcpl, H5D_FILL_TIME_ALLOC);
		if (l->compressed) {
			H5Pset_shuffle(dcpl);
			H5Pset_deflate(dcpl, 4);
		}
	}
	return dcpl;
}

/* Create a 1-D dataset of n elements with the given layout and write buf
 * (memory type mtype) into it.  Returns the dataset (caller closes) or a
 * negative id. */
static hid_t write_dataset(hid_t loc, const char *name, hid_t ftype,
	hid_t mtype, uint64_t n, const void *buf, const struct write_layout *l)
{
	hsize_t dims = n, maxdims = l->chunked ? H5S_UNLIMITED : n;
	hid_t space, dcpl, ds;

	space = H5Screate_simple(1, &dims, &maxdims);
	dcpl = write_dcpl(l);
	ds = H5Dcreate2(
		loc, name, ftype, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	H5Pclose(dcpl);
	H5Sclose(space);
	if (ds < 0)
		return ds;
	if (n && H5Dwrite(ds, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
		H5Dclose(ds);
		return -1;
	}
	return ds;
}

/* Append n values to a chunked 1-D dataset that holds `have` values. */
static int write_append(
	hid_t ds, hid_t mtype, uint64_t have, uint64_t n, const void *buf)
{
	hsize_t size = have + n, start = have, count = n;
	hid_t fs, ms;
	herr_t rc;

	if (!n)
		return 0;
	if (H5Dset_extent(ds, &size) < 0)
		return -1;
	fs = H5Dget_space(ds);
	if (fs < 0)
		return -1;
	H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &count, NULL);
	ms = H5Screate_simple(1, &count, NULL);
	rc = H5Dwrite(ds, mtype, ms, fs, H5P_DEFAULT, buf);
	H5Sclose(ms);
	H5Sclose(fs);
	return rc < 0 ? -1 : 0;
}

static hid_t write_group(hid_t loc, const char *name, hid_t gcpl)
{
	return H5Gcreate2(loc, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
}

/* A scalar attribute of type ftype from memory mtype. */
static int write_attr(
	hid_t loc, const char *name, hid_t ftype, hid_t mtype, const void *val)
{
	hid_t space = H5Screate(H5S_SCALAR), a;
	herr_t rc;
	a = H5Acreate2(loc, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT);
	H5Sclose(space);
	if (a < 0)
		return -1;
	rc = H5Awrite(a, mtype, val);
	H5Aclose(a);
	return rc < 0 ? -1 : 0;
}

static int write_attr_str(
	hid_t loc, const char *name, hid_t t_str, const char *s)
{
	return write_attr(loc, name, t_str, t_str, &s);
}

static int write_attr_strs(hid_t loc, const char *name, hid_t t_str,
	const char *const *v, size_t n)
{
	hsize_t dims = n;
	hid_t space = H5Screate_simple(1, &dims, NULL), a;
	herr_t rc = 0;
	a = H5Acreate2(loc, name, t_str, space, H5P_DEFAULT, H5P_DEFAULT);
	H5Sclose(space);
	if (a < 0)
		return -1;
	if (n)
		rc = H5Awrite(a, t_str, v);
	H5Aclose(a);
	return rc < 0 ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Open */

/* "<dir>/.<name>.<pid>.<n>.tmp": unique per process and per writer, so
 * writers of one path in several processes or threads never collide. */
static char *write_tmp_name(const char *path)
{
	static unsigned long counter;
	unsigned long n = __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
	const char *slash = strrchr(path, '/');
	if (slash)
		return sv_xasprintf("%.*s/.%s.%ld.%lu.tmp", (int)(slash - path),
			path, slash + 1, (long)getpid(), n);
	return sv_xasprintf(".%s.%ld.%lu.tmp", path, (long)getpid(), n);
}

static void write_free(struct sv_writer *w)
{
	size_t i;
	int c;

	if (!w)
		return;
	for (c = 0; c < NCOLS; c++) {
		if (w->spilled && w->present[c] && w->ds[c] >= 0)
			H5Dclose(w->ds[c]);
		free(w->buf[c]);
	}
	if (w->g_events > 0)
		H5Gclose(w->g_events);
	if (w->g_meta > 0)
		H5Gclose(w->g_meta);
	if (w->file > 0)
		H5Fclose(w->file);
	if (w->fapl > 0)
		H5Pclose(w->fapl);
	if (w->fcpl > 0)
		H5Pclose(w->fcpl);
	if (w->gcpl > 0)
		H5Pclose(w->gcpl);
	if (w->t_str > 0)
		H5Tclose(w->t_str);
	for (i = 0; i < w->nnames; i++)
		free(w->names[i]);
	free(w->names);
	free(w->hash);
	for (i = 0; i < w->nrows; i++) {
		free(w->rows[i].source_file);
		free(w->rows[i].source_text);
		free(w->rows[i].tags);
	}
	free(w->rows);
	for (i = 0; i < w->nthreads; i++)
		free((char *)w->threads[i].t.name);
	free(w->threads);
	for (i = 0; i < w->ntasks; i++) {
		free((char *)w->tasks[i].t.kind);
		free((char *)w->tasks[i].t.name);
		free((char *)w->tasks[i].t.coro_name);
	}
	free(w->tasks);
	free(w->ranks_seen);
	free(w->path);
	free(w->tmp_path);
	free(w);
}

int sv_writer_open(struct sv_writer **out, const char *path,
	const struct sv_writer_opts *opts, struct sv_error *err)
{
	struct sv_writer *w;
	int c;

	if (!out || !path || !*path)
		return sv_error_set(err, -EINVAL, "no output path");
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	w = sv_xcalloc(1, sizeof *w);
	if (opts)
		w->opts = *opts;
	else
		sv_writer_opts_init(&w->opts);
	if (w->opts.schema == 0)
		w->opts.schema = 3;
	if (w->opts.schema < 1 || w->opts.schema > 3) {
		free(w);
		return sv_error_set(err, -EINVAL,
			"cannot write schema %d (only 1, 2 and 3)",
			opts->schema);
	}
	if (w->opts.aggregate && w->opts.schema == 1) {
		free(w);
		return sv_error_set(err, -EINVAL,
			"the aggregate layout needs schema 2 or 3");
	}
	for (c = 0; c < NCOLS; c++)
		w->ds[c] = -1;
	w->file = w->fapl = w->fcpl = w->gcpl = w->g_events = w->g_meta = -1;
	w->path = sv_xstrdup(path);
	w->tmp_path =
		w->opts.in_place ? sv_xstrdup(path) : write_tmp_name(path);
	w->present[COL_A] = w->present[COL_B] = true;
	w->t_str = write_str_type(0);

	w->fapl = H5Pcreate(H5P_FILE_ACCESS);
	H5Pset_libver_bounds(w->fapl, H5F_LIBVER_EARLIEST, H5F_LIBVER_V18);
	w->fcpl = H5Pcreate(H5P_FILE_CREATE);
	H5Pset_obj_track_times(w->fcpl, 0);
	w->gcpl = H5Pcreate(H5P_GROUP_CREATE);
	H5Pset_obj_track_times(w->gcpl, 0);
	w->file = H5Fcreate(w->tmp_path, H5F_ACC_TRUNC, w->fcpl, w->fapl);
	if (w->file < 0) {
		char msg[200] = "";
		H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, write_walk_cb, msg);
		H5Eclear2(H5E_DEFAULT);
		sv_error_set(err, -EIO, "cannot create %s: %s", w->path,
			msg[0] ? msg : "HDF5 error");
		write_free(w);
		return -EIO;
	}
	if (w->opts.schema >= 2) {
		int64_t v = w->opts.schema;
		const char *layout = w->opts.storage_layout
					     ? w->opts.storage_layout
					     : (w->opts.aggregate ? "aggregate"
								  : "columnar");
		if (write_attr(w->file, "scope_profiler_schema", H5T_STD_I64LE,
			    H5T_NATIVE_INT64, &v) < 0 ||
			write_attr_str(w->file, "storage_layout", w->t_str,
				layout) < 0)
			goto fail;
		w->g_events = write_group(w->file, "events", w->gcpl);
		if (w->g_events < 0)
			goto fail;
	}
	w->g_meta = write_group(w->file, "metadata", w->gcpl);
	if (w->g_meta < 0)
		goto fail;
	*out = w;
	return 0;
fail:
	write_h5_fail(w, err, "cannot start the file");
	sv_writer_abort(w);
	return -EIO;
}

/* ------------------------------------------------------------------ */
/* Metadata */

static int write_meta_check(
	struct sv_writer *w, const char *key, struct sv_error *err)
{
	htri_t e;
	if (!w || !key || !*key)
		return sv_error_set(err, -EINVAL, "metadata needs a key");
	if (w->failed)
		return sv_error_set(
			err, -EIO, "%s: writer failed earlier", w->path);
	e = H5Aexists(w->g_meta, key);
	if (e != 0) {
		H5Eclear2(H5E_DEFAULT);
		return sv_error_set(
			err, -EINVAL, "metadata key \"%s\" set twice", key);
	}
	return 0;
}

int sv_writer_meta_int(struct sv_writer *w, const char *key, int64_t value,
	struct sv_error *err)
{
	int rc = write_meta_check(w, key, err);
	if (rc)
		return rc;
	if (write_attr(w->g_meta, key, H5T_STD_I64LE, H5T_NATIVE_INT64,
		    &value) < 0)
		return write_h5_fail(w, err, "/metadata");
	return 0;
}

int sv_writer_meta_float(struct sv_writer *w, const char *key, double value,
	struct sv_error *err)
{
	int rc = write_meta_check(w, key, err);
	if (rc)
		return rc;
	if (write_attr(w->g_meta, key, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
		    &value) < 0)
		return write_h5_fail(w, err, "/metadata");
	return 0;
}

int sv_writer_meta_bool(
	struct sv_writer *w, const char *key, bool value, struct sv_error *err)
{
	int rc = write_meta_check(w, key, err);
	int8_t v = value ? 1 : 0, f = 0, t = 1;
	hid_t e;
	if (rc)
		return rc;
	/* h5py stores numpy bools as this enum. */
	e = H5Tenum_create(H5T_NATIVE_INT8);
	H5Tenum_insert(e, "FALSE", &f);
	H5Tenum_insert(e, "TRUE", &t);
	rc = write_attr(w->g_meta, key, e, e, &v);
	H5Tclose(e);
	if (rc < 0)
		return write_h5_fail(w, err, "/metadata");
	return 0;
}

int sv_writer_meta_str(struct sv_writer *w, const char *key, const char *value,
	struct sv_error *err)
{
	int rc = write_meta_check(w, key, err);
	if (rc)
		return rc;
	if (write_attr_str(w->g_meta, key, w->t_str, value ? value : "") < 0)
		return write_h5_fail(w, err, "/metadata");
	return 0;
}

int sv_writer_meta_strs(struct sv_writer *w, const char *key,
	const char *const *values, size_t n, struct sv_error *err)
{
	int rc = write_meta_check(w, key, err);
	if (rc)
		return rc;
	if (write_attr_strs(w->g_meta, key, w->t_str, values, n) < 0)
		return write_h5_fail(w, err, "/metadata");
	return 0;
}

/* ------------------------------------------------------------------ */
/* Region names and tags */

static uint64_t write_hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static uint32_t write_region_id(struct sv_writer *w, const char *name)
{
	size_t i, mask;
	uint32_t id;

	if (w->nnames * 2 >= w->hash_cap) {
		size_t cap = w->hash_cap ? w->hash_cap * 2 : 64, k;
		free(w->hash);
		w->hash = sv_xmalloc(cap * sizeof *w->hash);
		memset(w->hash, 0xff, cap * sizeof *w->hash);
		w->hash_cap = cap;
		for (k = 0; k < w->nnames; k++) {
			i = write_hash_str(w->names[k]) & (cap - 1);
			while (w->hash[i] != UINT32_MAX)
				i = (i + 1) & (cap - 1);
			w->hash[i] = (uint32_t)k;
		}
	}
	mask = w->hash_cap - 1;
	i = write_hash_str(name) & mask;
	while (w->hash[i] != UINT32_MAX) {
		if (!strcmp(w->names[w->hash[i]], name))
			return w->hash[i];
		i = (i + 1) & mask;
	}
	id = (uint32_t)w->nnames;
	sv_grow((void **)&w->names, &w->names_cap, w->nnames + 1,
		sizeof *w->names);
	w->names[w->nnames++] = sv_xstrdup(name);
	w->string_bytes += strlen(name);
	w->hash[i] = id;
	return id;
}

struct write_sb {
	char *s;
	size_t len, cap;
};

static void write_sb_putn(struct write_sb *b, const char *s, size_t n)
{
	sv_grow((void **)&b->s, &b->cap, b->len + n + 1, 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

static void write_sb_puts(struct write_sb *b, const char *s)
{
	write_sb_putn(b, s, strlen(s));
}

/* Python's json.dumps(list_of_str) with its defaults: ", " separators and
 * every non-ASCII character escaped as \uXXXX (surrogate pairs above
 * U+FFFF). */
static char *write_tags_json(const char *const *tags, size_t n)
{
	struct write_sb b = {0};
	size_t i;

	write_sb_puts(&b, "[");
	for (i = 0; i < n; i++) {
		const char *s = tags[i] ? tags[i] : "";
		size_t len = strlen(s), k = 0;
		char tmp[16];
		if (i)
			write_sb_puts(&b, ", ");
		write_sb_puts(&b, "\"");
		while (k < len) {
			uint32_t cp;
			k += sv_utf8_decode(s + k, len - k, &cp);
			switch (cp) {
			case '"':
				write_sb_puts(&b, "\\\"");
				continue;
			case '\\':
				write_sb_puts(&b, "\\\\");
				continue;
			case '\n':
				write_sb_puts(&b, "\\n");
				continue;
			case '\r':
				write_sb_puts(&b, "\\r");
				continue;
			case '\t':
				write_sb_puts(&b, "\\t");
				continue;
			case '\b':
				write_sb_puts(&b, "\\b");
				continue;
			case '\f':
				write_sb_puts(&b, "\\f");
				continue;
			default:
				break;
			}
			if (cp >= 0x20 && cp < 0x7f) {
				tmp[0] = (char)cp;
				write_sb_putn(&b, tmp, 1);
			} else if (cp < 0x10000) {
				snprintf(tmp, sizeof tmp, "\\u%04x",
					(unsigned)cp);
				write_sb_puts(&b, tmp);
			} else {
				uint32_t v = cp - 0x10000;
				snprintf(tmp, sizeof tmp, "\\u%04x\\u%04x",
					(unsigned)(0xd800 + (v >> 10)),
					(unsigned)(0xdc00 + (v & 0x3ff)));
				write_sb_puts(&b, tmp);
			}
		}
		write_sb_puts(&b, "\"");
	}
	write_sb_puts(&b, "]");
	return b.s;
}

/* ------------------------------------------------------------------ */
/* Event columns */

static int write_col_create(struct sv_writer *w, int c, struct sv_error *err)
{
	struct write_layout l = {true, false, SV_WRITE_EVENT_CHUNK};
	const char *name = (w->opts.schema == 2 ? col_names2 : col_names3)[c];
	if (w->opts.compression == SV_WRITE_COMPRESS_GZIP)
		l.compressed = true;
	else if (w->opts.compression == SV_WRITE_COMPRESS_AUTO &&
		 w->opts.storage == SV_WRITE_PUBLISHED)
		l.compressed = true; /* spilled: >= 16384 events */
	w->ds[c] = write_dataset(w->g_events, name, H5T_STD_I64LE,
		H5T_NATIVE_INT64, 0, NULL, &l);
	if (w->ds[c] < 0)
		return write_h5_fail(w, err, name);
	return 0;
}

static int write_names_cmp(const void *a, const void *b, void *arg)
{
	const char *const *names = arg;
	return strcmp(names[*(const int *)a], names[*(const int *)b]);
}

/* Present event columns in the order of their names (as h5py's copy
 * visits them when scope-profiler publishes a file). */
static int write_col_order(const struct sv_writer *w, int *order)
{
	int c, n = 0;
	for (c = 0; c < NCOLS; c++)
		if (w->present[c])
			order[n++] = c;
	qsort_r(order, (size_t)n, sizeof *order, write_names_cmp,
		(void *)(w->opts.schema == 2 ? col_names2 : col_names3));
	return n;
}

/* Move the buffered events into chunked datasets. */
static int write_spill(struct sv_writer *w, struct sv_error *err)
{
	int order[NCOLS], n, k;

	n = write_col_order(w, order);
	for (k = 0; k < n; k++) {
		int c = order[k];
		int rc = write_col_create(w, c, err);
		if (rc)
			return rc;
		if (write_append(w->ds[c], H5T_NATIVE_INT64, 0, w->nevents,
			    w->buf[c]) < 0)
			return write_h5_fail(w, err, "writing events");
		free(w->buf[c]);
		w->buf[c] = NULL;
		w->buf_cap[c] = 0;
	}
	w->spilled = true;
	return 0;
}

/* Make column c exist, holding its fill value for every earlier event. */
static int write_col_add(struct sv_writer *w, int c, struct sv_error *err)
{
	uint64_t done = 0;
	int rc;

	w->present[c] = true;
	if (!w->spilled) {
		size_t i;
		sv_grow((void **)&w->buf[c], &w->buf_cap[c], w->nevents + 1,
			sizeof(int64_t));
		for (i = 0; i < w->nevents; i++)
			w->buf[c][i] = col_fill[c];
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
			fill[i] = col_fill[c];
		while (done < w->nevents) {
			uint64_t m = w->nevents - done;
			if (m > blk)
				m = blk;
			if (write_append(w->ds[c], H5T_NATIVE_INT64, done, m,
				    fill) < 0) {
				free(fill);
				return write_h5_fail(w, err, "back-filling");
			}
			done += m;
		}
		free(fill);
	}
	return 0;
}

/* Store a block of m events per present column (values[c] m long). */
static int write_events_block(struct sv_writer *w, int64_t *const *values,
	uint64_t m, struct sv_error *err)
{
	int c;
	for (c = 0; c < NCOLS; c++) {
		if (!w->present[c])
			continue;
		if (w->spilled) {
			if (write_append(w->ds[c], H5T_NATIVE_INT64, w->nevents,
				    m, values[c]) < 0)
				return write_h5_fail(w, err, "writing events");
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
	struct write_layout l = {false, false, 0};
	hid_t ds = write_dataset(
		g, name, H5T_STD_I64LE, H5T_NATIVE_INT64, n, v, &l);
	if (ds < 0)
		return -1;
	H5Dclose(ds);
	return 0;
}

static int write_s1_rank(struct sv_writer *w, const struct sv_write_rank *r,
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
	grank = write_group(w->file, gname, w->gcpl);
	if (grank < 0)
		return write_h5_fail(w, err, gname);
	gregions = write_group(grank, "regions", w->gcpl);
	if (gregions < 0) {
		H5Gclose(grank);
		return write_h5_fail(w, err, gname);
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
		hid_t g = write_group(gregions, row->name, w->gcpl);
		int k;
		if (g < 0) {
			rc = write_h5_fail(w, err, row->name);
			break;
		}
		for (k = 0; k < 5 && !rc; k++) {
			uint64_t j;
			if (!cols[k])
				continue;
			for (j = 0; j < count[i]; j++)
				tmp[j] = cols[k][perm[first[i] + j]];
			if (write_s1_dataset(g, names[k], tmp, count[i]) < 0)
				rc = write_h5_fail(w, err, row->name);
		}
		if (!rc && ((row->source_file && *row->source_file) ||
				   row->source_line >= 0)) {
			if (write_attr_str(g, "source_file", w->t_str,
				    row->source_file ? row->source_file : "") <
					0 ||
				write_attr(g, "source_lineno", H5T_STD_I64LE,
					H5T_NATIVE_INT64,
					&row->source_line) < 0)
				rc = write_h5_fail(w, err, row->name);
		}
		if (!rc && row->source_text && *row->source_text &&
			write_attr_str(g, "source_text", w->t_str,
				row->source_text) < 0)
			rc = write_h5_fail(w, err, row->name);
		if (!rc && row->ntags &&
			write_attr_strs(
				g, "tags", w->t_str, row->tags, row->ntags) < 0)
			rc = write_h5_fail(w, err, row->name);
		H5Gclose(g);
	}
	free(tmp);
	H5Gclose(gregions);
	H5Gclose(grank);
	return rc;
}

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
		rc = write_s1_rank(w, r, perm, first, count, err);
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
			rc = write_col_add(w, k, err);
			if (rc)
				goto out;
		}
	}
	if (!w->spilled &&
		(w->nevents + r->ncalls >= SV_WRITE_AUTO_COMPRESS_EVENTS ||
			w->opts.storage == SV_WRITE_CHUNKED)) {
		rc = write_spill(w, err);
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
				blk[COL_A][pos] = r->start_ns[s] - prev;
				blk[COL_B][pos] = r->end_ns[s] - r->start_ns[s];
				prev = r->start_ns[s];
			} else {
				blk[COL_A][pos] = r->start_ns[s];
				blk[COL_B][pos] = r->end_ns[s];
			}
			for (k = COL_GPU; k < NCOLS; k++)
				if (blk[k])
					blk[k][pos] = src[k] ? src[k][s]
							     : col_fill[k];
			if (++pos == WRITE_BLOCK) {
				rc = write_events_block(w, blk, pos, err);
				pos = 0;
				if (rc)
					break;
			}
		}
	}
	if (!rc && pos)
		rc = write_events_block(w, blk, pos, err);
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
		x->region = write_region_id(w, row->name);
		x->rank = r->rank;
		x->offset = base + first[i];
		x->count = count[i];
		x->source_line = row->source_line;
		x->exclusive = excl[i];
		x->source_file =
			sv_xstrdup(row->source_file ? row->source_file : "");
		x->source_text =
			sv_xstrdup(row->source_text ? row->source_text : "");
		x->tags = write_tags_json(row->tags, row->ntags);
		w->string_bytes += strlen(x->source_file) +
				   strlen(x->source_text) + strlen(x->tags);
		write_summary_idx(r->start_ns, r->end_ns, r->gpu_ns,
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

/* ------------------------------------------------------------------ */
/* Close: write what waited in memory */

/* Write a 1-D dataset at close with the layout rules. */
static int write_close_ds(struct sv_writer *w, hid_t g, const char *name,
	hid_t ftype, hid_t mtype, size_t elem_bytes, enum write_kind kind,
	uint64_t n, const void *buf, struct sv_error *err)
{
	struct write_layout l = write_layout_for(w, kind, n, elem_bytes);
	hid_t ds = write_dataset(g, name, ftype, mtype, n, buf, &l);
	if (ds < 0)
		return write_h5_fail(w, err, name);
	H5Dclose(ds);
	return 0;
}

/* A string column: variable-length, or fixed-length UTF-8 as wide as its
 * longest value when opts.fixed_strings. */
static int write_close_strs(struct sv_writer *w, hid_t g, const char *name,
	enum write_kind kind, const char *const *v, size_t n,
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
	t = write_str_type(width);
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

	g = write_group(w->file, "rank_region_index", w->gcpl);
	if (g < 0) {
		rc = write_h5_fail(w, err, "/rank_region_index");
		goto out;
	}
	if (w->opts.aggregate) {
		/* Per-row figures in aggregate_*; the datasets that would be
		 * parallel to the events hold no rows (FORMAT.md 4). */
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
		sum_f = write_summary_type(true);
		sum_m = write_summary_type(false);
		rc = write_close_ds(w, g, "summary_statistics", sum_f, sum_m,
			88, KIND_INDEX, nev, sum, err);
	}
	GATHER(strs, w->rows, n, tags);
	if (!rc)
		rc = write_close_strs(w, g, "tags", KIND_INDEX, strs, nev, err);
	if (rc)
		goto out;

	gt = write_group(w->file, "region_table", w->gcpl);
	if (gt < 0) {
		rc = write_h5_fail(w, err, "/region_table");
		goto out;
	}
	rc = write_close_strs(w, gt, "names", KIND_INDEX,
		(const char *const *)w->names, w->nnames, err);
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
		g = write_group(w->file, "thread_table", w->gcpl);
		if (g < 0) {
			rc = write_h5_fail(w, err, "/thread_table");
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
		g = write_group(w->file, "task_table", w->gcpl);
		if (g < 0) {
			rc = write_h5_fail(w, err, "/task_table");
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
		w->opts.schema == 2 ? col_names2 : col_names3;

	n = write_col_order(w, order);
	for (k = 0; k < n && !rc; k++) {
		int c = order[k];
		rc = write_close_ds(w, w->g_events, names[c], H5T_STD_I64LE,
			H5T_NATIVE_INT64, 8, KIND_EVENT, w->nevents, w->buf[c],
			err);
	}
	return rc;
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
	for (c = 0; c < NCOLS; c++) {
		if (w->spilled && w->present[c] && w->ds[c] >= 0 &&
			H5Dclose(w->ds[c]) < 0 && !rc)
			rc = write_h5_fail(w, err, "closing events");
		w->ds[c] = -1;
	}
	if (w->g_events > 0)
		H5Gclose(w->g_events);
	if (w->g_meta > 0)
		H5Gclose(w->g_meta);
	w->g_events = w->g_meta = -1;
	if (!rc && H5Fclose(w->file) < 0)
		rc = write_h5_fail(w, err, "closing the file");
	w->file = -1;
	if (!rc && !w->opts.in_place && rename(w->tmp_path, w->path) != 0)
		rc = sv_error_set(err, -errno, "cannot write %s: %s", w->path,
			strerror(errno));
	if (rc) {
		sv_writer_abort(w);
		return rc;
	}
	write_free(w);
	return 0;
}

void sv_writer_abort(struct sv_writer *w)
{
	if (!w)
		return;
	if (w->file > 0) {
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
	unlink(w->tmp_path);
	write_free(w);
}
