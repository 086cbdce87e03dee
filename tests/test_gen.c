/*
 * test_gen.c: the generator (gen.h) and `scopeview gen` (the demo built
 * on them is tested in test_demo.c).  Generated files are read back with the loader and compared
 * call by call with what the generator built; nesting, exclusive times and
 * statistics are checked against the generator's own parent links, which
 * never went through a sort.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/cli.h"
#include "scopeview/gen.h"
#include "scopeview/load.h"
#include "scopeview/profile.h"
#include "scopeview/stats.h"

static struct sv_profile *load_ok(const char *path)
{
	struct sv_profile *p = NULL;
	struct sv_error err = {0};
	int rc = sv_load(path, NULL, &p, &err);
	ck_assert_msg(rc == 0, "sv_load %s: %s", path, err.msg);
	ck_assert_msg(p->nwarnings == 0, "%s: warning %s", path,
		p->nwarnings ? p->warnings[0] : "");
	return p;
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

static bool str_same(const char *loaded, const char *written)
{
	if (!written || !*written)
		return !loaded || !*loaded;
	return loaded && !strcmp(loaded, written);
}

/* Compare rank `rank` of profile p with what the generator builds for it:
 * rows, every call and column in storage order, lanes, parents, per-call
 * exclusive times and the stored per-row totals and statistics. */
/* Per-region figures summed over ranks from the generator's own calls. */
struct truth {
	char name[128];
	uint64_t calls;
	int64_t total, exclusive, gpu, await_ns;
};

struct truths {
	struct truth v[256];
	size_t n;
};

static struct truth *truth_of(struct truths *t, const char *name)
{
	size_t i;
	for (i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, name))
			return &t->v[i];
	ck_assert_uint_lt(t->n, 256);
	memset(&t->v[t->n], 0, sizeof t->v[0]);
	snprintf(t->v[t->n].name, sizeof t->v[0].name, "%s", name);
	return &t->v[t->n++];
}

static void check_rank(const struct sv_profile *p, const struct sv_gen_opts *o,
	uint32_t rank, struct truths *tr)
{
	struct sv_gen_rank g;
	int schema = o->writer.schema ? o->writer.schema : 3;
	uint32_t *loaded_of;
	int64_t *child_sum;
	size_t ri;
	uint64_t i, nrows_seen = 0;

	sv_gen_rank_build(o, rank, &g);
	ck_assert_uint_eq(g.w.ncalls, sv_gen_rank_events(o, rank));
	loaded_of = malloc((g.w.ncalls + 1) * sizeof *loaded_of);
	child_sum = calloc(g.w.ncalls + 1, sizeof *child_sum);
	for (i = 0; i < g.w.ncalls; i++)
		if (g.parent[i] != UINT32_MAX)
			child_sum[g.parent[i]] += g.end[i] - g.start[i];

	for (ri = 0; ri < g.w.nrows; ri++) {
		const struct sv_write_row *wr = &g.rows[ri];
		const struct sv_row *lr = find_row(p, rank, wr->name);
		int64_t total = 0, excl = 0;
		uint64_t k = 0, t;

		ck_assert_msg(lr, "rank %u: no row %s", rank, wr->name);
		nrows_seen++;
		ck_assert_int_eq(lr->source_line, wr->source_line);
		ck_assert(str_same(lr->source_file, wr->source_file));
		ck_assert(str_same(lr->source_text, wr->source_text));
		ck_assert_uint_eq(lr->ntags, wr->ntags);
		for (t = 0; t < wr->ntags; t++)
			ck_assert_str_eq(lr->tags[t], wr->tags[t]);
		for (i = 0; i < g.w.ncalls; i++) {
			uint64_t c;
			if (g.row[i] != ri)
				continue;
			ck_assert_uint_lt(k, lr->count);
			c = lr->first + k++;
			loaded_of[i] = (uint32_t)c;
			ck_assert_int_eq(sv_profile_start(p, c), g.start[i]);
			ck_assert_int_eq(sv_profile_end(p, c), g.end[i]);
			if (o->gpu) {
				ck_assert_int_eq(p->gpu_ns[c], g.gpu[i]);
				ck_assert_int_le(
					p->gpu_ns[c], g.end[i] - g.start[i]);
			}
			if (o->call_ids) {
				ck_assert_int_eq(p->call_id[c], g.call_id[i]);
				ck_assert_int_eq(
					p->parent_id[c], g.parent_id[i]);
			}
			if (schema >= 2 && g.thread_id)
				ck_assert_int_eq(
					p->thread_id[c], g.thread_id[i]);
			if (schema >= 2 && g.task_id)
				ck_assert_int_eq(p->task_id[c], g.task_id[i]);
			if (schema >= 2 && o->await) {
				ck_assert_int_eq(p->await_ns[c], g.await_ns[i]);
				ck_assert_int_le(
					p->await_ns[c], g.end[i] - g.start[i]);
			}
			ck_assert_int_eq(p->lanes[sv_call_lane(p, c)].key,
				schema >= 2 ? g.lane[i] : -1);
			total += g.end[i] - g.start[i];
			excl += g.end[i] - g.start[i] - child_sum[i];
			{
				struct truth *x = truth_of(tr, wr->name);
				x->calls++;
				x->total += g.end[i] - g.start[i];
				x->exclusive +=
					g.end[i] - g.start[i] - child_sum[i];
				if (g.gpu && g.gpu[i] >= 0)
					x->gpu += g.gpu[i];
				if (g.await_ns)
					x->await_ns += g.await_ns[i];
			}
		}
		ck_assert_uint_eq(k, lr->count);
		if (schema >= 2) {
			ck_assert(lr->has_summary);
			ck_assert_int_eq(lr->summary.total, total);
			ck_assert_int_eq(lr->exclusive_total,
				o->writer.exclusive == SV_WRITE_EXCL_UNKNOWN
					? -1
					: excl);
		}
	}
	/* Nesting and exclusive time per call, from the generator's links. */
	for (i = 0; i < g.w.ncalls; i++) {
		uint32_t c = loaded_of[i];
		uint32_t want = g.parent[i] == UINT32_MAX
					? SV_NO_CALL
					: loaded_of[g.parent[i]];
		ck_assert_msg(p->parent[c] == want,
			"rank %u call %llu: parent %u, generator says %u", rank,
			(unsigned long long)i, p->parent[c], want);
		ck_assert_int_eq(sv_profile_exclusive(p, c),
			g.end[i] - g.start[i] - child_sum[i]);
	}
	for (i = 0; i < p->nrows; i++)
		if (p->rows[i].rank == rank)
			nrows_seen--;
	ck_assert_uint_eq(nrows_seen, 0);
	free(loaded_of);
	free(child_sum);
	sv_gen_rank_fini(&g);
}

/* ------------------------------------------------------------------ */
/* Round trips */

struct rt_case {
	const char *name;
	uint32_t ranks, threads, tasks, depth;
	uint64_t events;
	bool gpu, await, ids, track;
	double imbalance;
	int schema;
	enum sv_write_storage storage;
	enum sv_write_exclusive excl;
};

static const struct rt_case rt_cases[] = {
	{"one call", 1, 1, 0, 4, 1, false, false, true, false, 0.3, 3,
		SV_WRITE_PUBLISHED, SV_WRITE_EXCL_COMPUTE},
	{"seven calls", 3, 1, 0, 4, 7, true, false, true, false, 0.3, 3,
		SV_WRITE_PUBLISHED, SV_WRITE_EXCL_COMPUTE},
	{"more ranks than calls", 5, 1, 0, 2, 3, false, false, true, false, 0.3,
		3, SV_WRITE_PUBLISHED, SV_WRITE_EXCL_COMPUTE},
	{"threads tasks gpu await", 2, 3, 2, 5, 5000, true, true, true, false,
		0.3, 3, SV_WRITE_PUBLISHED, SV_WRITE_EXCL_COMPUTE},
	{"compressed, no ids", 4, 1, 0, 4, 20000, false, false, false, false,
		0.5, 3, SV_WRITE_PUBLISHED, SV_WRITE_EXCL_COMPUTE},
	{"schema 2 lanes", 2, 2, 1, 3, 3000, true, true, true, false, 0.3, 2,
		SV_WRITE_PUBLISHED, SV_WRITE_EXCL_COMPUTE},
	{"schema 1", 2, 1, 0, 4, 3000, true, false, true, false, 0.3, 1,
		SV_WRITE_PUBLISHED, SV_WRITE_EXCL_COMPUTE},
	{"track threads, deep recursion", 3, 1, 0, 40, 4000, false, false, true,
		true, 0.3, 3, SV_WRITE_PUBLISHED, SV_WRITE_EXCL_COMPUTE},
	{"chunked, big imbalance", 2, 2, 3, 4, 6000, true, true, true, false,
		2.0, 3, SV_WRITE_CHUNKED, SV_WRITE_EXCL_COMPUTE},
	{"no stored exclusive", 2, 2, 0, 4, 2000, false, false, false, false,
		0.3, 3, SV_WRITE_PUBLISHED, SV_WRITE_EXCL_UNKNOWN},
};

static void rt_opts(
	const struct rt_case *tc, uint64_t seed, struct sv_gen_opts *o)
{
	sv_gen_opts_init(o);
	o->ranks = tc->ranks;
	o->threads = tc->threads;
	o->tasks = tc->tasks;
	o->depth = tc->depth;
	o->events = tc->events;
	o->gpu = tc->gpu;
	o->await = tc->await;
	o->call_ids = tc->ids;
	o->track_threads = tc->track;
	o->imbalance = tc->imbalance;
	o->seed = seed;
	o->writer.schema = tc->schema;
	o->writer.storage = tc->storage;
	o->writer.exclusive = tc->excl;
}

START_TEST(test_round_trip)
{
	const struct rt_case *tc = &rt_cases[_i];
	uint64_t seed;

	for (seed = 1; seed <= 3; seed++) {
		struct sv_gen_opts o;
		struct sv_error err = {0};
		char name[80];
		char *path;
		struct sv_profile *p;
		const struct sv_meta *m;
		uint32_t r;

		rt_opts(tc, seed * 1000003, &o);
		snprintf(name, sizeof name, "rt-%d-%llu.h5", _i,
			(unsigned long long)seed);
		path = svt_tmp_path(name);
		ck_assert_msg(sv_gen_write(path, &o, NULL, NULL, &err) == 0,
			"%s: %s", tc->name, err.msg);
		p = load_ok(path);
		ck_assert_uint_eq(p->ncalls, o.events);
		ck_assert_uint_eq(p->num_ranks, o.ranks);
		ck_assert(o.gpu == (p->gpu_ns != NULL));
		ck_assert(o.call_ids == (p->call_id != NULL));
		if (tc->schema >= 2) {
			bool lanes =
				o.threads > 1 || o.tasks || o.track_threads;
			ck_assert(lanes == (p->thread_id != NULL));
			ck_assert((o.tasks > 0) == (p->task_id != NULL));
			ck_assert(o.await == (p->await_ns != NULL));
			ck_assert_uint_eq(
				p->nthreads, lanes ? o.ranks * o.threads : 0);
			ck_assert_uint_eq(p->ntasks,
				(size_t)o.ranks * o.threads * o.tasks);
		}
		m = sv_profile_meta(p, "mpi_size");
		ck_assert(m && m->i == (int64_t)o.ranks);
		ck_assert(p->has_start_time && p->has_finalize_time);
		ck_assert_int_eq(p->start_time_ns, sv_gen_start_time(&o));
		if (p->ncalls) {
			ck_assert_int_lt(
				p->start_time_ns, sv_profile_min_start(p));
			ck_assert_int_gt(
				p->finalize_time_ns, sv_profile_max_end(p));
		}
		{
			struct truths *tr = calloc(1, sizeof *tr);
			struct sv_stats_table st;
			size_t k;
			for (r = 0; r < o.ranks; r++)
				check_rank(p, &o, r, tr);
			/* The statistics module agrees with the generator. */
			ck_assert_int_eq(
				sv_stats_table_compute(&st, p, NULL, &err), 0);
			ck_assert_uint_eq(st.nregions, tr->n);
			for (k = 0; k < st.nregions; k++) {
				const struct sv_stats_region *sr =
					&st.regions[k];
				struct truth *x = truth_of(tr, sr->name);
				ck_assert_msg(sr->s.num_calls == x->calls,
					"%s: %s calls", tc->name, sr->name);
				ck_assert_int_eq(sr->s.total_ns, x->total);
				ck_assert(sr->s.has_exclusive);
				ck_assert_int_eq(
					sr->s.exclusive_ns, x->exclusive);
				if (x->gpu) {
					ck_assert(sr->s.has_gpu);
					ck_assert_int_eq(
						sr->s.gpu_total_ns, x->gpu);
				}
				if (tc->schema >= 2 && o.await) {
					ck_assert(sr->s.has_await);
					ck_assert_int_eq(sr->s.await_total_ns,
						x->await_ns);
				}
			}
			sv_stats_table_fini(&st);
			free(tr);
		}
		sv_profile_free(p);
		free(path);
	}
}
END_TEST

/* Build every rank of o and check it: exactly its share of the events;
 * every call inside the run (after start_time_ns, before
 * finalize_time_ns); parents come first, contain their children and share
 * their lane; the writer's nesting rule accepts every lane. */
static void check_built(const struct sv_gen_opts *o)
{
	int64_t t_start = sv_gen_start_time(o), t_end = sv_gen_finalize_time(o);
	uint64_t sum = 0, i;
	uint32_t r;

	ck_assert_int_eq(sv_gen_opts_check(o, NULL), 0);
	for (r = 0; r < o->ranks; r++) {
		struct sv_gen_rank g;
		int64_t *tot;
		sv_gen_rank_build(o, r, &g);
		sum += g.w.ncalls;
		for (i = 0; i < g.w.ncalls; i++) {
			uint32_t q = g.parent[i];
			ck_assert_int_le(g.start[i], g.end[i]);
			ck_assert_int_gt(g.start[i], t_start);
			ck_assert_int_lt(g.end[i], t_end);
			if (q == UINT32_MAX)
				continue;
			ck_assert_uint_lt(q, i);
			ck_assert_int_le(g.start[q], g.start[i]);
			ck_assert_int_ge(g.end[q], g.end[i]);
			ck_assert_int_eq(g.lane[q], g.lane[i]);
		}
		tot = calloc(g.w.nrows + 1, sizeof *tot);
		ck_assert_int_eq(
			sv_write_exclusive_totals(g.start, g.end, g.thread_id,
				g.task_id, g.row, g.w.ncalls, tot, g.w.nrows),
			0);
		free(tot);
		sv_gen_rank_fini(&g);
	}
	ck_assert_uint_eq(sum, o->events);
}

/* Given small budgets of every shape, when ranks are built, then they
 * hold exactly the events asked for and nest properly. */
START_TEST(test_exact_counts_and_nesting)
{
	uint32_t threads, tasks, depth, ranks;
	uint64_t events;
	struct sv_gen_opts o;

	sv_gen_opts_init(&o);
	o.gpu = o.await = true;
	for (threads = 1; threads <= 3; threads++)
		for (tasks = 0; tasks <= 2; tasks++)
			for (depth = 1; depth <= 5; depth += 2)
				for (ranks = 1; ranks <= 3; ranks += 2)
					for (events = 0; events <= 90;
						events += 9) {
						o.threads = threads;
						o.tasks = tasks;
						o.depth = depth;
						o.ranks = ranks;
						o.events = events;
						check_built(&o);
					}
}
END_TEST

/* Larger runs of many shapes stay inside their start and finalize times
 * (heavy-tailed steps, packed worker and task lanes, deep recursion). */
START_TEST(test_shapes_within_run)
{
	static const struct {
		uint32_t ranks, threads, tasks, depth;
		uint64_t events;
		double imbalance;
	} cases[] = {
		{2, 4, 3, 4, 20000, 0.3},
		{3, 1, 0, 200, 5000, 0.0},
		{2, 8, 0, 4, 30000, 3.0},
		{1, 1, 16, 4, 20000, 10.0},
		{4, 2, 1, 9, 50000, 1.0},
		{7, 3, 2, 2, 777, 0.5},
	};
	size_t k;
	uint64_t seed;

	for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
		for (seed = 1; seed <= 4; seed++) {
			struct sv_gen_opts o;
			sv_gen_opts_init(&o);
			o.ranks = cases[k].ranks;
			o.threads = cases[k].threads;
			o.tasks = cases[k].tasks;
			o.depth = cases[k].depth;
			o.events = cases[k].events;
			o.imbalance = cases[k].imbalance;
			o.gpu = o.await = true;
			o.seed = seed * 7777;
			check_built(&o);
		}
}
END_TEST

/* The slow rank computes longest and waits least in the allreduce. */
START_TEST(test_slow_rank)
{
	struct sv_gen_opts o;
	uint32_t r, slow;
	int64_t pre[4] = {0}, ar[4] = {0};

	sv_gen_opts_init(&o);
	o.ranks = 4;
	o.events = 20000;
	o.imbalance = 1.0;
	o.seed = 77;
	slow = sv_gen_slow_rank(&o);
	ck_assert_uint_lt(slow, 4);
	for (r = 0; r < 4; r++) {
		struct sv_gen_rank g;
		uint64_t i;
		sv_gen_rank_build(&o, r, &g);
		for (i = 0; i < g.w.ncalls; i++) {
			const char *name = g.rows[g.row[i]].name;
			if (!strcmp(name, "kernel:precondition"))
				pre[r] += g.end[i] - g.start[i];
			if (!strncmp(name, "mpi:allreduce", 13))
				ar[r] += g.end[i] - g.start[i];
		}
		sv_gen_rank_fini(&g);
	}
	for (r = 0; r < 4; r++) {
		if (r == slow)
			continue;
		ck_assert_int_gt(pre[slow], pre[r] * 3 / 2);
		ck_assert_int_lt(ar[slow], ar[r]);
	}
}
END_TEST

START_TEST(test_opts_check)
{
	struct sv_gen_opts o;
	struct sv_error err = {0};

	sv_gen_opts_init(&o);
	ck_assert_int_eq(sv_gen_opts_check(&o, &err), 0);
	ck_assert_int_eq(sv_gen_opts_check(NULL, &err), -EINVAL);
	o.ranks = 0;
	ck_assert_int_eq(sv_gen_opts_check(&o, &err), -EINVAL);
	sv_gen_opts_init(&o);
	o.threads = 0;
	ck_assert_int_eq(sv_gen_opts_check(&o, &err), -EINVAL);
	sv_gen_opts_init(&o);
	o.depth = 0;
	ck_assert_int_eq(sv_gen_opts_check(&o, &err), -EINVAL);
	sv_gen_opts_init(&o);
	o.imbalance = -1;
	ck_assert_int_eq(sv_gen_opts_check(&o, &err), -EINVAL);
	sv_gen_opts_init(&o);
	o.ranks = 1;
	o.events = 5000000000ULL;
	ck_assert_int_eq(sv_gen_opts_check(&o, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "add ranks"));
	sv_gen_opts_init(&o);
	o.slow_region = "fib"; /* recursion: nothing the generator slows */
	ck_assert_int_eq(sv_gen_opts_check(&o, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "kernel:spmv"));
	o.slow_region = "kernel:spmv";
	ck_assert_int_eq(sv_gen_opts_check(&o, &err), 0);
	o.slow_factor = 0.01;
	ck_assert_int_eq(sv_gen_opts_check(&o, &err), -EINVAL);
	sv_gen_opts_init(&o);
	o.writer.schema = 7;
	ck_assert_int_eq(sv_gen_opts_check(&o, &err), -EINVAL);
	{
		char *bad = svt_tmp_path("bad.h5");
		ck_assert_int_eq(
			sv_gen_write(bad, &o, NULL, NULL, &err), -EINVAL);
		free(bad);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* Determinism */

START_TEST(test_same_seed_same_bytes)
{
	struct sv_gen_opts o;
	struct sv_error err = {0};
	char *a = svt_tmp_path("seed-a.h5"), *b = svt_tmp_path("seed-b.h5");
	char *c = svt_tmp_path("seed-c.h5");
	char *ba, *bb, *bc;
	size_t la, lb, lc;

	sv_gen_opts_init(&o);
	o.ranks = 3;
	o.threads = 2;
	o.tasks = 1;
	o.gpu = o.await = true;
	o.events = 20000;
	o.seed = 4242;
	ck_assert_int_eq(sv_gen_write(a, &o, NULL, NULL, &err), 0);
	sleep(2);
	ck_assert_int_eq(sv_gen_write(b, &o, NULL, NULL, &err), 0);
	o.seed = 4243;
	ck_assert_int_eq(sv_gen_write(c, &o, NULL, NULL, &err), 0);
	ba = svt_read_file(a, &la);
	bb = svt_read_file(b, &lb);
	bc = svt_read_file(c, &lc);
	ck_assert_uint_eq(la, lb);
	ck_assert(memcmp(ba, bb, la) == 0);
	ck_assert(la != lc || memcmp(ba, bc, la) != 0);
	free(ba);
	free(bb);
	free(bc);
	free(a);
	free(b);
	free(c);
}
END_TEST

/* ------------------------------------------------------------------ */
/* scopeview gen */

struct cli_case {
	const char *args; /* space-separated, OUT replaced by a path */
	int status;
};

static const struct cli_case cli_cases[] = {
	{"gen --help", 0},
	{"gen", 2},
	{"gen OUT OUT", 2},
	{"gen --ranks nope OUT", 2},
	{"gen --ranks -3 OUT", 2},
	{"gen --ranks 0 OUT", 2},
	{"gen --events 10X OUT", 2},
	{"gen --schema 4 OUT", 2},
	{"gen --compression lz4 OUT", 2},
	{"gen --imbalance abc OUT", 2},
	{"gen --frobnicate OUT", 2},
	{"gen --seed", 2},
	{"gen --quiet --events 10 /nonexistent-sv-dir/x.h5", 1},
	{"gen --quiet --events 2k --ranks 3 OUT", 0},
	{"gen --quiet --events 1000 --await --schema 2 OUT", 0},
	{"gen --quiet --events 500 --schema 1 --gpu --no-call-ids OUT", 0},
	{"gen --quiet --events 900 --ranks 2 --aggregate OUT", 0},
	{"gen --quiet --events 700 --chunked --compression gzip "
	 "--no-exclusive --track-threads --label hello OUT",
		0},
};

START_TEST(test_cli)
{
	const struct cli_case *tc = &cli_cases[_i];
	char name[32];
	char *path, *copy, *tok, *save = NULL;
	char *argv[32];
	int argc = 0, status;

	snprintf(name, sizeof name, "cli-%d.h5", _i);
	path = svt_tmp_path(name);
	copy = strdup(tc->args);
	for (tok = strtok_r(copy, " ", &save); tok && argc < 31;
		tok = strtok_r(NULL, " ", &save))
		argv[argc++] = strcmp(tok, "OUT") ? tok : path;
	argv[argc] = NULL;
	status = sv_cli_run(&sv_cli_gen_cmd, argc, argv);
	ck_assert_msg(status == tc->status, "\"%s\" exited %d, want %d",
		tc->args, status, tc->status);
	if (status == 0 && strstr(tc->args, "OUT")) {
		struct sv_profile *p = load_ok(path);
		if (strstr(tc->args, "--ranks 3"))
			ck_assert_uint_eq(p->num_ranks, 3);
		if (strstr(tc->args, "--events 2k"))
			ck_assert_uint_eq(p->ncalls, 2000);
		if (strstr(tc->args, "--await")) {
			ck_assert_ptr_nonnull(p->await_ns);
			ck_assert_ptr_nonnull(p->task_id);
			ck_assert_int_eq(p->schema, 2);
		}
		if (strstr(tc->args, "--schema 1")) {
			ck_assert_int_eq(p->schema, 0);
			ck_assert_ptr_nonnull(p->gpu_ns);
			ck_assert_ptr_null(p->call_id);
		}
		if (strstr(tc->args, "--aggregate")) {
			ck_assert_int_eq(p->layout, SV_LAYOUT_AGGREGATE);
			ck_assert_uint_eq(p->ncalls, 0);
			ck_assert_uint_eq(p->num_ranks, 2);
		}
		if (strstr(tc->args, "--label hello")) {
			const struct sv_meta *m = sv_profile_meta(p, "label");
			ck_assert(m);
			ck_assert_str_eq(m->text, "hello");
			ck_assert_int_eq(p->rows[0].exclusive_total, -1);
			ck_assert_ptr_nonnull(p->thread_id);
		}
		sv_profile_free(p);
	}
	free(copy);
	free(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gen");
	TCase *t = tcase_create("round trip");
	tcase_add_loop_test(t, test_round_trip, 0,
		(int)(sizeof rt_cases / sizeof rt_cases[0]));
	tcase_add_test(t, test_exact_counts_and_nesting);
	tcase_add_test(t, test_shapes_within_run);
	tcase_add_test(t, test_slow_rank);
	tcase_add_test(t, test_opts_check);
	suite_add_tcase(s, t);

	t = tcase_create("determinism");
	tcase_add_test(t, test_same_seed_same_bytes);
	suite_add_tcase(s, t);

	t = tcase_create("cli");
	tcase_add_loop_test(
		t, test_cli, 0, (int)(sizeof cli_cases / sizeof cli_cases[0]));
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
