/*
 * test_write.c: the profile writer (write.h).  Files are written into the
 * test's temporary directory, read back with the loader (sv_load) and, for
 * the storage layout, inspected with HDF5 directly.
 *
 * The payloads are random but properly nested call trees whose true
 * parents are known, so exclusive totals are checked against values
 * computed from the trees, not from the writer's own sort.
 */
#include <errno.h>
#include <hdf5.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/load.h"
#include "scopeview/profile.h"
#include "scopeview/write.h"

/* ------------------------------------------------------------------ */
/* A random payload with known nesting */

struct rnd {
	uint64_t s;
};

static uint64_t rnd_next(struct rnd *r)
{
	r->s = r->s * 6364136223846793005ULL + 1442695040888963407ULL;
	return r->s >> 33;
}

static int64_t rnd_in(struct rnd *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd_next(r) % (uint64_t)(hi - lo + 1));
}

static const char *const tp_names[] = {"main", "solve", "kernel", "io", "fib",
	"mpi:allreduce kind=collective bytes=8", "naïve ünïcode ☃"};
#define TP_NREGIONS (sizeof tp_names / sizeof tp_names[0])

static const char *const tp_tags0[] = {"hot", "linear-algebra"};
static const char *const tp_tags1[] = {
	"quote\" back\\slash", "tab\there", "snow ☃", "emoji 😀", "nl\nx"};

/* One rank of test calls, in generation order, plus the truth. */
struct tpay {
	struct sv_write_rank w;
	struct sv_write_row rows[TP_NREGIONS];
	uint32_t row_of_region[TP_NREGIONS];
	size_t n, cap;
	uint32_t *row;
	int64_t *start, *end, *gpu, *call_id, *parent_id, *thread, *task,
		*await_ns;
	uint32_t *parent; /* truth, UINT32_MAX = top */
	struct sv_write_thread threads[3];
	struct sv_write_task tasks[2];
};

struct tp_opts {
	bool gpu, ids, lanes, await;
	int ncalls_hint; /* roughly this many calls per lane */
};

static uint32_t tp_emit(struct tpay *t, struct rnd *r, int64_t start,
	uint32_t parent, int64_t thread, int64_t task, const struct tp_opts *o)
{
	uint32_t reg = (uint32_t)rnd_in(r, 0, TP_NREGIONS - 1), c;
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
#define G(f) t->f = realloc(t->f, t->cap * sizeof *t->f)
		G(row);
		G(start);
		G(end);
		G(gpu);
		G(call_id);
		G(parent_id);
		G(thread);
		G(task);
		G(await_ns);
		G(parent);
#undef G
	}
	c = (uint32_t)t->n++;
	t->row[c] = reg; /* region index for now; rows are mapped later */
	t->start[c] = start;
	t->end[c] = start;
	t->parent[c] = parent;
	t->gpu[c] = -1;
	t->call_id[c] = c;
	t->parent_id[c] = parent == UINT32_MAX ? -1 : (int64_t)parent;
	t->thread[c] = thread;
	t->task[c] = task;
	t->await_ns[c] = 0;
	(void)o;
	return c;
}

/* A subtree starting at start; returns its end.  Children may start at
 * the parent's start and siblings may touch; a zero-length call is never
 * followed by a sibling at the same time (scope-profiler would nest it). */
static int64_t tp_tree(struct tpay *t, struct rnd *r, int64_t start,
	uint32_t parent, int depth, int64_t thread, int64_t task,
	const struct tp_opts *o)
{
	uint32_t c = tp_emit(t, r, start, parent, thread, task, o);
	int64_t cur = start, end;
	int kids = depth < 4 ? (int)rnd_in(r, 0, 3) : 0, i;

	if (kids == 0) {
		end = start + (rnd_in(r, 0, 4) == 0 ? 0 : rnd_in(r, 1, 900));
	} else {
		cur += rnd_in(r, 0, 3);
		for (i = 0; i < kids; i++) {
			int64_t e = tp_tree(
				t, r, cur, c, depth + 1, thread, task, o);
			bool zero = t->start[t->n - 1] == e; /* last call */
			cur = e + rnd_in(r, zero ? 1 : 0, 3);
		}
		end = cur + rnd_in(r, 1, 5);
	}
	t->end[c] = end;
	if (o->gpu && rnd_in(r, 0, 2) == 0)
		t->gpu[c] = (end - start) / 2;
	if (o->await && task >= 0)
		t->await_ns[c] = (end - start) / 3;
	return end;
}

/* Build one rank: lanes (thread 0, thread 1, task 0 on thread 0) with
 * random trees, then rows in order of first appearance. */
static void tp_build(
	struct tpay *t, uint32_t rank, uint64_t seed, const struct tp_opts *o)
{
	struct rnd r = {seed * 7919 + rank + 1};
	int64_t base = 1000000000000LL + (int64_t)rank * 1000;
	size_t i, nrows = 0;
	int lane;

	memset(t, 0, sizeof *t);
	for (lane = 0; lane < (o->lanes ? 3 : 1); lane++) {
		int64_t th = lane == 1 ? 1 : 0, tk = lane == 2 ? 0 : -1;
		int64_t cur = base + rnd_in(&r, 0, 50);
		while (t->n < (size_t)o->ncalls_hint * (lane + 1)) {
			int64_t e = tp_tree(t, &r, cur, UINT32_MAX, 0,
				o->lanes ? th : -1, o->lanes ? tk : -1, o);
			bool zero = t->start[t->n - 1] == e;
			cur = e + rnd_in(&r, zero ? 1 : 0, 100);
		}
	}
	for (i = 0; i < TP_NREGIONS; i++)
		t->row_of_region[i] = UINT32_MAX;
	for (i = 0; i < t->n; i++) {
		uint32_t reg = t->row[i];
		if (t->row_of_region[reg] == UINT32_MAX) {
			struct sv_write_row *row = &t->rows[nrows];
			memset(row, 0, sizeof *row);
			row->name = tp_names[reg];
			row->source_line = reg == 2 ? -1 : 10 + (int64_t)reg;
			row->source_file = reg == 2 ? NULL : "/src/app.py";
			row->source_text =
				reg == 1 ? "with sp.region('solve'):\n"
					   "    ..."
					 : NULL;
			if (reg == 1) {
				row->tags = tp_tags0;
				row->ntags = 2;
			} else if (reg == 6) {
				row->tags = tp_tags1;
				row->ntags = 5;
			}
			t->row_of_region[reg] = (uint32_t)nrows++;
		}
		t->row[i] = t->row_of_region[reg];
	}
	t->threads[0] = (struct sv_write_thread){
		0, 1001, 11, 0, "MainThread", 0, -1, 5000};
	t->threads[1] = (struct sv_write_thread){
		1, 1002, 12, 1, "worker-1", 10, 900, 300};
	t->tasks[0] = (struct sv_write_task){0, 0, "task", "Task-1",
		"main.<locals>.fetch", 5, -1, 3, 100, 50};
	t->w.rank = rank;
	t->w.rows = t->rows;
	t->w.nrows = nrows;
	t->w.ncalls = t->n;
	t->w.row = t->row;
	t->w.start_ns = t->start;
	t->w.end_ns = t->end;
	t->w.gpu_ns = o->gpu ? t->gpu : NULL;
	t->w.call_id = o->ids ? t->call_id : NULL;
	t->w.parent_id = o->ids ? t->parent_id : NULL;
	t->w.thread_id = o->lanes ? t->thread : NULL;
	t->w.task_id = o->lanes ? t->task : NULL;
	t->w.await_ns = o->await ? t->await_ns : NULL;
	t->w.threads = o->lanes ? t->threads : NULL;
	t->w.nthreads = o->lanes ? 2 : 0;
	t->w.tasks = o->lanes ? t->tasks : NULL;
	t->w.ntasks = o->lanes ? 1 : 0;
}

static void tp_free(struct tpay *t)
{
	free(t->row);
	free(t->start);
	free(t->end);
	free(t->gpu);
	free(t->call_id);
	free(t->parent_id);
	free(t->thread);
	free(t->task);
	free(t->await_ns);
	free(t->parent);
}

/* Exclusive totals per row from the true parents. */
static void tp_truth_exclusive(const struct tpay *t, int64_t *excl)
{
	size_t i;
	memset(excl, 0, t->w.nrows * sizeof *excl);
	for (i = 0; i < t->n; i++) {
		int64_t d = t->end[i] - t->start[i];
		excl[t->row[i]] += d;
		if (t->parent[i] != UINT32_MAX)
			excl[t->row[t->parent[i]]] -= d;
	}
}

/* ------------------------------------------------------------------ */
/* Comparing a loaded profile with payloads */

static bool str_same(const char *loaded, const char *written)
{
	if (!written || !*written)
		return !loaded || !*loaded;
	return loaded && !strcmp(loaded, written);
}

static const struct sv_row *find_row(
	const struct sv_profile *p, uint32_t rank, const char *name)
{
	size_t i;
	for (i = 0; i < p->nrows; i++)
		if (p->rows[i].rank == rank &&
			!strcmp(p->regions[p->rows[i].region], name))
			return &p->rows[i];
	return NULL;
}

/* The stored summary_statistics of row ri, recomputed here from the
 * payload's calls (storage order): integers exactly, the mean exactly
 * (integer sums below 2^53 are exact in any order), m2 to 1e-9. */
static void check_summary(const struct sv_profile *p, const struct sv_row *lr,
	const struct tpay *t, size_t ri)
{
	const struct sv_summary *s = &lr->summary;
	int64_t total = 0, mn = 0, mx = 0, first = 0, last = 0, smin = 0,
		emax = 0, gtotal = 0;
	uint64_t n = 0, gcount = 0, i;
	double mean, m2 = 0;

	(void)p;
	for (i = 0; i < t->n; i++) {
		int64_t d = t->end[i] - t->start[i];
		if (t->row[i] != ri)
			continue;
		if (n == 0 || d < mn)
			mn = d;
		if (n == 0 || d > mx)
			mx = d;
		if (n == 0)
			first = d;
		if (n == 0 || t->start[i] < smin)
			smin = t->start[i];
		if (n == 0 || t->end[i] > emax)
			emax = t->end[i];
		last = d;
		total += d;
		if (t->w.gpu_ns && t->gpu[i] >= 0) {
			gcount++;
			gtotal += t->gpu[i];
		}
		n++;
	}
	mean = n ? (double)total / (double)n : 0;
	for (i = 0; i < t->n; i++)
		if (t->row[i] == ri) {
			double d = (double)(t->end[i] - t->start[i]) - mean;
			m2 += d * d;
		}
	ck_assert_int_eq(s->total, total);
	ck_assert_int_eq(s->minimum, mn);
	ck_assert_int_eq(s->maximum, mx);
	ck_assert_int_eq(s->first, first);
	ck_assert_int_eq(s->last, last);
	ck_assert_int_eq(s->start_minimum, smin);
	ck_assert_int_eq(s->end_maximum, emax);
	ck_assert_uint_eq(s->gpu_count, gcount);
	ck_assert_int_eq(s->gpu_total, gtotal);
	ck_assert(s->mean == mean);
	ck_assert_double_eq_tol(s->m2, m2, 1e-9 * (m2 > 1 ? m2 : 1));
}

/* Every row, call and column of payload t is in p, in storage order;
 * stored exclusive totals equal the truth and the loader's per-call sums. */
static void check_rank(const struct sv_profile *p, const struct tpay *t,
	int schema, bool excl_stored)
{
	int64_t *truth = calloc(t->w.nrows + 1, sizeof *truth);
	size_t ri;

	tp_truth_exclusive(t, truth);
	for (ri = 0; ri < t->w.nrows; ri++) {
		const struct sv_write_row *wr = &t->rows[ri];
		const struct sv_row *lr = find_row(p, t->w.rank, wr->name);
		uint64_t k = 0, i;
		int64_t loader_excl = 0;

		ck_assert_msg(
			lr, "rank %u row %s missing", t->w.rank, wr->name);
		ck_assert_int_eq(lr->source_line, wr->source_line);
		ck_assert(str_same(lr->source_file, wr->source_file));
		ck_assert(str_same(lr->source_text, wr->source_text));
		ck_assert_uint_eq(lr->ntags, wr->ntags);
		ck_assert(!lr->tags_raw);
		for (i = 0; i < wr->ntags; i++)
			ck_assert_str_eq(lr->tags[i], wr->tags[i]);
		for (i = 0; i < t->n; i++) {
			uint64_t c;
			if (t->row[i] != ri)
				continue;
			ck_assert_uint_lt(k, lr->count);
			c = lr->first + k++;
			ck_assert_int_eq(sv_profile_start(p, c), t->start[i]);
			ck_assert_int_eq(sv_profile_end(p, c), t->end[i]);
			if (t->w.gpu_ns)
				ck_assert_int_eq(p->gpu_ns[c], t->gpu[i]);
			if (t->w.call_id) {
				ck_assert_int_eq(p->call_id[c], t->call_id[i]);
				ck_assert_int_eq(
					p->parent_id[c], t->parent_id[i]);
			}
			if (schema >= 2 && t->w.thread_id) {
				ck_assert_int_eq(p->thread_id[c], t->thread[i]);
				ck_assert_int_eq(p->task_id[c], t->task[i]);
			}
			if (schema >= 2 && t->w.await_ns)
				ck_assert_int_eq(
					p->await_ns[c], t->await_ns[i]);
			loader_excl += sv_profile_exclusive(p, c);
		}
		ck_assert_uint_eq(k, lr->count);
		ck_assert_int_eq(loader_excl, truth[ri]);
		if (schema >= 2 && lr->has_summary)
			check_summary(p, lr, t, ri);
		if (schema >= 2 && excl_stored)
			ck_assert_int_eq(lr->exclusive_total, truth[ri]);
	}
	free(truth);
}

static struct sv_profile *load_ok(const char *path)
{
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	int rc = sv_load(path, NULL, &p, &err);
	ck_assert_msg(rc == 0, "sv_load %s: %s", path, err.msg);
	ck_assert_uint_eq(p->nwarnings, 0);
	return p;
}

/* ------------------------------------------------------------------ */
/* Round trips over option mixes */

struct rt_case {
	const char *name;
	int schema;
	enum sv_write_storage storage;
	enum sv_write_compression comp;
	bool fixed, gpu, ids, lanes, await;
	int ranks, calls;
};

static const struct rt_case rt_cases[] = {
	{"s3 plain", 3, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_AUTO, false,
		false, true, false, false, 1, 40},
	{"s3 all columns", 3, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_AUTO, false,
		true, true, true, true, 3, 60},
	{"s3 fixed strings", 3, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_AUTO,
		true, true, false, true, false, 2, 30},
	{"s3 chunked", 3, SV_WRITE_CHUNKED, SV_WRITE_COMPRESS_AUTO, false, true,
		true, true, true, 2, 50},
	{"s3 gzip", 3, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_GZIP, false, false,
		true, true, true, 2, 50},
	{"s3 large auto", 3, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_AUTO, false,
		true, true, true, true, 3, 3000},
	{"s3 large none", 3, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_NONE, false,
		false, true, true, false, 2, 4000},
	{"s2 plain", 2, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_AUTO, false, true,
		true, false, false, 2, 40},
	{"s2 lanes", 2, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_AUTO, true, true,
		true, true, true, 2, 40},
	{"s1 plain", 1, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_AUTO, false,
		false, false, false, false, 2, 30},
	{"s1 gpu ids", 1, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_AUTO, false,
		true, true, false, false, 3, 30},
};

static void rt_run(const struct rt_case *tc, uint64_t seed)
{
	struct sv_writer_opts wo;
	struct sv_writer *w = NULL;
	struct sv_error err = {0};
	struct tp_opts o = {tc->gpu, tc->ids, tc->lanes, tc->await, tc->calls};
	struct tpay *pay = calloc((size_t)tc->ranks, sizeof *pay);
	char name[64];
	char *path;
	struct sv_profile *p;
	int r;

	snprintf(name, sizeof name, "rt-%s-%llu.h5", tc->name,
		(unsigned long long)seed);
	path = svt_tmp_path(name);
	sv_writer_opts_init(&wo);
	wo.schema = tc->schema;
	wo.storage = tc->storage;
	wo.compression = tc->comp;
	wo.fixed_strings = tc->fixed;
	ck_assert_int_eq(sv_writer_open(&w, path, &wo, &err), 0);
	ck_assert_int_eq(sv_writer_meta_int(w, "mpi_size", tc->ranks, &err), 0);
	for (r = 0; r < tc->ranks; r++) {
		tp_build(&pay[r], (uint32_t)r, seed, &o);
		ck_assert_msg(sv_writer_add_rank(w, &pay[r].w, &err) == 0, "%s",
			err.msg);
	}
	ck_assert_msg(sv_writer_close(w, &err) == 0, "%s", err.msg);

	p = load_ok(path);
	ck_assert_int_eq(p->schema, tc->schema == 1 ? 0 : tc->schema);
	ck_assert_uint_eq(p->num_ranks, (uint32_t)tc->ranks);
	ck_assert(!tc->gpu || p->gpu_ns);
	ck_assert(tc->gpu || !p->gpu_ns);
	ck_assert(tc->ids == (p->call_id != NULL));
	if (tc->schema >= 2) {
		ck_assert((tc->lanes) == (p->thread_id != NULL));
		ck_assert((tc->await) == (p->await_ns != NULL));
		ck_assert_uint_eq(p->nthreads, tc->lanes ? 2u * tc->ranks : 0);
		ck_assert_uint_eq(p->ntasks, tc->lanes ? 1u * tc->ranks : 0);
	}
	for (r = 0; r < tc->ranks; r++) {
		check_rank(p, &pay[r], tc->schema, true);
		tp_free(&pay[r]);
	}
	if (tc->schema >= 2 && tc->lanes) {
		const struct sv_thread *th = sv_profile_thread(p, 1, 1);
		const struct sv_task *tk = sv_profile_task(p, 1, 0);
		ck_assert_ptr_nonnull(th);
		ck_assert_str_eq(th->name, "worker-1");
		ck_assert_int_eq(th->daemon, 1);
		ck_assert_int_eq(th->end_ns, 900);
		ck_assert_int_eq(th->cpu_ns, 300);
		ck_assert_ptr_nonnull(tk);
		ck_assert_str_eq(tk->coro_name, "main.<locals>.fetch");
		ck_assert_int_eq(tk->done_ns, -1);
		ck_assert_int_eq(tk->suspended_ns, 50);
	}
	sv_profile_free(p);
	free(pay);
	free(path);
}

START_TEST(test_round_trip)
{
	uint64_t seed;
	for (seed = 1; seed <= 3; seed++)
		rt_run(&rt_cases[_i], seed);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Storage layout (inspected with HDF5) */

struct ds_info {
	bool chunked, deflate, shuffle, unlimited;
	hsize_t chunk, size;
};

static struct ds_info ds_inspect(const char *path, const char *name)
{
	struct ds_info d = {0};
	hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), ds, pl, sp;
	hsize_t dims, maxdims;
	int i, nf;

	ck_assert_int_ge(f, 0);
	ds = H5Dopen2(f, name, H5P_DEFAULT);
	ck_assert_msg(ds >= 0, "%s: no %s", path, name);
	pl = H5Dget_create_plist(ds);
	d.chunked = H5Pget_layout(pl) == H5D_CHUNKED;
	if (d.chunked)
		H5Pget_chunk(pl, 1, &d.chunk);
	nf = H5Pget_nfilters(pl);
	for (i = 0; i < nf; i++) {
		unsigned flags, cd[8];
		size_t ncd = 8;
		char fname[64];
		unsigned fc;
		H5Z_filter_t fid = H5Pget_filter2(pl, (unsigned)i, &flags, &ncd,
			cd, sizeof fname, fname, &fc);
		if (fid == H5Z_FILTER_DEFLATE) {
			d.deflate = true;
			ck_assert_uint_eq(cd[0], 4);
		}
		if (fid == H5Z_FILTER_SHUFFLE)
			d.shuffle = true;
	}
	sp = H5Dget_space(ds);
	H5Sget_simple_extent_dims(sp, &dims, &maxdims);
	d.size = dims;
	d.unlimited = maxdims == H5S_UNLIMITED;
	H5Sclose(sp);
	H5Pclose(pl);
	H5Dclose(ds);
	H5Fclose(f);
	return d;
}

/* The event chunk write_flat asks for (0: the default). */
static uint32_t flat_event_chunk;

/* Write one rank of n one-call rows... simpler: n flat calls in one row. */
static char *write_flat(const char *name, uint64_t n, int schema,
	enum sv_write_storage st, enum sv_write_compression comp)
{
	struct sv_writer_opts wo;
	struct sv_writer *w = NULL;
	struct sv_error err = {0};
	struct sv_write_row row = {.name = "flat", .source_line = -1};
	struct sv_write_rank r = {0};
	int64_t *s = malloc((n ? n : 1) * sizeof *s);
	int64_t *e = malloc((n ? n : 1) * sizeof *e);
	char *path = svt_tmp_path(name);
	uint64_t i;

	for (i = 0; i < n; i++) {
		s[i] = 5000000 + (int64_t)i * 10;
		e[i] = s[i] + 5 + (int64_t)(i % 3);
	}
	row.count = n;
	r.rows = &row;
	r.nrows = 1;
	r.ncalls = n;
	r.start_ns = s;
	r.end_ns = e;
	r.call_id = s; /* any values will do */
	r.parent_id = e;
	sv_writer_opts_init(&wo);
	wo.schema = schema;
	wo.storage = st;
	wo.compression = comp;
	wo.event_chunk = flat_event_chunk;
	ck_assert_int_eq(sv_writer_open(&w, path, &wo, &err), 0);
	ck_assert_msg(sv_writer_add_rank(w, &r, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(sv_writer_events(w), n);
	ck_assert_msg(sv_writer_close(w, &err) == 0, "%s", err.msg);
	free(s);
	free(e);
	return path;
}

struct layout_case {
	uint64_t n;
	enum sv_write_storage st;
	enum sv_write_compression comp;
	bool chunked, compressed;
};

/* Given n events and the options, when written, then the event columns
 * are stored as scope-profiler's publish step leaves them. */
static const struct layout_case layout_cases[] = {
	{10, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_AUTO, false, false},
	{8192, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_AUTO, false, false},
	{8193, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_AUTO, true, false},
	{16383, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_AUTO, true, false},
	{16384, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_AUTO, true, true},
	{20000, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_NONE, true, false},
	{10, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_GZIP, true, true},
	{10, SV_WRITE_CHUNKED, SV_WRITE_COMPRESS_AUTO, true, false},
	{20000, SV_WRITE_CHUNKED, SV_WRITE_COMPRESS_AUTO, true, false},
	{0, SV_WRITE_PUBLISHED, SV_WRITE_COMPRESS_AUTO, false, false},
};

START_TEST(test_layout)
{
	const struct layout_case *tc = &layout_cases[_i];
	char name[64];
	char *path;
	struct ds_info d, x;
	static const char *const cols[] = {"/events/start_deltas",
		"/events/durations", "/events/call_ids"};
	size_t k;

	snprintf(name, sizeof name, "layout-%d.h5", _i);
	path = write_flat(name, tc->n, 3, tc->st, tc->comp);
	for (k = 0; k < 3; k++) {
		d = ds_inspect(path, cols[k]);
		ck_assert_uint_eq(d.size, tc->n);
		ck_assert_msg(d.chunked == tc->chunked, "%s chunked %d",
			cols[k], d.chunked);
		ck_assert(d.unlimited == tc->chunked);
		ck_assert(d.deflate == tc->compressed);
		ck_assert(d.shuffle == tc->compressed);
		if (d.chunked)
			ck_assert_uint_eq(d.chunk, 1024);
	}
	/* The index is tiny: contiguous unless the layout is all-chunked. */
	x = ds_inspect(path, "/rank_region_index/event_counts");
	ck_assert(x.chunked == (tc->st == SV_WRITE_CHUNKED));
	if (x.chunked)
		ck_assert_uint_eq(x.chunk, 256);
	ck_assert(!x.deflate);
	free(path);
}
END_TEST

/* Above 16 MiB scope-profiler does not repack: every dataset with data
 * stays chunked and, from 16384 events, compressed. */
START_TEST(test_layout_big_file)
{
	char *path = write_flat("big.h5", 1100000, 3, SV_WRITE_PUBLISHED,
		SV_WRITE_COMPRESS_AUTO);
	struct ds_info d = ds_inspect(path, "/region_table/names");
	ck_assert(d.chunked && d.unlimited && d.deflate && d.shuffle);
	ck_assert_uint_eq(d.chunk, 256);
	d = ds_inspect(path, "/events/durations");
	ck_assert(d.chunked && d.deflate);
	free(path);
}
END_TEST

/* opts.event_chunk (gen --chunk) sets the event columns' chunk, in a
 * published file and a big unrepacked one, and the loader reads the
 * same calls from any chunk size; the index keeps 256. */
START_TEST(test_event_chunk)
{
	static const uint32_t chunks[] = {1, 7, 4096, 1u << 20};
	struct sv_profile *a, *b;
	char name[64];
	char *base, *path;
	size_t k;
	uint32_t i;

	flat_event_chunk = 0;
	base = write_flat("chunk-base.h5", 30000, 3, SV_WRITE_PUBLISHED,
		SV_WRITE_COMPRESS_AUTO);
	a = load_ok(base);
	for (k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
		struct ds_info d;
		flat_event_chunk = chunks[k];
		snprintf(name, sizeof name, "chunk-%zu.h5", k);
		path = write_flat(name, 30000, 3, SV_WRITE_PUBLISHED,
			SV_WRITE_COMPRESS_AUTO);
		d = ds_inspect(path, "/events/durations");
		ck_assert(d.chunked && d.deflate && d.shuffle);
		ck_assert_uint_eq(d.chunk, chunks[k]);
		b = load_ok(path);
		ck_assert_uint_eq(b->ncalls, a->ncalls);
		for (i = 0; i < a->ncalls; i++) {
			ck_assert_int_eq(
				sv_profile_start(b, i), sv_profile_start(a, i));
			ck_assert_int_eq(
				sv_call_duration(b, i), sv_call_duration(a, i));
		}
		sv_profile_free(b);
		free(path);
	}
	flat_event_chunk = 0;
	sv_profile_free(a);
	free(base);
}
END_TEST

/* The file holds every type scope-profiler writes. */
START_TEST(test_types)
{
	struct sv_writer *w = NULL;
	struct sv_error err = {0};
	char *path = svt_tmp_path("types.h5");
	static const char *const mods[] = {"gcc/12", "openmpi/4"};
	struct sv_profile *p;
	const struct sv_meta *m;
	hid_t f, a, t, ds;

	ck_assert_int_eq(sv_writer_open(&w, path, NULL, &err), 0);
	ck_assert_int_eq(sv_writer_meta_int(w, "mpi_size", 4, &err), 0);
	ck_assert_int_eq(sv_writer_meta_float(w, "ratio", 0.25, &err), 0);
	ck_assert_int_eq(sv_writer_meta_bool(w, "flag", true, &err), 0);
	ck_assert_int_eq(sv_writer_meta_str(w, "user", "demo", &err), 0);
	ck_assert_int_eq(sv_writer_meta_strs(w, "modules", mods, 2, &err), 0);
	ck_assert_int_eq(sv_writer_meta_strs(w, "empty", NULL, 0, &err), 0);
	ck_assert_int_eq(sv_writer_meta_int(w, "mpi_size", 5, &err), -EINVAL);
	ck_assert_int_eq(sv_writer_close(w, &err), 0);

	p = load_ok(path);
	ck_assert_uint_eq(p->nrows, 0);
	m = sv_profile_meta(p, "mpi_size");
	ck_assert(m && m->kind == SV_META_INT && m->i == 4);
	m = sv_profile_meta(p, "ratio");
	ck_assert(m && m->kind == SV_META_FLOAT && m->f == 0.25);
	m = sv_profile_meta(p, "flag");
	ck_assert(m && m->kind == SV_META_BOOL && m->i == 1);
	m = sv_profile_meta(p, "user");
	ck_assert(m && m->kind == SV_META_STRING);
	ck_assert_str_eq(m->text, "demo");
	m = sv_profile_meta(p, "modules");
	ck_assert(m && m->kind == SV_META_STRINGS && m->nstrs == 2);
	ck_assert_str_eq(m->strs[1], "openmpi/4");
	sv_profile_free(p);

	f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	a = H5Aopen(f, "scope_profiler_schema", H5P_DEFAULT);
	t = H5Aget_type(a);
	ck_assert(H5Tequal(t, H5T_STD_I64LE) > 0);
	H5Tclose(t);
	H5Aclose(a);
	a = H5Aopen(f, "storage_layout", H5P_DEFAULT);
	t = H5Aget_type(a);
	ck_assert(H5Tis_variable_str(t) > 0);
	ck_assert_int_eq(H5Tget_cset(t), H5T_CSET_UTF8);
	H5Tclose(t);
	H5Aclose(a);
	ds = H5Dopen2(f, "/rank_region_index/summary_statistics", H5P_DEFAULT);
	t = H5Dget_type(ds);
	ck_assert_uint_eq(H5Tget_size(t), 88);
	ck_assert_int_eq(H5Tget_nmembers(t), 11);
	ck_assert_int_eq(H5Tget_member_offset(t, 7), 56); /* gpu_count */
	ck_assert_int_eq(H5Tget_member_index(t, "m2"), 10);
	H5Tclose(t);
	H5Dclose(ds);
	H5Fclose(f);
	free(path);
}
END_TEST

/* A column supplied by a later rank is back-filled for earlier ones; a
 * rank that does not supply a present column gets the fill value. */
START_TEST(test_backfill)
{
	struct tp_opts plain = {false, false, false, false, 20};
	struct tp_opts rich = {true, true, true, true, 20};
	struct tpay a, b, c;
	struct sv_writer *w = NULL;
	struct sv_error err = {0};
	char *path = svt_tmp_path("backfill.h5");
	struct sv_profile *p;
	const struct sv_row *row;
	uint64_t i;
	size_t k;

	tp_build(&a, 0, 11, &plain);
	tp_build(&b, 1, 12, &rich);
	tp_build(&c, 2, 13, &plain);
	ck_assert_int_eq(sv_writer_open(&w, path, NULL, &err), 0);
	ck_assert_int_eq(sv_writer_add_rank(w, &a.w, &err), 0);
	ck_assert_int_eq(sv_writer_add_rank(w, &b.w, &err), 0);
	ck_assert_int_eq(sv_writer_add_rank(w, &c.w, &err), 0);
	ck_assert_int_eq(sv_writer_close(w, &err), 0);
	p = load_ok(path);
	ck_assert_ptr_nonnull(p->gpu_ns);
	ck_assert_ptr_nonnull(p->call_id);
	ck_assert_ptr_nonnull(p->thread_id);
	ck_assert_ptr_nonnull(p->await_ns);
	for (k = 0; k < p->nrows; k++) {
		row = &p->rows[k];
		if (row->rank == 1)
			continue;
		for (i = row->first; i < row->first + row->count; i++) {
			ck_assert_int_eq(p->gpu_ns[i], -1);
			ck_assert_int_eq(p->call_id[i], -1);
			ck_assert_int_eq(p->parent_id[i], -1);
			ck_assert_int_eq(p->thread_id[i], -1);
			ck_assert_int_eq(p->task_id[i], -1);
			ck_assert_int_eq(p->await_ns[i], 0);
		}
	}
	check_rank(p, &b, 3, true);
	sv_profile_free(p);
	tp_free(&a);
	tp_free(&b);
	tp_free(&c);
	free(path);
}
END_TEST

/* Calls given with a row index per call and calls given grouped by row
 * make the same file. */
START_TEST(test_row_modes_same_bytes)
{
	struct tp_opts o = {true, true, true, true, 40};
	struct tpay t;
	struct sv_write_rank g;
	struct sv_writer *w = NULL;
	struct sv_error err = {0};
	char *p1 = svt_tmp_path("mode-row.h5"),
	     *p2 = svt_tmp_path("mode-grp.h5");
	size_t n, i, k = 0, r;
	int64_t *cols[8], *dst[8];
	char *b1, *b2;
	size_t l1, l2;

	tp_build(&t, 0, 5, &o);
	ck_assert_int_eq(sv_writer_open(&w, p1, NULL, &err), 0);
	ck_assert_int_eq(sv_writer_add_rank(w, &t.w, &err), 0);
	ck_assert_int_eq(sv_writer_close(w, &err), 0);

	n = t.n;
	g = t.w;
	g.row = NULL;
	cols[0] = t.start;
	cols[1] = t.end;
	cols[2] = t.gpu;
	cols[3] = t.call_id;
	cols[4] = t.parent_id;
	cols[5] = t.thread;
	cols[6] = t.task;
	cols[7] = t.await_ns;
	for (i = 0; i < 8; i++)
		dst[i] = malloc(n * sizeof(int64_t));
	for (r = 0; r < t.w.nrows; r++) {
		t.rows[r].count = 0;
		for (i = 0; i < n; i++) {
			if (t.row[i] != r)
				continue;
			for (size_t c = 0; c < 8; c++)
				dst[c][k] = cols[c][i];
			t.rows[r].count++;
			k++;
		}
	}
	g.start_ns = dst[0];
	g.end_ns = dst[1];
	g.gpu_ns = dst[2];
	g.call_id = dst[3];
	g.parent_id = dst[4];
	g.thread_id = dst[5];
	g.task_id = dst[6];
	g.await_ns = dst[7];
	ck_assert_int_eq(sv_writer_open(&w, p2, NULL, &err), 0);
	ck_assert_int_eq(sv_writer_add_rank(w, &g, &err), 0);
	ck_assert_int_eq(sv_writer_close(w, &err), 0);
	b1 = svt_read_file(p1, &l1);
	b2 = svt_read_file(p2, &l2);
	ck_assert_uint_eq(l1, l2);
	ck_assert(memcmp(b1, b2, l1) == 0);
	free(b1);
	free(b2);
	for (i = 0; i < 8; i++)
		free(dst[i]);
	tp_free(&t);
	free(p1);
	free(p2);
}
END_TEST

/* Exclusive-total options. */
START_TEST(test_exclusive_modes)
{
	struct tp_opts o = {false, true, true, false, 30};
	static const enum sv_write_exclusive modes[] = {
		SV_WRITE_EXCL_UNKNOWN, SV_WRITE_EXCL_GIVEN, SV_WRITE_EXCL_OMIT};
	size_t m;

	for (m = 0; m < 3; m++) {
		struct tpay t;
		struct sv_writer_opts wo;
		struct sv_writer *w = NULL;
		struct sv_error err = {0};
		char name[32];
		char *path;
		struct sv_profile *p;
		size_t r;

		snprintf(name, sizeof name, "excl-%zu.h5", m);
		path = svt_tmp_path(name);
		tp_build(&t, 0, 3, &o);
		for (r = 0; r < t.w.nrows; r++)
			t.rows[r].exclusive_total = 1000 + (int64_t)r;
		sv_writer_opts_init(&wo);
		wo.exclusive = modes[m];
		wo.no_summary = m == 2;
		ck_assert_int_eq(sv_writer_open(&w, path, &wo, &err), 0);
		ck_assert_int_eq(sv_writer_add_rank(w, &t.w, &err), 0);
		ck_assert_int_eq(sv_writer_close(w, &err), 0);
		p = load_ok(path);
		for (r = 0; r < p->nrows; r++) {
			int64_t want = modes[m] == SV_WRITE_EXCL_GIVEN
					       ? 1000 + (int64_t)r
					       : -1;
			ck_assert_int_eq(p->rows[r].exclusive_total, want);
			ck_assert(p->rows[r].has_summary == (m != 2));
		}
		check_rank(p, &t, 3, false);
		sv_profile_free(p);
		tp_free(&t);
		free(path);
	}
}
END_TEST

/* The aggregate layout keeps per-row figures only. */
START_TEST(test_aggregate)
{
	struct tp_opts o = {true, true, true, true, 40};
	struct tpay t[2];
	struct sv_writer_opts wo;
	struct sv_writer *w = NULL;
	struct sv_error err = {0};
	char *path = svt_tmp_path("aggregate.h5");
	struct sv_profile *p;
	int k;

	sv_writer_opts_init(&wo);
	wo.aggregate = true;
	ck_assert_int_eq(sv_writer_open(&w, path, &wo, &err), 0);
	for (k = 0; k < 2; k++) {
		tp_build(&t[k], (uint32_t)k, 21 + (uint64_t)k, &o);
		ck_assert_int_eq(sv_writer_add_rank(w, &t[k].w, &err), 0);
	}
	ck_assert_int_eq(sv_writer_events(w), 0);
	ck_assert_int_eq(sv_writer_close(w, &err), 0);
	p = load_ok(path);
	ck_assert_int_eq(p->layout, SV_LAYOUT_AGGREGATE);
	ck_assert(!p->has_calls);
	ck_assert_uint_eq(p->ncalls, 0);
	ck_assert_ptr_null(p->thread_id);
	ck_assert_uint_eq(p->nthreads, 0);
	for (k = 0; k < 2; k++) {
		int64_t *truth = calloc(t[k].w.nrows, sizeof *truth);
		size_t r;
		tp_truth_exclusive(&t[k], truth);
		for (r = 0; r < t[k].w.nrows; r++) {
			const struct sv_row *lr =
				find_row(p, (uint32_t)k, t[k].rows[r].name);
			struct sv_write_summary s;
			int64_t *st = malloc(t[k].n * sizeof *st);
			int64_t *en = malloc(t[k].n * sizeof *en);
			size_t i, m = 0;
			for (i = 0; i < t[k].n; i++)
				if (t[k].row[i] == r) {
					st[m] = t[k].start[i];
					en[m++] = t[k].end[i];
				}
			sv_write_summarize(st, en, NULL, m, &s);
			ck_assert_ptr_nonnull(lr);
			ck_assert_uint_eq(lr->count, m);
			ck_assert(lr->has_summary);
			ck_assert_int_eq(lr->summary.total, s.total);
			ck_assert_int_eq(lr->summary.minimum, s.minimum);
			ck_assert_int_eq(lr->summary.maximum, s.maximum);
			ck_assert_int_eq(lr->exclusive_total, truth[r]);
			free(st);
			free(en);
		}
		free(truth);
		tp_free(&t[k]);
	}
	sv_profile_free(p);

	wo.schema = 1;
	ck_assert_int_eq(sv_writer_open(&w, path, &wo, &err), -EINVAL);
	free(path);
}
END_TEST

/* A rank whose calls overlap partially gets -1 ("not computed"). */
START_TEST(test_exclusive_overlap_unknown)
{
	struct sv_writer *w = NULL;
	struct sv_error err = {0};
	struct sv_write_row rows[2] = {
		{.name = "a", .count = 1, .source_line = -1},
		{.name = "b", .count = 1, .source_line = -1}};
	int64_t s[2] = {100, 150}, e[2] = {200, 250};
	struct sv_write_rank r = {.rows = rows,
		.nrows = 2,
		.ncalls = 2,
		.start_ns = s,
		.end_ns = e};
	char *path = svt_tmp_path("overlap.h5");
	struct sv_profile *p = NULL;

	ck_assert_int_eq(sv_writer_open(&w, path, NULL, &err), 0);
	ck_assert_int_eq(sv_writer_add_rank(w, &r, &err), 0);
	ck_assert_int_eq(sv_writer_close(w, &err), 0);
	ck_assert_int_eq(sv_load(path, NULL, &p, &err), 0);
	ck_assert_int_eq(p->rows[0].exclusive_total, -1);
	ck_assert_int_eq(p->rows[1].exclusive_total, -1);
	ck_assert_uint_gt(p->nwarnings, 0);
	sv_profile_free(p);
	free(path);
}
END_TEST

/* ------------------------------------------------------------------ */
/* sv_write_exclusive_totals and sv_write_summarize */

struct excl_case {
	const char *what;
	int n;
	int64_t s[6], e[6], thread[6], task[6];
	uint32_t row[6];
	int rc;
	int64_t want[3];
};

static const struct excl_case excl_cases[] = {
	{"nested", 3, {0, 10, 20}, {100, 15, 40}, {-1, -1, -1}, {-1, -1, -1},
		{0, 1, 1}, 0, {75, 25, 0}},
	{"recursion in one row", 3, {0, 10, 12}, {100, 50, 20}, {-1, -1, -1},
		{-1, -1, -1}, {0, 0, 0}, 0, {100, 0, 0}},
	{"zero-length child at parent start", 2, {10, 10}, {10, 30}, {-1, -1},
		{-1, -1}, {0, 1}, 0, {0, 20, 0}},
	{"zero-length after sibling", 3, {0, 0, 10}, {50, 10, 10}, {-1, -1, -1},
		{-1, -1, -1}, {0, 1, 2}, 0, {40, 10, 0}},
	{"two lanes never nest", 2, {0, 10}, {100, 20}, {0, 1}, {-1, -1},
		{0, 1}, 0, {100, 10, 0}},
	{"task lane apart from its thread", 2, {0, 10}, {100, 20}, {0, 0},
		{-1, 0}, {0, 1}, 0, {100, 10, 0}},
	{"identical intervals: first row is the parent", 2, {5, 5}, {9, 9},
		{-1, -1}, {-1, -1}, {1, 0}, 0, {0, 4, 0}},
	{"partial overlap", 2, {0, 50}, {100, 150}, {-1, -1}, {-1, -1}, {0, 1},
		-EINVAL, {0}},
	{"end before start", 1, {10}, {5}, {-1}, {-1}, {0}, -EINVAL, {0}},
	{"no calls", 0, {0}, {0}, {0}, {0}, {0}, 0, {0, 0, 0}},
};

START_TEST(test_exclusive_table)
{
	const struct excl_case *tc = &excl_cases[_i];
	int64_t totals[3] = {7, 7, 7};
	int rc = sv_write_exclusive_totals(tc->s, tc->e, tc->thread, tc->task,
		tc->row, (uint64_t)tc->n, totals, 3);
	ck_assert_msg(rc == tc->rc, "%s: rc %d", tc->what, rc);
	if (rc == 0) {
		int k;
		for (k = 0; k < 3; k++)
			ck_assert_msg(totals[k] == tc->want[k],
				"%s: row %d: %lld, want %lld", tc->what, k,
				(long long)totals[k], (long long)tc->want[k]);
	}
}
END_TEST

START_TEST(test_summarize)
{
	int64_t s[4] = {100, 10, 50, 70}, e[4] = {110, 30, 50, 100};
	int64_t g[4] = {5, -1, 0, 20};
	struct sv_write_summary x;

	sv_write_summarize(s, e, g, 4, &x);
	ck_assert_int_eq(x.total, 60);
	ck_assert_int_eq(x.minimum, 0);
	ck_assert_int_eq(x.maximum, 30);
	ck_assert_int_eq(x.first, 10);
	ck_assert_int_eq(x.last, 30);
	ck_assert_int_eq(x.start_minimum, 10);
	ck_assert_int_eq(x.end_maximum, 110);
	ck_assert_uint_eq(x.gpu_count, 3);
	ck_assert_int_eq(x.gpu_total, 25);
	ck_assert(x.mean == 15.0);
	/* durations 10 20 0 30: squared deviations 25+25+225+225 = 500 */
	ck_assert(x.m2 == 500.0);
	sv_write_summarize(s, e, NULL, 0, &x);
	ck_assert_int_eq(x.total, 0);
	ck_assert(x.mean == 0.0 && x.m2 == 0.0);
	sv_write_summarize(s, e, NULL, 1, &x);
	ck_assert_uint_eq(x.gpu_count, 0);
	ck_assert(x.m2 == 0.0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Errors, atomicity, determinism */

START_TEST(test_errors)
{
	struct sv_writer *w = NULL;
	struct sv_error err = {0};
	struct sv_writer_opts wo;
	struct sv_write_row rows[1] = {
		{.name = "a", .count = 2, .source_line = -1}};
	struct sv_write_row slash[1] = {
		{.name = "a/b", .count = 0, .source_line = -1}};
	int64_t s[2] = {1, 2}, e[2] = {3, 4};
	uint32_t badrow[2] = {0, 3};
	struct sv_write_rank r = {.rank = 0,
		.rows = rows,
		.nrows = 1,
		.ncalls = 2,
		.start_ns = s,
		.end_ns = e};
	char *path = svt_tmp_path("errors.h5");

	ck_assert_int_eq(sv_writer_open(NULL, path, NULL, &err), -EINVAL);
	ck_assert_int_eq(sv_writer_open(&w, "", NULL, &err), -EINVAL);
	sv_writer_opts_init(&wo);
	wo.schema = 4;
	ck_assert_int_eq(sv_writer_open(&w, path, &wo, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "schema 4"));
	ck_assert_int_eq(
		sv_writer_open(&w, "/nonexistent-dir-sv/x/y.h5", NULL, &err),
		-ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "y.h5"));
	ck_assert_ptr_nonnull(strstr(err.msg, "No such file or directory"));

	ck_assert_int_eq(sv_writer_open(&w, path, NULL, &err), 0);
	ck_assert_int_eq(sv_writer_add_rank(w, NULL, &err), -EINVAL);
	ck_assert_int_eq(sv_writer_add_rank(w, &r, &err), 0);
	/* the same rank again */
	ck_assert_int_eq(sv_writer_add_rank(w, &r, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "more than once"));
	/* counts that do not add up */
	r.rank = 1;
	rows[0].count = 3;
	ck_assert_int_eq(sv_writer_add_rank(w, &r, &err), -EINVAL);
	/* a bad row index */
	r.row = badrow;
	ck_assert_int_eq(sv_writer_add_rank(w, &r, &err), -EINVAL);
	/* calls without times */
	r.row = NULL;
	rows[0].count = 2;
	r.start_ns = NULL;
	ck_assert_int_eq(sv_writer_add_rank(w, &r, &err), -EINVAL);
	ck_assert_int_eq(sv_writer_close(w, &err), 0);
	ck_assert_int_eq(sv_writer_close(NULL, &err), -EINVAL);
	sv_writer_abort(NULL);

	/* schema 1 cannot hold "/" in a region name */
	wo.schema = 1;
	ck_assert_int_eq(sv_writer_open(&w, path, &wo, &err), 0);
	r = (struct sv_write_rank){.rows = slash, .nrows = 1};
	ck_assert_int_eq(sv_writer_add_rank(w, &r, &err), -EINVAL);
	sv_writer_abort(w);
	free(path);
}
END_TEST

/* The destination changes only when close succeeds; abort leaves no
 * temporary file behind. */
START_TEST(test_atomic)
{
	char *path = svt_tmp_path("atomic.h5");
	char *dir = svt_tmp_path("");
	struct sv_writer *w = NULL;
	struct sv_error err = {0};
	struct stat st;
	FILE *f = fopen(path, "w");
	char *text;
	char cmd[512];

	fputs("old", f);
	fclose(f);
	ck_assert_int_eq(sv_writer_open(&w, path, NULL, &err), 0);
	text = svt_read_file(path, NULL);
	ck_assert_str_eq(text, "old");
	free(text);
	sv_writer_abort(w);
	text = svt_read_file(path, NULL);
	ck_assert_str_eq(text, "old");
	free(text);
	snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -q '\\.tmp$'", dir);
	ck_assert_int_ne(system(cmd), 0);

	ck_assert_int_eq(sv_writer_open(&w, path, NULL, &err), 0);
	ck_assert_int_eq(sv_writer_close(w, &err), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_gt(st.st_size, 1000);
	ck_assert_int_ne(system(cmd), 0);
	free(dir);
	free(path);
}
END_TEST

/* In a child: n flat calls over path under a file size limit of 64 KiB
 * (SIGXFSZ ignored: writes fail EFBIG).  Exit 0 when the write failed
 * with the system's reason and left path as it was ("old") and no
 * temporary in dir; another status says what went wrong.  _exit skips
 * libhdf5's exit handler, as sv_write_process_init does for gen. */
static void write_full_child(const char *path, const char *dir, uint64_t n)
{
	struct rlimit rl = {64 << 10, 64 << 10};
	struct sv_writer *w = NULL;
	struct sv_writer_opts wo;
	struct sv_error err = {0};
	struct sv_write_row row = {.name = "flat", .source_line = -1};
	struct sv_write_rank r = {0};
	int64_t *s = malloc(n * sizeof *s), *e = malloc(n * sizeof *e);
	char cmd[4200], *text;
	uint64_t i;
	int rc;

	signal(SIGXFSZ, SIG_IGN);
	if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
		_exit(20);
	for (i = 0; i < n; i++) {
		s[i] = (int64_t)(i * 7919 % 1000003) * 10;
		e[i] = s[i] + 5;
	}
	row.count = n;
	r.rows = &row;
	r.nrows = 1;
	r.ncalls = n;
	r.start_ns = s;
	r.end_ns = e;
	sv_writer_opts_init(&wo);
	wo.compression = SV_WRITE_COMPRESS_NONE;
	if (sv_writer_open(&w, path, &wo, &err) != 0)
		_exit(21);
	rc = sv_writer_add_rank(w, &r, &err);
	if (rc == 0)
		rc = sv_writer_close(w, &err);
	else
		sv_writer_abort(w);
	if (rc != -EFBIG || !strstr(err.msg, "File too large")) {
		fprintf(stderr, "write_full_child: %d %s\n", rc, err.msg);
		_exit(22);
	}
	text = svt_read_file(path, NULL);
	if (!text || strcmp(text, "old"))
		_exit(23);
	snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -q '\\.tmp$'", dir);
	_exit(system(cmd) == 0 ? 24 : 0);
}

/* The output rule (outfile.h) through the writer: an input is refused by
 * a hard link, and a write the system refuses leaves the old file whole
 * and no partial file. */
START_TEST(test_refused_and_full)
{
	char *dir = svt_tmp_path(""), *old = svt_tmp_path("keep.h5");
	char *hard = svt_tmp_path("keep-hard.h5");
	const char *inputs[1];
	struct sv_writer_opts wo;
	struct sv_writer *w = NULL;
	struct sv_error err = {0};
	FILE *f = fopen(old, "w");
	pid_t pid;
	int st;

	fputs("old", f);
	fclose(f);
	ck_assert_int_eq(link(old, hard), 0);
	sv_writer_opts_init(&wo);
	inputs[0] = old;
	wo.inputs = inputs;
	wo.ninputs = 1;
	ck_assert_int_eq(sv_writer_open(&w, hard, &wo, &err), -EEXIST);
	ck_assert_ptr_nonnull(strstr(err.msg, "same file as"));
	ck_assert_int_eq(sv_writer_open(&w, dir, NULL, &err), -EEXIST);
	ck_assert_ptr_nonnull(strstr(err.msg, "is a directory"));

	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		write_full_child(old, dir, 200000);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		"the full write's child: status %d", st);
	free(dir);
	free(old);
	free(hard);
}
END_TEST

/* The same payload writes the same bytes, also a second later. */
START_TEST(test_deterministic)
{
	struct tp_opts o = {true, true, true, true, 50};
	char *paths[2] = {svt_tmp_path("det1.h5"), svt_tmp_path("det2.h5")};
	char *b[2];
	size_t len[2];
	int k;

	for (k = 0; k < 2; k++) {
		struct tpay t;
		struct sv_writer *w = NULL;
		struct sv_error err = {0};
		tp_build(&t, 0, 99, &o);
		ck_assert_int_eq(sv_writer_open(&w, paths[k], NULL, &err), 0);
		ck_assert_int_eq(sv_writer_meta_str(w, "user", "x", &err), 0);
		ck_assert_int_eq(sv_writer_add_rank(w, &t.w, &err), 0);
		ck_assert_int_eq(sv_writer_close(w, &err), 0);
		tp_free(&t);
		if (k == 0)
			sleep(2);
		b[k] = svt_read_file(paths[k], &len[k]);
	}
	ck_assert_uint_eq(len[0], len[1]);
	ck_assert(memcmp(b[0], b[1], len[0]) == 0);
	for (k = 0; k < 2; k++) {
		free(b[k]);
		free(paths[k]);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("write");
	TCase *t = tcase_create("round trip");
	tcase_add_loop_test(t, test_round_trip, 0,
		(int)(sizeof rt_cases / sizeof rt_cases[0]));
	tcase_add_test(t, test_backfill);
	tcase_add_test(t, test_row_modes_same_bytes);
	tcase_add_test(t, test_exclusive_modes);
	tcase_add_test(t, test_exclusive_overlap_unknown);
	tcase_add_test(t, test_aggregate);
	suite_add_tcase(s, t);

	t = tcase_create("layout");
	tcase_add_loop_test(t, test_layout, 0,
		(int)(sizeof layout_cases / sizeof layout_cases[0]));
	tcase_add_test(t, test_layout_big_file);
	tcase_add_test(t, test_event_chunk);
	tcase_add_test(t, test_types);
	suite_add_tcase(s, t);

	t = tcase_create("statistics");
	tcase_add_loop_test(t, test_exclusive_table, 0,
		(int)(sizeof excl_cases / sizeof excl_cases[0]));
	tcase_add_test(t, test_summarize);
	suite_add_tcase(s, t);

	t = tcase_create("robustness");
	tcase_add_test(t, test_errors);
	tcase_add_test(t, test_atomic);
	tcase_add_test(t, test_refused_and_full);
	tcase_add_test(t, test_deterministic);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
