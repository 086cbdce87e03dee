/*
 * load_h5_priv.h: what the parts of the HDF5 loader share beyond the
 * helpers of h5util.h.  Private to src/io/load_h5*.c.
 *
 * The parts, lowest first (each uses only those before it and h5util.h):
 *   load_h5_keys.c    a set of int64 pairs: the first row of each key
 *   load_h5_meta.c    /metadata into the profile's metadata
 *   load_h5_index.c   /region_table and /rank_region_index: rows
 *   load_h5_subset.c  the rows of some ranks only (sv_load_opts.rank_on)
 *   load_h5_donor.c   rows copied from the previous load (opts->donor)
 *   load_h5_events.c  /events: the per-call columns (load_h5_fast.c)
 *   load_h5_layout.c  the columnar (schema 2, 3) and aggregate layouts
 *   load_h5_groups.c  schema 1, the per-rank groups
 *   load_h5_tables.c  /thread_table and /task_table (lane names), after
 *                     the layout: the calls' ids say which rows count
 *   load_h5_ranks.c   counters and line profiles of the rank groups
 *   load_h5_contents.c  the list of every object of the file
 *   load_h5_links.c   refusing external links and virtual datasets; a
 *                     set of object addresses
 *   load_h5.c         opening, picking the layout, the guarded thread
 */
#ifndef SCOPEVIEW_IO_LOAD_H5_PRIV_H
#define SCOPEVIEW_IO_LOAD_H5_PRIV_H

#include "h5util.h"
#include "load_priv.h"
#include "scopeview/callmeta.h"

/* A set of (a, b) keys in the order added (load_h5_keys.c): O(1) an add,
 * no hash while they ascend.  Zero-initialise; sv_h5_keys_fini frees. */
struct sv_h5_keys {
	int64_t *a, *b; /* the n keys added, in order */
	size_t n, cap;
	size_t *slot; /* open addressing: position + 1, once unordered */
	size_t nslot;
	bool unordered; /* a key came before the last one */
	size_t bytes;   /* what the set holds */
};
/* Add (a, b): true when it is new (now key n - 1), false when there. */
bool sv_h5_keys_add(struct sv_h5_keys *k, int64_t a, int64_t b);
void sv_h5_keys_fini(struct sv_h5_keys *k);

/* Read every attribute of /metadata into the profile (absent: nothing).
 * Values the profile cannot hold become warnings. */
int sv_h5_meta_load(struct sv_h5 *h);

/* The profile's metadata key as an integer the way Python's float()
 * reads it (int, float, bool or a numeric string); false when absent or
 * not a number. */
bool sv_h5_meta_int(const struct sv_profile *p, const char *key, int64_t *v);

/* Read /thread_table and /task_table when present, after the layout (the
 * rows and the calls' thread and task ids are read): only the rows a lane
 * can name are kept; damaged rows are counted in one warning a table, a
 * damaged table is dropped with a warning.  Returns 0 or a negative errno
 * (a read failure). */
int sv_h5_tables_load(struct sv_h5 *h);

/* The most bytes the lane tables' reader held at once (its slices, the
 * kept rows and their columns; not libhdf5's chunk cache) during the
 * last load of this process that read them: for tests of its bound. */
uint64_t sv_h5_tables_peak(void);

/* Rows to read at once from a column read in slices: 65536, or whole
 * chunks when its chunks are longer (up to 2^20 values), so that the
 * parallel decoder, which decodes whole chunks, inflates each once. */
hsize_t sv_h5_slice_rows(hid_t ds);

/* Rows [off, off + len) of 1-D dataset ds as mt into buf: through the
 * parallel decoder where it suits (load_h5_fast.h), else H5Dread.
 * Returns 0 or a negative errno (error filled, naming obj). */
int sv_h5_read_slice(struct sv_h5 *h, hid_t ds, const char *obj, hid_t mt,
	hsize_t off, hsize_t len, void *buf);

/* The index of a columnar or aggregate file: one entry per row. */
struct sv_h5_index {
	hsize_t nrows;
	int64_t *region, *rank, *offset, *count; /* nrows each, malloc'd */
	uint32_t nnames;                         /* region names read */
	/* A rank subset (load_h5_subset.c): keep[r] for each index row
	 * (NULL: no subset), and once applied the index row each row came
	 * from (src, NULL when every row is kept) and the index's length. */
	bool *keep;
	hsize_t *src, file_nrows;
	/* summary_statistics when read before the rows (the subset needs
	 * them): sums_read, and sums (NULL when absent or unusable). */
	bool sums_read;
	struct sv_summary *sums;
};

/* The index row of row r of ix (ix->src when a subset was applied). */
static inline hsize_t sv_h5_index_src(const struct sv_h5_index *ix, hsize_t r)
{
	return ix->src ? ix->src[r] : r;
}

/* Read the region names into the profile and open /rank_region_index
 * with its region_ids and ranks columns.  *g is the opened group
 * (H5I_INVALID_HID when it could not be opened); the caller closes it and
 * frees ix with sv_h5_index_free, also on failure. */
int sv_h5_index_open(struct sv_h5 *h, struct sv_h5_index *ix, hid_t *g);

/* Read the required integer column g/name into a new int64 array of *n
 * elements (*n == (hsize_t)-1: any length, which is stored in *n). */
int sv_h5_index_ints(
	struct sv_h5 *h, hid_t g, const char *name, hsize_t *n, int64_t **out);

/* Check region ids and ranks: in range, each (rank, region) pair once. */
int sv_h5_index_check_ids(struct sv_h5 *h, struct sv_h5_index *ix);

/* Check the event_offsets and event_counts of ix against event columns
 * of m elements (colpath names one in messages): every range inside, no
 * two rows sharing an event. */
int sv_h5_index_check_events(struct sv_h5 *h, struct sv_h5_index *ix, hsize_t m,
	const char *colpath);

/* summary_statistics of the index (nrows records) into a new array *out,
 * NULL when absent or unusable (a warning says which). */
int sv_h5_index_summaries(
	struct sv_h5 *h, hid_t g, hsize_t nrows, struct sv_summary **out);

/* Plan a rank-subset load (h->opts->rank_on) of a columnar file whose
 * offsets and counts are read: sets ix->keep when the subset can be read
 * exactly, which needs the stored start of every row left out (their
 * summary_statistics, read here into ix->sums) or a start_time_ns in the
 * metadata; otherwise every row is read.  Also fills the profile's
 * file_* figures.  Returns 0 or a negative errno. */
int sv_h5_subset_plan(struct sv_h5 *h, hid_t g, struct sv_h5_index *ix);

/* Apply ix->keep once the index is checked: drop the other rows from ix
 * (ix->src records where each kept row came from) and mark the profile a
 * rank subset. */
void sv_h5_subset_apply(struct sv_h5 *h, struct sv_h5_index *ix);

/* The optional event columns (doc/format.md 4.7), in the order the
 * loader reads them (load_h5_events.c) and a donor is checked for them
 * (load_h5_donor.c); sv_h5_optional_names holds their dataset names. */
enum sv_h5_optional {
	SV_H5_OPT_GPU,
	SV_H5_OPT_CALL_IDS, /* then the other id columns, in sv_id_column's
			       order */
	SV_H5_OPT_PARENT_IDS,
	SV_H5_OPT_THREAD_IDS,
	SV_H5_OPT_TASK_IDS,
	SV_H5_OPT_AWAIT,
	SV_H5_OPTIONAL
};
/* donor_id() (load_h5_donor.c) counts on it. */
_Static_assert((int)SV_ID_CALL == 0 &&
		       (int)SV_H5_OPT_CALL_IDS + (int)SV_ID_PARENT ==
			       (int)SV_H5_OPT_PARENT_IDS &&
		       (int)SV_H5_OPT_CALL_IDS + (int)SV_ID_THREAD ==
			       (int)SV_H5_OPT_THREAD_IDS &&
		       (int)SV_H5_OPT_CALL_IDS + (int)SV_ID_TASK ==
			       (int)SV_H5_OPT_TASK_IDS,
	"the id columns follow enum sv_id_column's order");
extern const char *const sv_h5_optional_names[SV_H5_OPTIONAL];

/* The rows of a reload copied from the previous load's profile
 * (sv_load_opts.donor, load_h5_donor.c) instead of read. */
struct sv_h5_donor {
	const struct sv_profile *d; /* NULL: every row is read */
	uint32_t *row;  /* per row of h->p: the donor's row, or UINT32_MAX
			   for a row read from the file */
	uint64_t calls; /* calls copied */
	bool given;     /* opts->donor was set */
	bool released;  /* opts->donor_done was called */
};
/* Which rows of h->p (added from ix, the event columns of group ev not
 * yet read) can be copied from h->opts->donor: none when the donor is not
 * a profile of this file with its columns, when the file has
 * extra_columns (named columns of its own), or when the rows do not
 * ascend in the file. */
void sv_h5_donor_plan(struct sv_h5 *h, hid_t ev, const struct sv_h5_index *ix,
	size_t extra_columns, struct sv_h5_donor *dn);
/* Is row r of h->p copied? */
static inline bool sv_h5_donor_row(const struct sv_h5_donor *dn, size_t r)
{
	return dn->d && dn->row[r] != UINT32_MAX;
}
/* Fill the copied rows' starts and ends (p->start_ns, p->end_ns: plain
 * times, after schema 3's deltas are decoded). */
void sv_h5_donor_times(struct sv_h5 *h, const struct sv_h5_donor *dn);
/* Fill the copied rows of optional column k in dst. */
void sv_h5_donor_column(struct sv_h5 *h, const struct sv_h5_donor *dn,
	enum sv_h5_optional k, int64_t *dst);
/* Done with the donor: opts->donor_done once, h->p->kept_calls set. */
void sv_h5_donor_release(struct sv_h5 *h, struct sv_h5_donor *dn);

/* Read the optional per-row columns (source, tags, summaries) onto the
 * profile's rows, which must be the index's rows in order. */
int sv_h5_index_row_extras(struct sv_h5 *h, hid_t g, struct sv_h5_index *ix);

/* Free ix's columns (not ix). */
void sv_h5_index_free(struct sv_h5_index *ix);

/* sv_profile_add_row failed (too many calls): say so naming obj. */
int sv_h5_index_row_fail(struct sv_h5 *h, const char *obj);

/* Read the event columns of group ev for the rows of ix into the profile
 * (doc/format.md 3.1, 2): adds the rows, checks their event ranges. */
int sv_h5_events_load(struct sv_h5 *h, hid_t ev, struct sv_h5_index *ix);

/* Set row->has_gpu from the call column (doc/format.md 4.7: any value >= 0). */
void sv_h5_events_rows_gpu(struct sv_profile *p);

/* Schema 2/3 columnar layout (doc/format.md 4). */
int sv_h5_layout_columnar(struct sv_h5 *h);

/* Aggregate layout (doc/format.md 7): per-row totals, no calls. */
int sv_h5_layout_aggregate(struct sv_h5 *h);

/* Schema 1 (load_h5_groups.c): rank<N>/regions/<name>/... */
int sv_h5_groups_load(struct sv_h5 *h);

/* After the layout (load_h5_ranks.c, doc/format.md 4.12): the counters
 * and line profiles of the rank<N> groups into the profile, and the paths
 * of objects no part of the loader reads into p->unshown.  Only warns. */
int sv_h5_ranks_load(struct sv_h5 *h);

/* Every group and dataset of the file into p->nodes
 * (load_h5_contents.c, doc/format.md 4.13).  Only warns. */
int sv_h5_contents_load(struct sv_h5 *h);

/* Fail (-ENOTSUP, a message naming it) on the first external or
 * user-defined link or virtual dataset anywhere in h->file; see
 * load_h5_links.c.  Returns 0 or a negative errno. */
int sv_h5_links_check(struct sv_h5 *h);

/* A set of HDF5 object addresses: one object reached by several names
 * (hard links) is read once.  Zero-initialise; sv_h5_objects_fini frees. */
struct sv_h5_objects {
	haddr_t *addr; /* cap slots, HADDR_UNDEF when empty */
	size_t n, cap;
};
/* Add a; false when it was there already. */
bool sv_h5_objects_add(struct sv_h5_objects *o, haddr_t a);
/* Is loc/name an object already added?  Adds it when not (and answers
 * false when its address cannot be read). */
bool sv_h5_objects_again(struct sv_h5_objects *o, hid_t loc, const char *name);
void sv_h5_objects_fini(struct sv_h5_objects *o);

#endif
