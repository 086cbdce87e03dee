/*
 * lod.h: the level-of-detail index of a profile, built once per profile
 * (and per region filter or search): for every lane and depth the calls
 * in start order, their starts, the prefix sums of their durations (each
 * packed), the
 * longest call of each block's prefixes and suffixes, and tables of the
 * longest call of spans of whole blocks (a byte a block, and a sparse
 * table over superblocks of 1024 calls).  The calls of any time range of
 * a level are then two searches, the nanoseconds they cover one
 * difference of sums, and the
 * longest of them a range-maximum query (O(1)); ranges taken left to
 * right with a cursor (sv_lod_cursor_range) start each search at the last
 * range's answer, so a pass over a whole row costs about the same at any
 * zoom and any number of calls.  Navigation between calls (children,
 * siblings, the next call of a lane) reads the same levels.
 *
 * A pure data structure over the profile: it knows nothing of columns or
 * screens (the ui's layout.h maps its ranges onto columns), and it
 * borrows the profile, which must outlive it.
 */
#ifndef SCOPEVIEW_LOD_H
#define SCOPEVIEW_LOD_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/lod.h belongs to the model layer, which this layer may not use"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/packed.h"
#include "scopeview/profile.h"

/* ---- the index ----------------------------------------------------------- */

/* The regions of a level's calls (sv_lod_level.rg), made with the
 * profile's index when asked (sv_lod_build.regions): each region that
 * has a call in the level, and the level's positions grouped by region,
 * ascending within a group.  A region filter or a search by region name
 * then finds its calls of each level without reading any other call
 * (sv_lod_select_begin). */
struct sv_lod_regions {
	uint32_t n;           /* groups: the regions present */
	uint32_t *region;     /* n region numbers, ascending */
	uint32_t *off;        /* n + 1: group k is pos[off[k] .. off[k + 1]) */
	struct sv_packed pos; /* the positions by group; empty when n == 1
				 (the one group is every position) */
	size_t bytes;         /* what it allocated */
};

struct sv_lod_level;

/* A level of a filter's index that keeps most of a level of the index of
 * every call (sv_lod_select_begin): the same calls but for runs of
 * positions left out.  It reads the calls, starts and sums of that level
 * through the runs, and keeps only its own longest-call tables (pre, suf
 * and the blocks' tables): about 2.3 bytes a call where a level made
 * anew takes 11.  Kept position i is position i + skip[r] of from, r being
 * the runs before it, and the sums before it are from's less gone[r]. */
struct sv_lod_over {
	const struct sv_lod_level *from; /* the index of every call's */
	uint32_t nruns;
	uint32_t *at;   /* nruns: the kept positions before run r (each run
			   lies between kept positions at[r] - 1 and at[r]),
			   ascending */
	uint32_t *skip; /* nruns + 1: the positions of from in runs [0, r) */
	int64_t *gone;  /* nruns + 1: the sum of their durations */
	uint32_t *brun; /* nblocks + 1: the runs r with at[r] <= b *
			   SV_LOD_BLOCK, where a search for position i of
			   block b starts */
	size_t bytes;   /* what the runs allocated */
};

/* The calls of one lane at one depth, in start order, with their
 * starts and the prefix sums of their durations, packed.  What the
 * starts and the sums give is not stored again: a call's duration is the
 * difference of two sums, and the running maximum of the ends is the
 * call's own end, unless a sum saturated (then dur is kept) or calls of
 * the level overlap (then maxend is kept).  Read them with
 * sv_lod_start(), sv_lod_cumdur(), sv_lod_dur() and sv_lod_maxend(). */
struct sv_lod_level {
	uint32_t n;
	/* The call numbers, n: calls while the level is built, then packed
	 * (packed.h: neighbours in a level are mostly neighbours in their
	 * row, a few bits apart) with calls NULL.  Read with
	 * sv_lod_call(). */
	uint32_t *calls;
	struct sv_packed callpk;
	/* The starts and the prefix sums of durations, packed (packed.h:
	 * a block's values lie within a few milliseconds, some 20 bits a
	 * value above its smallest): startpk, n values, the start_ns of
	 * each call; sumpk, n + 1, the sum of the durations of calls[0 ..
	 * i), saturated (how busy a range is, in O(1)).  While the level is
	 * built they are in start and cumdur (scratch, NULL after). */
	int64_t *start;
	struct sv_packed startpk;
	int64_t *cumdur;
	struct sv_packed sumpk;
	int64_t *maxend;  /* NULL, or n: max over j <= i of
			     max(end, start + 1) */
	int64_t *dur;     /* NULL, or n: duration of calls[i] */
	uint8_t *pre;     /* n: the longest call of positions [block start,
			     i], as an offset in i's block (ties: the
			     earliest) */
	uint8_t *suf;     /* n (in pre's allocation): the same for
			     [i, block end) */
	uint32_t nblocks; /* ceil(n / SV_LOD_BLOCK) */
	/* The longest call of whole blocks, a byte a block in each of
	 * SV_LOD_BT tables (bt[t * nblocks + b], read with sv_lod_bt()):
	 * SV_LOD_BT_BEST, its offset in block b; SV_LOD_BT_SPAN + k - 1
	 * (k = 1 .. 4), the offset from b of the block that holds the
	 * longest of blocks [b, b + 2^k); SV_LOD_BT_PRE and SV_LOD_BT_SUF,
	 * the offset in b's superblock (SV_LOD_SUPER blocks) of the block
	 * that holds the longest of the superblock's blocks up to b and
	 * from b on. */
	uint8_t *bt;
	/* A sparse table over superblocks: super[k * nsuper + s], the
	 * position of the longest call of superblocks [s, s + 2^k), for k <
	 * nslog (NULL when there is none).  Whole blocks within a span of
	 * 32 take two table entries, longer ones four: the longest call of
	 * any range is O(1), at about 0.3 bytes a call. */
	uint32_t *super;
	uint32_t nsuper, nslog;
	/* Its calls' regions, or NULL (not asked for, or a level of a
	 * filter's index). */
	struct sv_lod_regions *rg;
	/* A filter's level read through another (calls, start, cumdur,
	 * maxend and dur all NULL then), or NULL. */
	struct sv_lod_over *over;
	/* The arrays are another index's (a level kept whole by
	 * sv_lod_select_begin): this level reads them and does not free
	 * them, and must not outlive that index. */
	bool borrowed;
};
#define SV_LOD_BLOCK 32

/* Position i of group k of rg (i < off[k + 1] - off[k]). */
static inline uint32_t sv_lod_group_pos(
	const struct sv_lod_regions *rg, uint32_t k, uint32_t i)
{
	return rg->pos.n ? (uint32_t)sv_packed_get(&rg->pos, rg->off[k] + i)
			 : i;
}
/* The tables of sv_lod_level.bt, and the blocks of a superblock. */
enum {
	SV_LOD_BT_BEST,
	SV_LOD_BT_SPAN, /* k = 1 .. 4: SV_LOD_BT_SPAN + k - 1 */
	SV_LOD_BT_PRE = SV_LOD_BT_SPAN + 4,
	SV_LOD_BT_SUF,
	SV_LOD_BT
};
#define SV_LOD_SUPER 32

/* Table t of lv's longest calls of whole blocks, for block b. */
static inline uint8_t sv_lod_bt(
	const struct sv_lod_level *lv, unsigned t, uint32_t b)
{
	return lv->bt[(size_t)t * lv->nblocks + b];
}

/* The runs of lv->over before kept position i of lv. */
static inline uint32_t sv_lod_over_run(const struct sv_lod_over *o, uint32_t i)
{
	uint32_t r = o->brun[i / SV_LOD_BLOCK];
	while (r < o->nruns && o->at[r] <= i)
		r++;
	return r;
}
/* The position in lv->over->from of kept position i. */
static inline uint32_t sv_lod_over_pos(const struct sv_lod_over *o, uint32_t i)
{
	return i + o->skip[sv_lod_over_run(o, i)];
}

/* The accessors of a level that holds its arrays (not an overlay). */
static inline uint32_t sv_lod_call_own(
	const struct sv_lod_level *lv, uint32_t i)
{
	return lv->calls ? lv->calls[i]
			 : (uint32_t)sv_packed_get(&lv->callpk, i);
}
static inline int64_t sv_lod_start_own(
	const struct sv_lod_level *lv, uint32_t i)
{
	return lv->start ? lv->start[i] : sv_packed_get(&lv->startpk, i);
}
static inline int64_t sv_lod_cumdur_own(
	const struct sv_lod_level *lv, uint32_t i)
{
	return lv->cumdur ? lv->cumdur[i] : sv_packed_get(&lv->sumpk, i);
}
static inline int64_t sv_lod_dur_own(const struct sv_lod_level *lv, uint32_t i)
{
	if (lv->dur)
		return lv->dur[i];
	if (lv->cumdur)
		return lv->cumdur[i + 1] - lv->cumdur[i];
	return sv_packed_step(&lv->sumpk, i);
}

/* The call at position i of lv. */
static inline uint32_t sv_lod_call(const struct sv_lod_level *lv, uint32_t i)
{
	if (lv->over)
		return sv_lod_call_own(
			lv->over->from, sv_lod_over_pos(lv->over, i));
	return sv_lod_call_own(lv, i);
}
/* The start of the call at position i of lv. */
static inline int64_t sv_lod_start(const struct sv_lod_level *lv, uint32_t i)
{
	if (lv->over)
		return sv_lod_start_own(
			lv->over->from, sv_lod_over_pos(lv->over, i));
	return sv_lod_start_own(lv, i);
}
/* The sum of the durations of the calls before position i of lv (i <=
 * lv->n). */
static inline int64_t sv_lod_cumdur(const struct sv_lod_level *lv, uint32_t i)
{
	if (lv->over) {
		const struct sv_lod_over *o = lv->over;
		uint32_t r = sv_lod_over_run(o, i);
		return sv_lod_cumdur_own(o->from, i + o->skip[r]) - o->gone[r];
	}
	return sv_lod_cumdur_own(lv, i);
}
/* The duration of the call at position i of lv. */
static inline int64_t sv_lod_dur(const struct sv_lod_level *lv, uint32_t i)
{
	if (lv->over)
		return sv_lod_dur_own(
			lv->over->from, sv_lod_over_pos(lv->over, i));
	return sv_lod_dur_own(lv, i);
}
/* max over j <= i of max(end, start + 1) of the calls of lv. */
static inline int64_t sv_lod_maxend(const struct sv_lod_level *lv, uint32_t i)
{
	int64_t s, d;
	if (lv->maxend)
		return lv->maxend[i];
	s = sv_lod_start(lv, i);
	d = sv_lod_dur(lv, i);
	return sv_covered_end(s, d > 0 ? s + d : s);
}

struct sv_lod_lane {
	uint32_t ndepth; /* levels (deepest depth + 1 among indexed calls) */
	struct sv_lod_level *levels;
};

struct sv_lod_index {
	const struct sv_profile *p; /* borrowed */
	struct sv_lod_lane *lanes;  /* p->nlanes */
	size_t nlanes;
	uint64_t ncalls; /* calls indexed */
	size_t bytes;    /* what the index allocated */
	uint64_t serial; /* unique to each build: what a caller keeps of
			    it (the ui's struct sv_row_spans) is keyed on
			    it */
};

/*
 * Build the index of every lane of p.  keep_region (p->nregions flags, or
 * NULL for all) leaves out the calls of other regions: the filter is an
 * index of its own, so hidden calls are never counted in a range.  Replaces
 * whatever ix held.  O(calls) time, about 16 bytes per call.  Returns 0;
 * -EINVAL with err for a NULL profile.
 */
int sv_lod_index_build(struct sv_lod_index *ix, const struct sv_profile *p,
	const bool *keep_region, struct sv_error *err);
/* The same with a flag per call (p->ncalls flags): only flagged calls
 * are indexed (the search's matches by event metadata, callmeta.h). */
int sv_lod_index_build_calls(struct sv_lod_index *ix,
	const struct sv_profile *p, const bool *keep_call,
	struct sv_error *err);
void sv_lod_index_fini(struct sv_lod_index *ix);
/* Stopping a build on another thread: it looks at *cancel before each
 * lane and every 65,536 calls of a lane (and fails with -ECANCELED, ix
 * empty, once set) and adds each lane's call count to *progress.  Either
 * may be NULL. */
struct sv_lod_stop {
	const atomic_bool *cancel;
	_Atomic uint64_t *progress;
};
/* sv_lod_index_build (keep_call NULL) or sv_lod_index_build_calls
 * (keep_call set), stoppable. */
int sv_lod_index_build_stop(struct sv_lod_index *ix, const struct sv_profile *p,
	const bool *keep_region, const bool *keep_call,
	const struct sv_lod_stop *stop, struct sv_error *err);

/*
 * The same build shared by threads: sv_lod_build_begin on one thread
 * (0, or -EINVAL with err as above), then sv_lod_build_work on any
 * number of threads at once (each builds lanes until none is left), then
 * sv_lod_build_end once they all returned (0, or -ECANCELED with ix
 * empty when stop asked).  b and what it borrows outlive the build.
 */
struct sv_lod_build {
	struct sv_lod_index *ix;
	const struct sv_profile *p;
	const bool *keep_region, *keep_call;
	const struct sv_lod_stop *stop;
	/* Set after begin (false by default): each level also gets its
	 * regions (sv_lod_level.rg), about 1.5 bytes a call more. */
	bool regions;
	/* The index a selection is made from (sv_lod_select_begin), or
	 * NULL: made from the profile. */
	const struct sv_lod_index *from;
	atomic_size_t next;      /* the next lane to take */
	_Atomic uint64_t ncalls; /* the workers' sums */
	atomic_size_t bytes;
	atomic_bool stopped;
};
int sv_lod_build_begin(struct sv_lod_build *b, struct sv_lod_index *ix,
	const struct sv_profile *p, const bool *keep_region,
	const bool *keep_call, const struct sv_lod_stop *stop,
	struct sv_error *err);
void sv_lod_build_work(struct sv_lod_build *b);
int sv_lod_build_end(struct sv_lod_build *b, struct sv_error *err);
/* Work at b on nthreads threads at once (this one and nthreads - 1 more;
 * fewer when no thread can be made), returning when every lane is done. */
void sv_lod_build_run(struct sv_lod_build *b, int nthreads);

/*
 * The index of the calls of the regions keep_region flags (p->nregions
 * flags; NULL: every call) made from from, an index of every call with
 * its regions (regions set when it was built): the same index
 * sv_lod_index_build(ix, from->p, keep_region) makes, in time and
 * memory for the calls kept only.  A level whose calls are all kept is
 * borrowed from from, not copied (with keep_region NULL, every level: an
 * index of the same calls in O(lanes + levels)), and one that keeps all
 * but a few runs of calls is read through from's (struct sv_lod_over),
 * so ix must be finished before from.  A lane of from without regions is
 * made from the profile.
 * Then sv_lod_build_work and sv_lod_build_end as for a build.
 */
int sv_lod_select_begin(struct sv_lod_build *b, struct sv_lod_index *ix,
	const struct sv_lod_index *from, const bool *keep_region,
	const struct sv_lod_stop *stop, struct sv_error *err);
/* sv_lod_select_begin, then the work on nthreads threads, then the
 * end: 0, or -ECANCELED (ix empty) when stop asked. */
int sv_lod_index_select(struct sv_lod_index *ix,
	const struct sv_lod_index *from, const bool *keep_region,
	const struct sv_lod_stop *stop, int nthreads, struct sv_error *err);

/* The level of (lane, depth), or NULL when there is none. */
const struct sv_lod_level *sv_lod_index_level(
	const struct sv_lod_index *ix, size_t lane, uint32_t depth);

/* Positions [*lo, *hi) of the calls of lv that may meet [t0, t1) (exact
 * when the calls of the level do not overlap each other, as in a properly
 * nested lane). */
void sv_lod_range(const struct sv_lod_level *lv, int64_t t0, int64_t t1,
	uint32_t *lo, uint32_t *hi);
/* Position of the longest call among positions [lo, hi) (hi > lo; ties:
 * the earliest). */
uint32_t sv_lod_longest(const struct sv_lod_index *ix,
	const struct sv_lod_level *lv, uint32_t lo, uint32_t hi);

/* The nanoseconds of [t0, t1) that the calls at positions [lo, hi) of lv
 * cover, each clipped to the range (exact for calls that do not overlap
 * each other, as in a nested lane).  O(1). */
int64_t sv_lod_busy(const struct sv_lod_level *lv, int64_t t0, int64_t t1,
	uint32_t lo, uint32_t hi);

/* The end the index gives a call (and the screen draws it to): its end,
 * or its start + 1 when it is not longer than that (saturated at
 * INT64_MAX), so a call of no length still meets the range it starts
 * in. */
int64_t sv_lod_call_end(const struct sv_profile *p, uint32_t c);

/* ---- ranges left to right ----------------------------------------------- */

/*
 * A cursor over one level for time ranges that come left to right
 * (neither t0 nor t1 ever below the last range's): sv_lod_cursor_range
 * gives the positions sv_lod_range gives, but each search starts where
 * the last range's ended (a gallop from the cursor, at the position the
 * last range's count of calls predicts), so a range costs O(log of how
 * far the prediction was off), not O(log calls in the level).
 */
struct sv_lod_cursor {
	const struct sv_lod_level *lv; /* NULL: no calls */
	uint32_t lo, hi; /* the last range's positions (sv_lod_range) */
	uint32_t step;   /* how many calls began in the last range */
};
void sv_lod_cursor_init(struct sv_lod_cursor *c, const struct sv_lod_level *lv);
/* Positions [*lo, *hi) of the calls of c->lv that may meet [t0, t1), as
 * sv_lod_range; both 0 (and the cursor unmoved) for an empty level or
 * range. */
void sv_lod_cursor_range(struct sv_lod_cursor *c, int64_t t0, int64_t t1,
	uint32_t *lo, uint32_t *hi);

/* ---- navigation between calls ------------------------------------------- */

/* Next / previous call of the same lane in start order (dir > 0 / < 0),
 * or SV_NO_CALL.  O(log n). */
uint32_t sv_lod_lane_step(const struct sv_profile *p, uint32_t call, int dir);
/* Position of call in its level of the index, or UINT32_MAX when the call
 * is not indexed (filtered out): a binary search of the level in its
 * lane's order (sv_profile_lane_order), O(log n). */
uint32_t sv_lod_level_pos(const struct sv_lod_index *ix, uint32_t call);
/* First (earliest) indexed child of call, or SV_NO_CALL.  O(log n). */
uint32_t sv_lod_first_child(const struct sv_lod_index *ix, uint32_t call);
/* Longest indexed child of call (ties: the earliest), or SV_NO_CALL: a
 * range-maximum query, O(log n). */
uint32_t sv_lod_longest_child(const struct sv_lod_index *ix, uint32_t call);
/* Next / previous indexed call with the same parent and lane (dir > 0 /
 * < 0), or SV_NO_CALL. */
uint32_t sv_lod_sibling(const struct sv_lod_index *ix, uint32_t call, int dir);

#endif
