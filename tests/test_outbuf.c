/*
 * test_outbuf.c: the report writers' output stream (outbuf.h): bytes in
 * memory and through a FILE, across the buffer's size, exact integers and
 * fixed-point numbers, a failed write and a cancelled one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/outbuf.h"

static const struct {
	int64_t v;
	const char *want;
} int_cases[] = {
	{0, "0"},
	{7, "7"},
	{-7, "-7"},
	{10, "10"},
	{99, "99"},
	{100, "100"},
	{-1000000007, "-1000000007"},
	{INT64_MAX, "9223372036854775807"},
	{INT64_MIN, "-9223372036854775808"},
};

START_TEST(test_integers)
{
	struct sv_outbuf o;
	char want[32];

	/* given a memory stream, when an integer is written, then its
	 * decimal text is what printf says */
	sv_outbuf_init(&o, NULL);
	sv_outbuf_i64(&o, int_cases[_i].v);
	ck_assert_str_eq(sv_outbuf_text(&o, NULL), int_cases[_i].want);
	sv_outbuf_reset(&o);
	sv_outbuf_u64(&o, (uint64_t)int_cases[_i].v);
	snprintf(want, sizeof want, "%" PRIu64, (uint64_t)int_cases[_i].v);
	ck_assert_str_eq(sv_outbuf_text(&o, NULL), want);
	ck_assert_int_eq(sv_outbuf_fini(&o), 0);
}
END_TEST

static const struct {
	int64_t v;
	unsigned decimals;
	const char *want;
} fixed_cases[] = {
	{0, 3, "0.000"}, {5, 3, "0.005"}, {1250, 3, "1.250"},
	{-1250, 3, "-1.250"}, {-5, 3, "-0.005"}, {123456789, 3, "123456.789"},
	{42, 0, "42"}, {-42, 1, "-4.2"},
	{INT64_MIN, 3, "-9223372036854775.808"},
	{INT64_MAX, 18, "9.223372036854775807"},
	{1, 25, "0.000000000000000001"}, /* at most 18 decimals */
};

START_TEST(test_fixed)
{
	struct sv_outbuf o;

	sv_outbuf_init(&o, NULL);
	sv_outbuf_fixed(&o, fixed_cases[_i].v, fixed_cases[_i].decimals);
	ck_assert_str_eq(sv_outbuf_text(&o, NULL), fixed_cases[_i].want);
	sv_outbuf_fini(&o);
}
END_TEST

/* Memory grows; take and reset empty it; text is NUL-terminated. */
START_TEST(test_memory)
{
	struct sv_outbuf o;
	char *text;
	size_t n, i;

	sv_outbuf_init(&o, NULL);
	ck_assert_str_eq(sv_outbuf_text(&o, &n), "");
	ck_assert_uint_eq(n, 0);
	for (i = 0; i < 100000; i++)
		sv_outbuf_putc(&o, (char)('a' + i % 26));
	sv_outbuf_puts(&o, "end");
	sv_outbuf_text(&o, &n);
	ck_assert_uint_eq(n, 100003);
	text = sv_outbuf_take(&o);
	ck_assert_uint_eq(strlen(text), 100003);
	ck_assert_int_eq(text[26], 'a');
	ck_assert_str_eq(text + 100000, "end");
	free(text);
	ck_assert_str_eq(sv_outbuf_text(&o, NULL), "");
	sv_outbuf_put(&o, "xyz", 2);
	ck_assert_str_eq(sv_outbuf_text(&o, NULL), "xy");
	sv_outbuf_reset(&o);
	ck_assert_str_eq(sv_outbuf_text(&o, NULL), "");
	ck_assert_int_eq(sv_outbuf_fini(&o), 0);
}
END_TEST

/* Through a FILE: more than the buffer holds, in pieces of every size,
 * arrives whole and in order. */
START_TEST(test_file)
{
	char *path = svt_tmp_path("outbuf.txt"), *text, *want;
	FILE *f = fopen(path, "w");
	struct sv_outbuf o;
	size_t i, n = 0, len;

	ck_assert_ptr_nonnull(f);
	want = sv_xmalloc(3 * SV_OUTBUF_SIZE + 1000);
	sv_outbuf_init(&o, f);
	for (i = 0; n < 3 * SV_OUTBUF_SIZE; i++) {
		char piece[700];
		size_t k = i % sizeof piece, m;
		for (m = 0; m < k; m++)
			piece[m] = (char)('A' + (i + m) % 50);
		sv_outbuf_put(&o, piece, k);
		memcpy(want + n, piece, k);
		n += k;
	}
	want[n] = '\0';
	ck_assert_str_eq(sv_outbuf_text(&o, &len), "");
	ck_assert_int_eq(sv_outbuf_fini(&o), 0);
	ck_assert_int_eq(fclose(f), 0);
	text = svt_read_file(path, &len);
	ck_assert_uint_eq(len, n);
	ck_assert(memcmp(text, want, n) == 0);
	free(text);
	free(want);
	free(path);
}
END_TEST

/* A write that fails says -EIO at the flush, and keeps saying it. */
START_TEST(test_failed_write)
{
	FILE *f = fopen("/dev/full", "w");
	struct sv_outbuf o;
	size_t i;

	if (!f)
		SVT_SKIP("no /dev/full");
	setvbuf(f, NULL, _IONBF, 0);
	sv_outbuf_init(&o, f);
	for (i = 0; i < 2 * SV_OUTBUF_SIZE; i++)
		sv_outbuf_putc(&o, 'x');
	ck_assert_int_eq(sv_outbuf_flush(&o), -EIO);
	ck_assert_int_eq(sv_outbuf_fini(&o), -EIO);
	fclose(f);
}
END_TEST

/* The cancel flag stops the stream: what follows is dropped. */
START_TEST(test_cancel)
{
	char *path = svt_tmp_path("cancel.txt"), *text;
	FILE *f = fopen(path, "w");
	struct sv_outbuf o;
	atomic_bool stop;
	size_t len;

	ck_assert_ptr_nonnull(f);
	atomic_init(&stop, false);
	sv_outbuf_init(&o, f);
	o.cancel = &stop;
	sv_outbuf_puts(&o, "kept");
	ck_assert_int_eq(sv_outbuf_flush(&o), 0);
	atomic_store(&stop, true);
	sv_outbuf_puts(&o, "dropped");
	ck_assert_int_eq(sv_outbuf_flush(&o), -ECANCELED);
	sv_outbuf_puts(&o, "dropped too");
	ck_assert_int_eq(sv_outbuf_fini(&o), -ECANCELED);
	fclose(f);
	text = svt_read_file(path, &len);
	ck_assert_str_eq(text, "kept");
	free(text);
	free(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("outbuf");
	TCase *t = tcase_create("outbuf");

	tcase_add_loop_test(
		t, test_integers, 0, sizeof int_cases / sizeof int_cases[0]);
	tcase_add_loop_test(
		t, test_fixed, 0, sizeof fixed_cases / sizeof fixed_cases[0]);
	tcase_add_test(t, test_memory);
	tcase_add_test(t, test_file);
	tcase_add_test(t, test_failed_write);
	tcase_add_test(t, test_cancel);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
