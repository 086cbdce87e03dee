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

#include <stdbool.h>

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

/* Whether a hold is on (sv_free_big then keeps the pages it frees). */
bool sv_heap_holding(void);

#endif
