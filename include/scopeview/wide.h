/*
 * wide.h: the exceptions of a narrow per-call column.
 *
 * A per-call column of the model (profile.h) that is almost always small
 * is stored in 32 bits; the rare call whose value does not fit keeps a
 * marker there and its full int64 value here, in a table sorted by call
 * number and searched in O(log n).  The narrowing helpers below do both:
 * they return what to store and add the exception when it is needed.
 */
#ifndef SCOPEVIEW_WIDE_H
#define SCOPEVIEW_WIDE_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/wide.h belongs to the model layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The marker of an int32 column, of a uint32 one and of a uint8 one. */
#define SV_WIDE_I32 INT32_MIN
#define SV_WIDE_U32 UINT32_MAX
#define SV_WIDE_U8  UINT8_MAX

struct sv_wide {
	uint32_t *call; /* ascending */
	int64_t *value;
	size_t n, cap;
};

/* Record value for call (replacing an earlier value of the same call).
 * O(1) when calls come in ascending order, as a pass over the calls
 * gives them. */
void sv_wide_set(struct sv_wide *w, uint32_t call, int64_t value);
/* Add (call, value) at the end, O(1), in any order: for a table filled
 * out of call order (the nesting's pops, its workers' tables merged).
 * sv_wide_sort must order it before it is searched. */
void sv_wide_append(struct sv_wide *w, uint32_t call, int64_t value);
/* Order an appended table by call (the last value of a call appended
 * twice wins), O(n log n). */
void sv_wide_sort(struct sv_wide *w);
/* The value of call; false (and *out untouched) when it has none. */
bool sv_wide_find(const struct sv_wide *w, uint32_t call, int64_t *out);
/* Free the table and empty it. */
void sv_wide_fini(struct sv_wide *w);

/* What a narrow column holds for call, given the value stored there and
 * whether it is the column's marker: the stored value, or the one of
 * the table (0 for a marker without an exception, which only a damaged
 * table would hold). */
static inline int64_t sv_wide_value(
	const struct sv_wide *w, uint32_t call, int64_t stored, bool marker)
{
	if (marker && !sv_wide_find(w, call, &stored))
		stored = 0;
	return stored;
}

/* v as an int32 column stores it: v itself, or SV_WIDE_I32 with v added
 * to w. */
static inline int32_t sv_wide_i32(struct sv_wide *w, uint32_t call, int64_t v)
{
	if (v > INT32_MIN && v <= INT32_MAX)
		return (int32_t)v;
	sv_wide_set(w, call, v);
	return SV_WIDE_I32;
}
/* sv_wide_i32 for a table filled out of order (sv_wide_append). */
static inline int32_t sv_wide_i32_append(
	struct sv_wide *w, uint32_t call, int64_t v)
{
	if (v > INT32_MIN && v <= INT32_MAX)
		return (int32_t)v;
	sv_wide_append(w, call, v);
	return SV_WIDE_I32;
}
static inline int64_t sv_wide_get_i32(
	const struct sv_wide *w, const int32_t *col, uint32_t call)
{
	return sv_wide_value(w, call, col[call], col[call] == SV_WIDE_I32);
}

/* v as a uint32 column stores it: v itself, or SV_WIDE_U32 with v added
 * to w (v negative or at least SV_WIDE_U32). */
static inline uint32_t sv_wide_u32(struct sv_wide *w, uint32_t call, int64_t v)
{
	if (v >= 0 && v < SV_WIDE_U32)
		return (uint32_t)v;
	sv_wide_set(w, call, v);
	return SV_WIDE_U32;
}
/* v (not negative) as a uint8 column stores it, for a table filled out
 * of order (sv_wide_append): v itself, or SV_WIDE_U8 with v added to
 * w. */
static inline uint8_t sv_wide_u8_append(
	struct sv_wide *w, uint32_t call, int64_t v)
{
	bool wide = v < 0 || v >= SV_WIDE_U8;
	if (wide)
		sv_wide_append(w, call, v);
	return wide ? SV_WIDE_U8 : (uint8_t)v;
}
static inline int64_t sv_wide_get_u8(
	const struct sv_wide *w, const uint8_t *col, uint32_t call)
{
	return sv_wide_value(w, call, col[call], col[call] == SV_WIDE_U8);
}
static inline int64_t sv_wide_get_u32(
	const struct sv_wide *w, const uint32_t *col, uint32_t call)
{
	return sv_wide_value(w, call, col[call], col[call] == SV_WIDE_U32);
}

#endif
