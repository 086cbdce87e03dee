/*
 * test_callmeta.c: per-call event metadata in the model (callmeta.h): the
 * Python-JSON reader of one row's list (every accepted and refused form),
 * the compact arena storage and its sharing, members, shown values and
 * the key=value / key~regex search terms.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/callmeta.h"
#include "scopeview/profile.h"

/* A profile of one row of n calls. */
static struct sv_profile *one_row(uint64_t n)
{
	struct sv_profile *p = sv_profile_new("t.h5");
	struct sv_error e;
	uint64_t i;

	sv_profile_add_region(p, "solve");
	ck_assert_ptr_nonnull(sv_profile_add_row(p, 0, 0, n, &e));
	for (i = 0; i < n; i++) {
		p->start_ns[i] = (int64_t)i * 10;
		p->end_ns[i] = (int64_t)i * 10 + 5;
	}
	return p;
}

static const struct {
	const char *text;
	int rc;
	const char *call0, *call1; /* stored texts (NULL: none) */
	const char *why;           /* part of the reason, when refused */
} rows[] = {
	{"[{\"a\": 1}, {\"b\": \"x y\"}]", 0, "{\"a\":1}", "{\"b\":\"x y\"}",
		NULL},
	{"  [ {\"a\" :\t1} ,\n{} ]  ", 0, "{\"a\":1}", NULL, NULL},
	{"[]", 0, NULL, NULL, NULL},
	{"", 0, NULL, NULL, NULL},
	{"[{\"v\": [NaN, Infinity, -Infinity, -0.5e-3, 0]}, {}]", 0,
		"{\"v\":[NaN,Infinity,-Infinity,-0.5e-3,0]}", NULL, NULL},
	{"[{\"a\": {\"b\": {\"c\": [[], {}]}}}, {}]", 0,
		"{\"a\":{\"b\":{\"c\":[[],{}]}}}", NULL, NULL},
	{"[{\"s\": \"q\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\"}, {}]", 0,
		"{\"s\":\"q\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\"}", NULL, NULL},
	{"[{}]", -EINVAL, NULL, NULL, "holds 1 entries for 2 calls"},
	{"[{}, {}, {}]", -EINVAL, NULL, NULL, "holds 3 entries for 2 calls"},
	{"[{\"a\": 1}, 5]", -EINVAL, NULL, NULL,
		"entry 1 is a number, not an object"},
	{"[{\"a\": 01}, {}]", -EINVAL, NULL, NULL, "not JSON"},
	{"[{\"a\": 1,}, {}]", -EINVAL, NULL, NULL, "expected a key"},
	{"[{\"a\": nan}, {}]", -EINVAL, NULL, NULL, "unexpected word"},
	{"[{\"a\": \"\\x\"}, {}]", -EINVAL, NULL, NULL, "bad escape"},
	{"[{\"a\": \"\\u12\"}, {}]", -EINVAL, NULL, NULL, "bad \\u escape"},
	{"[{\"a\": 1}, {}] x", -EINVAL, NULL, NULL, "text after the list"},
	{"[{\"a\": 1}, {}", -EINVAL, NULL, NULL, "expected ',' or ']'"},
	{"\"[]\"", -EINVAL, NULL, NULL, "is a string, not a JSON list"},
	{"[{\"a\": \"x\ty\"}, {}]", -EINVAL, NULL, NULL,
		"control character in a string"},
};

START_TEST(test_rows)
{
	struct sv_profile *p = one_row(2);
	char why[160] = "";
	int rc = sv_callmeta_set_row(p, 0, 2, rows[_i].text, why, sizeof why);
	const char *c0 = sv_callmeta_of(p, 0), *c1 = sv_callmeta_of(p, 1);

	ck_assert_msg(
		rc == rows[_i].rc, "'%s': rc %d (%s)", rows[_i].text, rc, why);
	if (rows[_i].why)
		ck_assert_msg(strstr(why, rows[_i].why), "'%s': why '%s'",
			rows[_i].text, why);
	ck_assert((c0 == NULL) == (rows[_i].call0 == NULL));
	ck_assert((c1 == NULL) == (rows[_i].call1 == NULL));
	if (c0)
		ck_assert_str_eq(c0, rows[_i].call0);
	if (c1)
		ck_assert_str_eq(c1, rows[_i].call1);
	if (rc)
		ck_assert_ptr_null(p->call_meta); /* nothing stored */
	sv_profile_free(p);
}
END_TEST

/* Consecutive equal objects share one copy in the arena. */
START_TEST(test_shared_text)
{
	struct sv_profile *p = one_row(3);
	char why[64];

	ck_assert_int_eq(sv_callmeta_set_row(p, 0, 3,
				 "[{\"k\": 1}, {\"k\": 1}, {\"k\": 2}]", why,
				 sizeof why),
		0);
	ck_assert_ptr_eq(sv_callmeta_of(p, 0), sv_callmeta_of(p, 1));
	ck_assert_str_eq(sv_callmeta_of(p, 2), "{\"k\":2}");
	ck_assert_uint_eq(p->meta_arena_len, 1 + 8 + 8);
	sv_profile_free(p);
}
END_TEST

START_TEST(test_members_and_show)
{
	const char *obj = "{\"a\":1,\"caf\\u00e9\":\"\\ud83d\\ude00!\","
			  "\"n\":{\"x\":[1,\"}\"]},\"lone\":\"\\udc00\","
			  "\"a\":\"last\"}";
	const char *cur = obj;
	struct sv_callmeta_kv kv;
	char buf[64], tiny[4];
	int n = 0;

	while (sv_callmeta_next(&cur, &kv))
		n++;
	ck_assert_int_eq(n, 5);
	ck_assert(sv_callmeta_find(obj, "caf\xc3\xa9", &kv));
	sv_callmeta_show(kv.val, kv.val_len, buf, sizeof buf);
	ck_assert_str_eq(buf, "\xf0\x9f\x98\x80!");
	ck_assert(sv_callmeta_find(obj, "n", &kv));
	sv_callmeta_show(kv.val, kv.val_len, buf, sizeof buf);
	ck_assert_str_eq(buf, "{\"x\":[1,\"}\"]}");
	ck_assert(sv_callmeta_find(obj, "lone", &kv));
	sv_callmeta_show(kv.val, kv.val_len, buf, sizeof buf);
	ck_assert_str_eq(buf, "\xef\xbf\xbd");
	/* a key given twice: the last, as Python keeps it */
	ck_assert(sv_callmeta_find(obj, "a", &kv));
	ck_assert_uint_eq(sv_callmeta_show(kv.val, kv.val_len, tiny, 4), 4);
	ck_assert_str_eq(tiny, "las");
	ck_assert(!sv_callmeta_find(obj, "b", &kv));
}
END_TEST

START_TEST(test_terms)
{
	struct sv_profile *p = one_row(2);
	struct sv_callmeta_term t;
	struct sv_error e;
	char why[64];

	ck_assert_int_eq(sv_callmeta_set_row(p, 0, 2,
				 "[{\"phase\": \"steady\", \"iter\": 12}, "
				 "{\"phase\": \"warm-up\"}]",
				 why, sizeof why),
		0);
	ck_assert_int_eq(sv_callmeta_term_parse("solve", &t, &e), 0);
	ck_assert_int_eq(sv_callmeta_term_parse("=x", &t, &e), 0);
	ck_assert_int_eq(sv_callmeta_term_parse("a b=x", &t, &e), 0);
	ck_assert_int_eq(sv_callmeta_term_parse("phase=steady", &t, &e), 1);
	ck_assert(sv_callmeta_term_match(p, &t, 0));
	ck_assert(!sv_callmeta_term_match(p, &t, 1));
	sv_callmeta_term_fini(&t);
	ck_assert_int_eq(sv_callmeta_term_parse("iter=12", &t, &e), 1);
	ck_assert(sv_callmeta_term_match(p, &t, 0));
	ck_assert(!sv_callmeta_term_match(p, &t, 1));
	sv_callmeta_term_fini(&t);
	ck_assert_int_eq(sv_callmeta_term_parse("phase~^w", &t, &e), 1);
	ck_assert(!sv_callmeta_term_match(p, &t, 0));
	ck_assert(sv_callmeta_term_match(p, &t, 1));
	sv_callmeta_term_fini(&t);
	ck_assert_int_eq(sv_callmeta_term_parse("phase~(", &t, &e), -EINVAL);
	ck_assert_ptr_null(t.key);
	sv_callmeta_term_fini(&t);
	sv_callmeta_term_fini(NULL);
	sv_profile_free(p);
}
END_TEST

/* One line of key=value members, cut to the buffer. */
START_TEST(test_line)
{
	char out[64], small[8];

	ck_assert_uint_eq(sv_callmeta_line(NULL, out, sizeof out), 0);
	ck_assert_str_eq(out, "");
	sv_callmeta_line("{\"phase\":\"steady\",\"iter\":12,\"x\":[1,2]}", out,
		sizeof out);
	ck_assert_str_eq(out, "phase=steady  iter=12  x=[1,2]");
	ck_assert_uint_eq(
		sv_callmeta_line("{\"phase\":\"steady\"}", small, sizeof small),
		7);
	ck_assert_str_eq(small, "phase=s");
}
END_TEST

/* --group-by's groups are the keys of a Python dict after json.loads:
 * numbers (and booleans) by value, NaN one key, strings decoded, lists
 * and null by their text; each group shown as first written. */
START_TEST(test_groups_by_value)
{
	static const struct {
		const char *v;
		uint32_t group;
	} vals[] = {
		{"1", 0},
		{"1.0", 0},
		{"true", 0},
		{"1e0", 0},
		{"\"1\"", 1},
		{"\"\\u00e9\"", 2},
		{"\"\xc3\xa9\"", 2},
		{"0", 3},
		{"-0.0", 3},
		{"false", 3},
		{"-0", 3},
		{"NaN", 4},
		{"NaN", 4},
		{"0.1", 5},
		{"0.10", 5},
		{"[1]", 6},
		{"[1]", 6},
		{"null", 7},
		{"100000000000000000000", 8},
		{"1e20", 8},
		{"Infinity", 9},
		{"1e400", 9},
		{"-Infinity", 10},
		{"2", 11},
		{"1E0", 0},
		{"123456789012345678901234567890", 12},
		{"-7", 13},
		{"-7.0", 13},
	};
	size_t n = sizeof vals / sizeof vals[0], i, nv;
	struct sv_profile *p = one_row(n + 1);
	char *text = sv_xmalloc(4096), why[128], **values;
	uint32_t *group_of;

	strcpy(text, "[");
	for (i = 0; i < n; i++)
		snprintf(text + strlen(text), 4096 - strlen(text),
			"%s{\"k\": %s}", i ? ", " : "", vals[i].v);
	strcat(text, ", {\"other\": 1}]");
	ck_assert_msg(
		sv_callmeta_set_row(p, 0, n + 1, text, why, sizeof why) == 0,
		"%s", why);
	nv = sv_callmeta_groups(p, "k", &values, &group_of);
	ck_assert_uint_eq(nv, 14);
	for (i = 0; i < n; i++)
		ck_assert_msg(group_of[i] == vals[i].group, "%s: group %u",
			vals[i].v, (unsigned)group_of[i]);
	ck_assert_uint_eq(group_of[n], SV_CALLMETA_NO_GROUP);
	ck_assert_str_eq(values[0], "1");
	ck_assert_str_eq(values[2], "\"\\u00e9\"");
	ck_assert_str_eq(values[3], "0");
	ck_assert_str_eq(values[13], "-7");
	for (i = 0; i < nv; i++)
		free(values[i]);
	free(values);
	free(group_of);
	free(text);
	sv_profile_free(p);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("callmeta");
	TCase *t = tcase_create("callmeta");

	tcase_add_loop_test(
		t, test_rows, 0, (int)(sizeof rows / sizeof rows[0]));
	tcase_add_test(t, test_shared_text);
	tcase_add_test(t, test_line);
	tcase_add_test(t, test_members_and_show);
	tcase_add_test(t, test_terms);
	tcase_add_test(t, test_groups_by_value);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
