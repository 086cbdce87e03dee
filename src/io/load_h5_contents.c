/*
 * load_h5_contents.c: the list of every group and dataset of the file
 * (doc/format.md 4.13), walked once with H5Ovisit at load time so that
 * the viewer's "file contents" popup can show what the file holds beyond
 * what scopeview reads, without the ui calling HDF5.
 */
#include "load_h5_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_h5_guard.h"

/* More objects than this are cut (a schema 1 file of many regions). */
#define CONTENTS_MAX_NODES 100000

/* The type of a dataset as a person reads it: "int64", "float32",
 * "string (variable)", "compound (88 bytes)". */
static void contents_type(hid_t t, char *buf, size_t n)
{
	size_t size = H5Tget_size(t);

	switch (H5Tget_class(t)) {
	case H5T_INTEGER:
		snprintf(buf, n, "%sint%zu",
			H5Tget_sign(t) == H5T_SGN_NONE ? "u" : "", size * 8);
		break;
	case H5T_FLOAT:
		snprintf(buf, n, "float%zu", size * 8);
		break;
	case H5T_STRING:
		if (H5Tis_variable_str(t) > 0)
			snprintf(buf, n, "string (variable)");
		else
			snprintf(buf, n, "string (%zu bytes)", size);
		break;
	case H5T_COMPOUND:
		snprintf(buf, n, "compound of %d (%zu bytes)",
			H5Tget_nmembers(t), size);
		break;
	case H5T_ENUM:
		snprintf(buf, n, "enum (%zu bytes)", size);
		break;
	default:
		snprintf(buf, n, "other (%zu bytes)", size);
	}
}

/* "{3000} int64, chunked {1024}, shuffle + deflate (gzip)". */
static char *contents_dataset(hid_t ds)
{
	hid_t sp = H5Dget_space(ds), t = H5Dget_type(ds);
	hid_t dcpl = H5Dget_create_plist(ds);
	char out[512], type[64];
	size_t used = 0;
	int nd = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1, i, nf;
	hsize_t dims[8], chunk[8];

	if (nd < 0 || nd > 8)
		used += (size_t)snprintf(out, sizeof out, "{?}");
	else if (nd == 0)
		used += (size_t)snprintf(out, sizeof out, "scalar");
	else {
		H5Sget_simple_extent_dims(sp, dims, NULL);
		for (i = 0; i < nd && used < sizeof out; i++)
			used += (size_t)snprintf(out + used, sizeof out - used,
				"%s%llu", i ? ", " : "{",
				(unsigned long long)dims[i]);
		if (used < sizeof out)
			used += (size_t)snprintf(
				out + used, sizeof out - used, "}");
	}
	if (t >= 0)
		contents_type(t, type, sizeof type);
	else
		snprintf(type, sizeof type, "?");
	if (used < sizeof out)
		used += (size_t)snprintf(
			out + used, sizeof out - used, " %s", type);
	if (dcpl >= 0 && used < sizeof out) {
		H5D_layout_t lay = H5Pget_layout(dcpl);
		if (lay == H5D_CHUNKED && H5Pget_chunk(dcpl, 8, chunk) == nd &&
			nd > 0) {
			used += (size_t)snprintf(
				out + used, sizeof out - used, ", chunked ");
			for (i = 0; i < nd && used < sizeof out; i++)
				used += (size_t)snprintf(out + used,
					sizeof out - used, "%s%llu",
					i ? ", " : "{",
					(unsigned long long)chunk[i]);
			if (used < sizeof out)
				used += (size_t)snprintf(
					out + used, sizeof out - used, "}");
		} else if (lay == H5D_COMPACT) {
			used += (size_t)snprintf(
				out + used, sizeof out - used, ", compact");
		}
		nf = H5Pget_nfilters(dcpl);
		for (i = 0; i < nf && used < sizeof out; i++) {
			unsigned flags = 0, cd[8];
			size_t ncd = 8;
			char name[64] = "";
			H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i,
				&flags, &ncd, cd, sizeof name, name, NULL);
			used += (size_t)snprintf(out + used, sizeof out - used,
				"%s%s", i ? " + " : ", ",
				sv_h5_filter_name(id, name));
		}
	}
	if (dcpl >= 0)
		H5Pclose(dcpl);
	if (t >= 0)
		H5Tclose(t);
	if (sp >= 0)
		H5Sclose(sp);
	return sv_xstrdup(out);
}

static herr_t contents_visit(
	hid_t obj, const char *name, const H5O_info_t *info, void *data)
{
	struct sv_h5 *h = data;
	struct sv_profile *p = h->p;
	struct sv_node *n;
	char *shown;

	if (!strcmp(name, "."))
		return 0;
	if (p->nnodes >= CONTENTS_MAX_NODES) {
		p->nodes_cut = true;
		return 1; /* stop */
	}
	if (p->nnodes % 256 == 0)
		p->nodes = sv_xreallocarray(
			p->nodes, p->nnodes + 256, sizeof *p->nodes);
	n = &p->nodes[p->nnodes++];
	shown = sv_h5_show(name);
	n->path = sv_xasprintf("/%s", shown);
	free(shown);
	if (info->type == H5O_TYPE_GROUP) {
		n->what = sv_xstrdup("group");
	} else if (info->type == H5O_TYPE_DATASET) {
		hid_t ds = H5Dopen2(obj, name, H5P_DEFAULT);
		n->what = ds >= 0 ? contents_dataset(ds)
				  : sv_xstrdup("dataset (cannot open)");
		if (ds >= 0)
			H5Dclose(ds);
	} else if (info->type == H5O_TYPE_NAMED_DATATYPE) {
		n->what = sv_xstrdup("named datatype");
	} else {
		n->what = sv_xstrdup("unknown object");
	}
	return 0;
}

int sv_h5_contents_load(struct sv_h5 *h)
{
	sv_h5_at("/ (listing the file's objects)");
	if (H5Ovisit2(h->file, H5_INDEX_NAME, H5_ITER_INC, contents_visit, h,
		    H5O_INFO_BASIC) < 0)
		sv_profile_warn(h->p,
			"/: could not list every object of the file%s",
			sv_h5_last_error());
	return 0;
}
