/*
 * session.c: the state every view shares (session.h).
 *
 * Invariants kept after every call: lane_hidden and lane_on match the
 * solo lane and the rank filter; the index matches the region filter; the
 * statistics match the lanes on display and are sorted by sort_key; the
 * match lists match the search, the marked region and the lanes shown;
 * the selected call, if any, is on a lane shown and kept by the filter.
 * After a change the notify hook hears what changed, once (a selection
 * the change dropped with it).  The selection is written here alone
 * (sv_session_set_selection); the filter, the search, the statistics, the
 * second run and the colours are parts of their own
 * (session_filter.c, session_match.c, session_stats.c, session_two.c,
 * session_colors.c).  Nothing here knows about curses or HDF5.
 */
#include "scopeview/session.h"

#include "session_priv.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/budget.h"
#include "scopeview/callmeta.h"
#include "scopeview/regex.h"

void sv_session_notify(struct sv_session *s, unsigned what)
{
	what |= s->notify_pending;
	s->notify_pending = 0;
	if (s->notify)
		s->notify(s->notify_ctx, what);
}

void sv_session_set_selection(struct sv_session *s, uint32_t sel, uint32_t sel2)
{
	if (sel == s->sel && sel2 == s->sel2)
		return;
	s->sel = sel;
	s->sel2 = sel2;
	s->notify_pending |= SV_SESSION_SELECT;
}

bool *sv_session_copy_flags(const bool *v, size_t n)
{
	bool *c;

	if (!v)
		return NULL;
	c = sv_xmalloc(n ? n * sizeof *c : 1);
	memcpy(c, v, n * sizeof *c);
	return c;
}

void sv_session_message(struct sv_session *s, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->message, sizeof s->message, fmt, ap);
	va_end(ap);
	s->message_is_error = error;
}

bool sv_session_lane_shown(const struct sv_session *s, size_t l)
{
	const struct sv_lane *lane = &s->p->lanes[l];
	if (s->solo_lane >= 0 && (size_t)s->solo_lane != l)
		return false;
	if (s->rank_on &&
		(lane->rank >= s->nrank_on || !s->rank_on[lane->rank]))
		return false;
	return true;
}

/* The lanes on display changed: flags, statistics, match lists (only
 * the lists when lists_only: the highlight index is made over every lane,
 * so a solo lane or a rank filter leaves it as it is), and the selection
 * when its lane went out of view. */
static void session_lanes_update(struct sv_session *s, bool lists_only)
{
	size_t l;

	for (l = 0; s->p->has_calls && l < s->p->nlanes; l++) {
		s->lane_hidden[l] = !sv_session_lane_shown(s, l);
		s->lane_on[l] = !s->lane_hidden[l];
	}
	sv_session_second_lanes(s);
	sv_session_compute_stats(s);
	if (lists_only)
		sv_session_update_match_lists(s);
	else
		sv_session_update_matches(s);
	if (s->sel != SV_NO_CALL && s->lane_hidden[sv_call_lane(s->p, s->sel)])
		sv_session_set_selection(s, SV_NO_CALL, s->sel2);
}

void sv_session_lanes_changed(struct sv_session *s)
{
	session_lanes_update(s, false);
}

void sv_session_set_range(struct sv_session *s, bool on, int64_t t0, int64_t t1)
{
	s->has_range = on;
	s->range_t0 = on ? (t0 < t1 ? t0 : t1) : 0;
	s->range_t1 = on ? (t0 < t1 ? t1 : t0) : 0;
	sv_session_stats_range(s, on);
	sv_session_notify(s, SV_SESSION_RANGE | SV_SESSION_SORT);
}

void sv_session_solo(struct sv_session *s, long l)
{
	s->solo_lane = l;
	session_lanes_update(s, true);
	sv_session_notify(s, SV_SESSION_LANES);
}

int sv_session_set_ranks(struct sv_session *s, const char *spec)
{
	bool *on = NULL;
	uint32_t n = 0;
	struct sv_error err;

	while (*spec == ' ')
		spec++;
	if (*spec && strcmp(spec, "all") &&
		sv_stats_parse_ranks(spec, &on, &n, &err) < 0) {
		sv_session_message(s, true, "%s", err.msg);
		return -EINVAL;
	}
	free(s->rank_on);
	s->rank_on = on;
	s->nrank_on = n;
	snprintf(s->rank_spec, sizeof s->rank_spec, "%s", on ? spec : "");
	session_lanes_update(s, true);
	sv_session_message(s, false, on ? "ranks %s" : "all ranks", spec);
	sv_session_notify(s, SV_SESSION_LANES);
	return 0;
}

/* ---- freeing off the loop ----------------------------------------------- */

/* What sv_session_free_later frees on a thread of its own. */
struct session_garbage {
	struct sv_lod_index ix;
	void *a, *b;
};

static void session_garbage_free(void *arg)
{
	struct session_garbage *g = arg;
	sv_lod_index_fini(&g->ix);
	sv_free_big(g->a);
	sv_free_big(g->b);
	free(g);
}

void sv_session_free_later(
	struct sv_lod_index *ix, void *a, void *b, size_t ab_bytes)
{
	struct session_garbage *g = sv_xcalloc(1, sizeof *g);

	if (ix) {
		g->ix = *ix;
		memset(ix, 0, sizeof *ix);
	}
	g->a = a;
	g->b = b;
	sv_job_free_later(session_garbage_free, g, g->ix.bytes + ab_bytes);
}

/* ---- the marked region -------------------------------------------------- */

void sv_session_mark_region(struct sv_session *s, long r)
{
	s->mark_region = r;
	sv_session_update_matches(s);
	sv_session_notify(s, SV_SESSION_SEARCH);
}

void sv_session_say_no_marked(struct sv_session *s, long r)
{
	if (r < 0 || (uint32_t)r >= s->p->nregions)
		return;
	if (!s->p->has_calls || !s->p->ncalls)
		sv_session_message(s, true,
			"'%s' marked; the profile has no calls (statistics "
			"only)",
			s->p->regions[r]);
	else
		sv_session_message(s, true,
			"'%s' has no call on the lanes shown",
			s->p->regions[r]);
}

/* ---- the profile --------------------------------------------------------- */

static void session_setup_profile(struct sv_session *s)
{
	const struct sv_profile *p = s->p;
	size_t nl = p->has_calls ? p->nlanes : 0;

	s->origin = sv_time_clamp(sv_profile_time_origin(p));
	if (p->has_calls && p->ncalls) {
		s->run_t0 = sv_time_clamp(sv_profile_min_start(p));
		s->run_t1 = sv_time_clamp(sv_profile_max_end(p));
		if (s->run_t0 != sv_profile_min_start(p) ||
			s->run_t1 != sv_profile_max_end(p))
			sv_session_message(s, true,
				"times out of range: calls beyond +-2^61 ns "
				"are drawn clipped");
		if (s->run_t1 <= s->run_t0)
			s->run_t1 = s->run_t0 + 1;
	} else {
		s->run_t0 = s->origin;
		s->run_t1 = s->origin + 1000;
	}
	free(s->lane_hidden);
	free(s->lane_on);
	s->lane_hidden = sv_xcalloc(nl ? nl : 1, sizeof *s->lane_hidden);
	s->lane_on = sv_xcalloc(nl ? nl : 1, sizeof *s->lane_on);
}

/* The colours, then lanes of the level-of-detail index, built beside
 * the statistics. */
struct session_index_build {
	struct sv_session *s;
	struct sv_lod_build b;
};

static void *session_index_main(void *arg)
{
	struct session_index_build *x = arg;

	sv_session_colors_make(x->s, NULL);
	sv_lod_build_work(&x->b);
	return NULL;
}

/* The index and colours of the new profile, and its lanes, statistics
 * and match lists (sv_session_lanes_changed): on two threads when there
 * are calls, as neither reads what the other makes.  The second thread
 * makes the colours and starts on the index; this one makes the rest,
 * then builds the lanes of the index still left. */
static int session_index_and_lanes(struct sv_session *s, struct sv_error *err)
{
	struct session_index_build x;
	pthread_t t;
	bool threaded;
	int rc;

	x.s = s;
	sv_session_filter_drop_index(s, false);
	rc = sv_lod_build_begin(
		&x.b, &s->index_full, s->p, NULL, NULL, NULL, err);
	if (rc < 0)
		return rc;
	x.b.regions = true;
	threaded = s->p->has_calls && s->p->ncalls >= SV_SESSION_BG_CALLS &&
		   pthread_create(&t, NULL, session_index_main, &x) == 0;
	if (!threaded)
		session_index_main(&x);
	sv_session_lanes_changed(s);
	sv_lod_build_work(&x.b);
	if (threaded)
		pthread_join(t, NULL);
	rc = sv_lod_build_end(&x.b, err);
	return rc < 0 ? rc : sv_session_filter_index(s, err);
}

/* The title: "run.h5 [ranks 0-7 of 16]" for a rank subset, and
 * "run.h5 [ranks 0-3 of 16, memory 2G]" when the memory budget left the
 * other ranks out (their lanes are there, not read). */
static void session_title(struct sv_session *s)
{
	char *subset = sv_profile_subset_label(s->p);
	char budget[48] = "";

	if (subset && s->p->absent_lanes && s->opts.memory) {
		char size[32];
		sv_budget_format(size, sizeof size, s->opts.memory);
		snprintf(budget, sizeof budget, ", memory %s", size);
	}
	free(s->title);
	s->title = subset ? sv_xasprintf(
				    "%s [%s%s]", s->title_base, subset, budget)
			  : sv_xstrdup(s->title_base);
	free(subset);
	s->opts.title = s->title;
}

int sv_session_init(struct sv_session *s, const struct sv_profile *p,
	const struct sv_session_opts *opts, struct sv_error *err)
{
	int rc;

	if (!s || !p)
		return sv_error_set(err, -EINVAL, "view: no profile");
	memset(s, 0, sizeof *s);
	s->p = p;
	s->colors = sv_session_colors_new();
	s->search = sv_session_search_new();
	s->stats = sv_session_stats_new();
	s->two = sv_session_two_new();
	s->filter = sv_session_filter_new();
	if (opts)
		s->opts = *opts;
	s->title_base = sv_xstrdup(opts && opts->title ? opts->title
				   : p->path           ? p->path
						       : "");
	session_title(s);
	s->sel = SV_NO_CALL;
	s->solo_lane = -1;
	s->mark_region = -1;
	s->bg_calls = SV_SESSION_BG_CALLS;
	s->sel2 = SV_NO_CALL;
	session_setup_profile(s);
	sv_session_compute_run(s);
	rc = session_index_and_lanes(s, err);
	if (rc < 0) {
		sv_session_fini(s);
		return rc;
	}
	return 0;
}

bool sv_session_busy(const struct sv_session *s)
{
	return sv_session_search_busy(s) || sv_session_filter_pending(s) ||
	       sv_session_stats_busy(s) || sv_jobs_busy(&s->jobs);
}

bool sv_session_poll(struct sv_session *s)
{
	/* The session's own workers (filter, span statistics, search),
	 * then the views' jobs. */
	bool changed = sv_session_filter_poll(s);
	changed |= sv_session_stats_poll(s);
	changed |= sv_session_match_poll(s);
	changed |= sv_jobs_poll(&s->jobs) > 0;
	return changed;
}

void sv_session_fini(struct sv_session *s)
{
	/* Its parts are made first thing by init: none, a session finished
	 * already (or never set up). */
	if (!s || !s->filter)
		return;
	sv_jobs_fini(&s->jobs);
	sv_session_stop_matches(s);
	sv_session_filter_stop(s);
	sv_session_stats_stop(s);
	/* Both borrow from index_full. */
	sv_session_filter_drop_index(s, false);
	sv_session_free_filter(s);
	sv_session_search_free(s->search);
	sv_lod_index_fini(&s->index_full);
	sv_session_two_free(s->two);
	sv_session_colors_free(s->colors);
	sv_session_stats_free(s->stats);
	sv_session_filter_free(s->filter);
	free(s->title);
	free(s->title_base);
	free(s->lane_hidden);
	free(s->lane_on);
	free(s->rank_on);
	memset(s, 0, sizeof *s);
}

struct sv_call_key sv_call_key_of(const struct sv_profile *p, uint32_t c)
{
	struct sv_call_key k = {.valid = false};

	if (!p || !p->has_calls || c >= p->ncalls)
		return k;
	k.valid = true;
	k.rank = p->lanes[sv_call_lane(p, c)].rank;
	k.lane_key = p->lanes[sv_call_lane(p, c)].key;
	k.start = sv_profile_start(p, c);
	k.end = sv_profile_end(p, c);
	k.region = sv_xstrdup(p->regions[sv_call_region(p, c)]);
	return k;
}

uint32_t sv_call_key_find(
	const struct sv_profile *p, const struct sv_call_key *k)
{
	size_t l;

	if (!k->valid || !p->has_calls)
		return SV_NO_CALL;
	for (l = 0; l < p->nlanes; l++) {
		const struct sv_lane *ln = &p->lanes[l];
		size_t lo;
		if (ln->rank != k->rank || ln->key != k->lane_key)
			continue;
		/* From the first call starting at k->start. */
		for (lo = sv_profile_lane_lower(p, ln, k->start);
			lo < ln->ncalls &&
			sv_profile_start(p, sv_lane_call(ln, lo)) == k->start;
			lo++) {
			uint32_t c = sv_lane_call(ln, lo);
			if (sv_profile_end(p, c) == k->end &&
				!strcmp(p->regions[sv_call_region(p, c)],
					k->region))
				return c;
		}
	}
	return SV_NO_CALL;
}

void sv_call_key_fini(struct sv_call_key *k)
{
	free(k->region);
	memset(k, 0, sizeof *k);
}

/* Whether a region repeats: some rank calls it more than once. */
static bool session_repeats(const struct sv_stats_region *g)
{
	return g->s.num_calls > (uint64_t)g->nranks;
}

static long session_mark_pick(struct sv_session *s, bool repeated)
{
	const struct sv_stats_table *st = sv_session_stats(s);
	const char *why = "the selected call's region";
	long r = -1;
	size_t i;

	if (s->sel != SV_NO_CALL) {
		r = (long)sv_call_region(s->p, s->sel);
		if (repeated && st) {
			const struct sv_stats_region *g =
				sv_stats_table_find(st, (uint32_t)r);
			if (g && !session_repeats(g))
				r = -1;
		}
	}
	if (r < 0 && st) {
		int64_t best = -1;
		why = repeated ? "the repeated region of most time"
			       : "most time on the lanes shown";
		for (i = 0; i < st->nregions; i++) {
			const struct sv_stats_region *g = &st->regions[i];
			if (g->s.num_calls && g->s.total_ns > best &&
				(!repeated || session_repeats(g))) {
				best = g->s.total_ns;
				r = (long)g->region;
			}
		}
	}
	if (r < 0)
		return -1;
	sv_session_mark_region(s, r);
	sv_session_message(
		s, false, "'%s': %s (p Enter: another)", s->p->regions[r], why);
	return r;
}

long sv_session_mark_default(struct sv_session *s)
{
	return session_mark_pick(s, false);
}

long sv_session_mark_default_repeated(struct sv_session *s)
{
	return session_mark_pick(s, true);
}

void sv_session_select(struct sv_session *s, unsigned run, uint32_t c)
{
	sv_session_set_selection(s, run ? SV_NO_CALL : c, run ? c : SV_NO_CALL);
	if (s->notify_pending)
		sv_session_notify(s, 0);
}

/* The call k names, selected without a notice (sv_session_select_key
 * gives one; sv_session_set_profile's own covers it). */
static void session_select_key(
	struct sv_session *s, const struct sv_call_key *k)
{
	uint32_t c = sv_call_key_find(s->p, k);

	if (c != SV_NO_CALL && s->lane_hidden[sv_call_lane(s->p, c)])
		c = SV_NO_CALL;
	sv_session_set_selection(s, c, s->sel2);
}

void sv_session_select_key(struct sv_session *s, const struct sv_call_key *k)
{
	session_select_key(s, k);
	if (s->notify_pending)
		sv_session_notify(s, 0);
}

int sv_run_prepare(struct sv_run_prep *sp, const struct sv_profile *p,
	struct sv_error *err)
{
	memset(sp, 0, sizeof *sp);
	sp->p = p;
	if (!p || !p->has_calls)
		return 0;
	{
		struct sv_lod_build b;
		if (sv_lod_build_begin(
			    &b, &sp->index, p, NULL, NULL, NULL, err) < 0)
			return -ENOMEM;
		b.regions = true; /* a session's index of every call */
		sv_lod_build_work(&b);
		if (sv_lod_build_end(&b, err) < 0)
			return -ENOMEM;
	}
	sp->has_index = true;
	sv_palette_map_build(&sp->colors, p, NULL);
	sp->has_colors = true;
	{
		struct sv_stats_filter f = {.skip_empty = true};
		sp->has_stats =
			sv_stats_table_compute(&sp->stats, p, &f, NULL) == 0;
	}
	return 0;
}

void sv_run_prep_fini(struct sv_run_prep *sp)
{
	if (!sp)
		return;
	if (sp->has_index)
		sv_lod_index_fini(&sp->index);
	if (sp->has_stats)
		sv_stats_table_fini(&sp->stats);
	if (sp->has_colors)
		sv_palette_map_fini(&sp->colors);
	memset(sp, 0, sizeof *sp);
}

/* Take what sp prepared of the session's new profile: the index, the
 * colours and the whole run's statistics, then the lanes (as
 * session_index_and_lanes makes them).  False when sp has no index of
 * it. */
static bool session_take_prep(struct sv_session *s, struct sv_run_prep *sp)
{
	if (!sp || sp->p != s->p || !sp->has_index)
		return false;
	/* The old index, hundreds of MB for a big profile, off the loop:
	 * the one drawn first, as it borrows from the other. */
	sv_session_filter_drop_index(s, true);
	sv_session_free_later(&s->index_full, NULL, NULL, 0);
	s->index_full = sp->index;
	memset(&sp->index, 0, sizeof sp->index);
	sp->has_index = false;
	if (sv_session_filter_index(s, NULL) < 0)
		return false;
	sv_session_colors_make(s, sp->has_colors ? &sp->colors : NULL);
	sp->has_colors = false;
	if (sp->has_stats) {
		sv_session_stats_take_all(s, &sp->stats);
		sp->has_stats = false;
	}
	sv_session_lanes_changed(s);
	return true;
}

int sv_session_set_profile(
	struct sv_session *s, const struct sv_profile *p, struct sv_error *err)
{
	return sv_session_set_profile_prepared(s, p, NULL, err);
}

int sv_session_set_profile_prepared(struct sv_session *s,
	const struct sv_profile *p, struct sv_run_prep *sp,
	struct sv_error *err)
{
	size_t old_lanes = s->p && s->p->has_calls ? s->p->nlanes : 0;
	char filter[SV_SESSION_TEXT_MAX], search[SV_SESSION_TEXT_MAX];
	struct sv_call_key sel;
	int rc;

	if (!p)
		return sv_error_set(err, -EINVAL, "view: no profile");
	/* A filter still being made is the one typed last. */
	snprintf(filter, sizeof filter, "%s", sv_session_filter_text(s));
	sv_session_filter_stop(s);
	sv_session_stop_matches(s);
	sv_session_stats_stop(s);
	/* The highlights borrow from the index of every call, made again. */
	sv_session_search_drop_index(s);
	/* The selected call is found again in p (a reload of the file, a
	 * memory budget's other ranks): by lane, times and region. */
	sel = sv_call_key_of(s->p, s->sel);
	s->p = p;
	/* Tables of the old profile are of no use for the new one. */
	sv_session_stats_forget(s);
	sv_session_second_stale(s); /* B's table is computed again */
	if ((p->has_calls ? p->nlanes : 0) != old_lanes)
		s->solo_lane = -1;
	/* Region numbers may differ in the new file: keep the filter and the
	 * search as typed and apply them again. */
	snprintf(search, sizeof search, "%s", sv_session_search_spec(s));
	sv_session_filter_clear(s);
	sv_session_search_clear(s);
	s->mark_region = -1;
	sv_session_set_selection(s, SV_NO_CALL, SV_NO_CALL);
	s->has_range = false;
	session_setup_profile(s);
	sv_session_second_profile(s);
	rc = session_take_prep(s, sp) ? 0 : session_index_and_lanes(s, err);
	if (rc < 0) {
		sv_call_key_fini(&sel);
		return rc;
	}
	if (filter[0])
		sv_session_filter_again(s, filter);
	if (search[0])
		sv_session_search_again(s, search, err);
	s->message[0] = '\0';
	session_title(s);
	session_select_key(s, &sel);
	sv_call_key_fini(&sel);
	sv_session_notify(s, SV_SESSION_PROFILE | SV_SESSION_LANES |
				     SV_SESSION_FILTER | SV_SESSION_SEARCH);
	return 0;
}
