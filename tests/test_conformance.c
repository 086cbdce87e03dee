/*
 * test_conformance.c: every sample profile in tests/fixtures loads and
 * its statistics agree with what scope-profiler's own reader reported
 * (NAME.expected.json, see fixtures/README.md): run level, region order,
 * and every figure per region and per rank, within 1e-9 relative (exact
 * for integers and strings).
 *
 * Two routes are checked: the library (sv_load + sv_stats_table_compute)
 * and the program (`scopeview summary --format json`, $SCOPEVIEW_EXE).
 *
 * The one deliberate difference (fixtures/README.md): for the aggregate
 * layout scope-profiler reports first, last and std as 0.0 where the file
 * holds no such figure; we report null.  The same holds for the run's
 * minimum start of an aggregate file (no per-call starts exist), so an
 * expected 0.0 matches our null for those figures in that layout only.
 *
 * The fixtures are part of the repository: without them the suite fails.
 */
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "helpers.h"
#include "scopeview/load.h"
#include "scopeview/profile.h"
#include "scopeview/stats.h"

#define MAX_FIXTURES 64

static char *fixture_names[MAX_FIXTURES]; /* "four_ranks" */
static int nfixtures;

/* ---- collecting mismatches ------------------------------------------------ */

struct report {
	char *text;
	size_t len, cap;
	int count, shown;
};

static void report_add(struct report *r, const char *fmt, ...) SV_PRINTF(2, 3);

static void report_add(struct report *r, const char *fmt, ...)
{
	va_list ap;
	char line[1024];

	r->count++;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	/* Check carries a failure message of at most 4 KiB. */
	if (r->len + strlen(line) > 3000)
		return;
	r->shown++;
	sv_grow((void **)&r->text, &r->cap, r->len + strlen(line) + 2, 1);
	memcpy(r->text + r->len, line, strlen(line));
	r->len += strlen(line);
	r->text[r->len++] = '\n';
	r->text[r->len] = '\0';
}

static void report_finish(struct report *r, const char *what)
{
	if (r->count)
		ck_abort_msg("%s: %d mismatches (%d shown):\n%s", what,
			r->count, r->shown, r->text ? r->text : "");
	free(r->text);
}

/* Where a mismatch is: "four_ranks: region 'solve' rank 2". */
struct where {
	const char *fixture;
	const char *region; /* NULL at run level */
	const char *rank;   /* NULL at region level */
	const char *route;  /* "stats" or "json" */
};

static void where_str(
	const struct where *w, const char *key, char *buf, size_t size)
{
	snprintf(buf, size, "[%s] %s%s%s%s%s%s: %s", w->route, w->fixture,
		w->region ? ": region '" : "", w->region ? w->region : "",
		w->region ? "'" : "", w->rank ? " rank " : "",
		w->rank ? w->rank : "", key);
}

static bool near(double a, double b)
{
	double d = fabs(a - b);
	return d <= 1e-9 * fmax(fabs(a), fabs(b)) || d < 1e-18;
}

/* Compare an expected JSON value with ours (a number, or null when
 * !have).  zero_is_null: an expected 0.0 may match our null. */
static void cmp_real(struct report *r, const struct where *w, const char *key,
	json_t *want, bool have, double got, bool zero_is_null)
{
	char at[512];

	where_str(w, key, at, sizeof at);
	if (json_is_null(want)) {
		if (have)
			report_add(r, "%s: expected null, got %.17g", at, got);
		return;
	}
	if (!json_is_number(want)) {
		report_add(r, "%s: expected value is not a number", at);
		return;
	}
	if (!have) {
		if (zero_is_null && json_number_value(want) == 0.0)
			return;
		report_add(r, "%s: expected %.17g, got null", at,
			json_number_value(want));
		return;
	}
	if (!near(json_number_value(want), got))
		report_add(r, "%s: expected %.17g, got %.17g", at,
			json_number_value(want), got);
}

static void cmp_int(struct report *r, const struct where *w, const char *key,
	json_t *want, bool have, long long got)
{
	char at[512];

	where_str(w, key, at, sizeof at);
	if (json_is_null(want)) {
		if (have)
			report_add(r, "%s: expected null, got %lld", at, got);
		return;
	}
	if (!json_is_integer(want)) {
		report_add(r, "%s: expected value is not an integer", at);
		return;
	}
	if (!have)
		report_add(r, "%s: expected %lld, got null", at,
			(long long)json_integer_value(want));
	else if (json_integer_value(want) != got)
		report_add(r, "%s: expected %lld, got %lld", at,
			(long long)json_integer_value(want), got);
}

static void cmp_str(struct report *r, const struct where *w, const char *key,
	json_t *want, const char *got)
{
	char at[512];

	where_str(w, key, at, sizeof at);
	if (json_is_null(want)) {
		if (got)
			report_add(r, "%s: expected null, got '%s'", at, got);
		return;
	}
	if (!json_is_string(want)) {
		report_add(r, "%s: expected value is not a string", at);
		return;
	}
	if (!got)
		report_add(r, "%s: expected '%s', got null", at,
			json_string_value(want));
	else if (strcmp(json_string_value(want), got))
		report_add(r, "%s: expected '%s', got '%s'", at,
			json_string_value(want), got);
}

static void cmp_bool(struct report *r, const struct where *w, const char *key,
	json_t *want, bool got)
{
	char at[512];

	where_str(w, key, at, sizeof at);
	if (!json_is_boolean(want))
		report_add(r, "%s: expected value is not a boolean", at);
	else if (json_is_true(want) != got)
		report_add(r, "%s: expected %s, got %s", at,
			json_is_true(want) ? "true" : "false",
			got ? "true" : "false");
}

static void cmp_ints(struct report *r, const struct where *w, const char *key,
	json_t *want, const int64_t *got, size_t n)
{
	char at[512];
	size_t i;

	where_str(w, key, at, sizeof at);
	if (!json_is_array(want) || json_array_size(want) != n) {
		report_add(r, "%s: expected %zu values, got %zu", at,
			json_is_array(want) ? json_array_size(want) : 0, n);
		return;
	}
	for (i = 0; i < n; i++)
		if (json_integer_value(json_array_get(want, i)) != got[i])
			report_add(r, "%s[%zu]: expected %lld, got %lld", at, i,
				(long long)json_integer_value(
					json_array_get(want, i)),
				(long long)got[i]);
}

static void cmp_strs(struct report *r, const struct where *w, const char *key,
	json_t *want, char *const *got, size_t n)
{
	char at[512];
	size_t i;

	where_str(w, key, at, sizeof at);
	if (!json_is_array(want) || json_array_size(want) != n) {
		report_add(r, "%s: expected %zu strings, got %zu", at,
			json_is_array(want) ? json_array_size(want) : 0, n);
		return;
	}
	for (i = 0; i < n; i++) {
		const char *e = json_string_value(json_array_get(want, i));
		if (!e || strcmp(e, got[i]))
			report_add(r, "%s[%zu]: expected '%s', got '%s'", at, i,
				e ? e : "(not a string)", got[i]);
	}
}

/* ---- the library route -------------------------------------------------------- */

/* Compare the duration-like figures every level has. */
static void cmp_figures(struct report *r, const struct where *w, json_t *exp,
	const struct sv_stats *s, bool aggregate)
{
	const char *key;
	json_t *v;

	json_object_foreach(exp, key, v)
	{
		const double ns = 1e9;
		if (!strcmp(key, "num_calls"))
			cmp_int(r, w, key, v, true, (long long)s->num_calls);
		else if (!strcmp(key, "total_duration") ||
			 !strcmp(key, "inclusive_duration"))
			cmp_real(r, w, key, v, true, (double)s->total_ns / ns,
				false);
		else if (!strcmp(key, "average_duration"))
			cmp_real(r, w, key, v, s->has_dist, s->mean_ns / ns,
				false);
		else if (!strcmp(key, "min_duration"))
			cmp_real(r, w, key, v, s->has_dist,
				(double)s->min_ns / ns, false);
		else if (!strcmp(key, "max_duration"))
			cmp_real(r, w, key, v, s->has_dist,
				(double)s->max_ns / ns, false);
		else if (!strcmp(key, "first_duration"))
			cmp_real(r, w, key, v, s->has_first_last,
				(double)s->first_ns / ns, aggregate);
		else if (!strcmp(key, "last_duration"))
			cmp_real(r, w, key, v, s->has_first_last,
				(double)s->last_ns / ns, aggregate);
		else if (!strcmp(key, "std_duration"))
			cmp_real(r, w, key, v, s->has_std, s->std_ns / ns,
				aggregate);
		else if (!strcmp(key, "p50_duration"))
			cmp_real(r, w, key, v, s->has_percentiles,
				s->p50_ns / ns, false);
		else if (!strcmp(key, "p95_duration"))
			cmp_real(r, w, key, v, s->has_percentiles,
				s->p95_ns / ns, false);
		else if (!strcmp(key, "p99_duration"))
			cmp_real(r, w, key, v, s->has_percentiles,
				s->p99_ns / ns, false);
		else if (!strcmp(key, "exclusive_duration"))
			cmp_real(r, w, key, v, s->has_exclusive,
				(double)s->exclusive_ns / ns, false);
		else if (!strcmp(key, "gpu_total_duration"))
			cmp_real(r, w, key, v, s->has_gpu,
				(double)s->gpu_total_ns / ns, false);
		else if (!strcmp(key, "total_await_duration"))
			cmp_real(r, w, key, v, s->has_await,
				(double)s->await_total_ns / ns, false);
		else if (!strcmp(key, "first_start_ns"))
			cmp_int(r, w, key, v, s->has_span,
				(long long)s->first_start_ns);
		else if (!strcmp(key, "last_end_ns"))
			cmp_int(r, w, key, v, s->has_span,
				(long long)s->last_end_ns);
	}
}

static const char *const known_region_keys[] = {"num_calls", "total_duration",
	"average_duration", "min_duration", "max_duration", "first_duration",
	"last_duration", "std_duration", "p50_duration", "p95_duration",
	"p99_duration", "inclusive_duration", "exclusive_duration",
	"gpu_total_duration", "tags", "rank_imbalance_pct", "ranks",
	"total_await_duration", NULL};
static const char *const known_rank_keys[] = {"num_calls", "total_duration",
	"average_duration", "min_duration", "max_duration", "first_duration",
	"last_duration", "std_duration", "p50_duration", "p95_duration",
	"p99_duration", "inclusive_duration", "exclusive_duration",
	"gpu_total_duration", "tags", "source_file", "source_lineno",
	"has_source_text", "has_thread_data", "threads", "task_ids_distinct",
	"total_await_duration", "first_start_ns", "last_end_ns", NULL};

/* Every expected key must be one we know how to check: a key added to the
 * fixtures later must not pass unchecked. */
static void check_known(struct report *r, const struct where *w, json_t *exp,
	const char *const *known)
{
	const char *key;
	json_t *v;
	json_object_foreach(exp, key, v)
	{
		size_t i;
		bool ok = false;
		(void)v;
		for (i = 0; known[i]; i++)
			ok = ok || !strcmp(known[i], key);
		if (!ok) {
			char at[512];
			where_str(w, key, at, sizeof at);
			report_add(r, "%s: key not checked by this test", at);
		}
	}
}

static void cmp_rank(struct report *r, const struct where *w, json_t *exp,
	const struct sv_profile *p, const struct sv_stats_rank *rk,
	bool aggregate)
{
	const struct sv_row *row = &p->rows[rk->row];
	json_t *v;
	int64_t *d;
	size_t n;

	check_known(r, w, exp, known_rank_keys);
	cmp_figures(r, w, exp, &rk->s, aggregate);
	if ((v = json_object_get(exp, "tags")))
		cmp_strs(r, w, "tags", v, row->tags, row->ntags);
	if ((v = json_object_get(exp, "source_file")))
		cmp_str(r, w, "source_file", v, row->source_file);
	if ((v = json_object_get(exp, "source_lineno")))
		cmp_int(r, w, "source_lineno", v, row->source_line >= 0,
			(long long)row->source_line);
	if ((v = json_object_get(exp, "has_source_text")))
		cmp_bool(r, w, "has_source_text", v, row->source_text != NULL);
	if ((v = json_object_get(exp, "has_thread_data")))
		cmp_bool(r, w, "has_thread_data", v,
			p->has_calls && p->thread_id != NULL);
	if ((v = json_object_get(exp, "threads"))) {
		n = sv_stats_row_distinct(p, rk->row, p->thread_id, &d);
		cmp_ints(r, w, "threads", v, d, n);
		free(d);
	}
	if ((v = json_object_get(exp, "task_ids_distinct"))) {
		n = sv_stats_row_distinct(p, rk->row, p->task_id, &d);
		cmp_ints(r, w, "task_ids_distinct", v, d, n);
		free(d);
	}
}

static json_t *load_expected(const char *name)
{
	char *path =
		sv_xasprintf("%s/%s.expected.json", svt_fixtures_dir(), name);
	json_error_t jerr;
	json_t *exp = json_load_file(path, 0, &jerr);
	ck_assert_msg(
		exp != NULL, "%s: %s (line %d)", path, jerr.text, jerr.line);
	free(path);
	return exp;
}

START_TEST(fixture_stats)
{
	const char *name = fixture_names[_i];
	char *path = sv_xasprintf("%s/%s.h5", svt_fixtures_dir(), name);
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	struct sv_stats_table t;
	struct report rep = {0};
	struct where w = {name, NULL, NULL, "stats"};
	json_t *exp = load_expected(name), *v, *regions;
	bool aggregate;
	size_t i;
	int rc;

	rc = sv_load(path, NULL, &p, &err);
	ck_assert_msg(rc == 0, "%s: sv_load failed: %s", name, err.msg);
	ck_assert_int_eq(sv_stats_table_compute(&t, p, NULL, &err), 0);
	aggregate = p->layout == SV_LAYOUT_AGGREGATE;

	cmp_int(&rep, &w, "num_ranks", json_object_get(exp, "num_ranks"), true,
		t.num_ranks);
	cmp_real(&rep, &w, "minimum_start_time_s",
		json_object_get(exp, "minimum_start_time_s"), t.has_min_start,
		(double)t.min_start_ns / 1e9, aggregate);
	cmp_real(&rep, &w, "time_origin_s",
		json_object_get(exp, "time_origin_s"), true,
		(double)t.time_origin_ns / 1e9, false);
	{
		char **keys = sv_xcalloc(p->nmeta + 1, sizeof *keys);
		for (i = 0; i < p->nmeta; i++)
			keys[i] = p->meta[i].key;
		cmp_strs(&rep, &w, "metadata_keys",
			json_object_get(exp, "metadata_keys"), keys, p->nmeta);
		free(keys);
	}
	{
		char **names = sv_xcalloc(t.nregions + 1, sizeof *names);
		for (i = 0; i < t.nregions; i++)
			names[i] = (char *)t.regions[i].name;
		cmp_strs(&rep, &w, "region_order",
			json_object_get(exp, "region_order"), names,
			t.nregions);
		free(names);
	}

	regions = json_object_get(exp, "regions");
	ck_assert_msg(json_is_object(regions), "%s: no regions", name);
	if (json_object_size(regions) != t.nregions)
		report_add(&rep, "[stats] %s: expected %zu regions, got %zu",
			name, json_object_size(regions), t.nregions);
	for (i = 0; i < t.nregions; i++) {
		const struct sv_stats_region *g = &t.regions[i];
		json_t *er = json_object_get(regions, g->name), *eranks;
		const char *rank_key;
		json_t *erank;
		size_t k;

		w.region = g->name;
		w.rank = NULL;
		if (!er) {
			report_add(&rep, "[stats] %s: region '%s' not expected",
				name, g->name);
			continue;
		}
		check_known(&rep, &w, er, known_region_keys);
		cmp_figures(&rep, &w, er, &g->s, aggregate);
		if ((v = json_object_get(er, "rank_imbalance_pct")))
			cmp_real(&rep, &w, "rank_imbalance_pct", v, true,
				g->rank_imbalance_pct, false);
		if ((v = json_object_get(er, "tags")))
			cmp_strs(&rep, &w, "tags", v,
				g->tags_row ? g->tags_row->tags : NULL,
				g->tags_row ? g->tags_row->ntags : 0);
		eranks = json_object_get(er, "ranks");
		if (json_object_size(eranks) != g->nranks)
			report_add(&rep,
				"[stats] %s: region '%s': expected %zu ranks, "
				"got %zu",
				name, g->name, json_object_size(eranks),
				g->nranks);
		json_object_foreach(eranks, rank_key, erank)
		{
			const struct sv_stats_rank *rk = NULL;
			for (k = 0; k < g->nranks; k++)
				if (g->ranks[k].rank ==
					(uint32_t)strtoul(rank_key, NULL, 10))
					rk = &g->ranks[k];
			w.rank = rank_key;
			if (!rk) {
				report_add(&rep,
					"[stats] %s: region '%s': rank %s "
					"missing",
					name, g->name, rank_key);
				continue;
			}
			cmp_rank(&rep, &w, erank, p, rk, aggregate);
		}
	}
	json_decref(exp);
	sv_stats_table_fini(&t);
	sv_profile_free(p);
	free(path);
	report_finish(&rep, name);
}
END_TEST

/* ---- summary-only loads ------------------------------------------------------ */

/* One figure of a summary-only load against the full load's. */
static void so_cmp(struct report *r, const char *fixture, const char *region,
	long rank, const char *key, bool have_so, double so, bool have_full,
	double full)
{
	char where[256], rk[32] = "";
	if (rank >= 0)
		snprintf(rk, sizeof rk, " rank %ld", rank);
	snprintf(where, sizeof where, "[summary-only] %s: region '%s'%s: %s",
		fixture, region, rk, key);
	if (!have_so)
		return; /* absent is honest; a figure must be right */
	if (!have_full)
		report_add(
			r, "%s: %.17g where the full load has none", where, so);
	else if (!near(so, full))
		report_add(r, "%s: %.17g, the full load says %.17g", where, so,
			full);
}

static void so_cmp_stats(struct report *r, const char *fixture,
	const char *region, long rank, const struct sv_stats *so,
	const struct sv_stats *full, bool with_summary, bool per_call)
{
	if (so->num_calls != full->num_calls)
		report_add(r,
			"[summary-only] %s: region '%s' rank %ld: %llu "
			"calls, the full load has %llu",
			fixture, region, rank,
			(unsigned long long)so->num_calls,
			(unsigned long long)full->num_calls);
	if (so->has_percentiles && !per_call)
		report_add(r,
			"[summary-only] %s: region '%s': percentiles "
			"without per-call data",
			fixture, region);
	/* With stored statistics the whole-run figures are all there. */
	if (with_summary && (!so->has_total || !so->has_dist))
		report_add(r,
			"[summary-only] %s: region '%s' rank %ld: total "
			"or mean missing",
			fixture, region, rank);
	so_cmp(r, fixture, region, rank, "total", so->has_total,
		(double)so->total_ns, full->has_total, (double)full->total_ns);
	so_cmp(r, fixture, region, rank, "mean", so->has_dist, so->mean_ns,
		full->has_dist, full->mean_ns);
	so_cmp(r, fixture, region, rank, "min", so->has_dist,
		(double)so->min_ns, full->has_dist, (double)full->min_ns);
	so_cmp(r, fixture, region, rank, "max", so->has_dist,
		(double)so->max_ns, full->has_dist, (double)full->max_ns);
	so_cmp(r, fixture, region, rank, "first", so->has_first_last,
		(double)so->first_ns, full->has_first_last,
		(double)full->first_ns);
	so_cmp(r, fixture, region, rank, "last", so->has_first_last,
		(double)so->last_ns, full->has_first_last,
		(double)full->last_ns);
	so_cmp(r, fixture, region, rank, "std", so->has_std, so->std_ns,
		full->has_std, full->std_ns);
	so_cmp(r, fixture, region, rank, "exclusive", so->has_exclusive,
		(double)so->exclusive_ns, full->has_exclusive,
		(double)full->exclusive_ns);
	so_cmp(r, fixture, region, rank, "gpu", so->has_gpu,
		(double)so->gpu_total_ns, full->has_gpu,
		(double)full->gpu_total_ns);
	so_cmp(r, fixture, region, rank, "first_start", so->has_span,
		(double)so->first_start_ns, full->has_span,
		(double)full->first_start_ns);
	so_cmp(r, fixture, region, rank, "last_end", so->has_span,
		(double)so->last_end_ns, full->has_span,
		(double)full->last_end_ns);
}

/*
 * What the viewer shows while a file loads (sv_load_opts.summary_only,
 * figures from the stored summary statistics) must agree with the full
 * load: every figure present is right, percentiles are absent, and
 * nothing the file does not store appears as a zero.
 */
START_TEST(fixture_summary_only)
{
	const char *name = fixture_names[_i];
	char *path = sv_xasprintf("%s/%s.h5", svt_fixtures_dir(), name);
	struct sv_load_opts o = {0};
	struct sv_profile *full = NULL, *so = NULL;
	struct sv_error err = {0};
	struct sv_stats_table tf, ts;
	struct report rep = {0};
	bool with_summary = true;
	size_t i, k;

	o.summary_only = true;
	ck_assert_msg(sv_load(path, NULL, &full, &err) == 0, "%s", err.msg);
	ck_assert_msg(
		sv_load(path, &o, &so, &err) == 0, "%s: %s", name, err.msg);
	for (i = 0; i < so->nrows; i++)
		with_summary = with_summary && so->rows[i].has_summary;
	ck_assert_int_eq(sv_stats_table_compute(&tf, full, NULL, &err), 0);
	ck_assert_int_eq(sv_stats_table_compute(&ts, so, NULL, &err), 0);
	ck_assert_uint_eq(ts.nregions, tf.nregions);
	for (i = 0; i < ts.nregions; i++) {
		const struct sv_stats_region *gs = &ts.regions[i];
		const struct sv_stats_region *gf =
			sv_stats_table_find(&tf, gs->region);
		ck_assert_ptr_nonnull(gf);
		ck_assert_uint_eq(gs->nranks, gf->nranks);
		so_cmp_stats(&rep, name, gs->name, -1, &gs->s, &gf->s,
			with_summary || so->has_calls, so->has_calls);
		for (k = 0; k < gs->nranks; k++)
			so_cmp_stats(&rep, name, gs->name,
				(long)gs->ranks[k].rank, &gs->ranks[k].s,
				&gf->ranks[k].s, with_summary || so->has_calls,
				so->has_calls);
	}
	sv_stats_table_fini(&tf);
	sv_stats_table_fini(&ts);
	sv_profile_free(full);
	sv_profile_free(so);
	free(path);
	report_finish(&rep, name);
}
END_TEST

/* ---- the program route --------------------------------------------------------- */

/* Run `scopeview summary --format json FILE`; returns its parsed stdout. */
static json_t *run_summary_json(const char *h5, int *status)
{
	const char *exe = getenv("SCOPEVIEW_EXE");
	char *cmd;
	FILE *f;
	char *out = NULL;
	size_t len = 0, cap = 0, got;
	char buf[65536];
	json_error_t jerr;
	json_t *j;

	ck_assert_msg(exe && *exe, "SCOPEVIEW_EXE is not set");
	cmd = sv_xasprintf("'%s' summary --format json '%s'", exe, h5);
	f = popen(cmd, "r");
	ck_assert_msg(f != NULL, "cannot run %s", cmd);
	while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
		sv_grow((void **)&out, &cap, len + got + 1, 1);
		memcpy(out + len, buf, got);
		len += got;
	}
	*status = pclose(f);
	free(cmd);
	ck_assert_msg(out != NULL, "scopeview summary printed nothing");
	out[len] = '\0';
	j = json_loads(out, 0, &jerr);
	ck_assert_msg(j != NULL, "output is not JSON: %s at line %d", jerr.text,
		jerr.line);
	free(out);
	return j;
}

static const char *const json_region_keys[] = {"name", "num_calls",
	"total_duration", "average_duration", "min_duration", "max_duration",
	"first_duration", "last_duration", "std_duration", "p50_duration",
	"p95_duration", "p99_duration", "inclusive_duration",
	"exclusive_duration", "gpu_total_duration", "total_await_duration",
	"rank_imbalance_pct", "tags", "source_file", "source_lineno", "ranks",
	NULL};
static const char *const json_rank_keys[] = {"rank", "num_calls",
	"total_duration", "average_duration", "min_duration", "max_duration",
	"first_duration", "last_duration", "std_duration", "p50_duration",
	"p95_duration", "p99_duration", "inclusive_duration",
	"exclusive_duration", "gpu_total_duration", "total_await_duration",
	"tags", "source_file", "source_lineno", "first_start_ns", "last_end_ns",
	NULL};
static const char *const json_top_keys[] = {"file", "schema", "layout",
	"num_ranks", "time_origin_ns", "minimum_start_ns", "warnings",
	"metadata", "regions", NULL};

static void require_keys(struct report *r, const struct where *w, json_t *obj,
	const char *const *keys)
{
	size_t i;
	for (i = 0; keys[i]; i++)
		if (!json_object_get(obj, keys[i])) {
			char at[512];
			where_str(w, keys[i], at, sizeof at);
			report_add(r, "%s: key missing from the output", at);
		}
}

/* Compare a figure of the expected file with the same key of ours. */
static void cmp_json_figures(struct report *r, const struct where *w,
	json_t *exp, json_t *got, bool aggregate)
{
	const char *key;
	json_t *v;

	json_object_foreach(exp, key, v)
	{
		json_t *g = json_object_get(got, key);
		bool lenient =
			aggregate && (!strcmp(key, "first_duration") ||
					     !strcmp(key, "last_duration") ||
					     !strcmp(key, "std_duration"));
		if (!strcmp(key, "ranks") || !strcmp(key, "has_source_text") ||
			!strcmp(key, "has_thread_data") ||
			!strcmp(key, "threads") ||
			!strcmp(key, "task_ids_distinct"))
			continue; /* not part of the summary's JSON */
		if (!g) {
			char at[512];
			where_str(w, key, at, sizeof at);
			report_add(r, "%s: missing from the output", at);
		} else if (json_is_array(v)) {
			size_t i, n = json_array_size(g);
			char **s = sv_xcalloc(n + 1, sizeof *s);
			for (i = 0; i < n; i++)
				s[i] = (char *)json_string_value(
					json_array_get(g, i));
			cmp_strs(r, w, key, v, s, n);
			free(s);
		} else if (json_is_string(v) ||
			   (json_is_null(v) && json_is_string(g))) {
			cmp_str(r, w, key, v, json_string_value(g));
		} else if (json_is_integer(v) && !json_is_real(g)) {
			cmp_int(r, w, key, v, !json_is_null(g),
				(long long)json_integer_value(g));
		} else {
			cmp_real(r, w, key, v, !json_is_null(g),
				json_number_value(g), lenient);
		}
	}
}

START_TEST(fixture_summary_json)
{
	const char *name = fixture_names[_i];
	char *path = sv_xasprintf("%s/%s.h5", svt_fixtures_dir(), name);
	struct report rep = {0};
	struct where w = {name, NULL, NULL, "json"};
	json_t *exp = load_expected(name), *out, *regions, *order, *v;
	bool aggregate;
	int status;
	size_t i;

	out = run_summary_json(path, &status);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		"%s: scopeview summary exited with %d", name, status);
	require_keys(&rep, &w, out, json_top_keys);
	aggregate = json_is_string(json_object_get(out, "layout")) &&
		    !strcmp(json_string_value(json_object_get(out, "layout")),
			    "aggregate");
	v = json_object_get(out, "file");
	if (!json_is_string(v) || strcmp(json_string_value(v), path))
		report_add(&rep, "[json] %s: file is not the path given", name);
	ck_assert(json_is_array(json_object_get(out, "warnings")));
	ck_assert(json_is_object(json_object_get(out, "metadata")));
	cmp_int(&rep, &w, "num_ranks", json_object_get(exp, "num_ranks"), true,
		json_integer_value(json_object_get(out, "num_ranks")));
	v = json_object_get(out, "time_origin_ns");
	cmp_real(&rep, &w, "time_origin_s",
		json_object_get(exp, "time_origin_s"), json_is_integer(v),
		(double)json_integer_value(v) / 1e9, false);
	v = json_object_get(out, "minimum_start_ns");
	cmp_real(&rep, &w, "minimum_start_time_s",
		json_object_get(exp, "minimum_start_time_s"),
		json_is_integer(v), (double)json_integer_value(v) / 1e9,
		aggregate);
	/* metadata keys, in sorted order */
	{
		json_t *meta = json_object_get(out, "metadata");
		json_t *want = json_object_get(exp, "metadata_keys");
		for (i = 0; i < json_array_size(want); i++)
			if (!json_object_get(meta,
				    json_string_value(json_array_get(want, i))))
				report_add(&rep,
					"[json] %s: metadata key %s missing",
					name,
					json_string_value(
						json_array_get(want, i)));
		if (json_object_size(meta) != json_array_size(want))
			report_add(&rep,
				"[json] %s: %zu metadata keys, expected %zu",
				name, json_object_size(meta),
				json_array_size(want));
	}

	regions = json_object_get(out, "regions");
	order = json_object_get(exp, "region_order");
	ck_assert(json_is_array(regions));
	{
		size_t n = json_array_size(regions);
		char **names = sv_xcalloc(n + 1, sizeof *names);
		for (i = 0; i < n; i++)
			names[i] = (char *)json_string_value(json_object_get(
				json_array_get(regions, i), "name"));
		cmp_strs(&rep, &w, "region_order", order, names, n);
		free(names);
	}
	for (i = 0; i < json_array_size(regions); i++) {
		json_t *g = json_array_get(regions, i), *er, *ranks;
		const char *rname =
			json_string_value(json_object_get(g, "name"));
		size_t k;

		w.region = rname;
		w.rank = NULL;
		require_keys(&rep, &w, g, json_region_keys);
		er = json_object_get(
			json_object_get(exp, "regions"), rname ? rname : "");
		if (!er)
			continue;
		cmp_json_figures(&rep, &w, er, g, aggregate);
		ranks = json_object_get(g, "ranks");
		if (json_array_size(ranks) !=
			json_object_size(json_object_get(er, "ranks")))
			report_add(&rep,
				"[json] %s: region '%s': %zu ranks, "
				"expected %zu",
				name, rname, json_array_size(ranks),
				json_object_size(json_object_get(er, "ranks")));
		for (k = 0; k < json_array_size(ranks); k++) {
			json_t *gr = json_array_get(ranks, k), *erank;
			char key[32];
			snprintf(key, sizeof key, "%lld",
				(long long)json_integer_value(
					json_object_get(gr, "rank")));
			w.rank = key;
			require_keys(&rep, &w, gr, json_rank_keys);
			if (json_object_get(gr, "rank_imbalance_pct"))
				report_add(&rep,
					"[json] %s: rank has an imbalance",
					name);
			erank = json_object_get(
				json_object_get(er, "ranks"), key);
			if (!erank) {
				report_add(&rep,
					"[json] %s: region '%s' rank %s "
					"not expected",
					name, rname, key);
				continue;
			}
			cmp_json_figures(&rep, &w, erank, gr, aggregate);
		}
	}
	json_decref(out);
	json_decref(exp);
	free(path);
	report_finish(&rep, name);
}
END_TEST

/* ---- finding the fixtures ------------------------------------------------------- */

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void find_fixtures(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) && nfixtures < MAX_FIXTURES) {
		size_t n = strlen(e->d_name);
		if (n > 3 && !strcmp(e->d_name + n - 3, ".h5"))
			fixture_names[nfixtures++] =
				sv_xstrndup(e->d_name, n - 3);
	}
	closedir(d);
	qsort(fixture_names, (size_t)nfixtures, sizeof *fixture_names,
		name_cmp);
}

/* Every fixture has its expected file. */
START_TEST(every_fixture_has_expectations)
{
	int i;
	ck_assert_int_ge(nfixtures, 14);
	for (i = 0; i < nfixtures; i++) {
		char *p = sv_xasprintf("%s/%s.expected.json",
			svt_fixtures_dir(), fixture_names[i]);
		char *text = svt_read_file(p, NULL);
		ck_assert_msg(text != NULL, "%s is missing", p);
		free(text);
		free(p);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("conformance");
	TCase *tc;

	tc = tcase_create("fixtures");
	tcase_add_test(tc, every_fixture_has_expectations);
	tcase_add_loop_test(tc, fixture_stats, 0, nfixtures);
	tcase_add_loop_test(tc, fixture_summary_only, 0, nfixtures);
	suite_add_tcase(s, tc);

	tc = tcase_create("summary_json");
	tcase_add_loop_test(tc, fixture_summary_json, 0, nfixtures);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	const char *dir = svt_fixtures_dir();
	struct stat st;
	int rc, i;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		/* Part of the repository: missing is a failure, not a skip. */
		fprintf(stderr,
			"conformance: no fixtures directory %s (tests/fixtures "
			"is part of the repository)\n",
			dir);
		return 1;
	}
	find_fixtures(dir);
	rc = svt_run(suite());
	for (i = 0; i < nfixtures; i++)
		free(fixture_names[i]);
	return rc;
}
