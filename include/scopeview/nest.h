/*
 * nest.h: how the calls of one lane nest, computed once for everyone who
 * needs it: sv_profile_finish() (depth, parent and exclusive time of every
 * call) and the writer's per-row exclusive totals (write.h).
 *
 * The rule is scope-profiler's call_stack.py: walk the lane's calls in
 * order of start ascending, end descending, with a stack of the calls
 * still open; a call is the child of the top of the stack.  A call closes
 * at its end, except that a zero-length call (and one that ends before it
 * starts) stays open at its own start, so a call starting at that instant
 * is its child.  A child that ends after its parent (a partial overlap,
 * scope-profiler's NestingError) stays where it starts; its parent is
 * charged only for the part it covers, and the caller hears of it.
 */
#ifndef SCOPEVIEW_NEST_H
#define SCOPEVIEW_NEST_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/nest.h belongs to the model layer, which this layer may not use"
#endif

#include <stddef.h>
#include <stdint.h>

#include "scopeview/profile.h"

/* The calls' times and where to put what nesting finds.  Every array is
 * indexed by call number; the output arrays may each be NULL. */
struct sv_nest {
	const int64_t *start_ns,
		*end_ns;    /* ns, any values (arithmetic wraps) */
	uint32_t *parent;   /* enclosing call, SV_NO_CALL for a root */
	uint16_t *depth;    /* 0 for a root, capped at SV_MAX_DEPTH */
	int64_t *exclusive; /* duration minus what its direct children cover */
	/* Called for each partial overlap, in lane order (NULL: not told). */
	void (*overlap)(void *ctx, uint32_t call, uint32_t parent);
	void *ctx;
	/* Instead of end_ns (NULL): the durations as sv_profile_finish
	 * keeps them, uint32 with their exception table (wide.h). */
	const uint32_t *dur;
	const struct sv_wide *dur_wide;
	/* Instead of exclusive (NULL): int32, the values outside it in
	 * *exclusive_wide (SV_WIDE_I32 marks them; appended in the order the
	 * calls close, so the caller sorts it: sv_wide_sort), so no int64
	 * per call is
	 * needed: an open call's running sum is kept in acc, one int64 per
	 * slot of the stack, and narrowed when the call closes. */
	int32_t *exclusive32;
	struct sv_wide *exclusive_wide;
	int64_t *acc;
	/* Instead of depth (NULL): a byte a call, the depths of 255 and
	 * more in *depth_wide (SV_WIDE_U8 marks them; appended in lane
	 * order, so the caller sorts it). */
	uint8_t *depth8;
	struct sv_wide *depth_wide;
};

/*
 * Nest the n calls of one lane, calls[0 .. n) in order of start ascending,
 * end descending (the order among calls equal in both is the caller's:
 * the earlier is the parent).  stack is scratch room for n call numbers
 * (and nest->acc, when exclusive32 is set, for n int64).
 * Writes the outputs of every call listed (and no other).  Returns the
 * rows the lane needs to be drawn: 1 + its deepest depth, at most
 * SV_MAX_DEPTH + 1; 0 when n is 0.
 */
uint32_t sv_nest_lane(const struct sv_nest *nest, const uint32_t *calls,
	size_t n, uint32_t *stack);

/* The same with a stack (and, for exclusive32, its running sums: nest->acc
 * is not read) grown as the lane nests deeper rather than sized for n
 * calls: a lane of millions of calls nests a few deep, so its stack
 * takes bytes, not 12 bytes a call.  st starts zeroed, serves lane after
 * lane, and is freed with sv_nest_stack_fini. */
struct sv_nest_stack {
	uint32_t *call;
	int64_t *acc;
	int64_t *start; /* each open call's start */
	size_t cap;
};
uint32_t sv_nest_lane_grow(const struct sv_nest *nest, const uint32_t *calls,
	size_t n, struct sv_nest_stack *st);
/* The same for a lane whose order and starts are the caller's: call i
 * (of start order) is calls[at[i]] and starts at starts[at[i]]
 * (nest->start_ns is not read), so that neither the calls nor their
 * starts need be moved into start order first, and the starts can be
 * the lane's own (read once from a packed column) rather than an int64
 * a call of the whole profile. */
uint32_t sv_nest_lane_at(const struct sv_nest *nest, const uint32_t *calls,
	const uint32_t *at, const int64_t *starts, size_t n,
	struct sv_nest_stack *st);
void sv_nest_stack_fini(struct sv_nest_stack *st);

#endif
