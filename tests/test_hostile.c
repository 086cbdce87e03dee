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

static Suite *suite(void)
{
	Suite *s = suite_create("hostile");
	TCase *t = tcase_create("strings");
	TCase *l = tcase_create("links");
	TCase *a = tcase_create("amplification");

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
	suite_add_tcase(s, a);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
