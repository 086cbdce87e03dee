/*
 * test_fmt.c: formatting numbers for people (fmt.h): durations at every
 * rounding boundary (unit and decimals), the compact and signed forms,
 * the int64_t extremes; Python's float repr, checked against what
 * CPython prints.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/fmt.h"

/* ---- durations ---------------------------------------------------------- */

/* Three significant digits, the summary table's and the viewer's form. */
static const struct {
	double ns;
	const char *want;
} dur_cases[] = {
	/* whole nanoseconds print as integers */
	{0, "0 ns"},
	{5, "5 ns"},
	{999, "999 ns"},
	{-830, "-830 ns"},
	/* fractions of a nanosecond (means) */
	{12.5, "12.5 ns"},
	{2.25, "2.25 ns"},
	{0.5, "0.50 ns"},
	{999.4, "999 ns"},
	/* ns -> us: rounding first carries into the next unit */
	{999.5, "1.00 us"},
	{999.6, "1.00 us"},
	{-999.5, "-1.00 us"},
	{1000, "1.00 us"},
	{1500, "1.50 us"},
	/* decimals: rounding that adds a digit drops a decimal */
	{9994, "9.99 us"},
	{9996, "10.0 us"},
	{12345, "12.3 us"},
	{99949, "99.9 us"},
	{99950, "100 us"},
	{99995, "100 us"},
	{123456, "123 us"},
	/* us -> ms */
	{999499, "999 us"},
	{999500, "1.00 ms"},
	{999999, "1.00 ms"},
	{-999500, "-1.00 ms"},
	{50e6, "50.0 ms"},
	{-1.2e6, "-1.20 ms"},
	/* ms -> s */
	{999499999, "999 ms"},
	{999500000, "1.00 s"},
	{999999500, "1.00 s"},
	{-999999500, "-1.00 s"},
	{4.567e9, "4.57 s"},
	/* seconds carry on only past 100000 s, into days (issue 16: a
	 * 2-day region's figure kept no unit in a narrow column) */
	{999.5e9, "1000 s"},
	{5000e9, "5000 s"},
	{99999e9, "99999 s"},
	{1e14, "1.16 d"},
	{172800e9, "2.00 d"},
	{-172800e9, "-2.00 d"},
	/* not a number */
	{NAN, "-"},
	{INFINITY, "-"},
	{-INFINITY, "-"},
};

START_TEST(test_dur_table)
{
	char buf[64];
	ck_assert_ptr_eq(
		sv_fmt_dur_ex(dur_cases[_i].ns, 3, 0, buf, sizeof buf), buf);
	ck_assert_str_eq(buf, dur_cases[_i].want);
}
END_TEST

START_TEST(test_dur_int64)
{
	char buf[64];

	/* given the int64_t form, when it formats boundaries and extremes,
	 * then it agrees with the double form and never overflows */
	ck_assert_str_eq(sv_fmt_dur(0, buf, sizeof buf), "0 ns");
	ck_assert_str_eq(sv_fmt_dur(999, buf, sizeof buf), "999 ns");
	ck_assert_str_eq(sv_fmt_dur(999500, buf, sizeof buf), "1.00 ms");
	ck_assert_str_eq(sv_fmt_dur(999999500, buf, sizeof buf), "1.00 s");
	ck_assert_str_eq(sv_fmt_dur(-999999500, buf, sizeof buf), "-1.00 s");
	ck_assert_str_eq(sv_fmt_dur(INT64_MAX, buf, sizeof buf), "106752 d");
	ck_assert_str_eq(sv_fmt_dur(INT64_MIN, buf, sizeof buf), "-106752 d");
}
END_TEST

/* The compact form (tables) and the signed form (relative times). */
static const struct {
	double ns;
	int sig;
	unsigned flags;
	const char *want;
} dur_form_cases[] = {
	{830, 3, SV_FMT_DUR_COMPACT, "830ns"},
	{-830, 3, SV_FMT_DUR_COMPACT, "-830ns"},
	{12.5e6, 3, SV_FMT_DUR_COMPACT, "12.5ms"},
	{999500, 3, SV_FMT_DUR_COMPACT, "1.00ms"},
	{999999500, 3, SV_FMT_DUR_COMPACT, "1.00s"},
	{0, 3, SV_FMT_DUR_PLUS, "+0 ns"},
	{12345, 3, SV_FMT_DUR_PLUS, "+12.3 us"},
	{-5, 3, SV_FMT_DUR_PLUS, "-5 ns"},
	{999999500, 3, SV_FMT_DUR_PLUS, "+1.00 s"},
	{5, 3, SV_FMT_DUR_PLUS | SV_FMT_DUR_COMPACT, "+5ns"},
	/* other significant digits */
	{12345, 4, 0, "12.35 us"}, {830, 4, 0, "830 ns"},
	{999.96, 4, 0, "1.000 us"}, {12345, 1, 0, "12 us"},
	{12345, 0, 0, "12 us"},                /* sig below 1 is 1 */
	{1.5, 40, 0, "1.5000000000000000 ns"}, /* and above 17 is 17 */
};

START_TEST(test_dur_forms)
{
	char buf[64];
	sv_fmt_dur_ex(dur_form_cases[_i].ns, dur_form_cases[_i].sig,
		dur_form_cases[_i].flags, buf, sizeof buf);
	ck_assert_str_eq(buf, dur_form_cases[_i].want);
}
END_TEST

START_TEST(test_dur_short_buffer)
{
	char buf[5] = "xxxx";

	/* a short buffer is cut and terminated; n == 0 writes nothing */
	sv_fmt_dur(999999500, buf, sizeof buf);
	ck_assert_str_eq(buf, "1.00");
	sv_fmt_dur(5, buf, 0);
	ck_assert_str_eq(buf, "1.00");
	/* the largest finite double still fits the scratch buffer */
	{
		char big[400];
		sv_fmt_dur_ex(1.7976931348623157e308, 3, 0, big, sizeof big);
		ck_assert_uint_gt(strlen(big), 290);
		ck_assert_str_eq(big + strlen(big) - 2, " d");
	}
}
END_TEST

/* ---- Python's repr() of a float -------------------------------------- */

static const struct {
	double v;
	bool single;
	const char *want; /* repr(v), or repr(numpy.float32(v)) */
} py_cases[] = {
	{0.0, false, "0.0"},
	{-0.0, false, "-0.0"},
	{3.0, false, "3.0"},
	{0.1, false, "0.1"},
	{-2.5, false, "-2.5"},
	{123.456, false, "123.456"},
	{0.0001, false, "0.0001"},
	{1e-05, false, "1e-05"},
	{2.5e-05, false, "2.5e-05"},
	{1e15, false, "1000000000000000.0"},
	{1e16, false, "1e+16"},
	{1.5e16, false, "1.5e+16"},
	{1.7976931348623157e308, false, "1.7976931348623157e+308"},
	{5e-324, false, "5e-324"},
	{(double)0.1f, true, "0.1"},
	{(double)3.14159f, true, "3.14159"},
	{(double)0.1f, false, "0.10000000149011612"},
};

/* Exact ns with their thousands grouped, both int64 extremes too. */
static const struct {
	int64_t ns;
	const char *want;
} grouped_cases[] = {
	{0, "0"},
	{999, "999"},
	{1000, "1,000"},
	{-1234567, "-1,234,567"},
	{INT64_MAX, "9,223,372,036,854,775,807"},
	{INT64_MIN, "-9,223,372,036,854,775,808"},
};

START_TEST(test_ns_grouped)
{
	char buf[32];
	ck_assert_str_eq(
		sv_fmt_ns_grouped(grouped_cases[_i].ns, buf, sizeof buf),
		grouped_cases[_i].want);
}
END_TEST

START_TEST(test_py_float)
{
	char buf[64];
	sv_fmt_py_float(py_cases[_i].v, py_cases[_i].single, buf, sizeof buf);
	ck_assert_str_eq(buf, py_cases[_i].want);
}
END_TEST

START_TEST(test_py_float_special)
{
	char buf[16];
	sv_fmt_py_float(NAN, false, buf, sizeof buf);
	ck_assert_str_eq(buf, "nan");
	sv_fmt_py_float(INFINITY, false, buf, sizeof buf);
	ck_assert_str_eq(buf, "inf");
	sv_fmt_py_float(-INFINITY, true, buf, sizeof buf);
	ck_assert_str_eq(buf, "-inf");
	/* a short buffer is cut, never overrun */
	sv_fmt_py_float(123.456, false, buf, 4);
	ck_assert_str_eq(buf, "123");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("fmt");
	TCase *t = tcase_create("durations");
	tcase_add_loop_test(
		t, test_dur_table, 0, sizeof dur_cases / sizeof dur_cases[0]);
	tcase_add_test(t, test_dur_int64);
	tcase_add_loop_test(t, test_dur_forms, 0,
		sizeof dur_form_cases / sizeof dur_form_cases[0]);
	tcase_add_test(t, test_dur_short_buffer);
	tcase_add_loop_test(t, test_ns_grouped, 0,
		sizeof grouped_cases / sizeof grouped_cases[0]);
	suite_add_tcase(s, t);
	t = tcase_create("py_float");
	tcase_add_loop_test(
		t, test_py_float, 0, sizeof py_cases / sizeof py_cases[0]);
	tcase_add_test(t, test_py_float_special);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
