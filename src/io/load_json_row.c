/*
 * load_json_row.c: a row of a JSON profile's regions list into the
 * profile (doc/format.md 16.3), once the row's object has ended: its
 * region (ids in order of first appearance), rank, source, tags, and
 * either its calls (starts and ends already in place, the optional
 * columns copied) or its stored statistics ("aggregate").
 */
#include "load_json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void sv_jl_row_reset(struct jl *j)
{
	struct jl_row *r = &j->row;
	free(j->row_emeta);
	j->row_emeta = NULL;
	free(r->name);
	free(r->source_file);
	free(r->source_text);
	sv_strv_fini(&r->tags);
	memset(r, 0, sizeof *r);
	r->source_line = -1;
	memset(j->n, 0, sizeof j->n);
	memset(j->has, 0, sizeof j->has);
}

static bool jl_pair_seen(struct jl *j, uint32_t region, uint32_t rank)
{
	uint64_t key = ((uint64_t)region << 32 | rank) + 1;
	size_t cap = j->npairs, i;

	/* npairs is the table's size: a power of two, at most half full */
	if (j->rows_added * 2 + 2 > cap) {
		size_t ns = cap ? cap * 2 : 64, k;
		uint64_t *t = sv_xcalloc(ns, sizeof *t);
		for (k = 0; k < cap; k++)
			if (j->pairs[k]) {
				i = (j->pairs[k] * 0x9e3779b97f4a7c15ull) >>
					    20 &
				    (ns - 1);
				while (t[i])
					i = (i + 1) & (ns - 1);
				t[i] = j->pairs[k];
			}
		free(j->pairs);
		j->pairs = t;
		j->npairs = cap = ns;
	}
	i = (key * 0x9e3779b97f4a7c15ull) >> 20 & (cap - 1);
	while (j->pairs[i]) {
		if (j->pairs[i] == key)
			return true;
		i = (i + 1) & (cap - 1);
	}
	j->pairs[i] = key;
	return false;
}

/* The stored statistics of an aggregate row. */
static void jl_row_summary(struct jl *j, struct sv_row *row)
{
	const struct jl_row *r = &j->row;
	struct sv_summary *s = &row->summary;

	row->has_summary = true;
	s->total = r->agg_i[1];
	s->minimum = r->agg_i[2];
	s->maximum = r->agg_i[3];
	s->first = r->agg_i[4];
	s->last = r->agg_i[5];
	s->start_minimum = r->agg_i[6];
	s->end_maximum = r->agg_i[7];
	s->gpu_count = r->agg_i[8] > 0 ? (uint64_t)r->agg_i[8] : 0;
	s->gpu_total = r->agg_i[9];
	s->mean = r->agg_has[10] ? r->agg_d[10]
		  : row->count   ? (double)s->total / (double)row->count
				 : 0;
	s->m2 = r->agg_d[11];
	row->has_gpu = s->gpu_count > 0;
	if (r->agg_has[12] && r->agg_i[12] >= 0)
		row->exclusive_total = r->agg_i[12];
}

/* The optional columns of the row just added, its GPU flag. */
static void jl_row_columns(struct jl *j, struct sv_row *row)
{
	int64_t **dst[JL_NCOLS] = {NULL, NULL, &j->p->gpu_ns, &j->p->call_id,
		&j->p->parent_id, &j->p->thread_id, &j->p->task_id,
		&j->p->await_ns};
	size_t c, i;

	for (c = JL_GPU; c < JL_NCOLS; c++) {
		int64_t *col;
		if (!j->has[c])
			continue;
		if (j->n[c] != row->count) {
			sv_profile_warn(j->p,
				"regions[%zu].%s: %zu values for %" PRIu64
				" calls; the column is dropped for this row",
				j->nrow, jl_col_names[c], j->n[c], row->count);
			continue;
		}
		col = sv_profile_column(j->p, dst[c], jl_col_fill[c]);
		/* A row of no calls has no values (cols[c] may be NULL). */
		if (j->n[c])
			memcpy(col + row->first, j->cols[c],
				j->n[c] * sizeof *col);
		if (c == JL_GPU)
			for (i = 0; i < j->n[c] && !row->has_gpu; i++)
				row->has_gpu = j->cols[c][i] >= 0;
	}
}

int sv_jl_row_end(struct jl *j)
{
	struct sv_profile *p = j->p;
	struct jl_row *r = &j->row;
	struct sv_row *row;
	uint32_t region;
	uint64_t count;
	size_t i;

	if (!r->name)
		return sv_jl_fail(
			j, -EINVAL, "regions[%zu]: no \"name\"", j->nrow);
	if (!r->has_rank)
		return sv_jl_fail(j, -EINVAL,
			"regions[%zu] (\"%s\"): no \"rank\"", j->nrow, r->name);
	if (!j->rows_added) {
		/* The first row says which kind of run this is. */
		p->has_calls = !r->has_agg;
		p->layout = r->has_agg && !r->no_events ? SV_LAYOUT_AGGREGATE
							: SV_LAYOUT_COLUMNAR;
	} else if (p->has_calls == r->has_agg) {
		return sv_jl_fail(j, -ENOTSUP,
			"regions[%zu] (\"%s\"): the run mixes rows of calls "
			"and "
			"rows of stored statistics (\"aggregate\"); scopeview "
			"reads one kind a run",
			j->nrow, r->name);
	}
	region = sv_load_names_id(&j->names, r->name);
	if (region == p->nregions)
		sv_profile_add_region(p, r->name);
	if (jl_pair_seen(j, region, (uint32_t)r->rank))
		return sv_jl_fail(j, -EINVAL,
			"regions[%zu]: region \"%s\" on rank %" PRId64
			" appears twice",
			j->nrow, r->name, r->rank);
	if (r->has_agg) {
		if (!r->agg_has[0] || r->agg_i[0] < 0)
			return sv_jl_fail(j, -EINVAL,
				"regions[%zu] (\"%s\"): \"aggregate\" has no "
				"call count",
				j->nrow, r->name);
		count = (uint64_t)r->agg_i[0];
	} else {
		count = j->n[JL_START];
		if (j->n[JL_END] != count)
			return sv_jl_fail(j, -EINVAL,
				"regions[%zu] (\"%s\", rank %" PRId64
				"): %zu end_times_ns for %zu start_times_ns",
				j->nrow, r->name, r->rank, j->n[JL_END],
				j->n[JL_START]);
	}
	row = sv_profile_add_row(p, (uint32_t)r->rank, region, count, j->err);
	if (!row) {
		j->rc = j->err->code;
		return 0;
	}
	j->rows_added++;
	row->source_file = r->source_file;
	row->source_text = r->source_text;
	r->source_file = r->source_text = NULL;
	row->source_line = r->source_line;
	if (r->tags.n) {
		row->ntags = r->tags.n;
		row->tags = sv_xcalloc(r->tags.n, sizeof *row->tags);
		for (i = 0; i < r->tags.n; i++)
			row->tags[i] = sv_xstrdup(r->tags.v[i]);
	}
	if (r->has_excl && r->excl >= 0)
		row->exclusive_total = r->excl;
	if (r->has_agg)
		jl_row_summary(j, row);
	else
		jl_row_columns(j, row);
	if (j->row_emeta && !r->has_agg) {
		struct jl_emeta *m;
		sv_grow((void **)&j->emeta, &j->emeta_cap, j->nemeta + 1,
			sizeof *j->emeta);
		m = &j->emeta[j->nemeta++];
		m->first = row->first;
		m->count = row->count;
		m->nrow = j->nrow;
		m->text = j->row_emeta;
		j->row_emeta = NULL;
	}
	return 1;
}
