/*
 * snapshot.h: `scopeview snapshot`, the viewer's screen without a terminal.
 *
 * sv_snapshot_main() (declared in cli.h) parses the command line, loads the
 * file, feeds the key script to the same view the interactive viewer uses,
 * renders once and writes the grid as text, ANSI or SVG.  The function
 * below is the library part, for tests and the screenshot script: no
 * printing, no exit.
 */
#ifndef SCOPEVIEW_SNAPSHOT_H
#define SCOPEVIEW_SNAPSHOT_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/snapshot.h belongs to the ui layer, which this layer may not use"
#endif

#include <stddef.h>

#include "scopeview/common.h"
#include "scopeview/grid.h"
#include "scopeview/profile.h"
#include "scopeview/view.h"

/*
 * Draw profile p at w x h after keys[0 .. nkeys) into g (initialised by the
 * caller).  opts may be NULL.  Stops early when a key quits.  Returns 0,
 * or a negative errno with err.
 */
int sv_snapshot_draw(struct sv_grid *g, const struct sv_profile *p, int w,
	int h, const int *keys, size_t nkeys, const struct sv_view_opts *opts,
	struct sv_error *err);

#endif
