/*
 * test_json.c: the reports' JSON writer (json.h): each layout and flag
 * against the exact text it must give (the shapes the reports and
 * exports have always printed), string escaping of every kind of byte,
 * numbers, Python's NaN in copied values, and documents that jansson
 * parses back to what was written.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/json.h"

/* Write a document with fn into a string (malloc'd). */
static char *json_doc(void (*fn)(struct sv_json *))
{
	struct sv_outbuf o;
	struct sv_json j;
	char *text;

	sv_outbuf_init(&o, NULL);
	sv_json_init(&j, &o);
	fn(&j);
	ck_assert_uint_eq(j.depth, 0);
	sv_json_fini(&j);
	text = sv_outbuf_take(&o);
	ck_assert_int_eq(sv_outbuf_fini(&o), 0);
	return text;
}

/* ---- layouts ---------------------------------------------------------- */

/* Python's json.dumps(indent=2), with inline lists in it. */
static void doc_pretty(struct sv_json *j)
{
	sv_json_object(j, SV_JSON_PRETTY);
	sv_json_key(j, "file");
	sv_json_string(j, "a.h5");
	sv_json_key(j, "none");
	sv_json_array(j, SV_JSON_PRETTY);
	sv_json_end(j);
	sv_json_key(j, "regions");
	sv_json_array(j, SV_JSON_PRETTY);
	sv_json_object(j, SV_JSON_PRETTY);
	sv_json_key(j, "tags");
	sv_json_array(j, SV_JSON_INLINE);
	sv_json_string(j, "x");
	sv_json_string(j, "y");
	sv_json_end(j);
	sv_json_key(j, "empty");
	sv_json_object(j, SV_JSON_INLINE);
	sv_json_end(j);
	sv_json_end(j);
	sv_json_i64(j, -3);
	sv_json_end(j);
	sv_json_end(j);
	sv_json_finish(j);
}

/* `scopeview tree`'s: a hanging top, roots a column in, children two. */
static void doc_tree(struct sv_json *j)
{
	sv_json_object(j, SV_JSON_HANG);
	sv_json_key(j, "file");
	sv_json_string(j, "f");
	sv_json_key(j, "scope");
	sv_json_object(j, SV_JSON_INLINE);
	sv_json_key(j, "ranks");
	sv_json_null(j);
	sv_json_end(j);
	sv_json_key(j, "roots");
	sv_json_array(j, SV_JSON_BLOCK | SV_JSON_STEP(1));
	sv_json_object(j, SV_JSON_INLINE);
	sv_json_key(j, "name");
	sv_json_string(j, "main");
	sv_json_key(j, "children");
	sv_json_array(j, SV_JSON_BLOCK | SV_JSON_STEP(2));
	sv_json_object(j, SV_JSON_INLINE);
	sv_json_key(j, "name");
	sv_json_string(j, "leaf");
	sv_json_key(j, "children");
	sv_json_array(j, SV_JSON_BLOCK | SV_JSON_STEP(2));
	sv_json_end(j);
	sv_json_end(j);
	sv_json_end(j);
	sv_json_end(j);
	sv_json_end(j);
	sv_json_end(j);
	sv_json_finish(j);
}

/* `scopeview ranks`'s region: inline, its ranks below it, its figures
 * on the line after them, one column in. */
static void doc_wrap(struct sv_json *j)
{
	int k;

	sv_json_array(j, SV_JSON_PRETTY);
	for (k = 0; k < 2; k++) {
		sv_json_object(j, SV_JSON_WRAP);
		sv_json_key(j, "name");
		sv_json_string(j, k ? "b" : "a");
		sv_json_key(j, "ranks");
		sv_json_array(j, SV_JSON_BLOCK | SV_JSON_STEP(1));
		if (k == 0) {
			sv_json_u64(j, 1);
			sv_json_u64(j, 2);
		}
		sv_json_end(j);
		if (k)
			sv_json_break(j);
		sv_json_key(j, "min");
		sv_json_double(j, 0.5);
		sv_json_key(j, "max");
		sv_json_bool(j, false);
		sv_json_end(j);
	}
	sv_json_end(j);
}

/* The exports': compact, one object a line, explicit breaks, a list
 * closing right after its last item, and one closing on its own line
 * even when empty. */
static void doc_compact(struct sv_json *j)
{
	sv_json_object(j, SV_JSON_INLINE | SV_JSON_COMPACT);
	sv_json_key(j, "unit");
	sv_json_string(j, "ns");
	sv_json_break(j);
	sv_json_key(j, "frames");
	sv_json_array(j, SV_JSON_BLOCK | SV_JSON_COMPACT | SV_JSON_TIGHT);
	sv_json_object(j, SV_JSON_INLINE | SV_JSON_COMPACT);
	sv_json_key(j, "ts");
	sv_json_fixed(j, 1250, 3);
	sv_json_key(j, "meta");
	sv_json_object(j, SV_JSON_INLINE);
	sv_json_key(j, "k");
	sv_json_python(j, "[1, NaN]", 8);
	sv_json_key(j, "l");
	sv_json_u64(j, 2);
	sv_json_end(j);
	sv_json_end(j);
	sv_json_object(j, SV_JSON_INLINE | SV_JSON_COMPACT);
	sv_json_end(j);
	sv_json_end(j);
	sv_json_break(j);
	sv_json_key(j, "none");
	sv_json_array(j, SV_JSON_BLOCK | SV_JSON_COMPACT | SV_JSON_CLOSE_LINE);
	sv_json_end(j);
	sv_json_key(j, "one");
	sv_json_array(j, SV_JSON_BLOCK | SV_JSON_COMPACT | SV_JSON_CLOSE_LINE);
	sv_json_raw(j, "\"pre\"", 5);
	sv_json_end(j);
	sv_json_end(j);
	sv_json_finish(j);
}

static const struct {
	void (*fn)(struct sv_json *);
	const char *want;
} layout_cases[] = {
	{doc_pretty, "{\n"
		     "  \"file\": \"a.h5\",\n"
		     "  \"none\": [],\n"
		     "  \"regions\": [\n"
		     "    {\n"
		     "      \"tags\": [\"x\", \"y\"],\n"
		     "      \"empty\": {}\n"
		     "    },\n"
		     "    -3\n"
		     "  ]\n"
		     "}\n"},
	{doc_tree, "{\"file\": \"f\",\n"
		   " \"scope\": {\"ranks\": null},\n"
		   " \"roots\": [\n"
		   "  {\"name\": \"main\", \"children\": [\n"
		   "    {\"name\": \"leaf\", \"children\": []}\n"
		   "  ]}\n"
		   " ]}\n"},
	{doc_wrap, "[\n"
		   "  {\"name\": \"a\", \"ranks\": [\n"
		   "    1,\n"
		   "    2\n"
		   "   ],\n"
		   "   \"min\": 0.5, \"max\": false},\n"
		   "  {\"name\": \"b\", \"ranks\": [],\n"
		   "   \"min\": 0.5, \"max\": false}\n"
		   "]"},
	{doc_compact, "{\"unit\":\"ns\",\n"
		      "\"frames\":[\n"
		      "{\"ts\":1.250,\"meta\":{\"k\": [1, null], \"l\": 2}},\n"
		      "{}],\n"
		      "\"none\":[\n"
		      "],\"one\":[\n"
		      "\"pre\"\n"
		      "]}\n"},
};

START_TEST(test_layouts)
{
	char *s = json_doc(layout_cases[_i].fn);
	ck_assert_str_eq(s, layout_cases[_i].want);
	free(s);
}
END_TEST

/* ---- strings ---------------------------------------------------------- */

static const struct {
	const char *in;
	size_t n; /* 0: strlen(in) */
	const char *want;
} escape_cases[] = {
	{"plain", 0, "plain"}, {"", 0, ""}, {"say \"hi\"", 0, "say \\\"hi\\\""},
	{"back\\slash", 0, "back\\\\slash"},
	{"a\nb\rc\td\be\ff", 0, "a\\nb\\rc\\td\\be\\ff"},
	{"\x01\x1f\x7f", 0, "\\u0001\\u001f\\u007f"},
	{"nul\0in", 6, "nul\\u0000in"},
	{"caf\xc3\xa9 \xe2\x98\x83 \xf0\x9f\x98\x80", 0,
		"caf\xc3\xa9 \xe2\x98\x83 \xf0\x9f\x98\x80"},
	{"\xef\xbf\xbd", 0, "\xef\xbf\xbd"},          /* U+FFFD itself */
	{"bad\xff\xfe", 0, "bad\\ufffd\\ufffd"},      /* never lead bytes */
	{"\x80x", 0, "\\ufffdx"},                     /* lone continuation */
	{"\xc0\x80", 0, "\\ufffd\\ufffd"},            /* overlong NUL */
	{"\xed\xa0\x80", 0, "\\ufffd\\ufffd\\ufffd"}, /* a surrogate */
	{"\xe2\x98", 0, "\\ufffd"},                   /* cut short */
	{"\xe2\x98x", 0, "\\ufffdx"},                 /* maximal subpart */
	{"\xf4\x90\x80\x80", 0,
		"\\ufffd\\ufffd\\ufffd\\ufffd"}, /* > U+10FFFF */
	{"\xe2\x80\xa8", 0, "\xe2\x80\xa8"},     /* U+2028 is valid JSON */
};

START_TEST(test_escape)
{
	struct sv_outbuf o;
	size_t n = escape_cases[_i].n ? escape_cases[_i].n
				      : strlen(escape_cases[_i].in);

	sv_outbuf_init(&o, NULL);
	sv_json_escape(&o, escape_cases[_i].in, n);
	ck_assert_str_eq(sv_outbuf_text(&o, NULL), escape_cases[_i].want);
	sv_outbuf_fini(&o);
}
END_TEST

/* Whatever the bytes, the document parses, and valid text comes back. */
START_TEST(test_parse_back)
{
	unsigned seed = 7;
	int round;

	for (round = 0; round < 300; round++) {
		char in[40];
		size_t n = (size_t)rand_r(&seed) % sizeof in, i;
		char *quoted;
		json_error_t jerr;
		json_t *v;

		for (i = 0; i < n; i++)
			in[i] = (char)(rand_r(&seed) % 7 == 0
					       ? 0x80 + rand_r(&seed) % 128
					       : 1 + rand_r(&seed) % 127);
		in[n] = '\0';
		quoted = sv_json_quote(in);
		v = json_loads(quoted, JSON_DECODE_ANY, &jerr);
		ck_assert_msg(v != NULL, "%s: %s", quoted, jerr.text);
		ck_assert(json_is_string(v));
		for (i = 0; i < n && (unsigned char)in[i] < 0x80; i++)
			;
		if (i == n)
			ck_assert_str_eq(json_string_value(v), in);
		json_decref(v);
		free(quoted);
	}
	{
		char *q = sv_json_quote(NULL);
		ck_assert_str_eq(q, "\"\"");
		free(q);
	}
}
END_TEST

/* ---- numbers ---------------------------------------------------------- */

static const struct {
	double v;
	const char *want;
} number_cases[] = {
	{0.0, "0.0"},
	{5.0, "5.0"},
	{-2.5, "-2.5"},
	{0.1, "0.1"},
	{1e-9, "1e-09"},
	{3.3e-08, "3.3e-08"},
	{1.1000000000000001e-08, "1.1000000000000001e-08"},
	{1.0 / 3.0, "0.3333333333333333"},
	{4.320493798938574e-09, "4.320493798938574e-09"},
	{123456789012345680.0, "1.2345678901234568e+17"},
	{1e300, "1e+300"},
	{NAN, "null"},
	{INFINITY, "null"},
	{-INFINITY, "null"},
};

START_TEST(test_numbers)
{
	char buf[64];
	sv_json_number_text(buf, sizeof buf, number_cases[_i].v);
	ck_assert_str_eq(buf, number_cases[_i].want);
}
END_TEST

/* Every finite double reads back exactly. */
START_TEST(test_number_round_trip)
{
	unsigned seed = 99;
	int i;

	for (i = 0; i < 20000; i++) {
		uint64_t bits = ((uint64_t)rand_r(&seed) << 42) ^
				((uint64_t)rand_r(&seed) << 21) ^
				(uint64_t)rand_r(&seed);
		double v;
		char buf[64];
		memcpy(&v, &bits, sizeof v);
		if (!isfinite(v))
			continue;
		sv_json_number_text(buf, sizeof buf, v);
		ck_assert_msg(strtod(buf, NULL) == v, "%s", buf);
	}
}
END_TEST

static const struct {
	const char *in, *want;
} python_cases[] = {
	{"NaN", "null"},
	{"-Infinity", "null"},
	{"{\"a\": [Infinity, -Infinity, NaN, 1.5]}",
		"{\"a\": [null, null, null, 1.5]}"},
	{"\"NaN Infinity\"", "\"NaN Infinity\""},
	{"[\"q\\\"NaN\", NaN]", "[\"q\\\"NaN\", null]"},
	{"-1e5", "-1e5"},
	{"true", "true"},
};

START_TEST(test_python)
{
	struct sv_outbuf o;
	struct sv_json j;

	sv_outbuf_init(&o, NULL);
	sv_json_init(&j, &o);
	sv_json_python(&j, python_cases[_i].in, strlen(python_cases[_i].in));
	ck_assert_str_eq(sv_outbuf_text(&o, NULL), python_cases[_i].want);
	sv_json_fini(&j);
	sv_outbuf_fini(&o);
}
END_TEST

/* A document of every kind of value parses back to the same values. */
static void doc_values(struct sv_json *j)
{
	sv_json_object(j, SV_JSON_PRETTY);
	sv_json_key(j, "i");
	sv_json_i64(j, INT64_MIN);
	sv_json_key(j, "u");
	sv_json_u64(j, 4294967296u);
	sv_json_key(j, "d");
	sv_json_double(j, 0.1);
	sv_json_key(j, "nan");
	sv_json_double(j, NAN);
	sv_json_key(j, "b");
	sv_json_bool(j, true);
	sv_json_key(j, "s");
	sv_json_string_n(j, "a\0b", 3);
	sv_json_key(j, "k\"ey");
	sv_json_fixed(j, -1250, 3);
	sv_json_raw_key(j, "\"raw\"", 5);
	sv_json_array(j, SV_JSON_INLINE);
	sv_json_string(j, NULL);
	sv_json_null(j);
	sv_json_end(j);
	sv_json_end(j);
	sv_json_finish(j);
}

START_TEST(test_values_parse_back)
{
	char *s = json_doc(doc_values);
	json_error_t jerr;
	json_t *v = json_loads(s, JSON_ALLOW_NUL, &jerr);

	ck_assert_msg(v != NULL, "%s: %s", s, jerr.text);
	ck_assert_int_eq(
		json_integer_value(json_object_get(v, "i")), INT64_MIN);
	ck_assert(json_real_value(json_object_get(v, "d")) == 0.1);
	ck_assert(json_is_null(json_object_get(v, "nan")));
	ck_assert(json_is_true(json_object_get(v, "b")));
	ck_assert_uint_eq(json_string_length(json_object_get(v, "s")), 3);
	ck_assert(json_real_value(json_object_get(v, "k\"ey")) == -1.25);
	ck_assert_str_eq(
		json_string_value(json_array_get(json_object_get(v, "raw"), 0)),
		"");
	ck_assert_int_eq(
		json_integer_value(json_object_get(v, "u")), 4294967296);
	json_decref(v);
	free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("json");
	TCase *t = tcase_create("json");

	tcase_add_loop_test(t, test_layouts, 0,
		sizeof layout_cases / sizeof layout_cases[0]);
	tcase_add_loop_test(t, test_escape, 0,
		sizeof escape_cases / sizeof escape_cases[0]);
	tcase_add_test(t, test_parse_back);
	tcase_add_loop_test(t, test_numbers, 0,
		sizeof number_cases / sizeof number_cases[0]);
	tcase_add_test(t, test_number_round_trip);
	tcase_add_loop_test(t, test_python, 0,
		sizeof python_cases / sizeof python_cases[0]);
	tcase_add_test(t, test_values_parse_back);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
