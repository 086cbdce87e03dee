/*
 * test_convert.c: the files scope-profiler writes besides its HDF5
 * profiles (doc/format.md 16), read through sv_load, and `convert`
 * (convert.h) writing them as one schema-3 file.
 *
 * Every input is written here at test time from the layouts of
 * doc/format.md 16: native traces of both versions in both byte orders
 * (and each way a trace can be damaged), directories mixing traces and
 * per-rank HDF5 files, JSON profiles plain and gzip.  h5py checks of the
 * converted files are in tests/e2e_formats.sh.
 */
#include "scopeview/convert.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "helpers.h"
#include "scopeview/callmeta.h"
#include "scopeview/callpath.h"
#include "scopeview/load.h"
#include "scopeview/palette.h"
#include "scopeview/stats.h"
#include "scopeview/write.h"

/* ------------------------------------------------------------------ */
/* Traces from the layout                                              */

struct tb {
	unsigned char *b;
	size_t n, cap;
	bool big; /* big-endian */
};

static void tb_put(struct tb *t, const void *p, size_t n)
{
	sv_grow((void **)&t->b, &t->cap, t->n + n, 1);
	memcpy(t->b + t->n, p, n);
	t->n += n;
}

static void tb_int(struct tb *t, uint64_t v, int bytes)
{
	unsigned char b[8];
	int i;
	for (i = 0; i < bytes; i++)
		b[t->big ? bytes - 1 - i : i] = (unsigned char)(v >> (8 * i));
	tb_put(t, b, (size_t)bytes);
}

static void tb_str(struct tb *t, const char *s)
{
	tb_int(t, strlen(s), 4);
	tb_put(t, s, strlen(s));
}

struct treg {
	const char *name, *src;
	int32_t line;
	size_t n;
	const int64_t *s, *e;
};

static void tb_trace(struct tb *t, int version, int32_t rank,
	const struct treg *r, size_t nr)
{
	size_t i, k;
	tb_put(t, "SCOPEPRF", 8);
	tb_int(t, (uint64_t)version, 4);
	tb_int(t, (uint64_t)(uint32_t)rank, 4);
	tb_int(t, nr, 8);
	for (i = 0; i < nr; i++) {
		tb_str(t, r[i].name);
		if (version >= 2) {
			tb_str(t, r[i].src ? r[i].src : "");
			tb_int(t, (uint64_t)(uint32_t)r[i].line, 4);
		}
		tb_int(t, r[i].n, 8);
		for (k = 0; k < r[i].n; k++)
			tb_int(t, (uint64_t)r[i].s[k], 8);
		for (k = 0; k < r[i].n; k++)
			tb_int(t, (uint64_t)r[i].e[k], 8);
	}
}

static void write_file(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	fclose(f);
}

static const int64_t main_s[] = {1000}, main_e[] = {2000};
static const int64_t solve_s[] = {1100, 1500}, solve_e[] = {1300, 1900};
static const int64_t kern_s[] = {1150}, kern_e[] = {1250};

static const struct treg regs[] = {
	{"main", "main.f90", 12, 1, main_s, main_e},
	{"solve", NULL, -1, 2, solve_s, solve_e},
	{"kernel", "k.c", 40, 1, kern_s, kern_e},
};

/* A trace of rank `rank` with regs, version and byte order given. */
static char *trace_file(const char *name, int version, bool big, int32_t rank)
{
	struct tb t = {.big = big};
	char *path = svt_tmp_path(name);
	tb_trace(&t, version, rank, regs, 3);
	write_file(path, t.b, t.n);
	free(t.b);
	return path;
}

static struct sv_profile *load_ok(const char *path)
{
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	ck_assert_msg(sv_load(path, NULL, &p, &e) == 0, "%s", e.msg);
	return p;
}

static void expect_fail(const char *path, int code, const char *words)
{
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	int rc = sv_load(path, NULL, &p, &e);
	ck_assert_msg(rc == code, "%s: rc %d (%s), expected %d", path, rc,
		e.msg, code);
	ck_assert_msg(strstr(e.msg, words), "%s: message '%s' lacks '%s'", path,
		e.msg, words);
	ck_assert_msg(!strchr(e.msg, '\n'), "not one line: %s", e.msg);
	ck_assert_ptr_null(p);
}

static const struct {
	int version;
	bool big;
} trace_cases[] = {{1, false}, {1, true}, {2, false}, {2, true}};

/* Given a trace of each version and byte order, when it is loaded, then
 * its rank, regions, calls and sources are those written, a lone rank 3
 * makes 4 ranks, and exclusive time comes from the nesting. */
START_TEST(test_trace_versions_and_orders)
{
	char name[64];
	char *path;
	struct sv_profile *p;
	const struct sv_meta *m;
	int64_t ex;
	uint32_t c;

	snprintf(name, sizeof name, "v%d%s_rank00003.spt",
		trace_cases[_i].version, trace_cases[_i].big ? "be" : "le");
	path = trace_file(
		name, trace_cases[_i].version, trace_cases[_i].big, 3);
	p = load_ok(path);
	ck_assert_uint_eq(p->num_ranks, 4);
	ck_assert_uint_eq(p->nrows, 3);
	ck_assert_uint_eq(p->ncalls, 4);
	ck_assert_uint_eq(p->nregions, 3);
	/* base order: first start, as import-native's file has it */
	ck_assert_str_eq(p->regions[0], "main");
	ck_assert_str_eq(p->regions[1], "solve");
	ck_assert_str_eq(p->regions[2], "kernel");
	ck_assert_uint_eq(p->rows[0].rank, 3);
	c = (uint32_t)p->rows[1].first;
	ck_assert_int_eq(sv_profile_start(p, c + 1), 1500);
	ck_assert_int_eq(sv_profile_end(p, c + 1), 1900);
	if (trace_cases[_i].version == 2) {
		ck_assert_str_eq(p->rows[0].source_file, "main.f90");
		ck_assert_int_eq(p->rows[0].source_line, 12);
		ck_assert_ptr_null(p->rows[1].source_file);
		ck_assert_int_eq(p->rows[1].source_line, -1);
	} else {
		ck_assert_ptr_null(p->rows[0].source_file);
		ck_assert_int_eq(p->rows[0].source_line, -1);
	}
	/* main 1000 ns minus solve's 200 + 400 */
	ex = sv_profile_exclusive(p, (uint32_t)p->rows[0].first);
	ck_assert_int_eq(ex, 400);
	m = sv_profile_meta(p, "source");
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(m->text, "native");
	m = sv_profile_meta(p, "start_time_ns");
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(m->i, 1000);
	ck_assert(p->has_start_time);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* A damaged trace, byte by byte. */
enum bad_kind {
	BAD_SHORT,
	BAD_MAGIC,
	BAD_VERSION,
	BAD_HUGE_COUNT,
	BAD_CUT_ARRAY,
	BAD_CUT_NAME,
	BAD_TRAILING,
	BAD_NEG_COUNT,
	BAD_REGIONS,
	BAD_NEG_RANK,
};

static const struct {
	enum bad_kind kind;
	int code;
	const char *words;
} bad_cases[] = {
	{BAD_SHORT, -EINVAL, "too short to be a trace file"},
	{BAD_MAGIC, -EINVAL, "not a scope-profiler native trace"},
	{BAD_VERSION, -ENOTSUP, "unsupported trace format version 7"},
	{BAD_HUGE_COUNT, -EINVAL, "region 1 \"solve\": it claims"},
	{BAD_CUT_ARRAY, -EINVAL, "truncated trace file: region 2"},
	{BAD_CUT_NAME, -EINVAL, "the name is 9 bytes"},
	{BAD_TRAILING, -EINVAL, "3 trailing byte(s) after the last region"},
	{BAD_NEG_COUNT, -EINVAL, "claims -1 calls"},
	{BAD_REGIONS, -EINVAL, "the header claims 1000000 regions"},
	{BAD_NEG_RANK, -EINVAL, "claims rank -2"},
};

START_TEST(test_trace_errors)
{
	struct tb t = {.big = _i % 2 == 1};
	char name[64];
	char *path;

	snprintf(name, sizeof name, "bad%d.spt", _i);
	path = svt_tmp_path(name);
	switch (bad_cases[_i].kind) {
	case BAD_SHORT:
		tb_put(&t, "SCOPEPRF\2\0\0\0", 12);
		break;
	case BAD_MAGIC:
		tb_trace(&t, 2, 0, regs, 3);
		memcpy(t.b, "SCOPEPRX", 8);
		break;
	case BAD_VERSION:
		t.big = false;
		tb_trace(&t, 7, 0, regs, 3);
		break;
	case BAD_HUGE_COUNT: {
		/* region 1 claims 2^60 calls in a file of a few hundred
		 * bytes: no allocation, an error at once */
		struct treg r[3];
		memcpy(r, regs, sizeof r);
		tb_trace(&t, 1, 0, r, 1);
		tb_str(&t, "solve");
		tb_int(&t, (uint64_t)1 << 60, 8);
		tb_int(&t, 5, 8);
		t.b[16 + (t.big ? 7 : 0)] = 2; /* two regions */
		break;
	}
	case BAD_CUT_ARRAY:
		tb_trace(&t, 2, 0, regs, 3);
		t.n -= 4;
		break;
	case BAD_CUT_NAME:
		tb_trace(&t, 2, 0, regs, 1);
		t.b[16 + (t.big ? 7 : 0)] = 2;
		tb_int(&t, 9, 4);
		tb_put(&t, "sol", 3);
		break;
	case BAD_TRAILING:
		tb_trace(&t, 2, 0, regs, 3);
		tb_put(&t, "xyz", 3);
		break;
	case BAD_NEG_COUNT:
		tb_trace(&t, 1, 0, regs, 0);
		t.b[16 + (t.big ? 7 : 0)] = 1;
		tb_str(&t, "neg");
		tb_int(&t, UINT64_MAX, 8);
		break;
	case BAD_REGIONS:
		tb_trace(&t, 2, 0, regs, 0);
		t.n -= 8;
		tb_int(&t, 1000000, 8);
		break;
	case BAD_NEG_RANK:
		tb_trace(&t, 2, -2, regs, 3);
		break;
	}
	write_file(path, t.b, t.n);
	expect_fail(path, bad_cases[_i].code, bad_cases[_i].words);
	free(t.b);
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Directories                                                         */

/* A per-rank HDF5 file as the C API writes it: schema 2, one rank. */
static void rank_h5(const char *path, uint32_t rank, int64_t shift)
{
	struct sv_writer_opts wo;
	struct sv_writer *w;
	struct sv_error e = {0};
	struct sv_write_row rows[2] = {
		{.name = "main", .count = 1, .source_line = -1},
		{.name = "io",
			.count = 1,
			.source_file = "io.c",
			.source_line = 7},
	};
	int64_t s[2] = {5000 + shift, 5100 + shift};
	int64_t en[2] = {6000 + shift, 5200 + shift};
	struct sv_write_rank r = {.rank = rank,
		.rows = rows,
		.nrows = 2,
		.ncalls = 2,
		.start_ns = s,
		.end_ns = en};

	sv_writer_opts_init(&wo);
	wo.schema = 2;
	wo.exclusive = SV_WRITE_EXCL_UNKNOWN;
	ck_assert_int_eq(sv_writer_open(&w, path, &wo, &e), 0);
	ck_assert_int_eq(sv_writer_meta_str(w, "source", "native", &e), 0);
	ck_assert_int_eq(sv_writer_meta_str(w, "hostname", "h5node", &e), 0);
	ck_assert_int_eq(sv_writer_meta_int(w, "mpi_rank", rank, &e), 0);
	ck_assert_int_eq(sv_writer_add_rank(w, &r, &e), 0);
	ck_assert_msg(sv_writer_close(w, &e) == 0, "%s", e.msg);
}

/* Given a directory of two traces, two per-rank HDF5 files and a merged
 * profile beside them, when it is loaded, then it is one run of the four
 * ranks, the merged file is left out, the metadata is the lowest HDF5
 * rank's plus source = native, and start_time_ns the earliest start. */
START_TEST(test_dir_mixed)
{
	char *dir = svt_tmp_path("mixed");
	char *p0, *p1, *h2, *h5, *merged;
	struct tb t = {0};
	struct sv_profile *p;
	const struct sv_meta *m;
	struct sv_error e = {0};
	size_t i;

	ck_assert_int_eq(mkdir(dir, 0700), 0);
	p0 = sv_xasprintf("%s/run_rank00000.spt", dir);
	p1 = sv_xasprintf("%s/run_rank00001.spt", dir);
	h2 = sv_xasprintf("%s/run_rank00002.h5", dir);
	h5 = sv_xasprintf("%s/run_rank00005.h5", dir);
	merged = sv_xasprintf("%s/merged.h5", dir);
	tb_trace(&t, 2, 0, regs, 3);
	write_file(p0, t.b, t.n);
	t.n = 0;
	t.big = true;
	tb_trace(&t, 1, 1, regs, 2);
	write_file(p1, t.b, t.n);
	free(t.b);
	rank_h5(h2, 2, 0);
	rank_h5(h5, 5, -4500);
	rank_h5(merged, 9, 0);

	p = load_ok(dir);
	ck_assert_uint_eq(p->num_ranks, 6);
	ck_assert_uint_eq(p->nrows, 3 + 2 + 2 + 2);
	for (i = 0; i < p->nrows; i++)
		ck_assert_uint_ne(p->rows[i].rank, 9);
	m = sv_profile_meta(p, "hostname");
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(m->text, "h5node");
	m = sv_profile_meta(p, "mpi_rank");
	ck_assert_int_eq(m->i, 2); /* the lowest rank's HDF5 file */
	ck_assert_str_eq(sv_profile_meta(p, "source")->text, "native");
	ck_assert_int_eq(sv_profile_meta(p, "start_time_ns")->i, 500);
	ck_assert_int_eq(sv_profile_meta(p, "trace_format_version")->i, 2);
	/* io of rank 5 starts first: the region table follows the writer */
	ck_assert_str_eq(p->regions[0], "main");
	sv_profile_free(p);

	/* Ranks 1 and 5 only: the others are not read, the run's figures
	 * stay the whole run's. */
	{
		bool on[6] = {false, true, false, false, false, true};
		struct sv_load_opts o = {.rank_on = on, .nrank_on = 6};
		ck_assert_int_eq(sv_load(dir, &o, &p, &e), 0);
		ck_assert(p->rank_subset);
		ck_assert_uint_eq(p->nrows, 2 + 2);
		ck_assert_uint_eq(p->file_rows, 9);
		ck_assert_uint_eq(p->file_ranks, 6);
		ck_assert_uint_eq(p->num_ranks, 6);
		ck_assert_uint_eq(p->ncalls, 1 + 2 + 2);
		ck_assert(p->has_run_start);
		ck_assert_int_eq(p->run_start_ns, 1000);
		sv_profile_free(p);
	}

	/* The same files named one by one, a directory among them. */
	{
		const char *paths[] = {p0, p1, h2, h5};
		ck_assert_int_eq(sv_load_paths(paths, 4, NULL, &p, &e), 0);
		ck_assert_uint_eq(p->nrows, 9);
		sv_profile_free(p);
	}

	/* Two files of one rank: an error naming both. */
	{
		char *again = sv_xasprintf("%s/again_rank00001.h5", dir);
		rank_h5(again, 1, 0);
		expect_fail(dir, -EINVAL, "both claim rank 1");
		ck_assert(strstr(e.msg, "") != NULL);
		remove(again);
		free(again);
	}
	/* An empty directory. */
	{
		char *empty = svt_tmp_path("emptydir");
		ck_assert_int_eq(mkdir(empty, 0700), 0);
		expect_fail(empty, -ENOENT, "no .spt traces");
		free(empty);
	}
	free(p0);
	free(p1);
	free(h2);
	free(h5);
	free(merged);
	free(dir);
}
END_TEST

/* Given a summary-only load of a directory, then its rows and counts are
 * there without the calls. */
START_TEST(test_dir_summary_only)
{
	char *dir = svt_tmp_path("sonly");
	char *p0 = NULL;
	struct tb t = {0};
	struct sv_load_opts o = {.summary_only = true};
	struct sv_profile *p = NULL;
	struct sv_error e = {0};

	ck_assert_int_eq(mkdir(dir, 0700), 0);
	p0 = sv_xasprintf("%s/x_rank00000.spt", dir);
	tb_trace(&t, 2, 0, regs, 3);
	write_file(p0, t.b, t.n);
	free(t.b);
	ck_assert_msg(sv_load(dir, &o, &p, &e) == 0, "%s", e.msg);
	ck_assert(!p->has_calls);
	ck_assert_uint_eq(p->nrows, 3);
	ck_assert_uint_eq(p->rows[1].count, 2);
	ck_assert_uint_eq(p->ncalls, 0);
	sv_profile_free(p);
	free(p0);
	free(dir);
}
END_TEST

/* ------------------------------------------------------------------ */
/* JSON                                                                */

static const char json_doc[] =
	"{\"format\": \"scope-profiler-profile\", \"format_version\": 1, "
	"\"exporter\": \"test\", \"time_unit\": \"nanoseconds\", "
	"\"num_ranks\": 3, \"event_data_available\": true, "
	"\"metadata\": {\"label\": \"j\", \"mpi_size\": 3, \"ratio\": 0.5, "
	"\"flag\": true, \"modules\": [\"a\", \"b\"], \"none\": null, "
	"\"start_time_ns\": 900}, "
	"\"regions\": [{\"name\": \"main\", \"rank\": 0, "
	"\"source_file\": \"m.py\", \"source_lineno\": 3, \"tags\": [\"t1\"], "
	"\"start_times_ns\": [1000], \"end_times_ns\": [2000], "
	"\"gpu_durations_ns\": [-1], \"exclusive_total_ns\": 600}, "
	"{\"name\": \"solve\", \"rank\": 0, \"start_times_ns\": [1100, 1500], "
	"\"end_times_ns\": [1300, 1700], \"gpu_durations_ns\": [50, 60]}, "
	"{\"name\": \"main\", \"rank\": 2, \"start_times_ns\": [], "
	"\"end_times_ns\": []}], "
	"\"threads\": {\"0\": [{\"index\": 0, \"name\": \"MainThread\", "
	"\"ident\": 1, \"native_id\": 2, \"daemon\": false, \"start_ns\": 0, "
	"\"end_ns\": -1, \"cpu_ns\": 5}]}, "
	"\"likwid\": {}}";

static void check_json_profile(struct sv_profile *p)
{
	const struct sv_meta *m;
	ck_assert_uint_eq(p->num_ranks, 3);
	ck_assert_uint_eq(p->nrows, 3);
	ck_assert_uint_eq(p->ncalls, 3);
	ck_assert_str_eq(p->regions[0], "main");
	ck_assert_str_eq(p->rows[0].source_file, "m.py");
	ck_assert_int_eq(p->rows[0].source_line, 3);
	ck_assert_uint_eq(p->rows[0].ntags, 1);
	ck_assert_str_eq(p->rows[0].tags[0], "t1");
	ck_assert_int_eq(p->rows[0].exclusive_total, 600);
	ck_assert(!p->rows[0].has_gpu);
	ck_assert(p->rows[1].has_gpu);
	ck_assert_int_eq(sv_profile_gpu(p, (uint32_t)p->rows[1].first + 1), 60);
	ck_assert_uint_eq(p->rows[2].rank, 2);
	ck_assert_uint_eq(p->rows[2].count, 0);
	m = sv_profile_meta(p, "ratio");
	ck_assert_int_eq(m->kind, SV_META_FLOAT);
	ck_assert_str_eq(m->text, "0.5");
	ck_assert_int_eq(sv_profile_meta(p, "flag")->kind, SV_META_BOOL);
	ck_assert_int_eq(sv_profile_meta(p, "modules")->kind, SV_META_STRINGS);
	ck_assert_str_eq(sv_profile_meta(p, "none")->text, "None");
	ck_assert(p->has_start_time);
	ck_assert_int_eq(p->start_time_ns, 900);
	ck_assert_uint_eq(p->nthreads, 1);
	ck_assert_str_eq(p->threads[0].name, "MainThread");
	ck_assert_int_eq(p->threads[0].end_ns, -1);
}

START_TEST(test_json_plain_and_gzip)
{
	char *plain = svt_tmp_path("p.json");
	char *gz = svt_tmp_path("p.json.gz");
	char *noname = svt_tmp_path("p.profile");
	struct sv_profile *p;
	gzFile g;

	write_file(plain, json_doc, strlen(json_doc));
	p = load_ok(plain);
	check_json_profile(p);
	sv_profile_free(p);

	/* gzip, in two members, and under a name that says nothing */
	g = gzopen(gz, "wb");
	ck_assert_ptr_nonnull(g);
	gzwrite(g, json_doc, 100);
	gzclose(g);
	g = gzopen(gz, "ab");
	gzwrite(g, json_doc + 100, (unsigned)strlen(json_doc) - 100);
	gzclose(g);
	p = load_ok(gz);
	check_json_profile(p);
	sv_profile_free(p);
	ck_assert_int_eq(rename(gz, noname), 0);
	p = load_ok(noname);
	check_json_profile(p);
	sv_profile_free(p);
	free(plain);
	free(gz);
	free(noname);
}
END_TEST

static const struct {
	const char *text;
	int code;
	const char *words;
} json_bad[] = {
	{"{\"regions\": []}", -EINVAL, "not a scope-profiler JSON profile"},
	{"{\"format\": \"speedscope\"}", -EINVAL, "not a scope-profiler"},
	{"{\"format\": \"scope-profiler-profile\", \"format_version\": 2}",
		-ENOTSUP, "format version 2"},
	{"{\"format\": \"scope-profiler-profile\", \"regions\": [{\"name\": "
	 "\"a\", \"rank\": 0, \"start_times_ns\": [1, 2",
		-EINVAL, "not valid JSON"},
	{"{\"format\": \"scope-profiler-profile\", \"regions\": [{\"name\": "
	 "\"a\", \"rank\": 0, \"start_times_ns\": [1, 2], \"end_times_ns\": "
	 "[3]}]}",
		-EINVAL, "1 end_times_ns for 2 start_times_ns"},
	{"{\"format\": \"scope-profiler-profile\", \"regions\": [{\"name\": "
	 "\"a\", \"rank\": 0, \"start_times_ns\": [1.5], \"end_times_ns\": "
	 "[3]}]}",
		-EINVAL, "start_times_ns[0] is a float"},
	{"{\"format\": \"scope-profiler-profile\", \"regions\": [{\"name\": "
	 "\"a\", \"rank\": 0}, {\"name\": \"a\", \"rank\": 0}]}",
		-EINVAL, "appears twice"},
	{"{\"format\": \"scope-profiler-profile\", \"regions\": [{\"rank\": "
	 "0}]}",
		-EINVAL, "regions[0]: no \"name\""},
	{"{\"format\": \"scope-profiler-profile\", \"regions\": [{\"name\": "
	 "\"a\", \"rank\": -1}]}",
		-EINVAL, "\"rank\" is not a rank"},
	{"{\"format\": \"scope-profiler-profile\", \"regions\": [{\"name\": "
	 "\"a\", \"rank\": 0, \"start_times_ns\": [99999999999999999999]}]}",
		-EINVAL, "not valid JSON"},
	{"{\"format\": \"scope-profiler-profile\"} trailing", -EINVAL,
		"not valid JSON"},
};

START_TEST(test_json_errors)
{
	char name[32];
	char *path;

	snprintf(name, sizeof name, "bad%d.json", _i);
	path = svt_tmp_path(name);
	write_file(path, json_bad[_i].text, strlen(json_bad[_i].text));
	expect_fail(path, json_bad[_i].code, json_bad[_i].words);
	free(path);
}
END_TEST

START_TEST(test_gzip_damaged)
{
	char *gz = svt_tmp_path("d.json.gz");
	char *buf;
	size_t n;
	gzFile g = gzopen(gz, "wb");

	gzwrite(g, json_doc, (unsigned)strlen(json_doc));
	gzclose(g);
	/* gzip of a number, not of an object (fuzz/regress/formats/
	 * gzip-top-level-number) */
	g = gzopen(gz, "wb");
	gzwrite(g, "2 {", 3);
	gzclose(g);
	expect_fail(gz, -EINVAL, "not a scope-profiler JSON profile");
	g = gzopen(gz, "wb");
	gzwrite(g, json_doc, (unsigned)strlen(json_doc));
	gzclose(g);
	buf = svt_read_file(gz, &n);
	/* cut: the stream ends early */
	write_file(gz, buf, n / 2);
	expect_fail(gz, -EINVAL, "gzip: the compressed stream ends early");
	/* damaged in the middle */
	buf[n / 2] ^= 0x55;
	buf[n / 2 + 1] ^= 0x55;
	write_file(gz, buf, n);
	expect_fail(gz, -EINVAL, "gzip");
	free(buf);
	free(gz);
}
END_TEST

/* Given a JSON profile with per-call metadata, LIKWID results and line
 * profiles, then each reaches the profile as the HDF5 loader puts it. */
START_TEST(test_json_extras)
{
	static const char doc[] =
		"{\"format\": \"scope-profiler-profile\", \"num_ranks\": 1, "
		"\"regions\": [{\"name\": \"a\", \"rank\": 0, "
		"\"start_times_ns\": [1, 5], \"end_times_ns\": [3, 9], "
		"\"event_metadata\": [{\"phase\": \"warm\", \"it\": 1.0}, "
		"{}]}, "
		"{\"name\": \"b\", \"rank\": 0, \"start_times_ns\": [2], "
		"\"end_times_ns\": [3], \"event_metadata\": [{}, {}]}], "
		"\"likwid\": {\"0\": {\"a\": {\"tag\": \"a\", \"group_id\": 1, "
		"\"group_name\": \"FLOPS\", \"cpus\": [0, 1], \"times\": [0.5, "
		"null], \"call_counts\": [2, 3], \"event_names\": [\"X\", "
		"\"X\"], "
		"\"counter_names\": [\"PMC0\", \"PMC1\"], \"events\": [[1, 2], "
		"[3, 4]], \"metric_names\": [\"M\"], \"metrics\": [[2.0, "
		"4.0]], "
		"\"source\": \"pylikwid\"}}}, "
		"\"line_profile\": {\"0\": [{\"region\": \"a\", \"filename\": "
		"\"a.py\", \"function\": \"f\", \"first_lineno\": 10, "
		"\"line_numbers\": [11, 12], \"hits\": [1, 2], \"times\": "
		"[5.0, "
		"null], \"unit\": 1e-06}]}}";
	char *path = svt_tmp_path("extras.json");
	struct sv_profile *p;
	const struct sv_counters *k;

	write_file(path, doc, strlen(doc));
	p = load_ok(path);
	ck_assert_ptr_nonnull(sv_callmeta_of(p, 0));
	ck_assert(strstr(sv_callmeta_of(p, 0), "\"phase\":\"warm\"") != NULL);
	ck_assert(strstr(sv_callmeta_of(p, 0), "1.0") != NULL);
	ck_assert_ptr_null(sv_callmeta_of(p, 1));
	ck_assert_uint_eq(p->ncounters, 1);
	k = &p->counters[0];
	ck_assert(k->likwid);
	ck_assert_str_eq(k->region, "a");
	ck_assert_str_eq(k->group, "FLOPS");
	ck_assert_uint_eq(k->nthreads, 2);
	ck_assert_str_eq(k->events[0], "X:PMC0");
	ck_assert(k->values[0] == 3 && k->values[1] == 7);
	ck_assert_int_eq(k->calls, 5);
	ck_assert(k->time_s == 0.5);
	ck_assert(k->metric_values[0] == 3.0);
	ck_assert_uint_eq(p->nlineprofs, 1);
	ck_assert_str_eq(p->lineprofs[0].filename, "a.py");
	ck_assert_uint_eq(p->lineprofs[0].nlines, 2);
	ck_assert_int_eq(p->lineprofs[0].hits[1], 2);
	ck_assert(p->lineprofs[0].unit == 1e-6);
	/* row b's list does not fit its one call: dropped, said once */
	ck_assert_uint_eq(p->nwarnings, 1);
	ck_assert(strstr(p->warnings[0], "regions[1].event_metadata: holds 2 "
					 "entries for 1 calls") != NULL);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* A JSON profile of stored statistics only (aggregation mode). */
START_TEST(test_json_aggregate)
{
	static const char doc[] =
		"{\"format\": \"scope-profiler-profile\", \"num_ranks\": 1, "
		"\"regions\": [{\"name\": \"a\", \"rank\": 0, \"aggregate\": "
		"{\"count\": 4, \"total\": 400, \"minimum\": 50, \"maximum\": "
		"200, \"exclusive\": 300}}]}";
	char *path = svt_tmp_path("agg.json");
	struct sv_profile *p;

	write_file(path, doc, strlen(doc));
	p = load_ok(path);
	ck_assert(!p->has_calls);
	ck_assert_int_eq(p->layout, SV_LAYOUT_AGGREGATE);
	ck_assert_uint_eq(p->rows[0].count, 4);
	ck_assert_int_eq(p->rows[0].summary.total, 400);
	ck_assert_int_eq(p->rows[0].exclusive_total, 300);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* convert                                                             */

/* The statistics of two profiles, region by region, as figures. */
static void same_figures(struct sv_profile *a, struct sv_profile *b)
{
	struct sv_stats_table ta, tb2;
	struct sv_error e = {0};
	size_t i;

	ck_assert_int_eq(sv_stats_table_compute(&ta, a, NULL, &e), 0);
	ck_assert_int_eq(sv_stats_table_compute(&tb2, b, NULL, &e), 0);
	ck_assert_uint_eq(ta.nregions, tb2.nregions);
	for (i = 0; i < ta.nregions; i++) {
		const struct sv_stats *x = &ta.regions[i].s,
				      *y = &tb2.regions[i].s;
		ck_assert_str_eq(ta.regions[i].name, tb2.regions[i].name);
		ck_assert_uint_eq(x->num_calls, y->num_calls);
		ck_assert_int_eq(x->total_ns, y->total_ns);
		ck_assert_int_eq(x->has_exclusive, y->has_exclusive);
		ck_assert_int_eq(x->exclusive_ns, y->exclusive_ns);
		ck_assert_int_eq(x->min_ns, y->min_ns);
		ck_assert_int_eq(x->max_ns, y->max_ns);
		ck_assert_int_eq(x->first_ns, y->first_ns);
		ck_assert_int_eq(x->last_ns, y->last_ns);
	}
	sv_stats_table_fini(&ta);
	sv_stats_table_fini(&tb2);
}

/* Given a trace and a JSON profile, when each is converted and read back,
 * then the figures are those of the input, the layout is schema 3 with
 * stored exclusive totals and summaries, and the native run is labelled
 * as asked. */
START_TEST(test_convert_round_trip)
{
	char *spt = trace_file("c_rank00001.spt", 2, true, 1);
	char *json = svt_tmp_path("c.json");
	char *out = svt_tmp_path("c.h5");
	struct sv_profile *a, *b;
	struct sv_error e = {0};
	struct sv_strv notes = {0};
	const struct sv_meta *m;
	size_t i;

	a = load_ok(spt);
	ck_assert_msg(
		sv_convert_write(a, out, "c", &notes, &e) == 0, "%s", e.msg);
	b = load_ok(out);
	ck_assert_int_eq(b->schema, 3);
	for (i = 0; i < b->nrows; i++) {
		ck_assert(b->rows[i].has_summary);
		ck_assert_int_ge(b->rows[i].exclusive_total, 0);
	}
	m = sv_profile_meta(b, "label");
	ck_assert_str_eq(m->text, "c");
	ck_assert_str_eq(sv_profile_meta(b, "source")->text, "native");
	same_figures(a, b);
	ck_assert_uint_eq(b->num_ranks, 2);
	sv_profile_free(a);
	sv_profile_free(b);

	write_file(json, json_doc, strlen(json_doc));
	a = load_ok(json);
	ck_assert_int_eq(sv_convert_write(a, out, NULL, &notes, &e), 0);
	/* the null metadata value cannot be an attribute */
	ck_assert_uint_eq(notes.n, 1);
	ck_assert(strstr(notes.v[0], "none") != NULL);
	b = load_ok(out);
	same_figures(a, b);
	ck_assert_int_eq(b->rows[0].exclusive_total, 600);
	ck_assert(b->rows[1].has_gpu);
	ck_assert_uint_eq(b->nthreads, 1);
	ck_assert_str_eq(sv_profile_meta(b, "label")->text, "j");
	sv_profile_free(a);
	sv_profile_free(b);
	sv_strv_fini(&notes);
	free(spt);
	free(json);
	free(out);
}
END_TEST

START_TEST(test_convert_needs_calls)
{
	static const char doc[] =
		"{\"format\": \"scope-profiler-profile\", \"regions\": "
		"[{\"name\": \"a\", \"rank\": 0, \"aggregate\": {\"count\": "
		"1, \"total\": 5}}]}";
	char *path = svt_tmp_path("agg2.json");
	char *out = svt_tmp_path("agg2.h5");
	struct sv_profile *p;
	struct sv_error e = {0};
	struct stat st;

	write_file(path, doc, strlen(doc));
	p = load_ok(path);
	ck_assert_int_eq(sv_convert_write(p, out, NULL, NULL, &e), -EINVAL);
	ck_assert(strstr(e.msg, "stored statistics only") != NULL);
	ck_assert_int_ne(stat(out, &st), 0);
	sv_profile_free(p);
	free(path);
	free(out);
}
END_TEST

/* Any prefix of a trace or a JSON profile, and any byte of them
 * changed, loads or fails with a message: never a crash, a hang or a
 * sanitizer report (the suite runs under ASAN+UBSAN too). */
START_TEST(test_damaged_never_crash)
{
	struct tb t = {.big = _i == 1};
	char *path = svt_tmp_path(_i == 2 ? "mut.json" : "mut.spt");
	const unsigned char *src;
	unsigned char *copy;
	size_t n, k;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	if (_i == 2) {
		src = (const unsigned char *)json_doc;
		n = strlen(json_doc);
	} else {
		tb_trace(&t, 2 - _i, 5, regs, 3);
		src = t.b;
		n = t.n;
	}
	copy = sv_xmalloc(n);
	for (k = 0; k < n + 200; k++) {
		struct sv_profile *p = NULL;
		struct sv_error e = {0};
		size_t len = n, at;
		memcpy(copy, src, n);
		if (k < n) {
			len = k; /* every prefix */
		} else {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			at = (size_t)(x >> 33) % n;
			copy[at] = (unsigned char)(x >> 20);
			copy[(at * 7 + 3) % n] ^= (unsigned char)(x >> 12);
		}
		write_file(path, copy, len);
		if (sv_load(path, NULL, &p, &e) == 0)
			sv_profile_free(p);
		else
			ck_assert_msg(e.msg[0] && !strchr(e.msg, '\n'),
				"case %zu: '%s'", k, e.msg);
	}
	free(copy);
	free(t.b);
	free(path);
}
END_TEST

/* Found by fuzz_formats (fuzz/regress/formats/callpath-overflow): two
 * top-level calls whose durations add past int64 made the call tree's
 * totals overflow; they wrap now, as every sum of file values does. */
START_TEST(test_absurd_times_call_tree)
{
	static const int64_t s[] = {-(INT64_MAX / 4 * 3), 1};
	static const int64_t en[] = {0, INT64_MAX};
	static const struct treg r[] = {{"a", NULL, -1, 2, s, en}};
	struct tb t = {0};
	char *path = svt_tmp_path("absurd_rank0.spt");
	struct sv_callpath tree;
	struct sv_profile *p;

	tb_trace(&t, 1, 0, r, 1);
	write_file(path, t.b, t.n);
	p = load_ok(path);
	memset(&tree, 0, sizeof tree);
	ck_assert_int_eq(sv_callpath_build(&tree, p, NULL, NULL), 0);
	ck_assert_uint_eq(tree.calls, 2);
	sv_callpath_fini(&tree);
	/* and the colours, weighed by each region's time
	 * (fuzz/regress/formats/palette-overflow) */
	{
		struct sv_palette_map m;
		memset(&m, 0, sizeof m);
		sv_palette_map_build(&m, p, NULL);
		sv_palette_map_fini(&m);
	}
	sv_profile_free(p);
	free(t.b);
	free(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("convert");
	TCase *t = tcase_create("traces");
	tcase_add_loop_test(t, test_trace_versions_and_orders, 0,
		(int)(sizeof trace_cases / sizeof trace_cases[0]));
	tcase_add_loop_test(t, test_trace_errors, 0,
		(int)(sizeof bad_cases / sizeof bad_cases[0]));
	suite_add_tcase(s, t);

	t = tcase_create("directories");
	tcase_add_test(t, test_dir_mixed);
	tcase_add_test(t, test_dir_summary_only);
	suite_add_tcase(s, t);

	t = tcase_create("json");
	tcase_add_test(t, test_json_plain_and_gzip);
	tcase_add_loop_test(t, test_json_errors, 0,
		(int)(sizeof json_bad / sizeof json_bad[0]));
	tcase_add_test(t, test_gzip_damaged);
	tcase_add_test(t, test_json_aggregate);
	tcase_add_test(t, test_json_extras);
	suite_add_tcase(s, t);

	t = tcase_create("damaged");
	tcase_add_loop_test(t, test_damaged_never_crash, 0, 3);
	tcase_add_test(t, test_absurd_times_call_tree);
	suite_add_tcase(s, t);

	t = tcase_create("convert");
	tcase_add_test(t, test_convert_round_trip);
	tcase_add_test(t, test_convert_needs_calls);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
