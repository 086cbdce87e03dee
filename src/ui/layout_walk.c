/*
 * layout_walk.c: a row of the level-of-detail index walked left to right
 * (layout.h): sv_layout_walk_next and the one-call form sv_layout_row_next,
 * and sv_layout_walk_range for ranges that are not a map's cells; and the
 * longest call of a cell's positions (sv_layout_longest), from the
 * level's block prefixes, suffixes and sparse table: O(1) but for a scan
 * inside one block.
 *
 * Cells come left to right, so the two positions a cell needs (the first
 * call that ends after the cell begins, the first call that starts at or
 * after its end) never move back.  Each search starts from the last
 * cell's answer and gallops (steps of 1, 2, 4, ... then a binary search
 * inside the last step) from a guess: for the first position, just below
 * where the last cell's calls ended; for the second, as many calls on as
 * began in the last cell.  A cell then costs O(log of the guess's error)
 * whatever the size of the level.  Nothing here allocates but the spans
 * a row keeps between frames (sv_row_spans_get).
 */
#include "scopeview/layout.h"

#include <stdlib.h>
#include <string.h>

/* The nondecreasing keys a walk searches: starts, or running maxima of
 * the ends. */
enum walk_key { WALK_START, WALK_END };

static int64_t walk_key_at(
	const struct sv_lod_level *lv, enum walk_key k, uint32_t i)
{
	return k == WALK_START ? sv_lod_start(lv, i) : sv_lod_maxend(lv, i);
}

/* First position i of [lo, hi) with key(i) > t, or hi. */
static uint32_t walk_bsearch(const struct sv_lod_level *lv, enum walk_key k,
	uint32_t lo, uint32_t hi, int64_t t)
{
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (walk_key_at(lv, k, mid) > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* First position i >= lo with key(i) > t (lv->n when none), all keys
 * before lo being <= t: a gallop from guess g, up or down. */
static uint32_t walk_seek(const struct sv_lod_level *lv, enum walk_key k,
	uint32_t lo, uint32_t g, int64_t t)
{
	uint32_t hi = lv->n, step = 1;

	if (lo >= hi)
		return hi;
	if (g <= lo && lo == 0) /* a row's first search: nothing to go by */
		return walk_bsearch(lv, k, 0, hi, t);
	if (g < lo)
		g = lo;
	else if (g >= hi)
		g = hi - 1;
	if (walk_key_at(lv, k, g) > t) {
		/* The answer is in [lo, g]. */
		hi = g;
		while (hi - lo >= step) {
			uint32_t q = hi - step;
			if (walk_key_at(lv, k, q) <= t) {
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
			if (walk_key_at(lv, k, q) > t) {
				hi = q;
				break;
			}
			l = q;
			step <<= 1;
		}
		lo = l + 1;
	}
	return walk_bsearch(lv, k, lo, hi, t);
}

/* The best so far of a search for the longest call: its position and
 * duration, so that each candidate's duration is read once. */
struct lod_best {
	uint32_t at;
	int64_t dur;
};

/* Take position b of lv into best when it is longer (ties: earlier). */
static void lod_take(
	const struct sv_lod_level *lv, struct lod_best *best, uint32_t b)
{
	int64_t db = sv_lod_dur(lv, b);
	if (db > best->dur || (db == best->dur && b < best->at)) {
		best->at = b;
		best->dur = db;
	}
}

uint32_t sv_layout_longest(const struct sv_layout_index *ix,
	const struct sv_lod_level *lv, uint32_t lo, uint32_t hi)
{
	uint32_t bl = lo / SV_LOD_BLOCK, bh = (hi - 1) / SV_LOD_BLOCK, i;
	struct lod_best best;

	(void)ix; /* the durations live in the level */
	if (bl == bh) {
		/* One block: a prefix or suffix of it, or a scan. */
		if (lo == bl * SV_LOD_BLOCK)
			return lo + lv->pre[hi - 1];
		if (hi == lv->n || hi == (bl + 1) * SV_LOD_BLOCK)
			return bl * SV_LOD_BLOCK + lv->suf[lo];
		best.at = lo;
		best.dur = sv_lod_dur(lv, lo);
		for (i = lo + 1; i < hi; i++)
			lod_take(lv, &best, i);
		return best.at;
	}
	/* The suffix of lo's block, the whole blocks between (two
	 * overlapping powers of two), the prefix of hi - 1's block. */
	best.at = bl * SV_LOD_BLOCK + lv->suf[lo];
	best.dur = sv_lod_dur(lv, best.at);
	if (bh > bl + 1) {
		uint32_t a = bl + 1, c = bh - 1, k = 0, x, y;
		while ((2u << k) <= c - a + 1)
			k++;
		x = sv_lod_sparse(lv, k, a);
		y = sv_lod_sparse(lv, k, c - (1u << k) + 1);
		lod_take(lv, &best, x);
		if (y != x)
			lod_take(lv, &best, y);
	}
	lod_take(lv, &best, bh * SV_LOD_BLOCK + lv->pre[hi - 1]);
	return best.at;
}

/* The positions of [ct0, ct1) (lv non-empty, ct0 < ct1, neither before
 * the last cell's), from w's cursors, which move on to them. */
static void walk_cell(struct sv_layout_walk *w, int64_t ct0, int64_t ct1,
	uint32_t *lo, uint32_t *hi)
{
	const struct sv_lod_level *lv = w->lv;
	uint32_t a, b;

	a = walk_seek(lv, WALK_END, w->lo, w->hi ? w->hi - 1 : 0, ct0);
	b = w->hi;
	if (ct1 != INT64_MIN) /* first start >= ct1 */
		b = walk_seek(lv, WALK_START, b, b + w->step, ct1 - 1);
	w->step = b - w->hi;
	w->lo = a;
	w->hi = b;
	*lo = a;
	*hi = b < a ? a : b;
}

void sv_layout_walk_range(struct sv_layout_walk *w, int64_t t0, int64_t t1,
	uint32_t *lo, uint32_t *hi)
{
	if (!w->lv || !w->lv->n || t1 <= t0) {
		*lo = *hi = 0;
		return;
	}
	walk_cell(w, t0, t1, lo, hi);
}

void sv_layout_walk_init(struct sv_layout_walk *w,
	const struct sv_layout_index *ix, const struct sv_lod_level *lv,
	const struct sv_tmap *m)
{
	w->ix = ix;
	w->lv = lv;
	w->m = *m;
	w->x = m->x0;
	w->lo = w->hi = 0;
	w->step = 0;
}

bool sv_layout_walk_next(struct sv_layout_walk *w, struct sv_layout_span *out)
{
	const struct sv_lod_level *lv = w->lv;
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

		/* The calls of [ct0, ct1): [lo, hi), as sv_layout_range. */
		walk_cell(w, ct0, ct1, &lo, &hi);
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
				lv, sv_layout_longest(w->ix, lv, lo, hi));
			out->count = hi - lo;
			w->x++;
			return true;
		}
		c = sv_lod_call(lv, lo);
		cend = sv_tmap_col(m, sv_layout_call_end(w->ix->p, c) - 1) + 1;
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

bool sv_layout_row_next(const struct sv_layout_index *ix,
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
	const struct sv_layout_index *ix, const struct sv_lod_level *lv,
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
			r->busy = sv_layout_busy(lv, ta, tb, sp.lo, sp.hi);
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
