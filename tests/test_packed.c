/*
 * test_packed.c: per-call int64 columns in a few bits a value (packed.h):
 * every value reads back exact, whatever its range, block boundaries, the
 * block's size and the column's length.  The loop tests run at blocks of
 * 64, 128 and 256 values (shift 6 + _i).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/packed.h"
#include "scopeview/wide.h"

/* Read every value of pk back as v, one by one and in runs (from inside
 * a block, across blocks, to the end, and short ones), then free it. */
static void packed_check(struct sv_packed *pk, const int64_t *v, uint64_t n)
{
	static const uint64_t from[] = {
		0, 1, 5, 63, 64, 65, 127, 128, 130, 255, 256, 257, 1000};
	int64_t *out = malloc((n ? n : 1) * sizeof *out);
	uint64_t i, j, k;

	ck_assert_ptr_nonnull(out);
	ck_assert_uint_eq(pk->n, n);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(sv_packed_get(pk, i), v[i]);
	for (i = 0; i + 1 < n; i++) /* the steps, inside blocks and across */
		ck_assert_int_eq(sv_packed_step(pk, i),
			(int64_t)((uint64_t)v[i + 1] - (uint64_t)v[i]));
	for (k = 0; k < sizeof from / sizeof *from && from[k] < n; k++) {
		sv_packed_get_range(pk, from[k], n - from[k], out);
		for (j = 0; j < n - from[k]; j++)
			ck_assert_int_eq(out[j], v[from[k] + j]);
	}
	for (i = 0; i < n; i += 7) {
		uint64_t len = n - i < 3 ? n - i : 3;
		sv_packed_get_range(pk, i, len, out);
		for (j = 0; j < len; j++)
			ck_assert_int_eq(out[j], v[i + j]);
	}
	free(out);
	sv_packed_fini(pk);
	ck_assert_uint_eq(pk->n, 0);
	ck_assert_uint_eq(pk->shift, 0);
	ck_assert_ptr_null(pk->bits);
}

/* Pack v in blocks of 2^shift values and read it back. */
static void packed_round_trip(const int64_t *v, uint64_t n, unsigned shift)
{
	struct sv_packed pk = {0};

	pk.shift = shift;
	sv_packed_build(&pk, v, n);
	ck_assert_uint_eq(pk.shift, shift);
	packed_check(&pk, v, n);
}

/* n values into v whose blocks of 2^shift take every width from 0 to 64
 * bits in turn (so that values straddle words at every offset), bias
 * above random bits. */
static int64_t *every_width(uint64_t n, unsigned shift, int64_t bias)
{
	int64_t *v = malloc((n ? n : 1) * sizeof *v);
	uint64_t i, x = 88172645463325252ull;

	ck_assert_ptr_nonnull(v);
	for (i = 0; i < n; i++) {
		unsigned w = (unsigned)(i >> shift) % 65;
		uint64_t mask = w == 64 ? UINT64_MAX : ((uint64_t)1 << w) - 1;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v[i] = (int64_t)((uint64_t)bias + (x & mask));
	}
	return v;
}

START_TEST(test_extremes)
{
	/* given the ends of int64 side by side in one block, zero and -1;
	 * when packed; then each reads back exact (a 64-bit distance) */
	static const int64_t v[] = {INT64_MIN, INT64_MAX, 0, -1, INT64_MAX,
		INT64_MIN + 1, 1, INT64_MAX - 1};
	packed_round_trip(v, sizeof v / sizeof v[0], SV_PACKED_SHIFT + _i);
}
END_TEST

START_TEST(test_every_width)
{
	/* given blocks of every width from 0 to 64 bits, one after the other
	 * (so that values straddle words at every offset), and a short last
	 * block; when packed; then each reads back exact */
	unsigned shift = SV_PACKED_SHIFT + (unsigned)_i;
	uint64_t N = 65 * ((uint64_t)1 << shift) + 17;
	int64_t *v = every_width(N, shift, -5000);

	packed_round_trip(v, N, shift);
	free(v);
}
END_TEST

START_TEST(test_short_last_block)
{
	/* given, for every width, a whole block and a short one after it of
	 * values of that width (the short block is written bit by bit, the
	 * whole one word by word); when packed; then each reads back exact */
	unsigned shift = SV_PACKED_SHIFT + (unsigned)_i;
	uint64_t nv = (uint64_t)1 << shift, N = nv + 37;
	int64_t v[SV_PACKED_FLAT + 37];
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
		v[0] = v[nv] = 0;
		v[1] = v[nv + 1] = (int64_t)mask;
		packed_round_trip(v, N, shift);
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

START_TEST(test_flat_blocks)
{
	/* given a column of mostly zeros (a depth, a leaf's children time)
	 * with a few other values; when packed in blocks of 256; then it
	 * reads back exact in a quarter of the headers of blocks of 64 */
	enum { N = 100000 };
	int64_t *v = calloc(N, sizeof *v);
	struct sv_packed a = {0}, b = {0};
	uint64_t i;

	ck_assert_ptr_nonnull(v);
	for (i = 0; i < N; i += 9973)
		v[i] = 3;
	sv_packed_build(&a, v, N);
	b.shift = SV_PACKED_FLAT_SHIFT;
	sv_packed_build(&b, v, N);
	ck_assert_uint_eq(a.shift, SV_PACKED_SHIFT);
	ck_assert_uint_le(b.bytes * 3, a.bytes);
	packed_check(&a, v, N);
	packed_check(&b, v, N);
	free(v);
}
END_TEST

START_TEST(test_u8_with_exceptions)
{
	/* given a byte a value with the values of 255 and more in an
	 * exception table (the depths of deep recursion); when packed; then
	 * every value reads back, the exceptions' own too */
	enum { N = 3000 };
	uint8_t col[N];
	int64_t want[N];
	struct sv_wide w = {0};
	struct sv_packed pk = {0};
	uint32_t i;

	for (i = 0; i < N; i++) {
		int64_t d = i % 700;
		col[i] = sv_wide_u8_append(&w, i, d);
		want[i] = d;
		ck_assert_int_eq(col[i] == SV_WIDE_U8, d >= 255);
	}
	sv_wide_sort(&w);
	for (i = 0; i < N; i++)
		ck_assert_int_eq(sv_wide_get_u8(&w, col, i), want[i]);
	pk.shift = SV_PACKED_FLAT_SHIFT;
	sv_packed_build_u8(&pk, col, N, &w);
	packed_check(&pk, want, N);
	sv_wide_fini(&w);
}
END_TEST

/* The first i with v[i] >= t, by a walk. */
static uint64_t first_ge_walk(const int64_t *v, uint64_t n, int64_t t)
{
	uint64_t i = 0;
	while (i < n && v[i] < t)
		i++;
	return i;
}

START_TEST(test_first_ge)
{
	/* given nondecreasing columns (runs of equal values across block
	 * bounds, steps of every size up to 2^51, blocks spanning up to 2^59,
	 * a short last block);
	 * when searched for each value, each value less and more one, and
	 * the ends of int64; then each answer is the walk's */
	unsigned shift = SV_PACKED_SHIFT + (unsigned)_i;
	uint64_t N = 5 * ((uint64_t)1 << shift) + 11, i, n;
	int64_t *v = malloc(N * sizeof *v);
	uint64_t x = 88172645463325252ull;

	ck_assert_ptr_nonnull(v);
	for (n = 0; n <= N; n += n < 3 ? 1 : N / 4 + 1) {
		struct sv_packed pk = {0};
		int64_t at = INT64_MIN + 2;
		for (i = 0; i < n; i++) {
			unsigned w;
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			w = (unsigned)(x % 52);
			/* a third of the steps 0: runs of equal values */
			if (x % 3)
				at += (int64_t)((x >> 8) &
						(((uint64_t)1 << w) - 1));
			v[i] = at;
		}
		pk.shift = shift;
		sv_packed_build(&pk, v, n);
		ck_assert_uint_eq(sv_packed_first_ge(&pk, INT64_MIN), 0);
		ck_assert_uint_eq(sv_packed_first_ge(&pk, INT64_MAX),
			first_ge_walk(v, n, INT64_MAX));
		for (i = 0; i < n; i++) {
			ck_assert_uint_eq(sv_packed_first_ge(&pk, v[i]),
				first_ge_walk(v, n, v[i]));
			ck_assert_uint_eq(sv_packed_first_ge(&pk, v[i] - 1),
				first_ge_walk(v, n, v[i] - 1));
			ck_assert_uint_eq(sv_packed_first_ge(&pk, v[i] + 1),
				first_ge_walk(v, n, v[i] + 1));
		}
		sv_packed_fini(&pk);
	}
	free(v);
}
END_TEST

START_TEST(test_two_threads)
{
	/* given a column of over 2^20 values of every width (blocks of 0 to
	 * 64 bits) and a short last block; when packed on two threads; then
	 * the column is the one thread's, word for word */
	uint64_t N = ((uint64_t)1 << 20) + 777, i;
	int64_t *v = every_width(N, SV_PACKED_SHIFT, 0);
	struct sv_packed one = {0}, two = {0};
	size_t nb = (N + SV_PACKED_BLOCK - 1) / SV_PACKED_BLOCK;

	sv_packed_build(&one, v, N);
	sv_packed_build2(&two, v, N);
	ck_assert_uint_eq(two.n, N);
	ck_assert_uint_eq(two.bytes, one.bytes);
	ck_assert_int_eq(
		memcmp(two.blocks, one.blocks, nb * sizeof *one.blocks), 0);
	ck_assert_int_eq(
		memcmp(two.bits, one.bits, one.bytes - nb * sizeof *one.blocks),
		0);
	for (i = 0; i < N; i += 1 + i % 61)
		ck_assert_int_eq(sv_packed_get(&two, i), v[i]);
	ck_assert_int_eq(sv_packed_get(&two, N - 1), v[N - 1]);
	sv_packed_fini(&one);
	sv_packed_fini(&two);
	free(v);
}
END_TEST

START_TEST(test_writer)
{
	/* given columns of every length up to three blocks and more, of
	 * every width (blocks of 0 to 64 bits); when packed a value at a
	 * time; then each is the column packed at once, word for word */
	unsigned shift = SV_PACKED_SHIFT + (unsigned)_i;
	uint64_t nv = (uint64_t)1 << shift, N = 65 * nv + 5, i, n;
	int64_t *v = every_width(N, shift, 0);

	for (n = 0; n <= N; n += n < 3 * nv + 2 ? 1 : N / 3) {
		struct sv_packed one = {0}, two = {0};
		struct sv_packed_writer w;
		one.shift = two.shift = shift;
		sv_packed_build(&one, v, n);
		sv_packed_writer_begin(&w, &two, n);
		for (i = 0; i < n; i++)
			sv_packed_writer_put(&w, v[i]);
		sv_packed_writer_end(&w);
		ck_assert_uint_eq(two.n, n);
		ck_assert_uint_eq(two.bytes, one.bytes);
		if (n) {
			size_t nb = (size_t)((n + nv - 1) >> shift);
			ck_assert_int_eq(memcmp(two.blocks, one.blocks,
						 nb * sizeof *one.blocks),
				0);
			ck_assert_int_eq(
				memcmp(two.bits, one.bits,
					one.bytes - nb * sizeof *one.blocks),
				0);
		}
		sv_packed_fini(&one);
		packed_check(&two, v, n);
	}
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
	tcase_add_loop_test(t, test_extremes, 0, 3);
	tcase_add_loop_test(t, test_every_width, 0, 3);
	tcase_add_loop_test(t, test_short_last_block, 0, 3);
	tcase_add_test(t, test_constant_and_ids);
	tcase_add_test(t, test_flat_blocks);
	tcase_add_test(t, test_u8_with_exceptions);
	tcase_add_loop_test(t, test_first_ge, 0, 3);
	tcase_add_test(t, test_two_threads);
	tcase_add_loop_test(t, test_writer, 0, 3);
	tcase_add_test(t, test_empty);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
