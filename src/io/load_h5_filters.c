/*
 * load_h5_filters.c: the compression filters scopeview registers with the
 * process's libhdf5 (doc/format.md 8.2), LZF and Zstandard, so files h5py
 * writes with compression="lzf" and hdf5plugin's Zstd() open without any
 * plugin set-up; and the bounded decoders of all three compressors the
 * loader meets (deflate too), for those filters, for the parallel chunk
 * decoder (load_h5_fast.c) and for the check before every read
 * (load_h5_chunks.c).
 *
 * Every decoder here writes exactly the chunk's declared size or fails
 * (issues 40 and 43).  libhdf5 1.10 copies a whole chunk out of whatever
 * its filters return: a stream that decoded short exposed heap bytes (or
 * overran the buffer).  The filter callback is told neither the chunk's
 * size nor which chunk it is, so the reader says first, in this thread
 * (sv_h5_filters_expect): each filter allocates exactly that, refuses a
 * stream that ends short, runs long or says it holds another size, and
 * leaves the reason for the message (sv_h5_filters_why).  With no size
 * given a filter refuses: nothing in a file sizes a buffer.
 *
 * libhdf5's own deflate filter cannot be replaced so: H5Zregister refuses
 * every number below 256 ("unable to modify predefined filters").  Its
 * buffer grows to whatever the stream holds, so the loader inflates each
 * deflate chunk here, bounded, before libhdf5 may (load_h5_chunks.c).
 *
 * The byte formats are those of libhdf5's deflate filter (a zlib stream),
 * h5py's lzf_filter.c (the raw LZF stream; cd_values[2], when set, the
 * chunk's size in bytes) and HDF5Plugin-Zstandard (one zstd frame).  LZF
 * and zstd encode too, so that a dataset with them can be created in this
 * process.  The decoders call no HDF5.
 */
#include "load_h5_filters.h"

#include <errno.h>
#include <hdf5.h>
#include <libdeflate.h>
#include <lzf.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <zstd.h>
#include <zstd_errors.h>

/* The declared size of the chunks this thread decodes next, and why the
 * last decode failed. */
static _Thread_local size_t filters_expect;
static _Thread_local char filters_why[SV_H5_WHY_MAX];

void sv_h5_filters_expect(size_t chunk_bytes)
{
	filters_expect = chunk_bytes;
	filters_why[0] = '\0';
}

const char *sv_h5_filters_why(void)
{
	return filters_why;
}

static bool filters_refuse(char *why, const char *fmt, ...) SV_PRINTF(2, 3);

/* Put the reason into why (SV_H5_WHY_MAX bytes, may be NULL); false. */
static bool filters_refuse(char *why, const char *fmt, ...)
{
	va_list ap;

	if (!why)
		return false;
	va_start(ap, fmt);
	vsnprintf(why, SV_H5_WHY_MAX, fmt, ap);
	va_end(ap);
	return false;
}

bool sv_h5_lzf_decode(
	const void *src, size_t len, void *dst, size_t want, char *why)
{
	unsigned got;

	if (len == 0 || len > UINT32_MAX || want == 0 || want > UINT32_MAX)
		return filters_refuse(why,
			"an LZF stream of %zu bytes for a chunk of %zu", len,
			want);
	errno = 0;
	got = lzf_decompress(src, (unsigned)len, dst, (unsigned)want);
	if (got == 0 && errno == E2BIG)
		return filters_refuse(why,
			"the LZF stream decodes to more than the chunk's %zu "
			"bytes",
			want);
	if (got == 0)
		return filters_refuse(why, "the LZF stream is damaged");
	if (got != want)
		return filters_refuse(why,
			"the LZF stream decodes to %u bytes, not the chunk's "
			"%zu",
			got, want);
	return true;
}

bool sv_h5_zstd_decode(
	const void *src, size_t len, void *dst, size_t want, char *why)
{
	unsigned long long says = ZSTD_getFrameContentSize(src, len);
	size_t got;

	if (says == ZSTD_CONTENTSIZE_ERROR)
		return filters_refuse(why, "the zstd frame is damaged");
	/* A frame's header may say what it holds; one frame must say the
	 * chunk (several are checked as they decode). */
	if (says != ZSTD_CONTENTSIZE_UNKNOWN && says != want &&
		(says > want || ZSTD_findFrameCompressedSize(src, len) == len))
		return filters_refuse(why,
			"the zstd frame says it holds %llu bytes, but the "
			"chunk holds %zu",
			says, want);
	got = ZSTD_decompress(dst, want, src, len);
	if (ZSTD_isError(got) &&
		ZSTD_getErrorCode(got) == ZSTD_error_dstSize_tooSmall)
		return filters_refuse(why,
			"the zstd frame decodes to more than the chunk's %zu "
			"bytes",
			want);
	if (ZSTD_isError(got))
		return filters_refuse(why, "the zstd frame is damaged (%s)",
			ZSTD_getErrorName(got));
	if (got != want)
		return filters_refuse(why,
			"the zstd frame decodes to %zu bytes, not the chunk's "
			"%zu",
			got, want);
	return true;
}

bool sv_h5_deflate_decode(struct libdeflate_decompressor *d, const void *src,
	size_t len, void *dst, size_t want, char *why)
{
	size_t got = 0;

	switch (libdeflate_zlib_decompress(d, src, len, dst, want, &got)) {
	case LIBDEFLATE_SUCCESS:
		if (got == want)
			return true;
		return filters_refuse(why,
			"the deflate stream inflates to %zu bytes, not the "
			"chunk's %zu",
			got, want);
	case LIBDEFLATE_INSUFFICIENT_SPACE:
		return filters_refuse(why,
			"the deflate stream inflates past the chunk's %zu "
			"bytes",
			want);
	default:
		return filters_refuse(why, "the deflate stream is damaged");
	}
}

/* Replace HDF5's buffer *buf with out (out_bytes used, cap allocated). */
static size_t filters_swap(
	void **buf, size_t *buf_size, void *out, size_t out_bytes, size_t cap)
{
	H5free_memory(*buf);
	*buf = out;
	*buf_size = cap;
	return out_bytes;
}

/* The decoding half every filter shares: a buffer of exactly the size the
 * reader gave, filled by decode or refused.  Returns the bytes for HDF5
 * (0: failure, HDF5 then fails the read). */
static size_t filters_decode(const char *what, size_t nbytes, size_t *buf_size,
	void **buf,
	bool (*decode)(
		const void *src, size_t len, void *dst, size_t want, char *why))
{
	size_t want = filters_expect;
	void *out;

	if (want == 0) {
		filters_refuse(filters_why,
			"no chunk size was given to check the %s stream "
			"against",
			what);
		return 0;
	}
	out = H5allocate_memory(want, false);
	if (!out) {
		filters_refuse(filters_why,
			"no memory for a chunk of %zu bytes", want);
		return 0;
	}
	if (!decode(*buf, nbytes, out, want, filters_why)) {
		H5free_memory(out);
		return 0;
	}
	return filters_swap(buf, buf_size, out, want, want);
}

/* h5py's LZF filter: cd_values[2], when set, is the chunk's size in
 * bytes: a claim checked against the chunk, never a buffer size. */
static size_t filters_lzf(unsigned flags, size_t ncd, const unsigned cd[],
	size_t nbytes, size_t *buf_size, void **buf)
{
	size_t cap;
	void *out;
	unsigned got;

	if (flags & H5Z_FLAG_REVERSE) {
		if (ncd >= 3 && cd[2] != 0 && filters_expect != 0 &&
			cd[2] != filters_expect) {
			filters_refuse(filters_why,
				"its LZF parameters say chunks of %u bytes, "
				"but the chunk holds %zu",
				cd[2], filters_expect);
			return 0;
		}
		return filters_decode(
			"LZF", nbytes, buf_size, buf, sv_h5_lzf_decode);
	}
	/* Compressing: no gain means failure, HDF5 then stores the chunk
	 * unfiltered (the filter is optional, as h5py sets it). */
	if (nbytes > UINT32_MAX)
		return 0;
	cap = nbytes;
	out = H5allocate_memory(cap ? cap : 1, false);
	if (!out)
		return 0;
	got = lzf_compress(*buf, (unsigned)nbytes, out, (unsigned)cap);
	if (got == 0) {
		H5free_memory(out);
		return 0;
	}
	return filters_swap(buf, buf_size, out, got, cap);
}

/* HDF5Plugin-Zstandard: cd_values[0], when set, is the level (only for
 * writing). */
static size_t filters_zstd(unsigned flags, size_t ncd, const unsigned cd[],
	size_t nbytes, size_t *buf_size, void **buf)
{
	size_t cap, got;
	void *out;
	int level;

	if (flags & H5Z_FLAG_REVERSE)
		return filters_decode(
			"zstd", nbytes, buf_size, buf, sv_h5_zstd_decode);
	level = ncd >= 1 ? (int)cd[0] : 3;
	if (level > ZSTD_maxCLevel())
		level = ZSTD_maxCLevel();
	cap = ZSTD_compressBound(nbytes);
	out = H5allocate_memory(cap, false);
	if (!out)
		return 0;
	got = ZSTD_compress(out, cap, *buf, nbytes, level);
	if (ZSTD_isError(got)) {
		H5free_memory(out);
		return 0;
	}
	return filters_swap(buf, buf_size, out, got, cap);
}

static const H5Z_class2_t filters_classes[] = {
	{H5Z_CLASS_T_VERS, (H5Z_filter_t)SV_H5_FILTER_LZF, 1, 1,
		"lzf (scopeview, liblzf)", NULL, NULL, filters_lzf},
	{H5Z_CLASS_T_VERS, (H5Z_filter_t)SV_H5_FILTER_ZSTD, 1, 1,
		"Zstandard (scopeview, libzstd)", NULL, NULL, filters_zstd},
};

static pthread_once_t filters_once = PTHREAD_ONCE_INIT;
static int filters_rc;

static void filters_register_once(void)
{
	size_t i;

	for (i = 0; i < sizeof filters_classes / sizeof filters_classes[0]; i++)
		if (H5Zregister(&filters_classes[i]) < 0)
			filters_rc = -EIO;
}

int sv_h5_filters_register(void)
{
	pthread_once(&filters_once, filters_register_once);
	return filters_rc;
}
