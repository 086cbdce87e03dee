/*
 * counters.c: finding a region's hardware counters and line profile, and
 * the figures derived from them (counters.h, doc/format.md 4.12).
 */
#include "scopeview/counters.h"

#include <string.h>

size_t sv_counters_of(const struct sv_profile *p, const char *region, long rank,
	const struct sv_counters **out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < p->ncounters; i++) {
		const struct sv_counters *k = &p->counters[i];
		if (strcmp(k->region, region) ||
			(rank != SV_COUNTERS_ANY_RANK && (long)k->rank != rank))
			continue;
		if (n < max)
			out[n] = k;
		n++;
	}
	return n;
}

/* The value of the first event of k named one of names, or false. */
static bool counters_find(
	const struct sv_counters *k, const char *const *names, double *v)
{
	size_t i, j;

	for (j = 0; names[j]; j++)
		for (i = 0; i < k->nevents; i++)
			if (!strcmp(k->events[i], names[j])) {
				*v = k->values[i];
				return true;
			}
	return false;
}

size_t sv_counters_rates(
	const struct sv_counters *k, struct sv_counter_rate *out, size_t max)
{
	/* perf's generic names, then LIKWID's Intel and AMD ones. */
	static const char *const instr[] = {"instructions", "INSTR_RETIRED_ANY",
		"RETIRED_INSTRUCTIONS", NULL};
	static const char *const cycles[] = {"cycles", "cpu-cycles",
		"CPU_CLK_UNHALTED_CORE", "CPU_CLOCKS_UNHALTED", NULL};
	static const char *const cmiss[] = {"cache-misses", NULL};
	static const char *const cref[] = {"cache-references", NULL};
	static const char *const bmiss[] = {
		"branch-misses", "BR_MISP_RETIRED_ALL_BRANCHES", NULL};
	static const char *const bref[] = {"branches", "branch-instructions",
		"BR_INST_RETIRED_ALL_BRANCHES", NULL};
	static const struct {
		const char *name;
		const char *const *num, *const *den;
	} rates[] = {
		{"IPC", instr, cycles},
		{"cache miss ratio", cmiss, cref},
		{"branch miss ratio", bmiss, bref},
	};
	size_t r, n = 0;

	for (r = 0; r < sizeof rates / sizeof rates[0]; r++) {
		double a, b;
		if (!counters_find(k, rates[r].num, &a) ||
			!counters_find(k, rates[r].den, &b) || !(b > 0))
			continue;
		if (n < max) {
			out[n].name = rates[r].name;
			out[n].value = a / b;
		}
		n++;
	}
	return n;
}

const struct sv_line_profile *sv_counters_line_profile(
	const struct sv_profile *p, const char *region, long rank)
{
	const struct sv_line_profile *best = NULL;
	size_t i;

	for (i = 0; i < p->nlineprofs; i++) {
		const struct sv_line_profile *l = &p->lineprofs[i];
		const char *name = l->region ? l->region : l->function;
		if (!name || strcmp(name, region))
			continue;
		if ((long)l->rank == rank)
			return l;
		if (!best || l->rank < best->rank)
			best = l;
	}
	return best;
}

double sv_counters_line_total(const struct sv_line_profile *l)
{
	double t = 0;
	size_t i;

	for (i = 0; i < l->nlines; i++)
		t += l->time[i];
	return t * l->unit;
}

bool sv_counters_line_hot(const struct sv_line_profile *l, size_t i)
{
	size_t j, above = 0;
	double total = 0;

	if (i >= l->nlines || !(l->time[i] > 0))
		return false;
	for (j = 0; j < l->nlines; j++)
		total += l->time[j];
	if (l->time[i] < 0.05 * total)
		return false; /* a small share is never hot */
	for (j = 0; j < l->nlines; j++)
		if (l->time[j] > l->time[i] ||
			(l->time[j] == l->time[i] && j < i))
			above++;
	return above < 3;
}
