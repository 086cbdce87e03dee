/*
 * gen.c: synthetic profiles (gen.h) for `scopeview gen`: the options, the
 * plan every rank shares, and writing the file; gen_rank.c builds each
 * rank's calls.
 *
 * Every rank is generated independently from (seed, rank) with a
 * xoshiro256** generator seeded through splitmix64, and only integer
 * arithmetic decides times, so the same options give the same calls on any
 * machine.  A rank's calls are emitted lane by lane in preorder with a
 * budget: each lane gets its share of the rank's events and emits exactly
 * that many (a small budget truncates the structure, a large one adds
 * kernels / work items), so --events is met exactly.
 *
 * Times: all ranks share one plan (step period, setup span, run end)
 * computed from the options, so timesteps line up across ranks and the
 * allreduce at the end of each step absorbs the difference between a fast
 * rank and the slow one, as in a real bulk-synchronous run.
 *
 * Nothing here touches HDF5: files are written through write.h.
 */
#include "gen_priv.h"

#include "sv_version.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Options and the shared plan */

void sv_gen_opts_init(struct sv_gen_opts *o)
{
	memset(o, 0, sizeof *o);
	o->ranks = 4;
	o->threads = 1;
	o->tasks = 0;
	o->events = 100000;
	o->depth = 4;
	o->imbalance = 0.3;
	o->call_ids = true;
	o->seed = 1;
	o->slow_factor = 2.0;
	o->slowdown_factor = 2.0;
	sv_writer_opts_init(&o->writer);
}

int sv_gen_opts_check(const struct sv_gen_opts *o, struct sv_error *err)
{
	if (!o)
		return sv_error_set(err, -EINVAL, "no options");
	if (o->ranks < 1 || o->ranks > 65536)
		return sv_error_set(
			err, -EINVAL, "--ranks must be between 1 and 65536");
	if (o->threads < 1 || o->threads > 1024)
		return sv_error_set(
			err, -EINVAL, "--threads must be between 1 and 1024");
	if (o->tasks > 1024)
		return sv_error_set(
			err, -EINVAL, "--tasks must be between 0 and 1024");
	if (o->depth < 1 || o->depth > 1000)
		return sv_error_set(
			err, -EINVAL, "--depth must be between 1 and 1000");
	if (!(o->imbalance >= 0 && o->imbalance <= 10))
		return sv_error_set(
			err, -EINVAL, "--imbalance must be between 0 and 10");
	if (o->scale_ranks > 65536)
		return sv_error_set(err, -EINVAL,
			"--strong-scaling must be between 1 and 65536");
	if (o->slowdown && o->slowdown_rank >= o->ranks)
		return sv_error_set(err, -EINVAL,
			"--slowdown: rank %u is not one of the %u ranks",
			o->slowdown_rank, o->ranks);
	if (o->slowdown &&
		!(o->slowdown_factor >= 0.1 && o->slowdown_factor <= 100))
		return sv_error_set(err, -EINVAL,
			"--slowdown: the factor must be between 0.1 and 100");
	if (o->events / o->ranks >= UINT32_MAX - 1)
		return sv_error_set(err, -EINVAL,
			"%" PRIu64 " events over %u ranks is more than one "
			"rank can hold (4294967294); add ranks",
			o->events, o->ranks);
	if (o->writer.schema < 0 || o->writer.schema > 3)
		return sv_error_set(err, -EINVAL, "--schema must be 1, 2 or 3");
	if (o->slow_region && sv_gen_slow_index(o->slow_region) < 0)
		return sv_error_set(err, -EINVAL,
			"--slow-region: '%s' is not a region the generator "
			"computes in (one of: %s)",
			o->slow_region, sv_gen_slow_regions());
	if (o->slow_region && !(o->slow_factor >= 0.1 && o->slow_factor <= 100))
		return sv_error_set(err, -EINVAL,
			"--slow-region: the factor must be between 0.1 and "
			"100");
	if ((o->format == SV_GEN_SPT || o->format == SV_GEN_RANK_H5) &&
		(o->threads > 1 || o->tasks || o->track_threads))
		return sv_error_set(err, -EINVAL,
			"--format spt and rank-h5 write native traces, one "
			"lane a rank: no --threads, --tasks or "
			"--track-threads");
	return 0;
}

uint64_t sv_gen_rank_events(const struct sv_gen_opts *o, uint32_t rank)
{
	return o->events / o->ranks + (rank < o->events % o->ranks);
}

uint32_t sv_gen_slow_rank(const struct sv_gen_opts *o)
{
	uint64_t x = o->seed ^ 0x51077ULL;
	return o->ranks > 1 ? (uint32_t)(gen_splitmix(&x) % o->ranks) : 0;
}

uint32_t sv_gen_lane_weight_total(const struct sv_gen_opts *o)
{
	return 4 + 2 * (o->threads - 1) + o->threads * o->tasks;
}

/* Calls of the main thread of a rank with `events` calls. */
uint64_t sv_gen_main_budget(const struct sv_gen_opts *o, uint64_t events)
{
	uint32_t w = sv_gen_lane_weight_total(o);
	uint64_t others = 0, i;
	for (i = 1; i < o->threads; i++)
		others += events * 2 / w;
	others += (uint64_t)o->threads * o->tasks * (events / w);
	return events - others;
}

static uint64_t gen_fib_calls(uint32_t depth)
{
	return depth <= 3 ? ((uint64_t)1 << depth) - 1 : 7 + 4 * (depth - 3);
}

static uint64_t gen_io_steps_before(uint64_t s)
{
	return s / 10; /* steps 9, 19, ... do io */
}

void sv_gen_kernel_split(const struct gen_plan *p, uint64_t budget, uint64_t s,
	uint64_t *ka, uint64_t *ks)
{
	uint64_t fixed =
		p->head + p->steps * 9 + gen_io_steps_before(p->steps) * 2;
	uint64_t k = budget > fixed ? budget - fixed : 0;
	uint64_t per = k / p->steps + (s < k % p->steps);
	*ka = per / 3;
	*ks = per - *ka;
}

void sv_gen_plan_make(const struct sv_gen_opts *o, struct gen_plan *p)
{
	uint64_t x = o->seed, ka, ks, typical;
	int64_t kernels, compute, setup;

	memset(p, 0, sizeof *p);
	p->t0 = 1000000000000LL +
		(int64_t)(gen_splitmix(&x) % 1000) * 1000000000LL;
	p->fib_calls = gen_fib_calls(o->depth);
	p->head = 3 + p->fib_calls;
	typical = sv_gen_main_budget(o, o->events / o->ranks);
	p->steps = typical / 64;
	if (p->steps < 1)
		p->steps = 1;
	if (p->steps > 4000)
		p->steps = 4000;
	p->imb_milli = (int64_t)(o->imbalance * 1000 + 0.5);
	p->precond_pct = 100;
	p->slow_milli =
		o->slow_region ? (int64_t)(o->slow_factor * 1000 + 0.5) : 1000;
	p->slowdown_milli =
		o->slowdown ? (int64_t)(o->slowdown_factor * 1000 + 0.5) : 1000;
	p->mean_kasm = MEAN_KASM;
	p->mean_spmv = MEAN_SPMV;
	if (o->scale_ranks) {
		int64_t r0 = o->scale_ranks, n = o->ranks;
		p->mean_kasm = MEAN_KASM * r0 / n;
		p->mean_spmv = MEAN_SPMV * (n + 9 * r0) / (10 * n);
		if (p->mean_kasm < 1)
			p->mean_kasm = 1;
	}
	sv_gen_kernel_split(p, typical, 0, &ka, &ks);
	kernels = (int64_t)ka * (p->mean_kasm + 200) +
		  (int64_t)ks * (p->mean_spmv + 200);
	compute = kernels + kernels * p->precond_pct / 100 + 20000 + 3000;
	p->period = compute * (1000 + p->imb_milli) / 1000 * 12 / 10 + 60000;
	setup = (int64_t)p->fib_calls * 1500 + 200000;
	p->steps0 = p->t0 + 1000 + setup + 2000;
	p->run_end = p->steps0 + (int64_t)p->steps * p->period +
		     (int64_t)gen_io_steps_before(p->steps) * IO_SPAN +
		     FINALIZE_SPAN + 5000;
}

int64_t sv_gen_step_start(const struct gen_plan *p, uint64_t s)
{
	return p->steps0 + (int64_t)s * p->period +
	       (int64_t)gen_io_steps_before(s) * IO_SPAN;
}

int64_t sv_gen_start_time(const struct sv_gen_opts *o)
{
	struct gen_plan p;
	sv_gen_plan_make(o, &p);
	return p.t0 - 5000000;
}

static int64_t gen_max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* After every call of every rank: the main thread can finish up to a few
 * periods late (a step whose compute overran is absorbed over the next
 * steps), and worker and task lanes packed at their minimum spacing can run
 * past the plan.  Bounds follow gen_worker_lane and gen_task_lane. */
int64_t sv_gen_finalize_time(const struct sv_gen_opts *o)
{
	struct gen_plan p;
	uint64_t n = o->events / o->ranks + 1;
	uint64_t w = sv_gen_lane_weight_total(o);
	int64_t end, span, jobs, items;

	sv_gen_plan_make(o, &p);
	end = p.run_end + 3 * p.period;
	/* A slowed region can overrun every step by up to the slowed share
	 * of the step's compute (the period is 1.2 times the compute plus
	 * 60 us). */
	if (p.slow_milli > 1000)
		end += (int64_t)p.steps * ((p.period - 60000) * 10 / 12) *
		       (p.slow_milli - 1000) / 1000;
	/* A slowed-down rank's steps are each stretched by the factor, and
	 * a step is at most two periods and an io span long. */
	if (p.slowdown_milli > 1000 && o->slowdown_step < p.steps)
		end += (int64_t)(p.steps - o->slowdown_step) *
		       (2 * p.period + IO_SPAN) / 1000 *
		       (p.slowdown_milli - 1000);
	if (o->threads > 1) {
		jobs = (int64_t)((n * 2 / w) * 5 / 9 + 1);
		span = p.run_end - 40000 - p.t0;
		end = gen_max64(
			end, p.t0 + 50000 + gen_max64(span, jobs * 400));
	}
	if (o->tasks) {
		items = (int64_t)((n / w) / 3 + 1);
		span = p.run_end - 180000 - p.t0;
		end = gen_max64(end, p.t0 + 60000 +
					     gen_max64(span, items * 2000) +
					     2 * gen_max64(span / items, 2000));
	}
	return end + 1000000;
}

/* ------------------------------------------------------------------ */
/* The whole file */

int sv_gen_metadata(const struct sv_gen_opts *o, const struct gen_meta *w,
	struct sv_error *err)
{
	uint64_t x = o->seed * 31 + 7, h = gen_splitmix(&x);
	char host[32], ts[64], wd[96], job[32], ntasks[16];
	const char *uname[5];
	static const char *const modules[] = {
		"gcc/12.3.0", "openmpi/4.1.5", "hdf5/1.14.3", "python/3.11.2"};
	int rc = 0;

	snprintf(host, sizeof host, "node%03u", (unsigned)(h % 1000));
	snprintf(ts, sizeof ts, "2026-%02u-%02uT%02u:%02u:%02u+00:00",
		(unsigned)(h >> 10) % 12 + 1, (unsigned)(h >> 14) % 28 + 1,
		(unsigned)(h >> 19) % 24, (unsigned)(h >> 24) % 60,
		(unsigned)(h >> 30) % 60);
	snprintf(wd, sizeof wd, "/scratch/synth/run-%" PRIu64, o->seed);
	snprintf(job, sizeof job, "%u",
		(unsigned)(4000000 + (h >> 40) % 999999));
	snprintf(ntasks, sizeof ntasks, "%u", o->ranks);
	uname[0] = "Linux";
	uname[1] = host;
	uname[2] = "6.1.0-synthetic";
	uname[3] = "#1 SMP PREEMPT_DYNAMIC";
	uname[4] = "x86_64";

#define M(call)                    \
	do {                       \
		if (!rc)           \
			rc = call; \
	} while (0)
	M(w->str(w->ctx, "chip_information", "Synthetic CPU @ 3.00GHz", err));
	M(w->num(w->ctx, "finalize_time_ns", sv_gen_finalize_time(o), err));
	M(w->str(w->ctx, "hostname", host, err));
	M(w->str(w->ctx, "label",
		o->label ? o->label : "synthetic run (scopeview gen)", err));
	M(w->strs(w->ctx, "modules", modules, 4, err));
	M(w->num(w->ctx, "mpi_size", o->ranks, err));
	M(w->num(w->ctx, "omp_num_threads", o->threads, err));
	M(w->str(w->ctx, "platform",
		"Linux-6.1.0-synthetic-x86_64-with-glibc2.36", err));
	M(w->str(w->ctx, "python_version", "3.11.2", err));
	M(w->str(w->ctx, "scope_profiler_version",
		"0.5.0 (synthetic, scopeview " SV_VERSION ")", err));
	M(w->num(w->ctx, "start_time_ns", sv_gen_start_time(o), err));
	M(w->str(w->ctx, "timestamp", ts, err));
	M(w->num(w->ctx, "total_cores",
		(int64_t)o->ranks * (o->threads > 4 ? o->threads : 4), err));
	M(w->strs(w->ctx, "uname", uname, 5, err));
	M(w->str(w->ctx, "user", "synth", err));
	M(w->str(w->ctx, "working_directory", wd, err));
	M(w->str(w->ctx, "SLURM_JOB_ID", job, err));
	M(w->str(w->ctx, "SLURM_NTASKS", ntasks, err));
#undef M
	return rc;
}

static int gen_meta_num(
	void *ctx, const char *key, int64_t v, struct sv_error *err)
{
	return sv_writer_meta_int(ctx, key, v, err);
}

static int gen_meta_str(
	void *ctx, const char *key, const char *v, struct sv_error *err)
{
	return sv_writer_meta_str(ctx, key, v, err);
}

static int gen_meta_strs(void *ctx, const char *key, const char *const *v,
	size_t n, struct sv_error *err)
{
	return sv_writer_meta_strs(ctx, key, v, n, err);
}

int sv_gen_write(const char *path, const struct sv_gen_opts *o,
	sv_gen_progress_fn progress, void *ctx, struct sv_error *err)
{
	struct sv_writer *w;
	struct gen_meta m = {gen_meta_num, gen_meta_str, gen_meta_strs, NULL};
	uint32_t rank;
	int rc;

	rc = sv_gen_opts_check(o, err);
	if (rc)
		return rc;
	if (o->format != SV_GEN_HDF5)
		return sv_gen_write_other(path, o, progress, ctx, err);
	rc = sv_writer_open(&w, path, &o->writer, err);
	if (rc)
		return rc;
	m.ctx = w;
	rc = sv_gen_metadata(o, &m, err);
	for (rank = 0; rank < o->ranks && !rc; rank++) {
		struct sv_gen_rank r;
		sv_gen_rank_build(o, rank, &r);
		rc = sv_writer_add_rank(w, &r.w, err);
		sv_gen_rank_fini(&r);
		if (!rc && progress)
			progress(ctx, rank + 1, sv_writer_events(w));
	}
	if (rc) {
		sv_writer_abort(w);
		return rc;
	}
	return sv_writer_close(w, err);
}
