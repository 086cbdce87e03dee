/*
 * grid.c: the screen in memory (grid.h): cells, safe text and the default
 * look of each style (the region colours are palette.c's, the dumps
 * grid_write.c's).  Invariants: every cell holds a printable code point or
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
#include "scopeview/palette.h"

#define GRID_MAX_DIM 4096

static const struct {
	char letter;
	const char *name;
} grid_styles[SV_STYLE_COUNT] = {
#define GRID_STYLE_ROW(id, l, help, dark, light) [SV_STYLE_##id] = {l, #id},
	SV_STYLE_TABLE(GRID_STYLE_ROW)
#undef GRID_STYLE_ROW
};

/* How each style looks in each theme: the table's columns. */
static const struct sv_style_attr grid_attrs[SV_STYLE_COUNT] = {
#define GRID_STYLE_DARK(id, l, help, dark, light) [SV_STYLE_##id] = dark,
	SV_STYLE_TABLE(GRID_STYLE_DARK)
#undef GRID_STYLE_DARK
};
static const struct sv_style_attr grid_attrs_light[SV_STYLE_COUNT] = {
#define GRID_STYLE_LIGHT(id, l, help, dark, light) [SV_STYLE_##id] = light,
	SV_STYLE_TABLE(GRID_STYLE_LIGHT)
#undef GRID_STYLE_LIGHT
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
		g->cells[i].color2 = 0;
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

int sv_grid_put(
	struct sv_grid *g, int x, int y, uint32_t ch, int style, int color)
{
	struct sv_cell *c = sv_grid_at(g, x, y);
	int wd;

	if (!c)
		return 0;
	if (sv_utf8_is_control(ch))
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
		t->color2 = 0;
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
	c->color2 = 0;
	return wd;
}

int sv_grid_put2(struct sv_grid *g, int x, int y, uint32_t ch, int style,
	int color, int color2)
{
	int wd = sv_grid_put(g, x, y, ch, style, color);
	struct sv_cell *c = sv_grid_at(g, x, y);

	if (wd && c && color2 >= 0 && color2 <= SV_GRID_NCOLORS)
		c->color2 = (uint16_t)color2;
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
		if (sv_utf8_is_control(cp)) {
			char esc[SV_UTF8_ESCAPE_MAX];
			int len = sv_utf8_escape(cp, esc), j;
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
	return sv_palette_hash(name);
}

const struct sv_palette *sv_grid_palette(int color)
{
	return sv_palette_entry(SV_THEME_DARK, color);
}

const struct sv_palette *sv_grid_theme_palette(int theme, int color)
{
	return sv_palette_entry(theme, color);
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

int sv_grid_diff_style(int level)
{
	static const int styles[5] = {SV_STYLE_DIFF_FASTER_MUCH,
		SV_STYLE_DIFF_FASTER, SV_STYLE_DIFF_SAME, SV_STYLE_DIFF_SLOWER,
		SV_STYLE_DIFF_SLOWER_MUCH};
	if (level < -2)
		level = -2;
	if (level > 2)
		level = 2;
	return styles[level + 2];
}
