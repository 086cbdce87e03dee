/*
 * action.h: every thing a key can do, as one table.  The enum, the key
 * bindings, the help screen, `scopeview --list-keys` and the README key
 * table are all generated from SV_ACTION_TABLE, so they cannot drift.
 *
 * X(NAME, "name", "default keys", "help text"): the default keys are tmux
 * send-keys names (keys.h) separated by spaces; the first is the one shown
 * in short hints.  Keys only bind in the timeline; prompts and popups take
 * their keys first (view.c).  Nothing here knows about curses.
 */
#ifndef SCOPEVIEW_ACTION_H
#define SCOPEVIEW_ACTION_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/action.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdio.h>

#define SV_ACTION_TABLE(X)                                                     \
	X(MOVE_LEFT, "move-left", "h Left",                                    \
		"Move the cursor one column "                                  \
		"back in time")                                                \
	X(MOVE_RIGHT, "move-right", "l Right",                                 \
		"Move the cursor one column forward in time")                  \
	X(MOVE_UP, "move-up", "k Up", "Move the cursor up one row")            \
	X(MOVE_DOWN, "move-down", "j Down", "Move the cursor down one row")    \
	X(PAGE_UP, "page-up", "PageUp", "Scroll the lanes up one page")        \
	X(PAGE_DOWN, "page-down", "PageDown",                                  \
		"Scroll the lanes down one page")                              \
	X(ZOOM_IN, "zoom-in", "+ = w", "Zoom in around the cursor")            \
	X(ZOOM_OUT, "zoom-out", "- s", "Zoom out around the cursor")           \
	X(PAN_LEFT, "pan-left", "a", "Move the window back in time")           \
	X(PAN_RIGHT, "pan-right", "d", "Move the window forward in time")      \
	X(GO_START, "go-start", "Home", "Move the window to the run's start")  \
	X(GO_END, "go-end", "End", "Move the window to the run's end")         \
	X(ZOOM_CALL, "zoom-call", "f Enter", "Zoom to the selected call")      \
	X(ZOOM_FIT, "zoom-fit", "0", "Fit the whole run")                      \
	X(ZOOM_BACK, "zoom-back", "Escape BSpace",                             \
		"Go back in the zoom history")                                 \
	X(NEXT_CALL, "next-call", "Tab", "Select the next call on the lane")   \
	X(PREV_CALL, "prev-call", "BTab",                                      \
		"Select the previous call on the lane")                        \
	X(PARENT, "parent", "K", "Select the enclosing call")                  \
	X(CHILD, "child", "J", "Select the first call inside this one")        \
	X(NEXT_SIBLING, "next-sibling", "]",                                   \
		"Select the next call with the same parent")                   \
	X(PREV_SIBLING, "prev-sibling", "[",                                   \
		"Select the previous call with the same parent")               \
	X(LONGEST_CHILD, "longest-child", "c",                                 \
		"Follow the longest child (a cheap critical path)")            \
	X(SOLO_LANE, "solo-lane", "t",                                         \
		"Show only the lane under the cursor, fully expanded; "        \
		"again to restore")                                            \
	X(COLLAPSE_LANE, "collapse-lane", "z",                                 \
		"Collapse or expand the lane under the cursor")                \
	X(COLLAPSE_ALL, "collapse-all", "Z",                                   \
		"Collapse every lane, or expand them all")                     \
	X(SEARCH, "search", "/", "Search region names (regex)")                \
	X(SEARCH_NEXT, "search-next", "n", "Next matching call in time")       \
	X(SEARCH_PREV, "search-prev", "N", "Previous matching call in time")   \
	X(FILTER, "filter", "\\",                                              \
		"Filter regions (regex; a leading ! excludes)")                \
	X(RANK_FILTER, "rank-filter", "r", "Show only some ranks (0,2-5)")     \
	X(COMMAND, "command", ":",                                             \
		"Command prompt: goto 12.5ms, rank 3, region NAME")            \
	X(PANEL_FOCUS, "panel-focus", "p",                                     \
		"Move the focus to the summary panel and back")                \
	X(PANEL_TOGGLE, "panel-toggle", "P", "Show or hide the summary panel") \
	X(SORT_PREV, "sort-prev", "<",                                         \
		"Sort the panel by the column to "                             \
		"the left")                                                    \
	X(SORT_NEXT, "sort-next", ">",                                         \
		"Sort the panel by the column to "                             \
		"the right")                                                   \
	X(DETAILS, "details", "D", "Show or hide the details panel")           \
	X(SOURCE, "source", "v", "Show the selected region's source")          \
	X(METADATA, "metadata", "i", "Show the run's metadata")                \
	X(WARNINGS, "warnings", "W", "Show the loader's warnings")             \
	X(RELOAD, "reload", "R", "Reload the file")                            \
	X(HELP, "help", "? F1", "Show the keys")                               \
	X(QUIT, "quit", "q", "Close the popup, or quit")

enum sv_action {
	SV_ACTION_NONE = 0,
#define SV_ACTION_ENUM(name, str, keys, help) SV_ACTION_##name,
	SV_ACTION_TABLE(SV_ACTION_ENUM)
#undef SV_ACTION_ENUM
		SV_ACTION_COUNT
};

struct sv_action_info {
	const char *name; /* "zoom-in" */
	const char *keys; /* "+ = w" (tmux names) */
	const char *help; /* "Zoom in around the cursor" */
};

/* The row of an action (SV_ACTION_NONE < a < SV_ACTION_COUNT), or NULL. */
const struct sv_action_info *sv_action_info(int action);
/* The action bound to key by default, or SV_ACTION_NONE. */
int sv_action_for_key(int key);
/* Action by name ("zoom-in"), or SV_ACTION_NONE. */
int sv_action_by_name(const char *name);

/* Human spelling of a tmux key name for help and docs: "Left" stays,
 * "BTab" becomes "Shift-Tab", "C-x" becomes "Ctrl-x", "\\" stays "\". */
const char *sv_action_key_label(const char *tmux_name, char *buf, size_t n);

enum sv_action_doc {
	SV_ACTION_DOC_TEXT,     /* `scopeview --list-keys`: aligned columns */
	SV_ACTION_DOC_MARKDOWN, /* the README table */
};
/* Write the key table to out.  Returns 0 or -EIO. */
int sv_action_write_keys(FILE *out, enum sv_action_doc doc);

#endif
