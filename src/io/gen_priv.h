/*
 * gen_priv.h: what the generator's two parts share.  Private to
 * src/io/gen*.c.
 *
 *   gen.c       options, the plan all ranks share, writing the file
 *   gen_rank.c  the regions and building one rank's calls
 *   gen_out.c   the other formats: native traces, per-rank HDF5, JSON
 *
 * The PRNG lives here as inline functions: xoshiro256** seeded through
 * splitmix64, integer only, the same on every machine.
 */
#ifndef SCOPEVIEW_IO_GEN_PRIV_H
#define SCOPEVIEW_IO_GEN_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "scopeview/gen.h"

#define GEN_NONE UINT32_MAX

/* Where the run's metadata goes (the writer's /metadata, a JSON object). */
struct gen_meta {
	int (*num)(void *ctx, const char *key, int64_t v, struct sv_error *err);
	int (*str)(void *ctx, const char *key, const char *v,
		struct sv_error *err);
	int (*strs)(void *ctx, const char *key, const char *const *v, size_t n,
		struct sv_error *err);
	void *ctx;
};
/* The metadata of a generated run (gen.c), key by key. */
int sv_gen_metadata(const struct sv_gen_opts *o, const struct gen_meta *m,
	struct sv_error *err);
/* sv_gen_write for every format but SV_GEN_HDF5 (gen_out.c). */
int sv_gen_write_other(const char *path, const struct sv_gen_opts *o,
	sv_gen_progress_fn progress, void *ctx, struct sv_error *err);

/* ------------------------------------------------------------------ */
/* PRNG */

struct gen_rng {
	uint64_t s[4];
};

static inline uint64_t gen_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline void gen_rng_seed(
	struct gen_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);
	int i;
	for (i = 0; i < 4; i++)
		r->s[i] = gen_splitmix(&x);
}

static inline uint64_t gen_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t gen_next(struct gen_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = gen_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = gen_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n) (n > 0). */
static inline uint64_t gen_below(struct gen_rng *r, uint64_t n)
{
	return (uint64_t)(((sv_i128)gen_next(r) * n) >> 64);
}

/* Uniform in [lo, hi]. */
static inline int64_t gen_range(struct gen_rng *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)gen_below(r, (uint64_t)(hi - lo) + 1);
}

/* A duration around mean ns: uniform in [mean/2, 3mean/2), and one call
 * in 25 two to four times longer (the tail every real profile has). */
static inline int64_t gen_dur(struct gen_rng *r, int64_t mean)
{
	int64_t d = mean * (512 + (int64_t)gen_below(r, 1024)) / 1024;
	if (gen_below(r, 25) == 0)
		d *= 2 + (int64_t)gen_below(r, 3);
	return d > 1 ? d : 1;
}

/* ------------------------------------------------------------------ */
/* The plan */

/* Mean durations (ns). */
#define MEAN_KASM     3000
#define MEAN_SPMV     4000
#define MEAN_FIB_LEAF 600
#define IO_SPAN       900000
#define FINALIZE_SPAN 400000

struct gen_plan {
	int64_t t0;          /* main starts */
	int64_t steps0;      /* first timestep starts */
	int64_t period;      /* ns per timestep (without io) */
	int64_t run_end;     /* main ends (about) */
	uint64_t steps;      /* timesteps */
	uint64_t fib_calls;  /* calls of the recursion */
	uint64_t head;       /* main, setup, fib, finalize */
	int64_t imb_milli;   /* 1000 * imbalance */
	int64_t precond_pct; /* preconditioner mean, % of kernel time */
	int64_t slow_milli;  /* 1000 * --slow-region's factor, 1000 = none */
	/* The compute kernels' mean durations (ns): MEAN_KASM and
	 * MEAN_SPMV, scaled by --strong-scaling. */
	int64_t mean_kasm, mean_spmv;
	int64_t slowdown_milli; /* 1000 * --slowdown's factor, 1000 = none */
};

/* The index (enum gen_region in gen_rank.c) of a region --slow-region
 * may name, or -1. */
int sv_gen_slow_index(const char *name);

uint32_t sv_gen_lane_weight_total(const struct sv_gen_opts *o);

/* Calls of the main thread of a rank with `events` calls. */
uint64_t sv_gen_main_budget(const struct sv_gen_opts *o, uint64_t events);

void sv_gen_kernel_split(const struct gen_plan *p, uint64_t budget, uint64_t s,
	uint64_t *ka, uint64_t *ks);

void sv_gen_plan_make(const struct sv_gen_opts *o, struct gen_plan *p);

int64_t sv_gen_step_start(const struct gen_plan *p, uint64_t s);

#endif
