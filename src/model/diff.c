/*
 * diff.c: two statistics tables compared region by region (diff.h).
 *
 * Regions are matched by name through a sorted index of B's names, so a
 * comparison costs O((n + m) log m) for n and m regions, whatever the
 * number of calls: every figure comes from the tables as they are.
 */
#include "scopeview/diff.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	enum sv_stats_key key;
	bool time;
	const char *help;
} diff_metrics[] = {
#define SV_DIFF_METRIC_ROW(id, name, key, time, help) {name, key, time, help},
	SV_DIFF_METRIC_TABLE(SV_DIFF_METRIC_ROW)
#undef SV_DIFF_METRIC_ROW
};

const char *sv_diff_metric_name(enum sv_diff_metric m)
{
	return (unsigned)m < SV_DIFF_METRIC_COUNT ? diff_metrics[m].name : NULL;
}

const char *sv_diff_metric_help(enum sv_diff_metric m)
{
	return (unsigned)m < SV_DIFF_METRIC_COUNT ? diff_metrics[m].help : NULL;
}

bool sv_diff_metric_is_time(enum sv_diff_metric m)
{
	return (unsigned)m < SV_DIFF_METRIC_COUNT && diff_metrics[m].time;
}

int sv_diff_metric_from_name(const char *name)
{
	int m;
	for (m = 0; name && m < SV_DIFF_METRIC_COUNT; m++)
		if (!strcmp(diff_metrics[m].name, name))
			return m;
	return -1;
}

int sv_diff_metric_of_key(enum sv_stats_key key)
{
	int m;
	for (m = 0; m < SV_DIFF_METRIC_COUNT; m++)
		if (diff_metrics[m].key == key)
			return m;
	return -1;
}

int sv_diff_level(bool has_a, double a, bool has_b, double b)
{
	double pct;
	if (!has_a && !has_b)
		return 0;
	if (!has_a)
		return 2;
	if (!has_b)
		return -2;
	if (a == 0)
		return b > 0 ? 2 : b < 0 ? -2 : 0;
	pct = (b - a) / fabs(a) * 100.0;
	if (pct >= 10)
		return 2;
	if (pct >= 1)
		return 1;
	if (pct <= -10)
		return -2;
	if (pct <= -1)
		return -1;
	return 0;
}

int sv_diff_sort_from_name(const char *name)
{
	if (!name)
		return -1;
	if (!strcmp(name, "delta"))
		return SV_DIFF_SORT_DELTA;
	if (!strcmp(name, "pct"))
		return SV_DIFF_SORT_PCT;
	if (!strcmp(name, "name"))
		return SV_DIFF_SORT_NAME;
	return -1;
}

bool sv_diff_value(
	const struct sv_stats_region *r, enum sv_diff_metric m, double *out)
{
	if (!r || (unsigned)m >= SV_DIFF_METRIC_COUNT)
		return false;
	if (m == SV_DIFF_IMBALANCE) {
		*out = r->rank_imbalance_pct;
		return true;
	}
	return sv_stats_value(&r->s, diff_metrics[m].key, out);
}

bool sv_diff_row_regressed(const struct sv_diff_row *row, double pct)
{
	if (!row->has_delta || !(row->delta > 0))
		return false;
	return row->has_pct ? row->pct > pct : true;
}

/* ---- matching -------------------------------------------------------------- */

static int diff_cmp_region_name(const void *x, const void *y)
{
	const struct sv_stats_region *const *a = x, *const *b = y;
	return strcmp((*a)->name, (*b)->name);
}

/* The regions of t with calls, sorted by name (malloc'd, *n of them). */
static const struct sv_stats_region **diff_index(
	const struct sv_stats_table *t, size_t *n)
{
	const struct sv_stats_region **v =
		sv_xmalloc((t->nregions ? t->nregions : 1) * sizeof *v);
	size_t i, k = 0;

	for (i = 0; i < t->nregions; i++)
		if (t->regions[i].s.num_calls > 0 && t->regions[i].name)
			v[k++] = &t->regions[i];
	qsort(v, k, sizeof *v, diff_cmp_region_name);
	*n = k;
	return v;
}

static const struct sv_stats_region *diff_find(
	const struct sv_stats_region **v, size_t n, const char *name)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(v[mid]->name, name);
		if (c == 0)
			return v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void diff_side(struct sv_diff_side *s, const struct sv_stats_region *r,
	enum sv_diff_metric m)
{
	s->r = r;
	s->v = 0;
	s->has = sv_diff_value(r, m, &s->v);
}

static void diff_push(struct sv_diff_row **v, size_t *n, size_t *cap,
	const struct sv_diff_row *row)
{
	sv_grow((void **)v, cap, *n + 1, sizeof **v);
	(*v)[(*n)++] = *row;
}

/* ---- order ----------------------------------------------------------------- */

static int diff_cmp_name(const void *x, const void *y)
{
	const struct sv_diff_row *a = x, *b = y;
	return strcmp(a->name, b->name);
}

/* Descending by a figure, rows without it last, ties by name. */
static int diff_cmp_desc(bool ha, double va, bool hb, double vb,
	const struct sv_diff_row *a, const struct sv_diff_row *b)
{
	if (ha != hb)
		return ha ? -1 : 1;
	if (ha && va != vb)
		return va > vb ? -1 : 1;
	return diff_cmp_name(a, b);
}

static int diff_cmp_delta(const void *x, const void *y)
{
	const struct sv_diff_row *a = x, *b = y;
	return diff_cmp_desc(
		a->has_delta, a->delta, b->has_delta, b->delta, a, b);
}

static int diff_cmp_pct(const void *x, const void *y)
{
	const struct sv_diff_row *a = x, *b = y;
	return diff_cmp_desc(a->has_pct, a->pct, b->has_pct, b->pct, a, b);
}

/* ---- the comparison -------------------------------------------------------- */

int sv_diff_compute(struct sv_diff *d, const struct sv_stats_table *a,
	const struct sv_stats_table *b, enum sv_diff_metric m,
	enum sv_diff_sort sort, double threshold_pct, struct sv_error *err)
{
	const struct sv_stats_region **ia, **ib;
	size_t na, nb, i, cap = 0, cap_a = 0, cap_b = 0;
	struct sv_diff out;

	if (!a || !b || (unsigned)m >= SV_DIFF_METRIC_COUNT)
		return sv_error_set(err, -EINVAL, "diff: no tables or metric");
	if (sort != SV_DIFF_SORT_DELTA && sort != SV_DIFF_SORT_PCT &&
		sort != SV_DIFF_SORT_NAME)
		return sv_error_set(err, -EINVAL, "diff: unknown sort");
	if (!(threshold_pct >= 0))
		return sv_error_set(err, -EINVAL,
			"diff: the threshold must be a percentage >= 0");
	memset(&out, 0, sizeof out);
	out.metric = m;
	ia = diff_index(a, &na);
	ib = diff_index(b, &nb);

	for (i = 0; i < na; i++) {
		struct sv_diff_row row;
		const struct sv_stats_region *rb =
			diff_find(ib, nb, ia[i]->name);
		memset(&row, 0, sizeof row);
		row.name = ia[i]->name;
		diff_side(&row.a, ia[i], m);
		if (!rb) {
			diff_push(&out.only_a, &out.nonly_a, &cap_a, &row);
			continue;
		}
		diff_side(&row.b, rb, m);
		row.has_delta = row.a.has && row.b.has;
		if (row.has_delta) {
			row.delta = row.b.v - row.a.v;
			row.has_pct = row.a.v != 0;
			if (row.has_pct)
				row.pct = row.delta / row.a.v * 100.0;
		}
		if (threshold_pct > 0 && row.has_delta)
			row.hidden = row.has_pct ? fabs(row.pct) < threshold_pct
						 : row.delta == 0;
		out.nhidden += row.hidden;
		diff_push(&out.rows, &out.nrows, &cap, &row);
	}
	for (i = 0; i < nb; i++) {
		struct sv_diff_row row;
		if (diff_find(ia, na, ib[i]->name))
			continue;
		memset(&row, 0, sizeof row);
		row.name = ib[i]->name;
		diff_side(&row.b, ib[i], m);
		diff_push(&out.only_b, &out.nonly_b, &cap_b, &row);
	}
	free(ia);
	free(ib);

	if (out.nrows)
		qsort(out.rows, out.nrows, sizeof *out.rows,
			sort == SV_DIFF_SORT_DELTA ? diff_cmp_delta
			: sort == SV_DIFF_SORT_PCT ? diff_cmp_pct
						   : diff_cmp_name);
	/* only_a and only_b are by name already: the index was. */
	*d = out;
	return 0;
}

void sv_diff_fini(struct sv_diff *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d->only_a);
	free(d->only_b);
	memset(d, 0, sizeof *d);
}
