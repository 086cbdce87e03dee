/*
 * action.h: every thing a key can do, as one table with scopes.  The enum,
 * the key bindings of every mode (the timeline, the statistics screen,
 * the summary panel, popups and prompts), the help screen, `scopeview
 * --list-keys` and the README key tables are all generated from
 * SV_ACTION_TABLE, so they cannot drift and no key is handled where the
 * help does not know about it.
 *
 * X(NAME, "name", "default keys", scopes, "help text"): the default keys
 * are tmux send-keys names (keys.h) separated by spaces, the first being
 * the one shown in short hints; scopes are SV_SCOPE_* bits saying where
 * the keys bind.  A mode looks a key up in its scopes in its own order
 * (mode.h: the panel before the timeline, a popup before the global
 * keys), so one key may mean different things in different scopes but
 * only one thing in each.  Text typed into a prompt is not an action: the
 * prompt mode takes it through its key() hook.  Nothing here knows about
 * curses.
 */
#ifndef SCOPEVIEW_ACTION_H
#define SCOPEVIEW_ACTION_H
#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/action.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdio.h>

/* Where an action's keys bind (bits), in the order the docs list them. */
#define SV_SCOPE_TABLE(X)                                                \
	X(TIMELINE, "timeline", "Timeline")                              \
	X(STATS, "stats", "Statistics screen")                           \
	X(LIST, "list",                                                  \
		"Every list (tree, callers, ranks, histogram, "          \
		"calls, trend, scaling, statistics, the panel, popups)") \
	X(TREE, "tree", "Call tree")                                     \
	X(FLAME, "flame", "Flame graph")                                 \
	X(CALLERS, "callers", "Callers and callees")                     \
	X(RANKS, "ranks", "Ranks matrix")                                \
	X(HISTOGRAM, "histogram", "Histogram of durations")              \
	X(CALLS, "calls", "Call list")                                   \
	X(TREND, "trend", "Iteration trend")                             \
	X(SCALING, "scaling", "Scaling study (three or more runs)")      \
	X(PANEL, "panel", "Summary panel (when it has the focus)")       \
	X(POPUP, "popup", "Popups (help, source, metadata, warnings)")   \
	X(PROMPT, "prompt", "Prompts (search, filter, ranks, commands)") \
	X(GLOBAL, "global", "Every view")

enum sv_scope_index {
#define SV_SCOPE_INDEX(id, name, title) SV_SCOPE_INDEX_##id,
	SV_SCOPE_TABLE(SV_SCOPE_INDEX)
#undef SV_SCOPE_INDEX
		SV_SCOPE_COUNT
};

enum {
#define SV_SCOPE_BIT(id, name, title) SV_SCOPE_##id = 1u << SV_SCOPE_INDEX_##id,
	SV_SCOPE_TABLE(SV_SCOPE_BIT)
#undef SV_SCOPE_BIT
};

#define SV_SCOPE_VIEWS (SV_SCOPE_TIMELINE | SV_SCOPE_STATS)
/* The scopes of the views and boxes that are lists (list.h), whose list
 * keys are the SV_SCOPE_LIST rows. */
#define SV_SCOPE_LISTS                                                        \
	(SV_SCOPE_STATS | SV_SCOPE_TREE | SV_SCOPE_CALLERS | SV_SCOPE_RANKS | \
		SV_SCOPE_HISTOGRAM | SV_SCOPE_CALLS | SV_SCOPE_TREND |        \
		SV_SCOPE_SCALING | SV_SCOPE_PANEL | SV_SCOPE_POPUP)

#define SV_ACTION_TABLE(X)                                                     \
	X(MOVE_LEFT, "move-left", "h Left", SV_SCOPE_TIMELINE,                 \
		"Move the cursor one column back in time")                     \
	X(MOVE_RIGHT, "move-right", "l Right", SV_SCOPE_TIMELINE,              \
		"Move the cursor one column forward in time")                  \
	X(MOVE_UP, "move-up", "k Up", SV_SCOPE_TIMELINE,                       \
		"Move the cursor up one row")                                  \
	X(MOVE_DOWN, "move-down", "j Down", SV_SCOPE_TIMELINE,                 \
		"Move the cursor down one row")                                \
	X(PAGE_UP, "page-up", "PageUp", SV_SCOPE_TIMELINE,                     \
		"Scroll the lanes up one page")                                \
	X(PAGE_DOWN, "page-down", "PageDown", SV_SCOPE_TIMELINE,               \
		"Scroll the lanes down one page")                              \
	X(ZOOM_IN, "zoom-in", "+ = w", SV_SCOPE_TIMELINE,                      \
		"Zoom in around the cursor")                                   \
	X(ZOOM_OUT, "zoom-out", "- s", SV_SCOPE_TIMELINE,                      \
		"Zoom out around the cursor")                                  \
	X(PAN_LEFT, "pan-left", "a", SV_SCOPE_TIMELINE,                        \
		"Move the window back in time")                                \
	X(PAN_RIGHT, "pan-right", "d", SV_SCOPE_TIMELINE,                      \
		"Move the window forward in time")                             \
	X(GO_START, "go-start", "Home g", SV_SCOPE_TIMELINE,                   \
		"Move the window to the run's start")                          \
	X(GO_END, "go-end", "End G", SV_SCOPE_TIMELINE,                        \
		"Move the window to the run's end")                            \
	X(ZOOM_CALL, "zoom-call", "f Enter", SV_SCOPE_TIMELINE,                \
		"Zoom to the selected call")                                   \
	X(ZOOM_FIT, "zoom-fit", "0", SV_SCOPE_TIMELINE, "Fit the whole run")   \
	X(ZOOM_BACK, "zoom-back", "Escape BSpace", SV_SCOPE_TIMELINE,          \
		"Go back in the zoom history")                                 \
	X(NEXT_CALL, "next-call", "Tab", SV_SCOPE_TIMELINE,                    \
		"Select the next call on the lane (or the call at the "        \
		"cursor)")                                                     \
	X(PREV_CALL, "prev-call", "BTab", SV_SCOPE_TIMELINE,                   \
		"Select the previous call on the lane (or the one at the "     \
		"cursor)")                                                     \
	X(PARENT, "parent", "K", SV_SCOPE_TIMELINE,                            \
		"Select the enclosing call")                                   \
	X(CHILD, "child", "J", SV_SCOPE_TIMELINE,                              \
		"Select the first call inside this one")                       \
	X(NEXT_SIBLING, "next-sibling", "]", SV_SCOPE_TIMELINE,                \
		"Select the next call with the same parent")                   \
	X(PREV_SIBLING, "prev-sibling", "[", SV_SCOPE_TIMELINE,                \
		"Select the previous call with the same parent")               \
	X(LONGEST_CHILD, "longest-child", "c", SV_SCOPE_TIMELINE,              \
		"Follow the longest child (a cheap critical path)")            \
	X(SOLO_LANE, "solo-lane", "t", SV_SCOPE_TIMELINE,                      \
		"Show only the lane under the cursor, fully expanded; "        \
		"again to restore")                                            \
	X(FOLD_RANK, "fold-rank", "z", SV_SCOPE_TIMELINE,                      \
		"Fold the rank's lanes into one track, or unfold them")        \
	X(FOLD_ALL, "fold-all", "Z", SV_SCOPE_TIMELINE,                        \
		"Fold every rank into one track, or unfold them all")          \
	X(SEARCH, "search", "/", SV_SCOPE_TIMELINE,                            \
		"Search region names (regex)")                                 \
	X(SEARCH_NEXT, "search-next", "n", SV_SCOPE_TIMELINE,                  \
		"Next matching call in time")                                  \
	X(SEARCH_PREV, "search-prev", "N", SV_SCOPE_TIMELINE,                  \
		"Previous matching call in time")                              \
	X(FILTER, "filter", "\\", SV_SCOPE_TIMELINE,                           \
		"Filter regions (regex; a leading ! excludes)")                \
	X(RANK_FILTER, "rank-filter", "r", SV_SCOPE_TIMELINE,                  \
		"Show only some ranks (0,2-5)")                                \
	X(COMMAND, "command", ":", SV_SCOPE_GLOBAL,                            \
		"Command prompt: goto 12.5ms, rank 3, region NAME, view "      \
		"NAME, open B.h5, second off, export FORMAT FILE")             \
	X(PANEL_FOCUS, "panel-focus", "p", SV_SCOPE_TIMELINE,                  \
		"Move the focus to the summary panel and back")                \
	X(PANEL_TOGGLE, "panel-toggle", "P", SV_SCOPE_TIMELINE,                \
		"Show or hide the summary panel")                              \
	X(SORT_PREV, "sort-prev", "<", SV_SCOPE_TIMELINE,                      \
		"Sort the panel by the column to the left")                    \
	X(SORT_NEXT, "sort-next", ">", SV_SCOPE_TIMELINE,                      \
		"Sort the panel by the column to the right")                   \
	X(DETAILS, "details", "D", SV_SCOPE_TIMELINE,                          \
		"Show or hide the details panel")                              \
	X(SOURCE, "source", "v", SV_SCOPE_VIEWS | SV_SCOPE_POPUP,              \
		"Show the selected region's source")                           \
	X(METADATA, "metadata", "i", SV_SCOPE_GLOBAL | SV_SCOPE_POPUP,         \
		"Show the run's metadata")                                     \
	X(WARNINGS, "warnings", "W", SV_SCOPE_GLOBAL | SV_SCOPE_POPUP,         \
		"Show the loader's warnings")                                  \
	X(CONTENTS, "contents", "I", SV_SCOPE_GLOBAL | SV_SCOPE_POPUP,         \
		"Show every group and dataset of the file")                    \
	X(VIEW_NEXT, "view-next", "V", SV_SCOPE_GLOBAL,                        \
		"Switch to the next view (:view and Tab name them all)")       \
	X(RELOAD, "reload", "R", SV_SCOPE_GLOBAL, "Reload the file")           \
	X(HELP, "help", "? F1", SV_SCOPE_GLOBAL | SV_SCOPE_POPUP,              \
		"Show the keys")                                               \
	X(QUIT, "quit", "Q", SV_SCOPE_GLOBAL | SV_SCOPE_POPUP,                 \
		"Quit the viewer, from any view")                              \
	X(CLOSE, "close", "q", SV_SCOPE_GLOBAL,                                \
		"Close this view and go back to the one before; quit from "    \
		"the first view")                                              \
	X(BACK, "back", "Escape", SV_SCOPE_GLOBAL,                             \
		"Go back: stop the work under way and return to the view "     \
		"before")                                                      \
	X(LIST_DOWN, "list-down", "j Down", SV_SCOPE_LIST,                     \
		"Move down a row (5j: five rows)")                             \
	X(LIST_UP, "list-up", "k Up", SV_SCOPE_LIST, "Move up a row")          \
	X(LIST_PAGE_DOWN, "list-page-down", "PageDown Space", SV_SCOPE_LIST,   \
		"Move down a page")                                            \
	X(LIST_PAGE_UP, "list-page-up", "PageUp", SV_SCOPE_LIST,               \
		"Move up a page")                                              \
	X(LIST_FIRST, "list-first", "g Home", SV_SCOPE_LIST,                   \
		"Go to the first row (24g: row 24)")                           \
	X(LIST_LAST, "list-last", "G End", SV_SCOPE_LIST,                      \
		"Go to the last row (24G: row 24)")                            \
	X(LIST_ENTER, "list-enter", "Enter", SV_SCOPE_LIST,                    \
		"Open the row (each list says what, below)")                   \
	X(LIST_SORT_NEXT, "list-sort-next", ">", SV_SCOPE_LIST,                \
		"Sort by the column to the right")                             \
	X(LIST_SORT_PREV, "list-sort-prev", "<", SV_SCOPE_LIST,                \
		"Sort by the column to the left")                              \
	X(LIST_REVERSE, "list-reverse", "r", SV_SCOPE_LIST,                    \
		"Reverse the order")                                           \
	X(LIST_SEARCH, "list-search", "/", SV_SCOPE_LIST,                      \
		"Search region names (regex): matching rows are highlighted")  \
	X(LIST_MATCH_NEXT, "list-match-next", "n", SV_SCOPE_LIST,              \
		"Go to the next row the search highlights")                    \
	X(LIST_MATCH_PREV, "list-match-prev", "N", SV_SCOPE_LIST,              \
		"Go to the previous row the search highlights")                \
	X(PANEL_MARK, "panel-mark", "Space", SV_SCOPE_PANEL | SV_SCOPE_STATS,  \
		"Mark the region and cycle through its calls, longest first")  \
	X(PANEL_BACK, "panel-back", "Escape", SV_SCOPE_PANEL,                  \
		"Clear the marked region, or leave the panel")                 \
	X(PANEL_NAMES_LEFT, "panel-names-left", "h Left",                      \
		SV_SCOPE_PANEL | SV_SCOPE_STATS,                               \
		"Scroll the region names back to their start")                 \
	X(PANEL_NAMES_RIGHT, "panel-names-right", "l Right",                   \
		SV_SCOPE_PANEL | SV_SCOPE_STATS,                               \
		"Scroll the region names sideways, to their ends")             \
	X(POPUP_CLOSE, "popup-close", "q Escape Enter BSpace", SV_SCOPE_POPUP, \
		"Close the popup")                                             \
	X(PROMPT_ENTER, "prompt-enter", "Enter", SV_SCOPE_PROMPT,              \
		"Run what was typed")                                          \
	X(PROMPT_CANCEL, "prompt-cancel", "Escape C-c C-g", SV_SCOPE_PROMPT,   \
		"Close the prompt without running it")                         \
	X(PROMPT_BACKSPACE, "prompt-backspace", "BSpace", SV_SCOPE_PROMPT,     \
		"Delete the character before the cursor (on an empty prompt: " \
		"close it)")                                                   \
	X(PROMPT_CLEAR, "prompt-clear", "C-u", SV_SCOPE_PROMPT,                \
		"Delete everything before the cursor")                         \
	X(PROMPT_LEFT, "prompt-left", "Left C-b", SV_SCOPE_PROMPT,             \
		"Move the cursor one character left")                          \
	X(PROMPT_RIGHT, "prompt-right", "Right C-f", SV_SCOPE_PROMPT,          \
		"Move the cursor one character right")                         \
	X(PROMPT_HOME, "prompt-home", "Home C-a", SV_SCOPE_PROMPT,             \
		"Move the cursor to the start")                                \
	X(PROMPT_END, "prompt-end", "End C-e", SV_SCOPE_PROMPT,                \
		"Move the cursor to the end")                                  \
	X(PROMPT_DELETE_WORD, "prompt-delete-word", "C-w", SV_SCOPE_PROMPT,    \
		"Delete the word before the cursor")                           \
	X(PROMPT_HISTORY_PREV, "prompt-history-prev", "Up C-p",                \
		SV_SCOPE_PROMPT, "The previous line entered at this prompt")   \
	X(PROMPT_HISTORY_NEXT, "prompt-history-next", "Down C-n",              \
		SV_SCOPE_PROMPT, "The next line entered at this prompt")       \
	X(PROMPT_COMPLETE, "prompt-complete", "Tab", SV_SCOPE_PROMPT,          \
		"Complete the word: a command, a view, a region, a file; "     \
		"again for the next candidate")                                \
	X(PROMPT_COMPLETE_PREV, "prompt-complete-prev", "BTab",                \
		SV_SCOPE_PROMPT, "The previous candidate")                     \
	X(VIEW_TREE, "view-tree", "T", SV_SCOPE_GLOBAL,                        \
		"Show the call tree: where the time goes")                     \
	X(VIEW_FLAME, "view-flame", "F", SV_SCOPE_GLOBAL,                      \
		"Show the flame graph")                                        \
	X(RANGE_START, "range-start", "m", SV_SCOPE_TIMELINE,                  \
		"Mark the start of a time range at the cursor")                \
	X(RANGE_END, "range-end", "M", SV_SCOPE_TIMELINE,                      \
		"Mark the end of the time range at the cursor")                \
	X(RANGE_CLEAR, "range-clear", "X", SV_SCOPE_TIMELINE,                  \
		"Clear the marked time range")                                 \
	X(TREE_EXPAND, "tree-expand", "l Right", SV_SCOPE_TREE,                \
		"Expand the path one level")                                   \
	X(TREE_COLLAPSE, "tree-collapse", "h Left", SV_SCOPE_TREE,             \
		"Collapse the path, or move to its caller")                    \
	X(TREE_ALL, "tree-all", "*", SV_SCOPE_TREE,                            \
		"Expand every path, or collapse them all")                     \
	X(TREE_RECURSION, "tree-recursion", "e",                               \
		SV_SCOPE_TREE | SV_SCOPE_FLAME,                                \
		"Show recursion level by level, or collapsed into one node")   \
	X(FLAME_UP, "flame-up", "k Up", SV_SCOPE_FLAME,                        \
		"Select the calling frame")                                    \
	X(FLAME_DOWN, "flame-down", "j Down", SV_SCOPE_FLAME,                  \
		"Select the widest frame it calls")                            \
	X(FLAME_LEFT, "flame-left", "h Left", SV_SCOPE_FLAME,                  \
		"Select the frame to the left")                                \
	X(FLAME_RIGHT, "flame-right", "l Right", SV_SCOPE_FLAME,               \
		"Select the frame to the right")                               \
	X(FLAME_ZOOM, "flame-zoom", "Enter", SV_SCOPE_FLAME,                   \
		"Zoom into the selected frame")                                \
	X(FLAME_OUT, "flame-out", "BSpace", SV_SCOPE_FLAME,                    \
		"Zoom out one level")                                          \
	X(TREE_SEARCH, "tree-search", "/", SV_SCOPE_FLAME,                     \
		"Search region names (regex): matches are highlighted")        \
	X(TREE_MATCH_NEXT, "tree-match-next", "n", SV_SCOPE_FLAME,             \
		"Go to the next match")                                        \
	X(VIEW_CALLERS, "view-callers", "C", SV_SCOPE_GLOBAL,                  \
		"Show the callers and callees of the marked or selected "      \
		"region")                                                      \
	X(TREE_CALLERS, "tree-callers", "c", SV_SCOPE_TREE,                    \
		"Show the callers and callees of the path's region")           \
	X(RANGE_CALL, "range-call", "o", SV_SCOPE_TIMELINE,                    \
		"Mark the selected call's time as the range")                  \
	X(RANGE_WINDOW, "range-window", "O", SV_SCOPE_TIMELINE,                \
		"Mark the visible window as the range")                        \
	X(STATS_SPAN, "stats-span", "S", SV_SCOPE_GLOBAL,                      \
		"Statistics of the whole run, the visible window or the "      \
		"marked range")                                                \
	X(VIEW_RANKS, "view-ranks", "B", SV_SCOPE_GLOBAL,                      \
		"Show the rank x region matrix (:view ranks)")                 \
	X(VIEW_HISTOGRAM, "view-histogram", "H", SV_SCOPE_GLOBAL,              \
		"Show the histogram of the marked region (:view histogram)")   \
	X(VIEW_CALLS, "view-calls", "L", SV_SCOPE_GLOBAL,                      \
		"List the calls of the marked region (:view calls)")           \
	X(VIEW_TREND, "view-trend", "E", SV_SCOPE_GLOBAL,                      \
		"Show the marked region iteration by iteration (:view trend)") \
	X(RANKS_RIGHT, "ranks-right", "l Right", SV_SCOPE_RANKS,               \
		"Move to the next region")                                     \
	X(RANKS_LEFT, "ranks-left", "h Left", SV_SCOPE_RANKS,                  \
		"Move to the previous region")                                 \
	X(RANKS_METRIC, "ranks-metric", "x", SV_SCOPE_RANKS,                   \
		"Cells: total time, exclusive time, change in the second run") \
	X(RANKS_SORT, "ranks-sort", "o", SV_SCOPE_RANKS,                       \
		"Order the regions by imbalance, or as the panel does")        \
	X(RANKS_WORST, "ranks-worst", "s", SV_SCOPE_RANKS,                     \
		"Go to the slowest rank of the region it loses most time in, " \
		"marked")                                                      \
	X(RANKS_EXPAND, "ranks-expand", "e", SV_SCOPE_RANKS,                   \
		"Expand the group of ranks under the cursor, or group again")  \
	X(RANKS_ALL, "ranks-all", "a", SV_SCOPE_RANKS,                         \
		"Show every rank again (after Enter showed one)")              \
	X(RANKS_MARK, "ranks-mark", "m", SV_SCOPE_RANKS,                       \
		"Mark the region under the cursor (H, L then show it)")        \
	X(HIST_RANGE, "hist-range", "Space", SV_SCOPE_HISTOGRAM,               \
		"Start a range of bins here, or drop it")                      \
	X(HIST_MORE, "hist-more", "+ =", SV_SCOPE_HISTOGRAM,                   \
		"More, narrower bins")                                         \
	X(HIST_FEWER, "hist-fewer", "-", SV_SCOPE_HISTOGRAM,                   \
		"Fewer, wider bins")                                           \
	X(HIST_SOURCE, "hist-source", "m", SV_SCOPE_HISTOGRAM,                 \
		"Switch between the marked region and the search matches")     \
	X(COLOR_MODE, "color-mode", "y", SV_SCOPE_TIMELINE,                    \
		"Colour calls by region, duration, self time or rank, in "     \
		"turn")                                                        \
	X(RANK_ROWS, "rank-rows", "b", SV_SCOPE_TIMELINE,                      \
		"One row a rank at the region's depth, its time in the "       \
		"region as a bar; again for every lane's rows")                \
	X(RANK_DEPTH_UP, "rank-depth-up", "(", SV_SCOPE_TIMELINE,              \
		"Rank rows or folded tracks: one depth shallower")             \
	X(RANK_DEPTH_DOWN, "rank-depth-down", ")", SV_SCOPE_TIMELINE,          \
		"Rank rows or folded tracks: one depth deeper")                \
	X(PANEL_WIDER, "panel-wider", "}", SV_SCOPE_TIMELINE,                  \
		"Widen the summary panel (or drag its border)")                \
	X(PANEL_NARROWER, "panel-narrower", "{", SV_SCOPE_TIMELINE,            \
		"Narrow the summary panel (or drag its border)")               \
	X(TREND_RANKS, "trend-ranks", "b", SV_SCOPE_TREND,                     \
		"One sparkline row a rank (groups of ranks when they do not "  \
		"fit), or none")                                               \
	X(TREND_ZOOM_IN, "trend-zoom-in", "+ =", SV_SCOPE_TREND,               \
		"Fewer iterations a column, around the cursor")                \
	X(TREND_ZOOM_OUT, "trend-zoom-out", "-", SV_SCOPE_TREND,               \
		"More iterations a column, up to the whole run")               \
	X(TREND_NEXT_CHANGE, "trend-next-change", "c", SV_SCOPE_TREND,         \
		"Go to the next change point (round the end)")                 \
	X(TREND_METRIC, "trend-metric", "x", SV_SCOPE_TREND,                   \
		"Follow the durations or the exclusive times")                 \
	X(SCALING_METRIC, "scaling-metric", "x", SV_SCOPE_SCALING,             \
		"Chart the speedup, the strong-scaling efficiency or the "     \
		"weak-scaling efficiency, in turn")

enum sv_action {
	SV_ACTION_NONE = 0,
#define SV_ACTION_ENUM(name, str, keys, scopes, help) SV_ACTION_##name,
	SV_ACTION_TABLE(SV_ACTION_ENUM)
#undef SV_ACTION_ENUM
		SV_ACTION_COUNT
};

struct sv_action_info {
	const char *name; /* "zoom-in" */
	const char *keys; /* "+ = w" (tmux names) */
	unsigned scopes;  /* SV_SCOPE_* bits */
	const char *help; /* "Zoom in around the cursor" */
};

/* The row of an action (SV_ACTION_NONE < a < SV_ACTION_COUNT), or NULL. */
const struct sv_action_info *sv_action_info(int action);
/* The action bound to key in scope (one SV_SCOPE_* bit), or
 * SV_ACTION_NONE. */
int sv_action_for_key(unsigned scope, int key);
/* The name and title of scope bit s ("timeline", "Timeline"), or NULL. */
const char *sv_scope_name(unsigned s);
const char *sv_scope_title(unsigned s);
/* Action by name ("zoom-in"), or SV_ACTION_NONE. */
int sv_action_by_name(const char *name);

/* Human spelling of a tmux key name for help and docs: "Left" stays,
 * "BTab" becomes "Shift-Tab", "C-x" becomes "Ctrl-x", "\\" stays "\". */
const char *sv_action_key_label(const char *tmux_name, char *buf, size_t n);

enum sv_action_doc {
	SV_ACTION_DOC_TEXT,     /* `scopeview --list-keys`: aligned columns */
	SV_ACTION_DOC_MARKDOWN, /* the README table */
	SV_ACTION_DOC_SCDOC,    /* the man page's KEYS section (scdoc) */
};
/* Write the key tables of every scope to out, one section a scope (the
 * order of SV_SCOPE_TABLE).  Returns 0 or -EIO. */
int sv_action_write_keys(FILE *out, enum sv_action_doc doc);
/* The keys bound to action a in human spelling, ", "-separated ("h,
 * Left"): the table's defaults, or what sv_action_bind() made of them. */
void sv_action_key_list(int a, char *out, size_t n);
/* The same for the keys a has in any of scopes (SV_SCOPE_* bits),
 * separated by sep (NULL: ", "). */
void sv_action_key_list_in(
	int a, unsigned scopes, const char *sep, char *out, size_t n);

/*
 * Rebind at run time (a config file's `bind`): from now on key means
 * action in every scope of scopes (SV_SCOPE_* bits; 0 = all the scopes of
 * the action's row), and whatever the key did there before is gone.
 * action SV_ACTION_NONE unbinds key in scopes (then nonzero).  The lookup,
 * the help popup and --list-keys all follow.  Returns 0, or -EINVAL when
 * the action does not bind in one of scopes (its row's scopes say where
 * it can), -ENOSPC when too many bindings were made.  Not thread-safe:
 * rebind before the viewer starts.
 */
int sv_action_bind(unsigned scopes, int key, int action);
/* Forget every rebinding: the table's defaults again. */
void sv_action_reset_bindings(void);
/* The i-th binding in effect (0 .. until -ENOENT): a key, its action and
 * the scopes (SV_SCOPE_* bits, possibly 0 after a rebinding took them
 * all), the table's defaults first.  Returns 0 or -ENOENT. */
int sv_action_binding(size_t i, int *key, int *action, unsigned *scopes);

#endif
