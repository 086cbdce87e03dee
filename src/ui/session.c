/*
 * session.c: the state every view shares (session.h).
 *
 * Invariants kept after every call: lane_hidden and lane_on match the
 * solo lane and the rank filter; the index matches the region filter; the
 * statistics match the lanes on display and are sorted by sort_key; the
 * match lists match the search, the marked region and the lanes shown;
 * the selected call, if any, is on a lane shown and kept by the filter.
 * After a change the notify hook hears what changed, once.  The
 * statistics are session_stats.c's.  Nothing here knows about curses or
 * HDF5.
 */
#include "scopeview/session.h"

#include "session_priv.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/callmeta.h"
#include "scopeview/regex.h"

void sv_session_notify(struct sv_session *s, unsigned what)
{
	if (s->notify)
		s->notify(s->notify_ctx, what);
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

bool sv_session_keeps(const struct sv_session *s, uint32_t c)
{
	if (s->call_keep)
		return s->call_keep[c];
	return !s->region_keep || s->region_keep[sv_call_region(s->p, c)];
}

/* The lanes on display changed: flags, statistics, match lists, and the
 * selection when its lane went out of view. */
static void session_lanes_changed(struct sv_session *s)
{
	size_t l;

	for (l = 0; s->p->has_calls && l < s->p->nlanes; l++) {
		s->lane_hidden[l] = !sv_session_lane_shown(s, l);
		s->lane_on[l] = !s->lane_hidden[l];
	}
	sv_session_second_lanes(s);
	sv_session_compute_stats(s);
	sv_session_update_matches(s);
	if (s->sel != SV_NO_CALL && s->lane_hidden[s->p->lane_of[s->sel]])
		s->sel = SV_NO_CALL;
}

void sv_session_set_range(struct sv_session *s, bool on, int64_t t0, int64_t t1)
{
	s->has_range = on;
	s->range_t0 = on ? (t0 < t1 ? t0 : t1) : 0;
	s->range_t1 = on ? (t0 < t1 ? t1 : t0) : 0;
	/* The statistics follow a range marked, and the run when it goes. */
	if (on || s->stats_span == SV_SPAN_RANGE) {
		s->stats_span = on ? SV_SPAN_RANGE : SV_SPAN_RUN;
		sv_session_compute_stats(s);
	}
	sv_session_notify(s, SV_SESSION_RANGE | SV_SESSION_SORT);
}

void sv_session_solo(struct sv_session *s, long l)
{
	s->solo_lane = l;
	session_lanes_changed(s);
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
	session_lanes_changed(s);
	sv_session_message(s, false, on ? "ranks %s" : "all ranks", spec);
	sv_session_notify(s, SV_SESSION_LANES);
	return 0;
}

/* ---- the region filter and the search ------------------------------------ */

bool sv_session_filter_keeps_name(const struct sv_session *s, const char *name)
{
	bool keep = s->ninclude == 0;
	size_t i;

	for (i = 0; i < s->ninclude && !keep; i++)
		keep = sv_regex_match(s->filter_re[i], name);
	for (i = 0; i < s->nexclude && keep; i++)
		keep = !sv_regex_match(s->filter_re[s->ninclude + i], name);
	return keep;
}

static void session_free_filter(struct sv_session *s)
{
	size_t i;
	sv_session_stats_stop(s); /* it may read the patterns */
	for (i = 0; i < s->ninclude + s->nexclude; i++)
		sv_regex_free(s->filter_re[i]);
	free(s->filter_re);
	s->filter_re = NULL;
	s->ninclude = s->nexclude = 0;
	free(s->region_keep);
	s->region_keep = NULL;
	free(s->call_keep);
	s->call_keep = NULL;
}

/* One pattern of the search or the filter: a regex on region names and,
 * for "key=value" or "key~regex", a metadata term too.  A term need not
 * be a regex ("iter=[3" still matches metadata): re is then NULL. */
struct session_pat {
	struct sv_regex *re;
	struct sv_callmeta_term term;
	bool is_term;
};

/* Read pat; 0, or -EINVAL with err (nothing to free then). */
static int session_pat_compile(
	const char *pat, struct session_pat *sp, struct sv_error *err)
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

static void session_pat_fini(struct session_pat *sp)
{
	sv_regex_free(sp->re);
	sv_callmeta_term_fini(&sp->term);
}

/* Whether call c's metadata satisfies some term of pats[0 .. n). */
static bool session_pats_call(const struct sv_profile *p,
	const struct session_pat *pats, size_t n, uint32_t c)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (pats[i].is_term &&
			sv_callmeta_term_match(p, &pats[i].term, c))
			return true;
	return false;
}

/* The calls the filter keeps when some of its patterns are metadata
 * terms (pats: the include patterns, then the exclude ones): a call is
 * kept when its region or its metadata matches an include pattern (or
 * there is none), and neither matches an exclude one.  region_keep then
 * says which regions keep some call. */
static void session_filter_calls(struct sv_session *s,
	const struct session_pat *pats, size_t ni, size_t ne)
{
	const struct sv_profile *p = s->p;
	bool *name_in = sv_xcalloc((size_t)p->nregions + 1, sizeof *name_in);
	bool *name_out = sv_xcalloc((size_t)p->nregions + 1, sizeof *name_out);
	uint32_t r, c, row = 0;
	size_t i;

	for (r = 0; r < p->nregions; r++) {
		name_in[r] = ni == 0;
		for (i = 0; i < ni + ne; i++)
			if (pats[i].re &&
				sv_regex_match(pats[i].re, p->regions[r]))
				*(i < ni ? &name_in[r] : &name_out[r]) = true;
		s->region_keep[r] = false;
	}
	s->call_keep = sv_xcalloc(p->ncalls ? p->ncalls : 1, sizeof(bool));
	for (c = 0; c < p->ncalls; c++) {
		r = p->rows[sv_profile_row_next(p, c, &row)].region;
		s->call_keep[c] =
			!name_out[r] &&
			(name_in[r] || session_pats_call(p, pats, ni, c)) &&
			!session_pats_call(p, pats + ni, ne, c);
		if (s->call_keep[c])
			s->region_keep[r] = true;
	}
	free(name_in);
	free(name_out);
}

/* The filter without telling anyone; 0 or -EINVAL (message set). */
static int session_filter(struct sv_session *s, const char *spec)
{
	struct session_pat *pats = NULL, pat_in;
	bool *excl = NULL;
	size_t n = 0, cap = 0, ecap = 0, ni = 0, ne = 0, i, k;
	struct sv_error err;
	const char *q = spec;
	bool terms = false;
	uint32_t r;

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
		if (session_pat_compile(pat, &pat_in, &err) < 0) {
			for (i = 0; i < n; i++)
				session_pat_fini(&pats[i]);
			free(pats);
			free(excl);
			sv_session_message(s, true, "%s", err.msg);
			return -EINVAL;
		}
		sv_grow((void **)&pats, &cap, n + 1, sizeof *pats);
		sv_grow((void **)&excl, &ecap, n + 1, sizeof *excl);
		pats[n] = pat_in;
		excl[n++] = ex;
		ne += ex;
		terms = terms || pat_in.is_term;
	}
	ni = n - ne;
	/* Includes first, then excludes, each in the order typed. */
	for (i = 1; i < n; i++)
		for (k = i; k > 0 && excl[k - 1] && !excl[k]; k--) {
			struct session_pat t = pats[k];
			bool e = excl[k];
			pats[k] = pats[k - 1];
			pats[k - 1] = t;
			excl[k] = excl[k - 1];
			excl[k - 1] = e;
		}
	free(excl);
	session_free_filter(s);
	snprintf(s->filter_spec, sizeof s->filter_spec, "%s", spec);
	if (n) {
		size_t nre = 0;
		s->filter_re = sv_xmalloc(n * sizeof *s->filter_re);
		for (i = 0; i < n; i++) {
			if (pats[i].re) {
				s->filter_re[nre++] = pats[i].re;
				if (i < ni)
					s->ninclude++;
				else
					s->nexclude++;
			}
		}
		s->region_keep = sv_xcalloc(
			s->p->nregions ? s->p->nregions : 1, sizeof(bool));
		if (terms && s->p->call_meta) {
			session_filter_calls(s, pats, ni, ne);
		} else {
			for (r = 0; r < s->p->nregions; r++)
				s->region_keep[r] =
					sv_session_filter_keeps_name(
						s, s->p->regions[r]);
		}
	}
	for (i = 0; i < n; i++) {
		pats[i].re = NULL; /* owned by filter_re now */
		session_pat_fini(&pats[i]);
	}
	free(pats);
	if (s->call_keep)
		sv_layout_index_build_calls(
			&s->index, s->p, s->call_keep, &err);
	else
		sv_layout_index_build(&s->index, s->p, s->region_keep, &err);
	if (s->sel != SV_NO_CALL && !sv_session_keeps(s, s->sel))
		s->sel = SV_NO_CALL;
	sv_session_second_filter(s);
	session_lanes_changed(s);
	sv_session_message(s, false, "%s", n ? "filter set" : "filter cleared");
	for (i = 0; i < s->ninclude + s->nexclude; i++) {
		unsigned long hits = sv_regex_limit_hits(s->filter_re[i]);
		if (hits) {
			char msg[SV_SESSION_TEXT_MAX];
			sv_regex_limit_message(
				s->filter_re[i], hits, msg, sizeof msg);
			sv_session_message(s, true, "filter set, but %s", msg);
			break;
		}
	}
	return 0;
}

int sv_session_set_filter(struct sv_session *s, const char *spec)
{
	int rc = session_filter(s, spec);
	if (rc == 0)
		sv_session_notify(s, SV_SESSION_FILTER | SV_SESSION_LANES);
	return rc;
}

/* Set search_spec and region_match for pattern pat; -EINVAL (with the
 * error in err) when it does not compile. */
static int session_match_regions(
	struct sv_session *s, const char *pat, struct sv_error *err)
{
	struct session_pat sp;
	uint32_t r, c;

	free(s->region_match);
	s->region_match = NULL;
	s->search_limit_hits = 0;
	s->search_limit_msg[0] = '\0';
	free(s->call_match);
	s->call_match = NULL;
	snprintf(s->search_spec, sizeof s->search_spec, "%s", pat);
	if (!*pat)
		return 0;
	if (session_pat_compile(pat, &sp, err) < 0) {
		s->search_spec[0] = '\0';
		return -EINVAL;
	}
	s->region_match =
		sv_xcalloc(s->p->nregions ? s->p->nregions : 1, sizeof(bool));
	for (r = 0; sp.re && r < s->p->nregions; r++)
		s->region_match[r] =
			sv_regex_search(sp.re, s->p->regions[r], NULL, NULL);
	s->search_limit_hits = sv_regex_limit_hits(sp.re);
	if (s->search_limit_hits)
		sv_regex_limit_message(sp.re, s->search_limit_hits,
			s->search_limit_msg, sizeof s->search_limit_msg);
	if (sp.is_term && s->p->call_meta) {
		s->call_match = sv_xcalloc(
			s->p->ncalls ? s->p->ncalls : 1, sizeof(bool));
		for (c = 0; c < s->p->ncalls; c++)
			s->call_match[c] = session_pats_call(s->p, &sp, 1, c);
	}
	session_pat_fini(&sp);
	return 0;
}

int sv_session_set_search(
	struct sv_session *s, const char *pat, struct sv_error *err)
{
	int rc = session_match_regions(s, pat, err);
	sv_session_update_matches(s);
	sv_session_notify(s, SV_SESSION_SEARCH);
	return rc;
}

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

bool sv_session_is_match(const struct sv_session *s, uint32_t c)
{
	uint32_t r;
	if (c == SV_NO_CALL || c >= s->p->ncalls)
		return false;
	r = sv_call_region(s->p, c);
	return (s->region_match && s->region_match[r]) ||
	       (s->call_match && s->call_match[c]) || (long)r == s->mark_region;
}

bool sv_session_has_match(const struct sv_session *s, uint32_t lane,
	uint32_t depth, int64_t t0, int64_t t1)
{
	const struct sv_lod_level *lv;
	uint32_t lo, hi;

	if (!s->has_match_index)
		return false;
	lv = sv_layout_level(&s->match_index, lane, depth);
	if (!lv)
		return false;
	sv_layout_range(lv, t0, t1, &lo, &hi);
	return hi > lo;
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
	sv_palette_map_build(&s->colors, p, NULL);
}

/* The level-of-detail index, built beside the statistics. */
struct session_index_build {
	struct sv_session *s;
	struct sv_error err;
	int rc;
};

static void *session_index_main(void *arg)
{
	struct session_index_build *b = arg;
	b->rc = sv_layout_index_build(
		&b->s->index, b->s->p, b->s->region_keep, &b->err);
	return NULL;
}

/* The index of the new profile, and its lanes, statistics and match
 * lists (session_lanes_changed): on two threads when there are calls, as
 * neither reads what the other makes. */
static int session_index_and_lanes(struct sv_session *s, struct sv_error *err)
{
	struct session_index_build b;
	pthread_t t;
	bool threaded;

	memset(&b, 0, sizeof b);
	b.s = s;
	threaded = s->p->has_calls && s->p->ncalls >= SV_SESSION_BG_CALLS &&
		   pthread_create(&t, NULL, session_index_main, &b) == 0;
	if (!threaded)
		session_index_main(&b);
	session_lanes_changed(s);
	if (threaded)
		pthread_join(t, NULL);
	if (b.rc < 0 && err)
		*err = b.err;
	return b.rc;
}

int sv_session_init(struct sv_session *s, const struct sv_profile *p,
	const struct sv_session_opts *opts, struct sv_error *err)
{
	int rc;

	if (!s || !p)
		return sv_error_set(err, -EINVAL, "view: no profile");
	memset(s, 0, sizeof *s);
	s->p = p;
	if (opts)
		s->opts = *opts;
	{
		/* A rank subset says so: "run.h5 [ranks 0-7 of 16]". */
		const char *t = opts && opts->title ? opts->title
				: p->path           ? p->path
						    : "";
		char *subset = sv_profile_subset_label(p);
		s->title = subset ? sv_xasprintf("%s [%s]", t, subset)
				  : sv_xstrdup(t);
		free(subset);
	}
	s->opts.title = s->title;
	s->sel = SV_NO_CALL;
	s->solo_lane = -1;
	s->mark_region = -1;
	s->match_pos = -1;
	s->marked_pos = -1;
	s->sort_key = SV_STATS_KEY_TOTAL;
	s->bg_calls = SV_SESSION_BG_CALLS;
	s->sel2 = SV_NO_CALL;
	session_setup_profile(s);
	rc = session_index_and_lanes(s, err);
	if (rc < 0) {
		sv_session_fini(s);
		return rc;
	}
	return 0;
}

void sv_session_fini(struct sv_session *s)
{
	if (!s)
		return;
	sv_session_cancel_matches(s);
	sv_session_stats_stop(s);
	sv_layout_index_fini(&s->index);
	sv_layout_index_fini(&s->match_index);
	sv_session_second_fini(s);
	sv_palette_map_fini(&s->colors);
	if (s->stats_valid)
		sv_stats_table_fini(&s->stats);
	if (s->stats_all_valid)
		sv_stats_table_fini(&s->stats_all);
	if (s->stats2_valid)
		sv_stats_table_fini(&s->stats2);
	free(s->row2);
	free(s->only2);
	free(s->name2);
	session_free_filter(s);
	free(s->title);
	free(s->lane_hidden);
	free(s->lane_on);
	free(s->rank_on);
	free(s->region_match);
	free(s->call_match);
	free(s->matches);
	free(s->marked);
	memset(s, 0, sizeof *s);
}

int sv_session_set_profile(
	struct sv_session *s, const struct sv_profile *p, struct sv_error *err)
{
	size_t old_lanes = s->p && s->p->has_calls ? s->p->nlanes : 0;
	char filter[SV_SESSION_TEXT_MAX], search[SV_SESSION_TEXT_MAX];
	int rc;

	if (!p)
		return sv_error_set(err, -EINVAL, "view: no profile");
	sv_session_cancel_matches(s);
	sv_session_stats_stop(s);
	s->p = p;
	/* Tables of the old profile are of no use for the new one. */
	if (s->stats_all_valid)
		sv_stats_table_fini(&s->stats_all);
	s->stats_all_valid = false;
	if (s->stats_valid)
		sv_stats_table_fini(&s->stats);
	s->stats_valid = false;
	s->stats2_of[0] = NULL; /* B's table is computed again */
	if ((p->has_calls ? p->nlanes : 0) != old_lanes)
		s->solo_lane = -1;
	/* Region numbers may differ in the new file: keep the filter and the
	 * search as typed and apply them again. */
	snprintf(filter, sizeof filter, "%s", s->filter_spec);
	snprintf(search, sizeof search, "%s", s->search_spec);
	session_free_filter(s);
	s->filter_spec[0] = '\0';
	free(s->region_match);
	s->region_match = NULL;
	free(s->call_match);
	s->call_match = NULL;
	s->search_spec[0] = '\0';
	s->mark_region = -1;
	s->sel = SV_NO_CALL;
	s->sel2 = SV_NO_CALL;
	s->has_range = false;
	if (s->stats_span == SV_SPAN_RANGE)
		s->stats_span = SV_SPAN_RUN;
	session_setup_profile(s);
	sv_session_second_profile(s);
	rc = session_index_and_lanes(s, err);
	if (rc < 0)
		return rc;
	if (filter[0])
		session_filter(s, filter);
	if (search[0] && session_match_regions(s, search, err) == 0)
		sv_session_update_matches(s);
	s->message[0] = '\0';
	sv_session_notify(s, SV_SESSION_PROFILE | SV_SESSION_LANES |
				     SV_SESSION_FILTER | SV_SESSION_SEARCH);
	return 0;
}

int sv_session_call_color(const struct sv_session *s, uint32_t c)
{
	return sv_palette_call(&s->colors, s->p, c, s->color_mode);
}

int sv_session_region_color(const struct sv_session *s, uint32_t r)
{
	return sv_palette_region(&s->colors, s->p, r);
}

void sv_session_set_color_mode(struct sv_session *s, int mode)
{
	s->color_mode = mode >= 0 && mode < SV_PALETTE_MODE_COUNT
				? mode
				: SV_PALETTE_MODE_REGION;
	sv_session_message(
		s, false, "colours %s", sv_palette_mode_help(s->color_mode));
}
