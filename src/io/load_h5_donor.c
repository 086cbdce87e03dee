/*
 * load_h5_donor.c: a reload that keeps ranks (sv_load_opts.donor,
 * doc/format.md 4.15).  When the viewer switches ranks under a memory
 * budget, the ranks both loads hold are copied from the previous load's
 * profile instead of read from the file again: only the rows the donor
 * lacks are read (load_h5_events.c reads the others' ranges), and the
 * donor's rows fill the rest, value for value what the file holds.
 *
 * A row is copied only when it is plainly the same row of the same file:
 * the same path and layout, the same number of rows and calls in the
 * file, the same (rank, region) with the same count and, where the file
 * stores them, the same stored record; and the file's optional columns
 * are the donor's.  Otherwise every row is read, as without a donor.
 */
#include "load_h5_priv.h"

#include <stdlib.h>
#include <string.h>

/* A donor row by (rank, region): the key of the search below. */
struct donor_key {
	uint64_t key; /* rank << 32 | region */
	uint32_t row;
};

static int donor_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct donor_key *)a)->key;
	uint64_t y = ((const struct donor_key *)b)->key;

	return x < y ? -1 : x > y;
}

/* The donor's row of (rank, region) in keys (n, sorted), or
 * UINT32_MAX. */
static uint32_t donor_find(
	const struct donor_key *keys, size_t n, uint32_t rank, uint32_t region)
{
	uint64_t key = (uint64_t)rank << 32 | region;
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (keys[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && keys[lo].key == key ? keys[lo].row : UINT32_MAX;
}

/* Do two stored records say the same? */
static bool donor_same_record(
	const struct sv_summary *a, const struct sv_summary *b)
{
	return a->total == b->total && a->minimum == b->minimum &&
	       a->maximum == b->maximum && a->first == b->first &&
	       a->last == b->last && a->start_minimum == b->start_minimum &&
	       a->end_maximum == b->end_maximum;
}

/* The id column of optional column k (an id column). */
static enum sv_id_column donor_id(enum sv_h5_optional k)
{
	return (enum sv_id_column)(k - SV_H5_OPT_CALL_IDS);
}

/* Has d optional column k (which the file must share)? */
static bool donor_has(const struct sv_profile *d, enum sv_h5_optional k)
{
	switch (k) {
	case SV_H5_OPT_GPU:
		return sv_profile_has_gpu(d);
	case SV_H5_OPT_AWAIT:
		return sv_profile_has_await(d);
	default:
		return sv_profile_has_id(d, donor_id(k));
	}
}

/* SCOPEVIEW_NO_DONOR=1: read every row from the file (to compare). */
static bool donor_disabled_by_env(void)
{
	const char *e = getenv("SCOPEVIEW_NO_DONOR");
	return e && *e && strcmp(e, "0") != 0;
}

/* Is d a profile of the file h reads, with its columns? */
static bool donor_usable(struct sv_h5 *h, hid_t ev,
	const struct sv_h5_index *ix, const struct sv_profile *d,
	size_t extra_columns)
{
	const struct sv_profile *p = h->p;
	uint64_t calls = 0, dcalls;
	size_t rows, drows;
	hsize_t r;
	int k;

	if (!d->has_calls || d->layout != SV_LAYOUT_COLUMNAR ||
		d->schema != p->schema || strcmp(d->path, p->path) ||
		!sv_profile_has_dur(d) || d->ncolumns || extra_columns)
		return false;
	for (r = 0; r < ix->nrows; r++)
		calls += (uint64_t)ix->count[r];
	rows = p->rank_subset ? p->file_rows : (size_t)ix->nrows;
	calls = p->rank_subset ? p->file_calls : calls;
	drows = d->rank_subset ? d->file_rows : d->nrows;
	dcalls = d->rank_subset ? d->file_calls : d->ncalls;
	if (rows != drows || calls != dcalls)
		return false;
	for (k = 0; k < SV_H5_OPTIONAL; k++)
		if (sv_h5_exists(ev, sv_h5_optional_names[k]) !=
			donor_has(d, (enum sv_h5_optional)k))
			return false;
	return true;
}

/* Do the rows of ix ascend in the file without overlap?  (The rows read
 * are then ranges in order, load_h5_events.c.) */
static bool donor_rows_ascend(const struct sv_h5_index *ix)
{
	int64_t end = 0;
	hsize_t r;

	for (r = 0; r < ix->nrows; r++) {
		if (ix->count[r] == 0)
			continue;
		if (ix->offset[r] < end)
			return false;
		end = ix->offset[r] + ix->count[r];
	}
	return true;
}

void sv_h5_donor_plan(struct sv_h5 *h, hid_t ev, const struct sv_h5_index *ix,
	size_t extra_columns, struct sv_h5_donor *dn)
{
	const struct sv_profile *d = h->opts ? h->opts->donor : NULL;
	const struct sv_profile *p = h->p;
	struct donor_key *keys;
	size_t r;

	memset(dn, 0, sizeof dn[0]);
	if (!d)
		return;
	dn->given = true;
	if (donor_disabled_by_env() ||
		!donor_usable(h, ev, ix, d, extra_columns) ||
		!donor_rows_ascend(ix) || !d->nrows)
		return;
	keys = sv_xmalloc(d->nrows * sizeof *keys);
	for (r = 0; r < d->nrows; r++) {
		keys[r].key =
			(uint64_t)d->rows[r].rank << 32 | d->rows[r].region;
		keys[r].row = (uint32_t)r;
	}
	qsort(keys, d->nrows, sizeof *keys, donor_cmp);
	dn->row = sv_xmalloc((p->nrows ? p->nrows : 1) * sizeof *dn->row);
	for (r = 0; r < p->nrows; r++) {
		const struct sv_row *row = &p->rows[r];
		const struct sv_summary *sum =
			ix->sums ? &ix->sums[sv_h5_index_src(ix, r)] : NULL;
		uint32_t dr = row->count ? donor_find(keys, d->nrows, row->rank,
						   row->region)
					 : UINT32_MAX;
		if (dr != UINT32_MAX &&
			(d->rows[dr].count != row->count ||
				(sum && d->rows[dr].has_summary &&
					!donor_same_record(
						sum, &d->rows[dr].summary))))
			dr = UINT32_MAX;
		dn->row[r] = dr;
		if (dr != UINT32_MAX)
			dn->calls += row->count;
	}
	free(keys);
	if (dn->calls)
		dn->d = d;
	else {
		free(dn->row);
		dn->row = NULL;
	}
}

/* Values [c, c + n) of the donor's optional column k into out. */
static void donor_values(const struct sv_profile *d, enum sv_h5_optional k,
	uint32_t c, size_t n, int64_t *out)
{
	const struct sv_packed *pk = NULL;
	const int64_t *raw = NULL;
	size_t i;

	switch (k) {
	case SV_H5_OPT_GPU:
		raw = d->gpu_ns;
		pk = &d->gpu_pk;
		break;
	case SV_H5_OPT_AWAIT:
		raw = d->await_ns;
		pk = &d->await_pk;
		break;
	default:
		raw = sv_profile_id_raw(d, donor_id(k));
		pk = &d->ids[donor_id(k)];
		if (k == SV_H5_OPT_PARENT_IDS && d->parent_id_derived) {
			for (i = 0; i < n; i++)
				out[i] = sv_profile_id(
					d, SV_ID_PARENT, (uint32_t)(c + i));
			return;
		}
	}
	if (raw)
		memcpy(out, raw + c, n * sizeof *out);
	else
		sv_packed_get_range(pk, c, n, out);
}

void sv_h5_donor_times(struct sv_h5 *h, const struct sv_h5_donor *dn)
{
	struct sv_profile *p = h->p;
	const struct sv_profile *d = dn->d;
	size_t r;
	uint64_t i;

	for (r = 0; d && r < p->nrows; r++) {
		const struct sv_row *row = &p->rows[r];
		uint32_t c;
		int64_t *s = p->start_ns + row->first,
			*e = p->end_ns + row->first;
		if (dn->row[r] == UINT32_MAX)
			continue;
		c = (uint32_t)d->rows[dn->row[r]].first;
		if (d->start_ns)
			memcpy(s, d->start_ns + c, row->count * sizeof *s);
		else
			sv_packed_get_range(&d->start_pk, c, row->count, s);
		if (d->dur_pk.n)
			sv_packed_get_range(&d->dur_pk, c, row->count, e);
		else
			for (i = 0; i < row->count; i++)
				e[i] = sv_call_duration(d, (uint32_t)(c + i));
		/* The ends, unless end_ns holds the durations (as the rows
		 * read from the file left it). */
		for (i = 0; !p->end_is_duration && i < row->count; i++)
			e[i] = sv_add_wrap(s[i], e[i]);
	}
}

void sv_h5_donor_column(struct sv_h5 *h, const struct sv_h5_donor *dn,
	enum sv_h5_optional k, int64_t *dst)
{
	const struct sv_profile *p = h->p;
	size_t r;

	if (!dn->d)
		return;
	for (r = 0; r < p->nrows; r++)
		if (dn->row[r] != UINT32_MAX)
			donor_values(dn->d, k,
				(uint32_t)dn->d->rows[dn->row[r]].first,
				p->rows[r].count, dst + p->rows[r].first);
}

void sv_h5_donor_release(struct sv_h5 *h, struct sv_h5_donor *dn)
{
	if (dn->released)
		return;
	if (dn->given && h->opts && h->opts->donor_done)
		h->opts->donor_done(h->opts->ctx);
	dn->released = true;
	h->p->kept_calls = dn->d ? dn->calls : 0;
	dn->d = NULL;
	free(dn->row);
	dn->row = NULL;
}
