/*
 * load_h5_links.c: refuse what scope-profiler never writes and libhdf5
 * would follow out of the file: external links, user-defined links and
 * virtual datasets (doc/format.md 12).  Part of the loader (load_h5_priv.h).
 *
 * Following an external link, or reading a virtual dataset, makes libhdf5
 * open() another path: a FIFO there blocks for ever (no CPU time passes,
 * so the guard's watchdog never fires), and a virtual dataset whose
 * source file is missing reads as its fill value, zeros, without an
 * error.  So before the loader looks at any object, every link of the
 * file is visited (H5Lvisit follows hard links only and never traverses
 * the others) and the first external or user-defined link, or dataset
 * with the virtual layout, fails the load with a message that names it.
 * As a second line, libhdf5's external link class is replaced, for the
 * whole process, by one that refuses to be traversed, so that no lookup
 * can follow one.
 *
 * The same walk notes each object's address once, so that the events
 * reader counts a column reachable by several names (hard links) once.
 */
#include "load_h5_priv.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_h5_guard.h"

struct links_walk {
	struct sv_h5 *h;
	struct sv_h5_objects seen; /* datasets already checked */
	size_t nlinks;
	int rc;
};

#define LINKS_MAX ((size_t)1 << 22)

/* Our external link class: reports the link's value as libhdf5's does
 * (so the walk can name the target) but refuses to traverse it. */
static hid_t links_ext_traverse(const char *link_name, hid_t cur_group,
	const void *lnkdata, size_t lnkdata_size, hid_t lapl_id, hid_t dxpl_id)
{
	(void)link_name;
	(void)cur_group;
	(void)lnkdata;
	(void)lnkdata_size;
	(void)lapl_id;
	(void)dxpl_id;
	return H5I_INVALID_HID;
}

static ssize_t links_ext_query(const char *link_name, const void *lnkdata,
	size_t lnkdata_size, void *buf, size_t buf_size)
{
	(void)link_name;
	if (buf && buf_size)
		memcpy(buf, lnkdata,
			buf_size < lnkdata_size ? buf_size : lnkdata_size);
	return (ssize_t)lnkdata_size;
}

static void links_replace_external(void)
{
	static const H5L_class_t cls = {
		H5L_LINK_CLASS_T_VERS,
		H5L_TYPE_EXTERNAL,
		"external links refused by scopeview",
		NULL,
		NULL,
		NULL,
		links_ext_traverse,
		NULL,
		links_ext_query,
	};
	/* Fails (harmlessly, the walk still refuses) on a libhdf5 that does
	 * not let a class be replaced. */
	(void)H5Lregister(&cls);
}

/* An open-addressing set of object addresses (HADDR_UNDEF: empty). */
static size_t objects_slot(const struct sv_h5_objects *o, haddr_t a)
{
	uint64_t x = (uint64_t)a * UINT64_C(0x9E3779B97F4A7C15);
	size_t i = (size_t)(x >> 17) & (o->cap - 1);

	while (o->addr[i] != HADDR_UNDEF && o->addr[i] != a)
		i = (i + 1) & (o->cap - 1);
	return i;
}

bool sv_h5_objects_add(struct sv_h5_objects *o, haddr_t a)
{
	size_t i;

	if ((o->n + 1) * 2 > o->cap) {
		struct sv_h5_objects bigger = {0};
		bigger.cap = o->cap ? o->cap * 2 : 64;
		bigger.addr = sv_xmalloc(bigger.cap * sizeof *bigger.addr);
		for (i = 0; i < bigger.cap; i++)
			bigger.addr[i] = HADDR_UNDEF;
		for (i = 0; i < o->cap; i++)
			if (o->addr[i] != HADDR_UNDEF)
				bigger.addr[objects_slot(&bigger, o->addr[i])] =
					o->addr[i];
		bigger.n = o->n;
		free(o->addr);
		*o = bigger;
	}
	i = objects_slot(o, a);
	if (o->addr[i] == a)
		return false;
	o->addr[i] = a;
	o->n++;
	return true;
}

/* "/events/start_deltas", shown safely. */
static void links_obj(const char *name, char *buf, size_t n)
{
	char *shown = sv_h5_show(name);
	snprintf(buf, n, "/%s", shown);
	free(shown);
}

static int links_external(struct links_walk *w, hid_t g, const char *name,
	const H5L_info_t *info, const char *obj)
{
	const char *file = NULL, *target = NULL;
	char *val = NULL, *sf = NULL, *st = NULL;
	unsigned flags;

	if (info->type == H5L_TYPE_EXTERNAL && info->u.val_size > 0 &&
		info->u.val_size < 4096) {
		val = sv_xmalloc(info->u.val_size);
		if (H5Lget_val(g, name, val, info->u.val_size, H5P_DEFAULT) <
				0 ||
			H5Lunpack_elink_val(val, info->u.val_size, &flags,
				&file, &target) < 0)
			file = target = NULL;
	}
	if (file && target) {
		sf = sv_h5_show(file);
		st = sv_h5_show(target);
		sv_h5_fail(w->h, -ENOTSUP, obj,
			"is an external link (to %s in %s); scope-profiler "
			"never writes links to other files, and scopeview "
			"does not follow them",
			st, sf);
	} else {
		sv_h5_fail(w->h, -ENOTSUP, obj,
			"is %s link; scope-profiler never writes those, and "
			"scopeview does not follow them",
			info->type == H5L_TYPE_EXTERNAL ? "an external"
							: "a user-defined");
	}
	free(sf);
	free(st);
	free(val);
	return -ENOTSUP;
}

static int links_virtual(
	struct links_walk *w, hid_t g, const char *name, const char *obj)
{
	hid_t d = H5Dopen2(g, name, H5P_DEFAULT), dcpl;
	H5D_layout_t layout = H5D_LAYOUT_ERROR;
	char src[256] = "";

	if (d < 0)
		return 0; /* the reader that needs it says why */
	dcpl = H5Dget_create_plist(d);
	if (dcpl >= 0) {
		layout = H5Pget_layout(dcpl);
		if (layout == H5D_VIRTUAL) {
			size_t count = 0;
			if (H5Pget_virtual_count(dcpl, &count) >= 0 &&
				count > 0 &&
				H5Pget_virtual_filename(
					dcpl, 0, src, sizeof src) < 0)
				src[0] = '\0';
		}
		H5Pclose(dcpl);
	}
	H5Dclose(d);
	if (layout != H5D_VIRTUAL)
		return 0;
	{
		char *shown = sv_h5_show(src);
		sv_h5_fail(w->h, -ENOTSUP, obj,
			"is a virtual dataset (its values live in %s%s%s); "
			"scope-profiler never writes those, and scopeview "
			"does not read them",
			src[0] ? "'" : "other files", shown, src[0] ? "'" : "");
		free(shown);
	}
	return -ENOTSUP;
}

static herr_t links_visit(
	hid_t g, const char *name, const H5L_info_t *info, void *data)
{
	struct links_walk *w = data;
	char obj[400];
	H5O_info_t oi;

	if (++w->nlinks > LINKS_MAX) {
		w->rc = sv_h5_fail(w->h, -EINVAL, NULL,
			"holds more than %zu links; the file is damaged",
			LINKS_MAX);
		return -1;
	}
	links_obj(name, obj, sizeof obj);
	if (info->type == H5L_TYPE_SOFT)
		return 0;
	if (info->type != H5L_TYPE_HARD) {
		w->rc = links_external(w, g, name, info, obj);
		return -1;
	}
	if (!sv_h5_objects_add(&w->seen, info->u.address))
		return 0;
	sv_h5_at(obj);
	if (H5Oget_info_by_name2(g, name, &oi, H5O_INFO_BASIC, H5P_DEFAULT) <
			0 ||
		oi.type != H5O_TYPE_DATASET)
		return 0;
	w->rc = links_virtual(w, g, name, obj);
	return w->rc ? -1 : 0;
}

int sv_h5_links_check(struct sv_h5 *h)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	struct links_walk w;
	herr_t st;

	pthread_once(&once, links_replace_external);
	memset(&w, 0, sizeof w);
	w.h = h;
	sv_h5_at("/ (its links)");
	st = H5Lvisit(h->file, H5_INDEX_NAME, H5_ITER_NATIVE, links_visit, &w);
	sv_h5_objects_fini(&w.seen);
	if (w.rc)
		return w.rc;
	if (st < 0)
		return sv_h5_fail(h, -EIO, NULL,
			"cannot list its objects: the file is damaged%s",
			sv_h5_last_error());
	return 0;
}

void sv_h5_objects_fini(struct sv_h5_objects *o)
{
	free(o->addr);
	memset(o, 0, sizeof *o);
}

bool sv_h5_objects_again(struct sv_h5_objects *o, hid_t loc, const char *name)
{
	H5O_info_t oi;

	if (H5Oget_info_by_name2(loc, name, &oi, H5O_INFO_BASIC, H5P_DEFAULT) <
		0)
		return false;
	return !sv_h5_objects_add(o, oi.addr);
}
