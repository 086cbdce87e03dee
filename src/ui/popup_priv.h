/*
 * popup_priv.h: what the popups' files (mode_popup.c, popup_source.c)
 * share beyond mode.h: the popup's state and the writer of its lines.
 * Private to src/ui/mode_popup.c and src/ui/popup_source.c.
 */
#ifndef SCOPEVIEW_UI_POPUP_PRIV_H
#define SCOPEVIEW_UI_POPUP_PRIV_H

#include "scopeview/infile.h"
#include "scopeview/list.h"
#include "scopeview/mode.h"
#include "scopeview/render.h"

/* The most of a source file the source popup reads: its first MiB (a
 * longer file is shown that far, and the popup says so). */
#define SV_POPUP_SOURCE_MAX ((size_t)1 << 20)

/* The source file a source popup read (sv_popup_source_setup). */
struct popup_file {
	char *path;    /* the path read (the profile's, made absolute from
			 its working directory), or NULL: none was read */
	char *text;    /* its first bytes as UTF-8 (invalid sequences shown
			 as U+FFFD, NULs left out), or NULL */
	char *error;   /* why it could not be read, or NULL */
	size_t len;    /* bytes of the file read */
	uint64_t size; /* the file's size */
	bool cut;      /* the file holds more than was read */
};

/* A popup's own state (set by sv_view_push_popup through
 * sv_mode_popup_setup). */
struct popup_data {
	struct sv_list list; /* its lines: list.top is the first shown */
	long region;         /* the source popup's region, -1 for none */
	unsigned scopes;     /* the help's scopes */
	/* The list view under the help, for what its Enter does. */
	const struct sv_list *under;
	struct popup_file file; /* the source popup's file, if it read one */
};

/* Emits popup lines one at a time; counts them and draws those in view. */
struct popup_out {
	struct sv_grid *g;
	const struct sv_glyphs *gl;
	const struct sv_session *s;
	const struct popup_data *d;
	int x, y0, w, h; /* text area */
	long top, n;
	int widest; /* bytes of the longest line, >= its cells */
	long mark;  /* the line of the call's source line, or -1 */
};

/* One line of the popup, in style, counted and drawn when in view. */
void sv_popup_line(struct popup_out *o, int style, const char *text);
void sv_popup_linef(struct popup_out *o, int style, const char *fmt, ...)
	SV_PRINTF(3, 4);
/* A long line folded at spaces to the popup's width. */
void sv_popup_wrapped(struct popup_out *o, int style, const char *text);
/* Whether the next line is in view (one that is not only counts). */
bool sv_popup_in_view(const struct popup_out *o);

/* The source popup's lines: the region, its source file and line, its
 * tags, its line profile, and its source text (the profile's, or the
 * file's it names as popup_file holds it). */
void sv_popup_source(struct popup_out *o);
/* Read the source file the source popup of d's region names when the
 * profile holds no text for it (by the rule of infile.h, its first
 * SV_POPUP_SOURCE_MAX bytes). */
void sv_popup_source_setup(struct popup_data *d, const struct sv_session *s);
/* Free what sv_popup_source_setup read. */
void sv_popup_source_fini(struct popup_data *d);

#endif
