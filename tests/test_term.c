/*
 * test_term.c: the curses backend without a terminal.  curses writes to a
 * file and reads keys from a file, with TERM pinned; the tests blit known
 * grids and read the cells back from curses' virtual screen (characters,
 * colours, attributes), check the colour levels a terminal type gets,
 * count the bytes a small change sends compared with a full repaint,
 * decode keys and mouse reports typed as raw bytes, and see a worker's
 * wake-up end a wait for a key.
 */
#include <errno.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/grid.h"
#include "scopeview/keys.h"
#include "scopeview/term.h"

/* The locale fx_open sets: "" = the environment's (C.UTF-8 in tests). */
static const char *fx_locale = "";

struct fixture {
	struct sv_term *t;
	FILE *out, *in;
	char *out_path, *in_path;
};

/* The theme and style overrides the next fx_open passes (the light-theme
 * test sets them). */
static int fx_theme = SV_THEME_DARK;
static const struct sv_style_attr *fx_styles;
/* The terminal's input instead of the fixture's file, when set. */
static FILE *fx_in;

/* Open a terminal of type name, w x h, writing to a file and reading the
 * bytes of input (may be NULL). */
static void fx_open(struct fixture *f, const char *name, int w, int h,
	int max_colors, const char *input, size_t input_len)
{
	struct sv_term_opts o;
	struct sv_error err;
	static int n;
	char buf[64];

	ck_assert_ptr_nonnull(setlocale(LC_ALL, fx_locale));
	memset(f, 0, sizeof *f);
	snprintf(buf, sizeof buf, "term-out-%d", n);
	f->out_path = svt_tmp_path(buf);
	snprintf(buf, sizeof buf, "term-in-%d", n++);
	f->in_path = svt_tmp_path(buf);
	f->out = fopen(f->out_path, "w+");
	ck_assert_ptr_nonnull(f->out);
	f->in = fopen(f->in_path, "w+");
	ck_assert_ptr_nonnull(f->in);
	if (input)
		ck_assert_uint_eq(
			fwrite(input, 1, input_len, f->in), input_len);
	fflush(f->in);
	rewind(f->in);

	sv_term_opts_default(&o);
	o.in = fx_in ? fx_in : f->in;
	o.out = f->out;
	o.term_name = name;
	o.signals = false;
	o.max_colors = max_colors;
	o.theme = fx_theme;
	o.styles = fx_styles;
	memset(&err, 0, sizeof err);
	ck_assert_msg(sv_term_open(&o, &f->t, &err) == 0, "open %s: %s", name,
		err.msg);
	sv_term_resize(f->t, w, h);
}

static void fx_close(struct fixture *f)
{
	sv_term_close(f->t);
	fclose(f->out);
	fclose(f->in);
	free(f->out_path);
	free(f->in_path);
}

/* Bytes curses has written so far. */
static long fx_bytes(struct fixture *f)
{
	struct stat st;
	fflush(f->out);
	ck_assert_int_eq(fstat(fileno(f->out), &st), 0);
	return (long)st.st_size;
}

static void expect_cell(
	struct fixture *f, int x, int y, uint32_t ch, int style, int color)
{
	struct sv_term_cell got, want;

	ck_assert_int_eq(sv_term_peek(f->t, x, y, &got), 0);
	sv_term_style_look(f->t, style, color, &want);
	ck_assert_msg(got.ch == ch, "(%d,%d): U+%04X, wanted U+%04X", x, y,
		got.ch, ch);
	ck_assert_msg(got.fg == want.fg && got.bg == want.bg,
		"(%d,%d) style %s colour %d: fg %d bg %d, wanted fg %d bg %d",
		x, y, sv_grid_style_name(style), color, got.fg, got.bg, want.fg,
		want.bg);
	ck_assert_msg(got.bold == want.bold && got.reverse == want.reverse &&
			      got.underline == want.underline,
		"(%d,%d) style %s: attributes differ", x, y,
		sv_grid_style_name(style));
}

START_TEST(test_blit_reads_back)
{
	struct fixture f;
	struct sv_grid g;
	int c;

	/* given a grid with text in several styles, a region bar in every
	 * colour, a box-drawing line, a wide character and a control
	 * character */
	fx_open(&f, "xterm-256color", 40, 6, -1, NULL, 0);
	ck_assert_int_eq(sv_term_colors(f.t), 256);
	sv_grid_init(&g);
	sv_grid_resize(&g, 40, 6);
	sv_grid_text(&g, 0, 0, -1, "ruler 10ms", SV_STYLE_RULER, 0, 0);
	for (c = 1; c <= SV_GRID_NCOLORS; c++)
		sv_grid_put(&g, c, 1, 'A' + (uint32_t)c, SV_STYLE_SPAN, c);
	sv_grid_fill(&g, 0, 2, 40, 3, 0x2500, SV_STYLE_BORDER, 0);
	sv_grid_put(&g, 3, 3, 0x65e5, SV_STYLE_LABEL, 0); /* 日: wide */
	sv_grid_put(&g, 6, 3, 'x', SV_STYLE_SELECTED, 4);
	sv_grid_at(&g, 8, 3)->ch = 0x1b; /* raw ESC forced into a cell */
	sv_grid_text(&g, 0, 5, -1, "status", SV_STYLE_STATUS, 0, 0);

	/* when it is presented */
	sv_term_present(f.t, &g);

	/* then curses holds the same characters, colours and attributes */
	expect_cell(&f, 0, 0, 'r', SV_STYLE_RULER, 0);
	expect_cell(&f, 9, 0, 's', SV_STYLE_RULER, 0);
	for (c = 1; c <= SV_GRID_NCOLORS; c++) {
		struct sv_term_cell got;
		expect_cell(&f, c, 1, 'A' + (uint32_t)c, SV_STYLE_SPAN, c);
		ck_assert_int_eq(sv_term_peek(f.t, c, 1, &got), 0);
		ck_assert_int_eq(got.bg, sv_grid_palette(c)->xterm256);
	}
	expect_cell(&f, 0, 2, 0x2500, SV_STYLE_BORDER, 0);
	expect_cell(&f, 39, 2, 0x2500, SV_STYLE_BORDER, 0);
	expect_cell(&f, 3, 3, 0x65e5, SV_STYLE_LABEL, 0);
	expect_cell(&f, 6, 3, 'x', SV_STYLE_SELECTED, 4);
	expect_cell(&f, 8, 3, '?', SV_STYLE_DEFAULT, 0);
	expect_cell(&f, 0, 5, 's', SV_STYLE_STATUS, 0);
	expect_cell(&f, 39, 5, ' ', SV_STYLE_DEFAULT, 0);
	ck_assert_int_eq(
		sv_term_peek(f.t, 40, 0, &(struct sv_term_cell){0}), -EINVAL);

	/* and a smaller grid blanks the rest of the screen */
	sv_grid_resize(&g, 10, 2);
	sv_grid_text(&g, 0, 0, -1, "small", SV_STYLE_DEFAULT, 0, 0);
	sv_term_present(f.t, &g);
	expect_cell(&f, 0, 0, 's', SV_STYLE_DEFAULT, 0);
	expect_cell(&f, 20, 2, ' ', SV_STYLE_DEFAULT, 0);
	expect_cell(&f, 1, 5, ' ', SV_STYLE_DEFAULT, 0);
	sv_grid_fini(&g);
	fx_close(&f);
}
END_TEST

START_TEST(test_non_utf8_locale)
{
	struct fixture f;
	struct sv_grid g;

	/* given the C locale, where the terminal cannot take UTF-8 */
	fx_locale = "C";
	fx_open(&f, "xterm-256color", 20, 2, -1, NULL, 0);
	fx_locale = "";
	sv_grid_init(&g);
	sv_grid_resize(&g, 20, 2);
	sv_grid_text(&g, 0, 0, -1, "ab", SV_STYLE_LABEL, 0, 0);
	sv_grid_put(&g, 2, 0, 0x65e5, SV_STYLE_LABEL, 0); /* wide, + tail */
	sv_grid_put(&g, 4, 0, 0x2500, SV_STYLE_BORDER, 0);
	sv_grid_put(&g, 5, 0, 'z', SV_STYLE_LABEL, 0);
	/* when it is presented over a screen that held other text */
	sv_grid_fill(&g, 0, 1, 20, 2, 'x', SV_STYLE_DEFAULT, 0);
	sv_term_present(f.t, &g);
	sv_grid_fill(&g, 0, 1, 20, 2, ' ', SV_STYLE_DEFAULT, 0);
	sv_grid_put(&g, 0, 1, 0x65e5, SV_STYLE_LABEL, 0);
	sv_term_present(f.t, &g);
	/* then every code point above 0x7e is '?', one column wide, and the
	 * cell after it is blank, not left over */
	expect_cell(&f, 0, 0, 'a', SV_STYLE_LABEL, 0);
	expect_cell(&f, 2, 0, '?', SV_STYLE_LABEL, 0);
	expect_cell(&f, 3, 0, ' ', SV_STYLE_LABEL, 0);
	expect_cell(&f, 4, 0, '?', SV_STYLE_BORDER, 0);
	expect_cell(&f, 5, 0, 'z', SV_STYLE_LABEL, 0);
	expect_cell(&f, 0, 1, '?', SV_STYLE_LABEL, 0);
	expect_cell(&f, 1, 1, ' ', SV_STYLE_LABEL, 0);
	sv_grid_fini(&g);
	fx_close(&f);
	setlocale(LC_ALL, "");
}
END_TEST

/* Colour levels: terminal type and limits -> colours in use, and the
 * background of a region bar of colour 2. */
static const struct {
	const char *term;
	int max_colors;
	const char *no_color;
	int colors;
} level_cases[] = {
	{"xterm-256color", -1, NULL, 256},
	{"xterm-256color", 16, NULL, 16},
	{"xterm-256color", 8, NULL, 8},
	{"xterm-256color", 0, NULL, 0},
	{"xterm-256color", -1, "1", 0},
	{"xterm-256color", -1, "", 256}, /* empty NO_COLOR is unset */
	{"xterm-color", -1, NULL, 8},
	{"xterm-mono", -1, NULL, 0},
	{"xterm", -1, NULL, 8},
	{"vt100", -1, NULL, 0},
};

START_TEST(test_color_levels)
{
	struct fixture f;
	struct sv_grid g;
	struct sv_term_cell span, sel;
	const struct sv_palette *pal = sv_grid_palette(2);

	/* given a terminal type, a colour limit and NO_COLOR */
	if (level_cases[_i].no_color)
		setenv("NO_COLOR", level_cases[_i].no_color, 1);
	else
		unsetenv("NO_COLOR");
	fx_open(&f, level_cases[_i].term, 20, 3, level_cases[_i].max_colors,
		NULL, 0);
	/* when a bar of region colour 2 and a selected call are drawn */
	sv_grid_init(&g);
	sv_grid_resize(&g, 20, 3);
	sv_grid_fill(&g, 0, 0, 10, 1, '=', SV_STYLE_SPAN, 2);
	sv_grid_put(&g, 0, 1, 'S', SV_STYLE_SELECTED, 2);
	sv_term_present(f.t, &g);
	/* then the colours are those of the level */
	ck_assert_int_eq(sv_term_colors(f.t), level_cases[_i].colors);
	ck_assert_int_eq(sv_term_peek(f.t, 5, 0, &span), 0);
	ck_assert_int_eq(sv_term_peek(f.t, 0, 1, &sel), 0);
	switch (level_cases[_i].colors) {
	case 256:
		ck_assert_int_eq(span.bg, pal->xterm256);
		break;
	case 16:
		ck_assert_int_eq(span.bg, pal->ansi16);
		break;
	case 8:
		ck_assert_int_eq(span.bg, pal->ansi8);
		break;
	default:
		/* monochrome: bars in reverse video, the selected call told
		 * apart from them */
		ck_assert_int_eq(span.fg, -1);
		ck_assert_int_eq(span.bg, -1);
		ck_assert(span.reverse);
		ck_assert(sel.reverse != span.reverse ||
			  sel.bold != span.bold ||
			  sel.underline != span.underline);
		break;
	}
	sv_grid_fini(&g);
	fx_close(&f);
	unsetenv("NO_COLOR");
}
END_TEST

/* The light theme's looks reach the terminal, its region palette
 * included, and a config file's style overrides replace them. */
START_TEST(test_theme_and_overrides)
{
	struct fixture f;
	struct sv_grid g;
	struct sv_term_cell ruler, span;
	struct sv_style_attr styles[SV_STYLE_COUNT];
	int i;

	unsetenv("NO_COLOR");
	fx_theme = SV_THEME_LIGHT;
	fx_open(&f, "xterm-256color", 20, 3, -1, NULL, 0);
	sv_grid_init(&g);
	sv_grid_resize(&g, 20, 3);
	sv_grid_text(&g, 0, 0, -1, "0 ms", SV_STYLE_RULER, 0, 0);
	sv_grid_fill(&g, 0, 1, 10, 2, '=', SV_STYLE_SPAN, 2);
	sv_term_present(f.t, &g);
	ck_assert_int_eq(sv_term_peek(f.t, 0, 0, &ruler), 0);
	ck_assert_int_eq(sv_term_peek(f.t, 5, 1, &span), 0);
	ck_assert_int_eq(ruler.fg,
		sv_grid_theme_attr(SV_THEME_LIGHT, SV_STYLE_RULER)->fg);
	ck_assert_int_eq(
		span.bg, sv_grid_theme_palette(SV_THEME_LIGHT, 2)->xterm256);
	ck_assert_int_ne(span.bg, sv_grid_palette(2)->xterm256);
	fx_close(&f);

	for (i = 0; i < SV_STYLE_COUNT; i++)
		styles[i] = *sv_grid_theme_attr(SV_THEME_LIGHT, i);
	styles[SV_STYLE_RULER].fg = 1;
	styles[SV_STYLE_RULER].underline = true;
	fx_styles = styles;
	fx_open(&f, "xterm-256color", 20, 3, -1, NULL, 0);
	sv_term_present(f.t, &g);
	ck_assert_int_eq(sv_term_peek(f.t, 0, 0, &ruler), 0);
	ck_assert_int_eq(ruler.fg, 1);
	ck_assert(ruler.underline);
	fx_close(&f);
	fx_styles = NULL;
	fx_theme = SV_THEME_DARK;
	sv_grid_fini(&g);
}
END_TEST

/* Given an OSC 11 reply (or none), then the theme it reports. */
static const struct {
	const char *reply;
	int theme;
} bg_cases[] = {
	{"\033]11;rgb:ffff/ffff/ffff\033\\", SV_THEME_LIGHT},
	{"\033]11;rgb:0000/0000/0000\007", SV_THEME_DARK},
	{"\033]11;rgb:1e1e/1e1e/1e1e\033\\", SV_THEME_DARK},
	{"\033]11;rgb:fd/f6/e3\007", SV_THEME_LIGHT}, /* solarized light */
	{"\033]11;rgb:0/2/3\007", SV_THEME_DARK},
	{"\033]11;rgb:00/2b/36\007", SV_THEME_DARK}, /* solarized dark */
	{"noise\033]11;rgb:eeee/eeee/eeee\007", SV_THEME_LIGHT},
	{"\033]11;rgb:ffff/ffff\007", -1},
	{"\033]11;rgb:zz/00/00\007", -1},
	{"\033]11;?\033\\", -1},
	{"\033[?62;22c", -1},
	{"", -1},
};

START_TEST(test_parse_background)
{
	const char *r = bg_cases[_i].reply;
	ck_assert_int_eq(
		sv_term_parse_background(r, strlen(r)), bg_cases[_i].theme);
	ck_assert_int_eq(sv_term_parse_background(NULL, 3), -1);
}
END_TEST

/* The query over pipes: what is asked, what is answered, what is left
 * over for the keys, and no wait past the DA1 reply. */
START_TEST(test_query_background)
{
	static const char answer[] = "ab\033]11;rgb:ffff/ffff/ffff\033\\"
				     "\033[?62;22cxy";
	int to_term[2], from_term[2];
	char rest[512], asked[64];
	size_t nrest = 99;
	ssize_t n;

	ck_assert_int_eq(pipe(to_term), 0);
	ck_assert_int_eq(pipe(from_term), 0);
	ck_assert_int_eq(write(from_term[1], answer, sizeof answer - 1),
		(ssize_t)(sizeof answer - 1));
	ck_assert_int_eq(sv_term_query_background(
				 from_term[0], to_term[1], 5000, rest, &nrest),
		SV_THEME_LIGHT);
	ck_assert_uint_eq(nrest, 4);
	ck_assert_int_eq(memcmp(rest, "abxy", 4), 0);
	n = read(to_term[0], asked, sizeof asked);
	ck_assert_int_eq(n, 11);
	ck_assert_int_eq(memcmp(asked, "\033]11;?\033\\\033[c", 11), 0);

	/* A terminal that ignores OSC 11 answers DA1 only. */
	ck_assert_int_eq(write(from_term[1], "\033[?1;2c", 7), 7);
	ck_assert_int_eq(sv_term_query_background(
				 from_term[0], to_term[1], 5000, rest, &nrest),
		-1);
	ck_assert_uint_eq(nrest, 0);
	/* One that answers nothing: the timeout. */
	ck_assert_int_eq(sv_term_query_background(
				 from_term[0], to_term[1], 20, rest, &nrest),
		-1);
	close(to_term[0]);
	close(to_term[1]);
	close(from_term[0]);
	close(from_term[1]);
}
END_TEST

/* theme auto off a real terminal asks nothing and is dark. */
START_TEST(test_auto_theme_off_a_tty)
{
	struct fixture f;

	fx_theme = SV_THEME_AUTO;
	fx_open(&f, "xterm-256color", 20, 3, -1, NULL, 0);
	ck_assert_int_eq(sv_term_theme(f.t), SV_THEME_DARK);
	{
		char *sent;
		fflush(f.out);
		sent = svt_read_file(f.out_path, NULL);
		ck_assert_ptr_nonnull(sent);
		ck_assert_ptr_null(strstr(sent, "\033]11;?"));
		free(sent);
	}
	fx_close(&f);
	fx_theme = SV_THEME_DARK;
	ck_assert_int_eq(sv_term_theme(NULL), SV_THEME_DARK);
}
END_TEST

/* A timeline-like screen: rows of region bars with names. */
static void draw_bars(struct sv_grid *g, int shift, int cursor_x)
{
	int y, x;

	sv_grid_clear(g);
	sv_grid_text(g, 0, 0, -1, "0 ms      10 ms      20 ms      30 ms",
		SV_STYLE_RULER, 0, 0);
	for (y = 1; y < g->h - 1; y++) {
		sv_grid_textf(g, 0, y, 12, SV_STYLE_LABEL, 0, "r%d thread", y);
		for (x = 12; x < g->w; x++) {
			int k = (x + shift) / (12 + 3 * (y % 7));
			if (k % 3 == 0)
				continue;
			sv_grid_put(g, x, y, 'a' + (uint32_t)(k % 26),
				SV_STYLE_SPAN, 1 + k % SV_GRID_NCOLORS);
		}
	}
	if (cursor_x >= 0)
		sv_grid_at(g, cursor_x, 3)->style = SV_STYLE_SELECTED;
	sv_grid_text(g, 0, g->h - 1, -1, "run.h5  span 40 ms", SV_STYLE_STATUS,
		0, 0);
}

START_TEST(test_small_change_sends_few_bytes)
{
	struct fixture f;
	struct sv_grid g;
	long full, nothing, cursor, pan;

	fx_open(&f, "xterm-256color", 100, 30, -1, NULL, 0);
	sv_grid_init(&g);
	sv_grid_resize(&g, 100, 30);

	/* given a full first paint */
	draw_bars(&g, 0, 40);
	sv_term_present(f.t, &g);
	full = fx_bytes(&f);

	/* when the same screen is presented again, nothing is sent */
	sv_term_present(f.t, &g);
	nothing = fx_bytes(&f) - full;

	/* when the cursor moves one cell */
	draw_bars(&g, 0, 41);
	sv_term_present(f.t, &g);
	cursor = fx_bytes(&f) - full - nothing;

	/* when the window pans by one column */
	draw_bars(&g, 1, 41);
	sv_term_present(f.t, &g);
	pan = fx_bytes(&f) - full - nothing - cursor;

	/* then a cursor move is tiny and a pan far below a repaint */
	printf("bytes: full %ld, again %ld, cursor %ld, pan %ld\n", full,
		nothing, cursor, pan);
	ck_assert_msg(full > 3000, "full paint %ld bytes", full);
	ck_assert_int_le(nothing, 16);
	ck_assert_msg(cursor < 100, "cursor move %ld bytes", cursor);
	ck_assert_msg(pan * 2 < full, "pan %ld bytes, full %ld", pan, full);
	sv_grid_fini(&g);
	fx_close(&f);
}
END_TEST

static const struct {
	const char *bytes;
	int key;
} key_cases[] = {
	{"q", 'q'}, {"\t", SV_KEY_TAB}, {"\r", SV_KEY_ENTER},
	{"\177", SV_KEY_BACKSPACE}, {"\033OA", SV_KEY_UP},
	{"\033OB", SV_KEY_DOWN}, {"\033OD", SV_KEY_LEFT},
	{"\033OC", SV_KEY_RIGHT}, {"\033[5~", SV_KEY_PAGEUP},
	{"\033[6~", SV_KEY_PAGEDOWN}, {"\033OH", SV_KEY_HOME},
	{"\033OF", SV_KEY_END}, {"\033[Z", SV_KEY_BTAB}, {"\033OP", SV_KEY_F1},
	{"\303\251", 0xe9},   /* é in UTF-8 */
	{"\033[<0;11;6M", 0}, /* click at (10, 5): see below */
	{"\033[<64;3;4M", 1}, /* wheel up at (2, 3) */
	{"\033[<65;3;4M", 2}, /* wheel down at (2, 3) */
};

static double wake_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *wake_later(void *arg)
{
	(void)arg;
	usleep(50000);
	sv_term_wake();
	return NULL;
}

START_TEST(test_wake_ends_the_wait)
{
	int fd[2];
	double t;
	pthread_t th;

	ck_assert(sv_term_wake_ready());
	ck_assert_int_eq(pipe(fd), 0);
	/* given no input: the wait runs its time out */
	t = wake_now();
	ck_assert_int_eq(sv_term_wait(fd[0], 50), 0);
	ck_assert(wake_now() - t >= 0.04);
	/* a wake-up before the wait ends it at once, and is taken */
	sv_term_wake();
	sv_term_wake();
	t = wake_now();
	ck_assert_int_eq(sv_term_wait(fd[0], 20000), 0);
	ck_assert(wake_now() - t < 5.0);
	t = wake_now();
	ck_assert_int_eq(sv_term_wait(fd[0], 50), 0);
	ck_assert(wake_now() - t >= 0.04);
	/* one from another thread ends a wait without a limit */
	ck_assert_int_eq(pthread_create(&th, NULL, wake_later, NULL), 0);
	ck_assert_int_eq(sv_term_wait(fd[0], -1), 0);
	pthread_join(th, NULL);
	/* input ends it too, and says so */
	ck_assert_int_eq(write(fd[1], "j", 1), 1);
	t = wake_now();
	ck_assert_int_eq(sv_term_wait(fd[0], 20000), 1);
	ck_assert(wake_now() - t < 5.0);
	close(fd[0]);
	close(fd[1]);
}
END_TEST

START_TEST(test_getkey_woken)
{
	struct fixture f;
	int fd[2];
	FILE *in;
	pthread_t th;

	/* given a terminal whose input is a pipe that stays open */
	ck_assert_int_eq(pipe(fd), 0);
	in = fdopen(fd[0], "r");
	ck_assert_ptr_nonnull(in);
	fx_in = in;
	fx_open(&f, "xterm-256color", 80, 24, -1, NULL, 0);
	fx_in = NULL;
	/* when a worker wakes it: a wait with no limit, and a long one,
	 * return no key; then a key typed comes as before */
	ck_assert_int_eq(pthread_create(&th, NULL, wake_later, NULL), 0);
	ck_assert_int_eq(sv_term_getkey(f.t, -1), SV_KEY_NONE);
	pthread_join(th, NULL);
	sv_term_wake();
	ck_assert_int_eq(sv_term_getkey(f.t, 20000), SV_KEY_NONE);
	ck_assert_int_eq(write(fd[1], "j", 1), 1);
	ck_assert_int_eq(sv_term_getkey(f.t, 20000), 'j');
	ck_assert_int_eq(write(fd[1], "k", 1), 1);
	ck_assert_int_eq(sv_term_getkey(f.t, -1), 'k');
	fx_close(&f);
	close(fd[1]);
	fclose(in);
}
END_TEST

START_TEST(test_keys_from_bytes)
{
	struct fixture f;
	const char *in = key_cases[_i].bytes;
	int want = key_cases[_i].key, got;

	/* given the bytes a terminal sends for one key */
	fx_open(&f, "xterm-256color", 80, 24, -1, in, strlen(in));
	/* when the backend reads them */
	got = sv_term_getkey(f.t, -1);
	/* then it is the key, and the input ends after it */
	if (in[0] == '\033' && in[1] == '[' && in[2] == '<') {
		if (want == 0)
			want = sv_key_mouse(SV_MOUSE_CLICK, 10, 5);
		else if (want == 1)
			want = sv_key_mouse(SV_MOUSE_WHEEL_UP, 2, 3);
		else
			want = sv_key_mouse(SV_MOUSE_WHEEL_DOWN, 2, 3);
	}
	ck_assert_msg(
		got == want, "case %d: got %#x, wanted %#x", _i, got, want);
	ck_assert_int_eq(sv_term_getkey(f.t, -1), SV_KEY_EOF);
	fx_close(&f);
}
END_TEST

START_TEST(test_drag_and_release)
{
	struct fixture f;
	static const char *reports[] = {
		"\033[<0;5;5M", "\033[<32;7;5M", "\033[<0;7;5m"};
	int fds[2], i, want[3];
	FILE *file_in;

	/* given a terminal whose input is a pipe, as a real one arrives:
	 * one report at a time */
	fx_open(&f, "xterm-256color", 80, 24, -1, NULL, 0);
	ck_assert_int_eq(sv_term_colors(f.t), 256);
	sv_term_close(f.t);
	ck_assert_int_eq(pipe(fds), 0);
	file_in = f.in;
	f.in = fdopen(fds[0], "r");
	{
		struct sv_term_opts o;
		struct sv_error err;
		sv_term_opts_default(&o);
		o.in = f.in;
		o.out = f.out;
		o.term_name = "xterm-256color";
		o.signals = false;
		ck_assert_int_eq(sv_term_open(&o, &f.t, &err), 0);
	}
	fclose(file_in);
	want[0] = sv_key_mouse(SV_MOUSE_CLICK, 4, 4);
	want[1] = sv_key_mouse(SV_MOUSE_DRAG, 6, 4);
	want[2] = sv_key_mouse(SV_MOUSE_RELEASE, 6, 4);
	/* when a press, a motion with the button held and a release come
	 * then they are a click, a drag and a release */
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(write(fds[1], reports[i], strlen(reports[i])),
			(ssize_t)strlen(reports[i]));
		ck_assert_int_eq(sv_term_getkey(f.t, 2000), want[i]);
	}
	/* and nothing more is a timeout, then the end of input */
	ck_assert_int_eq(sv_term_getkey(f.t, 10), SV_KEY_NONE);
	close(fds[1]);
	ck_assert_int_eq(sv_term_getkey(f.t, -1), SV_KEY_EOF);
	fx_close(&f);
}
END_TEST

START_TEST(test_timeout_and_errors)
{
	struct fixture f;
	struct sv_term *t2 = NULL;
	struct sv_term_opts o;
	struct sv_error err;

	/* a second terminal while one is open is refused */
	fx_open(&f, "xterm-256color", 80, 24, -1, NULL, 0);
	sv_term_opts_default(&o);
	o.signals = false;
	o.in = f.in;
	o.out = f.out;
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(sv_term_open(&o, &t2, &err), -EBUSY);
	ck_assert_ptr_null(t2);
	ck_assert_str_ne(err.msg, "");
	sv_term_close(f.t);
	f.t = NULL;

	/* an unknown terminal type is an error, not a crash or a leak */
	o.term_name = "no-such-terminal-type";
	o.in = stdin;
	o.out = stdout;
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(sv_term_open(&o, &t2, &err), -EINVAL);
	ck_assert_ptr_null(t2);
	ck_assert_ptr_nonnull(strstr(err.msg, "no-such-terminal-type"));

	/* a terminal that cannot move the cursor (TERM=dumb) is refused
	 * with the commands that work there, not drawn blank */
	o.term_name = "dumb";
	memset(&err, 0, sizeof err);
	ck_assert_int_eq(sv_term_open(&o, &t2, &err), -EINVAL);
	ck_assert_ptr_null(t2);
	ck_assert_ptr_nonnull(strstr(err.msg, "'dumb' cannot move the cursor"));
	ck_assert_ptr_nonnull(strstr(err.msg, "scopeview summary"));
	ck_assert_ptr_nonnull(strstr(err.msg, "scopeview snapshot"));

	/* and a known one still opens after that */
	o.term_name = "xterm-256color";
	o.in = f.in;
	o.out = f.out;
	ck_assert_int_eq(sv_term_open(&o, &t2, &err), 0);
	sv_term_close(t2);
	fx_close(&f);

	/* and NULL is harmless */
	sv_term_close(NULL);
	sv_term_present(NULL, NULL);
	ck_assert_int_eq(sv_term_colors(NULL), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("term");
	TCase *t = tcase_create("blit");
	tcase_add_test(t, test_blit_reads_back);
	tcase_add_test(t, test_non_utf8_locale);
	tcase_add_loop_test(t, test_color_levels, 0,
		sizeof level_cases / sizeof level_cases[0]);
	tcase_add_test(t, test_small_change_sends_few_bytes);
	tcase_add_test(t, test_theme_and_overrides);
	tcase_add_loop_test(t, test_parse_background, 0,
		sizeof bg_cases / sizeof bg_cases[0]);
	tcase_add_test(t, test_query_background);
	tcase_add_test(t, test_auto_theme_off_a_tty);
	suite_add_tcase(s, t);
	t = tcase_create("keys");
	tcase_add_loop_test(t, test_keys_from_bytes, 0,
		sizeof key_cases / sizeof key_cases[0]);
	tcase_add_test(t, test_drag_and_release);
	tcase_add_test(t, test_timeout_and_errors);
	tcase_add_test(t, test_wake_ends_the_wait);
	tcase_add_test(t, test_getkey_woken);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
