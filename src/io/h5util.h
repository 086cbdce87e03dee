/*
 * h5util.h: the HDF5 helpers every part of the loader uses (h5util.c):
 * the load context, failing with a message that names the file and the
 * object, opening and reading validated 1-D datasets, string and integer
 * attributes, groups and their links, progress and cancellation.
 *
 * Private to src/io/load_h5*.c and h5util.c: with write_h5.c these are the
 * only files that may include <hdf5.h>.  This is the loader's leaf: it
 * uses only the crash guard (load_h5_guard.h) and core, never the layout
 * readers, so they can all use it without a cycle.
 *
 * Every helper that can fail fills the context's sv_error with one line
 * "FILE: /hdf5/object: what is wrong" and returns a negative errno; helpers
 * that can only warn append to the profile's warnings instead.
 */
#ifndef SCOPEVIEW_IO_H5UTIL_H
#define SCOPEVIEW_IO_H5UTIL_H

#include <hdf5.h>
#include <stdbool.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/load.h"
#include "scopeview/profile.h"
#include "scopeview/strv.h"

/* One load in progress. */
struct sv_h5 {
	hid_t file;
	const char *path; /* as the caller gave it, for messages */
	struct sv_profile *p;
	struct sv_error *err;
	const struct sv_load_opts *opts;
	uint64_t file_bytes; /* size of the file, to reject absurd shapes */
	bool refused;        /* the last read failed on a chunk that does not
			 decode to its size (load_h5_chunks.h) */
};

/* An opened, validated 1-D dataset. */
struct sv_h5_col {
	hid_t ds;  /* H5I_INVALID_HID when absent */
	hsize_t n; /* number of elements */
	bool is_float;
};

/* Flags for sv_h5_col_open. */
enum {
	SV_H5_REQUIRED = 1 << 0, /* absent or unusable is an error */
	SV_H5_INT = 1 << 1,      /* must be an integer */
	SV_H5_NUMBER = 1 << 2,   /* integer or float */
	SV_H5_STRING = 1 << 3,   /* a string (variable or fixed length) */
	SV_H5_ANY = 1 << 4,      /* any type (compound for summaries) */
	/* Read in slices: open it with a chunk cache that holds one of its
	 * chunks, so that each chunk is inflated once however many slices
	 * it spans (the default cache of 1 MiB holds none of a chunk of
	 * more, and every slice would inflate the whole chunk again). */
	SV_H5_SLICES = 1 << 5,
};

/* sv_h5_col_open's result besides 0 and a negative errno: the dataset is
 * absent, or optional and unusable (a warning was added). */
#define SV_H5_ABSENT 1

/* Fill h->err with "FILE: obj: message" (or "FILE: message" when obj is
 * NULL) and return code. */
int sv_h5_fail(struct sv_h5 *h, int code, const char *obj, const char *fmt, ...)
	SV_PRINTF(4, 5);

/* The most specific message on HDF5's error stack of this thread, or "" (a
 * static buffer; valid until the next call). */
const char *sv_h5_last_error(void);

/* A copy of file text fit for a one-line message: invalid UTF-8 replaced,
 * control characters escaped by the terminal's one rule
 * (sv_utf8_terminal_safe: "\x1b", "\n", "\u202e"; malloc'd). */
char *sv_h5_show(const char *s);

/* The name of HDF5 filter id as messages give it ("deflate (gzip)",
 * "LZF"), else stored (the name in the file), else "unknown". */
const char *sv_h5_filter_name(H5Z_filter_t id, const char *stored);

/* Is there an object called name under loc (one path component)? */
bool sv_h5_exists(hid_t loc, const char *name);

/*
 * Open loc/name as a 1-D dataset of the kind flags ask for; objpath names
 * it in messages.  Checks the filter pipeline too (a filter this HDF5
 * lacks is always an error).  Returns 0 (c filled; close with
 * sv_h5_col_close), SV_H5_ABSENT, or a negative errno.  want_n, when not
 * (hsize_t)-1, is the required length: a mismatch is an error for a
 * required column and a warning plus SV_H5_ABSENT for an optional one.
 */
int sv_h5_col_open(struct sv_h5 *h, hid_t loc, const char *name,
	const char *objpath, unsigned flags, hsize_t want_n,
	struct sv_h5_col *c);
void sv_h5_col_close(struct sv_h5_col *c);

/* Values in a chunk of the 1-D dataset ds; 0 when it is not chunked. */
hsize_t sv_h5_chunk_len(hid_t ds);

/* Read the ranges [off[i], off[i] + n[i]) (ascending, not overlapping)
 * of the 1-D dataset ds, one after another, into buf with one H5Dread
 * of their union (an OR of hyperslabs).  Returns 0 or a negative errno
 * (error filled, naming objpath). */
int sv_h5_read_ranges(struct sv_h5 *h, hid_t ds, const char *objpath,
	hid_t memtype, const hsize_t *off, const hsize_t *n, size_t nranges,
	void *buf);

/* Read elements [off, off + n) of a 1-D dataset into buf, converted to
 * memtype.  n == 0 reads nothing.  Like every read here, it goes through
 * sv_h5_chunks_read: a chunk that does not decode to its size fails it
 * with "cannot read: chunk N (values a to b): why", and h->refused. */
int sv_h5_read_range(struct sv_h5 *h, hid_t ds, const char *objpath,
	hid_t memtype, hsize_t off, hsize_t n, void *buf);

/* Fill the error for a read of objpath that failed with why (from
 * sv_h5_chunks_read, which set h->refused): "cannot read: chunk ...",
 * or "cannot read: the file is truncated or damaged<why>".  Returns
 * -EIO. */
int sv_h5_read_fail(struct sv_h5 *h, const char *objpath, const char *why);

/* After a read of an optional column failed with rc: when a chunk was
 * refused (h->refused), turn the error into the warning "OBJ: cannot
 * read: chunk ...; ignored", clear it and return true (the caller leaves
 * the column out); otherwise false (the error stands). */
bool sv_h5_read_optional(struct sv_h5 *h, int rc, const char *objpath);

/* Read all n elements of a 1-D string dataset (variable or fixed length)
 * into a new array of n sanitised, malloc'd strings. */
int sv_h5_read_strings(
	struct sv_h5 *h, hid_t ds, const char *objpath, hsize_t n, char ***out);

/* Read the n elements at rows[0 .. n) (ascending, in range) of a 1-D
 * string dataset into out[0 .. n) as sanitised, malloc'd strings: only
 * those elements are checked (variable length), converted and kept, so
 * a column of millions of strings costs what the rows asked for.  On
 * failure out holds nothing to free. */
int sv_h5_read_strings_at(struct sv_h5 *h, hid_t ds, const char *objpath,
	const hsize_t *rows, size_t n, char **out);

/* Read a scalar string attribute (variable or fixed length) as a
 * sanitised, malloc'd string.  Returns 0, SV_H5_ABSENT when there is no
 * such attribute, or -EINVAL when it is not a scalar string (no error
 * filled: the caller decides). */
int sv_h5_attr_string(hid_t loc, const char *name, char **out);

/* Read a 1-D (or scalar) string attribute as n strings. Same returns. */
int sv_h5_attr_strings(hid_t loc, const char *name, char ***out, size_t *n);

/* Read a scalar integer attribute.  Same returns. */
int sv_h5_attr_int(hid_t loc, const char *name, int64_t *out);

/* A type class as messages name it ("an integer", "a string", ...). */
const char *sv_h5_class_name(H5T_class_t c);

/* Open attribute loc/name (H5Aclose it) and give its type class and
 * element count: 1 for a scalar, -1 for a multi-dimensional or null
 * dataspace or a count above the limit below.  Returns a negative hid_t
 * when there is no such attribute or it cannot be opened. */
hid_t sv_h5_attr_open(
	hid_t loc, const char *name, H5T_class_t *cls, hssize_t *count);

/* Read the n elements of string attribute a (opened with
 * sv_h5_attr_open) into a new array of n sanitised, malloc'd strings.
 * Returns 0 or -EIO. */
int sv_h5_attr_read_strings(hid_t a, size_t n, char ***out);

/* The largest element count an attribute of this thread's current file
 * may claim (its size in bytes: each element takes at least a byte);
 * UINT64_MAX until set.  Set once per load, in the thread that reads. */
void sv_h5_attr_limit(uint64_t max_count);

/* Open the group /name of the file.  Returns it (H5Oclose it) with *rc 0,
 * or H5I_INVALID_HID with *rc a negative errno and the error filled: the
 * group is missing, cannot be opened, or is a dataset. */
hid_t sv_h5_open_group(struct sv_h5 *h, const char *name, int *rc);

/* Append the names of g's links to l, in HDF5's name order (failures
 * leave what was collected). */
void sv_h5_group_links(hid_t g, struct sv_strv *l);

/* Append the names of loc's attributes to l, in HDF5's name order
 * (failures leave what was collected). */
void sv_h5_attr_names(hid_t loc, struct sv_strv *l);

/* Call the caller's progress hook, then its cancel hook: returns
 * -ECANCELED (error filled) when the caller asked to stop. */
int sv_h5_step(struct sv_h5 *h, double fraction, const char *what);

#endif
