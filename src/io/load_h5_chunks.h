/*
 * load_h5_chunks.h: H5Dread with every chunk held to its declared size
 * (load_h5_chunks.c, doc/format.md 8.4).  Private to src/io: every
 * H5Dread of the loader (h5util.c, load_h5_vlen.c, load_h5_ranks.c) goes
 * through it.
 */
#ifndef SCOPEVIEW_IO_LOAD_H5_CHUNKS_H
#define SCOPEVIEW_IO_LOAD_H5_CHUNKS_H

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * H5Dread(ds, memtype, mspace, fspace, H5P_DEFAULT, buf), made safe
 * against chunks that do not decode to their size.  First every chunk the
 * file selection touches is checked: one stored without a compressor
 * (none in the pipeline, or its filter-mask bit set) must hold exactly the
 * chunk's bytes, no stored chunk may be far larger than any compression
 * of it, and a pipeline with a filter that sizes its output from the
 * file's own parameters (N-bit, scale-offset, SZIP) or with two
 * compressors is refused.  Then the registered filters are told the
 * chunk's size (sv_h5_filters_expect) and HDF5 reads.
 *
 * Returns 0, or -EIO with why (whyn bytes) saying what went wrong, and
 * *refused (may be NULL) true when it was a chunk that does not decode to
 * its size ("chunk 3 (values 3072 to 4095): the deflate stream inflates
 * past the chunk's 8192 bytes"), false for any other failure of HDF5
 * (why then holds HDF5's innermost message, or "").
 */
int sv_h5_chunks_read(hid_t ds, hid_t memtype, hid_t mspace, hid_t fspace,
	void *buf, char *why, size_t whyn, bool *refused);

#endif
