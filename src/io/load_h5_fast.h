/*
 * load_h5_fast.h: the parallel reader of compressed event columns
 * (load_h5_fast.c).  Private to src/io.
 */
#ifndef SCOPEVIEW_IO_LOAD_H5_FAST_H
#define SCOPEVIEW_IO_LOAD_H5_FAST_H

#include "h5util.h"

/* sv_h5_fast_read's result when it did not read the range: the caller
 * reads it with H5Dread (the buffer may hold garbage meanwhile). */
#define SV_H5_FAST_NO 1

/*
 * Read elements [off, off + n) of a 1-D deflate, LZF or zstd (+
 * shuffle) chunked dataset of 8-byte (or 4-byte) elements whose file
 * type is memtype
 * into buf, fetching raw chunks in this thread and decoding them in
 * worker threads.  Reports progress from f0 to f1 ("events") and checks
 * cancellation between chunks.  Returns 0, -ECANCELED (error filled), or
 * SV_H5_FAST_NO: the dataset, the range or the options do not suit, or a
 * chunk would not decode (nothing filled: H5Dread gives the real error).
 */
int sv_h5_fast_read(struct sv_h5 *h, hid_t ds, hid_t memtype, hsize_t off,
	hsize_t n, void *buf, double f0, double f1);

/* After a crash inside HDF5 jumped out of sv_h5_fast_read: stop and join
 * its worker threads (they may still write to the destination). */
void sv_h5_fast_abort(void);

/* Chunks decoded by the parallel path so far in this process (for
 * tests: did the parallel path run?). */
uint64_t sv_h5_fast_chunks(void);

/* Batches of chunks the parallel path gave way on because a chunk in them
 * was stored in more bytes than any encoding of it takes, or did not
 * decode to exactly its size (for tests: did it refuse a hostile chunk
 * itself?).  The range is then read with H5Dread, which refuses it too
 * (load_h5_chunks.h). */
uint64_t sv_h5_fast_refused(void);

#endif
