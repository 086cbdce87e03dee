/*
 * mode_popup.c: the popups (help, source, metadata, warnings, file
 * contents) as a mode.
 *
 * A popup is pushed over the main mode by sv_view_push_popup() (view.h)
 * and draws a box over it that fits its text, a list without a cursor
 * (list.h): the list keys scroll it (j/k, the pages, g/G, the wheel);
 * q, Esc, Enter, Backspace or a click close it; the key of another popup
 * replaces it.  The help lists the keys of the scopes of
 * the view below (and of the panel, popups and prompts), from the action
 * table.  Nothing here knows about curses or HDF5.
 */
#include "scopeview/mode.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "popup_priv.h"
#include "scopeview/action.h"
#include "scopeview/counters.h"
#include "scopeview/fmt.h"
#include "scopeview/keys.h"
#include "scopeview/list.h"
#include "scopeview/render.h"
#include "scopeview/timeline.h"
#include "scopeview/view.h"

static void popup_fit_list(struct sv_mode *m);
static void popup_show_mark(struct sv_mode *m);

static void popup_draw_line(const struct sv_mode *m, const struct sv_list *l,
	struct sv_grid *g, long row, int x, int y, int w, int style)
{
	/* The popup draws its own lines (popup_draw): they are made as
	 * they are drawn. */
	(void)m, (void)l, (void)g, (void)row, (void)x, (void)y, (void)w;
	(void)style;
}

static const struct sv_list_ops popup_list_ops = {
	.draw_row = popup_draw_line,
};

void sv_mode_popup_setup(struct sv_mode *m, long region, unsigned scopes)
{
	struct popup_data *d = m->data;
	struct sv_mode *main = sv_view_main_mode(m->view);
	sv_list_init(&d->list, &popup_list_ops, -1);
	d->list.scroll_only = true;
	d->region = region;
	d->scopes = scopes;
	d->under = main->ops->list ? main->ops->list(main) : NULL;
	if (m->kind == SV_POPUP_SOURCE)
		sv_popup_source_setup(d, m->s);
	popup_fit_list(m);
	if (d->file.text)
		popup_show_mark(m);
}

static void popup_fini(struct sv_mode *m)
{
	sv_popup_source_fini(m->data);
}

long sv_mode_popup_top(const struct sv_mode *m)
{
	const struct popup_data *d =
		m && m->ops == &sv_mode_popup ? m->data : NULL;
	return d ? d->list.top : 0;
}

/* Metadata groups, like scope-profiler's inspect. */
static const char *popup_meta_group(const char *key)
{
	static const struct {
		const char *group;
		const char *keys[16];
	} groups[] = {
		{"Run", {"label", "timestamp", "start_time_ns",
				"finalize_time_ns", "scope_profiler_version",
				"python_version", "working_directory", "source",
				"source_language", "trace_format_version",
				NULL}},
		{"System", {"user", "hostname", "platform", "uname",
				   "chip_information", "total_cores", NULL}},
		{"Parallelism", {"mpi_size", "mpi_rank", "num_nodes",
					"omp_num_threads", NULL}},
		{"Modules", {"modules", "LOADEDMODULES", "MODULEPATH", NULL}},
	};
	size_t i, j;

	for (i = 0; i < sizeof groups / sizeof groups[0]; i++)
		for (j = 0; groups[i].keys[j]; j++)
			if (!strcmp(groups[i].keys[j], key))
				return groups[i].group;
	if (!strncmp(key, "SLURM", 5))
		return "Slurm";
	return "Environment and other";
}

bool sv_popup_in_view(const struct popup_out *o)
{
	long i = o->n - o->top;
	return i >= 0 && i < o->h;
}

void sv_popup_line(struct popup_out *o, int style, const char *text)
{
	long i = o->n++ - o->top;
	int len = (int)strlen(text);
	if (len > o->widest)
		o->widest = len;
	if (i >= 0 && i < o->h)
		sv_grid_text(o->g, o->x, o->y0 + (int)i, o->w, text, style, 0,
			o->gl->ellipsis);
}

void sv_popup_linef(struct popup_out *o, int style, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	sv_popup_line(o, style, buf);
}

/* A long line folded at spaces to the popup's width, the continuation
 * lines indented, so that a warning is read whole, not cut. */
void sv_popup_wrapped(struct popup_out *o, int style, const char *text)
{
	char line[512];
	int indent = 0;

	while (*text) {
		int room = o->w - indent;
		size_t len = strlen(text), cut = len;
		if (room < 20)
			room = 20;
		if ((int)len > room) {
			cut = (size_t)room;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = (size_t)room;
		}
		if (cut + (size_t)indent >= sizeof line)
			cut = sizeof line - 1 - (size_t)indent;
		memset(line, ' ', (size_t)indent);
		memcpy(line + indent, text, cut);
		line[indent + (int)cut] = '\0';
		sv_popup_line(o, style, line);
		text += cut;
		while (*text == ' ')
			text++;
		indent = 4;
	}
}

static void popup_help(struct popup_out *o)
{
	/* The table's rows in groups, each under a heading; only the rows
	 * of the scopes of the view under the popup. */
	static const struct {
		int first;
		const char *title;
	} groups[] = {
		{SV_ACTION_MOVE_LEFT, "Move"},
		{SV_ACTION_ZOOM_IN, "Zoom and pan"},
		{SV_ACTION_NEXT_CALL, "Select calls"},
		{SV_ACTION_SOLO_LANE, "Lanes"},
		{SV_ACTION_SEARCH, "Search, filter, commands"},
		{SV_ACTION_PANEL_FOCUS, "Panels, popups and views"},
		{SV_ACTION_RELOAD, "File"},
		{SV_ACTION_CLOSE, "Leaving a view"},
		{SV_ACTION_LIST_DOWN, "Lists (every list view and popup)"},
		{SV_ACTION_PANEL_MARK, "Summary panel (p)"},
		{SV_ACTION_POPUP_CLOSE, "Popups"},
		{SV_ACTION_PROMPT_ENTER, "Prompts"},
		{SV_ACTION_VIEW_TREE, "Where the time goes"},
		{SV_ACTION_TREE_EXPAND, "Call tree"},
		{SV_ACTION_FLAME_UP, "Flame graph"},
		{SV_ACTION_VIEW_CALLERS, "Callers and callees"},
		{SV_ACTION_VIEW_RANKS, "Ranks, histograms and calls"},
		{SV_ACTION_RANKS_RIGHT, "Ranks matrix"},
		{SV_ACTION_HIST_RANGE, "Histogram"},
		{SV_ACTION_COLOR_MODE, "Colours"},
		{SV_ACTION_RANK_ROWS,
			"Ranks on the timeline, the panel's width"},
		{SV_ACTION_TREND_RANKS, "Iteration trend"},
	};
	size_t gi, ng = sizeof groups / sizeof groups[0];
	bool any_group = false;

	for (gi = 0; gi < ng; gi++) {
		int a, end = gi + 1 < ng ? groups[gi + 1].first
					 : SV_ACTION_COUNT;
		bool head = false;
		for (a = groups[gi].first; a < end; a++) {
			const struct sv_action_info *ai = sv_action_info(a);
			char keys[64];
			if (!(ai->scopes & o->d->scopes))
				continue;
			if (!head) {
				if (any_group)
					sv_popup_line(o, SV_STYLE_POPUP, "");
				sv_popup_line(o, SV_STYLE_PANEL_HEAD,
					groups[gi].title);
				head = any_group = true;
			}
			/* The keys in effect (a config file may rebind). */
			sv_action_key_list_in(
				a, o->d->scopes, " ", keys, sizeof keys);
			/* Enter over a list says what it does there. */
			if (a == SV_ACTION_LIST_ENTER && o->d->under &&
				o->d->under->ops->enter_help)
				sv_popup_linef(o, SV_STYLE_POPUP, "  %-15s %s",
					keys, o->d->under->ops->enter_help);
			else
				sv_popup_linef(o, SV_STYLE_POPUP, "  %-15s %s",
					keys, ai->help);
		}
	}
	if (o->d->scopes & SV_SCOPE_TIMELINE) {
		/* What the timeline's glyphs mean. */
		size_t n, i;
		const struct sv_timeline_glyph *lg = sv_timeline_legend(&n);
		sv_popup_line(o, SV_STYLE_POPUP, "");
		sv_popup_line(o, SV_STYLE_PANEL_HEAD, "Glyphs");
		for (i = 0; i < n; i++) {
			char line[512], g[8];
			uint32_t cp = o->gl->ascii ? lg[i].ascii : lg[i].uni;
			size_t k = cp ? sv_utf8_encode(cp, g) : 0;
			g[k] = '\0';
			if (cp)
				snprintf(line, sizeof line, "  %s  %s", g,
					lg[i].meaning);
			else
				snprintf(line, sizeof line, "  %s",
					lg[i].meaning);
			sv_popup_wrapped(o, SV_STYLE_POPUP, line);
		}
	}
	sv_popup_line(o, SV_STYLE_POPUP, "");
	sv_popup_wrapped(o, SV_STYLE_POPUP,
		"Mouse: click selects, wheel zooms at the pointer, drag pans.");
	sv_popup_wrapped(o, SV_STYLE_POPUP,
		"A count before a move repeats it (20l, 5j, 3n); Esc drops "
		"it.");
	sv_popup_wrapped(
		o, SV_STYLE_POPUP, "In a prompt, other keys type text.");
}

static void popup_metadata(struct popup_out *o)
{
	const struct sv_profile *p = o->s->p;
	static const char *const order[] = {"Run", "System", "Parallelism",
		"Slurm", "Modules", "Environment and other"};
	size_t gi, i;

	sv_popup_linef(
		o, SV_STYLE_POPUP, "file       %s", p->path ? p->path : "-");
	sv_popup_linef(o, SV_STYLE_POPUP,
		"schema     %d (%s)   ranks %" PRIu32 "   regions %" PRIu32
		"   calls %" PRIu32,
		p->schema,
		p->layout == SV_LAYOUT_AGGREGATE ? "aggregate"
		: p->layout == SV_LAYOUT_GROUPS  ? "rank groups"
						 : "columnar",
		p->num_ranks, p->nregions, p->ncalls);
	for (gi = 0; gi < sizeof order / sizeof order[0]; gi++) {
		bool any = false;
		for (i = 0; i < p->nmeta; i++) {
			if (strcmp(popup_meta_group(p->meta[i].key), order[gi]))
				continue;
			if (!any) {
				sv_popup_line(o, SV_STYLE_POPUP, "");
				sv_popup_line(
					o, SV_STYLE_PANEL_HEAD, order[gi]);
				any = true;
			}
			sv_popup_linef(o, SV_STYLE_POPUP, "  %-22s %s",
				p->meta[i].key,
				p->meta[i].text ? p->meta[i].text : "");
		}
	}
	if (!p->nmeta)
		sv_popup_line(o, SV_STYLE_DIM, "The profile has no metadata.");
}

static void popup_warnings(struct popup_out *o)
{
	const struct sv_profile *p = o->s->p;
	size_t i;

	if (!p->nwarnings && !p->nunshown)
		sv_popup_line(o, SV_STYLE_POPUP,
			"No warnings: the file read "
			"cleanly.");
	else if (!p->nwarnings)
		sv_popup_line(o, SV_STYLE_POPUP, "No warnings.");
	for (i = 0; i < p->nwarnings; i++)
		sv_popup_wrapped(o, SV_STYLE_WARNING, p->warnings[i]);
	if (p->nunshown) {
		/* Not a clean read: parts of the file are not shown. */
		sv_popup_line(o, SV_STYLE_POPUP, "");
		sv_popup_wrapped(o, SV_STYLE_POPUP,
			"The file holds objects scopeview does not "
			"show:");
		for (i = 0; i < p->nunshown; i++)
			sv_popup_linef(
				o, SV_STYLE_POPUP, "  %s", p->unshown[i]);
	}
}

/* Every group and dataset of the file, as the loader listed it. */
static void popup_contents(struct popup_out *o)
{
	const struct sv_profile *p = o->s->p;
	size_t i;

	if (!p->nnodes) {
		sv_popup_line(o, SV_STYLE_DIM, "The loader listed no objects.");
		return;
	}
	sv_popup_linef(o, SV_STYLE_PANEL_HEAD, "%zu objects%s", p->nnodes,
		p->nodes_cut ? " (the rest left out)" : "");
	for (i = 0; i < p->nnodes; i++)
		sv_popup_linef(o,
			strcmp(p->nodes[i].what, "group") ? SV_STYLE_POPUP
							  : SV_STYLE_PANEL_HEAD,
			"%s  %s", p->nodes[i].path, p->nodes[i].what);
}

static void popup_body(int popup, struct popup_out *o)
{
	switch (popup) {
	case SV_POPUP_HELP:
		popup_help(o);
		break;
	case SV_POPUP_SOURCE:
		sv_popup_source(o);
		break;
	case SV_POPUP_METADATA:
		popup_metadata(o);
		break;
	case SV_POPUP_WARNINGS:
		popup_warnings(o);
		break;
	case SV_POPUP_CONTENTS:
		popup_contents(o);
		break;
	default:
		break;
	}
}

/* The box of a popup: its place and size, and its lines. */
struct popup_box {
	int px, py, pw, ph;
	long n;
	long mark; /* the line of the call's source line, or -1 */
};

/* Count and measure the lines (nothing is drawn with top this far), then
 * fit the box to its text: a one-line message gets a small box. */
static struct popup_box popup_fit(const struct sv_mode *m, int w, int h)
{
	struct popup_box b = {.pw = w - 8, .ph = h - 2};
	struct popup_out o;

	if (b.pw > 110)
		b.pw = 110;
	memset(&o, 0, sizeof o);
	o.gl = sv_render_glyphs(m->s->opts.ascii);
	o.s = m->s;
	o.d = m->data;
	o.w = b.pw - 4;
	o.top = 1L << 30;
	o.mark = -1;
	popup_body(m->kind, &o);
	if (o.n + 2 < b.ph)
		b.ph = (int)o.n + 2;
	if (b.ph < 3)
		b.ph = 3;
	if (o.widest + 4 < b.pw)
		b.pw = o.widest + 4 > 40 ? o.widest + 4 : 40;
	if (b.pw > w)
		b.pw = w;
	b.px = (w - b.pw) / 2;
	b.py = o.n + 2 < h - 2 ? (h - b.ph) / 3 : 1;
	b.n = o.n;
	b.mark = o.mark;
	return b;
}

/* The list of lines where the box is now (the text may have grown: a
 * warning, the source read). */
static void popup_fit_list(struct sv_mode *m)
{
	struct popup_data *d = m->data;
	struct popup_box b = popup_fit(m, m->w, m->h);
	sv_list_place(&d->list, b.px + 2, b.py + 1, b.pw - 4, b.ph - 2);
	sv_list_set_rows(&d->list, b.n);
}

/* Scroll the source popup so that the call's line shows near its top. */
static void popup_show_mark(struct sv_mode *m)
{
	struct popup_data *d = m->data;
	struct popup_box b = popup_fit(m, m->w, m->h);

	if (b.mark > 3) {
		d->list.top = d->list.cur = b.mark - 3;
		sv_list_set_rows(&d->list, b.n);
	}
}

static void popup_draw(
	const struct sv_mode *m, struct sv_grid *gr, struct sv_rect rect)
{
	const struct popup_data *d = m->data;
	const struct sv_glyphs *gl = sv_render_glyphs(m->s->opts.ascii);
	struct popup_box b = popup_fit(m, rect.w, rect.h);
	int pw = b.pw, ph = b.ph, px = b.px, py = b.py, y;
	struct popup_out o;
	static const char *const titles[] = {
		[SV_POPUP_HELP] = " Help ",
		[SV_POPUP_SOURCE] = " Source ",
		[SV_POPUP_METADATA] = " Metadata ",
		[SV_POPUP_WARNINGS] = " Warnings ",
		[SV_POPUP_CONTENTS] = " File contents ",
	};
	char foot[128];

	memset(&o, 0, sizeof o);
	o.g = gr;
	o.gl = gl;
	o.s = m->s;
	o.d = d;
	o.n = b.n;
	sv_grid_fill(gr, px, py, px + pw, py + ph, ' ', SV_STYLE_POPUP, 0);
	sv_grid_fill(gr, px, py, px + pw, py + 1, gl->hline, SV_STYLE_POPUP, 0);
	sv_grid_fill(gr, px, py + ph - 1, px + pw, py + ph, gl->hline,
		SV_STYLE_POPUP, 0);
	for (y = py; y < py + ph; y++) {
		sv_grid_put(gr, px, y, gl->vline, SV_STYLE_POPUP, 0);
		sv_grid_put(gr, px + pw - 1, y, gl->vline, SV_STYLE_POPUP, 0);
	}
	sv_grid_put(gr, px, py, gl->tl, SV_STYLE_POPUP, 0);
	sv_grid_put(gr, px + pw - 1, py, gl->tr, SV_STYLE_POPUP, 0);
	sv_grid_put(gr, px, py + ph - 1, gl->bl, SV_STYLE_POPUP, 0);
	sv_grid_put(gr, px + pw - 1, py + ph - 1, gl->br, SV_STYLE_POPUP, 0);
	sv_grid_text(gr, px + 2, py, pw - 4, titles[m->kind],
		SV_STYLE_PANEL_HEAD, 0, 0);
	o.x = px + 2;
	o.y0 = py + 1;
	o.w = pw - 4;
	o.h = ph - 2;
	o.top = d->list.top;
	if (o.top > o.n - o.h)
		o.top = o.n - o.h;
	if (o.top < 0)
		o.top = 0;
	o.n = 0;
	o.mark = -1;
	popup_body(m->kind, &o);
	if (o.n > o.h)
		snprintf(foot, sizeof foot,
			" %ld-%ld of %ld  j/k scroll  q close ", o.top + 1,
			o.top + o.h < o.n ? o.top + o.h : o.n, o.n);
	else
		snprintf(foot, sizeof foot, " q close ");
	if ((int)strlen(foot) <= pw - 4)
		sv_grid_text(gr, px + pw - 2 - (int)strlen(foot), py + ph - 1,
			(int)strlen(foot), foot, SV_STYLE_POPUP, 0, 0);
}

/* ---- keys ------------------------------------------------------------------ */

static int popup_apply(struct sv_mode *m, int a)
{
	switch (a) {
	case SV_ACTION_POPUP_CLOSE:
		return SV_REACT_POP | SV_REACT_REDRAW;
	case SV_ACTION_QUIT:
		return SV_REACT_QUIT;
	case SV_ACTION_HELP:
	case SV_ACTION_SOURCE:
	case SV_ACTION_METADATA:
	case SV_ACTION_WARNINGS:
	case SV_ACTION_CONTENTS:
		/* Another popup: this one gives way to it. */
		return SV_REACT_POP | SV_REACT_PASS;
	default:
		(void)m;
		return SV_REACT_BELL;
	}
}

static void popup_resize(struct sv_mode *m, int w, int h)
{
	struct popup_data *d = m->data;
	m->w = w;
	m->h = h;
	if (d->list.ops) /* set up (sv_mode_popup_setup) */
		popup_fit_list(m);
}

/* The lines, counted again before a key moves through them. */
static struct sv_list *popup_list(struct sv_mode *m)
{
	struct popup_data *d = m->data;
	popup_fit_list(m);
	return &d->list;
}

/* A click anywhere closes the popup; the wheel and drags go to the view
 * below. */
static int popup_key(struct sv_mode *m, int key)
{
	(void)m;
	if (sv_key_is_mouse(key) && sv_key_mouse_kind(key) == SV_MOUSE_CLICK)
		return SV_REACT_POP | SV_REACT_REDRAW;
	return -1;
}

const struct sv_mode_ops sv_mode_popup = {
	.name = "popup",
	.title = "Popup",
	.main = false,
	.scopes = {SV_SCOPE_POPUP, SV_SCOPE_LIST, 0},
	.size = sizeof(struct popup_data),
	.fini = popup_fini,
	.resize = popup_resize,
	.apply = popup_apply,
	.key = popup_key,
	.draw = popup_draw,
	.list = popup_list,
};
