/*
 * load_h5_layout.c: the two layouts with a /rank_region_index: columnar
 * (schema 2 and 3, per-call events) and aggregate (per-row totals only).
 *
 * Each reads the index (load_h5_index.c), then the events
 * (load_h5_events.c) or the totals, into the profile's rows.
 */
#include "load_h5_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

/* The number of datasets in /events (0 when it cannot be told): what a
 * full load would keep, for a memory budget (budget.h). */
static uint32_t event_columns(struct sv_h5 *h)
{
	H5G_info_t info;
	hid_t g;
	uint32_t n = 0;

	if (H5Lexists(h->file, "events", H5P_DEFAULT) <= 0)
		return 0;
	g = H5Gopen2(h->file, "events", H5P_DEFAULT);
	if (g < 0)
		return 0;
	if (H5Gget_info(g, &info) >= 0 && info.nlinks < UINT32_MAX)
		n = (uint32_t)info.nlinks;
	H5Gclose(g);
	return n;
}

/* Schema 2/3 columnar layout (doc/format.md 4). */
int sv_h5_layout_columnar(struct sv_h5 *h)
{
	struct sv_profile *p = h->p;
	struct sv_h5_index ix = {0};
	hid_t g = H5I_INVALID_HID, ev = H5I_INVALID_HID;
	hsize_t r;
	int rc;

	p->layout = SV_LAYOUT_COLUMNAR;
	p->has_calls = !(h->opts && h->opts->summary_only);
	rc = sv_h5_index_open(h, &ix, &g);
	if (!rc)
		rc = sv_h5_index_ints(
			h, g, "event_offsets", &ix.nrows, &ix.offset);
	if (!rc)
		rc = sv_h5_index_ints(
			h, g, "event_counts", &ix.nrows, &ix.count);
	if (!rc)
		rc = sv_h5_index_check_ids(h, &ix);
	if (!rc)
		rc = sv_h5_step(h, 0.1, "index");
	if (rc)
		goto out;

	if (!p->has_calls) {
		p->event_columns = event_columns(h);
		for (r = 0; r < ix.nrows; r++) {
			if (ix.count[r] < 0) {
				rc = sv_h5_fail(h, -EINVAL,
					"/rank_region_index/event_counts",
					"row %llu claims %" PRId64 " calls",
					(unsigned long long)r, ix.count[r]);
				goto out;
			}
			if (!sv_profile_add_row(p, (uint32_t)ix.rank[r],
				    (uint32_t)ix.region[r],
				    (uint64_t)ix.count[r], h->err)) {
				rc = sv_h5_index_row_fail(
					h, "/rank_region_index/event_counts");
				goto out;
			}
		}
	} else {
		rc = sv_h5_subset_plan(h, g, &ix);
		if (rc)
			goto out;
		ev = sv_h5_open_group(h, "events", &rc);
		if (rc)
			goto out;
		rc = sv_h5_events_load(h, ev, &ix);
		if (rc)
			goto out;
	}
	rc = sv_h5_index_row_extras(h, g, &ix);
	if (rc)
		goto out;
	if (!p->has_calls)
		for (r = 0; r < p->nrows; r++)
			p->rows[r].has_gpu = p->rows[r].has_summary &&
					     p->rows[r].summary.gpu_count > 0;
out:
	if (g >= 0)
		H5Oclose(g);
	if (ev >= 0)
		H5Oclose(ev);
	sv_h5_index_free(&ix);
	return rc;
}

/* Aggregate layout (doc/format.md 7): per-row totals, no calls. */
int sv_h5_layout_aggregate(struct sv_h5 *h)
{
	struct sv_profile *p = h->p;
	struct sv_h5_index ix = {0};
	int64_t *tot = NULL, *mn = NULL, *mx = NULL, *ex = NULL;
	hid_t g;
	hsize_t r;
	int rc;

	p->layout = SV_LAYOUT_AGGREGATE;
	p->has_calls = false;
	rc = sv_h5_index_open(h, &ix, &g);
	if (!rc)
		rc = sv_h5_index_ints(
			h, g, "aggregate_counts", &ix.nrows, &ix.count);
	if (!rc)
		rc = sv_h5_index_ints(
			h, g, "aggregate_totals", &ix.nrows, &tot);
	if (!rc)
		rc = sv_h5_index_ints(
			h, g, "aggregate_minimums", &ix.nrows, &mn);
	if (!rc)
		rc = sv_h5_index_ints(
			h, g, "aggregate_maximums", &ix.nrows, &mx);
	if (!rc)
		rc = sv_h5_index_ints(
			h, g, "aggregate_exclusives", &ix.nrows, &ex);
	if (!rc)
		rc = sv_h5_index_check_ids(h, &ix);
	for (r = 0; r < ix.nrows && !rc; r++) {
		struct sv_row *row;
		if (ix.count[r] < 0) {
			rc = sv_h5_fail(h, -EINVAL,
				"/rank_region_index/aggregate_counts",
				"row %llu claims %" PRId64 " calls",
				(unsigned long long)r, ix.count[r]);
			break;
		}
		row = sv_profile_add_row(p, (uint32_t)ix.rank[r],
			(uint32_t)ix.region[r], (uint64_t)ix.count[r], h->err);
		if (!row) {
			rc = sv_h5_index_row_fail(
				h, "/rank_region_index/aggregate_counts");
			break;
		}
		row->has_summary = true;
		row->summary.total = tot[r];
		row->summary.minimum = mn[r];
		row->summary.maximum = mx[r];
		row->summary.mean =
			ix.count[r] ? (double)tot[r] / (double)ix.count[r] : 0;
		row->exclusive_total = ex[r] >= 0 ? ex[r] : -1;
	}
	if (g >= 0)
		H5Oclose(g);
	free(tot);
	free(mn);
	free(mx);
	free(ex);
	sv_h5_index_free(&ix);
	return rc;
}
