/*
 * test_export.c: the export writers (export.h) on profiles built here:
 * hostile names (commas, quotes, newlines, control characters) and
 * per-call metadata, each export parsed back (JSON with jansson, CSV with
 * an RFC 4180 reader below) with exactly one event or row per call in
 * scope and the exact ns; speedscope's events ordered and balanced, also
 * where the file's nesting is broken; the scope's rule at the range's
 * ends; write errors; the check that an export is not its own profile;
 * an export in parts (scopeview-mpi's) equal to the whole.
 * The real files and the other tools' parsers are e2e_export.sh's and
 * e2e_speedscope.sh's.
 */
#include <errno.h>
#include <stdatomic.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/callmeta.h"
#include "scopeview/export.h"
#include "scopeview/load.h"
#include "scopeview/profile.h"

static const char *const hostile[] = {
	"a,b", "say \"hi\"", "two\nlines", "cr\rret", "\x01 ctl;x\\y"};
#define NHOSTILE (sizeof hostile / sizeof hostile[0])

/*
 * Two ranks.  Rank 0: region 0 [100, 200) holding region 1 [110, 150)
 * holding region 2 [120, 120) (no time), then region 3 [150, 160)
 * touching region 1's end; rank 1: region 4 [105, 305), with metadata
 * (NaN, a nested list, a string "NaN").
 */
static struct sv_profile *sample(void)
{
	struct sv_profile *p = sv_profile_new("mem.h5");
	static const int64_t se[][2] = {
		{100, 200}, {110, 150}, {120, 120}, {150, 160}, {105, 305}};
	char why[128];
	size_t i;

	for (i = 0; i < NHOSTILE; i++)
		sv_profile_add_region(p, hostile[i]);
	for (i = 0; i < 5; i++) {
		sv_profile_add_row(p, i < 4 ? 0 : 1, (uint32_t)i, 1, NULL);
		p->start_ns[i] = se[i][0];
		p->end_ns[i] = se[i][1];
	}
	ck_assert_int_eq(sv_callmeta_set_row(p, 4, 1,
				 "[{\"x\": NaN, \"l\": [1, -Infinity, "
				 "\"NaN\"], \"s\": \"a,\\\"b\\n\"}]",
				 why, sizeof why),
		0);
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	return p;
}

static char *export_text(int (*fn)(FILE *, const struct sv_profile *,
				 const struct sv_export_scope *, const char *,
				 struct sv_error *),
	const struct sv_profile *p, const struct sv_export_scope *sc)
{
	FILE *f = tmpfile();
	struct sv_error err = {0};
	long n;
	char *s;

	ck_assert_int_eq(fn(f, p, sc, "x,\"y\".h5", &err), 0);
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return s;
}

static json_t *export_json(int (*fn)(FILE *, const struct sv_profile *,
				   const struct sv_export_scope *, const char *,
				   struct sv_error *),
	const struct sv_profile *p, const struct sv_export_scope *sc)
{
	char *s = export_text(fn, p, sc);
	json_error_t je;
	json_t *root = json_loads(s, JSON_REJECT_DUPLICATES, &je);
	ck_assert_msg(root, "%s at %d: %s", je.text, je.position, s);
	free(s);
	return root;
}

START_TEST(export_chrome_events)
{
	struct sv_profile *p = sample();
	json_t *root = export_json(sv_export_chrome, p, NULL);
	json_t *ev = json_object_get(root, "traceEvents"), *e;
	size_t i, nx = 0, nthread = 0, nproc = 0;
	bool seen[5] = {false};

	ck_assert_str_eq(json_string_value(json_object_get(
				 json_object_get(root, "otherData"), "file")),
		"x,\"y\".h5");
	json_array_foreach(ev, i, e)
	{
		const char *ph = json_string_value(json_object_get(e, "ph"));
		json_t *a = json_object_get(e, "args");
		json_int_t c;
		ck_assert_ptr_nonnull(ph);
		if (!strcmp(ph, "M")) {
			const char *what =
				json_string_value(json_object_get(e, "name"));
			nthread += !strcmp(what, "thread_name");
			nproc += !strcmp(what, "process_name");
			continue;
		}
		ck_assert_str_eq(ph, "X");
		nx++;
		c = json_integer_value(json_object_get(a, "call"));
		ck_assert(c >= 0 && c < 5 && !seen[c]);
		seen[c] = true;
		ck_assert_str_eq(json_string_value(json_object_get(e, "name")),
			hostile[c]);
		ck_assert_int_eq(json_integer_value(json_object_get(e, "pid")),
			c < 4 ? 0 : 1);
		ck_assert_int_eq(
			json_integer_value(json_object_get(a, "start_ns")),
			sv_profile_start(p, c));
		ck_assert_int_eq(
			json_integer_value(json_object_get(a, "end_ns")),
			sv_profile_end(p, c));
		ck_assert_int_eq(
			json_integer_value(json_object_get(a, "exclusive_ns")),
			sv_profile_exclusive(p, c));
		/* microseconds from the origin (100), exact */
		ck_assert(json_real_value(json_object_get(e, "ts")) * 1000 -
				  (double)(sv_profile_start(p, c) - 100) <
			  1e-6);
		ck_assert(json_real_value(json_object_get(e, "dur")) * 1000 -
				  (double)sv_call_duration(p, c) <
			  1e-6);
		if (c == 2)
			ck_assert_int_eq(json_integer_value(
						 json_object_get(a, "parent")),
				1);
		if (c == 4) {
			json_t *m = json_object_get(a, "metadata");
			ck_assert(json_is_null(json_object_get(m, "x")));
			ck_assert(json_is_null(
				json_array_get(json_object_get(m, "l"), 1)));
			ck_assert_str_eq(json_string_value(json_array_get(
						 json_object_get(m, "l"), 2)),
				"NaN");
			ck_assert_str_eq(
				json_string_value(json_object_get(m, "s")),
				"a,\"b\n");
		}
	}
	ck_assert_uint_eq(nx, 5);
	ck_assert_uint_eq(nthread, p->nlanes);
	ck_assert_uint_eq(nproc, 2);
	json_decref(root);
	sv_profile_free(p);
}
END_TEST

/* Checks profile prof's events: ordered, balanced; returns opens. */
static size_t speedscope_check(json_t *prof, const struct sv_profile *p)
{
	json_t *ev = json_object_get(prof, "events"), *e;
	json_int_t stack[64], last = INT64_MIN;
	size_t i, top = 0, opens = 0;

	(void)p;
	ck_assert_str_eq(json_string_value(json_object_get(prof, "unit")),
		"nanoseconds");
	json_array_foreach(ev, i, e)
	{
		const char *type =
			json_string_value(json_object_get(e, "type"));
		json_int_t at = json_integer_value(json_object_get(e, "at"));
		json_int_t fr = json_integer_value(json_object_get(e, "frame"));
		ck_assert(at >= last);
		last = at;
		if (!strcmp(type, "O")) {
			ck_assert_uint_lt(top, 64);
			stack[top++] = fr;
			opens++;
		} else {
			ck_assert_str_eq(type, "C");
			ck_assert_uint_gt(top, 0);
			ck_assert_int_eq(stack[--top], fr);
		}
	}
	ck_assert_uint_eq(top, 0);
	return opens;
}

START_TEST(export_speedscope_balanced)
{
	struct sv_profile *p = sample();
	json_t *root = export_json(sv_export_speedscope, p, NULL);
	json_t *frames = json_object_get(
		       json_object_get(root, "shared"), "frames"),
	       *profs = json_object_get(root, "profiles"), *prof;
	size_t i, opens = 0;

	ck_assert_uint_eq(json_array_size(frames), NHOSTILE);
	for (i = 0; i < NHOSTILE; i++)
		ck_assert_str_eq(json_string_value(json_object_get(
					 json_array_get(frames, i), "name")),
			hostile[i]);
	ck_assert_uint_eq(json_array_size(profs), 2);
	json_array_foreach(profs, i, prof)
	{
		ck_assert_str_eq(
			json_string_value(json_object_get(prof, "name")),
			p->lanes[i].label);
		opens += speedscope_check(prof, p);
	}
	ck_assert_uint_eq(opens, 5);
	/* rank 0: open 0, open 1, open 2, close 2 at 20, close 1 at 50,
	 * open 3 at 50 (touching: a sibling) */
	prof = json_array_get(
		json_object_get(json_array_get(profs, 0), "events"), 4);
	ck_assert_str_eq(json_string_value(json_object_get(prof, "type")), "C");
	ck_assert_int_eq(json_integer_value(json_object_get(prof, "at")), 50);
	ck_assert_int_eq(json_integer_value(json_object_get(
				 json_array_get(profs, 1), "endValue")),
		205);
	json_decref(root);
	sv_profile_free(p);
}
END_TEST

START_TEST(export_speedscope_broken_nesting)
{
	/* [0, 100) and [50, 150) overlap partly; [60, 200) overlaps both */
	struct sv_profile *p = sv_profile_new("bad.h5");
	static const int64_t se[][2] = {{0, 100}, {50, 150}, {60, 200}};
	json_t *root, *prof;
	size_t i;

	sv_profile_add_region(p, "r");
	sv_profile_add_row(p, 0, 0, 3, NULL);
	for (i = 0; i < 3; i++) {
		p->start_ns[i] = se[i][0];
		p->end_ns[i] = se[i][1];
	}
	ck_assert_int_eq(sv_profile_finish(p, NULL), 0);
	ck_assert_uint_gt(p->nwarnings, 0);
	root = export_json(sv_export_speedscope, p, NULL);
	prof = json_array_get(json_object_get(root, "profiles"), 0);
	ck_assert_uint_eq(speedscope_check(prof, p), 3);
	json_decref(root);
	sv_profile_free(p);
}
END_TEST

/* Reads one RFC 4180 record from *s into fields (at most max); returns
 * the count, 0 at the end. */
static size_t csv_record(const char **s, char **fields, size_t max)
{
	size_t n = 0;

	if (!**s)
		return 0;
	for (;;) {
		char *f = calloc(1, strlen(*s) + 1);
		size_t k = 0;
		if (**s == '"') {
			(*s)++;
			for (;;) {
				ck_assert_msg(**s, "unterminated quote");
				if (**s == '"' && (*s)[1] == '"') {
					f[k++] = '"';
					*s += 2;
				} else if (**s == '"') {
					(*s)++;
					break;
				} else {
					f[k++] = *(*s)++;
				}
			}
		} else {
			while (**s && **s != ',' && **s != '\n') {
				ck_assert_msg(**s != '"' && **s != '\r',
					"bare quote or CR in a field");
				f[k++] = *(*s)++;
			}
		}
		ck_assert_uint_lt(n, max);
		fields[n++] = f;
		if (**s == ',') {
			(*s)++;
			continue;
		}
		ck_assert_int_eq(**s, '\n');
		(*s)++;
		return n;
	}
}

static void csv_free(char **fields, size_t n)
{
	while (n)
		free(fields[--n]);
}

START_TEST(export_csv_quoting)
{
	struct sv_profile *p = sample();
	char *text = export_text(sv_export_csv, p, NULL);
	const char *s = text;
	char *f[16];
	size_t n, rows = 0;
	bool seen[5] = {false};

	n = csv_record(&s, f, 16);
	ck_assert_uint_eq(n, 13);
	ck_assert_str_eq(f[0], "call");
	ck_assert_str_eq(f[12], "metadata");
	csv_free(f, n);
	while ((n = csv_record(&s, f, 16))) {
		long c = strtol(f[0], NULL, 10);
		json_error_t je;
		json_t *m = json_loads(f[12], 0, &je);
		ck_assert_uint_eq(n, 13);
		ck_assert(c >= 0 && c < 5 && !seen[c]);
		seen[c] = true;
		ck_assert_str_eq(f[3], hostile[c]);
		ck_assert_str_eq(f[2], p->lanes[sv_call_lane(p, c)].label);
		ck_assert_int_eq(
			strtoll(f[4], NULL, 10), sv_profile_start(p, c));
		ck_assert_int_eq(strtoll(f[5], NULL, 10), sv_profile_end(p, c));
		ck_assert_int_eq(
			strtoll(f[6], NULL, 10), sv_call_duration(p, c));
		ck_assert_int_eq(
			strtoll(f[7], NULL, 10), sv_profile_exclusive(p, c));
		ck_assert_int_eq(
			strtol(f[8], NULL, 10), sv_profile_depth(p, c));
		if (sv_profile_parent(p, c) == SV_NO_CALL)
			ck_assert_str_eq(f[9], "");
		else
			ck_assert_int_eq(strtol(f[9], NULL, 10),
				sv_profile_parent(p, c));
		ck_assert_str_eq(f[10], ""); /* no gpu column */
		ck_assert_msg(m, "metadata %s: %s", f[12], je.text);
		if (c == 4)
			ck_assert_str_eq(
				json_string_value(json_object_get(m, "s")),
				"a,\"b\n");
		else
			ck_assert_uint_eq(json_object_size(m), 0);
		json_decref(m);
		csv_free(f, n);
		rows++;
	}
	ck_assert_uint_eq(rows, 5);
	free(text);
	sv_profile_free(p);
}
END_TEST

/* The range's rule, call by call: [t0, t1) against the sample's calls
 * [100,200) [110,150) [120,120) [150,160) [105,305). */
static const struct {
	int64_t t0, t1;
	const char *in; /* '1' per call in */
} ranges[] = {
	{0, 100, "00000"},   /* ends where the first starts */
	{0, 101, "10000"},   /* one ns of it */
	{120, 121, "11101"}, /* the zero-length call at t0 */
	{119, 120, "11001"}, /* ... not at t1 */
	{150, 151, "10011"}, /* [110, 150) ends at t0: out */
	{300, 400, "00001"}, /* the tail of rank 1's call */
	{305, 400, "00000"}, /* after everything */
	{0, 1000, "11111"},  /* everything */
	{200, 200, "00000"}, /* an empty range */
};

START_TEST(export_range_rule)
{
	struct sv_profile *p = sample();
	struct sv_export_scope sc = {
		.has_range = true, .t0 = ranges[_i].t0, .t1 = ranges[_i].t1};
	char got[6];
	uint32_t c;
	char *text;
	json_t *root;
	size_t nx = 0, want = 0, i;
	json_t *e;

	for (c = 0; c < 5; c++) {
		got[c] = sv_export_call_in(p, &sc, c) ? '1' : '0';
		want += got[c] == '1';
	}
	got[5] = '\0';
	ck_assert_msg(!strcmp(got, ranges[_i].in), "[%lld, %lld): %s, not %s",
		(long long)sc.t0, (long long)sc.t1, got, ranges[_i].in);
	/* each export holds exactly those calls */
	root = export_json(sv_export_chrome, p, &sc);
	json_array_foreach(json_object_get(root, "traceEvents"), i, e) nx +=
		!strcmp(json_string_value(json_object_get(e, "ph")), "X");
	ck_assert_uint_eq(nx, want);
	json_decref(root);
	text = export_text(sv_export_csv, p, &sc);
	{
		const char *at = text;
		char *f[16];
		size_t n;
		for (nx = 0; (n = csv_record(&at, f, 16)); nx++)
			csv_free(f, n);
	}
	ck_assert_uint_eq(nx, 1 + want); /* the header and the rows */
	free(text);
	sv_profile_free(p);
}
END_TEST

START_TEST(export_lanes_and_errors)
{
	struct sv_profile *p = sample();
	bool lane_on[8] = {false};
	struct sv_export_scope sc = {.lane_on = lane_on};
	struct sv_error err = {0};
	FILE *full;
	json_t *root;

	ck_assert_uint_le(p->nlanes, 8);
	lane_on[sv_call_lane(p, 4)] = true;
	ck_assert(!sv_export_call_in(p, &sc, 0));
	ck_assert(sv_export_call_in(p, &sc, 4));
	ck_assert(!sv_export_call_in(p, &sc, 5));
	ck_assert(!sv_export_call_in(NULL, &sc, 0));
	root = export_json(sv_export_speedscope, p, &sc);
	ck_assert_uint_eq(
		json_array_size(json_object_get(root, "profiles")), 1);
	json_decref(root);

	ck_assert_int_eq(sv_export_csv(NULL, p, NULL, NULL, &err), -EINVAL);
	ck_assert_int_eq(
		sv_export_collapsed(stdout, NULL, NULL, NULL, &err), -EINVAL);
	{
		/* the folded stacks of one lane: rank 1's one call, 200 ns */
		char *text = export_text(sv_export_collapsed, p, &sc);
		ck_assert_str_eq(text, "\x01 ctl\\x3bx\\\\y 200\n");
		free(text);
	}
	ck_assert_int_eq(
		sv_export_chrome(stdout, NULL, NULL, NULL, &err), -EINVAL);
	{
		/* on a worker: every call looked at counts; a stop flag set
		 * stops each streaming writer with -ECANCELED */
		atomic_bool stop;
		_Atomic uint64_t seen;
		struct sv_export_scope w = {.cancel = &stop, .progress = &seen};
		FILE *null = fopen("/dev/null", "w");
		int (*writers[])(FILE *, const struct sv_profile *,
			const struct sv_export_scope *, const char *,
			struct sv_error *) = {
			sv_export_chrome, sv_export_speedscope, sv_export_csv};
		size_t k;
		ck_assert_ptr_nonnull(null);
		for (k = 0; k < 3; k++) {
			atomic_init(&stop, false);
			atomic_init(&seen, 0);
			ck_assert_int_eq(
				writers[k](null, p, &w, NULL, &err), 0);
			ck_assert_uint_ge(atomic_load(&seen), p->ncalls);
			atomic_store(&stop, true);
			ck_assert_int_eq(writers[k](null, p, &w, NULL, &err),
				-ECANCELED);
			ck_assert_ptr_nonnull(strstr(err.msg, "stopped"));
		}
		fclose(null);
	}
	full = fopen("/dev/full", "w");
	if (full) {
		ck_assert_int_eq(
			sv_export_chrome(full, p, NULL, NULL, &err), -EIO);
		ck_assert_ptr_nonnull(strstr(err.msg, "chrome"));
		fclose(full);
	}
	sv_profile_free(p);
}
END_TEST

/* Given the sample, when it is written as a JSON profile and read back
 * through sv_load, then the rows, calls and metadata are the sample's,
 * NaN and infinities in a call's metadata as null (RFC 8259). */
START_TEST(export_json_round_trip)
{
	struct sv_profile *p = sample(), *q = NULL;
	json_t *root = export_json(sv_export_json, p, NULL);
	char *path = svt_tmp_path("round.json");
	struct sv_error err = {0};
	FILE *f = fopen(path, "w");
	uint32_t c;

	ck_assert_str_eq(json_string_value(json_object_get(root, "format")),
		"scope-profiler-profile");
	ck_assert_uint_eq(json_array_size(json_object_get(root, "regions")), 5);
	json_decref(root);
	ck_assert_int_eq(sv_export_json(f, p, NULL, NULL, &err), 0);
	fclose(f);
	ck_assert_msg(sv_load(path, NULL, &q, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(q->nrows, p->nrows);
	ck_assert_uint_eq(q->ncalls, p->ncalls);
	ck_assert_uint_eq(q->nregions, p->nregions);
	for (c = 0; c < p->ncalls; c++) {
		uint32_t r = sv_profile_row_of(p, c);
		uint32_t rq;
		/* rows come region by region, as json_export.py writes them */
		for (rq = 0; rq < q->nrows; rq++)
			if (!strcmp(q->regions[q->rows[rq].region],
				    p->regions[p->rows[r].region]) &&
				q->rows[rq].rank == p->rows[r].rank)
				break;
		ck_assert_uint_lt(rq, q->nrows);
		ck_assert_int_eq(
			sv_profile_start(q, (uint32_t)q->rows[rq].first),
			sv_profile_start(p, c));
		ck_assert_int_eq(sv_profile_end(q, (uint32_t)q->rows[rq].first),
			sv_profile_end(p, c));
	}
	ck_assert_ptr_nonnull(sv_callmeta_of(q, 4));
	ck_assert(strstr(sv_callmeta_of(q, 4), "\"x\":null") != NULL);
	ck_assert(strstr(sv_callmeta_of(q, 4), "\"NaN\"") != NULL);
	sv_profile_free(q);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* One piece of format, of the ranks in share (NULL: the whole), as text;
 * a list piece without its first skip bytes when *first. */
static void piece_add(char **acc, size_t *len, const char *format,
	enum sv_export_piece piece, const struct sv_profile *p,
	const struct sv_export_scope *sc, struct sv_export_part *pt,
	const bool *share, size_t skip, bool *first)
{
	struct sv_error err = {0};
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	pt->share = share;
	pt->nshare = share ? 2 : 0;
	ck_assert_int_eq(sv_export_piece(format, piece, f, p, sc, "x,\"y\".h5",
				 pt, &err),
		0);
	fclose(f);
	if (first && *first && n) {
		ck_assert_uint_ge(n, skip);
		memmove(buf, buf + skip, n - skip);
		n -= skip;
		*first = false;
		pt->any = true;
	}
	*acc = realloc(*acc, *len + n + 1);
	memcpy(*acc + *len, buf, n);
	*len += n;
	(*acc)[*len] = '\0';
	free(buf);
}

/* An export in parts (sv_export_piece), rank 0's and rank 1's as two
 * processes of scopeview-mpi write them and the first puts them
 * together, is the serial writer's export byte for byte: with every
 * call, with rank 0's calls out of the range, and with none. */
static const int64_t piece_ranges[][3] = {{0, 0, 0}, {1, 160, 400}, {1, 9, 9}};

START_TEST(export_pieces_make_the_whole)
{
	static const char *const fmts[] = {
		"chrome", "speedscope", "csv", "json"};
	int (*const whole[])(FILE *, const struct sv_profile *,
		const struct sv_export_scope *, const char *,
		struct sv_error *) = {sv_export_chrome, sv_export_speedscope,
		sv_export_csv, sv_export_json};
	static const bool share[2][2] = {{true, false}, {false, true}};
	struct sv_profile *p = sample();
	struct sv_export_scope sc = {0};
	size_t f;

	sc.has_range = piece_ranges[_i][0] != 0;
	sc.t0 = piece_ranges[_i][1];
	sc.t1 = piece_ranges[_i][2];
	for (f = 0; f < 4; f++) {
		struct sv_export_part pt;
		char *want, *got = NULL;
		size_t len = 0, k, skip = f == 3 ? 2 : f == 2 ? 0 : 1;
		bool first = true;
		int t;

		want = export_text(whole[f], p, &sc);
		sv_export_part_of(&pt, p);
		piece_add(&got, &len, fmts[f], SV_EXPORT_HEAD, p, &sc, &pt,
			NULL, 0, NULL);
		if (f == 3) {
			uint32_t *order = sv_export_json_order(p), g;
			for (g = 0; g < p->nregions; g++)
				for (k = 0; k < 2; k++) {
					uint32_t rows[8];
					size_t n = 0, i;
					for (i = 0; i < p->nrows; i++)
						if (p->rows[order[i]].region ==
								g &&
							p->rows[order[i]]
									.rank ==
								k)
							rows[n++] = order[i];
					pt.rows = rows;
					pt.nrows = n;
					piece_add(&got, &len, "json",
						SV_EXPORT_ROWS, p, &sc, &pt,
						share[k], 2, &first);
				}
			free(order);
			for (t = 1; t <= 2; t++) {
				pt.table = t - 1;
				piece_add(&got, &len, "json", SV_EXPORT_BETWEEN,
					p, &sc, &pt, NULL, 0, NULL);
				pt.table = t;
				first = true;
				for (k = 0; k < 2; k++)
					piece_add(&got, &len, "json",
						SV_EXPORT_LANES, p, &sc, &pt,
						share[k], 2, &first);
			}
			pt.table = 2;
			piece_add(&got, &len, "json", SV_EXPORT_BETWEEN, p, &sc,
				&pt, NULL, 0, NULL);
		} else {
			pt.any = false;
			for (t = f == 0 ? SV_EXPORT_LANES : SV_EXPORT_CALLS;
				t <= SV_EXPORT_CALLS; t++)
				for (k = 0; k < 2; k++)
					piece_add(&got, &len, fmts[f],
						(enum sv_export_piece)t, p, &sc,
						&pt, share[k], skip, &first);
		}
		piece_add(&got, &len, fmts[f], SV_EXPORT_TAIL, p, &sc, &pt,
			NULL, 0, NULL);
		ck_assert_msg(!strcmp(want, got), "%s:\n%s\n---\n%s", fmts[f],
			want, got);
		free(want);
		free(got);
	}
	sv_profile_free(p);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("export");
	TCase *t = tcase_create("writers");
	tcase_add_test(t, export_chrome_events);
	tcase_add_test(t, export_speedscope_balanced);
	tcase_add_test(t, export_speedscope_broken_nesting);
	tcase_add_test(t, export_csv_quoting);
	tcase_add_loop_test(
		t, export_range_rule, 0, sizeof ranges / sizeof ranges[0]);
	tcase_add_test(t, export_lanes_and_errors);
	tcase_add_test(t, export_json_round_trip);
	tcase_add_loop_test(t, export_pieces_make_the_whole, 0,
		sizeof piece_ranges / sizeof piece_ranges[0]);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
