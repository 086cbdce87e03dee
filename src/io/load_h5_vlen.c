/*
 * load_h5_vlen.c: check variable-length strings against the global heap
 * before libhdf5 reads them (load_h5_vlen.h).
 *
 * A variable-length string is stored as a descriptor (its length, the
 * address of a global heap collection, an object index) and the bytes in
 * that collection.  libhdf5 1.10.8 (H5T__conv_vlen, H5HG_read) allocates
 * the stated length and then copies the whole heap object into it, so a
 * descriptor that understates its object overflows the heap: glibc aborts
 * ("double free or corruption") with its allocator lock held, and no
 * signal handler can get the process out of that (load_h5_guard.c).  So
 * the loader never lets libhdf5 convert a string it has not checked:
 *
 *  1. The raw descriptors are read through libhdf5 itself, with a
 *     conversion of our own from variable-length strings to an opaque
 *     type of the descriptor's size that leaves the bytes as they are
 *     (libhdf5 gathers the stored form into the buffer and calls the
 *     conversion on it).  No heap is touched.
 *  2. Each global heap collection named is read with pread() from the
 *     file libhdf5 has open and walked here: signature, version, sizes
 *     inside the collection, every object's size.
 *  3. Every descriptor must be null or name an object of the collection
 *     whose size is exactly its length.
 *
 * Nothing here writes to the file or calls HDF5 on the heap.
 */
#include "load_h5_vlen.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load_h5_chunks.h"
#include "scopeview/common.h"

#define VLEN_TAG "scopeview raw vlen descriptor"
/* libhdf5 reads collections of up to this size (H5HG_MAXSIZE is far
 * larger, but a string collection beyond it is not a profile's). */
#define VLEN_MAX_COLLECTION ((uint64_t)1 << 30)
#define VLEN_CACHE          4

/* The conversion from a variable-length string to our opaque type: the
 * buffer already holds the stored descriptors, which is what we want. */
static herr_t vlen_raw_conv(hid_t src, hid_t dst, H5T_cdata_t *cdata,
	size_t nelmts, size_t buf_stride, size_t bkg_stride, void *buf,
	void *bkg, hid_t dxpl)
{
	char *tag;
	bool ours;

	(void)nelmts;
	(void)buf_stride;
	(void)bkg_stride;
	(void)buf;
	(void)bkg;
	(void)dxpl;
	switch (cdata->command) {
	case H5T_CONV_INIT:
		if (H5Tget_class(dst) != H5T_OPAQUE ||
			H5Tis_variable_str(src) <= 0 ||
			H5Tget_size(src) != H5Tget_size(dst))
			return -1;
		tag = H5Tget_tag(dst);
		ours = tag && !strcmp(tag, VLEN_TAG);
		H5free_memory(tag);
		if (!ours)
			return -1;
		cdata->need_bkg = H5T_BKG_NO;
		return 0;
	case H5T_CONV_CONV:
	case H5T_CONV_FREE:
	default:
		return 0;
	}
}

static bool vlen_registered;

static void vlen_register(void)
{
	hid_t s = H5Tcopy(H5T_C_S1), o = H5Tcreate(H5T_OPAQUE, 16);

	H5Tset_size(s, H5T_VARIABLE);
	H5Tset_tag(o, VLEN_TAG);
	vlen_registered = H5Tregister(H5T_PERS_SOFT, "scopeview-raw-vlen", s, o,
				  vlen_raw_conv) >= 0;
	H5Tclose(s);
	H5Tclose(o);
}

/* One global heap collection: the sizes of its objects by index. */
struct vlen_coll {
	uint64_t addr;
	uint64_t *size; /* by object index; UINT64_MAX: no such object */
	size_t nidx;
};

struct vlen_ctx {
	int fd;
	bool own_fd; /* opened here (a driver other than sec2): close it */
	uint64_t base, file_size;
	unsigned sa, ss; /* sizes of addresses and lengths in the file */
	struct vlen_coll cache[VLEN_CACHE];
	size_t ncache, next;
	char *why;
	size_t whyn;
};

static uint64_t vlen_le(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;
	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void vlen_coll_free(struct vlen_coll *c)
{
	free(c->size);
	memset(c, 0, sizeof *c);
}

/* Read and walk the collection at addr into c; -EIO when damaged. */
static int vlen_coll_read(
	struct vlen_ctx *x, uint64_t addr, struct vlen_coll *c)
{
	unsigned char hdr[16];
	unsigned char *buf;
	uint64_t at, size, pos, hlen = (8 + x->ss + 7) & ~(uint64_t)7;

	if (addr > x->file_size || x->base > x->file_size - addr ||
		hlen > x->file_size - x->base - addr)
		goto bad;
	at = x->base + addr;
	if (pread(x->fd, hdr, (size_t)hlen, (off_t)at) != (ssize_t)hlen ||
		memcmp(hdr, "GCOL", 4) || hdr[4] != 1)
		goto bad;
	size = vlen_le(hdr + 8, x->ss);
	if (size < hlen || size > VLEN_MAX_COLLECTION ||
		size > x->file_size - at)
		goto bad;
	buf = sv_xmalloc((size_t)size);
	if (pread(x->fd, buf, (size_t)size, (off_t)at) != (ssize_t)size) {
		free(buf);
		goto bad;
	}
	c->addr = addr;
	c->size = NULL;
	c->nidx = 0;
	/* As H5HG's deserialiser walks it: objects one after another up to
	 * the end; the free-space object (index 0) counts its own header;
	 * a tail too short for a header is free space. */
	for (pos = hlen; pos < size;) {
		uint64_t idx, osize, need, ohdr = 8 + x->ss;

		if (size - pos < ohdr)
			break;
		idx = vlen_le(buf + pos, 2);
		osize = vlen_le(buf + pos + 8, x->ss);
		if (idx == 0) {
			need = osize; /* includes its header */
			if (need < ohdr)
				goto bad_free; /* libhdf5 would loop here */
		} else {
			if (osize > size)
				goto bad_free;
			need = ohdr + ((osize + 7) & ~(uint64_t)7);
		}
		if (need > size - pos)
			goto bad_free;
		if (idx > 0) {
			if (idx >= c->nidx) {
				size_t k, nn = (size_t)idx + 1;
				c->size = sv_xrealloc(
					c->size, nn * sizeof *c->size);
				for (k = c->nidx; k < nn; k++)
					c->size[k] = UINT64_MAX;
				c->nidx = nn;
			}
			if (c->size[idx] != UINT64_MAX)
				goto bad_free; /* an index used twice */
			c->size[idx] = osize;
		}
		pos += need;
	}
	free(buf);
	return 0;
bad_free:
	free(buf);
	vlen_coll_free(c);
bad:
	snprintf(x->why, x->whyn,
		"its global heap collection at byte %llu is damaged",
		(unsigned long long)addr);
	return -EIO;
}

static const struct vlen_coll *vlen_coll_get(struct vlen_ctx *x, uint64_t a)
{
	struct vlen_coll *c;
	size_t i;

	for (i = 0; i < x->ncache; i++)
		if (x->cache[i].addr == a)
			return &x->cache[i];
	c = &x->cache[x->next];
	vlen_coll_free(c);
	if (vlen_coll_read(x, a, c))
		return NULL;
	x->next = (x->next + 1) % VLEN_CACHE;
	if (x->ncache < VLEN_CACHE)
		x->ncache++;
	return c;
}

/* Check n descriptors of dsize bytes each. */
static int vlen_check_all(
	struct vlen_ctx *x, const unsigned char *raw, size_t n, size_t dsize)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const unsigned char *d = raw + i * dsize;
		uint64_t len = vlen_le(d, 4);
		uint64_t addr = vlen_le(d + 4, x->sa);
		uint64_t idx = vlen_le(d + 4 + x->sa, 4);
		const struct vlen_coll *c;

		if (addr == 0)
			continue; /* a null string */
		c = vlen_coll_get(x, addr);
		if (!c) {
			size_t k = strlen(x->why);
			snprintf(x->why + k, x->whyn - k, " (element %zu)", i);
			return -EIO;
		}
		if (idx >= c->nidx || c->size[idx] == UINT64_MAX) {
			snprintf(x->why, x->whyn,
				"element %zu names heap object %llu, which "
				"does not exist",
				i, (unsigned long long)idx);
			return -EIO;
		}
		if (c->size[idx] != len) {
			snprintf(x->why, x->whyn,
				"element %zu says %llu bytes, but its heap "
				"object holds %llu",
				i, (unsigned long long)len,
				(unsigned long long)c->size[idx]);
			return -EIO;
		}
	}
	return 0;
}

/* The file's descriptor into x->fd: the sec2 driver's own (handle), or,
 * in a loader built against the parallel libhdf5 (scopeview-mpi, where
 * the file may be open with the MPI-IO driver, whose handle is no
 * descriptor), the file opened again by name, read-only, and closed
 * after the check.  There the driver is not asked: H5Fget_access_plist
 * duplicates the job's communicator, a collective call that the
 * processes reach a different number of times (each checks the strings
 * of its own share), so they would wait for each other for ever. */
static int vlen_fd(struct vlen_ctx *x, hid_t f, void *handle)
{
#ifdef H5_HAVE_PARALLEL
	char path[4096];

	(void)handle;
	if (H5Fget_name(f, path, sizeof path) <= 0 ||
		(x->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -EIO;
	x->own_fd = true;
#else
	(void)f;
	x->fd = *(int *)handle;
#endif
	return 0;
}

/* The file's descriptor, sizes and base address. */
static int vlen_ctx_init(struct vlen_ctx *x, hid_t obj)
{
	hid_t f = H5Iget_file_id(obj), fcpl = H5I_INVALID_HID;
	void *handle = NULL;
	size_t sa = 0, ss = 0;
	hsize_t ub = 0, fsize = 0;
	int rc = -EIO;

	if (f < 0)
		return -EIO;
	fcpl = H5Fget_create_plist(f);
	if (fcpl >= 0 && H5Pget_sizes(fcpl, &sa, &ss) >= 0 &&
		H5Pget_userblock(fcpl, &ub) >= 0 &&
		H5Fget_filesize(f, &fsize) >= 0 &&
		H5Fget_vfd_handle(f, H5P_DEFAULT, &handle) >= 0 && handle &&
		sa >= 2 && sa <= 8 && ss >= 2 && ss <= 8 &&
		vlen_fd(x, f, handle) == 0) {
		x->sa = (unsigned)sa;
		x->ss = (unsigned)ss;
		x->base = ub;
		x->file_size = fsize;
		rc = 0;
	}
	if (fcpl >= 0)
		H5Pclose(fcpl);
	H5Fclose(f);
	return rc;
}

/* The check of sv_h5_vlen_check and sv_h5_vlen_check_points: the
 * elements fspace selects of a dataset (H5S_ALL: every one), or every
 * element of an attribute. */
static int vlen_check_in(hid_t obj, int is_attr, hid_t fspace, char *why,
	size_t whyn, struct vlen_ctx *xp)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	hid_t t, space, raw_t, mspace = H5S_ALL;
	hssize_t npts;
	size_t dsize, i;
	unsigned char *raw;
	bool refused = false;
	int rc;

	why[0] = '\0';
	t = is_attr ? H5Aget_type(obj) : H5Dget_type(obj);
	if (t < 0)
		return 0; /* the read that follows reports it */
	if (H5Tis_variable_str(t) <= 0) {
		H5Tclose(t);
		return 0;
	}
	H5Tclose(t);
	pthread_once(&once, vlen_register);
	memset(xp, 0, sizeof *xp);
	xp->fd = -1;
	xp->why = why;
	xp->whyn = whyn;
	if (!vlen_registered || vlen_ctx_init(xp, obj)) {
		snprintf(why, whyn, "cannot check its strings");
		return -EIO;
	}
	if (fspace != H5S_ALL) {
		hsize_t m;
		npts = H5Sget_select_npoints(fspace);
		m = npts > 0 ? (hsize_t)npts : 1;
		mspace = H5Screate_simple(1, &m, NULL);
	} else {
		space = is_attr ? H5Aget_space(obj) : H5Dget_space(obj);
		npts = space < 0 ? -1 : H5Sget_simple_extent_npoints(space);
		if (space >= 0)
			H5Sclose(space);
	}
	if (npts <= 0 || (uint64_t)npts > xp->file_size / 8 + 1) {
		if (mspace != H5S_ALL)
			H5Sclose(mspace);
		if (npts > 0)
			snprintf(why, whyn,
				"claims more strings than the file holds");
		return npts == 0 ? 0 : -EIO;
	}
	dsize = 4 + xp->sa + 4;
	raw_t = H5Tcreate(H5T_OPAQUE, dsize);
	H5Tset_tag(raw_t, VLEN_TAG);
	raw = sv_xcalloc((size_t)npts, dsize);
	if (is_attr && H5Aread(obj, raw_t, raw) < 0) {
		snprintf(why, whyn, "cannot read its string descriptors");
		rc = -EIO;
	} else if (!is_attr && sv_h5_chunks_read(obj, raw_t, mspace, fspace,
				       raw, why, whyn, &refused) < 0) {
		if (!refused)
			snprintf(why, whyn,
				"cannot read its string descriptors");
		rc = refused ? -EBADMSG : -EIO;
	} else {
		rc = vlen_check_all(xp, raw, (size_t)npts, dsize);
	}
	free(raw);
	H5Tclose(raw_t);
	if (mspace != H5S_ALL)
		H5Sclose(mspace);
	for (i = 0; i < xp->ncache; i++)
		vlen_coll_free(&xp->cache[i]);
	return rc;
}

static int vlen_check(
	hid_t obj, int is_attr, hid_t fspace, char *why, size_t whyn)
{
	struct vlen_ctx x;
	int rc;

	memset(&x, 0, sizeof x);
	rc = vlen_check_in(obj, is_attr, fspace, why, whyn, &x);

	if (x.own_fd)
		close(x.fd);
	return rc;
}

int sv_h5_vlen_check(hid_t obj, int is_attr, char *why, size_t whyn)
{
	return vlen_check(obj, is_attr, H5S_ALL, why, whyn);
}

int sv_h5_vlen_check_points(hid_t ds, hid_t fspace, char *why, size_t whyn)
{
	return vlen_check(ds, 0, fspace, why, whyn);
}
