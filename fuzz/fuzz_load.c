/*
 * fuzz_load.c: libFuzzer harness for the loader, structure-aware.
 *
 * The input is not a file but a list of edits to a valid profile that
 * the project's generator wrote once: each edit picks one of the
 * profile's datasets or groups and sets a value (extreme int64s, NaN,
 * random bits), changes its length, its type (narrower and unsigned
 * integers, floats, strings, compounds, two dimensions), its storage
 * (chunks of any size, deflate), deletes it, links it under another name,
 * or sets an attribute (schema, layout, metadata) to a value of any type.
 * The edits are made with libhdf5, so the file stays a well-formed HDF5
 * file and the fuzzer explores the profile's meaning instead of HDF5's
 * byte format.  The result is loaded; a profile that loads goes through
 * statistics, the summary table and every view's layout and draw
 * (fuzz_common.c).  A failure to load must be an error, never a crash,
 * a hang or a sanitizer report.
 */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "scopeview/load.h"

#define FUZZ_MAX_OBJS  64
#define FUZZ_MAX_EDITS 8
#define FUZZ_MAX_ELEMS 65536

static char fuzz_base[512], fuzz_work[512];
static unsigned char *fuzz_bytes;
static size_t fuzz_nbytes;
static char *fuzz_objs[FUZZ_MAX_OBJS];
static size_t fuzz_nobjs;

static herr_t fuzz_visit(
	hid_t o, const char *name, const H5O_info_t *info, void *data)
{
	(void)o;
	(void)info;
	(void)data;
	if (fuzz_nobjs < FUZZ_MAX_OBJS)
		fuzz_objs[fuzz_nobjs++] = strdup(name);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	FILE *f;
	hid_t h;
	long n;

	(void)argc;
	(void)argv;
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	fuzz_path(fuzz_base, sizeof fuzz_base, "base.h5");
	fuzz_path(fuzz_work, sizeof fuzz_work, "work.h5");
	fuzz_gen(fuzz_base, 2, 2, 1, 400, 7);
	f = fopen(fuzz_base, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0)
		abort();
	rewind(f);
	fuzz_nbytes = (size_t)n;
	fuzz_bytes = malloc(fuzz_nbytes);
	if (!fuzz_bytes || fread(fuzz_bytes, 1, fuzz_nbytes, f) != fuzz_nbytes)
		abort();
	fclose(f);
	h = H5Fopen(fuzz_base, H5F_ACC_RDONLY, H5P_DEFAULT);
	if (h < 0)
		abort();
	H5Ovisit2(h, H5_INDEX_NAME, H5_ITER_NATIVE, fuzz_visit, NULL,
		H5O_INFO_BASIC);
	H5Fclose(h);
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

static void fuzz_edit(hid_t f, struct fuzz_in *in)
{
	uint8_t op = fuzz_u8(in);
	const char *obj = fuzz_objs[fuzz_u8(in) % fuzz_nobjs];
	hid_t d;
	hsize_t n = 0;
	int64_t *v;
	char alias[64];

	if (op % 8 == 6) {
		fuzz_attr(f, obj, in);
		return;
	}
	if (op % 8 == 7) {
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
	switch (op % 8) {
	case 0: /* values */
		if (v && n) {
			int k = 1 + fuzz_u8(in) % 4;
			while (k--)
				v[fuzz_u32(in) % n] = fuzz_int(in);
			fuzz_recreate(f, obj, fuzz_type(8), n, 0, v, n, 0, 0);
		}
		break;
	case 1: { /* length */
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
	case 2: /* type */
	case 3: {
		hid_t t = fuzz_type(fuzz_u8(in));
		fuzz_recreate(f, obj, t, n, op % 8 == 3 && (fuzz_u8(in) & 1), v,
			n, 0, 0);
		H5Tclose(t);
		break;
	}
	case 4: { /* storage */
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
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	FILE *f = fopen(fuzz_work, "wb");
	hid_t h;
	int k;

	if (!f || fwrite(fuzz_bytes, 1, fuzz_nbytes, f) != fuzz_nbytes)
		abort();
	fclose(f);
	h = H5Fopen(fuzz_work, H5F_ACC_RDWR, H5P_DEFAULT);
	if (h < 0)
		abort();
	for (k = 0; k < FUZZ_MAX_EDITS && in.n; k++)
		fuzz_edit(h, &in);
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
