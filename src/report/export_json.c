/*
 * export_json.c: a profile as scope-profiler's own JSON profile
 * (export.h; doc/format.md 16.3), the document its `export --format json`
 * writes and `scopeview` reads back: format, version, exporter, time
 * unit, rank count, metadata, a row per (region, rank) in the region
 * table's order, ranks ascending, with the calls' columns in storage
 * order (or the stored statistics of a run without calls), the lane
 * tables and the line profiles.  Streams through the export buffer: the
 * rows' columns are written call by call, never held.
 */
#include "scopeview/export.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export_priv.h"
#include "scopeview/callmeta.h"
#include "scopeview/fmt.h"
#include "scopeview/strv.h"
#include "sv_version.h"

/* A string as a JSON string. */
static void ej_str(struct sv_outbuf *w, const char *s)
{
	const char *v = s ? s : "";
	sv_outbuf_putc(w, '"');
	sv_json_escape(w, v, strlen(v));
	sv_outbuf_putc(w, '"');
}

/* A float as Python's json writes it; a non-finite one as null (as
 * json_export.py sends them); an integral one as an integer when asked
 * (its aggregate rows keep integral values as int). */
static void ej_float(struct sv_outbuf *w, double v, bool int_if_whole)
{
	char buf[64];
	if (!isfinite(v)) {
		sv_outbuf_puts(w, "null");
		return;
	}
	if (int_if_whole && v == floor(v) && fabs(v) < 9.2e18) {
		sv_outbuf_i64(w, (int64_t)v);
		return;
	}
	sv_fmt_py_float(v, false, buf, sizeof buf);
	sv_outbuf_puts(w, buf);
}

static void ej_meta(struct sv_outbuf *w, const struct sv_profile *p)
{
	size_t i, k;

	sv_outbuf_puts(w, "\"metadata\": {");
	for (i = 0; i < p->nmeta; i++) {
		const struct sv_meta *m = &p->meta[i];
		sv_outbuf_puts(w, i ? ", " : "");
		ej_str(w, m->key);
		sv_outbuf_puts(w, ": ");
		switch (m->kind) {
		case SV_META_INT:
			sv_outbuf_i64(w, m->i);
			break;
		case SV_META_FLOAT:
			ej_float(w, m->f, false);
			break;
		case SV_META_BOOL:
			sv_outbuf_puts(w, m->i ? "true" : "false");
			break;
		case SV_META_STRINGS:
			sv_outbuf_puts(w, "[");
			for (k = 0; k < m->nstrs; k++) {
				sv_outbuf_puts(w, k ? ", " : "");
				ej_str(w, m->strs[k]);
			}
			sv_outbuf_puts(w, "]");
			break;
		default:
			ej_str(w, m->text);
			break;
		}
	}
	sv_outbuf_puts(w, "}");
}

/* Whether some lane of rank is in sc (every rank without a scope), or
 * what the part says of it. */
static bool ej_rank_in(const struct sv_profile *p,
	const struct sv_export_scope *sc, uint32_t rank,
	const struct sv_export_part *pt)
{
	size_t l;
	if (pt && pt->rank_in)
		return rank < pt->nrank_in && pt->rank_in[rank];
	if (!sc || !sc->lane_on || !p->nlanes)
		return true;
	for (l = 0; l < p->nlanes; l++)
		if (p->lanes[l].rank == rank && sc->lane_on[l])
			return true;
	return false;
}

/* One column of row r: the calls of sc, by kind. */
enum {
	EJ_START,
	EJ_END,
	EJ_GPU,
	EJ_CALL,
	EJ_PARENT,
	EJ_THREAD,
	EJ_TASK,
	EJ_AWAIT
};

static int64_t ej_value(const struct sv_profile *p, int k, uint32_t c)
{
	switch (k) {
	case EJ_START:
		return sv_profile_start(p, c);
	case EJ_END:
		return sv_profile_end(p, c);
	case EJ_GPU:
		return sv_profile_gpu(p, c);
	case EJ_AWAIT:
		return sv_profile_await(p, c);
	default:
		return sv_profile_id(p, (enum sv_id_column)(k - EJ_CALL), c);
	}
}

static void ej_column(struct sv_outbuf *w, const struct sv_profile *p,
	const struct sv_export_scope *sc, const struct sv_row *r,
	const char *key, int k)
{
	uint64_t i;
	bool first = true;

	sv_outbuf_puts(w, ", \"");
	sv_outbuf_puts(w, key);
	sv_outbuf_puts(w, "\": [");
	for (i = 0; i < r->count; i++) {
		uint32_t c = (uint32_t)(r->first + i);
		if (sc && !sv_export_call_in(p, sc, c))
			continue;
		sv_outbuf_puts(w, first ? "" : ", ");
		first = false;
		sv_outbuf_i64(w, ej_value(p, k, c));
	}
	sv_outbuf_puts(w, "]");
}

static void ej_aggregate(
	struct sv_outbuf *w, const struct sv_profile *p, const struct sv_row *r)
{
	const struct sv_summary *s = &r->summary;
	sv_outbuf_puts(w, ", \"aggregate\": {\"count\": ");
	sv_outbuf_i64(w, (int64_t)r->count);
	sv_outbuf_puts(w, ", \"total\": ");
	sv_outbuf_i64(w, s->total);
	sv_outbuf_puts(w, ", \"minimum\": ");
	sv_outbuf_i64(w, s->minimum);
	sv_outbuf_puts(w, ", \"maximum\": ");
	sv_outbuf_i64(w, s->maximum);
	if (p->layout != SV_LAYOUT_AGGREGATE) {
		static const char *const k[] = {", \"first\": ", ", \"last\": ",
			", \"start_minimum\": ", ", \"end_maximum\": ",
			", \"gpu_count\": ", ", \"gpu_total\": "};
		const int64_t v[] = {s->first, s->last, s->start_minimum,
			s->end_maximum, (int64_t)s->gpu_count, s->gpu_total};
		size_t i;
		for (i = 0; i < 6; i++) {
			sv_outbuf_puts(w, k[i]);
			sv_outbuf_i64(w, v[i]);
		}
		sv_outbuf_puts(w, ", \"m2\": ");
		ej_float(w, s->m2, true);
	}
	sv_outbuf_puts(w, ", \"mean\": ");
	ej_float(w, s->mean, true);
	sv_outbuf_puts(w, ", \"exclusive\": ");
	sv_outbuf_i64(w, r->exclusive_total >= 0 ? r->exclusive_total : -1);
	sv_outbuf_puts(w, "}");
	if (p->layout != SV_LAYOUT_AGGREGATE)
		sv_outbuf_puts(w, ", \"event_data_available\": false");
}

/* A call's metadata object, with the bare NaN, Infinity and -Infinity
 * that Python's json accepts (and the file may hold) written as null, as
 * RFC 8259 and json_export.py's allow_nan=False want them. */
static void ej_meta_object(struct sv_outbuf *w, const char *m)
{
	bool in_str = false;
	const char *s;

	for (s = m; *s; s++) {
		if (in_str) {
			if (*s == '\\' && s[1]) {
				sv_outbuf_put(w, s, 2);
				s++;
				continue;
			}
			in_str = *s != '"';
		} else if (*s == '"') {
			in_str = true;
		} else if (!strncmp(s, "NaN", 3) ||
			   !strncmp(s, "Infinity", 8) ||
			   !strncmp(s, "-Infinity", 9)) {
			sv_outbuf_puts(w, "null");
			s += *s == 'N' ? 2 : *s == 'I' ? 7 : 8;
			continue;
		}
		sv_outbuf_putc(w, *s);
	}
}

/* The per-call metadata of row r: a list of objects ({} without). */
static void ej_call_meta(struct sv_outbuf *w, const struct sv_profile *p,
	const struct sv_export_scope *sc, const struct sv_row *r)
{
	uint64_t i;
	bool any = false, first = true;

	for (i = 0; i < r->count && !any; i++)
		any = sv_callmeta_of(p, (uint32_t)(r->first + i)) != NULL;
	if (!any)
		return;
	sv_outbuf_puts(w, ", \"event_metadata\": [");
	for (i = 0; i < r->count; i++) {
		uint32_t c = (uint32_t)(r->first + i);
		const char *m;
		if (sc && !sv_export_call_in(p, sc, c))
			continue;
		m = sv_callmeta_of(p, c);
		sv_outbuf_puts(w, first ? "" : ", ");
		first = false;
		ej_meta_object(w, m ? m : "{}");
	}
	sv_outbuf_puts(w, "]");
}

static void ej_row(struct sv_outbuf *w, const struct sv_profile *p,
	const struct sv_export_scope *sc, const struct sv_export_part *pt,
	const struct sv_row *r, bool *first)
{
	static const char *const cols[] = {"gpu_durations_ns", "call_ids",
		"parent_ids", "thread_ids", "task_ids", "await_ns"};
	bool whole = !sc || (!sc->has_range && !sc->lane_on);
	size_t t;
	int k;

	sv_outbuf_puts(w, *first ? "{\"name\": " : ", {\"name\": ");
	*first = false;
	ej_str(w, p->regions[r->region]);
	sv_outbuf_puts(w, ", \"rank\": ");
	sv_outbuf_i64(w, r->rank);
	if (r->source_file) {
		sv_outbuf_puts(w, ", \"source_file\": ");
		ej_str(w, r->source_file);
	}
	if (r->source_line >= 0) {
		sv_outbuf_puts(w, ", \"source_lineno\": ");
		sv_outbuf_i64(w, r->source_line);
	}
	if (r->source_text) {
		sv_outbuf_puts(w, ", \"source_text\": ");
		ej_str(w, r->source_text);
	}
	if (r->ntags) {
		sv_outbuf_puts(w, ", \"tags\": [");
		for (t = 0; t < r->ntags; t++) {
			sv_outbuf_puts(w, t ? ", " : "");
			ej_str(w, r->tags[t]);
		}
		sv_outbuf_puts(w, "]");
	}
	if (!p->has_calls) {
		ej_aggregate(w, p, r);
		sv_outbuf_puts(w, "}");
		return;
	}
	ej_column(w, p, sc, r, "start_times_ns", EJ_START);
	ej_column(w, p, sc, r, "end_times_ns", EJ_END);
	ej_call_meta(w, p, sc, r);
	for (k = EJ_GPU; k <= EJ_AWAIT; k++) {
		bool has = k == EJ_GPU     ? r->has_gpu
			   : k == EJ_AWAIT ? pt->await
			   : k == EJ_CALL  ? pt->id_call
			   : k == EJ_PARENT
				   ? pt->id_parent
				   : sv_profile_has_id(p,
					     (enum sv_id_column)(k - EJ_CALL));
		if (has)
			ej_column(w, p, sc, r, cols[k - EJ_GPU], k);
	}
	/* a stored total stands for the whole row only */
	if (whole && r->exclusive_total >= 0) {
		sv_outbuf_puts(w, ", \"exclusive_total_ns\": ");
		sv_outbuf_i64(w, r->exclusive_total);
	}
	sv_outbuf_puts(w, "}");
}

static const struct sv_profile *ej_sort_p;

/* Rows by region (the table's order), then rank, then file order. */
static int ej_cmp(const void *a, const void *b)
{
	const struct sv_row *x = &ej_sort_p->rows[*(const uint32_t *)a];
	const struct sv_row *y = &ej_sort_p->rows[*(const uint32_t *)b];
	if (x->region != y->region)
		return x->region < y->region ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

uint32_t *sv_export_json_order(const struct sv_profile *p)
{
	uint32_t *order = sv_xmalloc((p->nrows ? p->nrows : 1) * sizeof *order);
	size_t i;

	for (i = 0; i < p->nrows; i++)
		order[i] = (uint32_t)i;
	ej_sort_p = p;
	qsort(order, p->nrows, sizeof *order, ej_cmp);
	ej_sort_p = NULL;
	return order;
}

/* The entries of "threads" or "tasks" of the ranks in the scope and in
 * the part's share: rank -> its rows, as json_export.py's dicts, each
 * rank's after ", " but the first's while *first. */
static void ej_lane_items(struct sv_outbuf *w, const struct sv_profile *p,
	const struct sv_export_scope *sc, const struct sv_export_part *pt,
	bool tasks, bool *first)
{
	size_t n = tasks ? p->ntasks : p->nthreads, i;
	int64_t last = -1;

	/* rows of one rank are together in the tables' order by rank */
	for (i = 0; i < n; i++) {
		uint32_t at = tasks ? p->task_order[i] : p->thread_order[i];
		uint32_t rank = tasks ? p->tasks[at].rank : p->threads[at].rank;
		if (!ej_rank_in(p, sc, rank, pt) ||
			(pt && pt->share &&
				(rank >= pt->nshare || !pt->share[rank])))
			continue;
		if ((int64_t)rank != last) {
			sv_outbuf_puts(w, last >= 0 ? "]" : "");
			sv_outbuf_puts(w, *first ? "\"" : ", \"");
			*first = false;
			sv_outbuf_i64(w, rank);
			sv_outbuf_puts(w, "\": [");
			last = rank;
		} else {
			sv_outbuf_puts(w, ", ");
		}
		if (tasks) {
			const struct sv_task *t = &p->tasks[at];
			sv_outbuf_puts(w, "{\"index\": ");
			sv_outbuf_i64(w, t->index);
			sv_outbuf_puts(w, ", \"kind\": ");
			ej_str(w, t->kind);
			sv_outbuf_puts(w, ", \"name\": ");
			ej_str(w, t->name);
			sv_outbuf_puts(w, ", \"coro_name\": ");
			ej_str(w, t->coro_name);
			sv_outbuf_puts(w, ", \"thread_index\": ");
			sv_outbuf_i64(w, t->thread_index);
			sv_outbuf_puts(w, ", \"created_ns\": ");
			sv_outbuf_i64(w, t->created_ns);
			sv_outbuf_puts(w, ", \"done_ns\": ");
			sv_outbuf_i64(w, t->done_ns);
			sv_outbuf_puts(w, ", \"steps\": ");
			sv_outbuf_i64(w, t->steps);
			sv_outbuf_puts(w, ", \"running_ns\": ");
			sv_outbuf_i64(w, t->running_ns);
			sv_outbuf_puts(w, ", \"suspended_ns\": ");
			sv_outbuf_i64(w, t->suspended_ns);
		} else {
			const struct sv_thread *t = &p->threads[at];
			sv_outbuf_puts(w, "{\"index\": ");
			sv_outbuf_i64(w, t->index);
			sv_outbuf_puts(w, ", \"name\": ");
			ej_str(w, t->name);
			sv_outbuf_puts(w, ", \"ident\": ");
			sv_outbuf_i64(w, t->ident);
			sv_outbuf_puts(w, ", \"native_id\": ");
			sv_outbuf_i64(w, t->native_id);
			sv_outbuf_puts(w, t->daemon ? ", \"daemon\": true"
						    : ", \"daemon\": false");
			sv_outbuf_puts(w, ", \"start_ns\": ");
			sv_outbuf_i64(w, t->start_ns);
			sv_outbuf_puts(w, ", \"end_ns\": ");
			sv_outbuf_i64(w, t->end_ns);
			sv_outbuf_puts(w, ", \"cpu_ns\": ");
			sv_outbuf_i64(w, t->cpu_ns);
		}
		sv_outbuf_puts(w, "}");
	}
	if (last >= 0)
		sv_outbuf_puts(w, "]");
}

/* What comes between the lists of the regions, the threads and the
 * tasks (after list k: 0 the regions, 1 the threads, 2 the tasks): a
 * table's key and braces when the whole profile has rows in it
 * (nthreads, ntasks). */
static void ej_between(
	struct sv_outbuf *w, size_t nthreads, size_t ntasks, int k)
{
	if (k == 0)
		sv_outbuf_puts(w, "]");
	if (k == 0 && nthreads)
		sv_outbuf_puts(w, ", \"threads\": {");
	if (k == 1 && nthreads)
		sv_outbuf_puts(w, "}");
	if (k == 1 && ntasks)
		sv_outbuf_puts(w, ", \"tasks\": {");
	if (k == 2 && ntasks)
		sv_outbuf_puts(w, "}");
}

/* "line_profile": rank -> records, in the profile's order. */
static void ej_lines(struct sv_outbuf *w, const struct sv_profile *p,
	const struct sv_export_scope *sc, const struct sv_export_part *pt)
{
	bool *done = sv_xcalloc(p->nlineprofs ? p->nlineprofs : 1, 1);
	bool any = false;
	size_t i, j, k;

	for (i = 0; i < p->nlineprofs; i++) {
		uint32_t rank = p->lineprofs[i].rank;
		bool first = true;
		if (done[i] || !ej_rank_in(p, sc, rank, pt))
			continue;
		sv_outbuf_puts(w, any ? ", \"" : ", \"line_profile\": {\"");
		any = true;
		sv_outbuf_i64(w, rank);
		sv_outbuf_puts(w, "\": [");
		for (j = i; j < p->nlineprofs; j++) {
			const struct sv_line_profile *l = &p->lineprofs[j];
			if (l->rank != rank)
				continue;
			done[j] = true;
			sv_outbuf_puts(
				w, first ? "{\"region\": " : ", {\"region\": ");
			first = false;
			ej_str(w, l->region);
			sv_outbuf_puts(w, ", \"filename\": ");
			ej_str(w, l->filename);
			sv_outbuf_puts(w, ", \"function\": ");
			ej_str(w, l->function);
			sv_outbuf_puts(w, ", \"first_lineno\": ");
			sv_outbuf_i64(
				w, l->first_lineno >= 0 ? l->first_lineno : 0);
			sv_outbuf_puts(w, ", \"line_numbers\": [");
			for (k = 0; k < l->nlines; k++) {
				sv_outbuf_puts(w, k ? ", " : "");
				sv_outbuf_i64(w, l->line[k]);
			}
			sv_outbuf_puts(w, "], \"hits\": [");
			for (k = 0; k < l->nlines; k++) {
				sv_outbuf_puts(w, k ? ", " : "");
				sv_outbuf_i64(w, l->hits[k]);
			}
			sv_outbuf_puts(w, "], \"times\": [");
			for (k = 0; k < l->nlines; k++) {
				sv_outbuf_puts(w, k ? ", " : "");
				ej_float(w, l->time[k], false);
			}
			sv_outbuf_puts(w, "], \"unit\": ");
			ej_float(w, l->unit, false);
			sv_outbuf_puts(w, "}");
		}
		sv_outbuf_puts(w, "]");
	}
	if (any)
		sv_outbuf_puts(w, "}");
	free(done);
}

/* Everything before the rows: the header and the list opened. */
static void ej_head(struct sv_export_ctx *x)
{
	const struct sv_profile *p = x->p;
	struct sv_outbuf *w = &x->o;

	sv_outbuf_puts(w, "{\"format\": \"scope-profiler-profile\", "
			  "\"format_version\": 1, \"exporter\": \"scopeview "
			  "" SV_VERSION "\", \"time_unit\": \"nanoseconds\", "
			  "\"num_ranks\": ");
	sv_outbuf_i64(w, p->num_ranks);
	sv_outbuf_puts(w, ", \"event_data_available\": ");
	sv_outbuf_puts(w, x->part.has_calls || p->layout == SV_LAYOUT_AGGREGATE
				  ? "true, "
				  : "false, ");
	ej_meta(w, p);
	sv_outbuf_puts(w, ", \"regions\": [");
}

/* Everything after the tasks. */
static void ej_tail(struct sv_export_ctx *x, const struct sv_export_scope *sc,
	const struct sv_export_part *pt)
{
	ej_lines(&x->o, x->p, sc, pt);
	sv_outbuf_puts(&x->o, "}\n");
}

int sv_export_json_piece(FILE *out, enum sv_export_piece piece,
	const struct sv_profile *p, const struct sv_export_scope *sc,
	const struct sv_export_part *part, struct sv_error *err)
{
	struct sv_export_ctx x;
	struct sv_outbuf w;
	size_t i;
	bool first = false; /* every row after ", " */
	int rc;

	if (piece == SV_EXPORT_ROWS && part && out) {
		/* one region's rows at a time: no names escaped for them */
		sv_outbuf_init(&w, out);
		for (i = 0; i < part->nrows; i++)
			if (ej_rank_in(
				    p, sc, p->rows[part->rows[i]].rank, part))
				ej_row(&w, p, sc, part, &p->rows[part->rows[i]],
					&first);
		if (sv_outbuf_fini(&w) < 0 || fflush(out) || ferror(out))
			return sv_error_set(
				err, -EIO, "cannot write the JSON export");
		return 0;
	}
	if ((rc = sv_export_begin_part(&x, out, p, sc, true, part, err)))
		return rc;
	if (piece == SV_EXPORT_HEAD)
		ej_head(&x);
	else if (piece == SV_EXPORT_BETWEEN)
		ej_between(&x.o, x.part.nthreads, x.part.ntasks, x.part.table);
	else if (piece == SV_EXPORT_LANES)
		ej_lane_items(&x.o, p, sc, part, x.part.table == 2, &first);
	else if (piece == SV_EXPORT_TAIL)
		ej_tail(&x, sc, part);
	return sv_export_end(&x, "JSON", err);
}

int sv_export_json(FILE *out, const struct sv_profile *p,
	const struct sv_export_scope *sc, const char *file,
	struct sv_error *err)
{
	struct sv_export_ctx x;
	uint32_t *order;
	size_t i;
	bool first = true;
	int k, rc = sv_export_begin(&x, out, p, sc, true, err);

	(void)file;
	if (rc)
		return rc;
	ej_head(&x);
	order = sv_export_json_order(p);
	for (i = 0; i < p->nrows; i++)
		if (ej_rank_in(p, sc, p->rows[order[i]].rank, NULL))
			ej_row(&x.o, p, sc, &x.part, &p->rows[order[i]],
				&first);
	free(order);
	for (k = 0; k < 3; k++) {
		ej_between(&x.o, p->nthreads, p->ntasks, k);
		first = true;
		if (k < 2)
			ej_lane_items(&x.o, p, sc, NULL, k == 1, &first);
	}
	ej_tail(&x, sc, NULL);
	return sv_export_end(&x, "JSON", err);
}
