/*
 * render.h: what the modes' drawing code shares (draw.c).
 *
 * The glyph sets (Unicode and ASCII), the compact and exact time formats
 * of the screens, text folded into a box, the status line's layout and
 * the "terminal too small" screen.  Every string from the file goes
 * through sv_grid_text(), which escapes control characters.  Drawing
 * allocates nothing once the grid has its size, and nothing drawn depends
 * on the clock.  Nothing here knows about curses, HDF5 or the loader.
 */
#ifndef SCOPEVIEW_RENDER_H
#define SCOPEVIEW_RENDER_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/render.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/grid.h"
#include "scopeview/session.h"

struct sv_glyphs {
	uint32_t bar, await, vline, hline, tick, cursor, ellipsis, gpu,
		collapsed, expanded, many, tl, tr, bl, br, sortmark;
	bool ascii;
};

/* The Unicode or the ASCII glyphs. */
const struct sv_glyphs *sv_render_glyphs(bool ascii);

/* Compact duration for tables: at most 7 cells ("12.5ms", "830ns"). */
char *sv_render_short(int64_t ns, char *buf, size_t n);
/* A relative time with a sign: "+12.500 ms". */
char *sv_render_rel(int64_t ns, char *buf, size_t n);
/* Exact nanoseconds with thousands separators: "5,232,556 ns". */
char *sv_render_ns(int64_t ns, char *buf, size_t n);
/* A duration in human units and exact: "85.4 us = 85,360 ns", or just
 * "801 ns" when the two would say the same; rel adds a sign. */
char *sv_render_exact(int64_t ns, bool rel, char *buf, size_t n);

/* Text folded at spaces into w cells and at most maxh rows from (x, y). */
void sv_render_wrapped(struct sv_grid *g, const struct sv_glyphs *gl, int x,
	int y, int w, int maxh, const char *text, int style);

/* The status row y of a w-cell screen: the session's title (its file name
 * when the path is long), then line, then the session's message on the
 * right, or else the longest of hints[0 .. nhints) that fits. */
void sv_render_status(struct sv_grid *g, const struct sv_session *s, int y,
	int w, const char *line, const char *const *hints, size_t nhints);

/* A bar of frac (0 .. 1) of w cells from (x, y), in eighths of a cell
 * ('#' cells when ascii); a fraction above 0 shows at least an eighth. */
void sv_render_bar(struct sv_grid *g, int x, int y, int w, double frac,
	bool ascii, int style, int color);

/* Draw only the "terminal too small" screen. */
void sv_render_too_small(struct sv_grid *g, int w, int h);

#endif
