/*
 * test_packed.c: per-call int64 columns in a few bits a value (packed.h):
 * every value reads back exact, whatever its range, block boundaries and
 * the column's length.
 */
#include <stdint.h>
#include <stdlib.h>

#include "helpers.h"
#include "scopeview/packed.h"

/* Pack v, then read every value back, one by one and in runs (from
 * inside a block, across blocks, to the end, and short ones). */
static void packed_round_trip(const int64_t *v, uint64_t n)
{
	static const uint64_t from[] = {0, 1, 5, 63, 64, 65, 130, 1000};
	struct sv_packed pk = {0};
	int64_t *out = malloc((n ? n : 1) * sizeof *out);
	uint64_t i, j, k;

	ck_assert_ptr_nonnull(out);
	sv_packed_build(&pk, v, n);
	ck_assert_uint_eq(pk.n, n);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(sv_packed_get(&pk, i), v[i]);
	for (k = 0; k < sizeof from / sizeof *from && from[k] < n; k++) {
		sv_packed_get_range(&pk, from[k], n - from[k], out);
		for (j = 0; j < n - from[k]; j++)
			ck_assert_int_eq(out[j], v[from[k] + j]);
	}
	for (i = 0; i < n; i += 7) {
		uint64_t len = n - i < 3 ? n - i : 3;
		sv_packed_get_range(&pk, i, len, out);
		for (j = 0; j < len; j++)
			ck_assert_int_eq(out[j], v[i + j]);
	}
	free(out);
	sv_packed_fini(&pk);
	ck_assert_uint_eq(pk.n, 0);
	ck_assert_ptr_null(pk.bits);
}

START_TEST(test_extremes)
{
	/* given the ends of int64 side by side in one block, zero and -1;
	 * when packed; then each reads back exact (a 64-bit distance) */
	static const int64_t v[] = {INT64_MIN, INT64_MAX, 0, -1, INT64_MAX,
		INT64_MIN + 1, 1, INT64_MAX - 1};
	packed_round_trip(v, sizeof v / sizeof v[0]);
}
END_TEST

START_TEST(test_every_width)
{
	/* given blocks of every width from 0 to 64 bits, one after the other
	 * (so that values straddle words at every offset), and a short last
	 * block; when packed; then each reads back exact */
	enum { N = 65 * SV_PACKED_BLOCK + 17 };
	int64_t *v = malloc(N * sizeof *v);
	uint64_t i, x = 88172645463325252ull;

	ck_assert_ptr_nonnull(v);
	for (i = 0; i < N; i++) {
		unsigned w = (unsigned)(i / SV_PACKED_BLOCK) % 65;
		uint64_t mask = w == 64 ? UINT64_MAX : ((uint64_t)1 << w) - 1;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v[i] = (int64_t)((uint64_t)-5000 + (x & mask));
	}
	packed_round_trip(v, N);
	free(v);
}
END_TEST

START_TEST(test_short_last_block)
{
	/* given, for every width, a whole block and a short one after it of
	 * values of that width (the short block is written bit by bit, the
	 * whole one word by word); when packed; then each reads back exact */
	enum { N = SV_PACKED_BLOCK + 37 };
	int64_t v[N];
	uint64_t i, x = 2463534242ull;
	unsigned w;

	for (w = 1; w <= 64; w++) {
		uint64_t mask = w == 64 ? UINT64_MAX : ((uint64_t)1 << w) - 1;
		for (i = 0; i < N; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v[i] = (int64_t)(x & mask);
		}
		/* both ends of the width, so that it is exactly w */
		v[0] = v[SV_PACKED_BLOCK] = 0;
		v[1] = v[SV_PACKED_BLOCK + 1] = (int64_t)mask;
		packed_round_trip(v, N);
	}
}
END_TEST

START_TEST(test_constant_and_ids)
{
	/* given a constant column (no bits at all) and ids that rise by small
	 * steps; when packed; then they read back exact, the constant one in
	 * no more than its bases and the ids in about a byte a value */
	enum { N = 10000 };
	int64_t *v = malloc(N * sizeof *v);
	struct sv_packed pk = {0};
	uint64_t i;

	ck_assert_ptr_nonnull(v);
	for (i = 0; i < N; i++)
		v[i] = -1;
	sv_packed_build(&pk, v, N);
	for (i = 0; i < N; i++)
		ck_assert_int_eq(sv_packed_get(&pk, i), -1);
	ck_assert_uint_le(pk.bytes, (N / SV_PACKED_BLOCK + 1) * 16 + 16);
	for (i = 0; i < N; i++)
		v[i] = 1000000 + 3 * (int64_t)i + (int64_t)(i % 5);
	sv_packed_build(&pk, v, N);
	for (i = 0; i < N; i++)
		ck_assert_int_eq(sv_packed_get(&pk, i), v[i]);
	ck_assert_uint_le(pk.bytes, 2 * N);
	sv_packed_fini(&pk);
	free(v);
}
END_TEST

START_TEST(test_empty)
{
	/* given no values; when packed; then the column is empty */
	struct sv_packed pk = {0};
	sv_packed_build(&pk, NULL, 0);
	ck_assert_uint_eq(pk.n, 0);
	ck_assert_ptr_null(pk.blocks);
	sv_packed_fini(&pk);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("packed");
	TCase *t = tcase_create("column");
	tcase_add_test(t, test_extremes);
	tcase_add_test(t, test_every_width);
	tcase_add_test(t, test_short_last_block);
	tcase_add_test(t, test_constant_and_ids);
	tcase_add_test(t, test_empty);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
