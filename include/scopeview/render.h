/*
 * render.h: draw the viewer's whole screen into a grid.
 *
 * sv_render() reads the view (window, cursor, selection, panels, prompt,
 * popup) and its layout index and writes every cell of the grid: the time
 * ruler, lane labels, call bars with level of detail, the summary and
 * details panels, the status line or prompt, and a popup on top.  It
 * allocates nothing once the grid has reached the screen size, and costs
 * about (visible cells) x log(calls in a lane) whatever the zoom.  The same
 * view always gives the same grid: nothing time-dependent (a clock, a load
 * time) is drawn.  Nothing here knows about curses, HDF5 or the loader.
 */
#ifndef SCOPEVIEW_RENDER_H
#define SCOPEVIEW_RENDER_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/render.h belongs to the ui layer, which this layer may not use"
#endif

#include "scopeview/grid.h"
#include "scopeview/view.h"

/* Resize g to v->w x v->h and draw v into it. */
void sv_render(struct sv_grid *g, const struct sv_view *v);

/* Draw only the "terminal too small" screen (used by sv_render too). */
void sv_render_too_small(struct sv_grid *g, int w, int h);

#endif
