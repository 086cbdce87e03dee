/*
 * lod_nav.c: navigation between calls through the level-of-detail index
 * (lod.h): a call's position in its level, its first and longest
 * children, its siblings, and the next call of its lane.  Each is a
 * binary search or two in a level kept in its lane's order, O(log n);
 * calls the index leaves out (a filter's) are never reached.  Nothing
 * here allocates, and nothing knows about columns or screens.
 */
#include "scopeview/lod.h"

#include "lod_priv.h"

uint32_t sv_lod_lane_step(const struct sv_profile *p, uint32_t call, int dir)
{
	uint32_t pos = sv_profile_lane_pos(p, call);
	const struct sv_lane *l;

	if (pos == UINT32_MAX)
		return SV_NO_CALL;
	l = &p->lanes[sv_call_lane(p, call)];
	if (dir > 0)
		return pos + 1 < l->ncalls ? sv_lane_call(l, pos + 1)
					   : SV_NO_CALL;
	return pos > 0 ? sv_lane_call(l, pos - 1) : SV_NO_CALL;
}

uint32_t sv_lod_level_pos(const struct sv_lod_index *ix, uint32_t call)
{
	const struct sv_lod_level *lv;
	uint32_t lo = 0, hi;

	if (!ix || !ix->p || call >= ix->p->ncalls ||
		!sv_profile_has_lanes(ix->p) || !ix->p->region_pos)
		return UINT32_MAX;
	lv = sv_lod_index_level(
		ix, sv_call_lane(ix->p, call), sv_profile_depth(ix->p, call));
	if (!lv)
		return UINT32_MAX;
	/* The level keeps its lane's order (a part of the lane's calls), so
	 * a binary search in that order finds the call, even among many
	 * that start together. */
	hi = lv->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (sv_profile_lane_order(ix->p, sv_lod_call(lv, mid), call))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < lv->n && sv_lod_call(lv, lo) == call ? lo : UINT32_MAX;
}

/* Positions [*lo, *hi) of the level below call that start inside it. */
static const struct sv_lod_level *lod_children(const struct sv_lod_index *ix,
	uint32_t call, uint32_t *lo, uint32_t *hi)
{
	const struct sv_profile *p;
	const struct sv_lod_level *lv;
	int64_t s, e;

	if (!ix || !ix->p || call >= ix->p->ncalls ||
		!sv_profile_has_lanes(ix->p))
		return NULL;
	p = ix->p;
	lv = sv_lod_index_level(ix, sv_call_lane(p, call),
		(uint32_t)sv_profile_depth(p, call) + 1);
	if (!lv)
		return NULL;
	s = sv_profile_start(p, call);
	e = sv_lod_call_end(p, call);
	*lo = sv_lod_first_start(lv, s);
	*hi = sv_lod_first_start(lv, e);
	/* A zero-length child at the parent's end still belongs to it. */
	while (*hi < lv->n && sv_lod_start(lv, *hi) == e &&
		sv_profile_parent(p, sv_lod_call(lv, *hi)) == call)
		(*hi)++;
	while (*lo < *hi && sv_profile_parent(p, sv_lod_call(lv, *lo)) != call)
		(*lo)++;
	while (*hi > *lo &&
		sv_profile_parent(p, sv_lod_call(lv, *hi - 1)) != call)
		(*hi)--;
	return *hi > *lo ? lv : NULL;
}

uint32_t sv_lod_first_child(const struct sv_lod_index *ix, uint32_t call)
{
	uint32_t lo, hi;
	const struct sv_lod_level *lv = lod_children(ix, call, &lo, &hi);
	return lv ? sv_lod_call(lv, lo) : SV_NO_CALL;
}

uint32_t sv_lod_longest_child(const struct sv_lod_index *ix, uint32_t call)
{
	uint32_t lo, hi;
	const struct sv_lod_level *lv = lod_children(ix, call, &lo, &hi);
	return lv ? sv_lod_call(lv, sv_lod_longest(ix, lv, lo, hi))
		  : SV_NO_CALL;
}

uint32_t sv_lod_sibling(const struct sv_lod_index *ix, uint32_t call, int dir)
{
	uint32_t pos = sv_lod_level_pos(ix, call), other;
	const struct sv_lod_level *lv;

	if (pos == UINT32_MAX)
		return SV_NO_CALL;
	lv = sv_lod_index_level(
		ix, sv_call_lane(ix->p, call), sv_profile_depth(ix->p, call));
	if (dir > 0) {
		if (pos + 1 >= lv->n)
			return SV_NO_CALL;
		other = sv_lod_call(lv, pos + 1);
	} else {
		if (pos == 0)
			return SV_NO_CALL;
		other = sv_lod_call(lv, pos - 1);
	}
	return sv_profile_parent(ix->p, other) == sv_profile_parent(ix->p, call)
		       ? other
		       : SV_NO_CALL;
}
