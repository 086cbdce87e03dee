/*
 * test_hostile.c: hostile files (issue 16), generated at test time from a
 * valid profile written by the project's own generator and then altered
 * with raw HDF5 calls or byte patches.  Each case asserts its outcome: a
 * one-line error naming the file (and the object), or a load with the
 * right warning, within seconds (each case has a short Check timeout) and
 * in memory bounded by the file (ru_maxrss is checked where a case is
 * about memory).
 *
 *   defect 1: a variable-length string whose descriptor understates its
 *             heap object (dataset and attribute), a damaged heap
 *   defect 2: external links (to a FIFO, to a missing file), virtual
 *             datasets (missing source, FIFO source)
 *   defect 5: hard links to one column, a chunk far larger than its data
 *
 * and (issues 40 and 43) chunks that do not decode to their declared size:
 * LZF streams and zstd frames that end short, run long or say another
 * size, deflate bombs, chunks stored short with no compressor to restore
 * them, each through H5Dread and through the parallel decoder.
 */
#include <errno.h>
#include <hdf5.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <lzf.h>
#include <zlib.h>
#include <zstd.h>

#include "../src/io/load_h5_fast.h"    /* sv_h5_fast_refused */
#include "../src/io/load_h5_filters.h" /* sv_h5_filters_register */
#include "helpers.h"
#include "scopeview/common.h"
#include "scopeview/gen.h"
#include "scopeview/load.h"
#include "scopeview/profile.h"

#define HOSTILE_EVENTS 2000

/* A valid small profile (one rank, two threads, 2000 calls). */
static char *hostile_base(const char *name)
{
	char *path = svt_tmp_path(name);
	struct sv_gen_opts o;
	struct sv_error e = {0};

	sv_gen_opts_init(&o);
	o.ranks = 2;
	o.threads = 2;
	o.events = HOSTILE_EVENTS;
	ck_assert_msg(sv_gen_write(path, &o, NULL, NULL, &e) == 0, "%s", e.msg);
	return path;
}

static hid_t hostile_open(const char *path)
{
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	ck_assert_int_ge(f, 0);
	return f;
}

/* Load must fail with code and a one-line message holding frag. */
static void hostile_fails(const char *path, int code, const char *frag)
{
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	int rc = sv_load(path, NULL, &p, &e);

	ck_assert_msg(rc == code, "%s: rc %d (%s), expected %d", path, rc,
		e.msg, code);
	ck_assert_msg(
		strstr(e.msg, frag), "message '%s' lacks '%s'", e.msg, frag);
	ck_assert_msg(!strncmp(e.msg, path, strlen(path)),
		"message '%s' does not name the file", e.msg);
	ck_assert_msg(!strchr(e.msg, '\n'), "message has a newline");
	ck_assert_ptr_null(p);
}

static struct sv_profile *hostile_loads(const char *path)
{
	struct sv_profile *p = NULL;
	struct sv_error e = {0};

	ck_assert_msg(sv_load(path, NULL, &p, &e) == 0, "%s", e.msg);
	return p;
}

static bool hostile_warned(const struct sv_profile *p, const char *frag)
{
	size_t i;
	for (i = 0; i < p->nwarnings; i++)
		if (strstr(p->warnings[i], frag))
			return true;
	return false;
}

static long hostile_maxrss_mb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss / 1024;
}

/* ------------------------------------------------------------------ */
/* Defect 1: variable-length strings                                   */

/* Every offset of the file where a 4-byte length `len` is followed by
 * the address of a global heap collection ("GCOL"): the descriptors of
 * the strings of that length.  Patches their length to newlen; returns
 * how many were patched. */
static int hostile_patch_vlen(const char *path, uint32_t len, uint32_t newlen)
{
	size_t n, i, j;
	char *buf = svt_read_file(path, &n);
	int patched = 0;
	FILE *f;

	ck_assert_ptr_nonnull(buf);
	for (i = 0; i + 16 <= n; i++) {
		uint64_t addr = 0;
		uint32_t l;
		memcpy(&l, buf + i, 4);
		if (l != len)
			continue;
		for (j = 0; j < 8; j++)
			addr |= (uint64_t)(unsigned char)buf[i + 4 + j]
				<< (8 * j);
		if (addr == 0 || addr + 4 > n || memcmp(buf + addr, "GCOL", 4))
			continue;
		memcpy(buf + i, &newlen, 4);
		patched++;
	}
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, n, f), n);
	fclose(f);
	free(buf);
	return patched;
}

static char *hostile_long_string(size_t n, char c)
{
	char *s = sv_xmalloc(n + 1);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

/* /region_table/names with name idx replaced by value (a variable-length
 * string, as the writer stores them). */
static void hostile_set_name(const char *path, hssize_t idx, const char *value)
{
	hid_t f = hostile_open(path), d, t, sp;
	hssize_t n;
	char **names;
	char *old;

	d = H5Dopen2(f, "/region_table/names", H5P_DEFAULT);
	ck_assert_int_ge(d, 0);
	t = H5Dget_type(d);
	sp = H5Dget_space(d);
	n = H5Sget_simple_extent_npoints(sp);
	ck_assert_int_gt(n, idx);
	names = calloc((size_t)n, sizeof *names);
	ck_assert_int_ge(
		H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, names), 0);
	old = names[idx];
	names[idx] = (char *)value;
	ck_assert_int_ge(
		H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, names), 0);
	names[idx] = old;
	H5Dvlen_reclaim(t, sp, H5P_DEFAULT, names);
	free(names);
	H5Sclose(sp);
	H5Tclose(t);
	H5Dclose(d);
	H5Fclose(f);
}

/* /region_table/names rewritten with a 5000-byte first name. */
static void hostile_long_name(const char *path)
{
	char *v = hostile_long_string(5000, 'x');
	hostile_set_name(path, 0, v);
	free(v);
}

START_TEST(test_vlen_understated_dataset)
{
	char *path = hostile_base("vlen_ds.h5");

	hostile_long_name(path);
	ck_assert_int_ge(hostile_patch_vlen(path, 5000, 1), 1);
	hostile_fails(path, -EIO,
		"/region_table/names: damaged: element 0 says 1 bytes, but "
		"its heap object holds 5000");
	free(path);
}
END_TEST

START_TEST(test_vlen_understated_attribute)
{
	char *path = hostile_base("vlen_attr.h5");
	hid_t f = hostile_open(path), g, t, s, a;
	char *v = hostile_long_string(5000, 'h');
	struct sv_profile *p;

	g = H5Gopen2(f, "metadata", H5P_DEFAULT);
	ck_assert_int_ge(g, 0);
	t = H5Tcopy(H5T_C_S1);
	H5Tset_size(t, H5T_VARIABLE);
	s = H5Screate(H5S_SCALAR);
	a = H5Acreate2(g, "hostile", t, s, H5P_DEFAULT, H5P_DEFAULT);
	ck_assert_int_ge(a, 0);
	H5Awrite(a, t, &v);
	H5Aclose(a);
	H5Sclose(s);
	H5Tclose(t);
	H5Gclose(g);
	H5Fclose(f);
	free(v);
	ck_assert_int_ge(hostile_patch_vlen(path, 5000, 1), 1);
	/* The attribute is not read; the rest loads. */
	p = hostile_loads(path);
	ck_assert_ptr_nonnull(sv_profile_meta(p, "hostile"));
	ck_assert_str_eq(sv_profile_meta(p, "hostile")->text,
		"<unreadable string attribute>");
	ck_assert_uint_gt(p->ncalls, 0);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* A descriptor naming an object index the collection does not have, and
 * one whose collection claims more bytes than the file has. */
START_TEST(test_vlen_bad_heap)
{
	char *path = hostile_base("vlen_heap.h5");
	size_t n, i;
	char *buf;
	FILE *f;

	hostile_long_name(path);
	buf = svt_read_file(path, &n);
	/* Every "GCOL" collection claims 2^40 bytes. */
	for (i = 0; i + 16 <= n; i++)
		if (!memcmp(buf + i, "GCOL", 4)) {
			uint64_t big = (uint64_t)1 << 40;
			memcpy(buf + i + 8, &big, 8);
		}
	f = fopen(path, "wb");
	fwrite(buf, 1, n, f);
	fclose(f);
	free(buf);
	hostile_fails(path, -EIO, "damaged");
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Defect 2: links out of the file                                     */

static char *hostile_fifo(const char *name)
{
	char *fifo = svt_tmp_path(name);
	unlink(fifo);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	return fifo;
}

START_TEST(test_external_link_fifo)
{
	char *path = hostile_base("elink.h5");
	char *fifo = hostile_fifo("elink.fifo");
	hid_t f = hostile_open(path);

	ck_assert_int_ge(H5Lcreate_external(fifo, "/x", f, "/events/elsewhere",
				 H5P_DEFAULT, H5P_DEFAULT),
		0);
	H5Fclose(f);
	hostile_fails(path, -ENOTSUP,
		"/events/elsewhere: is an external link (to /x in ");
	unlink(fifo);
	free(fifo);
	free(path);
}
END_TEST

/* The whole /events group replaced by a link to another file. */
START_TEST(test_external_link_group)
{
	char *path = hostile_base("elink2.h5");
	hid_t f = hostile_open(path);

	ck_assert_int_ge(H5Lmove(f, "/events", f, "/events_moved", H5P_DEFAULT,
				 H5P_DEFAULT),
		0);
	ck_assert_int_ge(H5Lcreate_external("missing.h5", "/events", f,
				 "/events", H5P_DEFAULT, H5P_DEFAULT),
		0);
	H5Fclose(f);
	hostile_fails(path, -ENOTSUP, "/events: is an external link");
	free(path);
}
END_TEST

static void hostile_vds(const char *path, const char *src)
{
	hid_t f = hostile_open(path), vsp, ssp, dcpl, d;
	hsize_t n = HOSTILE_EVENTS;

	vsp = H5Screate_simple(1, &n, NULL);
	ssp = H5Screate_simple(1, &n, NULL);
	dcpl = H5Pcreate(H5P_DATASET_CREATE);
	ck_assert_int_ge(H5Pset_virtual(dcpl, vsp, src, "/data", ssp), 0);
	d = H5Dcreate2(f, "/events/virtual_col", H5T_NATIVE_INT64, vsp,
		H5P_DEFAULT, dcpl, H5P_DEFAULT);
	ck_assert_int_ge(d, 0);
	H5Dclose(d);
	H5Pclose(dcpl);
	H5Sclose(ssp);
	H5Sclose(vsp);
	H5Fclose(f);
}

START_TEST(test_vds_missing_source)
{
	char *path = hostile_base("vds.h5");

	hostile_vds(path, "no-such-source.h5");
	hostile_fails(path, -ENOTSUP,
		"/events/virtual_col: is a virtual dataset (its values live "
		"in 'no-such-source.h5')");
	free(path);
}
END_TEST

START_TEST(test_vds_fifo_source)
{
	char *path = hostile_base("vds2.h5");
	char *fifo = hostile_fifo("vds.fifo");

	hostile_vds(path, fifo);
	hostile_fails(path, -ENOTSUP, "is a virtual dataset");
	unlink(fifo);
	free(fifo);
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Defect 5: amplification                                             */

START_TEST(test_hard_links_read_once)
{
	char *path = hostile_base("hardlinks.h5");
	hid_t f = hostile_open(path);
	struct sv_profile *p;
	char name[64];
	long before;
	int i;

	/* An extra column, then 200 more names for it and 200 for a
	 * standard column. */
	ck_assert_int_ge(H5Ocopy(f, "/events/durations", f, "/events/extra0",
				 H5P_DEFAULT, H5P_DEFAULT),
		0);
	for (i = 0; i < 200; i++) {
		snprintf(name, sizeof name, "/events/alias%03d", i);
		ck_assert_int_ge(H5Lcreate_hard(f, "/events/extra0", f, name,
					 H5P_DEFAULT, H5P_DEFAULT),
			0);
		snprintf(name, sizeof name, "/events/dur%03d", i);
		ck_assert_int_ge(H5Lcreate_hard(f, "/events/durations", f, name,
					 H5P_DEFAULT, H5P_DEFAULT),
			0);
	}
	H5Fclose(f);
	before = hostile_maxrss_mb();
	p = hostile_loads(path);
	ck_assert_uint_eq(p->ncolumns, 1);
	ck_assert(hostile_warned(p, "another name for a column already read"));
	ck_assert_int_lt(hostile_maxrss_mb() - before, 64);
	sv_profile_free(p);
	free(path);
}
END_TEST

START_TEST(test_chunk_bomb)
{
	char *path = hostile_base("bomb.h5");
	hid_t f = hostile_open(path), sp, dcpl, d;
	hsize_t n = HOSTILE_EVENTS, max = H5S_UNLIMITED;
	hsize_t chunk = (hsize_t)16 << 20; /* 128 MiB of int64 */
	int64_t *v = calloc(HOSTILE_EVENTS, sizeof *v);
	struct sv_profile *p;
	long before;

	sp = H5Screate_simple(1, &n, &max);
	dcpl = H5Pcreate(H5P_DATASET_CREATE);
	H5Pset_chunk(dcpl, 1, &chunk);
	H5Pset_deflate(dcpl, 1);
	d = H5Dcreate2(f, "/events/bomb", H5T_STD_I64LE, sp, H5P_DEFAULT, dcpl,
		H5P_DEFAULT);
	ck_assert_int_ge(d, 0);
	H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
	H5Dclose(d);
	H5Pclose(dcpl);
	H5Sclose(sp);
	H5Fclose(f);
	free(v);
	before = hostile_maxrss_mb();
	p = hostile_loads(path);
	ck_assert(hostile_warned(p, "/events/bomb: is stored in chunks of "
				    "16777216 values (128 MiB each)"));
	ck_assert_uint_eq(p->ncolumns, 0);
	ck_assert_int_lt(hostile_maxrss_mb() - before, 64);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Defect 8: duplicate region names                                    */

START_TEST(test_duplicate_names)
{
	char *path = hostile_base("dupnames.h5");
	struct sv_profile *p;

	hostile_set_name(path, 1, "dup");
	hostile_set_name(path, 2, "dup");
	p = hostile_loads(path);
	ck_assert(hostile_warned(p, "/region_table/names: 1 name is given "
				    "more than once (\"dup\" among them)"));
	sv_profile_free(p);
	free(path);
}
END_TEST

/* A writer rewriting the file while it is read: the error says so
 * (issue 16: it failed as "corrupt" after the watchdog's 20 s). */
static const char *rewrite_path;

static void hostile_rewrite_progress(void *ctx, double f, const char *what)
{
	(void)ctx;
	(void)what;
	if (f > 0.1 && rewrite_path) {
		ck_assert_int_eq(truncate(rewrite_path, 4096), 0);
		rewrite_path = NULL;
	}
}

START_TEST(test_changed_while_read)
{
	char *path = hostile_base("rewritten.h5");
	struct sv_load_opts lo = {.progress = hostile_rewrite_progress};
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	int rc;

	rewrite_path = path;
	rc = sv_load(path, &lo, &p, &e);
	ck_assert_int_ne(rc, 0);
	ck_assert_ptr_null(p);
	ck_assert_msg(strstr(e.msg, ": changed while being read"), "%s", e.msg);
	ck_assert_ptr_null(strchr(e.msg, '\n'));
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Chunks that do not decode to their size (issues 40 and 43)          */

#define CHUNK_EVENTS 100000 /* one chunk of it: 800000 bytes */
#define CHUNK_LONG   (2 * CHUNK_EVENTS * 8)

/* A valid profile of n calls on one rank, uncompressed. */
static char *chunk_base(const char *name, uint64_t n)
{
	char *path = svt_tmp_path(name);
	struct sv_gen_opts o;
	struct sv_error e = {0};

	sv_gen_opts_init(&o);
	o.ranks = 1;
	o.events = n;
	o.writer.compression = SV_WRITE_COMPRESS_NONE;
	ck_assert_msg(sv_gen_write(path, &o, NULL, NULL, &e) == 0, "%s", e.msg);
	return path;
}

enum chunk_pipe {
	PIPE_LZF,
	PIPE_ZSTD,
	PIPE_DEFLATE,
	PIPE_SHUFFLE, /* shuffle, deflate */
	PIPE_NONE,
	PIPE_SCALEOFFSET,   /* libhdf5's, sized by its parameters */
	PIPE_TWO,           /* deflate, LZF */
	PIPE_SHUFFLE_AFTER, /* deflate, shuffle */
};

/*
 * Replace (or add) /events/name (or name itself, when it starts with a
 * '/') by n int64 values in chunks of chunk values with the pipeline pipe
 * (LZF with its cd_values lzf_cd), every chunk written by HDF5, then
 * chunk 0 overwritten as stored bytes raw[0, len) with filter mask mask.
 */
static void chunk_column(const char *path, const char *name, hsize_t n,
	hsize_t chunk, enum chunk_pipe pipe, const unsigned lzf_cd[3],
	unsigned mask, const void *raw, size_t len)
{
	hid_t f = hostile_open(path), sp, dcpl, d;
	hsize_t off = 0, max = H5S_UNLIMITED;
	int64_t *v = calloc(n, sizeof *v);
	unsigned zcd[1] = {3};
	char obj[64];

	ck_assert_int_eq(sv_h5_filters_register(), 0);
	snprintf(obj, sizeof obj, "%s%s", name[0] == '/' ? "" : "/events/",
		name);
	if (H5Lexists(f, obj, H5P_DEFAULT) > 0)
		ck_assert_int_ge(H5Ldelete(f, obj, H5P_DEFAULT), 0);
	sp = H5Screate_simple(1, &n, chunk > n ? &max : NULL);
	dcpl = H5Pcreate(H5P_DATASET_CREATE);
	H5Pset_chunk(dcpl, 1, &chunk);
	if (pipe == PIPE_LZF)
		ck_assert_int_ge(H5Pset_filter(dcpl, SV_H5_FILTER_LZF,
					 H5Z_FLAG_OPTIONAL, 3, lzf_cd),
			0);
	else if (pipe == PIPE_ZSTD)
		ck_assert_int_ge(H5Pset_filter(dcpl, SV_H5_FILTER_ZSTD,
					 H5Z_FLAG_OPTIONAL, 1, zcd),
			0);
	else if (pipe == PIPE_SHUFFLE)
		H5Pset_shuffle(dcpl);
	else if (pipe == PIPE_SCALEOFFSET)
		H5Pset_scaleoffset(
			dcpl, H5Z_SO_INT, H5Z_SO_INT_MINBITS_DEFAULT);
	if (pipe == PIPE_DEFLATE || pipe == PIPE_SHUFFLE || pipe == PIPE_TWO ||
		pipe == PIPE_SHUFFLE_AFTER)
		H5Pset_deflate(dcpl, 4);
	if (pipe == PIPE_TWO) {
		unsigned cd3[3] = {4, 261, 0};
		ck_assert_int_ge(H5Pset_filter(dcpl, SV_H5_FILTER_LZF,
					 H5Z_FLAG_OPTIONAL, 3, cd3),
			0);
	}
	if (pipe == PIPE_SHUFFLE_AFTER)
		H5Pset_shuffle(dcpl);
	d = H5Dcreate2(
		f, obj, H5T_STD_I64LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	ck_assert_int_ge(d, 0);
	if (chunk < n) {
		ck_assert_int_ge(H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL,
					 H5P_DEFAULT, v),
			0);
	}
	ck_assert_int_ge(
		H5Dwrite_chunk(d, H5P_DEFAULT, mask, &off, len, raw), 0);
	H5Dclose(d);
	H5Pclose(dcpl);
	H5Sclose(sp);
	H5Fclose(f);
	free(v);
}

/* The stored bytes of the cases below. */
enum chunk_stream {
	RAW_8,         /* 8 bytes as they are */
	LZF_8,         /* an LZF stream of 8 bytes */
	LZF_LONG,      /* an LZF stream of CHUNK_LONG zero bytes */
	ZSTD_8,        /* a zstd frame of 8 bytes, saying so */
	ZSTD_8_UNSAID, /* ... without a content size */
	ZSTD_LONG,     /* a zstd frame of CHUNK_LONG bytes, saying so */
	ZSTD_LONG_UNSAID,
	ZLIB_8,    /* a zlib stream of 8 bytes */
	ZLIB_LONG, /* a zlib stream of CHUNK_LONG bytes */
};

static unsigned char *chunk_stream(enum chunk_stream k, size_t *len)
{
	static const unsigned char eight[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	unsigned char *zeros = calloc(CHUNK_LONG, 1);
	const void *src = k == LZF_LONG || k == ZSTD_LONG ||
					  k == ZSTD_LONG_UNSAID ||
					  k == ZLIB_LONG
				  ? (const void *)zeros
				  : (const void *)eight;
	size_t n = src == zeros ? CHUNK_LONG : 8;
	size_t cap = ZSTD_compressBound(n) + 64;
	unsigned char *out = malloc(cap);
	ZSTD_CCtx *z;
	uLongf zl = cap;

	switch (k) {
	case RAW_8:
		memcpy(out, eight, 8);
		*len = 8;
		break;
	case LZF_8:
		/* One literal run: control byte 7 (8 bytes follow). */
		out[0] = 7;
		memcpy(out + 1, eight, 8);
		*len = 9;
		break;
	case LZF_LONG:
		*len = lzf_compress(src, (unsigned)n, out, (unsigned)cap);
		ck_assert_uint_gt(*len, 0);
		break;
	case ZSTD_8:
	case ZSTD_LONG:
		*len = ZSTD_compress(out, cap, src, n, 3);
		ck_assert(!ZSTD_isError(*len));
		break;
	case ZSTD_8_UNSAID:
	case ZSTD_LONG_UNSAID:
		z = ZSTD_createCCtx();
		ZSTD_CCtx_setParameter(z, ZSTD_c_contentSizeFlag, 0);
		*len = ZSTD_compress2(z, out, cap, src, n);
		ck_assert(!ZSTD_isError(*len));
		ck_assert(ZSTD_getFrameContentSize(out, *len) ==
			  ZSTD_CONTENTSIZE_UNKNOWN);
		ZSTD_freeCCtx(z);
		break;
	case ZLIB_8:
	case ZLIB_LONG:
		ck_assert_int_eq(compress2(out, &zl, src, n, 6), Z_OK);
		*len = zl;
		break;
	}
	free(zeros);
	return out;
}

static const struct chunk_case {
	const char *name;
	enum chunk_pipe pipe;
	unsigned lzf_cd2; /* h5py's chunk size in bytes (LZF) */
	enum chunk_stream stream;
	unsigned mask;
	const char *why;
} chunk_cases[] = {
	/* Issue 43's three LZF files: the parameter unset, as h5py wrote
	 * it, and 2^32 - 1. */
	{"lzf_short_unset.h5", PIPE_LZF, 0, LZF_8, 0,
		"the LZF stream decodes to 8 bytes, not the chunk's 800000"},
	{"lzf_short_h5py.h5", PIPE_LZF, 800000, LZF_8, 0,
		"the LZF stream decodes to 8 bytes, not the chunk's 800000"},
	{"lzf_short_4g.h5", PIPE_LZF, 4294967295u, LZF_8, 0,
		"!its LZF parameters say chunks of 4294967295 bytes, but its "
		"chunks hold 800000"},
	{"lzf_long.h5", PIPE_LZF, 800000, LZF_LONG, 0,
		"the LZF stream decodes to more than the chunk's 800000 "
		"bytes"},
	/* ... and the matching zstd frames, saying their size or not. */
	{"zstd_short.h5", PIPE_ZSTD, 0, ZSTD_8, 0,
		"the zstd frame says it holds 8 bytes, but the chunk holds "
		"800000"},
	{"zstd_short_unsaid.h5", PIPE_ZSTD, 0, ZSTD_8_UNSAID, 0,
		"the zstd frame decodes to 8 bytes, not the chunk's 800000"},
	{"zstd_long.h5", PIPE_ZSTD, 0, ZSTD_LONG, 0,
		"the zstd frame says it holds 1600000 bytes, but the chunk "
		"holds 800000"},
	{"zstd_long_unsaid.h5", PIPE_ZSTD, 0, ZSTD_LONG_UNSAID, 0,
		"the zstd frame decodes to more than the chunk's 800000 "
		"bytes"},
	{"deflate_short.h5", PIPE_DEFLATE, 0, ZLIB_8, 0,
		"the deflate stream inflates to 8 bytes, not the chunk's "
		"800000"},
	{"deflate_long.h5", PIPE_DEFLATE, 0, ZLIB_LONG, 0,
		"the deflate stream inflates past the chunk's 800000 bytes"},
	/* Stored short with nothing to restore the size: h5py's optional
	 * LZF skipped by the mask, shuffle with its deflate skipped. */
	{"lzf_skipped.h5", PIPE_LZF, 800000, RAW_8, 1,
		"is stored in 8 bytes and decodes to 8 (filter mask 0x1), but "
		"holds 800000"},
	{"shuffle_skipped.h5", PIPE_SHUFFLE, 0, RAW_8, 2,
		"is stored in 8 bytes and decodes to 8 (filter mask 0x2), but "
		"holds 800000"},
};

#define CHUNK_NCASES (sizeof chunk_cases / sizeof chunk_cases[0])

/* Load path expecting the refusal of frag; through the parallel decoder
 * when fast (which must have refused the chunk itself), else through
 * H5Dread alone.  Memory stays bounded either way. */
static void chunk_refused(const char *path, bool fast, const char *frag)
{
	struct sv_load_opts o = {.slow_inflate = !fast};
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	uint64_t before = sv_h5_fast_refused();
	long mb = hostile_maxrss_mb();
	int rc;

	unsetenv("SCOPEVIEW_NO_FAST_INFLATE");
	rc = sv_load(path, &o, &p, &e);
	ck_assert_msg(rc == -EIO, "%s: rc %d (%s)", path, rc, e.msg);
	ck_assert_ptr_null(p);
	ck_assert_msg(
		strstr(e.msg, frag), "message '%s' lacks '%s'", e.msg, frag);
	ck_assert_msg(!strncmp(e.msg, path, strlen(path)),
		"message '%s' does not name the file", e.msg);
	ck_assert_ptr_null(strchr(e.msg, '\n'));
	if (fast)
		ck_assert_uint_gt(sv_h5_fast_refused(), before);
	else
		ck_assert_uint_eq(sv_h5_fast_refused(), before);
	ck_assert_int_lt(hostile_maxrss_mb() - mb, 64);
}

/* Each case (_i / 2) through H5Dread (even _i) and the parallel decoder
 * (odd). */
START_TEST(test_chunk_size)
{
	const struct chunk_case *c = &chunk_cases[_i / 2];
	bool fast = _i % 2;
	char *path = chunk_base(c->name, CHUNK_EVENTS);
	unsigned cd[3] = {4, 261, c->lzf_cd2};
	size_t len;
	unsigned char *raw = chunk_stream(c->stream, &len);
	char frag[400];

	chunk_column(path, "durations", CHUNK_EVENTS, CHUNK_EVENTS, c->pipe, cd,
		c->mask, raw, len);
	/* '!': said of the dataset, not of a chunk. */
	if (c->why[0] == '!')
		snprintf(frag, sizeof frag,
			": /events/durations: cannot read: %s", c->why + 1);
	else
		snprintf(frag, sizeof frag,
			": /events/durations: cannot read: chunk 0 (values 0 "
			"to 99999): %s",
			c->why);
	chunk_refused(path, fast, frag);
	free(raw);
	free(path);
}
END_TEST

/* A chunked dataset without filters whose chunk index says 8 bytes for a
 * chunk of 800000: libhdf5 read it into a buffer of 8 bytes through its
 * chunk cache (a heap overflow under ASAN, heap bytes as durations in the
 * plain build).  Without the cache it reads the chunk's 800000 bytes
 * from the file at the chunk's address: the values are the file's bytes
 * there (or, past the file's end, the read fails), never the heap's. */
START_TEST(test_chunk_unfiltered_short)
{
	char *path = chunk_base("unfiltered_short.h5", CHUNK_EVENTS);
	size_t len;
	unsigned char *raw = chunk_stream(RAW_8, &len);
	struct sv_load_opts o = {.slow_inflate = true};
	struct sv_profile *p = NULL;
	struct sv_error e = {0};

	chunk_column(path, "durations", CHUNK_EVENTS, CHUNK_EVENTS, PIPE_NONE,
		NULL, 0, raw, len);
	if (sv_load(path, &o, &p, &e) == 0) {
		ck_assert_uint_eq(p->ncalls, CHUNK_EVENTS);
		sv_profile_free(p);
	} else {
		ck_assert_msg(strstr(e.msg, "/events/durations: cannot read: "
					    "the file is truncated or damaged"),
			"%s", e.msg);
	}
	free(raw);
	free(path);
}
END_TEST

/* Pipelines whose output size cannot be held to the chunk's are refused
 * before any chunk is read: an error for durations, a warning for an
 * optional column. */
static const struct {
	enum chunk_pipe pipe;
	const char *why;
} pipe_cases[] = {
	{PIPE_SCALEOFFSET, "its scale-offset filter sizes its output by "
			   "parameters stored in the file"},
	{PIPE_TWO, "its pipeline holds two compressors (deflate (gzip) and "
		   "LZF)"},
	{PIPE_SHUFFLE_AFTER, "its pipeline shuffles after it compresses"},
};

START_TEST(test_chunk_pipeline)
{
	char *path = chunk_base("pipeline.h5", 2000);
	size_t len;
	unsigned char *raw = chunk_stream(RAW_8, &len);
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	char frag[300];

	chunk_column(path, "durations", 2000, 1024, pipe_cases[_i].pipe, NULL,
		0, raw, len);
	snprintf(frag, sizeof frag, "/events/durations: cannot read: %s",
		pipe_cases[_i].why);
	chunk_refused(path, false, frag);
	/* As an optional column instead: the load goes on without it. */
	free(path);
	path = chunk_base("pipeline_opt.h5", 2000);
	chunk_column(path, "task_ids", 2000, 1024, pipe_cases[_i].pipe, NULL, 0,
		raw, len);
	ck_assert_msg(sv_load(path, NULL, &p, &e) == 0, "%s", e.msg);
	snprintf(frag, sizeof frag, "/events/task_ids: cannot read: %s",
		pipe_cases[_i].why);
	ck_assert_msg(hostile_warned(p, frag), "no warning '%s'", frag);
	ck_assert_ptr_null(p->task_id);
	sv_profile_free(p);
	free(raw);
	free(path);
}
END_TEST

/* The same chunk in optional columns: a warning, the column left out. */
START_TEST(test_chunk_optional)
{
	char *path = chunk_base("optional_chunk.h5", CHUNK_EVENTS);
	unsigned cd[3] = {4, 261, 800000};
	size_t len;
	unsigned char *raw = chunk_stream(LZF_8, &len);
	struct sv_load_opts o = {.slow_inflate = _i == 0};
	struct sv_profile *p;

	chunk_column(path, "thread_ids", CHUNK_EVENTS, CHUNK_EVENTS, PIPE_LZF,
		cd, 0, raw, len);
	chunk_column(path, "extra_col", CHUNK_EVENTS, CHUNK_EVENTS, PIPE_LZF,
		cd, 0, raw, len);
	{
		struct sv_error e = {0};
		p = NULL;
		ck_assert_msg(sv_load(path, &o, &p, &e) == 0, "%s", e.msg);
	}
	ck_assert(hostile_warned(p,
		"/events/thread_ids: cannot read: chunk 0 (values 0 to "
		"99999): the LZF stream decodes to 8 bytes, not the chunk's "
		"800000; ignored"));
	ck_assert(hostile_warned(p,
		"/events/extra_col: cannot read: chunk 0 (values 0 to "
		"99999): the LZF stream decodes to 8 bytes, not the chunk's "
		"800000; ignored"));
	ck_assert_ptr_null(p->thread_id);
	ck_assert_uint_eq(p->ncolumns, 0);
	ck_assert_uint_eq(p->ncalls, CHUNK_EVENTS);
	sv_profile_free(p);
	free(raw);
	free(path);
}
END_TEST

/* A column of the lane table /thread_table whose chunk does not decode
 * to its size: a key column (ranks, index) drops the table, any other
 * the column, each with a warning that names the chunk. */
static const struct {
	const char *col;
	bool table_kept;
} chunk_table_cases[] = {
	{"ranks", false},
	{"index", false},
	{"cpu_ns", true},
};

START_TEST(test_chunk_table)
{
	const char *col = chunk_table_cases[_i].col;
	char *path = svt_tmp_path("chunk_table.h5"), obj[64], frag[300];
	struct sv_gen_opts o;
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	hsize_t rows = 0;
	hid_t f, d, sp;
	size_t len;
	unsigned char *raw = chunk_stream(ZSTD_LONG, &len);

	/* One rank, one thread, its table written. */
	sv_gen_opts_init(&o);
	o.ranks = 1;
	o.events = 1000;
	o.track_threads = true;
	o.writer.compression = SV_WRITE_COMPRESS_NONE;
	ck_assert_msg(sv_gen_write(path, &o, NULL, NULL, &e) == 0, "%s", e.msg);
	f = hostile_open(path);
	d = H5Dopen2(f, "/thread_table/ranks", H5P_DEFAULT);
	ck_assert_int_ge(d, 0);
	sp = H5Dget_space(d);
	ck_assert_int_eq(H5Sget_simple_extent_dims(sp, &rows, NULL), 1);
	H5Sclose(sp);
	H5Dclose(d);
	H5Fclose(f);
	ck_assert_uint_ge(rows, 1);
	snprintf(obj, sizeof obj, "/thread_table/%s", col);
	chunk_column(path, obj, rows, rows, PIPE_ZSTD, NULL, 0, raw, len);

	ck_assert_msg(sv_load(path, NULL, &p, &e) == 0, "%s", e.msg);
	snprintf(frag, sizeof frag,
		"%s: cannot read: chunk 0 (values 0 to %llu): the zstd frame "
		"says it holds 1600000 bytes, but the chunk holds %llu",
		obj, (unsigned long long)rows - 1,
		(unsigned long long)rows * 8);
	ck_assert_msg(hostile_warned(p, frag), "no warning '%s'", frag);
	if (chunk_table_cases[_i].table_kept) {
		ck_assert_uint_ge(p->nthreads, 1);
		ck_assert_int_eq(p->threads[0].cpu_ns, -1);
	} else {
		snprintf(frag, sizeof frag,
			"/thread_table: no usable %s column; table ignored",
			col);
		ck_assert_msg(hostile_warned(p, frag), "no warning '%s'", frag);
		ck_assert_uint_eq(p->nthreads, 0);
	}
	sv_profile_free(p);
	free(raw);
	free(path);
}
END_TEST

/* A zlib stream of mib MiB of zeros, about 1 KB a MiB: one MiB compressed
 * after a full flush (byte-aligned, no reference before it) is the same
 * bytes every time, so the stream is the first MiB, the same MiB mib - 1
 * times more, the end of the stream and the checksum of them all. */
static unsigned char *chunk_bomb(unsigned mib, size_t *len)
{
	static unsigned char zeros[1 << 20];
	unsigned char first[4096], again[4096], end[64], *out;
	size_t nfirst, nagain, nend, at;
	z_stream z;
	uLong adler = adler32(0L, Z_NULL, 0);
	unsigned i;

	memset(&z, 0, sizeof z);
	ck_assert_int_eq(deflateInit(&z, 9), Z_OK);
	z.next_in = zeros;
	z.avail_in = sizeof zeros;
	z.next_out = first;
	z.avail_out = sizeof first;
	ck_assert_int_eq(deflate(&z, Z_FULL_FLUSH), Z_OK);
	ck_assert_uint_eq(z.avail_in, 0);
	nfirst = sizeof first - z.avail_out;
	z.next_in = zeros;
	z.avail_in = sizeof zeros;
	z.next_out = again;
	z.avail_out = sizeof again;
	ck_assert_int_eq(deflate(&z, Z_FULL_FLUSH), Z_OK);
	nagain = sizeof again - z.avail_out;
	z.next_out = end;
	z.avail_out = sizeof end;
	ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
	nend = sizeof end - z.avail_out - 4; /* without the checksum */
	deflateEnd(&z);
	for (i = 0; i < mib; i++)
		adler = adler32(adler, zeros, sizeof zeros);
	*len = nfirst + (size_t)(mib - 1) * nagain + nend + 4;
	out = malloc(*len);
	memcpy(out, first, nfirst);
	for (at = nfirst, i = 1; i < mib; i++, at += nagain)
		memcpy(out + at, again, nagain);
	memcpy(out + at, end, nend);
	at += nend;
	out[at++] = (unsigned char)(adler >> 24);
	out[at++] = (unsigned char)(adler >> 16);
	out[at++] = (unsigned char)(adler >> 8);
	out[at++] = (unsigned char)adler;
	return out;
}

/* It is a real bomb: zlib inflates it to mib MiB, checksum and all. */
static void chunk_bomb_check(const unsigned char *s, size_t len, unsigned mib)
{
	static unsigned char buf[1 << 20];
	z_stream z;
	uint64_t total = 0;
	int st;

	memset(&z, 0, sizeof z);
	ck_assert_int_eq(inflateInit(&z), Z_OK);
	z.next_in = (unsigned char *)s;
	z.avail_in = (uInt)len;
	do {
		z.next_out = buf;
		z.avail_out = sizeof buf;
		st = inflate(&z, Z_NO_FLUSH);
		total += sizeof buf - z.avail_out;
	} while (st == Z_OK);
	inflateEnd(&z);
	ck_assert_int_eq(st, Z_STREAM_END);
	ck_assert_uint_eq(total, (uint64_t)mib << 20);
}

/*
 * Issue 40's bomb: /events/durations of 3 values in one chunk of 1024
 * values (8 KiB declared), stored as a 1 MB deflate stream of 1 GB of
 * zeros (refused by its stored size: no encoding of 8 KiB takes 1 MB),
 * and one of 64 KB that inflates to 64 MB (refused by the bounded
 * inflate); each also as the first chunk of a column of 100000 values,
 * which the parallel decoder reads.  Case _i: bit 0 the 64 MB bomb, bit
 * 1 the long column.
 */
START_TEST(test_inflate_bomb)
{
	bool small = _i & 1, fast = _i & 2;
	unsigned mib = small ? 64 : 1024;
	uint64_t n = fast ? CHUNK_EVENTS : 3;
	char name[64], frag[300];
	char *path;
	size_t len;
	unsigned char *bomb = chunk_bomb(mib, &len);

	chunk_bomb_check(bomb, len, mib);
	snprintf(name, sizeof name, "bomb_%u_%llu.h5", mib,
		(unsigned long long)n);
	path = chunk_base(name, n);
	chunk_column(
		path, "durations", n, 1024, PIPE_DEFLATE, NULL, 0, bomb, len);
	if (small)
		snprintf(frag, sizeof frag,
			"/events/durations: cannot read: chunk 0 (values 0 to "
			"%d): the deflate stream inflates past the chunk's "
			"8192 bytes",
			fast ? 1023 : 2);
	else
		snprintf(frag, sizeof frag,
			"/events/durations: cannot read: chunk 0 (values 0 to "
			"%d): is stored in %zu bytes, more than any encoding "
			"of its 8192 bytes takes",
			fast ? 1023 : 2, len);
	chunk_refused(path, fast, frag);
	free(bomb);
	free(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("hostile");
	TCase *t = tcase_create("strings");
	TCase *l = tcase_create("links");
	TCase *a = tcase_create("amplification");
	TCase *c = tcase_create("chunks");

	/* "Within seconds": generous for the sanitizer and valgrind runs. */
	tcase_set_timeout(t, 60);
	tcase_set_timeout(l, 60);
	tcase_set_timeout(a, 60);
	tcase_add_test(t, test_vlen_understated_dataset);
	tcase_add_test(t, test_vlen_understated_attribute);
	tcase_add_test(t, test_vlen_bad_heap);
	tcase_add_test(l, test_external_link_fifo);
	tcase_add_test(l, test_external_link_group);
	tcase_add_test(l, test_vds_missing_source);
	tcase_add_test(l, test_vds_fifo_source);
	tcase_add_test(a, test_hard_links_read_once);
	tcase_add_test(a, test_chunk_bomb);
	tcase_add_test(a, test_duplicate_names);
	tcase_add_test(a, test_changed_while_read);
	suite_add_tcase(s, t);
	suite_add_tcase(s, l);
	tcase_set_timeout(c, 120);
	tcase_add_loop_test(c, test_chunk_size, 0, (int)CHUNK_NCASES * 2);
	tcase_add_test(c, test_chunk_unfiltered_short);
	tcase_add_loop_test(c, test_chunk_pipeline, 0,
		sizeof pipe_cases / sizeof pipe_cases[0]);
	tcase_add_loop_test(c, test_chunk_optional, 0, 2);
	tcase_add_loop_test(c, test_chunk_table, 0,
		sizeof chunk_table_cases / sizeof chunk_table_cases[0]);
	tcase_add_loop_test(c, test_inflate_bomb, 0, 4);
	suite_add_tcase(s, a);
	suite_add_tcase(s, c);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
