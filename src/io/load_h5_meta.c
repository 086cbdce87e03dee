/*
 * load_h5_meta.c: /metadata (doc/format.md 3) into the profile's metadata.
 *
 * Every attribute becomes one entry, its value shown the way Python's
 * str() shows what h5py returns: numbers with repr(), arrays as lists,
 * strings sanitised.  Nothing here fails on a strange value: it becomes a
 * warning or the closest text.
 */
#include "load_h5_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/fmt.h"
#include "load_h5_guard.h"

/* ------------------------------------------------------------------ */
/* Metadata: every attribute of /metadata, as Python's str() shows it   */

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
			sv_fmt_py_float(v[i].f, H5Tget_size(ftype) <= 4, buf,
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
	text = sv_strv_join(parts, n, ", ");
	sv_strv_free_array(parts, n);
	free(v);
	return text;
}

/* One /metadata attribute into the profile; never fails the load. */
static void meta_one(struct sv_profile *p, hid_t grp, const char *rawname)
{
	H5T_class_t cls;
	hssize_t count;
	hid_t a = sv_h5_attr_open(grp, rawname, &cls, &count);
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
		m->text = sv_xasprintf("<%s attribute of another shape>",
			sv_h5_class_name(cls));
	} else if (cls == H5T_STRING) {
		char **s = NULL;
		if (sv_h5_attr_read_strings(a, (size_t)count, &s) < 0) {
			m = sv_profile_add_meta(p, key, SV_META_OTHER);
			m->text = sv_xstrdup("<unreadable string attribute>");
		} else if (scalar) {
			m = sv_profile_add_meta(p, key, SV_META_STRING);
			m->text = s[0];
			free(s);
		} else {
			m = sv_profile_add_meta(p, key, SV_META_STRINGS);
			m->text = sv_strv_join(s, (size_t)count, ", ");
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
			sv_h5_class_name(cls),
			ftype >= 0 ? H5Tget_size(ftype) : (size_t)0);
	}
	if (ftype >= 0)
		H5Tclose(ftype);
	H5Aclose(a);
	free(key);
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

int sv_h5_meta_load(struct sv_h5 *h)
{
	struct sv_strv l = {0};
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
	sv_h5_attr_names(g, &l);
	for (i = 0; i < l.n; i++)
		meta_one(h->p, g, l.v[i]);
	sv_strv_fini(&l);
	H5Oclose(g);

	/* profile.c derives start/finalize times from these in finish. */
	return 0;
}

bool sv_h5_meta_int(const struct sv_profile *p, const char *key, int64_t *v)
{
	size_t i;
	for (i = 0; i < p->nmeta; i++)
		if (!strcmp(p->meta[i].key, key))
			return meta_number(&p->meta[i], v);
	return false;
}
