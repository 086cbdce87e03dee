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

/* Room for one more entry. */
static void wide_room(struct sv_wide *w)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		w->call = sv_xreallocarray(w->call, cap, sizeof *w->call);
		w->value = sv_xreallocarray(w->value, cap, sizeof *w->value);
		w->cap = cap;
	}
}

void sv_wide_append(struct sv_wide *w, uint32_t call, int64_t value)
{
	wide_room(w);
	w->call[w->n] = call;
	w->value[w->n++] = value;
}

struct wide_pair {
	uint32_t call;
	size_t at; /* position appended: the later wins */
	int64_t value;
};

static int wide_pair_cmp(const void *a, const void *b)
{
	const struct wide_pair *x = a, *y = b;
	if (x->call != y->call)
		return x->call < y->call ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

void sv_wide_sort(struct sv_wide *w)
{
	struct wide_pair *v;
	size_t i, k = 0;

	if (w->n < 2)
		return;
	v = sv_xmalloc(w->n * sizeof *v);
	for (i = 0; i < w->n; i++)
		v[i] = (struct wide_pair){w->call[i], i, w->value[i]};
	qsort(v, w->n, sizeof *v, wide_pair_cmp);
	for (i = 0; i < w->n; i++) {
		if (i + 1 < w->n && v[i + 1].call == v[i].call)
			continue; /* a later value of the same call follows */
		w->call[k] = v[i].call;
		w->value[k++] = v[i].value;
	}
	w->n = k;
	free(v);
}

void sv_wide_set(struct sv_wide *w, uint32_t call, int64_t value)
{
	size_t at =
		w->n && w->call[w->n - 1] < call ? w->n : wide_lower(w, call);

	if (at < w->n && w->call[at] == call) {
		w->value[at] = value;
		return;
	}
	wide_room(w);
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
