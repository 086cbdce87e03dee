/*
 * test_load_fixtures.c: the real scope-profiler files in tests/fixtures,
 * every schema and layout: each loads with the schema, layout, rows and
 * figures its NAME.expected.json gives (what scope-profiler's reader
 * reported), packing the columns changes no call's figure, and every
 * fixture in the directory is in the table here.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "load_files.h"
#include "scopeview/common.h"

/* Each fixture's schema and layout (what the file is, from
 * tests/fixtures/README.md); every figure checked comes from the
 * fixture's NAME.expected.json, what scope-profiler's reader reported. */
struct fixture_case {
	const char *file;
	int schema;
	enum sv_layout_kind layout;
};

static const struct fixture_case fixtures[] = {
	{"aggregate_layout.h5", 3, SV_LAYOUT_AGGREGATE},
	{"four_ranks.h5", 3, SV_LAYOUT_COLUMNAR},
	{"gpu_likwid_perf_lineprof.h5", 3, SV_LAYOUT_COLUMNAR},
	{"hdf5-schema-1.h5", 0, SV_LAYOUT_GROUPS},
	{"hdf5-schema-2.h5", 2, SV_LAYOUT_COLUMNAR},
	{"hdf5-schema-3.h5", 3, SV_LAYOUT_COLUMNAR},
	{"lanes_rebuilt_exclusive.h5", 3, SV_LAYOUT_COLUMNAR},
	{"large_auto_gzip.h5", 3, SV_LAYOUT_COLUMNAR},
	{"legacy_schema1.h5", 0, SV_LAYOUT_GROUPS},
	{"no_call_ids.h5", 3, SV_LAYOUT_COLUMNAR},
	{"schema2_ties_zero_length.h5", 2, SV_LAYOUT_COLUMNAR},
	{"single_rank_nested.h5", 3, SV_LAYOUT_COLUMNAR},
	{"threads_tasks.h5", 3, SV_LAYOUT_COLUMNAR},
	{"unrepacked_chunked.h5", 3, SV_LAYOUT_COLUMNAR},
};

/* NAME.expected.json for fixture NAME.h5 (json_decref it). */
static json_t *expected_for(const char *file)
{
	size_t n = strlen(file);
	char *base = sv_xasprintf("%.*s", (int)(n > 3 ? n - 3 : n), file);
	char *path =
		sv_xasprintf("%s/%s.expected.json", svt_fixtures_dir(), base);
	json_error_t jerr;
	json_t *exp = json_load_file(path, 0, &jerr);

	ck_assert_msg(exp != NULL, "%s: %s", path, jerr.text);
	free(path);
	free(base);
	return exp;
}

/* An integer member of a JSON object (must be there). */
static json_int_t json_int(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	ck_assert_msg(json_is_integer(v), "no integer '%s'", key);
	return json_integer_value(v);
}

static const struct sv_row *row_of(
	const struct sv_profile *p, uint32_t rank, uint32_t region)
{
	size_t i;
	for (i = 0; i < p->nrows; i++)
		if (p->rows[i].rank == rank && p->rows[i].region == region)
			return &p->rows[i];
	return NULL;
}

/* Packing the columns (what the viewer does once a profile is loaded:
 * starts, durations, nesting, exclusive times and ids) changes no call's
 * figures. */
enum { PACK_FIGS = 9 + SV_ID_COLUMNS };
static void pack_figures(const struct sv_profile *p, uint32_t c, int64_t *v)
{
	int k;
	bool nest = sv_profile_has_nesting(p);
	v[0] = sv_profile_start(p, c);
	v[1] = sv_profile_end(p, c);
	v[2] = sv_call_duration(p, c);
	v[3] = nest ? (int64_t)sv_profile_depth(p, c) : -1;
	v[4] = nest ? (int64_t)sv_profile_parent(p, c) : -1;
	v[5] = sv_profile_has_exclusive(p) ? sv_profile_exclusive(p, c) : -1;
	v[6] = sv_profile_has_lanes(p) ? (int64_t)sv_call_lane(p, c) : -1;
	v[7] = sv_profile_gpu(p, c);
	v[8] = sv_profile_has_await(p) ? sv_profile_await(p, c) : -7;
	for (k = 0; k < SV_ID_COLUMNS; k++)
		v[9 + k] = sv_profile_has_id(p, (enum sv_id_column)k)
				   ? sv_profile_id(p, (enum sv_id_column)k, c)
				   : -1;
}

static void check_pack_keeps(struct sv_profile *p)
{
	uint32_t n = p->ncalls, c;
	int64_t *keep = malloc(((size_t)n * PACK_FIGS + 1) * sizeof *keep);
	int64_t now[PACK_FIGS];
	bool nest = sv_profile_has_nesting(p),
	     excl = sv_profile_has_exclusive(p);
	bool gpu = sv_profile_has_gpu(p), await = sv_profile_has_await(p);
	int k;

	ck_assert_ptr_nonnull(keep);
	for (c = 0; c < n; c++)
		pack_figures(p, c, keep + (size_t)c * PACK_FIGS);
	sv_profile_pack(p);
	if (n && sv_profile_has_lanes(p))
		ck_assert(!p->start_ns && !p->dur && !p->parent && !p->depth &&
			  !p->exclusive && !p->lane_of && !p->gpu_ns &&
			  !p->await_ns);
	ck_assert(sv_profile_has_nesting(p) == nest);
	ck_assert(sv_profile_has_gpu(p) == gpu);
	ck_assert(sv_profile_has_await(p) == await);
	ck_assert(sv_profile_has_exclusive(p) == excl);
	for (c = 0; c < n; c++) {
		pack_figures(p, c, now);
		for (k = 0; k < PACK_FIGS; k++)
			ck_assert_int_eq(
				now[k], keep[(size_t)c * PACK_FIGS + k]);
	}
	free(keep);
}

START_TEST(test_fixture)
{
	const struct fixture_case *c = &fixtures[_i];
	char *path = svt_fixture(c->file);
	json_t *exp = expected_for(c->file), *regions, *reg;
	const char *name;
	struct sv_profile *p;
	size_t nrows = 0;
	uint64_t ncalls = 0;

	p = lf_load_ok(path);
	ck_assert_int_eq(p->schema, c->schema);
	ck_assert_int_eq(p->layout, c->layout);
	ck_assert(p->has_calls == (c->layout != SV_LAYOUT_AGGREGATE));
	regions = json_object_get(exp, "regions");
	ck_assert_uint_eq(p->nregions, json_object_size(regions));
	ck_assert_uint_eq(p->num_ranks, json_int(exp, "num_ranks"));
	/* one row per (region, rank) scope-profiler lists, holding its
	 * calls, from its earliest start to its latest end */
	json_object_foreach(regions, name, reg)
	{
		int64_t region = sv_profile_find_region(p, name);
		const char *rank;
		json_t *r;

		ck_assert_msg(region >= 0, "%s: no region %s", c->file, name);
		json_object_foreach(json_object_get(reg, "ranks"), rank, r)
		{
			const struct sv_row *row = row_of(
				p, (uint32_t)atoi(rank), (uint32_t)region);
			uint64_t n = (uint64_t)json_int(r, "num_calls");

			ck_assert_msg(row != NULL, "%s: no row for %s rank %s",
				c->file, name, rank);
			ck_assert_uint_eq(row->count, n);
			nrows++;
			if (!p->has_calls || !n)
				continue;
			ncalls += n;
			{
				int64_t lo = sv_profile_start(
						p, (uint32_t)row->first),
					hi = sv_profile_end(
						p, (uint32_t)row->first);
				uint32_t k;
				for (k = (uint32_t)row->first;
					k < row->first + n; k++) {
					if (sv_profile_start(p, k) < lo)
						lo = sv_profile_start(p, k);
					if (sv_profile_end(p, k) > hi)
						hi = sv_profile_end(p, k);
				}
				if (json_object_get(r, "first_start_ns"))
					ck_assert_int_eq(lo,
						json_int(r, "first_start_ns"));
				if (json_object_get(r, "last_end_ns"))
					ck_assert_int_eq(
						hi, json_int(r, "last_end_ns"));
			}
		}
	}
	ck_assert_uint_eq(p->nrows, nrows);
	ck_assert_uint_eq(p->ncalls, ncalls);
	/* Fixtures are valid: no loader warnings (nesting warnings from the
	 * lanes of threads_tasks.h5 are profile.c's). */
	{
		size_t i;
		for (i = 0; i < p->nwarnings; i++)
			ck_assert_msg(!strncmp(p->warnings[i], "rank ", 5),
				"%s: unexpected warning: %s", c->file,
				p->warnings[i]);
	}
	check_pack_keeps(p);
	json_decref(exp);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* Every fixture in the directory is in the table above. */
START_TEST(test_fixture_table_complete)
{
	const char *dir = svt_fixtures_dir();
	char cmd[4200];
	FILE *ls;
	char line[512];
	int found = 0;

	snprintf(cmd, sizeof cmd, "ls '%s'", dir);
	ls = popen(cmd, "r");
	ck_assert_ptr_nonnull(ls);
	while (fgets(line, sizeof line, ls)) {
		size_t n = strlen(line), i;
		bool known = false;
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (n < 3 || strcmp(line + n - 3, ".h5"))
			continue;
		for (i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++)
			if (!strcmp(fixtures[i].file, line))
				known = true;
		ck_assert_msg(known,
			"fixture %s is not in test_load_fixtures.c's table",
			line);
		found++;
	}
	pclose(ls);
	ck_assert_int_eq(found, (int)(sizeof fixtures / sizeof fixtures[0]));
}
END_TEST

/* Extra: threads_tasks.h5's lane tables and gpu fixture's per-row rule. */
START_TEST(test_fixture_details)
{
	char *path = svt_fixture("threads_tasks.h5");
	struct sv_profile *p = lf_load_ok(path);
	json_t *exp = expected_for("threads_tasks.h5"), *reg;
	const char *name;
	size_t r, nthreads = 0, ntasks = 0;
	bool any_gpu = false, any_nogpu = false, seen[64] = {false};
	bool seen_task[64] = {false};

	/* the lane tables hold every thread and task scope-profiler saw */
	json_object_foreach(json_object_get(exp, "regions"), name, reg)
	{
		const char *rank;
		json_t *rr, *v;
		size_t i;
		json_object_foreach(json_object_get(reg, "ranks"), rank, rr)
		{
			json_array_foreach(json_object_get(rr, "threads"), i, v)
			{
				json_int_t t = json_integer_value(v);
				if (t >= 0 && t < 64 && !seen[t]) {
					seen[t] = true;
					nthreads++;
				}
			}
			json_array_foreach(
				json_object_get(rr, "task_ids_distinct"), i, v)
			{
				json_int_t t = json_integer_value(v);
				if (t >= 0 && t < 64 && !seen_task[t]) {
					seen_task[t] = true;
					ntasks++;
				}
			}
		}
	}
	json_decref(exp);
	ck_assert_uint_gt(nthreads, 1);
	ck_assert_uint_eq(p->nthreads, nthreads);
	ck_assert_uint_eq(p->ntasks, ntasks);
	ck_assert_ptr_nonnull(p->await_ns);
	ck_assert_ptr_nonnull(sv_profile_meta(p, "modules"));
	ck_assert_int_eq(sv_profile_meta(p, "modules")->kind, SV_META_STRINGS);
	sv_profile_free(p);
	free(path);

	path = svt_fixture("gpu_likwid_perf_lineprof.h5");
	p = lf_load_ok(path);
	ck_assert_ptr_nonnull(p->gpu_ns);
	for (r = 0; r < p->nrows; r++) {
		if (p->rows[r].has_gpu)
			any_gpu = true;
		else
			any_nogpu = true;
	}
	ck_assert(any_gpu && any_nogpu);
	sv_profile_free(p);
	free(path);

	path = svt_fixture("single_rank_nested.h5");
	p = lf_load_ok(path);
	exp = expected_for("single_rank_nested.h5");
	ck_assert_str_eq(p->regions[4],
		json_string_value(json_array_get(
			json_object_get(exp, "region_order"), 4)));
	ck_assert_str_eq(p->regions[4], "solve");
	ck_assert_uint_eq(p->rows[4].ntags,
		json_array_size(json_object_get(
			json_object_get(
				json_object_get(exp, "regions"), "solve"),
			"tags")));
	ck_assert_uint_gt(p->rows[4].ntags, 0);
	json_decref(exp);
	ck_assert(p->rows[4].has_summary);
	ck_assert_int_ge(p->rows[4].exclusive_total, 0);
	ck_assert_ptr_nonnull(p->rows[4].source_text);
	ck_assert(p->has_start_time);
	sv_profile_free(p);
	free(path);
}
END_TEST

void lf_add_fixtures(Suite *s)
{
	TCase *t = tcase_create("fixtures");

	tcase_add_loop_test(t, test_fixture, 0,
		(int)(sizeof fixtures / sizeof fixtures[0]));
	tcase_add_test(t, test_fixture_table_complete);
	tcase_add_test(t, test_fixture_details);
	suite_add_tcase(s, t);
}
