/*
 * test_load_rank_groups.c: what the rank<N> groups of a columnar file
 * hold besides schema 1's regions (load_h5_ranks.c, doc/format.md 4.12):
 * perf and LIKWID hardware counters and line profiles, read from the
 * fixture that has them all; damaged or unknown groups only warn or are
 * listed as unshown.
 */
#include <hdf5.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "load_files.h"

START_TEST(test_fixture_counters_lineprof)
{
	char *path = svt_fixture("gpu_likwid_perf_lineprof.h5");
	struct sv_profile *p = lf_load_ok(path);
	const struct sv_counters *perf = NULL, *lk = NULL;
	const struct sv_line_profile *l;
	size_t i;

	for (i = 0; i < p->ncounters; i++) {
		if (p->counters[i].likwid)
			lk = &p->counters[i];
		else
			perf = &p->counters[i];
	}
	ck_assert_uint_eq(p->ncounters, 2);
	ck_assert_ptr_nonnull(perf);
	ck_assert_ptr_nonnull(lk);
	ck_assert_str_eq(perf->region, "solve");
	ck_assert_int_eq(perf->calls, 3);
	ck_assert_uint_eq(perf->nevents, 2);
	ck_assert_str_eq(perf->events[0], "cycles");
	ck_assert_str_eq(perf->events[1], "instructions");
	ck_assert(perf->values[0] == 123456 && perf->values[1] == 234567);
	/* LIKWID: events[e, t] summed over the two threads */
	ck_assert_str_eq(lk->region, "solve");
	ck_assert_str_eq(lk->group, "CLOCK");
	ck_assert_uint_eq(lk->nthreads, 2);
	ck_assert_int_eq(lk->calls, 6);
	ck_assert(lk->time_s == 0.5);
	ck_assert_str_eq(lk->events[0], "INSTR_RETIRED_ANY");
	ck_assert(lk->values[0] == 1.9e6 && lk->values[1] == 3.9e6);
	ck_assert_uint_eq(lk->nmetrics, 1);
	ck_assert_str_eq(lk->metrics[0], "CPI");
	ck_assert(fabs(lk->metric_values[0] - 2.05) < 1e-12);
	/* the line profile */
	ck_assert_uint_eq(p->nlineprofs, 1);
	l = &p->lineprofs[0];
	ck_assert_str_eq(l->region, "solve");
	ck_assert_str_eq(l->filename, "/tmp/run/app.py");
	ck_assert_str_eq(l->function, "solve");
	ck_assert_int_eq(l->first_lineno, 40);
	ck_assert(l->unit == 1e-6);
	ck_assert_uint_eq(l->nlines, 3);
	ck_assert(l->line[2] == 43 && l->hits[2] == 300 && l->time[2] == 3000);
	ck_assert_int_eq(l->source_first_lineno, -1);
	ck_assert_uint_eq(p->nunshown, 0);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* Damaged or unknown rank groups only warn, or are listed as unshown. */
START_TEST(test_rank_groups_damaged)
{
	char *path = lf_base_write("rankgroups.h5", M_NONE);
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	hid_t r = lf_h5_group(f, "rank0"), g, k;
	const char *names[] = {"cycles", "instructions"};
	const char *lk_names[] = {"INSTR_RETIRED_ANY", "INSTR_RETIRED_ANY"};
	const char *regs[] = {"FIXC0", "PMC0"};
	int64_t one[] = {7}, lines[] = {3, 4}, hits[] = {1, 2};
	double times[] = {5.0, 15.0};
	struct sv_profile *p;
	size_t i;
	bool warned = false;

	g = lf_h5_group(r, "perf_events");
	k = lf_h5_group(g, "solve");
	lf_attr_strs(k, "event_names", names, 2);
	lf_ds_ints(
		k, "values", H5T_STD_U64LE, one, 1); /* one value, two names */
	H5Gclose(k);
	H5Gclose(g);
	g = lf_h5_group(r, "likwid");
	k = lf_h5_group(g, "regions");
	H5Gclose(g);
	g = lf_h5_group(k, "io");
	lf_attr_strs(g, "event_names", lk_names, 2);
	lf_attr_strs(g, "counter_names", regs, 2);
	{
		hsize_t dims[2] = {2, 1};
		double ev[] = {10, 20};
		hid_t s = H5Screate_simple(2, dims, NULL);
		hid_t d = H5Dcreate2(g, "events", H5T_IEEE_F64LE, s,
			H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
		H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
			ev);
		H5Dclose(d);
		H5Sclose(s);
	}
	H5Gclose(g);
	H5Gclose(k);
	g = lf_h5_group(r, "line_profile");
	k = lf_h5_group(g, "0");
	lf_ds_ints(k, "line_numbers", H5T_STD_I64LE, lines, 2);
	lf_ds_ints(k, "hits", H5T_STD_I64LE, hits, 2);
	lf_ds_f64(k, "times", times, 2);
	lf_attr_fixed_str(k, "region", "solve"); /* fixed-length strings */
	lf_attr_fixed_str(k, "source", "def solve():\n    x = 1\n");
	lf_attr_i64(k, "source_first_lineno", 2);
	H5Gclose(k);
	H5Gclose(g);
	H5Gclose(lf_h5_group(r, "memray"));
	H5Gclose(r);
	H5Gclose(lf_h5_group(f, "extra_things"));
	H5Fclose(f);

	p = lf_load_ok(path);
	ck_assert_uint_eq(p->ncounters, 1); /* perf dropped */
	for (i = 0; i < p->nwarnings; i++)
		if (strstr(p->warnings[i], "/rank0/perf_events/solve/values: "
					   "holds 1 values, but 2"))
			warned = true;
	ck_assert(warned);
	ck_assert(p->counters[0].likwid);
	ck_assert_str_eq(p->counters[0].region, "io");
	ck_assert_int_eq(p->counters[0].calls, -1);
	ck_assert_str_eq(p->counters[0].events[0], "INSTR_RETIRED_ANY:FIXC0");
	ck_assert_str_eq(p->counters[0].events[1], "INSTR_RETIRED_ANY:PMC0");
	ck_assert_uint_eq(p->nlineprofs, 1);
	ck_assert_str_eq(p->lineprofs[0].region, "solve");
	ck_assert_str_eq(p->lineprofs[0].source, "def solve():\n    x = 1\n");
	ck_assert_int_eq(p->lineprofs[0].source_first_lineno, 2);
	ck_assert(p->lineprofs[0].unit == 1e-6);
	ck_assert_uint_eq(p->nunshown, 2);
	ck_assert_str_eq(p->unshown[0], "/extra_things");
	ck_assert_str_eq(p->unshown[1], "/rank0/memray");
	sv_profile_free(p);
	free(path);
}
END_TEST

void lf_add_rank_groups(Suite *s)
{
	TCase *t = tcase_create("rank_groups");

	tcase_add_test(t, test_fixture_counters_lineprof);
	tcase_add_test(t, test_rank_groups_damaged);
	suite_add_tcase(s, t);
}
