/*
 * load_h5_filters.c: LZF and Zstandard as HDF5 filters registered in this
 * process (doc/format.md 8.2), so files h5py writes with
 * compression="lzf" and hdf5plugin's Zstd() open without any plugin
 * set-up.  The byte formats are those of h5py's lzf_filter.c and of
 * HDF5Plugin-Zstandard (the one hdf5plugin ships): the raw LZF stream of
 * the chunk, and one zstd frame of it.  Both encode too, so that a dataset
 * with them can also be created in this process.
 */
#include "load_h5_filters.h"

#include <errno.h>
#include <hdf5.h>
#include <lzf.h>
#include <pthread.h>
#include <stdint.h>
#include <zstd.h>
#include <zstd_errors.h>

/* No decoded chunk is larger than this (HDF5's own limit is 4 GiB). */
#define FILTERS_MAX_CHUNK ((size_t)1 << 31)

bool sv_h5_lzf_decode(const void *src, size_t len, void *dst, size_t want)
{
	if (len == 0 || len > UINT32_MAX || want > UINT32_MAX)
		return false;
	return lzf_decompress(src, (unsigned)len, dst, (unsigned)want) == want;
}

bool sv_h5_zstd_decode(const void *src, size_t len, void *dst, size_t want)
{
	size_t got = ZSTD_decompress(dst, want, src, len);
	return !ZSTD_isError(got) && got == want;
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

/* h5py's LZF filter: cd_values[2], when set, is the chunk's size in
 * bytes; otherwise the buffer grows until the chunk fits. */
static size_t filters_lzf(unsigned flags, size_t ncd, const unsigned cd[],
	size_t nbytes, size_t *buf_size, void **buf)
{
	size_t cap;
	void *out;
	unsigned got;

	if (nbytes > UINT32_MAX)
		return 0;
	if (!(flags & H5Z_FLAG_REVERSE)) {
		/* Compressing: no gain means failure, HDF5 then stores the
		 * chunk unfiltered (the filter is optional, as h5py sets it). */
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
	cap = ncd >= 3 && cd[2] != 0 ? cd[2] : *buf_size;
	if (cap < nbytes)
		cap = nbytes;
	for (;;) {
		out = H5allocate_memory(cap, false);
		if (!out)
			return 0;
		errno = 0;
		got = lzf_decompress(
			*buf, (unsigned)nbytes, out, (unsigned)cap);
		if (got != 0)
			return filters_swap(buf, buf_size, out, got, cap);
		H5free_memory(out);
		if (errno != E2BIG || cap >= FILTERS_MAX_CHUNK / 2)
			return 0;
		cap *= 2;
	}
}

/* HDF5Plugin-Zstandard: cd_values[0], when set, is the level. */
static size_t filters_zstd(unsigned flags, size_t ncd, const unsigned cd[],
	size_t nbytes, size_t *buf_size, void **buf)
{
	unsigned long long size;
	size_t cap, got;
	void *out;

	if (!(flags & H5Z_FLAG_REVERSE)) {
		int level = ncd >= 1 ? (int)cd[0] : 3;
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
	size = ZSTD_getFrameContentSize(*buf, nbytes);
	if (size == ZSTD_CONTENTSIZE_ERROR)
		return 0;
	cap = size != ZSTD_CONTENTSIZE_UNKNOWN && size <= FILTERS_MAX_CHUNK
		      ? (size_t)size
		      : (*buf_size > nbytes * 4 ? *buf_size : nbytes * 4);
	for (;;) {
		out = H5allocate_memory(cap ? cap : 1, false);
		if (!out)
			return 0;
		got = ZSTD_decompress(out, cap, *buf, nbytes);
		if (!ZSTD_isError(got))
			return filters_swap(buf, buf_size, out, got, cap);
		H5free_memory(out);
		if (ZSTD_getErrorCode(got) != ZSTD_error_dstSize_tooSmall ||
			cap >= FILTERS_MAX_CHUNK / 2)
			return 0;
		cap *= 2;
	}
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
