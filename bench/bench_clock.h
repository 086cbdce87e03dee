/*
 * bench_clock.h: the one clock of the benchmark programs (seconds on the
 * monotonic clock), shared by every bench/NAME.c.
 */
#ifndef SCOPEVIEW_BENCH_CLOCK_H
#define SCOPEVIEW_BENCH_CLOCK_H

#include <time.h>

static inline double bench_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

#endif
