/*
 * test_radix.c: the stable radix sort of (key, value) pairs (radix.h):
 * agreement with a stable comparison sort, stability, keys that differ
 * only in high or low bytes, narrow ranges (the packed passes) on both
 * sides of 32 bits, signed keys, and the degenerate sizes.
 */
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/common.h"
#include "scopeview/radix.h"

static int radix_ref_cmp(const void *x, const void *y)
{
	const struct sv_radix_kv *a = x, *b = y;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	/* values are the original positions: this makes qsort stable */
	return a->value < b->value ? -1 : a->value > b->value;
}

/* Keys of n pairs drawn from a few shapes; values are the positions (but
 * for shape 9, high values). */
static void radix_fill(struct sv_radix_kv *a, size_t n, int shape)
{
	uint64_t x = 0x9E3779B97F4A7C15ull;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		switch (shape) {
		case 0: /* anything */
			a[i].key = x;
			break;
		case 1: /* few distinct keys: stability matters */
			a[i].key = x % 5;
			break;
		case 2: /* only the top byte differs */
			a[i].key = (x & 0xff00000000000000ull) | 0x1234;
			break;
		case 3: /* all equal */
			a[i].key = 42;
			break;
		case 5: /* durations: a narrow range under fixed high bits */
			a[i].key = 0xabcd000000000000ull | (x % 1000000) << 3;
			break;
		case 6: /* exactly 32 differing bits (still packed) */
			a[i].key = 0xff00000000000000ull | (x & 0xffffffffull);
			break;
		case 7: /* 33 differing bits (packed beside 17-bit values) */
			a[i].key = x & 0x1ffffffffull;
			break;
		case 8: /* 47 differing bits: packed beside 17 bits exactly */
			a[i].key = x & 0x7fffffffffffull;
			break;
		case 9: /* 40 bits and values of 32 bits: not packed */
			a[i].key = x & 0xffffffffffull;
			break;
		default: /* signed times around 0, sign bit flipped */
			a[i].key = (uint64_t)((int64_t)(x % 2001) - 1000) ^
				   (1ull << 63);
			break;
		}
		a[i].value =
			shape == 9 ? (uint32_t)i | 0x80000000u : (uint32_t)i;
	}
}

START_TEST(test_radix_matches_stable_sort)
{
	static const size_t sizes[] = {2, 3, 17, 256, 1000, 65537};
	size_t s;

	for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		size_t n = sizes[s];
		struct sv_radix_kv *a = sv_xmalloc(n * sizeof *a);
		struct sv_radix_kv *ref = sv_xmalloc(n * sizeof *ref);
		struct sv_radix_kv *tmp = sv_xmalloc(n * sizeof *tmp);

		/* given pairs of one shape, when radix- and reference-sorted,
		 * then both orders agree pair for pair */
		radix_fill(a, n, _i);
		memcpy(ref, a, n * sizeof *a);
		sv_radix_sort(a, tmp, n);
		qsort(ref, n, sizeof *ref, radix_ref_cmp);
		for (size_t i = 0; i < n; i++) {
			ck_assert_uint_eq(a[i].key, ref[i].key);
			ck_assert_uint_eq(a[i].value, ref[i].value);
		}
		free(a);
		free(ref);
		free(tmp);
	}
}
END_TEST

START_TEST(test_radix_signed_order)
{
	const int64_t in[] = {5, -3, 0, INT64_MIN, INT64_MAX, -3, 7};
	const uint32_t want[] = {3, 1, 5, 2, 0, 6, 4};
	struct sv_radix_kv a[7], tmp[7];
	size_t i;

	for (i = 0; i < 7; i++) {
		a[i].key = (uint64_t)in[i] ^ (1ull << 63);
		a[i].value = (uint32_t)i;
	}
	sv_radix_sort(a, tmp, 7);
	for (i = 0; i < 7; i++)
		ck_assert_uint_eq(a[i].value, want[i]);
}
END_TEST

START_TEST(test_radix_degenerate)
{
	struct sv_radix_kv one = {7, 3};

	sv_radix_sort(NULL, NULL, 0);
	sv_radix_sort(&one, NULL, 1);
	ck_assert_uint_eq(one.key, 7);
	ck_assert_uint_eq(one.value, 3);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("radix");
	TCase *t = tcase_create("sort");
	tcase_add_loop_test(t, test_radix_matches_stable_sort, 0, 10);
	tcase_add_test(t, test_radix_signed_order);
	tcase_add_test(t, test_radix_degenerate);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
