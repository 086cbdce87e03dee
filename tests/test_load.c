/*
 * test_load.c: the HDF5 loader (load.h) on the fixtures and on files
 * this test writes at run time with raw HDF5 calls: every layout, string
 * kind, storage kind and metadata type, and every malformed input of
 * issue 2's table (the right error code and message, or the right warning).
 *
 * The base file (base_write) is a small valid schema 3 profile; each case
 * applies one mutation to it.
 */
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../src/io/load_h5_fast.h" /* sv_h5_fast_chunks */
#include <lzf.h>
#include <zstd.h>
#include "helpers.h"
#include "scopeview/callmeta.h"
#include "scopeview/common.h"
#include "scopeview/gen.h"
#include "scopeview/load.h"
#include "scopeview/profile.h"
#include "scopeview/write.h"

/* ------------------------------------------------------------------ */
/* Raw HDF5 writing helpers                                            */

static hid_t h5_create(const char *path)
{
	hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
	ck_assert_int_ge(f, 0);
	return f;
}

static hid_t h5_group(hid_t loc, const char *name)
{
	hid_t g = H5Gcreate2(loc, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	ck_assert_int_ge(g, 0);
	return g;
}

static hid_t utf8_vlen(void)
{
	hid_t t = H5Tcopy(H5T_C_S1);
	H5Tset_size(t, H5T_VARIABLE);
	H5Tset_cset(t, H5T_CSET_UTF8);
	return t;
}

static void attr_num(
	hid_t loc, const char *name, hid_t ftype, hid_t mtype, const void *v)
{
	hid_t s = H5Screate(H5S_SCALAR);
	hid_t a = H5Acreate2(loc, name, ftype, s, H5P_DEFAULT, H5P_DEFAULT);
	ck_assert_int_ge(a, 0);
	ck_assert_int_ge(H5Awrite(a, mtype, v), 0);
	H5Aclose(a);
	H5Sclose(s);
}

static void attr_i64(hid_t loc, const char *name, int64_t v)
{
	attr_num(loc, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &v);
}

static void attr_f64(hid_t loc, const char *name, double v)
{
	attr_num(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v);
}

/* h5py's bool: an int8 enum with FALSE = 0 and TRUE = 1. */
static void attr_bool(hid_t loc, const char *name, bool v)
{
	hid_t t = H5Tenum_create(H5T_NATIVE_INT8);
	int8_t f = 0, tr = 1, val = v;
	H5Tenum_insert(t, "FALSE", &f);
	H5Tenum_insert(t, "TRUE", &tr);
	attr_num(loc, name, t, t, &val);
	H5Tclose(t);
}

static void attr_str(hid_t loc, const char *name, const char *v)
{
	hid_t t = utf8_vlen();
	attr_num(loc, name, t, t, &v);
	H5Tclose(t);
}

static void attr_fixed_str(hid_t loc, const char *name, const char *v)
{
	hid_t t = H5Tcopy(H5T_C_S1);
	H5Tset_size(t, strlen(v) + 4);
	H5Tset_strpad(t, H5T_STR_NULLPAD);
	char buf[64] = {0};
	memcpy(buf, v, strlen(v));
	attr_num(loc, name, t, t, buf);
	H5Tclose(t);
}

static void attr_strs(hid_t loc, const char *name, const char **v, hsize_t n)
{
	hid_t t = utf8_vlen();
	hid_t s = H5Screate_simple(1, &n, NULL);
	hid_t a = H5Acreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
	ck_assert_int_ge(H5Awrite(a, t, v), 0);
	H5Aclose(a);
	H5Sclose(s);
	H5Tclose(t);
}

static void attr_i64s(hid_t loc, const char *name, const int64_t *v, hsize_t n)
{
	hid_t s = H5Screate_simple(1, &n, NULL);
	hid_t a = H5Acreate2(
		loc, name, H5T_STD_I64LE, s, H5P_DEFAULT, H5P_DEFAULT);
	ck_assert_int_ge(H5Awrite(a, H5T_NATIVE_INT64, v), 0);
	H5Aclose(a);
	H5Sclose(s);
}

/* A 1-D dataset of n values given as int64, stored as ftype. */
static void ds_ints_dcpl(hid_t loc, const char *name, hid_t ftype,
	const int64_t *v, hsize_t n, hid_t dcpl)
{
	hid_t s = H5Screate_simple(1, &n, NULL);
	hid_t d =
		H5Dcreate2(loc, name, ftype, s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	ck_assert_msg(d >= 0, "cannot create %s", name);
	if (n)
		ck_assert_int_ge(H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL,
					 H5P_DEFAULT, v),
			0);
	H5Dclose(d);
	H5Sclose(s);
}

static void ds_ints(
	hid_t loc, const char *name, hid_t ftype, const int64_t *v, hsize_t n)
{
	ds_ints_dcpl(loc, name, ftype, v, n, H5P_DEFAULT);
}

static void ds_f64(hid_t loc, const char *name, const double *v, hsize_t n)
{
	hid_t s = H5Screate_simple(1, &n, NULL);
	hid_t d = H5Dcreate2(loc, name, H5T_IEEE_F64LE, s, H5P_DEFAULT,
		H5P_DEFAULT, H5P_DEFAULT);
	ck_assert_int_ge(d, 0);
	if (n)
		H5Dwrite(
			d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
	H5Dclose(d);
	H5Sclose(s);
}

/* Strings, variable length (fixed == 0) or fixed length of that size. */
static void ds_strs(hid_t loc, const char *name, const char *const *v,
	hsize_t n, size_t fixed)
{
	hid_t s = H5Screate_simple(1, &n, NULL);
	hid_t t;
	hid_t d;
	if (fixed) {
		char *buf = calloc(n ? n : 1, fixed);
		hsize_t i;
		t = H5Tcopy(H5T_C_S1);
		H5Tset_size(t, fixed);
		H5Tset_strpad(t, H5T_STR_NULLPAD);
		H5Tset_cset(t, H5T_CSET_UTF8);
		for (i = 0; i < n; i++)
			strncpy(buf + i * fixed, v[i], fixed);
		d = H5Dcreate2(
			loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		ck_assert_int_ge(d, 0);
		if (n)
			H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
		free(buf);
	} else {
		t = utf8_vlen();
		d = H5Dcreate2(
			loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		ck_assert_int_ge(d, 0);
		if (n)
			H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
	}
	H5Dclose(d);
	H5Tclose(t);
	H5Sclose(s);
}

/* ------------------------------------------------------------------ */
/* The base file: a small valid schema 3 profile, and its mutations    */

enum mutation {
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

/*
 * Rows (rank, region, offset, count): (0, solve, 0, 3), (0, io, 3, 2),
 * (1, solve, 5, 1).  Row 0's calls are stored out of start order, so its
 * second delta is negative.
 */
static const int64_t base_start[] = {100, 150, 130, 200, 210, 1000};
static const int64_t base_end[] = {110, 170, 135, 205, 215, 1050};
#define BASE_EVENTS 6

struct summary88 {
	int64_t total, minimum, maximum, first, last, start_minimum,
		end_maximum;
	uint64_t gpu_count;
	int64_t gpu_total;
	double mean, m2;
};

static void base_summaries(hid_t g, bool drop_m2)
{
	hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct summary88));
	struct summary88 v[3] = {
		{35, 5, 20, 10, 5, 100, 170, 0, 0, 35.0 / 3, 116.666},
		{10, 5, 5, 5, 5, 200, 215, 0, 0, 5.0, 0.0},
		{50, 50, 50, 50, 50, 1000, 1050, 0, 0, 50.0, 0.0},
	};
	hsize_t n = 3;
	hid_t s, d;
#define F(name, type) \
	H5Tinsert(t, #name, offsetof(struct summary88, name), type)
	F(total, H5T_STD_I64LE);
	F(minimum, H5T_STD_I64LE);
	F(maximum, H5T_STD_I64LE);
	F(first, H5T_STD_I64LE);
	F(last, H5T_STD_I64LE);
	F(start_minimum, H5T_STD_I64LE);
	F(end_maximum, H5T_STD_I64LE);
	F(gpu_count, H5T_STD_U64LE);
	F(gpu_total, H5T_STD_I64LE);
	F(mean, H5T_IEEE_F64LE);
	if (!drop_m2)
		F(m2, H5T_IEEE_F64LE);
#undef F
	s = H5Screate_simple(1, &n, NULL);
	d = H5Dcreate2(g, "summary_statistics", t, s, H5P_DEFAULT, H5P_DEFAULT,
		H5P_DEFAULT);
	ck_assert_int_ge(d, 0);
	H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
	H5Dclose(d);
	H5Sclose(s);
	H5Tclose(t);
}

static char *base_write(const char *name, enum mutation m)
{
	char *path = svt_tmp_path(name);
	hid_t f = h5_create(path);
	hid_t g, ev;
	int64_t region[] = {0, 1, 0}, rank[] = {0, 0, 1};
	int64_t offset[] = {0, 3, 5}, count[] = {3, 2, 1};
	int64_t lines[] = {7, -1, 7}, excl[] = {35, -1, 50};
	const char *files[] = {"solver.py", "", "solver.py"};
	const char *texts[] = {"with solve:", "", ""};
	const char *tags[] = {"[\"golden\", \"hot\"]", "[]", ""};
	const char *names[] = {"solve", "io"};
	int64_t start[8], dur[8];
	hsize_t nrows = 3, nev = BASE_EVENTS;
	size_t fixed = m == M_FIXED_STRINGS ? 24 : 0;
	int i;

	if (m == M_ROWS_UNORDERED) {
		/* Rows listed in another order than their event slices, with
		 * a gap of one unused event between them. */
		offset[0] = 3;
		offset[1] = 0;
		offset[2] = 6;
		nev = 7;
	}
	if (m == M_NO_ROWS)
		nrows = 0;

	/* Root attributes. */
	switch (m) {
	case M_NO_SCHEMA:
		break;
	case M_SCHEMA_STR:
		attr_str(f, "scope_profiler_schema", "3");
		break;
	case M_SCHEMA_FLOAT:
		attr_f64(f, "scope_profiler_schema", 3.0);
		break;
	case M_SCHEMA_BOOL:
		attr_bool(f, "scope_profiler_schema", true);
		break;
	case M_SCHEMA_ARRAY: {
		int64_t v[] = {3};
		attr_i64s(f, "scope_profiler_schema", v, 1);
		break;
	}
	case M_SCHEMA_ZERO:
		attr_i64(f, "scope_profiler_schema", 0);
		break;
	case M_SCHEMA_NEG:
		attr_i64(f, "scope_profiler_schema", -1);
		break;
	case M_SCHEMA_4:
		attr_i64(f, "scope_profiler_schema", 4);
		break;
	case M_SCHEMA_U8: {
		uint8_t v = 3;
		attr_num(f, "scope_profiler_schema", H5T_STD_U8LE,
			H5T_NATIVE_UINT8, &v);
		break;
	}
	default:
		attr_i64(f, "scope_profiler_schema", 3);
	}
	attr_str(f, "storage_layout",
		m == M_LAYOUT_BOGUS ? "bogus" : "columnar");

	g = h5_group(f, "metadata");
	attr_i64(g, "mpi_size", 2);
	attr_i64(g, "start_time_ns", 50);
	H5Gclose(g);

	if (m != M_NO_REGION_TABLE) {
		g = h5_group(f, "region_table");
		if (m == M_NAMES_INT)
			ds_ints(g, "names", H5T_STD_I64LE, region, 2);
		else if (m != M_NO_NAMES)
			ds_strs(g, "names", names, 2, fixed);
		H5Gclose(g);
	}

	if (m == M_OFFSET_PAST)
		offset[2] = 6;
	if (m == M_ROW_PAST)
		count[2] = 5;
	if (m == M_OVERLAP)
		offset[1] = 2;
	if (m == M_REGION_RANGE)
		region[1] = 7;
	if (m == M_REGION_NEG)
		region[1] = -1;
	if (m == M_DUP_ROW)
		rank[2] = 0;
	if (m == M_RANK_NEG)
		rank[1] = -3;

	g = h5_group(f, "rank_region_index");
	ds_ints(g, "region_ids",
		m == M_REGION_NEG ? H5T_STD_I32LE : H5T_STD_U32LE, region,
		nrows);
	ds_ints(g, "ranks", m == M_RANK_NEG ? H5T_STD_I64LE : H5T_STD_U32LE,
		rank, m == M_RANKS_SHORT ? 2 : nrows);
	ds_ints(g, "event_offsets", H5T_STD_U64LE, offset, nrows);
	if (m == M_COUNTS_FLOAT) {
		double c[] = {3, 2, 1};
		ds_f64(g, "event_counts", c, 3);
	} else if (m == M_COUNTS_2D) {
		hsize_t dims[2] = {3, 1};
		hid_t s = H5Screate_simple(2, dims, NULL);
		hid_t d = H5Dcreate2(g, "event_counts", H5T_STD_U64LE, s,
			H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT,
			count);
		H5Dclose(d);
		H5Sclose(s);
	} else if (m != M_NO_COUNTS) {
		ds_ints(g, "event_counts", H5T_STD_U64LE, count, nrows);
	}
	ds_ints(g, "source_lines", H5T_STD_I64LE, lines, nrows);
	ds_ints(g, "exclusive_totals", H5T_STD_I64LE, excl, nrows);
	ds_strs(g, "source_files", files, nrows, fixed);
	ds_strs(g, "source_texts", texts, nrows, fixed);
	if (m == M_TAGS_BAD) {
		const char *bad[] = {"golden", "{\"a\": 1}", "[1, \"x\"]"};
		ds_strs(g, "tags", bad, nrows, 0);
	} else {
		ds_strs(g, "tags", tags, nrows, fixed);
	}
	if (nrows)
		base_summaries(g, m == M_SUMMARY_FIELDS);
	H5Gclose(g);

	if (m == M_NO_EVENTS) {
		H5Fclose(f);
		return path;
	}
	if (m == M_EVENTS_DATASET) {
		ds_ints(f, "events", H5T_STD_I64LE, base_start, 6);
		H5Fclose(f);
		return path;
	}
	ev = h5_group(f, "events");
	/* Events in file order: row r's slice starts at offset[r]. */
	for (i = 0; i < 8; i++)
		start[i] = dur[i] = 0;
	{
		/* Each row's calls come from the base arrays in row order. */
		int r, k, call = 0;
		for (r = 0; r < 3 && m != M_ROW_PAST; r++) {
			for (k = 0; k < count[r]; k++) {
				int64_t s = base_start[call + k];
				int64_t at = offset[r] + k;
				if (at >= (int64_t)nev)
					break;
				start[at] =
					k == 0 ? s
					       : s - base_start[call + k - 1];
				dur[at] = base_end[call + k] - s;
			}
			call += (int)count[r];
		}
	}
	if (m == M_END_BEFORE)
		dur[5] = -10;
	if (m == M_START_STRINGS) {
		const char *s[] = {"a", "b", "c", "d", "e", "f"};
		ds_strs(ev, "start_deltas", s, 6, 0);
	} else if (m == M_FILTER) {
		hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
		hsize_t chunk = 4;
		unsigned cd[1] = {3};
		H5Pset_chunk(dcpl, 1, &chunk);
		/* LZ4 (scopeview brings LZF and zstd, not LZ4): optional,
		 * so HDF5 writes the data unfiltered; the pipeline still
		 * names it. */
		ck_assert_int_ge(
			H5Pset_filter(dcpl, 32004, H5Z_FLAG_OPTIONAL, 1, cd),
			0);
		ds_ints_dcpl(
			ev, "start_deltas", H5T_STD_I64LE, start, nev, dcpl);
		H5Pclose(dcpl);
	} else if (m == M_CHUNKED_DEFLATE) {
		hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
		hsize_t chunk = 4, maxd = H5S_UNLIMITED;
		hid_t s = H5Screate_simple(1, &nev, &maxd);
		hid_t d;
		H5Pset_chunk(dcpl, 1, &chunk);
		H5Pset_shuffle(dcpl);
		H5Pset_deflate(dcpl, 4);
		d = H5Dcreate2(ev, "start_deltas", H5T_STD_I64LE, s,
			H5P_DEFAULT, dcpl, H5P_DEFAULT);
		H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT,
			start);
		H5Dclose(d);
		H5Sclose(s);
		H5Pclose(dcpl);
	} else if (m == M_COMPACT) {
		hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
		H5Pset_layout(dcpl, H5D_COMPACT);
		ds_ints_dcpl(
			ev, "start_deltas", H5T_STD_I64LE, start, nev, dcpl);
		H5Pclose(dcpl);
	} else if (m == M_HUGE_DIMS) {
		/* 2^40 values claimed, none written: chunks stay unallocated,
		 * so the file stays small. */
		hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
		hsize_t chunk = 1024, big = (hsize_t)1 << 40;
		hid_t sp = H5Screate_simple(1, &big, NULL);
		hid_t d;
		H5Pset_chunk(dcpl, 1, &chunk);
		d = H5Dcreate2(ev, "start_deltas", H5T_STD_I64LE, sp,
			H5P_DEFAULT, dcpl, H5P_DEFAULT);
		ck_assert_int_ge(d, 0);
		H5Dclose(d);
		H5Sclose(sp);
		H5Pclose(dcpl);
	} else if (m != M_NO_START) {
		ds_ints(ev, "start_deltas", H5T_STD_I64LE, start, nev);
	}
	if (m != M_NO_DURATIONS)
		ds_ints(ev, "durations", H5T_STD_I64LE, dur,
			m == M_SHORT_DURATIONS ? nev - 1 : nev);

	if (m == M_GPU_SHORT) {
		int64_t gpu[] = {5, -1, -1, -1, -1};
		ds_ints(ev, "gpu_durations", H5T_STD_I64LE, gpu, 5);
	} else {
		/* Row 0 has one GPU time, the others none. */
		int64_t gpu[] = {5, -1, -1, -1, -1, -1, -1, -1};
		ds_ints(ev, "gpu_durations", H5T_STD_I64LE, gpu, nev);
	}
	if (m == M_CALLIDS_FLOAT) {
		double ids[] = {0, 1, 2, 3, 4, 5, 0, 0};
		ds_f64(ev, "call_ids", ids, nev);
	} else {
		int64_t ids[] = {0, 1, 2, 3, 4, 0, 0, 0};
		ds_ints(ev, "call_ids", H5T_STD_I64LE, ids, nev);
	}
	if (m == M_AWAIT_2D) {
		hsize_t dims[2] = {6, 1};
		hid_t s = H5Screate_simple(2, dims, NULL);
		hid_t d = H5Dcreate2(ev, "await_ns", H5T_STD_I64LE, s,
			H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		H5Dclose(d);
		H5Sclose(s);
	}
	if (m == M_LANES) {
		int64_t th[] = {0, 0, 1, 0, 0, 0, 0, 0};
		int64_t tk[] = {-1, -1, -1, 0, 0, -1, -1, -1};
		int64_t aw[] = {0, 0, 0, 2, 0, 0, 0, 0};
		const char *tn[] = {"MainThread", "worker-1", "MainThread"};
		const char *kinds[] = {"task"}, *tnames[] = {"Task-3"};
		const char *coro[] = {"fetch()"};
		int64_t trank[] = {0, 0, 1}, tidx[] = {0, 1, 0};
		int64_t ident[] = {11, 12, 21}, daemon[] = {0, 1, 0};
		int64_t kr[] = {0}, ki[] = {0}, kt[] = {0}, kc[] = {5};
		int64_t kd[] = {-1};
		ds_ints(ev, "thread_ids", H5T_STD_I64LE, th, nev);
		ds_ints(ev, "task_ids", H5T_STD_I64LE, tk, nev);
		ds_ints(ev, "await_ns", H5T_STD_I64LE, aw, nev);
		g = h5_group(f, "thread_table");
		ds_ints(g, "ranks", H5T_STD_U32LE, trank, 3);
		ds_ints(g, "index", H5T_STD_I64LE, tidx, 3);
		ds_ints(g, "ident", H5T_STD_I64LE, ident, 3);
		ds_ints(g, "daemon", H5T_STD_I8LE, daemon, 3);
		ds_strs(g, "name", tn, 3, 0);
		H5Gclose(g);
		g = h5_group(f, "task_table");
		ds_ints(g, "ranks", H5T_STD_U32LE, kr, 1);
		ds_ints(g, "index", H5T_STD_I64LE, ki, 1);
		ds_ints(g, "thread_index", H5T_STD_I64LE, kt, 1);
		ds_strs(g, "kind", kinds, 1, 0);
		ds_strs(g, "name", tnames, 1, 0);
		ds_strs(g, "coro_name", coro, 1, 0);
		ds_ints(g, "created_ns", H5T_STD_I64LE, kc, 1);
		ds_ints(g, "done_ns", H5T_STD_I64LE, kd, 1);
		H5Gclose(g);
	}
	if (m == M_EXTRA_COLS) {
		int64_t bytes[] = {8, 16, 32, 64, 128, 256, 0, 0};
		double ratio[] = {0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 0, 0};
		ds_ints(ev, "bytes", H5T_STD_U32LE, bytes, nev);
		ds_f64(ev, "ratio", ratio, nev);
	}
	if (m == M_EXTRA_BADLEN) {
		int64_t v[] = {1, 2, 3};
		ds_ints(ev, "event_metadata", H5T_STD_I64LE, v, 3);
	}
	H5Gclose(ev);
	H5Fclose(f);
	return path;
}

/* ------------------------------------------------------------------ */
/* Malformed input: errors                                             */

struct fail_case {
	enum mutation m;
	int code;
	const char *frag;
};

static const struct fail_case fail_cases[] = {
	{M_SCHEMA_STR, -EINVAL, "must be an integer, but it is a string"},
	{M_SCHEMA_FLOAT, -EINVAL, "must be an integer, but it is a float"},
	{M_SCHEMA_BOOL, -EINVAL, "must be an integer, but it is a bool"},
	{M_SCHEMA_ARRAY, -EINVAL,
		"must be an integer, but it is an integer array"},
	{M_SCHEMA_ZERO, -EINVAL, "versions must be positive"},
	{M_SCHEMA_NEG, -EINVAL, "schema version -1 is invalid"},
	{M_SCHEMA_4, -ENOTSUP, "schema version 4 is newer than this scopeview"},
	{M_NO_EVENTS, -EINVAL, "/events: required group is missing"},
	{M_EVENTS_DATASET, -EINVAL, "/events: is a dataset, but a group"},
	{M_NO_REGION_TABLE, -EINVAL,
		"/region_table: required group is missing"},
	{M_NO_NAMES, -EINVAL,
		"/region_table/names: required dataset is missing"},
	{M_NAMES_INT, -EINVAL, "/region_table/names: has an integer type"},
	{M_NO_COUNTS, -EINVAL,
		"/rank_region_index/event_counts: required dataset is missing"},
	{M_NO_START, -EINVAL,
		"/events: has neither start_deltas (schema 3) nor start_times"},
	{M_NO_DURATIONS, -EINVAL,
		"/events/durations: required dataset is missing"},
	{M_COUNTS_FLOAT, -EINVAL,
		"/rank_region_index/event_counts: has a float type"},
	{M_COUNTS_2D, -EINVAL, "must be one-dimensional, but has 2 dimensions"},
	{M_RANKS_SHORT, -EINVAL,
		"/rank_region_index/ranks: holds 2 values, but 3 were "
		"expected"},
	{M_START_STRINGS, -EINVAL, "/events/start_deltas: has a string type"},
	{M_ROW_PAST, -EINVAL,
		"/rank_region_index/event_counts: row 2 claims 5 calls at "
		"offset "
		"5, but /events/start_deltas holds 6"},
	{M_OFFSET_PAST, -EINVAL, "row 2 claims 1 calls at offset 6"},
	{M_OVERLAP, -EINVAL, "rows 0 and 1 overlap"},
	{M_REGION_RANGE, -EINVAL,
		"/rank_region_index/region_ids: row 1 names region 7, but "
		"/region_table/names holds 2 names"},
	{M_REGION_NEG, -EINVAL, "row 1 names region -1"},
	{M_RANK_NEG, -EINVAL,
		"/rank_region_index/ranks: row 1 has rank -3, which is out of "
		"range"},
	{M_DUP_ROW, -EINVAL, "rows 0 and 2 both hold rank 0, region 'solve'"},
	{M_SHORT_DURATIONS, -EINVAL,
		"/events/durations: holds 5 values, but /events/start_deltas "
		"holds 6 events"},
	{M_FILTER, -ENOTSUP,
		"/events/start_deltas: compressed with the LZ4 filter (HDF5 "
		"filter 32004)"},
	{M_HUGE_DIMS, -EINVAL,
		"/events/start_deltas: claims 1099511627776 values, more than "
		"a file of"},
};

static void expect_fail(const char *path, int code, const char *frag)
{
	struct sv_profile *p = (struct sv_profile *)&p;
	struct sv_error e = {0};
	int rc = sv_load(path, NULL, &p, &e);

	if (getenv("SVT_VERBOSE"))
		fprintf(stderr, "error %d: %s\n", rc, e.msg);
	ck_assert_msg(rc == code, "%s: rc %d (%s), expected %d", path, rc,
		e.msg, code);
	ck_assert_int_eq(e.code, code);
	ck_assert_msg(
		strstr(e.msg, frag), "message '%s' lacks '%s'", e.msg, frag);
	ck_assert_msg(!strncmp(e.msg, path, strlen(path)),
		"message '%s' does not start with the file name", e.msg);
	ck_assert_msg(!strchr(e.msg, '\n'), "message has a newline");
	ck_assert_ptr_eq(p, (struct sv_profile *)&p); /* out untouched */
}

START_TEST(test_malformed)
{
	const struct fail_case *c = &fail_cases[_i];
	char name[32];
	char *path;

	if (c->m == M_FILTER && H5Zfilter_avail(32004) > 0)
		SVT_SKIP("case %d: an LZ4 plugin is installed here, so the "
			 "missing-filter error cannot happen",
			_i);
	snprintf(name, sizeof name, "bad%d.h5", _i);
	path = base_write(name, c->m);
	expect_fail(path, c->code, c->frag);
	free(path);
}
END_TEST

/* Files that are not profiles at all. */
START_TEST(test_not_profiles)
{
	char *dir = svt_tmp_path("adir");
	char *missing = svt_tmp_path("missing.h5");
	char *empty = svt_tmp_path("empty.h5");
	char *text = svt_tmp_path("text.h5");
	char *sig = svt_tmp_path("sigonly.h5");
	char *trunc = svt_tmp_path("truncated.h5");
	char *good = base_write("good.h5", M_NONE);
	FILE *f;
	size_t len;
	char *buf;

	ck_assert_int_eq(mkdir(dir, 0700), 0);
	/* A directory is a run of per-rank files: an empty one has none. */
	expect_fail(dir, -ENOENT, "no .spt traces and no per-rank .h5");
	expect_fail(missing, -ENOENT, "no such file");
	f = fopen(empty, "w");
	fclose(f);
	expect_fail(empty, -EINVAL, "is empty (0 bytes)");
	f = fopen(text, "w");
	fputs("this is not HDF5\n", f);
	fclose(f);
	expect_fail(text, -EINVAL, "not an HDF5 file");
	f = fopen(sig, "wb");
	fwrite("\x89HDF\r\n\x1a\n", 1, 8, f);
	fwrite("garbage garbage garbage garbage", 1, 31, f);
	fclose(f);
	expect_fail(sig, -EIO, "truncated or damaged");
	/* Half of a real profile: what an interrupted writer leaves. */
	buf = svt_read_file(good, &len);
	ck_assert_ptr_nonnull(buf);
	f = fopen(trunc, "wb");
	fwrite(buf, 1, len / 2, f);
	fclose(f);
	free(buf);
	expect_fail(trunc, -EIO, "truncated or damaged");
	{
		char *fifo = svt_tmp_path("fifo.h5");
		char *under = sv_xasprintf("%s/x.h5", text);
		ck_assert_int_eq(mkfifo(fifo, 0600), 0);
		expect_fail(fifo, -EINVAL, "is a FIFO, not a regular file");
		/* A path through a file: unreadable whoever runs the test. */
		expect_fail(under, -ENOTDIR, "cannot open: Not a directory");
		unlink(fifo);
		free(fifo);
		free(under);
	}
	if (geteuid() != 0) {
		chmod(good, 0);
		expect_fail(good, -EACCES, "Permission denied");
		chmod(good, 0600);
	}
	{
		struct sv_profile *p = NULL;
		ck_assert_int_eq(sv_load(NULL, NULL, &p, NULL), -EINVAL);
		ck_assert_ptr_null(p);
	}
	rmdir(dir);
	free(dir);
	free(missing);
	free(empty);
	free(text);
	free(sig);
	free(trunc);
	free(good);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Valid files                                                         */

/* path loaded with o (NULL: the defaults), which must succeed. */
static struct sv_profile *load_opts(
	const char *path, const struct sv_load_opts *o)
{
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	int rc = sv_load(path, o, &p, &e);
	ck_assert_msg(rc == 0, "%s: %s", path, e.msg);
	ck_assert_ptr_nonnull(p);
	return p;
}

static struct sv_profile *load_ok(const char *path)
{
	return load_opts(path, NULL);
}

static bool has_warning(const struct sv_profile *p, const char *frag)
{
	size_t i;
	for (i = 0; i < p->nwarnings; i++)
		if (strstr(p->warnings[i], frag))
			return true;
	return false;
}

static void dump_warnings(const struct sv_profile *p)
{
	size_t i;
	for (i = 0; i < p->nwarnings; i++)
		fprintf(stderr, "warning: %s\n", p->warnings[i]);
}

/* The base profile's calls, whatever order its rows are stored in. */
static void check_base_calls(const struct sv_profile *p)
{
	size_t i;

	ck_assert_uint_eq(p->nrows, 3);
	ck_assert_uint_eq(p->ncalls, BASE_EVENTS);
	ck_assert_uint_eq(p->nregions, 2);
	ck_assert_str_eq(p->regions[0], "solve");
	ck_assert_str_eq(p->regions[1], "io");
	ck_assert_uint_eq(p->rows[0].rank, 0);
	ck_assert_uint_eq(p->rows[0].region, 0);
	ck_assert_uint_eq(p->rows[0].count, 3);
	ck_assert_uint_eq(p->rows[1].region, 1);
	ck_assert_uint_eq(p->rows[1].count, 2);
	ck_assert_uint_eq(p->rows[2].rank, 1);
	ck_assert_uint_eq(p->rows[2].count, 1);
	for (i = 0; i < BASE_EVENTS; i++) {
		ck_assert_int_eq(p->start_ns[i], base_start[i]);
		ck_assert_int_eq(sv_profile_end(p, i), base_end[i]);
	}
}

/* Everything of the base file, and negative deltas decoded. */
START_TEST(test_schema3_base)
{
	char *path = base_write("base.h5", M_NONE);
	struct sv_profile *p = load_ok(path);
	const struct sv_row *r;

	dump_warnings(p);
	ck_assert_uint_eq(p->nwarnings, 0);
	ck_assert_int_eq(p->schema, 3);
	ck_assert_int_eq(p->layout, SV_LAYOUT_COLUMNAR);
	ck_assert(p->has_calls);
	check_base_calls(p);
	ck_assert_uint_eq(p->num_ranks, 2);
	ck_assert(p->has_start_time);
	ck_assert_int_eq(p->start_time_ns, 50);
	r = &p->rows[0];
	ck_assert_int_eq(r->source_line, 7);
	ck_assert_str_eq(r->source_file, "solver.py");
	ck_assert_str_eq(r->source_text, "with solve:");
	ck_assert_uint_eq(r->ntags, 2);
	ck_assert_str_eq(r->tags[0], "golden");
	ck_assert_str_eq(r->tags[1], "hot");
	ck_assert(!r->tags_raw);
	ck_assert_int_eq(r->exclusive_total, 35);
	ck_assert(r->has_summary);
	ck_assert_int_eq(r->summary.total, 35);
	ck_assert_int_eq(r->summary.end_maximum, 170);
	ck_assert_double_eq_tol(r->summary.m2, 116.666, 1e-9);
	ck_assert(r->has_gpu);
	r = &p->rows[1];
	ck_assert_int_eq(r->source_line, -1);
	ck_assert_ptr_null(r->source_file);
	ck_assert_ptr_null(r->source_text);
	ck_assert_uint_eq(r->ntags, 0);
	ck_assert_int_eq(r->exclusive_total, -1);
	ck_assert(!r->has_gpu);
	ck_assert_uint_eq(p->rows[2].ntags, 0); /* "" reads as [] */
	ck_assert_ptr_nonnull(p->gpu_ns);
	ck_assert_int_eq(p->gpu_ns[0], 5);
	ck_assert_int_eq(p->gpu_ns[1], -1);
	ck_assert_ptr_nonnull(p->call_id);
	ck_assert_int_eq(p->call_id[4], 4);
	ck_assert_ptr_null(p->parent_id);
	ck_assert_ptr_null(p->thread_id);
	ck_assert_uint_eq(p->ncolumns, 0);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* Variants that load, with their warnings. */
struct ok_case {
	enum mutation m;
	const char *warning; /* NULL = none expected */
};

static const struct ok_case ok_cases[] = {
	{M_NO_SCHEMA, "attribute missing, but the file has the columnar"},
	{M_LAYOUT_BOGUS, "unknown layout \"bogus\""},
	{M_TAGS_BAD, "tag text is not a JSON array"},
	{M_GPU_SHORT, "/events/gpu_durations: holds 5 values, but 6 were "
		      "expected; ignored"},
	{M_CALLIDS_FLOAT, "/events/call_ids: has a float type"},
	{M_AWAIT_2D, "/events/await_ns: must be one-dimensional"},
	{M_END_BEFORE, "ends before it starts"},
	{M_EXTRA_BADLEN, "/events/event_metadata: holds 3 values"},
	{M_SUMMARY_FIELDS, "lacks field(s) m2"},
	{M_SCHEMA_U8, NULL},
	{M_FIXED_STRINGS, NULL},
	{M_CHUNKED_DEFLATE, NULL},
	{M_COMPACT, NULL},
	{M_ROWS_UNORDERED, NULL},
	{M_EXTRA_COLS, NULL},
};

START_TEST(test_loads_with_warning)
{
	const struct ok_case *c = &ok_cases[_i];
	char name[32];
	char *path;
	struct sv_profile *p;

	snprintf(name, sizeof name, "ok%d.h5", _i);
	path = base_write(name, c->m);
	p = load_ok(path);
	if (c->warning) {
		if (!has_warning(p, c->warning))
			dump_warnings(p);
		ck_assert_msg(has_warning(p, c->warning), "no warning '%s'",
			c->warning);
	} else {
		dump_warnings(p);
		ck_assert_uint_eq(p->nwarnings, 0);
	}
	ck_assert_int_eq(p->layout, SV_LAYOUT_COLUMNAR);
	ck_assert_uint_eq(p->nrows, 3);
	ck_assert_uint_eq(p->ncalls, BASE_EVENTS);
	switch (c->m) {
	case M_NO_SCHEMA:
		ck_assert_int_eq(p->schema, 0);
		check_base_calls(p);
		break;
	case M_TAGS_BAD:
		ck_assert(p->rows[0].tags_raw);
		ck_assert_uint_eq(p->rows[0].ntags, 1);
		ck_assert_str_eq(p->rows[0].tags[0], "golden");
		ck_assert(p->rows[1].tags_raw);
		ck_assert(!p->rows[2].tags_raw);
		ck_assert_uint_eq(p->rows[2].ntags, 2);
		ck_assert_str_eq(p->rows[2].tags[0], "1");
		ck_assert_str_eq(p->rows[2].tags[1], "x");
		break;
	case M_GPU_SHORT:
		ck_assert_ptr_null(p->gpu_ns);
		ck_assert(!p->rows[0].has_gpu);
		check_base_calls(p);
		break;
	case M_CALLIDS_FLOAT:
		ck_assert_ptr_null(p->call_id);
		break;
	case M_AWAIT_2D:
		ck_assert_ptr_null(p->await_ns);
		break;
	case M_END_BEFORE:
		ck_assert_int_eq(sv_profile_end(p, 5), 990); /* as stored */
		break;
	case M_EXTRA_BADLEN:
		ck_assert_uint_eq(p->ncolumns, 0);
		break;
	case M_SUMMARY_FIELDS:
		ck_assert(!p->rows[0].has_summary);
		break;
	case M_SCHEMA_U8:
		ck_assert_int_eq(p->schema, 3);
		check_base_calls(p);
		break;
	case M_FIXED_STRINGS:
		check_base_calls(p);
		ck_assert_str_eq(p->rows[0].source_file, "solver.py");
		ck_assert_str_eq(p->rows[0].tags[1], "hot");
		ck_assert_ptr_null(p->rows[1].source_file);
		break;
	case M_CHUNKED_DEFLATE:
	case M_COMPACT:
	case M_ROWS_UNORDERED:
		check_base_calls(p);
		break;
	case M_EXTRA_COLS:
		check_base_calls(p);
		ck_assert_uint_eq(p->ncolumns, 2);
		ck_assert_str_eq(p->columns[0].name, "bytes");
		ck_assert(!p->columns[0].is_float);
		ck_assert_int_eq(p->columns[0].i[5], 256);
		ck_assert_str_eq(p->columns[1].name, "ratio");
		ck_assert(p->columns[1].is_float);
		ck_assert_double_eq(p->columns[1].f[2], 2.5);
		break;
	default:
		break;
	}
	sv_profile_free(p);
	free(path);
}
END_TEST

START_TEST(test_no_rows)
{
	char *path = base_write("norows.h5", M_NO_ROWS);
	struct sv_profile *p = load_ok(path);
	ck_assert_uint_eq(p->nrows, 0);
	ck_assert_uint_eq(p->ncalls, 0);
	ck_assert_uint_eq(p->num_ranks, 0);
	ck_assert_uint_eq(p->nregions, 2);
	sv_profile_free(p);
	free(path);
}
END_TEST

START_TEST(test_lanes)
{
	char *path = base_write("lanes.h5", M_LANES);
	struct sv_profile *p = load_ok(path);
	const struct sv_thread *t;
	const struct sv_task *k;

	ck_assert_ptr_nonnull(p->thread_id);
	ck_assert_ptr_nonnull(p->task_id);
	ck_assert_ptr_nonnull(p->await_ns);
	ck_assert_int_eq(p->thread_id[2], 1);
	ck_assert_int_eq(p->task_id[3], 0);
	ck_assert_int_eq(p->await_ns[3], 2);
	ck_assert_uint_eq(p->nthreads, 3);
	t = sv_profile_thread(p, 0, 1);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(t->name, "worker-1");
	ck_assert_int_eq(t->ident, 12);
	ck_assert_int_eq(t->daemon, 1);
	ck_assert_int_eq(t->native_id, -1); /* column absent: fill */
	ck_assert_int_eq(t->end_ns, -1);
	t = sv_profile_thread(p, 1, 0);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(t->name, "MainThread");
	ck_assert_uint_eq(p->ntasks, 1);
	k = sv_profile_task(p, 0, 0);
	ck_assert_ptr_nonnull(k);
	ck_assert_str_eq(k->kind, "task");
	ck_assert_str_eq(k->name, "Task-3");
	ck_assert_str_eq(k->coro_name, "fetch()");
	ck_assert_int_eq(k->created_ns, 5);
	ck_assert_int_eq(k->done_ns, -1);
	ck_assert_int_eq(k->steps, 0);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* summary_only: rows and stored figures, no event columns read (the
 * events group may even be missing). */
START_TEST(test_summary_only)
{
	char *path = base_write("sumonly.h5", M_NO_EVENTS);
	struct sv_load_opts o = {0};
	struct sv_profile *p = NULL;
	struct sv_error e = {0};

	o.summary_only = true;
	ck_assert_msg(sv_load(path, &o, &p, &e) == 0, "%s", e.msg);
	ck_assert(!p->has_calls);
	ck_assert_uint_eq(p->ncalls, 0);
	ck_assert_uint_eq(p->nrows, 3);
	ck_assert_uint_eq(p->rows[0].count, 3);
	ck_assert(p->rows[0].has_summary);
	ck_assert_int_eq(p->rows[0].summary.start_minimum, 100);
	ck_assert_uint_eq(p->num_ranks, 2);
	sv_profile_free(p);
	free(path);
}
END_TEST

struct progress_log {
	int calls;
	double last;
	bool monotonic;
	int cancel_after;
};

static void on_progress(void *ctx, double f, const char *what)
{
	struct progress_log *l = ctx;
	ck_assert_ptr_nonnull(what);
	if (f < l->last)
		l->monotonic = false;
	l->last = f;
	l->calls++;
}

static int on_cancel(void *ctx)
{
	struct progress_log *l = ctx;
	return l->cancel_after >= 0 && l->calls > l->cancel_after;
}

START_TEST(test_progress_cancel)
{
	char *path = base_write("progress.h5", M_NONE);
	struct progress_log l = {0, 0, true, -1};
	struct sv_load_opts o = {
		.progress = on_progress, .cancelled = on_cancel, .ctx = &l};
	struct sv_profile *p = NULL;
	struct sv_error e = {0};

	ck_assert_int_eq(sv_load(path, &o, &p, &e), 0);
	ck_assert_int_ge(l.calls, 3);
	ck_assert(l.monotonic);
	ck_assert_double_eq(l.last, 1.0);
	sv_profile_free(p);
	p = NULL;
	l = (struct progress_log){0, 0, true, 2};
	ck_assert_int_eq(sv_load(path, &o, &p, &e), -ECANCELED);
	ck_assert_ptr_null(p);
	ck_assert_ptr_nonnull(strstr(e.msg, "cancelled"));
	free(path);
}
END_TEST

/* A column of a few million events reports progress as it goes and can
 * be cancelled in the middle. */
struct block_log {
	int events_steps;
	double cancel_at;
};

static void block_progress(void *ctx, double f, const char *what)
{
	struct block_log *l = ctx;
	if (!strcmp(what, "events") && f > 0.15 && f <= 0.35 + 1e-9)
		l->events_steps++;
}

static int block_cancel(void *ctx)
{
	struct block_log *l = ctx;
	return l->cancel_at > 0 && l->events_steps >= 2;
}

START_TEST(test_progress_blocks)
{
	enum { N = 2500000 };
	char *path = svt_tmp_path("blocks.h5");
	hid_t f = h5_create(path), g;
	const char *names[] = {"tick"};
	int64_t zero[] = {0}, cnt[] = {N};
	int64_t *ones = malloc(N * sizeof *ones);
	struct block_log l = {0, 0};
	struct sv_load_opts o = {.progress = block_progress,
		.cancelled = block_cancel,
		.ctx = &l};
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	size_t i;

	for (i = 0; i < N; i++)
		ones[i] = 1;
	attr_i64(f, "scope_profiler_schema", 3);
	g = h5_group(f, "region_table");
	ds_strs(g, "names", names, 1, 0);
	H5Gclose(g);
	g = h5_group(f, "rank_region_index");
	ds_ints(g, "region_ids", H5T_STD_U32LE, zero, 1);
	ds_ints(g, "ranks", H5T_STD_U32LE, zero, 1);
	ds_ints(g, "event_offsets", H5T_STD_U64LE, zero, 1);
	ds_ints(g, "event_counts", H5T_STD_U64LE, cnt, 1);
	H5Gclose(g);
	g = h5_group(f, "events");
	ds_ints(g, "start_deltas", H5T_STD_I64LE, ones, N);
	ds_ints(g, "durations", H5T_STD_I64LE, ones, N);
	H5Gclose(g);
	H5Fclose(f);
	free(ones);

	ck_assert_msg(sv_load(path, &o, &p, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(l.events_steps, 3); /* 1M + 1M + 0.5M */
	ck_assert_uint_eq(p->ncalls, N);
	ck_assert_int_eq(p->start_ns[N - 1], N);
	ck_assert_int_eq(sv_profile_end(p, N - 1), N + 1);
	sv_profile_free(p);
	p = NULL;
	l = (struct block_log){0, 1};
	ck_assert_int_eq(sv_load(path, &o, &p, &e), -ECANCELED);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(l.events_steps, 2);
	free(path);
}
END_TEST

/* Invalid UTF-8 in names and strings becomes U+FFFD. */
START_TEST(test_invalid_utf8)
{
	char *path = svt_tmp_path("utf8.h5");
	hid_t f = h5_create(path), g;
	const char *names[] = {"bad\xff name", "caf\xc3\xa9"};
	const char *files[] = {"\xc3(.py", "ok.py"};
	int64_t z[] = {0, 1}, c[] = {1, 1}, o[] = {0, 1}, s[] = {1, 2};
	struct sv_profile *p;

	attr_i64(f, "scope_profiler_schema", 2);
	g = h5_group(f, "region_table");
	ds_strs(g, "names", names, 2, 0);
	H5Gclose(g);
	g = h5_group(f, "rank_region_index");
	ds_ints(g, "region_ids", H5T_STD_U32LE, z, 2);
	ds_ints(g, "ranks", H5T_STD_U32LE, (int64_t[]){0, 0}, 2);
	ds_ints(g, "event_offsets", H5T_STD_U64LE, o, 2);
	ds_ints(g, "event_counts", H5T_STD_U64LE, c, 2);
	ds_strs(g, "source_files", files, 2, 8);
	H5Gclose(g);
	g = h5_group(f, "events");
	ds_ints(g, "start_times", H5T_STD_I64LE, s, 2);
	ds_ints(g, "end_times", H5T_STD_I64LE, s, 2);
	H5Gclose(g);
	H5Fclose(f);
	p = load_ok(path);
	ck_assert_str_eq(p->regions[0], "bad\xef\xbf\xbd name");
	ck_assert_str_eq(p->regions[1], "caf\xc3\xa9");
	ck_assert_str_eq(p->rows[0].source_file, "\xef\xbf\xbd(.py");
	ck_assert_str_eq(p->rows[1].source_file, "ok.py");
	/* No source_lines column: unknown. */
	ck_assert_int_eq(p->rows[0].source_line, -1);
	ck_assert_uint_eq(p->num_ranks, 1);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* In a thread of its own, HDF5 would print its error stack to stderr
 * (the setting is per thread): sv_load switches that off itself. */
static void *thread_load(void *arg)
{
	struct sv_profile *p = NULL;
	struct sv_error e;
	intptr_t rc = sv_load(arg, NULL, &p, &e);
	sv_profile_free(p);
	return (void *)rc;
}

START_TEST(test_thread_quiet)
{
	/* Half a profile: H5Fopen itself fails inside HDF5. */
	char *good = base_write("thread.h5", M_NONE);
	char *path = svt_tmp_path("thread_trunc.h5");
	char *log = svt_tmp_path("stderr.txt");
	int saved = dup(2), fd;
	pthread_t t;
	void *rc = NULL;
	size_t len = 0;
	char *text;

	text = svt_read_file(good, &len);
	ck_assert_ptr_nonnull(text);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_eq(write(fd, text, len / 2), (ssize_t)(len / 2));
	close(fd);
	free(text);
	free(good);
	fflush(stderr);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	dup2(fd, 2);
	close(fd);
	ck_assert_int_eq(pthread_create(&t, NULL, thread_load, path), 0);
	pthread_join(t, &rc);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ck_assert_int_eq((intptr_t)rc, -EIO);
	text = svt_read_file(log, &len);
	ck_assert_ptr_nonnull(text);
	ck_assert_msg(len == 0, "HDF5 printed: %s", text);
	free(text);
	free(log);
	free(path);
}
END_TEST

/* Long rows stored out of index order (and with a gap): each row's slice
 * is read into place; chunk boundaries fall inside rows. */
START_TEST(test_long_rows_unordered)
{
	enum { N = 1500, GAP = 7, TOTAL = 3 * N + GAP };
	char *path = svt_tmp_path("longrows.h5");
	hid_t f = h5_create(path), g, dcpl;
	const char *names[] = {"a", "b", "c"};
	/* Row r (region r) sits at file offset off[r]. */
	int64_t region[] = {0, 1, 2}, rank[] = {0, 0, 0};
	int64_t off[] = {2 * N + GAP, 0, N + GAP}, cnt[] = {N, N, N};
	int64_t *deltas = calloc(TOTAL, 8), *dur = calloc(TOTAL, 8);
	double *extra = calloc(TOTAL, sizeof(double));
	hsize_t chunk = 1000;
	struct sv_profile *p;
	int r, k;

	for (r = 0; r < 3; r++)
		for (k = 0; k < N; k++) {
			int64_t at = off[r] + k;
			/* start of call k of row r: 1e6 r + 10 k, stored as
			 * deltas; every 7th call goes back in time. */
			int64_t st =
				1000000 * r + 10 * k - (k % 7 == 3 ? 25 : 0);
			int64_t prev =
				k ? 1000000 * r + 10 * (k - 1) -
						((k - 1) % 7 == 3 ? 25 : 0)
				  : 0;
			deltas[at] = st - prev;
			dur[at] = r + 1;
			extra[at] = r + k / 1000.0;
		}
	attr_i64(f, "scope_profiler_schema", 3);
	g = h5_group(f, "region_table");
	ds_strs(g, "names", names, 3, 0);
	H5Gclose(g);
	g = h5_group(f, "rank_region_index");
	ds_ints(g, "region_ids", H5T_STD_U32LE, region, 3);
	ds_ints(g, "ranks", H5T_STD_U32LE, rank, 3);
	ds_ints(g, "event_offsets", H5T_STD_U64LE, off, 3);
	ds_ints(g, "event_counts", H5T_STD_U64LE, cnt, 3);
	H5Gclose(g);
	g = h5_group(f, "events");
	dcpl = H5Pcreate(H5P_DATASET_CREATE);
	H5Pset_chunk(dcpl, 1, &chunk);
	H5Pset_shuffle(dcpl);
	H5Pset_deflate(dcpl, 4);
	ds_ints_dcpl(g, "start_deltas", H5T_STD_I64LE, deltas, TOTAL, dcpl);
	ds_ints_dcpl(g, "durations", H5T_STD_I64LE, dur, TOTAL, dcpl);
	ds_ints_dcpl(g, "await_ns", H5T_STD_I64LE, dur, TOTAL, dcpl);
	H5Pclose(dcpl);
	ds_f64(g, "weight", extra, TOTAL);
	H5Gclose(g);
	H5Fclose(f);

	p = load_ok(path);
	ck_assert_uint_eq(p->ncalls, 3 * N);
	for (r = 0; r < 3; r++) {
		const struct sv_row *row = &p->rows[r];
		ck_assert_uint_eq(row->region, (uint32_t)r);
		ck_assert_uint_eq(row->first, (uint64_t)r * N);
		for (k = 0; k < N; k++) {
			uint32_t c = (uint32_t)(row->first + (uint64_t)k);
			int64_t st =
				1000000 * r + 10 * k - (k % 7 == 3 ? 25 : 0);
			ck_assert_int_eq(p->start_ns[c], st);
			ck_assert_int_eq(sv_profile_end(p, c), st + r + 1);
			ck_assert_int_eq(p->await_ns[c], r + 1);
			ck_assert_double_eq(p->columns[0].f[c], r + k / 1000.0);
		}
	}
	sv_profile_free(p);
	free(deltas);
	free(dur);
	free(extra);
	free(path);
}
END_TEST

/* Text from the file reaches messages with its control characters shown,
 * never raw (an escape sequence would reach the terminal via stderr). */
START_TEST(test_message_escapes)
{
	char *path = svt_tmp_path("escape.h5");
	hid_t f = h5_create(path), g;
	const char *names[] = {"evil\x1b[2J\x07"};
	int64_t z[] = {0, 0}, c[] = {1, 1}, o[] = {0, 1}, s[] = {1, 2};

	attr_i64(f, "scope_profiler_schema", 3);
	g = h5_group(f, "region_table");
	ds_strs(g, "names", names, 1, 0);
	H5Gclose(g);
	g = h5_group(f, "rank_region_index");
	ds_ints(g, "region_ids", H5T_STD_U32LE, z, 2);
	ds_ints(g, "ranks", H5T_STD_U32LE, z, 2);
	ds_ints(g, "event_offsets", H5T_STD_U64LE, o, 2);
	ds_ints(g, "event_counts", H5T_STD_U64LE, c, 2);
	H5Gclose(g);
	g = h5_group(f, "events");
	ds_ints(g, "start_deltas", H5T_STD_I64LE, s, 2);
	ds_ints(g, "durations", H5T_STD_I64LE, s, 2);
	H5Gclose(g);
	H5Fclose(f);
	expect_fail(path, -EINVAL, "region 'evil\\x1b[2J\\x07'");
	free(path);
}
END_TEST

/* A compressed chunk whose bytes were damaged: a read error naming the
 * dataset, not a crash. */
START_TEST(test_corrupt_chunk)
{
	char *path = base_write("corrupt.h5", M_CHUNKED_DEFLATE);
	hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	hid_t d = H5Dopen2(f, "events/start_deltas", H5P_DEFAULT);
	haddr_t addr = 0;
	hsize_t size = 0, off[1];
	unsigned mask;
	unsigned char junk[64];
	FILE *fp;

	hid_t sp = H5Dget_space(d);
	ck_assert_int_ge(
		H5Dget_chunk_info(d, sp, 0, off, &mask, &addr, &size), 0);
	H5Sclose(sp);
	H5Dclose(d);
	H5Fclose(f);
	ck_assert_uint_gt(size, 0);
	memset(junk, 0xA5, sizeof junk);
	fp = fopen(path, "r+b");
	ck_assert_ptr_nonnull(fp);
	fseek(fp, (long)addr, SEEK_SET);
	fwrite(junk, 1, size < sizeof junk ? size : sizeof junk, fp);
	fclose(fp);
	expect_fail(path, -EIO, "/events/start_deltas: cannot read");
	free(path);
}
END_TEST

/* A writer holding the file open (and HDF5's lock) does not stop the
 * viewer: the loader opens without locking (doc/format.md 13). */
START_TEST(test_no_file_lock)
{
	char *path = base_write("locked.h5", M_NONE);
	int go[2], done[2];
	char c = 0;
	pid_t pid;
	struct sv_profile *p;

	ck_assert_int_eq(pipe(go), 0);
	ck_assert_int_eq(pipe(done), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
		hid_t f;
		H5Pset_file_locking(fapl, 1, 0);
		f = H5Fopen(path, H5F_ACC_RDWR, fapl);
		free(path);
		H5Pclose(fapl);
		c = f >= 0 ? 'y' : 'n';
		if (write(go[1], &c, 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(2);
		if (f >= 0)
			H5Fclose(f);
		_exit(0);
	}
	ck_assert_int_eq(read(go[0], &c, 1), 1);
	ck_assert_int_eq(c, 'y');
	p = load_ok(path);
	ck_assert_uint_eq(p->ncalls, BASE_EVENTS);
	sv_profile_free(p);
	ck_assert_int_eq(write(done[1], &c, 1), 1);
	waitpid(pid, NULL, 0);
	close(go[0]);
	close(go[1]);
	close(done[0]);
	close(done[1]);
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Metadata of every type                                              */

START_TEST(test_metadata_types)
{
	char *path = base_write("meta.h5", M_NONE);
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	hid_t g = H5Gopen2(f, "metadata", H5P_DEFAULT);
	const char *mods[] = {"gcc/12.3.0", "openmpi/4.1.5"};
	int64_t ints[] = {1, 2, 3};
	uint8_t u8 = 200;
	uint64_t big = UINT64_MAX;
	struct sv_profile *p;
	static const struct {
		const char *key;
		enum sv_meta_kind kind;
		const char *text;
	} want[] = {
		{"a_int", SV_META_INT, "-42"},
		{"a_u8", SV_META_INT, "200"},
		{"a_u64", SV_META_INT, "18446744073709551615"},
		{"b_float", SV_META_FLOAT, "0.1"},
		{"b_float_int", SV_META_FLOAT, "123.0"},
		{"b_float_big", SV_META_FLOAT, "1e+20"},
		{"b_float_small", SV_META_FLOAT, "1.5e-05"},
		{"b_float_neg", SV_META_FLOAT, "-2.5"},
		{"b_float_third", SV_META_FLOAT, "0.3333333333333333"},
		{"b_float_1e16", SV_META_FLOAT, "1e+16"},
		{"b_float_big_int", SV_META_FLOAT, "1234567890123456.0"},
		{"b_float32", SV_META_FLOAT, "0.1"},
		{"c_true", SV_META_BOOL, "True"},
		{"c_false", SV_META_BOOL, "False"},
		{"d_str", SV_META_STRING, "node0"},
		{"d_fixed", SV_META_STRING, "fixed"},
		{"e_strs", SV_META_STRINGS, "gcc/12.3.0, openmpi/4.1.5"},
		{"f_ints", SV_META_OTHER, "1, 2, 3"},
		{"finalize_time_ns", SV_META_STRING, "1000"},
		{"mpi_size", SV_META_INT, "2"},
		{"start_time_ns", SV_META_INT, "50"},
	};
	size_t i;

	attr_i64(g, "a_int", -42);
	attr_num(g, "a_u8", H5T_STD_U8LE, H5T_NATIVE_UINT8, &u8);
	attr_num(g, "a_u64", H5T_STD_U64LE, H5T_NATIVE_UINT64, &big);
	attr_f64(g, "b_float", 0.1);
	attr_f64(g, "b_float_int", 123.0);
	attr_f64(g, "b_float_big", 1e20);
	attr_f64(g, "b_float_small", 1.5e-5);
	attr_f64(g, "b_float_neg", -2.5);
	attr_f64(g, "b_float_third", 1.0 / 3);
	attr_f64(g, "b_float_1e16", 1e16);
	attr_f64(g, "b_float_big_int", 1234567890123456.0);
	{
		float f32 = 0.1f;
		attr_num(
			g, "b_float32", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, &f32);
	}
	attr_bool(g, "c_true", true);
	attr_bool(g, "c_false", false);
	attr_str(g, "d_str", "node0");
	attr_fixed_str(g, "d_fixed", "fixed");
	attr_strs(g, "e_strs", mods, 2);
	attr_i64s(g, "f_ints", ints, 3);
	/* finalize_time_ns as a string: float()-convertible, so it counts. */
	attr_str(g, "finalize_time_ns", "1000");
	{
		hid_t t = H5Tcreate(H5T_COMPOUND, 16);
		char raw[16] = {0};
		H5Tinsert(t, "x", 0, H5T_NATIVE_INT64);
		H5Tinsert(t, "y", 8, H5T_NATIVE_INT64);
		attr_num(g, "g_compound", t, t, raw);
		H5Tclose(t);
	}
	H5Gclose(g);
	H5Fclose(f);

	p = load_ok(path);
	ck_assert_uint_eq(p->nmeta, sizeof want / sizeof want[0] + 1);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		const struct sv_meta *m = sv_profile_meta(p, want[i].key);
		ck_assert_msg(m != NULL, "no %s", want[i].key);
		ck_assert_msg(m->kind == want[i].kind, "%s: kind %d",
			want[i].key, m->kind);
		ck_assert_str_eq(m->text, want[i].text);
	}
	ck_assert_int_eq(sv_profile_meta(p, "a_int")->i, -42);
	ck_assert_double_eq(sv_profile_meta(p, "b_float")->f, 0.1);
	ck_assert_int_eq(sv_profile_meta(p, "c_true")->i, 1);
	ck_assert_int_eq(sv_profile_meta(p, "c_false")->i, 0);
	ck_assert_uint_eq(sv_profile_meta(p, "e_strs")->nstrs, 2);
	ck_assert_str_eq(sv_profile_meta(p, "e_strs")->strs[1], mods[1]);
	ck_assert_int_eq(sv_profile_meta(p, "g_compound")->kind, SV_META_OTHER);
	ck_assert_ptr_nonnull(
		strstr(sv_profile_meta(p, "g_compound")->text, "compound"));
	/* Sorted by key. */
	for (i = 1; i < p->nmeta; i++)
		ck_assert_int_lt(strcmp(p->meta[i - 1].key, p->meta[i].key), 0);
	ck_assert(p->has_finalize_time);
	ck_assert_int_eq(p->finalize_time_ns, 1000);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Aggregate layout                                                    */

START_TEST(test_aggregate)
{
	char *path = svt_tmp_path("agg.h5");
	hid_t f = h5_create(path), g;
	const char *names[] = {"main", "solve"};
	int64_t region[] = {0, 1, 1}, rank[] = {0, 0, 1};
	int64_t cnt[] = {1, 10, 12}, tot[] = {1000, 600, 700};
	int64_t mn[] = {1000, 50, 40}, mx[] = {1000, 70, 90};
	int64_t ex[] = {400, 600, -1};
	struct sv_profile *p;

	attr_i64(f, "scope_profiler_schema", 3);
	attr_str(f, "storage_layout", "aggregate");
	g = h5_group(f, "region_table");
	ds_strs(g, "names", names, 2, 0);
	H5Gclose(g);
	g = h5_group(f, "rank_region_index");
	ds_ints(g, "region_ids", H5T_STD_U32LE, region, 3);
	ds_ints(g, "ranks", H5T_STD_U32LE, rank, 3);
	ds_ints(g, "aggregate_counts", H5T_STD_U64LE, cnt, 3);
	ds_ints(g, "aggregate_totals", H5T_STD_I64LE, tot, 3);
	ds_ints(g, "aggregate_minimums", H5T_STD_I64LE, mn, 3);
	ds_ints(g, "aggregate_maximums", H5T_STD_I64LE, mx, 3);
	ds_ints(g, "aggregate_exclusives", H5T_STD_I64LE, ex, 3);
	/* The per-call index columns exist with 0 rows (doc/format.md 7). */
	ds_ints(g, "event_offsets", H5T_STD_U64LE, cnt, 0);
	ds_ints(g, "event_counts", H5T_STD_U64LE, cnt, 0);
	H5Gclose(g);
	g = h5_group(f, "events");
	ds_ints(g, "start_deltas", H5T_STD_I64LE, cnt, 0);
	ds_ints(g, "durations", H5T_STD_I64LE, cnt, 0);
	H5Gclose(g);
	H5Fclose(f);

	p = load_ok(path);
	ck_assert_int_eq(p->layout, SV_LAYOUT_AGGREGATE);
	ck_assert(!p->has_calls);
	ck_assert_uint_eq(p->ncalls, 0);
	ck_assert_uint_eq(p->nrows, 3);
	ck_assert_uint_eq(p->num_ranks, 2);
	ck_assert_uint_eq(p->rows[1].count, 10);
	ck_assert(p->rows[1].has_summary);
	ck_assert_int_eq(p->rows[1].summary.total, 600);
	ck_assert_int_eq(p->rows[1].summary.minimum, 50);
	ck_assert_int_eq(p->rows[1].summary.maximum, 70);
	ck_assert_double_eq(p->rows[1].summary.mean, 60.0);
	ck_assert_int_eq(p->rows[0].exclusive_total, 400);
	ck_assert_int_eq(p->rows[2].exclusive_total, -1);
	sv_profile_free(p);

	/* A missing aggregate column is an error. */
	f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	H5Ldelete(f, "rank_region_index/aggregate_totals", H5P_DEFAULT);
	H5Fclose(f);
	expect_fail(path, -EINVAL,
		"/rank_region_index/aggregate_totals: required dataset is "
		"missing");
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Schema 1 and 2 through the writer (write.h), as issue 3 asks        */

/*
 * Rank 2: rows b (two calls, GPU time on the second, source and tags) and
 * a (two calls nested in b's); rank 10: row a (one call).  Calls of a
 * rank are given row after row.
 */
static const int64_t wr_start2[] = {10, 20, 12, 21},
		     wr_end2[] = {15, 25, 14, 24};
static const int64_t wr_gpu2[] = {-1, 3, -1, -1};
static const int64_t wr_thread2[] = {0, 0, 0, 0}, wr_await2[] = {0, 0, 0, 1};
static const int64_t wr_cid2[] = {0, 2, 1, 3}, wr_pid2[] = {-1, -1, 0, 2};
static const int64_t wr_start10[] = {30}, wr_end10[] = {35};

static char *writer_file(const char *name, int schema)
{
	char *path = svt_tmp_path(name);
	static const char *const tags[] = {"golden", "io"};
	static const char *const mods[] = {"gcc/12", "mpi/4"};
	struct sv_write_row rows2[] = {
		{"b", 2, "app.py", 12, "def b():", tags, 2, 0},
		{"a", 2, NULL, -1, NULL, NULL, 0, 0},
	};
	struct sv_write_row rows10[] = {{"a", 1, NULL, -1, NULL, NULL, 0, 0}};
	struct sv_write_thread threads[] = {
		{0, 140, 7001, 0, "MainThread", 0, -1, 900}};
	struct sv_write_rank r2 = {0}, r10 = {0};
	struct sv_writer_opts o;
	struct sv_writer *w = NULL;
	struct sv_error e = {0};

	sv_writer_opts_init(&o);
	o.schema = schema;
	ck_assert_msg(sv_writer_open(&w, path, &o, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(sv_writer_meta_int(w, "mpi_size", 4, &e), 0);
	ck_assert_int_eq(sv_writer_meta_int(w, "start_time_ns", 5, &e), 0);
	ck_assert_int_eq(sv_writer_meta_float(w, "load", 0.25, &e), 0);
	ck_assert_int_eq(sv_writer_meta_bool(w, "gpu", true, &e), 0);
	ck_assert_int_eq(sv_writer_meta_str(w, "hostname", "node0", &e), 0);
	ck_assert_int_eq(sv_writer_meta_strs(w, "modules", mods, 2, &e), 0);
	r2.rank = 2;
	r2.rows = rows2;
	r2.nrows = 2;
	r2.ncalls = 4;
	r2.start_ns = wr_start2;
	r2.end_ns = wr_end2;
	r2.gpu_ns = wr_gpu2;
	r2.call_id = wr_cid2;
	r2.parent_id = wr_pid2;
	r2.thread_id = wr_thread2;
	r2.await_ns = wr_await2;
	r2.threads = threads;
	r2.nthreads = 1;
	ck_assert_msg(sv_writer_add_rank(w, &r2, &e) == 0, "%s", e.msg);
	r10.rank = 10;
	r10.rows = rows10;
	r10.nrows = 1;
	r10.ncalls = 1;
	r10.start_ns = wr_start10;
	r10.end_ns = wr_end10;
	ck_assert_msg(sv_writer_add_rank(w, &r10, &e) == 0, "%s", e.msg);
	ck_assert_msg(sv_writer_close(w, &e) == 0, "%s", e.msg);
	return path;
}

static void check_writer_meta(const struct sv_profile *p)
{
	ck_assert_str_eq(sv_profile_meta(p, "mpi_size")->text, "4");
	ck_assert_int_eq(sv_profile_meta(p, "load")->kind, SV_META_FLOAT);
	ck_assert_str_eq(sv_profile_meta(p, "load")->text, "0.25");
	ck_assert_int_eq(sv_profile_meta(p, "gpu")->kind, SV_META_BOOL);
	ck_assert_str_eq(sv_profile_meta(p, "gpu")->text, "True");
	ck_assert_str_eq(sv_profile_meta(p, "hostname")->text, "node0");
	ck_assert_int_eq(sv_profile_meta(p, "modules")->kind, SV_META_STRINGS);
	ck_assert_str_eq(sv_profile_meta(p, "modules")->text, "gcc/12, mpi/4");
	ck_assert(p->has_start_time);
	ck_assert_int_eq(p->start_time_ns, 5);
}

START_TEST(test_schema2_writer)
{
	char *path = writer_file("w2.h5", 2);
	struct sv_profile *p = load_ok(path);
	const struct sv_thread *t;
	int i;

	dump_warnings(p);
	ck_assert_uint_eq(p->nwarnings, 0);
	ck_assert_int_eq(p->schema, 2);
	ck_assert_int_eq(p->layout, SV_LAYOUT_COLUMNAR);
	ck_assert_uint_eq(p->num_ranks, 11); /* max(mpi_size 4, 10 + 1) */
	/* Region ids in order of first appearance: b, a. */
	ck_assert_uint_eq(p->nregions, 2);
	ck_assert_str_eq(p->regions[0], "b");
	ck_assert_str_eq(p->regions[1], "a");
	ck_assert_uint_eq(p->nrows, 3);
	ck_assert_uint_eq(p->rows[0].rank, 2);
	ck_assert_uint_eq(p->rows[0].region, 0);
	ck_assert_uint_eq(p->rows[1].region, 1);
	ck_assert_uint_eq(p->rows[2].rank, 10);
	ck_assert_uint_eq(p->rows[2].region, 1);
	ck_assert_uint_eq(p->ncalls, 5);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(p->start_ns[i], wr_start2[i]);
		ck_assert_int_eq(sv_profile_end(p, i), wr_end2[i]);
		ck_assert_int_eq(p->gpu_ns[i], wr_gpu2[i]);
		ck_assert_int_eq(p->call_id[i], wr_cid2[i]);
		ck_assert_int_eq(p->parent_id[i], wr_pid2[i]);
		ck_assert_int_eq(p->thread_id[i], wr_thread2[i]);
		ck_assert_int_eq(p->await_ns[i], wr_await2[i]);
	}
	/* Rank 10 gave no optional columns: their fill values. */
	ck_assert_int_eq(p->start_ns[4], 30);
	ck_assert_int_eq(sv_profile_end(p, 4), 35);
	ck_assert_int_eq(p->gpu_ns[4], -1);
	ck_assert_int_eq(p->thread_id[4], -1);
	ck_assert_int_eq(p->await_ns[4], 0);
	ck_assert(p->rows[0].has_gpu);
	ck_assert(!p->rows[1].has_gpu);
	ck_assert(!p->rows[2].has_gpu);
	ck_assert_str_eq(p->rows[0].source_file, "app.py");
	ck_assert_int_eq(p->rows[0].source_line, 12);
	ck_assert_str_eq(p->rows[0].source_text, "def b():");
	ck_assert_uint_eq(p->rows[0].ntags, 2);
	ck_assert_str_eq(p->rows[0].tags[1], "io");
	ck_assert_ptr_null(p->rows[1].source_file);
	ck_assert_uint_eq(p->rows[1].ntags, 0);
	/* Stored by the writer: exclusive b = 10 - (2 + 3). */
	ck_assert_int_eq(p->rows[0].exclusive_total, 5);
	ck_assert(p->rows[0].has_summary);
	ck_assert_int_eq(p->rows[0].summary.total, 10);
	ck_assert_int_eq(p->rows[0].summary.start_minimum, 10);
	ck_assert_uint_eq(p->rows[0].summary.gpu_count, 1);
	t = sv_profile_thread(p, 2, 0);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(t->name, "MainThread");
	ck_assert_int_eq(t->cpu_ns, 900);
	check_writer_meta(p);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* The writer's schema 3 round trip (delta-encoded events). */
START_TEST(test_schema3_writer)
{
	char *path = writer_file("w3.h5", 3);
	struct sv_profile *p = load_ok(path);
	int i;

	ck_assert_int_eq(p->schema, 3);
	ck_assert_uint_eq(p->ncalls, 5);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(p->start_ns[i], wr_start2[i]);
		ck_assert_int_eq(sv_profile_end(p, i), wr_end2[i]);
	}
	ck_assert_int_eq(p->start_ns[4], 30);
	ck_assert_int_eq(sv_profile_end(p, 4), 35);
	sv_profile_free(p);
	free(path);
}
END_TEST

START_TEST(test_schema1_writer)
{
	char *path = writer_file("w1.h5", 1);
	struct sv_profile *p;
	hid_t f;
	int i;

	/* Groups scope-profiler's reader counts or skips: a rank without
	 * regions still counts, a non-numeric "rankX" does not. */
	f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	ck_assert_int_ge(f, 0);
	H5Gclose(h5_group(f, "rank3"));
	H5Gclose(h5_group(f, "rankX"));
	H5Fclose(f);

	p = load_ok(path);
	dump_warnings(p);
	ck_assert_uint_eq(p->nwarnings, 0);
	ck_assert_int_eq(p->schema, 0);
	ck_assert_int_eq(p->layout, SV_LAYOUT_GROUPS);
	ck_assert_uint_eq(p->num_ranks, 3); /* rank2, rank3, rank10 */
	/* Region order: rank2's groups in name order (a, b), then rank10's. */
	ck_assert_uint_eq(p->nregions, 2);
	ck_assert_str_eq(p->regions[0], "a");
	ck_assert_str_eq(p->regions[1], "b");
	ck_assert_uint_eq(p->nrows, 3);
	ck_assert_uint_eq(p->rows[0].rank, 2);
	ck_assert_uint_eq(p->rows[0].region, 0);
	ck_assert_uint_eq(p->rows[1].rank, 2);
	ck_assert_uint_eq(p->rows[1].region, 1);
	ck_assert_uint_eq(p->rows[2].rank, 10);
	ck_assert_uint_eq(p->rows[2].region, 0);
	ck_assert_uint_eq(p->ncalls, 5);
	/* Row a of rank 2 holds calls 2 and 3 of the writer's rank. */
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(p->start_ns[i], wr_start2[2 + i]);
		ck_assert_int_eq(sv_profile_end(p, i), wr_end2[2 + i]);
		ck_assert_int_eq(p->start_ns[2 + i], wr_start2[i]);
		ck_assert_int_eq(sv_profile_end(p, 2 + i), wr_end2[i]);
		ck_assert_int_eq(p->gpu_ns[2 + i], wr_gpu2[i]);
		ck_assert_int_eq(p->call_id[2 + i], wr_cid2[i]);
		ck_assert_int_eq(p->parent_id[2 + i], wr_pid2[i]);
	}
	ck_assert_int_eq(p->start_ns[4], 30);
	ck_assert_int_eq(sv_profile_end(p, 4), 35);
	ck_assert_ptr_null(p->thread_id); /* schema 1 has no lanes */
	ck_assert(!p->rows[0].has_gpu);
	ck_assert(p->rows[1].has_gpu);
	ck_assert_str_eq(p->rows[1].source_file, "app.py");
	ck_assert_int_eq(p->rows[1].source_line, 12);
	ck_assert_str_eq(p->rows[1].source_text, "def b():");
	ck_assert_uint_eq(p->rows[1].ntags, 2);
	ck_assert_str_eq(p->rows[1].tags[0], "golden");
	ck_assert_ptr_null(p->rows[0].source_file);
	ck_assert_int_eq(p->rows[0].source_line, -1);
	check_writer_meta(p);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* A schema 1 file the writer cannot make: end_times shorter than
 * start_times (raw HDF5). */
START_TEST(test_schema1_short_end)
{
	char *path = svt_tmp_path("s1bad.h5");
	hid_t f = h5_create(path), r, g, c;
	int64_t s[] = {10, 20}, e[] = {15};

	r = h5_group(f, "rank0");
	g = h5_group(r, "regions");
	c = h5_group(g, "c");
	ds_ints(c, "start_times", H5T_STD_I64LE, s, 2);
	ds_ints(c, "end_times", H5T_STD_I64LE, e, 1);
	H5Gclose(c);
	c = h5_group(g, "d");
	ds_ints(c, "start_times", H5T_STD_I64LE, s, 2);
	H5Gclose(c);
	H5Gclose(g);
	H5Gclose(r);
	H5Fclose(f);
	expect_fail(path, -EINVAL,
		"/rank0/regions/c/end_times: holds 1 values, but start_times "
		"holds 2 events");

	f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	H5Ldelete(f, "rank0/regions/c", H5P_DEFAULT);
	H5Fclose(f);
	expect_fail(path, -EINVAL,
		"/rank0/regions/d/end_times: required dataset is missing");
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The fixtures in tests/fixtures                                      */

/* Each fixture's schema and layout (what the file is, from
 * tests/fixtures/README.md); every figure checked comes from the
 * fixture's NAME.expected.json, what scope-profiler's reader reported. */
struct fixture_case {
	const char *file;
	int schema;
	enum sv_layout_kind layout;
};

static const struct fixture_case fixtures[] = {
	{"aggregate_layout.h5", 3, SV_LAYOUT_AGGREGATE},
	{"four_ranks.h5", 3, SV_LAYOUT_COLUMNAR},
	{"gpu_likwid_perf_lineprof.h5", 3, SV_LAYOUT_COLUMNAR},
	{"hdf5-schema-1.h5", 0, SV_LAYOUT_GROUPS},
	{"hdf5-schema-2.h5", 2, SV_LAYOUT_COLUMNAR},
	{"hdf5-schema-3.h5", 3, SV_LAYOUT_COLUMNAR},
	{"lanes_rebuilt_exclusive.h5", 3, SV_LAYOUT_COLUMNAR},
	{"large_auto_gzip.h5", 3, SV_LAYOUT_COLUMNAR},
	{"legacy_schema1.h5", 0, SV_LAYOUT_GROUPS},
	{"no_call_ids.h5", 3, SV_LAYOUT_COLUMNAR},
	{"schema2_ties_zero_length.h5", 2, SV_LAYOUT_COLUMNAR},
	{"single_rank_nested.h5", 3, SV_LAYOUT_COLUMNAR},
	{"threads_tasks.h5", 3, SV_LAYOUT_COLUMNAR},
	{"unrepacked_chunked.h5", 3, SV_LAYOUT_COLUMNAR},
};

/* NAME.expected.json for fixture NAME.h5 (json_decref it). */
static json_t *expected_for(const char *file)
{
	size_t n = strlen(file);
	char *base = sv_xasprintf("%.*s", (int)(n > 3 ? n - 3 : n), file);
	char *path =
		sv_xasprintf("%s/%s.expected.json", svt_fixtures_dir(), base);
	json_error_t jerr;
	json_t *exp = json_load_file(path, 0, &jerr);

	ck_assert_msg(exp != NULL, "%s: %s", path, jerr.text);
	free(path);
	free(base);
	return exp;
}

/* An integer member of a JSON object (must be there). */
static json_int_t json_int(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	ck_assert_msg(json_is_integer(v), "no integer '%s'", key);
	return json_integer_value(v);
}

static const struct sv_row *row_of(
	const struct sv_profile *p, uint32_t rank, uint32_t region)
{
	size_t i;
	for (i = 0; i < p->nrows; i++)
		if (p->rows[i].rank == rank && p->rows[i].region == region)
			return &p->rows[i];
	return NULL;
}

/* Packing the columns (what the viewer does once a profile is loaded:
 * starts, durations, nesting, exclusive times and ids) changes no call's
 * figures. */
enum { PACK_FIGS = 9 + SV_ID_COLUMNS };
static void pack_figures(const struct sv_profile *p, uint32_t c, int64_t *v)
{
	int k;
	bool nest = sv_profile_has_nesting(p);
	v[0] = sv_profile_start(p, c);
	v[1] = sv_profile_end(p, c);
	v[2] = sv_call_duration(p, c);
	v[3] = nest ? (int64_t)sv_profile_depth(p, c) : -1;
	v[4] = nest ? (int64_t)sv_profile_parent(p, c) : -1;
	v[5] = sv_profile_has_exclusive(p) ? sv_profile_exclusive(p, c) : -1;
	v[6] = sv_profile_has_lanes(p) ? (int64_t)sv_call_lane(p, c) : -1;
	v[7] = sv_profile_gpu(p, c);
	v[8] = sv_profile_has_await(p) ? sv_profile_await(p, c) : -7;
	for (k = 0; k < SV_ID_COLUMNS; k++)
		v[9 + k] = sv_profile_has_id(p, (enum sv_id_column)k)
				   ? sv_profile_id(p, (enum sv_id_column)k, c)
				   : -1;
}

static void check_pack_keeps(struct sv_profile *p)
{
	uint32_t n = p->ncalls, c;
	int64_t *keep = malloc(((size_t)n * PACK_FIGS + 1) * sizeof *keep);
	int64_t now[PACK_FIGS];
	bool nest = sv_profile_has_nesting(p),
	     excl = sv_profile_has_exclusive(p);
	bool gpu = sv_profile_has_gpu(p), await = sv_profile_has_await(p);
	int k;

	ck_assert_ptr_nonnull(keep);
	for (c = 0; c < n; c++)
		pack_figures(p, c, keep + (size_t)c * PACK_FIGS);
	sv_profile_pack(p);
	if (n && sv_profile_has_lanes(p))
		ck_assert(!p->start_ns && !p->dur && !p->parent && !p->depth &&
			  !p->exclusive && !p->lane_of && !p->gpu_ns &&
			  !p->await_ns);
	ck_assert(sv_profile_has_nesting(p) == nest);
	ck_assert(sv_profile_has_gpu(p) == gpu);
	ck_assert(sv_profile_has_await(p) == await);
	ck_assert(sv_profile_has_exclusive(p) == excl);
	for (c = 0; c < n; c++) {
		pack_figures(p, c, now);
		for (k = 0; k < PACK_FIGS; k++)
			ck_assert_int_eq(
				now[k], keep[(size_t)c * PACK_FIGS + k]);
	}
	free(keep);
}

START_TEST(test_fixture)
{
	const struct fixture_case *c = &fixtures[_i];
	char *path = svt_fixture(c->file);
	json_t *exp = expected_for(c->file), *regions, *reg;
	const char *name;
	struct sv_profile *p;
	size_t nrows = 0;
	uint64_t ncalls = 0;

	p = load_ok(path);
	ck_assert_int_eq(p->schema, c->schema);
	ck_assert_int_eq(p->layout, c->layout);
	ck_assert(p->has_calls == (c->layout != SV_LAYOUT_AGGREGATE));
	regions = json_object_get(exp, "regions");
	ck_assert_uint_eq(p->nregions, json_object_size(regions));
	ck_assert_uint_eq(p->num_ranks, json_int(exp, "num_ranks"));
	/* one row per (region, rank) scope-profiler lists, holding its
	 * calls, from its earliest start to its latest end */
	json_object_foreach(regions, name, reg)
	{
		int64_t region = sv_profile_find_region(p, name);
		const char *rank;
		json_t *r;

		ck_assert_msg(region >= 0, "%s: no region %s", c->file, name);
		json_object_foreach(json_object_get(reg, "ranks"), rank, r)
		{
			const struct sv_row *row = row_of(
				p, (uint32_t)atoi(rank), (uint32_t)region);
			uint64_t n = (uint64_t)json_int(r, "num_calls");

			ck_assert_msg(row != NULL, "%s: no row for %s rank %s",
				c->file, name, rank);
			ck_assert_uint_eq(row->count, n);
			nrows++;
			if (!p->has_calls || !n)
				continue;
			ncalls += n;
			{
				int64_t lo = sv_profile_start(
						p, (uint32_t)row->first),
					hi = sv_profile_end(
						p, (uint32_t)row->first);
				uint32_t k;
				for (k = (uint32_t)row->first;
					k < row->first + n; k++) {
					if (sv_profile_start(p, k) < lo)
						lo = sv_profile_start(p, k);
					if (sv_profile_end(p, k) > hi)
						hi = sv_profile_end(p, k);
				}
				if (json_object_get(r, "first_start_ns"))
					ck_assert_int_eq(lo,
						json_int(r, "first_start_ns"));
				if (json_object_get(r, "last_end_ns"))
					ck_assert_int_eq(
						hi, json_int(r, "last_end_ns"));
			}
		}
	}
	ck_assert_uint_eq(p->nrows, nrows);
	ck_assert_uint_eq(p->ncalls, ncalls);
	/* Fixtures are valid: no loader warnings (nesting warnings from the
	 * lanes of threads_tasks.h5 are profile.c's). */
	{
		size_t i;
		for (i = 0; i < p->nwarnings; i++)
			ck_assert_msg(!strncmp(p->warnings[i], "rank ", 5),
				"%s: unexpected warning: %s", c->file,
				p->warnings[i]);
	}
	check_pack_keeps(p);
	json_decref(exp);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* Every fixture in the directory is in the table above. */
START_TEST(test_fixture_table_complete)
{
	const char *dir = svt_fixtures_dir();
	char cmd[4200];
	FILE *ls;
	char line[512];
	int found = 0;

	snprintf(cmd, sizeof cmd, "ls '%s'", dir);
	ls = popen(cmd, "r");
	ck_assert_ptr_nonnull(ls);
	while (fgets(line, sizeof line, ls)) {
		size_t n = strlen(line), i;
		bool known = false;
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (n < 3 || strcmp(line + n - 3, ".h5"))
			continue;
		for (i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++)
			if (!strcmp(fixtures[i].file, line))
				known = true;
		ck_assert_msg(
			known, "fixture %s is not in test_load's table", line);
		found++;
	}
	pclose(ls);
	ck_assert_int_eq(found, (int)(sizeof fixtures / sizeof fixtures[0]));
}
END_TEST

/* Extra: threads_tasks.h5's lane tables and gpu fixture's per-row rule. */
START_TEST(test_fixture_details)
{
	char *path = svt_fixture("threads_tasks.h5");
	struct sv_profile *p = load_ok(path);
	json_t *exp = expected_for("threads_tasks.h5"), *reg;
	const char *name;
	size_t r, nthreads = 0, ntasks = 0;
	bool any_gpu = false, any_nogpu = false, seen[64] = {false};
	bool seen_task[64] = {false};

	/* the lane tables hold every thread and task scope-profiler saw */
	json_object_foreach(json_object_get(exp, "regions"), name, reg)
	{
		const char *rank;
		json_t *rr, *v;
		size_t i;
		json_object_foreach(json_object_get(reg, "ranks"), rank, rr)
		{
			json_array_foreach(json_object_get(rr, "threads"), i, v)
			{
				json_int_t t = json_integer_value(v);
				if (t >= 0 && t < 64 && !seen[t]) {
					seen[t] = true;
					nthreads++;
				}
			}
			json_array_foreach(
				json_object_get(rr, "task_ids_distinct"), i, v)
			{
				json_int_t t = json_integer_value(v);
				if (t >= 0 && t < 64 && !seen_task[t]) {
					seen_task[t] = true;
					ntasks++;
				}
			}
		}
	}
	json_decref(exp);
	ck_assert_uint_gt(nthreads, 1);
	ck_assert_uint_eq(p->nthreads, nthreads);
	ck_assert_uint_eq(p->ntasks, ntasks);
	ck_assert_ptr_nonnull(p->await_ns);
	ck_assert_ptr_nonnull(sv_profile_meta(p, "modules"));
	ck_assert_int_eq(sv_profile_meta(p, "modules")->kind, SV_META_STRINGS);
	sv_profile_free(p);
	free(path);

	path = svt_fixture("gpu_likwid_perf_lineprof.h5");
	p = load_ok(path);
	ck_assert_ptr_nonnull(p->gpu_ns);
	for (r = 0; r < p->nrows; r++) {
		if (p->rows[r].has_gpu)
			any_gpu = true;
		else
			any_nogpu = true;
	}
	ck_assert(any_gpu && any_nogpu);
	sv_profile_free(p);
	free(path);

	path = svt_fixture("single_rank_nested.h5");
	p = load_ok(path);
	exp = expected_for("single_rank_nested.h5");
	ck_assert_str_eq(p->regions[4],
		json_string_value(json_array_get(
			json_object_get(exp, "region_order"), 4)));
	ck_assert_str_eq(p->regions[4], "solve");
	ck_assert_uint_eq(p->rows[4].ntags,
		json_array_size(json_object_get(
			json_object_get(
				json_object_get(exp, "regions"), "solve"),
			"tags")));
	ck_assert_uint_gt(p->rows[4].ntags, 0);
	json_decref(exp);
	ck_assert(p->rows[4].has_summary);
	ck_assert_int_ge(p->rows[4].exclusive_total, 0);
	ck_assert_ptr_nonnull(p->rows[4].source_text);
	ck_assert(p->has_start_time);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The parallel inflate path (load_h5_fast.c)                          */

/* A deterministic stream of 64-bit values (splitmix64). */
static uint64_t mix_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15u);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
	return z ^ (z >> 31);
}

struct big_case {
	const char *name;
	hsize_t n;     /* events */
	hsize_t chunk; /* chunk of the event columns */
	bool shuffle;
	int nrows;     /* rows of n / nrows calls (the last takes the rest) */
	bool reversed; /* rows listed in reverse order of their slices */
	bool fletcher; /* add a checksum filter: the parallel path steps aside */
	bool contiguous; /* no chunks at all */
	int codec;       /* BIG_DEFLATE, BIG_LZF or BIG_ZSTD */
};

enum { BIG_DEFLATE, BIG_LZF, BIG_ZSTD };

static const struct big_case big_cases[] = {
	/* 69 chunks (more than threads), the last one partial */
	{"big_shuffle.h5", 70000, 1024, true, 4, false, false, false,
		BIG_DEFLATE},
	/* deflate without shuffle, a prime length */
	{"big_deflate.h5", 200003, 4096, false, 3, false, false, false,
		BIG_DEFLATE},
	/* rows out of order: ranges that start and end inside chunks */
	{"big_rows.h5", 300000, 1536, true, 2, true, false, false, BIG_DEFLATE},
	/* one chunk holds everything but the tail */
	{"big_onechunk.h5", 65537, 65536, true, 1, false, false, false,
		BIG_DEFLATE},
	{"big_fletcher.h5", 70000, 1024, true, 2, false, true, false,
		BIG_DEFLATE},
	{"big_contig.h5", 70000, 0, false, 2, false, false, true, BIG_DEFLATE},
	/* LZF (h5py's filter 32000) and zstd (hdf5plugin's 32015), with
	 * and without shuffle, written as raw chunks (big_raw_column) */
	{"big_lzf_shuffle.h5", 70000, 1024, true, 4, false, false, false,
		BIG_LZF},
	{"big_lzf.h5", 200003, 4096, false, 3, true, false, false, BIG_LZF},
	{"big_zstd_shuffle.h5", 70000, 1024, true, 2, false, false, false,
		BIG_ZSTD},
	{"big_zstd.h5", 200003, 4096, false, 3, true, false, false, BIG_ZSTD},
};

/* Write column name of n 8-byte little-endian values as raw chunks
 * compressed the way the filter plugins do: shuffled (when asked) then
 * one LZF stream or zstd frame per chunk, the last one padded with
 * zeros.  A chunk LZF cannot shrink is stored as it is, with the LZF bit
 * of its filter mask set, as HDF5 stores it for an optional filter. */
static void big_raw_column(hid_t g, const char *name, hid_t type,
	const void *vals, const struct big_case *c)
{
	hsize_t n = c->n, unlim = H5S_UNLIMITED, k, nchunks;
	size_t cb = (size_t)c->chunk * 8, cap = ZSTD_compressBound(cb);
	hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
	hid_t s = H5Screate_simple(1, &n, &unlim), d;
	unsigned char *plain = malloc(cb), *shuf = malloc(cb);
	unsigned char *packed = malloc(cap);
	unsigned lzf_cd[3] = {4, 0x0105, (unsigned)cb}, zstd_cd[1] = {3};

	H5Pset_chunk(dcpl, 1, &c->chunk);
	if (c->shuffle)
		H5Pset_shuffle(dcpl);
	if (c->codec == BIG_LZF)
		ck_assert_int_ge(H5Pset_filter(dcpl, 32000, H5Z_FLAG_OPTIONAL,
					 3, lzf_cd),
			0);
	else
		ck_assert_int_ge(H5Pset_filter(dcpl, 32015, H5Z_FLAG_OPTIONAL,
					 1, zstd_cd),
			0);
	d = H5Dcreate2(g, name, type, s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	ck_assert_int_ge(d, 0);
	nchunks = (n + c->chunk - 1) / c->chunk;
	for (k = 0; k < nchunks; k++) {
		hsize_t first = k * c->chunk, have = n - first,
			off[1] = {first};
		const unsigned char *in = plain;
		uint32_t mask = 0;
		size_t len, i, b;
		if (have > c->chunk)
			have = c->chunk;
		memset(plain, 0, cb);
		memcpy(plain, (const unsigned char *)vals + first * 8,
			(size_t)have * 8);
		if (c->shuffle) {
			for (i = 0; i < (size_t)c->chunk; i++)
				for (b = 0; b < 8; b++)
					shuf[b * (size_t)c->chunk + i] =
						plain[i * 8 + b];
			in = shuf;
		}
		if (c->codec == BIG_LZF) {
			len = lzf_compress(
				in, (unsigned)cb, packed, (unsigned)cb - 1);
			if (len == 0) {
				memcpy(packed, in, cb);
				len = cb;
				mask = c->shuffle ? 2u : 1u;
			}
		} else {
			len = ZSTD_compress(packed, cap, in, cb, 3);
			ck_assert(!ZSTD_isError(len));
		}
		ck_assert_int_ge(
			H5Dwrite_chunk(d, H5P_DEFAULT, mask, off, len, packed),
			0);
	}
	H5Dclose(d);
	H5Sclose(s);
	H5Pclose(dcpl);
	free(plain);
	free(shuf);
	free(packed);
}

/* Write a schema 3 profile of c->n events with chunked, deflated event
 * columns: start_deltas, durations, call_ids (random bits) and an extra
 * float column "weights" (random bits).  Fills want_start with the decoded
 * start times. */
static char *big_write(const struct big_case *c, int64_t *want_start)
{
	char *path = svt_tmp_path(c->name);
	hid_t f = h5_create(path), g, dcpl;
	const char *names[] = {"solve", "io", "mpi.allreduce"};
	int64_t *delta = malloc(c->n * 8), *dur = malloc(c->n * 8),
		*cid = malloc(c->n * 8);
	double *wts = malloc(c->n * 8);
	int64_t rank[8], region[8], offset[8], count[8];
	hsize_t per = c->n / (hsize_t)c->nrows, i, unlim = H5S_UNLIMITED;
	uint64_t st = 42;
	int r;

	ck_assert_int_le(c->nrows, 8);
	for (r = 0; r < c->nrows; r++) {
		int slot = c->reversed ? c->nrows - 1 - r : r;
		rank[r] = r;
		region[r] = r % 3;
		offset[r] = (int64_t)(per * (hsize_t)slot);
		count[r] = (int64_t)(slot == c->nrows - 1
					     ? c->n - per * (hsize_t)slot
					     : per);
	}
	for (i = 0; i < c->n; i++) {
		uint64_t v = mix_next(&st);
		delta[i] = (int64_t)(v % 5000);
		dur[i] = (int64_t)((v >> 20) % 4000);
		cid[i] = (int64_t)mix_next(&st);
		v = mix_next(&st);
		memcpy(&wts[i], &v, 8);
	}
	for (r = 0; r < c->nrows; r++) {
		hsize_t k, o = (hsize_t)offset[r];
		delta[o] = 1000000 * (int64_t)r + 7; /* absolute first start */
		want_start[o] = delta[o];
		for (k = 1; k < (hsize_t)count[r]; k++)
			want_start[o + k] =
				want_start[o + k - 1] + delta[o + k];
	}

	attr_i64(f, "scope_profiler_schema", 3);
	attr_str(f, "storage_layout", "columnar");
	g = h5_group(f, "metadata");
	attr_i64(g, "mpi_size", c->nrows);
	H5Gclose(g);
	g = h5_group(f, "region_table");
	ds_strs(g, "names", names, 3, 0);
	H5Gclose(g);
	g = h5_group(f, "rank_region_index");
	ds_ints(g, "ranks", H5T_STD_U32LE, rank, (hsize_t)c->nrows);
	ds_ints(g, "region_ids", H5T_STD_U32LE, region, (hsize_t)c->nrows);
	ds_ints(g, "event_offsets", H5T_STD_U64LE, offset, (hsize_t)c->nrows);
	ds_ints(g, "event_counts", H5T_STD_U64LE, count, (hsize_t)c->nrows);
	H5Gclose(g);

	if (c->codec != BIG_DEFLATE) {
		g = h5_group(f, "events");
		big_raw_column(g, "start_deltas", H5T_STD_I64LE, delta, c);
		big_raw_column(g, "durations", H5T_STD_I64LE, dur, c);
		big_raw_column(g, "call_ids", H5T_STD_I64LE, cid, c);
		big_raw_column(g, "weights", H5T_IEEE_F64LE, wts, c);
		H5Gclose(g);
		H5Fclose(f);
		free(delta);
		free(dur);
		free(cid);
		free(wts);
		return path;
	}
	dcpl = H5Pcreate(H5P_DATASET_CREATE);
	if (!c->contiguous) {
		H5Pset_chunk(dcpl, 1, &c->chunk);
		if (c->fletcher)
			H5Pset_fletcher32(dcpl);
		if (c->shuffle)
			H5Pset_shuffle(dcpl);
		H5Pset_deflate(dcpl, 4);
	}
	g = h5_group(f, "events");
	{
		hsize_t n = c->n;
		hid_t s =
			H5Screate_simple(1, &n, c->contiguous ? NULL : &unlim);
		hid_t d;
		d = H5Dcreate2(g, "start_deltas", H5T_STD_I64LE, s, H5P_DEFAULT,
			dcpl, H5P_DEFAULT);
		H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT,
			delta);
		H5Dclose(d);
		d = H5Dcreate2(g, "durations", H5T_STD_I64LE, s, H5P_DEFAULT,
			dcpl, H5P_DEFAULT);
		H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT,
			dur);
		H5Dclose(d);
		d = H5Dcreate2(g, "call_ids", H5T_STD_I64LE, s, H5P_DEFAULT,
			dcpl, H5P_DEFAULT);
		H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT,
			cid);
		H5Dclose(d);
		d = H5Dcreate2(g, "weights", H5T_IEEE_F64LE, s, H5P_DEFAULT,
			dcpl, H5P_DEFAULT);
		H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
			wts);
		H5Dclose(d);
		H5Sclose(s);
	}
	H5Gclose(g);
	H5Pclose(dcpl);
	H5Fclose(f);
	free(delta);
	free(dur);
	free(cid);
	free(wts);
	return path;
}

static struct sv_profile *load_with(const char *path, bool slow)
{
	struct sv_load_opts o = {.slow_inflate = slow};
	return load_opts(path, &o);
}

static void same_col(const void *a, const void *b, size_t n, const char *what)
{
	ck_assert_msg((a == NULL) == (b == NULL), "%s: present in one", what);
	if (a)
		ck_assert_msg(!memcmp(a, b, n * 8), "%s differs", what);
}

START_TEST(test_fast_same_values)
{
	const struct big_case *c = &big_cases[_i];
	int64_t *want = malloc(c->n * 8);
	char *path = big_write(c, want);
	uint64_t before = sv_h5_fast_chunks(), mid;
	struct sv_profile *fast = load_with(path, false), *slow;
	size_t k;
	uint64_t i;

	mid = sv_h5_fast_chunks();
	slow = load_with(path, true);
	ck_assert_uint_eq(sv_h5_fast_chunks(), mid);
	if (c->fletcher || c->contiguous)
		ck_assert_uint_eq(mid, before); /* not for it: H5Dread */
	else
		ck_assert_msg(
			mid > before, "%s: parallel path not taken", c->name);
	ck_assert_uint_eq(fast->ncalls, c->n);
	ck_assert_uint_eq(slow->ncalls, c->n);
	same_col(fast->start_ns, slow->start_ns, c->n, "start_ns");
	same_col(fast->end_ns, slow->end_ns, c->n, "end_ns");
	same_col(fast->call_id, slow->call_id, c->n, "call_id");
	ck_assert_uint_eq(fast->ncolumns, 1);
	ck_assert_uint_eq(slow->ncolumns, 1);
	/* the file contents list names the pipeline */
	for (k = 0; k < fast->nnodes; k++)
		if (!strcmp(fast->nodes[k].path, "/events/start_deltas"))
			break;
	ck_assert_uint_lt(k, fast->nnodes);
	if (!c->contiguous)
		ck_assert_msg(
			strstr(fast->nodes[k].what,
				c->codec == BIG_LZF    ? "LZF"
				: c->codec == BIG_ZSTD ? "Zstandard (zstd)"
						       : "deflate (gzip)") &&
				(!c->shuffle || strstr(fast->nodes[k].what,
							"shuffle + ")),
			"%s: %s", c->name, fast->nodes[k].what);
	ck_assert(fast->columns[0].is_float);
	same_col(fast->columns[0].f, slow->columns[0].f, c->n, "weights");
	/* Schema 3's deltas decoded exactly, in both. */
	for (k = 0; k < fast->nrows; k++) {
		const struct sv_row *row = &fast->rows[k];
		uint64_t base = 0;
		size_t r;
		/* the row's slice in the file: rows are added in index order */
		for (r = 0; r < (size_t)c->nrows; r++)
			if ((uint32_t)r == row->rank)
				break;
		{
			hsize_t per = c->n / (hsize_t)c->nrows;
			int slot = c->reversed ? c->nrows - 1 - (int)r : (int)r;
			base = per * (hsize_t)slot;
		}
		for (i = 0; i < row->count; i++)
			ck_assert_msg(fast->start_ns[row->first + i] ==
					      want[base + i],
				"%s: row %zu call %" PRIu64 ": start %" PRId64
				", want %" PRId64,
				c->name, k, i, fast->start_ns[row->first + i],
				want[base + i]);
	}
	sv_profile_free(fast);
	sv_profile_free(slow);
	free(want);
	free(path);
}
END_TEST

/* Issue 13's "done when": a 0.7 file with zstd-compressed (and shuffled)
 * event columns, per-call event metadata, perf counters and a line
 * profile opens with no set-up, through both decoding paths. */
START_TEST(test_done_when_07)
{
	const struct big_case *c = &big_cases[8]; /* big_zstd_shuffle.h5 */
	int64_t *want = malloc(c->n * 8);
	char *path = big_write(c, want);
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT), g, r, k;
	hsize_t per = c->n / 2, i;
	char *rows[2];
	const char *names[] = {"cycles", "instructions"};
	int64_t vals[] = {1000, 2500}, lines[] = {7, 8}, hits[] = {1, 9};
	double times[] = {1.0, 9.0};
	int slow;

	ck_assert_str_eq(c->name, "big_zstd_shuffle.h5");
	for (int row = 0; row < 2; row++) {
		hsize_t n = row ? c->n - per : per;
		size_t len = 2, at = 1;
		rows[row] = malloc(n * 24 + 4);
		rows[row][0] = '[';
		for (i = 0; i < n; i++) {
			at += (size_t)sprintf(rows[row] + at, "%s{\"it\": %d}",
				i ? ", " : "", (int)(i % 3));
			len = at;
		}
		rows[row][len] = ']';
		rows[row][len + 1] = '\0';
	}
	g = H5Gopen2(f, "rank_region_index", H5P_DEFAULT);
	ds_strs(g, "event_metadata", (const char *const *)rows, 2, 0);
	H5Gclose(g);
	r = h5_group(f, "rank0");
	g = h5_group(r, "perf_events");
	k = h5_group(g, "solve");
	attr_strs(k, "event_names", names, 2);
	attr_i64(k, "calls", (int64_t)per);
	ds_ints(k, "values", H5T_STD_U64LE, vals, 2);
	H5Gclose(k);
	H5Gclose(g);
	g = h5_group(r, "line_profile");
	k = h5_group(g, "0");
	attr_str(k, "region", "solve");
	attr_str(k, "source", "def solve():\n    a = 1\n    b = 2\n");
	attr_i64(k, "source_first_lineno", 6);
	ds_ints(k, "line_numbers", H5T_STD_I64LE, lines, 2);
	ds_ints(k, "hits", H5T_STD_I64LE, hits, 2);
	ds_f64(k, "times", times, 2);
	H5Gclose(k);
	H5Gclose(g);
	H5Gclose(r);
	H5Fclose(f);
	free(rows[0]);
	free(rows[1]);

	for (slow = 0; slow < 2; slow++) {
		uint64_t before = sv_h5_fast_chunks();
		struct sv_profile *p = load_with(path, slow);
		ck_assert_uint_eq(p->ncalls, c->n);
		if (!slow)
			ck_assert_uint_gt(sv_h5_fast_chunks(), before);
		for (i = 0; i < per; i++)
			ck_assert_int_eq(p->start_ns[i], want[i]);
		ck_assert_str_eq(sv_callmeta_of(p, 0), "{\"it\":0}");
		ck_assert_str_eq(sv_callmeta_of(p, 4), "{\"it\":1}");
		ck_assert_str_eq(
			sv_callmeta_of(p, (uint32_t)(per + 2)), "{\"it\":2}");
		ck_assert_uint_eq(p->ncounters, 1);
		ck_assert(p->counters[0].values[1] == 2500);
		ck_assert_uint_eq(p->nlineprofs, 1);
		ck_assert_int_eq(p->lineprofs[0].hits[1], 9);
		for (i = 0; i < p->nwarnings; i++)
			ck_assert_msg(!strstr(p->warnings[i], "event_metadata"),
				"%s", p->warnings[i]);
		sv_profile_free(p);
	}
	free(want);
	free(path);
}
END_TEST

/* A damaged chunk in the middle of a large compressed column: the
 * parallel path gives way, and the error is the one H5Dread gives. */
START_TEST(test_fast_damaged_chunk)
{
	const struct big_case *c = &big_cases[0];
	int64_t *want = malloc(c->n * 8);
	char *path = big_write(c, want);
	hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	hid_t d = H5Dopen2(f, "events/durations", H5P_DEFAULT);
	haddr_t addr = 0;
	hsize_t size = 0, off[1];
	unsigned mask;
	unsigned char junk[64];
	struct sv_load_opts fo = {0}, so = {.slow_inflate = true};
	struct sv_profile *p = NULL;
	struct sv_error fe = {0}, se = {0};
	int frc, src;
	FILE *fp;
	hid_t sp = H5Dget_space(d);

	ck_assert_int_ge(
		H5Dget_chunk_info(d, sp, 40, off, &mask, &addr, &size), 0);
	H5Sclose(sp);
	H5Dclose(d);
	H5Fclose(f);
	memset(junk, 0xA5, sizeof junk);
	fp = fopen(path, "r+b");
	ck_assert_ptr_nonnull(fp);
	fseek(fp, (long)addr + 8, SEEK_SET);
	fwrite(junk, 1, size - 8 < sizeof junk ? size - 8 : sizeof junk, fp);
	fclose(fp);
	frc = sv_load(path, &fo, &p, &fe);
	src = sv_load(path, &so, &p, &se);
	ck_assert_int_eq(frc, -EIO);
	ck_assert_int_eq(src, -EIO);
	ck_assert_str_eq(fe.msg, se.msg);
	ck_assert_msg(strstr(fe.msg, "/events/durations: cannot read"),
		"message: %s", fe.msg);
	free(want);
	free(path);
}
END_TEST

static int cancel_on_events(void *ctx)
{
	int *calls = ctx;
	return ++*calls > 8; /* some batches of chunks in */
}

/* Cancellation is checked between chunks of the parallel path. */
START_TEST(test_fast_cancel)
{
	const struct big_case *c = &big_cases[2];
	int64_t *want = malloc(c->n * 8);
	char *path = big_write(c, want);
	int calls = 0;
	struct sv_load_opts o = {.cancelled = cancel_on_events, .ctx = &calls};
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	uint64_t before = sv_h5_fast_chunks();

	ck_assert_int_eq(sv_load(path, &o, &p, &e), -ECANCELED);
	ck_assert_ptr_null(p);
	/* Stopped part of the way: the four columns hold 4 * 196 chunks. */
	ck_assert_uint_lt(sv_h5_fast_chunks() - before, 4 * 196);
	ck_assert_int_eq(calls, 9);
	free(want);
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Damaged files: byte flips never crash the process (load_h5_guard.c) */

/* What became of one damaged copy, as its child process reports it in
 * its exit status (any other status, such as a sanitizer's, fails). */
enum fuzz_outcome {
	FUZZ_LOADED = 40,
	FUZZ_FAILED,      /* a clean one-line error from our checks */
	FUZZ_GUARDED,     /* HDF5 crashed or looped, the guard caught it */
	FUZZ_HDF5_ASAN,   /* ASAN saw libhdf5 itself overrun (ASAN only) */
	FUZZ_BAD_MESSAGE, /* failed without a proper message */
};

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
/* Fewer copies: every child pays ASAN's start-up. */
#define FUZZ_FILES 60

/*
 * ASAN checks libhdf5's memcpy calls too, so it reports (and stops) the
 * out-of-bounds reads that would otherwise crash inside libhdf5, before
 * the guard sees a fault.  Those are libhdf5's bugs, not ours: a report
 * whose first frame after the interceptor lies in libhdf5 ends the child
 * with FUZZ_HDF5_ASAN.  Every other report (our code) keeps ASAN's exit
 * status and fails the test.
 */
static char fuzz_asan_report[8192];

static void fuzz_asan_report_cb(const char *text)
{
	snprintf(fuzz_asan_report, sizeof fuzz_asan_report, "%s", text);
}

static void fuzz_asan_death_cb(void)
{
	const char *f1 = strstr(fuzz_asan_report, "\n    #1 ");
	const char *nl = f1 ? strchr(f1 + 1, '\n') : NULL;
	const char *lib = f1 ? strstr(f1, "libhdf5") : NULL;
	if (strstr(fuzz_asan_report, "    #0 ") &&
		strstr(fuzz_asan_report, "__interceptor_") && lib &&
		(!nl || lib < nl))
		_exit(FUZZ_HDF5_ASAN);
}

/* libhdf5 leaks what it had converted when a read of damaged strings
 * fails half-way (the strings sit in its own conversion buffer, out of
 * our reach).  Only the fuzz children, which set this flag, pass that
 * suppression to LeakSanitizer (it asks when it checks, at exit). */
static bool fuzz_in_child;

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return fuzz_in_child ? "leak:libhdf5_serial.so\n" : "";
}

static void fuzz_child_setup(void)
{
	fuzz_in_child = true;
	__asan_set_error_report_callback(fuzz_asan_report_cb);
	__sanitizer_set_death_callback(fuzz_asan_death_cb);
}
#else
#define FUZZ_FILES 300
static void fuzz_child_setup(void)
{
}
#endif

static int fuzz_child(const char *path)
{
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	int rc;

	alarm(20);
	fuzz_child_setup();
	/* A loop inside HDF5 is stopped after 3 s of CPU, not 20. */
	setenv("SCOPEVIEW_HDF5_WATCHDOG", "3", 1);
	rc = sv_load(path, NULL, &p, &e);
	if (rc == 0) {
		sv_profile_free(p);
		return FUZZ_LOADED;
	}
	if (rc > 0 || e.code != rc || !e.msg[0] || strchr(e.msg, '\n') ||
		strncmp(e.msg, path, strlen(path)) != 0) {
		fprintf(stderr, "bad failure %d: '%s'\n", rc, e.msg);
		return FUZZ_BAD_MESSAGE;
	}
	if (strstr(e.msg, ": damaged: the HDF5 library")) {
		/* Later loads refuse, with a clear message. */
		memset(&e, 0, sizeof e);
		if (sv_load(path, NULL, &p, &e) != -EIO ||
			!strstr(e.msg, "unknown state after reading a "
				       "damaged file; restart scopeview"))
			return FUZZ_BAD_MESSAGE;
		return FUZZ_GUARDED;
	}
	return FUZZ_FAILED;
}

START_TEST(test_damaged_fuzz)
{
	static const char *const fixture_names[] = {"hdf5-schema-1.h5",
		"hdf5-schema-2.h5", "hdf5-schema-3.h5", "four_ranks.h5",
		"threads_tasks.h5", "large_auto_gzip.h5", "legacy_schema1.h5",
		"aggregate_layout.h5", "gpu_likwid_perf_lineprof.h5",
		"unrepacked_chunked.h5", "schema2_ties_zero_length.h5",
		"single_rank_nested.h5"};
	char *srcs[24];
	unsigned char *data[24];
	size_t len[24], nsrc = 0, i;
	int64_t *want = malloc(big_cases[0].n * 8);
	char *dst = svt_tmp_path("fuzz.h5");
	int counts[FUZZ_BAD_MESSAGE + 1] = {0};
	uint64_t st = 1; /* the fixed seed */
	int k;

	srcs[nsrc++] = base_write("fz_base.h5", M_NONE);
	srcs[nsrc++] = base_write("fz_fixed.h5", M_FIXED_STRINGS);
	srcs[nsrc++] = base_write("fz_deflate.h5", M_CHUNKED_DEFLATE);
	srcs[nsrc++] = base_write("fz_lanes.h5", M_LANES);
	srcs[nsrc++] = writer_file("fz_w1.h5", 1);
	srcs[nsrc++] = writer_file("fz_w2.h5", 2);
	srcs[nsrc++] = writer_file("fz_w3.h5", 3);
	srcs[nsrc++] = big_write(&big_cases[0], want);
	for (i = 0; i < sizeof fixture_names / sizeof fixture_names[0]; i++)
		srcs[nsrc++] = svt_fixture(fixture_names[i]);
	for (i = 0; i < nsrc; i++) {
		data[i] = (unsigned char *)svt_read_file(srcs[i], &len[i]);
		ck_assert_msg(data[i] && len[i] > 0, "cannot read %s", srcs[i]);
	}

	for (k = 0; k < FUZZ_FILES; k++) {
		size_t which = (size_t)k % nsrc;
		unsigned char *copy = malloc(len[which]);
		int flips = 1 + (int)(mix_next(&st) % 20), j, status;
		FILE *fp;
		pid_t pid;

		memcpy(copy, data[which], len[which]);
		for (j = 0; j < flips; j++) {
			uint64_t v = mix_next(&st);
			copy[v % len[which]] ^=
				(unsigned char)(1u << (v >> 60 & 7));
		}
		if (getenv("SVT_FUZZ_FROM") &&
			k < atoi(getenv("SVT_FUZZ_FROM"))) {
			free(copy); /* skipped while debugging one copy */
			continue;
		}
		fp = fopen(dst, "wb");
		ck_assert_ptr_nonnull(fp);
		ck_assert_uint_eq(fwrite(copy, 1, len[which], fp), len[which]);
		fclose(fp);
		free(copy);
		fflush(NULL);
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0)
			exit(fuzz_child(dst));
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		if (getenv("SVT_FUZZ_SAVE") &&
			(WIFSIGNALED(status) ||
				WEXITSTATUS(status) >= FUZZ_BAD_MESSAGE ||
				WEXITSTATUS(status) < FUZZ_LOADED)) {
			/* Keep the file that failed, to debug it. */
			char keep[4096];
			snprintf(keep, sizeof keep, "%s/fuzz%d.h5",
				getenv("SVT_FUZZ_SAVE"), k);
			rename(dst, keep);
		}
		ck_assert_msg(!WIFSIGNALED(status),
			"damaged copy %d of %s (%d flips, seed 1) killed the "
			"process with signal %d",
			k, srcs[which], flips, WTERMSIG(status));
		ck_assert_msg(WIFEXITED(status) &&
				      WEXITSTATUS(status) >= FUZZ_LOADED &&
				      WEXITSTATUS(status) < FUZZ_BAD_MESSAGE,
			"damaged copy %d of %s (%d flips, seed 1): exit %d", k,
			srcs[which], flips, WEXITSTATUS(status));
		counts[WEXITSTATUS(status)]++;
	}
	fprintf(stderr,
		"test_damaged_fuzz: %d damaged copies of %zu files: %d "
		"loaded, %d clean errors, %d HDF5 crashes or loops caught, "
		"%d overruns inside libhdf5 stopped by ASAN\n",
		FUZZ_FILES, nsrc, counts[FUZZ_LOADED], counts[FUZZ_FAILED],
		counts[FUZZ_GUARDED], counts[FUZZ_HDF5_ASAN]);
	/* The fuzz reaches past the first checks. */
	ck_assert_int_gt(counts[FUZZ_LOADED] + counts[FUZZ_FAILED], 0);
	for (i = 0; i < nsrc; i++) {
		free(data[i]);
		free(srcs[i]);
	}
	free(dst);
	free(want);
}
END_TEST

/* The handler someone installed before or after the loader's (the
 * viewer's terminal restorer does this): faults that are not the guarded
 * thread's must reach it. */
static void prior_handler(int sig)
{
	(void)sig;
	_exit(77);
}

static void prior_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = prior_handler;
	sa.sa_flags = (int)SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
}

/* An address no process maps (volatile: the compiler cannot see it). */
static volatile uintptr_t fault_addr = 8;

static void fault_now(void)
{
	*(volatile int *)fault_addr = 1;
}

static void *fault_thread(void *arg)
{
	(void)arg;
	fault_now();
	return NULL;
}

/* A progress hook runs inside the guarded section: faulting there stands
 * in for libhdf5 crashing.  Variants: 0 the other handler installed
 * first, 1 installed over the loader's, 2 another thread faults instead,
 * 3 the loading thread blocks every signal. */
static int guard_variant;

static void fault_progress(void *ctx, double f, const char *what)
{
	(void)ctx;
	if (f < 0.15 || strcmp(what, "events") != 0)
		return;
	if (guard_variant == 2) {
		pthread_t t;
		pthread_create(&t, NULL, fault_thread, NULL);
		pthread_join(t, NULL);
		_exit(3); /* not reached: the fault ends the process */
	}
	fault_now();
}

static int guard_child(const char *path)
{
	struct sv_load_opts o = {.progress = fault_progress};
	struct sv_profile *p = NULL;
	struct sv_error e = {0};

	if (guard_variant == 3) {
		/* The viewer's loader thread blocks every signal. */
		sigset_t all;
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, NULL);
	}
	if (guard_variant == 1) {
		/* The loader's handler first, the other one over it. */
		if (sv_load(path, NULL, &p, &e) != 0)
			return 4;
		sv_profile_free(p);
		p = NULL;
	}
	prior_install();
	if (sv_load(path, &o, &p, &e) != -EIO ||
		!strstr(e.msg, ": damaged: the HDF5 library crashed while "
			       "reading /") ||
		!strstr(e.msg, "(the file is corrupt)") || p) {
		fprintf(stderr, "guard: '%s'\n", e.msg);
		return 5;
	}
	memset(&e, 0, sizeof e);
	if (sv_load(path, NULL, &p, &e) != -EIO ||
		!strstr(e.msg, "restart scopeview"))
		return 6;
	if (guard_variant == 3)
		return 77; /* a blocked fault outside kills: not tested */
	/* Outside the guarded section a fault is the prior handler's. */
	fault_now();
	return 7;
}

START_TEST(test_guard_handlers)
{
	char *path = base_write("guard.h5", M_NONE);
	int status;
	pid_t pid;

	guard_variant = _i;
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		alarm(20);
		_exit(guard_child(path));
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status), "variant %d: killed by signal %d", _i,
		WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	ck_assert_msg(WEXITSTATUS(status) == 77,
		"variant %d: exit %d, wanted the prior handler's 77", _i,
		WEXITSTATUS(status));
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Per-call event metadata (doc/format.md 4.11)                        */

/* The base file's rows: row 0 (rank 0, solve) calls 0-2, row 1 (rank 0,
 * io) calls 3-4, row 2 (rank 1, solve) call 5. */
struct meta_case {
	const char *name;
	const char *rows[3]; /* NULL: an unwritten element */
	size_t fixed;        /* fixed-length strings of this size, or 0 */
	const char *want[6]; /* each call's stored text, NULL = none */
	const char *warn;    /* a warning that must appear, or NULL: none */
};

static const char *const meta_rich =
	"[{\"phase\": \"steady\", \"iter\": 12}, {}, {\"phase\": "
	"\"warm\\u00e9 \\ud83d\\ude00\", \"x\": NaN, \"y\": -Infinity, "
	"\"z\": Infinity, \"n\": {\"a\": [1, 2.5e3, null, true]}}]";
static const char *const meta_rich_call0 = "{\"phase\":\"steady\",\"iter\":12}";
static const char *const meta_rich_call2 =
	"{\"phase\":\"warm\\u00e9 \\ud83d\\ude00\",\"x\":NaN,\"y\":-Infinity,"
	"\"z\":Infinity,\"n\":{\"a\":[1,2.5e3,null,true]}}";

static const struct meta_case meta_cases[] = {
	{"variable length, [], empty", {meta_rich, "[]", ""}, 0,
		{meta_rich_call0, NULL, meta_rich_call2}, NULL},
	{"unwritten element", {meta_rich, "[]", NULL}, 0,
		{meta_rich_call0, NULL, meta_rich_call2}, NULL},
	{"fixed length", {meta_rich, "[]", "[{\"status\": \"ok\"}]"}, 300,
		{meta_rich_call0, NULL, meta_rich_call2, NULL, NULL,
			"{\"status\":\"ok\"}"},
		NULL},
	{"wrong length", {"[{}, {}]", "[{\"a\": 1}, {\"a\": 1}]", "[]"}, 0,
		{NULL, NULL, NULL, "{\"a\":1}", "{\"a\":1}"},
		"/rank_region_index/event_metadata: row 0 (rank 0, region "
		"'solve') holds 2 entries for 3 calls"},
	{"bad JSON", {"[]", "[{\"a\": 1}, {\"a\": }]", "[{\"b\": [1, 2]}]"}, 0,
		{NULL, NULL, NULL, NULL, NULL, "{\"b\":[1,2]}"},
		"row 1 (rank 0, region 'io') not JSON: unexpected character"},
	{"not an object", {"[]", "[]", "[\"x\"]"}, 0, {NULL},
		"row 2 (rank 1, region 'solve') entry 0 is a string, not an "
		"object"},
	{"not a list", {"{\"a\": 1}", "[]", "[]"}, 0, {NULL},
		"row 0 (rank 0, region 'solve') is an object"},
	/* every row bad: one warning for the table, naming the first */
	{"all rows bad", {"{}", "[1]", "[{}, {}]"}, 0, {NULL},
		"row 0 (rank 0, region 'solve') is an object, not a JSON list; "
		"its calls' metadata is ignored (and 2 more rows like it)"},
};

START_TEST(test_event_metadata)
{
	const struct meta_case *c = &meta_cases[_i];
	char name[32];
	char *path;
	hid_t f, g;
	struct sv_profile *p;
	uint32_t k;
	size_t w;
	bool seen = false;

	snprintf(name, sizeof name, "meta%d.h5", _i);
	path = base_write(name, M_NONE);
	f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	g = H5Gopen2(f, "rank_region_index", H5P_DEFAULT);
	ds_strs(g, "event_metadata", c->rows, 3, c->fixed);
	H5Gclose(g);
	H5Fclose(f);
	p = load_ok(path);
	ck_assert_uint_eq(p->ncalls, 6);
	for (k = 0; k < 6; k++) {
		const char *got = sv_callmeta_of(p, k);
		ck_assert_msg((got == NULL) == (c->want[k] == NULL) &&
				      (!got || !strcmp(got, c->want[k])),
			"%s: call %u: '%s', want '%s'", c->name, k,
			got ? got : "(none)",
			c->want[k] ? c->want[k] : "(none)");
	}
	for (w = 0; w < p->nwarnings; w++) {
		bool meta = strstr(p->warnings[w], "event_metadata") != NULL;
		ck_assert_msg(!meta || c->warn, "%s: warned '%s'", c->name,
			p->warnings[w]);
		ck_assert_msg(!meta || !seen, "%s: a second warning '%s'",
			c->name, p->warnings[w]);
		if (c->warn && strstr(p->warnings[w], c->warn))
			seen = true;
	}
	ck_assert_msg(!c->warn || seen, "%s: no warning '%s'", c->name,
		c->warn ? c->warn : "");
	/* a file without metadata costs nothing */
	if (!c->want[0] && !c->want[3] && !c->want[5])
		ck_assert_ptr_null(p->call_meta);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* The shown values: escapes and surrogate pairs decoded, nested values
 * folded to one line. */
START_TEST(test_event_metadata_shown)
{
	char *path = base_write("meta_shown.h5", M_NONE);
	const char *rows[3] = {meta_rich, "[]", "[]"};
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	hid_t g = H5Gopen2(f, "rank_region_index", H5P_DEFAULT);
	struct sv_profile *p;
	struct sv_callmeta_kv kv;
	char buf[128];

	ds_strs(g, "event_metadata", rows, 3, 0);
	H5Gclose(g);
	H5Fclose(f);
	p = load_ok(path);
	ck_assert(sv_callmeta_find(sv_callmeta_of(p, 2), "phase", &kv));
	sv_callmeta_show(kv.val, kv.val_len, buf, sizeof buf);
	ck_assert_str_eq(buf, "warm\xc3\xa9 \xf0\x9f\x98\x80");
	ck_assert(sv_callmeta_find(sv_callmeta_of(p, 2), "n", &kv));
	sv_callmeta_show(kv.val, kv.val_len, buf, sizeof buf);
	ck_assert_str_eq(buf, "{\"a\":[1,2.5e3,null,true]}");
	ck_assert(!sv_callmeta_find(sv_callmeta_of(p, 0), "x", &kv));
	sv_profile_free(p);
	free(path);
}
END_TEST

/* An index column of the wrong length is dropped with a warning. */
START_TEST(test_event_metadata_short)
{
	char *path = base_write("meta_short.h5", M_NONE);
	const char *rows[2] = {"[]", "[]"};
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	hid_t g = H5Gopen2(f, "rank_region_index", H5P_DEFAULT);
	struct sv_profile *p;
	size_t w;
	bool seen = false;

	ds_strs(g, "event_metadata", rows, 2, 0);
	H5Gclose(g);
	H5Fclose(f);
	p = load_ok(path);
	ck_assert_ptr_null(p->call_meta);
	for (w = 0; w < p->nwarnings; w++)
		if (strstr(p->warnings[w], "/rank_region_index/event_metadata"))
			seen = true;
	ck_assert(seen);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Counters and line profiles of the rank groups (doc/format.md 4.12)  */

START_TEST(test_fixture_counters_lineprof)
{
	char *path = svt_fixture("gpu_likwid_perf_lineprof.h5");
	struct sv_profile *p = load_ok(path);
	const struct sv_counters *perf = NULL, *lk = NULL;
	const struct sv_line_profile *l;
	size_t i;

	for (i = 0; i < p->ncounters; i++) {
		if (p->counters[i].likwid)
			lk = &p->counters[i];
		else
			perf = &p->counters[i];
	}
	ck_assert_uint_eq(p->ncounters, 2);
	ck_assert_ptr_nonnull(perf);
	ck_assert_ptr_nonnull(lk);
	ck_assert_str_eq(perf->region, "solve");
	ck_assert_int_eq(perf->calls, 3);
	ck_assert_uint_eq(perf->nevents, 2);
	ck_assert_str_eq(perf->events[0], "cycles");
	ck_assert_str_eq(perf->events[1], "instructions");
	ck_assert(perf->values[0] == 123456 && perf->values[1] == 234567);
	/* LIKWID: events[e, t] summed over the two threads */
	ck_assert_str_eq(lk->region, "solve");
	ck_assert_str_eq(lk->group, "CLOCK");
	ck_assert_uint_eq(lk->nthreads, 2);
	ck_assert_int_eq(lk->calls, 6);
	ck_assert(lk->time_s == 0.5);
	ck_assert_str_eq(lk->events[0], "INSTR_RETIRED_ANY");
	ck_assert(lk->values[0] == 1.9e6 && lk->values[1] == 3.9e6);
	ck_assert_uint_eq(lk->nmetrics, 1);
	ck_assert_str_eq(lk->metrics[0], "CPI");
	ck_assert(fabs(lk->metric_values[0] - 2.05) < 1e-12);
	/* the line profile */
	ck_assert_uint_eq(p->nlineprofs, 1);
	l = &p->lineprofs[0];
	ck_assert_str_eq(l->region, "solve");
	ck_assert_str_eq(l->filename, "/tmp/run/app.py");
	ck_assert_str_eq(l->function, "solve");
	ck_assert_int_eq(l->first_lineno, 40);
	ck_assert(l->unit == 1e-6);
	ck_assert_uint_eq(l->nlines, 3);
	ck_assert(l->line[2] == 43 && l->hits[2] == 300 && l->time[2] == 3000);
	ck_assert_int_eq(l->source_first_lineno, -1);
	ck_assert_uint_eq(p->nunshown, 0);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* Damaged or unknown rank groups only warn, or are listed as unshown. */
START_TEST(test_rank_groups_damaged)
{
	char *path = base_write("rankgroups.h5", M_NONE);
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	hid_t r = h5_group(f, "rank0"), g, k;
	const char *names[] = {"cycles", "instructions"};
	const char *lk_names[] = {"INSTR_RETIRED_ANY", "INSTR_RETIRED_ANY"};
	const char *regs[] = {"FIXC0", "PMC0"};
	int64_t one[] = {7}, lines[] = {3, 4}, hits[] = {1, 2};
	double times[] = {5.0, 15.0};
	struct sv_profile *p;
	size_t i;
	bool warned = false;

	g = h5_group(r, "perf_events");
	k = h5_group(g, "solve");
	attr_strs(k, "event_names", names, 2);
	ds_ints(k, "values", H5T_STD_U64LE, one, 1); /* one value, two names */
	H5Gclose(k);
	H5Gclose(g);
	g = h5_group(r, "likwid");
	k = h5_group(g, "regions");
	H5Gclose(g);
	g = h5_group(k, "io");
	attr_strs(g, "event_names", lk_names, 2);
	attr_strs(g, "counter_names", regs, 2);
	{
		hsize_t dims[2] = {2, 1};
		double ev[] = {10, 20};
		hid_t s = H5Screate_simple(2, dims, NULL);
		hid_t d = H5Dcreate2(g, "events", H5T_IEEE_F64LE, s,
			H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
			ev);
		H5Dclose(d);
		H5Sclose(s);
	}
	H5Gclose(g);
	H5Gclose(k);
	g = h5_group(r, "line_profile");
	k = h5_group(g, "0");
	ds_ints(k, "line_numbers", H5T_STD_I64LE, lines, 2);
	ds_ints(k, "hits", H5T_STD_I64LE, hits, 2);
	ds_f64(k, "times", times, 2);
	attr_fixed_str(k, "region", "solve"); /* fixed-length strings */
	attr_fixed_str(k, "source", "def solve():\n    x = 1\n");
	attr_i64(k, "source_first_lineno", 2);
	H5Gclose(k);
	H5Gclose(g);
	H5Gclose(h5_group(r, "memray"));
	H5Gclose(r);
	H5Gclose(h5_group(f, "extra_things"));
	H5Fclose(f);

	p = load_ok(path);
	ck_assert_uint_eq(p->ncounters, 1); /* perf dropped */
	for (i = 0; i < p->nwarnings; i++)
		if (strstr(p->warnings[i], "/rank0/perf_events/solve/values: "
					   "holds 1 values, but 2"))
			warned = true;
	ck_assert(warned);
	ck_assert(p->counters[0].likwid);
	ck_assert_str_eq(p->counters[0].region, "io");
	ck_assert_int_eq(p->counters[0].calls, -1);
	ck_assert_str_eq(p->counters[0].events[0], "INSTR_RETIRED_ANY:FIXC0");
	ck_assert_str_eq(p->counters[0].events[1], "INSTR_RETIRED_ANY:PMC0");
	ck_assert_uint_eq(p->nlineprofs, 1);
	ck_assert_str_eq(p->lineprofs[0].region, "solve");
	ck_assert_str_eq(p->lineprofs[0].source, "def solve():\n    x = 1\n");
	ck_assert_int_eq(p->lineprofs[0].source_first_lineno, 2);
	ck_assert(p->lineprofs[0].unit == 1e-6);
	ck_assert_uint_eq(p->nunshown, 2);
	ck_assert_str_eq(p->unshown[0], "/extra_things");
	ck_assert_str_eq(p->unshown[1], "/rank0/memray");
	sv_profile_free(p);
	free(path);
}
END_TEST

/* ---- rank subsets (load_h5_subset.c) ------------------------------------ */

/* A load of ranks on[0 .. n) (NULL: every rank), packed as the viewer's
 * are when pack, with the calls of donor copied where they can be;
 * *released counts donor_done. */
static void donor_done_count(void *ctx)
{
	++*(int *)ctx;
}

static struct sv_profile *load_donor(const char *path, const bool *on,
	uint32_t n, bool pack, const struct sv_profile *donor, int *released)
{
	struct sv_load_opts o = {.pack = pack};

	o.rank_on = on;
	o.nrank_on = n;
	o.donor = donor;
	o.donor_done = donor_done_count;
	o.ctx = released;
	return load_opts(path, &o);
}

/* Every figure of every call, row and lane of a and b is the same. */
static void same_profile(const struct sv_profile *a, const struct sv_profile *b)
{
	size_t r, l, i;
	uint32_t c;
	int k;

	ck_assert_uint_eq(a->ncalls, b->ncalls);
	ck_assert_uint_eq(a->nrows, b->nrows);
	ck_assert_uint_eq(a->nlanes, b->nlanes);
	ck_assert_uint_eq(a->nwarnings, b->nwarnings);
	for (i = 0; i < a->nwarnings; i++)
		ck_assert_str_eq(a->warnings[i], b->warnings[i]);
	for (r = 0; r < a->nrows; r++) {
		ck_assert_uint_eq(a->rows[r].rank, b->rows[r].rank);
		ck_assert_uint_eq(a->rows[r].region, b->rows[r].region);
		ck_assert_uint_eq(a->rows[r].first, b->rows[r].first);
		ck_assert_uint_eq(a->rows[r].count, b->rows[r].count);
		ck_assert_int_eq(
			a->rows[r].exclusive_total, b->rows[r].exclusive_total);
		ck_assert(a->rows[r].has_gpu == b->rows[r].has_gpu);
	}
	ck_assert(sv_profile_has_gpu(a) == sv_profile_has_gpu(b));
	ck_assert(sv_profile_has_await(a) == sv_profile_has_await(b));
	for (k = 0; k < SV_ID_COLUMNS; k++)
		ck_assert(sv_profile_has_id(a, (enum sv_id_column)k) ==
			  sv_profile_has_id(b, (enum sv_id_column)k));
	for (c = 0; c < a->ncalls; c++) {
		ck_assert_int_eq(
			sv_profile_start(a, c), sv_profile_start(b, c));
		ck_assert_int_eq(sv_profile_end(a, c), sv_profile_end(b, c));
		ck_assert_uint_eq(
			sv_profile_depth(a, c), sv_profile_depth(b, c));
		ck_assert_uint_eq(
			sv_profile_parent(a, c), sv_profile_parent(b, c));
		ck_assert_int_eq(
			sv_profile_exclusive(a, c), sv_profile_exclusive(b, c));
		ck_assert_uint_eq(sv_call_lane(a, c), sv_call_lane(b, c));
		ck_assert_int_eq(sv_profile_gpu(a, c), sv_profile_gpu(b, c));
		ck_assert_int_eq(
			sv_profile_await(a, c), sv_profile_await(b, c));
		for (k = 0; k < SV_ID_COLUMNS; k++)
			if (sv_profile_has_id(a, (enum sv_id_column)k))
				ck_assert_int_eq(
					sv_profile_id(
						a, (enum sv_id_column)k, c),
					sv_profile_id(
						b, (enum sv_id_column)k, c));
	}
	for (l = 0; l < a->nlanes; l++) {
		ck_assert_str_eq(a->lanes[l].label, b->lanes[l].label);
		ck_assert_uint_eq(a->lanes[l].ncalls, b->lanes[l].ncalls);
		for (i = 0; i < a->lanes[l].ncalls; i++)
			ck_assert_uint_eq(sv_lane_call(&a->lanes[l], i),
				sv_lane_call(&b->lanes[l], i));
	}
}

/* The calls a profile holds of the ranks on. */
static uint64_t calls_of_ranks(const struct sv_profile *p, const bool *on)
{
	uint64_t n = 0;
	size_t r;

	for (r = 0; r < p->nrows; r++)
		n += on[p->rows[r].rank] ? p->rows[r].count : 0;
	return n;
}

static struct sv_profile *load_ranks(
	const char *path, const bool *on, uint32_t n, bool slow)
{
	struct sv_load_opts o = {.slow_inflate = slow};

	o.rank_on = on;
	o.nrank_on = n;
	return load_opts(path, &o);
}

/* summary_statistics for rows of the calls st/en (total, minimum, maximum,
 * first, last, start_minimum, end_maximum; no GPU; mean and m2 left 0). */
static void subset_summaries(hid_t g, const int64_t *off, const int64_t *cnt,
	size_t rows, const int64_t *st, const int64_t *en)
{
	static const char *f64[] = {"total", "minimum", "maximum", "first",
		"last", "start_minimum", "end_maximum", "gpu_count",
		"gpu_total"};
	struct sv_summary *v = calloc(rows, sizeof *v);
	hid_t t = H5Tcreate(H5T_COMPOUND, sizeof *v), sp, ds;
	hsize_t n = rows;
	size_t r, i;
	int64_t k;

	for (i = 0; i < 9; i++)
		H5Tinsert(t, f64[i], i * 8, H5T_NATIVE_INT64);
	H5Tinsert(t, "mean", offsetof(struct sv_summary, mean),
		H5T_NATIVE_DOUBLE);
	H5Tinsert(t, "m2", offsetof(struct sv_summary, m2), H5T_NATIVE_DOUBLE);
	for (r = 0; r < rows; r++) {
		struct sv_summary *m = &v[r];
		for (k = off[r]; k < off[r] + cnt[r]; k++) {
			int64_t d = en[k] - st[k];
			bool one = k == off[r];
			m->total += d;
			m->minimum = one || d < m->minimum ? d : m->minimum;
			m->maximum = one || d > m->maximum ? d : m->maximum;
			m->first = one ? d : m->first;
			m->last = d;
			m->start_minimum = one || st[k] < m->start_minimum
						   ? st[k]
						   : m->start_minimum;
			m->end_maximum = one || en[k] > m->end_maximum
						 ? en[k]
						 : m->end_maximum;
		}
	}
	sp = H5Screate_simple(1, &n, NULL);
	ds = H5Dcreate2(g, "summary_statistics", t, sp, H5P_DEFAULT,
		H5P_DEFAULT, H5P_DEFAULT);
	ck_assert_int_ge(ds, 0);
	H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
	H5Dclose(ds);
	H5Sclose(sp);
	H5Tclose(t);
	free(v);
}

/* Five rows of three ranks; ranks 0 and 2 are the rows 0, 2, 3, 4, at file
 * offsets 0, 7, 9 and 14: two ranges, [0, 3) and [7, 15), read with one
 * union of hyperslabs.  _i = 0: the metadata gives start_time_ns, so the
 * subset is read; _i = 1: neither it nor stored statistics, so every rank
 * is read (the origin of the rows left out would be unknown); _i = 2:
 * stored statistics, whose start_minimum of rank 1's row (the earliest
 * call of the file) keeps the whole run's origin. */
START_TEST(test_rank_subset_rows)
{
	enum { ROWS = 5, TOTAL = 15 };
	char *path = svt_tmp_path("subset.h5");
	hid_t f = h5_create(path), g;
	const char *names[] = {"a", "b"};
	int64_t region[ROWS] = {0, 0, 0, 1, 1}, rank[ROWS] = {0, 1, 2, 0, 2};
	int64_t off[ROWS] = {0, 3, 7, 9, 14}, cnt[ROWS] = {3, 4, 2, 5, 1};
	int64_t st[TOTAL], en[TOTAL];
	static const bool on[3] = {true, false, true};
	static const size_t kept[] = {0, 2, 3, 4};
	/* a string column: only the kept rows' strings are read */
	const char *files[ROWS] = {"f0.py", "f1.py", "f2.py", "f3.py", "f4.py"};
	struct sv_profile *p, *full;
	size_t r;
	uint64_t k;
	int i;

	for (i = 0; i < TOTAL; i++) {
		/* Rank 1's calls start first: the origin is theirs. */
		st[i] = i >= 3 && i < 7 ? 10 + i : 1000 + 100 * i;
		en[i] = st[i] + 5;
	}
	attr_i64(f, "scope_profiler_schema", 2);
	g = h5_group(f, "metadata");
	if (_i == 0)
		attr_i64(g, "start_time_ns", 7);
	H5Gclose(g);
	g = h5_group(f, "region_table");
	ds_strs(g, "names", names, 2, 0);
	H5Gclose(g);
	g = h5_group(f, "rank_region_index");
	ds_ints(g, "region_ids", H5T_STD_U32LE, region, ROWS);
	ds_ints(g, "ranks", H5T_STD_U32LE, rank, ROWS);
	ds_ints(g, "event_offsets", H5T_STD_U64LE, off, ROWS);
	ds_ints(g, "event_counts", H5T_STD_U64LE, cnt, ROWS);
	if (_i == 2)
		subset_summaries(g, off, cnt, ROWS, st, en);
	ds_strs(g, "source_files", files, ROWS, 0);
	H5Gclose(g);
	g = h5_group(f, "events");
	ds_ints(g, "start_times", H5T_STD_I64LE, st, TOTAL);
	ds_ints(g, "end_times", H5T_STD_I64LE, en, TOTAL);
	ds_ints(g, "call_ids", H5T_STD_I64LE, st, TOTAL);
	H5Gclose(g);
	H5Fclose(f);

	full = load_ok(path);
	p = load_ranks(path, on, 3, false);
	ck_assert_uint_eq(p->num_ranks, 3);
	ck_assert_int_eq(
		sv_profile_time_origin(p), sv_profile_time_origin(full));
	ck_assert_int_eq(sv_profile_time_origin(p), _i == 0 ? 7 : 13);
	if (_i == 1) {
		ck_assert(!p->rank_subset);
		ck_assert_uint_eq(p->nrows, ROWS);
		ck_assert_uint_eq(p->ncalls, TOTAL);
		ck_assert_ptr_null(sv_profile_subset_label(p));
		goto out;
	}
	ck_assert(p->rank_subset);
	ck_assert_uint_eq(p->file_rows, ROWS);
	ck_assert_uint_eq(p->file_calls, TOTAL);
	ck_assert_uint_eq(p->file_ranks, 3);
	ck_assert_uint_eq(p->nrows, 4);
	ck_assert_uint_eq(p->ncalls, 3 + 2 + 5 + 1);
	for (r = 0; r < 4; r++) {
		const struct sv_row *row = &p->rows[r];
		const struct sv_row *want = &full->rows[kept[r]];
		ck_assert_uint_eq(row->rank, want->rank);
		ck_assert_uint_eq(row->region, want->region);
		ck_assert_uint_eq(row->count, want->count);
		ck_assert_str_eq(row->source_file, files[kept[r]]);
		ck_assert_str_eq(row->source_file, want->source_file);
		for (k = 0; k < row->count; k++) {
			uint32_t c = (uint32_t)(row->first + k);
			uint32_t w = (uint32_t)(want->first + k);
			/* the call at file offset off + k */
			ck_assert_int_eq(p->start_ns[c], st[off[kept[r]] + k]);
			ck_assert_int_eq(p->start_ns[c], full->start_ns[w]);
			ck_assert_int_eq(
				sv_profile_end(p, c), sv_profile_end(full, w));
			ck_assert_int_eq(p->call_id[c], full->call_id[w]);
			ck_assert_uint_eq(sv_profile_row_of(p, c), r);
		}
	}
	{
		char *label = sv_profile_subset_label(p);
		ck_assert_str_eq(label, "ranks 0,2 of 3");
		free(label);
	}
	{
		/* A switch from ranks 0-1 to 0,2 copies rank 0's rows (0 and
		 * 3, between which row 2 is read: ranges around them). */
		static const bool was[3] = {true, true, false};
		int released = 0;
		struct sv_profile *d = load_donor(
					  path, was, 3, true, NULL, &released),
				  *again = load_donor(
					  path, on, 3, true, d, &released);
		ck_assert_int_eq(released, 1);
		ck_assert_uint_eq(again->kept_calls, 3 + 5);
		same_profile(again, p);
		sv_profile_free(again);
		sv_profile_free(d);
	}
out:
	sv_profile_free(p);
	sv_profile_free(full);
	free(path);
}
END_TEST

/* A generated file (compressed, 4 ranks): --ranks 1 gives rank 1's rows
 * and calls exactly as the full load has them, whole-run origin and
 * ranks, and the parallel decoder fetches only the chunks of rank 1's
 * range (about a quarter); the H5Dread path gives the same. */
START_TEST(test_rank_subset_gen)
{
	char *path = svt_tmp_path("subset_gen.h5");
	struct sv_gen_opts go;
	struct sv_error e = {0};
	static const bool on[2] = {false, true};
	struct sv_profile *full, *p, *slow;
	uint64_t c0, c1, c2;
	size_t r, kr = 0;
	uint64_t k;

	sv_gen_opts_init(&go);
	go.ranks = 4;
	go.events = 400000;
	go.seed = 11;
	ck_assert_msg(
		sv_gen_write(path, &go, NULL, NULL, &e) == 0, "%s", e.msg);
	c0 = sv_h5_fast_chunks();
	full = load_ranks(path, NULL, 0, false);
	c1 = sv_h5_fast_chunks();
	p = load_ranks(path, on, 2, false);
	c2 = sv_h5_fast_chunks();
	slow = load_ranks(path, on, 2, true);
	ck_assert(p->rank_subset);
	ck_assert_uint_gt(c2, c1);
	ck_assert_msg((c2 - c1) * 3 < c1 - c0,
		"subset decoded %" PRIu64 " chunks, full %" PRIu64, c2 - c1,
		c1 - c0);
	ck_assert_uint_eq(p->num_ranks, full->num_ranks);
	ck_assert_int_eq(
		sv_profile_time_origin(p), sv_profile_time_origin(full));
	ck_assert_uint_eq(p->ncalls, slow->ncalls);
	same_col(p->start_ns, slow->start_ns, p->ncalls, "start_ns");
	same_col(p->end_ns, slow->end_ns, p->ncalls, "end_ns");
	for (r = 0; r < full->nrows; r++) {
		const struct sv_row *w = &full->rows[r], *row;
		if (w->rank != 1)
			continue;
		ck_assert_uint_lt(kr, p->nrows);
		row = &p->rows[kr++];
		ck_assert_uint_eq(row->region, w->region);
		ck_assert_uint_eq(row->count, w->count);
		ck_assert(row->has_summary && w->has_summary);
		ck_assert_int_eq(row->exclusive_total, w->exclusive_total);
		for (k = 0; k < row->count; k++) {
			uint32_t c = (uint32_t)(row->first + k);
			uint32_t d = (uint32_t)(w->first + k);
			ck_assert_int_eq(p->start_ns[c], full->start_ns[d]);
			ck_assert_int_eq(
				sv_profile_end(p, c), sv_profile_end(full, d));
			/* nesting rebuilt per lane: the same on rank 1 */
			ck_assert_int_eq(sv_profile_exclusive(p, c),
				sv_profile_exclusive(full, d));
			ck_assert_uint_eq(sv_profile_depth(p, c),
				sv_profile_depth(full, d));
		}
	}
	ck_assert_uint_eq(kr, p->nrows);
	sv_profile_free(full);
	sv_profile_free(p);
	sv_profile_free(slow);
	unlink(path);
	free(path);
}
END_TEST

/* ---- reloads that keep ranks (load_h5_donor.c) -------------------------- */

/*
 * A reload of ranks 1-2 with the previous load of ranks 0-1 as donor (the
 * viewer's switch under --memory) gives exactly the load of ranks 1-2
 * read from the file, with rank 1's calls copied: on a compressed gen
 * file (schema 3's deltas, the id, thread, GPU and await columns, packed
 * or plain donors, every rank read or not), and on a donor of another
 * file, which gives nothing.  donor_done is called once.
 */
START_TEST(test_donor_same_as_read)
{
	char *path = svt_tmp_path("donor.h5"), *other = NULL;
	struct sv_gen_opts go;
	struct sv_error e = {0};
	static const bool first[4] = {true, true, false, false};
	static const bool then[4] = {false, true, true, false};
	static const bool one[4] = {false, true, false, false};
	const bool *want_on = _i == 2 ? NULL : then;
	struct sv_profile *donor, *read, *kept;
	int released = 0;

	sv_gen_opts_init(&go);
	go.ranks = 4;
	go.events = 60000;
	go.threads = 2;
	go.gpu = true;
	go.await = true;
	go.tasks = _i == 1 ? 2 : 0;
	go.seed = 5;
	ck_assert_msg(
		sv_gen_write(path, &go, NULL, NULL, &e) == 0, "%s", e.msg);
	if (_i == 3) {
		/* The same calls under another name: not this file. */
		other = svt_tmp_path("donor_other.h5");
		ck_assert_msg(sv_gen_write(other, &go, NULL, NULL, &e) == 0,
			"%s", e.msg);
	}
	donor = load_donor(
		other ? other : path, first, 4, _i != 1, NULL, &released);
	read = load_donor(
		path, want_on, want_on ? 4 : 0, true, NULL, &released);
	kept = load_donor(
		path, want_on, want_on ? 4 : 0, true, donor, &released);
	ck_assert_int_eq(released, 1);
	ck_assert_uint_eq(read->kept_calls, 0);
	if (_i == 3)
		ck_assert_uint_eq(kept->kept_calls, 0);
	else
		ck_assert_uint_eq(kept->kept_calls,
			calls_of_ranks(donor, _i == 2 ? first : one));
	ck_assert_uint_gt(calls_of_ranks(donor, one), 0);
	same_profile(kept, read);
	sv_profile_free(donor);
	sv_profile_free(read);
	sv_profile_free(kept);
	unlink(path);
	free(path);
	if (other) {
		unlink(other);
		free(other);
	}
}
END_TEST

/* The viewer's loads pack a profile of pack_min_calls calls or more and
 * leave a smaller one plain (but for the ids, packed as they are read);
 * every figure is the same either way. */
START_TEST(test_pack_min_calls)
{
	char *path = svt_tmp_path("pack_min.h5");
	struct sv_gen_opts go;
	struct sv_error e = {0};
	struct sv_load_opts o = {.pack = true};
	struct sv_profile *plain, *packed;

	sv_gen_opts_init(&go);
	go.ranks = 2;
	go.events = 20000;
	go.threads = 2;
	go.seed = 3;
	ck_assert_msg(
		sv_gen_write(path, &go, NULL, NULL, &e) == 0, "%s", e.msg);
	packed = load_opts(path, &o);
	ck_assert_ptr_null(packed->start_ns);
	ck_assert_uint_gt(packed->start_pk.n, 0);
	o.pack_min_calls = packed->ncalls + 1;
	plain = load_opts(path, &o);
	ck_assert_ptr_nonnull(plain->start_ns);
	ck_assert_ptr_nonnull(plain->dur);
	ck_assert_uint_eq(plain->start_pk.n, 0);
	ck_assert_ptr_null(sv_profile_id_raw(plain, SV_ID_CALL));
	ck_assert(sv_profile_has_id(plain, SV_ID_CALL));
	same_profile(plain, packed);
	o.pack_min_calls = packed->ncalls;
	sv_profile_free(packed);
	packed = load_opts(path, &o);
	ck_assert_ptr_null(packed->start_ns);
	sv_profile_free(plain);
	sv_profile_free(packed);
	unlink(path);
	free(path);
}
END_TEST

/* A profile with two owners is freed by the second sv_profile_free. */
START_TEST(test_profile_ref)
{
	struct sv_profile *p = sv_profile_new("x.h5");

	ck_assert_ptr_eq(sv_profile_ref(p), p);
	sv_profile_free(p);
	ck_assert_str_eq(p->path, "x.h5"); /* still there (ASAN would say) */
	sv_profile_free(p);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("load");
	TCase *t;

	t = tcase_create("malformed");
	tcase_add_loop_test(t, test_malformed, 0,
		(int)(sizeof fail_cases / sizeof fail_cases[0]));
	tcase_add_test(t, test_not_profiles);
	suite_add_tcase(s, t);

	t = tcase_create("columnar");
	tcase_add_test(t, test_schema3_base);
	tcase_add_loop_test(t, test_loads_with_warning, 0,
		(int)(sizeof ok_cases / sizeof ok_cases[0]));
	tcase_add_test(t, test_no_rows);
	tcase_add_test(t, test_lanes);
	tcase_add_test(t, test_summary_only);
	tcase_add_test(t, test_progress_cancel);
	tcase_add_test(t, test_progress_blocks);
	tcase_add_test(t, test_invalid_utf8);
	tcase_add_test(t, test_long_rows_unordered);
	tcase_add_test(t, test_thread_quiet);
	tcase_add_test(t, test_corrupt_chunk);
	tcase_add_test(t, test_message_escapes);
	tcase_add_test(t, test_no_file_lock);
	suite_add_tcase(s, t);

	t = tcase_create("fast_inflate");
	/* tools/test.sh leaves the tag out under valgrind (too slow there) */
	tcase_set_tags(t, "no-valgrind");
	tcase_set_timeout(t, 60);
	tcase_add_loop_test(t, test_fast_same_values, 0,
		(int)(sizeof big_cases / sizeof big_cases[0]));
	tcase_add_test(t, test_fast_damaged_chunk);
	tcase_add_test(t, test_done_when_07);
	tcase_add_test(t, test_fast_cancel);
	suite_add_tcase(s, t);

	t = tcase_create("damaged_fuzz");
	/* its children crash libhdf5 on purpose: not under valgrind */
	tcase_set_tags(t, "no-valgrind");
	tcase_set_timeout(t, 120);
	tcase_add_loop_test(t, test_guard_handlers, 0, 4);
	tcase_add_test(t, test_damaged_fuzz);
	suite_add_tcase(s, t);

	t = tcase_create("rank_subset");
	tcase_add_loop_test(t, test_rank_subset_rows, 0, 3);
	tcase_add_test(t, test_rank_subset_gen);
	tcase_add_loop_test(t, test_donor_same_as_read, 0, 4);
	tcase_add_test(t, test_pack_min_calls);
	tcase_add_test(t, test_profile_ref);
	suite_add_tcase(s, t);
	t = tcase_create("rank_groups");
	tcase_add_test(t, test_fixture_counters_lineprof);
	tcase_add_test(t, test_rank_groups_damaged);
	suite_add_tcase(s, t);
	t = tcase_create("event_metadata");
	tcase_add_loop_test(t, test_event_metadata, 0,
		(int)(sizeof meta_cases / sizeof meta_cases[0]));
	tcase_add_test(t, test_event_metadata_shown);
	tcase_add_test(t, test_event_metadata_short);
	suite_add_tcase(s, t);
	t = tcase_create("metadata");
	tcase_add_test(t, test_metadata_types);
	suite_add_tcase(s, t);

	t = tcase_create("aggregate");
	tcase_add_test(t, test_aggregate);
	suite_add_tcase(s, t);

	t = tcase_create("writer");
	tcase_add_test(t, test_schema1_writer);
	tcase_add_test(t, test_schema1_short_end);
	tcase_add_test(t, test_schema2_writer);
	tcase_add_test(t, test_schema3_writer);
	suite_add_tcase(s, t);

	t = tcase_create("fixtures");
	tcase_add_loop_test(t, test_fixture, 0,
		(int)(sizeof fixtures / sizeof fixtures[0]));
	tcase_add_test(t, test_fixture_table_complete);
	tcase_add_test(t, test_fixture_details);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	return svt_run(suite());
}
