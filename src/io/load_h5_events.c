/*
 * load_h5_events.c: the per-call event columns under /events (doc/format.md
 * 4.5-4.8) into the profile's call arrays.
 *
 * When the rows tile the event columns in index order (what every writer
 * produces) each column is read with one H5Dread, or load_h5_fast.c's
 * parallel inflater, straight into the profile's array; otherwise through
 * one scratch buffer per column, or one read per row when rows are long.
 * Nothing is allocated per call.
 */
#include "load_h5_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_h5_fast.h"

/* ------------------------------------------------------------------ */
/* Event columns                                                       */

/* Where a row's calls come from: the rows tile [base, base + ncalls) of
 * the event columns in row order (direct), or not (scratch). */
struct event_map {
	bool direct;
	bool per_row;   /* not direct, but rows are long: read each row's
			     slice into place (no scratch buffer) */
	hsize_t base;   /* direct: first event of call 0 */
	double f0, f1;  /* progress range of the column being read */
	hsize_t lo, hi; /* scratch: the event range rows cover */
	struct sv_h5_index *ix; /* offsets and counts, by row */
	/* A rank subset whose rows ascend in the file: the runs of adjacent
	 * rows as ranges, read one after another (nranges 0: not so), each
	 * to the call rdst[i] on.  With rows copied from a donor
	 * (load_h5_donor.c) only the others are ranges (donated), and
	 * nread counts the calls the ranges hold. */
	hsize_t *roff, *rn, *rdst;
	size_t nranges;
	bool donated;
	hsize_t nread;
};

#define SV_LOAD_ROW_READS_MIN 1024

/* The rows of a rank subset (or those a donor does not give, dn) as
 * ranges of the event columns: each run of rows that follow each other
 * in the file and in the profile is one range.  Left empty when some row
 * starts before the one before it ends (the calls would not arrive in
 * row order). */
static void event_map_ranges(struct event_map *em, const struct sv_profile *p,
	const struct sv_h5_index *ix, const struct sv_h5_donor *dn)
{
	hsize_t r, end = 0, at = 0;
	size_t k = 0, n = ix->nrows ? (size_t)ix->nrows : 1;

	em->roff = sv_xmalloc(n * sizeof *em->roff);
	em->rn = sv_xmalloc(n * sizeof *em->rn);
	em->rdst = sv_xmalloc(n * sizeof *em->rdst);
	em->nread = 0;
	for (r = 0; r < ix->nrows; r++) {
		hsize_t off = (hsize_t)ix->offset[r];
		if (ix->count[r] == 0 || sv_h5_donor_row(dn, r))
			continue;
		if (k && off < end) {
			k = 0;
			break;
		}
		if (k && off == end && p->rows[r].first == at) {
			em->rn[k - 1] += (hsize_t)ix->count[r];
		} else {
			em->roff[k] = off;
			em->rdst[k] = p->rows[r].first;
			em->rn[k++] = (hsize_t)ix->count[r];
		}
		end = off + (hsize_t)ix->count[r];
		at = p->rows[r].first + (hsize_t)ix->count[r];
		em->nread += (hsize_t)ix->count[r];
	}
	em->nranges = k;
}

static void event_map_fini(struct event_map *em)
{
	free(em->roff);
	free(em->rn);
	free(em->rdst);
}

static void event_map_build(struct event_map *em, const struct sv_profile *p,
	struct sv_h5_index *ix, const struct sv_h5_donor *dn)
{
	hsize_t r, next = 0;
	bool any = false;

	memset(em, 0, sizeof *em);
	em->ix = ix;
	em->direct = true;
	em->base = 0;
	em->lo = (hsize_t)-1;
	em->hi = 0;
	for (r = 0; r < ix->nrows; r++) {
		hsize_t off = (hsize_t)ix->offset[r];
		hsize_t end = off + (hsize_t)ix->count[r];
		if (ix->count[r] == 0)
			continue;
		if (!any) {
			em->base = next = off;
			any = true;
		}
		if (off != next)
			em->direct = false;
		next = end;
		if (off < em->lo)
			em->lo = off;
		if (end > em->hi)
			em->hi = end;
	}
	if (!any)
		em->lo = em->hi = 0;
	if (dn->d) {
		/* The donor planned for rows that ascend: ranges apply. */
		em->direct = false;
		em->donated = true;
		event_map_ranges(em, p, ix, dn);
		return;
	}
	if (!em->direct && ix->src)
		event_map_ranges(em, p, ix, dn);
	/* One H5Dread per row costs some microseconds: worth it when rows
	 * hold many calls, where a scratch copy of the column costs more
	 * (measured: with 125000 calls per row, per-row reads took 25% less
	 * CPU than the scratch copy; with 100, 20% more). */
	{
		uint64_t calls = 0;
		for (r = 0; r < ix->nrows; r++)
			calls += (uint64_t)ix->count[r];
		em->per_row = !em->direct && !em->nranges && ix->nrows &&
			      calls / ix->nrows >= SV_LOAD_ROW_READS_MIN;
	}
}

/* Read one event column (elements of 8 bytes as memtype) into dst, one
 * value per call of the profile. */
/* Elements per H5Dread while reading a column: progress is reported and
 * cancellation honoured between blocks (a multiple of the writers' event
 * chunk of 1024). */
#define EVENT_BLOCK ((hsize_t)1 << 20)

/* Read [off, off + n) into buf in blocks; done / total place the blocks
 * in the column's progress range. */
static int event_blocks(struct sv_h5 *h, const struct event_map *em, hid_t ds,
	const char *objpath, hid_t memtype, hsize_t off, hsize_t n,
	unsigned char *buf, hsize_t done, hsize_t total)
{
	hsize_t at = 0;
	double span = em->f1 - em->f0, all = (double)(total ? total : 1);
	int rc;

	/* Compressed columns: inflate in parallel when the layout allows. */
	rc = sv_h5_fast_read(h, ds, memtype, off, n, buf,
		em->f0 + span * (double)done / all,
		em->f0 + span * (double)(done + n) / all);
	if (rc != SV_H5_FAST_NO)
		return rc;
	rc = 0;
	while (at < n && rc == 0) {
		hsize_t k = n - at < EVENT_BLOCK ? n - at : EVENT_BLOCK;
		rc = sv_h5_read_range(
			h, ds, objpath, memtype, off + at, k, buf + at * 8);
		at += k;
		if (rc == 0 && (n > EVENT_BLOCK || at == n))
			rc = sv_h5_step(h,
				em->f0 + (em->f1 - em->f0) *
						 (double)(done + at) /
						 (double)(total ? total : 1),
				"events");
	}
	return rc;
}

/* Read the ranges of a rank subset into dst, one after another: each
 * with the parallel decoder where it applies, the rest with one H5Dread
 * of the union of the ranges per block of about EVENT_BLOCK elements
 * (progress and cancellation between blocks). */
static int event_ranges(struct sv_h5 *h, const struct event_map *em, hid_t ds,
	const char *objpath, hid_t memtype, unsigned char *dst, hsize_t total)
{
	double span = em->f1 - em->f0, all = (double)(total ? total : 1);
	hsize_t done = 0;
	size_t i, b;
	int rc = 0;

	for (i = 0; i < em->nranges; i++) {
		rc = sv_h5_fast_read(h, ds, memtype, em->roff[i], em->rn[i],
			dst + em->rdst[i] * 8,
			em->f0 + span * (double)done / all,
			em->f0 + span * (double)(done + em->rn[i]) / all);
		if (rc == SV_H5_FAST_NO)
			break;
		if (rc)
			return rc;
		done += em->rn[i];
	}
	for (rc = 0; i < em->nranges && rc == 0; i = b) {
		hsize_t got = 0;
		/* (One read fills one stretch of dst.) */
		for (b = i;
			b < em->nranges &&
			(got == 0 || (got + em->rn[b] <= EVENT_BLOCK &&
					     em->rdst[b] == em->rdst[i] + got));
			b++)
			got += em->rn[b];
		rc = sv_h5_read_ranges(h, ds, objpath, memtype, em->roff + i,
			em->rn + i, b - i, dst + em->rdst[i] * 8);
		done += got;
		if (rc == 0)
			rc = sv_h5_step(h, em->f0 + span * (double)done / all,
				"events");
	}
	return rc;
}

/* Read one event column (elements of 8 bytes as memtype) into dst, one
 * value per call of the profile. */
static int event_read(struct sv_h5 *h, const struct event_map *em, hid_t ds,
	const char *objpath, hid_t memtype, void *dst)
{
	struct sv_profile *p = h->p;
	unsigned char *scratch;
	hsize_t done = 0;
	size_t r;
	int rc = 0;

	if (p->ncalls == 0)
		return 0;
	if (em->direct)
		return event_blocks(h, em, ds, objpath, memtype, em->base,
			p->ncalls, dst, 0, p->ncalls);
	if (em->nranges || em->donated)
		return event_ranges(
			h, em, ds, objpath, memtype, dst, em->nread);
	if (em->per_row) {
		for (r = 0; r < p->nrows && rc == 0; r++) {
			rc = event_blocks(h, em, ds, objpath, memtype,
				(hsize_t)em->ix->offset[r], p->rows[r].count,
				(unsigned char *)dst + p->rows[r].first * 8,
				done, p->ncalls);
			done += p->rows[r].count;
		}
		return rc;
	}
	scratch = sv_xmalloc((size_t)(em->hi - em->lo) * 8);
	rc = event_blocks(h, em, ds, objpath, memtype, em->lo, em->hi - em->lo,
		scratch, 0, em->hi - em->lo);
	for (r = 0; r < p->nrows && rc == 0; r++) {
		const struct sv_row *row = &p->rows[r];
		if (row->count)
			memcpy((unsigned char *)dst + row->first * 8,
				scratch +
					((hsize_t)em->ix->offset[r] - em->lo) *
						8,
				(size_t)row->count * 8);
	}
	free(scratch);
	return rc;
}

void sv_h5_events_rows_gpu(struct sv_profile *p)
{
	size_t r;
	uint64_t i;

	for (r = 0; r < p->nrows; r++) {
		struct sv_row *row = &p->rows[r];
		row->has_gpu = false;
		if (!sv_profile_has_gpu(p))
			continue;
		for (i = 0; i < row->count; i++)
			if (sv_profile_gpu(p, (uint32_t)(row->first + i)) >=
				0) {
				row->has_gpu = true;
				break;
			}
	}
}

const char *const sv_h5_optional_names[SV_H5_OPTIONAL] = {"gpu_durations",
	"call_ids", "parent_ids", "thread_ids", "task_ids", "await_ns"};

/* Where each optional column goes, in enum sv_h5_optional's order. */
static const struct {
	size_t member; /* offsetof in struct sv_profile */
	int64_t fill;
} optional_cols[SV_H5_OPTIONAL] = {
	{offsetof(struct sv_profile, gpu_ns), -1},
	{offsetof(struct sv_profile, call_id), -1},
	{offsetof(struct sv_profile, parent_id), -1},
	{offsetof(struct sv_profile, thread_id), -1},
	{offsetof(struct sv_profile, task_id), -1},
	{offsetof(struct sv_profile, await_ns), 0},
};

static bool event_known(const char *name)
{
	static const char *core[] = {
		"start_deltas", "durations", "start_times", "end_times"};
	size_t i;
	for (i = 0; i < sizeof core / sizeof core[0]; i++)
		if (!strcmp(name, core[i]))
			return true;
	for (i = 0; i < sizeof optional_cols / sizeof optional_cols[0]; i++)
		if (!strcmp(name, sv_h5_optional_names[i]))
			return true;
	return false;
}

/* Undo schema 3's encoding of the starts in place: start_ns holds the
 * deltas of each row (but for the rows copied from a donor, dn).  The
 * durations stay in end_ns as they are (end_is_duration): the ends are
 * start + duration, which sv_profile_finish needs no pass of its own to
 * know.  Arithmetic wraps like numpy's int64. */
static void event_decode_deltas(
	struct sv_profile *p, const struct sv_h5_donor *dn)
{
	size_t r;
	uint64_t i;

	for (r = 0; r < p->nrows; r++) {
		const struct sv_row *row = &p->rows[r];
		int64_t *s = p->start_ns + row->first;
		if (sv_h5_donor_row(dn, r))
			continue;
		for (i = 1; i < row->count; i++)
			s[i] = (int64_t)((uint64_t)s[i - 1] + (uint64_t)s[i]);
	}
	p->end_is_duration = true;
}

/* The datasets of /events (names) that are no known column. */
static size_t event_extra_count(const struct sv_strv *names)
{
	size_t i, n = 0;

	for (i = 0; i < names->n; i++)
		n += !event_known(names->v[i]);
	return n;
}

int sv_h5_events_load(struct sv_h5 *h, hid_t ev, struct sv_h5_index *ix)
{
	struct sv_profile *p = h->p;
	bool delta = sv_h5_exists(ev, "start_deltas");
	const char *n0 = delta ? "start_deltas" : "start_times";
	const char *n1 = delta ? "durations" : "end_times";
	char obj0[64], obj1[64], obj[512];
	struct sv_h5_col c0, c1, c;
	struct sv_h5_donor dn;
	struct event_map em;
	struct sv_strv extra = {0};
	struct sv_h5_objects seen = {0};
	size_t i;
	hsize_t m;
	bool pack, packed;
	int rc;

	memset(&em, 0, sizeof em);
	memset(&dn, 0, sizeof dn);
	snprintf(obj0, sizeof obj0, "/events/%s", n0);
	snprintf(obj1, sizeof obj1, "/events/%s", n1);
	if (!delta && !sv_h5_exists(ev, "start_times"))
		return sv_h5_fail(h, -EINVAL, "/events",
			"has neither start_deltas (schema 3) nor start_times "
			"(schema 2): the event start times are missing");
	rc = sv_h5_col_open(
		h, ev, n0, obj0, SV_H5_REQUIRED | SV_H5_INT, (hsize_t)-1, &c0);
	if (rc)
		return rc;
	m = c0.n;
	rc = sv_h5_col_open(
		h, ev, n1, obj1, SV_H5_REQUIRED | SV_H5_INT, (hsize_t)-1, &c1);
	if (rc) {
		sv_h5_col_close(&c0);
		return rc;
	}
	if (c1.n < m) {
		rc = sv_h5_fail(h, -EINVAL, obj1,
			"holds %llu values, but %s holds %llu events; the "
			"file is truncated or damaged",
			(unsigned long long)c1.n, obj0, (unsigned long long)m);
		goto out;
	}
	if (c1.n > m)
		sv_profile_warn(h->p,
			"%s: holds %llu values, but %s holds %llu events; "
			"the extra values are ignored",
			obj1, (unsigned long long)c1.n, obj0,
			(unsigned long long)m);
	rc = sv_h5_index_check_events(h, ix, m, obj0);
	if (rc)
		goto out;
	sv_h5_subset_apply(h, ix);
	{
		uint64_t total = 0;
		for (i = 0; i < ix->nrows; i++)
			total += (uint64_t)ix->count[i];
		sv_profile_reserve_calls(p, total);
	}

	for (i = 0; i < ix->nrows; i++)
		if (!sv_profile_add_row(p, (uint32_t)ix->rank[i],
			    (uint32_t)ix->region[i], (uint64_t)ix->count[i],
			    h->err)) {
			rc = sv_h5_index_row_fail(
				h, "/rank_region_index/event_counts");
			goto out;
		}
	rc = sv_h5_step(h, 0.15, "events");
	if (rc)
		goto out;

	/* Progress: starts 0.15-0.35, ends 0.35-0.55, the optional columns
	 * 0.05 each up to 0.85, extra columns up to 0.9. */
	sv_h5_group_links(ev, &extra);
	sv_h5_donor_plan(h, ev, ix, event_extra_count(&extra), &dn);
	if (!dn.d) /* nothing to copy: let the donor go now */
		sv_h5_donor_release(h, &dn);
	event_map_build(&em, p, ix, &dn);
	em.f0 = 0.15;
	em.f1 = 0.35;
	rc = event_read(h, &em, c0.ds, obj0, H5T_NATIVE_INT64, p->start_ns);
	/* A load that packs packs the starts as soon as they are whole
	 * (sv_profile_finish would, before the nesting): the ends and the
	 * id columns read next are then not on top of them as int64.  (A
	 * donor's rows are copied in with the ends: then after them.) */
	pack = h->opts && h->opts->pack && p->ncalls >= h->opts->pack_min_calls;
	packed = !rc && !dn.d && pack;
	if (packed) {
		/* The ends' block made again once the starts' is freed, so
		 * that it is the starts' room (a load holds the heap:
		 * heap.h), not pages of its own beside it. */
		free(p->end_ns);
		p->end_ns = NULL;
		if (delta)
			event_decode_deltas(p, &dn);
		sv_profile_pack_starts(p);
		p->end_ns = sv_xmalloc(
			(p->call_cap ? p->call_cap : 1) * sizeof *p->end_ns);
	}
	em.f0 = 0.35;
	em.f1 = 0.55;
	if (!rc)
		rc = event_read(
			h, &em, c1.ds, obj1, H5T_NATIVE_INT64, p->end_ns);
	if (rc)
		goto out;
	if (delta && !packed)
		event_decode_deltas(p, &dn);
	sv_h5_donor_times(h, &dn);
	if (pack) /* unless packed above */
		sv_profile_pack_starts(p);

	for (i = 0; i < sizeof optional_cols / sizeof optional_cols[0]; i++) {
		int64_t **col = (int64_t **)(void *)((char *)p +
						     optional_cols[i].member);
		snprintf(
			obj, sizeof obj, "/events/%s", sv_h5_optional_names[i]);
		rc = sv_h5_col_open(
			h, ev, sv_h5_optional_names[i], obj, SV_H5_INT, m, &c);
		if (rc < 0)
			goto out;
		if (rc == SV_H5_ABSENT) {
			rc = 0;
			continue;
		}
		sv_profile_column(p, col, optional_cols[i].fill);
		em.f0 = 0.55 + 0.05 * (double)i;
		em.f1 = em.f0 + 0.05;
		rc = event_read(h, &em, c.ds, obj, H5T_NATIVE_INT64, *col);
		sv_h5_col_close(&c);
		if (sv_h5_read_optional(h, rc, obj)) {
			/* A chunk refused: the column is left out. */
			sv_profile_drop_column(p, col);
			rc = 0;
			continue;
		}
		if (rc)
			goto out;
		sv_h5_donor_column(h, &dn, (enum sv_h5_optional)i, *col);
		/* The GPU and await times and the call and parent ids
		 * packed at once (the nesting does not read them): the load
		 * never holds them as int64 side by side. */
		if (h->opts && h->opts->pack)
			sv_profile_pack_ids(p);
	}
	sv_h5_donor_release(h, &dn);
	sv_h5_events_rows_gpu(p);

	/* Every other 1-D numeric dataset as long as the events: a named
	 * extra column (doc/format.md 4.8). */
	/* Each column once, however many names (hard links) it has. */
	for (i = 0; i < extra.n; i++)
		if (event_known(extra.v[i]))
			(void)sv_h5_objects_again(&seen, ev, extra.v[i]);
	for (i = 0; i < extra.n && rc == 0; i++) {
		struct sv_column *xc;
		char *name;
		if (event_known(extra.v[i]))
			continue;
		if (sv_h5_objects_again(&seen, ev, extra.v[i])) {
			char *shown = sv_h5_show(extra.v[i]);
			sv_profile_warn(p,
				"/events/%s: another name for a column "
				"already read (a hard link); read once",
				shown);
			free(shown);
			continue;
		}
		name = sv_utf8_sanitize(extra.v[i], strlen(extra.v[i]));
		{
			char *shown = sv_h5_show(name);
			snprintf(obj, sizeof obj, "/events/%s", shown);
			free(shown);
		}
		rc = sv_h5_col_open(
			h, ev, extra.v[i], obj, SV_H5_NUMBER, m, &c);
		if (rc == 0) {
			xc = sv_profile_add_extra(p, name, c.is_float);
			em.f0 = 0.85 + 0.05 * (double)i / (double)extra.n;
			em.f1 = 0.85 + 0.05 * (double)(i + 1) / (double)extra.n;
			rc = event_read(h, &em, c.ds, obj,
				c.is_float ? H5T_NATIVE_DOUBLE
					   : H5T_NATIVE_INT64,
				c.is_float ? (void *)xc->f : (void *)xc->i);
			sv_h5_col_close(&c);
			if (sv_h5_read_optional(h, rc, obj)) {
				sv_profile_drop_extra(p);
				rc = 0;
			}
		} else if (rc == SV_H5_ABSENT) {
			rc = 0;
		}
		free(name);
	}
out:
	sv_strv_fini(&extra);
	sv_h5_objects_fini(&seen);
	sv_h5_donor_release(h, &dn);
	event_map_fini(&em);
	sv_h5_col_close(&c0);
	sv_h5_col_close(&c1);
	return rc;
}
