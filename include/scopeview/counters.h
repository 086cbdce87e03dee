/*
 * counters.h: the hardware counters and line profiles a profile holds
 * (struct sv_counters, struct sv_line_profile in profile.h; doc/format.md
 * 4.12): finding a region's, the rates their counter names allow
 * (instructions per cycle, miss ratios), and a line profile's figures as
 * line_profiler reports them.  Nothing here prints or knows HDF5.
 */
#ifndef SCOPEVIEW_COUNTERS_H
#define SCOPEVIEW_COUNTERS_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/counters.h belongs to the model layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/profile.h"

/* rank for "any rank" in the finders below. */
#define SV_COUNTERS_ANY_RANK (-1L)

/* The counter sets of region (by name) on rank (or any rank), in file
 * order: up to max of them into out; returns how many there are. */
size_t sv_counters_of(const struct sv_profile *p, const char *region, long rank,
	const struct sv_counters **out, size_t max);

/* A rate derived from two counters of one set. */
struct sv_counter_rate {
	const char *name; /* "IPC", "cache miss ratio", ... (static) */
	double value;
};

/* The rates k's event names allow (instructions and cycles give IPC;
 * cache-misses and cache-references a miss ratio; branch-misses and
 * branches a branch miss ratio), up to max into out; returns how many. */
size_t sv_counters_rates(
	const struct sv_counters *k, struct sv_counter_rate *out, size_t max);

/* The line profile of region on rank: the one whose region (or, without
 * one, function) is the region's name, on that rank if there is one
 * there, else on the lowest rank; NULL when there is none. */
const struct sv_line_profile *sv_counters_line_profile(
	const struct sv_profile *p, const char *region, long rank);

/* A new, empty counter set at the end of p's (calls and time -1 for
 * "none", one thread); valid until the next is added. */
struct sv_counters *sv_counters_add(struct sv_profile *p);

/*
 * Add a LIKWID region's results to p as one counter set (doc/format.md
 * 4.12), from the arrays scope-profiler stores for it (HDF5 rank groups
 * and JSON profiles alike): nev event names (taken over; a name given
 * twice is labelled with its counter register, regs[i], "NAME:REG"),
 * ev[e * nt + t] over nt threads (summed), call_counts and times (nt
 * each, may be NULL: summed, the longest), nmet metric names (taken over)
 * and mv[m * nt + t] (averaged over the threads; NULL: no metrics, and the
 * names are freed).  tag and group (NULL: none) are copied.
 */
struct sv_counters *sv_counters_add_likwid(struct sv_profile *p, uint32_t rank,
	const char *tag, const char *group, char **events, size_t nev,
	char *const *regs, size_t nregs, const double *ev, size_t nt,
	const int64_t *call_counts, const double *times, char **metrics,
	size_t nmet, const double *mv);

/* The whole time of a line profile, in seconds. */
double sv_counters_line_total(const struct sv_line_profile *l);

/* Whether entry i of l is among its (up to) three hottest lines by
 * time and holds at least 5% of l's time. */
bool sv_counters_line_hot(const struct sv_line_profile *l, size_t i);

#endif
