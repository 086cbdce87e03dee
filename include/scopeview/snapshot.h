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

struct sv_runs;

/*
 * Draw the runs workspace r (runs.h; borrowed, not started) at w x h
 * after keys[0 .. nkeys) into g, as the viewer opened on its runs shows
 * it: its view (:view scaling) once every run is read or has failed, and
 * the keys applied with each key's work done.  Enter on two points reads
 * the pair through r's source here and shows it on the two-run timeline
 * (a nested view: q and Esc on its first view come back); opts (may be
 * NULL; its runs and nested are set here) serve both.  Returns 0, or a
 * negative errno with err; which runs could be read, r says.
 */
int sv_snapshot_draw_runs(struct sv_grid *g, struct sv_runs *r, int w, int h,
	const int *keys, size_t nkeys, const struct sv_view_opts *opts,
	struct sv_error *err);

#endif
