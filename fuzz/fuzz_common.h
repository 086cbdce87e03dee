/*
 * fuzz_common.h: what the libFuzzer harnesses share (fuzz_common.c):
 * a scratch directory, a small valid profile from the generator, and
 * running a loaded profile through statistics, the summary and every
 * view's layout and draw.
 */
#ifndef SCOPEVIEW_FUZZ_COMMON_H
#define SCOPEVIEW_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "scopeview/profile.h"

/* A reader of the fuzzer's input: bytes, then zeros once it runs out. */
struct fuzz_in {
	const uint8_t *p;
	size_t n;
};
uint8_t fuzz_u8(struct fuzz_in *in);
uint32_t fuzz_u32(struct fuzz_in *in);
uint64_t fuzz_u64(struct fuzz_in *in);

/* A path in the harness's scratch directory (made once; static buffer
 * per call site is the caller's). */
void fuzz_path(char *buf, size_t n, const char *name);

/* Write a small generated profile to path: ranks, threads per rank,
 * tasks per thread, events in all, with GPU and await columns. */
void fuzz_gen(const char *path, uint32_t ranks, uint32_t threads,
	uint32_t tasks, uint64_t events, uint64_t seed);

/* Statistics and the summary table of p, then every view drawn at w x h
 * after the keys (NULL: only the views' own keys). */
void fuzz_exercise(const struct sv_profile *p, int w, int h, const int *keys,
	size_t nkeys);

#endif
