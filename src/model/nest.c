/*
 * nest.c: the stack pass that nests one lane's calls (nest.h).
 *
 * One pass, no allocation: the caller sorts the lane and gives the stack.
 * Durations are wrapping differences (sv_sub_wrap), so a damaged file's
 * absurd times are never undefined behaviour.
 */
#include "scopeview/nest.h"

#include "scopeview/common.h"

#include <stdlib.h>
#include <string.h>

/* The end of call c, which starts at s. */
static inline int64_t nest_end(const struct sv_nest *x, uint32_t c, int64_t s)
{
	if (x->end_ns)
		return x->end_ns[c];
	return sv_add_wrap(s, sv_wide_get_u32(x->dur_wide, x->dur, c));
}

/* Whether open call c, which starts at s, has closed when a call
 * starting at t opens.  A zero-length call (or one ending before its
 * start) is open at its own start. */
static bool nest_closed(
	const struct sv_nest *x, uint32_t c, int64_t s, int64_t t)
{
	int64_t e = nest_end(x, c, s);

	if (e <= s)
		return s < t;
	return e <= t;
}

/* The call in stack slot k has closed: its exclusive time is final. */
static inline void nest_pop(const struct sv_nest *x, const uint32_t *stack,
	const int64_t *acc, size_t k)
{
	if (x->exclusive32)
		x->exclusive32[stack[k]] =
			sv_wide_i32_append(x->exclusive_wide, stack[k], acc[k]);
}

/* A lane to nest: call i is calls[at[i]] (calls[i] when at is NULL),
 * starting at starts[at[i]] (x->start_ns[call] when starts is NULL). */
struct nest_lane {
	const uint32_t *calls, *at;
	const int64_t *starts;
	size_t n;
};

/* sv_nest_lane on stack and acc (room for n), or, st set, on st's
 * arrays grown as needed, which keep each open call's start too. */
static uint32_t nest_run(const struct sv_nest *x, const struct nest_lane *ln,
	uint32_t *stack, int64_t *acc, struct sv_nest_stack *st)
{
	size_t depth = 0, rows = 0, i;
	int64_t *sst = st ? st->start : NULL;

#define NEST_START(k) (sst ? sst[k] : x->start_ns[stack[k]])
	for (i = 0; i < ln->n; i++) {
		size_t q = ln->at ? ln->at[i] : i;
		uint32_t c = ln->calls[q];
		int64_t s = ln->starts ? ln->starts[q] : x->start_ns[c],
			end = nest_end(x, c, s), dur = sv_sub_wrap(end, s);
		uint16_t shown; /* the depth, capped */

		while (depth && nest_closed(x, stack[depth - 1],
					NEST_START(depth - 1), s))
			nest_pop(x, stack, acc, --depth);
		shown = depth > SV_MAX_DEPTH ? SV_MAX_DEPTH : (uint16_t)depth;
		if (x->depth)
			x->depth[c] = shown;
		if (x->depth8)
			x->depth8[c] =
				sv_wide_u8_append(x->depth_wide, c, shown);
		if (x->exclusive)
			x->exclusive[c] = dur;
		if (st && depth == st->cap) {
			st->cap = st->cap ? 2 * st->cap : 64;
			st->call = sv_xreallocarray(
				st->call, st->cap, sizeof *st->call);
			st->acc = sv_xreallocarray(
				st->acc, st->cap, sizeof *st->acc);
			st->start = sv_xreallocarray(
				st->start, st->cap, sizeof *st->start);
			stack = st->call;
			acc = st->acc;
			sst = st->start;
		}
		if (x->exclusive32)
			acc[depth] = dur;
		if (depth) {
			uint32_t par = stack[depth - 1];
			int64_t covered = dur, ps = NEST_START(depth - 1),
				pend = nest_end(x, par, ps);
			if (x->parent)
				x->parent[c] = par;
			if (end > pend && pend >= ps) {
				if (x->overlap)
					x->overlap(x->ctx, c, par);
				covered = sv_sub_wrap(pend, s);
			}
			if (covered > 0 && x->exclusive)
				x->exclusive[par] =
					sv_sub_wrap(x->exclusive[par], covered);
			if (covered > 0 && x->exclusive32)
				acc[depth - 1] =
					sv_sub_wrap(acc[depth - 1], covered);
		} else if (x->parent) {
			x->parent[c] = SV_NO_CALL;
		}
		if (depth + 1 > rows)
			rows = depth + 1;
		if (sst)
			sst[depth] = s;
		stack[depth++] = c;
	}
#undef NEST_START
	while (depth)
		nest_pop(x, stack, acc, --depth);
	return (uint32_t)(rows > (size_t)SV_MAX_DEPTH + 1
				  ? (size_t)SV_MAX_DEPTH + 1
				  : rows);
}

uint32_t sv_nest_lane(const struct sv_nest *x, const uint32_t *calls, size_t n,
	uint32_t *stack)
{
	struct nest_lane ln = {calls, NULL, NULL, n};
	return nest_run(x, &ln, stack, x->acc, NULL);
}

uint32_t sv_nest_lane_grow(const struct sv_nest *x, const uint32_t *calls,
	size_t n, struct sv_nest_stack *st)
{
	struct nest_lane ln = {calls, NULL, NULL, n};
	return nest_run(x, &ln, st->call, st->acc, st);
}

uint32_t sv_nest_lane_at(const struct sv_nest *x, const uint32_t *calls,
	const uint32_t *at, const int64_t *starts, size_t n,
	struct sv_nest_stack *st)
{
	struct nest_lane ln = {calls, at, starts, n};
	return nest_run(x, &ln, st->call, st->acc, st);
}

void sv_nest_stack_fini(struct sv_nest_stack *st)
{
	free(st->call);
	free(st->acc);
	free(st->start);
	memset(st, 0, sizeof *st);
}
