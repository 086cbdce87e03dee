/*
 * nest.c: the stack pass that nests one lane's calls (nest.h).
 *
 * One pass, no allocation: the caller sorts the lane and gives the stack.
 * Durations are wrapping differences (sv_sub_wrap), so a damaged file's
 * absurd times are never undefined behaviour.
 */
#include "scopeview/nest.h"

#include "scopeview/common.h"

/* Whether open call c has closed when a call starting at t opens.  A
 * zero-length call (or one ending before its start) is open at its own
 * start. */
static bool nest_closed(const struct sv_nest *x, uint32_t c, int64_t t)
{
	int64_t s = x->start_ns[c], e = x->end_ns[c];

	if (e <= s)
		return s < t;
	return e <= t;
}

uint32_t sv_nest_lane(const struct sv_nest *x, const uint32_t *calls, size_t n,
	uint32_t *stack)
{
	size_t depth = 0, rows = 0, i;

	for (i = 0; i < n; i++) {
		uint32_t c = calls[i];
		int64_t dur = sv_sub_wrap(x->end_ns[c], x->start_ns[c]);

		while (depth &&
			nest_closed(x, stack[depth - 1], x->start_ns[c]))
			depth--;
		if (x->depth)
			x->depth[c] = depth > SV_MAX_DEPTH ? SV_MAX_DEPTH
							   : (uint16_t)depth;
		if (x->exclusive)
			x->exclusive[c] = dur;
		if (depth) {
			uint32_t par = stack[depth - 1];
			int64_t covered = dur;
			if (x->parent)
				x->parent[c] = par;
			if (x->end_ns[c] > x->end_ns[par] &&
				x->end_ns[par] >= x->start_ns[par]) {
				if (x->overlap)
					x->overlap(x->ctx, c, par);
				covered = sv_sub_wrap(
					x->end_ns[par], x->start_ns[c]);
			}
			if (covered > 0 && x->exclusive)
				x->exclusive[par] =
					sv_sub_wrap(x->exclusive[par], covered);
		} else if (x->parent) {
			x->parent[c] = SV_NO_CALL;
		}
		if (depth + 1 > rows)
			rows = depth + 1;
		stack[depth++] = c;
	}
	return (uint32_t)(rows > (size_t)SV_MAX_DEPTH + 1
				  ? (size_t)SV_MAX_DEPTH + 1
				  : rows);
}
