/*
 * heap.c: the heap held while a load runs (heap.h), with glibc's malloc
 * settings.
 *
 * Held: no block gets a mapping of its own (M_MMAP_MAX 0), so a freed
 * column stays in the heap for the next allocation, and the top of the
 * heap is not given back (M_TRIM_THRESHOLD as high as it goes).
 * Released: blocks of SV_HEAP_MMAP_THRESHOLD and more get mappings of
 * their own again, and malloc_trim() hands every free page of the heap
 * back.
 * The top stays untrimmed: with one heap for every thread, a free() that
 * trims hundreds of MB would hold the heap's lock, and with it the loop's
 * next malloc, while the kernel takes the pages; what the viewer frees
 * later is a block of its own (unmapped outside the lock), one whose
 * pages sv_free_big released first, or kept for the next allocation, and
 * sv_heap_trim gives the rest back where a whole profile is let go of.
 */
#include "scopeview/heap.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* glibc's own limit on mappings. */
#define HEAP_MMAP_MAX 65536

static pthread_mutex_t heap_mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned heap_holds; /* under heap_mu */
static bool heap_took;      /* the settings of the holds took, under heap_mu */
static atomic_bool heap_held; /* heap_holds > 0, for sv_free_big */

bool sv_heap_init(void)
{
#ifdef __GLIBC__
	return mallopt(M_ARENA_MAX, 1) == 1;
#else
	return false;
#endif
}

bool sv_heap_hold(void)
{
	bool ok;

	pthread_mutex_lock(&heap_mu);
	if (heap_holds++ == 0) {
		atomic_store(&heap_held, true);
		heap_took = false;
#ifdef __GLIBC__
		heap_took = mallopt(M_MMAP_MAX, 0) == 1 &&
			    mallopt(M_TRIM_THRESHOLD, INT_MAX) == 1;
#endif
	}
	ok = heap_took;
	pthread_mutex_unlock(&heap_mu);
	return ok;
}

void sv_heap_release(void)
{
	pthread_mutex_lock(&heap_mu);
	if (heap_holds && --heap_holds == 0) {
#ifdef __GLIBC__
		mallopt(M_MMAP_MAX, HEAP_MMAP_MAX);
		mallopt(M_MMAP_THRESHOLD, SV_HEAP_MMAP_THRESHOLD);
		malloc_trim(0);
#endif
		atomic_store(&heap_held, false);
	}
	pthread_mutex_unlock(&heap_mu);
}

void sv_heap_trim(void)
{
#ifdef __GLIBC__
	if (!atomic_load(&heap_held))
		malloc_trim(0);
#endif
}

bool sv_heap_holding(void)
{
	return atomic_load(&heap_held);
}

void sv_prefault_add(struct sv_prefault *f, void *at, size_t bytes)
{
	if (f->n < SV_PREFAULT_MAX && at && bytes) {
		f->at[f->n] = at;
		f->bytes[f->n++] = bytes;
	}
}

static void *prefault_main(void *arg)
{
	struct sv_prefault *f = arg;
#ifdef MADV_POPULATE_WRITE
	long pg = sysconf(_SC_PAGESIZE);
	int i;

	for (i = 0; pg > 0 && i < f->n; i++) {
		/* The whole pages inside the block: the allocator's header
		 * before it is its own. */
		uintptr_t a = ((uintptr_t)f->at[i] + (uintptr_t)pg - 1) &
			      ~((uintptr_t)pg - 1),
			  e = ((uintptr_t)f->at[i] + f->bytes[i]) &
			      ~((uintptr_t)pg - 1);
		if (a < e)
			(void)madvise((void *)a, e - a, MADV_POPULATE_WRITE);
	}
#else
	(void)f;
#endif
	return NULL;
}

void sv_prefault_start(struct sv_prefault *f)
{
	f->started =
		f->n && pthread_create(&f->thread, NULL, prefault_main, f) == 0;
}

void sv_prefault_join(struct sv_prefault *f)
{
	if (f->started)
		pthread_join(f->thread, NULL);
	f->started = false;
	f->n = 0;
}
