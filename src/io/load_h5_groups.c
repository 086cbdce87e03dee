/*
 * load_h5_groups.c: schema 1, the legacy per-rank layout (doc/format.md 6):
 * /rank<N>/regions/<name>/{start_times,end_times} plus optional
 * gpu_durations, call_ids and parent_ids datasets and source/tags
 * attributes on each region group.
 *
 * Rank groups are visited in numeric order, region groups inside a rank in
 * HDF5's name order, and region names are interned in order of first
 * appearance: scope-profiler's base order.  Each region group is one row;
 * its datasets are read straight into the profile's call columns.  A
 * summary-only load still reads the calls: schema 1 stores no statistics.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_h5_priv.h"

struct groups_rank {
	uint64_t rank;
	char *name;
};

static int groups_cmp_rank(const void *a, const void *b)
{
	const struct groups_rank *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Is loc/name a group? */
static bool groups_is_group(hid_t loc, const char *name)
{
	H5O_info_t info;
	if (!sv_h5_exists(loc, name))
		return false;
	if (H5Oget_info_by_name(loc, name, &info, H5P_DEFAULT) < 0)
		return false;
	return info.type == H5O_TYPE_GROUP;
}

/* "rank" + digits: the rank number (doc/format.md 6, name[4:].isdigit()). */
static bool groups_rank_name(const char *name, uint64_t *rank)
{
	const char *d = name + 4;
	uint64_t v = 0;

	if (strncmp(name, "rank", 4) || !*d)
		return false;
	for (; *d; d++) {
		if (*d < '0' || *d > '9')
			return false;
		if (v > (UINT64_MAX - 9) / 10)
			v = UINT64_MAX; /* saturate: reported out of range */
		else
			v = v * 10 + (uint64_t)(*d - '0');
	}
	*rank = v;
	return true;
}

/* Attributes of a region group: source file, line, text and tags. */
static void groups_row_attrs(
	struct sv_h5 *h, hid_t rg, const char *obj, struct sv_row *row)
{
	char *s = NULL, **tags = NULL;
	size_t ntags = 0;
	int64_t line;
	int rc;

	rc = sv_h5_attr_string(rg, "source_file", &s);
	if (rc == 0 && *s)
		row->source_file = s;
	else
		free(s);
	if (rc < 0)
		sv_profile_warn(
			h->p, "%s/@source_file: not a string; ignored", obj);
	s = NULL;
	rc = sv_h5_attr_string(rg, "source_text", &s);
	if (rc == 0 && *s)
		row->source_text = s;
	else
		free(s);
	if (rc < 0)
		sv_profile_warn(
			h->p, "%s/@source_text: not a string; ignored", obj);
	rc = sv_h5_attr_int(rg, "source_lineno", &line);
	if (rc == 0)
		row->source_line = line >= 0 ? line : -1;
	else if (rc < 0)
		sv_profile_warn(h->p,
			"%s/@source_lineno: not an integer; ignored", obj);
	rc = sv_h5_attr_strings(rg, "tags", &tags, &ntags);
	if (rc == 0) {
		row->tags = tags;
		row->ntags = ntags;
	} else if (rc < 0) {
		sv_profile_warn(
			h->p, "%s/@tags: not a string array; ignored", obj);
	}
}

static const struct {
	const char *name;
	size_t member; /* offsetof in struct sv_profile */
} groups_optional[] = {
	{"gpu_durations", offsetof(struct sv_profile, gpu_ns)},
	{"call_ids", offsetof(struct sv_profile, call_id)},
	{"parent_ids", offsetof(struct sv_profile, parent_id)},
};

/* One rank<N>/regions/<name> group: one row. */
static int groups_region(struct sv_h5 *h, hid_t regions, uint32_t rank,
	const char *rankname, const char *rawname)
{
	struct sv_profile *p = h->p;
	char *name = sv_utf8_sanitize(rawname, strlen(rawname));
	char obj[1024], cobj[1100];
	struct sv_h5_col cs, ce, c;
	struct sv_row *row;
	int64_t region;
	size_t i, r;
	hid_t rg;
	int rc;

	{
		char *shown = sv_h5_show(name);
		snprintf(obj, sizeof obj, "/%s/regions/%s", rankname, shown);
		free(shown);
	}
	region = sv_profile_find_region(p, name);
	if (region < 0)
		region = sv_profile_add_region(p, name);
	free(name);
	for (r = 0; r < p->nrows; r++)
		if (p->rows[r].rank == rank &&
			p->rows[r].region == (uint32_t)region) {
			sv_profile_warn(p,
				"%s: rank %u already has this region; group "
				"ignored",
				obj, rank);
			return 0;
		}
	rg = H5Gopen2(regions, rawname, H5P_DEFAULT);
	if (rg < 0)
		return sv_h5_fail(
			h, -EIO, obj, "cannot open%s", sv_h5_last_error());
	snprintf(cobj, sizeof cobj, "%s/start_times", obj);
	rc = sv_h5_col_open(h, rg, "start_times", cobj,
		SV_H5_REQUIRED | SV_H5_INT, (hsize_t)-1, &cs);
	if (rc) {
		H5Gclose(rg);
		return rc;
	}
	snprintf(cobj, sizeof cobj, "%s/end_times", obj);
	rc = sv_h5_col_open(h, rg, "end_times", cobj,
		SV_H5_REQUIRED | SV_H5_INT, (hsize_t)-1, &ce);
	if (rc) {
		sv_h5_col_close(&cs);
		H5Gclose(rg);
		return rc;
	}
	if (ce.n < cs.n) {
		rc = sv_h5_fail(h, -EINVAL, cobj,
			"holds %llu values, but start_times holds %llu "
			"events; the file is truncated or damaged",
			(unsigned long long)ce.n, (unsigned long long)cs.n);
		goto out;
	}
	if (ce.n > cs.n)
		sv_profile_warn(p,
			"%s: holds %llu values, but start_times holds %llu "
			"events; the extra values are ignored",
			cobj, (unsigned long long)ce.n,
			(unsigned long long)cs.n);
	row = sv_profile_add_row(
		p, rank, (uint32_t)region, (uint64_t)cs.n, h->err);
	if (!row) {
		char msg[sizeof h->err->msg];
		snprintf(msg, sizeof msg, "%s", h->err->msg);
		rc = sv_h5_fail(h, h->err->code ? h->err->code : -EFBIG, obj,
			"%s", msg);
		goto out;
	}
	groups_row_attrs(h, rg, obj, row);
	rc = sv_h5_read_range(h, cs.ds, obj, H5T_NATIVE_INT64, 0, cs.n,
		p->start_ns + row->first);
	if (!rc)
		rc = sv_h5_read_range(h, ce.ds, obj, H5T_NATIVE_INT64, 0, cs.n,
			p->end_ns + row->first);
	for (i = 0; i < sizeof groups_optional / sizeof groups_optional[0] &&
		    rc == 0;
		i++) {
		int64_t **col = (int64_t **)(void *)((char *)p +
						     groups_optional[i].member);
		const struct sv_row *rw = &p->rows[p->nrows - 1];
		snprintf(cobj, sizeof cobj, "%s/%s", obj,
			groups_optional[i].name);
		rc = sv_h5_col_open(h, rg, groups_optional[i].name, cobj,
			SV_H5_INT, cs.n, &c);
		if (rc == SV_H5_ABSENT) {
			rc = 0;
			continue;
		}
		if (rc < 0)
			break;
		sv_profile_column(p, col, -1);
		rc = sv_h5_read_range(h, c.ds, cobj, H5T_NATIVE_INT64, 0, c.n,
			*col + rw->first);
		sv_h5_col_close(&c);
		if (sv_h5_read_optional(h, rc, cobj)) {
			/* Not read for this row: -1, as when absent. */
			uint64_t k;
			for (k = 0; k < rw->count; k++)
				(*col)[rw->first + k] = -1;
			rc = 0;
		}
	}
out:
	sv_h5_col_close(&cs);
	sv_h5_col_close(&ce);
	H5Gclose(rg);
	return rc;
}

int sv_h5_groups_load(struct sv_h5 *h)
{
	struct sv_profile *p = h->p;
	struct sv_strv top = {0};
	struct groups_rank *ranks = NULL;
	size_t nranks = 0, i, j;
	int rc = 0;

	p->layout = SV_LAYOUT_GROUPS;
	p->has_calls = true;
	sv_h5_group_links(h->file, &top);
	ranks = sv_xcalloc(top.n ? top.n : 1, sizeof *ranks);
	for (i = 0; i < top.n; i++) {
		uint64_t r;
		if (!groups_rank_name(top.v[i], &r) ||
			!groups_is_group(h->file, top.v[i]))
			continue;
		ranks[nranks].rank = r;
		ranks[nranks].name = top.v[i];
		nranks++;
	}
	qsort(ranks, nranks, sizeof *ranks, groups_cmp_rank);
	p->num_ranks = nranks > UINT32_MAX ? UINT32_MAX : (uint32_t)nranks;

	for (i = 0; i < nranks && rc == 0; i++) {
		struct sv_strv regs = {0};
		char obj[300];
		hid_t rk, rs;

		rc = sv_h5_step(
			h, 0.1 + 0.8 * (double)i / (double)nranks, "regions");
		if (rc)
			break;
		if (ranks[i].rank >= UINT32_MAX) {
			sv_profile_warn(p,
				"/%s: rank number out of range; "
				"ignored",
				ranks[i].name);
			continue;
		}
		snprintf(obj, sizeof obj, "/%s/regions", ranks[i].name);
		rk = H5Gopen2(h->file, ranks[i].name, H5P_DEFAULT);
		if (rk < 0) {
			rc = sv_h5_fail(h, -EIO, obj + 0, "cannot open%s",
				sv_h5_last_error());
			break;
		}
		if (!sv_h5_exists(rk, "regions")) {
			H5Gclose(rk);
			continue; /* a rank with only likwid/perf data */
		}
		if (!groups_is_group(rk, "regions")) {
			H5Gclose(rk);
			sv_profile_warn(p, "%s: not a group; ignored", obj);
			continue;
		}
		rs = H5Gopen2(rk, "regions", H5P_DEFAULT);
		sv_h5_group_links(rs, &regs);
		for (j = 0; j < regs.n && rc == 0; j++) {
			if (!groups_is_group(rs, regs.v[j])) {
				char *shown = sv_h5_show(regs.v[j]);
				sv_profile_warn(p,
					"%s/%s: not a region group; ignored",
					obj, shown);
				free(shown);
				continue;
			}
			rc = groups_region(h, rs, (uint32_t)ranks[i].rank,
				ranks[i].name, regs.v[j]);
		}
		sv_strv_fini(&regs);
		H5Gclose(rs);
		H5Gclose(rk);
	}
	if (rc == 0)
		sv_h5_events_rows_gpu(p);
	free(ranks);
	sv_strv_fini(&top);
	return rc;
}
