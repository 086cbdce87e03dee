/*
 * test_runs.c: the runs workspace (runs.h) and its scaling view
 * (`:view scaling`, ui/mode_scaling.c) through `snapshot` (snapshot.h's
 * sv_snapshot_draw_runs, the same view the viewer opens on three or more
 * runs).  The runs are in-memory profiles made by a source whose load
 * builds one from its path ("r4": 4 ranks), so the figures are known
 * exactly: region "solve" takes 1 ms / ranks a call (ideal strong
 * scaling), "io" 10 us a call whatever the ranks, "halo" is missing from
 * the run at 8 ranks, and "bad" cannot be read.  Checks the study the
 * workspace makes against those figures, a failed run listed while the
 * others load, reading again, the pair, the list keys of the view, the
 * metric key, Enter on two points opening them on the two-run timeline
 * and Esc coming back, and golden screens.
 */
#include "scopeview/runs.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/snapshot.h"
#include "scopeview/view.h"
#include "viewtest.h"

/* "rN" or "rN-tag": a run of N ranks; anything else fails. */
static int fake_load(const char *path, const struct sv_load_opts *o,
	struct sv_profile **out, struct sv_error *err)
{
	struct vt_call c[64 * 4];
	size_t n = 0;
	int r, ranks;

	(void)o;
	if (path[0] != 'r' || (ranks = atoi(path + 1)) < 1 || ranks > 64)
		return sv_error_set(
			err, -EINVAL, "%s: not a profile (test)", path);
	for (r = 0; r < ranks; r++) {
		int64_t t = 0, solve = 1000000 / ranks;
		c[n++] = (struct vt_call){
			(uint32_t)r, "solve", t, t + solve, -1, -1, -1, 0};
		t += solve;
		c[n++] = (struct vt_call){
			(uint32_t)r, "solve", t, t + solve, -1, -1, -1, 0};
		t += solve;
		c[n++] = (struct vt_call){
			(uint32_t)r, "io", t, t + 10000, -1, -1, -1, 0};
		t += 10000;
		if (ranks != 8)
			c[n++] = (struct vt_call){(uint32_t)r, "halo", t,
				t + 2000 * ranks, -1, -1, -1, 0};
	}
	*out = vt_profile(c, n, 0);
	(*out)->num_ranks = (uint32_t)ranks;
	return 0;
}

static struct sv_runs *fake_runs(const char *const *paths, size_t n)
{
	struct sv_source src;

	memset(&src, 0, sizeof src);
	src.load = fake_load;
	return sv_runs_new(paths, n, &src, NULL, NULL);
}

/* Start r on jobs and take in every run. */
static void read_all(struct sv_runs *r, struct sv_jobs *jobs)
{
	int spins = 0;

	sv_runs_start(r, jobs);
	while (sv_runs_busy(r) && spins++ < 100000) {
		sv_jobs_poll(jobs);
		usleep(200);
	}
	ck_assert(!sv_runs_busy(r));
}

static const struct sv_scaling_region *region(
	const struct sv_scaling *s, const char *name)
{
	size_t i;
	for (i = 0; i < s->nregions; i++)
		if (!strcmp(s->regions[i].name, name))
			return &s->regions[i];
	return NULL;
}

START_TEST(test_study)
{
	static const char *const paths[] = {"r2", "bad", "r1", "r4", "r2-b"};
	struct sv_jobs jobs = {0};
	struct sv_runs *r = fake_runs(paths, 5);
	const struct sv_scaling_region *solve, *io;
	const struct sv_scaling *s;

	ck_assert(!sv_runs_busy(r));
	read_all(r, &jobs);
	ck_assert_uint_eq(r->measured, 4);
	ck_assert_uint_eq(r->failed, 1);
	ck_assert_int_eq(r->runs[1].state, SV_RUNS_FAILED);
	ck_assert_ptr_nonnull(strstr(r->runs[1].error, "bad: not a profile"));
	ck_assert_int_eq(r->runs[3].state, SV_RUNS_MEASURED);
	ck_assert_uint_eq(r->runs[3].calls, 4 * 4);
	ck_assert(r->has_study);
	s = &r->study;
	/* x = 1 2 4, the two runs at 2 ranks averaged into one point */
	ck_assert_uint_eq(s->npoints, 3);
	ck_assert_double_eq(s->baseline, 1);
	ck_assert_double_eq(s->xs[2], 4);
	solve = region(s, "solve");
	io = region(s, "io");
	ck_assert_ptr_nonnull(solve);
	ck_assert_ptr_nonnull(io);
	ck_assert_uint_eq(solve->points[1].runs, 2);
	ck_assert_double_eq_tol(solve->points[0].mean_duration, 1e-3, 1e-12);
	ck_assert_double_eq_tol(solve->points[2].speedup, 4, 1e-9);
	ck_assert_double_eq_tol(solve->points[2].efficiency, 1, 1e-9);
	ck_assert_double_eq_tol(io->points[2].speedup, 1, 1e-9);
	ck_assert_double_eq_tol(io->points[2].efficiency, 0.25, 1e-9);
	ck_assert_double_eq_tol(io->points[2].normalized_runtime, 1, 1e-9);
	/* the pair: two runs of the workspace, not one twice */
	ck_assert_int_eq(sv_runs_find(r, "r4"), 3);
	ck_assert_int_eq(sv_runs_find(r, "nosuch"), -1);
	ck_assert(sv_runs_set_pair(r, "r1", "r4"));
	ck_assert_str_eq(r->pair[1], "r4");
	ck_assert(!sv_runs_set_pair(r, "r1", "r1"));
	ck_assert(!sv_runs_set_pair(r, "r1", "nosuch"));
	/* again: everything waits, then the same study */
	sv_runs_reload(r);
	ck_assert(sv_runs_busy(r));
	read_all(r, &jobs);
	ck_assert_uint_eq(r->measured, 4);
	ck_assert(r->has_study);
	ck_assert_uint_eq(r->study.npoints, 3);
	sv_jobs_fini(&jobs);
	sv_runs_free(r);
}
END_TEST

/* A region missing from one run is left out; the rest go on. */
START_TEST(test_region_missing)
{
	static const char *const paths[] = {"r1", "r2", "r8"};
	struct sv_jobs jobs = {0};
	struct sv_runs *r = fake_runs(paths, 3);

	read_all(r, &jobs);
	ck_assert(r->has_study);
	ck_assert_ptr_null(region(&r->study, "halo"));
	ck_assert_ptr_nonnull(region(&r->study, "solve"));
	ck_assert(sv_scaling_x_doubles(&r->study) == false); /* 1 2 8 */
	sv_jobs_fini(&jobs);
	sv_runs_free(r);
}
END_TEST

/* Freed while a run is being read (the view's end): nothing leaks or
 * waits for ever. */
START_TEST(test_free_while_reading)
{
	static const char *const paths[] = {"r1", "r2", "r4"};
	struct sv_jobs jobs = {0};
	struct sv_runs *r = fake_runs(paths, 3);
	struct sv_profile *p = sv_runs_placeholder(r);

	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(p->ncalls, 0);
	sv_profile_free(p);
	sv_runs_start(r, &jobs);
	sv_runs_free(r);
	sv_jobs_fini(&jobs);
}
END_TEST

/* Stopped (its view ends, and with it the jobs): not busy, what was read
 * stays, and the workspace outlives the jobs; started again on other
 * jobs, it goes on from where it stopped. */
START_TEST(test_stop)
{
	static const char *const paths[] = {"r1", "r2", "r4"};
	struct sv_jobs jobs = {0}, more = {0};
	struct sv_runs *r = fake_runs(paths, 3);
	int spins = 0;

	sv_runs_start(r, &jobs);
	while (!r->measured && spins++ < 100000) {
		sv_jobs_poll(&jobs);
		usleep(100);
	}
	sv_runs_stop(r);
	ck_assert(!sv_runs_busy(r));
	ck_assert_uint_ge(r->measured, 1);
	ck_assert_ptr_null(r->jobs);
	sv_jobs_fini(&jobs);
	read_all(r, &more);
	ck_assert_uint_eq(r->measured, 3);
	ck_assert_uint_eq(r->failed, 0);
	ck_assert(r->has_study);
	sv_runs_stop(r);
	sv_jobs_fini(&more);
	sv_runs_free(r);
}
END_TEST

/* ---- the scaling view ----------------------------------------------- */

static const char *const four[] = {"r1", "r2", "r4", "r8"};

/* The screen after keys (a tmux-style script) over runs paths[0 .. n). */
static void screen(struct sv_grid *g, const char *const *paths, size_t n, int w,
	int h, const char *keys, bool ascii)
{
	struct sv_runs *r = fake_runs(paths, n);
	struct sv_view_opts o;
	struct sv_error err = {0};
	int *kv = NULL;
	size_t nk = 0;

	ck_assert_int_eq(sv_keys_parse_script(keys, &kv, &nk, &err), 0);
	memset(&o, 0, sizeof o);
	o.ascii = ascii;
	sv_grid_init(g);
	ck_assert_int_eq(
		sv_snapshot_draw_runs(g, r, w, h, kv, nk, &o, &err), 0);
	free(kv);
	sv_runs_free(r);
}

/* The screen's characters, one line a row (free it). */
static char *screen_text(const struct sv_grid *g)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sv_grid_write(g, f, SV_GRID_TEXT), 0);
	fclose(f);
	return text;
}

static bool screen_has(const struct sv_grid *g, const char *what)
{
	char *text = screen_text(g);
	bool has = strstr(text, what) != NULL;
	free(text);
	return has;
}

/* The status row's "point N/M". */
static long screen_point(const struct sv_grid *g)
{
	char *text = screen_text(g);
	size_t off = strstr(text, "  point ")
			     ? (size_t)(strstr(text, "  point ") - text)
			     : 0;
	long n = -1;

	if (off && sscanf(text + off, "  point %ld", &n) != 1)
		n = -1;
	free(text);
	return n;
}

static const struct {
	const char *golden, *keys;
	bool ascii;
	int w, h;
} goldens[] = {
	{"scaling_speedup", "", false, 120, 40},
	{"scaling_efficiency_ascii", "x 5 j", true, 100, 32},
	{"scaling_weak_selected", "x x / s o l v e Enter", false, 120, 40},
};

START_TEST(test_golden)
{
	struct sv_grid g;

	screen(&g, four, 4, goldens[_i].w, goldens[_i].h, goldens[_i].keys,
		goldens[_i].ascii);
	vt_golden(&g, goldens[_i].golden);
	sv_grid_fini(&g);
}
END_TEST

START_TEST(test_failed_run_listed)
{
	static const char *const paths[] = {"r1", "broken.h5", "r2", "r4"};
	struct sv_grid g;

	screen(&g, paths, 4, 120, 40, "", false);
	vt_golden(&g, "scaling_failed_run");
	ck_assert(screen_has(&g, "broken.h5: not a profile"));
	ck_assert(screen_has(&g, "3 runs, num_ranks 1 2 4"));
	sv_grid_fini(&g);
}
END_TEST

/* The shared list keys: 8 rows (2 regions x 4 points; "halo" is not in
 * every run). */
/* PageDown at 120 x 30 from the first row */
#define PAGE_DOWN 8

static const struct {
	const char *keys;
	long point;
} moves[] = {
	{"", 1}, {"j", 2}, {"j j k", 2}, {"5 j", 6}, {"G", 8}, {"End", 8},
	{"G Home", 1}, {"G g", 1}, {"7 G", 7}, {"PageDown", PAGE_DOWN},
	{"PageDown PageUp", 1}, {"9 9 j", 8},
	{"x j", 2},      /* x keeps the cursor */
	{"j Escape", 2}, /* Esc on the first view: the bell, nothing moves */
};

START_TEST(test_list_keys)
{
	struct sv_grid g;

	screen(&g, four, 4, 120, 30, moves[_i].keys, false);
	ck_assert_msg(screen_point(&g) == moves[_i].point,
		"after '%s': point %ld, wanted %ld", moves[_i].keys,
		screen_point(&g), moves[_i].point);
	sv_grid_fini(&g);
}
END_TEST

/* Enter marks, Enter on another x opens the pair on the two-run
 * timeline; Esc and q there come back to the study; q on the study
 * quits (it is the first view). */
START_TEST(test_pair)
{
	struct sv_grid g;

	screen(&g, four, 4, 120, 40, "Enter", false);
	ck_assert(screen_has(&g, "marked num_ranks 1 (r1)"));
	sv_grid_fini(&g);
	/* the pair on the two-run timeline: run B is the second point's */
	screen(&g, four, 4, 120, 40, "Enter j Enter", false);
	ck_assert(screen_has(&g, "B: r2"));
	ck_assert(screen_has(&g, "? help  q back")); /* q goes back here */
	ck_assert(!screen_has(&g, "num_ranks 1 2 4 8"));
	sv_grid_fini(&g);
	screen(&g, four, 4, 120, 40, "Enter 3 j Enter", false);
	ck_assert(screen_has(&g, "B: r8"));
	sv_grid_fini(&g);
	screen(&g, four, 4, 120, 40, "Enter 3 j Enter Escape", false);
	ck_assert(screen_has(&g, "num_ranks 1 2 4 8 (log2 axis)"));
	ck_assert_int_eq(screen_point(&g), 4);
	sv_grid_fini(&g);
	screen(&g, four, 4, 120, 40, "Enter 3 j Enter q", false);
	ck_assert(screen_has(&g, "num_ranks 1 2 4 8 (log2 axis)"));
	sv_grid_fini(&g);
	/* Enter twice on one point drops the mark; on a point at the same
	 * x in another region, the bell */
	screen(&g, four, 4, 120, 40, "Enter Enter", false);
	ck_assert(screen_has(&g, "mark dropped"));
	sv_grid_fini(&g);
	screen(&g, four, 4, 120, 40, "Enter 4 j Enter", false);
	ck_assert(screen_has(&g, "both points are at num_ranks 1"));
	sv_grid_fini(&g);
}
END_TEST

START_TEST(test_other_views_refused)
{
	struct sv_grid g;

	screen(&g, four, 4, 120, 40, ": v i e w Space t r e e Enter", false);
	ck_assert(screen_has(&g, "the runs workspace shows :view scaling"));
	sv_grid_fini(&g);
	screen(&g, four, 4, 120, 40, "V", false);
	ck_assert(screen_has(&g, "num_ranks 1 2 4 8"));
	sv_grid_fini(&g);
	/* / with no match keeps every region and says so */
	screen(&g, four, 4, 120, 40, "/ n o p e Enter", false);
	ck_assert(screen_has(&g, "no region matches 'nope'"));
	sv_grid_fini(&g);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("runs");
	TCase *tc = tcase_create("workspace");

	tcase_add_test(tc, test_study);
	tcase_add_test(tc, test_region_missing);
	tcase_add_test(tc, test_free_while_reading);
	tcase_add_test(tc, test_stop);
	suite_add_tcase(s, tc);
	tc = tcase_create("view");
	tcase_add_loop_test(
		tc, test_golden, 0, sizeof goldens / sizeof goldens[0]);
	tcase_add_test(tc, test_failed_run_listed);
	tcase_add_loop_test(
		tc, test_list_keys, 0, sizeof moves / sizeof moves[0]);
	tcase_add_test(tc, test_pair);
	tcase_add_test(tc, test_other_views_refused);
	suite_add_tcase(s, tc);
	return svt_run(s);
}
