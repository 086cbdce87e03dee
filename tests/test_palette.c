/*
 * test_palette.c: the colours of calls: the palette's size and
 * distinctness, the fill patterns of few colours, the assignment of
 * colours to regions (stable, callers and callees apart, the heaviest all
 * different, recursion alternating) and the colour modes.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/demo.h"
#include "scopeview/load.h"
#include "scopeview/palette.h"
#include "viewtest.h"

START_TEST(test_palette_distinct)
{
	/* the region colours and the heat ramp differ from each other in
	 * 256 colours in both themes */
	int t, a, b;
	for (t = 0; t < SV_THEME_COUNT; t++)
		for (a = 1; a <= SV_GRID_NCOLORS; a++)
			for (b = a + 1; b <= SV_GRID_NCOLORS; b++)
				ck_assert_int_ne(
					sv_palette_entry(t, a)->xterm256,
					sv_palette_entry(t, b)->xterm256);
	ck_assert_int_ge(SV_PALETTE_NREGION, 24);
	ck_assert_ptr_eq(sv_palette_entry(0, 999), sv_palette_entry(0, 0));
}
END_TEST

START_TEST(test_fill_patterns)
{
	/* in 256 colours every bar is the bar; with fewer, two region
	 * colours that reduce to the same terminal colour have different
	 * fill patterns */
	static const int depths[] = {16, 8};
	int d, a, b;
	for (a = 1; a <= SV_GRID_NCOLORS; a++)
		ck_assert_uint_eq(sv_palette_fill(a, 256), SV_GRID_BAR);
	for (d = 0; d < 2; d++)
		for (a = 1; a <= SV_PALETTE_NREGION; a++)
			for (b = a + 1; b <= SV_PALETTE_NREGION; b++) {
				const struct sv_palette *pa =
					sv_palette_entry(0, a);
				const struct sv_palette *pb =
					sv_palette_entry(0, b);
				int ca = depths[d] == 16 ? pa->ansi16
							 : pa->ansi8;
				int cb = depths[d] == 16 ? pb->ansi16
							 : pb->ansi8;
				if (ca == cb)
					ck_assert_uint_ne(
						sv_palette_fill(a, depths[d]),
						sv_palette_fill(b, depths[d]));
			}
	/* without colours, neighbouring colours still differ */
	for (a = 1; a < SV_PALETTE_NREGION; a++)
		ck_assert_uint_ne(
			sv_palette_fill(a, 0), sv_palette_fill(a + 1, 0));
	ck_assert_uint_eq(sv_palette_fill(0, 0), SV_GRID_BAR);
}
END_TEST

/* Every call's colour differs from its parent's; the n heaviest regions
 * (by weight) have n different colours. */
static void check_map(const struct sv_profile *p,
	const struct sv_palette_map *m, const int64_t *weight, size_t n)
{
	uint64_t c;
	size_t i, j;
	uint32_t *top = calloc(p->nregions, sizeof *top);

	for (c = 0; c < p->ncalls; c++) {
		uint32_t par = sv_profile_parent(p, c);
		if (par == SV_NO_CALL)
			continue;
		ck_assert_msg(sv_palette_call(m, p, (uint32_t)c,
				      SV_PALETTE_MODE_REGION) !=
				      sv_palette_call(m, p, par,
					      SV_PALETTE_MODE_REGION),
			"call %u (%s) has its parent's (%s) colour",
			(unsigned)c, p->regions[sv_call_region(p, (uint32_t)c)],
			p->regions[sv_call_region(p, par)]);
	}
	for (i = 0; i < p->nregions; i++)
		top[i] = (uint32_t)i;
	/* the n heaviest, by a selection sort (few regions) */
	for (i = 0; i < n && i < p->nregions; i++)
		for (j = i + 1; j < p->nregions; j++)
			if (weight[top[j]] > weight[top[i]]) {
				uint32_t t = top[i];
				top[i] = top[j];
				top[j] = t;
			}
	for (i = 0; i < n && i < p->nregions; i++)
		for (j = i + 1; j < n && j < p->nregions; j++)
			ck_assert_int_ne(sv_palette_region(m, p, top[i]),
				sv_palette_region(m, p, top[j]));
	free(top);
}

static const struct vt_call nested[] = {
	{0, "main", 0, 1000, -1, -1, -1, 0},
	{0, "solve", 10, 500, -1, -1, -1, 0},
	{0, "kernel", 20, 100, -1, -1, -1, 0},
	{0, "fib", 510, 900, -1, -1, -1, 0},
	{0, "fib", 520, 800, -1, -1, -1, 0},
	{0, "fib", 530, 700, -1, -1, -1, 0},
	{0, "fib", 540, 600, -1, -1, -1, 0},
	{1, "main", 0, 1200, -1, -1, -1, 0},
	{1, "solve", 10, 900, -1, -1, -1, 0},
};

START_TEST(test_assign_nested)
{
	/* given a profile where solve calls kernel and fib calls itself */
	struct sv_profile *p =
		vt_profile(nested, sizeof nested / sizeof nested[0], VT_START);
	struct sv_palette_map m = {0}, m2 = {0};
	int64_t w[8] = {0};
	uint64_t c;
	uint32_t r;

	for (c = 0; c < p->ncalls; c++)
		w[sv_call_region(p, (uint32_t)c)] +=
			sv_call_duration(p, (uint32_t)c);
	/* when the map is built (twice) */
	sv_palette_map_build(&m, p, w);
	sv_palette_map_build(&m2, p, w);
	/* then it is the same each time, in range, and apart where it
	 * must be */
	for (r = 0; r < p->nregions; r++) {
		ck_assert_int_eq(m.color[r], m2.color[r]);
		ck_assert_int_ge(m.color[r], 1);
		ck_assert_int_le(m.color[r], SV_PALETTE_NREGION);
		ck_assert_int_ne(m.color[r], m.alt[r]);
	}
	check_map(p, &m, w, p->nregions);
	/* the heaviest region keeps the colour its name hashes to */
	ck_assert_int_eq(m.color[sv_profile_find_region(p, "main")],
		sv_palette_hash("main"));
	ck_assert_int_eq(m.dur_max, 1200);
	sv_palette_map_fini(&m2);
	sv_palette_map_fini(&m);
	sv_palette_map_fini(&m);
	/* an empty map falls back to the hash */
	ck_assert_int_eq(
		sv_palette_region(NULL, p, 0), sv_palette_hash(p->regions[0]));
	sv_palette_map_build(&m, NULL, NULL);
	ck_assert_uint_eq(m.n, 0);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_assign_demo)
{
	/* given the demo profile (32 regions) */
	char path[4096];
	struct sv_error err = {0};
	struct sv_profile *p = NULL;
	struct sv_palette_map m = {0};
	int64_t *w;
	uint64_t c;

	ck_assert_int_eq(sv_demo_path(path, sizeof path, &err), 0);
	ck_assert_msg(sv_load(path, NULL, &p, &err) == 0, "%s", err.msg);
	w = calloc(p->nregions, sizeof *w);
	for (c = 0; c < p->ncalls; c++)
		if (sv_profile_parent(p, c) == SV_NO_CALL ||
			sv_call_region(p, sv_profile_parent(p, c)) !=
				sv_call_region(p, (uint32_t)c))
			w[sv_call_region(p, (uint32_t)c)] +=
				sv_call_duration(p, (uint32_t)c);
	/* when coloured by inclusive time */
	sv_palette_map_build(&m, p, w);
	/* then no call has its parent's colour and the 24 heaviest
	 * regions (the panel's top rows) all differ, main, solve and
	 * kernel:precondition among them */
	check_map(p, &m, w, SV_PALETTE_NREGION);
	ck_assert_int_ne(
		sv_palette_region(&m, p, sv_profile_find_region(p, "main")),
		sv_palette_region(&m, p,
			sv_profile_find_region(p, "kernel:precondition")));
	sv_palette_map_fini(&m);
	free(w);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_modes)
{
	/* given the nested profile */
	struct sv_profile *p =
		vt_profile(nested, sizeof nested / sizeof nested[0], VT_START);
	struct sv_palette_map m = {0};
	uint64_t c;
	int k;

	sv_palette_map_build(&m, p, NULL);
	for (c = 0; c < p->ncalls; c++) {
		int d = sv_palette_call(
			&m, p, (uint32_t)c, SV_PALETTE_MODE_DURATION);
		int s = sv_palette_call(
			&m, p, (uint32_t)c, SV_PALETTE_MODE_SELF);
		int r = sv_palette_call(
			&m, p, (uint32_t)c, SV_PALETTE_MODE_RANK);
		ck_assert_int_ge(d, SV_PALETTE_HEAT0);
		ck_assert_int_le(d, SV_GRID_NCOLORS);
		ck_assert_int_ge(s, SV_PALETTE_HEAT0);
		ck_assert_int_le(s, SV_GRID_NCOLORS);
		ck_assert_int_eq(r, 1 + (int)p->lanes[sv_call_lane(p, c)].rank);
	}
	/* the longest call is the hottest, the shortest the coldest; a
	 * leaf's self time is all of it */
	for (c = 0; c < p->ncalls; c++) {
		int64_t d = sv_call_duration(p, (uint32_t)c);
		if (d == 1200)
			ck_assert_int_eq(sv_palette_call(&m, p, (uint32_t)c,
						 SV_PALETTE_MODE_DURATION),
				SV_GRID_NCOLORS);
		if (d == 60) {
			ck_assert_int_eq(sv_palette_call(&m, p, (uint32_t)c,
						 SV_PALETTE_MODE_DURATION),
				SV_PALETTE_HEAT0);
			ck_assert_int_eq(sv_palette_call(&m, p, (uint32_t)c,
						 SV_PALETTE_MODE_SELF),
				SV_GRID_NCOLORS);
		}
	}
	for (k = 0; k < SV_PALETTE_MODE_COUNT; k++) {
		ck_assert_ptr_nonnull(sv_palette_mode_help(k));
		ck_assert_int_eq(
			sv_palette_mode_from_name(sv_palette_mode_name(k)), k);
	}
	ck_assert_int_eq(sv_palette_mode_from_name("nope"), -1);
	ck_assert_ptr_null(sv_palette_mode_name(-1));
	ck_assert_int_eq(sv_palette_call(&m, p, 9999, 0), 0);
	sv_palette_map_fini(&m);
	sv_profile_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("palette");
	TCase *tc = tcase_create("palette");
	tcase_add_test(tc, test_palette_distinct);
	tcase_add_test(tc, test_fill_patterns);
	suite_add_tcase(s, tc);
	tc = tcase_create("assign");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_assign_nested);
	tcase_add_test(tc, test_assign_demo);
	tcase_add_test(tc, test_modes);
	suite_add_tcase(s, tc);
	return svt_run(s);
}
