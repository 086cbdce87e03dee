/*
 * gen_out.c: `scopeview gen`'s other formats (gen.h, doc/format.md
 * 16.6): the same generated run as native traces (one .spt a rank,
 * version 2, this machine's byte order), as the per-rank schema-2 HDF5
 * files scope-profiler's C API writes, or as one JSON profile (gzip for
 * a name ending in .gz), for tests and benchmarks of those readers.
 *
 * Every file is written to a temporary sibling and renamed into place.
 * Ranks are generated one at a time, so memory stays one rank's calls.
 */
#include "gen_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* A rank's calls grouped by row, each row's in generation order (a
 * lane's start order: native traces store a region's calls in the order
 * they began). */
struct gen_rows {
	uint64_t *first; /* nrows + 1 */
	uint32_t *calls; /* call numbers, row after row */
};

static void gen_rows_make(const struct sv_write_rank *w, struct gen_rows *g)
{
	uint64_t c, *at;
	size_t i;

	g->first = sv_xcalloc(w->nrows + 1, sizeof *g->first);
	g->calls = sv_xmalloc((w->ncalls ? w->ncalls : 1) * sizeof *g->calls);
	for (c = 0; c < w->ncalls; c++)
		g->first[w->row[c] + 1]++;
	for (i = 0; i < w->nrows; i++)
		g->first[i + 1] += g->first[i];
	at = sv_xmalloc((w->nrows ? w->nrows : 1) * sizeof *at);
	memcpy(at, g->first, w->nrows * sizeof *at);
	for (c = 0; c < w->ncalls; c++)
		g->calls[at[w->row[c]]++] = (uint32_t)c;
	free(at);
}

static void gen_rows_free(struct gen_rows *g)
{
	free(g->first);
	free(g->calls);
}

/* ------------------------------------------------------------------ */
/* Output: a file or a gzip stream, written through a buffer            */

struct gen_out {
	FILE *f;
	gzFile gz;
	char *tmp;
	const char *path;
	char buf[1 << 16];
	size_t n;
	bool bad;
	bool obj_first; /* the next key opens its object */
};

static int gen_out_open(
	struct gen_out *o, const char *path, bool gz, struct sv_error *err)
{
	memset(o, 0, sizeof *o);
	o->path = path;
	o->tmp = sv_xasprintf("%s.%ld.tmp", path, (long)getpid());
	if (gz)
		o->gz = gzopen(o->tmp, "wb6");
	else
		o->f = fopen(o->tmp, "wb");
	if (!o->gz && !o->f) {
		int e = errno ? errno : EIO;
		free(o->tmp);
		return sv_error_set(
			err, -e, "cannot create %s: %s", path, strerror(e));
	}
	return 0;
}

static void gen_out_flush(struct gen_out *o)
{
	if (o->n && !o->bad) {
		if (o->gz)
			o->bad = gzwrite(o->gz, o->buf, (unsigned)o->n) !=
				 (int)o->n;
		else
			o->bad = fwrite(o->buf, 1, o->n, o->f) != o->n;
	}
	o->n = 0;
}

static void gen_put(struct gen_out *o, const void *p, size_t n)
{
	const char *s = p;
	while (n) {
		size_t k = sizeof o->buf - o->n < n ? sizeof o->buf - o->n : n;
		memcpy(o->buf + o->n, s, k);
		o->n += k;
		s += k;
		n -= k;
		if (o->n == sizeof o->buf)
			gen_out_flush(o);
	}
}

static void gen_puts(struct gen_out *o, const char *s)
{
	gen_put(o, s, strlen(s));
}

/* An integer in decimal, fast: the JSON columns are millions of them. */
static void gen_put_int(struct gen_out *o, int64_t v)
{
	char b[24], *e = b + sizeof b, *p = e;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	gen_put(o, p, (size_t)(e - p));
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void gen_put_str(struct gen_out *o, const char *s)
{
	gen_put(o, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			char e[2] = {'\\', (char)c};
			gen_put(o, e, 2);
		} else if (c < 0x20) {
			char e[8];
			snprintf(e, sizeof e, "\\u%04x", c);
			gen_put(o, e, 6);
		} else {
			gen_put(o, s, 1);
		}
	}
	gen_put(o, "\"", 1);
}

/* Close and move into place; on any failure remove the temporary. */
static int gen_out_close(struct gen_out *o, int rc, struct sv_error *err)
{
	gen_out_flush(o);
	if (o->gz) {
		if (gzclose(o->gz) != Z_OK)
			o->bad = true;
	} else if (fclose(o->f) != 0) {
		o->bad = true;
	}
	if (!rc && o->bad)
		rc = sv_error_set(err, -EIO, "cannot write %s", o->path);
	if (!rc && rename(o->tmp, o->path) != 0)
		rc = sv_error_set(err, -errno, "cannot create %s: %s", o->path,
			strerror(errno));
	if (rc)
		unlink(o->tmp);
	free(o->tmp);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Native traces                                                       */

static void gen_put_i32(struct gen_out *o, int32_t v)
{
	gen_put(o, &v, 4);
}

static void gen_put_i64(struct gen_out *o, int64_t v)
{
	gen_put(o, &v, 8);
}

static int gen_spt_rank(
	const char *path, const struct sv_write_rank *w, struct sv_error *err)
{
	struct gen_out o;
	struct gen_rows g;
	size_t i;
	uint64_t k;
	int rc = gen_out_open(&o, path, false, err);

	if (rc)
		return rc;
	gen_rows_make(w, &g);
	gen_put(&o, "SCOPEPRF", 8);
	gen_put_i32(&o, 2);
	gen_put_i32(&o, (int32_t)w->rank);
	gen_put_i64(&o, (int64_t)w->nrows);
	for (i = 0; i < w->nrows; i++) {
		const struct sv_write_row *r = &w->rows[i];
		const char *src = r->source_file ? r->source_file : "";
		gen_put_i32(&o, (int32_t)strlen(r->name));
		gen_puts(&o, r->name);
		gen_put_i32(&o, (int32_t)strlen(src));
		gen_puts(&o, src);
		gen_put_i32(&o,
			(int32_t)(r->source_line >= 0 &&
						  r->source_line <= INT32_MAX
					  ? r->source_line
					  : -1));
		gen_put_i64(&o, (int64_t)(g.first[i + 1] - g.first[i]));
		for (k = g.first[i]; k < g.first[i + 1]; k++)
			gen_put_i64(&o, w->start_ns[g.calls[k]]);
		for (k = g.first[i]; k < g.first[i + 1]; k++)
			gen_put_i64(&o, w->end_ns[g.calls[k]]);
	}
	gen_rows_free(&g);
	return gen_out_close(&o, 0, err);
}

/* ------------------------------------------------------------------ */
/* Per-rank HDF5, as the C API writes it                               */

static int gen_rank_h5(const char *path, const struct sv_gen_opts *go,
	const struct sv_write_rank *w, struct sv_error *err)
{
	struct sv_writer_opts wo;
	struct sv_writer *wr;
	struct sv_write_rank r = *w;
	int64_t first = INT64_MAX;
	uint64_t c;
	int rc;

	sv_writer_opts_init(&wo);
	wo.schema = 2;
	wo.compression = go->writer.compression;
	wo.event_chunk = go->writer.event_chunk;
	wo.exclusive = SV_WRITE_EXCL_UNKNOWN;
	rc = sv_writer_open(&wr, path, &wo, err);
	if (rc)
		return rc;
	for (c = 0; c < w->ncalls; c++)
		if (w->start_ns[c] < first)
			first = w->start_ns[c];
	/* scope_profiler_hdf5.h: start and end times and the source only */
	r.gpu_ns = r.call_id = r.parent_id = NULL;
	r.thread_id = r.task_id = r.await_ns = NULL;
	r.threads = NULL;
	r.tasks = NULL;
	r.nthreads = r.ntasks = 0;
	rc = sv_writer_meta_str(wr, "source", "native", err);
	if (!rc)
		rc = sv_writer_meta_str(wr, "source_language", "c", err);
	if (!rc)
		rc = sv_writer_meta_int(wr, "trace_format_version", 2, err);
	if (!rc)
		rc = sv_writer_meta_int(wr, "mpi_rank", w->rank, err);
	if (!rc)
		rc = sv_writer_meta_str(wr, "hostname", "node000", err);
	if (!rc)
		rc = sv_writer_meta_str(
			wr, "timestamp", "2026-01-01T00:00:00+00:00", err);
	if (!rc && w->ncalls)
		rc = sv_writer_meta_int(wr, "start_time_ns", first, err);
	if (!rc)
		rc = sv_writer_add_rank(wr, &r, err);
	if (rc) {
		sv_writer_abort(wr);
		return rc;
	}
	return sv_writer_close(wr, err);
}

/* ------------------------------------------------------------------ */
/* JSON                                                                */

static void gen_json_key(struct gen_out *o, const char *key, bool *first)
{
	gen_puts(o, *first ? "" : ", ");
	*first = false;
	gen_put_str(o, key);
	gen_puts(o, ": ");
}

static int gen_json_num(
	void *ctx, const char *key, int64_t v, struct sv_error *err)
{
	struct gen_out *o = ctx;
	(void)err;
	gen_json_key(o, key, &o->obj_first);
	gen_put_int(o, v);
	return 0;
}

static int gen_json_str(
	void *ctx, const char *key, const char *v, struct sv_error *err)
{
	struct gen_out *o = ctx;
	(void)err;
	gen_json_key(o, key, &o->obj_first);
	gen_put_str(o, v);
	return 0;
}

static int gen_json_strs(void *ctx, const char *key, const char *const *v,
	size_t n, struct sv_error *err)
{
	struct gen_out *o = ctx;
	size_t i;
	(void)err;
	gen_json_key(o, key, &o->obj_first);
	gen_puts(o, "[");
	for (i = 0; i < n; i++) {
		gen_puts(o, i ? ", " : "");
		gen_put_str(o, v[i]);
	}
	gen_puts(o, "]");
	return 0;
}

static void gen_json_col(struct gen_out *o, const char *key, const int64_t *v,
	const struct gen_rows *g, size_t row)
{
	uint64_t k;
	gen_puts(o, ", ");
	gen_put_str(o, key);
	gen_puts(o, ": [");
	for (k = g->first[row]; k < g->first[row + 1]; k++) {
		if (k > g->first[row])
			gen_put(o, ", ", 2);
		gen_put_int(o, v[g->calls[k]]);
	}
	gen_puts(o, "]");
}

/* One rank's rows of the regions list. */
static void gen_json_rank(
	struct gen_out *o, const struct sv_write_rank *w, bool *first_row)
{
	struct gen_rows g;
	int64_t *excl = sv_xcalloc(w->nrows ? w->nrows : 1, sizeof *excl);
	bool have_excl =
		sv_write_exclusive_totals(w->start_ns, w->end_ns, w->thread_id,
			w->task_id, w->row, w->ncalls, excl, w->nrows) == 0;
	size_t i, t;

	gen_rows_make(w, &g);
	for (i = 0; i < w->nrows; i++) {
		const struct sv_write_row *r = &w->rows[i];
		gen_puts(o, *first_row ? "{\"name\": " : ", {\"name\": ");
		*first_row = false;
		gen_put_str(o, r->name);
		gen_puts(o, ", \"rank\": ");
		gen_put_int(o, w->rank);
		if (r->source_file && *r->source_file) {
			gen_puts(o, ", \"source_file\": ");
			gen_put_str(o, r->source_file);
		}
		if (r->source_line >= 0) {
			gen_puts(o, ", \"source_lineno\": ");
			gen_put_int(o, r->source_line);
		}
		if (r->source_text && *r->source_text) {
			gen_puts(o, ", \"source_text\": ");
			gen_put_str(o, r->source_text);
		}
		if (r->ntags) {
			gen_puts(o, ", \"tags\": [");
			for (t = 0; t < r->ntags; t++) {
				gen_puts(o, t ? ", " : "");
				gen_put_str(o, r->tags[t]);
			}
			gen_puts(o, "]");
		}
		gen_json_col(o, "start_times_ns", w->start_ns, &g, i);
		gen_json_col(o, "end_times_ns", w->end_ns, &g, i);
		if (w->gpu_ns)
			gen_json_col(o, "gpu_durations_ns", w->gpu_ns, &g, i);
		if (w->call_id)
			gen_json_col(o, "call_ids", w->call_id, &g, i);
		if (w->parent_id)
			gen_json_col(o, "parent_ids", w->parent_id, &g, i);
		if (w->thread_id)
			gen_json_col(o, "thread_ids", w->thread_id, &g, i);
		if (w->task_id)
			gen_json_col(o, "task_ids", w->task_id, &g, i);
		if (w->await_ns)
			gen_json_col(o, "await_ns", w->await_ns, &g, i);
		if (have_excl) {
			gen_puts(o, ", \"exclusive_total_ns\": ");
			gen_put_int(o, excl[i]);
		}
		gen_puts(o, "}");
	}
	gen_rows_free(&g);
	free(excl);
}

/* The lane tables of every rank, as json_export.py's row dicts. */
static void gen_json_lanes(
	struct gen_out *o, const struct sv_gen_opts *go, bool tasks)
{
	uint32_t rank;
	size_t i;
	bool first = true;

	gen_puts(o, tasks ? ", \"tasks\": {" : ", \"threads\": {");
	for (rank = 0; rank < go->ranks; rank++) {
		struct sv_gen_rank r;
		sv_gen_rank_build(go, rank, &r);
		gen_puts(o, first ? "\"" : ", \"");
		first = false;
		gen_put_int(o, rank);
		gen_puts(o, "\": [");
		for (i = 0; i < (tasks ? r.w.ntasks : r.w.nthreads); i++) {
			gen_puts(o, i ? ", {" : "{");
			if (tasks) {
				const struct sv_write_task *t = &r.w.tasks[i];
				gen_puts(o, "\"index\": ");
				gen_put_int(o, t->index);
				gen_puts(o, ", \"kind\": ");
				gen_put_str(o, t->kind);
				gen_puts(o, ", \"name\": ");
				gen_put_str(o, t->name);
				gen_puts(o, ", \"coro_name\": ");
				gen_put_str(o, t->coro_name);
				gen_puts(o, ", \"thread_index\": ");
				gen_put_int(o, t->thread_index);
				gen_puts(o, ", \"created_ns\": ");
				gen_put_int(o, t->created_ns);
				gen_puts(o, ", \"done_ns\": ");
				gen_put_int(o, t->done_ns);
				gen_puts(o, ", \"steps\": ");
				gen_put_int(o, t->steps);
				gen_puts(o, ", \"running_ns\": ");
				gen_put_int(o, t->running_ns);
				gen_puts(o, ", \"suspended_ns\": ");
				gen_put_int(o, t->suspended_ns);
			} else {
				const struct sv_write_thread *t =
					&r.w.threads[i];
				gen_puts(o, "\"index\": ");
				gen_put_int(o, t->index);
				gen_puts(o, ", \"name\": ");
				gen_put_str(o, t->name);
				gen_puts(o, ", \"ident\": ");
				gen_put_int(o, t->ident);
				gen_puts(o, ", \"native_id\": ");
				gen_put_int(o, t->native_id);
				gen_puts(o, t->daemon ? ", \"daemon\": true"
						      : ", \"daemon\": false");
				gen_puts(o, ", \"start_ns\": ");
				gen_put_int(o, t->start_ns);
				gen_puts(o, ", \"end_ns\": ");
				gen_put_int(o, t->end_ns);
				gen_puts(o, ", \"cpu_ns\": ");
				gen_put_int(o, t->cpu_ns);
			}
			gen_puts(o, "}");
		}
		gen_puts(o, "]");
		sv_gen_rank_fini(&r);
	}
	gen_puts(o, "}");
}

static int gen_json(const char *path, const struct sv_gen_opts *go,
	sv_gen_progress_fn progress, void *ctx, struct sv_error *err)
{
	size_t n = strlen(path);
	struct gen_out *o = sv_xmalloc(sizeof *o);
	struct gen_meta m = {gen_json_num, gen_json_str, gen_json_strs, o};
	uint64_t events = 0;
	uint32_t rank;
	bool first_row = true, lanes;
	int rc = gen_out_open(
		o, path, n > 3 && !strcmp(path + n - 3, ".gz"), err);

	if (rc) {
		free(o);
		return rc;
	}
	gen_puts(o, "{\"format\": \"scope-profiler-profile\", "
		    "\"format_version\": 1, \"exporter\": \"scopeview gen\", "
		    "\"time_unit\": \"nanoseconds\", \"num_ranks\": ");
	gen_put_int(o, go->ranks);
	gen_puts(o, ", \"event_data_available\": true, \"metadata\": {");
	o->obj_first = true;
	rc = sv_gen_metadata(go, &m, err);
	gen_puts(o, "}, \"regions\": [");
	for (rank = 0; !rc && rank < go->ranks; rank++) {
		struct sv_gen_rank r;
		sv_gen_rank_build(go, rank, &r);
		gen_json_rank(o, &r.w, &first_row);
		events += r.w.ncalls;
		sv_gen_rank_fini(&r);
		if (progress)
			progress(ctx, rank + 1, events);
	}
	gen_puts(o, "]");
	lanes = go->threads > 1 || go->tasks || go->track_threads;
	if (!rc && lanes)
		gen_json_lanes(o, go, false);
	if (!rc && go->tasks)
		gen_json_lanes(o, go, true);
	gen_puts(o, "}");
	rc = gen_out_close(o, rc, err);
	free(o);
	return rc;
}

int sv_gen_write_other(const char *path, const struct sv_gen_opts *o,
	sv_gen_progress_fn progress, void *ctx, struct sv_error *err)
{
	uint64_t events = 0;
	uint32_t rank;
	int rc = 0;

	if (o->format == SV_GEN_JSON)
		return gen_json(path, o, progress, ctx, err);
	for (rank = 0; !rc && rank < o->ranks; rank++) {
		struct sv_gen_rank r;
		char *file = sv_xasprintf("%s_rank%05" PRIu32 ".%s", path, rank,
			o->format == SV_GEN_SPT ? "spt" : "h5");
		sv_gen_rank_build(o, rank, &r);
		rc = o->format == SV_GEN_SPT ? gen_spt_rank(file, &r.w, err)
					     : gen_rank_h5(file, o, &r.w, err);
		events += r.w.ncalls;
		sv_gen_rank_fini(&r);
		free(file);
		if (!rc && progress)
			progress(ctx, rank + 1, events);
	}
	return rc;
}
