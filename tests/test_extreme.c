/*
 * test_extreme.c: any int64 times a file can hold give defined behaviour
 * (issue 16, defect 4).  A table of profiles with times at INT64_MIN and
 * INT64_MAX, straddling 2^62 and with 2^63 - 1 durations goes through
 * nesting, statistics, the summary table and every view's draw (the
 * timeline with its ruler, the statistics screen, the panel) at several
 * terminal sizes.  Run under the ASAN+UBSAN build
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

#define P62 ((int64_t)1 << 62)

struct extreme_call {
	int64_t start, end;
};

static const struct extreme_case {
	const char *what;
	struct extreme_call calls[3];
	size_t ncalls;
	bool meta;            /* start/finalize metadata */
	int64_t start, final; /* with meta */
	int64_t thread;       /* -1: no thread column */
} extreme_cases[] = {
	{"full range", {{INT64_MIN, INT64_MAX}, {0, 1}}, 2, false, 0, 0, -1},
	{"min only", {{INT64_MIN, INT64_MIN}, {INT64_MIN, INT64_MIN + 1}}, 2,
		false, 0, 0, -1},
	{"max only", {{INT64_MAX - 1, INT64_MAX}, {INT64_MAX, INT64_MAX}}, 2,
		false, 0, 0, -1},
	{"straddling 2^62",
		{{P62 - 1, P62 + 1}, {P62 - 1, P62}, {P62, P62 + 1}}, 3, false,
		0, 0, -1},
	{"2^63-1 duration", {{0, INT64_MAX}, {-1, INT64_MAX - 1}}, 2, false, 0,
		0, -1},
	{"negative 2^62", {{-P62 - 1, -P62 + 1}, {-P62, -P62}}, 2, false, 0, 0,
		-1},
	{"meta full range", {{0, 10}}, 1, true, INT64_MIN, INT64_MAX, -1},
	{"meta reversed", {{0, 10}}, 1, true, INT64_MAX, INT64_MIN, -1},
	{"thread INT64_MAX", {{0, 10}, {5, 20}}, 2, false, 0, 0, INT64_MAX},
	{"reversed call", {{INT64_MAX, INT64_MIN}}, 1, true, INT64_MIN, 0, 0},
};

static struct sv_profile *extreme_profile(const struct extreme_case *x)
{
	struct sv_profile *p = sv_profile_new("extreme.h5");
	struct sv_row *r;
	size_t i;

	p->schema = 3;
	p->has_calls = true;
	r = sv_profile_add_row(
		p, 0, sv_profile_add_region(p, "region"), x->ncalls, NULL);
	ck_assert_ptr_nonnull(r);
	if (x->thread >= 0)
		sv_profile_column(p, &p->thread_id, -1);
	for (i = 0; i < x->ncalls; i++) {
		p->start_ns[r->first + i] = x->calls[i].start;
		p->end_ns[r->first + i] = x->calls[i].end;
		if (x->thread >= 0)
			p->thread_id[r->first + i] = x->thread - (int64_t)i;
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

START_TEST(test_extreme_stats)
{
	/* given extreme times; when the statistics and the summary table are
	 * computed; then nothing overflows and the text is written */
	const struct extreme_case *x = &extreme_cases[_i];
	struct sv_profile *p = extreme_profile(x);
	struct sv_stats_table t;
	struct sv_summary_opts o;
	struct sv_error err;
	FILE *out = tmpfile();

	memset(&t, 0, sizeof t);
	memset(&o, 0, sizeof o);
	ck_assert_msg(sv_stats_table_compute(&t, p, NULL, &err) == 0, "%s: %s",
		x->what, err.msg);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(sv_summary_write(out, p, &t, &o), 0);
	fclose(out);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_extreme_draw)
{
	/* given extreme times; when every view is drawn at several sizes after
	 * zooming, panning and stepping; then nothing overflows */
	static const struct {
		int w, h;
	} sizes[] = {{1, 1}, {20, 6}, {80, 24}, {203, 61}};
	static const char *const scripts[] = {
		"",
		"Tab Tab + + + + Home End - - - -",
		"z Z 0 $ l l h h j k Enter",
		"V",
		"V p > > <",
		"p j Enter",
		"/ r e g Enter n N",
	};
	const struct extreme_case *x = &extreme_cases[_i];
	struct sv_profile *p = extreme_profile(x);
	size_t si, ki;

	for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
		for (ki = 0; ki < sizeof scripts / sizeof scripts[0]; ki++) {
			struct sv_grid g;
			struct sv_error err;
			int *keys = NULL;
			size_t n = 0;
			ck_assert_msg(sv_keys_parse_script(scripts[ki], &keys,
					      &n, &err) == 0,
				"%s", err.msg);
			sv_grid_init(&g);
			ck_assert_msg(
				sv_snapshot_draw(&g, p, sizes[si].w,
					sizes[si].h, keys, n, NULL, &err) == 0,
				"%s: %s", x->what, err.msg);
			sv_grid_fini(&g);
			free(keys);
		}
	sv_profile_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("extreme");
	TCase *t = tcase_create("times");
	int n = (int)(sizeof extreme_cases / sizeof extreme_cases[0]);
	tcase_add_loop_test(t, test_extreme_stats, 0, n);
	tcase_add_loop_test(t, test_extreme_draw, 0, n);
	suite_add_tcase(s, t);
	return svt_run(s);
}
