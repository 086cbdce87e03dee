/*
 * view.c: the viewer's state and every key's effect on it (view.h).
 *
 * Key handling only changes state and reports SV_VIEW_* flags; drawing is
 * render.c's.  Invariants kept after every key: the window [t0, t1) spans
 * at least one nanosecond per timeline column; the cursor row is a row on
 * display (or there are none) and lies inside the visible lane area; the
 * summary figures match the lanes on display; the index matches the
 * region filter.  Nothing here knows about curses or HDF5.
 */
#include "scopeview/view.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/keys.h"
#include "scopeview/regex.h"

static const enum sv_stats_key view_col_keys[SV_VIEW_COL_COUNT] = {
#define VIEW_COL_KEY(id, title, key) [SV_VIEW_COL_##id] = key,
	SV_VIEW_PANEL_COLS(VIEW_COL_KEY)
#undef VIEW_COL_KEY
};

static void view_message(struct sv_view *v, bool error, const char *fmt, ...)
	SV_PRINTF(3, 4);
static int view_set_filter(struct sv_view *v, const char *spec);
static bool view_match_regions(
	struct sv_view *v, const char *pat, struct sv_error *err);

static void view_message(struct sv_view *v, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->message, sizeof v->message, fmt, ap);
	va_end(ap);
	v->message_is_error = error;
}

/* ---- formatting ---------------------------------------------------------- */

char *sv_view_fmt_dur(int64_t ns, char *buf, size_t n)
{
	static const struct {
		double div;
		const char *unit;
	} units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}};
	double a = ns < 0 ? -(double)ns : (double)ns;
	size_t i;

	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (a >= units[i].div) {
			double x = (double)ns / units[i].div;
			double ax = a / units[i].div;
			snprintf(buf, n, "%.*f %s",
				ax >= 100  ? 0
				: ax >= 10 ? 1
					   : 2,
				x, units[i].unit);
			return buf;
		}
	}
	snprintf(buf, n, "%" PRId64 " ns", ns);
	return buf;
}

int sv_view_parse_time(const char *s, int64_t *ns)
{
	static const struct {
		const char *unit;
		double mul;
	} units[] = {{"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"ms", 1e6},
		{"s", 1e9}, {"", 1}};
	char *end;
	double x;
	size_t i;

	if (!s)
		return -EINVAL;
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+')
		s++;
	x = strtod(s, &end);
	if (end == s)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		size_t n = strlen(units[i].unit);
		if (!strncmp(end, units[i].unit, n)) {
			const char *rest = end + n;
			double r;
			while (isspace((unsigned char)*rest))
				rest++;
			if (*rest)
				continue;
			r = x * units[i].mul;
			if (!(r > -9.2e18 && r < 9.2e18))
				return -EINVAL;
			*ns = (int64_t)(r >= 0 ? r + 0.5 : r - 0.5);
			return 0;
		}
	}
	return -EINVAL;
}

/* ---- geometry helpers ---------------------------------------------------- */

struct sv_tmap sv_view_tmap(const struct sv_view *v)
{
	struct sv_tmap m;
	m.t0 = v->t0;
	m.t1 = v->t1;
	m.x0 = v->geom.tl_x;
	m.w = v->geom.tl_w > 0 ? v->geom.tl_w : 1;
	return m;
}

uint32_t sv_view_call_at(const struct sv_view *v, int x, int y)
{
	struct sv_tmap m = sv_view_tmap(v);
	long row = v->top_row + (y - v->geom.lanes_y);

	if (v->geom.too_small || y < v->geom.lanes_y ||
		y >= v->geom.lanes_y + v->geom.lanes_h || row < 0 ||
		row >= (long)v->rows.n)
		return SV_NO_CALL;
	return sv_layout_hit(&v->index, v->rows.rows[row].lane,
		v->rows.rows[row].depth, &m, x, NULL);
}

long sv_view_cursor_row(const struct sv_view *v)
{
	return sv_layout_rows_find(&v->rows, v->cur_lane, v->cur_depth);
}

static int64_t view_span(const struct sv_view *v)
{
	return v->t1 - v->t0;
}

static int64_t view_min_span(const struct sv_view *v)
{
	return v->geom.tl_w > 0 ? v->geom.tl_w : 1;
}

static int64_t view_max_span(const struct sv_view *v)
{
	sv_i128 run = (sv_i128)v->run_t1 - v->run_t0;
	sv_i128 m = run * 4;
	if (m < 1000000000)
		m = 1000000000;
	if (m > ((sv_i128)1 << 62))
		m = (sv_i128)1 << 62;
	return (int64_t)m;
}

/* Set the window to span ns with t0 (clamped so nothing overflows). */
static void view_set_window(struct sv_view *v, int64_t t0, int64_t span)
{
	int64_t mn = view_min_span(v), mx = view_max_span(v);
	if (span < mn)
		span = mn;
	if (span > mx)
		span = mx;
	if (t0 > INT64_MAX - span)
		t0 = INT64_MAX - span;
	v->t0 = t0;
	v->t1 = t0 + span;
}

static void view_push_history(struct sv_view *v)
{
	if (v->nhistory == SV_VIEW_HISTORY) {
		memmove(v->history, v->history + 1,
			(SV_VIEW_HISTORY - 1) * sizeof v->history[0]);
		v->nhistory--;
	}
	v->history[v->nhistory].t0 = v->t0;
	v->history[v->nhistory].t1 = v->t1;
	v->nhistory++;
}

/* Keep the cursor row on display and inside the lane area. */
static void view_fix_rows(struct sv_view *v)
{
	long row, nrows = (long)v->rows.n, h = v->geom.lanes_h;

	if (nrows == 0) {
		v->top_row = 0;
		return;
	}
	row = sv_view_cursor_row(v);
	if (row < 0) {
		row = 0;
		v->cur_lane = v->rows.rows[0].lane;
		v->cur_depth = 0;
	}
	v->cur_depth = v->rows.rows[row].depth;
	if (h < 1)
		h = 1;
	if (row < v->top_row)
		v->top_row = row;
	if (row >= v->top_row + h)
		v->top_row = row - h + 1;
	if (v->top_row > nrows - h)
		v->top_row = nrows - h;
	if (v->top_row < 0)
		v->top_row = 0;
}

/* ---- derived state ------------------------------------------------------- */

static bool view_lane_shown(const struct sv_view *v, size_t l)
{
	const struct sv_lane *lane = &v->p->lanes[l];
	if (v->solo_lane >= 0 && (size_t)v->solo_lane != l)
		return false;
	if (v->rank_on &&
		(lane->rank >= v->nrank_on || !v->rank_on[lane->rank]))
		return false;
	return true;
}

static void view_compute_stats(struct sv_view *v)
{
	struct sv_stats_filter f;
	struct sv_error err;
	bool all;

	memset(&f, 0, sizeof f);
	f.rank_on = v->rank_on;
	f.nrank_on = v->nrank_on;
	if (v->p->has_calls && v->p->nlanes)
		f.lane_on = v->lane_on;
	f.include = v->filter_re;
	f.ninclude = v->ninclude;
	f.exclude = v->filter_re ? v->filter_re + v->ninclude : NULL;
	f.nexclude = v->nexclude;
	f.skip_empty = v->p->has_calls;
	all = v->solo_lane < 0 && !v->rank_on && !v->ninclude && !v->nexclude;
	if (v->stats_valid && v->stats_is_all) {
		/* Keep the whole run's table for the way back. */
		if (v->stats_all_valid)
			sv_stats_table_fini(&v->stats_all);
		v->stats_all = v->stats;
		v->stats_all_valid = true;
	} else if (v->stats_valid)
		sv_stats_table_fini(&v->stats);
	v->stats_is_all = all;
	if (all && v->stats_all_valid) {
		v->stats = v->stats_all;
		v->stats_all_valid = false;
		v->stats_valid = true;
	} else
		v->stats_valid =
			sv_stats_table_compute(&v->stats, v->p, &f, &err) == 0;
	if (v->stats_valid)
		sv_stats_table_sort(&v->stats, view_col_keys[v->sort_col]);
	if (!v->stats_valid || v->panel_cur >= (long)v->stats.nregions)
		v->panel_cur = 0;
}

struct view_kv {
	uint64_t key;
	uint32_t call;
};

/* Stable LSD radix sort of a[0 .. n) by key, 8 bits a pass, skipping the
 * bytes on which every key agrees; tmp holds n items. */
static void view_radix(struct view_kv *a, struct view_kv *tmp, size_t n)
{
	struct view_kv *src = a, *dst = tmp, *t;
	uint64_t diff = 0;
	unsigned shift;
	size_t i;

	for (i = 1; i < n; i++)
		diff |= a[i].key ^ a[0].key;
	for (shift = 0; shift < 64; shift += 8) {
		size_t count[257] = {0};
		if (!((diff >> shift) & 0xff))
			continue;
		for (i = 0; i < n; i++)
			count[((src[i].key >> shift) & 0xff) + 1]++;
		for (i = 1; i < 257; i++)
			count[i] += count[i - 1];
		for (i = 0; i < n; i++)
			dst[count[(src[i].key >> shift) & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof *a);
}

/* Sort calls by start (ties: the order given), or longest first (ties:
 * earliest start).  O(n): a key press on millions of calls stays quick. */
static void view_sort_calls(
	const struct sv_profile *p, uint32_t *calls, size_t n, bool longest)
{
	const uint64_t sign = (uint64_t)1 << 63;
	struct view_kv *kv, *tmp;
	size_t i;

	if (n < 2)
		return;
	kv = sv_xmalloc(n * sizeof *kv);
	tmp = sv_xmalloc(n * sizeof *tmp);
	for (i = 0; i < n; i++) {
		kv[i].key = (uint64_t)p->start_ns[calls[i]] ^ sign;
		kv[i].call = calls[i];
	}
	view_radix(kv, tmp, n);
	if (longest) {
		for (i = 0; i < n; i++)
			kv[i].key =
				~((uint64_t)sv_call_duration(p, kv[i].call) ^
					sign);
		view_radix(kv, tmp, n);
	}
	for (i = 0; i < n; i++)
		calls[i] = kv[i].call;
	free(kv);
	free(tmp);
}

/* Calls of the lanes on display (and kept by the filter) whose region is
 * flagged, by start or longest first.  Returns the count; *out is
 * malloc'd. */
static size_t view_collect(const struct sv_view *v, const bool *region_on,
	long one_region, uint32_t **out, bool longest)
{
	const struct sv_profile *p = v->p;
	uint32_t *calls = NULL;
	size_t n = 0, cap = 0, l;

	for (l = 0; p->has_calls && l < p->nlanes; l++) {
		const struct sv_lane *lane = &p->lanes[l];
		uint32_t i;
		if (v->lane_hidden[l])
			continue;
		for (i = 0; i < lane->ncalls; i++) {
			uint32_t c = lane->calls[i], r = sv_call_region(p, c);
			if (region_on ? !region_on[r] : (long)r != one_region)
				continue;
			if (v->region_keep && !v->region_keep[r])
				continue;
			sv_grow((void **)&calls, &cap, n + 1, sizeof *calls);
			calls[n++] = c;
		}
	}
	view_sort_calls(p, calls, n, longest);
	*out = calls;
	return n;
}

/* Rebuild the index of highlighted calls (search and chosen region). */
static void view_update_match_index(struct sv_view *v)
{
	const struct sv_profile *p = v->p;
	bool *keep;
	uint32_t r;

	sv_layout_index_fini(&v->match_index);
	v->has_match_index = false;
	if (!v->region_match && v->mark_region < 0)
		return;
	keep = sv_xcalloc(p->nregions ? p->nregions : 1, sizeof *keep);
	for (r = 0; r < p->nregions; r++)
		keep[r] = ((v->region_match && v->region_match[r]) ||
				  (long)r == v->mark_region) &&
			  (!v->region_keep || v->region_keep[r]);
	v->has_match_index =
		sv_layout_index_build(&v->match_index, p, keep, NULL) == 0;
	free(keep);
}

static void view_update_matches(struct sv_view *v)
{
	view_update_match_index(v);
	free(v->matches);
	v->matches = NULL;
	v->nmatches = 0;
	v->match_pos = -1;
	if (v->region_match)
		v->nmatches = view_collect(
			v, v->region_match, -1, &v->matches, false);
	free(v->marked);
	v->marked = NULL;
	v->nmarked = 0;
	v->marked_pos = -1;
	if (v->mark_region >= 0)
		v->nmarked =
			view_collect(v, NULL, v->mark_region, &v->marked, true);
}

/* The lanes on display changed: rows, statistics, match lists. */
static void view_lanes_changed(struct sv_view *v)
{
	size_t l;

	for (l = 0; v->p->has_calls && l < v->p->nlanes; l++) {
		v->lane_hidden[l] = !view_lane_shown(v, l);
		v->lane_on[l] = !v->lane_hidden[l];
	}
	sv_layout_rows_build(&v->rows, v->p, v->lane_hidden, v->lane_collapsed);
	view_compute_stats(v);
	view_update_matches(v);
	if (v->sel != SV_NO_CALL && v->lane_hidden[v->p->lane_of[v->sel]])
		v->sel = SV_NO_CALL;
	view_fix_rows(v);
}

/* The layout's geometry, except that a profile without calls (the
 * aggregate layout) gives the whole screen below a three-row note to the
 * summary panel: its statistics are all there is to see, at any width. */
static void view_geometry(struct sv_view *v, bool panel, bool details)
{
	struct sv_layout_geom *g = &v->geom;
	sv_layout_geometry(g, v->w, v->h, panel, details);
	if (g->too_small || v->p->layout != SV_LAYOUT_AGGREGATE || !panel)
		return;
	g->panel_x = 0;
	g->panel_w = v->w < 100 ? v->w : 100; /* names near their numbers */
	g->panel_y = 3;
	g->panel_h = v->h - 1 - 3;
	g->details_y = 0;
	g->details_h = 0;
	g->lanes_h = 0;
}

void sv_view_resize(struct sv_view *v, int w, int h)
{
	v->w = w;
	v->h = h;
	view_geometry(v, v->panel_shown, v->details_shown);
	if (!v->geom.too_small && view_span(v) < view_min_span(v))
		view_set_window(v, v->t0, view_min_span(v));
	view_fix_rows(v);
}

/* ---- init ---------------------------------------------------------------- */

static void view_fit(struct sv_view *v)
{
	int64_t span = v->run_t1 - v->run_t0;
	view_set_window(v, v->run_t0, span > 0 ? span : 1000);
}

static int view_setup_profile(struct sv_view *v, struct sv_error *err)
{
	const struct sv_profile *p = v->p;
	size_t nl = p->has_calls ? p->nlanes : 0;
	int rc;

	v->origin = sv_profile_time_origin(p);
	if (p->has_calls && p->ncalls) {
		v->run_t0 = sv_profile_min_start(p);
		v->run_t1 = sv_profile_max_end(p);
		if (v->run_t1 <= v->run_t0)
			v->run_t1 = v->run_t0 + 1;
	} else {
		v->run_t0 = v->origin;
		v->run_t1 = v->origin + 1000;
	}
	free(v->lane_hidden);
	free(v->lane_on);
	v->lane_hidden = sv_xcalloc(nl ? nl : 1, sizeof *v->lane_hidden);
	v->lane_on = sv_xcalloc(nl ? nl : 1, sizeof *v->lane_on);
	if (!v->lane_collapsed)
		v->lane_collapsed =
			sv_xcalloc(nl ? nl : 1, sizeof *v->lane_collapsed);
	rc = sv_layout_index_build(&v->index, p, v->region_keep, err);
	if (rc < 0)
		return rc;
	return 0;
}

int sv_view_init(struct sv_view *v, const struct sv_profile *p,
	const struct sv_view_opts *opts, struct sv_error *err)
{
	int rc;

	if (!v || !p)
		return sv_error_set(err, -EINVAL, "view: no profile");
	memset(v, 0, sizeof *v);
	v->p = p;
	if (opts)
		v->opts = *opts;
	v->title = sv_xstrdup(opts && opts->title ? opts->title
			      : p->path           ? p->path
						  : "");
	v->opts.title = v->title;
	v->sel = SV_NO_CALL;
	v->solo_lane = -1;
	v->mark_region = -1;
	v->match_pos = -1;
	v->marked_pos = -1;
	v->drag_x = -1;
	v->panel_shown = true;
	v->details_shown = true;
	v->sort_col = SV_VIEW_COL_TOTAL;
	rc = view_setup_profile(v, err);
	if (rc < 0) {
		sv_view_fini(v);
		return rc;
	}
	v->w = 120;
	v->h = 40;
	view_geometry(v, true, true);
	view_fit(v);
	v->cur_t = v->t0;
	if (p->has_calls && p->nlanes)
		v->cur_lane = 0;
	view_lanes_changed(v);
	return 0;
}

static void view_free_filter(struct sv_view *v)
{
	size_t i;
	for (i = 0; i < v->ninclude + v->nexclude; i++)
		sv_regex_free(v->filter_re[i]);
	free(v->filter_re);
	v->filter_re = NULL;
	v->ninclude = v->nexclude = 0;
	free(v->region_keep);
	v->region_keep = NULL;
}

void sv_view_fini(struct sv_view *v)
{
	if (!v)
		return;
	sv_layout_index_fini(&v->index);
	sv_layout_index_fini(&v->match_index);
	sv_layout_rows_fini(&v->rows);
	if (v->stats_valid)
		sv_stats_table_fini(&v->stats);
	if (v->stats_all_valid)
		sv_stats_table_fini(&v->stats_all);
	view_free_filter(v);
	free(v->title);
	free(v->lane_hidden);
	free(v->lane_collapsed);
	free(v->lane_on);
	free(v->rank_on);
	free(v->region_match);
	free(v->matches);
	free(v->marked);
	memset(v, 0, sizeof *v);
}

int sv_view_set_profile(
	struct sv_view *v, const struct sv_profile *p, struct sv_error *err)
{
	size_t old_lanes = v->p && v->p->has_calls ? v->p->nlanes : 0;
	char filter[SV_VIEW_PROMPT_MAX], search[SV_VIEW_PROMPT_MAX];
	int rc;

	if (!p)
		return sv_error_set(err, -EINVAL, "view: no profile");
	v->p = p;
	/* Tables of the old profile are of no use for the new one. */
	if (v->stats_all_valid)
		sv_stats_table_fini(&v->stats_all);
	v->stats_all_valid = false;
	if (v->stats_valid)
		sv_stats_table_fini(&v->stats);
	v->stats_valid = false;
	if ((p->has_calls ? p->nlanes : 0) != old_lanes) {
		free(v->lane_collapsed);
		v->lane_collapsed = NULL;
		v->solo_lane = -1;
		v->cur_lane = 0;
		v->cur_depth = 0;
	}
	/* Region numbers may differ in the new file: keep the filter and the
	 * search as typed and apply them again. */
	snprintf(filter, sizeof filter, "%s", v->filter_spec);
	snprintf(search, sizeof search, "%s", v->search_spec);
	view_free_filter(v);
	v->filter_spec[0] = '\0';
	free(v->region_match);
	v->region_match = NULL;
	v->search_spec[0] = '\0';
	v->mark_region = -1;
	v->sel = SV_NO_CALL;
	rc = view_setup_profile(v, err);
	if (rc < 0)
		return rc;
	view_set_window(v, v->t0, view_span(v));
	view_lanes_changed(v);
	if (filter[0])
		view_set_filter(v, filter);
	if (search[0] && view_match_regions(v, search, err))
		view_update_matches(v);
	v->message[0] = '\0';
	return 0;
}

/* ---- selection ----------------------------------------------------------- */

/* Select the call under the cursor (or none). */
static void view_select_at_cursor(struct sv_view *v)
{
	struct sv_tmap m = sv_view_tmap(v);
	int x = sv_tmap_col(&m, v->cur_t);
	long row = sv_view_cursor_row(v);

	v->sel = SV_NO_CALL;
	if (row < 0 || x < m.x0 || x >= m.x0 + m.w)
		return;
	v->sel = sv_layout_hit(&v->index, v->rows.rows[row].lane,
		v->rows.rows[row].depth, &m, x, NULL);
}

/* Select call c: the cursor goes to its row and into its visible part;
 * the window moves (same span) when the call is not in it. */
static void view_select(struct sv_view *v, uint32_t c)
{
	const struct sv_profile *p = v->p;
	int64_t s, e, lo, hi, span = view_span(v);
	uint32_t lane;

	if (c == SV_NO_CALL || c >= p->ncalls)
		return;
	lane = p->lane_of[c];
	if (v->lane_hidden[lane])
		return;
	s = p->start_ns[c];
	e = p->end_ns[c] > s ? p->end_ns[c] : s + 1;
	if (e <= v->t0 || s >= v->t1)
		view_set_window(v, s + (e - s) / 2 - span / 2, span);
	if (v->lane_collapsed[lane] && p->depth[c] > 0) {
		v->lane_collapsed[lane] = false;
		sv_layout_rows_build(
			&v->rows, p, v->lane_hidden, v->lane_collapsed);
	}
	lo = s > v->t0 ? s : v->t0;
	hi = e < v->t1 ? e : v->t1;
	v->sel = c;
	v->cur_lane = lane;
	v->cur_depth = p->depth[c];
	v->cur_t = lo + (hi - lo) / 2;
	view_fix_rows(v);
}

/* ---- zoom and pan -------------------------------------------------------- */

/* Zoom to span ns keeping the time under column x (or the cursor). */
static void view_zoom_at(struct sv_view *v, int64_t t, int x, int64_t span)
{
	int64_t mn = view_min_span(v), mx = view_max_span(v);
	if (span < mn)
		span = mn;
	if (span > mx)
		span = mx;
	view_set_window(v,
		sv_tmap_anchor(t, x, v->geom.tl_x, v->geom.tl_w, span), span);
}

static int view_zoom(struct sv_view *v, int factor_num, int factor_den)
{
	struct sv_tmap m = sv_view_tmap(v);
	int64_t span = view_span(v), t = v->cur_t;
	sv_i128 ns = (sv_i128)span * factor_num / factor_den;
	int x = sv_tmap_col(&m, t);

	if (x < m.x0 || x >= m.x0 + m.w) {
		x = m.x0 + m.w / 2;
		t = sv_tmap_time(&m, x);
		v->cur_t = t;
	}
	if (ns > ((sv_i128)1 << 62))
		ns = (sv_i128)1 << 62;
	if ((factor_num < factor_den && span <= view_min_span(v)) ||
		(factor_num > factor_den && span >= view_max_span(v)))
		return SV_VIEW_BELL;
	view_push_history(v);
	view_zoom_at(v, t, x, (int64_t)ns);
	return SV_VIEW_REDRAW;
}

static void view_pan(struct sv_view *v, int64_t dt)
{
	int64_t t0 = v->t0, span = view_span(v);
	sv_i128 n = (sv_i128)t0 + dt;
	if (n < INT64_MIN)
		n = INT64_MIN;
	if (n > (sv_i128)INT64_MAX - span)
		n = (sv_i128)INT64_MAX - span;
	view_set_window(v, (int64_t)n, span);
	n = (sv_i128)v->cur_t + (v->t0 - t0);
	if (n >= v->t0 && n < v->t1)
		v->cur_t = (int64_t)n;
}

/* A key that acts on the selected call, with none selected: say how to
 * select one rather than only ringing the bell. */
static int view_no_selection(struct sv_view *v)
{
	view_message(v, true,
		"no call selected: Tab selects the next one, or click one");
	return SV_VIEW_REDRAW | SV_VIEW_BELL;
}

static int view_zoom_call(struct sv_view *v)
{
	const struct sv_profile *p = v->p;
	int64_t s, e, pad;

	if (v->sel == SV_NO_CALL)
		return view_no_selection(v);
	s = p->start_ns[v->sel];
	e = p->end_ns[v->sel] > s ? p->end_ns[v->sel] : s + 1;
	pad = (e - s) / 20;
	view_push_history(v);
	view_set_window(v, s - pad, e - s + 2 * pad);
	if (view_span(v) > e - s + 2 * pad)
		view_set_window(
			v, s + (e - s) / 2 - view_span(v) / 2, view_span(v));
	v->cur_t = s + (e - s) / 2;
	return SV_VIEW_REDRAW;
}

/* ---- moves --------------------------------------------------------------- */

static int view_move_col(struct sv_view *v, int dx)
{
	struct sv_tmap m = sv_view_tmap(v);
	int x = sv_tmap_col(&m, v->cur_t);

	if (x < m.x0 || x >= m.x0 + m.w)
		x = dx > 0 ? m.x0 - 1 : m.x0 + m.w;
	x += dx;
	if (x < m.x0 || x >= m.x0 + m.w) {
		int64_t span = view_span(v);
		view_pan(v, dx > 0 ? span / 8 : -(span / 8));
		m = sv_view_tmap(v);
		x = x < m.x0 ? m.x0 : m.x0 + m.w - 1;
		x = sv_tmap_col(&m, v->cur_t) + dx;
		if (x < m.x0)
			x = m.x0;
		if (x >= m.x0 + m.w)
			x = m.x0 + m.w - 1;
	}
	v->cur_t = sv_tmap_time(&m, x) +
		   (sv_tmap_time(&m, x + 1) - sv_tmap_time(&m, x)) / 2;
	view_select_at_cursor(v);
	return SV_VIEW_REDRAW;
}

static int view_move_row(struct sv_view *v, long dy)
{
	long row = sv_view_cursor_row(v), n = (long)v->rows.n;

	if (n == 0)
		return SV_VIEW_BELL;
	row += dy;
	if (row < 0)
		row = 0;
	if (row >= n)
		row = n - 1;
	v->cur_lane = v->rows.rows[row].lane;
	v->cur_depth = v->rows.rows[row].depth;
	view_fix_rows(v);
	view_select_at_cursor(v);
	return SV_VIEW_REDRAW;
}

static int view_select_rel(struct sv_view *v, uint32_t c, const char *none)
{
	if (c == SV_NO_CALL) {
		view_message(v, false, "%s", none);
		return SV_VIEW_REDRAW | SV_VIEW_BELL;
	}
	view_select(v, c);
	return SV_VIEW_REDRAW;
}

/* Next/previous call on the cursor lane from the selection or cursor. */
static int view_step_call(struct sv_view *v, int dir)
{
	const struct sv_profile *p = v->p;
	const struct sv_lane *lane;
	uint32_t c;

	if (!p->has_calls || !p->nlanes)
		return SV_VIEW_BELL;
	if (v->sel != SV_NO_CALL) {
		c = v->sel;
		do
			c = sv_layout_lane_step(p, c, dir);
		while (c != SV_NO_CALL && v->region_keep &&
			!v->region_keep[sv_call_region(p, c)]);
		return view_select_rel(v, c,
			dir > 0 ? "last call of the lane"
				: "first call of the lane");
	}
	lane = &p->lanes[v->cur_lane];
	{
		/* First call starting after (before) the cursor time. */
		uint32_t lo = 0, hi = lane->ncalls;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (p->start_ns[lane->calls[mid]] >= v->cur_t)
				hi = mid;
			else
				lo = mid + 1;
		}
		if (dir > 0)
			c = lo < lane->ncalls ? lane->calls[lo] : SV_NO_CALL;
		else
			c = lo > 0 ? lane->calls[lo - 1] : SV_NO_CALL;
		while (c != SV_NO_CALL && v->region_keep &&
			!v->region_keep[sv_call_region(p, c)])
			c = sv_layout_lane_step(p, c, dir);
	}
	return view_select_rel(v, c, "no more calls on this lane");
}

static int view_jump_list(struct sv_view *v, const uint32_t *list, size_t n,
	long *pos, int dir, bool by_time)
{
	size_t i;

	if (!n) {
		view_message(v, true, "no matching call on the lanes shown");
		return SV_VIEW_REDRAW | SV_VIEW_BELL;
	}
	if (by_time) {
		/* The first match after (before) the selection or cursor. */
		int64_t t = v->sel != SV_NO_CALL ? v->p->start_ns[v->sel]
						 : v->cur_t;
		long found = -1;
		if (dir > 0) {
			for (i = 0; i < n; i++) {
				int64_t s = v->p->start_ns[list[i]];
				if (s > t ||
					(s == t && v->sel != SV_NO_CALL &&
						list[i] > v->sel) ||
					(s == t && v->sel == SV_NO_CALL)) {
					found = (long)i;
					break;
				}
			}
			if (found < 0)
				found = 0;
		} else {
			for (i = n; i-- > 0;) {
				int64_t s = v->p->start_ns[list[i]];
				if (s < t || (s == t && v->sel != SV_NO_CALL &&
						     list[i] < v->sel)) {
					found = (long)i;
					break;
				}
			}
			if (found < 0)
				found = (long)n - 1;
		}
		*pos = found;
	} else {
		*pos = *pos < 0 ? (dir > 0 ? 0 : (long)n - 1)
				: (*pos + dir + (long)n) % (long)n;
	}
	view_select(v, list[*pos]);
	view_message(v, false, "match %ld of %zu", *pos + 1, n);
	return SV_VIEW_REDRAW;
}

/* ---- prompts ------------------------------------------------------------- */

/* Set search_spec and region_match for pattern pat; false (with the
 * error in err) when it does not compile. */
static bool view_match_regions(
	struct sv_view *v, const char *pat, struct sv_error *err)
{
	struct sv_regex *re;
	uint32_t r;

	free(v->region_match);
	v->region_match = NULL;
	snprintf(v->search_spec, sizeof v->search_spec, "%s", pat);
	if (!*pat)
		return true;
	re = sv_regex_compile(pat, err);
	if (!re) {
		v->search_spec[0] = '\0';
		return false;
	}
	v->region_match =
		sv_xcalloc(v->p->nregions ? v->p->nregions : 1, sizeof(bool));
	for (r = 0; r < v->p->nregions; r++)
		v->region_match[r] =
			sv_regex_search(re, v->p->regions[r], NULL, NULL);
	sv_regex_free(re);
	return true;
}

static int view_set_search(struct sv_view *v, const char *pat)
{
	struct sv_error err;

	if (!view_match_regions(v, pat, &err)) {
		view_update_matches(v);
		view_message(v, true, "%s", err.msg);
		return SV_VIEW_REDRAW | SV_VIEW_BELL;
	}
	if (!*pat) {
		view_update_matches(v);
		view_message(v, false, "search cleared");
		return SV_VIEW_REDRAW;
	}
	view_update_matches(v);
	if (!v->nmatches) {
		view_message(v, true, "no call matches '%s'", pat);
		return SV_VIEW_REDRAW | SV_VIEW_BELL;
	}
	return view_jump_list(
		v, v->matches, v->nmatches, &v->match_pos, 1, true);
}

static int view_set_filter(struct sv_view *v, const char *spec)
{
	struct sv_regex **inc = NULL, **exc = NULL;
	size_t ni = 0, ne = 0, ci = 0, ce = 0, i;
	struct sv_error err;
	const char *s = spec;
	struct sv_error ierr;
	uint32_t r;

	while (*s) {
		char pat[SV_VIEW_PROMPT_MAX];
		size_t len;
		bool ex;
		struct sv_regex *re;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		len = strcspn(s, " ");
		ex = *s == '!';
		snprintf(pat, sizeof pat, "%.*s", (int)(len - ex), s + ex);
		s += len;
		if (!*pat)
			continue;
		re = sv_regex_compile(pat, &err);
		if (!re) {
			for (i = 0; i < ni; i++)
				sv_regex_free(inc[i]);
			for (i = 0; i < ne; i++)
				sv_regex_free(exc[i]);
			free(inc);
			free(exc);
			view_message(v, true, "%s", err.msg);
			return SV_VIEW_REDRAW | SV_VIEW_BELL;
		}
		if (ex) {
			sv_grow((void **)&exc, &ce, ne + 1, sizeof *exc);
			exc[ne++] = re;
		} else {
			sv_grow((void **)&inc, &ci, ni + 1, sizeof *inc);
			inc[ni++] = re;
		}
	}
	view_free_filter(v);
	snprintf(v->filter_spec, sizeof v->filter_spec, "%s", spec);
	if (ni + ne) {
		v->filter_re = sv_xmalloc((ni + ne) * sizeof *v->filter_re);
		for (i = 0; i < ni; i++)
			v->filter_re[i] = inc[i];
		for (i = 0; i < ne; i++)
			v->filter_re[ni + i] = exc[i];
		v->ninclude = ni;
		v->nexclude = ne;
		v->region_keep = sv_xcalloc(
			v->p->nregions ? v->p->nregions : 1, sizeof(bool));
		for (r = 0; r < v->p->nregions; r++) {
			bool keep = ni == 0;
			for (i = 0; i < ni && !keep; i++)
				keep = sv_regex_match(inc[i], v->p->regions[r]);
			for (i = 0; i < ne && keep; i++)
				keep = !sv_regex_match(
					exc[i], v->p->regions[r]);
			v->region_keep[r] = keep;
		}
	}
	free(inc);
	free(exc);
	sv_layout_index_build(&v->index, v->p, v->region_keep, &ierr);
	if (v->sel != SV_NO_CALL && v->region_keep &&
		!v->region_keep[sv_call_region(v->p, v->sel)])
		v->sel = SV_NO_CALL;
	view_lanes_changed(v);
	view_message(v, false, "%s", ni + ne ? "filter set" : "filter cleared");
	return SV_VIEW_REDRAW;
}

static int view_set_ranks(struct sv_view *v, const char *spec)
{
	bool *on = NULL;
	uint32_t n = 0;
	struct sv_error err;

	while (*spec == ' ')
		spec++;
	if (*spec && strcmp(spec, "all") &&
		sv_stats_parse_ranks(spec, &on, &n, &err) < 0) {
		view_message(v, true, "%s", err.msg);
		return SV_VIEW_REDRAW | SV_VIEW_BELL;
	}
	free(v->rank_on);
	v->rank_on = on;
	v->nrank_on = n;
	snprintf(v->rank_spec, sizeof v->rank_spec, "%s", on ? spec : "");
	view_lanes_changed(v);
	view_message(v, false, on ? "ranks %s" : "all ranks", spec);
	return SV_VIEW_REDRAW;
}

static int view_mark_region(struct sv_view *v, long region)
{
	v->mark_region = region;
	view_update_matches(v);
	if (region < 0)
		return SV_VIEW_REDRAW;
	if (!v->nmarked) {
		view_message(v, true, "'%s' has no call on the lanes shown",
			v->p->regions[region]);
		return SV_VIEW_REDRAW | SV_VIEW_BELL;
	}
	return view_jump_list(
		v, v->marked, v->nmarked, &v->marked_pos, 1, false);
}

static int view_command(struct sv_view *v, const char *cmd)
{
	char word[32];
	const char *arg;
	size_t len;

	while (*cmd == ' ')
		cmd++;
	len = strcspn(cmd, " ");
	snprintf(word, sizeof word, "%.*s", (int)len, cmd);
	arg = cmd + len;
	while (*arg == ' ')
		arg++;
	if (!strcmp(word, "goto") || !strcmp(word, "g")) {
		int64_t t;
		if (sv_view_parse_time(arg, &t) < 0) {
			view_message(v, true,
				"goto: expected a time such as 12.5ms");
			return SV_VIEW_REDRAW | SV_VIEW_BELL;
		}
		t += v->origin;
		if (t < v->t0 || t >= v->t1) {
			view_push_history(v);
			view_set_window(v, t - view_span(v) / 2, view_span(v));
		}
		v->cur_t = t;
		view_select_at_cursor(v);
		return SV_VIEW_REDRAW;
	}
	if (!strcmp(word, "zoom")) {
		int64_t span;
		if (sv_view_parse_time(arg, &span) < 0 || span <= 0) {
			view_message(v, true,
				"zoom: expected a span such as "
				"1ms");
			return SV_VIEW_REDRAW | SV_VIEW_BELL;
		}
		view_push_history(v);
		{
			struct sv_tmap m = sv_view_tmap(v);
			int x = sv_tmap_col(&m, v->cur_t);
			if (x < m.x0 || x >= m.x0 + m.w)
				x = m.x0 + m.w / 2;
			view_zoom_at(v, v->cur_t, x, span);
		}
		return SV_VIEW_REDRAW;
	}
	if (!strcmp(word, "rank") || !strcmp(word, "ranks"))
		return view_set_ranks(v, arg);
	if (!strcmp(word, "region")) {
		int64_t r = sv_profile_find_region(v->p, arg);
		if (r < 0) {
			struct sv_error err;
			struct sv_regex *re = sv_regex_compile(arg, &err);
			uint32_t i;
			for (i = 0; re && i < v->p->nregions && r < 0; i++)
				if (sv_regex_search(
					    re, v->p->regions[i], NULL, NULL))
					r = i;
			sv_regex_free(re);
		}
		if (r < 0) {
			view_message(v, true, "no region matches '%s'", arg);
			return SV_VIEW_REDRAW | SV_VIEW_BELL;
		}
		return view_mark_region(v, (long)r);
	}
	if (!strcmp(word, "search"))
		return view_set_search(v, arg);
	if (!strcmp(word, "filter"))
		return view_set_filter(v, arg);
	if (!strcmp(word, "sort")) {
		int k;
		for (k = 0; k < SV_VIEW_COL_COUNT; k++)
			if (!strcmp(sv_stats_key_name(view_col_keys[k]), arg))
				break;
		if (k == SV_VIEW_COL_COUNT) {
			view_message(v, true,
				"sort: expected name, calls, total, exclusive, "
				"avg, p95 or imbalance");
			return SV_VIEW_REDRAW | SV_VIEW_BELL;
		}
		v->sort_col = k;
		if (v->stats_valid)
			sv_stats_table_sort(&v->stats, view_col_keys[k]);
		return SV_VIEW_REDRAW;
	}
	if (!strcmp(word, "q") || !strcmp(word, "quit"))
		return SV_VIEW_QUIT;
	if (!*word)
		return SV_VIEW_REDRAW;
	view_message(v, true,
		"unknown command '%s' (goto T, zoom T, rank LIST, region NAME, "
		"search RE, filter RE, sort KEY, quit)",
		word);
	return SV_VIEW_REDRAW | SV_VIEW_BELL;
}

static int view_prompt_commit(struct sv_view *v)
{
	enum sv_prompt kind = v->prompt;
	char text[SV_VIEW_PROMPT_MAX];

	memcpy(text, v->prompt_buf, v->prompt_len);
	text[v->prompt_len] = '\0';
	v->prompt = SV_PROMPT_NONE;
	switch (kind) {
	case SV_PROMPT_SEARCH:
		return view_set_search(v, text);
	case SV_PROMPT_FILTER:
		return view_set_filter(v, text);
	case SV_PROMPT_RANKS:
		return view_set_ranks(v, text);
	case SV_PROMPT_COMMAND:
		return view_command(v, text);
	default:
		return SV_VIEW_REDRAW;
	}
}

static int view_prompt_key(struct sv_view *v, int key)
{
	if (key == SV_KEY_ENTER)
		return view_prompt_commit(v);
	if (key == SV_KEY_ESCAPE || key == SV_KEY_CTRL('c') ||
		key == SV_KEY_CTRL('g')) {
		v->prompt = SV_PROMPT_NONE;
		return SV_VIEW_REDRAW;
	}
	if (key == SV_KEY_BACKSPACE) {
		if (!v->prompt_len) {
			v->prompt = SV_PROMPT_NONE;
			return SV_VIEW_REDRAW;
		}
		/* Drop one UTF-8 code point. */
		do
			v->prompt_len--;
		while (v->prompt_len &&
			((unsigned char)v->prompt_buf[v->prompt_len] & 0xc0) ==
				0x80);
		return SV_VIEW_REDRAW;
	}
	if (key == SV_KEY_CTRL('u')) {
		v->prompt_len = 0;
		return SV_VIEW_REDRAW;
	}
	if (sv_key_is_text(key)) {
		char enc[4];
		size_t n = sv_utf8_encode((uint32_t)key, enc);
		if (v->prompt_len + n >= SV_VIEW_PROMPT_MAX)
			return SV_VIEW_BELL;
		memcpy(v->prompt_buf + v->prompt_len, enc, n);
		v->prompt_len += n;
		return SV_VIEW_REDRAW;
	}
	return SV_VIEW_BELL;
}

static void view_open_prompt(
	struct sv_view *v, enum sv_prompt kind, const char *initial)
{
	v->prompt = kind;
	snprintf(v->prompt_buf, sizeof v->prompt_buf, "%s", initial);
	v->prompt_len = strlen(v->prompt_buf);
	v->message[0] = '\0';
}

/* ---- popups and panel ---------------------------------------------------- */

static int view_popup_key(struct sv_view *v, int key)
{
	int page = v->h > 8 ? v->h - 8 : 1;

	switch (key) {
	case 'q':
	case SV_KEY_ESCAPE:
	case SV_KEY_ENTER:
	case SV_KEY_BACKSPACE:
		v->popup = SV_POPUP_NONE;
		return SV_VIEW_REDRAW;
	case 'j':
	case SV_KEY_DOWN:
		v->popup_top++;
		break;
	case 'k':
	case SV_KEY_UP:
		v->popup_top--;
		break;
	case SV_KEY_PAGEDOWN:
	case ' ':
		v->popup_top += page;
		break;
	case SV_KEY_PAGEUP:
		v->popup_top -= page;
		break;
	case SV_KEY_HOME:
		v->popup_top = 0;
		break;
	case SV_KEY_END:
		v->popup_top = 1L << 20;
		break;
	default: {
		int a = sv_action_for_key(key);
		if (a == SV_ACTION_HELP || a == SV_ACTION_SOURCE ||
			a == SV_ACTION_METADATA || a == SV_ACTION_WARNINGS) {
			v->popup = SV_POPUP_NONE;
			return sv_view_apply(v, a);
		}
		return SV_VIEW_BELL;
	}
	}
	if (v->popup_top < 0)
		v->popup_top = 0;
	if (v->popup_top > 1L << 20)
		v->popup_top = 1L << 20;
	return SV_VIEW_REDRAW;
}

static int view_panel_key(struct sv_view *v, int key)
{
	long n = v->stats_valid ? (long)v->stats.nregions : 0;
	long page = v->geom.panel_h > 4 ? v->geom.panel_h - 3 : 1;

	switch (key) {
	case 'j':
	case SV_KEY_DOWN:
		v->panel_cur++;
		break;
	case 'k':
	case SV_KEY_UP:
		v->panel_cur--;
		break;
	case SV_KEY_PAGEDOWN:
		v->panel_cur += page;
		break;
	case SV_KEY_PAGEUP:
		v->panel_cur -= page;
		break;
	case SV_KEY_HOME:
		v->panel_cur = 0;
		break;
	case SV_KEY_END:
		v->panel_cur = n - 1;
		break;
	case SV_KEY_ENTER:
	case ' ':
		if (!n)
			return SV_VIEW_BELL;
		if (v->mark_region ==
			(long)v->stats.regions[v->panel_cur].region)
			return view_jump_list(v, v->marked, v->nmarked,
				&v->marked_pos, 1, false);
		return view_mark_region(
			v, (long)v->stats.regions[v->panel_cur].region);
	case SV_KEY_ESCAPE:
		if (v->mark_region >= 0) {
			view_mark_region(v, -1);
			return SV_VIEW_REDRAW;
		}
		v->panel_focus = false;
		return SV_VIEW_REDRAW;
	default:
		return -1; /* not a panel key */
	}
	if (v->panel_cur >= n)
		v->panel_cur = n - 1;
	if (v->panel_cur < 0)
		v->panel_cur = 0;
	return SV_VIEW_REDRAW;
}

/* ---- mouse --------------------------------------------------------------- */

static int view_mouse(struct sv_view *v, int key)
{
	int x = sv_key_mouse_x(key), y = sv_key_mouse_y(key);
	const struct sv_layout_geom *g = &v->geom;
	struct sv_tmap m = sv_view_tmap(v);
	bool in_tl = x >= g->tl_x && x < g->tl_x + g->tl_w && y >= g->lanes_y &&
		     y < g->lanes_y + g->lanes_h;
	bool in_panel = g->panel_w && x > g->panel_x && y >= g->panel_y + 2 &&
			y < g->panel_y + g->panel_h;

	if (v->opts.no_mouse || g->too_small)
		return 0;
	switch (sv_key_mouse_kind(key)) {
	case SV_MOUSE_CLICK:
		v->drag_x = x;
		if (v->popup != SV_POPUP_NONE) {
			v->popup = SV_POPUP_NONE;
			return SV_VIEW_REDRAW;
		}
		if (in_panel && v->stats_valid) {
			long row = v->panel_top + (y - g->panel_y - 2);
			if (row < (long)v->stats.nregions) {
				v->panel_cur = row;
				v->panel_focus = true;
				return view_mark_region(
					v, (long)v->stats.regions[row].region);
			}
			return SV_VIEW_BELL;
		}
		if (in_tl ||
			(x >= g->label_x && x < g->tl_x && y >= g->lanes_y &&
				y < g->lanes_y + g->lanes_h)) {
			long row = v->top_row + (y - g->lanes_y);
			if (row >= (long)v->rows.n)
				return SV_VIEW_BELL;
			v->panel_focus = false;
			v->cur_lane = v->rows.rows[row].lane;
			v->cur_depth = v->rows.rows[row].depth;
			if (!in_tl)
				return SV_VIEW_REDRAW;
			v->cur_t = sv_tmap_time(&m, x) +
				   (sv_tmap_time(&m, x + 1) -
					   sv_tmap_time(&m, x)) /
					   2;
			view_select_at_cursor(v);
			return SV_VIEW_REDRAW;
		}
		return 0;
	case SV_MOUSE_DRAG:
		if (v->drag_x >= 0 && x != v->drag_x && in_tl) {
			int64_t dt = sv_tmap_time(&m, v->drag_x) -
				     sv_tmap_time(&m, x);
			v->drag_x = x;
			view_pan(v, dt);
			return SV_VIEW_REDRAW;
		}
		return 0;
	case SV_MOUSE_RELEASE:
		v->drag_x = -1;
		return 0;
	case SV_MOUSE_WHEEL_UP:
	case SV_MOUSE_WHEEL_DOWN:
		if (in_panel) {
			v->panel_top +=
				sv_key_mouse_kind(key) == SV_MOUSE_WHEEL_UP ? -3
									    : 3;
			if (v->panel_top < 0)
				v->panel_top = 0;
			return SV_VIEW_REDRAW;
		}
		if (!in_tl)
			return 0;
		{
			int64_t t = sv_tmap_time(&m, x) +
				    (sv_tmap_time(&m, x + 1) -
					    sv_tmap_time(&m, x)) /
					    2;
			sv_i128 span = view_span(v);
			span = sv_key_mouse_kind(key) == SV_MOUSE_WHEEL_UP
				       ? span / 2
				       : span * 2;
			if (span > ((sv_i128)1 << 62))
				span = (sv_i128)1 << 62;
			view_push_history(v);
			view_zoom_at(v, t, x, (int64_t)span);
		}
		return SV_VIEW_REDRAW;
	}
	return 0;
}

/* ---- actions ------------------------------------------------------------- */

static int view_popup_open(struct sv_view *v, enum sv_popup which)
{
	if (which == SV_POPUP_SOURCE) {
		long r = -1;
		if (v->sel != SV_NO_CALL)
			r = (long)sv_call_region(v->p, v->sel);
		else if (v->panel_focus && v->stats_valid && v->stats.nregions)
			r = (long)v->stats.regions[v->panel_cur].region;
		else if (v->mark_region >= 0)
			r = v->mark_region;
		if (r < 0) {
			view_message(v, true,
				"select a call or a region to see its source");
			return SV_VIEW_REDRAW | SV_VIEW_BELL;
		}
		if (v->mark_region != r && v->sel == SV_NO_CALL)
			v->mark_region = r;
	}
	v->popup = which;
	v->popup_top = 0;
	return SV_VIEW_REDRAW;
}

int sv_view_apply(struct sv_view *v, int action)
{
	const struct sv_profile *p = v->p;
	int64_t span = view_span(v);

	v->message[0] = '\0';
	switch (action) {
	case SV_ACTION_MOVE_LEFT:
		return view_move_col(v, -1);
	case SV_ACTION_MOVE_RIGHT:
		return view_move_col(v, 1);
	case SV_ACTION_MOVE_UP:
		return view_move_row(v, -1);
	case SV_ACTION_MOVE_DOWN:
		return view_move_row(v, 1);
	case SV_ACTION_PAGE_UP:
		return view_move_row(
			v, -(long)(v->geom.lanes_h > 1 ? v->geom.lanes_h : 1));
	case SV_ACTION_PAGE_DOWN:
		return view_move_row(
			v, (long)(v->geom.lanes_h > 1 ? v->geom.lanes_h : 1));
	case SV_ACTION_ZOOM_IN:
		return view_zoom(v, 1, 2);
	case SV_ACTION_ZOOM_OUT:
		return view_zoom(v, 2, 1);
	case SV_ACTION_PAN_LEFT:
		view_pan(v, -(span / 4 > 0 ? span / 4 : 1));
		return SV_VIEW_REDRAW;
	case SV_ACTION_PAN_RIGHT:
		view_pan(v, span / 4 > 0 ? span / 4 : 1);
		return SV_VIEW_REDRAW;
	case SV_ACTION_GO_START:
		view_pan(v, v->run_t0 - v->t0);
		v->cur_t = v->t0;
		view_select_at_cursor(v);
		return SV_VIEW_REDRAW;
	case SV_ACTION_GO_END:
		view_pan(v, v->run_t1 - v->t1);
		v->cur_t = v->t1 - 1;
		view_select_at_cursor(v);
		return SV_VIEW_REDRAW;
	case SV_ACTION_ZOOM_CALL:
		return view_zoom_call(v);
	case SV_ACTION_ZOOM_FIT:
		view_push_history(v);
		view_fit(v);
		if (v->cur_t < v->t0 || v->cur_t >= v->t1)
			v->cur_t = v->t0;
		return SV_VIEW_REDRAW;
	case SV_ACTION_ZOOM_BACK:
		if (!v->nhistory) {
			view_message(v, false, "no earlier zoom");
			return SV_VIEW_REDRAW | SV_VIEW_BELL;
		}
		v->nhistory--;
		view_set_window(v, v->history[v->nhistory].t0,
			v->history[v->nhistory].t1 -
				v->history[v->nhistory].t0);
		return SV_VIEW_REDRAW;
	case SV_ACTION_NEXT_CALL:
		return view_step_call(v, 1);
	case SV_ACTION_PREV_CALL:
		return view_step_call(v, -1);
	case SV_ACTION_PARENT:
		if (v->sel == SV_NO_CALL)
			return view_no_selection(v);
		{
			/* The nearest enclosing call the filter keeps. */
			uint32_t par = p->parent[v->sel];
			while (par != SV_NO_CALL && v->region_keep &&
				!v->region_keep[sv_call_region(p, par)])
				par = p->parent[par];
			return view_select_rel(v, par, "a top-level call");
		}
	case SV_ACTION_CHILD:
		if (v->sel == SV_NO_CALL)
			return view_no_selection(v);
		return view_select_rel(v,
			sv_layout_first_child(&v->index, v->sel),
			"no call inside this one");
	case SV_ACTION_LONGEST_CHILD:
		if (v->sel == SV_NO_CALL)
			return view_no_selection(v);
		return view_select_rel(v,
			sv_layout_longest_child(&v->index, v->sel),
			"no call inside this one");
	case SV_ACTION_NEXT_SIBLING:
	case SV_ACTION_PREV_SIBLING:
		if (v->sel == SV_NO_CALL)
			return view_no_selection(v);
		return view_select_rel(v,
			sv_layout_sibling(&v->index, v->sel,
				action == SV_ACTION_NEXT_SIBLING ? 1 : -1),
			"no more calls with the same parent");
	case SV_ACTION_SOLO_LANE:
		if (!p->has_calls || !p->nlanes)
			return SV_VIEW_BELL;
		if (v->solo_lane >= 0) {
			v->cur_lane = (uint32_t)v->solo_lane;
			v->solo_lane = -1;
		} else {
			v->solo_lane = (long)v->cur_lane;
			v->lane_collapsed[v->cur_lane] = false;
		}
		view_lanes_changed(v);
		return SV_VIEW_REDRAW;
	case SV_ACTION_COLLAPSE_LANE:
		if (!p->has_calls || !p->nlanes)
			return SV_VIEW_BELL;
		v->lane_collapsed[v->cur_lane] =
			!v->lane_collapsed[v->cur_lane];
		if (v->lane_collapsed[v->cur_lane]) {
			v->cur_depth = 0;
			if (v->sel != SV_NO_CALL && p->depth[v->sel] > 0 &&
				p->lane_of[v->sel] == v->cur_lane)
				v->sel = SV_NO_CALL;
		}
		sv_layout_rows_build(
			&v->rows, p, v->lane_hidden, v->lane_collapsed);
		view_fix_rows(v);
		return SV_VIEW_REDRAW;
	case SV_ACTION_COLLAPSE_ALL: {
		size_t l;
		bool any_open = false;
		if (!p->has_calls || !p->nlanes)
			return SV_VIEW_BELL;
		for (l = 0; l < p->nlanes; l++)
			if (!v->lane_collapsed[l] && p->lanes[l].depth_rows > 1)
				any_open = true;
		for (l = 0; l < p->nlanes; l++)
			v->lane_collapsed[l] = any_open;
		if (any_open) {
			v->cur_depth = 0;
			if (v->sel != SV_NO_CALL && p->depth[v->sel] > 0)
				v->sel = SV_NO_CALL;
		}
		sv_layout_rows_build(
			&v->rows, p, v->lane_hidden, v->lane_collapsed);
		view_fix_rows(v);
		return SV_VIEW_REDRAW;
	}
	case SV_ACTION_SEARCH:
		view_open_prompt(v, SV_PROMPT_SEARCH, "");
		return SV_VIEW_REDRAW;
	case SV_ACTION_SEARCH_NEXT:
	case SV_ACTION_SEARCH_PREV: {
		int dir = action == SV_ACTION_SEARCH_NEXT ? 1 : -1;
		if (v->region_match)
			return view_jump_list(v, v->matches, v->nmatches,
				&v->match_pos, dir, true);
		if (v->mark_region >= 0)
			return view_jump_list(v, v->marked, v->nmarked,
				&v->marked_pos, dir, false);
		view_message(v, false, "no search: press / to search");
		return SV_VIEW_REDRAW | SV_VIEW_BELL;
	}
	case SV_ACTION_FILTER:
		view_open_prompt(v, SV_PROMPT_FILTER, v->filter_spec);
		return SV_VIEW_REDRAW;
	case SV_ACTION_RANK_FILTER:
		view_open_prompt(v, SV_PROMPT_RANKS, v->rank_spec);
		return SV_VIEW_REDRAW;
	case SV_ACTION_COMMAND:
		view_open_prompt(v, SV_PROMPT_COMMAND, "");
		return SV_VIEW_REDRAW;
	case SV_ACTION_PANEL_FOCUS:
		if (!v->geom.panel_w) {
			view_message(v, false,
				"the summary panel is hidden (P shows it; it "
				"needs 100 columns)");
			return SV_VIEW_REDRAW | SV_VIEW_BELL;
		}
		v->panel_focus = !v->panel_focus;
		return SV_VIEW_REDRAW;
	case SV_ACTION_PANEL_TOGGLE:
		v->panel_shown = !v->panel_shown;
		if (!v->panel_shown)
			v->panel_focus = false;
		sv_view_resize(v, v->w, v->h);
		if (v->panel_shown && !v->geom.panel_w)
			view_message(v, false,
				"the summary panel needs 100 columns");
		return SV_VIEW_REDRAW;
	case SV_ACTION_SORT_PREV:
	case SV_ACTION_SORT_NEXT:
		v->sort_col = (v->sort_col +
				      (action == SV_ACTION_SORT_NEXT ? 1 : -1) +
				      SV_VIEW_COL_COUNT) %
			      SV_VIEW_COL_COUNT;
		if (v->stats_valid)
			sv_stats_table_sort(
				&v->stats, view_col_keys[v->sort_col]);
		v->panel_cur = 0;
		v->panel_top = 0;
		return SV_VIEW_REDRAW;
	case SV_ACTION_DETAILS:
		v->details_shown = !v->details_shown;
		sv_view_resize(v, v->w, v->h);
		return SV_VIEW_REDRAW;
	case SV_ACTION_SOURCE:
		return view_popup_open(v, SV_POPUP_SOURCE);
	case SV_ACTION_METADATA:
		return view_popup_open(v, SV_POPUP_METADATA);
	case SV_ACTION_WARNINGS:
		return view_popup_open(v, SV_POPUP_WARNINGS);
	case SV_ACTION_HELP:
		return view_popup_open(v, SV_POPUP_HELP);
	case SV_ACTION_RELOAD:
		view_message(v, false, "reloading");
		return SV_VIEW_REDRAW | SV_VIEW_RELOAD;
	case SV_ACTION_QUIT:
		return SV_VIEW_QUIT;
	default:
		return SV_VIEW_BELL;
	}
}

int sv_view_handle_key(struct sv_view *v, int key)
{
	int a, rc;

	if (!v || key == SV_KEY_NONE || key == SV_KEY_EOF)
		return 0;
	if (key == SV_KEY_RESIZE)
		return SV_VIEW_REDRAW;
	if (sv_key_is_mouse(key))
		return view_mouse(v, key);
	if (v->geom.too_small)
		return key == 'q' ? SV_VIEW_QUIT : 0;
	if (v->prompt != SV_PROMPT_NONE)
		return view_prompt_key(v, key);
	if (v->popup != SV_POPUP_NONE)
		return view_popup_key(v, key);
	if (v->panel_focus) {
		v->message[0] = '\0';
		rc = view_panel_key(v, key);
		if (rc >= 0) {
			if (v->panel_cur < v->panel_top)
				v->panel_top = v->panel_cur;
			return rc;
		}
	}
	a = sv_action_for_key(key);
	if (a == SV_ACTION_NONE)
		return SV_VIEW_BELL;
	return sv_view_apply(v, a);
}

bool sv_view_is_match(const struct sv_view *v, uint32_t c)
{
	uint32_t r;
	if (c == SV_NO_CALL || c >= v->p->ncalls)
		return false;
	r = sv_call_region(v->p, c);
	return (v->region_match && v->region_match[r]) ||
	       (long)r == v->mark_region;
}

bool sv_view_has_match(const struct sv_view *v, uint32_t lane, uint32_t depth,
	int64_t t0, int64_t t1)
{
	const struct sv_lod_level *lv;
	uint32_t lo, hi;

	if (!v->has_match_index)
		return false;
	lv = sv_layout_level(&v->match_index, lane, depth);
	if (!lv)
		return false;
	sv_layout_range(lv, t0, t1, &lo, &hi);
	return hi > lo;
}
