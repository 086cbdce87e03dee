/*
 * load_h5_fast.c: read a deflate, LZF or zstd (+ shuffle) compressed event
 * column with both cores (doc/format.md 8).
 *
 * libhdf5's thread-safe build serialises every call, and inflating the
 * chunks is most of the time a large profile takes to load.  So the
 * loading thread only fetches the raw chunks (H5Dread_chunk: no filter
 * runs), and worker threads (one per online CPU, at most 8) inflate and
 * unshuffle them, each writing its chunk's values straight into the
 * destination array.  The workers call neither HDF5 nor the caller's hooks.
 *
 * This is an optimisation only: when the dataset is not exactly what it
 * handles (a 1-D chunked dataset of 8-byte or 4-byte elements stored in
 * the memory type, filtered by shuffle (optional) then one of deflate,
 * LZF or Zstandard, every chunk present),
 * when the range is small, or when anything goes wrong on the way (a
 * chunk stored in more bytes than any encoding of it takes, or that does
 * not decode to exactly one chunk of values with the bounded decoders of
 * load_h5_filters.c, an HDF5 error), it reports SV_H5_FAST_NO and the
 * caller reads the range with H5Dread, which gives the values, or refuses
 * the same chunk and names it (load_h5_chunks.c).  Only cancellation is
 * final.
 */
#include "load_h5_fast.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libdeflate.h>

#include "load_h5_filters.h"
#include "scopeview/common.h"

/* Below this many elements one H5Dread is as quick as starting threads. */
#define FAST_MIN_ELEMS ((hsize_t)1 << 16)
/* Chunks larger than this (decoded) are left to HDF5. */
#define FAST_MAX_CHUNK_BYTES ((size_t)64 << 20)
#define FAST_MAX_THREADS     8
/* Progress is reported every this many elements fetched. */
#define FAST_STEP_ELEMS ((hsize_t)1 << 20)

/* Chunks are small (the writers' 1024 events, 8 KiB), so they travel to
 * the workers in batches: one hand-over per chunk costs more in wake-ups
 * than decoding it. */
#define FAST_BATCH 64

/* A batch of fetched chunks waiting for (or under) decoding. */
struct fast_slot {
	unsigned char *raw; /* the chunks as stored, one after another */
	size_t cap;         /* bytes allocated at raw */
	size_t len[FAST_BATCH];
	uint32_t mask[FAST_BATCH]; /* filters skipped for each chunk */
	hsize_t chunk;             /* number of the first chunk */
	unsigned nchunks;
	bool full; /* fetched, not yet decoded */
};

/* The compressor at the end of the pipeline. */
enum fast_codec { FAST_DEFLATE, FAST_LZF, FAST_ZSTD };

/* One column range being read. */
struct fast_job {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* a slot emptied, a slot filled, or the end */
	struct fast_slot *slots;
	size_t nslots;
	uint64_t filled; /* chunks fetched so far (sequence numbers) */
	uint64_t taken;  /* chunks handed to a worker so far */
	bool end;        /* no more chunks will come */
	bool failed;     /* a worker could not decode a chunk */

	/* read-only while the workers run */
	hsize_t off, n; /* the element range wanted */
	hsize_t chunk_elems;
	size_t chunk_bytes; /* decoded bytes of one chunk */
	size_t esize;       /* bytes of an element: 8, or 4 (a lane table's
			       ranks) */
	bool shuffle;       /* the pipeline starts with shuffle */
	enum fast_codec codec;
	unsigned codec_bit, shuffle_bit; /* bits of the filter mask */
	unsigned char *dst;              /* element off goes here */
	pthread_t th[FAST_MAX_THREADS];
	int nth; /* workers running */
};

/* The job this thread is fetching for, so that sv_h5_fast_abort can stop
 * its workers after a crash inside HDF5 jumped out of sv_h5_fast_read. */
static _Thread_local struct fast_job *fast_active;

/* Chunks the parallel path decoded in this process, and batches of
 * chunks it gave way on because one was stored or decoded to the wrong
 * size (tests read them). */
static atomic_uint_fast64_t fast_decoded, fast_refused;

static bool fast_disabled_by_env(void)
{
	const char *e = getenv("SCOPEVIEW_NO_FAST_INFLATE");
	return e && *e && strcmp(e, "0") != 0;
}

static int fast_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	return n > FAST_MAX_THREADS ? FAST_MAX_THREADS : (int)n;
}

/* Is ds a dataset this file can decode?  Fills the job's layout fields. */
static bool fast_usable(hid_t ds, hid_t memtype, struct fast_job *j)
{
	hid_t dcpl, ftype, space;
	bool ok = false;
	int nf, i, ndims;
	hsize_t cdim = 0, dims = 0;

	ftype = H5Dget_type(ds);
	if (ftype < 0)
		return false;
	j->esize = H5Tget_size(ftype);
	ok = (j->esize == 8 || j->esize == 4) && H5Tequal(ftype, memtype) > 0;
	H5Tclose(ftype);
	if (!ok)
		return false;
	space = H5Dget_space(ds);
	if (space < 0)
		return false;
	ndims = H5Sget_simple_extent_ndims(space);
	ok = ndims == 1 && H5Sget_simple_extent_dims(space, &dims, NULL) == 1 &&
	     j->off + j->n <= dims;
	H5Sclose(space);
	if (!ok)
		return false;

	dcpl = H5Dget_create_plist(ds);
	if (dcpl < 0)
		return false;
	ok = H5Pget_layout(dcpl) == H5D_CHUNKED &&
	     H5Pget_chunk(dcpl, 1, &cdim) == 1 && cdim > 0 &&
	     cdim <= FAST_MAX_CHUNK_BYTES / j->esize;
	nf = ok ? H5Pget_nfilters(dcpl) : -1;
	/* Exactly a compressor, or shuffle of its elements then one. */
	ok = ok && (nf == 1 || nf == 2);
	j->shuffle = nf == 2;
	for (i = 0; ok && i < nf; i++) {
		unsigned flags = 0, cd[8] = {0};
		size_t ncd = 8;
		char name[64];
		H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags,
			&ncd, cd, sizeof name, name, NULL);
		if (i == nf - 1) {
			ok = id == H5Z_FILTER_DEFLATE ||
			     id == SV_H5_FILTER_LZF || id == SV_H5_FILTER_ZSTD;
			j->codec = id == SV_H5_FILTER_LZF    ? FAST_LZF
				   : id == SV_H5_FILTER_ZSTD ? FAST_ZSTD
							     : FAST_DEFLATE;
		} else
			ok = id == H5Z_FILTER_SHUFFLE &&
			     (ncd == 0 || cd[0] == j->esize);
	}
	H5Pclose(dcpl);
	if (!ok)
		return false;
	j->chunk_elems = cdim;
	j->chunk_bytes = (size_t)cdim * j->esize;
	j->shuffle_bit = j->shuffle ? 1u : 0u;
	j->codec_bit = j->shuffle ? 2u : 1u;
	return true;
}

/* Undo HDF5's shuffle filter for elements of es bytes: byte b of
 * element i is at src[b * n + i]. */
static void fast_unshuffle(
	unsigned char *dst, const unsigned char *src, size_t n, size_t es)
{
	size_t i;
	unsigned b;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const unsigned char *p[8];
	if (es == 8) {
		for (b = 0; b < 8; b++)
			p[b] = src + (size_t)b * n;
		for (i = 0; i < n; i++) {
			uint64_t v = (uint64_t)p[0][i] |
				     (uint64_t)p[1][i] << 8 |
				     (uint64_t)p[2][i] << 16 |
				     (uint64_t)p[3][i] << 24 |
				     (uint64_t)p[4][i] << 32 |
				     (uint64_t)p[5][i] << 40 |
				     (uint64_t)p[6][i] << 48 |
				     (uint64_t)p[7][i] << 56;
			memcpy(dst + i * 8, &v, 8);
		}
		return;
	}
#endif
	for (i = 0; i < n; i++)
		for (b = 0; b < es; b++)
			dst[i * es + b] = src[(size_t)b * n + i];
}

/* What one worker keeps for all its chunks: room for two decoded chunks
 * and a deflate decompressor of its own. */
struct fast_worker_mem {
	unsigned char *scratch;
	struct libdeflate_decompressor *inflater;
};

/* Decode chunk number c, stored as raw[0, len) with filters mask skipped,
 * into the destination.  wm->scratch holds two chunks.  Returns false when
 * the chunk is not one chunk of compressed values. */
static bool fast_decode(const struct fast_job *j, hsize_t c,
	const unsigned char *raw, size_t len, uint32_t mask,
	struct fast_worker_mem *wm)
{
	unsigned char *scratch = wm->scratch;
	hsize_t first = c * j->chunk_elems; /* its first element */
	hsize_t lo = first > j->off ? first : j->off;
	hsize_t hi = first + j->chunk_elems;
	bool whole, shuffled = j->shuffle && !(mask & j->shuffle_bit);
	const unsigned char *vals;
	unsigned char *out;

	if (hi > j->off + j->n)
		hi = j->off + j->n;
	if (lo >= hi)
		return true;
	whole = lo == first && hi == first + j->chunk_elems;
	/* Where the inflated bytes go: into place when nothing follows. */
	out = whole && !shuffled ? j->dst + (first - j->off) * j->esize
				 : scratch;
	if (mask & j->codec_bit) {
		if (len != j->chunk_bytes)
			return false;
		memcpy(out, raw, j->chunk_bytes);
	} else if (j->codec == FAST_LZF) {
		if (!sv_h5_lzf_decode(raw, len, out, j->chunk_bytes, NULL))
			return false;
	} else if (j->codec == FAST_ZSTD) {
		if (!sv_h5_zstd_decode(raw, len, out, j->chunk_bytes, NULL))
			return false;
	} else {
		/* A zlib stream (HDF5's deflate filter), checksum and all. */
		if (!sv_h5_deflate_decode(
			    wm->inflater, raw, len, out, j->chunk_bytes, NULL))
			return false;
	}
	vals = out;
	if (shuffled) {
		unsigned char *to = whole ? j->dst + (first - j->off) * j->esize
					  : scratch + j->chunk_bytes;
		fast_unshuffle(to, out, (size_t)j->chunk_elems, j->esize);
		vals = to;
	}
	if (!whole)
		memcpy(j->dst + (lo - j->off) * j->esize,
			vals + (lo - first) * j->esize,
			(size_t)(hi - lo) * j->esize);
	return true;
}

static bool fast_decode_batch(const struct fast_job *j,
	const struct fast_slot *s, struct fast_worker_mem *wm)
{
	size_t at = 0;
	unsigned k;

	for (k = 0; k < s->nchunks; k++) {
		if (!fast_decode(j, s->chunk + k, s->raw + at, s->len[k],
			    s->mask[k], wm))
			return false;
		at += s->len[k];
	}
	return true;
}

static void *fast_worker(void *arg)
{
	struct fast_job *j = arg;
	struct fast_worker_mem wm = {
		malloc(j->chunk_bytes * 2), libdeflate_alloc_decompressor()};

	pthread_mutex_lock(&j->mu);
	if (!wm.scratch || !wm.inflater)
		j->failed = true;
	for (;;) {
		struct fast_slot *s;
		bool ok;
		while (!j->failed && j->taken == j->filled && !j->end)
			pthread_cond_wait(&j->cv, &j->mu);
		if (j->failed || j->taken == j->filled)
			break;
		s = &j->slots[j->taken++ % j->nslots];
		pthread_mutex_unlock(&j->mu);
		ok = fast_decode_batch(j, s, &wm);
		pthread_mutex_lock(&j->mu);
		s->full = false;
		if (!ok) {
			j->failed = true;
			atomic_fetch_add(&fast_refused, 1);
		}
		pthread_cond_broadcast(&j->cv);
	}
	pthread_mutex_unlock(&j->mu);
	free(wm.scratch);
	if (wm.inflater)
		libdeflate_free_decompressor(wm.inflater);
	return NULL;
}

/* Fetch chunks [c, c + k) into slot s (the loading thread: HDF5 calls). */
static bool fast_fetch(hid_t ds, const struct fast_job *j, hsize_t c,
	unsigned k, struct fast_slot *s)
{
	hsize_t bytes[FAST_BATCH];
	size_t total = 0, at = 0;
	unsigned i;

	for (i = 0; i < k; i++) {
		hsize_t where = (c + i) * j->chunk_elems;
		bytes[i] = 0;
		if (H5Dget_chunk_storage_size(ds, &where, &bytes[i]) < 0 ||
			bytes[i] == 0)
			return false;
		if (bytes[i] > (hsize_t)j->chunk_bytes * 2 + 65536) {
			/* More than any encoding of it takes: a bomb. */
			atomic_fetch_add(&fast_refused, 1);
			return false;
		}
		total += (size_t)bytes[i];
	}
	if (s->cap < total) {
		free(s->raw);
		s->cap = total;
		s->raw = malloc(s->cap);
		if (!s->raw) {
			s->cap = 0;
			return false;
		}
	}
	for (i = 0; i < k; i++) {
		hsize_t where = (c + i) * j->chunk_elems;
		uint32_t mask = 0;
		if (H5Dread_chunk(ds, H5P_DEFAULT, &where, &mask, s->raw + at) <
			0)
			return false;
		s->len[i] = (size_t)bytes[i];
		s->mask[i] = mask;
		at += (size_t)bytes[i];
	}
	s->chunk = c;
	s->nchunks = k;
	return true;
}

/* Stop the workers (they finish the batch in hand), join them, free. */
static void fast_finish(struct fast_job *j)
{
	size_t i;

	pthread_mutex_lock(&j->mu);
	j->end = true;
	pthread_cond_broadcast(&j->cv);
	pthread_mutex_unlock(&j->mu);
	for (i = 0; i < (size_t)j->nth; i++)
		pthread_join(j->th[i], NULL);
	fast_active = NULL;
	pthread_cond_destroy(&j->cv);
	pthread_mutex_destroy(&j->mu);
	for (i = 0; i < j->nslots; i++)
		free(j->slots[i].raw);
	free(j->slots);
	free(j);
}

void sv_h5_fast_abort(void)
{
	struct fast_job *j = fast_active;
	int i;

	if (!j)
		return;
	/* Stop and join the workers, but free nothing: the heap may be
	 * damaged after the crash. */
	pthread_mutex_lock(&j->mu);
	j->failed = true;
	j->end = true;
	pthread_cond_broadcast(&j->cv);
	pthread_mutex_unlock(&j->mu);
	for (i = 0; i < j->nth; i++)
		pthread_join(j->th[i], NULL);
	fast_active = NULL;
}

uint64_t sv_h5_fast_chunks(void)
{
	return (uint64_t)atomic_load(&fast_decoded);
}

uint64_t sv_h5_fast_refused(void)
{
	return (uint64_t)atomic_load(&fast_refused);
}

int sv_h5_fast_read(struct sv_h5 *h, hid_t ds, hid_t memtype, hsize_t off,
	hsize_t n, void *buf, double f0, double f1)
{
	const struct sv_load_opts *o = h->opts;
	struct fast_job *j;
	int want, i;
	hsize_t c, c0, c1, next_step;
	bool fetch_ok = true, cancelled = false, failed;

	if (n < FAST_MIN_ELEMS || (o && o->slow_inflate) ||
		fast_disabled_by_env())
		return SV_H5_FAST_NO;
	j = calloc(1, sizeof *j);
	if (!j)
		return SV_H5_FAST_NO;
	j->off = off;
	j->n = n;
	j->dst = buf;
	if (!fast_usable(ds, memtype, j)) {
		free(j);
		return SV_H5_FAST_NO;
	}
	c0 = off / j->chunk_elems;
	c1 = (off + n - 1) / j->chunk_elems + 1;

	want = fast_threads();
	j->nslots = (size_t)want * 3;
	j->slots = calloc(j->nslots, sizeof *j->slots);
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->cv, NULL);
	fast_active = j;
	for (i = 0; j->slots && i < want; i++)
		if (pthread_create(&j->th[j->nth], NULL, fast_worker, j) == 0)
			j->nth++;
	if (j->nth == 0) {
		fast_finish(j);
		return SV_H5_FAST_NO;
	}

	next_step = FAST_STEP_ELEMS;
	for (c = c0; c < c1;) {
		struct fast_slot *s = &j->slots[j->filled % j->nslots];
		unsigned k =
			c1 - c < FAST_BATCH ? (unsigned)(c1 - c) : FAST_BATCH;
		hsize_t got;
		/* Cancellation is checked between chunks (batches of them). */
		if (o && o->cancelled && o->cancelled(o->ctx)) {
			cancelled = true;
			break;
		}
		pthread_mutex_lock(&j->mu);
		while (s->full && !j->failed)
			pthread_cond_wait(&j->cv, &j->mu);
		failed = j->failed;
		pthread_mutex_unlock(&j->mu);
		if (failed)
			break;
		/* Only this thread touches an empty slot. */
		fetch_ok = fast_fetch(ds, j, c, k, s);
		if (!fetch_ok)
			break;
		pthread_mutex_lock(&j->mu);
		s->full = true;
		j->filled++;
		pthread_cond_signal(&j->cv);
		pthread_mutex_unlock(&j->mu);
		c += k;
		got = c * j->chunk_elems - off;
		if (got >= next_step && c < c1) {
			next_step = got + FAST_STEP_ELEMS;
			if (o && o->progress)
				o->progress(o->ctx,
					f0 + (f1 - f0) * (double)got /
							(double)n,
					"events");
		}
	}
	pthread_mutex_lock(&j->mu);
	if (!fetch_ok || cancelled)
		j->failed = true; /* stop the workers early */
	j->end = true;
	pthread_cond_broadcast(&j->cv);
	pthread_mutex_unlock(&j->mu);
	for (i = 0; i < j->nth; i++)
		pthread_join(j->th[i], NULL);
	j->nth = 0;
	failed = j->failed;
	fast_finish(j);
	if (cancelled)
		return sv_h5_fail(h, -ECANCELED, NULL, "loading cancelled");
	if (failed)
		return SV_H5_FAST_NO;
	atomic_fetch_add(&fast_decoded, c1 - c0);
	return sv_h5_step(h, f1, "events");
}
