/*
 * histogram.c: log-spaced duration histograms (see histogram.h).  Two
 * passes over the calls: the first finds the ends and each call's bin (a
 * byte per call), the second scatters the calls into their bins.  A list
 * given longest first needs neither: its bins are runs of it, found by a
 * binary search per bin.
 */
#include "scopeview/histogram.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"
#include "scopeview/fmt.h"

#define HIST_POLL 65536

void sv_hist_fini(struct sv_hist *h)
{
	if (!h)
		return;
	free(h->edges);
	free(h->counts);
	free(h->first);
	free(h->order);
	memset(h, 0, sizeof *h);
}

long sv_hist_bin_of(const struct sv_hist *h, int64_t ns)
{
	double d = (double)ns;
	size_t lo = 0, hi;

	if (!h || !h->nbins || ns <= 0 || d < h->edges[0] ||
		d > h->edges[h->nbins])
		return -1;
	/* The last i with edges[i] <= d, capped at the last bin. */
	hi = h->nbins;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (h->edges[mid] <= d)
			lo = mid;
		else
			hi = mid;
	}
	return (long)lo;
}

/* The bin of a duration by a table over the top bits of its double (the
 * exponent and HIST_KEY_BITS of the mantissa: buckets 1/256 wide, far
 * narrower than any bin), each entry the bin of its bucket's lowest value,
 * then corrected against the edges, so the rule is exactly the edges'
 * (sv_hist_bin_of); a logarithm or a binary search per call is several
 * times slower on millions of calls. */
#define HIST_KEY_BITS 8

struct hist_table {
	uint64_t kmin;
	uint8_t *bin; /* by key - kmin */
	size_t n;
};

static uint64_t hist_key(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u >> (52 - HIST_KEY_BITS);
}

static void hist_table_build(struct hist_table *t, const struct sv_hist *h)
{
	uint64_t k, kmax = hist_key(h->edges[h->nbins]);
	t->kmin = hist_key(h->edges[0]);
	t->n = (size_t)(kmax - t->kmin + 1);
	t->bin = sv_xmalloc(t->n);
	for (k = t->kmin; k <= kmax; k++) {
		uint64_t u = k << (52 - HIST_KEY_BITS);
		double d;
		long b;
		memcpy(&d, &u, sizeof d);
		if (d < h->edges[0])
			d = h->edges[0];
		/* (2^63, the top edge of durations near INT64_MAX, is no
		 * int64.) */
		d = ceil(d);
		b = sv_hist_bin_of(h, d >= 0x1p63 ? INT64_MAX : (int64_t)d);
		t->bin[k - t->kmin] = (uint8_t)(b < 0 ? 0 : b);
	}
}

static long hist_bin_fast(
	const struct sv_hist *h, const struct hist_table *t, int64_t ns)
{
	double d = (double)ns;
	long b, last = (long)h->nbins - 1;

	if (ns <= 0 || d < h->edges[0] || d > h->edges[h->nbins])
		return -1;
	b = t->bin[hist_key(d) - t->kmin];
	while (b > 0 && d < h->edges[b])
		b--;
	while (b < last && d >= h->edges[b + 1])
		b++;
	return b;
}

static bool hist_cancelled(const atomic_bool *cancel)
{
	return cancel && atomic_load_explicit(cancel, memory_order_relaxed);
}

/* Set up h's bins over [lo, hi] for n calls (any: some duration is
 * positive); false when there is none (h then holds the zero calls). */
static bool hist_setup(struct sv_hist *h, uint64_t n, bool any, int64_t lo,
	int64_t hi, size_t nbins)
{
	size_t i;

	h->ncalls = n;
	if (!any) {
		h->nzero = n;
		h->first = sv_xcalloc(1, sizeof *h->first);
		return false;
	}
	if (lo == hi)
		nbins = 1;
	h->nbins = nbins;
	h->min_ns = lo;
	h->max_ns = hi;
	h->edges = sv_xmalloc((nbins + 1) * sizeof *h->edges);
	for (i = 0; i <= nbins; i++)
		h->edges[i] = exp(log((double)lo) +
				  (double)i *
					  (log((double)hi) - log((double)lo)) /
					  (double)nbins);
	h->edges[0] = (double)lo;
	h->edges[nbins] = (double)hi;
	h->counts = sv_xcalloc(nbins, sizeof *h->counts);
	h->first = sv_xcalloc(nbins + 1, sizeof *h->first);
	return true;
}

void sv_hist_frame(struct sv_hist *h, uint64_t ncalls, bool any, int64_t lo,
	int64_t hi, size_t nbins)
{
	memset(h, 0, sizeof *h);
	if (nbins < 1)
		nbins = 1;
	if (nbins > SV_HIST_MAX_BINS)
		nbins = SV_HIST_MAX_BINS;
	hist_setup(h, ncalls, any, lo, hi, nbins);
}

int sv_hist_build(struct sv_hist *h, const struct sv_profile *p,
	const uint32_t *calls, size_t n, size_t nbins,
	const atomic_bool *cancel, _Atomic uint64_t *progress)
{
	int64_t lo = 0, hi = 0;
	bool any = false;
	uint8_t *bin;
	uint64_t *fill;
	struct hist_table tab;
	int64_t *dur;
	size_t i;

	if (!h || !p || (n && !calls) || nbins < 1 || nbins > SV_HIST_MAX_BINS)
		return -EINVAL;
	memset(h, 0, sizeof *h);
	/* One pass over the call columns, in the list's order (a list
	 * sorted by duration reads them at random: that is the cost), then
	 * only the gathered durations. */
	dur = sv_xmalloc((n ? n : 1) * sizeof *dur);
	for (i = 0; i < n; i++) {
		int64_t d = sv_call_duration(p, calls[i]);
		if ((i & (HIST_POLL - 1)) == 0 && hist_cancelled(cancel)) {
			free(dur);
			return -ECANCELED;
		}
		dur[i] = d;
		if (d <= 0)
			continue;
		if (!any || d < lo)
			lo = d;
		if (!any || d > hi)
			hi = d;
		any = true;
	}
	if (!hist_setup(h, n, any, lo, hi, nbins)) {
		free(dur);
		return 0;
	}
	nbins = h->nbins;
	bin = sv_xmalloc(n ? n : 1);
	hist_table_build(&tab, h);
	for (i = 0; i < n; i++) {
		long b = hist_bin_fast(h, &tab, dur[i]);
		if ((i & (HIST_POLL - 1)) == 0) {
			if (hist_cancelled(cancel)) {
				free(tab.bin);
				free(bin);
				free(dur);
				sv_hist_fini(h);
				return -ECANCELED;
			}
			if (progress)
				atomic_store(progress, (uint64_t)i / 2);
		}
		bin[i] = b < 0 ? 0xff : (uint8_t)b;
		if (b < 0)
			h->nzero++;
		else
			h->counts[b]++;
	}
	for (i = 0; i < nbins; i++)
		h->first[i + 1] = h->first[i] + h->counts[i];
	h->order = sv_xmalloc(
		(h->first[nbins] ? h->first[nbins] : 1) * sizeof *h->order);
	fill = sv_xmalloc(nbins * sizeof *fill);
	memcpy(fill, h->first, nbins * sizeof *fill);
	for (i = 0; i < n; i++) {
		if ((i & (HIST_POLL - 1)) == 0 && progress)
			atomic_store(progress, (uint64_t)(n + i) / 2);
		if (bin[i] != 0xff)
			h->order[fill[bin[i]]++] = calls[i];
	}
	if (progress)
		atomic_store(progress, (uint64_t)n);
	free(tab.bin);
	free(fill);
	free(bin);
	free(dur);
	return 0;
}

/* The first position i in [lo, hi) of calls (longest first) whose bin is
 * below b (bins only fall along the list), or hi. */
static size_t hist_first_below(const struct sv_hist *h,
	const struct hist_table *t, const struct sv_profile *p,
	const uint32_t *calls, size_t lo, size_t hi, long b)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (hist_bin_fast(h, t, sv_call_duration(p, calls[mid])) < b)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

int sv_hist_build_longest(struct sv_hist *h, const struct sv_profile *p,
	const uint32_t *calls, size_t n, size_t nbins)
{
	struct hist_table tab;
	size_t npos, at, b;
	int64_t hi;

	if (!h || !p || (n && !calls) || nbins < 1 || nbins > SV_HIST_MAX_BINS)
		return -EINVAL;
	memset(h, 0, sizeof *h);
	/* The positive durations are a prefix: the first is the longest,
	 * the last of the prefix the shortest. */
	hi = n ? sv_call_duration(p, calls[0]) : 0;
	{
		size_t lo = 0, up = n;
		while (lo < up) {
			size_t mid = lo + (up - lo) / 2;
			if (sv_call_duration(p, calls[mid]) > 0)
				lo = mid + 1;
			else
				up = mid;
		}
		npos = lo;
	}
	if (!hist_setup(h, n, npos > 0,
		    npos ? sv_call_duration(p, calls[npos - 1]) : 0, hi, nbins))
		return 0;
	h->nzero = n - npos;
	hist_table_build(&tab, h);
	/* Bin b is the run of positions whose bin is b, the highest bin
	 * first; order holds the bins lowest first, each run as given. */
	h->order = sv_xmalloc((npos ? npos : 1) * sizeof *h->order);
	at = 0;
	for (b = h->nbins; b-- > 0;) {
		size_t end =
			hist_first_below(h, &tab, p, calls, at, npos, (long)b);
		h->counts[b] = end - at;
		at = end;
	}
	for (b = 0; b < h->nbins; b++)
		h->first[b + 1] = h->first[b] + h->counts[b];
	at = 0;
	for (b = h->nbins; b-- > 0;) {
		memcpy(h->order + h->first[b], calls + at,
			h->counts[b] * sizeof *calls);
		at += h->counts[b];
	}
	free(tab.bin);
	return 0;
}

char *sv_hist_edge_label(const struct sv_hist *h, size_t i, int sig,
	unsigned flags, char *buf, size_t n)
{
	return sv_fmt_dur_ex(
		(double)sv_i64_sat(h->edges[i]), sig, flags, buf, n);
}

int sv_hist_edge_digits(const struct sv_hist *h, unsigned flags)
{
	char a[64], b[64];
	size_t i;
	int sig;
	bool apart = false;

	for (sig = 3; sig < 17 && !apart; sig++) {
		apart = true;
		for (i = 0; apart && i < h->nbins; i++)
			apart = strcmp(sv_hist_edge_label(
					       h, i, sig, flags, a, sizeof a),
					sv_hist_edge_label(h, i + 1, sig, flags,
						b, sizeof b)) != 0;
		if (apart)
			return sig;
	}
	return 17;
}
