/*
 * timeline_cmd.c: the timeline's `:` commands and its search (timeline.h):
 * goto, zoom, rank, region, search, filter and sort, each a message on
 * what it did or why it could not.  Nothing here knows about curses or
 * HDF5.
 */
#include "scopeview/timeline.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/elide.h"
#include "scopeview/mode.h"
#include "scopeview/regex.h"
#include "scopeview/render.h"
#include "scopeview/view.h"

/* No match on the lanes shown: say whether calls match on the lanes
 * hidden (a soloed lane, the rank filter) and how to show them.  Counted
 * by rows (a row of one lane at once): no pass over every call on the
 * loop (a third of a second at 100M calls). */
static void timeline_no_match(struct sv_timeline *v, const char *pat)
{
	const struct sv_session *s = v->s;
	const struct sv_profile *p = s->p;
	size_t hidden = 0, r, l;
	bool any = false;
	uint64_t c;

	for (l = 0; p->has_calls && l < p->nlanes; l++)
		any |= s->lane_hidden[l];
	for (r = 0; any && sv_session_search_on(s) && r < p->nrows; r++) {
		const struct sv_row *row = &p->rows[r];
		uint32_t lane = sv_row_lane(p, r);
		if (!sv_session_search_region(s, row->region))
			continue;
		if (lane != UINT32_MAX) {
			hidden += s->lane_hidden[lane] ? row->count : 0;
			continue;
		}
		for (c = row->first; c < row->first + row->count; c++)
			hidden += s->lane_hidden[sv_call_lane(p, (uint32_t)c)];
	}
	if (!hidden) {
		sv_session_message(v->s, true, "no call matches '%s'", pat);
		return;
	}
	sv_session_message(v->s, true,
		"'%s': no match on the lanes shown, %zu on hidden lanes (%s)",
		pat, hidden,
		s->solo_lane >= 0 ? "t shows them"
				  : "r Enter shows every rank");
}

/* The search pat has its match lists: say so and jump to the first. */
int sv_timeline_search_found(struct sv_timeline *v, const char *pat)
{
	if (sv_session_search_limit(v->s)) {
		sv_session_message(
			v->s, true, "%s", sv_session_search_limit(v->s));
		if (!sv_session_nmatches(v->s))
			return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	if (!sv_session_nmatches(v->s)) {
		timeline_no_match(v, pat);
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	return sv_timeline_jump_session(v, false, 1);
}

int sv_timeline_set_search(struct sv_timeline *v, const char *pat)
{
	struct sv_error err;

	v->search_wait = false;
	if (sv_session_set_search(v->s, pat, &err) < 0) {
		sv_session_message(v->s, true, "%s", err.msg);
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	if (!*pat) {
		sv_session_message(v->s, false, "search cleared");
		return SV_REACT_REDRAW;
	}
	if (sv_session_matches_pending(v->s)) {
		/* The lists come later (sv_session_poll): the message line
		 * shows the progress meanwhile. */
		v->search_wait = true;
		snprintf(v->search_pat, sizeof v->search_pat, "%s", pat);
		return SV_REACT_REDRAW;
	}
	return sv_timeline_search_found(v, pat);
}

/* Whether a time as typed has a unit after its number ("30" has none). */
static bool timeline_has_unit(const char *arg)
{
	char *end;

	(void)strtod(arg, &end);
	while (isspace((unsigned char)*end))
		end++;
	return end != arg && *end;
}

/* :goto T, a time since the run's t=0 with a unit (12.5ms, +3s) or a
 * share of the run (50%): the cursor goes there, inside the run, the
 * window follows when it is not in view, and the message says where it
 * went. */
static int timeline_goto(struct sv_timeline *v, const char *arg)
{
	struct sv_session *s = v->s;
	char at[32], *end;
	const char *clamped = "";
	int64_t t;
	double pct = strtod(arg, &end);

	while (isspace((unsigned char)*end))
		end++;
	if (end != arg && *end == '%' && !end[1] && pct >= 0 && pct <= 100) {
		t = s->run_t0 +
		    (int64_t)((double)(s->run_t1 - s->run_t0) * pct / 100);
	} else if (!timeline_has_unit(arg) || sv_view_parse_time(arg, &t) < 0) {
		if (end != arg && !*end)
			sv_session_message(s, true,
				"goto: '%s' needs a unit: ns, us, ms or s "
				"(12.5ms), or a share of the run (50%%)",
				arg);
		else
			sv_session_message(s, true,
				"goto: expected a time such as 12.5ms, or a "
				"share of the run (50%%)");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	} else {
		/* In 128 bits: a time typed near 2^63 must not overflow. */
		sv_i128 x = (sv_i128)t + s->origin;
		t = x < s->run_t0    ? s->run_t0 - 1
		    : x >= s->run_t1 ? s->run_t1
				     : (int64_t)x;
	}
	if (t < s->run_t0) {
		t = s->run_t0;
		clamped = " (the run's start)";
	} else if (t >= s->run_t1) {
		t = s->run_t1 - 1;
		clamped = " (the run's end)";
	}
	if (t < v->t0 || t >= v->t1) {
		sv_timeline_push_history(v);
		sv_timeline_set_window(
			v, t - sv_timeline_span(v) / 2, sv_timeline_span(v));
	}
	v->cur_t = t;
	sv_timeline_select_at_cursor(v);
	sv_session_message(s, false, "cursor at %s%s",
		sv_render_rel(sv_sub_sat(t, s->origin), at, sizeof at),
		clamped);
	return SV_REACT_REDRAW;
}

/* The regions :region NAME means: the one named so; else those whose
 * name starts with it; else those its regex finds.  Fills found[0 ..
 * max) and returns how many there are (possibly more than max). */
static size_t timeline_region_candidates(const struct sv_profile *p,
	const char *arg, uint32_t *found, size_t max)
{
	size_t n = 0, len = strlen(arg);
	int64_t r = sv_profile_find_region(p, arg);
	struct sv_regex *re;
	struct sv_error err;
	uint32_t i;

	if (r >= 0) {
		found[0] = (uint32_t)r;
		return 1;
	}
	for (i = 0; i < p->nregions; i++)
		if (!strncmp(p->regions[i], arg, len) && n++ < max)
			found[n - 1] = i;
	if (n)
		return n;
	re = sv_regex_compile(arg, &err);
	for (i = 0; re && i < p->nregions; i++)
		if (sv_regex_search(re, p->regions[i], NULL, NULL) && n++ < max)
			found[n - 1] = i;
	sv_regex_free(re);
	return n;
}

/* :region NAME: mark the region and go to its longest call; when NAME
 * could be several, list them instead (each cut where it differs from
 * the others, elide.h). */
static int timeline_region(struct sv_timeline *v, const char *arg)
{
	const struct sv_profile *p = v->s->p;
	uint32_t found[6];
	size_t n = timeline_region_candidates(p, arg, found, 6), i, j, used;
	char list[SV_SESSION_TEXT_MAX], one[128];

	if (!n) {
		sv_session_message(v->s, true, "no region matches '%s'", arg);
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	if (n == 1)
		return sv_timeline_mark_region(v, (long)found[0]);
	used = (size_t)snprintf(
		list, sizeof list, "'%s' matches %zu regions: ", arg, n);
	for (i = 0; i < n && i < 6 && used < sizeof list; i++) {
		size_t differ = 0;
		for (j = 0; j < n && j < 6; j++)
			if (j != i) {
				size_t k = sv_elide_common(p->regions[found[i]],
					p->regions[found[j]]);
				differ = k > differ ? k : differ;
			}
		sv_elide(p->regions[found[i]], differ, 18, "\xe2\x80\xa6", one,
			sizeof one);
		used += (size_t)snprintf(list + used, sizeof list - used,
			"%s%s", i ? ", " : "", one);
	}
	if (n > 6 && used < sizeof list)
		snprintf(list + used, sizeof list - used, ", ...");
	sv_session_message(v->s, true, "%s", list);
	return SV_REACT_REDRAW | SV_REACT_BELL;
}

/* :range T0:T1 marks [T0, T1) from the run's start, as `tree --range`
 * and `export --range` take it; :range off (or nothing) clears it. */
static int timeline_range_command(struct sv_timeline *v, const char *arg)
{
	struct sv_session *s = v->s;
	int64_t a, b;

	if (!*arg || !strcmp(arg, "off")) {
		sv_session_set_range(s, false, 0, 0);
		sv_session_message(s, false, "range cleared");
		return SV_REACT_REDRAW;
	}
	if (sv_view_parse_range(arg, &a, &b) < 0 || a == b) {
		sv_session_message(s, true,
			"range: expected T0:T1 from the run's start, such as "
			"100ms:200ms, or off");
		return SV_REACT_REDRAW | SV_REACT_BELL;
	}
	sv_session_set_range(
		s, true, sv_add_sat(s->origin, a), sv_add_sat(s->origin, b));
	sv_timeline_say_range(v);
	return SV_REACT_REDRAW;
}

void sv_timeline_say_range(struct sv_timeline *v)
{
	struct sv_session *s = v->s;
	char x[32], y[32], span[32];

	sv_session_message(s, false, "range %s .. %s (%s): T tree, F flame",
		sv_render_rel(sv_sub_sat(s->range_t0, s->origin), x, sizeof x),
		sv_render_rel(sv_sub_sat(s->range_t1, s->origin), y, sizeof y),
		sv_render_short(sv_sub_sat(s->range_t1, s->range_t0), span,
			sizeof span));
}

int sv_timeline_command(struct sv_timeline *v, const char *cmd)
{
	char word[32];
	const char *arg = sv_view_command_word(cmd, word, sizeof word);

	if (!strcmp(word, "goto") || !strcmp(word, "g"))
		return timeline_goto(v, arg);
	if (!strcmp(word, "zoom")) {
		int64_t span;
		if (!timeline_has_unit(arg) ||
			sv_view_parse_time(arg, &span) < 0 || span <= 0) {
			sv_session_message(v->s, true,
				"zoom: expected a span with a unit, such as "
				"1ms, 20us or 2s");
			return SV_REACT_REDRAW | SV_REACT_BELL;
		}
		sv_timeline_push_history(v);
		{
			struct sv_tmap m = sv_timeline_tmap(v);
			int x = sv_tmap_col(&m, v->cur_t);
			if (x < m.x0 || x >= m.x0 + m.w)
				x = m.x0 + m.w / 2;
			sv_timeline_zoom_at(v, v->cur_t, x, span);
		}
		return SV_REACT_REDRAW;
	}
	if (!strcmp(word, "rank") || !strcmp(word, "ranks"))
		return sv_session_set_ranks(v->s, arg) < 0
			       ? SV_REACT_REDRAW | SV_REACT_BELL
			       : SV_REACT_REDRAW;
	if (!strcmp(word, "region"))
		return timeline_region(v, arg);
	if (!strcmp(word, "search"))
		return sv_timeline_set_search(v, arg);
	if (!strcmp(word, "filter"))
		return sv_session_set_filter(v->s, arg) < 0
			       ? SV_REACT_REDRAW | SV_REACT_BELL
			       : SV_REACT_REDRAW;
	if (!strcmp(word, "sort")) {
		int k;
		/* With a second run: by the change of the total time. */
		if (!strcmp(arg, "delta") || !strcmp(arg, "delta%")) {
			if (sv_session_sort_diff(
				    v->s, arg[5] ? SV_SESSION_SORT_PCT
						 : SV_SESSION_SORT_DELTA) < 0) {
				sv_session_message(v->s, true,
					"sort %s: no second run to compare "
					"with (:open B.h5)",
					arg);
				return SV_REACT_REDRAW | SV_REACT_BELL;
			}
			sv_session_message(v->s, false,
				"sorted by the change in total time%s",
				arg[5] ? ", in percent" : "");
			return SV_REACT_REDRAW;
		}
		k = sv_panel_col_by_name(arg);
		if (k < 0) {
			sv_session_message(v->s, true,
				"sort: expected name, calls, total, exclusive, "
				"avg, p95, imbalance, delta or delta%%");
			return SV_REACT_REDRAW | SV_REACT_BELL;
		}
		sv_session_sort(v->s, sv_panel_col_key(k));
		return SV_REACT_REDRAW;
	}
	if (!strcmp(word, "second"))
		return sv_timeline_second_command(v, arg);
	if (!strcmp(word, "range"))
		return timeline_range_command(v, arg);
	if (!strcmp(word, "q") || !strcmp(word, "quit"))
		return SV_REACT_QUIT;
	if (!*word)
		return SV_REACT_REDRAW;
	sv_session_message(v->s, true,
		"unknown command '%s' (goto T, zoom T, range T0:T1, rank LIST, "
		"region NAME, "
		"search RE, filter RE, sort KEY, second [on|off], view NAME, "
		"open FILE, export FORMAT FILE, quit)",
		word);
	return SV_REACT_REDRAW | SV_REACT_BELL;
}
