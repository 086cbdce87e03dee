/*
 * term.h: the curses backend, the only code that talks to a terminal.
 *
 * It publishes a struct sv_grid (grid.h) to the terminal and turns what the
 * terminal sends (keys, mouse reports, resizes) into the key codes of
 * keys.h.  Each present copies the whole grid into curses' virtual screen;
 * curses then sends only the cells that differ from what the terminal
 * already shows, so a one-column pan over SSH costs a few hundred bytes,
 * not a repaint.
 *
 * Colours follow what the terminal reports: 256, 16 or 8 colours, or none
 * (monochrome: bold, reverse and underline only).  NO_COLOR (set and not
 * empty) forces monochrome.  Styles (grid.h) are mapped to attributes and
 * colour pairs once, when the terminal is opened.
 *
 * The glyph set is not decided here: the renderer draws Unicode or ASCII
 * glyphs by the locale (or --ascii).  When the locale is not UTF-8 this
 * backend still replaces any code point above 0x7e by '?', so a region name
 * from the file cannot send bytes the terminal would misread.
 *
 * Signals (only when opts.signals is set, i.e. in the real viewer):
 * SIGINT, SIGTERM, SIGSEGV, SIGBUS, SIGFPE and SIGABRT restore the terminal
 * and then take their default action; SIGTSTP (Ctrl-Z) restores the
 * terminal, stops, and on `fg` the next sv_term_getkey() returns
 * SV_KEY_RESIZE so the caller redraws; SIGWINCH comes out of
 * sv_term_getkey() as SV_KEY_RESIZE.  sv_die() (common.h) restores the
 * terminal before printing.
 *
 * Only one terminal can be open at a time (curses has one current screen).
 * Nothing here knows about profiles, views or HDF5.
 */
#ifndef SCOPEVIEW_TERM_H
#define SCOPEVIEW_TERM_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_TERM)
#error "scopeview/term.h belongs to the term layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "scopeview/common.h"
#include "scopeview/grid.h"

struct sv_term;

struct sv_term_opts {
	FILE *in, *out;        /* NULL: stdin and stdout */
	const char *term_name; /* terminfo name; NULL: $TERM */
	bool mouse;            /* report clicks, drags and the wheel */
	bool signals;          /* install the signal handlers above */
	/* Use at most this many colours: 256, 16, 8, or 0 / 1 for
	 * monochrome; -1 = as the terminal reports (the normal case). */
	int max_colors;
	/* The look of the styles and region colours: enum sv_theme (grid.h;
	 * SV_THEME_AUTO asks the terminal, see sv_term_query_background),
	 * and, when not NULL, SV_STYLE_COUNT attributes that replace the
	 * theme's (a config file's `color` lines), only those whose
	 * style_set is true when style_set is not NULL; copied at open. */
	int theme;
	const struct sv_style_attr *styles;
	const bool *style_set;
};

/* Defaults: stdin/stdout, $TERM, mouse on, signals on, colours as
 * reported, the dark theme. */
void sv_term_opts_default(struct sv_term_opts *o);

/*
 * Open the terminal: curses on o->out/o->in, no echo, cbreak, keypad,
 * hidden cursor, colours, mouse.  The screen is cleared on the first
 * present.  Call setlocale(LC_ALL, "") before, or wide characters do not
 * reach the terminal.  On success stores the terminal in *out and returns
 * 0; on failure (no such terminal type, one already open) returns a
 * negative errno and fills err.
 */
int sv_term_open(const struct sv_term_opts *o, struct sv_term **out,
	struct sv_error *err);

/* Restore the terminal (leave the alternate screen, turn the mouse off)
 * and free everything.  NULL-safe; safe to call twice through the die hook
 * and here. */
void sv_term_close(struct sv_term *t);

/* The terminal's size in cells. */
void sv_term_size(struct sv_term *t, int *w, int *h);

/* Force a size (tests, or a size learned elsewhere): curses resizes its
 * screens to w x h. */
void sv_term_resize(struct sv_term *t, int w, int h);

/*
 * Wait for the next key and return it as a keys.h code.  timeout_ms < 0
 * blocks (the process sleeps: 0% CPU while idle); otherwise returns
 * SV_KEY_NONE when nothing came within timeout_ms.  Either way a wake-up
 * (sv_term_wake) ends the wait with SV_KEY_NONE.  Returns SV_KEY_RESIZE
 * after a resize or a Ctrl-Z / fg, and SV_KEY_EOF when the input is gone
 * (the terminal hung up).  Mouse events the viewer has no use for (other
 * buttons) are skipped.
 */
int sv_term_getkey(struct sv_term *t, int timeout_ms);

/* End the wait of a sv_term_getkey() with a timeout or without one, now
 * or the next one to wait: it returns SV_KEY_NONE (term_wake.c).  For
 * sv_backend.wake: any thread may call it at any time, whether a terminal
 * is open or not. */
void sv_term_wake(void);
/* Whether the wake-up works here (its pipe could be made). */
bool sv_term_wake_ready(void);
/* Wait up to timeout_ms (< 0: no limit) for input on in_fd (-1: none)
 * or a wake-up, and take the wake-ups: 1 when in_fd has input (or an error
 * or hang-up to read), 0 when the time ran out or a wake-up came, -1
 * when a signal came first. */
int sv_term_wait(int in_fd, int timeout_ms);

/* Copy g into the screen and let curses send the changes.  Cells outside
 * g are blanked; cells of g outside the screen are dropped. */
void sv_term_present(struct sv_term *t, const struct sv_grid *g);

/* Ring the bell (or flash) for a key that did nothing. */
void sv_term_beep(struct sv_term *t);

/* The theme in use (SV_THEME_DARK or SV_THEME_LIGHT, never AUTO). */
int sv_term_theme(const struct sv_term *t);

/*
 * Ask the terminal on out_fd / in_fd (in the mode curses sets: no echo,
 * no line buffering) for its background colour: the OSC 11 query, then
 * DA1, whose reply ends the wait; at most timeout_ms.  Returns
 * SV_THEME_LIGHT or SV_THEME_DARK by the colour's luminance, or -1 when
 * the terminal did not say.  Bytes that came but are not replies (keys
 * typed meanwhile) are copied to rest (at least 512 bytes) and their
 * number to *nrest, for the caller to read as input.
 */
int sv_term_query_background(
	int in_fd, int out_fd, int timeout_ms, char *rest, size_t *nrest);
/* The theme an OSC 11 reply in s[0..n) reports ("ESC ] 11 ; rgb:ffff/
 * ffff/ffff BEL" is light), or -1 when s holds none. */
int sv_term_parse_background(const char *s, size_t n);

/* The colours in use: 256, 16, 8, or 0 for monochrome. */
int sv_term_colors(const struct sv_term *t);

/* What one screen cell holds after a present, read back from curses'
 * virtual screen: for tests of the blit. */
struct sv_term_cell {
	uint32_t ch; /* code point */
	int fg, bg;  /* colour numbers, -1 = terminal default */
	bool bold, reverse, underline, dim;
};
/* Returns 0, or -EINVAL outside the screen. */
int sv_term_peek(struct sv_term *t, int x, int y, struct sv_term_cell *out);

/* The colours and attributes a (style, region colour) pair is drawn with,
 * as sv_term_peek would report them. */
void sv_term_style_look(const struct sv_term *t, int style, int color,
	struct sv_term_cell *out);

#endif
