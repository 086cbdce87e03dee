/*
 * load_h5_ranks.c: what the rank<N> groups of a columnar file hold
 * besides schema 1's regions (doc/format.md 4.12): hardware counters
 * (rank<N>/perf_events/<region>, rank<N>/likwid/regions/<tag>) and line
 * profiles (rank<N>/line_profile/<i>).  Everything here is optional: a
 * damaged or unexpected group becomes a warning, never a failed load, and
 * a group this file does not know is listed in the profile's unshown.
 */
#include "load_h5_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_h5_chunks.h"
#include "load_h5_filters.h"
#include "load_h5_guard.h"
#include "scopeview/counters.h"

/* A failure of a helper that fills h->err: keep its text as a warning
 * and carry on. */
static void ranks_soft(struct sv_h5 *h, int rc)
{
	if (rc < 0 && h->err->code) {
		sv_profile_warn(h->p, "%s; ignored", h->err->msg);
		h->err->code = 0;
		h->err->msg[0] = '\0';
	}
}

static bool ranks_is_group(hid_t loc, const char *name)
{
	H5O_info_t info;
	if (!sv_h5_exists(loc, name) ||
		H5Oget_info_by_name(loc, name, &info, H5P_DEFAULT) < 0)
		return false;
	return info.type == H5O_TYPE_GROUP;
}

static void ranks_unshown(struct sv_h5 *h, const char *path)
{
	struct sv_profile *p = h->p;
	p->unshown = sv_xreallocarray(
		p->unshown, p->nunshown + 1, sizeof *p->unshown);
	p->unshown[p->nunshown++] = sv_h5_show(path);
}

/* A numeric scalar attribute as a double; false when absent or not one. */
static bool ranks_attr_double(hid_t loc, const char *name, double *out)
{
	H5T_class_t cls;
	hssize_t count;
	hid_t a = sv_h5_attr_open(loc, name, &cls, &count);
	bool ok;

	if (a < 0)
		return false;
	ok = count == 1 && (cls == H5T_FLOAT || cls == H5T_INTEGER) &&
	     H5Aread(a, H5T_NATIVE_DOUBLE, out) >= 0;
	H5Aclose(a);
	return ok;
}

/* A 1-D numeric dataset g/name of want elements ((hsize_t)-1: any, then
 * stored in *n) into a new array of memtype (8-byte) elements. */
static void *ranks_col(struct sv_h5 *h, hid_t g, const char *name,
	const char *obj, hid_t memtype, hsize_t *n)
{
	char path[512];
	struct sv_h5_col c;
	void *buf;
	int rc;

	snprintf(path, sizeof path, "%s/%s", obj, name);
	rc = sv_h5_col_open(h, g, name, path, SV_H5_NUMBER, *n, &c);
	if (rc) {
		if (rc == SV_H5_ABSENT && !sv_h5_exists(g, name))
			sv_profile_warn(
				h->p, "%s: missing; group ignored", path);
		ranks_soft(h, rc);
		return NULL;
	}
	buf = sv_xcalloc(c.n ? (size_t)c.n : 1, 8);
	rc = sv_h5_read_range(h, c.ds, path, memtype, 0, c.n, buf);
	*n = c.n;
	sv_h5_col_close(&c);
	if (rc) {
		ranks_soft(h, rc);
		free(buf);
		return NULL;
	}
	return buf;
}

/* A 2-D float dataset of rows x cols ((hsize_t)-1: any) as doubles. */
static double *ranks_matrix(struct sv_h5 *h, hid_t g, const char *name,
	const char *obj, hsize_t *rows, hsize_t *cols)
{
	hid_t ds, sp;
	hsize_t dims[2] = {0, 0};
	double *buf = NULL;
	char why[SV_H5_WHY_MAX + 128] = "";
	bool ok, refused = false;

	if (!sv_h5_exists(g, name))
		return NULL;
	ds = H5Dopen2(g, name, H5P_DEFAULT);
	if (ds < 0)
		return NULL;
	sp = H5Dget_space(ds);
	ok = H5Sget_simple_extent_ndims(sp) == 2 &&
	     H5Sget_simple_extent_dims(sp, dims, NULL) == 2 &&
	     (*rows == (hsize_t)-1 || dims[0] == *rows) &&
	     (*cols == (hsize_t)-1 || dims[1] == *cols) &&
	     (dims[1] == 0 || dims[0] <= h->file_bytes / dims[1]);
	H5Sclose(sp);
	if (ok) {
		size_t cells = (size_t)(dims[0] * dims[1]);
		buf = sv_xcalloc(cells ? cells : 1, sizeof *buf);
		if (cells != 0 &&
			sv_h5_chunks_read(ds, H5T_NATIVE_DOUBLE, H5S_ALL,
				H5S_ALL, buf, why, sizeof why, &refused) < 0) {
			free(buf);
			buf = NULL;
		}
	}
	H5Dclose(ds);
	if (!buf && refused)
		sv_profile_warn(h->p, "%s/%s: cannot read: %s; ignored", obj,
			name, why);
	else if (!buf)
		sv_profile_warn(h->p,
			"%s/%s: not a readable %llu x %llu array; ignored", obj,
			name, (unsigned long long)*rows,
			(unsigned long long)*cols);
	*rows = dims[0];
	*cols = dims[1];
	return buf;
}

/* rank<N>/perf_events/<region>: attributes calls and event_names, one
 * uint64 value per event. */
static void ranks_perf(struct sv_h5 *h, hid_t g, uint32_t rank,
	const char *name, const char *obj)
{
	char **names = NULL;
	size_t nnames = 0, i;
	int64_t calls = -1;
	uint64_t *vals;
	hsize_t n;
	struct sv_counters *k;

	if (sv_h5_attr_strings(g, "event_names", &names, &nnames) != 0) {
		sv_profile_warn(h->p,
			"%s: no event_names attribute; group ignored", obj);
		return;
	}
	n = (hsize_t)nnames;
	vals = ranks_col(h, g, "values", obj, H5T_NATIVE_UINT64, &n);
	if (!vals) {
		sv_strv_free_array(names, nnames);
		return;
	}
	(void)sv_h5_attr_int(g, "calls", &calls);
	k = sv_counters_add(h->p);
	k->rank = rank;
	k->region = sv_xstrdup(name);
	k->calls = calls;
	k->nevents = nnames;
	k->events = names;
	k->values = sv_xcalloc(nnames ? nnames : 1, sizeof *k->values);
	for (i = 0; i < nnames; i++)
		k->values[i] = (double)vals[i];
	free(vals);
}

/* rank<N>/likwid/regions/<tag>: events[e, t], metrics[m, t], times[t],
 * call_counts[t] over the region's threads t. */
static void ranks_likwid(struct sv_h5 *h, hid_t g, uint32_t rank,
	const char *name, const char *obj)
{
	char **ev = NULL, **regs = NULL, **mn = NULL, *tag = NULL, *group;
	size_t nev = 0, nregs = 0, nmn = 0;
	hsize_t rows, cols = (hsize_t)-1, nt = (hsize_t)-1;
	double *events, *metrics = NULL, *times = NULL;
	int64_t *counts;

	if (sv_h5_attr_strings(g, "event_names", &ev, &nev) != 0) {
		sv_profile_warn(h->p,
			"%s: no event_names attribute; group ignored", obj);
		return;
	}
	rows = (hsize_t)nev;
	events = ranks_matrix(h, g, "events", obj, &rows, &cols);
	if (!events) {
		sv_strv_free_array(ev, nev);
		return;
	}
	nt = cols;
	counts = sv_h5_exists(g, "call_counts")
			 ? ranks_col(h, g, "call_counts", obj, H5T_NATIVE_INT64,
				   &nt)
			 : NULL;
	if (sv_h5_exists(g, "times")) {
		nt = cols;
		times = ranks_col(h, g, "times", obj, H5T_NATIVE_DOUBLE, &nt);
	}
	if (sv_h5_attr_strings(g, "metric_names", &mn, &nmn) == 0 && nmn) {
		hsize_t mr = (hsize_t)nmn, mc = cols;
		metrics = ranks_matrix(h, g, "metrics", obj, &mr, &mc);
	}
	if (sv_h5_attr_strings(g, "counter_names", &regs, &nregs) != 0)
		nregs = 0;
	if (sv_h5_attr_string(g, "tag", &tag) != 0 || !*tag) {
		free(tag);
		tag = sv_xstrdup(name);
	}
	if (sv_h5_attr_string(g, "group_name", &group) != 0)
		group = NULL;
	if (!metrics) {
		sv_strv_free_array(mn, nmn);
		mn = NULL;
		nmn = 0;
	}
	sv_counters_add_likwid(h->p, rank, tag, group, ev, nev, regs, nregs,
		events, (size_t)cols, counts, times, mn, nmn, metrics);
	sv_strv_free_array(regs, nregs);
	free(tag);
	free(group);
	free(events);
	free(metrics);
	free(times);
	free(counts);
}

/* The lines of a line profile kept so far, and those left out. */
struct ranks_lines {
	struct sv_h5_keys keys; /* (0, line number) of each kept line */
	int64_t *hits;
	double *time;
	size_t cap;
	uint64_t bad_line, bad_hits, bad_time, repeated;
	int64_t first_bad_line;
};

/* Keep line, hits, time unless one is out of range or the line came
 * before. */
static void ranks_line(
	struct ranks_lines *l, int64_t line, int64_t hits, double time)
{
	size_t n = l->keys.n;

	if (line < 1) {
		if (!l->bad_line++)
			l->first_bad_line = line;
	} else if (hits < 0) {
		l->bad_hits++;
	} else if (!(time >= 0) || !isfinite(time)) {
		l->bad_time++;
	} else if (!sv_h5_keys_add(&l->keys, 0, line)) {
		l->repeated++;
	} else {
		if (n == l->cap) {
			l->cap = l->cap ? l->cap * 2 : 64;
			l->hits = sv_xreallocarray(
				l->hits, l->cap, sizeof *l->hits);
			l->time = sv_xreallocarray(
				l->time, l->cap, sizeof *l->time);
		}
		l->hits[n] = hits;
		l->time[n] = time;
	}
}

/* One warning for the lines of a profile of n lines that were left out. */
static void ranks_lines_warn(struct sv_h5 *h, const char *obj, hsize_t n,
	const struct ranks_lines *l)
{
	char why[300] = "";
	size_t at = 0;
	uint64_t out = l->bad_line + l->bad_hits + l->bad_time + l->repeated;

	if (!out)
		return;
	if (l->bad_line)
		at += (size_t)snprintf(why, sizeof why,
			"%" PRIu64 " with a line number below 1 (the first: "
			"%" PRId64 ")",
			l->bad_line, l->first_bad_line);
	if (l->bad_hits && at < sizeof why)
		at += (size_t)snprintf(why + at, sizeof why - at,
			"%s%" PRIu64 " with a negative hit count",
			at ? ", " : "", l->bad_hits);
	if (l->bad_time && at < sizeof why)
		at += (size_t)snprintf(why + at, sizeof why - at,
			"%s%" PRIu64 " with a time that is negative or not a "
			"number",
			at ? ", " : "", l->bad_time);
	if (l->repeated && at < sizeof why)
		snprintf(why + at, sizeof why - at,
			"%s%" PRIu64 " repeating a line number", at ? ", " : "",
			l->repeated);
	sv_profile_warn(h->p, "%s: %" PRIu64 " of %llu lines ignored: %s", obj,
		out, (unsigned long long)n, why);
}

/* Open the column name of line profile g (obj) for slices, of length
 * want ((hsize_t)-1: any); false when it cannot be used (warned). */
static bool ranks_lines_col(struct sv_h5 *h, hid_t g, const char *name,
	const char *obj, unsigned kind, hsize_t want, struct sv_h5_col *c)
{
	char path[512];
	int rc;

	snprintf(path, sizeof path, "%s/%s", obj, name);
	rc = sv_h5_col_open(h, g, name, path, kind | SV_H5_SLICES, want, c);
	if (rc == SV_H5_ABSENT && !sv_h5_exists(g, name))
		sv_profile_warn(h->p, "%s: missing; group ignored", path);
	ranks_soft(h, rc);
	return rc == 0;
}

/* The line_numbers, hits and times of line profile g, slice by slice,
 * into l: the lines kept and those left out.  False when they cannot be
 * read (warned); *n is their length. */
static bool ranks_lines_read(struct sv_h5 *h, hid_t g, const char *obj,
	struct ranks_lines *l, hsize_t *n)
{
	struct sv_h5_col cl, ch, ct;
	int64_t *line = NULL, *hits = NULL;
	double *time = NULL;
	hsize_t off, slice;
	int rc = 0;

	if (!ranks_lines_col(
		    h, g, "line_numbers", obj, SV_H5_INT, (hsize_t)-1, &cl))
		return false;
	*n = cl.n;
	if (!ranks_lines_col(h, g, "hits", obj, SV_H5_INT, cl.n, &ch)) {
		sv_h5_col_close(&cl);
		return false;
	}
	if (!ranks_lines_col(h, g, "times", obj, SV_H5_NUMBER, cl.n, &ct)) {
		sv_h5_col_close(&cl);
		sv_h5_col_close(&ch);
		return false;
	}
	slice = sv_h5_slice_rows(cl.ds);
	if (sv_h5_slice_rows(ch.ds) > slice)
		slice = sv_h5_slice_rows(ch.ds);
	if (sv_h5_slice_rows(ct.ds) > slice)
		slice = sv_h5_slice_rows(ct.ds);
	if (*n) {
		size_t s = (size_t)(*n < slice ? *n : slice);
		line = sv_xmalloc(s * sizeof *line);
		hits = sv_xmalloc(s * sizeof *hits);
		time = sv_xmalloc(s * sizeof *time);
	}
	for (off = 0; off < *n && !rc; off += slice) {
		hsize_t len = *n - off < slice ? *n - off : slice;
		size_t i;
		rc = sv_h5_read_slice(
			h, cl.ds, obj, H5T_NATIVE_INT64, off, len, line);
		if (!rc)
			rc = sv_h5_read_slice(h, ch.ds, obj, H5T_NATIVE_INT64,
				off, len, hits);
		if (!rc)
			rc = sv_h5_read_slice(h, ct.ds, obj, H5T_NATIVE_DOUBLE,
				off, len, time);
		for (i = 0; !rc && i < (size_t)len; i++)
			ranks_line(l, line[i], hits[i], time[i]);
	}
	free(line);
	free(hits);
	free(time);
	sv_h5_col_close(&cl);
	sv_h5_col_close(&ch);
	sv_h5_col_close(&ct);
	ranks_soft(h, rc);
	return rc == 0;
}

/* rank<N>/line_profile/<i>: line_numbers, hits, times and attributes.
 * Read in slices; a line whose number, hit count or time is out of range,
 * or that repeats a line, is left out and counted in one warning, so the
 * profile holds what the file really has, whatever its columns claim. */
static void ranks_lineprof(
	struct sv_h5 *h, hid_t g, uint32_t rank, const char *obj)
{
	struct sv_profile *p = h->p;
	struct sv_line_profile *l;
	struct ranks_lines lines;
	hsize_t n = 0;
	double unit = 1e-6;

	memset(&lines, 0, sizeof lines);
	if (!ranks_lines_read(h, g, obj, &lines, &n)) {
		sv_h5_keys_fini(&lines.keys);
		free(lines.hits);
		free(lines.time);
		return;
	}
	ranks_lines_warn(h, obj, n, &lines);
	p->lineprofs = sv_xreallocarray(
		p->lineprofs, p->nlineprofs + 1, sizeof *p->lineprofs);
	l = &p->lineprofs[p->nlineprofs++];
	memset(l, 0, sizeof *l);
	l->rank = rank;
	l->nlines = lines.keys.n;
	/* The kept keys' second halves are the line numbers: taken over. */
	l->line = lines.keys.b;
	lines.keys.b = NULL;
	l->hits = lines.hits;
	l->time = lines.time;
	if (!l->line)
		l->line = sv_xcalloc(1, sizeof *l->line);
	if (!l->hits)
		l->hits = sv_xcalloc(1, sizeof *l->hits);
	if (!l->time)
		l->time = sv_xcalloc(1, sizeof *l->time);
	sv_h5_keys_fini(&lines.keys);
	if (sv_h5_attr_string(g, "region", &l->region) != 0)
		l->region = NULL;
	if (sv_h5_attr_string(g, "filename", &l->filename) != 0)
		l->filename = NULL;
	if (sv_h5_attr_string(g, "function", &l->function) != 0)
		l->function = NULL;
	if (sv_h5_attr_string(g, "source", &l->source) != 0)
		l->source = NULL;
	if (sv_h5_attr_int(g, "first_lineno", &l->first_lineno) != 0)
		l->first_lineno = -1;
	if (sv_h5_attr_int(g, "source_first_lineno", &l->source_first_lineno) !=
		0)
		l->source_first_lineno = -1;
	if (ranks_attr_double(g, "unit", &unit) && unit > 0)
		l->unit = unit;
	else
		l->unit = 1e-6; /* line_profiler's default timer unit */
}

/* Each subgroup of loc (at obj) through fn. */
static void ranks_each(struct sv_h5 *h, hid_t loc, const char *obj,
	uint32_t rank,
	void (*fn)(struct sv_h5 *, hid_t, uint32_t, const char *, const char *))
{
	struct sv_strv names = {0};
	size_t i;

	sv_h5_group_links(loc, &names);
	for (i = 0; i < names.n; i++) {
		char path[512];
		char *shown = sv_h5_show(names.v[i]);
		hid_t g;
		snprintf(path, sizeof path, "%s/%s", obj, shown);
		free(shown);
		if (!ranks_is_group(loc, names.v[i])) {
			ranks_unshown(h, path);
			continue;
		}
		g = H5Gopen2(loc, names.v[i], H5P_DEFAULT);
		if (g < 0) {
			sv_profile_warn(h->p, "%s: cannot open; ignored", path);
			continue;
		}
		fn(h, g, rank, names.v[i], path);
		H5Gclose(g);
	}
	sv_strv_fini(&names);
}

static void ranks_lineprof_each(struct sv_h5 *h, hid_t g, uint32_t rank,
	const char *name, const char *obj)
{
	(void)name;
	ranks_lineprof(h, g, rank, obj);
}

/* One rank<N> group: its known parts, the rest listed as unshown. */
static void ranks_one(struct sv_h5 *h, hid_t rg, uint32_t rank, bool groups)
{
	struct sv_strv names = {0};
	size_t i;
	char obj[512];

	sv_h5_group_links(rg, &names);
	for (i = 0; i < names.n; i++) {
		const char *n = names.v[i];
		char *shown = sv_h5_show(n);
		hid_t g = H5I_INVALID_HID;
		snprintf(obj, sizeof obj, "/rank%" PRIu32 "/%s", rank, shown);
		free(shown);
		if (groups && !strcmp(n, "regions"))
			continue; /* schema 1: load_h5_groups.c */
		if ((!strcmp(n, "perf_events") || !strcmp(n, "likwid") ||
			    !strcmp(n, "line_profile")) &&
			ranks_is_group(rg, n))
			g = H5Gopen2(rg, n, H5P_DEFAULT);
		if (g < 0) {
			ranks_unshown(h, obj);
			continue;
		}
		if (!strcmp(n, "perf_events")) {
			ranks_each(h, g, obj, rank, ranks_perf);
		} else if (!strcmp(n, "line_profile")) {
			ranks_each(h, g, obj, rank, ranks_lineprof_each);
		} else if (ranks_is_group(g, "regions")) {
			hid_t r = H5Gopen2(g, "regions", H5P_DEFAULT);
			char sub[540];
			snprintf(sub, sizeof sub, "%s/regions", obj);
			if (r >= 0) {
				ranks_each(h, r, sub, rank, ranks_likwid);
				H5Gclose(r);
			}
		} else {
			ranks_unshown(h, obj);
		}
		H5Gclose(g);
	}
	sv_strv_fini(&names);
}

int sv_h5_ranks_load(struct sv_h5 *h)
{
	struct sv_strv top = {0};
	size_t i;
	bool groups = h->p->layout == SV_LAYOUT_GROUPS;

	sv_h5_group_links(h->file, &top);
	for (i = 0; i < top.n; i++) {
		const char *n = top.v[i], *d = n + 4;
		uint64_t rank = 0;
		hid_t rg;
		if (strncmp(n, "rank", 4) || !*d ||
			!ranks_is_group(h->file, n)) {
			static const char *const known[] = {"events",
				"metadata", "region_table", "rank_region_index",
				"thread_table", "task_table"};
			size_t k;
			char path[300];
			for (k = 0; k < sizeof known / sizeof known[0]; k++)
				if (!strcmp(n, known[k]))
					break;
			if (k == sizeof known / sizeof known[0]) {
				char *shown = sv_h5_show(n);
				snprintf(path, sizeof path, "/%s", shown);
				free(shown);
				ranks_unshown(h, path);
			}
			continue;
		}
		for (; *d >= '0' && *d <= '9' && rank < UINT32_MAX; d++)
			rank = rank * 10 + (uint64_t)(*d - '0');
		if (*d || rank >= UINT32_MAX)
			continue;
		rg = H5Gopen2(h->file, n, H5P_DEFAULT);
		if (rg < 0)
			continue;
		sv_h5_at(n);
		ranks_one(h, rg, (uint32_t)rank, groups);
		H5Gclose(rg);
	}
	sv_strv_fini(&top);
	return 0;
}
