/*
 * write_h5_util.c: the writer's small HDF5 helpers: failing with the
 * innermost HDF5 message, the string and summary types, how a dataset is
 * stored (contiguous, chunked, compressed: scope-profiler's publish
 * rules), and creating datasets, groups and attributes deterministically.
 */
#include "write_h5_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Errors */

herr_t sv_write_walk_cb(unsigned n, const H5E_error2_t *e, void *data)
{
	char *out = data;
	(void)n;
	if (!out[0] && e->desc && e->desc[0])
		snprintf(out, 200, "%s", e->desc);
	return 0;
}

/* The system's errno of a failed read or write on HDF5's error stack:
 * its file drivers say "..., errno = 28, error message = ...". */
static herr_t write_errno_cb(unsigned n, const H5E_error2_t *e, void *data)
{
	int *sys = data;
	const char *at = e->desc ? strstr(e->desc, "errno = ") : NULL;
	(void)n;
	if (!*sys && at)
		*sys = atoi(at + 8);
	return 0;
}

/* Fill err with "<path>: <what>: <innermost HDF5 message>", or, when the
 * system refused a write (a full disk, a file size limit), with "cannot
 * write <path>: <the system's reason> (<what>)" and that errno. */
int sv_write_fail(struct sv_writer *w, struct sv_error *err, const char *what)
{
	char msg[200] = "";
	int sys = 0;
	H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, sv_write_walk_cb, msg);
	H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, write_errno_cb, &sys);
	H5Eclear2(H5E_DEFAULT);
	w->failed = true;
	if (sys > 0 && sys < 4096)
		return sv_error_set(err, -sys, "cannot write %s: %s (%s)",
			w->path, strerror(sys), what);
	return sv_error_set(err, -EIO, "%s: %s: %s", w->path, what,
		msg[0] ? msg : "HDF5 error");
}

/* ------------------------------------------------------------------ */
/* Small HDF5 helpers */

hid_t sv_write_str_type(size_t fixed_width)
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

hid_t sv_write_summary_type(bool file)
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

hsize_t sv_write_event_chunk(const struct sv_writer *w)
{
	uint32_t n = w->opts.event_chunk;
	return n ? (n > SV_WRITE_EVENT_CHUNK_MAX ? SV_WRITE_EVENT_CHUNK_MAX : n)
		 : SV_WRITE_EVENT_CHUNK;
}

static hsize_t write_chunk_of(
	const struct sv_writer *w, enum sv_write_kind kind)
{
	return kind == KIND_INDEX ? SV_WRITE_INDEX_CHUNK
				  : sv_write_event_chunk(w);
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
	bytes += (uint64_t)w->names.n * 16;
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
struct sv_write_layout sv_write_layout_for(const struct sv_writer *w,
	enum sv_write_kind kind, uint64_t n, size_t elem_bytes)
{
	struct sv_write_layout l = {false, false, write_chunk_of(w, kind)};
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

static hid_t write_dcpl(const struct sv_write_layout *l)
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
hid_t sv_write_dataset(hid_t loc, const char *name, hid_t ftype, hid_t mtype,
	uint64_t n, const void *buf, const struct sv_write_layout *l)
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
int sv_write_append(
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
	if (rc < 0) {
		/* The closes would clear the error stack, whose errno
		 * sv_write_fail reports (a full disk). */
		hid_t stack = H5Eget_current_stack();
		H5Sclose(ms);
		H5Sclose(fs);
		if (stack >= 0)
			H5Eset_current_stack(stack);
		return -1;
	}
	H5Sclose(ms);
	H5Sclose(fs);
	return 0;
}

hid_t sv_write_group(hid_t loc, const char *name, hid_t gcpl)
{
	return H5Gcreate2(loc, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
}

/* A scalar attribute of type ftype from memory mtype. */
int sv_write_attr(
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

int sv_write_attr_str(hid_t loc, const char *name, hid_t t_str, const char *s)
{
	return sv_write_attr(loc, name, t_str, t_str, &s);
}

int sv_write_attr_strs(hid_t loc, const char *name, hid_t t_str,
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
