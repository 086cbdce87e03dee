/*
 * lineedit.h: the line editor of the prompts (search, filter, ranks,
 * commands) and their histories.
 *
 * A line is UTF-8 text of at most SV_LINEEDIT_MAX - 1 bytes with a cursor
 * (a byte offset, always at a code point's start).  Moves and deletions
 * go by code points, C-w by words (a run of non-spaces and the spaces
 * after it).  A line set "fresh" (a prompt pre-filled with the filter in
 * effect) is replaced by the first text typed, as a selected field is;
 * any move or deletion makes it an ordinary line.  A history keeps the
 * lines entered, oldest first, without repeats of the newest; browsing
 * it (Up, Down) keeps the line being typed to come back to.  Nothing
 * here knows about curses, keys or HDF5.
 */
#ifndef SCOPEVIEW_LINEEDIT_H
#define SCOPEVIEW_LINEEDIT_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/lineedit.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>

#define SV_LINEEDIT_MAX     256
#define SV_LINEEDIT_HISTORY 50

struct sv_lineedit {
	char buf[SV_LINEEDIT_MAX];
	size_t len, cur; /* bytes; cur <= len */
	bool fresh;      /* the next text typed replaces the line */
	long hpos;       /* the history entry shown, -1 for the line typed */
	char typed[SV_LINEEDIT_MAX]; /* the line typed, while browsing */
};

struct sv_lineedit_history {
	char *lines[SV_LINEEDIT_HISTORY]; /* oldest first, owned */
	size_t n;
};

/* Start e on text (NULL: empty), the cursor at its end; fresh as above. */
void sv_lineedit_set(struct sv_lineedit *e, const char *text, bool fresh);
/* Insert UTF-8 text at the cursor (replacing a fresh line).  Returns 0,
 * or -ENOSPC (nothing inserted) when it would not fit. */
int sv_lineedit_insert(struct sv_lineedit *e, const char *text);
/* Replace the bytes from start to the cursor with text (a completed
 * word), the cursor after it.  Returns 0, -EINVAL when start is after the
 * cursor, or -ENOSPC (nothing changed) when the line would not fit. */
int sv_lineedit_replace(struct sv_lineedit *e, size_t start, const char *text);
/* Move the cursor one code point left (dir < 0) or right; to the start
 * or end.  Each returns false when the cursor could not move. */
bool sv_lineedit_move(struct sv_lineedit *e, int dir);
void sv_lineedit_home(struct sv_lineedit *e);
void sv_lineedit_end(struct sv_lineedit *e);
/* Delete the code point before the cursor; false when there is none. */
bool sv_lineedit_backspace(struct sv_lineedit *e);
/* Delete the word before the cursor (C-w), or all before it (C-u). */
void sv_lineedit_delete_word(struct sv_lineedit *e);
void sv_lineedit_delete_to_start(struct sv_lineedit *e);

/* Remember line (not when empty or the same as the newest); the oldest
 * goes when the history is full. */
void sv_lineedit_history_add(struct sv_lineedit_history *h, const char *line);
/* Show the previous (dir < 0, Up) or next (Down) entry of h in e, the
 * line typed after the newest.  Returns false at either end. */
bool sv_lineedit_history_step(
	struct sv_lineedit *e, const struct sv_lineedit_history *h, int dir);
/* Free the lines; NULL-safe. */
void sv_lineedit_history_fini(struct sv_lineedit_history *h);

#endif
