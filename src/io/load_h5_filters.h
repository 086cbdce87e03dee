/*
 * load_h5_filters.h: the compression filters scopeview brings with it
 * (load_h5_filters.c, doc/format.md 8.2): LZF (HDF5 filter 32000, h5py's)
 * and Zstandard (32015, hdf5plugin's), decoded with Debian's liblzf and
 * libzstd.  Private to src/io.
 */
#ifndef SCOPEVIEW_IO_LOAD_H5_FILTERS_H
#define SCOPEVIEW_IO_LOAD_H5_FILTERS_H

#include <stdbool.h>
#include <stddef.h>

/* HDF5's registered numbers of the two filters. */
#define SV_H5_FILTER_LZF  32000
#define SV_H5_FILTER_ZSTD 32015

/* Register both filters with this process's libhdf5 (H5Zregister), once;
 * later calls do nothing.  Safe from any thread.  Returns 0 or -EIO when
 * HDF5 refused (the files then fail with the missing-filter message). */
int sv_h5_filters_register(void);

/* Decode one LZF chunk src[0, len) into dst, which holds exactly want
 * bytes.  True when it decodes to exactly want bytes.  Calls no HDF5: the
 * parallel chunk decoder's workers use it. */
bool sv_h5_lzf_decode(const void *src, size_t len, void *dst, size_t want);

/* The same for one Zstandard frame (or several, as ZSTD_decompress
 * reads them). */
bool sv_h5_zstd_decode(const void *src, size_t len, void *dst, size_t want);

#endif
