/*
 * layout.c: the time map and hit testing (layout.h; the walk of a row is
 * layout_walk.c, the lane rows and the screen geometry layout_rows.c, and
 * the level-of-detail index they read is the model's, lod.h).
 *
 * Invariants: every time-to-column product is computed in 128 bits, so
 * the map is exact and monotonic for any int64 times; a column's call is
 * the longest of the calls of its time range in the index.  Nothing here
 * draws, prints or knows about curses.
 */
#include "scopeview/layout.h"

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

/* ---- hit testing ---------------------------------------------------------- */

uint32_t sv_layout_hit(const struct sv_lod_index *ix, size_t lane,
	uint32_t depth, const struct sv_tmap *m, int x, uint32_t *count)
{
	const struct sv_lod_level *lv = sv_lod_index_level(ix, lane, depth);
	uint32_t lo, hi;

	if (count)
		*count = 0;
	if (!lv || !sv_tmap_valid(m) || x < m->x0 || x >= m->x0 + m->w)
		return SV_NO_CALL;
	sv_lod_range(lv, sv_tmap_time(m, x), sv_tmap_time(m, x + 1), &lo, &hi);
	if (hi <= lo)
		return SV_NO_CALL;
	if (count)
		*count = hi - lo;
	return sv_lod_call(lv, sv_lod_longest(ix, lv, lo, hi));
}
