/*
 * stats_range.c: the statistics of a time range [t0, t1) (stats.h's
 * has_range), by Tracy's and Perfetto's rule: a call counts with the part
 * of its time inside the range, and its exclusive time is that part minus
 * the parts its direct children cover inside it.
 *
 * A call wholly inside the range keeps the profile's exclusive time.
 * Only the calls open across an edge (on each lane, the chain of calls
 * open at t0 and the chain open at t1) need their exclusive time clipped:
 * they are found by walking each lane's parents up from the last call
 * starting before the edge, and their children inside the range by one
 * walk over the lane's calls starting in it.  The result is a short
 * sorted list (call, clipped exclusive ns), looked up only for calls that
 * cross an edge.  Nothing here prints.
 */
#include "stats_priv.h"

#include <stdlib.h>
#include <string.h>

bool sv_stats_range_meets(const struct sv_stats_sel *sel, int64_t s, int64_t e)
{
	if (e <= s)
		return s >= sel->t0 && s < sel->t1;
	return s < sel->t1 && e > sel->t0;
}

int64_t sv_stats_range_clip(
	const struct sv_stats_sel *sel, int64_t s, int64_t e)
{
	if (s < sel->t0)
		s = sel->t0;
	if (e > sel->t1)
		e = sel->t1;
	return e > s ? e - s : 0;
}

static int range_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct sv_stats_edge *)a)->call,
		 y = ((const struct sv_stats_edge *)b)->call;
	return (x > y) - (x < y);
}

static struct sv_stats_edge *range_find(
	struct sv_stats_edge *v, size_t n, uint32_t c)
{
	struct sv_stats_edge key = {c, 0};
	/* No edges (a profile without nesting, an empty range) is NULL. */
	if (!n)
		return NULL;
	return bsearch(&key, v, n, sizeof *v, range_cmp);
}

/* Add the calls open across edge t on lane l (the parents of the last
 * call starting before t, and it, when they end after t). */
static void range_chain(const struct sv_profile *p, const struct sv_lane *l,
	int64_t t, struct sv_stats_edge **v, size_t *n, size_t *cap)
{
	size_t i = sv_profile_lane_lower(p, l, t);
	uint32_t c = i > 0 ? sv_lane_call(l, i - 1) : SV_NO_CALL;

	for (; c != SV_NO_CALL; c = sv_profile_parent(p, c)) {
		if (sv_profile_end(p, c) <= t)
			continue;
		sv_grow((void **)v, cap, *n + 1, sizeof **v);
		(*v)[*n].call = c;
		(*v)[(*n)++].exclusive_ns = 0;
	}
}

/* Take child ch's covered part inside the range off its parent's
 * clipped exclusive time, when the parent crosses an edge. */
static void range_child(const struct sv_profile *p,
	const struct sv_stats_sel *sel, struct sv_stats_edge *v, size_t n,
	uint32_t ch)
{
	uint32_t par = sv_profile_parent(p, ch);
	struct sv_stats_edge *e;
	int64_t s, end;

	if (par == SV_NO_CALL || (sv_profile_start(p, par) >= sel->t0 &&
					 sv_profile_end(p, par) <= sel->t1))
		return;
	e = range_find(v, n, par);
	if (!e)
		return;
	s = sv_profile_start(p, ch);
	end = sv_profile_end(p, ch);
	/* A child running past its parent's end is charged only for the
	 * part the parent covers (doc/format.md 9.3). */
	if (end > sv_profile_end(p, par) &&
		sv_profile_end(p, par) >= sv_profile_start(p, par))
		end = sv_profile_end(p, par);
	e->exclusive_ns -= sv_stats_range_clip(sel, s, end);
}

void sv_stats_range_edges(const struct sv_profile *p, const bool *lane_on,
	struct sv_stats_sel *sel)
{
	struct sv_stats_edge *v = NULL;
	size_t n = 0, cap = 0, l, i, k;

	sel->edges = NULL;
	sel->nedges = 0;
	if (!p->has_calls || !p->lanes || !sv_profile_has_nesting(p))
		return;
	for (l = 0; l < p->nlanes; l++) {
		if (lane_on && !lane_on[l])
			continue;
		range_chain(p, &p->lanes[l], sel->t0, &v, &n, &cap);
		range_chain(p, &p->lanes[l], sel->t1, &v, &n, &cap);
	}
	if (!n)
		return;
	qsort(v, n, sizeof *v, range_cmp);
	for (i = k = 0; i < n; i++)
		if (k == 0 || v[k - 1].call != v[i].call)
			v[k++] = v[i];
	n = k;
	for (i = 0; i < n; i++)
		v[i].exclusive_ns =
			sv_stats_range_clip(sel, sv_profile_start(p, v[i].call),
				sv_profile_end(p, v[i].call));
	/* Children inside the range: the lane's calls starting in it, and
	 * the edge calls themselves (those starting before t0). */
	for (l = 0; l < p->nlanes; l++) {
		const struct sv_lane *lane = &p->lanes[l];
		size_t a, b;
		if (lane_on && !lane_on[l])
			continue;
		a = sv_profile_lane_lower(p, lane, sel->t0);
		b = sv_profile_lane_lower(p, lane, sel->t1);
		for (i = a; i < b; i++)
			range_child(p, sel, v, n, sv_lane_call(lane, i));
	}
	for (i = 0; i < n; i++)
		if (sv_profile_start(p, v[i].call) < sel->t0)
			range_child(p, sel, v, n, v[i].call);
	sel->edges = v;
	sel->nedges = n;
}

int64_t sv_stats_range_exclusive(
	const struct sv_profile *p, const struct sv_stats_sel *sel, uint32_t c)
{
	struct sv_stats_edge *e;

	if (sv_profile_start(p, c) >= sel->t0 &&
		sv_profile_end(p, c) <= sel->t1)
		return sv_profile_has_exclusive(p) ? sv_profile_exclusive(p, c)
						   : 0;
	e = range_find(sel->edges, sel->nedges, c);
	return e ? e->exclusive_ns
		 : sv_stats_range_clip(
			   sel, sv_profile_start(p, c), sv_profile_end(p, c));
}
