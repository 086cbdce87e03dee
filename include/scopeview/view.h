/*
 * view.h: the viewer without a terminal: a session and a stack of modes.
 *
 * A struct sv_view is what the interactive viewer, `scopeview snapshot`
 * and the tests drive alike: one session (session.h) with the profile and
 * everything views share, the main modes (the timeline, the statistics
 * screen; one instance each, kept while another is shown, so switching
 * back finds the timeline where it was) and a stack of popups and
 * prompts over the main mode (mode.h).  sv_view_handle_key() is the only
 * way keys change it; it reports what changed as SV_REACT_* flags, and the
 * caller (app.c, or snapshot's key-script loop) redraws with sv_render()
 * in one place.
 *
 * Commands (the `:` prompt): `view NAME`, `export FORMAT FILE` (through
 * the sink of the options, sink.h) and `quit` are the viewer's; every
 * other command goes to the main mode.
 *
 * Nothing here knows about curses or HDF5.  The view borrows the profile
 * (const) until sv_view_fini() or sv_view_set_profile().
 */
#ifndef SCOPEVIEW_VIEW_H
#define SCOPEVIEW_VIEW_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/view.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/grid.h"
#include "scopeview/lineedit.h"
#include "scopeview/mode.h"
#include "scopeview/profile.h"
#include "scopeview/session.h"
#include "scopeview/sink.h"
#include "scopeview/strv.h"

struct sv_timeline;
struct sv_runs;

enum sv_popup {
	SV_POPUP_NONE,
	SV_POPUP_HELP,
	SV_POPUP_SOURCE,
	SV_POPUP_METADATA,
	SV_POPUP_WARNINGS,
	SV_POPUP_CONTENTS, /* every group and dataset of the file */
};

enum sv_prompt {
	SV_PROMPT_NONE,
	SV_PROMPT_SEARCH,  /* "/" */
	SV_PROMPT_FILTER,  /* "\" */
	SV_PROMPT_RANKS,   /* "rank filter" */
	SV_PROMPT_COMMAND, /* ":" */
	SV_PROMPT_COUNT
};

#define SV_VIEW_PROMPT_MAX SV_SESSION_TEXT_MAX
#define SV_VIEW_MAINS      16 /* main modes at most */
#define SV_VIEW_STACK      4  /* popups and prompts at most */
#define SV_VIEW_BACK       16 /* main modes Esc goes back through */

struct sv_view_opts {
	bool ascii;        /* ASCII glyphs instead of Unicode */
	bool no_mouse;     /* ignore mouse keys */
	const char *title; /* shown in the status line; NULL = profile path */
	/* A second run to compare with from the start (sv_view_set_second;
	 * borrowed), and its title; NULL = none. */
	const struct sv_profile *second;
	const char *second_title;
	/* :export's writer (borrowed, outlives the view); NULL: the
	 * command says it is not available */
	const struct sv_sink *sink;
	/* --ranks as given (sv_session_set_ranks' form), applied as the rank
	 * filter when the profile holds every rank (a layout the loader
	 * cannot read a subset of); NULL = none. */
	const char *ranks;
	/* The memory budget in bytes (sv_session_opts.memory); 0 = none. */
	uint64_t memory;
	/* A runs workspace (runs.h; borrowed, outlives the view): the view
	 * of its placeholder profile (sv_runs_placeholder) whose first and
	 * only main mode is :view scaling; the runs start reading on the
	 * session's jobs.  NULL = none. */
	struct sv_runs *runs;
	/* The view is opened over another (a pair of runs over the
	 * workspace): q and Esc on its first main mode, where they would
	 * quit or ring, leave it instead (SV_REACT_LEAVE). */
	bool nested;
};

struct sv_view {
	struct sv_session s;
	int w, h;
	/* The main modes that have been shown (by sv_mode_table index;
	 * ops NULL until first shown) and which one is. */
	struct sv_mode mains[SV_VIEW_MAINS];
	int main;
	/* The first main mode (the timeline, or the statistics screen of a
	 * profile without calls), where going back ends and q quits; and
	 * the main modes shown before the one shown, oldest first, that Esc
	 * and q go back through.  Showing a mode that is in the list cuts
	 * the list back to before it. */
	int home;
	int back[SV_VIEW_BACK];
	size_t nback;
	/* Popups and prompts over the main mode, bottom first. */
	struct sv_mode stack[SV_VIEW_STACK];
	size_t depth;
	/* The path of the last `:open PATH` (SV_REACT_OPEN), for the loop
	 * that loads it. */
	char open_path[1024];
	const struct sv_sink *sink; /* from the options */
	struct sv_runs *runs;       /* from the options: a runs workspace */
	bool nested;                /* from the options */
	/* An `:export` of at least export_bg_calls calls (set by init to
	 * SV_VIEW_EXPORT_BG_CALLS; 0 = every one) runs on a worker
	 * (view_export.c), with its progress on the message line. */
	struct view_export *export_work; /* private; NULL when none runs */
	uint64_t export_bg_calls;
	/* A count typed before a key (vim's 20l): the digits so far, 0 for
	 * none.  The next action that moves is done that many times. */
	long count;
	/* What was entered at each kind of prompt (SV_PROMPT_*), for Up and
	 * Down. */
	struct sv_lineedit_history history[SV_PROMPT_COUNT];
};

/* Exports of at least this many calls run on a worker thread. */
#define SV_VIEW_EXPORT_BG_CALLS 200000

/* `:export FORMAT FILE` (the calls of the lanes on display that meet the
 * marked range, else the timeline's window) and `:export stop`.
 * SV_REACT_* flags. */
int sv_view_export(struct sv_view *v, const char *arg);
/* Whether an export runs on its worker (taken in with the session's
 * jobs), and its progress on the message line: SV_REACT_REDRAW when the
 * line changed. */
bool sv_view_export_running(const struct sv_view *v);
int sv_view_export_poll(struct sv_view *v);
/* Stop an export under way and wait for its worker (nothing when none
 * runs). */
void sv_view_export_stop(struct sv_view *v);

/* The largest count a key takes. */
#define SV_VIEW_COUNT_MAX 9999

/*
 * Set up v for profile p (borrowed, finished) and opts (may be NULL):
 * the timeline on a profile with calls, the statistics screen on one
 * without (the aggregate layout).  The screen size starts at 120 x 40
 * until sv_view_resize.  Returns 0, or a negative errno with err.
 */
int sv_view_init(struct sv_view *v, const struct sv_profile *p,
	const struct sv_view_opts *opts, struct sv_error *err);
/* NULL-safe; the profile is not freed. */
void sv_view_fini(struct sv_view *v);

/* Replace the profile (after a reload): the session keeps what it can
 * (session.h) and every main mode keeps its place where it still fits.
 * The old profile may be freed after this returns.  Returns 0 or -errno. */
int sv_view_set_profile(
	struct sv_view *v, const struct sv_profile *p, struct sv_error *err);
/* The same with what sp prepared of p off the loop's thread (its index,
 * colours and statistics: sv_session_set_profile_prepared). */
int sv_view_set_profile_prepared(struct sv_view *v, const struct sv_profile *p,
	struct sv_run_prep *sp, struct sv_error *err);

/* Compare with a second run p2 (borrowed until fini or the next call;
 * NULL ends the comparison): sv_session_set_second, every mode told. */
int sv_view_set_second(struct sv_view *v, const struct sv_profile *p2,
	const char *name, struct sv_error *err);
/* The same with a run prepared off the UI thread (session.h's
 * sv_run_prepare: its index is taken over). */
int sv_view_set_second_prepared(struct sv_view *v, struct sv_run_prep *sp,
	const char *name, struct sv_error *err);

/* The terminal is now w x h cells. */
void sv_view_resize(struct sv_view *v, int w, int h);

/* Apply one key (keys.h); returns SV_REACT_* flags. */
int sv_view_handle_key(struct sv_view *v, int key);
/* Apply one action (action.h) to the top mode as if its key was pressed. */
int sv_view_apply(struct sv_view *v, int action);

/* Make the main mode called name the one shown (SV_REACT_* flags; an
 * unknown name puts the known ones in the message line). */
int sv_view_switch(struct sv_view *v, const char *name);
/* Show the timeline with call c of the profile selected (and zoomed to
 * it when zoom): what a list's Enter does for a call.  SV_REACT_* flags
 * (BELL when the timeline cannot start). */
int sv_view_show_call(struct sv_view *v, uint32_t c, bool zoom);
/* Esc: stop the main mode's work under way and show the main mode shown
 * before it (the first one when none); q (close): the same, but quit
 * from the first main mode.  SV_REACT_* flags. */
int sv_view_back(struct sv_view *v);
int sv_view_close(struct sv_view *v);
/* Push a popup (enum sv_popup) or a prompt (enum sv_prompt, with its
 * initial text) over the main mode; SV_REACT_* flags. */
int sv_view_push_popup(struct sv_view *v, int kind, long region);
int sv_view_push_prompt(struct sv_view *v, int kind, const char *initial);
/* The `:` commands the viewer itself knows (view, export, quit); anything
 * else goes to the main mode.  SV_REACT_* flags.  `export FORMAT FILE`
 * writes the calls of the lanes on display that meet the marked range, or
 * without one the timeline's window, and says so in the message line. */
int sv_view_command(struct sv_view *v, const char *cmd);
/*
 * Tab at a prompt of kind (enum sv_prompt) whose text is text, the cursor
 * cursor bytes in: the candidates for the word before the cursor, pushed
 * onto out (sorted, unique, each the whole word: a directory ends in
 * '/'), and in *start the byte offset where that word begins.  `:` takes
 * commands and then what each command takes (views, files, export
 * formats, sort keys, region names, on/off); `/` and `\` take region
 * names.  Returns how many candidates out holds.
 */
size_t sv_view_complete(struct sv_view *v, int kind, const char *text,
	size_t cursor, size_t *start, struct sv_strv *out);
/* The first word of a command line cmd into word (n bytes, cut to fit),
 * blanks around it skipped; returns the rest (its argument), blanks
 * before it skipped. */
const char *sv_view_command_word(const char *cmd, char *word, size_t n);

/* The mode on top, the main mode, and the timeline's state (NULL when
 * the timeline has not been shown). */
struct sv_mode *sv_view_top(struct sv_view *v);
struct sv_mode *sv_view_main_mode(struct sv_view *v);
/* The instance of the main mode called name, started (not shown) if it
 * was not yet; NULL for an unknown name or a mode that fails to start
 * (the message line says why).  Valid as long as the view. */
struct sv_mode *sv_view_mode(struct sv_view *v, const char *name);
struct sv_timeline *sv_view_timeline(const struct sv_view *v);
/* The popup or prompt on top (SV_POPUP_NONE / SV_PROMPT_NONE if none). */
int sv_view_popup(const struct sv_view *v);
int sv_view_prompt(const struct sv_view *v);

/*
 * The one path of background work.  Every job (the session's search,
 * filter and span statistics, an export, and each started view's own:
 * a tree build, a histogram, a call list, the ranks strip) wakes the
 * loop when it finishes (job.h's sv_job_wake) and is taken in by
 * sv_view_poll, which the loop calls before every frame: SV_REACT_*
 * flags, REDRAW when something was adopted or progressed.  busy says
 * whether any of it is still under way or not yet taken in; it takes
 * nothing in itself.  While busy the loop redraws every poll interval,
 * for the progress lines.
 */
bool sv_view_busy(struct sv_view *v);
int sv_view_poll(struct sv_view *v);
/* Poll until nothing is busy or timeout_ms passed (negative: no limit;
 * a key script, the snapshot, a test: the screen a person sees once the
 * work is done); returns whether it all settled. */
bool sv_view_settle(struct sv_view *v, int timeout_ms);

/* Draw the whole screen: every mode from the bottom up (resizes g to the
 * view's size); a screen below SV_LAYOUT_MIN_W x SV_LAYOUT_MIN_H says it
 * is too small. */
void sv_render(struct sv_grid *g, const struct sv_view *v);

/* Parse a time such as "12.5ms", "3s", "400us", "1500" (ns) into ns;
 * returns 0 or -EINVAL. */
int sv_view_parse_time(const char *s, int64_t *ns);
/* Parse a range "T0:T1" of such times (T0 <= T1) into ns; returns 0 or
 * -EINVAL (nothing stored). */
int sv_view_parse_range(const char *spec, int64_t *t0, int64_t *t1);

#endif
