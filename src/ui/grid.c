/*
 * grid.c: the screen in memory (grid.h): cells, safe text, the region
 * palette, the default look of each style, and the text / golden / ANSI /
 * SVG dumps.  Invariants: every cell holds a printable code point or
 * SV_GRID_WIDE_TAIL after a wide one; text from a file is escaped before it
 * lands here; the cell buffer never shrinks.  Nothing here knows about
 * curses.
 */
#include "scopeview/grid.h"

#include <errno.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/common.h"

#define GRID_MAX_DIM 4096

static const struct {
	char letter;
	const char *name;
} grid_styles[SV_STYLE_COUNT] = {
#define GRID_STYLE_ROW(id, l, help) [SV_STYLE_##id] = {l, #id},
	SV_STYLE_TABLE(GRID_STYLE_ROW)
#undef GRID_STYLE_ROW
};

/* How each style looks by default: {fg, bg, fg_region, bg_region, bold,
 * reverse, underline, dim}.  Colours are ANSI 0 .. 15. */
static const struct sv_style_attr grid_attrs[SV_STYLE_COUNT] = {
	[SV_STYLE_DEFAULT] = {-1, -1, false, false, false, false, false, false},
	[SV_STYLE_RULER] = {6, -1, false, false, false, false, false, false},
	[SV_STYLE_LABEL] = {-1, -1, false, false, false, false, false, false},
	[SV_STYLE_LABEL_CURSOR] = {-1, -1, false, false, true, true, false,
		false},
	[SV_STYLE_SPAN] = {0, -1, false, true, false, false, false, false},
	[SV_STYLE_SPAN_AWAIT] = {-1, -1, true, false, false, false, false,
		false},
	[SV_STYLE_SPAN_GPU] = {15, 5, false, false, true, false, false, false},
	[SV_STYLE_SPAN_MERGED] = {15, -1, false, true, true, false, false,
		false},
	[SV_STYLE_MATCH] = {0, 11, false, false, true, false, false, false},
	[SV_STYLE_SELECTED] = {0, 15, false, false, true, false, true, false},
	[SV_STYLE_CURSOR] = {-1, -1, false, false, false, true, false, false},
	[SV_STYLE_PANEL] = {-1, -1, false, false, false, false, false, false},
	[SV_STYLE_PANEL_HEAD] = {-1, -1, false, false, true, false, true,
		false},
	[SV_STYLE_PANEL_CURSOR] = {-1, -1, false, false, false, true, false,
		false},
	[SV_STYLE_PANEL_MARK] = {11, -1, false, false, true, false, false,
		false},
	[SV_STYLE_DETAILS] = {-1, -1, false, false, false, false, false, false},
	[SV_STYLE_BORDER] = {8, -1, false, false, false, false, false, false},
	[SV_STYLE_STATUS] = {0, 7, false, false, false, false, false, false},
	[SV_STYLE_PROMPT] = {11, -1, false, false, true, false, false, false},
	[SV_STYLE_POPUP] = {15, 4, false, false, false, false, false, false},
	[SV_STYLE_WARNING] = {9, -1, false, false, true, false, false, false},
	[SV_STYLE_DIM] = {8, -1, false, false, false, false, false, true},
	[SV_STYLE_HOT] = {11, 4, false, false, true, false, false, false},
};

/* Twelve region colours, distinct in 256 colours and reduced to 16/8. */
static const struct sv_palette grid_palette[SV_GRID_NCOLORS + 1] = {
	{0, 7, 7, 0xc0c0c0},
	{68, 12, 4, 0x5f87d7},
	{173, 3, 3, 0xd7875f},
	{107, 2, 2, 0x87af5f},
	{140, 13, 5, 0xaf87d7},
	{179, 11, 3, 0xd7af5f},
	{73, 6, 6, 0x5fafaf},
	{168, 1, 1, 0xd75f87},
	{110, 14, 6, 0x87afd7},
	{143, 10, 2, 0xafaf5f},
	{72, 2, 2, 0x5faf87},
	{175, 5, 5, 0xd787af},
	{137, 9, 1, 0xaf875f},
};

/* The light theme: for a terminal with a light background.  Text that is
 * bright yellow, white or cyan on the dark theme's black becomes blue,
 * black or magenta; the selected call is white on black; the region
 * colours are lighter, so black text on a bar stays readable and bars
 * still stand apart from the white background. */
static const struct sv_style_attr grid_attrs_light[SV_STYLE_COUNT] = {
	[SV_STYLE_DEFAULT] = {-1, -1, false, false, false, false, false, false},
	[SV_STYLE_RULER] = {4, -1, false, false, false, false, false, false},
	[SV_STYLE_LABEL] = {-1, -1, false, false, false, false, false, false},
	[SV_STYLE_LABEL_CURSOR] = {-1, -1, false, false, true, true, false,
		false},
	[SV_STYLE_SPAN] = {0, -1, false, true, false, false, false, false},
	[SV_STYLE_SPAN_AWAIT] = {-1, -1, true, false, false, false, false,
		false},
	[SV_STYLE_SPAN_GPU] = {15, 5, false, false, true, false, false, false},
	[SV_STYLE_SPAN_MERGED] = {0, -1, false, true, true, false, false,
		false},
	[SV_STYLE_MATCH] = {0, 11, false, false, true, false, false, false},
	[SV_STYLE_SELECTED] = {15, 0, false, false, true, false, true, false},
	[SV_STYLE_CURSOR] = {-1, -1, false, false, false, true, false, false},
	[SV_STYLE_PANEL] = {-1, -1, false, false, false, false, false, false},
	[SV_STYLE_PANEL_HEAD] = {-1, -1, false, false, true, false, true,
		false},
	[SV_STYLE_PANEL_CURSOR] = {-1, -1, false, false, false, true, false,
		false},
	[SV_STYLE_PANEL_MARK] = {5, -1, false, false, true, false, false,
		false},
	[SV_STYLE_DETAILS] = {-1, -1, false, false, false, false, false, false},
	[SV_STYLE_BORDER] = {8, -1, false, false, false, false, false, false},
	[SV_STYLE_STATUS] = {15, 4, false, false, false, false, false, false},
	[SV_STYLE_PROMPT] = {4, -1, false, false, true, false, false, false},
	[SV_STYLE_POPUP] = {0, 7, false, false, false, false, false, false},
	[SV_STYLE_WARNING] = {1, -1, false, false, true, false, false, false},
	[SV_STYLE_DIM] = {8, -1, false, false, false, false, false, true},
};

static const struct sv_palette grid_palette_light[SV_GRID_NCOLORS + 1] = {
	{250, 7, 7, 0xbcbcbc},
	{111, 12, 4, 0x87afff},
	{216, 11, 3, 0xffaf87},
	{150, 10, 2, 0xafd787},
	{183, 13, 5, 0xd7afff},
	{222, 11, 3, 0xffd787},
	{116, 14, 6, 0x87d7d7},
	{211, 9, 1, 0xff87af},
	{153, 14, 6, 0xafd7ff},
	{186, 10, 2, 0xd7d787},
	{115, 10, 2, 0x87d7af},
	{218, 13, 5, 0xffafd7},
	{180, 9, 1, 0xd7af87},
};

static const char *const grid_theme_names[SV_THEME_COUNT] = {"dark", "light"};

void sv_grid_init(struct sv_grid *g)
{
	memset(g, 0, sizeof *g);
}

void sv_grid_fini(struct sv_grid *g)
{
	if (!g)
		return;
	free(g->cells);
	memset(g, 0, sizeof *g);
}

void sv_grid_clear(struct sv_grid *g)
{
	size_t i, n = (size_t)g->w * (size_t)g->h;

	for (i = 0; i < n; i++) {
		g->cells[i].ch = ' ';
		g->cells[i].style = SV_STYLE_DEFAULT;
		g->cells[i].color = 0;
	}
}

void sv_grid_resize(struct sv_grid *g, int w, int h)
{
	w = w < 0 ? 0 : w > GRID_MAX_DIM ? GRID_MAX_DIM : w;
	h = h < 0 ? 0 : h > GRID_MAX_DIM ? GRID_MAX_DIM : h;
	size_t need = (size_t)w * (size_t)h;

	if (need > g->cap || !g->cells)
		sv_grow((void **)&g->cells, &g->cap, need > 0 ? need : 1,
			sizeof *g->cells);
	g->w = w;
	g->h = h;
	sv_grid_clear(g);
}

struct sv_cell *sv_grid_at(struct sv_grid *g, int x, int y)
{
	if (!g || x < 0 || y < 0 || x >= g->w || y >= g->h)
		return NULL;
	return &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
}

const struct sv_cell *sv_grid_cell(const struct sv_grid *g, int x, int y)
{
	if (!g || x < 0 || y < 0 || x >= g->w || y >= g->h)
		return NULL;
	return &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
}

/* Characters that must not reach a terminal as themselves. */
static bool grid_is_control(uint32_t cp)
{
	return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
	       sv_utf8_format_control(cp) || (cp >= 0xd800 && cp < 0xe000);
}

/* The visible spelling of a control character into out (ASCII, NUL
 * terminated); returns its length. */
static int grid_escape(uint32_t cp, char out[12])
{
	switch (cp) {
	case '\n':
		return snprintf(out, 12, "\\n");
	case '\t':
		return snprintf(out, 12, "\\t");
	case '\r':
		return snprintf(out, 12, "\\r");
	default:
		break;
	}
	if (cp < 0x100)
		return snprintf(out, 12, "\\x%02x", (unsigned)cp);
	return snprintf(out, 12, "\\u%04x", (unsigned)cp);
}

int sv_grid_put(
	struct sv_grid *g, int x, int y, uint32_t ch, int style, int color)
{
	struct sv_cell *c = sv_grid_at(g, x, y);
	int wd;

	if (!c)
		return 0;
	if (grid_is_control(ch))
		ch = '?';
	wd = sv_utf8_width(ch);
	if (wd == 0)
		return 0;
	if (wd == 2) {
		struct sv_cell *t = sv_grid_at(g, x + 1, y);
		if (!t) {
			c->ch = ' ';
			c->style = (uint16_t)style;
			c->color = (uint16_t)color;
			return 1;
		}
		if (sv_utf8_width(t->ch) == 2) {
			struct sv_cell *t2 = sv_grid_at(g, x + 2, y);
			if (t2 && t2->ch == SV_GRID_WIDE_TAIL)
				t2->ch = ' ';
		}
		t->ch = SV_GRID_WIDE_TAIL;
		t->style = (uint16_t)style;
		t->color = (uint16_t)color;
	}
	/* Overwriting half of a wide character blanks the other half. */
	if (c->ch == SV_GRID_WIDE_TAIL && x > 0) {
		struct sv_cell *h = sv_grid_at(g, x - 1, y);
		if (h)
			h->ch = ' ';
	} else if (wd == 1 && sv_utf8_width(c->ch) == 2) {
		struct sv_cell *t = sv_grid_at(g, x + 1, y);
		if (t && t->ch == SV_GRID_WIDE_TAIL)
			t->ch = ' ';
	}
	c->ch = ch;
	c->style = (uint16_t)style;
	c->color = (uint16_t)color;
	return wd;
}

void sv_grid_fill(struct sv_grid *g, int x0, int y0, int x1, int y1,
	uint32_t ch, int style, int color)
{
	int x, y;

	if (x0 < 0)
		x0 = 0;
	if (y0 < 0)
		y0 = 0;
	if (x1 > g->w)
		x1 = g->w;
	if (y1 > g->h)
		y1 = g->h;
	for (y = y0; y < y1; y++)
		for (x = x0; x < x1; x++)
			sv_grid_put(g, x, y, ch, style, color);
}

/*
 * Walk s as display units: each code point becomes itself (width 1 or 2),
 * nothing (width 0), or its escape (several ASCII cells).  Calls emit for
 * every cell's code point unless emit is NULL; stops before exceeding
 * limit cells.  Returns cells used; *rest tells whether text remained.
 */
static int grid_walk(const char *s, int limit,
	void (*emit)(void *ctx, uint32_t cp, int width), void *ctx, bool *rest)
{
	size_t n = s ? strlen(s) : 0, i = 0;
	int used = 0;

	*rest = false;
	while (i < n) {
		uint32_t cp;
		size_t k = sv_utf8_decode(s + i, n - i, &cp);
		if (grid_is_control(cp)) {
			char esc[12];
			int len = grid_escape(cp, esc), j;
			if (used + len > limit) {
				*rest = true;
				return used;
			}
			for (j = 0; j < len; j++)
				if (emit)
					emit(ctx, (uint32_t)esc[j], 1);
			used += len;
		} else {
			int wd = sv_utf8_width(cp);
			if (used + wd > limit) {
				*rest = true;
				return used;
			}
			if (wd && emit)
				emit(ctx, cp, wd);
			used += wd;
		}
		i += k;
	}
	return used;
}

int sv_grid_text_width(const char *s, int limit)
{
	bool rest;
	return grid_walk(s, limit, NULL, NULL, &rest);
}

struct grid_text_ctx {
	struct sv_grid *g;
	int x, y, style, color;
};

static void grid_text_emit(void *ctx, uint32_t cp, int width)
{
	struct grid_text_ctx *t = ctx;
	sv_grid_put(t->g, t->x, t->y, cp, t->style, t->color);
	t->x += width;
}

int sv_grid_text(struct sv_grid *g, int x, int y, int maxw, const char *s,
	int style, int color, uint32_t ellipsis)
{
	struct grid_text_ctx t = {g, x, y, style, color};
	bool rest;
	int used;

	if (!g || y < 0 || y >= g->h || x >= g->w)
		return 0;
	if (maxw < 0 || maxw > g->w - x)
		maxw = g->w - x;
	if (maxw <= 0)
		return 0;
	used = grid_walk(s, maxw, NULL, NULL, &rest);
	if (!rest || !ellipsis)
		return grid_walk(s, maxw, grid_text_emit, &t, &rest);
	used = grid_walk(s, maxw - 1, grid_text_emit, &t, &rest);
	sv_grid_put(g, x + used, y, ellipsis, style, color);
	return used + 1;
}

int sv_grid_textf(struct sv_grid *g, int x, int y, int maxw, int style,
	int color, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return sv_grid_text(g, x, y, maxw, buf, style, color, 0);
}

int sv_grid_region_color(const char *name)
{
	uint32_t h = 2166136261u;
	const unsigned char *s = (const unsigned char *)(name ? name : "");

	while (*s) {
		h ^= *s++;
		h *= 16777619u;
	}
	return 1 + (int)(h % SV_GRID_NCOLORS);
}

const struct sv_palette *sv_grid_palette(int color)
{
	if (color < 0 || color > SV_GRID_NCOLORS)
		color = 0;
	return &grid_palette[color];
}

const struct sv_palette *sv_grid_theme_palette(int theme, int color)
{
	if (color < 0 || color > SV_GRID_NCOLORS)
		color = 0;
	return theme == SV_THEME_LIGHT ? &grid_palette_light[color]
				       : &grid_palette[color];
}

const struct sv_style_attr *sv_grid_theme_attr(int theme, int style)
{
	if (style < 0 || style >= SV_STYLE_COUNT)
		style = SV_STYLE_DEFAULT;
	return theme == SV_THEME_LIGHT ? &grid_attrs_light[style]
				       : &grid_attrs[style];
}

const char *sv_grid_theme_name(int theme)
{
	return theme >= 0 && theme < SV_THEME_COUNT ? grid_theme_names[theme]
						    : NULL;
}

int sv_grid_theme_from_name(const char *name)
{
	int t;
	for (t = 0; name && t < SV_THEME_COUNT; t++)
		if (!strcmp(name, grid_theme_names[t]))
			return t;
	return -1;
}

const struct sv_style_attr *sv_grid_style_attr(int style)
{
	if (style < 0 || style >= SV_STYLE_COUNT)
		style = SV_STYLE_DEFAULT;
	return &grid_attrs[style];
}

char sv_grid_style_letter(int style)
{
	if (style < 0 || style >= SV_STYLE_COUNT)
		return '?';
	return grid_styles[style].letter;
}

int sv_grid_style_from_letter(char c)
{
	int s;
	for (s = 0; s < SV_STYLE_COUNT; s++)
		if (grid_styles[s].letter == c)
			return s;
	return -1;
}

const char *sv_grid_style_name(int style)
{
	if (style < 0 || style >= SV_STYLE_COUNT)
		return NULL;
	return grid_styles[style].name;
}

bool sv_grid_locale_is_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

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

/* SGR parameters for one ANSI colour as foreground (base 30) or
 * background (base 40). */
static void grid_sgr_ansi(FILE *out, int c, int base)
{
	if (c < 8)
		fprintf(out, ";%d", base + c);
	else
		fprintf(out, ";%d", base + 60 + c - 8);
}

static void grid_sgr(FILE *out, int theme, int style, int color, bool bar)
{
	const struct sv_style_attr *a = sv_grid_theme_attr(theme, style);
	int c256 = sv_grid_theme_palette(theme, color)->xterm256;

	fputs("\x1b[0", out);
	if (a->bold)
		fputs(";1", out);
	if (a->dim)
		fputs(";2", out);
	if (a->underline)
		fputs(";4", out);
	if (a->reverse)
		fputs(";7", out);
	if ((a->fg_region || (bar && a->bg_region)) && color)
		fprintf(out, ";38;5;%d", c256);
	else if (bar && a->bg >= 0)
		grid_sgr_ansi(out, a->bg, 30);
	else if (a->fg >= 0)
		grid_sgr_ansi(out, a->fg, 30);
	if (a->bg_region && color)
		fprintf(out, ";48;5;%d", c256);
	else if (a->bg >= 0)
		grid_sgr_ansi(out, a->bg, 40);
	fputc('m', out);
}

static void grid_write_ansi(const struct sv_grid *g, FILE *out, int theme)
{
	int x, y;

	for (y = 0; y < g->h; y++) {
		int cur_style = -1, cur_color = -1, cur_bar = -1, n = g->w;
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
			if (c->ch == SV_GRID_WIDE_TAIL)
				continue;
			if (c->style != cur_style || c->color != cur_color ||
				(c->ch == SV_GRID_BAR) != cur_bar) {
				cur_bar = c->ch == SV_GRID_BAR;
				grid_sgr(out, theme, c->style, c->color,
					cur_bar);
				cur_style = c->style;
				cur_color = c->color;
			}
			grid_put_utf8(out, c->ch);
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

static void grid_svg_colors(int theme, const struct sv_cell *c, uint32_t *fg,
	uint32_t *bg, bool *has_bg, bool *bold)
{
	const struct sv_style_attr *a = sv_grid_theme_attr(theme, c->style);
	uint32_t f = grid_svg_default[theme][0], b = grid_svg_default[theme][1];
	bool hb = false;

	if (a->fg_region && c->color)
		f = sv_grid_theme_palette(theme, c->color)->rgb;
	else if (a->fg >= 0)
		f = grid_ansi_rgb(a->fg);
	if (a->bg_region && c->color) {
		b = sv_grid_theme_palette(theme, c->color)->rgb;
		hb = true;
	} else if (a->bg >= 0) {
		b = grid_ansi_rgb(a->bg);
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
	if (c->ch == SV_GRID_BAR && hb)
		f = b;
	*fg = f;
	*bg = b;
	*has_bg = hb;
	*bold = a->bold;
}

/* A code point XML 1.0 allows in text (its Char production): others,
 * U+FFFE and U+FFFF among them, would make the SVG ill-formed. */
static bool grid_xml_char(uint32_t cp)
{
	return cp == 0x9 || cp == 0xA || cp == 0xD ||
	       (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
	       (cp >= 0x10000 && cp <= 0x10FFFF);
}

static void grid_write_svg(const struct sv_grid *g, FILE *out, int theme)
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
			uint32_t fg, bg;
			bool hb, bold;
			int x1 = x + 1;
			grid_svg_colors(theme,
				&g->cells[(size_t)y * (size_t)g->w + (size_t)x],
				&fg, &bg, &hb, &bold);
			if (!hb) {
				x++;
				continue;
			}
			while (x1 < g->w) {
				uint32_t f2, b2;
				bool h2, bo2;
				grid_svg_colors(theme,
					&g->cells[(size_t)y * (size_t)g->w +
						  (size_t)x1],
					&f2, &b2, &h2, &bo2);
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
			uint32_t fg, bg;
			bool hb, bold;
			if (c->ch == ' ' || c->ch == SV_GRID_WIDE_TAIL)
				continue;
			grid_svg_colors(theme, c, &fg, &bg, &hb, &bold);
			fprintf(out,
				"<text x=\"%.1f\" y=\"%.1f\" fill=\"#%06x\"%s>",
				x * cw, y * ch + ch * 0.78, fg,
				bold ? " font-weight=\"bold\"" : "");
			if (c->ch == '<')
				fputs("&lt;", out);
			else if (c->ch == '>')
				fputs("&gt;", out);
			else if (c->ch == '&')
				fputs("&amp;", out);
			else if (!grid_xml_char(c->ch))
				grid_put_utf8(out, 0xFFFD);
			else
				grid_put_utf8(out, c->ch);
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
		grid_write_ansi(g, out, theme);
		break;
	case SV_GRID_SVG:
		grid_write_svg(g, out, theme);
		break;
	default:
		return -EINVAL;
	}
	return ferror(out) ? -EIO : 0;
}
