/*
 * grid_write.c: the grid's dumps (grid.h): plain text, the golden files'
 * text and style layers, ANSI escape sequences and SVG, in a theme and
 * for a number of colours (256, 16, 8 or none).  Invariants: the text
 * layer is the cells' code points, whatever the colours; with no colours
 * (NO_COLOR) nothing but bold, dim, underline and reverse is emitted, and
 * bars take the fill patterns of palette.h so regions stay apart.
 * Nothing here knows about curses.
 */
#include "scopeview/grid.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"
#include "scopeview/palette.h"

/* Length of row y without trailing blank DEFAULT-looking cells (for text
 * only the character matters). */
static int grid_row_len(const struct sv_grid *g, int y)
{
	int n = g->w;
	while (n > 0 &&
		g->cells[(size_t)y * (size_t)g->w + (size_t)n - 1].ch == ' ')
		n--;
	return n;
}

static void grid_put_utf8(FILE *out, uint32_t cp)
{
	char buf[5];
	size_t n = sv_utf8_encode(cp, buf);
	fwrite(buf, 1, n, out);
}

static void grid_write_text(const struct sv_grid *g, FILE *out)
{
	int x, y;

	for (y = 0; y < g->h; y++) {
		int n = grid_row_len(g, y);
		for (x = 0; x < n; x++) {
			uint32_t ch =
				g->cells[(size_t)y * (size_t)g->w + (size_t)x]
					.ch;
			if (ch != SV_GRID_WIDE_TAIL)
				grid_put_utf8(out, ch);
		}
		fputc('\n', out);
	}
}

static void grid_write_styles(const struct sv_grid *g, FILE *out)
{
	int x, y;

	grid_write_text(g, out);
	for (y = 0; y < g->h; y++) {
		int n = g->w;
		while (n > 0 &&
			g->cells[(size_t)y * (size_t)g->w + (size_t)n - 1]
					.style == SV_STYLE_DEFAULT &&
			g->cells[(size_t)y * (size_t)g->w + (size_t)n - 1].ch ==
				' ')
			n--;
		for (x = 0; x < n; x++)
			fputc(sv_grid_style_letter(
				      g->cells[(size_t)y * (size_t)g->w +
					       (size_t)x]
					      .style),
				out);
		fputc('\n', out);
	}
}

/* How one cell is coloured: each of fg and bg is -1 (the default), an
 * ANSI colour 0 .. 15, or 256 + an xterm-256 index. */
struct grid_look {
	int fg, bg;
	uint32_t ch;
};

/* A region colour in `colors` colours: 256 + xterm index, or ANSI. */
static int grid_region(int theme, int color, int colors)
{
	const struct sv_palette *p = sv_palette_entry(theme, color);
	if (colors >= 256)
		return 256 + p->xterm256;
	return colors >= 16 ? p->ansi16 : p->ansi8;
}

static int grid_fixed(int c, int colors)
{
	if (c < 0 || colors >= 16)
		return c;
	return c & 7;
}

/* The colours and glyph of cell c (the bar rule and the fill patterns of
 * grid.h and palette.h). */
static struct grid_look grid_cell_look(
	int theme, int colors, const struct sv_cell *c)
{
	const struct sv_style_attr *a = sv_grid_theme_attr(theme, c->style);
	struct grid_look l = {-1, -1, c->ch};
	bool bar = c->ch == SV_GRID_BAR;

	if (bar && c->color)
		l.ch = sv_palette_fill(c->color, colors);
	if (!colors)
		return l;
	if (c->color2 && c->color) {
		l.fg = grid_region(theme, c->color, colors);
		l.bg = grid_region(theme, c->color2, colors);
		return l;
	}
	if (a->fg_region && c->color)
		l.fg = grid_region(theme, c->color, colors);
	else
		l.fg = grid_fixed(a->fg, colors);
	if (a->bg_region && c->color)
		l.bg = grid_region(theme, c->color, colors);
	else
		l.bg = grid_fixed(a->bg, colors);
	if (bar && l.ch == SV_GRID_BAR && l.bg >= 0)
		l.fg = l.bg;
	else if (bar && a->bg_region && c->color) {
		/* A fill pattern: the region's colour on the default. */
		l.fg = l.bg;
		l.bg = -1;
	}
	return l;
}

/* SGR parameters for one colour as foreground (base 30) or background
 * (base 40). */
static void grid_sgr_color(FILE *out, int c, int base)
{
	if (c >= 256)
		fprintf(out, ";%d;5;%d", base + 8, c - 256);
	else if (c >= 8)
		fprintf(out, ";%d", base + 60 + c - 8);
	else if (c >= 0)
		fprintf(out, ";%d", base + c);
}

static void grid_sgr(FILE *out, int theme, int style, const struct grid_look *l)
{
	const struct sv_style_attr *a = sv_grid_theme_attr(theme, style);

	fputs("\x1b[0", out);
	if (a->bold)
		fputs(";1", out);
	if (a->dim)
		fputs(";2", out);
	if (a->underline)
		fputs(";4", out);
	if (a->reverse)
		fputs(";7", out);
	grid_sgr_color(out, l->fg, 30);
	grid_sgr_color(out, l->bg, 40);
	fputc('m', out);
}

static void grid_write_ansi(
	const struct sv_grid *g, FILE *out, int theme, int colors)
{
	int x, y;

	for (y = 0; y < g->h; y++) {
		int cur_style = -1, cur_fg = -2, cur_bg = -2, n = g->w;
		/* Trim trailing blanks that look like the default. */
		while (n > 0) {
			const struct sv_cell *c =
				&g->cells[(size_t)y * (size_t)g->w + (size_t)n -
					  1];
			if (c->ch != ' ' || c->style != SV_STYLE_DEFAULT)
				break;
			n--;
		}
		for (x = 0; x < n; x++) {
			const struct sv_cell *c =
				&g->cells[(size_t)y * (size_t)g->w + (size_t)x];
			struct grid_look l;
			if (c->ch == SV_GRID_WIDE_TAIL)
				continue;
			l = grid_cell_look(theme, colors, c);
			if (c->style != cur_style || l.fg != cur_fg ||
				l.bg != cur_bg) {
				grid_sgr(out, theme, c->style, &l);
				cur_style = c->style;
				cur_fg = l.fg;
				cur_bg = l.bg;
			}
			grid_put_utf8(out, l.ch);
		}
		if (cur_style >= 0)
			fputs("\x1b[0m", out);
		fputc('\n', out);
	}
}

/* The 16 ANSI colours as RGB, for SVG. */
static uint32_t grid_ansi_rgb(int c)
{
	static const uint32_t rgb[16] = {0x000000, 0xcd3131, 0x0dbc79, 0xe5e510,
		0x2472c8, 0xbc3fbc, 0x11a8cd, 0xe5e5e5, 0x666666, 0xf14c4c,
		0x23d18b, 0xf5f543, 0x3b8eea, 0xd670d6, 0x29b8db, 0xffffff};
	return rgb[c & 15];
}

/* The SVG page's default foreground and background per theme. */
static const uint32_t grid_svg_default[SV_THEME_COUNT][2] = {
	{0xd4d4d4, 0x1e1e1e}, {0x1e1e1e, 0xffffff}};

/* An ANSI colour or 256 + an xterm index as RGB. */
static uint32_t grid_rgb(int theme, int c, int color)
{
	if (c >= 256)
		return sv_palette_entry(theme, color)->rgb;
	return grid_ansi_rgb(c);
}

static void grid_svg_colors(int theme, int colors, const struct sv_cell *c,
	uint32_t *fg, uint32_t *bg, bool *has_bg, bool *bold, uint32_t *ch)
{
	const struct sv_style_attr *a = sv_grid_theme_attr(theme, c->style);
	struct grid_look l = grid_cell_look(theme, colors, c);
	uint32_t f = grid_svg_default[theme][0], b = grid_svg_default[theme][1];
	bool hb = false;

	if (l.fg >= 0)
		f = grid_rgb(theme, l.fg, c->color);
	if (l.bg >= 0) {
		b = grid_rgb(theme, l.bg, c->color2 ? c->color2 : c->color);
		hb = true;
	}
	if (a->reverse) {
		uint32_t t = f;
		f = b;
		b = t;
		hb = true;
	}
	if (a->dim)
		f = 0x808080;
	*fg = f;
	*bg = b;
	*has_bg = hb;
	*bold = a->bold;
	*ch = l.ch;
}

/* A code point XML 1.0 allows in text (its Char production): others,
 * U+FFFE and U+FFFF among them, would make the SVG ill-formed. */
static bool grid_xml_char(uint32_t cp)
{
	return cp == 0x9 || cp == 0xA || cp == 0xD ||
	       (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
	       (cp >= 0x10000 && cp <= 0x10FFFF);
}

static void grid_write_svg(
	const struct sv_grid *g, FILE *out, int theme, int colors)
{
	const double cw = 8.4, ch = 17.0;
	int x, y;

	fprintf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.1f %.1f\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#%06x\"/>\n"
		"<g font-family=\"DejaVu Sans Mono, Menlo, Consolas, "
		"monospace\" font-size=\"14px\">\n",
		g->w * cw, g->h * ch, g->w * cw, g->h * ch,
		grid_svg_default[theme][1]);
	for (y = 0; y < g->h; y++) {
		/* Backgrounds: one rect per run of equal colour. */
		x = 0;
		while (x < g->w) {
			uint32_t fg, bg, gl;
			bool hb, bold;
			int x1 = x + 1;
			grid_svg_colors(theme, colors,
				&g->cells[(size_t)y * (size_t)g->w + (size_t)x],
				&fg, &bg, &hb, &bold, &gl);
			if (!hb) {
				x++;
				continue;
			}
			while (x1 < g->w) {
				uint32_t f2, b2, g2;
				bool h2, bo2;
				grid_svg_colors(theme, colors,
					&g->cells[(size_t)y * (size_t)g->w +
						  (size_t)x1],
					&f2, &b2, &h2, &bo2, &g2);
				if (!h2 || b2 != bg)
					break;
				x1++;
			}
			fprintf(out,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\" fill=\"#%06x\"/>\n",
				x * cw, y * ch, (x1 - x) * cw, ch, bg);
			x = x1;
		}
		/* Text: one element per cell with a visible glyph, so wide and
		 * narrow glyphs stay on the grid. */
		for (x = 0; x < g->w; x++) {
			const struct sv_cell *c =
				&g->cells[(size_t)y * (size_t)g->w + (size_t)x];
			uint32_t fg, bg, gl;
			bool hb, bold;
			if (c->ch == ' ' || c->ch == SV_GRID_WIDE_TAIL)
				continue;
			grid_svg_colors(
				theme, colors, c, &fg, &bg, &hb, &bold, &gl);
			fprintf(out,
				"<text x=\"%.1f\" y=\"%.1f\" fill=\"#%06x\"%s>",
				x * cw, y * ch + ch * 0.78, fg,
				bold ? " font-weight=\"bold\"" : "");
			if (gl == '<')
				fputs("&lt;", out);
			else if (gl == '>')
				fputs("&gt;", out);
			else if (gl == '&')
				fputs("&amp;", out);
			else if (!grid_xml_char(gl))
				grid_put_utf8(out, 0xFFFD);
			else
				grid_put_utf8(out, gl);
			fputs("</text>\n", out);
		}
	}
	fputs("</g>\n</svg>\n", out);
}

int sv_grid_write(const struct sv_grid *g, FILE *out, enum sv_grid_format f)
{
	return sv_grid_write_theme(g, out, f, SV_THEME_DARK);
}

int sv_grid_write_theme(
	const struct sv_grid *g, FILE *out, enum sv_grid_format f, int theme)
{
	return sv_grid_write_colors(g, out, f, theme, 256);
}

int sv_grid_write_colors(const struct sv_grid *g, FILE *out,
	enum sv_grid_format f, int theme, int colors)
{
	if (!g || !out || theme < 0 || theme >= SV_THEME_COUNT)
		return -EINVAL;
	switch (f) {
	case SV_GRID_TEXT:
		grid_write_text(g, out);
		break;
	case SV_GRID_STYLES:
		grid_write_styles(g, out);
		break;
	case SV_GRID_ANSI:
		grid_write_ansi(g, out, theme, colors);
		break;
	case SV_GRID_SVG:
		grid_write_svg(g, out, theme, colors);
		break;
	default:
		return -EINVAL;
	}
	return ferror(out) ? -EIO : 0;
}
