/*
 * bench_mem.h: the memory figures of the benchmark programs, from
 * /proc/self/status (Linux): the resident size now (VmRSS) and its peak
 * (VmHWM), which bench_reset_peak sets back to the resident size, so
 * that the peak of one step can be measured on its own.
 */
#ifndef SCOPEVIEW_BENCH_MEM_H
#define SCOPEVIEW_BENCH_MEM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A line "Key:   N kB" of /proc/self/status, in kB (-1 if absent). */
static inline long bench_status_kb(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	size_t n = strlen(key);

	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, key, n) && line[n] == ':')
			kb = strtol(line + n + 1, NULL, 10);
	if (f)
		fclose(f);
	return kb;
}

/* The same in bytes, 0 when absent. */
static inline double bench_status_bytes(const char *key)
{
	long kb = bench_status_kb(key);
	return kb < 0 ? 0 : (double)kb * 1024.0;
}

/* Reset the peak resident size (VmHWM) to the current one. */
static inline void bench_reset_peak(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");
	if (f) {
		fputs("5", f);
		fclose(f);
	}
}

#endif
