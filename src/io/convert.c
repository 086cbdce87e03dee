/*
 * convert.c: a profile in memory written as one schema-3 HDF5 file in
 * scope-profiler's own layout (convert.h, doc/format.md 16.4).
 *
 * Rank by rank, each rank's rows in the profile's order, its calls in
 * each row's storage order: the writer (write.h) then stores the start
 * deltas, the durations, the optional columns the profile has, the
 * summary statistics and the exclusive totals exactly as scope-profiler's
 * writer computes them, and the lane tables of the rank.  Memory beyond
 * the profile is one rank's calls.
 */
#include "scopeview/convert.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/write.h"

static int convert_meta(struct sv_writer *w, const struct sv_profile *p,
	const char *label, struct sv_strv *notes, struct sv_error *err)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < p->nmeta; i++) {
		const struct sv_meta *m = &p->meta[i];
		if (label && !strcmp(m->key, "label"))
			continue;
		switch (m->kind) {
		case SV_META_INT:
			rc = sv_writer_meta_int(w, m->key, m->i, err);
			break;
		case SV_META_FLOAT:
			rc = sv_writer_meta_float(w, m->key, m->f, err);
			break;
		case SV_META_BOOL:
			rc = sv_writer_meta_bool(w, m->key, m->i != 0, err);
			break;
		case SV_META_STRING:
			rc = sv_writer_meta_str(w, m->key, m->text, err);
			break;
		case SV_META_STRINGS:
			rc = sv_writer_meta_strs(w, m->key,
				(const char *const *)m->strs, m->nstrs, err);
			break;
		default:
			if (notes) {
				char *line = sv_xasprintf(
					"metadata %s (%s) is not written: an "
					"HDF5 attribute cannot hold it",
					m->key, m->text ? m->text : "");
				sv_strv_push(notes, line);
				free(line);
			}
			break;
		}
	}
	if (!rc && label)
		rc = sv_writer_meta_str(w, "label", label, err);
	return rc;
}

/* What the profile holds that the writer does not write, a line each. */
static void convert_unwritten(const struct sv_profile *p, struct sv_strv *notes)
{
	static const char *const what[] = {
		"per-call event metadata",
		"LIKWID and perf counters",
		"line profiles",
		"extra /events columns",
	};
	bool has[4];
	size_t i;

	has[0] = p->call_meta != NULL;
	has[1] = p->ncounters > 0;
	has[2] = p->nlineprofs > 0;
	has[3] = p->ncolumns > 0;
	for (i = 0; notes && i < 4; i++)
		if (has[i]) {
			char *line = sv_xasprintf(
				"%s: %s not written (convert writes calls, "
				"rows, metadata and lane tables)",
				p->path, what[i]);
			sv_strv_push(notes, line);
			free(line);
		}
}

/* The calls of one rank's rows (rows[0 .. n) of p) in the writer's
 * arrays, and the rank's lane tables. */
struct convert_rank {
	struct sv_write_row *rows;
	int64_t *start, *end, *gpu, *ids[SV_ID_COLUMNS], *await;
	struct sv_write_thread *threads;
	struct sv_write_task *tasks;
	uint64_t cap;
};

static void convert_fill(struct convert_rank *cr, const struct sv_profile *p,
	const uint32_t *rows, size_t n, struct sv_write_rank *wr)
{
	uint64_t calls = 0, at = 0, c;
	size_t i, k;

	for (i = 0; i < n; i++)
		calls += p->rows[rows[i]].count;
	if (calls > cr->cap) {
		cr->cap = calls;
		cr->start = sv_xreallocarray(cr->start, calls, 8);
		cr->end = sv_xreallocarray(cr->end, calls, 8);
		cr->gpu = sv_xreallocarray(cr->gpu, calls, 8);
		cr->await = sv_xreallocarray(cr->await, calls, 8);
		for (k = 0; k < SV_ID_COLUMNS; k++)
			cr->ids[k] = sv_xreallocarray(cr->ids[k], calls, 8);
	}
	cr->rows = sv_xreallocarray(cr->rows, n ? n : 1, sizeof *cr->rows);
	for (i = 0; i < n; i++) {
		const struct sv_row *r = &p->rows[rows[i]];
		struct sv_write_row *w = &cr->rows[i];
		uint32_t c0 = (uint32_t)r->first;
		memset(w, 0, sizeof *w);
		w->name = p->regions[r->region];
		w->count = r->count;
		w->source_file = r->source_file;
		w->source_line = r->source_line;
		w->source_text = r->source_text;
		w->tags = (const char *const *)r->tags;
		w->ntags = r->ntags;
		w->exclusive_total = r->exclusive_total;
		sv_profile_starts(p, c0, r->count, cr->start + at);
		sv_profile_durations(p, c0, r->count, cr->end + at);
		for (c = 0; c < r->count; c++) {
			uint32_t call = c0 + (uint32_t)c;
			cr->end[at + c] =
				sv_add_wrap(cr->start[at + c], cr->end[at + c]);
			cr->gpu[at + c] = sv_profile_gpu(p, call);
			cr->await[at + c] = sv_profile_await(p, call);
			for (k = 0; k < SV_ID_COLUMNS; k++)
				if (sv_profile_has_id(p, (enum sv_id_column)k))
					cr->ids[k][at + c] = sv_profile_id(
						p, (enum sv_id_column)k, call);
		}
		at += r->count;
	}
	memset(wr, 0, sizeof *wr);
	wr->rank = n ? p->rows[rows[0]].rank : 0;
	wr->rows = cr->rows;
	wr->nrows = n;
	wr->ncalls = calls;
	wr->start_ns = cr->start;
	wr->end_ns = cr->end;
	wr->gpu_ns = sv_profile_has_gpu(p) ? cr->gpu : NULL;
	wr->await_ns = sv_profile_has_await(p) ? cr->await : NULL;
	wr->call_id =
		sv_profile_has_id(p, SV_ID_CALL) ? cr->ids[SV_ID_CALL] : NULL;
	wr->parent_id = sv_profile_has_id(p, SV_ID_PARENT)
				? cr->ids[SV_ID_PARENT]
				: NULL;
	wr->thread_id = sv_profile_has_id(p, SV_ID_THREAD)
				? cr->ids[SV_ID_THREAD]
				: NULL;
	wr->task_id =
		sv_profile_has_id(p, SV_ID_TASK) ? cr->ids[SV_ID_TASK] : NULL;
}

/* The lane tables' rows of rank r. */
static void convert_lanes(struct convert_rank *cr, const struct sv_profile *p,
	uint32_t rank, struct sv_write_rank *wr)
{
	size_t i;

	free(cr->threads);
	free(cr->tasks);
	cr->threads =
		sv_xcalloc(p->nthreads ? p->nthreads : 1, sizeof *cr->threads);
	cr->tasks = sv_xcalloc(p->ntasks ? p->ntasks : 1, sizeof *cr->tasks);
	for (i = 0; i < p->nthreads; i++) {
		const struct sv_thread *t = &p->threads[i];
		struct sv_write_thread *w = &cr->threads[wr->nthreads];
		if (t->rank != rank)
			continue;
		w->index = t->index;
		w->ident = t->ident;
		w->native_id = t->native_id;
		w->daemon = t->daemon;
		w->name = t->name ? t->name : "";
		w->start_ns = t->start_ns;
		w->end_ns = t->end_ns;
		w->cpu_ns = t->cpu_ns;
		wr->nthreads++;
	}
	for (i = 0; i < p->ntasks; i++) {
		const struct sv_task *t = &p->tasks[i];
		struct sv_write_task *w = &cr->tasks[wr->ntasks];
		if (t->rank != rank)
			continue;
		w->index = t->index;
		w->thread_index = t->thread_index;
		w->kind = t->kind ? t->kind : "task";
		w->name = t->name ? t->name : "";
		w->coro_name = t->coro_name ? t->coro_name : "";
		w->created_ns = t->created_ns;
		w->done_ns = t->done_ns;
		w->steps = t->steps;
		w->running_ns = t->running_ns;
		w->suspended_ns = t->suspended_ns;
		wr->ntasks++;
	}
	wr->threads = cr->threads;
	wr->tasks = cr->tasks;
}

static void convert_rank_fini(struct convert_rank *cr)
{
	size_t k;
	free(cr->rows);
	free(cr->start);
	free(cr->end);
	free(cr->gpu);
	free(cr->await);
	for (k = 0; k < SV_ID_COLUMNS; k++)
		free(cr->ids[k]);
	free(cr->threads);
	free(cr->tasks);
}

/* Rows sorted by rank, each rank's in the profile's order. */
static uint32_t *convert_order(const struct sv_profile *p)
{
	uint32_t *o = sv_xmalloc((p->nrows ? p->nrows : 1) * sizeof *o);
	uint32_t maxr = 0, *count, *at;
	size_t i;

	for (i = 0; i < p->nrows; i++)
		if (p->rows[i].rank > maxr)
			maxr = p->rows[i].rank;
	/* counting sort by rank (ranks are dense in practice; a sparse
	 * high rank costs 4 bytes a rank below it) */
	count = sv_xcalloc((size_t)maxr + 2, sizeof *count);
	for (i = 0; i < p->nrows; i++)
		count[p->rows[i].rank + 1]++;
	for (i = 1; i <= (size_t)maxr + 1; i++)
		count[i] += count[i - 1];
	at = count;
	for (i = 0; i < p->nrows; i++)
		o[at[p->rows[i].rank]++] = (uint32_t)i;
	free(count);
	return o;
}

int sv_convert_write(const struct sv_profile *p, const char *path,
	const char *label, struct sv_strv *notes, struct sv_error *err)
{
	struct sv_writer_opts wo;
	struct sv_writer *w = NULL;
	struct convert_rank cr;
	uint32_t *order;
	size_t a, b, i;
	int rc;

	if (!p->has_calls)
		return sv_error_set(err, -EINVAL,
			"%s: holds stored statistics only, no calls: convert "
			"writes a run's calls",
			p->path);
	sv_writer_opts_init(&wo);
	wo.schema = 3;
	wo.compression = SV_WRITE_COMPRESS_AUTO;
	wo.exclusive = SV_WRITE_EXCL_COMPUTE;
	/* the output rule (outfile.h): never the run read (a directory
	 * stands for every file in it) */
	if (p->path) {
		wo.inputs = (const char *const *)&p->path;
		wo.ninputs = 1;
	}
	rc = sv_writer_open(&w, path, &wo, err);
	if (rc)
		return rc;
	rc = convert_meta(w, p, label, notes, err);
	convert_unwritten(p, notes);
	for (i = 0; !rc && i < p->nregions; i++)
		sv_writer_region(w, p->regions[i]);
	memset(&cr, 0, sizeof cr);
	order = convert_order(p);
	for (a = 0; !rc && a < p->nrows; a = b) {
		struct sv_write_rank wr;
		for (b = a; b < p->nrows &&
			    p->rows[order[b]].rank == p->rows[order[a]].rank;
			b++)
			;
		convert_fill(&cr, p, order + a, b - a, &wr);
		convert_lanes(&cr, p, wr.rank, &wr);
		rc = sv_writer_add_rank(w, &wr, err);
	}
	free(order);
	convert_rank_fini(&cr);
	if (rc) {
		sv_writer_abort(w);
		return rc;
	}
	return sv_writer_close(w, err);
}
