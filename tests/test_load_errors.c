/*
 * test_load_errors.c: the profiles the HDF5 loader refuses for what they
 * hold (load_h5_index.c, load_h5_events.c, h5util.c's dataset checks):
 * every malformed input of issue 2's table, each one mutation of the
 * base file, gets the right error code and a one-line message naming the
 * file and the HDF5 object; text from the file is escaped in it, and a
 * damaged compressed chunk is a read error, not a crash.
 */
#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "load_files.h"

struct fail_case {
	enum lf_mutation m;
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
	path = lf_base_write(name, c->m);
	lf_expect_fail(path, c->code, c->frag);
	free(path);
}
END_TEST

/* Text from the file reaches messages with its control characters shown,
 * never raw (an escape sequence would reach the terminal via stderr). */
START_TEST(test_message_escapes)
{
	char *path = svt_tmp_path("escape.h5");
	hid_t f = lf_h5_create(path), g;
	const char *names[] = {"evil\x1b[2J\x07"};
	int64_t z[] = {0, 0}, c[] = {1, 1}, o[] = {0, 1}, s[] = {1, 2};

	lf_attr_i64(f, "scope_profiler_schema", 3);
	g = lf_h5_group(f, "region_table");
	lf_ds_strs(g, "names", names, 1, 0);
	H5Gclose(g);
	g = lf_h5_group(f, "rank_region_index");
	lf_ds_ints(g, "region_ids", H5T_STD_U32LE, z, 2);
	lf_ds_ints(g, "ranks", H5T_STD_U32LE, z, 2);
	lf_ds_ints(g, "event_offsets", H5T_STD_U64LE, o, 2);
	lf_ds_ints(g, "event_counts", H5T_STD_U64LE, c, 2);
	H5Gclose(g);
	g = lf_h5_group(f, "events");
	lf_ds_ints(g, "start_deltas", H5T_STD_I64LE, s, 2);
	lf_ds_ints(g, "durations", H5T_STD_I64LE, s, 2);
	H5Gclose(g);
	H5Fclose(f);
	lf_expect_fail(path, -EINVAL, "region 'evil\\x1b[2J\\x07'");
	free(path);
}
END_TEST

/* A compressed chunk whose bytes were damaged: a read error naming the
 * dataset, not a crash. */
START_TEST(test_corrupt_chunk)
{
	char *path = lf_base_write("corrupt.h5", M_CHUNKED_DEFLATE);
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
	lf_expect_fail(path, -EIO, "/events/start_deltas: cannot read");
	free(path);
}
END_TEST

void lf_add_errors(Suite *s)
{
	TCase *t = tcase_create("malformed");

	tcase_add_loop_test(t, test_malformed, 0,
		(int)(sizeof fail_cases / sizeof fail_cases[0]));
	tcase_add_test(t, test_message_escapes);
	tcase_add_test(t, test_corrupt_chunk);
	suite_add_tcase(s, t);
}
