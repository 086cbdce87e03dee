/*
 * stats_sort.c: the figure keys of the statistics (stats.h: their names
 * and help), a figure by key, and the table's order by one of them, with
 * scope-profiler's ties (the display order of regions breaks them).
 */
#include "stats_priv.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name, *help;
} stats_keys[] = {
#define STATS_KEY_ROW(id, name, help) {name, help},
	SV_STATS_KEY_TABLE(STATS_KEY_ROW)
#undef STATS_KEY_ROW
};

const char *sv_stats_key_name(enum sv_stats_key key)
{
	return (unsigned)key < SV_STATS_KEY_COUNT ? stats_keys[key].name : NULL;
}

const char *sv_stats_key_help(enum sv_stats_key key)
{
	return (unsigned)key < SV_STATS_KEY_COUNT ? stats_keys[key].help : NULL;
}

int sv_stats_key_from_name(const char *name)
{
	int k;
	if (!name)
		return -1;
	for (k = 0; k < SV_STATS_KEY_COUNT; k++)
		if (!strcmp(stats_keys[k].name, name))
			return k;
	return -1;
}

/* ---- sorting -------------------------------------------------------------- */

bool sv_stats_value(
	const struct sv_stats *s, enum sv_stats_key key, double *out)
{
	double v;
	bool has;

	if (!s)
		return false;
	switch (key) {
	case SV_STATS_KEY_START:
		has = s->has_span;
		v = (double)s->first_start_ns;
		break;
	case SV_STATS_KEY_TOTAL:
		has = s->has_total && s->num_calls > 0;
		v = (double)s->total_ns;
		break;
	case SV_STATS_KEY_CALLS:
		has = true;
		v = (double)s->num_calls;
		break;
	case SV_STATS_KEY_AVG:
		has = s->has_dist;
		v = s->mean_ns;
		break;
	case SV_STATS_KEY_MIN:
		has = s->has_dist;
		v = (double)s->min_ns;
		break;
	case SV_STATS_KEY_MAX:
		has = s->has_dist;
		v = (double)s->max_ns;
		break;
	case SV_STATS_KEY_FIRST:
		has = s->has_first_last;
		v = (double)s->first_ns;
		break;
	case SV_STATS_KEY_LAST:
		has = s->has_first_last;
		v = (double)s->last_ns;
		break;
	case SV_STATS_KEY_STD:
		has = s->has_std;
		v = s->std_ns;
		break;
	case SV_STATS_KEY_P50:
		has = s->has_percentiles;
		v = s->p50_ns;
		break;
	case SV_STATS_KEY_P95:
		has = s->has_percentiles;
		v = s->p95_ns;
		break;
	case SV_STATS_KEY_P99:
		has = s->has_percentiles;
		v = s->p99_ns;
		break;
	case SV_STATS_KEY_EXCLUSIVE:
		has = s->has_exclusive && s->num_calls > 0;
		v = (double)s->exclusive_ns;
		break;
	default:
		return false;
	}
	if (has && out)
		*out = v;
	return has;
}

struct stats_sort_item {
	double v;
	bool has;
	int64_t start;
	const char *name;
	uint32_t base;
	size_t pos;
};

static int stats_sort_name(
	const struct stats_sort_item *x, const struct stats_sort_item *y)
{
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return (x->base > y->base) - (x->base < y->base);
}

static int stats_sort_cmp_start(const void *a, const void *b)
{
	const struct stats_sort_item *x = a, *y = b;
	double sx = sv_stats_secs(x->start), sy = sv_stats_secs(y->start);

	if (sx != sy)
		return sx < sy ? -1 : 1;
	return (x->base > y->base) - (x->base < y->base);
}

static int stats_sort_cmp_name(const void *a, const void *b)
{
	return stats_sort_name(a, b);
}

static int stats_sort_cmp_desc(const void *a, const void *b)
{
	const struct stats_sort_item *x = a, *y = b;
	if (x->has != y->has)
		return x->has ? -1 : 1;
	if (x->has && x->v != y->v)
		return x->v > y->v ? -1 : 1;
	return stats_sort_name(x, y);
}

void sv_stats_table_sort(struct sv_stats_table *t, enum sv_stats_key key)
{
	struct stats_sort_item *it;
	struct sv_stats_region *out;
	size_t i;

	if (!t || (unsigned)key >= SV_STATS_KEY_COUNT || t->nregions == 0) {
		if (t && (unsigned)key < SV_STATS_KEY_COUNT)
			t->sorted_by = key;
		return;
	}
	it = sv_xmalloc(t->nregions * sizeof *it);
	for (i = 0; i < t->nregions; i++) {
		const struct sv_stats_region *g = &t->regions[i];
		it[i].pos = i;
		it[i].name = g->name;
		it[i].base = g->region;
		it[i].start = g->order_start_ns;
		it[i].v = 0;
		if (key == SV_STATS_KEY_IMBALANCE) {
			it[i].has = true;
			it[i].v = g->rank_imbalance_pct;
		} else {
			it[i].has = sv_stats_value(&g->s, key, &it[i].v);
		}
	}
	qsort(it, t->nregions, sizeof *it,
		key == SV_STATS_KEY_START  ? stats_sort_cmp_start
		: key == SV_STATS_KEY_NAME ? stats_sort_cmp_name
					   : stats_sort_cmp_desc);
	out = sv_xmalloc(t->nregions * sizeof *out);
	for (i = 0; i < t->nregions; i++)
		out[i] = t->regions[it[i].pos];
	free(t->regions);
	t->regions = out;
	t->sorted_by = key;
	free(it);
}
