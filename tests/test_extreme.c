/*
 * test_extreme.c: any int64 times a file can hold give defined behaviour
 * (issue 16, defect 4; issue 40).  A table of profiles with times at
 * INT64_MIN and INT64_MAX, straddling 2^62 and with 2^63 - 1 durations
 * (several of them in one region, one rank, across ranks and nested, so
 * that every sum of durations would pass INT64_MAX) goes through nesting,
 * statistics, the summary table and the draw of every view: the timeline
 * with its ruler, overview, colour modes, ranks strip, rank rows and
 * folded rank tracks (z, Z), details, ranges and filters, the statistics
 * screen and panel, the popups, the call tree, flame graph, callers,
 * ranks matrix, histogram and call list, each also with a second run
 * beside it (the panel sorted by the change, the matrix's change per
 * rank), at several terminal sizes.  The models over runs and iterations
 * (scaling, trend) and their reports follow, and then every report
 * command (summary, tree, ranks, calls, diff, scaling, trend, export in
 * each format) reads the profile written as a file by the converter.
 * Profiles with next to nothing in them (no calls, rows of no calls, one
 * call, a region never called) go the same way, for the empty arrays a
 * view or a model may hand to qsort or memcpy as NULL.
 * Run under the ASAN+UBSAN build (-fno-sanitize-recover=all), any signed
 * overflow aborts the test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/cli.h"
#include "scopeview/convert.h"
#include "scopeview/grid.h"
#include "scopeview/keys.h"
#include "scopeview/profile.h"
#include "scopeview/report.h"
#include "scopeview/scaling.h"
#include "scopeview/snapshot.h"
#include "scopeview/stats.h"
#include "scopeview/summary.h"
#include "scopeview/trend.h"
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

/* Profiles with little or nothing in them, where a view's or a model's
 * array is empty and its pointer may be NULL: a qsort, memcpy or bsearch
 * of no elements from NULL is undefined (the callers view sorted its
 * empty list that way) and UBSan reports it.  Each: rows (rank, region,
 * calls), the calls in order. */
static const struct extreme_odd {
	const char *what;
	struct {
		uint32_t rank, region, n;
	} rows[3];
	size_t nrows;
} extreme_odds[] = {
	{"no calls at all", {{0, 0, 0}}, 0},
	{"a row of no calls", {{0, 0, 0}, {0, 1, 1}}, 2},
	{"one call", {{0, 0, 1}}, 1},
	{"a region never called", {{0, 0, 2}, {1, 1, 0}}, 2},
	{"rows of no calls only", {{0, 0, 0}, {1, 1, 0}, {2, 0, 0}}, 3},
};

#define EXTREME_NODDS (sizeof extreme_odds / sizeof extreme_odds[0])

static struct sv_profile *extreme_odd(const struct extreme_odd *x)
{
	struct sv_profile *p = sv_profile_new("odd.h5");
	uint32_t regions[2];
	int64_t t = 100;
	size_t i, k;

	p->schema = 3;
	p->has_calls = true;
	regions[0] = sv_profile_add_region(p, "region");
	regions[1] = sv_profile_add_region(p, "other");
	for (i = 0; i < x->nrows; i++) {
		struct sv_row *r = sv_profile_add_row(p, x->rows[i].rank,
			regions[x->rows[i].region], x->rows[i].n, NULL);
		ck_assert_ptr_nonnull(r);
		/* nested: each call inside the one before */
		for (k = 0; k < x->rows[i].n; k++) {
			p->start_ns[r->first + k] = t + (int64_t)k;
			p->end_ns[r->first + k] = t + 50 - (int64_t)k;
		}
		t += 100;
	}
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

/* Every case: the table's, the stored durations, the odd profiles. */
#define EXTREME_ALL (EXTREME_NCASES + 1 + EXTREME_NODDS)

/* Case i of the table, past its end the stored durations, then the odd
 * profiles. */
static struct sv_profile *extreme_make(size_t i, const char **what)
{
	if (i < EXTREME_NCASES) {
		*what = extreme_cases[i].what;
		return extreme_profile(&extreme_cases[i]);
	}
	if (i > EXTREME_NCASES) {
		*what = extreme_odds[i - EXTREME_NCASES - 1].what;
		return extreme_odd(&extreme_odds[i - EXTREME_NCASES - 1]);
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
	/* the folded rank tracks (z/Z): one rank, every rank, at each depth,
	 * coloured, stepped through and unfolded */
	"z",
	"Z",
	"Z ( ( (",
	"Z ) ) ) )",
	"Z y y y",
	"Z j j Tab Tab z",
	"Z p Enter p",
	"Z Z",
	/* the details box, ranges and the statistics of a span */
	"Tab D",
	"Tab o",
	"O S",
	"m l l M S S",
	"Tab o V",
	"Tab o T",
	"Tab o F j",
	": g o t o Space 1 s Enter",
	": r a n g e Space 1 n s : 9 9 9 9 9 9 d Enter",
	/* popups: source, metadata, warnings, contents */
	"Tab v",
	"i",
	"W",
	"I",
	/* filters: region, rank */
	"\\ r e g Enter",
	"r 0 Enter",
	/* the tree's recursion and callers, the histogram's source */
	"T e c",
	"p Enter H m",
	"B e a m",
	/* two runs: the panel by the change, the matrix's change per rank */
	": s o r t Space d e l t a Enter p",
	": s o r t Space d e l t a % Enter p",
	"B x x x x",
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
		extreme_make(((size_t)_i + 1) % EXTREME_ALL, &other);

	extreme_draw_all(what, p, same);
	extreme_draw_all(what, p, next);
	sv_profile_free(next);
	sv_profile_free(same);
	sv_profile_free(p);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The models and reports over several runs and iterations             */

START_TEST(test_extreme_trend)
{
	/* given extreme times; when each region's trend is computed (both
	 * metrics) and reported in every format; then nothing overflows */
	const char *what;
	struct sv_profile *p = extreme_make((size_t)_i, &what);
	uint32_t r;
	int metric, fmt;

	for (r = 0; r < p->nregions; r++)
		for (metric = 0; metric < 2; metric++) {
			struct sv_trend_opts o = {
				.metric = (enum sv_trend_metric)metric};
			struct sv_trend t;
			struct sv_error err = {0};
			ck_assert_msg(sv_trend_compute(&t, p, r, &o, &err) == 0,
				"%s: %s", what, err.msg);
			for (fmt = 0; fmt < 3; fmt++) {
				FILE *out = tmpfile();
				ck_assert_ptr_nonnull(out);
				ck_assert_int_eq(
					sv_report_trend(out, p, &t, NULL,
						(enum sv_report_format)fmt),
					0);
				fclose(out);
			}
			sv_trend_fini(&t);
		}
	sv_profile_free(p);
}
END_TEST

START_TEST(test_extreme_scaling)
{
	/* given extreme runs (the case twice and the next case); when a
	 * scaling study over them is computed and reported in every format;
	 * then nothing overflows */
	const char *what, *other;
	struct sv_profile *runs[3];
	struct sv_scaling_opts o = {0};
	struct sv_scaling sc;
	struct sv_error err = {0};
	int fmt;
	size_t i;

	runs[0] = extreme_make((size_t)_i, &what);
	runs[1] = extreme_make((size_t)_i, &what);
	runs[2] = extreme_make(((size_t)_i + 1) % EXTREME_ALL, &other);
	runs[2]->num_ranks = runs[0]->num_ranks * 2 + 1;
	ck_assert_msg(
		sv_scaling_compute(&sc, (const struct sv_profile *const *)runs,
			NULL, 3, &o, &err) == 0,
		"%s: %s", what, err.msg);
	for (fmt = 0; fmt < 3; fmt++) {
		FILE *out = tmpfile();
		ck_assert_ptr_nonnull(out);
		ck_assert_int_eq(
			sv_report_scaling(out, &sc, (enum sv_report_format)fmt),
			0);
		fclose(out);
	}
	sv_scaling_fini(&sc);
	for (i = 0; i < 3; i++)
		sv_profile_free(runs[i]);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Every command over the profile written as a file                    */

struct extreme_cmd {
	int argc;
	char *argv[12];
};

static int extreme_cmd_run(void *ctx)
{
	struct extreme_cmd *c = ctx;
	size_t i;

	for (i = 1; i < sv_cli_ncommands; i++)
		if (!strcmp(c->argv[0], sv_cli_commands[i]->name))
			return sv_cli_run(sv_cli_commands[i], c->argc, c->argv);
	ck_abort_msg("no command %s", c->argv[0]);
	return -1;
}

/* The command lines: @A and @B are the case's file and the next case's,
 * @O an output file. */
static const char *const extreme_cmds[][10] = {
	{"summary", "@A"},
	{"summary", "--format", "json", "--per-rank", "@A"},
	{"summary", "--group-by", "rank", "@A"},
	{"tree", "@A"},
	{"tree", "--format", "json", "--expand-recursion", "@A"},
	{"tree", "--format", "csv", "--range", "0:1s", "@A"},
	{"ranks", "@A"},
	{"ranks", "--format", "json", "@A"},
	{"calls", "--region", "region", "@A"},
	{"calls", "--region", "region", "--histogram", "7", "@A"},
	{"calls", "--region", "other", "--format", "json", "--sort", "start",
		"@A"},
	{"diff", "@A", "@B"},
	{"diff", "--format", "json", "--fail-above", "5", "@B", "@A"},
	{"scaling", "@A", "@B", "@A"},
	{"scaling", "--format", "json", "@B", "@A"},
	{"trend", "--region", "region", "@A"},
	{"trend", "--region", "region", "--metric", "exclusive", "--format",
		"json", "@A"},
	{"trend", "--region", "other", "--format", "csv", "@A"},
	{"export", "--format", "chrome", "-o", "@O", "@A"},
	{"export", "--format", "speedscope", "-o", "@O", "@A"},
	{"export", "--format", "csv", "-o", "@O", "@A"},
	{"export", "--format", "json", "-o", "@O", "@A"},
	{"export", "--format", "collapsed", "--range", "1ns:2s", "-o", "@O",
		"@A"},
};

START_TEST(test_extreme_commands)
{
	/* given the case written as a file (and the next case's); when every
	 * report command reads it; then each exits 0 (or 1, 3 for a region
	 * the case lacks or a regression), and nothing overflows */
	const char *what, *other;
	struct sv_profile *a = extreme_make((size_t)_i, &what);
	struct sv_profile *b =
		extreme_make(((size_t)_i + 1) % EXTREME_ALL, &other);
	char *pa = svt_tmp_path("a.h5"), *pb = svt_tmp_path("b.h5");
	char *po = svt_tmp_path("out");
	struct sv_error err = {0};
	size_t k, j;

	ck_assert_msg(sv_convert_write(a, pa, NULL, NULL, &err) == 0, "%s: %s",
		what, err.msg);
	ck_assert_msg(sv_convert_write(b, pb, NULL, NULL, &err) == 0, "%s: %s",
		other, err.msg);
	for (k = 0; k < sizeof extreme_cmds / sizeof extreme_cmds[0]; k++) {
		struct extreme_cmd c = {0};
		char *out = NULL, *errs = NULL;
		int rc;
		for (j = 0; j < 10 && extreme_cmds[k][j]; j++) {
			const char *w = extreme_cmds[k][j];
			c.argv[c.argc++] = !strcmp(w, "@A")   ? pa
					   : !strcmp(w, "@B") ? pb
					   : !strcmp(w, "@O") ? po
							      : (char *)w;
		}
		unlink(po);
		rc = svt_captured(extreme_cmd_run, &c, &out, &errs);
		ck_assert_msg(rc == 0 || rc == 1 || rc == 3,
			"%s: %s %s: exit %d: %s", what, c.argv[0], c.argv[1],
			rc, errs ? errs : "");
		free(out);
		free(errs);
	}
	unlink(pa);
	unlink(pb);
	unlink(po);
	free(pa);
	free(pb);
	free(po);
	sv_profile_free(a);
	sv_profile_free(b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("extreme");
	TCase *t = tcase_create("times");
	int n = (int)EXTREME_ALL; /* and the stored durations, the odd */
	tcase_add_loop_test(t, test_extreme_stats, 0, n);
	tcase_add_loop_test(t, test_extreme_draw, 0, n);
	tcase_add_loop_test(t, test_extreme_two_runs, 0, n);
	tcase_add_loop_test(t, test_extreme_trend, 0, n);
	tcase_add_loop_test(t, test_extreme_scaling, 0, n);
	tcase_add_loop_test(t, test_extreme_commands, 0, n);
	suite_add_tcase(s, t);
	return svt_run(s);
}
