/*
 * overview.c: the overview strip (overview.h): the whole run's activity
 * on the lanes on display, one column at a time, and the window over it.
 * Invariants: the strip always maps the whole run, whatever the window;
 * a column with any call is never blank (at least the lowest eighth).
 * Nothing here allocates or knows about curses.
 */
#include "scopeview/overview.h"

#include "scopeview/mode.h"
#include "scopeview/render.h"

struct sv_tmap sv_overview_tmap(const struct sv_session *s, int x0, int w)
{
	struct sv_tmap m = {s->run_t0, s->run_t1, x0, w};
	if (m.t1 - m.t0 < w && w > 0)
		m.t1 = m.t0 + w;
	return m;
}

/* Columns whose activity is summed at once (a walk per lane each). */
#define OVERVIEW_CHUNK 256

/* The activity of columns [x, x + n) of m (n <= OVERVIEW_CHUNK) into
 * act, each the mean over the lanes on display of the share of the
 * column's range their depth-0 calls cover: each lane walked once left to
 * right (lod.h, sv_lod_cursor_range). */
static void overview_chunk(const struct sv_session *s, const struct sv_tmap *m,
	int x, int n, double *act)
{
	const struct sv_profile *p = s->p;
	size_t l, shown = 0;
	int i;

	for (i = 0; i < n; i++)
		act[i] = 0;
	if (!p->has_calls)
		return;
	for (l = 0; l < p->nlanes; l++) {
		const struct sv_lod_level *lv;
		struct sv_lod_cursor c;
		if (s->lane_hidden && s->lane_hidden[l])
			continue;
		shown++;
		lv = sv_lod_index_level(sv_session_index(s), l, 0);
		if (!lv)
			continue;
		sv_lod_cursor_init(&c, lv);
		for (i = 0; i < n; i++) {
			int64_t t0 = sv_tmap_time(m, x + i),
				t1 = sv_tmap_time(m, x + i + 1);
			uint32_t lo, hi;
			if (t1 <= t0)
				continue;
			sv_lod_cursor_range(&c, t0, t1, &lo, &hi);
			act[i] += (double)sv_lod_busy(lv, t0, t1, lo, hi) /
				  ((double)t1 - (double)t0);
		}
	}
	for (i = 0; i < n && shown; i++)
		act[i] /= (double)shown;
}

double sv_overview_activity(const struct sv_session *s, int64_t t0, int64_t t1)
{
	/* One column over [t0, t1): its walk is one search. */
	struct sv_tmap m = {t0, t1, 0, 1};
	double a;

	if (t1 <= t0)
		return 0;
	overview_chunk(s, &m, 0, 1, &a);
	return a;
}

void sv_overview_draw(struct sv_grid *g, const struct sv_session *s, int x0,
	int w, int y, int64_t t0, int64_t t1)
{
	/* Eighths: lower one eighth block .. full block. */
	static const uint32_t uni[8] = {
		0x2581, 0x2582, 0x2583, 0x2584, 0x2585, 0x2586, 0x2587, 0x2588};
	static const char ascii[8] = {'.', '.', ':', ':', '+', '+', '#', '#'};
	const struct sv_glyphs *gl = sv_render_glyphs(s->opts.ascii);
	struct sv_tmap m = sv_overview_tmap(s, x0, w);
	int x, wx0 = 0, wx1 = 0;
	double act[OVERVIEW_CHUNK];
	bool win;

	if (w < 1 || !sv_tmap_valid(&m))
		return;
	sv_grid_fill(g, 0, y, x0 - 1, y + 1, ' ', SV_STYLE_LABEL, 0);
	sv_grid_text(
		g, 1, y, x0 - 2, "overview", SV_STYLE_DIM, 0, gl->ellipsis);
	sv_grid_put(g, x0 - 1, y, gl->vline, SV_STYLE_BORDER, 0);
	win = sv_tmap_span(&m, t0, t1, &wx0, &wx1);
	for (x = x0; x < x0 + w; x++) {
		double a;
		bool in = win && x >= wx0 && x < wx1;
		if ((x - x0) % OVERVIEW_CHUNK == 0)
			overview_chunk(s, &m, x,
				x0 + w - x < OVERVIEW_CHUNK ? x0 + w - x
							    : OVERVIEW_CHUNK,
				act);
		a = act[(x - x0) % OVERVIEW_CHUNK];
		uint32_t ch = ' ';
		if (a > 0) {
			int k = (int)(a * 8);
			k = k < 0 ? 0 : k > 7 ? 7 : k;
			ch = s->opts.ascii ? (uint32_t)ascii[k] : uni[k];
		}
		if (in && ch == ' ')
			ch = gl->hline;
		sv_grid_put(g, x, y, ch,
			in ? SV_STYLE_PANEL_MARK : SV_STYLE_DIM, 0);
	}
	if (win && wx1 - wx0 >= 3) {
		sv_grid_put(g, wx0, y, '[', SV_STYLE_PANEL_MARK, 0);
		sv_grid_put(g, wx1 - 1, y, ']', SV_STYLE_PANEL_MARK, 0);
	}
}

int sv_overview_click(struct sv_timeline *v, int x)
{
	const struct sv_layout_geom *g = &v->geom;
	struct sv_tmap om = sv_overview_tmap(v->s, g->tl_x, g->tl_w);
	int64_t t = sv_tmap_time(&om, x) +
		    (sv_tmap_time(&om, x + 1) - sv_tmap_time(&om, x)) / 2,
		span = v->t1 - v->t0;

	sv_timeline_push_history(v);
	sv_timeline_set_window(v, t - span / 2, span);
	v->cur_t = t < v->t0 ? v->t0 : t >= v->t1 ? v->t1 - 1 : t;
	return SV_REACT_REDRAW;
}
