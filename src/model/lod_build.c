/*
 * lod_build.c: the level-of-detail index of lod.h made from a
 * profile: each lane's calls split by depth into levels in the lane's
 * start order, each level's starts, sums of durations and longest calls
 * per block (the prefix and suffix offsets, the tables of spans of
 * blocks and the sparse table over superblocks), packed as they are
 * finished.  Any number of threads may work on one build
 * (sv_lod_build_work), each taking the next lane with a scratch of its
 * own.  lod_query.c, lod_cursor.c and lod_nav.c read what
 * is made here.  Nothing here knows about columns or screens.
 */
#include "scopeview/lod.h"

#include "lod_priv.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- level-of-detail index ----------------------------------------------- */

/* The end of call c, whose start s the caller has at hand (the level's
 * own copy: the model's may be packed, slower to read). */
int64_t sv_lod_end(const struct sv_profile *p, uint32_t c, int64_t s)
{
	return sv_profile_has_dur(p) ? sv_add_wrap(s, sv_call_duration(p, c))
				     : p->end_ns[c];
}

int64_t sv_lod_call_end(const struct sv_profile *p, uint32_t c)
{
	int64_t s = sv_profile_start(p, c);
	return sv_covered_end(s, sv_lod_end(p, c, s));
}

/* The durations the tables over whole blocks compare: dur[i] of every
 * position, or (dur NULL) best[b], that of block b's longest call (the
 * only positions they compare), or (both NULL) what the level's
 * finished sums give. */
struct lod_durs {
	const int64_t *dur, *best;
};

/* The duration of position i of lv, from d. */
static inline int64_t lod_dur_at(
	const struct sv_lod_level *lv, const struct lod_durs *d, uint32_t i)
{
	return d->dur    ? d->dur[i]
	       : d->best ? d->best[i / SV_LOD_BLOCK]
			 : sv_lod_dur_own(lv, i);
}

/* The better (longer; ties: earlier) of positions a and b of lv, whose
 * durations d gives. */
static uint32_t lod_better(const struct sv_lod_level *lv,
	const struct lod_durs *dur, uint32_t a, uint32_t b)
{
	int64_t da = lod_dur_at(lv, dur, a), db = lod_dur_at(lv, dur, b);
	if (db > da || (db == da && b < a))
		return b;
	return a;
}

static void lod_level_fini(struct sv_lod_level *lv)
{
	if (lv->borrowed) {
		memset(lv, 0, sizeof *lv);
		return;
	}
	/* The arrays of a level of millions of calls are tens of MB. */
	sv_lod_regions_free(lv->rg);
	if (lv->over)
		sv_lod_over_free(lv->over);
	sv_free_big(lv->calls);
	sv_packed_fini(&lv->callpk);
	sv_packed_fini(&lv->startpk);
	sv_packed_fini(&lv->sumpk);
	sv_free_big(lv->maxend);
	sv_free_big(lv->dur);
	sv_free_big(lv->pre);
	sv_free_big(lv->bt);
	sv_free_big(lv->super);
	memset(lv, 0, sizeof *lv);
}

size_t sv_lod_level_bytes(const struct sv_lod_level *lv)
{
	size_t n = lv->n ? lv->n : 1, nb = lv->nblocks ? lv->nblocks : 1;
	size_t longest = n * 2 + SV_LOD_BT * nb +
			 (size_t)lv->nslog * lv->nsuper * sizeof *lv->super;
	if (lv->borrowed)
		return 0;
	if (lv->over)
		return longest + lv->over->bytes;
	return (lv->rg ? lv->rg->bytes : 0) + lv->callpk.bytes + longest +
	       lv->startpk.bytes + lv->sumpk.bytes +
	       (lv->maxend ? n * sizeof *lv->maxend : 0) +
	       (lv->dur ? n * sizeof *lv->dur : 0);
}

/* Room for lv's longest-call tables (the prefixes' and suffixes'
 * offsets, the blocks' tables and the superblocks' sparse table) for its
 * n calls; sets nblocks, nsuper and nslog. */
static void lod_longest_alloc(struct sv_lod_level *lv)
{
	uint32_t n = lv->n, nb = (n + SV_LOD_BLOCK - 1) / SV_LOD_BLOCK;

	lv->nblocks = nb;
	lv->nsuper = (nb + SV_LOD_SUPER - 1) / SV_LOD_SUPER;
	lv->nslog = lv->nsuper ? 1 : 0;
	while (lv->nsuper && (1u << lv->nslog) <= lv->nsuper)
		lv->nslog++;
	lv->bt = sv_xmalloc((size_t)SV_LOD_BT * (nb ? nb : 1));
	lv->super = lv->nslog ? sv_xmalloc((size_t)lv->nslog * lv->nsuper *
					   sizeof *lv->super)
			      : NULL;
	lv->pre = sv_xmalloc(2 * (size_t)(n ? n : 1));
	lv->suf = lv->pre + n;
}

/* The longest call of each prefix and suffix of block b (positions [lo,
 * hi), whose durations are d[0 .. hi - lo)) and of the whole block.
 * Forwards a tie keeps the earlier, backwards it takes the new one. */
static void lod_block_longest(struct sv_lod_level *lv, const int64_t *d,
	uint32_t b, uint32_t lo, uint32_t hi)
{
	uint32_t i, best = 0, m = hi - lo;
	int64_t bd = d[0];

	for (i = 0; i < m; i++) {
		if (d[i] > bd) {
			best = i;
			bd = d[i];
		}
		lv->pre[lo + i] = (uint8_t)best;
	}
	lv->bt[(size_t)SV_LOD_BT_BEST * lv->nblocks + b] = (uint8_t)best;
	for (i = m, best = m - 1, bd = d[best]; i-- > 0;) {
		if (d[i] >= bd) {
			best = i;
			bd = d[i];
		}
		lv->suf[lo + i] = (uint8_t)best;
	}
}

/* Of blocks a and b, the one that holds the better call (longer; ties:
 * earlier). */
static uint32_t lod_block_better(const struct sv_lod_level *lv,
	const struct lod_durs *dur, uint32_t a, uint32_t b)
{
	uint32_t x = sv_lod_block_best(lv, a);
	return lod_better(lv, dur, x, sv_lod_block_best(lv, b)) == x ? a : b;
}

/* The tables over whole blocks, from each block's longest call: the
 * spans of 2 to 16 blocks, each superblock's prefixes and suffixes, and
 * the sparse table over superblocks (durations from dur, or from the
 * level's own sums when dur is NULL).  An entry whose span passes the end
 * is never asked for: it takes what the blocks there give, so that every
 * entry is set. */
static void lod_blocks_make(struct sv_lod_level *lv, const struct lod_durs *dur)
{
	uint32_t nb = lv->nblocks, b, k, s;
	uint8_t *pre = lv->bt + (size_t)SV_LOD_BT_PRE * nb,
		*suf = lv->bt + (size_t)SV_LOD_BT_SUF * nb;

	for (k = 1; k <= 4; k++) {
		uint8_t *up = lv->bt + (size_t)(SV_LOD_BT_SPAN + k - 1) * nb;
		const uint8_t *below = up - nb;
		uint32_t half = 1u << (k - 1);
		for (b = 0; b < nb; b++) {
			uint32_t x = k > 1 ? below[b] : 0;
			if (b + half < nb)
				x = lod_block_better(lv, dur, b + x,
					    b + half +
						    (k > 1 ? below[b + half]
							   : 0)) -
				    b;
			up[b] = (uint8_t)x;
		}
	}
	for (s = 0; s < lv->nsuper; s++) {
		uint32_t lo = s * SV_LOD_SUPER,
			 hi = lo + SV_LOD_SUPER < nb ? lo + SV_LOD_SUPER : nb,
			 best = lo;
		for (b = lo; b < hi; b++) {
			best = lod_block_better(lv, dur, best, b);
			pre[b] = (uint8_t)(best - lo);
		}
		/* Backwards a tie takes the earlier block, as forwards. */
		for (b = hi, best = hi - 1; b-- > lo;) {
			best = lod_block_better(lv, dur, b, best);
			suf[b] = (uint8_t)(best - lo);
		}
		lv->super[s] = sv_lod_block_best(lv, lo + suf[lo]);
	}
	for (k = 1; k < lv->nslog; k++) {
		uint32_t half = 1u << (k - 1), *up = lv->super + k * lv->nsuper;
		const uint32_t *below = up - lv->nsuper;
		for (s = 0; s < lv->nsuper; s++)
			up[s] = s + half < lv->nsuper
					? lod_better(lv, dur, below[s],
						  below[s + half])
					: below[s];
	}
}

void sv_lod_level_longest(struct sv_lod_level *lv, const int64_t *dur)
{
	uint32_t b;

	struct lod_durs d = {dur, NULL};

	lod_longest_alloc(lv);
	for (b = 0; b < lv->nblocks; b++) {
		uint32_t lo = b * SV_LOD_BLOCK, hi = lo + SV_LOD_BLOCK;
		lod_block_longest(lv, dur + lo, b, lo, hi < lv->n ? hi : lv->n);
	}
	lod_blocks_make(lv, &d);
}

/* Starts [lo, hi) of a level being finished: its scratch's (start), or
 * read from its packed starts into buf (SV_LOD_BLOCK values). */
static const int64_t *lod_starts(const struct sv_lod_level *lv,
	const int64_t *start, uint32_t lo, uint32_t hi, int64_t *buf)
{
	if (start)
		return start + lo;
	sv_packed_get_range(&lv->startpk, lo, hi - lo, buf);
	return buf;
}

/*
 * Everything of a level whose stored ends are in the builder's scratch
 * (lv->maxend, n values) with its calls and starts (lv->calls, lv->start,
 * or, NULL, packed already: callpk, startpk), in one pass a block of
 * SV_LOD_BLOCK calls at a time while the block is in the cache: the
 * block's durations and sums of durations (packed as they come), the
 * longest call of each block's prefixes and suffixes and of the block,
 * and whether the ends are those the starts and durations give.  Then
 * what the sums or the ends do not give is kept (the durations when a
 * sum saturated, the running maxima of the ends when calls overlap: each
 * made again from the starts and ends), the tables over whole blocks are
 * made and the starts and calls packed when they are not.
 */
void sv_lod_level_finish(struct sv_lod_level *lv)
{
	const int64_t *start = lv->start, *st;
	int64_t *ends = lv->maxend, sum = 0, run = INT64_MIN;
	int64_t d[SV_LOD_BLOCK], buf[SV_LOD_BLOCK];
	uint32_t n = lv->n, i, b, nb;
	bool sums_exact = true, ends_exact = true;
	struct sv_packed_writer sw;
	int64_t *best;
	struct lod_durs bd;

	lod_longest_alloc(lv);
	nb = lv->nblocks;
	/* Each block's longest duration, for the tables over blocks. */
	best = sv_xmalloc((nb ? nb : 1) * sizeof *best);
	bd.dur = NULL;
	bd.best = best;
	lv->maxend = NULL;
	/* The sums packed as they come: no array of them. */
	sv_packed_writer_begin(&sw, &lv->sumpk, (uint64_t)n + 1);
	sv_packed_writer_put(&sw, 0);
	for (b = 0; b < nb; b++) {
		uint32_t lo = b * SV_LOD_BLOCK, hi = lo + SV_LOD_BLOCK;
		if (hi > n)
			hi = n;
		st = lod_starts(lv, start, lo, hi, buf);
		for (i = lo; i < hi; i++) {
			int64_t s = st[i - lo], e = ends[i],
				di = sv_sub_sat(e, s), next, own;
			if (__builtin_add_overflow(sum, di, &next)) {
				next = sv_add_sat(sum, di);
				sums_exact = false;
			}
			sum = next;
			sv_packed_writer_put(&sw, sum);
			d[i - lo] = di;
			/* The ends are the running maxima of the drawn ends
			 * when each call ends at or after those before it. */
			e = sv_covered_end(s, e);
			if (e > run)
				run = e;
			if (di > 0)
				ends_exact =
					ends_exact &&
					!__builtin_add_overflow(s, di, &own) &&
					own == run;
			else
				ends_exact = ends_exact &&
					     sv_covered_end(s, s) == run;
		}
		lod_block_longest(lv, d, b, lo, hi);
		best[b] = d[sv_lod_bt(lv, SV_LOD_BT_BEST, b)];
	}
	if (!sums_exact)
		lv->dur = sv_xmalloc((n ? n : 1) * sizeof *lv->dur);
	if (!ends_exact)
		lv->maxend = sv_xmalloc((n ? n : 1) * sizeof *lv->maxend);
	for (b = 0, run = INT64_MIN; (lv->dur || lv->maxend) && b < nb; b++) {
		uint32_t lo = b * SV_LOD_BLOCK,
			 hi = lo + SV_LOD_BLOCK < n ? lo + SV_LOD_BLOCK : n;
		st = lod_starts(lv, start, lo, hi, buf);
		for (i = lo; i < hi; i++) {
			int64_t e = sv_covered_end(st[i - lo], ends[i]);
			if (lv->dur)
				lv->dur[i] = sv_sub_sat(ends[i], st[i - lo]);
			if (e > run)
				run = e;
			if (lv->maxend)
				lv->maxend[i] = run;
		}
	}
	sv_packed_writer_end(&sw);
	lod_blocks_make(lv, &bd);
	free(best);
	if (start)
		sv_packed_build(&lv->startpk, start, n);
	lv->start = NULL;
	if (lv->calls)
		sv_packed_build_u32(&lv->callpk, lv->calls, n, NULL);
	lv->calls = NULL;
}

void sv_lod_index_fini(struct sv_lod_index *ix)
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
bool sv_lod_stopped(const struct sv_lod_stop *stop, uint32_t i)
{
	return !(i & 0xffff) && stop && stop->cancel &&
	       atomic_load(stop->cancel);
}

/* The levels' part of the scratch, let go of. */
static void lod_scratch_drop(struct sv_lod_scratch *sc)
{
	sv_free_big(sc->start);
	sc->start = sc->ends = NULL;
	sc->calls = NULL;
}

/* The levels' arrays are one block: big enough, for a lane of a few
 * hundred thousand calls, to be a mapping of its own that goes back to
 * the system when freed, where five arrays of a few MB each would stay
 * in the heap after the build. */
void sv_lod_scratch_fit(struct sv_lod_scratch *sc, size_t n, uint32_t ndepth)
{
	if (n + ndepth + 1 <= sc->cap)
		return;
	lod_scratch_drop(sc);
	sc->cap = n + ndepth + 1;
	sc->start =
		sv_xmalloc(sc->cap * (2 * sizeof(int64_t) + sizeof(uint32_t)));
	sc->ends = sc->start + sc->cap;
	sc->calls = (uint32_t *)(sc->ends + sc->cap);
}

void sv_lod_scratch_fini(struct sv_lod_scratch *sc)
{
	free(sc->count);
	sv_free_big(sc->dep);
	lod_scratch_drop(sc);
	sv_free_big(sc->reg);
	sv_free_big(sc->rpos);
	free(sc->rcnt);
	free(sc->seen);
	sv_free_big(sc->bits);
	sv_free_big(sc->durs);
	free(sc->kept);
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

bool sv_lod_lane_build(const struct sv_lod_build *b, size_t l,
	struct sv_lod_scratch *sc, uint64_t *ncalls, size_t *bytes)
{
	const struct sv_profile *p = b->p;
	const struct sv_lod_stop *stop = b->stop;
	const struct sv_lane *lane = &p->lanes[l];
	struct sv_lod_lane *ll = &b->ix->lanes[l];
	struct lod_calls k = {lane, 0, 0, {0}};
	struct sv_packed_writer *wr;
	uint32_t i, d, ndepth = 0, hint = 0;
	size_t at = 0, *at0;
	bool stopped = false;

	if (sv_lod_stopped(stop, 0))
		return false;
	if (stop && stop->progress)
		atomic_fetch_add(stop->progress, lane->ncalls);

	/* Each call's depth (UINT32_MAX: left out), read once: the model's
	 * columns may be packed, and these reads go all over them. */
	sv_grow((void **)&sc->dep, &sc->dep_cap, lane->ncalls, sizeof *sc->dep);
	for (i = 0; i < lane->ncalls; i++) {
		uint32_t c = lod_call_at(&k, i), dc;
		if (sv_lod_stopped(stop, i))
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
	/* The ends in the scratch (its starts and calls are left
	 * untouched: no pages of them), the starts and calls packed as they
	 * come, a writer each a level. */
	sv_lod_scratch_fit(sc, lane->ncalls, ndepth);
	ll->levels = sv_xcalloc(ndepth, sizeof *ll->levels);
	wr = sv_xmalloc(2 * (size_t)ndepth * sizeof *wr);
	at0 = sv_xmalloc((size_t)ndepth * sizeof *at0);
	if (b->regions)
		sv_grow((void **)&sc->reg, &sc->reg_cap, lane->ncalls,
			sizeof *sc->reg);
	for (d = 0; d < ndepth; d++) {
		struct sv_lod_level *lv = &ll->levels[d];
		lv->maxend = sc->ends + at;
		at0[d] = at;
		at += sc->count[d];
		sv_packed_writer_begin(&wr[2 * d], &lv->startpk, sc->count[d]);
		sv_packed_writer_begin(
			&wr[2 * d + 1], &lv->callpk, sc->count[d]);
	}
	k.n = 0;
	for (i = 0; i < lane->ncalls && !stopped; i++) {
		uint32_t c = lod_call_at(&k, i);
		struct sv_lod_level *lv;
		int64_t s;
		if (sv_lod_stopped(stop, i)) {
			stopped = true;
			break;
		}
		if (sc->dep[i] == UINT32_MAX)
			continue;
		d = sc->dep[i];
		lv = &ll->levels[d];
		s = sv_profile_start(p, c);
		if (b->regions) /* the level's slice of the lane's regions */
			sc->reg[at0[d] + lv->n] =
				p->rows[sv_profile_row_near(p, c, &hint)]
					.region;
		sv_packed_writer_put(&wr[2 * d], s);
		sv_packed_writer_put(&wr[2 * d + 1], c);
		lv->maxend[lv->n++] = sv_lod_end(p, c, s);
	}
	for (d = 0; d < ndepth; d++) {
		sv_packed_writer_end(&wr[2 * d]);
		sv_packed_writer_end(&wr[2 * d + 1]);
	}
	free(wr);
	free(at0);
	if (stopped) {
		lod_lane_unscratch(ll, 0);
		return false;
	}
	for (d = 0, at = 0; d < ndepth; d++) {
		struct sv_lod_level *lv = &ll->levels[d];
		if (sv_lod_stopped(stop, 0)) {
			lod_lane_unscratch(ll, d);
			return false;
		}
		if (b->regions)
			lv->rg = sv_lod_regions_make(
				sc->reg + at, lv->n, p->nregions, sc);
		sv_lod_level_finish(lv);
		at += lv->n;
		*ncalls += lv->n;
		*bytes += sv_lod_level_bytes(lv);
	}
	*bytes += ndepth * sizeof *ll->levels;
	return true;
}

int sv_lod_build_begin(struct sv_lod_build *b, struct sv_lod_index *ix,
	const struct sv_profile *p, const bool *keep_region,
	const bool *keep_call, const struct sv_lod_stop *stop,
	struct sv_error *err)
{
	memset(b, 0, sizeof *b);
	if (!ix)
		return sv_error_set(err, -EINVAL, "layout: no index");
	sv_lod_index_fini(ix);
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

void sv_lod_build_work(struct sv_lod_build *b)
{
	struct sv_lod_scratch sc;
	size_t bytes = 0, l;
	uint64_t ncalls = 0;

	if (!b->ix)
		return;
	memset(&sc, 0, sizeof sc);
	while (!atomic_load(&b->stopped) &&
		(l = atomic_fetch_add(&b->next, 1)) < b->ix->nlanes)
		if (!(b->from ? sv_lod_lane_select(b, l, &sc, &ncalls, &bytes)
			      : sv_lod_lane_build(b, l, &sc, &ncalls, &bytes)))
			atomic_store(&b->stopped, true);
	atomic_fetch_add(&b->ncalls, ncalls);
	atomic_fetch_add(&b->bytes, bytes);
	sv_lod_scratch_fini(&sc);
}

int sv_lod_build_end(struct sv_lod_build *b, struct sv_error *err)
{
	if (!b->ix)
		return -EINVAL;
	if (atomic_load(&b->stopped)) {
		sv_lod_index_fini(b->ix);
		return sv_error_set(err, -ECANCELED, "layout: stopped");
	}
	b->ix->ncalls = atomic_load(&b->ncalls);
	b->ix->bytes += atomic_load(&b->bytes);
	return 0;
}

int sv_lod_index_build_stop(struct sv_lod_index *ix, const struct sv_profile *p,
	const bool *keep_region, const bool *keep_call,
	const struct sv_lod_stop *stop, struct sv_error *err)
{
	struct sv_lod_build b;
	int rc = sv_lod_build_begin(
		&b, ix, p, keep_region, keep_call, stop, err);

	if (rc < 0)
		return rc;
	sv_lod_build_work(&b);
	return sv_lod_build_end(&b, err);
}

int sv_lod_index_build(struct sv_lod_index *ix, const struct sv_profile *p,
	const bool *keep_region, struct sv_error *err)
{
	return sv_lod_index_build_stop(ix, p, keep_region, NULL, NULL, err);
}

int sv_lod_index_build_calls(struct sv_lod_index *ix,
	const struct sv_profile *p, const bool *keep_call, struct sv_error *err)
{
	return sv_lod_index_build_stop(ix, p, NULL, keep_call, NULL, err);
}
