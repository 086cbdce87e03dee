/*
 * gen_rank.c: one rank of a synthetic profile (sv_gen_rank_build): the
 * regions with their sources and tags, and the calls of every lane (the
 * main thread's timesteps, worker threads' jobs, asyncio tasks), emitted
 * lane by lane in preorder against the lane's share of the rank's event
 * budget, so the requested event count is met exactly.
 *
 * Only integer arithmetic on the (seed, rank) PRNG decides times.
 */
#include "gen_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Regions */

enum gen_region {
	G_MAIN,
	G_SETUP,
	G_FIB,
	G_STEP,
	G_ASSEMBLE,
	G_KASM,
	G_SOLVE,
	G_PRECOND,
	G_SPMV,
	G_HALO,
	G_ISEND,
	G_IRECV,
	G_WAIT,
	G_ALLREDUCE,
	G_IO,
	G_CKPT,
	G_FINALIZE,
	G_COMPRESS,
	G_CHECKSUM,
	G_PREFETCH,
	G_REQUEST,
	G_FETCH,
	G_PARSE,
	G_NREGIONS
};

static const char *const tags_none[] = {NULL};
static const char *const tags_hot[] = {"hot", "linear-algebra"};
static const char *const tags_la[] = {"linear-algebra"};
static const char *const tags_gpu[] = {"linear-algebra", "gpu"};
static const char *const tags_rec[] = {"recursion"};
static const char *const tags_io[] = {"io"};
static const char *const tags_async[] = {"async", "network"};

struct gen_region_info {
	const char *name; /* NULL: built per rank */
	const char *file;
	int64_t line;
	const char *text;
	const char *const *tags;
	size_t ntags;
};

#define SRC "/scratch/synth/app/"
static const struct gen_region_info gen_regions[G_NREGIONS] = {
	[G_MAIN] = {"main", SRC "run.py", 12,
		"with sp.region(\"main\"):\n    run(config)", tags_none, 0},
	[G_SETUP] = {"setup", SRC "run.py", 20,
		"with sp.region(\"setup\"):\n    mesh = build_mesh(config)\n"
		"    table = fib(config.depth)",
		tags_none, 0},
	[G_FIB] = {"fib", SRC "util.py", 7,
		"@sp.profile(\"fib\")\ndef fib(n):\n"
		"    return n if n < 2 else fib(n - 1) + fib(n - 2)",
		tags_rec, 1},
	[G_STEP] = {"timestep", SRC "run.py", 31,
		"with sp.region(\"timestep\"):\n    assemble(mesh)\n"
		"    solve(system)\n    exchange_halo(field)",
		tags_none, 0},
	[G_ASSEMBLE] = {"assemble", SRC "solver.py", 44,
		"with sp.region(\"assemble\"):\n    for cell in mesh.cells:\n"
		"        kernel(cell)",
		tags_la, 1},
	[G_KASM] = {"kernel:assemble_local", SRC "kernels.py", 10,
		"@sp.profile(\"kernel:assemble_local\")\ndef assemble_local("
		"cell):\n    ...",
		tags_none, 0},
	[G_SOLVE] = {"solve", SRC "solver.py", 71,
		"with sp.region(\"solve\"):\n    precondition(system)\n"
		"    for it in range(iterations):\n        spmv(a, x)",
		tags_hot, 2},
	[G_PRECOND] = {"kernel:precondition", SRC "kernels.py", 33,
		"@sp.profile(\"kernel:precondition\")\ndef precondition(s):\n"
		"    return ilu0(s.a)",
		tags_la, 1},
	[G_SPMV] = {"kernel:spmv", SRC "kernels.py", 58,
		"@sp.profile(\"kernel:spmv\", gpu=True)\ndef spmv(a, x):\n"
		"    return a @ x",
		tags_gpu, 2},
	[G_HALO] = {"halo_exchange", SRC "comm.py", 15,
		"with sp.region(\"halo_exchange\"):\n    comm.Isend(...)\n"
		"    comm.Recv(...)",
		tags_none, 0},
	/* MPI wrappers: names and tags are built per rank (gen_mpi_row). */
	[G_ISEND] = {NULL, "", -1, NULL, NULL, 0},
	[G_IRECV] = {NULL, "", -1, NULL, NULL, 0},
	[G_WAIT] = {NULL, "", -1, NULL, NULL, 0},
	[G_ALLREDUCE] = {NULL, "", -1, NULL, NULL, 0},
	[G_IO] = {"io", SRC "output.py", 9,
		"with sp.region(\"io\"):\n    write_checkpoint(state)", tags_io,
		1},
	[G_CKPT] = {"write_checkpoint", SRC "output.py", 22,
		"@sp.profile(\"write_checkpoint\")\ndef write_checkpoint(s):\n"
		"    h5.write(s)",
		tags_io, 1},
	[G_FINALIZE] = {"finalize", SRC "run.py", 52,
		"with sp.region(\"finalize\"):\n    report(results)", tags_none,
		0},
	[G_COMPRESS] = {"compress_block", SRC "workers.py", 18,
		"with sp.region(\"compress_block\"):\n    zlib.compress(block)",
		tags_io, 1},
	[G_CHECKSUM] = {"checksum", SRC "workers.py", 26,
		"with sp.region(\"checksum\"):\n    crc32(block)", tags_none,
		0},
	[G_PREFETCH] = {"prefetch", SRC "workers.py", 31,
		"with sp.region(\"prefetch\"):\n    read_ahead(path)", tags_io,
		1},
	[G_REQUEST] = {"handle_request", SRC "service.py", 40,
		"async def handle_request(req):\n"
		"    with sp.region(\"handle_request\"):\n"
		"        data = await fetch(req)\n        return parse(data)",
		tags_async, 2},
	[G_FETCH] = {"fetch", SRC "service.py", 55,
		"async def fetch(req):\n    with sp.region(\"fetch\"):\n"
		"        return await session.get(req.url)",
		tags_async, 2},
	[G_PARSE] = {"parse", SRC "service.py", 63,
		"with sp.region(\"parse\"):\n    json.loads(body)", tags_none,
		0},
};

/* ------------------------------------------------------------------ */
/* Building one rank */

struct gen_ctx {
	const struct sv_gen_opts *o;
	const struct gen_plan *p;
	struct sv_gen_rank *r;
	struct gen_rng rng;
	uint32_t rank, slow_rank;
	int slow;             /* --slow-region's enum gen_region, or -1 */
	int64_t factor_milli; /* this rank's compute speed, 1000 = nominal */
	int64_t shift;        /* --slowdown: what this rank's steps lost */
	uint64_t budget;      /* calls the current lane may still emit */
	uint64_t n;           /* calls emitted */
	int row_of[G_NREGIONS];
	int64_t lane, thread, task; /* of the current lane */
};

static char *gen_keep(struct sv_gen_rank *r, char *s);

/* Name and tags of an MPI call the way scope-profiler's mpi4py wrappers
 * write them (format_mpi_region and _tags in mpi_wrappers.py). */
static const char *gen_mpi_row(struct gen_ctx *g, enum gen_region k,
	const char ***tags_out, size_t *ntags_out)
{
	struct sv_gen_rank *r = g->r;
	uint32_t next = (g->rank + 1) % g->o->ranks;
	uint32_t prev = (g->rank + g->o->ranks - 1) % g->o->ranks;
	const char *op = "allreduce", *kind = "collective", *request = NULL;
	long bytes = 8, peer = -1, tag = -1;
	const char **tags = sv_xcalloc(9, sizeof *tags);
	char *name;
	size_t n = 0;

	if (k == G_ISEND) {
		op = "isend", kind = "point-to-point";
		bytes = 32768, peer = next, tag = 7;
	} else if (k == G_IRECV) {
		op = "irecv", kind = "point-to-point";
		bytes = 32768, peer = prev, tag = 7;
	} else if (k == G_WAIT) {
		op = "wait", kind = "wait", request = "irecv";
		bytes = 32768, peer = prev, tag = 7;
	}
	name = sv_xasprintf("mpi:%s kind=%s bytes=%ld peer=%ld root=-1 "
			    "tag=%ld comm=0%s%s",
		op, kind, bytes, peer, tag, request ? " request=" : "",
		request ? request : "");
	tags[n++] = "mpi";
	tags[n++] = gen_keep(r, sv_xasprintf("mpi.kind:%s", kind));
	tags[n++] = gen_keep(r, sv_xasprintf("mpi.operation:%s", op));
	tags[n++] = gen_keep(r, sv_xasprintf("mpi.bytes:%ld", bytes));
	tags[n++] = gen_keep(r, sv_xasprintf("mpi.peer:%ld", peer));
	tags[n++] = "mpi.root:-1";
	tags[n++] = gen_keep(r, sv_xasprintf("mpi.tag:%ld", tag));
	tags[n++] = "mpi.communicator:0";
	if (request)
		tags[n++] = "mpi.request:irecv";
	*tags_out = tags;
	*ntags_out = n;
	return name;
}

static void gen_add_row(struct gen_ctx *g, enum gen_region k)
{
	struct sv_gen_rank *r = g->r;
	const struct gen_region_info *info = &gen_regions[k];
	struct sv_write_row *row;
	const char *name = info->name;
	const char **tags = NULL;
	size_t ntags = info->ntags;

	r->row_names = sv_xreallocarray(
		r->row_names, r->nrows + 1, sizeof *r->row_names);
	r->row_tags = sv_xreallocarray(
		r->row_tags, r->nrows + 1, sizeof *r->row_tags);
	r->row_names[r->nrows] = NULL;
	r->row_tags[r->nrows] = NULL;
	if (!name) {
		name = gen_mpi_row(g, k, &tags, &ntags);
		r->row_names[r->nrows] = (char *)name;
		r->row_tags[r->nrows] = tags;
	}
	sv_grow((void **)&r->rows, &r->rows_cap, r->nrows + 1, sizeof *r->rows);
	row = &r->rows[r->nrows];
	memset(row, 0, sizeof *row);
	row->name = name;
	row->source_file = info->file;
	row->source_line = info->line;
	row->source_text = info->text;
	row->tags = tags ? tags : (ntags ? info->tags : NULL);
	row->ntags = ntags;
	row->exclusive_total = -1;
	g->row_of[k] = (int)r->nrows++;
}

/* Start a call of region k at t under parent (GEN_NONE = lane top).
 * Returns the call, or GEN_NONE when the lane's budget is spent or the
 * parent was not emitted (want_parent). */
static uint32_t gen_emit(struct gen_ctx *g, enum gen_region k, int64_t t,
	uint32_t parent, bool want_parent)
{
	struct sv_gen_rank *r = g->r;
	uint32_t c;

	if (g->budget == 0 || (want_parent && parent == GEN_NONE))
		return GEN_NONE;
	g->budget--;
	if (g->row_of[k] < 0)
		gen_add_row(g, k);
	c = (uint32_t)g->n++;
	r->row[c] = (uint32_t)g->row_of[k];
	r->start[c] = t;
	r->end[c] = t;
	r->parent[c] = parent;
	r->lane[c] = g->lane;
	if (r->gpu)
		r->gpu[c] = -1;
	if (r->call_id) {
		r->call_id[c] = c;
		r->parent_id[c] = parent == GEN_NONE ? -1 : (int64_t)parent;
	}
	if (r->thread_id)
		r->thread_id[c] = g->thread;
	if (r->task_id)
		r->task_id[c] = g->task;
	if (r->await_ns)
		r->await_ns[c] = 0;
	return c;
}

static void gen_end(struct gen_ctx *g, uint32_t c, int64_t t)
{
	if (c != GEN_NONE)
		g->r->end[c] = t;
}

/* The regions that compute (the kernels) and the ones around them: a
 * region --slow-region names slows the kernels it encloses. */
static const enum gen_region gen_kernel_path[][4] = {
	{G_KASM, G_ASSEMBLE, G_STEP, G_MAIN},
	{G_PRECOND, G_SOLVE, G_STEP, G_MAIN},
	{G_SPMV, G_SOLVE, G_STEP, G_MAIN},
};
#define GEN_NKERNELS (sizeof gen_kernel_path / sizeof gen_kernel_path[0])

int sv_gen_slow_index(const char *name)
{
	size_t i, j;
	for (i = 0; name && i < GEN_NKERNELS; i++)
		for (j = 0; j < 4; j++)
			if (!strcmp(gen_regions[gen_kernel_path[i][j]].name,
				    name))
				return (int)gen_kernel_path[i][j];
	return -1;
}

const char *sv_gen_slow_regions(void)
{
	return "main timestep assemble kernel:assemble_local solve "
	       "kernel:precondition kernel:spmv";
}

/* A compute duration of kernel k scaled by this rank's speed, and by
 * --slow-region's factor when k or a region around it is the slow one. */
static int64_t gen_compute(struct gen_ctx *g, enum gen_region k, int64_t mean)
{
	int64_t d = gen_dur(&g->rng, mean) * g->factor_milli / 1000 + 1;
	size_t i, j;

	if (g->slow < 0)
		return d;
	for (i = 0; i < GEN_NKERNELS; i++)
		if (gen_kernel_path[i][0] == k)
			for (j = 0; j < 4; j++)
				if ((int)gen_kernel_path[i][j] == g->slow) {
					d = d * g->p->slow_milli / 1000;
					return d > 1 ? d : 1;
				}
	return d;
}

/* The recursive region: two children per call near the top, one below,
 * `depth` levels in all.  Returns the end time. */
static int64_t gen_fib(
	struct gen_ctx *g, uint32_t level, int64_t t, uint32_t parent)
{
	uint32_t c = gen_emit(g, G_FIB, t, parent, true);
	int64_t u = t + gen_range(&g->rng, 40, 120);
	if (level < g->o->depth) {
		int kids = level < 3 ? 2 : 1, i;
		for (i = 0; i < kids; i++)
			u = gen_fib(g, level + 1, u, c) +
			    gen_range(&g->rng, 20, 90);
	} else {
		u += gen_dur(&g->rng, MEAN_FIB_LEAF);
	}
	gen_end(g, c, u);
	return u + 1;
}

/* --slowdown: the calls [first, n) of a step that began at t0 and ended
 * at t1, stretched from t0 by the factor (their GPU times too); the
 * rank's later steps start later by what this one lost.  Returns the
 * step's new end. */
static int64_t gen_stretch(
	struct gen_ctx *g, uint64_t first, int64_t t0, int64_t t1)
{
	struct sv_gen_rank *r = g->r;
	int64_t f = g->p->slowdown_milli;
	uint64_t c;

	for (c = first; c < g->n; c++) {
		r->start[c] = t0 + (r->start[c] - t0) * f / 1000;
		r->end[c] = t0 + (r->end[c] - t0) * f / 1000;
		if (r->gpu && r->gpu[c] > 0)
			r->gpu[c] = r->gpu[c] * f / 1000;
	}
	g->shift += (t1 - t0) * f / 1000 - (t1 - t0);
	return t0 + (t1 - t0) * f / 1000;
}

static void gen_main_lane(struct gen_ctx *g)
{
	const struct gen_plan *p = g->p;
	struct gen_rng *rng = &g->rng;
	uint32_t m, setup, fin;
	uint64_t s, i;
	int64_t t = p->t0, end;

	m = gen_emit(g, G_MAIN, t, GEN_NONE, false);
	t += 1000;
	setup = gen_emit(g, G_SETUP, t, m, true);
	t = gen_fib(g, 1, t + 500, setup) + 300;
	gen_end(g, setup, t);

	for (s = 0; s < p->steps; s++) {
		int64_t step_t0 = sv_gen_step_start(p, s) + g->shift;
		int64_t sync, jitter;
		uint64_t first = g->n;
		uint32_t st, as, so, pc, ha, c, ar;
		uint64_t ka, ks;

		sv_gen_kernel_split(p, g->budget + g->n, s, &ka, &ks);
		jitter = step_t0 + gen_range(rng, 0, 2000);
		t = jitter > t + 200 ? jitter : t + 200;
		st = gen_emit(g, G_STEP, t, m, true);
		t += 300;

		as = gen_emit(g, G_ASSEMBLE, t, st, true);
		t += 200;
		for (i = 0; i < ka && as != GEN_NONE; i++) {
			c = gen_emit(g, G_KASM, t, as, true);
			t += gen_compute(g, G_KASM, p->mean_kasm);
			gen_end(g, c, t);
			t += gen_range(rng, 50, 300);
		}
		gen_end(g, as, t + 100);
		t += 300;

		so = gen_emit(g, G_SOLVE, t, st, true);
		t += 200;
		pc = gen_emit(g, G_PRECOND, t, so, true);
		t += gen_compute(g, G_PRECOND,
			((int64_t)ka * p->mean_kasm +
				(int64_t)ks * p->mean_spmv) *
					p->precond_pct / 100 +
				20000);
		gen_end(g, pc, t);
		t += 150;
		for (i = 0; i < ks && so != GEN_NONE; i++) {
			int64_t d;
			c = gen_emit(g, G_SPMV, t, so, true);
			d = gen_compute(g, G_SPMV, p->mean_spmv);
			if (c != GEN_NONE && g->r->gpu)
				g->r->gpu[c] =
					d * gen_range(rng, 550, 900) / 1000;
			t += d;
			gen_end(g, c, t);
			t += gen_range(rng, 50, 300);
		}
		gen_end(g, so, t + 100);
		t += 300;

		ha = gen_emit(g, G_HALO, t, st, true);
		t += 200;
		c = gen_emit(g, G_ISEND, t, ha, true);
		t += gen_range(rng, 2000, 6000);
		gen_end(g, c, t);
		t += gen_range(rng, 100, 300);
		/* Posting the receive takes no measurable time: a zero-length call. */
		c = gen_emit(g, G_IRECV, t, ha, true);
		t += gen_range(rng, 100, 300);
		c = gen_emit(g, G_WAIT, t, ha, true);
		t += gen_range(rng, 3000, 15000);
		gen_end(g, c, t);
		gen_end(g, ha, t + 100);
		t += 300;

		/* The allreduce waits for the slowest rank. */
		sync = step_t0 + p->period * 96 / 100 + gen_range(rng, 0, 1500);
		ar = gen_emit(g, G_ALLREDUCE, t, st, true);
		end = sync > t + 3000 ? sync
				      : t + 3000 + gen_range(rng, 0, 500);
		gen_end(g, ar, end);
		t = end + 200;

		if (s % 10 == 9) {
			uint32_t io = gen_emit(g, G_IO, t, st, true), ck;
			t += 500;
			ck = gen_emit(g, G_CKPT, t, io, true);
			t += IO_SPAN * (g->rank == 0 ? 80 : 50) / 100 +
			     gen_range(rng, 0, 20000);
			gen_end(g, ck, t);
			gen_end(g, io, t + 300);
			t += 600;
		}
		gen_end(g, st, t);
		if (st != GEN_NONE && g->o->slowdown &&
			g->rank == g->o->slowdown_rank &&
			s >= g->o->slowdown_step)
			t = gen_stretch(g, first, g->r->start[st], t);
		t += 100;
	}
	t += 1000;
	fin = gen_emit(g, G_FINALIZE, t, m, true);
	t += FINALIZE_SPAN * 8 / 10 + gen_range(rng, 0, 20000);
	gen_end(g, fin, t);
	gen_end(g, m, t + 1000);
}

/* A worker thread: jobs from a pool, each a top-level compress_block >
 * checksum, every fifth a prefetch, spread over the run with the thread
 * busy about a quarter of the time.  Returns the end of the last job. */
static int64_t gen_worker_lane(struct gen_ctx *g, int64_t *busy)
{
	const struct gen_plan *p = g->p;
	struct gen_rng *rng = &g->rng;
	int64_t t0 = p->t0 + 40000 + gen_range(rng, 0, 10000);
	int64_t span = p->run_end - 40000 - t0, spacing, t = t0;
	uint64_t jobs = g->budget * 5 / 9 + 1, i;

	spacing = span / (int64_t)jobs;
	if (spacing < 400)
		spacing = 400;
	*busy = 0;
	for (i = 0; g->budget > 0; i++) {
		int64_t at = t0 + (int64_t)i * spacing, d;
		uint32_t c;
		if (at < t)
			at = t;
		d = spacing * gen_range(rng, 150, 350) / 1000 + 60;
		if (i % 5 == 4) {
			c = gen_emit(g, G_PREFETCH, at, GEN_NONE, false);
			gen_end(g, c, at + d);
		} else {
			uint32_t k;
			c = gen_emit(g, G_COMPRESS, at, GEN_NONE, false);
			k = gen_emit(
				g, G_CHECKSUM, at + d - d / 4 - 10, c, true);
			gen_end(g, k, at + d - 10);
			gen_end(g, c, at + d);
		}
		*busy += d;
		t = at + d + 1;
	}
	return t;
}

/* An asyncio task: handle_request > fetch (suspended most of the time) >
 * parse, items spread over the run and offset per task so tasks of one
 * thread interleave.  Fills the task table row. */
static void gen_task_lane(
	struct gen_ctx *g, uint32_t j, int64_t origin, struct sv_write_task *tk)
{
	const struct gen_plan *p = g->p;
	struct gen_rng *rng = &g->rng;
	int64_t t0 = p->t0 + 60000, span = p->run_end - 120000 - t0;
	int64_t spacing, t = t0, first = -1, last = 0, run = 0, susp = 0;
	uint64_t items = g->budget / 3 + (g->budget % 3 != 0), i;

	spacing = span / (int64_t)(items ? items : 1);
	if (spacing < 2000)
		spacing = 2000;
	for (i = 0; i < items; i++) {
		int64_t at = t0 + (int64_t)i * spacing +
			     spacing * j / (g->o->tasks ? g->o->tasks : 1);
		int64_t fd, fa = 0, pd;
		uint32_t rq, f, ps;
		if (at < t)
			at = t;
		rq = gen_emit(g, G_REQUEST, at, GEN_NONE, false);
		if (rq == GEN_NONE)
			break;
		if (first < 0)
			first = at;
		f = gen_emit(g, G_FETCH, at + 200, rq, true);
		fd = spacing * gen_range(rng, 80, 160) / 1000 + 50;
		if (f != GEN_NONE) {
			fa = fd * gen_range(rng, 700, 950) / 1000;
			gen_end(g, f, at + 200 + fd);
			if (g->r->await_ns)
				g->r->await_ns[f] = fa;
		}
		ps = gen_emit(g, G_PARSE, at + 300 + fd, rq, true);
		pd = spacing * gen_range(rng, 20, 40) / 1000 + 20;
		gen_end(g, ps, at + 300 + fd + pd);
		t = at + 500 + fd + pd;
		gen_end(g, rq, t);
		if (g->r->await_ns)
			g->r->await_ns[rq] = fa;
		run += t - at - fa;
		susp += fa;
		last = t;
		t += 1;
	}
	tk->created_ns = (first < 0 ? t0 : first) - origin - 500;
	tk->done_ns = last ? last - origin + 500 : -1;
	tk->steps = (int64_t)items * 2 + 1;
	tk->running_ns = run;
	tk->suspended_ns = susp;
}

static char *gen_keep(struct sv_gen_rank *r, char *s)
{
	r->strings = sv_xreallocarray(
		r->strings, r->nstrings + 1, sizeof *r->strings);
	r->strings[r->nstrings++] = s;
	return s;
}

void sv_gen_rank_build(
	const struct sv_gen_opts *o, uint32_t rank, struct sv_gen_rank *out)
{
	struct gen_plan p;
	struct gen_ctx g;
	struct sv_gen_rank *r = out;
	uint64_t n = sv_gen_rank_events(o, rank), main_budget;
	uint32_t w = sv_gen_lane_weight_total(o), t, j;
	bool lanes = o->threads > 1 || o->tasks > 0 || o->track_threads;
	int64_t origin = sv_gen_start_time(o);
	size_t sz = (size_t)(n ? n : 1);

	sv_gen_plan_make(o, &p);
	memset(r, 0, sizeof *r);
	memset(&g, 0, sizeof g);
	g.o = o;
	g.p = &p;
	g.r = r;
	g.rank = rank;
	g.slow_rank = sv_gen_slow_rank(o);
	g.slow = o->slow_region ? sv_gen_slow_index(o->slow_region) : -1;
	gen_rng_seed(&g.rng, o->seed, (uint64_t)rank + 1);
	g.factor_milli = 1000 + (int64_t)gen_below(&g.rng, 30);
	if (o->ranks > 1 && rank == g.slow_rank)
		g.factor_milli = 1000 + p.imb_milli;
	for (t = 0; t < G_NREGIONS; t++)
		g.row_of[t] = -1;

	r->row = sv_xmalloc(sz * sizeof *r->row);
	r->start = sv_xmalloc(sz * sizeof *r->start);
	r->end = sv_xmalloc(sz * sizeof *r->end);
	r->parent = sv_xmalloc(sz * sizeof *r->parent);
	r->lane = sv_xmalloc(sz * sizeof *r->lane);
	if (o->gpu)
		r->gpu = sv_xmalloc(sz * sizeof *r->gpu);
	if (o->call_ids) {
		r->call_id = sv_xmalloc(sz * sizeof *r->call_id);
		r->parent_id = sv_xmalloc(sz * sizeof *r->parent_id);
	}
	if (lanes)
		r->thread_id = sv_xmalloc(sz * sizeof *r->thread_id);
	if (o->tasks)
		r->task_id = sv_xmalloc(sz * sizeof *r->task_id);
	if (o->await)
		r->await_ns = sv_xmalloc(sz * sizeof *r->await_ns);
	if (lanes)
		r->threads = sv_xcalloc(o->threads, sizeof *r->threads);
	if (o->tasks)
		r->tasks = sv_xcalloc(
			(size_t)o->threads * o->tasks, sizeof *r->tasks);

	/* Main thread. */
	main_budget = sv_gen_main_budget(o, n);
	g.budget = main_budget;
	g.thread = 0;
	g.task = -1;
	g.lane = lanes ? -2 : -1;
	gen_main_lane(&g);
	if (lanes) {
		struct sv_write_thread *th = &r->threads[0];
		th->index = 0;
		th->ident = 139800000000000LL + (int64_t)rank * 65536;
		th->native_id = 20000 + (int64_t)rank * 100;
		th->daemon = 0;
		th->name = "MainThread";
		th->start_ns = 0;
		th->end_ns = -1;
		th->cpu_ns = (p.run_end - origin) * 85 / 100;
	}

	/* Worker threads. */
	for (t = 1; t < o->threads; t++) {
		struct sv_write_thread *th = &r->threads[t];
		int64_t busy = 0, end;
		g.budget = n * 2 / w;
		g.thread = t;
		g.task = -1;
		g.lane = -2 - (int64_t)t;
		end = gen_worker_lane(&g, &busy);
		th->index = t;
		th->ident = 139800000000000LL + (int64_t)rank * 65536 +
			    (int64_t)t * 4096;
		th->native_id = 20000 + (int64_t)rank * 100 + t;
		th->daemon = 1;
		th->name = gen_keep(r, sv_xasprintf("worker-%u", t));
		th->start_ns = p.t0 + 30000 - origin;
		th->end_ns = end + 2000 - origin;
		th->cpu_ns = busy;
	}

	/* Tasks, on every thread. */
	for (t = 0; t < o->threads; t++) {
		for (j = 0; j < o->tasks; j++) {
			uint32_t ti = t * o->tasks + j;
			struct sv_write_task *tk = &r->tasks[ti];
			g.budget = n / w;
			g.thread = t;
			g.task = ti;
			g.lane = ti;
			tk->index = ti;
			tk->thread_index = t;
			tk->kind = "task";
			tk->name = gen_keep(r, sv_xasprintf("Task-%u", ti + 1));
			tk->coro_name = "serve.<locals>.handle_request";
			gen_task_lane(&g, j, origin, tk);
			if (ti + 1 == o->threads * o->tasks)
				tk->done_ns = -1; /* still pending at exit */
		}
	}
	if (g.n != n)
		sv_die("gen: rank %u emitted %" PRIu64 " of %" PRIu64 " calls",
			rank, g.n, n);

	r->w.rank = rank;
	r->w.rows = r->rows;
	r->w.nrows = r->nrows;
	r->w.ncalls = n;
	r->w.row = r->row;
	r->w.start_ns = r->start;
	r->w.end_ns = r->end;
	r->w.gpu_ns = r->gpu;
	r->w.call_id = r->call_id;
	r->w.parent_id = r->parent_id;
	r->w.thread_id = r->thread_id;
	r->w.task_id = r->task_id;
	r->w.await_ns = r->await_ns;
	r->w.threads = r->threads;
	r->w.nthreads = r->threads ? o->threads : 0;
	r->w.tasks = r->tasks;
	r->w.ntasks = r->tasks ? (size_t)o->threads * o->tasks : 0;
}

void sv_gen_rank_fini(struct sv_gen_rank *r)
{
	size_t i;
	if (!r)
		return;
	for (i = 0; i < r->nrows; i++) {
		free(r->row_names ? r->row_names[i] : NULL);
		free(r->row_tags ? r->row_tags[i] : NULL);
	}
	free(r->row_names);
	free(r->row_tags);
	for (i = 0; i < r->nstrings; i++)
		free(r->strings[i]);
	free(r->strings);
	free(r->rows);
	free(r->threads);
	free(r->tasks);
	free(r->row);
	free(r->start);
	free(r->end);
	free(r->parent);
	free(r->lane);
	free(r->gpu);
	free(r->call_id);
	free(r->parent_id);
	free(r->thread_id);
	free(r->task_id);
	free(r->await_ns);
	memset(r, 0, sizeof *r);
}
