/*
 * lod_priv.h: what the level-of-detail index's files share beyond lod.h:
 * a worker's scratch, the finishing of a level, the regions of a level
 * and the search of a level's starts.  lod_build.c makes levels from a
 * profile, lod_select.c from another index (a filter's) and the regions
 * of each level; lod_query.c and lod_nav.c read them.  Private to
 * src/model/lod*.c.
 */
#ifndef SCOPEVIEW_MODEL_LOD_PRIV_H
#define SCOPEVIEW_MODEL_LOD_PRIV_H

#include "scopeview/lod.h"

/* A worker's scratch, grown to its largest lane and used for each: the
 * depth of each call, the calls of each depth, and each level's starts
 * and ends until they are packed (so the memory is touched once a
 * worker, not once a lane: 20 bytes a call of the lane, the sums and
 * durations are made a block at a time); with regions, each call's
 * region, the positions grouped by region, a count a region and the
 * regions seen; for a selection, one bit a position, the depths' kept
 * counts and an overlay's durations. */
struct sv_lod_scratch {
	uint32_t *count, *dep, *calls;
	int64_t *start, *ends, *durs;
	size_t count_cap, dep_cap, cap, durs_cap;
	uint32_t *reg, *rpos;
	size_t reg_cap, rpos_cap;
	uint32_t *rcnt, *seen;
	size_t rcnt_cap;
	uint64_t *bits;
	size_t bits_cap;
	uint32_t *kept;
	size_t kept_cap;
};

/* Room in sc for the levels of a lane of n calls at ndepth depths. */
void sv_lod_scratch_fit(struct sv_lod_scratch *sc, size_t n, uint32_t ndepth);
void sv_lod_scratch_fini(struct sv_lod_scratch *sc);

/* The end of call c of p, whose start s the caller has at hand. */
int64_t sv_lod_end(const struct sv_profile *p, uint32_t c, int64_t s);
/* Asked to stop? (every 2^16 calls of a lane's passes: i & 0xffff == 0). */
bool sv_lod_stopped(const struct sv_lod_stop *stop, uint32_t i);
/* Everything of a level whose calls, starts and ends are in the scratch
 * (lv->calls, lv->start, lv->maxend, lv->n values). */
void sv_lod_level_finish(struct sv_lod_level *lv);
/* The position of the longest call of block b of lv. */
static inline uint32_t sv_lod_block_best(
	const struct sv_lod_level *lv, uint32_t b)
{
	return b * SV_LOD_BLOCK + sv_lod_bt(lv, SV_LOD_BT_BEST, b);
}
/* lv's longest-call tables (pre, suf, the tables over whole blocks;
 * nblocks, nsuper and nslog) for its n calls, whose durations are
 * dur[0 .. n). */
void sv_lod_level_longest(struct sv_lod_level *lv, const int64_t *dur);
/* The bytes a level holds (none for a borrowed one). */
size_t sv_lod_level_bytes(const struct sv_lod_level *lv);

/* Lane l of b's index from the profile; false when asked to stop.  The
 * lane's calls and bytes are added to *ncalls and *bytes. */
bool sv_lod_lane_build(const struct sv_lod_build *b, size_t l,
	struct sv_lod_scratch *sc, uint64_t *ncalls, size_t *bytes);
/* Lane l of b's index from b->from (lod_select.c); the same. */
bool sv_lod_lane_select(const struct sv_lod_build *b, size_t l,
	struct sv_lod_scratch *sc, uint64_t *ncalls, size_t *bytes);

/* The regions of a level of n calls whose regions are reg[0 .. n), of a
 * profile of nregions regions (lod_select.c). */
struct sv_lod_regions *sv_lod_regions_make(const uint32_t *reg, uint32_t n,
	uint32_t nregions, struct sv_lod_scratch *sc);
void sv_lod_regions_free(struct sv_lod_regions *rg);
/* What an overlay level's runs hold, with it (lod_select.c). */
void sv_lod_over_free(struct sv_lod_over *o);

/* First position i of lv with sv_lod_start(lv, i) >= t (lv->n when
 * none): a binary search (lod_query.c). */
uint32_t sv_lod_first_start(const struct sv_lod_level *lv, int64_t t);

#endif
