/*
 * helpers.h: what several test suites share.  Temporary files live in one
 * directory per test process, removed at exit.
 */
#ifndef SCOPEVIEW_TEST_HELPERS_H
#define SCOPEVIEW_TEST_HELPERS_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"

/* A path "<tmpdir>/<name>" in this process's temporary directory
 * (created on first use, removed with its contents at exit).  The result
 * is malloc'd. */
char *svt_tmp_path(const char *name);

/* The fixtures directory: $SCOPEVIEW_FIXTURES, else tests/fixtures in
 * the source tree (see tests/fixtures/README.md). */
const char *svt_fixtures_dir(void);

/* "<fixtures>/<name>", malloc'd.  The fixtures are part of the
 * repository: a missing one fails the running test. */
char *svt_fixture(const char *name);

/* Read a whole file into a NUL-terminated buffer (malloc'd); NULL when it
 * cannot be read.  *len (if given) gets the size. */
char *svt_read_file(const char *path, size_t *len);

/* The source tree (for goldens): $SCOPEVIEW_SOURCE_ROOT or the compiled-in
 * path. */
const char *svt_source_root(void);

/* The running test cannot run here (a precondition is missing): note
 * why, and the suite's exit status becomes 77 (meson's SKIP) unless a
 * test fails.  Under SCOPEVIEW_NO_SKIP=1 (CI) it fails the test instead.
 * Use SVT_SKIP, which also returns from the test. */
void svt_skip(const char *fmt, ...) SV_PRINTF(1, 2);
#define SVT_SKIP(...)                  \
	do {                           \
		svt_skip(__VA_ARGS__); \
		return;                \
	} while (0)

/* Run f(ctx) with stdout and stderr going to files; their texts in *out
 * and *err (malloc'd); returns what f returned. */
int svt_captured(int (*f)(void *), void *ctx, char **out, char **err);

/* Write a profile of one rank to path: a region called name whose two
 * calls, [10, 30] and [20, 40] ns, overlap without nesting (loading it
 * warns, naming the region), and a region "io" of one call; exclusive
 * totals unknown. */
void svt_write_overlap(const char *path, const char *name);

/* A profile written by scopeview's generator (ranks, threads per rank,
 * tasks per thread, events in all; seed 5) under name in the temporary
 * directory and read back as the viewer reads it: packed when pack (as
 * a profile of a million calls or more is), else with plain columns.
 * For the suites that compare two ways of working out the same answer. */
struct sv_profile;
struct sv_profile *svt_gen_profile(const char *name, uint32_t ranks,
	uint32_t threads, uint32_t tasks, uint64_t events, bool pack);

/* Files that a profile or a person may name and that must never be read
 * blindly (infile.h), made once per process in its temporary directory:
 * /dev/zero, a FIFO without a writer, a loop of two symbolic links, a
 * sparse file of 2 GB whose first line is "head", and a binary file of
 * terminal control sequences (OSC, CSI, C1 CSI, BEL), a NUL and invalid
 * UTF-8 (svt_hostile_bytes, whose escapes must never reach a terminal
 * raw).  what is a word for messages: "/dev/zero", "fifo", "loop",
 * "sparse", "escapes". */
#define SVT_NHOSTILE 5
struct svt_hostile {
	const char *what;
	const char *path;
};
const struct svt_hostile *svt_hostile_files(void);
extern const char svt_hostile_bytes[];
extern const size_t svt_hostile_nbytes;
/* Whether text (n bytes) holds a byte a terminal takes as the start of a
 * control sequence or a control (ESC, BEL, CSI 0x9b in any form, other
 * C0 but newline and tab). */
bool svt_has_raw_control(const char *text, size_t n);

/* Run one suite with Check; returns the process exit status: 0, 1 when a
 * test failed, 77 when none failed but one skipped (svt_skip). */
int svt_run(Suite *s);

#endif
