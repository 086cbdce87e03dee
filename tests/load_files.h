/*
 * load_files.h: what the parts of the load suite (tests/test_load*.c)
 * share: the HDF5 files they write at run time with raw HDF5 calls
 * (load_files.c: small hand-made profiles, the base file and its
 * mutations, the writer's file; load_files_big.c: large compressed event
 * columns), and the checks of a load's outcome.  Each part adds its test
 * cases to the one "load" suite that test_load.c runs (lf_add_*).
 */
#ifndef SCOPEVIEW_TEST_LOAD_FILES_H
#define SCOPEVIEW_TEST_LOAD_FILES_H

#include <check.h>
#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/load.h"
#include "scopeview/profile.h"

/* ---- raw HDF5 writers (load_files.c); each fails the test on error ---- */

hid_t lf_h5_create(const char *path);
hid_t lf_h5_group(hid_t loc, const char *name);
/* A scalar attribute of file type ftype, written from v as mtype. */
void lf_attr_num(
	hid_t loc, const char *name, hid_t ftype, hid_t mtype, const void *v);
void lf_attr_i64(hid_t loc, const char *name, int64_t v);
void lf_attr_f64(hid_t loc, const char *name, double v);
/* h5py's bool: an int8 enum with FALSE = 0 and TRUE = 1. */
void lf_attr_bool(hid_t loc, const char *name, bool v);
/* A variable-length UTF-8 string. */
void lf_attr_str(hid_t loc, const char *name, const char *v);
/* A fixed-length, NUL-padded string (v under 60 bytes). */
void lf_attr_fixed_str(hid_t loc, const char *name, const char *v);
void lf_attr_strs(hid_t loc, const char *name, const char **v, hsize_t n);
void lf_attr_i64s(hid_t loc, const char *name, const int64_t *v, hsize_t n);
/* A 1-D dataset of n values given as int64, stored as ftype, with the
 * creation properties dcpl. */
void lf_ds_ints_dcpl(hid_t loc, const char *name, hid_t ftype, const int64_t *v,
	hsize_t n, hid_t dcpl);
void lf_ds_ints(
	hid_t loc, const char *name, hid_t ftype, const int64_t *v, hsize_t n);
void lf_ds_f64(hid_t loc, const char *name, const double *v, hsize_t n);
/* Strings, variable length (fixed == 0) or fixed length of that size. */
void lf_ds_strs(hid_t loc, const char *name, const char *const *v, hsize_t n,
	size_t fixed);

/* ---- the base file: a small valid schema 3 profile (load_files.c) ---- */

/* The one mutation lf_base_write applies. */
enum lf_mutation {
	M_NONE,
	/* errors */
	M_SCHEMA_STR,
	M_SCHEMA_FLOAT,
	M_SCHEMA_BOOL,
	M_SCHEMA_ARRAY,
	M_SCHEMA_ZERO,
	M_SCHEMA_NEG,
	M_SCHEMA_4,
	M_NO_EVENTS,
	M_EVENTS_DATASET,
	M_NO_REGION_TABLE,
	M_NO_NAMES,
	M_NAMES_INT,
	M_NO_COUNTS,
	M_NO_START,
	M_NO_DURATIONS,
	M_COUNTS_FLOAT,
	M_COUNTS_2D,
	M_RANKS_SHORT,
	M_START_STRINGS,
	M_ROW_PAST,
	M_OFFSET_PAST,
	M_OVERLAP,
	M_REGION_RANGE,
	M_REGION_NEG,
	M_RANK_NEG,
	M_DUP_ROW,
	M_SHORT_DURATIONS,
	M_FILTER,
	M_HUGE_DIMS,
	/* warnings or variants that load */
	M_NO_SCHEMA,
	M_LAYOUT_BOGUS,
	M_TAGS_BAD,
	M_GPU_SHORT,
	M_CALLIDS_FLOAT,
	M_AWAIT_2D,
	M_END_BEFORE,
	M_EXTRA_COLS,
	M_EXTRA_BADLEN,
	M_SUMMARY_FIELDS,
	M_SCHEMA_U8,
	M_FIXED_STRINGS,
	M_CHUNKED_DEFLATE,
	M_COMPACT,
	M_ROWS_UNORDERED,
	M_NO_ROWS,
	M_LANES,
};

/* The base file's number of calls. */
#define LF_BASE_EVENTS 6

/* The base file with mutation m, as name in the temporary directory
 * (malloc'd path). */
char *lf_base_write(const char *name, enum lf_mutation m);
/* The base profile's calls, whatever order its rows are stored in. */
void lf_check_base_calls(const struct sv_profile *p);

/* ---- the writer's file (write.h), schema 1, 2 or 3 (load_files.c) ---- */

/* Rank 2's calls, row after row: starts, ends, GPU times, thread ids,
 * await times, call ids and parent ids (4 each). */
extern const int64_t lf_wr_start2[], lf_wr_end2[], lf_wr_gpu2[],
	lf_wr_thread2[], lf_wr_await2[], lf_wr_cid2[], lf_wr_pid2[];
/* Ranks 2 (rows b and a) and 10 (row a), with metadata of every kind. */
char *lf_writer_file(const char *name, int schema);

/* ---- large compressed event columns (load_files_big.c) ---- */

struct lf_big_case {
	const char *name;
	hsize_t n;     /* events */
	hsize_t chunk; /* chunk of the event columns */
	bool shuffle;
	int nrows;     /* rows of n / nrows calls (the last takes the rest) */
	bool reversed; /* rows listed in reverse order of their slices */
	bool fletcher; /* add a checksum filter: the parallel path steps aside */
	bool contiguous; /* no chunks at all */
	int codec;       /* LF_BIG_DEFLATE, LF_BIG_LZF or LF_BIG_ZSTD */
};

enum { LF_BIG_DEFLATE, LF_BIG_LZF, LF_BIG_ZSTD };

/* The parallel inflate path's cases (test_load_fast.c); the damaged-file
 * fuzz starts from the first. */
extern const struct lf_big_case lf_big_cases[];
extern const size_t lf_nbig_cases;
/* A deterministic stream of 64-bit values (splitmix64). */
uint64_t lf_mix_next(uint64_t *state);
/* Case c's profile; want_start gets its c->n decoded start times. */
char *lf_big_write(const struct lf_big_case *c, int64_t *want_start);

/* ---- loads and their outcome (load_files.c) ---- */

/* path loaded with o (NULL: the defaults), which must succeed. */
struct sv_profile *lf_load_opts(const char *path, const struct sv_load_opts *o);
struct sv_profile *lf_load_ok(const char *path);
/* The load of path fails with code and a one-line message that starts
 * with the path and holds frag. */
void lf_expect_fail(const char *path, int code, const char *frag);
bool lf_has_warning(const struct sv_profile *p, const char *frag);
void lf_dump_warnings(const struct sv_profile *p);
/* Two columns of n 8-byte values: both absent or equal. */
void lf_same_col(const void *a, const void *b, size_t n, const char *what);

/* ---- the parts of the suite: each adds its test cases to s ---- */

void lf_add_errors(Suite *s);      /* test_load_errors.c */
void lf_add_open(Suite *s);        /* test_load_open.c */
void lf_add_columnar(Suite *s);    /* test_load_columnar.c */
void lf_add_fast(Suite *s);        /* test_load_fast.c */
void lf_add_guard(Suite *s);       /* test_load_guard.c */
void lf_add_subset(Suite *s);      /* test_load_subset.c */
void lf_add_rank_groups(Suite *s); /* test_load_rank_groups.c */
void lf_add_meta(Suite *s);        /* test_load_meta.c */
void lf_add_writer(Suite *s);      /* test_load_writer.c */
void lf_add_fixtures(Suite *s);    /* test_load_fixtures.c */

#endif
