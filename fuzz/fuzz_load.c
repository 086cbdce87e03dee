/*
 * fuzz_load.c: libFuzzer harness for the loader, structure-aware.
 *
 * The input is not a file but a list of edits (fuzz_load.h) to one of
 * two valid profiles: one the project's generator wrote, and the fixture
 * gpu_likwid_perf_lineprof.h5, scope-profiler's own file with perf,
 * LIKWID and line-profile tables, to which a column of per-call event
 * metadata is added.  Each edit picks one of the profile's datasets or
 * groups and sets a value (extreme int64s, NaN, random bits), changes its
 * length, its type (narrower and unsigned integers, floats, strings,
 * compounds, two dimensions), its storage (chunks of any size, deflate),
 * deletes it, links it under another name, or sets an attribute
 * (schema, layout, metadata, the counters' and line profiles' names and
 * units) to a value of any type; or writes a row of event metadata JSON
 * (as the input gives it, nested thousands deep, after a string of
 * megabytes: numbers like 1e999 and -0, escapes, invalid UTF-8 and lone
 * surrogates come from the input and the seed corpus); or remakes a
 * counters or line-profile dataset in a shape scope-profiler never
 * writes (two dimensions, a scalar, empty, strings, NaN).  The edits are
 * made with libhdf5, so the file stays a well-formed HDF5 file and the
 * fuzzer explores the profile's meaning instead of HDF5's byte format.
 * The result is loaded; a profile that loads goes through statistics,
 * the summary table (with its counters) and every view's layout and draw
 * (fuzz_common.c).  A failure to load must be one line of error, never a
 * crash, a hang or a sanitizer report.  Seeds: fuzz/corpus/load/.
 */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_load.h"
#include "scopeview/load.h"

#define FUZZ_MAX_OBJS  96
#define FUZZ_MAX_ELEMS 65536
/* The event metadata a META edit may write: 64 MiB at most. */
#define FUZZ_META_MAX ((size_t)64 << 20)

/* A base file: its bytes, its objects in H5Ovisit's order, and those of
 * its counters and line-profile tables. */
struct fuzz_base {
	char path[512];
	unsigned char *bytes;
	size_t nbytes;
	char *objs[FUZZ_MAX_OBJS];
	size_t nobjs;
	char *tables[FUZZ_MAX_OBJS];
	size_t ntables;
};

static struct fuzz_base fuzz_bases[2];
static char fuzz_work[512];

static herr_t fuzz_visit(
	hid_t o, const char *name, const H5O_info_t *info, void *data)
{
	struct fuzz_base *b = data;
	(void)o;
	if (b->nobjs < FUZZ_MAX_OBJS)
		b->objs[b->nobjs++] = strdup(name);
	if (info->type == H5O_TYPE_DATASET && b->ntables < FUZZ_MAX_OBJS &&
		(strstr(name, "perf_events/") || strstr(name, "likwid/") ||
			strstr(name, "line_profile/")))
		b->tables[b->ntables++] = strdup(name);
	return 0;
}

/* The fixture's source: $FUZZ_SOURCE_DIR/../tests/fixtures, else the
 * tree the harness was built from. */
static void fuzz_fixture(char *buf, size_t n, const char *name)
{
	const char *src = getenv("FUZZ_SOURCE_DIR");
	if (src && *src)
		snprintf(buf, n, "%s/../tests/fixtures/%s", src, name);
	else
		snprintf(
			buf, n, "%s/tests/fixtures/%s", FUZZ_SOURCE_ROOT, name);
}

/* Copy file from to to. */
static void fuzz_copy(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	char buf[65536];
	size_t n;

	if (!in || !out) {
		fprintf(stderr, "fuzz: cannot copy %s to %s\n", from, to);
		abort();
	}
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			abort();
	fclose(in);
	if (fclose(out))
		abort();
}

/* A vlen string dataset name under loc holding texts[0 .. n). */
static void fuzz_strings(
	hid_t loc, const char *name, const char *const *texts, hsize_t n)
{
	hid_t t = H5Tcopy(H5T_C_S1), s = H5Screate_simple(1, &n, NULL), d;

	H5Tset_size(t, H5T_VARIABLE);
	H5Tset_cset(t, H5T_CSET_UTF8);
	H5Ldelete(loc, name, H5P_DEFAULT);
	d = H5Dcreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	if (d >= 0) {
		if (n)
			H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, texts);
		H5Dclose(d);
	}
	H5Sclose(s);
	H5Tclose(t);
}

/* The rows of /rank_region_index (event_counts' length) and their
 * counts (malloc'd), or 0. */
static hsize_t fuzz_rows(hid_t f, int64_t **counts)
{
	hid_t d = H5Dopen2(f, "/rank_region_index/event_counts", H5P_DEFAULT);
	hid_t s;
	hsize_t n = 0;

	*counts = NULL;
	if (d < 0)
		return 0;
	s = H5Dget_space(d);
	if (H5Sget_simple_extent_ndims(s) == 1)
		H5Sget_simple_extent_dims(s, &n, NULL);
	if (n > FUZZ_MAX_ELEMS)
		n = 0;
	*counts = calloc(n ? n : 1, sizeof **counts);
	if (n && H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT,
			 *counts) < 0)
		n = 0;
	H5Sclose(s);
	H5Dclose(d);
	return n;
}

/* Every row's event metadata: a list of one object a call, as
 * scope-profiler's sp.metadata(phase=..., iter=...) leaves them. */
static void fuzz_add_metadata(const char *path)
{
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	int64_t *counts;
	hsize_t n, i;
	char **rows;

	if (f < 0)
		abort();
	n = fuzz_rows(f, &counts);
	rows = calloc(n ? n : 1, sizeof *rows);
	for (i = 0; i < n; i++) {
		int64_t k, c = counts[i] < 0    ? 0
			       : counts[i] > 64 ? 0
						: counts[i];
		size_t len = 0;
		rows[i] = malloc(64 * (size_t)c + 4);
		rows[i][len++] = '[';
		for (k = 0; k < c; k++)
			len += (size_t)sprintf(rows[i] + len,
				"%s{\"phase\": \"steady\", \"iter\": %lld}",
				k ? ", " : "", (long long)k);
		rows[i][len++] = ']';
		rows[i][len] = '\0';
	}
	fuzz_strings(f, "/rank_region_index/event_metadata",
		(const char *const *)rows, n);
	for (i = 0; i < n; i++)
		free(rows[i]);
	free(rows);
	free(counts);
	H5Fclose(f);
}

/* Read base b's bytes and objects. */
static void fuzz_base_scan(struct fuzz_base *b)
{
	FILE *f = fopen(b->path, "rb");
	hid_t h;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0)
		abort();
	rewind(f);
	b->nbytes = (size_t)n;
	b->bytes = malloc(b->nbytes);
	if (!b->bytes || fread(b->bytes, 1, b->nbytes, f) != b->nbytes)
		abort();
	fclose(f);
	h = H5Fopen(b->path, H5F_ACC_RDONLY, H5P_DEFAULT);
	if (h < 0)
		abort();
	H5Ovisit2(h, H5_INDEX_NAME, H5_ITER_NATIVE, fuzz_visit, b,
		H5O_INFO_BASIC);
	H5Fclose(h);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char fixture[512];

	(void)argc;
	(void)argv;
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	fuzz_path(fuzz_bases[0].path, sizeof fuzz_bases[0].path, "base.h5");
	fuzz_path(fuzz_bases[1].path, sizeof fuzz_bases[1].path, "tables.h5");
	fuzz_path(fuzz_work, sizeof fuzz_work, "work.h5");
	fuzz_gen(fuzz_bases[0].path, 2, 2, 1, 400, 7);
	fuzz_fixture(fixture, sizeof fixture, "gpu_likwid_perf_lineprof.h5");
	fuzz_copy(fixture, fuzz_bases[1].path);
	fuzz_add_metadata(fuzz_bases[1].path);
	fuzz_base_scan(&fuzz_bases[0]);
	fuzz_base_scan(&fuzz_bases[1]);
	return 0;
}

static const int64_t fuzz_ints[] = {
	0,
	1,
	-1,
	2,
	INT64_MIN,
	INT64_MAX,
	INT64_MIN + 1,
	INT64_MAX - 1,
	(int64_t)1 << 62,
	((int64_t)1 << 62) - 1,
	-((int64_t)1 << 62),
	INT32_MAX,
	(int64_t)INT32_MAX + 1,
	UINT32_MAX,
	1000000000,
};

static int64_t fuzz_int(struct fuzz_in *in)
{
	uint8_t k = fuzz_u8(in);
	if (k < 2 * (sizeof fuzz_ints / sizeof fuzz_ints[0]))
		return fuzz_ints[k % (sizeof fuzz_ints / sizeof fuzz_ints[0])];
	return (int64_t)fuzz_u64(in);
}

static double fuzz_double(struct fuzz_in *in)
{
	static const double d[] = {
		0, -0.0, 1, -1, 1e300, -1e300, 1e-300, 9.3e18, -9.3e18, 0.5};
	uint8_t k = fuzz_u8(in);
	if (k == 0)
		return NAN;
	if (k == 1)
		return INFINITY;
	if (k == 2)
		return -INFINITY;
	return k < 64 ? d[k % 10] : (double)fuzz_int(in) / 3.0;
}

/* The dataset's values as int64 (n of them, at most FUZZ_MAX_ELEMS) or
 * NULL when it is not a numeric 1-D dataset. */
static int64_t *fuzz_read_ints(hid_t d, hsize_t *n)
{
	hid_t s = H5Dget_space(d), t = H5Dget_type(d);
	H5T_class_t c = H5Tget_class(t);
	int64_t *v = NULL;

	*n = 0;
	if (H5Sget_simple_extent_ndims(s) == 1 &&
		(c == H5T_INTEGER || c == H5T_FLOAT)) {
		H5Sget_simple_extent_dims(s, n, NULL);
		if (*n <= FUZZ_MAX_ELEMS) {
			v = calloc(*n ? *n : 1, sizeof *v);
			if (*n && H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL,
					  H5P_DEFAULT, v) < 0) {
				free(v);
				v = NULL;
			}
		}
	}
	H5Tclose(t);
	H5Sclose(s);
	return v;
}

static hid_t fuzz_type(uint8_t k)
{
	hid_t t;
	switch (k % 9) {
	case 0:
		return H5Tcopy(H5T_STD_I8LE);
	case 1:
		return H5Tcopy(H5T_STD_U64LE);
	case 2:
		return H5Tcopy(H5T_IEEE_F32LE);
	case 3:
		return H5Tcopy(H5T_IEEE_F64BE);
	case 4:
		t = H5Tcopy(H5T_C_S1);
		H5Tset_size(t, H5T_VARIABLE);
		return t;
	case 5:
		t = H5Tcopy(H5T_C_S1);
		H5Tset_size(t, 3);
		return t;
	case 6:
		t = H5Tcreate(H5T_COMPOUND, 8);
		H5Tinsert(t, "total", 0, H5T_STD_I64LE);
		return t;
	case 7:
		return H5Tcopy(H5T_STD_I32BE);
	default:
		return H5Tcopy(H5T_STD_I64LE);
	}
}

/* Replace dataset name with n values of type t, maybe chunked; values
 * from v (cycled), strings spelled from them. */
static void fuzz_recreate(hid_t f, const char *name, hid_t t, hsize_t n,
	int rank2, const int64_t *v, hsize_t nv, hsize_t chunk, int deflate)
{
	hsize_t dims[2] = {n, 2}, max[2] = {H5S_UNLIMITED, 2};
	hsize_t cdims[2] = {chunk ? chunk : 1, 1};
	hid_t s, dcpl = H5Pcreate(H5P_DATASET_CREATE), d;
	H5T_class_t c = H5Tget_class(t);
	hsize_t i, cells = n * (rank2 ? 2 : 1);

	H5Ldelete(f, name, H5P_DEFAULT);
	s = H5Screate_simple(rank2 ? 2 : 1, dims, chunk ? max : NULL);
	if (chunk) {
		H5Pset_chunk(dcpl, rank2 ? 2 : 1, cdims);
		if (deflate)
			H5Pset_deflate(dcpl, 1);
	}
	d = H5Dcreate2(f, name, t, s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	if (d >= 0 && cells) {
		if (c == H5T_STRING && H5Tis_variable_str(t) > 0) {
			char **sv = calloc(cells, sizeof *sv);
			for (i = 0; i < cells; i++) {
				sv[i] = malloc(24);
				snprintf(sv[i], 24, "%lld",
					nv ? (long long)v[i % nv] : 0LL);
			}
			H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, sv);
			for (i = 0; i < cells; i++)
				free(sv[i]);
			free(sv);
		} else if (c == H5T_INTEGER || c == H5T_FLOAT ||
			   c == H5T_COMPOUND) {
			int64_t *buf = calloc(cells, sizeof *buf);
			hid_t mt = H5T_NATIVE_INT64;
			for (i = 0; i < cells && nv; i++)
				buf[i] = v[i % nv];
			if (c == H5T_COMPOUND) {
				mt = H5Tcreate(H5T_COMPOUND, 8);
				H5Tinsert(mt, "total", 0, H5T_NATIVE_INT64);
			}
			H5Dwrite(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
			if (c == H5T_COMPOUND)
				H5Tclose(mt);
			free(buf);
		}
	}
	if (d >= 0)
		H5Dclose(d);
	H5Sclose(s);
	H5Pclose(dcpl);
}

static const char *const fuzz_attr_names[] = {
	"scope_profiler_schema",
	"storage_layout",
	"mpi_size",
	"start_time_ns",
	"finalize_time_ns",
	"label",
	"hostname",
	"clock",
	"units",
	/* the counters' (perf_events, LIKWID) and line profiles' */
	"event_names",
	"calls",
	"tag",
	"group_name",
	"counter_names",
	"metric_names",
	"region",
	"filename",
	"function",
	"first_lineno",
	"unit",
	"source",
	"source_first_lineno",
};

static void fuzz_attr(hid_t f, const char *obj, struct fuzz_in *in)
{
	const char *name = fuzz_attr_names[fuzz_u8(in) %
					   (sizeof fuzz_attr_names /
						   sizeof fuzz_attr_names[0])];
	uint8_t kind = fuzz_u8(in);
	hsize_t n = 1 + fuzz_u8(in) % 4;
	hid_t o = H5Oopen(f, obj, H5P_DEFAULT), s, t, a;
	int64_t iv[4];
	double dv[4];
	size_t i;

	if (o < 0)
		return;
	H5Adelete(o, name);
	s = kind & 1 ? H5Screate_simple(1, &n, NULL) : H5Screate(H5S_SCALAR);
	for (i = 0; i < 4; i++) {
		iv[i] = fuzz_int(in);
		dv[i] = fuzz_double(in);
	}
	switch ((kind >> 1) % 4) {
	case 0:
		a = H5Acreate2(
			o, name, H5T_STD_I64LE, s, H5P_DEFAULT, H5P_DEFAULT);
		H5Awrite(a, H5T_NATIVE_INT64, iv);
		break;
	case 1:
		a = H5Acreate2(
			o, name, H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT);
		H5Awrite(a, H5T_NATIVE_DOUBLE, dv);
		break;
	case 2: {
		char b[4][32];
		const char *p[4];
		t = H5Tcopy(H5T_C_S1);
		H5Tset_size(t, H5T_VARIABLE);
		for (i = 0; i < 4; i++) {
			snprintf(b[i], sizeof b[i], "%s%lld",
				i % 2 ? "\xff\x1b[" : "", (long long)iv[i]);
			p[i] = b[i];
		}
		a = H5Acreate2(o, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
		H5Awrite(a, t, p);
		H5Tclose(t);
		break;
	}
	default:
		a = H5Acreate2(
			o, name, H5T_STD_U8LE, s, H5P_DEFAULT, H5P_DEFAULT);
		H5Awrite(a, H5T_NATIVE_INT64, iv);
	}
	if (a >= 0)
		H5Aclose(a);
	H5Sclose(s);
	H5Oclose(o);
}

/* META: a row of /rank_region_index/event_metadata (made, "[]" a row,
 * when the base has none). */
static void fuzz_meta(hid_t f, struct fuzz_in *in)
{
	uint8_t row = fuzz_u8(in), mode = fuzz_u8(in);
	size_t n = (size_t)fuzz_u8(in) << 8, len = 0, depth = 0, pad = 0, i;
	int64_t *counts;
	hsize_t nrows = fuzz_rows(f, &counts), k;
	const char **rows;
	char *text;

	n |= fuzz_u8(in);
	if (n > in->n)
		n = in->n;
	if (mode % 4 == 1)
		depth = (size_t)(n ? in->p[0] : 0) * 256 + n / 2;
	if (mode % 4 == 2)
		pad = (n % 4096) * 1024;
	if (2 * depth + pad + n + 16 > FUZZ_META_MAX)
		depth = pad = 0;
	text = malloc(2 * depth + pad + n + 16);
	for (i = 0; i < depth; i++)
		text[len++] = '[';
	if (pad) {
		memcpy(text + len, "[{\"k\": \"", 8);
		len += 8;
		memset(text + len, 'a', pad);
		len += pad;
	}
	memcpy(text + len, in->p, n);
	len += n;
	in->p += n;
	in->n -= n;
	for (i = 0; i < depth; i++)
		text[len++] = ']';
	text[len] = '\0';
	rows = calloc(nrows ? nrows : 1, sizeof *rows);
	for (k = 0; k < nrows; k++)
		rows[k] = mode % 4 == 3 || k == row % nrows ? text : "[]";
	if (nrows)
		fuzz_strings(
			f, "/rank_region_index/event_metadata", rows, nrows);
	free(rows);
	free(text);
	free(counts);
}

/* TABLE: one dataset of a counters or line-profile table made again in a
 * shape scope-profiler never writes. */
static void fuzz_table(hid_t f, const struct fuzz_base *b, struct fuzz_in *in)
{
	const char *name;
	uint8_t kind;
	hsize_t dims[2];
	hid_t s = -1, t = -1, d;
	size_t i, cells;

	if (!b->ntables)
		return;
	name = b->tables[fuzz_u8(in) % b->ntables];
	kind = fuzz_u8(in);
	dims[0] = fuzz_u8(in) % 9;
	dims[1] = fuzz_u8(in) % 9;
	H5Ldelete(f, name, H5P_DEFAULT);
	switch (kind % FUZZ_TABLE_COUNT) {
	case FUZZ_TABLE_2D:
		s = H5Screate_simple(2, dims, NULL);
		t = H5Tcopy(kind & 0x80 ? H5T_IEEE_F64LE : H5T_STD_I64LE);
		break;
	case FUZZ_TABLE_SCALAR:
		s = H5Screate(H5S_SCALAR);
		t = H5Tcopy(H5T_IEEE_F64LE);
		break;
	case FUZZ_TABLE_EMPTY:
		dims[0] = 0;
		s = H5Screate_simple(1, dims, NULL);
		t = H5Tcopy(H5T_STD_I64LE);
		break;
	case FUZZ_TABLE_STRINGS: {
		const char *v[8];
		for (i = 0; i < dims[0]; i++)
			v[i] = i % 2 ? "\xff\x1b[31mname" : "12";
		fuzz_strings(f, name, v, dims[0]);
		return;
	}
	default:
		s = H5Screate_simple(1, dims, NULL);
		t = H5Tcopy(H5T_IEEE_F64LE);
	}
	d = H5Dcreate2(f, name, t, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	cells = kind % FUZZ_TABLE_COUNT == FUZZ_TABLE_SCALAR ? 1
		: kind % FUZZ_TABLE_COUNT == FUZZ_TABLE_2D   ? dims[0] * dims[1]
							     : dims[0];
	if (d >= 0 && cells) {
		double *v = calloc(cells, sizeof *v);
		int64_t *iv = calloc(cells, sizeof *iv);
		for (i = 0; i < cells; i++) {
			v[i] = fuzz_double(in);
			iv[i] = fuzz_int(in);
		}
		if (H5Tget_class(t) == H5T_FLOAT)
			H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
				H5P_DEFAULT, v);
		else
			H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL,
				H5P_DEFAULT, iv);
		free(v);
		free(iv);
	}
	if (d >= 0)
		H5Dclose(d);
	H5Tclose(t);
	H5Sclose(s);
}

static void fuzz_edit(hid_t f, const struct fuzz_base *bs, struct fuzz_in *in)
{
	uint8_t op = fuzz_u8(in) % FUZZ_OP_COUNT;
	const char *obj;
	hid_t d;
	hsize_t n = 0;
	int64_t *v;
	char alias[64];

	if (op == FUZZ_OP_META) {
		fuzz_meta(f, in);
		return;
	}
	if (op == FUZZ_OP_TABLE) {
		fuzz_table(f, bs, in);
		return;
	}
	obj = bs->objs[fuzz_u8(in) % bs->nobjs];
	if (op == FUZZ_OP_ATTR) {
		fuzz_attr(f, obj, in);
		return;
	}
	if (op == FUZZ_OP_DELETE) {
		H5Ldelete(f, obj, H5P_DEFAULT);
		return;
	}
	d = H5Dopen2(f, obj, H5P_DEFAULT);
	if (d < 0) {
		fuzz_attr(f, obj, in);
		return;
	}
	v = fuzz_read_ints(d, &n);
	H5Dclose(d);
	switch (op) {
	case FUZZ_OP_VALUES:
		if (v && n) {
			int k = 1 + fuzz_u8(in) % 4;
			while (k--)
				v[fuzz_u32(in) % n] = fuzz_int(in);
			fuzz_recreate(f, obj, fuzz_type(8), n, 0, v, n, 0, 0);
		}
		break;
	case FUZZ_OP_LENGTH: {
		static const int64_t delta[] = {-1, 1, -2, 7, -1000};
		int64_t m = (int64_t)n + delta[fuzz_u8(in) % 5];
		if (fuzz_u8(in) & 1)
			m = fuzz_u8(in);
		if (m < 0)
			m = 0;
		if (m > 4096)
			m = 4096;
		fuzz_recreate(f, obj, fuzz_type(8), (hsize_t)m, 0, v, n, 0, 0);
		break;
	}
	case FUZZ_OP_TYPE:
	case FUZZ_OP_TYPE2: {
		hid_t t = fuzz_type(fuzz_u8(in));
		fuzz_recreate(f, obj, t, n,
			op == FUZZ_OP_TYPE2 && (fuzz_u8(in) & 1), v, n, 0, 0);
		H5Tclose(t);
		break;
	}
	case FUZZ_OP_STORAGE: {
		hsize_t chunk = 1 + (fuzz_u32(in) % (1u << 22));
		fuzz_recreate(f, obj, fuzz_type(8), n, 0, v, n, chunk,
			fuzz_u8(in) & 1);
		break;
	}
	default: /* another name */
		snprintf(alias, sizeof alias, "/events/alias%u",
			(unsigned)fuzz_u8(in));
		H5Lcreate_hard(f, obj, f, alias, H5P_DEFAULT, H5P_DEFAULT);
	}
	free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = {data, size};
	const struct fuzz_base *b = &fuzz_bases[fuzz_u8(&in) & 1];
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	FILE *f = fopen(fuzz_work, "wb");
	hid_t h;
	int k;

	if (!f || fwrite(b->bytes, 1, b->nbytes, f) != b->nbytes)
		abort();
	fclose(f);
	h = H5Fopen(fuzz_work, H5F_ACC_RDWR, H5P_DEFAULT);
	if (h < 0)
		abort();
	for (k = 0; k < FUZZ_MAX_EDITS && in.n; k++)
		fuzz_edit(h, b, &in);
	H5Fclose(h);
	if (sv_load(fuzz_work, NULL, &p, &e) == 0) {
		fuzz_exercise(p, 80, 24, NULL, 0);
		sv_profile_free(p);
	} else if (!e.msg[0] || strchr(e.msg, '\n')) {
		fprintf(stderr, "fuzz: load failed without one line: '%s'\n",
			e.msg);
		abort();
	}
	return 0;
}
