/*
 * test_load_subset.c: loads of some ranks only (load_h5_subset.c,
 * doc/format.md 4.14) and reloads that keep ranks from a previous load
 * (load_h5_donor.c, 4.15): the rows and calls of the chosen ranks exactly
 * as the full load has them, the whole run's time origin, only the
 * chunks of their ranges decoded; a donor's calls copied, never another
 * file's; and the packing threshold and shared ownership of a profile.
 */
#include <hdf5.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "../src/io/load_h5_fast.h" /* sv_h5_fast_chunks */
#include "helpers.h"
#include "load_files.h"
#include "scopeview/gen.h"

/* ---- rank subsets (load_h5_subset.c) ------------------------------------ */

/* A load of ranks on[0 .. n) (NULL: every rank), packed as the viewer's
 * are when pack, with the calls of donor copied where they can be;
 * *released counts donor_done. */
static void donor_done_count(void *ctx)
{
	++*(int *)ctx;
}

static struct sv_profile *load_donor(const char *path, const bool *on,
	uint32_t n, bool pack, const struct sv_profile *donor, int *released)
{
	struct sv_load_opts o = {.pack = pack};

	o.rank_on = on;
	o.nrank_on = n;
	o.donor = donor;
	o.donor_done = donor_done_count;
	o.ctx = released;
	return lf_load_opts(path, &o);
}

/* Every figure of every call, row and lane of a and b is the same. */
static void same_profile(const struct sv_profile *a, const struct sv_profile *b)
{
	size_t r, l, i;
	uint32_t c;
	int k;

	ck_assert_uint_eq(a->ncalls, b->ncalls);
	ck_assert_uint_eq(a->nrows, b->nrows);
	ck_assert_uint_eq(a->nlanes, b->nlanes);
	ck_assert_uint_eq(a->nwarnings, b->nwarnings);
	for (i = 0; i < a->nwarnings; i++)
		ck_assert_str_eq(a->warnings[i], b->warnings[i]);
	for (r = 0; r < a->nrows; r++) {
		ck_assert_uint_eq(a->rows[r].rank, b->rows[r].rank);
		ck_assert_uint_eq(a->rows[r].region, b->rows[r].region);
		ck_assert_uint_eq(a->rows[r].first, b->rows[r].first);
		ck_assert_uint_eq(a->rows[r].count, b->rows[r].count);
		ck_assert_int_eq(
			a->rows[r].exclusive_total, b->rows[r].exclusive_total);
		ck_assert(a->rows[r].has_gpu == b->rows[r].has_gpu);
	}
	ck_assert(sv_profile_has_gpu(a) == sv_profile_has_gpu(b));
	ck_assert(sv_profile_has_await(a) == sv_profile_has_await(b));
	for (k = 0; k < SV_ID_COLUMNS; k++)
		ck_assert(sv_profile_has_id(a, (enum sv_id_column)k) ==
			  sv_profile_has_id(b, (enum sv_id_column)k));
	for (c = 0; c < a->ncalls; c++) {
		ck_assert_int_eq(
			sv_profile_start(a, c), sv_profile_start(b, c));
		ck_assert_int_eq(sv_profile_end(a, c), sv_profile_end(b, c));
		ck_assert_uint_eq(
			sv_profile_depth(a, c), sv_profile_depth(b, c));
		ck_assert_uint_eq(
			sv_profile_parent(a, c), sv_profile_parent(b, c));
		ck_assert_int_eq(
			sv_profile_exclusive(a, c), sv_profile_exclusive(b, c));
		ck_assert_uint_eq(sv_call_lane(a, c), sv_call_lane(b, c));
		ck_assert_int_eq(sv_profile_gpu(a, c), sv_profile_gpu(b, c));
		ck_assert_int_eq(
			sv_profile_await(a, c), sv_profile_await(b, c));
		for (k = 0; k < SV_ID_COLUMNS; k++)
			if (sv_profile_has_id(a, (enum sv_id_column)k))
				ck_assert_int_eq(
					sv_profile_id(
						a, (enum sv_id_column)k, c),
					sv_profile_id(
						b, (enum sv_id_column)k, c));
	}
	for (l = 0; l < a->nlanes; l++) {
		ck_assert_str_eq(a->lanes[l].label, b->lanes[l].label);
		ck_assert_uint_eq(a->lanes[l].ncalls, b->lanes[l].ncalls);
		for (i = 0; i < a->lanes[l].ncalls; i++)
			ck_assert_uint_eq(sv_lane_call(&a->lanes[l], i),
				sv_lane_call(&b->lanes[l], i));
	}
}

/* The calls a profile holds of the ranks on. */
static uint64_t calls_of_ranks(const struct sv_profile *p, const bool *on)
{
	uint64_t n = 0;
	size_t r;

	for (r = 0; r < p->nrows; r++)
		n += on[p->rows[r].rank] ? p->rows[r].count : 0;
	return n;
}

static struct sv_profile *load_ranks(
	const char *path, const bool *on, uint32_t n, bool slow)
{
	struct sv_load_opts o = {.slow_inflate = slow};

	o.rank_on = on;
	o.nrank_on = n;
	return lf_load_opts(path, &o);
}

/* summary_statistics for rows of the calls st/en (total, minimum, maximum,
 * first, last, start_minimum, end_maximum; no GPU; mean and m2 left 0). */
static void subset_summaries(hid_t g, const int64_t *off, const int64_t *cnt,
	size_t rows, const int64_t *st, const int64_t *en)
{
	static const char *f64[] = {"total", "minimum", "maximum", "first",
		"last", "start_minimum", "end_maximum", "gpu_count",
		"gpu_total"};
	struct sv_summary *v = calloc(rows, sizeof *v);
	hid_t t = H5Tcreate(H5T_COMPOUND, sizeof *v), sp, ds;
	hsize_t n = rows;
	size_t r, i;
	int64_t k;

	for (i = 0; i < 9; i++)
		H5Tinsert(t, f64[i], i * 8, H5T_NATIVE_INT64);
	H5Tinsert(t, "mean", offsetof(struct sv_summary, mean),
		H5T_NATIVE_DOUBLE);
	H5Tinsert(t, "m2", offsetof(struct sv_summary, m2), H5T_NATIVE_DOUBLE);
	for (r = 0; r < rows; r++) {
		struct sv_summary *m = &v[r];
		for (k = off[r]; k < off[r] + cnt[r]; k++) {
			int64_t d = en[k] - st[k];
			bool one = k == off[r];
			m->total += d;
			m->minimum = one || d < m->minimum ? d : m->minimum;
			m->maximum = one || d > m->maximum ? d : m->maximum;
			m->first = one ? d : m->first;
			m->last = d;
			m->start_minimum = one || st[k] < m->start_minimum
						   ? st[k]
						   : m->start_minimum;
			m->end_maximum = one || en[k] > m->end_maximum
						 ? en[k]
						 : m->end_maximum;
		}
	}
	sp = H5Screate_simple(1, &n, NULL);
	ds = H5Dcreate2(g, "summary_statistics", t, sp, H5P_DEFAULT,
		H5P_DEFAULT, H5P_DEFAULT);
	ck_assert_int_ge(ds, 0);
	H5Dwrite(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
	H5Dclose(ds);
	H5Sclose(sp);
	H5Tclose(t);
	free(v);
}

/* Five rows of three ranks; ranks 0 and 2 are the rows 0, 2, 3, 4, at file
 * offsets 0, 7, 9 and 14: two ranges, [0, 3) and [7, 15), read with one
 * union of hyperslabs.  _i = 0: the metadata gives start_time_ns, so the
 * subset is read; _i = 1: neither it nor stored statistics, so every rank
 * is read (the origin of the rows left out would be unknown); _i = 2:
 * stored statistics, whose start_minimum of rank 1's row (the earliest
 * call of the file) keeps the whole run's origin. */
START_TEST(test_rank_subset_rows)
{
	enum { ROWS = 5, TOTAL = 15 };
	char *path = svt_tmp_path("subset.h5");
	hid_t f = lf_h5_create(path), g;
	const char *names[] = {"a", "b"};
	int64_t region[ROWS] = {0, 0, 0, 1, 1}, rank[ROWS] = {0, 1, 2, 0, 2};
	int64_t off[ROWS] = {0, 3, 7, 9, 14}, cnt[ROWS] = {3, 4, 2, 5, 1};
	int64_t st[TOTAL], en[TOTAL];
	static const bool on[3] = {true, false, true};
	static const size_t kept[] = {0, 2, 3, 4};
	/* a string column: only the kept rows' strings are read */
	const char *files[ROWS] = {"f0.py", "f1.py", "f2.py", "f3.py", "f4.py"};
	struct sv_profile *p, *full;
	size_t r;
	uint64_t k;
	int i;

	for (i = 0; i < TOTAL; i++) {
		/* Rank 1's calls start first: the origin is theirs. */
		st[i] = i >= 3 && i < 7 ? 10 + i : 1000 + 100 * i;
		en[i] = st[i] + 5;
	}
	lf_attr_i64(f, "scope_profiler_schema", 2);
	g = lf_h5_group(f, "metadata");
	if (_i == 0)
		lf_attr_i64(g, "start_time_ns", 7);
	H5Gclose(g);
	g = lf_h5_group(f, "region_table");
	lf_ds_strs(g, "names", names, 2, 0);
	H5Gclose(g);
	g = lf_h5_group(f, "rank_region_index");
	lf_ds_ints(g, "region_ids", H5T_STD_U32LE, region, ROWS);
	lf_ds_ints(g, "ranks", H5T_STD_U32LE, rank, ROWS);
	lf_ds_ints(g, "event_offsets", H5T_STD_U64LE, off, ROWS);
	lf_ds_ints(g, "event_counts", H5T_STD_U64LE, cnt, ROWS);
	if (_i == 2)
		subset_summaries(g, off, cnt, ROWS, st, en);
	lf_ds_strs(g, "source_files", files, ROWS, 0);
	H5Gclose(g);
	g = lf_h5_group(f, "events");
	lf_ds_ints(g, "start_times", H5T_STD_I64LE, st, TOTAL);
	lf_ds_ints(g, "end_times", H5T_STD_I64LE, en, TOTAL);
	lf_ds_ints(g, "call_ids", H5T_STD_I64LE, st, TOTAL);
	H5Gclose(g);
	H5Fclose(f);

	full = lf_load_ok(path);
	p = load_ranks(path, on, 3, false);
	ck_assert_uint_eq(p->num_ranks, 3);
	ck_assert_int_eq(
		sv_profile_time_origin(p), sv_profile_time_origin(full));
	ck_assert_int_eq(sv_profile_time_origin(p), _i == 0 ? 7 : 13);
	if (_i == 1) {
		ck_assert(!p->rank_subset);
		ck_assert_uint_eq(p->nrows, ROWS);
		ck_assert_uint_eq(p->ncalls, TOTAL);
		ck_assert_ptr_null(sv_profile_subset_label(p));
		goto out;
	}
	ck_assert(p->rank_subset);
	ck_assert_uint_eq(p->file_rows, ROWS);
	ck_assert_uint_eq(p->file_calls, TOTAL);
	ck_assert_uint_eq(p->file_ranks, 3);
	ck_assert_uint_eq(p->nrows, 4);
	ck_assert_uint_eq(p->ncalls, 3 + 2 + 5 + 1);
	for (r = 0; r < 4; r++) {
		const struct sv_row *row = &p->rows[r];
		const struct sv_row *want = &full->rows[kept[r]];
		ck_assert_uint_eq(row->rank, want->rank);
		ck_assert_uint_eq(row->region, want->region);
		ck_assert_uint_eq(row->count, want->count);
		ck_assert_str_eq(row->source_file, files[kept[r]]);
		ck_assert_str_eq(row->source_file, want->source_file);
		for (k = 0; k < row->count; k++) {
			uint32_t c = (uint32_t)(row->first + k);
			uint32_t w = (uint32_t)(want->first + k);
			/* the call at file offset off + k */
			ck_assert_int_eq(p->start_ns[c], st[off[kept[r]] + k]);
			ck_assert_int_eq(p->start_ns[c], full->start_ns[w]);
			ck_assert_int_eq(
				sv_profile_end(p, c), sv_profile_end(full, w));
			ck_assert_int_eq(p->call_id[c], full->call_id[w]);
			ck_assert_uint_eq(sv_profile_row_of(p, c), r);
		}
	}
	{
		char *label = sv_profile_subset_label(p);
		ck_assert_str_eq(label, "ranks 0,2 of 3");
		free(label);
	}
	{
		/* A switch from ranks 0-1 to 0,2 copies rank 0's rows (0 and
		 * 3, between which row 2 is read: ranges around them). */
		static const bool was[3] = {true, true, false};
		int released = 0;
		struct sv_profile *d = load_donor(
					  path, was, 3, true, NULL, &released),
				  *again = load_donor(
					  path, on, 3, true, d, &released);
		ck_assert_int_eq(released, 1);
		ck_assert_uint_eq(again->kept_calls, 3 + 5);
		same_profile(again, p);
		sv_profile_free(again);
		sv_profile_free(d);
	}
out:
	sv_profile_free(p);
	sv_profile_free(full);
	free(path);
}
END_TEST

/* A generated file (compressed, 4 ranks): --ranks 1 gives rank 1's rows
 * and calls exactly as the full load has them, whole-run origin and
 * ranks, and the parallel decoder fetches only the chunks of rank 1's
 * range (about a quarter); the H5Dread path gives the same. */
START_TEST(test_rank_subset_gen)
{
	char *path = svt_tmp_path("subset_gen.h5");
	struct sv_gen_opts go;
	struct sv_error e = {0};
	static const bool on[2] = {false, true};
	struct sv_profile *full, *p, *slow;
	uint64_t c0, c1, c2;
	size_t r, kr = 0;
	uint64_t k;

	sv_gen_opts_init(&go);
	go.ranks = 4;
	go.events = 400000;
	go.seed = 11;
	ck_assert_msg(
		sv_gen_write(path, &go, NULL, NULL, &e) == 0, "%s", e.msg);
	c0 = sv_h5_fast_chunks();
	full = load_ranks(path, NULL, 0, false);
	c1 = sv_h5_fast_chunks();
	p = load_ranks(path, on, 2, false);
	c2 = sv_h5_fast_chunks();
	slow = load_ranks(path, on, 2, true);
	ck_assert(p->rank_subset);
	ck_assert_uint_gt(c2, c1);
	ck_assert_msg((c2 - c1) * 3 < c1 - c0,
		"subset decoded %" PRIu64 " chunks, full %" PRIu64, c2 - c1,
		c1 - c0);
	ck_assert_uint_eq(p->num_ranks, full->num_ranks);
	ck_assert_int_eq(
		sv_profile_time_origin(p), sv_profile_time_origin(full));
	ck_assert_uint_eq(p->ncalls, slow->ncalls);
	lf_same_col(p->start_ns, slow->start_ns, p->ncalls, "start_ns");
	lf_same_col(p->end_ns, slow->end_ns, p->ncalls, "end_ns");
	for (r = 0; r < full->nrows; r++) {
		const struct sv_row *w = &full->rows[r], *row;
		if (w->rank != 1)
			continue;
		ck_assert_uint_lt(kr, p->nrows);
		row = &p->rows[kr++];
		ck_assert_uint_eq(row->region, w->region);
		ck_assert_uint_eq(row->count, w->count);
		ck_assert(row->has_summary && w->has_summary);
		ck_assert_int_eq(row->exclusive_total, w->exclusive_total);
		for (k = 0; k < row->count; k++) {
			uint32_t c = (uint32_t)(row->first + k);
			uint32_t d = (uint32_t)(w->first + k);
			ck_assert_int_eq(p->start_ns[c], full->start_ns[d]);
			ck_assert_int_eq(
				sv_profile_end(p, c), sv_profile_end(full, d));
			/* nesting rebuilt per lane: the same on rank 1 */
			ck_assert_int_eq(sv_profile_exclusive(p, c),
				sv_profile_exclusive(full, d));
			ck_assert_uint_eq(sv_profile_depth(p, c),
				sv_profile_depth(full, d));
		}
	}
	ck_assert_uint_eq(kr, p->nrows);
	sv_profile_free(full);
	sv_profile_free(p);
	sv_profile_free(slow);
	unlink(path);
	free(path);
}
END_TEST

/* ---- reloads that keep ranks (load_h5_donor.c) -------------------------- */

/*
 * A reload of ranks 1-2 with the previous load of ranks 0-1 as donor (the
 * viewer's switch under --memory) gives exactly the load of ranks 1-2
 * read from the file, with rank 1's calls copied: on a compressed gen
 * file (schema 3's deltas, the id, thread, GPU and await columns, packed
 * or plain donors, every rank read or not), and on a donor of another
 * file, which gives nothing.  donor_done is called once.
 */
START_TEST(test_donor_same_as_read)
{
	char *path = svt_tmp_path("donor.h5"), *other = NULL;
	struct sv_gen_opts go;
	struct sv_error e = {0};
	static const bool first[4] = {true, true, false, false};
	static const bool then[4] = {false, true, true, false};
	static const bool one[4] = {false, true, false, false};
	const bool *want_on = _i == 2 ? NULL : then;
	struct sv_profile *donor, *read, *kept;
	int released = 0;

	sv_gen_opts_init(&go);
	go.ranks = 4;
	go.events = 60000;
	go.threads = 2;
	go.gpu = true;
	go.await = true;
	go.tasks = _i == 1 ? 2 : 0;
	go.seed = 5;
	ck_assert_msg(
		sv_gen_write(path, &go, NULL, NULL, &e) == 0, "%s", e.msg);
	if (_i == 3) {
		/* The same calls under another name: not this file. */
		other = svt_tmp_path("donor_other.h5");
		ck_assert_msg(sv_gen_write(other, &go, NULL, NULL, &e) == 0,
			"%s", e.msg);
	}
	donor = load_donor(
		other ? other : path, first, 4, _i != 1, NULL, &released);
	read = load_donor(
		path, want_on, want_on ? 4 : 0, true, NULL, &released);
	kept = load_donor(
		path, want_on, want_on ? 4 : 0, true, donor, &released);
	ck_assert_int_eq(released, 1);
	ck_assert_uint_eq(read->kept_calls, 0);
	if (_i == 3)
		ck_assert_uint_eq(kept->kept_calls, 0);
	else
		ck_assert_uint_eq(kept->kept_calls,
			calls_of_ranks(donor, _i == 2 ? first : one));
	ck_assert_uint_gt(calls_of_ranks(donor, one), 0);
	same_profile(kept, read);
	sv_profile_free(donor);
	sv_profile_free(read);
	sv_profile_free(kept);
	unlink(path);
	free(path);
	if (other) {
		unlink(other);
		free(other);
	}
}
END_TEST

/* The viewer's loads pack a profile of pack_min_calls calls or more and
 * leave a smaller one plain (but for the ids, packed as they are read);
 * every figure is the same either way. */
START_TEST(test_pack_min_calls)
{
	char *path = svt_tmp_path("pack_min.h5");
	struct sv_gen_opts go;
	struct sv_error e = {0};
	struct sv_load_opts o = {.pack = true};
	struct sv_profile *plain, *packed;

	sv_gen_opts_init(&go);
	go.ranks = 2;
	go.events = 20000;
	go.threads = 2;
	go.seed = 3;
	ck_assert_msg(
		sv_gen_write(path, &go, NULL, NULL, &e) == 0, "%s", e.msg);
	packed = lf_load_opts(path, &o);
	ck_assert_ptr_null(packed->start_ns);
	ck_assert_uint_gt(packed->start_pk.n, 0);
	o.pack_min_calls = packed->ncalls + 1;
	plain = lf_load_opts(path, &o);
	ck_assert_ptr_nonnull(plain->start_ns);
	ck_assert_ptr_nonnull(plain->dur);
	ck_assert_uint_eq(plain->start_pk.n, 0);
	ck_assert_ptr_null(sv_profile_id_raw(plain, SV_ID_CALL));
	ck_assert(sv_profile_has_id(plain, SV_ID_CALL));
	same_profile(plain, packed);
	o.pack_min_calls = packed->ncalls;
	sv_profile_free(packed);
	packed = lf_load_opts(path, &o);
	ck_assert_ptr_null(packed->start_ns);
	sv_profile_free(plain);
	sv_profile_free(packed);
	unlink(path);
	free(path);
}
END_TEST

/* A profile with two owners is freed by the second sv_profile_free. */
START_TEST(test_profile_ref)
{
	struct sv_profile *p = sv_profile_new("x.h5");

	ck_assert_ptr_eq(sv_profile_ref(p), p);
	sv_profile_free(p);
	ck_assert_str_eq(p->path, "x.h5"); /* still there (ASAN would say) */
	sv_profile_free(p);
}
END_TEST

void lf_add_subset(Suite *s)
{
	TCase *t = tcase_create("rank_subset");

	tcase_add_loop_test(t, test_rank_subset_rows, 0, 3);
	tcase_add_test(t, test_rank_subset_gen);
	tcase_add_loop_test(t, test_donor_same_as_read, 0, 4);
	tcase_add_test(t, test_pack_min_calls);
	tcase_add_test(t, test_profile_ref);
	suite_add_tcase(s, t);
}
