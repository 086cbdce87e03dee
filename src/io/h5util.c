/*
 * h5util.c: the loader's HDF5 helpers (h5util.h): errors that name the
 * file and object, progress and cancellation, validated 1-D datasets and
 * their filters, string datasets, attributes, groups.
 *
 * This is the leaf of the loader: it knows nothing of the layouts that
 * use it.  It never prints (the caller switched HDF5's printing off) and
 * checks every size the file claims before using it.
 */
#include "h5util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_h5_guard.h"
#include "load_priv.h"
#include "load_h5_vlen.h"

/* ------------------------------------------------------------------ */
/* Errors, progress                                                    */

int sv_h5_fail(struct sv_h5 *h, int code, const char *obj, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (obj)
		return sv_error_set(
			h->err, code, "%s: %s: %s", h->path, obj, what);
	return sv_error_set(h->err, code, "%s: %s", h->path, what);
}

static _Thread_local char last_error[256];

/* H5Ewalk2 walks from the most specific error upward: keep the first. */
static herr_t last_error_walk(
	unsigned n, const H5E_error2_t *e, void *client_data)
{
	(void)client_data;
	if (n == 0 && e->desc && *e->desc)
		snprintf(last_error, sizeof last_error, " (HDF5: %s)", e->desc);
	return 0;
}

const char *sv_h5_last_error(void)
{
	last_error[0] = '\0';
	H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, last_error_walk, NULL);
	return last_error;
}

char *sv_h5_show(const char *s)
{
	return sv_load_show(s, strlen(s));
}

int sv_h5_step(struct sv_h5 *h, double fraction, const char *what)
{
	const struct sv_load_opts *o = h->opts;

	/* The viewer may have put its own fault handler over ours since
	 * the load began. */
	sv_h5_guard_install();
	if (!o)
		return 0;
	if (o->progress)
		o->progress(o->ctx, fraction, what);
	if (o->cancelled && o->cancelled(o->ctx))
		return sv_h5_fail(h, -ECANCELED, NULL, "loading cancelled");
	return 0;
}

/* ------------------------------------------------------------------ */
/* Datasets                                                            */

bool sv_h5_exists(hid_t loc, const char *name)
{
	return H5Lexists(loc, name, H5P_DEFAULT) > 0 &&
	       H5Oexists_by_name(loc, name, H5P_DEFAULT) > 0;
}

/* Well-known filter names (HDF5's registered filter list). */
static const char *filter_name(H5Z_filter_t id, const char *stored)
{
	static const struct {
		H5Z_filter_t id;
		const char *name;
	} known[] = {
		{1, "deflate (gzip)"},
		{2, "shuffle"},
		{3, "Fletcher32 checksum"},
		{4, "SZIP"},
		{5, "N-bit"},
		{6, "scale-offset"},
		{305, "LZO"},
		{307, "BZIP2"},
		{32000, "LZF"},
		{32001, "Blosc"},
		{32004, "LZ4"},
		{32008, "bitshuffle"},
		{32013, "ZFP"},
		{32015, "Zstandard (zstd)"},
		{32017, "SZ"},
		{32026, "Blosc2"},
	};
	size_t i;

	for (i = 0; i < sizeof known / sizeof known[0]; i++)
		if (known[i].id == id)
			return known[i].name;
	return stored && *stored ? stored : "unknown";
}

const char *sv_h5_filter_name(H5Z_filter_t id, const char *stored)
{
	return filter_name(id, stored);
}

static int col_check_filters(struct sv_h5 *h, hid_t ds, const char *objpath)
{
	hid_t dcpl = H5Dget_create_plist(ds);
	int i, nf, rc = 0;

	if (dcpl < 0)
		return sv_h5_fail(h, -EIO, objpath,
			"cannot read its storage properties%s",
			sv_h5_last_error());
	nf = H5Pget_nfilters(dcpl);
	for (i = 0; i < nf && rc == 0; i++) {
		unsigned flags = 0, cd[16];
		size_t ncd = 16;
		char name[128] = "";
		H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags,
			&ncd, cd, sizeof name, name, NULL);
		if (id < 0)
			continue;
		if (H5Zfilter_avail(id) <= 0)
			rc = sv_h5_fail(h, -ENOTSUP, objpath,
				"compressed with the %s filter (HDF5 filter "
				"%d), which this HDF5 library cannot decode; "
				"install the filter plugin and point "
				"HDF5_PLUGIN_PATH at it",
				filter_name(id, name), (int)id);
	}
	H5Pclose(dcpl);
	return rc;
}

const char *sv_h5_class_name(H5T_class_t c)
{
	switch (c) {
	case H5T_INTEGER:
		return "an integer";
	case H5T_FLOAT:
		return "a float";
	case H5T_STRING:
		return "a string";
	case H5T_COMPOUND:
		return "a compound";
	case H5T_ENUM:
		return "an enum (bool)";
	case H5T_ARRAY:
		return "an array";
	case H5T_VLEN:
		return "a variable-length sequence";
	case H5T_OPAQUE:
		return "an opaque";
	case H5T_BITFIELD:
		return "a bitfield";
	case H5T_REFERENCE:
		return "a reference";
	case H5T_TIME:
		return "a time";
	default:
		return "an unknown";
	}
}

/* Report a problem with a column: an error if required, else a warning. */
static int col_problem(struct sv_h5 *h, unsigned flags, const char *objpath,
	const char *fmt, ...) SV_PRINTF(4, 5);
static int col_problem(struct sv_h5 *h, unsigned flags, const char *objpath,
	const char *fmt, ...)
{
	char what[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (flags & SV_H5_REQUIRED)
		return sv_h5_fail(h, -EINVAL, objpath, "%s", what);
	sv_profile_warn(h->p, "%s: %s; ignored", objpath, what);
	return SV_H5_ABSENT;
}

/* libhdf5 inflates a whole chunk to read any value of it: a chunk far
 * larger than the dataset (a damaged or hostile header) would make a
 * three-value column cost a gigabyte.  Writers pick chunks of at most a
 * few MiB (scope-profiler 1024 elements, h5py at most 1 MiB). */
#define COL_MAX_SPARE_CHUNK ((uint64_t)16 << 20)

static int col_check_chunk(struct sv_h5 *h, hid_t ds, const char *objpath,
	unsigned flags, hsize_t n)
{
	hid_t dcpl = H5Dget_create_plist(ds), t;
	hsize_t chunk = 0;
	uint64_t esize, bytes;
	bool chunked;

	if (dcpl < 0)
		return 0;
	chunked = H5Pget_layout(dcpl) == H5D_CHUNKED &&
		  H5Pget_chunk(dcpl, 1, &chunk) == 1;
	H5Pclose(dcpl);
	if (!chunked || chunk <= n)
		return 0;
	t = H5Dget_type(ds);
	esize = t >= 0 ? H5Tget_size(t) : 1;
	if (t >= 0)
		H5Tclose(t);
	if (esize < 1)
		esize = 1;
	bytes = chunk > UINT64_MAX / esize ? UINT64_MAX : chunk * esize;
	if (bytes <= COL_MAX_SPARE_CHUNK)
		return 0;
	return col_problem(h, flags, objpath,
		"is stored in chunks of %llu values (%llu MiB each) for its "
		"%llu values: the header is damaged, and reading it would "
		"inflate that much",
		(unsigned long long)chunk, (unsigned long long)(bytes >> 20),
		(unsigned long long)n);
}

int sv_h5_col_open(struct sv_h5 *h, hid_t loc, const char *name,
	const char *objpath, unsigned flags, hsize_t want_n,
	struct sv_h5_col *c)
{
	hid_t obj, type, space;
	H5T_class_t cls;
	int ndims, rc;
	hsize_t dims[H5S_MAX_RANK];

	c->ds = H5I_INVALID_HID;
	c->n = 0;
	c->is_float = false;
	sv_h5_at(objpath);
	if (!sv_h5_exists(loc, name)) {
		if (flags & SV_H5_REQUIRED)
			return sv_h5_fail(h, -EINVAL, objpath,
				"required dataset is missing");
		return SV_H5_ABSENT;
	}
	obj = H5Oopen(loc, name, H5P_DEFAULT);
	if (obj < 0)
		return sv_h5_fail(
			h, -EIO, objpath, "cannot open%s", sv_h5_last_error());
	if (H5Iget_type(obj) != H5I_DATASET) {
		H5Oclose(obj);
		return col_problem(h, flags, objpath,
			"is a group, but a dataset was expected");
	}
	type = H5Dget_type(obj);
	cls = type < 0 ? H5T_NO_CLASS : H5Tget_class(type);
	if (type >= 0)
		H5Tclose(type);
	rc = 0;
	if ((flags & SV_H5_INT) && cls != H5T_INTEGER)
		rc = col_problem(h, flags, objpath,
			"has %s type, but integers were expected",
			sv_h5_class_name(cls));
	else if ((flags & SV_H5_NUMBER) && cls != H5T_INTEGER &&
		 cls != H5T_FLOAT)
		rc = col_problem(h, flags, objpath,
			"has %s type, but numbers were expected",
			sv_h5_class_name(cls));
	else if ((flags & SV_H5_STRING) && cls != H5T_STRING)
		rc = col_problem(h, flags, objpath,
			"has %s type, but strings were expected",
			sv_h5_class_name(cls));
	if (rc) {
		H5Dclose(obj);
		return rc;
	}
	space = H5Dget_space(obj);
	ndims = space < 0 ? -1 : H5Sget_simple_extent_ndims(space);
	if (ndims == 1)
		H5Sget_simple_extent_dims(space, dims, NULL);
	if (space >= 0)
		H5Sclose(space);
	if (ndims != 1) {
		H5Dclose(obj);
		return col_problem(h, flags, objpath,
			"must be one-dimensional, but has %d dimensions",
			ndims < 0 ? 0 : ndims);
	}
	if (want_n != (hsize_t)-1 && dims[0] != want_n) {
		H5Dclose(obj);
		return col_problem(h, flags, objpath,
			"holds %llu values, but %llu were expected",
			(unsigned long long)dims[0],
			(unsigned long long)want_n);
	}
	/* A damaged header can claim any shape: no dataset holds more than
	 * deflate's best ratio (about 1:1032) lets the file's bytes expand
	 * to. */
	{
		hid_t t = H5Dget_type(obj);
		size_t esize = t >= 0 ? H5Tget_size(t) : 1;
		uint64_t limit = h->file_bytes * 1100 + ((uint64_t)1 << 20);
		if (t < 0 || H5Tis_variable_str(t) > 0 || esize < 1)
			esize = 1;
		if (t >= 0)
			H5Tclose(t);
		if (dims[0] > limit / esize) {
			H5Dclose(obj);
			return sv_h5_fail(h, -EINVAL, objpath,
				"claims %llu values, more than a file of %llu "
				"bytes can hold; the file is damaged",
				(unsigned long long)dims[0],
				(unsigned long long)h->file_bytes);
		}
	}
	rc = col_check_filters(h, obj, objpath);
	if (!rc)
		rc = col_check_chunk(h, obj, objpath, flags, dims[0]);
	if (rc) {
		H5Dclose(obj);
		return rc;
	}
	c->ds = obj;
	c->n = dims[0];
	c->is_float = cls == H5T_FLOAT;
	return 0;
}

void sv_h5_col_close(struct sv_h5_col *c)
{
	if (c->ds >= 0)
		H5Dclose(c->ds);
	c->ds = H5I_INVALID_HID;
}

int sv_h5_read_ranges(struct sv_h5 *h, hid_t ds, const char *objpath,
	hid_t memtype, const hsize_t *off, const hsize_t *n, size_t nranges,
	void *buf)
{
	hid_t fspace, mspace;
	hsize_t total = 0;
	herr_t st = 0;
	size_t i;

	sv_h5_at(objpath);
	fspace = H5Dget_space(ds);
	if (fspace < 0)
		return sv_h5_fail(
			h, -EIO, objpath, "cannot read%s", sv_h5_last_error());
	if (H5Sselect_none(fspace) < 0)
		st = -1;
	for (i = 0; i < nranges && st >= 0; i++) {
		if (n[i] == 0)
			continue;
		st = H5Sselect_hyperslab(
			fspace, H5S_SELECT_OR, &off[i], NULL, &n[i], NULL);
		total += n[i];
	}
	if (st < 0) {
		H5Sclose(fspace);
		return sv_h5_fail(h, -EIO, objpath, "cannot select%s",
			sv_h5_last_error());
	}
	if (total == 0) {
		H5Sclose(fspace);
		return 0;
	}
	mspace = H5Screate_simple(1, &total, NULL);
	st = H5Dread(ds, memtype, mspace, fspace, H5P_DEFAULT, buf);
	if (st < 0)
		sv_h5_fail(h, -EIO, objpath,
			"cannot read: the file is truncated or damaged%s",
			sv_h5_last_error());
	H5Sclose(mspace);
	H5Sclose(fspace);
	return st < 0 ? -EIO : 0;
}

int sv_h5_read_range(struct sv_h5 *h, hid_t ds, const char *objpath,
	hid_t memtype, hsize_t off, hsize_t n, void *buf)
{
	return sv_h5_read_ranges(h, ds, objpath, memtype, &off, &n, 1, buf);
}

/* A memory string type matching a file string type: variable length stays
 * variable, fixed length keeps its size. */
static hid_t string_memtype(hid_t ftype, bool *is_vlen, size_t *size)
{
	hid_t m = H5Tcopy(H5T_C_S1);

	*is_vlen = H5Tis_variable_str(ftype) > 0;
	*size = *is_vlen ? sizeof(char *) : H5Tget_size(ftype);
	if (*is_vlen)
		H5Tset_size(m, H5T_VARIABLE);
	else
		H5Tset_size(m, *size ? *size : 1);
	H5Tset_cset(m, H5Tget_cset(ftype) == H5T_CSET_UTF8 ? H5T_CSET_UTF8
							   : H5T_CSET_ASCII);
	H5Tset_strpad(m, H5Tget_strpad(ftype));
	return m;
}

/* Sanitised copy of a fixed-length string field (up to its first NUL;
 * trailing space padding removed for space-padded types). */
static char *fixed_string(const char *s, size_t size, bool spacepad)
{
	size_t n = 0;
	while (n < size && s[n])
		n++;
	if (spacepad)
		while (n > 0 && s[n - 1] == ' ')
			n--;
	return sv_utf8_sanitize(s, n);
}

/* Decode n strings from a buffer read with string_memtype. */
static char **strings_decode(
	const char *buf, size_t n, bool is_vlen, size_t size, bool spacepad)
{
	char **out = sv_xcalloc(n ? n : 1, sizeof *out);
	size_t i;

	for (i = 0; i < n; i++) {
		if (is_vlen) {
			const char *s = ((char *const *)(const void *)buf)[i];
			out[i] = s ? sv_utf8_sanitize(s, strlen(s))
				   : sv_xstrdup("");
		} else {
			out[i] = fixed_string(buf + i * size, size, spacepad);
		}
	}
	return out;
}

int sv_h5_read_strings(
	struct sv_h5 *h, hid_t ds, const char *objpath, hsize_t n, char ***out)
{
	hid_t ftype, mtype, space;
	bool is_vlen, spacepad;
	size_t size;
	char *buf;
	herr_t st;

	sv_h5_at(objpath);
	ftype = H5Dget_type(ds);
	if (ftype < 0)
		return sv_h5_fail(h, -EIO, objpath, "cannot read its type");
	mtype = string_memtype(ftype, &is_vlen, &size);
	spacepad = H5Tget_strpad(ftype) == H5T_STR_SPACEPAD;
	H5Tclose(ftype);
	if (n > SIZE_MAX / (size ? size : 1)) {
		H5Tclose(mtype);
		return sv_h5_fail(h, -EINVAL, objpath, "is too large");
	}
	if (is_vlen && n) {
		char why[200];
		if (sv_h5_vlen_check(ds, 0, why, sizeof why)) {
			H5Tclose(mtype);
			return sv_h5_fail(h, -EIO, objpath,
				"damaged: %s (the file is corrupt)", why);
		}
	}
	buf = sv_xcalloc(n ? (size_t)n : 1, size ? size : 1);
	st = n ? H5Dread(ds, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) : 0;
	if (st < 0) {
		sv_h5_fail(h, -EIO, objpath,
			"cannot read: the file is truncated or damaged%s",
			sv_h5_last_error());
		free(buf);
		H5Tclose(mtype);
		return -EIO;
	}
	*out = strings_decode(buf, (size_t)n, is_vlen, size, spacepad);
	if (is_vlen && n) {
		space = H5Dget_space(ds);
		H5Dvlen_reclaim(mtype, space, H5P_DEFAULT, buf);
		H5Sclose(space);
	}
	free(buf);
	H5Tclose(mtype);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Attributes                                                          */

/* Attributes live in object headers: each element takes at least a byte
 * of the file, so a count above the file's size means a damaged header.
 * Set per load (the thread's current file). */
static _Thread_local uint64_t attr_max_count = UINT64_MAX;

void sv_h5_attr_limit(uint64_t max_count)
{
	attr_max_count = max_count;
}

/* Note "/group attribute 'name'" as the object being read. */
static void attr_at(hid_t loc, const char *name)
{
	char where[128] = "", what[160];
	char *shown = sv_h5_show(name);

	if (H5Iget_name(loc, where, sizeof where) < 0)
		where[0] = '\0';
	snprintf(what, sizeof what, "%s attribute '%s'", where[0] ? where : "/",
		shown);
	free(shown);
	sv_h5_at(what);
}

/* Open an attribute and report its class and element count (scalar: 1,
 * -1 for a multi-dimensional or null dataspace). */
hid_t sv_h5_attr_open(
	hid_t loc, const char *name, H5T_class_t *cls, hssize_t *count)
{
	hid_t a, t, s;
	int nd;

	attr_at(loc, name);
	if (H5Aexists(loc, name) <= 0)
		return H5I_INVALID_HID;
	a = H5Aopen(loc, name, H5P_DEFAULT);
	if (a < 0)
		return a;
	t = H5Aget_type(a);
	*cls = t < 0 ? H5T_NO_CLASS : H5Tget_class(t);
	if (t >= 0)
		H5Tclose(t);
	s = H5Aget_space(a);
	*count = -1;
	if (s >= 0) {
		H5S_class_t sc = H5Sget_simple_extent_type(s);
		nd = H5Sget_simple_extent_ndims(s);
		if (sc == H5S_SCALAR)
			*count = 1;
		else if (sc == H5S_SIMPLE && nd == 1)
			*count = H5Sget_simple_extent_npoints(s);
		if (*count > 0 && (uint64_t)*count > attr_max_count)
			*count = -1;
		H5Sclose(s);
	}
	return a;
}

/* Read all elements of a string attribute. */
int sv_h5_attr_read_strings(hid_t a, size_t n, char ***out)
{
	hid_t ftype = H5Aget_type(a), mtype, space;
	bool is_vlen, spacepad;
	size_t size;
	char *buf;

	if (ftype < 0)
		return -EIO;
	mtype = string_memtype(ftype, &is_vlen, &size);
	spacepad = H5Tget_strpad(ftype) == H5T_STR_SPACEPAD;
	H5Tclose(ftype);
	if (is_vlen && n) {
		char why[200];
		if (sv_h5_vlen_check(a, 1, why, sizeof why)) {
			H5Tclose(mtype);
			return -EIO;
		}
	}
	buf = sv_xcalloc(n ? n : 1, size ? size : 1);
	if (n && H5Aread(a, mtype, buf) < 0) {
		free(buf);
		H5Tclose(mtype);
		return -EIO;
	}
	*out = strings_decode(buf, n, is_vlen, size, spacepad);
	if (is_vlen && n) {
		space = H5Aget_space(a);
		H5Dvlen_reclaim(mtype, space, H5P_DEFAULT, buf);
		H5Sclose(space);
	}
	free(buf);
	H5Tclose(mtype);
	return 0;
}

int sv_h5_attr_strings(hid_t loc, const char *name, char ***out, size_t *n)
{
	H5T_class_t cls;
	hssize_t count;
	hid_t a = sv_h5_attr_open(loc, name, &cls, &count);
	int rc;

	if (a < 0)
		return SV_H5_ABSENT;
	if (cls != H5T_STRING || count < 0) {
		H5Aclose(a);
		return -EINVAL;
	}
	rc = sv_h5_attr_read_strings(a, (size_t)count, out);
	H5Aclose(a);
	if (rc == 0)
		*n = (size_t)count;
	return rc;
}

int sv_h5_attr_string(hid_t loc, const char *name, char **out)
{
	H5T_class_t cls;
	hssize_t count;
	hid_t a = sv_h5_attr_open(loc, name, &cls, &count);
	hid_t s;
	char **v;
	int rc;

	if (a < 0)
		return SV_H5_ABSENT;
	s = H5Aget_space(a);
	if (cls != H5T_STRING || H5Sget_simple_extent_type(s) != H5S_SCALAR) {
		H5Sclose(s);
		H5Aclose(a);
		return -EINVAL;
	}
	H5Sclose(s);
	rc = sv_h5_attr_read_strings(a, 1, &v);
	H5Aclose(a);
	if (rc)
		return rc;
	*out = v[0];
	free(v);
	return 0;
}

int sv_h5_attr_int(hid_t loc, const char *name, int64_t *out)
{
	H5T_class_t cls;
	hssize_t count;
	hid_t a = sv_h5_attr_open(loc, name, &cls, &count);
	int64_t v;
	int rc = 0;

	if (a < 0)
		return SV_H5_ABSENT;
	if (cls != H5T_INTEGER || count != 1)
		rc = -EINVAL;
	else if (H5Aread(a, H5T_NATIVE_INT64, &v) < 0)
		rc = -EIO;
	H5Aclose(a);
	if (rc == 0)
		*out = v;
	return rc;
}

/* ------------------------------------------------------------------ */
/* Groups                                                              */

hid_t sv_h5_open_group(struct sv_h5 *h, const char *name, int *rc)
{
	char obj[64];
	hid_t g;

	snprintf(obj, sizeof obj, "/%s", name);
	sv_h5_at(obj);
	*rc = 0;
	if (!sv_h5_exists(h->file, name)) {
		*rc = sv_h5_fail(h, -EINVAL, obj, "required group is missing");
		return H5I_INVALID_HID;
	}
	g = H5Oopen(h->file, name, H5P_DEFAULT);
	if (g < 0) {
		*rc = sv_h5_fail(
			h, -EIO, obj, "cannot open%s", sv_h5_last_error());
		return H5I_INVALID_HID;
	}
	if (H5Iget_type(g) != H5I_GROUP) {
		H5Oclose(g);
		*rc = sv_h5_fail(h, -EINVAL, obj,
			"is a dataset, but a group was expected");
		return H5I_INVALID_HID;
	}
	return g;
}

static herr_t links_collect(
	hid_t loc, const char *name, const H5L_info_t *info, void *data)
{
	(void)loc;
	(void)info;
	sv_strv_push(data, name);
	return 0;
}

void sv_h5_group_links(hid_t g, struct sv_strv *l)
{
	hsize_t idx = 0;
	H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, &idx, links_collect, l);
}

static herr_t attrs_collect(
	hid_t loc, const char *name, const H5A_info_t *info, void *data)
{
	(void)loc;
	(void)info;
	sv_strv_push(data, name);
	return 0;
}

void sv_h5_attr_names(hid_t loc, struct sv_strv *l)
{
	hsize_t idx = 0;
	H5Aiterate2(loc, H5_INDEX_NAME, H5_ITER_INC, &idx, attrs_collect, l);
}
