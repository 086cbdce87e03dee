/*
 * calls.c: call lists by region, sorted by any column (see calls.h).
 * Sorting maps each key to an order-preserving uint64_t and runs the
 * radix sort; absent values get the largest key, so they come last.
 */
#include "scopeview/calls.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"
#include "scopeview/radix.h"

#define CALLS_POLL 65536

static const struct {
	const char *name;
	bool desc;
	const char *help;
} calls_keys[] = {
#define SV_CALLS_KEY_ROW(id, name, desc, help) {name, desc, help},
	SV_CALLS_KEY_TABLE(SV_CALLS_KEY_ROW)
#undef SV_CALLS_KEY_ROW
};

const char *sv_calls_key_name(enum sv_calls_key key)
{
	return (unsigned)key < SV_CALLS_KEY_COUNT ? calls_keys[key].name : NULL;
}

const char *sv_calls_key_help(enum sv_calls_key key)
{
	return (unsigned)key < SV_CALLS_KEY_COUNT ? calls_keys[key].help : NULL;
}

bool sv_calls_key_descending(enum sv_calls_key key)
{
	return (unsigned)key < SV_CALLS_KEY_COUNT && calls_keys[key].desc;
}

int sv_calls_key_from_name(const char *name)
{
	int k;
	if (!name)
		return -1;
	for (k = 0; k < SV_CALLS_KEY_COUNT; k++)
		if (!strcmp(name, calls_keys[k].name))
			return k;
	return -1;
}

static bool calls_cancelled(const atomic_bool *cancel)
{
	return cancel && atomic_load_explicit(cancel, memory_order_relaxed);
}

long sv_calls_of_region(const struct sv_profile *p, uint32_t region,
	const bool *rank_on, uint32_t nrank_on, uint32_t **out,
	const atomic_bool *cancel)
{
	uint64_t n = 0, k = 0, c;
	uint32_t *v;
	size_t i;

	if (!p || !out || region >= p->nregions)
		return -EINVAL;
	*out = NULL;
	if (!p->has_calls)
		return 0;
	for (i = 0; i < p->nrows; i++) {
		const struct sv_row *r = &p->rows[i];
		if (r->region == region &&
			(!rank_on || (r->rank < nrank_on && rank_on[r->rank])))
			n += r->count;
	}
	if (!n)
		return 0;
	v = sv_xmalloc(n * sizeof *v);
	for (i = 0; i < p->nrows; i++) {
		const struct sv_row *r = &p->rows[i];
		if (r->region != region ||
			(rank_on && (r->rank >= nrank_on || !rank_on[r->rank])))
			continue;
		if (calls_cancelled(cancel)) {
			free(v);
			return -ECANCELED;
		}
		for (c = r->first; c < r->first + r->count; c++)
			v[k++] = (uint32_t)c;
	}
	*out = v;
	return (long)k;
}

bool sv_calls_value(const struct sv_profile *p, uint32_t c,
	enum sv_calls_key key, int64_t *out)
{
	switch (key) {
	case SV_CALLS_KEY_DURATION:
		*out = sv_call_duration(p, c);
		return true;
	case SV_CALLS_KEY_START:
		*out = p->start_ns[c];
		return true;
	case SV_CALLS_KEY_END:
		*out = p->end_ns[c];
		return true;
	case SV_CALLS_KEY_RANK:
		*out = sv_call_rank(p, c);
		return true;
	case SV_CALLS_KEY_LANE:
		if (!p->lane_of)
			return false;
		*out = p->lane_of[c];
		return true;
	case SV_CALLS_KEY_EXCLUSIVE:
		if (!p->exclusive)
			return false;
		*out = p->exclusive[c];
		return true;
	case SV_CALLS_KEY_GPU:
		if (!p->gpu_ns || p->gpu_ns[c] < 0)
			return false;
		*out = p->gpu_ns[c];
		return true;
	case SV_CALLS_KEY_AWAIT:
		if (!p->await_ns)
			return false;
		*out = p->await_ns[c];
		return true;
	default:
		return false;
	}
}

int sv_calls_sort(const struct sv_profile *p, uint32_t *calls, size_t n,
	enum sv_calls_key key, bool reverse, const atomic_bool *cancel)
{
	struct sv_radix_kv *a, *tmp;
	bool desc;
	size_t i;

	if (!p || (n && !calls) || (unsigned)key >= SV_CALLS_KEY_COUNT)
		return -EINVAL;
	if (n < 2)
		return 0;
	desc = sv_calls_key_descending(key) != reverse;
	a = sv_xmalloc(n * sizeof *a);
	tmp = sv_xmalloc(n * sizeof *tmp);
	for (i = 0; i < n; i++) {
		int64_t v;
		uint64_t k;
		if ((i & (CALLS_POLL - 1)) == 0 && calls_cancelled(cancel)) {
			free(a);
			free(tmp);
			return -ECANCELED;
		}
		if (sv_calls_value(p, calls[i], key, &v)) {
			k = (uint64_t)v ^ (1ull << 63);
			if (desc)
				k = ~k;
			/* Present values never take the largest key. */
			if (k == UINT64_MAX)
				k--;
		} else {
			k = UINT64_MAX;
		}
		a[i].key = k;
		a[i].value = calls[i];
	}
	if (key == SV_CALLS_KEY_RANK || key == SV_CALLS_KEY_LANE) {
		/* Sort by start first; the stable sort by key keeps it. */
		struct sv_radix_kv *b = sv_xmalloc(n * sizeof *b);
		for (i = 0; i < n; i++) {
			b[i].key =
				(uint64_t)p->start_ns[calls[i]] ^ (1ull << 63);
			b[i].value = (uint32_t)i;
		}
		sv_radix_sort(b, tmp, n);
		for (i = 0; i < n; i++)
			tmp[i] = a[b[i].value];
		memcpy(a, tmp, n * sizeof *a);
		free(b);
	}
	if (calls_cancelled(cancel)) {
		free(a);
		free(tmp);
		return -ECANCELED;
	}
	sv_radix_sort(a, tmp, n);
	for (i = 0; i < n; i++)
		calls[i] = a[i].value;
	free(a);
	free(tmp);
	return 0;
}
