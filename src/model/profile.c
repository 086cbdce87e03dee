/*
 * profile.c: the columnar profile model: creating and freeing it, the
 * builder calls loaders append regions, rows, columns, metadata and lane
 * tables through, and the accessors everyone reads it with.
 *
 * sv_profile_finish() (profile_finish.c) then groups calls into lanes
 * (profile_lanes.c) and rebuilds the nesting.
 *
 * Nothing here reads files or knows about HDF5, layout or terminals.
 */
#include "profile_priv.h"
#include "scopeview/profile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/strv.h"

struct sv_profile *sv_profile_new(const char *path)
{
	struct sv_profile *p = sv_xcalloc(1, sizeof *p);
	p->path = sv_xstrdup(path ? path : "");
	p->has_calls = true;
	return p;
}

struct sv_profile *sv_profile_ref(struct sv_profile *p)
{
	atomic_fetch_add(&p->refs, 1);
	return p;
}

void sv_profile_free(struct sv_profile *p)
{
	size_t i;
	int id;

	if (!p)
		return;
	if (atomic_fetch_sub(&p->refs, 1) != 0)
		return; /* another owner still holds it */
	sv_profile_free(p->run);
	free(p->path);
	sv_strv_free_array(p->regions, p->nregions);
	for (i = 0; i < p->nrows; i++) {
		free(p->rows[i].source_file);
		free(p->rows[i].source_text);
		sv_strv_free_array(p->rows[i].tags, p->rows[i].ntags);
	}
	free(p->rows);
	free(p->start_ns);
	sv_packed_fini(&p->start_pk);
	free(p->end_ns);
	free(p->dur);
	sv_wide_fini(&p->dur_wide);
	sv_packed_fini(&p->dur_pk);
	free(p->row_first);
	free(p->gpu_ns);
	sv_packed_fini(&p->gpu_pk);
	free(p->call_id);
	free(p->parent_id);
	free(p->thread_id);
	free(p->task_id);
	for (id = 0; id < SV_ID_COLUMNS; id++)
		sv_packed_fini(&p->ids[id]);
	sv_wide_fini(&p->parent_id_wide);
	free(p->await_ns);
	sv_packed_fini(&p->await_pk);
	for (i = 0; i < p->ncolumns; i++) {
		free(p->columns[i].name);
		free(p->columns[i].i);
		free(p->columns[i].f);
	}
	free(p->columns);
	free(p->call_meta);
	free(p->meta_arena);
	for (i = 0; i < p->ncounters; i++) {
		struct sv_counters *k = &p->counters[i];
		free(k->region);
		free(k->group);
		sv_strv_free_array(k->events, k->nevents);
		free(k->values);
		sv_strv_free_array(k->metrics, k->nmetrics);
		free(k->metric_values);
	}
	free(p->counters);
	for (i = 0; i < p->nlineprofs; i++) {
		struct sv_line_profile *l = &p->lineprofs[i];
		free(l->region);
		free(l->filename);
		free(l->function);
		free(l->source);
		free(l->line);
		free(l->hits);
		free(l->time);
	}
	free(p->lineprofs);
	sv_strv_free_array(p->unshown, p->nunshown);
	for (i = 0; i < p->nnodes; i++) {
		free(p->nodes[i].path);
		free(p->nodes[i].what);
	}
	free(p->nodes);
	free(p->depth);
	free(p->parent);
	if (!p->exclusive_in_parent)
		free(p->exclusive);
	sv_packed_fini(&p->depth_pk);
	sv_packed_fini(&p->parent_pk);
	sv_packed_fini(&p->children_pk);
	sv_wide_fini(&p->exclusive_wide);
	sv_wide_fini(&p->depth_wide);
	free(p->lane_of);
	sv_packed_fini(&p->lane_pk);
	free(p->row_lane);
	for (i = 0; i < p->nlanes; i++) {
		free(p->lanes[i].calls);
		sv_packed_fini(&p->lanes[i].callpk);
		free(p->lanes[i].label);
	}
	free(p->lanes);
	for (i = 0; i < p->nmeta; i++) {
		free(p->meta[i].key);
		free(p->meta[i].text);
		sv_strv_free_array(p->meta[i].strs, p->meta[i].nstrs);
	}
	free(p->meta);
	for (i = 0; i < p->nthreads; i++)
		free(p->threads[i].name);
	free(p->threads);
	for (i = 0; i < p->ntasks; i++) {
		free(p->tasks[i].kind);
		free(p->tasks[i].name);
		free(p->tasks[i].coro_name);
	}
	free(p->tasks);
	free(p->region_pos);
	free(p->region_first);
	free(p->thread_order);
	free(p->task_order);
	sv_strv_free_array(p->warnings, p->nwarnings);
	free(p);
}

void sv_profile_warn(struct sv_profile *p, const char *fmt, ...)
{
	va_list ap;
	sv_grow((void **)&p->warnings, &p->warn_cap, p->nwarnings + 1,
		sizeof *p->warnings);
	va_start(ap, fmt);
	p->warnings[p->nwarnings++] = sv_xvasprintf(fmt, ap);
	va_end(ap);
}

struct sv_profile *sv_profile_run_new(const struct sv_profile *p)
{
	struct sv_profile *run = sv_profile_new(p->path);

	run->layout = p->layout;
	run->schema = p->schema;
	run->has_calls = false;
	return run;
}

bool sv_profile_run_add(struct sv_profile *run, uint32_t rank, uint32_t region,
	uint64_t count, const struct sv_summary *sum)
{
	struct sv_row *row = sv_profile_add_row(run, rank, region, count, NULL);

	if (!row)
		return false;
	row->has_summary = true;
	row->summary = *sum;
	row->has_gpu = sum->gpu_count > 0;
	return true;
}

struct sv_profile *sv_profile_stored_run(const struct sv_profile *p)
{
	struct sv_profile *run;
	size_t i;

	for (i = 0; i < p->nrows; i++)
		if (!p->rows[i].has_summary)
			return NULL;
	run = sv_profile_run_new(p);
	for (i = 0; i < p->nrows; i++) {
		const struct sv_row *src = &p->rows[i];
		if (!sv_profile_run_add(run, src->rank, src->region, src->count,
			    &src->summary)) {
			sv_profile_free(run);
			return NULL;
		}
		run->rows[i].exclusive_total = src->exclusive_total;
	}
	sv_profile_run_finish(run, p);
	return run;
}

void sv_profile_run_finish(struct sv_profile *run, const struct sv_profile *p)
{
	size_t i;

	for (i = 0; i < p->nregions; i++)
		sv_profile_add_region(run, p->regions[i]);
	run->num_ranks = p->num_ranks;
	run->has_start_time = p->has_start_time;
	run->start_time_ns = p->start_time_ns;
	run->has_finalize_time = p->has_finalize_time;
	run->finalize_time_ns = p->finalize_time_ns;
	(void)sv_profile_finish(run, NULL);
}

uint32_t sv_profile_add_region(struct sv_profile *p, const char *name)
{
	sv_grow((void **)&p->regions, &p->region_cap, (size_t)p->nregions + 1,
		sizeof *p->regions);
	p->regions[p->nregions] = sv_utf8_sanitize(name, strlen(name));
	return p->nregions++;
}

int64_t sv_profile_find_region(const struct sv_profile *p, const char *name)
{
	uint32_t i;
	for (i = 0; i < p->nregions; i++)
		if (!strcmp(p->regions[i], name))
			return i;
	return -1;
}

static void profile_resize_calls(struct sv_profile *p, size_t cap)
{
	size_t i;
	p->start_ns = sv_xreallocarray(p->start_ns, cap, sizeof(int64_t));
	p->end_ns = sv_xreallocarray(p->end_ns, cap, sizeof(int64_t));
	for (i = 0; i < p->noptional; i++)
		*p->optional[i].col = sv_xreallocarray(
			*p->optional[i].col, cap, sizeof(int64_t));
	p->call_cap = cap;
}

void sv_profile_reserve_calls(struct sv_profile *p, uint64_t n)
{
	if (n > SV_MAX_CALLS)
		n = SV_MAX_CALLS;
	if (n > p->call_cap)
		profile_resize_calls(p, (size_t)n);
}

struct sv_row *sv_profile_add_row(struct sv_profile *p, uint32_t rank,
	uint32_t region, uint64_t count, struct sv_error *err)
{
	struct sv_row *r;
	uint64_t calls = p->has_calls ? count : 0;
	size_t i, c, old_cap;

	if ((uint64_t)p->ncalls + calls > SV_MAX_CALLS) {
		sv_error_set(err, -E2BIG,
			"%s: more than %" PRIu64
			" calls; scopeview cannot hold "
			"this profile",
			p->path, (uint64_t)SV_MAX_CALLS);
		return NULL;
	}
	if (p->nrows >= UINT32_MAX) {
		sv_error_set(err, -E2BIG, "%s: too many index rows", p->path);
		return NULL;
	}
	old_cap = p->row_cap;
	sv_grow((void **)&p->rows, &p->row_cap, p->nrows + 1, sizeof *p->rows);
	if (p->row_cap != old_cap || !p->row_first)
		p->row_first = sv_xreallocarray(
			p->row_first, p->row_cap, sizeof *p->row_first);
	p->row_first[p->nrows] = p->ncalls;
	r = &p->rows[p->nrows];
	memset(r, 0, sizeof *r);
	r->rank = rank;
	r->region = region;
	r->first = p->ncalls;
	r->count = count;
	r->source_line = -1;
	r->exclusive_total = -1;
	if (calls) {
		size_t need = (size_t)p->ncalls + (size_t)calls;
		if (need > p->call_cap) {
			size_t cap = p->call_cap ? p->call_cap : 1024;
			while (cap < need)
				cap = cap > SIZE_MAX / 2 ? need : cap * 2;
			profile_resize_calls(p, cap);
		}
		for (i = 0; i < p->noptional; i++)
			for (c = p->ncalls; c < need; c++)
				(*p->optional[i].col)[c] = p->optional[i].fill;
		p->ncalls = (uint32_t)need;
	}
	p->nrows++;
	return r;
}

int64_t *sv_profile_column(struct sv_profile *p, int64_t **col, int64_t fill)
{
	size_t c;
	if (*col)
		return *col;
	if (p->noptional >= sizeof p->optional / sizeof p->optional[0])
		sv_die("too many optional columns");
	*col = sv_xmalloc((p->call_cap ? p->call_cap : 1) * sizeof(int64_t));
	for (c = 0; c < p->ncalls; c++)
		(*col)[c] = fill;
	p->optional[p->noptional].col = col;
	p->optional[p->noptional].fill = fill;
	p->noptional++;
	return *col;
}

void sv_profile_drop_column(struct sv_profile *p, int64_t **col)
{
	size_t i;

	for (i = 0; i < p->noptional; i++)
		if (p->optional[i].col == col) {
			p->optional[i] = p->optional[--p->noptional];
			break;
		}
	free(*col);
	*col = NULL;
}

void sv_profile_drop_extra(struct sv_profile *p)
{
	struct sv_column *c;

	if (!p->ncolumns)
		return;
	c = &p->columns[--p->ncolumns];
	free(c->name);
	free(c->i);
	free(c->f);
}

struct sv_column *sv_profile_add_extra(
	struct sv_profile *p, const char *name, bool is_float)
{
	struct sv_column *c;
	p->columns = sv_xreallocarray(
		p->columns, p->ncolumns + 1, sizeof *p->columns);
	c = &p->columns[p->ncolumns++];
	c->name = sv_utf8_sanitize(name, strlen(name));
	c->is_float = is_float;
	c->i = is_float ? NULL : sv_xcalloc(p->ncalls, sizeof(int64_t));
	c->f = is_float ? sv_xcalloc(p->ncalls, sizeof(double)) : NULL;
	return c;
}

struct sv_meta *sv_profile_add_meta(
	struct sv_profile *p, const char *key, enum sv_meta_kind kind)
{
	struct sv_meta *m;
	sv_grow((void **)&p->meta, &p->meta_cap, p->nmeta + 1, sizeof *p->meta);
	m = &p->meta[p->nmeta++];
	memset(m, 0, sizeof *m);
	m->key = sv_utf8_sanitize(key, strlen(key));
	m->kind = kind;
	return m;
}

const struct sv_meta *sv_profile_meta(
	const struct sv_profile *p, const char *key)
{
	size_t i;
	for (i = 0; i < p->nmeta; i++)
		if (!strcmp(p->meta[i].key, key))
			return &p->meta[i];
	return NULL;
}

struct sv_thread *sv_profile_add_thread(struct sv_profile *p)
{
	struct sv_thread *t;
	sv_grow((void **)&p->threads, &p->thread_cap, p->nthreads + 1,
		sizeof *p->threads);
	t = &p->threads[p->nthreads++];
	memset(t, 0, sizeof *t);
	t->start_ns = t->end_ns = t->cpu_ns = -1;
	return t;
}

struct sv_task *sv_profile_add_task(struct sv_profile *p)
{
	struct sv_task *t;
	sv_grow((void **)&p->tasks, &p->task_cap, p->ntasks + 1,
		sizeof *p->tasks);
	t = &p->tasks[p->ntasks++];
	memset(t, 0, sizeof *t);
	t->thread_index = t->created_ns = t->done_ns = -1;
	return t;
}

/* Binary search of order[0 .. n) (positions sorted by (rank, index, position))
 * for the first item equal to (rank, index); pair(base, i, &r, &x) reads
 * item i.  SIZE_MAX when absent. */
static size_t profile_find(const void *base, const uint32_t *order, size_t n,
	uint32_t rank, int64_t index,
	void (*pair)(const void *, uint32_t, uint32_t *, int64_t *))
{
	size_t lo = 0, hi = n;
	uint32_t r;
	int64_t x;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		pair(base, order[mid], &r, &x);
		if (r < rank || (r == rank && x < index))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n)
		return SIZE_MAX;
	pair(base, order[lo], &r, &x);
	return r == rank && x == index ? order[lo] : SIZE_MAX;
}

static void profile_thread_pair(
	const void *base, uint32_t i, uint32_t *rank, int64_t *index)
{
	const struct sv_thread *t = (const struct sv_thread *)base + i;
	*rank = t->rank;
	*index = t->index;
}

static void profile_task_pair(
	const void *base, uint32_t i, uint32_t *rank, int64_t *index)
{
	const struct sv_task *t = (const struct sv_task *)base + i;
	*rank = t->rank;
	*index = t->index;
}

const struct sv_thread *sv_profile_thread(
	const struct sv_profile *p, uint32_t rank, int64_t index)
{
	size_t i;
	if (p->thread_order) {
		i = profile_find(p->threads, p->thread_order, p->nthreads, rank,
			index, profile_thread_pair);
		return i == SIZE_MAX ? NULL : &p->threads[i];
	}
	for (i = 0; i < p->nthreads; i++)
		if (p->threads[i].rank == rank && p->threads[i].index == index)
			return &p->threads[i];
	return NULL;
}

const struct sv_task *sv_profile_task(
	const struct sv_profile *p, uint32_t rank, int64_t index)
{
	size_t i;
	if (p->task_order) {
		i = profile_find(p->tasks, p->task_order, p->ntasks, rank,
			index, profile_task_pair);
		return i == SIZE_MAX ? NULL : &p->tasks[i];
	}
	for (i = 0; i < p->ntasks; i++)
		if (p->tasks[i].rank == rank && p->tasks[i].index == index)
			return &p->tasks[i];
	return NULL;
}

struct profile_order_ctx {
	const void *base;
	void (*pair)(const void *, uint32_t, uint32_t *, int64_t *);
};

/* qsort_r comparator over positions: (rank, index, position). */
static int profile_order_cmp(const void *a, const void *b, void *arg)
{
	const struct profile_order_ctx *ctx = arg;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b, ri, rj;
	int64_t xi, xj;
	ctx->pair(ctx->base, i, &ri, &xi);
	ctx->pair(ctx->base, j, &rj, &xj);
	if (ri != rj)
		return ri < rj ? -1 : 1;
	if (xi != xj)
		return xi < xj ? -1 : 1;
	return i < j ? -1 : i > j;
}

static uint32_t *profile_order(const void *base, size_t n,
	void (*pair)(const void *, uint32_t, uint32_t *, int64_t *))
{
	struct profile_order_ctx ctx = {base, pair};
	uint32_t *order = sv_xmalloc((n ? n : 1) * sizeof *order);
	size_t i;
	bool sorted = true;
	for (i = 0; i < n; i++) {
		order[i] = (uint32_t)i;
		if (i && sorted &&
			profile_order_cmp(&order[i - 1], &order[i], &ctx) > 0)
			sorted = false;
	}
	/* The tables come in (rank, index) order from every writer. */
	if (!sorted)
		qsort_r(order, n, sizeof *order, profile_order_cmp, &ctx);
	return order;
}

void sv_profile_index_build(struct sv_profile *p)
{
	free(p->thread_order);
	free(p->task_order);
	p->thread_order =
		profile_order(p->threads, p->nthreads, profile_thread_pair);
	p->task_order = profile_order(p->tasks, p->ntasks, profile_task_pair);
}

void sv_profile_starts(
	const struct sv_profile *p, uint32_t c, size_t n, int64_t *out)
{
	if (p->start_ns)
		memcpy(out, p->start_ns + c, n * sizeof *out);
	else
		sv_packed_get_range(&p->start_pk, c, n, out);
}

void sv_profile_durations(
	const struct sv_profile *p, uint32_t c, size_t n, int64_t *out)
{
	size_t i;

	if (p->dur_pk.n && !p->dur) {
		sv_packed_get_range(&p->dur_pk, c, n, out);
		return;
	}
	if (p->dur) {
		/* Widened in a loop of its own (a vector loop), the few
		 * wide ones looked up after. */
		const uint32_t *d = p->dur + c;
		bool wide = false;
		for (i = 0; i < n; i++) {
			out[i] = d[i];
			wide |= d[i] == SV_WIDE_U32;
		}
		for (i = 0; wide && i < n; i++)
			if (d[i] == SV_WIDE_U32)
				out[i] = sv_call_duration(p, c + (uint32_t)i);
		return;
	}
	for (i = 0; i < n; i++)
		out[i] = sv_call_duration(p, c + (uint32_t)i);
}

void sv_profile_parents(
	const struct sv_profile *p, uint32_t c, size_t n, int64_t *out)
{
	size_t i;

	if (!p->parent) {
		sv_packed_get_range(&p->parent_pk, c, n, out);
		return;
	}
	for (i = 0; i < n; i++)
		out[i] = p->parent[c + i];
}

void sv_profile_exclusives_of(const struct sv_profile *p, uint32_t c, size_t n,
	const int64_t *dur, int64_t *out)
{
	size_t i;

	if (!p->exclusive) {
		int64_t kids[256];
		size_t k, m;
		for (i = 0; i < n; i += m) {
			m = n - i < 256 ? n - i : 256;
			sv_packed_get_range(
				&p->children_pk, c + (uint32_t)i, m, kids);
			for (k = 0; k < m; k++)
				out[i + k] = sv_sub_wrap(dur[i + k], kids[k]);
		}
		return;
	}
	for (i = 0; i < n; i++)
		out[i] = sv_profile_exclusive(p, c + (uint32_t)i);
}

void sv_profile_exclusives(
	const struct sv_profile *p, uint32_t c, size_t n, int64_t *out)
{
	size_t i, m;

	if (p->exclusive) {
		for (i = 0; i < n; i++)
			out[i] = sv_profile_exclusive(p, c + (uint32_t)i);
		return;
	}
	/* The durations into out, then less the children's time. */
	for (i = 0; i < n; i += m) {
		m = n - i < 256 ? n - i : 256;
		sv_profile_durations(p, c + (uint32_t)i, m, out + i);
		sv_profile_exclusives_of(
			p, c + (uint32_t)i, m, out + i, out + i);
	}
}

int64_t sv_profile_min_start(const struct sv_profile *p)
{
	int64_t m = 0;
	bool any = false;
	uint32_t c;
	if (p->has_span)
		return p->span_start_ns;
	for (c = 0; c < p->ncalls; c++) {
		int64_t s = sv_profile_start(p, c);
		if (!any || s < m) {
			m = s;
			any = true;
		}
	}
	return m;
}

int64_t sv_profile_max_end(const struct sv_profile *p)
{
	int64_t m = 0;
	bool any = false;
	uint32_t c;
	if (p->has_span)
		return p->span_end_ns;
	for (c = 0; c < p->ncalls; c++)
		if (!any || sv_profile_end(p, c) > m) {
			m = sv_profile_end(p, c);
			any = true;
		}
	return m;
}

int64_t sv_profile_time_origin(const struct sv_profile *p)
{
	size_t i;
	int64_t m = 0;
	bool any = false;

	if (p->has_start_time)
		return p->start_time_ns;
	if (p->ncalls) {
		m = sv_profile_min_start(p);
		any = true;
	} else {
		for (i = 0; i < p->nrows; i++)
			if (p->rows[i].has_summary && p->rows[i].count &&
				(!any ||
					p->rows[i].summary.start_minimum < m)) {
				m = p->rows[i].summary.start_minimum;
				any = true;
			}
	}
	if (p->rank_subset && p->has_run_start && (!any || p->run_start_ns < m))
		m = p->run_start_ns;
	return m;
}

char *sv_rank_list_text(const bool *on, uint32_t n, size_t max_items)
{
	char *list = sv_xstrdup(""), *joined;
	size_t items = 0;
	uint32_t r, a;

	for (r = 0; r < n; r++) {
		if (!on[r])
			continue;
		for (a = r; r + 1 < n && on[r + 1]; r++)
			;
		if (max_items && items == max_items)
			joined = sv_xasprintf("%s,...", list);
		else if (a == r)
			joined = sv_xasprintf(
				"%s%s%" PRIu32, list, items ? "," : "", a);
		else
			joined = sv_xasprintf("%s%s%" PRIu32 "-%" PRIu32, list,
				items ? "," : "", a, r);
		free(list);
		list = joined;
		if (max_items && items == max_items)
			break;
		items++;
	}
	return list;
}

bool *sv_profile_ranks_held(const struct sv_profile *p, uint32_t *n)
{
	uint32_t m =
		p->file_ranks > p->num_ranks ? p->file_ranks : p->num_ranks;
	bool *held;
	size_t i;

	for (i = 0; i < p->nrows; i++)
		if (p->rows[i].rank >= m)
			m = p->rows[i].rank + 1;
	held = sv_xcalloc(m ? m : 1, sizeof *held);
	for (i = 0; i < p->nrows; i++)
		held[p->rows[i].rank] = true;
	*n = m;
	return held;
}

char *sv_profile_subset_label(const struct sv_profile *p)
{
	bool *on;
	char *list, *label;
	uint32_t n;

	if (!p->rank_subset)
		return NULL;
	on = sv_profile_ranks_held(p, &n); /* n >= num_ranks */
	list = sv_rank_list_text(on, p->num_ranks, 0);
	label = sv_xasprintf(
		"ranks %s of %" PRIu32, *list ? list : "none", p->num_ranks);
	free(list);
	free(on);
	return label;
}
