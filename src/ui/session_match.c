/*
 * session_match.c: the session's match lists (session.h): the calls of
 * the search and of the marked region on the lanes shown, in time order,
 * and the index that highlights them; on a large profile made by a
 * worker thread on a copy of what they are made of (job.h), taken in by
 * sv_session_poll() and stopped by the next change of their input.
 * Nothing here knows about curses or HDF5.
 */
#include "scopeview/session.h"

#include "session_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/callmeta.h"
#include "scopeview/regex.h"

/* The search and the marked region's calls (session.h's accessors say
 * what each part means). */
struct sv_session_search {
	/* The search (/): the pattern and the regions it matches (NULL = no
	 * search); region names its regex gave up on (regex.h's limits) and
	 * the message saying so ("" when none); the calls a metadata term
	 * (key=value, key~regex: callmeta.h) matches, p->ncalls flags, or
	 * NULL. */
	char search_spec[SV_SESSION_TEXT_MAX];
	unsigned long search_limit_hits;
	char search_limit_msg[SV_SESSION_TEXT_MAX];
	bool *region_match;
	bool *call_match;
	/* Its calls on the lanes shown, by start, and the marked region's,
	 * longest first (ties in call-number order, as sv_calls_sort gives
	 * them), each with the position of the last jump (-1).  A search
	 * of region names alone keeps its calls as the rows' runs in start
	 * order (match_runs, matches NULL): a merge of 100M calls took a
	 * second, and nothing needs the list made. */
	uint32_t *matches;
	struct sv_session_runs match_runs;
	size_t nmatches;
	long match_pos;
	uint32_t *marked;
	size_t nmarked;
	long marked_pos;
	/* The highlights: of region names alone, selected from index_full
	 * (its levels borrowed where every call is highlighted), so freed
	 * before it. */
	struct sv_lod_index match_index;
	bool has_match_index;
	/* match_index holds the calls of index_full NOT highlighted: made
	 * when they are the fewer (a search matching most calls), and only
	 * when no level of index_full has calls that overlap, so that the
	 * calls of a level meeting a time range are one run of its
	 * positions in both indexes and the highlighted ones their
	 * difference (sv_session_has_match). */
	bool match_inverted;
	/* A worker's shadow session: the session's index_full, which it
	 * keeps until every match worker is joined; NULL: this session's. */
	const struct sv_lod_index *match_full;
	/* Made on a worker (lists, then index) from bg_calls calls on:
	 * matches_pending until the lists come (SV_SESSION_SEARCH), then
	 * index_pending until the index does.  A change of the search, the
	 * mark or the lanes stops it without waiting (joined later:
	 * match_orphans) and starts another. */
	bool matches_pending;
	bool index_pending;
	struct session_match_work *match_work;
	struct sv_job_orphans match_orphans;
	const atomic_bool *match_cancel;  /* a worker's stop flag */
	_Atomic uint64_t *match_progress; /* a worker's progress */
};

struct sv_session_search *sv_session_search_new(void)
{
	struct sv_session_search *m = sv_xcalloc(1, sizeof *m);
	m->match_pos = -1;
	m->marked_pos = -1;
	return m;
}

void sv_session_search_free(struct sv_session_search *m)
{
	if (!m)
		return;
	sv_lod_index_fini(&m->match_index);
	free(m->region_match);
	free(m->call_match);
	free(m->matches);
	sv_session_runs_fini(&m->match_runs);
	free(m->marked);
	free(m);
}

/* ---- what the views read ------------------------------------------------- */

const char *sv_session_search_spec(const struct sv_session *s)
{
	return s->search->search_spec;
}

const char *sv_session_search_limit(const struct sv_session *s)
{
	return s->search->search_limit_hits ? s->search->search_limit_msg
					    : NULL;
}

const bool *sv_session_search_regions(const struct sv_session *s)
{
	return s->search->region_match;
}

const bool *sv_session_search_calls(const struct sv_session *s)
{
	return s->search->call_match;
}

bool sv_session_search_on(const struct sv_session *s)
{
	return s->search->region_match || s->search->call_match;
}

bool sv_session_search_region(const struct sv_session *s, uint32_t r)
{
	return s->search->region_match && s->search->region_match[r];
}

uint32_t *sv_session_matches_copy(
	const struct sv_session *s, bool by_start, size_t *n)
{
	const struct sv_session_search *m = s->search;
	uint32_t *out;

	*n = m->nmatches;
	if (!m->matches)
		return sv_session_runs_calls(s->p, &m->match_runs, by_start);
	out = sv_xmalloc((*n ? *n : 1) * sizeof *out);
	memcpy(out, m->matches, *n * sizeof *out);
	return out;
}

size_t sv_session_match_lower(const struct sv_session *s, int64_t t)
{
	const struct sv_session_search *m = s->search;

	if (m->matches)
		return sv_profile_calls_lower(s->p, m->matches, m->nmatches, t);
	return sv_session_runs_lower(s->p, &m->match_runs, t);
}

size_t sv_session_match_ties(
	const struct sv_session *s, int64_t t, uint32_t **out)
{
	const struct sv_session_search *m = s->search;
	size_t lo, hi;

	if (!m->matches)
		return sv_session_runs_ties(s->p, &m->match_runs, t, out);
	lo = sv_profile_calls_lower(s->p, m->matches, m->nmatches, t);
	hi = t == INT64_MAX ? m->nmatches
			    : sv_profile_calls_lower(
				      s->p, m->matches, m->nmatches, t + 1);
	*out = hi > lo ? sv_xmalloc((hi - lo) * sizeof **out) : NULL;
	if (hi > lo)
		memcpy(*out, m->matches + lo, (hi - lo) * sizeof **out);
	return hi - lo;
}

uint32_t sv_session_match_at(const struct sv_session *s, size_t i)
{
	const struct sv_session_search *m = s->search;

	if (i >= m->nmatches)
		return SV_NO_CALL;
	if (m->matches)
		return m->matches[i];
	return sv_session_runs_at(s->p, &m->match_runs, i);
}

const uint32_t *sv_session_marked(const struct sv_session *s, size_t *n)
{
	if (n)
		*n = s->search->nmarked;
	return s->search->marked;
}

size_t sv_session_nmatches(const struct sv_session *s)
{
	return s->search->nmatches;
}

size_t sv_session_nmarked(const struct sv_session *s)
{
	return s->search->nmarked;
}

long sv_session_jump_pos(const struct sv_session *s, bool marked)
{
	return marked ? s->search->marked_pos : s->search->match_pos;
}

void sv_session_set_jump_pos(struct sv_session *s, bool marked, long pos)
{
	*(marked ? &s->search->marked_pos : &s->search->match_pos) = pos;
}

bool sv_session_matches_pending(const struct sv_session *s)
{
	return s->search->matches_pending;
}

const struct sv_lod_index *sv_session_match_index(const struct sv_session *s)
{
	return s->search->has_match_index ? &s->search->match_index : NULL;
}

bool sv_session_search_busy(const struct sv_session *s)
{
	return s->search->matches_pending || s->search->index_pending;
}

void sv_session_search_drop_index(struct sv_session *s)
{
	sv_session_free_later(&s->search->match_index, NULL, NULL, 0);
	s->search->has_match_index = false;
	s->search->match_inverted = false;
}

void sv_session_search_clear(struct sv_session *s)
{
	struct sv_session_search *m = s->search;

	free(m->region_match);
	m->region_match = NULL;
	free(m->call_match);
	m->call_match = NULL;
	m->search_spec[0] = '\0';
}

/* ---- the search ------------------------------------------------------- */

/* Set search_spec and region_match for pattern pat; -EINVAL (with the
 * error in err) when it does not compile. */
static int session_match_regions(
	struct sv_session *s, const char *pat, struct sv_error *err)
{
	struct sv_session_pat sp;
	uint32_t r, c;

	free(s->search->region_match);
	s->search->region_match = NULL;
	s->search->search_limit_hits = 0;
	s->search->search_limit_msg[0] = '\0';
	free(s->search->call_match);
	s->search->call_match = NULL;
	snprintf(s->search->search_spec, sizeof s->search->search_spec, "%s",
		pat);
	if (!*pat)
		return 0;
	if (sv_session_pat_compile(pat, &sp, err) < 0) {
		s->search->search_spec[0] = '\0';
		return -EINVAL;
	}
	s->search->region_match =
		sv_xcalloc(s->p->nregions ? s->p->nregions : 1, sizeof(bool));
	for (r = 0; sp.re && r < s->p->nregions; r++)
		s->search->region_match[r] =
			sv_regex_search(sp.re, s->p->regions[r], NULL, NULL);
	s->search->search_limit_hits = sv_regex_limit_hits(sp.re);
	if (s->search->search_limit_hits)
		sv_regex_limit_message(sp.re, s->search->search_limit_hits,
			s->search->search_limit_msg,
			sizeof s->search->search_limit_msg);
	if (sp.is_term && s->p->call_meta) {
		s->search->call_match = sv_xcalloc(
			s->p->ncalls ? s->p->ncalls : 1, sizeof(bool));
		for (c = 0; c < s->p->ncalls; c++)
			s->search->call_match[c] =
				sv_session_pats_call(s->p, &sp, 1, c);
	}
	sv_session_pat_fini(&sp);
	return 0;
}

void sv_session_search_again(
	struct sv_session *s, const char *pat, struct sv_error *err)
{
	if (session_match_regions(s, pat, err) == 0)
		sv_session_update_matches(s);
}

int sv_session_set_search(
	struct sv_session *s, const char *pat, struct sv_error *err)
{
	int rc = session_match_regions(s, pat, err);
	sv_session_update_matches(s);
	sv_session_notify(s, SV_SESSION_SEARCH);
	return rc;
}

bool sv_session_is_match(const struct sv_session *s, uint32_t c)
{
	uint32_t r;
	if (c == SV_NO_CALL || c >= s->p->ncalls)
		return false;
	r = sv_call_region(s->p, c);
	return (s->search->region_match && s->search->region_match[r]) ||
	       (s->search->call_match && s->search->call_match[c]) ||
	       (long)r == s->mark_region;
}

bool sv_session_has_match(const struct sv_session *s, uint32_t lane,
	uint32_t depth, int64_t t0, int64_t t1)
{
	const struct sv_lod_level *lv;
	uint32_t lo, hi;

	if (!s->search->has_match_index)
		return false;
	lv = sv_lod_index_level(&s->search->match_index, lane, depth);
	if (s->search->match_inverted) {
		/* The calls meeting [t0, t1), less those not highlighted. */
		uint32_t a, b;
		sv_lod_range(sv_lod_index_level(&s->index_full, lane, depth),
			t0, t1, &a, &b);
		sv_lod_range(lv, t0, t1, &lo, &hi);
		return b - a > hi - lo;
	}
	if (!lv)
		return false;
	sv_lod_range(lv, t0, t1, &lo, &hi);
	return hi > lo;
}

/* ---- match lists --------------------------------------------------------- */

/* Calls of the lanes on display (and kept by the filter) whose region is
 * flagged, by start or longest first.  Returns the count; *out is
 * malloc'd. */
static size_t session_collect(const struct sv_session *s, const bool *region_on,
	const bool *call_on, long one_region, uint32_t **out, bool longest)
{
	const struct sv_profile *p = s->p;
	uint32_t *calls = NULL;
	size_t n = 0, cap = 0, l;

	if (one_region >= 0 && p->has_calls && sv_profile_has_lanes(p)) {
		/* One region: its rows, in call-number order (what the sort
		 * by duration reads in order). */
		n = sv_session_collect_rows(s, NULL, one_region,
			s->search->match_cancel, s->search->match_progress,
			&calls);
		sv_session_sort_calls(s->p, calls, n, longest, false,
			s->search->match_cancel);
		*out = calls;
		return n;
	}
	if (region_on && !call_on && !longest && p->has_calls &&
		sv_profile_has_lanes(p)) {
		/* Region names alone, on rows that are not runs in start
		 * order (session_compute_lists): the rows of those regions,
		 * not every call, sorted as the scan of the lanes below
		 * orders them. */
		n = sv_session_collect_rows(s, region_on, -1,
			s->search->match_cancel, s->search->match_progress,
			&calls);
		sv_session_sort_calls(
			s->p, calls, n, false, true, s->search->match_cancel);
		*out = calls;
		return n;
	}
	for (l = 0; p->has_calls && l < p->nlanes; l++) {
		const struct sv_lane *lane = &p->lanes[l];
		uint32_t i;
		if (s->lane_hidden[l])
			continue;
		if (s->search->match_cancel &&
			atomic_load(s->search->match_cancel))
			break;
		if (s->search->match_progress)
			atomic_fetch_add(
				s->search->match_progress, lane->ncalls);
		for (i = 0; i < lane->ncalls; i++) {
			uint32_t c = sv_lane_call(lane, i),
				 r = sv_call_region(p, c);
			if (region_on ? !region_on[r] &&
						!(call_on && call_on[c])
				      : (long)r != one_region)
				continue;
			if (!sv_session_keeps(s, c))
				continue;
			sv_grow((void **)&calls, &cap, n + 1, sizeof *calls);
			calls[n++] = c;
		}
	}
	sv_session_sort_calls(
		s->p, calls, n, longest, false, s->search->match_cancel);
	*out = calls;
	return n;
}

/* Whether the regions keep flags hold most of the calls of full, whose
 * levels have no calls that overlap (struct sv_session_search's
 * match_inverted). */
static bool session_invert(const struct sv_profile *p,
	const struct sv_lod_index *full, const bool *keep)
{
	uint64_t kept = 0;
	size_t r, l;
	uint32_t d;

	for (r = 0; r < p->nrows; r++)
		if (keep[p->rows[r].region])
			kept += p->rows[r].count;
	if (kept <= p->ncalls / 2)
		return false;
	for (l = 0; l < full->nlanes; l++)
		for (d = 0; d < full->lanes[l].ndepth; d++)
			if (full->lanes[l].levels[d].maxend)
				return false;
	return true;
}

/* Rebuild the index of highlighted calls (search and marked region). */
static void session_update_match_index(struct sv_session *s)
{
	const bool *region_keep = sv_session_region_keep(s);
	const struct sv_profile *p = s->p;
	const struct sv_lod_index *full =
		s->search->match_full ? s->search->match_full : &s->index_full;
	struct sv_lod_stop stop = {
		s->search->match_cancel, s->search->match_progress};
	bool *keep;
	uint32_t r;

	sv_lod_index_fini(&s->search->match_index);
	s->search->has_match_index = false;
	s->search->match_inverted = false;
	if (!s->search->region_match && s->mark_region < 0)
		return;
	keep = sv_xcalloc(p->nregions ? p->nregions : 1, sizeof *keep);
	for (r = 0; r < p->nregions; r++)
		keep[r] = ((s->search->region_match &&
				   s->search->region_match[r]) ||
				  (long)r == s->mark_region) &&
			  (!region_keep || region_keep[r]);
	if (s->search->call_match || sv_session_call_keep(s)) {
		/* Metadata matches or a metadata filter are per call: index
		 * by call. */
		bool *kc = sv_xcalloc(p->ncalls ? p->ncalls : 1, sizeof *kc);
		uint32_t c, row = 0;
		for (c = 0; c < p->ncalls; c++)
			kc[c] = (keep[p->rows[sv_profile_row_next(p, c, &row)]
						 .region] ||
					(s->search->call_match &&
						s->search->call_match[c])) &&
				sv_session_keeps(s, c);
		s->search->has_match_index =
			sv_lod_index_build_stop(&s->search->match_index, p,
				NULL, kc, &stop, NULL) == 0;
		free(kc);
	} else if (full->p == p) {
		/* Region names alone: the levels' groups of those regions in
		 * the index of every call, no pass over the calls; or of the
		 * other regions, when theirs are the fewer calls. */
		bool inv = session_invert(p, full, keep);
		for (r = 0; inv && r < p->nregions; r++)
			keep[r] = !keep[r];
		s->search->has_match_index =
			sv_lod_index_select(&s->search->match_index, full, keep,
				&stop, 1, NULL) == 0;
		s->search->match_inverted = inv;
	} else {
		s->search->has_match_index =
			sv_lod_index_build_stop(&s->search->match_index, p,
				keep, NULL, &stop, NULL) == 0;
	}
	free(keep);
}

/* The bytes of m's lists (not of its runs, which are small). */
static size_t session_list_bytes(const struct sv_session_search *m)
{
	return ((m->matches ? m->nmatches : 0) + m->nmarked) * sizeof(uint32_t);
}

/* Empty match lists (until the new ones are made). */
static void session_clear_lists(struct sv_session *s)
{
	sv_session_runs_fini(&s->search->match_runs);
	free(s->search->matches);
	free(s->search->marked);
	s->search->matches = NULL;
	s->search->nmatches = 0;
	s->search->match_pos = -1;
	s->search->marked = NULL;
	s->search->nmarked = 0;
	s->search->marked_pos = -1;
}

/* Empty match lists and index (until the new ones are made), freed on a
 * thread of their own when big. */
static void session_clear_matches(struct sv_session *s)
{
	sv_session_free_later(&s->search->match_index, s->search->matches,
		s->search->marked, session_list_bytes(s->search));
	s->search->has_match_index = false;
	s->search->match_inverted = false;
	s->search->matches = s->search->marked = NULL;
	session_clear_lists(s);
}

/* The search's matches and the marked region's calls. */
static void session_compute_lists(struct sv_session *s)
{
	struct sv_session_search *m = s->search;
	const struct sv_profile *p = s->p;
	int rc = -EAGAIN;

	/* Region names alone: the rows' runs (session_order.c). */
	if (m->region_match && !m->call_match && p->has_calls &&
		sv_profile_has_lanes(p))
		rc = sv_session_rows_runs(s, m->region_match, m->match_cancel,
			m->match_progress, &m->match_runs);
	if (!rc && m->match_runs.nruns > SV_SESSION_RUNS_KEEP) {
		/* Too many runs for a jump's binary searches: merged. */
		m->nmatches = sv_session_runs_merge(p, &m->match_runs,
			m->match_cancel, m->match_progress, &m->matches);
		sv_session_runs_fini(&m->match_runs);
	} else if (!rc) {
		m->nmatches = m->match_runs.ncalls;
	} else if (m->region_match && rc != -ECANCELED)
		m->nmatches = session_collect(s, m->region_match, m->call_match,
			-1, &m->matches, false);
	if (s->mark_region >= 0)
		s->search->nmarked = session_collect(s, NULL, NULL,
			s->mark_region, &s->search->marked, true);
}

static void session_compute_matches(struct sv_session *s)
{
	session_clear_matches(s);
	session_update_match_index(s);
	session_compute_lists(s);
}

/* ---- the search on a worker thread --------------------------------------- */

/* A worker's copy of what the match lists are made of, and its results:
 * a session of its own, so the same code makes them. */
struct session_match_work {
	struct sv_job job;
	struct sv_session shadow;
	struct sv_session_search shadow_search; /* the shadow's search */
	/* Set by the worker once the lists are made (the index may still
	 * be coming); from then on the lists are the UI thread's. */
	atomic_bool lists_done;
	/* Only the lists (the lanes shown changed; the index, made over
	 * every lane, stays the session's), and the old lists for the
	 * worker to free (hundreds of MB on a large profile). */
	bool lists_only;
	uint32_t *old_matches, *old_marked;
};

/* Wait for w's thread, and free w and what it made. */
static void session_work_free(struct session_match_work *w)
{
	if (!w)
		return;
	sv_job_cancel(&w->job);
	free(w->shadow_search.region_match);
	free(w->shadow.lane_hidden);
	/* A worker that finished after it was dropped leaves an index and
	 * lists of hundreds of MB on a large profile: freed on a thread of
	 * their own, so the loop taking in another result does not stall. */
	sv_session_free_later(&w->shadow_search.match_index,
		w->shadow_search.matches, w->shadow_search.marked,
		session_list_bytes(&w->shadow_search));
	sv_session_free_later(NULL, w->shadow_search.call_match, NULL,
		w->shadow.p ? (size_t)w->shadow.p->ncalls : 0);
	sv_session_filter_shadow_fini(&w->shadow);
	sv_session_runs_fini(&w->shadow_search.match_runs);
	free(w->old_matches);
	free(w->old_marked);
	free(w);
}

/* The lists first, taken in as soon as they are made (lists_done), then
 * the highlight index: run side by side, the two slowed each other on a
 * two-core machine (memory bandwidth), so the list came later. */
static void session_match_run(struct sv_job *j)
{
	struct session_match_work *w = j->arg;

	w->shadow_search.match_cancel = &j->cancel;
	w->shadow_search.match_progress = &j->progress;
	sv_free_big(w->old_matches);
	sv_free_big(w->old_marked);
	w->old_matches = w->old_marked = NULL;
	session_clear_matches(&w->shadow);
	session_compute_lists(&w->shadow);
	atomic_store_explicit(&w->lists_done, true, memory_order_release);
	if (!w->lists_only)
		session_update_match_index(&w->shadow);
	j->rc = atomic_load(&j->cancel) ? -ECANCELED : 0;
	if (j->rc < 0) /* stopped: its index freed here, not on the UI's */
		sv_lod_index_fini(&w->shadow_search.match_index);
}

/* What the message line says while the lists are made. */
static void session_say_pending(struct sv_session *s, int pct)
{
	char p[16] = "";
	if (pct >= 0)
		snprintf(p, sizeof p, ": %d%%", pct);
	if (s->search->region_match)
		sv_session_message(s, false, "searching '%s'%s",
			s->search->search_spec, p);
	else
		sv_session_message(s, false, "collecting the calls of '%s'%s",
			s->p->regions[s->mark_region], p);
}

static void session_work_free_fn(void *w)
{
	session_work_free(w);
}

void sv_session_cancel_matches(struct sv_session *s)
{
	struct session_match_work *w = s->search->match_work;

	s->search->match_work = NULL;
	s->search->matches_pending = false;
	s->search->index_pending = false;
	sv_job_drop(&s->search->match_orphans, w ? &w->job : NULL,
		session_work_free_fn, w, false);
}

void sv_session_stop_matches(struct sv_session *s)
{
	sv_session_cancel_matches(s);
	sv_job_reap(&s->search->match_orphans, true);
}

int sv_session_match_percent(const struct sv_session *s)
{
	return s->search->match_work
		       ? sv_job_percent(&s->search->match_work->job)
		       : 0;
}

/* Whether the match lists are made by a worker. */
static bool session_matches_in_background(const struct sv_session *s)
{
	const struct sv_profile *p = s->p;

	return s->bg_calls && p->has_calls && p->ncalls >= s->bg_calls &&
	       (s->search->region_match || s->mark_region >= 0);
}

/* Start the worker on a copy of what the lists are made of. */
static struct session_match_work *session_start_matches(
	struct sv_session *s, bool lists_only)
{
	const struct sv_profile *p = s->p;
	struct session_match_work *w;
	size_t nl = p->has_calls ? p->nlanes : 0;

	w = sv_xcalloc(1, sizeof *w);
	w->lists_only = lists_only;
	w->shadow.p = p;
	w->shadow.search = &w->shadow_search;
	w->shadow_search.match_full = &s->index_full;
	w->shadow.mark_region = s->mark_region;
	w->shadow_search.region_match =
		sv_session_copy_flags(s->search->region_match, p->nregions);
	w->shadow_search.call_match =
		sv_session_copy_flags(s->search->call_match, p->ncalls);
	sv_session_filter_shadow(&w->shadow, s);
	w->shadow.lane_hidden = sv_session_copy_flags(s->lane_hidden, nl);
	s->search->match_work = w;
	s->search->matches_pending = true;
	session_say_pending(s, -1);
	sv_job_start(&w->job, session_match_run, w,
		(lists_only ? 1 : 2) * (uint64_t)p->ncalls);
	return w;
}

void sv_session_update_matches(struct sv_session *s)
{
	sv_session_cancel_matches(s);
	if (!session_matches_in_background(s)) {
		session_compute_matches(s);
		return;
	}
	session_clear_matches(s);
	session_start_matches(s, false);
}

void sv_session_update_match_lists(struct sv_session *s)
{
	struct session_match_work *w;
	uint32_t *matches = s->search->matches, *marked = s->search->marked;

	if (s->search->matches_pending || s->search->index_pending) {
		if (!s->search->match_work ||
			!s->search->match_work->lists_only) {
			/* The index is not made yet: make both again. */
			sv_session_update_matches(s);
			return;
		}
		/* Only lists on the way: the index is the session's. */
		sv_session_cancel_matches(s);
		matches = s->search->matches;
		marked = s->search->marked;
	}
	if (!session_matches_in_background(s)) {
		session_clear_lists(s);
		session_compute_lists(s);
		return;
	}
	s->search->matches = s->search->marked = NULL;
	session_clear_lists(s);
	w = session_start_matches(s, true);
	w->old_matches = matches;
	w->old_marked = marked;
}

/* The worker's lists become the session's, announced. */
static void session_take_lists(struct sv_session *s)
{
	struct session_match_work *w = s->search->match_work;

	if (w->lists_only) {
		/* The old lists (4 bytes a match) freed off the loop. */
		sv_session_free_later(NULL, s->search->matches,
			s->search->marked, session_list_bytes(s->search));
		s->search->matches = s->search->marked = NULL;
		session_clear_lists(s);
	} else {
		session_clear_matches(s);
	}
	s->search->matches = w->shadow_search.matches;
	s->search->match_runs = w->shadow_search.match_runs;
	memset(&w->shadow_search.match_runs, 0,
		sizeof w->shadow_search.match_runs);
	s->search->nmatches = w->shadow_search.nmatches;
	s->search->marked = w->shadow_search.marked;
	s->search->nmarked = w->shadow_search.nmarked;
	w->shadow_search.matches = NULL;
	w->shadow_search.marked = NULL;
	s->search->matches_pending = false;
	s->search->index_pending = true; /* until the worker is joined */
	if (s->search->region_match)
		sv_session_message(s, false, "%zu calls match '%s'",
			s->search->nmatches, s->search->search_spec);
	else if (s->search->nmarked)
		sv_session_message(s, false, "%zu calls of '%s', longest first",
			s->search->nmarked, s->p->regions[s->mark_region]);
	else
		sv_session_say_no_marked(s, s->mark_region);
	sv_session_notify(s, SV_SESSION_SEARCH);
}

bool sv_session_match_poll(struct sv_session *s)
{
	struct session_match_work *w = s->search->match_work;
	bool done;

	sv_job_reap(&s->search->match_orphans, false);
	if (!w || (!s->search->matches_pending && !s->search->index_pending))
		return false;
	done = sv_job_finished(&w->job);
	if (s->search->matches_pending && !done &&
		!atomic_load_explicit(&w->lists_done, memory_order_acquire)) {
		session_say_pending(s, sv_job_percent(&w->job));
		return true;
	}
	if (s->search->matches_pending)
		session_take_lists(s);
	if (!done)
		return true; /* the lists are in; the highlights follow */
	/* The highlight index: drawn from the next frame, no notice (the
	 * views that follow the lists have them already). */
	if (!w->lists_only) {
		s->search->match_index = w->shadow_search.match_index;
		s->search->has_match_index = w->shadow_search.has_match_index;
		s->search->match_inverted = w->shadow_search.match_inverted;
		memset(&w->shadow_search.match_index, 0,
			sizeof w->shadow_search.match_index);
	}
	session_work_free(w);
	s->search->match_work = NULL;
	s->search->index_pending = false;
	return true;
}
