/*
 * test_load_writer.c: files of schemas 1, 2 and 3 made by scopeview's own
 * writer (write.h, as issue 3 asks) read back by the loader: schema 1's
 * per-rank groups (load_h5_groups.c) and the columnar schemas 2 and 3,
 * every column, row and metadata kind as written; and a schema 1 file
 * the writer cannot make (end_times shorter than start_times).
 */
#include <errno.h>
#include <hdf5.h>
#include <stdlib.h>

#include "helpers.h"
#include "load_files.h"

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
	char *path = lf_writer_file("w2.h5", 2);
	struct sv_profile *p = lf_load_ok(path);
	const struct sv_thread *t;
	int i;

	lf_dump_warnings(p);
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
		ck_assert_int_eq(p->start_ns[i], lf_wr_start2[i]);
		ck_assert_int_eq(sv_profile_end(p, i), lf_wr_end2[i]);
		ck_assert_int_eq(p->gpu_ns[i], lf_wr_gpu2[i]);
		ck_assert_int_eq(p->call_id[i], lf_wr_cid2[i]);
		ck_assert_int_eq(p->parent_id[i], lf_wr_pid2[i]);
		ck_assert_int_eq(p->thread_id[i], lf_wr_thread2[i]);
		ck_assert_int_eq(p->await_ns[i], lf_wr_await2[i]);
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
	char *path = lf_writer_file("w3.h5", 3);
	struct sv_profile *p = lf_load_ok(path);
	int i;

	ck_assert_int_eq(p->schema, 3);
	ck_assert_uint_eq(p->ncalls, 5);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(p->start_ns[i], lf_wr_start2[i]);
		ck_assert_int_eq(sv_profile_end(p, i), lf_wr_end2[i]);
	}
	ck_assert_int_eq(p->start_ns[4], 30);
	ck_assert_int_eq(sv_profile_end(p, 4), 35);
	sv_profile_free(p);
	free(path);
}
END_TEST

START_TEST(test_schema1_writer)
{
	char *path = lf_writer_file("w1.h5", 1);
	struct sv_profile *p;
	hid_t f;
	int i;

	/* Groups scope-profiler's reader counts or skips: a rank without
	 * regions still counts, a non-numeric "rankX" does not. */
	f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	ck_assert_int_ge(f, 0);
	H5Gclose(lf_h5_group(f, "rank3"));
	H5Gclose(lf_h5_group(f, "rankX"));
	H5Fclose(f);

	p = lf_load_ok(path);
	lf_dump_warnings(p);
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
		ck_assert_int_eq(p->start_ns[i], lf_wr_start2[2 + i]);
		ck_assert_int_eq(sv_profile_end(p, i), lf_wr_end2[2 + i]);
		ck_assert_int_eq(p->start_ns[2 + i], lf_wr_start2[i]);
		ck_assert_int_eq(sv_profile_end(p, 2 + i), lf_wr_end2[i]);
		ck_assert_int_eq(p->gpu_ns[2 + i], lf_wr_gpu2[i]);
		ck_assert_int_eq(p->call_id[2 + i], lf_wr_cid2[i]);
		ck_assert_int_eq(p->parent_id[2 + i], lf_wr_pid2[i]);
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
	hid_t f = lf_h5_create(path), r, g, c;
	int64_t s[] = {10, 20}, e[] = {15};

	r = lf_h5_group(f, "rank0");
	g = lf_h5_group(r, "regions");
	c = lf_h5_group(g, "c");
	lf_ds_ints(c, "start_times", H5T_STD_I64LE, s, 2);
	lf_ds_ints(c, "end_times", H5T_STD_I64LE, e, 1);
	H5Gclose(c);
	c = lf_h5_group(g, "d");
	lf_ds_ints(c, "start_times", H5T_STD_I64LE, s, 2);
	H5Gclose(c);
	H5Gclose(g);
	H5Gclose(r);
	H5Fclose(f);
	lf_expect_fail(path, -EINVAL,
		"/rank0/regions/c/end_times: holds 1 values, but start_times "
		"holds 2 events");

	f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	H5Ldelete(f, "rank0/regions/c", H5P_DEFAULT);
	H5Fclose(f);
	lf_expect_fail(path, -EINVAL,
		"/rank0/regions/d/end_times: required dataset is missing");
	free(path);
}
END_TEST

void lf_add_writer(Suite *s)
{
	TCase *t = tcase_create("writer");

	tcase_add_test(t, test_schema1_writer);
	tcase_add_test(t, test_schema1_short_end);
	tcase_add_test(t, test_schema2_writer);
	tcase_add_test(t, test_schema3_writer);
	suite_add_tcase(s, t);
}
