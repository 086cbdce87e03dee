/*
 * test_grid.c: cells, escaping of control characters, wide characters,
 * ellipsis, region colours, the style table and the dumps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "scopeview/grid.h"
#include "scopeview/palette.h"

static char *grid_dump(const struct sv_grid *g, enum sv_grid_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	ck_assert_int_eq(sv_grid_write(g, out, f), 0);
	fclose(out);
	return buf;
}

static const struct {
	const char *in;
	int maxw;
	const char *out; /* text layer of a 1-row grid of width 16 */
	int used;
} texts[] = {
	{"plain", -1, "plain", 5},
	{"esc\x1b[31m", -1, "esc\\x1b[31m", 11},
	{"a\nb\tc", -1, "a\\nb\\tc", 7},
	{"del\x7f", -1, "del\\x7f", 7},
	{"bidi\xe2\x80\xaeX", -1, "bidi\\u202eX", 11},
	{"c1\xc2\x85", -1, "c1\\x85", 6},
	{"truncated text here", 8, "truncat~", 8},
	{"exact", 5, "exact", 5},
	{"\xe4\xb8\xad\xe6\x96\x87", -1, "\xe4\xb8\xad\xe6\x96\x87", 4},
	{"\xe4\xb8\xad\xe6\x96\x87x", 4, "\xe4\xb8\xad~", 3},
	{"e\xcc\x81", -1, "e", 1},
	{"", -1, "", 0},
};

START_TEST(test_text)
{
	struct sv_grid g;
	char *dump;
	int used;

	/* given a 16x1 grid, when text is written with '~' as ellipsis, then
	 * control characters are visible escapes and nothing overflows */
	sv_grid_init(&g);
	sv_grid_resize(&g, 16, 1);
	used = sv_grid_text(
		&g, 0, 0, texts[_i].maxw, texts[_i].in, SV_STYLE_LABEL, 0, '~');
	dump = grid_dump(&g, SV_GRID_TEXT);
	ck_assert_int_eq(used, texts[_i].used);
	dump[strlen(dump) - 1] = '\0';
	ck_assert_str_eq(dump, texts[_i].out);
	free(dump);
	sv_grid_fini(&g);
}
END_TEST

START_TEST(test_put_and_clip)
{
	struct sv_grid g;
	int x, y;

	sv_grid_init(&g);
	sv_grid_resize(&g, 4, 2);
	ck_assert_int_eq(sv_grid_put(&g, -1, 0, 'x', 0, 0), 0);
	ck_assert_int_eq(sv_grid_put(&g, 4, 0, 'x', 0, 0), 0);
	ck_assert_int_eq(sv_grid_put(&g, 0, 2, 'x', 0, 0), 0);
	ck_assert_int_eq(sv_grid_put(&g, 3, 1, 0x4e2d, 0, 0), 1);
	ck_assert_uint_eq(sv_grid_cell(&g, 3, 1)->ch, ' ');
	ck_assert_int_eq(sv_grid_put(&g, 0, 0, 0x1b, 0, 0), 1);
	ck_assert_uint_eq(sv_grid_cell(&g, 0, 0)->ch, '?');
	sv_grid_fill(&g, -5, -5, 50, 50, '#', SV_STYLE_SPAN, 3);
	for (y = 0; y < 2; y++)
		for (x = 0; x < 4; x++) {
			ck_assert_uint_eq(sv_grid_cell(&g, x, y)->ch, '#');
			ck_assert_uint_eq(sv_grid_cell(&g, x, y)->color, 3);
		}
	ck_assert_ptr_null(sv_grid_cell(&g, 4, 0));
	ck_assert_ptr_null(sv_grid_at(NULL, 0, 0));
	/* shrinking keeps the allocation, growing clears */
	{
		size_t cap = g.cap;
		sv_grid_resize(&g, 2, 1);
		ck_assert_uint_eq(g.cap, cap);
		ck_assert_uint_eq(sv_grid_cell(&g, 0, 0)->ch, ' ');
	}
	/* overwriting either half of a wide character keeps rows aligned */
	sv_grid_resize(&g, 6, 1);
	sv_grid_text(&g, 0, 0, -1, "\xe4\xb8\xad\xe4\xb8\xad", 0, 0, 0);
	sv_grid_put(&g, 0, 0, 'a', 0, 0);
	sv_grid_put(&g, 3, 0, 'b', 0, 0);
	ck_assert_uint_eq(sv_grid_cell(&g, 0, 0)->ch, 'a');
	ck_assert_uint_eq(sv_grid_cell(&g, 1, 0)->ch, ' ');
	ck_assert_uint_eq(sv_grid_cell(&g, 2, 0)->ch, ' ');
	ck_assert_uint_eq(sv_grid_cell(&g, 3, 0)->ch, 'b');
	sv_grid_text(&g, 0, 0, -1, "\xe4\xb8\xad\xe4\xb8\xad", 0, 0, 0);
	sv_grid_put(&g, 1, 0, 0x4e2d, 0, 0);
	ck_assert_uint_eq(sv_grid_cell(&g, 0, 0)->ch, ' ');
	ck_assert_uint_eq(sv_grid_cell(&g, 1, 0)->ch, 0x4e2d);
	ck_assert_uint_eq(sv_grid_cell(&g, 2, 0)->ch, SV_GRID_WIDE_TAIL);
	ck_assert_uint_eq(sv_grid_cell(&g, 3, 0)->ch, ' ');
	sv_grid_resize(&g, 0, 0);
	ck_assert_int_eq(sv_grid_text(&g, 0, 0, -1, "x", 0, 0, 0), 0);
	sv_grid_fini(&g);
	sv_grid_fini(NULL);
}
END_TEST

START_TEST(test_region_colors)
{
	const char *names[] = {"main", "solve", "assemble", "io", "x", ""};
	size_t i;
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		int c = sv_grid_region_color(names[i]);
		ck_assert_int_ge(c, 1);
		ck_assert_int_le(c, SV_GRID_NCOLORS);
		ck_assert_int_eq(c, sv_grid_region_color(names[i]));
	}
	/* FNV-1a is fixed: the same name has the same colour in every run */
	ck_assert_int_eq(
		sv_grid_region_color("main"), sv_grid_region_color("main"));
	ck_assert_int_ne(
		sv_grid_palette(1)->xterm256, sv_grid_palette(2)->xterm256);
	ck_assert_ptr_nonnull(sv_grid_palette(99));
}
END_TEST

START_TEST(test_styles)
{
	int s, t;
	for (s = 0; s < SV_STYLE_COUNT; s++) {
		ck_assert_int_eq(
			sv_grid_style_from_letter(sv_grid_style_letter(s)), s);
		for (t = s + 1; t < SV_STYLE_COUNT; t++)
			ck_assert_int_ne(sv_grid_style_letter(s),
				sv_grid_style_letter(t));
		ck_assert_ptr_nonnull(sv_grid_style_name(s));
		ck_assert_ptr_nonnull(sv_grid_style_attr(s));
	}
	ck_assert_int_eq(sv_grid_style_from_letter('#'), -1);
	ck_assert_int_eq(sv_grid_style_letter(SV_STYLE_COUNT), '?');
}
END_TEST

/* Two themes, each with a look for every style and a palette for every
 * colour; the dark one is the default's. */
START_TEST(test_themes)
{
	int s, c, differ = 0;

	ck_assert_str_eq(sv_grid_theme_name(SV_THEME_DARK), "dark");
	ck_assert_str_eq(sv_grid_theme_name(SV_THEME_LIGHT), "light");
	ck_assert_ptr_null(sv_grid_theme_name(SV_THEME_COUNT));
	ck_assert_ptr_null(sv_grid_theme_name(-1));
	ck_assert_int_eq(sv_grid_theme_from_name("light"), SV_THEME_LIGHT);
	ck_assert_int_eq(sv_grid_theme_from_name("sepia"), -1);
	ck_assert_int_eq(sv_grid_theme_from_name(NULL), -1);
	for (s = 0; s < SV_STYLE_COUNT; s++) {
		ck_assert_ptr_eq(sv_grid_theme_attr(SV_THEME_DARK, s),
			sv_grid_style_attr(s));
		differ += memcmp(sv_grid_theme_attr(SV_THEME_LIGHT, s),
				  sv_grid_style_attr(s),
				  sizeof(struct sv_style_attr)) != 0;
	}
	ck_assert_int_gt(differ, 3);
	for (c = 0; c <= SV_GRID_NCOLORS; c++) {
		ck_assert_ptr_eq(sv_grid_theme_palette(SV_THEME_DARK, c),
			sv_grid_palette(c));
		ck_assert_ptr_nonnull(sv_grid_theme_palette(SV_THEME_LIGHT, c));
	}
	/* The light palette's colours stay distinct in 256 colours. */
	for (c = 1; c <= SV_GRID_NCOLORS; c++)
		for (s = c + 1; s <= SV_GRID_NCOLORS; s++)
			ck_assert_int_ne(
				sv_grid_theme_palette(SV_THEME_LIGHT, c)
					->xterm256,
				sv_grid_theme_palette(SV_THEME_LIGHT, s)
					->xterm256);
	ck_assert_ptr_eq(sv_grid_theme_palette(SV_THEME_LIGHT, 99),
		sv_grid_theme_palette(SV_THEME_LIGHT, 0));
	ck_assert_ptr_eq(sv_grid_theme_attr(SV_THEME_LIGHT, 999),
		sv_grid_theme_attr(SV_THEME_LIGHT, SV_STYLE_DEFAULT));
}
END_TEST

/* Every style has a look in every theme, and it reads: a style that the
 * dark theme paints (a colour of its own, fg or bg) is painted in the
 * light one too, and no look puts text in the colour it stands on (the
 * light theme once lacked HOT: its hot lines were black on black). */
START_TEST(test_every_style_in_every_theme)
{
	int t, s;

	for (t = 0; t < SV_THEME_COUNT; t++)
		for (s = 0; s < SV_STYLE_COUNT; s++) {
			const struct sv_style_attr *a =
				sv_grid_theme_attr(t, s);
			const struct sv_style_attr *d =
				sv_grid_theme_attr(SV_THEME_DARK, s);
			ck_assert_ptr_nonnull(a);
			ck_assert_msg(a->fg < 0 || a->fg != a->bg,
				"%s in %s: fg %d on bg %d",
				sv_grid_style_name(s), sv_grid_theme_name(t),
				a->fg, a->bg);
			if (d->fg >= 0 || d->bg >= 0)
				ck_assert_msg(a->fg >= 0 || a->bg >= 0 ||
						      a->fg_region ||
						      a->bg_region,
					"%s has no colour in %s",
					sv_grid_style_name(s),
					sv_grid_theme_name(t));
		}
	/* the hot lines stand out from the popup they are in */
	for (t = 0; t < SV_THEME_COUNT; t++)
		ck_assert(memcmp(sv_grid_theme_attr(t, SV_STYLE_HOT),
				  sv_grid_theme_attr(t, SV_STYLE_POPUP),
				  sizeof(struct sv_style_attr)) != 0);
}
END_TEST

/* The dump of g for a number of colours. */
static char *grid_dump_colors(
	const struct sv_grid *g, enum sv_grid_format f, int colors)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	ck_assert_int_eq(
		sv_grid_write_colors(g, out, f, SV_THEME_DARK, colors), 0);
	fclose(out);
	return buf;
}

START_TEST(test_dump_colors)
{
	/* given a bar of two regions, a boundary half block of both and
	 * a heading */
	struct sv_grid g;
	char *a;

	sv_grid_init(&g);
	sv_grid_resize(&g, 8, 1);
	sv_grid_fill(&g, 0, 0, 3, 1, SV_GRID_BAR, SV_STYLE_SPAN, 1);
	sv_grid_put2(&g, 3, 0, 0x258c, SV_STYLE_SPAN, 1, 14);
	sv_grid_fill(&g, 4, 0, 6, 1, SV_GRID_BAR, SV_STYLE_SPAN, 14);
	sv_grid_put(&g, 6, 0, 'x', SV_STYLE_PANEL_HEAD, 0);
	ck_assert_int_eq(sv_grid_cell(&g, 3, 0)->color2, 14);
	/* a put over the boundary forgets its second colour */
	sv_grid_put(&g, 7, 0, 'y', SV_STYLE_DEFAULT, 0);
	ck_assert_int_eq(sv_grid_cell(&g, 7, 0)->color2, 0);
	/* when written in 256 colours: both colours, the half block's as
	 * foreground and background */
	a = grid_dump_colors(&g, SV_GRID_ANSI, 256);
	ck_assert_ptr_nonnull(strstr(a, ";38;5;167;48;5;167m"));
	ck_assert_ptr_nonnull(strstr(a, ";38;5;167;48;5;168m\xe2\x96\x8c"));
	free(a);
	/* in 16 colours: ANSI colours only, no 256-colour sequence */
	a = grid_dump_colors(&g, SV_GRID_ANSI, 16);
	ck_assert_ptr_null(strstr(a, "38;5"));
	ck_assert_ptr_nonnull(strstr(a, ";31"));
	free(a);
	/* with none (NO_COLOR): no colour at all, the heading still bold,
	 * and the two regions' bars in different fill patterns */
	a = grid_dump_colors(&g, SV_GRID_ANSI, 0);
	ck_assert_ptr_null(strstr(a, ";3"));
	ck_assert_ptr_null(strstr(a, ";4;"));
	ck_assert_ptr_null(strstr(a, "48;"));
	ck_assert_ptr_nonnull(strstr(a, "\x1b[0;1;4m"));
	ck_assert_int_ne(sv_palette_fill(1, 0), sv_palette_fill(14, 0));
	ck_assert_ptr_nonnull(strstr(a, "\xe2\x96\x88\xe2\x96\x88"));
	free(a);
	/* and an SVG without colours has only greys */
	a = grid_dump_colors(&g, SV_GRID_SVG, 0);
	ck_assert_ptr_null(strstr(a, "#d75f5f"));
	ck_assert_ptr_null(strstr(a, "#d75f87"));
	free(a);
	a = grid_dump_colors(&g, SV_GRID_SVG, 256);
	ck_assert_ptr_nonnull(strstr(a, "#d75f5f"));
	free(a);
	sv_grid_fini(&g);
}
END_TEST

START_TEST(test_dumps)
{
	struct sv_grid g;
	char *text, *styles, *ansi, *svg;
	const char *p;

	sv_grid_init(&g);
	sv_grid_resize(&g, 6, 2);
	sv_grid_text(&g, 0, 0, -1, "ab<", SV_STYLE_RULER, 0, 0);
	sv_grid_put(&g, 4, 1, SV_GRID_BAR, SV_STYLE_SPAN, 2);
	text = grid_dump(&g, SV_GRID_TEXT);
	styles = grid_dump(&g, SV_GRID_STYLES);
	ansi = grid_dump(&g, SV_GRID_ANSI);
	svg = grid_dump(&g, SV_GRID_SVG);
	ck_assert_str_eq(text, "ab<\n    \xe2\x96\x88\n");
	ck_assert_str_eq(styles, "ab<\n    \xe2\x96\x88\nrrr\n....s\n");
	/* ANSI: only SGR sequences besides the text and newlines */
	for (p = ansi; *p; p++) {
		if (*p == 0x1b) {
			ck_assert_int_eq(p[1], '[');
			p += 2;
			while (*p && ((*p >= '0' && *p <= '9') || *p == ';'))
				p++;
			ck_assert_int_eq(*p, 'm');
		} else {
			ck_assert((unsigned char)*p >= 0x20 || *p == '\n');
		}
	}
	/* the bar glyph takes its background colour as foreground */
	ck_assert_ptr_nonnull(strstr(ansi, "38;5;173"));
	ck_assert_ptr_nonnull(strstr(svg, "<svg"));
	ck_assert_ptr_nonnull(strstr(svg, "&lt;"));
	ck_assert_int_eq(sv_grid_write(&g, NULL, SV_GRID_TEXT) < 0, 1);
	free(text);
	free(styles);
	free(ansi);
	free(svg);
	sv_grid_fini(&g);
}
END_TEST

/* The grid lays text out with the widths of sv_utf8_width (wcwidth):
 * the characters issue 16 found overdrawn take their true cells, and a
 * border after them stays in its column. */
START_TEST(test_text_widths)
{
	static const struct {
		const char *s;
		int cells;
	} w[] = {
		{"\xe2\x9c\x85|", 3},      /* U+2705 */
		{"\xe2\xad\x90|", 3},      /* U+2B50 */
		{"\xf0\x9f\xa9\xb0|", 3},  /* U+1FA70 */
		{"a\xe3\x82\x99|", 2},     /* U+3099 combining */
		{"a\xe2\x81\xa0|", 2},     /* U+2060 word joiner */
		{"a\xf3\xa0\x81\x81|", 2}, /* U+E0041 tag */
	};
	struct sv_grid g;
	size_t i;

	sv_grid_init(&g);
	sv_grid_resize(&g, 10, 1);
	for (i = 0; i < sizeof w / sizeof w[0]; i++) {
		ck_assert_int_eq(sv_grid_text_width(w[i].s, 100), w[i].cells);
		sv_grid_clear(&g);
		sv_grid_text(&g, 0, 0, 10, w[i].s, SV_STYLE_DEFAULT, 0, 0);
		ck_assert_uint_eq(sv_grid_at(&g, w[i].cells - 1, 0)->ch, '|');
	}
	sv_grid_fini(&g);
}
END_TEST

/* U+FFFE and U+FFFF are not XML characters: the SVG shows U+FFFD. */
START_TEST(test_svg_noncharacters)
{
	struct sv_grid g;
	char *svg;

	sv_grid_init(&g);
	sv_grid_resize(&g, 4, 1);
	sv_grid_clear(&g);
	sv_grid_text(&g, 0, 0, 4, "\xef\xbf\xbe\xef\xbf\xbfok",
		SV_STYLE_DEFAULT, 0, 0);
	svg = grid_dump(&g, SV_GRID_SVG);
	ck_assert_ptr_null(strstr(svg, "\xef\xbf\xbe"));
	ck_assert_ptr_null(strstr(svg, "\xef\xbf\xbf"));
	ck_assert_ptr_nonnull(strstr(svg, ">\xef\xbf\xbd</text>"));
	free(svg);
	sv_grid_fini(&g);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("grid");
	TCase *tc = tcase_create("text");
	tcase_add_loop_test(tc, test_text, 0, sizeof texts / sizeof texts[0]);
	tcase_add_test(tc, test_put_and_clip);
	tcase_add_test(tc, test_text_widths);
	tcase_add_test(tc, test_svg_noncharacters);
	suite_add_tcase(s, tc);
	tc = tcase_create("looks");
	tcase_add_test(tc, test_region_colors);
	tcase_add_test(tc, test_styles);
	tcase_add_test(tc, test_themes);
	tcase_add_test(tc, test_every_style_in_every_theme);
	tcase_add_test(tc, test_dumps);
	tcase_add_test(tc, test_dump_colors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
