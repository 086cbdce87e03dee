/*
 * session_two.c: the second run, a comparison (session.h): its statistics
 * over the first run's ranks and region filter and the map from the first
 * run's regions to their rows; its level-of-detail index, made before the
 * session takes the run (on the loader's thread: sv_run_prepare,
 * session.c) and again on the UI thread only when the region filter
 * changes, as the first run's is (by the filter's worker for a large
 * profile: sv_session_second_index, _take); the shift that puts both runs'
 * starts at the ruler's zero; its lanes shown (the rank filter, the solo
 * lane's rank); each of its regions' counterpart in the first run, by
 * name, for colours and highlighting.  All of it is struct
 * sv_session_two, defined here alone and read elsewhere through
 * sv_session_stats2(), sv_session_index2() and their kin.  Nothing here
 * knows about curses or HDF5.
 */
#include "scopeview/session.h"

#include "session_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The second run (a comparison) as the session keeps it (session.h's
 * accessors say what each part means). */
struct sv_session_two {
	/* Its statistics over the same ranks and region filter as the
	 * first run's (not the solo lane: its lanes are its own), what they
	 * were computed for (the runs, and the ranks and filter as typed:
	 * a solo lane or a window leaves them as they are), and for each
	 * region of p the row of stats2 with the same name, or -1 (row2,
	 * p->nregions entries).  name2 is its title. */
	struct sv_stats_table stats2;
	bool stats2_valid;
	const struct sv_profile *stats2_of[2];
	char stats2_key[64 + SV_SESSION_TEXT_MAX + 2];
	long *row2;
	char *name2;
	/* The rows of stats2 whose region p lacks (only in the second run),
	 * the largest total first, ties by name: nonly2 entries. */
	size_t *only2;
	size_t nonly2;
	/* Its level-of-detail index (the calls the region filter keeps, by
	 * name); its time origin and shift2 = origin2 - origin, so that a
	 * time t of the first run and t + shift2 of the second are as far
	 * from their runs' starts, and its extent in the first run's times;
	 * show2: its rows are on the timeline; its lanes hidden (p2->nlanes
	 * flags: the rank filter, the solo lane's rank, show2 off); each of
	 * its regions' region of the same name in p, or -1 (region1). */
	struct sv_lod_index index2;
	bool has_index2;
	int64_t origin2, shift2, run2_t0, run2_t1;
	bool show2;
	bool *lane2_hidden;
	long *region1;
};

struct sv_session_two *sv_session_two_new(void)
{
	return sv_xcalloc(1, sizeof(struct sv_session_two));
}

void sv_session_two_free(struct sv_session_two *two)
{
	if (!two)
		return;
	if (two->has_index2)
		sv_lod_index_fini(&two->index2);
	if (two->stats2_valid)
		sv_stats_table_fini(&two->stats2);
	free(two->lane2_hidden);
	free(two->region1);
	free(two->row2);
	free(two->only2);
	free(two->name2);
	free(two);
}

/* ---- what the views read ------------------------------------------------- */

const struct sv_stats_table *sv_session_stats2(const struct sv_session *s)
{
	return s->two->stats2_valid ? &s->two->stats2 : NULL;
}

const size_t *sv_session_only2(const struct sv_session *s, size_t *n)
{
	*n = s->two->nonly2;
	return s->two->only2;
}

const char *sv_session_name2(const struct sv_session *s)
{
	return s->two->name2;
}

const struct sv_lod_index *sv_session_index2(const struct sv_session *s)
{
	return s->p2 && s->two->has_index2 ? &s->two->index2 : NULL;
}

int64_t sv_session_origin2(const struct sv_session *s)
{
	return s->two->origin2;
}

int64_t sv_session_shift2(const struct sv_session *s)
{
	return s->two->shift2;
}

void sv_session_run2_extent(
	const struct sv_session *s, int64_t *t0, int64_t *t1)
{
	*t0 = s->two->run2_t0;
	*t1 = s->two->run2_t1;
}

bool sv_session_second_shown(const struct sv_session *s)
{
	return s->two->show2;
}

const bool *sv_session_lane2_hidden(const struct sv_session *s)
{
	return s->two->lane2_hidden;
}

long sv_session_region1(const struct sv_session *s, uint32_t r)
{
	return s->two->region1 && s->p2 && r < s->p2->nregions
		       ? s->two->region1[r]
		       : -1;
}

void sv_session_second_stale(struct sv_session *s)
{
	s->two->stats2_of[0] = NULL;
}

/* ---- its index under the region filter ----------------------------------- */

void sv_session_second_index(struct sv_lod_index *ix,
	const struct sv_profile *p2, const struct sv_session_filter *f)
{
	bool *keep = sv_session_filter_keep_names(f, p2);
	struct sv_error err;

	sv_lod_index_build(ix, p2, keep, &err);
	free(keep);
}

bool sv_session_second_take(struct sv_session *s, const struct sv_profile *p2,
	struct sv_lod_index *ix, bool *has)
{
	if (!s->two->has_index2 || !*has || p2 != s->p2)
		return false;
	sv_session_free_later(&s->two->index2, NULL, NULL, 0);
	s->two->index2 = *ix;
	memset(ix, 0, sizeof *ix);
	*has = false;
	return true;
}

/* ---- its statistics ------------------------------------------------------ */

/* The second run's table over the ranks and region filter of the first,
 * and the map from the first run's regions to its rows. */
/* What the second run's table depends on, as a key. */
static void session_second_key(const struct sv_session *s, char *buf, size_t n)
{
	snprintf(buf, n, "%s\x01%s", s->rank_spec, sv_session_filter_spec(s));
}

static void session_second_map(struct sv_session *s);

void sv_session_adopt_second(struct sv_session *s, struct sv_stats_table *t)
{
	if (s->two->stats2_valid)
		sv_stats_table_fini(&s->two->stats2);
	s->two->stats2 = *t;
	memset(t, 0, sizeof *t);
	s->two->stats2_valid = true;
	s->two->stats2_of[0] = s->p;
	s->two->stats2_of[1] = s->p2;
	session_second_key(s, s->two->stats2_key, sizeof s->two->stats2_key);
	session_second_map(s);
}

void sv_session_compute_second(struct sv_session *s)
{
	struct sv_stats_filter f;
	struct sv_error err;
	char key[sizeof s->two->stats2_key];

	session_second_key(s, key, sizeof key);
	if (s->two->stats2_valid && s->p2 && s->two->stats2_of[0] == s->p &&
		s->two->stats2_of[1] == s->p2 &&
		!strcmp(key, s->two->stats2_key))
		return; /* a solo lane, a window: B's table stays */
	if (s->two->stats2_valid)
		sv_stats_table_fini(&s->two->stats2);
	s->two->stats2_valid = false;
	free(s->two->row2);
	free(s->two->only2);
	s->two->row2 = NULL;
	s->two->only2 = NULL;
	s->two->nonly2 = 0;
	if (!s->p2)
		return;
	memset(&f, 0, sizeof f);
	f.rank_on = s->rank_on;
	f.nrank_on = s->nrank_on;
	sv_session_filter_patterns(s, &f);
	f.skip_empty = true;
	if (sv_stats_table_compute(&s->two->stats2, s->p2, &f, &err) < 0)
		return;
	s->two->stats2_valid = true;
	s->two->stats2_of[0] = s->p;
	s->two->stats2_of[1] = s->p2;
	memcpy(s->two->stats2_key, key, sizeof key);
	session_second_map(s);
	if (sv_session_sort_diff_kind(s) && sv_session_stats(s))
		sv_session_stats_resort(s);
}

/* For each region of p the row of stats2 of its name; the rows only in
 * the second run. */
static void session_second_map(struct sv_session *s)
{
	uint32_t r;
	size_t i;

	free(s->two->row2);
	free(s->two->only2);
	s->two->nonly2 = 0;
	s->two->row2 = sv_xmalloc(
		(s->p->nregions ? s->p->nregions : 1) * sizeof *s->two->row2);
	for (r = 0; r < s->p->nregions; r++)
		s->two->row2[r] = -1;
	s->two->only2 = sv_xmalloc(
		(s->two->stats2.nregions ? s->two->stats2.nregions : 1) *
		sizeof *s->two->only2);
	for (i = 0; i < s->two->stats2.nregions; i++) {
		int64_t a = sv_profile_find_region(
			s->p, s->two->stats2.regions[i].name);
		if (a >= 0)
			s->two->row2[a] = (long)i;
		else
			s->two->only2[s->two->nonly2++] = i;
	}
	/* The largest first, ties by name (a handful of rows). */
	for (i = 1; i < s->two->nonly2; i++) {
		size_t k = s->two->only2[i], j = i;
		const struct sv_stats_region *rk = &s->two->stats2.regions[k];
		while (j > 0) {
			const struct sv_stats_region *rj =
				&s->two->stats2.regions[s->two->only2[j - 1]];
			if (rj->s.total_ns > rk->s.total_ns ||
				(rj->s.total_ns == rk->s.total_ns &&
					strcmp(rj->name, rk->name) <= 0))
				break;
			s->two->only2[j] = s->two->only2[j - 1];
			j--;
		}
		s->two->only2[j] = k;
	}
}

const struct sv_stats_region *sv_session_second_of(
	const struct sv_session *s, uint32_t r)
{
	if (!s->two->stats2_valid || !s->two->row2 || r >= s->p->nregions ||
		s->two->row2[r] < 0)
		return NULL;
	return &s->two->stats2.regions[s->two->row2[r]];
}

/* Drop what the session derived from the second run. */
static void session_two_drop(struct sv_session *s)
{
	if (s->two->has_index2)
		sv_lod_index_fini(&s->two->index2);
	s->two->has_index2 = false;
	sv_session_colors_second_drop(s);
	free(s->two->lane2_hidden);
	free(s->two->region1);
	s->two->lane2_hidden = NULL;
	s->two->region1 = NULL;
	sv_session_set_selection(s, s->sel, SV_NO_CALL);
	s->two->stats2_of[0] = s->two->stats2_of[1] = NULL; /* computed again */
}

void sv_session_second_lanes(struct sv_session *s)
{
	const struct sv_profile *p2 = s->p2;
	uint32_t solo_rank = 0;
	bool solo = s->solo_lane >= 0 && (size_t)s->solo_lane < s->p->nlanes;
	size_t l;

	if (!p2 || !s->two->lane2_hidden)
		return;
	if (solo)
		solo_rank = s->p->lanes[s->solo_lane].rank;
	for (l = 0; l < p2->nlanes; l++) {
		uint32_t r = p2->lanes[l].rank;
		s->two->lane2_hidden[l] =
			!s->two->show2 || (solo && r != solo_rank) ||
			(s->rank_on && (r >= s->nrank_on || !s->rank_on[r]));
	}
	if (s->sel2 != SV_NO_CALL &&
		s->two->lane2_hidden[sv_call_lane(p2, s->sel2)])
		sv_session_set_selection(s, s->sel, SV_NO_CALL);
}

/* The first run's region of each of p2's regions, and p2's colours: the
 * first run's colour of the same name, its own for the others (from
 * made, p2's own map made off the loop's thread, taken over when given,
 * else made here). */
static void session_two_map(struct sv_session *s, struct sv_run_prep *made)
{
	const struct sv_profile *p2 = s->p2;
	uint32_t r;

	free(s->two->region1);
	s->two->region1 = sv_xmalloc(
		(p2->nregions ? p2->nregions : 1) * sizeof *s->two->region1);
	for (r = 0; r < p2->nregions; r++) {
		int64_t a = sv_profile_find_region(s->p, p2->regions[r]);
		s->two->region1[r] = a >= 0 ? (long)a : -1;
	}
	if (made && made->has_colors && made->p == p2) {
		sv_session_colors_second(s, &made->colors, s->two->region1);
		made->has_colors = false;
	} else {
		sv_session_colors_second(s, NULL, s->two->region1);
	}
	s->two->origin2 = sv_time_clamp(sv_profile_time_origin(p2));
	s->two->shift2 = sv_sub_sat(s->two->origin2, s->origin);
	if (p2->has_calls && p2->ncalls) {
		s->two->run2_t0 =
			sv_sub_sat(sv_time_clamp(sv_profile_min_start(p2)),
				s->two->shift2);
		s->two->run2_t1 = sv_sub_sat(
			sv_time_clamp(sv_profile_max_end(p2)), s->two->shift2);
	} else {
		s->two->run2_t0 = s->run_t0;
		s->two->run2_t1 = s->run_t1;
	}
}

void sv_session_second_filter(struct sv_session *s)
{
	if (!s->p2 || !s->two->has_index2)
		return;
	sv_session_second_index(&s->two->index2, s->p2, s->filter);
	if (s->sel2 != SV_NO_CALL &&
		sv_lod_level_pos(&s->two->index2, s->sel2) == UINT32_MAX)
		sv_session_set_selection(s, s->sel, SV_NO_CALL);
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
	bool was_pending = sv_session_filter_pending(s);

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
	free(s->two->name2);
	s->two->name2 = p2 ? sv_xstrdup(name ? name : p2->path) : NULL;
	if (p2 && sp->has_index) {
		s->two->index2 = sp->index;
		s->two->has_index2 = true;
		sp->has_index = false;
		s->two->show2 = true;
		s->two->lane2_hidden = sv_xcalloc(p2->nlanes ? p2->nlanes : 1,
			sizeof *s->two->lane2_hidden);
		session_two_map(s, sp);
		sv_session_second_lanes(s);
		if (sv_session_region_keep(s))
			sv_session_second_filter(s);
	}
	if (p2 && sp->has_stats && !s->rank_on &&
		!sv_session_filter_by_name(s)) {
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
	return s->p2 && s->two->has_index2 && s->two->show2;
}

void sv_session_show_second(struct sv_session *s, bool on)
{
	s->two->show2 = on;
	sv_session_second_lanes(s);
	sv_session_notify(s, SV_SESSION_LANES);
}

bool sv_session_is_match2(const struct sv_session *s, uint32_t c)
{
	long a = s->two->region1 ? s->two->region1[sv_call_region(s->p2, c)]
				 : -1;

	return a >= 0 && (sv_session_search_region(s, (uint32_t)a) ||
				 a == s->mark_region);
}
