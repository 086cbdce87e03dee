/*
 * test_tables.c: the lane tables /thread_table and /task_table and the
 * line profiles at the cost of what they hold (issue 42;
 * src/io/load_h5_tables.c, load_h5_ranks.c).  A
 * `scopeview gen` profile with thread and task ids gets tables written
 * here with HDF5: which rows are kept (in range, named by a lane, first
 * of their rank and index) and which are left out, with one warning a
 * table; kept rows far apart in a long chunked table; a thread named
 * only by a task; and the scale: 1M and 4M ignored rows, whose load
 * takes about 4 times as long (process CPU time, the least of three
 * runs; a ratio of 8 fails, as in test_scale) and whose memory stays
 * that of a small table (the reader's own count of the bytes it holds,
 * sv_h5_tables_peak: RSS would say nothing, as the load reuses pages the
 * test process freed before).
 */
#include <errno.h>
#include <hdf5.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../src/io/load_h5_priv.h" /* sv_h5_tables_peak */
#include "helpers.h"
#include "scopeview/gen.h"
#include "scopeview/load.h"
#include "scopeview/profile.h"

/* A gen profile of 2 ranks x 2 threads (x 2 tasks when tasks) with
 * thread and task ids, at a new temporary path. */
static char *tables_base(const char *name, bool tasks, bool ids)
{
	struct sv_gen_opts o;
	struct sv_error err = {0};
	char *path = svt_tmp_path(name);

	sv_gen_opts_init(&o);
	o.ranks = 2;
	o.threads = ids ? 2 : 1;
	o.tasks = tasks ? 2 : 0;
	o.events = 2000;
	o.track_threads = ids;
	ck_assert_msg(
		sv_gen_write(path, &o, NULL, NULL, &err) == 0, "%s", err.msg);
	return path;
}

/* Open path and give group gname of it, emptied (made anew). */
static hid_t tables_group(const char *path, const char *gname, hid_t *file)
{
	hid_t g;

	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	*file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	ck_assert_int_ge(*file, 0);
	if (H5Lexists(*file, gname, H5P_DEFAULT) > 0)
		ck_assert_int_ge(H5Ldelete(*file, gname, H5P_DEFAULT), 0);
	g = H5Gcreate2(*file, gname, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	ck_assert_int_ge(g, 0);
	return g;
}

/* A dataset of n values v (NULL: value(i) = fill) stored as ftype, in
 * deflated chunks of chunk values (0: contiguous). */
static void tables_ints(hid_t g, const char *name, hid_t ftype,
	const int64_t *v, int64_t fill, hsize_t n, hsize_t chunk)
{
	hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
	hid_t s = H5Screate_simple(1, &n, NULL), d;
	hsize_t off, step = chunk ? chunk : n;
	int64_t *buf = malloc((size_t)step * sizeof *buf);

	if (chunk) {
		H5Pset_chunk(dcpl, 1, &chunk);
		H5Pset_deflate(dcpl, 9);
	}
	d = H5Dcreate2(g, name, ftype, s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	ck_assert_int_ge(d, 0);
	for (off = 0; off < n; off += step) {
		hsize_t k = n - off < step ? n - off : step, i;
		hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &k, NULL);
		for (i = 0; i < k; i++)
			buf[i] = v ? v[off + i] : fill;
		H5Sselect_hyperslab(fs, H5S_SELECT_SET, &off, NULL, &k, NULL);
		ck_assert_int_ge(
			H5Dwrite(d, H5T_NATIVE_INT64, ms, fs, H5P_DEFAULT, buf),
			0);
		H5Sclose(ms);
		H5Sclose(fs);
	}
	free(buf);
	H5Dclose(d);
	H5Sclose(s);
	H5Pclose(dcpl);
}

/* Variable-length strings, in deflated chunks of chunk. */
static void tables_strs(hid_t g, const char *name, const char *const *v,
	hsize_t n, hsize_t chunk)
{
	hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
	hid_t s = H5Screate_simple(1, &n, NULL), t = H5Tcopy(H5T_C_S1), d;

	H5Tset_size(t, H5T_VARIABLE);
	H5Tset_cset(t, H5T_CSET_UTF8);
	H5Pset_chunk(dcpl, 1, &chunk);
	H5Pset_deflate(dcpl, 6);
	d = H5Dcreate2(g, name, t, s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	ck_assert_int_ge(d, 0);
	ck_assert_int_ge(H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v), 0);
	H5Dclose(d);
	H5Tclose(t);
	H5Sclose(s);
	H5Pclose(dcpl);
}

static struct sv_profile *tables_load(const char *path)
{
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	ck_assert_msg(sv_load(path, NULL, &p, &err) == 0, "%s", err.msg);
	return p;
}

/* The warnings that name table gname ("/thread_table"). */
static size_t tables_warnings(
	const struct sv_profile *p, const char *gname, const char **last)
{
	size_t i, n = 0;
	for (i = 0; i < p->nwarnings; i++)
		if (strstr(p->warnings[i], gname)) {
			n++;
			*last = p->warnings[i];
		}
	return n;
}

/* ------------------------------------------------------------------ */

/* Rows of a thread table of 200,000: the first ten say what each kind
 * of row does, the rest repeat (0, 0) but for the last, (1, 1). */
#define ROWS_N 200000
static const struct {
	int64_t rank, index;
	const char *name;
} rows_head[] = {
	{0, 0, "main0"},        /* kept */
	{0, 1, "worker0"},      /* kept */
	{-1, 0, "bad"},         /* a rank out of range */
	{0, -2, "neg"},         /* a negative index */
	{0, 0, "again"},        /* repeated, out of order: the hash */
	{1, 0, "main1"},        /* kept */
	{1, 7, "idle"},         /* no call has thread id 7: left, silently */
	{9, 0, "no rank"},      /* no row of rank 9: left, silently */
	{1, 0, "dup1"},         /* repeated */
	{4294967296, 0, "big"}, /* a rank out of range */
};

START_TEST(test_rows_kept_and_ignored)
{
	/* given a profile whose calls use threads 0 and 1 of ranks 0 and 1,
	 * and a table of 200,000 rows in chunks of 4096 */
	char *path = tables_base("rows.h5", false, true);
	size_t nh = sizeof rows_head / sizeof rows_head[0], i;
	int64_t *rank = malloc(ROWS_N * sizeof *rank);
	int64_t *index = malloc(ROWS_N * sizeof *index);
	int64_t *ident = malloc(ROWS_N * sizeof *ident);
	const char **name = malloc(ROWS_N * sizeof *name);
	const struct sv_thread *t;
	const char *w = NULL;
	struct sv_profile *p;
	hid_t f, g;

	for (i = 0; i < ROWS_N; i++) {
		rank[i] = i < nh ? rows_head[i].rank : 0;
		index[i] = i < nh ? rows_head[i].index : 0;
		name[i] = i < nh ? rows_head[i].name : "filler";
		ident[i] = (int64_t)i * 10;
	}
	rank[ROWS_N - 1] = 1;
	index[ROWS_N - 1] = 1;
	name[ROWS_N - 1] = "worker1";
	g = tables_group(path, "thread_table", &f);
	tables_ints(g, "ranks", H5T_STD_I64LE, rank, 0, ROWS_N, 4096);
	tables_ints(g, "index", H5T_STD_I64LE, index, 0, ROWS_N, 4096);
	tables_ints(g, "ident", H5T_STD_I64LE, ident, 0, ROWS_N, 4096);
	tables_strs(g, "name", name, ROWS_N, 4096);
	H5Gclose(g);
	H5Fclose(f);

	/* when it is loaded */
	p = tables_load(path);

	/* then the four threads a lane names are kept, each from its
	 * first row, with the values of that row, far apart as they are */
	ck_assert_uint_eq(p->nthreads, 4);
	t = sv_profile_thread(p, 0, 0);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(t->name, "main0");
	ck_assert_int_eq(t->ident, 0);
	t = sv_profile_thread(p, 0, 1);
	ck_assert_str_eq(t->name, "worker0");
	ck_assert_int_eq(t->ident, 10);
	t = sv_profile_thread(p, 1, 0);
	ck_assert_str_eq(t->name, "main1");
	ck_assert_int_eq(t->ident, 50);
	t = sv_profile_thread(p, 1, 1);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(t->name, "worker1");
	ck_assert_int_eq(t->ident, (int64_t)(ROWS_N - 1) * 10);
	ck_assert_int_eq(t->native_id, -1); /* no such column: the fill */
	ck_assert_ptr_null(sv_profile_thread(p, 1, 7));
	/* and one warning says what was left out and why; the rows no lane
	 * names are not counted as damage */
	ck_assert_uint_eq(tables_warnings(p, "/thread_table", &w), 1);
	ck_assert_str_eq(w,
		"/thread_table: 199994 of 200000 rows ignored: 2 with a rank "
		"out of range (the first: -1), 1 with a negative index (the "
		"first: -2), 199991 repeating a rank and index of an earlier "
		"row");
	/* the lanes have the names */
	for (i = 0; i < p->nlanes; i++)
		if (p->lanes[i].rank == 1 && p->lanes[i].thread == 1)
			ck_assert_str_eq(p->lanes[i].label, "r1 worker1");
	sv_profile_free(p);
	free(rank);
	free(index);
	free(ident);
	free(name);
	free(path);
}
END_TEST

START_TEST(test_task_names_thread)
{
	/* given tasks 0-3 of each rank on threads 0 and 1, but task 0 of
	 * rank 0 said to run on thread 5, which no call's thread id is */
	char *path = tables_base("tasks.h5", true, true);
	int64_t kr[] = {0, 0, 0, 0, 1, 1, 1, 1},
		ki[] = {0, 1, 2, 3, 0, 1, 2, 3};
	int64_t kt[] = {5, 0, 1, 1, 0, 0, 1, 1};
	int64_t tr[] = {0, 0, 0, 1, 1}, ti[] = {0, 1, 5, 0, 1};
	const char *kn[] = {"fetch", "b", "c", "d", "e", "f", "g", "h"};
	const char *tn[] = {"MainThread", "w1", "loop-5", "MainThread", "w1"};
	const struct sv_thread *t;
	struct sv_profile *p;
	const char *w = NULL;
	hid_t f, g;
	size_t i;
	bool seen = false;

	g = tables_group(path, "task_table", &f);
	tables_ints(g, "ranks", H5T_STD_U32LE, kr, 0, 8, 0);
	tables_ints(g, "index", H5T_STD_I64LE, ki, 0, 8, 0);
	tables_ints(g, "thread_index", H5T_STD_I64LE, kt, 0, 8, 0);
	tables_strs(g, "name", kn, 8, 8);
	H5Gclose(g);
	H5Fclose(f);
	g = tables_group(path, "thread_table", &f);
	tables_ints(g, "ranks", H5T_STD_U32LE, tr, 0, 5, 0);
	tables_ints(g, "index", H5T_STD_I64LE, ti, 0, 5, 0);
	tables_strs(g, "name", tn, 5, 5);
	H5Gclose(g);
	H5Fclose(f);

	/* when loaded, then thread 5 of rank 0 is kept for the task's
	 * lane, which names it; nothing is warned about */
	p = tables_load(path);
	ck_assert_uint_eq(p->ntasks, 8);
	t = sv_profile_thread(p, 0, 5);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(t->name, "loop-5");
	ck_assert_uint_eq(tables_warnings(p, "_table", &w), 0);
	for (i = 0; i < p->nlanes; i++)
		if (p->lanes[i].rank == 0 && p->lanes[i].task == 0) {
			ck_assert_ptr_nonnull(
				strstr(p->lanes[i].label, "fetch"));
			ck_assert_ptr_nonnull(
				strstr(p->lanes[i].label, "on loop-5"));
			seen = true;
		}
	ck_assert(seen);
	sv_profile_free(p);
	free(path);
}
END_TEST

START_TEST(test_no_ids_thread_zero)
{
	/* given a profile whose calls have no thread ids, and a table of
	 * valid rows: every call of a rank is on its thread 0, whose row
	 * is kept (it names the lane); the others no lane can name, left
	 * out, and none is damage */
	char *path = tables_base("noids.h5", false, false);
	int64_t r[] = {0, 0, 1}, x[] = {0, 1, 0};
	struct sv_profile *p;
	const char *w = NULL;
	hid_t f, g = tables_group(path, "thread_table", &f);

	tables_ints(g, "ranks", H5T_STD_U32LE, r, 0, 3, 0);
	tables_ints(g, "index", H5T_STD_I64LE, x, 0, 3, 0);
	H5Gclose(g);
	H5Fclose(f);
	p = tables_load(path);
	ck_assert_uint_eq(p->nthreads, 2);
	ck_assert_int_eq(p->threads[0].index, 0);
	ck_assert_int_eq(p->threads[1].index, 0);
	ck_assert_uint_ne(p->threads[0].rank, p->threads[1].rank);
	ck_assert_uint_eq(tables_warnings(p, "/thread_table", &w), 0);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* rank0/line_profile/0 of region solve added to path: n lines, from
 * the arrays (NULL: line 0, hits 1, time 1 each, a constant column) in
 * deflated chunks of at most 2^20. */
static void tables_lineprof(const char *path, const int64_t *line,
	const int64_t *hits, const double *time, size_t n)
{
	hid_t f, r, lp, g, dcpl, s, d;
	hsize_t hn = n, chunk = n < ((size_t)1 << 20) ? n : (hsize_t)1 << 20;
	double *t = malloc(n * sizeof *t);
	size_t i;

	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	ck_assert_int_ge(f, 0);
	r = H5Gcreate2(f, "rank0", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	lp = H5Gcreate2(
		r, "line_profile", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	g = H5Gcreate2(lp, "0", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
	ck_assert_int_ge(g, 0);
	tables_ints(g, "line_numbers", H5T_STD_I64LE, line, 0, n, chunk);
	tables_ints(g, "hits", H5T_STD_I64LE, hits, 1, n, chunk);
	for (i = 0; i < n; i++)
		t[i] = time ? time[i] : 1;
	dcpl = H5Pcreate(H5P_DATASET_CREATE);
	H5Pset_chunk(dcpl, 1, &chunk);
	H5Pset_deflate(dcpl, 9);
	s = H5Screate_simple(1, &hn, NULL);
	d = H5Dcreate2(
		g, "times", H5T_IEEE_F64LE, s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	ck_assert_int_ge(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
				 H5P_DEFAULT, t),
		0);
	H5Dclose(d);
	H5Sclose(s);
	H5Pclose(dcpl);
	free(t);
	H5Gclose(g);
	H5Gclose(lp);
	H5Gclose(r);
	H5Fclose(f);
}

START_TEST(test_line_profile_rows)
{
	/* given a line profile whose rows are each of one kind */
	char *path = tables_base("lines.h5", false, false);
	const int64_t line[] = {7, 0, 8, 9, 7, 10, 3};
	const int64_t hits[] = {3, 1, -1, 2, 5, 0, 1};
	const double time[] = {30, 1, 1, 0.0 / 0.0, 5, 0, -2};
	const struct sv_line_profile *l;
	struct sv_profile *p;
	const char *w = NULL;

	tables_lineprof(path, line, hits, time, 7);
	p = tables_load(path);

	/* then lines 7 (its first row) and 10 are kept */
	ck_assert_uint_eq(p->nlineprofs, 1);
	l = &p->lineprofs[0];
	ck_assert_uint_eq(l->nlines, 2);
	ck_assert_int_eq(l->line[0], 7);
	ck_assert_int_eq(l->hits[0], 3);
	ck_assert(l->time[0] == 30);
	ck_assert_int_eq(l->line[1], 10);
	ck_assert_int_eq(l->hits[1], 0);
	/* and one warning says why each other was left out */
	ck_assert_uint_eq(tables_warnings(p, "/rank0/line_profile/0", &w), 1);
	ck_assert_str_eq(w,
		"/rank0/line_profile/0: 5 of 7 lines ignored: 1 with a line "
		"number below 1 (the first: 0), 1 with a negative hit count, 2 "
		"with a time that is negative or not a number, 1 repeating a "
		"line number");
	sv_profile_free(p);
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Scale                                                               */

/* A profile with a thread table of n rows of rank -1 (ranks of type
 * ftype: int64 holds -1, uint32 4294967295), in deflated chunks of
 * 2^20 values, constant columns: a file of a few hundred KB. */
static char *tables_big(size_t n, hid_t ftype, const char *name)
{
	char *path = tables_base(name, false, true);
	hid_t f, g = tables_group(path, "thread_table", &f);
	hsize_t chunk = n < ((size_t)1 << 20) ? n : (hsize_t)1 << 20;

	tables_ints(g, "ranks", ftype, NULL,
		H5Tget_size(ftype) == 4 ? (int64_t)UINT32_MAX : -1, n, chunk);
	tables_ints(g, "index", H5T_STD_I64LE, NULL, 0, n, chunk);
	H5Gclose(g);
	H5Fclose(f);
	return path;
}

static double tables_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds of loading path, the least of three. */
static double tables_time(const char *path)
{
	double best = 0;
	int i;
	for (i = 0; i < 3; i++) {
		double t0 = tables_cpu(), t;
		struct sv_profile *p = tables_load(path);
		t = tables_cpu() - t0;
		sv_profile_free(p);
		if (i == 0 || t < best)
			best = t;
	}
	return best;
}

static const struct {
	const char *what;
	bool u32;
} scale_cases[] = {
	{"int64 ranks -1", false},
	{"uint32 ranks 4294967295", true},
};

START_TEST(test_scale)
{
	hid_t ft = scale_cases[_i].u32 ? H5T_STD_U32LE : H5T_STD_I64LE;
	char *small = tables_big((size_t)1 << 20, ft, "scale1.h5");
	char *big = tables_big((size_t)1 << 22, ft, "scale4.h5");
	struct sv_profile *p = tables_load(big);
	const char *w = NULL;
	double a, b, ratio;
	uint64_t peak1, peak4;

	/* one warning for 4M (2^22) rows */
	ck_assert_uint_eq(tables_warnings(p, "/thread_table", &w), 1);
	ck_assert_ptr_nonnull(strstr(w, "4194304 of 4194304 rows ignored"));
	ck_assert_uint_eq(p->nthreads, 0);
	sv_profile_free(p);

	/* 4 times the rows, about 4 times the work */
	a = tables_time(small);
	b = tables_time(big);
	ratio = b / (a > 1e-3 ? a : 1e-3);
	fprintf(stderr,
		"tables %s: 1M rows %.4f s, 4M rows %.4f s, ratio %.2f\n",
		scale_cases[_i].what, a, b, ratio);
	ck_assert_msg(ratio < 8, "4x the rows took %.1fx the time", ratio);

	/* memory, by the reader's own count: two slices of one chunk
	 * (2^20 values), whatever the rows ignored; 16 bytes a row read
	 * would be 64 MiB here, and the old loader held about 100 */
	p = tables_load(small);
	peak1 = sv_h5_tables_peak();
	sv_profile_free(p);
	p = tables_load(big);
	peak4 = sv_h5_tables_peak();
	sv_profile_free(p);
	fprintf(stderr,
		"tables %s: the reader held at most %" PRIu64 " bytes for 1M "
		"rows, %" PRIu64 " for 4M\n",
		scale_cases[_i].what, peak1, peak4);
	ck_assert_uint_gt(peak1, 0);
	ck_assert_uint_le(peak4, peak1 + 65536);
	ck_assert_uint_lt(peak4, (uint64_t)20 << 20);
	free(small);
	free(big);
}
END_TEST

START_TEST(test_scale_line_profile)
{
	/* a line profile of 1M and of 4M lines numbered 0 */
	char *small = tables_base("lp1.h5", false, false);
	char *big = tables_base("lp4.h5", false, false);
	struct sv_profile *p;
	const char *w = NULL;
	double a, b, ratio;

	tables_lineprof(small, NULL, NULL, NULL, (size_t)1 << 20);
	tables_lineprof(big, NULL, NULL, NULL, (size_t)1 << 22);
	p = tables_load(big);
	ck_assert_uint_eq(tables_warnings(p, "line_profile", &w), 1);
	ck_assert_ptr_nonnull(strstr(w, "4194304 of 4194304 lines ignored"));
	ck_assert_uint_eq(p->lineprofs[0].nlines, 0);
	sv_profile_free(p);
	a = tables_time(small);
	b = tables_time(big);
	ratio = b / (a > 1e-3 ? a : 1e-3);
	fprintf(stderr,
		"tables line profile: 1M lines %.4f s, 4M lines %.4f s, "
		"ratio %.2f\n",
		a, b, ratio);
	ck_assert_msg(ratio < 8, "4x the lines took %.1fx the time", ratio);
	free(small);
	free(big);
}
END_TEST

static Suite *tables_suite(void)
{
	Suite *s = suite_create("tables");
	TCase *t = tcase_create("rows");
	tcase_add_test(t, test_rows_kept_and_ignored);
	tcase_add_test(t, test_task_names_thread);
	tcase_add_test(t, test_no_ids_thread_zero);
	tcase_add_test(t, test_line_profile_rows);
	suite_add_tcase(s, t);
	t = tcase_create("scale");
	tcase_add_loop_test(t, test_scale, 0,
		(int)(sizeof scale_cases / sizeof scale_cases[0]));
	tcase_add_test(t, test_scale_line_profile);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(tables_suite());
}
