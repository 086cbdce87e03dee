/*
 * lod_cursor.c: time ranges of one level of the level-of-detail index
 * (lod.h) taken left to right with a cursor (sv_lod_cursor_range): the
 * positions sv_lod_range gives, each search starting from the last
 * range's answer.
 *
 * Ranges come left to right, so the two positions a range needs (the
 * first call that ends after the range begins, the first call that
 * starts at or after its end) never move back.  Each search starts from
 * the last range's answer and gallops (steps of 1, 2, 4, ... then a
 * binary search inside the last step) from a guess: for the first
 * position, just below where the last range's calls ended; for the
 * second, as many calls on as began in the last range.  A range then
 * costs O(log of the guess's error) whatever the size of the level (the
 * ui's row walk, layout_walk.c, takes one range a column).  Nothing here
 * allocates.
 */
#include "scopeview/lod.h"

/* The nondecreasing keys a cursor searches: starts, or running maxima of
 * the ends. */
enum cursor_key { CURSOR_START, CURSOR_END };

static int64_t cursor_key_at(
	const struct sv_lod_level *lv, enum cursor_key k, uint32_t i)
{
	return k == CURSOR_START ? sv_lod_start(lv, i) : sv_lod_maxend(lv, i);
}

/* First position i of [lo, hi) with key(i) > t, or hi. */
static uint32_t cursor_bsearch(const struct sv_lod_level *lv, enum cursor_key k,
	uint32_t lo, uint32_t hi, int64_t t)
{
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (cursor_key_at(lv, k, mid) > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* First position i >= lo with key(i) > t (lv->n when none), all keys
 * before lo being <= t: a gallop from guess g, up or down. */
static uint32_t cursor_seek(const struct sv_lod_level *lv, enum cursor_key k,
	uint32_t lo, uint32_t g, int64_t t)
{
	uint32_t hi = lv->n, step = 1;

	if (lo >= hi)
		return hi;
	if (g <= lo && lo == 0) /* a cursor's first search: nothing to go by */
		return cursor_bsearch(lv, k, 0, hi, t);
	if (g < lo)
		g = lo;
	else if (g >= hi)
		g = hi - 1;
	if (cursor_key_at(lv, k, g) > t) {
		/* The answer is in [lo, g]. */
		hi = g;
		while (hi - lo >= step) {
			uint32_t q = hi - step;
			if (cursor_key_at(lv, k, q) <= t) {
				lo = q + 1;
				break;
			}
			hi = q;
			step <<= 1;
		}
	} else {
		/* The answer is in (g, n]. */
		uint32_t l = g;
		while (hi - l > step) {
			uint32_t q = l + step;
			if (cursor_key_at(lv, k, q) > t) {
				hi = q;
				break;
			}
			l = q;
			step <<= 1;
		}
		lo = l + 1;
	}
	return cursor_bsearch(lv, k, lo, hi, t);
}

void sv_lod_cursor_init(struct sv_lod_cursor *c, const struct sv_lod_level *lv)
{
	c->lv = lv;
	c->lo = c->hi = 0;
	c->step = 0;
}

void sv_lod_cursor_range(struct sv_lod_cursor *c, int64_t t0, int64_t t1,
	uint32_t *lo, uint32_t *hi)
{
	const struct sv_lod_level *lv = c->lv;
	uint32_t a, b;

	if (!lv || !lv->n || t1 <= t0) {
		*lo = *hi = 0;
		return;
	}
	a = cursor_seek(lv, CURSOR_END, c->lo, c->hi ? c->hi - 1 : 0, t0);
	b = c->hi;
	if (t1 != INT64_MIN) /* first start >= t1 */
		b = cursor_seek(lv, CURSOR_START, b, b + c->step, t1 - 1);
	c->step = b - c->hi;
	c->lo = a;
	c->hi = b;
	*lo = a;
	*hi = b < a ? a : b;
}
