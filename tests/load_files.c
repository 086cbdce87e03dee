/*
 * load_files.c: the small HDF5 files the load suite writes at run time
 * (load_files.h): raw HDF5 writers for attributes and datasets of every
 * type, the base file (a small valid schema 3 profile) with the one
 * mutation each case applies, the writer's file of schemas 1-3, and the
 * checks of a load's outcome that the suite's parts share.
 */
#include "load_files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/common.h"
#include "scopeview/write.h"

/* ---- raw HDF5 writers ---- */

hid_t lf_h5_create(const char *path)
{
	hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
	ck_assert_int_ge(f, 0);
	return f;
}

hid_t lf_h5_group(hid_t loc, const char *name)
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

void lf_attr_num(
	hid_t loc, const char *name, hid_t ftype, hid_t mtype, const void *v)
{
	hid_t s = H5Screate(H5S_SCALAR);
	hid_t a = H5Acreate2(loc, name, ftype, s, H5P_DEFAULT, H5P_DEFAULT);
	ck_assert_int_ge(a, 0);
	ck_assert_int_ge(H5Awrite(a, mtype, v), 0);
	H5Aclose(a);
	H5Sclose(s);
}

void lf_attr_i64(hid_t loc, const char *name, int64_t v)
{
	lf_attr_num(loc, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &v);
}

void lf_attr_f64(hid_t loc, const char *name, double v)
{
	lf_attr_num(loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v);
}

/* h5py's bool: an int8 enum with FALSE = 0 and TRUE = 1. */
void lf_attr_bool(hid_t loc, const char *name, bool v)
{
	hid_t t = H5Tenum_create(H5T_NATIVE_INT8);
	int8_t f = 0, tr = 1, val = v;
	H5Tenum_insert(t, "FALSE", &f);
	H5Tenum_insert(t, "TRUE", &tr);
	lf_attr_num(loc, name, t, t, &val);
	H5Tclose(t);
}

void lf_attr_str(hid_t loc, const char *name, const char *v)
{
	hid_t t = utf8_vlen();
	lf_attr_num(loc, name, t, t, &v);
	H5Tclose(t);
}

void lf_attr_fixed_str(hid_t loc, const char *name, const char *v)
{
	hid_t t = H5Tcopy(H5T_C_S1);
	H5Tset_size(t, strlen(v) + 4);
	H5Tset_strpad(t, H5T_STR_NULLPAD);
	char buf[64] = {0};
	memcpy(buf, v, strlen(v));
	lf_attr_num(loc, name, t, t, buf);
	H5Tclose(t);
}

void lf_attr_strs(hid_t loc, const char *name, const char **v, hsize_t n)
{
	hid_t t = utf8_vlen();
	hid_t s = H5Screate_simple(1, &n, NULL);
	hid_t a = H5Acreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
	ck_assert_int_ge(H5Awrite(a, t, v), 0);
	H5Aclose(a);
	H5Sclose(s);
	H5Tclose(t);
}

void lf_attr_i64s(hid_t loc, const char *name, const int64_t *v, hsize_t n)
{
	hid_t s = H5Screate_simple(1, &n, NULL);
	hid_t a = H5Acreate2(
		loc, name, H5T_STD_I64LE, s, H5P_DEFAULT, H5P_DEFAULT);
	ck_assert_int_ge(H5Awrite(a, H5T_NATIVE_INT64, v), 0);
	H5Aclose(a);
	H5Sclose(s);
}

/* A 1-D dataset of n values given as int64, stored as ftype. */
void lf_ds_ints_dcpl(hid_t loc, const char *name, hid_t ftype, const int64_t *v,
	hsize_t n, hid_t dcpl)
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

void lf_ds_ints(
	hid_t loc, const char *name, hid_t ftype, const int64_t *v, hsize_t n)
{
	lf_ds_ints_dcpl(loc, name, ftype, v, n, H5P_DEFAULT);
}

void lf_ds_f64(hid_t loc, const char *name, const double *v, hsize_t n)
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
void lf_ds_strs(hid_t loc, const char *name, const char *const *v, hsize_t n,
	size_t fixed)
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

/* ---- the base file ---- */

/*
 * Rows (rank, region, offset, count): (0, solve, 0, 3), (0, io, 3, 2),
 * (1, solve, 5, 1).  Row 0's calls are stored out of start order, so its
 * second delta is negative.
 */
static const int64_t base_start[] = {100, 150, 130, 200, 210, 1000};
static const int64_t base_end[] = {110, 170, 135, 205, 215, 1050};

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

char *lf_base_write(const char *name, enum lf_mutation m)
{
	char *path = svt_tmp_path(name);
	hid_t f = lf_h5_create(path);
	hid_t g, ev;
	int64_t region[] = {0, 1, 0}, rank[] = {0, 0, 1};
	int64_t offset[] = {0, 3, 5}, count[] = {3, 2, 1};
	int64_t lines[] = {7, -1, 7}, excl[] = {35, -1, 50};
	const char *files[] = {"solver.py", "", "solver.py"};
	const char *texts[] = {"with solve:", "", ""};
	const char *tags[] = {"[\"golden\", \"hot\"]", "[]", ""};
	const char *names[] = {"solve", "io"};
	int64_t start[8], dur[8];
	hsize_t nrows = 3, nev = LF_BASE_EVENTS;
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
		lf_attr_str(f, "scope_profiler_schema", "3");
		break;
	case M_SCHEMA_FLOAT:
		lf_attr_f64(f, "scope_profiler_schema", 3.0);
		break;
	case M_SCHEMA_BOOL:
		lf_attr_bool(f, "scope_profiler_schema", true);
		break;
	case M_SCHEMA_ARRAY: {
		int64_t v[] = {3};
		lf_attr_i64s(f, "scope_profiler_schema", v, 1);
		break;
	}
	case M_SCHEMA_ZERO:
		lf_attr_i64(f, "scope_profiler_schema", 0);
		break;
	case M_SCHEMA_NEG:
		lf_attr_i64(f, "scope_profiler_schema", -1);
		break;
	case M_SCHEMA_4:
		lf_attr_i64(f, "scope_profiler_schema", 4);
		break;
	case M_SCHEMA_U8: {
		uint8_t v = 3;
		lf_attr_num(f, "scope_profiler_schema", H5T_STD_U8LE,
			H5T_NATIVE_UINT8, &v);
		break;
	}
	default:
		lf_attr_i64(f, "scope_profiler_schema", 3);
	}
	lf_attr_str(f, "storage_layout",
		m == M_LAYOUT_BOGUS ? "bogus" : "columnar");

	g = lf_h5_group(f, "metadata");
	lf_attr_i64(g, "mpi_size", 2);
	lf_attr_i64(g, "start_time_ns", 50);
	H5Gclose(g);

	if (m != M_NO_REGION_TABLE) {
		g = lf_h5_group(f, "region_table");
		if (m == M_NAMES_INT)
			lf_ds_ints(g, "names", H5T_STD_I64LE, region, 2);
		else if (m != M_NO_NAMES)
			lf_ds_strs(g, "names", names, 2, fixed);
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

	g = lf_h5_group(f, "rank_region_index");
	lf_ds_ints(g, "region_ids",
		m == M_REGION_NEG ? H5T_STD_I32LE : H5T_STD_U32LE, region,
		nrows);
	lf_ds_ints(g, "ranks", m == M_RANK_NEG ? H5T_STD_I64LE : H5T_STD_U32LE,
		rank, m == M_RANKS_SHORT ? 2 : nrows);
	lf_ds_ints(g, "event_offsets", H5T_STD_U64LE, offset, nrows);
	if (m == M_COUNTS_FLOAT) {
		double c[] = {3, 2, 1};
		lf_ds_f64(g, "event_counts", c, 3);
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
		lf_ds_ints(g, "event_counts", H5T_STD_U64LE, count, nrows);
	}
	lf_ds_ints(g, "source_lines", H5T_STD_I64LE, lines, nrows);
	lf_ds_ints(g, "exclusive_totals", H5T_STD_I64LE, excl, nrows);
	lf_ds_strs(g, "source_files", files, nrows, fixed);
	lf_ds_strs(g, "source_texts", texts, nrows, fixed);
	if (m == M_TAGS_BAD) {
		const char *bad[] = {"golden", "{\"a\": 1}", "[1, \"x\"]"};
		lf_ds_strs(g, "tags", bad, nrows, 0);
	} else {
		lf_ds_strs(g, "tags", tags, nrows, fixed);
	}
	if (nrows)
		base_summaries(g, m == M_SUMMARY_FIELDS);
	H5Gclose(g);

	if (m == M_NO_EVENTS) {
		H5Fclose(f);
		return path;
	}
	if (m == M_EVENTS_DATASET) {
		lf_ds_ints(f, "events", H5T_STD_I64LE, base_start, 6);
		H5Fclose(f);
		return path;
	}
	ev = lf_h5_group(f, "events");
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
		lf_ds_strs(ev, "start_deltas", s, 6, 0);
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
		lf_ds_ints_dcpl(
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
		lf_ds_ints_dcpl(
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
		lf_ds_ints(ev, "start_deltas", H5T_STD_I64LE, start, nev);
	}
	if (m != M_NO_DURATIONS)
		lf_ds_ints(ev, "durations", H5T_STD_I64LE, dur,
			m == M_SHORT_DURATIONS ? nev - 1 : nev);

	if (m == M_GPU_SHORT) {
		int64_t gpu[] = {5, -1, -1, -1, -1};
		lf_ds_ints(ev, "gpu_durations", H5T_STD_I64LE, gpu, 5);
	} else {
		/* Row 0 has one GPU time, the others none. */
		int64_t gpu[] = {5, -1, -1, -1, -1, -1, -1, -1};
		lf_ds_ints(ev, "gpu_durations", H5T_STD_I64LE, gpu, nev);
	}
	if (m == M_CALLIDS_FLOAT) {
		double ids[] = {0, 1, 2, 3, 4, 5, 0, 0};
		lf_ds_f64(ev, "call_ids", ids, nev);
	} else {
		int64_t ids[] = {0, 1, 2, 3, 4, 0, 0, 0};
		lf_ds_ints(ev, "call_ids", H5T_STD_I64LE, ids, nev);
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
		lf_ds_ints(ev, "thread_ids", H5T_STD_I64LE, th, nev);
		lf_ds_ints(ev, "task_ids", H5T_STD_I64LE, tk, nev);
		lf_ds_ints(ev, "await_ns", H5T_STD_I64LE, aw, nev);
		g = lf_h5_group(f, "thread_table");
		lf_ds_ints(g, "ranks", H5T_STD_U32LE, trank, 3);
		lf_ds_ints(g, "index", H5T_STD_I64LE, tidx, 3);
		lf_ds_ints(g, "ident", H5T_STD_I64LE, ident, 3);
		lf_ds_ints(g, "daemon", H5T_STD_I8LE, daemon, 3);
		lf_ds_strs(g, "name", tn, 3, 0);
		H5Gclose(g);
		g = lf_h5_group(f, "task_table");
		lf_ds_ints(g, "ranks", H5T_STD_U32LE, kr, 1);
		lf_ds_ints(g, "index", H5T_STD_I64LE, ki, 1);
		lf_ds_ints(g, "thread_index", H5T_STD_I64LE, kt, 1);
		lf_ds_strs(g, "kind", kinds, 1, 0);
		lf_ds_strs(g, "name", tnames, 1, 0);
		lf_ds_strs(g, "coro_name", coro, 1, 0);
		lf_ds_ints(g, "created_ns", H5T_STD_I64LE, kc, 1);
		lf_ds_ints(g, "done_ns", H5T_STD_I64LE, kd, 1);
		H5Gclose(g);
	}
	if (m == M_EXTRA_COLS) {
		int64_t bytes[] = {8, 16, 32, 64, 128, 256, 0, 0};
		double ratio[] = {0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 0, 0};
		lf_ds_ints(ev, "bytes", H5T_STD_U32LE, bytes, nev);
		lf_ds_f64(ev, "ratio", ratio, nev);
	}
	if (m == M_EXTRA_BADLEN) {
		int64_t v[] = {1, 2, 3};
		lf_ds_ints(ev, "event_metadata", H5T_STD_I64LE, v, 3);
	}
	H5Gclose(ev);
	H5Fclose(f);
	return path;
}

void lf_expect_fail(const char *path, int code, const char *frag)
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

/* path loaded with o (NULL: the defaults), which must succeed. */
struct sv_profile *lf_load_opts(const char *path, const struct sv_load_opts *o)
{
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	int rc = sv_load(path, o, &p, &e);
	ck_assert_msg(rc == 0, "%s: %s", path, e.msg);
	ck_assert_ptr_nonnull(p);
	return p;
}

struct sv_profile *lf_load_ok(const char *path)
{
	return lf_load_opts(path, NULL);
}

bool lf_has_warning(const struct sv_profile *p, const char *frag)
{
	size_t i;
	for (i = 0; i < p->nwarnings; i++)
		if (strstr(p->warnings[i], frag))
			return true;
	return false;
}

void lf_dump_warnings(const struct sv_profile *p)
{
	size_t i;
	for (i = 0; i < p->nwarnings; i++)
		fprintf(stderr, "warning: %s\n", p->warnings[i]);
}

/* The base profile's calls, whatever order its rows are stored in. */
void lf_check_base_calls(const struct sv_profile *p)
{
	size_t i;

	ck_assert_uint_eq(p->nrows, 3);
	ck_assert_uint_eq(p->ncalls, LF_BASE_EVENTS);
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
	for (i = 0; i < LF_BASE_EVENTS; i++) {
		ck_assert_int_eq(p->start_ns[i], base_start[i]);
		ck_assert_int_eq(sv_profile_end(p, i), base_end[i]);
	}
}

void lf_same_col(const void *a, const void *b, size_t n, const char *what)
{
	ck_assert_msg((a == NULL) == (b == NULL), "%s: present in one", what);
	if (a)
		ck_assert_msg(!memcmp(a, b, n * 8), "%s differs", what);
}

/* ---- the writer's file (write.h) ---- */

/*
 * Rank 2: rows b (two calls, GPU time on the second, source and tags) and
 * a (two calls nested in b's); rank 10: row a (one call).  Calls of a
 * rank are given row after row.
 */
const int64_t lf_wr_start2[] = {10, 20, 12, 21},
	      lf_wr_end2[] = {15, 25, 14, 24};
const int64_t lf_wr_gpu2[] = {-1, 3, -1, -1};
const int64_t lf_wr_thread2[] = {0, 0, 0, 0}, lf_wr_await2[] = {0, 0, 0, 1};
const int64_t lf_wr_cid2[] = {0, 2, 1, 3}, lf_wr_pid2[] = {-1, -1, 0, 2};
static const int64_t wr_start10[] = {30}, wr_end10[] = {35};

char *lf_writer_file(const char *name, int schema)
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
	r2.start_ns = lf_wr_start2;
	r2.end_ns = lf_wr_end2;
	r2.gpu_ns = lf_wr_gpu2;
	r2.call_id = lf_wr_cid2;
	r2.parent_id = lf_wr_pid2;
	r2.thread_id = lf_wr_thread2;
	r2.await_ns = lf_wr_await2;
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
