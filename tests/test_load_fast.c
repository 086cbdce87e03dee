/*
 * test_load_fast.c: the parallel inflate path (load_h5_fast.c, with the
 * bounded decoders of load_h5_filters.c): deflate, LZF and zstd event
 * columns, shuffled or not, give exactly the values H5Dread gives, the
 * path steps aside where it must (a checksum filter, no chunks), a
 * damaged chunk gives H5Dread's error, and a cancel stops it between
 * chunks; and issue 13's 0.7 file (zstd columns with event metadata,
 * counters and a line profile) opens through both decoding paths.
 */
#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/io/load_h5_fast.h" /* sv_h5_fast_chunks */
#include "helpers.h"
#include "load_files.h"
#include "scopeview/callmeta.h"

static struct sv_profile *load_with(const char *path, bool slow)
{
	struct sv_load_opts o = {.slow_inflate = slow};
	return lf_load_opts(path, &o);
}

START_TEST(test_fast_same_values)
{
	const struct lf_big_case *c = &lf_big_cases[_i];
	int64_t *want = malloc(c->n * 8);
	char *path = lf_big_write(c, want);
	uint64_t before = sv_h5_fast_chunks(), mid;
	struct sv_profile *fast = load_with(path, false), *slow;
	size_t k;
	uint64_t i;

	mid = sv_h5_fast_chunks();
	slow = load_with(path, true);
	ck_assert_uint_eq(sv_h5_fast_chunks(), mid);
	if (c->fletcher || c->contiguous)
		ck_assert_uint_eq(mid, before); /* not for it: H5Dread */
	else
		ck_assert_msg(
			mid > before, "%s: parallel path not taken", c->name);
	ck_assert_uint_eq(fast->ncalls, c->n);
	ck_assert_uint_eq(slow->ncalls, c->n);
	lf_same_col(fast->start_ns, slow->start_ns, c->n, "start_ns");
	lf_same_col(fast->end_ns, slow->end_ns, c->n, "end_ns");
	lf_same_col(fast->call_id, slow->call_id, c->n, "call_id");
	ck_assert_uint_eq(fast->ncolumns, 1);
	ck_assert_uint_eq(slow->ncolumns, 1);
	/* the file contents list names the pipeline */
	for (k = 0; k < fast->nnodes; k++)
		if (!strcmp(fast->nodes[k].path, "/events/start_deltas"))
			break;
	ck_assert_uint_lt(k, fast->nnodes);
	if (!c->contiguous)
		ck_assert_msg(
			strstr(fast->nodes[k].what,
				c->codec == LF_BIG_LZF    ? "LZF"
				: c->codec == LF_BIG_ZSTD ? "Zstandard (zstd)"
							  : "deflate (gzip)") &&
				(!c->shuffle || strstr(fast->nodes[k].what,
							"shuffle + ")),
			"%s: %s", c->name, fast->nodes[k].what);
	ck_assert(fast->columns[0].is_float);
	lf_same_col(fast->columns[0].f, slow->columns[0].f, c->n, "weights");
	/* Schema 3's deltas decoded exactly, in both. */
	for (k = 0; k < fast->nrows; k++) {
		const struct sv_row *row = &fast->rows[k];
		uint64_t base = 0;
		size_t r;
		/* the row's slice in the file: rows are added in index order */
		for (r = 0; r < (size_t)c->nrows; r++)
			if ((uint32_t)r == row->rank)
				break;
		{
			hsize_t per = c->n / (hsize_t)c->nrows;
			int slot = c->reversed ? c->nrows - 1 - (int)r : (int)r;
			base = per * (hsize_t)slot;
		}
		for (i = 0; i < row->count; i++)
			ck_assert_msg(fast->start_ns[row->first + i] ==
					      want[base + i],
				"%s: row %zu call %" PRIu64 ": start %" PRId64
				", want %" PRId64,
				c->name, k, i, fast->start_ns[row->first + i],
				want[base + i]);
	}
	sv_profile_free(fast);
	sv_profile_free(slow);
	free(want);
	free(path);
}
END_TEST

/* Issue 13's "done when": a 0.7 file with zstd-compressed (and shuffled)
 * event columns, per-call event metadata, perf counters and a line
 * profile opens with no set-up, through both decoding paths. */
START_TEST(test_done_when_07)
{
	const struct lf_big_case *c =
		&lf_big_cases[8]; /* big_zstd_shuffle.h5 */
	int64_t *want = malloc(c->n * 8);
	char *path = lf_big_write(c, want);
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT), g, r, k;
	hsize_t per = c->n / 2, i;
	char *rows[2];
	const char *names[] = {"cycles", "instructions"};
	int64_t vals[] = {1000, 2500}, lines[] = {7, 8}, hits[] = {1, 9};
	double times[] = {1.0, 9.0};
	int slow;

	ck_assert_str_eq(c->name, "big_zstd_shuffle.h5");
	for (int row = 0; row < 2; row++) {
		hsize_t n = row ? c->n - per : per;
		size_t len = 2, at = 1;
		rows[row] = malloc(n * 24 + 4);
		rows[row][0] = '[';
		for (i = 0; i < n; i++) {
			at += (size_t)sprintf(rows[row] + at, "%s{\"it\": %d}",
				i ? ", " : "", (int)(i % 3));
			len = at;
		}
		rows[row][len] = ']';
		rows[row][len + 1] = '\0';
	}
	g = H5Gopen2(f, "rank_region_index", H5P_DEFAULT);
	lf_ds_strs(g, "event_metadata", (const char *const *)rows, 2, 0);
	H5Gclose(g);
	r = lf_h5_group(f, "rank0");
	g = lf_h5_group(r, "perf_events");
	k = lf_h5_group(g, "solve");
	lf_attr_strs(k, "event_names", names, 2);
	lf_attr_i64(k, "calls", (int64_t)per);
	lf_ds_ints(k, "values", H5T_STD_U64LE, vals, 2);
	H5Gclose(k);
	H5Gclose(g);
	g = lf_h5_group(r, "line_profile");
	k = lf_h5_group(g, "0");
	lf_attr_str(k, "region", "solve");
	lf_attr_str(k, "source", "def solve():\n    a = 1\n    b = 2\n");
	lf_attr_i64(k, "source_first_lineno", 6);
	lf_ds_ints(k, "line_numbers", H5T_STD_I64LE, lines, 2);
	lf_ds_ints(k, "hits", H5T_STD_I64LE, hits, 2);
	lf_ds_f64(k, "times", times, 2);
	H5Gclose(k);
	H5Gclose(g);
	H5Gclose(r);
	H5Fclose(f);
	free(rows[0]);
	free(rows[1]);

	for (slow = 0; slow < 2; slow++) {
		uint64_t before = sv_h5_fast_chunks();
		struct sv_profile *p = load_with(path, slow);
		ck_assert_uint_eq(p->ncalls, c->n);
		if (!slow)
			ck_assert_uint_gt(sv_h5_fast_chunks(), before);
		for (i = 0; i < per; i++)
			ck_assert_int_eq(p->start_ns[i], want[i]);
		ck_assert_str_eq(sv_callmeta_of(p, 0), "{\"it\":0}");
		ck_assert_str_eq(sv_callmeta_of(p, 4), "{\"it\":1}");
		ck_assert_str_eq(
			sv_callmeta_of(p, (uint32_t)(per + 2)), "{\"it\":2}");
		ck_assert_uint_eq(p->ncounters, 1);
		ck_assert(p->counters[0].values[1] == 2500);
		ck_assert_uint_eq(p->nlineprofs, 1);
		ck_assert_int_eq(p->lineprofs[0].hits[1], 9);
		for (i = 0; i < p->nwarnings; i++)
			ck_assert_msg(!strstr(p->warnings[i], "event_metadata"),
				"%s", p->warnings[i]);
		sv_profile_free(p);
	}
	free(want);
	free(path);
}
END_TEST

/* A damaged chunk in the middle of a large compressed column: the
 * parallel path gives way, and the error is the one H5Dread gives. */
START_TEST(test_fast_damaged_chunk)
{
	const struct lf_big_case *c = &lf_big_cases[0];
	int64_t *want = malloc(c->n * 8);
	char *path = lf_big_write(c, want);
	hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	hid_t d = H5Dopen2(f, "events/durations", H5P_DEFAULT);
	haddr_t addr = 0;
	hsize_t size = 0, off[1];
	unsigned mask;
	unsigned char junk[64];
	struct sv_load_opts fo = {0}, so = {.slow_inflate = true};
	struct sv_profile *p = NULL;
	struct sv_error fe = {0}, se = {0};
	int frc, src;
	FILE *fp;
	hid_t sp = H5Dget_space(d);

	ck_assert_int_ge(
		H5Dget_chunk_info(d, sp, 40, off, &mask, &addr, &size), 0);
	H5Sclose(sp);
	H5Dclose(d);
	H5Fclose(f);
	memset(junk, 0xA5, sizeof junk);
	fp = fopen(path, "r+b");
	ck_assert_ptr_nonnull(fp);
	fseek(fp, (long)addr + 8, SEEK_SET);
	fwrite(junk, 1, size - 8 < sizeof junk ? size - 8 : sizeof junk, fp);
	fclose(fp);
	frc = sv_load(path, &fo, &p, &fe);
	src = sv_load(path, &so, &p, &se);
	ck_assert_int_eq(frc, -EIO);
	ck_assert_int_eq(src, -EIO);
	ck_assert_str_eq(fe.msg, se.msg);
	ck_assert_msg(strstr(fe.msg, "/events/durations: cannot read"),
		"message: %s", fe.msg);
	free(want);
	free(path);
}
END_TEST

static int cancel_on_events(void *ctx)
{
	int *calls = ctx;
	return ++*calls > 8; /* some batches of chunks in */
}

/* Cancellation is checked between chunks of the parallel path. */
START_TEST(test_fast_cancel)
{
	const struct lf_big_case *c = &lf_big_cases[2];
	int64_t *want = malloc(c->n * 8);
	char *path = lf_big_write(c, want);
	int calls = 0;
	struct sv_load_opts o = {.cancelled = cancel_on_events, .ctx = &calls};
	struct sv_profile *p = NULL;
	struct sv_error e = {0};
	uint64_t before = sv_h5_fast_chunks();

	ck_assert_int_eq(sv_load(path, &o, &p, &e), -ECANCELED);
	ck_assert_ptr_null(p);
	/* Stopped part of the way: the four columns hold 4 * 196 chunks. */
	ck_assert_uint_lt(sv_h5_fast_chunks() - before, 4 * 196);
	ck_assert_int_eq(calls, 9);
	free(want);
	free(path);
}
END_TEST

void lf_add_fast(Suite *s)
{
	TCase *t = tcase_create("fast_inflate");

	/* tools/test.sh leaves the tag out under valgrind (too slow there) */
	tcase_set_tags(t, "no-valgrind");
	tcase_set_timeout(t, 60);
	tcase_add_loop_test(t, test_fast_same_values, 0, (int)lf_nbig_cases);
	tcase_add_test(t, test_fast_damaged_chunk);
	tcase_add_test(t, test_done_when_07);
	tcase_add_test(t, test_fast_cancel);
	suite_add_tcase(s, t);
}
