/*
 * load_h5_index.c: /region_table and /rank_region_index (doc/format.md
 * 4.1-4.4): the region names, one row per (rank, region) with its event
 * range, and the optional per-row columns (source, tags, summaries).
 *
 * Every id, rank and range read here is checked before the event reader
 * or the profile use it.
 */
#include "load_h5_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* The index: /region_table and /rank_region_index                     */

void sv_h5_index_free(struct sv_h5_index *ix)
{
	free(ix->region);
	free(ix->rank);
	free(ix->offset);
	free(ix->count);
	free(ix->keep);
	free(ix->src);
	free(ix->sums);
}

/* The job's way of sharing the index (sv_load_share), or NULL. */
static const struct sv_load_share *index_share(const struct sv_h5 *h)
{
	return h->opts ? h->opts->share : NULL;
}

/* Read all n elements (of size bytes each, as mtype) of ds into out: here,
 * or by the job's root process and handed over (sv_load_share).  A read
 * the root refused as optional (sv_h5_read_optional) reaches the others
 * as 1, and they leave the column out too. */
static int index_read_all(struct sv_h5 *h, hid_t ds, const char *obj,
	hid_t mtype, hsize_t n, size_t size, void *out, bool optional)
{
	const struct sv_load_share *sh = index_share(h);
	int rc = 0, got;

	if (!sh || sh->root) {
		rc = sv_h5_read_range(h, ds, obj, mtype, 0, n, out);
		if (rc && optional && sv_h5_read_optional(h, rc, obj))
			rc = 1;
	}
	if (!sh)
		return rc;
	got = sh->bcast(sh->ctx, out, (size_t)n * size, rc);
	if (got < 0 && !sh->root)
		return sv_h5_fail(h, got, obj,
			"cannot be read (by the job's first process)");
	return got;
}

int sv_h5_index_ints(
	struct sv_h5 *h, hid_t g, const char *name, hsize_t *n, int64_t **out)
{
	char obj[128];
	struct sv_h5_col c;
	int rc;

	snprintf(obj, sizeof obj, "/rank_region_index/%s", name);
	rc = sv_h5_col_open(
		h, g, name, obj, SV_H5_REQUIRED | SV_H5_INT, *n, &c);
	if (rc)
		return rc;
	*n = c.n;
	*out = sv_xcalloc(c.n ? c.n : 1, sizeof **out);
	rc = index_read_all(
		h, c.ds, obj, H5T_NATIVE_INT64, c.n, sizeof **out, *out, false);
	sv_h5_col_close(&c);
	return rc;
}

static int index_cmp_pair(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

static int index_name_cmp(const void *a, const void *b)
{
	const char *const *x = a, *const *y = b;
	return strcmp(*x, *y);
}

/* Warn once about names that appear more than once (O(n log n)). */
static void index_warn_duplicate_names(struct sv_h5 *h, char **names, size_t n)
{
	const char **sorted;
	size_t i, dups = 0, first = 0;

	if (n < 2)
		return;
	sorted = sv_xmalloc(n * sizeof *sorted);
	for (i = 0; i < n; i++)
		sorted[i] = names[i];
	qsort(sorted, n, sizeof *sorted, index_name_cmp);
	for (i = 1; i < n; i++)
		if (!strcmp(sorted[i - 1], sorted[i]) && dups++ == 0)
			first = i;
	if (dups) {
		char *shown = sv_h5_show(sorted[first]);
		sv_profile_warn(h->p,
			"/region_table/names: %zu name%s given more than once "
			"(\"%s\" among them); they stay separate regions, as "
			"their ids say",
			dups, dups == 1 ? " is" : "s are", shown);
		free(shown);
	}
	free(sorted);
}

/* Region names (/region_table/names) into the profile. */
static int index_load_names(struct sv_h5 *h, struct sv_h5_index *ix)
{
	struct sv_h5_col c;
	char **names = NULL;
	hsize_t i;
	int rc;

	if (!sv_h5_exists(h->file, "region_table"))
		return sv_h5_fail(h, -EINVAL, "/region_table",
			"required group is missing");
	{
		hid_t g = H5Oopen(h->file, "region_table", H5P_DEFAULT);
		if (g < 0)
			return sv_h5_fail(h, -EIO, "/region_table",
				"cannot open%s", sv_h5_last_error());
		if (H5Iget_type(g) != H5I_GROUP) {
			H5Oclose(g);
			return sv_h5_fail(h, -EINVAL, "/region_table",
				"is a dataset, but a group was expected");
		}
		rc = sv_h5_col_open(h, g, "names", "/region_table/names",
			SV_H5_REQUIRED | SV_H5_STRING, (hsize_t)-1, &c);
		H5Oclose(g);
	}
	if (rc)
		return rc;
	if (c.n >= UINT32_MAX) {
		sv_h5_col_close(&c);
		return sv_h5_fail(h, -EINVAL, "/region_table/names",
			"holds too many names");
	}
	rc = sv_h5_read_strings(h, c.ds, "/region_table/names", c.n, &names);
	sv_h5_col_close(&c);
	if (rc)
		return rc;
	for (i = 0; i < c.n; i++)
		sv_profile_add_region(h->p, names[i]);
	index_warn_duplicate_names(h, names, (size_t)c.n);
	sv_strv_free_array(names, (size_t)c.n);
	ix->nnames = (uint32_t)c.n;
	return 0;
}

/* region_ids, ranks: present, in range, no (rank, region) twice. */
int sv_h5_index_check_ids(struct sv_h5 *h, struct sv_h5_index *ix)
{
	hsize_t i;
	uint64_t *pairs;
	int rc = 0;

	for (i = 0; i < ix->nrows; i++) {
		if (ix->region[i] < 0 || ix->region[i] >= ix->nnames)
			return sv_h5_fail(h, -EINVAL,
				"/rank_region_index/region_ids",
				"row %llu names region %" PRId64
				", but /region_table/names holds %u names",
				(unsigned long long)i, ix->region[i],
				ix->nnames);
		if (ix->rank[i] < 0 || ix->rank[i] >= (int64_t)UINT32_MAX)
			return sv_h5_fail(h, -EINVAL,
				"/rank_region_index/ranks",
				"row %llu has rank %" PRId64
				", which is out of range",
				(unsigned long long)i, ix->rank[i]);
	}
	/* Sort (rank << 32 | region, row) pairs to find duplicates. */
	pairs = sv_xcalloc(ix->nrows ? ix->nrows * 2 : 2, sizeof *pairs);
	for (i = 0; i < ix->nrows; i++) {
		pairs[2 * i] =
			(uint64_t)ix->rank[i] << 32 | (uint64_t)ix->region[i];
		pairs[2 * i + 1] = i;
	}
	qsort(pairs, ix->nrows, 2 * sizeof *pairs, index_cmp_pair);
	for (i = 1; i < ix->nrows; i++)
		if (pairs[2 * i] == pairs[2 * i - 2]) {
			uint64_t a = pairs[2 * i - 1], b = pairs[2 * i + 1];
			char *name = sv_h5_show(h->p->regions[ix->region[a]]);
			rc = sv_h5_fail(h, -EINVAL, "/rank_region_index",
				"rows %llu and %llu both hold rank %" PRId64
				", region '%s'",
				(unsigned long long)a, (unsigned long long)b,
				ix->rank[a], name);
			free(name);
			break;
		}
	free(pairs);
	return rc;
}

int sv_h5_index_check_events(
	struct sv_h5 *h, struct sv_h5_index *ix, hsize_t m, const char *colpath)
{
	hsize_t i, k = 0;
	uint64_t *spans;
	int rc = 0;

	for (i = 0; i < ix->nrows; i++) {
		int64_t off = ix->offset[i], cnt = ix->count[i];
		if (cnt < 0 || cnt == INT64_MAX)
			return sv_h5_fail(h, -EINVAL,
				"/rank_region_index/event_counts",
				"row %llu claims %" PRId64
				" calls, which is not a valid count",
				(unsigned long long)i, cnt);
		if (off < 0 || off == INT64_MAX)
			return sv_h5_fail(h, -EINVAL,
				"/rank_region_index/event_offsets",
				"row %llu has offset %" PRId64
				", which is not a valid offset",
				(unsigned long long)i, off);
		if ((uint64_t)cnt > m || (uint64_t)off > m - (uint64_t)cnt)
			return sv_h5_fail(h, -EINVAL,
				"/rank_region_index/event_counts",
				"row %llu claims %" PRId64
				" calls at offset %" PRId64
				", but %s holds %llu; the file is truncated "
				"or damaged",
				(unsigned long long)i, cnt, off, colpath,
				(unsigned long long)m);
	}
	spans = sv_xcalloc(ix->nrows ? ix->nrows * 2 : 2, sizeof *spans);
	for (i = 0; i < ix->nrows; i++)
		if (ix->count[i] > 0) {
			spans[2 * k] = (uint64_t)ix->offset[i];
			spans[2 * k + 1] = i;
			k++;
		}
	qsort(spans, k, 2 * sizeof *spans, index_cmp_pair);
	for (i = 1; i < k; i++) {
		uint64_t a = spans[2 * i - 1], b = spans[2 * i + 1];
		if ((uint64_t)ix->offset[a] + (uint64_t)ix->count[a] >
			(uint64_t)ix->offset[b]) {
			rc = sv_h5_fail(h, -EINVAL,
				"/rank_region_index/event_offsets",
				"rows %llu and %llu overlap: their event "
				"slices [%" PRId64 ", %" PRId64
				") and [%" PRId64 ", %" PRId64 ") share events",
				(unsigned long long)a, (unsigned long long)b,
				ix->offset[a], ix->offset[a] + ix->count[a],
				ix->offset[b], ix->offset[b] + ix->count[b]);
			break;
		}
	}
	free(spans);
	return rc;
}

/* sv_profile_add_row failed (too many calls): name the file. */
int sv_h5_index_row_fail(struct sv_h5 *h, const char *obj)
{
	char msg[sizeof h->err->msg];
	int code = h->err->code ? h->err->code : -EFBIG;

	snprintf(msg, sizeof msg, "%s", h->err->msg);
	return sv_h5_fail(h, code, obj, "%s", msg);
}

/* ------------------------------------------------------------------ */
/* Per-row optional index columns                                      */

/* The bad rows of one optional column: the first one's warning (at
 * p->warnings[at]) stands for all of them, so a million bad rows are one
 * warning, not a million. */
struct index_bad {
	uint64_t n; /* bad rows so far */
	size_t at;
};

/* A bad row: true when its warning is to be made (the first one). */
static bool index_bad_row(struct sv_h5 *h, struct index_bad *b)
{
	if (b->n++)
		return false;
	b->at = h->p->nwarnings;
	return true;
}

/* After the rows: the first row's warning says how many more there were. */
static void index_bad_end(struct sv_h5 *h, const struct index_bad *b)
{
	char *w;

	if (b->n < 2 || b->at >= h->p->nwarnings)
		return;
	w = sv_xasprintf("%s (and %" PRIu64 " more rows like it)",
		h->p->warnings[b->at], b->n - 1);
	free(h->p->warnings[b->at]);
	h->p->warnings[b->at] = w;
}

/* Parse a row's JSON tag text (doc/format.md 4.3) into row->tags. */
static void index_row_tags(struct sv_h5 *h, struct sv_row *row, hsize_t r,
	const char *text, struct index_bad *bad)
{
	json_error_t jerr;
	json_t *j;
	char *name;
	size_t i;

	if (!*text)
		return; /* "" reads as [] */
	j = json_loads(text, JSON_DECODE_ANY, &jerr);
	if (!j || !json_is_array(j)) {
		row->tags = sv_xcalloc(1, sizeof *row->tags);
		row->tags[0] = sv_xstrdup(text);
		row->ntags = 1;
		row->tags_raw = true;
		if (index_bad_row(h, bad)) {
			name = sv_h5_show(h->p->regions[row->region]);
			sv_profile_warn(h->p,
				"/rank_region_index/tags: row %llu (rank %u, "
				"'%s'): tag text is not a JSON array; shown as "
				"is",
				(unsigned long long)r, row->rank, name);
			free(name);
		}
		json_decref(j);
		return;
	}
	row->ntags = json_array_size(j);
	row->tags = sv_xcalloc(row->ntags ? row->ntags : 1, sizeof *row->tags);
	for (i = 0; i < row->ntags; i++) {
		json_t *v = json_array_get(j, i);
		if (json_is_string(v)) {
			row->tags[i] = sv_utf8_sanitize(
				json_string_value(v), json_string_length(v));
		} else {
			char *d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
			row->tags[i] = sv_xstrdup(d ? d : "?");
			free(d);
		}
	}
	json_decref(j);
}

/* The optional string column name of the rows ix keeps, one a kept row
 * (ix->nrows, in order): under a rank subset only the kept rows' strings
 * are read, so a column of every rank costs what the ranks read hold. */
static int index_strings(struct sv_h5 *h, hid_t g, const char *name,
	const struct sv_h5_index *ix, char ***out)
{
	char obj[128];
	struct sv_h5_col c;
	hsize_t n = ix->src ? ix->file_nrows : ix->nrows;
	size_t j, m;
	int rc;

	*out = NULL;
	snprintf(obj, sizeof obj, "/rank_region_index/%s", name);
	rc = sv_h5_col_open(h, g, name, obj, SV_H5_STRING, n, &c);
	if (rc)
		return rc < 0 ? rc : 0;
	if (!ix->src) {
		rc = sv_h5_read_strings(h, c.ds, obj, c.n, out);
	} else {
		*out = sv_xcalloc(ix->nrows ? ix->nrows : 1, sizeof **out);
		for (j = 0; j < ix->nrows && !rc; j += m) {
			m = ix->nrows - j < 65536 ? ix->nrows - j : 65536;
			rc = sv_h5_read_strings_at(
				h, c.ds, obj, &ix->src[j], m, &(*out)[j]);
		}
		if (rc) {
			sv_strv_free_array(*out, ix->nrows);
			*out = NULL;
		}
	}
	sv_h5_col_close(&c);
	return sv_h5_read_optional(h, rc, obj) ? 0 : rc;
}

static int index_opt_ints(struct sv_h5 *h, hid_t g, const char *name,
	hsize_t nrows, int64_t **out)
{
	char obj[128];
	struct sv_h5_col c;
	int rc;

	*out = NULL;
	snprintf(obj, sizeof obj, "/rank_region_index/%s", name);
	rc = sv_h5_col_open(h, g, name, obj, SV_H5_INT, nrows, &c);
	if (rc)
		return rc < 0 ? rc : 0;
	*out = sv_xcalloc(c.n ? c.n : 1, sizeof **out);
	rc = sv_h5_read_range(h, c.ds, obj, H5T_NATIVE_INT64, 0, c.n, *out);
	sv_h5_col_close(&c);
	if (rc) {
		free(*out);
		*out = NULL;
	}
	return sv_h5_read_optional(h, rc, obj) ? 0 : rc;
}

/* summary_statistics, read by field name into struct sv_summary. */
int sv_h5_index_summaries(
	struct sv_h5 *h, hid_t g, hsize_t nrows, struct sv_summary **out)
{
	static const struct {
		const char *name;
		size_t off;
		int kind; /* 0 int64, 1 uint64, 2 double */
	} fields[] = {
		{"total", offsetof(struct sv_summary, total), 0},
		{"minimum", offsetof(struct sv_summary, minimum), 0},
		{"maximum", offsetof(struct sv_summary, maximum), 0},
		{"first", offsetof(struct sv_summary, first), 0},
		{"last", offsetof(struct sv_summary, last), 0},
		{"start_minimum", offsetof(struct sv_summary, start_minimum),
			0},
		{"end_maximum", offsetof(struct sv_summary, end_maximum), 0},
		{"gpu_count", offsetof(struct sv_summary, gpu_count), 1},
		{"gpu_total", offsetof(struct sv_summary, gpu_total), 0},
		{"mean", offsetof(struct sv_summary, mean), 2},
		{"m2", offsetof(struct sv_summary, m2), 2},
	};
	const char *obj = "/rank_region_index/summary_statistics";
	struct sv_h5_col c;
	hid_t ftype, mtype;
	char missing[200] = "";
	size_t i;
	int rc;

	*out = NULL;
	rc = sv_h5_col_open(
		h, g, "summary_statistics", obj, SV_H5_ANY, nrows, &c);
	if (rc)
		return rc < 0 ? rc : 0;
	ftype = H5Dget_type(c.ds);
	if (H5Tget_class(ftype) != H5T_COMPOUND) {
		sv_profile_warn(h->p,
			"%s: has %s type, not a compound; "
			"ignored",
			obj, sv_h5_class_name(H5Tget_class(ftype)));
		H5Tclose(ftype);
		sv_h5_col_close(&c);
		return 0;
	}
	for (i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (H5Tget_member_index(ftype, fields[i].name) < 0) {
			size_t l = strlen(missing);
			snprintf(missing + l, sizeof missing - l, "%s%s",
				l ? ", " : "", fields[i].name);
		}
	H5Tclose(ftype);
	if (*missing) {
		sv_profile_warn(h->p,
			"%s: lacks field(s) %s; stored statistics ignored", obj,
			missing);
		sv_h5_col_close(&c);
		return 0;
	}
	mtype = H5Tcreate(H5T_COMPOUND, sizeof(struct sv_summary));
	for (i = 0; i < sizeof fields / sizeof fields[0]; i++)
		H5Tinsert(mtype, fields[i].name, fields[i].off,
			fields[i].kind == 0   ? H5T_NATIVE_INT64
			: fields[i].kind == 1 ? H5T_NATIVE_UINT64
					      : H5T_NATIVE_DOUBLE);
	*out = sv_xcalloc(c.n ? c.n : 1, sizeof **out);
	rc = index_read_all(h, c.ds, obj, mtype, c.n, sizeof **out, *out, true);
	H5Tclose(mtype);
	sv_h5_col_close(&c);
	if (rc) {
		free(*out);
		*out = NULL;
	}
	return rc > 0 ? 0 : rc;
}

/* Source lines, files, texts, tags, exclusive totals and stored summaries
 * of every row (all optional). */
/* One row's event_metadata (doc/format.md 4.11): a list that does not
 * fit the row's calls is dropped with a warning naming the (first such)
 * row. */
static void index_row_meta(struct sv_h5 *h, const struct sv_row *row, hsize_t r,
	const char *text, struct index_bad *bad)
{
	char why[160];

	if (sv_callmeta_set_row(
		    h->p, row->first, row->count, text, why, sizeof why) < 0 &&
		index_bad_row(h, bad))
		sv_profile_warn(h->p,
			"/rank_region_index/event_metadata: row %llu (rank "
			"%" PRIu32 ", region '%s') %s; its calls' metadata is "
			"ignored",
			(unsigned long long)r, row->rank,
			h->p->regions[row->region], why);
}

int sv_h5_index_row_extras(struct sv_h5 *h, hid_t g, struct sv_h5_index *ix)
{
	char **files = NULL, **texts = NULL, **tags = NULL, **meta = NULL;
	int64_t *lines = NULL, *excl = NULL;
	struct sv_summary *sums = NULL;
	struct index_bad bad_tags = {0, 0}, bad_meta = {0, 0};
	hsize_t r, n = ix->src ? ix->file_nrows : ix->nrows;
	int rc;

	rc = index_opt_ints(h, g, "source_lines", n, &lines);
	if (!rc)
		rc = index_opt_ints(h, g, "exclusive_totals", n, &excl);
	if (!rc)
		rc = index_strings(h, g, "source_files", ix, &files);
	if (!rc)
		rc = index_strings(h, g, "source_texts", ix, &texts);
	if (!rc)
		rc = index_strings(h, g, "tags", ix, &tags);
	if (!rc && ix->sums_read) {
		sums = ix->sums;
		ix->sums = NULL;
	} else if (!rc) {
		rc = sv_h5_index_summaries(h, g, n, &sums);
	}
	if (!rc && h->p->has_calls)
		rc = index_strings(h, g, "event_metadata", ix, &meta);
	if (!rc && excl && h->p->run) /* the whole run's rows, in file order */
		for (r = 0; r < n && r < h->p->run->nrows; r++)
			h->p->run->rows[r].exclusive_total =
				excl[r] >= 0 ? excl[r] : -1;
	for (r = 0; r < ix->nrows && !rc; r++) {
		struct sv_row *row = &h->p->rows[r];
		hsize_t i = sv_h5_index_src(ix, r);
		if (lines)
			row->source_line = lines[i] >= 0 ? lines[i] : -1;
		if (excl)
			row->exclusive_total = excl[i] >= 0 ? excl[i] : -1;
		/* (the string columns hold the kept rows only) */
		if (files && *files[r]) {
			row->source_file = files[r];
			files[r] = NULL;
		}
		if (texts && *texts[r]) {
			row->source_text = texts[r];
			texts[r] = NULL;
		}
		if (tags)
			index_row_tags(h, row, i, tags[r], &bad_tags);
		if (sums) {
			row->has_summary = true;
			row->summary = sums[i];
		}
		if (meta)
			index_row_meta(h, row, i, meta[r], &bad_meta);
	}
	index_bad_end(h, &bad_tags);
	index_bad_end(h, &bad_meta);
	sv_strv_free_array(meta, meta ? (size_t)ix->nrows : 0);
	sv_strv_free_array(files, files ? (size_t)ix->nrows : 0);
	sv_strv_free_array(texts, texts ? (size_t)ix->nrows : 0);
	sv_strv_free_array(tags, tags ? (size_t)ix->nrows : 0);
	free(lines);
	free(excl);
	free(sums);
	return rc;
}

/* The region names and the two index columns every layout with a
 * /rank_region_index has: region_ids and ranks.  *g is the opened group
 * (H5I_INVALID_HID when it could not be opened); the caller closes it and
 * frees ix, also on failure. */
int sv_h5_index_open(struct sv_h5 *h, struct sv_h5_index *ix, hid_t *g)
{
	int rc = index_load_names(h, ix);

	*g = H5I_INVALID_HID;
	if (rc)
		return rc;
	*g = sv_h5_open_group(h, "rank_region_index", &rc);
	if (rc)
		return rc;
	ix->nrows = (hsize_t)-1;
	rc = sv_h5_index_ints(h, *g, "region_ids", &ix->nrows, &ix->region);
	if (!rc)
		rc = sv_h5_index_ints(h, *g, "ranks", &ix->nrows, &ix->rank);
	return rc;
}
