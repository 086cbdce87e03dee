/*
 * layout_build.c: the level-of-detail index of layout.h made from a
 * profile: each lane's calls split by depth into levels in the lane's
 * start order, each level's starts, sums of durations and longest calls
 * per block (the prefix and suffix offsets and the sparse table over
 * blocks), packed as they are finished.  Any number of threads may work
 * on one build (sv_layout_build_work), each taking the next lane with a
 * scratch of its own.  layout.c reads what is made here.
 */
#include "scopeview/layout.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- level-of-detail index ----------------------------------------------- */

/* The end of call c, whose start s the caller has at hand (the level's
 * own copy: the model's may be packed, slower to read). */
static int64_t lod_end(const struct sv_profile *p, uint32_t c, int64_t s)
{
	return sv_profile_has_dur(p) ? sv_add_wrap(s, sv_call_duration(p, c))
				     : p->end_ns[c];
}

/* Where a call [s, e) ends on the screen: at e, or, for a call of no
 * length (or one ending before it starts), one nanosecond after s. */
static int64_t lod_drawn_end(int64_t s, int64_t e)
{
	if (e > s)
		return e;
	return s == INT64_MAX ? s : s + 1;
}

int64_t sv_layout_call_end(const struct sv_profile *p, uint32_t c)
{
	int64_t s = sv_profile_start(p, c);
	return lod_drawn_end(s, lod_end(p, c, s));
}

/* The better (longer; ties: earlier) of positions a and b of a level
 * whose durations are dur[]. */
static uint32_t lod_better(const int64_t *dur, uint32_t a, uint32_t b)
{
	if (dur[b] > dur[a] || (dur[b] == dur[a] && b < a))
		return b;
	return a;
}

static void lod_level_fini(struct sv_lod_level *lv)
{
	/* The arrays of a level of millions of calls are tens of MB. */
	sv_free_big(lv->calls);
	sv_packed_fini(&lv->callpk);
	sv_free_big(lv->start);
	free(lv->sbase);
	sv_free_big(lv->soff);
	sv_free_big(lv->maxend);
	sv_free_big(lv->dur);
	sv_free_big(lv->cumdur);
	free(lv->cbase);
	sv_free_big(lv->coff);
	sv_free_big(lv->pre);
	sv_free_big(lv->sparse);
	memset(lv, 0, sizeof *lv);
}

/* The bytes of an array of n int64 values, packed (lod_pack) or not. */
static size_t lod_col_bytes(size_t n, bool packed)
{
	if (!packed)
		return n * sizeof(int64_t);
	return n * sizeof(uint32_t) +
	       (n + SV_LOD_BLOCK - 1) / SV_LOD_BLOCK * sizeof(int64_t);
}

/* The bytes the level holds. */
static size_t lod_level_bytes(const struct sv_lod_level *lv)
{
	size_t n = lv->n ? lv->n : 1;
	return lv->callpk.bytes + n * 2 + lod_col_bytes(n, !lv->start) +
	       lod_col_bytes(n + 1, !lv->cumdur) +
	       (lv->maxend ? n * sizeof *lv->maxend : 0) +
	       (lv->dur ? n * sizeof *lv->dur : 0) +
	       (size_t)lv->nlog * (lv->nblocks ? lv->nblocks : 1) *
		       sizeof *lv->sparse;
}

/* The durations and running maxima of the ends, kept only when the
 * starts and the sums of durations do not give them (a sum that
 * saturated; calls of the level that overlap).  The builder leaves each
 * call's end, as stored, in lv->maxend (read from the model once, with
 * the start); the sums go to cum (n + 1 values).  Both are the builder's
 * scratch, lv->maxend left pointing into it when kept. */
static void lod_level_ends(struct sv_lod_level *lv, int64_t *cum)
{
	uint32_t i;
	int64_t run = INT64_MIN, sum = 0, *ends = lv->maxend;
	bool exact = true;

	lv->maxend = NULL;
	lv->cumdur = cum;
	lv->cumdur[0] = 0;
	for (i = 0; i < lv->n; i++) {
		int64_t d = sv_sub_sat(ends[i], lv->start[i]), next;
		if (__builtin_add_overflow(sum, d, &next)) {
			next = sv_add_sat(sum, d);
			exact = false;
		}
		lv->cumdur[i + 1] = sum = next;
	}
	if (!exact) {
		lv->dur = sv_xmalloc((lv->n ? lv->n : 1) * sizeof *lv->dur);
		for (i = 0; i < lv->n; i++)
			lv->dur[i] = sv_sub_sat(ends[i], lv->start[i]);
	}
	exact = true;
	for (i = 0; i < lv->n && exact; i++) {
		int64_t s = lv->start[i], e = lod_drawn_end(s, ends[i]),
			d = sv_lod_dur(lv, i), own;
		if (e > run)
			run = e;
		if (d > 0)
			exact = !__builtin_add_overflow(s, d, &own) &&
				own == run;
		else
			exact = (s == INT64_MAX ? s : s + 1) == run;
	}
	if (exact)
		return;
	run = INT64_MIN;
	for (i = 0; i < lv->n; i++) {
		int64_t e = lod_drawn_end(lv->start[i], ends[i]);
		if (e > run)
			run = e;
		ends[i] = run;
	}
	lv->maxend = ends;
}

/* v[0 .. n) as offsets above the smallest value of each block of
 * SV_LOD_BLOCK, when every block's values lie less than 2^32 above it:
 * *base (one a block) and *off (n) set, *v NULL (it was scratch), true;
 * else false and nothing changed. */
static bool lod_pack(int64_t **v, size_t n, int64_t **base, uint32_t **off)
{
	size_t nb = (n + SV_LOD_BLOCK - 1) / SV_LOD_BLOCK, b, i;
	int64_t *mins;

	if (!n)
		return false;
	mins = sv_xmalloc(nb * sizeof *mins);
	for (b = 0; b < nb; b++) {
		size_t lo = b * SV_LOD_BLOCK, hi = lo + SV_LOD_BLOCK;
		int64_t mn = (*v)[lo], mx = mn, d;
		if (hi > n)
			hi = n;
		for (i = lo + 1; i < hi; i++) {
			mn = (*v)[i] < mn ? (*v)[i] : mn;
			mx = (*v)[i] > mx ? (*v)[i] : mx;
		}
		if (__builtin_sub_overflow(mx, mn, &d) ||
			d > (int64_t)UINT32_MAX) {
			free(mins);
			return false;
		}
		mins[b] = mn;
	}
	*off = sv_xmalloc(n * sizeof **off);
	for (i = 0; i < n; i++)
		(*off)[i] = (uint32_t)((*v)[i] - mins[i / SV_LOD_BLOCK]);
	*base = mins;
	*v = NULL;
	return true;
}

/* A copy of the n values of scratch v that a level keeps (NULL stays). */
static void *lod_keep(const void *v, size_t n, size_t size)
{
	void *own;

	if (!v)
		return NULL;
	own = sv_xmalloc((n ? n : 1) * size);
	memcpy(own, v, n * size);
	return own;
}

/* The ends, the longest call of each block's prefixes and suffixes and
 * the sparse table of a level whose calls and starts are set (in the
 * builder's scratch, as are its ends and cum, n + 1 values); then the
 * starts, the sums and the calls packed, and what is not packed copied
 * out of the scratch. */
static void lod_level_finish(struct sv_lod_level *lv, int64_t *cum)
{
	int64_t *ends = lv->maxend, *dur;
	uint32_t i, nb, k;

	lod_level_ends(lv, cum);
	/* Each call's duration, for the longest calls below: the level's own
	 * when kept, else in the scratch of the ends when they are not. */
	dur = lv->dur      ? lv->dur
	      : lv->maxend ? sv_xmalloc((lv->n ? lv->n : 1) * sizeof *dur)
			   : ends;
	if (!lv->dur)
		for (i = 0; i < lv->n; i++)
			dur[i] = cum[i + 1] - cum[i];
	nb = (lv->n + SV_LOD_BLOCK - 1) / SV_LOD_BLOCK;
	lv->nblocks = nb;
	lv->nlog = 1;
	while (nb && (1u << lv->nlog) <= nb)
		lv->nlog++;
	lv->sparse = sv_xmalloc(
		(size_t)lv->nlog * (nb ? nb : 1) * sizeof *lv->sparse);
	lv->pre = sv_xmalloc(2 * (size_t)(lv->n ? lv->n : 1));
	lv->suf = lv->pre + lv->n;
	for (i = 0; i < nb; i++) {
		uint32_t lo = i * SV_LOD_BLOCK, hi = lo + SV_LOD_BLOCK, j,
			 best = lo;
		if (hi > lv->n)
			hi = lv->n;
		int64_t bd = dur[lo];
		/* lod_better, with the best so far kept at hand: forwards a
		 * tie keeps the earlier, backwards it takes the new one. */
		for (j = lo; j < hi; j++) {
			if (dur[j] > bd) {
				best = j;
				bd = dur[j];
			}
			lv->pre[j] = (uint8_t)(best - lo);
		}
		lv->sparse[i] = best;
		for (j = hi, best = hi - 1, bd = dur[best]; j-- > lo;) {
			if (dur[j] >= bd) {
				best = j;
				bd = dur[j];
			}
			lv->suf[j] = (uint8_t)(best - lo);
		}
	}
	for (k = 1; k < lv->nlog; k++) {
		uint32_t half = 1u << (k - 1);
		uint32_t *prev = lv->sparse + (size_t)(k - 1) * nb;
		uint32_t *cur = lv->sparse + (size_t)k * nb;
		for (i = 0; i + (1u << k) <= nb; i++)
			cur[i] = lod_better(dur, prev[i], prev[i + half]);
	}
	if (dur != lv->dur && dur != ends)
		free(dur);
	lod_pack(&lv->start, lv->n, &lv->sbase, &lv->soff);
	lod_pack(&lv->cumdur, (size_t)lv->n + 1, &lv->cbase, &lv->coff);
	lv->start = lod_keep(lv->start, lv->n, sizeof *lv->start);
	lv->cumdur =
		lod_keep(lv->cumdur, (size_t)lv->n + 1, sizeof *lv->cumdur);
	lv->maxend = lod_keep(lv->maxend, lv->n, sizeof *lv->maxend);
	sv_packed_build_u32(&lv->callpk, lv->calls, lv->n, NULL);
	lv->calls = NULL;
}

void sv_layout_index_fini(struct sv_layout_index *ix)
{
	size_t l;
	uint32_t d;

	if (!ix)
		return;
	for (l = 0; l < ix->nlanes; l++) {
		for (d = 0; d < ix->lanes[l].ndepth; d++)
			lod_level_fini(&ix->lanes[l].levels[d]);
		free(ix->lanes[l].levels);
	}
	free(ix->lanes);
	memset(ix, 0, sizeof *ix);
}

/* Whether call c goes into the index: by its own flag when there are
 * per-call flags, else by its region's. */
static bool lod_kept(const struct sv_profile *p, const bool *keep_region,
	const bool *keep_call, uint32_t c)
{
	return keep_call ? keep_call[c]
			 : !keep_region || keep_region[sv_call_region(p, c)];
}

/* The serial of the last index built (on any thread). */
static _Atomic uint64_t lod_serial;

/* Asked to stop? (every 2^16 calls of a lane's passes, not per lane) */
static bool lod_stopped(const struct sv_layout_stop *stop, uint32_t i)
{
	return !(i & 0xffff) && stop && stop->cancel &&
	       atomic_load(stop->cancel);
}

/* A worker's scratch, grown to its largest lane and used for each: the
 * depth of each call, the calls of each depth, and each level's starts,
 * ends and sums until they are packed (so the memory is touched once a
 * worker, not once a lane). */
struct lod_scratch {
	uint32_t *count, *dep, *calls;
	int64_t *start, *ends, *cum;
	size_t count_cap, dep_cap, cap;
};

/* The levels' part of the scratch, let go of. */
static void lod_scratch_drop(struct lod_scratch *sc)
{
	sv_free_big(sc->calls);
	sv_free_big(sc->start);
	sv_free_big(sc->ends);
	sv_free_big(sc->cum);
}

static void lod_scratch_fit(struct lod_scratch *sc, size_t n, uint32_t ndepth)
{
	if (n + ndepth + 1 <= sc->cap)
		return;
	lod_scratch_drop(sc);
	sc->cap = n + ndepth + 1;
	sc->calls = sv_xmalloc(sc->cap * sizeof *sc->calls);
	sc->start = sv_xmalloc(sc->cap * sizeof *sc->start);
	sc->ends = sv_xmalloc(sc->cap * sizeof *sc->ends);
	sc->cum = sv_xmalloc(sc->cap * sizeof *sc->cum);
}

static void lod_scratch_fini(struct lod_scratch *sc)
{
	free(sc->count);
	sv_free_big(sc->dep);
	lod_scratch_drop(sc);
}

/* Levels from d on of a lane stopped half-way let go of the scratch. */
static void lod_lane_unscratch(struct sv_lod_lane *ll, uint32_t d)
{
	for (; d < ll->ndepth; d++) {
		ll->levels[d].calls = NULL;
		ll->levels[d].start = ll->levels[d].maxend = NULL;
		ll->levels[d].cumdur = NULL;
	}
}

/* A lane's calls read in order, a block at a time when packed. */
struct lod_calls {
	const struct sv_lane *lane;
	size_t lo, n;
	int64_t buf[256];
};

static inline uint32_t lod_call_at(struct lod_calls *k, size_t i)
{
	if (k->lane->calls)
		return k->lane->calls[i];
	if (i - k->lo >= k->n) {
		k->lo = i;
		k->n = k->lane->ncalls - i < 256 ? k->lane->ncalls - i : 256;
		sv_packed_get_range(&k->lane->callpk, i, k->n, k->buf);
	}
	return (uint32_t)k->buf[i - k->lo];
}

/* Lane l of b's index; false when asked to stop.  The lane's calls and
 * bytes are added to *ncalls and *bytes. */
static bool lod_lane_build(const struct sv_layout_build *b, size_t l,
	struct lod_scratch *sc, uint64_t *ncalls, size_t *bytes)
{
	const struct sv_profile *p = b->p;
	const struct sv_layout_stop *stop = b->stop;
	const struct sv_lane *lane = &p->lanes[l];
	struct sv_lod_lane *ll = &b->ix->lanes[l];
	struct lod_calls k = {lane, 0, 0, {0}};
	uint32_t i, d, ndepth = 0;
	size_t at = 0;

	if (lod_stopped(stop, 0))
		return false;
	if (stop && stop->progress)
		atomic_fetch_add(stop->progress, lane->ncalls);

	/* Each call's depth (UINT32_MAX: left out), read once: the model's
	 * columns may be packed, and these reads go all over them. */
	sv_grow((void **)&sc->dep, &sc->dep_cap, lane->ncalls, sizeof *sc->dep);
	for (i = 0; i < lane->ncalls; i++) {
		uint32_t c = lod_call_at(&k, i), dc;
		if (lod_stopped(stop, i))
			return false;
		sc->dep[i] = UINT32_MAX;
		if (!lod_kept(p, b->keep_region, b->keep_call, c))
			continue;
		sc->dep[i] = dc = sv_profile_depth(p, c);
		if (dc + 1 > ndepth) {
			sv_grow((void **)&sc->count, &sc->count_cap, dc + 1,
				sizeof *sc->count);
			memset(sc->count + ndepth, 0,
				(dc + 1 - ndepth) * sizeof *sc->count);
			ndepth = dc + 1;
		}
		sc->count[dc]++;
	}
	ll->ndepth = ndepth;
	if (!ndepth)
		return true;
	lod_scratch_fit(sc, lane->ncalls, ndepth);
	ll->levels = sv_xcalloc(ndepth, sizeof *ll->levels);
	for (d = 0; d < ndepth; d++) {
		struct sv_lod_level *lv = &ll->levels[d];
		lv->calls = sc->calls + at;
		lv->start = sc->start + at;
		lv->maxend = sc->ends + at;
		at += sc->count[d];
	}
	k.n = 0;
	for (i = 0; i < lane->ncalls; i++) {
		uint32_t c = lod_call_at(&k, i);
		struct sv_lod_level *lv;
		int64_t s;
		if (lod_stopped(stop, i)) {
			lod_lane_unscratch(ll, 0);
			return false;
		}
		if (sc->dep[i] == UINT32_MAX)
			continue;
		lv = &ll->levels[sc->dep[i]];
		s = sv_profile_start(p, c);
		lv->start[lv->n] = s;
		lv->maxend[lv->n] = lod_end(p, c, s);
		lv->calls[lv->n++] = c;
	}
	for (d = 0, at = 0; d < ndepth; d++) {
		struct sv_lod_level *lv = &ll->levels[d];
		if (lod_stopped(stop, 0)) {
			lod_lane_unscratch(ll, d);
			return false;
		}
		lod_level_finish(lv, sc->cum + at + d);
		at += lv->n;
		*ncalls += lv->n;
		*bytes += lod_level_bytes(lv);
	}
	*bytes += ndepth * sizeof *ll->levels;
	return true;
}

int sv_layout_build_begin(struct sv_layout_build *b, struct sv_layout_index *ix,
	const struct sv_profile *p, const bool *keep_region,
	const bool *keep_call, const struct sv_layout_stop *stop,
	struct sv_error *err)
{
	memset(b, 0, sizeof *b);
	if (!ix)
		return sv_error_set(err, -EINVAL, "layout: no index");
	sv_layout_index_fini(ix);
	if (!p)
		return sv_error_set(err, -EINVAL, "layout: no profile");
	b->ix = ix;
	b->p = p;
	b->keep_region = keep_region;
	b->keep_call = keep_call;
	b->stop = stop;
	atomic_init(&b->next, 0);
	atomic_init(&b->ncalls, 0);
	atomic_init(&b->bytes, 0);
	atomic_init(&b->stopped, false);
	ix->p = p;
	ix->serial = atomic_fetch_add(&lod_serial, 1) + 1;
	ix->nlanes = p->has_calls ? p->nlanes : 0;
	ix->lanes = sv_xcalloc(ix->nlanes ? ix->nlanes : 1, sizeof *ix->lanes);
	ix->bytes = ix->nlanes * sizeof *ix->lanes;
	return 0;
}

void sv_layout_build_work(struct sv_layout_build *b)
{
	struct lod_scratch sc;
	size_t bytes = 0, l;
	uint64_t ncalls = 0;

	if (!b->ix)
		return;
	memset(&sc, 0, sizeof sc);
	while (!atomic_load(&b->stopped) &&
		(l = atomic_fetch_add(&b->next, 1)) < b->ix->nlanes)
		if (!lod_lane_build(b, l, &sc, &ncalls, &bytes))
			atomic_store(&b->stopped, true);
	atomic_fetch_add(&b->ncalls, ncalls);
	atomic_fetch_add(&b->bytes, bytes);
	lod_scratch_fini(&sc);
}

int sv_layout_build_end(struct sv_layout_build *b, struct sv_error *err)
{
	if (!b->ix)
		return -EINVAL;
	if (atomic_load(&b->stopped)) {
		sv_layout_index_fini(b->ix);
		return sv_error_set(err, -ECANCELED, "layout: stopped");
	}
	b->ix->ncalls = atomic_load(&b->ncalls);
	b->ix->bytes += atomic_load(&b->bytes);
	return 0;
}

int sv_layout_index_build_stop(struct sv_layout_index *ix,
	const struct sv_profile *p, const bool *keep_region,
	const bool *keep_call, const struct sv_layout_stop *stop,
	struct sv_error *err)
{
	struct sv_layout_build b;
	int rc = sv_layout_build_begin(
		&b, ix, p, keep_region, keep_call, stop, err);

	if (rc < 0)
		return rc;
	sv_layout_build_work(&b);
	return sv_layout_build_end(&b, err);
}

int sv_layout_index_build(struct sv_layout_index *ix,
	const struct sv_profile *p, const bool *keep_region,
	struct sv_error *err)
{
	return sv_layout_index_build_stop(ix, p, keep_region, NULL, NULL, err);
}

int sv_layout_index_build_calls(struct sv_layout_index *ix,
	const struct sv_profile *p, const bool *keep_call, struct sv_error *err)
{
	return sv_layout_index_build_stop(ix, p, NULL, keep_call, NULL, err);
}
