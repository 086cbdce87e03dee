/*
 * mode.h: the contract of a view.
 *
 * Everything the viewer shows is drawn by a mode: the timeline, the
 * statistics screen, a popup (help, source, metadata, warnings), a prompt
 * (search, filter, ranks, commands).  A mode is one file with one struct
 * sv_mode_ops and one row in the mode table (sv_mode_find); its keys are
 * rows of the action table (action.h) with its scope.  The viewer
 * (view.h) holds a stack of modes on one session (session.h): the bottom
 * is the main mode (`:view NAME` or V switches it), popups and prompts
 * are pushed over it and popped by their own keys.
 *
 * The flow of a key: the top mode's scopes are searched in order for an
 * action bound to the key (action.h); a hit goes to apply(); a miss goes
 * to key(), where a prompt takes text; whatever is left rings the bell.
 * A mode changes its own state and the session's, and returns SV_REACT_*
 * flags; one place (the viewer's loop) redraws: draw() of every mode on
 * the stack from the bottom up, each into the whole screen rectangle (a
 * popup draws a box over what lies below; a prompt draws the status row).
 *
 * Modes never print, never block and never allocate per frame; heavy
 * work for a mode runs off the UI thread, as a job of the session's
 * (job.h) that the viewer's loop takes in.  Nothing here knows about
 * curses or HDF5.
 */
#ifndef SCOPEVIEW_MODE_H
#define SCOPEVIEW_MODE_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/mode.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/grid.h"
#include "scopeview/session.h"

struct sv_view;
struct sv_list;

/* What a key did (bits of apply(), key() and the viewer's key handler). */
enum {
	SV_REACT_REDRAW = 1 << 0, /* redraw the screen */
	SV_REACT_QUIT = 1 << 1,   /* leave the viewer */
	SV_REACT_RELOAD = 1 << 2, /* the user asked to reload the file */
	SV_REACT_BELL = 1 << 3,   /* nothing to do for that key */
	SV_REACT_POP = 1 << 4,    /* pop this mode (a popup or a prompt) */
	SV_REACT_PASS = 1 << 5,   /* then give the same action to the mode
				     below (another popup's key) */
	SV_REACT_COMMIT = 1 << 6, /* a prompt was entered: pop it and give
				     its text to the main mode */
	SV_REACT_OPEN = 1 << 7,   /* :open PATH: load a second run to
				     compare with (the path in the view) */
	SV_REACT_PAIR = 1 << 8,   /* open the runs workspace's pair
				     (runs.h's pair) on the two-run
				     timeline, over the workspace */
	SV_REACT_LEAVE = 1 << 9,  /* leave a view opened over another (a
				     pair over the runs workspace) */
};

/* A rectangle of the screen, [x, x + w) x [y, y + h). */
struct sv_rect {
	int x, y, w, h;
};

struct sv_mode;

struct sv_mode_ops {
	const char *name;   /* "timeline": the :view name */
	const char *title;  /* "Timeline": for help and docs */
	bool main;          /* a main mode (else a popup or prompt) */
	unsigned scopes[4]; /* SV_SCOPE_* bits searched in this order,
				 0-terminated; see also panel_scope */
	size_t size;        /* bytes of the mode's own state (data) */

	/* Set up the state for the session's profile; 0 or -errno. */
	int (*init)(struct sv_mode *m, struct sv_error *err);
	/* Free what init allocated (the state itself is freed by the
	 * viewer).  May be NULL. */
	void (*fini)(struct sv_mode *m);
	/* The session changed (SV_SESSION_* bits): rebuild what is derived
	 * from it.  May be NULL. */
	void (*notify)(struct sv_mode *m, unsigned what);
	/* The screen is now w x h.  May be NULL. */
	void (*resize)(struct sv_mode *m, int w, int h);
	/* Whether the mode's focus is on its summary panel, so that the
	 * panel's keys come first.  May be NULL (never). */
	bool (*panel_focus)(const struct sv_mode *m);
	/* Do action a (action.h); returns SV_REACT_* flags.  May be NULL (a
	 * list view whose keys are all the list's: the bell). */
	int (*apply)(struct sv_mode *m, int action);
	/* A key no action of the mode's scopes binds (text for a prompt, a
	 * mouse event); returns SV_REACT_* flags, or -1 for "not mine" (a
	 * mouse event then goes to the mode below).  May be NULL. */
	int (*key)(struct sv_mode *m, int key);
	/* Draw into the grid (of the screen's size) inside r. */
	void (*draw)(
		const struct sv_mode *m, struct sv_grid *g, struct sv_rect r);
	/* The status line of a main mode: its text after the session's
	 * title into line (n bytes), and the hints it offers for the right
	 * end, longest first (*hints may stay NULL).  The viewer draws the
	 * row after draw(): the title, the text, then the message line or
	 * the longest hint that fits.  May be NULL: the mode draws its own
	 * status row, or has none. */
	void (*status)(const struct sv_mode *m, char *line, size_t n,
		const char *const **hints, size_t *nhints);
	/* The mode's own state as "key=value" words ("row=3 col=1"), for
	 * tests and debugging; never drawn.  May be NULL. */
	void (*describe)(const struct sv_mode *m, char *buf, size_t n);
	/* A prompt over this main mode was entered (kind: enum sv_prompt,
	 * view.h; the viewer has already taken the commands it knows).
	 * Returns SV_REACT_* flags, or -1 for an unknown command.  May be
	 * NULL. */
	int (*prompt)(struct sv_mode *m, int kind, const char *text);
	/* The mode was just made the main mode (after init the first time,
	 * and on every return to it): take the session's selection as its
	 * input.  May be NULL. */
	void (*show)(struct sv_mode *m);
	/* (Heavy work of a mode runs as a job on the session's jobs,
	 * job.h: started with the function that takes its result in, which
	 * the viewer's loop calls before the next frame once the job is
	 * done.  A mode never joins a thread, and has no poll of its own.) */
	/* Stop the mode's work under way (Esc leaves the view while it
	 * builds): nothing of it is taken in, and the next show starts it
	 * again.  May be NULL (no work of its own). */
	void (*cancel)(struct sv_mode *m);
	/* The list (list.h) that the list keys (SV_SCOPE_LIST) move now, or
	 * NULL: a list view's rows, the summary panel while it has the
	 * focus, a popup's text.  May be NULL (never a list). */
	struct sv_list *(*list)(struct sv_mode *m);
};

struct sv_mode {
	const struct sv_mode_ops *ops;
	struct sv_view *view; /* the viewer the mode belongs to */
	struct sv_session *s; /* the shared state, == &view->s */
	void *data;           /* ops->size bytes, zeroed, owned */
	int w, h;             /* the screen size */
	/* For popups and prompts: which one (SV_POPUP_*, SV_PROMPT_*). */
	int kind;
};

/* The main modes, in the order V steps through them, then the others;
 * NULL-terminated. */
extern const struct sv_mode_ops *const sv_mode_table[];

/* The main mode called name, or NULL. */
const struct sv_mode_ops *sv_mode_find(const char *name);

/* The modes of the table (mode_*.c). */
extern const struct sv_mode_ops sv_mode_timeline;
extern const struct sv_mode_ops sv_mode_stats;
extern const struct sv_mode_ops sv_mode_tree;
extern const struct sv_mode_ops sv_mode_flame;
extern const struct sv_mode_ops sv_mode_callers;
extern const struct sv_mode_ops sv_mode_popup;
extern const struct sv_mode_ops sv_mode_prompt;
extern const struct sv_mode_ops sv_mode_ranks;
extern const struct sv_mode_ops sv_mode_histogram;
extern const struct sv_mode_ops sv_mode_calls;
extern const struct sv_mode_ops sv_mode_trend;
extern const struct sv_mode_ops sv_mode_scaling;

/* Whether main mode ops can show v: a runs workspace (view.h's runs) shows
 * only the scaling view, which needs one; when say, the message line tells
 * why not. */
bool sv_mode_fits(struct sv_view *v, const struct sv_mode_ops *ops, bool say);

/* Give the call-list mode m calls[0 .. n) (copied) of region (-1 for
 * several regions), titled title (a bin, a search): it sorts them and
 * shows them, also when shown again later, until the marked region, the
 * search, the lanes shown, the filter or the profile change.  longest:
 * the calls come longest first (ties in call-number order, calls.h), so
 * the default order needs no sort. */
void sv_mode_calls_set(struct sv_mode *m, const uint32_t *calls, size_t n,
	long region, const char *title, bool longest);

/* Set up a popup just pushed: the source popup's region (-1 for none)
 * and the scopes whose keys the help lists. */
void sv_mode_popup_setup(struct sv_mode *m, long region, unsigned scopes);
/* The first line a popup shows (its scroll position). */
long sv_mode_popup_top(const struct sv_mode *m);
/* Set up a prompt just pushed with its initial text. */
void sv_mode_prompt_setup(struct sv_mode *m, const char *initial);
/* The text typed into prompt m (valid until the prompt is popped). */
const char *sv_mode_prompt_text(const struct sv_mode *m);
/* The byte offset of the cursor in that text. */
size_t sv_mode_prompt_cursor(const struct sv_mode *m);

#endif
