/*
 * lod_query.c: what the level-of-detail index (lod.h) answers once built
 * (lod_build.c and lod_select.c make it): a level of a lane, the
 * positions of the calls of a time range, the nanoseconds they cover and
 * the longest of them.
 *
 * Invariants: the levels hold their calls in the lane's start order, so
 * binary searches over the starts and the running maxima of the ends
 * (both nondecreasing) find the calls of any time range, and the longest
 * call of each block's prefixes and suffixes with the tables of whole
 * blocks (spans of up to 16 blocks, superblocks' prefixes and suffixes,
 * a sparse table over superblocks) answer "longest call among positions
 * [lo, hi)" in O(1) (a scan only inside one block).  Nothing here
 * allocates, and nothing knows about columns or screens.
 */
#include "scopeview/lod.h"

#include "lod_priv.h"

const struct sv_lod_level *sv_lod_index_level(
	const struct sv_lod_index *ix, size_t lane, uint32_t depth)
{
	if (!ix || lane >= ix->nlanes || depth >= ix->lanes[lane].ndepth)
		return NULL;
	return &ix->lanes[lane].levels[depth];
}

/* Whether lv's starts are its own, packed: searched block by block. */
static bool lod_packed_starts(const struct sv_lod_level *lv)
{
	return !lv->over && !lv->start && lv->startpk.n == lv->n;
}

/* First position of [lo, hi) with sv_lod_maxend(lv, i) > t, or hi. */
static uint32_t lod_upper_end_in(
	const struct sv_lod_level *lv, uint32_t lo, uint32_t hi, int64_t t)
{
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (sv_lod_maxend(lv, mid) > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* First position i of lv with sv_lod_maxend(lv, i) > t.  Every call
 * starting at t or after ends after t (its covered end is past its
 * start), so with the ends derived the answer is at most the first such
 * call's position, and calls being short, a few before it: a gallop down
 * from there. */
static uint32_t lod_upper_end(const struct sv_lod_level *lv, int64_t t)
{
	uint32_t hi, lo = 0, step = 1;

	if (lv->maxend || !lod_packed_starts(lv))
		return lod_upper_end_in(lv, 0, lv->n, t);
	hi = sv_lod_first_start(lv, t);
	if (hi < lv->n && sv_lod_maxend(lv, hi) <= t) /* t = INT64_MAX */
		return lod_upper_end_in(lv, hi, lv->n, t);
	while (hi > 0) {
		uint32_t q = hi > step ? hi - step : 0;
		if (sv_lod_maxend(lv, q) <= t) {
			lo = q + 1;
			break;
		}
		hi = q;
		step <<= 1;
	}
	return lod_upper_end_in(lv, lo, hi, t);
}

uint32_t sv_lod_first_start(const struct sv_lod_level *lv, int64_t t)
{
	uint32_t lo = 0, hi = lv->n;
	if (lod_packed_starts(lv))
		return (uint32_t)sv_packed_first_ge(&lv->startpk, t);
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (sv_lod_start(lv, mid) >= t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void sv_lod_range(const struct sv_lod_level *lv, int64_t t0, int64_t t1,
	uint32_t *lo, uint32_t *hi)
{
	uint32_t a, b;

	if (!lv || !lv->n || t1 <= t0) {
		*lo = *hi = 0;
		return;
	}
	a = lod_upper_end(lv, t0);
	b = sv_lod_first_start(lv, t1);
	*lo = a;
	*hi = b < a ? a : b;
}

int64_t sv_lod_busy(const struct sv_lod_level *lv, int64_t t0, int64_t t1,
	uint32_t lo, uint32_t hi)
{
	int64_t sum, cut;
	uint32_t k;

	if (!lv || hi <= lo || hi > lv->n || t1 <= t0)
		return 0;
	sum = sv_sub_sat(sv_lod_cumdur(lv, hi), sv_lod_cumdur(lv, lo));
	/* Only the first and last calls can stick out of the range. */
	for (k = lo; k < hi; k = k + 1 < hi ? hi - 1 : hi) {
		int64_t s = sv_lod_start(lv, k), d = sv_lod_dur(lv, k),
			e = sv_add_sat(s, d);
		/* Saturated: the times may span all of int64 (issue 40). */
		cut = 0;
		if (s < t0)
			cut = sv_sub_sat(e < t0 ? e : t0, s);
		if (e > t1)
			cut = sv_add_sat(cut, sv_sub_sat(e, s > t1 ? s : t1));
		sum = sv_sub_sat(sum, cut < d ? cut : d);
	}
	return sum < 0                    ? 0
	       : sum > sv_sub_sat(t1, t0) ? sv_sub_sat(t1, t0)
					  : sum;
}

/* The best so far of a search for the longest call: its position and
 * duration, so that each candidate's duration is read once. */
struct lod_best {
	uint32_t at;
	int64_t dur;
};

/* Take position b of lv into best when it is longer (ties: earlier). */
static void lod_take(
	const struct sv_lod_level *lv, struct lod_best *best, uint32_t b)
{
	int64_t db = sv_lod_dur(lv, b);
	if (db > best->dur || (db == best->dur && b < best->at)) {
		best->at = b;
		best->dur = db;
	}
}

/* Take the longest call of whole blocks [a, c] into best: two spans of
 * the blocks' tables when they are fewer than a superblock, else the
 * suffix of a's superblock, the prefix of c's and the sparse table over
 * the superblocks between. */
static void lod_blocks_take(const struct sv_lod_level *lv,
	struct lod_best *best, uint32_t a, uint32_t c)
{
	uint32_t n = c - a + 1, k = 0, sa, sc;

	if (n < SV_LOD_SUPER) {
		uint32_t y = c + 1;
		while ((2u << k) <= n)
			k++;
		y -= 1u << k;
		if (k) {
			a += sv_lod_bt(lv, SV_LOD_BT_SPAN + k - 1, a);
			y += sv_lod_bt(lv, SV_LOD_BT_SPAN + k - 1, y);
		}
		lod_take(lv, best, sv_lod_block_best(lv, a));
		if (y != a)
			lod_take(lv, best, sv_lod_block_best(lv, y));
		return;
	}
	sa = a / SV_LOD_SUPER;
	sc = c / SV_LOD_SUPER;
	lod_take(lv, best,
		sv_lod_block_best(lv,
			sa * SV_LOD_SUPER + sv_lod_bt(lv, SV_LOD_BT_SUF, a)));
	lod_take(lv, best,
		sv_lod_block_best(lv,
			sc * SV_LOD_SUPER + sv_lod_bt(lv, SV_LOD_BT_PRE, c)));
	if (sc > sa + 1) {
		uint32_t s0 = sa + 1, s1 = sc - 1, m = s1 - s0 + 1;
		while ((2u << k) <= m)
			k++;
		lod_take(lv, best, lv->super[(size_t)k * lv->nsuper + s0]);
		lod_take(lv, best,
			lv->super[(size_t)k * lv->nsuper + s1 - (1u << k) + 1]);
	}
}

uint32_t sv_lod_longest(const struct sv_lod_index *ix,
	const struct sv_lod_level *lv, uint32_t lo, uint32_t hi)
{
	uint32_t bl = lo / SV_LOD_BLOCK, bh = (hi - 1) / SV_LOD_BLOCK, i;
	struct lod_best best;

	(void)ix; /* the durations live in the level */
	if (bl == bh) {
		/* One block: a prefix or suffix of it, or a scan. */
		if (lo == bl * SV_LOD_BLOCK)
			return lo + lv->pre[hi - 1];
		if (hi == lv->n || hi == (bl + 1) * SV_LOD_BLOCK)
			return bl * SV_LOD_BLOCK + lv->suf[lo];
		best.at = lo;
		best.dur = sv_lod_dur(lv, lo);
		for (i = lo + 1; i < hi; i++)
			lod_take(lv, &best, i);
		return best.at;
	}
	/* The suffix of lo's block, the whole blocks between (two
	 * overlapping powers of two), the prefix of hi - 1's block. */
	best.at = bl * SV_LOD_BLOCK + lv->suf[lo];
	best.dur = sv_lod_dur(lv, best.at);
	if (bh > bl + 1)
		lod_blocks_take(lv, &best, bl + 1, bh - 1);
	lod_take(lv, &best, bh * SV_LOD_BLOCK + lv->pre[hi - 1]);
	return best.at;
}
