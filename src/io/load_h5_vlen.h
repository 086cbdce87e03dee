/*
 * load_h5_vlen.h: checking variable-length strings before libhdf5 reads
 * them (load_h5_vlen.c).  Private to src/io; uses nothing else of the
 * loader.
 */
#ifndef SCOPEVIEW_IO_LOAD_H5_VLEN_H
#define SCOPEVIEW_IO_LOAD_H5_VLEN_H

#include <hdf5.h>
#include <stddef.h>

/*
 * Check every element of a variable-length string dataset (is_attr
 * false) or attribute (is_attr true) against the global heap object it
 * points to, before H5Dread or H5Aread turns them into strings.  Returns
 * 0 when each element is null or names a heap object of exactly its
 * stated length (or when obj is not a variable-length string), and
 * -EIO when one is not, with one line about the first bad element in
 * why ("element 3 says 1 byte, but its heap object holds 5000"), or
 * -EBADMSG when a chunk of the dataset's descriptors does not decode to
 * its size (why: "chunk 0 (values 0 to 255): ...", load_h5_chunks.h).
 *
 * libhdf5 1.10 copies the whole heap object into a buffer of the stated
 * length: a shorter stated length overflows its heap, and glibc then
 * aborts in a way no signal handler can recover from.
 */
int sv_h5_vlen_check(hid_t obj, int is_attr, char *why, size_t n);

/* The same for the elements the file dataspace fspace selects of the
 * dataset ds only (a slice of a column). */
int sv_h5_vlen_check_points(hid_t ds, hid_t fspace, char *why, size_t n);

#endif
