/*
 * palette.h: the colours of calls.
 *
 * The palette holds SV_PALETTE_NREGION region colours (grid colour indexes
 * 1 .. 24), chosen to stand apart in a 256-colour terminal, then
 * SV_PALETTE_NHEAT steps of a heat ramp (cold to hot, indexes 25 .. 32)
 * for the colour modes by duration and by self time.  Each colour also
 * has its 16- and 8-colour reduction and a fill pattern: in 16 and 8
 * colours, in monochrome and under NO_COLOR, a bar cell of a colour is
 * drawn with sv_palette_fill()'s glyph, so regions whose reduced colours
 * coincide still look different.
 *
 * A map gives every region of a profile its colour once, when the
 * profile is set: regions in order of their inclusive time over the whole
 * run, each taking the first colour, from the one its name hashes to
 * (FNV-1a), that no region before it and none of its callers or callees
 * has; when the palette runs out, the first its callers and callees do
 * not have.  So a region keeps its colour in every view, the top regions
 * of the panel all differ, and a call never has its parent's colour (a
 * region calling itself alternates with its second colour, `alt`).
 *
 * Nothing here knows about curses; the map borrows nothing.
 */
#ifndef SCOPEVIEW_PALETTE_H
#define SCOPEVIEW_PALETTE_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/palette.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/grid.h"
#include "scopeview/profile.h"

#define SV_PALETTE_NREGION 24
#define SV_PALETTE_HEAT0   (SV_PALETTE_NREGION + 1)
#define SV_PALETTE_NHEAT   8

/* How calls are coloured (the timeline's colour modes). */
#define SV_PALETTE_MODE_TABLE(X)                                        \
	X(REGION, "region", "by region")                                \
	X(DURATION, "duration", "by duration (heat: longer is hotter)") \
	X(SELF, "self", "by self time (heat: share of the call)")       \
	X(RANK, "rank", "by rank")

enum sv_palette_mode {
#define SV_PALETTE_MODE_ENUM(id, name, help) SV_PALETTE_MODE_##id,
	SV_PALETTE_MODE_TABLE(SV_PALETTE_MODE_ENUM)
#undef SV_PALETTE_MODE_ENUM
		SV_PALETTE_MODE_COUNT
};

/* The colour of every region of one profile. */
struct sv_palette_map {
	uint8_t *color; /* nregions: 1 .. SV_PALETTE_NREGION */
	uint8_t *alt;   /* nregions: a second colour for self-recursion */
	size_t n;
	int64_t dur_min, dur_max; /* the calls' durations (heat scale) */
	uint64_t serial; /* unique to each build (drawn colours kept by the
			    timeline's rows are keyed on it) */
};

/* The colour a name hashes to, 1 .. SV_PALETTE_NREGION. */
int sv_palette_hash(const char *name);

/*
 * Colour the regions of p (see above).  weight (p->nregions values; NULL:
 * each region's inclusive ns over the run, from the calls) orders them,
 * heaviest first, ties by region number.  Replaces what m held.  O(calls
 * + regions x log regions); the caller/callee relation is kept for the
 * 1024 heaviest regions (the rest avoid only heavier regions' colours).
 */
void sv_palette_map_build(struct sv_palette_map *m, const struct sv_profile *p,
	const int64_t *weight);
void sv_palette_map_fini(struct sv_palette_map *m);

/* The colour of region r (1 .. SV_PALETTE_NREGION; the hash of its name
 * when the map does not hold it). */
int sv_palette_region(
	const struct sv_palette_map *m, const struct sv_profile *p, uint32_t r);
/* The colour of call c in a mode: its region's (the second colour when
 * an odd number of its nearest ancestors are calls of the same region),
 * a heat step of its duration (log scale between the profile's shortest
 * and longest call) or of its self time over its duration, or its rank's
 * colour. */
int sv_palette_call(const struct sv_palette_map *m, const struct sv_profile *p,
	uint32_t c, int mode);

/* "region", "duration", ... or NULL; the mode of a name, or -1. */
const char *sv_palette_mode_name(int mode);
const char *sv_palette_mode_help(int mode);
int sv_palette_mode_from_name(const char *name);

/* Colour `color` (0 .. SV_GRID_NCOLORS) in a theme; out of range: 0. */
const struct sv_palette *sv_palette_entry(int theme, int color);
/*
 * The glyph a bar cell (SV_GRID_BAR) of colour `color` is drawn with in a
 * terminal of `colors` colours (256, 16, 8, or 0 for none): the bar
 * itself in 256 colours, else one of a few block patterns, so that
 * colours the reduction makes equal still differ.
 */
uint32_t sv_palette_fill(int color, int colors);

#endif
