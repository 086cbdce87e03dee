/*
 * test_load_columnar.c: the two layouts with a /rank_region_index
 * (load_h5_layout.c): columnar, schemas 2 and 3, read through the index
 * (load_h5_index.c), the event columns (load_h5_events.c), the lane
 * tables (load_h5_tables.c) and the string readers (h5util_strings.c),
 * on the base file and the variants that load with or without a warning
 * (fixed-length strings, chunked, compact, rows out of order, extra
 * columns, invalid UTF-8); and the aggregate layout's per-row totals.
 */
#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "load_files.h"

/* Everything of the base file, and negative deltas decoded. */
START_TEST(test_schema3_base)
{
	char *path = lf_base_write("base.h5", M_NONE);
	struct sv_profile *p = lf_load_ok(path);
	const struct sv_row *r;

	lf_dump_warnings(p);
	ck_assert_uint_eq(p->nwarnings, 0);
	ck_assert_int_eq(p->schema, 3);
	ck_assert_int_eq(p->layout, SV_LAYOUT_COLUMNAR);
	ck_assert(p->has_calls);
	lf_check_base_calls(p);
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
	enum lf_mutation m;
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
	path = lf_base_write(name, c->m);
	p = lf_load_ok(path);
	if (c->warning) {
		if (!lf_has_warning(p, c->warning))
			lf_dump_warnings(p);
		ck_assert_msg(lf_has_warning(p, c->warning), "no warning '%s'",
			c->warning);
	} else {
		lf_dump_warnings(p);
		ck_assert_uint_eq(p->nwarnings, 0);
	}
	ck_assert_int_eq(p->layout, SV_LAYOUT_COLUMNAR);
	ck_assert_uint_eq(p->nrows, 3);
	ck_assert_uint_eq(p->ncalls, LF_BASE_EVENTS);
	switch (c->m) {
	case M_NO_SCHEMA:
		ck_assert_int_eq(p->schema, 0);
		lf_check_base_calls(p);
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
		lf_check_base_calls(p);
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
		lf_check_base_calls(p);
		break;
	case M_FIXED_STRINGS:
		lf_check_base_calls(p);
		ck_assert_str_eq(p->rows[0].source_file, "solver.py");
		ck_assert_str_eq(p->rows[0].tags[1], "hot");
		ck_assert_ptr_null(p->rows[1].source_file);
		break;
	case M_CHUNKED_DEFLATE:
	case M_COMPACT:
	case M_ROWS_UNORDERED:
		lf_check_base_calls(p);
		break;
	case M_EXTRA_COLS:
		lf_check_base_calls(p);
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
	char *path = lf_base_write("norows.h5", M_NO_ROWS);
	struct sv_profile *p = lf_load_ok(path);
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
	char *path = lf_base_write("lanes.h5", M_LANES);
	struct sv_profile *p = lf_load_ok(path);
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
	char *path = lf_base_write("sumonly.h5", M_NO_EVENTS);
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

/* Invalid UTF-8 in names and strings becomes U+FFFD. */
START_TEST(test_invalid_utf8)
{
	char *path = svt_tmp_path("utf8.h5");
	hid_t f = lf_h5_create(path), g;
	const char *names[] = {"bad\xff name", "caf\xc3\xa9"};
	const char *files[] = {"\xc3(.py", "ok.py"};
	int64_t z[] = {0, 1}, c[] = {1, 1}, o[] = {0, 1}, s[] = {1, 2};
	struct sv_profile *p;

	lf_attr_i64(f, "scope_profiler_schema", 2);
	g = lf_h5_group(f, "region_table");
	lf_ds_strs(g, "names", names, 2, 0);
	H5Gclose(g);
	g = lf_h5_group(f, "rank_region_index");
	lf_ds_ints(g, "region_ids", H5T_STD_U32LE, z, 2);
	lf_ds_ints(g, "ranks", H5T_STD_U32LE, (int64_t[]){0, 0}, 2);
	lf_ds_ints(g, "event_offsets", H5T_STD_U64LE, o, 2);
	lf_ds_ints(g, "event_counts", H5T_STD_U64LE, c, 2);
	lf_ds_strs(g, "source_files", files, 2, 8);
	H5Gclose(g);
	g = lf_h5_group(f, "events");
	lf_ds_ints(g, "start_times", H5T_STD_I64LE, s, 2);
	lf_ds_ints(g, "end_times", H5T_STD_I64LE, s, 2);
	H5Gclose(g);
	H5Fclose(f);
	p = lf_load_ok(path);
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

/* Long rows stored out of index order (and with a gap): each row's slice
 * is read into place; chunk boundaries fall inside rows. */
START_TEST(test_long_rows_unordered)
{
	enum { N = 1500, GAP = 7, TOTAL = 3 * N + GAP };
	char *path = svt_tmp_path("longrows.h5");
	hid_t f = lf_h5_create(path), g, dcpl;
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
	lf_attr_i64(f, "scope_profiler_schema", 3);
	g = lf_h5_group(f, "region_table");
	lf_ds_strs(g, "names", names, 3, 0);
	H5Gclose(g);
	g = lf_h5_group(f, "rank_region_index");
	lf_ds_ints(g, "region_ids", H5T_STD_U32LE, region, 3);
	lf_ds_ints(g, "ranks", H5T_STD_U32LE, rank, 3);
	lf_ds_ints(g, "event_offsets", H5T_STD_U64LE, off, 3);
	lf_ds_ints(g, "event_counts", H5T_STD_U64LE, cnt, 3);
	H5Gclose(g);
	g = lf_h5_group(f, "events");
	dcpl = H5Pcreate(H5P_DATASET_CREATE);
	H5Pset_chunk(dcpl, 1, &chunk);
	H5Pset_shuffle(dcpl);
	H5Pset_deflate(dcpl, 4);
	lf_ds_ints_dcpl(g, "start_deltas", H5T_STD_I64LE, deltas, TOTAL, dcpl);
	lf_ds_ints_dcpl(g, "durations", H5T_STD_I64LE, dur, TOTAL, dcpl);
	lf_ds_ints_dcpl(g, "await_ns", H5T_STD_I64LE, dur, TOTAL, dcpl);
	H5Pclose(dcpl);
	lf_ds_f64(g, "weight", extra, TOTAL);
	H5Gclose(g);
	H5Fclose(f);

	p = lf_load_ok(path);
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

/* ------------------------------------------------------------------ */
/* Aggregate layout                                                    */

START_TEST(test_aggregate)
{
	char *path = svt_tmp_path("agg.h5");
	hid_t f = lf_h5_create(path), g;
	const char *names[] = {"main", "solve"};
	int64_t region[] = {0, 1, 1}, rank[] = {0, 0, 1};
	int64_t cnt[] = {1, 10, 12}, tot[] = {1000, 600, 700};
	int64_t mn[] = {1000, 50, 40}, mx[] = {1000, 70, 90};
	int64_t ex[] = {400, 600, -1};
	struct sv_profile *p;

	lf_attr_i64(f, "scope_profiler_schema", 3);
	lf_attr_str(f, "storage_layout", "aggregate");
	g = lf_h5_group(f, "region_table");
	lf_ds_strs(g, "names", names, 2, 0);
	H5Gclose(g);
	g = lf_h5_group(f, "rank_region_index");
	lf_ds_ints(g, "region_ids", H5T_STD_U32LE, region, 3);
	lf_ds_ints(g, "ranks", H5T_STD_U32LE, rank, 3);
	lf_ds_ints(g, "aggregate_counts", H5T_STD_U64LE, cnt, 3);
	lf_ds_ints(g, "aggregate_totals", H5T_STD_I64LE, tot, 3);
	lf_ds_ints(g, "aggregate_minimums", H5T_STD_I64LE, mn, 3);
	lf_ds_ints(g, "aggregate_maximums", H5T_STD_I64LE, mx, 3);
	lf_ds_ints(g, "aggregate_exclusives", H5T_STD_I64LE, ex, 3);
	/* The per-call index columns exist with 0 rows (doc/format.md 7). */
	lf_ds_ints(g, "event_offsets", H5T_STD_U64LE, cnt, 0);
	lf_ds_ints(g, "event_counts", H5T_STD_U64LE, cnt, 0);
	H5Gclose(g);
	g = lf_h5_group(f, "events");
	lf_ds_ints(g, "start_deltas", H5T_STD_I64LE, cnt, 0);
	lf_ds_ints(g, "durations", H5T_STD_I64LE, cnt, 0);
	H5Gclose(g);
	H5Fclose(f);

	p = lf_load_ok(path);
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
	lf_expect_fail(path, -EINVAL,
		"/rank_region_index/aggregate_totals: required dataset is "
		"missing");
	free(path);
}
END_TEST

void lf_add_columnar(Suite *s)
{
	TCase *t = tcase_create("columnar");

	tcase_add_test(t, test_schema3_base);
	tcase_add_loop_test(t, test_loads_with_warning, 0,
		(int)(sizeof ok_cases / sizeof ok_cases[0]));
	tcase_add_test(t, test_no_rows);
	tcase_add_test(t, test_lanes);
	tcase_add_test(t, test_summary_only);
	tcase_add_test(t, test_invalid_utf8);
	tcase_add_test(t, test_long_rows_unordered);
	suite_add_tcase(s, t);

	t = tcase_create("aggregate");
	tcase_add_test(t, test_aggregate);
	suite_add_tcase(s, t);
}
