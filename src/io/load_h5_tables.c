/*
 * load_h5_tables.c: the lane tables /thread_table and /task_table
 * (doc/format.md 9.1) into the profile's thread and task names.
 *
 * A table is optional: one that is absent, short or of the wrong types is
 * dropped with a warning; only a read failure is an error.
 *
 * The tables are read after the layout, and only for the rows a lane can
 * name: a task row when a call of its rank has a task id at least its
 * index, a thread row when a call of its rank has such a thread id or a
 * kept task of the rank runs on such a thread.  So a table costs what
 * the file holds, not what it claims (a 183 KB file can claim ten
 * million rows).  The ranks and index columns are read in slices (whole
 * chunks through the parallel decoder where it suits; else each dataset
 * with a chunk cache that holds one of its chunks, SV_H5_SLICES, so a
 * chunk is inflated once however many slices it spans), the index only
 * of slices with a rank a lane can use.  A row is kept when its rank and
 * index are in range, a lane can name it, and its (rank, index) pair is
 * new: a lane takes the first row that has its pair, so a later one
 * could never show.  The other columns are then read only where kept
 * rows lie, one column at a time, strings element by element.  Memory is
 * the kept rows, a slice and one chunk.  Rows out of range or repeated
 * are counted and told in one warning a table; rows no lane names (a
 * thread that ran no profiled call, a rank not read) are left out
 * without one.
 */
#include "load_h5_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_h5_fast.h"

/* Rows read at once from a column. */
#define TBL_SLICE ((hsize_t)65536)

enum { TBL_INT, TBL_STR };

/* An optional column: its name, kind and value when absent, then the
 * kept rows' values (NULL when the table has no usable such column). */
struct tbl_col {
	const char *name;
	int kind;
	int64_t fill;
	int64_t *i;
	char **s;
};

/* The rows a table keeps, and what was left out. */
struct tbl_kept {
	/* lim[i]: the highest index a lane of rank lrank[i] can name (-1:
	 * none), for the nlim ranks the profile's rows name, ascending (a
	 * map, not an array by rank: a file's rank may be 2^31). */
	uint32_t *lrank;
	int64_t *lim;
	size_t nlim;
	uint64_t unused; /* rows no lane can name */
	/* The kept rows: their (rank, index) pairs in keys (keys.n of
	 * them), their numbers in the file (ascending) in row. */
	struct sv_h5_keys keys;
	hsize_t *row;
	size_t n, cap;
	size_t held, peak; /* bytes of the arrays, now and at most
			      (sv_h5_tables_peak) */
	uint64_t bad_rank, bad_index, repeated;
	int64_t first_bad_rank, first_bad_index;
};

/* The most bytes the last table read held at once (for tests). */
static _Atomic uint64_t tables_peak;

uint64_t sv_h5_tables_peak(void)
{
	return atomic_load(&tables_peak);
}

/* Count bytes the reader now holds (more, or fewer when negative). */
static void tbl_hold(struct tbl_kept *k, ptrdiff_t bytes)
{
	k->held = (size_t)((ptrdiff_t)k->held + bytes);
	if (k->held > k->peak)
		k->peak = k->held;
}

/* Keep row number row of the file with its rank and index, unless that
 * pair was kept already (a lane takes the first row of its pair): false
 * then. */
static bool tbl_keep(
	struct tbl_kept *k, hsize_t row, int64_t rank, int64_t index)
{
	size_t before = k->keys.bytes;

	if (!sv_h5_keys_add(&k->keys, rank, index))
		return false;
	tbl_hold(k, (ptrdiff_t)(k->keys.bytes - before));
	if (k->n == k->cap) {
		size_t was = k->cap;
		k->cap = k->cap ? k->cap * 2 : 64;
		tbl_hold(k, (ptrdiff_t)((k->cap - was) * sizeof *k->row));
		k->row = sv_xreallocarray(k->row, k->cap, sizeof *k->row);
	}
	k->row[k->n++] = row;
	return true;
}

static void tbl_kept_free(struct tbl_kept *k)
{
	free(k->row);
	sv_h5_keys_fini(&k->keys);
	free(k->lrank);
	free(k->lim);
}

/* The limit of rank (see struct tbl_kept), or NULL when no row of the
 * profile is of that rank. */
static int64_t *tbl_lim(const struct tbl_kept *k, int64_t rank)
{
	size_t lo = 0, hi = k->nlim;
	if (rank < 0 || rank > (int64_t)UINT32_MAX)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (k->lrank[mid] < (uint64_t)rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < k->nlim && k->lrank[lo] == (uint64_t)rank ? &k->lim[lo]
							      : NULL;
}

/* Can a lane of this profile name a row of this rank (in range)? */
static bool tbl_usable_rank(const struct tbl_kept *k, int64_t rank)
{
	const int64_t *l = tbl_lim(k, rank);
	return l && *l >= 0;
}

static int tbl_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* k's limits from the ids of the calls of each of p's rows (ids NULL: no
 * call has one). */
static void tbl_limits(
	struct tbl_kept *k, const struct sv_profile *p, const int64_t *ids)
{
	size_t r, n = 0;

	k->lrank = sv_xmalloc((p->nrows ? p->nrows : 1) * sizeof *k->lrank);
	for (r = 0; r < p->nrows; r++)
		k->lrank[r] = p->rows[r].rank;
	if (p->nrows)
		qsort(k->lrank, p->nrows, sizeof *k->lrank, tbl_cmp_u32);
	for (r = 0; r < p->nrows; r++)
		if (!n || k->lrank[n - 1] != k->lrank[r])
			k->lrank[n++] = k->lrank[r];
	k->nlim = n;
	k->lim = sv_xmalloc((n ? n : 1) * sizeof *k->lim);
	tbl_hold(k, (ptrdiff_t)(n * (sizeof *k->lim + sizeof *k->lrank)));
	for (r = 0; r < n; r++)
		k->lim[r] = -1;
	for (r = 0; ids && p->has_calls && r < p->nrows; r++) {
		const struct sv_row *row = &p->rows[r];
		const int64_t *v = ids + row->first;
		int64_t *m = tbl_lim(k, row->rank);
		uint64_t c;
		for (c = 0; c < row->count; c++)
			*m = v[c] > *m ? v[c] : *m;
	}
}

/* Sort the rows of one slice: ranks r and indexes x of rows [off, off +
 * len) into kept and left out (x is read only for a usable rank). */
static void tbl_sort_slice(struct tbl_kept *k, hsize_t off, size_t len,
	const int64_t *r, const int64_t *x)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (r[i] < 0 || r[i] >= (int64_t)UINT32_MAX) {
			if (!k->bad_rank++)
				k->first_bad_rank = r[i];
		} else if (!tbl_usable_rank(k, r[i])) {
			k->unused++;
		} else if (x[i] < 0) {
			if (!k->bad_index++)
				k->first_bad_index = x[i];
		} else if (x[i] > *tbl_lim(k, r[i])) {
			k->unused++;
		} else if (!tbl_keep(k, off + i, r[i], x[i])) {
			k->repeated++;
		}
	}
}

/* Open required column name of table gname for slices (want: its
 * length, or (hsize_t)-1).  0 with c open, 1 when the table is dropped
 * (warned), or a negative errno. */
static int tbl_open_key(struct sv_h5 *h, hid_t g, const char *gname,
	const char *name, hsize_t want, struct sv_h5_col *c)
{
	char obj[256];
	int rc;

	snprintf(obj, sizeof obj, "/%s/%s", gname, name);
	rc = sv_h5_col_open(h, g, name, obj, SV_H5_INT | SV_H5_SLICES, want, c);
	if (rc == SV_H5_ABSENT) {
		sv_profile_warn(h->p, "/%s: no usable %s column; table ignored",
			gname, name);
		return 1;
	}
	return rc;
}

/* The longest chunk sv_h5_slice_rows makes a slice of. */
#define TBL_MAX_CHUNK ((hsize_t)1 << 20)

hsize_t sv_h5_slice_rows(hid_t ds)
{
	hsize_t chunk = sv_h5_chunk_len(ds);

	if (!chunk || chunk > TBL_MAX_CHUNK)
		return TBL_SLICE;
	return (TBL_SLICE + chunk - 1) / chunk * chunk;
}

int sv_h5_read_slice(struct sv_h5 *h, hid_t ds, const char *obj, hid_t mt,
	hsize_t off, hsize_t len, void *buf)
{
	int rc = sv_h5_fast_read(h, ds, mt, off, len, buf, 0.05, 0.05);
	if (rc == SV_H5_FAST_NO)
		rc = sv_h5_read_range(h, ds, obj, mt, off, len, buf);
	return rc;
}

/* The memory type a key column is read in: its own when it is a 4-byte
 * integer (writers store ranks as uint32), which the parallel decoder
 * can then take and HDF5 need not convert; else int64. */
static hid_t tbl_key_memtype(hid_t ds)
{
	hid_t t = H5Dget_type(ds), m = H5T_NATIVE_INT64;

	if (t < 0)
		return m;
	if (H5Tget_class(t) == H5T_INTEGER && H5Tget_size(t) == 4)
		m = H5Tget_sign(t) == H5T_SGN_NONE ? H5T_NATIVE_UINT32
						   : H5T_NATIVE_INT32;
	H5Tclose(t);
	return m;
}

/* Rows [off, off + len) of key column c, read as mt, into buf as int64:
 * through the parallel decoder where it suits, else H5Dread.  4-byte
 * values are read into the front of buf and widened from the back. */
static int tbl_read_key(struct sv_h5 *h, const struct sv_h5_col *c, hid_t mt,
	const char *obj, hsize_t off, hsize_t len, int64_t *buf)
{
	int rc = sv_h5_read_slice(h, c->ds, obj, mt, off, len, buf);
	/* (H5T_NATIVE_* are calls, not constants: not in the loop) */
	bool wide = mt == H5T_NATIVE_INT64, u32 = mt == H5T_NATIVE_UINT32;
	size_t i;

	if (rc || wide)
		return rc;
	for (i = (size_t)len; i-- > 0;) {
		if (u32) {
			uint32_t v;
			memcpy(&v, (const char *)buf + i * 4, 4);
			buf[i] = v;
		} else {
			int32_t v;
			memcpy(&v, (const char *)buf + i * 4, 4);
			buf[i] = v;
		}
	}
	return 0;
}

/* Is any rank of r[0 .. n) one whose rows a lane can name? */
static bool tbl_any_usable(const struct tbl_kept *k, const int64_t *r, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (tbl_usable_rank(k, r[i]))
			return true;
	return false;
}

/* The first pass: the ranks and index columns, slice by slice, into k;
 * the index only of slices with a rank a lane can use (the rest are
 * sorted by their ranks alone).  0, 1 when the table is dropped (warned), or a
 * negative errno; *n is the table's length. */
static int tbl_read_keys(struct sv_h5 *h, hid_t g, const char *gname,
	struct tbl_kept *k, hsize_t *n)
{
	struct sv_h5_col cr, cx;
	char objr[256], objx[256];
	const char *failed = "";
	int64_t *r = NULL, *x = NULL;
	hsize_t off, slice;
	hid_t mr, mx;
	int rc;

	rc = tbl_open_key(h, g, gname, "ranks", (hsize_t)-1, &cr);
	if (rc)
		return rc;
	rc = tbl_open_key(h, g, gname, "index", cr.n, &cx);
	if (rc) {
		sv_h5_col_close(&cr);
		return rc;
	}
	*n = cr.n;
	snprintf(objr, sizeof objr, "/%s/ranks", gname);
	snprintf(objx, sizeof objx, "/%s/index", gname);
	mr = tbl_key_memtype(cr.ds);
	mx = tbl_key_memtype(cx.ds);
	slice = sv_h5_slice_rows(cr.ds);
	if (sv_h5_slice_rows(cx.ds) > slice)
		slice = sv_h5_slice_rows(cx.ds);
	if (*n) {
		size_t s = (size_t)(*n < slice ? *n : slice);
		r = sv_xmalloc(s * sizeof *r);
		x = sv_xmalloc(s * sizeof *x);
		tbl_hold(k, (ptrdiff_t)(2 * s * sizeof *r));
	}
	for (off = 0; off < *n && !rc; off += slice) {
		hsize_t len = *n - off < slice ? *n - off : slice;
		failed = "ranks";
		rc = tbl_read_key(h, &cr, mr, objr, off, len, r);
		if (!rc && tbl_any_usable(k, r, (size_t)len)) {
			failed = "index";
			rc = tbl_read_key(h, &cx, mx, objx, off, len, x);
		}
		if (!rc)
			tbl_sort_slice(k, off, (size_t)len, r, x);
	}
	/* A chunk of a key column refused (load_h5_chunks.h): the column
	 * is unusable, and so the table. */
	if (rc && sv_h5_read_optional(h, rc, failed[0] == 'r' ? objr : objx)) {
		sv_profile_warn(h->p, "/%s: no usable %s column; table ignored",
			gname, failed);
		rc = 1;
	}
	if (r)
		tbl_hold(k, -(ptrdiff_t)(2 * (size_t)(*n < slice ? *n : slice) *
					 sizeof *r));
	free(r);
	free(x);
	sv_h5_col_close(&cr);
	sv_h5_col_close(&cx);
	return rc;
}

/* The second pass for one optional column: the kept rows' values into
 * c->i or c->s (left NULL when the column is absent or unusable, which
 * sv_h5_col_open warns about).  Integers are read a window of at most
 * TBL_SLICE rows at a time where kept rows lie; strings row by row.
 * Returns 0 or a negative errno. */
static int tbl_read_col(struct sv_h5 *h, hid_t g, const char *gname, hsize_t n,
	struct tbl_kept *k, struct tbl_col *c)
{
	char obj[256];
	struct sv_h5_col col;
	int64_t *buf = NULL;
	size_t j, e;
	int rc;

	snprintf(obj, sizeof obj, "/%s/%s", gname, c->name);
	rc = sv_h5_col_open(h, g, c->name, obj,
		(c->kind == TBL_STR ? SV_H5_STRING : SV_H5_INT) | SV_H5_SLICES,
		n, &col);
	if (rc)
		return rc < 0 ? rc : 0;
	if (c->kind == TBL_STR) {
		c->s = sv_xcalloc(k->n ? k->n : 1, sizeof *c->s);
		tbl_hold(k, (ptrdiff_t)(k->n * sizeof *c->s));
		for (j = 0; j < k->n && !rc; j += (size_t)TBL_SLICE) {
			size_t m = k->n - j < TBL_SLICE ? k->n - j
							: (size_t)TBL_SLICE;
			rc = sv_h5_read_strings_at(
				h, col.ds, obj, &k->row[j], m, &c->s[j]);
		}
	} else {
		c->i = sv_xcalloc(k->n ? k->n : 1, sizeof *c->i);
		tbl_hold(k, (ptrdiff_t)(k->n * sizeof *c->i));
		if (k->n)
			buf = sv_xmalloc((size_t)TBL_SLICE * sizeof *buf);
		tbl_hold(k, (ptrdiff_t)((size_t)TBL_SLICE * sizeof *buf));
		for (j = 0; j < k->n && !rc; j = e) {
			hsize_t lo = k->row[j];
			for (e = j; e < k->n && k->row[e] - lo < TBL_SLICE; e++)
				;
			rc = sv_h5_read_range(h, col.ds, obj, H5T_NATIVE_INT64,
				lo, k->row[e - 1] - lo + 1, buf);
			for (; !rc && j < e; j++)
				c->i[j] = buf[k->row[j] - lo];
		}
		free(buf);
		tbl_hold(k, -(ptrdiff_t)((size_t)TBL_SLICE * sizeof *buf));
	}
	sv_h5_col_close(&col);
	if (sv_h5_read_optional(h, rc, obj)) {
		/* A chunk refused (load_h5_chunks.h): as if absent. */
		tbl_hold(k, -(ptrdiff_t)(k->n *
					 (c->i ? sizeof *c->i : sizeof *c->s)));
		free(c->i);
		sv_strv_free_array(c->s, c->s ? k->n : 0);
		c->i = NULL;
		c->s = NULL;
		rc = 0;
	}
	return rc;
}

static void tbl_cols_free(struct tbl_col *cols, size_t ncols, size_t n)
{
	size_t k;
	for (k = 0; k < ncols; k++) {
		free(cols[k].i);
		sv_strv_free_array(cols[k].s, cols[k].s ? n : 0);
		cols[k].i = NULL;
		cols[k].s = NULL;
	}
}

/* One warning for the rows of a table of n rows that k left out. */
static void tbl_warn(
	struct sv_h5 *h, const char *gname, hsize_t n, const struct tbl_kept *k)
{
	char why[400] = "";
	size_t at = 0;
	uint64_t out = k->bad_rank + k->bad_index + k->repeated;

	if (!out)
		return;
	if (k->bad_rank)
		at += (size_t)snprintf(why + at, sizeof why - at,
			"%s%" PRIu64 " with a rank out of range (the first: "
			"%" PRId64 ")",
			at ? ", " : "", k->bad_rank, k->first_bad_rank);
	if (k->bad_index && at < sizeof why)
		at += (size_t)snprintf(why + at, sizeof why - at,
			"%s%" PRIu64 " with a negative index (the first: "
			"%" PRId64 ")",
			at ? ", " : "", k->bad_index, k->first_bad_index);
	if (k->repeated && at < sizeof why)
		snprintf(why + at, sizeof why - at,
			"%s%" PRIu64 " repeating a rank and index of an "
			"earlier row",
			at ? ", " : "", k->repeated);
	sv_profile_warn(h->p, "/%s: %" PRIu64 " of %llu rows ignored: %s",
		gname, out, (unsigned long long)n, why);
}

/* Read table gname: the kept rows into k, the optional columns' values
 * of those rows into cols.  Returns 0 (an absent or dropped table keeps
 * no row) or a negative errno (a read failure). */
static int tbl_read(struct sv_h5 *h, const char *gname, struct tbl_kept *k,
	struct tbl_col *cols, size_t ncols)
{
	hsize_t n = 0;
	hid_t g;
	size_t c;
	int rc;

	if (!sv_h5_exists(h->file, gname))
		return 0;
	g = H5Oopen(h->file, gname, H5P_DEFAULT);
	if (g < 0 || H5Iget_type(g) != H5I_GROUP) {
		if (g >= 0)
			H5Oclose(g);
		sv_profile_warn(h->p, "/%s: not a group; ignored", gname);
		return 0;
	}
	rc = tbl_read_keys(h, g, gname, k, &n);
	if (rc == 1) {
		H5Oclose(g);
		k->n = 0;
		return 0;
	}
	for (c = 0; c < ncols && !rc && k->n; c++)
		rc = tbl_read_col(h, g, gname, n, k, &cols[c]);
	H5Oclose(g);
	if (!rc)
		tbl_warn(h, gname, n, k);
	return rc;
}

static int64_t tbl_i(const struct tbl_col *c, size_t r)
{
	return c->i ? c->i[r] : c->fill;
}

/* The kept row r's string, taken from the column (NULL: none, or
 * empty). */
static char *tbl_s(const struct tbl_col *c, size_t r)
{
	char *s;

	if (!c->s)
		return NULL;
	s = c->s[r];
	c->s[r] = NULL;
	if (s && !*s) {
		free(s);
		s = NULL;
	}
	return s;
}

static int tables_threads(struct sv_h5 *h)
{
	struct tbl_col th[] = {
		{"ident", TBL_INT, -1, NULL, NULL},
		{"native_id", TBL_INT, -1, NULL, NULL},
		{"daemon", TBL_INT, 0, NULL, NULL},
		{"name", TBL_STR, 0, NULL, NULL},
		{"start_ns", TBL_INT, -1, NULL, NULL},
		{"end_ns", TBL_INT, -1, NULL, NULL},
		{"cpu_ns", TBL_INT, -1, NULL, NULL},
	};
	const size_t nth = sizeof th / sizeof th[0];
	struct tbl_kept k;
	size_t r;
	int rc;

	memset(&k, 0, sizeof k);
	tbl_limits(&k, h->p, h->p->thread_id);
	/* Without thread ids every call of a rank is on its thread 0. */
	for (r = 0; !h->p->thread_id && r < k.nlim; r++)
		if (k.lim[r] < 0)
			k.lim[r] = 0;
	/* A task lane names its task's thread. */
	for (r = 0; r < h->p->ntasks; r++) {
		const struct sv_task *t = &h->p->tasks[r];
		int64_t *l = tbl_lim(&k, t->rank);
		if (l && t->thread_index > *l)
			*l = t->thread_index;
	}
	rc = tbl_read(h, "thread_table", &k, th, nth);
	for (r = 0; r < k.n && !rc; r++) {
		struct sv_thread *t = sv_profile_add_thread(h->p);
		int64_t d = tbl_i(&th[2], r);
		t->rank = (uint32_t)k.keys.a[r];
		t->index = k.keys.b[r];
		t->ident = tbl_i(&th[0], r);
		t->native_id = tbl_i(&th[1], r);
		t->daemon = (int8_t)(d < INT8_MIN   ? INT8_MIN
				     : d > INT8_MAX ? INT8_MAX
						    : d);
		t->name = tbl_s(&th[3], r);
		t->start_ns = tbl_i(&th[4], r);
		t->end_ns = tbl_i(&th[5], r);
		t->cpu_ns = tbl_i(&th[6], r);
	}
	tbl_cols_free(th, nth, k.n);
	tbl_kept_free(&k);
	if (k.peak > atomic_load(&tables_peak))
		atomic_store(&tables_peak, k.peak);
	return rc;
}

static int tables_tasks(struct sv_h5 *h)
{
	struct tbl_col tk[] = {
		{"thread_index", TBL_INT, -1, NULL, NULL},
		{"kind", TBL_STR, 0, NULL, NULL},
		{"name", TBL_STR, 0, NULL, NULL},
		{"coro_name", TBL_STR, 0, NULL, NULL},
		{"created_ns", TBL_INT, -1, NULL, NULL},
		{"done_ns", TBL_INT, -1, NULL, NULL},
		{"steps", TBL_INT, 0, NULL, NULL},
		{"running_ns", TBL_INT, 0, NULL, NULL},
		{"suspended_ns", TBL_INT, 0, NULL, NULL},
	};
	const size_t ntk = sizeof tk / sizeof tk[0];
	struct tbl_kept k;
	size_t r;
	int rc;

	memset(&k, 0, sizeof k);
	tbl_limits(&k, h->p, h->p->task_id);
	rc = tbl_read(h, "task_table", &k, tk, ntk);
	for (r = 0; r < k.n && !rc; r++) {
		struct sv_task *t = sv_profile_add_task(h->p);
		t->rank = (uint32_t)k.keys.a[r];
		t->index = k.keys.b[r];
		t->thread_index = tbl_i(&tk[0], r);
		t->kind = tbl_s(&tk[1], r);
		t->name = tbl_s(&tk[2], r);
		t->coro_name = tbl_s(&tk[3], r);
		t->created_ns = tbl_i(&tk[4], r);
		t->done_ns = tbl_i(&tk[5], r);
		t->steps = tbl_i(&tk[6], r);
		t->running_ns = tbl_i(&tk[7], r);
		t->suspended_ns = tbl_i(&tk[8], r);
	}
	tbl_cols_free(tk, ntk, k.n);
	tbl_kept_free(&k);
	atomic_store(&tables_peak, k.peak);
	return rc;
}

int sv_h5_tables_load(struct sv_h5 *h)
{
	int rc = tables_tasks(h);
	return rc ? rc : tables_threads(h);
}
