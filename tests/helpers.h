/*
 * helpers.h: what several test suites share.  Temporary files live in one
 * directory per test process, removed at exit.
 */
#ifndef SCOPEVIEW_TEST_HELPERS_H
#define SCOPEVIEW_TEST_HELPERS_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>

/* A path "<tmpdir>/<name>" in this process's temporary directory
 * (created on first use, removed with its contents at exit).  The result
 * is malloc'd. */
char *svt_tmp_path(const char *name);

/* The fixtures directory: $SCOPEVIEW_FIXTURES, else tests/fixtures in
 * the source tree (see tests/fixtures/README.md); NULL when it does not
 * exist. */
const char *svt_fixtures_dir(void);

/* "<fixtures>/<name>", malloc'd, or NULL without fixtures. */
char *svt_fixture(const char *name);

/* Read a whole file into a NUL-terminated buffer (malloc'd); NULL when it
 * cannot be read.  *len (if given) gets the size. */
char *svt_read_file(const char *path, size_t *len);

/* The source tree (for goldens): $SCOPEVIEW_SOURCE_ROOT or the compiled-in
 * path. */
const char *svt_source_root(void);

/* Run one suite with Check; returns the process exit status. */
int svt_run(Suite *s);

#endif
