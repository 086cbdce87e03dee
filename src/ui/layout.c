/*
 * layout.c: the time map, the level-of-detail index, hit testing and
 * navigation between calls (layout.h; the lane rows and the screen
 * geometry are layout_rows.c).
 *
 * Invariants: every time-to-column product is computed in 128 bits; the
 * index levels hold their calls in the lane's start order, so binary
 * searches over the starts and the running maxima of the ends (both
 * nondecreasing) find the calls of any time range, and the longest call
 * of each block's prefixes and suffixes with the sparse table of whole
 * blocks answer "longest call among positions [lo, hi)" in O(1) (a scan
 * only inside one block; the query itself, with the walk of a row, is
 * layout_walk.c).  Nothing here draws, prints or knows about curses.
 */
#include "scopeview/layout.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- time map ------------------------------------------------------------ */

bool sv_tmap_valid(const struct sv_tmap *m)
{
	return m && m->w > 0 && m->t1 > m->t0;
}

int64_t sv_tmap_time(const struct sv_tmap *m, int x)
{
	sv_i128 span = (sv_i128)m->t1 - m->t0;
	long k = (long)x - m->x0;

	if (k <= 0)
		return m->t0;
	if (k >= m->w)
		return m->t1;
	return (int64_t)((sv_i128)m->t0 + (sv_i128)k * span / m->w);
}

int sv_tmap_col(const struct sv_tmap *m, int64_t t)
{
	sv_i128 span = (sv_i128)m->t1 - m->t0, d;

	if (t < m->t0)
		return m->x0 - 1;
	if (t >= m->t1)
		return m->x0 + m->w;
	/* The k with tcol(k) <= t < tcol(k + 1): ceil((d + 1) w / S) - 1. */
	d = (sv_i128)t - m->t0;
	return m->x0 + (int)(((d + 1) * m->w - 1) / span);
}

bool sv_tmap_span(
	const struct sv_tmap *m, int64_t s, int64_t e, int *x0, int *x1)
{
	sv_i128 ee = (sv_i128)e > (sv_i128)s + 1 ? (sv_i128)e : (sv_i128)s + 1;
	int64_t lo, hi;

	if (!sv_tmap_valid(m) || s >= m->t1 || ee <= m->t0)
		return false;
	lo = s > m->t0 ? s : m->t0;
	hi = ee < (sv_i128)m->t1 ? (int64_t)(ee - 1) : m->t1 - 1;
	*x0 = sv_tmap_col(m, lo);
	*x1 = sv_tmap_col(m, hi) + 1;
	return true;
}

int64_t sv_tmap_anchor(int64_t t, int x, int x0, int w, int64_t span)
{
	sv_i128 k, a, b, t0;

	if (w <= 0)
		w = 1;
	if (span <= 0)
		span = 1;
	k = (sv_i128)x - x0;
	if (k < 0)
		k = 0;
	if (k >= w)
		k = w - 1;
	a = k * span / w;
	b = (k + 1) * span / w;
	t0 = (sv_i128)t - (a + b) / 2;
	if (t0 < INT64_MIN)
		t0 = INT64_MIN;
	if (t0 > (sv_i128)INT64_MAX - span)
		t0 = (sv_i128)INT64_MAX - span;
	return (int64_t)t0;
}

/* ---- the index, once built (layout_build.c makes it) ---------------------- */

const struct sv_lod_level *sv_layout_level(
	const struct sv_layout_index *ix, size_t lane, uint32_t depth)
{
	if (!ix || lane >= ix->nlanes || depth >= ix->lanes[lane].ndepth)
		return NULL;
	return &ix->lanes[lane].levels[depth];
}

/* First position i of lv with sv_lod_maxend(lv, i) > t. */
static uint32_t lod_upper_end(const struct sv_lod_level *lv, int64_t t)
{
	uint32_t lo = 0, hi = lv->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (sv_lod_maxend(lv, mid) > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* First position i of lv with sv_lod_start(lv, i) >= t. */
static uint32_t lod_lower_start(const struct sv_lod_level *lv, int64_t t)
{
	uint32_t lo = 0, hi = lv->n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (sv_lod_start(lv, mid) >= t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void sv_layout_range(const struct sv_lod_level *lv, int64_t t0, int64_t t1,
	uint32_t *lo, uint32_t *hi)
{
	uint32_t a, b;

	if (!lv || !lv->n || t1 <= t0) {
		*lo = *hi = 0;
		return;
	}
	a = lod_upper_end(lv, t0);
	b = lod_lower_start(lv, t1);
	*lo = a;
	*hi = b < a ? a : b;
}

int64_t sv_layout_busy(const struct sv_lod_level *lv, int64_t t0, int64_t t1,
	uint32_t lo, uint32_t hi)
{
	int64_t sum, cut;
	uint32_t k;

	if (!lv || hi <= lo || hi > lv->n || t1 <= t0)
		return 0;
	sum = sv_sub_sat(sv_lod_cumdur(lv, hi), sv_lod_cumdur(lv, lo));
	/* Only the first and last calls can stick out of the range. */
	for (k = lo; k < hi; k = k + 1 < hi ? hi - 1 : hi) {
		int64_t s = sv_lod_start(lv, k), d = sv_lod_dur(lv, k),
			e = sv_add_sat(s, d);
		/* Saturated: the times may span all of int64 (issue 40). */
		cut = 0;
		if (s < t0)
			cut = sv_sub_sat(e < t0 ? e : t0, s);
		if (e > t1)
			cut = sv_add_sat(cut, sv_sub_sat(e, s > t1 ? s : t1));
		sum = sv_sub_sat(sum, cut < d ? cut : d);
	}
	return sum < 0                    ? 0
	       : sum > sv_sub_sat(t1, t0) ? sv_sub_sat(t1, t0)
					  : sum;
}

uint32_t sv_layout_hit(const struct sv_layout_index *ix, size_t lane,
	uint32_t depth, const struct sv_tmap *m, int x, uint32_t *count)
{
	const struct sv_lod_level *lv = sv_layout_level(ix, lane, depth);
	uint32_t lo, hi;

	if (count)
		*count = 0;
	if (!lv || !sv_tmap_valid(m) || x < m->x0 || x >= m->x0 + m->w)
		return SV_NO_CALL;
	sv_layout_range(
		lv, sv_tmap_time(m, x), sv_tmap_time(m, x + 1), &lo, &hi);
	if (hi <= lo)
		return SV_NO_CALL;
	if (count)
		*count = hi - lo;
	return sv_lod_call(lv, sv_layout_longest(ix, lv, lo, hi));
}

/* ---- navigation -------------------------------------------------------- */

uint32_t sv_layout_lane_step(const struct sv_profile *p, uint32_t call, int dir)
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

uint32_t sv_layout_level_pos(const struct sv_layout_index *ix, uint32_t call)
{
	const struct sv_lod_level *lv;
	uint32_t lo = 0, hi;

	if (!ix || !ix->p || call >= ix->p->ncalls ||
		!sv_profile_has_lanes(ix->p) || !ix->p->region_pos)
		return UINT32_MAX;
	lv = sv_layout_level(
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
static const struct sv_lod_level *lod_children(const struct sv_layout_index *ix,
	uint32_t call, uint32_t *lo, uint32_t *hi)
{
	const struct sv_profile *p;
	const struct sv_lod_level *lv;
	int64_t s, e;

	if (!ix || !ix->p || call >= ix->p->ncalls ||
		!sv_profile_has_lanes(ix->p))
		return NULL;
	p = ix->p;
	lv = sv_layout_level(ix, sv_call_lane(p, call),
		(uint32_t)sv_profile_depth(p, call) + 1);
	if (!lv)
		return NULL;
	s = sv_profile_start(p, call);
	e = sv_layout_call_end(p, call);
	*lo = lod_lower_start(lv, s);
	*hi = lod_lower_start(lv, e);
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

uint32_t sv_layout_first_child(const struct sv_layout_index *ix, uint32_t call)
{
	uint32_t lo, hi;
	const struct sv_lod_level *lv = lod_children(ix, call, &lo, &hi);
	return lv ? sv_lod_call(lv, lo) : SV_NO_CALL;
}

uint32_t sv_layout_longest_child(
	const struct sv_layout_index *ix, uint32_t call)
{
	uint32_t lo, hi;
	const struct sv_lod_level *lv = lod_children(ix, call, &lo, &hi);
	return lv ? sv_lod_call(lv, sv_layout_longest(ix, lv, lo, hi))
		  : SV_NO_CALL;
}

uint32_t sv_layout_sibling(
	const struct sv_layout_index *ix, uint32_t call, int dir)
{
	uint32_t pos = sv_layout_level_pos(ix, call), other;
	const struct sv_lod_level *lv;

	if (pos == UINT32_MAX)
		return SV_NO_CALL;
	lv = sv_layout_level(
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
