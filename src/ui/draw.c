/*
 * draw.c: what the modes' drawing code shares (render.h): glyphs, time
 * formats, folded text, the status line and the "too small" screen.
 * Nothing here knows about curses, HDF5 or the loader.
 */
#include "scopeview/render.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "scopeview/fmt.h"
#include "scopeview/layout.h"
#include "scopeview/view.h"

static const struct sv_glyphs render_unicode = {
	SV_GRID_BAR,
	0x2591, /* ░ */
	0x2502, /* │ */
	0x2500, /* ─ */
	0x252c, /* ┬ */
	0x250a, /* ┊ */
	0x2026, /* … */
	'G',
	0x25b8, /* ▸ */
	0x25be, /* ▾ */
	'+',
	0x250c, /* ┌ */
	0x2510, /* ┐ */
	0x2514, /* └ */
	0x2518, /* ┘ */
	0x25bc, /* ▼ */
	false,
};

static const struct sv_glyphs render_ascii = {
	'=',
	':',
	'|',
	'-',
	'+',
	'|',
	'~',
	'G',
	'+',
	'-',
	'+',
	'+',
	'+',
	'+',
	'+',
	'v',
	true,
};

char *sv_render_short(int64_t ns, char *buf, size_t n)
{
	return sv_fmt_dur_ex((double)ns, 3, SV_FMT_DUR_COMPACT, buf, n);
}

char *sv_render_rel(int64_t ns, char *buf, size_t n)
{
	return sv_fmt_dur_ex((double)ns, 3, SV_FMT_DUR_PLUS, buf, n);
}

/* Exact nanoseconds with thousands separators: "5,232,556 ns". */
char *sv_render_ns(int64_t ns, char *buf, size_t n)
{
	char digits[32], out[48];
	int len, i, o = 0;
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	len = snprintf(digits, sizeof digits, "%" PRIu64, a);
	if (ns < 0)
		out[o++] = '-';
	for (i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	snprintf(buf, n, "%s ns", out);
	return buf;
}

/* A duration in human units and exact: "85.4 us = 85,360 ns", or just
 * "801 ns" when the two would say the same. */
char *sv_render_exact(int64_t ns, bool rel, char *buf, size_t n)
{
	char h[64], x[48];
	if (rel)
		sv_render_rel(ns, h, sizeof h);
	else
		sv_fmt_dur(ns, h, sizeof h);
	if (ns > -1000 && ns < 1000)
		snprintf(buf, n, "%s", h);
	else
		snprintf(buf, n, "%s = %s", h, sv_render_ns(ns, x, sizeof x));
	return buf;
}

/* Word-wrap ASCII text into at most maxh lines of w cells. */
void sv_render_wrapped(struct sv_grid *g, const struct sv_glyphs *gl, int x,
	int y, int w, int maxh, const char *text, int style)
{
	char line[256];
	int n = 0;

	while (*text && n < maxh && w > 0) {
		size_t len = strlen(text), cut = len;
		while (*text == ' ')
			text++;
		len = strlen(text);
		cut = len;
		if ((int)len > w) {
			cut = (size_t)w;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = (size_t)w;
		}
		if (cut >= sizeof line)
			cut = sizeof line - 1;
		memcpy(line, text, cut);
		line[cut] = '\0';
		sv_grid_text(g, x, y + n, w, line, style, 0,
			n + 1 == maxh && cut < len ? gl->ellipsis : 0);
		text += cut;
		n++;
	}
}

void sv_render_too_small(struct sv_grid *g, int w, int h)
{
	char lines[3][64];
	int i, y0;

	sv_grid_resize(g, w, h);
	snprintf(lines[0], sizeof lines[0], "terminal too small");
	snprintf(lines[1], sizeof lines[1], "%dx%d, need %dx%d", w, h,
		SV_LAYOUT_MIN_W, SV_LAYOUT_MIN_H);
	snprintf(lines[2], sizeof lines[2], "q quits");
	y0 = h > 3 ? (h - 3) / 2 : 0;
	for (i = 0; i < 3; i++) {
		int len = (int)strlen(lines[i]);
		sv_grid_text(g, w > len ? (w - len) / 2 : 0, y0 + i, w,
			lines[i], i == 2 ? SV_STYLE_DIM : SV_STYLE_WARNING, 0,
			'~');
	}
}

const struct sv_glyphs *sv_render_glyphs(bool ascii)
{
	return ascii ? &render_ascii : &render_unicode;
}

/* The session's message in w cells at (x, y): when it does not fit and
 * ends with a hint in parentheses ("... (P shows it)"), its head is cut
 * and the hint kept whole. */
static void render_message(struct sv_grid *g, int x, int y, int w,
	const struct sv_session *s, const struct sv_glyphs *gl)
{
	const char *m = s->message, *hint = strrchr(m, '(');
	int style = s->message_is_error ? SV_STYLE_WARNING : SV_STYLE_STATUS;
	int hw;

	if (w <= 0)
		return;
	if (sv_grid_text_width(m, w + 1) <= w || !hint || hint == m ||
		m[strlen(m) - 1] != ')' ||
		(hw = sv_grid_text_width(hint, w)) > w - 8) {
		sv_grid_text(g, x, y, w, m, style, 0, gl->ellipsis);
		return;
	}
	{
		char head[sizeof s->message];
		snprintf(head, sizeof head, "%.*s", (int)(hint - m), m);
		x += sv_grid_text(
			g, x, y, w - hw, head, style, 0, gl->ellipsis);
		sv_grid_text(g, x, y, hw, hint, style, 0, gl->ellipsis);
	}
}

void sv_render_status(struct sv_grid *g, const struct sv_session *s, int y,
	int w, const char *line, const char *const *hints, size_t nhints)
{
	const struct sv_glyphs *gl = sv_render_glyphs(s->opts.ascii);
	int x;
	size_t i;

	sv_grid_fill(g, 0, y, w, y + 1, ' ', SV_STYLE_STATUS, 0);
	{
		/* A path too long for its third of the line keeps its file
		 * name, the part that tells runs apart. */
		const char *title = s->title, *slash = strrchr(title, '/');
		if (slash && slash[1] && sv_grid_text_width(title, w) > w / 3)
			title = slash + 1;
		x = sv_grid_text(g, 0, y, w / 3, title, SV_STYLE_STATUS, 0,
			gl->ellipsis);
	}
	if (s->message[0]) {
		/* A message outranks the view's own line: the line is cut
		 * first, then the message's head, never its key hint. */
		int mw = sv_grid_text_width(s->message, w);
		int room = w - x - 1, lw = room - mw - 2;
		if (lw > 0)
			x += sv_grid_text(g, x, y, lw, line, SV_STYLE_STATUS, 0,
				gl->ellipsis);
		x = mw < w - x - 1 ? w - mw - 1 : x + (x ? 2 : 0);
		render_message(g, x, y, w - x, s, gl);
		return;
	}
	x += sv_grid_text(
		g, x, y, w - x, line, SV_STYLE_STATUS, 0, gl->ellipsis);
	/* The longest hint that fits. */
	for (i = 0; i < nhints; i++) {
		int hw = (int)strlen(hints[i]);
		if (w - hw - 1 > x + 2) {
			sv_grid_text(g, w - hw - 1, y, hw, hints[i],
				SV_STYLE_STATUS, 0, 0);
			break;
		}
	}
}

void sv_render_bar(struct sv_grid *g, int x, int y, int w, double frac,
	bool ascii, int style, int color)
{
	static const uint32_t eighths[] = {
		0x258f, 0x258e, 0x258d, 0x258c, 0x258b, 0x258a, 0x2589};
	long units = (long)(frac * w * 8 + 0.5);
	int i;

	if (frac > 0 && units == 0)
		units = 1;
	for (i = 0; i < w && units >= 8; i++, units -= 8)
		sv_grid_put(g, x + i, y, ascii ? '#' : 0x2588, style, color);
	if (i < w && units > 0)
		sv_grid_put(g, x + i, y, ascii ? '#' : eighths[units - 1],
			style, color);
}
