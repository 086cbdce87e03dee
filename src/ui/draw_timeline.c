/*
 * draw_timeline.c: draw the timeline mode (timeline.h).
 *
 * Areas, top to bottom: the time ruler (two rows), the lanes (a label
 * column, then the timeline), the details of the selected call, the status
 * line (its text and hints: sv_timeline_status; the viewer draws it); the
 * summary panel (panel.h) on the right when there is room.
 * Invariants: a frame allocates nothing once the grid has its size; the
 * timeline walks each visible row with sv_layout_row_next(), so its cost
 * follows the screen, not the profile; nothing drawn depends on the clock.
 * Nothing here knows about curses, HDF5 or the loader.
 */
#include "scopeview/fmt.h"
#include "scopeview/timeline.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scopeview/callmeta.h"
#include "scopeview/counters.h"
#include "scopeview/overview.h"
#include "scopeview/render.h"
#include "scopeview/view.h"

struct render_ctx {
	struct sv_grid *g;
	const struct sv_timeline *v;
	const struct sv_session *s;
	const struct sv_profile *p;
	const struct sv_layout_geom *geom;
	const struct sv_glyphs *gl;
};

/* The round step (1, 2 or 5 times a power of ten, ns) giving a tick about
 * every 11 columns or more. */
static int64_t ruler_pick_step(int64_t span, int cols)
{
	sv_i128 target = (sv_i128)span * 11 / (cols > 0 ? cols : 1);
	int64_t p10 = 1;

	for (;;) {
		static const int mult[] = {1, 2, 5};
		int i;
		for (i = 0; i < 3; i++)
			if ((sv_i128)p10 * mult[i] >= target)
				return p10 * mult[i];
		if (p10 > INT64_MAX / 100)
			return p10 * 10;
		p10 *= 10;
	}
}

/* The unit of every label on the ruler: the largest unit in which the
 * window's far end (relative to the origin) is at least 1, so that labels
 * read "5.3ms 5.4ms", never "5300us 5400us". */
static int64_t ruler_unit(int64_t far, int64_t step)
{
	int64_t a = far < 0 ? -far : far;
	if (a < step)
		a = step;
	return a >= 1000000000 ? 1000000000
	       : a >= 1000000  ? 1000000
	       : a >= 1000     ? 1000
			       : 1;
}

/* A tick label in the ruler's unit, with as many decimals as the step
 * needs (a step of 100 us in ms: one decimal). */
static void ruler_label(
	int64_t rel, int64_t step, int64_t div, char *buf, size_t n)
{
	const char *unit = div == 1000000000 ? "s"
			   : div == 1000000  ? "ms"
			   : div == 1000     ? "us"
					     : "ns";
	int dec = 0;
	int64_t q = div, whole, frac, p10 = 1, i;

	while (q > 1 && step % q != 0) {
		q /= 10;
		dec++;
	}
	for (i = 0; i < dec; i++)
		p10 *= 10;
	whole = rel / div;
	frac = (rel < 0 ? -rel : rel) % div / (div / p10);
	if (dec) {
		char digits[12];
		for (i = dec; i > 0; i--) {
			digits[i - 1] = (char)('0' + frac % 10);
			frac /= 10;
		}
		digits[dec] = '\0';
		snprintf(buf, n, "%s%" PRId64 ".%s%s",
			rel < 0 && whole == 0 ? "-" : "", whole, digits, unit);
	} else
		snprintf(buf, n, "%" PRId64 "%s", whole, unit);
}

static void render_ruler(struct render_ctx *r)
{
	const struct sv_timeline *v = r->v;
	const struct sv_layout_geom *g = r->geom;
	struct sv_tmap m = sv_timeline_tmap(v);
	int64_t step = ruler_pick_step(v->t1 - v->t0, g->tl_w);
	int64_t unit = ruler_unit(v->t1 - v->s->origin, step), base = 0;
	/* Ticks finer than a thousandth of the unit would need long labels:
	 * the first labelled tick gets its exact time in ns, the others
	 * their offset from it. */
	bool fine = (sv_i128)step * 1000 < unit, have_base = false;
	sv_i128 rel0 = (sv_i128)v->t0 - v->s->origin, k;
	int last_end = g->tl_x, x, cx, label_end = m.x0 + m.w;
	char buf[48], span[32];

	sv_grid_fill(r->g, 0, g->ruler_y, g->tl_x + g->tl_w, g->ruler_y + 2,
		' ', SV_STYLE_RULER, 0);
	sv_grid_fill(r->g, g->tl_x, g->ruler_y + 1, g->tl_x + g->tl_w,
		g->ruler_y + 2, r->gl->hline, SV_STYLE_RULER, 0);
	sv_fmt_dur(v->t1 - v->t0, span, sizeof span);
	/* "span 72.5 ms", or just "72.5 ms" when the label column is narrow. */
	sv_grid_textf(r->g, 0, g->ruler_y, g->label_w - 1, SV_STYLE_RULER, 0,
		"%s%s", (int)strlen(span) + 5 <= g->label_w - 1 ? "span " : "",
		span);
	sv_grid_text(r->g, 0, g->ruler_y + 1, g->label_w - 1,
		v->s->p->has_start_time ? "t=0: run start" : "t=0: first call",
		SV_STYLE_DIM, 0, r->gl->ellipsis);
	if ((long)v->rows.n > g->lanes_h && g->lanes_h > 0) {
		/* Where the lane area is in the rows: "rows 5-20 of 64". */
		char rows[64];
		int w;
		snprintf(rows, sizeof rows, " rows %ld-%ld of %zu",
			v->top_row + 1,
			v->top_row + g->lanes_h < (long)v->rows.n
				? v->top_row + g->lanes_h
				: (long)v->rows.n,
			v->rows.n);
		w = (int)strlen(rows);
		if (w < g->tl_w / 2) {
			label_end = m.x0 + m.w - w;
			sv_grid_text(r->g, label_end, g->ruler_y, w, rows,
				SV_STYLE_DIM, 0, 0);
		}
	}
	/* First multiple of step at or after t0 (floor division). */
	k = rel0 / step;
	if (k * step < rel0)
		k++;
	for (; (sv_i128)v->s->origin + k * step < v->t1; k++) {
		int64_t t = (int64_t)((sv_i128)v->s->origin + k * step);
		int w;
		x = sv_tmap_col(&m, t);
		if (x < m.x0 || x >= m.x0 + m.w)
			continue;
		sv_grid_put(r->g, x, g->ruler_y + 1, r->gl->tick,
			SV_STYLE_RULER, 0);
		if (fine && have_base) {
			/* Deep zoom: "+20ns" from the first labelled tick,
			 * not "5.00002ms". */
			int64_t off = (int64_t)(k * step) - base;
			buf[0] = '+';
			ruler_label(off, step, ruler_unit(off, step), buf + 1,
				sizeof buf - 1);
		} else if (fine)
			sv_render_ns((int64_t)(k * step), buf, sizeof buf);
		else
			ruler_label((int64_t)(k * step), step, unit, buf,
				sizeof buf);
		w = (int)strlen(buf);
		if (x >= last_end && x + w < label_end) {
			sv_grid_text(r->g, x, g->ruler_y, w, buf,
				SV_STYLE_RULER, 0, 0);
			last_end = x + w + 1;
			if (fine && !have_base) {
				base = (int64_t)(k * step);
				have_base = true;
			}
		}
	}
	/* The cursor's column. */
	cx = sv_tmap_col(&m, v->cur_t);
	if (cx >= m.x0 && cx < m.x0 + m.w)
		sv_grid_put(r->g, cx, g->ruler_y + 1, r->gl->sortmark,
			SV_STYLE_CURSOR, 0);
}

/* t relative to origin, exactly, or "out of range" when the difference
 * leaves int64 (times near INT64_MIN and INT64_MAX). */
static char *details_rel(int64_t t, int64_t origin, char *buf, size_t n)
{
	int64_t rel;
	if (__builtin_sub_overflow(t, origin, &rel)) {
		snprintf(buf, n, "out of range");
		return buf;
	}
	return sv_render_exact(rel, true, buf, n);
}

/* A folded rank's label: the folded mark, "B" for the second run's, the
 * rank and how many lanes the track holds. */
static void render_fold_label(
	struct render_ctx *r, const struct sv_layout_row *lr, int y, int style)
{
	const struct sv_timeline *v = r->v;
	const struct sv_profile *p = sv_timeline_src(v, lr->run).p;
	const bool *hidden =
		lr->run ? sv_session_lane2_hidden(v->s) : v->s->lane_hidden;
	int x = 1, w = r->geom->label_w - 2;
	uint32_t l, n = 0;

	for (l = lr->lane; l < lr->lane_end; l++)
		n += !hidden || !hidden[l];
	sv_grid_put(r->g, 0, y, r->gl->collapsed, style, 0);
	if (lr->run && w >= 3) {
		sv_grid_put(r->g, x, y, 'B',
			style == SV_STYLE_LABEL_CURSOR ? style
						       : SV_STYLE_PANEL_MARK,
			0);
		x += 2;
		w -= 2;
	}
	if (n > 1)
		sv_grid_textf(r->g, x, y, w, style, 0,
			"r%" PRIu32 " %" PRIu32 " lanes",
			p->lanes[lr->lane].rank, n);
	else
		sv_grid_text(r->g, x, y, w,
			p->lanes[lr->lane].label ? p->lanes[lr->lane].label
						 : "?",
			style, 0, r->gl->ellipsis);
}

static void render_lanes(struct render_ctx *r)
{
	const struct sv_timeline *v = r->v;
	const struct sv_profile *p = r->p;
	const struct sv_layout_geom *g = r->geom;
	struct sv_tmap m = sv_timeline_tmap(v);
	long i, cur_row = sv_timeline_cursor_row(v);
	int cx = sv_tmap_col(&m, v->cur_t);

	if (!p->has_calls || !v->rows.n) {
		const char *msg =
			!p->has_calls
				? "This profile holds summary statistics only "
				  "(aggregate layout): no per-call timeline."
			: p->ncalls ? "No lane on display (t restores a solo "
				      "lane, r changes the rank filter)."
				    : "This profile has no calls.";
		sv_render_wrapped(r->g, r->gl, g->tl_x + 1, g->lanes_y + 1,
			g->tl_w - 2, g->lanes_h - 1, msg, SV_STYLE_WARNING);
		return;
	}
	for (i = 0; i < g->lanes_h; i++) {
		long row = v->top_row + i;
		const struct sv_layout_row *lr;
		const struct sv_lane *lane;
		int y = g->lanes_y + (int)i, lstyle;
		bool is_cur;

		if (row >= (long)v->rows.n)
			break;
		lr = &v->rows.rows[row];
		lane = &sv_timeline_src(v, lr->run).p->lanes[lr->lane];
		is_cur = lr->lane == v->cur_lane && lr->run == v->cur_run;
		lstyle = is_cur && row == cur_row ? SV_STYLE_LABEL_CURSOR
						  : SV_STYLE_LABEL;
		sv_grid_fill(r->g, 0, y, g->label_w - 1, y + 1, ' ', lstyle, 0);
		if (v->ranks.on) {
			sv_timeline_draw_rank_label(
				v, r->g, row, y, g->label_w - 1, lstyle);
		} else if (lr->fold) {
			render_fold_label(r, lr, y, lstyle);
		} else if (lr->lane_first) {
			sv_grid_put(r->g, 0, y,
				lane->depth_rows > 1 ? r->gl->expanded : ' ',
				lstyle, 0);
			if (lr->run)
				sv_timeline_draw_run_label(v, r->g, lr, 1, y,
					g->label_w - 2, lstyle);
			else
				sv_grid_text(r->g, 1, y, g->label_w - 2,
					lane->label ? lane->label : "?", lstyle,
					0, r->gl->ellipsis);
			/* Sliver depths merged into this row: marked. */
			if (lr->depth_last > lr->depth)
				sv_grid_put(r->g, g->label_w - 2, y, '+',
					SV_STYLE_DIM, 0);
		} else if (lr->depth_last > lr->depth) {
			sv_grid_textf(r->g, 1, y, g->label_w - 2,
				row == cur_row ? lstyle : SV_STYLE_DIM, 0,
				"  depth %u +%u", (unsigned)lr->depth,
				(unsigned)(lr->depth_last - lr->depth));
		} else if (row == cur_row) {
			sv_grid_textf(r->g, 1, y, g->label_w - 2, lstyle, 0,
				"  depth %u", (unsigned)lr->depth);
		}
		/* The second run's rows: a dotted border. */
		sv_grid_put(r->g, g->label_w - 1, y,
			lr->run ? (r->gl->ascii ? ':' : 0x250a) : r->gl->vline,
			SV_STYLE_BORDER, 0);
		if (lr->fold)
			sv_timeline_draw_fold(v, r->g, lr, y);
		else if (!lr->run && sv_timeline_draw_stored(v, r->g, lane, y))
			;
		else
			sv_timeline_draw_row(
				v, r->g, lr->run, lr->lane, lr->depth, y);
		if (lr->depth_last > lr->depth)
			sv_timeline_draw_slivers(v, r->g, lr, y);
		if (row == cur_row && cx >= m.x0 && cx < m.x0 + m.w) {
			const struct sv_cell *c = sv_grid_cell(r->g, cx, y);
			if (c && c->ch == ' ')
				sv_grid_put(r->g, cx, y, r->gl->cursor,
					SV_STYLE_CURSOR, 0);
		}
	}
}

struct render_lines {
	struct render_ctx *r;
	int x, y, w, y_end;
	int meta_y; /* the first line of the metadata */
};

static bool details_line(struct render_lines *d, int style, const char *fmt,
	...) SV_PRINTF(3, 4);

static bool details_line(
	struct render_lines *d, int style, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (d->y >= d->y_end)
		return false;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	sv_grid_text(
		d->r->g, d->x, d->y, d->w, buf, style, 0, d->r->gl->ellipsis);
	d->y++;
	return true;
}

/* Fields f[0 .. n) on details lines, "   " apart, a field moving to the
 * next line rather than being cut. */
static void details_pack(struct render_lines *d, char (*f)[64], int n)
{
	char line[512];
	size_t used = 0;
	int i;

	line[0] = '\0';
	for (i = 0; i < n; i++) {
		int w = sv_grid_text_width(line, INT_MAX);
		if (used && w + 3 + sv_grid_text_width(f[i], INT_MAX) > d->w) {
			details_line(d, SV_STYLE_DETAILS, "%s", line);
			used = 0;
			line[0] = '\0';
		}
		used += (size_t)snprintf(line + used, sizeof line - used,
			"%s%s", used ? "   " : "", f[i]);
		if (used >= sizeof line)
			used = sizeof line - 1;
	}
	if (used)
		details_line(d, SV_STYLE_DETAILS, "%s", line);
}

/* Terminal columns of UTF-8 text s (control characters count one). */
static int details_cols(const char *s)
{
	size_t n = strlen(s), i = 0;
	int cols = 0;

	while (i < n) {
		uint32_t cp;
		i += sv_utf8_decode(s + i, n - i, &cp);
		cols += sv_utf8_width(cp) ? sv_utf8_width(cp) : 1;
	}
	return cols;
}

/* The call's event metadata (callmeta.h): every member as key=value,
 * nested values folded to one line, packed onto as few lines as fit. */
static void details_callmeta(
	struct render_lines *d, const struct sv_profile *p, uint32_t c)
{
	const char *cur = sv_callmeta_of(p, c);
	struct sv_callmeta_kv kv;
	char line[1024], item[512];
	size_t used = 0;
	int cols = 0;

	while (cur && sv_callmeta_next(&cur, &kv)) {
		size_t k = sv_callmeta_show(
			kv.key, kv.key_len, item, sizeof item - 2);
		int iw;
		if (k > sizeof item - 3)
			k = sizeof item - 3;
		item[k++] = '=';
		sv_callmeta_show(kv.val, kv.val_len, item + k, sizeof item - k);
		iw = details_cols(item);
		if (used && cols + 3 + iw > d->w) {
			details_line(d, SV_STYLE_DETAILS, "%s", line);
			used = 0;
			cols = 0;
		}
		if (!used) {
			used = (size_t)snprintf(line, sizeof line, "%s",
				d->y == d->meta_y ? "metadata  "
						  : "          ");
			cols = 10;
		} else {
			used += (size_t)snprintf(
				line + used, sizeof line - used, "   ");
			cols += 3;
		}
		if (used < sizeof line)
			used += (size_t)snprintf(
				line + used, sizeof line - used, "%s", item);
		if (used >= sizeof line)
			used = sizeof line - 1;
		cols += iw;
	}
	if (used)
		details_line(d, SV_STYLE_DETAILS, "%s", line);
}

/* The hardware counters of the call's region on its rank (counters.h):
 * one line per set, events, LIKWID's metrics and the derived rates. */
static void details_counters(struct render_lines *d, const struct sv_profile *p,
	uint32_t region, uint32_t rank)
{
	const struct sv_counters *sets[4];
	size_t n = sv_counters_of(p, p->regions[region], (long)rank, sets, 4),
	       i, e;

	for (i = 0; i < n && i < 4; i++) {
		const struct sv_counters *k = sets[i];
		struct sv_counter_rate rates[4];
		size_t nr = sv_counters_rates(k, rates, 4);
		char line[1024];
		size_t used = (size_t)snprintf(line, sizeof line, "%s%s%s ",
			k->likwid ? "likwid" : "perf", k->group ? " " : "",
			k->group ? k->group : "");
		for (e = 0; e < k->nevents && used < sizeof line; e++)
			used += (size_t)snprintf(line + used,
				sizeof line - used, "  %s %.6g", k->events[e],
				k->values[e]);
		for (e = 0; e < k->nmetrics && used < sizeof line; e++)
			used += (size_t)snprintf(line + used,
				sizeof line - used, "  %s %.4g", k->metrics[e],
				k->metric_values[e]);
		for (e = 0; e < nr && e < 4 && used < sizeof line; e++)
			used += (size_t)snprintf(line + used,
				sizeof line - used, "  %s %.3f", rates[e].name,
				rates[e].value);
		details_line(d, SV_STYLE_DETAILS, "%s", line);
	}
}

static void render_details(struct render_ctx *r)
{
	const struct sv_timeline *v = r->v;
	/* The selected call's run: the second's when sel2 is set. */
	const struct sv_timeline_src src =
		sv_timeline_src(v, v->s->sel2 != SV_NO_CALL);
	const struct sv_profile *p = src.p;
	const struct sv_layout_geom *g = r->geom;
	int64_t origin = src.run ? sv_session_origin2(v->s) : v->s->origin;
	int w = g->tl_x + g->tl_w;
	struct render_lines d = {
		r, 1, g->details_y + 1, w - 2, g->details_y + g->details_h, -1};
	uint32_t c = src.sel, region, par;
	const struct sv_row *row;
	const struct sv_lane *lane;
	char a[64];
	int64_t dur;

	/* The box takes room only while a call is selected (the geometry
	 * follows the selection: sv_timeline_sync). */
	if (!g->details_h || c == SV_NO_CALL)
		return;
	sv_grid_fill(r->g, 0, g->details_y, w, g->details_y + g->details_h, ' ',
		SV_STYLE_DETAILS, 0);
	sv_grid_fill(r->g, 0, g->details_y, w, g->details_y + 1, r->gl->hline,
		SV_STYLE_BORDER, 0);
	if (v->s->p2)
		sv_grid_textf(r->g, 2, g->details_y, w - 4, SV_STYLE_PANEL_HEAD,
			0, " Selected call, run %s (%s) ", src.run ? "B" : "A",
			src.run ? sv_session_name2(v->s) : v->s->title);
	else
		sv_grid_text(r->g, 2, g->details_y, w - 4, " Selected call ",
			SV_STYLE_PANEL_HEAD, 0, 0);
	row = &p->rows[sv_profile_row_of(p, c)];
	region = row->region;
	lane = &p->lanes[sv_call_lane(p, c)];
	dur = sv_call_duration(p, c);
	{
		/* Region name, then where the call ran. */
		int x = 1, color = sv_grid_region_color(p->regions[region]);
		sv_grid_put(r->g, x, d.y, r->gl->bar, SV_STYLE_SPAN, color);
		x += 2;
		x += sv_grid_text(r->g, x, d.y, d.w - 2, p->regions[region],
			SV_STYLE_PANEL_HEAD, 0, r->gl->ellipsis);
		x += sv_grid_text(r->g, x, d.y, w - x - 1, "  on ",
			SV_STYLE_DETAILS, 0, 0);
		x += sv_grid_text(r->g, x, d.y, w - x - 1,
			lane->label ? lane->label : "?", SV_STYLE_DETAILS, 0,
			r->gl->ellipsis);
		sv_grid_textf(r->g, x, d.y, w - x - 1, SV_STYLE_DETAILS, 0,
			", depth %u", (unsigned)sv_profile_depth(p, c));
		d.y++;
	}
	{
		char x[128], y[128];
		details_line(&d, SV_STYLE_DETAILS, "duration %s   exclusive %s",
			sv_render_exact(dur, false, x, sizeof x),
			sv_render_exact(sv_profile_exclusive(p, c), false, y,
				sizeof y));
		details_line(&d, SV_STYLE_DETAILS, "start %s   end %s",
			details_rel(
				sv_profile_start(p, c), origin, x, sizeof x),
			details_rel(sv_profile_end(p, c), origin, y, sizeof y));
	}
	{
		/* Parent chain, outermost first: "in main > solve > step". */
		char chain[512];
		size_t used = 0;
		uint32_t stack[64];
		int n = 0, i;
		for (par = sv_profile_parent(p, c); par != SV_NO_CALL && n < 64;
			par = sv_profile_parent(p, par))
			stack[n++] = par;
		chain[0] = '\0';
		for (i = n - 1; i >= 0 && used < sizeof chain; i--)
			used += (size_t)snprintf(chain + used,
				sizeof chain - used, "%s%s",
				i == n - 1 ? "" : " > ",
				p->regions[sv_call_region(p, stack[i])]);
		details_line(&d, SV_STYLE_DETAILS, "in %s",
			n ? chain : "(top level)");
	}
	{
		char line[256] = "";
		size_t used = 0;
		char x[128];
		if (sv_profile_gpu(p, c) >= 0)
			used += (size_t)snprintf(line + used,
				sizeof line - used, "GPU %s   ",
				sv_render_exact(sv_profile_gpu(p, c), false, x,
					sizeof x));
		if (sv_profile_has_await(p) &&
			(lane->task >= 0 || sv_profile_await(p, c) > 0) &&
			used < sizeof line)
			used += (size_t)snprintf(line + used,
				sizeof line - used,
				"await %s, %.1f%% of the call",
				sv_render_exact(sv_profile_await(p, c), false,
					x, sizeof x),
				dur > 0 ? 100.0 *
						  (double)sv_profile_await(
							  p, c) /
						  (double)dur
					: 0.0);
		if (used)
			details_line(&d, SV_STYLE_DETAILS, "%s", line);
	}
	{
		const struct sv_thread *th =
			lane->thread >= 0
				? sv_profile_thread(p, lane->rank, lane->thread)
				: NULL;
		const struct sv_task *tk =
			lane->task >= 0
				? sv_profile_task(p, lane->rank, lane->task)
				: NULL;
		details_line(&d, SV_STYLE_DETAILS,
			"rank %" PRIu32 "   thread %s   task %s%s%s",
			lane->rank, th && th->name ? th->name : "-",
			tk && tk->name ? tk->name : "-",
			tk && tk->coro_name ? " " : "",
			tk && tk->coro_name ? tk->coro_name : "");
	}
	{
		/* Fields packed onto as few lines as fit, none cut. */
		char f[4][64];
		int nf = 0;
		if (sv_profile_has_id(p, SV_ID_CALL))
			snprintf(f[nf++], sizeof f[0], "call id %" PRId64,
				sv_profile_id(p, SV_ID_CALL, c));
		if (sv_profile_has_id(p, SV_ID_PARENT))
			snprintf(f[nf++], sizeof f[0], "parent id %" PRId64,
				sv_profile_id(p, SV_ID_PARENT, c));
		snprintf(f[nf++], sizeof f[0], "region call #%" PRIu64,
			(uint64_t)(c - row->first));
		snprintf(f[nf++], sizeof f[0], "abs start %" PRId64 " ns",
			sv_profile_start(p, c));
		details_pack(&d, f, nf);
	}
	d.meta_y = d.y;
	details_callmeta(&d, p, c);
	details_counters(&d, p, region, row->rank);
	if (src.run ? sv_session_stats2(v->s) != NULL
		    : sv_session_stats(v->s) || sv_session_stats_all(v->s)) {
		/* The region over the whole run when that table is at hand
		 * (a solo lane's own table would always name its own rank
		 * the slowest), else over the lanes on display; the second
		 * run's table over the ranks shown. */
		const struct sv_stats_region *sr =
			sv_stats_table_find(src.run ? sv_session_stats2(v->s)
					    : sv_session_stats_all(v->s)
						    ? sv_session_stats_all(v->s)
						    : sv_session_stats(v->s),
				region);
		if (sr && sr->has_slowest_rank)
			details_line(&d, SV_STYLE_DETAILS,
				"%s: %" PRIu64 " call%s, %s; slowest rank "
				"%" PRIu32 ", imbalance %.1f%%",
				src.run ? "run B, these ranks"
				: sv_session_stats_is_all(v->s) ||
						sv_session_stats_all(v->s)
					? "whole run"
					: "these lanes",
				sr->s.num_calls,
				sr->s.num_calls == 1 ? "" : "s",
				sv_fmt_dur(sr->s.total_ns, a, sizeof a),
				sr->slowest_rank, sr->rank_imbalance_pct);
	}
	if (row->source_file)
		details_line(&d, SV_STYLE_DETAILS, "source %s:%" PRId64,
			row->source_file, row->source_line);
	{
		size_t i;
		for (i = 0; i < p->ncolumns; i++) {
			const struct sv_column *col = &p->columns[i];
			if (col->is_float && col->f)
				details_line(&d, SV_STYLE_DETAILS, "%s = %g",
					col->name, col->f[c]);
			else if (col->i)
				details_line(&d, SV_STYLE_DETAILS,
					"%s = %" PRId64, col->name, col->i[c]);
		}
	}
}

void sv_timeline_status(const struct sv_timeline *v, char *line, size_t n,
	const char *const **hints, size_t *nhints)
{
	char span[48], cur[64], from[64], rows[96];
	static const char *const timeline[] = {
		/* (in parentheses: one element, for clang's
		 * -Wstring-concatenation) */
		("Tab next call  f zoom to it  t solo  / search  "
		 "p panel  ? help  q quit"),
		"Tab call  f zoom  t solo  p panel  ? help  q quit",
		"? help  q quit",
	};
	static const char *const panel[] = {
		"j/k region  Enter its calls  < > sort  p back  ? help",
		"Enter calls  < > sort  p back",
	};

	sv_fmt_dur(v->t1 - v->t0, span, sizeof span);
	sv_render_rel(v->cur_t - v->s->origin, cur, sizeof cur);
	sv_render_rel(v->t0 - v->s->origin, from, sizeof from);
	sv_timeline_ranks_status(v, rows, sizeof rows);
	if (v->nfiltered_out && strlen(rows) < sizeof rows)
		snprintf(rows + strlen(rows), sizeof rows - strlen(rows),
			"  %zu lane%s without a match hidden", v->nfiltered_out,
			v->nfiltered_out == 1 ? "" : "s");
	{
		/* What the cursor's cell holds when it holds several calls. */
		struct sv_tmap m = sv_timeline_tmap(v);
		char cell[160];
		sv_timeline_cell_summary(
			v, sv_tmap_col(&m, v->cur_t), cell, sizeof cell);
		snprintf(line, n, " span %s from %s  cursor %s%s%s%s%s%s", span,
			from, cur, sv_session_search_spec(v->s)[0] ? "  /" : "",
			sv_session_search_spec(v->s), rows, cell[0] ? "  " : "",
			cell);
	}
	*hints = v->panel.focus ? panel : timeline;
	*nhints = v->panel.focus ? 2 : 3;
}

/* The marked range: its empty timeline cells shaded, its columns on the
 * ruler's axis and its span above them. */
static void render_range(struct render_ctx *r)
{
	const struct sv_timeline *v = r->v;
	const struct sv_layout_geom *g = r->geom;
	struct sv_tmap m = sv_timeline_tmap(v);
	int x0, x1, x, y;
	char span[32], label[48];

	if (!v->s->has_range ||
		!sv_tmap_span(&m, v->s->range_t0, v->s->range_t1, &x0, &x1))
		return;
	for (y = g->lanes_y; y < g->lanes_y + g->lanes_h; y++)
		for (x = x0; x < x1; x++) {
			struct sv_cell *c = sv_grid_at(r->g, x, y);
			if (c && c->ch == ' ' && c->style == SV_STYLE_DEFAULT) {
				c->ch = r->gl->ascii ? '.' : 0x2591;
				c->style = SV_STYLE_DIM;
			}
		}
	sv_grid_fill(r->g, x0, g->ruler_y + 1, x1, g->ruler_y + 2, r->gl->hline,
		SV_STYLE_PANEL_MARK, 0);
	sv_grid_put(r->g, x0, g->ruler_y + 1, '[', SV_STYLE_PANEL_MARK, 0);
	if (x1 - 1 > x0)
		sv_grid_put(r->g, x1 - 1, g->ruler_y + 1, ']',
			SV_STYLE_PANEL_MARK, 0);
	snprintf(label, sizeof label, "range %s",
		sv_fmt_dur(sv_sub_sat(v->s->range_t1, v->s->range_t0), span,
			sizeof span));
	if ((int)strlen(label) <= x1 - x0) {
		int lw = (int)strlen(label) + 1 < x1 - x0
				 ? (int)strlen(label) + 1
				 : x1 - x0;
		sv_grid_fill(r->g, x0, g->ruler_y, x0 + lw, g->ruler_y + 1, ' ',
			SV_STYLE_RULER, 0);
		sv_grid_text(r->g, x0, g->ruler_y, x1 - x0, label,
			SV_STYLE_PANEL_MARK, 0, 0);
	}
}

void sv_timeline_draw(const struct sv_timeline *v, struct sv_grid *g)
{
	struct render_ctx r;
	struct sv_panel_area pa = sv_timeline_panel_area(v);

	r.g = g;
	r.v = v;
	r.s = v->s;
	r.p = v->s->p;
	r.geom = &v->geom;
	r.gl = sv_render_glyphs(v->s->opts.ascii);
	render_ruler(&r);
	render_lanes(&r);
	if (v->geom.overview_y)
		sv_overview_draw(g, v->s, v->geom.tl_x, v->geom.tl_w,
			v->geom.overview_y, v->t0, v->t1);
	sv_timeline_draw_strip(v, g);
	render_range(&r);
	render_details(&r);
	sv_panel_draw(g, &v->panel, v->s, &pa);
}
