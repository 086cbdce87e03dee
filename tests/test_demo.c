/*
 * test_demo.c: the built-in demo profile (demo.h): written once into the
 * cache directory the environment names, keyed by version, reused while
 * valid, replaced when damaged, and loadable with everything the viewer
 * shows (ranks, threads, tasks, GPU and await data, recursion, a hot spot,
 * a slow rank).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sv_version.h"
#include "helpers.h"
#include "scopeview/demo.h"
#include "scopeview/load.h"
#include "scopeview/profile.h"
#include "scopeview/keys.h"
#include "scopeview/snapshot.h"
#include "viewtest.h"

static struct sv_profile *load_ok(const char *path)
{
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	int rc = sv_load(path, NULL, &p, &err);
	ck_assert_msg(rc == 0, "sv_load %s: %s", path, err.msg);
	ck_assert_uint_eq(p->nwarnings, 0);
	return p;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

START_TEST(test_demo)
{
	char *xdg = svt_tmp_path("xdg"), *want;
	char buf[4096];
	struct sv_error err = {0};
	struct stat st1, st2;
	struct sv_profile *p;
	uint32_t r;
	double t0;
	FILE *f;

	setenv("XDG_CACHE_HOME", xdg, 1);
	want = malloc(strlen(xdg) + 64);
	sprintf(want, "%s/scopeview/demo-%s.h5", xdg, SV_VERSION);

	t0 = now_s();
	ck_assert_msg(sv_demo_path(buf, sizeof buf, &err) == 0, "%s", err.msg);
	ck_assert_double_lt(now_s() - t0, 5.0);
	ck_assert_str_eq(buf, want);
	ck_assert_int_eq(stat(buf, &st1), 0);

	p = load_ok(buf);
	ck_assert_uint_eq(p->num_ranks, 4);
	ck_assert_ptr_nonnull(p->gpu_ns);
	ck_assert_ptr_nonnull(p->await_ns);
	ck_assert_ptr_nonnull(p->task_id);
	ck_assert_uint_ge(p->nthreads, 8);
	ck_assert_uint_ge(p->ntasks, 8);
	ck_assert_int_ge(sv_profile_find_region(p, "fib"), 0);
	ck_assert_int_ge(sv_profile_find_region(p, "kernel:precondition"), 0);
	for (r = 0; r < 4; r++) {
		size_t i;
		bool has = false;
		for (i = 0; i < p->nrows; i++)
			has |= p->rows[i].rank == r;
		ck_assert(has);
	}
	sv_profile_free(p);

	/* Reused, not rewritten. */
	ck_assert_int_eq(sv_demo_path(buf, sizeof buf, &err), 0);
	ck_assert_int_eq(stat(buf, &st2), 0);
	ck_assert_uint_eq(st1.st_ino, st2.st_ino);

	/* A damaged cache file is replaced. */
	f = fopen(buf, "w");
	fputs("not hdf5", f);
	fclose(f);
	ck_assert_int_eq(sv_demo_path(buf, sizeof buf, &err), 0);
	p = load_ok(buf);
	sv_profile_free(p);

	/* A readable profile that is not this generator's demo (an older
	 * generator's, say) is replaced too. */
	{
		struct sv_gen_opts o;
		const struct sv_meta *m;
		sv_gen_opts_init(&o);
		o.events = 100;
		ck_assert_int_eq(sv_gen_write(buf, &o, NULL, NULL, &err), 0);
		ck_assert_int_eq(sv_demo_path(buf, sizeof buf, &err), 0);
		p = load_ok(buf);
		m = sv_profile_meta(p, "label");
		ck_assert_ptr_nonnull(m);
		ck_assert_ptr_nonnull(strstr(m->text, "scopeview demo"));
		ck_assert_ptr_nonnull(strstr(m->text, SV_VERSION));
		ck_assert_uint_eq(p->num_ranks, 4);
		sv_profile_free(p);
	}

	/* Too small a buffer. */
	ck_assert_int_eq(sv_demo_path(buf, 8, &err), -ENAMETOOLONG);

	/* An unusable XDG_CACHE_HOME falls back to ~/.cache. */
	setenv("XDG_CACHE_HOME", "/proc/no-such-dir", 1);
	setenv("HOME", xdg, 1);
	ck_assert_int_eq(sv_demo_path(buf, sizeof buf, &err), 0);
	sprintf(want, "%s/.cache/scopeview/demo-%s.h5", xdg, SV_VERSION);
	ck_assert_str_eq(buf, want);
	free(want);
	free(xdg);
}
END_TEST

/* The demo has one slow rank: its preconditioner takes longest. */
START_TEST(test_demo_slow_rank)
{
	struct sv_gen_opts o;
	char *path = svt_tmp_path("demo.h5");
	struct sv_error err = {0};
	struct sv_profile *p;
	int64_t best = -1;
	uint32_t best_rank = 0;
	size_t i;

	sv_demo_opts(&o);
	ck_assert_int_eq(sv_gen_opts_check(&o, &err), 0);
	ck_assert_int_eq(sv_demo_write(path, &err), 0);
	p = load_ok(path);
	for (i = 0; i < p->nrows; i++) {
		if (strcmp(p->regions[p->rows[i].region],
			    "kernel:precondition"))
			continue;
		if (p->rows[i].summary.total > best) {
			best = p->rows[i].summary.total;
			best_rank = p->rows[i].rank;
		}
	}
	ck_assert_int_gt(best, 0);
	ck_assert_uint_eq(best_rank, sv_gen_slow_rank(&o));
	sv_profile_free(p);
	free(path);
}
END_TEST

/* Screens of navigation on the demo at 160x45 (file NULL) or on a
 * fixture, after keys: each a golden in tests/golden/NAME.txt. */
static const struct {
	const char *name, *file, *keys;
	int w, h;
} screens[] = {
	/* at 160x30 the demo opens folded; unfolded (Z), PgDn scrolls a
	 * page, not a row */
	{"nav_page_down", NULL, "Z PageDown", 160, 30},
	/* the demo's four ranks folded at 160x30, one track each */
	{"nav_open_folded", NULL, "", 160, 30},
	/* the folded tracks down to depth 2 (five ( from all seven) */
	{"nav_fold_depth", NULL, "( ( ( ( (", 160, 30},
	/* with one lane soloed, a search says the calls on hidden lanes */
	{"nav_solo_search", NULL, "j j j j j j j j j t / c h e c k s u m Enter",
		160, 45},
	/* at 80 columns a message's head is cut, never its key hint */
	{"nav_message_hint", NULL, "p", 80, 24},
	/* Tab's candidates on rows above the prompt, long names cut where
	 * they differ, the count of those on screen on the right */
	{"nav_complete_rows", NULL, ": r e g i o n Space m Tab", 80, 24},
	/* a selected call's ids packed onto whole fields at 80 columns */
	{"nav_details_80", NULL, "Tab", 80, 24},
	/* zooming out stops at the whole run; d does not pan past its end */
	{"nav_zoom_out_stops", NULL, "- - - d", 160, 45},
	/* a count repeats a move: 20 columns right, 3 rows down */
	{"nav_count_prefix", NULL, "2 0 l 3 j", 160, 45},
	/* G: the window at the run's end */
	{"nav_go_end", NULL, "+ + G", 160, 45},
	/* :goto without a unit is refused and says why */
	{"nav_goto_no_unit", NULL, ": g o t o Space 3 0 Enter", 160, 45},
	/* :goto past the end lands at the end and says so */
	{"nav_goto_clamped", NULL, ": g o t o Space 9 0 m s Enter", 160, 45},
	/* the panel's Enter lands on the region's longest call, zoomed in
	 * until it is readable */
	{"nav_jump_readable", NULL, "p j Enter", 160, 45},
	/* prompts edit at the cursor (typed two characters from the end) */
	{"nav_prompt_cursor", NULL, "/ f e t c h Left Left X", 160, 45},
	/* a pre-filled prompt shows its text selected: typing replaces it */
	{"nav_prompt_prefilled", NULL, "\\ f e t c h Enter \\", 160, 45},
	/* Up brings back what was entered at that prompt */
	{"nav_prompt_history", NULL,
		": g o t o Space 3 0 m s Enter : z o o m Space 1 m s Enter : "
		"Up Up",
		160, 45},
	/* Esc closes the prompt, and the zoom stays */
	{"nav_escape_prompt_first", NULL, "+ / a Escape", 160, 45},
	/* the panel's names cut where they differ (peer=N), then scrolled
	 * sideways in the panel */
	{"nav_panel_names", NULL, "", 160, 45},
	{"nav_panel_names_scrolled", NULL, "p l l l l l", 160, 45},
	/* :region with a prefix of several names lists them */
	{"nav_region_candidates", NULL, ": r e g i o n Space m p i : w Enter",
		160, 45},
	/* an aggregate file: marking a region says the file has no calls */
	{"nav_aggregate_mark", "aggregate_layout.h5", "p j Enter", 100, 24},
};

static struct sv_profile *demo_profile;

static void screens_setup(void)
{
	char *xdg = svt_tmp_path("xdg-screens");
	char buf[4096];
	struct sv_error err = {0};

	setenv("XDG_CACHE_HOME", xdg, 1);
	ck_assert_msg(sv_demo_path(buf, sizeof buf, &err) == 0, "%s", err.msg);
	demo_profile = load_ok(buf);
	free(xdg);
}

static void screens_teardown(void)
{
	sv_profile_free(demo_profile);
	demo_profile = NULL;
}

START_TEST(test_screens)
{
	struct sv_profile *p = demo_profile;
	struct sv_view_opts o = {.title = "demo"};
	struct sv_error err = {0};
	struct sv_grid g;
	int *keys = NULL;
	size_t n = 0;

	if (screens[_i].file) {
		char *fx = svt_fixture(screens[_i].file);
		p = NULL;
		ck_assert_msg(sv_load(fx, NULL, &p, &err) == 0, "%s", err.msg);
		free(fx);
	}
	ck_assert_int_eq(
		sv_keys_parse_script(screens[_i].keys, &keys, &n, &err), 0);
	sv_grid_init(&g);
	ck_assert_int_eq(sv_snapshot_draw(&g, p, screens[_i].w, screens[_i].h,
				 keys, n, &o, &err),
		0);
	vt_golden(&g, screens[_i].name);
	sv_grid_fini(&g);
	free(keys);
	if (p != demo_profile)
		sv_profile_free(p);
}
END_TEST

/* A cache directory others can write (a shared /tmp/scopeview-<uid> made
 * by someone else, say) is passed over, as ssh passes over such a
 * ~/.ssh: the demo goes to the next candidate. */
START_TEST(test_demo_untrusted_dir)
{
	char *xdg = svt_tmp_path("xdg-shared"), *home = svt_tmp_path("home");
	char *dir = malloc(strlen(xdg) + 32), *want = malloc(strlen(home) + 64);
	char buf[4096];
	struct sv_error err = {0};

	sprintf(dir, "%s/scopeview", xdg);
	ck_assert_int_eq(mkdir(xdg, 0700), 0);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	ck_assert_int_eq(chmod(dir, 0777), 0);
	setenv("XDG_CACHE_HOME", xdg, 1);
	setenv("HOME", home, 1);
	sprintf(want, "%s/.cache/scopeview/demo-%s.h5", home, SV_VERSION);
	ck_assert_msg(sv_demo_path(buf, sizeof buf, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(buf, want);
	/* Made ours alone again, it is used. */
	ck_assert_int_eq(chmod(dir, 0700), 0);
	ck_assert_msg(sv_demo_path(buf, sizeof buf, &err) == 0, "%s", err.msg);
	ck_assert_ptr_eq(strstr(buf, dir), buf);
	free(dir);
	free(want);
	free(xdg);
	free(home);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("demo");
	TCase *t = tcase_create("demo");
	tcase_add_test(t, test_demo);
	tcase_add_test(t, test_demo_slow_rank);
	tcase_add_test(t, test_demo_untrusted_dir);
	suite_add_tcase(s, t);
	t = tcase_create("screens");
	tcase_add_unchecked_fixture(t, screens_setup, screens_teardown);
	tcase_add_loop_test(
		t, test_screens, 0, sizeof screens / sizeof screens[0]);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
