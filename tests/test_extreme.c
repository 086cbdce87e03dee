/*
 * test_extreme.c: any int64 times a file can hold give defined behaviour
 * (issue 16, defect 4; issue 40).  A table of profiles with times at
 * INT64_MIN and INT64_MAX, straddling 2^62 and with 2^63 - 1 durations
 * (several of them in one region, one rank, across ranks and nested, so
 * that every sum of durations would pass INT64_MAX) goes through nesting,
 * statistics, the summary table and the draw of every view: the timeline
 * with its ruler, overview, colour modes, ranks strip and rank rows, the
 * statistics screen and panel, the call tree, flame graph, callers, ranks
 * matrix, histogram and call list, each also with a second run beside
 * it, at several terminal sizes.  Run under the ASAN+UBSAN build
 * (-fno-sanitize-recover=all), any signed overflow aborts the test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/grid.h"
#include "scopeview/keys.h"
#include "scopeview/profile.h"
#include "scopeview/snapshot.h"
#include "scopeview/stats.h"
#include "scopeview/summary.h"
#include "scopeview/view.h"

#define P62 ((int64_t)1 << 62)

struct extreme_call {
	int64_t start, end;
	uint32_t rank, region; /* region: 0 "region", 1 "other" */
};

#define EXTREME_MAX_CALLS 4

static const struct extreme_case {
	const char *what;
	struct extreme_call calls[EXTREME_MAX_CALLS];
	size_t ncalls;
	bool meta;            /* start/finalize metadata */
	int64_t start, final; /* with meta */
	int64_t thread;       /* -1: no thread column */
} extreme_cases[] = {
	{"full range", {{INT64_MIN, INT64_MAX, 0, 0}, {0, 1, 0, 0}}, 2, false,
		0, 0, -1},
	{"min only",
		{{INT64_MIN, INT64_MIN, 0, 0},
			{INT64_MIN, INT64_MIN + 1, 0, 0}},
		2, false, 0, 0, -1},
	{"max only",
		{{INT64_MAX - 1, INT64_MAX, 0, 0},
			{INT64_MAX, INT64_MAX, 0, 0}},
		2, false, 0, 0, -1},
	{"straddling 2^62",
		{{P62 - 1, P62 + 1, 0, 0}, {P62 - 1, P62, 0, 0},
			{P62, P62 + 1, 0, 0}},
		3, false, 0, 0, -1},
	{"2^63-1 duration", {{0, INT64_MAX, 0, 0}, {-1, INT64_MAX - 1, 0, 0}},
		2, false, 0, 0, -1},
	{"negative 2^62", {{-P62 - 1, -P62 + 1, 0, 0}, {-P62, -P62, 0, 0}}, 2,
		false, 0, 0, -1},
	{"meta full range", {{0, 10, 0, 0}}, 1, true, INT64_MIN, INT64_MAX, -1},
	{"meta reversed", {{0, 10, 0, 0}}, 1, true, INT64_MAX, INT64_MIN, -1},
	{"thread INT64_MAX", {{0, 10, 0, 0}, {5, 20, 0, 0}}, 2, false, 0, 0,
		INT64_MAX},
	{"reversed call", {{INT64_MAX, INT64_MIN, 0, 0}}, 1, true, INT64_MIN, 0,
		0},
	/* Sums of durations past INT64_MAX (issue 40: the colour map's
	 * weights overflowed at 9223372036854775788 + 9223372036854775798):
	 * two calls of 2^63 - 1 one after the other, */
	{"two 2^63-1 calls", {{INT64_MIN, -1, 0, 0}, {0, INT64_MAX, 0, 0}}, 2,
		false, 0, 0, -1},
	/* on three ranks, */
	{"2^63-1 on each rank",
		{{0, INT64_MAX, 0, 0}, {0, INT64_MAX, 1, 0},
			{INT64_MIN, -1, 2, 0}},
		3, false, 0, 0, -1},
	/* in two regions of a rank and again on another, */
	{"2^63-1 in each region",
		{{INT64_MIN, -1, 0, 0}, {0, INT64_MAX, 0, 1},
			{INT64_MIN + 1, INT64_MAX - 1, 1, 1},
			{0, INT64_MAX, 1, 0}},
		4, false, 0, 0, -1},
	/* on two call paths of one region (the callers view sums them), */
	{"2^63-1 on two paths",
		{{INT64_MIN, INT64_MAX, 0, 0},
			{INT64_MIN + 1, INT64_MAX - 1, 0, 1},
			{INT64_MIN, INT64_MAX, 1, 1}},
		3, false, 0, 0, -1},
	/* and nested: children of 2^63 - 1 in a parent that saturates. */
	{"nested 2^63-1",
		{{INT64_MIN, INT64_MAX, 0, 0}, {INT64_MIN + 1, -1, 0, 1},
			{0, INT64_MAX - 1, 0, 1}},
		3, false, 0, 0, -1},
};

static struct sv_profile *extreme_profile(const struct extreme_case *x)
{
	static const char *const names[] = {"region", "other"};
	struct sv_profile *p = sv_profile_new("extreme.h5");
	uint32_t regions[2];
	size_t i, j;

	p->schema = 3;
	p->has_calls = true;
	for (i = 0; i < 2; i++)
		regions[i] = sv_profile_add_region(p, names[i]);
	if (x->thread >= 0)
		sv_profile_column(p, &p->thread_id, -1);
	/* One row per (rank, region), in the order the calls name them;
	 * its calls in the table's order. */
	for (i = 0; i < x->ncalls; i++) {
		const struct extreme_call *c = &x->calls[i];
		size_t n = 0, k = 0;
		struct sv_row *r;
		for (j = 0; j < i; j++)
			if (x->calls[j].rank == c->rank &&
				x->calls[j].region == c->region)
				break;
		if (j < i)
			continue; /* its row is made */
		for (j = i; j < x->ncalls; j++)
			n += x->calls[j].rank == c->rank &&
			     x->calls[j].region == c->region;
		r = sv_profile_add_row(p, c->rank, regions[c->region], n, NULL);
		ck_assert_ptr_nonnull(r);
		for (j = i; j < x->ncalls; j++) {
			if (x->calls[j].rank != c->rank ||
				x->calls[j].region != c->region)
				continue;
			p->start_ns[r->first + k] = x->calls[j].start;
			p->end_ns[r->first + k] = x->calls[j].end;
			if (x->thread >= 0)
				p->thread_id[r->first + k] =
					x->thread - (int64_t)j;
			k++;
		}
	}
	if (x->meta) {
		struct sv_meta *m =
			sv_profile_add_meta(p, "start_time_ns", SV_META_INT);
		m->i = x->start;
		m->text = sv_xasprintf("%lld", (long long)x->start);
		m = sv_profile_add_meta(p, "finalize_time_ns", SV_META_INT);
		m->i = x->final;
		m->text = sv_xasprintf("%lld", (long long)x->final);
	}
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

#define EXTREME_NCASES (sizeof extreme_cases / sizeof extreme_cases[0])

/* Durations as schema 3 stores them, near 2^63 from starts of a real run
 * (the ends would pass INT64_MAX), with time spent awaiting: a mutation
 * of the fixtures that overflowed the timeline's busy shading and its
 * awaited share (issue 40). */
static struct sv_profile *extreme_stored(void)
{
	static const int64_t start[] = {
		1700000001000, 1700000001007, 1700000021022, 1700000021030};
	static const int64_t dur[] = {
		INT64_MAX - 20, INT64_MAX - 9, INT64_MAX - 20, INT64_MAX - 9};
	struct sv_profile *p = sv_profile_new("stored.h5");
	uint32_t g = sv_profile_add_region(p, "region");
	uint32_t rank;
	size_t i;

	p->schema = 3;
	p->has_calls = true;
	sv_profile_column(p, &p->await_ns, 0);
	for (rank = 0; rank < 2; rank++) {
		struct sv_row *r = sv_profile_add_row(p, rank, g, 4, NULL);
		ck_assert_ptr_nonnull(r);
		for (i = 0; i < 4; i++) {
			p->start_ns[r->first + i] = start[i];
			p->end_ns[r->first + i] = dur[i];
			p->await_ns[r->first + i] = 5 + (int64_t)i;
		}
	}
	p->end_is_duration = true;
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

/* Case i of the table, or past its end the stored durations. */
static struct sv_profile *extreme_make(size_t i, const char **what)
{
	if (i < EXTREME_NCASES) {
		*what = extreme_cases[i].what;
		return extreme_profile(&extreme_cases[i]);
	}
	*what = "stored durations near 2^63";
	return extreme_stored();
}

START_TEST(test_extreme_stats)
{
	/* given extreme times; when the statistics and the summary table are
	 * computed; then nothing overflows and the text is written */
	const char *what;
	struct sv_profile *p = extreme_make((size_t)_i, &what);
	struct sv_stats_table t;
	struct sv_summary_opts o;
	struct sv_error err;
	FILE *out = tmpfile();

	memset(&t, 0, sizeof t);
	memset(&o, 0, sizeof o);
	ck_assert_msg(sv_stats_table_compute(&t, p, NULL, &err) == 0, "%s: %s",
		what, err.msg);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(sv_summary_write(out, p, &t, &o), 0);
	fclose(out);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

/* Key scripts, each ending in the state it draws (a snapshot draws once,
 * after the last key), that reach every view and what it draws from sums
 * of durations. */
static const char *const extreme_scripts[] = {
	"",
	"Tab Tab + + + + Home End - - - -",
	"z Z 0 $ l l h h j k Enter",
	"V",
	"V p > > <",
	"p j Enter",
	"/ r e g Enter n N",
	/* the timeline coloured by duration, self time and rank */
	"y",
	"y y",
	"y y y",
	/* a region marked: the ranks strip; rank rows at three depths, and
	 * coloured by rank */
	"p Enter p",
	"p j Enter p",
	"p Enter p b",
	"p Enter p b (",
	"p Enter p b ) )",
	"p j Enter p b y y y",
	/* the call tree, flame graph and callers, opened and sorted */
	"T",
	"T * j l > >",
	"F",
	"F j l",
	"C",
	"C j > <",
	"p j Enter C",
	/* the ranks matrix: each metric, worst first, expanded, all ranks */
	"B",
	"B x",
	"B x x",
	"B x x x",
	"B s e a j l",
	/* the histogram and the call list of a marked region */
	"p Enter H",
	"p Enter H + + + +",
	"p j Enter H - - - Space j",
	"p Enter L",
	"p Enter L > > r",
	"p j Enter L > > > > > End",
	/* the trend of a marked region: the chart, zoomed, the rank rows,
	 * the next change point, exclusive times, a click on the chart */
	"p Enter E",
	"p j Enter E b + + c",
	"p j Enter E x - b G",
	"E b Click:12,5 j",
};

#define EXTREME_NSCRIPTS (sizeof extreme_scripts / sizeof extreme_scripts[0])

/* Draw p after each script at several sizes, with second beside it when
 * not NULL. */
static void extreme_draw_all(const char *what, const struct sv_profile *p,
	const struct sv_profile *second)
{
	static const struct {
		int w, h;
	} sizes[] = {{1, 1}, {20, 6}, {80, 24}, {203, 61}};
	struct sv_view_opts o = {.second = second, .second_title = "two"};
	size_t si, ki;

	for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
		for (ki = 0; ki < EXTREME_NSCRIPTS; ki++) {
			struct sv_grid g;
			struct sv_error err;
			int *keys = NULL;
			size_t n = 0;
			ck_assert_msg(sv_keys_parse_script(extreme_scripts[ki],
					      &keys, &n, &err) == 0,
				"%s", err.msg);
			sv_grid_init(&g);
			ck_assert_msg(
				sv_snapshot_draw(&g, p, sizes[si].w,
					sizes[si].h, keys, n, &o, &err) == 0,
				"%s: %s", what, err.msg);
			sv_grid_fini(&g);
			free(keys);
		}
}

START_TEST(test_extreme_draw)
{
	/* given extreme times; when every view is drawn at several sizes after
	 * zooming, panning, stepping and switching views; then nothing
	 * overflows */
	const char *what;
	struct sv_profile *p = extreme_make((size_t)_i, &what);

	extreme_draw_all(what, p, NULL);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_extreme_two_runs)
{
	/* the same with a second run: the same calls, and the next case's */
	const char *what, *other;
	struct sv_profile *p = extreme_make((size_t)_i, &what);
	struct sv_profile *same = extreme_make((size_t)_i, &what);
	struct sv_profile *next =
		extreme_make(((size_t)_i + 1) % (EXTREME_NCASES + 1), &other);

	extreme_draw_all(what, p, same);
	extreme_draw_all(what, p, next);
	sv_profile_free(next);
	sv_profile_free(same);
	sv_profile_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("extreme");
	TCase *t = tcase_create("times");
	int n = (int)EXTREME_NCASES + 1; /* and the stored durations */
	tcase_add_loop_test(t, test_extreme_stats, 0, n);
	tcase_add_loop_test(t, test_extreme_draw, 0, n);
	tcase_add_loop_test(t, test_extreme_two_runs, 0, n);
	suite_add_tcase(s, t);
	return svt_run(s);
}
