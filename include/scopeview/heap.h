/*
 * heap.h: how the process uses its heap around a big load.
 *
 * A load of millions of calls allocates a column, frees it when its
 * packed form is made, and allocates the layout index and the statistics
 * right after: about twice the memory it ends with passes through it.  By
 * default the C library gives every block of more than a few MB back to
 * the system when it is freed, and the next block is faulted in again, a
 * 4 KB page at a time (about 1.3 us a page on a virtual machine: a fifth
 * of the CPU time of a load).  While a load holds the heap, what is freed
 * stays in the process and is what the next blocks are made of; when the
 * last hold ends, the free pages go back to the system at once.
 *
 * All of it is a matter of speed: without glibc (or under a sanitizer,
 * whose allocator is its own) the functions do nothing but count.
 */
#ifndef SCOPEVIEW_HEAP_H
#define SCOPEVIEW_HEAP_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_CORE)
#error "scopeview/heap.h belongs to the core layer, which this layer may not use"
#endif

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/* Outside a hold, the viewer gives blocks of this size and more (an
 * index level, a list of matches) a mapping of their own, freed by
 * unmapping it (ui/app.c sets it, sv_heap_release sets it back): glibc
 * would otherwise raise its threshold up to 32 MB as big blocks are
 * freed, so that later ones come from the heap the loop allocates from
 * too, and a worker freeing them trims it under the lock the loop waits
 * for. */
#define SV_HEAP_MMAP_THRESHOLD (4 << 20)

/* Once, at the start of a program that loads on several threads, before
 * any thread is made: one heap for every thread (the default is a heap of
 * its own for each new thread, which cannot take what another thread
 * freed).  False when the C library does not take the setting. */
bool sv_heap_init(void);

/* A load starts (holds may nest, on any threads): until the matching
 * sv_heap_release, freed blocks are kept for the next allocations.
 * False when the C library does not take the setting (the hold is still
 * counted). */
bool sv_heap_hold(void);

/* The load is done: at the last release the heap's free pages are given
 * back to the system and blocks are freed as before. */
void sv_heap_release(void);

/* The heap's free pages back to the system now (a big profile was let
 * go of), unless a hold keeps them for the load under way. */
void sv_heap_trim(void);

/* Blocks whose pages a thread of their own faults in (writable, zero or
 * as they were) while the caller does other work, when the next pass
 * over them is on the critical path and a core is idle.  A page fault is
 * about 1.3 us; populated in bulk it is about 0.9, and off this thread.
 * Linux only (MADV_POPULATE_WRITE); elsewhere nothing is done. */
#define SV_PREFAULT_MAX 4
struct sv_prefault {
	void *at[SV_PREFAULT_MAX];
	size_t bytes[SV_PREFAULT_MAX];
	int n;
	pthread_t thread;
	bool started;
};

/* Add block [at, at + bytes) to f (up to SV_PREFAULT_MAX blocks; its
 * contents are not to be relied on until it is written). */
void sv_prefault_add(struct sv_prefault *f, void *at, size_t bytes);
/* Start faulting f's blocks in on a thread (none when there is none to
 * be had: the pages are then faulted in as they are written). */
void sv_prefault_start(struct sv_prefault *f);
/* Wait for it (before the blocks are written). */
void sv_prefault_join(struct sv_prefault *f);

/* Whether a hold is on (sv_free_big then keeps the pages it frees). */
bool sv_heap_holding(void);

#endif
