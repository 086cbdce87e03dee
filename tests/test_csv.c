/*
 * test_csv.c: the reports' CSV writer (csv.h): RFC 4180 quoting of every
 * kind of field, separators and rows, numbers as the JSON writer writes
 * them, and the header row.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/csv.h"

static const struct {
	const char *in, *want;
} quote_cases[] = {
	{"plain", "plain"},
	{"", ""},
	{"a,b", "\"a,b\""},
	{"say \"hi\"", "\"say \"\"hi\"\"\""},
	{"\"", "\"\"\"\""},
	{"two\nlines", "\"two\nlines\""},
	{"cr\rret", "\"cr\rret\""},
	{"tab\tand;semi", "tab\tand;semi"},
	{" spaced ", " spaced "},
	{"caf\xc3\xa9", "caf\xc3\xa9"},
};

START_TEST(test_quote)
{
	char *q = sv_csv_quote(quote_cases[_i].in);
	ck_assert_str_eq(q, quote_cases[_i].want);
	free(q);
}
END_TEST

START_TEST(test_rows)
{
	struct sv_outbuf o;
	struct sv_csv c;
	char *q;

	sv_outbuf_init(&o, NULL);
	sv_csv_init(&c, &o);
	sv_csv_header(&c, "a,b b,c");
	sv_csv_field(&c, "x,y");
	sv_csv_empty(&c);
	sv_csv_i64(&c, -5);
	sv_csv_u64(&c, 18446744073709551615u);
	sv_csv_double(&c, 0.25);
	sv_csv_double(&c, 3);
	sv_csv_double(&c, NAN);
	sv_csv_field(&c, NULL);
	q = sv_csv_quote("pre\"quoted");
	sv_csv_raw(&c, q);
	free(q);
	sv_csv_end_row(&c);
	sv_csv_empty(&c);
	sv_csv_empty(&c);
	sv_csv_end_row(&c);
	sv_csv_field_n(&c, "a\"bc", 2);
	sv_csv_end_row(&c);
	ck_assert_str_eq(sv_outbuf_text(&o, NULL),
		"a,b b,c\n"
		"\"x,y\",,-5,18446744073709551615,0.25,3.0,null,,"
		"\"pre\"\"quoted\"\n"
		",\n"
		"\"a\"\"\"\n");
	ck_assert_int_eq(sv_outbuf_fini(&o), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("csv");
	TCase *t = tcase_create("csv");

	tcase_add_loop_test(
		t, test_quote, 0, sizeof quote_cases / sizeof quote_cases[0]);
	tcase_add_test(t, test_rows);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
