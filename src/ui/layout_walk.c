/*
 * layout_walk.c: a row of the level-of-detail index (lod.h) walked left
 * to right in the columns of a time map (layout.h): sv_layout_walk_next
 * and the one-call form sv_layout_row_next, and the spans a row keeps
 * between frames (sv_row_spans_get).
 *
 * Each column is one time range of the level, taken with the index's
 * cursor (sv_lod_cursor_range), whose searches start from the last
 * column's answer: a column costs O(log of how far the cursor's guess
 * was off) whatever the size of the level.  An empty column skips to the
 * column of the next call's start; a call alone in its columns becomes
 * one run as wide as it; a column of several calls shows the longest
 * (sv_lod_longest).  Nothing here allocates but the spans a row keeps.
 */
#include "scopeview/layout.h"

#include <stdlib.h>
#include <string.h>

void sv_layout_walk_init(struct sv_layout_walk *w,
	const struct sv_lod_index *ix, const struct sv_lod_level *lv,
	const struct sv_tmap *m)
{
	w->ix = ix;
	sv_lod_cursor_init(&w->c, lv);
	w->m = *m;
	w->x = m->x0;
}

bool sv_layout_walk_next(struct sv_layout_walk *w, struct sv_layout_span *out)
{
	const struct sv_lod_level *lv = w->c.lv;
	const struct sv_tmap *m = &w->m;
	int xend = m->x0 + m->w;

	if (!lv || !lv->n || !sv_tmap_valid(m) || (sv_i128)m->t1 - m->t0 < m->w)
		return false;
	if (w->x < m->x0)
		w->x = m->x0;
	while (w->x < xend) {
		int64_t ct0 = sv_tmap_time(m, w->x),
			ct1 = sv_tmap_time(m, w->x + 1);
		uint32_t lo, hi, c;
		int cend;

		/* The calls of [ct0, ct1): [lo, hi), as sv_lod_range. */
		sv_lod_cursor_range(&w->c, ct0, ct1, &lo, &hi);
		if (lo >= lv->n)
			return false;
		if (hi == lo) {
			int nx = sv_tmap_col(m, sv_lod_start(lv, lo));
			w->x = nx <= w->x ? w->x + 1 : nx;
			continue;
		}
		out->x0 = w->x;
		out->lo = lo;
		out->hi = hi;
		if (hi - lo >= 2) {
			out->x1 = w->x + 1;
			out->call = sv_lod_call(
				lv, sv_lod_longest(w->ix, lv, lo, hi));
			out->count = hi - lo;
			w->x++;
			return true;
		}
		c = sv_lod_call(lv, lo);
		cend = sv_tmap_col(m, sv_lod_call_end(w->ix->p, c) - 1) + 1;
		if (cend > xend)
			cend = xend;
		if (lo + 1 < lv->n) {
			int nx = sv_tmap_col(m, sv_lod_start(lv, lo + 1));
			if (nx < cend)
				cend = nx;
		}
		if (cend <= w->x)
			cend = w->x + 1;
		out->x1 = cend;
		out->call = c;
		out->count = 1;
		w->x = cend;
		return true;
	}
	return false;
}

bool sv_layout_row_next(const struct sv_lod_index *ix,
	const struct sv_lod_level *lv, const struct sv_tmap *m, int *x,
	struct sv_layout_span *out)
{
	struct sv_layout_walk w;
	bool more;

	sv_layout_walk_init(&w, ix, lv, m);
	w.x = *x;
	more = sv_layout_walk_next(&w, out);
	if (more)
		*x = w.x;
	return more;
}

/* The percent of [ta, tb) that the calls of region cover among the
 * calls at positions [lo, hi) of lv, busy ns of it busy in all: their
 * durations clipped to the column, by region, from at most
 * SV_ROW_SPAN_SAMPLES calls spread evenly over [lo, hi). */
static uint8_t walk_share(const struct sv_profile *p,
	const struct sv_lod_level *lv, int64_t ta, int64_t tb, uint32_t lo,
	uint32_t hi, uint32_t region, int64_t busy)
{
	uint32_t n = hi - lo,
		 k = n < SV_ROW_SPAN_SAMPLES ? n : SV_ROW_SPAN_SAMPLES;
	double mine = 0, all = 0, share;
	uint32_t j;

	if (!n || tb <= ta || busy <= 0)
		return 0;
	for (j = 0; j < k; j++) {
		uint32_t i = lo + (uint32_t)((uint64_t)n * j / k);
		int64_t s = sv_lod_start(lv, i), d = sv_lod_dur(lv, i);
		int64_t a = s > ta ? s : ta, e = sv_add_sat(s, d > 0 ? d : 1);
		double in = (double)((e < tb ? e : tb) - a);
		if (in <= 0)
			continue;
		all += in;
		if (sv_call_region(p, sv_lod_call(lv, i)) == region)
			mine += in;
	}
	if (all <= 0)
		return 0;
	share = 100.0 * (double)busy / (double)(tb - ta) * mine / all;
	return share >= 100 ? 100 : share <= 0 ? 0 : (uint8_t)share;
}

struct sv_row_span *sv_row_spans_get(struct sv_row_spans *c,
	const struct sv_lod_index *ix, const struct sv_lod_level *lv,
	const struct sv_tmap *m, size_t *n)
{
	struct sv_layout_walk w;
	struct sv_layout_span sp;

	if (c->v && c->serial == ix->serial && c->lv == lv &&
		c->m.t0 == m->t0 && c->m.t1 == m->t1 && c->m.x0 == m->x0 &&
		c->m.w == m->w) {
		*n = c->n;
		return c->v;
	}
	c->serial = ix->serial;
	c->lv = lv;
	c->m = *m;
	c->n = 0;
	if (!c->v) {
		c->cap = 16;
		c->v = sv_xmalloc(c->cap * sizeof *c->v);
	}
	sv_layout_walk_init(&w, ix, lv, m);
	while (lv && sv_layout_walk_next(&w, &sp)) {
		struct sv_row_span *r;
		sv_grow((void **)&c->v, &c->cap, c->n + 1, sizeof *c->v);
		r = &c->v[c->n++];
		r->s = sp;
		r->region = sv_call_region(ix->p, sp.call);
		r->color = 0;
		r->color_key = 0;
		r->busy = 0;
		r->share = 0;
		if (sp.count > 1) {
			int64_t ta = sv_tmap_time(m, sp.x0),
				tb = sv_tmap_time(m, sp.x0 + 1);
			r->busy = sv_lod_busy(lv, ta, tb, sp.lo, sp.hi);
			r->share = walk_share(ix->p, lv, ta, tb, sp.lo, sp.hi,
				r->region, r->busy);
		}
	}
	*n = c->n;
	return c->v;
}

void sv_row_spans_fini(struct sv_row_spans *c)
{
	if (!c)
		return;
	free(c->v);
	memset(c, 0, sizeof *c);
}
