/*
 * app.h: the viewer's loop, talking to a backend.
 *
 * The loop owns the profile, the view (view.h) and one grid.  It loads the
 * file in a background thread (so the window appears at once and `q`
 * works while a large file loads), shows a progress bar over what is known
 * so far (the regions and stored statistics of the index, read first),
 * then hands every key to sv_view_handle_key() and redraws in one place
 * when the returned flags say so.  `R` reloads in the background and keeps
 * the view where it can.
 *
 * A backend is where the screen goes and the keys come from: the curses
 * terminal (term.h) in the real viewer, or a key script (below) in tests,
 * so the same keys give the same screens in both.  Nothing here includes
 * curses or HDF5.
 */
#ifndef SCOPEVIEW_APP_H
#define SCOPEVIEW_APP_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_UI)
#error "scopeview/app.h belongs to the ui layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>

#include "scopeview/common.h"
#include "scopeview/grid.h"
#include "scopeview/source.h"
#include "scopeview/view.h"

struct sv_backend {
	/* The screen size in cells. */
	void (*size)(void *ctx, int *w, int *h);
	/* The next key (keys.h).  timeout_ms < 0 waits as long as it takes;
	 * otherwise SV_KEY_NONE when nothing came in time.  SV_KEY_EOF ends
	 * the loop; SV_KEY_RESIZE means ask size() again. */
	int (*getkey)(void *ctx, int timeout_ms);
	/* Show the grid (which stays owned by the loop). */
	void (*present)(void *ctx, const struct sv_grid *g);
	/* A key did nothing (may be NULL). */
	void (*beep)(void *ctx);
	/* Make the getkey waiting now, or the next one, return SV_KEY_NONE
	 * at once: what a worker calls when it has a result for the loop
	 * (job.h's sv_job_wake), from any thread and at any time, even after
	 * the loop has returned, so it keeps no state that the backend
	 * frees.  NULL: the loop looks at running work every poll_ms. */
	void (*wake)(void);
	void *ctx;
};

struct sv_app_opts {
	const char *path;        /* the profile to open (required) */
	const char *path2;       /* a second run to compare with, or NULL */
	struct sv_source source; /* how to load it (required) */
	const char *title;       /* status line title; NULL = the path */
	bool ascii;              /* ASCII glyphs (else by the locale) */
	bool no_mouse;           /* ignore mouse keys */
	int panel_width;         /* summary panel columns; 0 = by the screen */
	unsigned panel_cols;     /* its numeric columns; 0 = as many as fit */
	bool sort_set;           /* sort_key is the panel's first order */
	int sort_key;            /* enum sv_stats_key */
	int poll_ms;         /* how often to look at a running load; 0 = 100 */
	bool load_in_thread; /* false: load before the loop (for tests) */
	const struct sv_sink *sink; /* :export's writer (sink.h); NULL = none */
	const char *ranks; /* --ranks as given (sv_view_opts.ranks), with
			      source.rank_on parsed from it; NULL = all */
	/* Three or more runs (borrowed until sv_app_free; path and path2
	 * are then not read): a runs workspace (runs.h) opens, its first
	 * view :view scaling, the runs read one by one through source, and
	 * Enter on two of its points shows them as path and path2 would,
	 * over the workspace (q or Esc on that first view comes back).
	 * sv_app_run returns -EIO when no run of it could be read. */
	const char *const *runs;
	size_t nruns;
};

struct sv_app;

/* A new app for opts (copied; the path is copied). */
struct sv_app *sv_app_new(const struct sv_app_opts *opts);
/* NULL-safe. */
void sv_app_free(struct sv_app *a);

/*
 * Run the loop on backend b until a key quits, the keys end, or the first
 * load fails.  Returns 0 (quit, also after `q` cancelled a load), or a
 * negative errno with err when the profile could not be read (the caller
 * prints err after the backend is gone).  A failed reload only puts its
 * message in the status line.
 */
int sv_app_run(
	struct sv_app *a, const struct sv_backend *b, struct sv_error *err);

/*
 * Whether a load thread that q (or Ctrl-C) left behind is still reading
 * its file.  q never waits for the read in flight; the thread stops
 * after it, on its own.  A caller about to leave the process while this
 * says true must do so with _exit() once the terminal is restored and
 * its output flushed: exit() would run the HDF5 library's exit handler
 * (which closes every open object) while the thread is inside the
 * library.  The viewer only reads profiles, so leaving mid-read leaves
 * the file as it was.
 */
bool sv_app_loads_in_file(void);

/* The view after sv_app_run (NULL when no profile was loaded); valid until
 * sv_app_free(). */
const struct sv_view *sv_app_view(const struct sv_app *a);
/* The last grid presented; valid until sv_app_free(). */
const struct sv_grid *sv_app_grid(const struct sv_app *a);

/* ---- the key-script backend --------------------------------------------
 *
 * Feeds keys[0 .. nkeys) (not copied: keep them alive), then SV_KEY_EOF.
 * The size starts at w x h; the script may change it: a key
 * SV_KEY_RESIZE at keys[i] takes the next two entries as the new width
 * and height.  While a load is running (getkey with a timeout) it returns
 * SV_KEY_NONE without consuming a key, unless keys_during_load is set, so
 * scripts are deterministic.  Counts presents. */
struct sv_script {
	const int *keys;
	size_t nkeys, pos;
	int w, h;
	bool keys_during_load;
	size_t presents;
	size_t beeps;
};

/* Point b at script s. */
void sv_script_backend(struct sv_backend *b, struct sv_script *s);

#endif
