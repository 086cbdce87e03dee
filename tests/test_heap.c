/*
 * test_heap.c: the heap held while a load runs (heap.h): holds nest, a
 * block freed under a hold is what the next one is made of (no page
 * faulted in again), and the last release gives the pages back; and
 * blocks faulted in on another thread.
 *
 * The effect on the pages is glibc's: under a sanitizer, whose allocator
 * is its own, sv_heap_hold reports that it did not take and only the
 * counting is checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/common.h"
#include "scopeview/heap.h"

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#define HEAP_TAKES 1
#else
#define HEAP_TAKES 0
#endif

/* A block of 64 MB: above glibc's largest threshold for a mapping of its
 * own, so that without a hold it is unmapped when freed. */
#define BLOCK ((size_t)64 << 20)
#define PAGES (BLOCK / 4096)

static long faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* Resident pages of the process. */
static long resident(void)
{
	long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%ld %ld", &size, &res) != 2)
			res = 0;
		fclose(f);
	}
	return res * (sysconf(_SC_PAGESIZE) / 1024) / 4; /* in 4 KB pages */
}

/* Page faults of writing a fresh block of 64 MB, which is then freed. */
static long touch_block(void)
{
	long before = faults();
	unsigned char *b = sv_xmalloc(BLOCK);
	long got;
	memset(b, 0x5a, BLOCK);
	got = faults() - before;
	sv_free_big(b);
	return got;
}

START_TEST(test_holds_nest)
{
	/* given no hold; when two holds are taken and let go of one by one
	 * (and one release too many); then the heap is held until the last
	 * release, and both holds report the same */
	bool a, b;
	ck_assert(!sv_heap_holding());
	a = sv_heap_hold();
	ck_assert(sv_heap_holding());
	b = sv_heap_hold();
	ck_assert(a == b);
	ck_assert(a == HEAP_TAKES);
	sv_heap_release();
	ck_assert(sv_heap_holding());
	sv_heap_release();
	ck_assert(!sv_heap_holding());
	sv_heap_release();
	ck_assert(!sv_heap_holding());
	ck_assert(sv_heap_init() == HEAP_TAKES);
}
END_TEST

START_TEST(test_hold_reuses_pages)
{
	/* given a block written and freed without a hold; when the next one
	 * is written, it faults every page in again; under a hold, after the
	 * first block, the next faults in almost none */
	long free_run, held_run;
	touch_block();
	free_run = touch_block();
	sv_heap_hold();
	touch_block();
	held_run = touch_block();
	sv_heap_release();
	if (!HEAP_TAKES)
		return;
	ck_assert_int_ge(free_run, (long)PAGES * 9 / 10);
	ck_assert_int_lt(held_run, (long)PAGES / 10);
}
END_TEST

START_TEST(test_release_gives_pages_back)
{
	/* given a block written and freed under a hold, in the middle of the
	 * heap (a small block after it); when the heap is trimmed under the
	 * hold, the pages stay; at the release they go */
	long base, held, trimmed, released;
	unsigned char *big, *pin;
	base = resident();
	sv_heap_hold();
	big = sv_xmalloc(BLOCK);
	pin = sv_xmalloc(4096);
	memset(big, 0x5a, BLOCK);
	memset(pin, 0xa5, 4096);
	sv_free_big(big);
	held = resident();
	sv_heap_trim();
	trimmed = resident();
	sv_heap_release();
	released = resident();
	ck_assert_uint_eq(pin[4095], 0xa5);
	free(pin);
	if (!HEAP_TAKES)
		return;
	ck_assert_int_ge(held - base, (long)PAGES * 9 / 10);
	ck_assert_int_ge(trimmed - base, (long)PAGES * 9 / 10);
	ck_assert_int_lt(released - base, (long)PAGES / 10);
}
END_TEST

START_TEST(test_prefault)
{
	/* given a fresh block of 64 MB (a mapping of its own, no hold);
	 * when its pages are faulted in on another thread and the thread is
	 * joined; then writing it faults almost none in here (a sanitizer's
	 * shadow pages aside: an eighth of the block) */
	struct sv_prefault f;
	unsigned char *b;
	long before, got;
#ifdef MADV_POPULATE_WRITE
	long pg = sysconf(_SC_PAGESIZE);
	void *probe = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bool have = probe != MAP_FAILED &&
		    madvise(probe, (size_t)pg, MADV_POPULATE_WRITE) == 0;
	if (probe != MAP_FAILED)
		munmap(probe, (size_t)pg);
	if (!have)
		SVT_SKIP("the kernel has no MADV_POPULATE_WRITE (Linux 5.14)");
#else
	SVT_SKIP("no MADV_POPULATE_WRITE in this C library");
#endif
	memset(&f, 0, sizeof f);
	b = sv_xmalloc(BLOCK);
	sv_prefault_add(&f, b, BLOCK);
	sv_prefault_add(&f, NULL, 4096); /* nothing */
	sv_prefault_start(&f);
	ck_assert(f.started);
	sv_prefault_join(&f);
	ck_assert_int_eq(f.n, 0);
	before = faults();
	memset(b, 0x5a, BLOCK);
	got = faults() - before;
	ck_assert_uint_eq(b[BLOCK - 1], 0x5a);
	sv_free_big(b);
	ck_assert_int_lt(got, (long)PAGES / 4);
	/* and no thread for no block */
	sv_prefault_start(&f);
	ck_assert(!f.started);
	sv_prefault_join(&f);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("heap");
	TCase *t = tcase_create("hold");
	tcase_add_test(t, test_holds_nest);
	tcase_add_test(t, test_hold_reuses_pages);
	tcase_add_test(t, test_release_gives_pages_back);
	tcase_add_test(t, test_prefault);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
