/*
 * term.c: the curses backend (see term.h).  The only file that includes
 * <curses.h>.
 *
 * Invariants: at most one struct sv_term is open (term_current); every
 * path out of the program that may leave curses active (sv_die, the fatal
 * signals, Ctrl-Z) goes through term_restore(), which is idempotent.  The
 * look of every (style, region colour) pair is computed once at open into
 * term->looks, so a present is one table lookup and one mvadd_wch per cell.
 */
#define _XOPEN_SOURCE_EXTENDED 1

#include "scopeview/term.h"

#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>

#include "scopeview/keys.h"
#include "scopeview/palette.h"

/* How one (style, colour) pair is drawn. */
struct term_look {
	attr_t attrs;
	short pair;
	int fg, bg; /* resolved colour numbers (-1 default), for peek */
};

struct sv_term {
	SCREEN *screen;
	FILE *in, *out;
	bool signals;
	bool mouse;
	bool xterm_mouse;    /* we also asked for button-motion reports */
	bool button_down;    /* button 1 is held: motion is a drag */
	bool motion_pending; /* send the 1002 request after the next update */
	bool utf8;
	bool cleared; /* the first present clears the terminal */
	int colors;   /* 256, 16, 8 or 0 */
	bool default_colors;
	int npairs; /* pairs allocated so far (pair 0 is fixed) */
	struct {
		short fg, bg;
	} pairs[2048];
	struct term_look looks[SV_STYLE_COUNT][SV_GRID_NCOLORS + 1];
	/* A bar cell (SV_GRID_BAR) of a style and colour: one solid colour
	 * in 256 colours, else the region's fill pattern (palette.h) in its
	 * colour on the default background. */
	struct term_look bars[SV_STYLE_COUNT][SV_GRID_NCOLORS + 1];
	/* The pair of a cell with two region colours (color, color2), made
	 * on first use; -1 not yet. */
	short pairs2[SV_GRID_NCOLORS + 1][SV_GRID_NCOLORS + 1];
	int theme;
	struct sv_style_attr styles[SV_STYLE_COUNT];
};

static struct sv_term *term_current;
/* Set by the SIGTSTP handler; sv_term_getkey() stops the process. */
static volatile sig_atomic_t term_stop_pending;
/* Restoring has happened (endwin called) since the last present. */
static volatile sig_atomic_t term_restored;

static const int term_fatal_signals[] = {
	SIGINT, SIGTERM, SIGSEGV, SIGBUS, SIGFPE, SIGABRT};

/* Ask for (or stop) reports of motion while a button is held (xterm mode
 * 1002), which curses does not request itself.  Written straight to the
 * terminal, only when curses' own output buffer is empty (after a
 * doupdate, or before endwin when the order no longer matters), so it
 * always comes after curses' own mouse mode string. */
static void term_mouse_motion(struct sv_term *t, bool on)
{
	const char *s = on ? "\033[?1002h" : "\033[?1002l";
	ssize_t r;

	if (!t->xterm_mouse)
		return;
	fflush(t->out);
	r = write(fileno(t->out), s, strlen(s));
	(void)r;
}

/* Leave curses mode; idempotent.  Not async-signal-safe (nothing that
 * restores a curses terminal is), but it only runs on the way out. */
static void term_restore(void)
{
	struct sv_term *t = term_current;

	if (!t || term_restored)
		return;
	term_restored = 1;
	term_mouse_motion(t, false);
	endwin();
	fflush(t->out);
}

static void term_die_hook(void)
{
	term_restore();
}

static void term_fatal_handler(int sig)
{
	term_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void term_tstp_handler(int sig)
{
	(void)sig;
	term_stop_pending = 1;
}

static void term_install_signals(bool on)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	for (i = 0;
		i < sizeof term_fatal_signals / sizeof term_fatal_signals[0];
		i++) {
		sa.sa_handler = on ? term_fatal_handler : SIG_DFL;
		/* One shot: a second fault inside the handler kills. */
		sa.sa_flags = on ? (int)SA_RESETHAND : 0;
		sigaction(term_fatal_signals[i], &sa, NULL);
	}
	/* No SA_RESTART: the blocking read in getch must return so the
	 * loop can stop the process. */
	sa.sa_flags = 0;
	sa.sa_handler = on ? term_tstp_handler : SIG_DFL;
	sigaction(SIGTSTP, &sa, NULL);
}

/* ANSI colour n (0..15) reduced to what the terminal has. */
static int term_fixed_color(const struct sv_term *t, int n, bool *bright)
{
	if (n < 0)
		return -1;
	if (t->colors >= 16)
		return n;
	if (n >= 8 && bright)
		*bright = true;
	return n & 7;
}

static int term_region_color(const struct sv_term *t, int color)
{
	const struct sv_palette *pal = sv_grid_theme_palette(t->theme, color);

	if (!pal)
		return -1;
	if (t->colors >= 256)
		return pal->xterm256;
	if (t->colors >= 16)
		return pal->ansi16;
	return pal->ansi8;
}

/* The pair for (fg, bg), allocated on first use; 0 when out of pairs. */
static short term_pair(struct sv_term *t, int fg, int bg)
{
	int i;

	if (!t->default_colors) {
		if (fg < 0)
			fg = COLOR_WHITE;
		if (bg < 0)
			bg = COLOR_BLACK;
	}
	if (fg < 0 && bg < 0)
		return 0;
	for (i = 0; i < t->npairs; i++)
		if (t->pairs[i].fg == fg && t->pairs[i].bg == bg)
			return (short)(i + 1);
	if (t->npairs >= (int)(sizeof t->pairs / sizeof t->pairs[0]) ||
		t->npairs + 1 >= COLOR_PAIRS)
		return 0;
	t->pairs[t->npairs].fg = (short)fg;
	t->pairs[t->npairs].bg = (short)bg;
	t->npairs++;
	init_pair((short)t->npairs, (short)fg, (short)bg);
	return (short)t->npairs;
}

static void term_make_look(struct sv_term *t, int style, int color)
{
	const struct sv_style_attr *a = &t->styles[style];
	struct term_look *l = &t->looks[style][color];
	bool bright = false;
	int fg = -1, bg = -1;

	memset(l, 0, sizeof *l);
	l->fg = l->bg = -1;
	if (!a)
		return;
	if (a->bold)
		l->attrs |= A_BOLD;
	if (a->underline)
		l->attrs |= A_UNDERLINE;
	if (a->dim)
		l->attrs |= A_DIM;
	if (t->colors == 0) {
		/* Monochrome: anything with a background (a bar in its region
		 * colour, the status line, a match) becomes reverse video; a
		 * reverse style on top of a background is told apart by bold
		 * underline instead. */
		bool has_bg = (a->bg_region && color > 0) ||
			      (!a->bg_region && a->bg >= 0);
		if (a->reverse && has_bg)
			l->attrs |= A_BOLD | A_UNDERLINE;
		else if (a->reverse || has_bg)
			l->attrs |= A_REVERSE;
		return;
	}
	if (a->reverse)
		l->attrs |= A_REVERSE;
	fg = (a->fg_region && color > 0) ? term_region_color(t, color)
					 : term_fixed_color(t, a->fg, &bright);
	bg = (a->bg_region && color > 0) ? term_region_color(t, color)
					 : term_fixed_color(t, a->bg, NULL);
	if (bright)
		l->attrs |= A_BOLD;
	l->pair = term_pair(t, fg, bg);
	if (l->pair) {
		l->fg = fg;
		l->bg = bg;
	} else if (!t->default_colors) {
		l->fg = COLOR_WHITE;
		l->bg = COLOR_BLACK;
	}
}

/* The look of a bar cell (see struct sv_term's bars). */
static void term_make_bar(struct sv_term *t, int style, int color)
{
	const struct sv_style_attr *a = &t->styles[style];
	struct term_look *l = &t->bars[style][color];
	int c;

	*l = t->looks[style][color];
	if (t->colors == 0 || !(a->bg_region && color > 0)) {
		/* No colours, or a style with a fixed background: the
		 * pattern (or bar) in the style's own look; reverse video
		 * for a bar would hide it, so it goes. */
		if (t->colors == 0)
			l->attrs &= ~(attr_t)A_REVERSE;
		return;
	}
	c = term_region_color(t, color);
	l->attrs &= ~(attr_t)A_REVERSE;
	if (t->colors >= 256)
		l->pair = term_pair(t, c, c);
	else
		l->pair = term_pair(t, c, -1);
	l->fg = c;
	l->bg = t->colors >= 256 ? c : -1;
}

static void term_setup_colors(struct sv_term *t, int max_colors)
{
	const char *nc = getenv("NO_COLOR");
	int s, c;

	t->colors = 0;
	if (!(nc && *nc) && max_colors != 0 && max_colors != 1 &&
		has_colors() && start_color() == OK) {
		if (COLORS >= 256)
			t->colors = 256;
		else if (COLORS >= 16)
			t->colors = 16;
		else if (COLORS >= 8)
			t->colors = 8;
		if (max_colors > 1 && t->colors > max_colors)
			t->colors = max_colors >= 256  ? 256
				    : max_colors >= 16 ? 16
						       : 8;
		t->default_colors = use_default_colors() == OK;
	}
	for (s = 0; s < SV_STYLE_COUNT; s++)
		for (c = 0; c <= SV_GRID_NCOLORS; c++)
			term_make_look(t, s, c);
	for (s = 0; s < SV_STYLE_COUNT; s++)
		for (c = 0; c <= SV_GRID_NCOLORS; c++)
			term_make_bar(t, s, c);
	memset(t->pairs2, 0xff, sizeof t->pairs2);
}

/* The pair for a cell of two region colours, or 0. */
static short term_pair2(struct sv_term *t, int color, int color2)
{
	if (t->colors == 0)
		return 0;
	if (t->pairs2[color][color2] < 0)
		t->pairs2[color][color2] =
			term_pair(t, term_region_color(t, color),
				term_region_color(t, color2));
	return t->pairs2[color][color2];
}

/* 1 when curses knows the terminal type and it can move the cursor, 0
 * when it does not know it, -1 when it cannot address the cursor (dumb,
 * a printing terminal). */
static int term_known(const char *name, int fd);

/* The theme by the terminal's background (term_bg.c), only on a real
 * terminal; keys typed while it answered go back into curses' input. */
static void term_ask_theme(struct sv_term *t)
{
	char rest[512];
	size_t nrest = 0;
	int theme = -1;

	if (!isatty(fileno(t->out)) || !isatty(fileno(t->in)))
		return;
	fflush(t->out);
	theme = sv_term_query_background(
		fileno(t->in), fileno(t->out), 300, rest, &nrest);
	if (theme == SV_THEME_LIGHT)
		t->theme = SV_THEME_LIGHT;
	while (nrest > 0)
		ungetch((unsigned char)rest[--nrest]);
}

int sv_term_theme(const struct sv_term *t)
{
	return t ? t->theme : SV_THEME_DARK;
}

void sv_term_opts_default(struct sv_term_opts *o)
{
	memset(o, 0, sizeof *o);
	o->mouse = true;
	o->signals = true;
	o->max_colors = -1;
}

int sv_term_open(const struct sv_term_opts *o, struct sv_term **out,
	struct sv_error *err)
{
	struct sv_term_opts def;
	struct sv_term *t;
	const char *name;
	const char *kmous;
	int i, known;

	if (!out)
		return sv_error_set(err, -EINVAL, "no place for the terminal");
	if (term_current)
		return sv_error_set(err, -EBUSY, "a terminal is already open");
	if (!o) {
		sv_term_opts_default(&def);
		o = &def;
	}
	t = sv_xcalloc(1, sizeof *t);
	t->in = o->in ? o->in : stdin;
	t->out = o->out ? o->out : stdout;
	t->signals = o->signals;
	t->utf8 = sv_grid_locale_is_utf8();
	t->theme = o->theme == SV_THEME_LIGHT ? SV_THEME_LIGHT : SV_THEME_DARK;
	name = o->term_name ? o->term_name : getenv("TERM");
	if (!name || !*name) {
		free(t);
		return sv_error_set(err, -EINVAL,
			"TERM is not set: cannot draw the screen");
	}
	/* Our handlers first: curses installs its own only where the
	 * disposition is still the default. */
	if (t->signals)
		term_install_signals(true);
	/* newterm keeps half a screen when the type is unknown; ask first. */
	known = term_known(name, fileno(t->out));
	t->screen = known > 0 ? newterm(name, t->out, t->in) : NULL;
	if (!t->screen && known < 0) {
		if (t->signals)
			term_install_signals(false);
		free(t);
		return sv_error_set(err, -EINVAL,
			"terminal type '%s' cannot move the cursor: use "
			"'scopeview summary FILE' or 'scopeview snapshot FILE'",
			name);
	}
	if (!t->screen) {
		if (t->signals)
			term_install_signals(false);
		free(t);
		return sv_error_set(err, -EINVAL,
			"cannot use terminal type '%s' (see TERM)", name);
	}
	set_term(t->screen);
	term_current = t;
	term_restored = 0;
	term_stop_pending = 0;
	sv_set_die_hook(term_die_hook);

	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	meta(stdscr, TRUE);
	leaveok(stdscr, TRUE);
	scrollok(stdscr, FALSE);
	idlok(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	if (o->theme == SV_THEME_AUTO)
		term_ask_theme(t);
	for (i = 0; i < SV_STYLE_COUNT; i++)
		t->styles[i] = o->styles && (!o->style_set || o->style_set[i])
				       ? o->styles[i]
				       : *sv_grid_theme_attr(t->theme, i);
	term_setup_colors(t, o->max_colors);

	if (o->mouse) {
		mmask_t want = BUTTON1_PRESSED | BUTTON1_RELEASED |
			       BUTTON4_PRESSED | BUTTON5_PRESSED |
			       REPORT_MOUSE_POSITION;
		mouseinterval(0);
		if (mousemask(want, NULL) != 0) {
			t->mouse = true;
			kmous = tigetstr("kmous");
			t->xterm_mouse = kmous && kmous != (char *)-1 &&
					 !strncmp(kmous, "\033[", 2);
			t->motion_pending = true;
		}
	}
	*out = t;
	return 0;
}

void sv_term_close(struct sv_term *t)
{
	if (!t)
		return;
	if (term_current == t) {
		term_restore();
		sv_set_die_hook(NULL);
		if (t->signals)
			term_install_signals(false);
		term_current = NULL;
	}
	delscreen(t->screen);
	free(t);
}

void sv_term_size(struct sv_term *t, int *w, int *h)
{
	(void)t;
	if (w)
		*w = COLS;
	if (h)
		*h = LINES;
}

void sv_term_resize(struct sv_term *t, int w, int h)
{
	(void)t;
	if (w > 0 && h > 0 && (w != COLS || h != LINES))
		resizeterm(h, w);
}

/* Ask the terminal for its size (it may have changed while we were
 * stopped) and tell curses. */
static void term_sync_size(struct sv_term *t)
{
	struct winsize ws;

	if (ioctl(fileno(t->out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 &&
		ws.ws_row > 0)
		sv_term_resize(t, ws.ws_col, ws.ws_row);
}

/* Ctrl-Z: give the terminal back, stop, and take it again on fg. */
static void term_suspend(struct sv_term *t)
{
	struct sigaction sa, old;
	sigset_t set, oldset;

	term_stop_pending = 0;
	term_restore();
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGTSTP, &sa, &old);
	sigemptyset(&set);
	sigaddset(&set, SIGTSTP);
	sigprocmask(SIG_UNBLOCK, &set, &oldset);
	raise(SIGTSTP);
	/* Here after fg (SIGCONT). */
	sigprocmask(SIG_SETMASK, &oldset, NULL);
	sigaction(SIGTSTP, &old, NULL);
	term_restored = 0;
	reset_prog_mode();
	term_sync_size(t);
	clearok(curscr, TRUE);
	t->motion_pending = t->mouse;
	/* The interrupted read left an error in curses' input queue. */
	flushinp();
}

static int term_curses_key(int k)
{
	if (k >= KEY_F(1) && k <= KEY_F(12))
		return SV_KEY_F1 + (k - KEY_F(1));
	switch (k) {
	case KEY_UP:
		return SV_KEY_UP;
	case KEY_DOWN:
		return SV_KEY_DOWN;
	case KEY_LEFT:
		return SV_KEY_LEFT;
	case KEY_RIGHT:
		return SV_KEY_RIGHT;
	case KEY_PPAGE:
		return SV_KEY_PAGEUP;
	case KEY_NPAGE:
		return SV_KEY_PAGEDOWN;
	case KEY_HOME:
	case KEY_BEG:
		return SV_KEY_HOME;
	case KEY_END:
		return SV_KEY_END;
	case KEY_IC:
		return SV_KEY_INSERT;
	case KEY_DC:
		return SV_KEY_DELETE;
	case KEY_BTAB:
		return SV_KEY_BTAB;
	case KEY_BACKSPACE:
		return SV_KEY_BACKSPACE;
	case KEY_ENTER:
		return SV_KEY_ENTER;
	case KEY_RESIZE:
		return SV_KEY_RESIZE;
	default:
		return SV_KEY_NONE;
	}
}

/* A mouse report as a key, or SV_KEY_NONE for one we ignore. */
static int term_mouse_key(struct sv_term *t)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return SV_KEY_NONE;
	if (ev.bstate & BUTTON4_PRESSED)
		return sv_key_mouse(SV_MOUSE_WHEEL_UP, ev.x, ev.y);
	if (ev.bstate & BUTTON5_PRESSED)
		return sv_key_mouse(SV_MOUSE_WHEEL_DOWN, ev.x, ev.y);
	if (ev.bstate & BUTTON1_PRESSED) {
		t->button_down = true;
		return sv_key_mouse(SV_MOUSE_CLICK, ev.x, ev.y);
	}
	if (ev.bstate & BUTTON1_RELEASED) {
		t->button_down = false;
		return sv_key_mouse(SV_MOUSE_RELEASE, ev.x, ev.y);
	}
	if ((ev.bstate & REPORT_MOUSE_POSITION) && t->button_down)
		return sv_key_mouse(SV_MOUSE_DRAG, ev.x, ev.y);
	return SV_KEY_NONE;
}

int sv_term_getkey(struct sv_term *t, int timeout_ms)
{
	int errors = 0;

	for (;;) {
		wint_t wc = 0;
		int r, key;

		if (term_stop_pending) {
			term_suspend(t);
			return SV_KEY_RESIZE;
		}
		errno = 0;
		r = ERR;
		if (timeout_ms != 0 && sv_term_wake_ready()) {
			/* Keys curses holds first, then wait for input or
			 * a worker's wake-up (sv_term_wake). */
			wtimeout(stdscr, 0);
			r = wget_wch(stdscr, &wc);
			if (r == ERR) {
				int w = sv_term_wait(fileno(t->in), timeout_ms);
				if (w < 0)
					continue;
				if (w == 0 && !term_stop_pending)
					return SV_KEY_NONE;
			}
		}
		if (r == ERR) {
			wtimeout(stdscr, timeout_ms < 0 ? -1 : timeout_ms);
			errno = 0;
			r = wget_wch(stdscr, &wc);
		}
		if (r == ERR) {
			if (term_stop_pending)
				continue;
			if (errno == EINTR)
				continue;
			if (timeout_ms >= 0)
				return SV_KEY_NONE;
			/* A blocking read that fails again and again: the
			 * input is gone (one stale error may sit in curses'
			 * queue after a signal). */
			if (++errors < 3)
				continue;
			return SV_KEY_EOF;
		}
		if (r == KEY_CODE_YES) {
			if ((int)wc == KEY_MOUSE) {
				if (!t->mouse)
					continue;
				key = term_mouse_key(t);
			} else {
				key = term_curses_key((int)wc);
			}
			if (key == SV_KEY_RESIZE)
				return key;
			if (key != SV_KEY_NONE)
				return key;
			continue;
		}
		return sv_key_from_byte((int)wc);
	}
}

/* The code point to send for a grid cell. */
static wchar_t term_glyph(const struct sv_term *t, uint32_t ch)
{
	if (ch < 0x20 || (ch >= 0x7f && ch < 0xa0) || ch > 0x10ffff)
		return L'?';
	if (!t->utf8 && ch > 0x7e)
		return L'?';
	return (wchar_t)ch;
}

void sv_term_present(struct sv_term *t, const struct sv_grid *g)
{
	int x, y, w, h;

	if (!t || !g)
		return;
	if (!t->cleared || term_restored) {
		clearok(curscr, TRUE);
		t->cleared = true;
		term_restored = 0;
	}
	w = g->w < COLS ? g->w : COLS;
	h = g->h < LINES ? g->h : LINES;
	if (w < COLS || h < LINES)
		werase(stdscr);
	for (y = 0; y < h; y++) {
		const struct sv_cell *row = g->cells + (size_t)y * (size_t)g->w;
		for (x = 0; x < w; x++) {
			const struct sv_cell *c = &row[x];
			const struct term_look *l;
			wchar_t wcs[2];
			cchar_t cc;
			int style = c->style < SV_STYLE_COUNT ? c->style : 0;
			int color = c->color <= SV_GRID_NCOLORS ? c->color : 0;

			uint32_t ch = c->ch;
			short pair;
			l = &t->looks[style][color];
			if (ch == SV_GRID_BAR && color) {
				l = &t->bars[style][color];
				ch = sv_palette_fill(color, t->colors);
			}
			pair = l->pair;
			if (c->color2 && color && c->color2 <= SV_GRID_NCOLORS)
				pair = term_pair2(t, color, c->color2);
			if (ch == SV_GRID_WIDE_TAIL) {
				/* Covered by the wide character before it (as
				 * sent: '?' in a non-UTF-8 locale is narrow);
				 * a stray tail becomes a blank. */
				if (x > 0 && sv_utf8_width((uint32_t)term_glyph(
						     t, row[x - 1].ch)) == 2)
					continue;
				wcs[0] = L' ';
			} else {
				wcs[0] = term_glyph(t, ch);
				/* A wide character cut by the right edge. */
				if (x == w - 1 &&
					sv_utf8_width((uint32_t)wcs[0]) == 2)
					wcs[0] = L' ';
			}
			wcs[1] = L'\0';
			setcchar(&cc, wcs, l->attrs, pair, NULL);
			mvwadd_wch(stdscr, y, x, &cc);
		}
	}
	wnoutrefresh(stdscr);
	doupdate();
	if (t->motion_pending) {
		t->motion_pending = false;
		term_mouse_motion(t, true);
	}
}

void sv_term_beep(struct sv_term *t)
{
	(void)t;
	beep();
}

int sv_term_colors(const struct sv_term *t)
{
	return t ? t->colors : 0;
}

static void term_attrs_to_cell(attr_t a, struct sv_term_cell *out)
{
	out->bold = (a & A_BOLD) != 0;
	out->reverse = (a & A_REVERSE) != 0;
	out->underline = (a & A_UNDERLINE) != 0;
	out->dim = (a & A_DIM) != 0;
}

int sv_term_peek(struct sv_term *t, int x, int y, struct sv_term_cell *out)
{
	cchar_t cc;
	wchar_t wcs[CCHARW_MAX + 1];
	attr_t attrs = 0;
	short pair = 0;

	if (!t || !out || x < 0 || y < 0 || x >= COLS || y >= LINES)
		return -EINVAL;
	memset(out, 0, sizeof *out);
	if (mvwin_wch(stdscr, y, x, &cc) == ERR)
		return -EINVAL;
	memset(wcs, 0, sizeof wcs);
	getcchar(&cc, wcs, &attrs, &pair, NULL);
	out->ch = (uint32_t)wcs[0];
	term_attrs_to_cell(attrs, out);
	out->fg = out->bg = -1;
	if (pair > 0) {
		short fg, bg;
		if (pair_content(pair, &fg, &bg) == OK) {
			out->fg = fg;
			out->bg = bg;
		}
	} else if (!t->default_colors && t->colors > 0) {
		out->fg = COLOR_WHITE;
		out->bg = COLOR_BLACK;
	}
	return 0;
}

void sv_term_style_look(
	const struct sv_term *t, int style, int color, struct sv_term_cell *out)
{
	const struct term_look *l;

	memset(out, 0, sizeof *out);
	out->fg = out->bg = -1;
	if (!t || style < 0 || style >= SV_STYLE_COUNT || color < 0 ||
		color > SV_GRID_NCOLORS)
		return;
	l = &t->looks[style][color];
	term_attrs_to_cell(l->attrs, out);
	out->fg = l->fg;
	out->bg = l->bg;
}

/*
 * Last in the file: <term.h> defines a macro for every terminfo capability
 * (max_colors, lines, ...), which must not reach the code above.
 */
#include <term.h>

/* Does terminfo know the terminal type?  Loads the entry and frees it. */
static int term_known(const char *name, int fd)
{
	TERMINAL *saved = cur_term;
	int errret = 0;
	char *cup;

	if (setupterm(name, fd, &errret) != OK)
		return 0;
	cup = tigetstr("cup");
	del_curterm(cur_term);
	set_curterm(saved);
	return cup && cup != (char *)-1 ? 1 : -1;
}
