/*
 * test_regex.c: the PCRE2 wrapper: re.match-style anchoring, re.search
 * with match bounds, UTF-8 and Unicode classes, and compile errors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/regex.h"

static const struct {
	const char *pattern, *subject;
	bool match;        /* re.match(pattern, subject) */
	bool search;       /* re.search(pattern, subject) */
	size_t start, end; /* bounds of the search match */
} cases[] = {
	{"mpi", "mpi:send", true, true, 0, 3},
	{"mpi", "xmpi", false, true, 1, 4},
	{"send$", "mpi:send", false, true, 4, 8},
	{"^solve$", "solve", true, true, 0, 5},
	{"sol", "Solve", false, false, 0, 0},
	{"(?i)sol", "Solve", true, true, 0, 3},
	{"a|b", "cab", false, true, 1, 2},
	{"", "anything", true, true, 0, 0},
	{"pr.cond",
		"pr\xc3\xa9"
		"cond",
		true, true, 0, 8},
	{"\\w+", "\xc3\xa9t\xc3\xa9 x", true, true, 0, 5},
	{"\\d", "\xd9\xa3", true, true, 0, 2}, /* ARABIC-INDIC THREE */
	{"dt:%d", "dt:%d", true, true, 0, 5},
	{"a/b \\(slash\\)", "a/b (slash)", true, true, 0, 11},
	{"kind=collective", "mpi:allreduce kind=collective bytes=64", false,
		true, 14, 29},
	{"x", "\xff\xfe", false, false, 0, 0}, /* invalid UTF-8 subject */
	/* Python's syntax where PCRE2 10.42 reads the same text otherwise
	 * (each checked with CPython's re): {,n} is {0,n} and {,} is {0,},
	 * \Z is the very end (PCRE2's \z, not "before a final newline"), and
	 * '[' inside a set is a plain character (no POSIX [:classes:]). */
	{"x{,2}s", "xxs", true, true, 0, 3},
	{"a{,}b", "aaab", true, true, 0, 4},
	{"s{,2}", "s{,2}", true, true, 0, 1},
	{"x{,2", "x{,2", true, true, 0, 4},
	{"a\\{,2}", "a{,2}", true, true, 0, 5},
	{"[{,2}]+", "{,2}", true, true, 0, 4},
	{"x{2,}", "xxx", true, true, 0, 3},
	{"io\\Z", "io\n", false, false, 0, 0},
	{"io$", "io\n", true, true, 0, 2},
	{"a\\\\Z", "a\\Z", true, true, 0, 3},
	{"[[:alpha:]]", "a]", true, true, 0, 2},
	{"[]x]+", "]x]", true, true, 0, 3},
	{"[^]x]", "]", false, false, 0, 0},
	{"a.c", "a\rc", true, true, 0, 3},
	/* Python's \uXXXX and \UXXXXXXXX escapes (PCRE2 refuses both). */
	{"caf\\u00e9", "caf\xc3\xa9", true, true, 0, 5},
	{"\\U0001F600x", "\xf0\x9f\x98\x80x", true, true, 0, 5},
	{"[\\u00e0-\\u00ff]+", "a\xc3\xa9\xc3\xa8", false, true, 1, 5},
};

START_TEST(match_table)
{
	struct sv_error err = {0};
	struct sv_regex *re = sv_regex_compile(cases[_i].pattern, &err);
	size_t s = 99, e = 99;

	ck_assert_msg(re != NULL, "%s: %s", cases[_i].pattern, err.msg);
	ck_assert_str_eq(sv_regex_pattern(re), cases[_i].pattern);
	ck_assert_msg(sv_regex_match(re, cases[_i].subject) == cases[_i].match,
		"match %s on %s", cases[_i].pattern, cases[_i].subject);
	ck_assert_msg(sv_regex_search(re, cases[_i].subject, &s, &e) ==
			      cases[_i].search,
		"search %s on %s", cases[_i].pattern, cases[_i].subject);
	if (cases[_i].search) {
		ck_assert_uint_eq(s, cases[_i].start);
		ck_assert_uint_eq(e, cases[_i].end);
	}
	ck_assert(!sv_regex_match(re, NULL));
	ck_assert(!sv_regex_search(re, NULL, NULL, NULL));
	sv_regex_free(re);
}
END_TEST

static const char *const bad[] = {
	"a(", "[", "*x", "(?<", "a{2,1}", "\\", "\xff"};

START_TEST(compile_errors)
{
	struct sv_error err = {0};
	struct sv_regex *re = sv_regex_compile(bad[_i], &err);

	ck_assert_ptr_null(re);
	ck_assert_int_eq(err.code, -EINVAL);
	ck_assert_msg(!strncmp(err.msg, "bad regex '", 11), "%s", err.msg);
	ck_assert_msg(strstr(err.msg, "at offset") != NULL, "%s", err.msg);
}
END_TEST

/* Error offsets count bytes of the pattern as given, not of the text the
 * Python syntax was rewritten to. */
START_TEST(error_offsets)
{
	static const struct {
		const char *pattern, *where;
	} t[] = {
		{"a{,2}(", "at offset 6"},
		{"[[x", "at offset 3"},
		{"\\Zb)", "at offset 3"},
	};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct sv_error err = {0};
		ck_assert_ptr_null(sv_regex_compile(t[i].pattern, &err));
		ck_assert_msg(strstr(err.msg, t[i].where) != NULL, "%s: %s",
			t[i].pattern, err.msg);
	}
}
END_TEST

START_TEST(nulls)
{
	struct sv_error err = {0};
	ck_assert_ptr_null(sv_regex_compile(NULL, &err));
	ck_assert_int_eq(err.code, -EINVAL);
	ck_assert_ptr_null(sv_regex_compile("(", NULL));
	ck_assert(!sv_regex_match(NULL, "x"));
	ck_assert_ptr_null(sv_regex_pattern(NULL));
	sv_regex_free(NULL);
}
END_TEST

START_TEST(test_list)
{
	struct sv_regex_list l = {0};
	struct sv_error err = {0};

	/* given two patterns and a bad one, then two compiled, in order */
	ck_assert(sv_regex_list_add(&l, "mpi:", &err));
	ck_assert(sv_regex_list_add(&l, "kernel", &err));
	ck_assert(!sv_regex_list_add(&l, "(", &err));
	ck_assert(err.msg[0] != '\0');
	ck_assert_uint_eq(l.n, 2);
	ck_assert(sv_regex_match(l.re[0], "mpi:wait"));
	ck_assert(sv_regex_match(l.re[1], "kernel:spmv"));
	sv_regex_list_fini(&l);
	ck_assert_uint_eq(l.n, 0);
	ck_assert_ptr_null(l.re);
	sv_regex_list_fini(NULL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("regex");
	TCase *tc = tcase_create("regex");
	tcase_add_loop_test(tc, match_table, 0, sizeof cases / sizeof cases[0]);
	tcase_add_loop_test(tc, compile_errors, 0, sizeof bad / sizeof bad[0]);
	tcase_add_test(tc, error_offsets);
	tcase_add_test(tc, test_list);
	tcase_add_test(tc, nulls);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
