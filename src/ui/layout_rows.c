/*
 * layout_rows.c: the timeline's rows (one per lane and depth, or one per
 * folded rank; with a second run, each rank's lanes of both runs) and
 * the screen geometry for a terminal size (layout.h).
 */
#include "scopeview/layout.h"

#include <stdlib.h>
#include <string.h>

/* ---- rows -------------------------------------------------------------- */

/* Append lane l of p (run run): depth_rows rows. */
static void rows_add_lane(struct sv_layout_rows *r, const struct sv_profile *p,
	size_t l, uint8_t run)
{
	uint32_t nrows = p->lanes[l].depth_rows ? p->lanes[l].depth_rows : 1, d;

	sv_grow((void **)&r->rows, &r->cap, r->n + nrows, sizeof *r->rows);
	for (d = 0; d < nrows; d++)
		r->rows[r->n++] = (struct sv_layout_row){
			.lane = (uint32_t)l,
			.lane_end = (uint32_t)l + 1,
			.depth = (uint16_t)d,
			.depth_last = (uint16_t)d,
			.lane_first = d == 0,
			.lane_last = d + 1 == nrows,
			.run = run,
		};
}

/* Append the lanes of p from *l on whose rank is rank (run run), moving
 * *l past them: a row per depth, or one for them all when the rank is
 * folded (its first lane's flag). */
static void rows_add_rank(struct sv_layout_rows *r, const struct sv_profile *p,
	size_t *l, uint32_t rank, const bool *hidden, const bool *folded,
	uint8_t run)
{
	size_t end = *l, shown = SIZE_MAX, k;

	while (end < p->nlanes && p->lanes[end].rank == rank)
		end++;
	if (folded && *l < end && folded[*l]) {
		for (k = *l; k < end && shown == SIZE_MAX; k++)
			if (!hidden || !hidden[k])
				shown = k;
		if (shown != SIZE_MAX) {
			sv_grow((void **)&r->rows, &r->cap, r->n + 1,
				sizeof *r->rows);
			r->rows[r->n++] = (struct sv_layout_row){
				.lane = (uint32_t)shown,
				.lane_end = (uint32_t)end,
				.lane_first = true,
				.lane_last = true,
				.fold = true,
				.run = run,
			};
		}
		*l = end;
		return;
	}
	for (; *l < end; (*l)++)
		if (!hidden || !hidden[*l])
			rows_add_lane(r, p, *l, run);
}

void sv_layout_rows_build(struct sv_layout_rows *r, const struct sv_profile *p,
	const bool *lane_hidden, const bool *lane_folded)
{
	sv_layout_rows_build_two(
		r, p, lane_hidden, lane_folded, NULL, NULL, NULL);
}

void sv_layout_rows_build_two(struct sv_layout_rows *r,
	const struct sv_profile *p, const bool *lane_hidden,
	const bool *lane_folded, const struct sv_profile *p2,
	const bool *lane2_hidden, const bool *lane2_folded)
{
	size_t l = 0, l2 = 0;
	bool two = p2 && p2->has_calls;

	r->n = 0;
	if (!p || !p->has_calls)
		return;
	/* Rank by rank (lanes are in rank order): A's, then B's. */
	while (l < p->nlanes || (two && l2 < p2->nlanes)) {
		uint32_t ra = l < p->nlanes ? p->lanes[l].rank : UINT32_MAX,
			 rb = two && l2 < p2->nlanes ? p2->lanes[l2].rank
						     : UINT32_MAX,
			 rank = ra < rb ? ra : rb;
		rows_add_rank(r, p, &l, rank, lane_hidden, lane_folded, 0);
		if (two)
			rows_add_rank(r, p2, &l2, rank, lane2_hidden,
				lane2_folded, 1);
	}
}

void sv_layout_rows_fini(struct sv_layout_rows *r)
{
	if (!r)
		return;
	free(r->rows);
	memset(r, 0, sizeof *r);
}

long sv_layout_rows_find(
	const struct sv_layout_rows *r, uint32_t lane, uint32_t depth)
{
	return sv_layout_rows_find_run(r, 0, lane, depth);
}

long sv_layout_rows_find_run(const struct sv_layout_rows *r, unsigned run,
	uint32_t lane, uint32_t depth)
{
	size_t i;
	long last = -1;

	if (!r)
		return -1;
	for (i = 0; i < r->n; i++) {
		if (lane < r->rows[i].lane || lane >= r->rows[i].lane_end ||
			r->rows[i].run != run) {
			if (last >= 0)
				break;
			continue;
		}
		last = (long)i;
		if (r->rows[i].depth == depth)
			return (long)i;
	}
	return last;
}

/* ---- geometry ---------------------------------------------------------- */

void sv_layout_geometry(
	struct sv_layout_geom *g, int w, int h, bool panel, bool details)
{
	sv_layout_geometry_panel(g, w, h, panel, details, 0);
}

void sv_layout_geometry_panel(struct sv_layout_geom *g, int w, int h,
	bool panel, bool details, int panel_w)
{
	int main_w;

	memset(g, 0, sizeof *g);
	g->w = w;
	g->h = h;
	g->too_small = w < SV_LAYOUT_MIN_W || h < SV_LAYOUT_MIN_H;
	if (g->too_small)
		return;
	g->status_y = h - 1;
	g->ruler_y = 0;
	if (panel && w >= 100) {
		g->panel_w = w * 2 / 5;
		if (g->panel_w < 40)
			g->panel_w = 40;
		if (g->panel_w > 80)
			g->panel_w = 80; /* wide terminals: room for names */
		if (panel_w > 0)         /* asked for; the timeline keeps 60 */
			g->panel_w = panel_w < w - 60 ? panel_w : w - 60;
		g->panel_x = w - g->panel_w;
		g->panel_y = 0;
		g->panel_h = h - 1;
	}
	main_w = w - g->panel_w;
	g->label_w = main_w / 4;
	if (g->label_w < 10)
		g->label_w = 10;
	if (g->label_w > 32)
		g->label_w = 32;
	g->label_x = 0;
	g->tl_x = g->label_w;
	g->tl_w = main_w - g->label_w;
	if (details && h >= 18) {
		g->details_h = h / 3;
		if (g->details_h > 12)
			g->details_h = 12;
		g->details_y = h - 1 - g->details_h;
	}
	g->lanes_y = 2;
	g->lanes_h = (g->details_h ? g->details_y : g->status_y) - g->lanes_y;
}
