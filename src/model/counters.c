/*
 * counters.c: finding a region's hardware counters and line profile, and
 * the figures derived from them (counters.h, doc/format.md 4.12).
 */
#include "scopeview/counters.h"

#include <stdlib.h>
#include <string.h>

#include "scopeview/strv.h"

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

/* LIKWID's event labels: a name given twice gets its counter register. */
static void counters_labels(
	char **names, size_t n, char *const *regs, size_t nregs)
{
	size_t i, j;
	bool *dup = sv_xcalloc(n ? n : 1, sizeof *dup);

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (i != j && !strcmp(names[i], names[j]))
				dup[i] = true;
	for (i = 0; i < n; i++) {
		char *l;
		if (!dup[i])
			continue;
		l = i < nregs ? sv_xasprintf("%s:%s", names[i], regs[i])
			      : sv_xasprintf("%s#%zu", names[i], i);
		free(names[i]);
		names[i] = l;
	}
	free(dup);
}

struct sv_counters *sv_counters_add(struct sv_profile *p)
{
	struct sv_counters *k;

	p->counters = sv_xreallocarray(
		p->counters, p->ncounters + 1, sizeof *p->counters);
	k = &p->counters[p->ncounters++];
	memset(k, 0, sizeof *k);
	k->calls = -1;
	k->time_s = -1;
	k->nthreads = 1;
	return k;
}

struct sv_counters *sv_counters_add_likwid(struct sv_profile *p, uint32_t rank,
	const char *tag, const char *group, char **events, size_t nev,
	char *const *regs, size_t nregs, const double *ev, size_t nt,
	const int64_t *call_counts, const double *times, char **metrics,
	size_t nmet, const double *mv)
{
	struct sv_counters *k;
	size_t e, t;

	counters_labels(events, nev, regs, nregs);
	k = sv_counters_add(p);
	k->rank = rank;
	k->likwid = true;
	k->region = sv_xstrdup(tag);
	k->group = group ? sv_xstrdup(group) : NULL;
	k->nthreads = (uint32_t)nt;
	k->nevents = nev;
	k->events = events;
	k->values = sv_xcalloc(nev ? nev : 1, sizeof *k->values);
	for (e = 0; e < nev; e++)
		for (t = 0; t < nt; t++)
			k->values[e] += ev[e * nt + t];
	if (call_counts) {
		k->calls = 0;
		/* A damaged file's counts saturate rather than wrap. */
		for (t = 0; t < nt; t++)
			k->calls = sv_add_sat(k->calls, call_counts[t]);
	}
	for (t = 0; times && t < nt; t++)
		if (times[t] > k->time_s)
			k->time_s = times[t];
	if (!mv) {
		sv_strv_free_array(metrics, nmet);
		return k;
	}
	k->nmetrics = nmet;
	k->metrics = metrics;
	k->metric_values =
		sv_xcalloc(nmet ? nmet : 1, sizeof *k->metric_values);
	for (e = 0; e < nmet && nt; e++) {
		for (t = 0; t < nt; t++)
			k->metric_values[e] += mv[e * nt + t];
		k->metric_values[e] /= (double)nt;
	}
	return k;
}
