/*
 * lod_select.c: the level-of-detail index of some regions' calls made
 * from the index of every call (lod.h's sv_lod_select_begin), and
 * the regions of each level that make that possible.
 *
 * The profile's index is made once with its regions: each level keeps
 * its positions grouped by region (struct sv_lod_regions), a packed list
 * of about a byte and a half a call.  A region filter then needs no pass
 * over the calls: a level whose regions are all kept is borrowed as it
 * is, one without a kept region is left out, one that keeps all but a
 * few runs of positions is read through the level (struct sv_lod_over:
 * its own longest-call tables, 2.3 bytes a call, the rest read through
 * the runs), and the rest are made from the kept groups' positions alone
 * (their calls, starts and durations read from the level, not from the
 * profile's packed columns), finished by the same code as a level made
 * from the profile.  Either way the index answers as the one
 * sv_lod_index_build gives for the same regions.  Nothing here draws or
 * knows about curses.
 */
#include "scopeview/lod.h"

#include "lod_priv.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- the regions of a level ----------------------------------------------- */

static int select_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

struct sv_lod_regions *sv_lod_regions_make(const uint32_t *reg, uint32_t n,
	uint32_t nregions, struct sv_lod_scratch *sc)
{
	struct sv_lod_regions *rg = sv_xcalloc(1, sizeof *rg);
	uint32_t i, k, nseen = 0;

	if (sc->rcnt_cap < (size_t)nregions + 1) {
		free(sc->rcnt);
		free(sc->seen);
		sc->rcnt_cap = (size_t)nregions + 1;
		sc->rcnt = sv_xcalloc(sc->rcnt_cap, sizeof *sc->rcnt);
		sc->seen = sv_xmalloc(sc->rcnt_cap * sizeof *sc->seen);
	}
	/* Each region's count, and the regions seen (rcnt is all zeros
	 * between levels). */
	for (i = 0; i < n; i++)
		if (!sc->rcnt[reg[i]]++)
			sc->seen[nseen++] = reg[i];
	qsort(sc->seen, nseen, sizeof *sc->seen, select_cmp_u32);
	rg->n = nseen;
	rg->region = sv_xmalloc((nseen ? nseen : 1) * sizeof *rg->region);
	rg->off = sv_xmalloc(((size_t)nseen + 1) * sizeof *rg->off);
	rg->off[0] = 0;
	for (k = 0; k < nseen; k++) {
		rg->region[k] = sc->seen[k];
		rg->off[k + 1] = rg->off[k] + sc->rcnt[sc->seen[k]];
		/* From here on a region's cursor into its group. */
		sc->rcnt[sc->seen[k]] = rg->off[k];
	}
	if (nseen > 1) {
		sv_grow((void **)&sc->rpos, &sc->rpos_cap, n, sizeof *sc->rpos);
		for (i = 0; i < n; i++)
			sc->rpos[sc->rcnt[reg[i]]++] = i;
		sv_packed_build_u32(&rg->pos, sc->rpos, n, NULL);
	}
	for (k = 0; k < nseen; k++)
		sc->rcnt[sc->seen[k]] = 0;
	rg->bytes = sizeof *rg + rg->pos.bytes +
		    (2 * (size_t)nseen + 1) * sizeof(uint32_t);
	return rg;
}

void sv_lod_regions_free(struct sv_lod_regions *rg)
{
	if (!rg)
		return;
	sv_packed_fini(&rg->pos);
	free(rg->region);
	free(rg->off);
	free(rg);
}

/* ---- a level of the kept regions ------------------------------------------ */

/* The calls of rg's groups that keep flags, counted. */
static uint32_t select_kept(const struct sv_lod_regions *rg, const bool *keep)
{
	uint32_t k, n = 0;

	for (k = 0; k < rg->n; k++)
		if (keep[rg->region[k]])
			n += rg->off[k + 1] - rg->off[k];
	return n;
}

/* Positions [lo, hi) of group k into the bits: set. */
static void select_mark(const struct sv_lod_regions *rg, uint32_t k,
	uint64_t *bits, int64_t *buf)
{
	uint32_t lo = rg->off[k], hi = rg->off[k + 1], i, j;

	for (i = lo; i < hi; i += 256) {
		uint32_t m = hi - i < 256 ? hi - i : 256;
		if (rg->pos.n) {
			sv_packed_get_range(&rg->pos, i, m, buf);
			for (j = 0; j < m; j++)
				bits[buf[j] / 64] |= (uint64_t)1
						     << (buf[j] % 64);
		} else {
			for (j = i; j < i + m; j++)
				bits[j / 64] |= (uint64_t)1 << (j % 64);
		}
	}
}

/* The call, start and duration at position q of lv, read in order: a
 * block of its packed calls, starts and sums at a time (its own, packed:
 * then read through the accessors, one by one). */
struct select_calls {
	const struct sv_lod_level *lv;
	uint64_t lo, n;
	int64_t buf[SV_PACKED_BLOCK];
	int64_t start[SV_PACKED_BLOCK], sum[SV_PACKED_BLOCK + 1];
};

static void select_block(struct select_calls *k, uint32_t q)
{
	const struct sv_lod_level *lv = k->lv;

	k->lo = q - q % SV_PACKED_BLOCK;
	k->n = lv->n - k->lo < SV_PACKED_BLOCK ? lv->n - k->lo
					       : SV_PACKED_BLOCK;
	if (!lv->calls)
		sv_packed_get_range(&lv->callpk, k->lo, (size_t)k->n, k->buf);
	if (!lv->over && !lv->start && !lv->cumdur) {
		sv_packed_get_range(
			&lv->startpk, k->lo, (size_t)k->n, k->start);
		sv_packed_get_range(
			&lv->sumpk, k->lo, (size_t)k->n + 1, k->sum);
	}
}

static uint32_t select_call_at(struct select_calls *k, uint32_t q)
{
	const struct sv_lod_level *lv = k->lv;

	if (lv->calls)
		return lv->calls[q];
	if (q - k->lo >= k->n)
		select_block(k, q);
	return (uint32_t)k->buf[q - k->lo];
}

/* Position q of from into the scratch as the next call of the level
 * being made: its call, start and end, as the profile's build would have
 * read them.  A duration is read from the level (the difference of two
 * sums) unless it saturated, when the end is the profile's. */
static void select_take(const struct sv_profile *p,
	const struct sv_lod_level *from, struct select_calls *k, uint32_t q,
	struct sv_lod_level *lv)
{
	uint32_t c;
	int64_t s, d;

	if (!from->calls && !from->over && !from->start && !from->cumdur &&
		!from->dur) {
		if (q - k->lo >= k->n)
			select_block(k, q);
		c = (uint32_t)k->buf[q - k->lo];
		s = k->start[q - k->lo];
		d = (int64_t)((uint64_t)k->sum[q - k->lo + 1] -
			      (uint64_t)k->sum[q - k->lo]);
	} else {
		c = select_call_at(k, q);
		s = sv_lod_start(from, q);
		d = sv_lod_dur(from, q);
	}

	lv->calls[lv->n] = c;
	lv->start[lv->n] = s;
	lv->maxend[lv->n++] = d == INT64_MAX || d == INT64_MIN
				      ? sv_lod_end(p, c, s)
				      : (int64_t)((uint64_t)s + (uint64_t)d);
}

/* ---- a level read through the level of every call ----------------------- */

/* A level keeping all but runs of calls, no more runs than one in this
 * many kept calls, is read through the level of every call (struct
 * sv_lod_over): each run costs a search step and 16 bytes. */
#define SELECT_OVER_SHARE 8

/* Word w of the kept positions' bits (bits set for the kept groups, or
 * for the others when invert), no bit past n. */
static uint64_t select_word(
	const uint64_t *bits, size_t w, size_t nw, uint32_t n, bool invert)
{
	uint64_t x = invert ? ~bits[w] : bits[w];
	if (w + 1 == nw && n % 64)
		x &= ((uint64_t)1 << (n % 64)) - 1;
	return x;
}

/* The runs of positions left out among n, from the bits. */
static uint32_t select_runs(
	const uint64_t *bits, size_t nw, uint32_t n, bool invert)
{
	uint64_t before = 0; /* the last position of the word before: out */
	uint32_t runs = 0;
	size_t w;

	for (w = 0; w < nw; w++) {
		uint64_t out = ~select_word(bits, w, nw, n, invert);
		if (w + 1 == nw && n % 64)
			out &= ((uint64_t)1 << (n % 64)) - 1;
		runs += (uint32_t)__builtin_popcountll(
			out & ~(out << 1 | before));
		before = out >> 63;
	}
	return runs;
}

/* Position q of from, of duration d, into the overlay being made: a kept
 * call's duration into dur[*i], or a call left out into the runs.  False
 * when a sum passes int64 (the level is then made anew). */
struct select_over_walk {
	struct sv_lod_over *o;
	int64_t *dur, kept_sum;
	uint32_t i, r, skip;
	bool in_run;
};

static bool select_over_put(struct select_over_walk *k, bool keep, int64_t d)
{
	struct sv_lod_over *o = k->o;

	if (keep) {
		k->in_run = false;
		k->dur[k->i++] = d;
		return !__builtin_add_overflow(k->kept_sum, d, &k->kept_sum);
	}
	if (!k->in_run) {
		o->at[k->r++] = k->i;
		k->in_run = true;
		o->gone[k->r] = o->gone[k->r - 1];
	}
	o->skip[k->r] = ++k->skip;
	return !__builtin_add_overflow(o->gone[k->r], d, &o->gone[k->r]);
}

void sv_lod_over_free(struct sv_lod_over *o)
{
	free(o->at);
	free(o->skip);
	free(o->gone);
	sv_free_big(o->brun);
	free(o);
}

/* The level of from's kept positions (the bits; kept of them, in nruns
 * runs left out) into lv as an overlay of from: 1 when made, 0 when a
 * sum passed int64 (nothing made), -1 when asked to stop. */
static int select_over(const struct sv_lod_build *b,
	const struct sv_lod_level *from, uint32_t kept, uint32_t nruns,
	bool invert, struct sv_lod_level *lv, struct sv_lod_scratch *sc)
{
	size_t nw = ((size_t)from->n + 63) / 64, w;
	struct select_over_walk k = {0};
	struct sv_lod_over *o;
	int64_t c0 = sv_lod_cumdur_own(from, 0), c1;
	uint32_t bl, r = 0;

	sv_grow((void **)&sc->durs, &sc->durs_cap, kept ? kept : 1,
		sizeof *sc->durs);
	o = sv_xcalloc(1, sizeof *o);
	o->from = from;
	o->nruns = nruns;
	o->at = sv_xmalloc((nruns ? nruns : 1) * sizeof *o->at);
	o->skip = sv_xcalloc((size_t)nruns + 1, sizeof *o->skip);
	o->gone = sv_xcalloc((size_t)nruns + 1, sizeof *o->gone);
	k.o = o;
	k.dur = sc->durs;
	for (w = 0; w < nw; w++) {
		uint64_t x = select_word(sc->bits, w, nw, from->n, invert);
		uint32_t q = (uint32_t)(w * 64),
			 m = from->n - q < 64 ? from->n - q : 64, j;
		bool ok = true;
		int64_t sums[64];
		if (!(w & 0x3ff) && sv_lod_stopped(b->stop, 0)) {
			sv_lod_over_free(o);
			return -1;
		}
		/* The word's sums at once, from the packed ones. */
		if (!from->cumdur)
			sv_packed_get_range(&from->sumpk, q + 1, m, sums);
		for (j = 0; j < m; j++, c0 = c1) {
			c1 = from->cumdur ? from->cumdur[q + j + 1] : sums[j];
			ok = select_over_put(&k, x >> j & 1, c1 - c0) && ok;
		}
		if (!ok) {
			sv_lod_over_free(o);
			return 0;
		}
	}
	memset(lv, 0, sizeof *lv);
	lv->n = kept;
	lv->over = o;
	sv_lod_level_longest(lv, k.dur);
	o->brun = sv_xmalloc(((size_t)lv->nblocks + 1) * sizeof *o->brun);
	for (bl = 0; bl <= lv->nblocks; bl++) {
		while (r < nruns && o->at[r] <= bl * SV_LOD_BLOCK)
			r++;
		o->brun[bl] = r;
	}
	o->bytes = sizeof *o + (size_t)nruns * sizeof *o->at +
		   ((size_t)nruns + 1) * (sizeof *o->skip + sizeof *o->gone) +
		   ((size_t)lv->nblocks + 1) * sizeof *o->brun;
	return 1;
}

/* The level of from's calls whose regions keep flags (kept of them) into
 * lv, finished.  False when asked to stop. */
static bool select_level(const struct sv_lod_build *b,
	const struct sv_lod_level *from, uint32_t kept, struct sv_lod_level *lv,
	struct sv_lod_scratch *sc)
{
	const struct sv_lod_regions *rg = from->rg;
	struct select_calls k = {from, 0, 0, {0}, {0}, {0}};
	size_t nw = ((size_t)from->n + 63) / 64, w;
	int64_t buf[256];
	uint32_t g;
	bool invert = kept > from->n - kept;

	/* One group is kept whole or not at all: here there are several. */
	{
		/* The kept positions in order: one bit a position, set for
		 * the kept groups, or for the others when they are fewer. */
		sv_grow((void **)&sc->bits, &sc->bits_cap, nw ? nw : 1,
			sizeof *sc->bits);
		memset(sc->bits, 0, nw * sizeof *sc->bits);
		for (g = 0; g < rg->n; g++)
			if (b->keep_region[rg->region[g]] != invert)
				select_mark(rg, g, sc->bits, buf);
		/* Most calls kept in few runs: read through from, when its
		 * sums and ends are exact (the kept calls' are then too). */
		if (!from->dur && !from->maxend && !from->over) {
			uint32_t nruns =
				select_runs(sc->bits, nw, from->n, invert);
			int rc = nruns <= kept / SELECT_OVER_SHARE
					 ? select_over(b, from, kept, nruns,
						   invert, lv, sc)
					 : 0;
			if (rc)
				return rc > 0;
		}
		/* Else made from the kept positions, in the scratch. */
		sv_lod_scratch_fit(sc, kept, 1);
		lv->calls = sc->calls;
		lv->start = sc->start;
		lv->maxend = sc->ends;
		lv->n = 0;
		for (w = 0; w < nw; w++) {
			uint64_t x =
				select_word(sc->bits, w, nw, from->n, invert);
			if (!(w & 0x3ff) && sv_lod_stopped(b->stop, 0))
				return false;
			while (x) {
				uint32_t q = (uint32_t)(w * 64) +
					     (uint32_t)__builtin_ctzll(x);
				x &= x - 1;
				select_take(b->p, from, &k, q, lv);
			}
		}
	}
	sv_lod_level_finish(lv);
	return true;
}

bool sv_lod_lane_select(const struct sv_lod_build *b, size_t l,
	struct sv_lod_scratch *sc, uint64_t *ncalls, size_t *bytes)
{
	const struct sv_lod_lane *fl = &b->from->lanes[l];
	struct sv_lod_lane *ll = &b->ix->lanes[l];
	uint32_t d, ndepth = 0;
	uint64_t total = 0;

	if (sv_lod_stopped(b->stop, 0))
		return false;
	for (d = 0; b->keep_region && d < fl->ndepth; d++)
		if (!fl->levels[d].rg)
			/* Not made with regions: from the profile. */
			return sv_lod_lane_build(b, l, sc, ncalls, bytes);
	sv_grow((void **)&sc->kept, &sc->kept_cap, fl->ndepth ? fl->ndepth : 1,
		sizeof *sc->kept);
	for (d = 0; d < fl->ndepth; d++) {
		const struct sv_lod_level *lv = &fl->levels[d];
		sc->kept[d] = b->keep_region
				      ? select_kept(lv->rg, b->keep_region)
				      : lv->n;
		if (sc->kept[d])
			ndepth = d + 1;
		total += lv->n;
	}
	if (b->stop && b->stop->progress)
		atomic_fetch_add(b->stop->progress, total);
	ll->ndepth = ndepth;
	if (!ndepth)
		return true;
	ll->levels = sv_xcalloc(ndepth, sizeof *ll->levels);
	for (d = 0; d < ndepth; d++) {
		const struct sv_lod_level *from = &fl->levels[d];
		struct sv_lod_level *lv = &ll->levels[d];
		if (sc->kept[d] == from->n) {
			/* Every call kept: the level as it is. */
			*lv = *from;
			lv->borrowed = true;
		} else if (!select_level(b, from, sc->kept[d], lv, sc)) {
			/* Stopped: what the level holds is the scratch's. */
			memset(lv, 0, sizeof *lv);
			return false;
		}
		*ncalls += lv->n;
		*bytes += sv_lod_level_bytes(lv);
	}
	*bytes += ndepth * sizeof *ll->levels;
	return true;
}

/* ---- the selection -------------------------------------------------------- */

int sv_lod_select_begin(struct sv_lod_build *b, struct sv_lod_index *ix,
	const struct sv_lod_index *from, const bool *keep_region,
	const struct sv_lod_stop *stop, struct sv_error *err)
{
	int rc;

	if (!from || !from->p || from == ix) {
		memset(b, 0, sizeof *b);
		return sv_error_set(err, -EINVAL, "layout: no index to select");
	}
	rc = sv_lod_build_begin(b, ix, from->p, keep_region, NULL, stop, err);
	if (rc < 0)
		return rc;
	b->from = from;
	return 0;
}

static void *select_thread(void *arg)
{
	sv_lod_build_work(arg);
	return NULL;
}

void sv_lod_build_run(struct sv_lod_build *b, int nthreads)
{
	pthread_t t[8];
	int i, n = 0;

	for (i = 1; i < nthreads && n < 8; i++)
		if (pthread_create(&t[n], NULL, select_thread, b) == 0)
			n++;
	sv_lod_build_work(b);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

int sv_lod_index_select(struct sv_lod_index *ix,
	const struct sv_lod_index *from, const bool *keep_region,
	const struct sv_lod_stop *stop, int nthreads, struct sv_error *err)
{
	struct sv_lod_build b;
	int rc = sv_lod_select_begin(&b, ix, from, keep_region, stop, err);

	if (rc < 0)
		return rc;
	sv_lod_build_run(&b, nthreads);
	return sv_lod_build_end(&b, err);
}
