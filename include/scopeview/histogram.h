/*
 * histogram.h: log-spaced duration histograms of a set of calls, with the
 * calls of every bin, for the histogram view and `scopeview calls
 * --histogram`.
 *
 * Bins: nbins bins between the shortest and the longest positive
 * duration, edges[i] = exp(log(lo) + i * (log(hi) - log(lo)) / nbins)
 * (numpy.logspace of the same ends), edges[0] = lo and edges[nbins] = hi
 * exactly.  A call falls in bin i when edges[i] <= d < edges[i + 1], the
 * last bin also holding d == hi (numpy.histogram's rule).  Durations <= 0
 * are counted apart (nzero) and belong to no bin.  When every positive
 * duration is the same there is one bin [d, d].
 *
 * The calls of bin i are order[first[i] .. first[i + 1]), in the order
 * they were given.  Building costs O(n) (8 bytes a call of scratch) with no allocation per
 * call, and can be cancelled: a flag polled every 64 Ki calls.  Nothing
 * here prints or knows about the terminal.
 */
#ifndef SCOPEVIEW_HISTOGRAM_H
#define SCOPEVIEW_HISTOGRAM_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/histogram.h belongs to the model layer, which this layer may not use"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/profile.h"

#define SV_HIST_MAX_BINS 200 /* bins fit a byte, 0xff = none */

struct sv_hist {
	size_t nbins;           /* 0 when no call has a positive duration */
	double *edges;          /* nbins + 1, ns */
	uint64_t *counts;       /* nbins */
	uint64_t nzero;         /* calls with duration <= 0 */
	uint64_t ncalls;        /* calls given */
	uint64_t *first;        /* nbins + 1 offsets into order */
	uint32_t *order;        /* the calls of the bins, bin after bin */
	int64_t min_ns, max_ns; /* over positive durations (nbins > 0) */
};

/*
 * Build h over calls[0..n) of p with nbins bins (1..SV_HIST_MAX_BINS).
 * h is overwritten.  progress (may be NULL) gets calls done; cancel (may
 * be NULL) is polled.  Returns 0, -EINVAL for bad arguments, -ECANCELED
 * (h then holds nothing).
 */
int sv_hist_build(struct sv_hist *h, const struct sv_profile *p,
	const uint32_t *calls, size_t n, size_t nbins,
	const atomic_bool *cancel, _Atomic uint64_t *progress);
/*
 * The same histogram as sv_hist_build gives, for calls[0..n) given longest
 * first (as the session's marked list and the call list's default order
 * are): O(nbins log n) reads of the columns and a copy of the list, where
 * sv_hist_build reads every call's columns (at random, for such a list).
 * A list in another order gives a wrong histogram.  Returns 0 or -EINVAL.
 */
int sv_hist_build_longest(struct sv_hist *h, const struct sv_profile *p,
	const uint32_t *calls, size_t n, size_t nbins);
/*
 * Set h up as sv_hist_build does for ncalls calls whose positive
 * durations span [lo, hi] (any false: none is positive, and every call
 * counts in nzero): the edges, every count 0 and no calls in the bins.
 * A histogram added up from parts (scopeview-mpi's processes) is framed
 * over the parts' common span, and each duration then counted in its
 * sv_hist_bin_of.
 */
void sv_hist_frame(struct sv_hist *h, uint64_t ncalls, bool any, int64_t lo,
	int64_t hi, size_t nbins);

/* NULL-safe; h may be re-used. */
void sv_hist_fini(struct sv_hist *h);
/* The bin holding duration ns, or -1 (<= 0, or outside the edges). */
long sv_hist_bin_of(const struct sv_hist *h, int64_t ns);
/* Edge i as a label prints it: rounded to whole ns, sig significant
 * digits, sv_fmt_dur_ex's flags.  Returns buf. */
char *sv_hist_edge_label(const struct sv_hist *h, size_t i, int sig,
	unsigned flags, char *buf, size_t n);
/* The fewest significant digits (3 and up) with which every bin's two
 * edge labels differ, so that no two bins read alike (at 17, exact ns
 * tell any two apart). */
int sv_hist_edge_digits(const struct sv_hist *h, unsigned flags);

#endif
