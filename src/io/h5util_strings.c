/*
 * h5util_strings.c: string datasets and string attributes (h5util.h),
 * the one place the loader turns HDF5 strings into C strings: variable
 * length (each checked against its global heap first, load_h5_vlen.c)
 * or fixed length (cut at the first NUL, space padding dropped), every
 * one sanitised (invalid UTF-8 replaced).  Nothing here prints.
 */
#include "h5util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_h5_chunks.h"
#include "load_h5_filters.h"
#include "load_h5_guard.h"
#include "load_h5_vlen.h"

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

/* Decode n strings from a buffer read with string_memtype into out. */
static void strings_decode(char **out, const char *buf, size_t n, bool is_vlen,
	size_t size, bool spacepad)
{
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
}

/* The n elements fspace selects of string dataset ds (H5S_ALL: all n)
 * into out[0 .. n), variable-length ones checked first. */
static int strings_read(struct sv_h5 *h, hid_t ds, const char *objpath,
	hid_t fspace, size_t n, char **out)
{
	hid_t ftype, mtype, mspace = H5S_ALL;
	bool is_vlen, spacepad;
	size_t size;
	char *buf, why[SV_H5_WHY_MAX + 128];
	hsize_t m = n;
	int rc = 0;

	if (n == 0)
		return 0;
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
	h->refused = false;
	if (is_vlen)
		rc = fspace == H5S_ALL
			     ? sv_h5_vlen_check(ds, 0, why, sizeof why)
			     : sv_h5_vlen_check_points(
				       ds, fspace, why, sizeof why);
	if (rc) {
		H5Tclose(mtype);
		if (rc != -EBADMSG)
			return sv_h5_fail(h, -EIO, objpath,
				"damaged: %s (the file is corrupt)", why);
		/* A chunk of the descriptors does not decode to its size. */
		h->refused = true;
		return sv_h5_read_fail(h, objpath, why);
	}
	mspace = fspace == H5S_ALL ? H5Dget_space(ds)
				   : H5Screate_simple(1, &m, NULL);
	buf = sv_xcalloc(n, size ? size : 1);
	if (sv_h5_chunks_read(ds, mtype, fspace == H5S_ALL ? H5S_ALL : mspace,
		    fspace, buf, why, sizeof why, &h->refused) < 0) {
		rc = sv_h5_read_fail(h, objpath, why);
	} else {
		strings_decode(out, buf, n, is_vlen, size, spacepad);
		if (is_vlen)
			H5Dvlen_reclaim(mtype, mspace, H5P_DEFAULT, buf);
	}
	free(buf);
	if (mspace >= 0)
		H5Sclose(mspace);
	H5Tclose(mtype);
	return rc;
}

int sv_h5_read_strings(
	struct sv_h5 *h, hid_t ds, const char *objpath, hsize_t n, char ***out)
{
	int rc;

	if (n > SIZE_MAX / sizeof **out)
		return sv_h5_fail(h, -EINVAL, objpath, "is too large");
	*out = sv_xcalloc(n ? (size_t)n : 1, sizeof **out);
	rc = strings_read(h, ds, objpath, H5S_ALL, (size_t)n, *out);
	if (rc < 0) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

int sv_h5_read_strings_at(struct sv_h5 *h, hid_t ds, const char *objpath,
	const hsize_t *rows, size_t n, char **out)
{
	hid_t fspace;
	int rc;

	if (n == 0)
		return 0;
	fspace = H5Dget_space(ds);
	if (fspace < 0 ||
		H5Sselect_elements(fspace, H5S_SELECT_SET, n, rows) < 0) {
		if (fspace >= 0)
			H5Sclose(fspace);
		return sv_h5_fail(h, -EIO, objpath, "cannot select%s",
			sv_h5_last_error());
	}
	rc = strings_read(h, ds, objpath, fspace, n, out);
	H5Sclose(fspace);
	return rc;
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
	*out = sv_xcalloc(n ? n : 1, sizeof **out);
	strings_decode(*out, buf, n, is_vlen, size, spacepad);
	if (is_vlen && n) {
		space = H5Aget_space(a);
		H5Dvlen_reclaim(mtype, space, H5P_DEFAULT, buf);
		H5Sclose(space);
	}
	free(buf);
	H5Tclose(mtype);
	return 0;
}
