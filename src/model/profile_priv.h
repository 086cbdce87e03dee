/*
 * profile_priv.h: what the parts of the profile model share beyond
 * profile.h.  Private to src/model/profile*.c and lane_sort.c.
 */
#ifndef SCOPEVIEW_MODEL_PROFILE_PRIV_H
#define SCOPEVIEW_MODEL_PROFILE_PRIV_H

#include "scopeview/common.h"
#include "scopeview/profile.h"

/* profile_lanes.c: group p's calls into p->lanes (doc/format.md 9.1), in
 * display order, each with its label and its calls in storage order
 * (unsorted: sorting and nesting follow in sv_profile_finish), and fill
 * p->lane_of (sv_profile_lanes_by_row may then keep it by row). */
void sv_profile_lanes_build(struct sv_profile *p);
/* profile_lanes.c: when every row's calls are on one lane, keep the lane
 * by row (p->row_lane) and free p->lane_of, 4 bytes a call. */
void sv_profile_lanes_by_row(struct sv_profile *p);
/* profile_lanes.c: lane l's calls in storage order into out (ncalls
 * values), from the rows (p->row_lane, or p->lane_of over the rows of
 * the lane's rank): for a lane whose list was left
 * to its nesting worker (p->pack_lanes). */
void sv_profile_lane_fill(const struct sv_profile *p, size_t l, uint32_t *out);
/* profile_pack.c: lane ln's calls packed (callpk), the list freed. */
void sv_lane_pack_calls(struct sv_lane *ln);

/* The order of a finished lane's calls[] (p->region_pos set): start asc,
 * end desc, then the regions' display position, then call number, as
 * scope-profiler's stable lexsort over its display-ordered regions. */
static inline bool sv_profile_lane_before(
	const struct sv_profile *p, uint32_t a, uint32_t b)
{
	int64_t sa = sv_profile_start(p, a), sb = sv_profile_start(p, b);
	uint32_t ra, rb;
	if (sa != sb)
		return sa < sb;
	if (sv_profile_end(p, a) != sv_profile_end(p, b))
		return sv_profile_end(p, a) > sv_profile_end(p, b);
	ra = p->region_pos[sv_call_region(p, a)];
	rb = p->region_pos[sv_call_region(p, b)];
	if (ra != rb)
		return ra < rb;
	return a < b;
}

/* profile.c: sort p->threads' and p->tasks' positions into p->thread_order
 * and p->task_order, so that the lookups by (rank, index) take O(log n). */
void sv_profile_index_build(struct sv_profile *p);

/* lane_sort.c: a nesting worker's scratch for its lanes, each of at most max calls:
 * the lane's starts in its list's order (8 bytes a call; then room for
 * the list put in start order), its start order as positions of the list
 * (4 bytes a call), and the radix sort's keys and values, made only for
 * a lane that needs them (16 bytes a call, twice: 200 MB a worker for a
 * lane of 6M calls). */
struct sv_lane_scratch {
	size_t max;
	int64_t *starts;
	uint32_t *at;
	struct sv_radix_kv *a, *b;
};
/* lane_sort.c: the starts of a lane's list calls[0 .. n) into out. */
void sv_lane_starts(const struct sv_profile *p, const uint32_t *calls, size_t n,
	int64_t *out);
/* lane_sort.c: the start order of a lane's list calls[0 .. n), whose
 * starts are sc->starts, into sc->at as positions of the list (p's
 * region_pos set, for the ties). */
void sv_lane_sort(const struct sv_profile *p, const uint32_t *calls, size_t n,
	struct sv_lane_scratch *sc);
/* lane_sort.c: the list calls[0 .. n) put in the order sc->at gives. */
void sv_lane_order(uint32_t *calls, size_t n, struct sv_lane_scratch *sc);

#endif
