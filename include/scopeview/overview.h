/*
 * overview.h: the overview strip, one line above the lanes that shows the
 * whole run: how busy the lanes on display are over time (a bar of eighth
 * blocks per column: the share of the lanes' time their top-level calls
 * cover there) and where the timeline's window sits in it (its columns
 * highlighted, brackets at its ends).  A click on the strip moves the
 * window there (the timeline mode's mouse handler).
 *
 * A frame of the strip walks each lane on display once left to right
 * through the level-of-detail index (lod.h, sv_lod_cursor_range): it
 * costs (columns) x (lanes on display) steps, each a gallop as short as
 * the columns' calls are regular, plus one search per lane, not a search
 * per column; nothing is allocated.
 * Nothing here knows about curses.
 */
#ifndef SCOPEVIEW_OVERVIEW_H
#define SCOPEVIEW_OVERVIEW_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/overview.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "scopeview/grid.h"
#include "scopeview/layout.h"
#include "scopeview/session.h"
#include "scopeview/timeline.h"

/* The time map of the strip: the session's whole run [run_t0, run_t1)
 * over columns [x0, x0 + w).  w < 1 gives an invalid map. */
struct sv_tmap sv_overview_tmap(const struct sv_session *s, int x0, int w);

/*
 * How busy the lanes on display (s->lane_hidden) are over [t0, t1): the
 * mean over those lanes of the share of the range their depth-0 calls
 * cover, 0 .. 1 (0 when no lane is on display).
 */
double sv_overview_activity(const struct sv_session *s, int64_t t0, int64_t t1);

/*
 * Draw the strip on row y, columns [x0, x0 + w) of g, with the window
 * [t0, t1) marked, and "overview" in the label cells [0, x0 - 1).
 */
void sv_overview_draw(struct sv_grid *g, const struct sv_session *s, int x0,
	int w, int y, int64_t t0, int64_t t1);

/* A click on the strip of timeline tl at column x: the window, same span,
 * centred on that time (in the zoom history, so Esc goes back), the cursor
 * there.  Returns SV_REACT_* flags. */
int sv_overview_click(struct sv_timeline *tl, int x);

#endif
