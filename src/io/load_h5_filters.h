/*
 * load_h5_filters.h: the compression filters scopeview brings with it and
 * registers in place of any plugin (load_h5_filters.c, doc/format.md
 * 8.2), LZF (HDF5 filter 32000, h5py's) and Zstandard (32015,
 * hdf5plugin's), and bounded decoders of them and of deflate, each of
 * which produces exactly the chunk's declared size or fails.  Private to
 * src/io.
 */
#ifndef SCOPEVIEW_IO_LOAD_H5_FILTERS_H
#define SCOPEVIEW_IO_LOAD_H5_FILTERS_H

#include <stdbool.h>
#include <stddef.h>

#include "scopeview/common.h"

/* HDF5's registered numbers of the two filters that are not libhdf5's. */
#define SV_H5_FILTER_LZF  32000
#define SV_H5_FILTER_ZSTD 32015

/* Room for one reason a chunk was refused ("the deflate stream inflates
 * past the chunk's 8192 bytes"). */
#define SV_H5_WHY_MAX 160

struct libdeflate_decompressor;

/* Register both filters with this process's libhdf5 (H5Zregister), once;
 * later calls do nothing.  Safe from any thread.  Returns 0 or -EIO when HDF5 refused
 * (the files then fail with the missing-filter message). */
int sv_h5_filters_register(void);

/*
 * The declared size in bytes of every chunk the registered filters decode
 * next in this thread (the reader sets it before H5Dread, h5util.c), and
 * clears the reason below.  0: none known, and the filters refuse every
 * chunk.
 */
void sv_h5_filters_expect(size_t chunk_bytes);

/* Why the last chunk a registered filter of this thread refused was
 * refused, or "" (valid until the thread's next sv_h5_filters_expect). */
const char *sv_h5_filters_why(void);

/*
 * Decode one chunk src[0, len) into dst, which holds exactly want bytes.
 * True when it decodes to exactly want bytes; otherwise false, with the
 * reason in why (SV_H5_WHY_MAX bytes; may be NULL): the stream is
 * damaged, ends short, runs past want, or (zstd) its frame header says
 * another size.  Never writes past dst + want.  Call no HDF5: the parallel
 * chunk decoder's workers use them.
 */
bool sv_h5_lzf_decode(
	const void *src, size_t len, void *dst, size_t want, char *why);
/* One Zstandard frame (or several, as ZSTD_decompress reads them). */
bool sv_h5_zstd_decode(
	const void *src, size_t len, void *dst, size_t want, char *why);
/* One zlib stream (HDF5's deflate filter), checksum included, with the
 * caller's libdeflate decompressor. */
bool sv_h5_deflate_decode(struct libdeflate_decompressor *d, const void *src,
	size_t len, void *dst, size_t want, char *why);

#endif
