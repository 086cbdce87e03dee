/*
 * test_load.c: the loader's suite (load.h, src/io/load*.c), run as one
 * Check suite "load" whose test cases live in one file per concept of the
 * loader, each adding its TCases here:
 *
 *   test_load_errors.c       malformed profiles refused, with the message
 *   test_load_open.c         what a path holds, progress, cancel, threads
 *   test_load_columnar.c     the columnar and aggregate layouts
 *   test_load_fast.c         the parallel inflate path
 *   test_load_guard.c        damaged files and the crash guard
 *   test_load_subset.c       rank subsets and reloads that keep ranks
 *   test_load_rank_groups.c  counters and line profiles of rank<N>
 *   test_load_meta.c         /metadata and per-call event metadata
 *   test_load_writer.c       schemas 1-3 as scopeview's writer makes them
 *   test_load_fixtures.c     scope-profiler's own files in tests/fixtures
 *
 * The HDF5 files they read are written at test time by load_files.c and
 * load_files_big.c (load_files.h).  The JSON and native trace readers
 * (load_json*.c, load_native.c, load_spt.c) are tested in test_convert.c.
 */
#include <hdf5.h>

#include "helpers.h"
#include "load_files.h"

static Suite *suite(void)
{
	Suite *s = suite_create("load");

	lf_add_errors(s);
	lf_add_open(s);
	lf_add_columnar(s);
	lf_add_fast(s);
	lf_add_guard(s);
	lf_add_subset(s);
	lf_add_rank_groups(s);
	lf_add_meta(s);
	lf_add_writer(s);
	lf_add_fixtures(s);
	return s;
}

int main(void)
{
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	return svt_run(suite());
}
