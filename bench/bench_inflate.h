/*
 * bench_inflate.h: the decompression limit of a profile, for scale_bench:
 * the time to inflate (and unshuffle) every chunk of the event columns on
 * every core, with nothing else done.  The raw chunks are fetched into
 * memory first (H5Dread_chunk, not timed: the loader fetches them on one
 * thread while others decode), then the clock runs while one thread a
 * core takes chunks in turn and inflates each with libdeflate into a
 * buffer of its own.  No reader of the file can be ready sooner than
 * this on the same cores, whatever it does with the values.  Datasets
 * under /events that are chunked with deflate (and shuffle before it, as
 * h5py and scope-profiler's writer set them) count; other
 * filters (LZF, zstd) and contiguous or uncompressed datasets are left
 * out.
 */
#ifndef SCOPEVIEW_BENCH_INFLATE_H
#define SCOPEVIEW_BENCH_INFLATE_H

#include <hdf5.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_clock.h"

struct bench_chunk {
	unsigned char *raw;
	size_t size, out; /* stored bytes; bytes once inflated */
	size_t elem;      /* element size, when shuffled; else 0 */
	bool deflated;    /* the deflate filter was applied */
};

struct bench_chunks {
	struct bench_chunk *v;
	size_t n, cap;
	atomic_size_t next, bad; /* next chunk; chunks that did not inflate */
	size_t bytes_in, bytes_out;
	bool failed;
};

/* The deflate and shuffle of dataset ds's pipeline; false when it has
 * another filter or no deflate. */
static bool bench_inflate_pipeline(hid_t ds, bool *shuffle)
{
	hid_t dcpl = H5Dget_create_plist(ds);
	int i, n = dcpl < 0 ? -1 : H5Pget_nfilters(dcpl);
	bool deflate = false, other = false;

	*shuffle = false;
	for (i = 0; i < n; i++) {
		unsigned flags = 0, cd[8];
		size_t ncd = 8;
		H5Z_filter_t f = H5Pget_filter2(
			dcpl, (unsigned)i, &flags, &ncd, cd, 0, NULL, NULL);
		if (f == H5Z_FILTER_DEFLATE)
			deflate = true;
		else if (f == H5Z_FILTER_SHUFFLE)
			*shuffle = true;
		else
			other = true;
	}
	if (dcpl >= 0)
		H5Pclose(dcpl);
	return deflate && !other;
}

/* Every stored chunk of 1-D dataset ds into c. */
static void bench_inflate_fetch(hid_t ds, struct bench_chunks *c)
{
	hid_t sp = H5Dget_space(ds), dcpl = H5Dget_create_plist(ds),
	      ty = H5Dget_type(ds);
	hsize_t dims[1] = {0}, chunk[1] = {0}, off[1];
	size_t elem = H5Tget_size(ty);
	bool shuffle;

	if (sp < 0 || dcpl < 0 || H5Sget_simple_extent_ndims(sp) != 1 ||
		H5Pget_layout(dcpl) != H5D_CHUNKED ||
		H5Pget_chunk(dcpl, 1, chunk) != 1 || !chunk[0] ||
		!bench_inflate_pipeline(ds, &shuffle))
		goto done;
	H5Sget_simple_extent_dims(sp, dims, NULL);
	for (off[0] = 0; off[0] < dims[0]; off[0] += chunk[0]) {
		hsize_t size = 0;
		uint32_t mask = 0;
		struct bench_chunk *k;
		if (H5Dget_chunk_storage_size(ds, off, &size) < 0 || !size)
			continue;
		if (c->n == c->cap) {
			c->cap = c->cap ? 2 * c->cap : 1024;
			c->v = realloc(c->v, c->cap * sizeof *c->v);
		}
		k = &c->v[c->n];
		k->raw = malloc(size);
		if (!c->v || !k->raw ||
			H5Dread_chunk(ds, H5P_DEFAULT, off, &mask, k->raw) <
				0) {
			free(k->raw);
			c->failed = true;
			break;
		}
		k->size = size;
		k->out = chunk[0] * elem;
		k->deflated = !(mask & 2); /* the second filter: deflate */
		k->elem = shuffle && !(mask & 1) ? elem : 0;
		if (!shuffle)
			k->deflated = !(mask & 1);
		c->bytes_in += size;
		c->bytes_out += k->out;
		c->n++;
	}
done:
	if (ty >= 0)
		H5Tclose(ty);
	if (dcpl >= 0)
		H5Pclose(dcpl);
	if (sp >= 0)
		H5Sclose(sp);
}

static herr_t bench_inflate_visit(
	hid_t g, const char *name, const H5L_info_t *info, void *arg)
{
	hid_t ds = H5Dopen2(g, name, H5P_DEFAULT);

	(void)info;
	if (ds >= 0) {
		bench_inflate_fetch(ds, arg);
		H5Dclose(ds);
	}
	return 0;
}

static void *bench_inflate_worker(void *arg)
{
	struct bench_chunks *c = arg;
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	unsigned char *buf = NULL, *un = NULL;
	size_t cap = 0, i;

	while (d && (i = atomic_fetch_add(&c->next, 1)) < c->n) {
		struct bench_chunk *k = &c->v[i];
		size_t got = 0, j, b, n;
		if (k->out > cap) {
			cap = k->out;
			buf = realloc(buf, cap);
			un = realloc(un, cap);
			if (!buf || !un)
				break;
		}
		if (k->deflated) {
			if (libdeflate_zlib_decompress(d, k->raw, k->size, buf,
				    k->out, &got) != LIBDEFLATE_SUCCESS) {
				atomic_fetch_add(&c->bad, 1);
				continue;
			}
		} else {
			got = k->size < k->out ? k->size : k->out;
			memcpy(buf, k->raw, got);
		}
		if (!k->elem)
			continue;
		n = got / k->elem;
		for (b = 0; b < k->elem; b++)
			for (j = 0; j < n; j++)
				un[j * k->elem + b] = buf[b * n + j];
	}
	free(buf);
	free(un);
	if (d)
		libdeflate_free_decompressor(d);
	return NULL;
}

/* Seconds to inflate every deflated chunk of path's /events on every
 * core (*bytes: their inflated bytes), or -1 when there are none, the
 * file cannot be read or a chunk does not inflate. */
static inline double bench_inflate_limit(const char *path, double *bytes)
{
	struct bench_chunks c;
	pthread_t t[64];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int nt = ncpu < 1 ? 1 : ncpu > 64 ? 64 : (int)ncpu, i, started = 0;
	hid_t f, g;
	double t0, s = -1;
	size_t k;

	memset(&c, 0, sizeof c);
	f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	if (f < 0)
		return -1;
	g = H5Gopen2(f, "events", H5P_DEFAULT);
	if (g >= 0) {
		H5Literate(g, H5_INDEX_NAME, H5_ITER_NATIVE, NULL,
			bench_inflate_visit, &c);
		H5Gclose(g);
	}
	H5Fclose(f);
	if (c.n && !c.failed) {
		t0 = bench_now();
		for (i = 1; i < nt; i++)
			if (pthread_create(&t[started], NULL,
				    bench_inflate_worker, &c) == 0)
				started++;
		bench_inflate_worker(&c);
		for (i = 0; i < started; i++)
			pthread_join(t[i], NULL);
		s = atomic_load(&c.bad) ? -1 : bench_now() - t0;
		*bytes = (double)c.bytes_out;
	}
	for (k = 0; k < c.n; k++)
		free(c.v[k].raw);
	free(c.v);
	return s;
}

#endif
