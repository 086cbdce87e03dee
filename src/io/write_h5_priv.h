/*
 * write_h5_priv.h: what the parts of the HDF5 writer share.  Private to
 * src/io/write_h5*.c.
 *
 *   write_h5_util.c    errors, string and summary types, dataset layout,
 *                      datasets, groups, attributes
 *   write_h5.c         opening, metadata, region names and tags
 *   write_h5_events.c  the event columns; schema 1's per-rank groups
 *   write_h5_rank.c    sv_writer_add_rank
 *   write_h5_close.c   sv_writer_close: the index, tables, buffered events
 *
 * write_stats.c (no HDF5) computes the per-row summaries and exclusive
 * totals the writer stores.
 */
#ifndef SCOPEVIEW_IO_WRITE_H5_PRIV_H
#define SCOPEVIEW_IO_WRITE_H5_PRIV_H

#include <hdf5.h>
#include <stdbool.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/outfile.h"
#include "scopeview/strv.h"
#include "scopeview/write.h"

/* Event column slots.  A and B are start_deltas/durations (schema 3) or
 * start_times/end_times (schema 2). */
enum {
	COL_A,
	COL_B,
	COL_GPU,
	COL_CALL,
	COL_PARENT,
	COL_THREAD,
	COL_TASK,
	COL_AWAIT,
	NCOLS
};

/* Dataset names of the event columns, schema 3 and schema 2, and each
 * column's value for events that do not have it. */
extern const char *const sv_write_col_names3[NCOLS];
extern const char *const sv_write_col_names2[NCOLS];
extern const int64_t sv_write_col_fill[NCOLS];

/* Events gathered per block before they go to the file or the buffer. */
#define WRITE_BLOCK 65536

struct write_index_row {
	uint32_t region, rank;
	uint64_t offset, count;
	int64_t source_line, exclusive;
	char *source_file, *source_text, *tags;
	struct sv_write_summary summary;
};

struct write_thread_row {
	uint32_t rank;
	struct sv_write_thread t;
};

struct write_task_row {
	uint32_t rank;
	struct sv_write_task t;
};

struct sv_writer {
	struct sv_writer_opts opts;
	char *path;     /* destination */
	char *tmp_path; /* what is being written (== path when in place) */
	struct sv_outfile out; /* the temporary, unless in place */
	bool has_out;
	hid_t file, fapl, fcpl, gcpl;
	hid_t g_events, g_meta;
	hid_t t_str; /* vlen UTF-8 */
	bool failed;

	/* Region names, with an open-addressing hash of their ids. */
	struct sv_strv names;
	uint32_t *hash; /* UINT32_MAX = empty */
	size_t hash_cap;

	struct write_index_row *rows;
	size_t nrows, rows_cap;
	struct write_thread_row *threads;
	size_t nthreads, threads_cap;
	struct write_task_row *tasks;
	size_t ntasks, tasks_cap;

	uint32_t *ranks_seen;
	size_t nranks_seen, ranks_seen_cap;

	/* Event columns. */
	uint64_t nevents;
	bool present[NCOLS];
	bool spilled;          /* datasets exist; buffers are unused */
	hid_t ds[NCOLS];       /* when spilled */
	int64_t *buf[NCOLS];   /* when not spilled: nevents values */
	size_t buf_cap[NCOLS]; /* elements */
	size_t string_bytes;   /* for the 16 MiB estimate */
};

/* How a dataset is stored. */
struct sv_write_layout {
	bool chunked, compressed;
	hsize_t chunk;
};

/* What a dataset holds, for its chunk size. */
enum sv_write_kind { KIND_EVENT, KIND_INDEX, KIND_TABLE };

/* write_h5.c */

/* Close every HDF5 object of w and free it (NULL-safe); the file on disk
 * is left as it is. */
void sv_write_free(struct sv_writer *w);

/* The id of region name, adding it (in order of first appearance) when
 * new. */
uint32_t sv_write_region_id(struct sv_writer *w, const char *name);

/* Python's json.dumps(list_of_str) with its defaults: ", " separators and
 * every non-ASCII character escaped as \uXXXX (surrogate pairs above
 * U+FFFF). */
char *sv_write_tags_json(const char *const *tags, size_t n);

/* write_h5_util.c */

/* H5Ewalk2 callback: copy the innermost error description into data (200
 * bytes) unless it already holds one. */
herr_t sv_write_walk_cb(unsigned n, const H5E_error2_t *e, void *data);

/* Fill err with "<path>: <what>: <innermost HDF5 message>". */
int sv_write_fail(struct sv_writer *w, struct sv_error *err, const char *what);

/* A UTF-8 string type: variable-length for 0, else fixed_width bytes,
 * NUL-padded.  The caller closes it. */
hid_t sv_write_str_type(size_t fixed_width);

/* The compound type of struct sv_write_summary: little-endian in the file
 * (file), native in memory.  The caller closes it. */
hid_t sv_write_summary_type(bool file);

/* The storage of a dataset of n elements of elem_bytes (8 for
 * variable-length strings, as h5py counts them) written at close. */
/* Elements per chunk of w's event columns and lane tables. */
hsize_t sv_write_event_chunk(const struct sv_writer *w);
struct sv_write_layout sv_write_layout_for(const struct sv_writer *w,
	enum sv_write_kind kind, uint64_t n, size_t elem_bytes);

/* Create a 1-D dataset of n elements with the given layout and write buf
 * (memory type mtype) into it.  Returns the dataset (caller closes) or a
 * negative id. */
hid_t sv_write_dataset(hid_t loc, const char *name, hid_t ftype, hid_t mtype,
	uint64_t n, const void *buf, const struct sv_write_layout *l);

/* Append n values to a chunked 1-D dataset that holds `have` values. */
int sv_write_append(
	hid_t ds, hid_t mtype, uint64_t have, uint64_t n, const void *buf);

/* Create group loc/name with the creation properties gcpl. */
hid_t sv_write_group(hid_t loc, const char *name, hid_t gcpl);

/* A scalar attribute of type ftype from memory mtype. */
int sv_write_attr(
	hid_t loc, const char *name, hid_t ftype, hid_t mtype, const void *val);

/* A scalar string attribute of string type t_str. */
int sv_write_attr_str(hid_t loc, const char *name, hid_t t_str, const char *s);

/* A 1-D string attribute of the n strings v. */
int sv_write_attr_strs(hid_t loc, const char *name, hid_t t_str,
	const char *const *v, size_t n);

/* write_h5_events.c */

/* Present event columns in the order of their names (as h5py's copy
 * visits them when scope-profiler publishes a file). */
int sv_write_col_order(const struct sv_writer *w, int *order);

/* Move the buffered events into chunked datasets. */
int sv_write_spill(struct sv_writer *w, struct sv_error *err);

/* Make column c exist, holding its fill value for every earlier event. */
int sv_write_col_add(struct sv_writer *w, int c, struct sv_error *err);

/* Store a block of m events per present column (values[c] m long). */
int sv_write_events_block(struct sv_writer *w, int64_t *const *values,
	uint64_t m, struct sv_error *err);

/* Schema 1: write rank r as rank<N>/regions/<name>/ groups, row i's calls
 * being perm[first[i] .. first[i] + count[i]). */
int sv_write_s1_rank(struct sv_writer *w, const struct sv_write_rank *r,
	const uint32_t *perm, const uint64_t *first, const uint64_t *count,
	struct sv_error *err);

/* write_stats.c */

/* Summary of n calls given by index (idx == NULL: 0..n-1).  np.add.reduce
 * with dtype=float64 works through buffers of SV_PAIRWISE_NP_BUFSIZE
 * values, each summed pairwise, accumulated in order; so the statistics
 * need only one buffer of that size, whatever the row's length. */
void sv_write_summary_idx(const int64_t *start, const int64_t *end,
	const int64_t *gpu, const uint32_t *idx, size_t n,
	struct sv_write_summary *s);

#endif
