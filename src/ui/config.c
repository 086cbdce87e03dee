/*
 * config.c: the configuration file (config.h): lines into a struct
 * sv_config, the struct back into a file (--dump-config), and its `bind`
 * lines into the action table's bindings.  Every problem becomes one
 * message in c->errors; nothing here prints or knows about curses.
 */
#include "scopeview/config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "scopeview/action.h"
#include "scopeview/keys.h"
#include "scopeview/panel.h"
#include "scopeview/stats.h"

#define CONFIG_MAX_WORDS 8
#define CONFIG_WORD_MAX  64

static const char *const config_color_names[16] = {"black", "red", "green",
	"yellow", "blue", "magenta", "cyan", "white", "bright-black",
	"bright-red", "bright-green", "bright-yellow", "bright-blue",
	"bright-magenta", "bright-cyan", "bright-white"};

void sv_config_init(struct sv_config *c)
{
	memset(c, 0, sizeof *c);
	c->theme = SV_THEME_AUTO;
	c->colors = -1;
	c->mouse = true;
	c->sort_key = SV_STATS_KEY_TOTAL;
}

void sv_config_fini(struct sv_config *c)
{
	if (!c)
		return;
	free(c->binds);
	sv_strv_fini(&c->errors);
	memset(c, 0, sizeof *c);
}

/* Add "NAME:LINE: message" to the errors, made terminal-safe
 * (sv_utf8_terminal_safe): the message quotes the line's words, and the
 * errors are printed before the screen starts (issue 43). */
static void config_error(struct sv_config *c, const char *name, size_t line,
	const char *fmt, ...) SV_PRINTF(4, 5);

static void config_error(struct sv_config *c, const char *name, size_t line,
	const char *fmt, ...)
{
	char msg[400], *full, *safe;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	full = sv_xasprintf("%s:%zu: %s", name ? name : "config", line, msg);
	safe = sv_utf8_terminal_safe(full, NULL);
	sv_strv_push(&c->errors, safe);
	free(safe);
	free(full);
}

/* The style called name ("panel-head", also "panel_head"), or -1. */
static int config_style_from_name(const char *name)
{
	int s;

	for (s = 0; s < SV_STYLE_COUNT; s++) {
		const char *a = sv_grid_style_name(s), *b = name;
		while (*a && *b &&
			(tolower((unsigned char)*a) == *b ||
				(*a == '_' && *b == '-')))
			a++, b++;
		if (!*a && !*b)
			return s;
	}
	return -1;
}

/* "panel-head" for SV_STYLE_PANEL_HEAD, into buf. */
static const char *config_style_name(int style, char *buf, size_t n)
{
	const char *a = sv_grid_style_name(style);
	size_t i;

	for (i = 0; a[i] && i + 1 < n; i++)
		buf[i] = a[i] == '_' ? '-' : (char)tolower((unsigned char)a[i]);
	buf[i] = '\0';
	return buf;
}

/* A colour word: -1 for default, 0 .. 15, or 16 for region; -2 when the
 * word is none of these. */
static int config_color(const char *w)
{
	char *end;
	long v;
	int i;

	if (!strcmp(w, "default"))
		return -1;
	if (!strcmp(w, "region"))
		return 16;
	for (i = 0; i < 16; i++)
		if (!strcmp(w, config_color_names[i]))
			return i;
	v = strtol(w, &end, 10);
	if (end != w && !*end && v >= 0 && v <= 15)
		return (int)v;
	return -2;
}

static const char *config_color_word(int fg, bool region)
{
	if (region)
		return "region";
	if (fg < 0 || fg > 15)
		return "default";
	return config_color_names[fg];
}

/* Split line into words: blanks separate, '#' at the start of a word
 * ends the line, '...' or "..." quote a word (to bind the key #).
 * Returns the number of words, or -1 with why set. */
static int config_split(
	const char *line, char words[][CONFIG_WORD_MAX], const char **why)
{
	int n = 0;

	for (;;) {
		size_t len = 0;
		char q = 0;

		while (*line == ' ' || *line == '\t' || *line == '\r')
			line++;
		if (!*line || *line == '#')
			return n;
		if (n == CONFIG_MAX_WORDS) {
			*why = "too many words";
			return -1;
		}
		if (*line == '\'' || *line == '"')
			q = *line++;
		while (*line && (q ? *line != q : !strchr(" \t\r", *line))) {
			if (len + 1 >= CONFIG_WORD_MAX) {
				*why = "a word is too long";
				return -1;
			}
			words[n][len++] = *line++;
		}
		if (q && *line != q) {
			*why = "a quote is not closed";
			return -1;
		}
		if (q)
			line++;
		words[n++][len] = '\0';
	}
}

static unsigned config_scope_from_name(const char *w)
{
	unsigned s;

	for (s = 1; s < 1u << SV_SCOPE_COUNT; s <<= 1)
		if (!strcmp(sv_scope_name(s), w))
			return s;
	return 0;
}

static void config_scope_list(char *buf, size_t n)
{
	unsigned s;
	size_t used = 0;

	buf[0] = '\0';
	for (s = 1; s < 1u << SV_SCOPE_COUNT && used < n; s <<= 1)
		used += (size_t)snprintf(buf + used, n - used, "%s%s",
			used ? ", " : "", sv_scope_name(s));
}

/* bind [MODE] KEY ACTION */
static void config_bind(struct sv_config *c, const char *name, size_t ln,
	char w[][CONFIG_WORD_MAX], int n)
{
	struct sv_error err = {0};
	unsigned scopes = 0;
	const struct sv_action_info *ai;
	int key, action, at = 1;
	char list[160];

	if (n != 3 && n != 4) {
		config_error(c, name, ln, "bind wants [MODE] KEY ACTION");
		return;
	}
	if (n == 4) {
		scopes = config_scope_from_name(w[1]);
		if (!scopes) {
			config_scope_list(list, sizeof list);
			config_error(c, name, ln, "unknown mode '%s' (%s)",
				w[1], list);
			return;
		}
		at = 2;
	}
	if (sv_key_parse(w[at], &key, &err) < 0 || sv_key_is_mouse(key)) {
		config_error(c, name, ln, "unknown key '%s'", w[at]);
		return;
	}
	action = strcmp(w[at + 1], "none") ? sv_action_by_name(w[at + 1])
					   : SV_ACTION_NONE;
	if (action == SV_ACTION_NONE && strcmp(w[at + 1], "none")) {
		config_error(c, name, ln,
			"unknown action '%s' (scopeview --list-keys names "
			"them)",
			w[at + 1]);
		return;
	}
	ai = sv_action_info(action);
	if (action == SV_ACTION_NONE && !scopes)
		scopes = (1u << SV_SCOPE_COUNT) - 1u;
	/* The list keys are the same in every list: bound in the mode of a
	 * list view, they bind in every list. */
	if (ai && ai->scopes == SV_SCOPE_LIST && scopes &&
		!(scopes & ~(SV_SCOPE_LISTS | SV_SCOPE_LIST)))
		scopes = SV_SCOPE_LIST;
	if (ai && scopes && (scopes & ~ai->scopes)) {
		unsigned s;
		size_t used = 0;
		list[0] = '\0';
		for (s = 1; s < 1u << SV_SCOPE_COUNT; s <<= 1)
			if (ai->scopes & s)
				used += (size_t)snprintf(list + used,
					sizeof list - used, "%s%s",
					used ? ", " : "", sv_scope_name(s));
		config_error(c, name, ln,
			"%s does not apply in %s (it binds in %s; without a "
			"mode, in all of them)",
			ai->name, w[1], list);
		return;
	}
	sv_grow((void **)&c->binds, &c->cap, c->nbinds + 1, sizeof *c->binds);
	c->binds[c->nbinds].scopes = scopes;
	c->binds[c->nbinds].key = key;
	c->binds[c->nbinds++].action = action;
}

/* color STYLE FG BG [ATTR...] */
static void config_colorline(struct sv_config *c, const char *name, size_t ln,
	char w[][CONFIG_WORD_MAX], int n)
{
	struct sv_style_attr a;
	int style, fg, bg, i;

	if (n < 4) {
		config_error(c, name, ln, "color wants STYLE FG BG [ATTR...]");
		return;
	}
	style = config_style_from_name(w[1]);
	if (style < 0) {
		config_error(c, name, ln,
			"unknown style '%s' (--dump-config lists them)", w[1]);
		return;
	}
	fg = config_color(w[2]);
	bg = config_color(w[3]);
	if (fg < -1 || bg < -1) {
		config_error(c, name, ln,
			"unknown colour '%s' (default, region, black .. white, "
			"bright-black .. bright-white or 0 .. 15)",
			fg < -1 ? w[2] : w[3]);
		return;
	}
	a = *sv_config_style(c, style);
	a.fg_region = fg == 16;
	a.bg_region = bg == 16;
	a.fg = (int8_t)(fg == 16 ? -1 : fg);
	a.bg = (int8_t)(bg == 16 ? -1 : bg);
	if (n > 4)
		a.bold = a.underline = a.reverse = a.dim = false;
	for (i = 4; i < n; i++) {
		if (!strcmp(w[i], "bold"))
			a.bold = true;
		else if (!strcmp(w[i], "underline"))
			a.underline = true;
		else if (!strcmp(w[i], "reverse"))
			a.reverse = true;
		else if (!strcmp(w[i], "dim"))
			a.dim = true;
		else if (strcmp(w[i], "normal")) {
			config_error(c, name, ln,
				"unknown attribute '%s' (bold, underline, "
				"reverse, dim or normal)",
				w[i]);
			return;
		}
	}
	c->styles[style] = a;
	c->style_set[style] = true;
}

/* set NAME VALUE */
static void config_set(struct sv_config *c, const char *name, size_t ln,
	char w[][CONFIG_WORD_MAX], int n)
{
	const char *v = w[2];
	char *end;
	long num;

	if (n != 3) {
		config_error(c, name, ln, "set wants NAME VALUE");
		return;
	}
	if (!strcmp(w[1], "colors") || !strcmp(w[1], "colours")) {
		if (!strcmp(v, "auto"))
			c->colors = -1;
		else if (!strcmp(v, "none"))
			c->colors = 0;
		else if (!strcmp(v, "8") || !strcmp(v, "16") ||
			 !strcmp(v, "256"))
			c->colors = atoi(v);
		else
			config_error(c, name, ln,
				"colors is auto, none, 8, 16 or 256, not '%s'",
				v);
	} else if (!strcmp(w[1], "mouse")) {
		if (!strcmp(v, "on") || !strcmp(v, "off"))
			c->mouse = !strcmp(v, "on");
		else
			config_error(
				c, name, ln, "mouse is on or off, not '%s'", v);
	} else if (!strcmp(w[1], "panel-width")) {
		num = strtol(v, &end, 10);
		if (end == v || *end ||
			(num != 0 && (num < SV_CONFIG_PANEL_MIN ||
					     num > SV_CONFIG_PANEL_MAX)))
			config_error(c, name, ln,
				"panel-width is 0 (by the screen) or %d .. "
				"%d columns, not '%s'",
				SV_CONFIG_PANEL_MIN, SV_CONFIG_PANEL_MAX, v);
		else
			c->panel_width = (int)num;
	} else if (!strcmp(w[1], "panel-columns")) {
		unsigned cols = 0;
		char item[32];
		const char *p = v;
		bool bad = false;
		while (*p && !bad && strcmp(v, "auto")) {
			size_t len = strcspn(p, ",");
			int col;
			snprintf(item, sizeof item, "%.*s", (int)len, p);
			col = len < sizeof item ? sv_panel_col_by_name(item)
						: -1;
			if (col <= SV_PANEL_COL_NAME) {
				config_error(c, name, ln,
					"unknown panel column '%s' (calls, "
					"total, exclusive, avg, min, p50, "
					"p95, p99, max, std, imbalance, or "
					"auto)",
					item);
				bad = true;
			}
			cols |= 1u << (col > 0 ? col : 0);
			p += len;
			if (*p == ',')
				p++;
		}
		if (!bad)
			c->panel_cols = cols;
	} else if (!strcmp(w[1], "sort")) {
		int k = sv_stats_key_from_name(v);
		if (k < 0)
			config_error(c, name, ln,
				"unknown sort key '%s' (scopeview summary "
				"--help lists them)",
				v);
		else
			c->sort_key = k;
	} else {
		config_error(c, name, ln,
			"unknown setting '%s' (colors, mouse, panel-width, "
			"panel-columns, sort)",
			w[1]);
	}
}

size_t sv_config_parse(struct sv_config *c, const char *name, const char *text)
{
	size_t before, ln = 0;

	if (!c || !text)
		return 0;
	before = c->errors.n;
	while (*text) {
		char line[512], words[CONFIG_MAX_WORDS][CONFIG_WORD_MAX];
		size_t len = strcspn(text, "\n");
		const char *why = NULL;
		int n;

		ln++;
		if (len >= sizeof line) {
			config_error(c, name, ln, "the line is too long");
			n = 0;
		} else {
			memcpy(line, text, len);
			line[len] = '\0';
			n = config_split(line, words, &why);
		}
		text += len;
		if (*text == '\n')
			text++;
		if (n < 0)
			config_error(c, name, ln, "%s", why);
		if (n <= 0)
			continue;
		if (!strcmp(words[0], "bind"))
			config_bind(c, name, ln, words, n);
		else if (!strcmp(words[0], "color") ||
			 !strcmp(words[0], "colour"))
			config_colorline(c, name, ln, words, n);
		else if (!strcmp(words[0], "set"))
			config_set(c, name, ln, words, n);
		else if (!strcmp(words[0], "theme") && n == 2 &&
			 !strcmp(words[1], "auto"))
			c->theme = SV_THEME_AUTO;
		else if (!strcmp(words[0], "theme") && n == 2 &&
			 sv_grid_theme_from_name(words[1]) >= 0)
			c->theme = sv_grid_theme_from_name(words[1]);
		else if (!strcmp(words[0], "theme"))
			config_error(
				c, name, ln, "theme is auto, dark or light");
		else
			config_error(c, name, ln,
				"unknown directive '%s' (bind, color, theme, "
				"set)",
				words[0]);
	}
	return c->errors.n - before;
}

int sv_config_load(struct sv_config *c, const char *path, bool must_exist,
	struct sv_error *err)
{
	FILE *f;
	char *text = NULL;
	size_t len = 0, cap = 0, got;

	if (!c || !path)
		return sv_error_set(err, -EINVAL, "no configuration file");
	f = fopen(path, "r");
	if (!f) {
		int e = errno;
		if ((e == ENOENT || e == ENOTDIR) && !must_exist)
			return 0;
		return sv_error_set(err, -e, "%s: %s", path, strerror(e));
	}
	do {
		sv_grow((void **)&text, &cap, len + 4097, 1);
		got = fread(text + len, 1, 4096, f);
		len += got;
	} while (got == 4096);
	text[len] = '\0';
	if (ferror(f)) {
		fclose(f);
		free(text);
		return sv_error_set(err, -EIO, "%s: cannot read it", path);
	}
	fclose(f);
	sv_config_parse(c, path, text);
	free(text);
	return 0;
}

const char *sv_config_default_path(char *buf, size_t n)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (!buf || !n)
		return NULL;
	if (xdg && xdg[0] == '/')
		snprintf(buf, n, "%s/scopeview/config", xdg);
	else if (home && home[0] == '/')
		snprintf(buf, n, "%s/.config/scopeview/config", home);
	else
		return NULL;
	return buf;
}

const struct sv_style_attr *sv_config_style(
	const struct sv_config *c, int style)
{
	if (style < 0 || style >= SV_STYLE_COUNT)
		style = SV_STYLE_DEFAULT;
	if (c && c->style_set[style])
		return &c->styles[style];
	return sv_grid_theme_attr(c ? c->theme : SV_THEME_DARK, style);
}

void sv_config_apply_bindings(const struct sv_config *c)
{
	size_t i;

	for (i = 0; c && i < c->nbinds; i++)
		sv_action_bind(c->binds[i].scopes, c->binds[i].key,
			c->binds[i].action);
}

/* A key as a config word: quoted when it would start a comment. */
static const char *config_key_word(int key, char *buf, size_t n)
{
	char name[32];

	sv_key_name(key, name, sizeof name);
	if (name[0] == '#' || name[0] == '\'' || name[0] == '"')
		snprintf(buf, n, "%c%s%c", name[0] == '\'' ? '"' : '\'', name,
			name[0] == '\'' ? '"' : '\'');
	else
		snprintf(buf, n, "%s", name);
	return buf;
}

/* A `bind` line for every key in effect, by scope, and a `none` line for
 * every default key a rebinding left without an action. */
static void config_write_binds(FILE *out)
{
	unsigned s, sc;
	size_t i;
	int a, key;

	for (s = 1; s < 1u << SV_SCOPE_COUNT; s <<= 1) {
		fprintf(out, "\n# %s\n", sv_scope_title(s));
		for (i = 0; !sv_action_binding(i, &key, &a, &sc); i++) {
			char kw[40];
			if (!(sv_action_info(a)->scopes & s))
				continue;
			if (sc & s)
				fprintf(out, "bind %s %s %s\n",
					sv_scope_name(s),
					config_key_word(key, kw, sizeof kw),
					sv_action_info(a)->name);
			else if (sv_action_for_key(s, key) == SV_ACTION_NONE)
				fprintf(out, "bind %s %s none\n",
					sv_scope_name(s),
					config_key_word(key, kw, sizeof kw));
		}
	}
}

int sv_config_write(const struct sv_config *c, FILE *out)
{
	struct sv_config def;
	int s;
	bool first;

	if (!out)
		return -EINVAL;
	if (!c) {
		sv_config_init(&def);
		c = &def;
	}
	fputs("# scopeview configuration, as `scopeview --dump-config` "
	      "prints it: save it as\n"
	      "# $XDG_CONFIG_HOME/scopeview/config (or "
	      "~/.config/scopeview/config) and edit.\n"
	      "# One directive a line; '#' starts a comment.  See "
	      "scopeview(1), CONFIGURATION.\n\n"
	      "# The colours for a dark or a light terminal background; "
	      "auto asks the\n# terminal (OSC 11), dark when it does not "
	      "answer.\n",
		out);
	fprintf(out, "theme %s\n",
		c->theme == SV_THEME_AUTO ? "auto"
					  : sv_grid_theme_name(c->theme));
	fputs("# How many colours to use: auto (what the terminal says), "
	      "none, 8, 16, 256.\n",
		out);
	if (c->colors < 0)
		fputs("set colors auto\n", out);
	else if (c->colors == 0)
		fputs("set colors none\n", out);
	else
		fprintf(out, "set colors %d\n", c->colors);
	fprintf(out,
		"# Clicks, drags and the wheel.\nset mouse %s\n"
		"# The summary panel's width in columns (0: by the screen "
		"width).\nset panel-width %d\n"
		"# The panel's order at start (the keys of scopeview "
		"summary --sort).\nset sort %s\n",
		c->mouse ? "on" : "off", c->panel_width,
		sv_stats_key_name((enum sv_stats_key)c->sort_key));
	fputs("# The panel's numeric columns, in any order (auto: as many as "
	      "fit).\nset panel-columns ",
		out);
	if (!c->panel_cols)
		fputs("auto", out);
	for (s = SV_PANEL_COL_NAME + 1, first = true; s < SV_PANEL_COL_COUNT;
		s++)
		if (c->panel_cols & (1u << s)) {
			fprintf(out, "%s%s", first ? "" : ",",
				sv_stats_key_name(sv_panel_col_key(s)));
			first = false;
		}
	fputc('\n', out);
	fputs("\n# color STYLE FG BG [ATTR...]: colours default, region, "
	      "black .. white,\n"
	      "# bright-black .. bright-white or 0 .. 15; attributes bold, "
	      "underline,\n# reverse, dim (or normal for none).  The lines "
	      "commented out are the\n# theme's looks; a line without "
	      "attributes keeps the theme's.\n",
		out);
	for (s = 0; s < SV_STYLE_COUNT; s++) {
		const struct sv_style_attr *a = sv_config_style(c, s);
		char sn[32];
		fputs(c->style_set[s] ? "" : "# ", out);
		fprintf(out, "color %-13s %-14s %-14s",
			config_style_name(s, sn, sizeof sn),
			config_color_word(a->fg, a->fg_region),
			config_color_word(a->bg, a->bg_region));
		if (!a->bold && !a->underline && !a->reverse && !a->dim)
			fputs(" normal", out);
		if (a->bold)
			fputs(" bold", out);
		if (a->underline)
			fputs(" underline", out);
		if (a->reverse)
			fputs(" reverse", out);
		if (a->dim)
			fputs(" dim", out);
		fputc('\n', out);
	}
	fputs("\n# bind [MODE] KEY ACTION: the keys in effect, by mode "
	      "(`none` unbinds).\n",
		out);
	config_write_binds(out);
	if (c == &def)
		sv_config_fini(&def);
	return ferror(out) ? -EIO : 0;
}
