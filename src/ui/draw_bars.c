/*
 * draw_bars.c: the timeline's bars, one row at a time (timeline.h), and
 * what the cell under the cursor holds.
 *
 * A run of cells that one call alone occupies is a bar in the call's
 * colour with its name where it fits; the share of the call its task
 * spent awaiting is shaded at the bar's end, in proportion (the file
 * stores how long, not when).  A cell holding two calls is a boundary,
 * a half block in the colours of both; a cell holding more is solid in
 * a region's colour when that region covers BARS_SOLID percent of it or
 * more, else shaded by how much of it calls cover, in the colour of the
 * longest.  A run of cells that one region dominates carries that
 * region's name, drawn in one style: the region's colour under it.  No digit
 * is drawn in a bar; no call is drawn outside its true columns and a cell
 * that holds a call never looks empty.
 *
 * Nothing here allocates, knows about curses or depends on the clock.
 */
#include "scopeview/timeline.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "scopeview/fmt.h"
#include "scopeview/render.h"

/* The glyphs of this file, Unicode and ASCII: a boundary between two
 * calls (the left one's colour, then the right one's), the left edge of a
 * call next to one of the same colour, a dense and a sparse cell. */
struct bars_glyphs {
	uint32_t edge, edge_r, dense, sparse;
};

static const struct bars_glyphs bars_unicode = {0x258c, 0x2590, 0x2593, 0x2592};
static const struct bars_glyphs bars_ascii = {'|', '[', '#', '*'};

uint32_t sv_timeline_shade(const struct sv_timeline *v, bool dense)
{
	const struct bars_glyphs *bg =
		v->s->opts.ascii ? &bars_ascii : &bars_unicode;
	return dense ? bg->dense : bg->sparse;
}

bool sv_timeline_bar_glyph(const struct sv_timeline *v, uint32_t ch)
{
	const struct sv_glyphs *gl = sv_render_glyphs(v->s->opts.ascii);
	const struct bars_glyphs *bg =
		v->s->opts.ascii ? &bars_ascii : &bars_unicode;
	return ch == ' ' || ch == gl->bar || ch == gl->await || ch == gl->gpu ||
	       ch == bg->edge || ch == bg->edge_r || ch == bg->dense ||
	       ch == bg->sparse;
}

/* A run of consecutive cells of one dominating region: [x0, x1). */
struct bars_run {
	uint32_t region;
	int x0, x1;
	bool named; /* the run holds a bar that shows its own name */
};

#define BARS_NAME_MIN 4
/* The share of a cell (percent) one region covers for it to be solid. */
#define BARS_SOLID 70

struct bars_ctx {
	const struct sv_timeline *v;
	const struct sv_session *s;
	const struct sv_profile *p;
	struct sv_timeline_src src; /* the row's run */
	struct sv_grid *g;
	const struct sv_glyphs *gl;
	const struct bars_glyphs *bg;
	const struct sv_lod_level *lv;
	struct sv_tmap m;
	int y;
	bool dim_others; /* a search is on: calls it does not match dim */
	bool sel_row;
	int sel_x0, sel_x1;
	uint64_t color_key; /* colour mode and palette build, for the colours
			       the row's kept spans hold */
};

/* The colour of span r's call, kept in r while the key holds. */
static int bars_span_color(const struct bars_ctx *b, struct sv_row_span *r)
{
	if (r->color_key != b->color_key) {
		r->color = sv_timeline_src_color(b->v, &b->src, r->s.call);
		r->color_key = b->color_key;
	}
	return r->color;
}

/* The style of a bar of call c: selected, matching, dimmed or plain. */
static int bars_style(const struct bars_ctx *b, uint32_t c, int plain)
{
	if (c == b->src.sel)
		return SV_STYLE_SELECTED;
	if (sv_timeline_src_match(b->v, &b->src, c))
		return SV_STYLE_MATCH;
	if (b->dim_others)
		return SV_STYLE_SPAN_DIM;
	return plain;
}

/* A run of one call, columns [x0, x1); prev_color is the colour of the
 * bar that ends at x0 (0 when none). */
static void bars_single(struct bars_ctx *b, struct sv_row_span *r,
	uint32_t region, int prev_color)
{
	const struct sv_profile *p = b->p;
	const struct sv_layout_span *s = &r->s;
	uint32_t c = s->call;
	const char *name = p->regions[region];
	int color = bars_span_color(b, r);
	int64_t dur = sv_call_duration(p, c);
	bool gpu = sv_profile_gpu(p, c) >= 0;
	int style = bars_style(b, c, SV_STYLE_SPAN), x, w = s->x1 - s->x0,
	    nawait = 0;

	if (sv_profile_await(p, c) > 0 && dur > 0) {
		/* The awaited share, in cells, rounded; at least one. */
		sv_i128 k = ((sv_i128)sv_profile_await(p, c) * w * 2 + dur) /
			    ((sv_i128)dur * 2);
		nawait = k < 1 ? 1 : k > w ? w : (int)k;
	}
	for (x = s->x0; x < s->x1; x++) {
		bool aw = x >= s->x1 - nawait;
		sv_grid_put(b->g, x, b->y, aw ? b->gl->await : b->gl->bar,
			aw && style == SV_STYLE_SPAN ? SV_STYLE_SPAN_AWAIT
						     : style,
			color);
	}
	if (w >= 4) {
		if (sv_grid_text_width(name, w) > 0)
			sv_grid_text(b->g, s->x0, b->y,
				w - (gpu ? 1 : 0) - (nawait && w > 5 ? 1 : 0),
				name, style, color, b->gl->ellipsis);
	} else if (prev_color == color) {
		/* Next to a bar of the same colour: a notch shows where
		 * this call begins. */
		sv_grid_put(b->g, s->x0, b->y, b->bg->edge_r, style, color);
	}
	if (gpu && w >= 2)
		sv_grid_put(b->g, s->x1 - 1, b->y, b->gl->gpu,
			style == SV_STYLE_SELECTED ? style : SV_STYLE_SPAN_GPU,
			color);
}

/* A cell of several calls (s->count > 1, one column) that keep busy ns of
 * it busy. */
static void bars_merged(struct bars_ctx *b, struct sv_row_span *r)
{
	const struct sv_profile *p = b->p;
	const struct sv_layout_span *s = &r->s;
	int64_t ta = sv_tmap_time(&b->m, s->x0),
		tb = sv_tmap_time(&b->m, s->x0 + 1), busy = r->busy;
	uint32_t lo = s->lo, hi = s->hi, c = s->call;
	int color = bars_span_color(b, r), st = SV_STYLE_SPAN_MERGED;

	if (b->sel_row && s->x0 >= b->sel_x0 && s->x0 < b->sel_x1)
		st = SV_STYLE_SELECTED;
	else if (sv_timeline_src_match(b->v, &b->src, c) ||
		 (!b->src.run && sv_session_has_match(b->s, sv_call_lane(p, c),
					 sv_profile_depth(p, c), ta, tb)))
		st = SV_STYLE_MATCH;
	else if (b->dim_others)
		st = SV_STYLE_SPAN_DIM;
	if (s->count == 2 && hi - lo == 2) {
		/* A boundary between two colours: the call that ends here
		 * on the left half, the one that begins here on the right
		 * (two calls of one colour are shaded like any cell). */
		int c1 = sv_timeline_src_color(
			    b->v, &b->src, sv_lod_call(b->lv, lo)),
		    c2 = sv_timeline_src_color(
			    b->v, &b->src, sv_lod_call(b->lv, lo + 1));
		if (c1 != c2 && st != SV_STYLE_SPAN_DIM) {
			if (st == SV_STYLE_SPAN_MERGED)
				st = SV_STYLE_SPAN;
			sv_grid_put2(b->g, s->x0, b->y, b->bg->edge, st, c1,
				st == SV_STYLE_SPAN ? c2 : 0);
			return;
		}
	}
	if (r->share >= BARS_SOLID) {
		/* One region all but fills the cell: solid, as a bar. */
		sv_grid_put(b->g, s->x0, b->y, b->gl->bar,
			st == SV_STYLE_SPAN_MERGED ? SV_STYLE_SPAN : st, color);
		return;
	}
	sv_grid_put(b->g, s->x0, b->y,
		busy * 2 >= tb - ta ? b->bg->dense : b->bg->sparse, st, color);
}

/* The name of a run's region over the run, in one style: the style of
 * the run's first cell made a bar's (selected, matching and dimmed stay
 * so) in the region's colour there, so that the letters read as one word
 * whatever the cells under them held; the cells after the name keep
 * theirs. */
void sv_timeline_draw_name(const struct sv_timeline *v, struct sv_grid *g,
	const char *name, int x0, int x1, int y)
{
	const struct sv_cell *first;
	int n = x1 - x0, style, color;

	if (n < BARS_NAME_MIN || n > SV_BARS_MAX_RUN ||
		sv_grid_text_width(name, n) <= 0)
		return;
	first = sv_grid_cell(g, x0, y);
	style = first ? first->style : SV_STYLE_SPAN;
	color = first ? first->color : 0;
	if (style == SV_STYLE_SPAN_MERGED || style == SV_STYLE_SPAN_AWAIT)
		style = SV_STYLE_SPAN;
	sv_grid_text(g, x0, y, n, name, style, color,
		sv_render_glyphs(v->s->opts.ascii)->ellipsis);
}

static void bars_run_name(struct bars_ctx *b, const struct bars_run *run)
{
	if (!run->named)
		sv_timeline_draw_name(b->v, b->g, b->p->regions[run->region],
			run->x0, run->x1, b->y);
}

void sv_timeline_draw_row(const struct sv_timeline *v, struct sv_grid *g,
	unsigned row_run, uint32_t lane, uint16_t depth, int y)
{
	const struct sv_session *s = v->s;
	const struct sv_timeline_src src = sv_timeline_src(v, row_run);
	const struct sv_profile *p = src.p;
	struct bars_ctx b;
	struct bars_run run = {0, 0, 0, false};
	struct sv_row_spans local = {0}, *kept = &local;
	struct sv_row_span *spans;
	size_t i, n;
	int prev_end = -1, prev_color = 0;

	memset(&b, 0, sizeof b);
	b.v = v;
	b.s = s;
	b.p = p;
	b.src = src;
	b.g = g;
	b.gl = sv_render_glyphs(s->opts.ascii);
	b.bg = s->opts.ascii ? &bars_ascii : &bars_unicode;
	b.lv = sv_lod_index_level(src.ix, lane, depth);
	b.m = sv_timeline_tmap_run(v, row_run);
	b.y = y;
	b.dim_others = sv_session_search_spec(s)[0] && sv_session_search_on(s);
	if (src.sel != SV_NO_CALL && sv_call_lane(p, src.sel) == lane &&
		sv_profile_depth(p, src.sel) == depth)
		b.sel_row = sv_tmap_span(&b.m, sv_profile_start(p, src.sel),
			sv_profile_end(p, src.sel), &b.sel_x0, &b.sel_x1);
	/* The row's spans from the last frame when its window is the same. */
	if (v->span_rows && y >= v->geom.lanes_y &&
		y - v->geom.lanes_y < SV_TIMELINE_SPAN_ROWS)
		kept = &v->span_rows[y - v->geom.lanes_y];
	b.color_key = sv_session_color_key(s, src.run);
	spans = sv_row_spans_get(kept, src.ix, b.lv, &b.m, &n);
	for (i = 0; i < n; i++) {
		const struct sv_layout_span *sp = &spans[i].s;
		uint32_t region = spans[i].region;
		bool own_name = sp->count == 1 && sp->x1 - sp->x0 >= 4;
		if (sp->count > 1)
			bars_merged(&b, &spans[i]);
		else
			bars_single(&b, &spans[i], region,
				prev_end == sp->x0 ? prev_color : 0);
		prev_end = sp->x1;
		prev_color = sp->count == 1 ? spans[i].color : 0;
		if (run.x1 == sp->x0 && run.x1 > run.x0 &&
			run.region == region) {
			run.x1 = sp->x1;
			run.named |= own_name;
			continue;
		}
		bars_run_name(&b, &run);
		run.region = region;
		run.x0 = sp->x0;
		run.x1 = sp->x1;
		run.named = own_name;
	}
	bars_run_name(&b, &run);
	sv_row_spans_fini(&local);
}

bool sv_timeline_draw_stored(const struct sv_timeline *v, struct sv_grid *g,
	const struct sv_lane *lane, int y)
{
	const struct sv_session *s = v->s;
	const struct sv_session_rank_run *rr;
	const struct sv_glyphs *gl = sv_render_glyphs(s->opts.ascii);
	struct sv_tmap m = sv_timeline_tmap(v);
	char text[256], tot[32];
	int x0, x1, x;

	if (!sv_lane_not_read(s->p, lane) ||
		!(rr = sv_session_rank_run(s, lane->rank)))
		return false;
	if (!rr->has_span || !sv_tmap_span(&m, rr->t0, rr->t1, &x0, &x1))
		return true;
	for (x = x0; x < x1; x++)
		sv_grid_put(
			g, x, y, s->opts.ascii ? '-' : 0x2504, SV_STYLE_DIM, 0);
	if (rr->top_region >= 0 && (size_t)rr->top_region < s->p->nregions)
		snprintf(text, sizeof text,
			" %" PRIu64 " calls not read; %s %s ", rr->calls,
			s->p->regions[rr->top_region],
			sv_fmt_dur(rr->top_total, tot, sizeof tot));
	else
		snprintf(text, sizeof text, " %" PRIu64 " calls not read ",
			rr->calls);
	if (x1 - x0 >= 8)
		sv_grid_text(g, x0 + 1, y, x1 - x0 - 2, text, SV_STYLE_DIM, 0,
			gl->ellipsis);
	return true;
}

size_t sv_timeline_cell_summary(
	const struct sv_timeline *v, int x, char *buf, size_t n)
{
	const struct sv_timeline_src src = sv_timeline_src(v, v->cur_run);
	const struct sv_profile *p = src.p;
	const struct sv_lod_level *lv;
	struct sv_tmap m = sv_timeline_tmap_run(v, v->cur_run);
	int64_t ta, tb, total = 0;
	uint32_t lo, hi, k;
	struct {
		uint32_t region;
		int64_t ns;
	} top[SV_BARS_SUMMARY_REGIONS];
	size_t ntop = 0, used = 0, i, j;
	int64_t other = 0;

	if (n)
		buf[0] = '\0';
	if (!n || !p->has_calls || x < m.x0 || x >= m.x0 + m.w)
		return 0;
	lv = sv_lod_index_level(src.ix, v->cur_lane, v->cur_depth);
	if (!lv)
		return 0;
	ta = sv_tmap_time(&m, x);
	tb = sv_tmap_time(&m, x + 1);
	sv_lod_range(lv, ta, tb, &lo, &hi);
	/* Only calls that meet the cell (the range may hold a few that
	 * end before it). */
	while (lo < hi && sv_sub_sat(ta, sv_lod_start(lv, lo)) >=
				  (sv_lod_dur(lv, lo) ? sv_lod_dur(lv, lo) : 1))
		lo++;
	if (hi - lo < 2)
		return 0;
	/* Time per region, clipped to the cell; a cell of millions of
	 * calls is summed by the first SV_BARS_SUMMARY_MAX. */
	for (k = lo; k < hi && k - lo < SV_BARS_SUMMARY_MAX; k++) {
		uint32_t r = sv_call_region(p, sv_lod_call(lv, k));
		int64_t ns = sv_lod_busy(lv, ta, tb, k, k + 1);
		if (ns <= 0)
			ns = 1;
		total += ns;
		for (i = 0; i < ntop && top[i].region != r; i++)
			;
		if (i < ntop)
			top[i].ns += ns;
		else if (ntop < SV_BARS_SUMMARY_REGIONS) {
			top[ntop].region = r;
			top[ntop++].ns = ns;
		} else
			other += ns;
	}
	/* Largest first (a handful of entries). */
	for (i = 0; i < ntop; i++)
		for (j = i + 1; j < ntop; j++)
			if (top[j].ns > top[i].ns) {
				uint32_t tr = top[i].region;
				int64_t tn = top[i].ns;
				top[i] = top[j];
				top[j].region = tr;
				top[j].ns = tn;
			}
	used = (size_t)snprintf(buf, n, "%u calls:", (unsigned)(hi - lo));
	for (i = 0; i < ntop && i < 3 && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s %.0f%% %s",
			i ? "," : "", 100.0 * (double)top[i].ns / (double)total,
			p->regions[top[i].region]);
	for (; i < ntop; i++)
		other += top[i].ns;
	if (other && used < n)
		used += (size_t)snprintf(buf + used, n - used, ", %.0f%% other",
			100.0 * (double)other / (double)total);
	return used < n ? used : n - 1;
}

static const struct sv_timeline_glyph bars_legend[] = {
	{SV_GRID_BAR, '=',
		"a call, in its region's colour (y colours by duration, self "
		"time or rank); its name where it fits"},
	{0x258c, '|',
		"a cell of two calls: the one ending there on the left, the "
		"one starting there on the right, each in its colour"},
	{0x2590, '[',
		"the first cell of a call right after one of the same colour"},
	{SV_GRID_BAR, '=',
		"also a cell of several calls of which one region covers 70% "
		"or more, in that region's colour"},
	{0x2593, '#',
		"a cell of several calls covering half of it or more, in the "
		"colour of the longest; a region's name spans the cells it "
		"dominates; the status line says what the cursor's cell holds"},
	{0x2592, '*', "a cell of several calls covering less than half"},
	{0x2591, ':',
		"the share of a call its task spent awaiting, at the call's "
		"end (a fraction: the file stores how long, not when)"},
	{'G', 'G', "the call has GPU time (the details say how much)"},
	{0x250a, '|', "the cursor, on an empty cell"},
	{0x25bc, 'v', "the cursor's column, on the time axis"},
	{0x25be, '-', "a lane shown a row per depth (z folds its rank)"},
	{0x25b8, '+',
		"a rank folded into one track: in each cell what the rank "
		"spent most of its time in, over its lanes (( and ) set the "
		"deepest depth it looks at)"},
	{'+', '+',
		"(at a label's end, or depth N +K) the depths below, each a "
		"sliver of the lane, drawn on this row"},
	{0x2584, ':',
		"overview strip (the row above the lanes): how busy the lanes "
		"on display are over the whole run, from a low bar (little) to "
		"a full one"},
	{'[', '[',
		"overview strip: the window's columns, highlighted between "
		"brackets; a click there moves the window"},
	{0, 0,
		"Dimmed grey: a call the search does not match.  In 16 or 8 "
		"colours, and with no colour (NO_COLOR), regions whose colours "
		"coincide are told apart by their fill patterns (full, shaded, "
		"quartered, half blocks)."},
};

const struct sv_timeline_glyph *sv_timeline_legend(size_t *n)
{
	*n = sizeof bars_legend / sizeof bars_legend[0];
	return bars_legend;
}
