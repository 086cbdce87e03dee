/*
 * load_files_big.c: the large profiles of the load suite (load_files.h),
 * written at run time: tens to hundreds of thousands of events whose
 * columns are chunked and compressed with deflate (through HDF5), LZF or
 * zstd (raw chunks compressed here as h5py's and hdf5plugin's filters
 * do), with or without shuffle, for the parallel inflate path
 * (test_load_fast.c) and the damaged-file fuzz (test_load_guard.c).
 */
#include "load_files.h"

#include <lzf.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "helpers.h"

/* A deterministic stream of 64-bit values (splitmix64). */
uint64_t lf_mix_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15u);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
	return z ^ (z >> 31);
}

const struct lf_big_case lf_big_cases[] = {
	/* 69 chunks (more than threads), the last one partial */
	{"big_shuffle.h5", 70000, 1024, true, 4, false, false, false,
		LF_BIG_DEFLATE},
	/* deflate without shuffle, a prime length */
	{"big_deflate.h5", 200003, 4096, false, 3, false, false, false,
		LF_BIG_DEFLATE},
	/* rows out of order: ranges that start and end inside chunks */
	{"big_rows.h5", 300000, 1536, true, 2, true, false, false,
		LF_BIG_DEFLATE},
	/* one chunk holds everything but the tail */
	{"big_onechunk.h5", 65537, 65536, true, 1, false, false, false,
		LF_BIG_DEFLATE},
	{"big_fletcher.h5", 70000, 1024, true, 2, false, true, false,
		LF_BIG_DEFLATE},
	{"big_contig.h5", 70000, 0, false, 2, false, false, true,
		LF_BIG_DEFLATE},
	/* LZF (h5py's filter 32000) and zstd (hdf5plugin's 32015), with
	 * and without shuffle, written as raw chunks (big_raw_column) */
	{"big_lzf_shuffle.h5", 70000, 1024, true, 4, false, false, false,
		LF_BIG_LZF},
	{"big_lzf.h5", 200003, 4096, false, 3, true, false, false, LF_BIG_LZF},
	{"big_zstd_shuffle.h5", 70000, 1024, true, 2, false, false, false,
		LF_BIG_ZSTD},
	{"big_zstd.h5", 200003, 4096, false, 3, true, false, false,
		LF_BIG_ZSTD},
};

const size_t lf_nbig_cases = sizeof lf_big_cases / sizeof lf_big_cases[0];

/* Write column name of n 8-byte little-endian values as raw chunks
 * compressed the way the filter plugins do: shuffled (when asked) then
 * one LZF stream or zstd frame per chunk, the last one padded with
 * zeros.  A chunk LZF cannot shrink is stored as it is, with the LZF bit
 * of its filter mask set, as HDF5 stores it for an optional filter. */
static void big_raw_column(hid_t g, const char *name, hid_t type,
	const void *vals, const struct lf_big_case *c)
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
	if (c->codec == LF_BIG_LZF)
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
		if (c->codec == LF_BIG_LZF) {
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
char *lf_big_write(const struct lf_big_case *c, int64_t *want_start)
{
	char *path = svt_tmp_path(c->name);
	hid_t f = lf_h5_create(path), g, dcpl;
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
		uint64_t v = lf_mix_next(&st);
		delta[i] = (int64_t)(v % 5000);
		dur[i] = (int64_t)((v >> 20) % 4000);
		cid[i] = (int64_t)lf_mix_next(&st);
		v = lf_mix_next(&st);
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

	lf_attr_i64(f, "scope_profiler_schema", 3);
	lf_attr_str(f, "storage_layout", "columnar");
	g = lf_h5_group(f, "metadata");
	lf_attr_i64(g, "mpi_size", c->nrows);
	H5Gclose(g);
	g = lf_h5_group(f, "region_table");
	lf_ds_strs(g, "names", names, 3, 0);
	H5Gclose(g);
	g = lf_h5_group(f, "rank_region_index");
	lf_ds_ints(g, "ranks", H5T_STD_U32LE, rank, (hsize_t)c->nrows);
	lf_ds_ints(g, "region_ids", H5T_STD_U32LE, region, (hsize_t)c->nrows);
	lf_ds_ints(
		g, "event_offsets", H5T_STD_U64LE, offset, (hsize_t)c->nrows);
	lf_ds_ints(g, "event_counts", H5T_STD_U64LE, count, (hsize_t)c->nrows);
	H5Gclose(g);

	if (c->codec != LF_BIG_DEFLATE) {
		g = lf_h5_group(f, "events");
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
	g = lf_h5_group(f, "events");
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
