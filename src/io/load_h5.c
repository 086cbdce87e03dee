/*
 * load_h5.c: read a scope-profiler HDF5 profile into a struct sv_profile
 * (FORMAT.md sections 0-9).  This file opens the file, picks the layout,
 * and reads the columnar (schema 2 and 3) and aggregate layouts, the
 * metadata and the lane tables; load_h5_groups.c reads schema 1.
 *
 * The loader only calls the profile's builder functions: it does not know
 * who will look at the result.  It never writes to the file, never prints
 * (HDF5's own error printing is switched off), and reads each per-call
 * column with one H5Dread straight into the profile's arrays when the rows
 * tile the event columns in index order (what every writer produces),
 * otherwise through one scratch buffer per column.  Nothing is allocated
 * per call.
 *
 * Bad input never crashes: every size read from the file is checked before
 * it is used, and signed arithmetic on file values wraps instead of
 * overflowing.
 */
#include "load_h5_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scopeview/common.h"

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
	char *clean = sv_utf8_sanitize(s, strlen(s));
	char *out = sv_xmalloc(strlen(clean) * 4 + 1), *o = out;
	const unsigned char *c;

	for (c = (const unsigned char *)clean; *c; c++) {
		if (*c < 0x20 || *c == 0x7f) {
			snprintf(o, 5, "\\x%02x", *c);
			o += 4;
		} else if (*c == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f) {
			/* C1 controls (U+0080..U+009F) */
			snprintf(o, 5, "\\x%02x", c[1]);
			o += 4;
			c++;
		} else {
			*o++ = (char)*c;
		}
	}
	*o = '\0';
	free(clean);
	return out;
}

void sv_load_quiet_hdf5(void)
{
	/* After a crash inside HDF5 its lock may be held for ever. */
	if (sv_h5_guard_tripped())
		return;
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
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

static const char *class_name(H5T_class_t c)
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
			class_name(cls));
	else if ((flags & SV_H5_NUMBER) && cls != H5T_INTEGER &&
		 cls != H5T_FLOAT)
		rc = col_problem(h, flags, objpath,
			"has %s type, but numbers were expected",
			class_name(cls));
	else if ((flags & SV_H5_STRING) && cls != H5T_STRING)
		rc = col_problem(h, flags, objpath,
			"has %s type, but strings were expected",
			class_name(cls));
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

int sv_h5_read_range(struct sv_h5 *h, hid_t ds, const char *objpath,
	hid_t memtype, hsize_t off, hsize_t n, void *buf)
{
	hid_t fspace, mspace;
	herr_t st;

	if (n == 0)
		return 0;
	sv_h5_at(objpath);
	fspace = H5Dget_space(ds);
	if (fspace < 0)
		return sv_h5_fail(
			h, -EIO, objpath, "cannot read%s", sv_h5_last_error());
	if (H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &off, NULL, &n, NULL) <
		0) {
		H5Sclose(fspace);
		return sv_h5_fail(h, -EIO, objpath, "cannot select%s",
			sv_h5_last_error());
	}
	mspace = H5Screate_simple(1, &n, NULL);
	st = H5Dread(ds, memtype, mspace, fspace, H5P_DEFAULT, buf);
	if (st < 0)
		sv_h5_fail(h, -EIO, objpath,
			"cannot read: the file is truncated or damaged%s",
			sv_h5_last_error());
	H5Sclose(mspace);
	H5Sclose(fspace);
	if (st < 0)
		return -EIO;
	return 0;
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
static hid_t attr_open(
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
static int attr_read_strings(hid_t a, size_t n, char ***out)
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

static void strings_free(char **s, size_t n)
{
	size_t i;
	if (!s)
		return;
	for (i = 0; i < n; i++)
		free(s[i]);
	free(s);
}

int sv_h5_attr_strings(hid_t loc, const char *name, char ***out, size_t *n)
{
	H5T_class_t cls;
	hssize_t count;
	hid_t a = attr_open(loc, name, &cls, &count);
	int rc;

	if (a < 0)
		return SV_H5_ABSENT;
	if (cls != H5T_STRING || count < 0) {
		H5Aclose(a);
		return -EINVAL;
	}
	rc = attr_read_strings(a, (size_t)count, out);
	H5Aclose(a);
	if (rc == 0)
		*n = (size_t)count;
	return rc;
}

int sv_h5_attr_string(hid_t loc, const char *name, char **out)
{
	H5T_class_t cls;
	hssize_t count;
	hid_t a = attr_open(loc, name, &cls, &count);
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
	rc = attr_read_strings(a, 1, &v);
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
	hid_t a = attr_open(loc, name, &cls, &count);
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
/* Metadata: every attribute of /metadata, as Python's str() shows it   */

/* Python's repr() of a float: the shortest text that reads back exactly,
 * in fixed notation for exponents -4..15, else d.ddde+XX. */
static void py_float(double v, bool single, char *out, size_t cap)
{
	char buf[40], digits[24];
	int prec, exp10, nd;
	char *e;
	size_t j;

	if (isnan(v)) {
		snprintf(out, cap, "nan");
		return;
	}
	if (isinf(v)) {
		snprintf(out, cap, v < 0 ? "-inf" : "inf");
		return;
	}
	/* float32 values (numpy.float32) print with float32's shortest
	 * round trip, as numpy does. */
	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
		if (single ? (float)strtod(buf, NULL) == (float)v
			   : strtod(buf, NULL) == v)
			break;
	}
	if (prec > 17)
		prec = 17;
	snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
	e = strchr(buf, 'e');
	exp10 = e ? atoi(e + 1) : 0;
	/* The significant digits, trailing zeros dropped. */
	nd = 0;
	for (j = 0; buf + j < e; j++)
		if (buf[j] >= '0' && buf[j] <= '9' && nd < 20)
			digits[nd++] = buf[j];
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	if (exp10 >= -4 && exp10 < 16) {
		int decimals = nd - 1 - exp10;
		snprintf(out, cap, "%.*f", decimals > 0 ? decimals : 0, v);
		if (!strchr(out, '.'))
			strncat(out, ".0", cap - strlen(out) - 1);
	} else {
		snprintf(out, cap, "%s%c%s%s%se%c%02d", v < 0 ? "-" : "",
			digits[0], nd > 1 ? "." : "", nd > 1 ? digits + 1 : "",
			"", exp10 < 0 ? '-' : '+', abs(exp10));
	}
}

/* Join n strings with ", ". */
static char *join_strings(char **s, size_t n)
{
	size_t i, len = 1;
	char *out, *o;

	for (i = 0; i < n; i++)
		len += strlen(s[i]) + 2;
	out = o = sv_xmalloc(len);
	*o = '\0';
	for (i = 0; i < n; i++) {
		size_t l = strlen(s[i]);
		if (i) {
			memcpy(o, ", ", 2);
			o += 2;
		}
		memcpy(o, s[i], l);
		o += l;
	}
	*o = '\0';
	return out;
}

/* Is this enum h5py's bool (members FALSE = 0, TRUE = 1)? */
static bool enum_is_bool(hid_t t)
{
	int n = H5Tget_nmembers(t), i;
	bool f = false, tr = false;

	if (n != 2)
		return false;
	for (i = 0; i < n; i++) {
		char *name = H5Tget_member_name(t, (unsigned)i);
		if (name) {
			if (!strcasecmp(name, "FALSE"))
				f = true;
			else if (!strcasecmp(name, "TRUE"))
				tr = true;
			H5free_memory(name);
		}
	}
	return f && tr;
}

/* Text of n numbers of an integer or float attribute, read as int64 /
 * uint64 / double. */
static char *numbers_text(
	hid_t a, hid_t ftype, size_t n, bool is_float, struct sv_meta *m)
{
	bool is_unsigned = !is_float && H5Tget_sign(ftype) == H5T_SGN_NONE;
	char **parts = sv_xcalloc(n ? n : 1, sizeof *parts);
	union {
		int64_t i;
		uint64_t u;
		double f;
	} *v = sv_xcalloc(n ? n : 1, 8);
	hid_t mt = is_float      ? H5T_NATIVE_DOUBLE
		   : is_unsigned ? H5T_NATIVE_UINT64
				 : H5T_NATIVE_INT64;
	char *text, buf[64];
	size_t i;

	if (n && H5Aread(a, mt, v) < 0) {
		free(parts);
		free(v);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if (is_float)
			py_float(v[i].f, H5Tget_size(ftype) <= 4, buf,
				sizeof buf);
		else if (is_unsigned)
			snprintf(buf, sizeof buf, "%" PRIu64, v[i].u);
		else
			snprintf(buf, sizeof buf, "%" PRId64, v[i].i);
		parts[i] = sv_xstrdup(buf);
	}
	if (n == 1 && m) {
		if (is_float) {
			m->f = v[0].f;
			m->i = isfinite(v[0].f) && fabs(v[0].f) < 9.2e18
				       ? (int64_t)v[0].f
				       : 0;
		} else if (is_unsigned) {
			m->i = v[0].u > INT64_MAX ? INT64_MAX : (int64_t)v[0].u;
			m->f = (double)v[0].u;
		} else {
			m->i = v[0].i;
			m->f = (double)v[0].i;
		}
	}
	text = join_strings(parts, n);
	strings_free(parts, n);
	free(v);
	return text;
}

/* One /metadata attribute into the profile; never fails the load. */
static void meta_one(struct sv_profile *p, hid_t grp, const char *rawname)
{
	H5T_class_t cls;
	hssize_t count;
	hid_t a = attr_open(grp, rawname, &cls, &count);
	hid_t ftype;
	char *key = sv_utf8_sanitize(rawname, strlen(rawname));
	struct sv_meta *m;
	char *text = NULL;
	bool scalar;

	if (a < 0) {
		m = sv_profile_add_meta(p, key, SV_META_OTHER);
		m->text = sv_xstrdup("<unreadable attribute>");
		free(key);
		return;
	}
	{
		hid_t s = H5Aget_space(a);
		scalar = H5Sget_simple_extent_type(s) == H5S_SCALAR;
		H5Sclose(s);
	}
	ftype = H5Aget_type(a);
	if (count < 0) {
		m = sv_profile_add_meta(p, key, SV_META_OTHER);
		m->text = sv_xasprintf(
			"<%s attribute of another shape>", class_name(cls));
	} else if (cls == H5T_STRING) {
		char **s = NULL;
		if (attr_read_strings(a, (size_t)count, &s) < 0) {
			m = sv_profile_add_meta(p, key, SV_META_OTHER);
			m->text = sv_xstrdup("<unreadable string attribute>");
		} else if (scalar) {
			m = sv_profile_add_meta(p, key, SV_META_STRING);
			m->text = s[0];
			free(s);
		} else {
			m = sv_profile_add_meta(p, key, SV_META_STRINGS);
			m->text = join_strings(s, (size_t)count);
			m->strs = s;
			m->nstrs = (size_t)count;
		}
	} else if ((cls == H5T_INTEGER || cls == H5T_FLOAT)) {
		bool one = scalar;
		enum sv_meta_kind k = !one               ? SV_META_OTHER
				      : cls == H5T_FLOAT ? SV_META_FLOAT
							 : SV_META_INT;
		m = sv_profile_add_meta(p, key, k);
		text = numbers_text(a, ftype, (size_t)count, cls == H5T_FLOAT,
			one ? m : NULL);
		if (!text) {
			m->kind = SV_META_OTHER;
			text = sv_xstrdup("<unreadable number>");
		}
		m->text = text;
	} else if (cls == H5T_ENUM && scalar && enum_is_bool(ftype)) {
		hid_t nt = H5Tget_native_type(ftype, H5T_DIR_ASCEND);
		unsigned char raw[16] = {0};
		char name[32] = "";
		m = sv_profile_add_meta(p, key, SV_META_BOOL);
		if (nt >= 0 && H5Tget_size(nt) <= sizeof raw &&
			H5Aread(a, nt, raw) >= 0 &&
			H5Tenum_nameof(nt, raw, name, sizeof name) >= 0) {
			m->i = !strcasecmp(name, "TRUE");
			m->f = (double)m->i;
			m->text = sv_xstrdup(m->i ? "True" : "False");
		} else {
			m->kind = SV_META_OTHER;
			m->text = sv_xstrdup("<unreadable bool>");
		}
		if (nt >= 0)
			H5Tclose(nt);
	} else if (cls == H5T_ENUM && scalar) {
		hid_t nt = H5Tget_native_type(ftype, H5T_DIR_ASCEND);
		unsigned char raw[16] = {0};
		char name[128] = "";
		m = sv_profile_add_meta(p, key, SV_META_OTHER);
		if (nt >= 0 && H5Tget_size(nt) <= sizeof raw &&
			H5Aread(a, nt, raw) >= 0 &&
			H5Tenum_nameof(nt, raw, name, sizeof name) >= 0)
			m->text = sv_utf8_sanitize(name, strlen(name));
		else
			m->text = sv_xstrdup("<enum attribute>");
		if (nt >= 0)
			H5Tclose(nt);
	} else {
		m = sv_profile_add_meta(p, key, SV_META_OTHER);
		m->text = sv_xasprintf("<%s attribute, %zu bytes>",
			class_name(cls),
			ftype >= 0 ? H5Tget_size(ftype) : (size_t)0);
	}
	if (ftype >= 0)
		H5Tclose(ftype);
	H5Aclose(a);
	free(key);
}

struct name_list {
	char **v;
	size_t n, cap;
};

static herr_t names_collect_attr(
	hid_t loc, const char *name, const H5A_info_t *info, void *data)
{
	struct name_list *l = data;
	(void)loc;
	(void)info;
	sv_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = sv_xstrdup(name);
	return 0;
}

static herr_t names_collect_link(
	hid_t loc, const char *name, const H5L_info_t *info, void *data)
{
	struct name_list *l = data;
	(void)loc;
	(void)info;
	sv_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = sv_xstrdup(name);
	return 0;
}

static void name_list_free(struct name_list *l)
{
	strings_free(l->v, l->n);
	l->v = NULL;
	l->n = l->cap = 0;
}

/* Names of the links of a group, in HDF5's name order. */
static void group_links(hid_t g, struct name_list *l)
{
	hsize_t idx = 0;
	H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, &idx, names_collect_link, l);
}

/* A metadata value Python's float() accepts: int, float, bool, or a
 * string holding a number. */
static bool meta_number(const struct sv_meta *m, int64_t *out)
{
	if (!m)
		return false;
	switch (m->kind) {
	case SV_META_INT:
	case SV_META_BOOL:
		*out = m->i;
		return true;
	case SV_META_FLOAT:
		if (!isfinite(m->f) || fabs(m->f) >= 9.2e18)
			return false;
		*out = (int64_t)m->f;
		return true;
	case SV_META_STRING: {
		char *end;
		double d;
		errno = 0;
		d = strtod(m->text, &end);
		while (*end == ' ' || *end == '\t' || *end == '\n')
			end++;
		if (end == m->text || *end || !isfinite(d) || fabs(d) >= 9.2e18)
			return false;
		*out = (int64_t)d;
		return true;
	}
	default:
		return false;
	}
}

static int load_metadata(struct sv_h5 *h)
{
	struct name_list l = {0};
	hsize_t idx = 0;
	hid_t g;
	size_t i;

	sv_h5_at("/metadata");
	if (!sv_h5_exists(h->file, "metadata"))
		return 0;
	g = H5Oopen(h->file, "metadata", H5P_DEFAULT);
	if (g < 0)
		return sv_h5_fail(h, -EIO, "/metadata", "cannot open%s",
			sv_h5_last_error());
	if (H5Iget_type(g) != H5I_GROUP) {
		H5Oclose(g);
		sv_profile_warn(h->p, "/metadata: not a group; ignored");
		return 0;
	}
	H5Aiterate2(
		g, H5_INDEX_NAME, H5_ITER_INC, &idx, names_collect_attr, &l);
	for (i = 0; i < l.n; i++)
		meta_one(h->p, g, l.v[i]);
	name_list_free(&l);
	H5Oclose(g);

	/* profile.c derives start/finalize times from these in finish. */
	return 0;
}

static bool meta_int(const struct sv_profile *p, const char *key, int64_t *v)
{
	size_t i;
	for (i = 0; i < p->nmeta; i++)
		if (!strcmp(p->meta[i].key, key))
			return meta_number(&p->meta[i], v);
	return false;
}

/* ------------------------------------------------------------------ */
/* Lane tables                                                         */

enum { TBL_INT, TBL_STR };

struct tbl_col {
	const char *name;
	int kind;
	bool required;
	int64_t fill;
	int64_t *i; /* read values */
	char **s;
};

/* Read the columns of a table group (all of the same length as the first
 * required column).  A required column missing or unusable drops the
 * table with a warning; an optional one takes its fill value. Returns the
 * row count, 0 when the table is absent or dropped, or a negative errno
 * (a read failure). */
static int64_t table_read(
	struct sv_h5 *h, const char *gname, struct tbl_col *cols, size_t ncols)
{
	char obj[256];
	hid_t g;
	hsize_t n = (hsize_t)-1;
	size_t k;
	int rc = 0;

	if (!sv_h5_exists(h->file, gname))
		return 0;
	g = H5Oopen(h->file, gname, H5P_DEFAULT);
	if (g < 0 || H5Iget_type(g) != H5I_GROUP) {
		if (g >= 0)
			H5Oclose(g);
		sv_profile_warn(h->p, "/%s: not a group; ignored", gname);
		return 0;
	}
	for (k = 0; k < ncols && rc >= 0; k++) {
		struct tbl_col *c = &cols[k];
		struct sv_h5_col col;
		snprintf(obj, sizeof obj, "/%s/%s", gname, c->name);
		rc = sv_h5_col_open(h, g, c->name, obj,
			c->kind == TBL_STR ? SV_H5_STRING : SV_H5_INT, n, &col);
		if (rc < 0)
			break;
		if (rc == SV_H5_ABSENT) {
			rc = 0;
			if (c->required) {
				sv_profile_warn(h->p,
					"/%s: no usable %s column; table "
					"ignored",
					gname, c->name);
				rc = 1;
				break;
			}
			continue;
		}
		if (n == (hsize_t)-1)
			n = col.n;
		if (c->kind == TBL_STR) {
			rc = sv_h5_read_strings(h, col.ds, obj, col.n, &c->s);
		} else {
			c->i = sv_xcalloc(col.n ? col.n : 1, sizeof *c->i);
			rc = sv_h5_read_range(h, col.ds, obj, H5T_NATIVE_INT64,
				0, col.n, c->i);
		}
		sv_h5_col_close(&col);
	}
	H5Oclose(g);
	if (rc < 0 || rc == 1) {
		/* Every column read holds n values: free them here (the
		 * caller frees with a count of 0). */
		for (k = 0; k < ncols; k++) {
			free(cols[k].i);
			cols[k].i = NULL;
			strings_free(
				cols[k].s, n == (hsize_t)-1 ? 0 : (size_t)n);
			cols[k].s = NULL;
		}
	}
	if (rc < 0)
		return rc;
	if (rc == 1 || n == (hsize_t)-1)
		return 0;
	return (int64_t)n;
}

static void table_free(struct tbl_col *cols, size_t ncols, size_t n)
{
	size_t k;
	for (k = 0; k < ncols; k++) {
		free(cols[k].i);
		strings_free(cols[k].s, cols[k].s ? n : 0);
	}
}

static int64_t tbl_i(const struct tbl_col *c, size_t r)
{
	return c->i ? c->i[r] : c->fill;
}

static char *tbl_s(const struct tbl_col *c, size_t r)
{
	if (c->s) {
		char *s = c->s[r];
		c->s[r] = NULL;
		return s;
	}
	return sv_xstrdup("");
}

static bool rank_ok(struct sv_h5 *h, const char *table, int64_t rank)
{
	if (rank >= 0 && rank < (int64_t)UINT32_MAX)
		return true;
	sv_profile_warn(h->p,
		"/%s/ranks: rank %" PRId64 " is out of range; row ignored",
		table, rank);
	return false;
}

static int load_tables(struct sv_h5 *h)
{
	struct tbl_col th[] = {
		{"ranks", TBL_INT, true, 0, NULL, NULL},
		{"index", TBL_INT, true, 0, NULL, NULL},
		{"ident", TBL_INT, false, -1, NULL, NULL},
		{"native_id", TBL_INT, false, -1, NULL, NULL},
		{"daemon", TBL_INT, false, 0, NULL, NULL},
		{"name", TBL_STR, false, 0, NULL, NULL},
		{"start_ns", TBL_INT, false, -1, NULL, NULL},
		{"end_ns", TBL_INT, false, -1, NULL, NULL},
		{"cpu_ns", TBL_INT, false, -1, NULL, NULL},
	};
	struct tbl_col tk[] = {
		{"ranks", TBL_INT, true, 0, NULL, NULL},
		{"index", TBL_INT, true, 0, NULL, NULL},
		{"thread_index", TBL_INT, false, -1, NULL, NULL},
		{"kind", TBL_STR, false, 0, NULL, NULL},
		{"name", TBL_STR, false, 0, NULL, NULL},
		{"coro_name", TBL_STR, false, 0, NULL, NULL},
		{"created_ns", TBL_INT, false, -1, NULL, NULL},
		{"done_ns", TBL_INT, false, -1, NULL, NULL},
		{"steps", TBL_INT, false, 0, NULL, NULL},
		{"running_ns", TBL_INT, false, 0, NULL, NULL},
		{"suspended_ns", TBL_INT, false, 0, NULL, NULL},
	};
	const size_t nth = sizeof th / sizeof th[0];
	const size_t ntk = sizeof tk / sizeof tk[0];
	int64_t n, r;

	n = table_read(h, "thread_table", th, nth);
	if (n < 0) {
		table_free(th, nth, 0);
		return (int)n;
	}
	for (r = 0; r < n; r++) {
		struct sv_thread *t;
		int64_t d;
		if (!rank_ok(h, "thread_table", tbl_i(&th[0], (size_t)r)))
			continue;
		t = sv_profile_add_thread(h->p);
		t->rank = (uint32_t)tbl_i(&th[0], (size_t)r);
		t->index = tbl_i(&th[1], (size_t)r);
		t->ident = tbl_i(&th[2], (size_t)r);
		t->native_id = tbl_i(&th[3], (size_t)r);
		d = tbl_i(&th[4], (size_t)r);
		t->daemon = (int8_t)(d < INT8_MIN   ? INT8_MIN
				     : d > INT8_MAX ? INT8_MAX
						    : d);
		t->name = tbl_s(&th[5], (size_t)r);
		t->start_ns = tbl_i(&th[6], (size_t)r);
		t->end_ns = tbl_i(&th[7], (size_t)r);
		t->cpu_ns = tbl_i(&th[8], (size_t)r);
	}
	table_free(th, nth, (size_t)n);

	n = table_read(h, "task_table", tk, ntk);
	if (n < 0) {
		table_free(tk, ntk, 0);
		return (int)n;
	}
	for (r = 0; r < n; r++) {
		struct sv_task *t;
		if (!rank_ok(h, "task_table", tbl_i(&tk[0], (size_t)r)))
			continue;
		t = sv_profile_add_task(h->p);
		t->rank = (uint32_t)tbl_i(&tk[0], (size_t)r);
		t->index = tbl_i(&tk[1], (size_t)r);
		t->thread_index = tbl_i(&tk[2], (size_t)r);
		t->kind = tbl_s(&tk[3], (size_t)r);
		t->name = tbl_s(&tk[4], (size_t)r);
		t->coro_name = tbl_s(&tk[5], (size_t)r);
		t->created_ns = tbl_i(&tk[6], (size_t)r);
		t->done_ns = tbl_i(&tk[7], (size_t)r);
		t->steps = tbl_i(&tk[8], (size_t)r);
		t->running_ns = tbl_i(&tk[9], (size_t)r);
		t->suspended_ns = tbl_i(&tk[10], (size_t)r);
	}
	table_free(tk, ntk, (size_t)n);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The index: /region_table and /rank_region_index                     */

struct index {
	hsize_t nrows;
	int64_t *region, *rank, *offset, *count; /* nrows each */
	uint32_t nnames;
};

static void index_free(struct index *ix)
{
	free(ix->region);
	free(ix->rank);
	free(ix->offset);
	free(ix->count);
}

/* Read a required integer column of the index into a new int64 array. */
static int index_ints(
	struct sv_h5 *h, hid_t g, const char *name, hsize_t *n, int64_t **out)
{
	char obj[128];
	struct sv_h5_col c;
	int rc;

	snprintf(obj, sizeof obj, "/rank_region_index/%s", name);
	rc = sv_h5_col_open(
		h, g, name, obj, SV_H5_REQUIRED | SV_H5_INT, *n, &c);
	if (rc)
		return rc;
	*n = c.n;
	*out = sv_xcalloc(c.n ? c.n : 1, sizeof **out);
	rc = sv_h5_read_range(h, c.ds, obj, H5T_NATIVE_INT64, 0, c.n, *out);
	sv_h5_col_close(&c);
	return rc;
}

static int cmp_u64_pair(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Region names (/region_table/names) into the profile. */
static int load_names(struct sv_h5 *h, struct index *ix)
{
	struct sv_h5_col c;
	char **names = NULL;
	hsize_t i;
	int rc;

	if (!sv_h5_exists(h->file, "region_table"))
		return sv_h5_fail(h, -EINVAL, "/region_table",
			"required group is missing");
	{
		hid_t g = H5Oopen(h->file, "region_table", H5P_DEFAULT);
		if (g < 0)
			return sv_h5_fail(h, -EIO, "/region_table",
				"cannot open%s", sv_h5_last_error());
		if (H5Iget_type(g) != H5I_GROUP) {
			H5Oclose(g);
			return sv_h5_fail(h, -EINVAL, "/region_table",
				"is a dataset, but a group was expected");
		}
		rc = sv_h5_col_open(h, g, "names", "/region_table/names",
			SV_H5_REQUIRED | SV_H5_STRING, (hsize_t)-1, &c);
		H5Oclose(g);
	}
	if (rc)
		return rc;
	if (c.n >= UINT32_MAX) {
		sv_h5_col_close(&c);
		return sv_h5_fail(h, -EINVAL, "/region_table/names",
			"holds too many names");
	}
	rc = sv_h5_read_strings(h, c.ds, "/region_table/names", c.n, &names);
	sv_h5_col_close(&c);
	if (rc)
		return rc;
	for (i = 0; i < c.n; i++)
		sv_profile_add_region(h->p, names[i]);
	strings_free(names, (size_t)c.n);
	ix->nnames = (uint32_t)c.n;
	return 0;
}

/* region_ids, ranks: present, in range, no (rank, region) twice. */
static int index_check_ids(struct sv_h5 *h, struct index *ix)
{
	hsize_t i;
	uint64_t *pairs;
	int rc = 0;

	for (i = 0; i < ix->nrows; i++) {
		if (ix->region[i] < 0 || ix->region[i] >= ix->nnames)
			return sv_h5_fail(h, -EINVAL,
				"/rank_region_index/region_ids",
				"row %llu names region %" PRId64
				", but /region_table/names holds %u names",
				(unsigned long long)i, ix->region[i],
				ix->nnames);
		if (ix->rank[i] < 0 || ix->rank[i] >= (int64_t)UINT32_MAX)
			return sv_h5_fail(h, -EINVAL,
				"/rank_region_index/ranks",
				"row %llu has rank %" PRId64
				", which is out of range",
				(unsigned long long)i, ix->rank[i]);
	}
	/* Sort (rank << 32 | region, row) pairs to find duplicates. */
	pairs = sv_xcalloc(ix->nrows ? ix->nrows * 2 : 2, sizeof *pairs);
	for (i = 0; i < ix->nrows; i++) {
		pairs[2 * i] =
			(uint64_t)ix->rank[i] << 32 | (uint64_t)ix->region[i];
		pairs[2 * i + 1] = i;
	}
	qsort(pairs, ix->nrows, 2 * sizeof *pairs, cmp_u64_pair);
	for (i = 1; i < ix->nrows; i++)
		if (pairs[2 * i] == pairs[2 * i - 2]) {
			uint64_t a = pairs[2 * i - 1], b = pairs[2 * i + 1];
			char *name = sv_h5_show(h->p->regions[ix->region[a]]);
			rc = sv_h5_fail(h, -EINVAL, "/rank_region_index",
				"rows %llu and %llu both hold rank %" PRId64
				", region '%s'",
				(unsigned long long)a, (unsigned long long)b,
				ix->rank[a], name);
			free(name);
			break;
		}
	free(pairs);
	return rc;
}

/* Offsets and counts against the event columns (length m): inside, and no
 * two rows sharing an event. */
static int index_check_events(
	struct sv_h5 *h, struct index *ix, hsize_t m, const char *colpath)
{
	hsize_t i, k = 0;
	uint64_t *spans;
	int rc = 0;

	for (i = 0; i < ix->nrows; i++) {
		int64_t off = ix->offset[i], cnt = ix->count[i];
		if (cnt < 0 || cnt == INT64_MAX)
			return sv_h5_fail(h, -EINVAL,
				"/rank_region_index/event_counts",
				"row %llu claims %" PRId64
				" calls, which is not a valid count",
				(unsigned long long)i, cnt);
		if (off < 0 || off == INT64_MAX)
			return sv_h5_fail(h, -EINVAL,
				"/rank_region_index/event_offsets",
				"row %llu has offset %" PRId64
				", which is not a valid offset",
				(unsigned long long)i, off);
		if ((uint64_t)cnt > m || (uint64_t)off > m - (uint64_t)cnt)
			return sv_h5_fail(h, -EINVAL,
				"/rank_region_index/event_counts",
				"row %llu claims %" PRId64
				" calls at offset %" PRId64
				", but %s holds %llu; the file is truncated "
				"or damaged",
				(unsigned long long)i, cnt, off, colpath,
				(unsigned long long)m);
	}
	spans = sv_xcalloc(ix->nrows ? ix->nrows * 2 : 2, sizeof *spans);
	for (i = 0; i < ix->nrows; i++)
		if (ix->count[i] > 0) {
			spans[2 * k] = (uint64_t)ix->offset[i];
			spans[2 * k + 1] = i;
			k++;
		}
	qsort(spans, k, 2 * sizeof *spans, cmp_u64_pair);
	for (i = 1; i < k; i++) {
		uint64_t a = spans[2 * i - 1], b = spans[2 * i + 1];
		if ((uint64_t)ix->offset[a] + (uint64_t)ix->count[a] >
			(uint64_t)ix->offset[b]) {
			rc = sv_h5_fail(h, -EINVAL,
				"/rank_region_index/event_offsets",
				"rows %llu and %llu overlap: their event "
				"slices [%" PRId64 ", %" PRId64
				") and [%" PRId64 ", %" PRId64 ") share events",
				(unsigned long long)a, (unsigned long long)b,
				ix->offset[a], ix->offset[a] + ix->count[a],
				ix->offset[b], ix->offset[b] + ix->count[b]);
			break;
		}
	}
	free(spans);
	return rc;
}

/* sv_profile_add_row failed (too many calls): name the file. */
static int row_fail(struct sv_h5 *h, const char *obj)
{
	char msg[sizeof h->err->msg];
	int code = h->err->code ? h->err->code : -EFBIG;

	snprintf(msg, sizeof msg, "%s", h->err->msg);
	return sv_h5_fail(h, code, obj, "%s", msg);
}

/* ------------------------------------------------------------------ */
/* Per-row optional index columns                                      */

/* Parse a row's JSON tag text (FORMAT.md 1.4) into row->tags. */
static void row_tags(
	struct sv_h5 *h, struct sv_row *row, hsize_t r, const char *text)
{
	json_error_t jerr;
	json_t *j;
	char *name;
	size_t i;

	if (!*text)
		return; /* "" reads as [] */
	j = json_loads(text, JSON_DECODE_ANY, &jerr);
	if (!j || !json_is_array(j)) {
		row->tags = sv_xcalloc(1, sizeof *row->tags);
		row->tags[0] = sv_xstrdup(text);
		row->ntags = 1;
		row->tags_raw = true;
		name = sv_h5_show(h->p->regions[row->region]);
		sv_profile_warn(h->p,
			"/rank_region_index/tags: row %llu (rank %u, '%s'): "
			"tag text is not a JSON array; shown as is",
			(unsigned long long)r, row->rank, name);
		free(name);
		json_decref(j);
		return;
	}
	row->ntags = json_array_size(j);
	row->tags = sv_xcalloc(row->ntags ? row->ntags : 1, sizeof *row->tags);
	for (i = 0; i < row->ntags; i++) {
		json_t *v = json_array_get(j, i);
		if (json_is_string(v)) {
			row->tags[i] = sv_utf8_sanitize(
				json_string_value(v), json_string_length(v));
		} else {
			char *d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
			row->tags[i] = sv_xstrdup(d ? d : "?");
			free(d);
		}
	}
	json_decref(j);
}

static int index_strings(
	struct sv_h5 *h, hid_t g, const char *name, hsize_t nrows, char ***out)
{
	char obj[128];
	struct sv_h5_col c;
	int rc;

	*out = NULL;
	snprintf(obj, sizeof obj, "/rank_region_index/%s", name);
	rc = sv_h5_col_open(h, g, name, obj, SV_H5_STRING, nrows, &c);
	if (rc)
		return rc < 0 ? rc : 0;
	rc = sv_h5_read_strings(h, c.ds, obj, c.n, out);
	sv_h5_col_close(&c);
	return rc;
}

static int index_opt_ints(struct sv_h5 *h, hid_t g, const char *name,
	hsize_t nrows, int64_t **out)
{
	char obj[128];
	struct sv_h5_col c;
	int rc;

	*out = NULL;
	snprintf(obj, sizeof obj, "/rank_region_index/%s", name);
	rc = sv_h5_col_open(h, g, name, obj, SV_H5_INT, nrows, &c);
	if (rc)
		return rc < 0 ? rc : 0;
	*out = sv_xcalloc(c.n ? c.n : 1, sizeof **out);
	rc = sv_h5_read_range(h, c.ds, obj, H5T_NATIVE_INT64, 0, c.n, *out);
	sv_h5_col_close(&c);
	if (rc) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

/* summary_statistics, read by field name into struct sv_summary. */
static int index_summaries(
	struct sv_h5 *h, hid_t g, hsize_t nrows, struct sv_summary **out)
{
	static const struct {
		const char *name;
		size_t off;
		int kind; /* 0 int64, 1 uint64, 2 double */
	} fields[] = {
		{"total", offsetof(struct sv_summary, total), 0},
		{"minimum", offsetof(struct sv_summary, minimum), 0},
		{"maximum", offsetof(struct sv_summary, maximum), 0},
		{"first", offsetof(struct sv_summary, first), 0},
		{"last", offsetof(struct sv_summary, last), 0},
		{"start_minimum", offsetof(struct sv_summary, start_minimum),
			0},
		{"end_maximum", offsetof(struct sv_summary, end_maximum), 0},
		{"gpu_count", offsetof(struct sv_summary, gpu_count), 1},
		{"gpu_total", offsetof(struct sv_summary, gpu_total), 0},
		{"mean", offsetof(struct sv_summary, mean), 2},
		{"m2", offsetof(struct sv_summary, m2), 2},
	};
	const char *obj = "/rank_region_index/summary_statistics";
	struct sv_h5_col c;
	hid_t ftype, mtype;
	char missing[200] = "";
	size_t i;
	int rc;

	*out = NULL;
	rc = sv_h5_col_open(
		h, g, "summary_statistics", obj, SV_H5_ANY, nrows, &c);
	if (rc)
		return rc < 0 ? rc : 0;
	ftype = H5Dget_type(c.ds);
	if (H5Tget_class(ftype) != H5T_COMPOUND) {
		sv_profile_warn(h->p,
			"%s: has %s type, not a compound; "
			"ignored",
			obj, class_name(H5Tget_class(ftype)));
		H5Tclose(ftype);
		sv_h5_col_close(&c);
		return 0;
	}
	for (i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (H5Tget_member_index(ftype, fields[i].name) < 0) {
			size_t l = strlen(missing);
			snprintf(missing + l, sizeof missing - l, "%s%s",
				l ? ", " : "", fields[i].name);
		}
	H5Tclose(ftype);
	if (*missing) {
		sv_profile_warn(h->p,
			"%s: lacks field(s) %s; stored statistics ignored", obj,
			missing);
		sv_h5_col_close(&c);
		return 0;
	}
	mtype = H5Tcreate(H5T_COMPOUND, sizeof(struct sv_summary));
	for (i = 0; i < sizeof fields / sizeof fields[0]; i++)
		H5Tinsert(mtype, fields[i].name, fields[i].off,
			fields[i].kind == 0   ? H5T_NATIVE_INT64
			: fields[i].kind == 1 ? H5T_NATIVE_UINT64
					      : H5T_NATIVE_DOUBLE);
	*out = sv_xcalloc(c.n ? c.n : 1, sizeof **out);
	rc = sv_h5_read_range(h, c.ds, obj, mtype, 0, c.n, *out);
	H5Tclose(mtype);
	sv_h5_col_close(&c);
	if (rc) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

/* Source lines, files, texts, tags, exclusive totals and stored summaries
 * of every row (all optional). */
static int index_row_extras(struct sv_h5 *h, hid_t g, struct index *ix)
{
	char **files = NULL, **texts = NULL, **tags = NULL;
	int64_t *lines = NULL, *excl = NULL;
	struct sv_summary *sums = NULL;
	hsize_t r;
	int rc;

	rc = index_opt_ints(h, g, "source_lines", ix->nrows, &lines);
	if (!rc)
		rc = index_opt_ints(h, g, "exclusive_totals", ix->nrows, &excl);
	if (!rc)
		rc = index_strings(h, g, "source_files", ix->nrows, &files);
	if (!rc)
		rc = index_strings(h, g, "source_texts", ix->nrows, &texts);
	if (!rc)
		rc = index_strings(h, g, "tags", ix->nrows, &tags);
	if (!rc)
		rc = index_summaries(h, g, ix->nrows, &sums);
	for (r = 0; r < ix->nrows && !rc; r++) {
		struct sv_row *row = &h->p->rows[r];
		if (lines)
			row->source_line = lines[r] >= 0 ? lines[r] : -1;
		if (excl)
			row->exclusive_total = excl[r] >= 0 ? excl[r] : -1;
		if (files && *files[r]) {
			row->source_file = files[r];
			files[r] = NULL;
		}
		if (texts && *texts[r]) {
			row->source_text = texts[r];
			texts[r] = NULL;
		}
		if (tags)
			row_tags(h, row, r, tags[r]);
		if (sums) {
			row->has_summary = true;
			row->summary = sums[r];
		}
	}
	strings_free(files, files ? (size_t)ix->nrows : 0);
	strings_free(texts, texts ? (size_t)ix->nrows : 0);
	strings_free(tags, tags ? (size_t)ix->nrows : 0);
	free(lines);
	free(excl);
	free(sums);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Event columns                                                       */

/* Where a row's calls come from: the rows tile [base, base + ncalls) of
 * the event columns in row order (direct), or not (scratch). */
struct event_map {
	bool direct;
	bool per_row;     /* not direct, but rows are long: read each row's
			     slice into place (no scratch buffer) */
	hsize_t base;     /* direct: first event of call 0 */
	double f0, f1;    /* progress range of the column being read */
	hsize_t lo, hi;   /* scratch: the event range rows cover */
	struct index *ix; /* offsets and counts, by row */
};

#define SV_LOAD_ROW_READS_MIN 1024

static void event_map_build(struct event_map *em, struct index *ix)
{
	hsize_t r, next = 0;
	bool any = false;

	em->ix = ix;
	em->direct = true;
	em->base = 0;
	em->lo = (hsize_t)-1;
	em->hi = 0;
	for (r = 0; r < ix->nrows; r++) {
		hsize_t off = (hsize_t)ix->offset[r];
		hsize_t end = off + (hsize_t)ix->count[r];
		if (ix->count[r] == 0)
			continue;
		if (!any) {
			em->base = next = off;
			any = true;
		}
		if (off != next)
			em->direct = false;
		next = end;
		if (off < em->lo)
			em->lo = off;
		if (end > em->hi)
			em->hi = end;
	}
	if (!any)
		em->lo = em->hi = 0;
	/* One H5Dread per row costs some microseconds: worth it when rows
	 * hold many calls, where a scratch copy of the column costs more
	 * (measured: with 125000 calls per row, per-row reads took 25% less
	 * CPU than the scratch copy; with 100, 20% more). */
	{
		uint64_t calls = 0;
		for (r = 0; r < ix->nrows; r++)
			calls += (uint64_t)ix->count[r];
		em->per_row = !em->direct && ix->nrows &&
			      calls / ix->nrows >= SV_LOAD_ROW_READS_MIN;
	}
}

/* Read one event column (elements of 8 bytes as memtype) into dst, one
 * value per call of the profile. */
/* Elements per H5Dread while reading a column: progress is reported and
 * cancellation honoured between blocks (a multiple of the writers' event
 * chunk of 1024). */
#define EVENT_BLOCK ((hsize_t)1 << 20)

/* Read [off, off + n) into buf in blocks; done / total place the blocks
 * in the column's progress range. */
static int event_blocks(struct sv_h5 *h, const struct event_map *em, hid_t ds,
	const char *objpath, hid_t memtype, hsize_t off, hsize_t n,
	unsigned char *buf, hsize_t done, hsize_t total)
{
	hsize_t at = 0;
	double span = em->f1 - em->f0, all = (double)(total ? total : 1);
	int rc;

	/* Compressed columns: inflate in parallel when the layout allows. */
	rc = sv_h5_fast_read(h, ds, memtype, off, n, buf,
		em->f0 + span * (double)done / all,
		em->f0 + span * (double)(done + n) / all);
	if (rc != SV_H5_FAST_NO)
		return rc;
	rc = 0;
	while (at < n && rc == 0) {
		hsize_t k = n - at < EVENT_BLOCK ? n - at : EVENT_BLOCK;
		rc = sv_h5_read_range(
			h, ds, objpath, memtype, off + at, k, buf + at * 8);
		at += k;
		if (rc == 0 && (n > EVENT_BLOCK || at == n))
			rc = sv_h5_step(h,
				em->f0 + (em->f1 - em->f0) *
						 (double)(done + at) /
						 (double)(total ? total : 1),
				"events");
	}
	return rc;
}

/* Read one event column (elements of 8 bytes as memtype) into dst, one
 * value per call of the profile. */
static int event_read(struct sv_h5 *h, const struct event_map *em, hid_t ds,
	const char *objpath, hid_t memtype, void *dst)
{
	struct sv_profile *p = h->p;
	unsigned char *scratch;
	hsize_t done = 0;
	size_t r;
	int rc = 0;

	if (p->ncalls == 0)
		return 0;
	if (em->direct)
		return event_blocks(h, em, ds, objpath, memtype, em->base,
			p->ncalls, dst, 0, p->ncalls);
	if (em->per_row) {
		for (r = 0; r < p->nrows && rc == 0; r++) {
			rc = event_blocks(h, em, ds, objpath, memtype,
				(hsize_t)em->ix->offset[r], p->rows[r].count,
				(unsigned char *)dst + p->rows[r].first * 8,
				done, p->ncalls);
			done += p->rows[r].count;
		}
		return rc;
	}
	scratch = sv_xmalloc((size_t)(em->hi - em->lo) * 8);
	rc = event_blocks(h, em, ds, objpath, memtype, em->lo, em->hi - em->lo,
		scratch, 0, em->hi - em->lo);
	for (r = 0; r < p->nrows && rc == 0; r++) {
		const struct sv_row *row = &p->rows[r];
		if (row->count)
			memcpy((unsigned char *)dst + row->first * 8,
				scratch +
					((hsize_t)em->ix->offset[r] - em->lo) *
						8,
				(size_t)row->count * 8);
	}
	free(scratch);
	return rc;
}

void sv_h5_rows_gpu(struct sv_profile *p)
{
	size_t r;
	uint64_t i;

	for (r = 0; r < p->nrows; r++) {
		struct sv_row *row = &p->rows[r];
		row->has_gpu = false;
		if (!p->gpu_ns)
			continue;
		for (i = 0; i < row->count; i++)
			if (p->gpu_ns[row->first + i] >= 0) {
				row->has_gpu = true;
				break;
			}
	}
}

static const struct {
	const char *name;
	size_t member; /* offsetof in struct sv_profile */
	int64_t fill;
} optional_cols[] = {
	{"gpu_durations", offsetof(struct sv_profile, gpu_ns), -1},
	{"call_ids", offsetof(struct sv_profile, call_id), -1},
	{"parent_ids", offsetof(struct sv_profile, parent_id), -1},
	{"thread_ids", offsetof(struct sv_profile, thread_id), -1},
	{"task_ids", offsetof(struct sv_profile, task_id), -1},
	{"await_ns", offsetof(struct sv_profile, await_ns), 0},
};

static bool event_known(const char *name)
{
	static const char *core[] = {
		"start_deltas", "durations", "start_times", "end_times"};
	size_t i;
	for (i = 0; i < sizeof core / sizeof core[0]; i++)
		if (!strcmp(name, core[i]))
			return true;
	for (i = 0; i < sizeof optional_cols / sizeof optional_cols[0]; i++)
		if (!strcmp(name, optional_cols[i].name))
			return true;
	return false;
}

/* Undo schema 3's encoding in place: start_ns holds the deltas of each
 * row, end_ns the durations.  Arithmetic wraps like numpy's int64. */
static void decode_deltas(struct sv_profile *p)
{
	size_t r;
	uint64_t i;

	for (r = 0; r < p->nrows; r++) {
		const struct sv_row *row = &p->rows[r];
		int64_t *s = p->start_ns + row->first;
		for (i = 1; i < row->count; i++)
			s[i] = (int64_t)((uint64_t)s[i - 1] + (uint64_t)s[i]);
	}
	for (i = 0; i < p->ncalls; i++)
		p->end_ns[i] = (int64_t)((uint64_t)p->start_ns[i] +
					 (uint64_t)p->end_ns[i]);
}

static int load_events(struct sv_h5 *h, hid_t ev, struct index *ix)
{
	struct sv_profile *p = h->p;
	bool delta = sv_h5_exists(ev, "start_deltas");
	const char *n0 = delta ? "start_deltas" : "start_times";
	const char *n1 = delta ? "durations" : "end_times";
	char obj0[64], obj1[64], obj[512];
	struct sv_h5_col c0, c1, c;
	struct event_map em;
	struct name_list extra = {0};
	size_t i;
	hsize_t m;
	int rc;

	snprintf(obj0, sizeof obj0, "/events/%s", n0);
	snprintf(obj1, sizeof obj1, "/events/%s", n1);
	if (!delta && !sv_h5_exists(ev, "start_times"))
		return sv_h5_fail(h, -EINVAL, "/events",
			"has neither start_deltas (schema 3) nor start_times "
			"(schema 2): the event start times are missing");
	rc = sv_h5_col_open(
		h, ev, n0, obj0, SV_H5_REQUIRED | SV_H5_INT, (hsize_t)-1, &c0);
	if (rc)
		return rc;
	m = c0.n;
	rc = sv_h5_col_open(
		h, ev, n1, obj1, SV_H5_REQUIRED | SV_H5_INT, (hsize_t)-1, &c1);
	if (rc) {
		sv_h5_col_close(&c0);
		return rc;
	}
	if (c1.n < m) {
		rc = sv_h5_fail(h, -EINVAL, obj1,
			"holds %llu values, but %s holds %llu events; the "
			"file is truncated or damaged",
			(unsigned long long)c1.n, obj0, (unsigned long long)m);
		goto out;
	}
	if (c1.n > m)
		sv_profile_warn(h->p,
			"%s: holds %llu values, but %s holds %llu events; "
			"the extra values are ignored",
			obj1, (unsigned long long)c1.n, obj0,
			(unsigned long long)m);
	rc = index_check_events(h, ix, m, obj0);
	if (rc)
		goto out;
	{
		uint64_t total = 0;
		for (i = 0; i < ix->nrows; i++)
			total += (uint64_t)ix->count[i];
		sv_profile_reserve_calls(p, total);
	}

	for (i = 0; i < ix->nrows; i++)
		if (!sv_profile_add_row(p, (uint32_t)ix->rank[i],
			    (uint32_t)ix->region[i], (uint64_t)ix->count[i],
			    h->err)) {
			rc = row_fail(h, "/rank_region_index/event_counts");
			goto out;
		}
	rc = sv_h5_step(h, 0.15, "events");
	if (rc)
		goto out;

	/* Progress: starts 0.15-0.35, ends 0.35-0.55, the optional columns
	 * 0.05 each up to 0.85, extra columns up to 0.9. */
	event_map_build(&em, ix);
	em.f0 = 0.15;
	em.f1 = 0.35;
	rc = event_read(h, &em, c0.ds, obj0, H5T_NATIVE_INT64, p->start_ns);
	em.f0 = 0.35;
	em.f1 = 0.55;
	if (!rc)
		rc = event_read(
			h, &em, c1.ds, obj1, H5T_NATIVE_INT64, p->end_ns);
	if (rc)
		goto out;
	if (delta)
		decode_deltas(p);

	for (i = 0; i < sizeof optional_cols / sizeof optional_cols[0]; i++) {
		int64_t **col = (int64_t **)(void *)((char *)p +
						     optional_cols[i].member);
		snprintf(obj, sizeof obj, "/events/%s", optional_cols[i].name);
		rc = sv_h5_col_open(
			h, ev, optional_cols[i].name, obj, SV_H5_INT, m, &c);
		if (rc < 0)
			goto out;
		if (rc == SV_H5_ABSENT) {
			rc = 0;
			continue;
		}
		sv_profile_column(p, col, optional_cols[i].fill);
		em.f0 = 0.55 + 0.05 * (double)i;
		em.f1 = em.f0 + 0.05;
		rc = event_read(h, &em, c.ds, obj, H5T_NATIVE_INT64, *col);
		sv_h5_col_close(&c);
		if (rc)
			goto out;
	}
	sv_h5_rows_gpu(p);

	/* Every other 1-D numeric dataset as long as the events: a named
	 * extra column (FORMAT.md 8). */
	group_links(ev, &extra);
	for (i = 0; i < extra.n && rc == 0; i++) {
		struct sv_column *xc;
		char *name;
		if (event_known(extra.v[i]))
			continue;
		name = sv_utf8_sanitize(extra.v[i], strlen(extra.v[i]));
		{
			char *shown = sv_h5_show(name);
			snprintf(obj, sizeof obj, "/events/%s", shown);
			free(shown);
		}
		rc = sv_h5_col_open(
			h, ev, extra.v[i], obj, SV_H5_NUMBER, m, &c);
		if (rc == 0) {
			xc = sv_profile_add_extra(p, name, c.is_float);
			em.f0 = 0.85 + 0.05 * (double)i / (double)extra.n;
			em.f1 = 0.85 + 0.05 * (double)(i + 1) / (double)extra.n;
			rc = event_read(h, &em, c.ds, obj,
				c.is_float ? H5T_NATIVE_DOUBLE
					   : H5T_NATIVE_INT64,
				c.is_float ? (void *)xc->f : (void *)xc->i);
			sv_h5_col_close(&c);
		} else if (rc == SV_H5_ABSENT) {
			rc = 0;
		}
		free(name);
	}
	name_list_free(&extra);
out:
	sv_h5_col_close(&c0);
	sv_h5_col_close(&c1);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Layouts                                                             */

static hid_t open_group(struct sv_h5 *h, const char *name, int *rc)
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

/* The region names and the two index columns every layout with a
 * /rank_region_index has: region_ids and ranks.  *g is the opened group
 * (H5I_INVALID_HID when it could not be opened); the caller closes it and
 * frees ix, also on failure. */
static int index_open(struct sv_h5 *h, struct index *ix, hid_t *g)
{
	int rc = load_names(h, ix);

	*g = H5I_INVALID_HID;
	if (rc)
		return rc;
	*g = open_group(h, "rank_region_index", &rc);
	if (rc)
		return rc;
	ix->nrows = (hsize_t)-1;
	rc = index_ints(h, *g, "region_ids", &ix->nrows, &ix->region);
	if (!rc)
		rc = index_ints(h, *g, "ranks", &ix->nrows, &ix->rank);
	return rc;
}

/* Schema 2/3 columnar layout (FORMAT.md 1, 2). */
static int load_columnar(struct sv_h5 *h)
{
	struct sv_profile *p = h->p;
	struct index ix = {0};
	hid_t g = H5I_INVALID_HID, ev = H5I_INVALID_HID;
	hsize_t r;
	int rc;

	p->layout = SV_LAYOUT_COLUMNAR;
	p->has_calls = !(h->opts && h->opts->summary_only);
	rc = index_open(h, &ix, &g);
	if (!rc)
		rc = index_ints(h, g, "event_offsets", &ix.nrows, &ix.offset);
	if (!rc)
		rc = index_ints(h, g, "event_counts", &ix.nrows, &ix.count);
	if (!rc)
		rc = index_check_ids(h, &ix);
	if (!rc)
		rc = sv_h5_step(h, 0.1, "index");
	if (rc)
		goto out;

	if (!p->has_calls) {
		for (r = 0; r < ix.nrows; r++) {
			if (ix.count[r] < 0) {
				rc = sv_h5_fail(h, -EINVAL,
					"/rank_region_index/event_counts",
					"row %llu claims %" PRId64 " calls",
					(unsigned long long)r, ix.count[r]);
				goto out;
			}
			if (!sv_profile_add_row(p, (uint32_t)ix.rank[r],
				    (uint32_t)ix.region[r],
				    (uint64_t)ix.count[r], h->err)) {
				rc = row_fail(
					h, "/rank_region_index/event_counts");
				goto out;
			}
		}
	} else {
		ev = open_group(h, "events", &rc);
		if (rc)
			goto out;
		rc = load_events(h, ev, &ix);
		if (rc)
			goto out;
	}
	rc = index_row_extras(h, g, &ix);
	if (rc)
		goto out;
	if (!p->has_calls)
		for (r = 0; r < p->nrows; r++)
			p->rows[r].has_gpu = p->rows[r].has_summary &&
					     p->rows[r].summary.gpu_count > 0;
out:
	if (g >= 0)
		H5Oclose(g);
	if (ev >= 0)
		H5Oclose(ev);
	index_free(&ix);
	return rc;
}

/* Aggregate layout (FORMAT.md 4): per-row totals, no calls. */
static int load_aggregate(struct sv_h5 *h)
{
	struct sv_profile *p = h->p;
	struct index ix = {0};
	int64_t *tot = NULL, *mn = NULL, *mx = NULL, *ex = NULL;
	hid_t g;
	hsize_t r;
	int rc;

	p->layout = SV_LAYOUT_AGGREGATE;
	p->has_calls = false;
	rc = index_open(h, &ix, &g);
	if (!rc)
		rc = index_ints(h, g, "aggregate_counts", &ix.nrows, &ix.count);
	if (!rc)
		rc = index_ints(h, g, "aggregate_totals", &ix.nrows, &tot);
	if (!rc)
		rc = index_ints(h, g, "aggregate_minimums", &ix.nrows, &mn);
	if (!rc)
		rc = index_ints(h, g, "aggregate_maximums", &ix.nrows, &mx);
	if (!rc)
		rc = index_ints(h, g, "aggregate_exclusives", &ix.nrows, &ex);
	if (!rc)
		rc = index_check_ids(h, &ix);
	for (r = 0; r < ix.nrows && !rc; r++) {
		struct sv_row *row;
		if (ix.count[r] < 0) {
			rc = sv_h5_fail(h, -EINVAL,
				"/rank_region_index/aggregate_counts",
				"row %llu claims %" PRId64 " calls",
				(unsigned long long)r, ix.count[r]);
			break;
		}
		row = sv_profile_add_row(p, (uint32_t)ix.rank[r],
			(uint32_t)ix.region[r], (uint64_t)ix.count[r], h->err);
		if (!row) {
			rc = row_fail(h, "/rank_region_index/aggregate_counts");
			break;
		}
		row->has_summary = true;
		row->summary.total = tot[r];
		row->summary.minimum = mn[r];
		row->summary.maximum = mx[r];
		row->summary.mean =
			ix.count[r] ? (double)tot[r] / (double)ix.count[r] : 0;
		row->exclusive_total = ex[r] >= 0 ? ex[r] : -1;
	}
	if (g >= 0)
		H5Oclose(g);
	free(tot);
	free(mn);
	free(mx);
	free(ex);
	index_free(&ix);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Opening and dispatch                                                */

static int schema_attr(struct sv_h5 *h, int *schema)
{
	const char *obj = "/@scope_profiler_schema";
	H5T_class_t cls;
	hssize_t count;
	hid_t a = attr_open(h->file, "scope_profiler_schema", &cls, &count);
	hid_t s;
	int64_t v = 0;
	bool scalar;

	*schema = 0;
	if (a < 0) {
		if (H5Aexists(h->file, "scope_profiler_schema") > 0)
			return sv_h5_fail(h, -EIO, obj, "cannot read%s",
				sv_h5_last_error());
		return 0;
	}
	s = H5Aget_space(a);
	scalar = H5Sget_simple_extent_type(s) == H5S_SCALAR;
	H5Sclose(s);
	if (cls != H5T_INTEGER || !scalar) {
		char *text = NULL;
		if (cls == H5T_STRING && scalar &&
			sv_h5_attr_string(
				h->file, "scope_profiler_schema", &text) == 0) {
			char *shown = sv_h5_show(text);
			free(text);
			text = shown;
		}
		H5Aclose(a);
		sv_h5_fail(h, -EINVAL, obj,
			"the schema version must be an integer, but it is "
			"%s%s%s%s%s",
			cls == H5T_ENUM ? "a bool" : class_name(cls),
			scalar ? "" : " array", text ? " (\"" : "",
			text ? text : "", text ? "\")" : "");
		free(text);
		return h->err ? h->err->code : -EINVAL;
	}
	{
		hid_t t = H5Aget_type(a);
		bool uns = H5Tget_sign(t) == H5T_SGN_NONE;
		H5Tclose(t);
		if (uns) {
			uint64_t u;
			if (H5Aread(a, H5T_NATIVE_UINT64, &u) < 0) {
				H5Aclose(a);
				return sv_h5_fail(h, -EIO, obj, "cannot read%s",
					sv_h5_last_error());
			}
			v = u > INT64_MAX ? INT64_MAX : (int64_t)u;
		} else if (H5Aread(a, H5T_NATIVE_INT64, &v) < 0) {
			H5Aclose(a);
			return sv_h5_fail(h, -EIO, obj, "cannot read%s",
				sv_h5_last_error());
		}
	}
	H5Aclose(a);
	if (v < 1)
		return sv_h5_fail(h, -EINVAL, obj,
			"schema version %" PRId64
			" is invalid: versions must be positive",
			v);
	if (v > 3)
		return sv_h5_fail(h, -ENOTSUP, obj,
			"schema version %" PRId64
			" is newer than this scopeview, which reads versions "
			"1 to 3; upgrade scopeview to read this file",
			v);
	*schema = (int)v;
	return 0;
}

/* Columnar (1) or aggregate (2), from storage_layout. */
static int layout_attr(struct sv_h5 *h)
{
	char *s = NULL;
	int rc = sv_h5_attr_string(h->file, "storage_layout", &s);
	int kind = 1;

	if (rc == SV_H5_ABSENT)
		return 1;
	if (rc < 0) {
		sv_profile_warn(h->p, "/@storage_layout: not a string; "
				      "reading the file as columnar");
		return 1;
	}
	if (!strcmp(s, "aggregate")) {
		kind = 2;
	} else if (strcmp(s, "columnar")) {
		char *shown = sv_h5_show(s);
		sv_profile_warn(h->p,
			"/@storage_layout: unknown layout \"%s\"; reading the "
			"file as columnar",
			shown);
		free(shown);
	}
	free(s);
	return kind;
}

/* Does the file have the schema 2/3 groups? */
static bool looks_columnar(hid_t file)
{
	return sv_h5_exists(file, "rank_region_index") &&
	       sv_h5_exists(file, "region_table") &&
	       (sv_h5_exists(file, "events") ||
		       H5Aexists(file, "storage_layout") > 0);
}

static int load_dispatch(struct sv_h5 *h)
{
	int schema, rc;

	rc = schema_attr(h, &schema);
	if (rc)
		return rc;
	h->p->schema = schema;
	rc = load_metadata(h);
	if (!rc)
		rc = load_tables(h);
	if (!rc)
		rc = sv_h5_step(h, 0.05, "metadata");
	if (rc)
		return rc;
	if (schema <= 1 && looks_columnar(h->file)) {
		if (schema == 0)
			sv_profile_warn(h->p,
				"/@scope_profiler_schema: attribute missing, "
				"but the file has the columnar layout "
				"(/events, /rank_region_index); read as "
				"columnar");
		else
			sv_profile_warn(h->p,
				"/@scope_profiler_schema: says 1, but the file "
				"has the columnar layout (/events, "
				"/rank_region_index); read as columnar");
		schema = 2;
	}
	if (schema <= 1)
		return sv_load_h5_groups(h);
	if (layout_attr(h) == 2)
		return load_aggregate(h);
	return load_columnar(h);
}

/* num_ranks for schema >= 2 (FORMAT.md 5.3). */
static void set_num_ranks(struct sv_profile *p)
{
	int64_t size = 1, maxr = -1;
	size_t r;

	if (p->layout == SV_LAYOUT_GROUPS)
		return; /* load_h5_groups.c counted the rank groups */
	if (p->nrows == 0) {
		p->num_ranks = 0;
		return;
	}
	if (!meta_int(p, "mpi_size", &size))
		size = 1;
	for (r = 0; r < p->nrows; r++)
		if ((int64_t)p->rows[r].rank > maxr)
			maxr = p->rows[r].rank;
	if (maxr + 1 > size)
		size = maxr + 1;
	if (size < 1)
		size = 1;
	p->num_ranks = size > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)size;
}

/* Checks HDF5 cannot make clear: missing, a directory, empty, no HDF5
 * signature. */
static int precheck(struct sv_h5 *h)
{
	static const unsigned char sig[8] = {
		0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
	struct stat st;
	unsigned char buf[8];
	off_t at;
	int fd, e;
	bool found = false;

	if (stat(h->path, &st) != 0) {
		e = errno;
		if (e == ENOENT)
			return sv_h5_fail(h, -ENOENT, NULL, "no such file");
		return sv_h5_fail(h, -e, NULL, "cannot open: %s", strerror(e));
	}
	h->file_bytes = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	if (S_ISDIR(st.st_mode))
		return sv_h5_fail(h, -EISDIR, NULL,
			"is a directory, not an HDF5 profile");
	/* Opening a FIFO would wait for a writer forever. */
	if (!S_ISREG(st.st_mode))
		return sv_h5_fail(h, -EINVAL, NULL,
			"is not a regular file, so not an HDF5 profile");
	fd = open(h->path, O_RDONLY);
	if (fd < 0) {
		e = errno;
		return sv_h5_fail(h, -e, NULL, "cannot open: %s", strerror(e));
	}
	if (S_ISREG(st.st_mode) && st.st_size == 0) {
		close(fd);
		return sv_h5_fail(h, -EINVAL, NULL,
			"is empty (0 bytes), not an HDF5 profile; a run "
			"interrupted while writing can leave such a file");
	}
	/* The superblock sits at 0, 512, 1024, 2048, ... */
	for (at = 0; !found; at = at ? at * 2 : 512) {
		if (S_ISREG(st.st_mode) && at + 8 > st.st_size)
			break;
		if (pread(fd, buf, 8, at) != 8)
			break;
		found = !memcmp(buf, sig, 8);
		if (at > ((off_t)1 << 40))
			break;
	}
	close(fd);
	if (!found)
		return sv_h5_fail(h, -EINVAL, NULL,
			"not an HDF5 file (no HDF5 signature found)");
	return 0;
}

/* Everything between opening and closing the file: the section a crash
 * inside HDF5 jumps out of.  Leaves the new profile in h->p. */
static int load_file(struct sv_h5 *h)
{
	const char *why;
	hid_t fapl;
	int rc;

	sv_h5_at("/");
	fapl = H5Pcreate(H5P_FILE_ACCESS);
	/* Never block a writer appending to the profile (FORMAT.md 9).
	 * Older HDF5 has no switch: HDF5_USE_FILE_LOCKING=FALSE does it. */
#if H5_VERSION_GE(1, 10, 7)
	H5Pset_file_locking(fapl, 0, 1);
#endif
	/* Closing the file closes whatever an error path left open. */
	H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG);
	h->file = H5Fopen(h->path, H5F_ACC_RDONLY, fapl);
	why = h->file < 0 ? sv_h5_last_error() : "";
	H5Pclose(fapl);
	if (h->file < 0)
		return sv_h5_fail(h, -EIO, NULL,
			"not a readable HDF5 file: it is truncated or damaged "
			"(a run interrupted while writing leaves a truncated "
			"file behind)%s",
			why);

	h->p = sv_profile_new(h->path);
	rc = sv_h5_step(h, 0.0, "opening");
	if (!rc)
		rc = load_dispatch(h);
	sv_h5_at("/ (closing the file)");
	H5Fclose(h->file);
	h->file = H5I_INVALID_HID;
	return rc;
}

/* load_file under the guard against crashes inside HDF5 (FORMAT.md 9;
 * load_h5_guard.c).  *crashed tells whether the guard fired. */
static int load_guarded(struct sv_h5 *h, bool *crashed)
{
	struct sv_h5_guard guard;
	int rc;

	sv_h5_guard_begin(&guard);
	if (sigsetjmp(guard.jb, 1) == 0) {
		sv_h5_guard_arm(&guard);
		rc = load_file(h);
		sv_h5_guard_disarm();
	} else {
		/* HDF5 crashed: never call it again in this process.  The
		 * partial profile is left alone (leaked): HDF5 may have
		 * written over the heap before it crashed, and freeing it
		 * could abort. */
		sv_h5_fast_abort();
		h->p = NULL;
		h->err->code = 0;
		*crashed = true;
		if (sv_h5_guard_is_watchdog(guard.sig))
			rc = sv_h5_fail(h, -EIO, NULL,
				"damaged: the HDF5 library went round in "
				"circles while reading %s and was stopped "
				"(the file is corrupt)",
				sv_h5_guard_object());
		else
			rc = sv_h5_fail(h, -EIO, NULL,
				"damaged: the HDF5 library crashed while "
				"reading %s (the file is corrupt)",
				sv_h5_guard_object());
		sv_h5_guard_note(h->err->msg);
	}
	sv_h5_guard_end(&guard);
	return rc;
}

/* One load's HDF5 work, on a thread of its own. */
struct load_run {
	struct sv_h5 *h;
	pthread_mutex_t mu;
	pthread_cond_t cv; /* done became true */
	int rc;
	bool done, crashed;
};

static void *load_run_main(void *arg)
{
	struct load_run *r = arg;
	bool crashed = false;
	int rc;

	sv_load_quiet_hdf5();
	attr_max_count = r->h->file_bytes;
	rc = load_guarded(r->h, &crashed);
	pthread_mutex_lock(&r->mu);
	r->rc = rc;
	r->crashed = crashed;
	r->done = true;
	pthread_cond_signal(&r->cv);
	pthread_mutex_unlock(&r->mu);
	/* After a crash inside HDF5 this thread's allocator caches may be
	 * damaged, and a thread frees them when it ends: so it never ends. */
	while (crashed)
		pause();
	return NULL;
}

/*
 * Run the HDF5 part of a load on a new thread while the caller waits.
 * Then what libhdf5 damages when it runs wild on a corrupted file is
 * mostly that thread's own: its allocator arena and caches, its stack;
 * after a crash the thread is parked for good instead of ending (ending
 * would free its caches and could abort), and the caller carries on with
 * a heap libhdf5 less likely touched.  The thread blocks every signal but
 * the guard's.
 */
static int load_isolated(struct sv_h5 *h)
{
	struct load_run r;
	sigset_t all, old;
	pthread_t t;
	bool started, crashed = false;
	int rc;

	memset(&r, 0, sizeof r);
	r.h = h;
	pthread_mutex_init(&r.mu, NULL);
	pthread_cond_init(&r.cv, NULL);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	started = pthread_create(&t, NULL, load_run_main, &r) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!started) {
		/* No thread to spare: load here. */
		pthread_cond_destroy(&r.cv);
		pthread_mutex_destroy(&r.mu);
		return load_guarded(h, &crashed);
	}
	pthread_mutex_lock(&r.mu);
	while (!r.done)
		pthread_cond_wait(&r.cv, &r.mu);
	rc = r.rc;
	crashed = r.crashed;
	pthread_mutex_unlock(&r.mu);
	if (crashed)
		pthread_detach(t);
	else
		pthread_join(t, NULL);
	pthread_cond_destroy(&r.cv);
	pthread_mutex_destroy(&r.mu);
	return rc;
}

int sv_load(const char *path, const struct sv_load_opts *opts,
	struct sv_profile **out, struct sv_error *err)
{
	struct sv_h5 h = {0};
	struct sv_error local;
	int rc;

	if (!err)
		err = &local;
	err->code = 0;
	err->msg[0] = '\0';
	if (!path || !out)
		return sv_error_set(err, -EINVAL, "sv_load: no path given");
	if (sv_h5_guard_tripped())
		return sv_error_set(err, -EIO,
			"%s: not loaded: the HDF5 library is in an unknown "
			"state after reading a damaged file; restart scopeview "
			"(%s)",
			path, sv_h5_guard_first());
	sv_load_quiet_hdf5();
	h.path = path;
	h.err = err;
	h.opts = opts;
	h.file = H5I_INVALID_HID;
	rc = precheck(&h);
	if (rc)
		return rc;
	attr_max_count = h.file_bytes;

	rc = load_isolated(&h);
	if (!rc) {
		set_num_ranks(h.p);
		rc = sv_h5_step(&h, 0.9, "nesting");
	}
	if (!rc)
		rc = sv_profile_finish(h.p, err);
	if (!rc)
		rc = sv_h5_step(&h, 1.0, "done");
	if (rc) {
		if (!err->code)
			sv_error_set(err, rc, "%s: cannot load", path);
		sv_profile_free(h.p);
		return rc;
	}
	*out = h.p;
	return 0;
}
