/*
 * config.h: the viewer's configuration file, $XDG_CONFIG_HOME/scopeview/
 * config (or ~/.config/scopeview/config), in the line format of tigrc and
 * htoprc: one directive a line, '#' starts a comment, words are separated
 * by blanks.
 *
 *   bind [MODE] KEY ACTION      KEY (a tmux key name: x, C-x, Enter, F5)
 *                               does ACTION (an action-table name, or
 *                               "none" to unbind) in MODE (a scope:
 *                               timeline, stats, panel, popup, prompt,
 *                               global), or in every scope of the action
 *   color STYLE FG BG [ATTR...] how a style looks: colours default,
 *                               black .. white, bright-black ..
 *                               bright-white, 0 .. 15, or region (the
 *                               call's region colour); attributes bold,
 *                               underline, reverse, dim, normal
 *   theme auto|dark|light       the defaults the colour lines change;
 *                               auto: by the terminal's answer to the
 *                               OSC 11 query, dark without one
 *   set colors auto|none|8|16|256
 *   set mouse on|off
 *   set panel-columns LIST      the panel's numeric columns (calls,total,
 *                               exclusive,avg,min,p50,p95,p99,max,std,
 *                               imbalance; "auto")
 *   set panel-width N           the summary panel's columns (0: by the
 *                               screen width; else 20 .. 200)
 *   set sort KEY                the panel's first order (a summary --sort
 *                               key)
 *
 * A line that does not parse changes nothing (the defaults stay for what
 * it meant to set) and adds one message "FILE:LINE: problem" to
 * errors; the rest of the file still applies.  Parsing never prints: the
 * caller shows the messages.  Nothing here knows about curses.
 */
#ifndef SCOPEVIEW_CONFIG_H
#define SCOPEVIEW_CONFIG_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/config.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "scopeview/common.h"
#include "scopeview/grid.h"
#include "scopeview/strv.h"

#define SV_CONFIG_PANEL_MIN 20
#define SV_CONFIG_PANEL_MAX 200

/* One `bind` line: key means action in scopes (SV_SCOPE_* bits; 0 = the
 * action's own scopes); action 0 (SV_ACTION_NONE) unbinds. */
struct sv_config_bind {
	unsigned scopes;
	int key;
	int action;
};

struct sv_config {
	int theme;           /* enum sv_theme; default SV_THEME_AUTO */
	int colors;          /* -1 as the terminal reports (auto), 0 none, 8,
			    16 or 256: what sv_term_opts.max_colors takes */
	bool mouse;          /* default on */
	int panel_width;     /* 0 = by the screen width */
	unsigned panel_cols; /* 1 << SV_PANEL_COL_* of the numeric columns
				to show; 0 = as many as fit */
	int sort_key;        /* enum sv_stats_key; default total */
	/* `color` lines: the styles they set, over the theme's. */
	bool style_set[SV_STYLE_COUNT];
	struct sv_style_attr styles[SV_STYLE_COUNT];
	struct sv_config_bind *binds; /* in file order; owned */
	size_t nbinds, cap;
	struct sv_strv errors; /* "FILE:LINE: problem", one per bad line */
};

/* The defaults (as with no file). */
void sv_config_init(struct sv_config *c);
/* Free what c owns; c can be initialised again. */
void sv_config_fini(struct sv_config *c);

/*
 * Apply the lines of text (NUL-terminated; name is the file name for the
 * messages) to c, in order: a later line wins.  Returns the number of
 * lines that did not parse (their messages are in c->errors).
 */
size_t sv_config_parse(struct sv_config *c, const char *name, const char *text);

/*
 * Read the file at path and parse it into c.  A missing file is not an
 * error unless must_exist (a --config FILE).  Returns 0 (also when
 * parse errors were collected in c->errors), or a negative errno with err
 * ("PATH: No such file or directory") when the file cannot be read.
 */
int sv_config_load(struct sv_config *c, const char *path, bool must_exist,
	struct sv_error *err);

/* The default path, from XDG_CONFIG_HOME or HOME, into buf (n bytes);
 * NULL when neither is set to an absolute directory. */
const char *sv_config_default_path(char *buf, size_t n);

/* The look of style in c: its `color` line, else the theme's (the dark
 * one's for auto). */
const struct sv_style_attr *sv_config_style(
	const struct sv_config *c, int style);

/* Make c's `bind` lines the bindings in effect (action.h), over the
 * table's defaults.  Every line was checked when parsed, so this cannot
 * fail. */
void sv_config_apply_bindings(const struct sv_config *c);

/*
 * Write the effective configuration as a config file, with comments, to
 * out: every setting, every style's look, and a `bind` line for every key
 * in effect (after sv_config_apply_bindings).  Parsing the output gives
 * the same configuration.  Returns 0 or -EIO.
 */
int sv_config_write(const struct sv_config *c, FILE *out);

#endif
