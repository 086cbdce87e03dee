/*
 * big.c: arrays of a megabyte and more, and the pages of those freed
 * during a load kept for the next ones (common.h, "Big arrays").
 *
 * While a load holds the pool (sv_big_pool_hold), each big array made is
 * an anonymous mapping of its own, found again by its address in a table
 * (so that sv_free_big tells it from a malloc block); at other times it
 * is malloc's, as before.  A mapping freed while the pool is held goes to
 * the pool rather than back to the system, and a new array takes the pooled
 * mapping that fits it best (split when it is much larger), or grows the
 * largest one with mremap, which moves its pages without copying them.
 * Touching a page the first time costs a fault and the zeroing of the
 * page (1.5-8 us on a virtual machine, where the host may have to find
 * the page too): a load at 100M calls touched 6 GB for 2.9 GB at its
 * peak, the arrays of each step being freed as the next one was made.
 *
 * The pool never takes the mappings past the most that were live at once
 * (the peak without a pool): a new array that does not fit in the pool
 * first gives pooled mappings back until it does.  sv_big_pool_drop
 * gives every pooled page back, so memory at rest is what is live.
 */
#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "scopeview/common.h"

/* Arrays from this size up are mappings of their own. */
#define BIG_MIN   ((size_t)1 << 20)
#define POOL_MAX  128 /* pooled mappings at most */
#define TABLE_MIN 64  /* slots of the address table at first */

struct big_block {
	uintptr_t addr; /* 0: empty slot */
	size_t len;     /* bytes mapped, a multiple of the page */
};

static pthread_mutex_t big_mu = PTHREAD_MUTEX_INITIALIZER;
/* The live mappings, by address (open addressing, linear probing). */
static struct big_block *big_table;
static size_t big_cap, big_n;
/* The pooled mappings, unordered. */
static struct big_block big_pool[POOL_MAX];
static size_t big_npool;
static size_t big_live, big_pooled, big_peak; /* bytes */
static int big_holds;

static size_t big_page(void)
{
	static size_t pg;
	if (!pg) {
		long v = sysconf(_SC_PAGESIZE);
		pg = v > 0 ? (size_t)v : 4096;
	}
	return pg;
}

static size_t big_round(size_t n)
{
	size_t pg = big_page();
	if (n > SIZE_MAX - pg)
		sv_die("out of memory (%zu bytes)", n);
	return (n + pg - 1) & ~(pg - 1);
}

static size_t big_slot(uintptr_t a)
{
	uint64_t h = (uint64_t)a * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 20) & (big_cap - 1);
}

static void big_table_put(uintptr_t a, size_t len);

static void big_table_grow(void)
{
	struct big_block *old = big_table;
	size_t oldcap = big_cap, i;

	big_cap = big_cap ? big_cap * 2 : TABLE_MIN;
	big_table = sv_xcalloc(big_cap, sizeof *big_table);
	big_n = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i].addr)
			big_table_put(old[i].addr, old[i].len);
	free(old);
}

static void big_table_put(uintptr_t a, size_t len)
{
	size_t i;

	if ((big_n + 1) * 2 > big_cap)
		big_table_grow();
	for (i = big_slot(a); big_table[i].addr; i = (i + 1) & (big_cap - 1))
		;
	big_table[i].addr = a;
	big_table[i].len = len;
	big_n++;
}

/* The slot of live mapping a, or SIZE_MAX. */
static size_t big_table_find(uintptr_t a)
{
	size_t i;

	if (!big_cap)
		return SIZE_MAX;
	for (i = big_slot(a); big_table[i].addr; i = (i + 1) & (big_cap - 1))
		if (big_table[i].addr == a)
			return i;
	return SIZE_MAX;
}

/* Empty slot i, moving later entries of its run back (no tombstones). */
static void big_table_del(size_t i)
{
	size_t j = i;

	big_table[i].addr = 0;
	big_n--;
	for (;;) {
		size_t k;
		j = (j + 1) & (big_cap - 1);
		if (!big_table[j].addr)
			return;
		k = big_slot(big_table[j].addr);
		/* Entry j stays when its home k lies cyclically in (i, j]. */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		big_table[i] = big_table[j];
		big_table[j].addr = 0;
		i = j;
	}
}

static void big_unmap(uintptr_t a, size_t len)
{
	(void)munmap((void *)a, len);
}

static void big_pool_remove(size_t i)
{
	big_pooled -= big_pool[i].len;
	big_pool[i] = big_pool[--big_npool];
}

/* The smallest pooled mapping's index (the pool is not empty). */
static size_t big_pool_smallest(void)
{
	size_t i, s = 0;

	for (i = 1; i < big_npool; i++)
		if (big_pool[i].len < big_pool[s].len)
			s = i;
	return s;
}

/* Before coming bytes go live: the peak raised to take them, then pooled
 * mappings given back, smallest first, until the live, coming and pooled
 * bytes are within it. */
static void big_pool_fit(size_t coming)
{
	if (big_live + coming > big_peak)
		big_peak = big_live + coming;
	while (big_npool && big_live + coming + big_pooled > big_peak) {
		size_t s = big_pool_smallest();
		big_unmap(big_pool[s].addr, big_pool[s].len);
		big_pool_remove(s);
	}
}

/* A freed (or cut-off) mapping: to the pool while one is held, else
 * back to the system. */
static void big_release(uintptr_t a, size_t len)
{
	if (!big_holds || len < BIG_MIN) {
		big_unmap(a, len);
		return;
	}
	if (big_npool == POOL_MAX) {
		size_t s = big_pool_smallest();
		if (big_pool[s].len >= len) {
			big_unmap(a, len);
			return;
		}
		big_unmap(big_pool[s].addr, big_pool[s].len);
		big_pool_remove(s);
	}
	big_pool[big_npool].addr = a;
	big_pool[big_npool].len = len;
	big_npool++;
	big_pooled += len;
}

static void big_live_add(size_t len)
{
	big_live += len;
	big_pool_fit(0);
}

/* *len bytes, mapped: from the pool where a mapping fits (*len then
 * the bytes taken, which may be a little more), else the largest pooled
 * one grown, else new.  0 when out of memory. */
static uintptr_t big_map(size_t *len)
{
	size_t i, best = SIZE_MAX, large = SIZE_MAX, n = *len;
	void *m;

	for (i = 0; i < big_npool; i++) {
		if (big_pool[i].len >= n &&
			(best == SIZE_MAX ||
				big_pool[i].len < big_pool[best].len))
			best = i;
		if (large == SIZE_MAX || big_pool[i].len > big_pool[large].len)
			large = i;
	}
	if (best != SIZE_MAX) {
		struct big_block b = big_pool[best];
		big_pool_remove(best);
		if (b.len - n >= BIG_MIN)
			big_release(b.addr + n, b.len - n);
		else
			*len = n = b.len;
		big_live_add(n);
		return b.addr;
	}
	if (large != SIZE_MAX) {
		struct big_block b = big_pool[large];
		m = mremap((void *)b.addr, b.len, n, MREMAP_MAYMOVE);
		if (m != MAP_FAILED) {
			big_pool_remove(large);
			big_live_add(n);
			return (uintptr_t)m;
		}
	}
	/* Room within the peak first, so that the new pages do not come on
	 * top of pooled ones. */
	big_pool_fit(n);
	m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		-1, 0);
	if (m == MAP_FAILED)
		return 0;
	big_live_add(n);
	return (uintptr_t)m;
}

void *sv_big_alloc(size_t size)
{
	size_t len;
	uintptr_t a;

	if (size < BIG_MIN)
		return sv_xmalloc(size);
	len = big_round(size);
	pthread_mutex_lock(&big_mu);
	if (!big_holds) {
		/* No load under way: malloc's, as any other array. */
		pthread_mutex_unlock(&big_mu);
		return sv_xmalloc(size);
	}
	a = big_map(&len);
	if (a)
		big_table_put(a, len);
	pthread_mutex_unlock(&big_mu);
	if (!a)
		sv_die("out of memory (%zu bytes)", size);
	return (void *)a;
}

void *sv_big_allocarray(size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		sv_die("out of memory (%zu x %zu bytes)", nmemb, size);
	return sv_big_alloc(nmemb * size);
}

/* Whether p is a big array; then its slot's length in *len, the slot
 * emptied when take.  Under big_mu. */
static bool big_lookup(const void *p, size_t *len, bool take)
{
	size_t i = big_table_find((uintptr_t)p);

	if (i == SIZE_MAX)
		return false;
	*len = big_table[i].len;
	if (take) {
		big_table_del(i);
		big_live -= *len;
	}
	return true;
}

void *sv_big_realloc(void *p, size_t size)
{
	size_t len = 0, want;
	void *m;
	bool big, held;

	if (!p)
		return sv_big_alloc(size);
	pthread_mutex_lock(&big_mu);
	big = big_lookup(p, &len, false);
	held = big_holds > 0;
	pthread_mutex_unlock(&big_mu);
	if (!big) {
		/* A malloc block: stays one while small or while no load
		 * holds the pool. */
		size_t had = malloc_usable_size(p);
		if (size < BIG_MIN || !held)
			return sv_xrealloc(p, size);
		m = sv_big_alloc(size);
		memcpy(m, p, had < size ? had : size);
		free(p);
		return m;
	}
	want = big_round(size ? size : 1);
	pthread_mutex_lock(&big_mu);
	(void)big_lookup(p, &len, true);
	if (want <= len) {
		/* Shrink: the tail is freed (to the pool, when held). */
		if (len - want >= big_page())
			big_release((uintptr_t)p + want, len - want);
		else
			want = len;
		m = p;
	} else {
		m = mremap(p, len, want, MREMAP_MAYMOVE);
		if (m == MAP_FAILED) {
			big_table_put((uintptr_t)p, len);
			big_live += len;
			pthread_mutex_unlock(&big_mu);
			sv_die("out of memory (%zu bytes)", size);
		}
	}
	big_table_put((uintptr_t)m, want);
	big_live_add(want);
	pthread_mutex_unlock(&big_mu);
	return m;
}

void *sv_big_reallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		sv_die("out of memory (%zu x %zu bytes)", nmemb, size);
	return sv_big_realloc(p, nmemb * size);
}

static bool big_free(void *p)
{
	size_t len;
	bool big;

	if (!p)
		return true;
	pthread_mutex_lock(&big_mu);
	big = big_lookup(p, &len, true);
	if (big)
		big_release((uintptr_t)p, len);
	pthread_mutex_unlock(&big_mu);
	return big;
}

/* Blocks from this size up are released in steps of SV_FREE_STEP. */
#define SV_FREE_BIG  ((size_t)32 << 20)
#define SV_FREE_STEP ((size_t)8 << 20)

void sv_free_big(void *p)
{
	size_t n, pg = big_page();

	if (big_free(p))
		return;
	n = malloc_usable_size(p);
	if (n >= SV_FREE_BIG) {
		/* Only whole pages inside the block, clear of the allocator's
		 * headers on either side. */
		uintptr_t a = ((uintptr_t)p + (uintptr_t)pg - 1) &
			      ~((uintptr_t)pg - 1),
			  e = ((uintptr_t)p + n - 64) & ~((uintptr_t)pg - 1);
		while (a < e) {
			size_t step =
				e - a < SV_FREE_STEP ? e - a : SV_FREE_STEP;
			(void)madvise((void *)a, step, MADV_DONTNEED);
			a += step;
		}
	}
	free(p);
}

void sv_big_pool_hold(void)
{
	pthread_mutex_lock(&big_mu);
	if (!big_holds++)
		big_peak = big_live;
	pthread_mutex_unlock(&big_mu);
}

void sv_big_pool_drop(void)
{
	pthread_mutex_lock(&big_mu);
	if (big_holds && !--big_holds)
		while (big_npool) {
			big_unmap(big_pool[0].addr, big_pool[0].len);
			big_pool_remove(0);
		}
	pthread_mutex_unlock(&big_mu);
}

void sv_big_stats(struct sv_big_stats *st)
{
	pthread_mutex_lock(&big_mu);
	st->live = big_live;
	st->pooled = big_pooled;
	st->peak = big_peak;
	st->blocks = big_n;
	pthread_mutex_unlock(&big_mu);
}
