/*
 * test_load_meta.c: the metadata a profile carries besides its calls:
 * /metadata's attributes of every HDF5 type, shown as Python's str()
 * shows what h5py returns (load_h5_meta.c), and the per-call event
 * metadata of /rank_region_index/event_metadata (doc/format.md 4.11:
 * JSON lists per row, kept as compact text, callmeta.h), with one
 * warning for a table of bad rows.
 */
#include <hdf5.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "load_files.h"
#include "scopeview/callmeta.h"

START_TEST(test_metadata_types)
{
	char *path = lf_base_write("meta.h5", M_NONE);
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	hid_t g = H5Gopen2(f, "metadata", H5P_DEFAULT);
	const char *mods[] = {"gcc/12.3.0", "openmpi/4.1.5"};
	int64_t ints[] = {1, 2, 3};
	uint8_t u8 = 200;
	uint64_t big = UINT64_MAX;
	struct sv_profile *p;
	static const struct {
		const char *key;
		enum sv_meta_kind kind;
		const char *text;
	} want[] = {
		{"a_int", SV_META_INT, "-42"},
		{"a_u8", SV_META_INT, "200"},
		{"a_u64", SV_META_INT, "18446744073709551615"},
		{"b_float", SV_META_FLOAT, "0.1"},
		{"b_float_int", SV_META_FLOAT, "123.0"},
		{"b_float_big", SV_META_FLOAT, "1e+20"},
		{"b_float_small", SV_META_FLOAT, "1.5e-05"},
		{"b_float_neg", SV_META_FLOAT, "-2.5"},
		{"b_float_third", SV_META_FLOAT, "0.3333333333333333"},
		{"b_float_1e16", SV_META_FLOAT, "1e+16"},
		{"b_float_big_int", SV_META_FLOAT, "1234567890123456.0"},
		{"b_float32", SV_META_FLOAT, "0.1"},
		{"c_true", SV_META_BOOL, "True"},
		{"c_false", SV_META_BOOL, "False"},
		{"d_str", SV_META_STRING, "node0"},
		{"d_fixed", SV_META_STRING, "fixed"},
		{"e_strs", SV_META_STRINGS, "gcc/12.3.0, openmpi/4.1.5"},
		{"f_ints", SV_META_OTHER, "1, 2, 3"},
		{"finalize_time_ns", SV_META_STRING, "1000"},
		{"mpi_size", SV_META_INT, "2"},
		{"start_time_ns", SV_META_INT, "50"},
	};
	size_t i;

	lf_attr_i64(g, "a_int", -42);
	lf_attr_num(g, "a_u8", H5T_STD_U8LE, H5T_NATIVE_UINT8, &u8);
	lf_attr_num(g, "a_u64", H5T_STD_U64LE, H5T_NATIVE_UINT64, &big);
	lf_attr_f64(g, "b_float", 0.1);
	lf_attr_f64(g, "b_float_int", 123.0);
	lf_attr_f64(g, "b_float_big", 1e20);
	lf_attr_f64(g, "b_float_small", 1.5e-5);
	lf_attr_f64(g, "b_float_neg", -2.5);
	lf_attr_f64(g, "b_float_third", 1.0 / 3);
	lf_attr_f64(g, "b_float_1e16", 1e16);
	lf_attr_f64(g, "b_float_big_int", 1234567890123456.0);
	{
		float f32 = 0.1f;
		lf_attr_num(
			g, "b_float32", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, &f32);
	}
	lf_attr_bool(g, "c_true", true);
	lf_attr_bool(g, "c_false", false);
	lf_attr_str(g, "d_str", "node0");
	lf_attr_fixed_str(g, "d_fixed", "fixed");
	lf_attr_strs(g, "e_strs", mods, 2);
	lf_attr_i64s(g, "f_ints", ints, 3);
	/* finalize_time_ns as a string: float()-convertible, so it counts. */
	lf_attr_str(g, "finalize_time_ns", "1000");
	{
		hid_t t = H5Tcreate(H5T_COMPOUND, 16);
		char raw[16] = {0};
		H5Tinsert(t, "x", 0, H5T_NATIVE_INT64);
		H5Tinsert(t, "y", 8, H5T_NATIVE_INT64);
		lf_attr_num(g, "g_compound", t, t, raw);
		H5Tclose(t);
	}
	H5Gclose(g);
	H5Fclose(f);

	p = lf_load_ok(path);
	ck_assert_uint_eq(p->nmeta, sizeof want / sizeof want[0] + 1);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		const struct sv_meta *m = sv_profile_meta(p, want[i].key);
		ck_assert_msg(m != NULL, "no %s", want[i].key);
		ck_assert_msg(m->kind == want[i].kind, "%s: kind %d",
			want[i].key, m->kind);
		ck_assert_str_eq(m->text, want[i].text);
	}
	ck_assert_int_eq(sv_profile_meta(p, "a_int")->i, -42);
	ck_assert_double_eq(sv_profile_meta(p, "b_float")->f, 0.1);
	ck_assert_int_eq(sv_profile_meta(p, "c_true")->i, 1);
	ck_assert_int_eq(sv_profile_meta(p, "c_false")->i, 0);
	ck_assert_uint_eq(sv_profile_meta(p, "e_strs")->nstrs, 2);
	ck_assert_str_eq(sv_profile_meta(p, "e_strs")->strs[1], mods[1]);
	ck_assert_int_eq(sv_profile_meta(p, "g_compound")->kind, SV_META_OTHER);
	ck_assert_ptr_nonnull(
		strstr(sv_profile_meta(p, "g_compound")->text, "compound"));
	/* Sorted by key. */
	for (i = 1; i < p->nmeta; i++)
		ck_assert_int_lt(strcmp(p->meta[i - 1].key, p->meta[i].key), 0);
	ck_assert(p->has_finalize_time);
	ck_assert_int_eq(p->finalize_time_ns, 1000);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Per-call event metadata (doc/format.md 4.11)                        */

/* The base file's rows: row 0 (rank 0, solve) calls 0-2, row 1 (rank 0,
 * io) calls 3-4, row 2 (rank 1, solve) call 5. */
struct meta_case {
	const char *name;
	const char *rows[3]; /* NULL: an unwritten element */
	size_t fixed;        /* fixed-length strings of this size, or 0 */
	const char *want[6]; /* each call's stored text, NULL = none */
	const char *warn;    /* a warning that must appear, or NULL: none */
};

static const char *const meta_rich =
	"[{\"phase\": \"steady\", \"iter\": 12}, {}, {\"phase\": "
	"\"warm\\u00e9 \\ud83d\\ude00\", \"x\": NaN, \"y\": -Infinity, "
	"\"z\": Infinity, \"n\": {\"a\": [1, 2.5e3, null, true]}}]";
static const char *const meta_rich_call0 = "{\"phase\":\"steady\",\"iter\":12}";
static const char *const meta_rich_call2 =
	"{\"phase\":\"warm\\u00e9 \\ud83d\\ude00\",\"x\":NaN,\"y\":-Infinity,"
	"\"z\":Infinity,\"n\":{\"a\":[1,2.5e3,null,true]}}";

static const struct meta_case meta_cases[] = {
	{"variable length, [], empty", {meta_rich, "[]", ""}, 0,
		{meta_rich_call0, NULL, meta_rich_call2}, NULL},
	{"unwritten element", {meta_rich, "[]", NULL}, 0,
		{meta_rich_call0, NULL, meta_rich_call2}, NULL},
	{"fixed length", {meta_rich, "[]", "[{\"status\": \"ok\"}]"}, 300,
		{meta_rich_call0, NULL, meta_rich_call2, NULL, NULL,
			"{\"status\":\"ok\"}"},
		NULL},
	{"wrong length", {"[{}, {}]", "[{\"a\": 1}, {\"a\": 1}]", "[]"}, 0,
		{NULL, NULL, NULL, "{\"a\":1}", "{\"a\":1}"},
		"/rank_region_index/event_metadata: row 0 (rank 0, region "
		"'solve') holds 2 entries for 3 calls"},
	{"bad JSON", {"[]", "[{\"a\": 1}, {\"a\": }]", "[{\"b\": [1, 2]}]"}, 0,
		{NULL, NULL, NULL, NULL, NULL, "{\"b\":[1,2]}"},
		"row 1 (rank 0, region 'io') not JSON: unexpected character"},
	{"not an object", {"[]", "[]", "[\"x\"]"}, 0, {NULL},
		"row 2 (rank 1, region 'solve') entry 0 is a string, not an "
		"object"},
	{"not a list", {"{\"a\": 1}", "[]", "[]"}, 0, {NULL},
		"row 0 (rank 0, region 'solve') is an object"},
	/* every row bad: one warning for the table, naming the first */
	{"all rows bad", {"{}", "[1]", "[{}, {}]"}, 0, {NULL},
		"row 0 (rank 0, region 'solve') is an object, not a JSON list; "
		"its calls' metadata is ignored (and 2 more rows like it)"},
};

START_TEST(test_event_metadata)
{
	const struct meta_case *c = &meta_cases[_i];
	char name[32];
	char *path;
	hid_t f, g;
	struct sv_profile *p;
	uint32_t k;
	size_t w;
	bool seen = false;

	snprintf(name, sizeof name, "meta%d.h5", _i);
	path = lf_base_write(name, M_NONE);
	f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	g = H5Gopen2(f, "rank_region_index", H5P_DEFAULT);
	lf_ds_strs(g, "event_metadata", c->rows, 3, c->fixed);
	H5Gclose(g);
	H5Fclose(f);
	p = lf_load_ok(path);
	ck_assert_uint_eq(p->ncalls, 6);
	for (k = 0; k < 6; k++) {
		const char *got = sv_callmeta_of(p, k);
		ck_assert_msg((got == NULL) == (c->want[k] == NULL) &&
				      (!got || !strcmp(got, c->want[k])),
			"%s: call %u: '%s', want '%s'", c->name, k,
			got ? got : "(none)",
			c->want[k] ? c->want[k] : "(none)");
	}
	for (w = 0; w < p->nwarnings; w++) {
		bool meta = strstr(p->warnings[w], "event_metadata") != NULL;
		ck_assert_msg(!meta || c->warn, "%s: warned '%s'", c->name,
			p->warnings[w]);
		ck_assert_msg(!meta || !seen, "%s: a second warning '%s'",
			c->name, p->warnings[w]);
		if (c->warn && strstr(p->warnings[w], c->warn))
			seen = true;
	}
	ck_assert_msg(!c->warn || seen, "%s: no warning '%s'", c->name,
		c->warn ? c->warn : "");
	/* a file without metadata costs nothing */
	if (!c->want[0] && !c->want[3] && !c->want[5])
		ck_assert_ptr_null(p->call_meta);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* The shown values: escapes and surrogate pairs decoded, nested values
 * folded to one line. */
START_TEST(test_event_metadata_shown)
{
	char *path = lf_base_write("meta_shown.h5", M_NONE);
	const char *rows[3] = {meta_rich, "[]", "[]"};
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	hid_t g = H5Gopen2(f, "rank_region_index", H5P_DEFAULT);
	struct sv_profile *p;
	struct sv_callmeta_kv kv;
	char buf[128];

	lf_ds_strs(g, "event_metadata", rows, 3, 0);
	H5Gclose(g);
	H5Fclose(f);
	p = lf_load_ok(path);
	ck_assert(sv_callmeta_find(sv_callmeta_of(p, 2), "phase", &kv));
	sv_callmeta_show(kv.val, kv.val_len, buf, sizeof buf);
	ck_assert_str_eq(buf, "warm\xc3\xa9 \xf0\x9f\x98\x80");
	ck_assert(sv_callmeta_find(sv_callmeta_of(p, 2), "n", &kv));
	sv_callmeta_show(kv.val, kv.val_len, buf, sizeof buf);
	ck_assert_str_eq(buf, "{\"a\":[1,2.5e3,null,true]}");
	ck_assert(!sv_callmeta_find(sv_callmeta_of(p, 0), "x", &kv));
	sv_profile_free(p);
	free(path);
}
END_TEST

/* An index column of the wrong length is dropped with a warning. */
START_TEST(test_event_metadata_short)
{
	char *path = lf_base_write("meta_short.h5", M_NONE);
	const char *rows[2] = {"[]", "[]"};
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	hid_t g = H5Gopen2(f, "rank_region_index", H5P_DEFAULT);
	struct sv_profile *p;
	size_t w;
	bool seen = false;

	lf_ds_strs(g, "event_metadata", rows, 2, 0);
	H5Gclose(g);
	H5Fclose(f);
	p = lf_load_ok(path);
	ck_assert_ptr_null(p->call_meta);
	for (w = 0; w < p->nwarnings; w++)
		if (strstr(p->warnings[w], "/rank_region_index/event_metadata"))
			seen = true;
	ck_assert(seen);
	sv_profile_free(p);
	free(path);
}
END_TEST

void lf_add_meta(Suite *s)
{
	TCase *t = tcase_create("event_metadata");

	tcase_add_loop_test(t, test_event_metadata, 0,
		(int)(sizeof meta_cases / sizeof meta_cases[0]));
	tcase_add_test(t, test_event_metadata_shown);
	tcase_add_test(t, test_event_metadata_short);
	suite_add_tcase(s, t);

	t = tcase_create("metadata");
	tcase_add_test(t, test_metadata_types);
	suite_add_tcase(s, t);
}
