/*
 * session_two.c: the second run on the timeline (session.h): its
 * level-of-detail index, made before the session takes the run (on the
 * loader's thread: sv_run_prepare, session.c) and again on the UI thread only
 * when the region filter changes, as the first run's is; the shift that
 * puts both runs' starts at the ruler's zero; its lanes shown (the rank
 * filter, the solo lane's rank); its selected call; each of its regions'
 * counterpart in the first run, by name, for colours and highlighting.
 * Nothing here knows about curses or HDF5.
 */
#include "scopeview/session.h"

#include "session_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Drop what the session derived from the second run. */
static void session_two_drop(struct sv_session *s)
{
	if (s->has_index2)
		sv_layout_index_fini(&s->index2);
	s->has_index2 = false;
	sv_session_colors_second_drop(s);
	free(s->lane2_hidden);
	free(s->region1);
	s->lane2_hidden = NULL;
	s->region1 = NULL;
	s->sel2 = SV_NO_CALL;
	s->stats2_of[0] = s->stats2_of[1] = NULL; /* computed again */
}

void sv_session_second_fini(struct sv_session *s)
{
	session_two_drop(s);
}

void sv_session_second_lanes(struct sv_session *s)
{
	const struct sv_profile *p2 = s->p2;
	uint32_t solo_rank = 0;
	bool solo = s->solo_lane >= 0 && (size_t)s->solo_lane < s->p->nlanes;
	size_t l;

	if (!p2 || !s->lane2_hidden)
		return;
	if (solo)
		solo_rank = s->p->lanes[s->solo_lane].rank;
	for (l = 0; l < p2->nlanes; l++) {
		uint32_t r = p2->lanes[l].rank;
		s->lane2_hidden[l] =
			!s->show2 || (solo && r != solo_rank) ||
			(s->rank_on && (r >= s->nrank_on || !s->rank_on[r]));
	}
	if (s->sel2 != SV_NO_CALL && s->lane2_hidden[sv_call_lane(p2, s->sel2)])
		s->sel2 = SV_NO_CALL;
}

/* The first run's region of each of p2's regions, and p2's colours: the
 * first run's colour of the same name, its own for the others (from
 * made, p2's own map made off the loop's thread, taken over when given,
 * else made here). */
static void session_two_map(struct sv_session *s, struct sv_run_prep *made)
{
	const struct sv_profile *p2 = s->p2;
	uint32_t r;

	free(s->region1);
	s->region1 = sv_xmalloc(
		(p2->nregions ? p2->nregions : 1) * sizeof *s->region1);
	for (r = 0; r < p2->nregions; r++) {
		int64_t a = sv_profile_find_region(s->p, p2->regions[r]);
		s->region1[r] = a >= 0 ? (long)a : -1;
	}
	if (made && made->has_colors && made->p == p2) {
		sv_session_colors_second(s, &made->colors, s->region1);
		made->has_colors = false;
	} else {
		sv_session_colors_second(s, NULL, s->region1);
	}
	s->origin2 = sv_time_clamp(sv_profile_time_origin(p2));
	s->shift2 = sv_sub_sat(s->origin2, s->origin);
	if (p2->has_calls && p2->ncalls) {
		s->run2_t0 = sv_sub_sat(
			sv_time_clamp(sv_profile_min_start(p2)), s->shift2);
		s->run2_t1 = sv_sub_sat(
			sv_time_clamp(sv_profile_max_end(p2)), s->shift2);
	} else {
		s->run2_t0 = s->run_t0;
		s->run2_t1 = s->run_t1;
	}
}

void sv_session_second_filter(struct sv_session *s)
{
	const struct sv_profile *p2 = s->p2;
	bool *keep = NULL;
	struct sv_error err;
	uint32_t r;

	if (!p2 || !s->has_index2)
		return;
	if (s->region_keep) {
		keep = sv_xcalloc(
			p2->nregions ? p2->nregions : 1, sizeof *keep);
		for (r = 0; r < p2->nregions; r++)
			keep[r] =
				sv_session_filter_keeps_name(s, p2->regions[r]);
	}
	sv_layout_index_build(&s->index2, p2, keep, &err);
	free(keep);
	if (s->sel2 != SV_NO_CALL &&
		sv_layout_level_pos(&s->index2, s->sel2) == UINT32_MAX)
		s->sel2 = SV_NO_CALL;
}

void sv_session_second_profile(struct sv_session *s)
{
	if (!s->p2)
		return;
	session_two_map(s, NULL);
	sv_session_second_lanes(s);
}

int sv_session_set_second_prepared(struct sv_session *s, struct sv_run_prep *sp,
	const char *name, struct sv_error *err)
{
	const struct sv_profile *p2 = sp ? sp->p : NULL;
	char pending[SV_SESSION_TEXT_MAX] = "";
	bool was_pending = s->filter_pending;

	if (p2 && p2 == s->p)
		return sv_error_set(
			err, -EINVAL, "the second run is the one on show");
	/* A filter being made reads the second run: stopped, and started
	 * again for the new one. */
	if (was_pending)
		snprintf(pending, sizeof pending, "%s",
			sv_session_filter_text(s));
	sv_session_filter_stop(s);
	session_two_drop(s);
	s->p2 = p2;
	free(s->name2);
	s->name2 = p2 ? sv_xstrdup(name ? name : p2->path) : NULL;
	if (p2 && sp->has_index) {
		s->index2 = sp->index;
		s->has_index2 = true;
		sp->has_index = false;
		s->show2 = true;
		s->lane2_hidden = sv_xcalloc(
			p2->nlanes ? p2->nlanes : 1, sizeof *s->lane2_hidden);
		session_two_map(s, sp);
		sv_session_second_lanes(s);
		if (s->region_keep)
			sv_session_second_filter(s);
	}
	if (p2 && sp->has_stats && !s->rank_on && !s->ninclude &&
		!s->nexclude) {
		/* Made on the loader's thread: the same table. */
		sv_session_adopt_second(s, &sp->stats);
		sp->has_stats = false;
	} else {
		sv_session_compute_second(s);
	}
	if (was_pending)
		sv_session_filter_restart(s, pending);
	sv_session_notify(s, SV_SESSION_SECOND | SV_SESSION_LANES);
	return 0;
}

int sv_session_set_second(struct sv_session *s, const struct sv_profile *p2,
	const char *name, struct sv_error *err)
{
	struct sv_run_prep sp;
	int rc;

	if (p2 && p2 == s->p)
		return sv_error_set(
			err, -EINVAL, "the second run is the one on show");
	rc = sv_run_prepare(&sp, p2, err);
	if (rc == 0)
		rc = sv_session_set_second_prepared(s, &sp, name, err);
	sv_run_prep_fini(&sp);
	return rc;
}

bool sv_session_two_rows(const struct sv_session *s)
{
	return s->p2 && s->has_index2 && s->show2;
}

void sv_session_show_second(struct sv_session *s, bool on)
{
	s->show2 = on;
	sv_session_second_lanes(s);
	sv_session_notify(s, SV_SESSION_LANES);
}

bool sv_session_is_match2(const struct sv_session *s, uint32_t c)
{
	long a = s->region1 ? s->region1[sv_call_region(s->p2, c)] : -1;

	return a >= 0 && (sv_session_search_region(s, (uint32_t)a) ||
				 a == s->mark_region);
}
