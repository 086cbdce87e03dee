/*
 * panel.c: the summary panel (panel.h): its columns, its keys, drawing.
 *
 * Which numeric columns fit: total, then exclusive, calls, average, p95
 * and imbalance as the width allows, the sort column always; region names
 * never squeezed below PANEL_NAME_MIN cells.  Nothing here knows about
 * curses or HDF5.
 */
#include "scopeview/panel.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/diff.h"
#include "scopeview/elide.h"
#include "scopeview/mode.h"
#include "scopeview/render.h"

#define PANEL_NUM_W    7
#define PANEL_NAME_MIN 17

static const enum sv_stats_key panel_col_keys[SV_PANEL_COL_COUNT] = {
#define PANEL_COL_KEY(id, title, key) [SV_PANEL_COL_##id] = key,
	SV_PANEL_COLS(PANEL_COL_KEY)
#undef PANEL_COL_KEY
};

enum sv_stats_key sv_panel_col_key(int col)
{
	if (col < 0 || col >= SV_PANEL_COL_COUNT)
		return SV_STATS_KEY_TOTAL;
	return panel_col_keys[col];
}

int sv_panel_key_col(enum sv_stats_key key)
{
	int c;
	for (c = 0; c < SV_PANEL_COL_COUNT; c++)
		if (panel_col_keys[c] == key)
			return c;
	return SV_PANEL_COL_TOTAL;
}

int sv_panel_col_by_name(const char *name)
{
	int c;
	for (c = 0; c < SV_PANEL_COL_COUNT; c++)
		if (!strcmp(sv_stats_key_name(panel_col_keys[c]), name))
			return c;
	return -1;
}

bool sv_panel_col_sorts(int col)
{
	return col >= 0 && col < SV_PANEL_COL_COUNT &&
	       sv_panel_key_col(panel_col_keys[col]) == col;
}

/* The orders < and > step through: the columns, then, with a second
 * run, the change of each region's total time (session.h's Δ sorts). */
#define PANEL_SORT_DELTA SV_PANEL_COL_COUNT
#define PANEL_SORT_PCT   (SV_PANEL_COL_COUNT + 1)
#define PANEL_NSORTS     (SV_PANEL_COL_COUNT + 2)
static const char *const panel_col_names[PANEL_NSORTS] = {
#define PANEL_COL_NAME(id, title, key) [SV_PANEL_COL_##id] = title,
	SV_PANEL_COLS(PANEL_COL_NAME)
#undef PANEL_COL_NAME
		[PANEL_SORT_DELTA] = "change (B - A)",
	[PANEL_SORT_PCT] = "change in percent",
};

/* The panel's order now, as one of the orders above. */
static int panel_sort_of(const struct sv_session *s)
{
	if (sv_session_sort_diff_kind(s) && sv_session_stats2(s))
		return sv_session_sort_diff_kind(s) == SV_SESSION_SORT_DELTA
			       ? PANEL_SORT_DELTA
			       : PANEL_SORT_PCT;
	return sv_panel_key_col(sv_session_sort_key(s));
}

/* Sort by order k (a column, or a change: the first column instead
 * without a second run); returns the order used. */
static int panel_sort_by(struct sv_session *s, int k)
{
	if (k >= SV_PANEL_COL_COUNT) {
		if (sv_session_sort_diff(s, k == PANEL_SORT_DELTA
						    ? SV_SESSION_SORT_DELTA
						    : SV_SESSION_SORT_PCT) == 0)
			return k;
		k = 0;
	}
	sv_session_sort(s, panel_col_keys[k]);
	return k;
}

/* The order after (dir > 0) or before k, a second run's only with one. */
static int panel_sort_step(const struct sv_session *s, int k, int dir)
{
	int n = s->p2 && sv_session_stats2(s) ? PANEL_NSORTS
					      : SV_PANEL_COL_COUNT;
	k = k < n ? k : n - 1;
	/* a column sorted as another (calls per rank) is stepped over */
	do
		k = (k + (dir > 0 ? 1 : -1) + n) % n;
	while (k < SV_PANEL_COL_COUNT && !sv_panel_col_sorts(k));
	return k;
}

static struct sv_panel *panel_of(const struct sv_list *l)
{
	return (struct sv_panel *)((char *)l - offsetof(struct sv_panel, list));
}

static int panel_enter(struct sv_mode *m, struct sv_list *l, long row)
{
	struct sv_panel *pn = panel_of(l);
	long r = sv_session_stats_region(m->s, row);
	if (r < 0 || !pn->mark)
		return SV_REACT_BELL;
	return pn->mark(m, r);
}

static bool panel_match(
	const struct sv_mode *m, const struct sv_list *l, long row)
{
	long r = sv_session_stats_region(m->s, row);
	(void)l;
	return r >= 0 && sv_session_search_region(m->s, (uint32_t)r);
}

static uint64_t panel_key(
	const struct sv_mode *m, const struct sv_list *l, long row)
{
	long r = sv_session_stats_region(m->s, row);
	(void)l;
	return r >= 0 ? (uint64_t)r : UINT64_MAX;
}

/* The session sorts the table, for every view that shows it. */
static int panel_sort(struct sv_mode *m, struct sv_list *l, int col, bool rev)
{
	int k;
	if (rev)
		return -1;
	/* The list steps over every order; the second run's are skipped
	 * without one. */
	if (col >= SV_PANEL_COL_COUNT && !(m->s->p2 && sv_session_stats2(m->s)))
		col = l->sort >= SV_PANEL_COL_COUNT - 1
			      ? 0
			      : SV_PANEL_COL_COUNT - 1;
	k = panel_sort_by(m->s, col);
	sv_list_set_rows(l, sv_session_stats_rows(m->s));
	return k;
}

static const struct sv_list_ops panel_list_ops = {
	.enter = panel_enter,
	.enter_help = "Mark the region and go through its calls, longest "
		      "first",
	.match = panel_match,
	.key = panel_key,
	.cols = panel_col_names,
	.ncols = PANEL_NSORTS,
	.sort = panel_sort,
};

void sv_panel_init(
	struct sv_panel *pn, int (*mark)(struct sv_mode *m, long region))
{
	memset(pn, 0, sizeof *pn);
	sv_list_init(&pn->list, &panel_list_ops, SV_PANEL_COL_TOTAL);
	pn->mark = mark;
}

void sv_panel_place(struct sv_panel *pn, const struct sv_panel_area *g)
{
	sv_list_place(&pn->list, g->x + 1, g->y + 2, g->w - 1, g->h - 2);
}

void sv_panel_clamp(struct sv_panel *pn, const struct sv_session *s)
{
	sv_list_set_rows(&pn->list, sv_session_stats_rows(s));
	pn->list.sort = panel_sort_of(s);
}

long sv_panel_region(const struct sv_panel *pn, const struct sv_session *s)
{
	return sv_session_stats_region(s, pn->list.cur);
}

/* h/l: the name column a step sideways, until the longest name's last
 * cells show. */
static int panel_scroll_names(
	struct sv_panel *pn, const struct sv_session *s, int dir)
{
	int longest = 0, x = pn->name_x + dir * SV_PANEL_NAME_STEP;
	size_t k;

	for (k = 0; k < (size_t)sv_session_stats_rows(s); k++) {
		int w = sv_grid_text_width(
			sv_session_stats(s)->regions[k].name, 1 << 20);
		if (w > longest)
			longest = w;
	}
	if (x > longest - SV_PANEL_NAME_STEP)
		x = longest - SV_PANEL_NAME_STEP;
	if (x < 0)
		x = 0;
	if (x == pn->name_x)
		return SV_REACT_BELL;
	pn->name_x = x;
	return SV_REACT_REDRAW;
}

/* Rows whose differs are worked out on the stack; more take the heap. */
#define PANEL_ROWS_STACK 128

/* The differ of each region row [top, bottom) against the others shown
 * (elide.h), once a frame: differ[r - top].  Returns differ, or heap
 * room the caller frees (differ != the result), or NULL when out of
 * memory (the names are then cut at the end). */
static size_t *panel_differs(
	const struct sv_session *s, long top, long bottom, size_t *differ)
{
	size_t n = bottom > top ? (size_t)(bottom - top) : 0, i, *out = differ;
	const char *names_room[PANEL_ROWS_STACK], **names = names_room;
	struct sv_elide_entry order_room[PANEL_ROWS_STACK], *order = order_room;
	void *heap = NULL;

	if (n > PANEL_ROWS_STACK) {
		heap = malloc(
			n * (sizeof *names + sizeof *order + sizeof *out));
		if (!heap)
			return NULL;
		out = heap;
		order = (struct sv_elide_entry *)(out + n);
		names = (const char **)(order + n);
	}
	for (i = 0; i < n; i++)
		names[i] = sv_session_stats(s)->regions[top + (long)i].name;
	sv_elide_differs(names, n, order, out);
	return out;
}

/* The name of row row fitted into w cells: scrolled sideways by name_x,
 * else cut where it still differs from the rows shown (differ: what
 * panel_differs gave it). */
static void panel_name(const struct sv_panel *pn, const char *name,
	size_t differ, int w, uint32_t ellipsis, char *out, size_t n)
{
	char ell[8];

	ell[sv_utf8_encode(ellipsis, ell)] = '\0';
	if (pn->name_x > 0) {
		snprintf(out, n, "%s%s", ell, sv_elide_skip(name, pn->name_x));
		return;
	}
	sv_elide(name, differ, w, ell, out, n);
}

int sv_panel_apply(
	struct sv_panel *pn, struct sv_session *s, int a, long *mark_region)
{
	switch (a) {
	case SV_ACTION_PANEL_MARK:
		if (sv_session_stats_region(s, pn->list.cur) < 0)
			return SV_REACT_BELL;
		*mark_region = sv_session_stats_region(s, pn->list.cur);
		return SV_PANEL_MARK;
	case SV_ACTION_PANEL_BACK:
		if (s->mark_region >= 0) {
			*mark_region = -1;
			return SV_PANEL_MARK | SV_REACT_REDRAW;
		}
		pn->focus = false;
		return SV_REACT_REDRAW;
	case SV_ACTION_PANEL_NAMES_LEFT:
	case SV_ACTION_PANEL_NAMES_RIGHT:
		return panel_scroll_names(
			pn, s, a == SV_ACTION_PANEL_NAMES_LEFT ? -1 : 1);
	case SV_ACTION_SORT_PREV:
	case SV_ACTION_SORT_NEXT: {
		int k = panel_sort_step(
			s, panel_sort_of(s), a == SV_ACTION_SORT_NEXT ? 1 : -1);
		panel_sort_by(s, k);
		sv_panel_clamp(pn, s);
		sv_list_set_cursor(NULL, &pn->list, 0);
		pn->list.top = 0;
		return SV_REACT_REDRAW;
	}
	default:
		return -1;
	}
}

long sv_panel_row_at(const struct sv_panel *pn, const struct sv_session *s,
	const struct sv_panel_area *g, int x, int y)
{
	long row;
	if (!g->w || x <= g->x || y < g->y + 2 || y >= g->y + g->h ||
		!sv_session_stats(s))
		return -1;
	row = pn->list.top + (y - g->y - 2);
	return row < sv_session_stats_rows(s) ? row : -1;
}

static const char *const panel_titles[SV_PANEL_COL_COUNT] = {
#define PANEL_TITLE(id, title, key) [SV_PANEL_COL_##id] = title,
	SV_PANEL_COLS(PANEL_TITLE)
#undef PANEL_TITLE
};

/* Calls per rank that has calls of the region: its mean, "976",
 * "35.9k", "1.20M". */
static void panel_per_rank(
	const struct sv_stats_region *sr, char *buf, size_t n)
{
	size_t r, with = 0;
	double v;

	for (r = 0; r < sr->nranks; r++)
		with += sr->ranks[r].s.num_calls > 0;
	if (!with) {
		snprintf(buf, n, "-");
		return;
	}
	v = (double)sr->s.num_calls / (double)with;
	if (v >= 999.5e3)
		snprintf(buf, n, "%.3gM", v / 1e6);
	else if (v >= 999.5)
		snprintf(buf, n, "%.3gk", v / 1e3);
	else
		snprintf(buf, n, "%.0f", v);
}

static void panel_value(
	const struct sv_stats_region *sr, int col, char *buf, size_t n)
{
	const struct sv_stats *s = &sr->s;
	switch (col) {
	case SV_PANEL_COL_CALLS:
		/* Exact up to six digits, then millions with three
		 * significant digits ("1.33M", not "1333k"). */
		if (s->num_calls >= 1000000) {
			double m = (double)s->num_calls / 1e6;
			snprintf(buf, n, "%.*fM",
				m >= 99.95   ? 0
				: m >= 9.995 ? 1
					     : 2,
				m);
		} else
			snprintf(buf, n, "%" PRIu64, s->num_calls);
		return;
	case SV_PANEL_COL_TOTAL:
		sv_render_short(s->total_ns, buf, n);
		return;
	case SV_PANEL_COL_EXCL:
		if (s->has_exclusive)
			sv_render_short(s->exclusive_ns, buf, n);
		else
			snprintf(buf, n, "-");
		return;
	case SV_PANEL_COL_AVG:
		if (s->has_dist)
			sv_render_short(sv_i64_sat(s->mean_ns + 0.5), buf, n);
		else
			snprintf(buf, n, "-");
		return;
	case SV_PANEL_COL_P95:
	case SV_PANEL_COL_P50:
	case SV_PANEL_COL_P99:
		if (s->has_percentiles)
			sv_render_short(
				sv_i64_sat((col == SV_PANEL_COL_P50 ? s->p50_ns
						   : col == SV_PANEL_COL_P95
							   ? s->p95_ns
							   : s->p99_ns) +
					   0.5),
				buf, n);
		else
			snprintf(buf, n, "-");
		return;
	case SV_PANEL_COL_MIN:
	case SV_PANEL_COL_MAX:
		if (s->has_dist)
			sv_render_short(
				col == SV_PANEL_COL_MIN ? s->min_ns : s->max_ns,
				buf, n);
		else
			snprintf(buf, n, "-");
		return;
	case SV_PANEL_COL_STD:
		if (s->has_std)
			sv_render_short(sv_i64_sat(s->std_ns + 0.5), buf, n);
		else
			snprintf(buf, n, "-");
		return;
	case SV_PANEL_COL_CPR:
		panel_per_rank(sr, buf, n);
		return;
	case SV_PANEL_COL_IMB:
		snprintf(buf, n, "%.0f%%", sr->rank_imbalance_pct);
		return;
	default:
		buf[0] = '\0';
	}
}

/* With a second run: the column compared (the sort column when it is a
 * figure, else total). */
static int panel_diff_col(int sort_col)
{
	if (sort_col > SV_PANEL_COL_NAME &&
		sv_diff_metric_of_key(sv_panel_col_key(sort_col)) >= 0)
		return sort_col;
	return SV_PANEL_COL_TOTAL;
}

/* The second run's cells of row sr: B's figure of column col and the
 * change in percent, with the change's style. */
static void panel_second_cells(const struct sv_session *s,
	const struct sv_stats_region *sr, int col, char *b, char *d, size_t n,
	int *style)
{
	const struct sv_stats_region *rb = sv_session_second_of(s, sr->region);
	int m = sv_diff_metric_of_key(sv_panel_col_key(col));
	double va = 0, vb = 0;
	bool ha = sv_diff_value(sr, m, &va), hb = sv_diff_value(rb, m, &vb);

	if (rb)
		panel_value(rb, col, b, n);
	else
		snprintf(b, n, "-");
	*style = sv_grid_diff_style(sv_diff_level(ha, va, hb, vb));
	if (!rb)
		snprintf(d, n, "gone");
	else if (!ha || !hb)
		snprintf(d, n, "-");
	else if (va == 0)
		snprintf(d, n, vb == 0 ? "0%%" : "new");
	else if (fabs((vb - va) / va * 100.0) < 0.5)
		snprintf(d, n, "0%%");
	else
		snprintf(d, n, "%+.0f%%", (vb - va) / va * 100.0);
}

/* A rank subset's cells of row sr: the whole run's figure of column col
 * (stored statistics of every rank) and the subset's share of it, for
 * the columns that add up across ranks (calls, total, exclusive). */
static void panel_run_cells(const struct sv_session *s,
	const struct sv_stats_region *sr, int col, char *b, char *d, size_t n)
{
	const struct sv_stats_region *rr = sv_session_run_of(s, sr->region);
	int m = sv_diff_metric_of_key(sv_panel_col_key(col));
	double va = 0, vb = 0;
	bool sums = col == SV_PANEL_COL_CALLS || col == SV_PANEL_COL_TOTAL ||
		    col == SV_PANEL_COL_EXCL;

	if (rr)
		panel_value(rr, col, b, n);
	else
		snprintf(b, n, "-");
	if (!sums || !sv_diff_value(sr, m, &va) || !sv_diff_value(rr, m, &vb) ||
		vb <= 0)
		snprintf(d, n, "-");
	else if (va > 0 && va * 100.0 < vb)
		snprintf(d, n, "<1%%");
	else
		snprintf(d, n, "%.0f%%", va / vb * 100.0);
}

/* Where the rows of regions only in the second run go: n rows from
 * screen row y, the columns as the first run's rows have them. */
struct panel_rows {
	int x0, y, w, name_w, nshown, dcol, n;
	uint32_t ellipsis, bar;
};

/* A right-aligned cell of at most PANEL_NUM_W - 1 cells ending at x. */
static void panel_cell(
	struct sv_grid *gr, int x, int y, const char *text, int style)
{
	int tw = (int)strlen(text);
	if (tw > PANEL_NUM_W - 1)
		tw = PANEL_NUM_W - 1;
	sv_grid_text(gr, x - tw, y, tw, text, style, 0, 0);
}

/* After the first run's rows, the regions only the second run has: its
 * colour and name, "-" in the first run's columns, its figure of the
 * compared column, "new" as the change. */
static void panel_only_in_b(struct sv_grid *gr, const struct sv_session *s,
	const struct panel_rows *pr)
{
	size_t i, nonly2;
	const size_t *only2 = sv_session_only2(s, &nonly2);
	int j;

	for (i = 0; i < nonly2 && (int)i < pr->n; i++) {
		const struct sv_stats_region *rb =
			&sv_session_stats2(s)->regions[only2[i]];
		int y = pr->y + (int)i,
		    cx = pr->x0 + pr->name_w + pr->nshown * PANEL_NUM_W;
		char b[16];
		sv_grid_put(gr, pr->x0, y, pr->bar, SV_STYLE_SPAN,
			sv_session_region2_color(s, rb->region));
		sv_grid_text(gr, pr->x0 + 1, y, pr->name_w - 2, rb->name,
			SV_STYLE_PANEL, 0, pr->ellipsis);
		for (j = 0; j < pr->nshown; j++)
			panel_cell(gr,
				pr->x0 + pr->name_w + (j + 1) * PANEL_NUM_W, y,
				"-", SV_STYLE_DIM);
		panel_value(rb, pr->dcol, b, sizeof b);
		panel_cell(gr, cx + PANEL_NUM_W, y, b, SV_STYLE_PANEL);
		panel_cell(gr, cx + 2 * PANEL_NUM_W, y, "new",
			sv_grid_diff_style(sv_diff_level(false, 0, true, 1)));
	}
}

void sv_panel_draw(struct sv_grid *gr, const struct sv_panel *pn,
	const struct sv_session *s, const struct sv_panel_area *g)
{
	const struct sv_stats_table *st = sv_session_stats(s);
	size_t nonly2;
	const struct sv_profile *p = s->p;
	const struct sv_glyphs *gl = sv_render_glyphs(g->ascii);
	int x0 = g->x + 1, w = g->w - 1, name_w, name_min, ncols, i, y,
	    cols[SV_PANEL_COL_COUNT], nshown = 0, extra, dcol;
	/* Numeric columns in the order they are dropped last to first. */
	static const int priority[] = {SV_PANEL_COL_TOTAL, SV_PANEL_COL_EXCL,
		SV_PANEL_COL_CALLS, SV_PANEL_COL_AVG, SV_PANEL_COL_P95,
		SV_PANEL_COL_IMB, SV_PANEL_COL_P50, SV_PANEL_COL_P99,
		SV_PANEL_COL_MIN, SV_PANEL_COL_MAX, SV_PANEL_COL_STD,
		SV_PANEL_COL_CPR};
	const int npri = (int)(sizeof priority / sizeof priority[0]);
	int want_name = 0;
	long sel_region =
		s->sel != SV_NO_CALL ? (long)sv_call_region(p, s->sel) : -1;
	long top, row, visible, bottom;
	char buf[64], name[1024];
	size_t differ_room[PANEL_ROWS_STACK], *differ;
	const char *scope;
	/* Sorted by a change: no column of A's is the order (-1). */
	int sort_col = panel_sort_of(s) >= SV_PANEL_COL_COUNT
			       ? -1
			       : sv_panel_key_col(sv_session_sort_key(s));
	bool whole;
	/* The sort column's mark: a down arrow ("total▼"), "*" in ASCII. */
	const char *sortmark = gl->ascii ? "*" : "\xe2\x96\xbc";

	if (!g->w)
		return;
	sv_grid_fill(gr, g->x, g->y, g->x + g->w, g->y + g->h, ' ',
		SV_STYLE_PANEL, 0);
	for (y = g->y; y < g->y + g->h; y++)
		sv_grid_put(gr, g->x, y, gl->vline, SV_STYLE_BORDER, 0);
	/* Numbers never squeeze a region's name below PANEL_NAME_MIN cells:
	 * names are what the panel is read by ("mpi:wait kind=w…" four times
	 * over tells nothing). */
	name_min = PANEL_NAME_MIN;
	if (st) {
		size_t longest = 0, k;
		for (k = 0; k < st->nregions && longest < PANEL_NAME_MIN; k++) {
			size_t len = strlen(st->regions[k].name);
			if (len > longest)
				longest = len;
		}
		if ((int)longest + 3 < name_min)
			name_min = (int)longest + 3;
		/* The statistics screen: room for the longest name whole. */
		for (k = 0; pn->full && k < st->nregions; k++) {
			int tw = sv_grid_text_width(st->regions[k].name, 4096) +
				 3;
			if (tw > want_name)
				want_name = tw;
		}
	}
	/* A second run takes two columns: its figure and the change; else
	 * a rank subset's whole run: its figure and the subset's share. */
	whole = !sv_session_stats2(s) && sv_session_stats_run(s);
	extra = sv_session_stats2(s) || whole ? 2 : 0;
	if (extra && w - 1 - name_min < 2 * PANEL_NUM_W)
		extra = 0;
	ncols = (w - 1 - name_min) / PANEL_NUM_W - extra;
	if (ncols > 6)
		ncols = 6;
	/* The statistics screen adds columns while every name stays whole
	 * (six always, when they fit). */
	if (pn->full && (w - 1 - want_name) / PANEL_NUM_W - extra > ncols)
		ncols = (w - 1 - want_name) / PANEL_NUM_W - extra;
	if (ncols > npri)
		ncols = npri;
	if (ncols < 0)
		ncols = 0;
	for (i = 0; i < npri && nshown < ncols; i++)
		if (!s->panel_cols || (s->panel_cols & (1u << priority[i])))
			cols[nshown++] = priority[i];
	/* Show the sort column even when it would be dropped: beside the
	 * columns asked for while there is room, else in the last one's
	 * place. */
	if (sort_col > SV_PANEL_COL_NAME && ncols > 0) {
		bool in = false;
		for (i = 0; i < nshown; i++)
			in = in || cols[i] == sort_col;
		if (!in && nshown < ncols)
			cols[nshown++] = sort_col;
		else if (!in)
			cols[nshown - 1] = sort_col;
	}
	/* Display in table order. */
	for (i = 1; i < nshown; i++) {
		int k = cols[i], j = i;
		while (j > 0 && cols[j - 1] > k) {
			cols[j] = cols[j - 1];
			j--;
		}
		cols[j] = k;
	}
	name_w = w - (nshown + extra) * PANEL_NUM_W - 1;
	/* Every column shown and room to spare: the numbers stay near the
	 * names. */
	if (pn->full && nshown == npri && want_name > name_min &&
		name_w > want_name)
		name_w = want_name;
	dcol = panel_diff_col(sort_col);
	{
		char title[512], span[160], other[96];
		scope = s->solo_lane >= 0 && p->lanes[s->solo_lane].label
				? p->lanes[s->solo_lane].label
			: s->rank_spec[0] ? s->rank_spec
					  : "all lanes";
		sv_session_span_text(s, span, sizeof span);
		if (extra && whole)
			snprintf(other, sizeof other,
				", run: %" PRIu32 " ranks",
				sv_session_stats_run(s)->num_ranks);
		else if (extra)
			snprintf(other, sizeof other, ", B: %s",
				sv_session_name2(s));
		else
			other[0] = '\0';
		int tw = pn->focus && !pn->full ? w - 8 : w;
		snprintf(title, sizeof title, "Regions (%zu) %s%s%s%s%s%s",
			st ? st->nregions : 0,
			s->solo_lane < 0 && s->rank_spec[0] ? "ranks " : "",
			scope, sv_session_filter_spec(s)[0] ? ", filtered" : "",
			sv_session_span(s) != SV_SPAN_RUN ||
					sv_session_stats_busy(s)
				? ", "
				: "",
			sv_session_span(s) != SV_SPAN_RUN ||
					sv_session_stats_busy(s)
				? span
				: "",
			other);
		/* Too long: the least telling parts go first, the span's
		 * "(calls clipped)", then the second run's name. */
		sv_elide_drop(title, " (calls clipped)", tw);
		sv_elide_drop(title, other, tw);
		sv_grid_text(gr, x0, g->y, tw, title, SV_STYLE_PANEL_HEAD, 0,
			gl->ellipsis);
	}
	if (pn->focus && !pn->full)
		sv_grid_text(gr, x0 + w - 7, g->y, 7, "[focus]",
			SV_STYLE_PROMPT, 0, 0);
	y = g->y + 1;
	sv_grid_fill(gr, x0, y, x0 + w, y + 1, ' ', SV_STYLE_PANEL_HEAD, 0);
	sv_grid_textf(gr, x0 + 1, y, name_w - 1, SV_STYLE_PANEL_HEAD, 0, "%s%s",
		panel_titles[SV_PANEL_COL_NAME],
		sort_col == SV_PANEL_COL_NAME ? sortmark : "");
	for (i = 0; i < nshown; i++) {
		int cx = x0 + name_w + i * PANEL_NUM_W, tw;
		snprintf(buf, sizeof buf, "%s%s", panel_titles[cols[i]],
			cols[i] == sort_col ? sortmark : "");
		tw = sv_grid_text_width(buf, PANEL_NUM_W);
		sv_grid_text(gr, cx + PANEL_NUM_W - tw, y, tw, buf,
			SV_STYLE_PANEL_HEAD, 0, 0);
	}
	if (extra) {
		int cx = x0 + name_w + nshown * PANEL_NUM_W;
		if (whole) {
			sv_grid_text(gr, cx + PANEL_NUM_W - 3, y, 3, "run",
				SV_STYLE_PANEL_HEAD, 0, 0);
			sv_grid_text(gr, cx + 2 * PANEL_NUM_W - 5, y, 5,
				"share", SV_STYLE_PANEL_HEAD, 0, 0);
		} else {
			int k = panel_sort_of(s), hw;
			sv_grid_text(gr, cx + PANEL_NUM_W - 1, y, 1, "B",
				SV_STYLE_PANEL_HEAD, 0, 0);
			/* Δ% (▼ when sorted by it), Δ▼ when sorted by the
			 * change in ns */
			const char *lab =
				k == PANEL_SORT_DELTA
					? (gl->ascii ? "chg" : "\xce\x94")
					: (gl->ascii ? "chg%" : "\xce\x94%");
			/* the label ends over the rows' % sign, the mark
			 * after it */
			hw = sv_grid_text_width(lab, PANEL_NUM_W);
			snprintf(buf, sizeof buf, "%s%s", lab,
				k >= SV_PANEL_COL_COUNT ? sortmark : "");
			sv_grid_text(gr, cx + 2 * PANEL_NUM_W - 2 - hw, y,
				hw + 2, buf, SV_STYLE_PANEL_HEAD, 0, 0);
		}
	}
	if (!st)
		return;
	visible = g->h - 2;
	if (visible < 1)
		return;
	top = pn->list.top;
	/* At the last row, the regions only in the second run come into
	 * view below it. */
	sv_session_only2(s, &nonly2);
	if (extra && nonly2 && pn->list.cur == (long)st->nregions - 1) {
		long want = (long)(st->nregions + nonly2) - visible;
		top = want > pn->list.cur ? pn->list.cur
		      : want > top        ? want
					  : top;
	}
	if (top > (long)(st->nregions + (extra ? nonly2 : 0)) - visible)
		top = (long)(st->nregions + (extra ? nonly2 : 0)) - visible;
	if (top < 0)
		top = 0;
	bottom = top + visible < (long)st->nregions ? top + visible
						    : (long)st->nregions;
	differ = pn->name_x > 0 ? NULL
				: panel_differs(s, top, bottom, differ_room);
	for (row = top; row < bottom; row++) {
		const struct sv_stats_region *sr = &st->regions[row];
		int style = SV_STYLE_PANEL, j;
		y = g->y + 2 + (int)(row - top);
		if ((pn->focus || pn->full) && row == pn->list.cur)
			style = SV_STYLE_PANEL_CURSOR;
		else if ((long)sr->region == sel_region ||
			 (long)sr->region == s->mark_region)
			style = SV_STYLE_PANEL_MARK;
		sv_grid_fill(gr, x0, y, x0 + w, y + 1, ' ', style, 0);
		sv_grid_put(gr, x0, y, gl->bar, SV_STYLE_SPAN,
			sv_session_region_color(s, sr->region));
		panel_name(pn, sr->name, differ ? differ[row - top] : 0,
			name_w - 2, gl->ellipsis, name, sizeof name);
		sv_grid_text(gr, x0 + 1, y, name_w - 2, name, style, 0,
			gl->ellipsis);
		for (j = 0; j < nshown; j++) {
			int cx = x0 + name_w + j * PANEL_NUM_W, tw;
			panel_value(sr, cols[j], buf, sizeof buf);
			tw = (int)strlen(buf);
			if (tw > PANEL_NUM_W - 1)
				tw = PANEL_NUM_W - 1;
			sv_grid_text(gr, cx + PANEL_NUM_W - tw, y, tw, buf,
				style, 0, 0);
		}
		if (extra) {
			char b[16], d[16];
			int cx = x0 + name_w + nshown * PANEL_NUM_W,
			    ds = SV_STYLE_PANEL, tw;
			if (whole)
				panel_run_cells(s, sr, dcol, b, d, sizeof b);
			else
				panel_second_cells(
					s, sr, dcol, b, d, sizeof b, &ds);
			tw = (int)strlen(b);
			if (tw > PANEL_NUM_W - 1)
				tw = PANEL_NUM_W - 1;
			sv_grid_text(gr, cx + PANEL_NUM_W - tw, y, tw, b, style,
				0, 0);
			tw = (int)strlen(d);
			if (tw > PANEL_NUM_W - 1)
				tw = PANEL_NUM_W - 1;
			sv_grid_text(gr, cx + 2 * PANEL_NUM_W - tw, y, tw, d,
				style == SV_STYLE_PANEL ? ds : style, 0, 0);
		}
	}
	if (differ != differ_room)
		free(differ);
	if (extra && !whole && row < top + visible)
		panel_only_in_b(gr, s,
			&(struct panel_rows){.x0 = x0,
				.y = g->y + 2 + (int)(row - top),
				.w = w,
				.name_w = name_w,
				.nshown = nshown,
				.dcol = dcol,
				.n = (int)(top + visible - row),
				.ellipsis = gl->ellipsis,
				.bar = gl->bar});
	else if (!st->nregions)
		sv_grid_text(gr, x0 + 1, g->y + 2, w - 2,
			"no region on the lanes shown", SV_STYLE_DIM, 0, 0);
}
