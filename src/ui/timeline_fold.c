/*
 * timeline_fold.c: how the timeline's rows fold so that a run of many
 * ranks fits the screen (timeline.h).
 *
 * A folded rank is one track: each cell shows what the rank spent the
 * cell's time in, the region with the most exclusive time there over
 * its lanes (a depth's busy time less the next depth's, from the level
 * of detail index in O(1) a depth, lod.h), solid when that region
 * holds FOLD_SOLID percent of the cell's time, else shaded by how busy
 * the cell is.  The timeline opens folded when the ranks' rows do not fit.
 * A lane's deepest rows that hold a sliver of its calls in the window
 * (under FOLD_SLIVER_PCT of the cells its rows fill) merge into the row above
 * them, drawn over it and marked; depth rows empty in the window go; and
 * under a region filter, lanes left without a call hide, counted.
 *
 * The work of a frame is bounded by what is on screen: a column of a
 * track costs a binary search per lane and depth of its rank.
 */
#include "scopeview/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/mode.h"
#include "scopeview/render.h"

/* The percent of a cell one region's exclusive time must hold for the
 * track to draw it solid (as draw_bars.c's cells). */
#define FOLD_SOLID 70
/* A depth row whose calls fill fewer cells than this percent of its
 * lane's busy cells (in the window) is a sliver. */
#define FOLD_SLIVER_PCT 1

/* ---- which ranks are folded --------------------------------------------- */

static bool *fold_flags(struct sv_timeline *v, unsigned run, size_t *n)
{
	*n = run ? v->nlanes2 : v->nlanes;
	return run ? v->lane2_folded : v->lane_folded;
}

/* Lanes [*b, *e) of p: those of lane l's rank. */
static void fold_rank_lanes(
	const struct sv_profile *p, size_t l, size_t *b, size_t *e)
{
	uint32_t rank = p->lanes[l].rank;

	*b = l;
	while (*b > 0 && p->lanes[*b - 1].rank == rank)
		(*b)--;
	*e = l;
	while (*e < p->nlanes && p->lanes[*e].rank == rank)
		(*e)++;
}

void sv_timeline_fold_rank(
	struct sv_timeline *v, unsigned run, uint32_t lane, bool on)
{
	const struct sv_profile *p = sv_timeline_src(v, run).p;
	size_t n, b, e;
	bool *f = fold_flags(v, run, &n);

	if (!f || !p || !p->has_calls || lane >= n)
		return;
	fold_rank_lanes(p, lane, &b, &e);
	for (; b < e; b++)
		f[b] = on;
}

bool sv_timeline_rank_folded(
	const struct sv_timeline *v, unsigned run, uint32_t lane)
{
	const bool *f = run ? v->lane2_folded : v->lane_folded;
	size_t n = run ? v->nlanes2 : v->nlanes;
	return f && lane < n && f[lane];
}

/* Fold (on) or unfold every rank of both runs. */
static void fold_all(struct sv_timeline *v, bool on)
{
	size_t l;

	for (l = 0; l < v->nlanes; l++)
		v->lane_folded[l] = on;
	for (l = 0; l < v->nlanes2; l++)
		v->lane2_folded[l] = on;
}

/* Whether the rows show a rank unfolded that has more than one row. */
static bool fold_any_open(const struct sv_timeline *v)
{
	size_t i;

	for (i = 1; i < v->rows.n; i++) {
		const struct sv_layout_row *a = &v->rows.rows[i - 1],
					   *b = &v->rows.rows[i];
		if (!a->fold && !b->fold && a->run == b->run &&
			sv_timeline_src(v, a->run).p->lanes[a->lane].rank ==
				sv_timeline_src(v, b->run)
					.p->lanes[b->lane]
					.rank)
			return true;
	}
	return false;
}

bool sv_timeline_multi_rank(const struct sv_profile *p)
{
	size_t l;

	for (l = 1; p->has_calls && l < p->nlanes; l++)
		if (p->lanes[l].rank != p->lanes[0].rank)
			return true;
	return false;
}

int sv_timeline_fold_depth(struct sv_timeline *v, int dir)
{
	struct sv_timeline_src src;
	size_t i, l;
	int deepest = 0, d;
	bool any = false;

	for (i = 0; i < v->rows.n; i++) {
		const struct sv_layout_row *r = &v->rows.rows[i];
		if (!r->fold)
			continue;
		any = true;
		src = sv_timeline_src(v, r->run);
		for (l = r->lane; l < r->lane_end; l++)
			if ((int)src.p->lanes[l].depth_rows - 1 > deepest)
				deepest = (int)src.p->lanes[l].depth_rows - 1;
	}
	if (!any)
		return -1;
	d = v->fold_depth < 0 || v->fold_depth > deepest ? deepest
							 : v->fold_depth;
	d += dir;
	if (d < 0 || (dir > 0 && v->fold_depth < 0))
		return SV_REACT_BELL;
	v->fold_depth = d >= deepest ? -1 : d;
	if (v->fold_depth < 0)
		sv_session_message(v->s, false, "%s",
			"folded tracks: what each rank spent its time in, at "
			"every depth");
	else
		sv_session_message(v->s, false,
			"folded tracks: what each rank spent its time in, down "
			"to depth %d",
			v->fold_depth);
	return SV_REACT_REDRAW;
}

void sv_timeline_fold_choose(struct sv_timeline *v)
{
	if (v->fold_chosen || v->geom.too_small || v->ranks.on ||
		!v->s->p->has_calls)
		return;
	fold_all(v, false);
	sv_timeline_build_rows(v);
	if ((long)v->rows.n > (long)v->geom.lanes_h &&
		sv_timeline_multi_rank(v->s->p)) {
		fold_all(v, true);
		sv_timeline_build_rows(v);
	}
	sv_timeline_fix_rows(v);
}

int sv_timeline_fold_apply(struct sv_timeline *v, int action)
{
	const struct sv_profile *p = sv_timeline_src(v, v->cur_run).p;

	if (!p || !p->has_calls || !p->nlanes || v->ranks.on)
		return SV_REACT_BELL;
	if (action == SV_ACTION_FOLD_RANK) {
		sv_timeline_fold_rank(v, v->cur_run, v->cur_lane,
			!sv_timeline_rank_folded(v, v->cur_run, v->cur_lane));
	} else {
		fold_all(v, fold_any_open(v));
	}
	v->fold_chosen = true;
	sv_timeline_build_rows(v);
	sv_timeline_fix_rows(v);
	return SV_REACT_REDRAW;
}

/* ---- a folded track ------------------------------------------------------ */

/* What a track's cell shows: the call drawn (the longest at the depth
 * and lane whose exclusive time wins), that time, and the busy time of
 * the rank's lanes in the cell (their first depths'). */
struct fold_cell {
	uint32_t call;
	int64_t excl, busy;
};

static bool fold_lane_shown(const struct sv_timeline *v, unsigned run, size_t l)
{
	const bool *hidden =
		run ? sv_session_lane2_hidden(v->s) : v->s->lane_hidden;
	return !hidden || !hidden[l];
}

/* Calls of a level a cell's dominant region is found from (spread
 * evenly over the cell's calls), and regions told apart among them. */
#define FOLD_SAMPLES 64
#define FOLD_REGIONS 8

/* The region with the most time in [t0, t1) among the calls at [lo, hi)
 * of lv: out->call becomes its call with the most time there, out->excl
 * (the level's exclusive time) its share of it. */
static void fold_dominant(const struct sv_profile *p,
	const struct sv_lod_level *lv, int64_t t0, int64_t t1, uint32_t lo,
	uint32_t hi, struct fold_cell *out)
{
	struct {
		uint32_t region, call;
		int64_t ns, call_ns;
	} top[FOLD_REGIONS];
	uint32_t n = hi - lo, k = n < FOLD_SAMPLES ? n : FOLD_SAMPLES, j;
	int64_t all = 0;
	int ntop = 0, i, b = 0;

	for (j = 0; j < k; j++) {
		uint32_t at = lo + (uint32_t)((uint64_t)n * j / k),
			 c = sv_lod_call(lv, at), r = sv_call_region(p, c);
		int64_t ns = sv_lod_busy(lv, t0, t1, at, at + 1);
		if (ns <= 0)
			ns = 1;
		all = sv_add_sat(all, ns);
		for (i = 0; i < ntop && top[i].region != r; i++)
			;
		if (i == ntop) {
			if (ntop == FOLD_REGIONS)
				continue;
			top[ntop].region = r;
			top[ntop].ns = 0;
			top[ntop].call_ns = -1;
			ntop++;
		}
		top[i].ns = sv_add_sat(top[i].ns, ns);
		if (ns > top[i].call_ns) {
			top[i].call_ns = ns;
			top[i].call = c;
		}
	}
	if (!ntop)
		return;
	for (i = 1; i < ntop; i++)
		if (top[i].ns > top[b].ns)
			b = i;
	out->call = top[b].call;
	out->excl = all > 0 ? (int64_t)((double)out->excl *
					((double)top[b].ns / (double)all))
			    : 0;
}

/* The cell of r at [t0, t1).  With cur (a row's cells made left to
 * right, fold_kept), each level's range is taken with a cursor of its
 * own, cur[k] for the k-th level read (the same levels in the same order
 * for every cell of the row), set up at the first cell; without, each
 * with two binary searches. */
static void fold_cell_at(const struct sv_timeline *v,
	const struct sv_timeline_src *src, const struct sv_layout_row *r,
	int64_t t0, int64_t t1, struct fold_cell *out,
	struct sv_lod_cursor *cur, bool first)
{
	const struct sv_lod_level *best = NULL;
	uint32_t best_lo = 0, best_hi = 0;
	size_t l, k = 0;

	out->call = SV_NO_CALL;
	out->excl = 0;
	out->busy = 0;
	for (l = r->lane; l < r->lane_end && l < src->p->nlanes; l++) {
		uint32_t d = src->p->lanes[l].depth_rows;
		int64_t below = 0;
		if (!fold_lane_shown(v, src->run, l))
			continue;
		/* Calls below the tracks' depth count as their ancestor's
		 * there. */
		if (v->fold_depth >= 0 && d > (uint32_t)v->fold_depth + 1)
			d = (uint32_t)v->fold_depth + 1;
		/* Deepest first: a depth's exclusive time is its busy time
		 * less the next one's (calls nest in a lane); a tie goes to
		 * the deeper. */
		while (d-- > 0) {
			const struct sv_lod_level *lv =
				sv_lod_index_level(src->ix, l, d);
			uint32_t lo = 0, hi = 0;
			int64_t busy = 0, excl;
			if (cur && first)
				sv_lod_cursor_init(&cur[k], lv);
			if (lv && lv->n) {
				if (cur)
					sv_lod_cursor_range(
						&cur[k], t0, t1, &lo, &hi);
				else
					sv_lod_range(lv, t0, t1, &lo, &hi);
				if (hi > lo)
					busy = sv_lod_busy(lv, t0, t1, lo, hi);
			}
			excl = busy - below;
			if (busy > 0 && excl > out->excl) {
				out->excl = excl;
				best = lv;
				best_lo = lo;
				best_hi = hi;
			}
			below = busy;
			k++;
		}
		out->busy += below;
	}
	if (best)
		fold_dominant(src->p, best, t0, t1, best_lo, best_hi, out);
}

/* ---- the cells kept between frames --------------------------------------- */

/* One screen row's cells, kept with what they were made from: the index
 * (its build), the rank's lanes and which of them were hidden (a copy of
 * their flags), the tracks' depth and the map.  A frame that only moves the cursor (most frames)
 * then reads none of the index. */
struct fold_row {
	uint64_t serial;
	size_t lane, lane_end;
	bool *hidden; /* lane_end - lane flags: lane l's at l - lane */
	size_t hidden_cap;
	unsigned run;
	int depth;
	struct sv_tmap m;
	struct fold_cell *v;
	size_t cap;
	struct sv_lod_cursor *cur; /* a cursor a level while made */
	size_t cur_cap;
	bool valid;
};

struct sv_fold_rows {
	struct fold_row row[SV_TIMELINE_SPAN_ROWS];
};

struct sv_fold_rows *sv_timeline_fold_rows_new(void)
{
	return sv_xcalloc(1, sizeof(struct sv_fold_rows));
}

void sv_timeline_fold_rows_free(struct sv_fold_rows *f)
{
	size_t i;

	for (i = 0; f && i < SV_TIMELINE_SPAN_ROWS; i++) {
		free(f->row[i].v);
		free(f->row[i].cur);
		free(f->row[i].hidden);
	}
	free(f);
}

/* Whether k was made for r's lanes with the same of them hidden. */
static bool fold_same_lanes(const struct sv_timeline *v,
	const struct sv_timeline_src *src, const struct sv_layout_row *r,
	const struct fold_row *k)
{
	size_t l;

	if (k->lane != r->lane || k->lane_end != r->lane_end ||
		k->run != src->run)
		return false;
	for (l = r->lane; l < r->lane_end && l < src->p->nlanes; l++)
		if (k->hidden[l - r->lane] != !fold_lane_shown(v, src->run, l))
			return false;
	return true;
}

/* Row y's kept cells for r in m: made when the key differs.  NULL when
 * y has no place kept (a screen taller than SV_TIMELINE_SPAN_ROWS). */
static const struct fold_row *fold_kept(const struct sv_timeline *v,
	const struct sv_timeline_src *src, const struct sv_layout_row *r,
	const struct sv_tmap *m, int y)
{
	struct fold_row *k;
	size_t l, levels;
	int x;

	if (!v->fold_rows || !src->ix || y < v->geom.lanes_y ||
		y - v->geom.lanes_y >= SV_TIMELINE_SPAN_ROWS || m->w <= 0)
		return NULL;
	k = &v->fold_rows->row[y - v->geom.lanes_y];
	if (k->valid && k->serial == src->ix->serial &&
		k->depth == v->fold_depth && k->m.t0 == m->t0 &&
		k->m.t1 == m->t1 && k->m.x0 == m->x0 && k->m.w == m->w &&
		fold_same_lanes(v, src, r, k))
		return k;
	sv_grow((void **)&k->v, &k->cap, (size_t)m->w, sizeof *k->v);
	for (l = r->lane, levels = 0; l < r->lane_end && l < src->p->nlanes;
		l++)
		levels += src->p->lanes[l].depth_rows;
	sv_grow((void **)&k->cur, &k->cur_cap, levels ? levels : 1,
		sizeof *k->cur);
	for (x = 0; x < m->w; x++)
		fold_cell_at(v, src, r, sv_tmap_time(m, m->x0 + x),
			sv_tmap_time(m, m->x0 + x + 1), &k->v[x], k->cur,
			x == 0);
	k->serial = src->ix->serial;
	k->lane = r->lane;
	k->lane_end = r->lane_end;
	sv_grow((void **)&k->hidden, &k->hidden_cap,
		r->lane_end > r->lane ? r->lane_end - r->lane : 1,
		sizeof *k->hidden);
	for (l = r->lane; l < r->lane_end && l < src->p->nlanes; l++)
		k->hidden[l - r->lane] = !fold_lane_shown(v, src->run, l);
	k->run = src->run;
	k->depth = v->fold_depth;
	k->m = *m;
	k->valid = true;
	return k;
}

uint32_t sv_timeline_fold_hit(const struct sv_timeline *v,
	const struct sv_layout_row *r, const struct sv_tmap *m, int x)
{
	struct sv_timeline_src src = sv_timeline_src(v, r->run);
	struct fold_cell c;

	if (!sv_tmap_valid(m) || x < m->x0 || x >= m->x0 + m->w)
		return SV_NO_CALL;
	fold_cell_at(v, &src, r, sv_tmap_time(m, x), sv_tmap_time(m, x + 1), &c,
		NULL, false);
	return c.call;
}

/* The style of a track's cell showing call c. */
static int fold_style(const struct sv_timeline *v,
	const struct sv_timeline_src *src, uint32_t c, bool dim_others)
{
	if (c == src->sel)
		return SV_STYLE_SELECTED;
	if (sv_timeline_src_match(v, src, c))
		return SV_STYLE_MATCH;
	return dim_others ? SV_STYLE_SPAN_DIM : SV_STYLE_SPAN;
}

/* Cell x of a track, showing c over a cell of cell_ns: solid when its
 * region holds FOLD_SOLID percent of the cell's time, else shaded by how
 * busy the cell is. */
static void fold_put(const struct sv_timeline *v,
	const struct sv_timeline_src *src, struct sv_grid *g, int x, int y,
	const struct fold_cell *c, int64_t cell_ns, bool dim)
{
	bool solid = c->excl * 100 >= cell_ns * FOLD_SOLID;
	int st = fold_style(v, src, c->call, dim);

	if (st == SV_STYLE_SPAN && !solid)
		st = SV_STYLE_SPAN_MERGED;
	sv_grid_put(g, x, y,
		solid ? sv_render_glyphs(v->s->opts.ascii)->bar
		      : sv_timeline_shade(v, c->busy * 2 >= cell_ns),
		st, sv_timeline_src_color(v, src, c->call));
}

void sv_timeline_draw_fold(const struct sv_timeline *v, struct sv_grid *g,
	const struct sv_layout_row *r, int y)
{
	const struct sv_session *s = v->s;
	struct sv_timeline_src src = sv_timeline_src(v, r->run);
	const struct sv_profile *p = src.p;
	const struct sv_glyphs *gl = sv_render_glyphs(s->opts.ascii);
	struct sv_tmap m = sv_timeline_tmap_run(v, r->run);
	bool dim = sv_session_search_spec(s)[0] && sv_session_search_on(s);
	const struct fold_row *kept;
	uint32_t run_region = 0;
	int x, run_x0 = -1, sel_x0, sel_x1;

	if (!sv_tmap_valid(&m))
		return;
	kept = fold_kept(v, &src, r, &m, y);
	/* The selected call, when in the rank, shows over the track. */
	if (src.sel == SV_NO_CALL || sv_call_lane(p, src.sel) < r->lane ||
		sv_call_lane(p, src.sel) >= r->lane_end ||
		!sv_tmap_span(&m, sv_profile_start(p, src.sel),
			sv_lod_call_end(p, src.sel), &sel_x0, &sel_x1))
		sel_x0 = sel_x1 = -1;
	for (x = m.x0; x <= m.x0 + m.w; x++) {
		struct fold_cell c = {SV_NO_CALL, 0, 0};
		uint32_t region = 0;
		if (x >= sel_x0 && x < sel_x1) {
			sv_grid_put(g, x, y, gl->bar, SV_STYLE_SELECTED,
				sv_timeline_src_color(v, &src, src.sel));
			c.call = src.sel;
		} else if (x < m.x0 + m.w) {
			int64_t t0 = sv_tmap_time(&m, x),
				t1 = sv_tmap_time(&m, x + 1);
			if (kept)
				c = kept->v[x - m.x0];
			else
				fold_cell_at(
					v, &src, r, t0, t1, &c, NULL, false);
			if (c.call != SV_NO_CALL)
				fold_put(v, &src, g, x, y, &c, t1 - t0, dim);
		}
		if (c.call != SV_NO_CALL)
			region = sv_call_region(p, c.call);
		/* A run of cells of one region carries its name. */
		if (run_x0 >= 0 &&
			(c.call == SV_NO_CALL || region != run_region)) {
			sv_timeline_draw_name(
				v, g, p->regions[run_region], run_x0, x, y);
			run_x0 = -1;
		}
		if (c.call != SV_NO_CALL && run_x0 < 0) {
			run_x0 = x;
			run_region = region;
		}
	}
}

/* ---- the rows ------------------------------------------------------------- */

/* Whether lane l has a call in the index (the region filter's). */
static bool fold_lane_has_calls(const struct sv_timeline_src *src, size_t l)
{
	uint32_t d;

	for (d = 0; d < src->p->lanes[l].depth_rows; d++) {
		const struct sv_lod_level *lv =
			sv_lod_index_level(src->ix, l, d);
		if (lv && lv->n)
			return true;
	}
	return false;
}

/* Whether (lane, depth) of src has a call meeting the window. */
static bool fold_in_window(const struct sv_timeline *v,
	const struct sv_timeline_src *src, uint32_t lane, uint32_t depth)
{
	struct sv_tmap m = sv_timeline_tmap_run(v, src->run);
	const struct sv_lod_level *lv =
		sv_lod_index_level(src->ix, lane, depth);
	uint32_t lo, hi;

	sv_lod_range(lv, m.t0, m.t1, &lo, &hi);
	return hi > lo;
}

enum { FOLD_KEEP, FOLD_DROP_ROW, FOLD_DROP_LANE };

/* What becomes of row: a depth row below a lane's first with no call in
 * the window goes; under a region filter a lane (or every lane of a
 * folded rank) without a call it keeps goes, counted in *hidden, and a
 * lane's first row goes when only its deeper rows have calls in the
 * window (its label moves down to them). */
static int fold_row_fate(
	struct sv_timeline *v, const struct sv_layout_row *row, size_t *hidden)
{
	struct sv_timeline_src src = sv_timeline_src(v, row->run);
	size_t l, empty = 0, shown = 0;
	uint32_t d;

	if (row->depth > 0)
		return fold_in_window(v, &src, row->lane, row->depth)
			       ? FOLD_KEEP
			       : FOLD_DROP_ROW;
	if (!sv_session_region_keep(v->s))
		return FOLD_KEEP;
	for (l = row->lane; l < row->lane_end; l++)
		if (fold_lane_shown(v, row->run, l)) {
			shown++;
			empty += !fold_lane_has_calls(&src, l);
		}
	if (empty == shown) {
		*hidden += shown;
		return FOLD_DROP_LANE;
	}
	if (row->fold || fold_in_window(v, &src, row->lane, 0))
		return FOLD_KEEP;
	for (d = 1; d < src.p->lanes[row->lane].depth_rows; d++)
		if (fold_in_window(v, &src, row->lane, d))
			return FOLD_DROP_ROW;
	return FOLD_KEEP;
}

/* Drop the rows fold_row_fate does not keep. */
static void fold_drop_rows(struct sv_timeline *v)
{
	struct sv_layout_rows *r = &v->rows;
	size_t i, k = 0;
	bool drop_lane = false;

	v->nfiltered_out = 0;
	for (i = 0; i < r->n; i++) {
		struct sv_layout_row row = r->rows[i];
		int fate;
		if (row.lane_first)
			drop_lane = false;
		if (drop_lane)
			continue;
		fate = fold_row_fate(v, &row, &v->nfiltered_out);
		drop_lane = fate == FOLD_DROP_LANE;
		if (fate != FOLD_KEEP)
			continue;
		row.lane_first =
			!k || !sv_timeline_same_lane(&r->rows[k - 1], &row);
		row.lane_last = false;
		if (k && !sv_timeline_same_lane(&r->rows[k - 1], &row))
			r->rows[k - 1].lane_last = true;
		r->rows[k++] = row;
	}
	if (k)
		r->rows[k - 1].lane_last = true;
	r->n = k;
}

/* Cells of the window that the calls of row's lane at depth fill,
 * counting no further than limit. */
static int fold_cells(const struct sv_timeline *v,
	const struct sv_layout_row *row, uint32_t depth, int limit)
{
	struct sv_timeline_src src = sv_timeline_src(v, row->run);
	struct sv_tmap m = sv_timeline_tmap_run(v, row->run);
	const struct sv_lod_level *lv =
		sv_lod_index_level(src.ix, row->lane, depth);
	struct sv_layout_span sp;
	int x = m.x0, cells = 0;

	while (cells <= limit && sv_layout_row_next(src.ix, lv, &m, &x, &sp))
		cells += sp.x1 - sp.x0;
	return cells;
}

/* Merge each lane's last rows that hold a sliver (fewer cells than
 * FOLD_SLIVER_PCT of the lane's busy cells, those of all its rows) into
 * the row above them:
 * depth_last becomes the deepest.  The lane's first row stays. */
static void fold_slivers(struct sv_timeline *v)
{
	struct sv_layout_rows *r = &v->rows;
	size_t i = 0, k = 0;

	while (i < r->n) {
		size_t end = i + 1, first;
		int busy;
		while (end < r->n && !r->rows[end].lane_first)
			end++;
		first = end;
		if (!r->rows[i].fold && end - i > 1) {
			size_t j;
			busy = 0;
			for (j = i; j < end; j++)
				busy += fold_cells(v, &r->rows[j],
					r->rows[j].depth, v->geom.tl_w);
			while (first > i + 1 &&
				fold_cells(v, &r->rows[first - 1],
					r->rows[first - 1].depth,
					busy) * 100 <
					busy * FOLD_SLIVER_PCT)
				first--;
		}
		for (; i < first; i++)
			r->rows[k++] = r->rows[i];
		if (first < end) {
			r->rows[k - 1].depth_last = r->rows[end - 1].depth_last;
			r->rows[k - 1].lane_last = true;
		}
		i = end;
	}
	r->n = k;
}

void sv_timeline_fold_rows(struct sv_timeline *v)
{
	fold_drop_rows(v);
	/* Slivers merge only when the rows do not fit (a soloed lane shows
	 * every depth that has a call in the window). */
	if ((long)v->rows.n > (long)v->geom.lanes_h)
		fold_slivers(v);
}

uint32_t sv_timeline_row_hit(const struct sv_timeline *v,
	const struct sv_layout_row *r, const struct sv_tmap *m, int x)
{
	struct sv_timeline_src src = sv_timeline_src(v, r->run);
	struct sv_tmap mr = *m;
	uint32_t d = r->depth_last + 1u, c = SV_NO_CALL;

	/* The row's run's clock: the same columns, times moved. */
	mr.t0 = sv_timeline_tmap_run(v, r->run).t0 + (m->t0 - v->t0);
	mr.t1 = mr.t0 + (m->t1 - m->t0);
	if (r->fold)
		return sv_timeline_fold_hit(v, r, &mr, x);
	/* The deepest first: merged slivers are drawn over the row. */
	while (c == SV_NO_CALL && d-- > r->depth)
		c = sv_layout_hit(src.ix, r->lane, d, &mr, x, NULL);
	return c;
}

void sv_timeline_draw_slivers(const struct sv_timeline *v, struct sv_grid *g,
	const struct sv_layout_row *r, int y)
{
	const struct sv_glyphs *gl = sv_render_glyphs(v->s->opts.ascii);
	struct sv_timeline_src src = sv_timeline_src(v, r->run);
	struct sv_tmap m = sv_timeline_tmap_run(v, r->run);
	uint32_t d;

	for (d = r->depth + 1u; d <= r->depth_last; d++) {
		const struct sv_lod_level *lv =
			sv_lod_index_level(src.ix, r->lane, d);
		struct sv_layout_span sp;
		int x = m.x0, cx;
		while (sv_layout_row_next(src.ix, lv, &m, &x, &sp)) {
			int style = sp.count > 1 ? SV_STYLE_SPAN_MERGED
						 : SV_STYLE_SPAN;
			if (sp.call == src.sel)
				style = SV_STYLE_SELECTED;
			else if (sv_timeline_src_match(v, &src, sp.call))
				style = SV_STYLE_MATCH;
			/* A name over the row stays readable. */
			for (cx = sp.x0; cx < sp.x1; cx++) {
				const struct sv_cell *under =
					sv_grid_cell(g, cx, y);
				if (under &&
					!sv_timeline_bar_glyph(v, under->ch))
					continue;
				sv_grid_put(g, cx, y, gl->bar, style,
					sv_timeline_src_color(
						v, &src, sp.call));
			}
		}
	}
}
