/*
 * grid.h: the screen in memory.  A grid is w x h cells of {code point,
 * style, colour}; the renderer draws into it and a backend publishes it
 * (curses in term.c, or text/ANSI/SVG in snapshot).  Nothing here knows
 * about curses.
 *
 * Styles name a meaning, never a colour (SV_STYLE_TABLE); each has one
 * letter for the style layer of golden screens.  The colour of a cell is a
 * region colour index (1 .. SV_GRID_NCOLORS, from sv_grid_region_color())
 * or 0 for none; the backend decides what a style and a colour look like,
 * with sv_grid_style_attr() as the shared default.  One rule every
 * backend follows: a cell holding SV_GRID_BAR (U+2588 FULL BLOCK) is drawn
 * with its background colour as foreground too, so a bar is one solid
 * colour while the text layer still shows the bar.
 *
 * A wide character (CJK, emoji) takes two cells: the first holds the code
 * point, the second SV_GRID_WIDE_TAIL.  Text written through sv_grid_text()
 * never puts control characters into the grid: they are shown as visible
 * escapes ("\x1b", "\n", "\x7f", "\u202e" for bidi controls).
 *
 * The cell buffer only grows (sv_grid_resize never shrinks the
 * allocation), so redrawing every frame allocates nothing.
 */
#ifndef SCOPEVIEW_GRID_H
#define SCOPEVIEW_GRID_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/grid.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * X(NAME, letter, meaning, dark, light): every style, its letter in golden
 * screens, what it means, and how it looks in the dark and the light
 * theme, each an SV_LOOK(fg, bg, attributes): ANSI colours 0 .. 15 (-1:
 * the terminal's), and SV_LOOK_* bits.  One row a style, so no style can
 * lack a theme.  The light theme is for a terminal with a light
 * background: text that is bright yellow, white or cyan on the dark
 * theme's black becomes blue, black or magenta, the selected call is white
 * on black.  A change between two runs looks the same in both: grey, light
 * or full red and blue, with text that reads on them.
 */
#define SV_LOOK_FG_REGION 1u /* the foreground is the cell's region colour */
#define SV_LOOK_BG_REGION 2u /* the background is */
#define SV_LOOK_BOLD      4u
#define SV_LOOK_REVERSE   8u
#define SV_LOOK_UNDERLINE 16u
#define SV_LOOK_DIM       32u
#define SV_LOOK(fg, bg, a)                                                     \
	{                                                                      \
		(fg), (bg), ((a)&SV_LOOK_FG_REGION) != 0,                      \
			((a)&SV_LOOK_BG_REGION) != 0, ((a)&SV_LOOK_BOLD) != 0, \
			((a)&SV_LOOK_REVERSE) != 0,                            \
			((a)&SV_LOOK_UNDERLINE) != 0, ((a)&SV_LOOK_DIM) != 0   \
	}
#define SV_STYLE_TABLE(X)                                                      \
	X(DEFAULT, '.', "default text and empty timeline", SV_LOOK(-1, -1, 0), \
		SV_LOOK(-1, -1, 0))                                            \
	X(RULER, 'r', "time axis and tick labels", SV_LOOK(6, -1, 0),          \
		SV_LOOK(4, -1, 0))                                             \
	X(LABEL, 'l', "lane labels", SV_LOOK(-1, -1, 0), SV_LOOK(-1, -1, 0))   \
	X(LABEL_CURSOR, 'L', "the label of the lane under the cursor",         \
		SV_LOOK(-1, -1, SV_LOOK_BOLD | SV_LOOK_REVERSE),               \
		SV_LOOK(-1, -1, SV_LOOK_BOLD | SV_LOOK_REVERSE))               \
	X(SPAN, 's', "a call bar, in its region colour",                       \
		SV_LOOK(0, -1, SV_LOOK_BG_REGION),                             \
		SV_LOOK(0, -1, SV_LOOK_BG_REGION))                             \
	X(SPAN_AWAIT, 'a', "a call whose task was suspended for part of it",   \
		SV_LOOK(-1, -1, SV_LOOK_FG_REGION),                            \
		SV_LOOK(-1, -1, SV_LOOK_FG_REGION))                            \
	X(SPAN_GPU, 'g', "the GPU marker of a call with device time",          \
		SV_LOOK(15, 5, SV_LOOK_BOLD), SV_LOOK(15, 5, SV_LOOK_BOLD))    \
	X(SPAN_MERGED, 'm', "one cell standing for several calls",             \
		SV_LOOK(-1, -1, SV_LOOK_FG_REGION | SV_LOOK_BOLD),             \
		SV_LOOK(-1, -1, SV_LOOK_FG_REGION | SV_LOOK_BOLD))             \
	X(SPAN_DIM, 'n', "a call the search does not match, dimmed",           \
		SV_LOOK(8, -1, SV_LOOK_DIM), SV_LOOK(8, -1, SV_LOOK_DIM))      \
	X(MATCH, 'M', "a call matching the search or the chosen region",       \
		SV_LOOK(0, 11, SV_LOOK_BOLD), SV_LOOK(0, 11, SV_LOOK_BOLD))    \
	X(SELECTED, 'S', "the selected call",                                  \
		SV_LOOK(0, 15, SV_LOOK_BOLD | SV_LOOK_UNDERLINE),              \
		SV_LOOK(15, 0, SV_LOOK_BOLD | SV_LOOK_UNDERLINE))              \
	X(CURSOR, 'c', "the cursor cell on empty timeline",                    \
		SV_LOOK(-1, -1, SV_LOOK_REVERSE),                              \
		SV_LOOK(-1, -1, SV_LOOK_REVERSE))                              \
	X(PANEL, 'p', "summary side panel", SV_LOOK(-1, -1, 0),                \
		SV_LOOK(-1, -1, 0))                                            \
	X(PANEL_HEAD, 'h', "panel and popup headings",                         \
		SV_LOOK(-1, -1, SV_LOOK_BOLD | SV_LOOK_UNDERLINE),             \
		SV_LOOK(-1, -1, SV_LOOK_BOLD | SV_LOOK_UNDERLINE))             \
	X(PANEL_CURSOR, 'P', "the panel row under the panel cursor",           \
		SV_LOOK(-1, -1, SV_LOOK_REVERSE),                              \
		SV_LOOK(-1, -1, SV_LOOK_REVERSE))                              \
	X(PANEL_MARK, 'k', "the panel row of the selected call's region",      \
		SV_LOOK(11, -1, SV_LOOK_BOLD), SV_LOOK(5, -1, SV_LOOK_BOLD))   \
	X(DETAILS, 'd', "details of the selected call", SV_LOOK(-1, -1, 0),    \
		SV_LOOK(-1, -1, 0))                                            \
	X(BORDER, '|', "borders between areas", SV_LOOK(8, -1, 0),             \
		SV_LOOK(8, -1, 0))                                             \
	X(STATUS, 'b', "status line", SV_LOOK(0, 7, 0), SV_LOOK(15, 4, 0))     \
	X(PROMPT, 'i', "a prompt and the text typed into it",                  \
		SV_LOOK(11, -1, SV_LOOK_BOLD), SV_LOOK(4, -1, SV_LOOK_BOLD))   \
	X(POPUP, 'u', "popup windows (help, source, metadata, warnings)",      \
		SV_LOOK(15, 4, 0), SV_LOOK(0, 7, 0))                           \
	X(WARNING, 'w', "warnings and error messages",                         \
		SV_LOOK(9, -1, SV_LOOK_BOLD), SV_LOOK(1, -1, SV_LOOK_BOLD))    \
	X(DIM, 'x', "secondary text", SV_LOOK(8, -1, SV_LOOK_DIM),             \
		SV_LOOK(8, -1, SV_LOOK_DIM))                                   \
	X(HOT, 't', "the hottest lines of a line profile in a popup",          \
		SV_LOOK(11, 4, SV_LOOK_BOLD), SV_LOOK(15, 1, SV_LOOK_BOLD))    \
	X(DIFF_SAME, '~', "a frame or figure the second run did not change",   \
		SV_LOOK(0, 7, 0), SV_LOOK(0, 7, 0))                            \
	X(DIFF_SLOWER, '+', "slower in the second run (by 1% to 10%)",         \
		SV_LOOK(0, 9, 0), SV_LOOK(0, 9, 0))                            \
	X(DIFF_SLOWER_MUCH, '*', "slower in the second run by 10% or more",    \
		SV_LOOK(15, 1, SV_LOOK_BOLD), SV_LOOK(15, 1, SV_LOOK_BOLD))    \
	X(DIFF_FASTER, '-', "faster in the second run (by 1% to 10%)",         \
		SV_LOOK(0, 12, 0), SV_LOOK(0, 12, 0))                          \
	X(DIFF_FASTER_MUCH, '=', "faster in the second run by 10% or more",    \
		SV_LOOK(15, 4, SV_LOOK_BOLD), SV_LOOK(15, 4, SV_LOOK_BOLD))    \
	X(BAR, 'v', "a bar of a figure (a rank's time), in a region colour",   \
		SV_LOOK(-1, -1, SV_LOOK_FG_REGION),                            \
		SV_LOOK(-1, -1, SV_LOOK_FG_REGION))                            \
	X(CHART_LINE, 'e', "a chart's line (the median of a trend)",           \
		SV_LOOK(15, -1, SV_LOOK_BOLD), SV_LOOK(0, -1, SV_LOOK_BOLD))   \
	X(CHART, 'o', "a line of a chart and its points, in a region colour",  \
		SV_LOOK(-1, -1, SV_LOOK_FG_REGION | SV_LOOK_BOLD),             \
		SV_LOOK(-1, -1, SV_LOOK_FG_REGION | SV_LOOK_BOLD))             \
	X(CHART_IDEAL, 'I', "the ideal line of a chart (perfect scaling)",     \
		SV_LOOK(7, -1, SV_LOOK_DIM), SV_LOOK(8, -1, 0))

enum sv_style {
#define SV_STYLE_ENUM(name, letter, help, dark, light) SV_STYLE_##name,
	SV_STYLE_TABLE(SV_STYLE_ENUM)
#undef SV_STYLE_ENUM
		SV_STYLE_COUNT
};

/* Number of colours (colour indexes 1 .. SV_GRID_NCOLORS): the region
 * colours and the heat ramp of palette.h. */
#define SV_GRID_NCOLORS 32

/* The bar glyph (see above). */
#define SV_GRID_BAR 0x2588u

/* The second cell of a wide character. */
#define SV_GRID_WIDE_TAIL 0u

struct sv_cell {
	uint32_t ch;     /* Unicode code point; SV_GRID_WIDE_TAIL after a wide
			   character */
	uint16_t style;  /* enum sv_style */
	uint16_t color;  /* 0 = none, else region colour 1 .. SV_GRID_NCOLORS */
	uint16_t color2; /* 0 = none, else the colour of the cell's background
			    (a boundary glyph such as U+258C between two calls:
			    color for the left half, color2 for the right) */
};

struct sv_grid {
	int w, h;              /* current size in cells, >= 0 */
	struct sv_cell *cells; /* w * h, row-major */
	size_t cap;            /* allocated cells; only grows */
};

/* How a style looks by default: ANSI colour numbers 0 .. 15 or -1 for the
 * terminal default; fg_region / bg_region mean "use the cell's region
 * colour".  Backends with fewer colours reduce these. */
struct sv_style_attr {
	int8_t fg, bg;
	bool fg_region, bg_region;
	bool bold, reverse, underline, dim;
};

/* One region colour in the three palettes a terminal may offer. */
struct sv_palette {
	uint8_t xterm256; /* index into the 256-colour palette */
	uint8_t ansi16;   /* 0 .. 15 */
	uint8_t ansi8;    /* 0 .. 7 */
	uint32_t rgb;     /* 0xRRGGBB, for SVG */
};

/* The looks of the styles and region colours: for a dark terminal
 * background (the default) or a light one.  SV_THEME_AUTO is not a
 * theme but a wish: ask the terminal (term.h), dark when it does not say. */
enum sv_theme {
	SV_THEME_AUTO = -1,
	SV_THEME_DARK,
	SV_THEME_LIGHT,
	SV_THEME_COUNT
};

void sv_grid_init(struct sv_grid *g);
void sv_grid_fini(struct sv_grid *g);
/* Set the size (each dimension clamped to 0 .. 4096) and clear to blank
 * DEFAULT cells.  Allocates only when w * h exceeds the capacity. */
void sv_grid_resize(struct sv_grid *g, int w, int h);
/* Blank every cell with style DEFAULT. */
void sv_grid_clear(struct sv_grid *g);

/* The cell at (x, y), or NULL outside the grid. */
struct sv_cell *sv_grid_at(struct sv_grid *g, int x, int y);
const struct sv_cell *sv_grid_cell(const struct sv_grid *g, int x, int y);

/* Put one code point (no escaping; a control character becomes '?').
 * Clipped to the grid.  A wide code point also writes the tail cell when
 * it fits, else a blank.  Returns the cells used (0, 1 or 2). */
int sv_grid_put(
	struct sv_grid *g, int x, int y, uint32_t ch, int style, int color);
/* sv_grid_put, then the cell's background colour color2 (grid.h's
 * struct sv_cell); returns the cells used. */
int sv_grid_put2(struct sv_grid *g, int x, int y, uint32_t ch, int style,
	int color, int color2);
/* Fill [x0, x1) x [y0, y1) with ch, clipped. */
void sv_grid_fill(struct sv_grid *g, int x0, int y0, int x1, int y1,
	uint32_t ch, int style, int color);

/*
 * Write UTF-8 text at (x, y) into at most maxw cells, escaping control and
 * bidi characters visibly, and return the cells used.  When the text does
 * not fit and ellipsis is nonzero, the last cell used is that code point
 * (e.g. U+2026 or '~').  maxw < 0 means "to the right edge".
 */
int sv_grid_text(struct sv_grid *g, int x, int y, int maxw, const char *s,
	int style, int color, uint32_t ellipsis);
/* printf into the grid (no ellipsis); returns cells used. */
int sv_grid_textf(struct sv_grid *g, int x, int y, int maxw, int style,
	int color, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* Cells s would take through sv_grid_text (after escaping), at most
 * limit (pass a large number for all). */
int sv_grid_text_width(const char *s, int limit);

/* A stable region colour 1 .. SV_PALETTE_NREGION (palette.h) for a region
 * name (FNV-1a hash): the same name has the same colour in every run.
 * Views with a session use its map (sv_session_region_color), which also
 * keeps callers, callees and the heaviest regions apart. */
int sv_grid_region_color(const char *name);
/* The style of a change between two runs of level -2 .. 2 (diff.h's
 * sv_diff_level: much faster .. much slower). */
int sv_grid_diff_style(int level);
const struct sv_palette *sv_grid_palette(int color);
const struct sv_style_attr *sv_grid_style_attr(int style);
/* The same in a theme (enum sv_theme; out of range: dark).
 * sv_grid_palette and sv_grid_style_attr are the dark theme's. */
const struct sv_palette *sv_grid_theme_palette(int theme, int color);
const struct sv_style_attr *sv_grid_theme_attr(int theme, int style);
/* "dark" / "light", or NULL; the theme of a name, or -1. */
const char *sv_grid_theme_name(int theme);
int sv_grid_theme_from_name(const char *name);
/* The golden-file letter of a style, and the style of a letter (-1). */
char sv_grid_style_letter(int style);
int sv_grid_style_from_letter(char c);
const char *sv_grid_style_name(int style);

/* Should the screen use Unicode box drawing and block glyphs?  True when
 * the LC_CTYPE locale's codeset is UTF-8.  Call setlocale(LC_CTYPE, "")
 * first.  Never looks at TERM. */
bool sv_grid_locale_is_utf8(void);

enum sv_grid_format {
	SV_GRID_TEXT,   /* h lines of characters, trailing blanks trimmed */
	SV_GRID_STYLES, /* the text layer, then h lines of style letters */
	SV_GRID_ANSI,   /* the text layer plus SGR sequences */
	SV_GRID_SVG,    /* an SVG document for documentation */
};

/* Write the grid to out in the given format.  Returns 0 or -EIO. */
int sv_grid_write(const struct sv_grid *g, FILE *out, enum sv_grid_format f);
/* The same with the colours of a theme (ANSI and SVG differ; -EINVAL for
 * an unknown theme). */
int sv_grid_write_theme(
	const struct sv_grid *g, FILE *out, enum sv_grid_format f, int theme);
/* The same for a terminal of `colors` colours: 256 (as above), 16 or 8
 * (ANSI: the reduced palette; bars in the fill patterns of palette.h),
 * or 0 (NO_COLOR: no colour at all, only bold, dim, underline and
 * reverse; SVG in grey).  -EINVAL for an unknown theme. */
int sv_grid_write_colors(const struct sv_grid *g, FILE *out,
	enum sv_grid_format f, int theme, int colors);

#endif
