/*
 * palette.c: the colours of calls (palette.h): the region colours and the
 * heat ramp of both themes, their 16/8-colour reductions and fill
 * patterns, and the assignment of a colour to every region of a profile.
 * Invariants: a region's colour depends only on the profile (names,
 * weights, who calls whom), never on the view; the map is built once per
 * profile, so drawing a call's colour costs its recursion depth at most.
 * Nothing here knows about curses.
 */
#include "scopeview/palette.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"

/* {xterm256, ansi16, ansi8, rgb}: 24 region colours, hue by hue, first
 * the saturated ones, then the light ones, then three earthy ones; the
 * heat ramp runs blue, cyan, green, yellow, orange, red.  16 colours
 * keep 12 hues (each twice, told apart by the fill pattern), 8 keep 6. */
static const struct sv_palette palette_dark[SV_GRID_NCOLORS + 1] = {
	{250, 7, 7, 0xbcbcbc},
	{167, 1, 1, 0xd75f5f},
	{173, 3, 3, 0xd7875f},
	{179, 11, 3, 0xd7af5f},
	{185, 11, 3, 0xd7d75f},
	{149, 10, 2, 0xafd75f},
	{113, 2, 2, 0x87d75f},
	{78, 10, 2, 0x5fd787},
	{80, 14, 6, 0x5fd7d7},
	{74, 6, 6, 0x5fafd7},
	{68, 4, 4, 0x5f87d7},
	{104, 12, 4, 0x8787d7},
	{140, 13, 5, 0xaf87d7},
	{176, 5, 5, 0xd787d7},
	{168, 9, 1, 0xd75f87},
	{217, 9, 1, 0xffafaf},
	{223, 3, 3, 0xffd7af},
	{229, 11, 3, 0xffffaf},
	{157, 10, 2, 0xafffaf},
	{159, 14, 6, 0xafffff},
	{153, 12, 4, 0xafd7ff},
	{183, 13, 5, 0xd7afff},
	{219, 5, 5, 0xffafff},
	{137, 1, 1, 0xaf875f},
	{108, 2, 2, 0x87af87},
	{75, 12, 4, 0x5fafff},
	{44, 14, 6, 0x00d7d7},
	{114, 10, 2, 0x87d787},
	{148, 2, 2, 0xafd700},
	{184, 11, 3, 0xd7d700},
	{214, 3, 3, 0xffaf00},
	{208, 9, 1, 0xff8700},
	{196, 1, 1, 0xff0000},
};

/* The light theme's: one step lighter where the dark one is saturated,
 * so black text on a bar stays readable on a white page. */
static const struct sv_palette palette_light[SV_GRID_NCOLORS + 1] = {
	{250, 7, 7, 0xbcbcbc},
	{210, 9, 1, 0xff8787},
	{216, 11, 3, 0xffaf87},
	{222, 11, 3, 0xffd787},
	{228, 11, 3, 0xffff87},
	{192, 10, 2, 0xd7ff87},
	{156, 10, 2, 0xafff87},
	{121, 10, 2, 0x87ffaf},
	{123, 14, 6, 0x87ffff},
	{117, 14, 6, 0x87d7ff},
	{111, 12, 4, 0x87afff},
	{147, 12, 4, 0xafafff},
	{183, 13, 5, 0xd7afff},
	{219, 13, 5, 0xffafff},
	{211, 9, 1, 0xff87af},
	{224, 9, 1, 0xffd7d7},
	{230, 11, 3, 0xffffd7},
	{229, 11, 3, 0xffffaf},
	{194, 10, 2, 0xd7ffd7},
	{195, 14, 6, 0xd7ffff},
	{189, 12, 4, 0xd7d7ff},
	{225, 13, 5, 0xffd7ff},
	{218, 13, 5, 0xffafd7},
	{180, 3, 3, 0xd7af87},
	{151, 10, 2, 0xafd7af},
	{81, 12, 4, 0x5fd7ff},
	{87, 14, 6, 0x5fffff},
	{120, 10, 2, 0x87ff87},
	{190, 10, 2, 0xd7ff00},
	{226, 11, 3, 0xffff00},
	{220, 11, 3, 0xffd700},
	{214, 9, 1, 0xffaf00},
	{209, 9, 1, 0xff875f},
};

static const struct {
	const char *name, *help;
} palette_modes[SV_PALETTE_MODE_COUNT] = {
#define PALETTE_MODE_ROW(id, n, h) [SV_PALETTE_MODE_##id] = {n, h},
	SV_PALETTE_MODE_TABLE(PALETTE_MODE_ROW)
#undef PALETTE_MODE_ROW
};

/* The caller/callee relation is a bit matrix over this many regions. */
#define PALETTE_MAX_EDGES 1024

int sv_palette_hash(const char *name)
{
	uint32_t h = 2166136261u;
	const unsigned char *s = (const unsigned char *)(name ? name : "");

	while (*s) {
		h ^= *s++;
		h *= 16777619u;
	}
	return 1 + (int)(h % SV_PALETTE_NREGION);
}

const struct sv_palette *sv_palette_entry(int theme, int color)
{
	if (color < 0 || color > SV_GRID_NCOLORS)
		color = 0;
	return theme == SV_THEME_LIGHT ? &palette_light[color]
				       : &palette_dark[color];
}

uint32_t sv_palette_fill(int color, int colors)
{
	/* Full, dark shade, the two diagonal quadrant pairs, upper and
	 * lower half, medium shade. */
	static const uint32_t fills[] = {
		SV_GRID_BAR, 0x2593, 0x259a, 0x259e, 0x2580, 0x2584, 0x2592};
	const struct sv_palette *me;
	int k, same = 0;

	if (color <= 0 || color >= SV_PALETTE_HEAT0 || colors >= 256)
		return SV_GRID_BAR;
	if (colors <= 0)
		return fills[(color - 1) % 7];
	/* The pattern counts the region colours before this one that the
	 * reduction makes the same colour. */
	me = &palette_dark[color];
	for (k = 1; k < color; k++)
		if (colors >= 16 ? palette_dark[k].ansi16 == me->ansi16
				 : palette_dark[k].ansi8 == me->ansi8)
			same++;
	return fills[same % 7];
}

const char *sv_palette_mode_name(int mode)
{
	return mode >= 0 && mode < SV_PALETTE_MODE_COUNT
		       ? palette_modes[mode].name
		       : NULL;
}

const char *sv_palette_mode_help(int mode)
{
	return mode >= 0 && mode < SV_PALETTE_MODE_COUNT
		       ? palette_modes[mode].help
		       : NULL;
}

int sv_palette_mode_from_name(const char *name)
{
	int m;
	for (m = 0; name && m < SV_PALETTE_MODE_COUNT; m++)
		if (!strcmp(name, palette_modes[m].name))
			return m;
	return -1;
}

void sv_palette_map_fini(struct sv_palette_map *m)
{
	if (!m)
		return;
	free(m->color);
	free(m->alt);
	memset(m, 0, sizeof *m);
}

static _Thread_local const int64_t *palette_sort_weight;

/* The serial of the last map built (on any thread). */
static _Atomic uint64_t palette_serial;

static int palette_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int64_t wx = palette_sort_weight ? palette_sort_weight[x] : 0,
		wy = palette_sort_weight ? palette_sort_weight[y] : 0;

	if (wx != wy)
		return wx > wy ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The first colour from `from` on, cyclically, that no flag of bad[]
 * (SV_PALETTE_NREGION + 1 flags) sets; 0 when all are set. */
static int palette_first_free(int from, const bool *bad)
{
	int k;
	for (k = 0; k < SV_PALETTE_NREGION; k++) {
		int c = 1 + (from - 1 + k) % SV_PALETTE_NREGION;
		if (!bad[c])
			return c;
	}
	return 0;
}

/* The (region, its caller's region) pairs met, as region << 32 | caller
 * region in an open-addressed table. */
#define PALETTE_NO_PAIR UINT64_MAX
struct palette_pairs {
	uint64_t *key;
	size_t cap, n;
};

static void palette_pairs_add(struct palette_pairs *t, uint64_t key)
{
	size_t h, i;

	if (2 * (t->n + 1) > t->cap) {
		struct palette_pairs g = {NULL, t->cap ? 2 * t->cap : 64, 0};
		g.key = sv_xmalloc(g.cap * sizeof *g.key);
		memset(g.key, 0xff, g.cap * sizeof *g.key);
		for (i = 0; i < t->cap; i++)
			if (t->key[i] != PALETTE_NO_PAIR)
				palette_pairs_add(&g, t->key[i]);
		free(t->key);
		*t = g;
	}
	h = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & (t->cap - 1);
	while (t->key[h] != PALETTE_NO_PAIR && t->key[h] != key)
		h = (h + 1) & (t->cap - 1);
	if (t->key[h] == PALETTE_NO_PAIR) {
		t->key[h] = key;
		t->n++;
	}
}

/*
 * One pass over the calls, row by row (so each call's region is its
 * row's): the shortest and longest duration into m, the pairs of regions
 * that call each other into *pairs, and, when weigh, each region's
 * inclusive time (its calls not inside a call of the same region,
 * saturated at int64's range) into a new array, returned; else NULL.
 */
static int64_t *palette_scan(const struct sv_profile *p,
	struct sv_palette_map *m, bool weigh, struct palette_pairs *pairs)
{
	int64_t *w = weigh ? sv_xcalloc(p->nregions, sizeof *w) : NULL;
	uint32_t prow = 0;
	size_t r;

	memset(pairs, 0, sizeof *pairs);
	m->dur_min = INT64_MAX;
	m->dur_max = 0;
	for (r = 0; r < p->nrows; r++) {
		const struct sv_row *row = &p->rows[r];
		uint32_t g = row->region, last = UINT32_MAX;
		uint64_t c, end = row->first + row->count;
		int64_t dur[256], par[256];
		if (end > p->ncalls)
			end = p->ncalls;
		/* Read a block at a time: the columns may be packed. */
		for (c = row->first; c < end; c += 256) {
			size_t n = end - c < 256 ? end - c : 256, i;
			sv_profile_durations(p, (uint32_t)c, n, dur);
			sv_profile_parents(p, (uint32_t)c, n, par);
			for (i = 0; i < n; i++) {
				uint32_t pc = (uint32_t)par[i], pg;
				int64_t d = dur[i];
				if (d < m->dur_min)
					m->dur_min = d;
				if (d > m->dur_max)
					m->dur_max = d;
				/* absurd times of a damaged file wrap */
				if (pc == SV_NO_CALL) {
					if (w)
						w[g] = sv_add_sat(w[g], d);
					continue;
				}
				pg = p->rows[sv_profile_row_near(p, pc, &prow)]
					     .region;
				if (w && pg != g)
					w[g] = sv_add_sat(w[g], d);
				/* Neighbours mostly share their caller's
				 * region. */
				if (pg != last)
					palette_pairs_add(
						pairs, (uint64_t)g << 32 | pg);
				last = pg;
			}
		}
	}
	return w;
}

void sv_palette_map_build(struct sv_palette_map *m, const struct sv_profile *p,
	const int64_t *weight)
{
	uint32_t *order, *rank_of, i, nedge;
	uint8_t *edges;
	bool used[SV_PALETTE_NREGION + 1], *selfrec;
	int64_t *mine;
	struct palette_pairs pairs;
	size_t n, e;

	sv_palette_map_fini(m);
	m->serial = atomic_fetch_add(&palette_serial, 1) + 1;
	if (!p || !p->nregions)
		return;
	n = p->nregions;
	m->n = n;
	m->color = sv_xcalloc(n, 1);
	m->alt = sv_xcalloc(n, 1);
	order = sv_xcalloc(n, sizeof *order);
	rank_of = sv_xcalloc(n, sizeof *rank_of);
	for (i = 0; i < n; i++)
		order[i] = i;
	mine = palette_scan(p, m, !weight, &pairs);
	if (!weight)
		weight = mine;
	/* qsort has no context argument in C11: one static per thread, set
	 * and reset around the call (maps are built on the loader's thread
	 * and on the loop's). */
	palette_sort_weight = weight;
	qsort(order, n, sizeof *order, palette_cmp);
	palette_sort_weight = NULL;
	for (i = 0; i < n; i++)
		rank_of[order[i]] = i;
	nedge = n < PALETTE_MAX_EDGES ? (uint32_t)n : PALETTE_MAX_EDGES;
	edges = sv_xcalloc((size_t)nedge * nedge / 8 + 1, 1);
	selfrec = sv_xcalloc(n, sizeof *selfrec);
	for (e = 0; e < pairs.cap; e++) {
		uint32_t ra, rb, a, b;
		if (pairs.key[e] == PALETTE_NO_PAIR)
			continue;
		ra = (uint32_t)(pairs.key[e] >> 32);
		rb = (uint32_t)pairs.key[e];
		a = rank_of[ra];
		b = rank_of[rb];
		if (ra == rb)
			selfrec[ra] = true;
		if (a >= nedge || b >= nedge || a == b)
			continue;
		edges[((size_t)a * nedge + b) / 8] |=
			(uint8_t)(1u << (((size_t)a * nedge + b) % 8));
		edges[((size_t)b * nedge + a) / 8] |=
			(uint8_t)(1u << (((size_t)b * nedge + a) % 8));
	}
	free(pairs.key);
	if (m->dur_min == INT64_MAX)
		m->dur_min = 0;
	memset(used, 0, sizeof used);
	for (i = 0; i < n; i++) {
		uint32_t r = order[i], j;
		bool near[SV_PALETTE_NREGION + 1], both[SV_PALETTE_NREGION + 1];
		int want = sv_palette_hash(p->regions[r]), k, got;
		memset(near, 0, sizeof near);
		for (j = 0; i < nedge && j < i; j++)
			if (edges[((size_t)i * nedge + j) / 8] &
				(1u << (((size_t)i * nedge + j) % 8))) {
				/* A caller or callee, and the second colour of
				 * one that calls itself. */
				near[m->color[order[j]]] = true;
				if (selfrec[order[j]])
					near[m->alt[order[j]]] = true;
			}
		for (k = 0; k <= SV_PALETTE_NREGION; k++)
			both[k] = near[k] || used[k];
		got = palette_first_free(want, both);
		if (!got)
			got = palette_first_free(want, near);
		if (!got)
			got = want;
		m->color[r] = (uint8_t)got;
		used[got] = true;
		/* The second colour: away from itself and its neighbours,
		 * half the palette round from its own. */
		near[got] = true;
		k = palette_first_free(1 + (got - 1 + SV_PALETTE_NREGION / 2) %
						       SV_PALETTE_NREGION,
			near);
		m->alt[r] = (uint8_t)(k ? k : 1 + got % SV_PALETTE_NREGION);
	}
	free(mine);
	free(selfrec);
	free(edges);
	free(rank_of);
	free(order);
}

int sv_palette_region(
	const struct sv_palette_map *m, const struct sv_profile *p, uint32_t r)
{
	if (m && r < m->n && m->color[r])
		return m->color[r];
	return sv_palette_hash(p && r < p->nregions ? p->regions[r] : "");
}

/* A heat step 0 .. SV_PALETTE_NHEAT - 1 of x in [0, 1]. */
static int palette_heat(double x)
{
	int k = (int)(x * SV_PALETTE_NHEAT);
	if (k < 0)
		k = 0;
	if (k >= SV_PALETTE_NHEAT)
		k = SV_PALETTE_NHEAT - 1;
	return SV_PALETTE_HEAT0 + k;
}

/* log(1 + v) as a double, without libm: the position of the highest bit
 * plus the fraction below it (enough for eight steps). */
static double palette_log2(int64_t v)
{
	double f;
	int b = 0;

	if (v <= 0)
		return 0;
	while (b < 62 && (v >> (b + 1)))
		b++;
	f = (double)v / (double)((int64_t)1 << b);
	return b + (f - 1.0);
}

int sv_palette_call(const struct sv_palette_map *m, const struct sv_profile *p,
	uint32_t c, int mode)
{
	uint32_t r, par;
	int same = 0;

	if (!p || c >= p->ncalls)
		return 0;
	r = sv_call_region(p, c);
	switch (mode) {
	case SV_PALETTE_MODE_DURATION: {
		double lo = palette_log2(m ? m->dur_min : 0),
		       hi = palette_log2(m ? m->dur_max : 0),
		       v = palette_log2(sv_call_duration(p, c));
		return palette_heat(hi > lo ? (v - lo) / (hi - lo) : 0);
	}
	case SV_PALETTE_MODE_SELF: {
		int64_t d = sv_call_duration(p, c);
		return palette_heat(
			d > 0 ? (double)sv_profile_exclusive(p, c) / (double)d
			      : 1.0);
	}
	case SV_PALETTE_MODE_RANK:
		return 1 + (int)(p->lanes[sv_call_lane(p, c)].rank %
				   SV_PALETTE_NREGION);
	default:
		break;
	}
	for (par = sv_profile_parent(p, c);
		par != SV_NO_CALL && sv_call_region(p, par) == r;
		par = sv_profile_parent(p, par))
		same++;
	if (same % 2 && m && r < m->n && m->alt[r])
		return m->alt[r];
	return sv_palette_region(m, p, r);
}
