/*
 * load_json_extra.c: the small parts of a JSON profile that are not
 * columns (doc/format.md 16.3): each row's event_metadata, the LIKWID
 * results and the line profiles.  The parser keeps each as compact JSON
 * text while it streams past (a few KB where the event columns are GB);
 * once the document is read, jansson reads those texts and they go into
 * the profile as the HDF5 loader puts them there (callmeta.h,
 * counters.h).
 */
#include "load_json.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/callmeta.h"
#include "scopeview/counters.h"
#include "scopeview/fmt.h"

/* ------------------------------------------------------------------ */
/* Keeping a value as text                                             */

static void cap_put(struct jl *j, const char *s, size_t n)
{
	sv_grow((void **)&j->cap_text, &j->cap_cap, j->cap_n + n + 1, 1);
	memcpy(j->cap_text + j->cap_n, s, n);
	j->cap_n += n;
	j->cap_text[j->cap_n] = '\0';
}

static void cap_puts(struct jl *j, const char *s)
{
	cap_put(j, s, strlen(s));
}

static void cap_string(struct jl *j, const unsigned char *s, size_t n)
{
	size_t i;
	cap_put(j, "\"", 1);
	for (i = 0; i < n; i++) {
		char e[8];
		if (s[i] == '"' || s[i] == '\\') {
			e[0] = '\\';
			e[1] = (char)s[i];
			cap_put(j, e, 2);
		} else if (s[i] < 0x20) {
			snprintf(e, sizeof e, "\\u%04x", s[i]);
			cap_put(j, e, 6);
		} else {
			cap_put(j, (const char *)s + i, 1);
		}
	}
	cap_put(j, "\"", 1);
}

/* The separator before an item of the innermost container. */
static void cap_item(struct jl *j)
{
	if (j->cap_after_key) {
		j->cap_after_key = false;
		return;
	}
	if (j->cap_depth && !(j->cap_st[j->cap_depth - 1] & 1))
		cap_put(j, ",", 1);
	if (j->cap_depth)
		j->cap_st[j->cap_depth - 1] &= (unsigned char)~1u;
}

void sv_jl_cap_begin(struct jl *j, enum jl_cap kind)
{
	j->cap_kind = kind;
	j->cap_depth = 0;
	j->cap_n = 0;
	j->cap_after_key = false;
}

int sv_jl_cap_open(struct jl *j, bool map)
{
	if (j->cap_depth >= JL_MAX_SKIP)
		return sv_jl_fail(j, -EINVAL, "values nested more than %d deep",
			JL_MAX_SKIP);
	cap_item(j);
	cap_put(j, map ? "{" : "[", 1);
	sv_grow((void **)&j->cap_st, &j->cap_st_cap, j->cap_depth + 1, 1);
	j->cap_st[j->cap_depth++] = (unsigned char)(1 | (map ? 2 : 0));
	return 1;
}

int sv_jl_cap_close(struct jl *j)
{
	char *text;

	cap_put(j, j->cap_st[--j->cap_depth] & 2 ? "}" : "]", 1);
	if (j->cap_depth)
		return 1;
	text = sv_xstrdup(j->cap_text ? j->cap_text : "");
	switch (j->cap_kind) {
	case JL_CAP_EMETA:
		free(j->row_emeta);
		j->row_emeta = text;
		break;
	case JL_CAP_LIKWID:
		free(j->likwid_text);
		j->likwid_text = text;
		break;
	default:
		free(j->lines_text);
		j->lines_text = text;
		break;
	}
	j->cap_kind = JL_CAP_NONE;
	return 1;
}

int sv_jl_cap_key(struct jl *j, const unsigned char *k, size_t len)
{
	cap_item(j);
	cap_string(j, k, len);
	cap_put(j, ":", 1);
	j->cap_after_key = true;
	return 1;
}

int sv_jl_cap_scalar(struct jl *j, const struct jl_val *v)
{
	char buf[64];

	cap_item(j);
	switch (v->kind) {
	case JK_NULL:
		cap_puts(j, "null");
		break;
	case JK_BOOL:
		cap_puts(j, v->i ? "true" : "false");
		break;
	case JK_INT:
		snprintf(buf, sizeof buf, "%lld", v->i);
		cap_puts(j, buf);
		break;
	case JK_DOUBLE:
		/* as Python writes it: 1.0, 1e-07 */
		sv_fmt_py_float(v->d, false, buf, sizeof buf);
		cap_puts(j, buf);
		break;
	default:
		cap_string(j, v->s, v->len);
		break;
	}
	return 1;
}

/* ------------------------------------------------------------------ */
/* Into the profile                                                    */

/* A JSON number (null: NaN, a non-finite value as it travels). */
static double ex_num(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A list of strings (anything else: its text) as a malloc'd array. */
static char **ex_strs(const json_t *a, size_t *n)
{
	char **out;
	size_t i;

	*n = json_is_array(a) ? json_array_size(a) : 0;
	out = sv_xcalloc(*n ? *n : 1, sizeof *out);
	for (i = 0; i < *n; i++) {
		const json_t *s = json_array_get(a, i);
		out[i] = json_is_string(s)
				 ? sv_utf8_sanitize(json_string_value(s),
					   json_string_length(s))
				 : sv_xstrdup("?");
	}
	return out;
}

/* A list of rows rows x cols numbers (a matrix), or NULL when it is not
 * that shape. */
static double *ex_matrix(const json_t *a, size_t rows, size_t cols)
{
	double *m;
	size_t r, c;

	if (!json_is_array(a) || json_array_size(a) != rows)
		return NULL;
	m = sv_xcalloc(rows && cols ? rows * cols : 1, sizeof *m);
	for (r = 0; r < rows; r++) {
		const json_t *row = json_array_get(a, r);
		if (!json_is_array(row) || json_array_size(row) != cols) {
			free(m);
			return NULL;
		}
		for (c = 0; c < cols; c++)
			m[r * cols + c] = ex_num(json_array_get(row, c));
	}
	return m;
}

static bool ex_rank(const char *key, uint32_t *rank)
{
	char *end;
	long long r = strtoll(key, &end, 10);
	if (end == key || *end || r < 0 || r > (long long)UINT32_MAX - 1)
		return false;
	*rank = (uint32_t)r;
	return true;
}

static const char *ex_str(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_string(v) && json_string_length(v) ? json_string_value(v)
							  : NULL;
}

/* rank -> tag -> LIKWID result (json_export.py _likwid_document). */
static void ex_likwid(struct jl *j, const json_t *doc)
{
	const char *rk, *tag;
	json_t *tags, *e;

	json_object_foreach((json_t *)doc, rk, tags)
	{
		uint32_t rank;
		if (!ex_rank(rk, &rank) || !json_is_object(tags)) {
			sv_profile_warn(
				j->p, "/likwid/%s: not a rank; ignored", rk);
			continue;
		}
		json_object_foreach(tags, tag, e)
		{
			size_t nev, nreg, nmet, nt, t;
			const json_t *cpus = json_object_get(e, "cpus");
			char **ev = ex_strs(
				json_object_get(e, "event_names"), &nev);
			char **regs = ex_strs(
				json_object_get(e, "counter_names"), &nreg);
			char **mn = ex_strs(
				json_object_get(e, "metric_names"), &nmet);
			double *events, *metrics, *times;
			int64_t *counts;
			const json_t *jt = json_object_get(e, "times");
			const json_t *jc = json_object_get(e, "call_counts");

			nt = json_is_array(cpus) ? json_array_size(cpus) : 0;
			events = ex_matrix(
				json_object_get(e, "events"), nev, nt);
			metrics = ex_matrix(
				json_object_get(e, "metrics"), nmet, nt);
			if (!events) {
				sv_profile_warn(j->p,
					"/likwid/%s/%s: events is not %zu x "
					"%zu "
					"numbers; ignored",
					rk, tag, nev, nt);
				sv_strv_free_array(ev, nev);
				sv_strv_free_array(regs, nreg);
				sv_strv_free_array(mn, nmet);
				free(metrics);
				continue;
			}
			times = json_array_size(jt) == nt
					? sv_xcalloc(nt ? nt : 1, sizeof *times)
					: NULL;
			counts = json_array_size(jc) == nt
					 ? sv_xcalloc(
						   nt ? nt : 1, sizeof *counts)
					 : NULL;
			for (t = 0; t < nt; t++) {
				if (times)
					times[t] =
						ex_num(json_array_get(jt, t));
				if (counts)
					counts[t] = (int64_t)json_integer_value(
						json_array_get(jc, t));
			}
			sv_counters_add_likwid(j->p, rank,
				ex_str(e, "tag") ? ex_str(e, "tag") : tag,
				ex_str(e, "group_name"), ev, nev, regs, nreg,
				events, nt, counts, times, mn, nmet, metrics);
			sv_strv_free_array(regs, nreg);
			free(events);
			free(metrics);
			free(times);
			free(counts);
		}
	}
}

/* rank -> list of line-profiler records. */
static void ex_lines(struct jl *j, const json_t *doc)
{
	const char *rk;
	json_t *list;

	json_object_foreach((json_t *)doc, rk, list)
	{
		uint32_t rank;
		size_t i, k, n;
		if (!ex_rank(rk, &rank) || !json_is_array(list)) {
			sv_profile_warn(j->p,
				"/line_profile/%s: not a rank; ignored", rk);
			continue;
		}
		for (i = 0; i < json_array_size(list); i++) {
			const json_t *r = json_array_get(list, i);
			const json_t *ln = json_object_get(r, "line_numbers");
			const json_t *hi = json_object_get(r, "hits");
			const json_t *tm = json_object_get(r, "times");
			struct sv_line_profile *l;
			double unit = ex_num(json_object_get(r, "unit"));
			const json_t *first =
				json_object_get(r, "first_lineno");

			n = json_array_size(ln);
			if (json_array_size(hi) != n ||
				json_array_size(tm) != n) {
				sv_profile_warn(j->p,
					"/line_profile/%s/%zu: line_numbers, "
					"hits and times differ in length; "
					"ignored",
					rk, i);
				continue;
			}
			j->p->lineprofs = sv_xreallocarray(j->p->lineprofs,
				j->p->nlineprofs + 1, sizeof *j->p->lineprofs);
			l = &j->p->lineprofs[j->p->nlineprofs++];
			memset(l, 0, sizeof *l);
			l->rank = rank;
			l->region = ex_str(r, "region")
					    ? sv_xstrdup(ex_str(r, "region"))
					    : NULL;
			l->filename =
				ex_str(r, "filename")
					? sv_xstrdup(ex_str(r, "filename"))
					: NULL;
			l->function =
				ex_str(r, "function")
					? sv_xstrdup(ex_str(r, "function"))
					: NULL;
			l->first_lineno = json_is_integer(first)
						  ? json_integer_value(first)
						  : -1;
			l->source_first_lineno = -1;
			l->unit = unit > 0 ? unit : 1e-6;
			l->nlines = n;
			l->line = sv_xcalloc(n ? n : 1, sizeof *l->line);
			l->hits = sv_xcalloc(n ? n : 1, sizeof *l->hits);
			l->time = sv_xcalloc(n ? n : 1, sizeof *l->time);
			for (k = 0; k < n; k++) {
				l->line[k] = json_integer_value(
					json_array_get(ln, k));
				l->hits[k] = json_integer_value(
					json_array_get(hi, k));
				l->time[k] = ex_num(json_array_get(tm, k));
			}
		}
	}
}

static void ex_section(struct jl *j, char **text, const char *name,
	void (*fn)(struct jl *, const json_t *))
{
	json_error_t e;
	json_t *doc;

	if (!*text)
		return;
	doc = json_loads(*text, JSON_ALLOW_NUL, &e);
	if (!doc || !json_is_object(doc))
		sv_profile_warn(j->p, "/%s: cannot be read (%s); ignored", name,
			doc ? "not an object" : e.text);
	else
		fn(j, doc);
	json_decref(doc);
	free(*text);
	*text = NULL;
}

void sv_jl_extras(struct jl *j)
{
	char why[160];
	size_t i;

	for (i = 0; i < j->nemeta; i++) {
		struct jl_emeta *m = &j->emeta[i];
		if (sv_callmeta_set_row(j->p, m->first, m->count, m->text, why,
			    sizeof why) < 0)
			sv_profile_warn(j->p,
				"regions[%zu].event_metadata: %s; its calls' "
				"metadata is ignored",
				m->nrow, why);
		free(m->text);
	}
	free(j->emeta);
	j->emeta = NULL;
	j->nemeta = 0;
	ex_section(j, &j->likwid_text, "likwid", ex_likwid);
	ex_section(j, &j->lines_text, "line_profile", ex_lines);
}
