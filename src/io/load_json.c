/*
 * load_json.c: JSON profiles (doc/format.md 16.3), the lossless document
 * scope-profiler's `run -o out.json` and `export --format json` write,
 * read the way its json_export.py read_json() reads it.
 *
 * YAJL parses the document streaming; its callbacks follow a stack of
 * what each open container is (the root, /metadata, the regions list, a
 * row, one of a row's columns, ...).  Starts and ends are written
 * straight into the profile's columns as they arrive, at the place the
 * row will take; the optional columns of a row are gathered and copied
 * once the row ends.  Values that are not known are skipped without
 * being kept.  Nothing here builds a tree of the document.
 */
#include "load_json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "scopeview/fmt.h"

int sv_jl_fail(struct jl *j, int code, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (!j->rc) {
		sv_error_set(j->err, code, "%s: %s", j->path, what);
		j->rc = code;
	}
	return 0; /* yajl: stop */
}

static enum jl_ctx jl_top(const struct jl *j)
{
	return j->stack[j->depth - 1];
}

static int jl_push(struct jl *j, enum jl_ctx c)
{
	if (j->depth >= JL_DEPTH)
		return sv_jl_fail(j, -EINVAL, "nested too deeply");
	j->stack[j->depth++] = c;
	return 1;
}

static int jl_skip(struct jl *j)
{
	if (++j->skip > JL_MAX_SKIP)
		return sv_jl_fail(j, -EINVAL, "values nested more than %d deep",
			JL_MAX_SKIP);
	return 1;
}

/* ------------------------------------------------------------------ */
/* Keys                                                                */

static int jl_find(
	const char *const *names, size_t n, const unsigned char *k, size_t len)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (strlen(names[i]) == len && !memcmp(names[i], k, len))
			return (int)i;
	return -1;
}

static const char *const jl_root_keys[] = {"format", "format_version",
	"num_ranks", "metadata", "regions", "threads", "tasks", "likwid",
	"line_profile"};
enum {
	JR_FORMAT,
	JR_VERSION,
	JR_NRANKS,
	JR_META,
	JR_REGIONS,
	JR_THREADS,
	JR_TASKS,
	JR_LIKWID,
	JR_LINES
};

static const char *const jl_row_keys[] = {"name", "rank", "source_file",
	"source_lineno", "source_text", "tags", "aggregate",
	"event_data_available", "exclusive_total_ns", "event_metadata",
	"start_times_ns", "end_times_ns", "gpu_durations_ns", "call_ids",
	"parent_ids", "thread_ids", "task_ids", "await_ns"};
enum {
	JW_NAME,
	JW_RANK,
	JW_FILE,
	JW_LINE,
	JW_TEXT,
	JW_TAGS,
	JW_AGG,
	JW_EDA,
	JW_EXCL,
	JW_EMETA,
	JW_COL0
};

static const char *const jl_thread_keys[] = {"index", "ident", "native_id",
	"daemon", "name", "start_ns", "end_ns", "cpu_ns"};
static const char *const jl_task_keys[] = {"index", "thread_index", "kind",
	"name", "coro_name", "created_ns", "done_ns", "steps", "running_ns",
	"suspended_ns"};

static int jl_on_key(void *ctx, const unsigned char *k, size_t len)
{
	struct jl *j = ctx;

	if (j->cap_kind)
		return sv_jl_cap_key(j, k, len);
	if (j->skip)
		return 1;
	switch (jl_top(j)) {
	case JL_ROOT:
		j->key = jl_find(jl_root_keys, 9, k, len);
		break;
	case JL_META:
		free(j->meta_key);
		j->meta_key = sv_xstrndup((const char *)k, len);
		break;
	case JL_ROW:
		j->key = jl_find(jl_row_keys, JW_COL0 + JL_NCOLS, k, len);
		break;
	case JL_AGG:
		j->key = jl_find(jl_agg_names, JL_NAGG, k, len);
		break;
	case JL_LANES: {
		char buf[24];
		char *end;
		long long r;
		if (len >= sizeof buf)
			len = sizeof buf - 1;
		memcpy(buf, k, len);
		buf[len] = '\0';
		r = strtoll(buf, &end, 10);
		if (end == buf || *end || r < 0 ||
			r > (long long)UINT32_MAX - 1)
			return sv_jl_fail(j, -EINVAL,
				"/%s: \"%s\" is not a rank",
				j->lanes_tasks ? "tasks" : "threads", buf);
		j->lane_rank = (uint32_t)r;
		break;
	}
	case JL_LANE:
		j->key = j->lanes_tasks ? jl_find(jl_task_keys, 10, k, len)
					: jl_find(jl_thread_keys, 8, k, len);
		break;
	default:
		break;
	}
	return 1;
}

/* ------------------------------------------------------------------ */
/* Scalars                                                             */

static const char *jl_kind_name(enum jl_kind k)
{
	static const char *const n[] = {
		"null", "a bool", "an integer", "a float", "a string"};
	return n[k];
}

/* A value as Python would print it, for metadata and tags. */
static char *jl_val_text(const struct jl_val *v)
{
	char buf[64];
	switch (v->kind) {
	case JK_NULL:
		return sv_xstrdup("None");
	case JK_BOOL:
		return sv_xstrdup(v->i ? "True" : "False");
	case JK_INT:
		return sv_xasprintf("%lld", v->i);
	case JK_DOUBLE:
		sv_fmt_py_float(v->d, false, buf, sizeof buf);
		return sv_xstrdup(buf);
	default:
		return sv_utf8_sanitize((const char *)v->s, v->len);
	}
}

static void jl_meta_scalar(struct jl *j, const struct jl_val *v)
{
	static const enum sv_meta_kind kinds[] = {SV_META_OTHER, SV_META_BOOL,
		SV_META_INT, SV_META_FLOAT, SV_META_STRING};
	struct sv_meta *m = sv_profile_add_meta(
		j->p, j->meta_key ? j->meta_key : "", kinds[v->kind]);
	m->i = v->kind == JK_DOUBLE ? 0 : v->i;
	m->f = v->kind == JK_DOUBLE ? v->d : (double)v->i;
	m->text = jl_val_text(v);
}

static int jl_row_scalar(struct jl *j, const struct jl_val *v)
{
	struct jl_row *r = &j->row;

	switch (j->key) {
	case JW_NAME:
		if (v->kind != JK_STRING)
			return sv_jl_fail(j, -EINVAL,
				"regions[%zu]: \"name\" is %s, not a string",
				j->nrow, jl_kind_name(v->kind));
		free(r->name);
		r->name = sv_utf8_sanitize((const char *)v->s, v->len);
		break;
	case JW_RANK:
		if (v->kind != JK_INT || v->i < 0 ||
			v->i > (long long)UINT32_MAX - 1)
			return sv_jl_fail(j, -EINVAL,
				"regions[%zu]: \"rank\" is not a rank (%s)",
				j->nrow,
				v->kind == JK_INT ? "negative or too large"
						  : jl_kind_name(v->kind));
		r->has_rank = true;
		r->rank = v->i;
		break;
	case JW_FILE:
	case JW_TEXT: {
		char **dst =
			j->key == JW_FILE ? &r->source_file : &r->source_text;
		free(*dst);
		*dst = v->kind == JK_STRING && v->len
			       ? sv_utf8_sanitize((const char *)v->s, v->len)
			       : NULL;
		break;
	}
	case JW_LINE:
		r->source_line = v->kind == JK_INT && v->i >= 0 ? v->i : -1;
		break;
	case JW_EDA:
		r->no_events = v->kind == JK_BOOL && !v->i;
		break;
	case JW_EXCL:
		r->has_excl = v->kind == JK_INT;
		r->excl = v->i;
		break;
	default:
		if (j->key >= JW_COL0)
			return sv_jl_fail(j, -EINVAL,
				"regions[%zu].%s is %s, not a list", j->nrow,
				jl_row_keys[j->key], jl_kind_name(v->kind));
		break;
	}
	return 1;
}

/* One value of a row's column; starts and ends go straight into the
 * profile, at the place the row will take. */
static int jl_col_value(struct jl *j, const struct jl_val *v)
{
	struct sv_profile *p = j->p;
	int c = j->col;
	size_t at;

	if (v->kind != JK_INT)
		return sv_jl_fail(j, -EINVAL,
			"regions[%zu].%s[%zu] is %s, not an integer", j->nrow,
			jl_col_names[c], j->n[c], jl_kind_name(v->kind));
	if (c <= JL_END) {
		at = (size_t)p->ncalls + j->n[c];
		if (at >= p->call_cap) {
			if (at >= SV_MAX_CALLS)
				return sv_jl_fail(j, -E2BIG,
					"more than %" PRIu64
					" calls; scopeview cannot hold this "
					"profile",
					(uint64_t)SV_MAX_CALLS);
			sv_profile_reserve_calls(p, (uint64_t)at * 2 + 1024);
		}
		(c == JL_START ? p->start_ns : p->end_ns)[at] = v->i;
		j->n[c]++;
		return 1;
	}
	sv_grow((void **)&j->cols[c], &j->cap[c], j->n[c] + 1,
		sizeof *j->cols[c]);
	j->cols[c][j->n[c]++] = v->i;
	return 1;
}

static void jl_lane_scalar(struct jl *j, const struct jl_val *v)
{
	int64_t i = v->kind == JK_INT ? v->i : -1;
	char **s = NULL;

	if (!j->lanes_tasks) {
		struct sv_thread *t = &j->thread;
		int64_t *f[] = {&t->index, &t->ident, &t->native_id, NULL, NULL,
			&t->start_ns, &t->end_ns, &t->cpu_ns};
		if (j->key == 3)
			t->daemon = (int8_t)(v->kind == JK_BOOL ? v->i : i > 0);
		else if (j->key == 4)
			s = &t->name;
		else if (j->key >= 0)
			*f[j->key] = i;
	} else {
		struct sv_task *t = &j->task;
		int64_t *f[] = {&t->index, &t->thread_index, NULL, NULL, NULL,
			&t->created_ns, &t->done_ns, &t->steps, &t->running_ns,
			&t->suspended_ns};
		if (j->key >= 2 && j->key <= 4)
			s = j->key == 2   ? &t->kind
			    : j->key == 3 ? &t->name
					  : &t->coro_name;
		else if (j->key >= 0)
			*f[j->key] = i;
	}
	if (s) {
		free(*s);
		*s = v->kind == JK_STRING
			     ? sv_utf8_sanitize((const char *)v->s, v->len)
			     : NULL;
	}
}

static int jl_scalar(struct jl *j, const struct jl_val *v)
{
	if (j->cap_kind)
		return sv_jl_cap_scalar(j, v);
	if (j->skip)
		return 1;
	if (!j->depth)
		return sv_jl_fail(j, -EINVAL,
			"is JSON, but not a scope-profiler JSON profile");
	switch (jl_top(j)) {
	case JL_COL:
		return jl_col_value(j, v);
	case JL_ROOT:
		if (j->key == JR_FORMAT) {
			if (v->kind != JK_STRING ||
				v->len != strlen("scope-profiler-profile") ||
				memcmp(v->s, "scope-profiler-profile", v->len))
				return sv_jl_fail(j, -EINVAL,
					"is JSON, but not a scope-profiler "
					"JSON profile (\"format\" is not "
					"\"scope-profiler-profile\")");
			j->has_format = true;
		} else if (j->key == JR_VERSION) {
			j->has_version = true;
			j->version = v->kind == JK_INT ? v->i : 0;
		} else if (j->key == JR_NRANKS && v->kind == JK_INT) {
			j->has_num_ranks = true;
			j->num_ranks = v->i;
		}
		return 1;
	case JL_META:
		jl_meta_scalar(j, v);
		return 1;
	case JL_META_LIST:
		sv_strv_push(&j->meta_list, "");
		free(j->meta_list.v[j->meta_list.n - 1]);
		j->meta_list.v[j->meta_list.n - 1] = jl_val_text(v);
		j->meta_list_odd |= v->kind != JK_STRING;
		return 1;
	case JL_ROW:
		return jl_row_scalar(j, v);
	case JL_TAGS:
		sv_strv_push(&j->row.tags, "");
		free(j->row.tags.v[j->row.tags.n - 1]);
		j->row.tags.v[j->row.tags.n - 1] = jl_val_text(v);
		return 1;
	case JL_AGG:
		if (j->key >= 0 &&
			(v->kind == JK_INT || v->kind == JK_DOUBLE)) {
			/* integers keep every bit; mean and m2 are floats */
			j->row.agg_i[j->key] =
				v->kind == JK_INT ? v->i
				: v->d >= -9.2e18 && v->d <= 9.2e18
					? (int64_t)v->d
					: 0;
			j->row.agg_d[j->key] =
				v->kind == JK_INT ? (double)v->i : v->d;
			j->row.agg_has[j->key] = true;
		}
		return 1;
	case JL_LANE:
		jl_lane_scalar(j, v);
		return 1;
	case JL_REGIONS:
		return sv_jl_fail(j, -EINVAL,
			"regions[%zu] is %s, not an object", j->nrow,
			jl_kind_name(v->kind));
	default:
		return 1;
	}
}

static int jl_on_null(void *ctx)
{
	struct jl_val v = {.kind = JK_NULL};
	return jl_scalar(ctx, &v);
}

static int jl_on_bool(void *ctx, int b)
{
	struct jl_val v = {.kind = JK_BOOL, .i = b != 0};
	return jl_scalar(ctx, &v);
}

static int jl_on_int(void *ctx, long long i)
{
	struct jl *j = ctx;
	struct jl_val v = {.kind = JK_INT, .i = i};
	/* The hot path: a number of a start or end column. */
	if (!j->skip && !j->cap_kind && j->depth &&
		j->stack[j->depth - 1] == JL_COL && j->col <= JL_END) {
		struct sv_profile *p = j->p;
		size_t at = (size_t)p->ncalls + j->n[j->col];
		if (at < p->call_cap) {
			(j->col == JL_START ? p->start_ns : p->end_ns)[at] = i;
			j->n[j->col]++;
			return 1;
		}
	}
	return jl_scalar(j, &v);
}

static int jl_on_double(void *ctx, double d)
{
	struct jl_val v = {.kind = JK_DOUBLE, .d = d};
	return jl_scalar(ctx, &v);
}

static int jl_on_string(void *ctx, const unsigned char *s, size_t len)
{
	struct jl_val v = {.kind = JK_STRING, .s = s, .len = len};
	return jl_scalar(ctx, &v);
}

/* ------------------------------------------------------------------ */
/* Containers                                                          */

static int jl_open(struct jl *j, bool map)
{
	if (j->cap_kind)
		return sv_jl_cap_open(j, map);
	if (j->skip)
		return jl_skip(j);
	if (!j->depth) {
		if (!map)
			return sv_jl_fail(j, -EINVAL,
				"is JSON, but not a scope-profiler JSON "
				"profile (a list, not an object)");
		return jl_push(j, JL_ROOT);
	}
	switch (jl_top(j)) {
	case JL_ROOT:
		if (j->key == JR_META && map)
			return jl_push(j, JL_META);
		if (j->key == JR_REGIONS && !map)
			return jl_push(j, JL_REGIONS);
		if ((j->key == JR_THREADS || j->key == JR_TASKS) && map) {
			j->lanes_tasks = j->key == JR_TASKS;
			return jl_push(j, JL_LANES);
		}
		/* small: kept as text, read once the document is */
		if ((j->key == JR_LIKWID || j->key == JR_LINES) && map) {
			sv_jl_cap_begin(j, j->key == JR_LIKWID ? JL_CAP_LIKWID
							       : JL_CAP_LINES);
			return sv_jl_cap_open(j, map);
		}
		return jl_skip(j);
	case JL_META:
		if (!map) {
			sv_strv_fini(&j->meta_list);
			j->meta_list_odd = false;
			return jl_push(j, JL_META_LIST);
		} else {
			struct sv_meta *m = sv_profile_add_meta(j->p,
				j->meta_key ? j->meta_key : "", SV_META_OTHER);
			m->text = sv_xstrdup("{...}");
		}
		return jl_skip(j);
	case JL_META_LIST:
		j->meta_list_odd = true;
		sv_strv_push(&j->meta_list, map ? "{...}" : "[...]");
		return jl_skip(j);
	case JL_REGIONS:
		if (!map)
			return sv_jl_fail(j, -EINVAL,
				"regions[%zu] is a list, not an object",
				j->nrow);
		sv_jl_row_reset(j);
		return jl_push(j, JL_ROW);
	case JL_ROW:
		if (j->key >= JW_COL0 && !map) {
			j->col = j->key - JW_COL0;
			j->has[j->col] = true;
			j->n[j->col] = 0;
			return jl_push(j, JL_COL);
		}
		if (j->key == JW_TAGS && !map) {
			sv_strv_fini(&j->row.tags);
			return jl_push(j, JL_TAGS);
		}
		if (j->key == JW_AGG && map) {
			j->row.has_agg = true;
			return jl_push(j, JL_AGG);
		}
		if (j->key == JW_EMETA && !map) {
			sv_jl_cap_begin(j, JL_CAP_EMETA);
			return sv_jl_cap_open(j, map);
		}
		if (j->key >= JW_COL0 || j->key == JW_NAME || j->key == JW_RANK)
			return sv_jl_fail(j, -EINVAL,
				"regions[%zu].%s is not what it should be",
				j->nrow, jl_row_keys[j->key]);
		return jl_skip(j);
	case JL_LANES:
		if (!map)
			return jl_push(j, JL_LANE_LIST);
		return jl_skip(j);
	case JL_LANE_LIST:
		if (map) {
			memset(&j->thread, 0, sizeof j->thread);
			memset(&j->task, 0, sizeof j->task);
			j->thread.start_ns = j->thread.end_ns = -1;
			j->thread.cpu_ns = -1;
			j->task.created_ns = j->task.done_ns = -1;
			j->key = -1;
			return jl_push(j, JL_LANE);
		}
		return jl_skip(j);
	default:
		return jl_skip(j);
	}
}

static int jl_close(struct jl *j)
{
	enum jl_ctx c;

	if (j->cap_kind)
		return sv_jl_cap_close(j);
	if (j->skip) {
		j->skip--;
		return 1;
	}
	c = j->stack[--j->depth];
	switch (c) {
	case JL_ROW:
		if (!sv_jl_row_end(j))
			return 0;
		j->nrow++;
		return 1;
	case JL_META_LIST: {
		struct sv_meta *m = sv_profile_add_meta(j->p,
			j->meta_key ? j->meta_key : "",
			j->meta_list_odd ? SV_META_OTHER : SV_META_STRINGS);
		m->text = sv_strv_join(j->meta_list.v, j->meta_list.n, ", ");
		if (!j->meta_list_odd) {
			m->strs = j->meta_list.v;
			m->nstrs = j->meta_list.n;
			j->meta_list.v = NULL;
			j->meta_list.n = 0;
		}
		sv_strv_fini(&j->meta_list);
		return 1;
	}
	case JL_LANE:
		if (j->lanes_tasks) {
			struct sv_task *t = sv_profile_add_task(j->p);
			*t = j->task;
			t->rank = j->lane_rank;
			if (!t->kind)
				t->kind = sv_xstrdup("task");
			if (!t->name)
				t->name = sv_xstrdup("");
			if (!t->coro_name)
				t->coro_name = sv_xstrdup("");
		} else {
			struct sv_thread *t = sv_profile_add_thread(j->p);
			*t = j->thread;
			t->rank = j->lane_rank;
			if (!t->name)
				t->name = sv_xstrdup("");
		}
		memset(&j->thread, 0, sizeof j->thread);
		memset(&j->task, 0, sizeof j->task);
		return 1;
	default:
		return 1;
	}
}

static int jl_on_start_map(void *ctx)
{
	return jl_open(ctx, true);
}

static int jl_on_end_map(void *ctx)
{
	return jl_close(ctx);
}

static int jl_on_start_array(void *ctx)
{
	return jl_open(ctx, false);
}

static int jl_on_end_array(void *ctx)
{
	return jl_close(ctx);
}

const yajl_callbacks sv_jl_callbacks = {
	.yajl_null = jl_on_null,
	.yajl_boolean = jl_on_bool,
	.yajl_integer = jl_on_int,
	.yajl_double = jl_on_double,
	.yajl_string = jl_on_string,
	.yajl_start_map = jl_on_start_map,
	.yajl_map_key = jl_on_key,
	.yajl_end_map = jl_on_end_map,
	.yajl_start_array = jl_on_start_array,
	.yajl_end_array = jl_on_end_array,
};
