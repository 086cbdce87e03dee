/*
 * session_filter.c: the session's region filter (session.h) and the
 * patterns it shares with the search: the regions and calls it keeps, and
 * the level-of-detail index of those calls (and of the second run's).
 * All of it is struct sv_session_filter, defined here alone and read
 * elsewhere through sv_session_index(), sv_session_region_keep() and
 * their kin.  On a profile of at least bg_calls calls they are made on a
 * worker thread (job.h) into a filter part of its own (and the second
 * run's index beside it: the same code makes them), while the old filter
 * stays on screen with a progress line; sv_session_poll()
 * takes them in on the UI thread, and the next filter typed tells the
 * worker to stop, without waiting for it (it frees what it made; it is
 * joined later).  Patterns are compiled before that, so a bad one is
 * reported at once.  Nothing here knows about curses or HDF5.
 */
#include "scopeview/session.h"

#include "session_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/callmeta.h"
#include "scopeview/regex.h"

/* How many calls the per-call pass flags between looks at the stop flag. */
#define FILTER_STEP 65536

/* The region filter in force (session.h's accessors say what each part
 * means). */
struct sv_session_filter {
	/* The patterns as typed, compiled (include, then exclude), and the
	 * regions they keep (NULL = no filter). */
	char filter_spec[SV_SESSION_TEXT_MAX];
	bool *region_keep;
	struct sv_regex **filter_re;
	size_t ninclude, nexclude;
	/* With metadata terms (key=value, key~regex) and a file with event
	 * metadata: the calls it keeps, p->ncalls flags (region_keep then
	 * says which regions keep some call); NULL otherwise. */
	bool *call_keep;
	/* The level-of-detail index of the calls it keeps, made from the
	 * session's index_full by sv_lod_index_select (levels kept whole
	 * borrowed), so freed before it. */
	struct sv_lod_index index;
	/* On a profile of at least bg_calls calls (both runs' calls, with a
	 * second run), a new filter is made on a worker: until
	 * sv_session_poll() takes it in, the filter above stays in force,
	 * filter_pending is set and the message line shows the progress.  A
	 * newer filter tells the worker to stop and, without waiting,
	 * starts another (or none, when it is the filter in force): the one
	 * told to stop frees what it made and is joined later
	 * (filter_orphans). */
	bool filter_pending;
	struct session_filter_work *filter_work;
	struct sv_job_orphans filter_orphans;
};

struct sv_session_filter *sv_session_filter_new(void)
{
	return sv_xcalloc(1, sizeof(struct sv_session_filter));
}

void sv_session_filter_free(struct sv_session_filter *f)
{
	if (!f)
		return;
	sv_lod_index_fini(&f->index);
	free(f);
}

/* ---- what the views read ------------------------------------------------- */

const struct sv_lod_index *sv_session_index(const struct sv_session *s)
{
	return &s->filter->index;
}

const char *sv_session_filter_spec(const struct sv_session *s)
{
	return s->filter->filter_spec;
}

const bool *sv_session_region_keep(const struct sv_session *s)
{
	return s->filter->region_keep;
}

const bool *sv_session_call_keep(const struct sv_session *s)
{
	return s->filter->call_keep;
}

bool sv_session_filter_pending(const struct sv_session *s)
{
	return s->filter->filter_pending;
}

bool sv_session_keeps(const struct sv_session *s, uint32_t c)
{
	if (s->filter->call_keep)
		return s->filter->call_keep[c];
	return !s->filter->region_keep ||
	       s->filter->region_keep[sv_call_region(s->p, c)];
}

/* ---- what the other parts of the session use ----------------------------- */

bool sv_session_filter_by_name(const struct sv_session *s)
{
	return s->filter->ninclude || s->filter->nexclude;
}

void sv_session_filter_patterns(
	const struct sv_session *s, struct sv_stats_filter *f)
{
	const struct sv_session_filter *sf = s->filter;

	f->include = sf->filter_re;
	f->ninclude = sf->ninclude;
	f->exclude = sf->filter_re ? sf->filter_re + sf->ninclude : NULL;
	f->nexclude = sf->nexclude;
}

int sv_session_filter_index(struct sv_session *s, struct sv_error *err)
{
	return sv_lod_index_select(&s->filter->index, &s->index_full,
		s->filter->call_keep ? NULL : s->filter->region_keep, NULL, 1,
		err);
}

void sv_session_filter_drop_index(struct sv_session *s, bool later)
{
	if (later)
		sv_session_free_later(&s->filter->index, NULL, NULL, 0);
	else
		sv_lod_index_fini(&s->filter->index);
}

void sv_session_filter_clear(struct sv_session *s)
{
	sv_session_free_filter(s);
	s->filter->filter_spec[0] = '\0';
}

void sv_session_filter_shadow(
	struct sv_session *shadow, const struct sv_session *s)
{
	const struct sv_profile *p = s->p;
	struct sv_session_filter *f = sv_session_filter_new();

	f->region_keep =
		sv_session_copy_flags(s->filter->region_keep, p->nregions);
	f->call_keep = sv_session_copy_flags(s->filter->call_keep, p->ncalls);
	shadow->filter = f;
}

void sv_session_filter_shadow_fini(struct sv_session *shadow)
{
	struct sv_session_filter *f = shadow->filter;

	if (!f)
		return;
	free(f->region_keep);
	/* A flag a call: freed off the loop when big. */
	sv_session_free_later(NULL, f->call_keep, NULL,
		f->call_keep && shadow->p ? (size_t)shadow->p->ncalls : 0);
	sv_lod_index_fini(&f->index); /* none: it makes none */
	free(f);
	shadow->filter = NULL;
}

/* ---- patterns ------------------------------------------------------------ */

int sv_session_pat_compile(
	const char *pat, struct sv_session_pat *sp, struct sv_error *err)
{
	struct sv_error name_err;
	int is_term;

	memset(sp, 0, sizeof *sp);
	is_term = sv_callmeta_term_parse(pat, &sp->term, err);
	if (is_term < 0)
		return -EINVAL;
	sp->is_term = is_term > 0;
	sp->re = sv_regex_compile(pat, sp->is_term ? &name_err : err);
	if (!sp->re && !sp->is_term)
		return -EINVAL;
	return 0;
}

void sv_session_pat_fini(struct sv_session_pat *sp)
{
	sv_regex_free(sp->re);
	sv_callmeta_term_fini(&sp->term);
}

bool sv_session_pats_call(const struct sv_profile *p,
	const struct sv_session_pat *pats, size_t n, uint32_t c)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (pats[i].is_term &&
			sv_callmeta_term_match(p, &pats[i].term, c))
			return true;
	return false;
}

/* ---- the filter's parts -------------------------------------------------- */

/* Whether filter f keeps a region called name. */
static bool filter_keeps_name(
	const struct sv_session_filter *f, const char *name)
{
	bool keep = f->ninclude == 0;
	size_t i;

	for (i = 0; i < f->ninclude && !keep; i++)
		keep = sv_regex_match(f->filter_re[i], name);
	for (i = 0; i < f->nexclude && keep; i++)
		keep = !sv_regex_match(f->filter_re[f->ninclude + i], name);
	return keep;
}

bool *sv_session_filter_keep_names(
	const struct sv_session_filter *f, const struct sv_profile *p)
{
	bool *keep;
	uint32_t r;

	if (!f->region_keep)
		return NULL;
	keep = sv_xcalloc(p->nregions ? p->nregions : 1, sizeof *keep);
	for (r = 0; r < p->nregions; r++)
		keep[r] = filter_keeps_name(f, p->regions[r]);
	return keep;
}

/* Drop f's patterns and kept regions and calls (of p; not the index). */
static void filter_parts_free(
	struct sv_session_filter *f, const struct sv_profile *p)
{
	size_t i;
	for (i = 0; i < f->ninclude + f->nexclude; i++)
		sv_regex_free(f->filter_re[i]);
	free(f->filter_re);
	f->filter_re = NULL;
	f->ninclude = f->nexclude = 0;
	free(f->region_keep);
	f->region_keep = NULL;
	/* A flag a call: freed off the loop when big. */
	sv_session_free_later(
		NULL, f->call_keep, NULL, f->call_keep ? (size_t)p->ncalls : 0);
	f->call_keep = NULL;
}

void sv_session_free_filter(struct sv_session *s)
{
	sv_session_stats_stop(s); /* it may read the patterns */
	filter_parts_free(s->filter, s->p);
}

/* A filter as typed, compiled: the include patterns, then the exclude
 * ones, each in the order typed. */
struct filter_pats {
	struct sv_session_pat *pats;
	size_t n, ni;
	bool terms; /* some pattern is a metadata term */
};

static void filter_pats_fini(struct filter_pats *fp)
{
	size_t i;
	for (i = 0; i < fp->n; i++)
		sv_session_pat_fini(&fp->pats[i]);
	free(fp->pats);
	memset(fp, 0, sizeof *fp);
}

/* Read spec into fp; 0, or -EINVAL with err (fp then empty). */
static int filter_parse(
	const char *spec, struct filter_pats *fp, struct sv_error *err)
{
	struct sv_session_pat pat_in;
	bool *excl = NULL;
	size_t cap = 0, ecap = 0, ne = 0, i, k;
	const char *q = spec;

	memset(fp, 0, sizeof *fp);
	while (*q) {
		char pat[SV_SESSION_TEXT_MAX];
		size_t len;
		bool ex;

		while (*q == ' ')
			q++;
		if (!*q)
			break;
		len = strcspn(q, " ");
		ex = *q == '!';
		snprintf(pat, sizeof pat, "%.*s", (int)(len - ex), q + ex);
		q += len;
		if (!*pat)
			continue;
		if (sv_session_pat_compile(pat, &pat_in, err) < 0) {
			filter_pats_fini(fp);
			free(excl);
			return -EINVAL;
		}
		sv_grow((void **)&fp->pats, &cap, fp->n + 1, sizeof *fp->pats);
		sv_grow((void **)&excl, &ecap, fp->n + 1, sizeof *excl);
		fp->pats[fp->n] = pat_in;
		excl[fp->n++] = ex;
		ne += ex;
		fp->terms = fp->terms || pat_in.is_term;
	}
	fp->ni = fp->n - ne;
	for (i = 1; i < fp->n; i++)
		for (k = i; k > 0 && excl[k - 1] && !excl[k]; k--) {
			struct sv_session_pat t = fp->pats[k];
			bool e = excl[k];
			fp->pats[k] = fp->pats[k - 1];
			fp->pats[k - 1] = t;
			excl[k] = excl[k - 1];
			excl[k - 1] = e;
		}
	free(excl);
	return 0;
}

static bool filter_stopped(const struct sv_lod_stop *stop)
{
	return stop && stop->cancel && atomic_load(stop->cancel);
}

/* The calls the filter keeps when some of its patterns are metadata
 * terms: a call is kept when its region or its metadata matches an
 * include pattern (or there is none), and neither matches an exclude
 * one.  region_keep then says which regions keep some call.  False when
 * stopped. */
static bool filter_calls(struct sv_session_filter *f,
	const struct sv_profile *p, const struct filter_pats *fp,
	const struct sv_lod_stop *stop)
{
	const struct sv_session_pat *pats = fp->pats;
	size_t ni = fp->ni, ne = fp->n - fp->ni, i;
	bool *name_in = sv_xcalloc((size_t)p->nregions + 1, sizeof *name_in);
	bool *name_out = sv_xcalloc((size_t)p->nregions + 1, sizeof *name_out);
	uint32_t r, c;

	for (r = 0; r < p->nregions; r++) {
		name_in[r] = ni == 0;
		for (i = 0; i < ni + ne; i++)
			if (pats[i].re &&
				sv_regex_match(pats[i].re, p->regions[r]))
				*(i < ni ? &name_in[r] : &name_out[r]) = true;
		f->region_keep[r] = false;
	}
	f->call_keep = sv_xcalloc(p->ncalls ? p->ncalls : 1, sizeof(bool));
	for (c = 0; c < p->ncalls; c++) {
		if (c % FILTER_STEP == 0 && c) {
			if (filter_stopped(stop))
				break;
			if (stop && stop->progress)
				atomic_fetch_add(stop->progress, FILTER_STEP);
		}
		r = sv_call_region(p, c);
		f->call_keep[c] =
			!name_out[r] &&
			(name_in[r] || sv_session_pats_call(p, pats, ni, c)) &&
			!sv_session_pats_call(p, pats + ni, ne, c);
		if (f->call_keep[c])
			f->region_keep[r] = true;
	}
	free(name_in);
	free(name_out);
	return !filter_stopped(stop);
}

/*
 * Make filter f (empty on entry) from fp for profile p (its regexes are
 * taken over; fp is left to fini): the patterns, the regions and calls
 * kept, and the index of those calls, from full, the index of every call
 * of p.  Runs on the UI thread for a small profile and on a worker's
 * part of its own otherwise; returns 0, or -ECANCELED once stop says so
 * (f then holds a part).
 */
static int filter_make(struct sv_session_filter *f, const struct sv_profile *p,
	struct filter_pats *fp, const struct sv_lod_index *full,
	const struct sv_lod_stop *stop)
{
	struct sv_error err;
	size_t i, nre = 0;
	bool stopped = false;
	uint32_t r;

	if (fp->n) {
		f->filter_re = sv_xmalloc(fp->n * sizeof *f->filter_re);
		for (i = 0; i < fp->n; i++) {
			if (!fp->pats[i].re)
				continue;
			f->filter_re[nre++] = fp->pats[i].re;
			if (i < fp->ni)
				f->ninclude++;
			else
				f->nexclude++;
		}
		f->region_keep =
			sv_xcalloc(p->nregions ? p->nregions : 1, sizeof(bool));
		if (fp->terms && p->call_meta)
			stopped = !filter_calls(f, p, fp, stop);
		else
			for (r = 0; r < p->nregions; r++)
				f->region_keep[r] =
					filter_keeps_name(f, p->regions[r]);
		for (i = 0; i < fp->n; i++)
			fp->pats[i].re = NULL; /* owned by filter_re now */
		if (stopped)
			return -ECANCELED;
	}
	/* Regions alone: the kept regions' calls, from the index of every
	 * call, on both cores (a level kept whole is borrowed); metadata
	 * terms: the calls kept, from the profile. */
	if ((f->call_keep ? sv_lod_index_build_stop(&f->index, p, NULL,
				    f->call_keep, stop, &err)
			  : sv_lod_index_select(&f->index, full, f->region_keep,
				    stop, 2, &err)) < 0 &&
		filter_stopped(stop))
		return -ECANCELED;
	return filter_stopped(stop) ? -ECANCELED : 0;
}

/* After the filter changed: the selection, the lanes' statistics and
 * match lists, and the message line. */
static void filter_done(struct sv_session *s)
{
	size_t i;

	if (s->sel != SV_NO_CALL && !sv_session_keeps(s, s->sel))
		sv_session_set_selection(s, SV_NO_CALL, s->sel2);
	if (s->sel2 != SV_NO_CALL && sv_session_index2(s) &&
		sv_lod_level_pos(sv_session_index2(s), s->sel2) == UINT32_MAX)
		sv_session_set_selection(s, s->sel, SV_NO_CALL);
	sv_session_lanes_changed(s);
	sv_session_message(s, false, "%s",
		s->filter->filter_spec[0] &&
				(s->filter->filter_re || s->filter->call_keep)
			? "filter set"
			: "filter cleared");
	for (i = 0; i < s->filter->ninclude + s->filter->nexclude; i++) {
		unsigned long hits =
			sv_regex_limit_hits(s->filter->filter_re[i]);
		if (hits) {
			char msg[SV_SESSION_TEXT_MAX];
			sv_regex_limit_message(
				s->filter->filter_re[i], hits, msg, sizeof msg);
			sv_session_message(s, true, "filter set, but %s", msg);
			break;
		}
	}
}

int sv_session_filter_now(struct sv_session *s, const char *spec)
{
	struct filter_pats fp;
	struct sv_error err;

	if (filter_parse(spec, &fp, &err) < 0) {
		sv_session_message(s, true, "%s", err.msg);
		return -EINVAL;
	}
	sv_session_filter_stop(s);
	sv_session_free_filter(s);
	snprintf(s->filter->filter_spec, sizeof s->filter->filter_spec, "%s",
		spec);
	filter_make(s->filter, s->p, &fp, &s->index_full, NULL);
	sv_session_second_filter(s);
	filter_pats_fini(&fp);
	filter_done(s);
	return 0;
}

/* ---- the filter on a worker thread --------------------------------------- */

/* A worker's filter: the patterns, the profiles, a filter part of its
 * own, which holds what it makes (the same code as on the UI thread), the
 * second run's index when there is one to make, and its job. */
struct session_filter_work {
	struct sv_job job;
	struct filter_pats fp;
	const struct sv_profile *p;
	/* The second run whose index it makes, or NULL (none, or no index
	 * of it in the session), and that index. */
	const struct sv_profile *p2;
	struct sv_lod_index index2;
	bool has_index2;
	struct sv_session_filter *f;
	/* The session's index of every call, which it keeps until the
	 * worker is joined (a new profile stops and waits for it). */
	const struct sv_lod_index *full;
};

/* Free what w made (again: a second time frees nothing). */
static void filter_work_clear(struct session_filter_work *w)
{
	bool *keep = w->f->call_keep;

	/* A filter made after it was dropped: its index and flags (hundreds
	 * of MB on a large profile) freed on a thread of their own. */
	w->f->call_keep = NULL;
	filter_pats_fini(&w->fp);
	filter_parts_free(w->f, w->p);
	sv_session_free_later(
		&w->f->index, keep, NULL, keep ? (size_t)w->p->ncalls : 0);
	if (w->has_index2)
		sv_session_free_later(&w->index2, NULL, NULL, 0);
	w->has_index2 = false;
}

static void filter_run(struct sv_job *j)
{
	struct session_filter_work *w = j->arg;
	struct sv_lod_stop stop = {&j->cancel, &j->progress};

	j->rc = filter_make(w->f, w->p, &w->fp, w->full, &stop);
	if (j->rc == 0 && w->p2) {
		sv_session_second_index(&w->index2, w->p2, w->f);
		w->has_index2 = true;
		if (filter_stopped(&stop))
			j->rc = -ECANCELED;
	}
	if (j->rc < 0)
		filter_work_clear(w); /* stopped: freed here, not on the UI's */
}

/* Wait for w's thread and free it. */
static void filter_work_free(struct session_filter_work *w)
{
	sv_job_cancel(&w->job);
	filter_work_clear(w);
	sv_session_filter_free(w->f);
	free(w);
}

static void filter_work_free_fn(void *w)
{
	filter_work_free(w);
}

/* Tell the worker to stop, without waiting for it. */
static void filter_drop(struct sv_session *s)
{
	struct session_filter_work *w = s->filter->filter_work;

	s->filter->filter_work = NULL;
	s->filter->filter_pending = false;
	sv_job_drop(&s->filter->filter_orphans, w ? &w->job : NULL,
		filter_work_free_fn, w, false);
}

void sv_session_filter_stop(struct sv_session *s)
{
	filter_drop(s);
	sv_job_reap(&s->filter->filter_orphans, true);
}

const char *sv_session_filter_text(const struct sv_session *s)
{
	return s->filter->filter_pending
		       ? s->filter->filter_work->f->filter_spec
		       : s->filter->filter_spec;
}

static void filter_say_pending(struct sv_session *s, int pct)
{
	const char *spec = s->filter->filter_work->f->filter_spec;
	char p[16] = "";
	if (pct >= 0)
		snprintf(p, sizeof p, ": %d%%", pct);
	if (*spec)
		sv_session_message(s, false, "filtering '%s'%s", spec, p);
	else
		sv_session_message(s, false, "clearing the filter%s", p);
}

/* Start the worker on fp (taken over) for spec. */
static void filter_start(
	struct sv_session *s, struct filter_pats *fp, const char *spec)
{
	struct session_filter_work *w = sv_xcalloc(1, sizeof *w);
	uint64_t total = s->p->ncalls;

	w->fp = *fp;
	memset(fp, 0, sizeof *fp);
	w->full = &s->index_full;
	w->p = s->p;
	w->p2 = sv_session_index2(s) ? s->p2 : NULL;
	w->f = sv_session_filter_new();
	snprintf(w->f->filter_spec, sizeof w->f->filter_spec, "%s", spec);
	if (w->fp.terms && s->p->call_meta)
		total += s->p->ncalls; /* the per-call pass, then the index */
	s->filter->filter_work = w;
	s->filter->filter_pending = true;
	filter_say_pending(s, -1);
	sv_job_start(&w->job, filter_run, w, total);
}

/* Whether a filter of s goes to a worker. */
static bool filter_in_background(const struct sv_session *s)
{
	uint64_t n = s->p->has_calls ? s->p->ncalls : 0;
	if (sv_session_index2(s))
		n += s->p2->ncalls;
	return s->bg_calls && n >= s->bg_calls;
}

int sv_session_set_filter(struct sv_session *s, const char *spec)
{
	bool was_pending;
	struct filter_pats fp;
	struct sv_error err;

	if (!filter_in_background(s)) {
		int rc = sv_session_filter_now(s, spec);
		if (rc == 0)
			sv_session_notify(
				s, SV_SESSION_FILTER | SV_SESSION_LANES);
		return rc;
	}
	if (filter_parse(spec, &fp, &err) < 0) {
		sv_session_message(s, true, "%s", err.msg);
		return -EINVAL;
	}
	was_pending = s->filter->filter_pending;
	filter_drop(s);
	if (was_pending && !strcmp(spec, s->filter->filter_spec)) {
		/* Back to the filter on show: nothing to make. */
		filter_pats_fini(&fp);
		sv_session_message(s, false, "%s",
			*spec ? "filter set" : "filter cleared");
		return 0;
	}
	filter_start(s, &fp, spec);
	return 0;
}

void sv_session_filter_restart(struct sv_session *s, const char *spec)
{
	struct filter_pats fp;
	struct sv_error err;

	if (filter_parse(spec, &fp, &err) == 0)
		filter_start(s, &fp, spec);
}

void sv_session_filter_again(struct sv_session *s, const char *spec)
{
	if (filter_in_background(s))
		sv_session_filter_restart(s, spec);
	else
		(void)sv_session_filter_now(s, spec);
}

/* The worker's filter becomes the session's, announced. */
static void filter_take(struct sv_session *s)
{
	struct session_filter_work *w = s->filter->filter_work;
	struct sv_session_filter *t = w->f;

	sv_session_free_filter(s);
	s->filter->filter_re = t->filter_re;
	s->filter->ninclude = t->ninclude;
	s->filter->nexclude = t->nexclude;
	s->filter->region_keep = t->region_keep;
	s->filter->call_keep = t->call_keep;
	t->filter_re = NULL;
	t->ninclude = t->nexclude = 0;
	t->region_keep = NULL;
	t->call_keep = NULL;
	snprintf(s->filter->filter_spec, sizeof s->filter->filter_spec, "%s",
		t->filter_spec);
	sv_session_free_later(&s->filter->index, NULL, NULL, 0);
	s->filter->index = t->index;
	memset(&t->index, 0, sizeof t->index);
	if (!sv_session_second_take(s, w->p2, &w->index2, &w->has_index2))
		sv_session_second_filter(s);
	s->filter->filter_work = NULL;
	s->filter->filter_pending = false;
	filter_work_free(w);
	filter_done(s);
	sv_session_notify(s, SV_SESSION_FILTER | SV_SESSION_LANES);
}

bool sv_session_filter_poll(struct sv_session *s)
{
	struct session_filter_work *w = s->filter->filter_work;

	sv_job_reap(&s->filter->filter_orphans, false);
	if (!s->filter->filter_pending)
		return false;
	if (!sv_job_finished(&w->job)) {
		filter_say_pending(s, sv_job_percent(&w->job));
		return true;
	}
	if (w->job.rc < 0) {
		sv_session_filter_stop(s);
		return true;
	}
	filter_take(s);
	return true;
}
