/*
 * test_fmt.c: formatting numbers for people (fmt.h): Python's float repr,
 * checked against what CPython prints.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/fmt.h"

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
	TCase *t = tcase_create("py_float");
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
