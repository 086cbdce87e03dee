/*
 * session_stats.c: the session's statistics (session.h): the table of the
 * lanes on display over the whole run, a window or the marked range,
 * sorted by the session's key; the whole run's table kept aside while
 * another is shown; the table of any other selection (a window, a range,
 * a solo lane, ranks, a filter) of a large profile computed on a worker
 * thread (job.h) while the old one stays on screen ("computing" in its
 * title), stopped before anything it reads changes.  All of it is
 * struct sv_session_stats, defined here alone: other files read it through
 * sv_session_stats() and its kin (session.h) and change it only through
 * the functions that notify.  Nothing here knows about curses or HDF5.
 */
#include "scopeview/session.h"

#include "session_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/budget.h"
#include "scopeview/render.h"

/* The statistics of the lanes on display (session.h's accessors say what
 * each part means). */
struct sv_session_stats {
	/* The table shown, its rows sorted by sort_key; the whole run's
	 * table kept aside while a selection is shown, so restoring it
	 * costs nothing (a quarter of a second on 10 million calls
	 * otherwise). */
	struct sv_stats_table shown;
	bool stats_valid;
	bool stats_is_all;
	struct sv_stats_table stats_all;
	bool stats_all_valid;
	/* The first whole run's table of the profile, never sorted or
	 * shown: what the table of a selection takes its rows kept whole
	 * from (sv_stats_filter.base), on a worker while the views sort
	 * the one shown. */
	struct sv_stats_table stats_base;
	bool stats_base_valid;
	enum sv_stats_key sort_key;
	int sort_diff; /* SV_SESSION_SORT_DELTA, _PCT, or 0: by sort_key */
	/* The time the table covers, and the timeline's window as last
	 * told (sv_session_set_window). */
	enum sv_session_span stats_span;
	int64_t win_t0, win_t1;
	/* A window or range of a large profile is computed on a worker
	 * (stats_busy) into stats_next, from stats_f and its own copies of
	 * the lane and rank flags: the table shown stays until
	 * sv_session_poll() takes the new one. */
	bool stats_busy;
	struct sv_job stats_job;
	struct sv_stats_filter stats_f;
	struct sv_stats_table stats_next;
	bool *stats_lane_copy, *stats_rank_copy;
	/* A rank subset's whole run (p->run): every region over every rank
	 * of the file, from the stored statistics, and for each region of p
	 * its row there, or -1 (row_run, p->nregions entries); and what
	 * each rank's stored rows say (nrun_ranks). */
	struct sv_stats_table stats_run;
	bool stats_run_valid;
	long *row_run;
	struct sv_session_rank_run *run_ranks;
	uint32_t nrun_ranks;
};

struct sv_session_stats *sv_session_stats_new(void)
{
	struct sv_session_stats *st = sv_xcalloc(1, sizeof *st);
	st->sort_key = SV_STATS_KEY_TOTAL;
	return st;
}

void sv_session_stats_free(struct sv_session_stats *st)
{
	if (!st)
		return;
	if (st->stats_valid)
		sv_stats_table_fini(&st->shown);
	if (st->stats_all_valid)
		sv_stats_table_fini(&st->stats_all);
	if (st->stats_base_valid)
		sv_stats_table_fini(&st->stats_base);
	if (st->stats_run_valid)
		sv_stats_table_fini(&st->stats_run);
	free(st->row_run);
	free(st->run_ranks);
	free(st);
}

const struct sv_stats_table *sv_session_stats(const struct sv_session *s)
{
	return s->stats->stats_valid ? &s->stats->shown : NULL;
}

const struct sv_stats_table *sv_session_stats_all(const struct sv_session *s)
{
	return s->stats->stats_all_valid ? &s->stats->stats_all : NULL;
}

long sv_session_stats_rows(const struct sv_session *s)
{
	return s->stats->stats_valid ? (long)s->stats->shown.nregions : 0;
}

long sv_session_stats_region(const struct sv_session *s, long row)
{
	const struct sv_stats_table *st = sv_session_stats(s);
	return st && row >= 0 && row < (long)st->nregions
		       ? (long)st->regions[row].region
		       : -1;
}

bool sv_session_stats_is_all(const struct sv_session *s)
{
	return s->stats->stats_is_all;
}

const struct sv_stats_table *sv_session_stats_run(const struct sv_session *s)
{
	return s->stats->stats_run_valid ? &s->stats->stats_run : NULL;
}

enum sv_stats_key sv_session_sort_key(const struct sv_session *s)
{
	return s->stats->sort_key;
}

int sv_session_sort_diff_kind(const struct sv_session *s)
{
	return s->stats->sort_diff;
}

enum sv_session_span sv_session_span(const struct sv_session *s)
{
	return s->stats->stats_span;
}

void sv_session_stats_range(struct sv_session *s, bool on)
{
	/* The statistics follow a range marked, and the run when it goes. */
	if (on || s->stats->stats_span == SV_SPAN_RANGE) {
		s->stats->stats_span = on ? SV_SPAN_RANGE : SV_SPAN_RUN;
		sv_session_compute_stats(s);
	}
}

void sv_session_stats_take_all(struct sv_session *s, struct sv_stats_table *t)
{
	struct sv_session_stats *st = s->stats;

	if (st->stats_all_valid)
		sv_stats_table_fini(&st->stats_all);
	st->stats_all = *t;
	st->stats_all_valid = true;
	if (!st->stats_base_valid && st->stats_all.plain) {
		sv_stats_table_copy(&st->stats_base, &st->stats_all);
		st->stats_base_valid = true;
	}
	memset(t, 0, sizeof *t);
}

void sv_session_stats_forget(struct sv_session *s)
{
	struct sv_session_stats *st = s->stats;

	if (st->stats_all_valid)
		sv_stats_table_fini(&st->stats_all);
	st->stats_all_valid = false;
	if (st->stats_base_valid)
		sv_stats_table_fini(&st->stats_base);
	st->stats_base_valid = false;
	if (st->stats_valid)
		sv_stats_table_fini(&st->shown);
	st->stats_valid = false;
	if (st->stats_span == SV_SPAN_RANGE)
		st->stats_span = SV_SPAN_RUN;
}

static void session_run_ranks(struct sv_session *s);

void sv_session_compute_run(struct sv_session *s)
{
	struct sv_error err;
	size_t i;
	uint32_t r;

	if (!s->p->run || sv_stats_table_compute(&s->stats->stats_run,
				  s->p->run, NULL, &err) < 0)
		return;
	s->stats->stats_run_valid = true;
	s->stats->row_run = sv_xmalloc((s->p->nregions ? s->p->nregions : 1) *
				       sizeof *s->stats->row_run);
	for (r = 0; r < s->p->nregions; r++)
		s->stats->row_run[r] = -1;
	/* The same region table: a row's region is p's. */
	for (i = 0; i < s->stats->stats_run.nregions; i++)
		if (s->stats->stats_run.regions[i].region < s->p->nregions &&
			s->stats->stats_run.regions[i].nranks)
			s->stats->row_run[s->stats->stats_run.regions[i]
						  .region] = (long)i;
	session_run_ranks(s);
}

/* run_ranks: each rank's stored rows, summed up. */
static void session_run_ranks(struct sv_session *s)
{
	const struct sv_profile *run = s->p->run;
	size_t i;

	s->stats->nrun_ranks = sv_budget_nranks(run);
	s->stats->run_ranks =
		sv_xcalloc(s->stats->nrun_ranks ? s->stats->nrun_ranks : 1,
			sizeof *s->stats->run_ranks);
	for (i = 0; i < s->stats->nrun_ranks; i++)
		s->stats->run_ranks[i].top_region = -1;
	for (i = 0; i < run->nrows; i++) {
		const struct sv_row *row = &run->rows[i];
		struct sv_session_rank_run *rr =
			&s->stats->run_ranks[row->rank];
		const struct sv_summary *m = &row->summary;
		rr->calls += row->count;
		if (!row->has_summary || !row->count)
			continue;
		if (!rr->has_span || m->start_minimum < rr->t0)
			rr->t0 = m->start_minimum;
		if (!rr->has_span || m->end_maximum > rr->t1)
			rr->t1 = m->end_maximum;
		rr->has_span = true;
		if (rr->top_region < 0 || m->total > rr->top_total) {
			rr->top_total = m->total;
			rr->top_region = row->region;
		}
	}
}

const struct sv_session_rank_run *sv_session_rank_run(
	const struct sv_session *s, uint32_t r)
{
	return r < s->stats->nrun_ranks ? &s->stats->run_ranks[r] : NULL;
}

const struct sv_stats_region *sv_session_run_of(
	const struct sv_session *s, uint32_t r)
{
	if (!s->stats->stats_run_valid || r >= s->p->nregions ||
		s->stats->row_run[r] < 0)
		return NULL;
	return &s->stats->stats_run.regions[s->stats->row_run[r]];
}

/* Stop the worker computing statistics, if any, and drop its copies. */
void sv_session_stats_stop(struct sv_session *s)
{
	if (!s->stats) /* a session finished before */
		return;
	if (s->stats->stats_busy) {
		sv_job_cancel(&s->stats->stats_job);
		sv_stats_table_fini(&s->stats->stats_next);
		s->stats->stats_busy = false;
	}
	free(s->stats->stats_lane_copy);
	free(s->stats->stats_rank_copy);
	s->stats->stats_lane_copy = s->stats->stats_rank_copy = NULL;
}

/* Stop showing the table: the whole run's is kept aside for the way
 * back. */
static void session_drop_stats(struct sv_session *s)
{
	if (s->stats->stats_valid && s->stats->stats_is_all) {
		if (s->stats->stats_all_valid)
			sv_stats_table_fini(&s->stats->stats_all);
		s->stats->stats_all = s->stats->shown;
		s->stats->stats_all_valid = true;
	} else if (s->stats->stats_valid) {
		sv_stats_table_fini(&s->stats->shown);
	}
	s->stats->stats_valid = false;
}

/* A region's change in total time, for the Δ sorts: B - A, or in
 * percent of A (+inf for a region A spends no time in). */
static double session_change(
	const struct sv_session *s, const struct sv_stats_region *a, int kind)
{
	const struct sv_stats_region *b = sv_session_second_of(s, a->region);
	double va = (double)a->s.total_ns, vb = b ? (double)b->s.total_ns : 0;

	if (kind == SV_SESSION_SORT_DELTA)
		return vb - va;
	return va > 0 ? (vb - va) / va * 100.0 : vb > 0 ? 1e300 : 0;
}

struct session_keyed {
	double key;
	size_t i;
};

static int session_keyed_cmp(const void *x, const void *y)
{
	const struct session_keyed *a = x, *b = y;
	if (a->key != b->key)
		return a->key < b->key ? 1 : -1;
	return a->i < b->i ? -1 : a->i > b->i;
}

void sv_session_stats_resort(struct sv_session *s)
{
	struct session_keyed *k;
	struct sv_stats_region *rows;
	size_t i, n = s->stats->shown.nregions;

	sv_stats_table_sort(&s->stats->shown, s->stats->sort_key);
	if (!s->stats->sort_diff || !sv_session_stats2(s) || n < 2)
		return;
	k = sv_xmalloc(n * sizeof *k);
	rows = sv_xmalloc(n * sizeof *rows);
	for (i = 0; i < n; i++) {
		k[i].key = session_change(
			s, &s->stats->shown.regions[i], s->stats->sort_diff);
		k[i].i = i;
	}
	qsort(k, n, sizeof *k, session_keyed_cmp);
	for (i = 0; i < n; i++)
		rows[i] = s->stats->shown.regions[k[i].i];
	memcpy(s->stats->shown.regions, rows, n * sizeof *rows);
	free(rows);
	free(k);
}

/* Show table t (taken over). */
static void session_adopt_stats(
	struct sv_session *s, struct sv_stats_table *t, bool all)
{
	session_drop_stats(s);
	s->stats->shown = *t;
	s->stats->stats_valid = true;
	s->stats->stats_is_all = all;
	if (all && !s->stats->stats_base_valid && s->stats->shown.plain) {
		/* In display order, before it is sorted, as computed. */
		sv_stats_table_copy(&s->stats->stats_base, &s->stats->shown);
		s->stats->stats_base_valid = true;
	}
	sv_session_stats_resort(s);
}

static void session_stats_job(struct sv_job *j)
{
	struct sv_session *s = j->arg;
	j->rc = sv_stats_table_compute(
		&s->stats->stats_next, s->p, &s->stats->stats_f, NULL);
	atomic_store(&j->progress, j->total);
}

/* The span's time range, if any: false for the whole run. */
static bool session_span_range(
	const struct sv_session *s, int64_t *t0, int64_t *t1)
{
	if (s->stats->stats_span == SV_SPAN_RANGE && s->has_range) {
		*t0 = s->range_t0;
		*t1 = s->range_t1;
		return true;
	}
	if (s->stats->stats_span == SV_SPAN_WINDOW &&
		s->stats->win_t1 > s->stats->win_t0) {
		*t0 = s->stats->win_t0;
		*t1 = s->stats->win_t1;
		return true;
	}
	return false;
}

static void session_compute_first(struct sv_session *s)
{
	struct sv_stats_filter f;
	struct sv_stats_table t;
	struct sv_error err;
	bool all;

	sv_session_stats_stop(s);
	memset(&f, 0, sizeof f);
	f.rank_on = s->rank_on;
	f.nrank_on = s->nrank_on;
	if (s->p->has_calls && s->p->nlanes &&
		memchr(s->lane_hidden, true, s->p->nlanes))
		f.lane_on = s->lane_on; /* every lane shown: no filter */
	if (sv_session_call_keep(s)) {
		/* Names and metadata terms together: the calls kept. */
		f.call_on = sv_session_call_keep(s);
	} else {
		sv_session_filter_patterns(s, &f);
	}
	f.skip_empty = s->p->has_calls;
	f.has_range =
		s->p->has_calls && session_span_range(s, &f.t0_ns, &f.t1_ns);
	/* Rows kept whole are the whole run's; the rest on both cores. */
	f.base = s->stats->stats_base_valid ? &s->stats->stats_base : NULL;
	f.threads = 2;
	all = s->solo_lane < 0 && !s->rank_on &&
	      !sv_session_filter_by_name(s) && !sv_session_call_keep(s) &&
	      !f.has_range;
	if (all && s->stats->stats_valid && s->stats->stats_is_all)
		return;
	if (all && s->stats->stats_all_valid) {
		t = s->stats->stats_all;
		s->stats->stats_all_valid = false;
		session_adopt_stats(s, &t, true);
		return;
	}
	if (!all && s->p->ncalls > SV_SESSION_STATS_SYNC) {
		/* On a worker, with its own copies of the lane and rank
		 * flags (the filter's arrays outlive it: changing them stops
		 * it first). */
		s->stats->stats_lane_copy =
			sv_session_copy_flags(f.lane_on, s->p->nlanes);
		s->stats->stats_rank_copy =
			sv_session_copy_flags(f.rank_on, f.nrank_on);
		f.lane_on = s->stats->stats_lane_copy;
		f.rank_on = s->stats->stats_rank_copy;
		f.cancel = &s->stats->stats_job.cancel;
		s->stats->stats_f = f;
		memset(&s->stats->stats_next, 0, sizeof s->stats->stats_next);
		s->stats->stats_busy = true;
		sv_job_start(&s->stats->stats_job, session_stats_job, s,
			s->p->ncalls);
		return;
	}
	if (sv_stats_table_compute(&t, s->p, &f, &err) == 0) {
		session_adopt_stats(s, &t, all);
		return;
	}
	session_drop_stats(s);
}

void sv_session_compute_stats(struct sv_session *s)
{
	session_compute_first(s);
	sv_session_compute_second(s);
}

bool sv_session_stats_busy(const struct sv_session *s)
{
	return s->stats->stats_busy;
}

bool sv_session_stats_poll(struct sv_session *s)
{
	struct sv_stats_table t;

	if (!s->stats->stats_busy || !sv_job_poll(&s->stats->stats_job))
		return false;
	s->stats->stats_busy = false;
	if (s->stats->stats_job.rc == 0) {
		t = s->stats->stats_next;
		memset(&s->stats->stats_next, 0, sizeof s->stats->stats_next);
		session_adopt_stats(s, &t, false);
	} else {
		sv_stats_table_fini(&s->stats->stats_next);
	}
	free(s->stats->stats_lane_copy);
	free(s->stats->stats_rank_copy);
	s->stats->stats_lane_copy = s->stats->stats_rank_copy = NULL;
	sv_session_notify(s, SV_SESSION_SORT);
	return true;
}

void sv_session_set_span(struct sv_session *s, enum sv_session_span span)
{
	if (span == SV_SPAN_RANGE && !s->has_range)
		span = SV_SPAN_RUN;
	s->stats->stats_span = span;
	sv_session_compute_stats(s);
	sv_session_notify(s, SV_SESSION_SORT);
}

void sv_session_set_window(struct sv_session *s, int64_t t0, int64_t t1)
{
	if (s->stats->win_t0 == t0 && s->stats->win_t1 == t1)
		return;
	s->stats->win_t0 = t0;
	s->stats->win_t1 = t1;
	if (s->stats->stats_span != SV_SPAN_WINDOW)
		return;
	sv_session_compute_stats(s);
	sv_session_notify(s, SV_SESSION_SORT);
}

void sv_session_span_text(const struct sv_session *s, char *buf, size_t n)
{
	char a[32], b[32];
	int64_t t0, t1;

	if (!session_span_range(s, &t0, &t1))
		snprintf(buf, n, "whole run%s",
			s->stats->stats_busy ? ", computing" : "");
	else
		snprintf(buf, n, "%s %s .. %s (calls clipped)%s",
			s->stats->stats_span == SV_SPAN_RANGE ? "range"
							      : "window",
			sv_render_rel(sv_sub_sat(t0, s->origin), a, sizeof a),
			sv_render_rel(sv_sub_sat(t1, s->origin), b, sizeof b),
			s->stats->stats_busy ? ", computing" : "");
}

void sv_session_sort(struct sv_session *s, enum sv_stats_key key)
{
	s->stats->sort_key = key;
	s->stats->sort_diff = 0;
	if (s->stats->stats_valid)
		sv_stats_table_sort(&s->stats->shown, key);
	sv_session_notify(s, SV_SESSION_SORT);
}

int sv_session_sort_diff(struct sv_session *s, int kind)
{
	if (!s->p2 || !sv_session_stats2(s) ||
		(kind != SV_SESSION_SORT_DELTA && kind != SV_SESSION_SORT_PCT))
		return -EINVAL;
	s->stats->sort_diff = kind;
	if (s->stats->stats_valid)
		sv_session_stats_resort(s);
	sv_session_notify(s, SV_SESSION_SORT);
	return 0;
}
