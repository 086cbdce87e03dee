/*
 * calls.h: lists of calls (of a region, a histogram bin or a search),
 * sorted by any column, for the call-list view and `scopeview calls`.
 *
 * A list holds call numbers of one profile.  Collecting the calls of a
 * region walks its rows (each a slice of the call columns), so it costs
 * O(calls of the region); sorting uses the radix sort (radix.h), O(n),
 * with ties in call-number order (storage order).  Columns the file does
 * not have (gpu, await) sort as absent: after every present value,
 * whatever the direction.  Both can be cancelled by a flag polled every
 * 64 Ki calls.  Nothing here prints or knows about the terminal.
 */
#ifndef SCOPEVIEW_CALLS_H
#define SCOPEVIEW_CALLS_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/calls.h belongs to the model layer, which this layer may not use"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/profile.h"

/* Sort keys: name, default direction (true = descending), help. */
#define SV_CALLS_KEY_TABLE(X)                                            \
	X(DURATION, "duration", true, "duration, longest first")         \
	X(START, "start", false, "start, earliest first")                \
	X(END, "end", false, "end, earliest first")                      \
	X(RANK, "rank", false, "rank, then start")                       \
	X(LANE, "lane", false, "lane, then start")                       \
	X(EXCLUSIVE, "exclusive", true, "exclusive time, longest first") \
	X(GPU, "gpu", true, "GPU time, longest first")                   \
	X(AWAIT, "await", true, "await time, longest first")

enum sv_calls_key {
#define SV_CALLS_KEY_ENUM(id, name, desc, help) SV_CALLS_KEY_##id,
	SV_CALLS_KEY_TABLE(SV_CALLS_KEY_ENUM)
#undef SV_CALLS_KEY_ENUM
		SV_CALLS_KEY_COUNT
};

const char *sv_calls_key_name(enum sv_calls_key key); /* NULL if bad */
const char *sv_calls_key_help(enum sv_calls_key key);
int sv_calls_key_from_name(const char *name); /* -1 if unknown */
bool sv_calls_key_descending(enum sv_calls_key key);

/*
 * The calls of region (index into p->regions) on the ranks rank_on keeps
 * (rank r kept iff r < nrank_on && rank_on[r]; NULL keeps all), in call
 * number order, into *out (malloc'd, NULL when none).  Returns the count;
 * -ECANCELED when cancelled (nothing stored); -EINVAL for a bad region.
 */
long sv_calls_of_region(const struct sv_profile *p, uint32_t region,
	const bool *rank_on, uint32_t nrank_on, uint32_t **out,
	const atomic_bool *cancel);

/*
 * Sort calls[0..n) of p by key, in the key's default direction or its
 * reverse (reverse true).  Ties come in call-number order, whatever
 * their order in calls (rank and lane: by start, then call number), so
 * sorting a list twice, or two lists of the same calls, gives one
 * order.  Returns 0,
 * -ECANCELED (calls then unchanged) or -EINVAL.
 */
int sv_calls_sort(const struct sv_profile *p, uint32_t *calls, size_t n,
	enum sv_calls_key key, bool reverse, const atomic_bool *cancel);

/* A list as `scopeview calls` makes it: the calls of the region named
 * region on the ranks rank_on keeps (NULL: all), sorted by key (its
 * default direction, or the other with reverse), the first limit of
 * them (-1: all). */
struct sv_calls_query {
	const char *region;
	const bool *rank_on;
	uint32_t nrank_on;
	enum sv_calls_key key;
	bool reverse;
	long limit;
};

/* The list q asks of p into *out (malloc'd, NULL when none): its count,
 * 0 when p has no region so named, or -EINVAL for a bad key. */
long sv_calls_pick(const struct sv_profile *p, const struct sv_calls_query *q,
	uint32_t **out);

/* The value of key for call c; false when the file has no such column (or
 * the call no GPU timing: gpu_ns < 0). */
bool sv_calls_value(const struct sv_profile *p, uint32_t c,
	enum sv_calls_key key, int64_t *out);

#endif
