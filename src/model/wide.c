/*
 * wide.c: the exception table of a narrow per-call column (wide.h).
 */
#include "scopeview/wide.h"

#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"

/* The first position whose call is >= call. */
static size_t wide_lower(const struct sv_wide *w, uint32_t call)
{
	size_t lo = 0, hi = w->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w->call[mid] < call)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void sv_wide_set(struct sv_wide *w, uint32_t call, int64_t value)
{
	size_t at =
		w->n && w->call[w->n - 1] < call ? w->n : wide_lower(w, call);

	if (at < w->n && w->call[at] == call) {
		w->value[at] = value;
		return;
	}
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		w->call = sv_xreallocarray(w->call, cap, sizeof *w->call);
		w->value = sv_xreallocarray(w->value, cap, sizeof *w->value);
		w->cap = cap;
	}
	memmove(w->call + at + 1, w->call + at, (w->n - at) * sizeof *w->call);
	memmove(w->value + at + 1, w->value + at,
		(w->n - at) * sizeof *w->value);
	w->call[at] = call;
	w->value[at] = value;
	w->n++;
}

bool sv_wide_find(const struct sv_wide *w, uint32_t call, int64_t *out)
{
	size_t at;

	if (!w || !w->n)
		return false;
	at = wide_lower(w, call);
	if (at == w->n || w->call[at] != call)
		return false;
	*out = w->value[at];
	return true;
}

void sv_wide_fini(struct sv_wide *w)
{
	free(w->call);
	free(w->value);
	memset(w, 0, sizeof *w);
}
